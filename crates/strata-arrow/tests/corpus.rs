//! Every file of the parquet-testing corpus through the Arrow API: no file
//! may panic or hang the reader; readable files must yield their footer's
//! row count; `bad_data` files give errors or read, never panic.
//!
//! (Value-by-value comparison with pyarrow's reading of the same files is
//! in `interop.rs`.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;

use std::path::{Path, PathBuf};

use bytes::Bytes;
use corpus_support::corpus_dir;
use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Parquet files under `dir` and its subfolders (`*.parquet`, and
/// `*.parquet.encrypted`).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".parquet") || name.ends_with(".parquet.encrypted") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Read a whole file; the number of rows, or the error.
fn read(path: &Path) -> Result<(usize, i64), String> {
    let data = Bytes::from(std::fs::read(path).unwrap());
    let builder = ParquetRecordBatchReaderBuilder::try_new(data).map_err(|e| e.to_string())?;
    // The row groups' counts (one writer left the file's count at 0).
    let expected = builder
        .metadata()
        .row_groups()
        .iter()
        .map(|rg| rg.num_rows)
        .sum();
    let reader = builder
        .with_batch_size(1000)
        .build()
        .map_err(|e| e.to_string())?;
    let mut rows = 0;
    for batch in reader {
        rows += batch.map_err(|e| e.to_string())?.num_rows();
    }
    Ok((rows, expected))
}

/// Files the Arrow reader cannot read yet, with the reason. Encrypted
/// files are counted separately.
const KNOWN_FAILURES: &[(&str, &str)] = &[
    // Its dictionary page claims more values than it holds (the corpus
    // README says the file is malformed on purpose).
    ("nation.dict-malformed.parquet", "malformed dictionary page"),
    // A single page larger than strata's 1 GiB page limit.
    (
        "large_string_map.brotli.parquet",
        "page above the 1 GiB limit",
    ),
];

#[test]
fn every_corpus_file_reads_through_arrow_or_fails_cleanly() {
    let Some(dir) = corpus_dir("data") else {
        return;
    };
    let mut ok = 0;
    let mut encrypted = 0;
    let mut failures = Vec::new();
    for path in files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let outcome = std::panic::catch_unwind(|| read(&path));
        match outcome {
            Err(_) => panic!("{name}: the reader panicked"),
            Ok(Ok((rows, expected))) => {
                assert_eq!(
                    rows as i64, expected,
                    "{name}: rows read against the row groups"
                );
                ok += 1;
            }
            Ok(Err(e)) if e.contains("ncrypt") => encrypted += 1,
            Ok(Err(e)) => failures.push((name, e)),
        }
    }
    for (name, e) in &failures {
        eprintln!("FAIL {name}: {e}");
    }
    eprintln!(
        "corpus through Arrow: {ok} read, {encrypted} encrypted (not supported), {} failed",
        failures.len()
    );
    let unexpected: Vec<&(String, String)> = failures
        .iter()
        .filter(|(n, _)| !KNOWN_FAILURES.iter().any(|(k, _)| k == n))
        .collect();
    assert!(
        unexpected.is_empty(),
        "unexpected failures: {unexpected:#?}"
    );
    assert_eq!(
        failures.len(),
        KNOWN_FAILURES.len(),
        "a known failure now reads: update the list"
    );
    assert!(ok > 0);
}

#[test]
fn bad_data_never_panics() {
    let Some(dir) = corpus_dir("bad_data") else {
        return;
    };
    for path in files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let outcome = std::panic::catch_unwind(|| read(&path));
        assert!(outcome.is_ok(), "{name}: the reader panicked");
        eprintln!("{name}: {:?}", outcome.unwrap());
    }
}
