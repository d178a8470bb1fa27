//! Reading Parquet into Arrow [`RecordBatch`]es:
//! [`ParquetRecordBatchReaderBuilder`] and [`ParquetRecordBatchReader`],
//! with the names and signatures of arrow-rs's `parquet::arrow::arrow_reader`.
//!
//! The builder opens the file (footer, schema, embedded Arrow schema),
//! takes the options (batch size, projection, row groups, row selection,
//! limit and offset) and builds a reader that is an `Iterator` of
//! `Result<RecordBatch, ArrowError>` and a [`RecordBatchReader`].
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
//! use bytes::Bytes;
//! use strata_arrow::ArrowWriter;
//! use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
//!
//! let ids: ArrayRef = Arc::new(Int64Array::from(vec![1, 2, 3]));
//! let names: ArrayRef = Arc::new(StringArray::from(vec![Some("a"), None, Some("c")]));
//! let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
//!
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
//! writer.write(&batch).unwrap();
//! writer.close().unwrap();
//!
//! let reader = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(file))
//!     .unwrap()
//!     .with_batch_size(1024)
//!     .build()
//!     .unwrap();
//! let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
//! assert_eq!(batches, vec![batch]);
//! ```

use std::ops::Range;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, FieldRef, Schema, SchemaRef};
use bytes::Bytes;
use strata_file::DecodeResult;
use strata_file::bloom::{BloomFilterFetch, BloomFilterStep, Sbbf};
use strata_file::chunk_reader::ChunkReader;
use strata_file::push_buffers::PushBuffers;
use strata_format::SchemaDescriptor;

use crate::error::{ParquetError, Result, general};
use crate::push_decoder::{ParquetPushDecoder, ReadState};
use crate::schema::{HintRule, build_arrow_schema, embedded_arrow_schema, written_by_strata};
use crate::virtual_columns::VirtualColumn;

mod filter;
pub(crate) mod selection;
pub use filter::{ArrowPredicate, ArrowPredicateFn, RowFilter, RowSelectionPolicy};
pub mod statistics;
pub use selection::{RowGroupSelection, RowSelection, RowSelector};
use strata_file::metadata::{
    ColumnChunkMask, ParquetMetaDataOptions, ParquetMetaDataReader, ParquetStatisticsPolicy,
};
pub use strata_file::metadata::{PageIndexPolicy, ParquetMetaData};

/// Default number of rows per batch (as arrow-rs).
const DEFAULT_BATCH_SIZE: usize = 1024;

/// Default bound of the arrays a row group keeps from its predicates for
/// its output (as arrow-rs).
const DEFAULT_PREDICATE_CACHE_SIZE: usize = 100 << 20;

pub use strata_file::projection::ProjectionMask;

/// Options for opening a file: an Arrow schema to read as, whether to use
/// the embedded Arrow schema, whether to load the page index.
#[derive(Debug, Clone, Default)]
pub struct ArrowReaderOptions {
    skip_arrow_metadata: bool,
    supplied_schema: Option<SchemaRef>,
    column_index: PageIndexPolicy,
    offset_index: PageIndexPolicy,
    /// The chunks whose column index is loaded, when the policy loads any.
    column_index_mask: ColumnChunkMask,
    /// The chunks whose offset index is loaded, when the policy loads any.
    offset_index_mask: ColumnChunkMask,
    metadata_options: ParquetMetaDataOptions,
    /// Virtual columns appended to every batch (see
    /// [`with_virtual_columns`](Self::with_virtual_columns)).
    virtual_columns: Vec<FieldRef>,
    #[cfg(feature = "encryption")]
    decryption: Option<Arc<crate::encryption::decrypt::FileDecryptionProperties>>,
}

