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
use super::common::{corpus, no_corpus, parquet_files_in};

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

/// A schema report from the chunks alone: each chunk's descriptor (path,
/// type, levels) and the sort order its types define, the row group's
/// schema, as a catalog tool prints them.
pub fn chunk_descriptors_and_sort_orders(_dir: &Path) -> String {
    let file = paged(&people(30), 10);
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for (g, group) in metadata.row_groups().iter().enumerate() {
        let schema = group.schema_descr_ptr();
        out.push_str(&format!(
            "group {g}: {} chunks, schema {} with {} leaves\n",
            group.num_columns(),
            group.schema_descr().name(),
            schema.num_columns()
        ));
        for chunk in group.columns() {
            let descr = chunk.column_descr();
            let shared = chunk.column_descr_ptr();
            out.push_str(&format!(
                "  {} {} def {} rep {} sort {} signed {} same {}\n",
                descr.path(),
                descr.physical_type(),
                descr.max_def_level(),
                descr.max_rep_level(),
                descr.sort_order(),
                descr.sort_order().is_signed(),
                shared.name() == chunk.column_path().parts().last().unwrap(),
            ));
        }
    }
    out
}

/// Whether a reader may trust min/max: the footer's column order of each
/// leaf of corpus files written by other tools.
pub fn column_orders_of_corpus_files(_dir: &Path) -> String {
    use pq::basic::{ColumnOrder, SortOrder};
    let (mut out, mut rows) = (String::new(), 0);
    for name in [
        "alltypes_tiny_pages_plain.parquet",
        "floating_orders_nan_count.parquet",
        "int96_from_spark.parquet",
        "float16_nonzeros_and_nans.parquet",
        "alltypes_plain.parquet",
    ] {
        let Some(path) = corpus(name) else {
            return no_corpus();
        };
        let file = Bytes::from(std::fs::read(path).unwrap());
        let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
        let file_metadata = metadata.file_metadata();
        rows += file_metadata.num_rows();
        out.push_str(&format!(
            "{name}: {} orders\n",
            file_metadata.column_orders().map_or(0, |o| o.len())
        ));
        for (i, column) in file_metadata.schema_descr().columns().iter().enumerate() {
            let order = file_metadata.column_order(i);
            let trusted = match order {
                ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNDEFINED) => "no bounds",
                ColumnOrder::TYPE_DEFINED_ORDER(_) => "type order",
                ColumnOrder::IEEE_754_TOTAL_ORDER => "total order",
                ColumnOrder::INT96_TIMESTAMP_ORDER => "int96 order",
                ColumnOrder::UNDEFINED => "legacy signed",
                ColumnOrder::UNKNOWN => "ignored",
            };
            out.push_str(&format!(
                "  {}: {order} -> {} ({trusted}); the type's own {}\n",
                column.path(),
                order.sort_order(),
                column.sort_order()
            ));
        }
    }
    format!("rows: {rows}\n{out}")
}

/// One page's bounds as text.
fn page_bounds<T: std::fmt::Debug>(min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("{min:?}..{max:?}"),
        _ => "null page".to_string(),
    }
}

/// Each page's bounds of a column index, by the chunk's physical type.
fn typed_page_bounds(index: &pq::file::page_index::column_index::ColumnIndexMetaData) -> Vec<String> {
    use pq::file::page_index::column_index::ColumnIndexMetaData as Index;
    let pages = index.num_pages() as usize;
    (0..pages)
        .map(|p| match index {
            Index::BOOLEAN(i) => page_bounds(i.min_value(p), i.max_value(p)),
            Index::INT32(i) => page_bounds(i.min_value(p), i.max_value(p)),
            Index::INT64(i) => page_bounds(i.min_value(p), i.max_value(p)),
            Index::INT96(i) => page_bounds(
                i.min_value(p).map(|v| v.data().to_vec()),
                i.max_value(p).map(|v| v.data().to_vec()),
            ),
            Index::FLOAT(i) => page_bounds(i.min_value(p), i.max_value(p)),
            Index::DOUBLE(i) => page_bounds(i.min_value(p), i.max_value(p)),
            Index::BYTE_ARRAY(i) | Index::FIXED_LEN_BYTE_ARRAY(i) => page_bounds(
                i.min_value(p).map(String::from_utf8_lossy),
                i.max_value(p).map(String::from_utf8_lossy),
            ),
        })
        .collect()
}

/// Page pruning by hand: the typed column index of each chunk, matched on
/// its physical type, bounds of every page.
pub fn typed_column_index_bounds(_dir: &Path) -> String {
    let file = paged(&people(40), 40);
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&file)
        .unwrap();
    let index = metadata.page_index_for_row_group(0);
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for (c, chunk) in metadata.row_group(0).columns().iter().enumerate() {
        let column_index = index.column_index(c).unwrap();
        out.push_str(&format!(
            "{} sorted {} order {:?}: {}\n",
            chunk.column_path(),
            column_index.is_sorted(),
            column_index.get_boundary_order(),
            typed_page_bounds(column_index).join(" ")
        ));
    }
    out
}

