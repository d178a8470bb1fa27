//! Parquet statistics as Arrow arrays: [`StatisticsConverter`], at
//! arrow-rs's path (`parquet::arrow::arrow_reader::statistics`), and
//! [`StatisticsConverter::data_page_row_selection`], which turns a page
//! pruning decision into a [`RowSelection`].
//!
//! A converter is made for one Arrow field of a file's Arrow schema and
//! the Parquet leaf it reads from ([`parquet_column`]: a top-level,
//! non-nested field; [`StatisticsConverter::from_column_index`] for any
//! leaf). It answers for many row groups at once: the minimums and
//! maximums as an array of the field's own Arrow type (one entry per row
//! group from the footer's chunk statistics, or one per data page from the
//! column index), null counts, row counts and the bounds' exactness as
//! `UInt64` and `Boolean` arrays. A pruning predicate evaluated on these
//! arrays decides, vectorised, which row groups or pages can be skipped.
//!
//! How a stored bound becomes a value of the Arrow type is one table,
//! `bounds_array`, shared by the row group and the page paths; the
//! rules are arrow-rs 60.1's, so both give the same arrays:
//!
//! - A null entry means "unknown", never "the bound is null": no
//!   statistics, no bound of that kind, an all-null page, a bound that
//!   does not fit the type (an INT32 bound past an `Int8`, a string bound
//!   that is not UTF-8, a fixed-size bound of another width, a decimal
//!   wider than its Arrow type) or a type without statistics (durations,
//!   intervals, nested types).
//! - Legacy bounds: where a writer set only the deprecated `min`/`max`
//!   fields, those are the bounds ([`TypedStatistics`] picks them). They
//!   were compared as signed values whatever the type, and are taken as
//!   they are, for unsigned integers too, as arrow-rs takes them; only
//!   INT96 timestamps refuse them.
//! - Unsigned integers are stored in INT32/INT64 and reinterpreted
//!   (`UInt32` and `UInt64` bit for bit, `UInt8`/`UInt16` when in range).
//! - INT96 timestamps have bounds only when the file says their order is
//!   chronological ([`StatisticsConverter::with_column_orders`] given the
//!   footer's column orders with `INT96_TIMESTAMP_ORDER`), and both
//!   bounds convert to the Arrow unit; otherwise both are null.
//! - Float bounds (FLOAT, DOUBLE, FLOAT16) are bounds of every value,
//!   NaN included, or unknown; here strata differs from arrow-rs 60.1,
//!   which answers the stored bounds as they are. Arrow compares floats
//!   in IEEE 754 total order (`-NaN < -inf < ... < -0.0 < +0.0 < ... <
//!   +inf < +NaN`), so a pruning predicate must see NaNs and both zeros
//!   inside the bounds, but writers leave NaN out of them:
//!   - where the chunk or page counts NaNs (`nan_count` above zero), both
//!     bounds are unknown: NaNs may lie on either side;
//!   - under `IEEE_754_TOTAL_ORDER` (given by
//!     [`StatisticsConverter::with_column_orders`]) a NaN bound is a bound
//!     of a chunk of NaNs only and is kept, zeros are exact, and bounds
//!     without a NaN count are unknown (such a writer must count them);
//!   - under any other order, or without the file's orders, a NaN bound is
//!     unknown, a `+0.0` minimum reads as `-0.0` and a `-0.0` maximum as
//!     `+0.0` (a legacy writer may have written either zero), and bounds
//!     without a NaN count are taken as they are, as every reader takes
//!     them (such a writer gives no way to know of NaNs).
//! - Dictionary fields give arrays of the dictionary's value type.
//! - Exactness ([`StatisticsConverter::row_group_is_min_value_exact`]):
//!   whether the footer's bound is a value of the chunk (byte-array
//!   bounds a writer truncated are not), null without statistics.
//! - Null counts a writer left out count as zero unless
//!   [`StatisticsConverter::with_missing_null_counts_as_zero`] says
//!   otherwise.
//!
//! Nothing here panics on a file's content: a bound too short for its
//! type is unknown, and a row group or page count the file gets wrong
//! gives null entries or an error.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, UInt64Array};
//! use bytes::Bytes;
//! use strata_arrow::ArrowWriter;
//! use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
//! use strata_arrow::arrow_reader::statistics::StatisticsConverter;
//!
//! let ids: ArrayRef = Arc::new(Int64Array::from(vec![Some(3), None, Some(9)]));
//! let batch = RecordBatch::try_from_iter([("id", ids)]).unwrap();
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
//! writer.write(&batch).unwrap();
//! writer.close().unwrap();
//!
//! let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(file)).unwrap();
//! let metadata = builder.metadata();
//! let converter =
//!     StatisticsConverter::try_new("id", builder.schema(), builder.parquet_schema()).unwrap();
//! let mins = converter.row_group_mins(metadata.row_groups()).unwrap();
//! assert_eq!(mins.as_ref(), &Int64Array::from(vec![3]));
//! let maxes = converter.row_group_maxes(metadata.row_groups()).unwrap();
//! assert_eq!(maxes.as_ref(), &Int64Array::from(vec![9]));
//! let nulls = converter.row_group_null_counts(metadata.row_groups()).unwrap();
//! assert_eq!(nulls, UInt64Array::from(vec![1]));
//! ```

use std::sync::Arc;

use arrow_array::builder::FixedSizeBinaryBuilder;
use arrow_array::types::{
    Date32Type, Date64Type, Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type,
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BinaryArray, BinaryViewArray, BooleanArray,
    LargeBinaryArray, LargeStringArray, PrimitiveArray, StringArray, StringViewArray, UInt64Array,
    new_null_array,
};
use arrow_buffer::i256;
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use strata_encoding::Int96;
use strata_file::metadata::{ColumnIndexMetaData, PageIndexProvider, RowGroupMetaData};
use strata_format::SchemaDescriptor;
use strata_format::metadata::{ColumnOrder, LogicalType, Type as PhysicalType, TypedStatistics};

