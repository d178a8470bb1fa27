//! The row API beyond printing whole files (`rows_corpus.rs`): projections
//! against arrow-rs's, leaf batch sizes, schemas of the wrong shape
//! (arrow-rs panics on them; strata's iterator gives an error), row
//! counts the data cannot back, and row groups out of range.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;

use std::sync::Arc;

use bytes::Bytes;
use strata::file::reader::{FileReader, SerializedFileReader};
use strata::format::metadata::{ConvertedType, FieldRepetitionType as Rep, SchemaElement, Type};
use strata::schema::types::Type as SchemaType;

/// Rows of `reader` as text, leaf columns read `batch` records at a time.
fn rows_of(reader: &dyn FileReader, batch: usize) -> Vec<String> {
    reader
        .get_row_iter(None)
        .unwrap()
        .with_batch_size(batch)
        .map(|row| row.unwrap().to_string())
        .collect()
}

/// A file of people written by arrow-rs, with a struct column.
fn people_file() -> Bytes {
    use arrow_array::{ArrayRef, BooleanArray, Int32Array, Int64Array, StringArray, StructArray};
    use arrow_schema::{DataType, Field};
    let n = 9;
    let address = StructArray::from(vec![
        (
            Arc::new(Field::new("city", DataType::Utf8, true)),
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| (i % 3 != 0).then(|| format!("city-{i}"))),
            )) as ArrayRef,
        ),
        (
            Arc::new(Field::new("zip", DataType::Int32, true)),
            Arc::new(Int32Array::from_iter(
                (0..n).map(|i| (i % 4 != 1).then_some(i * 11)),
            )),
        ),
    ]);
    let batch = arrow_array::RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..n as i64)) as ArrayRef,
        ),
        ("address", Arc::new(address) as ArrayRef),
        (
            "active",
            Arc::new(BooleanArray::from_iter(
                (0..n).map(|i| (i != 4).then_some(i % 2 == 0)),
            )),
        ),
    ])
    .unwrap();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(4))
        .build();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

/// `root` with only the children named in `keep`.
fn strata_projection(root: &SchemaType, keep: &[&str]) -> SchemaType {
    let fields = root
        .get_fields()
        .iter()
        .filter(|f| keep.contains(&f.name()))
        .cloned()
        .collect();
    SchemaType::group_type_builder(root.name())
        .with_fields(fields)
        .build()
        .unwrap()
}

/// `group` (a repeated or optional group) with only the children named
/// in `keep`.
fn strata_subgroup(group: &SchemaType, keep: &[&str]) -> SchemaType {
    let info = group.get_basic_info();
    let fields = group
        .get_fields()
        .iter()
        .filter(|f| keep.contains(&f.name()))
        .cloned()
        .collect();
    SchemaType::group_type_builder(group.name())
        .with_repetition(info.repetition())
        .with_converted_type(info.converted_type())
        .with_logical_type(info.logical_type_ref().cloned())
        .with_fields(fields)
        .build()
        .unwrap()
}

#[test]
fn projections_match_arrow_rs() {
    use parquet::file::reader::{FileReader as _, SerializedFileReader as ArrowReader};
    let file = people_file();
    let arrow = ArrowReader::new(file.clone()).unwrap();
    let strata = SerializedFileReader::new(file).unwrap();
    for keep in [
        &["id", "active"][..],
        &["address"],
        &["active", "id", "address"],
        &[],
    ] {
        let arrow_root = arrow.metadata().file_metadata().schema();
        let fields = arrow_root
            .get_fields()
            .iter()
            .filter(|f| keep.contains(&f.name()))
            .cloned()
            .collect();
        let arrow_projection = parquet::schema::types::Type::group_type_builder(arrow_root.name())
            .with_fields(fields)
            .build()
            .unwrap();
        let expected: Vec<String> = arrow
            .get_row_iter(Some(arrow_projection))
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        let projection = strata_projection(strata.metadata().schema_descr().root_schema(), keep);
        let actual: Vec<String> = strata
            .get_row_iter(Some(projection.clone()))
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(actual, expected, "{keep:?}");
        // `project` on an iterator starts over with the projection.
        let again: Vec<String> = strata
            .get_row_iter(None)
            .unwrap()
            .project(Some(projection))
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(again, expected, "{keep:?} through project");
    }
    // Part of a struct: only its chosen children.
    let root = strata.metadata().schema_descr().root_schema();
    let address = root
        .get_fields()
        .iter()
        .find(|f| f.name() == "address")
        .unwrap();
    let projection = SchemaType::group_type_builder(root.name())
        .with_fields(vec![std::sync::Arc::new(strata_subgroup(
            address,
            &["zip"],
        ))])
        .build()
        .unwrap();
    let first = strata
        .get_row_iter(Some(projection))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(first.to_string(), "{address: {zip: 0}}");
}

