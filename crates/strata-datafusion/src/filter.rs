//! Filters evaluated inside the scan: a DataFusion predicate as strata's
//! [`RowFilter`], so the rows it rejects are never decoded past the
//! columns it reads.
//!
//! Only under `pushdown_filters` (off by default, as in DataFusion's own
//! Parquet source), and only for filters on the file's columns: those are
//! reported to DataFusion as pushed down, and DataFusion then drops its
//! own filter. Each conjunct becomes one [`ArrowPredicate`] reading just
//! the root columns it names; strata evaluates them in order, each on the
//! rows the ones before it kept, and decodes the scan's other columns for
//! the rows all of them keep. A row whose predicate is null is dropped,
//! as SQL's `WHERE` drops it.

use std::sync::Arc;

use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::{ArrowError, DataType};
use arrow59::array::{Array as DfArray, RecordBatch as DfRecordBatch, RecordBatchOptions};
use arrow59::datatypes::{Schema as DfSchema, SchemaRef as DfSchemaRef};
use datafusion::common::{DataFusionError, Result, ScalarValue};
use datafusion::logical_expr::ColumnarValue;
use datafusion::physical_expr::split_conjunction;
use datafusion::physical_expr::utils::{collect_columns, reassign_expr_columns};
use datafusion::physical_plan::PhysicalExpr;
use datafusion::physical_plan::metrics::Count;
use strata_arrow::ProjectionMask;
use strata_arrow::arrow_reader::{ArrowPredicate, ArrowReaderMetadata, RowFilter};

use crate::bridge;

/// What a file's predicate asks of its rows.
pub enum FileRowFilter {
    /// Every row passes (no conjunct, or only ones true for every row).
    All,
    /// No row passes: a conjunct is false or null for every row (a column
    /// the file lacks, compared with a value).
    None,
    /// Rows pass as the filter says.
    Rows(RowFilter),
}

/// Whether DataFusion's filter `expr` can run inside the scan of a table
/// whose files have `file_schema`'s columns: it names at least one
/// column, and only file columns (not partition columns).
pub fn can_push_down(expr: &Arc<dyn PhysicalExpr>, file_schema: &DfSchema) -> bool {
    let columns = collect_columns(expr);
    !columns.is_empty()
        && columns
            .iter()
            .all(|c| file_schema.field_with_name(c.name()).is_ok())
}

/// The row filter of `predicate` (over the file's columns, as read: the
/// `physical` schema) for the file `metadata` describes.
///
/// `rows_pruned` counts the rows each conjunct drops.
pub fn file_row_filter(
    predicate: &Arc<dyn PhysicalExpr>,
    physical: &DfSchemaRef,
    metadata: &ArrowReaderMetadata,
    rows_pruned: &Count,
) -> Result<FileRowFilter> {
    let mut predicates: Vec<Box<dyn ArrowPredicate>> = Vec::new();
    for conjunct in split_conjunction(predicate) {
        let columns = collect_columns(conjunct);
        if columns.is_empty() {
            // Constant within the file (a missing column became a null).
            let one_row = DfRecordBatch::try_new_with_options(
                Arc::new(DfSchema::empty()),
                vec![],
                &RecordBatchOptions::new().with_row_count(Some(1)),
            )?;
            match conjunct.evaluate(&one_row)? {
                ColumnarValue::Scalar(ScalarValue::Boolean(Some(true))) => continue,
                ColumnarValue::Scalar(_) => return Ok(FileRowFilter::None),
                ColumnarValue::Array(a) if a.len() == 1 && !a.is_null(0) => {
                    let a = a.as_any().downcast_ref::<arrow59::array::BooleanArray>();
                    if a.is_some_and(|a| a.value(0)) {
                        continue;
                    }
                    return Ok(FileRowFilter::None);
                }
                ColumnarValue::Array(_) => return Ok(FileRowFilter::None),
            }
        }
        let mut roots: Vec<usize> = columns
            .iter()
            .map(|c| physical.index_of(c.name()))
            .collect::<std::result::Result<_, _>>()?;
        roots.sort_unstable();
        roots.dedup();
        let schema = Arc::new(physical.project(&roots)?);
        let expr = reassign_expr_columns(Arc::clone(conjunct), &schema)?;
        let projection = ProjectionMask::roots(metadata.parquet_schema(), roots.iter().copied());
        predicates.push(Box::new(ConjunctPredicate {
            projection,
            schema,
            expr,
            rows_pruned: rows_pruned.clone(),
        }));
    }
    Ok(if predicates.is_empty() {
        FileRowFilter::All
    } else {
        FileRowFilter::Rows(RowFilter::new(predicates))
    })
}

/// One conjunct of a filter, evaluated by DataFusion on the batches of
/// the columns it names.
struct ConjunctPredicate {
    projection: ProjectionMask,
    /// The columns' schema, in DataFusion's Arrow.
    schema: DfSchemaRef,
    /// The conjunct, its columns numbered as in `schema`.
    expr: Arc<dyn PhysicalExpr>,
    /// Rows the conjunct dropped.
    rows_pruned: Count,
}

/// A DataFusion error as strata's Arrow error.
fn arrow_error(e: DataFusionError) -> ArrowError {
    ArrowError::ExternalError(Box::new(e))
}

impl ArrowPredicate for ConjunctPredicate {
    fn projection(&self) -> &ProjectionMask {
        &self.projection
    }

    fn evaluate(&mut self, batch: RecordBatch) -> std::result::Result<BooleanArray, ArrowError> {
        let rows = batch.num_rows();
        let batch = bridge::batch_to_df(&batch, &self.schema)
            .map_err(|e| arrow_error(DataFusionError::ArrowError(Box::new(e), None)))?;
        let values = self
            .expr
            .evaluate(&batch)
            .and_then(|v| v.into_array(rows))
            .map_err(arrow_error)?;
        if values.data_type() != &arrow59::datatypes::DataType::Boolean {
            return Err(ArrowError::ComputeError(format!(
                "a filter gave {} values, not booleans",
                values.data_type()
            )));
        }
        let values = bridge::array_from_df(values.as_ref(), &DataType::Boolean)?;
        let values = values
            .as_any()
            .downcast_ref::<BooleanArray>()
            .cloned()
            .ok_or_else(|| {
                ArrowError::ComputeError("a filter gave values that are not booleans".into())
            })?;
        // Null counts as false: a row passes only where the value is true.
        let passed = values.iter().filter(|v| *v == Some(true)).count();
        self.rows_pruned.add(rows - passed);
        Ok(values)
    }
}
