//! `Utf8View` and `BinaryView` output, built directly.
//!
//! A view array holds one 16-byte view per slot: strings of up to 12
//! bytes inline, longer ones as their length, first four bytes, and a
//! buffer index and offset into a data buffer the array shares. The record
//! reader makes the views of a batch (`read_records_views`, through the
//! encoding layer's value seam) and names the buffers they point into:
//!
//! - entries of the chunk's dictionary: the dictionary's entries become
//!   views once per chunk, and each index decoded from a page is turned
//!   straight into its entry's view; the dictionary's bytes are a buffer
//!   of the batch, shared, never copied. Null slots of flat optional
//!   columns hold the empty view.
//! - PLAIN values: views into the decompressed page itself, held as an
//!   Arrow buffer, so no string byte is copied;
//! - values of the delta encodings: copied once into one buffer for the
//!   batch.
//!
//! [`views_over`] makes the array. A string batch needs no further check
//! when every entry of the dictionary is UTF-8 (checked once per chunk)
//! and every other byte its views point at is ASCII; any other is checked
//! by Arrow.
//!
//! Byte arrays that are already decoded into offsets and bytes (a
//! `Dictionary<_, Utf8View>`'s values) become views over that byte buffer
//! without another copy ([`views_of_bytes`]).
//!
//! Invariant behind the unchecked constructors here: every view is made
//! by `strata_encoding::byte_view` from a slice of the data buffer it
//! names at the offset it names; a string view's data is UTF-8 because
//! the dictionary's entries or the batch's bytes were checked (all ASCII,
//! or UTF-8 with every value boundary on a character boundary), or Arrow
//! checks it.

use std::sync::Arc;

use arrow_array::types::{BinaryViewType, ByteViewType, StringViewType};
use arrow_array::{ArrayRef, GenericByteViewArray};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};

use strata_encoding::byte_view;

use crate::error::{Result, general};

/// Whether `values` is UTF-8 with every offset of `offsets` on a character
/// boundary, so each value between two offsets is UTF-8 on its own. ASCII
/// (most text) is answered by one quick pass.
pub(crate) fn entries_are_utf8(values: &[u8], offsets: &[i32]) -> bool {
    if values.is_ascii() {
        return true;
    }
    std::str::from_utf8(values).is_ok_and(|s| {
        offsets
            .iter()
            .all(|&o| usize::try_from(o).is_ok_and(|o| s.is_char_boundary(o)))
    })
}

/// A view array of the values between consecutive `offsets` in `values`
/// (a batch's or a dictionary's decoded byte arrays; null slots are empty
/// values), with `nulls`. `V` is [`StringViewType`] or [`BinaryViewType`];
/// for strings, bytes that are not UTF-8 are an error. The byte buffer
/// becomes the array's one data buffer without a copy.
pub(crate) fn views_of_bytes<V: ByteViewType + ?Sized>(
    offsets: &[i32],
    values: Buffer,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef> {
    let slots = offsets.len().saturating_sub(1);
    if nulls.as_ref().is_some_and(|n| n.len() != slots) {
        return Err(general(format!(
            "{} validity bits for {slots} byte-array values",
            nulls.as_ref().map_or(0, |n| n.len())
        )));
    }
    if u32::try_from(values.len()).is_err() {
        return Err(general(format!(
            "{} bytes of values exceed a view buffer's 4 GiB",
            values.len()
        )));
    }
    if V::IS_UTF8 && !entries_are_utf8(values.as_slice(), offsets) {
        return Err(general("invalid UTF-8 in a string column"));
    }
    let mut views: Vec<u128> = Vec::with_capacity(slots);
    for pair in offsets.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        let bytes = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(s, e)| values.as_slice().get(s..e))
            .ok_or_else(|| general("byte array offsets out of order or past the values"))?;
        // `start` and the length are within `values`, whose length fits
        // u32 (checked above).
        views.push(byte_view(bytes, 0, start as u32));
    }
    let buffer = values;
    // SAFETY: `new_unchecked` needs what `try_new` checks: one view per
    // slot, nulls of the same length (checked above), and each view valid
    // for the buffers. Each view was made by `byte_view` from the bytes
    // `values[start..end]` with buffer 0 (the only buffer, which is those
    // same bytes) and offset `start`, so a long view's range lies in the
    // buffer and its prefix matches, and a short view is inline with zero
    // padding. For strings the whole buffer is UTF-8 with every offset on
    // a character boundary (`entries_are_utf8`, checked above), so each
    // value is UTF-8.
    #[allow(unsafe_code)]
    let array = unsafe {
        GenericByteViewArray::<V>::new_unchecked(
            ScalarBuffer::from(views),
            Arc::from([buffer]),
            nulls,
        )
    };
    Ok(Arc::new(array))
}

