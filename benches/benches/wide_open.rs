//! Opening a wide file and reading a few of its columns: 10,000 columns
//! (one row group of 1,000 rows, written by strata's `ArrowWriter` with its
//! default statistics, page indexes and embedded Arrow schema), 10 of them
//! read, strata against arrow-rs on the same bytes. Each side runs with
//! default options and with statistics policies that keep only the read
//! columns' statistics (`ParquetStatisticsPolicy::skip_except`).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
#![forbid(unsafe_code)]

use std::hint::black_box;

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use strata_benches::data::wide_file;

const COLUMNS: usize = 10_000;
const READ: usize = 10;

fn strata_open(file: &Bytes, leaves: &[usize], skip: bool) -> usize {
    use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use strata_file::metadata::ParquetStatisticsPolicy as Policy;
    let mut options = ArrowReaderOptions::new();
    if skip {
        options = options
            .with_column_stats_policy(Policy::skip_except(leaves))
            .with_encoding_stats_policy(Policy::skip_except(leaves))
            .with_size_stats_policy(Policy::skip_except(leaves));
    }
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
    let mask =
        strata_arrow::ProjectionMask::leaves(builder.parquet_schema(), leaves.iter().copied());
    let reader = builder.with_projection(mask).build().unwrap();
    reader.map(|b| b.unwrap().num_columns()).sum()
}

fn arrow_open(file: &Bytes, leaves: &[usize], skip: bool) -> usize {
    use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use parquet::file::metadata::ParquetStatisticsPolicy as Policy;
    let mut options = ArrowReaderOptions::new();
    if skip {
        options = options
            .with_column_stats_policy(Policy::skip_except(leaves))
            .with_encoding_stats_policy(Policy::skip_except(leaves))
            .with_size_stats_policy(Policy::skip_except(leaves));
    }
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
    let mask =
        parquet::arrow::ProjectionMask::leaves(builder.parquet_schema(), leaves.iter().copied());
    let reader = builder.with_projection(mask).build().unwrap();
    reader.map(|b| b.unwrap().num_columns()).sum()
}

fn wide_open(c: &mut Criterion) {
    let file = wide_file(COLUMNS, 1);
    let leaves: Vec<usize> = (0..READ).map(|k| k * (COLUMNS / READ) + k % 4).collect();
    for skip in [false, true] {
        assert_eq!(strata_open(&file, &leaves, skip), READ);
        assert_eq!(arrow_open(&file, &leaves, skip), READ);
    }
    let mut group = c.benchmark_group("wide_open");
    group.sample_size(10);
    for (case, skip) in [
        ("10000cols_read10", false),
        ("10000cols_read10_skip_stats", true),
    ] {
        group.bench_function(format!("strata/{case}"), |b| {
            b.iter(|| black_box(strata_open(black_box(&file), &leaves, skip)))
        });
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            b.iter(|| black_box(arrow_open(black_box(&file), &leaves, skip)))
        });
    }
    group.finish();
}

criterion_group!(benches, wide_open);
criterion_main!(benches);
