//! Row filters: a predicate on one column of a 10M-row table, the other
//! five columns returned, strata's `with_row_filter` against arrow-rs
//! 60.1's `with_row_filter` on the same file and predicate, and strata
//! reading every row and filtering afterwards (`filter_record_batch`).
//!
//! The table (written once by arrow-rs with default properties: row
//! groups of 1,048,576 rows, page index on): `key` INT64 drawn uniformly
//! from 0..1,000,000 (not sorted, so kept rows are scattered through
//! every page), `ts` a microsecond timestamp, `name` strings of 50,000
//! distinct values (dictionary encoded), `note` strings of 2,000,000
//! distinct values (the chunk falls back from its dictionary), `price`
//! and `score` doubles. The predicate is `key < k` for k keeping 0.1%,
//! 1%, 10% and 50% of the rows; the output is `ts, name, note, price,
//! score`.
//!
//! Before timing, each case checks that the three sides return the same
//! number of rows and the same values. `-- --interleaved-sides [REPS]`
//! times the three sides taking turns and prints one `row_filter
//! case=...` line per case for `cargo xtask bench`. Without the flag the
//! binary does nothing: these reads take about a second each, too long
//! for criterion's quick run.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

mod common;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray,
    TimestampMicrosecondArray,
};
use bytes::Bytes;
use parquet::file::properties::WriterProperties as PqWriterProperties;
use strata_benches::data::XorShift;

const ROWS: usize = 10_000_000;
const BATCH: usize = 65_536;
const KEYS: i64 = 1_000_000;

/// The table, in batches of [`BATCH`] rows.
fn table() -> Vec<RecordBatch> {
    let mut rng = XorShift::new(7);
    let mut batches = Vec::new();
    let mut row = 0usize;
    while row < ROWS {
        let n = BATCH.min(ROWS - row);
        let key: ArrayRef = Arc::new(Int64Array::from_iter_values(
            (0..n).map(|_| (rng.next_u64() % KEYS as u64) as i64),
        ));
        let ts: ArrayRef = Arc::new(TimestampMicrosecondArray::from_iter_values(
            (0..n as i64).map(|i| 1_700_000_000_000_000 + (row as i64 + i) * 1_000),
        ));
        let name: ArrayRef = Arc::new(StringArray::from_iter_values(
            (0..n).map(|_| format!("customer-{}", rng.next_u64() % 50_000)),
        ));
        let note: ArrayRef = Arc::new(StringArray::from_iter_values(
            (0..n).map(|_| format!("note {:x}", rng.next_u64() % 2_000_000)),
        ));
        let price: ArrayRef = Arc::new(Float64Array::from_iter_values(
            (0..n).map(|_| (rng.next_u64() % 1_000_000) as f64 / 100.0),
        ));
        let score: ArrayRef = Arc::new(Float64Array::from_iter_values(
            (0..n).map(|_| (rng.next_u64() % 1_000) as f64 / 7.0),
        ));
        batches.push(
            RecordBatch::try_from_iter([
                ("key", key),
                ("ts", ts),
                ("name", name),
                ("note", note),
                ("price", price),
                ("score", score),
            ])
            .unwrap(),
        );
        row += n;
    }
    batches
}

/// The cases: name and the key bound that keeps that share of rows.
const CASES: [(&str, i64); 4] = [
    ("keep_0.1pct", KEYS / 1000),
    ("keep_1pct", KEYS / 100),
    ("keep_10pct", KEYS / 10),
    ("keep_50pct", KEYS / 2),
];

fn keep(keys: &Int64Array, bound: i64) -> BooleanArray {
    BooleanArray::from_unary(keys, |k| k < bound)
}

/// What a read returned: rows, and a sum over the output columns that
/// tells different values apart.
#[derive(Debug, PartialEq, Default)]
struct Digest {
    rows: usize,
    ts: i64,
    price_bits: u64,
    name_bytes: usize,
    note_bytes: usize,
}

impl Digest {
    fn add(&mut self, b: &RecordBatch) {
        self.rows += b.num_rows();
        let ts = b
            .column(0)
            .as_primitive::<arrow_array::types::TimestampMicrosecondType>();
        self.ts = ts.values().iter().fold(self.ts, |s, v| s.wrapping_add(*v));
        let names = b.column(1).as_string::<i32>();
        self.name_bytes += names.values().len();
        let notes = b.column(2).as_string::<i32>();
        self.note_bytes += notes.values().len();
        let price = b
            .column(3)
            .as_primitive::<arrow_array::types::Float64Type>();
        self.price_bits = price
            .values()
            .iter()
            .fold(self.price_bits, |s, v| s.wrapping_add(v.to_bits()));
    }
}

