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
