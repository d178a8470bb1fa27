//! Footer decode in a loop, for `perf stat`: `footer_probe strata|arrow|both N [columns row_groups]`.
//! `both` takes turns: 20 rounds of `N` decodes a side, then the best and
//! median round of each and their ratio.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::Instant;

fn decode(which: &str, bytes: &[u8]) {
    match which {
        "strata" => {
            let meta = strata_format::footer::decode_metadata(black_box(bytes)).unwrap();
            let schema =
                strata_format::schema::SchemaDescriptor::from_file_metadata(&meta).unwrap();
            black_box((meta, schema));
        }
        "arrow" => {
            black_box(
                parquet::file::metadata::ParquetMetaDataReader::decode_metadata(black_box(bytes))
                    .unwrap(),
            );
        }
        "skip" => {
            let mut r = strata_format::thrift::CompactReader::new(black_box(bytes));
            r.skip(strata_format::thrift::FieldType::Struct).unwrap();
            black_box(r.position());
        }
        "none" => {}
        _ => panic!("strata|arrow|both|skip|none"),
    }
}

/// Microseconds per decode over `n` decodes.
fn round(which: &str, bytes: &[u8], n: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        decode(which, bytes);
    }
    start.elapsed().as_secs_f64() * 1e6 / n as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("strata");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let columns: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let row_groups: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let bytes = strata_benches::data::wide_footer(columns, row_groups);
    if which != "both" {
        eprintln!("{which}: {:.1} us/decode", round(which, &bytes, n));
        return;
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        ours.push(round("strata", &bytes, n));
        theirs.push(round("arrow", &bytes, n));
    }
    for v in [&mut ours, &mut theirs] {
        v.sort_by(f64::total_cmp);
    }
    let (best, median) = ((ours[0], theirs[0]), (ours[10], theirs[10]));
    eprintln!(
        "best: strata {:.1} us, arrow-rs {:.1} us, ratio {:.2}; median: strata {:.1} us, arrow-rs {:.1} us, ratio {:.2}",
        best.0,
        best.1,
        best.0 / best.1,
        median.0,
        median.1,
        median.0 / median.1
    );
}
