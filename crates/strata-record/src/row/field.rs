//! The values of a row: [`Row`], [`Field`], [`List`], [`Map`], their typed
//! getters and their text, as arrow-rs `parquet::record` has them.

use std::fmt;

use half::f16;

use super::text;
use crate::error::{RecordError, Result};
pub use strata_file::data_type::ByteArray;

/// A decimal's unscaled value (big-endian two's complement bytes),
/// precision and scale (arrow-rs's `parquet::data_type::Decimal`).
///
/// ```
/// use strata_record::row::{Decimal, Field};
///
/// let price = Decimal::from_i32(-1234, 9, 2);
/// assert_eq!((price.precision(), price.scale()), (9, 2));
/// assert_eq!(price.data(), (-1234i32).to_be_bytes());
/// assert_eq!(Field::Decimal(price).to_string(), "-12.34");
/// ```
#[derive(Clone, Debug)]
pub enum Decimal {
    /// Read from an `INT32`.
    Int32 {
        /// The unscaled value, big-endian.
        value: [u8; 4],
        /// Digits in all.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
    /// Read from an `INT64`.
    Int64 {
        /// The unscaled value, big-endian.
        value: [u8; 8],
        /// Digits in all.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
    /// Read from a `BYTE_ARRAY` or `FIXED_LEN_BYTE_ARRAY`.
    Bytes {
        /// The unscaled value, big-endian two's complement.
        value: ByteArray,
        /// Digits in all.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
}

impl Decimal {
    /// A decimal of an `INT32` unscaled value.
    pub fn from_i32(value: i32, precision: i32, scale: i32) -> Self {
        Decimal::Int32 {
            value: value.to_be_bytes(),
            precision,
            scale,
        }
    }

    /// A decimal of an `INT64` unscaled value.
    pub fn from_i64(value: i64, precision: i32, scale: i32) -> Self {
        Decimal::Int64 {
            value: value.to_be_bytes(),
            precision,
            scale,
        }
    }

    /// A decimal of big-endian two's complement bytes.
    pub fn from_bytes(value: ByteArray, precision: i32, scale: i32) -> Self {
        Decimal::Bytes {
            value,
            precision,
            scale,
        }
    }

    /// The unscaled value's bytes, big-endian.
    pub fn data(&self) -> &[u8] {
        match self {
            Decimal::Int32 { value, .. } => value,
            Decimal::Int64 { value, .. } => value,
            Decimal::Bytes { value, .. } => value.data(),
        }
    }

    /// Digits in all.
    pub fn precision(&self) -> i32 {
        match *self {
            Decimal::Int32 { precision, .. }
            | Decimal::Int64 { precision, .. }
            | Decimal::Bytes { precision, .. } => precision,
        }
    }

    /// Digits after the point.
    pub fn scale(&self) -> i32 {
        match *self {
            Decimal::Int32 { scale, .. }
            | Decimal::Int64 { scale, .. }
            | Decimal::Bytes { scale, .. } => scale,
        }
    }
}

/// The unscaled value's bytes ([`data`](Decimal::data)), as arrow-rs's.
impl strata_file::data_type::AsBytes for Decimal {
    fn as_bytes(&self) -> &[u8] {
        self.data()
    }
}

impl Default for Decimal {
    fn default() -> Self {
        Self::from_i32(0, 0, 0)
    }
}

impl PartialEq for Decimal {
    /// Equal precision, scale and bytes (so `from_i32(1, ..)` and
    /// `from_i64(1, ..)` differ, as in arrow-rs).
    fn eq(&self, other: &Self) -> bool {
        self.precision() == other.precision()
            && self.scale() == other.scale()
            && self.data() == other.data()
    }
}

/// One value of a row: a primitive value read as its annotation says, or a
/// struct, list or map (arrow-rs's `parquet::record::Field`, the same
/// variants).
///
/// Its text (`Display`) is arrow-rs's, character for character: strings
/// quoted, bytes as numbers, dates as `2009-03-01`, timestamps as
/// `2009-03-01 00:00:00.000 +00:00`, decimals without exponent, lists as
/// `[1, 2]`, maps as `{k -> v}`, structs as `{name: value}`. Where
/// arrow-rs panics (a date or timestamp outside chrono's years -262144 to
/// 262143, a decimal with a negative scale), strata prints: the calendar
/// carried on, the unscaled digits followed by zeros.
///
/// ```
/// use strata_record::row::Field;
///
/// assert_eq!(Field::Date(14611).to_string(), "2010-01-02");
/// assert_eq!(Field::Str("a".into()).to_string(), "\"a\"");
/// assert_eq!(Field::Double(0.0).to_string(), "0E0");
/// assert_eq!(Field::Float(2.5).to_string(), "2.5");
/// assert_eq!(
///     Field::TimestampMillis(1262391174000).to_string(),
///     "2010-01-02 00:12:54.000 +00:00"
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// A null value.
    Null,
    /// `BOOLEAN`.
    Bool(bool),
    /// `INT32` annotated as an 8-bit signed integer.
    Byte(i8),
    /// `INT32` annotated as a 16-bit signed integer.
    Short(i16),
    /// `INT32`, unannotated or a 32-bit signed integer.
    Int(i32),
    /// `INT64`, unannotated or a 64-bit signed integer.
    Long(i64),
    /// `INT32` annotated as an 8-bit unsigned integer.
    UByte(u8),
    /// `INT32` annotated as a 16-bit unsigned integer.
    UShort(u16),
    /// `INT32` annotated as a 32-bit unsigned integer.
    UInt(u32),
    /// `INT64` annotated as a 64-bit unsigned integer.
    ULong(u64),
    /// `FIXED_LEN_BYTE_ARRAY(2)` annotated `FLOAT16`.
    Float16(f16),
    /// `FLOAT`.
    Float(f32),
    /// `DOUBLE`.
    Double(f64),
    /// A decimal of any physical type.
    Decimal(Decimal),
    /// `BYTE_ARRAY` annotated as a string, enum or JSON.
    Str(String),
    /// Other bytes.
    Bytes(ByteArray),
    /// Days since 1970-01-01.
    Date(i32),
    /// Milliseconds since midnight.
    TimeMillis(i32),
    /// Microseconds since midnight.
    TimeMicros(i64),
    /// Milliseconds since 1970-01-01 00:00 UTC (also `INT96` timestamps).
    TimestampMillis(i64),
    /// Microseconds since 1970-01-01 00:00 UTC.
    TimestampMicros(i64),
    /// A struct.
    Group(Row),
    /// A list.
    ListInternal(List),
    /// A map.
    MapInternal(Map),
}

impl Field {
    /// The variant's name, as the getters' errors give it.
    fn type_name(&self) -> &'static str {
        match self {
            Field::Null => "Null",
            Field::Bool(_) => "Bool",
            Field::Byte(_) => "Byte",
            Field::Short(_) => "Short",
            Field::Int(_) => "Int",
            Field::Long(_) => "Long",
            Field::UByte(_) => "UByte",
            Field::UShort(_) => "UShort",
            Field::UInt(_) => "UInt",
            Field::ULong(_) => "ULong",
            Field::Float16(_) => "Float16",
            Field::Float(_) => "Float",
            Field::Double(_) => "Double",
            Field::Decimal(_) => "Decimal",
            Field::Str(_) => "Str",
            Field::Bytes(_) => "Bytes",
            Field::Date(_) => "Date",
            Field::TimeMillis(_) => "TimeMillis",
            Field::TimeMicros(_) => "TimeMicros",
            Field::TimestampMillis(_) => "TimestampMillis",
            Field::TimestampMicros(_) => "TimestampMicros",
            Field::Group(_) => "Group",
            Field::ListInternal(_) => "ListInternal",
            Field::MapInternal(_) => "MapInternal",
        }
    }

    /// Whether the value is not a struct, list or map.
    pub fn is_primitive(&self) -> bool {
        !matches!(
            self,
            Field::Group(_) | Field::ListInternal(_) | Field::MapInternal(_)
        )
    }

    /// The error of a getter that met this field where it wanted
    /// `expected`.
    fn wrong_type(&self, expected: &'static str) -> RecordError {
        RecordError::FieldType {
            found: self.type_name(),
            expected,
        }
    }
}

/// Writes a float as arrow-rs does: outside `1e-15..=1e19` (zero and
/// negative numbers included) in exponent form, whole numbers with `.0`.
macro_rules! write_float {
    ($f:expr, $value:expr) => {{
        let value = $value;
        if !(1e-15..=1e19).contains(&value) {
            write!($f, "{value:E}")
        } else if value.trunc() == value {
            write!($f, "{value}.0")
        } else {
            write!($f, "{value}")
        }
    }};
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Null => f.write_str("null"),
            Field::Bool(v) => write!(f, "{v}"),
            Field::Byte(v) => write!(f, "{v}"),
            Field::Short(v) => write!(f, "{v}"),
            Field::Int(v) => write!(f, "{v}"),
            Field::Long(v) => write!(f, "{v}"),
            Field::UByte(v) => write!(f, "{v}"),
            Field::UShort(v) => write!(f, "{v}"),
            Field::UInt(v) => write!(f, "{v}"),
            Field::ULong(v) => write!(f, "{v}"),
            Field::Float16(v) => {
                let wide = f32::from(*v);
                if wide.is_finite() && wide.trunc() == wide {
                    write!(f, "{v}.0")
                } else {
                    write!(f, "{v}")
                }
            }
            Field::Float(v) => write_float!(f, *v),
            Field::Double(v) => write_float!(f, *v),
            Field::Decimal(v) => f.write_str(&text::decimal(v.data(), v.scale())),
            Field::Str(v) => write!(f, "\"{v}\""),
            Field::Bytes(v) => write!(f, "{:?}", v.data()),
            Field::Date(days) => f.write_str(&text::date(i64::from(*days))),
            Field::TimeMillis(v) => f.write_str(&text::time_millis(*v)),
            Field::TimeMicros(v) => f.write_str(&text::time_micros(*v)),
            Field::TimestampMillis(v) => f.write_str(&text::timestamp(i128::from(*v), 1_000)),
            Field::TimestampMicros(v) => f.write_str(&text::timestamp(i128::from(*v), 1_000_000)),
            Field::Group(row) => write!(f, "{row}"),
            Field::ListInternal(list) => {
                f.write_str("[")?;
                for (i, element) in list.elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{element}")?;
                }
                f.write_str("]")
            }
            Field::MapInternal(map) => {
                f.write_str("{")?;
                for (i, (key, value)) in map.entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{key} -> {value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

#[cfg(feature = "json")]
impl Field {
    /// The value as JSON, as arrow-rs gives it (feature `json`): numbers
    /// as numbers (a float that is not finite as `null`), decimals, dates,
    /// times and timestamps as their text, bytes as standard base64,
    /// structs and maps as objects (map keys as their text), lists as
    /// arrays.
    pub fn to_json_value(&self) -> serde_json::Value {
        use base64::Engine;
        use serde_json::{Number, Value};
        let float = |v: f64| Number::from_f64(v).map_or(Value::Null, Value::Number);
        match self {
            Field::Null => Value::Null,
            Field::Bool(v) => Value::Bool(*v),
            Field::Byte(v) => Value::from(*v),
            Field::Short(v) => Value::from(*v),
            Field::Int(v) => Value::from(*v),
            Field::Long(v) => Value::from(*v),
            Field::UByte(v) => Value::from(*v),
            Field::UShort(v) => Value::from(*v),
            Field::UInt(v) => Value::from(*v),
            Field::ULong(v) => Value::from(*v),
            Field::Float16(v) => float(f64::from(*v)),
            Field::Float(v) => float(f64::from(*v)),
            Field::Double(v) => float(*v),
            Field::Decimal(v) => Value::String(text::decimal(v.data(), v.scale())),
            Field::Str(v) => Value::String(v.clone()),
            Field::Bytes(v) => {
                Value::String(base64::engine::general_purpose::STANDARD.encode(v.data()))
            }
            Field::Date(days) => Value::String(text::date(i64::from(*days))),
            Field::TimeMillis(v) => Value::String(text::time_millis(*v)),
            Field::TimeMicros(v) => Value::String(text::time_micros(*v)),
            Field::TimestampMillis(v) => Value::String(text::timestamp(i128::from(*v), 1_000)),
            Field::TimestampMicros(v) => Value::String(text::timestamp(i128::from(*v), 1_000_000)),
            Field::Group(row) => row.to_json_value(),
            Field::ListInternal(list) => {
                Value::Array(list.elements.iter().map(Field::to_json_value).collect())
            }
            Field::MapInternal(map) => Value::Object(
                map.entries
                    .iter()
                    .map(|(key, value)| {
                        let key = match key.to_json_value() {
                            Value::String(text) => text,
                            other => other.to_string(),
                        };
                        (key, value.to_json_value())
                    })
                    .collect(),
            ),
        }
    }
}

/// A record: its top-level fields by name, in schema order (arrow-rs's
/// `parquet::record::Row`).
///
/// ```
/// use strata_record::row::{Field, Row, RowAccessor};
///
/// let row = Row::new(vec![
///     ("id".to_string(), Field::Long(7)),
///     ("name".to_string(), Field::Str("ann".into())),
///     ("score".to_string(), Field::Null),
/// ]);
/// assert_eq!(row.to_string(), "{id: 7, name: \"ann\", score: null}");
/// assert_eq!(row.get_long(0).unwrap(), 7);
/// assert_eq!(row.get_string(1).unwrap(), "ann");
/// assert!(row.is_null(2).unwrap());
/// assert_eq!(
///     row.get_int(0).unwrap_err().to_string(),
///     "Parquet error: Cannot access Long as Int"
/// );
/// assert_eq!(row.get_long(3).unwrap_err().to_string(), "Index 3 out of bound: 3");
/// let names: Vec<&String> = row.get_column_iter().map(|(name, _)| name).collect();
/// assert_eq!(names, ["id", "name", "score"]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    fields: Vec<(String, Field)>,
}

#[allow(clippy::len_without_is_empty)]
impl Row {
    /// A row of these named fields.
    pub fn new(fields: Vec<(String, Field)>) -> Row {
        Row { fields }
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// The fields, by value.
    pub fn into_columns(self) -> Vec<(String, Field)> {
        self.fields
    }

    /// The fields' names and values, in order.
    pub fn get_column_iter(&self) -> RowColumnIter<'_> {
        RowColumnIter {
            fields: self.fields.iter(),
        }
    }

    /// Field `i`, or the error arrow-rs gives past the end.
    fn field(&self, i: usize) -> Result<&Field> {
        self.fields
            .get(i)
            .map(|(_, field)| field)
            .ok_or(RecordError::IndexOutOfBound(i, self.fields.len()))
    }
}

#[cfg(feature = "json")]
impl Row {
    /// The row as a JSON object of its fields (feature `json`; see
    /// [`Field`]'s `to_json_value` for each value).
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::Value::Object(
            self.fields
                .iter()
                .map(|(name, field)| (name.clone(), field.to_json_value()))
                .collect(),
        )
    }
}

impl fmt::Display for Row {
    /// `{name: value, ...}`, names unquoted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (name, value)) in self.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name}: {value}")?;
        }
        f.write_str("}")
    }
}

