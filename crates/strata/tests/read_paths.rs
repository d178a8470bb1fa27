//! One table of reads, run through every way strata reads Arrow: the
//! synchronous reader, the push decoder fed in several ways, and the async
//! stream over a tokio reader and over an object store (the `async` and
//! `object_store` features, which this crate's tests turn on).
//! Each configuration's batches must be identical on every path, and its
//! row count equal to arrow-rs's for the same file and options. The push
//! decoder must also ask for no more bytes than arrow-rs's push decoder
//! does for the same read.
//!
//! The files: every parquet-testing data file strata reads, and files
//! written here with several row groups, pages and a page index.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;

use std::ops::Range;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use bytes::Bytes;
use strata::DecodeResult;
use strata::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection,
    RowSelector,
};
use strata::arrow::push_decoder::{ParquetPushDecoder, ParquetPushDecoderBuilder};
use strata::arrow::{ArrowWriter, ProjectionMask};
use strata::file::metadata::{PageIndexPolicy, ParquetMetaData, ParquetMetaDataPushDecoder};
use strata::file::properties::WriterProperties;
use strata::file::push_buffers::PushBuffers;

/// One read of the table.
#[derive(Debug, Clone)]
enum Config {
    All,
    SmallBatches,
    LastRoot,
    /// Select 5 rows, skip 11, repeatedly, with the page index loaded.
    Sparse,
    OffsetLimit,
    RowGroupsReversed,
}

const CONFIGS: [Config; 6] = [
    Config::All,
    Config::SmallBatches,
    Config::LastRoot,
    Config::Sparse,
    Config::OffsetLimit,
    Config::RowGroupsReversed,
];

fn sparse_selectors(total: usize) -> Vec<(bool, usize)> {
    let mut out = Vec::new();
    let mut left = total;
    while left > 0 {
        let select = left.min(5);
        out.push((false, select));
        left -= select;
        let skip = left.min(11);
        if skip > 0 {
            out.push((true, skip));
            left -= skip;
        }
    }
    out
}

fn total_rows(metadata: &ParquetMetaData) -> usize {
    metadata
        .row_groups()
        .iter()
        .map(|rg| rg.num_rows as usize)
        .sum()
}

fn options(config: &Config) -> ArrowReaderOptions {
    match config {
        Config::Sparse => {
            ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional)
        }
        _ => ArrowReaderOptions::new(),
    }
}

/// The options of `config` on any of strata's builders.
fn configure<T>(
    builder: strata::arrow::arrow_reader::ArrowReaderBuilder<T>,
    config: &Config,
) -> strata::arrow::arrow_reader::ArrowReaderBuilder<T> {
    let metadata = Arc::clone(builder.metadata());
    let roots = builder.parquet_schema().root_schema().get_fields().len();
    match config {
        Config::All => builder,
        Config::SmallBatches => builder.with_batch_size(7),
        Config::LastRoot => {
            let mask = ProjectionMask::roots(builder.parquet_schema(), [roots.saturating_sub(1)]);
            builder.with_projection(mask)
        }
        Config::Sparse => {
            let selectors: Vec<RowSelector> = sparse_selectors(total_rows(&metadata))
                .into_iter()
                .map(|(skip, n)| {
                    if skip {
                        RowSelector::skip(n)
                    } else {
                        RowSelector::select(n)
                    }
                })
                .collect();
            builder.with_row_selection(RowSelection::from(selectors))
        }
        Config::OffsetLimit => builder.with_offset(3).with_limit(50),
        Config::RowGroupsReversed => {
            builder.with_row_groups((0..metadata.num_row_groups()).rev().collect())
        }
    }
}

fn read_sync(file: &Bytes, config: &Config) -> Result<Vec<RecordBatch>, String> {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options(config))
            .map_err(|e| e.to_string())?;
    let reader = configure(builder, config)
        .build()
        .map_err(|e| e.to_string())?;
    reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// How the caller answers the push decoder.
#[derive(Debug, Clone, Copy)]
enum Feed {
    /// Exactly the ranges asked for.
    Exact,
    /// Each range widened by 100 bytes either side, in reverse order.
    Wider,
    /// The whole file up front (no request expected).
    Whole,
}

