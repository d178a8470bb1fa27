//! Row assembly: the levels and values of a row group's leaf columns,
//! read by [`ColumnRecordReader`]s a batch of records at a time, put
//! together into [`Row`]s.
//!
//! The schema becomes a tree of nodes, as arrow-rs builds its readers
//! (`record::reader::TreeBuilder`):
//!
//! - a leaf reads one column: a [`Leaf`] walks its levels one at a time
//!   (the current definition and repetition level, the current value);
//! - an optional field is an `Optional` node over the field's own node: a
//!   definition level above the parent's means the field is there;
//! - a struct is a `Group` of its children's nodes;
//! - a list is a `Repeated` node over its element, a map a `KeyValue`
//!   node over its keys and values: elements are read while the
//!   repetition level stays above the list's own; a definition level at
//!   the list's own level means the list is empty.
//!
//! Lists follow the specification's backward-compatibility rules as
//! arrow-rs applies them: a `LIST` group's repeated child is the element
//! itself (a two-level list) when it is a leaf, a group of several fields,
//! a group named `array` or ending in `_tuple`, and otherwise the wrapper
//! of a single element (the three-level list). A repeated field outside a
//! `LIST` or `MAP` group is a required list of required elements. A
//! `MAP` whose key-value group has only a key reads as a list of keys.
//!
//! A node asks its first leaf for the current levels, as arrow-rs's do.
//! A schema of the wrong shape (a `LIST` group with two children, a map
//! whose key-value group is not repeated) is an error when the tree is
//! built; arrow-rs panics on most of them. Levels and values that run out
//! early are errors when a row is read.

use std::collections::HashMap;

use strata_encoding::chunk::ChunkValue;
use strata_encoding::{ByteArray, FixedLenByteArray, Int96};
use strata_file::page_reader::PageReader;
use strata_format::metadata::{ConvertedType, FieldRepetitionType, LogicalType, Type};
use strata_format::schema::Type as SchemaType;
use strata_format::{ColumnDescriptor, SchemaDescriptor};

use super::convert::Conversion;
use super::field::{Field, List, Map, Row};
use crate::buffers::RecordBatchBuffers;
use crate::error::{RecordError, Result};
use crate::reader::ColumnRecordReader;

fn row_err(message: impl Into<String>) -> RecordError {
    RecordError::Row(message.into())
}

fn end_of_data() -> RecordError {
    RecordError::Corrupt("unexpected end of column data".into())
}

/// A record reader and its batch, of one physical type.
#[derive(Debug)]
enum Typed {
    Bool(ColumnRecordReader<bool>, RecordBatchBuffers<Vec<bool>>),
    Int32(ColumnRecordReader<i32>, RecordBatchBuffers<Vec<i32>>),
    Int64(ColumnRecordReader<i64>, RecordBatchBuffers<Vec<i64>>),
    Int96(ColumnRecordReader<Int96>, RecordBatchBuffers<Vec<Int96>>),
    Float(ColumnRecordReader<f32>, RecordBatchBuffers<Vec<f32>>),
    Double(ColumnRecordReader<f64>, RecordBatchBuffers<Vec<f64>>),
    Bytes(
        ColumnRecordReader<ByteArray>,
        RecordBatchBuffers<<ByteArray as ChunkValue>::Values>,
    ),
    Fixed(
        ColumnRecordReader<FixedLenByteArray>,
        RecordBatchBuffers<<FixedLenByteArray as ChunkValue>::Values>,
    ),
}

impl Typed {
    fn new(pages: PageReader, descr: ColumnDescriptor) -> Result<Self> {
        Ok(match descr.physical_type {
            Type::Boolean => {
                Typed::Bool(ColumnRecordReader::new(pages, descr)?, Default::default())
            }
            Type::Int32 => Typed::Int32(ColumnRecordReader::new(pages, descr)?, Default::default()),
            Type::Int64 => Typed::Int64(ColumnRecordReader::new(pages, descr)?, Default::default()),
            Type::Int96 => Typed::Int96(ColumnRecordReader::new(pages, descr)?, Default::default()),
            Type::Float => Typed::Float(ColumnRecordReader::new(pages, descr)?, Default::default()),
            Type::Double => {
                Typed::Double(ColumnRecordReader::new(pages, descr)?, Default::default())
            }
            Type::ByteArray => {
                Typed::Bytes(ColumnRecordReader::new(pages, descr)?, Default::default())
            }
            Type::FixedLenByteArray => {
                Typed::Fixed(ColumnRecordReader::new(pages, descr)?, Default::default())
            }
        })
    }

