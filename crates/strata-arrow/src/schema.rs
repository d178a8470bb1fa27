//! Schema mapping between Arrow and Parquet, both ways.
//!
//! - **Parquet to Arrow** ([`parquet_to_arrow_schema`]): each leaf's type
//!   comes from its logical type (or legacy converted type) and physical
//!   type, as the Parquet LogicalTypes spec describes; groups become
//!   structs, `LIST` groups lists (with the spec's backward-compatibility
//!   rules for two-level lists and repeated fields without an annotation)
//!   and `MAP` groups maps. When the footer carries the Arrow schema the
//!   writer used (`ARROW:schema`, a base64 IPC schema message, as pyarrow
//!   and arrow-rs write it), its types are taken wherever the stored data
//!   can be read as them, so large types, views, dictionaries, time zones
//!   and the like round-trip exactly. Time and timestamp units are the
//!   exception: an annotated column keeps its stored unit, as arrow-rs
//!   and pyarrow read it (see `embedded_hint` for when the schema's unit is
//!   taken).
//! - **Arrow to Parquet** ([`arrow_to_parquet_schema`]): the inverse, as
//!   arrow-rs and pyarrow write it (three-level lists named
//!   `list`/`element`, maps as `key_value` with `key` and `value`, decimals
//!   as INT32/INT64/FIXED_LEN_BYTE_ARRAY by precision).
//!
//! Both directions produce a [`ParquetField`] tree: the Arrow type of
//! every field together with its definition and repetition levels and,
//! for leaves, the Parquet column it reads or writes. The reader builds
//! arrays from it and the writer computes levels from it, so the two
//! always agree.

use std::sync::Arc;

use arrow_schema::{
    DataType, Field, FieldRef, Fields, IntervalUnit, Metadata, Schema, TimeUnit as ArrowTimeUnit,
};
use base64::Engine;
use strata_format::metadata::{
    ConvertedType, DecimalType, FieldRepetitionType as Repetition, IntType, KeyValue, LogicalType,
    TimeType, TimeUnit, TimestampType, Type,
};
use strata_format::schema::{BasicTypeInfo, ColumnDescPtr, Type as SchemaType, TypePtr};
use strata_format::{ColumnDescriptor, SchemaDescriptor};

use crate::error::{Result, schema_err};

/// The footer key under which the Arrow schema is stored.
pub const ARROW_SCHEMA_META_KEY: &str = "ARROW:schema";

/// The Arrow metadata key that carries a Parquet field id.
pub const PARQUET_FIELD_ID_META_KEY: &str = "PARQUET:field_id";

/// A field of the Arrow schema matched with the Parquet schema: its Arrow
/// type and levels, and where its values live.
#[derive(Debug, Clone)]
pub(crate) struct ParquetField {
    /// Definition level at which this field is present (not null).
    pub def_level: i16,
    /// Repetition level of this field (repeated ancestors, not itself).
    pub rep_level: i16,
    /// Whether the field can be null.
    pub nullable: bool,
    /// The Arrow type produced or consumed.
    pub arrow_type: DataType,
    /// Leaf, struct or list.
    pub kind: FieldKind,
}

/// The shape of a [`ParquetField`].
#[derive(Debug, Clone)]
pub(crate) enum FieldKind {
    /// A Parquet leaf column (index among the schema's leaves).
    Leaf {
        /// Index of the column among the schema's leaves.
        column: usize,
    },
    /// A group read as an Arrow struct.
    Struct {
        /// The (projected) children.
        children: Vec<ParquetField>,
    },
    /// A repeated field: Arrow list, large list, fixed-size list or map.
    /// Elements are present at `def_level + 1` and repeat at
    /// `rep_level + 1`.
    List {
        /// The element (for maps, the `entries` struct).
        element: Box<ParquetField>,
    },
}

impl ParquetField {
    /// Leaf columns under this field, in schema order.
    pub(crate) fn leaves(&self, out: &mut Vec<usize>) {
        match &self.kind {
            FieldKind::Leaf { column } => out.push(*column),
            FieldKind::Struct { children } => children.iter().for_each(|c| c.leaves(out)),
            FieldKind::List { element } => element.leaves(out),
        }
    }
}

/// The Arrow schema of a Parquet file: its leaves' types from the Parquet
/// schema, refined by the embedded `ARROW:schema` when the key-value
/// metadata holds one.
///
/// Time and timestamp columns keep the unit their annotation states, as
/// arrow-rs and pyarrow read them. The Arrow reader also recognises
/// strata's own files by their `created_by` and reads their second-unit
/// columns (stored as milliseconds) in seconds; this function, given only
/// the key-value metadata, cannot, and gives milliseconds.
///
/// ```
/// use strata_arrow::parquet_to_arrow_schema;
/// use strata_format::metadata::{FieldRepetitionType, LogicalType, SchemaElement, Type};
/// use strata_format::SchemaDescriptor;
///
/// let descr = SchemaDescriptor::from_elements(&[
///     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
///     SchemaElement {
///         name: "name".into(),
///         physical_type: Some(Type::ByteArray),
///         repetition_type: Some(FieldRepetitionType::Optional),
///         logical_type: Some(LogicalType::String),
///         ..Default::default()
///     },
/// ])
/// .unwrap();
/// let schema = parquet_to_arrow_schema(&descr, None).unwrap();
/// assert_eq!(schema.field(0).data_type(), &arrow_schema::DataType::Utf8);
/// assert!(schema.field(0).is_nullable());
/// ```
#[allow(clippy::ptr_arg)] // arrow-rs's signature, so callers pass `key_value_metadata()`
pub fn parquet_to_arrow_schema(
    schema: &SchemaDescriptor,
    key_value_metadata: Option<&Vec<KeyValue>>,
) -> Result<Schema> {
    let key_value_metadata = key_value_metadata.map(Vec::as_slice);
    let hint = key_value_metadata.and_then(embedded_arrow_schema);
    let hint = hint
        .as_ref()
        .map(|h| (h, HintRule::Embedded { own_seconds: false }));
    let (schema, _) = build_arrow_schema(schema, None, hint, key_value_metadata)?;
    Ok(schema)
}

/// The leaf of `parquet_schema` that the top-level field `name` of
/// `arrow_schema` reads from, with the field (arrow-rs's
/// `parquet::arrow::parquet_column`): the first leaf under the Parquet
/// root field at the Arrow field's position. `None` when `arrow_schema`
/// has no such field, the field is nested (a list, struct or map spans
/// leaves this cannot pick), or the Parquet schema has no root there.
///
/// ```
/// use arrow_schema::{DataType, Field, Schema};
/// use strata_arrow::{arrow_to_parquet_schema, parquet_column};
///
/// let schema = Schema::new(vec![
///     Field::new("a", DataType::Int32, false),
///     Field::new_list("b", Field::new_list_field(DataType::Int32, true), true),
///     Field::new("c", DataType::Utf8, true),
/// ]);
/// let parquet = arrow_to_parquet_schema(&schema).unwrap();
/// assert_eq!(parquet_column(&parquet, &schema, "c").map(|(i, _)| i), Some(2));
/// assert!(parquet_column(&parquet, &schema, "b").is_none());
/// assert!(parquet_column(&parquet, &schema, "z").is_none());
/// ```
pub fn parquet_column<'a>(
    parquet_schema: &SchemaDescriptor,
    arrow_schema: &'a Schema,
    name: &str,
) -> Option<(usize, &'a FieldRef)> {
    let (root, field) = arrow_schema.fields.find(name)?;
    if field.data_type().is_nested() {
        return None;
    }
    let leaf = parquet_schema
        .columns()
        .iter()
        .position(|c| c.root_field_index == root)?;
    Some((leaf, field))
}