/// Metadata through the metadata push decoder, as `options` ask.
fn push_metadata(file: &Bytes, config: &Config) -> Arc<ParquetMetaData> {
    let policy = match config {
        Config::Sparse => PageIndexPolicy::Optional,
        _ => PageIndexPolicy::Skip,
    };
    let mut decoder = ParquetMetaDataPushDecoder::try_new(file.len() as u64)
        .unwrap()
        .with_page_index_policy(policy);
    loop {
        match decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges.iter().map(|r| slice(file, r)).collect();
                decoder.push_ranges(ranges, data).unwrap();
            }
            DecodeResult::Data(m) => return Arc::new(m),
            DecodeResult::Finished => panic!("finished before the metadata"),
        }
    }
}

fn slice(file: &Bytes, r: &Range<u64>) -> Bytes {
    file.slice(r.start as usize..r.end as usize)
}

/// The batches, and the bytes requested.
fn read_push(file: &Bytes, config: &Config, feed: Feed) -> (Vec<RecordBatch>, u64) {
    let metadata = push_metadata(file, config);
    let mut builder = ParquetPushDecoderBuilder::try_new_decoder(metadata).unwrap();
    if let Feed::Whole = feed {
        let mut buffers = PushBuffers::new(file.len() as u64);
        buffers
            .push_range(0..file.len() as u64, file.clone())
            .unwrap();
        builder = builder.with_buffers(buffers);
    }
    let decoder = configure(builder, config).build().unwrap();
    drive(decoder, file, feed)
}

fn drive(mut decoder: ParquetPushDecoder, file: &Bytes, feed: Feed) -> (Vec<RecordBatch>, u64) {
    let len = file.len() as u64;
    let mut batches = Vec::new();
    let mut requested = 0;
    loop {
        match decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                assert!(!ranges.is_empty(), "an empty request");
                requested += ranges.iter().map(|r| r.end - r.start).sum::<u64>();
                match feed {
                    Feed::Exact => {
                        let data = ranges.iter().map(|r| slice(file, r)).collect();
                        decoder.push_ranges(ranges, data).unwrap();
                    }
                    Feed::Wider => {
                        for r in ranges.iter().rev() {
                            let wide = r.start.saturating_sub(100)..(r.end + 100).min(len);
                            decoder
                                .push_range(wide.clone(), slice(file, &wide))
                                .unwrap();
                        }
                    }
                    Feed::Whole => panic!("asked for {ranges:?} with the whole file pushed"),
                }
            }
            DecodeResult::Data(batch) => batches.push(batch),
            DecodeResult::Finished => break,
        }
    }
    (batches, requested)
}

/// All the rows of `batches` in one batch (`None` for none).
fn concat_rows(batches: &[RecordBatch]) -> Option<RecordBatch> {
    let first = batches.first()?;
    Some(arrow_select::concat::concat_batches(&first.schema(), batches).unwrap())
}

/// Where the async stream reads from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// An `AsyncRead + AsyncSeek` over the bytes.
    Cursor,
    /// A `ParquetObjectReader` over object_store's in-memory store.
    ObjectStore,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

fn read_stream(file: &Bytes, config: &Config, source: Source) -> Vec<RecordBatch> {
    use futures::TryStreamExt;
    use object_store::{ObjectStore, ObjectStoreExt, memory::InMemory, path::Path};
    use strata::arrow::async_reader::{
        AsyncFileReader, ParquetObjectReader, ParquetRecordBatchStreamBuilder,
    };

    runtime().block_on(async {
        let input: Box<dyn AsyncFileReader> = match source {
            Source::Cursor => Box::new(std::io::Cursor::new(file.to_vec())),
            Source::ObjectStore => {
                let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
                let path = Path::from("t/file.parquet");
                store.put(&path, file.clone().into()).await.unwrap();
                Box::new(ParquetObjectReader::new(store, path))
            }
        };
        let builder = ParquetRecordBatchStreamBuilder::new_with_options(input, options(config))
            .await
            .unwrap();
        configure(builder, config)
            .build()
            .unwrap()
            .try_collect()
            .await
            .unwrap()
    })
}

