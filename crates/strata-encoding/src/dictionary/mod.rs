//! Dictionary encoding: RLE_DICTIONARY (id 8) and its deprecated spelling
//! PLAIN_DICTIONARY (id 2), for every physical type but BOOLEAN.
//!
//! A column chunk that is dictionary encoded has one dictionary page, the
//! distinct values written PLAIN, and data pages that each hold one byte
//! with the bit width of the indices (at most 32) followed by the indices as
//! an RLE/bit-packed hybrid stream with no length prefix.
//!
//! - [`DictEncoder`] deduplicates values through an open-addressing table
//!   of `u32` indices into one contiguous store (no allocation per value),
//!   records one index per value, and writes the dictionary page
//!   ([`DictEncoder::write_dict_page`]) and index pages
//!   ([`Encoder::flush_into`](crate::Encoder::flush_into)) separately.
//!   [`DictEncoder::dict_size_bytes`] and [`DictEncoder::num_entries`] let a
//!   column writer fall back to another encoding when the dictionary grows
//!   too large.
//! - [`FirstOccurrences`] keys each value of a batch by the position of
//!   its first occurrence, for a reader that must deduplicate a batch
//!   without copying it.
//! - [`DictDecoder`] decodes the dictionary page once per column chunk into
//!   an [`Arc`](std::sync::Arc)-shared [`DictValue::Dict`], then gathers
//!   values for every data page from it, or hands out the raw indices
//!   ([`DictDecoder::decode_indices`]) so an Arrow layer can build a
//!   `DictionaryArray` over the shared dictionary without copying it.
//!
//! # Index bit width
//!
//! The writer uses 0 bits for an empty dictionary, 1 bit for a dictionary
//! of one entry, and otherwise the bits needed for `num_entries - 1` (the
//! rule arrow-rs and Arrow C++ follow; a one-entry dictionary could use 0
//! bits, but some readers mishandle width 0). The reader accepts any width
//! from 0 to 32 and checks every index against the dictionary.

mod decoder;
mod encoder;
mod first;
mod hash;
mod store;

pub use decoder::{DictDecoder, decode_dictionary_indices, decode_dictionary_indices_from};
pub use encoder::DictEncoder;
pub use first::FirstOccurrences;
pub(crate) use store::check_indices;
pub use store::{DictKey, indices_below};

use crate::types::{
    ByteArray, ByteArrayBuffer, FixedLenByteArray, FixedLenByteArrayBuffer, Int96, OffsetSize,
    ValueType,
};

/// A physical type that can be dictionary encoded: every type but `bool`.
/// Sealed.
pub trait DictValue: ValueType {
    /// The dictionary, as the encoder builds it and the decoder decodes it:
    /// `Vec<T>` for `i32`, `i64`, [`Int96`], `f32` and `f64`;
    /// [`ByteArrayBuffer<O>`] (offsets + one values buffer, the Arrow
    /// layout) for [`ByteArray<O>`]; [`FixedLenByteArrayBuffer`] for
    /// [`FixedLenByteArray`].
    type Dict: store::DictStore<Self>;
}

impl DictValue for i32 {
    type Dict = Vec<i32>;
}
impl DictValue for i64 {
    type Dict = Vec<i64>;
}
impl DictValue for f32 {
    type Dict = Vec<f32>;
}
impl DictValue for f64 {
    type Dict = Vec<f64>;
}
impl DictValue for Int96 {
    type Dict = Vec<Int96>;
}
impl<O: OffsetSize> DictValue for ByteArray<O> {
    type Dict = ByteArrayBuffer<O>;
}
impl DictValue for FixedLenByteArray {
    type Dict = FixedLenByteArrayBuffer;
}

/// The index bit width for a dictionary of `num_entries` entries (see the
/// module documentation).
pub(crate) fn index_bit_width(num_entries: usize) -> u8 {
    match num_entries {
        0 => 0,
        1 => 1,
        n => crate::bit_pack::bits_needed((n - 1) as u64) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_width_rule() {
        assert_eq!(index_bit_width(0), 0);
        assert_eq!(index_bit_width(1), 1);
        assert_eq!(index_bit_width(2), 1);
        assert_eq!(index_bit_width(3), 2);
        assert_eq!(index_bit_width(4), 2);
        assert_eq!(index_bit_width(5), 3);
        assert_eq!(index_bit_width(256), 8);
        assert_eq!(index_bit_width(257), 9);
        assert_eq!(index_bit_width(1 << 31), 31);
        assert_eq!(index_bit_width((1 << 31) + 1), 32);
    }
}
