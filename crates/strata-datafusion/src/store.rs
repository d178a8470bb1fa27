//! A file in DataFusion's object store as strata's [`AsyncFileReader`].
//!
//! DataFusion hands a scan an `Arc<dyn ObjectStore>` of its own
//! `object_store` major and each file's [`ObjectMeta`], so the file's
//! length is known before anything is read: the footer is one suffix
//! request (of `footer_size_hint` bytes, or just the 8-byte tail when no
//! hint is given, then the metadata), and the pages are fetched with
//! `get_ranges`, which coalesces nearby ranges and runs the requests
//! concurrently.
//!
//! Given DataFusion's file metadata cache (the session runtime's, as
//! DataFusion's own Parquet reader uses it), the reader keeps each
//! decoded footer there, keyed by path and checked against the file's
//! size and modification time, so that planning and every later scan of
//! an unchanged file skip the footer's request and decoding. A cached
//! footer without the page index serves a read that wants one once the
//! index alone is fetched, decoded and added to the cached entry; the
//! footer is not read again.

use std::any::Any;

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use datafusion::common::HashMap;
use datafusion::execution::cache::cache_manager::{
    CachedFileMetadataEntry, FileMetadata, FileMetadataCache,
};
use datafusion::physical_plan::metrics::Count;
use futures::future::{BoxFuture, FutureExt};
use object_store13::{ObjectMeta, ObjectStore, ObjectStoreExt};
use strata_arrow::ParquetError;
use strata_arrow::arrow_reader::ArrowReaderOptions;
use strata_arrow::async_reader::{AsyncFileReader, fetch_metadata, fetch_page_index};
use strata_file::metadata::ParquetMetaData;

/// Whether any chunk of `metadata` locates a column or offset index: a
/// footer of a file without one is complete without loading it.
fn has_page_index(metadata: &ParquetMetaData) -> bool {
    metadata.row_groups().iter().any(|g| {
        g.columns()
            .iter()
            .any(|c| c.column_index_offset().is_some() || c.offset_index_offset().is_some())
    })
}

/// One file of a DataFusion object store, read by byte ranges.
#[derive(Clone)]
pub struct ObjectStoreFileReader {
    store: Arc<dyn ObjectStore>,
    meta: ObjectMeta,
    footer_size_hint: Option<usize>,
    bytes_read: Option<Count>,
    metadata_cache: Option<Arc<FileMetadataCache>>,
}

impl fmt::Debug for ObjectStoreFileReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectStoreFileReader")
            .field("location", &self.meta.location)
            .field("size", &self.meta.size)
            .field("footer_size_hint", &self.footer_size_hint)
            .field("metadata_cache", &self.metadata_cache.is_some())
            .finish_non_exhaustive()
    }
}

/// A footer strata decoded, as DataFusion's file metadata cache holds it.
pub struct CachedStrataMetadata(Arc<ParquetMetaData>);

impl CachedStrataMetadata {
    /// The decoded footer.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        &self.0
    }
}

impl FileMetadata for CachedStrataMetadata {
    fn as_any(&self) -> &dyn Any {
        self
    }

    /// An estimate, for the cache's size limit: the structs of the
    /// footer, its row groups and column chunks, and the page locations
    /// of a loaded page index twice over (its column index holds about as
    /// many entries). Statistics' bounds and key-value metadata are not
    /// counted.
    fn memory_size(&self) -> usize {
        use std::mem::size_of;
        let metadata = &self.0;
        let mut size = size_of::<ParquetMetaData>();
        for (i, row_group) in metadata.row_groups().iter().enumerate() {
            size += size_of_val(row_group) + size_of_val(row_group.columns());
            if metadata.page_index().is_some() {
                let index = metadata.page_index_for_row_group(i);
                for column in 0..row_group.columns().len() {
                    let pages = index.page_locations(column).map_or(0, Vec::len);
                    size += 2 * pages * size_of::<strata_file::metadata::PageLocation>();
                }
            }
        }
        size
    }

    fn extra_info(&self) -> HashMap<String, String> {
        let page_index = self.0.page_index().is_some();
        HashMap::from([("page_index".to_owned(), page_index.to_string())])
    }
}

impl ObjectStoreFileReader {
    /// The file `meta` describes, in `store`.
    pub fn new(store: Arc<dyn ObjectStore>, meta: ObjectMeta) -> Self {
        Self {
            store,
            meta,
            footer_size_hint: None,
            bytes_read: None,
            metadata_cache: None,
        }
    }

    /// Keep decoded footers in `cache` and take them from it (see the
    /// module docs).
    pub fn with_metadata_cache(mut self, cache: Option<Arc<FileMetadataCache>>) -> Self {
        self.metadata_cache = cache;
        self
    }

    /// The footer in the cache for this very file (same size and
    /// modification time), if it has one.
    fn cached_metadata(&self) -> Option<Arc<ParquetMetaData>> {
        let entry = self.metadata_cache.as_ref()?.get(&self.meta.location)?;
        if !entry.is_valid_for(&self.meta) {
            return None;
        }
        let cached = entry
            .file_metadata
            .as_any()
            .downcast_ref::<CachedStrataMetadata>()?;
        Some(Arc::clone(&cached.0))
    }

    /// Keep `metadata` in the cache, if there is one.
    fn cache_metadata(&self, metadata: &Arc<ParquetMetaData>) {
        if let Some(cache) = &self.metadata_cache {
            let entry = CachedStrataMetadata(Arc::clone(metadata));
            cache.put(
                &self.meta.location,
                CachedFileMetadataEntry::new(self.meta.clone(), Arc::new(entry)),
            );
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
            let cached = self.cached_metadata();
            let wanted = options.filter(|o| o.page_index());
            let metadata = match (cached, wanted) {
                (Some(cached), None) => return Ok(cached),
                // Indexed already, or a file without a page index.
                (Some(cached), Some(_))
                    if cached.page_index().is_some() || !has_page_index(&cached) =>
                {
                    return Ok(cached);
                }
                // A footer cached without its page index: add the index.
                (Some(cached), Some(options)) => {
                    let size = self.meta.size;
                    let cached = ParquetMetaData::clone(&cached);
                    Arc::new(fetch_page_index(self, size, cached, options).await?)
                }
                (None, _) => {
                    let size = self.meta.size;
                    let hint = self.footer_size_hint.map(|h| h as u64);
                    Arc::new(fetch_metadata(self, size, hint, options).await?)
                }
            };
            self.cache_metadata(&metadata);
            Ok(metadata)
        }
        .boxed()
    }
}