use super::selection::{RowSelection, RowSelector};
use crate::error::{ParquetError, Result};
use crate::schema::parquet_column;

/// Parquet statistics of one column as Arrow arrays, for pruning row
/// groups and pages (arrow-rs's `StatisticsConverter`). See the
/// [module docs](self) for how bounds convert.
#[derive(Debug)]
pub struct StatisticsConverter<'a> {
    /// The Parquet leaf the field reads from; `None` when the file lacks
    /// the field (every answer is then null).
    parquet_column_index: Option<usize>,
    /// The Arrow field, whose type the bounds take.
    arrow_field: &'a Field,
    /// Whether a null count a writer left out counts as zero.
    missing_null_counts_as_zero: bool,
    /// The leaf's physical type.
    physical_type: Option<PhysicalType>,
    /// The leaf's column order, where the caller gave the file's.
    column_order: Option<ColumnOrder>,
    /// Whether the leaf holds floats (FLOAT, DOUBLE, FLOAT16), whose
    /// bounds follow [`float_bound`].
    float_leaf: bool,
}

/// Which bound of a chunk or page.
#[derive(Debug, Clone, Copy)]
enum Side {
    Min,
    Max,
}

impl Side {
    fn pick<T>(self, min: T, max: T) -> T {
        match self {
            Side::Min => min,
            Side::Max => max,
        }
    }
}

