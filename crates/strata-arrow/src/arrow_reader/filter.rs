//! Row filters: predicates evaluated while a file is read, so that the
//! output columns are decoded only for the rows that pass (arrow-rs's
//! `RowFilter`, `ArrowPredicate` and `ArrowPredicateFn`).
//!
//! A [`RowFilter`] holds predicates run in order. Each reads the columns
//! of its own [`ProjectionMask`] for the rows the earlier predicates (and
//! the row selection) kept, and returns a [`BooleanArray`] with one value
//! per row: `true` keeps the row; `false` and null drop it. The output
//! columns are then decoded for the kept rows only: runs of dropped rows
//! are skipped without decoding where the encoding allows, and pages
//! holding no kept row are neither fetched nor decompressed when the file
//! has an offset index. Offset and limit apply to the rows the filter
//! keeps.
//!
//! The filter runs a row group at a time, in the order the row groups are
//! read. The synchronous reader runs it over every row group it reads when
//! it is built (as arrow-rs's does), so a predicate's error is the
//! builder's; the push decoder and the async stream run it as each row
//! group is reached, and a predicate's error ends the read there.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, BooleanArray, Int64Array, RecordBatch, StringArray};
//! use arrow_array::cast::AsArray;
//! use arrow_array::types::Int64Type;
//! use bytes::Bytes;
//! use strata_arrow::{ArrowWriter, ProjectionMask};
//! use strata_arrow::arrow_reader::{ArrowPredicateFn, ParquetRecordBatchReaderBuilder, RowFilter};
//!
//! let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..100));
//! let names: ArrayRef = Arc::new(StringArray::from_iter_values((0..100).map(|i| format!("n{i}"))));
//! let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
//! writer.write(&batch).unwrap();
//! writer.close().unwrap();
//!
//! let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(file)).unwrap();
//! // Keep the rows whose id is a multiple of 25, and read only their names.
//! let id_only = ProjectionMask::roots(builder.parquet_schema(), [0]);
//! let predicate = ArrowPredicateFn::new(id_only, |batch: RecordBatch| {
//!     let ids = batch.column(0).as_primitive::<Int64Type>();
//!     Ok(BooleanArray::from_iter(ids.iter().map(|id| id.map(|id| id % 25 == 0))))
//! });
//! let names_only = ProjectionMask::roots(builder.parquet_schema(), [1]);
//! let reader = builder
//!     .with_projection(names_only)
//!     .with_row_filter(RowFilter::new(vec![Box::new(predicate)]))
//!     .build()
//!     .unwrap();
//! let names: Vec<String> = reader
//!     .flat_map(|b| {
//!         let b = b.unwrap();
//!         b.column(0).as_string::<i32>().iter().map(|s| s.unwrap().to_string()).collect::<Vec<_>>()
//!     })
//!     .collect();
//! assert_eq!(names, ["n0", "n25", "n50", "n75"]);
//! ```

use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::ArrowError;

use super::ProjectionMask;

/// A predicate over some columns of a row group's rows: which rows to
/// keep.
pub trait ArrowPredicate: Send + 'static {
    /// The columns the predicate reads (leaves of the file's schema).
    fn projection(&self) -> &ProjectionMask;

    /// One value per row of `batch` (the [`projection`](Self::projection)'s
    /// columns): `true` keeps the row, `false` or null drops it. An
    /// array of another length is an error.
    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError>;
}

/// An [`ArrowPredicate`] made of a projection and a closure.
pub struct ArrowPredicateFn<F> {
    f: F,
    projection: ProjectionMask,
}

impl<F> ArrowPredicateFn<F>
where
    F: FnMut(RecordBatch) -> Result<BooleanArray, ArrowError> + Send + 'static,
{
    /// A predicate calling `f` on batches of the `projection`'s columns.
    pub fn new(projection: ProjectionMask, f: F) -> Self {
        Self { f, projection }
    }
}

impl<F> ArrowPredicate for ArrowPredicateFn<F>
where
    F: FnMut(RecordBatch) -> Result<BooleanArray, ArrowError> + Send + 'static,
{
    fn projection(&self) -> &ProjectionMask {
        &self.projection
    }

    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError> {
        (self.f)(batch)
    }
}

/// Predicates run one after another, each on the rows the ones before it
/// kept; given to a reader's builder with `with_row_filter`.
pub struct RowFilter {
    pub(crate) predicates: Vec<Box<dyn ArrowPredicate>>,
}

