//! The seed-004 workload through the Arrow API, optional column without
//! nulls against the required one, measured interleaved:
//! `arrow_optional_probe [distinct] [batch] [utf8|dict] [reps]` (defaults
//! 100000, 8192, utf8, 30).
//!
//! The files are the `arrow_optional_no_nulls` benchmark's: 2^20 strings
//! `value-NNNNNNNN` with `distinct` distinct values, written by arrow-rs
//! (dictionary encoded, uncompressed) once with the field declared
//! nullable and once required. Each repetition reads the required file and
//! then the optional one with strata's `ParquetRecordBatchReader` (batches
//! of `batch` rows, as Utf8 or as Dictionary(Int32, Utf8)); the probe
//! prints the fastest and median read of each and their ratios. Criterion
//! times the two cases minutes apart, which on a shared machine is more
//! noise than the 5% the comparison is about.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use strata_benches::probe::interleaved;

const ROWS: usize = 1 << 20;

fn strings(distinct: usize) -> ArrayRef {
    let mut x = 7u64;
    let values: Vec<String> = (0..ROWS)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            format!("value-{:08}", x as usize % distinct.max(1))
        })
        .collect();
    Arc::new(StringArray::from(values))
}

fn file(values: &ArrayRef, nullable: bool) -> Bytes {
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, nullable)]));
    let batch = RecordBatch::try_new(schema.clone(), vec![values.clone()]).unwrap();
    let mut out = Vec::new();
    let mut w = parquet::arrow::ArrowWriter::try_new(&mut out, schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    Bytes::from(out)
}

fn read(file: &Bytes, schema: &Arc<Schema>, batch: usize) -> usize {
    ParquetRecordBatchReaderBuilder::try_new_with_options(
        file.clone(),
        ArrowReaderOptions::new().with_schema(schema.clone()),
    )
    .unwrap()
    .with_batch_size(batch)
    .build()
    .unwrap()
    .map(|b| black_box(b.unwrap()).num_rows())
    .sum()
}

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let (distinct, batch) = (arg(1, 100_000), arg(2, 8192));
    let as_dict = std::env::args().nth(3).is_some_and(|s| s == "dict");
    let reps = arg(4, 30);
    let values = strings(distinct);
    let value_type = if as_dict {
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
    } else {
        DataType::Utf8
    };
    let sides: Vec<(Bytes, Arc<Schema>)> = [false, true]
        .map(|nullable| {
            let schema = Arc::new(Schema::new(vec![Field::new(
                "s",
                value_type.clone(),
                nullable,
            )]));
            (file(&values, nullable), schema)
        })
        .into();
    let run = |(file, schema): &(Bytes, Arc<Schema>)| assert_eq!(read(file, schema, batch), ROWS);
    let stats = interleaved(reps, &mut [&mut || run(&sides[0]), &mut || run(&sides[1])]);
    let [(req_min, req_median), (opt_min, opt_median)] = [stats[0], stats[1]];
    println!(
        "distinct {distinct} batch {batch} as {}, {reps} interleaved reads each: \
         required min {req_min:.2?} median {req_median:.2?}, \
         optional min {opt_min:.2?} median {opt_median:.2?}, \
         optional / required: min {:.3} median {:.3}",
        if as_dict { "dict" } else { "utf8" },
        opt_min.as_secs_f64() / req_min.as_secs_f64(),
        opt_median.as_secs_f64() / req_median.as_secs_f64()
    );
}
