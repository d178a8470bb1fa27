//! A chunk's page index entries built by hand, page by page, with
//! arrow-rs's names: [`ColumnIndexBuilder`] (bounds, null and NaN counts,
//! level histograms, to the typed [`ColumnIndexMetaData`]) and
//! [`OffsetIndexBuilder`] (page offsets, sizes and row counts, to an
//! [`OffsetIndexMetaData`]). For code that writes its own pages or makes
//! metadata without a file; strata's own writer keeps its page index as
//! it writes and does not use them.
//!
//! A column index is built through the footer's form (strata-format's
//! [`ColumnIndex`]) and typed by the same conversion the page index
//! reader uses, so a built index and one read from a file answer alike,
//! and lists of unequal lengths or bounds too short for the type are
//! errors of [`ColumnIndexBuilder::build`], never panics.

use strata_format::metadata::{BoundaryOrder, ColumnIndex, LevelHistogram, PageLocation, Type};

use super::{ColumnIndexMetaData, OffsetIndexMetaData};
use crate::error::Result;

/// Builds the column index of one chunk of `column_type` values, a page
/// at a time (as arrow-rs's `ColumnIndexBuilder`).
///
/// ```
/// use strata_file::metadata::{ColumnIndexBuilder, ColumnIndexMetaData};
/// use strata_format::metadata::{BoundaryOrder, Type};
///
/// let mut builder = ColumnIndexBuilder::new(Type::INT32);
/// builder.append(false, 1i32.to_le_bytes().to_vec(), 9i32.to_le_bytes().to_vec(), 0, None);
/// builder.append(true, vec![], vec![], 5, None);
/// builder.set_boundary_order(BoundaryOrder::ASCENDING);
/// assert!(builder.valid());
/// let ColumnIndexMetaData::INT32(index) = builder.build().unwrap() else { panic!() };
/// assert_eq!((index.min_value(0), index.max_value(0)), (Some(&1), Some(&9)));
/// assert_eq!(index.min_value(1), None);
/// assert_eq!(index.null_counts(), Some(&vec![0, 5]));
///
/// // A bound too short for its type is an error, not a panic.
/// let mut short = ColumnIndexBuilder::new(Type::INT64);
/// short.append(false, vec![1], vec![2], 0, None);
/// assert!(short.build().is_err());
/// ```
#[derive(Debug, Clone)]
pub struct ColumnIndexBuilder {
    column_type: Type,
    /// The index so far, in the footer's form; its NaN counts are set
    /// from `nan_counts` when it is built.
    index: ColumnIndex,
    null_counts: Vec<i64>,
    nan_counts: Vec<Option<i64>>,
    valid: bool,
}

impl ColumnIndexBuilder {
    /// An empty index of a chunk of `column_type` values, unordered.
    pub fn new(column_type: Type) -> Self {
        Self {
            column_type,
            index: ColumnIndex {
                null_pages: Vec::new(),
                min_values: Vec::new(),
                max_values: Vec::new(),
                boundary_order: BoundaryOrder::UNORDERED,
                null_counts: None,
                repetition_level_histograms: None,
                definition_level_histograms: None,
                nan_counts: None,
            },
            null_counts: Vec::new(),
            nan_counts: Vec::new(),
            valid: true,
        }
    }

    /// Add the next page: whether it holds only nulls, its bounds as
    /// PLAIN bytes (empty on a null page), its null count, and its NaN
    /// count (kept for `FLOAT`, `DOUBLE` and `FIXED_LEN_BYTE_ARRAY`
    /// columns when every page gives one).
    pub fn append(
        &mut self,
        null_page: bool,
        min_value: Vec<u8>,
        max_value: Vec<u8>,
        null_count: i64,
        nan_count: Option<i64>,
    ) {
        self.index.null_pages.push(null_page);
        self.index.min_values.push(min_value);
        self.index.max_values.push(max_value);
        self.null_counts.push(null_count);
        self.nan_counts.push(nan_count);
    }

