//! arrow-rs's `parquet::data_type`: the values its column writer takes
//! and its row API returns ([`ByteArray`], [`FixedLenByteArray`],
//! [`Int96`]), and the [`DataType`] names of the physical types
//! ([`Int32Type`], [`ByteArrayType`], ...) that select a typed column
//! writer.
//!
//! The physical types are strata's own: `Int32Type` is `i32`,
//! `ByteArrayType` is [`strata_encoding::ByteArray`], and so on, so that
//! `typed::<Int32Type>()` hands out the one column writer
//! ([`ColumnChunkWriter`](crate::writer::ColumnChunkWriter)) the Arrow
//! writer uses too. [`DataType::T`] is the value arrow-rs's
//! `write_batch` takes.
//!
//! ```
//! use strata_file::data_type::{ByteArray, ByteArrayType, DataType, Int32Type};
//! use strata_format::metadata::Type;
//!
//! fn physical<T: DataType>() -> Type {
//!     T::get_physical_type()
//! }
//! assert_eq!(physical::<Int32Type>(), Type::INT32);
//! let value: <ByteArrayType as DataType>::T = ByteArray::from("abc");
//! assert_eq!(value.data(), b"abc");
//! ```

use std::fmt;

use bytes::Bytes;
use strata_encoding::chunk::ChunkValue;
use strata_format::metadata::Type;

use crate::error::{FileError, Result};
use crate::writer::ColumnValue;

pub use strata_encoding::Int96;

/// The bytes of a `BYTE_ARRAY` or `FIXED_LEN_BYTE_ARRAY` value (arrow-rs's
/// `parquet::data_type::ByteArray`), shared without a copy.
///
/// Unlike arrow-rs's, a `ByteArray` always holds bytes (a new one holds
/// none), so [`data`](Self::data) and [`len`](Self::len) never panic.
///
/// ```
/// use strata_file::data_type::ByteArray;
///
/// let value = ByteArray::from("abc");
/// assert_eq!(value.data(), b"abc");
/// assert_eq!(value.as_utf8().unwrap(), "abc");
/// assert_eq!(value.to_string(), "[97, 98, 99]");
/// assert!(ByteArray::new().is_empty());
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteArray {
    data: Bytes,
}

impl ByteArray {
    /// An empty value.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the value has no bytes.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Replace the bytes.
    pub fn set_data(&mut self, data: Bytes) {
        self.data = data;
    }

    /// The bytes as UTF-8 text; an error when they are not.
    pub fn as_utf8(&self) -> Result<&str> {
        std::str::from_utf8(&self.data)
            .map_err(|e| FileError::InvalidArgument(format!("a byte array is not UTF-8: {e}")))
    }
}

impl fmt::Debug for ByteArray {
    /// arrow-rs's form: UTF-8 bytes as text, others as bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("ByteArray");
        match self.as_utf8() {
            Ok(text) => out.field("data", &text),
            Err(_) => out.field("data", &Some(&self.data)),
        };
        out.finish()
    }
}

impl fmt::Display for ByteArray {
    /// The bytes as a list of numbers, `[1, 2, 3]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.data())
    }
}

impl AsRef<[u8]> for ByteArray {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl From<Bytes> for ByteArray {
    fn from(data: Bytes) -> Self {
        Self { data }
    }
}

impl From<Vec<u8>> for ByteArray {
    fn from(data: Vec<u8>) -> Self {
        Bytes::from(data).into()
    }
}

impl From<&[u8]> for ByteArray {
    fn from(data: &[u8]) -> Self {
        Bytes::copy_from_slice(data).into()
    }
}

impl From<&str> for ByteArray {
    fn from(text: &str) -> Self {
        text.as_bytes().into()
    }
}

impl From<String> for ByteArray {
    fn from(text: String) -> Self {
        text.into_bytes().into()
    }
}

/// The bytes of a `FIXED_LEN_BYTE_ARRAY` value (arrow-rs's
/// `parquet::data_type::FixedLenByteArray`): a [`ByteArray`] whose length
/// is the column's width, which it dereferences to.
///
/// ```
/// use strata_file::data_type::FixedLenByteArray;
///
/// let value = FixedLenByteArray::from(vec![1u8, 2, 3, 4]);
/// assert_eq!(value.len(), 4);
/// assert_eq!(value.data(), [1, 2, 3, 4]);
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct FixedLenByteArray(ByteArray);

impl std::ops::Deref for FixedLenByteArray {
    type Target = ByteArray;

