//! Deterministic inputs for the benchmarks.

use strata_sink::rle::RleEncoder;

/// A small xorshift generator: deterministic, no dependency.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next pseudo-random `u64`.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// `count` values of `bit_width` bits packed LSB-first (plus 8 padding bytes).
pub fn packed_values(count: usize, bit_width: u32, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut w = strata_sink::BitWriter::new();
    let mask = if bit_width == 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    for _ in 0..count {
        w.put_value(rng.next_u64() & mask, bit_width);
    }
    let mut v = w.into_vec();
    v.extend_from_slice(&[0; 8]);
    v
}

/// An RLE/bit-packed hybrid stream of `count` values shaped like definition
/// levels or dictionary indices: runs of repeats mixed with random stretches.
pub fn rle_stream(count: usize, bit_width: u32, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mask = if bit_width >= 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    let mut enc = RleEncoder::new(bit_width);
    let mut written = 0;
    while written < count {
        let len = (rng.next_u64() % 64 + 1) as usize;
        let len = len.min(count - written);
        if rng.next_u64() % 2 == 0 {
            enc.put_repeated(rng.next_u64() & mask, len);
        } else {
            for _ in 0..len {
                enc.put(rng.next_u64() & mask);
            }
        }
        written += len;
    }
    enc.finish()
}

/// The Thrift-encoded `FileMetaData` of a wide file: `columns` leaf columns
/// (INT64, DOUBLE, UTF-8 strings and optional INT32 in turn) and
/// `row_groups` row groups, each chunk with statistics, encoding stats and
/// page-index offsets, as a writer such as arrow-rs or pyarrow produces them.
pub fn wide_footer(columns: usize, row_groups: usize) -> Vec<u8> {
    use strata_format::metadata::{
        ColumnChunk, ColumnMetaData, CompressionCodec, Encoding, FieldRepetitionType, FileMetaData,
        LogicalType, PageEncodingStats, PageType, RowGroup, SchemaElement, Statistics, Type,
    };

    let kind = |i: usize| i % 4;
    let mut schema = vec![SchemaElement {
        name: "schema".into(),
        num_children: Some(columns as i32),
        ..Default::default()
    }];
    for i in 0..columns {
        let (ty, logical, repetition) = match kind(i) {
            0 => (Type::Int64, None, FieldRepetitionType::Required),
            1 => (Type::Double, None, FieldRepetitionType::Required),
            2 => (
                Type::ByteArray,
                Some(LogicalType::String),
                FieldRepetitionType::Optional,
            ),
            _ => (Type::Int32, None, FieldRepetitionType::Optional),
        };
        schema.push(SchemaElement {
            physical_type: Some(ty),
            repetition_type: Some(repetition),
            name: format!("column_{i:04}"),
            logical_type: logical,
            ..Default::default()
        });
    }
    let mut offset = 4i64;
    let mut groups = Vec::with_capacity(row_groups);
    for g in 0..row_groups {
        let mut chunks = Vec::with_capacity(columns);
        for i in 0..columns {
            let (ty, min, max): (Type, Vec<u8>, Vec<u8>) = match kind(i) {
                0 => (
                    Type::Int64,
                    (g as i64 * 1000).to_le_bytes().to_vec(),
                    (g as i64 * 1000 + 999).to_le_bytes().to_vec(),
                ),
                1 => (
                    Type::Double,
                    (-1.5f64).to_le_bytes().to_vec(),
                    (1e9f64 + i as f64).to_le_bytes().to_vec(),
                ),
                2 => (
                    Type::ByteArray,
                    b"aardvark".to_vec(),
                    format!("zebra_{i}").into_bytes(),
                ),
                _ => (
                    Type::Int32,
                    0i32.to_le_bytes().to_vec(),
                    (i as i32).to_le_bytes().to_vec(),
                ),
            };
            let size = 10_000 + i as i64;
            let meta = ColumnMetaData {
                physical_type: ty,
                encodings: vec![Encoding::Plain, Encoding::Rle, Encoding::RleDictionary].into(),
                path_in_schema: vec![format!("column_{i:04}")].into(),
                codec: CompressionCodec::Snappy,
                num_values: 100_000,
                total_uncompressed_size: size * 2,
                total_compressed_size: size,
                key_value_metadata: None,
                data_page_offset: offset + 100,
                index_page_offset: None,
                dictionary_page_offset: Some(offset),
                statistics: Some(Statistics {
                    max: None,
                    min: None,
                    null_count: Some((i % 7) as i64),
                    distinct_count: None,
                    max_value: Some(max.into()),
                    min_value: Some(min.into()),
                    is_max_value_exact: Some(true),
                    is_min_value_exact: Some(true),
                    nan_count: None,
                }),
                encoding_stats: Some(
                    vec![
                        PageEncodingStats {
                            page_type: PageType::DictionaryPage,
                            encoding: Encoding::Plain,
                            count: 1,
                        },
                        PageEncodingStats {
                            page_type: PageType::DataPage,
                            encoding: Encoding::RleDictionary,
                            count: 3,
                        },
                    ]
                    .into(),
                ),
                bloom_filter_offset: None,
                bloom_filter_length: None,
                size_statistics: None,
                geospatial_statistics: None,
            };
            chunks.push(ColumnChunk {
                file_offset: offset,
                meta_data: Some(meta),
                offset_index_offset: Some(1_000_000_000 + offset),
                offset_index_length: Some(40),
                column_index_offset: Some(2_000_000_000 + offset),
                column_index_length: Some(60),
                ..Default::default()
            });
            offset += size;
        }
        groups.push(RowGroup {
            columns: chunks,
            total_byte_size: 20_000 * columns as i64,
            num_rows: 100_000,
            file_offset: Some(4),
            total_compressed_size: Some(10_000 * columns as i64),
            ordinal: Some(g as i16),
            ..Default::default()
        });
    }
    let metadata = FileMetaData {
        version: 2,
        schema,
        num_rows: 100_000 * row_groups as i64,
        row_groups: groups,
        created_by: Some("strata benchmark generator".into()),
        ..Default::default()
    };
    let mut sink = strata_sink::ByteSink::new();
    strata_format::thrift::encode(&metadata, &mut sink);
    sink.into_vec()
}
