//! [`LogicalType`] and [`TimeUnit`]: the type annotations of schema leaves.

use super::{EdgeInterpolationAlgorithm, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Unit of `TIME` and `TIMESTAMP` values (the `TimeUnit` union).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
    /// A union member this version does not know, by field id.
    Unknown(i16),
}

impl ReadThrift for TimeUnit {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "TimeUnit";
        let saved = r.begin_struct()?;
        let mut unit = None;
        while let Some(f) = r.next_field()? {
            if unit.is_some() || f.ty != FieldType::Struct {
                r.skip(f.ty)?;
                continue;
            }
            let v = match f.id {
                1 => {
                    r.skip(FieldType::Struct)?;
                    Self::Millis
                }
                2 => {
                    r.skip(FieldType::Struct)?;
                    Self::Micros
                }
                3 => {
                    r.skip(FieldType::Struct)?;
                    Self::Nanos
                }
                id => {
                    r.skip(f.ty)?;
                    Self::Unknown(id)
                }
            };
            unit = Some(v);
        }
        r.end_struct(saved);
        required(unit, NAME, "member")
    }
}

impl WriteThrift for TimeUnit {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        match *self {
            Self::Millis => w.empty_struct_field(1),
            Self::Micros => w.empty_struct_field(2),
            Self::Nanos => w.empty_struct_field(3),
            Self::Unknown(id) => w.empty_struct_field(id),
        }
        w.end_struct(saved);
    }
}

/// A logical type annotation (the `LogicalType` union of parquet.thrift).
///
/// Union members this version does not know are kept as
/// [`LogicalType::Unknown`] with their field id, so files from newer writers
/// still decode; readers should then treat the column by its physical type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LogicalType {
    /// UTF-8 string (`STRING`, id 1).
    String,
    /// Map group (`MAP`, id 2).
    Map,
    /// List group (`LIST`, id 3).
    List,
    /// Enum string (`ENUM`, id 4).
    Enum,
    /// Decimal (`DECIMAL`, id 5).
    Decimal {
        /// Digits after the decimal point.
        scale: i32,
        /// Total number of digits.
        precision: i32,
    },
    /// Date (`DATE`, id 6).
    Date,
    /// Time of day (`TIME`, id 7).
    Time {
        /// Whether values are normalised to UTC.
        is_adjusted_to_utc: bool,
        /// Unit of the values.
        unit: TimeUnit,
    },
    /// Instant or local date-time (`TIMESTAMP`, id 8).
    Timestamp {
        /// Whether values are normalised to UTC.
        is_adjusted_to_utc: bool,
        /// Unit of the values.
        unit: TimeUnit,
    },
    /// Sized signed or unsigned integer (`INTEGER`, id 10).
    Integer {
        /// 8, 16, 32 or 64.
        bit_width: i8,
        /// Whether the integer is signed.
        is_signed: bool,
    },
    /// Always-null column (the spec's `UNKNOWN` member, `NullType`, id 11).
    Null,
    /// JSON document (`JSON`, id 12).
    Json,
    /// BSON document (`BSON`, id 13).
    Bson,
    /// UUID in `FIXED_LEN_BYTE_ARRAY(16)` (`UUID`, id 14).
    Uuid,
    /// Half-precision float in `FIXED_LEN_BYTE_ARRAY(2)` (`FLOAT16`, id 15).
    Float16,
    /// Variant group (`VARIANT`, id 16).
    Variant {
        /// Version of the variant specification used by the writer.
        specification_version: Option<i8>,
    },
    /// Geometry in WKB (`GEOMETRY`, id 17).
    Geometry {
        /// Coordinate reference system; `None` means `OGC:CRS84`.
        crs: Option<String>,
    },
    /// Geography in WKB (`GEOGRAPHY`, id 18).
    Geography {
        /// Coordinate reference system; `None` means `OGC:CRS84`.
        crs: Option<String>,
        /// Edge interpolation; `None` means spherical.
        algorithm: Option<EdgeInterpolationAlgorithm>,
    },
    /// Fixed-size vector group (`VECTOR`, id 19).
    Vector,
    /// A union member this version does not know, by field id.
    Unknown(i16),
}

