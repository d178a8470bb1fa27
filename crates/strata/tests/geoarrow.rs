//! `GEOMETRY` and `GEOGRAPHY` columns as GeoArrow fields (feature
//! `geospatial`, on in these tests): the corpus's geospatial files read as
//! `geoarrow.wkb` fields whose metadata names their CRS and edges; written
//! back, the logical types are those of the file read; and pyarrow reads
//! strata's file as the same GEOMETRY or GEOGRAPHY column with the same
//! values.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/python.rs"]
mod python;

use std::path::PathBuf;
use std::process::Command;

use arrow_array::RecordBatch;
use bytes::Bytes;
use strata::arrow::ArrowWriter;
use strata::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};

/// Every batch of `data`, read without the embedded Arrow schema (so the
/// field metadata comes from the Parquet schema).
fn read(data: Bytes) -> (arrow_schema::SchemaRef, Vec<RecordBatch>) {
    let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(data, options).unwrap();
    let schema = builder.schema().clone();
    let batches = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    (schema, batches)
}

#[test]
fn corpus_files_read_as_geoarrow_and_write_back_the_same_logical_types() {
    let Some(dir) = corpus::corpus_dir("data/geospatial") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 10);
    let py = python::pyarrow();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let original = Bytes::from(std::fs::read(&path).unwrap());
        let (schema, batches) = read(original.clone());
        // The one GEOMETRY or GEOGRAPHY column, whatever its name.
        let column = {
            let builder = ParquetRecordBatchReaderBuilder::try_new(original.clone()).unwrap();
            let found = builder.parquet_schema().columns().iter().find(|c| {
                matches!(
                    c.logical_type_ref(),
                    Some(
                        strata::basic::LogicalType::Geometry(_)
                            | strata::basic::LogicalType::Geography(_)
                    )
                )
            });
            found.unwrap().name().to_string()
        };
        let field = schema.field_with_name(&column).unwrap();
        assert_eq!(field.extension_type_name(), Some("geoarrow.wkb"), "{name}");
        let metadata = field.extension_type_metadata().unwrap();
        let file_type = |data: &Bytes| {
            let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
            let descr = builder
                .parquet_schema()
                .columns()
                .iter()
                .find(|c| c.name() == column)
                .unwrap()
                .clone();
            descr.logical_type_ref().cloned()
        };
        let logical = file_type(&original).unwrap();
        match &logical {
            strata::basic::LogicalType::Geometry(g) => {
                assert!(!metadata.contains("edges"), "{name}: {metadata}");
                match g.crs.as_deref() {
                    None => assert_eq!(metadata, r#"{"crs":"OGC:CRS84"}"#, "{name}"),
                    Some(crs) => assert!(
                        metadata.contains(&crs.replace('"', "\\\"")),
                        "{name}: {metadata}"
                    ),
                }
            }
            strata::basic::LogicalType::Geography(_) => {
                assert!(
                    metadata.contains(r#""edges":"spherical""#),
                    "{name}: {metadata}"
                )
            }
            other => panic!("{name}: {other:?}"),
        }
        // Written back by strata: the same logical type and values.
        let mut out = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut out, schema.clone(), None).unwrap();
        for b in &batches {
            writer.write(b).unwrap();
        }
        writer.close().unwrap();
        let written = Bytes::from(out);
        // Spherical edges are the default: written as such, they are
        // omitted (as arrow-rs writes them).
        let effective = |t: Option<strata::basic::LogicalType>| match t {
            Some(strata::basic::LogicalType::Geography(g)) => {
                Some(format!("GEOGRAPHY {:?} {:?}", g.crs, g.algorithm()))
            }
            other => other.map(|t| format!("{t:?}")),
        };
        assert_eq!(
            effective(file_type(&written)),
            effective(Some(logical.clone())),
            "{name}"
        );
        let (_, again) = read(written.clone());
        assert_eq!(again, batches, "{name}");
        // pyarrow reads the column strata wrote as the same logical type,
        // with the same WKB values as the original file.
        if let Some(py) = &py {
            let copy =
                std::env::temp_dir().join(format!("strata-geoarrow-{}-{name}", std::process::id()));
            std::fs::write(&copy, &written).unwrap();
            let script = r#"
import sys, pyarrow.parquet as pq
a, b = pq.ParquetFile(sys.argv[1]), pq.ParquetFile(sys.argv[2])
c = sys.argv[3]
la = a.schema.column(a.schema.names.index(c)).logical_type
lb = b.schema.column(b.schema.names.index(c)).logical_type
same = a.read(columns=[c]).column(0).to_pylist() == b.read(columns=[c]).column(0).to_pylist()
print(str(la) == str(lb), same, la)
"#;
            let out = Command::new(py)
                .args(["-c", script])
                .arg(&path)
                .arg(&copy)
                .arg(&column)
                .output()
                .unwrap();
            let _ = std::fs::remove_file(&copy);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.starts_with("True True"), "{name}: {text}");
        }
    }
}