    /// Read the next batch of up to `n` records; returns the levels read
    /// and checks that the batch holds a level of each kind for every
    /// level.
    fn read(&mut self, n: usize, max_def: i16, max_rep: i16) -> Result<usize> {
        macro_rules! read {
            ($reader:expr, $out:expr) => {{
                $reader.read_records(n, $out)?;
                let levels = $out.num_levels;
                if (max_def > 0 && $out.def_levels.len() != levels)
                    || (max_rep > 0 && $out.rep_levels.len() != levels)
                {
                    return Err(RecordError::Corrupt(
                        "a batch's levels disagree in number".into(),
                    ));
                }
                Ok(levels)
            }};
        }
        match self {
            Typed::Bool(r, out) => read!(r, out),
            Typed::Int32(r, out) => read!(r, out),
            Typed::Int64(r, out) => read!(r, out),
            Typed::Int96(r, out) => read!(r, out),
            Typed::Float(r, out) => read!(r, out),
            Typed::Double(r, out) => read!(r, out),
            Typed::Bytes(r, out) => read!(r, out),
            Typed::Fixed(r, out) => read!(r, out),
        }
    }

    fn def_levels(&self) -> &[i16] {
        match self {
            Typed::Bool(_, out) => &out.def_levels,
            Typed::Int32(_, out) => &out.def_levels,
            Typed::Int64(_, out) => &out.def_levels,
            Typed::Int96(_, out) => &out.def_levels,
            Typed::Float(_, out) => &out.def_levels,
            Typed::Double(_, out) => &out.def_levels,
            Typed::Bytes(_, out) => &out.def_levels,
            Typed::Fixed(_, out) => &out.def_levels,
        }
    }

    fn rep_levels(&self) -> &[i16] {
        match self {
            Typed::Bool(_, out) => &out.rep_levels,
            Typed::Int32(_, out) => &out.rep_levels,
            Typed::Int64(_, out) => &out.rep_levels,
            Typed::Int96(_, out) => &out.rep_levels,
            Typed::Float(_, out) => &out.rep_levels,
            Typed::Double(_, out) => &out.rep_levels,
            Typed::Bytes(_, out) => &out.rep_levels,
            Typed::Fixed(_, out) => &out.rep_levels,
        }
    }

    /// Value `i` of the batch as a field.
    fn field(&self, i: usize, conversion: &Conversion) -> Result<Field> {
        let missing = || RecordError::Corrupt(format!("value {i} is missing from its batch"));
        match self {
            Typed::Bool(_, out) => {
                conversion.field_of_bool(*out.values.get(i).ok_or_else(missing)?)
            }
            Typed::Int32(_, out) => {
                conversion.field_of_i32(*out.values.get(i).ok_or_else(missing)?)
            }
            Typed::Int64(_, out) => {
                conversion.field_of_i64(*out.values.get(i).ok_or_else(missing)?)
            }
            Typed::Int96(_, out) => {
                conversion.field_of_int96(*out.values.get(i).ok_or_else(missing)?)
            }
            Typed::Float(_, out) => {
                conversion.field_of_f32(*out.values.get(i).ok_or_else(missing)?)
            }
            Typed::Double(_, out) => {
                conversion.field_of_f64(*out.values.get(i).ok_or_else(missing)?)
            }
            Typed::Bytes(_, out) => {
                conversion.field_of_bytes(out.values.value(i).ok_or_else(missing)?)
            }
            Typed::Fixed(_, out) => {
                conversion.field_of_bytes(out.values.value(i).ok_or_else(missing)?)
            }
        }
    }
}

/// One leaf column, walked one level at a time: arrow-rs's triplet
/// iterator (definition level, repetition level, value) over strata's
/// record reader.
#[derive(Debug)]
struct Leaf {
    reader: Typed,
    conversion: Conversion,
    max_def: i16,
    max_rep: i16,
    batch_size: usize,
    /// The current level, within the batch.
    pos: usize,
    /// Levels in the batch.
    len: usize,
    /// The current value within the batch's values, for a repeated column
    /// (whose batch holds only the values present).
    value: usize,
    /// Whether there is a current level.
    has_next: bool,
}