impl ArrowReaderOptions {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decrypt an encrypted file with `file_decryption_properties` (the
    /// `encryption` feature): its footer, column metadata and pages.
    #[cfg(feature = "encryption")]
    pub fn with_file_decryption_properties(
        mut self,
        file_decryption_properties: Arc<crate::encryption::decrypt::FileDecryptionProperties>,
    ) -> Self {
        self.decryption = Some(file_decryption_properties);
        self
    }

    /// The decryption properties given, if any.
    #[cfg(feature = "encryption")]
    pub fn file_decryption_properties(
        &self,
    ) -> Option<&Arc<crate::encryption::decrypt::FileDecryptionProperties>> {
        self.decryption.as_ref()
    }

    /// Ignore the `ARROW:schema` the file carries and read the Parquet
    /// schema's own types.
    pub fn with_skip_arrow_metadata(mut self, skip_arrow_metadata: bool) -> Self {
        self.skip_arrow_metadata = skip_arrow_metadata;
        self
    }

    /// Read as this Arrow schema (same fields and nesting as the file, with
    /// types its data can be read as, for example `LargeUtf8` or
    /// `Dictionary(Int32, Utf8)` for a string column). Takes precedence
    /// over the embedded Arrow schema.
    ///
    /// A string column read as a dictionary: where the file has a
    /// dictionary, each batch's values are that column chunk's dictionary
    /// (shared by its batches, entries a batch does not use included).
    /// Pages without one (a chunk written PLAIN, or the pages after its
    /// dictionary overflowed) are keyed per batch, equal values under equal
    /// keys: when more than half of a batch's values are distinct its
    /// dictionary is the batch's own values, each key the position of the
    /// value's first occurrence; otherwise it is the batch's distinct
    /// values in order of first appearance.
    pub fn with_schema(mut self, schema: SchemaRef) -> Self {
        self.supplied_schema = Some(schema);
        self
    }

    /// Whether to load the page index, both column and offset indexes.
    /// A row selection reads the offset index of the chunks it skips
    /// within whatever the policy.
    pub fn with_page_index_policy(self, policy: PageIndexPolicy) -> Self {
        self.with_column_index_policy(policy)
            .with_offset_index_policy(policy)
    }

    /// Whether to load the column indexes.
    pub fn with_column_index_policy(mut self, policy: PageIndexPolicy) -> Self {
        self.column_index = policy;
        self
    }

    /// Whether to load the offset indexes.
    pub fn with_offset_index_policy(mut self, policy: PageIndexPolicy) -> Self {
        self.offset_index = policy;
        self
    }

    /// The column index policy.
    pub fn column_index_policy(&self) -> PageIndexPolicy {
        self.column_index
    }

    /// The offset index policy.
    pub fn offset_index_policy(&self) -> PageIndexPolicy {
        self.offset_index
    }

    /// Load the column and offset indexes of the chunks in `mask` only
    /// (see [`with_column_index_mask`](Self::with_column_index_mask)).
    pub fn with_page_index_mask(self, mask: ColumnChunkMask) -> Self {
        self.with_column_index_mask(mask.clone())
            .with_offset_index_mask(mask)
    }

    /// Load the column index of the chunks in `mask` only, where the
    /// column index policy loads any: the other chunks' column indexes are
    /// neither fetched nor decoded and read as absent. Every chunk by
    /// default. Honoured where the options load the footer
    /// ([`ArrowReaderMetadata::load`], the builders' `try_new_with_options`,
    /// the async builders); [`ArrowReaderMetadata::try_new`] takes the
    /// metadata as it was read.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, Int32Array, RecordBatch};
    /// use bytes::Bytes;
    /// use strata_arrow::ArrowWriter;
    /// use strata_arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, PageIndexPolicy};
    /// use strata_file::metadata::ColumnChunkMask;
    ///
    /// let column = Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef;
    /// let batch = RecordBatch::try_from_iter([("a", column.clone()), ("b", column)]).unwrap();
    /// let mut file = Vec::new();
    /// let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
    /// writer.write(&batch).unwrap();
    /// writer.close().unwrap();
    ///
    /// let options = ArrowReaderOptions::new()
    ///     .with_page_index_policy(PageIndexPolicy::Required)
    ///     .with_column_index_mask(ColumnChunkMask::columns([1]));
    /// assert_eq!(options.column_index_mask(), &ColumnChunkMask::columns([1]));
    /// let metadata = ArrowReaderMetadata::load(&Bytes::from(file), options).unwrap();
    /// let index = metadata.metadata().page_index().unwrap();
    /// assert!(index.column_index(0, 0).is_none() && index.column_index(0, 1).is_some());
    /// // The offset indexes were not masked.
    /// assert!(index.offset_index(0, 0).is_some() && index.offset_index(0, 1).is_some());
    /// ```
    pub fn with_column_index_mask(mut self, mask: ColumnChunkMask) -> Self {
        self.column_index_mask = mask;
        self
    }

    /// Load the offset index of the chunks in `mask` only, where the offset
    /// index policy loads any (as
    /// [`with_column_index_mask`](Self::with_column_index_mask)). A page
    /// filter needs the offset indexes of the columns it tests as well as
    /// of those it reads.
    pub fn with_offset_index_mask(mut self, mask: ColumnChunkMask) -> Self {
        self.offset_index_mask = mask;
        self
    }

    /// The chunks whose column index is loaded.
    pub fn column_index_mask(&self) -> &ColumnChunkMask {
        &self.column_index_mask
    }

    /// The chunks whose offset index is loaded.
    pub fn offset_index_mask(&self) -> &ColumnChunkMask {
        &self.offset_index_mask
    }

    /// Load the page index: `with_page_index_policy(true.into())`, the
    /// spelling of arrow-rs before its policies.
    pub fn with_page_index(self, page_index: bool) -> Self {
        self.with_page_index_policy(PageIndexPolicy::from(page_index))
    }

    /// Whether any page index is loaded.
    pub fn page_index(&self) -> bool {
        self.column_index.loads() || self.offset_index.loads()
    }

    /// Use this Parquet schema instead of decoding the footer's (for the
    /// files of a dataset that share one).
    pub fn with_parquet_schema(mut self, schema: Arc<SchemaDescriptor>) -> Self {
        self.metadata_options.set_schema(schema);
        self
    }

    /// See [`ParquetMetaDataOptions::set_encoding_stats_as_mask`].
    pub fn with_encoding_stats_as_mask(mut self, as_mask: bool) -> Self {
        self.metadata_options.set_encoding_stats_as_mask(as_mask);
        self
    }

    /// Which columns' page encoding counts the footer decode keeps.
    pub fn with_encoding_stats_policy(mut self, policy: ParquetStatisticsPolicy) -> Self {
        self.metadata_options.set_encoding_stats_policy(policy);
        self
    }

    /// Which columns' chunk statistics (min/max, null count) the footer
    /// decode keeps. A reader of a few columns of a wide file skips the
    /// others': `ParquetStatisticsPolicy::skip_except(&leaves)`.
    pub fn with_column_stats_policy(mut self, policy: ParquetStatisticsPolicy) -> Self {
        self.metadata_options.set_column_stats_policy(policy);
        self
    }

    /// Which columns' size statistics the footer decode keeps.
    pub fn with_size_stats_policy(mut self, policy: ParquetStatisticsPolicy) -> Self {
        self.metadata_options.set_size_stats_policy(policy);
        self
    }

    /// The footer decode's options.
    pub fn metadata_options(&self) -> &ParquetMetaDataOptions {
        &self.metadata_options
    }

    /// Append these virtual columns to every batch, after the columns
    /// read, whatever the projection: `Int64` fields with the extension
    /// type [`RowNumber`](crate::RowNumber) (each row's position in the
    /// file) or [`RowGroupIndex`](crate::RowGroupIndex) (its row group's);
    /// see [`virtual_columns`](crate::virtual_columns). A field that is
    /// neither is an error.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_schema::{DataType, Field};
    /// use strata_arrow::RowNumber;
    /// use strata_arrow::arrow_reader::ArrowReaderOptions;
    ///
    /// let row = Field::new("row", DataType::Int64, false).with_extension_type(RowNumber);
    /// assert!(ArrowReaderOptions::new().with_virtual_columns(vec![Arc::new(row)]).is_ok());
    /// let plain = Field::new("row", DataType::Int64, false);
    /// assert!(ArrowReaderOptions::new().with_virtual_columns(vec![Arc::new(plain)]).is_err());
    /// ```
    pub fn with_virtual_columns(mut self, virtual_columns: Vec<FieldRef>) -> Result<Self> {
        for field in &virtual_columns {
            VirtualColumn::of(field)?;
        }
        self.virtual_columns = virtual_columns;
        Ok(self)
    }
}

/// A file's metadata and its Arrow schema, read once
/// ([`load`](Self::load)) and used to open several readers of the same
/// file ([`ParquetRecordBatchReaderBuilder::new_with_metadata`]) without
/// reading the footer again.
///
/// ```
/// # use std::sync::Arc;
/// # use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// # use strata_arrow::ArrowWriter;
/// # let batch = RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef)]).unwrap();
/// # let mut out = Vec::new();
/// # let mut w = ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
/// # w.write(&batch).unwrap();
/// # w.close().unwrap();
/// use bytes::Bytes;
/// use strata_arrow::arrow_reader::{
///     ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
/// };
///
/// let file = Bytes::from(out);
/// let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
/// assert_eq!(metadata.schema().field(0).name(), "x");
/// for _ in 0..2 {
///     let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(file.clone(), metadata.clone())
///         .build()
///         .unwrap();
///     assert_eq!(reader.map(|b| b.unwrap().num_rows()).sum::<usize>(), 3);
/// }
/// ```
#[derive(Debug, Clone)]
pub struct ArrowReaderMetadata {
    metadata: Arc<ParquetMetaData>,
    /// The file's columns, then the virtual columns.
    schema: SchemaRef,
    hint: Option<(Schema, HintRule)>,
    virtual_columns: Vec<FieldRef>,
}

impl ArrowReaderMetadata {
    /// Read `reader`'s footer and map its schema to Arrow, as `options`
    /// say.
    pub fn load<T: ChunkReader>(reader: &T, options: ArrowReaderOptions) -> Result<Self> {
        let metadata = ParquetMetaDataReader::new()
            .with_column_index_policy(options.column_index)
            .with_offset_index_policy(options.offset_index)
            .with_column_index_mask(options.column_index_mask.clone())
            .with_offset_index_mask(options.offset_index_mask.clone())
            .with_metadata_options(Some(options.metadata_options.clone()));
        #[cfg(feature = "encryption")]
        let metadata = metadata.with_decryption_keys(
            options
                .decryption
                .clone()
                .map(|p| -> Arc<dyn strata_file::encryption::DecryptionKeys> { p }),
        );
        let metadata = metadata.parse_and_finish(reader)?;
        Self::try_new(Arc::new(metadata), options)
    }

