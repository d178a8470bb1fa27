//! Parquet's Thrift enums.
//!
//! Two kinds:
//! - *closed* enums ([`Type`], [`FieldRepetitionType`]) whose values a
//!   reader must understand to read any data; an unknown value is an error;
//! - *open* enums ([`Encoding`], [`CompressionCodec`], [`ConvertedType`],
//!   [`PageType`], [`BoundaryOrder`], [`EdgeInterpolationAlgorithm`]) that
//!   newer writers extend; an unknown value is kept as `Unknown(i32)` so the
//!   footer still decodes and the upper layers decide what to do.

use crate::error::{FormatError, Result};
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Defines an open Thrift enum: a Rust enum with one variant per known value
/// plus `Unknown(i32)`, conversions to and from `i32`, and Thrift
/// read/write as an `i32`.
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this version of strata does not know, kept as read.
            Unknown(i32),
        }

        impl $name {
            /// The enum for a Thrift value; unknown values become `Unknown`.
            #[inline]
            pub const fn from_i32(v: i32) -> Self {
                match v {
                    $( $value => Self::$variant, )+
                    other => Self::Unknown(other),
                }
            }

            /// The Thrift value of this enum.
            #[inline]
            pub const fn to_i32(self) -> i32 {
                match self {
                    $( Self::$variant => $value, )+
                    Self::Unknown(v) => v,
                }
            }
        }

        impl From<i32> for $name {
            fn from(v: i32) -> Self {
                Self::from_i32(v)
            }
        }

        impl ReadThrift for $name {
            const WIRE_TYPE: FieldType = FieldType::I32;
            #[inline]
            fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
                Ok(Self::from_i32(r.read_i32()?))
            }
        }

        impl WriteThrift for $name {
            const WIRE_TYPE: FieldType = FieldType::I32;
            #[inline]
            fn write_thrift(&self, w: &mut CompactWriter<'_>) {
                w.write_i32(self.to_i32());
            }
        }
    };
}

/// Physical storage type of a column (`Type` in parquet.thrift).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// 1-bit boolean.
    Boolean,
    /// 32-bit signed integer.
    Int32,
    /// 64-bit signed integer.
    Int64,
    /// 96-bit value (deprecated; legacy timestamps).
    Int96,
    /// IEEE 754 single precision.
    Float,
    /// IEEE 754 double precision.
    Double,
    /// Variable-length bytes.
    ByteArray,
    /// Fixed-length bytes; the length is `SchemaElement::type_length`.
    FixedLenByteArray,
}

impl Type {
    /// The physical type for a Thrift value, or an error for values the
    /// specification does not define.
    pub const fn try_from_i32(v: i32) -> Result<Self> {
        Ok(match v {
            0 => Self::Boolean,
            1 => Self::Int32,
            2 => Self::Int64,
            3 => Self::Int96,
            4 => Self::Float,
            5 => Self::Double,
            6 => Self::ByteArray,
            7 => Self::FixedLenByteArray,
            other => {
                return Err(FormatError::InvalidValue {
                    what: "physical type",
                    value: other as i64,
                });
            }
        })
    }

    /// The Thrift value.
    pub const fn to_i32(self) -> i32 {
        match self {
            Self::Boolean => 0,
            Self::Int32 => 1,
            Self::Int64 => 2,
            Self::Int96 => 3,
            Self::Float => 4,
            Self::Double => 5,
            Self::ByteArray => 6,
            Self::FixedLenByteArray => 7,
        }
    }
}

/// arrow-rs's spellings (`parquet::basic::Type::INT32`), so code written
/// for it names strata's variants unchanged.
///
/// ```
/// use strata_format::metadata::Type;
/// assert_eq!(Type::FIXED_LEN_BYTE_ARRAY, Type::FixedLenByteArray);
/// assert_eq!(Type::INT96.to_string(), "INT96");
/// ```
#[allow(non_upper_case_globals)]
impl Type {
    /// `BOOLEAN`.
    pub const BOOLEAN: Self = Self::Boolean;
    /// `INT32`.
    pub const INT32: Self = Self::Int32;
    /// `INT64`.
    pub const INT64: Self = Self::Int64;
    /// `INT96`.
    pub const INT96: Self = Self::Int96;
    /// `FLOAT`.
    pub const FLOAT: Self = Self::Float;
    /// `DOUBLE`.
    pub const DOUBLE: Self = Self::Double;
    /// `BYTE_ARRAY`.
    pub const BYTE_ARRAY: Self = Self::ByteArray;
    /// `FIXED_LEN_BYTE_ARRAY`.
    pub const FIXED_LEN_BYTE_ARRAY: Self = Self::FixedLenByteArray;

