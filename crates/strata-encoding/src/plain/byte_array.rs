//! PLAIN for BYTE_ARRAY: each value as a 4-byte little-endian length and its
//! bytes.

use std::marker::PhantomData;

use strata_sink::ByteSink;

use crate::error::{EncodingError, Result};
use crate::plain::move_into;
use crate::traits::{Decoder, Encoder};
use crate::types::{ByteArray, ByteArrayBatch, ByteArrayBuffer, OffsetSize, Repr};
use strata_format::metadata::Encoding;

/// The position after the `n` PLAIN byte arrays that start at byte `pos`
/// of `page`; fails if the page ends inside them.
///
/// Each value's position follows from the length before it, so the walk
/// is a chain of loads: the loop reads lengths only and keeps the chain to
/// a load and an add (the bounds checks branch off it). A value's bytes
/// are checked by the next length read, or once at the end. The position
/// is kept as a `u64`, which a 4-byte length added to a position inside
/// the page cannot overflow on any target.
#[inline]
pub(crate) fn skip_plain_byte_arrays(page: &[u8], pos: usize, n: usize) -> Result<usize> {
    let mut at = pos as u64;
    for _ in 0..n {
        let len = usize::try_from(at)
            .ok()
            .and_then(|i| page.get(i..))
            .and_then(|rest| rest.first_chunk::<4>())
            .ok_or(EncodingError::Truncated("byte array length"))?;
        at += 4 + u64::from(u32::from_le_bytes(*len));
    }
    usize::try_from(at)
        .ok()
        .filter(|&end| end <= page.len())
        .ok_or(EncodingError::Truncated("byte array value"))
}

/// PLAIN encoder for byte arrays.
///
/// A batch is written with one size pass, one reservation of the sink
/// ([`ByteSink::reserved_region`]) and direct length-prefixed writes: no
/// capacity check per value. For the Arrow layout the size pass is `O(1)`.
/// [`put_spaced`](Encoder::put_spaced) takes the same path once per run of
/// present values.
///
/// ```
/// use strata_encoding::{ByteArrayBatch, Encoder, PlainByteArrayEncoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = PlainByteArrayEncoder::new();
/// enc.put(ByteArrayBatch::from_offsets(&[0i32, 2, 3], b"abc").unwrap()).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert_eq!(page.as_slice(), &[2, 0, 0, 0, b'a', b'b', 1, 0, 0, 0, b'c']);
/// ```
#[derive(Debug, Default)]
pub struct PlainByteArrayEncoder {
    buf: ByteSink,
    count: usize,
}

impl PlainByteArrayEncoder {
    /// A new encoder; no heap memory until the first value.
    pub const fn new() -> Self {
        Self {
            buf: ByteSink::new(),
            count: 0,
        }
    }
}

fn too_long(len: usize) -> EncodingError {
    EncodingError::InvalidArgument(format!(
        "byte array of {len} bytes does not fit a 4-byte length"
    ))
}

/// Payloads up to this many bytes are appended with one fixed-size copy.
const SHORT_COPY: usize = 32;

/// Append the PLAIN encoding of the Arrow-layout values to `out`: `size`
/// bytes in all (computed by the caller).
///
/// One reservation, then each value appended at the end: its 4-byte length,
/// then its payload. A payload of up to [`SHORT_COPY`] bytes whose source has
/// that many bytes left is appended as a fixed [`SHORT_COPY`] bytes and cut
/// back to its length: a pair of vector moves where a copy of a run-time
/// length is a call to `memcpy`, and no zero fill of the region first.
#[inline]
fn put_offsets<O: OffsetSize>(out: &mut Vec<u8>, size: usize, offsets: &[O], values: &[u8]) {
    out.reserve(size + SHORT_COPY);
    for (s, e) in offsets.iter().zip(&offsets[1..]) {
        let (s, e) = (s.as_usize(), e.as_usize());
        let len = e - s;
        out.extend_from_slice(&(len as u32).to_le_bytes());
        let at = out.len();
        match values.get(s..).and_then(|t| t.first_chunk::<SHORT_COPY>()) {
            Some(chunk) if len <= SHORT_COPY => {
                out.extend_from_slice(chunk);
                out.truncate(at + len);
            }
            _ => out.extend_from_slice(values.get(s..e).unwrap_or_default()),
        }
    }
}

