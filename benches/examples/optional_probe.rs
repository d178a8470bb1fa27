//! The optional-column report's record read (`../shared/seeds/004_*.txt`), optional column without nulls against the
//! required one, measured interleaved: `optional_probe [distinct] [batch]
//! [reps] [keep|drop]` (defaults 100000, 8192, 30, keep). `drop` reads the
//! optional column with `set_flat_def_levels(false)`: validity bitmap and
//! null count only, no copy of its (all equal) definition levels.
//!
//! Criterion times one case after another, so on a shared machine the two
//! sides of the comparison meet different neighbours. Here each repetition
//! reads the required file and then the optional one (strata-record,
//! values materialised, as in the `record_read` benchmark), and the probe
//! prints the fastest and the median read of each and their ratios.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use bytes::Bytes;
use strata_benches::data::{one_string_column_file, optional_report_strings, read_string_column};
use strata_benches::probe::interleaved;
use strata_record::RecordBatchBuffers;

const ROWS: usize = 2_000_000;

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let (distinct, batch, reps) = (arg(1, 100_000), arg(2, 8192), arg(3, 30));
    let keep_levels = std::env::args().nth(4).is_none_or(|s| s != "drop");
    let values = optional_report_strings(ROWS, distinct, 0x5eed);
    let offsets: Vec<i32> = (0..=ROWS).map(|i| (i * 24) as i32).collect();
    let files: Vec<Bytes> = [false, true]
        .map(|optional| Bytes::from(one_string_column_file(&offsets, &values, optional, 8 << 20)))
        .into();
    let mut out = RecordBatchBuffers::new();
    let out = std::cell::RefCell::new(&mut out);
    let read = |file: &Bytes| {
        assert_eq!(
            read_string_column(file, batch, keep_levels, &mut out.borrow_mut()),
            ROWS
        );
    };
    let stats = interleaved(
        reps,
        &mut [&mut || read(&files[0]), &mut || read(&files[1])],
    );
    let [(req_min, req_median), (opt_min, opt_median)] = [stats[0], stats[1]];
    println!(
        "distinct {distinct} batch {batch}, levels {}, {reps} interleaved reads each: \
         required min {req_min:.2?} median {req_median:.2?}, \
         optional min {opt_min:.2?} median {opt_median:.2?}, \
         optional / required: min {:.3} median {:.3}",
        if keep_levels { "kept" } else { "dropped" },
        opt_min.as_secs_f64() / req_min.as_secs_f64(),
        opt_median.as_secs_f64() / req_median.as_secs_f64()
    );
}
