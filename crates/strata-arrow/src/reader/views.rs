//! `Utf8View` and `BinaryView` output, built directly.
//!
//! A view array holds one 16-byte view per slot: strings of up to 12
//! bytes inline, longer ones as their length, first four bytes, and a
//! buffer index and offset into a data buffer the array shares. Two
//! sources feed it:
//!
//! - **Dictionary-encoded pages.** The chunk's dictionary becomes a view
//!   array once per chunk (its bytes copied once into one Arrow buffer,
//!   UTF-8 checked once for string outputs). Each batch then reads only
//!   the dictionary indices and gathers the entries' 16-byte views by
//!   index into a new views buffer; the data buffer is shared, never
//!   copied. Null slots of flat optional columns hold index 0 (a view of
//!   entry 0, under a null bit).
//! - **Pages that are not dictionary encoded** (a chunk without a
//!   dictionary, or the pages after its fallback). The record reader's
//!   `read_records_views` makes the views: those of PLAIN values point
//!   into the decompressed page itself, held as an Arrow buffer, so no
//!   string byte is copied; values of the delta encodings are copied
//!   once into one buffer for the batch ([`views_over`]). A string batch
//!   whose bytes are all ASCII needs no further check; any other is
//!   checked by Arrow.
//!
//! Byte arrays that are already decoded into offsets and bytes (the
//! values of a dictionary, or a `Dictionary<_, Utf8View>`'s values) become
//! views over that byte buffer without another copy ([`views_of_bytes`]).
//!
//! Invariant behind the unchecked constructors here: every view is either
//! copied from a view array that is itself valid (with the same data
//! buffers), or made by `strata_encoding::byte_view` from a slice of the
//! data buffer it names at the offset it names; a string view's data is
//! UTF-8 because the dictionary's entries or the batch's bytes were
//! checked (all ASCII, or UTF-8 with every value boundary on a character
//! boundary), or Arrow checks it.

use std::sync::Arc;

use arrow_array::types::{BinaryViewType, ByteViewType, StringViewType};
use arrow_array::{Array, ArrayRef, GenericByteViewArray};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};

use strata_encoding::{ByteArrayBuffer, byte_view};

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

/// The batch of `indices` into `dictionary` (the chunk's dictionary as a
/// `BinaryView` array, built by [`views_of_bytes`]) as a view array of
/// type `V` with `nulls`: each slot's view copied from its entry, the data
/// buffers shared with the dictionary. For strings, `entries_utf8` says
/// every entry of the dictionary is UTF-8 (checked once per chunk); when
/// it is not, the batch is checked, so that only a batch that uses a bad
/// entry fails.
///
/// Every index must be below the dictionary's length: the record reader
/// checks each as it decodes them. (One that is not would read as the last
/// entry; the read stays in bounds either way.)
pub(crate) fn gather_views<V: ByteViewType + ?Sized>(
    dictionary: &ArrayRef,
    indices: &[u32],
    nulls: Option<NullBuffer>,
    entries_utf8: bool,
) -> Result<ArrayRef> {
    let dictionary = dictionary
        .as_any()
        .downcast_ref::<GenericByteViewArray<BinaryViewType>>()
        .ok_or_else(|| general("dictionary views of another type"))?;
    if nulls.as_ref().is_some_and(|n| n.len() != indices.len()) {
        return Err(general("validity and dictionary indices differ in length"));
    }
    // A plain slice, so the loop below keeps its pointer and length in
    // registers (through the `ScalarBuffer` they were reloaded for every
    // value, since the stores might alias them).
    let entries: &[u128] = dictionary.views();
    // The record reader checked every index against the dictionary's
    // length as it decoded them (`indices_below`), so clamping to the last
    // entry changes none of them; it only lets the compiler drop the
    // bounds check, so the loop is a load and a store a value with no
    // branch (a separate pass for the largest index cost a tenth of the
    // read). An empty dictionary can only be indexed by null slots (index
    // 0): their views are empty.
    let views: Vec<u128> = match entries.len().checked_sub(1) {
        Some(last) => indices
            .iter()
            .map(|&i| entries[(i as usize).min(last)])
            .collect(),
        None if nulls.as_ref().map_or(0, |n| n.null_count()) == indices.len() => {
            vec![0; indices.len()]
        }
        None => {
            return Err(general(
                "dictionary-encoded values without dictionary entries",
            ));
        }
    };
    let views = ScalarBuffer::from(views);
    let buffers = Arc::clone(dictionary.data_buffers());
    if V::IS_UTF8 && !entries_utf8 {
        return Ok(Arc::new(GenericByteViewArray::<V>::try_new(
            views, buffers, nulls,
        )?));
    }
    // SAFETY: `new_unchecked` needs what `try_new` checks. There is one
    // view per index and the nulls have as many bits (checked above).
    // Each view is an entry of `dictionary`, a valid view array (built by
    // `views_of_bytes`), and the result has that array's data buffers in
    // the same order, so each view's buffer index, range and prefix are as
    // valid as they were there; or it is 0, the empty inline view. For
    // strings, every entry of the dictionary is UTF-8 (`entries_utf8`,
    // checked by the caller over the dictionary's bytes and offsets).
    #[allow(unsafe_code)]
    let array = unsafe { GenericByteViewArray::<V>::new_unchecked(views, buffers, nulls) };
    Ok(Arc::new(array))
}

