//! The schema as a tree, and its leaf columns.
//!
//! The footer stores the schema as a depth-first list of
//! [`SchemaElement`]s where each group says how many children follow.
//! [`SchemaDescriptor::from_elements`] rebuilds the tree (a [`Type`] per
//! node, shared through [`TypePtr`]), validates it, and lists the leaf
//! columns ([`ColumnDescriptor`]) with their paths and maximum definition
//! and repetition levels. [`SchemaDescriptor::to_elements`] flattens a tree
//! back for writers.
//!
//! [`Type`] has the shape of arrow-rs's `parquet::schema::types::Type`,
//! with its builders ([`Type::primitive_type_builder`],
//! [`Type::group_type_builder`]); [`parser::parse_message_type`] reads the
//! textual form and [`printer::print_schema`] writes it.
//!
//! ```
//! use strata_format::metadata::{FieldRepetitionType as Rep, SchemaElement, Type};
//! use strata_format::schema::SchemaDescriptor;
//!
//! // message schema { optional group a { repeated int32 b; } required int64 c; }
//! let elements = vec![
//!     SchemaElement { name: "schema".into(), num_children: Some(2), ..Default::default() },
//!     SchemaElement {
//!         name: "a".into(), repetition_type: Some(Rep::Optional), num_children: Some(1),
//!         ..Default::default()
//!     },
//!     SchemaElement {
//!         name: "b".into(), repetition_type: Some(Rep::Repeated), physical_type: Some(Type::Int32),
//!         ..Default::default()
//!     },
//!     SchemaElement {
//!         name: "c".into(), repetition_type: Some(Rep::Required), physical_type: Some(Type::Int64),
//!         ..Default::default()
//!     },
//! ];
//! let schema = SchemaDescriptor::from_elements(&elements).unwrap();
//! let b = &schema.columns()[0];
//! assert_eq!(b.path.string(), "a.b");
//! assert_eq!((b.max_def_level, b.max_rep_level), (2, 1));
//! assert_eq!(schema.columns()[1].max_def_level, 0);
//! assert_eq!(schema.get_column_root(0).name(), "a");
//! assert_eq!(schema.to_elements(), elements);
//! ```

pub mod parser;
pub mod printer;

use std::fmt;

use std::sync::Arc;

use crate::error::{FormatError, Result};
use crate::metadata::{
    ColumnOrder, ConvertedType, FieldRepetitionType, FileMetaData, LogicalType, SchemaElement,
    SortOrder, TimeUnit, Type as PhysicalType,
};

/// The repetition of a field, under arrow-rs's name.
pub type Repetition = FieldRepetitionType;

/// Deepest schema nesting accepted (the root is depth 0).
pub const MAX_SCHEMA_DEPTH: usize = 128;

/// The path of a column from the root's child down to the leaf.
///
/// Its parts are shared (`Arc`): a column chunk's path in a footer is one
/// allocation however many row groups name it, and a descriptor's path
/// is copied by reference count.
///
/// The empty path holds no allocation (`None`, never an empty `Some`), so
/// it is made, cloned and dropped without touching a reference count: the
/// footer decoder uses it as a placeholder in every chunk it decodes.
/// However it is made, an empty path equals every other.
///
/// ```
/// use std::sync::Arc;
/// use strata_format::ColumnPath;
///
/// let empty = ColumnPath::new(Vec::new());
/// assert_eq!(empty, ColumnPath::default());
/// assert_eq!(ColumnPath::from(Arc::<[String]>::from(Vec::new())), empty);
/// assert!(empty.parts().is_empty() && empty.string().is_empty());
/// let mut path = empty.clone();
/// path.append(vec!["a".into(), "b".into()]);
/// assert_eq!(path, ColumnPath::from(&["a", "b"][..]));
/// assert!(empty < path);
/// ```
///
/// Displays dotted: `a.b.c`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnPath(Option<Arc<[String]>>);

impl ColumnPath {
    /// The empty path.
    pub(crate) const EMPTY: Self = Self(None);

    /// A path from its parts.
    pub fn new(parts: Vec<String>) -> Self {
        Self::from(Arc::<[String]>::from(parts))
    }

    /// The parts, root-most first.
    pub fn parts(&self) -> &[String] {
        self.0.as_deref().unwrap_or_default()
    }

    /// The parts as owned strings.
    pub fn into_parts(self) -> Vec<String> {
        self.parts().to_vec()
    }
}

impl ColumnPath {
    /// The dotted form, `a.b.c` (as arrow-rs's `ColumnPath::string`).
    pub fn string(&self) -> String {
        self.parts().join(".")
    }

    /// Append parts to the path.
    pub fn append(&mut self, tail: Vec<String>) {
        let mut parts = self.parts().to_vec();
        parts.extend(tail);
        *self = Self::new(parts);
    }
}

/// The parts, as a slice (`path[0]`, `path.len()`, `&path[..]`).
impl std::ops::Deref for ColumnPath {
    type Target = [String];

    fn deref(&self) -> &[String] {
        self.parts()
    }
}

/// A single-part path, as arrow-rs's `ColumnPath::from("col")`.
///
/// ```
/// use strata_format::ColumnPath;
/// assert_eq!(ColumnPath::from("a").parts(), ["a".to_string()]);
/// ```
impl From<&str> for ColumnPath {
    fn from(single: &str) -> Self {
        Self::new(vec![single.to_string()])
    }
}

/// A single-part path from an owned string.
impl From<String> for ColumnPath {
    fn from(single: String) -> Self {
        Self::new(vec![single])
    }
}

impl From<Vec<String>> for ColumnPath {
    fn from(parts: Vec<String>) -> Self {
        Self::new(parts)
    }
}

impl From<Arc<[String]>> for ColumnPath {
    fn from(parts: Arc<[String]>) -> Self {
        Self((!parts.is_empty()).then_some(parts))
    }
}

impl From<&[&str]> for ColumnPath {
    fn from(parts: &[&str]) -> Self {
        Self::from(
            parts
                .iter()
                .map(|s| (*s).to_owned())
                .collect::<Arc<[String]>>(),
        )
    }
}

impl fmt::Display for ColumnPath {
    /// The dotted path in quotes, as arrow-rs prints it: `"a.b"`
    /// ([`string`](Self::string) has it without).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.string())
    }
}

/// A shared schema node, as arrow-rs's `TypePtr`.
pub type TypePtr = Arc<Type>;

/// A shared schema descriptor, as arrow-rs's `SchemaDescPtr`.
pub type SchemaDescPtr = Arc<SchemaDescriptor>;

/// A shared leaf column descriptor, as arrow-rs's `ColumnDescPtr`.
pub type ColumnDescPtr = Arc<ColumnDescriptor>;

