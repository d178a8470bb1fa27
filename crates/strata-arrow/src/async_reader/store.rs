//! [`ParquetObjectReader`]: an [`AsyncFileReader`] over an object in an
//! [`ObjectStore`] (S3, GCS, Azure, HTTP, local files, memory), with
//! arrow-rs's name and builder calls (feature `object_store`).
//!
//! ## Requests
//!
//! - Metadata: without a known size, one suffix request of
//!   `max(8, footer size hint)` bytes gives the object's size and its
//!   tail; a second asks for the rest of the footer when the hint did not
//!   cover it, and one more the page indexes the options ask for (one span
//!   when they lie together). With a known size ([`with_file_size`]) the
//!   first request is a bounded range.
//! - Data: each request of the decoder (the projected chunks of a row
//!   group, or the pages a selection needs) goes out through
//!   [`object_store::coalesce_ranges`]: ranges less than
//!   [`OBJECT_STORE_COALESCE_DEFAULT`] (1 MiB) apart are merged into one
//!   request, and up to ten requests run at once. arrow-rs's reader merges
//!   the same way.
//!
//! ## Faults
//!
//! Every request after the first carries `If-Match` with the object's
//! entity tag, when the store gives one: an object replaced between the
//! metadata and the data requests is an error, never a mix of two files.
//! An object shorter than its metadata says gives short ranges, which the
//! decoder refuses. Store errors arrive as [`ParquetError::External`].
//!
//! [`with_file_size`]: ParquetObjectReader::with_file_size

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use futures::future::{BoxFuture, FutureExt};
use object_store::path::Path;
use object_store::{
    GetOptions, GetRange, OBJECT_STORE_COALESCE_DEFAULT, ObjectStore, coalesce_ranges,
};
use strata_file::metadata::{PageIndexPolicy, ParquetMetaData};

use super::{AsyncFileReader, decode_metadata, metadata_decoder};
use crate::arrow_reader::ArrowReaderOptions;
use crate::error::{ParquetError, Result};

/// Reads a Parquet object from an [`ObjectStore`].
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
/// use futures::TryStreamExt;
/// use object_store::{ObjectStore, ObjectStoreExt, memory::InMemory, path::Path};
/// use strata_arrow::async_reader::{ParquetObjectReader, ParquetRecordBatchStreamBuilder};
///
/// # futures::executor::block_on(async {
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// let path = Path::from("data/x.parquet");
/// store.put(&path, file.into()).await.unwrap();
///
/// let reader = ParquetObjectReader::new(store, path).with_footer_size_hint(64 * 1024);
/// let stream = ParquetRecordBatchStreamBuilder::new(reader).await.unwrap().build().unwrap();
/// let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
/// assert_eq!(batches[0].num_rows(), 3);
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct ParquetObjectReader {
    store: Arc<dyn ObjectStore>,
    path: Path,
    file_size: Option<u64>,
    footer_size_hint: Option<usize>,
    preload_column_index: bool,
    preload_offset_index: bool,
    /// The object's entity tag, from the first response.
    e_tag: Option<String>,
}

impl ParquetObjectReader {
    /// A reader of the object at `path` in `store`.
    pub fn new(store: Arc<dyn ObjectStore>, path: Path) -> Self {
        Self {
            store,
            path,
            file_size: None,
            footer_size_hint: None,
            preload_column_index: false,
            preload_offset_index: false,
            e_tag: None,
        }
    }

    /// Fetch this many bytes from the end of the object first, so a
    /// footer that fits takes one request instead of two.
    pub fn with_footer_size_hint(mut self, hint: usize) -> Self {
        self.footer_size_hint = Some(hint);
        self
    }

    /// The object's size, when known (from a listing), so no request asks
    /// for it.
    pub fn with_file_size(mut self, file_size: u64) -> Self {
        self.file_size = Some(file_size);
        self
    }

    /// Load the column indexes with the metadata (unless the reader's
    /// options say how to).
    pub fn with_preload_column_index(mut self, preload: bool) -> Self {
        self.preload_column_index = preload;
        self
    }

    /// Load the offset indexes with the metadata (unless the reader's
    /// options say how to).
    pub fn with_preload_offset_index(mut self, preload: bool) -> Self {
        self.preload_offset_index = preload;
        self
    }

    fn options(&self, range: GetRange) -> GetOptions {
        GetOptions {
            range: Some(range),
            if_match: self.e_tag.clone(),
            ..Default::default()
        }
    }

    /// The object's size and its last bytes (at most `suffix`), keeping
    /// its entity tag.
    async fn fetch_tail(&mut self, suffix: u64) -> Result<(u64, Range<u64>, Bytes)> {
        let range = match self.file_size {
            Some(size) => GetRange::Bounded(size.saturating_sub(suffix)..size),
            None => GetRange::Suffix(suffix),
        };
        let result = self
            .store
            .get_opts(&self.path, self.options(range))
            .await
            .map_err(|e| store_error(&self.path, e))?;
        let size = result.meta.size;
        if let Some(known) = self.file_size
            && known != size
        {
            return Err(ParquetError::General(format!(
                "{} is {size} bytes, not the {known} it was said to be",
                self.path
            )));
        }
        self.e_tag = self.e_tag.take().or(result.meta.e_tag.clone());
        let range = result.range.clone();
        let bytes = result
            .bytes()
            .await
            .map_err(|e| store_error(&self.path, e))?;
        Ok((size, range, bytes))
    }
}

fn store_error(path: &Path, e: object_store::Error) -> ParquetError {
    match e {
        object_store::Error::Precondition { .. } => {
            ParquetError::General(format!("{path} changed after its metadata was read: {e}"))
        }
        e => ParquetError::External(Box::new(e)),
    }
}

impl AsyncFileReader for ParquetObjectReader {
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, Result<Bytes>> {
        async move {
            let options = self.options(GetRange::Bounded(range));
            let result = self
                .store
                .get_opts(&self.path, options)
                .await
                .map_err(|e| store_error(&self.path, e))?;
            result.bytes().await.map_err(|e| store_error(&self.path, e))
        }
        .boxed()
    }

    fn get_byte_ranges(&mut self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, Result<Vec<Bytes>>> {
        async move {
            let (store, path) = (&self.store, &self.path);
            let e_tag = self.e_tag.clone();
            coalesce_ranges(
                &ranges,
                |range| {
                    let options = GetOptions {
                        range: Some(GetRange::Bounded(range)),
                        if_match: e_tag.clone(),
                        ..Default::default()
                    };
                    async move { store.get_opts(path, options).await?.bytes().await }
                },
                OBJECT_STORE_COALESCE_DEFAULT,
            )
            .await
            .map_err(|e| store_error(path, e))
        }
        .boxed()
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, Result<Arc<ParquetMetaData>>> {
        async move {
            let suffix = self.footer_size_hint.unwrap_or(0).max(8) as u64;
            let (size, range, tail) = self.fetch_tail(suffix).await?;
            let mut decoder = metadata_decoder(size, options)?;
            // The options' page index policies, where they load anything,
            // win over the preload settings (as in arrow-rs).
            if !options.is_some_and(|o| o.page_index()) {
                decoder = decoder
                    .with_column_index_policy(PageIndexPolicy::from(self.preload_column_index))
                    .with_offset_index_policy(PageIndexPolicy::from(self.preload_offset_index));
            }
            decoder.push_range(range, tail)?;
            Ok(Arc::new(decode_metadata(self, decoder).await?))
        }
        .boxed()
    }
}
