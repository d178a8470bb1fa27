//! The rows of one batch of a row group under a selection: which runs of
//! records the leaf readers read and skip, and which of the rows read are
//! dropped afterwards.
//!
//! ## Skipping or reading through
//!
//! A selection is runs of rows to select and to skip
//! ([`RowSelector`]). A window takes selected rows up to the batch size,
//! and every leaf reads it in one call, as runs of records to read and to
//! skip (`ColumnRecordReader::read_runs`), into one batch. Skipping a run
//! costs a step per run and leaf, and saves decoding the rows skipped;
//! reading a row costs its decoding. So a window skips a run of at least
//! [`SHORT_SKIP`] rows ([`SHORT_SKIP_IN_PLACE`] where every leaf drops
//! masked rows as it reads them, for which a row read through costs
//! little), and reads a shorter run between selected rows with them, to be dropped by a filter mask (as a top-level column
//! reads them, or once the batch is assembled): a selection of long runs
//! (a range predicate on sorted data, page pruning) is read by skipping,
//! a scattered one (every other row, or a predicate true for half the
//! rows at random) by reading through and filtering.
//!
//! Only pages holding selected rows are fetched when an offset index says
//! where pages are ([`selected_rows`], `page_ranges_for_rows`), so a short
//! skip is read through only where every leaf has the pages of its rows
//! ([`Readable`], from [`pages_rows`]); elsewhere it is skipped.
use std::collections::VecDeque;
use std::ops::Range;

use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder};
use strata_record::RecordRun;

use crate::arrow_reader::RowSelector;
use crate::reader::leaf::LeafReader;

/// Skipped runs shorter than this, between selected rows, are read and
/// then dropped by a mask rather than skipped, where some leaf reads every
/// row and filters afterwards: reading a row through costs that leaf its
/// decoding.
pub(crate) const SHORT_SKIP: usize = 32;

/// [`SHORT_SKIP`] where every leaf drops the masked rows as it reads them
/// (`LeafReader::keeps_masked_rows`): a dropped row of fixed width costs
/// a bit of the mask, a dictionary index one not unpacked, a PLAIN byte
/// array the step over its length that a skip takes too, while each skip
/// costs every leaf a step (measured by the row-filter benchmark: at 1%
/// of rows kept at random, skips of up to 512 rows read through take a
/// quarter less time than skipping those of 32 rows or more).
pub(crate) const SHORT_SKIP_IN_PLACE: usize = 512;

/// The shortest skip that windows read by `leaves` skip rather than read
/// through: [`SHORT_SKIP_IN_PLACE`] where every leaf drops masked rows as
/// it reads them, [`SHORT_SKIP`] otherwise.
pub(crate) fn short_skip(leaves: &[LeafReader]) -> usize {
    if leaves.iter().all(LeafReader::keeps_masked_rows) {
        SHORT_SKIP_IN_PLACE
    } else {
        SHORT_SKIP
    }
}

/// The rows of one batch: the runs its leaves read, and, when a short
/// skip was read through, which rows read are kept.
#[derive(Debug, Default)]
pub(crate) struct Window {
    /// Runs of records to read and skip, in order.
    pub runs: Vec<RecordRun>,
    /// The rows read (the runs that read).
    pub rows_read: usize,
    /// The rows selected: `rows_read` less the rows of the mask's `false`
    /// bits.
    pub selected: usize,
    /// One bit per row read, `false` for the rows of short skips read
    /// through; `None` when every row read is selected.
    pub mask: Option<BooleanBuffer>,
}

impl Window {
    /// Take the next window of at most `max` (> 0) selected rows off the
    /// front of `selectors`, reading through skips shorter than
    /// `short_skip` ([`SHORT_SKIP`] or [`SHORT_SKIP_IN_PLACE`]), whose first row is row `at` of the row group
    /// (moved past the rows taken); `None` when no selected row is left. A
    /// skip that ends `selectors` ends the read there, unread.
    pub(crate) fn next(
        selectors: &mut VecDeque<RowSelector>,
        (max, short_skip): (usize, usize),
        at: &mut u64,
        readable: &mut Readable,
    ) -> Option<Window> {
        let mut w = Window::default();
        // Bits of the mask, made only once a skip is read through.
        let mut mask: Option<BooleanBufferBuilder> = None;
        while w.selected < max {
            let Some(s) = selectors.pop_front() else {
                break;
            };
            if s.row_count == 0 {
                continue;
            }
            let start = *at;
            if !s.skip {
                let take = s.row_count.min(max - w.selected);
                if take < s.row_count {
                    selectors.push_front(RowSelector::select(s.row_count - take));
                }
                w.push_read(take);
                w.selected += take;
                *at += take as u64;
                if let Some(m) = &mut mask {
                    m.append_n(take, true);
                }
                continue;
            }
            if selectors.is_empty() {
                // Nothing after it: the row group's read ends.
                break;
            }
            *at += s.row_count as u64;
            if w.selected > 0 && s.row_count < short_skip && readable.covers(start..*at) {
                let m = mask.get_or_insert_with(|| {
                    let mut m = BooleanBufferBuilder::new(w.rows_read + max);
                    m.append_n(w.rows_read, true);
                    m
                });
                m.append_n(s.row_count, false);
                w.push_read(s.row_count);
            } else {
                w.runs.push(RecordRun::skip(s.row_count));
            }
        }
        w.mask = mask.map(|mut m| m.finish());
        (w.selected > 0).then_some(w)
    }

