//! [`PlainDict`]: the dictionary of a fixed-width column chunk (INT32,
//! INT64, INT96, FLOAT, DOUBLE), kept as its PLAIN dictionary page.
//!
//! A dictionary page of fixed-width values is already an array: entry `i`
//! is bytes `i * W..(i + 1) * W`, little endian. The record reader keeps
//! the page's [`Bytes`] (a reference to the decompressed page, or to the
//! file's buffer for an uncompressed one) and gathers entries straight
//! from it. Decoding the page into a `Vec` first would allocate and write
//! up to a dictionary page's size (1 MiB under the common writers' default
//! limit) once per column chunk, and on a wide table those fresh pages
//! (page faults included) cost more than the gathers that read them.
//!
//! The entry count is checked against the page length once, when the
//! dictionary is made; a gather checks its indices against it
//! ([`indices_below`](crate::indices_below)) before reading any entry.

use std::fmt;
use std::marker::PhantomData;

use crate::FixedWidthValue;
use bytes::Bytes;

use crate::error::{EncodingError, Result};

/// The PLAIN dictionary page of a fixed-width column chunk: `len()` entries
/// of `T::WIDTH` bytes each, read in place.
///
/// ```
/// use bytes::Bytes;
/// use strata_encoding::chunk::PlainDict;
///
/// // Two INT64 entries, 7 and -1, and one byte of slack the count leaves out.
/// let mut page = 7i64.to_le_bytes().to_vec();
/// page.extend((-1i64).to_le_bytes());
/// page.push(0);
/// let dict = PlainDict::<i64>::new(Bytes::from(page), 2).unwrap();
/// assert_eq!(dict.len(), 2);
/// assert_eq!(dict.get(1), Some(-1));
/// assert_eq!(dict.get(2), None);
/// // A count the page cannot hold is an error.
/// assert!(PlainDict::<i64>::new(Bytes::from(vec![0u8; 15]), 2).is_err());
/// ```
pub struct PlainDict<T> {
    /// Exactly `len * T::WIDTH` bytes.
    page: Bytes,
    len: usize,
    _values: PhantomData<fn() -> T>,
}

impl<T: FixedWidthValue> PlainDict<T> {
    /// The first `len` entries of the PLAIN page `page`; fails when the
    /// page is shorter than `len` entries.
    pub fn new(page: Bytes, len: usize) -> Result<Self> {
        let bytes = len
            .checked_mul(T::WIDTH)
            .filter(|&b| b <= page.len())
            .ok_or_else(|| {
                EncodingError::Corrupt(format!(
                    "dictionary page of {} bytes cannot hold {len} {} values",
                    page.len(),
                    T::NAME
                ))
            })?;
        Ok(Self {
            page: page.slice(..bytes),
            len,
            _values: PhantomData,
        })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the dictionary has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The PLAIN bytes of every entry, `len() * T::WIDTH` of them.
    pub fn page(&self) -> &[u8] {
        &self.page
    }

    /// Entry `index`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<T> {
        let start = index.checked_mul(T::WIDTH)?;
        let bytes = self.page.get(start..start.checked_add(T::WIDTH)?)?;
        let mut value = [T::default()];
        T::decode_plain(bytes, &mut value);
        Some(value[0])
    }
}

impl<T: FixedWidthValue> fmt::Debug for PlainDict<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlainDict")
            .field("type", &T::NAME)
            .field("len", &self.len)
            .finish()
    }
}