/// The rows arrow-rs reads with the same options, and the bytes its push
/// decoder asks for; `None` when arrow-rs cannot read the file.
fn arrow_rs(file: &Bytes, config: &Config) -> Option<(usize, u64)> {
    use parquet::arrow::arrow_reader::{
        ArrowReaderBuilder, ArrowReaderOptions as Options, RowSelection as Sel, RowSelector as Sr,
    };
    use parquet::arrow::push_decoder::ParquetPushDecoderBuilder as Push;
    use parquet::file::metadata::{PageIndexPolicy as Policy, ParquetMetaDataReader};

    fn apply<T>(b: ArrowReaderBuilder<T>, config: &Config) -> ArrowReaderBuilder<T> {
        let total: usize = b
            .metadata()
            .row_groups()
            .iter()
            .map(|rg| rg.num_rows() as usize)
            .sum();
        let groups = b.metadata().num_row_groups();
        let roots = b.parquet_schema().root_schema().get_fields().len();
        match config {
            Config::All => b,
            Config::SmallBatches => b.with_batch_size(7),
            Config::LastRoot => {
                let mask = parquet::arrow::ProjectionMask::roots(
                    b.parquet_schema(),
                    [roots.saturating_sub(1)],
                );
                b.with_projection(mask)
            }
            Config::Sparse => {
                let s: Vec<Sr> = sparse_selectors(total)
                    .into_iter()
                    .map(|(skip, n)| if skip { Sr::skip(n) } else { Sr::select(n) })
                    .collect();
                b.with_row_selection(Sel::from(s))
            }
            Config::OffsetLimit => b.with_offset(3).with_limit(50),
            Config::RowGroupsReversed => b.with_row_groups((0..groups).rev().collect()),
        }
    }
    let policy = match config {
        Config::Sparse => Policy::Optional,
        _ => Policy::Skip,
    };
    let options = Options::new().with_page_index_policy(policy);
    let sync = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new_with_options(
        file.clone(),
        options.clone(),
    )
    .ok()?;
    let rows = apply(sync, config)
        .build()
        .ok()?
        .map(|b| b.map(|b| b.num_rows()))
        .sum::<Result<usize, _>>()
        .ok()?;
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(policy)
        .parse_and_finish(file)
        .ok()?;
    let mut decoder = apply(
        Push::try_new_decoder_with_options(Arc::new(metadata), options).ok()?,
        config,
    )
    .build()
    .ok()?;
    let mut requested = 0;
    loop {
        match decoder.try_decode().ok()? {
            parquet::DecodeResult::NeedsData(ranges) => {
                requested += ranges.iter().map(|r| r.end - r.start).sum::<u64>();
                let data = ranges.iter().map(|r| slice(file, r)).collect();
                decoder.push_ranges(ranges, data).ok()?;
            }
            parquet::DecodeResult::Data(_) => {}
            parquet::DecodeResult::Finished => break,
        }
    }
    Some((rows, requested))
}

/// Files of several row groups and pages, with a page index: ids and
/// strings, some null.
fn written_files() -> Vec<(String, Bytes)> {
    let mut out = Vec::new();
    for (name, rows, group, page) in [("small", 100, 30, 10), ("paged", 5000, 1200, 97)] {
        let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..rows));
        let names: ArrayRef = Arc::new(StringArray::from_iter(
            (0..rows).map(|i| (i % 7 != 0).then(|| format!("name {}", i % 300))),
        ));
        let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(group))
            .set_data_page_row_count_limit(page)
            .set_write_batch_size(page)
            .build();
        let mut buf = Vec::new();
        let mut w = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props)).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        out.push((name.to_string(), Bytes::from(buf)));
    }
    out
}

/// Files whose rows arrow-rs 60.1 reads differently, and why.
const ARROW_RS_READS_OTHERWISE: &[(&str, &str)] = &[(
    "repeated_no_annotation.parquet",
    "arrow-rs reads none of the 6 rows its row group holds",
)];