impl Encoder<ByteArray> for PlainByteArrayEncoder {
    fn put(&mut self, values: ByteArrayBatch<'_>) -> Result<()> {
        let n = values.len();
        let payload = values.total_bytes();
        if payload > u32::MAX as usize {
            // Only then can a single value be too long: check each one.
            values.try_for_each_len(|len| {
                if len > u32::MAX as usize {
                    Err(too_long(len))
                } else {
                    Ok(())
                }
            })?;
        }
        let size = n
            .checked_mul(4)
            .and_then(|x| x.checked_add(payload))
            .ok_or_else(|| EncodingError::InvalidArgument("batch too large".into()))?;
        match values.repr() {
            Repr::Offsets32(o, v) => put_offsets(self.buf.as_mut_vec(), size, o, v),
            Repr::Offsets64(o, v) => put_offsets(self.buf.as_mut_vec(), size, o, v),
            Repr::Slices(s) => {
                let mut region = self.buf.reserved_region(size);
                for v in s {
                    region.put_len_prefixed(v);
                }
            }
        }
        self.count += n;
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

/// PLAIN decoder for byte arrays, appending to a [`ByteArrayBuffer`] with
/// offsets of type `O`.
///
/// Each value is bounds-checked against the page; `set_data` refuses a
/// count whose 4-byte lengths alone would not fit.
///
/// ```
/// use strata_encoding::{ByteArrayBuffer, Decoder, PlainByteArrayDecoder};
///
/// let page = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0];
/// let mut dec = PlainByteArrayDecoder::new();
/// dec.set_data(&page, 2).unwrap();
/// let mut out = ByteArrayBuffer::new();
/// assert_eq!(dec.decode(&mut out, 10).unwrap(), 2);
/// assert_eq!(out.value(0), Some(&b"hi"[..]));
/// assert_eq!(out.value(1), Some(&b""[..]));
/// ```
#[derive(Debug)]
pub struct PlainByteArrayDecoder<'a, O: OffsetSize = i32> {
    data: &'a [u8],
    pos: usize,
    left: usize,
    _offsets: PhantomData<fn() -> O>,
}

impl<O: OffsetSize> Default for PlainByteArrayDecoder<'_, O> {
    fn default() -> Self {
        Self {
            data: &[],
            pos: 0,
            left: 0,
            _offsets: PhantomData,
        }
    }
}

