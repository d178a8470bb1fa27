//! Keys for a batch of byte arrays by the position of each value's first
//! occurrence: deduplication without copying a value.
//!
//! A reader asked for a dictionary where the file has none (a column chunk
//! written PLAIN, or the pages after its dictionary overflowed) must give
//! equal values equal keys. [`DictEncoder`](super::DictEncoder) does that by
//! copying each new value into a dictionary of its own. When most values
//! of a batch are distinct (the usual reason a writer fell back), that
//! dictionary is nearly a copy of the batch, built one hashed insert and
//! one append at a time. [`FirstOccurrences`] keys each value by the
//! position of the first equal value in the batch itself: the batch's own
//! array can then serve as the dictionary, and nothing is copied.
//!
//! Data flow: for each value, one hash of its bytes and one probe of a
//! [`hashbrown::HashTable`] of positions. Its control bytes (seven bits of
//! each entry's hash, one byte per bucket, kept apart from the positions)
//! are what a probe reads, so for a batch of 8,192 values they stay in the
//! core's nearest cache; a position is read only when its control byte
//! matches, and then the value there is compared byte for byte. A miss
//! records the value's own position. The table is sized once per batch and
//! its allocation kept across batches.

use std::ops::Range;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use super::hash::{bytes_eq, hash_bytes, process_seed};
use crate::error::{EncodingError, Result};
use crate::types::OffsetSize;

/// Maps each value of a batch of byte arrays (Arrow layout: offsets and one
/// values buffer) to the position of the first value equal to it, so that
/// the batch itself can serve as the dictionary of a dictionary-typed read:
/// equal values get equal keys and no value is copied. One hash and one
/// probe a value, in a hashbrown table of positions sized once per batch.
///
/// ```
/// use strata_encoding::FirstOccurrences;
/// // "a", "bc", "a", "", "bc", ""
/// let offsets = [0i32, 1, 3, 4, 4, 6, 6];
/// let data = b"abcabc";
/// let mut first = FirstOccurrences::new();
/// let mut keys = Vec::new();
/// first.start(6);
/// let new = first.extend_keys(&offsets, data, 0..6, &mut keys).unwrap();
/// assert_eq!(keys, [0, 1, 0, 3, 1, 3]);
/// assert_eq!((new, first.distinct()), (3, 3));
/// ```
#[derive(Debug, Default)]
pub struct FirstOccurrences {
    table: HashTable<u32>,
}

impl FirstOccurrences {
    /// An empty table; no heap memory until [`start`](Self::start).
    pub const fn new() -> Self {
        Self {
            table: HashTable::new(),
        }
    }

    /// Forget every value and size the table for a batch of `values`
    /// values, keeping its allocation where it is large enough.
    pub fn start(&mut self, values: usize) {
        self.table.clear();
        // An empty table re-places nothing while it grows: the hasher is
        // never called.
        self.table.reserve(values, |_| 0);
    }

    /// Distinct values seen since [`start`](Self::start).
    pub fn distinct(&self) -> usize {
        self.table.len()
    }

    /// Bytes of heap memory held.
    pub fn heap_size(&self) -> usize {
        self.table.allocation_size()
    }

