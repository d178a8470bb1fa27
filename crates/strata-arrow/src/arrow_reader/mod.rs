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

use std::collections::VecDeque;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions, RecordBatchReader};
use arrow_schema::{ArrowError, Schema, SchemaRef};
use strata_file::chunk_reader::ChunkReader;
use strata_file::page_reader::PageReader;
use strata_file::properties::ReaderProperties;
use strata_file::serialized_reader::SerializedFileReader;
use strata_format::SchemaDescriptor;

use crate::error::{ParquetError, Result, general};
use crate::reader::{LeafBatch, LeafReader, assemble, leaf_slot_levels};
use crate::schema::{
    HintRule, ParquetField, build_arrow_schema, embedded_arrow_schema, written_by_strata,
};

mod selection;
pub use selection::{RowSelection, RowSelector};
pub use strata_file::metadata::{PageIndexPolicy, ParquetMetaData};
use strata_file::metadata::{
    ParquetMetaDataOptions, ParquetMetaDataReader, ParquetStatisticsPolicy,
};

/// Default number of rows per batch (as arrow-rs).
const DEFAULT_BATCH_SIZE: usize = 1024;

/// Which leaf columns to read.
///
/// ```
/// use strata_arrow::ProjectionMask;
/// # use strata_arrow::arrow_to_parquet_schema;
/// # use arrow_schema::{DataType, Field, Schema};
/// # let schema = arrow_to_parquet_schema(&Schema::new(vec![
/// #     Field::new("a", DataType::Int32, false),
/// #     Field::new("b", DataType::Int32, false),
/// # ])).unwrap();
/// let mask = ProjectionMask::roots(&schema, [1]);
/// assert!(!mask.leaf_included(0));
/// assert!(mask.leaf_included(1));
/// assert!(ProjectionMask::all().leaf_included(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectionMask {
    mask: Option<Vec<bool>>,
}

impl ProjectionMask {
    /// Every column.
    pub fn all() -> Self {
        Self { mask: None }
    }

    /// No column of a schema of `len` leaves.
    pub fn none(len: usize) -> Self {
        Self {
            mask: Some(vec![false; len]),
        }
    }

    /// The leaf columns with the given indices.
    pub fn leaves(schema: &SchemaDescriptor, indices: impl IntoIterator<Item = usize>) -> Self {
        let mut mask = vec![false; schema.num_columns()];
        for i in indices {
            if let Some(m) = mask.get_mut(i) {
                *m = true;
            }
        }
        Self { mask: Some(mask) }
    }

    /// Every leaf under the root fields with the given indices.
    pub fn roots(schema: &SchemaDescriptor, indices: impl IntoIterator<Item = usize>) -> Self {
        let roots: Vec<usize> = indices.into_iter().collect();
        let mask = schema
            .columns()
            .iter()
            .map(|c| roots.contains(&c.root_field_index))
            .collect();
        Self { mask: Some(mask) }
    }

    /// The leaf columns named by dotted paths: a name selects every leaf
    /// whose path begins with its parts ("a" selects `a.b` and `a.c.d`;
    /// "a.b.c" does not select `a.b`). Names matching nothing select
    /// nothing.
    ///
    /// ```
    /// use strata_arrow::{ProjectionMask, arrow_to_parquet_schema};
    /// use arrow_schema::{DataType, Field, Fields, Schema};
    ///
    /// let point = Fields::from(vec![
    ///     Field::new("x", DataType::Float64, false),
    ///     Field::new("y", DataType::Float64, false),
    /// ]);
    /// let schema = arrow_to_parquet_schema(&Schema::new(vec![
    ///     Field::new("id", DataType::Int64, false),
    ///     Field::new("point", DataType::Struct(point), true),
    /// ]))
    /// .unwrap();
    /// let mask = ProjectionMask::columns(&schema, ["point.y", "nothing"]);
    /// assert_eq!((0..3).map(|i| mask.leaf_included(i)).collect::<Vec<_>>(), [false, false, true]);
    /// let mask = ProjectionMask::columns(&schema, ["point"]);
    /// assert_eq!((0..3).map(|i| mask.leaf_included(i)).collect::<Vec<_>>(), [false, true, true]);
    /// ```
    pub fn columns<'a>(
        schema: &SchemaDescriptor,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let mut mask = vec![false; schema.num_columns()];
        for name in names {
            let wanted: Vec<&str> = name.split('.').collect();
            for (m, column) in mask.iter_mut().zip(schema.columns()) {
                let path = column.path.parts();
                if wanted.len() <= path.len() && wanted.iter().zip(path).all(|(a, b)| a == b) {
                    *m = true;
                }
            }
        }
        Self { mask: Some(mask) }
    }

    /// Read the columns either mask reads.
    pub fn union(&mut self, other: &Self) {
        self.mask = match (self.mask.take(), &other.mask) {
            (Some(a), Some(b)) => Some(zip_longest(&a, b, |x, y| x || y)),
            _ => None,
        };
    }

    /// Read only the columns both masks read.
    pub fn intersect(&mut self, other: &Self) {
        self.mask = match (self.mask.take(), &other.mask) {
            (None, b) => b.clone(),
            (a, None) => a,
            (Some(a), Some(b)) => Some(zip_longest(&a, b, |x, y| x && y)),
        };
    }

    /// Whether leaf `leaf_idx` is read.
    pub fn leaf_included(&self, leaf_idx: usize) -> bool {
        self.mask
            .as_ref()
            .is_none_or(|m| m.get(leaf_idx).copied().unwrap_or(false))
    }

    fn as_slice(&self) -> Option<&[bool]> {
        self.mask.as_deref()
    }
}

