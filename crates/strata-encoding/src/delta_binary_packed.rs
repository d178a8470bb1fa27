//! DELTA_BINARY_PACKED (encoding id 5) for INT32 and INT64.
//!
//! Layout:
//!
//! ```text
//! header: <block size: ULEB128> <miniblocks per block: ULEB128>
//!         <total value count: ULEB128> <first value: zigzag ULEB128>
//! block:  <min delta: zigzag ULEB128> <one bit-width byte per miniblock>
//!         <miniblocks: (delta - min delta) bit-packed at the miniblock's width>
//! ```
//!
//! The block size is a multiple of 128 and the values per miniblock a
//! multiple of 32, so a miniblock is a whole number of 32-value groups of
//! `4 * width` bytes each. Arithmetic wraps in the value type's width (two's
//! complement), so deltas between `i64::MIN` and `i64::MAX` round-trip, and
//! no width exceeds the type's bit count.
//!
//! The encoder buffers one block of deltas (allocated on the first delta,
//! reused after) and the encoded blocks; the header is written at flush,
//! when the value count is known. An idle encoder holds no heap memory. The
//! decoder streams: it unpacks 32 values at a time into a stack buffer and
//! never allocates.

use std::marker::PhantomData;

use strata_sink::ByteSink;
use strata_sink::varint::{decode_uleb128, uleb128_len, zigzag_decode, zigzag_encode};

use crate::bit_pack::{bits_needed, pack32, unpack32};
use crate::error::{EncodingError, Result};
use crate::traits::{Decoder, Encoder};
use crate::types::{FixedWidthValue, sealed};
use strata_format::metadata::Encoding;

/// Default values per block.
pub(crate) const DEFAULT_BLOCK_SIZE: usize = 128;
/// Default miniblocks per block (32 values each).
pub(crate) const DEFAULT_MINIBLOCKS: usize = 4;

/// The integer types DELTA_BINARY_PACKED supports: `i32` and `i64`. Sealed.
pub trait DeltaInt: FixedWidthValue + sealed::Sealed {
    /// Bits of the type: the widest a miniblock may be.
    const BITS: u32;
    /// Sign-extend to `i64`.
    fn to_i64(self) -> i64;
    /// Truncate an `i64` to this type (two's complement wrap).
    fn from_i64_wrapping(v: i64) -> Self;
    /// Truncate a `u64` to this type (two's complement wrap).
    fn from_u64_wrapping(v: u64) -> Self;
    /// Two's complement addition in the type's own width.
    fn wrapping_add(self, other: Self) -> Self;
}

impl DeltaInt for i32 {
    const BITS: u32 = 32;

    #[inline]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }

    #[inline]
    fn from_i64_wrapping(v: i64) -> Self {
        v as i32
    }

    #[inline]
    fn from_u64_wrapping(v: u64) -> Self {
        v as i32
    }

    #[inline]
    fn wrapping_add(self, other: Self) -> Self {
        i32::wrapping_add(self, other)
    }
}

impl DeltaInt for i64 {
    const BITS: u32 = 64;

    #[inline]
    fn to_i64(self) -> i64 {
        self
    }

    #[inline]
    fn from_i64_wrapping(v: i64) -> Self {
        v
    }

    #[inline]
    fn from_u64_wrapping(v: u64) -> Self {
        v as i64
    }

    #[inline]
    fn wrapping_add(self, other: Self) -> Self {
        i64::wrapping_add(self, other)
    }
}

/// Check a block layout: block size a positive multiple of 128, miniblock
/// count dividing it into miniblocks of a multiple of 32 values.
fn check_layout(block_size: u64, miniblocks: u64) -> Result<(usize, usize)> {
    let ok = block_size > 0
        && block_size.is_multiple_of(128)
        && block_size <= u64::from(u32::MAX)
        && miniblocks > 0
        && block_size.is_multiple_of(miniblocks)
        && (block_size / miniblocks).is_multiple_of(32);
    if !ok {
        return Err(EncodingError::Corrupt(format!(
            "invalid DELTA_BINARY_PACKED layout: block size {block_size}, {miniblocks} miniblocks"
        )));
    }
    Ok((block_size as usize, miniblocks as usize))
}

