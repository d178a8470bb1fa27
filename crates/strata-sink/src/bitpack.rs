//! Bit-packing kernels: blocks of 32 or 64 values at every bit width.
//!
//! Parquet packs integers LSB-first: value `i` of a block of width `w`
//! occupies bits `i*w .. (i+1)*w` of the block, counting from the least
//! significant bit of the first byte. A block of 32 values at width `w` takes
//! exactly `4*w` bytes; a block of 64 values takes `8*w` bytes, so a block
//! always ends on a byte boundary.
//!
//! Each width has its own monomorphised function (`unpack32_width::<T, W>`).
//! Inside it every value of the block is a separate call with its index as a
//! const parameter, so the whole block compiles to straight-line shifts and
//! masks: no loop, no branch, no bounds check. The batch entry points
//! ([`unpack32_groups`], [`unpack64_groups`]) match the width once per batch
//! and loop over whole blocks inside the monomorphised code, then unpack what
//! is left in groups of 8 values (exactly `num_bits` bytes each), so short
//! bit-packed RLE runs also avoid value-at-a-time reads. On x86-64 the
//! 32-value kernels have a second build with AVX2 and BMI2, chosen at run
//! time (the `x86` module, the crate's only `unsafe`, which also holds the
//! AVX2 build of [`all_below`]); `u64` outputs of up
//! to 32 bits go through them too, so the 64-value kernels serve widths
//! 33-64.
//!
//! ```
//! use strata_sink::bitpack::{pack32, unpack32};
//!
//! let values: [u32; 32] = core::array::from_fn(|i| (i as u32 * 7) % 32);
//! let mut packed = [0u8; 4 * 5];
//! pack32(&values, &mut packed, 5);
//! let mut out = [0u32; 32];
//! unpack32(&packed, &mut out, 5);
//! assert_eq!(out, values);
//! ```

/// Integer types the unpack kernels can write: `u8`, `u16`, `u32`, `u64`.
pub trait Unpacked: Copy + Default + Send + Sync + core::fmt::Debug + PartialEq + 'static {
    /// Width of the type in bits: the largest bit width it can receive.
    const BITS: u32;
    /// Values per kernel call: 32 for `u8`/`u16`/`u32`, 64 for `u64`.
    const BLOCK: usize;
    /// Truncating conversion from `u64`.
    fn from_u64(v: u64) -> Self;
    /// Widening conversion to `u64`.
    fn to_u64(self) -> u64;
    /// Unpack one block of [`Self::BLOCK`] values of `num_bits` bits.
    ///
    /// # Panics
    /// If `input` holds fewer than `BLOCK * num_bits / 8` bytes, `output`
    /// fewer than `BLOCK` values, or `num_bits > BITS`.
    fn unpack_block(input: &[u8], output: &mut [Self], num_bits: u32);
    /// Unpack values of `num_bits` bits in whole groups of 8, as many as
    /// both `input` and `output` hold ([`unpack32_groups`],
    /// [`unpack64_groups`]); returns how many were written.
    ///
    /// # Panics
    /// If `num_bits > BITS`.
    fn unpack_groups(input: &[u8], output: &mut [Self], num_bits: u32) -> usize;
}

/// Conversion from the 32-bit working word of [`unpack32`].
pub trait FromWord32: Copy {
    /// Truncating conversion.
    fn from_word(v: u32) -> Self;
}

impl FromWord32 for u8 {
    #[inline(always)]
    fn from_word(v: u32) -> Self {
        v as u8
    }
}

impl FromWord32 for u16 {
    #[inline(always)]
    fn from_word(v: u32) -> Self {
        v as u16
    }
}

impl FromWord32 for u32 {
    #[inline(always)]
    fn from_word(v: u32) -> Self {
        v
    }
}

impl FromWord32 for u64 {
    #[inline(always)]
    fn from_word(v: u32) -> Self {
        u64::from(v)
    }
}

impl Unpacked for u8 {
    const BITS: u32 = 8;
    const BLOCK: usize = 32;
    #[inline]
    fn from_u64(v: u64) -> Self {
        v as u8
    }
    #[inline]
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn unpack_block(input: &[u8], output: &mut [Self], num_bits: u32) {
        assert!(num_bits <= Self::BITS, "bit width too large for u8");
        unpack32(input, output, num_bits);
    }
    #[inline]
    fn unpack_groups(input: &[u8], output: &mut [Self], num_bits: u32) -> usize {
        assert!(num_bits <= Self::BITS, "bit width too large for u8");
        unpack32_groups(input, output, num_bits)
    }
}

impl Unpacked for u16 {
    const BITS: u32 = 16;
    const BLOCK: usize = 32;
    #[inline]
    fn from_u64(v: u64) -> Self {
        v as u16
    }
    #[inline]
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn unpack_block(input: &[u8], output: &mut [Self], num_bits: u32) {
        assert!(num_bits <= Self::BITS, "bit width too large for u16");
        unpack32(input, output, num_bits);
    }
    #[inline]
    fn unpack_groups(input: &[u8], output: &mut [Self], num_bits: u32) -> usize {
        assert!(num_bits <= Self::BITS, "bit width too large for u16");
        unpack32_groups(input, output, num_bits)
    }
}

impl Unpacked for u32 {
    const BITS: u32 = 32;
    const BLOCK: usize = 32;
    #[inline]
    fn from_u64(v: u64) -> Self {
        v as u32
    }
    #[inline]
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn unpack_block(input: &[u8], output: &mut [Self], num_bits: u32) {
        unpack32(input, output, num_bits);
    }
    #[inline]
    fn unpack_groups(input: &[u8], output: &mut [Self], num_bits: u32) -> usize {
        unpack32_groups(input, output, num_bits)
    }
}

impl Unpacked for u64 {
    const BITS: u32 = 64;
    const BLOCK: usize = 64;
    #[inline]
    fn from_u64(v: u64) -> Self {
        v
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self
    }
    #[inline]
    fn unpack_block(input: &[u8], output: &mut [Self], num_bits: u32) {
        unpack64(input, output, num_bits);
    }
    #[inline]
    fn unpack_groups(input: &[u8], output: &mut [Self], num_bits: u32) -> usize {
        unpack64_groups(input, output, num_bits)
    }
}

/// Unpack 32 values of `num_bits` bits (0..=32) from `input` into
/// `output[..32]`.
///
/// The 32-bit working word is truncated to `T`, so callers pass a width no
/// larger than `T` holds.
///
/// # Panics
/// If `num_bits > 32`, `input.len() < 4 * num_bits` or `output.len() < 32`.
#[inline]
pub fn unpack32<T: FromWord32>(input: &[u8], output: &mut [T], num_bits: u32) {
    if num_bits > 32 {
        return unsupported_width(num_bits, 32);
    }
    unpack32_groups(&input[..4 * num_bits as usize], &mut output[..32], num_bits);
}

