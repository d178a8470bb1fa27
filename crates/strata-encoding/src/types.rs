//! The value types encoders take and decoders produce.
//!
//! Every Parquet physical type is named by a type implementing
//! [`ValueType`]. A value type fixes two things:
//!
//! - [`ValueType::Batch`]: how a batch of values is handed to an encoder.
//!   Fixed-width types (`bool`, `i32`, `i64`, [`Int96`], `f32`, `f64`) use a
//!   plain slice; byte arrays use [`ByteArrayBatch`] (either `&[&[u8]]` or
//!   the Arrow offsets + values layout); fixed-length byte arrays use
//!   [`FixedLenBatch`] (a flat byte slice and a width).
//! - [`ValueType::Out`]: where a decoder puts values. Fixed-width types
//!   decode into a caller-provided slice; byte arrays append to a
//!   [`ByteArrayBuffer`] (offsets + values, ready to become Arrow buffers
//!   without a copy); fixed-length byte arrays append to a
//!   [`FixedLenByteArrayBuffer`].

use std::fmt::Debug;
use std::marker::PhantomData;
use strata_sink::append::{OVERCOPY, ShortAppender};

use crate::error::{EncodingError, Result};
use crate::plain::skip_plain_byte_arrays;
use crate::validity::{SetRuns, check_bitmap, count_set, get_bit};

pub(crate) mod sealed {
    /// Keeps the value-type traits closed: the encoders rely on the exact
    /// set of implementations.
    pub trait Sealed {}
}

/// A batch of values handed to an encoder: it knows its length and can be
/// cut into sub-batches (used to encode the runs of present values of a
/// spaced batch).
pub trait ValueBatch: Copy {
    /// Number of values (slots) in the batch.
    fn len(&self) -> usize;

    /// Whether the batch holds no values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values `start..end`, or `None` if the range is out of bounds.
    fn slice(&self, start: usize, end: usize) -> Option<Self>;
}

impl<T> ValueBatch for &[T] {
    #[inline]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    #[inline]
    fn slice(&self, start: usize, end: usize) -> Option<Self> {
        self.get(start..end)
    }
}

/// A place decoders write values into, with the null-spreading step of
/// [`Decoder::decode_spaced`](crate::Decoder::decode_spaced).
///
/// Implemented for slices of fixed-width values, [`ByteArrayBuffer`] and
/// [`FixedLenByteArrayBuffer`]; sealed.
pub trait DecodeTarget: sealed::Sealed {
    /// Prepare for a spaced decode of `num_slots` slots and return the mark
    /// (the number of values already in the target) that
    /// [`finish_spaced`](Self::finish_spaced) takes back.
    fn begin_spaced(&mut self, num_slots: usize) -> Result<usize>;

    /// Move the `num_present` values decoded densely after `mark` to the
    /// slots whose validity bit is set, leaving empty (zero) values in the
    /// others, so that the target holds `num_slots` new slots.
    fn finish_spaced(
        &mut self,
        mark: usize,
        num_present: usize,
        num_slots: usize,
        validity: &[u8],
        validity_offset: usize,
    ) -> Result<()>;
}

impl<T> sealed::Sealed for [T] {}

impl<T: Copy + Default> DecodeTarget for [T] {
    fn begin_spaced(&mut self, num_slots: usize) -> Result<usize> {
        if self.len() < num_slots {
            return Err(EncodingError::InvalidArgument(format!(
                "output slice of {} values cannot hold {num_slots} slots",
                self.len()
            )));
        }
        Ok(0)
    }

    fn finish_spaced(
        &mut self,
        _mark: usize,
        num_present: usize,
        num_slots: usize,
        validity: &[u8],
        validity_offset: usize,
    ) -> Result<()> {
        let out = self
            .get_mut(..num_slots)
            .ok_or_else(|| EncodingError::InvalidArgument("output slice too short".into()))?;
        check_present(validity, validity_offset, num_slots, num_present)?;
        // Back to front: after the subtraction `j` is the number of set
        // bits before slot `i` (the bits were counted above), so `j <= i`
        // and the read is of a value not yet moved. Slots go a validity
        // byte at a time once aligned: eight slots whose byte is all ones
        // move as one block (most bytes when nulls are few), the others one
        // by one from the byte in a register, without branches.
        let mut j = num_present;
        let mut i = num_slots;
        while i > 0 {
            if let Some(byte) = byte_before(validity, validity_offset, i) {
                let base = i - 8;
                if byte == 0xFF && j >= 8 {
                    out.copy_within(j - 8..j, base);
                    j -= 8;
                } else {
                    // Slot k's value is present value `first + rank`, read
                    // for all eight slots before any is written.
                    let first = j.saturating_sub(byte.count_ones() as usize);
                    let ranks = &PREFIX_COUNTS[usize::from(byte)];
                    let mut moved = [T::default(); 8];
                    for (k, (m, &r)) in moved.iter_mut().zip(ranks).enumerate() {
                        let value = out[first + usize::from(r)];
                        *m = if (byte >> k) & 1 == 1 {
                            value
                        } else {
                            T::default()
                        };
                    }
                    out[base..base + 8].copy_from_slice(&moved);
                    j = first;
                }
                i = base;
                continue;
            }
            i -= 1;
            let valid = get_bit(validity, validity_offset + i);
            j = j.saturating_sub(usize::from(valid));
            let value = out[j];
            out[i] = if valid { value } else { T::default() };
        }
        Ok(())
    }
}

/// Fail unless bits `offset..offset + slots` of `validity` exist and
/// exactly `present` of them are set.
fn check_present(validity: &[u8], offset: usize, slots: usize, present: usize) -> Result<()> {
    check_bitmap(validity, offset, slots)?;
    let set = count_set(validity, offset, slots);
    if set != present {
        return Err(EncodingError::InvalidArgument(format!(
            "validity bitmap has {set} set bits where {present} values are present"
        )));
    }
    Ok(())
}

/// The validity byte that holds exactly the 8 slots before slot `i` (bits
/// `offset + i - 8 .. offset + i`), when those bits are one whole byte: the
/// back-to-front spacing loops take such slots a byte at a time, a byte of
/// ones as one block move.
#[inline]
fn byte_before(validity: &[u8], offset: usize, i: usize) -> Option<u8> {
    if i < 8 || !(offset + i).is_multiple_of(8) {
        return None;
    }
    validity.get((offset + i) / 8 - 1).copied()
}

/// For each validity byte, the number of its set bits below bit `k`, for
/// `k` in `0..8`: the rank among present values of each of its eight slots,
/// relative to the first, so that a byte's slots are spaced without a
/// chain from one slot to the next.
const PREFIX_COUNTS: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut k = 0;
        while k < 8 {
            table[byte][k] = ((byte as u32) & ((1u32 << k) - 1)).count_ones() as u8;
            k += 1;
        }
        byte += 1;
    }
    table
};

fn too_many_present() -> EncodingError {
    EncodingError::InvalidArgument("validity bitmap has more set bits than present values".into())
}