/// The same on a file written by parquet-mr with many small pages: the
/// first pages' bounds of every column, INT96 and strings included.
pub fn typed_column_index_of_corpus_file(_dir: &Path) -> String {
    let Some(path) = corpus("alltypes_tiny_pages_plain.parquet") else {
        return no_corpus();
    };
    let file = Bytes::from(std::fs::read(path).unwrap());
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&file)
        .unwrap();
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for g in 0..metadata.num_row_groups() {
        let index = metadata.page_index_for_row_group(g);
        for c in 0..metadata.row_group(g).num_columns() {
            let Some(column_index) = index.column_index(c) else {
                out.push_str(&format!("{g}/{c}: no column index\n"));
                continue;
            };
            let bounds = typed_page_bounds(column_index);
            out.push_str(&format!(
                "{g}/{c}: {} pages, nulls {:?}, first {}\n",
                column_index.num_pages(),
                column_index.null_count(0),
                bounds.iter().take(3).cloned().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    out
}

/// A wide-table reader's page index: only the chunks it will read, by a
/// column chunk mask (the other chunks have none), and the typed min of
/// each page of those.
pub fn page_index_mask_for_read_columns(_dir: &Path) -> String {
    use pq::file::metadata::ColumnChunkMask;
    let file = paged(&people(60), 25);
    let mut out = String::new();
    for (what, mask) in [
        ("columns 0 and 2", ColumnChunkMask::columns([2, 0, 2])),
        ("row group 1", ColumnChunkMask::row_groups([1])),
        (
            "row group 2, column 3",
            ColumnChunkMask::row_groups_and_columns([2, 9], [3]),
        ),
        ("none", ColumnChunkMask::none()),
        ("all", ColumnChunkMask::all()),
    ] {
        let metadata = ParquetMetaDataReader::new()
            .with_page_index_policy(PageIndexPolicy::Required)
            .with_page_index_mask(mask.clone())
            .parse_and_finish(&file)
            .unwrap();
        if out.is_empty() {
            out.push_str(&format!("rows: {}\n", metadata.file_metadata().num_rows()));
        }
        let groups = metadata.num_row_groups();
        let columns = metadata.file_metadata().schema_descr().num_columns();
        out.push_str(&format!(
            "{what}: all {} none {} groups {:?} columns {:?}\n",
            mask.is_all(),
            mask.is_none(),
            mask.row_group_indices(groups).collect::<Vec<_>>(),
            mask.column_indices(columns).collect::<Vec<_>>()
        ));
        for g in 0..groups {
            let index = metadata.page_index_for_row_group(g);
            let loaded: Vec<String> = (0..columns)
                .map(|c| {
                    let pages = index.offset_index(c).map(|o| o.page_locations().len());
                    match index.column_index(c) {
                        Some(ci) => format!("{c}:{} pages/{pages:?}", ci.num_pages()),
                        None => format!("{c}:-/{pages:?}"),
                    }
                })
                .collect();
            out.push_str(&format!("  {g}: {}\n", loaded.join(" ")));
        }
    }
    out
}

/// Metadata made without a file, as a catalog or a test makes it: the
/// schema parsed, chunks and row groups built, the file's metadata put
/// together; then one row group kept of it.
pub fn metadata_built_by_hand(_dir: &Path) -> String {
    use pq::basic::Compression;
    use pq::file::metadata::{
        ColumnChunkMetaData, FileMetaData, ParquetMetaData, ParquetMetaDataBuilder,
        RowGroupMetaData,
    };
    use pq::schema::parser::parse_message_type;
    use pq::schema::types::SchemaDescriptor;

    let message = "message m { required int64 id; optional binary name (STRING); }";
    let schema = Arc::new(SchemaDescriptor::new(Arc::new(
        parse_message_type(message).unwrap(),
    )));
    let group = |g: i64| {
        let columns = schema
            .columns()
            .iter()
            .enumerate()
            .map(|(c, descr)| {
                let c = c as i64;
                ColumnChunkMetaData::builder(descr.clone())
                    .set_num_values(100 + g)
                    .set_compression(Compression::SNAPPY)
                    .set_total_compressed_size(1000 * (c + 1))
                    .set_total_uncompressed_size(2000 * (c + 1))
                    .set_data_page_offset(4 + 10_000 * g + 3000 * c)
                    .set_dictionary_page_offset(None)
                    .set_offset_index_offset(Some(50_000 + 100 * g + 20 * c))
                    .set_offset_index_length(Some(20))
                    .build()
                    .unwrap()
            })
            .collect();
        RowGroupMetaData::builder(schema.clone())
            .set_num_rows(100 + g)
            .set_total_byte_size(3000)
            .set_column_metadata(columns)
            .set_ordinal(g as i32)
            .set_file_offset(4 + 10_000 * g)
            .build()
            .unwrap()
    };
    let show = |metadata: &ParquetMetaData| {
        let mut out = String::new();
        for rg in metadata.row_groups() {
            out.push_str(&format!(
                "group {:?} at {:?}: {} rows, {} bytes of {}\n",
                rg.ordinal(),
                rg.file_offset(),
                rg.num_rows(),
                rg.compressed_size(),
                rg.total_byte_size()
            ));
            for c in rg.columns() {
                out.push_str(&format!(
                    "  {} {} {:?} {} values at {:?}, offset index {:?}/{:?}\n",
                    c.column_descr().path(),
                    c.column_type(),
                    c.compression(),
                    c.num_values(),
                    c.byte_range(),
                    c.offset_index_offset(),
                    c.offset_index_length()
                ));
            }
        }
        out
    };
    let file = FileMetaData::new(2, 303, Some("by hand".into()), None, schema.clone(), None);
    let metadata = ParquetMetaDataBuilder::new(file)
        .add_row_group(group(0))
        .add_row_group(group(1))
        .add_row_group(group(2))
        .build();
    let mut out = format!(
        "rows: {}\nversion {} leaves {}\n{}",
        metadata.file_metadata().num_rows(),
        metadata.file_metadata().version(),
        metadata.file_metadata().schema_descr().num_columns(),
        show(&metadata)
    );
    let mut builder = ParquetMetaDataBuilder::new_from_metadata(metadata);
    let mut groups = builder.take_row_groups();
    let kept = groups.remove(1);
    let metadata = builder.add_row_group(kept).build();
    out.push_str(&format!("kept:\n{}", show(&metadata)));
    let short = RowGroupMetaData::builder(schema).set_num_rows(1).build();
    out.push_str(&format!("a row group without chunks builds: {}\n", short.is_ok()));
    out
}

/// Statistics made by hand and put on built chunks, as pruning tests make
/// them; read back through each chunk's `statistics()`.
pub fn statistics_built_by_hand(_dir: &Path) -> String {
    use pq::file::metadata::{ColumnChunkMetaData, RowGroupMetaData};
    use pq::file::statistics::{Statistics, ValueStatistics};
    use pq::schema::parser::parse_message_type;
    use pq::schema::types::SchemaDescriptor;

    let message = "message m { required int32 a; optional int64 b; optional double c; \
                   optional boolean d; required int32 e; }";
    let schema = Arc::new(SchemaDescriptor::new(Arc::new(
        parse_message_type(message).unwrap(),
    )));
    let stats = [
        Statistics::int32(Some(-5), Some(17), None, Some(0), false),
        Statistics::int64(Some(1), Some(1 << 40), Some(9), Some(2), false),
        Statistics::Double(
            ValueStatistics::new(Some(-0.5), Some(3.25), None, Some(1), false)
                .with_nan_count(Some(4)),
        ),
        Statistics::boolean(Some(false), Some(true), None, Some(7), false),
        Statistics::int32(Some(3), Some(8), None, None, true),
    ];
    let columns = schema
        .columns()
        .iter()
        .zip(stats)
        .map(|(descr, s)| {
            ColumnChunkMetaData::builder(descr.clone())
                .set_num_values(10)
                .set_statistics(s)
                .build()
                .unwrap()
        })
        .collect();
    let group = RowGroupMetaData::builder(schema.clone())
        .set_num_rows(10)
        .set_column_metadata(columns)
        .build()
        .unwrap();
    let mut out = format!("rows: {}\n", group.num_rows());
    for chunk in group.columns() {
        let s = chunk.statistics().unwrap();
        let bounds = match &s {
            Statistics::Int32(v) => format!("{:?}..{:?}", v.min_opt(), v.max_opt()),
            Statistics::Int64(v) => format!("{:?}..{:?}", v.min_opt(), v.max_opt()),
            Statistics::Double(v) => format!("{:?}..{:?}", v.min_opt(), v.max_opt()),
            Statistics::Boolean(v) => format!("{:?}..{:?}", v.min_opt(), v.max_opt()),
            _ => "other".to_string(),
        };
        out.push_str(&format!(
            "{}: {bounds} nulls {:?} distinct {:?} nans {:?} deprecated {} exact {}/{} bytes {:?}\n",
            chunk.column_path(),
            s.null_count_opt(),
            s.distinct_count_opt(),
            s.nan_count_opt(),
            s.is_min_max_deprecated(),
            s.min_is_exact(),
            s.max_is_exact(),
            s.min_bytes_opt()
        ));
    }
    let cleared = ColumnChunkMetaData::builder(schema.column(0))
        .set_statistics(Statistics::int32(Some(1), Some(2), None, None, false))
        .clear_statistics()
        .build()
        .unwrap();
    out.push_str(&format!("cleared: {}\n", cleared.statistics().is_none()));
    out
}

/// The column index's bounds by value type, with the iterators arrow-rs
/// gives for each (`i64::min_values_iter(&index)`, ...).
pub fn column_index_iterators(_dir: &Path) -> String {
    use pq::data_type::ByteArray;
    use pq::file::page_index::column_index::ColumnIndexIterators;
    let file = paged(&people(40), 40);
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&file)
        .unwrap();
    let index = metadata.page_index_for_row_group(0);
    let column = |c| index.column_index(c).unwrap();
    let ids: Vec<Option<i64>> = i64::min_values_iter(column(0)).collect();
    let names: Vec<Option<String>> = ByteArray::max_values_iter(column(1))
        .map(|v| v.map(|b| String::from_utf8_lossy(b.data()).into_owned()))
        .collect();
    let scores: Vec<Option<f64>> = f64::max_values_iter(column(2)).collect();
    let active: Vec<Option<bool>> = bool::min_values_iter(column(3)).collect();
    format!(
        "rows: {}\nids {ids:?}\nnames {names:?}\nscores {scores:?}\nactive {active:?}\n",
        metadata.file_metadata().num_rows()
    )
}

/// Page counts by type and encoding: read from a written file (as a list,
/// not arrow-rs's default mask), and set on a chunk built by hand. Only the
/// columns of repeated values are printed: a column of unique values (`id`,
/// `score`) leaves its dictionary after the first page in strata and at
/// the size limit in arrow-rs, on purpose (README).
pub fn page_encoding_counts(_dir: &Path) -> String {
    use pq::arrow::ArrowWriter;
    use pq::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use pq::basic::{Encoding, PageType};
    use pq::file::metadata::{ColumnChunkMetaData, PageEncodingStats};
    use pq::file::properties::{WriterProperties, WriterVersion};
    let batch = crate::data::people(2000);
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_data_page_row_count_limit(500)
        .set_write_batch_size(500)
        .build();
    let mut buf = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let options = ArrowReaderOptions::new().with_encoding_stats_as_mask(false);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(bytes::Bytes::from(buf), options)
            .unwrap();
    let mut out = String::new();
    for chunk in builder.metadata().row_group(0).columns() {
        if !["name", "active"].contains(&chunk.column_path().string().as_str()) {
            continue;
        }
        let stats = chunk.page_encoding_stats().unwrap();
        let mut counts: Vec<String> = stats
            .iter()
            .map(|s| format!("{:?} {} x{}", s.page_type, s.encoding, s.count))
            .collect();
        counts.sort();
        let dictionary_pages: i32 = stats
            .iter()
            .filter(|s| s.page_type == PageType::DICTIONARY_PAGE)
            .map(|s| s.count)
            .sum();
        out.push_str(&format!(
            "{}: {} (dictionary pages {dictionary_pages})\n",
            chunk.column_path().string(),
            counts.join(", ")
        ));
    }
    let descr = builder.parquet_schema().column(0);
    let batches: Vec<RecordBatch> = builder
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    out.push_str(&crate::summary::fmt_counts(&batches));
    let chunk = ColumnChunkMetaData::builder(descr)
        .set_page_encoding_stats(vec![
            PageEncodingStats {
                page_type: PageType::DATA_PAGE,
                encoding: Encoding::PLAIN,
                count: 3,
            },
            PageEncodingStats {
                page_type: PageType::DATA_PAGE_V2,
                encoding: Encoding::DELTA_BINARY_PACKED,
                count: 2,
            },
        ])
        .build()
        .unwrap();
    let stats = chunk.page_encoding_stats().unwrap();
    for s in stats.iter() {
        out.push_str(&format!("built: {} {:?} x{}\n", s.page_type, s.encoding, s.count));
    }
    out
}

/// Every float statistic of a chunk and its pages, by bits (so `-0.0` and
/// the sign of a NaN show): the chunk's bounds, NaN and null counts, and
/// each page's bounds and NaN count from the column index.
fn float_statistics(metadata: &pq::file::metadata::ParquetMetaData) -> String {
    use pq::file::page_index::column_index::ColumnIndexMetaData;
    use pq::file::statistics::Statistics;
    let orders = metadata.file_metadata().column_orders();
    let mut out = format!("rows: {}\n", metadata.file_metadata().num_rows());
    for (rg, group) in metadata.row_groups().iter().enumerate() {
        let index = metadata.page_index_for_row_group(rg);
        for (c, chunk) in group.columns().iter().enumerate() {
            let order = orders.and_then(|o| o.get(c)).map(|o| o.to_string());
            let bounds = match chunk.statistics() {
                Some(Statistics::Float(s)) => format!(
                    "{:?}..{:?}",
                    s.min_opt().map(|v| format!("{v:?}/{:08x}", v.to_bits())),
                    s.max_opt().map(|v| format!("{v:?}/{:08x}", v.to_bits()))
                ),
                Some(Statistics::Double(s)) => format!(
                    "{:?}..{:?}",
                    s.min_opt().map(|v| format!("{v:?}/{:016x}", v.to_bits())),
                    s.max_opt().map(|v| format!("{v:?}/{:016x}", v.to_bits()))
                ),
                Some(Statistics::FixedLenByteArray(s)) => format!(
                    "{:?}..{:?}",
                    s.min_bytes_opt(),
                    s.max_bytes_opt()
                ),
                Some(_) => "other".to_string(),
                None => "none".to_string(),
            };
            out.push_str(&format!(
                "rg {rg} {} {order:?}: {bounds} nans {:?} nulls {:?}\n",
                chunk.column_path(),
                chunk.statistics().and_then(|s| s.nan_count_opt()),
                chunk.statistics().and_then(|s| s.null_count_opt()),
            ));
            // Each page's bounds (by `$show`) and NaN count.
            macro_rules! pages {
                ($index:expr, $show:expr) => {
                    (0..$index.num_pages() as usize)
                        .map(|p| {
                            format!(
                                "{:?}..{:?} nans {:?}",
                                $index.min_value(p).map($show),
                                $index.max_value(p).map($show),
                                $index.nan_count(p)
                            )
                        })
                        .collect::<Vec<_>>()
                };
            }
            let pages = match index.column_index(c) {
                Some(ColumnIndexMetaData::FLOAT(i)) => pages!(i, |v: &f32| v.to_bits()),
                Some(ColumnIndexMetaData::DOUBLE(i)) => pages!(i, |v: &f64| v.to_bits()),
                Some(ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(i)) => {
                    pages!(i, |v: &[u8]| v.to_vec())
                }
                Some(_) => vec!["other".to_string()],
                None => vec![],
            };
            for page in pages {
                out.push_str(&format!("  page {page}\n"));
            }
        }
    }
    out
}

/// A file with FLOAT, DOUBLE and FLOAT16 columns under both column orders
/// (IEEE 754 total order and the type-defined order), in row groups
/// without NaN, with some, with only NaN, and with zero bounds: the
/// orders, bounds and NaN counts read from its footer and column index.
pub fn float_orders_and_nan_counts_from_the_corpus(_dir: &Path) -> String {
    let Some(path) = corpus("floating_orders_nan_count.parquet") else {
        return no_corpus();
    };
    let file = std::fs::File::open(path).unwrap();
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&file)
        .unwrap();
    float_statistics(&metadata)
}

/// Floats as a writer counts and orders them: NaNs of both signs, both
/// zeros, infinities, pages of NaN only, a FLOAT16 column and a nullable
/// one, written with page indexes and read back.
pub fn float_statistics_written(_dir: &Path) -> String {
    use arrow_array::{ArrayRef, Float16Array, Float32Array, Float64Array};
    use half::f16;
    let pattern = |i: usize| -> f64 {
        match (i / 8, i % 8) {
            (0, k) => k as f64 - 3.0,
            (1, 0) => f64::NAN,
            (1, 1) => -f64::NAN,
            (1, k) => k as f64,
            (2, k) if k % 2 == 0 => 0.0,
            (2, _) => -0.0,
            (3, 0) => f64::INFINITY,
            (3, 1) => f64::NEG_INFINITY,
            (3, k) => -(k as f64),
            (4, k) if k % 2 == 0 => f64::NAN,
            (4, _) => -f64::NAN,
            (5, _) => 0.0,
            (_, k) => -(k as f64) / 2.0,
        }
    };
    let rows = 56;
    let doubles: ArrayRef = Arc::new(Float64Array::from_iter_values((0..rows).map(pattern)));
    let floats: ArrayRef = Arc::new(Float32Array::from_iter_values(
        (0..rows).map(|i| pattern(i) as f32),
    ));
    let halves: ArrayRef = Arc::new(Float16Array::from_iter_values(
        (0..rows).map(|i| f16::from_f64(pattern(i))),
    ));
    let nullable: ArrayRef = Arc::new(Float64Array::from_iter(
        (0..rows).map(|i| (i % 3 != 0).then(|| pattern(i))),
    ));
    let batch = RecordBatch::try_from_iter([
        ("d", doubles),
        ("f", floats),
        ("h", halves),
        ("maybe", nullable),
    ])
    .unwrap();
    let file = paged(&batch, 24);
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&file)
        .unwrap();
    float_statistics(&metadata)
}