/// `f` over two masks position by position, a position only one has
/// counting as not read in the other.
fn zip_longest(a: &[bool], b: &[bool], f: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    (0..a.len().max(b.len()))
        .map(|i| {
            f(
                a.get(i).copied().unwrap_or(false),
                b.get(i).copied().unwrap_or(false),
            )
        })
        .collect()
}

/// Options for opening a file: an Arrow schema to read as, whether to use
/// the embedded Arrow schema, whether to load the page index.
#[derive(Debug, Clone, Default)]
pub struct ArrowReaderOptions {
    skip_arrow_metadata: bool,
    supplied_schema: Option<SchemaRef>,
    column_index: PageIndexPolicy,
    offset_index: PageIndexPolicy,
    metadata_options: ParquetMetaDataOptions,
}

impl ArrowReaderOptions {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
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
    schema: SchemaRef,
    hint: Option<(Schema, HintRule)>,
}

impl ArrowReaderMetadata {
    /// Read `reader`'s footer and map its schema to Arrow, as `options`
    /// say.
    pub fn load<T: ChunkReader>(reader: &T, options: ArrowReaderOptions) -> Result<Self> {
        let metadata = ParquetMetaDataReader::new()
            .with_column_index_policy(options.column_index)
            .with_offset_index_policy(options.offset_index)
            .with_metadata_options(Some(options.metadata_options.clone()))
            .parse_and_finish(reader)?;
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
        Ok(Self {
            metadata,
            schema: Arc::new(schema),
            hint,
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

/// Builds a [`ParquetRecordBatchReader`] over a file held by a
/// [`ChunkReader`] (`std::fs::File`, `bytes::Bytes`).
pub struct ParquetRecordBatchReaderBuilder<T: ChunkReader> {
    file: SerializedFileReader<T>,
    metadata: Arc<ParquetMetaData>,
    schema: SchemaRef,
    hint: Option<(Schema, HintRule)>,
    batch_size: usize,
    projection: ProjectionMask,
    row_groups: Option<Vec<usize>>,
    selection: Option<RowSelection>,
    limit: Option<usize>,
    offset: Option<usize>,
}

impl<T: ChunkReader> std::fmt::Debug for ParquetRecordBatchReaderBuilder<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetRecordBatchReaderBuilder")
            .field("schema", &self.schema)
            .field("batch_size", &self.batch_size)
            .field("projection", &self.projection)
            .field("row_groups", &self.row_groups)
            .field("selection", &self.selection)
            .field("limit", &self.limit)
            .field("offset", &self.offset)
            .finish()
    }
}

impl<T: ChunkReader + Send + 'static> ParquetRecordBatchReaderBuilder<T> {
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
        let file = SerializedFileReader::with_metadata(
            reader,
            metadata.metadata.as_ref().clone(),
            ReaderProperties::default(),
        );
        Self {
            file,
            metadata: metadata.metadata,
            schema: metadata.schema,
            hint: metadata.hint,
            batch_size: DEFAULT_BATCH_SIZE,
            projection: ProjectionMask::all(),
            row_groups: None,
            selection: None,
            limit: None,
            offset: None,
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

    /// Build the reader.
    pub fn build(self) -> Result<ParquetRecordBatchReader> {
        let kv = self.metadata.file_metadata().key_value_metadata.as_deref();
        let (schema, fields) = build_arrow_schema(
            self.metadata.schema_descr(),
            self.projection.as_slice(),
            self.hint.as_ref().map(|(h, rule)| (h, *rule)),
            kv,
        )?;
        let num_rg = self.metadata.num_row_groups();
        let row_groups = self.row_groups.unwrap_or_else(|| (0..num_rg).collect());
        let mut rows = Vec::with_capacity(row_groups.len());
        for &rg in &row_groups {
            let g = self
                .metadata
                .row_groups()
                .get(rg)
                .ok_or_else(|| general(format!("row group {rg} of {num_rg}")))?;
            rows.push(usize::try_from(g.num_rows).map_err(|_| general("negative row count"))?);
        }
        let total: usize = rows.iter().sum();
        let has_selection = self.selection.is_some();
        let mut selection = self
            .selection
            .unwrap_or_else(|| RowSelection::from(vec![RowSelector::select(total)]));
        if let Some(offset) = self.offset {
            selection = selection.offset(offset);
        }
        if let Some(limit) = self.limit {
            selection = selection.limit(limit);
        }
        let mut plan = VecDeque::new();
        let mut selectors: VecDeque<RowSelector> = selection.iter().copied().collect();
        for (&rg, &n) in row_groups.iter().zip(&rows) {
            let mut mine = VecDeque::new();
            let mut left = n;
            while left > 0 {
                let Some(mut s) = selectors.pop_front() else {
                    break;
                };
                if s.row_count > left {
                    selectors.push_front(RowSelector {
                        row_count: s.row_count - left,
                        skip: s.skip,
                    });
                    s.row_count = left;
                }
                left -= s.row_count;
                if s.row_count > 0 {
                    mine.push_back(s);
                }
            }
            if mine.iter().any(|s| !s.skip) {
                // Trailing skips need not be read.
                while mine.back().is_some_and(|s| s.skip) {
                    mine.pop_back();
                }
                plan.push_back((rg, mine));
            }
        }
        let mut leaf_columns = Vec::new();
        let mut slot_levels = Vec::new();
        let mut top_level = Vec::new();
        for f in &fields {
            f.leaves(&mut leaf_columns);
            leaf_slot_levels(f, 0, &mut slot_levels);
            let is_leaf = matches!(f.kind, crate::schema::FieldKind::Leaf { .. });
            top_level.resize(slot_levels.len(), is_leaf);
        }
        let mut leaf_types = Vec::new();
        for f in &fields {
            leaf_arrow_types(f, &mut leaf_types);
        }
        Ok(ParquetRecordBatchReader {
            source: Box::new(self.file),
            // The batches' schema: the projected fields, without the
            // schema-level metadata (the builder's `schema()` has it), as
            // arrow-rs's batches come.
            schema: Arc::new(Schema::new(schema.fields().clone())),
            fields,
            leaf_columns,
            leaf_types,
            slot_levels,
            top_level,
            batch_size: self.batch_size,
            plan,
            current: None,
            use_index: has_selection,
            done: false,
        })
    }
}

fn leaf_arrow_types(field: &ParquetField, out: &mut Vec<arrow_schema::DataType>) {
    use crate::schema::FieldKind;
    match &field.kind {
        FieldKind::Leaf { .. } => out.push(field.arrow_type.clone()),
        FieldKind::Struct { children } => children.iter().for_each(|c| leaf_arrow_types(c, out)),
        FieldKind::List { element } => leaf_arrow_types(element, out),
    }
}

/// What the reader needs of a file: page readers for column chunks.
trait ChunkSource: Send {
    fn pages(&self, row_group: usize, column: usize, indexed: bool) -> Result<PageReader>;
    fn schema(&self) -> &SchemaDescriptor;
}

impl<T: ChunkReader + Send> ChunkSource for SerializedFileReader<T> {
    fn pages(&self, row_group: usize, column: usize, indexed: bool) -> Result<PageReader> {
        let rg = self.row_group(row_group)?;
        Ok(if indexed {
            rg.indexed_page_reader(column)?
        } else {
            rg.page_reader(column)?
        })
    }

    fn schema(&self) -> &SchemaDescriptor {
        SerializedFileReader::schema(self)
    }
}

struct Current {
    leaves: Vec<LeafReader>,
    selectors: VecDeque<RowSelector>,
}

/// Reads Arrow [`RecordBatch`]es from a Parquet file; built by
/// [`ParquetRecordBatchReaderBuilder`].
pub struct ParquetRecordBatchReader {
    source: Box<dyn ChunkSource>,
    schema: SchemaRef,
    fields: Vec<ParquetField>,
    leaf_columns: Vec<usize>,
    leaf_types: Vec<arrow_schema::DataType>,
    slot_levels: Vec<i16>,
    /// Per leaf: a field of the schema root (no parent reads its levels).
    top_level: Vec<bool>,
    batch_size: usize,
    plan: VecDeque<(usize, VecDeque<RowSelector>)>,
    current: Option<Current>,
    use_index: bool,
    done: bool,
}

impl std::fmt::Debug for ParquetRecordBatchReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetRecordBatchReader")
            .field("schema", &self.schema)
            .field("batch_size", &self.batch_size)
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

    fn open(&self, rg: usize) -> Result<Vec<LeafReader>> {
        let mut leaves = Vec::with_capacity(self.leaf_columns.len());
        for (i, &col) in self.leaf_columns.iter().enumerate() {
            let descr = self
                .source
                .schema()
                .columns()
                .get(col)
                .ok_or_else(|| general(format!("leaf column {col}")))?
                .clone();
            let pages = self.source.pages(rg, col, self.use_index)?;
            leaves.push(LeafReader::new(
                pages,
                descr,
                self.leaf_types[i].clone(),
                self.slot_levels[i],
                self.top_level.get(i).copied().unwrap_or(false),
            )?);
        }
        Ok(leaves)
    }

    /// The next batch: `batch_size` rows, fewer only at the end. Runs of
    /// selected rows and row groups are read one after the other and, when
    /// a batch spans several, their arrays are concatenated (as arrow-rs
    /// does, a batch does not end at a row-group or selector boundary).
    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let mut parts: Vec<RecordBatch> = Vec::new();
        let mut rows = 0;
        while rows < self.batch_size {
            match self.next_run(self.batch_size - rows)? {
                Some(part) => {
                    rows += part.num_rows();
                    parts.push(part);
                }
                None => break,
            }
        }
        if parts.len() <= 1 {
            return Ok(parts.pop());
        }
        Ok(Some(arrow_select::concat::concat_batches(
            &self.schema,
            &parts,
        )?))
    }

