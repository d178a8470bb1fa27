//! Helpers shared by the Arrow API benchmarks: write the same batches with
//! either writer, read a file with either reader (with a projection, a row
//! selection and the page index as asked), and compare what they produce.
#![allow(dead_code)]

pub mod wide;

use std::ops::Range;
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray,
    TimestampMicrosecondArray,
};
use arrow_schema::{DataType, Field, SchemaRef};
use bytes::Bytes;
use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;
use parquet::arrow::ArrowWriter as PqArrowWriter;
use parquet::file::properties::WriterProperties as PqWriterProperties;
use strata_arrow::ArrowWriter;
use strata_benches::data::XorShift;
use strata_file::properties::WriterProperties;

/// Repetitions of the side-by-side mode (`--interleaved-sides REPS`), set
/// once by a bench binary's `main`; unset, the benchmarks run under
/// criterion.
pub static SIDES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();

/// `REPS` after `flag` among the process arguments (default 10), if the
/// flag is there.
pub fn reps_after(flag: &str) -> Option<usize> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == flag)?;
    Some(args.get(at + 1).and_then(|r| r.parse().ok()).unwrap_or(10))
}

/// The `main` of a bench binary with a side-by-side mode: with
/// `--interleaved-sides [REPS]` among the arguments, `groups` run with the
/// two sides taking turns ([`pair`]); otherwise under criterion, as
/// `criterion_main!` would run them.
pub fn main_with_sides(groups: fn(&mut criterion::Criterion)) {
    if let Some(reps) = reps_after("--interleaved-sides") {
        SIDES.get_or_init(|| reps);
        groups(&mut criterion::Criterion::default());
        return;
    }
    let mut c = criterion::Criterion::default().configure_from_args();
    groups(&mut c);
    c.final_summary();
}

/// One case of a workload, strata against arrow-rs. Under criterion, two
/// benchmarks (`strata/{case}`, `arrow-rs/{case}` in `g`). In the
/// side-by-side mode ([`SIDES`]), each closure runs once untimed (which
/// also builds any lazy input), then the two take turns `REPS` times, so
/// that on a shared machine both meet the same neighbours (criterion times
/// one after the other, and the load can change in between); one line for
/// `cargo xtask bench`: `sides_interleaved group=G case=C reps=N
/// strata_min_ns=.. strata_median_ns=.. arrow_rs_min_ns=..
/// arrow_rs_median_ns=..`.
pub fn pair(
    g: &mut BenchmarkGroup<'_, WallTime>,
    group: &str,
    case: &str,
    mut strata: impl FnMut(),
    mut arrow_rs: impl FnMut(),
) {
    let Some(&reps) = SIDES.get() else {
        g.bench_function(format!("strata/{case}"), |b| b.iter(&mut strata));
        g.bench_function(format!("arrow-rs/{case}"), |b| b.iter(&mut arrow_rs));
        return;
    };
    strata();
    arrow_rs();
    let stats = strata_benches::probe::interleaved(reps, &mut [&mut strata, &mut arrow_rs]);
    println!("{}", sides_line(group, case, reps, &stats));
}

/// [`pair`] with the physical floor of the case (`floor`, a copy of the
/// same bytes) as a third benchmark (`memcpy/{case}`) under criterion, and
/// in the side-by-side mode as a third turn, so that strata's distance
/// from the floor is measured under the same load too: its line ends with
/// `memcpy_min_ns=.. memcpy_median_ns=..`.
pub fn pair_with_floor(
    g: &mut BenchmarkGroup<'_, WallTime>,
    group: &str,
    case: &str,
    mut strata: impl FnMut(),
    mut arrow_rs: impl FnMut(),
    mut floor: impl FnMut(),
) {
    let Some(&reps) = SIDES.get() else {
        pair(g, group, case, strata, arrow_rs);
        g.bench_function(format!("memcpy/{case}"), |b| b.iter(&mut floor));
        return;
    };
    strata();
    arrow_rs();
    floor();
    let stats =
        strata_benches::probe::interleaved(reps, &mut [&mut strata, &mut arrow_rs, &mut floor]);
    println!("{}", sides_line(group, case, reps, &stats));
}

