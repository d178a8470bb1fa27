// Programs reading and writing where the data lives: the push decoders
// (the caller does the I/O), the async stream over a tokio reader and over
// an object store, the async writer. Included into a module that has `pq`
// in scope; both crates are built with their `async` and `object_store`
// features for these. arrow-rs 60.1 deprecates `ParquetObjectReader` and
// `ParquetObjectWriter` (in favour of an own `AsyncFileReader` and of
// object_store's `BufWriter` handed to the writer, both shown here too),
// so their uses allow deprecation.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;
use futures::TryStreamExt;
use object_store::memory::InMemory;
use object_store::{ObjectStore, ObjectStoreExt};

use pq::DecodeResult;
use pq::arrow::ProjectionMask;
use pq::arrow::arrow_reader::{ArrowReaderOptions, RowSelection, RowSelector};
#[allow(deprecated)]
use pq::arrow::async_reader::{ParquetObjectReader, ParquetRecordBatchStreamBuilder};
#[allow(deprecated)]
use pq::arrow::async_writer::{AsyncArrowWriter, ParquetObjectWriter};
use pq::arrow::push_decoder::ParquetPushDecoderBuilder;
use pq::file::metadata::{PageIndexPolicy, ParquetMetaDataPushDecoder};
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::{fmt_batches, fmt_schema};
use super::common::{decode_all, loaded_page_indexes, to_parquet};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn get(file: &Bytes, r: &Range<u64>) -> Bytes {
    file.slice(r.start as usize..r.end as usize)
}

/// The metadata push decoder, then the data push decoder with a projection
/// and a batch size, answered range by range.
pub fn push_decoders_by_hand(_dir: &Path) -> String {
    let file = to_parquet(&people(100), 30);
    let mut metadata_decoder = ParquetMetaDataPushDecoder::try_new(file.len() as u64).unwrap();
    let metadata = loop {
        match metadata_decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges.iter().map(|r| get(&file, r)).collect();
                metadata_decoder.push_ranges(ranges, data).unwrap();
            }
            DecodeResult::Data(metadata) => break Arc::new(metadata),
            DecodeResult::Finished => panic!("no metadata"),
        }
    };
    let mut out = format!("row groups: {}\n", metadata.num_row_groups());
    let builder = ParquetPushDecoderBuilder::try_new_decoder(Arc::clone(&metadata)).unwrap();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0, 2]);
    let mut decoder = builder.with_projection(mask).with_batch_size(25).build().unwrap();
    let batches = decode_all(&mut decoder, &file);
    out.push_str(&fmt_batches(&batches));
    out
}

/// The push decoder given the whole file at once, with a row selection
/// and offset and limit.
pub fn push_decoder_whole_file_selection(_dir: &Path) -> String {
    let file = to_parquet(&people(120), 50);
    let metadata = Arc::new(
        pq::file::metadata::ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap(),
    );
    let mut decoder = ParquetPushDecoderBuilder::try_new_decoder(metadata)
        .unwrap()
        .with_row_selection(RowSelection::from(vec![
            RowSelector::skip(10),
            RowSelector::select(60),
            RowSelector::skip(20),
            RowSelector::select(30),
        ]))
        .with_offset(5)
        .with_limit(70)
        .build()
        .unwrap();
    decoder.push_range(0..file.len() as u64, file.clone()).unwrap();
    let mut batches = Vec::new();
    loop {
        match decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => panic!("asked for {ranges:?} again"),
            DecodeResult::Data(batch) => batches.push(batch),
            DecodeResult::Finished => break,
        }
    }
    fmt_batches(&batches)
}

