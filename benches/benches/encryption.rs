//! Encryption overhead: the 1M-row mixed table written and read encrypted
//! (AES_GCM_V1, every column under the footer key, encrypted footer) by
//! strata and by arrow-rs 60.1 (its `encryption` feature), and the same
//! without encryption, taking turns. Both read the file arrow-rs wrote
//! (encrypted or not); both write with default properties.
//!
//! `-- --interleaved-sides [REPS]` prints one `encryption case=...` line
//! per case (write, read) for `cargo xtask bench`. Without the flag the
//! binary does nothing.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

mod common;

use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;

const FOOTER_KEY: &[u8] = b"0123456789012345";

fn strata_write(batches: &[RecordBatch], encrypted: bool) -> Vec<u8> {
    use strata_file::encryption::FileEncryptionProperties;
    let mut props = strata_file::properties::WriterProperties::builder();
    if encrypted {
        props = props.with_file_encryption_properties(
            FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
                .build()
                .unwrap(),
        );
    }
    common::strata_write(batches, props.build())
}

fn arrow_rs_write(batches: &[RecordBatch], encrypted: bool) -> Vec<u8> {
    use parquet::encryption::encrypt::FileEncryptionProperties;
    let mut props = parquet::file::properties::WriterProperties::builder();
    if encrypted {
        props = props.with_file_encryption_properties(
            FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
                .build()
                .unwrap(),
        );
    }
    common::arrow_rs_write(batches, props.build())
}

/// Rows read by strata (decrypting when `encrypted`).
fn strata_read(file: &Bytes, encrypted: bool) -> usize {
    use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use strata_arrow::encryption::decrypt::FileDecryptionProperties;
    let mut options = ArrowReaderOptions::new();
    if encrypted {
        options = options.with_file_decryption_properties(
            FileDecryptionProperties::builder(FOOTER_KEY.to_vec())
                .build()
                .unwrap(),
        );
    }
    ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| b.unwrap().num_rows())
        .sum()
}

/// Rows read by arrow-rs (decrypting when `encrypted`).
fn arrow_rs_read(file: &Bytes, encrypted: bool) -> usize {
    use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use parquet::encryption::decrypt::FileDecryptionProperties;
    let mut options = ArrowReaderOptions::new();
    if encrypted {
        options = options.with_file_decryption_properties(
            FileDecryptionProperties::builder(FOOTER_KEY.to_vec())
                .build()
                .unwrap(),
        );
    }
    ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| b.unwrap().num_rows())
        .sum()
}

fn interleaved(reps: usize) {
    let table = common::mixed_table();
    let rows: usize = table.iter().map(RecordBatch::num_rows).sum();
    let encrypted = Bytes::from(arrow_rs_write(&table, true));
    let plain = Bytes::from(arrow_rs_write(&table, false));
    // Each side reads the other's encrypted file too, before timing.
    let strata_file = Bytes::from(strata_write(&table, true));
    assert_eq!(arrow_rs_read(&strata_file, true), rows);
    assert_eq!(strata_read(&encrypted, true), rows);
    let stats = strata_benches::probe::interleaved(
        reps,
        &mut [
            &mut || assert!(!strata_write(&table, true).is_empty()),
            &mut || assert!(!arrow_rs_write(&table, true).is_empty()),
            &mut || assert!(!strata_write(&table, false).is_empty()),
            &mut || assert!(!arrow_rs_write(&table, false).is_empty()),
        ],
    );
    common::feature_line("encryption", "write", reps, &stats);
    let stats = strata_benches::probe::interleaved(
        reps,
        &mut [
            &mut || assert_eq!(strata_read(&encrypted, true), rows),
            &mut || assert_eq!(arrow_rs_read(&encrypted, true), rows),
            &mut || assert_eq!(strata_read(&plain, false), rows),
            &mut || assert_eq!(arrow_rs_read(&plain, false), rows),
        ],
    );
    common::feature_line("encryption", "read", reps, &stats);
    let _ = Arc::new(());
}

fn main() {
    if let Some(reps) = common::reps_after("--interleaved-sides") {
        interleaved(reps);
    }
}
