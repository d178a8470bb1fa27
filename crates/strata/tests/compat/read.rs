// Programs about reading: projections (roots, leaves, nested), batch
// sizes, limit and offset, row groups, row selections, supplied schemas and
// skipping the embedded Arrow schema. Each writes its input with `pq` first.
// Included into a module that has `pq` in scope.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::types::Int32Type;
use arrow_array::{
    Array, ArrayRef, BinaryArray, DictionaryArray, FixedSizeBinaryArray, Int8Array, Int32Array,
    Int64Array, LargeStringArray, RecordBatch, RecordBatchReader, StringArray, StructArray,
    TimestampMicrosecondArray, UInt16Array,
};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};

use pq::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder, RowSelection,
    RowSelector,
};
use pq::arrow::{ArrowWriter, ProjectionMask};
use pq::file::properties::WriterProperties;

use crate::data::{people, people_from};
use crate::summary::{fmt_batches, fmt_counts, fmt_digest, fmt_schema};
use super::common::to_parquet;

fn collect(reader: ParquetRecordBatchReader) -> Vec<RecordBatch> {
    reader.collect::<Result<Vec<_>, _>>().unwrap()
}

/// A person with a nested address, and an id.
fn nested_people() -> RecordBatch {
    let address = Fields::from(vec![
        Field::new("city", DataType::Utf8, true),
        Field::new("zip", DataType::Int32, true),
    ]);
    let addresses = StructArray::new(
        address.clone(),
        vec![
            Arc::new(StringArray::from(vec![
                Some("Oslo"),
                None,
                Some("Quito"),
                Some("Lima"),
            ])) as ArrayRef,
            Arc::new(Int32Array::from(vec![
                Some(150),
                Some(0),
                None,
                Some(15001),
            ])),
        ],
        Some(vec![true, true, true, false].into()),
    );
    let person_fields = Fields::from(vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("address", DataType::Struct(address), true),
    ]);
    let person = StructArray::new(
        person_fields,
        vec![
            Arc::new(StringArray::from(vec!["ana", "bo", "cy", "di"])) as ArrayRef,
            Arc::new(addresses),
        ],
        None,
    );
    RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from(vec![10, 20, 30, 40])) as ArrayRef,
        ),
        ("person", Arc::new(person) as ArrayRef),
    ])
    .unwrap()
}

/// Whole top-level columns by index, and what the mask says per leaf.
pub fn projection_by_roots(_dir: &Path) -> String {
    let file = to_parquet(&people(60), 25);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0, 2, 3]);
    let included: Vec<bool> = (0..4).map(|i| mask.leaf_included(i)).collect();
    let all = ProjectionMask::all().leaf_included(3);
    let batches = collect(builder.with_projection(mask).build().unwrap());
    format!(
        "included: {included:?}, all: {all}\n{}",
        fmt_batches(&batches)
    )
}

/// Leaves inside nested structs: the structs keep only the chosen children.
pub fn projection_leaves_nested_struct(_dir: &Path) -> String {
    let file = to_parquet(&nested_people(), 1024);
    let mut out = String::new();
    for leaves in [vec![0, 2], vec![1, 3], vec![3], vec![0, 1, 2, 3]] {
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let mask = ProjectionMask::leaves(builder.parquet_schema(), leaves.clone());
        let batches = collect(builder.with_projection(mask).build().unwrap());
        out.push_str(&format!("leaves {leaves:?}\n{}", fmt_batches(&batches)));
    }
    out
}

