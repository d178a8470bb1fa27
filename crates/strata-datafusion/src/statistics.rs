//! What a footer tells DataFusion's planner and pruning, read through
//! strata's [`StatisticsConverter`].
//!
//! - [`file_statistics`]: one file's row count and per-column null
//!   counts, bounds, distinct counts and sizes in memory, for the planner
//!   (`FileFormat::infer_stats`), as DataFusion's own reader states them;
//! - [`RowGroupPruningStatistics`]: the bounds, null counts and row counts
//!   of a file's row groups, as DataFusion's `PruningStatistics`, so a
//!   `PruningPredicate` can rule row groups out;
//! - [`PagePruningStatistics`]: the same of one column's data pages, from
//!   the column index, so a predicate on that column can rule pages out;
//! - [`BloomFilterStatistics`]: the row groups' Bloom filters of the
//!   columns a predicate compares with literals (`=`, `IN`), so a row
//!   group whose filter has none of the literals is ruled out.
//!
//! Bounds come as arrays of the column's Arrow type in strata's Arrow and
//! cross to DataFusion's through [`crate::bridge`]. A bound a file does
//! not state is unknown (`Absent`, or null in a pruning array), never a
//! guess; a bound the writer truncated is `Inexact`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::Array;
use arrow59::array::{ArrayRef as DfArrayRef, BooleanArray as DfBooleanArray, UInt64Array};
use arrow59::datatypes::Schema as DfSchema;
use datafusion::common::stats::Precision;
use datafusion::common::{Column, ColumnStatistics, ScalarValue, Statistics};
use datafusion::physical_optimizer::pruning::PruningStatistics;
use strata_arrow::arrow_reader::ArrowReaderMetadata;
use strata_arrow::arrow_reader::statistics::StatisticsConverter;
use strata_file::bloom::Sbbf;
use strata_file::metadata::{PageIndexProvider, RowGroupMetaData};
use strata_format::metadata::Type as PhysicalType;

use crate::bridge;

/// A strata array as DataFusion's, `None` if it cannot cross.
/// The file's column orders, for a [`StatisticsConverter`]: floats'
/// bounds are exact only under IEEE 754 total order, INT96 bounds usable
/// only under the INT96 timestamp order.
pub(crate) fn column_orders(
    metadata: &ArrowReaderMetadata,
) -> Option<&[strata_format::metadata::ColumnOrder]> {
    metadata
        .metadata()
        .file_metadata()
        .column_orders()
        .map(Vec::as_slice)
}

fn to_df(array: &dyn Array) -> Option<DfArrayRef> {
    let data_type = bridge::data_type_to_df(array.data_type()).ok()?;
    bridge::array_to_df(array, &data_type).ok()
}

/// The row groups `row_groups` of a file, as DataFusion's
/// `PruningStatistics`: one container per row group, in that order.
pub struct RowGroupPruningStatistics<'a> {
    metadata: &'a ArrowReaderMetadata,
    row_groups: &'a [usize],
}

impl<'a> RowGroupPruningStatistics<'a> {
    /// The row groups `row_groups` of the file `metadata` describes, with
    /// its columns as `metadata`'s Arrow schema types them.
    pub fn new(metadata: &'a ArrowReaderMetadata, row_groups: &'a [usize]) -> Self {
        Self {
            metadata,
            row_groups,
        }
    }

    fn groups(&self) -> impl Iterator<Item = &'a RowGroupMetaData> + use<'a> {
        let all = self.metadata.metadata().row_groups();
        self.row_groups.iter().filter_map(move |&i| all.get(i))
    }

    fn converter(&self, column: &Column) -> Option<StatisticsConverter<'a>> {
        StatisticsConverter::try_new(
            &column.name,
            self.metadata.schema(),
            self.metadata.parquet_schema(),
        )
        .ok()
        .map(|c| c.with_column_orders(column_orders(self.metadata)))
    }
}