/// A Parquet physical type, as seen by encoders and decoders.
///
/// Implemented for `bool` (BOOLEAN), `i32` (INT32), `i64` (INT64), [`Int96`]
/// (INT96), `f32` (FLOAT), `f64` (DOUBLE), [`ByteArray`] (BYTE_ARRAY) and
/// [`FixedLenByteArray`] (FIXED_LEN_BYTE_ARRAY). Sealed.
pub trait ValueType: sealed::Sealed + 'static {
    /// A borrowed batch of input values.
    type Batch<'a>: ValueBatch;
    /// Where decoded values go.
    type Out: DecodeTarget + ?Sized;
    /// The Parquet name of the physical type (`"INT64"`).
    const NAME: &'static str;
}

/// Fixed-width numeric values stored as `WIDTH` little-endian bytes under
/// PLAIN: `i32`, `i64`, [`Int96`], `f32`, `f64`.
pub trait FixedWidthValue:
    ValueType<Out = [Self]>
    + for<'a> ValueType<Batch<'a> = &'a [Self]>
    + Copy
    + Default
    + PartialEq
    + Debug
    + Send
    + Sync
{
    /// Bytes per value.
    const WIDTH: usize;

    /// Write `values` as little-endian bytes into `out`, which holds exactly
    /// `values.len() * WIDTH` bytes.
    fn encode_plain(values: &[Self], out: &mut [u8]);

    /// Read `out.len()` values from the little-endian `bytes`, which hold
    /// exactly `out.len() * WIDTH` bytes.
    fn decode_plain(bytes: &[u8], out: &mut [Self]);

    /// Append the values of the little-endian `bytes` (whole values; a
    /// partial one at the end is ignored) to `out`, without first filling
    /// the new slots with defaults.
    ///
    /// ```
    /// use strata_encoding::FixedWidthValue;
    /// let mut out = vec![7i32];
    /// i32::extend_plain(&[1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], &mut out);
    /// assert_eq!(out, [7, 1, -1]);
    /// ```
    fn extend_plain(bytes: &[u8], out: &mut Vec<Self>) {
        let start = out.len();
        let n = bytes.len() / Self::WIDTH;
        out.resize(start + n, Self::default());
        Self::decode_plain(bytes, &mut out[start..]);
    }
}

macro_rules! numeric_value {
    ($t:ty, $w:literal, $name:literal) => {
        impl sealed::Sealed for $t {}

        impl ValueType for $t {
            type Batch<'a> = &'a [$t];
            type Out = [$t];
            const NAME: &'static str = $name;
        }

        impl FixedWidthValue for $t {
            const WIDTH: usize = $w;

            #[inline]
            fn encode_plain(values: &[Self], out: &mut [u8]) {
                let (chunks, _) = out.as_chunks_mut::<$w>();
                for (c, v) in chunks.iter_mut().zip(values) {
                    *c = v.to_le_bytes();
                }
            }

            #[inline]
            fn decode_plain(bytes: &[u8], out: &mut [Self]) {
                let (chunks, _) = bytes.as_chunks::<$w>();
                for (o, c) in out.iter_mut().zip(chunks) {
                    *o = <$t>::from_le_bytes(*c);
                }
            }

            fn extend_plain(bytes: &[u8], out: &mut Vec<Self>) {
                let (chunks, _) = bytes.as_chunks::<$w>();
                out.extend(chunks.iter().map(|c| <$t>::from_le_bytes(*c)));
            }
        }
    };
}

numeric_value!(i32, 4, "INT32");
numeric_value!(i64, 8, "INT64");
numeric_value!(f32, 4, "FLOAT");
numeric_value!(f64, 8, "DOUBLE");

/// INT32 or INT64 values read as 128-bit integers (the values of a
/// 128-bit decimal stored as integers), sign-extended as they are decoded.
/// Only read, never encoded.
impl sealed::Sealed for i128 {}

impl ValueType for i128 {
    type Batch<'a> = &'a [i128];
    type Out = [i128];
    const NAME: &'static str = "INT32/INT64 as 128-bit integers";
}

/// A deprecated INT96 value (legacy timestamps): three little-endian `u32`
/// words, least significant first, stored as 12 bytes.
///
/// ```
/// use strata_encoding::Int96;
/// let v = Int96([1, 2, 3]);
/// assert_eq!(v.0[2], 3);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Int96(pub [u32; 3]);

/// The Julian day of 1970-01-01.
const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;

/// arrow-rs's accessors and conversions (`parquet::data_type::Int96`).
/// The conversions read the value as a legacy timestamp: nanoseconds of
/// the day in the first two words (low word first), the Julian day in the
/// third (signed); they wrap on overflow, as arrow-rs's do.
///
/// ```
/// use strata_encoding::Int96;
///
/// let mut v = Int96::new();
/// // 1970-01-02, 1.5 seconds after midnight.
/// v.set_data(1_500_000_000, 0, 2_440_589);
/// assert_eq!(v.data(), [1_500_000_000, 0, 2_440_589]);
/// assert_eq!(v.to_seconds(), 86_401);
/// assert_eq!(v.to_millis(), 86_401_500);
/// assert_eq!(v.to_micros(), 86_401_500_000);
/// assert_eq!(v.to_nanos(), 86_401_500_000_000);
/// ```
impl Int96 {
    /// A zero value.
    pub const fn new() -> Self {
        Self([0; 3])
    }

    /// The three words, least significant first.
    #[inline]
    pub fn data(&self) -> &[u32] {
        &self.0
    }

    /// Set the three words, least significant first.
    #[inline]
    pub fn set_data(&mut self, elem0: u32, elem1: u32, elem2: u32) {
        self.0 = [elem0, elem1, elem2];
    }

    /// Days since the epoch and nanoseconds of the day.
    #[inline]
    fn days_and_nanos(&self) -> (i64, i64) {
        let [low, high, day] = self.0;
        let nanos = (i64::from(high) << 32).wrapping_add(i64::from(low));
        (i64::from(day as i32) - JULIAN_DAY_OF_EPOCH, nanos)
    }

    /// Seconds since the epoch.
    #[inline]
    pub fn to_seconds(&self) -> i64 {
        let (days, nanos) = self.days_and_nanos();
        days.wrapping_mul(86_400)
            .wrapping_add(nanos / 1_000_000_000)
    }

    /// Milliseconds since the epoch.
    #[inline]
    pub fn to_millis(&self) -> i64 {
        let (days, nanos) = self.days_and_nanos();
        days.wrapping_mul(86_400_000)
            .wrapping_add(nanos / 1_000_000)
    }

    /// Microseconds since the epoch.
    #[inline]
    pub fn to_micros(&self) -> i64 {
        let (days, nanos) = self.days_and_nanos();
        days.wrapping_mul(86_400_000_000)
            .wrapping_add(nanos / 1_000)
    }

    /// Nanoseconds since the epoch.
    #[inline]
    pub fn to_nanos(&self) -> i64 {
        let (days, nanos) = self.days_and_nanos();
        days.wrapping_mul(86_400_000_000_000).wrapping_add(nanos)
    }
}

impl sealed::Sealed for Int96 {}

