// Programs writing without Arrow, as arrow-rs users do: a schema parsed
// from its text, `SerializedFileWriter`, a row group at a time, each
// column through `typed::<T>()` or by matching the untyped `ColumnWriter`,
// values with definition and repetition levels; then the file read back
// (rows, Arrow batches, metadata). Included into a module that has `pq`
// in scope.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;

use pq::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pq::basic::Compression;
use pq::column::writer::ColumnWriter;
use pq::data_type::{
    BoolType, ByteArray, ByteArrayType, DoubleType, FixedLenByteArray, FixedLenByteArrayType,
    Int32Type, Int64Type, Int96, Int96Type,
};
use pq::file::metadata::KeyValue;
use pq::file::properties::WriterProperties;
use pq::file::reader::{FileReader, SerializedFileReader};
use pq::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use pq::schema::parser::parse_message_type;

use super::common::all_rows;
use crate::summary::fmt_batches;

/// Every row of a file in memory, one a line, and the count.
fn rows_of(file: Bytes) -> String {
    all_rows(&SerializedFileReader::new(file).unwrap())
}

/// A writer of the message type `message` into memory, with default
/// properties.
fn writer_in_memory(message: &str) -> SerializedFileWriter<Vec<u8>> {
    let schema = Arc::new(parse_message_type(message).unwrap());
    SerializedFileWriter::new(Vec::new(), schema, Arc::new(WriterProperties::default())).unwrap()
}

/// Ids 1 to 4 into the row group's next column (an INT32 one).
fn write_ids_1_to_4(row_group: &mut SerializedRowGroupWriter<'_, Vec<u8>>) {
    let mut ids = row_group.next_column().unwrap().unwrap();
    ids.typed::<Int32Type>()
        .write_batch(&[1, 2, 3, 4], None, None)
        .unwrap();
    ids.close().unwrap();
}

/// The Arrow batches a file reads as.
fn batches_of(file: Bytes) -> String {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(|b| b.unwrap()).collect();
    fmt_batches(&batches)
}

/// Flat columns of every common type, each written with `typed::<T>()`,
/// in two row groups; `finish` gives the metadata, and the bytes in the
/// writer read back as rows and batches.
pub fn serialized_writer_flat_columns(_dir: &Path) -> String {
    let schema = Arc::new(
        parse_message_type(
            "message people {
                REQUIRED INT32 id;
                OPTIONAL INT64 visits;
                OPTIONAL BYTE_ARRAY name (UTF8);
                REQUIRED DOUBLE score;
                REQUIRED BOOLEAN active;
            }",
        )
        .unwrap(),
    );
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, props).unwrap();
    for group in 0..2 {
        let base = group * 3;
        let mut row_group = writer.next_row_group().unwrap();
        let mut column = 0;
        while let Some(mut col) = row_group.next_column().unwrap() {
            match column {
                0 => {
                    let ids = [base + 1, base + 2, base + 3];
                    col.typed::<Int32Type>().write_batch(&ids, None, None).unwrap();
                }
                1 => {
                    let visits = [10i64 * base as i64, 7];
                    col.typed::<Int64Type>()
                        .write_batch(&visits, Some(&[1, 0, 1]), None)
                        .unwrap();
                }
                2 => {
                    let names = [ByteArray::from("ann"), ByteArray::from("bo")];
                    col.typed::<ByteArrayType>()
                        .write_batch(&names, Some(&[1, 1, 0]), None)
                        .unwrap();
                }
                3 => {
                    col.typed::<DoubleType>()
                        .write_batch(&[0.5, 1.5, -2.0], None, None)
                        .unwrap();
                }
                _ => {
                    col.typed::<BoolType>()
                        .write_batch(&[true, false, group == 0], None, None)
                        .unwrap();
                }
            }
            col.close().unwrap();
            column += 1;
        }
        row_group.close().unwrap();
    }
    let metadata = writer.finish().unwrap();
    let mut out = format!(
        "row groups: {}, rows: {}\n",
        metadata.num_row_groups(),
        metadata.file_metadata().num_rows()
    );
    let bytes = Bytes::from(writer.inner().clone());
    out.push_str(&rows_of(bytes.clone()));
    out.push_str(&batches_of(bytes));
    out
}