impl PruningStatistics for RowGroupPruningStatistics<'_> {
    fn min_values(&self, column: &Column) -> Option<DfArrayRef> {
        let mins = self.converter(column)?.row_group_mins(self.groups()).ok()?;
        to_df(mins.as_ref())
    }

    fn max_values(&self, column: &Column) -> Option<DfArrayRef> {
        let maxes = self
            .converter(column)?
            .row_group_maxes(self.groups())
            .ok()?;
        to_df(maxes.as_ref())
    }

    fn num_containers(&self) -> usize {
        self.row_groups.len()
    }

    fn null_counts(&self, column: &Column) -> Option<DfArrayRef> {
        let counts = self
            .converter(column)?
            .row_group_null_counts(self.groups())
            .ok()?;
        to_df(&counts)
    }

    fn row_counts(&self) -> Option<DfArrayRef> {
        let counts: UInt64Array = self
            .groups()
            .map(|g| u64::try_from(g.num_rows()).ok())
            .collect();
        Some(Arc::new(counts))
    }

    fn contained(
        &self,
        _column: &Column,
        _values: &HashSet<ScalarValue>,
    ) -> Option<DfBooleanArray> {
        None
    }
}

/// The data pages of one column over some row groups of a file, as
/// DataFusion's `PruningStatistics`: one container per page, row group
/// after row group, as the column index lists them. Other columns are
/// unknown, so only a predicate on this column prunes with it.
pub struct PagePruningStatistics {
    column: String,
    mins: DfArrayRef,
    maxes: DfArrayRef,
    null_counts: Option<DfArrayRef>,
    row_counts: Option<DfArrayRef>,
}

impl PagePruningStatistics {
    /// The pages of `converter`'s column in `row_groups` (indices into
    /// `groups`); `None` when the file has no usable column index for it.
    pub fn try_new<'a>(
        converter: &StatisticsConverter<'a>,
        page_index: &'a dyn PageIndexProvider,
        groups: &'a [RowGroupMetaData],
        row_groups: &'a [usize],
    ) -> Option<Self> {
        let mins = to_df(
            converter
                .data_page_mins(page_index, row_groups)
                .ok()?
                .as_ref(),
        )?;
        let maxes = to_df(
            converter
                .data_page_maxes(page_index, row_groups)
                .ok()?
                .as_ref(),
        )?;
        let null_counts = converter
            .data_page_null_counts(page_index, row_groups)
            .ok()
            .and_then(|c| to_df(&c));
        let row_counts = converter
            .data_page_row_counts(page_index, groups, row_groups)
            .ok()
            .flatten()
            .and_then(|c| to_df(&c));
        if row_counts.as_ref().is_some_and(|r| r.len() != mins.len()) {
            return None;
        }
        Some(Self {
            column: converter.arrow_field().name().clone(),
            mins,
            maxes,
            null_counts,
            row_counts,
        })
    }
}

impl PruningStatistics for PagePruningStatistics {
    fn min_values(&self, column: &Column) -> Option<DfArrayRef> {
        (column.name == self.column).then(|| Arc::clone(&self.mins))
    }

    fn max_values(&self, column: &Column) -> Option<DfArrayRef> {
        (column.name == self.column).then(|| Arc::clone(&self.maxes))
    }

    fn num_containers(&self) -> usize {
        self.mins.len()
    }

    fn null_counts(&self, column: &Column) -> Option<DfArrayRef> {
        (column.name == self.column)
            .then(|| self.null_counts.clone())
            .flatten()
    }

    fn row_counts(&self) -> Option<DfArrayRef> {
        self.row_counts.clone()
    }

    fn contained(
        &self,
        _column: &Column,
        _values: &HashSet<ScalarValue>,
    ) -> Option<DfBooleanArray> {
        None
    }
}

/// One column's Bloom filters, one per row group (`None` where the row
/// group has none), with how the column stores its values.
#[derive(Debug)]
pub struct ColumnBloomFilters {
    physical_type: PhysicalType,
    type_length: i32,
    filters: Vec<Option<Sbbf>>,
}