impl Leaf {
    fn new(pages: PageReader, descr: &ColumnDescriptor, batch_size: usize) -> Result<Self> {
        Ok(Self {
            conversion: Conversion::of(descr),
            max_def: descr.max_def_level,
            max_rep: descr.max_rep_level,
            reader: Typed::new(pages, descr.clone())?,
            batch_size,
            pos: 0,
            len: 0,
            value: 0,
            has_next: false,
        })
    }

    /// Move to the next level, reading the next batch when this one is
    /// done; returns whether there is one.
    fn advance(&mut self) -> Result<bool> {
        if self.has_next {
            if self.max_rep > 0 && self.def() == self.max_def {
                self.value += 1;
            }
            self.pos += 1;
        }
        while self.pos >= self.len {
            self.pos = 0;
            self.value = 0;
            self.len = self
                .reader
                .read(self.batch_size, self.max_def, self.max_rep)?;
            if self.len == 0 {
                self.has_next = false;
                return Ok(false);
            }
        }
        self.has_next = true;
        Ok(true)
    }

    /// The current definition level: the maximum for a column without
    /// definition levels, 0 past the end.
    fn def(&self) -> i16 {
        if !self.has_next {
            return 0;
        }
        if self.max_def == 0 {
            return 0;
        }
        self.reader.def_levels().get(self.pos).copied().unwrap_or(0)
    }

    /// The current repetition level (0 for a column without them and past
    /// the end).
    fn rep(&self) -> i16 {
        if !self.has_next || self.max_rep == 0 {
            return 0;
        }
        self.reader.rep_levels().get(self.pos).copied().unwrap_or(0)
    }

    /// The current value, `Null` below the maximum definition level.
    fn field(&self) -> Result<Field> {
        if self.def() < self.max_def {
            return Ok(Field::Null);
        }
        let i = if self.max_rep > 0 {
            self.value
        } else {
            self.pos
        };
        self.reader.field(i, &self.conversion)
    }
}

/// A node of the reader tree (arrow-rs's `record::reader::Reader`).
#[derive(Debug)]
enum Node {
    /// A leaf column: its name, repetition and index among the leaves.
    Leaf {
        name: String,
        repetition: FieldRepetitionType,
        leaf: usize,
    },
    /// An optional field: the definition level of its parent, and the
    /// field's own node.
    Optional { def: i16, child: Box<Node> },
    /// A struct (the schema root has no name): its definition level and
    /// children.
    Group {
        name: Option<String>,
        repetition: FieldRepetitionType,
        def: i16,
        children: Vec<Node>,
    },
    /// A list: the definition and repetition levels of its parent (the
    /// list itself when it is optional), and its element's node.
    Repeated {
        name: String,
        repetition: FieldRepetitionType,
        def: i16,
        rep: i16,
        child: Box<Node>,
    },
    /// A map: as a list, with keys and values.
    KeyValue {
        name: String,
        repetition: FieldRepetitionType,
        def: i16,
        rep: i16,
        keys: Box<Node>,
        values: Box<Node>,
    },
}

impl Node {
    /// The leaf whose levels this node reads.
    fn first_leaf(&self) -> Option<usize> {
        match self {
            Node::Leaf { leaf, .. } => Some(*leaf),
            Node::Optional { child, .. } | Node::Repeated { child, .. } => child.first_leaf(),
            Node::Group { children, .. } => children.first().and_then(Node::first_leaf),
            Node::KeyValue { keys, .. } => keys.first_leaf(),
        }
    }

    fn name(&self) -> &str {
        match self {
            Node::Leaf { name, .. } | Node::Repeated { name, .. } | Node::KeyValue { name, .. } => {
                name
            }
            Node::Optional { child, .. } => child.name(),
            Node::Group { name, .. } => name.as_deref().unwrap_or_default(),
        }
    }