/// What every schema node has: its name, repetition, annotations and
/// field id, and, for a leaf, the order its values sort in.
#[derive(Debug, Clone)]
pub struct BasicTypeInfo {
    name: String,
    repetition: Option<Repetition>,
    converted_type: ConvertedType,
    logical_type: Option<LogicalType>,
    id: Option<i32>,
    vector_length: Option<i32>,
    /// Derived from the types when the node is made (a leaf's; `UNDEFINED`
    /// for groups), so left out of equality and hashing.
    sort_order: SortOrder,
}

impl PartialEq for BasicTypeInfo {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.repetition == other.repetition
            && self.converted_type == other.converted_type
            && self.logical_type == other.logical_type
            && self.id == other.id
            && self.vector_length == other.vector_length
    }
}

impl Eq for BasicTypeInfo {}

impl std::hash::Hash for BasicTypeInfo {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.repetition.hash(state);
        self.converted_type.hash(state);
        self.logical_type.hash(state);
        self.id.hash(state);
        self.vector_length.hash(state);
    }
}

/// The order a leaf of these types sorts in, as its type-defined column
/// order gives it.
fn leaf_sort_order(
    logical_type: Option<&LogicalType>,
    converted_type: ConvertedType,
    physical_type: PhysicalType,
) -> SortOrder {
    ColumnOrder::column_order_for_type(logical_type, converted_type, physical_type).sort_order()
}

impl BasicTypeInfo {
    /// The field's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the node has a repetition (every node but the root does).
    pub fn has_repetition(&self) -> bool {
        self.repetition.is_some()
    }

    /// The repetition. A node without one (the root) reports
    /// `REQUIRED`, where arrow-rs panics; check
    /// [`has_repetition`](Self::has_repetition) first.
    pub fn repetition(&self) -> Repetition {
        self.repetition.unwrap_or(Repetition::Required)
    }

    /// The repetition, `None` on the root (strata's checked form of
    /// [`repetition`](Self::repetition)).
    pub fn repetition_opt(&self) -> Option<Repetition> {
        self.repetition
    }

    /// The field id, `None` when there is none (strata's checked form of
    /// [`id`](Self::id)).
    pub fn id_opt(&self) -> Option<i32> {
        self.id
    }

    /// A node's information as given, unchecked (strata's constructor for
    /// writers that build a tree directly; the builders check what they
    /// are given and derive the converted type from the logical type).
    pub fn new(
        name: String,
        repetition: Option<Repetition>,
        converted_type: ConvertedType,
        logical_type: Option<LogicalType>,
        id: Option<i32>,
    ) -> Self {
        Self {
            name,
            repetition,
            converted_type,
            logical_type,
            id,
            vector_length: None,
            sort_order: SortOrder::UNDEFINED,
        }
    }

    /// This information for a leaf of `physical_type`: the same, with the
    /// sort order its types give (a node made by [`new`](Self::new) has
    /// none, `UNDEFINED`, as groups do).
    ///
    /// ```
    /// use strata_format::metadata::{ConvertedType, SortOrder, Type};
    /// use strata_format::schema::BasicTypeInfo;
    ///
    /// let info = BasicTypeInfo::new("x".into(), None, ConvertedType::Uint32, None, None);
    /// assert_eq!(info.sort_order(), SortOrder::UNDEFINED);
    /// assert_eq!(info.with_physical_type(Type::Int32).sort_order(), SortOrder::UNSIGNED);
    /// ```
    pub fn with_physical_type(mut self, physical_type: PhysicalType) -> Self {
        self.sort_order = leaf_sort_order(
            self.logical_type.as_ref(),
            self.converted_type,
            physical_type,
        );
        self
    }

    /// The order the node's values sort in: for a leaf, the one its
    /// logical, converted and physical types define (`TOTAL_ORDER` for
    /// floats, `INT96_TIMESTAMP` for INT96); `UNDEFINED` for a group. The
    /// file's column orders do not change it (see
    /// `FileMetaData::column_order`).
    pub fn sort_order(&self) -> SortOrder {
        self.sort_order
    }

    /// The legacy annotation as stored, `NONE` when there is none (unlike
    /// [`converted_type`](Self::converted_type), not derived from the
    /// logical type).
    pub fn stored_converted_type(&self) -> ConvertedType {
        self.converted_type
    }

    /// The legacy annotation: the one stored, else the one the logical
    /// type implies (as arrow-rs reports it), else [`ConvertedType::NONE`].
    pub fn converted_type(&self) -> ConvertedType {
        match (self.converted_type, &self.logical_type) {
            (ConvertedType::None, Some(logical)) => logical.converted_type(),
            (converted, _) => converted,
        }
    }

    /// The logical type annotation.
    pub fn logical_type_ref(&self) -> Option<&LogicalType> {
        self.logical_type.as_ref()
    }

    /// Whether the node has a field id.
    pub fn has_id(&self) -> bool {
        self.id.is_some()
    }

    /// The field id; -1 when there is none (arrow-rs panics); check
    /// [`has_id`](Self::has_id) first.
    pub fn id(&self) -> i32 {
        self.id.unwrap_or(-1)
    }

    /// The number of slots of a `VECTOR` field, as the footer has it.
    pub fn vector_length(&self) -> Option<i32> {
        self.vector_length
    }
}

/// One node of the schema tree: a primitive leaf or a group of fields, in
/// the shape of arrow-rs's `parquet::schema::types::Type`.
///
/// Absent numbers (`type_length`, `scale`, `precision`) are -1, as in
/// arrow-rs.
///
/// ```
/// use std::sync::Arc;
/// use strata_format::metadata::{ConvertedType, FieldRepetitionType as Repetition, LogicalType, Type as PhysicalType};
/// use strata_format::schema::Type;
///
/// let id = Type::primitive_type_builder("id", PhysicalType::INT64)
///     .with_repetition(Repetition::REQUIRED)
///     .build()
///     .unwrap();
/// let name = Type::primitive_type_builder("name", PhysicalType::BYTE_ARRAY)
///     .with_logical_type(Some(LogicalType::String))
///     .build()
///     .unwrap();
/// // The builder fills in the legacy annotation of a logical type.
/// assert_eq!(name.get_basic_info().converted_type(), ConvertedType::UTF8);
/// let schema = Type::group_type_builder("schema")
///     .with_fields(vec![Arc::new(id), Arc::new(name)])
///     .build()
///     .unwrap();
/// assert!(schema.is_schema());
/// assert_eq!(schema.get_fields()[1].name(), "name");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// A leaf holding values of a physical type.
    PrimitiveType {
        /// Name, repetition, annotations, id.
        basic_info: BasicTypeInfo,
        /// Physical type of the values.
        physical_type: PhysicalType,
        /// Byte length for `FIXED_LEN_BYTE_ARRAY`, else -1.
        type_length: i32,
        /// Decimal scale, else -1.
        scale: i32,
        /// Decimal precision, else -1.
        precision: i32,
    },
    /// A group of fields.
    GroupType {
        /// Name, repetition, annotations, id.
        basic_info: BasicTypeInfo,
        /// The fields, in order.
        fields: Vec<TypePtr>,
    },
}

