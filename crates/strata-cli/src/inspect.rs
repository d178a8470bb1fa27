//! `strata schema`, `strata meta` and `strata pages`: what the footer and
//! the page headers say.

use std::fmt::Write as _;
use std::fs::File;
use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};
use strata_file::page_reader::{PageInfo, PageReader};
use strata_file::serialized_reader::{SerializedFileReader, SerializedRowGroupReader};
use strata_format::ColumnDescriptor;
use strata_format::metadata::{ColumnMetaData, FieldRepetitionType, PageType};
use strata_format::schema::Type as SchemaType;

use crate::error::{CliError, Result, open};
use crate::values::{enum_name, logical_name, physical_name, stats_json, stats_line};

/// Open a Parquet file with strata's file reader.
pub fn open_parquet(path: &Path) -> Result<SerializedFileReader<File>> {
    let file = open(path)?;
    SerializedFileReader::new(file).map_err(|e| {
        CliError::msg(format!(
            "{}: not a readable Parquet file: {e}",
            path.display()
        ))
    })
}

/// `strata schema FILE`.
pub fn schema(path: &Path) -> Result<()> {
    let reader = open_parquet(path)?;
    let descr = reader.schema();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Parquet schema ({} leaf columns):",
        descr.num_columns()
    );
    let root = descr.root_schema();
    let _ = writeln!(out, "{}", root.name());
    let children = root.get_fields();
    for (i, child) in children.iter().enumerate() {
        schema_node(&mut out, child, "", i + 1 == children.len(), 0, 0);
    }
    let kv = reader.footer().key_value_metadata.as_ref();
    let _ = writeln!(out);
    match strata_arrow::parquet_to_arrow_schema(descr, kv) {
        Ok(arrow) => {
            let embedded = kv.is_some_and(|kv| {
                kv.iter()
                    .any(|e| e.key == strata_arrow::ARROW_SCHEMA_META_KEY)
            });
            let _ = writeln!(
                out,
                "Arrow schema{}:",
                if embedded {
                    " (with the embedded ARROW:schema)"
                } else {
                    ""
                }
            );
            for field in arrow.fields() {
                let _ = writeln!(
                    out,
                    "  {}: {}{}",
                    field.name(),
                    field.data_type(),
                    if field.is_nullable() { "" } else { " not null" }
                );
            }
        }
        Err(e) => {
            let _ = writeln!(out, "Arrow schema: cannot be mapped: {e}");
        }
    }
    write_stdout(&out)
}

fn schema_node(out: &mut String, node: &SchemaType, prefix: &str, last: bool, def: i16, rep: i16) {
    let info = node.get_basic_info();
    let (def, rep) = match info.repetition_opt() {
        Some(FieldRepetitionType::Optional) => (def + 1, rep),
        Some(FieldRepetitionType::Repeated) => (def + 1, rep + 1),
        _ => (def, rep),
    };
    let branch = if last { "└── " } else { "├── " };
    let repetition = info
        .repetition_opt()
        .map(|r| enum_name(&r).to_lowercase())
        .unwrap_or_default();
    let mut line = format!("{prefix}{branch}{}: {repetition}", node.name());
    match node {
        SchemaType::GroupType { .. } => line.push_str(" group"),
        SchemaType::PrimitiveType {
            physical_type,
            type_length,
            scale,
            precision,
            ..
        } => {
            let present = |v: i32| (v != -1).then_some(v);
            let _ = write!(
                line,
                " {}",
                physical_name(*physical_type, present(*type_length))
            );
            if let (Some(p), Some(s)) = (present(*precision), present(*scale))
                && info.logical_type_ref().is_none()
            {
                let _ = write!(line, " precision={p} scale={s}");
            }
        }
    }
    if let Some(logical) = info.logical_type_ref() {
        let _ = write!(line, " logical={}", logical_name(logical));
    }
    if let Some(converted) = info.stored_converted_type().to_option() {
        let _ = write!(line, " converted={}", enum_name(&converted));
    }
    if let Some(id) = info.id_opt() {
        let _ = write!(line, " field_id={id}");
    }
    let _ = write!(line, " (def {def}, rep {rep})");
    let _ = writeln!(out, "{line}");
    let children = node.get_fields();
    let prefix = format!("{prefix}{}", if last { "    " } else { "│   " });
    for (i, child) in children.iter().enumerate() {
        schema_node(out, child, &prefix, i + 1 == children.len(), def, rep);
    }
}