/// One stored bound, typed by the column's physical type.
#[derive(Debug, Clone, Copy)]
enum Bound<'a> {
    Boolean(bool),
    Int32(i32),
    Int64(i64),
    /// An INT96 chunk's or page's two bounds: a timestamp bound is usable
    /// only when both convert.
    Int96 {
        min: [u32; 3],
        max: [u32; 3],
    },
    Float(f32),
    Double(f64),
    ByteArray(&'a [u8]),
    FixedLenByteArray(&'a [u8]),
}

impl<'a> StatisticsConverter<'a> {
    /// A converter for the field `column_name` of `arrow_schema`, reading
    /// the leaf [`parquet_column`] finds for it in `parquet_schema`. A
    /// field the file does not have (or a nested one) gives null
    /// statistics; a name `arrow_schema` lacks is an error.
    pub fn try_new<'b>(
        column_name: &'b str,
        arrow_schema: &'a Schema,
        parquet_schema: &'a SchemaDescriptor,
    ) -> Result<Self> {
        let Some((_, arrow_field)) = arrow_schema.column_with_name(column_name) else {
            return Err(ParquetError::ArrowError(format!(
                "Column '{column_name}' not found in schema for statistics conversion"
            )));
        };
        let parquet_index = match parquet_column(parquet_schema, arrow_schema, column_name) {
            Some((index, matched)) if matched.as_ref() == arrow_field => Some(index),
            Some((_, matched)) => {
                return Err(ParquetError::ArrowError(format!(
                    "Matched column '{matched:?}' does not match original matched column '{arrow_field:?}'"
                )));
            }
            None => None,
        };
        Ok(Self {
            parquet_column_index: parquet_index,
            arrow_field,
            missing_null_counts_as_zero: true,
            physical_type: parquet_index
                .and_then(|i| parquet_schema.columns().get(i))
                .map(|c| c.physical_type()),
            column_order: None,
            float_leaf: parquet_index
                .and_then(|i| parquet_schema.columns().get(i))
                .is_some_and(|c| holds_floats(c)),
        })
    }

    /// A converter for leaf `parquet_column_index` read as `arrow_field`
    /// (a nested field's leaf, say); the pairing is the caller's. An
    /// index past the last leaf is an error.
    pub fn from_column_index(
        parquet_column_index: usize,
        arrow_field: &'a Field,
        parquet_schema: &'a SchemaDescriptor,
    ) -> Result<Self> {
        let columns = parquet_schema.columns();
        let Some(column) = columns.get(parquet_column_index) else {
            return Err(ParquetError::ArrowError(format!(
                "Parquet column index {parquet_column_index} out of bounds, column count {}",
                columns.len()
            )));
        };
        Ok(Self {
            parquet_column_index: Some(parquet_column_index),
            arrow_field,
            missing_null_counts_as_zero: true,
            physical_type: Some(column.physical_type()),
            column_order: None,
            float_leaf: holds_floats(column),
        })
    }

    /// The Parquet leaf the field reads from, if the file has it.
    pub fn parquet_column_index(&self) -> Option<usize> {
        self.parquet_column_index
    }

    /// The Arrow field.
    pub fn arrow_field(&self) -> &'a Field {
        self.arrow_field
    }

    /// Whether a null count a writer left out counts as zero (the
    /// default) or as unknown (null).
    pub fn with_missing_null_counts_as_zero(mut self, missing_null_counts_as_zero: bool) -> Self {
        self.missing_null_counts_as_zero = missing_null_counts_as_zero;
        self
    }

    /// The file's column orders (the footer's, by leaf), of which the
    /// converter keeps its leaf's. INT96 bounds are used only under
    /// `INT96_TIMESTAMP_ORDER`; float bounds are taken as exact only under
    /// `IEEE_754_TOTAL_ORDER` (see the module docs).
    pub fn with_column_orders(mut self, column_orders: Option<&[ColumnOrder]>) -> Self {
        self.column_order = self
            .parquet_column_index
            .and_then(|i| column_orders?.get(i).copied());
        self
    }

    /// Whether the leaf's bounds may be used: INT96 bounds only under the
    /// INT96 timestamp order.
    fn bounds_usable(&self) -> bool {
        self.physical_type != Some(PhysicalType::Int96)
            || self.column_order == Some(ColumnOrder::INT96_TIMESTAMP_ORDER)
    }

    /// A stored bound as the converter answers it: float bounds through
    /// [`float_bound`], others as they are.
    fn checked_bound<'b>(
        &self,
        bound: Bound<'b>,
        side: Side,
        nans: Option<u64>,
    ) -> Option<Bound<'b>> {
        if !self.float_leaf {
            return Some(bound);
        }
        let total_order = self.column_order == Some(ColumnOrder::IEEE_754_TOTAL_ORDER);
        float_bound(bound, side, nans, total_order)
    }

    /// The leaf's chunk statistics in each row group (`None` without
    /// them, or for a row group without the leaf).
    fn chunk_statistics<I>(&self, leaf: usize, metadatas: I) -> Vec<Option<TypedStatistics>>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        metadatas
            .into_iter()
            .map(|rg| rg.columns().get(leaf)?.statistics())
            .collect()
    }

    /// One side's bounds from the row groups' chunk statistics.
    fn row_group_bounds<I>(&self, metadatas: I, side: Side) -> Result<ArrayRef>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        let data_type = self.arrow_field.data_type();
        let Some(leaf) = self.parquet_column_index else {
            return Ok(new_null_array(data_type, metadatas.into_iter().count()));
        };
        let stats = self.chunk_statistics(leaf, metadatas);
        let usable = self.bounds_usable();
        let bounds: Vec<_> = stats
            .iter()
            .map(|s| {
                let s = s.as_ref().filter(|_| usable)?;
                let bound = chunk_bound(s, side)?;
                self.checked_bound(bound, side, s.nan_count_opt())
            })
            .collect();
        bounds_array(data_type, &bounds, side)
    }

    /// The minimum of each row group's chunk, as the field's Arrow type;
    /// null where unknown.
    pub fn row_group_mins<I>(&self, metadatas: I) -> Result<ArrayRef>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        self.row_group_bounds(metadatas, Side::Min)
    }

    /// The maximum of each row group's chunk, as the field's Arrow type;
    /// null where unknown.
    pub fn row_group_maxes<I>(&self, metadatas: I) -> Result<ArrayRef>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        self.row_group_bounds(metadatas, Side::Max)
    }

    /// One fact of each row group's chunk statistics; null without them.
    fn per_row_group<I, T>(
        &self,
        metadatas: I,
        fact: impl Fn(&TypedStatistics) -> Option<T>,
    ) -> Vec<Option<T>>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        match self.parquet_column_index {
            None => metadatas.into_iter().map(|_| None).collect(),
            Some(leaf) => self
                .chunk_statistics(leaf, metadatas)
                .iter()
                .map(|s| fact(s.as_ref()?))
                .collect(),
        }
    }

    /// Whether each row group's minimum is a value of the chunk (not a
    /// truncated bound); null without statistics.
    pub fn row_group_is_min_value_exact<I>(&self, metadatas: I) -> Result<BooleanArray>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        let exact = self.per_row_group(metadatas, |s| Some(s.min_is_exact()));
        Ok(BooleanArray::from(exact))
    }

    /// Whether each row group's maximum is a value of the chunk (not a
    /// truncated bound); null without statistics.
    pub fn row_group_is_max_value_exact<I>(&self, metadatas: I) -> Result<BooleanArray>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        let exact = self.per_row_group(metadatas, |s| Some(s.max_is_exact()));
        Ok(BooleanArray::from(exact))
    }

    /// The nulls in each row group's chunk; null without statistics (and,
    /// unless counted as zero, where the writer left the count out).
    pub fn row_group_null_counts<I>(&self, metadatas: I) -> Result<UInt64Array>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        let as_zero = self.missing_null_counts_as_zero;
        let counts = self.per_row_group(metadatas, |s| match s.null_count_opt() {
            None if as_zero => Some(0),
            count => count,
        });
        Ok(UInt64Array::from(counts))
    }

    /// The NaNs in each row group's chunk (floating point columns), where
    /// the writer counted them.
    pub fn row_group_nan_counts<I>(&self, metadatas: I) -> Result<UInt64Array>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        Ok(UInt64Array::from(
            self.per_row_group(metadatas, TypedStatistics::nan_count_opt),
        ))
    }

    /// The distinct values in each row group's chunk, where the writer
    /// counted them.
    pub fn row_group_distinct_counts<I>(&self, metadatas: I) -> Result<UInt64Array>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        Ok(UInt64Array::from(self.per_row_group(
            metadatas,
            TypedStatistics::distinct_count_opt,
        )))
    }

    /// The rows of each row group; `None` when the file lacks the field.
    /// A negative count is an error.
    pub fn row_group_row_counts<I>(&self, metadatas: I) -> Result<Option<UInt64Array>>
    where
        I: IntoIterator<Item = &'a RowGroupMetaData>,
    {
        if self.parquet_column_index.is_none() {
            return Ok(None);
        }
        let counts = metadatas
            .into_iter()
            .map(|rg| {
                let rows = rg.num_rows();
                u64::try_from(rows).map_err(|e| {
                    ParquetError::ArrowError(format!(
                        "Parquet row count {rows} too large to convert to u64: {e}"
                    ))
                })
            })
            .collect::<Result<Vec<u64>>>()?;
        Ok(Some(UInt64Array::from(counts)))
    }

    /// Per row group, the number of data pages the indexes give the leaf
    /// (the offset index's, else the column index's) and its column
    /// index where the bounds are usable.
    fn page_chunks<'p, I>(
        &self,
        leaf: usize,
        page_index: &'p dyn PageIndexProvider,
        row_group_indices: I,
    ) -> Vec<(usize, Option<&'p ColumnIndexMetaData>)>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        row_group_indices
            .into_iter()
            .map(|&rg| {
                let pages = page_index.num_data_pages(rg, leaf).unwrap_or(0);
                (pages, page_index.column_index(rg, leaf))
            })
            .collect()
    }

    /// One side's bounds of every data page of the given row groups.
    fn data_page_bounds<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_indices: I,
        side: Side,
    ) -> Result<ArrayRef>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        let data_type = self.arrow_field.data_type();
        let (Some(leaf), Some(_)) = (self.parquet_column_index, self.physical_type) else {
            return Ok(new_null_array(
                data_type,
                row_group_indices.into_iter().count(),
            ));
        };
        let usable = self.bounds_usable();
        let mut bounds = Vec::new();
        for (pages, index) in self.page_chunks(leaf, page_index, row_group_indices) {
            match index.filter(|_| usable) {
                Some(index) => bounds.extend((0..index.num_pages() as usize).map(|p| {
                    let nans = index.nan_count(p).map(|n| n as u64);
                    self.checked_bound(page_bound(index, p, side)?, side, nans)
                })),
                None => bounds.resize(bounds.len() + pages, None),
            }
        }
        bounds_array(data_type, &bounds, side)
    }

    /// The minimum of every data page of the given row groups (from the
    /// column index), as the field's Arrow type; null where unknown, and
    /// one null per page for a row group without a column index.
    pub fn data_page_mins<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_indices: I,
    ) -> Result<ArrayRef>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        self.data_page_bounds(page_index, row_group_indices, Side::Min)
    }

    /// The maximum of every data page of the given row groups; see
    /// [`data_page_mins`](Self::data_page_mins).
    pub fn data_page_maxes<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_indices: I,
    ) -> Result<ArrayRef>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        self.data_page_bounds(page_index, row_group_indices, Side::Max)
    }

    /// One count of the column index for every data page of the given
    /// row groups; without the field, one null per row group.
    fn data_page_counts<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_indices: I,
        counts: impl Fn(&ColumnIndexMetaData) -> Option<&Vec<i64>>,
    ) -> UInt64Array
    where
        I: IntoIterator<Item = &'a usize>,
    {
        let Some(leaf) = self.parquet_column_index else {
            return UInt64Array::new_null(row_group_indices.into_iter().count());
        };
        let mut out = Vec::new();
        for (pages, index) in self.page_chunks(leaf, page_index, row_group_indices) {
            match index.and_then(&counts) {
                // Counts are non-negative; a negative one reads as arrow-rs
                // reads it, reinterpreted.
                Some(counts) => out.extend(counts.iter().map(|&c| Some(c as u64))),
                None => out.resize(out.len() + pages, None),
            }
        }
        UInt64Array::from(out)
    }

    /// The nulls of every data page of the given row groups (from the
    /// column index); null where the index has no counts.
    pub fn data_page_null_counts<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_indices: I,
    ) -> Result<UInt64Array>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        Ok(self.data_page_counts(page_index, row_group_indices, |i| i.null_counts()))
    }

    /// The NaNs of every data page of the given row groups (from the
    /// column index); null where the index has no counts.
    pub fn data_page_nan_counts<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_indices: I,
    ) -> Result<UInt64Array>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        Ok(self.data_page_counts(page_index, row_group_indices, |i| i.nan_counts()))
    }

    /// The rows of every data page of the given row groups (from the
    /// offset index); `None` when the file lacks the field. A row group
    /// without an offset index gives one null per page of its column
    /// index, so the array lines up with
    /// [`data_page_mins`](Self::data_page_mins).
    pub fn data_page_row_counts<I>(
        &self,
        page_index: &dyn PageIndexProvider,
        row_group_metadatas: &'a [RowGroupMetaData],
        row_group_indices: I,
    ) -> Result<Option<UInt64Array>>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        let Some(leaf) = self.parquet_column_index else {
            return Ok(None);
        };
        let mut counts = Vec::new();
        for &rg in row_group_indices {
            match page_rows(page_index, row_group_metadatas, rg, leaf)? {
                PageRows::Counted(rows) => counts.extend(rows.into_iter().map(Some)),
                PageRows::Uncounted(pages) => counts.resize(counts.len() + pages, None),
            }
        }
        Ok(Some(UInt64Array::from(counts)))
    }

    /// The rows of the data pages `keep` marks, as a [`RowSelection`] over
    /// the given row groups in order (strata's own; arrow-rs 60.1 has no
    /// such helper).
    ///
    /// `keep` has one entry per data page, lined up with
    /// [`data_page_mins`](Self::data_page_mins) and
    /// [`data_page_row_counts`](Self::data_page_row_counts) for the same
    /// row groups: true (or null, unknown) to read the page's rows, false
    /// to skip them. A row group without an offset index is read whole.
    /// Pass the same row groups to
    /// [`with_row_groups`](super::ArrowReaderBuilder::with_row_groups)
    /// with the selection. Without the field, every row is selected; a
    /// `keep` of the wrong length is an error.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch};
    /// use arrow_array::cast::AsArray;
    /// use arrow_array::types::Int64Type;
    /// use bytes::Bytes;
    /// use strata_arrow::ArrowWriter;
    /// use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    /// use strata_arrow::arrow_reader::statistics::StatisticsConverter;
    /// use strata_file::properties::WriterProperties;
    ///
    /// // 1,000 sorted keys, 100 rows a page.
    /// let keys: ArrayRef = Arc::new(Int64Array::from_iter_values(0..1000));
    /// let batch = RecordBatch::try_from_iter([("key", keys)]).unwrap();
    /// let props = WriterProperties::builder()
    ///     .set_data_page_row_count_limit(100)
    ///     .set_write_batch_size(100)
    ///     .build();
    /// let mut file = Vec::new();
    /// let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).unwrap();
    /// writer.write(&batch).unwrap();
    /// writer.close().unwrap();
    ///
    /// let options = ArrowReaderOptions::new().with_page_index(true);
    /// let builder =
    ///     ParquetRecordBatchReaderBuilder::try_new_with_options(Bytes::from(file), options)
    ///         .unwrap();
    /// let metadata = builder.metadata().clone();
    /// let converter =
    ///     StatisticsConverter::try_new("key", builder.schema(), builder.parquet_schema())
    ///         .unwrap();
    /// let page_index = metadata.page_index().unwrap().as_ref();
    /// let row_groups = [0];
    /// // Keep the pages that may hold keys in 250..=420.
    /// let mins = converter.data_page_mins(page_index, &row_groups).unwrap();
    /// let maxes = converter.data_page_maxes(page_index, &row_groups).unwrap();
    /// let (mins, maxes) = (mins.as_primitive::<Int64Type>(), maxes.as_primitive::<Int64Type>());
    /// let keep = (0..mins.len())
    ///     .map(|p| Some(mins.value(p) <= 420 && maxes.value(p) >= 250))
    ///     .collect();
    /// let selection = converter
    ///     .data_page_row_selection(&keep, page_index, metadata.row_groups(), &row_groups)
    ///     .unwrap();
    /// assert_eq!(selection.row_count(), 300); // pages 2, 3 and 4
    ///
    /// let rows: usize = builder
    ///     .with_row_groups(row_groups.to_vec())
    ///     .with_row_selection(selection)
    ///     .build()
    ///     .unwrap()
    ///     .map(|batch| batch.unwrap().num_rows())
    ///     .sum();
    /// assert_eq!(rows, 300);
    /// ```
    pub fn data_page_row_selection<I>(
        &self,
        keep: &BooleanArray,
        page_index: &dyn PageIndexProvider,
        row_group_metadatas: &'a [RowGroupMetaData],
        row_group_indices: I,
    ) -> Result<RowSelection>
    where
        I: IntoIterator<Item = &'a usize>,
    {
        let mut selectors = Vec::new();
        let mut page = 0;
        for &rg in row_group_indices {
            let rows = group_rows(row_group_metadatas, rg)?;
            let Some(leaf) = self.parquet_column_index else {
                selectors.push(RowSelector::select(rows));
                continue;
            };
            match page_rows(page_index, row_group_metadatas, rg, leaf)? {
                PageRows::Counted(page_rows) => {
                    for count in page_rows {
                        let count = usize::try_from(count)
                            .map_err(|_| ParquetError::General("page row count".into()))?;
                        let read = page >= keep.len() || keep.is_null(page) || keep.value(page);
                        selectors.push(match read {
                            true => RowSelector::select(count),
                            false => RowSelector::skip(count),
                        });
                        page += 1;
                    }
                }
                PageRows::Uncounted(pages) => {
                    selectors.push(RowSelector::select(rows));
                    page += pages;
                }
            }
        }
        if self.parquet_column_index.is_some() && page != keep.len() {
            return Err(ParquetError::General(format!(
                "{} page decisions for {page} data pages",
                keep.len()
            )));
        }
        Ok(RowSelection::from(selectors))
    }
}