fn read_time_like(r: &mut CompactReader<'_>, name: &'static str) -> Result<(bool, TimeUnit)> {
    let saved = r.begin_struct()?;
    let mut utc = None;
    let mut unit = None;
    while let Some(f) = r.next_field()? {
        match f.id {
            1 => r.bool_into(f, &mut utc)?,
            2 => r.read_into(f, &mut unit)?,
            _ => r.skip(f.ty)?,
        }
    }
    r.end_struct(saved);
    Ok((
        required(utc, name, "isAdjustedToUTC")?,
        required(unit, name, "unit")?,
    ))
}

fn write_time_like(w: &mut CompactWriter<'_>, utc: bool, unit: &TimeUnit) {
    let saved = w.begin_struct();
    w.bool_field(1, utc);
    w.field(2, unit);
    w.end_struct(saved);
}

fn read_decimal(r: &mut CompactReader<'_>) -> Result<LogicalType> {
    const NAME: &str = "DecimalType";
    let saved = r.begin_struct()?;
    let mut scale = None;
    let mut precision = None;
    while let Some(f) = r.next_field()? {
        match f.id {
            1 => r.read_into(f, &mut scale)?,
            2 => r.read_into(f, &mut precision)?,
            _ => r.skip(f.ty)?,
        }
    }
    r.end_struct(saved);
    Ok(LogicalType::Decimal {
        scale: required(scale, NAME, "scale")?,
        precision: required(precision, NAME, "precision")?,
    })
}

fn read_integer(r: &mut CompactReader<'_>) -> Result<LogicalType> {
    const NAME: &str = "IntType";
    let saved = r.begin_struct()?;
    let mut bit_width = None;
    let mut is_signed = None;
    while let Some(f) = r.next_field()? {
        match f.id {
            1 => r.read_into(f, &mut bit_width)?,
            2 => r.bool_into(f, &mut is_signed)?,
            _ => r.skip(f.ty)?,
        }
    }
    r.end_struct(saved);
    Ok(LogicalType::Integer {
        bit_width: required(bit_width, NAME, "bitWidth")?,
        is_signed: required(is_signed, NAME, "isSigned")?,
    })
}

fn read_variant(r: &mut CompactReader<'_>) -> Result<LogicalType> {
    let saved = r.begin_struct()?;
    let mut specification_version = None;
    while let Some(f) = r.next_field()? {
        match f.id {
            1 => r.read_into(f, &mut specification_version)?,
            _ => r.skip(f.ty)?,
        }
    }
    r.end_struct(saved);
    Ok(LogicalType::Variant {
        specification_version,
    })
}

fn read_geo(r: &mut CompactReader<'_>, geography: bool) -> Result<LogicalType> {
    let saved = r.begin_struct()?;
    let mut crs = None;
    let mut algorithm = None;
    while let Some(f) = r.next_field()? {
        match f.id {
            1 => r.read_into(f, &mut crs)?,
            2 if geography => r.read_into(f, &mut algorithm)?,
            _ => r.skip(f.ty)?,
        }
    }
    r.end_struct(saved);
    Ok(if geography {
        LogicalType::Geography { crs, algorithm }
    } else {
        LogicalType::Geometry { crs }
    })
}

