//! Bloom filters probed through the Arrow reader's builders
//! (`get_row_group_column_bloom_filter`, sync and async) and
//! `Sbbf::check`, with arrow-rs `parquet` 60.1 as the oracle:
//!
//! - every value strata writes with Bloom filters on checks `true` (ints,
//!   floats, strings, binary), and the false-positive rate over 100 000
//!   absent values stays near the configured probability;
//! - on files strata, arrow-rs and pyarrow write and on the corpus's files
//!   with Bloom filters, strata's filter answers every probe as arrow-rs's;
//! - a hostile or truncated filter is an error, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/python.rs"]
mod python;

use std::sync::Arc;

use arrow_array::{
    ArrayRef, BinaryArray, Float32Array, Float64Array, Int32Array, Int64Array, RecordBatch,
    StringArray,
};
use bytes::Bytes;

/// Rows written: distinct values in every column.
const ROWS: usize = 20_000;
/// Absent values probed per column for the false-positive rate.
const ABSENT: usize = 100_000;
/// The false-positive probability the filters are written with.
const FPP: f64 = 0.01;

/// One column's probe values, typed as a user would pass them to `check`.
#[derive(Clone)]
enum Values {
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Str(Vec<String>),
    Bin(Vec<Vec<u8>>),
}

/// The values of column `col` (`present`: the rows written; else values
/// the file does not hold), `n` of them.
fn values(col: usize, present: bool, n: usize) -> Values {
    let base = if present { 0 } else { 10_000_000 };
    let ids = (0..n).map(move |i| base + i as i64 * 7);
    match col {
        0 => Values::I32(ids.map(|i| i as i32).collect()),
        1 => Values::I64(ids.map(|i| i * 1_000_003).collect()),
        2 => Values::F32(ids.map(|i| i as f32 * 0.5).collect()),
        3 => Values::F64(ids.map(|i| i as f64 * 0.25).collect()),
        4 => Values::Str(ids.map(|i| format!("name-{i}")).collect()),
        _ => Values::Bin(ids.map(|i| i.to_be_bytes()[3..].to_vec()).collect()),
    }
}

const COLUMNS: [&str; 6] = ["i32", "i64", "f32", "f64", "str", "bin"];

fn batch() -> RecordBatch {
    let arrays: Vec<ArrayRef> = (0..COLUMNS.len())
        .map(|c| -> ArrayRef {
            match values(c, true, ROWS) {
                Values::I32(v) => Arc::new(Int32Array::from(v)),
                Values::I64(v) => Arc::new(Int64Array::from(v)),
                Values::F32(v) => Arc::new(Float32Array::from(v)),
                Values::F64(v) => Arc::new(Float64Array::from(v)),
                Values::Str(v) => Arc::new(StringArray::from(v)),
                Values::Bin(v) => Arc::new(BinaryArray::from_iter_values(v)),
            }
        })
        .collect();
    RecordBatch::try_from_iter(COLUMNS.iter().zip(arrays).map(|(n, a)| (*n, a))).unwrap()
}

/// The answers of one filter to every value, by `check`: the same code
/// for strata's and arrow-rs's `Sbbf` (each with its own `AsBytes`).
macro_rules! probe {
    ($filter:expr, $values:expr) => {{
        let f = $filter;
        match $values {
            Values::I32(v) => v.iter().map(|x| f.check(x)).collect::<Vec<bool>>(),
            Values::I64(v) => v.iter().map(|x| f.check(x)).collect(),
            Values::F32(v) => v.iter().map(|x| f.check(x)).collect(),
            Values::F64(v) => v.iter().map(|x| f.check(x)).collect(),
            Values::Str(v) => v.iter().map(|x| f.check(x.as_str())).collect(),
            Values::Bin(v) => v.iter().map(|x| f.check(x.as_slice())).collect(),
        }
    }};
}

/// `batch` written by `$pq` (`strata` or `parquet`) with Bloom filters on
/// every column, for [`ROWS`] values at [`FPP`].
macro_rules! write_with_blooms {
    ($pq:ident, $batch:expr) => {{
        let props = $pq::file::properties::WriterProperties::builder()
            .set_bloom_filter_enabled(true)
            .set_bloom_filter_fpp(FPP)
            .set_bloom_filter_max_ndv(ROWS as u64)
            .build();
        let mut out = Vec::new();
        let mut w =
            $pq::arrow::ArrowWriter::try_new(&mut out, $batch.schema(), Some(props)).unwrap();
        w.write($batch).unwrap();
        w.close().unwrap();
        Bytes::from(out)
    }};
}

