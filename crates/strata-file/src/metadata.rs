//! Choices about how much of a file's metadata a reader loads, with
//! arrow-rs's names (`parquet::file::metadata`).
//!
//! The footer itself is strata-format's [`FileMetaData`]
//! (`strata_format::metadata`), which every reader decodes; what is
//! optional is the page index (column and offset indexes), which lives
//! outside the footer and costs a read per column chunk.
//!
//! [`FileMetaData`]: strata_format::metadata::FileMetaData

use std::sync::Arc;

use strata_format::SchemaDescriptor;
use strata_format::metadata::FileMetaData as Footer;
pub use strata_format::metadata::{
    ColumnChunk as ColumnChunkMetaData, ColumnChunkBuilder as ColumnChunkMetaDataBuilder, KeyValue,
    LevelHistogram, PageEncodingStats, ParquetMetaDataOptions, ParquetStatisticsPolicy,
    RowGroup as RowGroupMetaData, RowGroupBuilder as RowGroupMetaDataBuilder, SortingColumn,
};

mod column_chunk_mask;
mod column_index;
mod index_builders;
mod page_index;
pub mod printer;
mod push_decoder;
mod reader;

pub use column_chunk_mask::ColumnChunkMask;
pub use column_index::{
    ByteArrayColumnIndex, ColumnIndex, ColumnIndexIterators, PrimitiveColumnIndex,
};
pub use index_builders::{ColumnIndexBuilder, OffsetIndexBuilder};
pub use page_index::{
    ColumnIndexMetaData, OffsetIndexMetaData, PageIndex, PageIndexProvider, PageLocation,
    RowGroupPageIndex,
};
pub use push_decoder::ParquetMetaDataPushDecoder;
pub(crate) use reader::read_footer;
pub use reader::{FooterTail, ParquetMetaDataReader};

/// A row group's metadata, shared (arrow-rs's `RowGroupMetaDataPtr`).
pub type RowGroupMetaDataPtr = Arc<RowGroupMetaData>;

/// The file-level metadata as arrow-rs presents it
/// (`parquet::file::metadata::FileMetaData`): the decoded footer together
/// with its schema, so `schema_descr()` is at hand. It dereferences to the
/// footer (strata-format's Thrift `FileMetaData`), whose fields and
/// accessors (`num_rows()`, `created_by()`, `key_value_metadata()`, ...)
/// it shares; nothing is copied.
#[derive(Debug, Clone)]
pub struct FileMetaData {
    footer: Arc<Footer>,
    schema: Arc<SchemaDescriptor>,
}

impl FileMetaData {
    /// File metadata of a schema, with no row groups (arrow-rs's
    /// `FileMetaData::new`; the row groups are the
    /// [`ParquetMetaDataBuilder`]'s).
    pub fn new(
        version: i32,
        num_rows: i64,
        created_by: Option<String>,
        key_value_metadata: Option<Vec<KeyValue>>,
        schema_descr: Arc<SchemaDescriptor>,
        column_orders: Option<Vec<strata_format::metadata::ColumnOrder>>,
    ) -> Self {
        let footer = Footer {
            version,
            schema: schema_descr.to_elements(),
            num_rows,
            row_groups: Vec::new(),
            key_value_metadata,
            created_by,
            column_orders,
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        Self {
            footer: Arc::new(footer),
            schema: schema_descr,
        }
    }

    /// The Parquet schema.
    pub fn schema_descr(&self) -> &SchemaDescriptor {
        &self.schema
    }

    /// The Parquet schema, shared.
    pub fn schema_descr_ptr(&self) -> Arc<SchemaDescriptor> {
        Arc::clone(&self.schema)
    }

    /// The schema's root group (arrow-rs's `FileMetaData::schema`), what
    /// [`printer::print_schema`] prints.
    pub fn schema(&self) -> &strata_format::schema::Type {
        self.schema.root_schema()
    }

    /// The decoded footer.
    pub fn footer(&self) -> &Footer {
        &self.footer
    }
}

impl std::ops::Deref for FileMetaData {
    type Target = Footer;

