//! Reading through `object_store` (features `async` and `object_store`,
//! which this crate's tests turn on): real stores, and stores that fail.
//!
//! - `LocalFileSystem` and a `ThrottledStore` read what the synchronous
//!   reader reads.
//! - A store that fails its Nth request, an object shorter than its footer
//!   claims, and an object replaced between the metadata and the data
//!   requests each give a clear error; the stream then ends, and nothing
//!   hangs (every read runs under a timeout).
//! - Requests: the footer's tail (`DEFAULT_FOOTER_SIZE_HINT` unless a hint
//!   says otherwise) answers what it covers, a chunk reaching into it is
//!   fetched up to where it begins; a projection asks for the projected
//!   chunks only.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::throttle::{ThrottleConfig, ThrottledStore};
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    ObjectStoreExt, PutMultipartOptions, PutOptions, PutPayload, PutResult,
};
use strata::arrow::ArrowWriter;
use strata::arrow::ProjectionMask;
use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata::arrow::async_reader::{ParquetObjectReader, ParquetRecordBatchStreamBuilder};
use strata::file::properties::WriterProperties;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

/// A file of `rows` rows in row groups of 1,000: ids and names.
fn file(rows: i64) -> Bytes {
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..rows));
    let names: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..rows).map(|i| format!("name {}", i % 97)),
    ));
    let extra: ArrayRef = Arc::new(Int64Array::from_iter_values((0..rows).map(|i| i * 3)));
    let batch =
        RecordBatch::try_from_iter([("id", ids), ("name", names), ("extra", extra)]).unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(1000))
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    Bytes::from(out)
}

fn sync_read(file: &Bytes) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Read the whole object through a stream, under a timeout: the batches,
/// or the first error (as text).
async fn stream_read(reader: ParquetObjectReader) -> Result<Vec<RecordBatch>, String> {
    let read = async {
        let builder = ParquetRecordBatchStreamBuilder::new(reader)
            .await
            .map_err(|e| e.to_string())?;
        let mut stream = builder.build().map_err(|e| e.to_string())?;
        let mut batches = Vec::new();
        while let Some(item) = stream.next().await {
            match item {
                Ok(b) => batches.push(b),
                Err(e) => {
                    // After an error the stream ends.
                    assert!(
                        stream.next().await.is_none(),
                        "the stream went on after {e}"
                    );
                    return Err(e.to_string());
                }
            }
        }
        Ok(batches)
    };
    tokio::time::timeout(Duration::from_secs(30), read)
        .await
        .expect("the read hung")
}

