//! Validity bitmaps: LSB-first bit `i` of the bitmap set means slot `i` holds
//! a value (Arrow's layout). Helpers to check, count and walk them a word at
//! a time.

use crate::error::{EncodingError, Result};

/// Check that `bitmap` holds bits `offset .. offset + len`.
pub(crate) fn check_bitmap(bitmap: &[u8], offset: usize, len: usize) -> Result<()> {
    if len == 0 {
        return Ok(());
    }
    let needed = offset
        .checked_add(len)
        .ok_or_else(|| EncodingError::InvalidArgument("validity range overflows".into()))?;
    if needed.div_ceil(8) > bitmap.len() {
        return Err(EncodingError::InvalidArgument(format!(
            "validity bitmap of {} bytes cannot hold bits {offset}..{needed}",
            bitmap.len()
        )));
    }
    Ok(())
}

/// Bit `i` of an LSB-first bitmap. The caller has checked the range.
#[inline]
pub(crate) fn get_bit(bitmap: &[u8], i: usize) -> bool {
    bitmap.get(i >> 3).is_some_and(|b| (b >> (i & 7)) & 1 == 1)
}

/// Up to 64 bits starting at bit `bit`, LSB first; bits past the end of the
/// bitmap read as zero.
#[inline]
fn word_at(bitmap: &[u8], bit: usize) -> u64 {
    let byte = bit >> 3;
    let shift = bit & 7;
    let mut buf = [0u8; 16];
    let avail = bitmap.len().saturating_sub(byte).min(9);
    if avail > 0 {
        buf[..avail].copy_from_slice(&bitmap[byte..byte + avail]);
    }
    (u128::from_le_bytes(buf) >> shift) as u64
}

/// Number of set bits in `offset .. offset + len`. The caller has checked
/// the range.
pub(crate) fn count_set(bitmap: &[u8], offset: usize, len: usize) -> usize {
    let mut count = 0usize;
    let mut i = 0;
    while i < len {
        let take = (len - i).min(64);
        let mut w = word_at(bitmap, offset + i);
        if take < 64 {
            w &= (1u64 << take) - 1;
        }
        count += w.count_ones() as usize;
        i += take;
    }
    count
}

/// First position `p` in `from .. len` whose bit equals `want`, or `len`.
#[inline]
fn find(bitmap: &[u8], offset: usize, from: usize, len: usize, want: bool) -> usize {
    let mut i = from;
    while i < len {
        let take = (len - i).min(64);
        let mut w = word_at(bitmap, offset + i);
        if !want {
            w = !w;
        }
        if take < 64 {
            w &= (1u64 << take) - 1;
        }
        if w != 0 {
            return i + w.trailing_zeros() as usize;
        }
        i += take;
    }
    len
}

/// Iterator over the runs of set bits in `offset .. offset + len`, as
/// `(start, run_length)` pairs relative to `offset`.
pub(crate) struct SetRuns<'a> {
    bitmap: &'a [u8],
    offset: usize,
    pos: usize,
    len: usize,
}

impl<'a> SetRuns<'a> {
    /// Runs of set bits; the caller has checked the range.
    pub(crate) fn new(bitmap: &'a [u8], offset: usize, len: usize) -> Self {
        Self {
            bitmap,
            offset,
            pos: 0,
            len,
        }
    }
}

impl Iterator for SetRuns<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let start = find(self.bitmap, self.offset, self.pos, self.len, true);
        if start >= self.len {
            self.pos = self.len;
            return None;
        }
        let end = find(self.bitmap, self.offset, start, self.len, false);
        self.pos = end;
        Some((start, end - start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_runs(bits: &[bool]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < bits.len() {
            if bits[i] {
                let s = i;
                while i < bits.len() && bits[i] {
                    i += 1;
                }
                out.push((s, i - s));
            } else {
                i += 1;
            }
        }
        out
    }

    #[test]
    fn runs_and_counts_match_naive() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let nbytes = (x % 40) as usize;
            let bitmap: Vec<u8> = (0..nbytes)
                .map(|i| {
                    let v = x.rotate_left(i as u32 * 5) as u8;
                    if case % 3 == 0 { v | 0xF0 } else { v }
                })
                .collect();
            let offset = (x >> 20) as usize % 9;
            let len = (nbytes * 8).saturating_sub(offset);
            let bits: Vec<bool> = (0..len).map(|i| get_bit(&bitmap, offset + i)).collect();
            assert!(check_bitmap(&bitmap, offset, len).is_ok());
            assert_eq!(
                count_set(&bitmap, offset, len),
                bits.iter().filter(|b| **b).count()
            );
            let runs: Vec<_> = SetRuns::new(&bitmap, offset, len).collect();
            assert_eq!(runs, naive_runs(&bits));
        }
        assert!(check_bitmap(&[0xFF], 1, 8).is_err());
        assert!(check_bitmap(&[], usize::MAX, 2).is_err());
    }
}
