//! [`BitWriter`]: an LSB-first bit stream that grows on demand.

use crate::bitpack;
use crate::byte_sink::ByteSink;

/// Writes values of any width from 0 to 64 bits, LSB-first, plus aligned
/// little-endian values and ULEB128/zigzag varints.
///
/// A new writer holds no heap memory; it grows only as bytes are written (a
/// writer with thousands of idle column encoders stays small).
///
/// ```
/// use strata_sink::{BitReader, BitWriter};
///
/// let mut w = BitWriter::new();
/// w.put_value(5, 3);
/// w.put_value(1, 1);
/// w.put_uleb128(300);
/// let bytes = w.into_vec();
///
/// let mut r = BitReader::new(&bytes);
/// assert_eq!(r.get_value(3), Some(5));
/// assert_eq!(r.get_value(1), Some(1));
/// assert_eq!(r.get_uleb128(), Some(300));
/// ```
#[derive(Debug, Default, Clone)]
pub struct BitWriter {
    sink: ByteSink,
    /// Bits not yet written to `sink`, LSB first.
    buffered: u64,
    /// Number of valid bits in `buffered` (always < 64).
    bits: u32,
}

impl BitWriter {
    /// An empty writer with no heap allocation.
    pub const fn new() -> Self {
        Self {
            sink: ByteSink::new(),
            buffered: 0,
            bits: 0,
        }
    }

    /// Append the low `num_bits` bits of `v` (`num_bits` in 0..=64).
    #[inline]
    pub fn put_value(&mut self, v: u64, num_bits: u32) {
        debug_assert!(num_bits <= 64);
        if num_bits == 0 {
            return;
        }
        let v = v & (u64::MAX >> (64 - num_bits));
        self.buffered |= v << self.bits;
        self.bits += num_bits;
        if self.bits >= 64 {
            self.sink.put_u64_le(self.buffered);
            self.bits -= 64;
            // The bits of `v` that did not fit are its top `self.bits` bits.
            self.buffered = if self.bits == 0 {
                0
            } else {
                v >> (num_bits - self.bits)
            };
        }
    }

    /// Append many values of `num_bits` bits each.
    ///
    /// When the stream is at a byte boundary, whole blocks of 64 values go
    /// through the [`bitpack::pack64`] kernel straight into the output.
    pub fn put_packed_u64(&mut self, values: &[u64], num_bits: u32) {
        let mut rest = values;
        if self.bits.is_multiple_of(8) {
            self.flush_whole_bytes();
            let bytes_per_block = 8 * num_bits as usize;
            let mut blocks = rest.chunks_exact(64);
            if blocks.len() > 0 {
                self.sink.reserve(blocks.len() * bytes_per_block);
            }
            for block in &mut blocks {
                let mut arr = [0u64; 64];
                arr.copy_from_slice(block);
                bitpack::pack64(&arr, self.sink.append_zeroed(bytes_per_block), num_bits);
            }
            rest = blocks.remainder();
        }
        for &v in rest {
            self.put_value(v, num_bits);
        }
    }

    /// Append many 32-bit values of `num_bits` bits each (0..=32), through the
    /// [`bitpack::pack32`] kernel when at a byte boundary.
    pub fn put_packed_u32(&mut self, values: &[u32], num_bits: u32) {
        let mut rest = values;
        if self.bits.is_multiple_of(8) {
            self.flush_whole_bytes();
            let bytes_per_block = 4 * num_bits as usize;
            let mut blocks = rest.chunks_exact(32);
            if blocks.len() > 0 {
                self.sink.reserve(blocks.len() * bytes_per_block);
            }
            for block in &mut blocks {
                let mut arr = [0u32; 32];
                arr.copy_from_slice(block);
                bitpack::pack32(&arr, self.sink.append_zeroed(bytes_per_block), num_bits);
            }
            rest = blocks.remainder();
        }
        for &v in rest {
            self.put_value(u64::from(v), num_bits);
        }
    }

    /// Move whole buffered bytes to the sink (only valid when `bits % 8 == 0`).
    #[inline]
    fn flush_whole_bytes(&mut self) {
        let n = (self.bits / 8) as usize;
        if n > 0 {
            self.sink
                .extend_from_slice(&self.buffered.to_le_bytes()[..n]);
            self.buffered = 0;
            self.bits = 0;
        }
    }

    /// Pad to the next byte boundary with zero bits and move buffered bits to
    /// the output.
    #[inline]
    pub fn flush(&mut self) {
        let n = self.bits.div_ceil(8) as usize;
        if n > 0 {
            self.sink
                .extend_from_slice(&self.buffered.to_le_bytes()[..n]);
        }
        self.buffered = 0;
        self.bits = 0;
    }

    /// Byte-align, then append the low `num_bytes` (0..=8) bytes of `v`
    /// little-endian.
    #[inline]
    pub fn put_aligned_le(&mut self, v: u64, num_bytes: usize) {
        self.flush();
        let n = num_bytes.min(8);
        self.sink.extend_from_slice(&v.to_le_bytes()[..n]);
    }

