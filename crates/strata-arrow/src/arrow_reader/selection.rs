//! [`RowSelection`]: which rows to read, as runs of rows to select or skip.

use std::ops::Range;

use arrow_array::{Array, BooleanArray};
use arrow_buffer::BooleanBuffer;

/// A run of rows to select or skip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSelector {
    /// Number of rows in the run.
    pub row_count: usize,
    /// Whether the run is skipped.
    pub skip: bool,
}

impl RowSelector {
    /// Select `row_count` rows.
    pub fn select(row_count: usize) -> Self {
        Self {
            row_count,
            skip: false,
        }
    }

    /// Skip `row_count` rows.
    pub fn skip(row_count: usize) -> Self {
        Self {
            row_count,
            skip: true,
        }
    }
}

/// The rows to read of one row group, numbered within the row group
/// (arrow-rs's `RowGroupSelection`): `None` reads it whole, a selection
/// shorter than the row group skips its last rows. A list of them, given
/// to `with_row_group_selections` of the push decoder's or the stream's
/// builder, is read in its order; a row group listed twice is read twice.
///
/// ```
/// use strata_arrow::arrow_reader::{RowGroupSelection, RowSelection, RowSelector};
///
/// let second = RowGroupSelection::new(1, Some(RowSelection::from(vec![RowSelector::skip(10), RowSelector::select(5)])));
/// assert_eq!(second.row_group_index(), 1);
/// assert_eq!(second.selection().map(|s| s.row_count()), Some(5));
/// assert!(RowGroupSelection::new(0, None).selection().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowGroupSelection {
    row_group_index: usize,
    selection: Option<RowSelection>,
}

impl RowGroupSelection {
    /// The rows `selection` selects of row group `row_group_index` (all of
    /// them when `None`).
    pub fn new(row_group_index: usize, selection: Option<RowSelection>) -> Self {
        Self {
            row_group_index,
            selection,
        }
    }

    /// The row group's index in the file.
    pub fn row_group_index(&self) -> usize {
        self.row_group_index
    }

    /// The rows selected, numbered within the row group; `None` for all.
    pub fn selection(&self) -> Option<&RowSelection> {
        self.selection.as_ref()
    }
}

/// Runs of rows to select and skip, in order from the first row read.
/// Adjacent runs of the same kind are merged and empty runs dropped.
///
/// ```
/// use strata_arrow::arrow_reader::{RowSelection, RowSelector};
///
/// let s = RowSelection::from_consecutive_ranges([2..4, 4..5, 8..10].into_iter(), 12);
/// let runs: Vec<RowSelector> = s.clone().into();
/// assert_eq!(
///     runs,
///     vec![RowSelector::skip(2), RowSelector::select(3), RowSelector::skip(3), RowSelector::select(2)]
/// );
/// assert_eq!(s.row_count(), 5);
/// assert_eq!(s.skipped_row_count(), 5);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowSelection {
    selectors: Vec<RowSelector>,
}

impl RowSelection {
    /// Select the rows in `ranges` (ascending, not overlapping) out of
    /// `total_rows`.
    pub fn from_consecutive_ranges<I: Iterator<Item = Range<usize>>>(
        ranges: I,
        total_rows: usize,
    ) -> Self {
        let mut selectors = Vec::new();
        let mut pos = 0usize;
        for r in ranges {
            let start = r.start.max(pos).min(total_rows);
            let end = r.end.min(total_rows);
            if start > pos {
                selectors.push(RowSelector::skip(start - pos));
            }
            if end > start {
                selectors.push(RowSelector::select(end - start));
                pos = end;
            } else {
                pos = start;
            }
        }
        Self::from(selectors)
    }

    /// The runs.
    pub fn iter(&self) -> impl Iterator<Item = &RowSelector> {
        self.selectors.iter()
    }

    /// Rows selected.
    pub fn row_count(&self) -> usize {
        self.selectors
            .iter()
            .filter(|s| !s.skip)
            .map(|s| s.row_count)
            .sum()
    }

    /// Rows skipped.
    pub fn skipped_row_count(&self) -> usize {
        self.selectors
            .iter()
            .filter(|s| s.skip)
            .map(|s| s.row_count)
            .sum()
    }

