//! Write-then-read of arbitrary Arrow data: a small batch of nullable
//! Int32, Int64, Utf8, Boolean and List<Int32> columns, written with
//! arbitrary writer properties (dictionary on or off, page format v1 or v2,
//! tiny pages and row groups, a codec), read back, and compared value by
//! value with the input.
#![no_main]

use std::sync::Arc;

use arbitrary::Arbitrary;
use arrow_array::builder::{Int32Builder, ListBuilder};
use arrow_array::{
    Array, ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray,
};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use strata::arrow::ArrowWriter;
use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata::basic::{Compression, Encoding};
use strata::file::properties::{WriterProperties, WriterVersion};
use strata::schema::types::ColumnPath;

#[derive(Arbitrary, Debug)]
struct Row {
    int32: Option<i32>,
    int64: Option<i64>,
    utf8: Option<String>,
    boolean: Option<bool>,
    list: Option<Vec<Option<i32>>>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rows: Vec<Row>,
    dictionary: bool,
    v2: bool,
    delta: bool,
    codec: u8,
    page_bytes: u16,
    page_rows: u8,
    row_group_rows: u8,
    /// Rows per `write` call (the batch is written in slices).
    write_rows: u8,
    read_batch: u8,
}

fn batch(rows: &[Row]) -> RecordBatch {
    let int32: Int32Array = rows.iter().map(|r| r.int32).collect();
    let int64: Int64Array = rows.iter().map(|r| r.int64).collect();
    let utf8: StringArray = rows.iter().map(|r| r.utf8.as_deref()).collect();
    let boolean: BooleanArray = rows.iter().map(|r| r.boolean).collect();
    let mut list = ListBuilder::new(Int32Builder::new());
    for r in rows {
        match &r.list {
            None => list.append_null(),
            Some(items) => {
                for v in items {
                    list.values().append_option(*v);
                }
                list.append(true);
            }
        }
    }
    let list = list.finish();
    let schema = Schema::new(vec![
        Field::new("int32", DataType::Int32, true),
        Field::new("int64", DataType::Int64, true),
        Field::new("utf8", DataType::Utf8, true),
        Field::new("boolean", DataType::Boolean, true),
        Field::new("list", list.data_type().clone(), true),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(int32),
        Arc::new(int64),
        Arc::new(utf8),
        Arc::new(boolean),
        Arc::new(list),
    ];
    match RecordBatch::try_new(Arc::new(schema), columns) {
        Ok(b) => b,
        Err(e) => panic!("building the input batch: {e}"),
    }
}

fn properties(input: &Input) -> WriterProperties {
    let compression = match input.codec % 4 {
        0 => Compression::UNCOMPRESSED,
        1 => Compression::SNAPPY,
        2 => Compression::LZ4_RAW,
        _ => Compression::ZSTD(Default::default()),
    };
    let mut b = WriterProperties::builder()
        .set_dictionary_enabled(input.dictionary)
        .set_writer_version(if input.v2 {
            WriterVersion::PARQUET_2_0
        } else {
            WriterVersion::PARQUET_1_0
        })
        .set_compression(compression)
        .set_data_page_size_limit(1 + usize::from(input.page_bytes % 4096))
        .set_data_page_row_count_limit(1 + usize::from(input.page_rows))
        .set_max_row_group_row_count(Some(1 + usize::from(input.row_group_rows)));
    if input.delta && !input.dictionary {
        for name in ["int32", "int64"] {
            b = b.set_column_encoding(
                ColumnPath::from(vec![name.to_string()]),
                Encoding::DELTA_BINARY_PACKED,
            );
        }
        b = b.set_column_encoding(
            ColumnPath::from(vec!["utf8".to_string()]),
            Encoding::DELTA_BYTE_ARRAY,
        );
    }
    b.build()
}

fuzz_target!(|input: Input| {
    if input.rows.len() > 512 {
        return;
    }
    let batch = batch(&input.rows);
    let mut writer =
        match ArrowWriter::try_new(Vec::new(), batch.schema(), Some(properties(&input))) {
            Ok(w) => w,
            Err(e) => panic!("writer: {e}"),
        };
    let step = 1 + usize::from(input.write_rows);
    let mut at = 0;
    while at < batch.num_rows() {
        let len = step.min(batch.num_rows() - at);
        if let Err(e) = writer.write(&batch.slice(at, len)) {
            panic!("write: {e}");
        }
        at += len;
    }
    let file = match writer.into_inner() {
        Ok(f) => f,
        Err(e) => panic!("close: {e}"),
    };
    let reader = match ParquetRecordBatchReaderBuilder::try_new(Bytes::from(file)) {
        Ok(b) => b.with_batch_size(1 + usize::from(input.read_batch)).build(),
        Err(e) => panic!("open: {e}"),
    };
    let reader = match reader {
        Ok(r) => r,
        Err(e) => panic!("build: {e}"),
    };
    let mut batches = Vec::new();
    for b in reader {
        match b {
            Ok(b) => batches.push(b),
            Err(e) => panic!("read: {e}"),
        }
    }
    let read = match arrow_select::concat::concat_batches(&batch.schema(), &batches) {
        Ok(b) => b,
        Err(e) => panic!("concat: {e}"),
    };
    assert_eq!(read.num_rows(), batch.num_rows());
    for (i, (got, want)) in read.columns().iter().zip(batch.columns()).enumerate() {
        assert_eq!(got.to_data(), want.to_data(), "column {i}");
    }
});
