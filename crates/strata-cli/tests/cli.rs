//! Runs the `strata` binary on files of the Apache parquet-testing corpus
//! (`../shared/parquet-testing` beside the checkout; skipped with a message
//! when absent) and on files it writes itself.

// Helpers outside `#[test]` functions fail the test on setup errors.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/parquet-testing/data"
);
const BAD_DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/parquet-testing/bad_data"
);

/// A corpus file, or `None` (with a message) when the corpus is absent.
fn corpus(dir: &str, name: &str) -> Option<PathBuf> {
    let path = Path::new(dir).join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "skipped: {} not found (the parquet-testing corpus is expected at ../shared/parquet-testing)",
            path.display()
        );
        None
    }
}

fn strata(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(args)
        .output()
        .expect("run strata")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A failure: non-zero exit, one `strata: ` line on stderr, no panic.
fn assert_one_line_error(out: &Output) {
    assert!(!out.status.success(), "expected failure, got {out:?}");
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    assert!(err.starts_with("strata: "), "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
}

/// `batch` as an Arrow IPC file at `path`.
fn write_ipc_file(path: &Path, batch: &arrow_array::RecordBatch) {
    let mut writer = arrow_ipc::writer::FileWriter::try_new(
        std::fs::File::create(path).expect("create"),
        &batch.schema(),
    )
    .expect("ipc writer");
    writer.write(batch).expect("write");
    writer.finish().expect("finish");
}

fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn meta_of_alltypes_plain() {
    let Some(file) = corpus(DATA, "alltypes_plain.parquet") else {
        return;
    };
    let out = strata(&["meta", p(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("rows: 8\n"), "{text}");
    assert!(text.contains("row groups: 1\n"), "{text}");
    assert!(text.contains("columns: 11\n"), "{text}");
    assert!(text.contains("column id (INT32)"), "{text}");
    assert!(text.contains("column string_col (BYTE_ARRAY)"), "{text}");

    let out = strata(&["meta", "--json", p(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["num_rows"], 8);
    assert_eq!(doc["num_columns"], 11);
    let columns = doc["row_groups"][0]["columns"].as_array().expect("columns");
    assert_eq!(columns.len(), 11);
    assert_eq!(columns[0]["path"], "id");
    assert_eq!(columns[0]["num_values"], 8);
    // Every chunk holds at least one data page.
    for c in columns {
        assert!(c["pages"]["total"].as_u64().unwrap_or(0) >= 1, "{c}");
    }
}

#[test]
fn meta_shows_page_index_and_bloom_filter() {
    let Some(file) = corpus(DATA, "data_index_bloom_encoding_stats.parquet") else {
        return;
    };
    let out = strata(&["meta", "--json", p(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let chunk = &doc["row_groups"][0]["columns"][0];
    assert!(chunk["column_index"].is_object(), "{chunk}");
    assert!(chunk["offset_index"].is_object(), "{chunk}");
    assert!(chunk["bloom_filter"].is_object(), "{chunk}");
}

#[test]
fn schema_of_alltypes_plain() {
    let Some(file) = corpus(DATA, "alltypes_plain.parquet") else {
        return;
    };
    let out = strata(&["schema", p(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Parquet schema (11 leaf columns)"), "{text}");
    assert!(text.contains("id: optional INT32"), "{text}");
    assert!(text.contains("timestamp_col: optional INT96"), "{text}");
    assert!(text.contains("Arrow schema"), "{text}");
    assert!(text.contains("  id: Int32"), "{text}");
}

#[test]
fn head_prints_the_first_ids() {
    let Some(file) = corpus(DATA, "alltypes_plain.parquet") else {
        return;
    };
    // The ids of alltypes_plain are 4 5 6 7 2 3 0 1.
    let out = strata(&["head", p(&file), "-n", "3", "--format", "csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let ids: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap_or_default())
        .collect();
    assert_eq!(ids, ["4", "5", "6"], "{text}");

    let out = strata(&["head", p(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("id "), "{text}");
    assert!(text.contains("(8 rows)"), "{text}");
}

#[test]
fn cat_projects_limits_and_offsets() {
    let Some(file) = corpus(DATA, "alltypes_plain.parquet") else {
        return;
    };
    let out = strata(&[
        "cat",
        p(&file),
        "--columns",
        "id,bool_col",
        "--offset",
        "2",
        "--limit",
        "3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], serde_json::json!({"id": 6, "bool_col": true}));
    assert_eq!(lines[1], serde_json::json!({"id": 7, "bool_col": false}));
    assert_eq!(lines[2], serde_json::json!({"id": 2, "bool_col": true}));

    let out = strata(&["cat", p(&file), "--columns", "nope"]);
    assert_one_line_error(&out);
    assert!(stderr(&out).contains("no column"), "{}", stderr(&out));
}

#[test]
fn csv_refuses_nested_columns() {
    let Some(file) = corpus(DATA, "nested_structs.rust.parquet") else {
        return;
    };
    let out = strata(&["cat", p(&file), "--format", "csv"]);
    assert_one_line_error(&out);
    assert!(
        stderr(&out).contains("flat columns only"),
        "{}",
        stderr(&out)
    );
    // JSON lines print nested values.
    let out = strata(&["cat", p(&file), "--limit", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1);
}

#[test]
fn pages_lists_headers() {
    let Some(file) = corpus(DATA, "datapage_v2.snappy.parquet") else {
        return;
    };
    let out = strata(&["pages", p(&file), "--column", "a"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("row group 0, column a (BYTE_ARRAY, SNAPPY)"),
        "{text}"
    );
    assert!(text.contains("DATA_PAGE_V2"), "{text}");
    assert!(!text.contains("column b"), "{text}");

    let out = strata(&["pages", p(&file), "--column", "zzz"]);
    assert_one_line_error(&out);
}

#[test]
fn convert_csv_round_trip() {
    let dir = temp_dir("csv");
    let csv = dir.join("in.csv");
    let parquet = dir.join("out.parquet");
    let input = "id,name,score,ok\n1,ann,1.5,true\n2,bob,,false\n3,,-7.25,\n4,dan,100.125,true\n";
    std::fs::write(&csv, input).expect("write csv");
    for compression in ["zstd", "none"] {
        let out = strata(&[
            "convert",
            p(&csv),
            p(&parquet),
            "--compression",
            compression,
            "--row-group-rows",
            "3",
            "--writer-version",
            "2",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = strata(&["cat", p(&parquet), "--format", "csv"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), input);
        let out = strata(&["meta", "--json", p(&parquet)]);
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(doc["num_rows"], 4);
        assert_eq!(doc["num_row_groups"], 2);
        let out = strata(&["check", p(&parquet)]);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_json_and_parquet() {
    let dir = temp_dir("json");
    let json = dir.join("in.jsonl");
    let first = dir.join("first.parquet");
    let second = dir.join("second.parquet");
    std::fs::write(&json, "{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": null}\n").expect("write");
    let out = strata(&["convert", p(&json), p(&first), "--dictionary", "off"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = strata(&["convert", p(&first), p(&second), "--compression", "gzip"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = strata(&["cat", p(&second)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"a\":1,\"b\":\"x\"}\n{\"a\":2}\n");
    let out = strata(&[
        "convert",
        p(&json),
        p(&dir.join("x.parquet")),
        "--from",
        "csv",
    ]);
    // A JSON file read as CSV still converts (one column) or fails cleanly.
    if !out.status.success() {
        assert_one_line_error(&out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_arrow_ipc_file_and_stream() {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};

    let dir = temp_dir("ipc");
    let ids: ArrayRef = Arc::new(Int64Array::from(vec![10, 20, 30]));
    let names: ArrayRef = Arc::new(StringArray::from(vec![Some("a"), None, Some("c")]));
    let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).expect("batch");
    let file = dir.join("in.arrow");
    write_ipc_file(&file, &batch);
    let stream = dir.join("in.stream");
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(
        std::fs::File::create(&stream).expect("create"),
        &batch.schema(),
    )
    .expect("ipc writer");
    writer.write(&batch).expect("write");
    writer.finish().expect("finish");
    let expected = "id,name\n10,a\n20,\n30,c\n";
    for (input, extra) in [(&file, None), (&stream, Some("ipc"))] {
        let out_path = dir.join("out.parquet");
        let mut args = vec!["convert", p(input), p(&out_path), "--compression", "lz4"];
        if let Some(from) = extra {
            args.extend(["--from", from]);
        }
        let out = strata(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = strata(&["cat", p(&out_path), "--format", "csv"]);
        assert_eq!(stdout(&out), expected);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_good_files() {
    for name in [
        "alltypes_plain.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "nested_structs.rust.parquet",
        // Nested nulls: the writer counted null leaves only.
        "list_columns.parquet",
        "nullable.impala.parquet",
    ] {
        let Some(file) = corpus(DATA, name) else {
            return;
        };
        let out = strata(&["check", p(&file)]);
        assert!(
            out.status.success(),
            "{name}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        assert!(stdout(&out).ends_with(": ok\n"), "{}", stdout(&out));
    }
}

#[test]
fn check_finds_a_corrupt_checksum() {
    let Some(file) = corpus(DATA, "datapage_v1-corrupt-checksum.parquet") else {
        return;
    };
    let out = strata(&["check", p(&file)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).to_lowercase().contains("crc"),
        "{}",
        stdout(&out)
    );
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn check_bad_data_exits_non_zero_without_panic() {
    for name in [
        "PARQUET-1481.parquet",
        "ARROW-RS-GH-6229-DICTHEADER.parquet",
        "ARROW-GH-41317.parquet",
    ] {
        let Some(file) = corpus(BAD_DATA, name) else {
            return;
        };
        let out = strata(&["check", p(&file)]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stdout(&out));
        assert!(!stdout(&out).is_empty(), "{name}: no problem reported");
        assert!(
            !stderr(&out).contains("panicked"),
            "{name}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn bad_files_and_arguments_give_one_line() {
    // A missing file.
    assert_one_line_error(&strata(&["meta", "/nonexistent/file.parquet"]));
    // Not a Parquet file.
    let dir = temp_dir("bad");
    let junk = dir.join("junk.parquet");
    std::fs::write(&junk, b"this is not parquet at all").expect("write");
    for command in ["schema", "meta", "pages", "cat", "head"] {
        assert_one_line_error(&strata(&[command, p(&junk)]));
    }
    // Bad arguments.
    assert_one_line_error(&strata(&["frobnicate"]));
    assert_one_line_error(&strata(&["cat"]));
    assert_one_line_error(&strata(&["cat", p(&junk), "--limit", "many"]));
    assert_one_line_error(&strata(&["convert", "a.txt", "b.parquet"]));
    assert_one_line_error(&strata(&[
        "convert",
        p(&junk),
        p(&dir.join("o.parquet")),
        "--compression",
        "lzma",
    ]));
    if let Some(bad) = corpus(BAD_DATA, "PARQUET-1481.parquet") {
        assert_one_line_error(&strata(&["cat", p(&bad)]));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Timestamps with a zone print in every format: "UTC" (as arrow-rs and
/// pyarrow read an adjusted-to-UTC timestamp) and a named zone, which
/// Arrow's printers can parse only with the time zone database the CLI
/// builds with.
#[test]
fn zoned_timestamps_print() {
    use std::sync::Arc;

    use arrow_array::builder::{ListBuilder, TimestampMicrosecondBuilder};
    use arrow_array::{ArrayRef, RecordBatch, TimestampMicrosecondArray};

    let dir = temp_dir("utc");
    // 2021-01-01T00:00:00Z and one second later.
    let instants = [1_609_459_200_000_000i64, 1_609_459_201_000_000];
    let ts: ArrayRef =
        Arc::new(TimestampMicrosecondArray::from(instants.to_vec()).with_timezone("UTC"));
    let mut lists = ListBuilder::new(TimestampMicrosecondBuilder::new().with_timezone("UTC"));
    lists.values().append_value(instants[0]);
    lists.append(true);
    lists.append(false);
    let list: ArrayRef = Arc::new(lists.finish());
    // A named zone other than UTC: printed as local time with its offset.
    let ny: ArrayRef = Arc::new(
        TimestampMicrosecondArray::from(instants.to_vec()).with_timezone("America/New_York"),
    );
    let batch =
        RecordBatch::try_from_iter([("ts", ts), ("list", list), ("ny", ny)]).expect("batch");
    let file = dir.join("in.arrow");
    write_ipc_file(&file, &batch);
    let parquet = dir.join("utc.parquet");
    let out = strata(&["convert", p(&file), p(&parquet)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = strata(&["cat", p(&parquet), "--format", "jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("2021-01-01T00:00:00"), "{text}");
    assert!(text.contains("2021-01-01T00:00:01"), "{text}");
    assert!(text.contains("2020-12-31T19:00:00-05:00"), "{text}");
    let out = strata(&["cat", p(&parquet), "--columns", "ts", "--format", "csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = strata(&["head", p(&parquet)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("2020-12-31T19:00:01-05:00"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