/// A view array of `views` over `buffers` (from
/// `ColumnRecordReader::read_records_views`: each view made by
/// `strata_encoding::byte_view` from a slice of the buffer it names, at
/// the offset it names, or an empty view in a null slot), with `nulls`.
/// For strings, `ascii` says every byte the views point at is ASCII;
/// otherwise Arrow checks the values' UTF-8.
pub(crate) fn views_over(
    strings: bool,
    views: Vec<u128>,
    buffers: Vec<bytes::Bytes>,
    nulls: Option<NullBuffer>,
    ascii: bool,
) -> Result<ArrayRef> {
    fn make<V: ByteViewType + ?Sized>(
        views: Vec<u128>,
        buffers: Vec<bytes::Bytes>,
        nulls: Option<NullBuffer>,
        ascii: bool,
    ) -> Result<ArrayRef> {
        if nulls.as_ref().is_some_and(|n| n.len() != views.len()) {
            return Err(general("validity and views differ in length"));
        }
        let buffers: Arc<[Buffer]> = buffers.into_iter().map(Buffer::from).collect();
        let views = ScalarBuffer::from(views);
        if V::IS_UTF8 && !ascii {
            return Ok(Arc::new(GenericByteViewArray::<V>::try_new(
                views, buffers, nulls,
            )?));
        }
        // SAFETY: `new_unchecked` needs what `try_new` checks. The nulls
        // have one bit per view (checked above). The record reader made
        // each view with `byte_view` from a slice of the bytes it then put
        // at the view's buffer index, at the view's offset (a page's
        // values section for PLAIN, the copy buffer otherwise), or it is
        // 0, the empty inline view of a null slot: so each long view's
        // range lies in its buffer and its prefix matches, and inline
        // views are zero padded. For strings, every byte of every range
        // the views point into is ASCII (`ascii`), hence each value is
        // UTF-8.
        #[allow(unsafe_code)]
        let array = unsafe { GenericByteViewArray::<V>::new_unchecked(views, buffers, nulls) };
        Ok(Arc::new(array))
    }
    if strings {
        make::<StringViewType>(views, buffers, nulls, ascii)
    } else {
        make::<BinaryViewType>(views, buffers, nulls, ascii)
    }
}