/// A list, a map and a struct; projected by roots and by leaves.
pub fn projection_lists_and_maps(_dir: &Path) -> String {
    let mut tags = ListBuilder::new(StringBuilder::new());
    let mut attrs = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    for i in 0..12 {
        for t in 0..(i % 4) {
            tags.values().append_value(format!("t{}", i + t));
        }
        tags.append(i % 5 != 4);
        for k in 0..(i % 3) {
            attrs.keys().append_value(format!("k{k}"));
            attrs.values().append_option((k != 1).then_some(i * 10 + k));
        }
        attrs.append(i % 6 != 5).unwrap();
    }
    let point = StructArray::from(vec![
        (
            Arc::new(Field::new("x", DataType::Int32, false)),
            Arc::new(Int32Array::from_iter_values(0..12)) as ArrayRef,
        ),
        (
            Arc::new(Field::new("y", DataType::Int32, false)),
            Arc::new(Int32Array::from_iter_values((0..12).map(|i| -i))) as ArrayRef,
        ),
    ]);
    let batch = RecordBatch::try_from_iter([
        ("tags", Arc::new(tags.finish()) as ArrayRef),
        ("attrs", Arc::new(attrs.finish()) as ArrayRef),
        ("point", Arc::new(point) as ArrayRef),
        (
            "n",
            Arc::new(Int64Array::from_iter_values(0..12)) as ArrayRef,
        ),
    ])
    .unwrap();
    let file = to_parquet(&batch, 5);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let leaves = builder.parquet_schema().num_columns();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0, 1]);
    let mut out = format!(
        "leaf columns: {leaves}\nroots [0, 1]\n{}",
        fmt_batches(&collect(builder.with_projection(mask).build().unwrap()))
    );
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    // Leaves: tags.element (0), attrs key (1), attrs value (2), point.x (3), point.y (4), n (5).
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [4, 5]);
    out.push_str(&format!(
        "leaves [4, 5]\n{}",
        fmt_batches(&collect(builder.with_projection(mask).build().unwrap()))
    ));
    out
}

/// No columns at all: batches still count the rows.
pub fn projection_none_counts_rows(_dir: &Path) -> String {
    let file = to_parquet(&people(250), 100);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let mask = ProjectionMask::none(builder.parquet_schema().num_columns());
    let reader = builder
        .with_projection(mask)
        .with_batch_size(64)
        .build()
        .unwrap();
    let columns = reader.schema().fields().len();
    let batches = collect(reader);
    format!("columns: {columns}\n{}", fmt_counts(&batches))
}

/// Batch sizes smaller than, across and larger than the row groups.
pub fn batch_size_across_row_groups(_dir: &Path) -> String {
    let file = to_parquet(&people(30), 10);
    let mut out = String::new();
    for batch_size in [1, 4, 10, 25, 1000] {
        let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_batch_size(batch_size)
            .build()
            .unwrap();
        let batches = collect(reader);
        out.push_str(&format!(
            "batch size {batch_size}: {}",
            fmt_counts(&batches)
        ));
        out.push_str(&format!("  {}\n", fmt_digest(&batches)));
    }
    out
}

/// `with_offset` and `with_limit`, alone and together, across row groups.
pub fn limit_and_offset(_dir: &Path) -> String {
    let file = to_parquet(&people(100), 25);
    let mut out = String::new();
    for (offset, limit) in [
        (Some(10), Some(30)),
        (None, Some(7)),
        (Some(90), Some(30)),
        (Some(60), None),
        (Some(100), None),
    ] {
        let mut builder = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_batch_size(16);
        if let Some(offset) = offset {
            builder = builder.with_offset(offset);
        }
        if let Some(limit) = limit {
            builder = builder.with_limit(limit);
        }
        let batches = collect(builder.build().unwrap());
        let ids: Vec<i64> = batches
            .iter()
            .flat_map(|b| {
                b.column(0)
                    .as_any()
                    .downcast_ref::<Int64Array>()
                    .unwrap()
                    .values()
                    .to_vec()
            })
            .collect();
        let span = (ids.first().copied(), ids.last().copied());
        out.push_str(&format!(
            "offset {offset:?} limit {limit:?}: ids {span:?}\n{}",
            fmt_counts(&batches)
        ));
    }
    out
}

/// A selection built from selectors (adjacent ones merge, empty ones go).
pub fn row_selection_selectors(_dir: &Path) -> String {
    let file = to_parquet(&people(40), 16);
    let selection = RowSelection::from(vec![
        RowSelector::skip(3),
        RowSelector::select(4),
        RowSelector::skip(10),
        RowSelector::skip(0),
        RowSelector::select(2),
        RowSelector::select(3),
        RowSelector::skip(12),
        RowSelector::select(6),
    ]);
    let parts: Vec<(bool, usize)> = selection.iter().map(|s| (s.skip, s.row_count)).collect();
    let counts = (
        selection.row_count(),
        selection.skipped_row_count(),
        selection.selects_any(),
    );
    let back: Vec<RowSelector> = selection.clone().into();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_batch_size(3)
        .with_row_selection(selection)
        .build()
        .unwrap();
    format!(
        "selectors: {parts:?}\n(selected, skipped, any): {counts:?}\nback: {}\n{}",
        back.len(),
        fmt_batches(&collect(reader))
    )
}

