//! [`ProjectionMask`]: which leaf columns a reader reads, with arrow-rs's
//! names. It names no Arrow type, so it lives below the Arrow layer, where
//! [`ColumnChunkMask::from_projection`](crate::metadata::ColumnChunkMask::from_projection)
//! can take it; `strata_arrow::ProjectionMask` is this type.

use strata_format::schema::SchemaDescriptor;

/// Which leaf columns to read.
///
/// ```
/// use strata_file::projection::ProjectionMask;
/// # use std::sync::Arc;
/// # use strata_format::schema::SchemaDescriptor;
/// # use strata_format::schema::parser::parse_message_type;
/// # let schema = SchemaDescriptor::new(Arc::new(
/// #     parse_message_type("message m { required int32 a; required int32 b; }").unwrap(),
/// # ));
/// let mask = ProjectionMask::roots(&schema, [1]);
/// assert!(!mask.leaf_included(0));
/// assert!(mask.leaf_included(1));
/// assert!(ProjectionMask::all().leaf_included(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectionMask {
    mask: Option<Vec<bool>>,
}

impl ProjectionMask {
    /// Every column.
    pub fn all() -> Self {
        Self { mask: None }
    }

    /// No column of a schema of `len` leaves.
    pub fn none(len: usize) -> Self {
        Self {
            mask: Some(vec![false; len]),
        }
    }

    /// The leaf columns with the given indices.
    pub fn leaves(schema: &SchemaDescriptor, indices: impl IntoIterator<Item = usize>) -> Self {
        let mut mask = vec![false; schema.num_columns()];
        for i in indices {
            if let Some(m) = mask.get_mut(i) {
                *m = true;
            }
        }
        Self { mask: Some(mask) }
    }

    /// Every leaf under the root fields with the given indices.
    pub fn roots(schema: &SchemaDescriptor, indices: impl IntoIterator<Item = usize>) -> Self {
        let roots: Vec<usize> = indices.into_iter().collect();
        let mask = schema
            .columns()
            .iter()
            .map(|c| roots.contains(&c.root_field_index))
            .collect();
        Self { mask: Some(mask) }
    }

    /// The leaf columns named by dotted paths: a name selects every leaf
    /// whose path begins with its parts ("a" selects `a.b` and `a.c.d`;
    /// "a.b.c" does not select `a.b`). Names matching nothing select
    /// nothing.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use strata_file::projection::ProjectionMask;
    /// use strata_format::schema::SchemaDescriptor;
    /// use strata_format::schema::parser::parse_message_type;
    ///
    /// let message = "message m { required int64 id; optional group point { required double x; required double y; } }";
    /// let schema = SchemaDescriptor::new(Arc::new(parse_message_type(message).unwrap()));
    /// let mask = ProjectionMask::columns(&schema, ["point.y", "nothing"]);
    /// assert_eq!((0..3).map(|i| mask.leaf_included(i)).collect::<Vec<_>>(), [false, false, true]);
    /// let mask = ProjectionMask::columns(&schema, ["point"]);
    /// assert_eq!((0..3).map(|i| mask.leaf_included(i)).collect::<Vec<_>>(), [false, true, true]);
    /// ```
    pub fn columns<'a>(
        schema: &SchemaDescriptor,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let mut mask = vec![false; schema.num_columns()];
        for name in names {
            let wanted: Vec<&str> = name.split('.').collect();
            for (m, column) in mask.iter_mut().zip(schema.columns()) {
                let path = column.path.parts();
                if wanted.len() <= path.len() && wanted.iter().zip(path).all(|(a, b)| a == b) {
                    *m = true;
                }
            }
        }
        Self { mask: Some(mask) }
    }

    /// Read the columns either mask reads.
    pub fn union(&mut self, other: &Self) {
        self.mask = match (self.mask.take(), &other.mask) {
            (Some(a), Some(b)) => Some(zip_longest(&a, b, |x, y| x || y)),
            _ => None,
        };
    }

    /// Read only the columns both masks read.
    pub fn intersect(&mut self, other: &Self) {
        self.mask = match (self.mask.take(), &other.mask) {
            (None, b) => b.clone(),
            (a, None) => a,
            (Some(a), Some(b)) => Some(zip_longest(&a, b, |x, y| x && y)),
        };
    }

    /// Whether leaf `leaf_idx` is read.
    pub fn leaf_included(&self, leaf_idx: usize) -> bool {
        self.mask
            .as_ref()
            .is_none_or(|m| m.get(leaf_idx).copied().unwrap_or(false))
    }

    /// The mask, one flag per leaf column; `None` when every column is
    /// read.
    pub fn as_slice(&self) -> Option<&[bool]> {
        self.mask.as_deref()
    }
}

/// `f` over two masks position by position, a position only one has
/// counting as not read in the other.
fn zip_longest(a: &[bool], b: &[bool], f: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    (0..a.len().max(b.len()))
        .map(|i| {
            f(
                a.get(i).copied().unwrap_or(false),
                b.get(i).copied().unwrap_or(false),
            )
        })
        .collect()
}