#[test]
fn projections_not_in_the_file_are_errors() {
    let strata = SerializedFileReader::new(people_file()).unwrap();
    let root = strata.metadata().schema_descr().root_schema();
    let renamed = strata::schema::parser::parse_message_type(&format!(
        "message {} {{ required int64 missing; }}",
        root.name()
    ))
    .unwrap();
    assert!(strata.get_row_iter(Some(renamed)).is_err());
    // `active` is optional in the file.
    let required = strata::schema::parser::parse_message_type(&format!(
        "message {} {{ {} boolean active; }}",
        root.name(),
        Rep::REQUIRED
    ))
    .unwrap();
    assert!(strata.get_row_iter(Some(required)).is_err());
    let root_renamed = SchemaType::group_type_builder("other")
        .with_fields(root.get_fields().to_vec())
        .build()
        .unwrap();
    assert!(strata.get_row_iter(Some(root_renamed)).is_err());
    // A row group's iterator cannot be projected again.
    let group = strata.get_row_group(0).unwrap();
    let iter = group.get_row_iter(None).unwrap();
    assert!(iter.project(None).is_err());
}

#[test]
fn leaf_batch_sizes_do_not_change_the_rows() {
    let mut files = vec![(
        "people".to_string(),
        SerializedFileReader::new(people_file()).unwrap(),
    )];
    for name in [
        "nested_lists.snappy.parquet",
        "nested_maps.snappy.parquet",
        "nullable.impala.parquet",
        "repeated_no_annotation.parquet",
        "old_list_structure.parquet",
        "null_list.parquet",
        "list_columns.parquet",
        "map_no_value.parquet",
        "alltypes_tiny_pages.parquet",
    ] {
        let Some(path) = corpus::corpus_file(name) else {
            continue;
        };
        let bytes = Bytes::from(std::fs::read(path).unwrap());
        files.push((name.to_string(), SerializedFileReader::new(bytes).unwrap()));
    }
    for (name, reader) in &files {
        let expected = rows_of(reader, 1024);
        assert!(!expected.is_empty(), "{name}");
        for batch in [0, 1, 2, 3, 7] {
            assert_eq!(
                rows_of(reader, batch),
                expected,
                "{name}, batches of {batch}"
            );
        }
    }
}

/// A file of `schema` (flattened elements) whose leaves are INT32 columns
/// of one record each: leaf `j` has definition levels `defs[j]` and
/// repetition levels `reps` (a value, 1, where the level is the maximum).
fn int32_file(schema: &[SchemaElement], defs: &[&[i16]], reps: &[i16]) -> Bytes {
    use strata::file::properties::WriterProperties;
    use strata::file::writer::FileWriter;
    use strata::format::SchemaDescriptor;
    let schema = Arc::new(SchemaDescriptor::from_elements(schema).unwrap());
    let max_defs: Vec<i16> = schema.columns().iter().map(|c| c.max_def_level).collect();
    let mut out = Vec::new();
    let mut writer =
        FileWriter::new(&mut out, schema, Arc::new(WriterProperties::default())).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut j = 0;
    while let Some(mut column) = group.next_column().unwrap() {
        let values: Vec<i32> = defs[j]
            .iter()
            .filter(|d| **d == max_defs[j])
            .map(|_| 1)
            .collect();
        column
            .typed::<i32>()
            .unwrap()
            .write_batch(&values, Some(defs[j]), Some(reps))
            .unwrap();
        group.append_column(column.close().unwrap()).unwrap();
        j += 1;
    }
    group.close().unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

fn group(name: &str, children: i32, rep: Option<Rep>, ct: Option<ConvertedType>) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        num_children: Some(children),
        repetition_type: rep,
        converted_type: ct,
        ..Default::default()
    }
}

fn int32(name: &str, rep: Rep) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        physical_type: Some(Type::Int32),
        repetition_type: Some(rep),
        ..Default::default()
    }
}

