//! Hand-built column chunks for the record reader tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::Bytes;
use strata_encoding::LevelEncoder;
use strata_encoding::chunk::ChunkValue;
use strata_file::page_reader::PageReader;
use strata_format::metadata::{
    CompressionCodec, ConvertedType, DataPageHeader, DataPageHeaderV2, DictionaryPageHeader,
    Encoding, FieldRepetitionType, PageHeader, PageType, Type,
};
use strata_format::schema::{BasicTypeInfo, Type as SchemaType};
use strata_format::{ColumnDescriptor, ColumnPath, thrift};
use strata_record::{ColumnRecordReader, RecordBatchBuffers};
use strata_sink::ByteSink;

pub fn descr(physical: Type, max_def: i16, max_rep: i16) -> ColumnDescriptor {
    let repetition = if max_rep > 0 {
        FieldRepetitionType::Repeated
    } else if max_def > 0 {
        FieldRepetitionType::Optional
    } else {
        FieldRepetitionType::Required
    };
    let leaf = SchemaType::PrimitiveType {
        basic_info: BasicTypeInfo::new(
            "c".into(),
            Some(repetition),
            ConvertedType::NONE,
            None,
            None,
        ),
        physical_type: physical,
        type_length: -1,
        scale: -1,
        precision: -1,
    };
    ColumnDescriptor::new(
        std::sync::Arc::new(leaf),
        max_def,
        max_rep,
        ColumnPath::new(vec!["c".into()]),
    )
}

fn header(page_type: PageType, len: usize) -> PageHeader {
    PageHeader {
        page_type,
        uncompressed_page_size: len as i32,
        compressed_page_size: len as i32,
        crc: None,
        data_page_header: None,
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    }
}

/// A column chunk under construction.
#[derive(Default)]
pub struct Chunk {
    bytes: Vec<u8>,
    pub num_values: i64,
}

impl Chunk {
    fn push(&mut self, header: &PageHeader, body: &[u8]) {
        let mut sink = ByteSink::new();
        thrift::encode(header, &mut sink);
        self.bytes.extend_from_slice(sink.as_slice());
        self.bytes.extend_from_slice(body);
    }

    pub fn dictionary_page(&mut self, body: &[u8], num_values: usize) {
        let mut h = header(PageType::DictionaryPage, body.len());
        h.dictionary_page_header = Some(DictionaryPageHeader {
            num_values: num_values as i32,
            encoding: Encoding::Plain,
            is_sorted: None,
        });
        self.push(&h, body);
    }

    /// A chunk of one dictionary page (`dict`, `entries` entries) and
    /// dictionary-encoded pages of an optional column (definition levels,
    /// index page body): v2 pages as RLE_DICTIONARY, v1 pages as
    /// PLAIN_DICTIONARY.
    pub fn dictionary(
        dict: &[u8],
        entries: usize,
        pages: &[(Vec<i16>, Vec<u8>)],
        v2: bool,
    ) -> Self {
        let mut chunk = Chunk::default();
        chunk.dictionary_page(dict, entries);
        for (defs, indices) in pages {
            if v2 {
                chunk.v2(0, 1, &[], defs, Encoding::RleDictionary, indices);
            } else {
                chunk.v1(0, 1, &[], defs, Encoding::PlainDictionary, indices);
            }
        }
        chunk
    }

    /// A v1 page: levels RLE with length prefix, then `values`.
    pub fn v1(
        &mut self,
        max_rep: i16,
        max_def: i16,
        reps: &[i16],
        defs: &[i16],
        encoding: Encoding,
        values: &[u8],
    ) {
        let n = reps.len().max(defs.len());
        let mut body = ByteSink::new();
        if max_rep > 0 {
            let mut enc = LevelEncoder::new(max_rep).unwrap();
            enc.put(reps).unwrap();
            enc.flush_v1(&mut body).unwrap();
        }
        if max_def > 0 {
            let mut enc = LevelEncoder::new(max_def).unwrap();
            enc.put(defs).unwrap();
            enc.flush_v1(&mut body).unwrap();
        }
        body.extend_from_slice(values);
        let mut h = header(PageType::DataPage, body.len());
        h.data_page_header = Some(DataPageHeader {
            num_values: n as i32,
            encoding,
            definition_level_encoding: Encoding::Rle,
            repetition_level_encoding: Encoding::Rle,
            statistics: None,
        });
        self.push(&h, body.as_slice());
        self.num_values += n as i64;
    }

    /// A v2 page: levels RLE without prefix (lengths in the header).
    pub fn v2(
        &mut self,
        max_rep: i16,
        max_def: i16,
        reps: &[i16],
        defs: &[i16],
        encoding: Encoding,
        values: &[u8],
    ) {
        let n = reps.len().max(defs.len());
        let mut body = ByteSink::new();
        let mut rep_len = 0;
        let mut def_len = 0;
        if max_rep > 0 {
            let mut enc = LevelEncoder::new(max_rep).unwrap();
            enc.put(reps).unwrap();
            rep_len = enc.flush_v2(&mut body).unwrap();
        }
        if max_def > 0 {
            let mut enc = LevelEncoder::new(max_def).unwrap();
            enc.put(defs).unwrap();
            def_len = enc.flush_v2(&mut body).unwrap();
        }
        body.extend_from_slice(values);
        let num_nulls = if max_def > 0 {
            defs.iter().filter(|&&d| d < max_def).count()
        } else {
            0
        };
        let num_rows = if max_rep > 0 {
            reps.iter().filter(|&&r| r == 0).count()
        } else {
            n
        };
        let mut h = header(PageType::DataPageV2, body.len());
        h.data_page_header_v2 = Some(DataPageHeaderV2 {
            num_values: n as i32,
            num_nulls: num_nulls as i32,
            num_rows: num_rows as i32,
            encoding,
            definition_levels_byte_length: def_len as i32,
            repetition_levels_byte_length: rep_len as i32,
            is_compressed: Some(false),
            statistics: None,
        });
        self.push(&h, body.as_slice());
        self.num_values += n as i64;
    }

    /// Bytes written so far (the offset of the next page).
    pub fn offset(&self) -> usize {
        self.bytes.len()
    }

    pub fn reader(self) -> PageReader {
        PageReader::new(
            Bytes::from(self.bytes),
            CompressionCodec::Uncompressed,
            self.num_values,
        )
        .unwrap()
    }
}

/// Encode `values` with `enc` and return the page bytes.
pub fn encode<T: strata_encoding::ValueType, E: strata_encoding::Encoder<T>>(
    enc: &mut E,
    values: T::Batch<'_>,
) -> Vec<u8> {
    enc.put(values).unwrap();
    let mut sink = ByteSink::new();
    enc.flush_into(&mut sink).unwrap();
    sink.as_slice().to_vec()
}

/// A small deterministic generator.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Every row of a flat column, `None` for nulls, read in batches of
/// `batch` records.
pub fn read_flat<T>(reader: &mut ColumnRecordReader<T>, batch: usize) -> Vec<Option<T>>
where
    T: ChunkValue<Values = Vec<T>> + Copy + Default + std::fmt::Debug,
{
    let mut out = RecordBatchBuffers::new();
    let mut rows = Vec::new();
    while reader.read_records(batch, &mut out).unwrap() > 0 {
        rows.extend((0..out.num_levels).map(|i| out.is_valid(i).then(|| out.values[i])));
    }
    rows
}