impl ColumnBloomFilters {
    /// The filters of a column of `physical_type` (and, for
    /// `FIXED_LEN_BYTE_ARRAY`, `type_length` bytes a value).
    pub fn new(physical_type: PhysicalType, type_length: i32, filters: Vec<Option<Sbbf>>) -> Self {
        Self {
            physical_type,
            type_length,
            filters,
        }
    }
}

/// The Bloom filters of some columns over some row groups of a file, as
/// DataFusion's `PruningStatistics`: only `contained` answers; bounds and
/// counts are unknown here (the footer's statistics prune first).
#[derive(Debug)]
pub struct BloomFilterStatistics {
    containers: usize,
    columns: HashMap<String, ColumnBloomFilters>,
}

impl BloomFilterStatistics {
    /// Filters of `containers` row groups, by column name.
    pub fn new(containers: usize, columns: HashMap<String, ColumnBloomFilters>) -> Self {
        Self {
            containers,
            columns,
        }
    }
}

/// Whether `filter` may hold `value`, hashed as the column stores it;
/// `None` when the value's type does not match the column's storage (then
/// nothing is ruled out).
fn may_contain(filter: &Sbbf, value: &ScalarValue, column: &ColumnBloomFilters) -> Option<bool> {
    use PhysicalType as P;
    use ScalarValue as V;
    Some(match (value, column.physical_type) {
        (V::Boolean(Some(v)), P::Boolean) => filter.check(v),
        (V::Int8(Some(v)), P::Int32) => filter.check(&i32::from(*v)),
        (V::Int16(Some(v)), P::Int32) => filter.check(&i32::from(*v)),
        (V::Int32(Some(v)), P::Int32) => filter.check(v),
        (V::UInt8(Some(v)), P::Int32) => filter.check(&i32::from(*v)),
        (V::UInt16(Some(v)), P::Int32) => filter.check(&i32::from(*v)),
        // Unsigned 32- and 64-bit values are stored by their bits.
        (V::UInt32(Some(v)), P::Int32) => filter.check(&i32::from_ne_bytes(v.to_ne_bytes())),
        (V::Int64(Some(v)), P::Int64) => filter.check(v),
        (V::UInt64(Some(v)), P::Int64) => filter.check(&i64::from_ne_bytes(v.to_ne_bytes())),
        (V::Float32(Some(v)), P::Float) => filter.check(v),
        (V::Float64(Some(v)), P::Double) => filter.check(v),
        (V::Utf8(Some(v)) | V::LargeUtf8(Some(v)) | V::Utf8View(Some(v)), P::ByteArray) => {
            filter.check(v.as_str())
        }
        (V::Binary(Some(v)) | V::LargeBinary(Some(v)) | V::BinaryView(Some(v)), P::ByteArray) => {
            filter.check(v.as_slice())
        }
        (V::FixedSizeBinary(_, Some(v)), P::FixedLenByteArray) => filter.check(v.as_slice()),
        (V::Decimal128(Some(v), _, _), P::Int32) => filter.check(&i32::try_from(*v).ok()?),
        (V::Decimal128(Some(v), _, _), P::Int64) => filter.check(&i64::try_from(*v).ok()?),
        (V::Decimal128(Some(v), _, _), P::FixedLenByteArray) => {
            // Stored big-endian in the column's width, sign-extended.
            let bytes = v.to_be_bytes();
            let width = usize::try_from(column.type_length).ok()?;
            let start = bytes.len().checked_sub(width)?;
            filter.check(&bytes[start..])
        }
        (V::Dictionary(_, inner), _) => return may_contain(filter, inner, column),
        _ => return None,
    })
}

impl PruningStatistics for BloomFilterStatistics {
    fn min_values(&self, _column: &Column) -> Option<DfArrayRef> {
        None
    }

    fn max_values(&self, _column: &Column) -> Option<DfArrayRef> {
        None
    }

    fn num_containers(&self) -> usize {
        self.containers
    }

    fn null_counts(&self, _column: &Column) -> Option<DfArrayRef> {
        None
    }