fn write_strata(batch: &RecordBatch) -> Bytes {
    write_with_blooms!(strata, batch)
}

fn write_arrow_rs(batch: &RecordBatch) -> Bytes {
    write_with_blooms!(parquet, batch)
}

fn strata_filter(file: &Bytes, rg: usize, col: usize) -> Option<strata::bloom_filter::Sbbf> {
    strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .get_row_group_column_bloom_filter(rg, col)
        .unwrap()
}

fn arrow_rs_filter(file: &Bytes, rg: usize, col: usize) -> Option<parquet::bloom_filter::Sbbf> {
    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .get_row_group_column_bloom_filter(rg, col)
        .unwrap()
}

/// strata's and arrow-rs's filters of every column chunk of `file` give
/// the same answer to each of `probes[col]`; returns how many chunks had
/// a filter.
fn same_answers_as_arrow_rs(what: &str, file: &Bytes, probes: &[Values]) -> usize {
    let meta = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(file)
        .unwrap();
    let mut filters = 0;
    for rg in 0..meta.num_row_groups() {
        for (col, values) in probes.iter().enumerate() {
            let ours = strata_filter(file, rg, col);
            let theirs = arrow_rs_filter(file, rg, col);
            assert_eq!(
                ours.is_some(),
                theirs.is_some(),
                "{what}: rg {rg} col {col}"
            );
            let (Some(ours), Some(theirs)) = (ours, theirs) else {
                continue;
            };
            filters += 1;
            assert_eq!(ours.num_blocks(), theirs.num_blocks(), "{what}: col {col}");
            let a: Vec<bool> = probe!(&ours, values);
            let b: Vec<bool> = probe!(&theirs, values);
            assert_eq!(a, b, "{what}: rg {rg} col {col}");
        }
    }
    filters
}

/// Present values, then as many absent ones, per column.
fn mixed_probes(n: usize) -> Vec<Values> {
    (0..COLUMNS.len())
        .map(|c| {
            let mut present = values(c, true, n);
            let absent = values(c, false, n);
            match (&mut present, absent) {
                (Values::I32(a), Values::I32(b)) => a.extend(b),
                (Values::I64(a), Values::I64(b)) => a.extend(b),
                (Values::F32(a), Values::F32(b)) => a.extend(b),
                (Values::F64(a), Values::F64(b)) => a.extend(b),
                (Values::Str(a), Values::Str(b)) => a.extend(b),
                (Values::Bin(a), Values::Bin(b)) => a.extend(b),
                _ => unreachable!(),
            }
            present
        })
        .collect()
}

#[test]
fn strata_written_filters_hold_every_value_with_a_rate_near_the_target() {
    let file = write_strata(&batch());
    for (col, name) in COLUMNS.iter().enumerate() {
        let filter = strata_filter(&file, 0, col).expect("a Bloom filter");
        let present: Vec<bool> = probe!(&filter, &values(col, true, ROWS));
        assert!(present.iter().all(|b| *b), "{name}: a false negative");
        let absent: Vec<bool> = probe!(&filter, &values(col, false, ABSENT));
        let hits = absent.iter().filter(|b| **b).count();
        let rate = hits as f64 / ABSENT as f64;
        println!(
            "{name}: false-positive rate {rate:.5} ({hits} of {ABSENT}), fpp {FPP}, {} bytes",
            filter.num_blocks() * 32
        );
        assert!(
            rate < 2.0 * FPP + 0.002,
            "{name}: false-positive rate {rate}"
        );
    }
}

#[test]
fn probes_of_strata_and_arrow_rs_files_answer_as_arrow_rs() {
    let batch = batch();
    let probes = mixed_probes(5_000);
    let ours = write_strata(&batch);
    assert_eq!(same_answers_as_arrow_rs("strata's file", &ours, &probes), 6);
    let theirs = write_arrow_rs(&batch);
    assert_eq!(
        same_answers_as_arrow_rs("arrow-rs's file", &theirs, &probes),
        6
    );
    // No false negatives in arrow-rs's (folded) filters either.
    for col in 0..COLUMNS.len() {
        let filter = strata_filter(&theirs, 0, col).unwrap();
        let present: Vec<bool> = probe!(&filter, &values(col, true, ROWS));
        assert!(present.iter().all(|b| *b), "col {col}");
    }
}