    /// Byte-align, then append raw bytes.
    #[inline]
    pub fn put_aligned_bytes(&mut self, bytes: &[u8]) {
        self.flush();
        self.sink.extend_from_slice(bytes);
    }

    /// Byte-align, then append a ULEB128 varint.
    #[inline]
    pub fn put_uleb128(&mut self, v: u64) {
        self.flush();
        self.sink.put_uleb128(v);
    }

    /// Byte-align, then append a zigzag varint.
    #[inline]
    pub fn put_zigzag(&mut self, v: i64) {
        self.flush();
        self.sink.put_zigzag(v);
    }

    /// Bytes written so far, counting a partial last byte.
    #[inline]
    pub fn bytes_written(&self) -> usize {
        self.sink.len() + self.bits.div_ceil(8) as usize
    }

    /// The bytes flushed so far (call [`flush`](Self::flush) first to include
    /// buffered bits).
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        self.sink.as_slice()
    }

    /// Forget everything written but keep the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.sink.clear();
        self.buffered = 0;
        self.bits = 0;
    }

    /// Heap bytes held.
    #[inline]
    pub fn heap_size(&self) -> usize {
        self.sink.capacity()
    }

    /// Flush and return the bytes.
    pub fn into_vec(mut self) -> Vec<u8> {
        self.flush();
        self.sink.into_vec()
    }

    /// Flush and append the bytes to `out`, leaving this writer empty with its
    /// allocation kept.
    pub fn flush_into(&mut self, out: &mut ByteSink) {
        self.flush();
        out.extend_from_slice(self.sink.as_slice());
        self.sink.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitReader;
    use proptest::prelude::*;

    #[test]
    fn new_writer_has_no_heap() {
        let w = BitWriter::new();
        assert_eq!(w.heap_size(), 0);
        assert_eq!(w.bytes_written(), 0);
    }

    #[test]
    fn lsb_first_layout() {
        let mut w = BitWriter::new();
        // 1, 0, 1 then 0b11111 -> bits 1,0,1,1,1,1,1,1 = 0xFD
        w.put_value(1, 1);
        w.put_value(0, 1);
        w.put_value(1, 1);
        w.put_value(0b11111, 5);
        w.put_value(0xABCD, 16);
        assert_eq!(w.into_vec(), vec![0xFD, 0xCD, 0xAB]);
    }

    #[test]
    fn sixty_four_bit_values_across_words() {
        let mut w = BitWriter::new();
        w.put_value(1, 3);
        w.put_value(u64::MAX, 64);
        w.put_value(0x1234_5678_9ABC_DEF0, 64);
        let bytes = w.into_vec();
        assert_eq!(bytes.len(), 17);
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.get_value(3), Some(1));
        assert_eq!(r.get_value(64), Some(u64::MAX));
        assert_eq!(r.get_value(64), Some(0x1234_5678_9ABC_DEF0));
    }

    #[test]
    fn aligned_puts_pad() {
        let mut w = BitWriter::new();
        w.put_value(1, 1);
        w.put_aligned_le(0x0102, 2);
        w.put_zigzag(-2);
        assert_eq!(w.into_vec(), vec![0x01, 0x02, 0x01, 0x03]);
    }

    proptest! {
        #[test]
        fn mixed_widths_round_trip(items in proptest::collection::vec((any::<u64>(), 0u32..=64), 0..200)) {
            let mut w = BitWriter::new();
            for &(v, nb) in &items {
                w.put_value(v, nb);
            }
            let bytes = w.into_vec();
            let total: usize = items.iter().map(|&(_, nb)| nb as usize).sum();
            prop_assert_eq!(bytes.len(), total.div_ceil(8));
            let mut r = BitReader::new(&bytes);
            for &(v, nb) in &items {
                let m = if nb == 64 { u64::MAX } else { (1u64 << nb) - 1 };
                prop_assert_eq!(r.get_value(nb), Some(v & m));
            }
        }

        #[test]
        fn packed_batches_match_single_puts(width in 0u32..=64, lead in 0u32..9, values in proptest::collection::vec(any::<u64>(), 0..300)) {
            let mut a = BitWriter::new();
            let mut b = BitWriter::new();
            a.put_value(0x55, lead);
            b.put_value(0x55, lead);
            a.put_packed_u64(&values, width);
            for &v in &values {
                b.put_value(v, width);
            }
            prop_assert_eq!(a.into_vec(), b.into_vec());
        }

        #[test]
        fn packed_u32_batches_match_single_puts(width in 0u32..=32, lead in 0u32..9, values in proptest::collection::vec(any::<u32>(), 0..300)) {
            let mut a = BitWriter::new();
            let mut b = BitWriter::new();
            a.put_value(0x55, lead);
            b.put_value(0x55, lead);
            a.put_packed_u32(&values, width);
            for &v in &values {
                b.put_value(u64::from(v), width);
            }
            prop_assert_eq!(a.into_vec(), b.into_vec());
        }
    }
}
