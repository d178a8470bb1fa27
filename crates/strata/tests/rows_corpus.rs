//! The row API over the parquet-testing corpus, strata against arrow-rs
//! 60.1: every file of `data/` (and its subfolders) is opened with
//! `SerializedFileReader` by both crates and its rows printed (`{}` of
//! each `Row`, and its `to_json_value()`) until the end or the first
//! error; the texts must be equal,
//! except for the files listed in [`DIFFERENCES`] with the reason (and
//! those of [`STRATA_ONLY`], which only strata reads here). Every
//! file of `bad_data/` gives an error or rows, never a panic.
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`;
//! when it is absent the tests print that they skipped, and pass.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// Files whose rows strata prints differently from arrow-rs, and why.
const DIFFERENCES: &[(&str, &str)] = &[
    (
        "datapage_v1-corrupt-checksum.parquet",
        "a page's CRC does not match: arrow-rs built with its `crc` feature (as here) \
         fails on it; strata checks CRCs when asked \
         (ReaderProperties::set_page_crc_verification) and reads the file by default",
    ),
    (
        "rle-dict-uncompressed-corrupt-checksum.parquet",
        "a page's CRC does not match (as above)",
    ),
    (
        "dict-page-offset-zero.parquet",
        "arrow-rs 60.1 cannot decode its footer (a list whose element type is written \
         as I16 where I64 is expected); strata reads a list of any declared integer type",
    ),
    (
        "int96_from_spark.parquet",
        "timestamps outside chrono's years (-262144 to 262143): arrow-rs panics printing \
         them (\"No such local time\"), strata prints them in the calendar carried on; \
         the rows before agree",
    ),
];

/// Files only strata reads here, and why: strata must give rows or an
/// error, never panic.
const STRATA_ONLY: &[(&str, &str)] = &[(
    "large_string_map.brotli.parquet",
    "one page decompresses to more than 1 GiB: strata refuses it at its page size \
     limit (PageReaderOptions::max_page_size, docs/security.md); arrow-rs reads it, \
     which on a loaded machine may fail for want of memory, so its reading is not \
     a stable reference",
)];

/// Most rows printed per file (the largest corpus files have more; the
/// first rows of every row group are compared up to this many in all).
const MAX_ROWS: usize = 20_000;

/// What one crate made of a file: the rows' text, and how it ended.
#[derive(Debug, PartialEq)]
enum Reading {
    /// Every row (up to [`MAX_ROWS`]).
    Rows(Vec<String>),
    /// The rows before an error, and the error.
    Failed(Vec<String>, String),
    /// The file could not be opened.
    NotOpened(String),
    /// The crate panicked, after these rows.
    Panicked(Vec<String>, String),
}

impl Reading {
    fn rows(&self) -> &[String] {
        match self {
            Reading::Rows(rows) | Reading::Failed(rows, _) | Reading::Panicked(rows, _) => rows,
            _ => &[],
        }
    }
}

/// Run `read`, which pushes each row's text to the vector it is given;
/// a panic keeps the rows pushed before it.
fn guarded(read: impl FnOnce(&mut Vec<String>) -> Reading) -> Reading {
    let mut rows = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| read(&mut rows)));
    result.unwrap_or_else(|p| Reading::Panicked(rows, corpus::panic_text(p)))
}

/// The rows of `path` through `parquet` (arrow-rs).
fn read_arrow_rs(path: &Path) -> Reading {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    guarded(|rows| {
        let reader = match SerializedFileReader::new(std::fs::File::open(path).unwrap()) {
            Ok(r) => r,
            Err(e) => return Reading::NotOpened(e.to_string()),
        };
        let iter = match reader.get_row_iter(None) {
            Ok(iter) => iter,
            Err(e) => return Reading::Failed(std::mem::take(rows), e.to_string()),
        };
        for row in iter.take(MAX_ROWS) {
            match row {
                Ok(row) => rows.push(format!("{row}\n      json {}", row.to_json_value())),
                Err(e) => return Reading::Failed(std::mem::take(rows), e.to_string()),
            }
        }
        Reading::Rows(std::mem::take(rows))
    })
}

/// The rows of `path` through `strata`, written as the arrow-rs program is.
fn read_strata(path: &Path) -> Reading {
    use strata::file::reader::{FileReader, SerializedFileReader};
    guarded(|rows| {
        let reader = match SerializedFileReader::new(std::fs::File::open(path).unwrap()) {
            Ok(r) => r,
            Err(e) => return Reading::NotOpened(e.to_string()),
        };
        let iter = match reader.get_row_iter(None) {
            Ok(iter) => iter,
            Err(e) => return Reading::Failed(std::mem::take(rows), e.to_string()),
        };
        for row in iter.take(MAX_ROWS) {
            match row {
                Ok(row) => rows.push(format!("{row}\n      json {}", row.to_json_value())),
                Err(e) => return Reading::Failed(std::mem::take(rows), e.to_string()),
            }
        }
        Reading::Rows(std::mem::take(rows))
    })
}

/// Whether two readings agree: the same rows, ended the same way (error
/// texts may differ).
fn agree(a: &Reading, b: &Reading) -> bool {
    match (a, b) {
        (Reading::Rows(x), Reading::Rows(y)) => x == y,
        (Reading::Failed(x, _), Reading::Failed(y, _)) => x == y,
        (Reading::NotOpened(_), Reading::NotOpened(_)) => true,
        _ => false,
    }
}

/// How a reading ended, in a line.
fn summary(reading: &Reading) -> String {
    match reading {
        Reading::Rows(rows) => format!("{} rows", rows.len()),
        Reading::Failed(rows, e) => format!("{} rows, then error: {e}", rows.len()),
        Reading::NotOpened(e) => format!("not opened: {e}"),
        Reading::Panicked(rows, p) => format!("{} rows, then panicked: {p}", rows.len()),
    }
}

/// A short account of how two readings differ.
fn describe(arrow_rs: &Reading, strata: &Reading) -> String {
    let first = arrow_rs
        .rows()
        .iter()
        .zip(strata.rows())
        .position(|(a, b)| a != b);
    let row = match first {
        Some(i) => format!(
            "\n    row {i}:\n      arrow-rs {}\n      strata   {}",
            arrow_rs.rows()[i],
            strata.rows()[i]
        ),
        None => String::new(),
    };
    format!(
        "arrow-rs: {}; strata: {}{row}",
        summary(arrow_rs),
        summary(strata)
    )
}

#[test]
fn every_corpus_file_prints_the_rows_arrow_rs_prints() {
    let Some(data) = corpus::corpus_dir("data") else {
        return;
    };
    let files = corpus::parquet_files_under(&data);
    let (mut equal, mut listed) = (0usize, 0usize);
    let mut unexpected = Vec::new();
    let mut panics = Vec::new();
    let mut strata_only = 0usize;
    for path in &files {
        let name = path.strip_prefix(&data).unwrap().display().to_string();
        let strata = read_strata(path);
        if let Reading::Panicked(_, p) = &strata {
            panics.push(format!("{name}: {p}"));
            continue;
        }
        if let Some((_, reason)) = STRATA_ONLY.iter().find(|(n, _)| *n == name) {
            strata_only += 1;
            println!("strata  {name}: {}; {reason}", summary(&strata));
            continue;
        }
        let arrow_rs = read_arrow_rs(path);
        let reason = DIFFERENCES.iter().find(|(n, _)| *n == name).map(|(_, r)| r);
        if agree(&arrow_rs, &strata) {
            equal += 1;
            println!("equal   {name} ({} rows)", strata.rows().len());
            if reason.is_some() {
                unexpected.push(format!("{name}: listed as different, prints the same"));
            }
        } else if let Some(reason) = reason {
            // Where both printed a row, the rows agree.
            let common = arrow_rs.rows().iter().zip(strata.rows());
            if let Some(i) = common.clone().position(|(a, b)| a != b) {
                unexpected.push(format!(
                    "{name} (listed): row {i} differs: {}",
                    describe(&arrow_rs, &strata)
                ));
            }
            listed += 1;
            println!(
                "differs {name}: {reason}\n  {}",
                describe(&arrow_rs, &strata)
            );
        } else {
            unexpected.push(format!("{name}: {}", describe(&arrow_rs, &strata)));
        }
    }
    println!(
        "{} files: {equal} equal, {listed} differ as listed, {strata_only} read by strata \
         only, {} unexpected",
        files.len(),
        unexpected.len()
    );
    assert!(panics.is_empty(), "strata panicked:\n{}", panics.join("\n"));
    assert!(
        unexpected.is_empty(),
        "unexpected differences:\n{}",
        unexpected.join("\n")
    );
    assert!(equal >= 40, "only {equal} files compared equal");
}

#[test]
fn bad_files_give_errors_not_panics() {
    let Some(bad) = corpus::corpus_dir("bad_data") else {
        return;
    };
    let files = corpus::parquet_files_under(&bad);
    assert!(!files.is_empty());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let reading = read_strata(path);
        let arrow_rs = read_arrow_rs(path);
        println!(
            "{name}\n  strata:   {}\n  arrow-rs: {}",
            summary(&reading),
            summary(&arrow_rs)
        );
        assert!(
            !matches!(reading, Reading::Panicked(..)),
            "{name}: strata panicked: {reading:?}"
        );
    }
}

/// With page CRC verification asked for, strata fails on the corpus's
/// corrupt-checksum files where arrow-rs (built with `crc`) does, after
/// the same rows.
#[test]
fn corrupt_checksums_fail_as_in_arrow_rs_when_verified() {
    use strata::file::properties::ReaderProperties;
    use strata::file::reader::{FileReader, SerializedFileReader};
    use strata::file::serialized_reader::ReadOptionsBuilder;
    let Some(data) = corpus::corpus_dir("data") else {
        return;
    };
    for name in [
        "datapage_v1-corrupt-checksum.parquet",
        "rle-dict-uncompressed-corrupt-checksum.parquet",
    ] {
        let path = data.join(name);
        let arrow_rs = read_arrow_rs(&path);
        let strata = guarded(|rows| {
            let props = ReaderProperties::builder()
                .set_page_crc_verification(true)
                .build();
            let options = ReadOptionsBuilder::new()
                .with_reader_properties(props)
                .build();
            let file = std::fs::File::open(&path).unwrap();
            let reader = SerializedFileReader::new_with_options(file, options).unwrap();
            for row in reader.get_row_iter(None).unwrap() {
                match row {
                    Ok(row) => rows.push(format!("{row}\n      json {}", row.to_json_value())),
                    Err(e) => return Reading::Failed(std::mem::take(rows), e.to_string()),
                }
            }
            Reading::Rows(std::mem::take(rows))
        });
        assert!(
            matches!(strata, Reading::Failed(..)),
            "{name}: {}",
            summary(&strata)
        );
        assert!(
            agree(&arrow_rs, &strata),
            "{name}: {}",
            describe(&arrow_rs, &strata)
        );
    }
}