/// The `sides_interleaved` line of a case from its turns' (fastest,
/// median) times: strata's, arrow-rs's and, if a third is there, the
/// floor's.
fn sides_line(
    group: &str,
    case: &str,
    reps: usize,
    stats: &[(std::time::Duration, std::time::Duration)],
) -> String {
    let ns = |i: usize| {
        stats
            .get(i)
            .map(|&(min, median)| (min.as_nanos(), median.as_nanos()))
    };
    let ((s_min, s_median), (a_min, a_median)) =
        (ns(0).unwrap_or_default(), ns(1).unwrap_or_default());
    let mut line = format!(
        "sides_interleaved group={group} case={case} reps={reps} \
         strata_min_ns={s_min} strata_median_ns={s_median} \
         arrow_rs_min_ns={a_min} arrow_rs_median_ns={a_median}"
    );
    if let Some((f_min, f_median)) = ns(2) {
        line.push_str(&format!(
            " memcpy_min_ns={f_min} memcpy_median_ns={f_median}"
        ));
    }
    line
}

/// The line a feature's side-by-side mode prints for `cargo xtask bench`
/// (`encryption`, `cdc`): `stats` are the (fastest, median) times of
/// strata and arrow-rs with the feature on, then of each without it.
pub fn feature_line(
    bench: &str,
    case: &str,
    reps: usize,
    stats: &[(std::time::Duration, std::time::Duration)],
) {
    let [
        (s_min, s_median),
        (a_min, a_median),
        (_, s_plain),
        (_, a_plain),
    ] = [stats[0], stats[1], stats[2], stats[3]];
    println!(
        "{bench} case={case} reps={reps} strata_min_ns={} strata_median_ns={} \
         arrow_rs_min_ns={} arrow_rs_median_ns={} strata_plain_median_ns={} \
         arrow_rs_plain_median_ns={} ratio_of_medians={:.3}",
        s_min.as_nanos(),
        s_median.as_nanos(),
        a_min.as_nanos(),
        a_median.as_nanos(),
        s_plain.as_nanos(),
        a_plain.as_nanos(),
        s_median.as_secs_f64() / a_median.as_secs_f64(),
    );
}

/// Writes `batches` with strata's `ArrowWriter`.
pub fn strata_write(batches: &[RecordBatch], props: WriterProperties) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batches[0].schema(), Some(props)).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
    out
}

/// Writes `batches` with arrow-rs's `ArrowWriter`.
pub fn arrow_rs_write(batches: &[RecordBatch], props: PqWriterProperties) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = PqArrowWriter::try_new(&mut out, batches[0].schema(), Some(props)).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
    out
}

/// Both writers' files of `batches` (strata's, arrow-rs's), written at
/// the same time on two threads: inputs are built before any timing, and
/// the quick run of `cargo xtask bench` has about 5 minutes in all.
pub fn write_both(
    batches: &[RecordBatch],
    props: WriterProperties,
    pq_props: PqWriterProperties,
) -> (Bytes, Bytes) {
    std::thread::scope(|s| {
        let strata = s.spawn(|| Bytes::from(strata_write(batches, props)));
        let arrow_rs = Bytes::from(arrow_rs_write(batches, pq_props));
        (strata.join().unwrap(), arrow_rs)
    })
}

