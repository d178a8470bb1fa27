//! Groups of 32 bit-packed values, as the delta encodings store them.
//!
//! A group of 32 values at width `w` takes exactly `4 * w` bytes, packed LSB
//! first. Widths up to 32 go through strata-sink's width-specialised
//! kernels; wider groups (INT64 deltas) use the shift-and-mask loop here.

use strata_sink::bitpack;

use crate::error::{EncodingError, Result};

/// Number of bits needed to hold `v` (0 for 0).
#[inline]
pub(crate) fn bits_needed(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Unpack 32 values of `width` bits (0..=64) from the first `4 * width`
/// bytes of `src`.
#[inline]
pub(crate) fn unpack32(src: &[u8], width: u32, out: &mut [u64; 32]) -> Result<()> {
    let bytes = 4 * width as usize;
    let src = src
        .get(..bytes)
        .ok_or(EncodingError::Truncated("bit-packed values"))?;
    if width <= 32 {
        let mut words = [0u32; 32];
        bitpack::unpack32(src, &mut words, width);
        for (o, w) in out.iter_mut().zip(words) {
            *o = u64::from(w);
        }
    } else if width == 64 {
        // Whole little-endian words: a straight copy.
        let (words, _) = src.as_chunks::<8>();
        for (o, w) in out.iter_mut().zip(words) {
            *o = u64::from_le_bytes(*w);
        }
    } else if width <= 64 {
        unpack32_wide(src, width, out);
    } else {
        return Err(EncodingError::Corrupt(format!(
            "bit width {width} exceeds 64"
        )));
    }
    Ok(())
}

/// The 33..=64-bit case: refill a 128-bit window a 32-bit word at a time.
fn unpack32_wide(src: &[u8], width: u32, out: &mut [u64; 32]) {
    let (words, _) = src.as_chunks::<4>();
    let mut words = words.iter();
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let mut window: u128 = 0;
    let mut bits = 0u32;
    for o in out.iter_mut() {
        while bits < width {
            let word = words.next().map_or(0, |w| u32::from_le_bytes(*w));
            window |= u128::from(word) << bits;
            bits += 32;
        }
        *o = (window as u64) & mask;
        window >>= width;
        bits -= width;
    }
}

/// Pack 32 values, each below `2^width`, into the first `4 * width` bytes of
/// `out` (which the caller sized).
#[inline]
pub(crate) fn pack32(values: &[u64; 32], width: u32, out: &mut [u8]) {
    if width == 0 {
        return;
    }
    if width <= 32 {
        let words: [u32; 32] = std::array::from_fn(|i| values[i] as u32);
        bitpack::pack32(&words, out, width);
    } else if width == 64 {
        let (words, _) = out.as_chunks_mut::<8>();
        for (w, v) in words.iter_mut().zip(values) {
            *w = v.to_le_bytes();
        }
    } else {
        pack32_wide(values, width, out);
    }
}

/// The 33..=64-bit case: flush a 128-bit window a 32-bit word at a time.
fn pack32_wide(values: &[u64; 32], width: u32, out: &mut [u8]) {
    let (words, _) = out.as_chunks_mut::<4>();
    let mut words = words.iter_mut();
    let mut window: u128 = 0;
    let mut bits = 0u32;
    for &v in values {
        window |= u128::from(v) << bits;
        bits += width;
        while bits >= 32 {
            if let Some(w) = words.next() {
                *w = (window as u32).to_le_bytes();
            }
            window >>= 32;
            bits -= 32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_width() {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for width in 0..=64u32 {
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let values: [u64; 32] = std::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & mask
            });
            let mut packed = vec![0u8; 4 * width as usize];
            pack32(&values, width, &mut packed);
            let mut out = [0u64; 32];
            unpack32(&packed, width, &mut out).unwrap();
            assert_eq!(out, values, "width {width}");
        }
    }

    #[test]
    fn spec_example_width_3() {
        // Encodings.md, RLE section: 0..=7 at width 3, then 24 zeros.
        let mut values = [0u64; 32];
        for (i, v) in values.iter_mut().take(8).enumerate() {
            *v = i as u64;
        }
        let mut packed = [0u8; 12];
        pack32(&values, 3, &mut packed);
        assert_eq!(&packed[..3], &[0b1000_1000, 0b1100_0110, 0b1111_1010]);
        assert!(unpack32(&packed[..11], 3, &mut values).is_err());
    }
}
