//! [`DictDecoder`]: decodes the dictionary page once, then index pages.

use std::sync::Arc;

use strata_sink::rle::RleDecoder;

use super::DictValue;
use super::store::{DictKey, DictStore, check_indices};
use crate::error::{EncodingError, Result};
use crate::plain::fixed_len::check_width;
use crate::traits::Decoder;
use crate::types::{ByteArray, FixedLenByteArray, OffsetSize};
use strata_format::metadata::Encoding;

/// Largest index bit width the format allows.
const MAX_INDEX_BIT_WIDTH: u8 = 32;

/// Dictionary decoder (RLE_DICTIONARY and PLAIN_DICTIONARY data pages) for
/// every physical type but BOOLEAN.
///
/// [`set_dict`](Self::set_dict) decodes a column chunk's dictionary page
/// once into an [`Arc`]-shared [`DictValue::Dict`];
/// [`set_data`](Decoder::set_data) then takes each data page of the chunk.
/// Values come out either gathered ([`decode`](Decoder::decode): numbers
/// through the RLE decoder's dictionary gather, byte arrays one reservation
/// per chunk of indices) or as raw indices
/// ([`decode_indices`](Self::decode_indices)) for an Arrow
/// `DictionaryArray` whose dictionary is [`dict`](Self::dict), shared by
/// every batch without a copy. Every index is checked against the
/// dictionary.
///
/// ```
/// use strata_encoding::{Decoder, DictDecoder};
///
/// let mut dec = DictDecoder::<i64>::new();
/// // Dictionary page: 7 and -1, PLAIN.
/// let dict = [7, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
/// dec.set_dict(&dict, 2).unwrap();
/// // Data page: bit width 1, an RLE run of three 1s (header 3 << 1), then
/// // one bit-packed group (header 0b11) of 0, 1.
/// dec.set_data(&[1, 6, 1, 0b11, 0b10], 5).unwrap();
/// let mut out = [0i64; 5];
/// assert_eq!(dec.decode(&mut out, 5).unwrap(), 5);
/// assert_eq!(out, [-1, -1, -1, 7, -1]);
/// ```
#[derive(Debug)]
pub struct DictDecoder<'a, T: DictValue> {
    dict: Option<Arc<T::Dict>>,
    /// Value width for FIXED_LEN_BYTE_ARRAY dictionaries (0 otherwise).
    width: usize,
    rle: Option<RleDecoder<'a>>,
    bit_width: u8,
    left: usize,
}

impl<T: DictKey + DictValue<Dict = Vec<T>>> Default for DictDecoder<'_, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: DictKey + DictValue<Dict = Vec<T>>> DictDecoder<'_, T> {
    /// A decoder for `i32`, `i64`, [`Int96`](crate::Int96), `f32` or `f64`
    /// with no dictionary yet.
    pub const fn new() -> Self {
        Self::with_width(0)
    }
}

impl<O: OffsetSize> DictDecoder<'_, ByteArray<O>> {
    /// A decoder for byte arrays, decoding into buffers with offsets of
    /// type `O` (`DictDecoder::<ByteArray>::new()` for `i32`), with no
    /// dictionary yet.
    pub const fn new() -> Self {
        Self::with_width(0)
    }
}

impl DictDecoder<'_, FixedLenByteArray> {
    /// A decoder for fixed-length byte arrays of `width` bytes (positive)
    /// with no dictionary yet.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self::with_width(width))
    }
}

impl<'a, T: DictValue> DictDecoder<'a, T> {
    const fn with_width(width: usize) -> Self {
        Self {
            dict: None,
            width,
            rle: None,
            bit_width: 0,
            left: 0,
        }
    }

    /// Decode the dictionary page `page` holding `num_values` PLAIN values.
    /// Call once per column chunk, before its data pages.
    ///
    /// Fails, before allocating anything, when `page` is too short for
    /// `num_values` values (each byte array takes at least 4 bytes).
    pub fn set_dict(&mut self, page: &[u8], num_values: usize) -> Result<()> {
        self.dict = None;
        self.rle = None;
        self.left = 0;
        let dict = <T::Dict as DictStore<T>>::decode_plain(page, num_values, self.width)?;
        self.dict = Some(Arc::new(dict));
        Ok(())
    }

    /// Use an already decoded dictionary, shared with its other holders.
    pub fn set_shared_dict(&mut self, dict: Arc<T::Dict>) {
        self.dict = Some(dict);
        self.rle = None;
        self.left = 0;
    }

    /// The current dictionary; clone the [`Arc`] to reference it from every
    /// batch without copying it.
    pub fn dict(&self) -> Option<&Arc<T::Dict>> {
        self.dict.as_ref()
    }

    /// Number of dictionary entries (0 with no dictionary).
    pub(crate) fn num_dict_entries(&self) -> usize {
        self.dict.as_deref().map_or(0, DictStore::entries)
    }

    /// Bit width of the current data page's indices.
    pub fn bit_width(&self) -> u8 {
        self.bit_width
    }