/// The same kind of file written into a `Vec` taken back with
/// `into_inner`, then read as rows and as Arrow batches.
pub fn serialized_writer_into_inner_and_read_back(_dir: &Path) -> String {
    let mut writer = writer_in_memory(
        "message m {
                REQUIRED INT32 id;
                OPTIONAL BYTE_ARRAY tag (UTF8);
            }",
    );
    let mut row_group = writer.next_row_group().unwrap();
    write_ids_1_to_4(&mut row_group);
    let mut tags = row_group.next_column().unwrap().unwrap();
    let values = [ByteArray::from("x"), ByteArray::from("yy")];
    tags.typed::<ByteArrayType>()
        .write_batch(&values, Some(&[0, 1, 0, 1]), None)
        .unwrap();
    tags.close().unwrap();
    assert!(row_group.next_column().unwrap().is_none());
    let rg = row_group.close().unwrap();
    let mut out = format!("row group: {} rows, {} columns\n", rg.num_rows(), rg.num_columns());
    let bytes = Bytes::from(writer.into_inner().unwrap());
    out.push_str(&rows_of(bytes.clone()));
    out.push_str(&batches_of(bytes));
    out
}

/// Columns written by matching the untyped `ColumnWriter`, the way many
/// programs dispatch on the column's physical type.
pub fn serialized_writer_untyped_match(dir: &Path) -> String {
    let path = dir.join("untyped.parquet");
    let schema = Arc::new(
        parse_message_type(
            "message m {
                REQUIRED INT32 a;
                REQUIRED INT64 b;
                OPTIONAL DOUBLE c;
                REQUIRED BYTE_ARRAY d (UTF8);
            }",
        )
        .unwrap(),
    );
    let file = File::create(&path).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, schema, Arc::new(WriterProperties::default())).unwrap();
    let mut row_group = writer.next_row_group().unwrap();
    while let Some(mut col) = row_group.next_column().unwrap() {
        match col.untyped() {
            ColumnWriter::Int32ColumnWriter(w) => {
                w.write_batch(&[7, 8], None, None).unwrap();
            }
            ColumnWriter::Int64ColumnWriter(w) => {
                w.write_batch(&[-1, i64::MAX], None, None).unwrap();
            }
            ColumnWriter::DoubleColumnWriter(w) => {
                w.write_batch(&[3.25], Some(&[0, 1]), None).unwrap();
            }
            ColumnWriter::ByteArrayColumnWriter(w) => {
                let v = [ByteArray::from("first"), ByteArray::from(vec![b's', b'2'])];
                w.write_batch(&v, None, None).unwrap();
            }
            _ => panic!("unexpected column type"),
        }
        col.close().unwrap();
    }
    row_group.close().unwrap();
    writer.close().unwrap();
    let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let mut out = format!("rows: {}\n", reader.metadata().file_metadata().num_rows());
    for row in reader.get_row_iter(None).unwrap() {
        out.push_str(&format!("{}\n", row.unwrap()));
    }
    out
}

/// A list of strings (`LIST` of optional elements): values with both
/// definition and repetition levels.
pub fn serialized_writer_list_levels(_dir: &Path) -> String {
    let mut writer = writer_in_memory(
        "message m {
                REQUIRED INT32 id;
                OPTIONAL GROUP tags (LIST) {
                    REPEATED GROUP list {
                        OPTIONAL BYTE_ARRAY element (UTF8);
                    }
                }
            }",
    );
    let mut row_group = writer.next_row_group().unwrap();
    write_ids_1_to_4(&mut row_group);
    // Rows: ["a", null, "b"], null, [], ["c"].
    let mut tags = row_group.next_column().unwrap().unwrap();
    let values = [ByteArray::from("a"), ByteArray::from("b"), ByteArray::from("c")];
    let written = tags
        .typed::<ByteArrayType>()
        .write_batch(
            &values,
            Some(&[3, 2, 3, 0, 1, 3]),
            Some(&[0, 1, 1, 0, 0, 0]),
        )
        .unwrap();
    tags.close().unwrap();
    row_group.close().unwrap();
    let bytes = Bytes::from(writer.into_inner().unwrap());
    format!("written: {written}\n{}{}", rows_of(bytes.clone()), batches_of(bytes))
}

