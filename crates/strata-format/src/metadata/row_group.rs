//! [`RowGroup`] and [`SortingColumn`].

use super::{ColumnChunk, required};
use crate::error::Result;
use crate::schema::{SchemaDescPtr, SchemaDescriptor};
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Sort order of one column within a row group (`SortingColumn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SortingColumn {
    /// Index of the leaf column, field 1.
    pub column_idx: i32,
    /// Whether the order is descending, field 2.
    pub descending: bool,
    /// Whether nulls come first, field 3.
    pub nulls_first: bool,
}

impl ReadThrift for SortingColumn {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "SortingColumn";
        let saved = r.begin_struct()?;
        let (mut column_idx, mut descending, mut nulls_first) = (None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut column_idx)?,
                2 => r.bool_into(f, &mut descending)?,
                3 => r.bool_into(f, &mut nulls_first)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            column_idx: required(column_idx, NAME, "column_idx")?,
            descending: required(descending, NAME, "descending")?,
            nulls_first: required(nulls_first, NAME, "nulls_first")?,
        })
    }
}

impl WriteThrift for SortingColumn {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i32_field(1, self.column_idx);
        w.bool_field(2, self.descending);
        w.bool_field(3, self.nulls_first);
        w.end_struct(saved);
    }
}

/// One row group (`RowGroup`). Row groups compare equal when their wire
/// fields are ([`schema_descr`](Self::schema_descr) does not count).
#[derive(Debug, Clone, Default)]
pub struct RowGroup {
    /// Column chunks in schema leaf order, field 1.
    pub columns: Vec<ColumnChunk>,
    /// Uncompressed size of all column data, field 2.
    pub total_byte_size: i64,
    /// Number of rows, field 3.
    pub num_rows: i64,
    /// Sort order of the rows, field 4.
    pub sorting_columns: Option<Vec<SortingColumn>>,
    /// File offset of the first page, field 5.
    pub file_offset: Option<i64>,
    /// Compressed size of all column data, field 6.
    pub total_compressed_size: Option<i64>,
    /// Ordinal of the row group in the file, field 7.
    pub ordinal: Option<i16>,
    /// The file's schema. Not part of the wire form: the file layer sets
    /// it when it pairs a decoded footer with its schema, as it sets each
    /// chunk's [`column_descr`](ColumnChunk::column_descr).
    pub schema_descr: Option<SchemaDescPtr>,
}

impl PartialEq for RowGroup {
    fn eq(&self, other: &Self) -> bool {
        self.columns == other.columns
            && self.total_byte_size == other.total_byte_size
            && self.num_rows == other.num_rows
            && self.sorting_columns == other.sorting_columns
            && self.file_offset == other.file_offset
            && self.total_compressed_size == other.total_compressed_size
            && self.ordinal == other.ordinal
    }
}

/// arrow-rs's accessors (`parquet::file::metadata::RowGroupMetaData`),
/// beside the public fields they read.
///
/// ```
/// use strata_format::metadata::{ColumnChunk, ColumnMetaData, CompressionCodec, RowGroup, Type};
///
/// let chunk = |size| ColumnChunk {
///     meta_data: Some(ColumnMetaData {
///         physical_type: Type::INT32,
///         encodings: Default::default(),
///         path_in_schema: vec!["x".to_string()].into(),
///         codec: CompressionCodec::Snappy,
///         num_values: 5,
///         total_uncompressed_size: size,
///         total_compressed_size: size,
///         data_page_offset: 4,
///         dictionary_page_offset: None,
///         statistics: None,
///         encoding_stats: None,
///         size_statistics: None,
///         extras: None,
///     }),
///     ..Default::default()
/// };
/// let group = RowGroup { num_rows: 5, columns: vec![chunk(10), chunk(32)], ..Default::default() };
/// assert_eq!((group.num_rows(), group.num_columns()), (5, 2));
/// assert_eq!(group.column(1).compressed_size(), 32);
/// // Without the optional total, the columns' sizes summed.
/// assert_eq!(group.compressed_size(), 42);
/// ```
impl RowGroup {
    /// Rows in the row group.
    pub fn num_rows(&self) -> i64 {
        self.num_rows
    }

    /// The file's schema.
    ///
    /// # Panics
    ///
    /// When the row group is not paired with a schema
    /// ([`schema_descr`](Self::schema_descr) field `None`): row groups of
    /// a file's metadata always are.
    #[allow(clippy::panic)]
    pub fn schema_descr(&self) -> &SchemaDescriptor {
        match &self.schema_descr {
            Some(schema) => schema,
            None => panic!("row group not paired with a schema"),
        }
    }

    /// The file's schema, shared (panics as
    /// [`schema_descr`](Self::schema_descr) does).
    #[allow(clippy::panic)]
    pub fn schema_descr_ptr(&self) -> SchemaDescPtr {
        match &self.schema_descr {
            Some(schema) => std::sync::Arc::clone(schema),
            None => panic!("row group not paired with a schema"),
        }
    }

    /// Column chunks in the row group.
    pub fn num_columns(&self) -> usize {
        self.columns.len()
    }

    /// Column chunk `i`.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`num_columns`](Self::num_columns), as
    /// arrow-rs's does (`columns().get(i)` does not).
    pub fn column(&self, i: usize) -> &ColumnChunk {
        &self.columns[i]
    }

    /// The column chunks.
    pub fn columns(&self) -> &[ColumnChunk] {
        &self.columns
    }

    /// Uncompressed bytes of the row group's column data.
    pub fn total_byte_size(&self) -> i64 {
        self.total_byte_size
    }

    /// Stored bytes of the row group's column data: the footer's total
    /// when it has one, else the sum of its columns'.
    pub fn compressed_size(&self) -> i64 {
        self.total_compressed_size
            .unwrap_or_else(|| self.columns.iter().map(ColumnChunk::compressed_size).sum())
    }

    /// The order the rows are sorted in.
    pub fn sorting_columns(&self) -> Option<&Vec<SortingColumn>> {
        self.sorting_columns.as_ref()
    }

    /// Offset of the row group's first page.
    pub fn file_offset(&self) -> Option<i64> {
        self.file_offset
    }

    /// The row group's position in the file.
    pub fn ordinal(&self) -> Option<i16> {
        self.ordinal
    }
}

impl ReadThrift for RowGroup {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "RowGroup";
        let saved = r.begin_struct()?;
        let mut columns = None;
        let mut total_byte_size = None;
        let mut num_rows = None;
        let mut g = Self::default();
        r.start_row_group();
        while let Some(f) = r.next_field()? {
            match f.id {
                1 if f.ty.same_kind(FieldType::List) => {
                    let mut column = 0;
                    columns = Some(r.read_list_in_place(|chunk: &mut ColumnChunk, r| {
                        r.start_column(column);
                        column += 1;
                        chunk.read_in_place(r)
                    })?);
                }
                2 => r.read_into(f, &mut total_byte_size)?,
                3 => r.read_into(f, &mut num_rows)?,
                4 => r.read_into(f, &mut g.sorting_columns)?,
                5 => r.read_into(f, &mut g.file_offset)?,
                6 => r.read_into(f, &mut g.total_compressed_size)?,
                7 => r.read_into(f, &mut g.ordinal)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        g.columns = required(columns, NAME, "columns")?;
        g.total_byte_size = required(total_byte_size, NAME, "total_byte_size")?;
        g.num_rows = required(num_rows, NAME, "num_rows")?;
        Ok(g)
    }
}

impl WriteThrift for RowGroup {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.columns);
        w.i64_field(2, self.total_byte_size);
        w.i64_field(3, self.num_rows);
        if let Some(v) = &self.sorting_columns {
            w.field(4, v);
        }
        if let Some(v) = self.file_offset {
            w.i64_field(5, v);
        }
        if let Some(v) = self.total_compressed_size {
            w.i64_field(6, v);
        }
        if let Some(v) = self.ordinal {
            w.i16_field(7, v);
        }
        w.end_struct(saved);
    }
}

