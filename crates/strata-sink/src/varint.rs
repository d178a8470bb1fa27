//! ULEB128 varints and zigzag, as used by the Thrift compact protocol, the
//! RLE/bit-packed hybrid headers and the DELTA encodings.

use crate::error::{Result, SinkError};

/// Longest ULEB128 encoding of a `u64`.
pub const MAX_VARINT_LEN_64: usize = 10;
/// Longest ULEB128 encoding of a `u32`.
pub const MAX_VARINT_LEN_32: usize = 5;

/// Map a signed value onto an unsigned one so small magnitudes stay small.
///
/// ```
/// use strata_sink::varint::{zigzag_decode, zigzag_encode};
/// assert_eq!(zigzag_encode(-1), 1);
/// assert_eq!(zigzag_encode(1), 2);
/// assert_eq!(zigzag_decode(zigzag_encode(i64::MIN)), i64::MIN);
/// ```
#[inline]
pub const fn zigzag_encode(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Inverse of [`zigzag_encode`].
#[inline]
pub const fn zigzag_decode(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Write `v` as ULEB128 into `out`, returning the number of bytes used.
///
/// `out` must hold at least [`MAX_VARINT_LEN_64`] bytes.
#[inline]
pub fn encode_uleb128(mut v: u64, out: &mut [u8; MAX_VARINT_LEN_64]) -> usize {
    let mut i = 0;
    while v >= 0x80 {
        out[i] = (v as u8) | 0x80;
        v >>= 7;
        i += 1;
    }
    out[i] = v as u8;
    i + 1
}

/// Number of bytes the ULEB128 encoding of `v` takes.
#[inline]
pub const fn uleb128_len(v: u64) -> usize {
    let bits = 64 - (v | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Decode a ULEB128 varint of at most eight bytes from the first eight
/// input bytes, loaded as one little-endian word: the value and the number
/// of bytes it used, or `None` when none of the eight bytes ends a varint
/// (a longer varint; use [`decode_uleb128`]). Values below 2^56, every
/// offset, size and count in practice, are found and assembled without a
/// branch per byte. Bytes after the varint's last are ignored.
///
/// ```
/// use strata_sink::varint::decode_uleb128_word;
/// let word = u64::from_le_bytes([0xE5, 0x8E, 0x26, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
/// assert_eq!(decode_uleb128_word(word), Some((624_485, 3)));
/// assert_eq!(decode_uleb128_word(u64::MAX), None);
/// ```
#[inline]
pub fn decode_uleb128_word(word: u64) -> Option<(u64, usize)> {
    let ends = !word & 0x8080_8080_8080_8080;
    if ends == 0 {
        return None;
    }
    let len = (ends.trailing_zeros() / 8 + 1) as usize;
    // Keep the varint's bytes (`len` is 1..=8), then their low seven bits,
    // and close the gaps: pairs of bytes, pairs of 14-bit groups, pairs of
    // 28-bit groups.
    let mut v = (word & (u64::MAX >> (64 - 8 * len))) & 0x7F7F_7F7F_7F7F_7F7F;
    v = (v & 0x007F_007F_007F_007F) | ((v & 0x7F00_7F00_7F00_7F00) >> 1);
    v = (v & 0x0000_3FFF_0000_3FFF) | ((v & 0x3FFF_0000_3FFF_0000) >> 2);
    v = (v & 0x0000_0000_0FFF_FFFF) | ((v & 0x0FFF_FFFF_0000_0000) >> 4);
    Some((v, len))
}

/// Read a ULEB128 `u64` from the start of `data`.
///
/// Returns the value and the number of bytes consumed. Truncated input and
/// encodings longer than ten bytes (or overflowing 64 bits) are errors.
///
/// ```
/// use strata_sink::varint::decode_uleb128;
/// assert_eq!(decode_uleb128(&[0xE5, 0x8E, 0x26]).unwrap(), (624_485, 3));
/// assert!(decode_uleb128(&[0x80]).is_err());
/// ```
#[inline]
pub fn decode_uleb128(data: &[u8]) -> Result<(u64, usize)> {
    if let Some(word) = data.first_chunk::<8>()
        && let Some(decoded) = decode_uleb128_word(u64::from_le_bytes(*word))
    {
        return Ok(decoded);
    }
    let mut result = 0u64;
    let mut shift = 0u32;
    for (i, &byte) in data.iter().enumerate().take(MAX_VARINT_LEN_64) {
        let low = u64::from(byte & 0x7F);
        if shift == 63 && low > 1 {
            return Err(SinkError::VarintTooLong {
                offset: 0,
                max_bytes: MAX_VARINT_LEN_64,
            });
        }
        result |= low << shift;
        if byte & 0x80 == 0 {
            return Ok((result, i + 1));
        }
        shift += 7;
    }
    if data.len() >= MAX_VARINT_LEN_64 {
        Err(SinkError::VarintTooLong {
            offset: 0,
            max_bytes: MAX_VARINT_LEN_64,
        })
    } else {
        Err(SinkError::UnexpectedEof {
            offset: 0,
            needed: 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_encodings() {
        let mut buf = [0u8; MAX_VARINT_LEN_64];
        assert_eq!(encode_uleb128(0, &mut buf), 1);
        assert_eq!(buf[0], 0);
        assert_eq!(encode_uleb128(127, &mut buf), 1);
        assert_eq!(encode_uleb128(128, &mut buf), 2);
        assert_eq!(&buf[..2], &[0x80, 0x01]);
        assert_eq!(encode_uleb128(u64::MAX, &mut buf), 10);
        assert_eq!(
            &buf[..10],
            &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        );
    }

    #[test]
    fn rejects_overlong_and_overflow() {
        assert!(decode_uleb128(&[0xFF; 11]).is_err());
        // Ten bytes whose last carries more than the one remaining bit.
        let mut v = [0xFFu8; 10];
        v[9] = 0x02;
        assert!(decode_uleb128(&v).is_err());
        assert!(decode_uleb128(&[]).is_err());
    }

    proptest! {
        #[test]
        fn uleb128_decodes_inside_longer_input(
            raw: u64,
            shift in 0u32..64,
            tail in proptest::collection::vec(any::<u8>(), 0..12),
        ) {
            // Every length from one to ten bytes, followed by arbitrary input.
            let v = raw >> shift;
            let mut buf = [0u8; MAX_VARINT_LEN_64];
            let n = encode_uleb128(v, &mut buf);
            let mut input = buf[..n].to_vec();
            input.extend_from_slice(&tail);
            prop_assert_eq!(decode_uleb128(&input).unwrap(), (v, n));
        }

        #[test]
        fn uleb128_round_trip(v: u64) {
            let mut buf = [0u8; MAX_VARINT_LEN_64];
            let n = encode_uleb128(v, &mut buf);
            prop_assert_eq!(n, uleb128_len(v));
            prop_assert_eq!(decode_uleb128(&buf[..n]).unwrap(), (v, n));
        }

        #[test]
        fn zigzag_round_trip(v: i64) {
            prop_assert_eq!(zigzag_decode(zigzag_encode(v)), v);
            // Small magnitudes map to small codes.
            if (-64..64).contains(&v) {
                prop_assert!(zigzag_encode(v) < 128);
            }
        }
    }
}
