//! BYTE_STREAM_SPLIT (encoding id 9): for values of `K` bytes, byte `j` of
//! every value goes to stream `j`, and the `K` streams of `N` bytes are
//! concatenated. The page is exactly `K * N` bytes with no header or padding.
//!
//! Supported for FLOAT, DOUBLE, INT32, INT64 ([`ByteStreamSplitEncoder`],
//! [`ByteStreamSplitDecoder`]) and FIXED_LEN_BYTE_ARRAY
//! ([`ByteStreamSplitFixedLenEncoder`], [`ByteStreamSplitFixedLenDecoder`]).
//! Encoders buffer the values' PLAIN bytes and scatter them into streams on
//! flush, when `N` is known.

use std::marker::PhantomData;

use strata_sink::ByteSink;

use crate::error::{EncodingError, Result};
use crate::plain::fixed_len::{check_batch_width, check_width};
use crate::traits::{Decoder, Encoder};
use crate::types::{
    FixedLenBatch, FixedLenByteArray, FixedLenByteArrayBuffer, FixedWidthValue, sealed,
};
use strata_format::metadata::Encoding;

/// The fixed-width types BYTE_STREAM_SPLIT supports: `f32`, `f64`, `i32`,
/// `i64`. Sealed.
pub trait ByteStreamSplitValue: FixedWidthValue + sealed::Sealed {}

impl ByteStreamSplitValue for f32 {}
impl ByteStreamSplitValue for f64 {}
impl ByteStreamSplitValue for i32 {}
impl ByteStreamSplitValue for i64 {}

/// Values gathered per step when decoding (a stack buffer, no heap).
const GATHER_BATCH: usize = 128;

/// Values moved per block: a block's bytes stay in the first-level cache
/// while they are split into (or joined from) the `K` streams.
const BLOCK: usize = 64;

/// Scatter `plain` (`n` values of `K` bytes) into `K` streams in `out`,
/// a block of values at a time (one pass over the input, not `K`).
fn scatter_const<const K: usize>(plain: &[u8], out: &mut [u8]) {
    let (chunks, _) = plain.as_chunks::<K>();
    let n = chunks.len();
    for (b, block) in chunks.chunks(BLOCK).enumerate() {
        let base = b * BLOCK;
        for j in 0..K {
            let start = j * n + base;
            let stream = &mut out[start..start + block.len()];
            for (o, c) in stream.iter_mut().zip(block) {
                *o = c[j];
            }
        }
    }
}

/// Scatter for a width known only at run time.
fn scatter(plain: &[u8], k: usize, out: &mut [u8]) {
    match k {
        2 => scatter_const::<2>(plain, out),
        4 => scatter_const::<4>(plain, out),
        8 => scatter_const::<8>(plain, out),
        16 => scatter_const::<16>(plain, out),
        _ => {
            let n = plain.len() / k;
            for j in 0..k {
                let stream = &mut out[j * n..(j + 1) * n];
                for (o, c) in stream.iter_mut().zip(plain.chunks_exact(k)) {
                    *o = c[j];
                }
            }
        }
    }
}

/// Gather values `pos .. pos + count` from `K` streams of `stride` bytes
/// into `out` (`count * K` bytes, value-major), a block at a time.
fn gather_const<const K: usize>(
    data: &[u8],
    stride: usize,
    pos: usize,
    count: usize,
    out: &mut [u8],
) {
    let (values, _) = out.as_chunks_mut::<K>();
    for (b, block) in values[..count].chunks_mut(BLOCK).enumerate() {
        let base = pos + b * BLOCK;
        for j in 0..K {
            let start = j * stride + base;
            let stream = &data[start..start + block.len()];
            for (v, &byte) in block.iter_mut().zip(stream) {
                v[j] = byte;
            }
        }
    }
}

/// Gather values `pos .. pos + count` from `k` streams of `stride` bytes into
/// `out` (`count * k` bytes, value-major).
fn gather(data: &[u8], k: usize, stride: usize, pos: usize, count: usize, out: &mut [u8]) {
    match k {
        2 => gather_const::<2>(data, stride, pos, count, out),
        4 => gather_const::<4>(data, stride, pos, count, out),
        8 => gather_const::<8>(data, stride, pos, count, out),
        16 => gather_const::<16>(data, stride, pos, count, out),
        _ => {
            for j in 0..k {
                let start = j * stride + pos;
                let stream = &data[start..start + count];
                for (i, &b) in stream.iter().enumerate() {
                    out[i * k + j] = b;
                }
            }
        }
    }
}