/// The names and values of a row's fields
/// ([`Row::get_column_iter`]).
#[derive(Debug, Clone)]
pub struct RowColumnIter<'a> {
    fields: std::slice::Iter<'a, (String, Field)>,
}

impl<'a> Iterator for RowColumnIter<'a> {
    type Item = (&'a String, &'a Field);

    fn next(&mut self) -> Option<Self::Item> {
        self.fields.next().map(|(name, field)| (name, field))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.fields.size_hint()
    }
}

/// A list's elements (arrow-rs's `parquet::record::List`).
#[derive(Clone, Debug, PartialEq)]
pub struct List {
    elements: Vec<Field>,
}

#[allow(clippy::len_without_is_empty)]
impl List {
    pub(crate) fn new(elements: Vec<Field>) -> Self {
        Self { elements }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// The elements.
    pub fn elements(&self) -> &[Field] {
        &self.elements
    }
}

/// A map's entries, in the order the file holds them (arrow-rs's
/// `parquet::record::Map`).
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    entries: Vec<(Field, Field)>,
}

#[allow(clippy::len_without_is_empty)]
impl Map {
    pub(crate) fn new(entries: Vec<(Field, Field)>) -> Self {
        Self { entries }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The key-value pairs.
    pub fn entries(&self) -> &[(Field, Field)] {
        &self.entries
    }
}

/// Formats the field at an index (arrow-rs's
/// `parquet::record::RowFormatter`).
pub trait RowFormatter {
    /// The field at `i`, or `<IndexOutOfBound>` past the end.
    fn fmt(&self, i: usize) -> &dyn fmt::Display;
}

impl RowFormatter for Row {
    fn fmt(&self, i: usize) -> &dyn fmt::Display {
        match self.fields.get(i) {
            Some((_, field)) => field,
            None => &"<IndexOutOfBound>",
        }
    }
}

/// Declares the typed getters of a trait: `$name(i) -> $ty` for the
/// variant `$variant`, copied out (`copy`) or borrowed (`ref`).
macro_rules! getter_decls {
    ($($(#[$doc:meta])* $name:ident: $ty:ty;)*) => {
        $($(#[$doc])* fn $name(&self, i: usize) -> Result<$ty>;)*
    };
}

/// Typed access to a row's fields by position (arrow-rs's
/// `parquet::record::RowAccessor`). A getter fails past the end
/// ([`RecordError::IndexOutOfBound`]) and on a field of another type
/// ([`RecordError::FieldType`]).
pub trait RowAccessor {
    /// Whether field `i` is null.
    fn is_null(&self, i: usize) -> Result<bool>;
    getter_decls! {
        /// A `Bool`.
        get_bool: bool;
        /// A `Byte`.
        get_byte: i8;
        /// A `Short`.
        get_short: i16;
        /// An `Int`.
        get_int: i32;
        /// A `Long`.
        get_long: i64;
        /// A `UByte`.
        get_ubyte: u8;
        /// A `UShort`.
        get_ushort: u16;
        /// A `UInt`.
        get_uint: u32;
        /// A `ULong`.
        get_ulong: u64;
        /// A `Float16`.
        get_float16: f16;
        /// A `Float`.
        get_float: f32;
        /// A `Double`.
        get_double: f64;
        /// A `TimestampMillis`.
        get_timestamp_millis: i64;
        /// A `TimestampMicros`.
        get_timestamp_micros: i64;
        /// A `Decimal`.
        get_decimal: &Decimal;
        /// A `Str`.
        get_string: &String;
        /// A `Bytes`.
        get_bytes: &ByteArray;
        /// A `Group`.
        get_group: &Row;
        /// A `ListInternal`.
        get_list: &List;
        /// A `MapInternal`.
        get_map: &Map;
    }
}

/// Typed access to a list's elements by position (arrow-rs's
/// `parquet::record::ListAccessor`); past the end is an error, not
/// arrow-rs's panic.
pub trait ListAccessor {
    getter_decls! {
        /// A `Bool`.
        get_bool: bool;
        /// A `Byte`.
        get_byte: i8;
        /// A `Short`.
        get_short: i16;
        /// An `Int`.
        get_int: i32;
        /// A `Long`.
        get_long: i64;
        /// A `UByte`.
        get_ubyte: u8;
        /// A `UShort`.
        get_ushort: u16;
        /// A `UInt`.
        get_uint: u32;
        /// A `ULong`.
        get_ulong: u64;
        /// A `Float16`.
        get_float16: f16;
        /// A `Float`.
        get_float: f32;
        /// A `Double`.
        get_double: f64;
        /// A `TimestampMillis`.
        get_timestamp_millis: i64;
        /// A `TimestampMicros`.
        get_timestamp_micros: i64;
        /// A `Decimal`.
        get_decimal: &Decimal;
        /// A `Str`.
        get_string: &String;
        /// A `Bytes`.
        get_bytes: &ByteArray;
        /// A `Group`.
        get_group: &Row;
        /// A `ListInternal`.
        get_list: &List;
        /// A `MapInternal`.
        get_map: &Map;
    }
}

/// A map's keys or values as lists (arrow-rs's
/// `parquet::record::MapAccessor`).
///
/// ```
/// # use strata_record::row::Field;
/// use strata_record::row::{ListAccessor, MapAccessor};
/// # fn demo(map: &strata_record::row::Map) -> strata_record::Result<()> {
/// let keys = map.get_keys();
/// let first_key: &String = keys.get_string(0)?;
/// # Ok(()) }
/// ```
pub trait MapAccessor {
    /// The keys, in order.
    fn get_keys<'a>(&'a self) -> Box<dyn ListAccessor + 'a>;
    /// The values, in order.
    fn get_values<'a>(&'a self) -> Box<dyn ListAccessor + 'a>;
}

/// Implements every getter of [`RowAccessor`] / [`ListAccessor`] for a
/// type with `fn field(&self, i) -> Result<&Field>`.
macro_rules! getter_impls {
    () => {
        getter_impls! {
            copy get_bool, Bool, bool;
            copy get_byte, Byte, i8;
            copy get_short, Short, i16;
            copy get_int, Int, i32;
            copy get_long, Long, i64;
            copy get_ubyte, UByte, u8;
            copy get_ushort, UShort, u16;
            copy get_uint, UInt, u32;
            copy get_ulong, ULong, u64;
            copy get_float16, Float16, f16;
            copy get_float, Float, f32;
            copy get_double, Double, f64;
            copy get_timestamp_millis, TimestampMillis, i64;
            copy get_timestamp_micros, TimestampMicros, i64;
            ref get_decimal, Decimal, Decimal;
            ref get_string, Str, String;
            ref get_bytes, Bytes, ByteArray;
            ref get_group, Group, Row;
            ref get_list, ListInternal, List;
            ref get_map, MapInternal, Map;
        }
    };
    ($($kind:ident $name:ident, $variant:ident, $ty:ty;)*) => {
        $(getter_impls!(@one $kind $name, $variant, $ty);)*
    };
    (@one copy $name:ident, $variant:ident, $ty:ty) => {
        fn $name(&self, i: usize) -> Result<$ty> {
            match self.field(i)? {
                Field::$variant(v) => Ok(*v),
                other => Err(other.wrong_type(stringify!($variant))),
            }
        }
    };
    (@one ref $name:ident, $variant:ident, $ty:ty) => {
        fn $name(&self, i: usize) -> Result<&$ty> {
            match self.field(i)? {
                Field::$variant(v) => Ok(v),
                other => Err(other.wrong_type(stringify!($variant))),
            }
        }
    };
}

impl RowAccessor for Row {
    fn is_null(&self, i: usize) -> Result<bool> {
        Ok(matches!(self.field(i)?, Field::Null))
    }

    getter_impls!();
}

impl List {
    fn field(&self, i: usize) -> Result<&Field> {
        self.elements
            .get(i)
            .ok_or(RecordError::IndexOutOfBound(i, self.elements.len()))
    }
}

impl ListAccessor for List {
    getter_impls!();
}

/// A map's keys or values, borrowed.
struct MapColumn<'a> {
    fields: Vec<&'a Field>,
}

impl MapColumn<'_> {
    fn field(&self, i: usize) -> Result<&Field> {
        self.fields
            .get(i)
            .copied()
            .ok_or(RecordError::IndexOutOfBound(i, self.fields.len()))
    }
}

impl ListAccessor for MapColumn<'_> {
    getter_impls!();
}

