//! The record layer, strata-record against arrow-rs `parquet` on the same
//! file: a dictionary-encoded string column read back a batch of records
//! at a time (the optional-column report's workload, `../shared/seeds/004_*.txt`; apache/arrow-go#1445 and #1443).
//!
//! 2,000,000 rows of 24-byte strings drawn from 1,000 and from 100,000
//! distinct values, in one dictionary-encoded column chunk of an in-memory
//! file written once by strata-file's `FileWriter` (8 MiB dictionary page
//! limit, so 100k distinct values stay dictionary encoded), once as a
//! REQUIRED column and once as an OPTIONAL column with no nulls. Cases are
//! `{req,opt}_{1k,100k}_b{8192,65536}`, so the table shows optional against
//! required. Every iteration opens the file and reads the whole chunk.
//!
//! Groups:
//! - `record_read`: values materialised. strata: `ColumnRecordReader::
//!   read_records` (byte arrays gathered into a reused offsets + bytes
//!   buffer); arrow-rs: `SerializedFileReader` + `get_column_reader` +
//!   `ColumnReaderImpl::<ByteArrayType>::read_records` into reused buffers
//!   (the same physical-level work; its values are `Bytes` slices of the
//!   dictionary page).
//! - `record_read_dict`: dictionary preserved. strata:
//!   `read_records_dictionary` (indices + the chunk's shared dictionary
//!   `Arc`); arrow-rs: its Arrow reader (`ParquetRecordBatchReaderBuilder`)
//!   reading as `Dictionary(Int32, Utf8)`, which also builds arrays.
//! - `record_read_arrow_utf8`: strata `read_records` against arrow-rs's
//!   Arrow reader reading as `Utf8` (arrays built, so not the same work).
//!
//! Checked once, outside the timed loop: strata and arrow-rs read the
//! input values (and definition levels); every page is dictionary encoded
//! and every dictionary batch shares one `Arc` (no per-batch dictionary
//! copy); an optional column without nulls takes the dense path only.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::cell::LazyCell;
use std::hint::black_box;
use std::sync::Arc;

use arrow_array::Array as _;
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::column::reader::get_typed_column_reader;
use parquet::data_type::{ByteArray as PqByteArray, ByteArrayType};
use parquet::file::reader::{FileReader as _, SerializedFileReader};
use strata_encoding::{ByteArray, ByteArrayBuffer};
use strata_file::serialized_reader::SerializedFileReader as StrataFileReader;
use strata_record::{ColumnRecordReader, DictionaryRead, RecordBatchBuffers};

/// Rows in the column chunk.
const ROWS: usize = 2_000_000;
/// Bytes per string.
const WIDTH: usize = 24;
/// Dictionary page size limit: large enough for 100k distinct values.
const DICT_LIMIT: usize = 8 << 20;
const BATCHES: [usize; 2] = [8_192, 65_536];

/// Samples per benchmark: 20, or criterion's least (10) in the quick run
/// of `cargo xtask bench`, which sets `STRATA_BENCH_QUICK`.
fn sample_size() -> usize {
    if std::env::var_os("STRATA_BENCH_QUICK").is_some() {
        10
    } else {
        20
    }
}

/// The input column: `ROWS` strings of `WIDTH` bytes drawn from `distinct`
/// values, as offsets + bytes.
struct Input {
    offsets: Vec<i32>,
    values: Vec<u8>,
}

impl Input {
    fn new(distinct: usize, seed: u64) -> Self {
        let values = strata_benches::data::optional_report_strings(ROWS, distinct, seed);
        let offsets = (0..=ROWS).map(|i| (i * WIDTH) as i32).collect();
        Self { offsets, values }
    }

    fn value(&self, i: usize) -> &[u8] {
        &self.values[i * WIDTH..(i + 1) * WIDTH]
    }
}

/// Write the column as a one-column, one-row-group file.
fn write_file(input: &Input, optional: bool) -> Bytes {
    Bytes::from(strata_benches::data::one_string_column_file(
        &input.offsets,
        &input.values,
        optional,
        DICT_LIMIT,
    ))
}

// ---------------------------------------------------------------------------
// Readers

/// Open `file` and read its one column with strata-record, `batch` records
/// at a time, values materialised. Returns the rows read.
fn strata_read(file: &Bytes, batch: usize, out: &mut RecordBatchBuffers<ByteArrayBuffer>) -> usize {
    strata_benches::data::read_string_column(file, batch, true, out)
}

/// The same, dictionary preserved: indices + the chunk's dictionary `Arc`.
fn strata_read_dict(file: &Bytes, batch: usize, out: &mut RecordBatchBuffers<Vec<u32>>) -> usize {
    let reader = StrataFileReader::new(file.clone()).unwrap();
    let row_group = reader.row_group(0).unwrap();
    let descr = row_group.column_descriptor(0).unwrap().clone();
    let mut records =
        ColumnRecordReader::<ByteArray>::new(row_group.page_reader(0).unwrap(), descr).unwrap();
    let mut rows = 0;
    loop {
        match records.read_records_dictionary(batch, out).unwrap() {
            DictionaryRead::Indices { records: 0, .. } => return rows,
            DictionaryRead::Indices {
                records: n,
                dictionary,
            } => {
                rows += n;
                black_box((&out.values, dictionary));
            }
            DictionaryRead::Fallback { .. } => panic!("a page fell back from the dictionary"),
        }
    }
}

