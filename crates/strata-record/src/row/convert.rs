//! Physical values to [`Field`]s, as a leaf column's annotation says
//! (arrow-rs's `Field::convert_*` rules).
//!
//! arrow-rs decides by the leaf's converted type; a leaf annotated only
//! with a logical type gets the converted type that logical type stands
//! for (a `TIMESTAMP(NANOS)`, a `UUID` or a `FLOAT16` has none).
//!
//! | physical | annotation | field |
//! |---|---|---|
//! | BOOLEAN | any | `Bool` |
//! | INT32 | none, `INT_32` / `INT_8`, `INT_16` / `UINT_8`, `UINT_16`, `UINT_32` | `Int` / `Byte`, `Short` / `UByte`, `UShort`, `UInt` |
//! | INT32 | `DATE`, `TIME_MILLIS`, `DECIMAL` | `Date`, `TimeMillis`, `Decimal` |
//! | INT64 | none, `INT_64` / `UINT_64` | `Long` / `ULong` |
//! | INT64 | `TIME_MICROS`, `TIMESTAMP_MILLIS`, `TIMESTAMP_MICROS`, `DECIMAL` | `TimeMicros`, `TimestampMillis`, `TimestampMicros`, `Decimal` |
//! | INT96 | any | `TimestampMillis` (Julian day and nanoseconds, wrapping) |
//! | FLOAT, DOUBLE | any | `Float`, `Double` |
//! | BYTE_ARRAY | `UTF8`, `ENUM`, `JSON` / none, `BSON` / `DECIMAL` | `Str` (UTF-8 checked) / `Bytes` / `Decimal` |
//! | FIXED_LEN_BYTE_ARRAY | `DECIMAL` / none and `FLOAT16` / none | `Decimal` / `Float16` / `Bytes` |
//!
//! Any other pairing (an `INTERVAL`, say) is an error when a value of it
//! is read; arrow-rs panics there, or refuses the schema when the file is
//! opened.

use bytes::Bytes;
use half::f16;
use strata_encoding::Int96;
use strata_format::ColumnDescriptor;
use strata_format::metadata::{ConvertedType, DecimalType, LogicalType, Type};

use super::field::{ByteArray, Decimal, Field};
use crate::error::{RecordError, Result};

/// The longest decimal (in bytes of its unscaled value) the row reader
/// turns into a [`Field`]: 512 bytes, 1,233 digits, far past any precision
/// a writer uses. A longer value is an error, so a hostile file cannot make
/// the text of its values cost quadratic time in their length.
pub const MAX_DECIMAL_BYTES: usize = 512;

/// How the values of one leaf become fields.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Conversion {
    Bool,
    Byte,
    Short,
    Int,
    UByte,
    UShort,
    UInt,
    Date,
    TimeMillis,
    Long,
    ULong,
    TimeMicros,
    TimestampMillis,
    TimestampMicros,
    Int96,
    Float,
    Double,
    Str,
    Bytes,
    Float16,
    /// A decimal of the given precision and scale.
    Decimal(i32, i32),
    /// Values of this leaf cannot be fields: the reason.
    Unsupported(String),
}

impl Conversion {
    /// The conversion of `descr`'s values.
    pub(crate) fn of(descr: &ColumnDescriptor) -> Self {
        use ConvertedType as C;
        // The stored annotation, else the one the logical type implies.
        let converted = descr.converted_type().to_option();
        let decimal = || {
            let (logical_precision, logical_scale) = match &descr.logical_type {
                Some(LogicalType::Decimal(DecimalType { precision, scale })) => {
                    (Some(*precision), Some(*scale))
                }
                _ => (None, None),
            };
            Conversion::Decimal(
                descr.precision.or(logical_precision).unwrap_or(-1),
                descr.scale.or(logical_scale).unwrap_or(-1),
            )
        };
        match (descr.physical_type, converted) {
            (Type::Boolean, _) => Conversion::Bool,
            (Type::Int32, None | Some(C::Int32)) => Conversion::Int,
            (Type::Int32, Some(C::Int8)) => Conversion::Byte,
            (Type::Int32, Some(C::Int16)) => Conversion::Short,
            (Type::Int32, Some(C::Uint8)) => Conversion::UByte,
            (Type::Int32, Some(C::Uint16)) => Conversion::UShort,
            (Type::Int32, Some(C::Uint32)) => Conversion::UInt,
            (Type::Int32, Some(C::Date)) => Conversion::Date,
            (Type::Int32, Some(C::TimeMillis)) => Conversion::TimeMillis,
            (Type::Int64, None | Some(C::Int64)) => Conversion::Long,
            (Type::Int64, Some(C::Uint64)) => Conversion::ULong,
            (Type::Int64, Some(C::TimeMicros)) => Conversion::TimeMicros,
            (Type::Int64, Some(C::TimestampMillis)) => Conversion::TimestampMillis,
            (Type::Int64, Some(C::TimestampMicros)) => Conversion::TimestampMicros,
            (Type::Int32 | Type::Int64, Some(C::Decimal)) => decimal(),
            (Type::Int96, _) => Conversion::Int96,
            (Type::Float, _) => Conversion::Float,
            (Type::Double, _) => Conversion::Double,
            (Type::ByteArray, Some(C::Utf8 | C::Enum | C::Json)) => Conversion::Str,
            (Type::ByteArray, None | Some(C::Bson)) => Conversion::Bytes,
            (Type::ByteArray | Type::FixedLenByteArray, Some(C::Decimal)) => decimal(),
            (Type::FixedLenByteArray, None) if descr.logical_type == Some(LogicalType::Float16) => {
                Conversion::Float16
            }
            (Type::FixedLenByteArray, None) => Conversion::Bytes,
            (physical, converted) => Conversion::Unsupported(format!(
                "column {} is {physical:?} annotated {converted:?}, which the row reader cannot read",
                descr.path
            )),
        }
    }

