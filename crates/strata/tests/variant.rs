//! `VARIANT` columns (feature `variant_experimental`, on in these tests).
//!
//! - Every case of the corpus's `shredded_variant/` reads as its expected
//!   `.variant.bin` values once unshredded, and every error case is
//!   refused with an error; the structs strata reads equal arrow-rs's.
//! - Variant values written unshredded and shredded (to a schema given
//!   with `shred_variant`) read back as the same values, in strata's
//!   schema annotated `VARIANT` as arrow-rs annotates it, and arrow-rs
//!   reads strata's files as the same arrays.
//! - DuckDB reads strata's files, unshredded and shredded, as the values
//!   written (pyarrow, which has no Variant type, as the same bytes), and
//!   strata reads DuckDB's as the values DuckDB was given.
//!
//! Hostile Variant bytes are the mutation suite's (strata-arrow's
//! `tests/mutation.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/python.rs"]
mod python;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchReader};
use arrow_schema::{DataType, Field, Fields, Schema};
use bytes::Bytes;
use strata::arrow::ArrowWriter;
use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata::basic::LogicalType;
use strata::file::properties::WriterProperties;
use strata::variant::{
    ShortString, Variant, VariantArray, VariantArrayBuilder, VariantBuilderExt, VariantDecimal4,
    VariantMetadata, json_to_variant, shred_variant, unshred_variant, variant_to_json,
};

/// One column of every batch of `file` read by strata, concatenated.
fn read_column(file: Bytes, name: &str) -> (Field, ArrayRef) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let batch = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
    let field = schema.field_with_name(name).unwrap().clone();
    (field, batch.column_by_name(name).unwrap().clone())
}

/// The same column read by arrow-rs.
fn read_column_arrow_rs(file: Bytes, name: &str) -> ArrayRef {
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let batch = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
    batch.column_by_name(name).unwrap().clone()
}

/// One Variant: its metadata's bytes and its value's.
type VariantBytes = (Vec<u8>, Vec<u8>);

/// What reading one case gave: its values, unshredded, or the first error.
fn read_case(file: Bytes) -> Result<(Field, Vec<Option<VariantBytes>>), String> {
    let (field, column) = read_column(file, "var");
    let array = VariantArray::try_new(&column).map_err(|e| e.to_string())?;
    let unshredded = unshred_variant(&array).map_err(|e| e.to_string())?;
    let metadata = unshredded.metadata_column();
    let value = unshredded.value_column();
    let bytes = |a: &ArrayRef, i| binary_value(a.as_ref(), i).unwrap().to_vec();
    let rows = (0..unshredded.len())
        .map(|i| {
            (!unshredded.is_null(i)).then(|| {
                if value.is_null(i) {
                    // A row whose value is missing is Variant::Null.
                    (bytes(metadata, i), vec![0])
                } else {
                    (bytes(metadata, i), bytes(value, i))
                }
            })
        })
        .collect();
    Ok((field, rows))
}

/// The bytes of row `i` of a binary-like array.
fn binary_value(array: &dyn Array, i: usize) -> Option<&[u8]> {
    use arrow_array::cast::AsArray;
    match array.data_type() {
        DataType::Binary => Some(array.as_binary::<i32>().value(i)),
        DataType::LargeBinary => Some(array.as_binary::<i64>().value(i)),
        DataType::BinaryView => Some(array.as_binary_view().value(i)),
        _ => None,
    }
}

/// A `.variant.bin` file: the metadata's bytes, then the value's.
fn expected_variant(path: &Path) -> VariantBytes {
    let data = std::fs::read(path).unwrap();
    let size = VariantMetadata::try_new(&data).unwrap().size();
    (data[..size].to_vec(), data[size..].to_vec())
}

fn variant<'a>((metadata, value): &'a VariantBytes) -> Variant<'a, 'a> {
    Variant::try_new(metadata, value).unwrap()
}