    /// Append to `keys`, for each position of `run`, the position of the
    /// first value equal to the value there, among the values of this run
    /// and of the runs passed since [`start`](Self::start) (every run
    /// indexes the same `offsets` and `data`). Returns how many values of
    /// the run were new.
    ///
    /// Fails, appending nothing, if `run` is past `offsets`, an offset is
    /// negative, past `data` or runs backwards, or a position does not fit
    /// 32 bits.
    pub fn extend_keys<O: OffsetSize>(
        &mut self,
        offsets: &[O],
        data: &[u8],
        run: Range<usize>,
        keys: &mut Vec<u32>,
    ) -> Result<usize> {
        let bad = |what: &str| EncodingError::InvalidArgument(format!("first occurrences: {what}"));
        if u32::try_from(run.end).is_err() {
            return Err(bad("a position past 32 bits"));
        }
        // The run's offsets, each checked once: in order, within `data`.
        let span = offsets
            .get(run.start..=run.end)
            .filter(|_| run.start <= run.end)
            .ok_or_else(|| bad("run past the offsets"))?;
        let last = span.last().map_or(0, |o| o.as_usize());
        let negative = span.first().is_some_and(|&o| o < O::ZERO);
        if negative || last > data.len() || span.windows(2).any(|w| w[1] < w[0]) {
            return Err(bad("offsets out of order or past the values"));
        }
        let seed = process_seed();
        let before = self.table.len();
        // Positions already in the table come from earlier runs over the
        // same offsets, checked as these were.
        let value = |at: u32| {
            let at = at as usize;
            offsets
                .get(at..=at + 1)
                .and_then(|o| data.get(o[0].as_usize()..o[1].as_usize()))
                .unwrap_or_default()
        };
        keys.reserve(run.len());
        for (i, w) in (run.start as u32..).zip(span.windows(2)) {
            let v = data
                .get(w[0].as_usize()..w[1].as_usize())
                .unwrap_or_default();
            let hash = hash_bytes(v, seed);
            let eq = |&at: &u32| {
                let u = value(at);
                bytes_eq(u, v)
            };
            let rehash = |&at: &u32| hash_bytes(value(at), seed);
            let first = match self.table.entry(hash, eq, rehash) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => *e.insert(i).get(),
            };
            keys.push(first);
        }
        Ok(self.table.len() - before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The reference: a map from value to first position.
    fn reference(values: &[Vec<u8>]) -> Vec<u32> {
        let mut seen = HashMap::new();
        (0..values.len())
            .map(|i| *seen.entry(values[i].clone()).or_insert(i as u32))
            .collect()
    }

    fn layout(values: &[Vec<u8>]) -> (Vec<i32>, Vec<u8>) {
        let mut offsets = vec![0i32];
        let mut data = Vec::new();
        for v in values {
            data.extend_from_slice(v);
            offsets.push(data.len() as i32);
        }
        (offsets, data)
    }

    #[test]
    fn keys_match_a_map_of_first_positions_across_runs_and_batches() {
        let mut x = 0x2545_F491u32;
        let mut first = FirstOccurrences::new();
        for (n, distinct) in [(0usize, 1u32), (1, 1), (50, 3), (5000, 4000), (20_000, 100)] {
            let values: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    // Lengths 0 to 40, prefixes shared by many values.
                    let k = x % distinct;
                    let mut v = vec![b'p'; (k % 41) as usize];
                    v.extend_from_slice(&k.to_le_bytes()[..(k % 3) as usize]);
                    v
                })
                .collect();
            let (offsets, data) = layout(&values);
            // The table starts small for the last batch: it must grow.
            first.start(if n > 10_000 { 10 } else { n });
            let mut keys = Vec::new();
            let cut = n / 3;
            let mut new = first
                .extend_keys(&offsets, &data, 0..cut, &mut keys)
                .unwrap();
            new += first
                .extend_keys(&offsets, &data, cut..n, &mut keys)
                .unwrap();
            let want = reference(&values);
            assert_eq!(keys, want, "{n} values");
            let distinct_want = want
                .iter()
                .enumerate()
                .filter(|&(i, &k)| k as usize == i)
                .count();
            assert_eq!((new, first.distinct()), (distinct_want, distinct_want));
        }
    }

    #[test]
    fn bad_runs_and_offsets_fail_appending_nothing() {
        let mut first = FirstOccurrences::new();
        first.start(4);
        let mut keys = vec![9];
        let data = b"abcd";
        for (offsets, run) in [
            (&[0i32, 1, 2][..], 0..3),
            #[allow(clippy::reversed_empty_ranges)]
            (&[0, 1, 2], 2..1),
            (&[0, 3, 2], 0..2),
            (&[0, 1, 5], 0..2),
            (&[-1, 0, 1], 0..2),
            (&[], 0..0),
        ] {
            assert!(
                first
                    .extend_keys(offsets, data, run.clone(), &mut keys)
                    .is_err(),
                "{offsets:?} {run:?}"
            );
            assert_eq!(keys, [9]);
        }
        // An empty run over valid offsets is fine.
        assert_eq!(
            first
                .extend_keys(&[0i32, 1], data, 1..1, &mut keys)
                .unwrap(),
            0
        );
        assert_eq!(keys, [9]);
    }
}
