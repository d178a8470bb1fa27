//! DELTA_LENGTH_BYTE_ARRAY (encoding id 6) for BYTE_ARRAY: all lengths as one
//! DELTA_BINARY_PACKED stream of `i32`, then all value bytes back to back.
//!
//! The decoder finds where the bytes start by walking the length stream's
//! block headers once (no unpacking, no allocation), then decodes lengths in
//! stack-sized chunks and copies each chunk's bytes with one copy into the
//! output's values buffer.

use std::marker::PhantomData;

use strata_sink::ByteSink;

use crate::delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder};
use crate::error::{EncodingError, Result};
use crate::traits::{Decoder, Encoder};
use crate::types::{ByteArray, ByteArrayBatch, ByteArrayBuffer, OffsetSize};
use strata_format::metadata::Encoding;

/// Lengths decoded per step (a stack buffer).
pub(crate) const LENGTH_CHUNK: usize = 256;

fn length_to_i32(len: usize) -> Result<i32> {
    i32::try_from(len).map_err(|_| {
        EncodingError::InvalidArgument(format!("byte array of {len} bytes is longer than i32::MAX"))
    })
}

/// DELTA_LENGTH_BYTE_ARRAY encoder.
///
/// ```
/// use strata_encoding::{ByteArrayBatch, DeltaLengthByteArrayEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaLengthByteArrayEncoder::new();
/// enc.put(ByteArrayBatch::from_slices(&[b"ab", b"cde"])).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert!(page.as_slice().ends_with(b"abcde"));
/// ```
#[derive(Debug, Default)]
pub struct DeltaLengthByteArrayEncoder {
    lengths: DeltaBinaryPackedEncoder<i32>,
    data: ByteSink,
}

impl DeltaLengthByteArrayEncoder {
    /// A new encoder; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            lengths: DeltaBinaryPackedEncoder::new(),
            data: ByteSink::new(),
        }
    }

    /// Buffer one value.
    #[inline]
    pub(crate) fn push(&mut self, value: &[u8]) -> Result<()> {
        self.lengths.push(length_to_i32(value.len())?);
        self.data.extend_from_slice(value);
        Ok(())
    }
}

impl Encoder<ByteArray> for DeltaLengthByteArrayEncoder {
    fn put(&mut self, values: ByteArrayBatch<'_>) -> Result<()> {
        // Check every length first so a failure leaves the encoder unchanged.
        values.try_for_each_len(|len| length_to_i32(len).map(|_| ()))?;
        values.try_for_each_len(|len| {
            self.lengths.push(len as i32);
            Ok(())
        })?;
        match values.contiguous_bytes() {
            Some(bytes) => self.data.extend_from_slice(bytes),
            None => {
                self.data.reserve(values.total_bytes());
                values.try_for_each(|v| {
                    self.data.extend_from_slice(v);
                    Ok(())
                })?;
            }
        }
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        self.lengths.flush_into(page)?;
        page.extend_from_slice(self.data.as_slice());
        self.data.clear();
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.lengths.num_values()
    }

    fn estimated_size(&self) -> usize {
        self.lengths.estimated_size() + self.data.len()
    }

    fn heap_size(&self) -> usize {
        self.lengths.heap_size() + self.data.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaLengthByteArray
    }
}

/// The lengths stream and the bytes after it: the shared core of the
/// DELTA_LENGTH_BYTE_ARRAY decoder and the suffixes of DELTA_BYTE_ARRAY.
#[derive(Debug, Default)]
pub(crate) struct LengthPrefixedStream<'a> {
    pub(crate) lengths: DeltaBinaryPackedDecoder<'a, i32>,
    data: &'a [u8],
    pos: usize,
}

impl<'a> LengthPrefixedStream<'a> {
    pub(crate) const fn new() -> Self {
        Self {
            lengths: DeltaBinaryPackedDecoder::new(),
            data: &[],
            pos: 0,
        }
    }

