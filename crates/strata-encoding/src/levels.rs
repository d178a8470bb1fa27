//! Definition and repetition levels.
//!
//! Levels are `i16`, as in arrow-rs: a level is at most the column's
//! maximum level, which the schema layer computes as a count of optional or
//! repeated ancestors and which fits an `i16` (0..=32767). Every level
//! stream has the bit width needed for the maximum level (0 bits when the
//! maximum is 0, in which case writers omit the stream altogether).
//!
//! - RLE (id 3), the RLE/bit-packed hybrid: data pages v1 prefix it with a
//!   4-byte little-endian length ([`LevelEncoder::flush_v1`],
//!   [`LevelDecoder::set_rle_v1`]); data pages v2 do not, the page header
//!   giving the byte length instead ([`LevelEncoder::flush_v2`],
//!   [`LevelDecoder::set_rle_v2`]).
//! - BIT_PACKED (id 4), deprecated, decode only
//!   ([`LevelDecoder::set_bit_packed`]): values back to back at the bit
//!   width, packed from the most significant bit of each byte down (the
//!   opposite of the hybrid's bit-packed runs), the last byte zero padded.
//!
//! [`def_levels_to_validity`] turns the definition levels of a leaf column
//! into an Arrow validity bitmap and its null count in one pass.

use strata_sink::ByteSink;
use strata_sink::rle::{RleDecoder, RleEncoder};

use crate::bit_pack::bits_needed;
use crate::error::{EncodingError, Result};
use crate::rle_boolean::{rle_upper_bound, split_length_prefixed, write_length_prefixed};
use crate::validity::check_bitmap;
use strata_format::metadata::Encoding;

/// Levels converted per step when decoding (a stack buffer, no heap).
const CHUNK: usize = 256;

fn check_max_level(max_level: i16) -> Result<u32> {
    if max_level < 0 {
        return Err(EncodingError::InvalidArgument(format!(
            "negative maximum level {max_level}"
        )));
    }
    Ok(bits_needed(max_level as u64))
}

/// Encodes definition or repetition levels as the RLE/bit-packed hybrid at
/// the bit width of the maximum level. A new encoder holds no heap memory;
/// one encoder serves every page of a column chunk.
///
/// ```
/// use strata_encoding::LevelEncoder;
/// use strata_sink::ByteSink;
///
/// let mut enc = LevelEncoder::new(1).unwrap();
/// enc.put(&[1; 12]).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_v1(&mut page).unwrap();
/// // Length 2, then an RLE run of twelve (header 12 << 1) of value 1.
/// assert_eq!(page.as_slice(), &[2, 0, 0, 0, 24, 1]);
/// ```
#[derive(Debug)]
pub struct LevelEncoder {
    max_level: i16,
    rle: RleEncoder,
    count: usize,
}

impl LevelEncoder {
    /// An encoder for levels `0..=max_level` (`max_level >= 0`).
    pub fn new(max_level: i16) -> Result<Self> {
        let width = check_max_level(max_level)?;
        Ok(Self {
            max_level,
            rle: RleEncoder::new(width),
            count: 0,
        })
    }

    /// The maximum level.
    pub fn max_level(&self) -> i16 {
        self.max_level
    }

    /// Bits per level: the bits needed for the maximum level.
    pub fn bit_width(&self) -> u32 {
        self.rle.bit_width()
    }

    /// Buffer `levels`. Fails, buffering none of them, if one is outside
    /// `0..=max_level`.
    pub fn put(&mut self, levels: &[i16]) -> Result<()> {
        let max = self.max_level;
        // Checked without an early exit, so the compare vectorises; the
        // bad level is looked up only for the error.
        let out_of_range = levels.chunks(64).fold(false, |bad, c| {
            c.iter().fold(bad, |b, &l| b | (l < 0) | (l > max))
        });
        if out_of_range && let Some(&bad) = levels.iter().find(|&&l| l < 0 || l > max) {
            return Err(EncodingError::InvalidArgument(format!(
                "level {bad} outside 0..={max}"
            )));
        }
        // Long runs counted once, other levels eight at a time.
        self.rle.put_mapped(levels, |l| l as u64);
        self.count += levels.len();
        Ok(())
    }

    /// Buffer `n` copies of `level`.
    pub fn put_repeated(&mut self, level: i16, n: usize) -> Result<()> {
        if level < 0 || level > self.max_level {
            return Err(EncodingError::InvalidArgument(format!(
                "level {level} outside 0..={}",
                self.max_level
            )));
        }
        self.rle.put_repeated(level as u64, n);
        self.count += n;
        Ok(())
    }

