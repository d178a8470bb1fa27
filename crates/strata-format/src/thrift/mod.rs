//! The Thrift compact protocol, written by hand for Parquet metadata.
//!
//! Parquet stores its metadata (footer, page headers, page indexes, Bloom
//! filter headers) as Thrift structs in the *compact protocol*. This module
//! has a reader over a byte slice ([`CompactReader`]) and a writer into a
//! [`ByteSink`] ([`CompactWriter`]), plus two small
//! traits that each metadata struct implements by hand:
//! [`ReadThrift`] and [`WriteThrift`].
//!
//! Wire format summary (see the Thrift compact protocol specification):
//! - integers `i16`/`i32`/`i64` are zigzag ULEB128 varints, `i8` is one byte,
//!   `double` is 8 bytes little-endian;
//! - `binary`/`string` is a varint length followed by the bytes;
//! - a struct is a run of fields ending in a zero byte (*stop*); each field
//!   header is one byte `dddd tttt` (field-id delta, wire type) when the delta
//!   is 1..=15, otherwise the type byte followed by the field id as a zigzag
//!   varint; booleans live in the type nibble (1 = true, 2 = false);
//! - a list header is `ssss tttt` for up to 14 elements, or `1111 tttt`
//!   followed by a varint size.
//!
//! The reader is defensive: nesting is limited to [`MAX_DEPTH`], every length
//! is checked against the bytes that remain before anything is allocated,
//! unknown fields are skipped, and nothing panics.
//!
//! ```
//! use strata_format::thrift::{decode, encode_to_vec};
//! use strata_format::metadata::KeyValue;
//!
//! let kv = KeyValue { key: "k".into(), value: Some("v".into()) };
//! let bytes = encode_to_vec(&kv);
//! // field 1 (delta 1, binary), len 1, "k"; field 2 (delta 1, binary), len 1, "v"; stop
//! assert_eq!(bytes, [0x18, 1, b'k', 0x18, 1, b'v', 0]);
//! assert_eq!(decode::<KeyValue>(&bytes).unwrap(), kv);
//! ```

mod reader;
mod writer;

pub use reader::CompactReader;
pub use writer::CompactWriter;

use crate::error::Result;
use smallvec::SmallVec;
use strata_sink::ByteSink;

/// Deepest nesting of structs and containers the reader accepts.
pub const MAX_DEPTH: usize = 64;

/// A compact-protocol wire type, as found in field headers and list headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FieldType {
    /// A boolean field whose value is `true` (field headers), or the
    /// boolean element type in some writers' list headers.
    BoolTrue = 1,
    /// A boolean field whose value is `false`, or the boolean element type
    /// of list headers as the specification writes it.
    BoolFalse = 2,
    /// 8-bit signed integer, one raw byte.
    I8 = 3,
    /// 16-bit signed integer, zigzag varint.
    I16 = 4,
    /// 32-bit signed integer, zigzag varint.
    I32 = 5,
    /// 64-bit signed integer, zigzag varint.
    I64 = 6,
    /// IEEE 754 double, 8 bytes little-endian.
    Double = 7,
    /// Length-prefixed bytes (also used for strings).
    Binary = 8,
    /// List.
    List = 9,
    /// Set (encoded like a list).
    Set = 10,
    /// Map.
    Map = 11,
    /// Struct or union.
    Struct = 12,
    /// 16-byte UUID.
    Uuid = 13,
}

impl FieldType {
    /// The wire type for a nibble value, or `None` for 0 (stop) and values
    /// the protocol does not define.
    #[inline]
    pub const fn from_nibble(n: u8) -> Option<Self> {
        Some(match n {
            1 => Self::BoolTrue,
            2 => Self::BoolFalse,
            3 => Self::I8,
            4 => Self::I16,
            5 => Self::I32,
            6 => Self::I64,
            7 => Self::Double,
            8 => Self::Binary,
            9 => Self::List,
            10 => Self::Set,
            11 => Self::Map,
            12 => Self::Struct,
            13 => Self::Uuid,
            _ => return None,
        })
    }

    /// Name of the wire type, for error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Self::BoolTrue | Self::BoolFalse => "bool",
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::Double => "double",
            Self::Binary => "binary",
            Self::List => "list",
            Self::Set => "set",
            Self::Map => "map",
            Self::Struct => "struct",
            Self::Uuid => "uuid",
        }
    }

    /// Whether two wire types denote the same kind of value (the two
    /// boolean codes are the same type).
    #[inline]
    pub const fn same_kind(self, other: Self) -> bool {
        let a = if matches!(self, Self::BoolTrue) {
            Self::BoolFalse
        } else {
            self
        };
        let b = if matches!(other, Self::BoolTrue) {
            Self::BoolFalse
        } else {
            other
        };
        a as u8 == b as u8
    }

    /// Smallest number of bytes one value of this type takes on the wire.
    #[inline]
    pub const fn min_encoded_len(self) -> usize {
        match self {
            Self::Double => 8,
            Self::Uuid => 16,
            _ => 1,
        }
    }
}

/// The header of one struct field: its id and wire type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldHeader {
    /// The field id from the Thrift IDL.
    pub id: i16,
    /// The wire type. For booleans it carries the value.
    pub ty: FieldType,
}

/// A value that can be decoded from the compact protocol.
///
/// Structs implement it by hand: loop over [`CompactReader::next_field`],
/// dispatch on the field id, skip what is unknown, then check that required
/// fields were present.
pub trait ReadThrift: Sized {
    /// Wire type of this value when it is a list element or a field.
    const WIRE_TYPE: FieldType;

