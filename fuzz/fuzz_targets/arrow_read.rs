//! The full Arrow read of arbitrary bytes: open, build and iterate every
//! batch. Errors are fine; panics, hangs and runaway allocations are not.
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fuzz_target!(|data: &[u8]| {
    let Ok(builder) = ParquetRecordBatchReaderBuilder::try_new(Bytes::copy_from_slice(data)) else {
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