/// A view array of `views` over `buffers` (from
/// `ColumnRecordReader::read_records_views`: each view made by
/// `strata_encoding::byte_view` from a slice of the buffer it names, at
/// the offset it names, or an empty view in a null slot), with `nulls`.
/// For strings, `utf8` says every value is UTF-8 on its own (every byte
/// outside the dictionary's entries is ASCII, and every entry of the
/// dictionary is UTF-8); otherwise Arrow checks the values' UTF-8.
pub(crate) fn views_over(
    strings: bool,
    views: Vec<u128>,
    buffers: Vec<bytes::Bytes>,
    nulls: Option<NullBuffer>,
    utf8: bool,
) -> Result<ArrayRef> {
    fn make<V: ByteViewType + ?Sized>(
        views: Vec<u128>,
        buffers: Vec<bytes::Bytes>,
        nulls: Option<NullBuffer>,
        utf8: bool,
    ) -> Result<ArrayRef> {
        if nulls.as_ref().is_some_and(|n| n.len() != views.len()) {
            return Err(general("validity and views differ in length"));
        }
        let buffers: Arc<[Buffer]> = buffers.into_iter().map(Buffer::from).collect();
        let views = ScalarBuffer::from(views);
        if V::IS_UTF8 && !utf8 {
            return Ok(Arc::new(GenericByteViewArray::<V>::try_new(
                views, buffers, nulls,
            )?));
        }
        // SAFETY: `new_unchecked` needs what `try_new` checks. The nulls
        // have one bit per view (checked above). The record reader made
        // each view with `byte_view` from a slice of the bytes it then put
        // at the view's buffer index, at the view's offset (a page's
        // values section for PLAIN, the chunk dictionary's bytes for its
        // entries, with the buffer index set to where the dictionary is
        // among the batch's buffers, the copy buffer otherwise), or it is
        // 0, the empty inline view of a null slot: so each long view's
        // range lies in its buffer and its prefix matches, and inline
        // views are zero padded. For strings, each value is UTF-8 (`utf8`):
        // it is a dictionary entry, and every entry was checked to be
        // UTF-8 with its bounds on character boundaries, or every byte of
        // the range it lies in is ASCII.
        #[allow(unsafe_code)]
        let array = unsafe { GenericByteViewArray::<V>::new_unchecked(views, buffers, nulls) };
        Ok(Arc::new(array))
    }
    if strings {
        make::<StringViewType>(views, buffers, nulls, utf8)
    } else {
        make::<BinaryViewType>(views, buffers, nulls, utf8)
    }
}

/// [`views_of_bytes`] for `Utf8View` (`strings`) or `BinaryView`.
pub(crate) fn views_of(
    strings: bool,
    offsets: &[i32],
    values: Buffer,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef> {
    if strings {
        views_of_bytes::<StringViewType>(offsets, values, nulls)
    } else {
        views_of_bytes::<BinaryViewType>(offsets, values, nulls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Array, BinaryViewArray, StringViewArray};

    fn parts(values: &[&[u8]]) -> (Vec<i32>, Vec<u8>) {
        let mut offsets = vec![0i32];
        let mut bytes = Vec::new();
        for v in values {
            bytes.extend_from_slice(v);
            offsets.push(bytes.len() as i32);
        }
        (offsets, bytes)
    }

    #[test]
    fn views_of_bytes_match_arrow_built_arrays() {
        let values: Vec<&[u8]> = vec![
            b"",
            b"short",
            b"exactly12byt",
            b"thirteen byte",
            b"a much longer string than twelve bytes",
            "h\u{e9}llo w\u{f6}rld, l\u{f6}nger".as_bytes(),
        ];
        let (offsets, bytes) = parts(&values);
        let got = views_of(true, &offsets, Buffer::from_vec(bytes.clone()), None).unwrap();
        let strings: Vec<&str> = values
            .iter()
            .map(|v| std::str::from_utf8(v).unwrap())
            .collect();
        let want = StringViewArray::from(strings);
        assert_eq!(got.as_ref(), &want as &dyn Array);
        // Arrow's own validation accepts what was built unchecked.
        got.to_data().validate_full().unwrap();
        let got = views_of(false, &offsets, Buffer::from_vec(bytes), None).unwrap();
        assert_eq!(got.as_ref(), &BinaryViewArray::from(values) as &dyn Array);
        got.to_data().validate_full().unwrap();
    }

    #[test]
    fn byte_view_matches_arrows_make_view() {
        let data: Vec<u8> = (0..64u8).map(|b| b.wrapping_mul(37)).collect();
        for len in 0..=40 {
            for offset in [0usize, 1, 7, 20] {
                let bytes = &data[offset..offset + len];
                assert_eq!(
                    byte_view(bytes, 0, offset as u32),
                    arrow_array::builder::make_view(bytes, 0, offset as u32),
                    "length {len} at {offset}"
                );
            }
        }
    }

    #[test]
    fn invalid_utf8_is_an_error_for_strings_only() {
        let values: Vec<&[u8]> = vec![b"fine", b"\xff\xfe not utf-8 at all"];
        let (offsets, bytes) = parts(&values);
        assert!(views_of(true, &offsets, Buffer::from_vec(bytes.clone()), None).is_err());
        assert!(views_of(false, &offsets, Buffer::from_vec(bytes), None).is_ok());
        // A UTF-8 buffer cut inside a character is not UTF-8 per value.
        let e = "\u{e9}".as_bytes();
        assert!(views_of(true, &[0, 1, 2], Buffer::from_vec(e.to_vec()), None).is_err());
    }

    #[test]
    fn bad_offsets_are_an_error() {
        assert!(views_of(false, &[0, 5], Buffer::from_vec(b"abc".to_vec()), None).is_err());
        assert!(views_of(false, &[2, 1], Buffer::from_vec(b"abc".to_vec()), None).is_err());
        assert!(views_of(false, &[-1, 1], Buffer::from_vec(b"abc".to_vec()), None).is_err());
    }
}