    /// Map the schema of metadata already read to Arrow, as `options` say.
    pub fn try_new(metadata: Arc<ParquetMetaData>, options: ArrowReaderOptions) -> Result<Self> {
        let kv = metadata.file_metadata().key_value_metadata.as_deref();
        let hint = match &options.supplied_schema {
            Some(s) => Some((s.as_ref().clone(), HintRule::Exact)),
            None if options.skip_arrow_metadata => None,
            None => kv.and_then(embedded_arrow_schema).map(|h| {
                let own_seconds = written_by_strata(metadata.file_metadata().created_by());
                (h, HintRule::Embedded { own_seconds })
            }),
        };
        let hint_ref = hint.as_ref().map(|(h, rule)| (h, *rule));
        let (schema, _) = build_arrow_schema(metadata.schema_descr(), None, hint_ref, kv)?;
        if let Some(supplied) = &options.supplied_schema
            && supplied.fields() != schema.fields()
        {
            return Err(ParquetError::Schema(format!(
                "the supplied schema {supplied} does not match the file's {schema}"
            )));
        }
        let schema = if options.virtual_columns.is_empty() {
            schema
        } else {
            let mut fields: Vec<FieldRef> = schema.fields().iter().cloned().collect();
            fields.extend(options.virtual_columns.iter().cloned());
            Schema::new_with_metadata(fields, schema.metadata().clone())
        };
        Ok(Self {
            metadata,
            schema: Arc::new(schema),
            hint,
            virtual_columns: options.virtual_columns,
        })
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        &self.metadata
    }