impl Type {
    /// A builder for a leaf named `name` holding `physical_type` values.
    pub fn primitive_type_builder(
        name: &str,
        physical_type: PhysicalType,
    ) -> PrimitiveTypeBuilder<'_> {
        PrimitiveTypeBuilder::new(name, physical_type)
    }

    /// A builder for a group named `name`.
    pub fn group_type_builder(name: &str) -> GroupTypeBuilder<'_> {
        GroupTypeBuilder::new(name)
    }

    /// Name, repetition, annotations and id.
    pub fn get_basic_info(&self) -> &BasicTypeInfo {
        match self {
            Self::PrimitiveType { basic_info, .. } | Self::GroupType { basic_info, .. } => {
                basic_info
            }
        }
    }

    /// The field's name.
    pub fn name(&self) -> &str {
        self.get_basic_info().name()
    }

    /// The fields of a group; empty for a leaf (where arrow-rs panics).
    pub fn get_fields(&self) -> &[TypePtr] {
        match self {
            Self::GroupType { fields, .. } => fields,
            Self::PrimitiveType { .. } => &[],
        }
    }

    /// The physical type of a leaf.
    ///
    /// # Panics
    ///
    /// On a group, as arrow-rs does; check [`is_primitive`](Self::is_primitive)
    /// first.
    pub fn get_physical_type(&self) -> PhysicalType {
        match self {
            Self::PrimitiveType { physical_type, .. } => *physical_type,
            #[allow(clippy::panic)]
            Self::GroupType { .. } => {
                panic!("Cannot call get_physical_type() on a non-primitive type")
            }
        }
    }

    /// The decimal precision of a leaf; -1 when absent or on a group.
    pub fn get_precision(&self) -> i32 {
        match self {
            Self::PrimitiveType { precision, .. } => *precision,
            Self::GroupType { .. } => -1,
        }
    }

    /// The decimal scale of a leaf; -1 when absent or on a group.
    pub fn get_scale(&self) -> i32 {
        match self {
            Self::PrimitiveType { scale, .. } => *scale,
            Self::GroupType { .. } => -1,
        }
    }

    /// Whether `sub_type` is a projection of this type: the same name and
    /// repetition (or both roots) and, for a leaf, the same physical type;
    /// for a group, every field of `sub_type` is contained in the field of
    /// the same name here.
    pub fn check_contains(&self, sub_type: &Type) -> bool {
        let same_node = self.name() == sub_type.name()
            && match (self.is_schema(), sub_type.is_schema()) {
                (true, true) => true,
                (false, false) => {
                    self.get_basic_info().repetition == sub_type.get_basic_info().repetition
                }
                _ => false,
            };
        if !same_node {
            return false;
        }
        match (self, sub_type) {
            (
                Self::PrimitiveType { physical_type, .. },
                Self::PrimitiveType {
                    physical_type: other,
                    ..
                },
            ) => physical_type == other,
            (Self::GroupType { fields, .. }, Self::GroupType { fields: wanted, .. }) => {
                wanted.iter().all(|w| {
                    // Of fields sharing a name, the last counts (as in
                    // arrow-rs).
                    fields
                        .iter()
                        .rev()
                        .find(|f| f.name() == w.name())
                        .is_some_and(|f| f.check_contains(w))
                })
            }
            _ => false,
        }
    }

    /// Whether this is a leaf.
    pub fn is_primitive(&self) -> bool {
        matches!(self, Self::PrimitiveType { .. })
    }

    /// Whether this is a group.
    pub fn is_group(&self) -> bool {
        matches!(self, Self::GroupType { .. })
    }

    /// Whether this is the schema's root: a group without repetition.
    pub fn is_schema(&self) -> bool {
        match self {
            Self::GroupType { basic_info, .. } => !basic_info.has_repetition(),
            Self::PrimitiveType { .. } => false,
        }
    }

    /// Whether the field may be absent: it has a repetition other than
    /// `REQUIRED`.
    pub fn is_optional(&self) -> bool {
        self.get_basic_info()
            .repetition
            .is_some_and(|r| r != Repetition::Required)
    }

    /// The footer's element for this node alone.
    fn to_element(&self) -> SchemaElement {
        let info = self.get_basic_info();
        let mut e = SchemaElement {
            name: info.name.clone(),
            repetition_type: info.repetition,
            converted_type: info.converted_type.to_option(),
            logical_type: info.logical_type.clone(),
            field_id: info.id,
            vector_length: info.vector_length,
            ..Default::default()
        };
        match self {
            Self::GroupType { fields, .. } => {
                e.num_children = Some(i32::try_from(fields.len()).unwrap_or(i32::MAX));
            }
            Self::PrimitiveType {
                physical_type,
                type_length,
                scale,
                precision,
                ..
            } => {
                e.physical_type = Some(*physical_type);
                e.type_length = present(*type_length);
                e.scale = present(*scale);
                e.precision = present(*precision);
            }
        }
        e
    }

    fn flatten_into(&self, out: &mut Vec<SchemaElement>) {
        out.push(self.to_element());
        for child in self.get_fields() {
            child.flatten_into(out);
        }
    }
}

/// `Some(v)` unless `v` is the -1 that stands for "absent".
fn present(v: i32) -> Option<i32> {
    (v != -1).then_some(v)
}

/// Builds a leaf [`Type`], checking its annotations against its physical
/// type as arrow-rs's builder does. Unset, the repetition is `OPTIONAL`.
#[derive(Debug, Clone)]
pub struct PrimitiveTypeBuilder<'a> {
    name: &'a str,
    repetition: Repetition,
    physical_type: PhysicalType,
    converted_type: ConvertedType,
    logical_type: Option<LogicalType>,
    length: i32,
    precision: i32,
    scale: i32,
    id: Option<i32>,
}

impl<'a> PrimitiveTypeBuilder<'a> {
    /// A builder for a leaf named `name` holding `physical_type` values.
    pub fn new(name: &'a str, physical_type: PhysicalType) -> Self {
        Self {
            name,
            repetition: Repetition::Optional,
            physical_type,
            converted_type: ConvertedType::None,
            logical_type: None,
            length: -1,
            precision: -1,
            scale: -1,
            id: None,
        }
    }