impl ValueType for Int96 {
    type Batch<'a> = &'a [Int96];
    type Out = [Int96];
    const NAME: &'static str = "INT96";
}

impl FixedWidthValue for Int96 {
    const WIDTH: usize = 12;

    #[inline]
    fn encode_plain(values: &[Self], out: &mut [u8]) {
        let (chunks, _) = out.as_chunks_mut::<12>();
        for (c, v) in chunks.iter_mut().zip(values) {
            c[0..4].copy_from_slice(&v.0[0].to_le_bytes());
            c[4..8].copy_from_slice(&v.0[1].to_le_bytes());
            c[8..12].copy_from_slice(&v.0[2].to_le_bytes());
        }
    }

    #[inline]
    fn decode_plain(bytes: &[u8], out: &mut [Self]) {
        let (chunks, _) = bytes.as_chunks::<12>();
        for (o, c) in out.iter_mut().zip(chunks) {
            let (words, _) = c.as_chunks::<4>();
            *o = Int96([
                u32::from_le_bytes(words[0]),
                u32::from_le_bytes(words[1]),
                u32::from_le_bytes(words[2]),
            ]);
        }
    }
}

impl sealed::Sealed for bool {}

impl ValueType for bool {
    type Batch<'a> = &'a [bool];
    type Out = [bool];
    const NAME: &'static str = "BOOLEAN";
}

/// Offset type of a [`ByteArrayBuffer`]: `i32` (Arrow `Binary`/`Utf8`) or
/// `i64` (Arrow `LargeBinary`/`LargeUtf8`). Sealed.
pub trait OffsetSize:
    sealed::Sealed + Copy + Default + Ord + Debug + Send + Sync + 'static
{
    /// The zero offset.
    const ZERO: Self;
    /// A one-element offsets array `[0]`: the offsets of an empty buffer.
    const EMPTY_OFFSETS: &'static [Self];

    /// The offset as a `usize`. Offsets handled by this crate are never
    /// negative.
    fn as_usize(self) -> usize;

    /// `v` as an offset, or `None` if it does not fit.
    fn from_usize(v: usize) -> Option<Self>;

    /// A validated [`ByteArrayBatch`] over Arrow-layout `offsets` and
    /// `values` (see [`ByteArrayBatch::from_offsets`]).
    fn batch<'a>(offsets: &'a [Self], values: &'a [u8]) -> Result<ByteArrayBatch<'a>>;
}

impl OffsetSize for i32 {
    const ZERO: Self = 0;
    const EMPTY_OFFSETS: &'static [Self] = &[0];

    #[inline]
    fn as_usize(self) -> usize {
        self as u32 as usize
    }

    #[inline]
    fn from_usize(v: usize) -> Option<Self> {
        i32::try_from(v).ok()
    }

    fn batch<'a>(offsets: &'a [Self], values: &'a [u8]) -> Result<ByteArrayBatch<'a>> {
        validate_offsets(offsets, values.len())?;
        Ok(ByteArrayBatch {
            repr: Repr::Offsets32(offsets, values),
        })
    }
}

impl OffsetSize for i64 {
    const ZERO: Self = 0;
    const EMPTY_OFFSETS: &'static [Self] = &[0];

    #[inline]
    fn as_usize(self) -> usize {
        self as u64 as usize
    }

    #[inline]
    fn from_usize(v: usize) -> Option<Self> {
        i64::try_from(v).ok()
    }

    fn batch<'a>(offsets: &'a [Self], values: &'a [u8]) -> Result<ByteArrayBatch<'a>> {
        validate_offsets(offsets, values.len())?;
        Ok(ByteArrayBatch {
            repr: Repr::Offsets64(offsets, values),
        })
    }
}

fn validate_offsets<O: OffsetSize>(offsets: &[O], values_len: usize) -> Result<()> {
    let Some(&first) = offsets.first() else {
        return Ok(());
    };
    if first < O::ZERO {
        return Err(EncodingError::InvalidArgument(
            "negative first offset".into(),
        ));
    }
    // No early exit: a branch-free fold the compiler vectorises.
    let decreasing = offsets
        .iter()
        .zip(&offsets[1..])
        .fold(false, |acc, (a, b)| acc | (b < a));
    if decreasing {
        return Err(EncodingError::InvalidArgument("offsets decrease".into()));
    }
    let last = offsets.last().map_or(0, |o| o.as_usize());
    if last > values_len {
        return Err(EncodingError::InvalidArgument(format!(
            "last offset {last} is past the {values_len} value bytes"
        )));
    }
    Ok(())
}

/// The BYTE_ARRAY physical type. `O` is the offset type of the
/// [`ByteArrayBuffer`] decoders append to; encoders implement
/// `Encoder<ByteArray>` and accept input with either offset width through
/// [`ByteArrayBatch`].
#[derive(Debug)]
pub struct ByteArray<O: OffsetSize = i32>(PhantomData<fn() -> O>);

impl<O: OffsetSize> sealed::Sealed for ByteArray<O> {}

impl<O: OffsetSize> ValueType for ByteArray<O> {
    type Batch<'a> = ByteArrayBatch<'a>;
    type Out = ByteArrayBuffer<O>;
    const NAME: &'static str = "BYTE_ARRAY";
}

/// The FIXED_LEN_BYTE_ARRAY physical type: every value has the same width.
#[derive(Debug)]
pub struct FixedLenByteArray(());

impl sealed::Sealed for FixedLenByteArray {}

impl ValueType for FixedLenByteArray {
    type Batch<'a> = FixedLenBatch<'a>;
    type Out = FixedLenByteArrayBuffer;
    const NAME: &'static str = "FIXED_LEN_BYTE_ARRAY";
}

/// A borrowed batch of byte-array values: either a slice of slices or the
/// Arrow layout (`offsets` of `len + 1` entries into one `values` buffer).
///
/// The Arrow layout is the fast path: its total size is known in O(1) and
/// its bytes are contiguous.
///
/// ```
/// use strata_encoding::ByteArrayBatch;
///
/// let a = ByteArrayBatch::from_slices(&[b"ab", b"", b"cde"]);
/// let b = ByteArrayBatch::from_offsets(&[0i32, 2, 2, 5], b"abcde").unwrap();
/// assert_eq!(a.len(), 3);
/// assert_eq!(b.get(2), Some(&b"cde"[..]));
/// assert_eq!(a.total_bytes(), b.total_bytes());
/// assert!(ByteArrayBatch::from_offsets(&[0i32, 3, 2], b"abc").is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ByteArrayBatch<'a> {
    repr: Repr<'a>,
}

/// The two layouts of a [`ByteArrayBatch`], for kernels specialised per
/// layout.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Repr<'a> {
    Slices(&'a [&'a [u8]]),
    Offsets32(&'a [i32], &'a [u8]),
    Offsets64(&'a [i64], &'a [u8]),
}

/// Run `$body` with `$get` bound to a monomorphic per-index accessor.
macro_rules! with_offsets {
    ($offsets:expr, $values:expr, |$start:ident, $end:ident| $body:expr) => {{
        let offsets = $offsets;
        let values = $values;
        for w in offsets.windows(2) {
            let $start = w[0].as_usize();
            let $end = w[1].as_usize();
            let _ = &values;
            $body
        }
    }};
}