    /// Add the next page's level histograms to the index's (nothing once
    /// the builder is invalid).
    pub fn append_histograms(
        &mut self,
        repetition_level_histogram: &Option<LevelHistogram>,
        definition_level_histogram: &Option<LevelHistogram>,
    ) {
        if !self.valid {
            return;
        }
        for (histogram, all) in [
            (
                repetition_level_histogram,
                &mut self.index.repetition_level_histograms,
            ),
            (
                definition_level_histogram,
                &mut self.index.definition_level_histograms,
            ),
        ] {
            if let Some(histogram) = histogram {
                all.get_or_insert_with(Vec::new)
                    .extend_from_slice(histogram.values());
            }
        }
    }

    /// The order of the pages' bounds.
    pub fn set_boundary_order(&mut self, boundary_order: BoundaryOrder) {
        self.index.boundary_order = boundary_order;
    }

    /// Mark the index as not to be written (a page without bounds).
    pub fn to_invalid(&mut self) {
        self.valid = false;
    }

    /// Whether the index is still to be written.
    pub fn valid(&self) -> bool {
        self.valid
    }

    /// The typed index. Check [`valid`](Self::valid) first: an invalid
    /// builder still builds what it was given.
    pub fn build(mut self) -> Result<ColumnIndexMetaData> {
        let may_have_nan = matches!(
            self.column_type,
            Type::FLOAT | Type::DOUBLE | Type::FIXED_LEN_BYTE_ARRAY
        );
        // The specification has NaN counts on every page or on none: a
        // page without one counts none when others have theirs.
        self.index.nan_counts = (may_have_nan && self.nan_counts.iter().any(Option::is_some))
            .then(|| self.nan_counts.iter().map(|n| n.unwrap_or(0)).collect());
        self.index.null_counts = Some(self.null_counts);
        ColumnIndexMetaData::try_from_thrift(self.column_type, self.index)
    }
}

/// Builds the offset index of one chunk, a page at a time (as arrow-rs's
/// `OffsetIndexBuilder`): each page's row count, its offset and size, and
/// for byte arrays its unencoded bytes.
///
/// ```
/// use strata_file::metadata::OffsetIndexBuilder;
///
/// let mut builder = OffsetIndexBuilder::new();
/// for (rows, offset, size) in [(100, 4, 250), (50, 254, 130)] {
///     builder.append_row_count(rows);
///     builder.append_offset_and_size(offset, size);
/// }
/// let index = builder.build();
/// let first_rows: Vec<i64> = index.page_locations().iter().map(|p| p.first_row_index).collect();
/// assert_eq!(first_rows, [0, 100]);
/// assert_eq!(index.page_locations()[1].offset, 254);
/// assert_eq!(index.unencoded_byte_array_data_bytes(), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct OffsetIndexBuilder {
    offsets_and_sizes: Vec<(i64, i32)>,
    first_rows: Vec<i64>,
    next_first_row: i64,
    unencoded_byte_array_data_bytes: Option<Vec<i64>>,
}

impl OffsetIndexBuilder {
    /// An empty offset index.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add the next page's row count (its first row follows the last
    /// page's rows).
    pub fn append_row_count(&mut self, row_count: i64) {
        self.first_rows.push(self.next_first_row);
        self.next_first_row = self.next_first_row.saturating_add(row_count);
    }

    /// Add the next page's file offset and compressed size, header
    /// included.
    pub fn append_offset_and_size(&mut self, offset: i64, compressed_page_size: i32) {
        self.offsets_and_sizes.push((offset, compressed_page_size));
    }

    /// Add the next page's unencoded byte-array bytes, where known.
    pub fn append_unencoded_byte_array_data_bytes(
        &mut self,
        unencoded_byte_array_data_bytes: Option<i64>,
    ) {
        if let Some(bytes) = unencoded_byte_array_data_bytes {
            self.unencoded_byte_array_data_bytes
                .get_or_insert_with(Vec::new)
                .push(bytes);
        }
    }

    /// The offset index: one page location per page given both a row
    /// count and an offset (the shorter list decides).
    pub fn build(self) -> OffsetIndexMetaData {
        OffsetIndexMetaData {
            page_locations: self
                .offsets_and_sizes
                .into_iter()
                .zip(self.first_rows)
                .map(
                    |((offset, compressed_page_size), first_row_index)| PageLocation {
                        offset,
                        compressed_page_size,
                        first_row_index,
                    },
                )
                .collect(),
            unencoded_byte_array_data_bytes: self.unencoded_byte_array_data_bytes,
        }
    }
}
