//! DELTA_BYTE_ARRAY (encoding id 7), also called incremental or front
//! coding, for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: for each value, the
//! length of the prefix it shares with the previous value, then the rest.
//!
//! ```text
//! <prefix lengths: DELTA_BINARY_PACKED> <suffixes: DELTA_LENGTH_BYTE_ARRAY>
//! ```
//!
//! Both sides keep the previous value in a scratch vector that is allocated
//! on first need and reused; an idle encoder holds no heap memory.

use std::marker::PhantomData;

use strata_sink::ByteSink;

use crate::delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder};
use crate::delta_length_byte_array::{
    DeltaLengthByteArrayEncoder, LENGTH_CHUNK, LengthPrefixedStream,
};
use crate::error::{EncodingError, Result};
use crate::plain::fixed_len::{check_batch_width, check_width};
use crate::traits::{Decoder, Encoder};
use crate::types::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, FixedLenBatch, FixedLenByteArray,
    FixedLenByteArrayBuffer, OffsetSize,
};
use strata_format::metadata::Encoding;

/// Length of the common prefix of `a` and `b`.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let max = a.len().min(b.len());
    let (a, b) = (&a[..max], &b[..max]);
    let mut i = 0;
    // Eight bytes at a time, then bytewise.
    let (ca, _) = a.as_chunks::<8>();
    let (cb, _) = b.as_chunks::<8>();
    for (x, y) in ca.iter().zip(cb) {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..]
        .iter()
        .zip(&b[i..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// DELTA_BYTE_ARRAY encoder for byte arrays and fixed-length byte arrays.
///
/// ```
/// use strata_encoding::{ByteArrayBatch, DeltaByteArrayEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaByteArrayEncoder::new();
/// assert_eq!(enc.heap_size(), 0);
/// enc.put(ByteArrayBatch::from_slices(&[b"axis", b"axle", b"babble", b"babyhood"])).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert!(page.as_slice().ends_with(b"axislebabbleyhood"));
/// ```
#[derive(Debug, Default)]
pub struct DeltaByteArrayEncoder {
    prefixes: DeltaBinaryPackedEncoder<i32>,
    suffixes: DeltaLengthByteArrayEncoder,
    last: Vec<u8>,
}

impl DeltaByteArrayEncoder {
    /// A new encoder; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            prefixes: DeltaBinaryPackedEncoder::new(),
            suffixes: DeltaLengthByteArrayEncoder::new(),
            last: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, value: &[u8]) -> Result<()> {
        if i32::try_from(value.len()).is_err() {
            return Err(EncodingError::InvalidArgument(format!(
                "byte array of {} bytes is longer than i32::MAX",
                value.len()
            )));
        }
        let p = common_prefix(&self.last, value);
        self.prefixes.push(p as i32);
        self.suffixes.push(&value[p..])?;
        self.last.clear();
        self.last.extend_from_slice(value);
        Ok(())
    }

    fn flush(&mut self, page: &mut ByteSink) -> Result<()> {
        self.prefixes.flush_into(page)?;
        self.suffixes.flush_into(page)?;
        self.last.clear();
        Ok(())
    }

    fn heap(&self) -> usize {
        self.prefixes.heap_size() + self.suffixes.heap_size() + self.last.capacity()
    }

    fn estimate(&self) -> usize {
        self.prefixes.estimated_size() + self.suffixes.estimated_size()
    }
}

impl Encoder<ByteArray> for DeltaByteArrayEncoder {
    fn put(&mut self, values: ByteArrayBatch<'_>) -> Result<()> {
        values.try_for_each(|v| self.push(v))
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        self.flush(page)
    }

    fn num_values(&self) -> usize {
        self.prefixes.num_values()
    }

    fn estimated_size(&self) -> usize {
        self.estimate()
    }

    fn heap_size(&self) -> usize {
        self.heap()
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaByteArray
    }
}

/// DELTA_BYTE_ARRAY encoder for fixed-length byte arrays of one width.
///
/// ```
/// use strata_encoding::{DeltaByteArrayFixedLenEncoder, Encoder, FixedLenBatch};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaByteArrayFixedLenEncoder::new(2).unwrap();
/// enc.put(FixedLenBatch::new(2, b"aaab").unwrap()).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert!(page.as_slice().ends_with(b"aab"));
/// ```
#[derive(Debug)]
pub struct DeltaByteArrayFixedLenEncoder {
    width: usize,
    inner: DeltaByteArrayEncoder,
}

impl DeltaByteArrayFixedLenEncoder {
    /// A new encoder of `width`-byte values (positive); no heap memory until
    /// the first value.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self {
            width,
            inner: DeltaByteArrayEncoder::new(),
        })
    }
}