/// How the types of an Arrow schema given beside the Parquet schema are
/// applied to its leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HintRule {
    /// Every type a leaf can be read as is taken: the schema a writer was
    /// given, or one a reader's caller supplied.
    Exact,
    /// The `ARROW:schema` stored in the footer, taken as arrow-rs takes
    /// it: a time or timestamp keeps the unit its Parquet annotation
    /// states (the writer may have coerced it) unless the column has no
    /// such annotation or is INT96; see [`embedded_hint`].
    Embedded {
        /// The file is strata's own (its `created_by` is strata's
        /// default), which stores a second-unit time or timestamp as
        /// milliseconds, so the schema's second unit is taken over a
        /// millisecond annotation.
        own_seconds: bool,
    },
}

/// The prefix of the `created_by` strata writes by default
/// (`strata_file::properties::DEFAULT_CREATED_BY`).
const STRATA_CREATED_BY: &str = "strata version ";

/// Whether a file's `created_by` says strata wrote it with its default
/// `created_by`.
pub(crate) fn written_by_strata(created_by: Option<&str>) -> bool {
    created_by.is_some_and(|c| c.starts_with(STRATA_CREATED_BY))
}

/// The type a leaf `d` reads as when the footer's `ARROW:schema` says
/// `hint` and the Parquet types alone say `derived`; `None` keeps
/// `derived`. The caller has checked that `d` can be read as `hint`.
///
/// Times, timestamps, dates and durations follow arrow-rs 60.1, which
/// reads what the Parquet annotation states and takes the schema's unit
/// only where the annotation cannot state it: a bare INT32/INT64 (how
/// arrow-rs stores seconds, `Date64` and durations) or an INT96
/// timestamp. So a column a writer coerced to another unit
/// (`coerce_timestamps`, format 1.0, pyarrow's seconds) reads in its
/// stored unit, as pyarrow and arrow-rs read it. Two choices of strata's
/// own: a timestamp takes the schema's time zone whatever the units (the
/// instants are the same; pyarrow does so, arrow-rs only when the units
/// match), and in strata's own files (`own_seconds`) a second unit is
/// taken over a millisecond annotation, since strata stores seconds so.
fn embedded_hint(
    d: &ColumnDescriptor,
    derived: &DataType,
    hint: &DataType,
    own_seconds: bool,
) -> Option<DataType> {
    use ArrowTimeUnit as U;
    use DataType as D;
    let seconds_as_millis =
        |stored: &U, wanted: &U| own_seconds && *stored == U::Millisecond && *wanted == U::Second;
    match (derived, hint) {
        (_, D::Dictionary(_, value)) => {
            // The value type follows the same rule; when it does not take
            // the schema's, neither does the dictionary.
            match embedded_hint(d, derived, value, own_seconds) {
                Some(v) if v == **value => Some(hint.clone()),
                other => other,
            }
        }
        (D::Int64, D::Timestamp(..) | D::Time64(_) | D::Date64 | D::Duration(_))
        | (D::Int32, D::Time32(_))
        | (D::Date32, D::Date64) => Some(hint.clone()),
        (D::Timestamp(..), D::Timestamp(..)) if d.physical_type == Type::Int96 => {
            Some(hint.clone())
        }
        (D::Timestamp(stored, stored_tz), D::Timestamp(wanted, tz)) => {
            let unit = if stored == wanted || seconds_as_millis(stored, wanted) {
                *wanted
            } else {
                *stored
            };
            Some(D::Timestamp(unit, tz.clone().or_else(|| stored_tz.clone())))
        }
        (D::Time32(stored), D::Time32(wanted)) if seconds_as_millis(stored, wanted) => {
            Some(hint.clone())
        }
        (_, D::Timestamp(..) | D::Time32(_) | D::Time64(_) | D::Date64 | D::Duration(_)) => {
            (derived == hint).then(|| hint.clone())
        }
        _ => Some(hint.clone()),
    }
}

/// The Arrow schema stored under `ARROW:schema`, if the metadata holds a
/// readable one (an unreadable one is ignored, as other readers do).
pub(crate) fn embedded_arrow_schema(kv: &[KeyValue]) -> Option<Schema> {
    let value = kv
        .iter()
        .find(|kv| kv.key == ARROW_SCHEMA_META_KEY)?
        .value
        .as_deref()?;
    decode_arrow_schema(value).ok()
}

/// Decode a base64 `ARROW:schema` value.
pub(crate) fn decode_arrow_schema(value: &str) -> Result<Schema> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(value.trim())
        .map_err(|e| schema_err(format!("ARROW:schema is not base64: {e}")))?;
    // The IPC encapsulation: an optional 0xFFFFFFFF continuation marker and
    // a 4-byte length before the flatbuffer message.
    let message = if bytes.len() >= 8 && bytes[..4] == [0xFF; 4] {
        &bytes[8..]
    } else if bytes.len() >= 4 {
        &bytes[4..]
    } else {
        return Err(schema_err("ARROW:schema too short"));
    };
    let message = arrow_ipc::root_as_message(message)
        .map_err(|e| schema_err(format!("ARROW:schema is not an IPC message: {e}")))?;
    let schema = message
        .header_as_schema()
        .ok_or_else(|| schema_err("ARROW:schema message is not a schema"))?;
    Ok(arrow_ipc::convert::try_fb_to_schema(schema)?)
}

/// Encode an Arrow schema as an `ARROW:schema` value: an IPC schema message
/// with its continuation marker and length, base64.
pub(crate) fn encode_arrow_schema(schema: &Schema) -> String {
    let options = arrow_ipc::writer::IpcWriteOptions::default();
    let mut tracker = arrow_ipc::writer::DictionaryTracker::new(true);
    let encoded = arrow_ipc::writer::IpcDataGenerator::default()
        .schema_to_bytes_with_dictionary_tracker(schema, &mut tracker, &options);
    let message = encoded.ipc_message;
    let mut framed = Vec::with_capacity(message.len() + 8);
    framed.extend_from_slice(&[0xFF; 4]);
    framed.extend_from_slice(
        &u32::try_from(message.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    framed.extend_from_slice(&message);
    base64::engine::general_purpose::STANDARD.encode(framed)
}

/// The field of an embedded Arrow schema's struct (or root) that hints the
/// Parquet child `name` at position `index`: the field at the same position
/// when its name matches, as it does in every file written from that
/// schema, else the first field of that name. Looking up by position first
/// keeps a wide schema's mapping linear in its width.
fn hint_field<'a>(fields: &'a Fields, index: usize, name: &str) -> Option<&'a FieldRef> {
    match fields.get(index) {
        Some(f) if f.name() == name => Some(f),
        _ => fields.iter().find(|f| f.name() == name),
    }
}

