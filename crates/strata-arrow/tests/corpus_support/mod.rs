//! Finding the parquet-testing corpus beside the workspace
//! (`../shared/parquet-testing`), shared by the corpus, interop and
//! mutation tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/parquet-testing/<sub>`, or `None` (with a "skipped" message)
/// when it is absent.
pub fn corpus_dir(sub: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/parquet-testing")
        .join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: parquet-testing corpus not found at {}",
            dir.display()
        );
        None
    }
}

/// Append the `*.parquet` files below `dir` (subfolders too) to `out`, in
/// sorted order. Encrypted files (`*.parquet.encrypted`) are not included.
pub fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "parquet") {
            out.push(p);
        }
    }
}