    /// Read `n` more rows, joined to a read run just before.
    fn push_read(&mut self, n: usize) {
        self.rows_read += n;
        match self.runs.last_mut() {
            Some(last) if !last.skip => last.records += n,
            _ => self.runs.push(RecordRun::read(n)),
        }
    }
}

/// The runs of `selection` a row group reads, as [`Window::next`] takes
/// them: no empty run, no two runs of a kind in a row, no skip at the end
/// (trailing skips need not be read).
pub(crate) fn runs_to_read(
    selection: impl IntoIterator<Item = RowSelector>,
) -> VecDeque<RowSelector> {
    let mut runs: VecDeque<RowSelector> = VecDeque::new();
    for s in selection {
        match runs.back_mut() {
            _ if s.row_count == 0 => {}
            Some(last) if last.skip == s.skip => last.row_count += s.row_count,
            _ => runs.push_back(s),
        }
    }
    while runs.back().is_some_and(|s| s.skip) {
        runs.pop_back();
    }
    runs
}

/// The rows `selectors` select, as sorted ranges of row-group rows.
pub(crate) fn selected_rows(selectors: &VecDeque<RowSelector>) -> Vec<Range<u64>> {
    let mut rows: Vec<Range<u64>> = Vec::new();
    let mut at = 0u64;
    for s in selectors {
        let end = at + s.row_count as u64;
        if !s.skip && s.row_count > 0 {
            match rows.last_mut() {
                Some(last) if last.end == at => last.end = end,
                _ => rows.push(at..end),
            }
        }
        at = end;
    }
    rows
}

/// The rows of the pages that hold any of `selected` (sorted), given the
/// first row of each page (sorted) and the row group's rows: the rows a
/// leaf whose chunk was fetched for `selected` can read.
pub(crate) fn pages_rows(
    page_starts: &[u64],
    num_rows: u64,
    selected: &[Range<u64>],
) -> Vec<Range<u64>> {
    let mut rows: Vec<Range<u64>> = Vec::new();
    let mut next = 0usize;
    for (i, &first) in page_starts.iter().enumerate() {
        let last = page_starts.get(i + 1).copied().unwrap_or(num_rows);
        while selected.get(next).is_some_and(|r| r.end <= first) {
            next += 1;
        }
        if first < last && selected.get(next).is_some_and(|r| r.start < last) {
            match rows.last_mut() {
                Some(prev) if prev.end == first => prev.end = last,
                _ => rows.push(first..last),
            }
        }
    }
    rows
}

/// The rows every leaf of a pass can read: all of them (every chunk
/// fetched whole), or the intersection of the leaves' [`pages_rows`].
/// Asked about rows in increasing order.
#[derive(Debug, Default)]
pub(crate) struct Readable {
    /// Sorted ranges; `None`: every row.
    ranges: Option<Vec<Range<u64>>>,
    /// The first range that may hold the rows asked about next.
    next: usize,
}

impl Readable {
    /// Every row readable.
    pub(crate) fn all() -> Self {
        Self::default()
    }

    /// Only the rows in every one of `leaves` (each sorted ranges).
    pub(crate) fn intersection(leaves: &[Vec<Range<u64>>]) -> Self {
        let mut ranges: Option<Vec<Range<u64>>> = None;
        for leaf in leaves {
            ranges = Some(match ranges {
                None => leaf.clone(),
                Some(have) => {
                    let mut out = Vec::new();
                    let (mut i, mut j) = (0, 0);
                    while let (Some(a), Some(b)) = (have.get(i), leaf.get(j)) {
                        let (start, end) = (a.start.max(b.start), a.end.min(b.end));
                        if start < end {
                            out.push(start..end);
                        }
                        if a.end < b.end {
                            i += 1;
                        } else {
                            j += 1;
                        }
                    }
                    out
                }
            });
        }
        Self { ranges, next: 0 }
    }