/// The rows of row group `rg`.
fn group_rows(row_groups: &[RowGroupMetaData], rg: usize) -> Result<usize> {
    let group = row_groups
        .get(rg)
        .ok_or(ParquetError::IndexOutOfBound(rg, row_groups.len()))?;
    usize::try_from(group.num_rows())
        .map_err(|_| ParquetError::General(format!("row group {rg} has {} rows", group.num_rows())))
}

/// The rows of a column chunk's data pages.
enum PageRows {
    /// From the offset index: one count per page.
    Counted(Vec<u64>),
    /// No offset index: this many pages (the column index's), of unknown
    /// rows.
    Uncounted(usize),
}

/// The rows of each data page of leaf `leaf` in row group `rg`: the gaps
/// between the offset index's first rows, and the rest of the row group
/// for the last page.
fn page_rows(
    page_index: &dyn PageIndexProvider,
    row_groups: &[RowGroupMetaData],
    rg: usize,
    leaf: usize,
) -> Result<PageRows> {
    let Some(offset_index) = page_index.offset_index(rg, leaf) else {
        let pages = page_index
            .column_index(rg, leaf)
            .map_or(0, |index| index.num_pages() as usize);
        return Ok(PageRows::Uncounted(pages));
    };
    let rows = row_groups
        .get(rg)
        .ok_or(ParquetError::IndexOutOfBound(rg, row_groups.len()))?
        .num_rows();
    let starts: Vec<i64> = offset_index
        .page_locations
        .iter()
        .map(|l| l.first_row_index)
        .chain(std::iter::once(rows))
        .collect();
    // A file whose first rows run backwards gives wrapped counts, as
    // arrow-rs's do; never a panic.
    Ok(PageRows::Counted(
        starts
            .windows(2)
            .map(|w| (w[1] as u64).wrapping_sub(w[0] as u64))
            .collect(),
    ))
}

