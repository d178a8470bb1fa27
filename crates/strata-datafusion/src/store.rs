//! A file in DataFusion's object store as strata's [`AsyncFileReader`].
//!
//! DataFusion hands a scan an `Arc<dyn ObjectStore>` of its own
//! `object_store` major and each file's [`ObjectMeta`], so the file's
//! length is known before anything is read: the footer is one suffix
//! request (of `footer_size_hint` bytes, or just the 8-byte tail when no
//! hint is given, then the metadata), and the pages are fetched with
//! `get_ranges`, which coalesces nearby ranges and runs the requests
//! concurrently.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use datafusion::physical_plan::metrics::Count;
use futures::future::{BoxFuture, FutureExt};
use object_store13::{ObjectMeta, ObjectStore, ObjectStoreExt};
use strata_arrow::ParquetError;
use strata_arrow::arrow_reader::ArrowReaderOptions;
use strata_arrow::async_reader::{AsyncFileReader, fetch_metadata};
use strata_file::metadata::ParquetMetaData;

/// One file of a DataFusion object store, read by byte ranges.
#[derive(Debug, Clone)]
pub struct ObjectStoreFileReader {
    store: Arc<dyn ObjectStore>,
    meta: ObjectMeta,
    footer_size_hint: Option<usize>,
    bytes_read: Option<Count>,
}

impl ObjectStoreFileReader {
    /// The file `meta` describes, in `store`.
    pub fn new(store: Arc<dyn ObjectStore>, meta: ObjectMeta) -> Self {
        Self {
            store,
            meta,
            footer_size_hint: None,
            bytes_read: None,
        }
    }

    /// Read the last `hint` bytes first when loading the metadata, so a
    /// footer no longer than that comes in one request.
    pub fn with_footer_size_hint(mut self, hint: Option<usize>) -> Self {
        self.footer_size_hint = hint;
        self
    }

    /// Add the length of every range fetched to `counter` (a scan's
    /// `bytes_scanned`).
    pub fn with_bytes_counter(mut self, counter: Count) -> Self {
        self.bytes_read = Some(counter);
        self
    }

    /// The file's metadata as the object store listed it.
    pub fn object_meta(&self) -> &ObjectMeta {
        &self.meta
    }
}

/// An object store error as strata's.
fn store_error(e: object_store13::Error) -> ParquetError {
    ParquetError::External(Box::new(e))
}

impl AsyncFileReader for ObjectStoreFileReader {
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, strata_arrow::Result<Bytes>> {
        async move {
            let bytes = self
                .store
                .get_range(&self.meta.location, range)
                .await
                .map_err(store_error)?;
            if let Some(counter) = &self.bytes_read {
                counter.add(bytes.len());
            }
            Ok(bytes)
        }
        .boxed()
    }

    fn get_byte_ranges(
        &mut self,
        ranges: Vec<Range<u64>>,
    ) -> BoxFuture<'_, strata_arrow::Result<Vec<Bytes>>> {
        async move {
            let parts = self
                .store
                .get_ranges(&self.meta.location, &ranges)
                .await
                .map_err(store_error)?;
            if let Some(counter) = &self.bytes_read {
                counter.add(parts.iter().map(Bytes::len).sum());
            }
            Ok(parts)
        }
        .boxed()
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, strata_arrow::Result<Arc<ParquetMetaData>>> {
        async move {
            let size = self.meta.size;
            let hint = self.footer_size_hint.map(|h| h as u64);
            Ok(Arc::new(fetch_metadata(self, size, hint, options).await?))
        }
        .boxed()
    }
}