/// Pages of a column chunk counted by walking its headers.
#[derive(Debug, Default)]
struct PageCount {
    dictionary: usize,
    data: usize,
    data_v2: usize,
}

fn count_pages(mut pages: PageReader) -> std::result::Result<PageCount, String> {
    let mut count = PageCount::default();
    while let Some(info) = pages.skip_next_page().map_err(|e| e.to_string())? {
        match info.page_type() {
            PageType::DictionaryPage => count.dictionary += 1,
            PageType::DataPage => count.data += 1,
            PageType::DataPageV2 => count.data_v2 += 1,
            _ => {}
        }
    }
    Ok(count)
}

struct ChunkFacts<'a> {
    descr: &'a ColumnDescriptor,
    meta: std::result::Result<&'a ColumnMetaData, String>,
    pages: std::result::Result<PageCount, String>,
    column_index: Option<(i64, i32)>,
    offset_index: Option<(i64, i32)>,
    bloom: Option<(i64, Option<i32>)>,
}

fn chunk_facts<'a>(rg: &SerializedRowGroupReader<'a, File>, j: usize) -> Result<ChunkFacts<'a>> {
    let descr = rg.column_descriptor(j)?;
    let chunk = rg.column_chunk(j)?;
    let meta = rg.column_metadata(j).map_err(|e| e.to_string());
    let pages = rg
        .page_reader(j)
        .map_err(|e| e.to_string())
        .and_then(count_pages);
    let column_index = chunk
        .column_index_offset
        .map(|o| (o, chunk.column_index_length.unwrap_or(0)));
    let offset_index = chunk
        .offset_index_offset
        .map(|o| (o, chunk.offset_index_length.unwrap_or(0)));
    let bloom = meta.as_ref().ok().and_then(|m| {
        m.bloom_filter_offset()
            .map(|o| (o, m.bloom_filter_length()))
    });
    Ok(ChunkFacts {
        descr,
        meta,
        pages,
        column_index,
        offset_index,
        bloom,
    })
}

/// `strata meta FILE [--json]`.
pub fn meta(path: &Path, as_json: bool) -> Result<()> {
    let reader = open_parquet(path)?;
    let md = reader.footer();
    let keys: Vec<&str> = md
        .key_value_metadata
        .iter()
        .flatten()
        .map(|kv| kv.key.as_str())
        .collect();
    let mut groups = Vec::new();
    for i in 0..reader.num_row_groups() {
        let rg = reader.row_group(i)?;
        let mut chunks = Vec::new();
        for j in 0..rg.num_columns() {
            chunks.push(chunk_facts(&rg, j)?);
        }
        groups.push((rg.metadata(), chunks));
    }
    if as_json {
        let row_groups: Vec<Value> = groups
            .iter()
            .enumerate()
            .map(|(i, (rg, chunks))| {
                json!({
                    "index": i,
                    "num_rows": rg.num_rows,
                    "total_byte_size": rg.total_byte_size,
                    "total_compressed_size": rg.total_compressed_size,
                    "columns": chunks.iter().map(chunk_json).collect::<Vec<_>>(),
                })
            })
            .collect();
        let doc = json!({
            "file": path.display().to_string(),
            "file_size": reader.file_len(),
            "version": md.version,
            "created_by": md.created_by,
            "num_rows": md.num_rows,
            "num_row_groups": md.row_groups.len(),
            "num_columns": reader.schema().num_columns(),
            "key_value_keys": keys,
            "row_groups": row_groups,
        });
        let text = serde_json::to_string_pretty(&doc)?;
        return write_stdout(&format!("{text}\n"));
    }
    let mut out = String::new();
    let _ = writeln!(out, "file: {}", path.display());
    let _ = writeln!(out, "file size: {} bytes", reader.file_len());
    let _ = writeln!(out, "version: {}", md.version);
    let _ = writeln!(
        out,
        "created_by: {}",
        md.created_by.as_deref().unwrap_or("(none)")
    );
    let _ = writeln!(out, "rows: {}", md.num_rows);
    let _ = writeln!(out, "row groups: {}", md.row_groups.len());
    let _ = writeln!(out, "columns: {}", reader.schema().num_columns());
    let _ = writeln!(
        out,
        "key-value metadata: {}",
        if keys.is_empty() {
            "(none)".to_string()
        } else {
            keys.join(", ")
        }
    );
    for (i, (rg, chunks)) in groups.iter().enumerate() {
        let _ = writeln!(
            out,
            "\nrow group {i}: {} rows, {} bytes uncompressed{}",
            rg.num_rows,
            rg.total_byte_size,
            rg.total_compressed_size
                .map(|c| format!(", {c} bytes compressed"))
                .unwrap_or_default()
        );
        for c in chunks {
            chunk_text(&mut out, c);
        }
    }
    write_stdout(&out)
}

