//! [`LogicalType`] and [`TimeUnit`]: the type annotations of schema leaves.

use super::{ConvertedType, EdgeInterpolationAlgorithm, required};
use crate::error::{FormatError, Result};
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Unit of `TIME` and `TIMESTAMP` values (the `TimeUnit` union).
///
/// arrow-rs's spellings (`TimeUnit::MILLIS`) name the same variants and
/// work in patterns; `Debug` prints them (`MILLIS`), as arrow-rs does.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
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

#[allow(non_upper_case_globals)]
impl TimeUnit {
    /// `MILLIS`.
    pub const MILLIS: Self = Self::Millis;
    /// `MICROS`.
    pub const MICROS: Self = Self::Micros;
    /// `NANOS`.
    pub const NANOS: Self = Self::Nanos;
}

/// The specification's name (`MILLIS`); `UNKNOWN(id)` for a member this
/// version does not know.
impl std::fmt::Debug for TimeUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Millis => f.write_str("MILLIS"),
            Self::Micros => f.write_str("MICROS"),
            Self::Nanos => f.write_str("NANOS"),
            Self::Unknown(id) => write!(f, "UNKNOWN({id})"),
        }
    }
}

/// As [`Debug`](std::fmt::Debug).
impl std::fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
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

/// Parameters of the `DECIMAL` logical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecimalType {
    /// Digits after the decimal point.
    pub scale: i32,
    /// Total number of digits.
    pub precision: i32,
}

/// Parameters of the `TIMESTAMP` (and, as [`TimeType`], `TIME`) logical
/// types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimestampType {
    /// Whether values are normalised to UTC (`isAdjustedToUTC`; the field
    /// is spelled as arrow-rs spells it).
    pub is_adjusted_to_u_t_c: bool,
    /// Unit of the values.
    pub unit: TimeUnit,
}

/// Parameters of the `TIME` logical type: the same fields as
/// [`TimestampType`].
pub type TimeType = TimestampType;

/// Parameters of the `INTEGER` logical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntType {
    /// 8, 16, 32 or 64.
    pub bit_width: i8,
    /// Whether the integer is signed.
    pub is_signed: bool,
}

/// Parameters of the `VARIANT` logical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VariantType {
    /// Version of the variant specification used by the writer.
    pub specification_version: Option<i8>,
}

/// Parameters of the `GEOMETRY` logical type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GeometryType {
    /// Coordinate reference system; `None` means `OGC:CRS84`.
    pub crs: Option<String>,
}

/// Parameters of the `GEOGRAPHY` logical type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GeographyType {
    /// Coordinate reference system; `None` means `OGC:CRS84`.
    pub crs: Option<String>,
    /// Edge interpolation; `None` means spherical.
    pub algorithm: Option<EdgeInterpolationAlgorithm>,
}

impl GeographyType {
    /// The edge interpolation in effect: the one written, else spherical.
    pub fn algorithm(&self) -> Option<EdgeInterpolationAlgorithm> {
        Some(
            self.algorithm
                .unwrap_or(EdgeInterpolationAlgorithm::Spherical),
        )
    }
}

/// A logical type annotation (the `LogicalType` union of parquet.thrift),
/// in the shape of arrow-rs's `parquet::basic::LogicalType`: parameterised
/// members carry a struct ([`DecimalType`], [`TimeType`], [`IntType`], ...).
///
/// Union members this version does not know are kept as
/// [`LogicalType::_Unknown`] with their field id, so files from newer
/// writers still decode; readers should then treat the column by its
/// physical type. [`LogicalType::Unknown`] is the specification's own
/// `UNKNOWN` member: an always-null column.
///
/// ```
/// use strata_format::metadata::{LogicalType, TimeUnit, TimestampType};
///
/// let t = LogicalType::timestamp(true, TimeUnit::MILLIS);
/// assert!(matches!(
///     t,
///     LogicalType::Timestamp(TimestampType { is_adjusted_to_u_t_c: true, unit: TimeUnit::MILLIS })
/// ));
/// assert_eq!(
///     format!("{t:?}"),
///     "Timestamp(TimestampType { is_adjusted_to_u_t_c: true, unit: MILLIS })"
/// );
/// ```
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
    Decimal(DecimalType),
    /// Date (`DATE`, id 6).
    Date,
    /// Time of day (`TIME`, id 7).
    Time(TimeType),
    /// Instant or local date-time (`TIMESTAMP`, id 8).
    Timestamp(TimestampType),
    /// Sized signed or unsigned integer (`INTEGER`, id 10).
    Integer(IntType),
    /// Always-null column (the specification's `UNKNOWN` member,
    /// `NullType`, id 11).
    Unknown,
    /// JSON document (`JSON`, id 12).
    Json,
    /// BSON document (`BSON`, id 13).
    Bson,
    /// UUID in `FIXED_LEN_BYTE_ARRAY(16)` (`UUID`, id 14).
    Uuid,
    /// Half-precision float in `FIXED_LEN_BYTE_ARRAY(2)` (`FLOAT16`, id 15).
    Float16,
    /// Variant group (`VARIANT`, id 16).
    Variant(VariantType),
    /// Geometry in WKB (`GEOMETRY`, id 17).
    Geometry(GeometryType),
    /// Geography in WKB (`GEOGRAPHY`, id 18).
    Geography(GeographyType),
    /// Fixed-size vector group (`VECTOR`, id 19).
    Vector,
    /// A union member this version does not know.
    _Unknown {
        /// The member's field id.
        field_id: i16,
    },
}