    /// Decode one value at the reader's position.
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self>;
}

/// A value that can be encoded in the compact protocol.
pub trait WriteThrift {
    /// Wire type of this value when it is a list element or a field.
    const WIRE_TYPE: FieldType;

    /// Encode the value at the writer's position (for structs: all fields
    /// and the closing stop byte).
    fn write_thrift(&self, w: &mut CompactWriter<'_>);
}

/// Decode one `T` from the start of `bytes`. Trailing bytes are ignored.
///
/// ```
/// use strata_format::thrift::decode;
/// // a zigzag varint: 3 encodes -2
/// assert_eq!(decode::<i32>(&[3]).unwrap(), -2);
/// assert!(decode::<i32>(&[0x80]).is_err());
/// ```
pub fn decode<T: ReadThrift>(bytes: &[u8]) -> Result<T> {
    let mut r = CompactReader::new(bytes);
    T::read_thrift(&mut r)
}

/// Decode one `T` from the start of `bytes` and return it with the number
/// of bytes it took (for example to find where a page starts after its
/// header).
pub fn decode_prefix<T: ReadThrift>(bytes: &[u8]) -> Result<(T, usize)> {
    let mut r = CompactReader::new(bytes);
    let v = T::read_thrift(&mut r)?;
    Ok((v, r.position()))
}

/// Append the compact encoding of `value` to `sink`.
pub fn encode<T: WriteThrift + ?Sized>(value: &T, sink: &mut ByteSink) {
    let mut w = CompactWriter::new(sink);
    value.write_thrift(&mut w);
}

/// The compact encoding of `value` as a new vector.
pub fn encode_to_vec<T: WriteThrift + ?Sized>(value: &T) -> Vec<u8> {
    let mut sink = ByteSink::new();
    encode(value, &mut sink);
    sink.into_vec()
}

// Primitive implementations, so lists of them and top-level values work
// through the same generic paths as structs.

impl ReadThrift for bool {
    const WIRE_TYPE: FieldType = FieldType::BoolFalse;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_bool_element()
    }
}

impl WriteThrift for bool {
    const WIRE_TYPE: FieldType = FieldType::BoolFalse;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_bool_element(*self);
    }
}

impl ReadThrift for i8 {
    const WIRE_TYPE: FieldType = FieldType::I8;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_i8()
    }
}

impl WriteThrift for i8 {
    const WIRE_TYPE: FieldType = FieldType::I8;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_i8(*self);
    }
}

impl ReadThrift for i16 {
    const WIRE_TYPE: FieldType = FieldType::I16;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_i16()
    }
}

impl WriteThrift for i16 {
    const WIRE_TYPE: FieldType = FieldType::I16;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_i16(*self);
    }
}

impl ReadThrift for i32 {
    const WIRE_TYPE: FieldType = FieldType::I32;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_i32()
    }
}

impl WriteThrift for i32 {
    const WIRE_TYPE: FieldType = FieldType::I32;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_i32(*self);
    }
}

impl ReadThrift for i64 {
    const WIRE_TYPE: FieldType = FieldType::I64;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_i64()
    }
}

impl WriteThrift for i64 {
    const WIRE_TYPE: FieldType = FieldType::I64;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_i64(*self);
    }
}

impl ReadThrift for f64 {
    const WIRE_TYPE: FieldType = FieldType::Double;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_double()
    }
}

impl WriteThrift for f64 {
    const WIRE_TYPE: FieldType = FieldType::Double;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_double(*self);
    }
}

impl ReadThrift for String {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_string()
    }
}

impl WriteThrift for String {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_binary(self.as_bytes());
    }
}

impl ReadThrift for Vec<u8> {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(r.read_binary()?.to_vec())
    }
}

impl WriteThrift for Vec<u8> {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_binary(self);
    }
}

impl ReadThrift for Box<str> {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(r.read_string()?.into_boxed_str())
    }
}

impl ReadThrift for Box<[u8]> {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(Box::from(r.read_binary()?))
    }
}

impl ReadThrift for SmallVec<[u8; 16]> {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(SmallVec::from_slice(r.read_binary()?))
    }
}

impl WriteThrift for SmallVec<[u8; 16]> {
    const WIRE_TYPE: FieldType = FieldType::Binary;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_binary(self);
    }
}

impl<T: ReadThrift, const N: usize> ReadThrift for SmallVec<[T; N]>
where
    [T; N]: smallvec::Array<Item = T>,
{
    const WIRE_TYPE: FieldType = FieldType::List;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let n = r.read_list_header_of(T::WIRE_TYPE)?;
        let mut out = SmallVec::with_capacity(n);
        for _ in 0..n {
            out.push(T::read_thrift(r)?);
        }
        Ok(out)
    }
}

impl<T: WriteThrift, const N: usize> WriteThrift for SmallVec<[T; N]>
where
    [T; N]: smallvec::Array<Item = T>,
{
    const WIRE_TYPE: FieldType = FieldType::List;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_list(self.as_slice());
    }
}

impl<T: ReadThrift> ReadThrift for Vec<T> {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.read_list()
    }
}

impl<T: ReadThrift> ReadThrift for Box<[T]> {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(r.read_list()?.into_boxed_slice())
    }
}

impl<T: WriteThrift> WriteThrift for Vec<T> {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_list(self);
    }
}

impl<T: WriteThrift> WriteThrift for [T] {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_list(self);
    }
}
