//! Bitmaps: LSB-first bit `i` of the bitmap set (Arrow's layout, used
//! for validity and for filter masks). Reading bits, counting them and
//! walking their runs a word at a time. Nothing here panics: bits past
//! the end of a bitmap read as unset.
//!
//! ```
//! use strata_sink::bitmap::{SetRuns, count_set, get_bit};
//!
//! let bitmap = [0b1110_0110u8, 0b0000_0001];
//! assert!(get_bit(&bitmap, 1));
//! assert_eq!(count_set(&bitmap, 0, 9), 6);
//! let runs: Vec<(usize, usize)> = SetRuns::new(&bitmap, 0, 9).collect();
//! assert_eq!(runs, [(1, 2), (5, 4)]);
//! ```

/// Bit `i` of an LSB-first bitmap; `false` past its end.
#[inline]
pub fn get_bit(bitmap: &[u8], i: usize) -> bool {
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

/// Number of set bits in `offset .. offset + len`; bits past the end of the
/// bitmap count as unset.
pub fn count_set(bitmap: &[u8], offset: usize, len: usize) -> usize {
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
pub struct SetRuns<'a> {
    bitmap: &'a [u8],
    offset: usize,
    pos: usize,
    len: usize,
}

impl<'a> SetRuns<'a> {
    /// The runs of set bits in `offset .. offset + len`; bits past the end
    /// of the bitmap read as unset.
    pub fn new(bitmap: &'a [u8], offset: usize, len: usize) -> Self {
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

/// Set bit `i` of an LSB-first bitmap; nothing past its end.
#[inline]
pub fn set_bit(bitmap: &mut [u8], i: usize) {
    if let Some(b) = bitmap.get_mut(i >> 3) {
        *b |= 1 << (i & 7);
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
            assert_eq!(
                count_set(&bitmap, offset, len),
                bits.iter().filter(|b| **b).count()
            );
            let runs: Vec<_> = SetRuns::new(&bitmap, offset, len).collect();
            assert_eq!(runs, naive_runs(&bits));
        }
    }
}