/// Build the Arrow schema and field tree of `schema`, keeping only the
/// leaves in `mask` (all when `None`).
pub(crate) fn build_arrow_schema(
    schema: &SchemaDescriptor,
    mask: Option<&[bool]>,
    hint: Option<(&Schema, HintRule)>,
    key_value_metadata: Option<&[KeyValue]>,
) -> Result<(Schema, Vec<ParquetField>)> {
    let (hint, rule) = match hint {
        Some((h, rule)) => (Some(h), rule),
        None => (None, HintRule::Exact),
    };
    let mut builder = Builder {
        mask,
        next_leaf: 0,
        columns: schema.columns(),
        rule,
    };
    let mut fields = Vec::new();
    let mut tree = Vec::new();
    for (i, child) in schema.root_schema().get_fields().iter().enumerate() {
        let hint_field = hint.and_then(|h| hint_field(h.fields(), i, child.name()));
        if let Some((field, pf)) = builder.node(child, 0, 0, hint_field)? {
            fields.push(field);
            tree.push(pf);
        }
    }
    // The schema's metadata, as arrow-rs builds it: the footer's key-value
    // pairs that have a value (the Arrow schema's own key left out), then
    // the embedded Arrow schema's metadata under keys the footer lacks. A
    // schema the caller supplied keeps its own metadata alone.
    let supplied = hint.filter(|_| matches!(rule, HintRule::Exact));
    let mut metadata = match supplied {
        Some(h) => h.metadata().clone(),
        None => Metadata::default(),
    };
    if supplied.is_none() {
        for kv in key_value_metadata.unwrap_or_default() {
            if kv.key != ARROW_SCHEMA_META_KEY
                && let Some(v) = &kv.value
            {
                metadata.insert(kv.key.as_str(), v.as_str());
            }
        }
        for (k, v) in hint
            .map(Schema::metadata)
            .into_iter()
            .flat_map(Metadata::iter)
        {
            if !metadata.contains_key(k) {
                metadata.insert(k.as_str(), v.as_str());
            }
        }
    }
    Ok((Schema::new_with_metadata(fields, metadata), tree))
}

struct Builder<'a> {
    mask: Option<&'a [bool]>,
    next_leaf: usize,
    columns: &'a [ColumnDescPtr],
    rule: HintRule,
}

fn is_list(node: &SchemaType) -> bool {
    matches!(
        node.get_basic_info().logical_type_ref(),
        Some(LogicalType::List)
    ) || matches!(
        node.get_basic_info().stored_converted_type().to_option(),
        Some(ConvertedType::List)
    )
}

fn is_map(node: &SchemaType) -> bool {
    matches!(
        node.get_basic_info().logical_type_ref(),
        Some(LogicalType::Map)
    ) || matches!(
        node.get_basic_info().stored_converted_type().to_option(),
        Some(ConvertedType::Map | ConvertedType::MapKeyValue)
    )
}

fn field_metadata(node: &SchemaType, hint: Option<&FieldRef>) -> Metadata {
    let mut md = hint.map(|h| h.metadata().clone()).unwrap_or_default();
    if !md.contains_key(arrow_schema::extension::EXTENSION_TYPE_NAME_KEY) {
        let logical = node.get_basic_info().logical_type_ref();
        let extension = if node.is_primitive() {
            crate::geoarrow::extension_metadata(logical)
        } else {
            crate::variant::extension_metadata(logical)
        };
        md.extend(extension.into_iter().flatten());
    }
    if let Some(id) = node.get_basic_info().id_opt() {
        md.insert(PARQUET_FIELD_ID_META_KEY, id.to_string());
    }
    md
}

