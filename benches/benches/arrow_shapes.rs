//! The Arrow API on table shapes other than `arrow.rs`'s mixed table,
//! strata-arrow against arrow-rs `parquet::arrow` on identical data:
//!
//! - `arrow_int64_plain_read`: one required INT64 column, PLAIN, no
//!   dictionary, uncompressed, 4M values, read whole in batches of 8,192;
//!   the floor is memcpy of the same value bytes, batch by batch, into a
//!   batch-sized buffer.
//! - `arrow_nested_read` / `arrow_nested_write`: List<Int32>, List<Utf8>
//!   and Struct{Int32, Utf8}, with null and empty lists, null elements and
//!   null structs.
//! - `arrow_projection`: 3 columns out of a 100-column table (int64 and
//!   nullable Utf8 alternating), by `ProjectionMask::roots` and `leaves`,
//!   and all 100 for scale.
//! - `arrow_row_selection`: 1% of 1M rows (5 runs of 2,000) of a 4-column
//!   table with small pages, read with the page index; and every row, for
//!   scale.
//!
//! Before timing, each workload checks that both readers return the input
//! from both writers' files. Both readers time the file arrow-rs wrote.
//! `-- --interleaved-sides [REPS]` runs every case with strata and arrow-rs
//! taking turns instead of under criterion (`common::pair`).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::cell::LazyCell;
use std::hint::black_box;
use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, Int32Builder, ListBuilder, StringBuilder};
use arrow_array::{
    ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Fields};
use bytes::Bytes;
use common::{ReadSpec, arrow_rs_read, count_rows, strata_read};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use parquet::basic::{Compression as PqCompression, Encoding as PqEncoding};
use parquet::file::properties::{
    WriterProperties as PqWriterProperties, WriterVersion as PqWriterVersion,
};
use strata_benches::data::{XorShift, random_i64};
use strata_file::codec::Compression;
use strata_file::properties::{Encoding, WriterProperties};

/// Rows per batch written and read.
const BATCH: usize = 8192;

fn group<'a>(c: &'a mut Criterion, name: &str, elements: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Elements(elements as u64));
    g
}

/// Splits one column's rows into record batches of `BATCH` rows.
fn batches_of(rows: usize, mut column: impl FnMut(usize) -> ArrayRef) -> Vec<RecordBatch> {
    (0..rows)
        .step_by(BATCH)
        .map(|start| {
            let n = BATCH.min(rows - start);
            RecordBatch::try_from_iter([("c", column(n))]).unwrap()
        })
        .collect()
}

/// Both writers' files of one input: (strata's, arrow-rs's).
type Files = (Bytes, Bytes);

/// The expected row count and arrow-rs's file, from `input` (the expected
/// batch and both files) once both readers have read both files to the
/// expected batch under `spec`: built and checked when first needed, before
/// the first benchmark that needs it (untimed), so a filter that excludes
/// those benchmarks skips the work.
fn checked<'a>(
    spec: &'a ReadSpec,
    input: impl FnOnce() -> (RecordBatch, Files) + 'a,
) -> LazyCell<(usize, Bytes), impl FnOnce() -> (usize, Bytes) + 'a> {
    LazyCell::new(move || {
        let (expect, (strata_file, arrow_rs_file)) = input();
        common::check_both_ways(&expect, &strata_file, &arrow_rs_file, spec);
        (expect.num_rows(), arrow_rs_file)
    })
}

/// Times both readers on arrow-rs's file of a `checked` input (`group` is
/// `g`'s name, for the side-by-side mode's lines), with `floor` (a copy of
/// the same bytes) timed beside them when given.
fn bench_read(
    g: &mut BenchmarkGroup<'_, WallTime>,
    group: &str,
    case: &str,
    spec: &ReadSpec,
    input: &LazyCell<(usize, Bytes), impl FnOnce() -> (usize, Bytes)>,
    floor: Option<&mut dyn FnMut()>,
) {
    let strata = || {
        let (rows, file) = &**input;
        assert_eq!(count_rows(|f| strata_read(file, spec, f)), *rows)
    };
    let arrow_rs = || {
        let (rows, file) = &**input;
        assert_eq!(count_rows(|f| arrow_rs_read(file, spec, f)), *rows)
    };
    match floor {
        None => common::pair(g, group, case, strata, arrow_rs),
        Some(floor) => common::pair_with_floor(g, group, case, strata, arrow_rs, floor),
    }
}

