//! The RLE/bit-packed hybrid encoding (Parquet `Encodings.md`, "RLE").
//!
//! A stream is a sequence of runs, each starting with a ULEB128 header:
//! - header with low bit 0: an RLE run of `header >> 1` copies of one value,
//!   stored in `ceil(bit_width / 8)` little-endian bytes;
//! - header with low bit 1: `header >> 1` groups of 8 values, bit-packed
//!   LSB-first at `bit_width` bits each.
//!
//! [`RleEncoder`] buffers values in groups of 8 and switches to an RLE run as
//! soon as a value repeats 8 times; otherwise values go out bit-packed in
//! runs of up to 63 groups, so the run header fits one byte and can be patched
//! in place once the run ends. [`RleDecoder`] fills long RLE runs with a
//! single `fill`, unpacks bit-packed runs through the block kernels, and can
//! gather dictionary values directly (`indices -> values`).
//!
//! Decoding never panics: truncated runs, headers past the end and indices
//! outside the dictionary give a short count or a [`SinkError`].

use crate::bit_reader::BitReader;
use crate::bitmap::{count_set, for_each_set_bit};
use crate::bitpack::Unpacked;
use crate::byte_sink::ByteSink;
use crate::error::{Result, SinkError};
use crate::varint;

/// Largest number of 8-value groups in one bit-packed run, so that its header
/// (`groups << 1 | 1`) fits one byte.
const MAX_GROUPS_PER_RUN: usize = 63;

/// Append eight values of `width` bits (at most 16, the bits above already
/// clear), bit-packed LSB-first: `width` bytes. Each half of the group fits
/// one 64-bit word, and the halves meet in a 128-bit word with one shift (a
/// 128-bit shift per value costs a branch or two each); its low `width`
/// bytes are written without a loop over bytes.
#[inline]
fn pack_narrow_group(out: &mut Vec<u8>, values: &[u64; 8], width: u32) {
    debug_assert!(width <= 16);
    let (mut lo, mut hi) = (0u64, 0u64);
    for k in 0..4 {
        lo |= values[k] << (k as u32 * width);
        hi |= values[k + 4] << (k as u32 * width);
    }
    let group = u128::from(lo) | (u128::from(hi) << (4 * width));
    let end = out.len() + width as usize;
    out.extend_from_slice(&group.to_le_bytes());
    out.truncate(end);
}

/// Encodes `u64` values of a fixed bit width (0..=64) as RLE/bit-packed
/// hybrid runs.
///
/// A new encoder holds no heap memory.
///
/// ```
/// use strata_sink::rle::{RleDecoder, RleEncoder};
///
/// let mut enc = RleEncoder::new(1);
/// for i in 0..100u64 {
///     enc.put(u64::from(i < 90));
/// }
/// let bytes = enc.finish();
/// let mut out = vec![0u8; 100];
/// let mut dec = RleDecoder::new(&bytes, 1).unwrap();
/// assert_eq!(dec.get_batch(&mut out).unwrap(), 100);
/// assert_eq!(out.iter().filter(|&&v| v == 1).count(), 90);
/// ```
#[derive(Debug, Clone)]
pub struct RleEncoder {
    bit_width: u32,
    out: ByteSink,
    /// Values waiting to be written as part of a bit-packed group.
    buffered: [u64; 8],
    num_buffered: usize,
    /// The last value seen and how many times in a row it has repeated.
    current: u64,
    repeat_count: usize,
    /// Values written (or buffered for writing) in the open bit-packed run.
    literal_count: usize,
    /// Position in `out` of the open bit-packed run's header byte.
    literal_header: Option<usize>,
}

impl RleEncoder {
    /// An encoder for values of `bit_width` bits (clamped to 64).
    pub fn new(bit_width: u32) -> Self {
        Self {
            bit_width: bit_width.min(64),
            out: ByteSink::new(),
            buffered: [0; 8],
            num_buffered: 0,
            current: 0,
            repeat_count: 0,
            literal_count: 0,
            literal_header: None,
        }
    }

    /// The bit width values are encoded at.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Append one value. Bits above the bit width are dropped.
    #[inline]
    pub fn put(&mut self, value: u64) {
        let value = self.masked(value);
        if value == self.current && self.repeat_count > 0 {
            self.repeat_count += 1;
            if self.repeat_count > 8 {
                // Inside an RLE run: nothing to buffer.
                return;
            }
        } else {
            if self.repeat_count >= 8 {
                self.write_rle_run();
            }
            self.repeat_count = 1;
            self.current = value;
        }
        self.buffered[self.num_buffered] = value;
        self.num_buffered += 1;
        if self.num_buffered == 8 {
            self.flush_group();
        }
    }