#[test]
fn every_read_path_gives_the_same_batches() {
    let mut files = written_files();
    for path in corpus::corpus_files("data") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        files.push((name, Bytes::from(std::fs::read(&path).unwrap())));
    }
    let (mut compared, mut skipped, mut fewer_bytes) = (0, 0, 0);
    for (name, file) in &files {
        for config in &CONFIGS {
            let Ok(sync) = read_sync(file, config) else {
                // Files strata cannot read are corpus.rs's business.
                skipped += 1;
                continue;
            };
            // The push decoder's and the stream's batches end with each
            // row group (as arrow-rs's do); the synchronous reader's go on
            // into the next. The rows are the same.
            let (push, _) = read_push(file, config, Feed::Exact);
            assert_eq!(
                concat_rows(&push),
                concat_rows(&sync),
                "{name} {config:?}: push against sync"
            );
            for feed in [Feed::Wider, Feed::Whole] {
                let (other, _) = read_push(file, config, feed);
                assert_eq!(
                    other, push,
                    "{name} {config:?} {feed:?}: against exact pushes"
                );
            }
            for source in [Source::Cursor, Source::ObjectStore] {
                let stream = read_stream(file, config, source);
                assert_eq!(
                    stream, push,
                    "{name} {config:?} {source:?}: stream against push"
                );
            }
            let rows: usize = sync.iter().map(|b| b.num_rows()).sum();
            if let Some((arrow_rows, arrow_bytes)) = arrow_rs(file, config) {
                if ARROW_RS_READS_OTHERWISE.iter().any(|(f, _)| f == name) {
                    assert_ne!(
                        rows, arrow_rows,
                        "{name} {config:?}: now equal; update the list"
                    );
                } else {
                    assert_eq!(rows, arrow_rows, "{name} {config:?}: rows against arrow-rs");
                }
                let (_, strata_bytes) = read_push(file, config, Feed::Exact);
                assert!(
                    strata_bytes <= arrow_bytes,
                    "{name} {config:?}: strata asked for {strata_bytes} bytes, arrow-rs for {arrow_bytes}"
                );
                if strata_bytes < arrow_bytes {
                    fewer_bytes += 1;
                }
            }
            compared += 1;
        }
    }
    eprintln!(
        "read paths: {compared} file/config pairs equal on every path, {skipped} unreadable, {fewer_bytes} with fewer bytes asked than arrow-rs"
    );
    assert!(compared >= 2 * CONFIGS.len());
}

#[test]
fn the_decoder_holds_only_the_row_group_it_reads() {
    let (_, file) = written_files().pop().unwrap();
    let metadata = push_metadata(&file, &Config::All);
    let largest_group = metadata
        .row_groups()
        .iter()
        .map(|rg| rg.total_compressed_size.unwrap_or(0) as u64)
        .max()
        .unwrap();
    let mut decoder = ParquetPushDecoderBuilder::try_new_decoder(metadata)
        .unwrap()
        .build()
        .unwrap();
    let mut peak = 0;
    loop {
        peak = peak.max(decoder.buffered_bytes());
        match decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges.iter().map(|r| slice(&file, r)).collect();
                decoder.push_ranges(ranges, data).unwrap();
                peak = peak.max(decoder.buffered_bytes());
            }
            DecodeResult::Data(_) => {}
            DecodeResult::Finished => break,
        }
    }
    assert!(
        peak > 0 && peak <= largest_group,
        "{peak} > {largest_group}"
    );
    assert_eq!(decoder.buffered_bytes(), 0);
}

#[test]
fn a_metadata_reuse_reads_the_same() {
    let (_, file) = written_files().pop().unwrap();
    let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
    let decoder = ParquetPushDecoderBuilder::new_with_metadata(metadata)
        .with_batch_size(333)
        .build()
        .unwrap();
    let (push, _) = drive(decoder, &file, Feed::Exact);
    let sync: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_batch_size(333)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(concat_rows(&push), concat_rows(&sync));
    // Batches of 333 rows, the last of each 1,200-row group shorter.
    let sizes: Vec<usize> = push.iter().map(|b| b.num_rows()).collect();
    assert_eq!(&sizes[..5], &[333, 333, 333, 201, 333]);
}

