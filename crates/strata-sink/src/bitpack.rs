//! Bit-packing kernels: blocks of 32 or 64 values at every bit width.
//!
//! Parquet packs integers LSB-first: value `i` of a block of width `w`
//! occupies bits `i*w .. (i+1)*w` of the block, counting from the least
//! significant bit of the first byte. A block of 32 values at width `w` takes
//! exactly `4*w` bytes; a block of 64 values takes `8*w` bytes, so a block
//! always ends on a byte boundary.
//!
//! Each width has its own monomorphised function (`unpack32_width::<T, W>`),
//! selected once per block by a `match`. With the width a constant, the
//! compiler unrolls the 32 or 64 iterations into straight-line shifts and
//! masks with no bounds checks and no branches.
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
    match num_bits {
        0 => output[..32].fill(T::from_word(0)),
        1 => unpack32_width::<T, 1>(input, output),
        2 => unpack32_width::<T, 2>(input, output),
        3 => unpack32_width::<T, 3>(input, output),
        4 => unpack32_width::<T, 4>(input, output),
        5 => unpack32_width::<T, 5>(input, output),
        6 => unpack32_width::<T, 6>(input, output),
        7 => unpack32_width::<T, 7>(input, output),
        8 => unpack32_width::<T, 8>(input, output),
        9 => unpack32_width::<T, 9>(input, output),
        10 => unpack32_width::<T, 10>(input, output),
        11 => unpack32_width::<T, 11>(input, output),
        12 => unpack32_width::<T, 12>(input, output),
        13 => unpack32_width::<T, 13>(input, output),
        14 => unpack32_width::<T, 14>(input, output),
        15 => unpack32_width::<T, 15>(input, output),
        16 => unpack32_width::<T, 16>(input, output),
        17 => unpack32_width::<T, 17>(input, output),
        18 => unpack32_width::<T, 18>(input, output),
        19 => unpack32_width::<T, 19>(input, output),
        20 => unpack32_width::<T, 20>(input, output),
        21 => unpack32_width::<T, 21>(input, output),
        22 => unpack32_width::<T, 22>(input, output),
        23 => unpack32_width::<T, 23>(input, output),
        24 => unpack32_width::<T, 24>(input, output),
        25 => unpack32_width::<T, 25>(input, output),
        26 => unpack32_width::<T, 26>(input, output),
        27 => unpack32_width::<T, 27>(input, output),
        28 => unpack32_width::<T, 28>(input, output),
        29 => unpack32_width::<T, 29>(input, output),
        30 => unpack32_width::<T, 30>(input, output),
        31 => unpack32_width::<T, 31>(input, output),
        32 => unpack32_width::<T, 32>(input, output),
        _ => unsupported_width(num_bits, 32),
    }
}

