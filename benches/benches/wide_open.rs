//! Opening a wide file and reading a few of its columns: 10,000 columns
//! (one row group of 1,000 rows, written by strata's `ArrowWriter` with its
//! default statistics, page indexes and embedded Arrow schema), 10 of them
//! read, strata against arrow-rs on the same bytes. Each side runs with
//! default options and with statistics policies that keep only the read
//! columns' statistics (`ParquetStatisticsPolicy::skip_except`).
//! `-- --interleaved-sides [REPS]` runs both cases with strata and arrow-rs
//! taking turns instead of under criterion (`common::pair`).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
#![forbid(unsafe_code)]

mod common;

use std::hint::black_box;

use common::wide::{arrow_open, strata_open};
use criterion::Criterion;
use strata_benches::data::wide_file;

const COLUMNS: usize = 10_000;
const READ: usize = 10;

fn wide_open(c: &mut Criterion) {
    let file = wide_file(COLUMNS, 1);
    let leaves: Vec<usize> = (0..READ).map(|k| k * (COLUMNS / READ) + k % 4).collect();
    for skip in [false, true] {
        assert_eq!(strata_open(&file, &leaves, skip), (1000, READ));
        assert_eq!(arrow_open(&file, &leaves, skip), (1000, READ));
    }
    let mut group = c.benchmark_group("wide_open");
    group.sample_size(10);
    for (case, skip) in [
        ("10000cols_read10", false),
        ("10000cols_read10_skip_stats", true),
    ] {
        common::pair(
            &mut group,
            "wide_open",
            case,
            || {
                black_box(strata_open(black_box(&file), &leaves, skip));
            },
            || {
                black_box(arrow_open(black_box(&file), &leaves, skip));
            },
        );
    }
    group.finish();
}

fn main() {
    common::main_with_sides(wide_open);
}
