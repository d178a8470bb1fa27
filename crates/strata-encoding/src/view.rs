//! Byte-array views: one 16-byte value per byte array, the layout of
//! Arrow's `Utf8View` and `BinaryView` (and of other engines' "German
//! strings").
//!
//! A view's low 32 bits are the value's length. A value of up to 12 bytes
//! is stored inline in the other 12 bytes, zero padded. A longer one keeps
//! its first 4 bytes (a prefix for quick comparisons), then the index of a
//! data buffer and the value's offset in it, 32 bits each, and its bytes
//! stay in that buffer. Decoding into views lets a reader point at the
//! bytes of a page it already holds instead of copying them:
//! [`plain_views`] does that for a PLAIN values section.

use crate::error::{EncodingError, Result};

/// The longest value stored inside its view.
pub const MAX_INLINE_VIEW_LEN: usize = 12;

/// The view of `bytes`, found at byte `offset` of data buffer `buffer`.
/// Values of up to [`MAX_INLINE_VIEW_LEN`] bytes are inline (and `buffer`
/// and `offset` unused). The caller guarantees that the length and
/// `offset` fit 32 bits.
///
/// ```
/// use strata_encoding::byte_view;
///
/// let short = byte_view(b"tiny", 0, 0);
/// assert_eq!(short as u32, 4);
/// assert_eq!(&short.to_le_bytes()[4..8], b"tiny");
/// let long = byte_view(b"longer than twelve", 2, 100);
/// assert_eq!(long as u32, 18);
/// assert_eq!(&long.to_le_bytes()[4..8], b"long");
/// assert_eq!((long >> 64) as u32, 2);
/// assert_eq!((long >> 96) as u32, 100);
/// ```
#[inline(always)]
pub fn byte_view(bytes: &[u8], buffer: u32, offset: u32) -> u128 {
    let len = bytes.len();
    if len <= MAX_INLINE_VIEW_LEN {
        let mut inline = [0u8; 16];
        inline[..4].copy_from_slice(&(len as u32).to_le_bytes());
        inline[4..4 + len].copy_from_slice(bytes);
        u128::from_le_bytes(inline)
    } else {
        let prefix = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        (len as u128)
            | (u128::from(prefix) << 32)
            | (u128::from(buffer) << 64)
            | (u128::from(offset) << 96)
    }
}

