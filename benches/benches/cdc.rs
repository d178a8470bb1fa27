//! Content-defined chunking: the 1M-row mixed table written with
//! `set_content_defined_chunking(Some(CdcOptions::default()))` by strata
//! and by arrow-rs 60.1, and without it, taking turns; and the
//! deduplication it buys: the table with 10,000 new rows inserted in the
//! middle is written again, and the share of the second file's data page
//! bytes found byte for byte among the first's is counted, for each
//! writer, with and without chunking.
//!
//! `-- --interleaved-sides [REPS]` prints one `cdc case=write ...` line and
//! one `cdc_dedup writer=... ...` line per writer and setting for `cargo
//! xtask bench`. Without the flag the binary does nothing.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

mod common;

use std::collections::HashSet;

use arrow_array::RecordBatch;
use bytes::Bytes;

fn strata_write(batches: &[RecordBatch], cdc: bool) -> Vec<u8> {
    use strata_file::properties::{CdcOptions, WriterProperties};
    let props = WriterProperties::builder()
        .set_content_defined_chunking(cdc.then(CdcOptions::default))
        .build();
    common::strata_write(batches, props)
}

fn arrow_rs_write(batches: &[RecordBatch], cdc: bool) -> Vec<u8> {
    use parquet::file::properties::{CdcOptions, WriterProperties};
    let props = WriterProperties::builder()
        .set_content_defined_chunking(cdc.then(CdcOptions::default))
        .build();
    common::arrow_rs_write(batches, props)
}

/// The bytes of every data page of `file` (from its offset index).
fn data_pages(file: &Bytes) -> Vec<&[u8]> {
    use strata_file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(file)
        .unwrap();
    let mut pages = Vec::new();
    for g in 0..metadata.num_row_groups() {
        let index = metadata.page_index_for_row_group(g);
        for c in 0..metadata.row_group(g).num_columns() {
            for p in index.offset_index(c).unwrap().page_locations() {
                let start = p.offset as usize;
                pages.push(&file[start..start + p.compressed_page_size as usize]);
            }
        }
    }
    pages
}

fn dedup_line(writer: &str, chunking: bool, a: &Bytes, b: &Bytes) {
    let known: HashSet<&[u8]> = data_pages(a).into_iter().collect();
    let pages = data_pages(b);
    let bytes: usize = pages.iter().map(|p| p.len()).sum();
    let shared: Vec<_> = pages.iter().filter(|p| known.contains(*p)).collect();
    let shared_bytes: usize = shared.iter().map(|p| p.len()).sum();
    println!(
        "cdc_dedup writer={writer} chunking={chunking} pages={} shared_pages={} bytes={bytes} \
         shared_bytes={shared_bytes}",
        pages.len(),
        shared.len()
    );
}

fn interleaved(reps: usize) {
    let table = common::mixed_table();
    let rows: usize = table.iter().map(RecordBatch::num_rows).sum();
    // Each writer's chunked file reads back whole by the other side.
    let strata_file = Bytes::from(strata_write(&table, true));
    let arrow_rs_file = Bytes::from(arrow_rs_write(&table, true));
    let read = |file: &Bytes| -> usize {
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .build()
            .unwrap()
            .map(|b| b.unwrap().num_rows())
            .sum()
    };
    assert_eq!(read(&strata_file), rows);
    assert_eq!(read(&arrow_rs_file), rows);
    let stats = strata_benches::probe::interleaved(
        reps,
        &mut [
            &mut || assert!(!strata_write(&table, true).is_empty()),
            &mut || assert!(!arrow_rs_write(&table, true).is_empty()),
            &mut || assert!(!strata_write(&table, false).is_empty()),
            &mut || assert!(!arrow_rs_write(&table, false).is_empty()),
        ],
    );
    common::feature_line("cdc", "write", reps, &stats);

    // The same table with 10,000 new rows (another seed, new ids) in the
    // middle, in the same batches of 8,192 rows.
    let whole = common::concat(&table);
    let middle = rows / 2;
    let inserted = common::concat(&common::mixed_rows(7, rows as i64, 10_000));
    let edited = arrow_select::concat::concat_batches(
        &whole.schema(),
        &[
            whole.slice(0, middle),
            inserted,
            whole.slice(middle, rows - middle),
        ],
    )
    .unwrap();
    let edited: Vec<RecordBatch> = (0..edited.num_rows())
        .step_by(common::MIXED_BATCH)
        .map(|at| edited.slice(at, common::MIXED_BATCH.min(edited.num_rows() - at)))
        .collect();
    for chunking in [true, false] {
        let (a, b) = (
            strata_write(&table, chunking),
            strata_write(&edited, chunking),
        );
        dedup_line("strata", chunking, &Bytes::from(a), &Bytes::from(b));
        let (a, b) = (
            arrow_rs_write(&table, chunking),
            arrow_rs_write(&edited, chunking),
        );
        dedup_line("arrow-rs", chunking, &Bytes::from(a), &Bytes::from(b));
    }
}

fn main() {
    if let Some(reps) = common::reps_after("--interleaved-sides") {
        interleaved(reps);
    }
}