impl ReadThrift for LogicalType {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "LogicalType";
        let saved = r.begin_struct()?;
        let mut out = None;
        while let Some(f) = r.next_field()? {
            if out.is_some() || f.ty != FieldType::Struct {
                // A union carries one struct member; ignore anything else.
                r.skip(f.ty)?;
                continue;
            }
            let v = match f.id {
                1 => marker(r, Self::String)?,
                2 => marker(r, Self::Map)?,
                3 => marker(r, Self::List)?,
                4 => marker(r, Self::Enum)?,
                5 => read_decimal(r)?,
                6 => marker(r, Self::Date)?,
                7 => {
                    let (is_adjusted_to_utc, unit) = read_time_like(r, "TimeType")?;
                    Self::Time {
                        is_adjusted_to_utc,
                        unit,
                    }
                }
                8 => {
                    let (is_adjusted_to_utc, unit) = read_time_like(r, "TimestampType")?;
                    Self::Timestamp {
                        is_adjusted_to_utc,
                        unit,
                    }
                }
                10 => read_integer(r)?,
                11 => marker(r, Self::Null)?,
                12 => marker(r, Self::Json)?,
                13 => marker(r, Self::Bson)?,
                14 => marker(r, Self::Uuid)?,
                15 => marker(r, Self::Float16)?,
                16 => read_variant(r)?,
                17 => read_geo(r, false)?,
                18 => read_geo(r, true)?,
                19 => marker(r, Self::Vector)?,
                id => {
                    r.skip(f.ty)?;
                    Self::Unknown(id)
                }
            };
            out = Some(v);
        }
        r.end_struct(saved);
        required(out, NAME, "member")
    }
}

/// Skip an empty marker struct (already type-checked) and return `v`.
fn marker(r: &mut CompactReader<'_>, v: LogicalType) -> Result<LogicalType> {
    r.skip(FieldType::Struct)?;
    Ok(v)
}

impl WriteThrift for LogicalType {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        match self {
            Self::String => w.empty_struct_field(1),
            Self::Map => w.empty_struct_field(2),
            Self::List => w.empty_struct_field(3),
            Self::Enum => w.empty_struct_field(4),
            Self::Decimal { scale, precision } => {
                w.field_header(5, FieldType::Struct);
                let inner = w.begin_struct();
                w.i32_field(1, *scale);
                w.i32_field(2, *precision);
                w.end_struct(inner);
            }
            Self::Date => w.empty_struct_field(6),
            Self::Time {
                is_adjusted_to_utc,
                unit,
            } => {
                w.field_header(7, FieldType::Struct);
                write_time_like(w, *is_adjusted_to_utc, unit);
            }
            Self::Timestamp {
                is_adjusted_to_utc,
                unit,
            } => {
                w.field_header(8, FieldType::Struct);
                write_time_like(w, *is_adjusted_to_utc, unit);
            }
            Self::Integer {
                bit_width,
                is_signed,
            } => {
                w.field_header(10, FieldType::Struct);
                let inner = w.begin_struct();
                w.i8_field(1, *bit_width);
                w.bool_field(2, *is_signed);
                w.end_struct(inner);
            }
            Self::Null => w.empty_struct_field(11),
            Self::Json => w.empty_struct_field(12),
            Self::Bson => w.empty_struct_field(13),
            Self::Uuid => w.empty_struct_field(14),
            Self::Float16 => w.empty_struct_field(15),
            Self::Variant {
                specification_version,
            } => {
                w.field_header(16, FieldType::Struct);
                let inner = w.begin_struct();
                if let Some(v) = specification_version {
                    w.i8_field(1, *v);
                }
                w.end_struct(inner);
            }
            Self::Geometry { crs } => {
                w.field_header(17, FieldType::Struct);
                let inner = w.begin_struct();
                if let Some(crs) = crs {
                    w.binary_field(1, crs.as_bytes());
                }
                w.end_struct(inner);
            }
            Self::Geography { crs, algorithm } => {
                w.field_header(18, FieldType::Struct);
                let inner = w.begin_struct();
                if let Some(crs) = crs {
                    w.binary_field(1, crs.as_bytes());
                }
                if let Some(a) = algorithm {
                    w.field(2, a);
                }
                w.end_struct(inner);
            }
            Self::Vector => w.empty_struct_field(19),
            Self::Unknown(id) => w.empty_struct_field(*id),
        }
        w.end_struct(saved);
    }
}