    /// Append eight values; the bytes are the same as eight calls to
    /// [`put`](Self::put). At a group boundary (see
    /// [`at_group_boundary`](Self::at_group_boundary)) eight values that are
    /// not all equal can only become one bit-packed group (after ending an
    /// RLE run they do not continue), which is written at once without the
    /// per-value run bookkeeping (levels of nested data alternate this way).
    ///
    /// ```
    /// use strata_sink::rle::RleEncoder;
    /// let values = [1, 0, 1, 1, 0, 1, 0, 0];
    /// let mut one = RleEncoder::new(1);
    /// one.put8(values);
    /// let mut each = RleEncoder::new(1);
    /// values.iter().for_each(|&v| each.put(v));
    /// assert_eq!(one.finish(), each.finish());
    /// ```
    #[inline]
    pub fn put8(&mut self, values: [u64; 8]) {
        let values = if self.bit_width == 64 {
            values
        } else {
            let mask = (1u64 << self.bit_width) - 1;
            values.map(|v| v & mask)
        };
        if self.num_buffered == 0 && values.iter().any(|&v| v != values[0]) {
            // At a group boundary the encoder is either between runs or
            // inside an RLE run (a run is only counted from a boundary). A
            // first value that differs from the run's ends it, as a single
            // put would; the eight then start a fresh group.
            if self.repeat_count >= 8 && values[0] != self.current {
                self.write_rle_run();
            }
        }
        if self.num_buffered == 0
            && self.repeat_count == 0
            && values.iter().any(|&v| v != values[0])
        {
            self.buffered = values;
            self.num_buffered = 8;
            self.current = values[7];
            self.flush_group();
        } else {
            for v in values {
                self.put(v);
            }
        }
    }

    /// Whether no value is buffered: the next value starts a group of 8,
    /// so [`put8`](Self::put8) can take its fast path.
    #[inline]
    pub fn at_group_boundary(&self) -> bool {
        self.num_buffered == 0
    }

    /// Append the same value `n` times.
    pub fn put_repeated(&mut self, value: u64, n: usize) {
        let mut left = n;
        // Fill up the current group, after which repeats are only counted.
        while left > 0 && (self.repeat_count < 8 || value != self.current) {
            self.put(value);
            left -= 1;
        }
        self.repeat_count += left;
    }

    /// Append a slice of values; the bytes are the same as a
    /// [`put`](Self::put) per value.
    pub fn put_slice<T: Unpacked>(&mut self, values: &[T]) {
        self.put_mapped(values, T::to_u64);
    }

    /// Append `values`, each widened to `u64` by `to_u64`; the bytes are the
    /// same as a [`put`](Self::put) per value.
    ///
    /// At each group boundary, eight equal values may begin a long run,
    /// which is counted once ([`put_repeated`](Self::put_repeated)); groups
    /// of eight others are bit-packed one after another straight into the
    /// open literal run, for as long as they come (widths up to 16 bits;
    /// wider values go a group at a time through [`put8`](Self::put8)).
    /// Values go one at a time only to bring the encoder back to a boundary
    /// (after a run ends inside a group) and at the end.
    ///
    /// ```
    /// use strata_sink::rle::RleEncoder;
    ///
    /// let levels: [i16; 12] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0];
    /// let mut a = RleEncoder::new(1);
    /// a.put_mapped(&levels, |l| l as u64);
    /// let mut b = RleEncoder::new(1);
    /// levels.iter().for_each(|&l| b.put(l as u64));
    /// assert_eq!(a.finish(), b.finish());
    /// ```
    pub fn put_mapped<T: Copy + PartialEq>(&mut self, values: &[T], to_u64: impl Fn(T) -> u64) {
        let mut rest = values;
        while let Some(&first) = rest.first() {
            if self.at_group_boundary()
                && let Some(group) = rest.first_chunk::<8>()
            {
                if group.iter().all(|&v| v == first) {
                    let run = rest.iter().take_while(|&&v| v == first).count();
                    self.put_repeated(to_u64(first), run);
                    rest = rest.get(run..).unwrap_or_default();
                } else {
                    if self.repeat_count >= 8 && self.masked(to_u64(first)) != self.current {
                        // The group ends the open RLE run (as `put8` would).
                        self.write_rle_run();
                    }
                    let packed = if self.repeat_count == 0 {
                        self.put_literal_groups(rest, &to_u64)
                    } else {
                        0
                    };
                    if packed > 0 {
                        rest = rest.get(packed..).unwrap_or_default();
                    } else {
                        self.put8(group.map(&to_u64));
                        rest = rest.get(8..).unwrap_or_default();
                    }
                }
            } else {
                self.put(to_u64(first));
                rest = rest.get(1..).unwrap_or_default();
            }
        }
    }

    /// `value` with the bits above the bit width dropped.
    #[inline(always)]
    fn masked(&self, value: u64) -> u64 {
        if self.bit_width >= 64 {
            value
        } else {
            value & ((1u64 << self.bit_width) - 1)
        }
    }

    /// Bit-pack whole groups of eight from the start of `values` straight
    /// into the open literal run (opening one if needed), for as long as
    /// the groups are not all one value; returns how many values were
    /// taken (a multiple of eight, 0 if none). Called at a group boundary
    /// with no run pending (`num_buffered == 0`, `repeat_count == 0`),
    /// where each such group goes out as [`put8`](Self::put8) would write
    /// it, without that path's per-group copies and checks. Only for
    /// widths up to 16 bits (levels and most dictionary indices).
    fn put_literal_groups<T: Copy + PartialEq>(
        &mut self,
        values: &[T],
        to_u64: &impl Fn(T) -> u64,
    ) -> usize {
        let width = self.bit_width;
        if width > 16 || self.num_buffered != 0 || self.repeat_count != 0 {
            return 0;
        }
        let mask = (1u64 << width) - 1;
        let mut taken = 0;
        let mut last = 0u64;
        for group in values.chunks_exact(8) {
            // Compared as written (masked), as single puts compare them.
            let m: [u64; 8] = std::array::from_fn(|k| to_u64(group[k]) & mask);
            if m.iter().all(|&v| v == m[0]) {
                break;
            }
            let at = match self.literal_header {
                Some(at) => at,
                None => {
                    let at = self.out.len();
                    self.out.put_u8(0);
                    self.literal_header = Some(at);
                    at
                }
            };
            let out = self.out.as_mut_vec();
            pack_narrow_group(out, &m, width);
            self.literal_count += 8;
            if self.literal_count / 8 >= MAX_GROUPS_PER_RUN {
                out[at] = ((MAX_GROUPS_PER_RUN << 1) | 1) as u8;
                self.literal_header = None;
                self.literal_count = 0;
            }
            last = m[7];
            taken += 8;
        }
        if taken > 0 {
            // As after `put8`: the last value is remembered, no run is open.
            self.current = last;
        }
        taken
    }