impl Encoder<FixedLenByteArray> for DeltaByteArrayFixedLenEncoder {
    fn put(&mut self, values: FixedLenBatch<'_>) -> Result<()> {
        check_batch_width(&values, self.width)?;
        for v in values.bytes().chunks_exact(self.width) {
            self.inner.push(v)?;
        }
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        self.inner.flush(page)
    }

    fn num_values(&self) -> usize {
        self.inner.prefixes.num_values()
    }

    fn estimated_size(&self) -> usize {
        self.inner.estimate()
    }

    fn heap_size(&self) -> usize {
        self.inner.heap()
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaByteArray
    }
}

/// The decoding core shared by both output kinds.
#[derive(Debug, Default)]
struct FrontCodedStream<'a> {
    prefixes: DeltaBinaryPackedDecoder<'a, i32>,
    suffixes: LengthPrefixedStream<'a>,
    /// The previous value (scratch, allocated on first need, reused).
    last: Vec<u8>,
}

impl<'a> FrontCodedStream<'a> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.last.clear();
        self.suffixes = LengthPrefixedStream::new();
        self.prefixes.set_data(page, num_values)?;
        let end = self.prefixes.stream_end()?;
        self.suffixes
            .set_data(page.get(end..).unwrap_or(&[]), num_values)
    }

    fn values_left(&self) -> usize {
        self.prefixes.values_left()
    }

    /// Rebuild up to `n` values, handing each to `emit`.
    #[inline]
    fn decode_with(
        &mut self,
        n: usize,
        mut emit: impl FnMut(&[u8]) -> Result<()>,
    ) -> Result<usize> {
        let n = n.min(self.values_left());
        let mut pre = [0i32; LENGTH_CHUNK];
        let mut suf = [0i32; LENGTH_CHUNK];
        let mut done = 0;
        while done < n {
            let c = (n - done).min(LENGTH_CHUNK);
            let (pre, suf) = (&mut pre[..c], &mut suf[..c]);
            if self.prefixes.decode(pre, c)? != c {
                return Err(EncodingError::Truncated("prefix lengths"));
            }
            self.suffixes.next_lengths(suf)?;
            for (&p, &s) in pre.iter().zip(suf.iter()) {
                let p = usize::try_from(p)
                    .ok()
                    .filter(|&p| p <= self.last.len())
                    .ok_or_else(|| {
                        EncodingError::Corrupt(format!(
                            "prefix length {p} exceeds the previous value's {} bytes",
                            self.last.len()
                        ))
                    })?;
                let suffix = self.suffixes.take(s)?;
                self.last.truncate(p);
                self.last.extend_from_slice(suffix);
                emit(&self.last)?;
            }
            done += c;
        }
        Ok(n)
    }
}

/// DELTA_BYTE_ARRAY decoder for byte arrays, appending to a
/// [`ByteArrayBuffer`] with offsets of type `O`
/// (`DeltaByteArrayDecoder::<i64>::default()` for 64-bit offsets).
///
/// ```
/// use strata_encoding::{ByteArrayBatch, ByteArrayBuffer, Decoder, DeltaByteArrayDecoder,
///     DeltaByteArrayEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaByteArrayEncoder::new();
/// enc.put(ByteArrayBatch::from_slices(&[b"axis", b"axle"])).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
///
/// let mut dec = DeltaByteArrayDecoder::new();
/// dec.set_data(page.as_slice(), 2).unwrap();
/// let mut out = ByteArrayBuffer::new();
/// dec.decode(&mut out, 2).unwrap();
/// assert_eq!(out.value(1), Some(&b"axle"[..]));
/// ```
#[derive(Debug)]
pub struct DeltaByteArrayDecoder<'a, O: OffsetSize = i32> {
    stream: FrontCodedStream<'a>,
    _offsets: PhantomData<fn() -> O>,
}

