//! [`ParquetPushDecoder`]: Arrow batches decoded from bytes the caller
//! pushes, with no I/O of its own (arrow-rs's
//! `parquet::arrow::push_decoder`).
//!
//! ## One decoding core
//!
//! Every Arrow read in strata runs this decoder. The synchronous
//! [`ParquetRecordBatchReader`] answers its requests from a
//! [`ChunkReader`](strata_file::chunk_reader::ChunkReader); the async
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

use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType, Schema, SchemaRef};
use bytes::Bytes;
use strata_file::DecodeResult;
use strata_file::metadata::ParquetMetaData;
use strata_file::properties::ReaderProperties;
use strata_file::push_buffers::PushBuffers;
use strata_file::serialized_reader::SerializedFileReader;

pub use crate::arrow_reader::RowGroupSelection;
use crate::arrow_reader::{
    ArrowReaderBuilder, ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    RowSelection, RowSelector,
};
use crate::error::{Result, general};
use crate::reader::{LeafBatch, LeafReader, assemble, leaf_slot_levels};
use crate::schema::{FieldKind, ParquetField, build_arrow_schema};

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
    pub fn build(self) -> Result<ParquetPushDecoder> {
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
            .field("schema", &self.state.schema)
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
        &self.state.schema
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
        let missing = self.state.missing_for_next(&self.metadata, &self.buffers)?;
        if !missing.is_empty() {
            return Ok(DecodeResult::NeedsData(missing));
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
        let ranges = self.state.missing_for_next(&self.metadata, &self.buffers)?;
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
        Ok(self.state.plan.front().map(|(rg, _)| *rg))
    }
}

/// The row group being read: a leaf reader per projected leaf and the
/// runs of rows left.
struct OpenRowGroup {
    leaves: Vec<LeafReader>,
    selectors: VecDeque<RowSelector>,
}

/// What one projected column chunk of a row group is read from.
struct ColumnFetch {
    /// The byte ranges to fetch: the whole chunk, or its dictionary and
    /// the pages holding selected rows.
    ranges: Vec<Range<u64>>,
    /// Its offset index, when selections skip rows and it has one.
    index: Option<strata_format::metadata::OffsetIndex>,
}

