//! [`ParquetPushDecoder`]: Arrow batches decoded from bytes the caller
//! pushes, with no I/O of its own (arrow-rs's
//! `parquet::arrow::push_decoder`).
//!
//! ## One decoding core
//!
//! Every Arrow read in strata runs this decoder. The synchronous
//! [`ParquetRecordBatchReader`] answers its requests from a
//! [`ChunkReader`]; the async
//! stream (feature `async`) answers them from an `AsyncFileReader`; a
//! caller of the push decoder answers them however it likes. Projection,
//! row groups, row selection, offset and limit, batch size and page-index
//! skipping are all decided here, once.
//!
//! ## What it asks for
//!
//! The plan is made from the metadata when the decoder is built: the row
//! groups to read, in order, each with the runs of rows to select and to
//! skip (the selection cut at row-group boundaries, after offset and
//! limit; a row group with nothing selected is not read at all). Before
//! it opens a row group the decoder asks for the byte ranges of its
//! projected column chunks, and, when a selection skips rows and the
//! metadata holds no offset index, for the offset index of each, so
//! skipped pages are stepped over without decoding their headers.
//!
//! ```text
//! try_decode ─▶ row group open? ── no ─▶ its ranges pushed? ── no ─▶ NeedsData(missing)
//!                   │ yes                      │ yes
//!                   │                          ▼
//!                   │                   open one LeafReader per leaf,
//!                   │                   release the pushed ranges it used
//!                   ▼
//!             next run of selected rows ─▶ batch full? ─▶ Data(batch)
//!             (skipped runs skip pages)    row groups done ─▶ Finished
//! ```
//!
//! A batch ends with its row group, as arrow-rs's push decoder and async
//! stream end theirs; within a row group, selected runs fill a batch
//! together. The synchronous reader's batches go on into the next row
//! group, as arrow-rs's synchronous reader's do. Rows decoded before a
//! request stay in the decoder until their batch is complete.
//!
//! ## Row filters
//!
//! With a [`RowFilter`], a row group is filtered before it is opened:
//! each predicate is a pass of its own columns over the rows still
//! selected, asking for their chunks as the output does, and its results
//! refine the row group's rows. Kept rows in runs (a range on sorted
//! data) become the row group's selectors, so the output skips the rows
//! and pages between; kept rows too scattered for that (runs averaging
//! under 32 rows) stay a mask over the selected rows. A field of the
//! schema root read as values drops the masked rows as it reads them:
//! their dictionary entries are not gathered, their byte arrays not
//! copied (`ColumnRecordReader::read_runs_kept`); other fields (nested,
//! or read as dictionaries or views) are read whole and filtered. Offset
//! and limit then cut the rows kept. The
//! ranges a predicate fetched that the output reads too are kept until
//! the row group opens, and an output field a predicate decoded whole
//! is taken from the predicate's arrays, not decoded again (up to
//! [`with_max_predicate_cache_size`](ArrowReaderBuilder::with_max_predicate_cache_size)
//! bytes a row group).
//!
//! ## Memory
//!
//! The decoder holds the bytes pushed into it until the row group that
//! asked for them is opened; it then releases every pushed range equal to
//! one it asked for (the page readers keep slices of them until the row
//! group is read). Bytes pushed that it never asked for stay until
//! [`ParquetPushDecoder::clear_all_ranges`].
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch};
//! use bytes::Bytes;
//! use strata_arrow::ArrowWriter;
//! use strata_arrow::push_decoder::ParquetPushDecoderBuilder;
//! use strata_file::DecodeResult;
//! use strata_file::metadata::ParquetMetaDataReader;
//!
//! let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..10));
//! let batch = RecordBatch::try_from_iter([("id", ids)]).unwrap();
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
//! writer.write(&batch).unwrap();
//! writer.close().unwrap();
//! let file = Bytes::from(file);
//!
//! let metadata = Arc::new(ParquetMetaDataReader::new().parse_and_finish(&file).unwrap());
//! let mut decoder = ParquetPushDecoderBuilder::try_new_decoder(metadata)
//!     .unwrap()
//!     .with_batch_size(4)
//!     .build()
//!     .unwrap();
//! let mut rows = 0;
//! loop {
//!     match decoder.try_decode().unwrap() {
//!         DecodeResult::NeedsData(ranges) => {
//!             let data = ranges
//!                 .iter()
//!                 .map(|r| file.slice(r.start as usize..r.end as usize))
//!                 .collect();
//!             decoder.push_ranges(ranges, data).unwrap();
//!         }
//!         DecodeResult::Data(batch) => rows += batch.num_rows(),
//!         DecodeResult::Finished => break,
//!     }
//! }
//! assert_eq!(rows, 10);
//! ```

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use arrow_array::{ArrayRef, BooleanArray, RecordBatch, RecordBatchOptions};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder};
use arrow_schema::{DataType, FieldRef, Schema, SchemaRef};
use arrow_select::filter::FilterBuilder;
use bytes::Bytes;
use strata_file::DecodeResult;
use strata_file::chunk_reader::ChunkReader;
use strata_file::metadata::ParquetMetaData;
use strata_file::properties::ReaderProperties;
use strata_file::push_buffers::PushBuffers;
use strata_file::serialized_reader::{SerializedFileReader, SerializedRowGroupReader};
use strata_format::{ColumnDescriptor, SchemaDescriptor};

pub use crate::arrow_reader::RowGroupSelection;
use crate::arrow_reader::selection::kept_bits;
use crate::arrow_reader::{
    ArrowPredicate, ArrowReaderBuilder, ArrowReaderMetadata, ArrowReaderOptions,
    ParquetRecordBatchReader, ProjectionMask, RowFilter, RowSelection, RowSelectionPolicy,
    RowSelector,
};
use crate::error::{ParquetError, Result, general};
use crate::reader::window::{
    Readable, Window, pages_rows, runs_to_read, selected_rows, short_skip,
};
use crate::reader::{LeafBatch, LeafReader, assemble, leaf_slot_levels};
use crate::schema::{FieldKind, ParquetField, build_arrow_schema};
use crate::virtual_columns::VirtualColumn;

/// The input of a [`ParquetPushDecoderBuilder`]: the buffers pushed bytes
/// collect in (empty unless given with
/// [`with_buffers`](ParquetPushDecoderBuilder::with_buffers)).
#[derive(Debug, Default)]
pub struct PushDecoderInput {
    buffers: PushBuffers,
}

/// Builds a [`ParquetPushDecoder`] from a file's metadata, with the
/// options of every Arrow read ([`ArrowReaderBuilder`]).
pub type ParquetPushDecoderBuilder = ArrowReaderBuilder<PushDecoderInput>;

impl ArrowReaderBuilder<PushDecoderInput> {
    /// A builder of a decoder of the file `parquet_metadata` describes.
    pub fn try_new_decoder(parquet_metadata: Arc<ParquetMetaData>) -> Result<Self> {
        Self::try_new_decoder_with_options(parquet_metadata, ArrowReaderOptions::default())
    }

    /// [`try_new_decoder`](Self::try_new_decoder) with options (the Arrow
    /// schema to read as, whether to use the embedded one).
    pub fn try_new_decoder_with_options(
        parquet_metadata: Arc<ParquetMetaData>,
        options: ArrowReaderOptions,
    ) -> Result<Self> {
        let metadata = ArrowReaderMetadata::try_new(parquet_metadata, options)?;
        Ok(Self::new_with_metadata(metadata))
    }

    /// A builder from metadata already mapped to Arrow.
    pub fn new_with_metadata(metadata: ArrowReaderMetadata) -> Self {
        Self::new_builder(PushDecoderInput::default(), metadata)
    }

    /// Start from bytes fetched already, so they are not asked for again.
    pub fn with_buffers(mut self, buffers: PushBuffers) -> Self {
        self.input = PushDecoderInput { buffers };
        self
    }

