//! How a column's statistics are ordered: the footer's [`ColumnOrder`]
//! union, and the [`SortOrder`] it and the column's types give.
//!
//! A footer names one column order per leaf. `TYPE_ORDER` says "the order
//! the logical type (or, without one, the physical type) defines", which
//! the wire form leaves implicit; [`ColumnOrder::TYPE_DEFINED_ORDER`]
//! carries that order once the schema is known (a freshly decoded footer
//! holds [`SortOrder::SIGNED`] there until the file layer fills it in with
//! [`ColumnOrder::with_types`]). The names and the mapping are arrow-rs's
//! (`parquet::basic`), so code that matches on them compiles unchanged.

use super::{ConvertedType, LogicalType, Type, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// How the values of a column compare for its statistics.
///
/// ```
/// use strata_format::metadata::SortOrder;
///
/// assert!(SortOrder::SIGNED.is_signed());
/// assert!(!SortOrder::UNSIGNED.is_signed());
/// assert_eq!(SortOrder::TOTAL_ORDER.to_string(), "TOTAL_ORDER");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum SortOrder {
    /// Signed comparison: of the values (numbers, decimals, dates and
    /// times), or of bytes in legacy files.
    SIGNED,
    /// Unsigned comparison: of unsigned integers' values, of bytes for
    /// strings and binary, `false < true` for booleans.
    UNSIGNED,
    /// No order: bounds are neither kept nor trusted (INT96 under the type
    /// order, INTERVAL, groups, unknown logical types).
    UNDEFINED,
    /// IEEE 754 total order (floats under `IEEE_754_TOTAL_ORDER`).
    TOTAL_ORDER,
    /// Chronological order of INT96 timestamps.
    INT96_TIMESTAMP,
}

impl SortOrder {
    /// Whether this is [`SortOrder::SIGNED`].
    pub fn is_signed(&self) -> bool {
        matches!(self, Self::SIGNED)
    }
}

impl std::fmt::Display for SortOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// The order a column's `min_value`/`max_value` follow (the `ColumnOrder`
/// union), as arrow-rs presents it.
///
/// ```
/// use strata_format::metadata::{ColumnOrder, ConvertedType, LogicalType, SortOrder, Type};
///
/// let order = ColumnOrder::column_order_for_type(Some(&LogicalType::String), ConvertedType::UTF8, Type::BYTE_ARRAY);
/// assert_eq!(order, ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNSIGNED));
/// let float = ColumnOrder::column_order_for_type(None, ConvertedType::NONE, Type::DOUBLE);
/// assert_eq!(float.sort_order(), SortOrder::TOTAL_ORDER);
/// // A footer's TYPE_ORDER is filled in from the column's types.
/// let read = ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::SIGNED);
/// let int = LogicalType::integer(32, false);
/// assert_eq!(
///     read.with_types(Some(&int), ConvertedType::UINT_32, Type::INT32).sort_order(),
///     SortOrder::UNSIGNED
/// );
/// // Legacy files (no column orders) compare signed.
/// assert_eq!(ColumnOrder::UNDEFINED.sort_order(), SortOrder::SIGNED);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum ColumnOrder {
    /// The order the column's logical or physical type defines
    /// (`TYPE_ORDER`, id 1), with that order.
    TYPE_DEFINED_ORDER(SortOrder),
    /// IEEE 754 total order for floating point (`IEEE_754_TOTAL_ORDER`,
    /// id 2).
    IEEE_754_TOTAL_ORDER,
    /// Chronological order of INT96 timestamps (`INT96_TIMESTAMP_ORDER`,
    /// id 3).
    INT96_TIMESTAMP_ORDER,
    /// No column order in the footer: files before format 2.4, whose
    /// statistics compare signed. Never written.
    UNDEFINED,
    /// An order this version does not know; statistics under it are
    /// ignored. Never written.
    UNKNOWN,
}