    /// The specification's name (`FIXED_LEN_BYTE_ARRAY`).
    pub const fn spec_name(self) -> &'static str {
        match self {
            Self::Boolean => "BOOLEAN",
            Self::Int32 => "INT32",
            Self::Int64 => "INT64",
            Self::Int96 => "INT96",
            Self::Float => "FLOAT",
            Self::Double => "DOUBLE",
            Self::ByteArray => "BYTE_ARRAY",
            Self::FixedLenByteArray => "FIXED_LEN_BYTE_ARRAY",
        }
    }
}

/// The specification's name, as arrow-rs prints it.
impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.spec_name())
    }
}

impl ReadThrift for Type {
    const WIRE_TYPE: FieldType = FieldType::I32;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Self::try_from_i32(r.read_i32()?)
    }
}

impl WriteThrift for Type {
    const WIRE_TYPE: FieldType = FieldType::I32;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_i32(self.to_i32());
    }
}

/// Repetition of a schema field (`FieldRepetitionType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldRepetitionType {
    /// Exactly one value per parent.
    Required,
    /// Zero or one value per parent.
    Optional,
    /// Zero or more values per parent.
    Repeated,
    /// A fixed-size vector group (`VECTOR`, see LogicalTypes.md).
    Vector,
}

impl FieldRepetitionType {
    /// The repetition for a Thrift value, or an error for values the
    /// specification does not define.
    pub const fn try_from_i32(v: i32) -> Result<Self> {
        Ok(match v {
            0 => Self::Required,
            1 => Self::Optional,
            2 => Self::Repeated,
            3 => Self::Vector,
            other => {
                return Err(FormatError::InvalidValue {
                    what: "field repetition type",
                    value: other as i64,
                });
            }
        })
    }

    /// The Thrift value.
    pub const fn to_i32(self) -> i32 {
        match self {
            Self::Required => 0,
            Self::Optional => 1,
            Self::Repeated => 2,
            Self::Vector => 3,
        }
    }
}

/// arrow-rs's spellings (`parquet::basic::Repetition::REQUIRED`).
///
/// ```
/// use strata_format::metadata::FieldRepetitionType;
/// assert_eq!(FieldRepetitionType::OPTIONAL, FieldRepetitionType::Optional);
/// assert_eq!(FieldRepetitionType::REPEATED.to_string(), "REPEATED");
/// ```
#[allow(non_upper_case_globals)]
impl FieldRepetitionType {
    /// `REQUIRED`.
    pub const REQUIRED: Self = Self::Required;
    /// `OPTIONAL`.
    pub const OPTIONAL: Self = Self::Optional;
    /// `REPEATED`.
    pub const REPEATED: Self = Self::Repeated;
}

/// The specification's name (`REQUIRED`, `VECTOR`), as arrow-rs prints it.
impl std::fmt::Display for FieldRepetitionType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Required => "REQUIRED",
            Self::Optional => "OPTIONAL",
            Self::Repeated => "REPEATED",
            Self::Vector => "VECTOR",
        })
    }
}

impl ReadThrift for FieldRepetitionType {
    const WIRE_TYPE: FieldType = FieldType::I32;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Self::try_from_i32(r.read_i32()?)
    }
}

impl WriteThrift for FieldRepetitionType {
    const WIRE_TYPE: FieldType = FieldType::I32;
    #[inline]
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_i32(self.to_i32());
    }
}

/// arrow-rs's names for the variants of an [`open_enum!`] enum, as
/// associated constants (`PageType::DATA_PAGE`), and `Display` / `Debug`
/// printing them as arrow-rs does (`UNKNOWN(id)` for a value the format
/// does not name).
macro_rules! arrow_spellings {
    ($name:ident, $path:literal { $( $variant:ident => $spelling:ident, )+ }) => {
        #[doc = concat!("arrow-rs's spellings (`", $path, "`).")]
        impl $name {
            $(
                #[doc = concat!("`", stringify!($spelling), "`.")]
                pub const $spelling: Self = Self::$variant;
            )+
        }

        /// The specification's name, as arrow-rs prints it; `UNKNOWN(id)`
        /// for a value the format does not name.
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self {
                    $( Self::$variant => stringify!($spelling), )+
                    Self::Unknown(v) => return write!(f, "UNKNOWN({v})"),
                })
            }
        }

        /// As [`Display`](std::fmt::Display).
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(self, f)
            }
        }
    };
}

