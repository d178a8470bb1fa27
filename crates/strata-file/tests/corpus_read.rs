//! Every page of every column of the parquet-testing corpus, read through
//! [`FileReader`] and decoded down to levels and values.
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`;
//! when it is absent these tests print "skipped" and pass.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;

use std::path::Path;

use corpus_support::{ColumnSummary, corpus_root, parquet_files, read_column};
use strata_file::properties::ReaderProperties;
use strata_file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};

/// Open `file` with reader properties `props`.
fn open_with<R: strata_file::chunk_reader::ChunkReader>(
    file: R,
    props: ReaderProperties,
) -> Result<SerializedFileReader<R>, strata_file::FileError> {
    let options = ReadOptionsBuilder::new()
        .with_reader_properties(props)
        .build();
    SerializedFileReader::new_with_options(file, options)
}

/// Files expected not to read, with why.
const EXPECTED_FAILURES: &[(&str, &str)] = &[
    (
        "large_string_map.brotli.parquet",
        "a single page declares 1 GiB + 4 bytes uncompressed (the README: a string \
         chunk of more than 2 GB), above the default maximum page size of 1 GiB \
         (PageReaderOptions::max_page_size)",
    ),
    (
        "nation.dict-malformed.parquet",
        "deliberately malformed: a dictionary page declares 28 compressed bytes where \
         13 remain in its column chunk",
    ),
];

/// Read every column of every row group; check the per-chunk counts.
fn read_file(path: &Path, options: ReaderProperties) -> Result<Vec<Vec<ColumnSummary>>, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let reader = open_with(file, options).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for i in 0..reader.num_row_groups() {
        let row_group = reader.row_group(i).map_err(|e| e.to_string())?;
        let mut columns = Vec::new();
        for j in 0..row_group.num_columns() {
            let summary = read_column(&row_group, j, false)
                .map_err(|e| format!("row group {i} column {j}: {e}"))?;
            let meta = row_group.column_metadata(j).map_err(|e| e.to_string())?;
            if summary.num_values != meta.num_values as u64 {
                return Err(format!(
                    "row group {i} column {j}: read {} values, metadata says {}",
                    summary.num_values, meta.num_values
                ));
            }
            if summary.num_decoded != summary.num_present {
                return Err(format!(
                    "row group {i} column {j}: decoded {} values, levels say {}",
                    summary.num_decoded, summary.num_present
                ));
            }
            columns.push(summary);
        }
        out.push(columns);
    }
    Ok(out)
}

#[test]
fn corpus_every_page_decodes() {
    let Some(root) = corpus_root("corpus_every_page_decodes") else {
        return;
    };
    let files = parquet_files(&root.join("data"));
    let (mut passed, mut failed) = (0, Vec::new());
    for path in &files {
        let name = path
            .strip_prefix(root.join("data"))
            .unwrap()
            .display()
            .to_string();
        let options = ReaderProperties::builder()
            .set_page_crc_verification(!name.contains("corrupt"))
            .build();
        match read_file(path, options) {
            Ok(row_groups) => {
                let columns: usize = row_groups.iter().map(Vec::len).sum();
                println!(
                    "pass {name} ({} row groups, {columns} column chunks)",
                    row_groups.len()
                );
                passed += 1;
            }
            Err(e) => {
                println!("FAIL {name}: {e}");
                failed.push((name, e));
            }
        }
    }
    println!(
        "{passed} passed, {} failed, of {}",
        failed.len(),
        files.len()
    );
    for (name, reason) in EXPECTED_FAILURES {
        if files.iter().any(|f| f.ends_with(name)) {
            assert!(
                failed.iter().any(|(n, _)| n == name),
                "{name} was expected to fail ({reason}) but read"
            );
        }
    }
    let unexpected: Vec<_> = failed
        .iter()
        .filter(|(name, _)| !EXPECTED_FAILURES.iter().any(|(n, _)| n == name))
        .collect();
    assert!(
        unexpected.is_empty(),
        "unexpected failures: {unexpected:#?}"
    );
}