/// The geospatial files of the corpus: each GEOMETRY or GEOGRAPHY
/// column's logical type and each chunk's geospatial statistics (box and
/// type codes), as `geo_statistics()` gives them.
pub fn geospatial_statistics_from_the_corpus(_dir: &Path) -> String {
    let Some(first) = corpus("geospatial/geospatial.parquet") else {
        return no_corpus();
    };
    let names = parquet_files_in(first.parent().unwrap());
    let mut out = format!("rows: {} files\n", names.len());
    for path in names {
        let file = std::fs::File::open(&path).unwrap();
        let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
        out.push_str(&format!("{}\n", path.file_name().unwrap().to_string_lossy()));
        let schema = metadata.file_metadata().schema_descr();
        for (rg, group) in metadata.row_groups().iter().enumerate() {
            for (c, chunk) in group.columns().iter().enumerate() {
                let Some(geo) = chunk.geo_statistics() else {
                    continue;
                };
                let bbox = geo.bounding_box().map(|b| {
                    format!(
                        "x {}..{} y {}..{} z {:?}..{:?} m {:?}..{:?}",
                        b.get_xmin(),
                        b.get_xmax(),
                        b.get_ymin(),
                        b.get_ymax(),
                        b.get_zmin(),
                        b.get_zmax(),
                        b.get_mmin(),
                        b.get_mmax()
                    )
                });
                out.push_str(&format!(
                    "  rg {rg} {} {:?}: {bbox:?} types {:?}\n",
                    chunk.column_path(),
                    schema.column(c).logical_type_ref(),
                    geo.geospatial_types()
                ));
            }
        }
    }
    out
}

