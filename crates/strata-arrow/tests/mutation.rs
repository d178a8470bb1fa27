//! The seeded mutation suite: every non-encrypted file of the
//! parquet-testing corpus (`data/` and its subfolders, and `bad_data/`),
//! corrupted a fixed number of times each with a fixed seed, read through
//! the whole Arrow reader (open, build, every batch), through the row
//! API (`SerializedFileReader`, every row of `get_row_iter`; every other
//! case also every chunk through the typed column reader) and through
//! `read_column_dictionary` for every chunk. No mutant may panic
//! or take more than [`MAX_READ`]; the peak heap of each read is bounded by
//! [`ALLOCATION_FACTOR`] times the file's size plus [`ALLOCATION_SLACK`].
//!
//! Most edits land in the footer (the Thrift metadata and its length),
//! where every offset, length and count of the file is declared: bit flips,
//! bytes set to 0, 0xFF or a random value, 4-byte little-endian integers
//! overwritten with extreme values, long varints, truncations and cut-out
//! ranges. A failure names the file and the case's seed; to replay one, set
//! `STRATA_MUTATION_FILE=<name>` and `STRATA_MUTATION_CASES` as needed.
//! `STRATA_MUTATION_CASES=<n>` runs `n` cases per file instead of the
//! default (longer local runs).
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`;
//! when it is absent the test prints "skipped" and passes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;
#[path = "../../strata-encoding/tests/support/mod.rs"]
mod support;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use bytes::Bytes;
use corpus_support::{corpus_dir, corpus_files};
use strata_arrow::ProjectionMask;
use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use strata_encoding::ByteSink;
use strata_file::metadata::ParquetStatisticsPolicy;
use strata_file::serialized_reader::SerializedFileReader;
use strata_format::FileMetaData;
use strata_format::footer::{decode_metadata, write_footer};
use strata_format::metadata::{ColumnChunk, ColumnMetaData, PageHeader, PageType};
use strata_format::thrift::{decode_prefix, encode_to_vec};
use strata_record::row::FileReader;
use support::{Rng, ThreadCounting, peak_growth};

#[global_allocator]
static ALLOC: ThreadCounting = ThreadCounting;

/// Mutants per file in the default (CI) run.
const CASES_PER_FILE: usize = 400;
/// Longest a single mutant's read may take (debug build).
const MAX_READ: Duration = Duration::from_secs(10);
/// Peak heap of one read, as a multiple of the larger of the original and
/// the mutated file's size ...
const ALLOCATION_FACTOR: usize = 32;
/// ... plus this fixed allowance (decoder batches, codec state, the Arrow
/// schema and the reader's structures).
const ALLOCATION_SLACK: usize = 1 << 20;

/// Files left out, with the reason.
const EXCLUDED: &[(&str, &str)] = &[(
    // One page of it declares (and really holds) more than 1 GiB of
    // decompressed data; the reader refuses it, but the bound above cannot
    // hold for what it legitimately allocates before refusing.
    "large_string_map.brotli.parquet",
    "legitimately decompresses to more than 1 GiB",
)];

/// Read everything: open (with the page index if asked, else with the
/// footer decode skipping the statistics of all columns but the first),
/// build, every batch. Returns whether it all read.
fn read_all(file: Bytes, batch_size: usize, page_index: bool) -> bool {
    let options = if page_index {
        ArrowReaderOptions::new().with_page_index(true)
    } else {
        let keep_first = ParquetStatisticsPolicy::skip_except(&[0]);
        ArrowReaderOptions::new()
            .with_column_stats_policy(keep_first.clone())
            .with_encoding_stats_policy(keep_first.clone())
            .with_size_stats_policy(keep_first)
    };
    let Ok(builder) = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options) else {
        return false;
    };
    let Ok(reader) = builder.with_batch_size(batch_size).build() else {
        return false;
    };
    for batch in reader {
        if batch.is_err() {
            return false;
        }
    }
    true
}

/// Read every chunk's dictionary alone (`read_column_dictionary`).
/// Returns whether they all read.
fn read_dictionaries(file: Bytes) -> bool {
    use strata_file::metadata::ParquetMetaDataReader;
    let Ok(metadata) = ParquetMetaDataReader::new().parse_and_finish(&file) else {
        return false;
    };
    let mut all = true;
    for g in 0..metadata.num_row_groups() {
        for c in 0..metadata.row_group(g).num_columns() {
            all &= ParquetMetaDataReader::read_column_dictionary(&file, &metadata, g, c).is_ok();
        }
    }
    all
}

/// Read every row through the row API (`SerializedFileReader`,
/// `get_row_iter`), leaf columns `batch_size` records at a time, printing
/// each (as a program would). Returns whether it all read.
fn read_rows(file: Bytes, batch_size: usize) -> bool {
    let Ok(reader) = SerializedFileReader::new(file) else {
        return false;
    };
    let Ok(rows) = reader.get_row_iter(None) else {
        return false;
    };
    let mut text = String::new();
    for row in rows.with_batch_size(batch_size) {
        match row {
            Ok(row) => {
                text.clear();
                text.push_str(&row.to_string());
            }
            Err(_) => return false,
        }
    }
    true
}

/// Read every column chunk through the typed column reader
/// (`RowGroupReader::get_column_reader`), `batch_size` records at a time.
/// Returns whether it all read.
fn read_columns(file: Bytes, batch_size: usize) -> bool {
    use strata_record::column_reader::ColumnReader;
    use strata_record::row::FileReader;
    fn drain<T: strata_file::data_type::DataType>(
        mut reader: strata_record::column_reader::ColumnReaderImpl<T>,
        batch_size: usize,
    ) -> bool {
        let (mut defs, mut reps, mut values) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            defs.clear();
            reps.clear();
            values.clear();
            match reader.read_records(batch_size, Some(&mut defs), Some(&mut reps), &mut values) {
                Ok((0, _, _)) => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }
    let Ok(reader) = SerializedFileReader::new(file) else {
        return false;
    };
    for g in 0..FileReader::num_row_groups(&reader) {
        let Ok(group) = reader.get_row_group(g) else {
            return false;
        };
        for c in 0..group.num_columns() {
            let read = match group.get_column_reader(c) {
                Ok(ColumnReader::BoolColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::Int32ColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::Int64ColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::Int96ColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::FloatColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::DoubleColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::ByteArrayColumnReader(r)) => drain(r, batch_size),
                Ok(ColumnReader::FixedLenByteArrayColumnReader(r)) => drain(r, batch_size),
                Err(_) => false,
            };
            if !read {
                return false;
            }
        }
    }
    true
}

/// Where the footer's Thrift metadata starts, if the tail says so.
fn metadata_start(file: &[u8]) -> Option<usize> {
    let len = file.len();
    let tail = file.get(len.checked_sub(8)?..)?;
    let meta = u32::from_le_bytes(tail[..4].try_into().ok()?) as usize;
    (len - 8).checked_sub(meta)
}

/// One corruption of `file`. Half of the edits land in the footer.
fn mutate(file: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = file.to_vec();
    let len = out.len();
    let footer = metadata_start(file).unwrap_or(len - len / 4);
    let at = |rng: &mut Rng| {
        if rng.below(2) == 0 {
            rng.below(len)
        } else {
            footer + rng.below(len - footer)
        }
    };
    match rng.below(7) {
        0 => {
            for _ in 0..1 + rng.below(4) {
                let i = at(rng);
                out[i] ^= 1 << rng.below(8);
            }
        }
        1 => {
            let value = [0x00, 0xFF, rng.next() as u8][rng.below(3)];
            for _ in 0..1 + rng.below(3) {
                let i = at(rng);
                out[i] = value;
            }
        }
        2 => {
            // A 4-byte little-endian integer set to an extreme: the footer
            // length at `len - 8` one time in four.
            let i = if rng.below(4) == 0 {
                len.saturating_sub(8)
            } else {
                at(rng).min(len.saturating_sub(4))
            };
            let extremes = [
                0u32,
                1,
                0x7FFF_FFFF,
                0x8000_0000,
                0xFFFF_FFFF,
                len as u32,
                (len as u32).wrapping_add(1),
            ];
            let v = extremes[rng.below(extremes.len())].to_le_bytes();
            let end = (i + 4).min(len);
            out[i..end].copy_from_slice(&v[..end - i]);
        }
        3 => {
            // A long varint: a Thrift length, count or field delta that
            // decodes to a huge number.
            let i = at(rng);
            let varint = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
            let end = (i + varint.len()).min(len);
            out[i..end].copy_from_slice(&varint[..end - i]);
        }
        4 => out.truncate(rng.below(len)),
        5 => {
            // Cut a range out of the middle: every offset after it is off.
            let from = at(rng);
            let to = (from + 1 + rng.below(64)).min(len);
            out.drain(from..to);
        }
        _ => {
            // The tail cut off, and the footer length kept: the metadata
            // now ends early.
            let cut = 1 + rng.below(64.min(len));
            let tail: Vec<u8> = out[len - 8..].to_vec();
            out.truncate(len.saturating_sub(cut + 8));
            out.extend_from_slice(&tail);
        }
    }
    out
}

#[test]
fn mutated_corpus_files_never_panic_hang_or_overallocate() {
    let Some(root) = corpus_dir("") else {
        return;
    };
    let cases: usize = std::env::var("STRATA_MUTATION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES_PER_FILE);
    let only = std::env::var("STRATA_MUTATION_FILE").ok();
    let mut files = Vec::new();
    corpus_files(&root.join("data"), &mut files);
    corpus_files(&root.join("bad_data"), &mut files);
    let start = Instant::now();
    let (mut total, mut read_ok) = (0usize, 0usize);
    let mut worst = (0.0f64, String::new());
    // The same over files of at least 64 KiB, where the fixed slack no
    // longer dominates.
    let mut worst_large = (0.0f64, String::new());
    let mut failures = Vec::new();
    for (index, path) in files.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if EXCLUDED.iter().any(|(n, _)| *n == name) || only.as_ref().is_some_and(|o| *o != name) {
            continue;
        }
        let original = std::fs::read(path).unwrap();
        if original.len() < 12 || original.ends_with(b"PARE") {
            continue;
        }
        for case in 0..cases {
            let seed = 0x5EED_0000_0000_0000 ^ ((index as u64) << 32) ^ case as u64 ^ 1;
            let mut rng = Rng(seed);
            let mutant = mutate(&original, &mut rng);
            let size = mutant.len().max(original.len());
            let batch_size = 1 + rng.below(2048);
            let file = Bytes::from(mutant);
            let began = Instant::now();
            let mut outcome = None;
            let peak = peak_growth(|| {
                outcome = Some(catch_unwind(AssertUnwindSafe(|| {
                    let arrow = read_all(file.clone(), batch_size, case % 2 == 0);
                    let dictionaries = read_dictionaries(file.clone());
                    // Every other case also reads column by column.
                    let columns = case % 2 == 0 || read_columns(file.clone(), batch_size);
                    read_rows(file, batch_size) && arrow && columns && dictionaries
                })));
            });
            let took = began.elapsed();
            total += 1;
            let label = format!("{name} case {case} (seed {seed:#x})");
            match outcome {
                Some(Ok(ok)) => read_ok += usize::from(ok),
                _ => failures.push(format!("{label}: panicked")),
            }
            if took > MAX_READ {
                failures.push(format!("{label}: took {took:?}"));
            }
            let peak = peak.max(0) as usize;
            let ratio = peak as f64 / size as f64;
            if ratio > worst.0 {
                worst = (ratio, format!("{label}, {peak} bytes for {size}"));
            }
            if size >= 64 << 10 && ratio > worst_large.0 {
                worst_large = (ratio, format!("{label}, {peak} bytes for {size}"));
            }
            if peak > ALLOCATION_FACTOR * size + ALLOCATION_SLACK {
                failures.push(format!(
                    "{label}: peak heap {peak} bytes for a {size}-byte file"
                ));
            }
        }
    }
    eprintln!(
        "{total} mutants of {} files: {read_ok} read in full, {} failed cleanly, \
         {} problems; largest peak heap {:.1}x the file ({}); \
         over files of 64 KiB or more {:.1}x ({}); {:?}",
        files.len(),
        total - read_ok,
        failures.len(),
        worst.0,
        worst.1,
        worst_large.0,
        worst_large.1,
        start.elapsed()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    if only.is_none() {
        assert!(total >= 2000, "only {total} mutants");
    }
}

/// One field of the metadata that declares a size, count or offset, and how
/// to set it (on every row group and column chunk) to a value.
type Setter = (&'static str, fn(&mut FileMetaData, i64));

const DECLARED: &[Setter] = &[
    ("file num_rows", |m, v| m.num_rows = v),
    ("row group num_rows", |m, v| {
        m.row_groups.iter_mut().for_each(|g| g.num_rows = v)
    }),
    ("row group total_byte_size", |m, v| {
        m.row_groups.iter_mut().for_each(|g| g.total_byte_size = v)
    }),
    ("num_values", |m, v| each_chunk(m, |c| c.num_values = v)),
    ("num_values and every num_rows", |m, v| {
        m.num_rows = v;
        m.row_groups.iter_mut().for_each(|g| g.num_rows = v);
        each_chunk(m, |c| c.num_values = v);
    }),
    ("total_compressed_size", |m, v| {
        each_chunk(m, |c| c.total_compressed_size = v)
    }),
    ("total_uncompressed_size", |m, v| {
        each_chunk(m, |c| c.total_uncompressed_size = v)
    }),
    ("data_page_offset", |m, v| {
        each_chunk(m, |c| c.data_page_offset = v)
    }),
    ("dictionary_page_offset", |m, v| {
        each_chunk(m, |c| c.dictionary_page_offset = Some(v))
    }),
    ("bloom_filter_offset", |m, v| {
        each_chunk(m, |c| c.extras_mut().bloom_filter_offset = Some(v))
    }),
    ("offset index", |m, v| {
        each_column(m, |c| {
            c.offset_index_offset = Some(v);
            c.offset_index_length = Some(v as i32);
        })
    }),
    ("column index", |m, v| {
        each_column(m, |c| {
            c.column_index_offset = Some(v);
            c.column_index_length = Some(v as i32);
        })
    }),
];

fn each_column(m: &mut FileMetaData, f: impl Fn(&mut ColumnChunk)) {
    m.row_groups
        .iter_mut()
        .flat_map(|g| &mut g.columns)
        .for_each(f);
}

fn each_chunk(m: &mut FileMetaData, f: impl Fn(&mut ColumnMetaData)) {
    each_column(m, |c| {
        if let Some(meta) = c.meta_data.as_mut() {
            f(meta);
        }
    });
}

/// Every size, count and offset the footer declares, set to extreme values
/// one field at a time (and re-encoded, so the Thrift is valid): the whole
/// Arrow read, with the page index and a large batch size, and the row
/// API's, fail cleanly or read, quickly and within the allocation bound.
#[test]
fn extreme_declared_sizes_counts_and_offsets_are_checked() {
    let Some(data) = corpus_dir("data") else {
        return;
    };
    let names = [
        "alltypes_plain.parquet",
        "alltypes_tiny_pages.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "nested_lists.snappy.parquet",
        "datapage_v2.snappy.parquet",
    ];
    let mut failures = Vec::new();
    let mut cases = 0;
    for name in names {
        let original = std::fs::read(data.join(name)).unwrap();
        let start = metadata_start(&original).unwrap();
        let meta = decode_metadata(&original[start..original.len() - 8]).unwrap();
        let len = original.len() as i64;
        for (field, set) in DECLARED {
            for value in [-1, 0, 1, len, len + 1, i32::MAX as i64, i64::MAX, i64::MIN] {
                let mut bad = meta.clone();
                set(&mut bad, value);
                let mut sink = ByteSink::new();
                write_footer(&bad, &mut sink).unwrap();
                let mut file = original[..start].to_vec();
                file.extend_from_slice(sink.as_slice());
                let size = file.len().max(original.len());
                let file = Bytes::from(file);
                // A large batch, and one as large as a caller can ask for
                // (read everything at once): neither the declared count
                // nor the batch size may size an allocation.
                for batch_size in [1 << 16, usize::MAX] {
                    let began = Instant::now();
                    let mut outcome = None;
                    let file = file.clone();
                    let peak = peak_growth(|| {
                        outcome = Some(catch_unwind(AssertUnwindSafe(|| {
                            let arrow = read_all(file.clone(), batch_size, true);
                            read_rows(file, batch_size) && arrow
                        })));
                    });
                    cases += 1;
                    let label = format!("{name}: {field} = {value}, batches of {batch_size}");
                    if !matches!(outcome, Some(Ok(_))) {
                        failures.push(format!("{label}: panicked"));
                    }
                    if began.elapsed() > MAX_READ {
                        failures.push(format!("{label}: took {:?}", began.elapsed()));
                    }
                    let peak = peak.max(0) as usize;
                    if peak > ALLOCATION_FACTOR * size + ALLOCATION_SLACK {
                        failures.push(format!("{label}: peak heap {peak} bytes for {size}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(cases, names.len() * DECLARED.len() * 8 * 2);
}

/// Peak heap bound of a read of a file whose page headers lie: 100 times
/// the file's size plus 64 MiB (docs/security.md). Page header counts are
/// checked against what the reader holds for a page
/// (`strata_record::MAX_PAGE_LEVELS`), so a lying count costs at most a
/// page's worth of levels and values.
const PAGE_ALLOCATION_FACTOR: usize = 100;
/// ... plus this.
const PAGE_ALLOCATION_SLACK: usize = 64 << 20;

/// One count or size a data page header declares, and how to set it.
type PageSetter = (&'static str, fn(&mut PageHeader, i32));

const PAGE_DECLARED: &[PageSetter] = &[
    ("num_values", |h, v| {
        if let Some(d) = h.data_page_header.as_mut() {
            d.num_values = v;
        }
        if let Some(d) = h.data_page_header_v2.as_mut() {
            d.num_values = v;
        }
    }),
    ("v2 num_nulls", |h, v| {
        if let Some(d) = h.data_page_header_v2.as_mut() {
            d.num_nulls = v;
        }
    }),
    ("v2 num_rows", |h, v| {
        if let Some(d) = h.data_page_header_v2.as_mut() {
            d.num_rows = v;
        }
    }),
    ("v2 definition_levels_byte_length", |h, v| {
        if let Some(d) = h.data_page_header_v2.as_mut() {
            d.definition_levels_byte_length = v;
        }
    }),
    ("v2 repetition_levels_byte_length", |h, v| {
        if let Some(d) = h.data_page_header_v2.as_mut() {
            d.repetition_levels_byte_length = v;
        }
    }),
    ("uncompressed_page_size", |h, v| {
        h.uncompressed_page_size = v
    }),
    ("compressed_page_size", |h, v| h.compressed_page_size = v),
];

/// Where the first data page of chunk `column` of row group `group`
/// starts, with its header and the header's length.
fn first_data_page(
    file: &[u8],
    meta: &FileMetaData,
    group: usize,
    column: usize,
) -> Option<(usize, PageHeader, usize)> {
    let chunk = meta.row_groups.get(group)?.columns.get(column)?;
    let m = chunk.meta_data.as_ref()?;
    let mut pos = match m.dictionary_page_offset {
        Some(d) if d > 0 && d < m.data_page_offset => d,
        _ => m.data_page_offset,
    } as usize;
    for _ in 0..4 {
        let (header, len) = decode_prefix::<PageHeader>(file.get(pos..)?).ok()?;
        if matches!(header.page_type, PageType::DataPage | PageType::DataPageV2) {
            return Some((pos, header, len));
        }
        pos += len + usize::try_from(header.compressed_page_size).ok()?;
    }
    None
}

/// `meta` with every offset past `at` moved by `delta` bytes and chunk
/// (`group`, `column`) `delta` bytes longer; its page index and Bloom
/// filter locations dropped (the headers are what is under test).
fn shifted(
    meta: &FileMetaData,
    at: usize,
    delta: i64,
    group: usize,
    column: usize,
) -> FileMetaData {
    let mut meta = meta.clone();
    let at = at as i64;
    for (g, rg) in meta.row_groups.iter_mut().enumerate() {
        for (c, chunk) in rg.columns.iter_mut().enumerate() {
            chunk.column_index_offset = None;
            chunk.column_index_length = None;
            chunk.offset_index_offset = None;
            chunk.offset_index_length = None;
            if let Some(m) = chunk.meta_data.as_mut() {
                m.extras_mut().bloom_filter_offset = None;
                if m.data_page_offset > at {
                    m.data_page_offset += delta;
                }
                if let Some(d) = m.dictionary_page_offset.as_mut()
                    && *d > at
                {
                    *d += delta;
                }
                if (g, c) == (group, column) {
                    m.total_compressed_size += delta;
                }
            }
        }
    }
    meta
}

/// The first data page header of each column chunk (of the first row
/// group, up to eight chunks a file) rewritten with one count or size set
/// to 2^31-1, 2^28 or -1: spliced in with the footer as it was (so later
/// offsets may be off), and with the footer's offsets moved to match (so
/// the reader reaches the page). Each mutant is read in full through the
/// Arrow reader, projected to that column, in batches of 1,024 and of 7,
/// and through the row API (every column, leaf batches of the same sizes):
/// it reads or fails cleanly, never panics or takes long, and never
/// allocates past [`PAGE_ALLOCATION_FACTOR`] times its size plus
/// [`PAGE_ALLOCATION_SLACK`].
#[test]
fn lying_page_header_counts_never_size_an_allocation() {
    let Some(data) = corpus_dir("data") else {
        return;
    };
    let names = [
        "alltypes_tiny_pages.parquet",
        "datapage_v2.snappy.parquet",
        "nested_lists.snappy.parquet",
        "delta_binary_packed.parquet",
        "delta_encoding_optional_column.parquet",
        "delta_byte_array.parquet",
        "data_index_bloom_encoding_stats.parquet",
    ];
    let mut failures = Vec::new();
    let (mut cases, mut read_ok, mut worst) = (0usize, 0usize, 0usize);
    for name in names {
        let original = std::fs::read(data.join(name)).unwrap();
        let start = metadata_start(&original).unwrap();
        let meta = decode_metadata(&original[start..original.len() - 8]).unwrap();
        let columns = meta.row_groups[0].columns.len().min(8);
        for column in 0..columns {
            let (at, header, len) = first_data_page(&original, &meta, 0, column)
                .unwrap_or_else(|| panic!("{name}: no data page in column {column}"));
            for (field, set) in PAGE_DECLARED {
                for value in [i32::MAX, 1 << 28, -1] {
                    let mut bad = header.clone();
                    set(&mut bad, value);
                    let new_header = encode_to_vec(&bad);
                    let mut body = original[..at].to_vec();
                    body.extend_from_slice(&new_header);
                    body.extend_from_slice(&original[at + len..start]);
                    let delta = new_header.len() as i64 - len as i64;
                    let footers = [
                        ("footer kept", original[start..].to_vec()),
                        ("offsets moved", {
                            let mut sink = ByteSink::new();
                            write_footer(&shifted(&meta, at, delta, 0, column), &mut sink).unwrap();
                            sink.as_slice().to_vec()
                        }),
                    ];
                    for (how, footer) in footers {
                        let mut file = body.clone();
                        file.extend_from_slice(&footer);
                        let size = file.len().max(original.len());
                        let file = Bytes::from(file);
                        for batch_size in [1024, 7] {
                            let label = format!(
                                "{name} column {column}: {field} = {value}, {how}, \
                                 batches of {batch_size}"
                            );
                            let began = Instant::now();
                            let mut outcome = None;
                            let peak = peak_growth(|| {
                                outcome = Some(catch_unwind(AssertUnwindSafe(|| {
                                    let arrow = read_column(file.clone(), column, batch_size);
                                    read_rows(file.clone(), batch_size) && arrow
                                })));
                            });
                            cases += 1;
                            match outcome {
                                Some(Ok(ok)) => read_ok += usize::from(ok),
                                _ => failures.push(format!("{label}: panicked")),
                            }
                            if began.elapsed() > MAX_READ {
                                failures.push(format!("{label}: took {:?}", began.elapsed()));
                            }
                            let peak = peak.max(0) as usize;
                            worst = worst.max(peak);
                            if peak > PAGE_ALLOCATION_FACTOR * size + PAGE_ALLOCATION_SLACK {
                                failures
                                    .push(format!("{label}: peak heap {peak} bytes for {size}"));
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{cases} reads of lying page headers: {read_ok} read in full, {} failed cleanly, \
         {} problems; largest peak heap {worst} bytes",
        cases - read_ok,
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(cases >= 1000, "only {cases} cases");
}

/// Read leaf `column` of `file` in full; whether it all read.
fn read_column(file: Bytes, column: usize, batch_size: usize) -> bool {
    let Ok(builder) = ParquetRecordBatchReaderBuilder::try_new(file) else {
        return false;
    };
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [column]);
    let Ok(reader) = builder
        .with_projection(mask)
        .with_batch_size(batch_size)
        .build()
    else {
        return false;
    };
    reader.into_iter().all(|batch| batch.is_ok())
}

/// The corpus's encrypted files, read with their keys (the README's: the
/// footer key `0123456789012345`, the column keys `1234567890123450` and
/// `1234567890123451`, 32-digit ones for `aes256/`), mutated as above:
/// never a panic, a hang or an allocation beyond the bound. Where every
/// column is encrypted under AES-GCM (uniform encryption), a mutant that
/// reads gives the original's values: an authenticated module cannot
/// change unnoticed. (AES-CTR pages carry no tag, and plaintext columns no
/// authentication, so other files may read changed values.)
#[cfg(feature = "encryption")]
#[test]
fn mutated_encrypted_files_never_panic_hang_overallocate_or_lie() {
    use std::sync::Arc;
    use strata_arrow::encryption::decrypt::FileDecryptionProperties;
    let Some(root) = corpus_dir("data") else {
        return;
    };
    let key_256 = |last: u8| {
        let mut key = b"1234567890123456789012345678901".to_vec();
        key.push(last);
        key
    };
    let columns_128 = vec![
        ("double_field", b"1234567890123450".to_vec()),
        ("float_field", b"1234567890123451".to_vec()),
    ];
    let columns_256: Vec<(&str, Vec<u8>)> = [
        "double_field",
        "float_field",
        "boolean_field",
        "int32_field",
        "ba_field",
        "flba_field",
        "int64_field.list.element",
        "int96_field",
    ]
    .into_iter()
    .zip(b'2'..)
    .map(|(name, last)| (name, key_256(last)))
    .collect();
    let footer_256 = b"01234567890123456789012345678901".to_vec();
    /// A file, its footer key, its column keys, the AAD prefix to supply,
    /// and whether every module of it is authenticated.
    type Keyed<'a> = (
        &'a str,
        Vec<u8>,
        Vec<(&'a str, Vec<u8>)>,
        Option<&'a [u8]>,
        bool,
    );
    let files: Vec<Keyed<'_>> = vec![
        (
            "uniform_encryption.parquet.encrypted",
            b"0123456789012345".to_vec(),
            vec![],
            None,
            true,
        ),
        (
            "encrypt_columns_and_footer.parquet.encrypted",
            b"0123456789012345".to_vec(),
            columns_128.clone(),
            None,
            false,
        ),
        (
            "encrypt_columns_and_footer_ctr.parquet.encrypted",
            b"0123456789012345".to_vec(),
            columns_128.clone(),
            None,
            false,
        ),
        (
            "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
            b"0123456789012345".to_vec(),
            columns_128.clone(),
            Some(b"tester"),
            false,
        ),
        (
            "encrypt_columns_plaintext_footer.parquet.encrypted",
            b"0123456789012345".to_vec(),
            columns_128,
            None,
            false,
        ),
        (
            "aes256/uniform_encryption.parquet.encrypted",
            footer_256.clone(),
            vec![],
            None,
            true,
        ),
        (
            "aes256/encrypt_columns_and_footer.parquet.encrypted",
            footer_256.clone(),
            columns_256.clone(),
            None,
            true,
        ),
        (
            "aes256/encrypt_columns_plaintext_footer.parquet.encrypted",
            footer_256,
            columns_256,
            None,
            true,
        ),
    ];
    let cases: usize = std::env::var("STRATA_MUTATION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES_PER_FILE / 2);
    let read = |file: Bytes, properties: &Arc<FileDecryptionProperties>, batch_size: usize| {
        let options = ArrowReaderOptions::new()
            .with_page_index(true)
            .with_file_decryption_properties(Arc::clone(properties));
        let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).ok()?;
        let reader = builder.with_batch_size(batch_size).build().ok()?;
        reader.collect::<Result<Vec<_>, _>>().ok()
    };
    let (mut total, mut read_ok) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (index, (name, footer, columns, prefix, authenticated)) in files.into_iter().enumerate() {
        let original = std::fs::read(root.join(name)).unwrap();
        let mut b = FileDecryptionProperties::builder(footer);
        for (column, key) in columns {
            b = b.with_column_key(column, key);
        }
        if let Some(prefix) = prefix {
            b = b.with_aad_prefix(prefix.to_vec());
        }
        let properties = b.build().unwrap();
        let want = read(Bytes::from(original.clone()), &properties, 1024)
            .unwrap_or_else(|| panic!("{name} does not read unchanged"));
        let want = arrow_select::concat::concat_batches(&want[0].schema(), &want).unwrap();
        for case in 0..cases {
            let seed = 0xE5C2_0000_0000_0000 ^ ((index as u64) << 32) ^ case as u64;
            let mut rng = Rng(seed);
            let mutant = mutate(&original, &mut rng);
            let size = mutant.len().max(original.len());
            let batch_size = 1 + rng.below(64);
            let began = Instant::now();
            let mut outcome = None;
            let peak = peak_growth(|| {
                outcome = Some(catch_unwind(AssertUnwindSafe(|| {
                    read(Bytes::from(mutant), &properties, batch_size)
                })));
            });
            total += 1;
            let label = format!("{name} case {case} (seed {seed:#x})");
            match outcome {
                Some(Ok(Some(batches))) => {
                    read_ok += 1;
                    let got = arrow_select::concat::concat_batches(&want.schema(), &batches);
                    if authenticated && got.as_ref().ok() != Some(&want) {
                        failures.push(format!("{label}: read other values"));
                    }
                }
                Some(Ok(None)) => {}
                _ => failures.push(format!("{label}: panicked")),
            }
            if began.elapsed() > MAX_READ {
                failures.push(format!("{label}: took {:?}", began.elapsed()));
            }
            let peak = peak.max(0) as usize;
            if peak > ALLOCATION_FACTOR * size + ALLOCATION_SLACK {
                failures.push(format!(
                    "{label}: peak heap {peak} bytes for a {size}-byte file"
                ));
            }
        }
    }
    eprintln!(
        "{total} encrypted mutants: {read_ok} read, {} problems",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

// ---------------------------------------------------------------------
// Hostile Variant values.
//
// A VARIANT column stores its values as bytes the Parquet reader does not
// look into (`metadata` and `value` binaries, at every depth of a shredded
// column). The reader must read any such bytes without a panic, and the
// validating paths must refuse hostile ones with an error:
// `VariantArray::try_new`, strata's `unshred_variant` (which checks what
// the Variant crate's takes on trust), and `Variant::try_new` on each
// unshredded row, walked to the bottom, and `VariantArray::value` on it. Both the corpus's
// `shredded_variant/` files mutated as files, and their Variant bytes
// mutated as values (written back with strata's writer, so the file is
// sound and only the values are hostile), go through the reader and those
// paths.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray, RecordBatch, StructArray,
};
use arrow_schema::DataType;
use parquet_variant::Variant;
use parquet_variant_compute::VariantArray;
use strata_arrow::variant::unshred_variant;

/// Mutants per `shredded_variant/` file, as files and as values
/// (`STRATA_MUTATION_CASES` overrides it too).
const VARIANT_CASES_PER_FILE: usize = 100;

/// Every column of every batch of `file` read by strata, or `None` where
/// the read fails (cleanly).
fn read_batches(file: Bytes) -> Option<Vec<RecordBatch>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .ok()?
        .with_batch_size(64)
        .build()
        .ok()?;
    reader.collect::<Result<Vec<_>, _>>().ok()
}

/// Walk every part of a Variant value (as a program printing it would).
fn walk(value: &Variant<'_, '_>) -> usize {
    match value {
        Variant::Object(object) => object.iter().map(|(_, v)| 1 + walk(&v)).sum(),
        Variant::List(list) => list.iter().map(|v| 1 + walk(&v)).sum(),
        other => format!("{other:?}").len().min(1),
    }
}

/// The validating paths over one Variant column; whether they all took it.
fn validate_variant_column(column: &ArrayRef) -> bool {
    let Ok(array) = VariantArray::try_new(column) else {
        return false;
    };
    let Ok(unshredded) = unshred_variant(&array) else {
        return false;
    };
    let (metadata, value) = (unshredded.metadata_column(), unshredded.value_column());
    let mut all = true;
    for i in 0..unshredded.len() {
        if unshredded.is_null(i) || value.is_null(i) {
            continue;
        }
        let (Some(m), Some(v)) = (binary_at(metadata, i), binary_at(value, i)) else {
            return false;
        };
        match Variant::try_new(m, v) {
            Ok(variant) => {
                walk(&variant);
                // What strata's unshred_variant returned is valid: the
                // panicking accessor takes it.
                walk(&unshredded.value(i));
            }
            Err(_) => all = false,
        }
    }
    all
}

fn binary_at(array: &ArrayRef, i: usize) -> Option<&[u8]> {
    match array.data_type() {
        DataType::Binary => Some(array.as_binary::<i32>().value(i)),
        DataType::LargeBinary => Some(array.as_binary::<i64>().value(i)),
        DataType::BinaryView => Some(array.as_binary_view().value(i)),
        _ => None,
    }
}

/// `array` with the bytes of one row of its `target`-th binary leaf (in
/// depth-first order, struct and list children included) corrupted;
/// `seen` counts the leaves passed.
fn mutate_binary_leaf(
    array: &ArrayRef,
    target: usize,
    seen: &mut usize,
    rng: &mut Rng,
) -> ArrayRef {
    match array.data_type() {
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
            let index = *seen;
            *seen += 1;
            if index != target || array.is_empty() {
                return array.clone();
            }
            let row = rng.below(array.len());
            let rows: Vec<Option<Vec<u8>>> = (0..array.len())
                .map(|i| {
                    let bytes = array
                        .is_valid(i)
                        .then(|| binary_at(array, i).unwrap().to_vec());
                    if i == row {
                        Some(support::mutate(&bytes.unwrap_or_default(), rng))
                    } else {
                        bytes
                    }
                })
                .collect();
            match array.data_type() {
                DataType::Binary => Arc::new(BinaryArray::from_iter(rows)),
                DataType::LargeBinary => Arc::new(LargeBinaryArray::from_iter(rows)),
                _ => Arc::new(BinaryViewArray::from_iter(rows)),
            }
        }
        DataType::Struct(fields) => {
            let s = array.as_struct();
            let columns = s
                .columns()
                .iter()
                .map(|c| mutate_binary_leaf(c, target, seen, rng))
                .collect();
            Arc::new(StructArray::new(
                fields.clone(),
                columns,
                s.nulls().cloned(),
            ))
        }
        DataType::List(field) => {
            let l = array.as_list::<i32>();
            let values = mutate_binary_leaf(l.values(), target, seen, rng);
            Arc::new(arrow_array::ListArray::new(
                field.clone(),
                l.offsets().clone(),
                values,
                l.nulls().cloned(),
            ))
        }
        _ => array.clone(),
    }
}

fn count_binary_leaves(data_type: &DataType) -> usize {
    match data_type {
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => 1,
        DataType::Struct(fields) => fields
            .iter()
            .map(|f| count_binary_leaves(f.data_type()))
            .sum(),
        DataType::List(field) => count_binary_leaves(field.data_type()),
        _ => 0,
    }
}

fn write_batch(batch: &RecordBatch) -> Bytes {
    let mut out = Vec::new();
    let mut writer = strata_arrow::ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

#[test]
fn mutated_variant_files_and_values_never_panic() {
    let Some(dir) = corpus_dir("shredded_variant") else {
        return;
    };
    let cases: usize = std::env::var("STRATA_MUTATION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(VARIANT_CASES_PER_FILE);
    let mut files = Vec::new();
    corpus_files(&dir, &mut files);
    let (mut total, mut validated) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (index, path) in files.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let original = std::fs::read(path).unwrap();
        let Some(batches) = read_batches(Bytes::from(original.clone())) else {
            failures.push(format!("{name}: the unmutated file does not read"));
            continue;
        };
        for case in 0..cases {
            let seed = 0x7A41_0000_0000_0000 ^ ((index as u64) << 32) ^ case as u64;
            let mut rng = Rng(seed);
            // As a file: the footer and pages corrupted.
            let mutant = Bytes::from(mutate(&original, &mut rng));
            // As values: one row of one Variant binary corrupted, written
            // back whole.
            let value_mutant = batches.first().and_then(|batch| {
                let column = batch.column_by_name("var")?;
                let leaves = count_binary_leaves(column.data_type());
                let target = rng.below(leaves);
                let mutated = mutate_binary_leaf(column, target, &mut 0, &mut rng);
                let mut columns = batch.columns().to_vec();
                columns[batch.schema().index_of("var").ok()?] = mutated;
                let schema = Arc::new(arrow_schema::Schema::new(
                    batch
                        .schema()
                        .fields()
                        .iter()
                        .zip(&columns)
                        .map(|(f, c)| f.as_ref().clone().with_data_type(c.data_type().clone()))
                        .collect::<Vec<_>>(),
                ));
                Some(write_batch(&RecordBatch::try_new(schema, columns).ok()?))
            });
            for (kind, file) in [("file", Some(mutant)), ("value", value_mutant)] {
                let Some(file) = file else { continue };
                total += 1;
                let began = Instant::now();
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    read_batches(file).is_some_and(|batches| {
                        batches
                            .iter()
                            .all(|b| b.column_by_name("var").is_some_and(validate_variant_column))
                    })
                }));
                let label = format!("{name} {kind} case {case} (seed {seed:#x})");
                match outcome {
                    Ok(ok) => validated += usize::from(ok),
                    Err(panic) => failures.push(format!(
                        "{label}: panicked: {:?}",
                        panic
                            .downcast_ref::<String>()
                            .map(String::as_str)
                            .or_else(|| panic.downcast_ref::<&str>().copied())
                    )),
                }
                if began.elapsed() > MAX_READ {
                    failures.push(format!("{label}: took {:?}", began.elapsed()));
                }
            }
        }
    }
    eprintln!(
        "{total} Variant mutants of {} files: {validated} read and validated in full, {} refused \
         with an error, {} problems",
        files.len(),
        total - validated,
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(total >= 5000, "only {total} mutants");
}

/// One unshredded Variant column of `rows` (metadata, value) pairs, written
/// by strata and read back.
fn variant_file(rows: &[(Vec<u8>, Vec<u8>)]) -> Bytes {
    let metadata: ArrayRef = Arc::new(BinaryViewArray::from_iter_values(rows.iter().map(|r| &r.0)));
    let value: ArrayRef = Arc::new(BinaryViewArray::from_iter_values(rows.iter().map(|r| &r.1)));
    let var = StructArray::from(vec![
        (
            Arc::new(arrow_schema::Field::new(
                "metadata",
                DataType::BinaryView,
                false,
            )),
            metadata,
        ),
        (
            Arc::new(arrow_schema::Field::new(
                "value",
                DataType::BinaryView,
                false,
            )),
            value,
        ),
    ]);
    let batch = RecordBatch::try_from_iter([("var", Arc::new(var) as ArrayRef)]).unwrap();
    write_batch(&batch)
}

#[test]
fn hostile_variant_bytes_are_refused_not_panicked_on() {
    // The empty metadata: version 1, no field names.
    let empty = vec![0x01, 0x00, 0x00];
    // An array header (basic type 3) with one-byte offsets and ids, and a
    // one-byte element count.
    let array_of = |elements: &[Vec<u8>]| {
        let mut out = vec![0x03, elements.len() as u8];
        let mut offset = 0u8;
        out.push(0);
        for e in elements {
            offset = offset.wrapping_add(e.len() as u8);
            out.push(offset);
        }
        elements.iter().for_each(|e| out.extend_from_slice(e));
        out
    };
    let mut deep = vec![0x00]; // Variant null
    for _ in 0..200 {
        deep = array_of(&[deep]);
    }
    // Deeper than any one-byte offset allows: a chain of arrays each
    // claiming one element that starts at offset 0 and runs to the end.
    let mut very_deep = Vec::new();
    for _ in 0..100_000 {
        very_deep.extend_from_slice(&[0x03, 0x01, 0x00, 0xFF]);
    }
    let cases: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
        // A long string (primitive type 16) whose length runs past the value.
        (
            "string length past the buffer",
            empty.clone(),
            vec![0x40, 0xFF, 0xFF, 0x00, 0x00, b'a'],
        ),
        // A short string (basic type 1) of length 20 holding 2 bytes.
        (
            "short string past the buffer",
            empty.clone(),
            vec![(20 << 2) | 1, b'a', b'b'],
        ),
        // An array whose offsets go backwards.
        (
            "array offsets out of order",
            empty.clone(),
            vec![0x03, 0x02, 0x00, 0x02, 0x01, 0x00, 0x00],
        ),
        // An object naming field id 5 with an empty dictionary.
        (
            "object field id past the dictionary",
            empty.clone(),
            vec![0x02, 0x01, 0x05, 0x00, 0x01, 0x00],
        ),
        // Metadata whose dictionary offsets run past its bytes.
        (
            "metadata offsets past the buffer",
            vec![0x01, 0x02, 0x00, 0x40, 0x80],
            vec![0x00],
        ),
        // Metadata of an unknown version.
        ("metadata version 7", vec![0x07, 0x00, 0x00], vec![0x00]),
        ("nesting 200 deep", empty.clone(), deep),
        ("nesting 100,000 deep", empty.clone(), very_deep),
        ("empty value", empty.clone(), Vec::new()),
        ("empty metadata", Vec::new(), vec![0x00]),
    ];
    for (what, metadata, value) in cases {
        // The bytes themselves, then as read from a file strata wrote.
        let direct = catch_unwind(AssertUnwindSafe(|| {
            Variant::try_new(&metadata, &value).is_ok()
        }));
        assert_eq!(direct.ok(), Some(false), "{what}: not refused");
        let file = variant_file(&[(metadata, value)]);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let batches = read_batches(file).expect("the file itself is sound");
            validate_variant_column(batches[0].column(0))
        }));
        assert_eq!(
            outcome.ok(),
            Some(false),
            "{what}: panicked or was validated"
        );
    }
}

#[test]
fn a_shredded_field_missing_from_its_dictionary_is_an_error() {
    use arrow_schema::{Field, Fields};
    use parquet_variant::VariantBuilderExt;
    use parquet_variant_compute::{VariantArrayBuilder, shred_variant};
    let int_a = || Fields::from(vec![Field::new("a", DataType::Int64, true)]);
    // Values and the shredding that puts field `a` in a typed column: at
    // the top, in an object nested in another, and in list elements.
    let mut top = VariantArrayBuilder::new(1);
    top.new_object().with_field("a", 1i64).finish();
    let mut nested = VariantArrayBuilder::new(1);
    {
        let mut object = nested.new_object();
        object.new_object("d").with_field("a", 2i64).finish();
        object.finish();
    }
    let mut listed = VariantArrayBuilder::new(1);
    {
        let mut list = listed.new_list();
        list.new_object().with_field("a", 3i64).finish();
        list.finish();
    }
    // Metadata of no names, and of the one name "d".
    let no_names = vec![0x01u8, 0x00, 0x00];
    let only_d = vec![0x01u8, 0x01, 0x00, 0x01, b'd'];
    let cases = [
        (
            "top-level field",
            top.build(),
            DataType::Struct(int_a()),
            no_names.clone(),
        ),
        (
            "field of a nested object",
            nested.build(),
            DataType::Struct(vec![Field::new("d", DataType::Struct(int_a()), true)].into()),
            only_d,
        ),
        (
            "field of a list element",
            listed.build(),
            DataType::new_list(DataType::Struct(int_a()), true),
            no_names,
        ),
    ];
    for (what, values, shape, metadata) in cases {
        let shredded = shred_variant(&values, &shape).unwrap();
        // The same row with a metadata dictionary that lacks "a".
        let inner = shredded.inner();
        let empty: ArrayRef = Arc::new(BinaryViewArray::from_iter_values([metadata]));
        let columns = inner
            .fields()
            .iter()
            .zip(inner.columns())
            .map(|(f, c)| {
                if f.name() == "metadata" {
                    empty.clone()
                } else {
                    c.clone()
                }
            })
            .collect();
        let hostile: ArrayRef = Arc::new(StructArray::new(
            inner.fields().clone(),
            columns,
            inner.nulls().cloned(),
        ));
        let file = write_batch(&RecordBatch::try_from_iter([("var", hostile)]).unwrap());
        let read = read_batches(file).unwrap();
        let array = VariantArray::try_new(read[0].column(0)).unwrap();
        let error = unshred_variant(&array).unwrap_err();
        assert!(error.to_string().contains("'a'"), "{what}: {error}");
        // The Variant crate's own unshred_variant panics on it, which is
        // why strata's checks first; this fails once the crate answers an
        // error instead.
        let theirs = catch_unwind(AssertUnwindSafe(|| {
            parquet_variant_compute::unshred_variant(&array)
        }));
        assert!(
            theirs.is_err(),
            "{what}: parquet-variant-compute no longer panics here"
        );
    }
}
