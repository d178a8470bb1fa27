//! Async reads through `object_store`, strata-arrow's
//! `async_reader::ParquetObjectReader` and `ParquetRecordBatchStreamBuilder`
//! against arrow-rs's, on the same files in object_store's `InMemory`
//! behind a store of this bench's own ([`SlowStore`]) that waits 20 ms
//! before answering each `get_opts` (every get path both readers use goes
//! through it: `get_range` and the default `get_ranges` call it) and
//! counts the requests and the bytes returned.
//!
//! Both readers start with their defaults: strata's asks for the last 64
//! KiB of the object first and answers later requests from it where it
//! can, arrow-rs's for the last 8 bytes. A third side, `strata_hint8`, is
//! strata told to ask for 8 bytes first (`with_footer_size_hint(8)`), as
//! arrow-rs does: the same round trips as arrow-rs and never a byte the
//! read does not use, against the default's round trip saved for at most
//! 64 KiB fetched unused.
//!
//! Cases (the files arrow-rs wrote with default properties; default read
//! options except as said):
//!
//! - `mixed_full_scan`: every row and column of the 1M-row mixed table
//!   (`common::mixed_table`, one row group);
//! - `wide_roots_3of100`: 3 of the 100 columns (`ProjectionMask::roots`
//!   of 3, 40 and 77) of the 100-column table (`common::wide_table`,
//!   131,072 rows);
//! - `mixed_select_1pct`: 1% of the mixed table's rows (select 10, skip
//!   990, repeated) with the page index loaded
//!   (`PageIndexPolicy::Optional`; arrow-rs's `ParquetObjectReader` takes
//!   the options' policy over its preload flags, so the offset index is
//!   loaded on both sides).
//!
//! Before timing, each case checks that both streams return the same
//! batches, and prints one `object_store_io` line: the requests and bytes
//! each side asked of the store for one read (a fresh counter per read),
//! and strata's push decoder driven directly on the same file and case
//! (`ParquetPushDecoderBuilder`, fed exactly the ranges it asks for): its
//! peak `buffered_bytes()`, the bytes it asked for, and the compressed
//! size of the largest row group's projected column chunks. Where strata
//! makes more requests or fetches more bytes than arrow-rs, every side's
//! requested ranges are printed (`object_store_ranges`).
//!
//! Under criterion, `object_store/strata/{case}` and
//! `object_store/arrow-rs/{case}` (strata's defaults); `--
//! --interleaved-sides [REPS]` times the three sides taking turns instead,
//! one `object_store case=...` line per case for `cargo xtask bench`
//! (times, strata's ratio to arrow-rs, requests and bytes). All sides run
//! on the same tokio runtime (multi-thread, 2 workers).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

mod common;

use std::cell::LazyCell;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow_array::RecordBatch;
use async_trait::async_trait;
use bytes::Bytes;
use criterion::{Criterion, SamplingMode};
use futures::StreamExt;
use futures::stream::BoxStream;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    ObjectStoreExt, PutMultipartOptions, PutOptions, PutPayload, PutResult,
};
use parquet::file::properties::WriterProperties as PqWriterProperties;
use tokio::runtime::Runtime;

/// What the store waits before answering each request.
const LATENCY: Duration = Duration::from_millis(20);

/// The roots read of the 100-column table.
const PICK: [usize; 3] = [3, 40, 77];

/// Rows of the 100-column table.
const WIDE_ROWS: usize = 1 << 17;

/// Requests and bytes one read asked of a [`SlowStore`], and the ranges
/// the store returned, in the order they were answered.
#[derive(Debug, Default)]
struct Counts {
    requests: AtomicU64,
    bytes: AtomicU64,
    ranges: Mutex<Vec<Range<u64>>>,
}

impl Counts {
    fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    fn ranges(&self) -> Vec<Range<u64>> {
        self.ranges.lock().unwrap().clone()
    }
}

/// An object store over `inner` that waits [`LATENCY`] before each get
/// and counts it in `counts`; every other call goes straight to `inner`.
#[derive(Debug)]
struct SlowStore {
    inner: Arc<InMemory>,
    counts: Arc<Counts>,
}