/// Every node's sort order (`BasicTypeInfo::sort_order`): of a parsed
/// schema of each kind of type, of the same schema read back from a
/// file's footer, and of a schema converted from Arrow.
pub fn sort_orders_of_schema_nodes(_dir: &Path) -> String {
    use arrow_schema::{DataType, Field, Schema, TimeUnit};
    use pq::arrow::ArrowSchemaConverter;
    use pq::schema::parser::parse_message_type;
    use pq::schema::types::{SchemaDescriptor, Type};

    fn walk(node: &Type, depth: usize, out: &mut String) {
        let info = node.get_basic_info();
        out.push_str(&format!(
            "{}{} {:?}\n",
            "  ".repeat(depth),
            info.name(),
            info.sort_order()
        ));
        if let Type::GroupType { fields, .. } = node {
            for f in fields {
                walk(f, depth + 1, out);
            }
        }
    }
    let message = "message m {
        required float f; required double d; required int96 t;
        required binary s (STRING); optional binary raw; required boolean b;
        required int32 u (INTEGER(8,false)); required int32 i8 (INTEGER(8,true));
        required int64 u64 (UINT_64); required int32 dec (DECIMAL(9,2));
        required int32 day (DATE); required int64 ts (TIMESTAMP(MICROS,true));
        required fixed_len_byte_array(2) half (FLOAT16);
        required fixed_len_byte_array(12) span (INTERVAL);
        required fixed_len_byte_array(16) id (UUID);
        optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
        optional group point { required double x; required int64 n; }
    }";
    let parsed = parse_message_type(message).unwrap();
    let mut out = String::from("rows: 3 schemas\nparsed\n");
    walk(&parsed, 0, &mut out);

    let schema = Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int8, false),
        Field::new("b", DataType::UInt32, true),
        Field::new("c", DataType::Float32, true),
        Field::new("d", DataType::Utf8, true),
        Field::new("e", DataType::Timestamp(TimeUnit::Millisecond, None), true),
        Field::new("f", DataType::Decimal128(20, 3), true),
        // (No list: strata names a list's element `element`, arrow-rs
        // `item`, which the printed names would show.)
        Field::new_struct("g", vec![Field::new("x", DataType::Float64, true)], true),
    ]));
    let converted = ArrowSchemaConverter::new().convert(&schema).unwrap();
    out.push_str("from Arrow\n");
    walk(converted.root_schema(), 0, &mut out);

    // The parsed schema's descriptor's leaves, and a written file's.
    let descr = SchemaDescriptor::new(Arc::new(parsed));
    out.push_str("leaves\n");
    for c in descr.columns() {
        out.push_str(&format!("{} {:?}\n", c.path().string(), c.sort_order()));
    }
    let writer = ArrowWriter::try_new(Vec::new(), schema.clone(), None).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
    out.push_str("read back\n");
    walk(metadata.file_metadata().schema_descr().root_schema(), 0, &mut out);
    out
}