impl Builder<'_> {
    /// Map `node`, whose parent is present at definition level `def` and
    /// repetition level `rep`.
    fn node(
        &mut self,
        node: &SchemaType,
        def: i16,
        rep: i16,
        hint: Option<&FieldRef>,
    ) -> Result<Option<(FieldRef, ParquetField)>> {
        match node.get_basic_info().repetition_opt() {
            Some(Repetition::Repeated) => {
                // A repeated field outside a LIST or MAP annotation is a
                // list of required elements.
                let Some((elem, pf)) =
                    self.typed_node(node, def + 1, rep + 1, false, hint_element(hint))?
                else {
                    return Ok(None);
                };
                let elem = if elem.is_nullable() {
                    Arc::new(elem.as_ref().clone().with_nullable(false))
                } else {
                    elem
                };
                let dt = list_type(hint, elem);
                Ok(repeated_field(node, hint, dt, def, rep, false, pf))
            }
            Some(Repetition::Optional) => self.typed_node(node, def + 1, rep, true, hint),
            _ => self.typed_node(node, def, rep, false, hint),
        }
    }

    /// Map `node` as a field present at `def`/`rep`.
    fn typed_node(
        &mut self,
        node: &SchemaType,
        def: i16,
        rep: i16,
        nullable: bool,
        hint: Option<&FieldRef>,
    ) -> Result<Option<(FieldRef, ParquetField)>> {
        let make =
            |dt: DataType, kind: FieldKind| field_of(node, hint, dt, def, rep, nullable, kind);
        match node {
            SchemaType::PrimitiveType { .. } => {
                let column = self.next_leaf;
                self.next_leaf += 1;
                if self
                    .mask
                    .is_some_and(|m| !m.get(column).copied().unwrap_or(false))
                {
                    return Ok(None);
                }
                let descr = self
                    .columns
                    .get(column)
                    .ok_or_else(|| schema_err("schema tree and columns disagree"))?;
                let derived = leaf_type(descr)?;
                let dt = match (hint, self.rule) {
                    (Some(h), _) if !leaf_accepts(descr, h.data_type()) => derived,
                    (Some(h), HintRule::Exact) => h.data_type().clone(),
                    (Some(h), HintRule::Embedded { own_seconds }) => {
                        embedded_hint(descr, &derived, h.data_type(), own_seconds)
                            .unwrap_or(derived)
                    }
                    (None, _) => derived,
                };
                Ok(make(dt, FieldKind::Leaf { column }))
            }
            SchemaType::GroupType {
                fields: children, ..
            } => {
                if is_list(node) && children.len() == 1 {
                    return self.list(node, &children[0], def, rep, nullable, hint);
                }
                if is_map(node) && children.len() == 1 {
                    return self.map(node, &children[0], def, rep, nullable, hint);
                }
                let hint_fields = match hint.map(|h| h.data_type()) {
                    Some(DataType::Struct(f)) => Some(f.clone()),
                    _ => None,
                };
                let mut fields = Vec::new();
                let mut kids = Vec::new();
                for (i, child) in children.iter().enumerate() {
                    let h = hint_fields
                        .as_ref()
                        .and_then(|f| hint_field(f, i, child.name()));
                    if let Some((f, pf)) = self.node(child, def, rep, h)? {
                        fields.push(f);
                        kids.push(pf);
                    }
                }
                if kids.is_empty() {
                    return Ok(None);
                }
                Ok(make(
                    DataType::Struct(Fields::from(fields)),
                    FieldKind::Struct { children: kids },
                ))
            }
        }
    }

    fn list(
        &mut self,
        node: &SchemaType,
        repeated: &SchemaType,
        def: i16,
        rep: i16,
        nullable: bool,
        hint: Option<&FieldRef>,
    ) -> Result<Option<(FieldRef, ParquetField)>> {
        if repeated.get_basic_info().repetition_opt() != Some(Repetition::Repeated) {
            return Err(schema_err(format!(
                "LIST group {} has a child that is not repeated",
                node.name()
            )));
        }
        let elem_hint = hint_element(hint);
        // The backward-compatibility rules: the repeated field is itself
        // the element when it is a primitive, a group of several fields, or
        // a group named `array` or `<list>_tuple`.
        let repeated_is_element = match repeated {
            SchemaType::PrimitiveType { .. } => true,
            SchemaType::GroupType {
                fields: children, ..
            } => {
                children.len() != 1
                    || repeated.name() == "array"
                    || repeated.name() == format!("{}_tuple", node.name())
            }
        };
        let element = if repeated_is_element {
            self.typed_node(repeated, def + 1, rep + 1, false, elem_hint)?
        } else {
            self.node(&repeated.get_fields()[0], def + 1, rep + 1, elem_hint)?
        };
        let Some((elem, pf)) = element else {
            return Ok(None);
        };
        let dt = list_type(hint, elem);
        Ok(repeated_field(node, hint, dt, def, rep, nullable, pf))
    }

    fn map(
        &mut self,
        node: &SchemaType,
        key_value: &SchemaType,
        def: i16,
        rep: i16,
        nullable: bool,
        hint: Option<&FieldRef>,
    ) -> Result<Option<(FieldRef, ParquetField)>> {
        let (entries_hint, sorted) = match hint.map(|h| h.data_type()) {
            Some(DataType::Map(f, sorted)) => (Some(f.as_ref()), *sorted),
            _ => (None, false),
        };
        if key_value.get_basic_info().repetition_opt() != Some(Repetition::Repeated)
            || key_value.is_primitive()
            || key_value.get_fields().is_empty()
            || key_value.get_fields().len() > 2
        {
            return Err(schema_err(format!(
                "MAP group {} is not a repeated group of key and value",
                node.name()
            )));
        }
        if let [key] = key_value.get_fields() {
            // A map without values reads as the list of its keys (as
            // pyarrow and arrow-rs read it).
            let Some((elem, pf)) = self.node(key, def + 1, rep + 1, hint_element(hint))? else {
                return Ok(None);
            };
            let dt = list_type(hint, elem);
            return Ok(repeated_field(node, hint, dt, def, rep, nullable, pf));
        }
        // The hint's key and value fields may have other names than the
        // file's (`keys`/`values`): match them by position.
        let hint_names: Option<(String, String)> = match entries_hint.map(|h| h.data_type()) {
            Some(DataType::Struct(f)) if f.len() == 2 => {
                Some((f[0].name().clone(), f[1].name().clone()))
            }
            _ => None,
        };
        let renamed_hint = match (entries_hint, key_value.get_fields()) {
            (Some(h), [k, v]) => match h.data_type() {
                DataType::Struct(f) if f.len() == 2 => Some(Arc::new(Field::new(
                    h.name(),
                    DataType::Struct(Fields::from(vec![
                        f[0].as_ref().clone().with_name(k.name()),
                        f[1].as_ref().clone().with_name(v.name()),
                    ])),
                    false,
                ))),
                _ => None,
            },
            _ => None,
        };
        let Some((entries, mut pf)) =
            self.typed_node(key_value, def + 1, rep + 1, false, renamed_hint.as_ref())?
        else {
            return Ok(None);
        };
        let FieldKind::Struct { children } = &pf.kind else {
            return Err(schema_err("map entries are not a group"));
        };
        // A map needs both its key and its value; a projection that keeps
        // only one reads the entries as a list of structs.
        let dt = if children.len() == 2 {
            let entries_name = entries_hint.map_or("key_value", |h| h.name().as_str());
            let DataType::Struct(fields) = entries.data_type() else {
                return Err(schema_err("map entries are not a struct"));
            };
            let mut key = fields[0].as_ref().clone().with_nullable(false);
            let mut value = fields[1].as_ref().clone();
            if let Some((k, v)) = &hint_names {
                key = key.with_name(k);
                value = value.with_name(v);
            }
            let fields = Fields::from(vec![Arc::new(key), Arc::new(value)]);
            DataType::Map(
                Arc::new(Field::new(entries_name, DataType::Struct(fields), false)),
                sorted,
            )
        } else {
            DataType::List(entries)
        };
        pf.arrow_type = match &dt {
            DataType::Map(f, _) => f.data_type().clone(),
            _ => pf.arrow_type,
        };
        Ok(repeated_field(node, hint, dt, def, rep, nullable, pf))
    }
}

/// A list or map field of `element`, present at `def`/`rep`.
fn repeated_field(
    node: &SchemaType,
    hint: Option<&FieldRef>,
    dt: DataType,
    def: i16,
    rep: i16,
    nullable: bool,
    element: ParquetField,
) -> Option<(FieldRef, ParquetField)> {
    let kind = FieldKind::List {
        element: Box::new(element),
    };
    field_of(node, hint, dt, def, rep, nullable, kind)
}

/// The Arrow field of `node` and its tree node, present at `def`/`rep`.
///
/// When the hint is the very field this builds (the common case: a file
/// written from an Arrow schema, read back), the hint's field is shared
/// instead of built again: a wide schema then holds each field once.
fn field_of(
    node: &SchemaType,
    hint: Option<&FieldRef>,
    dt: DataType,
    def: i16,
    rep: i16,
    nullable: bool,
    kind: FieldKind,
) -> Option<(FieldRef, ParquetField)> {
    let metadata = field_metadata(node, hint);
    let field = match hint {
        Some(h)
            if h.name() == node.name()
                && h.is_nullable() == nullable
                && *h.data_type() == dt
                && *h.metadata() == metadata
                // Field equality ignores a dictionary's id and ordering,
                // which the hint's may carry and a built field would not:
                // dictionaries, and nested fields that may hold them, are
                // built anew.
                && !dt.is_nested()
                && !matches!(dt, DataType::Dictionary(..)) =>
        {
            Arc::clone(h)
        }
        _ => Arc::new(Field::new(node.name(), dt.clone(), nullable).with_metadata(metadata)),
    };
    Some((
        field,
        ParquetField {
            def_level: def,
            rep_level: rep,
            nullable,
            arrow_type: dt,
            kind,
        },
    ))
}