/// Append the scattered form of `plain` to `page`.
fn flush_streams(plain: &mut ByteSink, k: usize, page: &mut ByteSink) {
    let start = page.len();
    let vec = page.as_mut_vec();
    vec.resize(start + plain.len(), 0);
    scatter(plain.as_slice(), k, &mut vec[start..]);
    plain.clear();
}

/// Check a page of `k`-byte values against `num_values`; returns `N`.
fn check_page(page: &[u8], k: usize, num_values: usize) -> Result<usize> {
    if !page.len().is_multiple_of(k) {
        return Err(EncodingError::Corrupt(format!(
            "BYTE_STREAM_SPLIT page of {} bytes is not a whole number of {k}-byte values",
            page.len()
        )));
    }
    let n = page.len() / k;
    if n != num_values {
        return Err(EncodingError::InvalidValueCount {
            requested: num_values,
            available: n,
        });
    }
    Ok(n)
}

/// BYTE_STREAM_SPLIT encoder for `f32`, `f64`, `i32` and `i64`.
///
/// ```
/// use strata_encoding::{ByteStreamSplitEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = ByteStreamSplitEncoder::<i32>::new();
/// enc.put(&[0x0403_0201, 0x0807_0605]).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert_eq!(page.as_slice(), &[1, 5, 2, 6, 3, 7, 4, 8]);
/// ```
#[derive(Debug)]
pub struct ByteStreamSplitEncoder<T: ByteStreamSplitValue> {
    plain: ByteSink,
    count: usize,
    _type: PhantomData<fn(T)>,
}

impl<T: ByteStreamSplitValue> Default for ByteStreamSplitEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: ByteStreamSplitValue> ByteStreamSplitEncoder<T> {
    /// A new encoder; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            plain: ByteSink::new(),
            count: 0,
            _type: PhantomData,
        }
    }
}

impl<T: ByteStreamSplitValue> Encoder<T> for ByteStreamSplitEncoder<T> {
    fn put(&mut self, values: &[T]) -> Result<()> {
        let bytes = values
            .len()
            .checked_mul(T::WIDTH)
            .ok_or_else(|| EncodingError::InvalidArgument("batch too large".into()))?;
        let start = self.plain.len();
        let vec = self.plain.as_mut_vec();
        vec.resize(start + bytes, 0);
        T::encode_plain(values, &mut vec[start..]);
        self.count += values.len();
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        flush_streams(&mut self.plain, T::WIDTH, page);
        self.count = 0;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.count
    }

    fn estimated_size(&self) -> usize {
        self.plain.len()
    }

    fn heap_size(&self) -> usize {
        self.plain.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::ByteStreamSplit
    }
}

/// BYTE_STREAM_SPLIT decoder for `f32`, `f64`, `i32` and `i64`.
///
/// ```
/// use strata_encoding::{ByteStreamSplitDecoder, Decoder};
///
/// let mut dec = ByteStreamSplitDecoder::<i32>::new();
/// dec.set_data(&[1, 5, 2, 6, 3, 7, 4, 8], 2).unwrap();
/// let mut out = [0i32; 2];
/// dec.decode(&mut out, 2).unwrap();
/// assert_eq!(out, [0x0403_0201, 0x0807_0605]);
/// ```
#[derive(Debug)]
pub struct ByteStreamSplitDecoder<'a, T: ByteStreamSplitValue> {
    data: &'a [u8],
    stride: usize,
    pos: usize,
    _type: PhantomData<fn() -> T>,
}

impl<T: ByteStreamSplitValue> Default for ByteStreamSplitDecoder<'_, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: ByteStreamSplitValue> ByteStreamSplitDecoder<'_, T> {
    /// A decoder with no page yet.
    pub const fn new() -> Self {
        Self {
            data: &[],
            stride: 0,
            pos: 0,
            _type: PhantomData,
        }
    }
}