impl ColumnOrder {
    /// The order a writer names for a column of these types: IEEE 754
    /// total order for floats (and `FLOAT16`), the INT96 timestamp order
    /// for INT96, the type-defined order otherwise.
    pub fn column_order_for_type(
        logical_type: Option<&LogicalType>,
        converted_type: ConvertedType,
        physical_type: Type,
    ) -> ColumnOrder {
        if logical_type == Some(&LogicalType::Float16)
            || matches!(physical_type, Type::Float | Type::Double)
        {
            Self::IEEE_754_TOTAL_ORDER
        } else if physical_type == Type::Int96 {
            Self::INT96_TIMESTAMP_ORDER
        } else {
            Self::TYPE_DEFINED_ORDER(type_defined_order(
                logical_type,
                converted_type,
                physical_type,
                true,
            ))
        }
    }

    /// This order with a `TYPE_DEFINED_ORDER`'s sort order taken from the
    /// column's types (what a footer leaves implicit); other orders are
    /// returned as they are.
    pub fn with_types(
        self,
        logical_type: Option<&LogicalType>,
        converted_type: ConvertedType,
        physical_type: Type,
    ) -> ColumnOrder {
        match self {
            Self::TYPE_DEFINED_ORDER(_) => Self::TYPE_DEFINED_ORDER(type_defined_order(
                logical_type,
                converted_type,
                physical_type,
                true,
            )),
            other => other,
        }
    }

    /// The sort order of a column of these types: `is_type_defined` says
    /// its column order is `TYPE_DEFINED_ORDER`, without which floats and
    /// INT96 take the newer orders. Kept for code written against arrow-rs
    /// before 60, which deprecates it as strata does.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// use strata_format::metadata::{ColumnOrder, ConvertedType, LogicalType, SortOrder, Type};
    ///
    /// let utf8 = ColumnOrder::sort_order_for_type(None, ConvertedType::UTF8, Type::BYTE_ARRAY, true);
    /// assert_eq!(utf8, SortOrder::UNSIGNED);
    /// let uint = LogicalType::integer(32, false);
    /// assert_eq!(ColumnOrder::sort_order_for_type(Some(&uint), ConvertedType::NONE, Type::INT32, true), SortOrder::UNSIGNED);
    /// assert_eq!(ColumnOrder::sort_order_for_type(None, ConvertedType::NONE, Type::INT32, true), SortOrder::SIGNED);
    /// ```
    #[deprecated(since = "0.1.0", note = "use `ColumnOrder::sort_order` instead")]
    pub fn sort_order_for_type(
        logical_type: Option<&LogicalType>,
        converted_type: ConvertedType,
        physical_type: Type,
        is_type_defined: bool,
    ) -> SortOrder {
        type_defined_order(logical_type, converted_type, physical_type, is_type_defined)
    }

    /// The sort order this column order stands for.
    pub fn sort_order(&self) -> SortOrder {
        match *self {
            Self::TYPE_DEFINED_ORDER(order) => order,
            Self::IEEE_754_TOTAL_ORDER => SortOrder::TOTAL_ORDER,
            Self::INT96_TIMESTAMP_ORDER => SortOrder::INT96_TIMESTAMP,
            Self::UNDEFINED => SortOrder::SIGNED,
            Self::UNKNOWN => SortOrder::UNDEFINED,
        }
    }
}

