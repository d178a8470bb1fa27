//! RLE (encoding id 3) for BOOLEAN data pages: a 4-byte little-endian
//! length, then the values as an RLE/bit-packed hybrid stream of bit
//! width one. The length prefix is present in data pages v1 and v2 alike
//! (`Encodings.md`, table of prefixed lengths).

use strata_sink::ByteSink;
use strata_sink::rle::{RleDecoder, RleEncoder};

use crate::error::{EncodingError, Result};
use crate::traits::{Decoder, Encoder};
use strata_format::metadata::Encoding;

/// Values converted per step when decoding (a stack buffer, no heap).
const CHUNK: usize = 256;

/// Split a 4-byte little-endian length prefix off `data` and return the
/// `length` bytes it announces and the bytes after them.
pub(crate) fn split_length_prefixed<'a>(
    data: &'a [u8],
    what: &'static str,
) -> Result<(&'a [u8], &'a [u8])> {
    let (len, rest) = data
        .split_first_chunk::<4>()
        .ok_or(EncodingError::Truncated(what))?;
    let len = u32::from_le_bytes(*len) as usize;
    if len > rest.len() {
        return Err(EncodingError::Corrupt(format!(
            "{what}: length prefix {len} exceeds the {} bytes that follow",
            rest.len()
        )));
    }
    Ok(rest.split_at(len))
}

/// An upper bound of the bytes `rle` writes when flushed now.
///
/// `RleEncoder::estimated_len` leaves out a pending RLE run of exactly 8
/// values whose group is already complete (strata-sink); that run takes at
/// most a one-byte header (8 << 1 fits) and the value bytes, added here.
pub(crate) fn rle_upper_bound(rle: &RleEncoder) -> usize {
    rle.estimated_len() + 1 + rle.bit_width().div_ceil(8) as usize
}

/// Append the 4-byte length of what `write` appends, then it.
pub(crate) fn write_length_prefixed(
    page: &mut ByteSink,
    write: impl FnOnce(&mut ByteSink),
) -> Result<()> {
    let start = page.len();
    page.put_u32_le(0);
    write(page);
    let len = page.len() - start - 4;
    let len = u32::try_from(len).map_err(|_| {
        EncodingError::InvalidArgument(format!("{len} encoded bytes do not fit a 4-byte length"))
    })?;
    page.as_mut_slice()[start..start + 4].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

/// RLE encoder for `bool` data pages: the length-prefixed RLE/bit-packed
/// hybrid at bit width 1. A new encoder holds no heap memory.
///
/// ```
/// use strata_encoding::{Encoder, RleBooleanEncoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = RleBooleanEncoder::new();
/// enc.put(&[true; 10]).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// // Length 2, then an RLE run of ten (header 10 << 1) of value 1.
/// assert_eq!(page.as_slice(), &[2, 0, 0, 0, 20, 1]);
/// ```
#[derive(Debug)]
pub struct RleBooleanEncoder {
    rle: RleEncoder,
    count: usize,
}

impl Default for RleBooleanEncoder {
    fn default() -> Self {
        Self::new()
    }
}

impl RleBooleanEncoder {
    /// A new encoder; no heap memory until the first value.
    pub fn new() -> Self {
        Self {
            rle: RleEncoder::new(1),
            count: 0,
        }
    }
}

impl Encoder<bool> for RleBooleanEncoder {
    fn put(&mut self, values: &[bool]) -> Result<()> {
        for &v in values {
            self.rle.put(u64::from(v));
        }
        self.count += values.len();
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        let rle = &mut self.rle;
        let result = write_length_prefixed(page, |p| rle.flush_into(p));
        self.count = 0;
        result
    }

    fn num_values(&self) -> usize {
        self.count
    }

    /// An upper bound (the 4-byte length plus the RLE estimate).
    fn estimated_size(&self) -> usize {
        4 + rle_upper_bound(&self.rle)
    }

    fn heap_size(&self) -> usize {
        self.rle.heap_size()
    }

    fn encoding(&self) -> Encoding {
        Encoding::Rle
    }
}

/// RLE decoder for `bool` data pages.
///
/// `set_data` checks the length prefix against the page; the hybrid stream
/// itself cannot bound the value count (a run of a billion values takes a
/// few bytes), so running short is reported by `decode` / `skip`.
///
/// ```
/// use strata_encoding::{Decoder, RleBooleanDecoder};
///
/// // Length 4; one bit-packed group (header 0b11) of 1, 0, 1, 1, 0, ...;
/// // then an RLE run of two 1s.
/// let page = [4, 0, 0, 0, 0b11, 0b0000_1101, 4, 1];
/// let mut dec = RleBooleanDecoder::new();
/// dec.set_data(&page, 5).unwrap();
/// let mut out = [false; 5];
/// assert_eq!(dec.decode(&mut out, 5).unwrap(), 5);
/// assert_eq!(out, [true, false, true, true, false]);
/// ```
#[derive(Debug, Default)]
pub struct RleBooleanDecoder<'a> {
    rle: Option<RleDecoder<'a>>,
    left: usize,
}

impl RleBooleanDecoder<'_> {
    /// A decoder with no page yet.
    pub const fn new() -> Self {
        Self { rle: None, left: 0 }
    }
}

impl<'a> Decoder<'a, bool> for RleBooleanDecoder<'a> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.rle = None;
        self.left = 0;
        let (runs, _) = split_length_prefixed(page, "RLE boolean length")?;
        self.rle = Some(RleDecoder::new(runs, 1)?);
        self.left = num_values;
        Ok(())
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut [bool], max_values: usize) -> Result<usize> {
        let n = max_values.min(out.len()).min(self.left);
        let Some(rle) = self.rle.as_mut() else {
            return Ok(0);
        };
        let mut bits = [0u8; CHUNK];
        for dst in out[..n].chunks_mut(CHUNK) {
            let bits = &mut bits[..dst.len()];
            if rle.get_batch(bits)? < dst.len() {
                return Err(EncodingError::Truncated("RLE boolean values"));
            }
            for (o, &b) in dst.iter_mut().zip(bits.iter()) {
                *o = b != 0;
            }
            self.left -= dst.len();
        }
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        let Some(rle) = self.rle.as_mut() else {
            return Ok(0);
        };
        if rle.skip(n)? < n {
            return Err(EncodingError::Truncated("RLE boolean values"));
        }
        self.left -= n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::Rle
    }
}
