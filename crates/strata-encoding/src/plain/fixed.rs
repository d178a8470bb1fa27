//! PLAIN for fixed-width numeric types: `i32`, `i64`, `Int96`, `f32`, `f64`.

use std::marker::PhantomData;

use strata_sink::ByteSink;

use crate::error::{EncodingError, Result};
use crate::plain::move_into;
use crate::traits::{Decoder, Encoder};
use crate::types::FixedWidthValue;
use strata_format::metadata::Encoding;

/// PLAIN encoder for `i32`, `i64`, [`Int96`](crate::Int96), `f32` and `f64`:
/// each value as `T::WIDTH` little-endian bytes.
///
/// ```
/// use strata_encoding::{Encoder, PlainEncoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = PlainEncoder::<i32>::new();
/// enc.put(&[1, -1]).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert_eq!(page.as_slice(), &[1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]);
/// ```
#[derive(Debug)]
pub struct PlainEncoder<T: FixedWidthValue> {
    buf: ByteSink,
    count: usize,
    _type: PhantomData<fn(T)>,
}

impl<T: FixedWidthValue> Default for PlainEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: FixedWidthValue> PlainEncoder<T> {
    /// A new encoder; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            buf: ByteSink::new(),
            count: 0,
            _type: PhantomData,
        }
    }
}

impl<T: FixedWidthValue> Encoder<T> for PlainEncoder<T> {
    fn put(&mut self, values: &[T]) -> Result<()> {
        let bytes = values
            .len()
            .checked_mul(T::WIDTH)
            .ok_or_else(|| EncodingError::InvalidArgument("batch too large".into()))?;
        let start = self.buf.len();
        let vec = self.buf.as_mut_vec();
        vec.resize(start + bytes, 0);
        T::encode_plain(values, &mut vec[start..]);
        self.count += values.len();
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        move_into(&mut self.buf, page);
        self.count = 0;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.count
    }

    fn estimated_size(&self) -> usize {
        self.buf.len()
    }

    fn heap_size(&self) -> usize {
        self.buf.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}

/// PLAIN decoder for `i32`, `i64`, [`Int96`](crate::Int96), `f32` and `f64`.
///
/// Decoding into a slice is a straight little-endian copy.
///
/// ```
/// use strata_encoding::{Decoder, PlainDecoder};
///
/// let page = [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
/// let mut dec = PlainDecoder::<i64>::new();
/// dec.set_data(&page, 2).unwrap();
/// let mut out = [0i64; 2];
/// assert_eq!(dec.decode(&mut out, 2).unwrap(), 2);
/// assert_eq!(out, [1, 2]);
/// // Three values do not fit in 16 bytes.
/// assert!(dec.set_data(&page, 3).is_err());
/// ```
#[derive(Debug)]
pub struct PlainDecoder<'a, T: FixedWidthValue> {
    data: &'a [u8],
    left: usize,
    _type: PhantomData<fn() -> T>,
}

impl<T: FixedWidthValue> Default for PlainDecoder<'_, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: FixedWidthValue> PlainDecoder<'_, T> {
    /// A decoder with no page yet.
    pub const fn new() -> Self {
        Self {
            data: &[],
            left: 0,
            _type: PhantomData,
        }
    }
}

impl<'a, T: FixedWidthValue> Decoder<'a, T> for PlainDecoder<'a, T> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        let needed = num_values.checked_mul(T::WIDTH);
        match needed {
            Some(n) if n <= page.len() => {
                self.data = &page[..n];
                self.left = num_values;
                Ok(())
            }
            _ => {
                self.data = &[];
                self.left = 0;
                Err(EncodingError::InvalidValueCount {
                    requested: num_values,
                    available: page.len() / T::WIDTH,
                })
            }
        }
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut [T], max_values: usize) -> Result<usize> {
        let n = max_values.min(out.len()).min(self.left);
        let (head, tail) = self.data.split_at(n * T::WIDTH);
        T::decode_plain(head, &mut out[..n]);
        self.data = tail;
        self.left -= n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        self.data = &self.data[n * T::WIDTH..];
        self.left -= n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}
