//! Content-defined chunking (`WriterPropertiesBuilder::
//! set_content_defined_chunking`):
//!
//! - strata cuts each column's pages where arrow-rs does, for the same
//!   values and options, over flat, nullable, nested, dictionary, boolean,
//!   string, view and fixed-width columns, across batches and row groups;
//! - a table with 1% of its rows inserted in the middle, written again,
//!   shares most of its data pages byte for byte with the first file (and
//!   far more than without chunking), as with arrow-rs and pyarrow; the
//!   figures print beside each other;
//! - the files read back as the values written;
//! - options without room for a boundary are refused with an error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/python.rs"]
mod python;

use std::collections::HashSet;
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder};
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, FixedSizeBinaryArray, Float64Array, Int32Array,
    Int64Array, RecordBatch, StringArray, StringViewArray,
};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use parquet::file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
use strata::arrow::ArrowWriter;
use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata::file::properties::{CdcOptions, WriterProperties};

/// A value of row key `k` (deterministic: a splitmix64 step).
fn mix(k: u64) -> u64 {
    let mut z = k.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A word of 10 to 30 characters for key `k`.
fn word(k: u64) -> String {
    let h = mix(k ^ 0xABCD);
    let len = 10 + (h % 21) as usize;
    (0..len)
        .map(|i| {
            let c = (mix(h.wrapping_add(i as u64)) % 36) as u8;
            if c < 26 {
                (b'a' + c) as char
            } else {
                (b'0' + c - 26) as char
            }
        })
        .collect()
}

/// The rows of `keys`: an id, a measurement, a name, a nullable integer
/// (one in ten null).
fn table(keys: &[u64]) -> RecordBatch {
    let id: ArrayRef = Arc::new(Int64Array::from_iter_values(keys.iter().map(|&k| k as i64)));
    let value: ArrayRef = Arc::new(Float64Array::from_iter_values(
        keys.iter().map(|&k| (mix(k) % 1_000_000) as f64 / 1000.0),
    ));
    let name: ArrayRef = Arc::new(StringArray::from_iter_values(keys.iter().map(|&k| word(k))));
    let optional: ArrayRef = Arc::new(Int32Array::from_iter(keys.iter().map(|&k| {
        let h = mix(k ^ 0x55);
        (!h.is_multiple_of(10)).then_some((h % 100_000) as i32)
    })));
    RecordBatch::try_from_iter([
        ("id", id),
        ("value", value),
        ("name", name),
        ("opt_i32", optional),
    ])
    .unwrap()
}

/// Columns of every kind the chunker hashes differently.
fn mixed(keys: &[u64]) -> RecordBatch {
    let base = table(keys);
    let flags: ArrayRef =
        Arc::new(BooleanArray::from_iter(keys.iter().map(|&k| {
            (!mix(k).is_multiple_of(7)).then_some(mix(k).is_multiple_of(3))
        })));
    let views: ArrayRef = Arc::new(StringViewArray::from_iter(
        keys.iter()
            .map(|&k| (!mix(k).is_multiple_of(5)).then(|| word(k ^ 9))),
    ));
    let category: ArrayRef = Arc::new(
        keys.iter()
            .map(|&k| {
                let colours = ["red", "green", "blue", "cyan"];
                (!mix(k).is_multiple_of(11)).then_some(colours[(mix(k) % 4) as usize])
            })
            .collect::<DictionaryArray<Int32Type>>(),
    );
    let fixed: ArrayRef = Arc::new(
        FixedSizeBinaryArray::try_from_iter(keys.iter().map(|&k| mix(k).to_le_bytes())).unwrap(),
    );
    let mut lists = ListBuilder::new(Int64Builder::new());
    for &k in keys {
        let h = mix(k ^ 0x77);
        match h % 6 {
            0 => lists.append_null(),
            n => {
                for j in 0..n {
                    lists
                        .values()
                        .append_option((j != 2).then_some((h >> j) as i64));
                }
                lists.append(true);
            }
        }
    }
    let lists: ArrayRef = Arc::new(lists.finish());
    let schema = base.schema();
    let mut columns: Vec<(&str, ArrayRef)> = schema
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .zip(base.columns().iter().cloned())
        .collect();
    columns.extend([
        ("flags", flags),
        ("views", views),
        ("category", category),
        ("fixed", fixed),
        ("lists", lists),
    ]);
    RecordBatch::try_from_iter(columns).unwrap()
}

/// Table A's keys, and B's: A with `inserted` new keys in the middle.
fn keys(rows: u64, inserted: u64) -> (Vec<u64>, Vec<u64>) {
    let a: Vec<u64> = (0..rows).collect();
    let mut b = a.clone();
    let middle = (rows / 2) as usize;
    b.splice(middle..middle, rows..rows + inserted);
    (a, b)
}

fn write_strata(batch: &RecordBatch, props: WriterProperties, batch_rows: usize) -> Bytes {
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    let mut offset = 0;
    while offset < batch.num_rows() {
        let take = batch_rows.min(batch.num_rows() - offset);
        writer.write(&batch.slice(offset, take)).unwrap();
        offset += take;
    }
    Bytes::from(writer.into_inner().unwrap())
}

fn write_arrow_rs(
    batch: &RecordBatch,
    props: parquet::file::properties::WriterProperties,
    batch_rows: usize,
) -> Bytes {
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    let mut offset = 0;
    while offset < batch.num_rows() {
        let take = batch_rows.min(batch.num_rows() - offset);
        writer.write(&batch.slice(offset, take)).unwrap();
        offset += take;
    }
    Bytes::from(writer.into_inner().unwrap())
}

/// Per row group and column: the first row of each data page (from the
/// offset index, read by arrow-rs).
fn page_starts(file: &Bytes) -> Vec<Vec<Vec<i64>>> {
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(file)
        .unwrap();
    (0..metadata.num_row_groups())
        .map(|g| {
            let index = metadata.page_index_for_row_group(g);
            (0..metadata.row_group(g).num_columns())
                .map(|c| {
                    let locations = index.offset_index(c).unwrap().page_locations();
                    locations.iter().map(|p| p.first_row_index).collect()
                })
                .collect()
        })
        .collect()
}

/// The bytes (header and body) of every data page of `file`.
fn data_pages(file: &Bytes) -> Vec<&[u8]> {
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(file)
        .unwrap();
    let mut pages = Vec::new();
    for g in 0..metadata.num_row_groups() {
        let index = metadata.page_index_for_row_group(g);
        for c in 0..metadata.row_group(g).num_columns() {
            for p in index.offset_index(c).unwrap().page_locations() {
                let start = p.offset as usize;
                pages.push(&file[start..start + p.compressed_page_size as usize]);
            }
        }
    }
    pages
}

/// Of `b`'s data pages: how many, how many are byte for byte one of
/// `a`'s, and the share of `b`'s page bytes those hold.
fn deduplication(a: &Bytes, b: &Bytes) -> (usize, usize, f64) {
    let known: HashSet<&[u8]> = data_pages(a).into_iter().collect();
    let pages = data_pages(b);
    let total: usize = pages.iter().map(|p| p.len()).sum();
    let shared: Vec<_> = pages.iter().filter(|p| known.contains(*p)).collect();
    let shared_bytes: usize = shared.iter().map(|p| p.len()).sum();
    (
        pages.len(),
        shared.len(),
        shared_bytes as f64 / total as f64,
    )
}

fn small_chunks() -> CdcOptions {
    CdcOptions {
        min_chunk_size: 4 << 10,
        max_chunk_size: 24 << 10,
        norm_level: 0,
    }
}

/// Only the chunker cuts pages: no dictionary (whose fallback rules
/// differ between the two writers), no size or row limit in reach.
fn chunking_only(
    options: CdcOptions,
) -> (
    WriterProperties,
    parquet::file::properties::WriterProperties,
) {
    let strata = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_size_limit(1 << 30)
        .set_data_page_row_count_limit(usize::MAX)
        .set_max_row_group_row_count(Some(45_000))
        .set_content_defined_chunking(Some(options))
        .build();
    let arrow_rs = parquet::file::properties::WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_size_limit(1 << 30)
        .set_data_page_row_count_limit(usize::MAX)
        .set_max_row_group_row_count(Some(45_000))
        .set_content_defined_chunking(Some(parquet::file::properties::CdcOptions {
            min_chunk_size: options.min_chunk_size,
            max_chunk_size: options.max_chunk_size,
            norm_level: options.norm_level,
        }))
        .build();
    (strata, arrow_rs)
}

/// Write `keys`' rows as batches of `batch_rows` rows made one by one
/// (not slices of one batch: arrow-rs hashes a sliced list column's
/// values from the start of its child array, not from the slice).
fn fresh_batches(keys: &[u64], batch_rows: usize) -> Vec<RecordBatch> {
    keys.chunks(batch_rows).map(mixed).collect()
}

#[test]
fn pages_are_cut_where_arrow_rs_cuts_them() {
    let (a, _) = keys(90_000, 0);
    for options in [
        small_chunks(),
        CdcOptions {
            norm_level: 2,
            ..small_chunks()
        },
        CdcOptions {
            norm_level: -1,
            ..small_chunks()
        },
    ] {
        let (strata_props, arrow_rs_props) = chunking_only(options);
        // Row groups of 45,000 rows: whole batches each.
        for batch_rows in [45_000, 9_000] {
            let batches = fresh_batches(&a, batch_rows);
            let schema = batches[0].schema();
            let mut ours =
                ArrowWriter::try_new(Vec::new(), schema.clone(), Some(strata_props.clone()))
                    .unwrap();
            let mut theirs = parquet::arrow::ArrowWriter::try_new(
                Vec::new(),
                schema.clone(),
                Some(arrow_rs_props.clone()),
            )
            .unwrap();
            for batch in &batches {
                ours.write(batch).unwrap();
                theirs.write(batch).unwrap();
            }
            let ours = page_starts(&Bytes::from(ours.into_inner().unwrap()));
            let theirs = page_starts(&Bytes::from(theirs.into_inner().unwrap()));
            assert_eq!(ours.len(), 2);
            assert_eq!(ours.len(), theirs.len());
            for (g, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
                for (c, (ours, theirs)) in ours.iter().zip(theirs).enumerate() {
                    let name = schema.field(c).name();
                    assert!(
                        ours.len() > 3,
                        "row group {g} column {name}: {} pages",
                        ours.len()
                    );
                    assert_eq!(
                        ours, theirs,
                        "{options:?}, batches of {batch_rows}: row group {g} column {name}"
                    );
                }
            }
        }
    }
}

/// The same values cut at the same places whether they come as one batch
/// (which the writer slices into row groups) or as slices of it.
#[test]
fn slicing_the_input_does_not_move_the_boundaries() {
    let (a, _) = keys(90_000, 0);
    let batch = mixed(&a);
    let (only_chunks, _) = chunking_only(small_chunks());
    // Also with the page row and size limits in reach and dictionary
    // encoding on: pages split inside chunks, dictionaries judged and
    // fallen back from.
    let with_limits = WriterProperties::builder()
        .set_content_defined_chunking(Some(small_chunks()))
        .set_data_page_row_count_limit(2_000)
        .set_data_page_size_limit(8 << 10)
        .set_dictionary_page_size_limit(16 << 10)
        .set_max_row_group_row_count(Some(45_000))
        .build();
    for props in [only_chunks, with_limits] {
        let whole = page_starts(&write_strata(&batch, props.clone(), 90_000));
        for batch_rows in [7_777, 1_000] {
            assert_eq!(
                page_starts(&write_strata(&batch, props.clone(), batch_rows)),
                whole
            );
        }
    }
}

#[test]
fn chunked_files_read_back_as_written() {
    let (a, _) = keys(60_000, 0);
    let batch = mixed(&a);
    let (props, _) = chunking_only(small_chunks());
    let file = write_strata(&batch, props, 5_000);
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let read = arrow_select::concat::concat_batches(&batch.schema(), &batches).unwrap();
    assert_eq!(read, batch);
}

#[test]
fn options_without_room_for_a_boundary_are_refused() {
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)]));
    for (min, max, norm_level) in [(0, 10, 0), (10, 10, 0), (20, 10, 0), (1 << 10, 1 << 20, 40)] {
        let props = WriterProperties::builder()
            .set_content_defined_chunking(Some(CdcOptions {
                min_chunk_size: min,
                max_chunk_size: max,
                norm_level,
            }))
            .build();
        let error = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(props)).unwrap_err();
        assert!(
            error.to_string().contains("content-defined chunking"),
            "{error}"
        );
    }
}