    /// A full group of 8 buffered values: either it completed an RLE run, or
    /// it is bit-packed into the open literal run.
    fn flush_group(&mut self) {
        if self.repeat_count >= 8 {
            // All eight are the repeated value: they belong to the RLE run.
            self.num_buffered = 0;
            if self.literal_count > 0 {
                self.close_literal_run();
            }
            return;
        }
        self.literal_count += self.num_buffered;
        self.write_buffered_group();
        if self.literal_count / 8 >= MAX_GROUPS_PER_RUN {
            self.close_literal_run();
        }
        self.repeat_count = 0;
    }

    /// Bit-pack the buffered values (zero padded to 8) into the open run.
    fn write_buffered_group(&mut self) {
        if self.literal_header.is_none() {
            self.literal_header = Some(self.out.len());
            self.out.put_u8(0);
        }
        self.buffered[self.num_buffered..].fill(0);
        let width = self.bit_width;
        if width <= 16 {
            pack_narrow_group(self.out.as_mut_vec(), &self.buffered, width);
            self.num_buffered = 0;
            return;
        }
        let region = self.out.append_zeroed(width as usize);
        let mut acc: u128 = 0;
        let mut acc_bits = 0u32;
        let mut pos = 0usize;
        for &v in &self.buffered {
            acc |= u128::from(v) << acc_bits;
            acc_bits += width;
            while acc_bits >= 8 {
                region[pos] = acc as u8;
                pos += 1;
                acc >>= 8;
                acc_bits -= 8;
            }
        }
        self.num_buffered = 0;
    }

    fn close_literal_run(&mut self) {
        if let Some(at) = self.literal_header.take() {
            let groups = self.literal_count.div_ceil(8);
            self.out.as_mut_slice()[at] = ((groups << 1) | 1) as u8;
        }
        self.literal_count = 0;
    }

    fn write_rle_run(&mut self) {
        self.out.put_uleb128((self.repeat_count as u64) << 1);
        let value_bytes = self.bit_width.div_ceil(8) as usize;
        self.out
            .extend_from_slice(&self.current.to_le_bytes()[..value_bytes]);
        self.num_buffered = 0;
        self.repeat_count = 0;
    }

    /// Write out everything buffered, ending the open run.
    fn finish_runs(&mut self) {
        if self.literal_count == 0 && self.repeat_count == 0 && self.num_buffered == 0 {
            return;
        }
        let all_repeat = self.literal_count == 0
            && (self.repeat_count == self.num_buffered || self.num_buffered == 0);
        if self.repeat_count > 0 && all_repeat {
            self.write_rle_run();
        } else {
            if self.num_buffered > 0 {
                self.literal_count += self.num_buffered;
                self.write_buffered_group();
            }
            self.close_literal_run();
            self.repeat_count = 0;
        }
    }

    /// Bytes the encoded output would take if finished now (an upper bound).
    pub fn estimated_len(&self) -> usize {
        let pending_group = if self.num_buffered > 0 {
            self.bit_width as usize + 1
        } else {
            0
        };
        // A group that completed an RLE run has been taken out of the buffer:
        // the run (header and value) is still to be written.
        let pending_run = if self.repeat_count >= 8 {
            varint::MAX_VARINT_LEN_64 + 8
        } else {
            0
        };
        self.out.len() + pending_group + pending_run
    }

    /// Heap bytes held.
    pub fn heap_size(&self) -> usize {
        self.out.capacity()
    }

    /// End all runs and append the encoded bytes to `sink`, leaving the
    /// encoder empty (allocation kept) for the next page.
    pub fn flush_into(&mut self, sink: &mut ByteSink) {
        self.finish_runs();
        sink.extend_from_slice(self.out.as_slice());
        self.clear();
    }

    /// Forget everything, keeping the allocation.
    pub fn clear(&mut self) {
        self.out.clear();
        self.num_buffered = 0;
        self.current = 0;
        self.repeat_count = 0;
        self.literal_count = 0;
        self.literal_header = None;
    }

    /// End all runs and return the encoded bytes.
    pub fn finish(mut self) -> Vec<u8> {
        self.finish_runs();
        self.out.into_vec()
    }
}

/// The run being decoded.
#[derive(Debug, Clone)]
enum Run<'a> {
    /// No run open; the next header comes next.
    None,
    /// `left` more copies of `value`.
    Repeat { value: u64, left: usize },
    /// `left` more bit-packed values read through `reader`.
    Packed { reader: BitReader<'a>, left: usize },
}

