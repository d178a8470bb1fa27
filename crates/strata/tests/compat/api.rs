// Programs using entry points beyond the reader builder and writer
// basics: the reader shortcut, writer options, column paths, filters as
// row selections, schema conversion, reusing loaded metadata. Included into
// a module that has `pq` in scope.

use std::path::Path;
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray, StructArray,
};
use arrow_schema::{DataType, Field};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::ProjectionMask;
use pq::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder, RowSelection,
};
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::{fmt_batches, fmt_counts, fmt_digest, fmt_schema};
use super::common::to_parquet;

/// The reader's one-call constructor with a batch size.
pub fn reader_try_new_shortcut(_dir: &Path) -> String {
    let file = to_parquet(&people(50), 20);
    let reader = ParquetRecordBatchReader::try_new(file, 16).unwrap();
    let batches = reader.collect::<Result<Vec<_>, _>>().unwrap();
    fmt_batches(&batches)
}

/// Writer options: properties, no embedded Arrow schema (so a dictionary
/// column reads back as plain strings).
pub fn writer_options_skip_arrow_metadata(_dir: &Path) -> String {
    use pq::arrow::arrow_writer::ArrowWriterOptions;
    let words = StringArray::from(vec![Some("a"), None, Some("b"), Some("a")]);
    let dict = arrow_cast::cast(
        &words,
        &DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
    )
    .unwrap();
    let batch = RecordBatch::try_from_iter([
        ("word", dict),
        (
            "n",
            Arc::new(Int32Array::from(vec![1, 2, 3, 4])) as ArrayRef,
        ),
    ])
    .unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(3))
        .build();
    let options = ArrowWriterOptions::new()
        .with_properties(props)
        .with_skip_arrow_metadata(true);
    let mut writer =
        ArrowWriter::try_new_with_options(Vec::new(), batch.schema(), options).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let groups = builder.metadata().num_row_groups();
    let reader = builder.build().unwrap();
    format!(
        "row groups: {groups}\n{}",
        fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap())
    )
}

/// Columns chosen by dotted path: a whole struct by its name, one leaf of
/// another by its full path.
pub fn projection_by_column_path(_dir: &Path) -> String {
    let point = |scale: i32| {
        StructArray::from(vec![
            (
                Arc::new(Field::new("x", DataType::Int32, false)),
                Arc::new(Int32Array::from_iter_values((0..6).map(|i| i * scale))) as ArrayRef,
            ),
            (
                Arc::new(Field::new("y", DataType::Int32, true)),
                Arc::new(Int32Array::from_iter(
                    (0..6).map(|i| (i != 2).then_some(-i * scale)),
                )) as ArrayRef,
            ),
        ])
    };
    let batch = RecordBatch::try_from_iter([
        (
            "label",
            Arc::new(StringArray::from(vec!["a", "b", "c", "d", "e", "f"])) as ArrayRef,
        ),
        ("start", Arc::new(point(1)) as ArrayRef),
        ("end", Arc::new(point(10)) as ArrayRef),
    ])
    .unwrap();
    let file = to_parquet(&batch, 4);
    let mut out = String::new();
    for names in [
        vec!["start", "end.y"],
        vec!["label"],
        vec!["end.x", "end.y"],
    ] {
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let mask = ProjectionMask::columns(builder.parquet_schema(), names.iter().copied());
        let reader = builder.with_projection(mask).build().unwrap();
        out.push_str(&format!(
            "{names:?}\n{}",
            fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap())
        ));
    }
    out
}

/// Row selections from boolean filters, combined with `intersection` and
/// `union`.
pub fn row_selection_from_filters(_dir: &Path) -> String {
    let file = to_parquet(&people(20), 8);
    let even = BooleanArray::from_iter((0..20).map(|i| Some(i % 2 == 0)));
    let low = BooleanArray::from_iter((0..20).map(|i| Some(i < 12)));
    let high = BooleanArray::from_iter((0..20).map(|i| Some(i >= 17)));
    let even = RowSelection::from_filters(&[even]);
    let selection = even
        .intersection(&RowSelection::from_filters(&[low]))
        .union(&RowSelection::from_filters(&[high]));
    let counts = (selection.row_count(), selection.skipped_row_count());
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_row_selection(selection)
        .build()
        .unwrap();
    format!(
        "(selected, skipped): {counts:?}\n{}",
        fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap())
    )
}