    /// Read these row groups, in this order, each with a selection of its
    /// own rows ([`RowGroupSelection`]). Offset and limit then apply to
    /// the rows so selected, across all of them in order. Not with
    /// [`with_row_groups`](Self::with_row_groups) or
    /// [`with_row_selection`](Self::with_row_selection): [`build`](Self::build)
    /// refuses the two together, and a selection longer than its row
    /// group. A second call replaces the first.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// # use bytes::Bytes;
    /// # use strata_arrow::ArrowWriter;
    /// # use strata_file::DecodeResult;
    /// # use strata_file::metadata::ParquetMetaDataReader;
    /// # use strata_file::properties::WriterProperties;
    /// use strata_arrow::arrow_reader::{RowSelection, RowSelector};
    /// use strata_arrow::push_decoder::{ParquetPushDecoderBuilder, RowGroupSelection};
    /// # let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..30));
    /// # let batch = RecordBatch::try_from_iter([("id", ids)]).unwrap();
    /// # let props = WriterProperties::builder().set_max_row_group_row_count(Some(10)).build();
    /// # let mut file = Vec::new();
    /// # let mut w = ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).unwrap();
    /// # w.write(&batch).unwrap();
    /// # w.close().unwrap();
    /// # let file = Bytes::from(file);
    /// # let metadata = Arc::new(ParquetMetaDataReader::new().parse_and_finish(&file).unwrap());
    ///
    /// // Three row groups of ten ids: rows 2..4 of the third, then all of the first.
    /// let mut decoder = ParquetPushDecoderBuilder::try_new_decoder(metadata)
    ///     .unwrap()
    ///     .with_row_group_selections(vec![
    ///         RowGroupSelection::new(2, Some(RowSelection::from(vec![
    ///             RowSelector::skip(2),
    ///             RowSelector::select(2),
    ///         ]))),
    ///         RowGroupSelection::new(0, None),
    ///     ])
    ///     .build()
    ///     .unwrap();
    /// let mut ids = Vec::new();
    /// loop {
    ///     match decoder.try_decode().unwrap() {
    ///         DecodeResult::NeedsData(ranges) => {
    ///             let data = ranges.iter().map(|r| file.slice(r.start as usize..r.end as usize)).collect();
    ///             decoder.push_ranges(ranges, data).unwrap();
    ///         }
    ///         DecodeResult::Data(batch) => {
    ///             let column = batch.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
    ///             ids.extend(column.values().iter().copied());
    ///         }
    ///         DecodeResult::Finished => break,
    ///     }
    /// }
    /// assert_eq!(ids, [22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    /// ```
    pub fn with_row_group_selections(
        mut self,
        row_group_selections: Vec<RowGroupSelection>,
    ) -> Self {
        self.row_group_selections = Some(row_group_selections);
        self
    }

    /// Build the decoder.
    pub fn build(mut self) -> Result<ParquetPushDecoder> {
        let state = self.read_state()?;
        Ok(ParquetPushDecoder::new(
            self.metadata,
            state,
            self.input.buffers,
        ))
    }
}

/// Decodes Arrow [`RecordBatch`]es from pushed byte ranges; built by
/// [`ParquetPushDecoderBuilder`]. See the [module docs](self).
pub struct ParquetPushDecoder {
    metadata: Arc<ParquetMetaData>,
    buffers: PushBuffers,
    state: ReadState,
}

impl std::fmt::Debug for ParquetPushDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetPushDecoder")
            .field("schema", self.state.schema())
            .field("row_groups_remaining", &self.state.plan.len())
            .field("buffered_bytes", &self.buffers.buffered_bytes())
            .finish_non_exhaustive()
    }
}

impl ParquetPushDecoder {
    pub(crate) fn new(
        metadata: Arc<ParquetMetaData>,
        state: ReadState,
        buffers: PushBuffers,
    ) -> Self {
        Self {
            metadata,
            buffers,
            state,
        }
    }

    /// The schema of the batches decoded.
    pub fn schema(&self) -> &SchemaRef {
        self.state.schema()
    }

    /// Go on as far as the pushed bytes allow: the next batch, the ranges
    /// needed before there can be one, or `Finished`.
    pub fn try_decode(&mut self) -> Result<DecodeResult<RecordBatch>> {
        self.state.try_decode(&self.metadata, &mut self.buffers)
    }

    /// A reader of the next row group's batches, its bytes all pushed, or
    /// the ranges needed first, or `Finished`. Rows decoded by
    /// [`try_decode`](Self::try_decode) and not yet returned come first,
    /// as a reader of their own.
    pub fn try_next_reader(&mut self) -> Result<DecodeResult<ParquetRecordBatchReader>> {
        if !self.state.parts.is_empty() || self.state.current.is_some() {
            // Finish what is open in a reader of its own.
            let state = self.state.split_current();
            let decoder = ParquetPushDecoder::new(
                Arc::clone(&self.metadata),
                state,
                PushBuffers::new(self.buffers.file_len()),
            );
            return Ok(DecodeResult::Data(ParquetRecordBatchReader::from_decoder(
                decoder,
            )));
        }
        if self.state.plan.is_empty() {
            return Ok(DecodeResult::Finished);
        }
        let missing = self
            .state
            .missing_for_next(&self.metadata, &mut self.buffers)?;
        if !missing.is_empty() {
            return Ok(DecodeResult::NeedsData(missing));
        }
        if self.state.plan.is_empty() {
            // The row filter left no row of the row groups left.
            return Ok(DecodeResult::Finished);
        }
        self.state.open_next(&self.metadata, &mut self.buffers)?;
        let state = self.state.split_current();
        let decoder = ParquetPushDecoder::new(
            Arc::clone(&self.metadata),
            state,
            PushBuffers::new(self.buffers.file_len()),
        );
        Ok(DecodeResult::Data(ParquetRecordBatchReader::from_decoder(
            decoder,
        )))
    }

    /// While a row group is being read: the ranges the next one will ask
    /// for and that are not pushed yet (none when the next one needs its
    /// offset indexes first, or there is none), and their total size. An
    /// async reader fetches them while the current row group decodes.
    #[cfg(feature = "async")]
    pub(crate) fn prefetch_ranges(&mut self) -> Result<(Vec<Range<u64>>, u64)> {
        if self.state.current.is_none() || self.state.plan.is_empty() {
            return Ok((Vec::new(), 0));
        }
        let ranges = self
            .state
            .missing_for_next(&self.metadata, &mut self.buffers)?;
        if !matches!(self.state.pending, Some(RowGroupFetch::Ready { .. })) {
            return Ok((Vec::new(), 0));
        }
        let bytes = ranges.iter().map(|r| r.end - r.start).sum();
        Ok((ranges, bytes))
    }

    /// Give the decoder the bytes of `range`.
    pub fn push_range(&mut self, range: Range<u64>, data: Bytes) -> Result<()> {
        Ok(self.buffers.push_range(range, data)?)
    }

    /// Give the decoder the bytes of each range: best exactly the ranges
    /// it asked for (a range it needs is found only inside one pushed
    /// range, never across two).
    pub fn push_ranges(&mut self, ranges: Vec<Range<u64>>, data: Vec<Bytes>) -> Result<()> {
        Ok(self.buffers.push_ranges(ranges, data)?)
    }

    /// The bytes pushed and not yet released.
    pub fn buffered_bytes(&self) -> u64 {
        self.buffers.buffered_bytes()
    }

    /// Drop every pushed range not yet released.
    pub fn clear_all_ranges(&mut self) {
        self.buffers.clear_all_ranges();
    }

    /// The number of row groups not yet opened.
    pub fn row_groups_remaining(&self) -> usize {
        self.state.plan.len()
    }