/// DELTA_BINARY_PACKED encoder for `i32` and `i64`.
///
/// ```
/// use strata_encoding::{DeltaBinaryPackedEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaBinaryPackedEncoder::<i32>::new();
/// assert_eq!(enc.heap_size(), 0); // nothing allocated while idle
/// enc.put(&[1, 2, 3, 4, 5]).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// // Header: 128-value blocks, 4 miniblocks, 5 values, first value 1 (zigzag 2);
/// // then min delta 1 (zigzag 2) and four zero bit widths.
/// assert_eq!(page.as_slice(), &[0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0]);
/// ```
#[derive(Debug)]
pub struct DeltaBinaryPackedEncoder<T: DeltaInt> {
    block_size: usize,
    miniblocks: usize,
    total: usize,
    first: i64,
    last: i64,
    /// Deltas of the current block, sign-extended from `T`.
    deltas: Vec<i64>,
    /// Encoded full blocks of the current page.
    blocks: ByteSink,
    _type: PhantomData<fn(T)>,
}

impl<T: DeltaInt> Default for DeltaBinaryPackedEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: DeltaInt> DeltaBinaryPackedEncoder<T> {
    /// An encoder with 128-value blocks of 4 miniblocks. It holds no heap
    /// memory until the second value (the first lives in the header).
    pub const fn new() -> Self {
        Self {
            block_size: DEFAULT_BLOCK_SIZE,
            miniblocks: DEFAULT_MINIBLOCKS,
            total: 0,
            first: 0,
            last: 0,
            deltas: Vec::new(),
            blocks: ByteSink::new(),
            _type: PhantomData,
        }
    }

    /// An encoder with `block_size` values per block (a positive multiple of
    /// 128) split into `miniblocks` miniblocks of a multiple of 32 values.
    ///
    /// ```
    /// use strata_encoding::DeltaBinaryPackedEncoder;
    /// assert!(DeltaBinaryPackedEncoder::<i64>::with_layout(256, 8).is_ok());
    /// assert!(DeltaBinaryPackedEncoder::<i64>::with_layout(256, 16).is_err()); // 16 per miniblock
    /// assert!(DeltaBinaryPackedEncoder::<i64>::with_layout(100, 1).is_err());
    /// ```
    pub fn with_layout(block_size: usize, miniblocks: usize) -> Result<Self> {
        let (block_size, miniblocks) =
            check_layout(block_size as u64, miniblocks as u64).map_err(|_| {
                EncodingError::InvalidArgument(format!(
                    "block size {block_size} must be a positive multiple of 128 and split into \
                     {miniblocks} miniblocks of a multiple of 32 values"
                ))
            })?;
        Ok(Self {
            block_size,
            miniblocks,
            ..Self::new()
        })
    }

    /// Buffer one value.
    #[inline]
    pub(crate) fn push(&mut self, value: T) {
        let v = value.to_i64();
        if self.total == 0 {
            self.first = v;
        } else {
            let delta = T::from_i64_wrapping(v.wrapping_sub(self.last)).to_i64();
            if self.deltas.capacity() == 0 {
                self.deltas.reserve_exact(self.block_size);
            }
            self.deltas.push(delta);
            if self.deltas.len() == self.block_size {
                self.flush_block();
            }
        }
        self.last = v;
        self.total += 1;
    }