impl<'a> ByteArrayBatch<'a> {
    /// A batch over a slice of byte slices.
    pub fn from_slices(values: &'a [&'a [u8]]) -> Self {
        Self {
            repr: Repr::Slices(values),
        }
    }

    /// A batch over the Arrow layout: value `i` is
    /// `values[offsets[i]..offsets[i + 1]]`.
    ///
    /// Checks once that the offsets start non-negative, never decrease and
    /// stay within `values` (an `O(len)` scan), so encoders can then index
    /// without failing. Empty `offsets` means an empty batch.
    pub fn from_offsets<O: OffsetSize>(offsets: &'a [O], values: &'a [u8]) -> Result<Self> {
        O::batch(offsets, values)
    }

    /// The layout, for kernels specialised per layout.
    #[inline]
    pub(crate) fn repr(&self) -> Repr<'a> {
        self.repr
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self.repr {
            Repr::Slices(s) => s.len(),
            Repr::Offsets32(o, _) => o.len().saturating_sub(1),
            Repr::Offsets64(o, _) => o.len().saturating_sub(1),
        }
    }

    /// Whether the batch holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sum of the value lengths in bytes (`O(1)` for the Arrow layout).
    pub fn total_bytes(&self) -> usize {
        match self.repr {
            Repr::Slices(s) => s.iter().map(|v| v.len()).sum(),
            Repr::Offsets32(o, _) => span(o),
            Repr::Offsets64(o, _) => span(o),
        }
    }

    /// Value `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        match self.repr {
            Repr::Slices(s) => s.get(i).copied(),
            Repr::Offsets32(o, v) => get_offset_value(o, v, i),
            Repr::Offsets64(o, v) => get_offset_value(o, v, i),
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        ByteArrayIter::new(self.repr)
    }

    /// The bytes of all values back to back, when they are contiguous in
    /// memory (the Arrow layout); `None` for a slice of slices.
    pub(crate) fn contiguous_bytes(&self) -> Option<&'a [u8]> {
        match self.repr {
            Repr::Slices(_) => None,
            Repr::Offsets32(o, v) => contiguous(o, v),
            Repr::Offsets64(o, v) => contiguous(o, v),
        }
    }

    /// Call `f` on every value, with a loop specialised per layout.
    #[inline]
    pub(crate) fn try_for_each(&self, mut f: impl FnMut(&'a [u8]) -> Result<()>) -> Result<()> {
        match self.repr {
            Repr::Slices(s) => {
                for v in s {
                    f(v)?;
                }
            }
            Repr::Offsets32(o, v) => with_offsets!(o, v, |s, e| f(&v[s..e])?),
            Repr::Offsets64(o, v) => with_offsets!(o, v, |s, e| f(&v[s..e])?),
        }
        Ok(())
    }

    /// [`try_for_each`](Self::try_for_each), also giving each value the
    /// [`OVERCOPY`] bytes that start where it starts, when the batch's
    /// buffer holds that many (values given as offsets into one buffer;
    /// never for a batch of separate slices), for
    /// [`ShortAppender::push_chunk`].
    #[inline]
    pub(crate) fn try_for_each_with_chunk(
        &self,
        mut f: impl FnMut(&'a [u8], Option<&'a [u8; OVERCOPY]>) -> Result<()>,
    ) -> Result<()> {
        let chunk = |v: &'a [u8], s: usize| v.get(s..).and_then(|t| t.first_chunk());
        match self.repr {
            Repr::Slices(s) => {
                for v in s {
                    f(v, None)?;
                }
            }
            Repr::Offsets32(o, v) => with_offsets!(o, v, |s, e| f(&v[s..e], chunk(v, s))?),
            Repr::Offsets64(o, v) => with_offsets!(o, v, |s, e| f(&v[s..e], chunk(v, s))?),
        }
        Ok(())
    }

    /// Call `f` on every value length, with a loop specialised per layout.
    #[inline]
    pub(crate) fn try_for_each_len(&self, mut f: impl FnMut(usize) -> Result<()>) -> Result<()> {
        match self.repr {
            Repr::Slices(s) => {
                for v in s {
                    f(v.len())?;
                }
            }
            Repr::Offsets32(o, v) => with_offsets!(o, v, |s, e| f(e - s)?),
            Repr::Offsets64(o, v) => with_offsets!(o, v, |s, e| f(e - s)?),
        }
        Ok(())
    }
}

fn span<O: OffsetSize>(o: &[O]) -> usize {
    match (o.first(), o.last()) {
        (Some(f), Some(l)) => l.as_usize() - f.as_usize(),
        _ => 0,
    }
}

fn contiguous<'a, O: OffsetSize>(o: &[O], v: &'a [u8]) -> Option<&'a [u8]> {
    match (o.first(), o.last()) {
        (Some(f), Some(l)) => v.get(f.as_usize()..l.as_usize()),
        _ => Some(&[]),
    }
}

/// The values of a [`ByteArrayBatch`] in order: the layout matched once
/// per value against a state that walks that layout's own slices (a
/// well-predicted branch), rather than a lookup by index through every
/// layout.
enum ByteArrayIter<'a> {
    Slices(std::slice::Iter<'a, &'a [u8]>),
    Offsets32(std::slice::Windows<'a, i32>, &'a [u8]),
    Offsets64(std::slice::Windows<'a, i64>, &'a [u8]),
}

impl<'a> ByteArrayIter<'a> {
    fn new(repr: Repr<'a>) -> Self {
        match repr {
            Repr::Slices(s) => Self::Slices(s.iter()),
            Repr::Offsets32(o, v) => Self::Offsets32(o.windows(2), v),
            Repr::Offsets64(o, v) => Self::Offsets64(o.windows(2), v),
        }
    }
}

/// Value `w[0]..w[1]` of `v`; `None` (the end, for the iterator) if the
/// offsets do not name a range of `v` (a checked batch never has such).
#[inline(always)]
fn window_value<'a, O: OffsetSize>(w: &[O], v: &'a [u8]) -> Option<&'a [u8]> {
    match w {
        [s, e] => v.get(s.as_usize()..e.as_usize()),
        _ => None,
    }
}

impl<'a> Iterator for ByteArrayIter<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        match self {
            Self::Slices(it) => it.next().copied(),
            Self::Offsets32(it, v) => window_value(it.next()?, v),
            Self::Offsets64(it, v) => window_value(it.next()?, v),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Self::Slices(it) => it.size_hint(),
            Self::Offsets32(it, _) => (0, it.size_hint().1),
            Self::Offsets64(it, _) => (0, it.size_hint().1),
        }
    }
}

fn get_offset_value<'a, O: OffsetSize>(o: &[O], v: &'a [u8], i: usize) -> Option<&'a [u8]> {
    let s = o.get(i)?.as_usize();
    let e = o.get(i.checked_add(1)?)?.as_usize();
    v.get(s..e)
}

