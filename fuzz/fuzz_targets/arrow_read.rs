//! The full Arrow read of arbitrary bytes: open, build and iterate every
//! batch; then the row API's read of the same bytes (`SerializedFileReader`,
//! every row printed). Errors are fine; panics, hangs and runaway
//! allocations are not.
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata::file::reader::{FileReader, SerializedFileReader};

fuzz_target!(|data: &[u8]| {
    let file = Bytes::copy_from_slice(data);
    read_rows(file.clone());
    let Ok(builder) = ParquetRecordBatchReaderBuilder::try_new(file) else {
        return;
    };
    let Ok(reader) = builder.with_batch_size(1024).build() else {
        return;
    };
    for batch in reader {
        if batch.is_err() {
            break;
        }
    }
});

/// Every row of `file` through the row API, each printed.
fn read_rows(file: Bytes) {
    let Ok(reader) = SerializedFileReader::new(file) else {
        return;
    };
    let Ok(rows) = reader.get_row_iter(None) else {
        return;
    };
    for row in rows {
        match row {
            Ok(row) => drop(row.to_string()),
            Err(_) => break,
        }
    }
}