    fn row_counts(&self) -> Option<DfArrayRef> {
        None
    }

    fn contained(&self, column: &Column, values: &HashSet<ScalarValue>) -> Option<DfBooleanArray> {
        let filters = self.columns.get(&column.name)?;
        let answers = filters.filters.iter().map(|filter| {
            let filter = filter.as_ref()?;
            // Any literal the filter may hold keeps the row group; a
            // literal whose type does not match keeps it too.
            let mut any = false;
            for value in values {
                match may_contain(filter, value, filters) {
                    Some(false) => {}
                    Some(true) | None => any = true,
                }
            }
            Some(any)
        });
        Some(answers.collect())
    }
}

/// A count from the footer as a statistic: exact when every row group
/// states it.
fn summed(counts: &arrow_array::UInt64Array) -> Precision<usize> {
    if counts.null_count() > 0 {
        return Precision::Absent;
    }
    total(
        counts
            .values()
            .iter()
            .map(|&c| i64::try_from(c).unwrap_or(-1)),
    )
    .map_or(Precision::Absent, Precision::Exact)
}

/// The sum of counts or sizes a footer states, `None` if one is negative
/// or the sum does not fit: a hostile footer's numbers are unknown, never
/// an overflow.
fn total(values: impl IntoIterator<Item = i64>) -> Option<usize> {
    values
        .into_iter()
        .try_fold(0usize, |sum, v| sum.checked_add(usize::try_from(v).ok()?))
}

/// The least or greatest of one bound over every row group, as the
/// table's type; `Absent` when a row group does not state it.
fn bound(
    values: Option<DfArrayRef>,
    exact: Option<bool>,
    want_max: bool,
    field: &arrow59::datatypes::Field,
) -> Precision<ScalarValue> {
    let Some(values) = values else {
        return Precision::Absent;
    };
    if values.is_empty() || values.null_count() > 0 {
        return Precision::Absent;
    }
    let mut best: Option<ScalarValue> = None;
    for i in 0..values.len() {
        let Ok(value) = ScalarValue::try_from_array(&values, i) else {
            return Precision::Absent;
        };
        best = Some(match best {
            None => value,
            Some(b) => {
                let better = match value.partial_cmp(&b) {
                    Some(std::cmp::Ordering::Greater) => want_max,
                    Some(std::cmp::Ordering::Less) => !want_max,
                    Some(std::cmp::Ordering::Equal) => false,
                    None => return Precision::Absent,
                };
                if better { value } else { b }
            }
        });
    }
    let Some(best) = best else {
        return Precision::Absent;
    };
    let Ok(best) = best.cast_to(field.data_type()) else {
        return Precision::Absent;
    };
    match exact {
        Some(true) => Precision::Exact(best),
        _ => Precision::Inexact(best),
    }
}

/// One file's statistics for the planner: rows, and each column of
/// `table_schema` that the file holds, from its footer.
///
/// The numbers are the ones DataFusion's own Parquet reader gives its
/// planner, so that a query plans the same with either format (the join
/// order follows them):
///
/// - the file's `total_byte_size` is unknown: its bytes on disk say little
///   about its size in memory, and each column's `byte_size` says more;
/// - a column's `byte_size` is its width times the rows for a type of
///   fixed width (exact), else the uncompressed size of its chunks (an
///   estimate);
/// - a column the file lacks reads as nulls: every row is null;
/// - a column's `distinct_count` is the greatest of the row groups' counts,
///   exact for one row group, an estimate when at least three in four row
///   groups state one, and unknown otherwise.
pub fn file_statistics(metadata: &ArrowReaderMetadata, table_schema: &DfSchema) -> Statistics {
    let groups = metadata.metadata().row_groups();
    let rows = total(groups.iter().map(RowGroupMetaData::num_rows));
    let mut statistics = Statistics::new_unknown(table_schema);
    statistics.num_rows = rows.map_or(Precision::Absent, Precision::Exact);
    for (field, column) in table_schema
        .fields()
        .iter()
        .zip(statistics.column_statistics.iter_mut())
    {
        *column = column_statistics(metadata, field, groups, rows);
    }
    statistics
}

