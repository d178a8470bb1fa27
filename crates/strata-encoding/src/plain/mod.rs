//! PLAIN (encoding id 0): values back to back.
//!
//! - INT32/INT64/INT96/FLOAT/DOUBLE: little-endian, 4/8/12/4/8 bytes
//!   ([`PlainEncoder`] / [`PlainDecoder`], one generic pair).
//! - BOOLEAN: bit-packed, LSB first ([`PlainBooleanEncoder`] /
//!   [`PlainBooleanDecoder`]).
//! - BYTE_ARRAY: a 4-byte little-endian length, then the bytes
//!   ([`PlainByteArrayEncoder`] / [`PlainByteArrayDecoder`]).
//! - FIXED_LEN_BYTE_ARRAY: the bytes ([`PlainFixedLenByteArrayEncoder`] /
//!   [`PlainFixedLenByteArrayDecoder`]).
//!
//! Nulls are never written: a spaced batch encodes its runs of present
//! values, each through the batch path.

mod boolean;
mod byte_array;
mod fixed;
pub(crate) mod fixed_len;

pub use boolean::{PlainBooleanDecoder, PlainBooleanEncoder};
pub(crate) use byte_array::skip_plain_byte_arrays;
pub use byte_array::{PlainByteArrayDecoder, PlainByteArrayEncoder};
pub use fixed::{PlainDecoder, PlainEncoder};
pub use fixed_len::{PlainFixedLenByteArrayDecoder, PlainFixedLenByteArrayEncoder};

use strata_sink::ByteSink;

/// Append `buf` to `page` and leave `buf` empty. When `page` is empty the
/// two buffers are swapped instead of copied, so a page written by one
/// encoder costs no copy at all.
pub(crate) fn move_into(buf: &mut ByteSink, page: &mut ByteSink) {
    if page.is_empty() {
        std::mem::swap(page.as_mut_vec(), buf.as_mut_vec());
        buf.clear();
    } else {
        page.extend_from_slice(buf.as_slice());
        buf.clear();
    }
}