impl MapAccessor for Map {
    fn get_keys<'a>(&'a self) -> Box<dyn ListAccessor + 'a> {
        Box::new(MapColumn {
            fields: self.entries.iter().map(|(key, _)| key).collect(),
        })
    }

    fn get_values<'a>(&'a self) -> Box<dyn ListAccessor + 'a> {
        Box::new(MapColumn {
            fields: self.entries.iter().map(|(_, value)| value).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_arrow_rs_prints_them() {
        let cases: [(f64, &str); 8] = [
            (0.0, "0E0"),
            (-1.5, "-1.5E0"),
            (1e20, "1E20"),
            (1e-16, "1E-16"),
            (5.0, "5.0"),
            (9.63, "9.63"),
            (1e19, "10000000000000000000.0"),
            (f64::NAN, "NaN"),
        ];
        for (value, text) in cases {
            assert_eq!(Field::Double(value).to_string(), text, "{value}");
        }
        assert_eq!(Field::Float(1.1).to_string(), "1.1");
        assert_eq!(Field::Float16(f16::from_f32(-0.0)).to_string(), "-0.0");
        assert_eq!(
            Field::Float16(f16::from_f32(3.140625)).to_string(),
            "3.140625"
        );
        assert_eq!(Field::Float16(f16::INFINITY).to_string(), "inf");
        assert_eq!(Field::Float16(f16::NAN).to_string(), "NaN");
    }

    #[test]
    fn nested_values_print_with_their_brackets() {
        let list = Field::ListInternal(List::new(vec![Field::Int(2), Field::Null]));
        let map = Field::MapInternal(Map::new(vec![(
            Field::Str("k".into()),
            Field::Bytes(ByteArray::from(vec![1, 2])),
        )]));
        let row = Row::new(vec![
            ("l".into(), list),
            ("m".into(), map),
            ("g".into(), Field::Group(Row::new(vec![]))),
            ("e".into(), Field::ListInternal(List::new(vec![]))),
        ]);
        assert_eq!(
            row.to_string(),
            "{l: [2, null], m: {\"k\" -> [1, 2]}, g: {}, e: []}"
        );
    }

    #[test]
    fn list_and_map_getters_check_bounds_and_types() {
        let list = List::new(vec![Field::Int(4), Field::Str("x".into())]);
        assert_eq!(list.get_int(0).unwrap(), 4);
        assert_eq!(list.get_string(1).unwrap(), "x");
        assert!(matches!(
            list.get_int(2),
            Err(RecordError::IndexOutOfBound(2, 2))
        ));
        assert!(matches!(
            list.get_long(0),
            Err(RecordError::FieldType {
                found: "Int",
                expected: "Long"
            })
        ));
        let map = Map::new(vec![(Field::Int(1), Field::Double(1.5))]);
        assert_eq!(map.get_keys().get_int(0).unwrap(), 1);
        assert_eq!(map.get_values().get_double(0).unwrap(), 1.5);
        assert!(map.get_values().get_double(1).is_err());
        let row = Row::new(vec![("a".into(), Field::Int(1))]);
        assert_eq!(row.fmt(0).to_string(), "1");
        assert_eq!(row.fmt(1).to_string(), "<IndexOutOfBound>");
    }

    #[test]
    fn byte_arrays_debug_as_arrow_rs() {
        assert_eq!(
            format!("{:?}", ByteArray::from("hi")),
            "ByteArray { data: \"hi\" }"
        );
        assert_eq!(
            format!("{:?}", ByteArray::from(vec![0xFF])),
            "ByteArray { data: Some(b\"\\xff\") }"
        );
        assert!(ByteArray::from(vec![0xFF]).as_utf8().is_err());
    }
}