/// One side's bound of a chunk's statistics. INT96 bounds only from the
/// current fields (the deprecated ones were ordered as signed integers).
fn chunk_bound(stats: &TypedStatistics, side: Side) -> Option<Bound<'_>> {
    Some(match stats {
        TypedStatistics::Boolean(s) => Bound::Boolean(*side.pick(s.min_opt(), s.max_opt())?),
        TypedStatistics::Int32(s) => Bound::Int32(*side.pick(s.min_opt(), s.max_opt())?),
        TypedStatistics::Int64(s) => Bound::Int64(*side.pick(s.min_opt(), s.max_opt())?),
        TypedStatistics::Int96(s) if !stats.is_min_max_deprecated() => Bound::Int96 {
            min: *s.min_opt()?,
            max: *s.max_opt()?,
        },
        TypedStatistics::Int96(_) => return None,
        TypedStatistics::Float(s) => Bound::Float(*side.pick(s.min_opt(), s.max_opt())?),
        TypedStatistics::Double(s) => Bound::Double(*side.pick(s.min_opt(), s.max_opt())?),
        TypedStatistics::ByteArray(s) => Bound::ByteArray(side.pick(s.min_opt(), s.max_opt())?),
        TypedStatistics::FixedLenByteArray(s) => {
            Bound::FixedLenByteArray(side.pick(s.min_opt(), s.max_opt())?)
        }
    })
}