/// The statistics of the column `field` names, over all of `groups`
/// (`rows` in all).
fn column_statistics(
    metadata: &ArrowReaderMetadata,
    field: &arrow59::datatypes::Field,
    groups: &[RowGroupMetaData],
    rows: Option<usize>,
) -> ColumnStatistics {
    let unknown = ColumnStatistics::new_unknown();
    let Ok(converter) =
        StatisticsConverter::try_new(field.name(), metadata.schema(), metadata.parquet_schema())
    else {
        return match (metadata.schema().index_of(field.name()), rows) {
            (Err(_), Some(rows)) => unknown.with_null_count(Precision::Exact(rows)),
            _ => unknown,
        };
    };
    let converter = converter.with_column_orders(column_orders(metadata));
    let all_exact = |flags: Result<arrow_array::BooleanArray, _>| {
        flags
            .ok()
            .map(|f| f.null_count() == 0 && f.values().count_set_bits() == f.len())
    };
    let null_count = converter
        .row_group_null_counts(groups)
        .map_or(Precision::Absent, |c| summed(&c));
    let min_exact = all_exact(converter.row_group_is_min_value_exact(groups));
    let max_exact = all_exact(converter.row_group_is_max_value_exact(groups));
    let mins = converter
        .row_group_mins(groups)
        .ok()
        .and_then(|a| to_df(a.as_ref()));
    let maxes = converter
        .row_group_maxes(groups)
        .ok()
        .and_then(|a| to_df(a.as_ref()));
    let leaf = converter.parquet_column_index();
    ColumnStatistics {
        null_count,
        min_value: bound(mins, min_exact, false, field),
        max_value: bound(maxes, max_exact, true, field),
        distinct_count: leaf.map_or(Precision::Absent, |leaf| distinct_count(groups, leaf)),
        byte_size: byte_size(field.data_type(), groups, leaf, rows),
        ..unknown
    }
}

/// A column's size in memory as Arrow: exact for a type of fixed width,
/// else the uncompressed size of its chunks in `groups` (leaf `leaf`).
fn byte_size(
    data_type: &arrow59::datatypes::DataType,
    groups: &[RowGroupMetaData],
    leaf: Option<usize>,
    rows: Option<usize>,
) -> Precision<usize> {
    if let (Some(width), Some(rows)) = (data_type.primitive_width(), rows) {
        return rows
            .checked_mul(width)
            .map_or(Precision::Absent, Precision::Exact);
    }
    let Some(leaf) = leaf else {
        return Precision::Absent;
    };
    let sizes = groups.iter().map(|g| {
        g.columns()
            .get(leaf)
            .map_or(-1, |chunk| chunk.uncompressed_size())
    });
    total(sizes).map_or(Precision::Absent, Precision::Inexact)
}