#[test]
fn shredded_variant_corpus_cases_read_as_their_expected_values() {
    let Some(dir) = corpus::corpus_dir("shredded_variant") else {
        return;
    };
    let cases: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("cases.json")).unwrap()).unwrap();
    let (mut matched, mut refused, mut lenient) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in cases.as_array().unwrap() {
        let number = case["case_number"].as_u64().unwrap();
        let Some(file) = case["parquet_file"].as_str() else {
            continue; // case 3 names no file
        };
        let data = Bytes::from(std::fs::read(dir.join(file)).unwrap());
        let outcome = catch_unwind(AssertUnwindSafe(|| read_case(data.clone())));
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(panic) => {
                failures.push(format!(
                    "case {number}: panicked: {}",
                    corpus::panic_text(panic)
                ));
                continue;
            }
        };
        // The struct strata reads equals arrow-rs's, valid or not.
        let (_, strata_column) = read_column(data.clone(), "var");
        if strata_column.to_data() != read_column_arrow_rs(data, "var").to_data() {
            failures.push(format!(
                "case {number}: the struct read differs from arrow-rs's"
            ));
        }
        if let Some(message) = case["error_message"].as_str() {
            match outcome {
                Err(_) => refused += 1,
                Ok(_) => failures.push(format!("case {number}: read, expected \"{message}\"")),
            }
            continue;
        }
        let expected: Vec<Option<VariantBytes>> = match (
            case["variant_file"].as_str(),
            case["variant_files"].as_array(),
        ) {
            (Some(f), _) => vec![Some(expected_variant(&dir.join(f)))],
            (None, Some(files)) => files
                .iter()
                .map(|f| f.as_str().map(|f| expected_variant(&dir.join(f))))
                .collect(),
            (None, None) => panic!("case {number} has neither values nor an error"),
        };
        let (field, rows) = match outcome {
            Ok(read) => read,
            // Files the corpus names INVALID break the shredding spec
            // (a field both shredded and in the residual object, a
            // shredded field struct that is null): a reader may refuse
            // them, as arrow-rs does, or read the values the corpus
            // expects.
            Err(_) if file.contains("-INVALID") => {
                lenient += 1;
                continue;
            }
            Err(e) => {
                failures.push(format!("case {number}: {e}"));
                continue;
            }
        };
        assert_eq!(
            field.extension_type_name(),
            Some("arrow.parquet.variant"),
            "case {number}"
        );
        if rows.len() != expected.len() {
            failures.push(format!(
                "case {number}: {} rows, expected {}",
                rows.len(),
                expected.len()
            ));
            continue;
        }
        let same = rows
            .iter()
            .zip(&expected)
            .all(|(row, want)| match (row, want) {
                (None, None) => true,
                (Some(row), Some(want)) => variant(row) == variant(want),
                _ => false,
            });
        if same {
            matched += 1;
        } else {
            failures.push(format!("case {number}: values differ"));
        }
    }
    eprintln!(
        "shredded_variant: {matched} cases read as expected, {refused} error cases refused, \
         {lenient} INVALID-named files refused"
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(matched >= 120, "only {matched} cases matched");
}

/// 700 Variant values of every shape: objects that fit the shredding
/// schema of [`shredding_type`], objects and values that do not, lists,
/// primitives, Variant nulls and null rows.
fn sample_values() -> VariantArray {
    let mut builder = VariantArrayBuilder::new(700);
    for i in 0..700i64 {
        match i % 7 {
            0 => {
                let mut object = builder.new_object();
                object.insert("a", i);
                object.insert("b", format!("name {i}").as_str());
                let mut list = object.new_list("c");
                list.append_value(i);
                list.append_value(i + 1);
                list.finish();
                object
                    .new_object("d")
                    .with_field("e", i as f64 * 0.5)
                    .finish();
                object.finish();
            }
            1 => builder
                .new_object()
                .with_field("a", "not a number")
                .with_field("extra", true)
                .finish(),
            2 => builder.append_value(i as i32),
            3 => builder
                .new_list()
                .with_value("x")
                .with_value(Variant::ShortString(ShortString::try_new("y").unwrap()))
                .finish(),
            4 => builder.append_value(Variant::Null),
            5 => builder.append_null(),
            _ => {
                let mut object = builder.new_object();
                object.insert("a", i);
                let mut d = object.new_object("d");
                d.insert("e", 1.5f64);
                d.insert("f", "residual");
                d.finish();
                object.insert("g", VariantDecimal4::try_new(1234, 2).unwrap());
                object.finish();
            }
        }
    }
    builder.build()
}