    /// The file's Arrow schema (all columns).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The file's Parquet schema.
    pub fn parquet_schema(&self) -> &SchemaDescriptor {
        self.metadata.schema_descr()
    }
}

/// The options of a read, shared by the three ways of reading: the
/// synchronous reader ([`ParquetRecordBatchReaderBuilder`]), the push
/// decoder ([`ParquetPushDecoderBuilder`]) and, with the `async` feature,
/// the stream. `T` is where the bytes come from.
///
/// [`ParquetPushDecoderBuilder`]: crate::push_decoder::ParquetPushDecoderBuilder
pub struct ArrowReaderBuilder<T> {
    pub(crate) input: T,
    pub(crate) metadata: Arc<ParquetMetaData>,
    pub(crate) schema: SchemaRef,
    pub(crate) hint: Option<(Schema, HintRule)>,
    pub(crate) batch_size: usize,
    pub(crate) projection: ProjectionMask,
    pub(crate) row_groups: Option<Vec<usize>>,
    pub(crate) selection: Option<RowSelection>,
    /// Row groups with selections of their own rows (push decoder and
    /// stream only; not with `row_groups` or `selection`).
    pub(crate) row_group_selections: Option<Vec<RowGroupSelection>>,
    pub(crate) limit: Option<usize>,
    pub(crate) offset: Option<usize>,
    /// Taken by the read built (its predicates are not `Clone`).
    pub(crate) filter: Option<RowFilter>,
    pub(crate) max_predicate_cache_size: usize,
    pub(crate) row_selection_policy: RowSelectionPolicy,
    /// Virtual columns appended to each batch.
    pub(crate) virtual_columns: Vec<FieldRef>,
}

impl<T> std::fmt::Debug for ArrowReaderBuilder<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrowReaderBuilder")
            .field("schema", &self.schema)
            .field("batch_size", &self.batch_size)
            .field("projection", &self.projection)
            .field("row_groups", &self.row_groups)
            .field("selection", &self.selection)
            .field("row_group_selections", &self.row_group_selections)
            .field("limit", &self.limit)
            .field("offset", &self.offset)
            .field("filter", &self.filter)
            .finish_non_exhaustive()
    }
}

