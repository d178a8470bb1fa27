//! Writer API misuse gives errors, never panics or corrupt files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod write_support;

use std::sync::Arc;

use strata_file::FileError;
use strata_file::codec::Compression;
use strata_file::properties::{Encoding, WriterProperties};
use strata_file::writer::{ClosedColumnChunk, ColumnChunkWriter, FileWriter, RowGroupWriter};
use strata_format::metadata::{FieldRepetitionType as Rep, KeyValue, Type};
use write_support::*;

fn is_invalid<T: std::fmt::Debug>(r: Result<T, FileError>) -> bool {
    matches!(r, Err(FileError::InvalidArgument(_)))
}

#[test]
fn wrong_type_and_encodings_are_rejected() {
    let schema = schema_for(Type::Float, Nesting::Optional);
    let descr = schema.column(0);
    let props = Arc::new(WriterProperties::default());
    assert!(is_invalid(ColumnChunkWriter::<i32>::new(
        descr.clone(),
        0,
        props
    )));
    let delta = Arc::new(
        WriterProperties::builder()
            .set_encoding(Encoding::DELTA_BINARY_PACKED)
            .build(),
    );
    assert!(is_invalid(ColumnChunkWriter::<f32>::new(
        descr.clone(),
        0,
        delta
    )));
    let dict = Arc::new(
        WriterProperties::builder()
            .set_encoding(Encoding::RLE_DICTIONARY)
            .build(),
    );
    assert!(is_invalid(ColumnChunkWriter::<f32>::new(
        descr.clone(),
        0,
        dict
    )));
    let lzo = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::LZO)
            .build(),
    );
    assert!(ColumnChunkWriter::<f32>::new(descr, 0, lzo).is_err());
}

#[test]
fn inconsistent_levels_are_rejected() {
    let schema = schema_for(Type::Int32, Nesting::Repeated);
    let descr = schema.column(0);
    let mut w =
        ColumnChunkWriter::<i32>::new(descr, 0, Arc::new(WriterProperties::default())).unwrap();
    // Missing levels, values not matching, levels out of range, a chunk
    // starting mid-record.
    assert!(is_invalid(w.write_batch(&[1], None, None)));
    assert!(is_invalid(w.write_batch(
        &[1, 2],
        Some(&[2, 1]),
        Some(&[0, 1])
    )));
    assert!(is_invalid(w.write_batch(&[1], Some(&[3]), Some(&[0]))));
    assert!(is_invalid(w.write_batch(&[1], Some(&[2, 2]), Some(&[0]))));
    assert!(is_invalid(w.write_batch(&[1], Some(&[2]), Some(&[1]))));
    // Nothing was written by the failed calls.
    assert_eq!(w.rows_written(), 0);
    assert_eq!(
        w.write_batch(&[1, 2], Some(&[2, 2, 0]), Some(&[0, 1, 0]))
            .unwrap(),
        2
    );
    assert_eq!(w.close().unwrap().num_rows(), 2);
}

/// Closed chunks of the two INT32 columns of a row group: two rows in the
/// first, three in the second.
fn two_and_three_rows<W: std::io::Write + Send>(
    rg: &RowGroupWriter<'_, W>,
) -> (ClosedColumnChunk, ClosedColumnChunk) {
    let mut ws = rg.column_writers().unwrap();
    ws[0]
        .typed::<i32>()
        .unwrap()
        .write_batch(&[1, 2], None, None)
        .unwrap();
    ws[1]
        .typed::<i32>()
        .unwrap()
        .write_batch(&[1, 2, 3], None, None)
        .unwrap();
    let b = ws.pop().unwrap().close().unwrap();
    let a = ws.pop().unwrap().close().unwrap();
    (a, b)
}

#[test]
fn row_group_order_and_completeness() {
    let schema = schema_from(&[
        root(2),
        leaf("a", Type::Int32, Rep::Required),
        leaf("b", Type::Int32, Rep::Required),
    ]);
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![KeyValue {
            key: "k".into(),
            value: Some("v".into()),
        }]))
        .set_created_by("strata test".into())
        .build();
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    {
        let mut rg = fw.next_row_group().unwrap();
        let (a, b) = two_and_three_rows(&rg);
        // Out of order.
        assert!(is_invalid(rg.append_column(b.clone())));
        rg.append_column(a).unwrap();
        // Row count mismatch.
        assert!(is_invalid(rg.append_column(b)));
        // Incomplete.
        assert!(is_invalid(rg.close()));
    }
    // The unclosed row group poisons the file.
    assert!(is_invalid(fw.next_row_group().map(|_| ())));
    assert!(is_invalid(fw.finish()));

    // A clean file with the key/value metadata and created_by.
    let schema = schema_from(&[root(1), leaf("a", Type::Int32, Rep::Required)]);
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![KeyValue {
            key: "k".into(),
            value: Some("v".into()),
        }]))
        .set_created_by("strata test".into())
        .build();
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    fw.append_key_value_metadata(KeyValue {
        key: "k2".into(),
        value: None,
    });
    let mut rg = fw.next_row_group().unwrap();
    let mut w = rg.next_column().unwrap().unwrap();
    w.typed::<i32>()
        .unwrap()
        .write_batch(&[7], None, None)
        .unwrap();
    rg.append_column(w.close().unwrap()).unwrap();
    rg.close().unwrap();
    let meta = fw.close().unwrap();
    assert_eq!(meta.created_by.as_deref(), Some("strata test"));
    let decoded = strata_format::footer::read_metadata_from_slice(&out).unwrap();
    assert_eq!(decoded, meta);
    let kv = decoded.key_value_metadata.unwrap();
    assert_eq!(kv.len(), 2);
    let reader = parquet::file::reader::SerializedFileReader::new(bytes::Bytes::from(out)).unwrap();
    use parquet::file::reader::FileReader;
    assert_eq!(
        reader.metadata().file_metadata().created_by(),
        Some("strata test")
    );
    assert_eq!(reader.metadata().file_metadata().num_rows(), 1);
}