/// The shredding schema the user gives: `a`, `b`, `c` and `d.e` typed.
fn shredding_type() -> DataType {
    DataType::Struct(Fields::from(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Utf8, true),
        Field::new("c", DataType::new_list(DataType::Int64, true), true),
        Field::new(
            "d",
            DataType::Struct(Fields::from(vec![Field::new("e", DataType::Float64, true)])),
            true,
        ),
    ]))
}

fn batch_of(array: VariantArray) -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![array.field("v")]));
    RecordBatch::try_new(schema, vec![ArrayRef::from(array)]).unwrap()
}

fn write_strata(batch: &RecordBatch) -> Bytes {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(300))
        .set_data_page_row_count_limit(64)
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

fn write_arrow_rs(batch: &RecordBatch) -> Bytes {
    let mut out = Vec::new();
    let mut writer = parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

/// The Parquet schema of `file` as arrow-rs prints it.
fn parquet_schema_text(file: &Bytes) -> String {
    use parquet::file::reader::FileReader;
    let reader = parquet::file::serialized_reader::SerializedFileReader::new(file.clone()).unwrap();
    let mut text = Vec::new();
    parquet::schema::printer::print_schema(
        &mut text,
        reader
            .metadata()
            .file_metadata()
            .schema_descr()
            .root_schema(),
    );
    String::from_utf8(text).unwrap()
}

/// Row by row, `read` holds the same Variant values as `original`.
fn assert_same_values(original: &VariantArray, read: &VariantArray) {
    assert_eq!(original.len(), read.len());
    for i in 0..original.len() {
        assert_eq!(original.is_null(i), read.is_null(i), "row {i}");
        if !original.is_null(i) {
            assert_eq!(original.value(i), read.value(i), "row {i}");
        }
    }
}

#[test]
fn unshredded_and_shredded_writes_read_back_as_the_same_values() {
    let original = sample_values();
    let shredded = shred_variant(&original, &shredding_type()).unwrap();
    assert!(shredded.typed_value_column().is_some());

    for (layout, array) in [("unshredded", original.clone()), ("shredded", shredded)] {
        let batch = batch_of(array);
        let file = write_strata(&batch);

        // The Parquet schema is the one arrow-rs writes for the batch:
        // the group annotated VARIANT, typed_value at every depth.
        // (strata names a list's element `element`, as the format's LIST
        // layout does; arrow-rs keeps the Arrow field's name, `item`.)
        let schema = parquet_schema_text(&file);
        let arrow_rs_schema =
            parquet_schema_text(&write_arrow_rs(&batch)).replace("group item {", "group element {");
        assert_eq!(schema, arrow_rs_schema, "{layout}");
        assert!(schema.contains("(VARIANT"), "{layout}: {schema}");
        assert_eq!(
            schema.contains("typed_value"),
            layout == "shredded",
            "{layout}: {schema}"
        );

        // strata reads back the struct it wrote, as a Variant field.
        let (field, column) = read_column(file.clone(), "v");
        assert_eq!(field.extension_type_name(), Some("arrow.parquet.variant"));
        assert_eq!(column.to_data(), batch.column(0).to_data(), "{layout}");
        // Unshredded, the values are the ones built, whether strata or
        // arrow-rs reads strata's file. (arrow-rs's list arrays inside
        // the shredded struct keep the file's element name, `element`,
        // where its schema says `item`; the values are what count.)
        let read = unshred_variant(&VariantArray::try_new(&column).unwrap()).unwrap();
        assert_same_values(&original, &read);
        let by_arrow_rs = read_column_arrow_rs(file.clone(), "v");
        let read = unshred_variant(&VariantArray::try_new(&by_arrow_rs).unwrap()).unwrap();
        assert_same_values(&original, &read);

        // Read without the embedded Arrow schema, the field still names
        // the Variant extension type (from the VARIANT annotation).
        let options =
            strata::arrow::arrow_reader::ArrowReaderOptions::new().with_skip_arrow_metadata(true);
        let builder =
            ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
        let field = builder.schema().field(0).clone();
        assert_eq!(field.extension_type_name(), Some("arrow.parquet.variant"));

        // The strata reader reads arrow-rs's file of the same batch as
        // the same arrays.
        let (_, from_arrow_rs) = read_column(write_arrow_rs(&batch), "v");
        assert_eq!(from_arrow_rs.to_data(), column.to_data(), "{layout}");
    }
}

#[test]
fn variant_logical_type_is_in_the_metadata_api() {
    let file = write_strata(&batch_of(sample_values()));
    let reader = strata::file::serialized_reader::SerializedFileReader::new(file).unwrap();
    let root = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema()
        .clone();
    let variant_group = &root.get_fields()[0];
    assert_eq!(
        variant_group.get_basic_info().logical_type_ref(),
        Some(&LogicalType::Variant(strata::basic::VariantType {
            specification_version: None
        }))
    );
}

/// The values of the peer round trips, as JSON: objects that fit
/// [`shredding_type`] and objects that do not, lists, primitives and a
/// null, 25 times over.
fn peer_values() -> Vec<String> {
    let values = [
        r#"{"a": 1, "b": "x", "c": [1, 2], "d": {"e": 1.5}}"#,
        r#"{"a": "not a number", "extra": true}"#,
        r#"{"a": 2, "d": {"e": 2.5, "f": "residual"}, "g": [null, {"h": false}]}"#,
        "42",
        r#""text""#,
        r#"[1, "two", 3.5, null]"#,
        "null",
        r#"{"b": "only b", "c": []}"#,
        "{}",
        "-7",
        "true",
        r#"{"a": 1234567890123, "c": [-1], "d": {}}"#,
    ];
    (0..25)
        .flat_map(|_| values.iter().map(|v| v.to_string()))
        .collect()
}

fn hex_rows(array: &ArrayRef, nulls: &VariantArray) -> Vec<Option<String>> {
    (0..array.len())
        .map(|i| {
            (nulls.is_valid(i) && array.is_valid(i)).then(|| {
                binary_value(array.as_ref(), i)
                    .unwrap()
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()
            })
        })
        .collect()
}

fn run_peer_script(py: &Path, args: &[&Path], command: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/variant_peers.py");
    let out = std::process::Command::new(py)
        .arg(script)
        .arg(command)
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn duckdb_and_pyarrow_read_strata_variants_and_strata_reads_duckdbs() {
    let Some(py) = python::with_duckdb() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("strata-variant-peers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = peer_values();
    let texts: ArrayRef = Arc::new(arrow_array::StringArray::from(json.clone()));
    let values = json_to_variant(&texts).unwrap();
    let shredded = shred_variant(&values, &shredding_type()).unwrap();

    // strata writes; DuckDB and pyarrow read.
    for (layout, array) in [("unshredded", values.clone()), ("shredded", shredded)] {
        let path = dir.join(format!("strata-{layout}.parquet"));
        std::fs::write(&path, write_strata(&batch_of(array.clone()))).unwrap();
        let expected = serde_json::json!({
            "json": json,
            "metadata": hex_rows(array.metadata_column(), &array),
            "value": hex_rows(array.value_column(), &array),
        });
        let expected_path = dir.join(format!("expected-{layout}.json"));
        std::fs::write(&expected_path, expected.to_string()).unwrap();
        let report = run_peer_script(&py, &[&path, &expected_path], "read");
        eprintln!("{layout}: {report}");
    }

    // DuckDB writes; strata reads.
    let values_path = dir.join("values.json");
    std::fs::write(&values_path, serde_json::to_string(&json).unwrap()).unwrap();
    let unshredded = dir.join("duckdb-unshredded.parquet");
    let shredded = dir.join("duckdb-shredded.parquet");
    eprintln!(
        "{}",
        run_peer_script(&py, &[&values_path, &unshredded, &shredded], "write")
    );
    for path in [unshredded, shredded] {
        let (field, column) = read_column(Bytes::from(std::fs::read(&path).unwrap()), "v");
        assert_eq!(field.extension_type_name(), Some("arrow.parquet.variant"));
        let read = unshred_variant(&VariantArray::try_new(&column).unwrap()).unwrap();
        let texts = variant_to_json(&ArrayRef::from(read)).unwrap();
        assert_eq!(texts.len(), json.len());
        for (i, want) in json.iter().enumerate() {
            let want: serde_json::Value = serde_json::from_str(want).unwrap();
            // DuckDB writes a JSON null as a null row.
            let got = if texts.is_null(i) {
                serde_json::Value::Null
            } else {
                serde_json::from_str(texts.value(i)).unwrap()
            };
            assert_eq!(got, want, "{} row {i}", path.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