/// Where an [`RleDecoder`] is in its stream, as plain data: taken with
/// [`RleDecoder::position`] and resumed with [`RleDecoder::resume`] over
/// the same bytes, so a reader that cannot keep a decoder borrowing its
/// input (the input is owned beside it) picks up where it left off
/// instead of passing over the runs before.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RlePosition {
    /// Byte offset of the next run header.
    next_run: usize,
    run: RunPosition,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum RunPosition {
    #[default]
    None,
    Repeat {
        value: u64,
        left: usize,
    },
    Packed {
        /// Byte offset of the run's first byte.
        start: usize,
        /// Bits of the run read so far.
        bit: usize,
        left: usize,
    },
}

/// Decodes an RLE/bit-packed hybrid stream of a fixed bit width.
///
/// ```
/// use strata_sink::rle::RleDecoder;
///
/// // The spec's example: an RLE run of four 5s at bit width 3.
/// let data = [0b0000_1000, 5];
/// let mut dec = RleDecoder::new(&data, 3).unwrap();
/// let mut out = [0u16; 6];
/// assert_eq!(dec.get_batch(&mut out).unwrap(), 4);
/// assert_eq!(&out[..4], &[5, 5, 5, 5]);
/// ```
#[derive(Debug, Clone)]
pub struct RleDecoder<'a> {
    data: &'a [u8],
    pos: usize,
    bit_width: u32,
    run: Run<'a>,
}

impl<'a> RleDecoder<'a> {
    /// A decoder over `data` for values of `bit_width` bits (0..=64).
    pub fn new(data: &'a [u8], bit_width: u32) -> Result<Self> {
        if bit_width > 64 {
            return Err(SinkError::BitWidth {
                width: bit_width,
                max: 64,
            });
        }
        Ok(Self {
            data,
            pos: 0,
            bit_width,
            run: Run::None,
        })
    }

    /// The bit width values are decoded at.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Where the decoder is in its stream (see [`RlePosition`]).
    pub fn position(&self) -> RlePosition {
        let run = match &self.run {
            Run::None => RunPosition::None,
            Run::Repeat { value, left } => RunPosition::Repeat {
                value: *value,
                left: *left,
            },
            Run::Packed { reader, left } => RunPosition::Packed {
                start: self.data.len() - reader.data().len(),
                bit: reader.bit_position(),
                left: *left,
            },
        };
        RlePosition {
            next_run: self.pos,
            run,
        }
    }

    /// A decoder over `data` for values of `bit_width` bits, at `at`: a
    /// [`position`](Self::position) taken from a decoder over the same
    /// `data` and bit width. A position from other input decodes whatever
    /// those bytes hold (every read stays within `data`).
    ///
    /// ```
    /// use strata_sink::rle::RleDecoder;
    ///
    /// // An RLE run of four 5s, then a bit-packed group of 0..8, width 3.
    /// let data = [0b0000_1000, 5, 0b0000_0011, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    /// let mut dec = RleDecoder::new(&data, 3).unwrap();
    /// let mut out = [0u8; 6];
    /// assert_eq!(dec.get_batch(&mut out).unwrap(), 6);
    /// let at = dec.position();
    /// let mut rest = RleDecoder::resume(&data, 3, at).unwrap();
    /// assert_eq!(rest.get_batch(&mut out).unwrap(), 6);
    /// assert_eq!(out, [2, 3, 4, 5, 6, 7]);
    /// ```
    pub fn resume(data: &'a [u8], bit_width: u32, at: RlePosition) -> Result<Self> {
        let mut dec = Self::new(data, bit_width)?;
        dec.pos = at.next_run.min(data.len());
        dec.run = match at.run {
            RunPosition::None => Run::None,
            RunPosition::Repeat { value, left } => Run::Repeat { value, left },
            RunPosition::Packed { start, bit, left } => Run::Packed {
                reader: BitReader::at_bit(data.get(start..).unwrap_or_default(), bit),
                left,
            },
        };
        Ok(dec)
    }

    /// Start the next run. Returns `false` at the end of the input.
    fn next_run(&mut self) -> Result<bool> {
        let Some(rest) = self.data.get(self.pos..) else {
            return Ok(false);
        };
        if rest.is_empty() {
            return Ok(false);
        }
        let (header, n) = varint::decode_uleb128(rest).map_err(|e| match e {
            SinkError::UnexpectedEof { needed, .. } => SinkError::UnexpectedEof {
                offset: self.pos,
                needed,
            },
            other => other,
        })?;
        self.pos += n;
        if header & 1 == 1 {
            let groups = usize::try_from(header >> 1)
                .map_err(|_| SinkError::MalformedRun("bit-packed group count overflows"))?;
            let wanted_values = groups
                .checked_mul(8)
                .ok_or(SinkError::MalformedRun("bit-packed group count overflows"))?;
            let wanted_bytes = groups
                .checked_mul(self.bit_width as usize)
                .ok_or(SinkError::MalformedRun("bit-packed run length overflows"))?;
            // A last run may be cut short by the writer; keep what is there.
            let available = wanted_bytes.min(self.data.len() - self.pos);
            // The reader sees the rest of the stream, not just this run, so
            // that its word-at-a-time fast path applies up to the run's last
            // value; `left` bounds what is read from it.
            let bytes = &self.data[self.pos..];
            self.pos += available;
            // `available` only falls short of `wanted_bytes` for a truncated
            // last run; only then is the (slow) division needed.
            let left = if available == wanted_bytes || self.bit_width == 0 {
                wanted_values
            } else {
                wanted_values.min(available * 8 / self.bit_width as usize)
            };
            self.run = Run::Packed {
                reader: BitReader::new(bytes),
                left,
            };
        } else {
            let left = usize::try_from(header >> 1)
                .map_err(|_| SinkError::MalformedRun("RLE run length overflows"))?;
            let value_bytes = self.bit_width.div_ceil(8) as usize;
            let bytes = self.data.get(self.pos..self.pos + value_bytes).ok_or(
                SinkError::UnexpectedEof {
                    offset: self.pos,
                    needed: value_bytes,
                },
            )?;
            let value = match self.data.get(self.pos..self.pos + 8) {
                // One 8-byte load masked to the value's bytes. A copy of
                // `value_bytes` bytes into a zeroed word is a call to
                // memcpy, and reading the word back stalls on the narrower
                // stores (30% of next_run at width 1).
                Some(word) if (1..8).contains(&value_bytes) => {
                    let mut le = [0u8; 8];
                    le.copy_from_slice(word);
                    u64::from_le_bytes(le) & (u64::MAX >> (64 - 8 * value_bytes))
                }
                _ => {
                    let mut word = [0u8; 8];
                    word[..value_bytes].copy_from_slice(bytes);
                    u64::from_le_bytes(word)
                }
            };
            self.pos += value_bytes;
            if self.bit_width < 64 && value >> self.bit_width != 0 {
                return Err(SinkError::MalformedRun(
                    "RLE value wider than the bit width",
                ));
            }
            self.run = Run::Repeat { value, left };
        }
        Ok(true)
    }