/// The element field a list hint holds.
fn hint_element(hint: Option<&FieldRef>) -> Option<&FieldRef> {
    match hint.map(|h| h.data_type()) {
        Some(
            DataType::List(f)
            | DataType::LargeList(f)
            | DataType::FixedSizeList(f, _)
            | DataType::ListView(f)
            | DataType::LargeListView(f),
        ) => Some(f),
        _ => None,
    }
}

/// The list type for `elem`: the hint's kind of list if it has one.
fn list_type(hint: Option<&FieldRef>, elem: Arc<Field>) -> DataType {
    let elem = match hint_element(hint) {
        Some(h) if h.name() != elem.name() => Arc::new(elem.as_ref().clone().with_name(h.name())),
        _ => elem,
    };
    match hint.map(|h| h.data_type()) {
        Some(DataType::LargeList(_)) => DataType::LargeList(elem),
        Some(DataType::FixedSizeList(_, n)) => DataType::FixedSizeList(elem, *n),
        _ => DataType::List(elem),
    }
}

fn time_unit(unit: &TimeUnit) -> Option<ArrowTimeUnit> {
    match unit {
        TimeUnit::Millis => Some(ArrowTimeUnit::Millisecond),
        TimeUnit::Micros => Some(ArrowTimeUnit::Microsecond),
        TimeUnit::Nanos => Some(ArrowTimeUnit::Nanosecond),
        TimeUnit::Unknown(_) => None,
    }
}

/// The Arrow decimal type for a precision and scale stored in `physical`.
fn decimal_type(precision: i32, scale: i32) -> Result<DataType> {
    let p = u8::try_from(precision)
        .ok()
        .filter(|p| (1..=76).contains(p))
        .ok_or_else(|| schema_err(format!("decimal precision {precision} out of range")))?;
    let s = i8::try_from(scale).map_err(|_| schema_err(format!("decimal scale {scale}")))?;
    Ok(if p <= 38 {
        DataType::Decimal128(p, s)
    } else {
        DataType::Decimal256(p, s)
    })
}

/// The Arrow type a leaf reads as without a hint.
pub(crate) fn leaf_type(d: &ColumnDescriptor) -> Result<DataType> {
    let lt = d.logical_type.as_ref();
    let ct = d.converted_type;
    let dt = match d.physical_type {
        Type::Boolean => DataType::Boolean,
        Type::Int32 => match (lt, ct) {
            (
                Some(LogicalType::Integer(IntType {
                    bit_width,
                    is_signed,
                })),
                _,
            ) => match (bit_width, is_signed) {
                (8, true) => DataType::Int8,
                (16, true) => DataType::Int16,
                (8, false) => DataType::UInt8,
                (16, false) => DataType::UInt16,
                (32, false) => DataType::UInt32,
                _ => DataType::Int32,
            },
            (Some(LogicalType::Decimal(DecimalType { scale, precision })), _) => {
                decimal_type(*precision, *scale)?
            }
            (Some(LogicalType::Date), _) => DataType::Date32,
            (Some(LogicalType::Time(TimeType { unit, .. })), _) => match unit {
                TimeUnit::Millis => DataType::Time32(ArrowTimeUnit::Millisecond),
                _ => {
                    return Err(schema_err(format!(
                        "INT32 column {} with TIME({unit:?})",
                        d.path
                    )));
                }
            },
            (Some(LogicalType::Unknown), _) => DataType::Null,
            (None, Some(ConvertedType::Uint8)) => DataType::UInt8,
            (None, Some(ConvertedType::Uint16)) => DataType::UInt16,
            (None, Some(ConvertedType::Uint32)) => DataType::UInt32,
            (None, Some(ConvertedType::Int8)) => DataType::Int8,
            (None, Some(ConvertedType::Int16)) => DataType::Int16,
            (None, Some(ConvertedType::Date)) => DataType::Date32,
            (None, Some(ConvertedType::TimeMillis)) => DataType::Time32(ArrowTimeUnit::Millisecond),
            (None, Some(ConvertedType::Decimal)) => {
                decimal_type(d.precision.unwrap_or(0), d.scale.unwrap_or(0))?
            }
            _ => DataType::Int32,
        },
        Type::Int64 => match (lt, ct) {
            (
                Some(LogicalType::Integer(IntType {
                    bit_width: 64,
                    is_signed: false,
                })),
                _,
            ) => DataType::UInt64,
            (Some(LogicalType::Decimal(DecimalType { scale, precision })), _) => {
                decimal_type(*precision, *scale)?
            }
            (Some(LogicalType::Time(TimeType { unit, .. })), _) => match unit {
                TimeUnit::Micros => DataType::Time64(ArrowTimeUnit::Microsecond),
                TimeUnit::Nanos => DataType::Time64(ArrowTimeUnit::Nanosecond),
                _ => {
                    return Err(schema_err(format!(
                        "INT64 column {} with TIME({unit:?})",
                        d.path
                    )));
                }
            },
            (
                Some(LogicalType::Timestamp(TimestampType {
                    is_adjusted_to_u_t_c: is_adjusted_to_utc,
                    unit,
                })),
                _,
            ) => {
                let unit = time_unit(unit)
                    .ok_or_else(|| schema_err(format!("column {}: unknown time unit", d.path)))?;
                DataType::Timestamp(unit, is_adjusted_to_utc.then(|| "UTC".into()))
            }
            (None, Some(ConvertedType::Uint64)) => DataType::UInt64,
            (None, Some(ConvertedType::TimestampMillis)) => {
                DataType::Timestamp(ArrowTimeUnit::Millisecond, Some("UTC".into()))
            }
            (None, Some(ConvertedType::TimestampMicros)) => {
                DataType::Timestamp(ArrowTimeUnit::Microsecond, Some("UTC".into()))
            }
            (None, Some(ConvertedType::TimeMicros)) => DataType::Time64(ArrowTimeUnit::Microsecond),
            (None, Some(ConvertedType::Decimal)) => {
                decimal_type(d.precision.unwrap_or(0), d.scale.unwrap_or(0))?
            }
            _ => DataType::Int64,
        },
        Type::Int96 => DataType::Timestamp(ArrowTimeUnit::Nanosecond, None),
        Type::Float => DataType::Float32,
        Type::Double => DataType::Float64,
        // JSON is UTF-8 text; ENUM and BSON are bytes (the ENUM annotation
        // does not promise UTF-8), read as binary as pyarrow and arrow-rs
        // read them.
        Type::ByteArray => match (lt, ct) {
            (Some(LogicalType::String | LogicalType::Json), _) => DataType::Utf8,
            (Some(LogicalType::Decimal(DecimalType { scale, precision })), _) => {
                decimal_type(*precision, *scale)?
            }
            (None, Some(ConvertedType::Utf8 | ConvertedType::Json)) => DataType::Utf8,
            (None, Some(ConvertedType::Decimal)) => {
                decimal_type(d.precision.unwrap_or(0), d.scale.unwrap_or(0))?
            }
            _ => DataType::Binary,
        },
        Type::FixedLenByteArray => {
            let width = d
                .type_length
                .filter(|w| *w > 0)
                .ok_or_else(|| schema_err(format!("column {} has no width", d.path)))?;
            match (lt, ct) {
                (Some(LogicalType::Decimal(DecimalType { scale, precision })), _) => {
                    decimal_type(*precision, *scale)?
                }
                (Some(LogicalType::Float16), _) if width == 2 => DataType::Float16,
                (None, Some(ConvertedType::Decimal)) => {
                    decimal_type(d.precision.unwrap_or(0), d.scale.unwrap_or(0))?
                }
                // All three parts kept (the other units would drop some).
                (None, Some(ConvertedType::Interval)) if width == 12 => {
                    DataType::Interval(IntervalUnit::MonthDayNano)
                }
                _ => DataType::FixedSizeBinary(width),
            }
        }
    };
    Ok(dt)
}

