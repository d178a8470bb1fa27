//! [`ParquetObjectWriter`]: an [`AsyncFileWriter`] that uploads to an
//! [`ObjectStore`] (feature `object_store`), with arrow-rs's name.
//!
//! It writes through `object_store`'s [`BufWriter`]: bytes collect in a
//! buffer of bounded capacity (10 MiB unless made
//! [`with_capacity`](BufWriter::with_capacity)); an object that stays
//! within it is uploaded with one put, a larger one as a multipart upload
//! whose parts go out as the buffer fills, a bounded number at a time.
//! Nothing is visible at the path until [`complete`] succeeds.
//!
//! [`complete`]: AsyncFileWriter::complete

use std::sync::Arc;

use bytes::Bytes;
use futures::future::{BoxFuture, FutureExt};
use object_store::ObjectStore;
use object_store::buffered::BufWriter;
use object_store::path::Path;
use tokio::io::AsyncWriteExt;

use super::AsyncFileWriter;
use crate::error::{ParquetError, Result};

/// Uploads a Parquet file to an [`ObjectStore`].
///
/// ```
/// # use std::sync::Arc;
/// # use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// use object_store::{ObjectStore, ObjectStoreExt, memory::InMemory, path::Path};
/// use strata_arrow::async_writer::{AsyncArrowWriter, ParquetObjectWriter};
///
/// # futures::executor::block_on(async {
/// # let batch = RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef)]).unwrap();
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// let path = Path::from("out/x.parquet");
/// let sink = ParquetObjectWriter::new(Arc::clone(&store), path.clone());
/// let mut writer = AsyncArrowWriter::try_new(sink, batch.schema(), None).unwrap();
/// writer.write(&batch).await.unwrap();
/// writer.close().await.unwrap();
/// assert!(store.head(&path).await.unwrap().size > 0);
/// # });
/// ```
#[derive(Debug)]
pub struct ParquetObjectWriter {
    writer: BufWriter,
}

impl ParquetObjectWriter {
    /// A writer of the object at `path` in `store`, with `BufWriter`'s
    /// default buffer.
    pub fn new(store: Arc<dyn ObjectStore>, path: Path) -> Self {
        Self::from_buf_writer(BufWriter::new(store, path))
    }

    /// A writer through a `BufWriter` set up by the caller (capacity,
    /// concurrency, attributes).
    pub fn from_buf_writer(writer: BufWriter) -> Self {
        Self { writer }
    }

    /// The `BufWriter`.
    pub fn into_inner(self) -> BufWriter {
        self.writer
    }
}

impl From<BufWriter> for ParquetObjectWriter {
    fn from(writer: BufWriter) -> Self {
        Self::from_buf_writer(writer)
    }
}

fn upload_error(e: std::io::Error) -> ParquetError {
    ParquetError::External(Box::new(e))
}

impl AsyncFileWriter for ParquetObjectWriter {
    fn write(&mut self, bs: Bytes) -> BoxFuture<'_, Result<()>> {
        async move {
            self.writer
                .put(bs)
                .await
                .map_err(|e| ParquetError::External(Box::new(e)))
        }
        .boxed()
    }

    fn complete(&mut self) -> BoxFuture<'_, Result<()>> {
        async move { self.writer.shutdown().await.map_err(upload_error) }.boxed()
    }
}