    /// The index of the next row group to be opened, if any.
    pub fn peek_next_row_group(&self) -> Result<Option<usize>> {
        Ok(self.state.plan.front().map(|entry| entry.rg))
    }
}

/// The row group being read: a leaf reader per output leaf and the runs
/// of rows left.
struct OpenRowGroup {
    /// Its position in the file, and the file row it starts at.
    rg: usize,
    first_row: i64,
    leaves: Vec<LeafReader>,
    selectors: VecDeque<RowSelector>,
    /// The filter's mask over the rows `selectors` select, if any, and
    /// the bit of the next row.
    mask: Option<BooleanBuffer>,
    mask_at: usize,
    /// The row of the row group the selectors start at.
    at: u64,
    /// The rows every leaf can read (see [`Readable`]).
    readable: Readable,
    /// Per output field, the array a predicate decoded (cut to the rows
    /// selected), and the next row of them to return.
    cached: Vec<Option<ArrayRef>>,
    cached_at: usize,
}

/// What one column chunk of a row group is read from.
struct ColumnFetch {
    /// The byte ranges to fetch: the whole chunk, or its dictionary and
    /// the pages holding the rows read.
    ranges: Vec<Range<u64>>,
    /// Its offset index, when selections skip rows and it has one.
    index: Option<strata_format::metadata::OffsetIndex>,
}

/// The plan of a fetch of some column chunks of a row group.
enum RowGroupFetch {
    /// Their offset indexes must be pushed first.
    NeedIndexes(Vec<Range<u64>>),
    /// The ranges of each column chunk, the offset index ranges read to
    /// find them, and the rows every chunk so fetched can read.
    Ready {
        columns: Vec<ColumnFetch>,
        index_ranges: Vec<Range<u64>>,
        readable: Readable,
    },
}

/// A row group to read, with the runs of its rows selected so far.
struct PlannedRowGroup {
    rg: usize,
    /// Runs of the row group's rows; never ending with a skip.
    selectors: VecDeque<RowSelector>,
    /// One bit per row `selectors` select, set where the row filter kept
    /// it, when the rows kept are too scattered for selectors (see
    /// `filter_row_group`); `None`: every row they select.
    mask: Option<BooleanBuffer>,
    /// The predicates of the row filter run on it so far.
    predicates_run: usize,
    /// Ranges the predicates fetched that the output (or a later
    /// predicate) reads too, kept until the row group is opened.
    held: Vec<Range<u64>>,
    /// Output fields a predicate decoded, kept so the output does not
    /// decode them again; and their bytes.
    cache: Vec<CachedField>,
    cache_bytes: usize,
}

/// An output field's arrays, as a predicate decoded them.
struct CachedField {
    /// The output field.
    field: usize,
    /// The rows the arrays hold (the rows the predicate was given).
    rows: VecDeque<RowSelector>,
    mask: Option<BooleanBuffer>,
    arrays: Vec<ArrayRef>,
}

/// Per output field of `fields`: whether `cache` holds it.
fn cached_fields(cache: &[CachedField], fields: usize) -> Vec<bool> {
    let mut cached = vec![false; fields];
    for c in cache {
        if let Some(slot) = cached.get_mut(c.field) {
            *slot = true;
        }
    }
    cached
}

/// One bit per row of the row group up to the last selected, set where
/// `selectors` (and `mask`, one bit per row they select) select it.
fn row_bitmap(selectors: &VecDeque<RowSelector>, mask: Option<&BooleanBuffer>) -> BooleanBuffer {
    let mut bits = BooleanBufferBuilder::new(0);
    let mut at = 0;
    for s in selectors {
        match (s.skip, mask) {
            (true, _) => bits.append_n(s.row_count, false),
            (false, Some(mask)) => {
                bits.append_buffer(&mask.slice(at, s.row_count));
                at += s.row_count;
            }
            (false, None) => bits.append_n(s.row_count, true),
        }
    }
    bits.finish()
}

/// One bit per row `outer` selects, in order: whether `inner` (a subset)
/// selects it too. Each is the runs of a row group and the mask over
/// them.
fn subset_mask(
    outer: (&VecDeque<RowSelector>, Option<&BooleanBuffer>),
    inner: (&VecDeque<RowSelector>, Option<&BooleanBuffer>),
) -> Result<BooleanArray> {
    let (outer, inner) = (row_bitmap(outer.0, outer.1), row_bitmap(inner.0, inner.1));
    let len = outer.len().max(inner.len());
    let pad = |b: BooleanBuffer| {
        let mut out = BooleanBufferBuilder::new(len);
        out.append_buffer(&b);
        out.append_n(len - b.len(), false);
        BooleanArray::new(out.finish(), None)
    };
    let kept = arrow_select::filter::filter(&pad(inner), &pad(outer))?;
    let kept = kept
        .as_any()
        .downcast_ref::<BooleanArray>()
        .ok_or_else(|| general("a filtered mask that is not a boolean array"))?;
    Ok(BooleanArray::new(kept.values().clone(), None))
}

/// The selectors `kept` (not empty, with `runs` runs of set bits) makes:
/// its runs of set bits and the runs of unset bits between, before and
/// after them.
fn selector_count(kept: &BooleanBuffer, runs: usize) -> usize {
    let mut bits = kept.iter();
    let Some(first) = bits.next() else {
        return 0;
    };
    let last = bits.next_back().unwrap_or(first);
    (2 * runs).saturating_sub(1) + usize::from(!first) + usize::from(!last)
}

/// `result` (one bit per set bit of `mask`) spread over `mask`'s bits:
/// set where `mask` is set and `result` keeps the row.
fn scatter(mask: &BooleanBuffer, result: &BooleanBuffer) -> BooleanBuffer {
    let mut out = BooleanBufferBuilder::new(mask.len());
    let (mut at, mut taken) = (0, 0);
    for (start, end) in mask.set_slices() {
        out.append_n(start - at, false);
        let n = (end - start).min(result.len().saturating_sub(taken));
        out.append_buffer(&result.slice(taken, n));
        out.append_n(end - start - n, false);
        taken += n;
        at = end;
    }
    out.append_n(mask.len() - at, false);
    out.finish()
}

/// How many of `mask`'s bits from `from` on hold `want` set bits (all
/// that are left when fewer are set).
fn bits_holding(mask: &BooleanBuffer, from: usize, want: usize) -> usize {
    let rest = mask.slice(from, mask.len().saturating_sub(from));
    match want.checked_sub(1).and_then(|k| rest.set_indices().nth(k)) {
        Some(last) => last + 1,
        None => rest.len(),
    }
}

/// The columns one pass over a row group decodes, the output's or one
/// predicate's, mapped to Arrow.
pub(crate) struct DecodedColumns {
    /// The schema of the batches: the projected fields, without the
    /// schema-level metadata (the builder's `schema()` has it), as
    /// arrow-rs's batches come.
    schema: SchemaRef,
    fields: Vec<ParquetField>,
    /// Per field: the positions of its leaves in `leaf_columns`.
    field_leaves: Vec<Range<usize>>,
    leaf_columns: Vec<usize>,
    leaf_types: Vec<DataType>,
    slot_levels: Vec<i16>,
    /// Per leaf: a field of the schema root (no parent reads its levels).
    top_level: Vec<bool>,
    /// The virtual columns after `fields` (the output's only).
    virtual_columns: Vec<VirtualColumn>,
}