/// Buffers of arrow-rs's low-level reader, reused across batches.
#[derive(Default)]
struct PqOut {
    defs: Vec<i16>,
    values: Vec<PqByteArray>,
}

/// Open `file` and read its one column with arrow-rs's
/// `ColumnReaderImpl::<ByteArrayType>::read_records`, `batch` records at a
/// time. `each` sees the buffers after every batch.
fn pq_read(file: &Bytes, batch: usize, out: &mut PqOut, mut each: impl FnMut(&PqOut)) -> usize {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let row_group = reader.get_row_group(0).unwrap();
    let optional = row_group
        .metadata()
        .column(0)
        .column_descr()
        .max_def_level()
        > 0;
    let mut r = get_typed_column_reader::<ByteArrayType>(row_group.get_column_reader(0).unwrap());
    let mut rows = 0;
    loop {
        out.defs.clear();
        out.values.clear();
        let defs = if optional { Some(&mut out.defs) } else { None };
        let (n, _, _) = r.read_records(batch, defs, None, &mut out.values).unwrap();
        if n == 0 {
            return rows;
        }
        rows += n;
        each(out);
    }
}

/// Open `file` and read it with arrow-rs's Arrow reader as `data_type`.
fn pq_arrow_read(file: &Bytes, batch: usize, schema: &Arc<Schema>) -> usize {
    let options = ArrowReaderOptions::new().with_schema(Arc::clone(schema));
    let reader = ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)
        .unwrap()
        .with_batch_size(batch)
        .build()
        .unwrap();
    let mut rows = 0;
    for b in reader {
        let b = b.unwrap();
        rows += b.num_rows();
        black_box(b);
    }
    rows
}

fn arrow_schema(data_type: DataType, optional: bool) -> Arc<Schema> {
    Arc::new(Schema::new(vec![Field::new("c", data_type, optional)]))
}

fn utf8_dict() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
}

// ---------------------------------------------------------------------------
// Agreement, outside the timed loops

/// strata and arrow-rs read the input from `file`, `batch` records at a
/// time: strata on one thread, arrow-rs on another.
fn check(file: &Bytes, input: &Input, optional: bool, batch: usize, case: &str) {
    std::thread::scope(|s| {
        let strata = s.spawn(|| check_strata(file, input, optional, batch, case));
        check_arrow_rs(file, input, optional, batch, case);
        strata.join().unwrap();
    });
}

fn check_strata(file: &Bytes, input: &Input, optional: bool, batch: usize, case: &str) {
    // strata, materialised: the input values, dense batches only.
    let reader = StrataFileReader::new(file.clone()).unwrap();
    assert_eq!(reader.num_row_groups(), 1, "{case}");
    let row_group = reader.row_group(0).unwrap();
    let descr = row_group.column_descriptor(0).unwrap().clone();
    let mut records =
        ColumnRecordReader::<ByteArray>::new(row_group.page_reader(0).unwrap(), descr.clone())
            .unwrap();
    let mut out = RecordBatchBuffers::new();
    let mut row = 0;
    let mut batches = 0u64;
    while records.read_records(batch, &mut out).unwrap() > 0 {
        assert_eq!(out.null_count, 0, "{case}");
        assert_eq!(
            out.def_levels.len(),
            if optional { out.num_records } else { 0 }
        );
        for v in out.values.iter() {
            assert_eq!(v, input.value(row), "strata {case} row {row}");
            row += 1;
        }
        batches += 1;
    }
    assert_eq!(row, ROWS, "strata rows {case}");
    let stats = records.stats();
    assert_eq!(stats.dictionary_pages, 1, "{case}");
    assert_eq!(
        stats.spaced_decodes, 0,
        "{case}: spaced decode without nulls"
    );
    assert_eq!(stats.dense_batches, batches + 1, "{case}");

    // strata, dictionary preserved: one dictionary Arc for every batch.
    let mut records =
        ColumnRecordReader::<ByteArray>::new(row_group.page_reader(0).unwrap(), descr).unwrap();
    let mut out = RecordBatchBuffers::new();
    let mut row = 0;
    let mut first: Option<Arc<ByteArrayBuffer>> = None;
    loop {
        let DictionaryRead::Indices {
            records: n,
            dictionary,
        } = records.read_records_dictionary(batch, &mut out).unwrap()
        else {
            panic!("{case}: a page fell back from the dictionary");
        };
        if n == 0 {
            break;
        }
        let dict = dictionary.expect("a dictionary");
        match &first {
            None => first = Some(dict),
            Some(f) => assert!(Arc::ptr_eq(f, &dict), "{case}: a new dictionary per batch"),
        }
        let dict = first.as_ref().unwrap();
        for &i in &out.values {
            assert_eq!(dict.value(i as usize).unwrap(), input.value(row), "{case}");
            row += 1;
        }
    }
    assert_eq!(row, ROWS, "strata dictionary rows {case}");
    assert_eq!(records.stats().spaced_decodes, 0, "{case}");
}

