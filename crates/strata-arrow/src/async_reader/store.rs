//! [`ParquetObjectReader`]: an [`AsyncFileReader`] over an object in an
//! [`ObjectStore`] (S3, GCS, Azure, HTTP, local files, memory), with
//! arrow-rs's name and builder calls (feature `object_store`).
//!
//! ## Requests
//!
//! - Metadata: without a known size, one suffix request of the footer
//!   size hint ([`DEFAULT_FOOTER_SIZE_HINT`], 64 KiB, unless
//!   [`with_footer_size_hint`] says otherwise; at least 8 bytes) gives the
//!   object's size and its tail. A footer and page indexes within the tail
//!   take no further request; otherwise a second asks for the rest of the
//!   footer, and one more for the page indexes the options ask for (one
//!   span when they lie together). With a known size ([`with_file_size`])
//!   the first request is a bounded range.
//! - The tail is kept (at most the hint's bytes) and answers every later
//!   request it covers: a column chunk that ends in it is fetched only up
//!   to where the tail begins. So the guess costs a round trip less when
//!   the footer fits, and at most the tail's bytes that the read does not
//!   use (the page indexes of a read that loads none, the end of a column
//!   not projected) when it does. arrow-rs's reader asks for 8 bytes
//!   first unless given a hint, and fetches again what its tail held.
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
//! [`with_footer_size_hint`]: ParquetObjectReader::with_footer_size_hint

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

/// The bytes a [`ParquetObjectReader`] asks for from the end of the object
/// first, unless told otherwise: the footer and page indexes of a file of
/// a few hundred columns in one request.
pub const DEFAULT_FOOTER_SIZE_HINT: usize = 64 * 1024;

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
    /// The object's last bytes, from the first response, and where they
    /// start; they answer later requests they cover.
    tail: Option<(u64, Bytes)>,
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
            tail: None,
        }
    }

    /// Fetch this many bytes from the end of the object first (at least
    /// 8; [`DEFAULT_FOOTER_SIZE_HINT`] unless set), so a footer that fits
    /// takes one request instead of two. The bytes are kept and answer
    /// the later requests they cover.
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
            let mut bytes = self.get_byte_ranges(vec![range]).await?;
            bytes
                .pop()
                .ok_or_else(|| ParquetError::General("no bytes for a range asked".into()))
        }
        .boxed()
    }

    fn get_byte_ranges(&mut self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, Result<Vec<Bytes>>> {
        async move {
            let this = &*self;
            let path = &this.path;
            let tail_start = this.tail.as_ref().map_or(u64::MAX, |(start, _)| *start);
            // What the store is asked for of a range: its part before the
            // tail.
            let head_of = |r: &Range<u64>| {
                let end = r.end.min(tail_start);
                (r.start < end).then_some(r.start..end)
            };
            let heads: Vec<Range<u64>> = ranges.iter().filter_map(head_of).collect();
            let fetched = if heads.is_empty() {
                Vec::new()
            } else {
                coalesce_ranges(
                    &heads,
                    |range| {
                        let options = this.options(GetRange::Bounded(range));
                        async move { this.store.get_opts(path, options).await?.bytes().await }
                    },
                    OBJECT_STORE_COALESCE_DEFAULT,
                )
                .await
                .map_err(|e| store_error(path, e))?
            };
            let mut fetched = fetched.into_iter();
            let mut out = Vec::with_capacity(ranges.len());
            for r in &ranges {
                let head = head_of(r).and_then(|_| fetched.next());
                let Some((start, tail)) = this.tail.as_ref().filter(|_| r.end > tail_start) else {
                    out.push(head.unwrap_or_default());
                    continue;
                };
                let from = usize::try_from(r.start.max(*start) - start).unwrap_or(usize::MAX);
                let to = usize::try_from(r.end - start).unwrap_or(usize::MAX);
                let Some(part) = tail.get(from..to) else {
                    return Err(ParquetError::General(format!(
                        "{path}: bytes {r:?} asked of an object of {} bytes",
                        start + tail.len() as u64
                    )));
                };
                out.push(match head {
                    // A range reaching into the tail from before it: its
                    // head fetched, its end from the tail, in one buffer.
                    Some(head) => {
                        let mut joined = Vec::with_capacity(head.len() + part.len());
                        joined.extend_from_slice(&head);
                        joined.extend_from_slice(part);
                        Bytes::from(joined)
                    }
                    None => tail.slice(from..to),
                });
            }
            Ok(out)
        }
        .boxed()
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, Result<Arc<ParquetMetaData>>> {
        async move {
            let suffix = self
                .footer_size_hint
                .unwrap_or(DEFAULT_FOOTER_SIZE_HINT)
                .max(8) as u64;
            let (size, range, tail) = self.fetch_tail(suffix).await?;
            if range.end == size {
                self.tail = Some((range.start, tail.clone()));
            }
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