#[test]
fn dictionary_fallback_and_encodings_recorded() {
    use strata_format::metadata::{Encoding as E, PageType};
    let schema = schema_for(Type::ByteArray, Nesting::Optional);
    let mut rng = Rng(5);
    let data = gen_column(
        &mut rng,
        Type::ByteArray,
        Nesting::Optional,
        Nulls::Some,
        4000,
    );
    let props = WriterProperties::builder()
        .set_dictionary_page_size_limit(64)
        .set_write_batch_size(50)
        .set_writer_version(strata_file::properties::WriterVersion::PARQUET_2_0)
        .build();
    let (file, meta) = write_file(schema, props, &data, 4000, 1000);
    let cm = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    let stats = cm.encoding_stats.as_ref().unwrap();
    let count = |t: PageType, e: E| {
        stats
            .iter()
            .find(|p| p.page_type == t && p.encoding == e)
            .map_or(0, |p| p.count)
    };
    assert_eq!(count(PageType::DictionaryPage, E::Plain), 1);
    assert!(count(PageType::DataPageV2, E::RleDictionary) >= 1);
    assert!(count(PageType::DataPageV2, E::DeltaByteArray) >= 1);
    assert!(cm.dictionary_page_offset.is_some());
    assert!(cm.dictionary_page_offset.unwrap() < cm.data_page_offset);
    assert_eq!(read_back(&file, 0).values, data.values);
}

#[test]
fn keyed_batches_check_their_keys() {
    let schema = schema_for(Type::Int32, Nesting::Optional);
    let descr = schema.column(0);
    let mut w =
        ColumnChunkWriter::<i32>::new(descr, 0, Arc::new(WriterProperties::default())).unwrap();
    assert!(w.is_dictionary_encoding());
    let entries = [7, 8, 9];
    // A key past the entries, and keys not matching the levels.
    assert!(is_invalid(w.write_keyed_batch(
        &entries,
        &[0, 3],
        Some(&[1, 1]),
        None
    )));
    assert!(is_invalid(w.write_keyed_batch(
        &entries,
        &[0],
        Some(&[1, 1]),
        None
    )));
    assert_eq!(w.rows_written(), 0);
    assert_eq!(
        w.write_keyed_batch(&entries, &[2, 0], Some(&[1, 0, 1]), None)
            .unwrap(),
        2
    );
    assert_eq!(w.close().unwrap().num_rows(), 3);

    // Dictionary encoding off: the keys are looked up and written as values.
    let schema = schema_for(Type::Int32, Nesting::Required);
    let descr = schema.column(0);
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .build();
    let mut w = ColumnChunkWriter::<i32>::new(descr, 0, Arc::new(props)).unwrap();
    assert!(!w.is_dictionary_encoding());
    assert_eq!(
        w.write_keyed_batch(&entries, &[0, 1, 2, 2, 1], None, None)
            .unwrap(),
        5
    );
    assert_eq!(w.close().unwrap().num_rows(), 5);
}

/// Data pages of each encoding in a chunk, from its encoding statistics.
fn data_pages(
    cm: &strata_format::metadata::ColumnMetaData,
    e: strata_format::metadata::Encoding,
) -> i32 {
    use strata_format::metadata::PageType;
    cm.encoding_stats
        .as_ref()
        .unwrap()
        .iter()
        .filter(|p| p.page_type == PageType::DataPage && p.encoding == e)
        .map(|p| p.count)
        .sum()
}