/// Level histograms and unencoded byte counts: of the chunks of a file
/// with nested, nullable strings (with page statistics), and of a chunk's
/// metadata built by hand; and the histogram type's own arithmetic.
pub fn level_histograms_of_chunks(_dir: &Path) -> String {
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use pq::file::metadata::{ColumnChunkMetaData, LevelHistogram};
    use pq::file::properties::EnabledStatistics;
    use pq::schema::parser::parse_message_type;
    use pq::schema::types::SchemaDescriptor;

    let mut tags = ListBuilder::new(StringBuilder::new());
    for i in 0..50 {
        match i % 5 {
            0 => tags.append_null(),
            1 => tags.append(true),
            n => {
                for j in 0..n {
                    tags.values().append_option((j != 1).then(|| format!("t{}", i * j)));
                }
                tags.append(true);
            }
        }
    }
    let batch = RecordBatch::try_from_iter([
        ("tags", Arc::new(tags.finish()) as arrow_array::ArrayRef),
        ("name", people(50).column(1).clone()),
    ])
    .unwrap();
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(30))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
    let show = |h: Option<&LevelHistogram>| h.map(|h| h.values().to_vec());
    let mut out = format!("rows: {}\n", batch.num_rows());
    for (g, group) in metadata.row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            out.push_str(&format!(
                "group {g} column {c}: unencoded {:?} rep {:?} def {:?}\n",
                chunk.unencoded_byte_array_data_bytes(),
                show(chunk.repetition_level_histogram()),
                show(chunk.definition_level_histogram()),
            ));
        }
    }

    let schema = SchemaDescriptor::new(Arc::new(
        parse_message_type("message m { optional group l (LIST) { repeated group list { optional int32 element; } } }")
            .unwrap(),
    ));
    let built = ColumnChunkMetaData::builder(schema.column(0))
        .set_repetition_level_histogram(Some(LevelHistogram::from(vec![10, 4])))
        .set_definition_level_histogram(LevelHistogram::try_new(3))
        .build()
        .unwrap();
    out.push_str(&format!(
        "built: rep {:?} def {:?} unencoded {:?}\n",
        show(built.repetition_level_histogram()),
        show(built.definition_level_histogram()),
        built.unencoded_byte_array_data_bytes()
    ));
    let cleared = ColumnChunkMetaData::builder(schema.column(0))
        .set_repetition_level_histogram(None)
        .build()
        .unwrap();
    out.push_str(&format!(
        "cleared: rep {:?}\n",
        show(cleared.repetition_level_histogram())
    ));

    let mut histogram = LevelHistogram::try_new(2).unwrap();
    histogram.increment_by(1, 3);
    histogram.add(&LevelHistogram::from(vec![1, 2, 3]));
    out.push_str(&format!(
        "histogram {:?} len {} get(2) {:?} get(5) {:?} none {:?}\n",
        histogram.values(),
        histogram.len(),
        histogram.get(2),
        histogram.get(5),
        LevelHistogram::try_new(0)
    ));
    histogram.reset();
    out.push_str(&format!("reset {:?}\n", Vec::from(histogram)));
    out
}