    fn repetition(&self) -> FieldRepetitionType {
        match self {
            Node::Leaf { repetition, .. }
            | Node::Group { repetition, .. }
            | Node::Repeated { repetition, .. }
            | Node::KeyValue { repetition, .. } => *repetition,
            Node::Optional { child, .. } => child.repetition(),
        }
    }

    fn has_next(&self, leaves: &[Leaf]) -> bool {
        self.first_leaf()
            .and_then(|l| leaves.get(l))
            .is_some_and(|l| l.has_next)
    }

    fn def(&self, leaves: &[Leaf]) -> i16 {
        self.first_leaf()
            .and_then(|l| leaves.get(l))
            .map_or(0, Leaf::def)
    }

    fn rep(&self, leaves: &[Leaf]) -> i16 {
        self.first_leaf()
            .and_then(|l| leaves.get(l))
            .map_or(0, Leaf::rep)
    }

    /// Move every leaf under this node past its current level.
    fn advance(&self, leaves: &mut [Leaf]) -> Result<()> {
        match self {
            Node::Leaf { leaf, .. } => {
                leaves.get_mut(*leaf).ok_or_else(end_of_data)?.advance()?;
            }
            Node::Optional { child, .. } | Node::Repeated { child, .. } => child.advance(leaves)?,
            Node::Group { children, .. } => {
                for child in children {
                    child.advance(leaves)?;
                }
            }
            Node::KeyValue { keys, values, .. } => {
                keys.advance(leaves)?;
                values.advance(leaves)?;
            }
        }
        Ok(())
    }

    /// The fields of a struct (or of the row, at the root).
    fn read_group(&self, def: i16, children: &[Node], leaves: &mut [Leaf]) -> Result<Row> {
        let mut fields = Vec::with_capacity(children.len());
        for child in children {
            let field =
                if child.repetition() != FieldRepetitionType::Optional || child.def(leaves) > def {
                    child.read(leaves)?
                } else {
                    child.advance(leaves)?;
                    Field::Null
                };
            fields.push((child.name().to_owned(), field));
        }
        Ok(Row::new(fields))
    }

    /// Read the current value of this node, advancing its leaves past it.
    fn read(&self, leaves: &mut [Leaf]) -> Result<Field> {
        match self {
            Node::Leaf { leaf, .. } => {
                let leaf = leaves.get_mut(*leaf).ok_or_else(end_of_data)?;
                if !leaf.has_next {
                    return Err(end_of_data());
                }
                let field = leaf.field()?;
                leaf.advance()?;
                Ok(field)
            }
            Node::Optional { def, child } => {
                if !child.has_next(leaves) {
                    return Err(end_of_data());
                }
                if child.def(leaves) > *def {
                    child.read(leaves)
                } else {
                    child.advance(leaves)?;
                    Ok(Field::Null)
                }
            }
            Node::Group { def, children, .. } => {
                Ok(Field::Group(self.read_group(*def, children, leaves)?))
            }
            Node::Repeated {
                def, rep, child, ..
            } => {
                if !child.has_next(leaves) {
                    return Err(end_of_data());
                }
                let mut elements = Vec::new();
                loop {
                    if child.def(leaves) > *def {
                        elements.push(child.read(leaves)?);
                    } else {
                        // Definition level at the list's own: empty.
                        child.advance(leaves)?;
                        break;
                    }
                    if !child.has_next(leaves) || child.rep(leaves) <= *rep {
                        break;
                    }
                }
                Ok(Field::ListInternal(List::new(elements)))
            }
            Node::KeyValue {
                def,
                rep,
                keys,
                values,
                ..
            } => {
                if !keys.has_next(leaves) {
                    return Err(end_of_data());
                }
                let mut entries = Vec::new();
                loop {
                    if keys.def(leaves) > *def {
                        entries.push((keys.read(leaves)?, values.read(leaves)?));
                    } else {
                        keys.advance(leaves)?;
                        values.advance(leaves)?;
                        break;
                    }
                    if !keys.has_next(leaves) || keys.rep(leaves) <= *rep {
                        break;
                    }
                }
                Ok(Field::MapInternal(Map::new(entries)))
            }
        }
    }
}