impl ValueBatch for ByteArrayBatch<'_> {
    fn len(&self) -> usize {
        ByteArrayBatch::len(self)
    }

    fn slice(&self, start: usize, end: usize) -> Option<Self> {
        if start > end || end > ByteArrayBatch::len(self) {
            return None;
        }
        if start == end {
            return Some(Self::from_slices(&[]));
        }
        let repr = match self.repr {
            Repr::Slices(s) => Repr::Slices(s.get(start..end)?),
            Repr::Offsets32(o, v) => Repr::Offsets32(o.get(start..=end)?, v),
            Repr::Offsets64(o, v) => Repr::Offsets64(o.get(start..=end)?, v),
        };
        Some(Self { repr })
    }
}

/// Decoded byte-array values in the Arrow layout: `offsets` (`len + 1`
/// entries, starting at zero) into one `values` buffer.
///
/// Decoders append to it with no allocation per value; `into_parts` hands the
/// two vectors to an Arrow layer without a copy. A new buffer holds no heap
/// memory.
///
/// ```
/// use strata_encoding::ByteArrayBuffer;
///
/// let mut buf = ByteArrayBuffer::<i32>::new();
/// assert_eq!(buf.offsets(), &[0]);
/// buf.push(b"hello").unwrap();
/// buf.push(b"").unwrap();
/// assert_eq!(buf.len(), 2);
/// assert_eq!(buf.offsets(), &[0, 5, 5]);
/// assert_eq!(buf.value(0), Some(&b"hello"[..]));
/// let (offsets, values) = buf.into_parts();
/// assert_eq!((offsets.len(), values.len()), (3, 5));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ByteArrayBuffer<O: OffsetSize = i32> {
    offsets: Vec<O>,
    values: Vec<u8>,
}

/// Bytes to reserve for the next `n` of the `left` PLAIN values held in
/// `page_len` bytes: their share of the payload (the bytes less the 4-byte
/// lengths), one part in 64 over, and the [`OVERCOPY`] the fixed copies
/// write past the last value.
fn plain_share(page_len: usize, left: usize, n: usize) -> usize {
    if left == 0 {
        return OVERCOPY;
    }
    let payload = page_len.saturating_sub(left.saturating_mul(4)) as u128;
    let share = (payload * n as u128 / left as u128) as usize;
    share + share / 64 + OVERCOPY
}

/// The PLAIN byte array (4-byte length, then its bytes) at `pos` of
/// `page`, or `None` if the page ends inside it.
#[inline(always)]
fn plain_value(page: &[u8], pos: usize) -> Option<&[u8]> {
    let len = page.get(pos..)?.first_chunk::<4>()?;
    let start = pos + 4;
    page.get(start..start.checked_add(u32::from_le_bytes(*len) as usize)?)
}

/// Write the end of `values` (after the value just appended) to `slots[k]`.
#[inline(always)]
fn note_end<O: OffsetSize>(values: &[u8], slots: &mut [O], k: usize) -> Result<()> {
    let end = O::from_usize(values.len()).ok_or(EncodingError::OffsetOverflow(values.len()))?;
    if let Some(slot) = slots.get_mut(k) {
        *slot = end;
    }
    Ok(())
}

/// Walk the first `n` PLAIN values of `page`, appending to `values` those
/// whose bit in `keep` (from bit `offset`) is set and writing each kept
/// value's end offset to the next of `slots` (one per kept value); returns
/// the bytes the `n` values took. Every value is appended and cut off
/// again unless kept, so that the loop does not branch on the bit: for
/// masks that keep many. On an error the caller truncates what was
/// appended.
fn keep_plain_values<O: OffsetSize>(
    values: &mut Vec<u8>,
    slots: &mut [O],
    page: &[u8],
    n: usize,
    keep: &[u8],
    offset: usize,
) -> Result<usize> {
    let mut pos = 0usize;
    let mut k = 0usize;
    for i in 0..n {
        let value = plain_value(page, pos).ok_or(EncodingError::Truncated("byte array value"))?;
        pos += 4 + value.len();
        let bit = usize::from(get_bit(keep, offset + i));
        let before = values.len();
        values.extend_from_slice(value);
        values.truncate(before + value.len() * bit);
        note_end(values, slots, k)?;
        k += bit;
    }
    Ok(pos)
}

/// [`keep_plain_values`] for masks that keep few: the dropped values
/// between runs of kept ones are passed over by the walk over their
/// lengths alone ([`skip_plain_byte_arrays`]), and only kept values are
/// copied.
fn keep_few_plain_values<O: OffsetSize>(
    values: &mut Vec<u8>,
    slots: &mut [O],
    page: &[u8],
    n: usize,
    keep: &[u8],
    offset: usize,
) -> Result<usize> {
    let (mut pos, mut at, mut k) = (0usize, 0usize, 0usize);
    for (start, len) in SetRuns::new(keep, offset, n) {
        pos = skip_plain_byte_arrays(page, pos, start - at)?;
        for _ in 0..len {
            let value =
                plain_value(page, pos).ok_or(EncodingError::Truncated("byte array value"))?;
            pos += 4 + value.len();
            values.extend_from_slice(value);
            note_end(values, slots, k)?;
            k += 1;
        }
        at = start + len;
    }
    skip_plain_byte_arrays(page, pos, n.saturating_sub(at))
}

