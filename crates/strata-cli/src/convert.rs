//! `strata convert IN OUT`: CSV, JSON lines, Arrow IPC or Parquet in,
//! Parquet out through strata's `ArrowWriter`.

use std::fs::File;
use std::io::{BufReader, IsTerminal, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};
use indicatif::{ProgressBar, ProgressStyle};
use strata_arrow::ArrowWriter;
use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use strata_file::properties::{WriterProperties, WriterVersion};

use crate::error::{CliError, Result, open};

/// Rows per batch read from the input.
const BATCH_SIZE: usize = 8192;

/// Input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// CSV with a header row; the schema is inferred.
    Csv,
    /// JSON lines (one object per line); the schema is inferred.
    Json,
    /// Arrow IPC file (Feather v2) or stream.
    Ipc,
    /// Parquet (re-encoded).
    Parquet,
}

/// Compression of the output's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Codec {
    /// Zstandard (default level).
    Zstd,
    /// Snappy.
    Snappy,
    /// Gzip (default level).
    Gzip,
    /// LZ4 (`LZ4_RAW`).
    Lz4,
    /// Brotli (default level).
    Brotli,
    /// No compression.
    None,
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// Enabled.
    On,
    /// Disabled.
    Off,
}

/// Parquet format version of the written pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Version {
    /// Data pages v1.
    #[value(name = "1")]
    V1,
    /// Data pages v2.
    #[value(name = "2")]
    V2,
}

/// Arguments of `strata convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Input file: .csv, .json/.jsonl/.ndjson, .arrow/.ipc/.feather or
    /// .parquet (or see --from).
    pub input: PathBuf,
    /// Output Parquet file (replaced if it exists).
    pub output: PathBuf,
    /// Input format, overriding the extension.
    #[arg(long, value_enum)]
    pub from: Option<InputFormat>,
    /// Page compression.
    #[arg(long, value_enum, default_value_t = Codec::Snappy)]
    pub compression: Codec,
    /// Most rows per row group.
    #[arg(long, value_name = "N")]
    pub row_group_rows: Option<usize>,
    /// Dictionary encoding.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    pub dictionary: Switch,
    /// Parquet writer version: 1 (data pages v1) or 2 (data pages v2).
    #[arg(long, value_enum, default_value_t = Version::V1)]
    pub writer_version: Version,
}

/// The input format from the file's extension.
fn detect(path: &Path) -> Result<InputFormat> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    Ok(match ext.as_str() {
        "csv" => InputFormat::Csv,
        "json" | "jsonl" | "ndjson" => InputFormat::Json,
        "arrow" | "ipc" | "feather" | "arrows" => InputFormat::Ipc,
        "parquet" | "parq" | "pq" => InputFormat::Parquet,
        _ => {
            return Err(CliError::msg(format!(
                "cannot tell the format of {} from its extension; use --from csv|json|ipc|parquet",
                path.display()
            )));
        }
    })
}

fn properties(args: &ConvertArgs) -> WriterProperties {
    let compression = match args.compression {
        Codec::Zstd => Compression::ZSTD(ZstdLevel::default()),
        Codec::Snappy => Compression::SNAPPY,
        Codec::Gzip => Compression::GZIP(GzipLevel::default()),
        Codec::Lz4 => Compression::LZ4_RAW,
        Codec::Brotli => Compression::BROTLI(BrotliLevel::default()),
        Codec::None => Compression::UNCOMPRESSED,
    };
    let mut builder = WriterProperties::builder()
        .set_compression(compression)
        .set_dictionary_enabled(args.dictionary == Switch::On)
        .set_writer_version(match args.writer_version {
            Version::V1 => WriterVersion::PARQUET_1_0,
            Version::V2 => WriterVersion::PARQUET_2_0,
        });
    if let Some(rows) = args.row_group_rows {
        builder = builder.set_max_row_group_row_count(Some(rows.max(1)));
    }
    builder.build()
}

type Batches = Box<dyn Iterator<Item = std::result::Result<RecordBatch, ArrowError>>>;

/// A progress bar on stderr, only when stderr is a terminal.
fn progress(total: u64, bytes: bool) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let template = if bytes {
        "{spinner} [{bar:40}] {bytes}/{total_bytes} ({eta})"
    } else {
        "{spinner} [{bar:40}] {human_pos}/{human_len} rows ({eta})"
    };
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