    /// Sets the repetition.
    pub fn with_repetition(self, repetition: Repetition) -> Self {
        Self { repetition, ..self }
    }

    /// Sets the legacy annotation.
    pub fn with_converted_type(self, converted_type: ConvertedType) -> Self {
        Self {
            converted_type,
            ..self
        }
    }

    /// Sets the logical type annotation.
    pub fn with_logical_type(self, logical_type: Option<LogicalType>) -> Self {
        Self {
            logical_type,
            ..self
        }
    }

    /// Sets the byte length of `FIXED_LEN_BYTE_ARRAY` values.
    pub fn with_length(self, length: i32) -> Self {
        Self { length, ..self }
    }

    /// Sets the decimal precision.
    pub fn with_precision(self, precision: i32) -> Self {
        Self { precision, ..self }
    }

    /// Sets the decimal scale.
    pub fn with_scale(self, scale: i32) -> Self {
        Self { scale, ..self }
    }

    /// Sets the field id.
    pub fn with_id(self, id: Option<i32>) -> Self {
        Self { id, ..self }
    }

    /// The leaf, or an error naming what does not fit: a
    /// `FIXED_LEN_BYTE_ARRAY` without a length, a logical type that
    /// disagrees with the converted type or cannot annotate the physical
    /// type, a decimal whose precision and scale the physical type cannot
    /// hold, ... When only a logical type is given, the converted type is
    /// derived from it.
    pub fn build(self) -> Result<Type> {
        let name = self.name;
        if self.physical_type == PhysicalType::FixedLenByteArray && self.length < 0 {
            return Err(general(format!(
                "Invalid FIXED_LEN_BYTE_ARRAY length: {} for field '{name}'",
                self.length
            )));
        }
        let mut converted_type = self.converted_type;
        if let Some(logical) = &self.logical_type {
            let implied = logical.converted_type();
            if converted_type == ConvertedType::None {
                converted_type = implied;
            } else if converted_type != implied {
                return Err(general(format!(
                    "Logical type {logical:?} is incompatible with converted type {converted_type} for field '{name}'"
                )));
            }
            self.check_logical(logical)?;
        }
        self.check_converted()?;
        let sort_order = leaf_sort_order(
            self.logical_type.as_ref(),
            converted_type,
            self.physical_type,
        );
        Ok(Type::PrimitiveType {
            basic_info: BasicTypeInfo {
                name: name.to_owned(),
                repetition: Some(self.repetition),
                converted_type,
                logical_type: self.logical_type,
                id: self.id,
                vector_length: None,
                sort_order,
            },
            physical_type: self.physical_type,
            type_length: self.length,
            scale: self.scale,
            precision: self.precision,
        })
    }

    /// Whether the logical type may annotate this leaf.
    fn check_logical(&self, logical: &LogicalType) -> Result<()> {
        use PhysicalType as P;
        let name = self.name;
        let fits = match (logical, self.physical_type) {
            (LogicalType::Map | LogicalType::List | LogicalType::Vector, _) => {
                return Err(general(format!(
                    "{logical:?} cannot be applied to a primitive type for field '{name}'"
                )));
            }
            (LogicalType::Decimal(d), _) => {
                if d.scale != self.scale {
                    return Err(general(format!(
                        "DECIMAL logical type scale {} must match self.scale {} for field '{name}'",
                        d.scale, self.scale
                    )));
                }
                if d.precision != self.precision {
                    return Err(general(format!(
                        "DECIMAL logical type precision {} must match self.precision {} for field '{name}'",
                        d.precision, self.precision
                    )));
                }
                self.check_decimal()?;
                true
            }
            (LogicalType::Time(t), P::Int32) => t.unit == TimeUnit::Millis,
            (LogicalType::Time(t), P::Int64) => {
                if t.unit == TimeUnit::Millis {
                    return Err(general(format!(
                        "Cannot use millisecond unit on INT64 type for field '{name}'"
                    )));
                }
                true
            }
            (LogicalType::Integer(i), P::Int32) => i.bit_width <= 32,
            (LogicalType::Integer(i), P::Int64) => i.bit_width == 64,
            (LogicalType::Uuid, P::FixedLenByteArray) => {
                if self.length != 16 {
                    return Err(general(format!(
                        "UUID cannot annotate field '{name}' because it is not a FIXED_LEN_BYTE_ARRAY(16) field"
                    )));
                }
                true
            }
            (LogicalType::Float16, P::FixedLenByteArray) => {
                if self.length != 2 {
                    return Err(general(format!(
                        "FLOAT16 cannot annotate field '{name}' because it is not a FIXED_LEN_BYTE_ARRAY(2) field"
                    )));
                }
                true
            }
            (LogicalType::Date, P::Int32)
            | (LogicalType::Timestamp(_), P::Int64)
            | (LogicalType::Unknown | LogicalType::_Unknown { .. }, _)
            | (
                LogicalType::Enum
                | LogicalType::String
                | LogicalType::Json
                | LogicalType::Bson
                | LogicalType::Geometry(_)
                | LogicalType::Geography(_),
                P::ByteArray,
            ) => true,
            _ => false,
        };
        if fits {
            Ok(())
        } else {
            Err(general(format!(
                "Cannot annotate {logical:?} from {} for field '{name}'",
                self.physical_type
            )))
        }
    }

    /// Whether the converted type may annotate this leaf.
    fn check_converted(&self) -> Result<()> {
        use ConvertedType as C;
        let name = self.name;
        let converted = self.converted_type;
        let needs = match converted {
            C::None => return Ok(()),
            C::Utf8 | C::Bson | C::Json | C::Enum => PhysicalType::ByteArray,
            C::Decimal => return self.check_decimal(),
            C::Date
            | C::TimeMillis
            | C::Uint8
            | C::Uint16
            | C::Uint32
            | C::Int8
            | C::Int16
            | C::Int32 => PhysicalType::Int32,
            C::TimeMicros | C::TimestampMillis | C::TimestampMicros | C::Uint64 | C::Int64 => {
                PhysicalType::Int64
            }
            C::Interval => {
                if self.physical_type != PhysicalType::FixedLenByteArray || self.length != 12 {
                    return Err(general(format!(
                        "INTERVAL cannot annotate field '{name}' because it is not a FIXED_LEN_BYTE_ARRAY(12) field"
                    )));
                }
                return Ok(());
            }
            C::Map | C::MapKeyValue | C::List | C::Unknown(_) => {
                return Err(general(format!(
                    "{converted} cannot be applied to primitive field '{name}'"
                )));
            }
        };
        if self.physical_type == needs {
            Ok(())
        } else {
            Err(general(format!(
                "{converted} cannot annotate field '{name}' because it is not a {needs} field"
            )))
        }
    }