/// Unpack values of `num_bits` bits (0..=32) from `input` into `output`, in
/// whole groups of 8, as many as both hold; returns how many values were
/// written (a multiple of 8).
///
/// The width is matched once for the whole batch: whole blocks of 32 go
/// through the block kernel, the last groups of 8 (each exactly `num_bits`
/// bytes) through the group kernel. With `num_bits == 0` every whole group of
/// `output` is zeroed.
///
/// # Panics
/// If `num_bits > 32`.
#[inline]
pub fn unpack32_groups<T: FromWord32>(input: &[u8], output: &mut [T], num_bits: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(n) = x86::unpack32_groups(input, output, num_bits) {
        return n;
    }
    unpack32_groups_portable(input, output, num_bits)
}

/// Whether every value of `values` is below `bound`: the range check of a
/// batch of unpacked dictionary indices before they are used.
///
/// One pass of comparisons ORed together without an early exit. Plain
/// x86-64 (SSE2) has no unsigned 32-bit compare or max, so on x86-64 a
/// second build with AVX2 is chosen at run time, as for the unpack kernels
/// (8,192 values: 0.52 us with AVX2, 0.93 us with SSE2, 1.86 us for the
/// `max` it replaced).
///
/// ```
/// use strata_sink::bitpack::all_below;
/// assert!(all_below(&[0, 4, 2], 5));
/// assert!(!all_below(&[0, 5, 2], 5));
/// assert!(all_below(&[], 0));
/// assert!(!all_below(&[u32::MAX], u32::MAX));
/// ```
#[inline]
pub fn all_below(values: &[u32], bound: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(below) = x86::all_below(values, bound) {
        return below;
    }
    all_below_portable(values, bound)
}

/// The body of [`all_below`], compiled for the build's target and, on
/// x86-64, once more with AVX2 enabled.
#[inline(always)]
fn all_below_portable(values: &[u32], bound: u32) -> bool {
    values
        .iter()
        .fold(0u32, |bad, &v| bad | u32::from(v >= bound))
        == 0
}

/// The body of [`unpack32_groups`], compiled for the build's target and,
/// on x86-64, once more with AVX2 and BMI2 enabled (see [`x86`]).
#[inline(always)]
fn unpack32_groups_portable<T: FromWord32>(input: &[u8], output: &mut [T], num_bits: u32) -> usize {
    match num_bits {
        0 => fill_groups(output, T::from_word(0)),
        1 => unpack32_groups_width::<T, 1>(input, output),
        2 => unpack32_groups_width::<T, 2>(input, output),
        3 => unpack32_groups_width::<T, 3>(input, output),
        4 => unpack32_groups_width::<T, 4>(input, output),
        5 => unpack32_groups_width::<T, 5>(input, output),
        6 => unpack32_groups_width::<T, 6>(input, output),
        7 => unpack32_groups_width::<T, 7>(input, output),
        8 => unpack32_groups_width::<T, 8>(input, output),
        9 => unpack32_groups_width::<T, 9>(input, output),
        10 => unpack32_groups_width::<T, 10>(input, output),
        11 => unpack32_groups_width::<T, 11>(input, output),
        12 => unpack32_groups_width::<T, 12>(input, output),
        13 => unpack32_groups_width::<T, 13>(input, output),
        14 => unpack32_groups_width::<T, 14>(input, output),
        15 => unpack32_groups_width::<T, 15>(input, output),
        16 => unpack32_groups_width::<T, 16>(input, output),
        17 => unpack32_groups_width::<T, 17>(input, output),
        18 => unpack32_groups_width::<T, 18>(input, output),
        19 => unpack32_groups_width::<T, 19>(input, output),
        20 => unpack32_groups_width::<T, 20>(input, output),
        21 => unpack32_groups_width::<T, 21>(input, output),
        22 => unpack32_groups_width::<T, 22>(input, output),
        23 => unpack32_groups_width::<T, 23>(input, output),
        24 => unpack32_groups_width::<T, 24>(input, output),
        25 => unpack32_groups_width::<T, 25>(input, output),
        26 => unpack32_groups_width::<T, 26>(input, output),
        27 => unpack32_groups_width::<T, 27>(input, output),
        28 => unpack32_groups_width::<T, 28>(input, output),
        29 => unpack32_groups_width::<T, 29>(input, output),
        30 => unpack32_groups_width::<T, 30>(input, output),
        31 => unpack32_groups_width::<T, 31>(input, output),
        32 => unpack32_groups_width::<T, 32>(input, output),
        _ => {
            unsupported_width(num_bits, 32);
            0
        }
    }
}

/// Unpack 64 values of `num_bits` bits (0..=64) from `input` into
/// `output[..64]`.
///
/// # Panics
/// If `num_bits > 64`, `input.len() < 8 * num_bits` or `output.len() < 64`.
#[inline]
pub fn unpack64(input: &[u8], output: &mut [u64], num_bits: u32) {
    if num_bits > 64 {
        return unsupported_width(num_bits, 64);
    }
    unpack64_groups(&input[..8 * num_bits as usize], &mut output[..64], num_bits);
}

/// Unpack values of `num_bits` bits (0..=64) from `input` into `output`, in
/// whole groups of 8, as many as both hold; returns how many values were
/// written (a multiple of 8). As [`unpack32_groups`], with blocks of 64.
///
/// # Panics
/// If `num_bits > 64`.
#[inline]
pub fn unpack64_groups(input: &[u8], output: &mut [u64], num_bits: u32) -> usize {
    // Up to 32 bits a value fits the 32-bit kernels' working word, and 64
    // values are two blocks of 32 of the same bit stream: those kernels
    // (with their AVX2 build) write the `u64`s, widening each value.
    if num_bits <= 32 {
        return unpack32_groups::<u64>(input, output, num_bits);
    }
    match num_bits {
        33 => unpack64_groups_width::<33>(input, output),
        34 => unpack64_groups_width::<34>(input, output),
        35 => unpack64_groups_width::<35>(input, output),
        36 => unpack64_groups_width::<36>(input, output),
        37 => unpack64_groups_width::<37>(input, output),
        38 => unpack64_groups_width::<38>(input, output),
        39 => unpack64_groups_width::<39>(input, output),
        40 => unpack64_groups_width::<40>(input, output),
        41 => unpack64_groups_width::<41>(input, output),
        42 => unpack64_groups_width::<42>(input, output),
        43 => unpack64_groups_width::<43>(input, output),
        44 => unpack64_groups_width::<44>(input, output),
        45 => unpack64_groups_width::<45>(input, output),
        46 => unpack64_groups_width::<46>(input, output),
        47 => unpack64_groups_width::<47>(input, output),
        48 => unpack64_groups_width::<48>(input, output),
        49 => unpack64_groups_width::<49>(input, output),
        50 => unpack64_groups_width::<50>(input, output),
        51 => unpack64_groups_width::<51>(input, output),
        52 => unpack64_groups_width::<52>(input, output),
        53 => unpack64_groups_width::<53>(input, output),
        54 => unpack64_groups_width::<54>(input, output),
        55 => unpack64_groups_width::<55>(input, output),
        56 => unpack64_groups_width::<56>(input, output),
        57 => unpack64_groups_width::<57>(input, output),
        58 => unpack64_groups_width::<58>(input, output),
        59 => unpack64_groups_width::<59>(input, output),
        60 => unpack64_groups_width::<60>(input, output),
        61 => unpack64_groups_width::<61>(input, output),
        62 => unpack64_groups_width::<62>(input, output),
        63 => unpack64_groups_width::<63>(input, output),
        64 => unpack64_groups_width::<64>(input, output),
        _ => {
            unsupported_width(num_bits, 64);
            0
        }
    }
}