/// Open the input: its schema, its batches, and the progress bar that
/// counts them (rows), if the bar is not already fed by the reader (bytes).
fn open_input(
    path: &Path,
    format: InputFormat,
) -> Result<(SchemaRef, Batches, Option<ProgressBar>, bool)> {
    let mut file = open(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let named = |e: ArrowError| CliError::msg(format!("{}: {e}", path.display()));
    Ok(match format {
        InputFormat::Csv => {
            let (schema, _) = arrow_csv::reader::Format::default()
                .with_header(true)
                .infer_schema(&mut file, None)
                .map_err(named)?;
            file.rewind()?;
            let schema = Arc::new(schema);
            let bar = progress(len, true);
            let source: Box<dyn std::io::Read> = match &bar {
                Some(bar) => Box::new(bar.wrap_read(file)),
                None => Box::new(file),
            };
            let reader = arrow_csv::ReaderBuilder::new(schema.clone())
                .with_header(true)
                .with_batch_size(BATCH_SIZE)
                .build(source)
                .map_err(named)?;
            (schema, Box::new(reader), bar, false)
        }
        InputFormat::Json => {
            let mut buffered = BufReader::new(file);
            let (schema, _) =
                arrow_json::reader::infer_json_schema_from_seekable(&mut buffered, None)
                    .map_err(named)?;
            let schema = Arc::new(schema);
            let bar = progress(len, true);
            let source: Box<dyn std::io::BufRead> = match &bar {
                Some(bar) => Box::new(bar.wrap_read(buffered)),
                None => Box::new(buffered),
            };
            let reader = arrow_json::ReaderBuilder::new(schema.clone())
                .with_batch_size(BATCH_SIZE)
                .build(source)
                .map_err(named)?;
            (schema, Box::new(reader), bar, false)
        }
        InputFormat::Ipc => match arrow_ipc::reader::FileReader::try_new(file, None) {
            Ok(reader) => {
                let bar = progress(reader.num_batches() as u64, false);
                if let Some(bar) = &bar
                    && let Ok(style) = ProgressStyle::with_template(
                        "{spinner} [{bar:40}] {human_pos}/{human_len} batches ({eta})",
                    )
                {
                    bar.set_style(style.progress_chars("=> "));
                }
                let schema = reader.schema();
                (schema, Box::new(reader), bar, true)
            }
            Err(file_error) => {
                // Not an IPC file: perhaps an IPC stream.
                let stream = open(path)?;
                let reader = arrow_ipc::reader::StreamReader::try_new(BufReader::new(stream), None)
                    .map_err(|_| named(file_error))?;
                let schema = reader.schema();
                (schema, Box::new(reader), None, false)
            }
        },
        InputFormat::Parquet => {
            let builder = crate::print::arrow_builder(path)?.with_batch_size(BATCH_SIZE);
            let rows = u64::try_from(builder.metadata().file_metadata().num_rows).unwrap_or(0);
            let reader = builder.build()?;
            let schema = arrow_array::RecordBatchReader::schema(&reader);
            (schema, Box::new(reader), progress(rows, false), true)
        }
    })
}

/// `strata convert IN OUT ...`.
pub fn convert(args: &ConvertArgs) -> Result<()> {
    let format = match args.from {
        Some(f) => f,
        None => detect(&args.input)?,
    };
    if let (Ok(a), Ok(b)) = (args.input.canonicalize(), args.output.canonicalize())
        && a == b
    {
        return Err(CliError::msg("the output file is the input file"));
    }
    let (schema, batches, bar, count_batches) = open_input(&args.input, format)?;
    let counted = match format {
        InputFormat::Ipc => Counter::Batches,
        _ => Counter::Rows,
    };
    let result = write_parquet(args, schema, batches, bar.as_ref(), count_batches, counted);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result {
        Ok((rows, groups)) => {
            if std::io::stderr().is_terminal() {
                eprintln!(
                    "wrote {rows} row{} in {groups} row group{} to {}",
                    if rows == 1 { "" } else { "s" },
                    if groups == 1 { "" } else { "s" },
                    args.output.display()
                );
            }
            Ok(())
        }
        Err(e) => {
            // Leave no half-written file behind.
            let _ = std::fs::remove_file(&args.output);
            Err(e)
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counter {
    Rows,
    Batches,
}

fn write_parquet(
    args: &ConvertArgs,
    schema: SchemaRef,
    batches: Batches,
    bar: Option<&ProgressBar>,
    count: bool,
    counted: Counter,
) -> Result<(usize, usize)> {
    let out = File::create(&args.output)
        .map_err(|e| CliError::msg(format!("cannot create {}: {e}", args.output.display())))?;
    let out = std::io::BufWriter::new(out);
    let mut writer = ArrowWriter::try_new(out, schema, Some(properties(args)))?;
    let mut rows = 0usize;
    for batch in batches {
        let batch = batch.map_err(|e| CliError::msg(format!("{}: {e}", args.input.display())))?;
        rows += batch.num_rows();
        writer.write(&batch)?;
        if count && let Some(bar) = bar {
            bar.inc(match counted {
                Counter::Rows => batch.num_rows() as u64,
                Counter::Batches => 1,
            });
        }
    }
    let metadata = writer.close()?;
    Ok((rows, metadata.num_row_groups()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_extension() {
        assert!(matches!(detect(Path::new("a.CSV")), Ok(InputFormat::Csv)));
        assert!(matches!(
            detect(Path::new("a.ndjson")),
            Ok(InputFormat::Json)
        ));
        assert!(matches!(
            detect(Path::new("a.feather")),
            Ok(InputFormat::Ipc)
        ));
        assert!(matches!(
            detect(Path::new("a.parquet")),
            Ok(InputFormat::Parquet)
        ));
        assert!(detect(Path::new("a.txt")).is_err());
    }
}