/// Append to `out` the views of the `n` PLAIN byte arrays (each a 4-byte
/// little-endian length, then its bytes) that start at byte `at` of
/// `page`, pointing into `page` as data buffer `buffer`; returns the byte
/// after the last. No value byte is copied (values of up to 12 bytes are
/// inline). `page` must be shorter than 4 GiB, so every offset fits a
/// view. A length past the page is an error, and `out` is then left as it
/// was.
///
/// ```
/// use strata_encoding::{byte_view, plain_views};
///
/// let page = [2, 0, 0, 0, b'h', b'i', 13, 0, 0, 0, b'a', b' ', b'l', b'o', b'n', b'g', b'e', b'r', b' ', b'o', b'n', b'e', b'!'];
/// let mut views = Vec::new();
/// assert_eq!(plain_views(&page, 0, 2, 0, &mut views).unwrap(), page.len());
/// assert_eq!(views, [byte_view(b"hi", 0, 4), byte_view(&page[10..], 0, 10)]);
/// assert!(plain_views(&page, 0, 3, 0, &mut views).is_err());
/// assert_eq!(views.len(), 2);
/// ```
pub fn plain_views(
    page: &[u8],
    at: usize,
    n: usize,
    buffer: u32,
    out: &mut Vec<u128>,
) -> Result<usize> {
    if u32::try_from(page.len()).is_err() {
        return Err(EncodingError::InvalidArgument(format!(
            "a page of {} bytes is too long for views",
            page.len()
        )));
    }
    // Every value takes at least its 4-byte length: a count the page
    // cannot hold is refused before anything is reserved.
    if n > page.len().saturating_sub(at) / 4 {
        return Err(EncodingError::Truncated("PLAIN byte array lengths"));
    }
    let start_len = out.len();
    // Sized once and written by index: a `push` per value kept the
    // vector's length in memory and checked its capacity every time.
    out.resize(start_len + n, 0);
    let mut pos = at;
    for slot in out.iter_mut().skip(start_len) {
        // A PLAIN value is laid out as the first bytes of its view: its
        // 4-byte little-endian length, then its bytes. So an inline view
        // is the 16 bytes at `pos` with those past the value zeroed, and
        // a long view's low half is the 8 bytes at `pos` (length, then
        // prefix): one load, no copy of the value's bytes.
        if let Some(word) = page.get(pos..pos + 16) {
            let mut le = [0u8; 16];
            le.copy_from_slice(word);
            let word = u128::from_le_bytes(le);
            let len = word as u32 as usize;
            let start = pos + 4;
            let end = start + len;
            if end > page.len() {
                out.truncate(start_len);
                return Err(EncodingError::Truncated("PLAIN byte array value"));
            }
            *slot = if len <= MAX_INLINE_VIEW_LEN {
                // 4 + len is at least 4 bytes, so the shift is below 128.
                word & (u128::MAX >> (8 * (12 - len)))
            } else {
                // `start` is within the page, whose length fits u32
                // (checked above).
                (word & u128::from(u64::MAX))
                    | (u128::from(buffer) << 64)
                    | (u128::from(start as u32) << 96)
            };
            pos = end;
            continue;
        }
        let value = page.get(pos..pos + 4).and_then(|l| {
            let len = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
            let start = pos + 4;
            page.get(start..start.checked_add(len)?).map(|v| (start, v))
        });
        let Some((start, bytes)) = value else {
            out.truncate(start_len);
            return Err(EncodingError::Truncated("PLAIN byte array value"));
        };
        // `start` is within the page, whose length fits u32 (checked).
        *slot = byte_view(bytes, buffer, start as u32);
        pos = start + bytes.len();
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(values: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for v in values {
            out.extend_from_slice(&(v.len() as u32).to_le_bytes());
            out.extend_from_slice(v);
        }
        out
    }

    /// Reads a value back out of its view and the buffer it names.
    fn value_of(view: u128, buffers: &[&[u8]]) -> Vec<u8> {
        let len = view as u32 as usize;
        if len <= MAX_INLINE_VIEW_LEN {
            view.to_le_bytes()[4..4 + len].to_vec()
        } else {
            let buffer = buffers[(view >> 64) as u32 as usize];
            let offset = (view >> 96) as u32 as usize;
            buffer[offset..offset + len].to_vec()
        }
    }

    #[test]
    fn views_point_into_the_page_at_every_length() {
        let values: Vec<Vec<u8>> = (0..40u8).map(|n| (0..n).collect()).collect();
        let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let data = page(&refs);
        let mut views = vec![7u128];
        let end = plain_views(&data, 0, values.len(), 3, &mut views).unwrap();
        assert_eq!(end, data.len());
        assert_eq!(views[0], 7);
        // Equal to the views `byte_view` makes, both where 16 bytes of the
        // page follow a value's start and near the page's end.
        let mut offset = 0usize;
        for (view, want) in views[1..].iter().zip(&values) {
            offset += 4;
            assert_eq!(*view, byte_view(want, 3, offset as u32), "{want:?}");
            offset += want.len();
        }
        for (view, want) in views[1..].iter().zip(&values) {
            let buffers: [&[u8]; 4] = [&[], &[], &[], &data];
            assert_eq!(&value_of(*view, &buffers), want);
            if want.len() > MAX_INLINE_VIEW_LEN {
                assert_eq!(&view.to_le_bytes()[4..8], &want[..4]);
            } else {
                // Inline padding is zero.
                assert!(view.to_le_bytes()[4 + want.len()..].iter().all(|&b| b == 0));
            }
        }
        // From the middle, in two steps.
        let mut two = Vec::new();
        let mid = plain_views(&data, 0, 20, 3, &mut two).unwrap();
        assert_eq!(
            plain_views(&data, mid, 20, 3, &mut two).unwrap(),
            data.len()
        );
        assert_eq!(two, views[1..]);
    }

    #[test]
    fn truncated_pages_are_errors_that_leave_the_output_alone() {
        let data = page(&[b"first value, long enough", b"second"]);
        for cut in 0..data.len() {
            let mut views = vec![1u128];
            assert!(
                plain_views(&data[..cut], 0, 2, 0, &mut views).is_err(),
                "{cut}"
            );
            assert_eq!(views, [1]);
        }
        let mut views = Vec::new();
        assert!(plain_views(&data, 0, usize::MAX, 0, &mut views).is_err());
        let mut huge = data.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(plain_views(&huge, 0, 1, 0, &mut views).is_err());
        assert!(views.is_empty());
    }
}