fn int64_plain_read(c: &mut Criterion) {
    const N: usize = 1 << 22;
    // (input batch, files, value bytes), built when first needed.
    let input = LazyCell::new(|| {
        let values = random_i64(N, 11);
        let array: ArrayRef = Arc::new(Int64Array::from(values.clone()));
        let schema = Arc::new(arrow_schema::Schema::new(vec![Field::new(
            "v",
            DataType::Int64,
            false,
        )]));
        let batch = RecordBatch::try_new(schema, vec![array]).unwrap();
        let batches: Vec<RecordBatch> = (0..N)
            .step_by(BATCH)
            .map(|s| batch.slice(s, BATCH.min(N - s)))
            .collect();
        let files = common::write_both(
            &batches,
            WriterProperties::builder()
                .set_compression(Compression::UNCOMPRESSED)
                .set_dictionary_enabled(false)
                .set_encoding(Encoding::PLAIN)
                .build(),
            PqWriterProperties::builder()
                .set_compression(PqCompression::UNCOMPRESSED)
                .set_dictionary_enabled(false)
                .set_encoding(PqEncoding::PLAIN)
                .build(),
        );
        // The timed file really is PLAIN, uncompressed, without a dictionary.
        let meta =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(files.1.clone())
                .unwrap()
                .metadata()
                .clone();
        for rg in meta.row_groups() {
            let col = rg.column(0);
            assert_eq!(col.compression(), PqCompression::UNCOMPRESSED);
            assert!(col.dictionary_page_offset().is_none());
        }
        let src: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        (batch, files, src)
    });

    let mut g = group(c, "arrow_int64_plain_read", N);
    let spec = ReadSpec::batches_of(BATCH);
    let read = checked(&spec, || (input.0.clone(), input.1.clone()));
    // The floor: copy the value bytes batch by batch into one batch-sized
    // buffer, as a reader must at least do (a single 32 MiB copy would also
    // write 32 MiB back to memory, which the readers do not). In the
    // side-by-side mode it takes turns with the two readers.
    let mut dst = vec![0u8; BATCH * 8];
    let mut floor = || {
        for chunk in black_box(&input.2).chunks(BATCH * 8) {
            dst[..chunk.len()].copy_from_slice(chunk);
            black_box(&mut dst);
        }
    };
    bench_read(
        &mut g,
        "arrow_int64_plain_read",
        "4M",
        &spec,
        &read,
        Some(&mut floor),
    );
    g.finish();
}

/// A list column: one row in ten null, one in ten empty, up to 7 elements
/// otherwise, elements appended by `put` (which adds its own nulls).
fn list_of<B: ArrayBuilder>(
    rows: usize,
    rng: &mut XorShift,
    values: B,
    mut put: impl FnMut(&mut B, &mut XorShift),
) -> ArrayRef {
    let mut b = ListBuilder::new(values);
    for _ in 0..rows {
        let r = rng.next_u64();
        match r % 10 {
            0 => b.append(false),
            1 => b.append(true),
            _ => {
                for _ in 0..(r >> 8) % 8 {
                    put(b.values(), rng);
                }
                b.append(true);
            }
        }
    }
    Arc::new(b.finish())
}

fn put_int(b: &mut Int32Builder, rng: &mut XorShift) {
    let v = rng.next_u64();
    b.append_option((!v.is_multiple_of(20)).then_some((v >> 16) as i32));
}

fn put_str(b: &mut StringBuilder, rng: &mut XorShift) {
    let v = rng.next_u64();
    b.append_option((!v.is_multiple_of(20)).then(|| format!("item-{}", (v >> 16) % 5000)));
}