    fn deref(&self) -> &Footer {
        &self.footer
    }
}

/// A file's metadata: the decoded footer and its schema tree, both shared
/// (`Arc`) by the readers of one file. arrow-rs's accessors read it:
/// `file_metadata().num_rows()`, `row_group(i).num_rows()`,
/// `row_group(i).column(j).compressed_size()`; the row group and column
/// chunk types are strata-format's Thrift structs
/// ([`RowGroupMetaData`], [`ColumnChunkMetaData`]), with public fields
/// beside those accessors.
///
/// ```
/// use std::sync::Arc;
/// use strata_file::metadata::{ParquetMetaData, RowGroupMetaData};
/// use strata_format::SchemaDescriptor;
/// use strata_format::metadata::{FileMetaData, SchemaElement};
///
/// let schema = SchemaDescriptor::from_elements(&[SchemaElement {
///     name: "empty".into(),
///     num_children: Some(0),
///     ..Default::default()
/// }])
/// .unwrap();
/// let footer = FileMetaData {
///     num_rows: 3,
///     row_groups: vec![RowGroupMetaData { num_rows: 3, ..Default::default() }],
///     ..Default::default()
/// };
/// let metadata = ParquetMetaData::from_footer(Arc::new(footer), Arc::new(schema));
/// assert_eq!(metadata.file_metadata().num_rows(), 3);
/// assert_eq!(metadata.file_metadata().schema_descr().num_columns(), 0);
/// assert_eq!(metadata.num_row_groups(), 1);
/// assert_eq!(metadata.row_group(0).num_rows(), 3);
/// assert!(metadata.row_groups().get(1).is_none());
/// ```
#[derive(Debug, Clone)]
pub struct ParquetMetaData {
    file: FileMetaData,
    page_index: Option<Arc<dyn PageIndexProvider>>,
    /// What decrypts the pages of an encrypted file read with keys.
    #[cfg(feature = "encryption")]
    decryptor: Option<Arc<crate::encryption::FileDecryptor>>,
}

/// Point the footer's row groups and chunks at the schema and its
/// leaves, give a chunk written without its path the schema's, and fill
/// in the sort order of its `TYPE_ORDER` column orders.
/// Chunks past the schema's leaves (a malformed footer) keep `None`.
fn pair_with_schema(footer: &mut Footer, schema: &Arc<SchemaDescriptor>) {
    let columns = schema.columns();
    if let Some(orders) = &mut footer.column_orders {
        for (order, column) in orders.iter_mut().zip(columns) {
            *order = order.with_types(
                column.logical_type_ref(),
                column.converted_type(),
                column.physical_type(),
            );
        }
    }
    for row_group in &mut footer.row_groups {
        row_group.schema_descr = Some(Arc::clone(schema));
        for (chunk, column) in row_group.columns.iter_mut().zip(columns) {
            chunk.column_descr = Some(Arc::clone(column));
            // A chunk written without its path takes the schema's.
            if let Some(meta) = &mut chunk.meta_data
                && meta.path_in_schema.is_empty()
            {
                meta.path_in_schema = column.path().clone();
            }
        }
    }
}

impl ParquetMetaData {
    /// The metadata of a decoded footer and the schema built from it.
    ///
    /// The footer is paired with the schema here: each row group and
    /// column chunk gets its `schema_descr` / `column_descr` (arrow-rs's
    /// accessors), and each `TYPE_ORDER` column order the sort order of
    /// its leaf's types. A footer shared elsewhere is copied first.
    pub fn from_footer(mut footer: Arc<Footer>, schema: Arc<SchemaDescriptor>) -> Self {
        pair_with_schema(Arc::make_mut(&mut footer), &schema);
        Self {
            file: FileMetaData { footer, schema },
            page_index: None,
            #[cfg(feature = "encryption")]
            decryptor: None,
        }
    }

    /// What decrypts the column chunks of an encrypted file, when it was
    /// read with keys
    /// ([`ParquetMetaDataReader::with_decryption_keys`]).
    #[cfg(feature = "encryption")]
    pub fn file_decryptor(&self) -> Option<&Arc<crate::encryption::FileDecryptor>> {
        self.decryptor.as_ref()
    }

    /// Attach (or drop) the decryptor of an encrypted file.
    #[cfg(feature = "encryption")]
    pub fn set_decryptor(&mut self, decryptor: Option<Arc<crate::encryption::FileDecryptor>>) {
        self.decryptor = decryptor;
    }

    /// The page index, where it was loaded (see
    /// [`ParquetMetaDataReader::with_page_index_policy`]).
    pub fn page_index(&self) -> Option<&Arc<dyn PageIndexProvider>> {
        self.page_index.as_ref()
    }

