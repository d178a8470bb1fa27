//! Reading Parquet into Arrow from async sources (feature `async`), with
//! arrow-rs's names: [`AsyncFileReader`], [`ParquetRecordBatchStreamBuilder`]
//! and the [`ParquetRecordBatchStream`] it builds.
//!
//! The stream runs the same [`ParquetPushDecoder`] as every other read:
//! when the decoder asks for byte ranges, the stream hands all of them to
//! [`AsyncFileReader::get_byte_ranges`] in one call (an object store
//! coalesces and fetches them concurrently) and pushes the answer back.
//! Nothing is fetched that the synchronous reader would not read: the
//! projected column chunks of the row groups read, and, for a row
//! selection over an offset index, only the pages holding selected rows.
//!
//! The metadata comes from [`AsyncFileReader::get_metadata`]; for a
//! tokio file (any `AsyncRead + AsyncSeek`) that is the footer's tail,
//! then the metadata, then the page indexes the options ask for, through
//! [`ParquetMetaDataPushDecoder`].
//!
//! ```
//! # use std::sync::Arc;
//! # use arrow_array::{ArrayRef, Int32Array, RecordBatch};
//! # use strata_arrow::ArrowWriter;
//! # let batch = RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef)]).unwrap();
//! # let mut file = Vec::new();
//! # let mut w = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
//! # w.write(&batch).unwrap();
//! # w.close().unwrap();
//! use futures::TryStreamExt;
//! use strata_arrow::async_reader::ParquetRecordBatchStreamBuilder;
//!
//! # futures::executor::block_on(async {
//! // Any `AsyncRead + AsyncSeek + Unpin + Send` is an AsyncFileReader:
//! // a tokio::fs::File, or here a cursor over bytes in memory.
//! let input = std::io::Cursor::new(file);
//! let stream = ParquetRecordBatchStreamBuilder::new(input)
//!     .await
//!     .unwrap()
//!     .with_batch_size(2)
//!     .build()
//!     .unwrap();
//! let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
//! assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 3);
//! # });
//! ```

use std::io::SeekFrom;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use bytes::Bytes;
use futures::future::{BoxFuture, FutureExt};
use futures::stream::Stream;
use strata_file::DecodeResult;
use strata_file::bloom::{BloomFilterStep, Sbbf};
use strata_file::metadata::{ParquetMetaData, ParquetMetaDataPushDecoder};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncSeek, AsyncSeekExt};

pub use crate::arrow_reader::RowGroupSelection;
use crate::arrow_reader::{
    ArrowReaderBuilder, ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    bloom_filter_fetch,
};
use crate::error::{ParquetError, Result};
use crate::push_decoder::ParquetPushDecoder;

#[cfg(feature = "object_store")]
mod store;
#[cfg(feature = "object_store")]
pub use store::{DEFAULT_FOOTER_SIZE_HINT, ParquetObjectReader};

/// The most a read reserves up front; a longer range grows as it is read.
const RESERVE_BOUND: u64 = 64 << 20;

/// A file read asynchronously, by byte ranges (arrow-rs's
/// `AsyncFileReader`).
pub trait AsyncFileReader: Send {
    /// The bytes of `range`.
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, Result<Bytes>>;

    /// The bytes of each range, in order. By default one
    /// [`get_bytes`](Self::get_bytes) after the other; a remote source
    /// should coalesce them and fetch concurrently.
    fn get_byte_ranges(&mut self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, Result<Vec<Bytes>>> {
        async move {
            let mut out = Vec::with_capacity(ranges.len());
            for range in ranges {
                out.push(self.get_bytes(range).await?);
            }
            Ok(out)
        }
        .boxed()
    }

    /// The file's metadata, with the page indexes `options` ask for.
    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, Result<Arc<ParquetMetaData>>>;
}

impl AsyncFileReader for Box<dyn AsyncFileReader + '_> {
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, Result<Bytes>> {
        self.as_mut().get_bytes(range)
    }