/// Struct{i: Int32, s: Utf8}: one row in ten null (children null there
/// too), children with their own nulls.
fn struct_of(rows: usize, rng: &mut XorShift) -> ArrayRef {
    let (mut ints, mut strs) = (Int32Builder::new(), StringBuilder::new());
    let mut valid = Vec::with_capacity(rows);
    for _ in 0..rows {
        let r = rng.next_u64();
        valid.push(!r.is_multiple_of(10));
        if r.is_multiple_of(10) {
            ints.append_null();
            strs.append_null();
        } else {
            put_int(&mut ints, rng);
            put_str(&mut strs, rng);
        }
    }
    let fields = Fields::from(vec![
        Field::new("i", DataType::Int32, true),
        Field::new("s", DataType::Utf8, true),
    ]);
    let children: Vec<ArrayRef> = vec![Arc::new(ints.finish()), Arc::new(strs.finish())];
    Arc::new(StructArray::try_new(fields, children, Some(NullBuffer::from(valid))).unwrap())
}

/// Builds a workload's input batches.
type MakeBatches = fn() -> Vec<RecordBatch>;

fn nested(c: &mut Criterion) {
    const ROWS: usize = 1 << 18;
    let cases: [(&str, MakeBatches); 3] = [
        ("list_int32", || {
            let mut rng = XorShift::new(5);
            batches_of(ROWS, |n| list_of(n, &mut rng, Int32Builder::new(), put_int))
        }),
        ("list_utf8", || {
            batches_of(ROWS, |n| {
                list_of(
                    n,
                    &mut XorShift::new(n as u64 ^ 9),
                    StringBuilder::new(),
                    put_str,
                )
            })
        }),
        ("struct_int_utf8", || {
            batches_of(ROWS, |n| struct_of(n, &mut XorShift::new(n as u64 ^ 3)))
        }),
    ];
    let spec = ReadSpec::batches_of(BATCH);
    for (case, make) in cases {
        let batches = LazyCell::new(make);
        // Also the check of the write benchmarks: each reader reads the
        // other writer's file back to the input.
        let read = checked(&spec, || {
            let files = common::write_both(
                &batches,
                WriterProperties::default(),
                PqWriterProperties::default(),
            );
            (common::concat(&batches), files)
        });

        let mut g = group(c, "arrow_nested_read", ROWS);
        bench_read(&mut g, "arrow_nested_read", case, &spec, &read, None);
        g.finish();

        let mut g = group(c, "arrow_nested_write", ROWS);
        common::pair(
            &mut g,
            "arrow_nested_write",
            case,
            || {
                LazyCell::force(&read);
                drop(black_box(common::strata_write(
                    &batches,
                    WriterProperties::default(),
                )))
            },
            || {
                LazyCell::force(&read);
                drop(black_box(common::arrow_rs_write(
                    &batches,
                    PqWriterProperties::default(),
                )))
            },
        );
        g.finish();
    }
}

fn projection(c: &mut Criterion) {
    const ROWS: usize = 1 << 17;
    const PICK: [usize; 3] = [3, 40, 77];
    // (the whole table as one batch, files), built when first needed.
    let table = LazyCell::new(|| {
        let batches = common::wide_table(ROWS);
        let files = common::write_both(
            &batches,
            WriterProperties::default(),
            PqWriterProperties::default(),
        );
        (common::concat(&batches), files)
    });
    let picked = || (table.0.project(&PICK).unwrap(), table.1.clone());
    let mut g = group(c, "arrow_projection", ROWS);
    let roots = ReadSpec {
        roots: Some(PICK.to_vec()),
        ..ReadSpec::batches_of(BATCH)
    };
    bench_read(
        &mut g,
        "arrow_projection",
        "roots_3of100",
        &roots,
        &checked(&roots, picked),
        None,
    );
    let leaves = ReadSpec {
        leaves: Some(PICK.to_vec()),
        ..ReadSpec::batches_of(BATCH)
    };
    bench_read(
        &mut g,
        "arrow_projection",
        "leaves_3of100",
        &leaves,
        &checked(&leaves, picked),
        None,
    );
    let all = ReadSpec::batches_of(BATCH);
    bench_read(
        &mut g,
        "arrow_projection",
        "all_100",
        &all,
        &checked(&all, || (*table).clone()),
        None,
    );
    g.finish();
}