#[tokio::test]
async fn the_async_builder_reads_the_filters_the_sync_one_does() {
    use strata::arrow::async_reader::ParquetRecordBatchStreamBuilder;
    let file = write_strata(&batch());
    let mut builder = ParquetRecordBatchStreamBuilder::new(std::io::Cursor::new(file.to_vec()))
        .await
        .unwrap();
    for col in 0..COLUMNS.len() {
        let filter = builder
            .get_row_group_column_bloom_filter(0, col)
            .await
            .unwrap();
        assert_eq!(filter, strata_filter(&file, 0, col), "col {col}");
    }
    assert!(
        builder
            .get_row_group_column_bloom_filter(1, 0)
            .await
            .is_err()
    );
    assert!(
        builder
            .get_row_group_column_bloom_filter(0, 6)
            .await
            .is_err()
    );
}

#[test]
fn columns_without_filters_give_none() {
    use strata::file::properties::WriterProperties;
    let batch = batch();
    let props = WriterProperties::builder()
        .set_column_bloom_filter_enabled("str".into(), true)
        .build();
    let mut out = Vec::new();
    let mut w = strata::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let file = Bytes::from(out);
    for col in 0..COLUMNS.len() {
        assert_eq!(
            strata_filter(&file, 0, col).is_some(),
            col == 4,
            "col {col}"
        );
        assert_eq!(
            arrow_rs_filter(&file, 0, col).is_some(),
            col == 4,
            "col {col}"
        );
    }
}

#[test]
fn corpus_filters_answer_as_arrow_rs() {
    for name in [
        "data_index_bloom_encoding_stats.parquet",
        "data_index_bloom_encoding_with_length.parquet",
    ] {
        let Some(path) = corpus::corpus_file(name) else {
            return;
        };
        let file = Bytes::from(std::fs::read(path).unwrap());
        // The column's strings, read by arrow-rs, then absent ones.
        let reader =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
                .unwrap()
                .build()
                .unwrap();
        let mut strings = Vec::new();
        for batch in reader {
            let batch = batch.unwrap();
            let column = arrow_cast::display::ArrayFormatter::try_new(
                batch.column(0).as_ref(),
                &Default::default(),
            )
            .unwrap();
            for i in 0..batch.num_rows() {
                if batch.column(0).is_valid(i) {
                    strings.push(column.value(i).to_string());
                }
            }
        }
        assert!(!strings.is_empty());
        let present = strings.len();
        strings.extend((0..10_000).map(|i| format!("absent value {i}")));
        let probes = [Values::Str(strings.clone())];
        assert_eq!(same_answers_as_arrow_rs(name, &file, &probes), 1);
        let filter = strata_filter(&file, 0, 0).unwrap();
        let answers: Vec<bool> = probe!(&filter, &probes[0]);
        assert!(answers[..present].iter().all(|b| *b), "{name}");
        println!(
            "{name}: {present} values; {} of 10000 absent values match",
            answers[present..].iter().filter(|b| **b).count()
        );
    }
}

