//! Names of Parquet enums and types, and statistics values shown for their
//! column's type.

use std::fmt::Debug;

use strata_file::statistics::ValueOrder;
use strata_format::ColumnDescriptor;
use strata_format::metadata::{
    ConvertedType, DecimalType, GeographyType, GeometryType, IntType, LogicalType, Statistics,
    TimeType, TimeUnit, TimestampType, Type, VariantType,
};

/// The spec's spelling of an enum value from its Rust variant name:
/// `RleDictionary` → `RLE_DICTIONARY`, `Lz4Raw` → `LZ4_RAW`,
/// `Unknown(12)` → `UNKNOWN(12)`.
pub fn enum_name(value: &impl Debug) -> String {
    let debug = format!("{value:?}");
    let (name, rest) = match debug.find('(') {
        Some(i) => debug.split_at(i),
        None => (debug.as_str(), ""),
    };
    let mut out = String::with_capacity(name.len() + 4);
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
        previous = Some(c);
    }
    out.push_str(rest);
    out
}

/// A physical type, with its length for `FIXED_LEN_BYTE_ARRAY`.
pub fn physical_name(physical: Type, type_length: Option<i32>) -> String {
    match (physical, type_length) {
        (Type::FixedLenByteArray, Some(n)) => format!("FIXED_LEN_BYTE_ARRAY({n})"),
        _ => enum_name(&physical),
    }
}

fn unit_name(unit: &TimeUnit) -> String {
    match unit {
        TimeUnit::Millis => "MILLIS".into(),
        TimeUnit::Micros => "MICROS".into(),
        TimeUnit::Nanos => "NANOS".into(),
        TimeUnit::Unknown(id) => format!("UNKNOWN({id})"),
    }
}

/// A logical type as the spec writes it: `STRING`, `DECIMAL(9,2)`,
/// `TIMESTAMP(MILLIS,utc)`, `INT(8,unsigned)`.
pub fn logical_name(logical: &LogicalType) -> String {
    match logical {
        LogicalType::Decimal(DecimalType { scale, precision }) => {
            format!("DECIMAL({precision},{scale})")
        }
        LogicalType::Time(TimeType {
            is_adjusted_to_u_t_c: is_adjusted_to_utc,
            unit,
        }) => format!(
            "TIME({},{})",
            unit_name(unit),
            if *is_adjusted_to_utc { "utc" } else { "local" }
        ),
        LogicalType::Timestamp(TimestampType {
            is_adjusted_to_u_t_c: is_adjusted_to_utc,
            unit,
        }) => format!(
            "TIMESTAMP({},{})",
            unit_name(unit),
            if *is_adjusted_to_utc { "utc" } else { "local" }
        ),
        LogicalType::Integer(IntType {
            bit_width,
            is_signed,
        }) => format!(
            "INT({bit_width},{})",
            if *is_signed { "signed" } else { "unsigned" }
        ),
        LogicalType::Unknown => "UNKNOWN".into(),
        LogicalType::Variant(VariantType {
            specification_version,
        }) => match specification_version {
            Some(v) => format!("VARIANT({v})"),
            None => "VARIANT".into(),
        },
        LogicalType::Geometry(GeometryType { crs }) => match crs {
            Some(crs) => format!("GEOMETRY({crs})"),
            None => "GEOMETRY".into(),
        },
        LogicalType::Geography(GeographyType { crs, algorithm }) => {
            let mut parts = Vec::new();
            if let Some(crs) = crs {
                parts.push(crs.clone());
            }
            if let Some(a) = algorithm {
                parts.push(enum_name(a));
            }
            if parts.is_empty() {
                "GEOGRAPHY".into()
            } else {
                format!("GEOGRAPHY({})", parts.join(","))
            }
        }
        other => enum_name(other),
    }
}

