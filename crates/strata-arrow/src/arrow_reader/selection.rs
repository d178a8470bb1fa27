//! [`RowSelection`]: which rows to read, as runs of rows to select or skip.

use std::ops::Range;

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
