//! Printing a file's metadata as arrow-rs's
//! `parquet::schema::printer` prints it: [`print_parquet_metadata`] (the
//! file, then every row group and column chunk), [`print_file_metadata`]
//! (version, rows, writer, key-value pairs and the schema), and
//! [`print_schema`] (re-exported from strata-format).
//!
//! Write errors are ignored, as arrow-rs ignores them.

use std::io;

use strata_format::metadata::{
    ColumnChunk, CompressionCodec, Encoding, TypedStatistics, ValueStatistics,
};
pub use strata_format::schema::printer::print_schema;

use super::{FileMetaData, ParquetMetaData, RowGroupMetaData};

/// Writes the file's metadata, then each row group's and each column
/// chunk's.
pub fn print_parquet_metadata(out: &mut dyn io::Write, metadata: &ParquetMetaData) {
    print_file_metadata(out, metadata.file_metadata());
    let _ = writeln!(out);
    let _ = writeln!(out);
    let _ = writeln!(out, "num of row groups: {}", metadata.num_row_groups());
    let _ = writeln!(out, "row groups:");
    let _ = writeln!(out);
    for (i, rg) in metadata.row_groups().iter().enumerate() {
        let _ = writeln!(out, "row group {i}:");
        dashes(out);
        print_row_group(out, rg);
    }
}

/// Writes the format version, the row count, the writer (when known), the
/// key-value metadata (when present) and the schema.
pub fn print_file_metadata(out: &mut dyn io::Write, file_metadata: &FileMetaData) {
    let _ = writeln!(out, "version: {}", file_metadata.version());
    let _ = writeln!(out, "num of rows: {}", file_metadata.num_rows());
    if let Some(created_by) = file_metadata.created_by() {
        let _ = writeln!(out, "created by: {created_by}");
    }
    if let Some(kv) = file_metadata.key_value_metadata() {
        let _ = writeln!(out, "metadata:");
        for pair in kv {
            let _ = writeln!(
                out,
                "  {}: {}",
                pair.key,
                pair.value.as_deref().unwrap_or("")
            );
        }
    }
    print_schema(out, file_metadata.schema());
}

fn dashes(out: &mut dyn io::Write) {
    let _ = writeln!(out, "{}", "-".repeat(80));
}

fn print_row_group(out: &mut dyn io::Write, rg: &RowGroupMetaData) {
    let _ = writeln!(out, "total byte size: {}", rg.total_byte_size());
    let _ = writeln!(out, "num of rows: {}", rg.num_rows());
    let _ = writeln!(out);
    let _ = writeln!(out, "num of columns: {}", rg.num_columns());
    let _ = writeln!(out, "columns: ");
    for (i, chunk) in rg.columns().iter().enumerate() {
        let _ = writeln!(out);
        let _ = writeln!(out, "column {i}:");
        dashes(out);
        print_column_chunk(out, chunk);
    }
}

/// `Some` value as written, `None` as `N/A`.
fn or_na<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "N/A".to_owned(), |v| v.to_string())
}