/// Builds a [`RowGroup`] of a schema, as arrow-rs's
/// `RowGroupMetaData::builder` does: for tests, catalogs and tools that
/// make or rewrite metadata without a file.
///
/// ```
/// use std::sync::Arc;
/// use strata_format::SchemaDescriptor;
/// use strata_format::metadata::{ColumnChunk, FieldRepetitionType, RowGroup, SchemaElement, Type};
///
/// let schema = Arc::new(SchemaDescriptor::from_elements(&[
///     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
///     SchemaElement {
///         name: "id".into(),
///         physical_type: Some(Type::INT64),
///         repetition_type: Some(FieldRepetitionType::REQUIRED),
///         ..Default::default()
///     },
/// ])?);
/// let chunk = ColumnChunk::builder(schema.column(0)).set_num_values(3).build()?;
/// let group = RowGroup::builder(Arc::clone(&schema))
///     .set_num_rows(3)
///     .add_column_metadata(chunk)
///     .set_ordinal(0)
///     .build()?;
/// assert_eq!((group.num_rows(), group.column(0).num_values()), (3, 3));
/// assert_eq!(group.column(0).column_descr().name(), "id");
/// // A row group must have a chunk per leaf.
/// assert!(RowGroup::builder(schema).build().is_err());
/// # Ok::<(), strata_format::FormatError>(())
/// ```
#[derive(Debug, Clone)]
pub struct RowGroupBuilder(RowGroup);