/// A statistics bound decoded for display.
pub fn format_stat(descr: &ColumnDescriptor, bytes: &[u8]) -> String {
    let scale = decimal_scale(descr);
    let unsigned = ValueOrder::of(descr) == ValueOrder::UnsignedInt;
    let date = matches!(descr.logical_type, Some(LogicalType::Date))
        || descr.converted_type == Some(ConvertedType::Date);
    match descr.physical_type {
        Type::Boolean => match bytes.first() {
            Some(0) => "false".into(),
            Some(_) => "true".into(),
            None => hex(bytes),
        },
        Type::Int32 => match le_array::<4>(bytes) {
            Some(b) if unsigned => u32::from_le_bytes(b).to_string(),
            Some(b) if date => civil_date(i64::from(i32::from_le_bytes(b))),
            Some(b) => match scale {
                Some(s) => scaled(i128::from(i32::from_le_bytes(b)), s),
                None => i32::from_le_bytes(b).to_string(),
            },
            None => hex(bytes),
        },
        Type::Int64 => match le_array::<8>(bytes) {
            Some(b) if unsigned => u64::from_le_bytes(b).to_string(),
            Some(b) => match scale {
                Some(s) => scaled(i128::from(i64::from_le_bytes(b)), s),
                None => i64::from_le_bytes(b).to_string(),
            },
            None => hex(bytes),
        },
        Type::Float => match le_array::<4>(bytes) {
            Some(b) => format!("{:?}", f32::from_le_bytes(b)),
            None => hex(bytes),
        },
        Type::Double => match le_array::<8>(bytes) {
            Some(b) => format!("{:?}", f64::from_le_bytes(b)),
            None => hex(bytes),
        },
        Type::ByteArray | Type::FixedLenByteArray => {
            if let Some(s) = scale
                && let Some(v) = be_signed(bytes)
            {
                return scaled(v, s);
            }
            if matches!(descr.logical_type, Some(LogicalType::Float16))
                && let Some(b) = le_array::<2>(bytes)
            {
                return format!("{:?}", f16_to_f32(u16::from_le_bytes(b)));
            }
            if strata_file::statistics::is_utf8(descr)
                && let Ok(s) = std::str::from_utf8(bytes)
            {
                return quoted(s);
            }
            if descr.physical_type == Type::ByteArray
                && descr.logical_type.is_none()
                && descr.converted_type.is_none()
                && let Ok(s) = std::str::from_utf8(bytes)
                && s.chars().all(|c| !c.is_control())
            {
                // Unannotated binary that happens to be text (old writers).
                return quoted(s);
            }
            hex(bytes)
        }
        Type::Int96 => hex(bytes),
    }
}

/// The min and max of statistics for display: `min_value`/`max_value`, or
/// the deprecated `min`/`max` where they hold in the column's order.
pub fn stat_bounds<'a>(
    descr: &ColumnDescriptor,
    stats: &'a Statistics,
) -> (Option<&'a [u8]>, Option<&'a [u8]>) {
    let deprecated_ok = ValueOrder::of(descr).writes_deprecated_min_max();
    let min = stats.min_value().or(stats.min().filter(|_| deprecated_ok));
    let max = stats.max_value().or(stats.max().filter(|_| deprecated_ok));
    (min, max)
}

/// Statistics on one line: `nulls=0 min=1 max=9 distinct=...`.
pub fn stats_line(descr: &ColumnDescriptor, stats: &Statistics) -> String {
    let mut parts = Vec::new();
    if let Some(n) = stats.null_count {
        parts.push(format!("nulls={n}"));
    }
    if let Some(n) = stats.distinct_count() {
        parts.push(format!("distinct={n}"));
    }
    let (min, max) = stat_bounds(descr, stats);
    if let Some(min) = min {
        parts.push(format!("min={}", format_stat(descr, min)));
    }
    if let Some(max) = max {
        parts.push(format!("max={}", format_stat(descr, max)));
    }
    if let Some(n) = stats.nan_count() {
        parts.push(format!("nans={n}"));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(" ")
    }
}