/// The deduplication figure: 1,000,000 rows, 10,000 inserted in the
/// middle, written again; the share of the second file's data page bytes
/// found byte for byte in the first, by strata, arrow-rs and pyarrow
/// (default options otherwise: dictionary encoding, 1 MiB pages, 20,000
/// rows a page).
#[test]
fn inserting_rows_leaves_most_pages_unchanged() {
    let (a, b) = keys(1_000_000, 10_000);
    let (a, b) = (table(&a), table(&b));
    let cdc = WriterProperties::builder()
        .set_content_defined_chunking(Some(CdcOptions::default()))
        .build();
    let strata_cdc = deduplication(
        &write_strata(&a, cdc.clone(), 65_536),
        &write_strata(&b, cdc, 65_536),
    );
    let plain = WriterProperties::default();
    let strata_plain = deduplication(
        &write_strata(&a, plain.clone(), 65_536),
        &write_strata(&b, plain, 65_536),
    );
    let arrow_rs_props = parquet::file::properties::WriterProperties::builder()
        .set_content_defined_chunking(Some(parquet::file::properties::CdcOptions::default()))
        .build();
    let arrow_rs_cdc = deduplication(
        &write_arrow_rs(&a, arrow_rs_props.clone(), 65_536),
        &write_arrow_rs(&b, arrow_rs_props, 65_536),
    );
    let show = |who: &str, (pages, shared, share): (usize, usize, f64)| {
        eprintln!(
            "{who}: {shared} of {pages} data pages of the second file are in the first, {:.1}% of its page bytes",
            share * 100.0
        );
    };
    show("strata, content-defined", strata_cdc);
    show("strata, without", strata_plain);
    show("arrow-rs, content-defined", arrow_rs_cdc);
    if let Some(pyarrow_cdc) = pyarrow_deduplication(&a, &b) {
        show("pyarrow, content-defined", pyarrow_cdc);
        assert!(
            strata_cdc.2 >= pyarrow_cdc.2 - 0.05,
            "strata {strata_cdc:?}, pyarrow {pyarrow_cdc:?}"
        );
    }
    assert!(strata_cdc.2 >= 0.8, "{strata_cdc:?}");
    assert!(
        strata_cdc.2 >= strata_plain.2 + 0.3,
        "{strata_cdc:?} {strata_plain:?}"
    );
    assert!(
        strata_cdc.2 >= arrow_rs_cdc.2 - 0.05,
        "strata {strata_cdc:?}, arrow-rs {arrow_rs_cdc:?}"
    );
}

