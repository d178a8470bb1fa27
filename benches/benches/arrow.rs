//! The Arrow API, strata-arrow against arrow-rs `parquet::arrow` on the
//! same record batches: writing and reading a mixed 1M-row table (int64,
//! int32, f64, Utf8 with 10% nulls, bool, timestamp) uncompressed, with
//! snappy and with zstd.
//!
//! Before timing, each workload checks that arrow-rs reads strata's file
//! and strata reads arrow-rs's file back to the input batch. Both readers
//! time the same bytes: the file arrow-rs wrote with the same settings.
//!
//! `arrow_optional_no_nulls` is the optional-column report's workload (`../shared/seeds/004_*.txt`) through the Arrow
//! API: a dictionary-encoded string column with no nulls, declared optional
//! or required, 1k or 100k distinct values, read in batches of 8,192 or
//! 65,536 as Utf8, Dictionary(Int32, Utf8), Utf8View or BinaryView. The
//! optional column should cost no more than the required one;
//! `-- --interleaved-optional` times the two for strata, as Utf8 and as
//! Dictionary, with the reads taking turns (see `interleaved_optional`),
//! which `cargo xtask bench` runs for its report.
//!
//! `arrow_plain_strings`: the same strings (100k distinct, required)
//! written PLAIN without a dictionary, read as each of those four types.
//!
//! `-- --interleaved-sides [REPS]` runs every case above with strata and
//! arrow-rs taking turns instead of under criterion (`common::pair`), one
//! result line per case for `cargo xtask bench`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

mod common;

use std::cell::LazyCell;
use std::hint::black_box;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use bytes::Bytes;
use criterion::{Criterion, Throughput};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder as PqBuilder;
use parquet::basic::{Compression as PqCompression, ZstdLevel as PqZstdLevel};
use parquet::file::properties::WriterProperties as PqWriterProperties;
use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use strata_file::codec::{Compression, ZstdLevel};
use strata_file::properties::WriterProperties;

/// Rows in the mixed table.
const ROWS: usize = 1 << 20;
/// Rows per batch written and read.
const BATCH: usize = 8192;

fn codecs() -> Vec<(&'static str, Compression, PqCompression)> {
    vec![
        (
            "uncompressed",
            Compression::UNCOMPRESSED,
            PqCompression::UNCOMPRESSED,
        ),
        ("snappy", Compression::SNAPPY, PqCompression::SNAPPY),
        (
            "zstd",
            Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
            PqCompression::ZSTD(PqZstdLevel::try_new(1).unwrap()),
        ),
    ]
}

fn strata_write(batches: &[RecordBatch], codec: Compression) -> Vec<u8> {
    common::strata_write(
        batches,
        WriterProperties::builder().set_compression(codec).build(),
    )
}

fn arrow_rs_write(batches: &[RecordBatch], codec: PqCompression) -> Vec<u8> {
    common::arrow_rs_write(
        batches,
        PqWriterProperties::builder().set_compression(codec).build(),
    )
}

fn strata_read(data: &Bytes) -> usize {
    ParquetRecordBatchReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap()
        .map(|b| black_box(b.unwrap()).num_rows())
        .sum()
}

