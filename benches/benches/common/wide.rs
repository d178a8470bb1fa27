//! Opening a wide file and reading a few of its columns, written once
//! against arrow-rs's API and compiled against both crates (strata through
//! its facade, which has arrow-rs's module paths): the `wide_open`
//! benchmark and the `wide_probe` example share it.

use bytes::Bytes;

/// `fn $name(file, leaves, skip_stats) -> (rows, columns)`: open `file`
/// with `$krate`, read the leaf columns `leaves` to the end, and return
/// the rows read and the columns of the last batch. With `skip_stats`, the
/// statistics policies keep only the read columns' statistics.
macro_rules! open_and_read {
    ($name:ident, $krate:ident) => {
        pub fn $name(file: &Bytes, leaves: &[usize], skip_stats: bool) -> (usize, usize) {
            use $krate::arrow::ProjectionMask;
            use $krate::arrow::arrow_reader::{
                ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
            };
            use $krate::file::metadata::ParquetStatisticsPolicy as Policy;
            let mut options = ArrowReaderOptions::new();
            if skip_stats {
                options = options
                    .with_column_stats_policy(Policy::skip_except(leaves))
                    .with_encoding_stats_policy(Policy::skip_except(leaves))
                    .with_size_stats_policy(Policy::skip_except(leaves));
            }
            let builder =
                ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)
                    .unwrap();
            let mask = ProjectionMask::leaves(builder.parquet_schema(), leaves.iter().copied());
            let reader = builder.with_projection(mask).build().unwrap();
            reader.fold((0, 0), |(rows, _), batch| {
                let batch = batch.unwrap();
                (rows + batch.num_rows(), batch.num_columns())
            })
        }
    };
}

open_and_read!(strata_open, strata);
open_and_read!(arrow_open, parquet);