    /// Encode the buffered deltas as one block.
    fn flush_block(&mut self) {
        let deltas = &self.deltas;
        let Some(&min) = deltas.iter().min() else {
            return;
        };
        let per_mb = self.block_size / self.miniblocks;
        let needed = deltas.len().div_ceil(per_mb);
        self.blocks.put_zigzag(min);
        let widths_at = self.blocks.len();
        self.blocks.put_repeated(0, self.miniblocks);
        for (m, chunk) in deltas.chunks(per_mb).enumerate().take(needed) {
            let or = chunk
                .iter()
                .fold(0u64, |acc, &d| acc | d.wrapping_sub(min) as u64);
            let width = bits_needed(or);
            self.blocks.as_mut_slice()[widths_at + m] = width as u8;
            if width == 0 {
                continue;
            }
            let group_bytes = 4 * width as usize;
            let start = self.blocks.len();
            // Zero-filled: groups past the last delta stay zero padding.
            self.blocks.put_repeated(0, per_mb / 32 * group_bytes);
            let out = &mut self.blocks.as_mut_slice()[start..];
            for (g, group) in chunk.chunks(32).enumerate() {
                let mut rel = [0u64; 32];
                for (r, &d) in rel.iter_mut().zip(group) {
                    *r = d.wrapping_sub(min) as u64;
                }
                pack32(
                    &rel,
                    width,
                    &mut out[g * group_bytes..(g + 1) * group_bytes],
                );
            }
        }
        self.deltas.clear();
    }

    fn header_len(&self) -> usize {
        uleb128_len(self.block_size as u64)
            + uleb128_len(self.miniblocks as u64)
            + uleb128_len(self.total as u64)
            + uleb128_len(zigzag_encode(self.first))
    }
}

impl<T: DeltaInt> Encoder<T> for DeltaBinaryPackedEncoder<T> {
    fn put(&mut self, values: &[T]) -> Result<()> {
        for &v in values {
            self.push(v);
        }
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        self.flush_block();
        page.put_uleb128(self.block_size as u64);
        page.put_uleb128(self.miniblocks as u64);
        page.put_uleb128(self.total as u64);
        page.put_zigzag(self.first);
        page.extend_from_slice(self.blocks.as_slice());
        self.blocks.clear();
        self.total = 0;
        self.first = 0;
        self.last = 0;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.total
    }

    fn estimated_size(&self) -> usize {
        let pending = if self.deltas.is_empty() {
            0
        } else {
            let per_mb = self.block_size / self.miniblocks;
            let needed = self.deltas.len().div_ceil(per_mb);
            10 + self.miniblocks + needed * per_mb * (T::BITS as usize / 8)
        };
        self.header_len() + self.blocks.len() + pending
    }

    fn heap_size(&self) -> usize {
        self.deltas.capacity() * std::mem::size_of::<i64>() + self.blocks.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaBinaryPacked
    }
}

/// Read a ULEB128 at `*pos`, advancing it.
#[inline]
pub(crate) fn read_uleb(data: &[u8], pos: &mut usize, what: &'static str) -> Result<u64> {
    let rest = data.get(*pos..).ok_or(EncodingError::Truncated(what))?;
    let (v, n) = decode_uleb128(rest).map_err(|e| match e {
        strata_sink::SinkError::UnexpectedEof { .. } => EncodingError::Truncated(what),
        other => EncodingError::Sink(other),
    })?;
    *pos += n;
    Ok(v)
}

/// DELTA_BINARY_PACKED decoder for `i32` and `i64`.
///
/// `set_data` validates the header (block size a multiple of 128, miniblock
/// count dividing it into multiples of 32, a value count equal to
/// `num_values` that the page's bytes can plausibly hold); bit widths are
/// checked against the type's width as blocks are reached.
///
/// ```
/// use strata_encoding::{Decoder, DeltaBinaryPackedDecoder};
///
/// // Encodings.md example 2 (7, 5, 3, 1, 2, 3, 4, 5), with a legal block size.
/// let page = [0x80, 0x01, 4, 8, 14, 3, 2, 0, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0, 0, 0];
/// let mut dec = DeltaBinaryPackedDecoder::<i32>::new();
/// dec.set_data(&page, 8).unwrap();
/// let mut out = [0i32; 8];
/// assert_eq!(dec.decode(&mut out, 8).unwrap(), 8);
/// assert_eq!(out, [7, 5, 3, 1, 2, 3, 4, 5]);
/// ```
#[derive(Debug)]
pub struct DeltaBinaryPackedDecoder<'a, T: DeltaInt> {
    data: &'a [u8],
    /// Next unread byte.
    pos: usize,
    /// First byte after the header.
    header_end: usize,
    block_size: usize,
    miniblocks: usize,
    per_mb: usize,
    total: usize,
    /// Values not yet produced.
    left: usize,
    first_pending: bool,
    last: i64,
    min_delta: i64,
    widths_at: usize,
    /// Index of the next miniblock in the current block.
    mb_index: usize,
    /// Values (padding included) of the current miniblock not yet unpacked.
    mb_left: usize,
    width: u32,
    buf: [u64; 32],
    buf_pos: usize,
    _type: PhantomData<fn() -> T>,
}