    /// Whether the precision and scale are valid for a decimal stored in
    /// this physical type.
    fn check_decimal(&self) -> Result<()> {
        let (precision, scale) = (self.precision, self.scale);
        if !matches!(
            self.physical_type,
            PhysicalType::Int32
                | PhysicalType::Int64
                | PhysicalType::ByteArray
                | PhysicalType::FixedLenByteArray
        ) {
            return Err(general(
                "DECIMAL can only annotate INT32, INT64, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY"
                    .to_owned(),
            ));
        }
        if precision < 1 {
            return Err(general(format!("Invalid DECIMAL precision: {precision}")));
        }
        if scale < 0 {
            return Err(general(format!("Invalid DECIMAL scale: {scale}")));
        }
        if scale > precision {
            return Err(general(format!(
                "Invalid DECIMAL: scale ({scale}) cannot be greater than precision ({precision})"
            )));
        }
        match self.physical_type {
            PhysicalType::Int32 if precision > 9 => Err(general(format!(
                "Cannot represent INT32 as DECIMAL with precision {precision}"
            ))),
            PhysicalType::Int64 if precision > 18 => Err(general(format!(
                "Cannot represent INT64 as DECIMAL with precision {precision}"
            ))),
            PhysicalType::FixedLenByteArray => {
                let max = max_decimal_precision(self.length).ok_or_else(|| {
                    general(format!("Invalid length {} for Decimal", self.length))
                })?;
                if precision > max {
                    return Err(general(format!(
                        "Cannot represent FIXED_LEN_BYTE_ARRAY as DECIMAL with length {} and precision {precision}. The max precision can only be {max}",
                        self.length
                    )));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// The most decimal digits a signed two's-complement integer of `length`
/// bytes holds: floor(log10(2^(8·length − 1) − 1)). `None` when the bit
/// count overflows.
fn max_decimal_precision(length: i32) -> Option<i32> {
    let bits = length.checked_mul(8)?;
    // Computed in floating point, as arrow-rs does, so that lengths past
    // what an integer holds agree too.
    let digits = (2f64.powi(bits - 1) - 1f64).log10().floor();
    if digits.is_finite() {
        Some(digits as i32)
    } else if digits > 0.0 {
        Some(i32::MAX)
    } else {
        Some(i32::MIN)
    }
}

/// Builds a group [`Type`]. Unset, the repetition is absent, which makes
/// the group a schema root.
#[derive(Debug, Clone)]
pub struct GroupTypeBuilder<'a> {
    name: &'a str,
    repetition: Option<Repetition>,
    converted_type: ConvertedType,
    logical_type: Option<LogicalType>,
    fields: Vec<TypePtr>,
    id: Option<i32>,
}

impl<'a> GroupTypeBuilder<'a> {
    /// A builder for a group named `name`.
    pub fn new(name: &'a str) -> Self {
        Self {
            name,
            repetition: None,
            converted_type: ConvertedType::None,
            logical_type: None,
            fields: Vec::new(),
            id: None,
        }
    }

    /// Sets the repetition.
    pub fn with_repetition(mut self, repetition: Repetition) -> Self {
        self.repetition = Some(repetition);
        self
    }

    /// Sets the legacy annotation.
    pub fn with_converted_type(self, converted_type: ConvertedType) -> Self {
        Self {
            converted_type,
            ..self
        }
    }

    /// Sets the logical type annotation.
    pub fn with_logical_type(self, logical_type: Option<LogicalType>) -> Self {
        Self {
            logical_type,
            ..self
        }
    }

    /// Sets the fields.
    pub fn with_fields(self, fields: Vec<TypePtr>) -> Self {
        Self { fields, ..self }
    }

    /// Sets the field id.
    pub fn with_id(self, id: Option<i32>) -> Self {
        Self { id, ..self }
    }

    /// The group. When only a logical type is given, the converted type is
    /// derived from it.
    pub fn build(self) -> Result<Type> {
        let converted_type = match (&self.logical_type, self.converted_type) {
            (Some(logical), ConvertedType::None) => logical.converted_type(),
            (_, converted) => converted,
        };
        Ok(Type::GroupType {
            basic_info: BasicTypeInfo {
                name: self.name.to_owned(),
                repetition: self.repetition,
                converted_type,
                logical_type: self.logical_type,
                id: self.id,
                vector_length: None,
                sort_order: SortOrder::UNDEFINED,
            },
            fields: self.fields,
        })
    }
}

/// One leaf column: where it is in the tree and how to read its levels.
///
/// The leaf's own properties are both public fields (strata's form) and
/// arrow-rs's accessors; [`self_type`](Self::self_type) is the leaf's
/// [`Type`] node itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnDescriptor {
    /// Path from the root's child to the leaf.
    pub path: ColumnPath,
    /// Physical type.
    pub physical_type: PhysicalType,
    /// Byte length for `FIXED_LEN_BYTE_ARRAY`.
    pub type_length: Option<i32>,
    /// Logical type of the leaf.
    pub logical_type: Option<LogicalType>,
    /// Legacy type annotation of the leaf.
    pub converted_type: Option<ConvertedType>,
    /// Decimal precision.
    pub precision: Option<i32>,
    /// Decimal scale.
    pub scale: Option<i32>,
    /// Repetition of the leaf itself.
    pub repetition: FieldRepetitionType,
    /// Maximum definition level.
    pub max_def_level: i16,
    /// Maximum repetition level.
    pub max_rep_level: i16,
    /// Index of the root's child that contains this leaf.
    pub root_field_index: usize,
    /// The leaf node.
    primitive_type: TypePtr,
}

/// arrow-rs's accessors (`parquet::schema::types::ColumnDescriptor`),
/// beside the public fields they read. Where a field is absent, the
/// numbers are -1, as arrow-rs gives them.
///
/// ```
/// use strata_format::SchemaDescriptor;
/// use strata_format::metadata::{ConvertedType, FieldRepetitionType, SchemaElement, Type};
///
/// let schema = SchemaDescriptor::from_elements(&[
///     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
///     SchemaElement {
///         name: "price".into(),
///         physical_type: Some(Type::FixedLenByteArray),
///         type_length: Some(8),
///         repetition_type: Some(FieldRepetitionType::Optional),
///         ..Default::default()
///     },
/// ])
/// .unwrap();
/// let column = schema.column(0);
/// assert_eq!((column.name(), column.path().string()), ("price", "price".to_string()));
/// assert_eq!(column.physical_type(), Type::FIXED_LEN_BYTE_ARRAY);
/// assert_eq!(column.converted_type(), ConvertedType::NONE);
/// assert_eq!((column.type_length(), column.type_precision()), (8, -1));
/// assert_eq!((column.max_def_level(), column.max_rep_level()), (1, 0));
/// assert_eq!(column.sort_order(), strata_format::metadata::SortOrder::UNSIGNED);
/// assert!(column.self_type().is_primitive());
/// ```
impl ColumnDescriptor {
    /// A descriptor for the leaf `primitive_type` at `path` with the given
    /// maximum levels.
    ///
    /// # Panics
    ///
    /// When `primitive_type` is a group, as arrow-rs does.
    #[allow(clippy::panic)]
    pub fn new(
        primitive_type: TypePtr,
        max_def_level: i16,
        max_rep_level: i16,
        path: ColumnPath,
    ) -> Self {
        match Self::for_leaf(primitive_type, max_def_level, max_rep_level, path, 0) {
            Some(descr) => descr,
            None => panic!("Expected primitive type!"),
        }
    }

    /// The descriptor of the leaf `primitive_type`; `None` for a group.
    fn for_leaf(
        primitive_type: TypePtr,
        max_def_level: i16,
        max_rep_level: i16,
        path: ColumnPath,
        root_field_index: usize,
    ) -> Option<Self> {
        let Type::PrimitiveType {
            basic_info,
            physical_type,
            type_length,
            scale,
            precision,
        } = primitive_type.as_ref()
        else {
            return None;
        };
        Some(Self {
            path,
            physical_type: *physical_type,
            type_length: present(*type_length),
            logical_type: basic_info.logical_type.clone(),
            converted_type: basic_info.converted_type.to_option(),
            precision: present(*precision),
            scale: present(*scale),
            repetition: basic_info.repetition(),
            max_def_level,
            max_rep_level,
            root_field_index,
            primitive_type,
        })
    }

    /// The leaf's name (the path's last part).
    pub fn name(&self) -> &str {
        self.primitive_type.name()
    }

    /// The path from the root's child to the leaf.
    pub fn path(&self) -> &ColumnPath {
        &self.path
    }

    /// The leaf's node in the schema tree.
    pub fn self_type(&self) -> &Type {
        &self.primitive_type
    }

    /// The leaf's node, shared.
    pub fn self_type_ptr(&self) -> TypePtr {
        Arc::clone(&self.primitive_type)
    }

    /// The leaf's name, repetition, annotations and id.
    pub fn get_basic_info(&self) -> &BasicTypeInfo {
        self.primitive_type.get_basic_info()
    }

    /// The physical type.
    pub fn physical_type(&self) -> PhysicalType {
        self.physical_type
    }

    /// The legacy annotation, as [`BasicTypeInfo::converted_type`]
    /// reports it ([`ConvertedType::NONE`] when there is none).
    pub fn converted_type(&self) -> ConvertedType {
        self.primitive_type.get_basic_info().converted_type()
    }

    /// The logical type.
    pub fn logical_type_ref(&self) -> Option<&LogicalType> {
        self.logical_type.as_ref()
    }

    /// The byte length of a `FIXED_LEN_BYTE_ARRAY`, else -1.
    pub fn type_length(&self) -> i32 {
        self.type_length.unwrap_or(-1)
    }

    /// The decimal precision, else -1.
    pub fn type_precision(&self) -> i32 {
        self.precision.unwrap_or(-1)
    }

    /// The decimal scale, else -1.
    pub fn type_scale(&self) -> i32 {
        self.scale.unwrap_or(-1)
    }

    /// The maximum definition level.
    pub fn max_def_level(&self) -> i16 {
        self.max_def_level
    }

    /// The maximum repetition level.
    pub fn max_rep_level(&self) -> i16 {
        self.max_rep_level
    }

    /// The order the leaf's types define for its values, as a writer
    /// would name it ([`ColumnOrder::column_order_for_type`]): total order
    /// for floats, the INT96 timestamp order for INT96, else the logical,
    /// converted or physical type's.
    ///
    /// [`ColumnOrder::column_order_for_type`]: crate::metadata::ColumnOrder::column_order_for_type
    pub fn sort_order(&self) -> crate::metadata::SortOrder {
        crate::metadata::ColumnOrder::column_order_for_type(
            self.logical_type.as_ref(),
            self.converted_type(),
            self.physical_type,
        )
        .sort_order()
    }
}

/// A validated schema tree with its leaf columns.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SchemaDescriptor {
    schema: TypePtr,
    columns: Vec<ColumnDescPtr>,
    /// The repetition a footer gave the root element (some writers set
    /// one), kept for [`to_elements`](Self::to_elements); the root `Type`
    /// has none, as in arrow-rs.
    root_repetition: Option<Repetition>,
}

impl SchemaDescriptor {
    /// Build the tree from the footer's flattened schema.
    ///
    /// The elements are kept as they are (so that
    /// [`to_elements`](Self::to_elements) gives them back); a node with a
    /// logical type and no converted type still reports, as in arrow-rs,
    /// the converted type the logical type implies
    /// ([`BasicTypeInfo::converted_type`]).
    ///
    /// Errors: an empty list, a root that is not a group or is repeated, a
    /// child count that runs past the end, elements left over after the
    /// root's subtree, a leaf without a physical type, a group with a
    /// physical type, a non-root node without repetition, or nesting deeper
    /// than [`MAX_SCHEMA_DEPTH`].
    pub fn from_elements(elements: &[SchemaElement]) -> Result<Self> {
        Self::from_elements_with_paths(elements, &|_| None)
    }

    /// [`from_elements`](Self::from_elements), taking a leaf's path from
    /// `known_paths(leaf)` (shared, not copied) when that path has the
    /// leaf's parts.
    fn from_elements_with_paths<'p>(
        elements: &[SchemaElement],
        known_paths: KnownPaths<'_, 'p>,
    ) -> Result<Self> {
        let Some(first) = elements.first() else {
            return Err(schema_err("the schema has no elements".into()));
        };
        if first.num_children.is_none() {
            return Err(schema_err(format!(
                "the root element {:?} is not a group (num_children is not set)",
                first.name
            )));
        }
        if first.repetition_type == Some(FieldRepetitionType::Repeated) {
            return Err(schema_err(format!(
                "the root element {:?} is repeated",
                first.name
            )));
        }
        let mut pos = 0;
        let mut root = build_node(elements, &mut pos, 0)?;
        // The root is the schema: it has no repetition (as arrow-rs reads
        // it), whatever the writer put there; the element's is kept aside.
        let root_repetition = first.repetition_type;
        if root_repetition.is_some()
            && let Some(Type::GroupType { basic_info, .. }) = Arc::get_mut(&mut root)
        {
            basic_info.repetition = None;
        }
        if pos != elements.len() {
            return Err(schema_err(format!(
                "{} schema elements left over after the root's {} elements",
                elements.len() - pos,
                pos
            )));
        }
        // Every element but the root is at most one leaf: size the column
        // list once.
        let mut schema = Self::with_capacity(root, elements.len().saturating_sub(1), known_paths)?;
        schema.root_repetition = root_repetition;
        Ok(schema)
    }

    /// The schema of a decoded footer: [`from_elements`](Self::from_elements)
    /// of its schema elements, where each leaf whose path equals the
    /// `path_in_schema` of the first row group's chunk at the same position
    /// shares that path instead of allocating its own. A wide footer then
    /// holds each column's path once, not twice. Which paths are shared
    /// changes nothing a reader sees: only equal paths are.
    ///
    /// ```
    /// use strata_format::SchemaDescriptor;
    /// use strata_format::metadata::{
    ///     ColumnChunk, ColumnMetaData, CompressionCodec, EncodingSet, FieldRepetitionType,
    ///     FileMetaData, RowGroup, SchemaElement, Type,
    /// };
    ///
    /// let chunk = |path: &str| ColumnChunk {
    ///     meta_data: Some(ColumnMetaData {
    ///         physical_type: Type::Int64,
    ///         encodings: EncodingSet::new(),
    ///         path_in_schema: vec![path.to_string()].into(),
    ///         codec: CompressionCodec::Uncompressed,
    ///         num_values: 0,
    ///         total_uncompressed_size: 0,
    ///         total_compressed_size: 0,
    ///         data_page_offset: 4,
    ///         dictionary_page_offset: None,
    ///         statistics: None,
    ///         encoding_stats: None,
    ///         size_statistics: None,
    ///         extras: None,
    ///     }),
    ///     ..Default::default()
    /// };
    /// let leaf = |name: &str| SchemaElement {
    ///     name: name.into(),
    ///     physical_type: Some(Type::Int64),
    ///     repetition_type: Some(FieldRepetitionType::Required),
    ///     ..Default::default()
    /// };
    /// // The second chunk's path is not its leaf's: that leaf gets its own.
    /// let footer = FileMetaData {
    ///     schema: vec![
    ///         SchemaElement { name: "schema".into(), num_children: Some(2), ..Default::default() },
    ///         leaf("id"),
    ///         leaf("price"),
    ///     ],
    ///     row_groups: vec![RowGroup {
    ///         columns: vec![chunk("id"), chunk("cost")],
    ///         ..Default::default()
    ///     }],
    ///     ..Default::default()
    /// };
    /// let schema = SchemaDescriptor::from_file_metadata(&footer).unwrap();
    /// let chunk_path = |i: usize| {
    ///     footer.row_groups[0].columns[i].meta_data.as_ref().unwrap().path_in_schema.as_ptr()
    /// };
    /// assert_eq!(schema.column(0).path().string(), "id");
    /// assert_eq!(schema.column(0).path().as_ptr(), chunk_path(0));
    /// assert_eq!(schema.column(1).path().string(), "price");
    /// assert_ne!(schema.column(1).path().as_ptr(), chunk_path(1));
    /// ```
    pub fn from_file_metadata(footer: &FileMetaData) -> Result<Self> {
        let chunks = footer
            .row_groups
            .first()
            .map(|rg| rg.columns.as_slice())
            .unwrap_or_default();
        Self::from_elements_with_paths(&footer.schema, &|leaf| {
            chunks
                .get(leaf)?
                .meta_data
                .as_ref()
                .map(|m| &m.path_in_schema)
        })
    }

    /// The descriptor of a tree built in code, as arrow-rs's
    /// `SchemaDescriptor::new`.
    ///
    /// # Panics
    ///
    /// When the tree is not a valid schema (see [`try_new`](Self::try_new)
    /// for the error instead): arrow-rs panics on a root that is not a
    /// group.
    pub fn new(tp: TypePtr) -> Self {
        match Self::try_new(tp) {
            Ok(schema) => schema,
            #[allow(clippy::panic)]
            Err(e) => panic!("SchemaDescriptor should take a GroupType: {e}"),
        }
    }

    /// The descriptor of a tree built in code, validated as
    /// [`from_elements`](Self::from_elements) validates a footer's.
    pub fn try_new(tp: TypePtr) -> Result<Self> {
        Self::with_capacity(tp, 0, &|_| None)
    }

    /// [`try_new`](Self::try_new) with room for `leaves` columns reserved
    /// up front.
    fn with_capacity<'p>(
        root: TypePtr,
        leaves: usize,
        known_paths: KnownPaths<'_, 'p>,
    ) -> Result<Self> {
        if root.is_primitive() {
            return Err(schema_err(format!(
                "the root {:?} must be a group",
                root.name()
            )));
        }
        if root.get_basic_info().repetition == Some(FieldRepetitionType::Repeated) {
            return Err(schema_err(format!(
                "the root {:?} is repeated",
                root.name()
            )));
        }
        let mut columns = Vec::with_capacity(leaves);
        let mut path = Vec::new();
        let mut walk = LeafWalk {
            path: &mut path,
            out: &mut columns,
            known_paths,
        };
        for (i, child) in root.get_fields().iter().enumerate() {
            collect_leaves(child, i, 0, 0, 1, &mut walk)?;
        }
        Ok(Self {
            schema: root,
            columns,
            root_repetition: None,
        })
    }