/// A selection from row ranges, over a subset of the row groups.
pub fn row_selection_ranges_with_row_groups(_dir: &Path) -> String {
    let file = to_parquet(&people(45), 15);
    // Row groups 2 and 1 are read (in that order): 30 rows the selection indexes.
    let selection =
        RowSelection::from_consecutive_ranges([2..5, 5..8, 14..16, 29..30].into_iter(), 30);
    let parts: Vec<(bool, usize)> = selection.iter().map(|s| (s.skip, s.row_count)).collect();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_row_groups(vec![2, 1])
        .with_row_selection(selection)
        .build()
        .unwrap();
    let none = RowSelection::from(vec![RowSelector::skip(45)]);
    let any = none.selects_any();
    let empty = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_row_selection(none)
        .build()
        .unwrap();
    format!(
        "selectors: {parts:?}\n{}skip-all selects any: {any}\n{}",
        fmt_batches(&collect(reader)),
        fmt_counts(&collect(empty))
    )
}

/// Selection, offset, limit, projection and batch size together, from a file.
pub fn selection_offset_limit_projection(dir: &Path) -> String {
    let path = dir.join("combined.parquet");
    let batch = people(200);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(64))
        .build();
    let mut writer =
        ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();

    let selection: RowSelection = (0..20)
        .map(|i| {
            if i % 2 == 0 {
                RowSelector::select(7)
            } else {
                RowSelector::skip(3)
            }
        })
        .collect();
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [1, 0]);
    let reader = builder
        .with_projection(mask)
        .with_row_selection(selection)
        .with_offset(5)
        .with_limit(33)
        .with_batch_size(10)
        .build()
        .unwrap();
    fmt_batches(&collect(reader))
}

/// Strings, binaries and lists written plainly, read as their large forms.
pub fn supplied_schema_large_types(_dir: &Path) -> String {
    let mut list = ListBuilder::new(Int32Builder::new());
    for i in 0..6 {
        list.append_value((0..i % 3).map(|v| Some(v * i)));
    }
    let batch = RecordBatch::try_from_iter([
        (
            "s",
            Arc::new(StringArray::from(vec![
                Some("a"),
                None,
                Some("ccc"),
                Some(""),
                Some("é"),
                Some("f"),
            ])) as ArrayRef,
        ),
        (
            "b",
            Arc::new(BinaryArray::from_iter([
                Some(vec![0u8, 1]),
                None,
                Some(vec![]),
                Some(b"zz".to_vec()),
                None,
                Some(vec![b'q']),
            ])) as ArrayRef,
        ),
        ("l", Arc::new(list.finish()) as ArrayRef),
    ])
    .unwrap();
    let file = to_parquet(&batch, 4);
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    let wanted: SchemaRef = Arc::new(Schema::new(vec![
        Field::new("s", DataType::LargeUtf8, true),
        Field::new("b", DataType::LargeBinary, true),
        Field::new("l", DataType::LargeList(item), false),
    ]));
    let options = ArrowReaderOptions::new().with_schema(wanted);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).unwrap();
    fmt_batches(&collect(builder.build().unwrap()))
}

/// Strings and binaries read as views.
pub fn supplied_schema_views(_dir: &Path) -> String {
    let n = 50;
    let s = StringArray::from_iter(
        (0..n).map(|i| (i % 6 != 1).then(|| "long string value ".repeat(i % 3) + &i.to_string())),
    );
    let b = BinaryArray::from_iter((0..n).map(|i| (i % 4 != 2).then(|| vec![i as u8; i % 20])));
    let batch = RecordBatch::try_from_iter([
        ("s", Arc::new(s) as ArrayRef),
        ("b", Arc::new(b) as ArrayRef),
    ])
    .unwrap();
    let file = to_parquet(&batch, 20);
    let wanted = Arc::new(Schema::new(vec![
        Field::new("s", DataType::Utf8View, true),
        Field::new("b", DataType::BinaryView, true),
    ]));
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(
        file,
        ArrowReaderOptions::new().with_schema(wanted),
    )
    .unwrap();
    let reader = builder.with_batch_size(15).build().unwrap();
    fmt_batches(&collect(reader))
}