/// Unpack 64 values of `num_bits` bits (0..=64) from `input` into
/// `output[..64]`.
///
/// # Panics
/// If `num_bits > 64`, `input.len() < 8 * num_bits` or `output.len() < 64`.
#[inline]
pub fn unpack64(input: &[u8], output: &mut [u64], num_bits: u32) {
    match num_bits {
        0 => output[..64].fill(0),
        1 => unpack64_width::<1>(input, output),
        2 => unpack64_width::<2>(input, output),
        3 => unpack64_width::<3>(input, output),
        4 => unpack64_width::<4>(input, output),
        5 => unpack64_width::<5>(input, output),
        6 => unpack64_width::<6>(input, output),
        7 => unpack64_width::<7>(input, output),
        8 => unpack64_width::<8>(input, output),
        9 => unpack64_width::<9>(input, output),
        10 => unpack64_width::<10>(input, output),
        11 => unpack64_width::<11>(input, output),
        12 => unpack64_width::<12>(input, output),
        13 => unpack64_width::<13>(input, output),
        14 => unpack64_width::<14>(input, output),
        15 => unpack64_width::<15>(input, output),
        16 => unpack64_width::<16>(input, output),
        17 => unpack64_width::<17>(input, output),
        18 => unpack64_width::<18>(input, output),
        19 => unpack64_width::<19>(input, output),
        20 => unpack64_width::<20>(input, output),
        21 => unpack64_width::<21>(input, output),
        22 => unpack64_width::<22>(input, output),
        23 => unpack64_width::<23>(input, output),
        24 => unpack64_width::<24>(input, output),
        25 => unpack64_width::<25>(input, output),
        26 => unpack64_width::<26>(input, output),
        27 => unpack64_width::<27>(input, output),
        28 => unpack64_width::<28>(input, output),
        29 => unpack64_width::<29>(input, output),
        30 => unpack64_width::<30>(input, output),
        31 => unpack64_width::<31>(input, output),
        32 => unpack64_width::<32>(input, output),
        33 => unpack64_width::<33>(input, output),
        34 => unpack64_width::<34>(input, output),
        35 => unpack64_width::<35>(input, output),
        36 => unpack64_width::<36>(input, output),
        37 => unpack64_width::<37>(input, output),
        38 => unpack64_width::<38>(input, output),
        39 => unpack64_width::<39>(input, output),
        40 => unpack64_width::<40>(input, output),
        41 => unpack64_width::<41>(input, output),
        42 => unpack64_width::<42>(input, output),
        43 => unpack64_width::<43>(input, output),
        44 => unpack64_width::<44>(input, output),
        45 => unpack64_width::<45>(input, output),
        46 => unpack64_width::<46>(input, output),
        47 => unpack64_width::<47>(input, output),
        48 => unpack64_width::<48>(input, output),
        49 => unpack64_width::<49>(input, output),
        50 => unpack64_width::<50>(input, output),
        51 => unpack64_width::<51>(input, output),
        52 => unpack64_width::<52>(input, output),
        53 => unpack64_width::<53>(input, output),
        54 => unpack64_width::<54>(input, output),
        55 => unpack64_width::<55>(input, output),
        56 => unpack64_width::<56>(input, output),
        57 => unpack64_width::<57>(input, output),
        58 => unpack64_width::<58>(input, output),
        59 => unpack64_width::<59>(input, output),
        60 => unpack64_width::<60>(input, output),
        61 => unpack64_width::<61>(input, output),
        62 => unpack64_width::<62>(input, output),
        63 => unpack64_width::<63>(input, output),
        64 => unpack64_width::<64>(input, output),
        _ => unsupported_width(num_bits, 64),
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

#[inline(always)]
fn unpack32_width<T: FromWord32, const W: usize>(input: &[u8], output: &mut [T]) {
    let output = &mut output[..32];
    let mut words = [0u32; W];
    for (word, chunk) in words.iter_mut().zip(input[..W * 4].chunks_exact(4)) {
        *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    let mask = u32::MAX >> (32 - W);
    for (i, out) in output.iter_mut().enumerate() {
        let start = i * W;
        let word = start / 32;
        let shift = start % 32;
        let mut v = words[word] >> shift;
        if shift + W > 32 {
            v |= words[word + 1] << (32 - shift);
        }
        *out = T::from_word(v & mask);
    }
}

#[inline(always)]
fn unpack64_width<const W: usize>(input: &[u8], output: &mut [u64]) {
    let output = &mut output[..64];
    let mut words = [0u64; W];
    for (word, chunk) in words.iter_mut().zip(input[..W * 8].chunks_exact(8)) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        *word = u64::from_le_bytes(bytes);
    }
    let mask = u64::MAX >> (64 - W);
    for (i, out) in output.iter_mut().enumerate() {
        let start = i * W;
        let word = start / 64;
        let shift = start % 64;
        let mut v = words[word] >> shift;
        if shift + W > 64 {
            v |= words[word + 1] << (64 - shift);
        }
        *out = v & mask;
    }
}

#[inline(always)]
fn pack32_width<const W: usize>(input: &[u32; 32], output: &mut [u8]) {
    let mut words = [0u32; W];
    let mask = u32::MAX >> (32 - W);
    for (i, &value) in input.iter().enumerate() {
        let v = value & mask;
        let start = i * W;
        let word = start / 32;
        let shift = start % 32;
        words[word] |= v << shift;
        if shift + W > 32 {
            words[word + 1] |= v >> (32 - shift);
        }
    }
    for (chunk, word) in output[..W * 4].chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
}

#[inline(always)]
fn pack64_width<const W: usize>(input: &[u64; 64], output: &mut [u8]) {
    let mut words = [0u64; W];
    let mask = u64::MAX >> (64 - W);
    for (i, &value) in input.iter().enumerate() {
        let v = value & mask;
        let start = i * W;
        let word = start / 64;
        let shift = start % 64;
        words[word] |= v << shift;
        if shift + W > 64 {
            words[word + 1] |= v >> (64 - shift);
        }
    }
    for (chunk, word) in output[..W * 8].chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
