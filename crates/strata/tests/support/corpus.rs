//! Finding the parquet-testing corpus beside the workspace
//! (`../shared/parquet-testing`), for the tests of this crate that read it.
//! Each answers nothing, with a "skipped" message, when it is absent.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

/// `../shared/parquet-testing/<sub>`, if it is there.
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

/// The file `name` of the corpus's `data`, if it is there.
pub fn corpus_file(name: &str) -> Option<PathBuf> {
    let path = corpus_dir("data")?.join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: {} not found", path.display());
        None
    }
}

/// The `*.parquet` files directly in the corpus's `sub`, sorted.
pub fn corpus_files(sub: &str) -> Vec<PathBuf> {
    let Some(dir) = corpus_dir(sub) else {
        return Vec::new();
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    files.sort();
    files
}

/// The `*.parquet` files in `dir` and its subfolders, sorted.
pub fn parquet_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "parquet") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The message of a caught panic.
pub fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic without a message".into())
}
