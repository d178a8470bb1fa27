//! Bitmaps: LSB-first bit `i` of the bitmap set (Arrow's layout, used
//! for validity and for filter masks). Reading bits, counting them and
//! walking their runs a word at a time. Nothing here panics: bits past
//! the end of a bitmap read as unset.
//!
//! ```
//! use strata_sink::bitmap::{SetRuns, count_set, for_each_set_bit, get_bit};
//!
//! let bitmap = [0b1110_0110u8, 0b0000_0001];
//! assert!(get_bit(&bitmap, 1));
//! assert_eq!(count_set(&bitmap, 0, 9), 6);
//! let runs: Vec<(usize, usize)> = SetRuns::new(&bitmap, 0, 9).collect();
//! assert_eq!(runs, [(1, 2), (5, 4)]);
//! let mut set = Vec::new();
//! for_each_set_bit(&bitmap, 0, 9, |i| set.push(i));
//! assert_eq!(set, [1, 2, 5, 6, 7, 8]);
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
    // Eight whole bytes from `byte` on (the common case): one load, and
    // the bits of the byte after them that the shift brings in.
    if let Some(chunk) = bitmap.get(byte..).and_then(|b| b.first_chunk::<8>()) {
        let low = u64::from_le_bytes(*chunk) >> shift;
        let high = match shift {
            0 => 0,
            _ => u64::from(bitmap.get(byte + 8).copied().unwrap_or(0)) << (64 - shift),
        };
        return low | high;
    }
    let mut buf = [0u8; 8];
    let tail = bitmap.get(byte..).unwrap_or_default();
    let avail = tail.len().min(8);
    if let (Some(dst), Some(src)) = (buf.get_mut(..avail), tail.get(..avail)) {
        dst.copy_from_slice(src);
    }
    u64::from_le_bytes(buf) >> shift
}

/// Number of set bits in `offset .. offset + len`; bits past the end of the
/// bitmap count as unset. The bytes of the range are counted whole (a
/// loop the compiler vectorises), less the bits of its first and last
/// byte outside it.
#[inline]
pub fn count_set(bitmap: &[u8], offset: usize, len: usize) -> usize {
    let len = len.min(bits_from(bitmap, offset));
    if len == 0 {
        return 0;
    }
    // Within the bitmap after the cut above, so no overflow.
    let end = offset + len;
    let bytes = bitmap.get(offset / 8..end.div_ceil(8)).unwrap_or_default();
    let mut count: usize = bytes.iter().map(|b| b.count_ones() as usize).sum();
    if let Some(first) = bytes.first() {
        count -= (first & ((1u8 << (offset % 8)) - 1)).count_ones() as usize;
    }
    if let Some(last) = bytes.last()
        && !end.is_multiple_of(8)
    {
        count -= (last >> (end % 8)).count_ones() as usize;
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
            len: len.min(bits_from(bitmap, offset)),
        }
    }
}

/// The bits of `bitmap` from bit `offset` to its end: a range is cut to
/// them (the bits past the end are unset), so that a walk stops there and
/// `offset + i` cannot overflow.
fn bits_from(bitmap: &[u8], offset: usize) -> usize {
    bitmap.len().saturating_mul(8).saturating_sub(offset)
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

/// Call `f` with the position, relative to `offset`, of each set bit in
/// `offset .. offset + len`, in order; bits past the end of the bitmap
/// read as unset. The bits are read a 64-bit word at a time, so the walk
/// costs a step per word and one per set bit: cheap for a sparse mask.
///
/// ```
/// use strata_sink::bitmap::for_each_set_bit;
/// let mut seen = Vec::new();
/// for_each_set_bit(&[0b1000_0110, 0b0000_0001], 1, 10, |i| seen.push(i));
/// assert_eq!(seen, [0, 1, 6, 7]);
/// ```
#[inline]
pub fn for_each_set_bit(bitmap: &[u8], offset: usize, len: usize, mut f: impl FnMut(usize)) {
    let len = len.min(bits_from(bitmap, offset));
    let mut i = 0;
    while i < len {
        let take = (len - i).min(64);
        let mut w = word_at(bitmap, offset + i);
        if take < 64 {
            w &= (1u64 << take) - 1;
        }
        while w != 0 {
            f(i + w.trailing_zeros() as usize);
            w &= w - 1;
        }
        i += take;
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
    fn every_range_counts_and_walks_what_get_bit_sees() {
        let bitmap: Vec<u8> = (0u32..11).map(|i| (i * 0x9D + 0x35) as u8).collect();
        for offset in 0..bitmap.len() * 8 + 3 {
            for len in 0..bitmap.len() * 8 + 3 - offset {
                let bits: Vec<bool> = (offset..offset + len)
                    .map(|i| get_bit(&bitmap, i))
                    .collect();
                let what = format!("{offset}, {len}");
                assert_eq!(
                    count_set(&bitmap, offset, len),
                    bits.iter().filter(|b| **b).count(),
                    "{what}"
                );
                let runs: Vec<_> = SetRuns::new(&bitmap, offset, len).collect();
                assert_eq!(runs, naive_runs(&bits), "{what}");
                let mut set = Vec::new();
                for_each_set_bit(&bitmap, offset, len, |i| set.push(i));
                let want: Vec<usize> = (0..len).filter(|&i| bits[i]).collect();
                assert_eq!(set, want, "{what}");
            }
        }
    }

    #[test]
    fn ranges_past_the_end_count_as_unset() {
        let bitmap = [0xFFu8, 0x01];
        assert_eq!(count_set(&bitmap, 4, usize::MAX), 5);
        assert_eq!(count_set(&bitmap, usize::MAX, usize::MAX), 0);
        assert_eq!(
            SetRuns::new(&bitmap, 4, usize::MAX).collect::<Vec<_>>(),
            [(0, 5)]
        );
        assert_eq!(SetRuns::new(&bitmap, usize::MAX - 1, 9).count(), 0);
        let mut set = Vec::new();
        for_each_set_bit(&bitmap, 4, usize::MAX, |i| set.push(i));
        assert_eq!(set, [0, 1, 2, 3, 4]);
        for_each_set_bit(&bitmap, usize::MAX - 1, 9, |_| panic!("past the end"));
        assert!(!get_bit(&bitmap, usize::MAX));
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