impl<O: OffsetSize> ByteArrayBuffer<O> {
    /// An empty buffer; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            offsets: Vec::new(),
            values: Vec::new(),
        }
    }

    /// An empty buffer with room for `values` values of `bytes` bytes in all.
    pub fn with_capacity(values: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(values.saturating_add(1));
        offsets.push(O::ZERO);
        Self {
            offsets,
            values: Vec::with_capacity(bytes),
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether the buffer holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The offsets: `len() + 1` entries, the first zero.
    pub fn offsets(&self) -> &[O] {
        if self.offsets.is_empty() {
            O::EMPTY_OFFSETS
        } else {
            &self.offsets
        }
    }

    /// All value bytes back to back.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Value `i`, or `None` past the end.
    pub fn value(&self, i: usize) -> Option<&[u8]> {
        get_offset_value(&self.offsets, &self.values, i)
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.len()).filter_map(|i| self.value(i))
    }

    /// Append one value.
    pub fn push(&mut self, value: &[u8]) -> Result<()> {
        self.start();
        self.values.extend_from_slice(value);
        self.commit_value()
    }

    /// Remove every value, keeping the allocations.
    pub fn clear(&mut self) {
        self.offsets.clear();
        self.values.clear();
    }

    /// Append `dict[i]` for every index: the dictionary gather. Fails,
    /// appending nothing, if an index is out of range or the offsets would
    /// overflow.
    ///
    /// One pass over the indices, each checked as its entry is read. The
    /// values are sized once, for the batch times the dictionary's average
    /// entry (at most the dictionary's bytes plus 32 a value) and grow,
    /// should the batch pick longer entries: no pass over the indices or
    /// the entries to find the exact size first.
    ///
    /// ```
    /// use strata_encoding::ByteArrayBuffer;
    /// let mut dict = ByteArrayBuffer::<i32>::new();
    /// dict.push(b"ab").unwrap();
    /// dict.push(b"c").unwrap();
    /// let mut out = ByteArrayBuffer::<i32>::new();
    /// out.extend_gather(&dict, &[1, 0, 1]).unwrap();
    /// assert_eq!(out.values(), b"cabc");
    /// assert!(out.extend_gather(&dict, &[2]).is_err());
    /// assert_eq!(out.values(), b"cabc");
    /// ```
    pub fn extend_gather(&mut self, dict: &ByteArrayBuffer<O>, indices: &[u32]) -> Result<()> {
        let offsets = dict.offsets();
        let values = dict.values();
        let (offsets_before, base) = (self.offsets.len(), self.values.len());
        self.start();
        // The batch times the average entry, but never more than the
        // dictionary's own bytes plus OVERCOPY a value: one huge entry
        // among short ones must not size a gather of the short ones.
        let average = values.len().div_ceil(dict.len().max(1));
        let room = average.saturating_mul(indices.len()).min(
            values
                .len()
                .saturating_add(indices.len().saturating_mul(OVERCOPY)),
        );
        self.values.reserve(room.saturating_add(OVERCOPY));
        // Offsets go into slots sized once (a failure truncates them).
        let first_offset = self.offsets.len();
        self.offsets.resize(first_offset + indices.len(), O::ZERO);
        let slots = &mut self.offsets[first_offset..];
        let mut out = ShortAppender::new(&mut self.values);
        let mut k = 0;
        let failure = loop {
            // The common value (short, with a full chunk of dictionary
            // bytes from its start) in a loop that calls nothing, so that
            // its state stays in registers; the loop stops at the first
            // value it cannot take (a long one, one near the end of the
            // dictionary's bytes, no room left, or a bad index), which the
            // checked append below takes, and starts again after it.
            for (&i, slot) in indices[k..].iter().zip(&mut slots[k..]) {
                let i = i as usize;
                let (Some(a), Some(b)) = (offsets.get(i), offsets.get(i + 1)) else {
                    break;
                };
                let (a, b) = (a.as_usize(), b.as_usize());
                let Some(chunk) = values.get(a..).and_then(|t| t.first_chunk::<OVERCOPY>()) else {
                    break;
                };
                let Some(len) = b.checked_sub(a).filter(|&len| len <= OVERCOPY) else {
                    break;
                };
                let Some(end) = O::from_usize(out.len() + len) else {
                    break;
                };
                if !out.try_push_chunk(chunk, len) {
                    break;
                }
                *slot = end;
                k += 1;
            }
            let (Some(&i), Some(slot)) = (indices.get(k), slots.get_mut(k)) else {
                break None;
            };
            let Some(v) = dict.value(i as usize) else {
                break Some(EncodingError::Corrupt(format!(
                    "dictionary index {i} out of range for {} entries",
                    dict.len()
                )));
            };
            let Some(end) = O::from_usize(out.len() + v.len()) else {
                break Some(EncodingError::OffsetOverflow(out.len() + v.len()));
            };
            out.push(v);
            *slot = end;
            k += 1;
        };
        drop(out);
        if let Some(e) = failure {
            self.offsets.truncate(offsets_before);
            self.values.truncate(base);
            return Err(e);
        }
        Ok(())
    }

    /// Append those of the first `n` PLAIN-encoded values of `page` whose
    /// bit in `keep` (LSB first, bits `offset..offset + n`, checked by the
    /// caller) is set, walking past the others, and return how many bytes
    /// of `page` the `n` values took. Fails, appending nothing, if the
    /// page ends inside them or the offsets would overflow.
    ///
    /// The bytes are reserved once, as the kept values' share of the
    /// page's remaining payload (`left` values from the start of `page`).
    pub(crate) fn extend_plain_kept(
        &mut self,
        page: &[u8],
        n: usize,
        left: usize,
        keep: &[u8],
        offset: usize,
    ) -> Result<usize> {
        self.start();
        let (first_offset, base) = (self.offsets.len(), self.values.len());
        let left = left.max(n);
        if left > page.len() / 4 {
            return Err(EncodingError::Truncated("byte array value"));
        }
        let kept = count_set(keep, offset, n);
        self.values.reserve(plain_share(page.len(), left, kept));
        self.offsets.resize(first_offset + kept, O::ZERO);
        let slots = &mut self.offsets[first_offset..];
        let walked = if kept <= n / 4 {
            keep_few_plain_values(&mut self.values, slots, page, n, keep, offset)
        } else {
            keep_plain_values(&mut self.values, slots, page, n, keep, offset)
        };
        if walked.is_err() {
            self.offsets.truncate(first_offset);
            self.values.truncate(base);
        }
        walked
    }

    /// Append the first `n` PLAIN-encoded values of `page` (each a 4-byte
    /// little-endian length and its bytes), the page's last `left` values
    /// (`left >= n`), and return how many bytes of `page` they took.
    /// Fails, appending nothing, if the page ends inside them or the
    /// offsets would overflow.
    ///
    /// One pass, each length checked against the bytes left. A value of up
    /// to [`OVERCOPY`] bytes with that many page bytes from its start is
    /// appended as one fixed-size copy ([`ShortAppender::push_chunk`]:
    /// vector moves, where a copy of a run-time length is a call to
    /// `memcpy`).
    ///
    /// The bytes are reserved once, as the `n` values' share of the
    /// page's remaining payload (its bytes less the `left` lengths), a
    /// little over; should the values turn out longer than their share,
    /// the buffer grows to the share of what is still to come, never by
    /// doubling. The batch, not the page, sizes the buffer.
    pub(crate) fn extend_plain(&mut self, page: &[u8], n: usize, left: usize) -> Result<usize> {
        self.start();
        let (first_offset, base) = (self.offsets.len(), self.values.len());
        // Each value takes at least its 4-byte length: a count the page
        // cannot hold fails before anything is sized by it.
        let left = left.max(n);
        if left > page.len() / 4 {
            return Err(EncodingError::Truncated("byte array value"));
        }
        self.values.reserve_exact(plain_share(page.len(), left, n));
        // Offsets go into slots sized once (a failure below truncates
        // them again).
        self.offsets.resize(first_offset + n, O::ZERO);
        let slots = &mut self.offsets[first_offset..];
        let mut pos = 0usize;
        let mut out = ShortAppender::new(&mut self.values);
        let mut k = 0;
        let failure = loop {
            // The common value (short, with a full chunk of page bytes
            // after its length) in a loop that calls nothing, so that its
            // state stays in registers; the loop stops at the first value
            // it cannot take, which the checked append below takes.
            for slot in slots.iter_mut().skip(k) {
                let Some(len) = page.get(pos..).and_then(|t| t.first_chunk::<4>()) else {
                    break;
                };
                let len = u32::from_le_bytes(*len) as usize;
                let Some(chunk) = page
                    .get(pos + 4..)
                    .and_then(|t| t.first_chunk::<OVERCOPY>())
                else {
                    break;
                };
                let Some(end) = O::from_usize(out.len() + len) else {
                    break;
                };
                // A length of at most OVERCOPY lies inside the chunk, and
                // so inside the page.
                if !out.try_push_chunk(chunk, len) {
                    break;
                }
                *slot = end;
                pos += 4 + len;
                k += 1;
            }
            let Some(slot) = slots.get_mut(k) else {
                break None;
            };
            let Some(value) = plain_value(page, pos) else {
                break Some(EncodingError::Truncated("byte array value"));
            };
            let after = pos + 4 + value.len();
            if out.room() < value.len() + OVERCOPY {
                // The values ran past their share: room for this one and
                // the share of those still to come (a division, so only
                // here, not per value).
                out.reserve_exact(
                    value.len() + plain_share(page.len() - after, left - k - 1, n - k - 1),
                );
            }
            out.push(value);
            let Some(end) = O::from_usize(out.len()) else {
                break Some(EncodingError::OffsetOverflow(out.len()));
            };
            *slot = end;
            pos = after;
            k += 1;
        };
        drop(out);
        if let Some(e) = failure {
            self.offsets.truncate(first_offset);
            self.values.truncate(base);
            return Err(e);
        }
        Ok(pos)
    }

    /// Append values `start..end` of `other` (one copy of their bytes and
    /// their offsets, rebased). Fails, appending nothing, if the range is
    /// out of bounds or the offsets would overflow.
    ///
    /// ```
    /// use strata_encoding::ByteArrayBuffer;
    /// let mut page = ByteArrayBuffer::<i32>::new();
    /// for v in [&b"ab"[..], b"c", b"def"] {
    ///     page.push(v).unwrap();
    /// }
    /// let mut out = ByteArrayBuffer::<i32>::new();
    /// out.push(b"x").unwrap();
    /// out.extend_from_range(&page, 1, 3).unwrap();
    /// assert_eq!(out.iter().collect::<Vec<_>>(), [&b"x"[..], b"c", b"def"]);
    /// assert!(out.extend_from_range(&page, 2, 4).is_err());
    /// ```
    pub fn extend_from_range(
        &mut self,
        other: &ByteArrayBuffer<O>,
        start: usize,
        end: usize,
    ) -> Result<()> {
        let src = other
            .offsets()
            .get(
                start
                    ..end
                        .checked_add(1)
                        .ok_or(EncodingError::OffsetOverflow(end))?,
            )
            .filter(|_| start <= end)
            .ok_or_else(|| {
                EncodingError::InvalidArgument(format!(
                    "values {start}..{end} of a buffer of {}",
                    other.len()
                ))
            })?;
        let (first, last) = match (src.first(), src.last()) {
            (Some(f), Some(l)) => (f.as_usize(), l.as_usize()),
            _ => return Ok(()),
        };
        let bytes = other
            .values
            .get(first..last)
            .ok_or(EncodingError::Truncated("byte array buffer"))?;
        let base = self.values.len();
        if O::from_usize(base + bytes.len()).is_none() {
            return Err(EncodingError::OffsetOverflow(base + bytes.len()));
        }
        self.start();
        self.values.extend_from_slice(bytes);
        self.offsets.extend(
            src[1..]
                .iter()
                // In range: checked against the total above.
                .map(|o| O::from_usize(o.as_usize() - first + base).unwrap_or(O::ZERO)),
        );
        Ok(())
    }

    /// The offsets (with the leading zero) and the values, without a copy.
    pub fn into_parts(mut self) -> (Vec<O>, Vec<u8>) {
        self.start();
        (self.offsets, self.values)
    }

    /// Bytes of heap memory held.
    pub fn heap_size(&self) -> usize {
        self.offsets.capacity() * std::mem::size_of::<O>() + self.values.capacity()
    }

    /// Bytes of values the buffer holds room for without growing.
    ///
    /// ```
    /// use strata_encoding::ByteArrayBuffer;
    /// let buf = ByteArrayBuffer::<i32>::with_capacity(2, 100);
    /// assert!(buf.bytes_capacity() >= 100);
    /// ```
    pub fn bytes_capacity(&self) -> usize {
        self.values.capacity()
    }

    /// Make sure the leading zero offset is there.
    #[inline]
    pub(crate) fn start(&mut self) {
        if self.offsets.is_empty() {
            self.offsets.push(O::ZERO);
        }
    }

    /// Reserve room for `values` more values and `bytes` more bytes.
    #[inline]
    pub(crate) fn reserve(&mut self, values: usize, bytes: usize) {
        self.offsets.reserve(values);
        self.values.reserve(bytes);
    }

    /// The value bytes, to append a value's bytes before
    /// [`commit_value`](Self::commit_value).
    #[inline]
    pub(crate) fn values_mut(&mut self) -> &mut Vec<u8> {
        &mut self.values
    }

    /// End the current value at the current end of the value bytes.
    /// [`start`](Self::start) must have been called.
    #[inline]
    pub(crate) fn commit_value(&mut self) -> Result<()> {
        let end = self.values.len();
        let off = O::from_usize(end).ok_or(EncodingError::OffsetOverflow(end))?;
        self.offsets.push(off);
        Ok(())
    }

    /// End a value at byte `end` of the value bytes (which the caller has
    /// already appended). [`start`](Self::start) must have been called.
    #[inline]
    pub(crate) fn commit_end(&mut self, end: usize) -> Result<()> {
        let off = O::from_usize(end).ok_or(EncodingError::OffsetOverflow(end))?;
        self.offsets.push(off);
        Ok(())
    }
}

