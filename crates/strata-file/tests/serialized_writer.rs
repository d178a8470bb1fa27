//! arrow-rs's writer without Arrow (`SerializedFileWriter` and its row
//! group and column writers): files written column by column from values
//! and levels are read back by arrow-rs (the oracle) with the same
//! values, nulls and lists; misuse fails with an error, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use bytes::Bytes;
use strata_file::FileError;
use strata_file::data_type::{
    BoolType, ByteArray, ByteArrayType, DoubleType, FixedLenByteArray, FixedLenByteArrayType,
    Int32Type, Int64Type, Int96, Int96Type,
};
use strata_file::properties::WriterProperties;
use strata_file::writer::{ColumnWriter, SerializedFileWriter};
use strata_format::SchemaDescriptor;
use strata_format::metadata::{
    ConvertedType, FieldRepetitionType as Rep, LogicalType, SchemaElement, Type,
};

fn leaf(name: &str, ty: Type, rep: Rep) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        physical_type: Some(ty),
        repetition_type: Some(rep),
        ..Default::default()
    }
}

/// Every physical type, required and optional, and a list of strings.
fn schema() -> Arc<SchemaDescriptor> {
    let mut name = leaf("name", Type::ByteArray, Rep::Optional);
    name.logical_type = Some(LogicalType::String);
    let mut fixed = leaf("fixed", Type::FixedLenByteArray, Rep::Required);
    fixed.type_length = Some(3);
    let mut tag = leaf("element", Type::ByteArray, Rep::Optional);
    tag.logical_type = Some(LogicalType::String);
    Arc::new(
        SchemaDescriptor::from_elements(&[
            SchemaElement {
                name: "schema".into(),
                num_children: Some(9),
                ..Default::default()
            },
            leaf("flag", Type::Boolean, Rep::Required),
            leaf("id", Type::Int32, Rep::Required),
            leaf("big", Type::Int64, Rep::Optional),
            leaf("legacy", Type::Int96, Rep::Required),
            leaf("ratio", Type::Float, Rep::Required),
            leaf("score", Type::Double, Rep::Optional),
            name,
            fixed,
            SchemaElement {
                name: "tags".into(),
                repetition_type: Some(Rep::Optional),
                converted_type: Some(ConvertedType::List),
                logical_type: Some(LogicalType::List),
                num_children: Some(1),
                ..Default::default()
            },
            SchemaElement {
                name: "list".into(),
                repetition_type: Some(Rep::Repeated),
                num_children: Some(1),
                ..Default::default()
            },
            tag,
        ])
        .unwrap(),
    )
}

/// Three rows, two row groups of the same values.
fn write_file(props: WriterProperties) -> Bytes {
    let mut out = Vec::new();
    let mut writer =
        SerializedFileWriter::new(&mut out, schema().root_schema_ptr(), Arc::new(props)).unwrap();
    for _ in 0..2 {
        let mut row_group = writer.next_row_group().unwrap();
        let mut column = 0;
        while let Some(mut col) = row_group.next_column().unwrap() {
            match column {
                0 => {
                    col.typed::<BoolType>()
                        .write_batch(&[true, false, true], None, None)
                        .unwrap();
                }
                1 => {
                    col.typed::<Int32Type>()
                        .write_batch(&[1, 2, 3], None, None)
                        .unwrap();
                }
                2 => {
                    col.typed::<Int64Type>()
                        .write_batch(&[-7, 1 << 40], Some(&[1, 0, 1]), None)
                        .unwrap();
                }
                3 => {
                    // Nanoseconds of the day (low word first), then the Julian day:
                    // 1970-01-02 00:00:01, 1970-01-01, 1971-01-01.
                    let v = [
                        Int96([1_000_000_000, 0, 2_440_589]),
                        Int96([0, 0, 2_440_588]),
                        Int96([0, 0, 2_440_953]),
                    ];
                    col.typed::<Int96Type>()
                        .write_batch(&v, None, None)
                        .unwrap();
                }
                4 => {
                    // Through the untyped enum, as arrow-rs users match it.
                    match col.untyped() {
                        ColumnWriter::FloatColumnWriter(w) => {
                            w.write_batch(&[0.5, -1.0, 2.25], None, None).unwrap();
                        }
                        other => panic!("float column got {other:?}"),
                    }
                }
                5 => {
                    col.typed::<DoubleType>()
                        .write_batch(&[], Some(&[0, 0, 0]), None)
                        .unwrap();
                }
                6 => {
                    let v = [ByteArray::from("ann"), ByteArray::from("cy")];
                    col.typed::<ByteArrayType>()
                        .write_batch(&v, Some(&[1, 1, 0]), None)
                        .unwrap();
                }
                7 => {
                    let v: Vec<FixedLenByteArray> = [b"abc", b"def", b"ghi"]
                        .iter()
                        .map(|b| FixedLenByteArray::from(b.to_vec()))
                        .collect();
                    col.typed::<FixedLenByteArrayType>()
                        .write_batch(&v, None, None)
                        .unwrap();
                }
                8 => {
                    // [x, null], null, []
                    let v = [ByteArray::from("x")];
                    col.typed::<ByteArrayType>()
                        .write_batch(&v, Some(&[3, 2, 0, 1]), Some(&[0, 1, 0, 0]))
                        .unwrap();
                }
                _ => unreachable!(),
            }
            col.close().unwrap();
            column += 1;
        }
        assert_eq!(column, 9);
        let rg = row_group.close().unwrap();
        assert_eq!(rg.num_rows(), 3);
        assert_eq!(rg.num_columns(), 9);
    }
    assert_eq!(writer.flushed_row_groups().len(), 2);
    let metadata = writer.close().unwrap();
    assert_eq!(metadata.file_metadata().num_rows(), 6);
    assert_eq!(metadata.num_row_groups(), 2);
    Bytes::from(out)
}

