//! [`PageEncodingStatsList`]: the page counts of a column chunk, packed.

use smallvec::SmallVec;

use super::{Encoding, PageEncodingStats, PageType};
use crate::error::{FormatError, Result};
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// The page counts of a column chunk (`ColumnMetaData.encoding_stats`, a
/// Thrift `list<PageEncodingStats>`), in wire order.
///
/// Each entry is kept as three `i32`s, the Thrift values of its page type,
/// encoding and count, rather than as a [`PageEncodingStats`], whose two
/// open enums take 8 bytes each: up to three entries (a dictionary page,
/// dictionary-encoded data pages and plain data pages after a fallback) are
/// held inline. Entries are read and written as [`PageEncodingStats`]
/// values, unknown page types and encodings included.
///
/// ```
/// use strata_format::metadata::{Encoding, PageEncodingStats, PageEncodingStatsList, PageType};
///
/// let dict = PageEncodingStats { page_type: PageType::DictionaryPage, encoding: Encoding::Plain, count: 1 };
/// let list: PageEncodingStatsList = vec![dict].into();
/// assert_eq!(list.len(), 1);
/// assert_eq!(list.iter().next(), Some(dict));
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct PageEncodingStatsList {
    /// `[page_type, encoding, count]` of each entry.
    entries: SmallVec<[[i32; 3]; 3]>,
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
        self.entries.push([
            stats.page_type.to_i32(),
            stats.encoding.to_i32(),
            stats.count,
        ]);
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<PageEncodingStats> {
        self.entries.get(i).map(|&e| unpack(e))
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = PageEncodingStats> + '_ {
        self.entries.iter().map(|&e| unpack(e))
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
        let start = r.position();
        // `n` is checked against the remaining input, one byte per struct.
        let (elem, n) = r.read_list_header()?;
        if !elem.same_kind(FieldType::Struct) {
            return Err(FormatError::InvalidThrift {
                offset: start,
                reason: "list element type does not match the schema",
            });
        }
        let mut list = Self {
            entries: SmallVec::with_capacity(n),
        };
        for _ in 0..n {
            match r.try_small_i32_struct::<3>() {
                // Entries are stored as their wire values, so the fast
                // path needs no enum conversion.
                Some(entry) => list.entries.push(entry),
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
