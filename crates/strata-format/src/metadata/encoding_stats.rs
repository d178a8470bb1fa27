//! [`PageEncodingStatsList`]: the page counts of a column chunk, packed.

use super::{Encoding, PageEncodingStats, PageType};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// The page counts of a column chunk (`ColumnMetaData.encoding_stats`, a
/// Thrift `list<PageEncodingStats>`), in wire order.
///
/// A footer holds one list per column per row group, so the list is kept
/// small: up to three entries (a dictionary page, dictionary-encoded data
/// pages and plain data pages after a fallback) are held inline, each
/// packed into one `u64` (16 bits of page type, 16 of encoding, 32 of
/// count), and the whole list takes 32 bytes. A longer list, or an entry
/// whose page type or encoding does not fit 16 bits (no writer of today
/// makes one), moves to the heap as three `i32`s per entry. Entries are
/// read and written as [`PageEncodingStats`] values, unknown page types and
/// encodings included.
///
/// ```
/// use strata_format::metadata::{Encoding, PageEncodingStats, PageEncodingStatsList, PageType};
///
/// let dict = PageEncodingStats { page_type: PageType::DictionaryPage, encoding: Encoding::Plain, count: 1 };
/// let list: PageEncodingStatsList = vec![dict].into();
/// assert_eq!(list.len(), 1);
/// assert_eq!(list.iter().next(), Some(dict));
/// ```
#[derive(Clone)]
pub struct PageEncodingStatsList {
    entries: Entries,
}

/// The two forms of a [`PageEncodingStatsList`]. A list is `Packed` exactly
/// when it has at most [`PACKED`] entries and each of them packs; entries
/// are only ever appended, so a list never returns to `Packed`.
#[derive(Clone)]
enum Entries {
    /// The first `len` words are entries ([`pack`]).
    Packed { len: u8, words: [u64; PACKED] },
    /// `[page_type, encoding, count]` of each entry.
    Wide(Vec<[i32; 3]>),
}

/// Entries held inline.
const PACKED: usize = 3;

impl Default for PageEncodingStatsList {
    fn default() -> Self {
        Self {
            entries: Entries::Packed {
                len: 0,
                words: [0; PACKED],
            },
        }
    }
}

/// An entry as one word, if its page type and encoding fit 16 bits.
#[inline]
fn pack([page_type, encoding, count]: [i32; 3]) -> Option<u64> {
    let page_type = i16::try_from(page_type).ok()? as u16;
    let encoding = i16::try_from(encoding).ok()? as u16;
    Some(u64::from(page_type) | (u64::from(encoding) << 16) | (u64::from(count as u32) << 32))
}

/// The entry [`pack`] packed into `word`.
#[inline]
fn unpack_word(word: u64) -> [i32; 3] {
    [
        i32::from(word as u16 as i16),
        i32::from((word >> 16) as u16 as i16),
        (word >> 32) as u32 as i32,
    ]
}

impl PageEncodingStatsList {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        Self::default()
    }

    /// Append an entry.
    #[inline]
    pub fn push(&mut self, stats: PageEncodingStats) {
        self.push_raw([
            stats.page_type.to_i32(),
            stats.encoding.to_i32(),
            stats.count,
        ]);
    }

    /// Append an entry given as its Thrift values.
    #[inline]
    fn push_raw(&mut self, entry: [i32; 3]) {
        match &mut self.entries {
            Entries::Packed { len, words } => {
                let n = usize::from(*len);
                if let (Some(word), Some(slot)) = (pack(entry), words.get_mut(n)) {
                    *slot = word;
                    *len += 1;
                } else {
                    let mut wide = Vec::with_capacity(n + 1);
                    wide.extend(words.iter().take(n).map(|&w| unpack_word(w)));
                    wide.push(entry);
                    self.entries = Entries::Wide(wide);
                }
            }
            Entries::Wide(wide) => wide.push(entry),
        }
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::Packed { len, .. } => usize::from(*len),
            Entries::Wide(wide) => wide.len(),
        }
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i` as its Thrift values, if there is one.
    #[inline]
    fn raw(&self, i: usize) -> Option<[i32; 3]> {
        match &self.entries {
            Entries::Packed { len, words } => words
                .get(..usize::from(*len))?
                .get(i)
                .map(|&w| unpack_word(w)),
            Entries::Wide(wide) => wide.get(i).copied(),
        }
    }

    /// Entry `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<PageEncodingStats> {
        self.raw(i).map(unpack)
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = PageEncodingStats> + '_ {
        (0..self.len()).map(|i| unpack(self.raw(i).unwrap_or_default()))
    }
}