/// Whether a `LIST` group's repeated child is the element itself (a
/// legacy two-level list), by the specification's backward-compatibility
/// rules as arrow-rs applies them.
fn is_element_type(repeated: &SchemaType) -> bool {
    let is_list = !repeated.is_primitive()
        && match repeated.get_basic_info().logical_type_ref() {
            Some(logical) => *logical == LogicalType::List,
            None => repeated.get_basic_info().converted_type() == ConvertedType::List,
        };
    let children = repeated.get_fields();
    let single_repeated_child = !repeated.is_primitive()
        && children.len() == 1
        && children[0].get_basic_info().repetition_opt() == Some(FieldRepetitionType::Repeated);
    if is_list || single_repeated_child {
        return false;
    }
    repeated.is_primitive()
        || children.len() > 1
        || repeated.name() == "array"
        || repeated.name().ends_with("_tuple")
}

/// Builds the reader tree of a row group, opening a [`Leaf`] per leaf
/// column it meets.
struct TreeBuilder<'s, F> {
    /// The file's leaf columns by path.
    columns: HashMap<&'s [String], usize>,
    schema: &'s SchemaDescriptor,
    open: F,
    leaves: Vec<Leaf>,
    batch_size: usize,
}

impl<F: FnMut(usize) -> Result<PageReader>> TreeBuilder<'_, F> {
    fn node(
        &mut self,
        field: &SchemaType,
        path: &mut Vec<String>,
        def: i16,
        rep: i16,
    ) -> Result<Node> {
        let repetition = field
            .get_basic_info()
            .repetition_opt()
            .ok_or_else(|| row_err(format!("field {} has no repetition", field.name())))?;
        self.node_as(field, repetition, path, def, rep)
    }

    /// The node of `field`, taken to have `repetition`.
    fn node_as(
        &mut self,
        field: &SchemaType,
        repetition: FieldRepetitionType,
        path: &mut Vec<String>,
        mut def: i16,
        mut rep: i16,
    ) -> Result<Node> {
        match repetition {
            FieldRepetitionType::Required => {}
            FieldRepetitionType::Optional => def += 1,
            FieldRepetitionType::Repeated => {
                def += 1;
                rep += 1;
            }
            other => {
                return Err(row_err(format!(
                    "field {} has repetition {other:?}, which the row reader cannot read",
                    field.name()
                )));
            }
        }
        let name = field.name().to_owned();
        path.push(name.clone());
        let node = if field.is_primitive() {
            let leaf = self.leaf(path)?;
            let node = Node::Leaf {
                name: name.clone(),
                repetition,
                leaf,
            };
            if repetition == FieldRepetitionType::Repeated {
                Node::Repeated {
                    name,
                    repetition,
                    def: def - 1,
                    rep: rep - 1,
                    child: Box::new(node),
                }
            } else {
                node
            }
        } else {
            let children = field.get_fields();
            let converted = field.get_basic_info().converted_type().to_option();
            let kind = if converted == Some(ConvertedType::List) {
                "list"
            } else {
                "map"
            };
            let shape = |what: &str| row_err(format!("{kind} group {} {what}", field.name()));
            match converted {
                Some(ConvertedType::List) => {
                    let [repeated] = children else {
                        return Err(shape("does not have exactly one child"));
                    };
                    if repeated.get_basic_info().repetition_opt()
                        != Some(FieldRepetitionType::Repeated)
                    {
                        return Err(shape("has a child that is not repeated"));
                    }
                    let child = if is_element_type(repeated) {
                        self.node(repeated, path, def, rep)?
                    } else {
                        let Some(element) = repeated.get_fields().first() else {
                            return Err(shape("has an empty repeated group"));
                        };
                        path.push(repeated.name().to_owned());
                        let child = self.node(element, path, def + 1, rep + 1)?;
                        path.pop();
                        child
                    };
                    Node::Repeated {
                        name,
                        repetition,
                        def,
                        rep,
                        child: Box::new(child),
                    }
                }
                Some(ConvertedType::Map | ConvertedType::MapKeyValue) => {
                    let [key_value] = children else {
                        return Err(shape("does not have exactly one child"));
                    };
                    if key_value.is_primitive() {
                        return Err(shape("has a leaf where its key-value group belongs"));
                    }
                    if key_value.get_basic_info().repetition_opt()
                        != Some(FieldRepetitionType::Repeated)
                    {
                        return Err(shape("has a key-value group that is not repeated"));
                    }
                    path.push(key_value.name().to_owned());
                    let node = match key_value.get_fields() {
                        [key] => {
                            let keys = self.node(key, path, def + 1, rep + 1)?;
                            Node::Repeated {
                                name,
                                repetition,
                                def,
                                rep,
                                child: Box::new(keys),
                            }
                        }
                        [key, value] => {
                            let keys = self.node(key, path, def + 1, rep + 1)?;
                            let values = self.node(value, path, def + 1, rep + 1)?;
                            Node::KeyValue {
                                name,
                                repetition,
                                def,
                                rep,
                                keys: Box::new(keys),
                                values: Box::new(values),
                            }
                        }
                        _ => return Err(shape("has a key-value group of neither 1 nor 2 fields")),
                    };
                    path.pop();
                    node
                }
                // A repeated group outside a LIST or MAP: a required list
                // of required groups.
                _ if repetition == FieldRepetitionType::Repeated => {
                    path.pop();
                    let element =
                        self.node_as(field, FieldRepetitionType::Required, path, def, rep)?;
                    return Ok(Node::Repeated {
                        name,
                        repetition,
                        def: def - 1,
                        rep: rep - 1,
                        child: Box::new(element),
                    });
                }
                _ => {
                    let mut nodes = Vec::with_capacity(children.len());
                    for child in children {
                        nodes.push(self.node(child, path, def, rep)?);
                    }
                    Node::Group {
                        name: Some(name),
                        repetition,
                        def,
                        children: nodes,
                    }
                }
            }
        };
        path.pop();
        Ok(if repetition == FieldRepetitionType::Optional {
            Node::Optional {
                def: def - 1,
                child: Box::new(node),
            }
        } else {
            node
        })
    }

    /// Open the leaf column at `path`.
    fn leaf(&mut self, path: &[String]) -> Result<usize> {
        let column = *self
            .columns
            .get(path)
            .ok_or_else(|| row_err(format!("no leaf column at {}", path.join("."))))?;
        let descr = self
            .schema
            .columns()
            .get(column)
            .ok_or_else(|| row_err(format!("no leaf column {column}")))?;
        let pages = (self.open)(column)?;
        self.leaves.push(Leaf::new(pages, descr, self.batch_size)?);
        Ok(self.leaves.len() - 1)
    }
}