open_enum! {
    /// Legacy type annotation (`ConvertedType`), superseded by
    /// [`LogicalType`](super::LogicalType) but still written for
    /// compatibility.
    pub enum ConvertedType {
        /// No annotation: arrow-rs's `ConvertedType::NONE`, what a schema
        /// node without a converted type reports. Never written to a footer.
        None = -1,
        /// UTF-8 string in a `BYTE_ARRAY`.
        Utf8 = 0,
        /// Map group.
        Map = 1,
        /// Key/value group of a map.
        MapKeyValue = 2,
        /// List group.
        List = 3,
        /// Enum in a `BYTE_ARRAY`.
        Enum = 4,
        /// Decimal; precision and scale are on the schema element.
        Decimal = 5,
        /// Days since the Unix epoch in `INT32`.
        Date = 6,
        /// Milliseconds since midnight in `INT32`.
        TimeMillis = 7,
        /// Microseconds since midnight in `INT64`.
        TimeMicros = 8,
        /// Milliseconds since the Unix epoch in `INT64`.
        TimestampMillis = 9,
        /// Microseconds since the Unix epoch in `INT64`.
        TimestampMicros = 10,
        /// Unsigned 8-bit integer.
        Uint8 = 11,
        /// Unsigned 16-bit integer.
        Uint16 = 12,
        /// Unsigned 32-bit integer.
        Uint32 = 13,
        /// Unsigned 64-bit integer.
        Uint64 = 14,
        /// Signed 8-bit integer.
        Int8 = 15,
        /// Signed 16-bit integer.
        Int16 = 16,
        /// Signed 32-bit integer.
        Int32 = 17,
        /// Signed 64-bit integer.
        Int64 = 18,
        /// JSON document.
        Json = 19,
        /// BSON document.
        Bson = 20,
        /// Months/days/milliseconds interval in `FIXED_LEN_BYTE_ARRAY(12)`.
        Interval = 21,
    }
}

/// arrow-rs's spellings (`parquet::basic::ConvertedType::UTF8`), usable
/// in patterns, and the specification's names when printed.
///
/// ```
/// use strata_format::metadata::ConvertedType;
///
/// assert_eq!(ConvertedType::TIMESTAMP_MICROS, ConvertedType::TimestampMicros);
/// assert_eq!(ConvertedType::MAP_KEY_VALUE.to_string(), "MAP_KEY_VALUE");
/// assert_eq!(format!("{:?}", ConvertedType::NONE), "NONE");
/// assert_eq!("INT_8".parse::<ConvertedType>().ok(), Some(ConvertedType::Int8));
/// ```
#[allow(non_upper_case_globals)]
impl ConvertedType {
    /// `NONE`: no annotation.
    pub const NONE: Self = Self::None;
    /// `UTF8`.
    pub const UTF8: Self = Self::Utf8;
    /// `MAP`.
    pub const MAP: Self = Self::Map;
    /// `MAP_KEY_VALUE`.
    pub const MAP_KEY_VALUE: Self = Self::MapKeyValue;
    /// `LIST`.
    pub const LIST: Self = Self::List;
    /// `ENUM`.
    pub const ENUM: Self = Self::Enum;
    /// `DECIMAL`.
    pub const DECIMAL: Self = Self::Decimal;
    /// `DATE`.
    pub const DATE: Self = Self::Date;
    /// `TIME_MILLIS`.
    pub const TIME_MILLIS: Self = Self::TimeMillis;
    /// `TIME_MICROS`.
    pub const TIME_MICROS: Self = Self::TimeMicros;
    /// `TIMESTAMP_MILLIS`.
    pub const TIMESTAMP_MILLIS: Self = Self::TimestampMillis;
    /// `TIMESTAMP_MICROS`.
    pub const TIMESTAMP_MICROS: Self = Self::TimestampMicros;
    /// `UINT_8`.
    pub const UINT_8: Self = Self::Uint8;
    /// `UINT_16`.
    pub const UINT_16: Self = Self::Uint16;
    /// `UINT_32`.
    pub const UINT_32: Self = Self::Uint32;
    /// `UINT_64`.
    pub const UINT_64: Self = Self::Uint64;
    /// `INT_8`.
    pub const INT_8: Self = Self::Int8;
    /// `INT_16`.
    pub const INT_16: Self = Self::Int16;
    /// `INT_32`.
    pub const INT_32: Self = Self::Int32;
    /// `INT_64`.
    pub const INT_64: Self = Self::Int64;
    /// `JSON`.
    pub const JSON: Self = Self::Json;
    /// `BSON`.
    pub const BSON: Self = Self::Bson;
    /// `INTERVAL`.
    pub const INTERVAL: Self = Self::Interval;