    fn unsupported(&self) -> RecordError {
        match self {
            Conversion::Unsupported(reason) => RecordError::Row(reason.clone()),
            other => RecordError::Row(format!("a {other:?} column read a value of another type")),
        }
    }

    /// A `BOOLEAN` value.
    pub(crate) fn field_of_bool(&self, v: bool) -> Result<Field> {
        match self {
            Conversion::Bool => Ok(Field::Bool(v)),
            _ => Err(self.unsupported()),
        }
    }

    /// An `INT32` value.
    pub(crate) fn field_of_i32(&self, v: i32) -> Result<Field> {
        Ok(match *self {
            Conversion::Int => Field::Int(v),
            Conversion::Byte => Field::Byte(v as i8),
            Conversion::Short => Field::Short(v as i16),
            Conversion::UByte => Field::UByte(v as u8),
            Conversion::UShort => Field::UShort(v as u16),
            Conversion::UInt => Field::UInt(v as u32),
            Conversion::Date => Field::Date(v),
            Conversion::TimeMillis => Field::TimeMillis(v),
            Conversion::Decimal(precision, scale) => {
                Field::Decimal(Decimal::from_i32(v, precision, scale))
            }
            _ => return Err(self.unsupported()),
        })
    }

    /// An `INT64` value.
    pub(crate) fn field_of_i64(&self, v: i64) -> Result<Field> {
        Ok(match *self {
            Conversion::Long => Field::Long(v),
            Conversion::ULong => Field::ULong(v as u64),
            Conversion::TimeMicros => Field::TimeMicros(v),
            Conversion::TimestampMillis => Field::TimestampMillis(v),
            Conversion::TimestampMicros => Field::TimestampMicros(v),
            Conversion::Decimal(precision, scale) => {
                Field::Decimal(Decimal::from_i64(v, precision, scale))
            }
            _ => return Err(self.unsupported()),
        })
    }

    /// An `INT96` value: milliseconds since the epoch of its Julian day
    /// (third word) and nanoseconds of the day (first two words), wrapping
    /// on overflow as arrow-rs's `Int96::to_millis` does.
    pub(crate) fn field_of_int96(&self, v: Int96) -> Result<Field> {
        if *self != Conversion::Int96 {
            return Err(self.unsupported());
        }
        Ok(Field::TimestampMillis(v.to_millis()))
    }

    /// A `FLOAT` value.
    pub(crate) fn field_of_f32(&self, v: f32) -> Result<Field> {
        match self {
            Conversion::Float => Ok(Field::Float(v)),
            _ => Err(self.unsupported()),
        }
    }

    /// A `DOUBLE` value.
    pub(crate) fn field_of_f64(&self, v: f64) -> Result<Field> {
        match self {
            Conversion::Double => Ok(Field::Double(v)),
            _ => Err(self.unsupported()),
        }
    }

