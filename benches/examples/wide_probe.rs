//! Open a wide file and read a few of its columns, in a loop:
//! `wide_probe strata|arrow|arrow-skip COLUMNS ROW_GROUPS READ_COLUMNS REPS`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;

use bytes::Bytes;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("strata");
    let columns: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let row_groups: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let read: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let reps: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(20);
    let path = std::env::temp_dir().join(format!("strata_wide_{columns}_{row_groups}.parquet"));
    let file = match std::fs::read(&path) {
        Ok(b) => Bytes::from(b),
        Err(_) => {
            let f = strata_benches::data::wide_file(columns, row_groups);
            std::fs::write(&path, &f).unwrap();
            f
        }
    };
    let leaves: Vec<usize> = (0..read).map(|k| k * (columns / read)).collect();
    if which.starts_with("write-") {
        let batch = strata_benches::data::wide_batch(columns, 1000);
        let start = std::time::Instant::now();
        let mut len = 0;
        for _ in 0..reps {
            let mut out = Vec::new();
            if which == "write-strata" {
                let mut w =
                    strata_arrow::ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
                for _ in 0..row_groups {
                    w.write(&batch).unwrap();
                    w.flush().unwrap();
                }
                w.close().unwrap();
            } else {
                let mut w =
                    parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
                for _ in 0..row_groups {
                    w.write(&batch).unwrap();
                    w.flush().unwrap();
                }
                w.close().unwrap();
            }
            len = out.len();
        }
        eprintln!(
            "{which}: {:.2} ms/write ({len} bytes)",
            start.elapsed().as_secs_f64() * 1e3 / reps as f64
        );
        return;
    }
    let start = std::time::Instant::now();
    let mut rows = 0;
    for _ in 0..reps {
        rows = match which {
            "strata" | "strata-skip" => {
                use strata_arrow::arrow_reader::{
                    ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
                };
                use strata_file::metadata::ParquetStatisticsPolicy;
                let mut o = ArrowReaderOptions::new();
                if which == "strata-skip" {
                    o = o
                        .with_column_stats_policy(ParquetStatisticsPolicy::skip_except(&leaves))
                        .with_encoding_stats_policy(ParquetStatisticsPolicy::skip_except(&leaves))
                        .with_size_stats_policy(ParquetStatisticsPolicy::skip_except(&leaves));
                }
                let b =
                    ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), o).unwrap();
                let mask = strata_arrow::ProjectionMask::leaves(
                    b.parquet_schema(),
                    leaves.iter().copied(),
                );
                let r = b.with_projection(mask).build().unwrap();
                r.map(|b| b.unwrap().num_rows()).sum::<usize>()
            }
            "arrow" | "arrow-skip" => {
                use parquet::arrow::arrow_reader::{
                    ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
                };
                use parquet::file::metadata::ParquetStatisticsPolicy;
                let mut o = ArrowReaderOptions::new();
                if which == "arrow-skip" {
                    o = o
                        .with_column_stats_policy(ParquetStatisticsPolicy::skip_except(&leaves))
                        .with_encoding_stats_policy(ParquetStatisticsPolicy::skip_except(&leaves))
                        .with_size_stats_policy(ParquetStatisticsPolicy::skip_except(&leaves));
                }
                let b =
                    ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), o).unwrap();
                let mask = parquet::arrow::ProjectionMask::leaves(
                    b.parquet_schema(),
                    leaves.iter().copied(),
                );
                let r = b.with_projection(mask).build().unwrap();
                r.map(|b| b.unwrap().num_rows()).sum::<usize>()
            }
            _ => panic!("strata|arrow|arrow-skip"),
        };
        black_box(rows);
    }
    eprintln!(
        "{which}: {:.2} ms/open+read ({} bytes, {rows} rows)",
        start.elapsed().as_secs_f64() * 1e3 / reps as f64,
        file.len()
    );
}