    /// Decode up to `out.len()` values; returns how many were decoded (fewer
    /// only at the end of the input).
    pub fn get_batch<T: Unpacked>(&mut self, out: &mut [T]) -> Result<usize> {
        if self.bit_width > T::BITS {
            return Err(SinkError::BitWidth {
                width: self.bit_width,
                max: T::BITS,
            });
        }
        let mut filled = 0;
        while filled < out.len() {
            match &mut self.run {
                Run::Repeat { value, left } if *left > 0 => {
                    let n = (*left).min(out.len() - filled);
                    out[filled..filled + n].fill(T::from_u64(*value));
                    *left -= n;
                    filled += n;
                }
                Run::Packed { reader, left } if *left > 0 => {
                    let n = (*left).min(out.len() - filled);
                    let got = reader.get_batch(&mut out[filled..filled + n], self.bit_width);
                    *left -= n;
                    filled += got;
                    if got < n {
                        return Err(SinkError::MalformedRun("bit-packed run ended early"));
                    }
                }
                _ => {
                    if !self.next_run()? {
                        break;
                    }
                }
            }
        }
        Ok(filled)
    }

    /// The value and remaining length of the RLE run the stream is in,
    /// starting the next run first if none is under way; `None` when the
    /// stream is in a bit-packed run or at its end. Consumes no value, so
    /// a caller can tell that the next values are all one value without
    /// decoding them.
    ///
    /// ```
    /// use strata_sink::rle::RleDecoder;
    ///
    /// // An RLE run of four 5s at bit width 3, then a bit-packed group.
    /// let data = [0b0000_1000, 5, 0b0000_0011, 0, 0, 0];
    /// let mut dec = RleDecoder::new(&data, 3).unwrap();
    /// assert_eq!(dec.repeat_run().unwrap(), Some((5, 4)));
    /// let mut out = [0u8; 4];
    /// assert_eq!(dec.get_batch(&mut out).unwrap(), 4);
    /// assert_eq!(dec.repeat_run().unwrap(), None);
    /// ```
    pub fn repeat_run(&mut self) -> Result<Option<(u64, usize)>> {
        loop {
            match &self.run {
                Run::Repeat { value, left } if *left > 0 => return Ok(Some((*value, *left))),
                Run::Packed { left, .. } if *left > 0 => return Ok(None),
                _ => {
                    if !self.next_run()? {
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// Pass over the next `n` values (fewer only at the end of the input),
    /// appending to `out` those whose bit in `keep` (LSB first, from bit
    /// `offset`; bits past its end are unset) is set; returns how many
    /// values were passed, kept or not.
    ///
    /// A value of a bit-packed run that is not kept is not unpacked: each
    /// kept one is read at its own bit position, and the run is then
    /// skipped. A sparse mask costs a step per 64 values and one per kept
    /// value, where [`get_batch`](Self::get_batch) unpacks them all.
    ///
    /// ```
    /// use strata_sink::rle::RleDecoder;
    ///
    /// // A bit-packed group of 0..8 at bit width 3, then an RLE run of four 5s.
    /// let data = [0b0000_0011, 0b1000_1000, 0b1100_0110, 0b1111_1010, 0b0000_1000, 5];
    /// let mut dec = RleDecoder::new(&data, 3).unwrap();
    /// let mut kept = Vec::<u32>::new();
    /// // Keep values 1, 6 and 9.
    /// let keep = [0b0100_0010u8, 0b0000_0010];
    /// assert_eq!(dec.get_kept(12, &keep, 0, &mut kept).unwrap(), 12);
    /// assert_eq!(kept, [1, 6, 5]);
    /// ```
    pub fn get_kept<T: Unpacked>(
        &mut self,
        n: usize,
        keep: &[u8],
        offset: usize,
        out: &mut Vec<T>,
    ) -> Result<usize> {
        if self.bit_width > T::BITS {
            return Err(SinkError::BitWidth {
                width: self.bit_width,
                max: T::BITS,
            });
        }
        let width = self.bit_width;
        let mut done = 0;
        while done < n {
            let at = offset.saturating_add(done);
            match &mut self.run {
                Run::Repeat { value, left } if *left > 0 => {
                    let k = (*left).min(n - done);
                    let kept = count_set(keep, at, k);
                    out.extend(std::iter::repeat_n(T::from_u64(*value), kept));
                    *left -= k;
                    done += k;
                }
                Run::Packed { reader, left } if *left > 0 => {
                    let k = (*left).min(n - done);
                    let (data, start) = (reader.data(), reader.bit_position());
                    if reader.skip(k, width) < k {
                        return Err(SinkError::MalformedRun("bit-packed run ended early"));
                    }
                    // Every value of the `k` is within the input (the skip
                    // above checked), so each read below finds its bits.
                    for_each_set_bit(keep, at, k, |i| {
                        let bit = start + i * width as usize;
                        let v = BitReader::at_bit(data, bit).get_value(width).unwrap_or(0);
                        out.push(T::from_u64(v));
                    });
                    *left -= k;
                    done += k;
                }
                _ => {
                    if !self.next_run()? {
                        break;
                    }
                }
            }
        }
        Ok(done)
    }

    /// Skip up to `n` values; returns how many were skipped.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let mut skipped = 0;
        while skipped < n {
            match &mut self.run {
                Run::Repeat { left, .. } if *left > 0 => {
                    let k = (*left).min(n - skipped);
                    *left -= k;
                    skipped += k;
                }
                Run::Packed { reader, left } if *left > 0 => {
                    let k = (*left).min(n - skipped);
                    reader.skip(k, self.bit_width);
                    *left -= k;
                    skipped += k;
                }
                _ => {
                    if !self.next_run()? {
                        break;
                    }
                }
            }
        }
        Ok(skipped)
    }

    /// Decode up to `out.len()` dictionary indices and write
    /// `dict[index]` for each into `out`. An index past the dictionary is an
    /// error. Returns how many values were written.
    pub fn get_batch_with_dict<V: Clone>(&mut self, dict: &[V], out: &mut [V]) -> Result<usize> {
        let mut indices = [0u32; 256];
        let mut filled = 0;
        while filled < out.len() {
            match &mut self.run {
                Run::Repeat { value, left } if *left > 0 => {
                    let n = (*left).min(out.len() - filled);
                    let v = usize::try_from(*value)
                        .ok()
                        .and_then(|i| dict.get(i))
                        .ok_or(SinkError::IndexOutOfRange {
                            index: *value,
                            len: dict.len(),
                        })?;
                    out[filled..filled + n].fill(v.clone());
                    *left -= n;
                    filled += n;
                }
                Run::Packed { reader, left } if *left > 0 => {
                    if self.bit_width > 32 {
                        return Err(SinkError::BitWidth {
                            width: self.bit_width,
                            max: 32,
                        });
                    }
                    let n = (*left).min(out.len() - filled).min(indices.len());
                    let got = reader.get_batch(&mut indices[..n], self.bit_width);
                    if got < n {
                        return Err(SinkError::MalformedRun("bit-packed run ended early"));
                    }
                    for (dst, &idx) in out[filled..filled + n].iter_mut().zip(&indices[..n]) {
                        *dst = dict
                            .get(idx as usize)
                            .ok_or(SinkError::IndexOutOfRange {
                                index: u64::from(idx),
                                len: dict.len(),
                            })?
                            .clone();
                    }
                    *left -= n;
                    filled += n;
                }
                _ => {
                    if !self.next_run()? {
                        break;
                    }
                }
            }
        }
        Ok(filled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode_all(bytes: &[u8], width: u32, n: usize) -> Vec<u64> {
        let mut dec = RleDecoder::new(bytes, width).unwrap();
        let mut out = vec![0u64; n];
        let got = dec.get_batch(&mut out).unwrap();
        out.truncate(got);
        out
    }

    #[test]
    fn spec_bit_packed_example() {
        // Encodings.md: values 0..7 at bit width 3, one group, header 0b11.
        let mut enc = RleEncoder::new(3);
        for v in 0..8 {
            enc.put(v);
        }
        assert_eq!(
            enc.finish(),
            vec![0b0000_0011, 0b1000_1000, 0b1100_0110, 0b1111_1010]
        );
    }

    #[test]
    fn long_run_is_rle() {
        let mut enc = RleEncoder::new(4);
        for _ in 0..1000 {
            enc.put(9);
        }
        // header: 1000 << 1 = 2000 = ULEB128 [0xD0, 0x0F]; value one byte.
        assert_eq!(enc.finish(), vec![0xD0, 0x0F, 9]);
    }

    #[test]
    fn put_repeated_matches_put() {
        let mut a = RleEncoder::new(5);
        let mut b = RleEncoder::new(5);
        for (v, n) in [(3u64, 5usize), (7, 100), (7, 3), (1, 1), (2, 20)] {
            a.put_repeated(v, n);
            for _ in 0..n {
                b.put(v);
            }
        }
        assert_eq!(a.finish(), b.finish());
    }

    #[test]
    fn width_zero() {
        let mut enc = RleEncoder::new(0);
        for _ in 0..50 {
            enc.put(0);
        }
        let bytes = enc.finish();
        assert_eq!(decode_all(&bytes, 0, 50), vec![0; 50]);
    }

    #[test]
    fn new_encoder_has_no_heap() {
        assert_eq!(RleEncoder::new(32).heap_size(), 0);
    }

    #[test]
    fn dictionary_gather_and_bounds() {
        let dict = ["a", "b", "c"];
        let mut enc = RleEncoder::new(2);
        for v in [0u64, 1, 2, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1] {
            enc.put(v);
        }
        let bytes = enc.finish();
        let mut dec = RleDecoder::new(&bytes, 2).unwrap();
        let mut out = [""; 16];
        assert_eq!(dec.get_batch_with_dict(&dict, &mut out).unwrap(), 16);
        assert_eq!(out[..6], ["a", "b", "c", "b", "a", "c"]);
        assert_eq!(out[15], "b");
        // Index 3 is past a dictionary of 3.
        let mut enc = RleEncoder::new(2);
        enc.put(3);
        let bytes = enc.finish();
        let mut dec = RleDecoder::new(&bytes, 2).unwrap();
        assert!(matches!(
            dec.get_batch_with_dict(&dict, &mut out),
            Err(SinkError::IndexOutOfRange { index: 3, len: 3 })
        ));
    }

    #[test]
    fn kept_values_stop_where_a_cut_packed_run_ends() {
        // A bit-packed header of 2 groups (16 values at width 3) and the
        // bytes of only one: the values that are there are passed, as
        // get_batch decodes them, and no more.
        let data = [0b0000_0101u8, 0b1000_1000, 0b1100_0110, 0b1111_1010];
        let mut kept = Vec::<u32>::new();
        let mut dec = RleDecoder::new(&data, 3).unwrap();
        assert_eq!(dec.get_kept(16, &[0xFF, 0xFF], 0, &mut kept).unwrap(), 8);
        assert_eq!(kept, [0, 1, 2, 3, 4, 5, 6, 7]);
        // A bit width wider than the output type is an error.
        let mut narrow = Vec::<u8>::new();
        let mut wide = RleDecoder::new(&data, 9).unwrap();
        assert!(wide.get_kept(1, &[1], 0, &mut narrow).is_err());
    }

    #[test]
    fn malformed_inputs_error_or_stop() {
        // RLE header with the value byte missing.
        let mut dec = RleDecoder::new(&[0x04], 8).unwrap();
        let mut out = [0u8; 4];
        assert!(dec.get_batch(&mut out).is_err());
        // Bit-packed run claiming 10 groups with 2 bytes present: the values
        // that are there decode, then the stream ends.
        let mut dec = RleDecoder::new(&[0x15, 0xFF, 0xFF], 8).unwrap();
        let mut out = [0u8; 80];
        assert_eq!(dec.get_batch(&mut out).unwrap(), 2);
        // RLE value wider than the bit width.
        let mut dec = RleDecoder::new(&[0x02, 0x09], 3).unwrap();
        assert!(dec.get_batch(&mut out).is_err());
        // Bit width larger than the output type.
        let mut dec = RleDecoder::new(&[0x02, 0x01, 0x01], 9).unwrap();
        assert!(dec.get_batch(&mut out).is_err());
        // Unterminated varint header.
        let mut dec = RleDecoder::new(&[0x80, 0x80], 1).unwrap();
        assert!(dec.get_batch(&mut out).is_err());
        assert!(RleDecoder::new(&[], 65).is_err());
    }

    /// Independent reference decoder: runs parsed with plain loops.
    fn reference_decode(bytes: &[u8], width: u32) -> Vec<u64> {
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < bytes.len() {
            let (header, n) = varint::decode_uleb128(&bytes[pos..]).unwrap();
            pos += n;
            if header & 1 == 0 {
                let nbytes = width.div_ceil(8) as usize;
                let mut v = 0u64;
                for (i, b) in bytes[pos..pos + nbytes].iter().enumerate() {
                    v |= u64::from(*b) << (8 * i);
                }
                pos += nbytes;
                out.extend(std::iter::repeat_n(v, (header >> 1) as usize));
            } else {
                let count = (header >> 1) as usize * 8;
                for i in 0..count {
                    let mut v = 0u64;
                    for b in 0..width as usize {
                        let bit = i * width as usize + b;
                        if bytes[pos + bit / 8] >> (bit % 8) & 1 == 1 {
                            v |= 1 << b;
                        }
                    }
                    out.push(v);
                }
                pos += (header >> 1) as usize * width as usize;
            }
        }
        out
    }

    fn values_strategy() -> impl Strategy<Value = (u32, Vec<u64>)> {
        (0u32..=64).prop_flat_map(|width| {
            let max = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let run = (0..=max, 1usize..40);
            (Just(width), proptest::collection::vec(run, 0..40)).prop_map(|(w, runs)| {
                let values = runs
                    .into_iter()
                    .flat_map(|(v, n)| std::iter::repeat_n(v, n))
                    .collect();
                (w, values)
            })
        })
    }

    /// `values` written with one `put` each.
    fn one_put_each(width: u32, values: &[u64]) -> Vec<u8> {
        let mut each = RleEncoder::new(width);
        values.iter().for_each(|&v| each.put(v));
        each.finish()
    }

    /// `values` written as `lead` single puts, then one `put_slice` of the
    /// rest, so that the slice starts off a group boundary as often as on
    /// one.
    fn sliced_after_puts(width: u32, values: &[u64], lead: usize) -> Vec<u8> {
        let lead = lead.min(values.len());
        let mut sliced = RleEncoder::new(width);
        values[..lead].iter().for_each(|&v| sliced.put(v));
        sliced.put_slice(&values[lead..]);
        sliced.finish()
    }

    proptest! {
        #[test]
        fn groups_and_runs_write_what_single_puts_write(
            (width, values) in values_strategy(),
            starts in proptest::collection::vec(0usize..40, 0..20),
        ) {
            // The values cut into pieces written by put8 (whole groups),
            // put_repeated (runs) or put, at arbitrary offsets.
            let mut each = RleEncoder::new(width);
            values.iter().for_each(|&v| each.put(v));
            let mut mixed = RleEncoder::new(width);
            let mut rest = &values[..];
            let mut k = 0;
            while !rest.is_empty() {
                let step = starts.get(k).copied().unwrap_or(8);
                k += 1;
                match step % 3 {
                    0 => {
                        if let Some(g) = rest.first_chunk::<8>() {
                            mixed.put8(*g);
                            rest = &rest[8..];
                            continue;
                        }
                    }
                    1 => {
                        let run = rest.iter().take_while(|&&v| v == rest[0]).count();
                        mixed.put_repeated(rest[0], run);
                        rest = &rest[run..];
                        continue;
                    }
                    _ => {}
                }
                let n = (step / 3 + 1).min(rest.len());
                rest[..n].iter().for_each(|&v| mixed.put(v));
                rest = &rest[n..];
            }
            prop_assert_eq!(mixed.finish(), each.finish());
        }

        #[test]
        fn slices_write_what_single_puts_write(
            (width, values) in values_strategy(),
            lead in 0usize..9,
        ) {
            prop_assert_eq!(sliced_after_puts(width, &values, lead), one_put_each(width, &values));
        }

        #[test]
        fn literal_stretches_write_what_single_puts_write(
            width in 0u32..=20,
            runs in proptest::collection::vec((any::<u64>(), 1usize..4, 0u64..3), 0..700),
            lead in 0usize..9,
        ) {
            // Short runs make literal stretches longer than one run header
            // holds (63 groups). Values carry bits above the width, and each
            // run is followed by a value that differs from it only there
            // (equal once written).
            let values: Vec<u64> = runs
                .into_iter()
                .flat_map(|(v, n, high)| {
                    std::iter::repeat_n(v, n).chain(std::iter::once(v ^ (high << width)))
                })
                .collect();
            prop_assert_eq!(sliced_after_puts(width, &values, lead), one_put_each(width, &values));
        }

        #[test]
        fn round_trip_every_width((width, values) in values_strategy()) {
            let mut enc = RleEncoder::new(width);
            for &v in &values {
                enc.put(v);
            }
            let bytes = enc.finish();
            let reference = reference_decode(&bytes, width);
            // Bit-packed runs pad the last group with zeros.
            prop_assert!(reference.len() >= values.len());
            prop_assert_eq!(&reference[..values.len()], &values[..]);
            prop_assert_eq!(decode_all(&bytes, width, values.len()), values);
        }

        #[test]
        fn kept_values_are_those_a_full_decode_gives_at_the_set_bits(
            (width, values) in values_strategy(),
            mask in proptest::collection::vec(any::<u8>(), 0..220),
            offset in 0usize..9,
            split in 0usize..400,
        ) {
            let bytes = one_put_each(width, &values);
            let n = values.len();
            let want: Vec<u64> = (0..n)
                .filter(|&i| crate::bitmap::get_bit(&mask, offset + i))
                .map(|i| values[i])
                .collect();
            // In two calls, split anywhere, from the bit after the first's.
            let first = split.min(n);
            let mut dec = RleDecoder::new(&bytes, width).unwrap();
            let mut kept = Vec::<u64>::new();
            prop_assert_eq!(dec.get_kept(first, &mask, offset, &mut kept).unwrap(), first);
            prop_assert_eq!(dec.get_kept(n - first, &mask, offset + first, &mut kept).unwrap(), n - first);
            prop_assert_eq!(kept, want);
        }

        #[test]
        fn estimated_len_is_an_upper_bound((width, values) in values_strategy(), cut in 0usize..400) {
            let mut enc = RleEncoder::new(width);
            for &v in values.iter().take(cut) {
                enc.put(v);
            }
            let estimate = enc.estimated_len();
            prop_assert!(enc.finish().len() <= estimate);
        }

        #[test]
        fn batches_and_skips_agree((width, values) in values_strategy(), step in 1usize..50) {
            let mut enc = RleEncoder::new(width);
            for &v in &values {
                enc.put(v);
            }
            let bytes = enc.finish();
            let mut dec = RleDecoder::new(&bytes, width).unwrap();
            let mut i = 0;
            let mut toggle = false;
            while i < values.len() {
                let n = step.min(values.len() - i);
                if toggle {
                    prop_assert_eq!(dec.skip(n).unwrap(), n);
                } else {
                    let mut out = vec![0u64; n];
                    prop_assert_eq!(dec.get_batch(&mut out).unwrap(), n);
                    prop_assert_eq!(&out[..], &values[i..i + n]);
                }
                toggle = !toggle;
                i += n;
            }
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64), width in 0u32..=64) {
            let mut dec = RleDecoder::new(&bytes, width).unwrap();
            let mut out = vec![0u64; 1000];
            let _ = dec.get_batch(&mut out);
            let mut dec = RleDecoder::new(&bytes, width).unwrap();
            let _ = dec.skip(1000);
            let dict = [1u8, 2, 3];
            let mut dec = RleDecoder::new(&bytes, width).unwrap();
            let mut out = vec![0u8; 1000];
            let _ = dec.get_batch_with_dict(&dict, &mut out);
        }
    }
}