#[test]
fn lists_and_maps_of_the_wrong_shape_are_errors() {
    let root = |n| group("m", n, None, None);
    // What is wrong, the schema, and each leaf's definition levels.
    type Case = (&'static str, Vec<SchemaElement>, Vec<&'static [i16]>);
    let cases: Vec<Case> = vec![
        (
            "a LIST group of two repeated fields",
            vec![
                root(1),
                group("l", 2, Some(Rep::Optional), Some(ConvertedType::List)),
                int32("a", Rep::Repeated),
                int32("b", Rep::Repeated),
            ],
            vec![&[2], &[2]],
        ),
        (
            "a MAP whose key-value group has three fields",
            vec![
                root(1),
                group("m", 1, Some(Rep::Optional), Some(ConvertedType::Map)),
                group("key_value", 3, Some(Rep::Repeated), None),
                int32("k", Rep::Required),
                int32("v", Rep::Optional),
                int32("w", Rep::Optional),
            ],
            vec![&[2], &[3], &[3]],
        ),
        (
            "a MAP whose child is a leaf",
            vec![
                root(1),
                group("m", 1, Some(Rep::Optional), Some(ConvertedType::Map)),
                int32("k", Rep::Repeated),
            ],
            vec![&[2]],
        ),
        (
            "a LIST of an empty repeated group",
            vec![
                root(2),
                group("l", 1, Some(Rep::Optional), Some(ConvertedType::List)),
                group("list", 0, Some(Rep::Repeated), None),
                int32("x", Rep::Repeated),
            ],
            vec![&[1]],
        ),
    ];
    for (what, schema, defs) in cases {
        let file = int32_file(&schema, &defs, &[0]);
        let reader = SerializedFileReader::new(file.clone()).unwrap();
        let mut rows = reader.get_row_iter(None).unwrap();
        assert!(matches!(rows.next(), Some(Err(_))), "{what}");
        assert!(rows.next().is_none(), "{what}: the iterator ends");
        // arrow-rs asserts on these shapes (or refuses the schema).
        let arrow = std::panic::catch_unwind(|| {
            use parquet::file::reader::{FileReader as _, SerializedFileReader as ArrowReader};
            ArrowReader::new(file)
                .map_err(|e| e.to_string())
                .and_then(|r| {
                    r.get_row_iter(None)
                        .map_err(|e| e.to_string())
                        .map(|rows| rows.map(|r| r.map(|r| r.to_string())).collect::<Vec<_>>())
                })
        });
        assert!(arrow.is_err(), "{what}: arrow-rs 60.1 panics on it");
    }
}

#[test]
fn row_counts_past_the_data_end_with_an_error() {
    use strata::format::footer::{decode_metadata, write_footer};
    use strata::sink::ByteSink;
    let Some(path) = corpus::corpus_file("alltypes_plain.parquet") else {
        return;
    };
    let original = std::fs::read(path).unwrap();
    let len = original.len();
    let meta_len = u32::from_le_bytes(original[len - 8..len - 4].try_into().unwrap()) as usize;
    let start = len - 8 - meta_len;
    for (declared, rows) in [(100, 8), (3, 3), (-1, 0)] {
        let mut meta = decode_metadata(&original[start..len - 8]).unwrap();
        meta.row_groups[0].num_rows = declared;
        let mut sink = ByteSink::new();
        write_footer(&meta, &mut sink).unwrap();
        let mut file = original[..start].to_vec();
        file.extend_from_slice(sink.as_slice());
        let reader = SerializedFileReader::new(Bytes::from(file)).unwrap();
        let mut iter = reader.get_row_iter(None).unwrap();
        let read = iter.by_ref().take_while(Result::is_ok).count();
        assert_eq!(read, rows, "declared {declared}");
        assert!(
            iter.next().is_none(),
            "declared {declared}: the iterator ends"
        );
    }
}

#[test]
fn row_groups_out_of_range_are_errors() {
    let reader = SerializedFileReader::new(people_file()).unwrap();
    assert_eq!(reader.num_row_groups(), 3);
    assert!(reader.get_row_group(3).is_err());
    let total: usize = (0..3)
        .map(|i| {
            reader
                .get_row_group(i)
                .unwrap()
                .get_row_iter(None)
                .unwrap()
                .count()
        })
        .sum();
    assert_eq!(total, 9);
}
