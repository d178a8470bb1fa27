//! The [`Encoder`] and [`Decoder`] traits every encoding implements.

use strata_sink::ByteSink;

use crate::error::{EncodingError, Result};
use crate::types::{DecodeTarget, ValueBatch, ValueType};
use crate::validity::{SetRuns, check_bitmap, count_set};
use strata_format::metadata::Encoding;

/// Encodes values of type `T` into the values section of data pages.
///
/// Values are buffered with [`put`](Self::put) /
/// [`put_spaced`](Self::put_spaced); [`flush_into`](Self::flush_into) appends
/// the encoded bytes of everything buffered to a page and resets the encoder
/// for the next page (keeping its allocations for reuse). A freshly built
/// encoder holds no heap memory.
pub trait Encoder<T: ValueType> {
    /// Buffer every value of `values`.
    fn put(&mut self, values: T::Batch<'_>) -> Result<()>;

    /// Buffer the present values of a spaced batch.
    ///
    /// `values` has one slot per row, nulls included (their contents are
    /// ignored); bit `validity_offset + i` of the LSB-first `validity`
    /// bitmap is set when slot `i` holds a value. Only present values are
    /// encoded: Parquet pages carry no placeholder for nulls. The default
    /// implementation hands each run of present values to
    /// [`put`](Self::put), so the batch path serves both.
    fn put_spaced(
        &mut self,
        values: T::Batch<'_>,
        validity: &[u8],
        validity_offset: usize,
    ) -> Result<()> {
        let n = values.len();
        check_bitmap(validity, validity_offset, n)?;
        for (start, len) in SetRuns::new(validity, validity_offset, n) {
            let run = values
                .slice(start, start + len)
                .ok_or_else(|| EncodingError::InvalidArgument("run outside batch".into()))?;
            self.put(run)?;
        }
        Ok(())
    }

    /// Append the encoded bytes of every buffered value to `page` and reset
    /// for the next page.
    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()>;

    /// Number of values buffered since the last flush.
    fn num_values(&self) -> usize;

    /// Bytes [`flush_into`](Self::flush_into) would write now (exact for
    /// PLAIN and BYTE_STREAM_SPLIT, an upper bound for the delta encodings).
    fn estimated_size(&self) -> usize;

    /// Bytes of heap memory the encoder holds.
    fn heap_size(&self) -> usize;

    /// The encoding this encoder writes.
    fn encoding(&self) -> Encoding;
}

/// Decodes values of type `T` from the values section of one data page at a
/// time.
///
/// [`set_data`](Self::set_data) hands over a page and the number of values
/// it holds and validates what can be validated up front (lengths, headers);
/// then [`decode`](Self::decode), [`decode_spaced`](Self::decode_spaced) and
/// [`skip`](Self::skip) consume values in order. Malformed pages give an
/// [`EncodingError`], never a panic.
pub trait Decoder<'a, T: ValueType> {
    /// Start decoding `page`, which holds `num_values` encoded values (the
    /// non-null values of the page: Parquet pages carry no nulls).
    ///
    /// Fails if the page cannot hold that many values (where the encoding
    /// makes that knowable) or if its header is malformed.
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()>;

    /// Values not yet decoded or skipped.
    fn values_left(&self) -> usize;

    /// Decode up to `max_values` values into `out` and return how many were
    /// decoded (fewer only when the page runs out; a slice `out` also bounds
    /// the count by its length). Byte-array outputs are appended to.
    fn decode(&mut self, out: &mut T::Out, max_values: usize) -> Result<usize>;

    /// Decode `num_slots` slots, of which `null_count` are null, into `out`:
    /// slot `i` is present when bit `validity_offset + i` of the LSB-first
    /// `validity` bitmap is set, and null slots get a zero / empty value.
    ///
    /// When `null_count == 0` this is exactly [`decode`](Self::decode): the
    /// bitmap is not read at all (the dense path). Otherwise the present
    /// values are decoded densely and then moved to their slots in place.
    /// Returns the number of slots written.
    fn decode_spaced(
        &mut self,
        out: &mut T::Out,
        num_slots: usize,
        validity: &[u8],
        validity_offset: usize,
        null_count: usize,
    ) -> Result<usize> {
        if null_count == 0 {
            return self.decode(out, num_slots);
        }
        if null_count > num_slots {
            return Err(EncodingError::InvalidArgument(format!(
                "null count {null_count} exceeds {num_slots} slots"
            )));
        }
        check_bitmap(validity, validity_offset, num_slots)?;
        let present = num_slots - null_count;
        let set = count_set(validity, validity_offset, num_slots);
        if set != present {
            return Err(EncodingError::InvalidArgument(format!(
                "validity bitmap has {set} set bits but {present} values are present"
            )));
        }
        if present > self.values_left() {
            return Err(EncodingError::InvalidValueCount {
                requested: present,
                available: self.values_left(),
            });
        }
        let mark = out.begin_spaced(num_slots)?;
        let got = self.decode(out, present)?;
        if got != present {
            return Err(EncodingError::Truncated("present values"));
        }
        out.finish_spaced(mark, present, num_slots, validity, validity_offset)?;
        Ok(num_slots)
    }

    /// Skip up to `n` values and return how many were skipped.
    fn skip(&mut self, n: usize) -> Result<usize>;

    /// The encoding this decoder reads.
    fn encoding(&self) -> Encoding;
}
