//! # strata: the command line of strata
//!
//! Inspect, check, print and convert Parquet files with strata's own
//! reader and writer:
//!
//! - `strata schema FILE`: the Parquet schema tree and the Arrow schema it
//!   maps to;
//! - `strata meta FILE [--json]`: file, row group and column chunk facts
//!   (sizes, encodings, codec, statistics, page counts, page index, Bloom
//!   filters);
//! - `strata pages FILE [--column PATH]`: the page headers of each column
//!   chunk;
//! - `strata cat FILE` and `strata head FILE`: the rows, as JSON lines, CSV
//!   or an aligned table;
//! - `strata convert IN OUT`: CSV, JSON lines, Arrow IPC or Parquet to
//!   Parquet;
//! - `strata check FILE`: read every page (CRCs verified) and every batch,
//!   check the statistics, and report each problem on its own line.
//!
//! Errors are one line on stderr (`strata: <message>`) and a non-zero exit
//! code; `check` exits with 1 when it found problems.

#![forbid(unsafe_code)]

mod check;
mod convert;
mod error;
mod inspect;
mod print;
mod values;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::{CliError, Result};

/// Inspect, check, print and convert Parquet files.
#[derive(Debug, Parser)]
#[command(name = "strata", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the Parquet schema tree and the Arrow schema it maps to.
    Schema {
        /// The Parquet file.
        file: PathBuf,
    },
    /// Print file, row group and column chunk metadata.
    Meta {
        /// The Parquet file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the page headers of each column chunk.
    Pages {
        /// The Parquet file.
        file: PathBuf,
        /// Only the column with this dotted path (`a.b.c`).
        #[arg(long)]
        column: Option<String>,
    },
    /// Print rows.
    Cat {
        /// The Parquet file.
        file: PathBuf,
        /// Columns to print, comma separated: root fields (`a`) or dotted
        /// leaf paths (`a.b.c`).
        #[arg(long, value_delimiter = ',')]
        columns: Option<Vec<String>>,
        /// Print at most this many rows.
        #[arg(long)]
        limit: Option<usize>,
        /// Skip this many rows first.
        #[arg(long)]
        offset: Option<usize>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = print::Format::Jsonl)]
        format: print::Format,
    },
    /// Print the first rows as a table.
    Head {
        /// The Parquet file.
        file: PathBuf,
        /// Number of rows.
        #[arg(short = 'n', long = "rows", default_value_t = 10)]
        n: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t = print::Format::Table)]
        format: print::Format,
    },
    /// Convert CSV, JSON lines, Arrow IPC or Parquet to Parquet.
    Convert(convert::ConvertArgs),
    /// Read everything, verify page CRCs and statistics; exit 1 on problems.
    Check {
        /// The Parquet file.
        file: PathBuf,
    },
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Schema { file } => inspect::schema(&file)?,
        Command::Meta { file, json } => inspect::meta(&file, json)?,
        Command::Pages { file, column } => inspect::pages(&file, column.as_deref())?,
        Command::Cat {
            file,
            columns,
            limit,
            offset,
            format,
        } => print::cat(&file, columns.as_deref(), limit, offset, format)?,
        Command::Head { file, n, format } => print::cat(&file, None, Some(n), None, format)?,
        Command::Convert(args) => convert::convert(&args)?,
        Command::Check { file } => return Ok(check::check(&file)),
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    // A last resort: a bug shows as one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".to_string());
        let message = message.lines().next().unwrap_or_default().to_string();
        eprintln!("strata: internal error: {message}");
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    // Help and version go to stdout as usual.
                    let _ = e.print();
                    return ExitCode::SUCCESS;
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    eprintln!(
                        "strata: a subcommand is needed: schema, meta, pages, cat, head, convert or check (see `strata --help`)"
                    );
                    return ExitCode::from(2);
                }
                _ => {}
            }
            let text = e.kind().as_str().map(str::to_string).unwrap_or_default();
            let rendered = e.render().to_string();
            let first = rendered
                .lines()
                .map(|l| l.trim_start_matches("error: ").trim())
                .find(|l| !l.is_empty())
                .unwrap_or(&text)
                .to_string();
            eprintln!("strata: {first} (see `strata --help`)");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(CliError::Message(message)) => {
            eprintln!("strata: {}", one_line(&message));
            ExitCode::FAILURE
        }
    }
}

/// A message on one line: newlines become `; `.
pub(crate) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