/// A read of `key < bound` with `$krate`'s row filter, the other five
/// columns returned: the same program for both sides.
macro_rules! filtered {
    ($name:ident, $krate:ident) => {
        fn $name(file: &Bytes, bound: i64) -> Digest {
            use $krate::arrow::arrow_reader::RowSelectionPolicy;
            $name::with_policy(file, bound, RowSelectionPolicy::default())
        }
        mod $name {
            use super::*;
            pub fn with_policy(
                file: &Bytes,
                bound: i64,
                policy: $krate::arrow::arrow_reader::RowSelectionPolicy,
            ) -> Digest {
                use $krate::arrow::ProjectionMask;
                use $krate::arrow::arrow_reader::{
                    ArrowPredicateFn, ParquetRecordBatchReaderBuilder, RowFilter,
                };
                let b = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
                let schema = b.parquet_schema();
                let predicate =
                    ArrowPredicateFn::new(ProjectionMask::roots(schema, [0]), move |batch| {
                        Ok(keep(batch.column(0).as_primitive::<Int64Type>(), bound))
                    });
                let output = ProjectionMask::roots(schema, [1, 2, 3, 4, 5]);
                let reader = b
                    .with_projection(output)
                    .with_row_filter(RowFilter::new(vec![Box::new(predicate)]))
                    .with_row_selection_policy(policy)
                    .build()
                    .unwrap();
                let mut d = Digest::default();
                for batch in reader {
                    d.add(&batch.unwrap());
                }
                d
            }
        }
    };
}

filtered!(strata_filtered, strata);
filtered!(arrow_rs_filtered, parquet);

/// strata reading all six columns, then filtering each batch.
fn strata_read_then_filter(file: &Bytes, bound: i64) -> Digest {
    use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .build()
        .unwrap();
    let mut d = Digest::default();
    for batch in reader {
        let batch = batch.unwrap();
        let mask = keep(batch.column(0).as_primitive::<Int64Type>(), bound);
        let kept = arrow_select::filter::filter_record_batch(&batch, &mask).unwrap();
        d.add(&kept.project(&[1, 2, 3, 4, 5]).unwrap());
    }
    d
}

fn interleaved(reps: usize) {
    let file = Bytes::from(common::arrow_rs_write(
        &table(),
        PqWriterProperties::builder().build(),
    ));
    eprintln!("row_filter: the table is {} bytes", file.len());
    for (case, bound) in CASES {
        let want = arrow_rs_filtered(&file, bound);
        assert_eq!(
            strata_filtered(&file, bound),
            want,
            "{case}: strata's filter"
        );
        assert_eq!(
            strata_read_then_filter(&file, bound),
            want,
            "{case}: read, then filter"
        );
        let stats = strata_benches::probe::interleaved(
            reps,
            &mut [
                &mut || assert_eq!(strata_filtered(&file, bound).rows, want.rows),
                &mut || assert_eq!(arrow_rs_filtered(&file, bound).rows, want.rows),
                &mut || assert_eq!(strata_read_then_filter(&file, bound).rows, want.rows),
            ],
        );
        let [(s_min, s_median), (a_min, a_median), (r_min, r_median)] =
            [stats[0], stats[1], stats[2]];
        println!(
            "row_filter case={case} reps={reps} rows={} strata_min_ns={} strata_median_ns={} \
             arrow_rs_min_ns={} arrow_rs_median_ns={} read_then_filter_min_ns={} \
             read_then_filter_median_ns={} ratio_of_medians={:.3}",
            want.rows,
            s_min.as_nanos(),
            s_median.as_nanos(),
            a_min.as_nanos(),
            a_median.as_nanos(),
            r_min.as_nanos(),
            r_median.as_nanos(),
            s_median.as_secs_f64() / a_median.as_secs_f64(),
        );
    }
}

/// `--one-side SIDE CASE REPS`: only `SIDE` (`strata`, `arrow-rs` or
/// `read-then-filter`) on `CASE`, `REPS` times, for a profiler.
fn one_side(args: &[String]) {
    let [side, case, reps] = args else {
        panic!("--one-side SIDE CASE REPS");
    };
    let file = Bytes::from(common::arrow_rs_write(
        &table(),
        PqWriterProperties::builder().build(),
    ));
    let (_, bound) = CASES.into_iter().find(|(c, _)| c == case).expect("a case");
    let read = match side.as_str() {
        "strata" => strata_filtered,
        "strata-mask" => |f: &Bytes, b| {
            use strata::arrow::arrow_reader::RowSelectionPolicy;
            strata_filtered::with_policy(f, b, RowSelectionPolicy::Mask)
        },
        "strata-selectors" => |f: &Bytes, b| {
            use strata::arrow::arrow_reader::RowSelectionPolicy;
            strata_filtered::with_policy(f, b, RowSelectionPolicy::Selectors)
        },
        "arrow-rs" => arrow_rs_filtered,
        "arrow-rs-mask" => |f: &Bytes, b| {
            use parquet::arrow::arrow_reader::RowSelectionPolicy;
            arrow_rs_filtered::with_policy(f, b, RowSelectionPolicy::Mask)
        },
        "read-then-filter" => strata_read_then_filter,
        other => panic!("no side {other}"),
    };
    for _ in 0..reps.parse::<usize>().expect("a count") {
        let start = std::time::Instant::now();
        let rows = read(&file, bound).rows;
        eprintln!(
            "rows: {rows} in {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--one-side") {
        one_side(args.get(at + 1..at + 4).unwrap_or_default());
    } else if let Some(reps) = common::reps_after("--interleaved-sides") {
        interleaved(reps);
    }
}