    /// Number of levels buffered since the last flush.
    pub fn num_values(&self) -> usize {
        self.count
    }

    /// An upper bound of the bytes [`flush_v2`](Self::flush_v2) would write
    /// now ([`flush_v1`](Self::flush_v1) adds 4).
    pub fn estimated_size(&self) -> usize {
        rle_upper_bound(&self.rle)
    }

    /// Bytes of heap memory held.
    pub fn heap_size(&self) -> usize {
        self.rle.heap_size()
    }

    /// Append the buffered levels for a data page v1: a 4-byte
    /// little-endian length, then the hybrid runs. Resets for the next page.
    pub fn flush_v1(&mut self, page: &mut ByteSink) -> Result<()> {
        let rle = &mut self.rle;
        let result = write_length_prefixed(page, |p| rle.flush_into(p));
        self.count = 0;
        result
    }

    /// Append the buffered levels for a data page v2 (the hybrid runs with
    /// no length prefix) and return how many bytes were written, the length
    /// the v2 page header records. Resets for the next page.
    pub fn flush_v2(&mut self, page: &mut ByteSink) -> Result<usize> {
        let start = page.len();
        self.rle.flush_into(page);
        self.count = 0;
        Ok(page.len() - start)
    }

    /// The encoding the streams are written in.
    pub fn encoding(&self) -> Encoding {
        Encoding::Rle
    }
}

/// Where a [`LevelDecoder`] reads from.
#[derive(Debug)]
enum Source<'a> {
    None,
    Rle(RleDecoder<'a>),
    /// BIT_PACKED: MSB-first values starting at bit `bit` of `data`.
    BitPacked {
        data: &'a [u8],
        bit: usize,
    },
}

/// Decodes definition or repetition levels into `i16`s, from the RLE
/// hybrid (v1 length-prefixed, or v2 with the length from the page header)
/// or the deprecated BIT_PACKED encoding. Levels above the maximum are an
/// error.
///
/// ```
/// use strata_encoding::LevelDecoder;
///
/// // BIT_PACKED, the spec's example: 0..=7 at bit width 3, MSB first.
/// let mut dec = LevelDecoder::new(7).unwrap();
/// assert_eq!(dec.set_bit_packed(&[0b0000_0101, 0b0011_1001, 0b0111_0111], 8).unwrap(), 3);
/// let mut out = [0i16; 8];
/// assert_eq!(dec.decode(&mut out).unwrap(), 8);
/// assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
#[derive(Debug)]
pub struct LevelDecoder<'a> {
    max_level: i16,
    bit_width: u32,
    source: Source<'a>,
    left: usize,
}

impl<'a> LevelDecoder<'a> {
    /// A decoder for levels `0..=max_level` (`max_level >= 0`), with no
    /// stream yet.
    pub fn new(max_level: i16) -> Result<Self> {
        let bit_width = check_max_level(max_level)?;
        Ok(Self {
            max_level,
            bit_width,
            source: Source::None,
            left: 0,
        })
    }

    /// The maximum level.
    pub fn max_level(&self) -> i16 {
        self.max_level
    }

    /// Bits per level.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Levels not yet decoded or skipped.
    pub fn levels_left(&self) -> usize {
        self.left
    }

    fn reset(&mut self) {
        self.source = Source::None;
        self.left = 0;
    }

    /// Start a data page v1 level stream of `num_values` levels at the
    /// start of `data`: a 4-byte little-endian length, then that many bytes
    /// of hybrid runs. Returns the bytes the stream takes (`4 + length`),
    /// where the next section of the page starts.
    pub fn set_rle_v1(&mut self, data: &'a [u8], num_values: usize) -> Result<usize> {
        self.reset();
        let (runs, _) = split_length_prefixed(data, "level length")?;
        self.source = Source::Rle(RleDecoder::new(runs, self.bit_width)?);
        self.left = num_values;
        Ok(4 + runs.len())
    }

    /// Start a data page v2 level stream of `num_values` levels: `data` is
    /// exactly the hybrid runs, whose length the page header gives.
    pub fn set_rle_v2(&mut self, data: &'a [u8], num_values: usize) -> Result<()> {
        self.reset();
        self.source = Source::Rle(RleDecoder::new(data, self.bit_width)?);
        self.left = num_values;
        Ok(())
    }