/// The plan of the next row group's fetch.
enum RowGroupFetch {
    /// Its offset indexes must be pushed first.
    NeedIndexes(Vec<Range<u64>>),
    /// The ranges of each column chunk, and the offset index ranges read
    /// to find them.
    Ready {
        columns: Vec<ColumnFetch>,
        index_ranges: Vec<Range<u64>>,
    },
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

/// The rows `selectors` select, as sorted ranges of row-group rows.
fn selected_rows(selectors: &VecDeque<RowSelector>) -> Vec<Range<u64>> {
    let mut rows = Vec::new();
    let mut at = 0u64;
    for s in selectors {
        let end = at + s.row_count as u64;
        if !s.skip {
            rows.push(at..end);
        }
        at = end;
    }
    rows
}

/// The state of a read: its plan, the open row group, and the rows of the
/// batch being filled.
pub(crate) struct ReadState {
    schema: SchemaRef,
    fields: Arc<Vec<ParquetField>>,
    leaf_columns: Arc<Vec<usize>>,
    leaf_types: Arc<Vec<DataType>>,
    slot_levels: Arc<Vec<i16>>,
    /// Per leaf: a field of the schema root (no parent reads its levels).
    top_level: Arc<Vec<bool>>,
    batch_size: usize,
    /// Row groups to read, in order, with their runs of rows.
    plan: VecDeque<(usize, VecDeque<RowSelector>)>,
    current: Option<OpenRowGroup>,
    /// The fetch plan of the next row group, once made.
    pending: Option<RowGroupFetch>,
    /// Whether selections skip rows (so page locations are worth having).
    use_index: bool,
    /// Parts of the batch being filled, and their rows.
    parts: Vec<RecordBatch>,
    rows: usize,
    /// Whether a batch goes on into the next row group (the synchronous
    /// reader's batches do; the push decoder's and the stream's end with
    /// each row group, as arrow-rs's do).
    spans_row_groups: bool,
}

impl ReadState {
    /// The read `builder`'s options describe.
    pub(crate) fn try_new<T>(builder: &ArrowReaderBuilder<T>) -> Result<Self> {
        let metadata = &builder.metadata;
        let kv = metadata.file_metadata().key_value_metadata.as_deref();
        let (schema, fields) = build_arrow_schema(
            metadata.schema_descr(),
            builder.projection.as_slice(),
            builder.hint.as_ref().map(|(h, rule)| (h, *rule)),
            kv,
        )?;
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
        if let Some(offset) = builder.offset {
            selection = selection.offset(offset);
        }
        if let Some(limit) = builder.limit {
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
        let mut leaf_types = Vec::new();
        for f in &fields {
            f.leaves(&mut leaf_columns);
            leaf_slot_levels(f, 0, &mut slot_levels);
            let is_leaf = matches!(f.kind, FieldKind::Leaf { .. });
            top_level.resize(slot_levels.len(), is_leaf);
            leaf_arrow_types(f, &mut leaf_types);
        }
        Ok(Self {
            // The batches' schema: the projected fields, without the
            // schema-level metadata (the builder's `schema()` has it), as
            // arrow-rs's batches come.
            schema: Arc::new(Schema::new(schema.fields().clone())),
            fields: Arc::new(fields),
            leaf_columns: Arc::new(leaf_columns),
            leaf_types: Arc::new(leaf_types),
            slot_levels: Arc::new(slot_levels),
            top_level: Arc::new(top_level),
            batch_size: builder.batch_size,
            plan,
            current: None,
            pending: None,
            use_index: has_selection,
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

    /// A state holding what this one has open (the rows decoded and the
    /// open row group), which this one gives up.
    fn split_current(&mut self) -> ReadState {
        ReadState {
            schema: self.schema.clone(),
            fields: Arc::clone(&self.fields),
            leaf_columns: Arc::clone(&self.leaf_columns),
            leaf_types: Arc::clone(&self.leaf_types),
            slot_levels: Arc::clone(&self.slot_levels),
            top_level: Arc::clone(&self.top_level),
            batch_size: self.batch_size,
            plan: VecDeque::new(),
            current: self.current.take(),
            pending: None,
            use_index: self.use_index,
            parts: std::mem::take(&mut self.parts),
            rows: std::mem::take(&mut self.rows),
            spans_row_groups: self.spans_row_groups,
        }
    }

    /// What row group `rg` (the next planned) needs: the offset indexes
    /// not pushed yet, when selections skip rows and the metadata holds
    /// none; or else the byte ranges of each projected column chunk, just
    /// the pages holding selected rows where an offset index says where
    /// they are.
    fn plan_row_group(
        &self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &PushBuffers,
        rg: usize,
        selectors: &VecDeque<RowSelector>,
    ) -> Result<RowGroupFetch> {
        let file = source(metadata, buffers);
        let group = file.row_group(rg)?;
        let mut columns = Vec::with_capacity(self.leaf_columns.len());
        if !self.use_index {
            for &col in self.leaf_columns.iter() {
                let (start, len) = group.column_chunk_range(col)?;
                columns.push(ColumnFetch {
                    ranges: std::iter::once(start..start + len).collect(),
                    index: None,
                });
            }
            return Ok(RowGroupFetch::Ready {
                columns,
                index_ranges: Vec::new(),
            });
        }
        // The offset indexes the metadata lacks, read from pushed bytes.
        let mut index_ranges = Vec::new();
        for &col in self.leaf_columns.iter() {
            if metadata
                .page_index()
                .and_then(|p| p.offset_index(rg, col))
                .is_some()
            {
                continue;
            }
            let chunk = group.column_chunk(col)?;
            if let (Some(offset), Some(length)) =
                (chunk.offset_index_offset, chunk.offset_index_length)
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
        for &col in self.leaf_columns.iter() {
            let index = group.offset_index(col)?;
            let ranges = match &index {
                Some(index) => group.page_ranges_for_rows(col, index, &rows)?,
                None => {
                    let (start, len) = group.column_chunk_range(col)?;
                    std::iter::once(start..start + len).collect()
                }
            };
            columns.push(ColumnFetch { ranges, index });
        }
        Ok(RowGroupFetch::Ready {
            columns,
            index_ranges,
        })
    }

    /// The ranges the next planned row group still needs, planning it
    /// first if it is not yet; empty once all are pushed.
    fn missing_for_next(
        &mut self,
        metadata: &Arc<ParquetMetaData>,
        buffers: &PushBuffers,
    ) -> Result<Vec<Range<u64>>> {
        let Some((rg, selectors)) = self.plan.front() else {
            return Ok(Vec::new());
        };
        if self.pending.is_none() {
            match self.plan_row_group(metadata, buffers, *rg, selectors)? {
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
        }) = self.pending.take()
        else {
            return Err(general("a row group opened before it was planned"));
        };
        let Some((rg, selectors)) = self.plan.pop_front() else {
            return Ok(());
        };
        let file = source(metadata, buffers);
        let group = file.row_group(rg)?;
        let schema = metadata.schema_descr();
        let mut leaves = Vec::with_capacity(self.leaf_columns.len());
        for (i, (&col, fetch)) in self.leaf_columns.iter().zip(&columns).enumerate() {
            let descr = schema
                .columns()
                .get(col)
                .ok_or_else(|| general(format!("leaf column {col}")))?
                .clone();
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
        buffers
            .retain(|r| !index_ranges.contains(r) && !columns.iter().any(|c| c.ranges.contains(r)));
        self.current = Some(OpenRowGroup { leaves, selectors });
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
                self.open_next(metadata, buffers)?;
            }
            match self.next_run(self.batch_size - self.rows)? {
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
            &self.schema,
            &parts,
        )?))
    }

    /// Up to `max` (> 0) rows of the open row group's next selected run;
    /// `None` when the row group has no more.
    fn next_run(&mut self, max: usize) -> Result<Option<RecordBatch>> {
        let Some(current) = &mut self.current else {
            return Ok(None);
        };
        loop {
            let Some(sel) = current.selectors.pop_front() else {
                return Ok(None);
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
            for f in self.fields.iter() {
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