/// Arrow schema to Parquet schema and back, without writing a file; then
/// the same schema through a file.
pub fn schema_conversion(_dir: &Path) -> String {
    let batch = people(10);
    let descr = pq::arrow::ArrowSchemaConverter::new()
        .convert(&batch.schema())
        .unwrap();
    let back = pq::arrow::parquet_to_arrow_schema(&descr, None).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(to_parquet(&batch, 100)).unwrap();
    let from_file = builder.parquet_schema().num_columns();
    let batches = builder
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    format!(
        "leaves: {} (file: {from_file})\nconverted back {}{}",
        descr.num_columns(),
        fmt_schema(&back),
        fmt_digest(&batches)
    )
}

/// The footer read once, then several readers built from it.
pub fn reader_metadata_reuse(_dir: &Path) -> String {
    use pq::arrow::arrow_reader::ArrowReaderMetadata;
    let file = to_parquet(&people(40), 10);
    let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
    let mut out = fmt_schema(metadata.schema());
    for group in [3, 1] {
        let reader =
            ParquetRecordBatchReaderBuilder::new_with_metadata(file.clone(), metadata.clone())
                .with_row_groups(vec![group])
                .build()
                .unwrap();
        out.push_str(&fmt_batches(
            &reader.collect::<Result<Vec<_>, _>>().unwrap(),
        ));
    }
    out
}

/// Key-value metadata set in the properties and appended by the writer,
/// read back from the footer.
pub fn key_value_metadata_roundtrip(_dir: &Path) -> String {
    use pq::file::metadata::KeyValue;
    let batch = people(5);
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![KeyValue::new(
            "source".to_string(),
            "sensor-1".to_string(),
        )]))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.append_key_value_metadata(KeyValue::new("rows".to_string(), Some("5".to_string())));
    let file = Bytes::from(writer.into_inner().unwrap());
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let rows = builder.metadata().file_metadata().num_rows();
    let mut pairs: Vec<(String, Option<String>)> = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .filter(|kv| kv.key != pq::arrow::ARROW_SCHEMA_META_KEY)
        .map(|kv| (kv.key.clone(), kv.value.clone()))
        .collect();
    pairs.sort();
    format!(
        "rows: {rows}\npairs: {pairs:?}\n{}",
        fmt_schema(builder.schema())
    )
}

/// The writer through Arrow's `RecordBatchWriter` trait.
pub fn record_batch_writer_trait(_dir: &Path) -> String {
    use arrow_array::RecordBatchWriter;
    fn write_all(mut w: impl RecordBatchWriter, batches: &[RecordBatch]) {
        for b in batches {
            w.write(b).unwrap();
        }
        w.close().unwrap();
    }
    let batch = people(9);
    let mut buf = Vec::new();
    write_all(
        ArrowWriter::try_new(&mut buf, batch.schema(), None).unwrap(),
        &[batch.clone(), batch],
    );
    let reader = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf))
        .unwrap()
        .build()
        .unwrap();
    fmt_counts(&reader.collect::<Result<Vec<_>, _>>().unwrap())
}

/// Row counts and per-column value counts from the footer, read through
/// the metadata accessors.
pub fn row_group_metadata_accessors(_dir: &Path) -> String {
    let file = to_parquet(&people(45), 20);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let metadata = builder.metadata();
    let mut out = format!(
        "rows: {}\nrow groups: {}\nleaf columns: {}\n",
        metadata.file_metadata().num_rows(),
        metadata.num_row_groups(),
        metadata.file_metadata().schema_descr().num_columns()
    );
    for (i, group) in metadata.row_groups().iter().enumerate() {
        let values: Vec<i64> = group.columns().iter().map(|c| c.num_values()).collect();
        out.push_str(&format!(
            "group {i}: {} rows, {} columns, values {values:?}, first column {} values\n",
            group.num_rows(),
            group.num_columns(),
            metadata.row_group(i).column(0).num_values()
        ));
    }
    out
}

/// The footer's row counts and column paths, row group by row group.
pub fn footer_metadata_counts(_dir: &Path) -> String {
    let file = to_parquet(&people(70), 30);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let metadata = builder.metadata();
    let mut out = format!(
        "rows: {}\ncolumns: {}\n",
        metadata.file_metadata().num_rows(),
        metadata.file_metadata().schema_descr().num_columns()
    );
    for i in 0..metadata.num_row_groups() {
        let group = metadata.row_group(i);
        let paths: Vec<String> = (0..group.num_columns())
            .map(|j| group.column(j).column_path().string())
            .collect();
        out.push_str(&format!(
            "group {i}: {} rows, {paths:?}\n",
            group.num_rows()
        ));
    }
    out
}