impl PartialEq for PageEncodingStatsList {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.raw(i) == other.raw(i))
    }
}

impl Eq for PageEncodingStatsList {}

impl std::hash::Hash for PageEncodingStatsList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for i in 0..self.len() {
            self.raw(i).hash(state);
        }
    }
}

/// A [`PageEncodingStats`] from its packed form.
#[inline]
fn unpack([page_type, encoding, count]: [i32; 3]) -> PageEncodingStats {
    PageEncodingStats {
        page_type: PageType::from_i32(page_type),
        encoding: Encoding::from_i32(encoding),
        count,
    }
}

impl std::fmt::Debug for PageEncodingStatsList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<PageEncodingStats> for PageEncodingStatsList {
    fn from_iter<I: IntoIterator<Item = PageEncodingStats>>(iter: I) -> Self {
        let mut list = Self::new();
        for s in iter {
            list.push(s);
        }
        list
    }
}

impl From<Vec<PageEncodingStats>> for PageEncodingStatsList {
    fn from(stats: Vec<PageEncodingStats>) -> Self {
        stats.into_iter().collect()
    }
}

impl From<&[PageEncodingStats]> for PageEncodingStatsList {
    fn from(stats: &[PageEncodingStats]) -> Self {
        stats.iter().copied().collect()
    }
}

impl ReadThrift for PageEncodingStatsList {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        // `n` is checked against the remaining input, one byte per struct.
        let n = r.read_list_header_of(FieldType::Struct)?;
        let mut list = Self::new();
        if n > PACKED {
            list.entries = Entries::Wide(Vec::with_capacity(n));
        }
        for _ in 0..n {
            match r.try_small_i32_struct::<3>() {
                // Entries are stored as their wire values, so the fast
                // path needs no enum conversion.
                Some(entry) => list.push_raw(entry),
                None => list.push(PageEncodingStats::read_thrift(r)?),
            }
        }
        Ok(list)
    }
}

impl WriteThrift for PageEncodingStatsList {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_list_header(FieldType::Struct, self.len());
        for s in self.iter() {
            s.write_thrift(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thrift::{decode, encode_to_vec};

    fn entry(page_type: i32, encoding: i32, count: i32) -> PageEncodingStats {
        PageEncodingStats {
            page_type: PageType::from_i32(page_type),
            encoding: Encoding::from_i32(encoding),
            count,
        }
    }

    /// Every list keeps its entries exactly, whichever form holds them:
    /// short lists of small values (packed), values past 16 bits and
    /// negative ones, counts at the `i32` limits, and lists longer than
    /// the inline capacity; each also survives a Thrift round trip.
    #[test]
    fn keeps_every_entry_in_both_forms() {
        let values = [
            (0, 0, 0),
            (2, 8, 1),
            (3, 10, i32::MAX),
            (1, 2, i32::MIN),
            (-1, -32768, -5),
            (32767, 7, 9),
            (32768, 1, 2),
            (0, 70_000, 3),
            (i32::MIN, i32::MAX, 4),
        ];
        for n in 0..=values.len() {
            for shift in 0..values.len() {
                let entries: Vec<PageEncodingStats> = (0..n)
                    .map(|i| {
                        let (p, e, c) = values[(i + shift) % values.len()];
                        entry(p, e, c)
                    })
                    .collect();
                let list: PageEncodingStatsList = entries.clone().into();
                assert_eq!(list.len(), n);
                assert_eq!(list.is_empty(), n == 0);
                assert_eq!(list.iter().collect::<Vec<_>>(), entries);
                for (i, e) in entries.iter().enumerate() {
                    assert_eq!(list.get(i), Some(*e));
                }
                assert_eq!(list.get(n), None);
                let back: PageEncodingStatsList = decode(&encode_to_vec(&list)).unwrap();
                assert_eq!(back, list);
                assert_eq!(back.iter().collect::<Vec<_>>(), entries);
            }
        }
    }

    #[test]
    fn is_small_and_compares_by_content() {
        assert_eq!(std::mem::size_of::<PageEncodingStatsList>(), 32);
        let a: PageEncodingStatsList = vec![entry(2, 0, 1), entry(0, 8, 3)].into();
        let b: PageEncodingStatsList = vec![entry(2, 0, 1), entry(0, 8, 3)].into();
        let c: PageEncodingStatsList = vec![entry(2, 0, 1), entry(0, 8, 4)].into();
        let d: PageEncodingStatsList = vec![entry(2, 0, 1)].into();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        use std::hash::BuildHasher;
        let state = std::hash::RandomState::new();
        assert_eq!(state.hash_one(&a), state.hash_one(&b));
    }
}