impl std::fmt::Display for ColumnOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// The sort order of a column's types: from the logical type, else the
/// converted type, else the physical type. `type_defined` says the column
/// order is `TYPE_ORDER`; without it floats and INT96 fall back to the
/// newer orders (as the schema's own [`sort_order`] reports them).
///
/// [`sort_order`]: crate::schema::ColumnDescriptor::sort_order
pub(crate) fn type_defined_order(
    logical_type: Option<&LogicalType>,
    converted_type: ConvertedType,
    physical_type: Type,
    type_defined: bool,
) -> SortOrder {
    use SortOrder::{SIGNED, UNDEFINED, UNSIGNED};
    if let Some(logical) = logical_type {
        return match logical {
            LogicalType::String
            | LogicalType::Enum
            | LogicalType::Json
            | LogicalType::Bson
            | LogicalType::Uuid => UNSIGNED,
            LogicalType::Integer(int) if int.is_signed => SIGNED,
            LogicalType::Integer(_) => UNSIGNED,
            LogicalType::Decimal(_)
            | LogicalType::Date
            | LogicalType::Time(_)
            | LogicalType::Timestamp(_) => SIGNED,
            LogicalType::Float16 if type_defined => SIGNED,
            LogicalType::Float16 => SortOrder::TOTAL_ORDER,
            LogicalType::Map
            | LogicalType::List
            | LogicalType::Unknown
            | LogicalType::Variant(_)
            | LogicalType::Geometry(_)
            | LogicalType::Geography(_)
            | LogicalType::Vector
            | LogicalType::_Unknown { .. } => UNDEFINED,
        };
    }
    match converted_type {
        ConvertedType::Utf8 | ConvertedType::Json | ConvertedType::Bson | ConvertedType::Enum => {
            UNSIGNED
        }
        ConvertedType::Int8
        | ConvertedType::Int16
        | ConvertedType::Int32
        | ConvertedType::Int64
        | ConvertedType::Decimal
        | ConvertedType::Date
        | ConvertedType::TimeMillis
        | ConvertedType::TimeMicros
        | ConvertedType::TimestampMillis
        | ConvertedType::TimestampMicros => SIGNED,
        ConvertedType::Uint8
        | ConvertedType::Uint16
        | ConvertedType::Uint32
        | ConvertedType::Uint64 => UNSIGNED,
        ConvertedType::Interval
        | ConvertedType::List
        | ConvertedType::Map
        | ConvertedType::MapKeyValue
        | ConvertedType::Unknown(_) => UNDEFINED,
        ConvertedType::None => match physical_type {
            Type::Boolean | Type::ByteArray | Type::FixedLenByteArray => UNSIGNED,
            Type::Int32 | Type::Int64 => SIGNED,
            Type::Int96 if type_defined => UNDEFINED,
            Type::Int96 => SortOrder::INT96_TIMESTAMP,
            Type::Float | Type::Double if type_defined => SIGNED,
            Type::Float | Type::Double => SortOrder::TOTAL_ORDER,
        },
    }
}

impl ReadThrift for ColumnOrder {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "ColumnOrder";
        let saved = r.begin_struct()?;
        let mut out = None;
        while let Some(f) = r.next_field()? {
            if out.is_some() || f.ty != FieldType::Struct {
                // A union carries one struct member; ignore anything else.
                r.skip(f.ty)?;
                continue;
            }
            r.skip(FieldType::Struct)?;
            out = Some(match f.id {
                // The type's own order is filled in once the schema is known.
                1 => Self::TYPE_DEFINED_ORDER(SortOrder::SIGNED),
                2 => Self::IEEE_754_TOTAL_ORDER,
                3 => Self::INT96_TIMESTAMP_ORDER,
                _ => Self::UNKNOWN,
            });
        }
        r.end_struct(saved);
        required(out, NAME, "member")
    }
}

impl WriteThrift for ColumnOrder {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    /// `UNDEFINED` and `UNKNOWN` have no wire form; a footer that holds
    /// them (decoded from a file with an order this version does not know)
    /// is written with `TYPE_ORDER` in their place, which every reader
    /// understands.
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        match *self {
            Self::IEEE_754_TOTAL_ORDER => w.empty_struct_field(2),
            Self::INT96_TIMESTAMP_ORDER => w.empty_struct_field(3),
            Self::TYPE_DEFINED_ORDER(_) | Self::UNDEFINED | Self::UNKNOWN => {
                w.empty_struct_field(1)
            }
        }
        w.end_struct(saved);
    }
}