/// The rows of one row group: the reader tree, its leaves and the records
/// left to read.
#[derive(Debug)]
pub(crate) struct RowGroupRows {
    root: Vec<Node>,
    leaves: Vec<Leaf>,
    records_left: usize,
}

impl RowGroupRows {
    /// The rows of `num_rows` records of the fields of `root` (the file's
    /// schema root or a projection of it), reading the leaf columns of
    /// `schema` through `open` (which gives the page reader of a leaf
    /// column by its index in `schema`).
    pub(crate) fn new(
        root: &SchemaType,
        schema: &SchemaDescriptor,
        num_rows: usize,
        batch_size: usize,
        open: impl FnMut(usize) -> Result<PageReader>,
    ) -> Result<Self> {
        let columns = schema
            .columns()
            .iter()
            .enumerate()
            .map(|(i, c)| (c.path.parts(), i))
            .collect();
        let mut builder = TreeBuilder {
            columns,
            schema,
            open,
            leaves: Vec::new(),
            batch_size: batch_size.max(1),
        };
        let mut path = Vec::new();
        let mut nodes = Vec::with_capacity(root.get_fields().len());
        for field in root.get_fields() {
            nodes.push(builder.node(field, &mut path, 0, 0)?);
        }
        let mut rows = Self {
            root: nodes,
            leaves: builder.leaves,
            records_left: num_rows,
        };
        for node in &rows.root {
            node.advance(&mut rows.leaves)?;
        }
        Ok(rows)
    }

    /// The next row, `None` once the row group's records are read.
    pub(crate) fn next_row(&mut self) -> Option<Result<Row>> {
        if self.records_left == 0 {
            return None;
        }
        self.records_left -= 1;
        let mut fields = Vec::with_capacity(self.root.len());
        for node in &self.root {
            match node.read(&mut self.leaves) {
                Ok(field) => fields.push((node.name().to_owned(), field)),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok(Row::new(fields)))
    }
}