/// FIXED_LEN_BYTE_ARRAY (a decimal and raw bytes) and INT96 columns.
pub fn serialized_writer_fixed_len_and_int96(_dir: &Path) -> String {
    let mut writer = writer_in_memory(
        "message m {
                REQUIRED FIXED_LEN_BYTE_ARRAY (4) price (DECIMAL(9,2));
                OPTIONAL FIXED_LEN_BYTE_ARRAY (3) code;
                REQUIRED INT96 legacy;
            }",
    );
    let mut row_group = writer.next_row_group().unwrap();
    let mut price = row_group.next_column().unwrap().unwrap();
    let prices: Vec<FixedLenByteArray> = [12345i32, -50, 0]
        .iter()
        .map(|v| FixedLenByteArray::from(v.to_be_bytes().to_vec()))
        .collect();
    price
        .typed::<FixedLenByteArrayType>()
        .write_batch(&prices, None, None)
        .unwrap();
    price.close().unwrap();
    let mut code = row_group.next_column().unwrap().unwrap();
    let codes = [FixedLenByteArray::from(b"abc".to_vec())];
    code.typed::<FixedLenByteArrayType>()
        .write_batch(&codes, Some(&[0, 1, 0]), None)
        .unwrap();
    code.close().unwrap();
    let mut legacy = row_group.next_column().unwrap().unwrap();
    let mut values = Vec::new();
    for (nanos, day) in [(0u32, 2_440_588u32), (1_000_000, 2_440_589), (0, 2_451_545)] {
        let mut v = Int96::new();
        v.set_data(nanos, 0, day);
        values.push(v);
    }
    legacy
        .typed::<Int96Type>()
        .write_batch(&values, None, None)
        .unwrap();
    legacy.close().unwrap();
    row_group.close().unwrap();
    let bytes = Bytes::from(writer.into_inner().unwrap());
    let millis: Vec<i64> = values.iter().map(|v| v.to_millis()).collect();
    format!("millis: {millis:?}\n{}", rows_of(bytes))
}

/// Row group metadata returned by `close`, key-value metadata added to
/// the footer, and the codec each chunk records.
pub fn serialized_writer_metadata(_dir: &Path) -> String {
    let schema = Arc::new(
        parse_message_type(
            "message m {
                REQUIRED INT64 n;
                OPTIONAL BYTE_ARRAY s (UTF8);
            }",
        )
        .unwrap(),
    );
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).unwrap();
    let mut out = String::new();
    for group in 0..3i64 {
        let mut row_group = writer.next_row_group().unwrap();
        let mut n = row_group.next_column().unwrap().unwrap();
        let values: Vec<i64> = (0..5).map(|i| group * 100 + i).collect();
        n.typed::<Int64Type>().write_batch(&values, None, None).unwrap();
        n.close().unwrap();
        let mut s = row_group.next_column().unwrap().unwrap();
        s.typed::<ByteArrayType>()
            .write_batch(&[ByteArray::from("k")], Some(&[0, 0, 1, 0, 0]), None)
            .unwrap();
        s.close().unwrap();
        let rg = row_group.close().unwrap();
        out.push_str(&format!(
            "group {group}: rows {}, columns {}, n values {}, s values {}\n",
            rg.num_rows(),
            rg.num_columns(),
            rg.column(0).num_values(),
            rg.column(1).num_values()
        ));
    }
    writer.append_key_value_metadata(KeyValue::new("origin".to_string(), "compat".to_string()));
    assert_eq!(writer.flushed_row_groups().len(), 3);
    let bytes = Bytes::from(writer.into_inner().unwrap());
    let reader = SerializedFileReader::new(bytes).unwrap();
    let meta = reader.metadata();
    out.push_str(&format!("rows: {}\n", meta.file_metadata().num_rows()));
    let kv: Vec<String> = meta
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .map(|kv| format!("{}={:?}", kv.key, kv.value))
        .collect();
    out.push_str(&format!("key-value: {kv:?}\n"));
    for rg in meta.row_groups() {
        for column in rg.columns() {
            out.push_str(&format!(
                "{}: {:?}, nulls {:?}\n",
                column.column_path(),
                column.compression(),
                column.statistics().and_then(|s| s.null_count_opt())
            ));
        }
    }
    out
}