impl<T> ArrowReaderBuilder<T> {
    /// A builder over `input`, with the defaults.
    pub(crate) fn new_builder(input: T, metadata: ArrowReaderMetadata) -> Self {
        Self {
            input,
            metadata: metadata.metadata,
            schema: metadata.schema,
            hint: metadata.hint,
            batch_size: DEFAULT_BATCH_SIZE,
            projection: ProjectionMask::all(),
            row_groups: None,
            selection: None,
            row_group_selections: None,
            limit: None,
            offset: None,
            filter: None,
            max_predicate_cache_size: DEFAULT_PREDICATE_CACHE_SIZE,
            row_selection_policy: RowSelectionPolicy::default(),
            virtual_columns: metadata.virtual_columns,
        }
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        &self.metadata
    }

    /// The file's Parquet schema.
    pub fn parquet_schema(&self) -> &SchemaDescriptor {
        self.metadata.schema_descr()
    }

    /// The file's Arrow schema (all columns).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Rows per batch (at most; batches end at row group boundaries).
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size.max(1);
        self
    }

    /// Read only these columns.
    pub fn with_projection(mut self, mask: ProjectionMask) -> Self {
        self.projection = mask;
        self
    }

    /// Read only these row groups, in this order.
    pub fn with_row_groups(mut self, row_groups: Vec<usize>) -> Self {
        self.row_groups = Some(row_groups);
        self
    }

    /// Read only the selected rows (of the row groups read, in order).
    pub fn with_row_selection(mut self, selection: RowSelection) -> Self {
        self.selection = Some(selection);
        self
    }

    /// Read at most `limit` rows (after the selection and offset).
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Skip the first `offset` rows (after the selection).
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.offset = Some(offset);
        self
    }

    /// Keep only the rows `filter`'s predicates keep, decoding the other
    /// columns for those rows only (see [`RowFilter`]). Offset and limit
    /// apply to the rows it keeps. A second call replaces the first.
    pub fn with_row_filter(mut self, filter: RowFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// The most bytes of arrays a row filter's predicates decoded that a
    /// row group keeps for its output columns, so that a column both
    /// filtered on and returned is decoded once: 100 MiB by default (as
    /// arrow-rs); past it, the output decodes such columns again. The
    /// push decoder and the async stream keep them; the synchronous
    /// reader runs its filter when built and decodes them again (as
    /// arrow-rs's does).
    pub fn with_max_predicate_cache_size(mut self, max_predicate_cache_size: usize) -> Self {
        self.max_predicate_cache_size = max_predicate_cache_size;
        self
    }

    /// How a row filter's kept rows are carried to the output columns:
    /// runs of rows to read and skip, or a mask (see
    /// [`RowSelectionPolicy`] for the rule of the default, `Auto`).
    pub fn with_row_selection_policy(mut self, policy: RowSelectionPolicy) -> Self {
        self.row_selection_policy = policy;
        self
    }

    /// The read these options describe: what the push decoder runs (the
    /// row filter moves into it).
    pub(crate) fn read_state(&mut self) -> Result<ReadState> {
        let filter = self.filter.take();
        ReadState::try_new(self, filter)
    }
}

/// The input of a [`ParquetRecordBatchReaderBuilder`]: a [`ChunkReader`].
#[derive(Debug)]
pub struct SyncReader<T: ChunkReader>(pub(crate) T);