/// arrow-rs's rows of `file`, as text.
fn rows_by_arrow_rs(file: Bytes) -> Vec<String> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(file).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| row.unwrap().to_string())
        .collect()
}

#[test]
fn arrow_rs_reads_what_the_serialized_writer_wrote() {
    let expected = [
        "{flag: true, id: 1, big: -7, legacy: 1970-01-02 00:00:01.000 +00:00, ratio: 0.5, score: null, name: \"ann\", fixed: [97, 98, 99], tags: [\"x\", null]}",
        "{flag: false, id: 2, big: null, legacy: 1970-01-01 00:00:00.000 +00:00, ratio: -1E0, score: null, name: \"cy\", fixed: [100, 101, 102], tags: null}",
        "{flag: true, id: 3, big: 1099511627776, legacy: 1971-01-01 00:00:00.000 +00:00, ratio: 2.25, score: null, name: null, fixed: [103, 104, 105], tags: []}",
    ];
    for props in [
        WriterProperties::default(),
        WriterProperties::builder()
            .set_dictionary_enabled(false)
            .set_writer_version(strata_file::properties::WriterVersion::PARQUET_2_0)
            .build(),
    ] {
        let rows = rows_by_arrow_rs(write_file(props));
        assert_eq!(rows.len(), 6);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row, expected[i % 3], "row {i}");
        }
    }
}

fn writer_with_defaults(out: &mut Vec<u8>) -> SerializedFileWriter<&mut Vec<u8>> {
    SerializedFileWriter::new(
        out,
        schema().root_schema_ptr(),
        Arc::new(WriterProperties::default()),
    )
    .unwrap()
}

#[test]
fn a_typed_writer_of_the_wrong_type_refuses_and_closing_fails() {
    let mut out = Vec::new();
    let mut writer = writer_with_defaults(&mut out);
    let mut row_group = writer.next_row_group().unwrap();
    let mut col = row_group.next_column().unwrap().unwrap();
    // Column 0 is BOOLEAN.
    let err = col
        .typed::<Int32Type>()
        .write_batch(&[1, 2, 3], None, None)
        .unwrap_err();
    assert!(
        matches!(err, FileError::InvalidArgument(ref m) if m.contains("flag")),
        "{err}"
    );
    // Asking for the right type afterwards does not bring the column back:
    // it was replaced, and the chunk fails to close.
    assert!(
        col.typed::<BoolType>()
            .write_batch(&[true], None, None)
            .is_err()
    );
    let err = col.close().unwrap_err();
    assert!(matches!(err, FileError::InvalidArgument(_)), "{err}");
    // The row group cannot close without that column.
    assert!(row_group.close().is_err());
}

#[test]
fn a_dropped_column_writer_appends_nothing() {
    let mut out = Vec::new();
    let mut writer = writer_with_defaults(&mut out);
    let mut row_group = writer.next_row_group().unwrap();
    let mut col = row_group.next_column().unwrap().unwrap();
    col.typed::<BoolType>()
        .write_batch(&[true], None, None)
        .unwrap();
    drop(col);
    // Column 0 again: the dropped writer's values went nowhere.
    let mut col = row_group.next_column().unwrap().unwrap();
    assert!(matches!(col.untyped(), ColumnWriter::BoolColumnWriter(_)));
    assert_eq!(col.untyped().rows_written(), 0);
    col.close().unwrap();
    let col = row_group.next_column().unwrap().unwrap();
    let mut col = col;
    assert_eq!(col.untyped().column_index(), 1);
}

#[test]
fn fixed_len_values_of_the_wrong_width_are_rejected() {
    let descr = schema().column(7);
    let mut w = strata_file::writer::ColumnChunkWriter::<FixedLenByteArrayType>::new(
        descr,
        7,
        Arc::new(WriterProperties::default()),
    )
    .unwrap();
    let err = w
        .write_batch(&[FixedLenByteArray::from(vec![1u8, 2])], None, None)
        .unwrap_err();
    assert!(matches!(err, FileError::InvalidArgument(_)), "{err}");
    assert_eq!(w.rows_written(), 0);
}