impl<'a, T: ByteStreamSplitValue> Decoder<'a, T> for ByteStreamSplitDecoder<'a, T> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.data = &[];
        self.stride = 0;
        self.pos = 0;
        self.stride = check_page(page, T::WIDTH, num_values)?;
        self.data = page;
        Ok(())
    }

    fn values_left(&self) -> usize {
        self.stride - self.pos
    }

    fn decode(&mut self, out: &mut [T], max_values: usize) -> Result<usize> {
        let n = max_values.min(out.len()).min(self.values_left());
        let mut tmp = [0u8; GATHER_BATCH * 8];
        for chunk in out[..n].chunks_mut(GATHER_BATCH) {
            let c = chunk.len();
            let bytes = &mut tmp[..c * T::WIDTH];
            gather(self.data, T::WIDTH, self.stride, self.pos, c, bytes);
            T::decode_plain(bytes, chunk);
            self.pos += c;
        }
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.values_left());
        self.pos += n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::ByteStreamSplit
    }
}

/// BYTE_STREAM_SPLIT encoder for fixed-length byte arrays of one width.
///
/// ```
/// use strata_encoding::{ByteStreamSplitFixedLenEncoder, Encoder, FixedLenBatch};
/// use strata_sink::ByteSink;
///
/// let mut enc = ByteStreamSplitFixedLenEncoder::new(3).unwrap();
/// enc.put(FixedLenBatch::new(3, b"abcxyz").unwrap()).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert_eq!(page.as_slice(), b"axbycz");
/// ```
#[derive(Debug)]
pub struct ByteStreamSplitFixedLenEncoder {
    width: usize,
    plain: ByteSink,
}

impl ByteStreamSplitFixedLenEncoder {
    /// A new encoder of `width`-byte values (positive); no heap memory until
    /// the first value.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self {
            width,
            plain: ByteSink::new(),
        })
    }
}

impl Encoder<FixedLenByteArray> for ByteStreamSplitFixedLenEncoder {
    fn put(&mut self, values: FixedLenBatch<'_>) -> Result<()> {
        check_batch_width(&values, self.width)?;
        self.plain.extend_from_slice(values.bytes());
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        flush_streams(&mut self.plain, self.width, page);
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.plain.len() / self.width
    }

    fn estimated_size(&self) -> usize {
        self.plain.len()
    }

    fn heap_size(&self) -> usize {
        self.plain.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::ByteStreamSplit
    }
}

/// BYTE_STREAM_SPLIT decoder for fixed-length byte arrays of one width.
///
/// ```
/// use strata_encoding::{ByteStreamSplitFixedLenDecoder, Decoder, FixedLenByteArrayBuffer};
///
/// let mut dec = ByteStreamSplitFixedLenDecoder::new(3).unwrap();
/// dec.set_data(b"axbycz", 2).unwrap();
/// let mut out = FixedLenByteArrayBuffer::new(3);
/// dec.decode(&mut out, 2).unwrap();
/// assert_eq!(out.values(), b"abcxyz");
/// ```
#[derive(Debug)]
pub struct ByteStreamSplitFixedLenDecoder<'a> {
    width: usize,
    data: &'a [u8],
    stride: usize,
    pos: usize,
}

impl ByteStreamSplitFixedLenDecoder<'_> {
    /// A decoder of `width`-byte values (positive) with no page yet.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self {
            width,
            data: &[],
            stride: 0,
            pos: 0,
        })
    }
}

impl<'a> Decoder<'a, FixedLenByteArray> for ByteStreamSplitFixedLenDecoder<'a> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.data = &[];
        self.stride = 0;
        self.pos = 0;
        self.stride = check_page(page, self.width, num_values)?;
        self.data = page;
        Ok(())
    }

    fn values_left(&self) -> usize {
        self.stride - self.pos
    }

    fn decode(&mut self, out: &mut FixedLenByteArrayBuffer, max_values: usize) -> Result<usize> {
        out.check_width(self.width)?;
        let n = max_values.min(self.values_left());
        let vec = out.values_mut();
        let start = vec.len();
        vec.resize(start + n * self.width, 0);
        gather(
            self.data,
            self.width,
            self.stride,
            self.pos,
            n,
            &mut vec[start..],
        );
        self.pos += n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.values_left());
        self.pos += n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::ByteStreamSplit
    }
}