/// One side's bound of page `page` of a column index; `None` for an
/// all-null page or a page past the index's.
fn page_bound(index: &ColumnIndexMetaData, page: usize, side: Side) -> Option<Bound<'_>> {
    use ColumnIndexMetaData as I;
    Some(match index {
        I::BOOLEAN(i) => Bound::Boolean(*side.pick(i.min_value(page), i.max_value(page))?),
        I::INT32(i) => Bound::Int32(*side.pick(i.min_value(page), i.max_value(page))?),
        I::INT64(i) => Bound::Int64(*side.pick(i.min_value(page), i.max_value(page))?),
        I::INT96(i) => Bound::Int96 {
            min: i.min_value(page)?.0,
            max: i.max_value(page)?.0,
        },
        I::FLOAT(i) => Bound::Float(*side.pick(i.min_value(page), i.max_value(page))?),
        I::DOUBLE(i) => Bound::Double(*side.pick(i.min_value(page), i.max_value(page))?),
        I::BYTE_ARRAY(i) => Bound::ByteArray(side.pick(i.min_value(page), i.max_value(page))?),
        I::FIXED_LEN_BYTE_ARRAY(i) => {
            Bound::FixedLenByteArray(side.pick(i.min_value(page), i.max_value(page))?)
        }
    })
}

/// Whether a leaf holds floating point values: FLOAT, DOUBLE, or FLOAT16
/// in a 2-byte FIXED_LEN_BYTE_ARRAY.
fn holds_floats(column: &strata_format::ColumnDescriptor) -> bool {
    match column.physical_type() {
        PhysicalType::Float | PhysicalType::Double => true,
        PhysicalType::FixedLenByteArray => {
            matches!(column.logical_type_ref(), Some(LogicalType::Float16))
        }
        _ => false,
    }
}

/// A float bound as the converter answers it, given the NaN count of its
/// chunk or page and whether the column order is IEEE 754 total order
/// (the rules are in the module docs): `None` where the values may lie
/// outside it, a zero widened to the other zero under the legacy order.
fn float_bound(
    bound: Bound<'_>,
    side: Side,
    nans: Option<u64>,
    total_order: bool,
) -> Option<Bound<'_>> {
    const F16_NEG_ZERO: &[u8] = &[0x00, 0x80];
    const F16_POS_ZERO: &[u8] = &[0x00, 0x00];
    let (nan, zero) = match bound {
        Bound::Float(v) => (v.is_nan(), v == 0.0),
        Bound::Double(v) => (v.is_nan(), v == 0.0),
        Bound::FixedLenByteArray(&[lo, hi]) => {
            let bits = u16::from_le_bytes([lo, hi]);
            (
                bits & 0x7C00 == 0x7C00 && bits & 0x03FF != 0,
                bits & 0x7FFF == 0,
            )
        }
        // Not a float bound (a FLOAT16 bound of another width is refused
        // where it is converted).
        other => return Some(other),
    };
    if nan {
        // Under total order a NaN bound is the least or greatest NaN of a
        // chunk of NaNs only; other orders leave NaN out of the bounds.
        return total_order.then_some(bound);
    }
    match nans {
        Some(0) => {}
        // Without a count, NaNs are unknown; the legacy order never had
        // one, so its bounds are taken as they are.
        None if !total_order => {}
        // NaNs lie outside the bounds, on either side as their sign says.
        _ => return None,
    }
    if !zero || total_order {
        return Some(bound);
    }
    Some(match (bound, side) {
        (Bound::Float(_), Side::Min) => Bound::Float(-0.0),
        (Bound::Float(_), Side::Max) => Bound::Float(0.0),
        (Bound::Double(_), Side::Min) => Bound::Double(-0.0),
        (Bound::Double(_), Side::Max) => Bound::Double(0.0),
        (_, Side::Min) => Bound::FixedLenByteArray(F16_NEG_ZERO),
        (_, Side::Max) => Bound::FixedLenByteArray(F16_POS_ZERO),
    })
}

/// Both bounds of an INT96 timestamp in `unit`, or neither: a bound whose
/// time of day is out of range, or that overflows the unit, makes both
/// unknown.
fn int96_bounds(min: [u32; 3], max: [u32; 3], unit: TimeUnit) -> Option<(i64, i64)> {
    const NANOS_PER_DAY: u64 = 86_400_000_000_000;
    let per_unit: u64 = match unit {
        TimeUnit::Second => 1_000_000_000,
        TimeUnit::Millisecond => 1_000_000,
        TimeUnit::Microsecond => 1_000,
        TimeUnit::Nanosecond => 1,
    };
    let convert = |words: [u32; 3]| {
        let nanos = (u64::from(words[1]) << 32) | u64::from(words[0]);
        if nanos >= NANOS_PER_DAY {
            return None;
        }
        let mut value = Int96::new();
        value.set_data(words[0], words[1], words[2]);
        let units = i128::from(value.to_seconds()) * i128::from(1_000_000_000 / per_unit)
            + i128::from((nanos % 1_000_000_000) / per_unit);
        i64::try_from(units).ok()
    };
    Some((convert(min)?, convert(max)?))
}

/// The low `N` bytes of a big-endian two's complement integer, sign
/// extended; `None` for an empty one or one wider than `N`.
fn sign_extended<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    let first = *b.first()?;
    let pad = N.checked_sub(b.len())?;
    let mut out = [if first & 0x80 != 0 { 0xFF } else { 0 }; N];
    out[pad..].copy_from_slice(b);
    Some(out)
}