/// The greatest distinct count the row groups state for leaf `leaf`:
/// exact for a single row group, an estimate when at least three in four
/// row groups state one, unknown otherwise.
fn distinct_count(groups: &[RowGroupMetaData], leaf: usize) -> Precision<usize> {
    // Read from the footer's statistics as they are (no typed copy of
    // their bounds); a negative count is none.
    let counts: Vec<u64> = groups
        .iter()
        .filter_map(|g| {
            let meta = g.columns().get(leaf)?.meta_data.as_ref()?;
            u64::try_from(meta.statistics.as_ref()?.distinct_count()?).ok()
        })
        .collect();
    let Some(&greatest) = counts.iter().max() else {
        return Precision::Absent;
    };
    let Ok(greatest) = usize::try_from(greatest) else {
        return Precision::Absent;
    };
    if groups.len() == 1 {
        Precision::Exact(greatest)
    } else if counts.len() * 4 >= groups.len() * 3 {
        Precision::Inexact(greatest)
    } else {
        Precision::Absent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A footer's counts and sizes that overflow or are negative are
    /// unknown, not a panic or a wrapped number.
    #[test]
    fn hostile_totals_are_unknown() {
        assert_eq!(total([1, 2, 3]), Some(6));
        assert_eq!(total([]), Some(0));
        assert_eq!(total([i64::MAX, i64::MAX, i64::MAX]), None);
        assert_eq!(total([5, -1]), None);
        let counts = arrow_array::UInt64Array::from(vec![u64::MAX, 1]);
        assert_eq!(summed(&counts), Precision::Absent);
        let counts = arrow_array::UInt64Array::from(vec![Some(2), None]);
        assert_eq!(summed(&counts), Precision::Absent);
        let counts = arrow_array::UInt64Array::from(vec![2, 3]);
        assert_eq!(summed(&counts), Precision::Exact(5));
    }

    /// Row groups of one INT32 column `x`, each of `rows` rows with the
    /// distinct count given (none where `None`).
    fn groups(distinct: &[Option<u64>], rows: i64) -> Vec<RowGroupMetaData> {
        use strata_file::metadata::ColumnChunkMetaData;
        use strata_format::SchemaDescriptor;
        use strata_format::metadata::TypedStatistics;
        use strata_format::schema::parser::parse_message_type;
        let message = parse_message_type("message schema { required int32 x; }").unwrap();
        let schema = Arc::new(SchemaDescriptor::new(Arc::new(message)));
        distinct
            .iter()
            .map(|&d| {
                let stats = TypedStatistics::int32(Some(1), Some(9), d, Some(0), false);
                let chunk = ColumnChunkMetaData::builder(schema.column(0))
                    .set_total_uncompressed_size(rows * 5)
                    .set_statistics(stats)
                    .build()
                    .unwrap();
                RowGroupMetaData::builder(Arc::clone(&schema))
                    .set_num_rows(rows)
                    .add_column_metadata(chunk)
                    .build()
                    .unwrap()
            })
            .collect()
    }

    /// Distinct counts are exact from one row group, the greatest count an
    /// estimate when three in four row groups or more state one, and
    /// unknown below that.
    #[test]
    fn distinct_counts_as_the_planner_is_told_them() {
        assert_eq!(
            distinct_count(&groups(&[Some(7)], 10), 0),
            Precision::Exact(7)
        );
        assert_eq!(distinct_count(&groups(&[None], 10), 0), Precision::Absent);
        let three_of_four = groups(&[Some(7), Some(9), None, Some(2)], 10);
        assert_eq!(distinct_count(&three_of_four, 0), Precision::Inexact(9));
        let half = groups(&[Some(7), None, None, Some(2)], 10);
        assert_eq!(distinct_count(&half, 0), Precision::Absent);
        assert_eq!(distinct_count(&groups(&[], 10), 0), Precision::Absent);
        // A leaf past the row groups' chunks (a malformed footer).
        assert_eq!(
            distinct_count(&groups(&[Some(7)], 10), 3),
            Precision::Absent
        );
    }

    /// A column's size in memory: width times rows for a fixed width, the
    /// chunks' uncompressed bytes otherwise, unknown without a leaf or on
    /// overflow.
    #[test]
    fn byte_sizes_as_the_planner_is_told_them() {
        use arrow59::datatypes::DataType;
        let two = groups(&[None, None], 10);
        assert_eq!(
            byte_size(&DataType::Int32, &two, Some(0), Some(20)),
            Precision::Exact(80)
        );
        assert_eq!(
            byte_size(&DataType::Utf8View, &two, Some(0), Some(20)),
            Precision::Inexact(100)
        );
        assert_eq!(
            byte_size(&DataType::Utf8View, &two, None, Some(20)),
            Precision::Absent
        );
        assert_eq!(
            byte_size(&DataType::Int64, &two, Some(0), Some(usize::MAX)),
            Precision::Absent
        );
        assert_eq!(
            byte_size(&DataType::Utf8View, &two, Some(5), Some(20)),
            Precision::Absent
        );
    }
}