/// Whether a leaf of `d`'s physical type can be read as `dt`.
pub(crate) fn leaf_accepts(d: &ColumnDescriptor, dt: &DataType) -> bool {
    use DataType as D;
    if let D::Dictionary(key, value) = dt {
        // Byte arrays key the chunk's dictionary; other values are interned
        // by their fixed-width bytes.
        let value_ok = match d.physical_type {
            Type::ByteArray => byte_array_value_type(value),
            _ => value.primitive_width().is_some() || matches!(**value, D::FixedSizeBinary(_)),
        };
        return key.is_dictionary_key_type() && value_ok && leaf_accepts(d, value);
    }
    match d.physical_type {
        Type::Boolean => matches!(dt, D::Boolean),
        Type::Int32 => matches!(
            dt,
            D::Int8
                | D::Int16
                | D::Int32
                | D::UInt8
                | D::UInt16
                | D::UInt32
                | D::Date32
                | D::Date64
                | D::Time32(_)
                | D::Decimal32(_, _)
                | D::Decimal64(_, _)
                | D::Decimal128(_, _)
                | D::Decimal256(_, _)
                | D::Null
        ),
        Type::Int64 => matches!(
            dt,
            D::Int64
                | D::UInt64
                | D::Timestamp(_, _)
                | D::Date64
                | D::Time64(_)
                | D::Duration(_)
                | D::Decimal64(_, _)
                | D::Decimal128(_, _)
                | D::Decimal256(_, _)
        ),
        Type::Int96 => matches!(dt, D::Timestamp(_, _)),
        Type::Float => matches!(dt, D::Float32),
        Type::Double => matches!(dt, D::Float64),
        Type::ByteArray => byte_array_value_type(dt),
        Type::FixedLenByteArray => match dt {
            D::FixedSizeBinary(w) => Some(*w) == d.type_length,
            D::Float16 => d.type_length == Some(2),
            D::Interval(_) => d.type_length == Some(12),
            D::Decimal128(_, _) | D::Decimal256(_, _) => true,
            _ => false,
        },
    }
}

fn byte_array_value_type(dt: &DataType) -> bool {
    use DataType as D;
    matches!(
        dt,
        D::Utf8
            | D::LargeUtf8
            | D::Utf8View
            | D::Binary
            | D::LargeBinary
            | D::BinaryView
            | D::Decimal128(_, _)
            | D::Decimal256(_, _)
    )
}

/// Bytes of the FIXED_LEN_BYTE_ARRAY that stores decimals of `precision`
/// digits: the fewest whose two's complement holds `10^precision - 1`.
pub(crate) fn decimal_length(precision: u8) -> usize {
    (1..=32usize)
        .find(|&n| ((8 * n - 1) as f64 * std::f64::consts::LOG10_2).floor() >= f64::from(precision))
        .unwrap_or(32)
}

/// The Parquet schema that stores `schema`: a root group named `schema`
/// with one field per Arrow field.
///
/// ```
/// use arrow_schema::{DataType, Field, Schema};
/// use strata_arrow::arrow_to_parquet_schema;
///
/// let schema = Schema::new(vec![
///     Field::new("id", DataType::Int64, false),
///     Field::new("tags", DataType::new_list(DataType::Utf8, true), true),
/// ]);
/// let parquet = arrow_to_parquet_schema(&schema).unwrap();
/// assert_eq!(parquet.num_columns(), 2);
/// assert_eq!(parquet.column(1).path.string(), "tags.list.element");
/// assert_eq!(parquet.column(1).max_def_level, 3);
/// ```
pub fn arrow_to_parquet_schema(schema: &Schema) -> Result<SchemaDescriptor> {
    arrow_to_parquet_schema_rooted(schema, DEFAULT_SCHEMA_ROOT)
}

/// Converts an Arrow schema to the Parquet schema strata writes for it,
/// with arrow-rs's builder (`ArrowSchemaConverter::new().convert(&schema)`).
///
/// strata converts as arrow-rs does with `with_coerce_types(true)`
/// whatever the setting (native Parquet types and the specification's
/// list and map names; see `docs/architecture.md`); the setting is kept
/// so that code setting it compiles and reads it back.
///
/// ```
/// use arrow_schema::{DataType, Field, Schema};
/// use strata_arrow::ArrowSchemaConverter;
///
/// let schema = Schema::new(vec![Field::new("id", DataType::Int64, false)]);
/// let parquet = ArrowSchemaConverter::new()
///     .with_coerce_types(true)
///     .schema_root("table")
///     .convert(&schema)
///     .unwrap();
/// assert_eq!(parquet.num_columns(), 1);
/// assert_eq!(parquet.root_schema().name(), "table");
/// ```
#[derive(Debug, Default)]
pub struct ArrowSchemaConverter<'a> {
    coerce_types: bool,
    schema_root: Option<&'a str>,
}

impl<'a> ArrowSchemaConverter<'a> {
    /// A converter with the defaults (root `arrow_schema`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Record the coercion setting (strata always stores the coerced
    /// form).
    pub fn with_coerce_types(mut self, coerce_types: bool) -> Self {
        self.coerce_types = coerce_types;
        self
    }

    /// The coercion setting given.
    pub fn coerce_types(&self) -> bool {
        self.coerce_types
    }

    /// Name the schema's root.
    pub fn schema_root(mut self, schema_root: &'a str) -> Self {
        self.schema_root = Some(schema_root);
        self
    }

    /// The Parquet schema of `schema`.
    pub fn convert(&self, schema: &Schema) -> Result<SchemaDescriptor> {
        arrow_to_parquet_schema_rooted(schema, self.schema_root.unwrap_or(DEFAULT_SCHEMA_ROOT))
    }
}

/// The name of the Parquet schema's root when none is given.
pub(crate) const DEFAULT_SCHEMA_ROOT: &str = "arrow_schema";