    /// The page index of row group `row_group_idx` (answers `None` when
    /// none was loaded).
    pub fn page_index_for_row_group(&self, row_group_idx: usize) -> RowGroupPageIndex {
        RowGroupPageIndex::new(row_group_idx, self.page_index.clone())
    }

    /// Attach (or drop) a page index.
    pub fn set_page_index(&mut self, page_index: Option<Arc<dyn PageIndexProvider>>) {
        self.page_index = page_index;
    }

    /// The file-level metadata: the footer and its schema.
    pub fn file_metadata(&self) -> &FileMetaData {
        &self.file
    }

    /// The decoded footer, shared.
    pub fn shared_footer(&self) -> &Arc<Footer> {
        &self.file.footer
    }

    /// The Parquet schema.
    pub fn schema_descr(&self) -> &SchemaDescriptor {
        &self.file.schema
    }

    /// The Parquet schema, shared.
    pub fn shared_schema(&self) -> &Arc<SchemaDescriptor> {
        &self.file.schema
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.file.row_groups.len()
    }

    /// Row group `i`.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`num_row_groups`](Self::num_row_groups), as
    /// arrow-rs's does (`row_groups().get(i)` does not).
    pub fn row_group(&self, i: usize) -> &RowGroupMetaData {
        &self.file.row_groups[i]
    }

    /// All row groups.
    pub fn row_groups(&self) -> &[RowGroupMetaData] {
        &self.file.row_groups
    }
}

/// Whether a reader loads a page index (the column index or the offset
/// index of each column chunk).
///
/// ```
/// use strata_file::metadata::PageIndexPolicy;
///
/// assert_eq!(PageIndexPolicy::default(), PageIndexPolicy::Skip);
/// assert_eq!(PageIndexPolicy::from(true), PageIndexPolicy::Required);
/// assert!(PageIndexPolicy::Optional.loads());
/// assert!(!PageIndexPolicy::Skip.loads());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageIndexPolicy {
    /// Do not load it.
    #[default]
    Skip,
    /// Load it where the file has one.
    Optional,
    /// Load it; a file without one is still read (as arrow-rs does), a
    /// page index that cannot be decoded is an error.
    Required,
}

impl PageIndexPolicy {
    /// Whether the index is loaded at all.
    pub fn loads(self) -> bool {
        self != Self::Skip
    }
}

impl From<bool> for PageIndexPolicy {
    /// `true` is [`Required`](Self::Required), `false`
    /// [`Skip`](Self::Skip).
    fn from(load: bool) -> Self {
        if load { Self::Required } else { Self::Skip }
    }
}

/// A file of one required column `x` of `physical` type, a row group per
/// entry of `row_groups`: the input of the metadata readers' tests.
#[cfg(test)]
fn one_column_file<T: crate::writer::ColumnValue>(
    physical: strata_format::metadata::Type,
    row_groups: &[&[T::Value]],
) -> bytes::Bytes {
    use crate::properties::WriterProperties;
    use crate::writer::FileWriter;
    use strata_format::metadata::{FieldRepetitionType, SchemaElement};

    let schema = Arc::new(
        SchemaDescriptor::from_elements(&[
            SchemaElement {
                name: "schema".into(),
                num_children: Some(1),
                ..Default::default()
            },
            SchemaElement {
                name: "x".into(),
                physical_type: Some(physical),
                repetition_type: Some(FieldRepetitionType::Required),
                ..Default::default()
            },
        ])
        .unwrap(),
    );
    let mut out = Vec::new();
    let mut writer =
        FileWriter::new(&mut out, schema, Arc::new(WriterProperties::default())).unwrap();
    for values in row_groups {
        let mut rg = writer.next_row_group().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<T>()
            .unwrap()
            .write_batch(values, None, None)
            .unwrap();
        rg.append_column(col.close().unwrap()).unwrap();
        rg.close().unwrap();
    }
    writer.close().unwrap();
    bytes::Bytes::from(out)
}