/// Strings read as dictionaries, and a wrong supplied schema rejected.
pub fn supplied_schema_dictionary(_dir: &Path) -> String {
    let colors = StringArray::from_iter(
        (0..40).map(|i| (i % 9 != 8).then_some(["red", "green", "blue"][i % 3])),
    );
    let batch = RecordBatch::try_from_iter([
        ("color", Arc::new(colors) as ArrayRef),
        (
            "n",
            Arc::new(Int32Array::from_iter_values(0..40)) as ArrayRef,
        ),
    ])
    .unwrap();
    let file = to_parquet(&batch, 16);
    let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    let wanted = Arc::new(Schema::new(vec![
        Field::new("color", dict, true),
        Field::new("n", DataType::Int32, false),
    ]));
    let options = ArrowReaderOptions::new().with_schema(wanted);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
    let out = fmt_batches(&collect(builder.build().unwrap()));
    let wrong = Arc::new(Schema::new(vec![
        Field::new("color", DataType::Utf8, true),
        Field::new("n", DataType::Int32, true),
    ]));
    let rejected = ParquetRecordBatchReaderBuilder::try_new_with_options(
        file,
        ArrowReaderOptions::new().with_schema(wrong),
    )
    .is_err();
    format!("{out}wrong nullability rejected: {rejected}\n")
}

/// Types that only the embedded Arrow schema restores, read without it.
pub fn skip_arrow_metadata_types(_dir: &Path) -> String {
    let keys = Int32Array::from(vec![Some(0), Some(1), None, Some(0)]);
    let dict =
        DictionaryArray::<Int32Type>::try_new(keys, Arc::new(StringArray::from(vec!["on", "off"])))
            .unwrap();
    let ts =
        TimestampMicrosecondArray::from(vec![Some(0), Some(1_600_000_000_000_000), None, Some(-1)])
            .with_timezone("+05:00");
    let batch = RecordBatch::try_from_iter([
        (
            "large",
            Arc::new(LargeStringArray::from(vec![
                Some("x"),
                None,
                Some("yy"),
                Some(""),
            ])) as ArrayRef,
        ),
        ("dict", Arc::new(dict) as ArrayRef),
        (
            "small",
            Arc::new(Int8Array::from(vec![-128, 0, 1, 127])) as ArrayRef,
        ),
        (
            "unsigned",
            Arc::new(UInt16Array::from(vec![0, 1, 65535, 300])) as ArrayRef,
        ),
        ("ts", Arc::new(ts) as ArrayRef),
        (
            "fixed",
            Arc::new(
                FixedSizeBinaryArray::try_from_iter(
                    [b"abcd", b"efgh", b"ijkl", b"mnop"].into_iter(),
                )
                .unwrap(),
            ) as ArrayRef,
        ),
    ])
    .unwrap();
    let file = to_parquet(&batch, 3);
    let with = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let with_schema = fmt_schema(with.schema());
    let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
    let without = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).unwrap();
    format!(
        "with arrow metadata {with_schema}without:\n{}",
        fmt_batches(&collect(without.build().unwrap()))
    )
}

/// The reader as an Arrow `RecordBatchReader`, and the builder's schemas.
pub fn reader_schema_and_trait(_dir: &Path) -> String {
    let file = to_parquet(&people_from(1000, 90), 40);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let full = fmt_schema(builder.schema());
    let leaves = builder.parquet_schema().num_columns();
    let groups = builder.metadata().num_row_groups();
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [3, 1]);
    let reader: ParquetRecordBatchReader = builder
        .with_projection(mask)
        .with_batch_size(32)
        .build()
        .unwrap();
    let boxed: Box<dyn RecordBatchReader> = Box::new(reader);
    let projected = fmt_schema(&boxed.schema());
    let mut rows = 0;
    let mut digests = Vec::new();
    for batch in boxed {
        let batch = batch.unwrap();
        rows += batch.num_rows();
        digests.push(fmt_digest(&[batch]));
    }
    format!(
        "full {full}leaves: {leaves}, row groups: {groups}\nprojected {projected}rows: {rows}\n{}\n",
        digests.join("\n")
    )
}

/// Columns found by name in the Arrow schema, read by root index.
pub fn projection_by_column_name(dir: &Path) -> String {
    let path = dir.join("named.parquet");
    let batch = people(33);
    let mut writer =
        ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
    let wanted = ["active", "name"];
    let indices: Vec<usize> = wanted
        .iter()
        .map(|n| builder.schema().index_of(n).unwrap())
        .collect();
    let mask = ProjectionMask::roots(builder.parquet_schema(), indices.clone());
    let reader = builder
        .with_projection(mask)
        .with_limit(12)
        .build()
        .unwrap();
    format!("indices: {indices:?}\n{}", fmt_batches(&collect(reader)))
}