/// Column chunk masks made from projections, as a reader of a few
/// columns asks for their page indexes only.
pub fn column_chunk_mask_from_projection(_dir: &Path) -> String {
    use pq::arrow::ProjectionMask;
    use pq::file::metadata::ColumnChunkMask;

    let file = paged(&people(60), 25);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = builder.parquet_schema();
    let mut out = String::from("rows: 60\n");
    for (what, projection) in [
        ("leaves 3 and 1", ProjectionMask::leaves(schema, [3, 1])),
        ("root 0", ProjectionMask::roots(schema, [0])),
        ("named score", ProjectionMask::columns(schema, ["score"])),
        ("none", ProjectionMask::none(4)),
        ("all", ProjectionMask::all()),
    ] {
        let mask = ColumnChunkMask::from_projection(&projection, schema);
        out.push_str(&format!(
            "{what}: all {} none {} columns {:?} row groups {:?}\n",
            mask.is_all(),
            mask.is_none(),
            mask.column_indices(4).collect::<Vec<_>>(),
            mask.row_group_indices(3).collect::<Vec<_>>(),
        ));
    }
    out
}

/// A chunk's dictionary read alone (`read_column_dictionary`): of each
/// chunk of a file written with dictionaries, and of corpus files.
pub fn column_dictionaries_read_alone(_dir: &Path) -> String {
    use arrow_array::cast::AsArray;

    // Pages of a whole row group: with pages of a few rows each, strata
    // would leave a dictionary of nearly all new values after the first.
    let mut files = vec![("people".to_string(), super::common::to_parquet(&people(60), 25))];
    // (Not `alltypes_dictionary.parquet`: its dictionary pages are marked
    // PLAIN_DICTIONARY, which strata reads and arrow-rs refuses.)
    for name in ["rle-dict-snappy-checksum.parquet", "nation.dict-malformed.parquet"] {
        if let Some(path) = corpus(name) {
            files.push((name.to_string(), Bytes::from(std::fs::read(path).unwrap())));
        }
    }
    let mut out = format!("rows: {} files\n", files.len());
    for (name, file) in files {
        let metadata = ParquetMetaDataReader::new().parse_and_finish(&file).unwrap();
        for g in 0..metadata.num_row_groups() {
            for c in 0..metadata.row_group(g).num_columns() {
                let read = ParquetMetaDataReader::read_column_dictionary(&file, &metadata, g, c);
                let text = match read {
                    Ok(None) => "none".to_string(),
                    Ok(Some(array)) => {
                        let values: Vec<String> = array
                            .as_binary::<i32>()
                            .iter()
                            .map(|v| String::from_utf8_lossy(v.unwrap_or_default()).into_owned())
                            .collect();
                        format!("{} entries {:?}", values.len(), &values[..values.len().min(6)])
                    }
                    Err(_) => "error".to_string(),
                };
                out.push_str(&format!("{name} group {g} column {c}: {text}\n"));
            }
        }
    }
    out
}