fn arrow_rs_read(data: &Bytes) -> usize {
    PqBuilder::try_new(data.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap()
        .map(|b| black_box(b.unwrap()).num_rows())
        .sum()
}

/// arrow-rs reads strata's file and strata reads arrow-rs's file back to
/// `expect`, in batches of `BATCH` as timed, on two threads.
fn check(expect: &RecordBatch, strata_file: &Bytes, arrow_rs_file: &Bytes) {
    let spec = common::ReadSpec::batches_of(BATCH);
    std::thread::scope(|s| {
        let by_arrow_rs =
            s.spawn(|| common::collect(|f| common::arrow_rs_read(strata_file, &spec, f)));
        let by_strata = common::collect(|f| common::strata_read(arrow_rs_file, &spec, f));
        assert_eq!(
            by_strata.columns(),
            expect.columns(),
            "strata reading arrow-rs's file"
        );
        let by_arrow_rs = by_arrow_rs.join().unwrap();
        assert_eq!(
            by_arrow_rs.columns(),
            expect.columns(),
            "arrow-rs reading strata's file"
        );
    });
}

fn mixed_table_write_read(c: &mut Criterion) {
    // Inputs are built, and checked, before the first benchmark that needs
    // them (untimed), so a filter that excludes those skips the work.
    let table = LazyCell::new(|| {
        let batches = common::mixed_table();
        let expect = common::concat(&batches);
        (batches, expect)
    });
    for (name, codec, pq_codec) in codecs() {
        // arrow-rs's file, once each reader read the other's file back.
        let arrow_rs_file = LazyCell::new(|| {
            let (batches, expect) = &*table;
            let (strata_file, arrow_rs_file) = common::write_both(
                batches,
                WriterProperties::builder().set_compression(codec).build(),
                PqWriterProperties::builder()
                    .set_compression(pq_codec)
                    .build(),
            );
            check(expect, &strata_file, &arrow_rs_file);
            arrow_rs_file
        });
        let batches = || {
            LazyCell::force(&arrow_rs_file);
            &table.0
        };

        let mut group = c.benchmark_group("arrow_mixed_write");
        group.sample_size(10);
        group.throughput(Throughput::Elements(ROWS as u64));
        common::pair(
            &mut group,
            "arrow_mixed_write",
            name,
            || drop(black_box(strata_write(batches(), codec))),
            || drop(black_box(arrow_rs_write(batches(), pq_codec))),
        );
        group.finish();

        let mut group = c.benchmark_group("arrow_mixed_read");
        group.sample_size(10);
        group.throughput(Throughput::Elements(ROWS as u64));
        common::pair(
            &mut group,
            "arrow_mixed_read",
            name,
            || assert_eq!(strata_read(&arrow_rs_file), ROWS),
            || assert_eq!(arrow_rs_read(&arrow_rs_file), ROWS),
        );
        group.finish();
    }
}

/// `array` as the one string column of a batch, declared `nullable` or
/// not; with `binary`, as a Binary column of the same bytes (a file whose
/// column is not annotated as strings, which arrow-rs reads as
/// BinaryView).
fn string_column(array: &ArrayRef, nullable: bool, binary: bool) -> RecordBatch {
    let array = if binary {
        let strings = array.as_string::<i32>();
        Arc::new(arrow_array::BinaryArray::from_iter(
            strings.iter().map(|v| v.map(str::as_bytes)),
        )) as ArrayRef
    } else {
        Arc::clone(array)
    };
    let schema = Arc::new(arrow_schema::Schema::new(vec![arrow_schema::Field::new(
        "s",
        array.data_type().clone(),
        nullable,
    )]));
    RecordBatch::try_new(schema, vec![array]).unwrap()
}

/// The one column of `batch` as plain strings: a dictionary's keys
/// looked up in its values, views copied out.
fn as_strings(batch: &RecordBatch) -> ArrayRef {
    let column = batch.column(0);
    match column.data_type() {
        DataType::Dictionary(..) => {
            let dict = column.as_dictionary::<Int32Type>();
            arrow_select::take::take(dict.values(), dict.keys(), None).unwrap()
        }
        DataType::Utf8View => Arc::new(StringArray::from_iter(column.as_string_view().iter())),
        DataType::BinaryView => Arc::new(StringArray::from_iter(
            column
                .as_binary_view()
                .iter()
                .map(|v| v.map(|b| std::str::from_utf8(b).unwrap())),
        )),
        _ => Arc::clone(column),
    }
}

/// strata and arrow-rs read `file` as `spec` says (its schema set) to the
/// same batch, of the schema's type, holding `values`.
fn check_read_as(values: &ArrayRef, file: &Bytes, spec: &common::ReadSpec) {
    let schema = spec.schema.as_ref().unwrap();
    let (by_strata, by_arrow_rs) = std::thread::scope(|s| {
        let by_strata = s.spawn(|| common::collect(|f| common::strata_read(file, spec, f)));
        let by_arrow_rs = common::collect(|f| common::arrow_rs_read(file, spec, f));
        (by_strata.join().unwrap(), by_arrow_rs)
    });
    for (who, got) in [("strata", &by_strata), ("arrow-rs", &by_arrow_rs)] {
        assert_eq!(got.schema().fields(), schema.fields(), "{who}");
        assert_eq!(&as_strings(got), values, "{who} against the input");
    }
    assert_eq!(
        by_strata.columns(),
        by_arrow_rs.columns(),
        "strata against arrow-rs"
    );
}

/// Rows of the `arrow_optional_no_nulls` files.
const N: usize = 1 << 20;

/// Read `file` with strata as `schema` says, in batches of `batch` rows;
/// returns the rows read.
fn strata_read_as(file: &Bytes, schema: &SchemaRef, batch: usize) -> usize {
    ParquetRecordBatchReaderBuilder::try_new_with_options(
        Bytes::clone(file),
        ArrowReaderOptions::new().with_schema(Arc::clone(schema)),
    )
    .unwrap()
    .with_batch_size(batch)
    .build()
    .unwrap()
    .map(|b| black_box(b.unwrap()).num_rows())
    .sum()
}

/// The `arrow_optional_no_nulls` file of `values`, written by arrow-rs
/// (dictionary encoded, uncompressed), the column declared `nullable` or
/// not.
fn optional_file(values: &ArrayRef, nullable: bool, binary: bool) -> Bytes {
    let batch = string_column(values, nullable, binary);
    Bytes::from(arrow_rs_write(
        std::slice::from_ref(&batch),
        PqCompression::UNCOMPRESSED,
    ))
}

/// A file built when first needed.
type LazyFile<'a> = LazyCell<Bytes, Box<dyn FnOnce() -> Bytes + 'a>>;

/// The output types a string column is read as, by their case names:
/// Utf8, Dictionary(Int32, Utf8), Utf8View and BinaryView.
fn string_outputs() -> [(&'static str, DataType); 4] {
    [
        ("utf8", DataType::Utf8),
        (
            "dict",
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        ),
        ("utf8view", DataType::Utf8View),
        ("binaryview", DataType::BinaryView),
    ]
}

/// The one-column schema of `arrow_optional_no_nulls`: the column as
/// `dt`, nullable or not.
fn optional_schema(dt: &DataType, nullable: bool) -> SchemaRef {
    Arc::new(Schema::new(vec![Field::new("s", dt.clone(), nullable)]))
}

/// arrow-rs reads `file` as `schema` in batches of `batch_size`; returns
/// the rows read.
fn arrow_rs_read_as(file: &Bytes, schema: &SchemaRef, batch_size: usize) -> usize {
    use parquet::arrow::arrow_reader::ArrowReaderOptions as PqOptions;
    PqBuilder::try_new_with_options(
        Bytes::clone(file),
        PqOptions::new().with_schema(schema.clone()),
    )
    .unwrap()
    .with_batch_size(batch_size)
    .build()
    .unwrap()
    .map(|b| black_box(b.unwrap()).num_rows())
    .sum()
}

fn optional_no_nulls(c: &mut Criterion) {
    for distinct in [1_000usize, 100_000] {
        // The same values for the required and the optional column, built
        // when the first benchmark that needs them runs (untimed).
        let values = LazyCell::new(|| common::string_values(N, distinct));
        for nullable in [false, true] {
            // arrow-rs writes the file both read (dictionary encoded).
            let file: LazyFile<'_> =
                LazyCell::new(Box::new(|| optional_file(&values, nullable, false)));
            // BinaryView is read from the same bytes stored as binary.
            let binary_file: LazyFile<'_> =
                LazyCell::new(Box::new(|| optional_file(&values, nullable, true)));
            for (output, dt) in string_outputs() {
                let file = if matches!(dt, DataType::BinaryView) {
                    &binary_file
                } else {
                    &file
                };
                let schema = optional_schema(&dt, nullable);
                // Both readers return the input values as `schema` asks, once
                // per file and schema, before the first benchmark (untimed).
                let checked = LazyCell::new(|| {
                    let spec = common::ReadSpec {
                        schema: Some(schema.clone()),
                        ..common::ReadSpec::batches_of(8192)
                    };
                    check_read_as(&values, file, &spec);
                });
                for batch_size in [8192usize, 65_536] {
                    let case = format!(
                        "{}/{}k/{output}/{batch_size}",
                        if nullable { "optional" } else { "required" },
                        distinct / 1000,
                    );
                    let mut group = c.benchmark_group("arrow_optional_no_nulls");
                    group.sample_size(10);
                    group.throughput(Throughput::Elements(N as u64));
                    let (f, s) = (file, &schema);
                    common::pair(
                        &mut group,
                        "arrow_optional_no_nulls",
                        &case,
                        || {
                            LazyCell::force(&checked);
                            assert_eq!(strata_read_as(f, s, batch_size), N)
                        },
                        || {
                            LazyCell::force(&checked);
                            assert_eq!(arrow_rs_read_as(f, s, batch_size), N);
                        },
                    );
                    group.finish();
                }
            }
        }
    }
}

/// `arrow_plain_strings`: a required string column of 100k distinct
/// values written PLAIN (no dictionary, uncompressed) by arrow-rs, read
/// as each string output type in batches of 8,192.
fn plain_strings(c: &mut Criterion) {
    let values = LazyCell::new(|| common::string_values(N, 100_000));
    let file: LazyFile<'_> = LazyCell::new(Box::new(|| plain_file(&values, false)));
    let binary_file: LazyFile<'_> = LazyCell::new(Box::new(|| plain_file(&values, true)));
    for (output, dt) in string_outputs() {
        let file = if matches!(dt, DataType::BinaryView) {
            &binary_file
        } else {
            &file
        };
        let schema = optional_schema(&dt, false);
        let checked = LazyCell::new(|| {
            let spec = common::ReadSpec {
                schema: Some(schema.clone()),
                ..common::ReadSpec::batches_of(8192)
            };
            check_read_as(&values, file, &spec);
        });
        let mut group = c.benchmark_group("arrow_plain_strings");
        group.sample_size(10);
        group.throughput(Throughput::Elements(N as u64));
        let (f, s) = (file, &schema);
        common::pair(
            &mut group,
            "arrow_plain_strings",
            &format!("100k/{output}/8192"),
            || {
                LazyCell::force(&checked);
                assert_eq!(strata_read_as(f, s, 8192), N)
            },
            || {
                LazyCell::force(&checked);
                assert_eq!(arrow_rs_read_as(f, s, 8192), N);
            },
        );
        group.finish();
    }
}

/// `values` as one required column, strings or (`binary`) binary, written
/// PLAIN without a dictionary, uncompressed, by arrow-rs.
fn plain_file(values: &ArrayRef, binary: bool) -> Bytes {
    let batch = string_column(values, false, binary);
    let props = PqWriterProperties::builder()
        .set_compression(PqCompression::UNCOMPRESSED)
        .set_dictionary_enabled(false)
        .build();
    let mut out = Vec::new();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    Bytes::from(out)
}

/// `cargo bench --bench arrow -- --interleaved-optional [REPS]`: strata's
/// optional column without nulls against the required one, every
/// `arrow_optional_no_nulls` case, the two reads taking turns `REPS` times
/// (default 10) so that they meet the same neighbours on a shared machine.
/// Criterion times the two cases minutes apart, which is more noise than the
/// 5% the comparison is about. One line per case for `cargo xtask bench`:
/// `optional_interleaved case=1k/utf8/8192 reps=10 required_min_ns=...
/// required_median_ns=... optional_min_ns=... optional_median_ns=...`.
fn interleaved_optional(reps: usize) {
    for distinct in [1_000usize, 100_000] {
        let values = common::string_values(N, distinct);
        let files = [false, true].map(|nullable| optional_file(&values, nullable, false));
        // Utf8 and Dictionary(Int32, Utf8).
        for (output, dt) in string_outputs().into_iter().take(2) {
            let schemas = [false, true].map(|nullable| optional_schema(&dt, nullable));
            // As before every benchmark: both readers return the values.
            for (file, schema) in files.iter().zip(&schemas) {
                let spec = common::ReadSpec {
                    schema: Some(schema.clone()),
                    ..common::ReadSpec::batches_of(8192)
                };
                check_read_as(&values, file, &spec);
            }
            for batch in [8192usize, 65_536] {
                let read = |side: usize| {
                    assert_eq!(strata_read_as(&files[side], &schemas[side], batch), N)
                };
                let stats = strata_benches::probe::interleaved(
                    reps,
                    &mut [&mut || read(0), &mut || read(1)],
                );
                let [(req_min, req_median), (opt_min, opt_median)] = [stats[0], stats[1]];
                println!(
                    "optional_interleaved case={}k/{output}/{batch} reps={reps} \
                     required_min_ns={} required_median_ns={} \
                     optional_min_ns={} optional_median_ns={}",
                    distinct / 1000,
                    req_min.as_nanos(),
                    req_median.as_nanos(),
                    opt_min.as_nanos(),
                    opt_median.as_nanos(),
                );
            }
        }
    }
}

/// Every group of this bench, under criterion or taking turns.
fn all_groups(c: &mut Criterion) {
    mixed_table_write_read(c);
    optional_no_nulls(c);
    plain_strings(c);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--interleaved-optional") {
        let reps = args.get(at + 1).and_then(|r| r.parse().ok()).unwrap_or(10);
        interleaved_optional(reps);
        return;
    }
    // With `--interleaved-sides`, every case strata against arrow-rs, the
    // two taking turns (`common::pair`).
    common::main_with_sides(all_groups);
}