/// Pack 32 values into `4 * num_bits` bytes of `output`, keeping the low
/// `num_bits` bits (0..=32) of each value.
///
/// # Panics
/// If `num_bits > 32` or `output.len() < 4 * num_bits`.
#[inline]
pub fn pack32(input: &[u32; 32], output: &mut [u8], num_bits: u32) {
    match num_bits {
        0 => {}
        1 => pack32_width::<1>(input, output),
        2 => pack32_width::<2>(input, output),
        3 => pack32_width::<3>(input, output),
        4 => pack32_width::<4>(input, output),
        5 => pack32_width::<5>(input, output),
        6 => pack32_width::<6>(input, output),
        7 => pack32_width::<7>(input, output),
        8 => pack32_width::<8>(input, output),
        9 => pack32_width::<9>(input, output),
        10 => pack32_width::<10>(input, output),
        11 => pack32_width::<11>(input, output),
        12 => pack32_width::<12>(input, output),
        13 => pack32_width::<13>(input, output),
        14 => pack32_width::<14>(input, output),
        15 => pack32_width::<15>(input, output),
        16 => pack32_width::<16>(input, output),
        17 => pack32_width::<17>(input, output),
        18 => pack32_width::<18>(input, output),
        19 => pack32_width::<19>(input, output),
        20 => pack32_width::<20>(input, output),
        21 => pack32_width::<21>(input, output),
        22 => pack32_width::<22>(input, output),
        23 => pack32_width::<23>(input, output),
        24 => pack32_width::<24>(input, output),
        25 => pack32_width::<25>(input, output),
        26 => pack32_width::<26>(input, output),
        27 => pack32_width::<27>(input, output),
        28 => pack32_width::<28>(input, output),
        29 => pack32_width::<29>(input, output),
        30 => pack32_width::<30>(input, output),
        31 => pack32_width::<31>(input, output),
        32 => pack32_width::<32>(input, output),
        _ => unsupported_width(num_bits, 32),
    }
}

/// Pack 64 values into `8 * num_bits` bytes of `output`, keeping the low
/// `num_bits` bits (0..=64) of each value.
///
/// # Panics
/// If `num_bits > 64` or `output.len() < 8 * num_bits`.
#[inline]
pub fn pack64(input: &[u64; 64], output: &mut [u8], num_bits: u32) {
    match num_bits {
        0 => {}
        1 => pack64_width::<1>(input, output),
        2 => pack64_width::<2>(input, output),
        3 => pack64_width::<3>(input, output),
        4 => pack64_width::<4>(input, output),
        5 => pack64_width::<5>(input, output),
        6 => pack64_width::<6>(input, output),
        7 => pack64_width::<7>(input, output),
        8 => pack64_width::<8>(input, output),
        9 => pack64_width::<9>(input, output),
        10 => pack64_width::<10>(input, output),
        11 => pack64_width::<11>(input, output),
        12 => pack64_width::<12>(input, output),
        13 => pack64_width::<13>(input, output),
        14 => pack64_width::<14>(input, output),
        15 => pack64_width::<15>(input, output),
        16 => pack64_width::<16>(input, output),
        17 => pack64_width::<17>(input, output),
        18 => pack64_width::<18>(input, output),
        19 => pack64_width::<19>(input, output),
        20 => pack64_width::<20>(input, output),
        21 => pack64_width::<21>(input, output),
        22 => pack64_width::<22>(input, output),
        23 => pack64_width::<23>(input, output),
        24 => pack64_width::<24>(input, output),
        25 => pack64_width::<25>(input, output),
        26 => pack64_width::<26>(input, output),
        27 => pack64_width::<27>(input, output),
        28 => pack64_width::<28>(input, output),
        29 => pack64_width::<29>(input, output),
        30 => pack64_width::<30>(input, output),
        31 => pack64_width::<31>(input, output),
        32 => pack64_width::<32>(input, output),
        33 => pack64_width::<33>(input, output),
        34 => pack64_width::<34>(input, output),
        35 => pack64_width::<35>(input, output),
        36 => pack64_width::<36>(input, output),
        37 => pack64_width::<37>(input, output),
        38 => pack64_width::<38>(input, output),
        39 => pack64_width::<39>(input, output),
        40 => pack64_width::<40>(input, output),
        41 => pack64_width::<41>(input, output),
        42 => pack64_width::<42>(input, output),
        43 => pack64_width::<43>(input, output),
        44 => pack64_width::<44>(input, output),
        45 => pack64_width::<45>(input, output),
        46 => pack64_width::<46>(input, output),
        47 => pack64_width::<47>(input, output),
        48 => pack64_width::<48>(input, output),
        49 => pack64_width::<49>(input, output),
        50 => pack64_width::<50>(input, output),
        51 => pack64_width::<51>(input, output),
        52 => pack64_width::<52>(input, output),
        53 => pack64_width::<53>(input, output),
        54 => pack64_width::<54>(input, output),
        55 => pack64_width::<55>(input, output),
        56 => pack64_width::<56>(input, output),
        57 => pack64_width::<57>(input, output),
        58 => pack64_width::<58>(input, output),
        59 => pack64_width::<59>(input, output),
        60 => pack64_width::<60>(input, output),
        61 => pack64_width::<61>(input, output),
        62 => pack64_width::<62>(input, output),
        63 => pack64_width::<63>(input, output),
        64 => pack64_width::<64>(input, output),
        _ => unsupported_width(num_bits, 64),
    }
}

#[cold]
#[inline(never)]
fn unsupported_width(num_bits: u32, max: u32) {
    assert!(num_bits <= max, "bit width {num_bits} exceeds {max}");
}