impl<O: OffsetSize> sealed::Sealed for ByteArrayBuffer<O> {}

impl<O: OffsetSize> DecodeTarget for ByteArrayBuffer<O> {
    fn begin_spaced(&mut self, num_slots: usize) -> Result<usize> {
        self.start();
        self.offsets.reserve(num_slots);
        Ok(self.len())
    }

    fn finish_spaced(
        &mut self,
        mark: usize,
        num_present: usize,
        num_slots: usize,
        validity: &[u8],
        validity_offset: usize,
    ) -> Result<()> {
        if self.len() != mark + num_present {
            return Err(EncodingError::InvalidArgument(
                "byte array buffer changed during a spaced decode".into(),
            ));
        }
        check_present(validity, validity_offset, num_slots, num_present)?;
        let end = self.offsets[mark + num_present];
        self.offsets.resize(mark + num_slots + 1, end);
        let offsets = &mut self.offsets[mark..];
        // Back to front, without branches (as for slices): a present slot
        // starts where its value did, a null slot where the next slot
        // starts (empty). The next slot's start is carried in a register,
        // not read back from the slot just written.
        //
        // Slots go a validity byte at a time once aligned; a byte of ones
        // (two thirds of the bytes at 5% nulls) moves as one block of eight
        // starts.
        let mut j = num_present;
        let mut next = end;
        let mut i = num_slots;
        while i > 0 {
            if let Some(byte) = byte_before(validity, validity_offset, i) {
                let base = i - 8;
                if byte == 0xFF && j >= 8 {
                    offsets.copy_within(j - 8..j, base);
                    j -= 8;
                } else {
                    // Every slot, present or null, starts where the present
                    // values before it end: at the start of present value
                    // `first + rank`. Read for all eight slots before any is
                    // written.
                    let first = j.saturating_sub(byte.count_ones() as usize);
                    let ranks = &PREFIX_COUNTS[usize::from(byte)];
                    let mut starts = [O::ZERO; 8];
                    for (st, &r) in starts.iter_mut().zip(ranks) {
                        *st = offsets[first + usize::from(r)];
                    }
                    offsets[base..base + 8].copy_from_slice(&starts);
                    j = first;
                }
                next = offsets[base];
                i = base;
                continue;
            }
            i -= 1;
            let valid = get_bit(validity, validity_offset + i);
            j = j.saturating_sub(usize::from(valid));
            next = if valid { offsets[j] } else { next };
            offsets[i] = next;
        }
        Ok(())
    }
}