fn int32(b: Bound<'_>) -> Option<i32> {
    match b {
        Bound::Int32(v) => Some(v),
        _ => None,
    }
}

fn int64(b: Bound<'_>) -> Option<i64> {
    match b {
        Bound::Int64(v) => Some(v),
        _ => None,
    }
}

/// A string bound: a byte array that is UTF-8.
fn utf8(b: Bound<'_>) -> Option<&str> {
    match b {
        Bound::ByteArray(v) => std::str::from_utf8(v).ok(),
        _ => None,
    }
}

/// A binary bound: a byte array (not a fixed-length one).
fn binary(b: Bound<'_>) -> Option<&[u8]> {
    match b {
        Bound::ByteArray(v) => Some(v),
        _ => None,
    }
}

/// A decimal bound as `N` big-endian bytes, from any of the decimals'
/// physical types: integers widened, or narrowed when they fit.
fn decimal<const N: usize>(b: Bound<'_>) -> Option<[u8; N]> {
    let value = match b {
        Bound::Int32(v) => i128::from(v),
        Bound::Int64(v) => i128::from(v),
        Bound::ByteArray(v) | Bound::FixedLenByteArray(v) => return sign_extended(v),
        _ => return None,
    };
    let bytes = value.to_be_bytes();
    let keep = N.min(bytes.len());
    let (dropped, kept) = bytes.split_at(bytes.len() - keep);
    let sign = if value < 0 { 0xFF } else { 0 };
    let fits = dropped.iter().all(|&x| x == sign)
        && kept
            .first()
            .is_some_and(|&x| (x & 0x80 != 0) == (value < 0));
    if !fits {
        return None;
    }
    sign_extended(kept)
}

