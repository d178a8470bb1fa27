//! Writing Arrow batches as Parquet to async sinks (feature `async`), with
//! arrow-rs's names: [`AsyncFileWriter`] and [`AsyncArrowWriter`].
//!
//! The encoding is the synchronous [`ArrowWriter`]'s, into a buffer in
//! memory; each time a row group is flushed (and at the end, the footer)
//! the buffer's bytes are handed to the [`AsyncFileWriter`] and the buffer
//! starts again empty. So at most one row group's encoded bytes wait in
//! memory, beside the writer's own column buffers.
//!
//! ```
//! # use std::sync::Arc;
//! # use arrow_array::{ArrayRef, Int32Array, RecordBatch};
//! use strata_arrow::async_writer::AsyncArrowWriter;
//!
//! # futures::executor::block_on(async {
//! let batch = RecordBatch::try_from_iter([(
//!     "x",
//!     Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef,
//! )])
//! .unwrap();
//! // Any tokio `AsyncWrite` is an AsyncFileWriter; here a Vec.
//! let mut writer = AsyncArrowWriter::try_new(Vec::new(), batch.schema(), None).unwrap();
//! writer.write(&batch).await.unwrap();
//! let metadata = writer.finish().await.unwrap();
//! assert_eq!(metadata.file_metadata().num_rows(), 3);
//! let file = writer.into_inner();
//! assert_eq!(&file[..4], b"PAR1");
//! # });
//! ```

use bytes::Bytes;
use futures::future::{BoxFuture, FutureExt};
use tokio::io::{AsyncWrite, AsyncWriteExt};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use strata_file::metadata::{KeyValue, ParquetMetaData, RowGroupMetaData};
use strata_file::properties::WriterProperties;

use crate::arrow_writer::{ArrowWriter, ArrowWriterOptions};
use crate::error::Result;

#[cfg(feature = "object_store")]
mod store;
#[cfg(feature = "object_store")]
pub use store::ParquetObjectWriter;

/// Where an [`AsyncArrowWriter`] puts its bytes (arrow-rs's
/// `AsyncFileWriter`).
pub trait AsyncFileWriter: Send {
    /// Write these bytes, after those written before.
    fn write(&mut self, bs: Bytes) -> BoxFuture<'_, Result<()>>;

    /// Finish: every byte written is durable (flushed, uploaded) once this
    /// returns `Ok`.
    fn complete(&mut self) -> BoxFuture<'_, Result<()>>;
}

impl AsyncFileWriter for Box<dyn AsyncFileWriter + '_> {
    fn write(&mut self, bs: Bytes) -> BoxFuture<'_, Result<()>> {
        self.as_mut().write(bs)
    }

    fn complete(&mut self) -> BoxFuture<'_, Result<()>> {
        self.as_mut().complete()
    }
}

/// Any tokio `AsyncWrite`: `complete` flushes and shuts it down.
impl<T: AsyncWrite + Unpin + Send> AsyncFileWriter for T {
    fn write(&mut self, bs: Bytes) -> BoxFuture<'_, Result<()>> {
        async move {
            self.write_all(&bs).await?;
            Ok(())
        }
        .boxed()
    }

    fn complete(&mut self) -> BoxFuture<'_, Result<()>> {
        async move {
            self.flush().await?;
            self.shutdown().await?;
            Ok(())
        }
        .boxed()
    }
}

/// Writes Arrow [`RecordBatch`]es as Parquet to an [`AsyncFileWriter`].
pub struct AsyncArrowWriter<W> {
    encoder: ArrowWriter<Vec<u8>>,
    sink: W,
}

impl<W> std::fmt::Debug for AsyncArrowWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncArrowWriter")
            .field("schema", self.encoder.schema())
            .field("buffered", &self.encoder.inner().len())
            .finish_non_exhaustive()
    }
}

impl<W: AsyncFileWriter> AsyncArrowWriter<W> {
    /// A writer of batches of `arrow_schema` to `writer`, with `props` (or
    /// the defaults).
    pub fn try_new(
        writer: W,
        arrow_schema: SchemaRef,
        props: Option<WriterProperties>,
    ) -> Result<Self> {
        let options = ArrowWriterOptions::new().with_properties(props.unwrap_or_default());
        Self::try_new_with_options(writer, arrow_schema, options)
    }

    /// [`try_new`](Self::try_new) with [`ArrowWriterOptions`].
    pub fn try_new_with_options(
        writer: W,
        arrow_schema: SchemaRef,
        options: ArrowWriterOptions,
    ) -> Result<Self> {
        Ok(Self {
            encoder: ArrowWriter::try_new_with_options(Vec::new(), arrow_schema, options)?,
            sink: writer,
        })
    }

    /// The row groups written so far.
    pub fn flushed_row_groups(&self) -> &[RowGroupMetaData] {
        self.encoder.flushed_row_groups()
    }

    /// Memory the writer holds: its column buffers and the bytes not yet
    /// handed to the sink.
    pub fn memory_size(&self) -> usize {
        self.encoder.memory_size() + self.encoder.inner().capacity()
    }

    /// Encoded size of the row group in progress (an estimate).
    pub fn in_progress_size(&self) -> usize {
        self.encoder.in_progress_size()
    }

    /// Rows in the row group in progress.
    pub fn in_progress_rows(&self) -> usize {
        self.encoder.in_progress_rows()
    }

    /// Bytes encoded so far (handed to the sink or waiting).
    pub fn bytes_written(&self) -> usize {
        self.encoder.bytes_written()
    }

    /// Write a batch; whole row groups go to the sink as they fill.
    pub async fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let row_groups = self.encoder.flushed_row_groups().len();
        self.encoder.write(batch)?;
        if self.encoder.flushed_row_groups().len() != row_groups {
            self.drain().await?;
        }
        Ok(())
    }

    /// End the row group in progress and hand it to the sink.
    pub async fn flush(&mut self) -> Result<()> {
        self.encoder.flush()?;
        self.drain().await
    }

    /// Add a key/value pair to the footer.
    pub fn append_key_value_metadata(&mut self, kv_metadata: KeyValue) {
        self.encoder.append_key_value_metadata(kv_metadata);
    }

    /// Write the footer, hand everything to the sink and complete it.
    pub async fn finish(&mut self) -> Result<ParquetMetaData> {
        let metadata = self.encoder.finish()?;
        self.drain().await?;
        self.sink.complete().await?;
        Ok(metadata)
    }

    /// [`finish`](Self::finish), consuming the writer.
    pub async fn close(mut self) -> Result<ParquetMetaData> {
        self.finish().await
    }

    /// The sink.
    pub fn into_inner(self) -> W {
        self.sink
    }

    /// Hand the encoded bytes to the sink.
    async fn drain(&mut self) -> Result<()> {
        let bytes = std::mem::take(self.encoder.inner_mut());
        if !bytes.is_empty() {
            self.sink.write(Bytes::from(bytes)).await?;
        }
        Ok(())
    }
}