    /// A `BYTE_ARRAY` or `FIXED_LEN_BYTE_ARRAY` value.
    pub(crate) fn field_of_bytes(&self, v: &[u8]) -> Result<Field> {
        Ok(match *self {
            Conversion::Str => match std::str::from_utf8(v) {
                Ok(text) => Field::Str(text.to_owned()),
                Err(e) => {
                    return Err(RecordError::Row(format!(
                        "a string value is not UTF-8: {e}"
                    )));
                }
            },
            Conversion::Bytes => Field::Bytes(ByteArray::from(Bytes::copy_from_slice(v))),
            Conversion::Decimal(precision, scale) => {
                if v.len() > MAX_DECIMAL_BYTES {
                    return Err(RecordError::Row(format!(
                        "a decimal of {} bytes is longer than the row reader's limit of {MAX_DECIMAL_BYTES}",
                        v.len()
                    )));
                }
                Field::Decimal(Decimal::from_bytes(v.into(), precision, scale))
            }
            Conversion::Float16 => match v {
                [a, b] => Field::Float16(f16::from_le_bytes([*a, *b])),
                _ => {
                    return Err(RecordError::Row(format!(
                        "a FLOAT16 value of {} bytes (2 expected)",
                        v.len()
                    )));
                }
            },
            _ => return Err(self.unsupported()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_format::ColumnPath;
    use strata_format::metadata::{FieldRepetitionType, TimeUnit, TimestampType};

    fn leaf(
        physical_type: Type,
        converted_type: Option<ConvertedType>,
        logical_type: Option<LogicalType>,
    ) -> ColumnDescriptor {
        let leaf = strata_format::schema::Type::PrimitiveType {
            basic_info: strata_format::schema::BasicTypeInfo::new(
                "x".into(),
                Some(FieldRepetitionType::Optional),
                ConvertedType::from_option(converted_type),
                logical_type,
                None,
            ),
            physical_type,
            type_length: -1,
            scale: 2,
            precision: 5,
        };
        ColumnDescriptor::new(std::sync::Arc::new(leaf), 1, 0, ColumnPath::from("x"))
    }

    #[test]
    fn annotations_pick_the_field() {
        let c = Conversion::of(&leaf(Type::Int32, Some(ConvertedType::Uint8), None));
        assert_eq!(c.field_of_i32(-1).unwrap(), Field::UByte(255));
        let c = Conversion::of(&leaf(
            Type::Int64,
            None,
            Some(LogicalType::Timestamp(TimestampType {
                is_adjusted_to_u_t_c: true,
                unit: TimeUnit::Micros,
            })),
        ));
        assert_eq!(c.field_of_i64(5).unwrap(), Field::TimestampMicros(5));
        let c = Conversion::of(&leaf(
            Type::Int64,
            None,
            Some(LogicalType::Timestamp(TimestampType {
                is_adjusted_to_u_t_c: true,
                unit: TimeUnit::Nanos,
            })),
        ));
        assert_eq!(c.field_of_i64(5).unwrap(), Field::Long(5));
        let c = Conversion::of(&leaf(Type::Int32, Some(ConvertedType::Decimal), None));
        assert_eq!(c.field_of_i32(1234).unwrap().to_string(), "12.34");
        let c = Conversion::of(&leaf(Type::ByteArray, Some(ConvertedType::Json), None));
        assert_eq!(c.field_of_bytes(b"{}").unwrap(), Field::Str("{}".into()));
        assert!(c.field_of_bytes(&[0xFF]).is_err());
        let c = Conversion::of(&leaf(
            Type::FixedLenByteArray,
            None,
            Some(LogicalType::Float16),
        ));
        assert_eq!(c.field_of_bytes(&[0, 0x3C]).unwrap().to_string(), "1.0");
        assert!(c.field_of_bytes(&[0]).is_err());
        let c = Conversion::of(&leaf(
            Type::FixedLenByteArray,
            Some(ConvertedType::Interval),
            None,
        ));
        assert!(matches!(c, Conversion::Unsupported(_)));
        assert!(c.field_of_bytes(&[0; 12]).is_err());
        let c = Conversion::of(&leaf(
            Type::FixedLenByteArray,
            Some(ConvertedType::Decimal),
            None,
        ));
        assert!(c.field_of_bytes(&vec![0; MAX_DECIMAL_BYTES + 1]).is_err());
        assert!(c.field_of_bytes(&vec![0; MAX_DECIMAL_BYTES]).is_ok());
    }

    #[test]
    fn int96_is_milliseconds_of_the_julian_day() {
        let c = Conversion::Int96;
        // 2_440_588 is 1970-01-01; one day and 1.5 ms later.
        let nanos: u64 = 1_500_000;
        let v = Int96([nanos as u32, (nanos >> 32) as u32, 2_440_589]);
        assert_eq!(
            c.field_of_int96(v).unwrap(),
            Field::TimestampMillis(86_400_001)
        );
        // Extremes wrap instead of overflowing.
        assert!(c.field_of_int96(Int96([u32::MAX; 3])).is_ok());
    }
}