fn check_arrow_rs(file: &Bytes, input: &Input, optional: bool, batch: usize, case: &str) {
    // arrow-rs, low level: the same values and levels.
    let mut pq = PqOut::default();
    let mut row = 0;
    let rows = pq_read(file, batch, &mut pq, |b| {
        if optional {
            assert_eq!(b.defs.len(), b.values.len());
            assert!(b.defs.iter().all(|&d| d == 1), "arrow-rs levels {case}");
        }
        for v in &b.values {
            assert_eq!(v.data(), input.value(row), "arrow-rs {case} row {row}");
            row += 1;
        }
    });
    assert_eq!(rows, ROWS, "arrow-rs rows {case}");

    // arrow-rs, Arrow reader: the same strings, both ways.
    let mut row = 0;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(batch)
        .build()
        .unwrap();
    for b in reader {
        let b = b.unwrap();
        let col = b
            .column(0)
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .expect("Utf8");
        assert_eq!(col.null_count(), 0);
        for v in col.iter() {
            assert_eq!(
                v.unwrap().as_bytes(),
                input.value(row),
                "arrow-rs Utf8 {case}"
            );
            row += 1;
        }
    }
    assert_eq!(row, ROWS);
    let schema = arrow_schema(utf8_dict(), optional);
    assert_eq!(pq_arrow_read(file, batch, &schema), ROWS, "{case}");
}

// ---------------------------------------------------------------------------
// Benchmarks

/// The inputs: (label, distinct values, seed).
const INPUTS: [(&str, usize, u64); 2] = [("1k", 1_000, 0x4EC1), ("100k", 100_000, 0x4EC2)];

/// Every case: (name, optional, batch), in the order of `check_files`.
fn cases() -> Vec<(String, bool, usize)> {
    let mut cases = Vec::new();
    for (label, _, _) in INPUTS {
        for optional in [false, true] {
            let prefix = if optional { "opt" } else { "req" };
            for batch in BATCHES {
                cases.push((format!("{prefix}_{label}_b{batch}"), optional, batch));
            }
        }
    }
    cases
}

/// Each case's file, checked with its batch size.
fn check_files(cases: &[(String, bool, usize)]) -> Vec<Bytes> {
    let mut files = Vec::new();
    let mut cases = cases.iter();
    for (_, distinct, seed) in INPUTS {
        let input = Input::new(distinct, seed);
        for optional in [false, true] {
            let file = write_file(&input, optional);
            for _ in BATCHES {
                let (case, opt, batch) = cases.next().unwrap();
                assert_eq!(*opt, optional);
                check(&file, &input, optional, *batch, case);
                files.push(file.clone());
            }
        }
    }
    files
}

fn record_read(c: &mut Criterion) {
    let cases = cases();
    // Built and checked before the first record benchmark runs (untimed),
    // so a filter that excludes them all skips the work.
    let files = LazyCell::new(|| check_files(&cases));

    let mut group = c.benchmark_group("record_read");
    group.sample_size(sample_size());
    group.throughput(Throughput::Elements(ROWS as u64));
    for (i, (case, _, batch)) in cases.iter().enumerate() {
        let mut out = RecordBatchBuffers::new();
        group.bench_function(format!("strata/{case}"), |b| {
            let file = &files[i];
            b.iter(|| black_box(strata_read(black_box(file), *batch, &mut out)))
        });
        let mut pq = PqOut::default();
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            let file = &files[i];
            b.iter(|| {
                black_box(pq_read(black_box(file), *batch, &mut pq, |o| {
                    black_box(&o.values);
                }))
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("record_read_dict");
    group.sample_size(sample_size());
    group.throughput(Throughput::Elements(ROWS as u64));
    for (i, (case, optional, batch)) in cases.iter().enumerate() {
        let mut out = RecordBatchBuffers::new();
        group.bench_function(format!("strata/{case}"), |b| {
            let file = &files[i];
            b.iter(|| black_box(strata_read_dict(black_box(file), *batch, &mut out)))
        });
        let schema = arrow_schema(utf8_dict(), *optional);
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            let file = &files[i];
            b.iter(|| black_box(pq_arrow_read(black_box(file), *batch, &schema)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("record_read_arrow_utf8");
    group.sample_size(sample_size());
    group.throughput(Throughput::Elements(ROWS as u64));
    for (i, (case, optional, batch)) in cases.iter().enumerate() {
        let mut out = RecordBatchBuffers::new();
        group.bench_function(format!("strata/{case}"), |b| {
            let file = &files[i];
            b.iter(|| black_box(strata_read(black_box(file), *batch, &mut out)))
        });
        let schema = arrow_schema(DataType::Utf8, *optional);
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            let file = &files[i];
            b.iter(|| black_box(pq_arrow_read(black_box(file), *batch, &schema)))
        });
    }
    group.finish();
}

criterion_group!(benches, record_read);
criterion_main!(benches);