    /// The root group.
    pub fn root_schema(&self) -> &Type {
        &self.schema
    }

    /// The root group, shared.
    pub fn root_schema_ptr(&self) -> TypePtr {
        Arc::clone(&self.schema)
    }

    /// The root's name.
    pub fn name(&self) -> &str {
        self.schema.name()
    }

    /// The leaf columns in file order, shared (each column chunk of a
    /// file's metadata points at its own).
    pub fn columns(&self) -> &[ColumnDescPtr] {
        &self.columns
    }

    /// Leaf column `i`, shared, as arrow-rs returns it.
    ///
    /// # Panics
    ///
    /// When `i` is out of range, as arrow-rs does; `columns().get(i)` is
    /// the checked form.
    pub fn column(&self, i: usize) -> ColumnDescPtr {
        Arc::clone(&self.columns[i])
    }

    /// Number of leaf columns.
    pub fn num_columns(&self) -> usize {
        self.columns.len()
    }

    /// The root's field that contains leaf `i`.
    ///
    /// # Panics
    ///
    /// When `i` is out of range.
    pub fn get_column_root(&self, i: usize) -> &Type {
        &self.schema.get_fields()[self.get_column_root_idx(i)]
    }

    /// The root's field that contains leaf `i`, shared.
    ///
    /// # Panics
    ///
    /// When `i` is out of range.
    pub fn get_column_root_ptr(&self, i: usize) -> TypePtr {
        Arc::clone(&self.schema.get_fields()[self.get_column_root_idx(i)])
    }