// The kernels below spell out every value of the block as its own call with
// the value index as a const parameter. With both the width and the index
// constant, each call compiles to a fixed shift, mask and (when the value
// straddles two words) an or: straight-line code with no loop, no branch and
// no bounds check. A plain loop over 32 or 64 values is not reliably unrolled
// by LLVM for every width, and measured 3-6x slower at odd widths.

/// Value `I` of a block of 32 values of `W` bits, from the block's bytes
/// (at least 8 of them; their count is a constant where this is inlined):
/// one unaligned 8-byte load around the value, a shift and a mask. A value
/// that starts in the last 8 bytes is read from the last 8 bytes, which hold
/// all of it since it ends within the block. The word-at-a-time form (`W`
/// words, values straddling two of them) compiled to byte and half-word loads
/// for many widths and measured 1.1-1.5x slower at widths 12-31.
#[inline(always)]
fn extract32<const W: usize, const I: usize>(bytes: &[u8]) -> u32 {
    let start = I * W;
    if W == 24 {
        // Three bytes: one 4-byte load and a mask (the last value of a
        // block loads the 4 bytes ending at the block's end and shifts).
        let at = start / 8;
        let from = at.min(bytes.len() - 4);
        let mut le = [0u8; 4];
        le.copy_from_slice(&bytes[from..from + 4]);
        return (u32::from_le_bytes(le) >> (8 * (at - from))) & 0x00FF_FFFF;
    }
    if W.is_multiple_of(8) {
        // Whole bytes: load just them, which vectorises (widths 8, 16, 24
        // and 32 measured 1.5-3x slower through the 8-byte window).
        let at = start / 8;
        let mut le = [0u8; 4];
        le[..W / 8].copy_from_slice(&bytes[at..at + W / 8]);
        return u32::from_le_bytes(le);
    }
    let byte = (start / 8).min(bytes.len() - 8);
    let mut le = [0u8; 8];
    le.copy_from_slice(&bytes[byte..byte + 8]);
    (u64::from_le_bytes(le) >> (start - 8 * byte)) as u32 & (u32::MAX >> (32 - W))
}

/// `bytes` itself when it holds at least 8 bytes, else a zero-padded copy of
/// it in `pad` (blocks and groups of the narrowest widths).
#[inline(always)]
fn at_least_8<'a>(bytes: &'a [u8], pad: &'a mut [u8; 8]) -> &'a [u8] {
    if bytes.len() >= 8 {
        bytes
    } else {
        pad[..bytes.len()].copy_from_slice(bytes);
        pad
    }
}

/// Value `I` of a block of 64 values of `W` bits held in `W` words.
#[inline(always)]
fn extract64<const W: usize, const I: usize>(words: &[u64; W]) -> u64 {
    let start = I * W;
    let word = start / 64;
    let shift = start % 64;
    let mut v = words[word] >> shift;
    if shift + W > 64 {
        v |= words[word + 1] << (64 - shift);
    }
    v & (u64::MAX >> (64 - W))
}

/// Or value `I` (already masked) into a block of 32 values of `W` bits.
#[inline(always)]
fn deposit32<const W: usize, const I: usize>(words: &mut [u32; W], v: u32) {
    let start = I * W;
    let word = start / 32;
    let shift = start % 32;
    words[word] |= v << shift;
    if shift + W > 32 {
        words[word + 1] |= v >> (32 - shift);
    }
}

/// Or value `I` (already masked) into a block of 64 values of `W` bits.
#[inline(always)]
fn deposit64<const W: usize, const I: usize>(words: &mut [u64; W], v: u64) {
    let start = I * W;
    let word = start / 64;
    let shift = start % 64;
    words[word] |= v << shift;
    if shift + W > 64 {
        words[word + 1] |= v >> (64 - shift);
    }
}

/// The little-endian words of `bytes` (at most `8 * W` of them), zero
/// padded to `W` words. `bytes.len()` is a constant where this is inlined,
/// so the loads unroll.
#[inline(always)]
fn load_words64<const W: usize>(bytes: &[u8]) -> [u64; W] {
    let mut words = [0u64; W];
    let mut chunks = bytes.chunks_exact(8);
    for (word, chunk) in words.iter_mut().zip(&mut chunks) {
        let mut le = [0u8; 8];
        le.copy_from_slice(chunk);
        *word = u64::from_le_bytes(le);
    }
    let rest = chunks.remainder();
    if let Some(word) = words.get_mut(bytes.len() / 8) {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        *word = u64::from_le_bytes(last);
    }
    words
}

/// Zero-width values: every whole group of 8 of `output` is `zero`.
#[inline(always)]
fn fill_groups<T: Copy>(output: &mut [T], zero: T) -> usize {
    let n = output.len() / 8 * 8;
    output[..n].fill(zero);
    n
}

/// The body of [`unpack32_groups`] at one width: whole blocks of 32, then
/// groups of 8 (the first 8 values of a block take exactly `W` bytes).
/// Always inlined, so that the AVX2 copy of [`unpack32_groups_portable`]
/// compiles it with AVX2 too.
#[inline(always)]
fn unpack32_groups_width<T: FromWord32, const W: usize>(input: &[u8], output: &mut [T]) -> usize {
    let blocks = (input.len() / (4 * W)).min(output.len() / 32);
    let (block_in, group_in) = input.split_at(blocks * 4 * W);
    let (block_out, group_out) = output.split_at_mut(blocks * 32);
    for (input, output) in block_in
        .chunks_exact(4 * W)
        .zip(block_out.chunks_exact_mut(32))
    {
        unpack32_width::<T, W>(input, output);
    }
    let mut groups = 0;
    for (input, output) in group_in.chunks_exact(W).zip(group_out.chunks_exact_mut(8)) {
        let mut pad = [0u8; 8];
        unpack8_from::<T, W>(at_least_8(input, &mut pad), output);
        groups += 1;
    }
    blocks * 32 + groups * 8
}

/// The body of [`unpack64_groups`] at one width, as
/// [`unpack32_groups_width`] with blocks of 64.
fn unpack64_groups_width<const W: usize>(input: &[u8], output: &mut [u64]) -> usize {
    let blocks = (input.len() / (8 * W)).min(output.len() / 64);
    let (block_in, group_in) = input.split_at(blocks * 8 * W);
    let (block_out, group_out) = output.split_at_mut(blocks * 64);
    for (input, output) in block_in
        .chunks_exact(8 * W)
        .zip(block_out.chunks_exact_mut(64))
    {
        unpack64_width::<W>(input, output);
    }
    let mut groups = 0;
    for (input, output) in group_in.chunks_exact(W).zip(group_out.chunks_exact_mut(8)) {
        let words = load_words64::<W>(input);
        unpack8_from64::<W>(&words, output);
        groups += 1;
    }
    blocks * 64 + groups * 8
}