    /// Start a deprecated BIT_PACKED stream of `num_values` levels at the
    /// start of `data`. Returns the bytes the stream takes
    /// (`ceil(num_values * bit_width / 8)`); fails if `data` is shorter.
    pub fn set_bit_packed(&mut self, data: &'a [u8], num_values: usize) -> Result<usize> {
        self.reset();
        let bytes = num_values
            .checked_mul(self.bit_width as usize)
            .map(|bits| bits.div_ceil(8))
            .filter(|&b| b <= data.len())
            .ok_or(EncodingError::InvalidValueCount {
                requested: num_values,
                available: data
                    .len()
                    .saturating_mul(8)
                    .checked_div(self.bit_width as usize)
                    .unwrap_or(usize::MAX),
            })?;
        self.source = Source::BitPacked {
            data: &data[..bytes],
            bit: 0,
        };
        self.left = num_values;
        Ok(bytes)
    }

    /// Decode up to `out.len()` levels into `out` and return how many were
    /// decoded (fewer only when the stream's `num_values` run out).
    pub fn decode(&mut self, out: &mut [i16]) -> Result<usize> {
        let n = out.len().min(self.left);
        let out = &mut out[..n];
        let max = self.max_level;
        match &mut self.source {
            Source::None => return Ok(0),
            Source::Rle(rle) => {
                let mut raw = [0u16; CHUNK];
                for dst in out.chunks_mut(CHUNK) {
                    let raw = &mut raw[..dst.len()];
                    if rle.get_batch(raw)? < dst.len() {
                        return Err(EncodingError::Truncated("levels"));
                    }
                    // Any level above `max` leaves a non-zero difference;
                    // a saturating subtract vectorises where a u16 max
                    // needs SSE4.1.
                    let limit = max as u16;
                    if raw.iter().fold(0u16, |a, &r| a | r.saturating_sub(limit)) != 0 {
                        let top = raw.iter().copied().max().unwrap_or(0);
                        return Err(level_too_high(top, max));
                    }
                    for (o, &r) in dst.iter_mut().zip(raw.iter()) {
                        *o = r as i16;
                    }
                }
            }
            Source::BitPacked { data, bit } => {
                let width = self.bit_width;
                let mut top = 0u16;
                for o in out.iter_mut() {
                    let v = read_msb_first(data, *bit, width);
                    top = top.max(v);
                    *o = v as i16;
                    *bit += width as usize;
                }
                if top > max as u16 {
                    return Err(level_too_high(top, max));
                }
            }
        }
        self.left -= n;
        Ok(n)
    }

    /// Whether every level left is `level`, known without decoding them:
    /// the stream goes on with one RLE run of `level` at least as long as
    /// the levels left. `false` means "not known" (decode to find out).
    /// Consumes no level.
    ///
    /// ```
    /// use strata_encoding::LevelDecoder;
    ///
    /// // v2 levels: one RLE run of 100 levels of value 1 (bit width 1):
    /// // the header 100 << 1 as a ULEB128 varint, then the value.
    /// let runs = [0xC8, 0x01, 1];
    /// let mut dec = LevelDecoder::new(1).unwrap();
    /// dec.set_rle_v2(&runs, 100).unwrap();
    /// assert!(dec.all_equal(1).unwrap());
    /// assert!(!dec.all_equal(0).unwrap());
    /// ```
    pub fn all_equal(&mut self, level: i16) -> Result<bool> {
        let left = self.left;
        match &mut self.source {
            Source::Rle(rle) => Ok(rle
                .repeat_run()?
                .is_some_and(|(v, run)| run >= left && i16::try_from(v) == Ok(level))),
            Source::None | Source::BitPacked { .. } => Ok(false),
        }
    }

    /// Skip up to `n` levels and return how many were skipped.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        match &mut self.source {
            Source::None => return Ok(0),
            Source::Rle(rle) => {
                if rle.skip(n)? < n {
                    return Err(EncodingError::Truncated("levels"));
                }
            }
            Source::BitPacked { bit, .. } => *bit += n * self.bit_width as usize,
        }
        self.left -= n;
        Ok(n)
    }
}

fn level_too_high(level: u16, max: i16) -> EncodingError {
    EncodingError::Corrupt(format!("level {level} exceeds the maximum level {max}"))
}