    /// Decode up to `out.len()` indices of the current page into `out`
    /// without looking values up, and return how many were decoded. Each
    /// index is checked against the dictionary, so every index handed out
    /// is valid for [`dict`](Self::dict).
    pub fn decode_indices(&mut self, out: &mut [u32]) -> Result<usize> {
        let n = out.len().min(self.left);
        if n == 0 {
            return Ok(0);
        }
        let len = self.num_dict_entries();
        let rle = self.rle.as_mut().ok_or_else(no_page)?;
        let out = &mut out[..n];
        if rle.get_batch(out)? < n {
            return Err(EncodingError::Truncated("dictionary indices"));
        }
        check_indices(out, len)?;
        self.left -= n;
        Ok(n)
    }
}

/// The index stream of a dictionary-encoded data page holding
/// `num_values` values, and its bit width: one byte of bit width (at most
/// 32), then RLE/bit-packed hybrid runs. `None` for an empty page of zero
/// values.
fn index_reader(page: &[u8], num_values: usize) -> Result<Option<(RleDecoder<'_>, u8)>> {
    let Some((&width, indices)) = page.split_first() else {
        if num_values == 0 {
            return Ok(None);
        }
        return Err(EncodingError::Truncated("dictionary index bit width"));
    };
    if width > MAX_INDEX_BIT_WIDTH {
        return Err(EncodingError::Corrupt(format!(
            "dictionary index bit width {width} exceeds {MAX_INDEX_BIT_WIDTH}"
        )));
    }
    Ok(Some((RleDecoder::new(indices, u32::from(width))?, width)))
}

/// Decode the first `out.len()` indices of the dictionary-encoded data
/// page `page` into `out`, each checked to be below `dict_len`: for a
/// reader that keeps its dictionary in a form of its own and needs only
/// the indices. Fails when the page holds fewer indices.
///
/// ```
/// use strata_encoding::decode_dictionary_indices;
///
/// // Bit width 1, an RLE run of three 1s, then a bit-packed group of 0, 1.
/// let page = [1, 6, 1, 0b11, 0b10];
/// let mut out = [0u32; 5];
/// decode_dictionary_indices(&page, 2, &mut out).unwrap();
/// assert_eq!(out, [1, 1, 1, 0, 1]);
/// // Index 1 is out of range for a dictionary of one entry.
/// assert!(decode_dictionary_indices(&page, 1, &mut out).is_err());
/// ```
pub fn decode_dictionary_indices(page: &[u8], dict_len: usize, out: &mut [u32]) -> Result<()> {
    decode_dictionary_indices_from(page, dict_len, 0, out)
}

/// [`decode_dictionary_indices`] for the indices after the first `skip`:
/// indices `skip..skip + out.len()` of the page, so a reader can decode a
/// page's indices a batch at a time without keeping a decoder (the
/// skipped runs are passed over, not decoded).
///
/// ```
/// use strata_encoding::decode_dictionary_indices_from;
///
/// let page = [1, 6, 1, 0b11, 0b10];
/// let mut out = [0u32; 3];
/// decode_dictionary_indices_from(&page, 2, 2, &mut out).unwrap();
/// assert_eq!(out, [1, 0, 1]);
/// // The page holds 11 indices (its bit-packed group is padded to 8).
/// assert!(decode_dictionary_indices_from(&page, 2, 9, &mut out).is_err());
/// ```
pub fn decode_dictionary_indices_from(
    page: &[u8],
    dict_len: usize,
    skip: usize,
    out: &mut [u32],
) -> Result<()> {
    let Some((mut rle, _)) = index_reader(page, skip.saturating_add(out.len()))? else {
        return Ok(());
    };
    if skip > 0 && rle.skip(skip)? < skip {
        return Err(EncodingError::Truncated("dictionary indices"));
    }
    if rle.get_batch(out)? < out.len() {
        return Err(EncodingError::Truncated("dictionary indices"));
    }
    check_indices(out, dict_len)
}

fn no_dict() -> EncodingError {
    EncodingError::InvalidArgument("no dictionary: call set_dict before set_data".into())
}

fn no_page() -> EncodingError {
    EncodingError::InvalidArgument("no data page set".into())
}

impl<'a, T: DictValue> Decoder<'a, T> for DictDecoder<'a, T> {
    /// Start a data page: one byte of index bit width (at most 32), then
    /// the RLE/bit-packed hybrid indices. A page of zero values may be
    /// empty. Needs a dictionary.
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.rle = None;
        self.left = 0;
        if self.dict.is_none() {
            return Err(no_dict());
        }
        let Some((rle, width)) = index_reader(page, num_values)? else {
            return Ok(());
        };
        self.rle = Some(rle);
        self.bit_width = width;
        self.left = num_values;
        Ok(())
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut T::Out, max_values: usize) -> Result<usize> {
        let n = max_values.min(self.left);
        if n == 0 {
            return Ok(0);
        }
        let dict = self.dict.as_deref().ok_or_else(no_dict)?;
        let rle = self.rle.as_mut().ok_or_else(no_page)?;
        let got = dict.gather(rle, out, n)?;
        self.left -= got;
        Ok(got)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        if n == 0 {
            return Ok(0);
        }
        let rle = self.rle.as_mut().ok_or_else(no_page)?;
        if rle.skip(n)? < n {
            return Err(EncodingError::Truncated("dictionary indices"));
        }
        self.left -= n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::RleDictionary
    }
}
