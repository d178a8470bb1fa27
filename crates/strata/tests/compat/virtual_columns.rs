// Programs about virtual columns: a row number (each row's position in
// the file) and a row group index appended to the batches read, under
// row group choices, row selections that skip pages, row filters, offset
// and limit, projections, the push decoder and the async stream. The
// files' `id` column holds each row's position, so a row number that
// disagrees with its id is visible in the output too. Included into a
// module that has `pq` in scope.

use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::{DataType, Field, FieldRef};
use bytes::Bytes;
use futures::TryStreamExt;

use pq::arrow::arrow_reader::{
    ArrowPredicateFn, ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
    RowFilter, RowSelection, RowSelector,
};
use pq::arrow::async_reader::ParquetRecordBatchStreamBuilder;
use pq::arrow::push_decoder::ParquetPushDecoderBuilder;
use pq::arrow::{ProjectionMask, RowGroupIndex, RowNumber};
use pq::file::metadata::PageIndexPolicy;
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::{fmt_batches, fmt_schema};
use super::common::decode_all;

/// `people(n)` in row groups of `group` rows and pages of 5 rows, with
/// the page index.
fn paged(n: usize, group: usize) -> Bytes {
    let batch = people(n);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .set_data_page_row_count_limit(5)
        .set_write_batch_size(5)
        .build();
    let mut writer = pq::arrow::ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

fn virtual_fields() -> Vec<FieldRef> {
    vec![
        Arc::new(Field::new("row", DataType::Int64, false).with_extension_type(RowNumber)),
        Arc::new(Field::new("group", DataType::Int64, false).with_extension_type(RowGroupIndex)),
    ]
}

fn options() -> ArrowReaderOptions {
    ArrowReaderOptions::new()
        .with_page_index_policy(PageIndexPolicy::Optional)
        .with_virtual_columns(virtual_fields())
        .unwrap()
}

/// The row numbers of the batches (the column named "row"), and whether
/// each equals the row's id where the batches have one.
fn rows_and_ids(batches: &[RecordBatch]) -> String {
    let mut out = String::new();
    for b in batches {
        let rows = b.column_by_name("row").unwrap().as_primitive::<Int64Type>();
        out.push_str(&format!("rows {:?}", rows.values().to_vec()));
        if let Some(ids) = b.column_by_name("id") {
            let ids = ids.as_primitive::<Int64Type>();
            out.push_str(&format!(" equal to ids: {}", ids.values() == rows.values()));
        }
        out.push('\n');
    }
    out
}

/// The batches `reader` gives, and their row numbers.
fn summary(reader: impl Iterator<Item = Result<RecordBatch, arrow_schema::ArrowError>>) -> String {
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    summary_of(&batches)
}

fn summary_of(batches: &[RecordBatch]) -> String {
    let mut out = fmt_batches(batches);
    out.push_str(&rows_and_ids(batches));
    out
}

/// Every row, a row number and a row group index after the columns.
pub fn row_numbers_of_every_row(_dir: &Path) -> String {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(paged(40, 12), options()).unwrap();
    let mut out = fmt_schema(builder.schema());
    out.push_str(&summary(builder.with_batch_size(9).build().unwrap()));
    out
}

/// Row groups chosen out of order, and a selection whose skips step
/// over whole pages.
pub fn row_numbers_under_row_groups_and_a_selection(_dir: &Path) -> String {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(paged(60, 15), options()).unwrap();
    let selection = RowSelection::from(vec![
        RowSelector::skip(2),
        RowSelector::select(3),
        RowSelector::skip(11),
        RowSelector::select(6),
        RowSelector::skip(4),
        RowSelector::select(4),
    ]);
    summary(
        builder
            .with_row_groups(vec![3, 1])
            .with_row_selection(selection)
            .with_batch_size(4)
            .build()
            .unwrap(),
    )
}

/// A row filter keeping scattered rows, then offset and limit, with only
/// the name column read (no id: the row numbers alone place the rows).
pub fn row_numbers_under_a_filter_offset_and_limit(_dir: &Path) -> String {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(paged(70, 20), options()).unwrap();
    let ids = ProjectionMask::roots(builder.parquet_schema(), [0]);
    let names = ProjectionMask::roots(builder.parquet_schema(), [1]);
    let keep = ArrowPredicateFn::new(ids, |batch: RecordBatch| {
        let ids = batch.column(0).as_primitive::<Int64Type>();
        Ok(BooleanArray::from_iter(
            ids.iter().map(|id| id.map(|id| id % 3 == 1 || (30..36).contains(&id))),
        ))
    });
    summary(
        builder
            .with_projection(names)
            .with_row_filter(RowFilter::new(vec![Box::new(keep)]))
            .with_offset(2)
            .with_limit(17)
            .with_batch_size(6)
            .build()
            .unwrap(),
    )
}

/// The push decoder, with metadata loaded once and virtual columns in
/// its options, over a selection.
pub fn row_numbers_through_the_push_decoder(_dir: &Path) -> String {
    let file = paged(33, 10);
    let metadata = ArrowReaderMetadata::load(&file, options()).unwrap();
    let mut decoder = ParquetPushDecoderBuilder::new_with_metadata(metadata)
        .with_row_selection(RowSelection::from(vec![
            RowSelector::select(4),
            RowSelector::skip(14),
            RowSelector::select(9),
        ]))
        .with_batch_size(5)
        .build()
        .unwrap();
    summary_of(&decode_all(&mut decoder, &file))
}

/// The async stream over a tokio file, limited.
pub fn row_numbers_through_the_stream(dir: &Path) -> String {
    let path = dir.join("people.parquet");
    std::fs::write(&path, paged(45, 16)).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let file = tokio::fs::File::open(&path).await.unwrap();
        let builder = ParquetRecordBatchStreamBuilder::new_with_options(file, options())
            .await
            .unwrap();
        let stream = builder
            .with_offset(7)
            .with_limit(20)
            .with_batch_size(8)
            .build()
            .unwrap();
        let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
        summary_of(&batches)
    })
}

/// A field that is not a virtual column is refused; the schema of a
/// reader with an empty projection holds the virtual columns only.
pub fn virtual_columns_alone_and_refused(_dir: &Path) -> String {
    let plain: FieldRef = Arc::new(Field::new("row", DataType::Int64, false));
    let refused = ArrowReaderOptions::new()
        .with_virtual_columns(vec![plain])
        .is_err();
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(paged(12, 5), options()).unwrap();
    let none = ProjectionMask::none(builder.parquet_schema().num_columns());
    let mut out = format!("plain field refused: {refused}\n");
    out.push_str(&summary(builder.with_projection(none).build().unwrap()));
    out
}
