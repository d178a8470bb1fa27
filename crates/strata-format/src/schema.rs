//! The schema as a tree, and its leaf columns.
//!
//! The footer stores the schema as a depth-first list of
//! [`SchemaElement`]s where each group says how many children follow.
//! [`SchemaDescriptor::from_elements`] rebuilds the tree ([`SchemaNode`]),
//! validates it, and lists the leaf columns ([`ColumnDescriptor`]) with
//! their paths and maximum definition and repetition levels.
//! [`SchemaDescriptor::to_elements`] flattens a tree back for writers.
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
//! let b = schema.column(0).unwrap();
//! assert_eq!(b.path.string(), "a.b");
//! assert_eq!((b.max_def_level, b.max_rep_level), (2, 1));
//! assert_eq!(schema.column(1).unwrap().max_def_level, 0);
//! assert_eq!(schema.to_elements(), elements);
//! ```

use std::fmt;

use std::sync::Arc;

use crate::error::{FormatError, Result};
use crate::metadata::{ConvertedType, FieldRepetitionType, LogicalType, SchemaElement, Type};

/// Deepest schema nesting accepted (the root is depth 0).
pub const MAX_SCHEMA_DEPTH: usize = 128;

/// The path of a column from the root's child down to the leaf.
///
/// Its parts are shared (`Arc`): a column chunk's path in a footer is one
/// allocation however many row groups name it, and a descriptor's path
/// is copied by reference count.
///
/// Displays dotted: `a.b.c`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnPath(Arc<[String]>);

impl ColumnPath {
    /// A path from its parts.
    pub fn new(parts: Vec<String>) -> Self {
        Self(parts.into())
    }

    /// The parts, root-most first.
    pub fn parts(&self) -> &[String] {
        &self.0
    }

    /// The parts as owned strings.
    pub fn into_parts(self) -> Vec<String> {
        self.0.to_vec()
    }
}

impl ColumnPath {
    /// The dotted form, `a.b.c` (as arrow-rs's `ColumnPath::string`).
    pub fn string(&self) -> String {
        self.0.join(".")
    }

    /// Append parts to the path.
    pub fn append(&mut self, tail: Vec<String>) {
        let mut parts = self.0.to_vec();
        parts.extend(tail);
        self.0 = parts.into();
    }
}

/// The parts, as a slice (`path[0]`, `path.len()`, `&path[..]`).
impl std::ops::Deref for ColumnPath {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
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
        Self(parts)
    }
}

impl From<&[&str]> for ColumnPath {
    fn from(parts: &[&str]) -> Self {
        Self(parts.iter().map(|s| (*s).to_owned()).collect())
    }
}

impl fmt::Display for ColumnPath {
    /// The dotted path in quotes, as arrow-rs prints it: `"a.b"`
    /// ([`string`](Self::string) has it without).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.string())
    }
}

/// What a schema node is: a group with children, or a primitive leaf.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A group of fields.
    Group {
        /// The fields, in order.
        children: Vec<SchemaNode>,
    },
    /// A leaf holding values of a physical type.
    Primitive {
        /// Physical type of the values.
        physical_type: Type,
        /// Byte length for `FIXED_LEN_BYTE_ARRAY` (or a bit-width hint).
        type_length: Option<i32>,
        /// Decimal scale.
        scale: Option<i32>,
        /// Decimal precision.
        precision: Option<i32>,
    },
}

/// One node of the schema tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SchemaNode {
    /// Field name.
    pub name: String,
    /// Repetition; `None` on the root (and only there).
    pub repetition: Option<FieldRepetitionType>,
    /// Legacy type annotation.
    pub converted_type: Option<ConvertedType>,
    /// Logical type annotation.
    pub logical_type: Option<LogicalType>,
    /// Field id of the original schema.
    pub field_id: Option<i32>,
    /// Number of slots of a `VECTOR` field.
    pub vector_length: Option<i32>,
    /// Group or leaf.
    pub kind: NodeKind,
}

impl SchemaNode {
    /// Whether this node is a leaf.
    pub fn is_primitive(&self) -> bool {
        matches!(self.kind, NodeKind::Primitive { .. })
    }

