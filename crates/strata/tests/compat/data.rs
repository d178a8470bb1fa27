//! Input batches shared by several programs. Plain Arrow: nothing here
//! knows which Parquet crate writes them.

use std::sync::Arc;

use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};

/// `n` rows of `id` (Int64, required), `name` (Utf8, some nulls, 23
/// distinct), `score` (Float64, some nulls) and `active` (Boolean), ids
/// starting at `first`.
pub fn people_from(first: usize, n: usize) -> RecordBatch {
    let rows = first..first + n;
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(rows.clone().map(|i| i as i64)));
    let names: ArrayRef = Arc::new(StringArray::from_iter(
        rows.clone()
            .map(|i| (i % 7 != 3).then(|| format!("name-{}", i % 23))),
    ));
    let scores: ArrayRef = Arc::new(Float64Array::from_iter(
        rows.clone()
            .map(|i| (i % 5 != 0).then_some(i as f64 * 0.5 - 10.0)),
    ));
    let active: ArrayRef = Arc::new(BooleanArray::from_iter(rows.map(|i| Some(i % 3 == 0))));
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("score", DataType::Float64, true),
        Field::new("active", DataType::Boolean, true),
    ]);
    RecordBatch::try_new(Arc::new(schema), vec![ids, names, scores, active]).unwrap()
}

/// [`people_from`] starting at id 0.
pub fn people(n: usize) -> RecordBatch {
    people_from(0, n)
}