impl<T: DeltaInt> Default for DeltaBinaryPackedDecoder<'_, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a, T: DeltaInt> DeltaBinaryPackedDecoder<'a, T> {
    /// A decoder with no page yet.
    pub const fn new() -> Self {
        Self {
            data: &[],
            pos: 0,
            header_end: 0,
            block_size: DEFAULT_BLOCK_SIZE,
            miniblocks: DEFAULT_MINIBLOCKS,
            per_mb: DEFAULT_BLOCK_SIZE / DEFAULT_MINIBLOCKS,
            total: 0,
            left: 0,
            first_pending: false,
            last: 0,
            min_delta: 0,
            widths_at: 0,
            mb_index: 0,
            mb_left: 0,
            width: 0,
            buf: [0; 32],
            buf_pos: 32,
            _type: PhantomData,
        }
    }

    fn reset(&mut self) {
        *self = Self::new();
    }

    /// Parse the header at the start of `page`, checking it announces
    /// `num_values` values.
    fn parse_header(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        let mut pos = 0;
        let block_size = read_uleb(page, &mut pos, "DELTA_BINARY_PACKED header")?;
        let miniblocks = read_uleb(page, &mut pos, "DELTA_BINARY_PACKED header")?;
        let total = read_uleb(page, &mut pos, "DELTA_BINARY_PACKED header")?;
        let first = zigzag_decode(read_uleb(page, &mut pos, "DELTA_BINARY_PACKED header")?);
        let (block_size, miniblocks) = check_layout(block_size, miniblocks)?;
        if total != num_values as u64 {
            return Err(EncodingError::InvalidValueCount {
                requested: num_values,
                available: usize::try_from(total).unwrap_or(usize::MAX),
            });
        }
        // Every block after the first value takes at least a min-delta byte
        // and its bit-width bytes.
        let blocks = num_values.saturating_sub(1).div_ceil(block_size);
        let min_bytes = blocks.checked_mul(1 + miniblocks);
        if min_bytes.is_none_or(|b| b > page.len() - pos) {
            return Err(EncodingError::InvalidValueCount {
                requested: num_values,
                available: (page.len() - pos) / (1 + miniblocks) * block_size + 1,
            });
        }
        self.data = page;
        self.pos = pos;
        self.header_end = pos;
        self.block_size = block_size;
        self.miniblocks = miniblocks;
        self.per_mb = block_size / miniblocks;
        self.total = num_values;
        self.left = num_values;
        self.first_pending = num_values > 0;
        self.last = T::from_i64_wrapping(first).to_i64();
        self.mb_index = miniblocks;
        self.mb_left = 0;
        self.buf_pos = 32;
        Ok(())
    }

    /// Read the next block's min delta and bit widths.
    fn next_block(&mut self) -> Result<()> {
        let min = read_uleb(self.data, &mut self.pos, "DELTA_BINARY_PACKED block")?;
        self.min_delta = zigzag_decode(min);
        self.widths_at = self.pos;
        let end = self.pos + self.miniblocks;
        if end > self.data.len() {
            return Err(EncodingError::Truncated("DELTA_BINARY_PACKED bit widths"));
        }
        self.pos = end;
        self.mb_index = 0;
        Ok(())
    }