/// The `width`-bit value (width at most 15) starting at bit `bit` of
/// `data`, bits numbered from the most significant bit of each byte.
/// Bytes past the end read as zero.
#[inline]
fn read_msb_first(data: &[u8], bit: usize, width: u32) -> u16 {
    let byte = bit / 8;
    let mut window = 0u32;
    for k in 0..3 {
        window = (window << 8) | u32::from(data.get(byte + k).copied().unwrap_or(0));
    }
    // 24-bit window; the value ends `24 - (bit % 8) - width` bits above its
    // least significant bit.
    let shift = 24 - (bit % 8) as u32 - width;
    let mask = (1u32 << width) - 1;
    ((window >> shift) & mask) as u16
}

/// Write the definition levels of a leaf column whose ancestors are all
/// required into an LSB-first validity bitmap, and return the null count,
/// in one pass.
///
/// Slot `i` is valid (bit `offset + i` of `validity` set) when
/// `levels[i] == max_def`, and null (bit cleared) otherwise; bits outside
/// `offset .. offset + levels.len()` are left as they are. Levels of nested
/// columns, where a level below the list's own level produces no slot at
/// all, need the repetition levels too and belong to the record layer.
///
/// ```
/// use strata_encoding::def_levels_to_validity;
///
/// let mut bitmap = [0u8; 2];
/// let nulls = def_levels_to_validity(&[1, 0, 1, 1, 0, 1, 1, 1, 1, 0], 1, &mut bitmap, 0).unwrap();
/// assert_eq!(nulls, 3);
/// assert_eq!(bitmap, [0b1110_1101, 0b01]);
/// ```
pub fn def_levels_to_validity(
    levels: &[i16],
    max_def: i16,
    validity: &mut [u8],
    offset: usize,
) -> Result<usize> {
    check_bitmap(validity, offset, levels.len())?;
    let mut valid = 0usize;
    // Levels up to the first byte boundary of the bitmap, bit by bit; then
    // 64 levels to a word (compares the compiler vectorises) stored as
    // eight whole bytes, then the rest.
    let lead = ((8 - offset % 8) % 8).min(levels.len());
    let (head, aligned) = levels.split_at(lead);
    if !head.is_empty() {
        let byte = pack8(head, max_def);
        valid += byte.count_ones() as usize;
        write_bits(validity, offset, byte, head.len() as u32);
    }
    let mut at = (offset + lead) / 8;
    let (words, rest) = aligned.as_chunks::<64>();
    for c in words {
        // A byte per level (0 or 1), folded into bits.
        let mut flags = [0u8; 64];
        for (f, &l) in flags.iter_mut().zip(c) {
            *f = u8::from(l == max_def);
        }
        let word = fold_flags(&flags);
        valid += word.count_ones() as usize;
        if let Some(dst) = validity.get_mut(at..at + 8) {
            dst.copy_from_slice(&word.to_le_bytes());
        }
        at += 8;
    }
    let (chunks, tail) = rest.as_chunks::<8>();
    for c in chunks {
        let byte = pack8(c, max_def);
        valid += byte.count_ones() as usize;
        if let Some(dst) = validity.get_mut(at) {
            *dst = byte;
        }
        at += 1;
    }
    if !tail.is_empty() {
        let byte = pack8(tail, max_def);
        valid += byte.count_ones() as usize;
        write_bits(validity, at * 8, byte, tail.len() as u32);
    }
    Ok(levels.len() - valid)
}

/// How many of `levels` equal `level` (a page's or a batch's present
/// values, with `level` the maximum definition level; its rows, with
/// repetition level 0). Counted in 16-bit sums over chunks short enough not
/// to overflow them, so that the comparisons run 16 bits wide, eight or
/// more levels per vector instruction; `filter().count()` is not
/// vectorised.
///
/// ```
/// use strata_encoding::count_levels;
/// assert_eq!(count_levels(&[2, 1, 2, 0, 2], 2), 3);
/// assert_eq!(count_levels(&[], 0), 0);
/// assert_eq!(count_levels(&vec![1i16; 200_000], 1), 200_000);
/// ```
pub fn count_levels(levels: &[i16], level: i16) -> usize {
    levels
        .chunks(usize::from(u16::MAX))
        .map(|chunk| {
            let n = chunk
                .iter()
                .fold(0u16, |n, &l| n.wrapping_add(u16::from(l == level)));
            usize::from(n)
        })
        .sum()
}