/// Constructors for the parameterised members, as arrow-rs has them.
impl LogicalType {
    /// `INTEGER(bit_width, is_signed)`.
    pub fn integer(bit_width: i8, is_signed: bool) -> Self {
        Self::Integer(IntType {
            bit_width,
            is_signed,
        })
    }

    /// `DECIMAL` with its scale and precision (in that order, as arrow-rs).
    pub fn decimal(scale: i32, precision: i32) -> Self {
        Self::Decimal(DecimalType { scale, precision })
    }

    /// `TIME(unit, is_adjusted_to_u_t_c)`.
    pub fn time(is_adjusted_to_u_t_c: bool, unit: TimeUnit) -> Self {
        Self::Time(TimeType {
            is_adjusted_to_u_t_c,
            unit,
        })
    }

    /// `TIMESTAMP(unit, is_adjusted_to_u_t_c)`.
    pub fn timestamp(is_adjusted_to_u_t_c: bool, unit: TimeUnit) -> Self {
        Self::Timestamp(TimestampType {
            is_adjusted_to_u_t_c,
            unit,
        })
    }

    /// `VARIANT`, optionally with the specification version.
    pub fn variant(specification_version: Option<i8>) -> Self {
        Self::Variant(VariantType {
            specification_version,
        })
    }

    /// `GEOMETRY`, optionally with a coordinate reference system.
    pub fn geometry(crs: Option<String>) -> Self {
        Self::Geometry(GeometryType { crs })
    }

    /// `GEOGRAPHY`, optionally with a coordinate reference system and an
    /// edge interpolation.
    pub fn geography(crs: Option<String>, algorithm: Option<EdgeInterpolationAlgorithm>) -> Self {
        Self::Geography(GeographyType { crs, algorithm })
    }
}

/// The legacy annotation that stands for a logical type, as arrow-rs maps
/// it: `NONE` where there is none (`UUID`, `FLOAT16`, nanosecond times,
/// integers of a width the legacy types lack, ...).
impl From<Option<LogicalType>> for ConvertedType {
    fn from(value: Option<LogicalType>) -> Self {
        value
            .as_ref()
            .map_or(ConvertedType::None, LogicalType::converted_type)
    }
}

impl LogicalType {
    /// The legacy annotation that stands for this logical type, or
    /// [`ConvertedType::NONE`].
    pub fn converted_type(&self) -> ConvertedType {
        match self {
            Self::String => ConvertedType::Utf8,
            Self::Map => ConvertedType::Map,
            Self::List => ConvertedType::List,
            Self::Enum => ConvertedType::Enum,
            Self::Decimal(_) => ConvertedType::Decimal,
            Self::Date => ConvertedType::Date,
            Self::Time(t) => match t.unit {
                TimeUnit::Millis => ConvertedType::TimeMillis,
                TimeUnit::Micros => ConvertedType::TimeMicros,
                _ => ConvertedType::None,
            },
            Self::Timestamp(t) => match t.unit {
                TimeUnit::Millis => ConvertedType::TimestampMillis,
                TimeUnit::Micros => ConvertedType::TimestampMicros,
                _ => ConvertedType::None,
            },
            Self::Integer(i) => match (i.bit_width, i.is_signed) {
                (8, true) => ConvertedType::Int8,
                (16, true) => ConvertedType::Int16,
                (32, true) => ConvertedType::Int32,
                (64, true) => ConvertedType::Int64,
                (8, false) => ConvertedType::Uint8,
                (16, false) => ConvertedType::Uint16,
                (32, false) => ConvertedType::Uint32,
                (64, false) => ConvertedType::Uint64,
                _ => ConvertedType::None,
            },
            Self::Json => ConvertedType::Json,
            Self::Bson => ConvertedType::Bson,
            Self::Unknown
            | Self::Uuid
            | Self::Float16
            | Self::Variant(_)
            | Self::Geometry(_)
            | Self::Geography(_)
            | Self::Vector
            | Self::_Unknown { .. } => ConvertedType::None,
        }
    }
}