impl DecodedColumns {
    /// The columns of `mask`, read with `builder`'s schema options, and,
    /// for the output (`with_virtual`), the builder's virtual columns.
    fn new<T>(
        builder: &ArrowReaderBuilder<T>,
        mask: &ProjectionMask,
        with_virtual: bool,
    ) -> Result<Self> {
        let metadata = &builder.metadata;
        let kv = metadata.file_metadata().key_value_metadata.as_deref();
        let (schema, fields) = build_arrow_schema(
            metadata.schema_descr(),
            mask.as_slice(),
            builder.hint.as_ref().map(|(h, rule)| (h, *rule)),
            kv,
        )?;
        let mut leaf_columns = Vec::new();
        let mut slot_levels = Vec::new();
        let mut top_level = Vec::new();
        let mut leaf_types = Vec::new();
        let mut field_leaves = Vec::with_capacity(fields.len());
        for f in &fields {
            let first = leaf_columns.len();
            f.leaves(&mut leaf_columns);
            field_leaves.push(first..leaf_columns.len());
            leaf_slot_levels(f, 0, &mut slot_levels);
            let is_leaf = matches!(f.kind, FieldKind::Leaf { .. });
            top_level.resize(slot_levels.len(), is_leaf);
            leaf_arrow_types(f, &mut leaf_types);
        }
        let mut schema_fields: Vec<FieldRef> = schema.fields().iter().cloned().collect();
        let mut virtual_columns = Vec::new();
        if with_virtual {
            for field in &builder.virtual_columns {
                virtual_columns.push(VirtualColumn::of(field)?);
                schema_fields.push(Arc::clone(field));
            }
        }
        Ok(Self {
            schema: Arc::new(Schema::new(schema_fields)),
            fields,
            field_leaves,
            leaf_columns,
            leaf_types,
            slot_levels,
            top_level,
            virtual_columns,
        })
    }

    /// The positions in `leaf_columns` of the leaves of the fields not
    /// `cached`.
    fn leaves_read(&self, cached: &[bool]) -> Vec<usize> {
        let mut which = Vec::with_capacity(self.leaf_columns.len());
        for (j, range) in self.field_leaves.iter().enumerate() {
            if !cached.get(j).copied().unwrap_or(false) {
                which.extend(range.clone());
            }
        }
        which
    }

    /// A leaf reader per leaf of `which` (positions in `leaf_columns`),
    /// over the chunks `columns` (one per leaf of `which`) say to read.
    fn open<R: ChunkReader>(
        &self,
        group: &SerializedRowGroupReader<'_, R>,
        schema: &SchemaDescriptor,
        columns: &[ColumnFetch],
        which: &[usize],
    ) -> Result<Vec<LeafReader>> {
        let mut leaves = Vec::with_capacity(which.len());
        for (&i, fetch) in which.iter().zip(columns) {
            let col = self.leaf_columns[i];
            let descr = schema
                .columns()
                .get(col)
                .ok_or_else(|| general(format!("leaf column {col}")))?;
            let descr = ColumnDescriptor::clone(descr);
            let pages = match &fetch.index {
                Some(index) => group.sparse_page_reader(col, index, &fetch.ranges)?,
                None => group.page_reader(col)?,
            };
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

    /// The selected rows of `window`, read by `leaves` (this pass's) as
    /// one batch, less those `post` (one bit per selected row, when the
    /// row group's selection has a mask) drops; the fields with an array
    /// in `cached` are taken from it, from row `at` on (their leaves are
    /// not among `leaves`). The virtual columns are computed from
    /// `place`: the row group's position in the file and the file row
    /// the window's runs start at.
    fn read(
        &self,
        leaves: &mut [LeafReader],
        window: &Window,
        post: Option<&BooleanBuffer>,
        cached: &[Option<ArrayRef>],
        at: usize,
        place: (usize, i64),
    ) -> Result<RecordBatch> {
        let combined = match (&window.mask, post) {
            (Some(read), Some(post)) => Some(scatter(read, post)),
            (Some(read), None) => Some(read.clone()),
            (None, Some(post)) => Some(post.clone()),
            (None, None) => None,
        };
        let rows = combined
            .as_ref()
            .map_or(window.selected, |m| m.count_set_bits());
        // A top-level leaf read as values keeps the mask's rows as it
        // reads; the other fields are read whole and filtered.
        let mut batches: Vec<LeafBatch> = Vec::with_capacity(leaves.len());
        let mut kept_only = Vec::with_capacity(leaves.len());
        for leaf in leaves {
            let (n, b, kept) = leaf.read_runs(&window.runs, combined.as_ref())?;
            if n != window.rows_read {
                return Err(general(format!(
                    "a column chunk ended after {n} of {} rows",
                    window.rows_read
                )));
            }
            batches.push(b);
            kept_only.push(kept);
        }
        // Per field: `None` when taken from `cached`, else whether its
        // leaf kept the mask's rows.
        let mut first_leaf = 0;
        let mut kept_fields = Vec::with_capacity(self.fields.len());
        for (j, f) in self.fields.iter().enumerate() {
            if matches!(cached.get(j), Some(Some(_))) {
                kept_fields.push(None);
                continue;
            }
            let leaf = matches!(f.kind, FieldKind::Leaf { .. });
            kept_fields.push(Some(
                leaf && kept_only.get(first_leaf).copied().unwrap_or(false),
            ));
            first_leaf += self.field_leaves.get(j).map_or(0, |r| r.len());
        }
        let to_filter = kept_fields.iter().filter(|k| **k == Some(false)).count();
        let mask = combined.as_ref().filter(|_| to_filter > 0).map(|m| {
            let builder = FilterBuilder::new(&BooleanArray::new(m.clone(), None));
            // Several columns share the work of finding the kept runs.
            match to_filter {
                1 => builder.build(),
                _ => builder.optimize().build(),
            }
        });
        let mut next = 0;
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.fields.len());
        for (j, f) in self.fields.iter().enumerate() {
            if let Some(Some(array)) = cached.get(j) {
                if at + rows > array.len() {
                    return Err(general("the arrays kept from a predicate ended early"));
                }
                columns.push(array.slice(at, rows));
                continue;
            }
            let array = assemble(f, 0, 0, &batches, &mut next)?.0;
            columns.push(match &mask {
                Some(mask) if kept_fields.get(j) == Some(&Some(false)) => mask.filter(&array)?,
                _ => array,
            });
        }
        let (row_group, first_row) = place;
        for column in &self.virtual_columns {
            columns.push(column.values(
                row_group,
                first_row,
                &window.runs,
                combined.as_ref(),
                rows,
            ));
        }
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        Ok(RecordBatch::try_new_with_options(
            self.schema.clone(),
            columns,
            &options,
        )?)
    }
}

/// One predicate of a row filter, with the columns it reads.
struct Predicate {
    predicate: Box<dyn ArrowPredicate>,
    columns: DecodedColumns,
}

/// One pass of a predicate over a row group: where its chunks are read
/// from, and how.
struct Pass<'a, R: ChunkReader> {
    group: &'a SerializedRowGroupReader<'a, R>,
    schema: &'a SchemaDescriptor,
    fetches: &'a [ColumnFetch],
    readable: Readable,
    batch_size: usize,
    /// Fields to keep for the output: (the predicate's, the output's).
    keep: &'a [(usize, usize)],
    /// The bytes of arrays that may still be kept (`None`: over).
    budget: Option<usize>,
}