    /// The children of a group; empty for a leaf.
    pub fn children(&self) -> &[SchemaNode] {
        match &self.kind {
            NodeKind::Group { children } => children,
            NodeKind::Primitive { .. } => &[],
        }
    }

    fn to_element(&self) -> SchemaElement {
        let mut e = SchemaElement {
            name: self.name.clone(),
            repetition_type: self.repetition,
            converted_type: self.converted_type,
            logical_type: self.logical_type.clone(),
            field_id: self.field_id,
            vector_length: self.vector_length,
            ..Default::default()
        };
        match &self.kind {
            NodeKind::Group { children } => {
                e.num_children = Some(i32::try_from(children.len()).unwrap_or(i32::MAX));
            }
            NodeKind::Primitive {
                physical_type,
                type_length,
                scale,
                precision,
            } => {
                e.physical_type = Some(*physical_type);
                e.type_length = *type_length;
                e.scale = *scale;
                e.precision = *precision;
            }
        }
        e
    }

    fn flatten_into(&self, out: &mut Vec<SchemaElement>) {
        out.push(self.to_element());
        for child in self.children() {
            child.flatten_into(out);
        }
    }
}

/// One leaf column: where it is in the tree and how to read its levels.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnDescriptor {
    /// Path from the root's child to the leaf.
    pub path: ColumnPath,
    /// Physical type.
    pub physical_type: Type,
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
}

/// arrow-rs's accessors (`parquet::schema::types::ColumnDescriptor`),
/// beside the public fields they read. Where a field is absent, the
/// numbers are -1, as arrow-rs gives them.
///
/// ```
/// use strata_format::SchemaDescriptor;
/// use strata_format::metadata::{FieldRepetitionType, SchemaElement, Type};
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
/// let column = &schema.columns()[0];
/// assert_eq!((column.name(), column.path().string()), ("price", "price".to_string()));
/// assert_eq!(column.physical_type(), Type::FIXED_LEN_BYTE_ARRAY);
/// assert_eq!((column.type_length(), column.type_precision()), (8, -1));
/// assert_eq!((column.max_def_level(), column.max_rep_level()), (1, 0));
/// ```
impl ColumnDescriptor {
    /// The leaf's name (the path's last part).
    pub fn name(&self) -> &str {
        self.path.last().map_or("", String::as_str)
    }

    /// The path from the root's child to the leaf.
    pub fn path(&self) -> &ColumnPath {
        &self.path
    }

    /// The physical type.
    pub fn physical_type(&self) -> Type {
        self.physical_type
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
}

/// A validated schema tree with its leaf columns.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SchemaDescriptor {
    root: SchemaNode,
    columns: Vec<ColumnDescriptor>,
}

impl SchemaDescriptor {
    /// Build the tree from the footer's flattened schema.
    ///
    /// Errors: an empty list, a root that is not a group or is repeated, a
    /// child count that runs past the end, elements left over after the
    /// root's subtree, a leaf without a physical type, a group with a
    /// physical type, a non-root node without repetition, or nesting deeper
    /// than [`MAX_SCHEMA_DEPTH`].
    pub fn from_elements(elements: &[SchemaElement]) -> Result<Self> {
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
        let root = build_node(elements, &mut pos, 0)?;
        if pos != elements.len() {
            return Err(schema_err(format!(
                "{} schema elements left over after the root's {} elements",
                elements.len() - pos,
                pos
            )));
        }
        // Every element but the root is at most one leaf: size the column
        // list once.
        Self::with_capacity(root, elements.len().saturating_sub(1))
    }

    /// Wrap a tree built in code (writer side), validating it the same way
    /// and computing the leaf columns.
    pub fn new(root: SchemaNode) -> Result<Self> {
        Self::with_capacity(root, 0)
    }