/// Row groups chosen and ordered with selections of their own rows,
/// through the push decoder (with an offset and a limit across them) and
/// the stream; the builder refuses them beside a global selection, and a
/// selection longer than its row group.
pub fn row_group_selections_in_order(_dir: &Path) -> String {
    use pq::arrow::push_decoder::RowGroupSelection;
    let file = to_parquet(&people(100), 30);
    let metadata = Arc::new(
        pq::file::metadata::ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap(),
    );
    let local = |runs: Vec<RowSelector>| Some(RowSelection::from(runs));
    let entries = vec![
        RowGroupSelection::new(2, local(vec![RowSelector::skip(3), RowSelector::select(4)])),
        RowGroupSelection::new(0, None),
        RowGroupSelection::new(2, local(vec![RowSelector::select(2)])),
        RowGroupSelection::new(3, local(vec![RowSelector::skip(1), RowSelector::select(9)])),
    ];
    let decode = |builder: ParquetPushDecoderBuilder| -> Result<Vec<RecordBatch>, String> {
        let mut decoder = builder.build().map_err(|_| "refused".to_string())?;
        let mut batches = Vec::new();
        loop {
            match decoder.try_decode().map_err(|_| "failed".to_string())? {
                DecodeResult::NeedsData(ranges) => {
                    let data = ranges.iter().map(|r| get(&file, r)).collect();
                    decoder.push_ranges(ranges, data).unwrap();
                }
                DecodeResult::Data(batch) => batches.push(batch),
                DecodeResult::Finished => return Ok(batches),
            }
        }
    };
    let builder = || ParquetPushDecoderBuilder::try_new_decoder(Arc::clone(&metadata)).unwrap();
    let mut out = String::new();
    let batches = decode(builder().with_row_group_selections(entries.clone())).unwrap();
    out.push_str(&fmt_batches(&batches));
    let batches = decode(
        builder()
            .with_row_group_selections(entries.clone())
            .with_offset(5)
            .with_limit(20)
            .with_batch_size(7),
    )
    .unwrap();
    out.push_str(&fmt_batches(&batches));
    let conflict = decode(
        builder()
            .with_row_selection(RowSelection::from(vec![RowSelector::select(10)]))
            .with_row_group_selections(entries.clone()),
    );
    out.push_str(&format!("with a global selection: {:?}\n", conflict.err()));
    let too_long = decode(builder().with_row_group_selections(vec![RowGroupSelection::new(
        3,
        local(vec![RowSelector::select(11)]),
    )]));
    out.push_str(&format!("longer than the row group: {:?}\n", too_long.err()));
    runtime().block_on(async {
        let stream = ParquetRecordBatchStreamBuilder::new(std::io::Cursor::new(file.to_vec()))
            .await
            .unwrap()
            .with_row_group_selections(entries)
            .build()
            .unwrap();
        let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
        out.push_str(&fmt_batches(&batches));
    });
    out
}

/// The async stream over a tokio file.
pub fn stream_from_tokio_file(dir: &Path) -> String {
    let path = dir.join("people.parquet");
    std::fs::write(&path, to_parquet(&people(80), 30)).unwrap();
    runtime().block_on(async {
        let file = tokio::fs::File::open(&path).await.unwrap();
        let builder = ParquetRecordBatchStreamBuilder::new(file).await.unwrap();
        let mut out = fmt_schema(builder.schema());
        let stream = builder.with_batch_size(32).build().unwrap();
        let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
        out.push_str(&fmt_batches(&batches));
        out
    })
}

/// The writer straight over object_store's `BufWriter` (an `AsyncWrite`),
/// as arrow-rs now recommends, read back from the store's bytes.
pub fn buf_writer_as_the_sink(_dir: &Path) -> String {
    runtime().block_on(async {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let path = object_store::path::Path::from("lake/buffered.parquet");
        let batch = people(90);
        let sink = object_store::buffered::BufWriter::new(Arc::clone(&store), path.clone());
        let mut writer = AsyncArrowWriter::try_new(sink, batch.schema(), None).unwrap();
        writer.write(&batch).await.unwrap();
        writer.close().await.unwrap();
        let bytes = store.get(&path).await.unwrap().bytes().await.unwrap();
        let batches: Vec<RecordBatch> =
            pq::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(bytes)
                .unwrap()
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        fmt_batches(&batches)
    })
}

