//! [`ColumnChunkMask`]: which column chunks (row group × leaf column) a
//! reader loads the page index of, with arrow-rs's names.
//!
//! A reader of a wide file that reads a few columns needs the page index
//! of those columns only; the mask says which, and the metadata reader
//! neither reads nor decodes the indexes of the other chunks (they read
//! as absent). Indexes are kept sorted and deduplicated, so membership is
//! a binary search.

use std::collections::BTreeSet;
use std::sync::Arc;

/// A set of column chunks, by row group and leaf column (the position in
/// `SchemaDescriptor::columns()`): every chunk, a slice of columns, a
/// slice of row groups, or both.
///
/// ```
/// use strata_file::metadata::ColumnChunkMask;
///
/// let mask = ColumnChunkMask::row_groups_and_columns([0, 2], [3, 1, 3]);
/// assert!(mask.includes_row_group(2, 3) && !mask.includes_row_group(1, 3));
/// // Past the file's row groups or columns, nothing is included.
/// assert!(!mask.includes_row_group(2, 2));
/// assert_eq!(mask.column_indices(4).collect::<Vec<_>>(), [1, 3]);
/// assert!(ColumnChunkMask::all().is_all() && ColumnChunkMask::columns([]).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ColumnChunkMask {
    /// The row groups included, sorted; `None` for all.
    row_groups: Option<Arc<[u32]>>,
    /// The leaf columns included, sorted; `None` for all.
    columns: Option<Arc<[u32]>>,
}

impl ColumnChunkMask {
    /// Every chunk.
    pub fn all() -> Self {
        Self::default()
    }

    /// Every row group's chunks of the leaf columns `projection` reads
    /// (listed: a projection of every column gives every column of
    /// `schema` by index, as arrow-rs does).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use strata_file::metadata::ColumnChunkMask;
    /// use strata_file::projection::ProjectionMask;
    /// use strata_format::schema::SchemaDescriptor;
    /// use strata_format::schema::parser::parse_message_type;
    ///
    /// let message = "message m { required int32 a; required int32 b; required int32 c; }";
    /// let schema = SchemaDescriptor::new(Arc::new(parse_message_type(message).unwrap()));
    /// let mask = ColumnChunkMask::from_projection(&ProjectionMask::leaves(&schema, [2, 0]), &schema);
    /// assert_eq!(mask.column_indices(3).collect::<Vec<_>>(), [0, 2]);
    /// assert!(mask.includes_row_group(1, 2));
    /// assert!(!ColumnChunkMask::from_projection(&ProjectionMask::all(), &schema).is_all());
    /// ```
    pub fn from_projection(
        projection: &crate::projection::ProjectionMask,
        schema: &strata_format::SchemaDescriptor,
    ) -> Self {
        Self::columns((0..schema.num_columns()).filter(|&i| projection.leaf_included(i)))
    }

    /// No chunk.
    pub fn none() -> Self {
        Self {
            row_groups: Some(Arc::from([])),
            columns: Some(Arc::from([])),
        }
    }

    /// The chunks of the listed leaf columns, in every row group (none
    /// when the list is empty).
    pub fn columns(columns: impl IntoIterator<Item = usize>) -> Self {
        Self {
            row_groups: None,
            columns: Some(sorted_set(columns)),
        }
    }

    /// Every chunk of the listed row groups (none when the list is empty).
    pub fn row_groups(row_groups: impl IntoIterator<Item = usize>) -> Self {
        Self {
            row_groups: Some(sorted_set(row_groups)),
            columns: None,
        }
    }

    /// The chunks of the listed columns in the listed row groups.
    pub fn row_groups_and_columns(
        row_groups: impl IntoIterator<Item = usize>,
        columns: impl IntoIterator<Item = usize>,
    ) -> Self {
        Self {
            row_groups: Some(sorted_set(row_groups)),
            columns: Some(sorted_set(columns)),
        }
    }

    /// Whether row group `idx` of a file of `num_row_groups` is included.
    pub fn includes_row_group(&self, idx: usize, num_row_groups: usize) -> bool {
        idx < num_row_groups && includes(self.row_groups.as_deref(), idx)
    }

    /// Whether leaf column `idx` of a file of `num_columns` is included.
    pub fn includes_column(&self, idx: usize, num_columns: usize) -> bool {
        idx < num_columns && includes(self.columns.as_deref(), idx)
    }

    /// Whether every chunk is included.
    pub fn is_all(&self) -> bool {
        self.row_groups.is_none() && self.columns.is_none()
    }

    /// Whether no chunk can be included (a list given empty).
    pub fn is_none(&self) -> bool {
        self.row_groups.as_ref().is_some_and(|i| i.is_empty())
            || self.columns.as_ref().is_some_and(|i| i.is_empty())
    }

    /// The row groups included of a file of `num_row_groups`, in order.
    pub fn row_group_indices(&self, num_row_groups: usize) -> impl Iterator<Item = usize> + '_ {
        indices(self.row_groups.as_deref(), num_row_groups)
    }

    /// The leaf columns included of a file of `num_columns`, in order.
    pub fn column_indices(&self, num_columns: usize) -> impl Iterator<Item = usize> + '_ {
        indices(self.columns.as_deref(), num_columns)
    }
}

/// `indices` sorted and deduplicated; those past `u32` (more than any
/// file can hold) are dropped.
fn sorted_set(indices: impl IntoIterator<Item = usize>) -> Arc<[u32]> {
    let set: BTreeSet<u32> = indices
        .into_iter()
        .filter_map(|i| u32::try_from(i).ok())
        .collect();
    set.into_iter().collect()
}

/// Whether `idx` is in `set` (`None`: everything is).
fn includes(set: Option<&[u32]>, idx: usize) -> bool {
    match (set, u32::try_from(idx)) {
        (None, _) => true,
        (Some(set), Ok(idx)) => set.binary_search(&idx).is_ok(),
        (Some(_), Err(_)) => false,
    }
}

/// The members of `set` below `len` (`None`: all of `0..len`).
fn indices(set: Option<&[u32]>, len: usize) -> Box<dyn Iterator<Item = usize> + '_> {
    match set {
        None => Box::new(0..len),
        Some(set) => Box::new(
            set.iter()
                .map(|&i| i as usize)
                .take_while(move |&i| i < len),
        ),
    }
}
