//! PLAIN for BOOLEAN: one bit per value, LSB first, padded with zero bits to
//! a whole byte.

use strata_sink::ByteSink;

use crate::error::{EncodingError, Result};
use crate::traits::{Decoder, Encoder};
use strata_format::metadata::Encoding;

/// PLAIN encoder for `bool`: bit-packed, LSB first.
///
/// ```
/// use strata_encoding::{Encoder, PlainBooleanEncoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = PlainBooleanEncoder::new();
/// enc.put(&[true, false, true, true, false, false, false, false, true]).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert_eq!(page.as_slice(), &[0b0000_1101, 0b0000_0001]);
/// ```
#[derive(Debug, Default)]
pub struct PlainBooleanEncoder {
    bytes: Vec<u8>,
    bits: usize,
}

impl PlainBooleanEncoder {
    /// A new encoder; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            bytes: Vec::new(),
            bits: 0,
        }
    }
}

impl Encoder<bool> for PlainBooleanEncoder {
    fn put(&mut self, values: &[bool]) -> Result<()> {
        let mut rest = values;
        // Fill the partial byte first.
        while !self.bits.is_multiple_of(8) {
            let Some((&v, tail)) = rest.split_first() else {
                return Ok(());
            };
            if let Some(last) = self.bytes.last_mut() {
                *last |= u8::from(v) << (self.bits % 8);
            }
            self.bits += 1;
            rest = tail;
        }
        // Whole bytes.
        let (chunks, tail) = rest.as_chunks::<8>();
        self.bytes
            .reserve(chunks.len() + usize::from(!tail.is_empty()));
        for c in chunks {
            let mut byte = 0u8;
            for (i, &v) in c.iter().enumerate() {
                byte |= u8::from(v) << i;
            }
            self.bytes.push(byte);
        }
        self.bits += chunks.len() * 8;
        if !tail.is_empty() {
            let mut byte = 0u8;
            for (i, &v) in tail.iter().enumerate() {
                byte |= u8::from(v) << i;
            }
            self.bytes.push(byte);
            self.bits += tail.len();
        }
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        page.extend_from_slice(&self.bytes);
        self.bytes.clear();
        self.bits = 0;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.bits
    }

    fn estimated_size(&self) -> usize {
        self.bytes.len()
    }

    fn heap_size(&self) -> usize {
        self.bytes.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}

/// PLAIN decoder for `bool`.
///
/// ```
/// use strata_encoding::{Decoder, PlainBooleanDecoder};
///
/// let mut dec = PlainBooleanDecoder::new();
/// dec.set_data(&[0b0000_0101], 3).unwrap();
/// let mut out = [false; 3];
/// dec.decode(&mut out, 3).unwrap();
/// assert_eq!(out, [true, false, true]);
/// ```
#[derive(Debug, Default)]
pub struct PlainBooleanDecoder<'a> {
    data: &'a [u8],
    bit: usize,
    left: usize,
}

impl PlainBooleanDecoder<'_> {
    /// A decoder with no page yet.
    pub const fn new() -> Self {
        Self {
            data: &[],
            bit: 0,
            left: 0,
        }
    }
}

impl<'a> Decoder<'a, bool> for PlainBooleanDecoder<'a> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        if num_values.div_ceil(8) > page.len() {
            self.data = &[];
            self.left = 0;
            return Err(EncodingError::InvalidValueCount {
                requested: num_values,
                available: page.len().saturating_mul(8),
            });
        }
        self.data = page;
        self.bit = 0;
        self.left = num_values;
        Ok(())
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut [bool], max_values: usize) -> Result<usize> {
        let n = max_values.min(out.len()).min(self.left);
        let out = &mut out[..n];
        let mut i = 0;
        // Unaligned head.
        while i < n && !self.bit.is_multiple_of(8) {
            out[i] = (self.data[self.bit / 8] >> (self.bit % 8)) & 1 == 1;
            self.bit += 1;
            i += 1;
        }
        // Whole bytes.
        let whole = (n - i) / 8;
        let bytes = &self.data[self.bit / 8..self.bit / 8 + whole];
        let (chunks, _) = out[i..i + whole * 8].as_chunks_mut::<8>();
        for (c, &b) in chunks.iter_mut().zip(bytes) {
            for (k, o) in c.iter_mut().enumerate() {
                *o = (b >> k) & 1 == 1;
            }
        }
        self.bit += whole * 8;
        i += whole * 8;
        // Tail.
        while i < n {
            out[i] = (self.data[self.bit / 8] >> (self.bit % 8)) & 1 == 1;
            self.bit += 1;
            i += 1;
        }
        self.left -= n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        self.bit += n;
        self.left -= n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}