/// An array of `T` from the bounds, each converted by `f`.
fn primitive<T: ArrowPrimitiveType>(
    bounds: &[Option<Bound<'_>>],
    f: impl Fn(Bound<'_>) -> Option<T::Native>,
) -> PrimitiveArray<T> {
    bounds.iter().map(|b| b.and_then(&f)).collect()
}

/// The bounds as an array of `data_type`: the one table of which stored
/// bounds each Arrow type takes and how (see the module docs).
fn bounds_array(
    data_type: &DataType,
    bounds: &[Option<Bound<'_>>],
    side: Side,
) -> Result<ArrayRef> {
    use DataType as D;
    let values = || bounds.iter().copied();
    Ok(match data_type {
        D::Boolean => Arc::new(
            values()
                .map(|b| match b? {
                    Bound::Boolean(v) => Some(v),
                    _ => None,
                })
                .collect::<BooleanArray>(),
        ),
        D::Int8 => Arc::new(primitive::<Int8Type>(bounds, |b| {
            i8::try_from(int32(b)?).ok()
        })),
        D::Int16 => Arc::new(primitive::<Int16Type>(bounds, |b| {
            i16::try_from(int32(b)?).ok()
        })),
        D::Int32 => Arc::new(primitive::<Int32Type>(bounds, int32)),
        D::Int64 => Arc::new(primitive::<Int64Type>(bounds, int64)),
        D::UInt8 => Arc::new(primitive::<UInt8Type>(bounds, |b| {
            u8::try_from(int32(b)?).ok()
        })),
        D::UInt16 => Arc::new(primitive::<UInt16Type>(bounds, |b| {
            u16::try_from(int32(b)?).ok()
        })),
        // Unsigned 32- and 64-bit values are stored bit for bit.
        D::UInt32 => Arc::new(primitive::<UInt32Type>(bounds, |b| Some(int32(b)? as u32))),
        D::UInt64 => Arc::new(primitive::<UInt64Type>(bounds, |b| Some(int64(b)? as u64))),
        D::Float16 => Arc::new(primitive::<Float16Type>(bounds, |b| match b {
            Bound::FixedLenByteArray(&[lo, hi]) => Some(half::f16::from_le_bytes([lo, hi])),
            _ => None,
        })),
        D::Float32 => Arc::new(primitive::<Float32Type>(bounds, |b| match b {
            Bound::Float(v) => Some(v),
            _ => None,
        })),
        D::Float64 => Arc::new(primitive::<Float64Type>(bounds, |b| match b {
            Bound::Double(v) => Some(v),
            _ => None,
        })),
        D::Date32 => Arc::new(primitive::<Date32Type>(bounds, int32)),
        D::Date64 => Arc::new(primitive::<Date64Type>(bounds, |b| match b {
            Bound::Int32(days) => Some(i64::from(days) * 86_400_000),
            Bound::Int64(millis) => Some(millis),
            _ => None,
        })),
        D::Timestamp(unit, zone) => {
            let instant = |b: Bound<'_>| match b {
                Bound::Int64(v) => Some(v),
                Bound::Int96 { min, max } => {
                    let (min, max) = int96_bounds(min, max, *unit)?;
                    Some(side.pick(min, max))
                }
                _ => None,
            };
            let zone = zone.clone();
            match unit {
                TimeUnit::Second => Arc::new(
                    primitive::<TimestampSecondType>(bounds, instant).with_timezone_opt(zone),
                ),
                TimeUnit::Millisecond => Arc::new(
                    primitive::<TimestampMillisecondType>(bounds, instant).with_timezone_opt(zone),
                ),
                TimeUnit::Microsecond => Arc::new(
                    primitive::<TimestampMicrosecondType>(bounds, instant).with_timezone_opt(zone),
                ),
                TimeUnit::Nanosecond => Arc::new(
                    primitive::<TimestampNanosecondType>(bounds, instant).with_timezone_opt(zone),
                ),
            }
        }
        D::Time32(TimeUnit::Second) => Arc::new(primitive::<Time32SecondType>(bounds, int32)),
        D::Time32(TimeUnit::Millisecond) => {
            Arc::new(primitive::<Time32MillisecondType>(bounds, int32))
        }
        D::Time64(TimeUnit::Microsecond) => {
            Arc::new(primitive::<Time64MicrosecondType>(bounds, int64))
        }
        D::Time64(TimeUnit::Nanosecond) => {
            Arc::new(primitive::<Time64NanosecondType>(bounds, int64))
        }
        D::Decimal32(p, s) => Arc::new(
            primitive::<Decimal32Type>(bounds, |b| Some(i32::from_be_bytes(decimal(b)?)))
                .with_precision_and_scale(*p, *s)?,
        ),
        D::Decimal64(p, s) => Arc::new(
            primitive::<Decimal64Type>(bounds, |b| Some(i64::from_be_bytes(decimal(b)?)))
                .with_precision_and_scale(*p, *s)?,
        ),
        D::Decimal128(p, s) => Arc::new(
            primitive::<Decimal128Type>(bounds, |b| Some(i128::from_be_bytes(decimal(b)?)))
                .with_precision_and_scale(*p, *s)?,
        ),
        D::Decimal256(p, s) => Arc::new(
            primitive::<Decimal256Type>(bounds, |b| Some(i256::from_be_bytes(decimal(b)?)))
                .with_precision_and_scale(*p, *s)?,
        ),
        D::Utf8 => Arc::new(values().map(|b| utf8(b?)).collect::<StringArray>()),
        D::LargeUtf8 => Arc::new(values().map(|b| utf8(b?)).collect::<LargeStringArray>()),
        D::Utf8View => Arc::new(values().map(|b| utf8(b?)).collect::<StringViewArray>()),
        D::Binary => Arc::new(values().map(|b| binary(b?)).collect::<BinaryArray>()),
        D::LargeBinary => Arc::new(values().map(|b| binary(b?)).collect::<LargeBinaryArray>()),
        D::BinaryView => Arc::new(values().map(|b| binary(b?)).collect::<BinaryViewArray>()),
        D::FixedSizeBinary(size) => {
            let width = usize::try_from(*size)
                .map_err(|_| ParquetError::General(format!("FixedSizeBinary({size})")))?;
            let mut builder = FixedSizeBinaryBuilder::with_capacity(bounds.len(), *size);
            for b in values() {
                match b {
                    Some(Bound::FixedLenByteArray(v)) if v.len() == width => {
                        builder.append_value(v)?
                    }
                    _ => builder.append_null(),
                }
            }
            Arc::new(builder.finish())
        }
        D::Dictionary(_, value_type) => return bounds_array(value_type, bounds, side),
        // Other time units, durations, intervals, nested types: no
        // statistics.
        other => new_null_array(other, bounds.len()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_take_every_physical_type_and_refuse_what_does_not_fit() {
        assert_eq!(decimal::<4>(Bound::Int32(-5)), Some((-5i32).to_be_bytes()));
        assert_eq!(decimal::<4>(Bound::Int64(1 << 40)), None);
        assert_eq!(
            decimal::<4>(Bound::Int64(-(1 << 31))),
            Some(i32::MIN.to_be_bytes())
        );
        assert_eq!(
            decimal::<8>(Bound::Int64(i64::MIN)),
            Some(i64::MIN.to_be_bytes())
        );
        assert_eq!(
            decimal::<16>(Bound::Int32(-1)),
            Some((-1i128).to_be_bytes())
        );
        assert_eq!(
            decimal::<32>(Bound::Int64(-2)),
            Some(i256::from_i128(-2).to_be_bytes())
        );
        assert_eq!(
            decimal::<8>(Bound::FixedLenByteArray(&[0xFF, 0x00])),
            Some((-256i64).to_be_bytes())
        );
        assert_eq!(decimal::<4>(Bound::ByteArray(&[1, 2, 3, 4, 5])), None);
        assert_eq!(decimal::<4>(Bound::ByteArray(&[])), None);
        assert_eq!(decimal::<4>(Bound::Double(1.0)), None);
    }

    #[test]
    fn page_bounds_of_null_pages_and_past_the_last_page_are_unknown() {
        let thrift = strata_format::metadata::ColumnIndex {
            null_pages: vec![false, false, true],
            min_values: vec![vec![1, 0, 0, 0], 7i32.to_le_bytes().to_vec(), Vec::new()],
            max_values: vec![vec![1, 0, 0, 0, 9], 9i32.to_le_bytes().to_vec(), Vec::new()],
            boundary_order: strata_format::metadata::BoundaryOrder::Unordered,
            null_counts: None,
            repetition_level_histograms: None,
            definition_level_histograms: None,
            nan_counts: None,
        };
        let index = ColumnIndexMetaData::try_from_thrift(PhysicalType::Int32, thrift).unwrap();
        let bounds: Vec<_> = (0..4).map(|p| page_bound(&index, p, Side::Max)).collect();
        let array = bounds_array(&DataType::Int32, &bounds, Side::Max).unwrap();
        assert_eq!(
            array.as_ref(),
            &arrow_array::Int32Array::from(vec![Some(1), Some(9), None, None])
        );
        let mins: Vec<_> = (0..3).map(|p| page_bound(&index, p, Side::Min)).collect();
        let array = bounds_array(&DataType::Int32, &mins, Side::Min).unwrap();
        assert_eq!(
            array.as_ref(),
            &arrow_array::Int32Array::from(vec![Some(1), Some(7), None])
        );
    }

    #[test]
    fn int96_bounds_need_both_and_a_time_of_day_in_range() {
        // Day 2440588 is the epoch; one second into it.
        let one_second = [1_000_000_000, 0, 2_440_588];
        assert_eq!(
            int96_bounds(one_second, one_second, TimeUnit::Millisecond),
            Some((1000, 1000))
        );
        let bad = [u32::MAX, u32::MAX, 2_440_588];
        assert_eq!(int96_bounds(one_second, bad, TimeUnit::Second), None);
    }
}
