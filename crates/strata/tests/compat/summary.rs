//! Normalized, implementation-independent text for what a program read:
//! batch and row counts, the Arrow schema (names, types, nullability,
//! metadata in sorted order) and the values. Nothing here knows which
//! Parquet crate wrote or read the data.

use std::fmt::Write;

use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::{DataType, Field, Metadata, Schema};

/// Rows printed in full up to this many; past it the first and last few
/// and a digest of all of them.
const FULL_ROWS: usize = 40;
const HEAD_ROWS: usize = 20;
const TAIL_ROWS: usize = 10;

/// `{k=v, ...}` in key order, or nothing when empty.
pub fn fmt_metadata(metadata: &Metadata) -> String {
    if metadata.is_empty() {
        return String::new();
    }
    let mut parts: Vec<String> = metadata.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.sort();
    format!(" {{{}}}", parts.join(", "))
}

/// `name: type` with `?` when nullable and the field's metadata.
pub fn fmt_field(field: &Field) -> String {
    format!(
        "{}: {}{}{}",
        field.name(),
        fmt_type(field.data_type()),
        if field.is_nullable() { "?" } else { "" },
        fmt_metadata(field.metadata())
    )
}

/// A data type, nested fields spelled out with [`fmt_field`].
pub fn fmt_type(data_type: &DataType) -> String {
    match data_type {
        DataType::List(f) => format!("List<{}>", fmt_field(f)),
        DataType::LargeList(f) => format!("LargeList<{}>", fmt_field(f)),
        DataType::ListView(f) => format!("ListView<{}>", fmt_field(f)),
        DataType::LargeListView(f) => format!("LargeListView<{}>", fmt_field(f)),
        DataType::FixedSizeList(f, n) => format!("FixedSizeList<{n}, {}>", fmt_field(f)),
        DataType::Map(f, sorted) => format!("Map<{}, sorted={sorted}>", fmt_field(f)),
        DataType::Struct(fields) => {
            let parts: Vec<String> = fields.iter().map(|f| fmt_field(f)).collect();
            format!("Struct{{{}}}", parts.join(", "))
        }
        DataType::Dictionary(k, v) => format!("Dictionary<{}, {}>", fmt_type(k), fmt_type(v)),
        other => format!("{other:?}"),
    }
}

/// The schema's fields, one per line, then its metadata.
pub fn fmt_schema(schema: &Schema) -> String {
    let mut out = String::from("schema:\n");
    for field in schema.fields() {
        let _ = writeln!(out, "  {}", fmt_field(field));
    }
    let _ = writeln!(out, "  metadata:{}", fmt_metadata(schema.metadata()));
    out
}

/// `column`, or for a timestamp whose zone Arrow cannot print without
/// its `chrono-tz` feature (a named zone such as "UTC"), the same instants
/// without the zone (the schema line still names it).
fn displayable(column: &ArrayRef) -> ArrayRef {
    if let DataType::Timestamp(unit, Some(_)) = column.data_type()
        && ArrayFormatter::try_new(column.as_ref(), &FormatOptions::new()).is_err()
    {
        let data = column
            .to_data()
            .into_builder()
            .data_type(DataType::Timestamp(*unit, None))
            .build()
            .unwrap();
        return arrow_array::make_array(data);
    }
    column.clone()
}

/// Every row of `batches` as `v1 | v2 | ...`, nulls as `null`.
fn rows_text(batches: &[RecordBatch]) -> Vec<String> {
    let options = FormatOptions::new().with_null("null");
    let mut rows = Vec::new();
    for batch in batches {
        let columns: Vec<ArrayRef> = batch.columns().iter().map(displayable).collect();
        let formatters: Vec<ArrayFormatter<'_>> = columns
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options).unwrap())
            .collect();
        for i in 0..batch.num_rows() {
            let cells: Vec<String> = formatters.iter().map(|f| f.value(i).to_string()).collect();
            rows.push(cells.join(" | "));
        }
    }
    rows
}

/// FNV-1a over the rows' text: equal text, equal digest.
fn digest(rows: &[String]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for row in rows {
        for byte in row.bytes().chain(std::iter::once(b'\n')) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// Batch sizes and the total row count.
pub fn fmt_counts(batches: &[RecordBatch]) -> String {
    let sizes: Vec<usize> = batches.iter().map(RecordBatch::num_rows).collect();
    let total: usize = sizes.iter().sum();
    format!("batches: {sizes:?}\nrows: {total}\n")
}

/// Counts and a digest of the values: for programs that read the same
/// data several ways.
pub fn fmt_digest(batches: &[RecordBatch]) -> String {
    let sizes: Vec<usize> = batches.iter().map(RecordBatch::num_rows).collect();
    let total: usize = sizes.iter().sum();
    format!(
        "rows: {total} in {} batches, digest {}",
        sizes.len(),
        digest(&rows_text(batches))
    )
}

/// Counts, schema (of the first batch; any batch whose schema differs is
/// named) and values.
pub fn fmt_batches(batches: &[RecordBatch]) -> String {
    let mut out = fmt_counts(batches);
    if let Some(first) = batches.first() {
        out.push_str(&fmt_schema(&first.schema()));
        for (i, b) in batches.iter().enumerate().skip(1) {
            if b.schema() != first.schema() {
                let _ = write!(out, "batch {i} {}", fmt_schema(&b.schema()));
            }
        }
    }
    let rows = rows_text(batches);
    if rows.len() <= FULL_ROWS {
        for (i, r) in rows.iter().enumerate() {
            let _ = writeln!(out, "  {i}: {r}");
        }
    } else {
        for (i, r) in rows.iter().enumerate().take(HEAD_ROWS) {
            let _ = writeln!(out, "  {i}: {r}");
        }
        let _ = writeln!(out, "  ...");
        for (i, r) in rows.iter().enumerate().skip(rows.len() - TAIL_ROWS) {
            let _ = writeln!(out, "  {i}: {r}");
        }
        let _ = writeln!(out, "  digest of all rows: {}", digest(&rows));
    }
    out
}