    /// Whether any row is selected.
    pub fn selects_any(&self) -> bool {
        self.selectors.iter().any(|s| !s.skip && s.row_count > 0)
    }

    /// Select the rows whose filter value is true, the filters one after
    /// another (the first row of each follows the last of the one
    /// before). A null filter value selects nothing (arrow-rs panics on
    /// nulls).
    ///
    /// ```
    /// use arrow_array::BooleanArray;
    /// use strata_arrow::arrow_reader::{RowSelection, RowSelector};
    ///
    /// let s = RowSelection::from_filters(&[
    ///     BooleanArray::from(vec![true, true, false]),
    ///     BooleanArray::from(vec![Some(false), None, Some(true)]),
    /// ]);
    /// let runs: Vec<RowSelector> = s.into();
    /// assert_eq!(runs, vec![RowSelector::select(2), RowSelector::skip(3), RowSelector::select(1)]);
    /// ```
    pub fn from_filters(filters: &[BooleanArray]) -> Self {
        let mut selectors = Vec::new();
        for filter in filters {
            let bits = kept_bits(filter);
            let mut at = 0;
            // Runs of set bits, found a word at a time.
            for (start, end) in bits.set_slices() {
                selectors.push(RowSelector::skip(start - at));
                selectors.push(RowSelector::select(end - start));
                at = end;
            }
            selectors.push(RowSelector::skip(bits.len() - at));
        }
        Self::from(selectors)
    }

    /// Rows in all: selected and skipped.
    pub fn total_row_count(&self) -> usize {
        self.selectors.iter().map(|s| s.row_count).sum()
    }

    /// Split off the first `row_count` rows (selected or skipped): they are
    /// returned, and `self` keeps the rest.
    ///
    /// ```
    /// use strata_arrow::arrow_reader::{RowSelection, RowSelector};
    ///
    /// let mut s = RowSelection::from(vec![RowSelector::select(3), RowSelector::skip(4)]);
    /// let head = s.split_off(5);
    /// assert_eq!(Vec::from(head), vec![RowSelector::select(3), RowSelector::skip(2)]);
    /// assert_eq!(Vec::from(s), vec![RowSelector::skip(2)]);
    /// ```
    pub fn split_off(&mut self, row_count: usize) -> Self {
        let mut head = Vec::new();
        let mut left = row_count;
        let mut rest = std::mem::take(&mut self.selectors).into_iter();
        for s in rest.by_ref() {
            if s.row_count <= left {
                left -= s.row_count;
                head.push(s);
                if left == 0 {
                    break;
                }
            } else {
                head.push(RowSelector {
                    row_count: left,
                    skip: s.skip,
                });
                self.selectors.push(RowSelector {
                    row_count: s.row_count - left,
                    skip: s.skip,
                });
                break;
            }
        }
        self.selectors.extend(rest);
        Self::from(head)
    }

    /// `other` applied to the rows `self` selects: a row is selected when
    /// `self` selects it and `other` selects it among the rows `self`
    /// selects. When `other` covers fewer rows than `self` selects, the
    /// rest are not selected (arrow-rs panics there).
    ///
    /// ```
    /// use strata_arrow::arrow_reader::{RowSelection, RowSelector};
    ///
    /// let first = RowSelection::from(vec![RowSelector::skip(2), RowSelector::select(4)]);
    /// let then = RowSelection::from(vec![RowSelector::select(1), RowSelector::skip(2), RowSelector::select(1)]);
    /// assert_eq!(
    ///     Vec::from(first.and_then(&then)),
    ///     vec![RowSelector::skip(2), RowSelector::select(1), RowSelector::skip(2), RowSelector::select(1)]
    /// );
    /// ```
    pub fn and_then(&self, other: &Self) -> Self {
        let mut out = Vec::with_capacity(self.selectors.len() + other.selectors.len());
        let mut inner = other.selectors.iter().copied();
        let mut current: Option<RowSelector> = None;
        for s in &self.selectors {
            if s.skip {
                out.push(*s);
                continue;
            }
            let mut need = s.row_count;
            while need > 0 {
                let Some(mut run) = current.take().or_else(|| inner.next()) else {
                    out.push(RowSelector::skip(need));
                    break;
                };
                let n = run.row_count.min(need);
                out.push(RowSelector {
                    row_count: n,
                    skip: run.skip,
                });
                need -= n;
                run.row_count -= n;
                if run.row_count > 0 {
                    current = Some(run);
                }
            }
        }
        Self::from(out)
    }