/// Writing with the async writer to an object store, then reading one
/// column of a page-indexed selection back through `ParquetObjectReader`.
#[allow(deprecated)]
pub fn object_store_write_then_read(_dir: &Path) -> String {
    runtime().block_on(async {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let path = object_store::path::Path::from("lake/people.parquet");
        let batch = people(200);
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(64))
            .set_data_page_row_count_limit(8)
            .set_write_batch_size(8)
            .build();
        let sink = ParquetObjectWriter::new(Arc::clone(&store), path.clone());
        let mut writer = AsyncArrowWriter::try_new(sink, batch.schema(), Some(props)).unwrap();
        writer.write(&batch).await.unwrap();
        let metadata = writer.close().await.unwrap();
        let mut out = format!("written row groups: {}\n", metadata.num_row_groups());

        let size = store.head(&path).await.unwrap().size;
        let reader = ParquetObjectReader::new(Arc::clone(&store), path)
            .with_file_size(size)
            .with_footer_size_hint(4096);
        let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
        let builder = ParquetRecordBatchStreamBuilder::new_with_options(reader, options)
            .await
            .unwrap();
        let mask = ProjectionMask::roots(builder.parquet_schema(), [1]);
        let mut stream = builder
            .with_projection(mask)
            .with_row_selection(RowSelection::from(vec![
                RowSelector::skip(70),
                RowSelector::select(12),
                RowSelector::skip(100),
                RowSelector::select(3),
            ]))
            .build()
            .unwrap();
        let mut batches = Vec::new();
        while let Some(reader) = stream.next_row_group().await.unwrap() {
            for batch in reader {
                batches.push(batch.unwrap());
            }
        }
        out.push_str(&fmt_batches(&batches));
        out
    })
}

/// The page index of the read columns only, by the Arrow options' masks,
/// through the async builders: over a tokio reader and over an object
/// store. Which chunks have a column and an offset index, then the
/// projected rows.
#[allow(deprecated)]
pub fn async_page_index_masks(_dir: &Path) -> String {
    use pq::file::metadata::ColumnChunkMask;

    runtime().block_on(async {
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(25))
            .set_data_page_row_count_limit(8)
            .set_write_batch_size(8)
            .build();
        let batch = people(60);
        let mut writer =
            pq::arrow::ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
        writer.write(&batch).unwrap();
        let file = Bytes::from(writer.into_inner().unwrap());
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let path = object_store::path::Path::from("lake/people.parquet");
        store.put(&path, file.clone().into()).await.unwrap();

        let options = || {
            ArrowReaderOptions::new()
                .with_page_index_policy(PageIndexPolicy::Required)
                .with_column_index_mask(ColumnChunkMask::columns([2]))
                .with_offset_index_mask(ColumnChunkMask::row_groups_and_columns([0, 2], [1, 2]))
        };
        let mut out = String::new();
        let tokio_reader = ParquetRecordBatchStreamBuilder::new_with_options(
            std::io::Cursor::new(file.to_vec()),
            options(),
        )
        .await
        .unwrap();
        out.push_str(&format!("tokio reader:\n{}", loaded_page_indexes(tokio_reader.metadata())));
        let object_reader = ParquetObjectReader::new(Arc::clone(&store), path)
            .with_file_size(file.len() as u64);
        let builder = ParquetRecordBatchStreamBuilder::new_with_options(object_reader, options())
            .await
            .unwrap();
        out.push_str(&format!("object store:\n{}", loaded_page_indexes(builder.metadata())));
        let mask = ProjectionMask::leaves(builder.parquet_schema(), [1, 2]);
        let batches: Vec<RecordBatch> = builder
            .with_projection(mask)
            .with_row_selection(RowSelection::from(vec![
                RowSelector::skip(20),
                RowSelector::select(10),
                RowSelector::skip(20),
                RowSelector::select(5),
            ]))
            .build()
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        out.push_str(&fmt_batches(&batches));
        out
    })
}
