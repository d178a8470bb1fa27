//! `strata cat` and `strata head`: rows as JSON lines, CSV or a table.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::{DataType, Schema};
use strata_arrow::ProjectionMask;
use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata_format::SchemaDescriptor;

use crate::error::{CliError, Result, open};

/// How rows are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// CSV with a header row (flat columns only).
    Csv,
    /// An aligned text table.
    Table,
}

/// Open a Parquet file for the Arrow reader, naming it in the error.
pub fn arrow_builder(path: &Path) -> Result<ParquetRecordBatchReaderBuilder<File>> {
    let file = open(path)?;
    ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| {
        CliError::msg(format!(
            "{}: not a readable Parquet file: {e}",
            path.display()
        ))
    })
}

/// The leaf columns named by `names`: root fields (`a`), dotted leaf paths
/// (`a.b.c`) or dotted group paths (every leaf under `a.b`).
pub fn projection(schema: &SchemaDescriptor, names: &[String]) -> Result<ProjectionMask> {
    let mut leaves = Vec::new();
    for name in names {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let parts: Vec<&str> = name.split('.').collect();
        let mut found = false;
        for (i, column) in schema.columns().iter().enumerate() {
            let path = column.path.parts();
            let under =
                path.len() >= parts.len() && path.iter().zip(&parts).all(|(a, b)| a.as_str() == *b);
            if under {
                found = true;
                if !leaves.contains(&i) {
                    leaves.push(i);
                }
            }
        }
        if !found {
            let roots: Vec<&str> = schema
                .root_schema()
                .get_fields()
                .iter()
                .map(|c| c.name())
                .collect();
            return Err(CliError::msg(format!(
                "no column {name:?}; the columns are: {}",
                roots.join(", ")
            )));
        }
    }
    Ok(ProjectionMask::leaves(schema, leaves))
}

/// `strata cat` (and `strata head`, which is `cat --limit N`).
pub fn cat(
    path: &Path,
    columns: Option<&[String]>,
    limit: Option<usize>,
    offset: Option<usize>,
    format: Format,
) -> Result<()> {
    let mut builder = arrow_builder(path)?;
    if let Some(names) = columns {
        let mask = projection(builder.parquet_schema(), names)?;
        builder = builder.with_projection(mask);
    }
    if let Some(limit) = limit {
        builder = builder
            .with_limit(limit)
            .with_batch_size(limit.clamp(1, 8192));
    } else {
        builder = builder.with_batch_size(8192);
    }
    if let Some(offset) = offset {
        builder = builder.with_offset(offset);
    }
    let reader = builder.build()?;
    let schema = arrow_array::RecordBatchReader::schema(&reader);
    let named = |e: arrow_schema::ArrowError| CliError::msg(format!("{}: {e}", path.display()));
    let reader = reader.map(move |batch| batch.map_err(&named));
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match format {
        Format::Jsonl => {
            let mut writer = arrow_json::LineDelimitedWriter::new(&mut stdout);
            for batch in reader {
                writer.write(&batch?)?;
            }
            writer.finish()?;
        }
        Format::Csv => {
            check_flat(&schema)?;
            let mut writer = arrow_csv::WriterBuilder::new()
                .with_header(true)
                .build(&mut stdout);
            let mut wrote = false;
            for batch in reader {
                writer.write(&batch?)?;
                wrote = true;
            }
            drop(writer);
            if !wrote {
                // No rows: still print the header.
                let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
                writeln!(stdout, "{}", names.join(","))?;
            }
        }
        Format::Table => {
            let batches: Vec<RecordBatch> = reader.collect::<Result<_>>()?;
            table(&mut stdout, &schema, &batches)?;
        }
    }
    stdout.flush()?;
    Ok(())
}

/// CSV holds flat columns only.
fn check_flat(schema: &Schema) -> Result<()> {
    for field in schema.fields() {
        let nested = match field.data_type() {
            DataType::Dictionary(_, value) => value.is_nested(),
            t => t.is_nested(),
        };
        if nested {
            return Err(CliError::msg(format!(
                "--format csv prints flat columns only, and column {:?} is {}; use --format jsonl or table, or pick flat columns with --columns",
                field.name(),
                field.data_type()
            )));
        }
    }
    Ok(())
}

/// Widest a table cell gets, in characters.
const MAX_CELL: usize = 40;

fn clip(s: String) -> String {
    let s = s.replace(['\n', '\r', '\t'], " ");
    if s.chars().count() <= MAX_CELL {
        s
    } else {
        let mut out: String = s.chars().take(MAX_CELL - 1).collect();
        out.push('…');
        out
    }
}

/// A binary value that is UTF-8 text, as text (old writers store strings
/// without an annotation); `None` for other values, which print as usual.
fn binary_text(column: &ArrayRef, row: usize) -> Option<String> {
    if column.is_null(row) {
        return None;
    }
    let bytes = match column.data_type() {
        DataType::Binary => column.as_binary::<i32>().value(row),
        DataType::LargeBinary => column.as_binary::<i64>().value(row),
        DataType::BinaryView => column.as_binary_view().value(row),
        _ => return None,
    };
    let text = std::str::from_utf8(bytes).ok()?;
    (!text.chars().any(char::is_control)).then(|| text.to_string())
}

/// An aligned text table of the batches.
fn table(out: &mut impl Write, schema: &Schema, batches: &[RecordBatch]) -> Result<()> {
    let options = FormatOptions::default().with_null("null");
    let mut rows: Vec<Vec<String>> = Vec::new();
    rows.push(
        schema
            .fields()
            .iter()
            .map(|f| clip(f.name().clone()))
            .collect(),
    );
    for batch in batches {
        let formatters = batch
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        for row in 0..batch.num_rows() {
            rows.push(
                formatters
                    .iter()
                    .zip(batch.columns())
                    .map(|(f, column)| {
                        clip(binary_text(column, row).unwrap_or_else(|| f.value(row).to_string()))
                    })
                    .collect(),
            );
        }
    }
    let columns = schema.fields().len();
    let mut widths = vec![0usize; columns];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[String]| {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        cells.join(" | ").trim_end().to_string()
    };
    let mut text = String::new();
    if let Some((header, body)) = rows.split_first() {
        text.push_str(&line(header));
        text.push('\n');
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        text.push_str(&rule.join("-+-"));
        text.push('\n');
        for row in body {
            text.push_str(&line(row));
            text.push('\n');
        }
        let n = body.len();
        text.push_str(&format!("({n} row{})\n", if n == 1 { "" } else { "s" }));
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}