#[test]
fn local_files_and_throttled_stores_read_as_the_sync_reader() {
    let data = file(5000);
    let expected = sync_read(&data);
    let dir = std::env::temp_dir().join(format!("strata-object-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("local.parquet"), &data).unwrap();
    runtime().block_on(async {
        let local: Arc<dyn ObjectStore> =
            Arc::new(object_store::local::LocalFileSystem::new_with_prefix(&dir).unwrap());
        let got = stream_read(ParquetObjectReader::new(local, Path::from("local.parquet")))
            .await
            .unwrap();
        assert_eq!(concat(&got), concat(&expected));

        let memory = InMemory::new();
        memory
            .put(&Path::from("t.parquet"), data.clone().into())
            .await
            .unwrap();
        let throttled: Arc<dyn ObjectStore> = Arc::new(ThrottledStore::new(
            memory,
            ThrottleConfig {
                wait_get_per_call: Duration::from_millis(2),
                ..Default::default()
            },
        ));
        let got = stream_read(
            ParquetObjectReader::new(throttled, Path::from("t.parquet"))
                .with_file_size(data.len() as u64),
        )
        .await
        .unwrap();
        assert_eq!(concat(&got), concat(&expected));
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

fn concat(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// A store over `InMemory` that counts its get requests (and the ranges
/// asked), and fails the `fail_at`th (1-based) when set.
#[derive(Debug)]
struct Faulty {
    inner: InMemory,
    gets: AtomicUsize,
    fail_at: Option<usize>,
    ranges: std::sync::Mutex<Vec<Option<object_store::GetRange>>>,
    /// Batches the test had received at each request.
    received: Arc<AtomicUsize>,
    received_at: std::sync::Mutex<Vec<usize>>,
}

impl Faulty {
    fn new(fail_at: Option<usize>) -> Self {
        Self {
            inner: InMemory::new(),
            gets: AtomicUsize::new(0),
            fail_at,
            ranges: Default::default(),
            received: Default::default(),
            received_at: Default::default(),
        }
    }
}

impl std::fmt::Display for Faulty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Faulty")
    }
}

#[async_trait]
impl ObjectStore for Faulty {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        let n = self.gets.fetch_add(1, Ordering::SeqCst) + 1;
        self.ranges.lock().unwrap().push(options.range.clone());
        self.received_at
            .lock()
            .unwrap()
            .push(self.received.load(Ordering::SeqCst));
        if self.fail_at == Some(n) {
            return Err(object_store::Error::Generic {
                store: "Faulty",
                source: format!("request {n} failed on purpose").into(),
            });
        }
        self.inner.get_opts(location, options).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

#[test]
fn a_failing_request_is_an_error_at_every_step() {
    let data = file(5000);
    let path = Path::from("f.parquet");
    runtime().block_on(async {
        // How many requests a whole read makes, asking for 8 bytes first
        // (as arrow-rs's reader does without a hint), so the footer and
        // each row group are requests of their own.
        let counting = Arc::new(Faulty::new(None));
        counting.put(&path, data.clone().into()).await.unwrap();
        let dynamic: Arc<dyn ObjectStore> = counting.clone();
        stream_read(ParquetObjectReader::new(dynamic, path.clone()).with_footer_size_hint(8))
            .await
            .unwrap();
        let total = counting.gets.load(Ordering::SeqCst);
        // Two footer requests and one per row group (five of them).
        assert_eq!(total, 7, "{:?}", counting.ranges.lock().unwrap());
        for n in 1..=total {
            let store = Arc::new(Faulty::new(Some(n)));
            store.put(&path, data.clone().into()).await.unwrap();
            let err =
                stream_read(ParquetObjectReader::new(store, path.clone()).with_footer_size_hint(8))
                    .await
                    .expect_err("a failed request must fail the read");
            assert!(err.contains("failed on purpose"), "request {n}: {err}");
        }
    });
}

/// The ranges a [`Faulty`] store was asked for, from the `from`th on.
fn bounded_ranges(store: &Faulty, from: usize) -> Vec<Range<u64>> {
    store.ranges.lock().unwrap()[from..]
        .iter()
        .map(|r| match r {
            Some(object_store::GetRange::Bounded(r)) => r.clone(),
            other => panic!("a data request for {other:?}"),
        })
        .collect()
}

/// Reads column 2 of `path` in `store` through `reader`: the chunk ranges
/// of column 2 by row group, after checking the rows against the
/// synchronous reader's.
async fn read_column_2(reader: ParquetObjectReader, data: &Bytes) -> Vec<Range<u64>> {
    let builder = ParquetRecordBatchStreamBuilder::new(reader).await.unwrap();
    let metadata = Arc::clone(builder.metadata());
    let mask = ProjectionMask::roots(builder.parquet_schema(), [2]);
    let batches: Vec<RecordBatch> = builder
        .with_projection(mask)
        .build()
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let expected = concat(&sync_read(data));
    assert_eq!(concat(&batches).column(0), expected.column(2));
    (0..metadata.num_row_groups())
        .map(|g| {
            let m = metadata.row_group(g).column(2);
            let start = m.dictionary_page_offset().unwrap_or(m.data_page_offset()) as u64;
            start..start + m.compressed_size() as u64
        })
        .collect()
}

#[test]
fn the_tail_answers_what_it_covers_and_a_projection_fetches_its_chunks_only() {
    let data = file(5000);
    let path = Path::from("p.parquet");
    let size = data.len() as u64;
    runtime().block_on(async {
        // 8 bytes first: the footer is a second request, then one request
        // per row group (the decoder asks for a row group's chunks as it
        // opens it), for exactly column 2's chunk.
        let store = Arc::new(Faulty::new(None));
        store.put(&path, data.clone().into()).await.unwrap();
        let dynamic: Arc<dyn ObjectStore> = store.clone();
        let chunks = read_column_2(
            ParquetObjectReader::new(dynamic, path.clone()).with_footer_size_hint(8),
            &data,
        )
        .await;
        assert_eq!(store.gets.load(Ordering::SeqCst), 2 + chunks.len());
        assert_eq!(bounded_ranges(&store, 2), chunks);

        // A tail that begins in the middle of the last chunk (column 2 of
        // the last row group; the page indexes and footer follow it): one
        // request for the footer, and the last chunk fetched only up to
        // where the tail begins.
        let last = chunks.last().unwrap().clone();
        let tail_start = last.start + (last.end - last.start) / 2;
        let store = Arc::new(Faulty::new(None));
        store.put(&path, data.clone().into()).await.unwrap();
        let dynamic: Arc<dyn ObjectStore> = store.clone();
        let reader = ParquetObjectReader::new(dynamic, path.clone())
            .with_footer_size_hint((size - tail_start) as usize);
        let chunks = read_column_2(reader, &data).await;
        let mut expected = chunks.clone();
        expected.last_mut().unwrap().end = tail_start;
        assert_eq!(store.gets.load(Ordering::SeqCst), 1 + chunks.len());
        assert_eq!(bounded_ranges(&store, 1), expected);

        // A tail holding the whole object (the default hint, on a file
        // smaller than it): the suffix request is the only one.
        let small = file(1000);
        assert!(small.len() < strata::arrow::async_reader::DEFAULT_FOOTER_SIZE_HINT);
        let store = Arc::new(Faulty::new(None));
        store.put(&path, small.clone().into()).await.unwrap();
        let dynamic: Arc<dyn ObjectStore> = store.clone();
        read_column_2(ParquetObjectReader::new(dynamic, path.clone()), &small).await;
        assert_eq!(store.gets.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn short_and_replaced_objects_are_errors() {
    let data = file(5000);
    let path = Path::from("s.parquet");
    runtime().block_on(async {
        // The footer intact, half of the data cut out: chunks now end past
        // the object's end.
        let footer_len =
            u32::from_le_bytes(data[data.len() - 8..data.len() - 4].try_into().unwrap()) as usize
                + 8;
        let cut = (data.len() - footer_len) / 2;
        let mut short = data[..cut].to_vec();
        short.extend_from_slice(&data[data.len() - footer_len..]);
        let short_len = short.len();
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        store.put(&path, Bytes::from(short).into()).await.unwrap();
        // With the whole object in the tail, and with every range fetched
        // (8 bytes first).
        for hint in [short_len, 8] {
            let reader = ParquetObjectReader::new(Arc::clone(&store), path.clone())
                .with_footer_size_hint(hint);
            let err = stream_read(reader)
                .await
                .expect_err("a short object must fail");
            assert!(!err.is_empty(), "{hint}");
        }

        // Replaced after the metadata was read: the data requests carry
        // the first version's entity tag.
        store.put(&path, data.clone().into()).await.unwrap();
        let builder = ParquetRecordBatchStreamBuilder::new(
            ParquetObjectReader::new(Arc::clone(&store), path.clone()).with_footer_size_hint(8),
        )
        .await
        .unwrap();
        store.put(&path, file(3000).into()).await.unwrap();
        let mut stream = builder.build().unwrap();
        let first = tokio::time::timeout(Duration::from_secs(30), stream.next())
            .await
            .expect("hung")
            .expect("an item");
        let err = first.expect_err("a replaced object must fail").to_string();
        assert!(err.contains("changed after its metadata was read"), "{err}");
        assert!(stream.next().await.is_none());

        // With the whole first version in the tail, the read needs no
        // other request: it gives the first version whole.
        store.put(&path, data.clone().into()).await.unwrap();
        let builder = ParquetRecordBatchStreamBuilder::new(
            ParquetObjectReader::new(Arc::clone(&store), path.clone())
                .with_footer_size_hint(data.len()),
        )
        .await
        .unwrap();
        store.put(&path, file(3000).into()).await.unwrap();
        let got: Vec<RecordBatch> = builder.build().unwrap().try_collect().await.unwrap();
        assert_eq!(concat(&got), concat(&sync_read(&data)));
    });
}

#[test]
fn the_next_row_group_is_fetched_while_the_current_one_decodes() {
    let data = file(5000);
    let path = Path::from("n.parquet");
    runtime().block_on(async {
        for (budget, ahead) in [(None, true), (Some(0), false)] {
            let store = Arc::new(Faulty::new(None));
            store.put(&path, data.clone().into()).await.unwrap();
            let dynamic: Arc<dyn ObjectStore> = store.clone();
            let mut builder = ParquetRecordBatchStreamBuilder::new(
                ParquetObjectReader::new(dynamic, path.clone()).with_footer_size_hint(8),
            )
            .await
            .unwrap()
            .with_batch_size(100);
            if let Some(budget) = budget {
                builder = builder.with_prefetch_budget(budget);
            }
            let mut stream = builder.build().unwrap();
            let mut rows = 0;
            while let Some(batch) = stream.next().await {
                rows += batch.unwrap().num_rows();
                store.received.fetch_add(1, Ordering::SeqCst);
            }
            assert_eq!(rows, 5000);
            // Two footer requests, then one per row group of 1,000 rows
            // (10 batches each).
            let at = store.received_at.lock().unwrap()[2..].to_vec();
            let expected: Vec<usize> = if ahead {
                // Row group k + 1 is asked for once the first batch of row
                // group k is out.
                std::iter::once(0)
                    .chain((0..4).map(|k| 10 * k + 1))
                    .collect()
            } else {
                (0..5).map(|k| 10 * k).collect()
            };
            assert_eq!(at, expected, "budget {budget:?}");
        }
    });
}

/// What the async writer writes is what the synchronous writer writes,
/// through a tokio file and through an object store, and arrow-rs reads
/// it back.
#[test]
fn the_async_writer_writes_what_the_sync_writer_writes() {
    use strata::arrow::async_writer::{AsyncArrowWriter, ParquetObjectWriter};

    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..10_000));
    let names: ArrayRef = Arc::new(StringArray::from_iter(
        (0..10_000).map(|i| (i % 3 != 0).then(|| format!("n{i}"))),
    ));
    let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
    let props = || {
        WriterProperties::builder()
            .set_max_row_group_row_count(Some(3000))
            .set_created_by("strata test".into())
            .build()
    };
    let mut expected = Vec::new();
    let mut w = ArrowWriter::try_new(&mut expected, batch.schema(), Some(props())).unwrap();
    for chunk in 0..4 {
        w.write(&batch.slice(chunk * 2500, 2500)).unwrap();
    }
    w.close().unwrap();

    let dir = std::env::temp_dir().join(format!("strata-async-writer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        // A tokio file.
        let file = tokio::fs::File::create(dir.join("a.parquet"))
            .await
            .unwrap();
        let mut writer = AsyncArrowWriter::try_new(file, batch.schema(), Some(props())).unwrap();
        for chunk in 0..4 {
            writer
                .write(&batch.slice(chunk * 2500, 2500))
                .await
                .unwrap();
            // A full row group goes out as soon as it is flushed.
            assert!(writer.in_progress_rows() < 3000);
        }
        let metadata = writer.close().await.unwrap();
        assert_eq!(metadata.num_row_groups(), 4);
        assert_eq!(std::fs::read(dir.join("a.parquet")).unwrap(), expected);

        // An object store.
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let path = Path::from("out/b.parquet");
        let sink = ParquetObjectWriter::new(Arc::clone(&store), path.clone());
        let mut writer = AsyncArrowWriter::try_new(sink, batch.schema(), Some(props())).unwrap();
        writer.write(&batch).await.unwrap();
        writer.flush().await.unwrap();
        writer.close().await.unwrap();
        let written = store.get(&path).await.unwrap().bytes().await.unwrap();
        let read: Vec<arrow_array::RecordBatch> =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(written)
                .unwrap()
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        assert_eq!(concat(&read), batch);
    });
    std::fs::remove_dir_all(&dir).unwrap();
}