impl<O: OffsetSize> Default for DeltaByteArrayDecoder<'_, O> {
    fn default() -> Self {
        Self {
            stream: FrontCodedStream::default(),
            _offsets: PhantomData,
        }
    }
}

impl DeltaByteArrayDecoder<'_, i32> {
    /// A decoder with `i32` offsets and no page yet.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<O: OffsetSize> DeltaByteArrayDecoder<'_, O> {
    /// Bytes of heap memory held (the previous-value scratch).
    pub fn heap_size(&self) -> usize {
        self.stream.last.capacity()
    }
}

impl<'a, O: OffsetSize> Decoder<'a, ByteArray<O>> for DeltaByteArrayDecoder<'a, O> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.stream.set_data(page, num_values)
    }

    fn values_left(&self) -> usize {
        self.stream.values_left()
    }

    fn decode(&mut self, out: &mut ByteArrayBuffer<O>, max_values: usize) -> Result<usize> {
        out.start();
        // The count alone does not bound the output (empty suffixes take no
        // bytes): reserve what the page could justify, grow past it on demand.
        let n = max_values.min(self.values_left());
        out.reserve(
            n.min(self.stream.suffixes.remaining_bytes() + LENGTH_CHUNK),
            0,
        );
        self.stream.decode_with(max_values, |v| {
            out.values_mut().extend_from_slice(v);
            out.commit_value()
        })
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        self.stream.decode_with(n, |_| Ok(()))
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaByteArray
    }
}

/// DELTA_BYTE_ARRAY decoder for fixed-length byte arrays of one width; a
/// value of another length is an error.
///
/// ```
/// use strata_encoding::{Decoder, DeltaByteArrayFixedLenDecoder, DeltaByteArrayFixedLenEncoder,
///     Encoder, FixedLenBatch, FixedLenByteArrayBuffer};
/// use strata_sink::ByteSink;
///
/// let mut enc = DeltaByteArrayFixedLenEncoder::new(2).unwrap();
/// enc.put(FixedLenBatch::new(2, b"aaab").unwrap()).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
///
/// let mut dec = DeltaByteArrayFixedLenDecoder::new(2).unwrap();
/// dec.set_data(page.as_slice(), 2).unwrap();
/// let mut out = FixedLenByteArrayBuffer::new(2);
/// dec.decode(&mut out, 2).unwrap();
/// assert_eq!(out.values(), b"aaab");
/// ```
#[derive(Debug)]
pub struct DeltaByteArrayFixedLenDecoder<'a> {
    width: usize,
    stream: FrontCodedStream<'a>,
}

impl DeltaByteArrayFixedLenDecoder<'_> {
    /// A decoder of `width`-byte values (positive) with no page yet.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self {
            width,
            stream: FrontCodedStream::default(),
        })
    }
}

impl<'a> Decoder<'a, FixedLenByteArray> for DeltaByteArrayFixedLenDecoder<'a> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        self.stream.set_data(page, num_values)
    }

    fn values_left(&self) -> usize {
        self.stream.values_left()
    }

    fn decode(&mut self, out: &mut FixedLenByteArrayBuffer, max_values: usize) -> Result<usize> {
        out.check_width(self.width)?;
        let width = self.width;
        self.stream.decode_with(max_values, |v| {
            if v.len() != width {
                return Err(EncodingError::Corrupt(format!(
                    "value of {} bytes in a {width}-byte FIXED_LEN_BYTE_ARRAY column",
                    v.len()
                )));
            }
            out.values_mut().extend_from_slice(v);
            Ok(())
        })
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        self.stream.decode_with(n, |_| Ok(()))
    }

    fn encoding(&self) -> Encoding {
        Encoding::DeltaByteArray
    }
}

#[cfg(test)]
mod tests {
    use super::common_prefix;

    #[test]
    fn common_prefix_lengths() {
        assert_eq!(common_prefix(b"", b"abc"), 0);
        assert_eq!(common_prefix(b"axis", b"axle"), 2);
        assert_eq!(common_prefix(b"abcdefghij", b"abcdefghiX"), 9);
        assert_eq!(common_prefix(b"abcdefghij", b"abcdefgh"), 8);
        assert_eq!(common_prefix(b"abcdefgXij", b"abcdefghij"), 7);
        assert_eq!(common_prefix(b"same", b"same"), 4);
    }
}