#[test]
fn next_reader_splits_at_row_groups() {
    let (_, file) = written_files().pop().unwrap();
    let metadata = push_metadata(&file, &Config::All);
    let groups = metadata.num_row_groups();
    let mut decoder = ParquetPushDecoderBuilder::try_new_decoder(metadata)
        .unwrap()
        .build()
        .unwrap();
    let mut readers = 0;
    let mut batches = Vec::new();
    loop {
        match decoder.try_next_reader().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges.iter().map(|r| slice(&file, r)).collect();
                decoder.push_ranges(ranges, data).unwrap();
            }
            DecodeResult::Data(reader) => {
                readers += 1;
                for b in reader {
                    batches.push(b.unwrap());
                }
            }
            DecodeResult::Finished => break,
        }
    }
    assert_eq!(readers, groups);
    let all = arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
    let sync: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected = arrow_select::concat::concat_batches(&sync[0].schema(), &sync).unwrap();
    assert_eq!(all, expected);

    // The stream hands out the same readers.
    let batches = runtime().block_on(async {
        let mut stream = strata::arrow::async_reader::ParquetRecordBatchStreamBuilder::new(
            std::io::Cursor::new(file.to_vec()),
        )
        .await
        .unwrap()
        .build()
        .unwrap();
        let mut batches = Vec::new();
        let mut readers = 0;
        while let Some(reader) = stream.next_row_group().await.unwrap() {
            readers += 1;
            batches.extend(reader.map(|b| b.unwrap()));
        }
        assert_eq!(readers, groups);
        batches
    });
    let all = arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
    assert_eq!(all, expected);
}

/// Every corpus file, bad ones too, through the metadata and data push
/// decoders: results or errors, never a panic.
#[test]
fn bad_files_through_the_push_decoders_never_panic() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/parquet-testing");
    let mut paths = corpus::corpus_files("data");
    if let Ok(entries) = std::fs::read_dir(root.join("bad_data")) {
        paths.extend(
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "parquet")),
        );
    }
    let mut errors = 0;
    for path in &paths {
        let file = Bytes::from(std::fs::read(path).unwrap());
        for config in [Config::All, Config::Sparse] {
            let outcome = std::panic::catch_unwind(|| try_push(&file, &config));
            match outcome {
                Err(_) => panic!("{}: a push decoder panicked", path.display()),
                Ok(Err(_)) => errors += 1,
                Ok(Ok(_)) => {}
            }
        }
    }
    eprintln!(
        "push decoders over {} files: {errors} errors, no panic",
        paths.len()
    );
}

fn try_push(file: &Bytes, config: &Config) -> Result<usize, String> {
    let mut metadata = ParquetMetaDataPushDecoder::try_new(file.len() as u64)
        .map_err(|e| e.to_string())?
        .with_page_index_policy(PageIndexPolicy::Optional);
    let metadata = loop {
        match metadata.try_decode().map_err(|e| e.to_string())? {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges
                    .iter()
                    .map(|r| fetch(file, r))
                    .collect::<Result<_, _>>()?;
                metadata
                    .push_ranges(ranges, data)
                    .map_err(|e| e.to_string())?;
            }
            DecodeResult::Data(m) => break Arc::new(m),
            DecodeResult::Finished => return Err("no metadata".into()),
        }
    };
    let builder =
        ParquetPushDecoderBuilder::try_new_decoder(metadata).map_err(|e| e.to_string())?;
    let mut decoder = configure(builder, config)
        .build()
        .map_err(|e| e.to_string())?;
    let mut rows = 0;
    loop {
        match decoder.try_decode().map_err(|e| e.to_string())? {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges
                    .iter()
                    .map(|r| fetch(file, r))
                    .collect::<Result<_, _>>()?;
                decoder
                    .push_ranges(ranges, data)
                    .map_err(|e| e.to_string())?;
            }
            DecodeResult::Data(b) => rows += b.num_rows(),
            DecodeResult::Finished => return Ok(rows),
        }
    }
}

/// The bytes of `r`, or the error a store gives for a range past the end.
fn fetch(file: &Bytes, r: &Range<u64>) -> Result<Bytes, String> {
    if r.end > file.len() as u64 || r.start > r.end {
        return Err(format!(
            "range {r:?} is outside the {} bytes of the file",
            file.len()
        ));
    }
    Ok(slice(file, r))
}