/// pyarrow's figure for the same two tables (handed over as Arrow IPC
/// files), with `use_content_defined_chunking=True` and the page index
/// on; `None` without pyarrow.
fn pyarrow_deduplication(a: &RecordBatch, b: &RecordBatch) -> Option<(usize, usize, f64)> {
    let py = python::pyarrow()?;
    let dir = std::env::temp_dir().join(format!("strata-cdc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (name, batch) in [("a", a), ("b", b)] {
        let ipc = dir.join(format!("{name}.arrow"));
        let mut writer = arrow_ipc::writer::FileWriter::try_new(
            std::fs::File::create(&ipc).unwrap(),
            &batch.schema(),
        )
        .unwrap();
        writer.write(batch).unwrap();
        writer.finish().unwrap();
        let parquet = dir.join(format!("{name}.parquet"));
        let script = r#"
import sys, pyarrow.ipc as ipc, pyarrow.parquet as pq
table = ipc.open_file(sys.argv[1]).read_all()
pq.write_table(table, sys.argv[2], use_content_defined_chunking=True, write_page_index=True)
"#;
        python::run_script(&py, script, &[ipc.as_os_str(), parquet.as_os_str()]);
        files.push(Bytes::from(std::fs::read(&parquet).unwrap()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Some(deduplication(&files[0], &files[1]))
}
