//! [`Page`]: one decompressed page of a column chunk.
//!
//! A page reader hands out pages with their bodies already decompressed:
//!
//! - [`Page::DataPage`] (v1): repetition levels, definition levels (each an
//!   RLE run with a 4-byte length prefix, or BIT_PACKED) and then the values,
//!   all in `buf`.
//! - [`Page::DataPageV2`]: the repetition then definition levels
//!   (RLE, no length prefix; their byte lengths are in the page), then the
//!   values. Levels are never compressed in v2; `buf` holds them followed by
//!   the decompressed values.
//! - [`Page::DictionaryPage`]: the dictionary's values (PLAIN encoded).

use bytes::Bytes;
use strata_format::metadata::{Encoding, PageType, Statistics};

/// One page of a column chunk, decompressed.
#[derive(Debug, Clone, PartialEq)]
pub enum Page {
    /// A version 1 data page.
    DataPage {
        /// Levels and values, decompressed.
        buf: Bytes,
        /// Number of values including nulls (the number of level entries).
        num_values: u32,
        /// Encoding of the values.
        encoding: Encoding,
        /// Encoding of the definition levels (RLE or BIT_PACKED).
        def_level_encoding: Encoding,
        /// Encoding of the repetition levels (RLE or BIT_PACKED).
        rep_level_encoding: Encoding,
        /// Page statistics, if the writer recorded them.
        statistics: Option<Statistics>,
    },
    /// A version 2 data page.
    DataPageV2 {
        /// Repetition levels, definition levels, then the decompressed values.
        buf: Bytes,
        /// Number of values including nulls.
        num_values: u32,
        /// Number of nulls.
        num_nulls: u32,
        /// Number of rows (records) that start in this page.
        num_rows: u32,
        /// Encoding of the values.
        encoding: Encoding,
        /// Byte length of the definition levels in `buf` (after the
        /// repetition levels).
        def_levels_byte_len: u32,
        /// Byte length of the repetition levels at the start of `buf`.
        rep_levels_byte_len: u32,
        /// Whether the values section was compressed in the file (it is
        /// decompressed in `buf` either way).
        is_compressed: bool,
        /// Page statistics, if the writer recorded them.
        statistics: Option<Statistics>,
    },
    /// A dictionary page.
    DictionaryPage {
        /// The dictionary's values, decompressed.
        buf: Bytes,
        /// Number of entries.
        num_values: u32,
        /// Encoding of the entries (PLAIN or PLAIN_DICTIONARY, both meaning
        /// PLAIN).
        encoding: Encoding,
        /// Whether the entries are sorted.
        is_sorted: bool,
    },
}

impl Page {
    /// The page's kind as recorded in its header.
    pub fn page_type(&self) -> PageType {
        match self {
            Page::DataPage { .. } => PageType::DataPage,
            Page::DataPageV2 { .. } => PageType::DataPageV2,
            Page::DictionaryPage { .. } => PageType::DictionaryPage,
        }
    }

    /// The decompressed body.
    pub fn buffer(&self) -> &Bytes {
        match self {
            Page::DataPage { buf, .. }
            | Page::DataPageV2 { buf, .. }
            | Page::DictionaryPage { buf, .. } => buf,
        }
    }

    /// Number of values (data pages: level entries, nulls included;
    /// dictionary pages: entries).
    pub fn num_values(&self) -> u32 {
        match self {
            Page::DataPage { num_values, .. }
            | Page::DataPageV2 { num_values, .. }
            | Page::DictionaryPage { num_values, .. } => *num_values,
        }
    }

    /// Encoding of the values.
    pub fn encoding(&self) -> Encoding {
        match self {
            Page::DataPage { encoding, .. }
            | Page::DataPageV2 { encoding, .. }
            | Page::DictionaryPage { encoding, .. } => *encoding,
        }
    }

    /// Whether this is a dictionary page.
    pub fn is_dictionary(&self) -> bool {
        matches!(self, Page::DictionaryPage { .. })
    }

    /// Page statistics, if any (dictionary pages have none).
    pub fn statistics(&self) -> Option<&Statistics> {
        match self {
            Page::DataPage { statistics, .. } | Page::DataPageV2 { statistics, .. } => {
                statistics.as_ref()
            }
            Page::DictionaryPage { .. } => None,
        }
    }
}