fn print_column_chunk(out: &mut dyn io::Write, chunk: &ColumnChunk) {
    let _ = writeln!(out, "column type: {}", chunk.column_type());
    let _ = writeln!(out, "column path: {}", chunk.column_path());
    // Each encoding once, in id order, as arrow-rs's encoding mask gives
    // them.
    let mut encodings: Vec<Encoding> = chunk.encodings().collect();
    encodings.sort_by_key(|e| e.to_i32());
    encodings.dedup();
    let names: Vec<String> = encodings.iter().map(ToString::to_string).collect();
    let _ = writeln!(out, "encodings: {}", names.join(" "));
    let _ = writeln!(out, "file path: {}", chunk.file_path().unwrap_or("N/A"));
    let _ = writeln!(out, "file offset: {}", chunk.file_offset);
    let _ = writeln!(out, "num of values: {}", chunk.num_values());
    let _ = writeln!(
        out,
        "compression: {}",
        codec_name(chunk.compression_codec())
    );
    let _ = writeln!(
        out,
        "total compressed size (in bytes): {}",
        chunk.compressed_size()
    );
    let _ = writeln!(
        out,
        "total uncompressed size (in bytes): {}",
        chunk.uncompressed_size()
    );
    let _ = writeln!(out, "data page offset: {}", chunk.data_page_offset());
    let _ = writeln!(
        out,
        "index page offset: {}",
        or_na(chunk.index_page_offset())
    );
    let _ = writeln!(
        out,
        "dictionary page offset: {}",
        or_na(chunk.dictionary_page_offset())
    );
    // The exactness flags as the footer has them for byte arrays (absent
    // reads false); other types' bounds count as exact when present, as
    // arrow-rs reads them.
    let flags = chunk
        .meta_data
        .as_ref()
        .and_then(|m| m.statistics.as_ref())
        .map(|s| {
            (
                s.is_max_value_exact.unwrap_or(false),
                s.is_min_value_exact.unwrap_or(false),
            )
        })
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "statistics: {}",
        or_na(
            chunk
                .statistics()
                .as_ref()
                .map(|s| statistics_text(s, flags))
        )
    );
    let _ = writeln!(
        out,
        "bloom filter offset: {}",
        or_na(chunk.bloom_filter_offset())
    );
    let _ = writeln!(
        out,
        "bloom filter length: {}",
        or_na(chunk.bloom_filter_length())
    );
    let _ = writeln!(
        out,
        "offset index offset: {}",
        or_na(chunk.offset_index_offset())
    );
    let _ = writeln!(
        out,
        "offset index length: {}",
        or_na(chunk.offset_index_length())
    );
    let _ = writeln!(
        out,
        "column index offset: {}",
        or_na(chunk.column_index_offset())
    );
    let _ = writeln!(
        out,
        "column index length: {}",
        or_na(chunk.column_index_length())
    );
    let _ = writeln!(out);
}

/// Statistics in arrow-rs's `Display` form: `{min: 1, max: 9,
/// distinct_count: N/A, null_count: 0, min_max_deprecated: false,
/// max_value_exact: true, min_value_exact: true}`; byte values as lists
/// of numbers.
fn statistics_text(stats: &TypedStatistics, byte_array_flags: (bool, bool)) -> String {
    let typed = |s_min: Option<String>, s_max: Option<String>, distinct, nulls| {
        let (max_exact, min_exact) = match stats {
            TypedStatistics::ByteArray(_) | TypedStatistics::FixedLenByteArray(_) => {
                byte_array_flags
            }
            _ => (s_max.is_some(), s_min.is_some()),
        };
        format!(
            "{{min: {}, max: {}, distinct_count: {}, null_count: {}, min_max_deprecated: {}, max_value_exact: {max_exact}, min_value_exact: {min_exact}}}",
            or_na(s_min),
            or_na(s_max),
            or_na(distinct),
            or_na(nulls),
            stats.is_min_max_deprecated(),
        )
    };
    fn parts<T>(
        s: &ValueStatistics<T>,
        show: impl Fn(&T) -> String,
    ) -> (Option<String>, Option<String>, Option<u64>, Option<u64>) {
        (
            s.min_opt().map(&show),
            s.max_opt().map(&show),
            s.distinct_count(),
            s.null_count_opt(),
        )
    }
    let (min, max, distinct, nulls) = match stats {
        TypedStatistics::Boolean(s) => parts(s, ToString::to_string),
        TypedStatistics::Int32(s) => parts(s, ToString::to_string),
        TypedStatistics::Int64(s) => parts(s, ToString::to_string),
        TypedStatistics::Int96(s) => parts(s, |v| format!("{v:?}")),
        TypedStatistics::Float(s) => parts(s, ToString::to_string),
        TypedStatistics::Double(s) => parts(s, ToString::to_string),
        TypedStatistics::ByteArray(s) | TypedStatistics::FixedLenByteArray(s) => {
            parts(s, |v| format!("{v:?}"))
        }
    };
    typed(min, max, distinct, nulls)
}

/// The codec's specification name (`ZSTD`), as arrow-rs prints a chunk's
/// codec.
fn codec_name(codec: CompressionCodec) -> String {
    match codec {
        CompressionCodec::Uncompressed => "UNCOMPRESSED".to_owned(),
        CompressionCodec::Snappy => "SNAPPY".to_owned(),
        CompressionCodec::Gzip => "GZIP".to_owned(),
        CompressionCodec::Lzo => "LZO".to_owned(),
        CompressionCodec::Brotli => "BROTLI".to_owned(),
        CompressionCodec::Lz4 => "LZ4".to_owned(),
        CompressionCodec::Zstd => "ZSTD".to_owned(),
        CompressionCodec::Lz4Raw => "LZ4_RAW".to_owned(),
        CompressionCodec::Unknown(v) => format!("UNKNOWN({v})"),
    }
}