    /// Every named value, `NONE` first.
    const NAMED: [Self; 23] = [
        Self::None,
        Self::Utf8,
        Self::Map,
        Self::MapKeyValue,
        Self::List,
        Self::Enum,
        Self::Decimal,
        Self::Date,
        Self::TimeMillis,
        Self::TimeMicros,
        Self::TimestampMillis,
        Self::TimestampMicros,
        Self::Uint8,
        Self::Uint16,
        Self::Uint32,
        Self::Uint64,
        Self::Int8,
        Self::Int16,
        Self::Int32,
        Self::Int64,
        Self::Json,
        Self::Bson,
        Self::Interval,
    ];

    /// The specification's name (`TIMESTAMP_MILLIS`); `None` for an
    /// [`Unknown`](Self::Unknown) value.
    pub const fn spec_name(self) -> Option<&'static str> {
        Some(match self {
            Self::None => "NONE",
            Self::Utf8 => "UTF8",
            Self::Map => "MAP",
            Self::MapKeyValue => "MAP_KEY_VALUE",
            Self::List => "LIST",
            Self::Enum => "ENUM",
            Self::Decimal => "DECIMAL",
            Self::Date => "DATE",
            Self::TimeMillis => "TIME_MILLIS",
            Self::TimeMicros => "TIME_MICROS",
            Self::TimestampMillis => "TIMESTAMP_MILLIS",
            Self::TimestampMicros => "TIMESTAMP_MICROS",
            Self::Uint8 => "UINT_8",
            Self::Uint16 => "UINT_16",
            Self::Uint32 => "UINT_32",
            Self::Uint64 => "UINT_64",
            Self::Int8 => "INT_8",
            Self::Int16 => "INT_16",
            Self::Int32 => "INT_32",
            Self::Int64 => "INT_64",
            Self::Json => "JSON",
            Self::Bson => "BSON",
            Self::Interval => "INTERVAL",
            Self::Unknown(_) => return None,
        })
    }

    /// The annotation as a footer stores it: `None` for [`NONE`](Self::NONE).
    pub const fn to_option(self) -> Option<Self> {
        match self {
            Self::None => None,
            other => Some(other),
        }
    }

    /// The annotation a footer's optional field stands for: `NONE` when
    /// absent.
    pub const fn from_option(v: Option<Self>) -> Self {
        match v {
            Some(v) => v,
            None => Self::None,
        }
    }
}

/// The specification's name (`UTF8`), as arrow-rs prints it;
/// `UNKNOWN(id)` for a value the format does not name.
impl std::fmt::Debug for ConvertedType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// The specification's name, as [`Debug`](std::fmt::Debug) prints it.
impl std::fmt::Display for ConvertedType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.spec_name() {
            Some(name) => f.write_str(name),
            None => write!(f, "UNKNOWN({})", self.to_i32()),
        }
    }
}

/// Parses a specification name in capitals (`"UTF8"`, `"NONE"`), as
/// arrow-rs does.
impl std::str::FromStr for ConvertedType {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self> {
        Self::NAMED
            .into_iter()
            .find(|c| c.spec_name() == Some(s))
            .ok_or_else(|| FormatError::UnknownName {
                what: "converted type",
                name: s.to_owned(),
            })
    }
}

/// Parses a specification name in capitals (`"INT32"`; `"BINARY"` for
/// `BYTE_ARRAY`), as arrow-rs does.
impl std::str::FromStr for Type {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "BOOLEAN" => Self::Boolean,
            "INT32" => Self::Int32,
            "INT64" => Self::Int64,
            "INT96" => Self::Int96,
            "FLOAT" => Self::Float,
            "DOUBLE" => Self::Double,
            "BYTE_ARRAY" | "BINARY" => Self::ByteArray,
            "FIXED_LEN_BYTE_ARRAY" => Self::FixedLenByteArray,
            other => {
                return Err(FormatError::UnknownName {
                    what: "physical type",
                    name: other.to_owned(),
                });
            }
        })
    }
}

/// Parses `REQUIRED`, `OPTIONAL` or `REPEATED`, as arrow-rs does.
impl std::str::FromStr for FieldRepetitionType {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "REQUIRED" => Self::Required,
            "OPTIONAL" => Self::Optional,
            "REPEATED" => Self::Repeated,
            other => {
                return Err(FormatError::UnknownName {
                    what: "repetition",
                    name: other.to_owned(),
                });
            }
        })
    }
}