/// A wide-table reader that loads the page index of the columns it reads
/// only, through the Arrow reader's options: the column index of the
/// projected columns, the offset index of those and of the column a row
/// selection skips pages of; then the projected rows read back with that
/// metadata.
pub fn arrow_reader_page_index_masks(_dir: &Path) -> String {
    use pq::arrow::ProjectionMask;
    use pq::arrow::arrow_reader::{ArrowReaderMetadata, RowSelection, RowSelector};
    use pq::file::metadata::ColumnChunkMask;

    let file = paged(&people(60), 25);
    let mut out = String::new();
    for (what, column_mask, offset_mask) in [
        ("default", None, None),
        ("column 2", Some(ColumnChunkMask::columns([2])), None),
        (
            "columns 1 and 2, offsets of row group 1",
            Some(ColumnChunkMask::columns([1, 2])),
            Some(ColumnChunkMask::row_groups([1])),
        ),
        ("none", Some(ColumnChunkMask::none()), Some(ColumnChunkMask::none())),
    ] {
        let mut options =
            ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
        match (&column_mask, &offset_mask) {
            (Some(c), Some(o)) if c == o => options = options.with_page_index_mask(c.clone()),
            _ => {
                if let Some(c) = column_mask {
                    options = options.with_column_index_mask(c);
                }
                if let Some(o) = offset_mask {
                    options = options.with_offset_index_mask(o);
                }
            }
        }
        out.push_str(&format!(
            "{what}: column mask all {} none {}, offset mask all {} none {}\n",
            options.column_index_mask().is_all(),
            options.column_index_mask().is_none(),
            options.offset_index_mask().is_all(),
            options.offset_index_mask().is_none(),
        ));
        let metadata = ArrowReaderMetadata::load(&file, options).unwrap();
        out.push_str(&super::common::loaded_page_indexes(metadata.metadata()));
        // The rows of columns 1 and 2, skipping into the middle of the
        // first row group, read with the metadata as loaded.
        let selection = RowSelection::from(vec![RowSelector::skip(9), RowSelector::select(20)]);
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file.clone(), metadata);
        let projection = ProjectionMask::leaves(builder.parquet_schema(), [1, 2]);
        let reader = builder
            .with_projection(projection)
            .with_row_selection(selection)
            .build()
            .unwrap();
        let batches: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
        out.push_str(&fmt_batches(&batches));
    }
    out
}

/// The sort order of a column's types from the deprecated
/// `ColumnOrder::sort_order_for_type`, as code written before arrow-rs 60
/// asks it, under the type-defined order and without it.
#[allow(deprecated)]
pub fn sort_order_for_types(_dir: &Path) -> String {
    use pq::basic::{ColumnOrder, ConvertedType, LogicalType, Type as PhysicalType};
    let cases: Vec<(&str, Option<LogicalType>, ConvertedType, PhysicalType)> = vec![
        ("int32", None, ConvertedType::NONE, PhysicalType::INT32),
        ("uint_8", None, ConvertedType::UINT_8, PhysicalType::INT32),
        ("u64", Some(LogicalType::integer(64, false)), ConvertedType::NONE, PhysicalType::INT64),
        ("i16", Some(LogicalType::integer(16, true)), ConvertedType::NONE, PhysicalType::INT32),
        ("string", Some(LogicalType::String), ConvertedType::UTF8, PhysicalType::BYTE_ARRAY),
        ("binary", None, ConvertedType::NONE, PhysicalType::BYTE_ARRAY),
        ("decimal", None, ConvertedType::DECIMAL, PhysicalType::FIXED_LEN_BYTE_ARRAY),
        ("date", Some(LogicalType::Date), ConvertedType::DATE, PhysicalType::INT32),
        ("float", None, ConvertedType::NONE, PhysicalType::FLOAT),
        ("double", None, ConvertedType::NONE, PhysicalType::DOUBLE),
        ("float16", Some(LogicalType::Float16), ConvertedType::NONE, PhysicalType::FIXED_LEN_BYTE_ARRAY),
        ("int96", None, ConvertedType::NONE, PhysicalType::INT96),
        ("boolean", None, ConvertedType::NONE, PhysicalType::BOOLEAN),
        ("interval", None, ConvertedType::INTERVAL, PhysicalType::FIXED_LEN_BYTE_ARRAY),
        ("uuid", Some(LogicalType::Uuid), ConvertedType::NONE, PhysicalType::FIXED_LEN_BYTE_ARRAY),
        ("list", Some(LogicalType::List), ConvertedType::LIST, PhysicalType::INT32),
    ];
    // One line per type combination.
    let mut out = format!("rows: {}\n", cases.len());
    for (what, logical, converted, physical) in cases {
        let defined = ColumnOrder::sort_order_for_type(logical.as_ref(), converted, physical, true);
        let newer = ColumnOrder::sort_order_for_type(logical.as_ref(), converted, physical, false);
        out.push_str(&format!("{what}: type-defined {defined:?}, otherwise {newer:?}\n"));
    }
    out
}