/// The first 8 values of a block of 32, from their `W` bytes (padded to 8).
#[inline(always)]
fn unpack8_from<T: FromWord32, const W: usize>(bytes: &[u8], output: &mut [T]) {
    let out: &mut [T; 8] = match output.first_chunk_mut::<8>() {
        Some(out) => out,
        None => return unsupported_len(output.len(), 8),
    };
    out[0] = T::from_word(extract32::<W, 0>(bytes));
    out[1] = T::from_word(extract32::<W, 1>(bytes));
    out[2] = T::from_word(extract32::<W, 2>(bytes));
    out[3] = T::from_word(extract32::<W, 3>(bytes));
    out[4] = T::from_word(extract32::<W, 4>(bytes));
    out[5] = T::from_word(extract32::<W, 5>(bytes));
    out[6] = T::from_word(extract32::<W, 6>(bytes));
    out[7] = T::from_word(extract32::<W, 7>(bytes));
}

/// The first 8 values of a block of 64 held in `words`.
#[inline(always)]
fn unpack8_from64<const W: usize>(words: &[u64; W], output: &mut [u64]) {
    let out: &mut [u64; 8] = match output.first_chunk_mut::<8>() {
        Some(out) => out,
        None => return unsupported_len(output.len(), 8),
    };
    out[0] = extract64::<W, 0>(words);
    out[1] = extract64::<W, 1>(words);
    out[2] = extract64::<W, 2>(words);
    out[3] = extract64::<W, 3>(words);
    out[4] = extract64::<W, 4>(words);
    out[5] = extract64::<W, 5>(words);
    out[6] = extract64::<W, 6>(words);
    out[7] = extract64::<W, 7>(words);
}

#[inline(always)]
fn unpack32_width<T: FromWord32, const W: usize>(input: &[u8], output: &mut [T]) {
    let mut pad = [0u8; 8];
    let bytes = at_least_8(&input[..4 * W], &mut pad);
    let out: &mut [T; 32] = match output.first_chunk_mut::<32>() {
        Some(out) => out,
        None => return unsupported_len(output.len(), 32),
    };
    unpack8_from::<T, W>(bytes, out);
    out[8] = T::from_word(extract32::<W, 8>(bytes));
    out[9] = T::from_word(extract32::<W, 9>(bytes));
    out[10] = T::from_word(extract32::<W, 10>(bytes));
    out[11] = T::from_word(extract32::<W, 11>(bytes));
    out[12] = T::from_word(extract32::<W, 12>(bytes));
    out[13] = T::from_word(extract32::<W, 13>(bytes));
    out[14] = T::from_word(extract32::<W, 14>(bytes));
    out[15] = T::from_word(extract32::<W, 15>(bytes));
    out[16] = T::from_word(extract32::<W, 16>(bytes));
    out[17] = T::from_word(extract32::<W, 17>(bytes));
    out[18] = T::from_word(extract32::<W, 18>(bytes));
    out[19] = T::from_word(extract32::<W, 19>(bytes));
    out[20] = T::from_word(extract32::<W, 20>(bytes));
    out[21] = T::from_word(extract32::<W, 21>(bytes));
    out[22] = T::from_word(extract32::<W, 22>(bytes));
    out[23] = T::from_word(extract32::<W, 23>(bytes));
    out[24] = T::from_word(extract32::<W, 24>(bytes));
    out[25] = T::from_word(extract32::<W, 25>(bytes));
    out[26] = T::from_word(extract32::<W, 26>(bytes));
    out[27] = T::from_word(extract32::<W, 27>(bytes));
    out[28] = T::from_word(extract32::<W, 28>(bytes));
    out[29] = T::from_word(extract32::<W, 29>(bytes));
    out[30] = T::from_word(extract32::<W, 30>(bytes));
    out[31] = T::from_word(extract32::<W, 31>(bytes));
}

#[inline(always)]
fn unpack64_width<const W: usize>(input: &[u8], output: &mut [u64]) {
    let words = load_words64::<W>(&input[..8 * W]);
    let out: &mut [u64; 64] = match output.first_chunk_mut::<64>() {
        Some(out) => out,
        None => return unsupported_len(output.len(), 64),
    };
    unpack8_from64::<W>(&words, out);
    out[8] = extract64::<W, 8>(&words);
    out[9] = extract64::<W, 9>(&words);
    out[10] = extract64::<W, 10>(&words);
    out[11] = extract64::<W, 11>(&words);
    out[12] = extract64::<W, 12>(&words);
    out[13] = extract64::<W, 13>(&words);
    out[14] = extract64::<W, 14>(&words);
    out[15] = extract64::<W, 15>(&words);
    out[16] = extract64::<W, 16>(&words);
    out[17] = extract64::<W, 17>(&words);
    out[18] = extract64::<W, 18>(&words);
    out[19] = extract64::<W, 19>(&words);
    out[20] = extract64::<W, 20>(&words);
    out[21] = extract64::<W, 21>(&words);
    out[22] = extract64::<W, 22>(&words);
    out[23] = extract64::<W, 23>(&words);
    out[24] = extract64::<W, 24>(&words);
    out[25] = extract64::<W, 25>(&words);
    out[26] = extract64::<W, 26>(&words);
    out[27] = extract64::<W, 27>(&words);
    out[28] = extract64::<W, 28>(&words);
    out[29] = extract64::<W, 29>(&words);
    out[30] = extract64::<W, 30>(&words);
    out[31] = extract64::<W, 31>(&words);
    out[32] = extract64::<W, 32>(&words);
    out[33] = extract64::<W, 33>(&words);
    out[34] = extract64::<W, 34>(&words);
    out[35] = extract64::<W, 35>(&words);
    out[36] = extract64::<W, 36>(&words);
    out[37] = extract64::<W, 37>(&words);
    out[38] = extract64::<W, 38>(&words);
    out[39] = extract64::<W, 39>(&words);
    out[40] = extract64::<W, 40>(&words);
    out[41] = extract64::<W, 41>(&words);
    out[42] = extract64::<W, 42>(&words);
    out[43] = extract64::<W, 43>(&words);
    out[44] = extract64::<W, 44>(&words);
    out[45] = extract64::<W, 45>(&words);
    out[46] = extract64::<W, 46>(&words);
    out[47] = extract64::<W, 47>(&words);
    out[48] = extract64::<W, 48>(&words);
    out[49] = extract64::<W, 49>(&words);
    out[50] = extract64::<W, 50>(&words);
    out[51] = extract64::<W, 51>(&words);
    out[52] = extract64::<W, 52>(&words);
    out[53] = extract64::<W, 53>(&words);
    out[54] = extract64::<W, 54>(&words);
    out[55] = extract64::<W, 55>(&words);
    out[56] = extract64::<W, 56>(&words);
    out[57] = extract64::<W, 57>(&words);
    out[58] = extract64::<W, 58>(&words);
    out[59] = extract64::<W, 59>(&words);
    out[60] = extract64::<W, 60>(&words);
    out[61] = extract64::<W, 61>(&words);
    out[62] = extract64::<W, 62>(&words);
    out[63] = extract64::<W, 63>(&words);
}