/// Statistics as JSON.
pub fn stats_json(descr: &ColumnDescriptor, stats: &Statistics) -> serde_json::Value {
    let (min, max) = stat_bounds(descr, stats);
    serde_json::json!({
        "null_count": stats.null_count,
        "distinct_count": stats.distinct_count(),
        "min": min.map(|b| format_stat(descr, b)),
        "max": max.map(|b| format_stat(descr, b)),
        "is_min_value_exact": stats.is_min_value_exact,
        "is_max_value_exact": stats.is_max_value_exact,
        "nan_count": stats.nan_count(),
    })
}

fn decimal_scale(descr: &ColumnDescriptor) -> Option<i32> {
    match &descr.logical_type {
        Some(LogicalType::Decimal(DecimalType { scale, .. })) => Some(*scale),
        _ if descr.converted_type == Some(ConvertedType::Decimal) => Some(descr.scale.unwrap_or(0)),
        _ => None,
    }
}

/// The first `N` bytes, if there are exactly `N`.
pub fn le_array<const N: usize>(bytes: &[u8]) -> Option<[u8; N]> {
    <[u8; N]>::try_from(bytes).ok()
}

/// A big-endian two's complement integer of at most 16 bytes.
fn be_signed(bytes: &[u8]) -> Option<i128> {
    if bytes.is_empty() || bytes.len() > 16 {
        return None;
    }
    let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        0xff
    } else {
        0
    };
    let mut buf = [fill; 16];
    buf.get_mut(16 - bytes.len()..)?.copy_from_slice(bytes);
    Some(i128::from_be_bytes(buf))
}

fn scaled(value: i128, scale: i32) -> String {
    if scale <= 0 {
        return value.to_string();
    }
    if scale > 76 {
        // Beyond any decimal precision: a corrupt scale, shown as is.
        return format!("{value}e-{scale}");
    }
    let digits = value.unsigned_abs().to_string();
    let scale = scale as usize;
    let padded = if digits.len() <= scale {
        format!("{}{digits}", "0".repeat(scale + 1 - digits.len()))
    } else {
        digits
    };
    let (int, frac) = padded.split_at(padded.len() - scale);
    let sign = if value < 0 { "-" } else { "" };
    format!("{sign}{int}.{frac}")
}

/// Days since 1970-01-01 as `YYYY-MM-DD` (Howard Hinnant's algorithm).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn f16_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f32::from(bits & 0x3ff);
    match exponent {
        0 => sign * mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

fn quoted(s: &str) -> String {
    const MAX: usize = 64;
    let mut out: String = s.chars().take(MAX).collect();
    if s.chars().nth(MAX).is_some() {
        out.push('…');
    }
    format!("{out:?}")
}

fn hex(bytes: &[u8]) -> String {
    const MAX: usize = 32;
    let mut out = String::from("0x");
    for b in bytes.iter().take(MAX) {
        out.push_str(&format!("{b:02x}"));
    }
    if bytes.len() > MAX {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_format::metadata::{CompressionCodec, Encoding, PageType};

    #[test]
    fn enum_names() {
        assert_eq!(enum_name(&Encoding::RleDictionary), "RLE_DICTIONARY");
        assert_eq!(enum_name(&CompressionCodec::Lz4Raw), "LZ4_RAW");
        assert_eq!(enum_name(&PageType::DataPageV2), "DATA_PAGE_V2");
        assert_eq!(enum_name(&Type::Int32), "INT32");
        assert_eq!(enum_name(&Type::FixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
        assert_eq!(enum_name(&Encoding::Unknown(12)), "UNKNOWN(12)");
    }

    #[test]
    fn numbers() {
        assert_eq!(scaled(12345, 2), "123.45");
        assert_eq!(scaled(-5, 3), "-0.005");
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(18_262), "2020-01-01");
        assert_eq!(be_signed(&[0xff, 0xfe]), Some(-2));
        assert_eq!(f16_to_f32(0x3c00), 1.0);
    }
}