impl Predicate {
    /// Run the predicate on the rows `selectors` select of the pass's row
    /// group, less those `mask` (one bit per row they select) drops.
    ///
    /// The result: one bit per row the predicate was given, set where it
    /// keeps the row. The arrays of the fields `pass.keep` names (the
    /// predicate's field, the output's) are kept for the output, up to
    /// `pass.budget` bytes in all: none are kept once they pass it.
    fn evaluate<R: ChunkReader>(
        &mut self,
        mut pass: Pass<'_, R>,
        mut selectors: VecDeque<RowSelector>,
        mask: Option<&BooleanBuffer>,
    ) -> Result<(BooleanBuffer, Vec<KeptArrays>)> {
        let which: Vec<usize> = (0..self.columns.leaf_columns.len()).collect();
        let mut leaves = self
            .columns
            .open(pass.group, pass.schema, pass.fetches, &which)?;
        let mut result = BooleanBufferBuilder::new(0);
        let mut kept: Vec<KeptArrays> = pass.keep.iter().map(|&(_, j)| (j, Vec::new())).collect();
        let (mut at, mut mask_at) = (0, 0);
        while let Some(window) = Window::next(
            &mut selectors,
            (pass.batch_size, short_skip(&leaves)),
            &mut at,
            &mut pass.readable,
        ) {
            let post = mask.map(|m| m.slice(mask_at, window.selected));
            mask_at += window.selected;
            let batch = self
                .columns
                .read(&mut leaves, &window, post.as_ref(), &[], 0, (0, 0))?;
            let rows = batch.num_rows();
            for (&(i, _), (_, arrays)) in pass.keep.iter().zip(&mut kept) {
                let array = batch.column(i);
                pass.budget = pass
                    .budget
                    .and_then(|b| b.checked_sub(array.get_array_memory_size()));
                arrays.push(Arc::clone(array));
            }
            if pass.budget.is_none() {
                // Over the budget: the output decodes these columns again.
                pass.keep = &[];
                kept.clear();
            }
            let keep = self.predicate.evaluate(batch)?;
            if keep.len() != rows {
                return Err(ParquetError::ArrowError(format!(
                    "a predicate returned {} values for a batch of {rows} rows",
                    keep.len()
                )));
            }
            result.append_buffer(&kept_bits(&keep));
        }
        Ok((result.finish(), kept))
    }
}

/// An output field (its index) and the arrays a predicate decoded of it.
type KeptArrays = (usize, Vec<ArrayRef>);

/// What running the row filter on a planned row group came to.
enum FilterStep {
    /// It needs these ranges first.
    NeedsData(Vec<Range<u64>>),
    /// Every predicate has run; rows are left to read.
    Kept,
    /// No row is left: the row group left the plan.
    Dropped,
}

/// Row-group selections (`entries`, of row groups of `rows` rows each) as
/// one selection over the rows of the row groups they list, in order:
/// `None` where none of them selects anything but whole row groups.
fn local_selections(entries: &[RowGroupSelection], rows: &[usize]) -> Result<Option<RowSelection>> {
    if entries.iter().all(|e| e.selection().is_none()) {
        return Ok(None);
    }
    let mut selectors = Vec::new();
    for (entry, &n) in entries.iter().zip(rows) {
        let Some(selection) = entry.selection() else {
            selectors.push(RowSelector::select(n));
            continue;
        };
        let covered = selection
            .row_count()
            .checked_add(selection.skipped_row_count())
            .filter(|&c| c <= n)
            .ok_or_else(|| {
                general(format!(
                    "the selection of row group {} covers more than its {n} rows",
                    entry.row_group_index()
                ))
            })?;
        selectors.extend(selection.iter().copied());
        selectors.push(RowSelector::skip(n - covered));
    }
    Ok(Some(RowSelection::from(selectors)))
}

/// The fetch of the chunks `leaf_columns` in row group `rg` for the
/// runs `selectors`: when `use_index`, the offset indexes not pushed yet
/// (and not in the metadata), or else the byte ranges of each chunk, just
/// the pages holding the rows read where an offset index says where they
/// are; without `use_index`, whole chunks.
fn plan_fetch(
    use_index: bool,
    leaf_columns: &[usize],
    metadata: &Arc<ParquetMetaData>,
    buffers: &PushBuffers,
    rg: usize,
    selectors: &VecDeque<RowSelector>,
) -> Result<RowGroupFetch> {
    let file = source(metadata, buffers);
    let group = file.row_group(rg)?;
    let mut fetches = Vec::with_capacity(leaf_columns.len());
    if !use_index {
        for &col in leaf_columns {
            let (start, len) = group.column_chunk_range(col)?;
            fetches.push(ColumnFetch {
                ranges: std::iter::once(start..start + len).collect(),
                index: None,
            });
        }
        return Ok(RowGroupFetch::Ready {
            columns: fetches,
            index_ranges: Vec::new(),
            readable: Readable::all(),
        });
    }
    // The offset indexes the metadata lacks, read from pushed bytes.
    let mut index_ranges = Vec::new();
    for &col in leaf_columns {
        if metadata
            .page_index()
            .and_then(|p| p.offset_index(rg, col))
            .is_some()
        {
            continue;
        }
        let chunk = group.column_chunk(col)?;
        if let (Some(offset), Some(length)) = (chunk.offset_index_offset, chunk.offset_index_length)
            && let (Ok(start), Ok(length)) = (u64::try_from(offset), u64::try_from(length))
        {
            index_ranges.push(start..start.saturating_add(length));
        }
    }
    let missing = buffers.missing(&index_ranges);
    if !missing.is_empty() {
        return Ok(RowGroupFetch::NeedIndexes(missing));
    }
    let rows = selected_rows(selectors);
    let num_rows = u64::try_from(group.num_rows()).unwrap_or(0);
    let mut leaf_rows = Vec::new();
    for &col in leaf_columns {
        let index = group.offset_index(col)?;
        let ranges = match &index {
            Some(index) => {
                let starts: Vec<u64> = index
                    .page_locations
                    .iter()
                    .map(|p| u64::try_from(p.first_row_index).unwrap_or(0))
                    .collect();
                leaf_rows.push(pages_rows(&starts, num_rows, &rows));
                group.page_ranges_for_rows(col, index, &rows)?
            }
            None => {
                let (start, len) = group.column_chunk_range(col)?;
                std::iter::once(start..start + len).collect()
            }
        };
        fetches.push(ColumnFetch { ranges, index });
    }
    Ok(RowGroupFetch::Ready {
        columns: fetches,
        index_ranges,
        readable: Readable::intersection(&leaf_rows),
    })
}

/// The state of a read: its plan, the open row group, and the rows of the
/// batch being filled.
pub(crate) struct ReadState {
    output: Arc<DecodedColumns>,
    batch_size: usize,
    /// Row groups to read, in order, with their runs of rows.
    plan: VecDeque<PlannedRowGroup>,
    current: Option<OpenRowGroup>,
    /// The fetch plan of the next row group's output columns, once made.
    pending: Option<RowGroupFetch>,
    /// Whether selections skip rows (so page locations are worth having).
    use_index: bool,
    /// The row filter's predicates, run in order on each row group before
    /// its output columns are read.
    predicates: Vec<Predicate>,
    /// Per predicate: the fields whose arrays it keeps for the output
    /// (its field, the output's), each output field from the last
    /// predicate that reads all of it; and the most bytes kept per row
    /// group.
    cache_from: Vec<Vec<(usize, usize)>>,
    max_cache_bytes: usize,
    /// Whether a filter's kept rows stay a mask or become selectors.
    selection_policy: RowSelectionPolicy,
    /// With a row filter, offset and limit apply to the rows it keeps, row
    /// group by row group: the rows still to drop and to keep.
    offset_left: usize,
    limit_left: Option<usize>,
    /// Keep the ranges the predicates fetched that the output reads too
    /// (the push decoder and the stream, whose every fetch is a request);
    /// the synchronous reader reads them again instead.
    hold_ranges: bool,
    /// Per row group of the file, the file row it starts at (for row
    /// numbers; empty without virtual columns).
    row_group_starts: Arc<[i64]>,
    /// Parts of the batch being filled, and their rows.
    parts: Vec<RecordBatch>,
    rows: usize,
    /// Whether a batch goes on into the next row group (the synchronous
    /// reader's batches do; the push decoder's and the stream's end with
    /// each row group, as arrow-rs's do).
    spans_row_groups: bool,
}