impl RowGroup {
    /// A builder of a row group of `schema_descr`.
    pub fn builder(schema_descr: SchemaDescPtr) -> RowGroupBuilder {
        RowGroupBuilder(RowGroup {
            schema_descr: Some(schema_descr),
            ..Default::default()
        })
    }
}

impl RowGroupBuilder {
    /// The rows.
    pub fn set_num_rows(mut self, value: i64) -> Self {
        self.0.num_rows = value;
        self
    }

    /// The order the rows are sorted in.
    pub fn set_sorting_columns(mut self, value: Option<Vec<SortingColumn>>) -> Self {
        self.0.sorting_columns = value;
        self
    }

    /// The uncompressed bytes of the column data.
    pub fn set_total_byte_size(mut self, value: i64) -> Self {
        self.0.total_byte_size = value;
        self
    }

    /// Take the chunks given so far.
    pub fn take_columns(&mut self) -> Vec<ColumnChunk> {
        std::mem::take(&mut self.0.columns)
    }

    /// The chunks, one per leaf, in schema order.
    pub fn set_column_metadata(mut self, value: Vec<ColumnChunk>) -> Self {
        self.0.columns = value;
        self
    }

    /// The next chunk.
    pub fn add_column_metadata(mut self, value: ColumnChunk) -> Self {
        self.0.columns.push(value);
        self
    }

    /// The row group's position in the file (as arrow-rs, an `i32`; one
    /// past `i16` is not stored).
    pub fn set_ordinal(mut self, value: i32) -> Self {
        self.0.ordinal = i16::try_from(value).ok();
        self
    }

    /// The offset of the row group's first page.
    pub fn set_file_offset(mut self, value: i64) -> Self {
        self.0.file_offset = Some(value);
        self
    }

    /// The row group; an error when it has not one chunk per leaf of its
    /// schema. Chunks built without a descriptor get their leaf's.
    pub fn build(mut self) -> crate::error::Result<RowGroup> {
        let Some(schema) = self.0.schema_descr.clone() else {
            return Err(crate::error::FormatError::General(
                "a row group without a schema".into(),
            ));
        };
        if schema.num_columns() != self.0.columns.len() {
            return Err(crate::error::FormatError::General(format!(
                "a row group of {} leaves has {} column chunks",
                schema.num_columns(),
                self.0.columns.len()
            )));
        }
        for (chunk, column) in self.0.columns.iter_mut().zip(schema.columns()) {
            chunk
                .column_descr
                .get_or_insert_with(|| std::sync::Arc::clone(column));
        }
        Ok(self.0)
    }
}