impl SlowStore {
    /// A store over `inner` with a fresh counter, and the counter.
    fn over(inner: &Arc<InMemory>) -> (Arc<dyn ObjectStore>, Arc<Counts>) {
        let counts = Arc::new(Counts::default());
        let store = SlowStore {
            inner: Arc::clone(inner),
            counts: Arc::clone(&counts),
        };
        (Arc::new(store), counts)
    }
}

impl fmt::Display for SlowStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SlowStore({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for SlowStore {
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

    /// The one get path: `get_range` calls it, and `get_ranges` is left
    /// to the trait's default (coalesce, then `get_range` per merged
    /// range), so every request both readers make waits and is counted.
    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        tokio::time::sleep(LATENCY).await;
        let result = self.inner.get_opts(location, options).await?;
        let range = result.range.clone();
        self.counts.requests.fetch_add(1, Ordering::Relaxed);
        self.counts
            .bytes
            .fetch_add(range.end - range.start, Ordering::Relaxed);
        self.counts.ranges.lock().unwrap().push(range);
        Ok(result)
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

/// One read, made the same way by both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    MixedFullScan,
    WideRoots3of100,
    MixedSelect1pct,
}

const CASES: [Case; 3] = [
    Case::MixedFullScan,
    Case::WideRoots3of100,
    Case::MixedSelect1pct,
];

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::MixedFullScan => "mixed_full_scan",
            Case::WideRoots3of100 => "wide_roots_3of100",
            Case::MixedSelect1pct => "mixed_select_1pct",
        }
    }

    /// The object read.
    fn path(self) -> Path {
        match self {
            Case::WideRoots3of100 => Path::from("bench/wide.parquet"),
            _ => Path::from("bench/mixed.parquet"),
        }
    }

    /// Whether the page index is loaded.
    fn page_index(self) -> bool {
        self == Case::MixedSelect1pct
    }

    /// Rows the read returns.
    fn rows(self) -> usize {
        match self {
            Case::MixedFullScan => common::MIXED_ROWS,
            Case::WideRoots3of100 => WIDE_ROWS,
            Case::MixedSelect1pct => selectors(common::MIXED_ROWS)
                .iter()
                .filter(|(skip, _)| !skip)
                .map(|(_, n)| n)
                .sum(),
        }
    }
}

/// Select 10 rows, skip 990, repeated over `total` rows: (skip, rows).
fn selectors(total: usize) -> Vec<(bool, usize)> {
    let mut out = Vec::new();
    let mut left = total;
    while left > 0 {
        let select = left.min(10);
        out.push((false, select));
        left -= select;
        let skip = left.min(990);
        if skip > 0 {
            out.push((true, skip));
            left -= skip;
        }
    }
    out
}

/// `builder` (strata's or arrow-rs's; the calls have the same names) set
/// up for `case`.
macro_rules! configure {
    ($builder:expr, $case:expr, $mask:ty, $selection:ty, $selector:ty) => {{
        let b = $builder;
        match $case {
            Case::MixedFullScan => b,
            Case::WideRoots3of100 => {
                let mask = <$mask>::roots(b.parquet_schema(), PICK);
                b.with_projection(mask)
            }
            Case::MixedSelect1pct => {
                let s: Vec<$selector> = selectors(common::MIXED_ROWS)
                    .into_iter()
                    .map(|(skip, n)| {
                        if skip {
                            <$selector>::skip(n)
                        } else {
                            <$selector>::select(n)
                        }
                    })
                    .collect();
                b.with_row_selection(<$selection>::from(s))
            }
        }
    }};
}

fn strata_options(case: Case) -> strata_arrow::arrow_reader::ArrowReaderOptions {
    let options = strata_arrow::arrow_reader::ArrowReaderOptions::new();
    if case.page_index() {
        options.with_page_index_policy(strata_file::metadata::PageIndexPolicy::Optional)
    } else {
        options
    }
}

fn arrow_rs_options(case: Case) -> parquet::arrow::arrow_reader::ArrowReaderOptions {
    let options = parquet::arrow::arrow_reader::ArrowReaderOptions::new();
    if case.page_index() {
        options.with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Optional)
    } else {
        options
    }
}