    /// Whether every row of `rows` is readable; `rows` never starts
    /// before the rows last asked about.
    fn covers(&mut self, rows: Range<u64>) -> bool {
        let Some(ranges) = &self.ranges else {
            return true;
        };
        while ranges.get(self.next).is_some_and(|r| r.end <= rows.start) {
            self.next += 1;
        }
        ranges
            .get(self.next)
            .is_some_and(|r| r.start <= rows.start && rows.end <= r.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selectors(runs: &[(bool, usize)]) -> VecDeque<RowSelector> {
        runs_to_read(runs.iter().map(|&(skip, n)| {
            if skip {
                RowSelector::skip(n)
            } else {
                RowSelector::select(n)
            }
        }))
    }

    /// Every row a window reads lies in a page holding a selected row
    /// (pages of `page` rows), and the windows select exactly the
    /// selected rows, in order.
    fn check(runs: &[(bool, usize)], max: usize, page: usize) {
        let mut s = selectors(runs);
        let total: usize = runs.iter().map(|r| r.1).sum();
        let starts: Vec<u64> = (0..total.max(1)).step_by(page).map(|r| r as u64).collect();
        let pages = pages_rows(&starts, total as u64, &selected_rows(&s));
        let mut readable = Readable::intersection(std::slice::from_ref(&pages));
        let mut expected = Vec::new();
        let mut at = 0usize;
        for &(skip, n) in runs {
            if !skip {
                expected.extend(at..at + n);
            }
            at += n;
        }
        let mut got = Vec::new();
        let mut row = 0usize;
        let mut pos = 0u64;
        while let Some(w) = Window::next(&mut s, (max, SHORT_SKIP), &mut pos, &mut readable) {
            assert!(w.selected > 0 && w.selected <= max);
            let mut read = Vec::new();
            for run in &w.runs {
                if !run.skip {
                    read.extend(row..row + run.records);
                }
                row += run.records;
            }
            assert_eq!(pos as usize, row);
            assert_eq!(read.len(), w.rows_read);
            for &r in &read {
                assert!(
                    pages.iter().any(|x| x.contains(&(r as u64))),
                    "row {r} read outside {pages:?}"
                );
            }
            let kept: Vec<usize> = match &w.mask {
                Some(m) => {
                    assert_eq!(m.len(), read.len());
                    read.iter()
                        .zip(m.iter())
                        .filter(|(_, k)| *k)
                        .map(|(r, _)| *r)
                        .collect()
                }
                None => read,
            };
            assert_eq!(kept.len(), w.selected);
            got.extend(kept);
        }
        assert_eq!(got, expected);
    }

    #[test]
    fn windows_select_exactly_the_selected_rows() {
        check(&[(false, 10)], 4, 3);
        check(&[(true, 5), (false, 3), (true, 40), (false, 2)], 100, 1000);
        check(
            &[(false, 1), (true, 1), (false, 1), (true, 1), (false, 1)],
            2,
            2,
        );
        check(
            &[(false, 3), (true, 31), (false, 3), (true, 32), (false, 3)],
            5,
            10,
        );
        check(&[(true, 100)], 8, 7);
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut runs = Vec::new();
            for i in 0..20 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                runs.push((i % 2 == 1, (seed % 70) as usize));
            }
            check(&runs, 1 + (seed % 50) as usize, 1 + (seed % 40) as usize);
        }
    }

    #[test]
    fn short_skips_outside_fetched_pages_are_skipped() {
        // Pages of 4 rows; rows 0..2 and 9..11 selected: the page of rows
        // 4..8 holds none, so the skip over it is not read.
        let mut s = selectors(&[(false, 2), (true, 7), (false, 2)]);
        let pages = pages_rows(&[0, 4, 8], 12, &selected_rows(&s));
        assert_eq!(pages, vec![0..4, 8..12]);
        let mut readable = Readable::intersection(&[pages]);
        let w = Window::next(&mut s, (100, SHORT_SKIP), &mut 0, &mut readable).unwrap();
        assert_eq!(
            w.runs,
            vec![RecordRun::read(2), RecordRun::skip(7), RecordRun::read(2)]
        );
        assert!(w.mask.is_none());
    }

    #[test]
    fn readable_rows_intersect() {
        let one: Vec<Range<u64>> = std::iter::once(5..25).collect();
        let r = Readable::intersection(&[vec![0..10, 20..30], one]);
        assert_eq!(r.ranges, Some(vec![5..10, 20..25]));
    }

    #[test]
    fn short_skips_are_read_and_masked() {
        let mut s = selectors(&[(false, 2), (true, 3), (false, 2)]);
        let (mut at, mut all) = (0, Readable::all());
        let w = Window::next(&mut s, (100, SHORT_SKIP), &mut at, &mut all).unwrap();
        assert_eq!(w.runs, vec![RecordRun::read(7)]);
        let mask: Vec<bool> = w.mask.unwrap().iter().collect();
        assert_eq!(mask, [true, true, false, false, false, true, true]);
        assert!(Window::next(&mut s, (100, SHORT_SKIP), &mut at, &mut all).is_none());
    }

    #[test]
    fn long_skips_are_skipped() {
        let mut s = selectors(&[(true, 50), (false, 2), (true, 40), (false, 2)]);
        let (mut at, mut all) = (0, Readable::all());
        let w = Window::next(&mut s, (100, SHORT_SKIP), &mut at, &mut all).unwrap();
        assert_eq!(
            w.runs,
            vec![
                RecordRun::skip(50),
                RecordRun::read(2),
                RecordRun::skip(40),
                RecordRun::read(2)
            ]
        );
        assert!(w.mask.is_none());
        assert!(Window::next(&mut s, (100, SHORT_SKIP), &mut at, &mut all).is_none());
    }
}