fn chunk_text(out: &mut String, c: &ChunkFacts<'_>) {
    let _ = writeln!(
        out,
        "  column {} ({}):",
        c.descr.path.string(),
        physical_name(c.descr.physical_type, c.descr.type_length)
    );
    match &c.meta {
        Ok(m) => {
            let encodings: Vec<String> = m.encodings.iter().map(|e| enum_name(&e)).collect();
            let _ = writeln!(
                out,
                "    codec {}, encodings {}, {} values, {} bytes compressed, {} uncompressed",
                enum_name(&m.codec),
                encodings.join(" "),
                m.num_values,
                m.total_compressed_size,
                m.total_uncompressed_size
            );
            let _ = writeln!(
                out,
                "    statistics: {}",
                m.statistics
                    .as_ref()
                    .map(|s| stats_line(c.descr, s))
                    .unwrap_or_else(|| "none".into())
            );
        }
        Err(e) => {
            let _ = writeln!(out, "    metadata: {e}");
        }
    }
    match &c.pages {
        Ok(p) => {
            let _ = writeln!(
                out,
                "    pages: {} ({} dictionary, {} data v1, {} data v2)",
                p.dictionary + p.data + p.data_v2,
                p.dictionary,
                p.data,
                p.data_v2
            );
        }
        Err(e) => {
            let _ = writeln!(out, "    pages: cannot be read: {e}");
        }
    }
    let index = |what: &str, at: Option<(i64, i32)>| match at {
        Some((o, l)) => format!("{what} at {o} ({l} bytes)"),
        None => format!("no {what}"),
    };
    let _ = writeln!(
        out,
        "    page index: {}, {}; bloom filter: {}",
        index("column index", c.column_index),
        index("offset index", c.offset_index),
        match c.bloom {
            Some((o, Some(l))) => format!("at {o} ({l} bytes)"),
            Some((o, None)) => format!("at {o}"),
            None => "none".into(),
        }
    );
}

fn chunk_json(c: &ChunkFacts<'_>) -> Value {
    let mut v = json!({
        "path": c.descr.path.string(),
        "physical_type": physical_name(c.descr.physical_type, c.descr.type_length),
        "column_index": c.column_index.map(|(o, l)| json!({"offset": o, "length": l})),
        "offset_index": c.offset_index.map(|(o, l)| json!({"offset": o, "length": l})),
        "bloom_filter": c.bloom.map(|(o, l)| json!({"offset": o, "length": l})),
    });
    match &c.meta {
        Ok(m) => {
            v["codec"] = json!(enum_name(&m.codec));
            v["encodings"] = json!(
                m.encodings
                    .iter()
                    .map(|e| enum_name(&e))
                    .collect::<Vec<_>>()
            );
            v["num_values"] = json!(m.num_values);
            v["total_compressed_size"] = json!(m.total_compressed_size);
            v["total_uncompressed_size"] = json!(m.total_uncompressed_size);
            v["statistics"] = m
                .statistics
                .as_ref()
                .map(|s| stats_json(c.descr, s))
                .unwrap_or(Value::Null);
        }
        Err(e) => v["error"] = json!(e),
    }
    match &c.pages {
        Ok(p) => {
            v["pages"] = json!({
                "total": p.dictionary + p.data + p.data_v2,
                "dictionary": p.dictionary,
                "data_v1": p.data,
                "data_v2": p.data_v2,
            });
        }
        Err(e) => v["pages_error"] = json!(e),
    }
    v
}