/// `batches` as one batch.
pub fn concat(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// How a file is read: batch size, an optional Arrow schema to read as,
/// an optional projection (root or leaf indices), an optional row selection
/// (ranges out of a total) and whether the page index is loaded.
#[derive(Debug, Clone, Default)]
pub struct ReadSpec {
    pub batch_size: usize,
    pub schema: Option<SchemaRef>,
    pub roots: Option<Vec<usize>>,
    pub leaves: Option<Vec<usize>>,
    pub ranges: Option<(Vec<Range<usize>>, usize)>,
    pub page_index: bool,
}

impl ReadSpec {
    /// Everything, in batches of `batch_size`.
    pub fn batches_of(batch_size: usize) -> Self {
        Self {
            batch_size,
            ..Self::default()
        }
    }
}

/// One reader function per implementation: both builders take the same
/// method names, only the types and the page-index option differ.
macro_rules! reader_fn {
    ($(#[$m:meta])* $name:ident, $builder:ty, $mask:ty, $selection:ty, $options:expr) => {
        $(#[$m])*
        pub fn $name(data: &Bytes, spec: &ReadSpec, mut each: impl FnMut(RecordBatch)) {
            let mut options = ($options)(spec.page_index);
            if let Some(schema) = &spec.schema {
                options = options.with_schema(Arc::clone(schema));
            }
            let mut b = <$builder>::try_new_with_options(data.clone(), options)
                .unwrap()
                .with_batch_size(spec.batch_size);
            if let Some(roots) = &spec.roots {
                let mask = <$mask>::roots(b.parquet_schema(), roots.iter().copied());
                b = b.with_projection(mask);
            }
            if let Some(leaves) = &spec.leaves {
                let mask = <$mask>::leaves(b.parquet_schema(), leaves.iter().copied());
                b = b.with_projection(mask);
            }
            if let Some((ranges, total)) = &spec.ranges {
                let s = <$selection>::from_consecutive_ranges(ranges.iter().cloned(), *total);
                b = b.with_row_selection(s);
            }
            for batch in b.build().unwrap() {
                each(batch.unwrap());
            }
        }
    };
}

reader_fn!(
    /// Reads `data` with strata's Arrow reader, handing each batch to `each`.
    strata_read,
    strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder<Bytes>,
    strata_arrow::ProjectionMask,
    strata_arrow::arrow_reader::RowSelection,
    |p: bool| strata_arrow::arrow_reader::ArrowReaderOptions::new().with_page_index(p)
);

reader_fn!(
    /// Reads `data` with arrow-rs's Arrow reader, handing each batch to `each`.
    arrow_rs_read,
    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder<Bytes>,
    parquet::arrow::ProjectionMask,
    parquet::arrow::arrow_reader::RowSelection,
    |p: bool| {
        use parquet::file::metadata::PageIndexPolicy;
        let policy = if p {
            PageIndexPolicy::Required
        } else {
            PageIndexPolicy::Skip
        };
        parquet::arrow::arrow_reader::ArrowReaderOptions::new().with_page_index_policy(policy)
    }
);

/// Every batch `read` produces, as one batch.
pub fn collect(read: impl FnOnce(&mut dyn FnMut(RecordBatch))) -> RecordBatch {
    let mut out = Vec::new();
    read(&mut |b| out.push(b));
    concat(&out)
}

/// Rows `read` produces, dropping each batch as it comes.
pub fn count_rows(read: impl FnOnce(&mut dyn FnMut(RecordBatch))) -> usize {
    let mut rows = 0;
    read(&mut |b| rows += std::hint::black_box(b).num_rows());
    rows
}

/// Both readers on both files (`strata_file` written by strata,
/// `arrow_rs_file` by arrow-rs) return `expect`: strata's reader on one
/// thread, arrow-rs's on another.
pub fn check_both_ways(
    expect: &RecordBatch,
    strata_file: &Bytes,
    arrow_rs_file: &Bytes,
    spec: &ReadSpec,
) {
    let files = [("strata", strata_file), ("arrow-rs", arrow_rs_file)];
    std::thread::scope(|s| {
        let by_strata = s.spawn(|| {
            for (who, file) in files {
                let got = collect(|f| strata_read(file, spec, f));
                assert_same(&got, expect, &format!("strata reading {who}'s file"));
            }
        });
        for (who, file) in files {
            let got = collect(|f| arrow_rs_read(file, spec, f));
            assert_same(&got, expect, &format!("arrow-rs reading {who}'s file"));
        }
        by_strata.join().unwrap();
    });
}

/// `dt` with every list's element field named `item`.
fn unnamed_lists(dt: &DataType) -> DataType {
    match dt {
        DataType::List(f) => DataType::List(Arc::new(Field::new(
            "item",
            unnamed_lists(f.data_type()),
            f.is_nullable(),
        ))),
        DataType::Struct(fields) => DataType::Struct(
            fields
                .iter()
                .map(|f| Field::new(f.name(), unnamed_lists(f.data_type()), f.is_nullable()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `got` holds the values of `expect`. The name of a list's element field
/// may differ: strata names it `element` in the Parquet schema (the
/// format's recommendation), arrow-rs after the Arrow field (`item`), and
/// arrow-rs reads back the Parquet name. Everything else must match.
fn assert_same(got: &RecordBatch, expect: &RecordBatch, what: &str) {
    assert_eq!(got.num_columns(), expect.num_columns(), "{what}");
    for (g, e) in got.columns().iter().zip(expect.columns()) {
        assert_eq!(
            unnamed_lists(g.data_type()),
            unnamed_lists(e.data_type()),
            "{what}"
        );
        let g = arrow_array::make_array(
            g.to_data()
                .into_builder()
                .data_type(e.data_type().clone())
                .build()
                .unwrap(),
        );
        assert_eq!(&g, e, "{what}");
    }
}

/// Rows in the mixed table.
pub const MIXED_ROWS: usize = 1 << 20;
/// Rows per batch of the mixed table.
pub const MIXED_BATCH: usize = 8192;

/// The mixed table of the `arrow` bench: 1M rows (int64 ids, int32, f64,
/// Utf8 with 10% nulls, bool, microsecond timestamps) in batches of 8,192.
pub fn mixed_table() -> Vec<RecordBatch> {
    mixed_rows(42, 0, MIXED_ROWS)
}

/// `rows` rows of the mixed table's kind, from seed `seed`, ids from
/// `first_id`, in batches of 8,192.
#[allow(dead_code)]
pub fn mixed_rows(seed: u64, first_id: i64, rows: usize) -> Vec<RecordBatch> {
    let mut rng = XorShift::new(seed);
    let mut batches = Vec::new();
    let end = first_id + rows as i64;
    let mut row = first_id;
    while row < end {
        let n = MIXED_BATCH.min((end - row) as usize);
        let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(row..row + n as i64));
        let small: ArrayRef = Arc::new(Int32Array::from_iter_values(
            (0..n).map(|_| (rng.next_u64() % 1000) as i32),
        ));
        let price: ArrayRef = Arc::new(Float64Array::from_iter_values(
            (0..n).map(|_| (rng.next_u64() % 1_000_000) as f64 / 100.0),
        ));
        let names: ArrayRef = Arc::new(StringArray::from_iter((0..n).map(|_| {
            let r = rng.next_u64();
            (!r.is_multiple_of(10)).then(|| format!("customer-{}", (r >> 8) % 50_000))
        })));
        let flags: ArrayRef = Arc::new(BooleanArray::from_iter(
            (0..n).map(|_| Some(rng.next_u64().is_multiple_of(3))),
        ));
        let ts: ArrayRef = Arc::new(TimestampMicrosecondArray::from_iter_values(
            (0..n as i64).map(|i| 1_700_000_000_000_000 + (row + i) * 1_000_003),
        ));
        batches.push(
            RecordBatch::try_from_iter([
                ("id", ids),
                ("small", small),
                ("price", price),
                ("name", names),
                ("flag", flags),
                ("ts", ts),
            ])
            .unwrap(),
        );
        row += n as i64;
    }
    batches
}

/// `rows` strings drawn from `distinct` values, no nulls.
pub fn string_values(rows: usize, distinct: usize) -> ArrayRef {
    let mut rng = XorShift::new(7);
    let values: Vec<String> = (0..rows)
        .map(|_| format!("value-{:08}", rng.next_u64() as usize % distinct))
        .collect();
    Arc::new(StringArray::from(values))
}

/// The 100-column table of `arrow_projection` and `object_store`: even
/// columns int64, odd ones nullable Utf8 (1 in 20 null, 1,000 distinct
/// values), in batches of 8,192 rows.
pub fn wide_table(rows: usize) -> Vec<RecordBatch> {
    let mut rng = XorShift::new(17);
    (0..rows)
        .step_by(MIXED_BATCH)
        .map(|start| {
            let n = MIXED_BATCH.min(rows - start);
            let columns = (0..100).map(|i| {
                let a: ArrayRef = if i % 2 == 0 {
                    Arc::new(Int64Array::from_iter_values(
                        (0..n).map(|_| (rng.next_u64() >> 1) as i64),
                    ))
                } else {
                    Arc::new(StringArray::from_iter((0..n).map(|_| {
                        let r = rng.next_u64();
                        (!r.is_multiple_of(20)).then(|| format!("v{i}-{}", (r >> 8) % 1000))
                    })))
                };
                (format!("c{i:03}"), a)
            });
            RecordBatch::try_from_iter(columns).unwrap()
        })
        .collect()
}