impl std::fmt::Debug for RowFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RowFilter {{ {} predicates: }}", self.predicates.len())
    }
}

impl RowFilter {
    /// A filter of these predicates, run in this order.
    pub fn new(predicates: Vec<Box<dyn ArrowPredicate>>) -> Self {
        Self { predicates }
    }

    /// The predicates.
    pub fn predicates(&self) -> &Vec<Box<dyn ArrowPredicate>> {
        &self.predicates
    }

    /// The predicates, the filter given up.
    pub fn into_predicates(self) -> Vec<Box<dyn ArrowPredicate>> {
        self.predicates
    }
}

/// How a row filter's kept rows are carried to the output columns (arrow-rs's
/// `RowSelectionPolicy`, given with
/// [`with_row_selection_policy`](super::ArrowReaderBuilder::with_row_selection_policy)).
///
/// Kept rows as [`Selectors`](Self::Selectors) are runs to read and runs to
/// skip: the rows between runs are skipped without decoding where the
/// encoding allows, and pages without a kept row are not fetched. Kept rows
/// as a [`Mask`](Self::Mask) are one bit per row: every row is read, and
/// the dropped ones are passed over as each column is read (a top-level
/// column read as values) or filtered out after it (the others). A step per
/// run costs more than a row read where runs are short, so scattered rows
/// read faster as a mask.
///
/// The rule of [`Auto`](Self::Auto), arrow-rs's: a mask when the
/// selectors (the runs of kept rows and the runs of dropped rows) are, on
/// average, shorter than `threshold` rows, that is when there are more of
/// them than the row group's rows divided by `threshold`; selectors
/// otherwise, and always for a `threshold` of 0 or 1. The default is
/// `Auto { threshold: 32 }`. An offset
/// or a limit always uses selectors (they count kept rows). The policy
/// governs a filter's kept rows; a [`RowSelection`](super::RowSelection)
/// given to the builder is read as selectors, a dropped run shorter than 32
/// rows between selected rows read through and masked.
///
/// ```
/// use strata_arrow::arrow_reader::RowSelectionPolicy;
/// assert_eq!(RowSelectionPolicy::default(), RowSelectionPolicy::Auto { threshold: 32 });
/// ```
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum RowSelectionPolicy {
    /// Runs of rows to read and to skip.
    Selectors,
    /// One bit per row.
    Mask,
    /// A mask when the selectors are shorter than `threshold` rows on
    /// average, selectors otherwise.
    Auto {
        /// The average selector length below which a mask is used.
        threshold: usize,
    },
}

impl Default for RowSelectionPolicy {
    fn default() -> Self {
        Self::Auto { threshold: 32 }
    }
}

impl RowSelectionPolicy {
    /// Whether kept rows over `rows` rows that make `selectors` runs, kept
    /// and dropped, are carried as a mask.
    pub(crate) fn use_mask(self, selectors: usize, rows: usize) -> bool {
        match self {
            Self::Selectors => false,
            Self::Mask => true,
            Self::Auto { threshold } => rows
                .checked_div(threshold)
                .and_then(|most| most.checked_add(1))
                .is_some_and(|least| least <= rows && selectors >= least),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RowSelectionPolicy;

    #[test]
    fn auto_uses_a_mask_when_selectors_average_under_its_threshold() {
        let auto = RowSelectionPolicy::Auto { threshold: 32 };
        // 100 selectors over 3,199 rows average under 32 rows; over 3,200
        // rows, 32 exactly.
        assert!(auto.use_mask(100, 3_199));
        assert!(!auto.use_mask(100, 3_200));
        assert!(auto.use_mask(101, 3_200));
        // arrow-rs's edges: thresholds of 0 and 1, and no rows.
        assert!(!RowSelectionPolicy::Auto { threshold: 0 }.use_mask(5, 10));
        assert!(!RowSelectionPolicy::Auto { threshold: 1 }.use_mask(10, 10));
        assert!(!RowSelectionPolicy::Auto { threshold: 2 }.use_mask(0, 0));
        assert!(RowSelectionPolicy::Auto { threshold: 2 }.use_mask(6, 10));
        assert!(RowSelectionPolicy::Mask.use_mask(1, 1_000_000));
        assert!(!RowSelectionPolicy::Selectors.use_mask(1_000, 1_000));
    }
}