/// Builds a [`ParquetRecordBatchReader`] over a file held by a
/// [`ChunkReader`] (`std::fs::File`, `bytes::Bytes`).
pub type ParquetRecordBatchReaderBuilder<T> = ArrowReaderBuilder<SyncReader<T>>;

impl<T: ChunkReader + Send + 'static> ArrowReaderBuilder<SyncReader<T>> {
    /// Open `reader`: read its footer and map its schema to Arrow.
    pub fn try_new(reader: T) -> Result<Self> {
        Self::try_new_with_options(reader, ArrowReaderOptions::new())
    }

    /// [`try_new`](Self::try_new) with options.
    pub fn try_new_with_options(reader: T, options: ArrowReaderOptions) -> Result<Self> {
        let metadata = ArrowReaderMetadata::load(&reader, options)?;
        Ok(Self::new_with_metadata(reader, metadata))
    }

    /// A builder over `reader`, whose metadata was read already (by
    /// [`ArrowReaderMetadata::load`], from the same file).
    pub fn new_with_metadata(reader: T, metadata: ArrowReaderMetadata) -> Self {
        Self::new_builder(SyncReader(reader), metadata)
    }

    /// Build the reader: the push decoder of these options, its requests
    /// answered from the [`ChunkReader`].
    ///
    /// A row filter runs here, over every row group read, so a
    /// predicate's error is the builder's (as with arrow-rs); the reader
    /// then decodes the rows it kept.
    pub fn build(mut self) -> Result<ParquetRecordBatchReader> {
        let mut state = self.read_state()?.spanning_row_groups();
        let input = self.input.0;
        let mut buffers = PushBuffers::new(input.len());
        state.filter_all(&self.metadata, &mut buffers, |ranges| {
            fetch_ranges(&input, ranges)
        })?;
        Ok(ParquetRecordBatchReader {
            decoder: ParquetPushDecoder::new(self.metadata, state, buffers),
            input: Some(Box::new(input)),
            done: false,
        })
    }
}

impl<T: ChunkReader + Send + 'static> ArrowReaderBuilder<SyncReader<T>> {
    /// The Bloom filter of column `column_idx` in row group
    /// `row_group_idx`, or `None` if that column chunk has none (as
    /// arrow-rs's). Read from the chunk's `bloom_filter_offset`, in one read
    /// when the metadata gives `bloom_filter_length`, else the header first;
    /// a missing row group or column, an encrypted column or a filter that
    /// is malformed or outside the file is an error.
    ///
    /// Probe it before reading a row group, to skip row groups that
    /// certainly hold no row with the value sought.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{ArrayRef, RecordBatch, StringArray};
    /// use bytes::Bytes;
    /// use strata_arrow::ArrowWriter;
    /// use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    /// use strata_file::properties::WriterProperties;
    ///
    /// let names: ArrayRef = Arc::new(StringArray::from(vec!["ada", "grace"]));
    /// let batch = RecordBatch::try_from_iter([("name", names)]).unwrap();
    /// let props = WriterProperties::builder().set_bloom_filter_enabled(true).build();
    /// let mut file = Vec::new();
    /// let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).unwrap();
    /// writer.write(&batch).unwrap();
    /// writer.close().unwrap();
    ///
    /// let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(file)).unwrap();
    /// let filter = builder.get_row_group_column_bloom_filter(0, 0).unwrap().unwrap();
    /// assert!(filter.check("ada"));
    /// assert!(!filter.check("linus")); // certainly absent (the odds of a false positive are tiny)
    /// assert!(builder.get_row_group_column_bloom_filter(1, 0).is_err());
    /// ```
    pub fn get_row_group_column_bloom_filter(
        &self,
        row_group_idx: usize,
        column_idx: usize,
    ) -> Result<Option<Sbbf>> {
        let input = &self.input.0;
        let get = |range: std::ops::Range<u64>| {
            let len = usize::try_from(range.end - range.start)
                .map_err(|_| general(format!("a byte range of {range:?}")))?;
            Ok::<_, ParquetError>(input.get_bytes(range.start, len)?)
        };
        #[cfg(feature = "encryption")]
        if let Some(filter) = strata_file::bloom::read_encrypted_bloom_filter(
            &self.metadata,
            (row_group_idx, column_idx),
            |range| {
                let len = usize::try_from(range.end - range.start).map_err(|_| {
                    strata_file::FileError::Corrupt(format!("a range of {range:?}"))
                })?;
                input.get_bytes(range.start, len)
            },
        )? {
            return Ok(filter);
        }
        let Some(fetch) =
            bloom_filter_fetch(&self.metadata, row_group_idx, column_idx, Some(input.len()))?
        else {
            return Ok(None);
        };
        Ok(match fetch.next(&get(fetch.first_range())?)? {
            BloomFilterStep::Filter(filter) => Some(filter),
            BloomFilterStep::Fetch(range) => Some(Sbbf::read(&get(range)?)?),
        })
    }
}