/// strata's stream over `store` (asking for `footer_size_hint` bytes
/// first when given): the rows read, and the batches if `keep`.
async fn strata_read(
    store: Arc<dyn ObjectStore>,
    case: Case,
    keep: bool,
    footer_size_hint: Option<usize>,
) -> (usize, Vec<RecordBatch>) {
    use strata_arrow::async_reader::{ParquetObjectReader, ParquetRecordBatchStreamBuilder};
    let mut reader = ParquetObjectReader::new(store, case.path());
    if let Some(hint) = footer_size_hint {
        reader = reader.with_footer_size_hint(hint);
    }
    let builder = ParquetRecordBatchStreamBuilder::new_with_options(reader, strata_options(case))
        .await
        .unwrap();
    let builder = configure!(
        builder,
        case,
        strata_arrow::ProjectionMask,
        strata_arrow::arrow_reader::RowSelection,
        strata_arrow::arrow_reader::RowSelector
    );
    let mut stream = builder.build().unwrap();
    let (mut rows, mut kept) = (0, Vec::new());
    while let Some(batch) = stream.next().await {
        let batch = std::hint::black_box(batch.unwrap());
        rows += batch.num_rows();
        if keep {
            kept.push(batch);
        }
    }
    (rows, kept)
}

/// arrow-rs's stream over `store`: the rows read, and the batches if
/// `keep`. (arrow-rs 60.1 deprecates its `ParquetObjectReader` in favour of
/// an `AsyncFileReader` of one's own; it is still its object-store reader.)
#[allow(deprecated)]
async fn arrow_rs_read(
    store: Arc<dyn ObjectStore>,
    case: Case,
    keep: bool,
) -> (usize, Vec<RecordBatch>) {
    use parquet::arrow::async_reader::{ParquetObjectReader, ParquetRecordBatchStreamBuilder};
    let reader = ParquetObjectReader::new(store, case.path());
    let builder = ParquetRecordBatchStreamBuilder::new_with_options(reader, arrow_rs_options(case))
        .await
        .unwrap();
    let builder = configure!(
        builder,
        case,
        parquet::arrow::ProjectionMask,
        parquet::arrow::arrow_reader::RowSelection,
        parquet::arrow::arrow_reader::RowSelector
    );
    let mut stream = builder.build().unwrap();
    let (mut rows, mut kept) = (0, Vec::new());
    while let Some(batch) = stream.next().await {
        let batch = std::hint::black_box(batch.unwrap());
        rows += batch.num_rows();
        if keep {
            kept.push(batch);
        }
    }
    (rows, kept)
}

/// Which implementation reads.
#[derive(Debug, Clone, Copy)]
enum Side {
    Strata,
    /// strata asking for 8 bytes first, as arrow-rs does.
    StrataHint8,
    ArrowRs,
}

/// One read of `case` by `side` through a [`SlowStore`] over `memory`
/// with a fresh counter: the rows (and batches if `keep`) and the counter.
fn read(
    rt: &Runtime,
    memory: &Arc<InMemory>,
    side: Side,
    case: Case,
    keep: bool,
) -> (usize, Vec<RecordBatch>, Arc<Counts>) {
    let (store, counts) = SlowStore::over(memory);
    let (rows, batches) = rt.block_on(async {
        match side {
            Side::Strata => strata_read(store, case, keep, None).await,
            Side::StrataHint8 => strata_read(store, case, keep, Some(8)).await,
            Side::ArrowRs => arrow_rs_read(store, case, keep).await,
        }
    });
    (rows, batches, counts)
}

