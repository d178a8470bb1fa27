//! [`Encoding`]: the Parquet encoding ids, independent of any Thrift layer.

use std::fmt;

/// A Parquet value encoding, with the numeric id the format's `Encoding`
/// enum gives it (`parquet.thrift`).
///
/// This crate implements [`Plain`](Encoding::Plain),
/// [`ByteStreamSplit`](Encoding::ByteStreamSplit),
/// [`DeltaBinaryPacked`](Encoding::DeltaBinaryPacked),
/// [`DeltaLengthByteArray`](Encoding::DeltaLengthByteArray),
/// [`DeltaByteArray`](Encoding::DeltaByteArray),
/// [`RleDictionary`](Encoding::RleDictionary) and
/// [`PlainDictionary`](Encoding::PlainDictionary) (the same data page
/// format: [`DictEncoder`](crate::DictEncoder) /
/// [`DictDecoder`](crate::DictDecoder)), [`Rle`](Encoding::Rle) for
/// booleans ([`RleBooleanEncoder`](crate::RleBooleanEncoder) /
/// [`RleBooleanDecoder`](crate::RleBooleanDecoder)) and for levels
/// ([`LevelEncoder`](crate::LevelEncoder) /
/// [`LevelDecoder`](crate::LevelDecoder)), and the deprecated
/// [`BitPacked`](Encoding::BitPacked) for levels (decode only). Only
/// [`Alp`](Encoding::Alp) is listed without an implementation, so a file
/// layer can name every id it meets.
///
/// ```
/// use strata_encoding::Encoding;
///
/// assert_eq!(Encoding::DeltaBinaryPacked.id(), 5);
/// assert_eq!(Encoding::from_id(9), Some(Encoding::ByteStreamSplit));
/// assert_eq!(Encoding::from_id(1), None); // id 1 was never assigned
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Encoding {
    /// `PLAIN` (0): values back to back; booleans bit-packed LSB first.
    Plain,
    /// `PLAIN_DICTIONARY` (2): deprecated spelling of dictionary encoding;
    /// its data pages are read exactly as `RLE_DICTIONARY` pages.
    PlainDictionary,
    /// `RLE` (3): the RLE/bit-packed hybrid (levels, booleans).
    Rle,
    /// `BIT_PACKED` (4): deprecated MSB-first bit packing of levels.
    BitPacked,
    /// `DELTA_BINARY_PACKED` (5): blocks of bit-packed deltas (INT32, INT64).
    DeltaBinaryPacked,
    /// `DELTA_LENGTH_BYTE_ARRAY` (6): delta-packed lengths, then the bytes.
    DeltaLengthByteArray,
    /// `DELTA_BYTE_ARRAY` (7): prefix lengths, then suffixes as
    /// `DELTA_LENGTH_BYTE_ARRAY`.
    DeltaByteArray,
    /// `RLE_DICTIONARY` (8): dictionary indices as RLE/bit-packed hybrid.
    RleDictionary,
    /// `BYTE_STREAM_SPLIT` (9): byte `j` of every value in stream `j`.
    ByteStreamSplit,
    /// `ALP` (10): adaptive lossless floating point (preview in the spec).
    Alp,
}

impl Encoding {
    /// The numeric id of this encoding in the Parquet format.
    pub const fn id(self) -> i32 {
        match self {
            Encoding::Plain => 0,
            Encoding::PlainDictionary => 2,
            Encoding::Rle => 3,
            Encoding::BitPacked => 4,
            Encoding::DeltaBinaryPacked => 5,
            Encoding::DeltaLengthByteArray => 6,
            Encoding::DeltaByteArray => 7,
            Encoding::RleDictionary => 8,
            Encoding::ByteStreamSplit => 9,
            Encoding::Alp => 10,
        }
    }

    /// The encoding with numeric id `id`, or `None` for an unknown id.
    pub const fn from_id(id: i32) -> Option<Self> {
        Some(match id {
            0 => Encoding::Plain,
            2 => Encoding::PlainDictionary,
            3 => Encoding::Rle,
            4 => Encoding::BitPacked,
            5 => Encoding::DeltaBinaryPacked,
            6 => Encoding::DeltaLengthByteArray,
            7 => Encoding::DeltaByteArray,
            8 => Encoding::RleDictionary,
            9 => Encoding::ByteStreamSplit,
            10 => Encoding::Alp,
            _ => return None,
        })
    }

    /// The name the format specification uses (`"DELTA_BINARY_PACKED"`).
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "PLAIN",
            Encoding::PlainDictionary => "PLAIN_DICTIONARY",
            Encoding::Rle => "RLE",
            Encoding::BitPacked => "BIT_PACKED",
            Encoding::DeltaBinaryPacked => "DELTA_BINARY_PACKED",
            Encoding::DeltaLengthByteArray => "DELTA_LENGTH_BYTE_ARRAY",
            Encoding::DeltaByteArray => "DELTA_BYTE_ARRAY",
            Encoding::RleDictionary => "RLE_DICTIONARY",
            Encoding::ByteStreamSplit => "BYTE_STREAM_SPLIT",
            Encoding::Alp => "ALP",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for id in -1..12 {
            if let Some(e) = Encoding::from_id(id) {
                assert_eq!(e.id(), id);
            } else {
                assert!(id == 1 || !(0..=10).contains(&id));
            }
        }
        assert_eq!(Encoding::DeltaByteArray.to_string(), "DELTA_BYTE_ARRAY");
    }
}