/// The chunk's dictionary as a `BinaryView` array whose data buffer is the
/// dictionary's own bytes, shared with the record reader (an Arrow buffer
/// that holds the dictionary's `Arc`), not a copy.
pub(crate) fn dictionary_views(dictionary: &Arc<ByteArrayBuffer>) -> Result<ArrayRef> {
    /// The bytes of a shared dictionary, as the owner of an Arrow buffer.
    struct DictionaryBytes(Arc<ByteArrayBuffer>);
    impl AsRef<[u8]> for DictionaryBytes {
        fn as_ref(&self) -> &[u8] {
            self.0.values()
        }
    }
    let bytes = Buffer::from(bytes::Bytes::from_owner(DictionaryBytes(Arc::clone(
        dictionary,
    ))));
    views_of_bytes::<BinaryViewType>(dictionary.offsets(), bytes, None)
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

/// [`gather_views`] for `Utf8View` (`strings`) or `BinaryView`.
pub(crate) fn gather(
    strings: bool,
    dictionary: &ArrayRef,
    indices: &[u32],
    nulls: Option<NullBuffer>,
    entries_utf8: bool,
) -> Result<ArrayRef> {
    if strings {
        gather_views::<StringViewType>(dictionary, indices, nulls, entries_utf8)
    } else {
        gather_views::<BinaryViewType>(dictionary, indices, nulls, entries_utf8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{BinaryViewArray, StringViewArray};

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

    #[test]
    fn gather_copies_entry_views_and_shares_the_buffer() {
        let values: Vec<&[u8]> = vec![b"tiny", b"an entry longer than twelve", b"x"];
        let (offsets, bytes) = parts(&values);
        let dict = views_of(false, &offsets, Buffer::from_vec(bytes), None).unwrap();
        let nulls = NullBuffer::from(vec![true, false, true, true, true]);
        let got = gather(true, &dict, &[1, 0, 0, 2, 1], Some(nulls), true).unwrap();
        let want = StringViewArray::from(vec![
            Some("an entry longer than twelve"),
            None,
            Some("tiny"),
            Some("x"),
            Some("an entry longer than twelve"),
        ]);
        assert_eq!(got.as_ref(), &want as &dyn Array);
        got.to_data().validate_full().unwrap();
        let got = got.as_any().downcast_ref::<StringViewArray>().unwrap();
        let dict = dict.as_any().downcast_ref::<BinaryViewArray>().unwrap();
        assert_eq!(
            got.data_buffers()[0].as_ptr(),
            dict.data_buffers()[0].as_ptr()
        );
    }

    #[test]
    fn dictionary_views_share_the_dictionarys_bytes() {
        let mut dict = ByteArrayBuffer::new();
        for v in [&b"short"[..], b"an entry longer than twelve bytes", b""] {
            dict.push(v).unwrap();
        }
        let dict = Arc::new(dict);
        let views = dictionary_views(&dict).unwrap();
        let array = views.as_any().downcast_ref::<BinaryViewArray>().unwrap();
        assert_eq!(array.data_buffers()[0].as_ptr(), dict.values().as_ptr());
        let want: Vec<&[u8]> = vec![b"short", b"an entry longer than twelve bytes", b""];
        assert_eq!(array, &BinaryViewArray::from(want));
        // The array keeps the dictionary alive after the reader lets go.
        let weak = Arc::downgrade(&dict);
        drop(dict);
        assert!(weak.upgrade().is_some());
        drop(views);
        assert!(weak.upgrade().is_none());
    }

    #[test]
    fn gather_stays_in_bounds() {
        let (offsets, bytes) = parts(&[b"a", b"b"]);
        let dict = views_of(false, &offsets, Buffer::from_vec(bytes), None).unwrap();
        // The record reader never hands over an index past the
        // dictionary; one that came anyway reads in bounds.
        let got = gather(false, &dict, &[0, 2], None, false).unwrap();
        assert_eq!(got.len(), 2);
        // An empty dictionary takes null slots only.
        let empty = views_of(false, &[0], Buffer::from_vec(Vec::<u8>::new()), None).unwrap();
        let all_null = NullBuffer::new_null(3);
        let got = gather(false, &empty, &[0, 0, 0], Some(all_null), false).unwrap();
        assert_eq!(got.null_count(), 3);
        assert!(gather(false, &empty, &[0], None, false).is_err());
    }

    #[test]
    fn a_dictionary_with_a_bad_entry_fails_only_the_batches_that_use_it() {
        let (offsets, bytes) = parts(&[b"good", b"\xff bad entry, and long"]);
        let dict = views_of(false, &offsets, Buffer::from_vec(bytes), None).unwrap();
        let ok = gather(true, &dict, &[0, 0], None, false).unwrap();
        assert_eq!(
            ok.as_ref(),
            &StringViewArray::from(vec!["good", "good"]) as &dyn Array
        );
        assert!(gather(true, &dict, &[0, 1], None, false).is_err());
        assert!(gather(false, &dict, &[0, 1], None, false).is_ok());
    }
}
