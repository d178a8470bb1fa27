//! [`SchemaElement`]: one node of the flattened schema.

use super::{ConvertedType, FieldRepetitionType, LogicalType, Type, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// One node of the schema tree, as stored in the footer (`SchemaElement`).
///
/// The tree is flattened depth-first: a group has `num_children` set and no
/// physical type; a leaf has a physical type. See
/// [`SchemaDescriptor`](crate::schema::SchemaDescriptor) for the tree form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SchemaElement {
    /// Physical type of a leaf (`type`, field 1); `None` for groups.
    pub physical_type: Option<Type>,
    /// Byte length of `FIXED_LEN_BYTE_ARRAY` values, field 2.
    pub type_length: Option<i32>,
    /// Repetition, field 3; the root usually has none.
    pub repetition_type: Option<FieldRepetitionType>,
    /// Field name, field 4 (required).
    pub name: String,
    /// Number of children of a group, field 5.
    pub num_children: Option<i32>,
    /// Legacy type annotation, field 6.
    pub converted_type: Option<ConvertedType>,
    /// Decimal scale (legacy), field 7.
    pub scale: Option<i32>,
    /// Decimal precision (legacy), field 8.
    pub precision: Option<i32>,
    /// Field id of the original schema, field 9.
    pub field_id: Option<i32>,
    /// Logical type annotation, field 10.
    pub logical_type: Option<LogicalType>,
    /// Number of element slots of a `VECTOR` field, field 11.
    pub vector_length: Option<i32>,
}

impl ReadThrift for SchemaElement {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "SchemaElement";
        let saved = r.begin_struct()?;
        let mut e = Self::default();
        let mut name = None;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut e.physical_type)?,
                2 => r.read_into(f, &mut e.type_length)?,
                3 => r.read_into(f, &mut e.repetition_type)?,
                4 => r.read_into(f, &mut name)?,
                5 => r.read_into(f, &mut e.num_children)?,
                6 => r.read_into(f, &mut e.converted_type)?,
                7 => r.read_into(f, &mut e.scale)?,
                8 => r.read_into(f, &mut e.precision)?,
                9 => r.read_into(f, &mut e.field_id)?,
                10 => r.read_into(f, &mut e.logical_type)?,
                11 => r.read_into(f, &mut e.vector_length)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        e.name = required(name, NAME, "name")?;
        Ok(e)
    }
}

impl WriteThrift for SchemaElement {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        if let Some(v) = &self.physical_type {
            w.field(1, v);
        }
        if let Some(v) = self.type_length {
            w.i32_field(2, v);
        }
        if let Some(v) = &self.repetition_type {
            w.field(3, v);
        }
        w.binary_field(4, self.name.as_bytes());
        if let Some(v) = self.num_children {
            w.i32_field(5, v);
        }
        if let Some(v) = &self.converted_type {
            w.field(6, v);
        }
        if let Some(v) = self.scale {
            w.i32_field(7, v);
        }
        if let Some(v) = self.precision {
            w.i32_field(8, v);
        }
        if let Some(v) = self.field_id {
            w.i32_field(9, v);
        }
        if let Some(v) = &self.logical_type {
            w.field(10, v);
        }
        if let Some(v) = self.vector_length {
            w.i32_field(11, v);
        }
        w.end_struct(saved);
    }
}
