// Programs about VARIANT columns (feature `variant_experimental` on both
// sides): the corpus's shredded_variant cases read and unshredded, and
// Variant values written unshredded and shredded and read back. Values
// print as JSON through the Variant crates' `variant_to_json` at
// `pq::variant`, errors as their messages. Included into a module that
// has `pq` in scope.

use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchReader, StringArray};
use arrow_schema::{DataType, Field, Fields, Schema};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pq::file::properties::WriterProperties;
use pq::variant::{VariantArray, json_to_variant, shred_variant, unshred_variant, variant_to_json};

use super::common::{corpus, no_corpus, parquet_files_in};

/// Each row of a Variant column, unshredded, as JSON (`NULL` for a null
/// row), or the error unshredding it gives.
fn variant_rows(column: &ArrayRef) -> String {
    let array = match VariantArray::try_new(column) {
        Ok(array) => array,
        Err(e) => return format!("  not a Variant array: {e}\n"),
    };
    let unshredded = match unshred_variant(&array) {
        Ok(unshredded) => unshredded,
        Err(e) => return format!("  error: {e}\n"),
    };
    match variant_to_json(&ArrayRef::from(unshredded)) {
        Ok(texts) => (0..texts.len())
            .map(|i| {
                if texts.is_null(i) {
                    "  NULL\n".to_string()
                } else {
                    format!("  {}\n", texts.value(i))
                }
            })
            .collect(),
        Err(e) => format!("  error: {e}\n"),
    }
}

/// The schema of a field, with its extension type.
fn describe(field: &Field) -> String {
    format!(
        "{}: extension {:?}, {}\n",
        field.name(),
        field.extension_type_name(),
        field.data_type()
    )
}

pub fn variant_corpus_cases_read_and_unshredded(_dir: &Path) -> String {
    let Some(data) = corpus("") else {
        return no_corpus();
    };
    let names = parquet_files_in(&data.join("../shredded_variant"));
    let mut out = format!("rows: {} files\n", names.len());
    for path in names {
        out.push_str(&format!("{}\n", path.file_name().unwrap().to_string_lossy()));
        let file = Bytes::from(std::fs::read(&path).unwrap());
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        let schema = reader.schema();
        out.push_str(&describe(schema.field_with_name("var").unwrap()));
        for batch in reader {
            out.push_str(&variant_rows(batch.unwrap().column_by_name("var").unwrap()));
        }
    }
    out
}

/// Values of every shape, as JSON.
const VALUES: &[&str] = &[
    r#"{"a": 1, "b": "x", "d": {"e": 1.5}}"#,
    r#"{"a": "not a number", "extra": [true, null]}"#,
    r#"{"a": 2, "d": {"e": 2.5, "f": "residual"}}"#,
    "42",
    r#""text""#,
    r#"[1, "two", 3.5, null, {"z": {}}]"#,
    "null",
    r#"{"b": "only b"}"#,
    "{}",
    "-7.25",
];

pub fn variant_written_unshredded_and_shredded(_dir: &Path) -> String {
    let texts: ArrayRef = Arc::new(StringArray::from_iter(
        VALUES.iter().map(|v| Some(*v)).chain([None]).cycle().take(44),
    ));
    let values = json_to_variant(&texts).unwrap();
    // A shredding schema without lists: strata names a list's element
    // `element` in the Parquet schema, arrow-rs `item`, which the printed
    // schemas would show.
    let shape = DataType::Struct(Fields::from(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Utf8, true),
        Field::new(
            "d",
            DataType::Struct(Fields::from(vec![Field::new("e", DataType::Float64, true)])),
            true,
        ),
    ]));
    let shredded = shred_variant(&values, &shape).unwrap();
    let mut out = String::from("rows: 44\n");
    for (layout, array) in [("unshredded", values), ("shredded", shredded)] {
        let schema = Arc::new(Schema::new(vec![array.field("v")]));
        let batch = RecordBatch::try_new(schema.clone(), vec![ArrayRef::from(array)]).unwrap();
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(20))
            .build();
        let mut writer = ArrowWriter::try_new(Vec::new(), schema, Some(props)).unwrap();
        writer.write(&batch).unwrap();
        let file = Bytes::from(writer.into_inner().unwrap());
        out.push_str(&format!("{layout}\n"));
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let mut text = Vec::new();
        pq::schema::printer::print_schema(&mut text, builder.parquet_schema().root_schema());
        out.push_str(&String::from_utf8(text).unwrap());
        out.push_str(&describe(builder.schema().field(0)));
        for batch in builder.build().unwrap() {
            out.push_str(&variant_rows(batch.unwrap().column(0)));
        }
    }
    out
}
