// Programs that read a file's metadata without reading its rows: the
// metadata reader with page indexes, the footer tail, statistics
// policies, a schema reused across files. Included into a module that has
// `pq` in scope.

use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use pq::file::metadata::{
    FooterTail, PageIndexPolicy, ParquetMetaDataOptions, ParquetMetaDataReader, ParquetStatisticsPolicy,
};
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::fmt_batches;

/// `batch` in row groups of `rows_per_group` rows and pages of at most 8
/// rows, so the page indexes have several pages.
fn paged(batch: &RecordBatch, rows_per_group: usize) -> Bytes {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows_per_group))
        .set_data_page_row_count_limit(8)
        .set_write_batch_size(8)
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

/// Page pruning's first step: load the page index with the metadata and
/// list each chunk's pages (first rows, null counts, order).
pub fn metadata_reader_page_index(_dir: &Path) -> String {
    let file = paged(&people(60), 25);
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&file)
        .unwrap();
    let mut out = format!(
        "rows: {}\nrow groups: {}\n",
        metadata.file_metadata().num_rows(),
        metadata.num_row_groups()
    );
    for g in 0..metadata.num_row_groups() {
        let index = metadata.page_index_for_row_group(g);
        for c in 0..metadata.row_group(g).num_columns() {
            let first_rows: Vec<i64> = index
                .page_locations(c)
                .map(|p| p.iter().map(|l| l.first_row_index).collect())
                .unwrap_or_default();
            let column_index = index.column_index(c).unwrap();
            let nulls: Vec<Option<i64>> = (0..column_index.num_pages() as usize)
                .map(|p| column_index.null_count(p))
                .collect();
            out.push_str(&format!(
                "{g}/{c}: pages {:?} first rows {first_rows:?} nulls {nulls:?} sorted {}\n",
                index.num_data_pages(c),
                column_index.is_sorted(),
            ));
        }
    }
    out
}

/// A tool that reads the footer by hand: the tail's length, then the
/// metadata bytes decoded.
pub fn footer_tail_and_decode(_dir: &Path) -> String {
    let file = paged(&people(30), 10);
    let len = file.len();
    let tail = FooterTail::try_from(&file[len - 8..]).unwrap();
    let start = len - 8 - tail.metadata_length();
    let metadata = ParquetMetaDataReader::decode_metadata(&file[start..len - 8]).unwrap();
    let schema = metadata.file_metadata().schema_descr();
    format!(
        "encrypted: {}\nrows: {}\nrow groups: {}\nleaves: {}\nfirst: {}\n",
        tail.is_encrypted_footer(),
        metadata.file_metadata().num_rows(),
        metadata.num_row_groups(),
        schema.num_columns(),
        schema.columns()[0].name(),
    )
}

/// A reader of two columns of a wide file keeps only their statistics.
pub fn statistics_policy_keeps_read_columns(_dir: &Path) -> String {
    let file = paged(&people(40), 20);
    let keep = ParquetStatisticsPolicy::skip_except(&[1]);
    let options = ArrowReaderOptions::new()
        .with_column_stats_policy(keep.clone())
        .with_size_stats_policy(keep);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).unwrap();
    let mut out = String::new();
    for (g, group) in builder.metadata().row_groups().iter().enumerate() {
        for (c, column) in group.columns().iter().enumerate() {
            out.push_str(&format!(
                "{g}/{c}: statistics {} nulls {:?}\n",
                column.statistics().is_some(),
                column.statistics().and_then(|s| s.null_count_opt()),
            ));
        }
    }
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(|b| b.unwrap()).collect();
    out.push_str(&fmt_batches(&batches));
    out
}

/// The files of a dataset share a schema: decode it once and hand it to
/// the readers of the other files.
pub fn parquet_schema_reused_across_files(_dir: &Path) -> String {
    let first = paged(&people(10), 10);
    let second = paged(&crate::data::people_from(10, 12), 10);
    let schema = ParquetRecordBatchReaderBuilder::try_new(first)
        .unwrap()
        .metadata()
        .file_metadata()
        .schema_descr_ptr();
    let options = ArrowReaderOptions::new().with_parquet_schema(Arc::clone(&schema));
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(second, options).unwrap();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(|b| b.unwrap()).collect();
    fmt_batches(&batches)
}

/// Metadata decoded straight from bytes with options, and read with a
/// prefetch hint: the same row groups.
pub fn metadata_options_and_prefetch(_dir: &Path) -> String {
    let file = paged(&people(50), 20);
    let options = ParquetMetaDataOptions::new()
        .with_column_stats_policy(ParquetStatisticsPolicy::SkipAll)
        .with_encoding_stats_policy(ParquetStatisticsPolicy::SkipAll);
    let skipped = ParquetMetaDataReader::new()
        .with_metadata_options(Some(options))
        .with_prefetch_hint(Some(64 * 1024))
        .parse_and_finish(&file)
        .unwrap();
    let full = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
    let mut out = format!("rows: {}\n", skipped.file_metadata().num_rows());
    for (s, f) in skipped.row_groups().iter().zip(full.row_groups()) {
        out.push_str(&format!("rows {} / {}\n", s.num_rows(), f.num_rows()));
        for (s, f) in s.columns().iter().zip(f.columns()) {
            out.push_str(&format!(
                "{}: statistics {} / {}, values {} / {}\n",
                s.column_path().string(),
                s.statistics().is_some(),
                f.statistics().is_some(),
                s.num_values(),
                f.num_values(),
            ));
        }
    }
    out
}

/// An inspection tool's per-column line: physical type, codec, encodings.
pub fn column_codecs_and_types(_dir: &Path) -> String {
    use pq::basic::{Compression, ZstdLevel};
    use pq::schema::types::ColumnPath;
    let batch = people(30);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).unwrap()))
        .set_column_compression(ColumnPath::from("name"), Compression::SNAPPY)
        .set_column_compression(ColumnPath::from("active"), Compression::UNCOMPRESSED)
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for column in metadata.row_group(0).columns() {
        let codec = column.compression();
        out.push_str(&format!(
            "{}: {} {:?} {codec} compressed {}\n",
            column.column_path(),
            column.column_type(),
            codec,
            matches!(codec, Compression::UNCOMPRESSED).then_some("no").unwrap_or("yes"),
        ));
    }
    out
}