open_enum! {
    /// How the values (or levels) of a page are encoded (`Encoding`).
    pub enum Encoding {
        /// Values back to back.
        Plain = 0,
        /// Deprecated dictionary encoding (Parquet 1.0 name).
        PlainDictionary = 2,
        /// RLE / bit-packed hybrid.
        Rle = 3,
        /// Deprecated bit-packed levels.
        BitPacked = 4,
        /// Delta encoding for integers.
        DeltaBinaryPacked = 5,
        /// Delta-encoded lengths, then the bytes.
        DeltaLengthByteArray = 6,
        /// Incremental (prefix) encoding of byte arrays.
        DeltaByteArray = 7,
        /// Dictionary indices in RLE / bit-packed hybrid.
        RleDictionary = 8,
        /// Bytes of fixed-width values split into streams.
        ByteStreamSplit = 9,
        /// Adaptive Lossless floating-Point encoding.
        Alp = 10,
    }
}

/// arrow-rs's spellings (`parquet::basic::Encoding::PLAIN`, ...), so code
/// written against arrow-rs names the same encodings on this one enum:
/// `Encoding::PLAIN == Encoding::Plain`. They work in patterns too.
///
/// ```
/// use strata_format::metadata::Encoding;
///
/// assert_eq!(Encoding::RLE_DICTIONARY, Encoding::RleDictionary);
/// assert_eq!(Encoding::DELTA_BINARY_PACKED.to_string(), "DELTA_BINARY_PACKED");
/// assert_eq!("byte_stream_split".parse::<Encoding>().ok(), Some(Encoding::ByteStreamSplit));
/// assert_eq!(Encoding::from_i32(1), Encoding::Unknown(1)); // id 1 was never assigned
/// ```
#[allow(non_upper_case_globals)]
impl Encoding {
    /// `PLAIN`.
    pub const PLAIN: Self = Self::Plain;
    /// `PLAIN_DICTIONARY`.
    pub const PLAIN_DICTIONARY: Self = Self::PlainDictionary;
    /// `RLE`.
    pub const RLE: Self = Self::Rle;
    /// `BIT_PACKED`.
    #[deprecated = "deprecated by the format; strata does not write it"]
    pub const BIT_PACKED: Self = Self::BitPacked;
    /// `DELTA_BINARY_PACKED`.
    pub const DELTA_BINARY_PACKED: Self = Self::DeltaBinaryPacked;
    /// `DELTA_LENGTH_BYTE_ARRAY`.
    pub const DELTA_LENGTH_BYTE_ARRAY: Self = Self::DeltaLengthByteArray;
    /// `DELTA_BYTE_ARRAY`.
    pub const DELTA_BYTE_ARRAY: Self = Self::DeltaByteArray;
    /// `RLE_DICTIONARY`.
    pub const RLE_DICTIONARY: Self = Self::RleDictionary;
    /// `BYTE_STREAM_SPLIT`.
    pub const BYTE_STREAM_SPLIT: Self = Self::ByteStreamSplit;

    /// Every encoding the format names, in id order.
    pub const KNOWN: [Self; 10] = [
        Self::Plain,
        Self::PlainDictionary,
        Self::Rle,
        Self::BitPacked,
        Self::DeltaBinaryPacked,
        Self::DeltaLengthByteArray,
        Self::DeltaByteArray,
        Self::RleDictionary,
        Self::ByteStreamSplit,
        Self::Alp,
    ];

    /// The name the format specification uses (`"DELTA_BINARY_PACKED"`);
    /// `None` for an [`Unknown`](Self::Unknown) id.
    pub const fn spec_name(self) -> Option<&'static str> {
        Some(match self {
            Self::Plain => "PLAIN",
            Self::PlainDictionary => "PLAIN_DICTIONARY",
            Self::Rle => "RLE",
            Self::BitPacked => "BIT_PACKED",
            Self::DeltaBinaryPacked => "DELTA_BINARY_PACKED",
            Self::DeltaLengthByteArray => "DELTA_LENGTH_BYTE_ARRAY",
            Self::DeltaByteArray => "DELTA_BYTE_ARRAY",
            Self::RleDictionary => "RLE_DICTIONARY",
            Self::ByteStreamSplit => "BYTE_STREAM_SPLIT",
            Self::Alp => "ALP",
            Self::Unknown(_) => return None,
        })
    }

    /// Whether data pages of this encoding hold dictionary indices
    /// (`RLE_DICTIONARY`, or its deprecated spelling `PLAIN_DICTIONARY`).
    pub const fn is_dictionary(self) -> bool {
        matches!(self, Self::RleDictionary | Self::PlainDictionary)
    }
}