/// A borrowed batch of FIXED_LEN_BYTE_ARRAY values: `values` holds
/// `len * width` bytes, value `i` at `i * width`.
///
/// ```
/// use strata_encoding::FixedLenBatch;
///
/// let batch = FixedLenBatch::new(2, b"aabbcc").unwrap();
/// assert_eq!(batch.len(), 3);
/// assert_eq!(batch.get(1), Some(&b"bb"[..]));
/// assert!(FixedLenBatch::new(4, b"abc").is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FixedLenBatch<'a> {
    width: usize,
    values: &'a [u8],
}

impl<'a> FixedLenBatch<'a> {
    /// A batch of `values.len() / width` values. `width` must be positive
    /// and divide `values.len()`.
    pub fn new(width: usize, values: &'a [u8]) -> Result<Self> {
        if width == 0 || !values.len().is_multiple_of(width) {
            return Err(EncodingError::InvalidArgument(format!(
                "{} bytes are not a whole number of {width}-byte values",
                values.len()
            )));
        }
        Ok(Self { width, values })
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.width
    }

    /// All value bytes back to back.
    pub fn bytes(&self) -> &'a [u8] {
        self.values
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len() / self.width
    }

    /// Whether the batch holds no values.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Value `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let s = i.checked_mul(self.width)?;
        self.values.get(s..s.checked_add(self.width)?)
    }
}

impl ValueBatch for FixedLenBatch<'_> {
    fn len(&self) -> usize {
        FixedLenBatch::len(self)
    }

    fn slice(&self, start: usize, end: usize) -> Option<Self> {
        let s = start.checked_mul(self.width)?;
        let e = end.checked_mul(self.width)?;
        Some(Self {
            width: self.width,
            values: self.values.get(s..e)?,
        })
    }
}

/// Decoded FIXED_LEN_BYTE_ARRAY values: `len * width` bytes back to back
/// (the layout of Arrow's `FixedSizeBinary`). Null slots of a spaced decode
/// are zero bytes.
///
/// The width is fixed by [`new`](Self::new) or set later by
/// [`reset`](Self::reset); a [`Default`] buffer has width 0 and holds no
/// values until it is given a width (so containers of buffers can be built
/// before the width is known).
///
/// ```
/// use strata_encoding::FixedLenByteArrayBuffer;
///
/// let mut buf = FixedLenByteArrayBuffer::new(2);
/// assert_eq!((buf.width(), buf.len()), (2, 0));
/// buf.push(b"ab").unwrap();
/// assert!(buf.push(b"abc").is_err(), "a value of another width");
/// assert_eq!(buf.value(0), Some(&b"ab"[..]));
///
/// let mut later = FixedLenByteArrayBuffer::default();
/// assert_eq!(later.width(), 0);
/// later.reset(3);
/// later.push(b"xyz").unwrap();
/// assert_eq!((later.width(), later.len()), (3, 1));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FixedLenByteArrayBuffer {
    width: usize,
    values: Vec<u8>,
}

impl FixedLenByteArrayBuffer {
    /// An empty buffer of `width`-byte values; no heap memory until the first
    /// value.
    pub const fn new(width: usize) -> Self {
        Self {
            width,
            values: Vec::new(),
        }
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether the buffer holds no values.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// All value bytes back to back.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Value `i`, or `None` past the end.
    pub fn value(&self, i: usize) -> Option<&[u8]> {
        let s = i.checked_mul(self.width)?;
        self.values.get(s..s.checked_add(self.width)?)
    }

    /// Remove every value, keeping the allocation.
    pub fn clear(&mut self) {
        self.values.clear();
    }

    /// Remove every value and hold `width`-byte values from now on,
    /// keeping the allocation.
    pub fn reset(&mut self, width: usize) {
        self.values.clear();
        self.width = width;
    }

    /// Append one value, which must be exactly [`width`](Self::width)
    /// bytes long.
    pub fn push(&mut self, value: &[u8]) -> Result<()> {
        if value.len() != self.width || self.width == 0 {
            return Err(EncodingError::InvalidArgument(format!(
                "value of {} bytes pushed to a buffer of {}-byte values",
                value.len(),
                self.width
            )));
        }
        self.values.extend_from_slice(value);
        Ok(())
    }

    /// The value bytes, without a copy.
    pub fn into_vec(self) -> Vec<u8> {
        self.values
    }

    /// Bytes of heap memory held.
    pub fn heap_size(&self) -> usize {
        self.values.capacity()
    }

    /// Fail unless the buffer holds values of `width` bytes.
    pub(crate) fn check_width(&self, width: usize) -> Result<()> {
        if self.width != width {
            return Err(EncodingError::InvalidArgument(format!(
                "output buffer holds {}-byte values, the decoder produces {width}-byte values",
                self.width
            )));
        }
        Ok(())
    }

    /// The value bytes, for decoders to append whole values to.
    #[inline]
    pub(crate) fn values_mut(&mut self) -> &mut Vec<u8> {
        &mut self.values
    }
}

impl sealed::Sealed for FixedLenByteArrayBuffer {}

impl DecodeTarget for FixedLenByteArrayBuffer {
    fn begin_spaced(&mut self, num_slots: usize) -> Result<usize> {
        self.values.reserve(num_slots.saturating_mul(self.width));
        Ok(self.len())
    }

    fn finish_spaced(
        &mut self,
        mark: usize,
        num_present: usize,
        num_slots: usize,
        validity: &[u8],
        validity_offset: usize,
    ) -> Result<()> {
        let w = self.width;
        if self.len() != mark + num_present {
            return Err(EncodingError::InvalidArgument(
                "fixed-length buffer changed during a spaced decode".into(),
            ));
        }
        check_present(validity, validity_offset, num_slots, num_present)?;
        self.values.resize((mark + num_slots) * w, 0);
        let vals = &mut self.values[mark * w..];
        let mut j = num_present;
        for i in (0..num_slots).rev() {
            if get_bit(validity, validity_offset + i) {
                j = j.checked_sub(1).ok_or_else(too_many_present)?;
                if i != j {
                    vals.copy_within(j * w..(j + 1) * w, i * w);
                }
            } else {
                vals[i * w..(i + 1) * w].fill(0);
            }
        }
        Ok(())
    }
}