/// Page indexes built by hand, page by page, as a writer of its own pages
/// builds them: column indexes of INT64, DOUBLE (with NaN counts) and
/// BYTE_ARRAY chunks with histograms, and an offset index; then what
/// their accessors answer.
pub fn page_indexes_built_by_hand(_dir: &Path) -> String {
    use pq::basic::{BoundaryOrder, Type as PhysicalType};
    use pq::file::metadata::{ColumnIndexBuilder, LevelHistogram, OffsetIndexBuilder};
    use pq::file::page_index::column_index::ColumnIndexMetaData;

    let mut out = String::from("rows: 3 pages\n");
    let mut histogram = LevelHistogram::try_new(1).unwrap();
    histogram.increment_by(0, 1);
    histogram.increment_by(1, 2);

    let mut int64 = ColumnIndexBuilder::new(PhysicalType::INT64);
    int64.append(false, 5i64.to_le_bytes().to_vec(), 70i64.to_le_bytes().to_vec(), 1, None);
    int64.append(true, Vec::new(), Vec::new(), 3, None);
    int64.append(false, 70i64.to_le_bytes().to_vec(), 99i64.to_le_bytes().to_vec(), 0, None);
    for _ in 0..3 {
        int64.append_histograms(&None, &Some(histogram.clone()));
    }
    int64.set_boundary_order(BoundaryOrder::ASCENDING);
    out.push_str(&format!("int64 valid: {}\n", int64.valid()));
    let built = int64.build().unwrap();
    out.push_str(&format!(
        "int64: pages {} nulls {:?} nans {:?} def {:?} order {:?} sorted {}\n",
        built.num_pages(),
        built.null_counts(),
        built.nan_counts(),
        (0..3).map(|p| built.definition_level_histogram(p)).collect::<Vec<_>>(),
        built.get_boundary_order(),
        built.is_sorted(),
    ));
    match built {
        ColumnIndexMetaData::INT64(index) => out.push_str(&format!(
            "int64: min {:?} max {:?} null page {:?}\n",
            (0..3).map(|p| index.min_value(p).copied()).collect::<Vec<_>>(),
            (0..3).map(|p| index.max_value(p).copied()).collect::<Vec<_>>(),
            (0..3).map(|p| index.is_null_page(p)).collect::<Vec<_>>(),
        )),
        other => panic!("not an INT64 index: {other:?}"),
    }

    let mut double = ColumnIndexBuilder::new(PhysicalType::DOUBLE);
    double.append(false, (-1.5f64).to_le_bytes().to_vec(), 2.0f64.to_le_bytes().to_vec(), 0, Some(2));
    double.append(false, 0.5f64.to_le_bytes().to_vec(), 0.5f64.to_le_bytes().to_vec(), 4, Some(0));
    match double.build().unwrap() {
        ColumnIndexMetaData::DOUBLE(index) => out.push_str(&format!(
            "double: min {:?} max {:?} nans {:?}\n",
            (0..2).map(|p| index.min_value(p).copied()).collect::<Vec<_>>(),
            (0..2).map(|p| index.max_value(p).copied()).collect::<Vec<_>>(),
            (0..2).map(|p| index.nan_count(p)).collect::<Vec<_>>(),
        )),
        other => panic!("not a DOUBLE index: {other:?}"),
    }

    let mut strings = ColumnIndexBuilder::new(PhysicalType::BYTE_ARRAY);
    strings.append(false, b"apple".to_vec(), b"fig".to_vec(), 0, None);
    strings.append(false, b"grape".to_vec(), b"plum".to_vec(), 2, None);
    strings.to_invalid();
    out.push_str(&format!("strings valid: {}\n", strings.valid()));
    match strings.build().unwrap() {
        ColumnIndexMetaData::BYTE_ARRAY(index) => out.push_str(&format!(
            "strings: min {:?} max {:?} nulls {:?}\n",
            (0..2)
                .map(|p| index.min_value(p).map(|v| String::from_utf8_lossy(v).into_owned()))
                .collect::<Vec<_>>(),
            (0..2)
                .map(|p| index.max_value(p).map(|v| String::from_utf8_lossy(v).into_owned()))
                .collect::<Vec<_>>(),
            (0..2).map(|p| index.null_count(p)).collect::<Vec<_>>(),
        )),
        other => panic!("not a BYTE_ARRAY index: {other:?}"),
    }

    let mut short = ColumnIndexBuilder::new(PhysicalType::INT32);
    short.append(false, vec![1], vec![2], 0, None);
    out.push_str(&format!("short bound refused: {}\n", short.build().is_err()));

    let mut offsets = OffsetIndexBuilder::new();
    for (rows, offset, size, bytes) in [(100, 4, 250, 800), (60, 254, 130, 480), (7, 384, 40, 56)] {
        offsets.append_row_count(rows);
        offsets.append_offset_and_size(offset, size);
        offsets.append_unencoded_byte_array_data_bytes(Some(bytes));
    }
    let offsets = offsets.build();
    let pages: Vec<String> = offsets
        .page_locations()
        .iter()
        .map(|p| format!("{}@{}+{}", p.first_row_index, p.offset, p.compressed_page_size))
        .collect();
    out.push_str(&format!(
        "offsets: {} unencoded {:?}\n",
        pages.join(" "),
        offsets.unencoded_byte_array_data_bytes()
    ));
    out
}