    fn get_byte_ranges(&mut self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, Result<Vec<Bytes>>> {
        self.as_mut().get_byte_ranges(ranges)
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, Result<Arc<ParquetMetaData>>> {
        self.as_mut().get_metadata(options)
    }
}

/// Any seekable async byte source: a `tokio::fs::File`, a cursor.
impl<T: AsyncRead + AsyncSeek + Unpin + Send> AsyncFileReader for T {
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, Result<Bytes>> {
        async move {
            let len = range
                .end
                .checked_sub(range.start)
                .ok_or_else(|| ParquetError::General(format!("a byte range of {range:?}")))?;
            self.seek(SeekFrom::Start(range.start)).await?;
            // Sized by what is read: the range comes from the file's own
            // metadata, so its length is reserved only up to a bound.
            let mut buf = Vec::with_capacity(len.min(RESERVE_BOUND) as usize);
            let read = (&mut *self).take(len).read_to_end(&mut buf).await?;
            if read as u64 != len {
                return Err(ParquetError::EOF(format!(
                    "bytes {range:?}: the source ended after {read} of {len} bytes"
                )));
            }
            Ok(Bytes::from(buf))
        }
        .boxed()
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, Result<Arc<ParquetMetaData>>> {
        async move {
            let file_len = self.seek(SeekFrom::End(0)).await?;
            let decoder = metadata_decoder(file_len, options)?;
            Ok(Arc::new(decode_metadata(self, decoder).await?))
        }
        .boxed()
    }
}

/// A metadata push decoder of a file of `file_len` bytes, loading what
/// `options` say (no page index when there are none).
pub(crate) fn metadata_decoder(
    file_len: u64,
    options: Option<&ArrowReaderOptions>,
) -> Result<ParquetMetaDataPushDecoder> {
    configure_decoder(ParquetMetaDataPushDecoder::try_new(file_len)?, options)
}

/// `decoder` set to load what `options` say (no page index when there are
/// none).
fn configure_decoder(
    decoder: ParquetMetaDataPushDecoder,
    options: Option<&ArrowReaderOptions>,
) -> Result<ParquetMetaDataPushDecoder> {
    #[cfg(feature = "encryption")]
    let decoder = decoder.with_decryption_keys(
        options
            .and_then(ArrowReaderOptions::file_decryption_properties)
            .map(|p| -> Arc<dyn strata_file::encryption::DecryptionKeys> { Arc::clone(p) as _ }),
    );
    Ok(match options {
        Some(o) => decoder
            .with_column_index_policy(o.column_index_policy())
            .with_offset_index_policy(o.offset_index_policy())
            .with_column_index_mask(o.column_index_mask().clone())
            .with_offset_index_mask(o.offset_index_mask().clone())
            .with_metadata_options(Some(Arc::new(o.metadata_options().clone()))),
        None => decoder.with_page_index_policy(strata_file::metadata::PageIndexPolicy::Skip),
    })
}

/// The metadata of a file of `file_len` bytes read through `input`, with
/// the page indexes `options` ask for (none without options): for an
/// [`AsyncFileReader`] over a source whose length is already known, such as
/// an object listed in a store. With a `suffix_hint`, the last that many
/// bytes are fetched first, so a footer no longer than that arrives in one
/// request; without one, the 8-byte tail comes first, then the metadata.
///
/// ```
/// # use std::sync::Arc;
/// # use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// # use strata_arrow::ArrowWriter;
/// # let batch = RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef)]).unwrap();
/// # let mut file = Vec::new();
/// # let mut w = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
/// # w.write(&batch).unwrap();
/// # w.close().unwrap();
/// use strata_arrow::async_reader::fetch_metadata;
///
/// # futures::executor::block_on(async {
/// let len = file.len() as u64;
/// let mut input = std::io::Cursor::new(file);
/// let metadata = fetch_metadata(&mut input, len, Some(64 * 1024), None).await.unwrap();
/// assert_eq!(metadata.file_metadata().num_rows(), 3);
/// # });
/// ```
pub async fn fetch_metadata<T: AsyncFileReader + ?Sized>(
    input: &mut T,
    file_len: u64,
    suffix_hint: Option<u64>,
    options: Option<&ArrowReaderOptions>,
) -> Result<ParquetMetaData> {
    let mut decoder = metadata_decoder(file_len, options)?;
    if let Some(hint) = suffix_hint {
        let range = file_len.saturating_sub(hint.max(8))..file_len;
        let tail = input.get_bytes(range.clone()).await?;
        decoder.push_range(range, tail)?;
    }
    decode_metadata(input, decoder).await
}

/// `metadata`, decoded already from a file of `file_len` bytes, with the
/// page indexes `options` ask for, fetched through `input`: only the
/// index bytes are read, not the footer again (as arrow-rs's
/// `ParquetMetaDataReader::load_page_index`). For a footer kept in a
/// cache without its page index.
///
/// ```
/// # use std::sync::Arc;
/// # use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// # use strata_arrow::ArrowWriter;
/// # let batch = RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef)]).unwrap();
/// # let mut file = Vec::new();
/// # let mut w = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
/// # w.write(&batch).unwrap();
/// # w.close().unwrap();
/// use strata_arrow::arrow_reader::ArrowReaderOptions;
/// use strata_arrow::async_reader::{fetch_metadata, fetch_page_index};
/// use strata_file::metadata::PageIndexPolicy;
///
/// # futures::executor::block_on(async {
/// let len = file.len() as u64;
/// let mut input = std::io::Cursor::new(file);
/// let footer = fetch_metadata(&mut input, len, None, None).await.unwrap();
/// assert!(footer.page_index().is_none());
/// let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
/// let indexed = fetch_page_index(&mut input, len, footer, &options).await.unwrap();
/// assert!(indexed.page_index().is_some());
/// # });
/// ```
pub async fn fetch_page_index<T: AsyncFileReader + ?Sized>(
    input: &mut T,
    file_len: u64,
    metadata: ParquetMetaData,
    options: &ArrowReaderOptions,
) -> Result<ParquetMetaData> {
    let decoder = ParquetMetaDataPushDecoder::try_new_with_metadata(file_len, metadata)?;
    decode_metadata(input, configure_decoder(decoder, Some(options))?).await
}

/// Run `decoder`, fetching what it asks for from `input`.
pub(crate) async fn decode_metadata<T: AsyncFileReader + ?Sized>(
    input: &mut T,
    mut decoder: ParquetMetaDataPushDecoder,
) -> Result<ParquetMetaData> {
    loop {
        match decoder.try_decode()? {
            DecodeResult::NeedsData(ranges) => {
                let data = input.get_byte_ranges(ranges.clone()).await?;
                decoder.push_ranges(ranges, data)?;
            }
            DecodeResult::Data(metadata) => return Ok(metadata),
            DecodeResult::Finished => {
                return Err(ParquetError::General(
                    "the metadata decoder finished without metadata".into(),
                ));
            }
        }
    }
}

impl ArrowReaderMetadata {
    /// [`load`](Self::load) from an async source.
    pub async fn load_async<T: AsyncFileReader>(
        input: &mut T,
        options: ArrowReaderOptions,
    ) -> Result<Self> {
        let metadata = input.get_metadata(Some(&options)).await?;
        Self::try_new(metadata, options)
    }
}

/// The input of a [`ParquetRecordBatchStreamBuilder`]: an
/// [`AsyncFileReader`], and the prefetch budget.
#[derive(Debug)]
pub struct AsyncReader<T>(T, u64);

/// Builds a [`ParquetRecordBatchStream`] over an [`AsyncFileReader`], with
/// the options of every Arrow read ([`ArrowReaderBuilder`]).
pub type ParquetRecordBatchStreamBuilder<T> = ArrowReaderBuilder<AsyncReader<T>>;

impl<T: AsyncFileReader + Send + 'static> ArrowReaderBuilder<AsyncReader<T>> {
    /// Open `input`: read its metadata and map its schema to Arrow.
    pub async fn new(input: T) -> Result<Self> {
        Self::new_with_options(input, ArrowReaderOptions::new()).await
    }

    /// [`new`](Self::new) with options.
    pub async fn new_with_options(mut input: T, options: ArrowReaderOptions) -> Result<Self> {
        let metadata = ArrowReaderMetadata::load_async(&mut input, options).await?;
        Ok(Self::new_with_metadata(input, metadata))
    }

    /// A builder over `input`, whose metadata was read already.
    pub fn new_with_metadata(input: T, metadata: ArrowReaderMetadata) -> Self {
        Self::new_builder(AsyncReader(input, DEFAULT_PREFETCH_BUDGET), metadata)
    }

    /// Fetch the next row group while the current one decodes when its
    /// ranges total at most `bytes` (0: never fetch ahead). A strata
    /// addition; the default is [`DEFAULT_PREFETCH_BUDGET`].
    pub fn with_prefetch_budget(mut self, bytes: u64) -> Self {
        self.input.1 = bytes;
        self
    }

    /// Read these row groups, in this order, each with a selection of its
    /// own rows ([`RowGroupSelection`]), as `with_row_group_selections` of
    /// the [push decoder's builder](crate::push_decoder::ParquetPushDecoderBuilder)
    /// does (the stream runs the push decoder): offset and limit apply
    /// after them; not with `with_row_groups` or `with_row_selection`.
    pub fn with_row_group_selections(
        mut self,
        row_group_selections: Vec<RowGroupSelection>,
    ) -> Self {
        self.row_group_selections = Some(row_group_selections);
        self
    }

    /// Build the stream.
    pub fn build(mut self) -> Result<ParquetRecordBatchStream<T>> {
        let state = self.read_state()?;
        let decoder = ParquetPushDecoder::new(self.metadata, state, Default::default());
        Ok(ParquetRecordBatchStream {
            schema: decoder.schema().clone(),
            decoder,
            input: Some(self.input.0),
            in_flight: None,
            prefetch_budget: self.input.1,
            done: false,
        })
    }
}

/// A fetch in flight: it gives the input back with the bytes.
type Fetch<T> = BoxFuture<'static, (T, Result<Vec<Bytes>>)>;

/// The ranges a fetch asks for, and the fetch.
struct InFlight<T> {
    ranges: Vec<Range<u64>>,
    fetch: Fetch<T>,
}

fn fetch<T: AsyncFileReader + Send + 'static>(
    mut input: T,
    ranges: Vec<Range<u64>>,
) -> InFlight<T> {
    let asked = ranges.clone();
    let fetch = async move {
        let data = input.get_byte_ranges(asked).await;
        (input, data)
    }
    .boxed();
    InFlight { ranges, fetch }
}

/// The default most bytes the stream fetches ahead for the next row group
/// while the current one decodes (see
/// [`ParquetRecordBatchStreamBuilder::with_prefetch_budget`]).
pub const DEFAULT_PREFETCH_BUDGET: u64 = 256 << 20;

impl<T: AsyncFileReader + Send + 'static> ArrowReaderBuilder<AsyncReader<T>> {
    /// The Bloom filter of column `column_idx` in row group
    /// `row_group_idx`, or `None` if that column chunk has none: as the
    /// [sync builder's](crate::arrow_reader::ParquetRecordBatchReaderBuilder::get_row_group_column_bloom_filter),
    /// fetched from the async source (one request when the metadata gives
    /// the filter's length, else the header first).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    /// # use strata_arrow::ArrowWriter;
    /// # use strata_file::properties::WriterProperties;
    /// # let ids: ArrayRef = Arc::new(Int64Array::from(vec![10, 20, 30]));
    /// # let batch = RecordBatch::try_from_iter([("id", ids)]).unwrap();
    /// # let props = WriterProperties::builder().set_bloom_filter_enabled(true).build();
    /// # let mut file = Vec::new();
    /// # let mut w = ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).unwrap();
    /// # w.write(&batch).unwrap();
    /// # w.close().unwrap();
    /// use strata_arrow::async_reader::ParquetRecordBatchStreamBuilder;
    ///
    /// # futures::executor::block_on(async {
    /// let mut builder = ParquetRecordBatchStreamBuilder::new(std::io::Cursor::new(file))
    ///     .await
    ///     .unwrap();
    /// let filter = builder.get_row_group_column_bloom_filter(0, 0).await.unwrap().unwrap();
    /// assert!(filter.check(&20i64));
    /// # });
    /// ```
    pub async fn get_row_group_column_bloom_filter(
        &mut self,
        row_group_idx: usize,
        column_idx: usize,
    ) -> Result<Option<Sbbf>> {
        let Some(fetch) = bloom_filter_fetch(&self.metadata, row_group_idx, column_idx, None)?
        else {
            return Ok(None);
        };
        let input = &mut self.input.0;
        let first = input.get_bytes(fetch.first_range()).await?;
        Ok(match fetch.next(&first)? {
            BloomFilterStep::Filter(filter) => Some(filter),
            BloomFilterStep::Fetch(range) => Some(Sbbf::read(&input.get_bytes(range).await?)?),
        })
    }
}

