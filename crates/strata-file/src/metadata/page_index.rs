//! A file's page index held with its metadata: the column index and
//! offset index of every column chunk, by row group and column, with
//! arrow-rs's names ([`PageIndexProvider`], [`PageIndex`],
//! [`RowGroupPageIndex`]).
//!
//! The offset index is strata-format's Thrift struct
//! ([`OffsetIndexMetaData`] is `OffsetIndex`); the column index is typed
//! by the chunk's physical type ([`ColumnIndexMetaData`]). Both are
//! decoded once, when the metadata is read with a page index policy that
//! loads them.

use std::any::Any;
use std::sync::Arc;

pub use super::column_index::ColumnIndexMetaData;
pub use strata_format::metadata::{OffsetIndex as OffsetIndexMetaData, PageLocation};

/// Where a [`ParquetMetaData`](super::ParquetMetaData) finds the column
/// and offset indexes of a column chunk, by row group and leaf column.
pub trait PageIndexProvider: Send + Sync + std::fmt::Debug {
    /// Whether offset indexes were loaded.
    fn has_offset_indexes(&self) -> bool;

    /// Whether column indexes were loaded.
    fn has_column_indexes(&self) -> bool;

    /// Whether both were loaded.
    fn is_complete(&self) -> bool {
        self.has_column_indexes() && self.has_offset_indexes()
    }

    /// The column index of a chunk, if loaded and written.
    fn column_index(&self, row_group_idx: usize, column_idx: usize)
    -> Option<&ColumnIndexMetaData>;

    /// The offset index of a chunk, if loaded and written.
    fn offset_index(&self, row_group_idx: usize, column_idx: usize)
    -> Option<&OffsetIndexMetaData>;

    /// Number of data pages of a chunk, from whichever index is at hand.
    fn num_data_pages(&self, row_group_idx: usize, column_idx: usize) -> Option<usize> {
        match self.offset_index(row_group_idx, column_idx) {
            Some(index) => Some(index.page_locations.len()),
            None => Some(self.column_index(row_group_idx, column_idx)?.num_pages() as usize),
        }
    }

    /// The page locations of a chunk, from its offset index.
    fn page_locations(
        &self,
        row_group_idx: usize,
        column_idx: usize,
    ) -> Option<&Vec<PageLocation>> {
        Some(&self.offset_index(row_group_idx, column_idx)?.page_locations)
    }

    /// The provider as `Any`, to get at its concrete type.
    fn as_any(&self) -> &dyn Any;
}

/// The page indexes of a file, decoded: per row group, per leaf column,
/// the chunk's index where it has one. A kind not loaded is `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageIndex {
    column_indexes: Option<Vec<Vec<Option<ColumnIndexMetaData>>>>,
    offset_indexes: Option<Vec<Vec<Option<OffsetIndexMetaData>>>>,
}

impl PageIndex {
    /// The indexes of each row group's chunks, by row group then leaf.
    pub fn new(
        column_indexes: Option<Vec<Vec<Option<ColumnIndexMetaData>>>>,
        offset_indexes: Option<Vec<Vec<Option<OffsetIndexMetaData>>>>,
    ) -> Self {
        Self {
            column_indexes,
            offset_indexes,
        }
    }
}

impl PageIndexProvider for PageIndex {
    fn has_offset_indexes(&self) -> bool {
        self.offset_indexes.is_some()
    }

    fn has_column_indexes(&self) -> bool {
        self.column_indexes.is_some()
    }

    fn column_index(
        &self,
        row_group_idx: usize,
        column_idx: usize,
    ) -> Option<&ColumnIndexMetaData> {
        self.column_indexes
            .as_ref()?
            .get(row_group_idx)?
            .get(column_idx)?
            .as_ref()
    }

    fn offset_index(
        &self,
        row_group_idx: usize,
        column_idx: usize,
    ) -> Option<&OffsetIndexMetaData> {
        self.offset_indexes
            .as_ref()?
            .get(row_group_idx)?
            .get(column_idx)?
            .as_ref()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The page index of one row group
/// ([`ParquetMetaData::page_index_for_row_group`](super::ParquetMetaData::page_index_for_row_group)).
#[derive(Debug, Clone)]
pub struct RowGroupPageIndex {
    row_group_idx: usize,
    page_index: Option<Arc<dyn PageIndexProvider>>,
}

impl RowGroupPageIndex {
    /// Row group `row_group_idx` of `page_index` (none loaded when
    /// `None`).
    pub fn new(row_group_idx: usize, page_index: Option<Arc<dyn PageIndexProvider>>) -> Self {
        Self {
            row_group_idx,
            page_index,
        }
    }

    /// The column index of leaf `column_idx`.
    pub fn column_index(&self, column_idx: usize) -> Option<&ColumnIndexMetaData> {
        self.page_index
            .as_ref()?
            .column_index(self.row_group_idx, column_idx)
    }

    /// The offset index of leaf `column_idx`.
    pub fn offset_index(&self, column_idx: usize) -> Option<&OffsetIndexMetaData> {
        self.page_index
            .as_ref()?
            .offset_index(self.row_group_idx, column_idx)
    }

    /// The page locations of leaf `column_idx`.
    pub fn page_locations(&self, column_idx: usize) -> Option<&Vec<PageLocation>> {
        self.page_index
            .as_ref()?
            .page_locations(self.row_group_idx, column_idx)
    }

    /// Number of data pages of leaf `column_idx`.
    pub fn num_data_pages(&self, column_idx: usize) -> Option<usize> {
        self.page_index
            .as_ref()?
            .num_data_pages(self.row_group_idx, column_idx)
    }
}