#[inline(always)]
fn pack32_width<const W: usize>(input: &[u32; 32], output: &mut [u8]) {
    let mask = u32::MAX >> (32 - W);
    let mut words = [0u32; W];
    deposit32::<W, 0>(&mut words, input[0] & mask);
    deposit32::<W, 1>(&mut words, input[1] & mask);
    deposit32::<W, 2>(&mut words, input[2] & mask);
    deposit32::<W, 3>(&mut words, input[3] & mask);
    deposit32::<W, 4>(&mut words, input[4] & mask);
    deposit32::<W, 5>(&mut words, input[5] & mask);
    deposit32::<W, 6>(&mut words, input[6] & mask);
    deposit32::<W, 7>(&mut words, input[7] & mask);
    deposit32::<W, 8>(&mut words, input[8] & mask);
    deposit32::<W, 9>(&mut words, input[9] & mask);
    deposit32::<W, 10>(&mut words, input[10] & mask);
    deposit32::<W, 11>(&mut words, input[11] & mask);
    deposit32::<W, 12>(&mut words, input[12] & mask);
    deposit32::<W, 13>(&mut words, input[13] & mask);
    deposit32::<W, 14>(&mut words, input[14] & mask);
    deposit32::<W, 15>(&mut words, input[15] & mask);
    deposit32::<W, 16>(&mut words, input[16] & mask);
    deposit32::<W, 17>(&mut words, input[17] & mask);
    deposit32::<W, 18>(&mut words, input[18] & mask);
    deposit32::<W, 19>(&mut words, input[19] & mask);
    deposit32::<W, 20>(&mut words, input[20] & mask);
    deposit32::<W, 21>(&mut words, input[21] & mask);
    deposit32::<W, 22>(&mut words, input[22] & mask);
    deposit32::<W, 23>(&mut words, input[23] & mask);
    deposit32::<W, 24>(&mut words, input[24] & mask);
    deposit32::<W, 25>(&mut words, input[25] & mask);
    deposit32::<W, 26>(&mut words, input[26] & mask);
    deposit32::<W, 27>(&mut words, input[27] & mask);
    deposit32::<W, 28>(&mut words, input[28] & mask);
    deposit32::<W, 29>(&mut words, input[29] & mask);
    deposit32::<W, 30>(&mut words, input[30] & mask);
    deposit32::<W, 31>(&mut words, input[31] & mask);
    for (chunk, word) in output[..W * 4].chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
}

#[inline(always)]
fn pack64_width<const W: usize>(input: &[u64; 64], output: &mut [u8]) {
    let mask = u64::MAX >> (64 - W);
    let mut words = [0u64; W];
    deposit64::<W, 0>(&mut words, input[0] & mask);
    deposit64::<W, 1>(&mut words, input[1] & mask);
    deposit64::<W, 2>(&mut words, input[2] & mask);
    deposit64::<W, 3>(&mut words, input[3] & mask);
    deposit64::<W, 4>(&mut words, input[4] & mask);
    deposit64::<W, 5>(&mut words, input[5] & mask);
    deposit64::<W, 6>(&mut words, input[6] & mask);
    deposit64::<W, 7>(&mut words, input[7] & mask);
    deposit64::<W, 8>(&mut words, input[8] & mask);
    deposit64::<W, 9>(&mut words, input[9] & mask);
    deposit64::<W, 10>(&mut words, input[10] & mask);
    deposit64::<W, 11>(&mut words, input[11] & mask);
    deposit64::<W, 12>(&mut words, input[12] & mask);
    deposit64::<W, 13>(&mut words, input[13] & mask);
    deposit64::<W, 14>(&mut words, input[14] & mask);
    deposit64::<W, 15>(&mut words, input[15] & mask);
    deposit64::<W, 16>(&mut words, input[16] & mask);
    deposit64::<W, 17>(&mut words, input[17] & mask);
    deposit64::<W, 18>(&mut words, input[18] & mask);
    deposit64::<W, 19>(&mut words, input[19] & mask);
    deposit64::<W, 20>(&mut words, input[20] & mask);
    deposit64::<W, 21>(&mut words, input[21] & mask);
    deposit64::<W, 22>(&mut words, input[22] & mask);
    deposit64::<W, 23>(&mut words, input[23] & mask);
    deposit64::<W, 24>(&mut words, input[24] & mask);
    deposit64::<W, 25>(&mut words, input[25] & mask);
    deposit64::<W, 26>(&mut words, input[26] & mask);
    deposit64::<W, 27>(&mut words, input[27] & mask);
    deposit64::<W, 28>(&mut words, input[28] & mask);
    deposit64::<W, 29>(&mut words, input[29] & mask);
    deposit64::<W, 30>(&mut words, input[30] & mask);
    deposit64::<W, 31>(&mut words, input[31] & mask);
    deposit64::<W, 32>(&mut words, input[32] & mask);
    deposit64::<W, 33>(&mut words, input[33] & mask);
    deposit64::<W, 34>(&mut words, input[34] & mask);
    deposit64::<W, 35>(&mut words, input[35] & mask);
    deposit64::<W, 36>(&mut words, input[36] & mask);
    deposit64::<W, 37>(&mut words, input[37] & mask);
    deposit64::<W, 38>(&mut words, input[38] & mask);
    deposit64::<W, 39>(&mut words, input[39] & mask);
    deposit64::<W, 40>(&mut words, input[40] & mask);
    deposit64::<W, 41>(&mut words, input[41] & mask);
    deposit64::<W, 42>(&mut words, input[42] & mask);
    deposit64::<W, 43>(&mut words, input[43] & mask);
    deposit64::<W, 44>(&mut words, input[44] & mask);
    deposit64::<W, 45>(&mut words, input[45] & mask);
    deposit64::<W, 46>(&mut words, input[46] & mask);
    deposit64::<W, 47>(&mut words, input[47] & mask);
    deposit64::<W, 48>(&mut words, input[48] & mask);
    deposit64::<W, 49>(&mut words, input[49] & mask);
    deposit64::<W, 50>(&mut words, input[50] & mask);
    deposit64::<W, 51>(&mut words, input[51] & mask);
    deposit64::<W, 52>(&mut words, input[52] & mask);
    deposit64::<W, 53>(&mut words, input[53] & mask);
    deposit64::<W, 54>(&mut words, input[54] & mask);
    deposit64::<W, 55>(&mut words, input[55] & mask);
    deposit64::<W, 56>(&mut words, input[56] & mask);
    deposit64::<W, 57>(&mut words, input[57] & mask);
    deposit64::<W, 58>(&mut words, input[58] & mask);
    deposit64::<W, 59>(&mut words, input[59] & mask);
    deposit64::<W, 60>(&mut words, input[60] & mask);
    deposit64::<W, 61>(&mut words, input[61] & mask);
    deposit64::<W, 62>(&mut words, input[62] & mask);
    deposit64::<W, 63>(&mut words, input[63] & mask);
    for (chunk, word) in output[..W * 8].chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
}