/// strata's push decoder driven directly on `file` for `case`, fed exactly
/// the ranges it asks for: (peak `buffered_bytes()`, bytes asked for,
/// compressed size of the largest row group's projected column chunks).
fn push_decoder_peak(file: &Bytes, case: Case) -> (u64, u64, u64) {
    use strata_arrow::arrow_reader::ArrowReaderMetadata;
    use strata_arrow::push_decoder::ParquetPushDecoderBuilder;
    use strata_file::DecodeResult;

    let metadata = ArrowReaderMetadata::load(file, strata_options(case)).unwrap();
    let parquet = Arc::clone(metadata.metadata());
    let builder = configure!(
        ParquetPushDecoderBuilder::new_with_metadata(metadata),
        case,
        strata_arrow::ProjectionMask,
        strata_arrow::arrow_reader::RowSelection,
        strata_arrow::arrow_reader::RowSelector
    );
    let leaves: Vec<usize> = match case {
        // The tables are flat: a root is a leaf.
        Case::WideRoots3of100 => PICK.to_vec(),
        _ => (0..parquet.row_groups()[0].num_columns()).collect(),
    };
    let largest = parquet
        .row_groups()
        .iter()
        .map(|rg| {
            leaves
                .iter()
                .map(|&j| rg.column(j).compressed_size() as u64)
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    let mut decoder = builder.build().unwrap();
    let (mut peak, mut asked) = (0, 0);
    loop {
        peak = peak.max(decoder.buffered_bytes());
        match decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges
                    .iter()
                    .map(|r| file.slice(r.start as usize..r.end as usize))
                    .collect();
                asked += ranges.iter().map(|r| r.end - r.start).sum::<u64>();
                decoder.push_ranges(ranges, data).unwrap();
                peak = peak.max(decoder.buffered_bytes());
            }
            DecodeResult::Data(batch) => drop(std::hint::black_box(batch)),
            DecodeResult::Finished => break,
        }
    }
    (peak, asked, largest)
}

/// The files of every case, written by arrow-rs with default properties,
/// in one in-memory store; and the files' bytes by case.
fn files(rt: &Runtime) -> (Arc<InMemory>, Vec<(Case, Bytes)>) {
    let (mixed, wide) = std::thread::scope(|s| {
        let wide = s.spawn(|| {
            let batches = common::wide_table(WIDE_ROWS);
            Bytes::from(common::arrow_rs_write(
                &batches,
                PqWriterProperties::default(),
            ))
        });
        let batches = common::mixed_table();
        let mixed = Bytes::from(common::arrow_rs_write(
            &batches,
            PqWriterProperties::default(),
        ));
        (mixed, wide.join().unwrap())
    });
    let memory = Arc::new(InMemory::new());
    let by_case: Vec<(Case, Bytes)> = CASES
        .iter()
        .map(|&case| {
            let file = match case {
                Case::WideRoots3of100 => wide.clone(),
                _ => mixed.clone(),
            };
            (case, file)
        })
        .collect();
    rt.block_on(async {
        memory
            .put(&Case::MixedFullScan.path(), mixed.into())
            .await
            .unwrap();
        memory
            .put(&Case::WideRoots3of100.path(), wide.into())
            .await
            .unwrap();
    });
    (memory, by_case)
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
        .unwrap()
}

/// Requests and bytes of one read by each side.
struct Io {
    strata: (u64, u64),
    strata_hint8: (u64, u64),
    arrow_rs: (u64, u64),
    /// strata's push decoder on the same read: peak buffered bytes, and
    /// the largest row group's projected chunks.
    peak: u64,
    largest: u64,
}

/// Checks that both sides read `case` to the same batches, prints its
/// `object_store_io` line (and both sides' ranges where strata asked for
/// more), and returns the requests and bytes.
fn check_and_count(rt: &Runtime, memory: &Arc<InMemory>, case: Case, file: &Bytes) -> Io {
    let (s_rows, s_batches, s_counts) = read(rt, memory, Side::Strata, case, true);
    let (h_rows, h_batches, h_counts) = read(rt, memory, Side::StrataHint8, case, true);
    let (a_rows, a_batches, a_counts) = read(rt, memory, Side::ArrowRs, case, true);
    assert_eq!(s_rows, case.rows(), "strata, {}", case.name());
    assert_eq!(
        h_rows,
        case.rows(),
        "strata, 8 bytes first, {}",
        case.name()
    );
    assert_eq!(a_rows, case.rows(), "arrow-rs, {}", case.name());
    let (s, a) = (common::concat(&s_batches), common::concat(&a_batches));
    assert_eq!(s.columns(), a.columns(), "{}", case.name());
    assert_eq!(
        common::concat(&h_batches).columns(),
        a.columns(),
        "{}",
        case.name()
    );
    let (peak, asked, largest) = push_decoder_peak(file, case);
    let io = Io {
        strata: (s_counts.requests(), s_counts.bytes()),
        strata_hint8: (h_counts.requests(), h_counts.bytes()),
        arrow_rs: (a_counts.requests(), a_counts.bytes()),
        peak,
        largest,
    };
    println!(
        "object_store_io case={} file_bytes={} strata_requests={} strata_bytes={} \
         strata_hint8_requests={} strata_hint8_bytes={} \
         arrow_rs_requests={} arrow_rs_bytes={} push_peak_buffered={peak} \
         push_asked_bytes={asked} largest_row_group_projected={largest}",
        case.name(),
        file.len(),
        io.strata.0,
        io.strata.1,
        io.strata_hint8.0,
        io.strata_hint8.1,
        io.arrow_rs.0,
        io.arrow_rs.1,
    );
    if io.strata.0 > io.arrow_rs.0 || io.strata.1 > io.arrow_rs.1 {
        for (side, counts) in [
            ("strata", &s_counts),
            ("strata_hint8", &h_counts),
            ("arrow-rs", &a_counts),
        ] {
            let mut ranges = counts.ranges();
            ranges.sort_by_key(|r| (r.start, r.end));
            println!(
                "object_store_ranges case={} side={side} ranges={ranges:?}",
                case.name()
            );
        }
    }
    io
}