impl PlainByteArrayDecoder<'_, i32> {
    /// A decoder with `i32` offsets and no page yet
    /// (`PlainByteArrayDecoder::<i64>::default()` for 64-bit offsets).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<'a, O: OffsetSize> PlainByteArrayDecoder<'a, O> {
    /// Bytes of the page read so far (the values decoded or skipped, with
    /// their lengths): where the next value starts.
    ///
    /// ```
    /// use strata_encoding::{ByteArrayBuffer, Decoder, PlainByteArrayDecoder};
    ///
    /// let page = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0];
    /// let mut dec = PlainByteArrayDecoder::new();
    /// dec.set_data(&page, 2).unwrap();
    /// dec.decode(&mut ByteArrayBuffer::new(), 1).unwrap();
    /// assert_eq!(dec.position(), 6);
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a, O: OffsetSize> Decoder<'a, ByteArray<O>> for PlainByteArrayDecoder<'a, O> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        // Every value takes at least its 4-byte length.
        if num_values.checked_mul(4).is_none_or(|n| n > page.len()) {
            self.data = &[];
            self.left = 0;
            return Err(EncodingError::InvalidValueCount {
                requested: num_values,
                available: page.len() / 4,
            });
        }
        self.data = page;
        self.pos = 0;
        self.left = num_values;
        Ok(())
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut ByteArrayBuffer<O>, max_values: usize) -> Result<usize> {
        let n = max_values.min(self.left);
        let rest = self.data.get(self.pos..).unwrap_or_default();
        self.pos += out.extend_plain(rest, n, self.left)?;
        self.left -= n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        // Each value's position follows from the length before it: the
        // loop reads lengths only, and checks the values' bytes once, at
        // the end (a length past the page ends the next read or the check).
        self.pos = skip_plain_byte_arrays(self.data, self.pos, n)?;
        self.left -= n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: each value's length and bytes, appended one by one.
    fn reference(values: &[Vec<u8>]) -> Vec<u8> {
        let mut out = Vec::new();
        for v in values {
            out.extend_from_slice(&(v.len() as u32).to_le_bytes());
            out.extend_from_slice(v);
        }
        out
    }

    fn arrow_layout<O: OffsetSize>(values: &[Vec<u8>]) -> (Vec<O>, Vec<u8>) {
        let mut offsets = vec![O::ZERO];
        let mut bytes = Vec::new();
        for v in values {
            bytes.extend_from_slice(v);
            offsets.push(O::from_usize(bytes.len()).unwrap());
        }
        (offsets, bytes)
    }

    fn encode(batches: &[ByteArrayBatch<'_>]) -> Vec<u8> {
        let mut enc = PlainByteArrayEncoder::new();
        for b in batches {
            enc.put(*b).unwrap();
        }
        let mut page = ByteSink::new();
        enc.flush_into(&mut page).unwrap();
        page.into_vec()
    }

    #[test]
    fn fixed_copies_at_every_length_and_at_the_end_of_the_source() {
        // Lengths 0..=40 around the 16- and 32-byte copies, the longest last
        // so the final values have no source slack.
        let values: Vec<Vec<u8>> = (0..=40u8)
            .map(|n| (0..n).map(|i| n ^ i).collect())
            .collect();
        let (o32, b32) = arrow_layout::<i32>(&values);
        let (o64, b64) = arrow_layout::<i64>(&values);
        let want = reference(&values);
        assert_eq!(
            encode(&[ByteArrayBatch::from_offsets(&o32, &b32).unwrap()]),
            want
        );
        assert_eq!(
            encode(&[ByteArrayBatch::from_offsets(&o64, &b64).unwrap()]),
            want
        );
        // Reversed: short values at the end of the source.
        let rev: Vec<Vec<u8>> = values.iter().rev().cloned().collect();
        let (o, b) = arrow_layout::<i32>(&rev);
        assert_eq!(
            encode(&[ByteArrayBatch::from_offsets(&o, &b).unwrap()]),
            reference(&rev)
        );
    }

    #[test]
    fn a_page_that_ends_inside_a_batch_appends_nothing() {
        let values: Vec<Vec<u8>> = (0..40u8).map(|i| vec![i; usize::from(i % 37)]).collect();
        let page = reference(&values);
        let mut out = ByteArrayBuffer::<i32>::new();
        out.push(b"kept").unwrap();
        for cut in [page.len() - 1, page.len() - 36, 200] {
            let mut dec = PlainByteArrayDecoder::new();
            dec.set_data(&page[..cut], 40).unwrap();
            let before = out.clone();
            assert!(dec.decode(&mut out, 40).is_err(), "cut at {cut}");
            assert_eq!(out, before, "cut at {cut}");
        }
        // The whole page decodes, in batches that split it anywhere.
        let mut dec = PlainByteArrayDecoder::new();
        dec.set_data(&page, 40).unwrap();
        let mut out = ByteArrayBuffer::<i32>::new();
        for batch in [1, 7, 32] {
            dec.decode(&mut out, batch).unwrap();
        }
        assert_eq!(
            out.iter().collect::<Vec<_>>(),
            values.iter().map(Vec::as_slice).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_count_past_the_page_fails_and_appends_nothing() {
        let values = [b"ab".to_vec(), vec![7; 40], b"c".to_vec()];
        let page = reference(&values);
        let mut out = ByteArrayBuffer::<i32>::new();
        out.push(b"kept").unwrap();
        let before = out.clone();
        // More values than 4-byte lengths fit: refused before any sizing.
        assert!(out.extend_plain(&page, page.len() / 4 + 1, 0).is_err());
        assert!(out.extend_plain(&page, usize::MAX, 0).is_err());
        // A count the page could hold but does not: the fourth length is
        // missing, after a short value, a long one and a short one.
        assert!(out.extend_plain(&page, 4, 4).is_err());
        assert_eq!(out, before);
        assert_eq!(out.extend_plain(&page, 3, 3).unwrap(), page.len());
        let mut want: Vec<&[u8]> = vec![b"kept"];
        want.extend(values.iter().map(Vec::as_slice));
        assert_eq!(out.iter().collect::<Vec<_>>(), want);
    }

    /// The bytes are reserved as the batch's share of the page: values
    /// longer than their share (the long ones first) grow the buffer to
    /// the share of what is left, once, not value by value; shorter ones
    /// leave it at about its share.
    #[test]
    fn skips_land_where_decoding_would_and_stop_at_a_truncated_page() {
        let values: Vec<Vec<u8>> = (0..50).map(|i| vec![b'v'; i % 7]).collect();
        let page = reference(&values);
        for n in [0, 1, 7, 49, 50] {
            let mut skipping = PlainByteArrayDecoder::<i32>::new();
            skipping.set_data(&page, 50).unwrap();
            assert_eq!(skipping.skip(n).unwrap(), n);
            let mut decoding = PlainByteArrayDecoder::<i32>::new();
            decoding.set_data(&page, 50).unwrap();
            decoding.decode(&mut ByteArrayBuffer::new(), n).unwrap();
            assert_eq!(skipping.position(), decoding.position(), "after {n}");
            assert_eq!(skipping.values_left(), 50 - n);
        }
        // A page cut inside the last value's length (49 whole values
        // left), and inside the value before's bytes (48 left).
        for (cut, whole) in [(page.len() - 1, 49), (page.len() - 5, 48)] {
            let mut dec = PlainByteArrayDecoder::<i32>::new();
            dec.set_data(&page[..cut], whole).unwrap();
            assert_eq!(dec.skip(whole).unwrap(), whole);
            let mut dec = PlainByteArrayDecoder::<i32>::new();
            dec.set_data(&page[..cut], whole + 1).unwrap();
            assert!(dec.skip(whole + 1).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn a_batch_reserves_its_share_and_grows_once_past_it() {
        let values: Vec<Vec<u8>> = (0..200)
            .map(|i| {
                if i < 100 {
                    vec![i as u8; 100]
                } else {
                    vec![i as u8; 1]
                }
            })
            .collect();
        let page = reference(&values);
        let mut dec = PlainByteArrayDecoder::<i32>::new();
        dec.set_data(&page, 200).unwrap();
        // The first 100 values are longer than their share (about half
        // of the 10,100 payload bytes): read right all the same.
        let mut out = ByteArrayBuffer::<i32>::new();
        dec.decode(&mut out, 100).unwrap();
        assert_eq!(
            out.iter().collect::<Vec<_>>(),
            values[..100].iter().map(Vec::as_slice).collect::<Vec<_>>()
        );
        assert_eq!(out.values().len(), 10_000);
        // The last 100 take about their share: 100 bytes, a little over.
        let mut out = ByteArrayBuffer::<i32>::new();
        dec.decode(&mut out, 100).unwrap();
        assert_eq!(
            out.iter().collect::<Vec<_>>(),
            values[100..].iter().map(Vec::as_slice).collect::<Vec<_>>()
        );
        assert!(
            out.bytes_capacity() < 100 + 100 / 64 + 2 * strata_sink::append::OVERCOPY,
            "{}",
            out.bytes_capacity()
        );
    }

    proptest! {
        #[test]
        fn arrow_layout_matches_reference(
            // Up to 700 values of up to 48 bytes: the fixed-size copies
            // and the exact ones, and values near the end of their source.
            values in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..48), 0..700),
            split in 0usize..700,
        ) {
            let (offsets, bytes) = arrow_layout::<i32>(&values);
            let batch = ByteArrayBatch::from_offsets(&offsets, &bytes).unwrap();
            let split = split.min(values.len());
            // Two puts into one encoder; the second batch's offsets do not
            // start at zero.
            let first = crate::types::ValueBatch::slice(&batch, 0, split).unwrap();
            let second = crate::types::ValueBatch::slice(&batch, split, values.len()).unwrap();
            prop_assert_eq!(encode(&[first, second]), reference(&values));
            let slices: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(encode(&[ByteArrayBatch::from_slices(&slices)]), reference(&values));
        }
    }
}