/// The specification's name (`DELTA_BINARY_PACKED`), as arrow-rs prints
/// it; `UNKNOWN(id)` for an id the format does not name.
impl std::fmt::Debug for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// The specification's name, as [`Debug`](std::fmt::Debug) prints it.
impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.spec_name() {
            Some(name) => f.write_str(name),
            None => write!(f, "UNKNOWN({})", self.to_i32()),
        }
    }
}

/// Parses a specification name, in any case (`"plain"`, `"RLE_DICTIONARY"`).
impl std::str::FromStr for Encoding {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self> {
        Self::KNOWN
            .into_iter()
            .find(|e| e.spec_name().is_some_and(|n| n.eq_ignore_ascii_case(s)))
            .ok_or_else(|| FormatError::UnknownName {
                what: "encoding",
                name: s.to_owned(),
            })
    }
}

open_enum! {
    /// Compression codec of a column chunk's pages (`CompressionCodec`).
    #[derive(Debug)]
    pub enum CompressionCodec {
        /// No compression.
        Uncompressed = 0,
        /// Snappy.
        Snappy = 1,
        /// Gzip (deflate with gzip framing).
        Gzip = 2,
        /// LZO.
        Lzo = 3,
        /// Brotli.
        Brotli = 4,
        /// Deprecated Hadoop-framed LZ4.
        Lz4 = 5,
        /// Zstandard.
        Zstd = 6,
        /// LZ4 block format without framing.
        Lz4Raw = 7,
    }
}

open_enum! {
    /// Kind of page (`PageType`). Printed, and also named, with arrow-rs's
    /// spellings (`PageType::DATA_PAGE`).
    ///
    /// ```
    /// use strata_format::metadata::PageType;
    ///
    /// assert_eq!(format!("{:?}", PageType::DICTIONARY_PAGE), "DICTIONARY_PAGE");
    /// assert_eq!(PageType::from_i32(9).to_string(), "UNKNOWN(9)");
    /// ```
    pub enum PageType {
        /// Version 1 data page.
        DataPage = 0,
        /// Index page (unused).
        IndexPage = 1,
        /// Dictionary page.
        DictionaryPage = 2,
        /// Version 2 data page.
        DataPageV2 = 3,
    }
}

arrow_spellings!(PageType, "parquet::basic::PageType" {
    DataPage => DATA_PAGE,
    IndexPage => INDEX_PAGE,
    DictionaryPage => DICTIONARY_PAGE,
    DataPageV2 => DATA_PAGE_V2,
});

open_enum! {
    /// Ordering of the page bounds in a column index (`BoundaryOrder`).
    /// Printed, and also named, with arrow-rs's spellings
    /// (`BoundaryOrder::ASCENDING`).
    ///
    /// ```
    /// use strata_format::metadata::BoundaryOrder;
    ///
    /// assert_eq!(format!("{:?}", BoundaryOrder::ASCENDING), "ASCENDING");
    /// assert_eq!(BoundaryOrder::from_i32(7).to_string(), "UNKNOWN(7)");
    /// ```
    pub enum BoundaryOrder {
        /// No particular order.
        Unordered = 0,
        /// Ascending.
        Ascending = 1,
        /// Descending.
        Descending = 2,
    }
}

arrow_spellings!(BoundaryOrder, "parquet::basic::BoundaryOrder" {
    Unordered => UNORDERED,
    Ascending => ASCENDING,
    Descending => DESCENDING,
});

open_enum! {
    /// Edge interpolation of the `GEOGRAPHY` logical type.
    pub enum EdgeInterpolationAlgorithm {
        /// Spherical edges.
        Spherical = 0,
        /// Vincenty's formulae.
        Vincenty = 1,
        /// Thomas' formulae.
        Thomas = 2,
        /// Andoyer's formulae.
        Andoyer = 3,
        /// Karney's algorithm.
        Karney = 4,
    }
}

arrow_spellings!(EdgeInterpolationAlgorithm, "parquet::basic::EdgeInterpolationAlgorithm" {
    Spherical => SPHERICAL,
    Vincenty => VINCENTY,
    Thomas => THOMAS,
    Andoyer => ANDOYER,
    Karney => KARNEY,
});