/// [`arrow_to_parquet_schema`] with the root named `root`.
pub(crate) fn arrow_to_parquet_schema_rooted(
    schema: &Schema,
    root: &str,
) -> Result<SchemaDescriptor> {
    let children = schema
        .fields()
        .iter()
        .map(|f| arrow_field_to_node(f))
        .collect::<Result<Vec<_>>>()?;
    let root = SchemaType::GroupType {
        basic_info: BasicTypeInfo::new(root.into(), None, ConvertedType::NONE, None, None),
        fields: children,
    };
    Ok(SchemaDescriptor::try_new(Arc::new(root))?)
}

fn repetition(field: &Field) -> Repetition {
    if field.is_nullable() {
        Repetition::Optional
    } else {
        Repetition::Required
    }
}

fn field_id(field: &Field) -> Option<i32> {
    field
        .metadata()
        .get(PARQUET_FIELD_ID_META_KEY)
        .and_then(|v| v.parse().ok())
}

fn primitive(
    field: &Field,
    physical_type: Type,
    logical_type: Option<LogicalType>,
    type_length: Option<i32>,
) -> TypePtr {
    let converted_type = logical_type.as_ref().and_then(converted_for);
    leaf(
        field,
        repetition(field),
        physical_type,
        logical_type,
        converted_type,
        type_length,
    )
}

/// A leaf as given, with its converted type (the legacy annotation
/// written beside the logical type).
fn leaf(
    field: &Field,
    repetition: Repetition,
    physical_type: Type,
    logical_type: Option<LogicalType>,
    converted_type: Option<ConvertedType>,
    type_length: Option<i32>,
) -> TypePtr {
    let (precision, scale) = match &logical_type {
        Some(LogicalType::Decimal(d)) => (d.precision, d.scale),
        _ => (-1, -1),
    };
    Arc::new(SchemaType::PrimitiveType {
        basic_info: BasicTypeInfo::new(
            field.name().clone(),
            Some(repetition),
            ConvertedType::from_option(converted_type),
            logical_type,
            field_id(field),
        )
        .with_physical_type(physical_type),
        physical_type,
        type_length: type_length.unwrap_or(-1),
        scale,
        precision,
    })
}

/// A group of `fields` named `name`, without annotations.
fn plain_group(name: &str, repetition: Repetition, fields: Vec<TypePtr>) -> TypePtr {
    Arc::new(SchemaType::GroupType {
        basic_info: BasicTypeInfo::new(
            name.to_owned(),
            Some(repetition),
            ConvertedType::NONE,
            None,
            None,
        ),
        fields,
    })
}

/// The legacy converted type written beside a logical type, for readers
/// that know only converted types: the logical type's own
/// ([`LogicalType::converted_type`]), except for times and timestamps not
/// adjusted to UTC, which the legacy annotations cannot express (they
/// imply UTC).
fn converted_for(lt: &LogicalType) -> Option<ConvertedType> {
    match lt {
        LogicalType::Time(TimeType {
            is_adjusted_to_u_t_c: false,
            ..
        })
        | LogicalType::Timestamp(TimestampType {
            is_adjusted_to_u_t_c: false,
            ..
        }) => None,
        _ => Some(lt.converted_type()).filter(|c| *c != ConvertedType::None),
    }
}

fn int(bit_width: i8, is_signed: bool) -> Option<LogicalType> {
    Some(LogicalType::Integer(IntType {
        bit_width,
        is_signed,
    }))
}

fn decimal_node(field: &Field, precision: u8, scale: i8) -> TypePtr {
    let lt = Some(LogicalType::Decimal(DecimalType {
        scale: i32::from(scale),
        precision: i32::from(precision),
    }));
    if precision <= 9 {
        primitive(field, Type::Int32, lt, None)
    } else if precision <= 18 {
        primitive(field, Type::Int64, lt, None)
    } else {
        let len = i32::try_from(decimal_length(precision)).unwrap_or(32);
        primitive(field, Type::FixedLenByteArray, lt, Some(len))
    }
}

fn group(field: &Field, logical: Option<LogicalType>, children: Vec<TypePtr>) -> TypePtr {
    Arc::new(SchemaType::GroupType {
        basic_info: BasicTypeInfo::new(
            field.name().clone(),
            Some(repetition(field)),
            ConvertedType::from_option(logical.as_ref().and_then(converted_for)),
            logical,
            field_id(field),
        ),
        fields: children,
    })
}