    pub(crate) fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.data = &[];
        self.pos = 0;
        self.lengths.set_data(page, num_values)?;
        let end = self.lengths.stream_end()?;
        self.data = page.get(end..).unwrap_or(&[]);
        Ok(())
    }

    /// Value bytes not yet consumed.
    pub(crate) fn remaining_bytes(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Decode exactly `out.len()` lengths.
    #[inline]
    pub(crate) fn next_lengths(&mut self, out: &mut [i32]) -> Result<()> {
        let n = out.len();
        if self.lengths.decode(out, n)? != n {
            return Err(EncodingError::Truncated("byte array lengths"));
        }
        Ok(())
    }

    /// The next `len` bytes (`len` from the lengths stream, checked here).
    #[inline]
    pub(crate) fn take(&mut self, len: i32) -> Result<&'a [u8]> {
        let len = usize::try_from(len)
            .map_err(|_| EncodingError::Corrupt(format!("negative byte array length {len}")))?;
        self.take_bytes(len)
    }

    /// The next `len` bytes.
    #[inline]
    pub(crate) fn take_bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        let bytes = self
            .data
            .get(self.pos..self.pos.saturating_add(len))
            .ok_or(EncodingError::Truncated("byte array data"))?;
        self.pos += len;
        Ok(bytes)
    }

    /// Sum of `lens`, each checked to be non-negative.
    #[inline]
    fn total(lens: &[i32]) -> Result<usize> {
        let mut total = 0usize;
        for &l in lens {
            let l = usize::try_from(l)
                .map_err(|_| EncodingError::Corrupt(format!("negative byte array length {l}")))?;
            total += l;
        }
        Ok(total)
    }
}

/// DELTA_LENGTH_BYTE_ARRAY decoder, appending to a [`ByteArrayBuffer`] with
/// offsets of type `O` (`DeltaLengthByteArrayDecoder::<i64>::default()` for
/// 64-bit offsets).
///
/// ```
/// use strata_encoding::{ByteArrayBatch, ByteArrayBuffer, Decoder, DeltaLengthByteArrayDecoder,
///     DeltaLengthByteArrayEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaLengthByteArrayEncoder::new();
/// enc.put(ByteArrayBatch::from_slices(&[b"Hello", b"World"])).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
///
/// let mut dec = DeltaLengthByteArrayDecoder::new();
/// dec.set_data(page.as_slice(), 2).unwrap();
/// let mut out = ByteArrayBuffer::new();
/// dec.decode(&mut out, 2).unwrap();
/// assert_eq!(out.values(), b"HelloWorld");
/// assert_eq!(out.offsets(), &[0, 5, 10]);
/// ```
#[derive(Debug)]
pub struct DeltaLengthByteArrayDecoder<'a, O: OffsetSize = i32> {
    stream: LengthPrefixedStream<'a>,
    _offsets: PhantomData<fn() -> O>,
}

impl<O: OffsetSize> Default for DeltaLengthByteArrayDecoder<'_, O> {
    fn default() -> Self {
        Self {
            stream: LengthPrefixedStream::new(),
            _offsets: PhantomData,
        }
    }
}

impl DeltaLengthByteArrayDecoder<'_, i32> {
    /// A decoder with `i32` offsets and no page yet.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<'a, O: OffsetSize> Decoder<'a, ByteArray<O>> for DeltaLengthByteArrayDecoder<'a, O> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.stream.set_data(page, num_values)
    }

    fn values_left(&self) -> usize {
        self.stream.lengths.values_left()
    }

    fn decode(&mut self, out: &mut ByteArrayBuffer<O>, max_values: usize) -> Result<usize> {
        let n = max_values.min(self.values_left());
        out.start();
        // Zero-length values take no page bytes, so the count alone does not
        // bound the output: reserve no more than the page could justify and
        // let the buffer grow as values are actually produced.
        out.reserve(n.min(self.stream.remaining_bytes() + LENGTH_CHUNK), 0);
        let mut lens = [0i32; LENGTH_CHUNK];
        let mut done = 0;
        while done < n {
            let c = (n - done).min(LENGTH_CHUNK);
            let lens = &mut lens[..c];
            self.stream.next_lengths(lens)?;
            let total = LengthPrefixedStream::total(lens)?;
            let bytes = self.stream.take_bytes(total)?;
            let mut end = out.values().len();
            out.values_mut().extend_from_slice(bytes);
            for &l in lens.iter() {
                end += l as usize;
                out.commit_end(end)?;
            }
            done += c;
        }
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.values_left());
        let mut lens = [0i32; LENGTH_CHUNK];
        let mut done = 0;
        while done < n {
            let c = (n - done).min(LENGTH_CHUNK);
            let lens = &mut lens[..c];
            self.stream.next_lengths(lens)?;
            let total = LengthPrefixedStream::total(lens)?;
            self.stream.take_bytes(total)?;
            done += c;
        }
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaLengthByteArray
    }
}