#[test]
fn pyarrow_written_filters_answer_as_arrow_rs() {
    let Some(py) = python::pyarrow() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("strata-bloom-probe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pyarrow.parquet");
    // The same values as `values(.., true, ROWS)`, from Python.
    let script = format!(
        r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
ids = [i * 7 for i in range({ROWS})]
t = pa.table({{
    "i32": pa.array(ids, pa.int32()),
    "i64": pa.array([i * 1000003 for i in ids], pa.int64()),
    "f32": pa.array([i * 0.5 for i in ids], pa.float32()),
    "f64": pa.array([i * 0.25 for i in ids], pa.float64()),
    "str": pa.array(["name-%d" % i for i in ids], pa.string()),
    "bin": pa.array([i.to_bytes(8, "big")[3:] for i in ids], pa.binary()),
}})
opts = {{c: {{"ndv": {ROWS}, "fpp": {FPP}}} for c in t.column_names}}
pq.write_table(t, sys.argv[1], bloom_filter_options=opts, row_group_size=8000)
"#
    );
    python::run_script(&py, &script, &[path.as_os_str()]);
    let file = Bytes::from(std::fs::read(&path).unwrap());
    let probes = mixed_probes(ROWS);
    // Three row groups of six columns each.
    assert_eq!(
        same_answers_as_arrow_rs("pyarrow's file", &file, &probes),
        18
    );
    for col in 0..COLUMNS.len() {
        let present = values(col, true, ROWS);
        let found: Vec<bool> = (0..3)
            .map(|rg| strata_filter(&file, rg, col).unwrap())
            .fold(vec![false; ROWS], |acc, f| {
                let hits: Vec<bool> = probe!(&f, &present);
                acc.iter().zip(hits).map(|(a, b)| *a || b).collect()
            });
        assert!(found.iter().all(|b| *b), "col {col}: a false negative");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A copy of `file` with column 0's metadata of row group 0 changed by
/// `edit`, and `patch` applied to the bytes before the footer.
fn with_bloom_metadata(
    file: &Bytes,
    edit: impl Fn(&mut strata::format::metadata::ColumnMetaData),
    patch: impl Fn(&mut Vec<u8>, usize),
) -> Bytes {
    use strata::format::footer::{read_metadata_from_slice, write_footer};
    let mut meta = read_metadata_from_slice(file).unwrap();
    let footer_len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    let body_len = file.len() - 8 - footer_len as usize;
    let column = meta.row_groups[0].columns[0].meta_data.as_mut().unwrap();
    let offset = column.bloom_filter_offset().unwrap() as usize;
    edit(column);
    let mut body = file[..body_len].to_vec();
    patch(&mut body, offset);
    let mut sink = strata::sink::ByteSink::new();
    sink.extend_from_slice(&body);
    write_footer(&meta, &mut sink).unwrap();
    Bytes::from(sink.into_vec())
}

#[tokio::test]
async fn hostile_filters_are_errors() {
    use strata::arrow::async_reader::ParquetRecordBatchStreamBuilder;
    use strata::format::metadata::{
        BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
    };
    let file = write_strata(&batch());
    let header = |num_bytes: i32| {
        let mut sink = strata::sink::ByteSink::new();
        strata::format::thrift::encode(
            &BloomFilterHeader {
                num_bytes,
                algorithm: BloomFilterAlgorithm::Block,
                hash: BloomFilterHash::XxHash,
                compression: BloomFilterCompression::Uncompressed,
            },
            &mut sink,
        );
        sink.into_vec()
    };
    let overwrite = |bytes: Vec<u8>| {
        move |body: &mut Vec<u8>, at: usize| body[at..at + bytes.len()].copy_from_slice(&bytes)
    };
    let keep = |_: &mut Vec<u8>, _: usize| {};
    let len = file.len() as i64;
    let cases: Vec<(&str, Bytes)> = vec![
        (
            "length cuts the bitset",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_length = Some(40),
                keep,
            ),
        ),
        (
            "length past the end",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_length = Some(i32::MAX),
                keep,
            ),
        ),
        (
            "offset past the end",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_offset = Some(len),
                keep,
            ),
        ),
        (
            "negative offset",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_offset = Some(-5),
                keep,
            ),
        ),
        (
            "no length, header declares 1 GiB",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_length = None,
                overwrite(header(1 << 30)),
            ),
        ),
        (
            "no length, header declares a negative size",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_length = None,
                overwrite(header(-32)),
            ),
        ),
        (
            "no length, size not a power of two",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_length = None,
                overwrite(header(48)),
            ),
        ),
        (
            "garbage header",
            with_bloom_metadata(&file, |_| {}, overwrite(vec![0xff; 12])),
        ),
        (
            "no length, garbage header",
            with_bloom_metadata(
                &file,
                |m| m.extras_mut().bloom_filter_length = None,
                overwrite(vec![0xff; 12]),
            ),
        ),
    ];
    for (what, hostile) in cases {
        let sync =
            strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(hostile.clone())
                .unwrap()
                .get_row_group_column_bloom_filter(0, 0);
        assert!(sync.is_err(), "{what}: {sync:?}");
        let mut builder =
            ParquetRecordBatchStreamBuilder::new(std::io::Cursor::new(hostile.to_vec()))
                .await
                .unwrap();
        let r = builder.get_row_group_column_bloom_filter(0, 0).await;
        assert!(r.is_err(), "{what} (async): {r:?}");
        println!("{what}: {}", sync.unwrap_err());
    }
    // The untouched file reads.
    let same = with_bloom_metadata(&file, |_| {}, keep);
    assert!(strata_filter(&same, 0, 0).is_some());
    let no_length = with_bloom_metadata(&file, |m| m.extras_mut().bloom_filter_length = None, keep);
    assert_eq!(strata_filter(&no_length, 0, 0), strata_filter(&file, 0, 0));
}