/// The Parquet node that stores an Arrow field.
fn arrow_field_to_node(field: &Field) -> Result<TypePtr> {
    use DataType as D;
    let ts = |unit: TimeUnit, utc: bool| {
        Some(LogicalType::Timestamp(TimestampType {
            is_adjusted_to_u_t_c: utc,
            unit,
        }))
    };
    // Arrow times are times of day with no zone: not adjusted to UTC (as
    // arrow-rs and pyarrow write them).
    let time = |unit: TimeUnit| {
        Some(LogicalType::Time(TimeType {
            is_adjusted_to_u_t_c: false,
            unit,
        }))
    };
    Ok(match field.data_type() {
        D::Null => {
            let logical = Some(LogicalType::Unknown);
            let converted = logical.as_ref().and_then(converted_for);
            leaf(
                field,
                Repetition::Optional,
                Type::Int32,
                logical,
                converted,
                None,
            )
        }
        D::Boolean => primitive(field, Type::Boolean, None, None),
        D::Int8 => primitive(field, Type::Int32, int(8, true), None),
        D::Int16 => primitive(field, Type::Int32, int(16, true), None),
        D::Int32 => primitive(field, Type::Int32, None, None),
        D::Int64 => primitive(field, Type::Int64, None, None),
        D::UInt8 => primitive(field, Type::Int32, int(8, false), None),
        D::UInt16 => primitive(field, Type::Int32, int(16, false), None),
        D::UInt32 => primitive(field, Type::Int32, int(32, false), None),
        D::UInt64 => primitive(field, Type::Int64, int(64, false), None),
        D::Float16 => primitive(
            field,
            Type::FixedLenByteArray,
            Some(LogicalType::Float16),
            Some(2),
        ),
        D::Float32 => primitive(field, Type::Float, None, None),
        D::Float64 => primitive(field, Type::Double, None, None),
        D::Decimal32(p, s) | D::Decimal64(p, s) | D::Decimal128(p, s) | D::Decimal256(p, s) => {
            decimal_node(field, *p, *s)
        }
        D::Date32 => primitive(field, Type::Int32, Some(LogicalType::Date), None),
        // Stored as a DATE (days), as pyarrow writes it, so every reader
        // sees a date; the embedded Arrow schema restores Date64. Arrow
        // requires Date64 values to be whole days.
        D::Date64 => primitive(field, Type::Int32, Some(LogicalType::Date), None),
        D::Time32(_) => primitive(field, Type::Int32, time(TimeUnit::Millis), None),
        D::Time64(ArrowTimeUnit::Nanosecond) => {
            primitive(field, Type::Int64, time(TimeUnit::Nanos), None)
        }
        D::Time64(_) => primitive(field, Type::Int64, time(TimeUnit::Micros), None),
        D::Timestamp(unit, tz) => {
            let unit = match unit {
                ArrowTimeUnit::Second | ArrowTimeUnit::Millisecond => TimeUnit::Millis,
                ArrowTimeUnit::Microsecond => TimeUnit::Micros,
                ArrowTimeUnit::Nanosecond => TimeUnit::Nanos,
            };
            primitive(field, Type::Int64, ts(unit, tz.is_some()), None)
        }
        D::Duration(_) => primitive(field, Type::Int64, None, None),
        D::Utf8 | D::LargeUtf8 | D::Utf8View => {
            primitive(field, Type::ByteArray, Some(LogicalType::String), None)
        }
        D::Binary | D::LargeBinary | D::BinaryView => primitive(
            field,
            Type::ByteArray,
            crate::geoarrow::logical_type(field),
            None,
        ),
        D::FixedSizeBinary(n) => primitive(field, Type::FixedLenByteArray, None, Some(*n)),
        D::Interval(_) => {
            // INTERVAL has a converted type and no logical type.
            leaf(
                field,
                repetition(field),
                Type::FixedLenByteArray,
                None,
                Some(ConvertedType::Interval),
                Some(12),
            )
        }
        D::Dictionary(_, value) => {
            let inner = Field::new(field.name(), value.as_ref().clone(), field.is_nullable())
                .with_metadata(field.metadata().clone());
            let node = arrow_field_to_node(&inner)?;
            if !node.is_primitive() {
                return Err(schema_err(format!(
                    "dictionary field {} has a nested value type",
                    field.name()
                )));
            }
            node
        }
        D::List(elem) | D::LargeList(elem) | D::FixedSizeList(elem, _) => {
            let element = arrow_field_to_node(&elem.as_ref().clone().with_name("element"))?;
            let list = plain_group("list", Repetition::Repeated, vec![element]);
            group(field, Some(LogicalType::List), vec![list])
        }
        D::Struct(fields) => {
            if fields.is_empty() {
                return Err(schema_err(format!(
                    "struct field {} has no fields; Parquet cannot store an empty group",
                    field.name()
                )));
            }
            let children = fields
                .iter()
                .map(|f| arrow_field_to_node(f))
                .collect::<Result<Vec<_>>>()?;
            group(field, crate::variant::logical_type(field), children)
        }
        D::Map(entries, _) => {
            let D::Struct(kv) = entries.data_type() else {
                return Err(schema_err(format!(
                    "map field {} without struct entries",
                    field.name()
                )));
            };
            if kv.len() != 2 {
                return Err(schema_err(format!(
                    "map field {} needs a key and a value",
                    field.name()
                )));
            }
            let key =
                arrow_field_to_node(&kv[0].as_ref().clone().with_name("key").with_nullable(false))?;
            let value = arrow_field_to_node(&kv[1].as_ref().clone().with_name("value"))?;
            let key_value = plain_group("key_value", Repetition::Repeated, vec![key, value]);
            group(field, Some(LogicalType::Map), vec![key_value])
        }
        other => {
            return Err(crate::error::ParquetError::NYI(format!(
                "writing Arrow type {other} (field {})",
                field.name()
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_hint_is_found_by_position_and_else_by_name() {
        let fields = Fields::from(vec![
            Field::new("a", DataType::Int32, false),
            Field::new("b", DataType::Utf8View, true),
            Field::new("b", DataType::LargeUtf8, true),
        ]);
        // Same position, same name: that field, even with a duplicate name
        // later.
        assert_eq!(
            hint_field(&fields, 2, "b").unwrap().data_type(),
            &DataType::LargeUtf8
        );
        assert_eq!(
            hint_field(&fields, 1, "b").unwrap().data_type(),
            &DataType::Utf8View
        );
        // Another position: the first field of that name.
        assert_eq!(
            hint_field(&fields, 0, "b").unwrap().data_type(),
            &DataType::Utf8View
        );
        assert_eq!(
            hint_field(&fields, 7, "a").unwrap().data_type(),
            &DataType::Int32
        );
        assert!(hint_field(&fields, 0, "c").is_none());
    }

    #[test]
    fn a_hint_equal_to_the_built_field_is_shared_and_others_are_built() {
        let tagged = HashMap::from([("k".to_string(), "v".to_string())]);
        let hint = Schema::new(vec![
            Field::new("a", DataType::Int64, false),
            Field::new("b", DataType::LargeUtf8, true).with_metadata(tagged.clone()),
            Field::new_dictionary("c", DataType::Int32, DataType::Utf8, true),
            Field::new_list("d", Field::new_list_field(DataType::Int32, true), true),
            Field::new("e", DataType::Timestamp(ArrowTimeUnit::Second, None), true),
        ]);
        let descr = arrow_to_parquet_schema(&hint).unwrap();
        for rule in [
            HintRule::Exact,
            HintRule::Embedded { own_seconds: true },
            HintRule::Embedded { own_seconds: false },
        ] {
            let (built, _) = build_arrow_schema(&descr, None, Some((&hint, rule)), None).unwrap();
            let shared: Vec<bool> = built
                .fields()
                .iter()
                .zip(hint.fields())
                .map(|(b, h)| Arc::ptr_eq(b, h))
                .collect();
            // Plain fields, with or without metadata, are the hint's own;
            // a dictionary and a list are built. A second-unit timestamp
            // stored as milliseconds comes back in seconds only from
            // strata's own files (or when the hint is the caller's).
            let seconds_kept = !matches!(rule, HintRule::Embedded { own_seconds: false });
            assert_eq!(shared, [true, true, false, false, seconds_kept], "{rule:?}");
            // Shared or built, every field is the one the hint describes,
            // except the second-unit timestamp where it is not kept.
            for (i, (b, h)) in built.fields().iter().zip(hint.fields()).enumerate() {
                if i == 4 && !seconds_kept {
                    assert_eq!(
                        b.data_type(),
                        &DataType::Timestamp(ArrowTimeUnit::Millisecond, None)
                    );
                } else {
                    assert_eq!(b, h, "{rule:?} field {i}");
                }
            }
        }
        // A field the file numbers takes the id in its metadata: built,
        // not the hint's.
        let numbered = Schema::new(vec![Field::new("a", DataType::Int64, false).with_metadata(
            HashMap::from([(PARQUET_FIELD_ID_META_KEY.to_string(), "7".to_string())]),
        )]);
        let descr = arrow_to_parquet_schema(&numbered).unwrap();
        let plain_hint = Schema::new(vec![Field::new("a", DataType::Int64, false)]);
        let (built, _) =
            build_arrow_schema(&descr, None, Some((&plain_hint, HintRule::Exact)), None).unwrap();
        assert!(!Arc::ptr_eq(&built.fields()[0], &plain_hint.fields()[0]));
        assert_eq!(built.fields()[0].as_ref(), numbered.field(0));
    }
}
