//! [`BitReader`]: reads an LSB-first bit stream from a byte slice.

use crate::bitpack::Unpacked;
use crate::varint;

/// Reads values of 0 to 64 bits, LSB-first, from a borrowed byte slice, plus
/// aligned little-endian values and ULEB128/zigzag varints.
///
/// Running out of input gives `None` (or a short count from the batch
/// methods), never a panic. Batches at a byte boundary go through the
/// [`crate::bitpack`] kernels a block at a time.
///
/// ```
/// use strata_sink::BitReader;
///
/// // Eight 3-bit values 0..8 packed LSB-first (the spec's example).
/// let data = [0b1000_1000, 0b1100_0110, 0b1111_1010];
/// let mut r = BitReader::new(&data);
/// let mut out = [0u8; 8];
/// assert_eq!(r.get_batch(&mut out, 3), 8);
/// assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
/// assert_eq!(r.get_value(1), None);
/// ```
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Absolute bit position of the next read.
    bit_pos: usize,
}

impl<'a> BitReader<'a> {
    /// A reader positioned at the start of `data`.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, bit_pos: 0 }
    }

    /// A reader of `data` whose next read starts at bit `bit_pos` (the
    /// [`bit_position`](Self::bit_position) of an earlier reader of the
    /// same input). A position past the end leaves nothing to read.
    #[inline]
    pub fn at_bit(data: &'a [u8], bit_pos: usize) -> Self {
        Self { data, bit_pos }
    }

    /// Bits consumed so far.
    #[inline]
    pub fn bit_position(&self) -> usize {
        self.bit_pos
    }

    /// Bits left to read.
    #[inline]
    pub fn remaining_bits(&self) -> usize {
        (self.data.len() * 8).saturating_sub(self.bit_pos)
    }

    /// Bytes consumed so far, counting a partly read byte as consumed.
    #[inline]
    pub fn byte_position(&self) -> usize {
        self.bit_pos.div_ceil(8)
    }

    /// The input this reader was built over.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Read one value of `num_bits` bits (0..=64).
    #[inline]
    pub fn get_value(&mut self, num_bits: u32) -> Option<u64> {
        if num_bits > 64 || self.remaining_bits() < num_bits as usize {
            return None;
        }
        if num_bits == 0 {
            return Some(0);
        }
        let byte = self.bit_pos / 8;
        let shift = (self.bit_pos % 8) as u32;
        let mask = u64::MAX >> (64 - num_bits);
        let v = if shift + num_bits <= 64 && byte + 8 <= self.data.len() {
            let mut word = [0u8; 8];
            word.copy_from_slice(&self.data[byte..byte + 8]);
            u64::from_le_bytes(word) >> shift
        } else {
            // Near the end, or a value straddling nine bytes: assemble from
            // what is there (zero padded).
            // (A byte loop, not a variable-length copy, which would be a
            // `memcpy` call per value.)
            let end = (byte + 16).min(self.data.len());
            let mut wide = 0u128;
            for (i, &b) in self.data[byte..end].iter().enumerate() {
                wide |= u128::from(b) << (8 * i);
            }
            (wide >> shift) as u64
        };
        self.bit_pos += num_bits as usize;
        Some(v & mask)
    }

    /// Read up to `out.len()` values of `num_bits` bits into `out`, returning
    /// how many were read (fewer only when the input runs out, or zero when
    /// `num_bits` is wider than `T`).
    pub fn get_batch<T: Unpacked>(&mut self, out: &mut [T], num_bits: u32) -> usize {
        if num_bits > T::BITS {
            return 0;
        }
        let wanted = self.readable(out.len(), num_bits);
        let out = &mut out[..wanted];
        let mut i = 0;
        // Single values until the stream is byte aligned.
        while i < wanted && !self.bit_pos.is_multiple_of(8) {
            out[i] = T::from_u64(self.get_value(num_bits).unwrap_or(0));
            i += 1;
        }
        // Whole groups of 8 through the kernels, the width matched once.
        if i < wanted {
            let start = self.bit_pos / 8;
            let input = self.data.get(start..).unwrap_or_default();
            let n = T::unpack_groups(input, &mut out[i..], num_bits);
            self.bit_pos += n * num_bits as usize;
            i += n;
        }
        // The tail.
        while i < wanted {
            out[i] = T::from_u64(self.get_value(num_bits).unwrap_or(0));
            i += 1;
        }
        wanted
    }

    /// How many of `n` values of `num_bits` bits the input still holds.
    ///
    /// Callers usually ask for no more than is there, which a multiplication
    /// confirms; the division (tens of cycles, once per call, which for short
    /// RLE runs is per run) only runs when the input is short.
    #[inline]
    fn readable(&self, n: usize, num_bits: u32) -> usize {
        let remaining = self.remaining_bits();
        match n.checked_mul(num_bits as usize) {
            Some(bits) if bits <= remaining => n,
            _ if num_bits == 0 => n,
            _ => n.min(remaining / num_bits as usize),
        }
    }

    /// Skip `num_values` values of `num_bits` bits; returns how many were
    /// skipped (fewer when the input runs out).
    #[inline]
    pub fn skip(&mut self, num_values: usize, num_bits: u32) -> usize {
        if num_bits == 0 {
            return num_values;
        }
        let n = self.readable(num_values, num_bits);
        self.bit_pos += n * num_bits as usize;
        n
    }

    /// Move to the next byte boundary.
    #[inline]
    pub fn align(&mut self) {
        self.bit_pos = self.bit_pos.div_ceil(8) * 8;
    }

    /// Byte-align, then read `num_bytes` (0..=8) bytes as a little-endian
    /// value.
    #[inline]
    pub fn get_aligned_le(&mut self, num_bytes: usize) -> Option<u64> {
        if num_bytes > 8 {
            return None;
        }
        self.align();
        let start = self.bit_pos / 8;
        let bytes = self.data.get(start..start + num_bytes)?;
        let mut word = [0u8; 8];
        word[..num_bytes].copy_from_slice(bytes);
        self.bit_pos += num_bytes * 8;
        Some(u64::from_le_bytes(word))
    }

    /// Byte-align, then borrow the next `n` bytes.
    #[inline]
    pub fn get_aligned_bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        self.align();
        let start = self.bit_pos / 8;
        let bytes = self.data.get(start..start.checked_add(n)?)?;
        self.bit_pos += n * 8;
        Some(bytes)
    }

    /// Byte-align, then read a ULEB128 varint.
    #[inline]
    pub fn get_uleb128(&mut self) -> Option<u64> {
        self.align();
        let start = self.bit_pos / 8;
        let (v, n) = varint::decode_uleb128(self.data.get(start..)?).ok()?;
        self.bit_pos += n * 8;
        Some(v)
    }

    /// Byte-align, then read a zigzag varint.
    #[inline]
    pub fn get_zigzag(&mut self) -> Option<i64> {
        self.get_uleb128().map(varint::zigzag_decode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitWriter;
    use proptest::prelude::*;

    #[test]
    fn exhausted_input_is_none() {
        let mut r = BitReader::new(&[0xFF]);
        assert_eq!(r.get_value(9), None);
        assert_eq!(r.get_value(8), Some(0xFF));
        assert_eq!(r.get_value(1), None);
        assert_eq!(r.get_uleb128(), None);
        assert_eq!(r.get_aligned_le(1), None);
        assert_eq!(r.get_value(65), None);
    }

    #[test]
    fn batch_wider_than_type_reads_nothing() {
        let mut r = BitReader::new(&[0xFF; 8]);
        let mut out = [0u8; 4];
        assert_eq!(r.get_batch(&mut out, 9), 0);
    }

    #[test]
    fn truncated_batch_is_short() {
        // 10 bytes hold 26 values of 3 bits.
        let data = [0xAAu8; 10];
        let mut r = BitReader::new(&data);
        let mut out = [0u32; 64];
        assert_eq!(r.get_batch(&mut out, 3), 26);
    }

    #[test]
    fn malformed_varint_is_none() {
        let mut r = BitReader::new(&[0x80, 0x80]);
        assert_eq!(r.get_uleb128(), None);
    }

    /// `values` written at `width` after `lead` bits, read back by one
    /// batch into `T` and by single reads, which must agree.
    fn batch_matches_single_reads<T: Unpacked>(
        width: u32,
        lead: u32,
        values: &[u64],
    ) -> Result<(), TestCaseError> {
        let mut w = BitWriter::new();
        w.put_value(0, lead);
        for &v in values {
            w.put_value(v, width);
        }
        let bytes = w.into_vec();
        let mut single = BitReader::new(&bytes);
        let mut batch = BitReader::new(&bytes);
        single.get_value(lead);
        batch.get_value(lead);
        let mut out = vec![T::default(); values.len()];
        prop_assert_eq!(batch.get_batch(&mut out, width), values.len());
        for &got in &out {
            prop_assert_eq!(Some(got.to_u64()), single.get_value(width));
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn batch_matches_single_reads_u64(width in 0u32..=64, lead in 0u32..12, values in proptest::collection::vec(any::<u64>(), 0..400)) {
            batch_matches_single_reads::<u64>(width, lead, &values)?;
        }

        #[test]
        fn batch_matches_single_reads_u32(width in 0u32..=32, lead in 0u32..12, values in proptest::collection::vec(any::<u64>(), 0..400)) {
            batch_matches_single_reads::<u32>(width, lead, &values)?;
        }

        #[test]
        fn batch_into_narrow_types(width in 0u32..=8, values in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut w = BitWriter::new();
            for &v in &values {
                w.put_value(u64::from(v), width);
            }
            let bytes = w.into_vec();
            let m = ((1u16 << width) - 1) as u8;
            let mut out8 = vec![0u8; values.len()];
            let mut out16 = vec![0u16; values.len()];
            let mut out32 = vec![0u32; values.len()];
            BitReader::new(&bytes).get_batch(&mut out8, width);
            BitReader::new(&bytes).get_batch(&mut out16, width);
            BitReader::new(&bytes).get_batch(&mut out32, width);
            for i in 0..values.len() {
                prop_assert_eq!(out8[i], values[i] & m);
                prop_assert_eq!(out16[i], u16::from(values[i] & m));
                prop_assert_eq!(out32[i], u32::from(values[i] & m));
            }
        }

        #[test]
        fn skip_then_read(width in 1u32..=64, skip in 0usize..200, values in proptest::collection::vec(any::<u64>(), 1..300)) {
            let mut w = BitWriter::new();
            for &v in &values {
                w.put_value(v, width);
            }
            let bytes = w.into_vec();
            let mut r = BitReader::new(&bytes);
            let skipped = r.skip(skip, width);
            // Padding bits of the last byte count as readable values.
            prop_assert_eq!(skipped, skip.min(bytes.len() * 8 / width as usize));
            if skipped < values.len() {
                let m = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
                prop_assert_eq!(r.get_value(width), Some(values[skipped] & m));
            }
        }
    }
}