#[test]
fn mostly_distinct_values_fall_back_after_the_first_page() {
    use strata_format::metadata::Encoding as E;
    // 60,000 random INT64 values, 20,000 rows a page: the first page's
    // dictionary is as large as its values, so the chunk falls back there
    // (not at the 1 MiB dictionary limit, 131,072 values in).
    let schema = schema_for(Type::Int64, Nesting::Required);
    let mut rng = Rng(11);
    let mut data = gen_column(
        &mut rng,
        Type::Int64,
        Nesting::Required,
        Nulls::None,
        60_000,
    );
    for v in &mut data.values {
        *v = rng.next().to_le_bytes().to_vec();
    }
    let props = WriterProperties::builder()
        .set_data_page_row_count_limit(20_000)
        .build();
    let (file, meta) = write_file(schema, props, &data, 60_000, 1000);
    let cm = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    assert_eq!(data_pages(cm, E::PlainDictionary), 1);
    assert_eq!(data_pages(cm, E::Plain), 2);
    assert!(cm.dictionary_page_offset.is_some());
    assert_eq!(read_back(&file, 0).values, data.values);

    // The same number of values drawn from 100, and from 100,000 random
    // values (the first page repeats about a tenth of its values; its
    // dictionary is larger than its PLAIN values, yet it would pay over
    // more pages): every page stays dictionary encoded.
    let pool: Vec<u64> = (0..100_000).map(|_| rng.next()).collect();
    for distinct in [100, 100_000] {
        let mut drawn = gen_column(
            &mut rng,
            Type::Int64,
            Nesting::Required,
            Nulls::None,
            60_000,
        );
        for v in &mut drawn.values {
            *v = pool[rng.below(distinct) as usize].to_le_bytes().to_vec();
        }
        let schema = schema_for(Type::Int64, Nesting::Required);
        let props = WriterProperties::builder()
            .set_data_page_row_count_limit(20_000)
            .build();
        let (file, meta) = write_file(schema, props, &drawn, 60_000, 1000);
        let cm = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
        assert_eq!(data_pages(cm, E::PlainDictionary), 3, "{distinct} distinct");
        assert_eq!(data_pages(cm, E::Plain), 0, "{distinct} distinct");
        assert_eq!(read_back(&file, 0).values, drawn.values);
    }
}

/// A sink that takes at most `per_call` bytes a call, through a vectored
/// write that fills from several parts (as a file's `writev` may stop
/// short), counting the calls.
struct Trickle {
    out: Vec<u8>,
    per_call: usize,
    calls: usize,
}

impl std::io::Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_vectored(&[std::io::IoSlice::new(buf)])
    }

    fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        self.calls += 1;
        let mut room = self.per_call;
        for b in bufs {
            let n = b.len().min(room);
            self.out.extend_from_slice(&b[..n]);
            room -= n;
            if room == 0 {
                break;
            }
        }
        Ok(self.per_call - room)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A file of two row groups of two columns.
fn two_column_file<W: std::io::Write + Send>(out: W) -> W {
    let schema = schema_from(&[
        root(2),
        leaf("a", Type::Int32, Rep::Required),
        leaf("b", Type::Int64, Rep::Optional),
    ]);
    let props = WriterProperties::builder()
        .set_data_page_size_limit(64)
        .set_write_batch_size(16)
        .build();
    let mut fw = FileWriter::new(out, schema, Arc::new(props)).unwrap();
    for group in 0..2i32 {
        let mut rg = fw.next_row_group().unwrap();
        let mut ws = rg.column_writers().unwrap();
        let a: Vec<i32> = (0..100).map(|i| i * (group + 1)).collect();
        ws[0]
            .typed::<i32>()
            .unwrap()
            .write_batch(&a, None, None)
            .unwrap();
        let b: Vec<i64> = (0..90).map(|i| i64::from(i + group)).collect();
        let defs: Vec<i16> = (0..100).map(|i| i16::from(i % 10 != 0)).collect();
        ws[1]
            .typed::<i64>()
            .unwrap()
            .write_batch(&b, Some(&defs), None)
            .unwrap();
        for w in ws {
            rg.append_column(w.close().unwrap()).unwrap();
        }
        rg.close().unwrap();
    }
    fw.into_inner().unwrap()
}

/// A chunk's pages go to the sink in one vectored write: a sink that takes
/// a few bytes a call still gets every byte, in order.
#[test]
fn a_sink_that_takes_a_few_bytes_a_call_gets_every_page() {
    let whole = two_column_file(Vec::new());
    let trickle = two_column_file(Trickle {
        out: Vec::new(),
        per_call: 7,
        calls: 0,
    });
    assert_eq!(trickle.out, whole);
    assert!(trickle.calls >= whole.len() / 7);
    // Several pages a chunk (64-byte pages), and the file reads back.
    let reader =
        parquet::file::reader::SerializedFileReader::new(bytes::Bytes::from(whole)).unwrap();
    use parquet::file::reader::FileReader;
    assert_eq!(reader.metadata().num_row_groups(), 2);
    assert_eq!(reader.metadata().file_metadata().num_rows(), 200);
    let pages = reader
        .get_row_group(0)
        .unwrap()
        .get_column_page_reader(0)
        .unwrap()
        .count();
    assert!(pages > 2, "{pages} pages");
}