    /// Up to `max` (> 0) rows of one selected run of one row group.
    fn next_run(&mut self, max: usize) -> Result<Option<RecordBatch>> {
        loop {
            let current = match &mut self.current {
                Some(c) => c,
                None => {
                    let Some((rg, selectors)) = self.plan.pop_front() else {
                        return Ok(None);
                    };
                    let leaves = self.open(rg)?;
                    self.current.insert(Current { leaves, selectors })
                }
            };
            let Some(sel) = current.selectors.pop_front() else {
                self.current = None;
                continue;
            };
            if sel.skip {
                for leaf in &mut current.leaves {
                    let n = leaf.skip(sel.row_count)?;
                    if n != sel.row_count {
                        return Err(general(format!(
                            "row group ended after {n} of {} skipped rows",
                            sel.row_count
                        )));
                    }
                }
                continue;
            }
            let take = sel.row_count.min(max);
            if take < sel.row_count {
                current
                    .selectors
                    .push_front(RowSelector::select(sel.row_count - take));
            }
            let mut batches: Vec<LeafBatch> = Vec::with_capacity(current.leaves.len());
            for leaf in &mut current.leaves {
                let (n, b) = leaf.read(take)?;
                if n != take {
                    return Err(general(format!(
                        "a column chunk ended after {n} of {take} rows"
                    )));
                }
                batches.push(b);
            }
            let mut next = 0;
            let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.fields.len());
            for f in &self.fields {
                columns.push(assemble(f, 0, 0, &batches, &mut next)?.0);
            }
            let options = RecordBatchOptions::new().with_row_count(Some(take));
            return Ok(Some(RecordBatch::try_new_with_options(
                self.schema.clone(),
                columns,
                &options,
            )?));
        }
    }
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
        self.schema.clone()
    }
}
