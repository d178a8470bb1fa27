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
use strata_file::metadata::{ParquetMetaData, ParquetMetaDataPushDecoder};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncSeek, AsyncSeekExt};

use crate::arrow_reader::{
    ArrowReaderBuilder, ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
};
use crate::error::{ParquetError, Result};
use crate::push_decoder::ParquetPushDecoder;

#[cfg(feature = "object_store")]
mod store;
#[cfg(feature = "object_store")]
pub use store::ParquetObjectReader;

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
    let decoder = ParquetMetaDataPushDecoder::try_new(file_len)?;
    Ok(match options {
        Some(o) => decoder
            .with_column_index_policy(o.column_index_policy())
            .with_offset_index_policy(o.offset_index_policy())
            .with_metadata_options(Some(Arc::new(o.metadata_options().clone()))),
        None => decoder.with_page_index_policy(strata_file::metadata::PageIndexPolicy::Skip),
    })
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
/// [`AsyncFileReader`].
#[derive(Debug)]
pub struct AsyncReader<T>(T);

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
        Self::new_builder(AsyncReader(input), metadata)
    }

    /// Build the stream.
    pub fn build(self) -> Result<ParquetRecordBatchStream<T>> {
        let state = self.read_state()?;
        let decoder = ParquetPushDecoder::new(self.metadata, state, Default::default());
        Ok(ParquetRecordBatchStream {
            schema: decoder.schema().clone(),
            decoder,
            state: StreamState::Idle(self.input.0),
        })
    }
}

/// A fetch in flight: it gives the input back with the bytes.
type Fetch<T> = BoxFuture<'static, (T, Result<Vec<Bytes>>)>;

enum StreamState<T> {
    /// Nothing in flight; the decoder goes next.
    Idle(T),
    /// The decoder asked for these ranges; their fetch is running.
    Fetching(Vec<Range<u64>>, Fetch<T>),
    /// Finished, or failed.
    Done,
}

fn fetch<T: AsyncFileReader + Send + 'static>(mut input: T, ranges: Vec<Range<u64>>) -> Fetch<T> {
    async move {
        let data = input.get_byte_ranges(ranges).await;
        (input, data)
    }
    .boxed()
}

/// Arrow [`RecordBatch`]es read from an [`AsyncFileReader`]: a
/// [`Stream`] of `Result<RecordBatch>`; built by
/// [`ParquetRecordBatchStreamBuilder`]. After an error it ends.
pub struct ParquetRecordBatchStream<T> {
    schema: SchemaRef,
    decoder: ParquetPushDecoder,
    state: StreamState<T>,
}

impl<T> std::fmt::Debug for ParquetRecordBatchStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetRecordBatchStream")
            .field("schema", &self.schema)
            .field("decoder", &self.decoder)
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
    /// A synchronous reader of the next row group (its bytes fetched), or
    /// `None` at the end: the batches can then be decoded on another
    /// thread while the stream fetches the next row group. Do not mix with
    /// polling the stream itself mid-row-group.
    pub async fn next_row_group(&mut self) -> Result<Option<ParquetRecordBatchReader>> {
        loop {
            match std::mem::replace(&mut self.state, StreamState::Done) {
                StreamState::Idle(input) => match self.decoder.try_next_reader()? {
                    DecodeResult::NeedsData(ranges) => {
                        self.state = StreamState::Fetching(ranges.clone(), fetch(input, ranges));
                    }
                    DecodeResult::Data(reader) => {
                        self.state = StreamState::Idle(input);
                        return Ok(Some(reader));
                    }
                    DecodeResult::Finished => return Ok(None),
                },
                StreamState::Fetching(ranges, running) => {
                    let (input, data) = running.await;
                    self.decoder.push_ranges(ranges, data?)?;
                    self.state = StreamState::Idle(input);
                }
                StreamState::Done => return Ok(None),
            }
        }
    }

    fn poll_batch(&mut self, cx: &mut Context<'_>) -> Result<Poll<Option<RecordBatch>>> {
        loop {
            match std::mem::replace(&mut self.state, StreamState::Done) {
                StreamState::Idle(input) => match self.decoder.try_decode()? {
                    DecodeResult::NeedsData(ranges) => {
                        self.state = StreamState::Fetching(ranges.clone(), fetch(input, ranges));
                    }
                    DecodeResult::Data(batch) => {
                        self.state = StreamState::Idle(input);
                        return Ok(Poll::Ready(Some(batch)));
                    }
                    DecodeResult::Finished => return Ok(Poll::Ready(None)),
                },
                StreamState::Fetching(ranges, mut running) => match running.poll_unpin(cx) {
                    Poll::Ready((input, data)) => {
                        self.decoder.push_ranges(ranges, data?)?;
                        self.state = StreamState::Idle(input);
                    }
                    Poll::Pending => {
                        self.state = StreamState::Fetching(ranges, running);
                        return Ok(Poll::Pending);
                    }
                },
                StreamState::Done => return Ok(Poll::Ready(None)),
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
                this.state = StreamState::Done;
                Poll::Ready(Some(Err(e)))
            }
        }
    }
}