#[cold]
#[inline(never)]
fn unsupported_len(len: usize, block: usize) {
    assert!(
        len >= block,
        "output holds {len} values, a block needs {block}"
    );
}

/// The 32-value unpack kernels compiled a second time with AVX2 and BMI2,
/// chosen at run time when the CPU has them, and the AVX2 build of
/// [`all_below`].
///
/// The kernels are plain Rust; what changes is what LLVM may emit for them.
/// With AVX2 the per-value shifts and masks of a block become per-lane
/// variable shifts (`vpsrlvq`) over 4 or 8 values at once, which the
/// baseline x86-64 target (SSE2) has no instruction for. In the interleaved
/// unpack probe this took 65,536 values at widths 1-7 from 15-30 us to
/// 8-15 us, and most wider widths by 0.5-0.9x. The 64-value kernels are not
/// dispatched (they serve widths 33-64; `u64` outputs of up to 32 bits go
/// through the 32-value kernels): with AVX2 they measured no faster, and
/// width 48 slower.
///
/// [`all_below`] (the range check of dictionary indices) has an AVX2 build
/// here too: SSE2 has no unsigned 32-bit compare, so each compare was
/// emulated with a sign flip and a signed compare.
///
/// This is the one place in the crate with `unsafe`: calling a
/// `#[target_feature]` function is `unsafe` because running AVX2
/// instructions on a CPU without them is undefined behaviour. Each call sits
/// right behind the run-time check that makes it sound.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use super::{FromWord32, all_below_portable, unpack32_groups_portable};

    /// [`super::unpack32_groups`] through the AVX2 build of the kernels, or
    /// `None` when this CPU lacks AVX2 or BMI2. The feature check is a
    /// cached load after the first call.
    #[inline]
    pub(super) fn unpack32_groups<T: FromWord32>(
        input: &[u8],
        output: &mut [T],
        num_bits: u32,
    ) -> Option<usize> {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: `unpack32_groups_avx2` only requires the CPU features
            // it is compiled for; both were detected on this CPU just above.
            // Its body is safe Rust, so nothing else is assumed.
            Some(unsafe { unpack32_groups_avx2(input, output, num_bits) })
        } else {
            None
        }
    }

    #[target_feature(enable = "avx2,bmi1,bmi2")]
    fn unpack32_groups_avx2<T: FromWord32>(input: &[u8], output: &mut [T], num_bits: u32) -> usize {
        unpack32_groups_portable(input, output, num_bits)
    }

    /// [`super::all_below`] through its AVX2 build (8 lanes of unsigned
    /// compares), or `None` when this CPU lacks AVX2.
    #[inline]
    pub(super) fn all_below(values: &[u32], bound: u32) -> Option<bool> {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `all_below_avx2` only requires AVX2, detected on this
            // CPU just above. Its body is safe Rust.
            Some(unsafe { all_below_avx2(values, bound) })
        } else {
            None
        }
    }

    #[target_feature(enable = "avx2")]
    fn all_below_avx2(values: &[u32], bound: u32) -> bool {
        all_below_portable(values, bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Both builds of `all_below` (the AVX2 one where this CPU has it)
    /// agree with a plain loop: lengths around the vector widths, one
    /// value at or past the bound at every position, bounds 0 and
    /// `u32::MAX`.
    #[test]
    fn all_below_builds_agree() {
        for len in [0usize, 1, 7, 8, 9, 31, 32, 33, 100] {
            for bound in [0u32, 1, 1000, u32::MAX] {
                let base: Vec<u32> = (0..len as u32).map(|i| (i * 37) % bound.max(1)).collect();
                let mut cases = vec![base.clone()];
                for at in 0..len {
                    for bad in [bound, bound.saturating_add(5), u32::MAX] {
                        let mut v = base.clone();
                        v[at] = bad;
                        cases.push(v);
                    }
                }
                for v in cases {
                    let expected = v.iter().all(|&x| x < bound);
                    assert_eq!(all_below_portable(&v, bound), expected, "{v:?} < {bound}");
                    assert_eq!(all_below(&v, bound), expected, "{v:?} < {bound}");
                    #[cfg(target_arch = "x86_64")]
                    if let Some(got) = x86::all_below(&v, bound) {
                        assert_eq!(got, expected, "avx2: {v:?} < {bound}");
                    }
                }
            }
        }
    }

    /// Bit-by-bit reference packer, independent of the kernels.
    fn reference_pack(values: &[u64], width: u32) -> Vec<u8> {
        let total_bits = values.len() * width as usize;
        let mut out = vec![0u8; total_bits.div_ceil(8)];
        for (i, &v) in values.iter().enumerate() {
            for b in 0..width as usize {
                if (v >> b) & 1 == 1 {
                    let bit = i * width as usize + b;
                    out[bit / 8] |= 1 << (bit % 8);
                }
            }
        }
        out
    }

    fn mask(width: u32) -> u64 {
        if width == 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        }
    }

    /// One build of the 32-value group kernels for one output type.
    type Unpack32<T> = fn(&[u8], &mut [T], u32) -> usize;

    /// A named build of the 32-value group kernels for each output type.
    type Build = (&'static str, Unpack32<u32>, Unpack32<u16>, Unpack32<u8>);

    #[cfg(target_arch = "x86_64")]
    fn avx2_u32(input: &[u8], output: &mut [u32], num_bits: u32) -> usize {
        x86::unpack32_groups(input, output, num_bits).unwrap_or(0)
    }

    #[cfg(target_arch = "x86_64")]
    fn avx2_u16(input: &[u8], output: &mut [u16], num_bits: u32) -> usize {
        x86::unpack32_groups(input, output, num_bits).unwrap_or(0)
    }

    #[cfg(target_arch = "x86_64")]
    fn avx2_u8(input: &[u8], output: &mut [u8], num_bits: u32) -> usize {
        x86::unpack32_groups(input, output, num_bits).unwrap_or(0)
    }

    #[test]
    fn every_width_32_matches_reference() {
        for width in 0..=32u32 {
            let values: [u32; 32] = core::array::from_fn(|i| {
                ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7) as u32 & mask(width) as u32
            });
            let wide: Vec<u64> = values.iter().map(|&v| u64::from(v)).collect();
            let expected = reference_pack(&wide, width);
            let mut packed = vec![0u8; 4 * width as usize];
            pack32(&values, &mut packed, width);
            assert_eq!(packed, expected, "pack32 width {width}");
            let mut out = [0u32; 32];
            unpack32(&expected, &mut out, width);
            assert_eq!(out, values, "unpack32 width {width}");
        }
    }

    #[test]
    fn every_width_64_matches_reference() {
        for width in 0..=64u32 {
            let values: [u64; 64] = core::array::from_fn(|i| {
                (i as u64)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(17)
                    & mask(width)
            });
            let expected = reference_pack(&values, width);
            let mut packed = vec![0u8; 8 * width as usize];
            pack64(&values, &mut packed, width);
            assert_eq!(packed, expected, "pack64 width {width}");
            let mut out = [0u64; 64];
            unpack64(&expected, &mut out, width);
            assert_eq!(out, values, "unpack64 width {width}");
        }
    }

    #[test]
    fn narrow_outputs() {
        for width in 0..=8u32 {
            let values: Vec<u64> = (0..32u64).map(|i| (i * 5 + 3) & mask(width)).collect();
            let packed = reference_pack(&values, width);
            let mut out8 = [0u8; 32];
            u8::unpack_block(&packed, &mut out8, width);
            let mut out16 = [0u16; 32];
            u16::unpack_block(&packed, &mut out16, width);
            for i in 0..32 {
                assert_eq!(u64::from(out8[i]), values[i]);
                assert_eq!(u64::from(out16[i]), values[i]);
            }
        }
    }

    #[test]
    fn pack_masks_high_bits() {
        let values = [u32::MAX; 32];
        let mut packed = [0u8; 12];
        pack32(&values, &mut packed, 3);
        assert_eq!(packed, [0xFF; 12]);
        let mut out = [0u32; 32];
        unpack32(&packed, &mut out, 3);
        assert_eq!(out, [7; 32]);
    }

    proptest! {
        #[test]
        fn round_trip_32(width in 0u32..=32, seed: [u32; 32]) {
            let values: [u32; 32] = core::array::from_fn(|i| seed[i] & mask(width) as u32);
            let mut packed = vec![0u8; 4 * width as usize];
            pack32(&values, &mut packed, width);
            let mut out = [0u32; 32];
            unpack32(&packed, &mut out, width);
            prop_assert_eq!(out, values);
        }

        #[test]
        fn groups_32_match_reference(
            width in 0u32..=32,
            in_bytes in 0usize..=400,
            out_len in 0usize..=100,
            seed in proptest::collection::vec(any::<u32>(), 100),
        ) {
            // Blocks, then groups of 8, as far as both the input and the
            // output reach.
            let values: Vec<u64> = seed.iter().map(|&v| u64::from(v) & mask(width)).collect();
            let packed = reference_pack(&values, width);
            let input = &packed[..in_bytes.min(packed.len())];
            let groups = match width {
                0 => out_len / 8,
                w => (input.len() / w as usize).min(out_len / 8),
            };
            let n = groups * 8;
            // The dispatched entry point, and each build of the kernels
            // directly: the portable one always, the AVX2 one where this
            // CPU has it.
            let mut builds: Vec<Build> = vec![
                ("dispatched", unpack32_groups::<u32>, unpack32_groups::<u16>, unpack32_groups::<u8>),
                (
                    "portable",
                    unpack32_groups_portable::<u32>,
                    unpack32_groups_portable::<u16>,
                    unpack32_groups_portable::<u8>,
                ),
            ];
            #[cfg(target_arch = "x86_64")]
            if x86::unpack32_groups::<u32>(&[], &mut [], 1).is_some() {
                builds.push(("avx2", avx2_u32, avx2_u16, avx2_u8));
            }
            for (build, wide, half, byte) in builds {
                let mut out = vec![u32::MAX; out_len];
                prop_assert_eq!(wide(input, &mut out, width), n, "{}", build);
                prop_assert!(out[..n].iter().map(|&v| u64::from(v)).eq(values[..n].iter().copied()), "{}", build);
                prop_assert!(out[n..].iter().all(|&v| v == u32::MAX), "{}", build);
                if width <= 16 {
                    let mut narrow = vec![u16::MAX; out_len];
                    prop_assert_eq!(half(input, &mut narrow, width), n, "{}", build);
                    prop_assert!(narrow[..n].iter().map(|&v| u64::from(v)).eq(values[..n].iter().copied()), "{}", build);
                    prop_assert!(narrow[n..].iter().all(|&v| v == u16::MAX), "{}", build);
                }
                if width <= 8 {
                    let mut narrow = vec![u8::MAX; out_len];
                    prop_assert_eq!(byte(input, &mut narrow, width), n, "{}", build);
                    prop_assert!(narrow[..n].iter().map(|&v| u64::from(v)).eq(values[..n].iter().copied()), "{}", build);
                    prop_assert!(narrow[n..].iter().all(|&v| v == u8::MAX), "{}", build);
                }
            }
        }

        #[test]
        fn groups_64_match_reference(
            width in 0u32..=64,
            in_bytes in 0usize..=1600,
            out_len in 0usize..=200,
            seed in proptest::collection::vec(any::<u64>(), 200),
        ) {
            let values: Vec<u64> = seed.iter().map(|&v| v & mask(width)).collect();
            let packed = reference_pack(&values, width);
            let input = &packed[..in_bytes.min(packed.len())];
            let mut out = vec![u64::MAX; out_len];
            let n = unpack64_groups(input, &mut out, width);
            let groups = match width {
                0 => out_len / 8,
                w => (input.len() / w as usize).min(out_len / 8),
            };
            prop_assert_eq!(n, groups * 8);
            prop_assert_eq!(&out[..n], &values[..n]);
            prop_assert!(out[n..].iter().all(|&v| v == u64::MAX));
        }

        #[test]
        fn round_trip_64(width in 0u32..=64, seed in proptest::collection::vec(any::<u64>(), 64)) {
            let values: [u64; 64] = core::array::from_fn(|i| seed[i] & mask(width));
            let mut packed = vec![0u8; 8 * width as usize];
            pack64(&values, &mut packed, width);
            prop_assert_eq!(&packed, &reference_pack(&values, width));
            let mut out = [0u64; 64];
            unpack64(&packed, &mut out, width);
            prop_assert_eq!(out, values);
        }
    }
}
