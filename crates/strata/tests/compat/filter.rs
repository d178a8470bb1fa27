// Programs about row filters: predicates evaluated while reading
// (`RowFilter`, `ArrowPredicateFn`, `with_row_filter`), alone, in order,
// on nullable columns and struct leaves, with offset and limit, through
// the push decoder. Each writes its input with `pq` first. Included into
// a module that has `pq` in scope.

use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type};
use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::ArrowError;
use bytes::Bytes;

use pq::arrow::ProjectionMask;
use pq::arrow::arrow_reader::{
    ArrowPredicate, ArrowPredicateFn, ParquetRecordBatchReaderBuilder, RowFilter,
    RowSelectionPolicy,
};
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::fmt_batches;
use super::common::{decode_all, to_parquet};

/// `people(n)` in row groups of `group` rows and pages of 7 rows.
fn paged(n: usize, group: usize) -> Bytes {
    let batch = people(n);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .set_data_page_row_count_limit(7)
        .set_write_batch_size(7)
        .build();
    let mut writer = pq::arrow::ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

fn id_is(m: ProjectionMask, f: fn(i64) -> bool) -> Box<dyn ArrowPredicate> {
    Box::new(ArrowPredicateFn::new(m, move |batch: RecordBatch| {
        let ids = batch.column(0).as_primitive::<Int64Type>();
        Ok(BooleanArray::from_iter(ids.iter().map(|id| id.map(f))))
    }))
}

/// One predicate on the id column, every column read.
pub fn row_filter_predicate(_dir: &Path) -> String {
    let file = to_parquet(&people(30), 12);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0]);
    let predicate = ArrowPredicateFn::new(mask, |batch: RecordBatch| {
        let ids = batch
            .column(0)
            .as_any()
            .downcast_ref::<arrow_array::Int64Array>()
            .unwrap();
        Ok(BooleanArray::from_iter(
            ids.iter().map(|id| id.map(|id| id % 4 == 1)),
        ))
    });
    let reader = builder
        .with_row_filter(RowFilter::new(vec![Box::new(predicate)]))
        .build()
        .unwrap();
    fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap())
}

/// Two predicates in order (the second on a nullable column, its nulls
/// dropping rows), a projection without the predicates' columns, pages
/// cut by the kept rows, small batches.
pub fn row_filter_two_predicates_projected(_dir: &Path) -> String {
    let file = paged(100, 40);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = builder.parquet_schema();
    let first = id_is(ProjectionMask::roots(schema, [0]), |id| (20..75).contains(&id));
    let second = ArrowPredicateFn::new(ProjectionMask::roots(schema, [2]), |batch: RecordBatch| {
        let scores = batch.column(0).as_primitive::<Float64Type>();
        Ok(BooleanArray::from_iter(scores.iter().map(|s| s.map(|s| s > 15.0))))
    });
    let output = ProjectionMask::roots(schema, [1, 3]);
    let reader = builder
        .with_projection(output)
        .with_batch_size(9)
        .with_row_filter(RowFilter::new(vec![first, Box::new(second)]))
        .build()
        .unwrap();
    fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap())
}

/// The same scattered filter under each selection policy: the rows are
/// the same whichever way they are carried.
pub fn row_filter_selection_policies(_dir: &Path) -> String {
    let file = paged(150, 60);
    let mut out = String::new();
    for policy in [
        RowSelectionPolicy::Selectors,
        RowSelectionPolicy::Mask,
        RowSelectionPolicy::Auto { threshold: 4 },
        RowSelectionPolicy::default(),
    ] {
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let schema = builder.parquet_schema();
        let keep = id_is(ProjectionMask::roots(schema, [0]), |id| id % 3 != 1 && id % 7 != 2);
        let output = ProjectionMask::roots(schema, [1, 2, 3]);
        let reader = builder
            .with_projection(output)
            .with_batch_size(16)
            .with_row_selection_policy(policy)
            .with_row_filter(RowFilter::new(vec![keep]))
            .build()
            .unwrap();
        out.push_str(&format!("{policy:?}\n"));
        out.push_str(&fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap()));
    }
    out
}

/// Offset and limit count the rows the filter keeps.
pub fn row_filter_offset_and_limit(_dir: &Path) -> String {
    let file = paged(120, 50);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let keep = id_is(ProjectionMask::roots(builder.parquet_schema(), [0]), |id| id % 3 == 0);
    let reader = builder
        .with_row_filter(RowFilter::new(vec![keep]))
        .with_offset(5)
        .with_limit(17)
        .build()
        .unwrap();
    fmt_batches(&reader.collect::<Result<Vec<_>, _>>().unwrap())
}

/// A predicate's error is the error of `build` for the synchronous
/// reader; so is a mask of the wrong length.
pub fn row_filter_errors(_dir: &Path) -> String {
    let file = to_parquet(&people(10), 5);
    let mut out = String::new();
    for wrong_length in [false, true] {
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let mask = ProjectionMask::roots(builder.parquet_schema(), [0]);
        let predicate = ArrowPredicateFn::new(mask, move |batch: RecordBatch| {
            if wrong_length {
                Ok(BooleanArray::from(vec![true; batch.num_rows() + 1]))
            } else {
                Err(ArrowError::ComputeError("refused".into()))
            }
        });
        let built = builder
            .with_row_filter(RowFilter::new(vec![Box::new(predicate)]))
            .build();
        out.push_str(&format!("build failed: {}\n", built.is_err()));
    }
    format!("rows: 0\n{out}")
}

/// The push decoder with a row filter, fed exactly what it asks for.
pub fn row_filter_push_decoder(_dir: &Path) -> String {
    use pq::arrow::push_decoder::ParquetPushDecoderBuilder;
    use pq::file::metadata::ParquetMetaDataReader;
    let file = paged(90, 30);
    let metadata = Arc::new(ParquetMetaDataReader::new().parse_and_finish(&file).unwrap());
    let builder = ParquetPushDecoderBuilder::try_new_decoder(metadata).unwrap();
    let keep = id_is(ProjectionMask::roots(builder.parquet_schema(), [0]), |id| {
        id % 10 < 3 && id > 25
    });
    let mut decoder = builder
        .with_row_filter(RowFilter::new(vec![keep]))
        .build()
        .unwrap();
    let batches = decode_all(&mut decoder, &file);
    fmt_batches(&batches)
}