    /// [`new`](Self::new) with room for `leaves` columns reserved up front.
    fn with_capacity(root: SchemaNode, leaves: usize) -> Result<Self> {
        if root.is_primitive() {
            return Err(schema_err(format!(
                "the root {:?} must be a group",
                root.name
            )));
        }
        if root.repetition == Some(FieldRepetitionType::Repeated) {
            return Err(schema_err(format!("the root {:?} is repeated", root.name)));
        }
        let mut columns = Vec::with_capacity(leaves);
        let mut path = Vec::new();
        for (i, child) in root.children().iter().enumerate() {
            collect_leaves(child, i, 0, 0, 1, &mut path, &mut columns)?;
        }
        Ok(Self { root, columns })
    }

    /// The root group.
    pub fn root(&self) -> &SchemaNode {
        &self.root
    }

    /// The leaf columns in file order.
    pub fn columns(&self) -> &[ColumnDescriptor] {
        &self.columns
    }

    /// Leaf column `i`, if it exists.
    pub fn column(&self, i: usize) -> Option<&ColumnDescriptor> {
        self.columns.get(i)
    }

    /// Number of leaf columns.
    pub fn num_columns(&self) -> usize {
        self.columns.len()
    }

    /// Flatten the tree back to footer form (depth-first).
    pub fn to_elements(&self) -> Vec<SchemaElement> {
        let mut out = Vec::new();
        self.root.flatten_into(&mut out);
        out
    }
}

fn schema_err(msg: String) -> FormatError {
    FormatError::Schema(msg)
}

/// Build the node at `elements[*pos]` and its subtree, advancing `pos`.
fn build_node(elements: &[SchemaElement], pos: &mut usize, depth: usize) -> Result<SchemaNode> {
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
    let kind = if is_group {
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
        let mut children = Vec::with_capacity(n);
        for _ in 0..n {
            children.push(build_node(elements, pos, depth + 1)?);
        }
        NodeKind::Group { children }
    } else {
        let Some(physical_type) = e.physical_type else {
            return Err(schema_err(format!(
                "leaf {:?} (element {index}) has no physical type",
                e.name
            )));
        };
        NodeKind::Primitive {
            physical_type,
            type_length: e.type_length,
            scale: e.scale,
            precision: e.precision,
        }
    };
    Ok(SchemaNode {
        name: e.name.clone(),
        repetition: e.repetition_type,
        converted_type: e.converted_type,
        logical_type: e.logical_type.clone(),
        field_id: e.field_id,
        vector_length: e.vector_length,
        kind,
    })
}

/// Walk `node` (a non-root node at `depth`), appending its leaves.
fn collect_leaves<'n>(
    node: &'n SchemaNode,
    root_field_index: usize,
    def: i16,
    rep: i16,
    depth: usize,
    path: &mut Vec<&'n str>,
    out: &mut Vec<ColumnDescriptor>,
) -> Result<()> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(FormatError::DepthLimit {
            limit: MAX_SCHEMA_DEPTH,
            offset: depth,
        });
    }
    let Some(repetition) = node.repetition else {
        return Err(schema_err(format!(
            "field {:?} has no repetition type",
            node.name
        )));
    };
    let (def, rep) = match repetition {
        FieldRepetitionType::Required => (def, rep),
        FieldRepetitionType::Optional => (def + 1, rep),
        FieldRepetitionType::Repeated => (def + 1, rep + 1),
        FieldRepetitionType::Vector => {
            return Err(schema_err(format!(
                "field {:?} uses VECTOR repetition, which is not supported",
                node.name
            )));
        }
    };
    // Borrowed while walking; each leaf copies its path once.
    path.push(&node.name);
    match &node.kind {
        NodeKind::Group { children } => {
            for child in children {
                collect_leaves(child, root_field_index, def, rep, depth + 1, path, out)?;
            }
        }
        NodeKind::Primitive {
            physical_type,
            type_length,
            scale,
            precision,
        } => out.push(ColumnDescriptor {
            path: ColumnPath(path.iter().map(|&part| part.to_owned()).collect()),
            physical_type: *physical_type,
            type_length: *type_length,
            logical_type: node.logical_type.clone(),
            converted_type: node.converted_type,
            precision: *precision,
            scale: *scale,
            repetition,
            max_def_level: def,
            max_rep_level: rep,
            root_field_index,
        }),
    }
    path.pop();
    Ok(())
}