/// Sorting columns declared in the properties, read from a row group.
pub fn sorting_columns_roundtrip(_dir: &Path) -> String {
    use pq::file::metadata::SortingColumn;
    let batch = RecordBatch::try_from_iter([
        ("k", Arc::new(Int64Array::from(vec![1, 2, 3])) as ArrayRef),
        (
            "v",
            Arc::new(StringArray::from(vec!["a", "b", "c"])) as ArrayRef,
        ),
    ])
    .unwrap();
    let sorting = vec![SortingColumn {
        column_idx: 0,
        descending: false,
        nulls_first: true,
    }];
    let props = WriterProperties::builder()
        .set_sorting_columns(Some(sorting))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let sorted = builder.metadata().row_group(0).sorting_columns().cloned();
    format!("rows: 3\nsorting: {sorted:?}\n")
}

/// Row groups the writer has flushed, read while writing.
pub fn flushed_row_groups_while_writing(_dir: &Path) -> String {
    let batch = people(25);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(10))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    let during: Vec<i64> = writer
        .flushed_row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect();
    let in_progress = writer.in_progress_rows();
    writer.flush().unwrap();
    let after: Vec<i64> = writer
        .flushed_row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect();
    writer.close().unwrap();
    format!("rows: 25\nflushed while writing: {during:?}, in progress {in_progress}\nafter flush: {after:?}\n")
}

/// Column chunk statistics, typed, as a query engine reads them to prune
/// row groups.
pub fn column_statistics(_dir: &Path) -> String {
    use pq::file::statistics::Statistics;
    let file = to_parquet(&people(50), 20);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let metadata = builder.metadata();
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for group in metadata.row_groups() {
        for column in group.columns() {
            let path = column.column_path().string();
            let line = match column.statistics() {
                Some(Statistics::Int64(s)) => format!("{:?}..{:?}", s.min_opt(), s.max_opt()),
                Some(Statistics::Double(s)) => format!("{:?}..{:?}", s.min_opt(), s.max_opt()),
                Some(Statistics::Boolean(s)) => format!("{:?}..{:?}", s.min_opt(), s.max_opt()),
                Some(other) => format!("{:?}..{:?}", other.min_bytes_opt(), other.max_bytes_opt()),
                None => "none".to_string(),
            };
            let nulls = column.statistics().and_then(|s| s.null_count_opt());
            out.push_str(&format!("{path}: {line}, nulls {nulls:?}\n"));
        }
    }
    out
}

/// The Parquet schema's leaf columns, as a tool that prints a file's
/// layout reads them.
pub fn column_descriptors(_dir: &Path) -> String {
    use arrow_array::{Decimal128Array, FixedSizeBinaryArray, ListArray};
    use arrow_array::types::Int32Type;
    let n = 4;
    let prices = Decimal128Array::from(vec![Some(1234), None, Some(-5), Some(0)])
        .with_precision_and_scale(9, 2)
        .unwrap();
    let codes =
        FixedSizeBinaryArray::try_from_iter((0..n).map(|i| [i as u8, 1, 2, 3])).unwrap();
    let tags = ListArray::from_iter_primitive::<Int32Type, _, _>(
        (0..n).map(|i| (i % 2 == 0).then(|| vec![Some(i), None])),
    );
    let point = StructArray::from(vec![(
        Arc::new(Field::new("x", DataType::Int32, true)),
        Arc::new(Int32Array::from(vec![1, 2, 3, 4])) as ArrayRef,
    )]);
    let batch = RecordBatch::try_from_iter([
        ("price", Arc::new(prices) as ArrayRef),
        ("code", Arc::new(codes)),
        ("tags", Arc::new(tags)),
        ("point", Arc::new(point)),
    ])
    .unwrap();
    // Coerced, so that both name the list's element as the specification
    // does (strata always does; see docs/architecture.md).
    let props = WriterProperties::builder().set_coerce_types(true).build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = builder.parquet_schema();
    let mut out = format!("rows: {n}\nleaves: {}\n", schema.num_columns());
    for column in schema.columns() {
        out.push_str(&format!(
            "{} ({}): {} length {} precision {} scale {} levels {}/{}\n",
            column.name(),
            column.path().string(),
            column.physical_type(),
            column.type_length(),
            column.type_precision(),
            column.type_scale(),
            column.max_def_level(),
            column.max_rep_level()
        ));
    }
    out
}