/// Builds a [`ParquetMetaData`] from file metadata, row groups and a page
/// index, as arrow-rs's `ParquetMetaDataBuilder` does: to make metadata
/// without a file, or to change the row groups of metadata read.
///
/// ```
/// use std::sync::Arc;
/// use strata_file::metadata::{
///     ColumnChunkMetaData, FileMetaData, ParquetMetaDataBuilder, RowGroupMetaData,
/// };
/// use strata_format::SchemaDescriptor;
/// use strata_format::metadata::{FieldRepetitionType, SchemaElement, Type};
///
/// let schema = Arc::new(SchemaDescriptor::from_elements(&[
///     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
///     SchemaElement {
///         name: "x".into(),
///         physical_type: Some(Type::INT32),
///         repetition_type: Some(FieldRepetitionType::OPTIONAL),
///         ..Default::default()
///     },
/// ])?);
/// let group = |rows| {
///     RowGroupMetaData::builder(Arc::clone(&schema))
///         .set_num_rows(rows)
///         .add_column_metadata(ColumnChunkMetaData::builder(schema.column(0)).build().unwrap())
///         .build()
///         .unwrap()
/// };
/// let file = FileMetaData::new(2, 30, None, None, Arc::clone(&schema), None);
/// let metadata = ParquetMetaDataBuilder::new(file)
///     .add_row_group(group(10))
///     .add_row_group(group(20))
///     .build();
/// assert_eq!(metadata.num_row_groups(), 2);
/// assert_eq!(metadata.row_group(1).num_rows(), 20);
/// assert_eq!(metadata.row_group(0).column(0).column_descr().name(), "x");
/// // Keep the second row group only.
/// let mut builder = ParquetMetaDataBuilder::new_from_metadata(metadata);
/// let kept = builder.take_row_groups().split_off(1);
/// assert_eq!(builder.set_row_groups(kept).build().row_group(0).num_rows(), 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ParquetMetaDataBuilder {
    file: FileMetaData,
    row_groups: Vec<RowGroupMetaData>,
    page_index: Option<Arc<dyn PageIndexProvider>>,
    /// The decryptor of metadata read from an encrypted file, kept.
    #[cfg(feature = "encryption")]
    decryptor: Option<Arc<crate::encryption::FileDecryptor>>,
}

impl ParquetMetaDataBuilder {
    /// A builder of metadata with `file_meta_data` and no row groups.
    pub fn new(file_meta_data: FileMetaData) -> Self {
        Self {
            file: file_meta_data,
            row_groups: Vec::new(),
            page_index: None,
            #[cfg(feature = "encryption")]
            decryptor: None,
        }
    }

    /// A builder starting from `metadata`: its row groups and page index.
    pub fn new_from_metadata(metadata: ParquetMetaData) -> Self {
        let row_groups = metadata.row_groups().to_vec();
        Self {
            page_index: metadata.page_index().cloned(),
            row_groups,
            #[cfg(feature = "encryption")]
            decryptor: metadata.decryptor.clone(),
            file: metadata.file,
        }
    }

    /// Add a row group.
    pub fn add_row_group(mut self, row_group: RowGroupMetaData) -> Self {
        self.row_groups.push(row_group);
        self
    }

    /// Replace the row groups.
    pub fn set_row_groups(mut self, row_groups: Vec<RowGroupMetaData>) -> Self {
        self.row_groups = row_groups;
        self
    }

    /// Take the row groups, leaving none.
    pub fn take_row_groups(&mut self) -> Vec<RowGroupMetaData> {
        std::mem::take(&mut self.row_groups)
    }

    /// The row groups so far.
    pub fn row_groups(&self) -> &[RowGroupMetaData] {
        &self.row_groups
    }

    /// Set (or drop) the page index.
    pub fn set_page_index(mut self, page_index: Option<Arc<dyn PageIndexProvider>>) -> Self {
        self.page_index = page_index;
        self
    }

    /// Take the page index, leaving none.
    pub fn take_page_index(&mut self) -> Option<Arc<dyn PageIndexProvider>> {
        self.page_index.take()
    }

    /// The page index so far.
    pub fn page_index(&self) -> Option<&dyn PageIndexProvider> {
        self.page_index.as_deref()
    }

    /// The metadata: the file metadata's footer with these row groups.
    pub fn build(self) -> ParquetMetaData {
        let mut footer = Arc::unwrap_or_clone(self.file.footer);
        footer.row_groups = self.row_groups;
        let mut metadata = ParquetMetaData::from_footer(Arc::new(footer), self.file.schema);
        metadata.set_page_index(self.page_index);
        #[cfg(feature = "encryption")]
        metadata.set_decryptor(self.decryptor);
        metadata
    }
}