impl ReadState {
    /// The read `builder`'s options describe, filtered by `filter`.
    pub(crate) fn try_new<T>(
        builder: &ArrowReaderBuilder<T>,
        filter: Option<RowFilter>,
    ) -> Result<Self> {
        let metadata = &builder.metadata;
        let output = DecodedColumns::new(builder, &builder.projection, true)?;
        let mut predicates = Vec::new();
        for predicate in filter.map(RowFilter::into_predicates).unwrap_or_default() {
            let columns = DecodedColumns::new(builder, predicate.projection(), false)?;
            predicates.push(Predicate { predicate, columns });
        }
        let mut cache_from = vec![Vec::new(); predicates.len()];
        for (j, field) in output.fields.iter().enumerate() {
            let leaves = &output.leaf_columns[output.field_leaves[j].clone()];
            let from = predicates.iter().enumerate().rev().find_map(|(k, p)| {
                let c = &p.columns;
                (0..c.fields.len())
                    .find(|&i| {
                        &c.leaf_columns[c.field_leaves[i].clone()] == leaves
                            && c.fields[i].arrow_type == field.arrow_type
                            && c.schema.field(i).name() == output.schema.field(j).name()
                    })
                    .map(|i| (k, i))
            });
            if let Some((k, i)) = from {
                cache_from[k].push((i, j));
            }
        }
        let num_rg = metadata.num_row_groups();
        let row_groups = match &builder.row_group_selections {
            Some(_) if builder.row_groups.is_some() || builder.selection.is_some() => {
                return Err(general(
                    "with_row_group_selections cannot be combined with with_row_groups or \
                     with_row_selection",
                ));
            }
            Some(entries) => entries.iter().map(|e| e.row_group_index()).collect(),
            None => builder
                .row_groups
                .clone()
                .unwrap_or_else(|| (0..num_rg).collect()),
        };
        let mut rows = Vec::with_capacity(row_groups.len());
        for &rg in &row_groups {
            let g = metadata
                .row_groups()
                .get(rg)
                .ok_or_else(|| general(format!("row group {rg} of {num_rg}")))?;
            rows.push(usize::try_from(g.num_rows).map_err(|_| general("negative row count"))?);
        }
        let total = rows
            .iter()
            .try_fold(0usize, |sum, &n| sum.checked_add(n))
            .ok_or_else(|| general("the row groups read hold more rows than a usize counts"))?;
        let given = match &builder.row_group_selections {
            Some(entries) => local_selections(entries, &rows)?,
            None => builder.selection.clone(),
        };
        let has_selection = given.is_some();
        let mut selection =
            given.unwrap_or_else(|| RowSelection::from(vec![RowSelector::select(total)]));
        // Without a filter, offset and limit cut the selection now; with
        // one, they cut what it keeps, as each row group is filtered.
        let (mut offset_left, mut limit_left) = (builder.offset.unwrap_or(0), builder.limit);
        if predicates.is_empty() {
            selection = selection.offset(std::mem::take(&mut offset_left));
            if let Some(limit) = limit_left.take() {
                selection = selection.limit(limit);
            }
        }
        let mut plan = VecDeque::new();
        let mut selectors: VecDeque<RowSelector> = selection.iter().copied().collect();
        for (&rg, &n) in row_groups.iter().zip(&rows) {
            let mut mine = Vec::new();
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
                mine.push(s);
            }
            let selectors = runs_to_read(mine);
            if !selectors.is_empty() {
                plan.push_back(PlannedRowGroup {
                    rg,
                    selectors,
                    mask: None,
                    predicates_run: 0,
                    held: Vec::new(),
                    cache: Vec::new(),
                    cache_bytes: 0,
                });
            }
        }
        Ok(Self {
            batch_size: builder.batch_size,
            plan,
            current: None,
            pending: None,
            use_index: has_selection || !predicates.is_empty(),
            predicates,
            cache_from,
            max_cache_bytes: builder.max_predicate_cache_size,
            selection_policy: builder.row_selection_policy,
            offset_left,
            limit_left,
            hold_ranges: true,
            row_group_starts: if output.virtual_columns.is_empty() {
                Arc::from([])
            } else {
                metadata
                    .row_groups()
                    .iter()
                    .scan(0i64, |start, g| {
                        let first = *start;
                        *start = start.saturating_add(g.num_rows);
                        Some(first)
                    })
                    .collect()
            },
            output: Arc::new(output),
            parts: Vec::new(),
            rows: 0,
            spans_row_groups: false,
        })
    }

    /// Let batches go on into the next row group.
    pub(crate) fn spanning_row_groups(mut self) -> Self {
        self.spans_row_groups = true;
        self
    }

    /// The schema of the batches.
    pub(crate) fn schema(&self) -> &SchemaRef {
        &self.output.schema
    }

    /// A state holding what this one has open (the rows decoded and the
    /// open row group), which this one gives up.
    fn split_current(&mut self) -> ReadState {
        ReadState {
            output: Arc::clone(&self.output),
            batch_size: self.batch_size,
            plan: VecDeque::new(),
            current: self.current.take(),
            pending: None,
            use_index: self.use_index,
            predicates: Vec::new(),
            cache_from: Vec::new(),
            max_cache_bytes: 0,
            selection_policy: self.selection_policy,
            offset_left: 0,
            limit_left: None,
            hold_ranges: self.hold_ranges,
            row_group_starts: Arc::clone(&self.row_group_starts),
            parts: std::mem::take(&mut self.parts),
            rows: std::mem::take(&mut self.rows),
            spans_row_groups: self.spans_row_groups,
        }
    }

    /// Run the row filter on every planned row group now, fetching what
    /// it needs with `fetch` (the synchronous reader, which evaluates it
    /// when built, as arrow-rs's does). The ranges the predicates fetch
    /// are released as each is evaluated.
    pub(crate) fn filter_all(
        &mut self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &mut PushBuffers,
        mut fetch: impl FnMut(&[Range<u64>]) -> Result<Vec<Bytes>>,
    ) -> Result<()> {
        self.hold_ranges = false;
        let mut i = 0;
        while i < self.plan.len() {
            match self.filter_row_group(i, metadata, buffers)? {
                FilterStep::NeedsData(ranges) => {
                    let data = fetch(&ranges)?;
                    buffers.push_ranges(ranges, data)?;
                }
                FilterStep::Kept => i += 1,
                FilterStep::Dropped => {}
            }
        }
        Ok(())
    }

    /// Run the predicates not yet run on planned row group `i`, as far as
    /// the pushed bytes allow. When the last has run, the row group's
    /// rows are cut by what is left of offset and limit; a row group left
    /// with none leaves the plan, and so do those after the limit is met.
    fn filter_row_group(
        &mut self,
        i: usize,
        metadata: &Arc<ParquetMetaData>,
        buffers: &mut PushBuffers,
    ) -> Result<FilterStep> {
        loop {
            let Some(entry) = self.plan.get(i) else {
                return Ok(FilterStep::Dropped);
            };
            let k = entry.predicates_run;
            if k == self.predicates.len() {
                return Ok(FilterStep::Kept);
            }
            if self.limit_left == Some(0) {
                self.drop_row_groups(i..self.plan.len(), buffers);
                return Ok(FilterStep::Dropped);
            }
            let (rg, selectors) = (entry.rg, &entry.selectors);
            let columns = &self.predicates[k].columns.leaf_columns;
            let (fetches, index_ranges, readable) =
                match plan_fetch(true, columns, metadata, buffers, rg, selectors)? {
                    RowGroupFetch::NeedIndexes(missing) => {
                        return Ok(FilterStep::NeedsData(missing));
                    }
                    RowGroupFetch::Ready {
                        columns,
                        index_ranges,
                        readable,
                    } => (columns, index_ranges, readable),
                };
            let missing: Vec<Range<u64>> = fetches
                .iter()
                .flat_map(|c| buffers.missing(&c.ranges))
                .collect();
            if !missing.is_empty() {
                return Ok(FilterStep::NeedsData(missing));
            }
            let keep: &[(usize, usize)] = if self.hold_ranges {
                &self.cache_from[k]
            } else {
                &[]
            };
            let given = selectors.clone();
            let given_mask = entry.mask.clone();
            let (kept, arrays) = {
                let file = source(metadata, buffers);
                let group = file.row_group(rg)?;
                let pass = Pass {
                    group: &group,
                    schema: metadata.schema_descr(),
                    fetches: &fetches,
                    readable,
                    batch_size: self.batch_size,
                    keep,
                    budget: self.max_cache_bytes.checked_sub(entry.cache_bytes),
                };
                self.predicates[k].evaluate(pass, given.clone(), given_mask.as_ref())?
            };
            let Some(entry) = self.plan.get_mut(i) else {
                return Ok(FilterStep::Dropped);
            };
            for (field, arrays) in arrays {
                entry.cache_bytes += arrays
                    .iter()
                    .map(|a| a.get_array_memory_size())
                    .sum::<usize>();
                entry.cache.push(CachedField {
                    field,
                    rows: given.clone(),
                    mask: given_mask.clone(),
                    arrays,
                });
            }
            let cached = cached_fields(&entry.cache, self.output.fields.len());
            let output_reads = self.output.leaves_read(&cached);
            // The ranges read: kept for the output or a later predicate
            // that reads the same column, released otherwise.
            let mut release = Vec::new();
            let mut hold = index_ranges;
            for (fetch, col) in fetches
                .into_iter()
                .zip(&self.predicates[k].columns.leaf_columns)
            {
                let read_later = output_reads
                    .iter()
                    .any(|&p| self.output.leaf_columns[p] == *col)
                    || self.predicates[k + 1..]
                        .iter()
                        .any(|p| p.columns.leaf_columns.contains(col));
                if self.hold_ranges && read_later {
                    hold.extend(fetch.ranges);
                } else {
                    release.extend(fetch.ranges);
                }
            }
            if !self.hold_ranges {
                release.append(&mut hold);
            }
            buffers.retain(|r| !release.contains(r));
            let Some(entry) = self.plan.get_mut(i) else {
                return Ok(FilterStep::Dropped);
            };
            entry.held.append(&mut hold);
            // The rows kept, one bit per row the selectors select.
            let kept = match &given_mask {
                Some(mask) => scatter(mask, &kept),
                None => kept,
            };
            entry.predicates_run += 1;
            let last = entry.predicates_run == self.predicates.len();
            let cut = last && (self.offset_left > 0 || self.limit_left.is_some());
            // Kept rows in runs (a range predicate, page pruning): the
            // selectors take them, so the rows and pages between are
            // skipped. Scattered (by the policy; by default runs, kept and
            // dropped, under 32 rows long on average): the selectors stay
            // and the mask drops rows as they are read.
            let runs = kept.set_slices().count();
            if cut
                || (runs > 0
                    && !self
                        .selection_policy
                        .use_mask(selector_count(&kept, runs), kept.len()))
            {
                let kept = RowSelection::from_filters(&[BooleanArray::new(kept, None)]);
                let selection = RowSelection::from(Vec::from(std::mem::take(&mut entry.selectors)));
                let mut selection = selection.and_then(&kept);
                if last {
                    if self.offset_left > 0 {
                        let n = selection.row_count();
                        selection = selection.offset(self.offset_left);
                        self.offset_left -= self.offset_left.min(n);
                    }
                    if let Some(limit) = self.limit_left {
                        selection = selection.limit(limit);
                        self.limit_left = Some(limit - selection.row_count().min(limit));
                    }
                }
                entry.selectors = runs_to_read(selection.iter().copied());
                entry.mask = None;
            } else if runs == 0 {
                entry.selectors.clear();
            } else {
                entry.mask = Some(kept);
            }
            if entry.selectors.is_empty() {
                self.drop_row_groups(i..i + 1, buffers);
                return Ok(FilterStep::Dropped);
            }
            if last && self.limit_left == Some(0) {
                // Nothing after this row group is read.
                self.drop_row_groups(i + 1..self.plan.len(), buffers);
            }
        }
    }

    /// Take planned row groups `range` out of the plan, releasing the
    /// ranges they hold.
    fn drop_row_groups(&mut self, range: Range<usize>, buffers: &mut PushBuffers) {
        let held: Vec<Range<u64>> = self
            .plan
            .drain(range)
            .flat_map(|entry| entry.held)
            .collect();
        if !held.is_empty() {
            buffers.retain(|r| !held.contains(r));
        }
    }

    /// Run the row filter on the next planned row group, as far as the
    /// pushed bytes allow: the ranges it needs first, or none once it has
    /// run (the row groups it leaves no row of have left the plan).
    fn filter_next(
        &mut self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &mut PushBuffers,
    ) -> Result<Vec<Range<u64>>> {
        while !self.plan.is_empty() {
            match self.filter_row_group(0, metadata, buffers)? {
                FilterStep::NeedsData(ranges) => return Ok(ranges),
                FilterStep::Kept => break,
                FilterStep::Dropped => {}
            }
        }
        Ok(Vec::new())
    }

    /// The ranges the next planned row group still needs, filtering and
    /// planning it first if it is not yet; empty once all are pushed (or
    /// when the filter has left no row group to read).
    fn missing_for_next(
        &mut self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &mut PushBuffers,
    ) -> Result<Vec<Range<u64>>> {
        if !self.predicates.is_empty() && self.pending.is_none() {
            let missing = self.filter_next(metadata, buffers)?;
            if !missing.is_empty() {
                return Ok(missing);
            }
        }
        let Some(entry) = self.plan.front() else {
            return Ok(Vec::new());
        };
        if self.pending.is_none() {
            let cached = cached_fields(&entry.cache, self.output.fields.len());
            let leaves: Vec<usize> = self
                .output
                .leaves_read(&cached)
                .into_iter()
                .map(|p| self.output.leaf_columns[p])
                .collect();
            let fetch = plan_fetch(
                self.use_index,
                &leaves,
                metadata,
                buffers,
                entry.rg,
                &entry.selectors,
            )?;
            match fetch {
                RowGroupFetch::NeedIndexes(missing) => return Ok(missing),
                ready => self.pending = Some(ready),
            }
        }
        let Some(RowGroupFetch::Ready { columns, .. }) = &self.pending else {
            return Ok(Vec::new());
        };
        let mut missing = Vec::new();
        for c in columns {
            missing.extend(buffers.missing(&c.ranges));
        }
        Ok(missing)
    }

    /// Open the next planned row group, whose ranges were all pushed, and
    /// release the pushed ranges it asked for.
    fn open_next(
        &mut self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &mut PushBuffers,
    ) -> Result<()> {
        let Some(RowGroupFetch::Ready {
            columns,
            index_ranges,
            readable,
        }) = self.pending.take()
        else {
            return Err(general("a row group opened before it was planned"));
        };
        let Some(entry) = self.plan.pop_front() else {
            return Ok(());
        };
        let file = source(metadata, buffers);
        let group = file.row_group(entry.rg)?;
        let fields = self.output.fields.len();
        let which = self
            .output
            .leaves_read(&cached_fields(&entry.cache, fields));
        let leaves = self
            .output
            .open(&group, metadata.schema_descr(), &columns, &which)?;
        // The kept arrays, cut to the rows the filter kept.
        let mut cached: Vec<Option<ArrayRef>> = Vec::new();
        for c in &entry.cache {
            let parts: Vec<&dyn arrow_array::Array> = c.arrays.iter().map(|a| a.as_ref()).collect();
            let all = arrow_select::concat::concat(&parts)?;
            let subset = subset_mask(
                (&c.rows, c.mask.as_ref()),
                (&entry.selectors, entry.mask.as_ref()),
            )?;
            let kept = arrow_select::filter::filter(&all, &subset)?;
            cached.resize(fields, None);
            cached[c.field] = Some(kept);
        }
        buffers.retain(|r| {
            !index_ranges.contains(r)
                && !entry.held.contains(r)
                && !columns.iter().any(|c| c.ranges.contains(r))
        });
        let first_row = self.row_group_starts.get(entry.rg).copied().unwrap_or(0);
        self.current = Some(OpenRowGroup {
            rg: entry.rg,
            first_row,
            leaves,
            selectors: entry.selectors,
            mask: entry.mask,
            mask_at: 0,
            at: 0,
            readable,
            cached,
            cached_at: 0,
        });
        Ok(())
    }

    fn try_decode(
        &mut self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &mut PushBuffers,
    ) -> Result<DecodeResult<RecordBatch>> {
        while self.rows < self.batch_size {
            if self.current.is_none() {
                if self.plan.is_empty() {
                    break;
                }
                let missing = self.missing_for_next(metadata, buffers)?;
                if !missing.is_empty() {
                    return Ok(DecodeResult::NeedsData(missing));
                }
                if self.plan.is_empty() {
                    // The filter left no row of the row groups left.
                    break;
                }
                self.open_next(metadata, buffers)?;
            }
            match self.next_run(self.batch_size - self.rows)? {
                Some(part) if part.num_rows() == 0 => {}
                Some(part) => {
                    self.rows += part.num_rows();
                    self.parts.push(part);
                }
                None => {
                    self.current = None;
                    if !self.spans_row_groups && self.rows > 0 {
                        break;
                    }
                }
            }
        }
        self.rows = 0;
        let mut parts = std::mem::take(&mut self.parts);
        if parts.len() <= 1 {
            return Ok(match parts.pop() {
                Some(batch) => DecodeResult::Data(batch),
                None => DecodeResult::Finished,
            });
        }
        Ok(DecodeResult::Data(arrow_select::concat::concat_batches(
            &self.output.schema,
            &parts,
        )?))
    }

    /// Up to `max` (> 0) selected rows of the open row group, as one
    /// batch; `None` when the row group has no more.
    fn next_run(&mut self, max: usize) -> Result<Option<RecordBatch>> {
        let Some(current) = &mut self.current else {
            return Ok(None);
        };
        // With a mask, enough selected rows to keep `max`.
        let take = match &current.mask {
            Some(mask) => bits_holding(mask, current.mask_at, max).max(1),
            None => max,
        };
        let start = current.first_row.saturating_add_unsigned(current.at);
        let Some(window) = Window::next(
            &mut current.selectors,
            (take, short_skip(&current.leaves)),
            &mut current.at,
            &mut current.readable,
        ) else {
            return Ok(None);
        };
        let post = current
            .mask
            .as_ref()
            .map(|m| m.slice(current.mask_at, window.selected));
        current.mask_at += window.selected;
        let batch = self.output.read(
            &mut current.leaves,
            &window,
            post.as_ref(),
            &current.cached,
            current.cached_at,
            (current.rg, start),
        )?;
        current.cached_at += batch.num_rows();
        Ok(Some(batch))
    }
}