    /// The rows both select (AND); past the end of the shorter selection,
    /// the longer one's runs as they are.
    ///
    /// ```
    /// use strata_arrow::arrow_reader::{RowSelection, RowSelector};
    ///
    /// let a = RowSelection::from(vec![RowSelector::select(4), RowSelector::skip(2)]);
    /// let b = RowSelection::from(vec![RowSelector::skip(1), RowSelector::select(2)]);
    /// assert_eq!(
    ///     Vec::from(a.intersection(&b)),
    ///     vec![RowSelector::skip(1), RowSelector::select(3), RowSelector::skip(2)]
    /// );
    /// ```
    pub fn intersection(&self, other: &Self) -> Self {
        self.combine(other, |a, b| a && b)
    }

    /// The rows either selects (OR); past the end of the shorter
    /// selection, the longer one's runs as they are.
    pub fn union(&self, other: &Self) -> Self {
        self.combine(other, |a, b| a || b)
    }

    /// Row by row `selected(self, other)` where both have rows; then the
    /// tail of the longer.
    fn combine(&self, other: &Self, selected: impl Fn(bool, bool) -> bool) -> Self {
        let mut out = Vec::with_capacity(self.selectors.len() + other.selectors.len());
        let (mut left, mut right) = (
            self.selectors.iter().copied(),
            other.selectors.iter().copied(),
        );
        let (mut l, mut r) = (left.next(), right.next());
        while let (Some(a), Some(b)) = (l.as_mut(), r.as_mut()) {
            let n = a.row_count.min(b.row_count);
            out.push(RowSelector {
                row_count: n,
                skip: !selected(!a.skip, !b.skip),
            });
            a.row_count -= n;
            b.row_count -= n;
            if a.row_count == 0 {
                l = left.next();
            }
            if b.row_count == 0 {
                r = right.next();
            }
        }
        out.extend(l.into_iter().chain(left));
        out.extend(r.into_iter().chain(right));
        Self::from(out)
    }

    /// Skip the first `offset` selected rows.
    pub fn offset(self, offset: usize) -> Self {
        let mut left = offset;
        let mut out = Vec::with_capacity(self.selectors.len() + 1);
        for s in self.selectors {
            if s.skip || left == 0 {
                out.push(s);
            } else if s.row_count <= left {
                left -= s.row_count;
                out.push(RowSelector::skip(s.row_count));
            } else {
                out.push(RowSelector::skip(left));
                out.push(RowSelector::select(s.row_count - left));
                left = 0;
            }
        }
        Self::from(out)
    }

    /// Keep only the first `limit` selected rows.
    pub fn limit(self, limit: usize) -> Self {
        let mut left = limit;
        let mut out = Vec::with_capacity(self.selectors.len());
        for s in self.selectors {
            if left == 0 {
                break;
            }
            if s.skip {
                out.push(s);
            } else {
                let n = s.row_count.min(left);
                out.push(RowSelector::select(n));
                left -= n;
            }
        }
        Self::from(out)
    }
}

/// The rows `filter` keeps: its true values, null counted as false.
pub(crate) fn kept_bits(filter: &BooleanArray) -> BooleanBuffer {
    match filter.nulls() {
        Some(nulls) => filter.values() & nulls.inner(),
        None => filter.values().clone(),
    }
}

impl From<Vec<RowSelector>> for RowSelection {
    fn from(runs: Vec<RowSelector>) -> Self {
        let mut selectors: Vec<RowSelector> = Vec::with_capacity(runs.len());
        for s in runs {
            if s.row_count == 0 {
                continue;
            }
            match selectors.last_mut() {
                Some(last) if last.skip == s.skip => last.row_count += s.row_count,
                _ => selectors.push(s),
            }
        }
        Self { selectors }
    }
}

impl From<RowSelection> for Vec<RowSelector> {
    fn from(s: RowSelection) -> Self {
        s.selectors
    }
}

impl FromIterator<RowSelector> for RowSelection {
    fn from_iter<I: IntoIterator<Item = RowSelector>>(iter: I) -> Self {
        Self::from(iter.into_iter().collect::<Vec<_>>())
    }
}