/// `strata pages FILE [--column PATH]`.
pub fn pages(path: &Path, column: Option<&str>) -> Result<()> {
    let reader = open_parquet(path)?;
    let descr = reader.schema();
    let selected: Vec<usize> = (0..descr.num_columns())
        .filter(|&j| {
            column.is_none_or(|c| descr.columns().get(j).is_some_and(|d| d.path.string() == c))
        })
        .collect();
    if selected.is_empty() {
        let names: Vec<String> = descr.columns().iter().map(|c| c.path.string()).collect();
        return Err(CliError::msg(format!(
            "no column {:?}; the columns are: {}",
            column.unwrap_or_default(),
            names.join(", ")
        )));
    }
    let mut stdout = std::io::stdout().lock();
    for i in 0..reader.num_row_groups() {
        let rg = reader.row_group(i)?;
        for &j in &selected {
            let d = rg.column_descriptor(j)?;
            let mut out = String::new();
            let codec = rg
                .column_metadata(j)
                .map(|m| enum_name(&m.codec))
                .unwrap_or_else(|e| format!("metadata unreadable: {e}"));
            let _ = writeln!(
                out,
                "row group {i}, column {} ({}, {codec}):",
                d.path.string(),
                physical_name(d.physical_type, d.type_length)
            );
            match rg.page_reader(j) {
                Ok(mut pages) => {
                    let mut k = 0usize;
                    loop {
                        match pages.skip_next_page() {
                            Ok(Some(info)) => page_text(&mut out, d, k, &info),
                            Ok(None) => break,
                            Err(e) => {
                                let _ = writeln!(out, "  page {k}: cannot be read: {e}");
                                break;
                            }
                        }
                        k += 1;
                    }
                }
                Err(e) => {
                    let _ = writeln!(out, "  cannot be read: {e}");
                }
            }
            stdout.write_all(out.as_bytes())?;
        }
    }
    stdout.flush()?;
    Ok(())
}

fn page_text(out: &mut String, d: &ColumnDescriptor, k: usize, info: &PageInfo) {
    let h = &info.header;
    let mut line = format!(
        "  page {k} at chunk offset {}: {} compressed={} uncompressed={}",
        info.header_offset,
        enum_name(&h.page_type),
        h.compressed_page_size,
        h.uncompressed_page_size
    );
    let mut stats = None;
    if let Some(dp) = &h.data_page_header {
        let _ = write!(
            line,
            " values={} encoding={} def={} rep={}",
            dp.num_values,
            enum_name(&dp.encoding),
            enum_name(&dp.definition_level_encoding),
            enum_name(&dp.repetition_level_encoding)
        );
        stats = dp.statistics.as_ref();
    }
    if let Some(dp) = &h.data_page_header_v2 {
        let _ = write!(
            line,
            " values={} nulls={} rows={} encoding={} def_bytes={} rep_bytes={} compressed_values={}",
            dp.num_values,
            dp.num_nulls,
            dp.num_rows,
            enum_name(&dp.encoding),
            dp.definition_levels_byte_length,
            dp.repetition_levels_byte_length,
            dp.values_compressed()
        );
        stats = dp.statistics.as_ref();
    }
    if let Some(dict) = &h.dictionary_page_header {
        let _ = write!(
            line,
            " values={} encoding={}{}",
            dict.num_values,
            enum_name(&dict.encoding),
            if dict.is_sorted == Some(true) {
                " sorted"
            } else {
                ""
            }
        );
    }
    if let Some(crc) = h.crc {
        let _ = write!(line, " crc={:08x}", crc as u32);
    }
    if let Some(s) = stats {
        let _ = write!(line, " stats: {}", stats_line(d, s));
    }
    let _ = writeln!(out, "{line}");
}

/// Write text to stdout; a closed pipe ends quietly.
pub fn write_stdout(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