    /// The index, among the root's fields, of the one that contains leaf
    /// `leaf`.
    ///
    /// # Panics
    ///
    /// When `leaf` is out of range.
    pub fn get_column_root_idx(&self, leaf: usize) -> usize {
        self.columns[leaf].root_field_index
    }

    /// Flatten the tree back to footer form (depth-first).
    pub fn to_elements(&self) -> Vec<SchemaElement> {
        let mut out = Vec::new();
        self.schema.flatten_into(&mut out);
        if let (Some(root), Some(repetition)) = (out.first_mut(), self.root_repetition) {
            root.repetition_type = Some(repetition);
        }
        out
    }
}

fn schema_err(msg: String) -> FormatError {
    FormatError::Schema(msg)
}

/// An error of the builders and the parser, with arrow-rs's message.
pub(crate) fn general(msg: String) -> FormatError {
    FormatError::General(msg)
}

/// Build the node at `elements[*pos]` and its subtree, advancing `pos`.
fn build_node(elements: &[SchemaElement], pos: &mut usize, depth: usize) -> Result<TypePtr> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(FormatError::DepthLimit {
            limit: MAX_SCHEMA_DEPTH,
            offset: *pos,
        });
    }
    let index = *pos;
    let Some(e) = elements.get(index) else {
        return Err(schema_err(format!(
            "a group's children run past the end of the {} schema elements",
            elements.len()
        )));
    };
    *pos += 1;
    // Some writers put `num_children: 0` on leaves; a set physical type
    // decides that such an element is a leaf.
    let is_group = match (e.num_children, e.physical_type) {
        (Some(n), _) if n > 0 => true,
        (Some(_), Some(_)) => false,
        (Some(_), None) => true,
        (None, _) => false,
    };
    let converted_type = ConvertedType::from_option(e.converted_type);
    let sort_order = match e.physical_type {
        Some(physical) if !is_group => {
            leaf_sort_order(e.logical_type.as_ref(), converted_type, physical)
        }
        _ => SortOrder::UNDEFINED,
    };
    let basic_info = BasicTypeInfo {
        name: e.name.clone(),
        repetition: e.repetition_type,
        converted_type,
        logical_type: e.logical_type.clone(),
        id: e.field_id,
        vector_length: e.vector_length,
        sort_order,
    };
    let node = if is_group {
        if e.physical_type.is_some() {
            return Err(schema_err(format!(
                "group {:?} (element {index}) has a physical type",
                e.name
            )));
        }
        let n = e.num_children.unwrap_or(0);
        let n = usize::try_from(n).map_err(|_| {
            schema_err(format!(
                "group {:?} (element {index}) has a negative child count {n}",
                e.name
            ))
        })?;
        let remaining = elements.len() - *pos;
        if n > remaining {
            return Err(schema_err(format!(
                "group {:?} (element {index}) claims {n} children but only {remaining} elements follow",
                e.name
            )));
        }
        let mut fields = Vec::with_capacity(n);
        for _ in 0..n {
            fields.push(build_node(elements, pos, depth + 1)?);
        }
        Type::GroupType { basic_info, fields }
    } else {
        let Some(physical_type) = e.physical_type else {
            return Err(schema_err(format!(
                "leaf {:?} (element {index}) has no physical type",
                e.name
            )));
        };
        Type::PrimitiveType {
            basic_info,
            physical_type,
            type_length: e.type_length.unwrap_or(-1),
            scale: e.scale.unwrap_or(-1),
            precision: e.precision.unwrap_or(-1),
        }
    };
    Ok(Arc::new(node))
}