/// How to read the Bloom filter of column `column` of row group
/// `row_group` of a file of `file_len` bytes (if known): the plan the
/// sync and async builders both follow.
pub(crate) fn bloom_filter_fetch(
    metadata: &ParquetMetaData,
    row_group: usize,
    column: usize,
    file_len: Option<u64>,
) -> Result<Option<BloomFilterFetch>> {
    let chunk = metadata
        .row_groups()
        .get(row_group)
        .ok_or_else(|| {
            general(format!(
                "row group {row_group} of a file of {} row groups",
                metadata.num_row_groups()
            ))
        })?
        .columns()
        .get(column)
        .ok_or_else(|| general(format!("column {column} of row group {row_group}")))?;
    if chunk.crypto_metadata().is_some() || chunk.encrypted_column_metadata().is_some() {
        return Err(general(format!(
            "column {column} of row group {row_group} is encrypted"
        )));
    }
    let Some(meta) = chunk.meta_data.as_ref() else {
        return Err(general(format!(
            "column {column} of row group {row_group} has no metadata"
        )));
    };
    Ok(BloomFilterFetch::plan(meta, file_len)?)
}

/// Reads Arrow [`RecordBatch`]es from a Parquet file; built by
/// [`ParquetRecordBatchReaderBuilder`].
///
/// It runs a [`ParquetPushDecoder`] and answers each range it asks for
/// from the file, so it reads exactly what the push decoder and the async
/// stream read, and decodes it the same way.
pub struct ParquetRecordBatchReader {
    decoder: ParquetPushDecoder,
    /// Where requested bytes come from; `None` for a reader whose bytes
    /// were all pushed already (one row group of a push decoder).
    input: Option<Box<dyn ChunkReader + Send>>,
    done: bool,
}

impl std::fmt::Debug for ParquetRecordBatchReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetRecordBatchReader")
            .field("schema", self.decoder.schema())
            .finish_non_exhaustive()
    }
}

impl ParquetRecordBatchReader {
    /// A reader of every column of `reader`, `batch_size` rows a batch:
    /// `ParquetRecordBatchReaderBuilder::try_new(reader)?.with_batch_size(batch_size).build()`.
    pub fn try_new<T: ChunkReader + Send + 'static>(reader: T, batch_size: usize) -> Result<Self> {
        ParquetRecordBatchReaderBuilder::try_new(reader)?
            .with_batch_size(batch_size)
            .build()
    }

    /// A reader over a decoder whose bytes were all pushed.
    pub(crate) fn from_decoder(decoder: ParquetPushDecoder) -> Self {
        Self {
            decoder,
            input: None,
            done: false,
        }
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            match self.decoder.try_decode()? {
                DecodeResult::NeedsData(ranges) => {
                    let Some(input) = &self.input else {
                        return Err(general(format!(
                            "the reader needs bytes {ranges:?}, which were not fetched"
                        )));
                    };
                    let data = fetch_ranges(input.as_ref(), &ranges)?;
                    self.decoder.push_ranges(ranges, data)?;
                }
                DecodeResult::Data(batch) => return Ok(Some(batch)),
                DecodeResult::Finished => return Ok(None),
            }
        }
    }
}

/// The bytes of each of `ranges`, read from `input`.
fn fetch_ranges<R: ChunkReader + ?Sized>(input: &R, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
    let mut data = Vec::with_capacity(ranges.len());
    for r in ranges {
        let len = usize::try_from(r.end.saturating_sub(r.start))
            .map_err(|_| general(format!("a range of {r:?}")))?;
        data.push(input.get_bytes(r.start, len)?);
    }
    Ok(data)
}

impl Iterator for ParquetRecordBatchReader {
    type Item = std::result::Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_batch() {
            Ok(Some(b)) => Some(Ok(b)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e.into()))
            }
        }
    }
}

impl RecordBatchReader for ParquetRecordBatchReader {
    fn schema(&self) -> SchemaRef {
        self.decoder.schema().clone()
    }
}