/// Bit `k` set where `levels[k] >= min`, for 64 levels: the validity of a
/// chunk of struct slots, whose leaf's levels reach at least the struct's
/// own definition level where it is present. The compares are vectorised
/// (a byte per level) and each eight bytes folded into eight bits by one
/// multiply.
///
/// ```
/// use strata_encoding::levels_at_least_mask;
/// let mut levels = [0i16; 64];
/// levels[0] = 1;
/// levels[5] = 2;
/// levels[63] = 1;
/// assert_eq!(levels_at_least_mask(&levels, 1), 1 | 1 << 5 | 1 << 63);
/// assert_eq!(levels_at_least_mask(&levels, 2), 1 << 5);
/// assert_eq!(levels_at_least_mask(&levels, 0), u64::MAX);
/// ```
#[inline]
pub fn levels_at_least_mask(levels: &[i16; 64], min: i16) -> u64 {
    let mut flags = [0u8; 64];
    for (f, &l) in flags.iter_mut().zip(levels) {
        *f = u8::from(l >= min);
    }
    fold_flags(&flags)
}

/// Bit `k` set where `flags[k]` (0 or 1) is 1: byte `k` of each eight,
/// multiplied by the constant below, lands on bit `56 + k`.
#[inline(always)]
fn fold_flags(flags: &[u8; 64]) -> u64 {
    let mut word = 0u64;
    for (j, eight) in flags.as_chunks::<8>().0.iter().enumerate() {
        let b = u64::from_le_bytes(*eight);
        word |= (b.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * j);
    }
    word
}

/// Bit `k` set where `levels[k] == max_def`, for up to eight levels.
#[inline(always)]
fn pack8(levels: &[i16], max_def: i16) -> u8 {
    let mut byte = 0u8;
    for (k, &l) in levels.iter().take(8).enumerate() {
        byte |= u8::from(l == max_def) << k;
    }
    byte
}

/// Store the low `nbits` (1..=8) bits of `value` at bit `bit` of an
/// LSB-first bitmap the caller has checked, leaving other bits alone.
#[inline(always)]
fn write_bits(bitmap: &mut [u8], bit: usize, value: u8, nbits: u32) {
    let byte = bit / 8;
    let shift = (bit % 8) as u32;
    let mask = (((1u32 << nbits) - 1) << shift) as u16;
    let v = (u16::from(value) << shift) & mask;
    bitmap[byte] = (bitmap[byte] & !(mask as u8)) | v as u8;
    if shift + nbits > 8 {
        let hi_mask = (mask >> 8) as u8;
        bitmap[byte + 1] = (bitmap[byte + 1] & !hi_mask) | (v >> 8) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msb_first_reads_match_the_spec_labels() {
        // ABCDEFGH IJKLMNOP QRSTUVWX for 0..=7 at width 3.
        let data = [0b0000_0101, 0b0011_1001, 0b0111_0111];
        let got: Vec<u16> = (0..8).map(|i| read_msb_first(&data, i * 3, 3)).collect();
        assert_eq!(got, [0, 1, 2, 3, 4, 5, 6, 7]);
        // Width 15 at bit 7 spans three bytes.
        // Bit 7 of byte 0, all of byte 1, the top 6 bits of byte 2.
        let data = [0b0000_0001, 0x00, 0b1111_1100];
        assert_eq!(read_msb_first(&data, 7, 15), 0b100_0000_0011_1111);
    }

    #[test]
    fn unaligned_validity_keeps_neighbouring_bits() {
        let levels = [2i16, 1, 2, 0, 2, 2, 2, 2, 2, 1, 2];
        let mut bitmap = [0xFFu8, 0x00, 0xFF];
        let nulls = def_levels_to_validity(&levels, 2, &mut bitmap, 5).unwrap();
        assert_eq!(nulls, 3);
        for (i, &l) in levels.iter().enumerate() {
            let b = 5 + i;
            assert_eq!((bitmap[b / 8] >> (b % 8)) & 1 == 1, l == 2, "slot {i}");
        }
        // Bits 0..5 untouched (were set) and bits 16.. untouched (were set).
        assert_eq!(bitmap[0] & 0b1_1111, 0b1_1111);
        assert_eq!(bitmap[2], 0xFF);
        assert!(def_levels_to_validity(&levels, 2, &mut [0u8; 1], 0).is_err());
    }

    #[test]
    fn invalid_max_levels() {
        assert!(LevelEncoder::new(-1).is_err());
        assert!(LevelDecoder::new(-1).is_err());
        assert_eq!(LevelDecoder::new(i16::MAX).unwrap().bit_width(), 15);
        assert_eq!(LevelDecoder::new(0).unwrap().bit_width(), 0);
    }
}