/// Criterion: both sides of every case, one after the other. The files
/// are written, and each case checked, when its first benchmark runs, so
/// a filter that excludes them skips the work.
fn criterion_run() {
    let rt = runtime();
    let input = LazyCell::new(|| files(&rt));
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("object_store");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    for (at, case) in CASES.into_iter().enumerate() {
        let checked = LazyCell::new(|| {
            let (memory, files) = &*input;
            check_and_count(&rt, memory, case, &files[at].1);
            memory
        });
        common::pair(
            &mut g,
            "object_store",
            case.name(),
            || {
                let memory = *checked;
                assert_eq!(read(&rt, memory, Side::Strata, case, false).0, case.rows())
            },
            || {
                let memory = *checked;
                assert_eq!(read(&rt, memory, Side::ArrowRs, case, false).0, case.rows())
            },
        );
    }
    g.finish();
    c.final_summary();
}

/// `--interleaved-sides REPS`: per case, one untimed read of each side
/// (checked, requests and bytes counted), then the three sides taking
/// turns `REPS` times; one line per case for `cargo xtask bench`.
fn interleaved(reps: usize) {
    let rt = runtime();
    let (memory, files) = files(&rt);
    for (case, file) in &files {
        let case = *case;
        let io = check_and_count(&rt, &memory, case, file);
        let stats = strata_benches::probe::interleaved(
            reps,
            &mut [
                &mut || assert_eq!(read(&rt, &memory, Side::Strata, case, false).0, case.rows()),
                &mut || {
                    assert_eq!(
                        read(&rt, &memory, Side::StrataHint8, case, false).0,
                        case.rows()
                    )
                },
                &mut || {
                    assert_eq!(
                        read(&rt, &memory, Side::ArrowRs, case, false).0,
                        case.rows()
                    )
                },
            ],
        );
        let [(s_min, s_median), (h_min, h_median), (a_min, a_median)] =
            [stats[0], stats[1], stats[2]];
        println!(
            "object_store case={} reps={reps} strata_min_ns={} strata_median_ns={} \
             strata_hint8_min_ns={} strata_hint8_median_ns={} \
             arrow_rs_min_ns={} arrow_rs_median_ns={} ratio_of_medians={:.3} \
             strata_requests={} strata_bytes={} strata_hint8_requests={} strata_hint8_bytes={} \
             arrow_rs_requests={} arrow_rs_bytes={} \
             push_peak_buffered={} largest_row_group_projected={}",
            case.name(),
            s_min.as_nanos(),
            s_median.as_nanos(),
            h_min.as_nanos(),
            h_median.as_nanos(),
            a_min.as_nanos(),
            a_median.as_nanos(),
            s_median.as_secs_f64() / a_median.as_secs_f64(),
            io.strata.0,
            io.strata.1,
            io.strata_hint8.0,
            io.strata_hint8.1,
            io.arrow_rs.0,
            io.arrow_rs.1,
            io.peak,
            io.largest,
        );
    }
}

fn main() {
    if let Some(reps) = common::reps_after("--interleaved-sides") {
        interleaved(reps);
        return;
    }
    criterion_run();
}