    fn deref(&self) -> &ByteArray {
        &self.0
    }
}

impl std::ops::DerefMut for FixedLenByteArray {
    fn deref_mut(&mut self) -> &mut ByteArray {
        &mut self.0
    }
}

impl fmt::Display for FixedLenByteArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<ByteArray> for FixedLenByteArray {
    fn from(value: ByteArray) -> Self {
        Self(value)
    }
}

impl From<FixedLenByteArray> for ByteArray {
    fn from(value: FixedLenByteArray) -> Self {
        value.0
    }
}

impl From<Vec<u8>> for FixedLenByteArray {
    fn from(data: Vec<u8>) -> Self {
        Self(data.into())
    }
}

impl From<&[u8]> for FixedLenByteArray {
    fn from(data: &[u8]) -> Self {
        Self(data.into())
    }
}

/// A value as the bytes a Bloom filter hashes (arrow-rs's
/// `parquet::data_type::AsBytes`): a number's in-memory bytes (little-endian
/// on the platforms strata runs on, which is its PLAIN encoding), a byte
/// array's or string's bytes without a length prefix.
///
/// [`Sbbf::check`](crate::bloom::Sbbf::check) and
/// [`Sbbf::insert`](crate::bloom::Sbbf::insert) take any `AsBytes`.
///
/// ```
/// use strata_file::data_type::{AsBytes, ByteArray, Int96};
///
/// assert_eq!(7i32.as_bytes(), [7, 0, 0, 0]);
/// assert_eq!(1.0f32.as_bytes(), 0x3f80_0000u32.to_le_bytes());
/// assert_eq!("abc".as_bytes(), b"abc");
/// assert_eq!(ByteArray::from("abc").as_bytes(), b"abc");
/// assert_eq!(true.as_bytes(), [1]);
/// assert_eq!(Int96([1, 2, 3]).as_bytes(), [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
/// ```
pub trait AsBytes {
    /// The value's bytes.
    fn as_bytes(&self) -> &[u8];
}

/// `AsBytes` of fixed-width numbers: their in-memory bytes.
macro_rules! number_as_bytes {
    ($($t:ty),*) => {
        $(
            impl AsBytes for $t {
                #[inline]
                fn as_bytes(&self) -> &[u8] {
                    zerocopy::IntoBytes::as_bytes(self)
                }
            }
        )*
    };
}

number_as_bytes!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl AsBytes for bool {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        if *self { &[1] } else { &[0] }
    }
}

impl AsBytes for Int96 {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        zerocopy::IntoBytes::as_bytes(&self.0)
    }
}

impl AsBytes for [u8] {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        self
    }
}

impl AsBytes for Vec<u8> {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        self
    }
}

impl AsBytes for str {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        str::as_bytes(self)
    }
}

impl AsBytes for &str {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        str::as_bytes(self)
    }
}

impl AsBytes for ByteArray {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        self.data()
    }
}

impl AsBytes for FixedLenByteArray {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        self.data()
    }
}

/// A physical type as arrow-rs's typed column writers name it
/// (`parquet::data_type::DataType`): implemented for strata's physical
/// types, which the aliases below name as arrow-rs does.
pub trait DataType: ColumnValue + 'static {
    /// The values a column of this type is written from.
    type T;

    /// The physical type.
    fn get_physical_type() -> Type {
        Self::PHYSICAL
    }

    /// Value `i` of a decoded batch, as the typed column readers hand it
    /// out; `None` past the end.
    fn read_value(values: &<Self as ChunkValue>::Values, i: usize) -> Option<Self::T>;
}

impl<X: ColumnValue + 'static> DataType for X {
    type T = X::Value;

    fn read_value(values: &<Self as ChunkValue>::Values, i: usize) -> Option<Self::T> {
        X::value_at(values, i)
    }
}

/// BOOLEAN (arrow-rs's `BoolType`).
pub type BoolType = bool;
/// INT32 (arrow-rs's `Int32Type`).
pub type Int32Type = i32;
/// INT64 (arrow-rs's `Int64Type`).
pub type Int64Type = i64;
/// INT96 (arrow-rs's `Int96Type`).
pub type Int96Type = Int96;
/// FLOAT (arrow-rs's `FloatType`).
pub type FloatType = f32;
/// DOUBLE (arrow-rs's `DoubleType`).
pub type DoubleType = f64;
/// BYTE_ARRAY (arrow-rs's `ByteArrayType`).
pub type ByteArrayType = strata_encoding::ByteArray;
/// FIXED_LEN_BYTE_ARRAY (arrow-rs's `FixedLenByteArrayType`).
pub type FixedLenByteArrayType = strata_encoding::FixedLenByteArray;