/// Parses a logical type's name in capitals, as arrow-rs's schema parser
/// reads it before any parameters: `"STRING"`, `"INTEGER"` (8 bits,
/// unsigned until the parameters say otherwise), `"DECIMAL"` (precision
/// and scale -1), `"TIMESTAMP"` and `"TIME"` (milliseconds, not UTC), ...
impl std::str::FromStr for LogicalType {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "INTEGER" => Self::integer(8, false),
            "MAP" => Self::Map,
            "LIST" => Self::List,
            "ENUM" => Self::Enum,
            "DECIMAL" => Self::decimal(-1, -1),
            "DATE" => Self::Date,
            "TIME" => Self::time(false, TimeUnit::Millis),
            "TIMESTAMP" => Self::timestamp(false, TimeUnit::Millis),
            "STRING" => Self::String,
            "JSON" => Self::Json,
            "BSON" => Self::Bson,
            "UUID" => Self::Uuid,
            "UNKNOWN" => Self::Unknown,
            "FLOAT16" => Self::Float16,
            "VARIANT" => Self::variant(None),
            "GEOMETRY" => Self::geometry(None),
            "GEOGRAPHY" => Self::geography(None, Some(EdgeInterpolationAlgorithm::Spherical)),
            other => {
                return Err(FormatError::UnknownName {
                    what: "logical type",
                    name: other.to_owned(),
                });
            }
        })
    }
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
    Ok(LogicalType::Decimal(DecimalType {
        scale: required(scale, NAME, "scale")?,
        precision: required(precision, NAME, "precision")?,
    }))
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
    Ok(LogicalType::Integer(IntType {
        bit_width: required(bit_width, NAME, "bitWidth")?,
        is_signed: required(is_signed, NAME, "isSigned")?,
    }))
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
    Ok(LogicalType::Variant(VariantType {
        specification_version,
    }))
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
        LogicalType::Geography(GeographyType { crs, algorithm })
    } else {
        LogicalType::Geometry(GeometryType { crs })
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
                    let (is_adjusted_to_u_t_c, unit) = read_time_like(r, "TimeType")?;
                    Self::Time(TimeType {
                        is_adjusted_to_u_t_c,
                        unit,
                    })
                }
                8 => {
                    let (is_adjusted_to_u_t_c, unit) = read_time_like(r, "TimestampType")?;
                    Self::Timestamp(TimestampType {
                        is_adjusted_to_u_t_c,
                        unit,
                    })
                }
                10 => read_integer(r)?,
                11 => marker(r, Self::Unknown)?,
                12 => marker(r, Self::Json)?,
                13 => marker(r, Self::Bson)?,
                14 => marker(r, Self::Uuid)?,
                15 => marker(r, Self::Float16)?,
                16 => read_variant(r)?,
                17 => read_geo(r, false)?,
                18 => read_geo(r, true)?,
                19 => marker(r, Self::Vector)?,
                field_id => {
                    r.skip(f.ty)?;
                    Self::_Unknown { field_id }
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
            Self::Decimal(DecimalType { scale, precision }) => {
                w.field_header(5, FieldType::Struct);
                let inner = w.begin_struct();
                w.i32_field(1, *scale);
                w.i32_field(2, *precision);
                w.end_struct(inner);
            }
            Self::Date => w.empty_struct_field(6),
            Self::Time(t) => {
                w.field_header(7, FieldType::Struct);
                write_time_like(w, t.is_adjusted_to_u_t_c, &t.unit);
            }
            Self::Timestamp(t) => {
                w.field_header(8, FieldType::Struct);
                write_time_like(w, t.is_adjusted_to_u_t_c, &t.unit);
            }
            Self::Integer(IntType {
                bit_width,
                is_signed,
            }) => {
                w.field_header(10, FieldType::Struct);
                let inner = w.begin_struct();
                w.i8_field(1, *bit_width);
                w.bool_field(2, *is_signed);
                w.end_struct(inner);
            }
            Self::Unknown => w.empty_struct_field(11),
            Self::Json => w.empty_struct_field(12),
            Self::Bson => w.empty_struct_field(13),
            Self::Uuid => w.empty_struct_field(14),
            Self::Float16 => w.empty_struct_field(15),
            Self::Variant(VariantType {
                specification_version,
            }) => {
                w.field_header(16, FieldType::Struct);
                let inner = w.begin_struct();
                if let Some(v) = specification_version {
                    w.i8_field(1, *v);
                }
                w.end_struct(inner);
            }
            Self::Geometry(GeometryType { crs }) => {
                w.field_header(17, FieldType::Struct);
                let inner = w.begin_struct();
                if let Some(crs) = crs {
                    w.binary_field(1, crs.as_bytes());
                }
                w.end_struct(inner);
            }
            Self::Geography(GeographyType { crs, algorithm }) => {
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
            Self::_Unknown { field_id } => w.empty_struct_field(*field_id),
        }
        w.end_struct(saved);
    }
}