/// Arrow [`RecordBatch`]es read from an [`AsyncFileReader`]: a
/// [`Stream`] of `Result<RecordBatch>`; built by
/// [`ParquetRecordBatchStreamBuilder`]. After an error it ends.
///
/// While a row group decodes, the stream fetches the next row group's
/// ranges (when they fit in the prefetch budget), so the latency of a
/// remote store overlaps the decoding.
pub struct ParquetRecordBatchStream<T> {
    schema: SchemaRef,
    decoder: ParquetPushDecoder,
    /// The input, when no fetch holds it.
    input: Option<T>,
    in_flight: Option<InFlight<T>>,
    prefetch_budget: u64,
    done: bool,
}

impl<T> std::fmt::Debug for ParquetRecordBatchStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetRecordBatchStream")
            .field("schema", &self.schema)
            .field("decoder", &self.decoder)
            .field("fetching", &self.in_flight.as_ref().map(|f| &f.ranges))
            .finish_non_exhaustive()
    }
}

impl<T> ParquetRecordBatchStream<T> {
    /// The schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }
}

impl<T: AsyncFileReader + Unpin + Send + 'static> ParquetRecordBatchStream<T> {
    /// Push what the fetch in flight got, when it is done; `false` while
    /// it runs.
    fn poll_in_flight(&mut self, cx: &mut Context<'_>) -> Result<bool> {
        let Some(in_flight) = &mut self.in_flight else {
            return Ok(true);
        };
        match in_flight.fetch.poll_unpin(cx) {
            Poll::Pending => Ok(false),
            Poll::Ready((input, data)) => {
                let ranges = std::mem::take(&mut in_flight.ranges);
                self.in_flight = None;
                self.input = Some(input);
                self.decoder.push_ranges(ranges, data?)?;
                Ok(true)
            }
        }
    }

    /// Start fetching `ranges`; the input must be free.
    fn start(&mut self, ranges: Vec<Range<u64>>) -> Result<()> {
        let input = self
            .input
            .take()
            .ok_or_else(|| ParquetError::General("a second fetch while one runs".into()))?;
        self.in_flight = Some(fetch(input, ranges));
        Ok(())
    }

    /// Start fetching the next row group, if it is worth it and the input
    /// is free.
    fn maybe_prefetch(&mut self) -> Result<()> {
        if self.input.is_none() || self.prefetch_budget == 0 {
            return Ok(());
        }
        let (ranges, bytes) = self.decoder.prefetch_ranges()?;
        if !ranges.is_empty() && bytes <= self.prefetch_budget {
            self.start(ranges)?;
        }
        Ok(())
    }

    /// A synchronous reader of the next row group (its bytes fetched), or
    /// `None` at the end: the batches can then be decoded on another
    /// thread while the stream fetches the next row group. Do not mix with
    /// polling the stream itself mid-row-group.
    pub async fn next_row_group(&mut self) -> Result<Option<ParquetRecordBatchReader>> {
        loop {
            if self.done {
                return Ok(None);
            }
            if let Some(in_flight) = self.in_flight.take() {
                let (input, data) = in_flight.fetch.await;
                self.input = Some(input);
                self.decoder.push_ranges(in_flight.ranges, data?)?;
            }
            match self.decoder.try_next_reader()? {
                DecodeResult::NeedsData(ranges) => self.start(ranges)?,
                DecodeResult::Data(reader) => return Ok(Some(reader)),
                DecodeResult::Finished => {
                    self.done = true;
                    return Ok(None);
                }
            }
        }
    }

    fn poll_batch(&mut self, cx: &mut Context<'_>) -> Result<Poll<Option<RecordBatch>>> {
        loop {
            if self.done {
                return Ok(Poll::Ready(None));
            }
            let fetched = self.poll_in_flight(cx)?;
            match self.decoder.try_decode()? {
                DecodeResult::Data(batch) => {
                    self.maybe_prefetch()?;
                    return Ok(Poll::Ready(Some(batch)));
                }
                DecodeResult::NeedsData(ranges) => {
                    if !fetched {
                        // What is in flight is (or comes before) what is
                        // needed: wait for it.
                        return Ok(Poll::Pending);
                    }
                    self.start(ranges)?;
                }
                DecodeResult::Finished => {
                    self.done = true;
                    return Ok(Poll::Ready(None));
                }
            }
        }
    }
}

impl<T: AsyncFileReader + Unpin + Send + 'static> Stream for ParquetRecordBatchStream<T> {
    type Item = Result<RecordBatch>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        match this.poll_batch(cx) {
            Ok(Poll::Ready(batch)) => Poll::Ready(batch.map(Ok)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(e) => {
                this.done = true;
                this.in_flight = None;
                Poll::Ready(Some(Err(e)))
            }
        }
    }
}