/// Walk `node` (a non-root node at `depth`), appending its leaves.
/// Where a leaf's path may already exist: given the leaf's index, a path
/// to share when its parts are the leaf's.
type KnownPaths<'f, 'p> = &'f dyn Fn(usize) -> Option<&'p ColumnPath>;

/// The state of [`collect_leaves`]' walk.
struct LeafWalk<'w, 'n, 'f, 'p> {
    /// The names from the root's child down to the node visited, borrowed;
    /// each leaf copies its path once, unless it shares a known one.
    path: &'w mut Vec<&'n str>,
    out: &'w mut Vec<ColumnDescPtr>,
    known_paths: KnownPaths<'f, 'p>,
}

impl LeafWalk<'_, '_, '_, '_> {
    /// The path of the leaf about to be pushed: the known one when its
    /// parts are those walked, else a new one.
    fn leaf_path(&self) -> ColumnPath {
        match (self.known_paths)(self.out.len()) {
            Some(known)
                if known.len() == self.path.len()
                    && known.iter().zip(self.path.iter()).all(|(k, p)| k == p) =>
            {
                known.clone()
            }
            _ => ColumnPath::from(
                self.path
                    .iter()
                    .map(|&part| part.to_owned())
                    .collect::<Arc<[String]>>(),
            ),
        }
    }
}

fn collect_leaves<'n>(
    node: &'n TypePtr,
    root_field_index: usize,
    def: i16,
    rep: i16,
    depth: usize,
    walk: &mut LeafWalk<'_, 'n, '_, '_>,
) -> Result<()> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(FormatError::DepthLimit {
            limit: MAX_SCHEMA_DEPTH,
            offset: depth,
        });
    }
    let Some(repetition) = node.get_basic_info().repetition else {
        return Err(schema_err(format!(
            "field {:?} has no repetition type",
            node.name()
        )));
    };
    let (def, rep) = match repetition {
        FieldRepetitionType::Required => (def, rep),
        FieldRepetitionType::Optional => (def + 1, rep),
        FieldRepetitionType::Repeated => (def + 1, rep + 1),
        FieldRepetitionType::Vector => {
            return Err(schema_err(format!(
                "field {:?} uses VECTOR repetition, which is not supported",
                node.name()
            )));
        }
    };
    walk.path.push(node.name());
    match node.as_ref() {
        Type::GroupType { fields, .. } => {
            for child in fields {
                collect_leaves(child, root_field_index, def, rep, depth + 1, walk)?;
            }
        }
        Type::PrimitiveType { .. } => {
            let path = walk.leaf_path();
            walk.out.extend(
                ColumnDescriptor::for_leaf(Arc::clone(node), def, rep, path, root_field_index)
                    .map(Arc::new),
            );
        }
    }
    walk.path.pop();
    Ok(())
}
