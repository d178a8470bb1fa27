//! The textual form of a schema, as arrow-rs's
//! `parquet::schema::printer::print_schema` writes it: the form
//! [`parse_message_type`](super::parser::parse_message_type) reads.
//!
//! ```
//! use strata_format::schema::parser::parse_message_type;
//! use strata_format::schema::printer::print_schema;
//!
//! let schema = parse_message_type(
//!     "message m { required int32 a; optional binary b (UTF8); optional group l (LIST) { repeated group list { optional int64 element; } } }",
//! )
//! .unwrap();
//! let mut out = Vec::new();
//! print_schema(&mut out, &schema);
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "message m {\n  REQUIRED INT32 a;\n  OPTIONAL BYTE_ARRAY b (UTF8);\n  OPTIONAL group l (LIST) {\n    REPEATED group list {\n      OPTIONAL INT64 element;\n    }\n  }\n}\n"
//! );
//! ```

use std::fmt::{self, Write as _};
use std::io;

use super::Type;
use crate::metadata::{
    ConvertedType, EdgeInterpolationAlgorithm, LogicalType, TimeUnit, Type as PhysicalType,
};

/// Columns of indentation per level of nesting.
const INDENT: usize = 2;

/// Writes `tp` and its subtree to `out`, then a newline. Write errors are
/// ignored, as arrow-rs ignores them.
pub fn print_schema(out: &mut dyn io::Write, tp: &Type) {
    let text = schema_to_string(tp);
    // The signature has no room for an error (it is arrow-rs's).
    let _ = writeln!(out, "{text}");
}

/// The textual form of `tp` and its subtree, without a final newline.
pub fn schema_to_string(tp: &Type) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = write_type(&mut s, tp, 0);
    s
}

fn unit_name(unit: &TimeUnit) -> String {
    match unit {
        TimeUnit::Millis => "MILLIS".to_owned(),
        TimeUnit::Micros => "MICROS".to_owned(),
        TimeUnit::Nanos => "NANOS".to_owned(),
        TimeUnit::Unknown(id) => format!("UNKNOWN({id})"),
    }
}

/// The annotation in parentheses: the logical type if there is one, else
/// the converted type (a decimal's with its precision and scale); empty
/// when there is neither.
fn annotation(
    logical: Option<&LogicalType>,
    converted: ConvertedType,
    precision: i32,
    scale: i32,
) -> String {
    let Some(logical) = logical else {
        return match converted {
            ConvertedType::None => String::new(),
            ConvertedType::Decimal if precision > 0 && scale > 0 => {
                format!("DECIMAL({precision},{scale})")
            }
            ConvertedType::Decimal if precision > 0 && scale == 0 => {
                format!("DECIMAL({precision})")
            }
            other => other.to_string(),
        };
    };
    match logical {
        LogicalType::Integer(i) => format!("INTEGER({},{})", i.bit_width, i.is_signed),
        LogicalType::Decimal(d) => format!("DECIMAL({},{})", d.precision, d.scale),
        LogicalType::Timestamp(t) => format!(
            "TIMESTAMP({},{})",
            unit_name(&t.unit),
            t.is_adjusted_to_u_t_c
        ),
        LogicalType::Time(t) => format!("TIME({},{})", unit_name(&t.unit), t.is_adjusted_to_u_t_c),
        LogicalType::Date => "DATE".to_owned(),
        LogicalType::Bson => "BSON".to_owned(),
        LogicalType::Json => "JSON".to_owned(),
        LogicalType::String => "STRING".to_owned(),
        LogicalType::Uuid => "UUID".to_owned(),
        LogicalType::Enum => "ENUM".to_owned(),
        LogicalType::List => "LIST".to_owned(),
        LogicalType::Map => "MAP".to_owned(),
        LogicalType::Float16 => "FLOAT16".to_owned(),
        LogicalType::Variant(v) => format!("VARIANT({:?})", v.specification_version),
        LogicalType::Geometry(g) => match &g.crs {
            Some(crs) => format!("GEOMETRY({crs})"),
            None => "GEOMETRY".to_owned(),
        },
        LogicalType::Geography(g) => {
            let algorithm = g.algorithm.unwrap_or(EdgeInterpolationAlgorithm::Spherical);
            match &g.crs {
                Some(crs) => format!("GEOGRAPHY({algorithm}, {crs})"),
                None => format!("GEOGRAPHY({algorithm})"),
            }
        }
        LogicalType::Vector => "VECTOR".to_owned(),
        LogicalType::Unknown => "UNKNOWN".to_owned(),
        LogicalType::_Unknown { field_id } => format!("_Unknown({field_id})"),
    }
}

fn write_type(out: &mut String, tp: &Type, indent: usize) -> fmt::Result {
    write!(out, "{:indent$}", "")?;
    let info = tp.get_basic_info();
    match tp {
        Type::PrimitiveType {
            physical_type,
            type_length,
            scale,
            precision,
            ..
        } => {
            write!(out, "{} {physical_type}", info.repetition())?;
            if *physical_type == PhysicalType::FixedLenByteArray {
                write!(out, " ({type_length})")?;
            }
            write!(out, " {}", info.name())?;
            if info.has_id() {
                write!(out, " [{}]", info.id())?;
            }
            let note = annotation(
                info.logical_type_ref(),
                info.converted_type(),
                *precision,
                *scale,
            );
            if note.is_empty() {
                out.push(';');
            } else {
                write!(out, " ({note});")?;
            }
        }
        Type::GroupType { fields, .. } => {
            if info.has_repetition() {
                write!(out, "{} group {} ", info.repetition(), info.name())?;
                if info.has_id() {
                    write!(out, "[{}] ", info.id())?;
                }
                let note = annotation(info.logical_type_ref(), info.converted_type(), 0, 0);
                if !note.is_empty() {
                    write!(out, "({note}) ")?;
                }
            } else {
                write!(out, "message {} ", info.name())?;
                if info.has_id() {
                    write!(out, "[{}] ", info.id())?;
                }
            }
            out.push_str("{\n");
            for field in fields {
                write_type(out, field, indent + INDENT)?;
                out.push('\n');
            }
            write!(out, "{:indent$}}}", "")?;
        }
    }
    Ok(())
}