    /// Unpack the next 32 values into `buf`.
    fn next_group(&mut self) -> Result<()> {
        if self.mb_left == 0 {
            if self.mb_index == self.miniblocks {
                self.next_block()?;
            }
            let width = u32::from(self.data[self.widths_at + self.mb_index]);
            if width > T::BITS {
                return Err(EncodingError::Corrupt(format!(
                    "miniblock bit width {width} exceeds {}",
                    T::BITS
                )));
            }
            self.width = width;
            self.mb_index += 1;
            self.mb_left = self.per_mb;
        }
        let bytes = 4 * self.width as usize;
        let end = self.pos + bytes;
        if end <= self.data.len() {
            unpack32(&self.data[self.pos..end], self.width, &mut self.buf)?;
            self.pos = end;
        } else {
            // A final group cut short: accept it when the bits of the values
            // still needed are all there, reading the rest as zero padding.
            let avail = self.data.len() - self.pos;
            let needed_bits = self.left.min(32) * self.width as usize;
            if avail * 8 < needed_bits {
                return Err(EncodingError::Truncated("DELTA_BINARY_PACKED miniblock"));
            }
            let mut padded = [0u8; 256];
            padded[..avail].copy_from_slice(&self.data[self.pos..]);
            unpack32(&padded, self.width, &mut self.buf)?;
            self.pos = self.data.len();
        }
        self.mb_left -= 32;
        self.buf_pos = 0;
        Ok(())
    }

    /// Byte offset just past the encoded stream, found by walking the block
    /// headers from the start without unpacking anything. Call right after
    /// `set_data`. Used by the byte-array encodings, whose next section
    /// starts there.
    pub(crate) fn stream_end(&self) -> Result<usize> {
        let mut remaining = self.total.saturating_sub(1);
        let mut pos = self.header_end;
        while remaining > 0 {
            read_uleb(self.data, &mut pos, "DELTA_BINARY_PACKED block")?;
            let widths = self
                .data
                .get(pos..pos + self.miniblocks)
                .ok_or(EncodingError::Truncated("DELTA_BINARY_PACKED bit widths"))?;
            pos += self.miniblocks;
            for &w in widths {
                if remaining == 0 {
                    break;
                }
                let w = u32::from(w);
                if w > T::BITS {
                    return Err(EncodingError::Corrupt(format!(
                        "miniblock bit width {w} exceeds {}",
                        T::BITS
                    )));
                }
                pos += self.per_mb / 32 * 4 * w as usize;
                if pos > self.data.len() {
                    return Err(EncodingError::Truncated("DELTA_BINARY_PACKED miniblock"));
                }
                remaining -= remaining.min(self.per_mb);
            }
        }
        Ok(pos)
    }
}

impl<'a, T: DeltaInt> Decoder<'a, T> for DeltaBinaryPackedDecoder<'a, T> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.reset();
        self.parse_header(page, num_values)
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut [T], max_values: usize) -> Result<usize> {
        let n = max_values.min(out.len()).min(self.left);
        let out = &mut out[..n];
        let mut i = 0;
        if n > 0 && self.first_pending {
            out[0] = T::from_i64_wrapping(self.last);
            self.first_pending = false;
            self.left -= 1;
            i = 1;
        }
        while i < n {
            if self.buf_pos == 32 {
                self.next_group()?;
            }
            let take = (n - i).min(32 - self.buf_pos);
            // The running sum in `T`'s own width: one add on the
            // loop-carried chain, no sign extension.
            let mut last = T::from_i64_wrapping(self.last);
            let min = T::from_i64_wrapping(self.min_delta);
            for (o, &r) in out[i..i + take]
                .iter_mut()
                .zip(&self.buf[self.buf_pos..self.buf_pos + take])
            {
                last = last.wrapping_add(min.wrapping_add(T::from_u64_wrapping(r)));
                *o = last;
            }
            self.last = last.to_i64();
            self.buf_pos += take;
            self.left -= take;
            i += take;
        }
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        let mut scratch = [T::default(); 64];
        let mut done = 0;
        while done < n {
            let c = (n - done).min(64);
            let got = self.decode(&mut scratch[..c], c)?;
            if got == 0 {
                break;
            }
            done += got;
        }
        Ok(done)
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaBinaryPacked
    }
}