/// 1M rows of id, v, f and s (nullable Utf8).
fn four_columns(rows: usize) -> Vec<RecordBatch> {
    let mut rng = XorShift::new(23);
    (0..rows)
        .step_by(BATCH)
        .map(|start| {
            let n = BATCH.min(rows - start);
            let id: ArrayRef = Arc::new(Int64Array::from_iter_values(
                start as i64..(start + n) as i64,
            ));
            let v: ArrayRef = Arc::new(Int32Array::from_iter_values(
                (0..n).map(|_| (rng.next_u64() % 100_000) as i32),
            ));
            let f: ArrayRef = Arc::new(Float64Array::from_iter_values(
                (0..n).map(|_| (rng.next_u64() % 1_000_000) as f64 / 8.0),
            ));
            let s: ArrayRef = Arc::new(StringArray::from_iter((0..n).map(|_| {
                let r = rng.next_u64();
                (!r.is_multiple_of(10)).then(|| format!("name-{}", (r >> 8) % 100_000))
            })));
            RecordBatch::try_from_iter([("id", id), ("v", v), ("f", f), ("s", s)]).unwrap()
        })
        .collect()
}

fn row_selection(c: &mut Criterion) {
    const ROWS: usize = 1_000_000;
    let ranges: Vec<std::ops::Range<usize>> = [100_000, 300_000, 500_000, 700_000, 900_000]
        .iter()
        .map(|&s| s..s + 2_000)
        .collect();
    let selected: usize = ranges.iter().map(|r| r.len()).sum();
    // (the whole table as one batch, files), built when first needed.
    let table = LazyCell::new(|| {
        let batches = four_columns(ROWS);
        // Small PLAIN pages (about 1,000 rows each) with the page index.
        let files = common::write_both(
            &batches,
            WriterProperties::builder()
                .set_dictionary_enabled(false)
                .set_data_page_size_limit(8 * 1024)
                .set_data_page_row_count_limit(1024)
                .set_write_batch_size(1024)
                .build(),
            PqWriterProperties::builder()
                .set_writer_version(PqWriterVersion::PARQUET_1_0)
                .set_dictionary_enabled(false)
                .set_data_page_size_limit(8 * 1024)
                .set_data_page_row_count_limit(1024)
                .set_write_batch_size(1024)
                .build(),
        );
        // arrow-rs's file has its offset index, with pages this small.
        let meta =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new_with_options(
                files.1.clone(),
                parquet::arrow::arrow_reader::ArrowReaderOptions::new()
                    .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Required),
            )
            .unwrap()
            .metadata()
            .clone();
        let index = meta.page_index_for_row_group(0);
        let pages = index.offset_index(0).unwrap().page_locations().len();
        assert!(pages >= ROWS / 2048, "{pages} pages");
        (common::concat(&batches), files)
    });
    let spec = ReadSpec {
        ranges: Some((ranges.clone(), ROWS)),
        page_index: true,
        ..ReadSpec::batches_of(BATCH)
    };
    let expect = || {
        let parts: Vec<RecordBatch> = ranges
            .iter()
            .map(|r| table.0.slice(r.start, r.len()))
            .collect();
        (common::concat(&parts), table.1.clone())
    };
    let mut g = group(c, "arrow_row_selection", selected);
    bench_read(
        &mut g,
        "arrow_row_selection",
        "1pct_5runs",
        &spec,
        &checked(&spec, expect),
        None,
    );
    g.finish();
    // For scale: every row, no selection.
    let mut g = group(c, "arrow_row_selection", ROWS);
    let all = ReadSpec::batches_of(BATCH);
    bench_read(
        &mut g,
        "arrow_row_selection",
        "all_rows",
        &all,
        &checked(&all, || (*table).clone()),
        None,
    );
    g.finish();
}

/// Every group of this bench, under criterion or taking turns.
fn all_groups(c: &mut Criterion) {
    int64_plain_read(c);
    nested(c);
    projection(c);
    row_selection(c);
}

fn main() {
    // With `--interleaved-sides`, every case strata against arrow-rs, the
    // two taking turns (`common::pair`).
    common::main_with_sides(all_groups);
}
