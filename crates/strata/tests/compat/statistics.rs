// Programs that prune with `StatisticsConverter`, the way query engines
// use it: row group statistics as Arrow arrays, page statistics from the
// page index, and a selection of the pages kept. Included into a module
// that has `pq` in scope.

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::statistics::StatisticsConverter;
use pq::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
};
use pq::file::metadata::PageIndexPolicy;
use pq::file::properties::{EnabledStatistics, WriterProperties};

use crate::data::people;
use crate::summary::fmt_batches;

/// `people(n)` in row groups of `rows_per_group`, pages of 10 rows.
fn people_file(n: usize, rows_per_group: usize) -> Bytes {
    let batch = people(n);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows_per_group))
        .set_data_page_row_count_limit(10)
        .set_write_batch_size(10)
        .set_statistics_enabled(EnabledStatistics::Page)
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

/// What `builder` reads, summarised.
fn read_all(builder: ParquetRecordBatchReaderBuilder<Bytes>) -> String {
    let batches: Vec<RecordBatch> = builder
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    fmt_batches(&batches)
}

/// Row group pruning: every column's statistics as arrays, then the row
/// groups whose ids may meet `40 <= id <= 60` read.
pub fn row_group_pruning_by_statistics(_dir: &Path) -> String {
    let builder = ParquetRecordBatchReaderBuilder::try_new(people_file(100, 25)).unwrap();
    let metadata = builder.metadata().clone();
    let schema = builder.schema().clone();
    let mut out = String::new();
    for field in schema.fields() {
        let converter =
            StatisticsConverter::try_new(field.name(), &schema, builder.parquet_schema()).unwrap();
        let groups = metadata.row_groups();
        out.push_str(&format!(
            "{} (leaf {:?})\n  mins {:?}\n  maxes {:?}\n  nulls {:?}\n  rows {:?}\n  exact {:?} {:?}\n",
            field.name(),
            converter.parquet_column_index(),
            converter.row_group_mins(groups.iter()).unwrap(),
            converter.row_group_maxes(groups.iter()).unwrap(),
            converter.row_group_null_counts(groups.iter()).unwrap(),
            converter.row_group_row_counts(groups.iter()).unwrap(),
            converter.row_group_is_min_value_exact(groups.iter()).unwrap(),
            converter.row_group_is_max_value_exact(groups.iter()).unwrap(),
        ));
    }
    let converter = StatisticsConverter::try_new("id", &schema, builder.parquet_schema()).unwrap();
    let mins = converter.row_group_mins(metadata.row_groups()).unwrap();
    let maxes = converter.row_group_maxes(metadata.row_groups()).unwrap();
    let (mins, maxes) = (mins.as_primitive::<Int64Type>(), maxes.as_primitive::<Int64Type>());
    let keep: Vec<usize> = (0..mins.len())
        .filter(|&g| mins.is_null(g) || maxes.is_null(g) || (mins.value(g) <= 60 && maxes.value(g) >= 40))
        .collect();
    out.push_str(&format!("kept row groups {keep:?}\n"));
    out.push_str(&read_all(builder.with_row_groups(keep)));
    out
}

/// Page pruning: the page index's bounds of `score` as arrays, the pages
/// that may hold `score >= 30.0` turned into a selection by their row
/// counts, and the selection read.
pub fn page_pruning_by_data_page_statistics(_dir: &Path) -> String {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(people_file(120, 50), options)
            .unwrap();
    let metadata = builder.metadata().clone();
    let schema = builder.schema().clone();
    let converter =
        StatisticsConverter::try_new("score", &schema, builder.parquet_schema()).unwrap();
    let page_index = metadata.page_index().unwrap();
    let groups: Vec<usize> = (0..metadata.num_row_groups()).collect();
    let mins = converter.data_page_mins(page_index.as_ref(), &groups).unwrap();
    let maxes = converter.data_page_maxes(page_index.as_ref(), &groups).unwrap();
    let nulls = converter.data_page_null_counts(page_index.as_ref(), &groups).unwrap();
    let rows = converter
        .data_page_row_counts(page_index.as_ref(), metadata.row_groups(), &groups)
        .unwrap()
        .unwrap();
    let mut out = format!("mins {mins:?}\nmaxes {maxes:?}\nnulls {nulls:?}\npage rows {rows:?}\n");
    let maxes = maxes.as_primitive::<Float64Type>();
    let selectors: Vec<RowSelector> = (0..rows.len())
        .map(|p| {
            let count = rows.value(p) as usize;
            if maxes.is_null(p) || maxes.value(p) >= 30.0 {
                RowSelector::select(count)
            } else {
                RowSelector::skip(count)
            }
        })
        .collect();
    let selection = RowSelection::from(selectors);
    out.push_str(&format!("selected {} rows\n", selection.row_count()));
    out.push_str(&read_all(builder.with_row_selection(selection)));
    out
}

/// A table schema wider than the file (a column added since), a
/// dictionary field, and a name neither has: nulls, the value type, and
/// an error.
pub fn statistics_for_evolved_schema(_dir: &Path) -> String {
    let batch = people(30);
    let file = people_file(30, 10);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let metadata = builder.metadata().clone();
    let mut fields: Vec<Field> = batch.schema().fields().iter().map(|f| f.as_ref().clone()).collect();
    fields[1] = Field::new(
        "name",
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        true,
    );
    fields.push(Field::new("added", DataType::Int32, true));
    let table = Schema::new(fields);
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for name in ["name", "added"] {
        let converter =
            StatisticsConverter::try_new(name, &table, builder.parquet_schema()).unwrap();
        let groups = metadata.row_groups();
        let mins: ArrayRef = converter.row_group_mins(groups.iter()).unwrap();
        out.push_str(&format!(
            "{name}: leaf {:?} field {:?}\n  mins {:?} {mins:?}\n  maxes {:?}\n  nulls {:?}\n  rows {:?}\n",
            converter.parquet_column_index(),
            converter.arrow_field(),
            mins.data_type(),
            converter.row_group_maxes(groups.iter()).unwrap(),
            converter.row_group_null_counts(groups.iter()).unwrap(),
            converter.row_group_row_counts(groups.iter()).unwrap(),
        ));
    }
    let converter = StatisticsConverter::try_new("score", &table, builder.parquet_schema())
        .unwrap()
        .with_missing_null_counts_as_zero(false);
    out.push_str(&format!(
        "score nulls {:?}\n",
        converter.row_group_null_counts(metadata.row_groups()).unwrap()
    ));
    let missing = StatisticsConverter::try_new("nope", &table, builder.parquet_schema());
    out.push_str(&format!("nope: error {}\n", missing.is_err()));
    out
}