/// A file reader over the pushed bytes (the metadata shared, not copied).
fn source<'a>(
    metadata: &Arc<ParquetMetaData>,
    buffers: &'a PushBuffers,
) -> SerializedFileReader<&'a PushBuffers> {
    SerializedFileReader::with_metadata(
        buffers,
        metadata.as_ref().clone(),
        ReaderProperties::default(),
    )
}

fn leaf_arrow_types(field: &ParquetField, out: &mut Vec<DataType>) {
    match &field.kind {
        FieldKind::Leaf { .. } => out.push(field.arrow_type.clone()),
        FieldKind::Struct { children } => children.iter().for_each(|c| leaf_arrow_types(c, out)),
        FieldKind::List { element } => leaf_arrow_types(element, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ArrowWriter;
    use crate::arrow_reader::ArrowPredicateFn;
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    use arrow_array::{Int64Array, StringArray};
    use strata_file::metadata::ParquetMetaDataReader;

    #[test]
    fn selectors_counted_from_a_mask_are_its_runs_of_either_value() {
        for bits in [
            vec![true],
            vec![false, true],
            vec![true, false],
            vec![false, true, true, false, true, false, false],
            vec![true, false, true, true],
        ] {
            let kept = BooleanBuffer::from(bits.as_slice());
            let changes = bits.windows(2).filter(|w| w[0] != w[1]).count();
            let runs = kept.set_slices().count();
            assert_eq!(selector_count(&kept, runs), changes + 1, "{bits:?}");
        }
        assert_eq!(selector_count(&BooleanBuffer::new_set(0), 0), 0);
    }

    fn file() -> Bytes {
        let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..1000));
        let names: ArrayRef = Arc::new(StringArray::from_iter_values(
            (0..1000).map(|i| format!("n{i}")),
        ));
        let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
        let mut out = Vec::new();
        let mut w = ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        Bytes::from(out)
    }

    /// The decoder, with a filter on `id` (id % 3 == 0), opened on its
    /// first row group; and the ids of its first batch.
    fn opened(cache: usize) -> (ParquetPushDecoder, Vec<i64>) {
        let file = file();
        let metadata = Arc::new(
            ParquetMetaDataReader::new()
                .parse_and_finish(&file)
                .unwrap(),
        );
        let builder = ParquetPushDecoderBuilder::try_new_decoder(metadata).unwrap();
        let mask = ProjectionMask::roots(builder.parquet_schema(), [0]);
        let predicate = ArrowPredicateFn::new(mask, |b: RecordBatch| {
            let ids = b.column(0).as_primitive::<Int64Type>();
            Ok(BooleanArray::from_iter(
                ids.iter().map(|v| v.map(|v| v % 3 == 0)),
            ))
        });
        let mut decoder = builder
            .with_row_filter(RowFilter::new(vec![Box::new(predicate)]))
            .with_max_predicate_cache_size(cache)
            .with_batch_size(100)
            .build()
            .unwrap();
        loop {
            match decoder.try_decode().unwrap() {
                DecodeResult::NeedsData(ranges) => {
                    let data = ranges
                        .iter()
                        .map(|r| file.slice(r.start as usize..r.end as usize))
                        .collect();
                    decoder.push_ranges(ranges, data).unwrap();
                }
                DecodeResult::Data(b) => {
                    let ids = b.column(0).as_primitive::<Int64Type>().values().to_vec();
                    return (decoder, ids);
                }
                DecodeResult::Finished => panic!("no batch"),
            }
        }
    }

    #[test]
    fn a_column_filtered_on_and_returned_is_decoded_once() {
        let (decoder, ids) = opened(100 << 20);
        let current = decoder.state.current.as_ref().unwrap();
        // Only `name` is read by the output; `id` comes from the predicate.
        assert_eq!(current.leaves.len(), 1);
        assert!(current.cached[0].is_some() && current.cached.get(1).is_none_or(Option::is_none));
        assert_eq!(ids[..4], [0, 3, 6, 9]);

        let (decoder, uncached) = opened(0);
        let current = decoder.state.current.as_ref().unwrap();
        assert_eq!(current.leaves.len(), 2);
        assert!(current.cached.iter().all(Option::is_none));
        assert_eq!(uncached, ids);
    }

    #[test]
    fn subset_masks_mark_the_inner_rows() {
        let outer: VecDeque<RowSelector> = [
            RowSelector::select(4),
            RowSelector::skip(3),
            RowSelector::select(3),
        ]
        .into();
        let inner: VecDeque<RowSelector> = [
            RowSelector::skip(1),
            RowSelector::select(2),
            RowSelector::skip(6),
            RowSelector::select(1),
        ]
        .into();
        let mask: Vec<bool> = subset_mask((&outer, None), (&inner, None))
            .unwrap()
            .values()
            .iter()
            .collect();
        assert_eq!(mask, [false, true, true, false, false, false, true]);
    }
}
