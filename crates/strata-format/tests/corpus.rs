//! Footers of the Apache parquet-testing corpus.
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`.
//! When it is absent these tests print a message and pass without checking
//! anything.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use strata_format::FormatError;
use strata_format::footer::{read_metadata, read_metadata_from_slice, write_footer};
use strata_format::metadata::{
    ColumnOrder, CompressionCodec, ConvertedType, DecimalType, Encoding,
    FieldRepetitionType as Rep, FileMetaData, GeographyType, GeometryType, LogicalType, Type,
};
use strata_format::schema::SchemaDescriptor;
use strata_sink::ByteSink;

fn corpus_root() -> Option<PathBuf> {
    let root = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/parquet-testing"
    ));
    if root.join("data").is_dir() {
        Some(root)
    } else {
        println!(
            "SKIPPED: parquet-testing corpus not found at {}",
            root.display()
        );
        None
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn parquet_files(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    files_under(dir, &mut all);
    all.into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".parquet") || name.ends_with(".parquet.encrypted")
        })
        .collect()
}

fn has_encrypted_footer(bytes: &[u8]) -> bool {
    bytes.ends_with(b"PARE")
}

fn load(root: &Path, name: &str) -> (FileMetaData, SchemaDescriptor) {
    let bytes = fs::read(root.join("data").join(name)).unwrap();
    let meta = read_metadata_from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let schema =
        SchemaDescriptor::from_elements(&meta.schema).unwrap_or_else(|e| panic!("{name}: {e}"));
    (meta, schema)
}

fn kv<'a>(meta: &'a FileMetaData, key: &str) -> Option<&'a str> {
    meta.key_value_metadata
        .as_ref()?
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.as_deref())
}

fn names(schema: &SchemaDescriptor) -> Vec<String> {
    schema.columns().iter().map(|c| c.path.string()).collect()
}

#[test]
fn every_data_footer_parses_and_round_trips() {
    let Some(root) = corpus_root() else { return };
    let files = parquet_files(&root.join("data"));
    assert!(
        files.len() > 50,
        "expected the full corpus, found {}",
        files.len()
    );
    let (mut parsed, mut encrypted, mut failed) = (0, 0, Vec::new());
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let display = path.strip_prefix(&root).unwrap().display().to_string();
        if has_encrypted_footer(&bytes) {
            match read_metadata_from_slice(&bytes) {
                Err(FormatError::Encrypted) => encrypted += 1,
                other => failed.push(format!("{display}: expected Encrypted, got {other:?}")),
            }
            // The streaming reader agrees.
            assert!(matches!(
                read_metadata(fs::File::open(path).unwrap()),
                Err(FormatError::Encrypted)
            ));
            continue;
        }
        let meta = match read_metadata_from_slice(&bytes) {
            Ok(m) => m,
            Err(e) => {
                failed.push(format!("{display}: {e}"));
                continue;
            }
        };
        // Reading through Read + Seek gives the same metadata.
        let streamed = read_metadata(fs::File::open(path).unwrap()).unwrap();
        assert_eq!(streamed, meta, "{display}");

        let schema = match SchemaDescriptor::from_elements(&meta.schema) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("{display}: schema: {e}"));
                continue;
            }
        };
        // Every row group has one chunk per leaf, and the chunk paths are
        // the leaf paths.
        for rg in &meta.row_groups {
            assert_eq!(rg.columns.len(), schema.num_columns(), "{display}");
            for (chunk, col) in rg.columns.iter().zip(schema.columns()) {
                if let Some(md) = &chunk.meta_data {
                    assert_eq!(&md.path_in_schema[..], col.path.parts(), "{display}");
                    assert_eq!(md.physical_type, col.physical_type, "{display}");
                }
            }
        }
        // The tree flattens back to an equivalent schema.
        let again = SchemaDescriptor::from_elements(&schema.to_elements()).unwrap();
        assert_eq!(again.columns(), schema.columns(), "{display}");

        // Re-encoding the footer and reading it back is lossless.
        let mut file = ByteSink::new();
        file.extend_from_slice(b"PAR1");
        write_footer(&meta, &mut file).unwrap();
        assert_eq!(
            read_metadata_from_slice(file.as_slice()).unwrap(),
            meta,
            "{display}"
        );
        parsed += 1;
    }
    println!(
        "corpus data/: {} files, {parsed} footers parsed with schema trees, {encrypted} encrypted footers rejected as Encrypted, {} failures",
        files.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "footers that failed:\n{}",
        failed.join("\n")
    );
    assert!(parsed > 50);
    assert!(encrypted >= 5);
}

#[test]
fn plaintext_footer_with_encrypted_columns_parses() {
    let Some(root) = corpus_root() else { return };
    let bytes =
        fs::read(root.join("data/encrypt_columns_plaintext_footer.parquet.encrypted")).unwrap();
    let meta = read_metadata_from_slice(&bytes).unwrap();
    assert!(meta.encryption_algorithm.is_some());
    // README: double_field and float_field are encrypted with column keys.
    let schema = SchemaDescriptor::from_elements(&meta.schema).unwrap();
    let names = names(&schema);
    assert!(names.iter().any(|n| n == "double_field"));
    assert!(names.iter().any(|n| n == "float_field"));
    let encrypted_chunks = meta.row_groups[0]
        .columns
        .iter()
        .filter(|c| c.crypto_metadata().is_some())
        .count();
    assert!(encrypted_chunks >= 2);
}

// ---- facts stated by the corpus documentation (data/README.md and the
// per-file .md notes), written by hand.

#[test]
fn documented_delta_binary_packed() {
    let Some(root) = corpus_root() else { return };
    // delta_binary_packed.md: 200 rows, 1 row group, 66 INT64 columns
    // bitwidth0..bitwidth64 and one more, parquet-mr 1.10.0.
    let (meta, schema) = load(&root, "delta_binary_packed.parquet");
    assert_eq!(meta.num_rows, 200);
    assert_eq!(meta.row_groups.len(), 1);
    assert_eq!(schema.num_columns(), 66);
    assert!(
        meta.created_by
            .as_deref()
            .unwrap()
            .starts_with("parquet-mr version 1.10.0")
    );
    for i in 0..=40 {
        let c = schema.column(i);
        assert_eq!(c.path.string(), format!("bitwidth{i}"));
        assert_eq!(c.physical_type, Type::Int64);
    }
    let md = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    assert!(md.encodings.contains(Encoding::DeltaBinaryPacked));
}

#[test]
fn documented_delta_encoding_optional_and_required() {
    let Some(root) = corpus_root() else { return };
    let int_cols = [
        "c_customer_sk",
        "c_current_cdemo_sk",
        "c_current_hdemo_sk",
        "c_current_addr_sk",
        "c_first_shipto_date_sk",
        "c_first_sales_date_sk",
        "c_birth_day",
        "c_birth_month",
        "c_birth_year",
    ];
    let str_cols = [
        "c_customer_id",
        "c_salutation",
        "c_first_name",
        "c_last_name",
        "c_preferred_cust_flag",
        "c_birth_country",
        "c_email_address",
        "c_last_review_date",
    ];
    // The required-column file's field names end in ':' (see the Spark row
    // metadata quoted in delta_encoding_required_column.md).
    for (file, root_name, suffix, int_type, rep, def) in [
        (
            "delta_encoding_optional_column.parquet",
            "hive_schema",
            "",
            Type::Int64,
            Rep::Optional,
            1,
        ),
        (
            "delta_encoding_required_column.parquet",
            "spark_schema",
            ":",
            Type::Int32,
            Rep::Required,
            0,
        ),
    ] {
        let (meta, schema) = load(&root, file);
        assert_eq!(meta.num_rows, 100, "{file}");
        assert_eq!(schema.root_schema().name(), root_name);
        assert_eq!(schema.num_columns(), 17);
        for (i, name) in int_cols.iter().enumerate() {
            let c = schema.column(i);
            assert_eq!(c.path.string(), format!("{name}{suffix}"));
            assert_eq!(c.physical_type, int_type);
            assert_eq!(
                (c.repetition, c.max_def_level, c.max_rep_level),
                (rep, def, 0)
            );
        }
        for (i, name) in str_cols.iter().enumerate() {
            let c = schema.column(9 + i);
            assert_eq!(c.path.string(), format!("{name}{suffix}"));
            assert_eq!(c.physical_type, Type::ByteArray);
            // parquet-cli prints "L:STRING" for the legacy UTF8 annotation.
            assert_eq!(c.converted_type, Some(ConvertedType::Utf8));
            assert_eq!((c.max_def_level, c.max_rep_level), (def, 0));
        }
    }
    let (meta, _) = load(&root, "delta_encoding_required_column.parquet");
    assert_eq!(kv(&meta, "org.apache.spark.version"), Some("3.2.0"));
    // c_birth_day: min 1, max 30, no nulls (INT32 little-endian bounds).
    let stats = meta.row_groups[0].columns[6]
        .meta_data
        .as_ref()
        .unwrap()
        .statistics
        .as_ref()
        .unwrap();
    assert_eq!(stats.null_count, Some(0));
    assert_eq!(stats.min_value(), Some(&1i32.to_le_bytes()[..]));
    assert_eq!(stats.max_value(), Some(&30i32.to_le_bytes()[..]));
}

#[test]
fn documented_delta_byte_array() {
    let Some(root) = corpus_root() else { return };
    // delta_byte_array.md: hive_schema, 9 optional STRING columns, 1000 rows.
    let (meta, schema) = load(&root, "delta_byte_array.parquet");
    assert_eq!(meta.num_rows, 1000);
    assert_eq!(schema.num_columns(), 9);
    assert_eq!(schema.column(6).path.string(), "c_login");
    // c_login is all null: 1000 nulls and no bounds.
    let stats = meta.row_groups[0].columns[6]
        .meta_data
        .as_ref()
        .unwrap()
        .statistics
        .clone()
        .unwrap();
    assert_eq!(stats.null_count, Some(1000));
    assert_eq!(stats.min_value(), None);
    // c_salutation: min "Dr.", max "Sir", 30 nulls.
    let md = meta.row_groups[0].columns[1].meta_data.as_ref().unwrap();
    let stats = md.statistics.as_ref().unwrap();
    assert_eq!(stats.min_value(), Some(&b"Dr."[..]));
    assert_eq!(stats.max_value(), Some(&b"Sir"[..]));
    assert_eq!(stats.null_count, Some(30));
    assert_eq!(md.codec, CompressionCodec::Uncompressed);
    assert_eq!(md.total_compressed_size, 3362);
}

#[test]
fn documented_fixed_length_byte_array_and_null_pages() {
    let Some(root) = corpus_root() else { return };
    // fixed_length_byte_array.md: optional fixed_len_byte_array(4)
    // flba_field, 1000 values, 105 nulls, page index present.
    let (meta, schema) = load(&root, "fixed_length_byte_array.parquet");
    assert_eq!(meta.num_rows, 1000);
    assert_eq!(kv(&meta, "writer.model.name"), Some("example"));
    let c = schema.column(0);
    assert_eq!(schema.num_columns(), 1);
    assert_eq!(c.path.string(), "flba_field");
    assert_eq!(c.physical_type, Type::FixedLenByteArray);
    assert_eq!(c.type_length, Some(4));
    assert_eq!(c.max_def_level, 1);
    let chunk = &meta.row_groups[0].columns[0];
    assert!(chunk.column_index_offset.is_some() && chunk.offset_index_offset.is_some());
    let stats = chunk
        .meta_data
        .as_ref()
        .unwrap()
        .statistics
        .as_ref()
        .unwrap();
    assert_eq!(stats.null_count, Some(105));

    // int32_with_null_pages.md: optional int32 int32_field, 1000 values,
    // 275 nulls, min -2136906554, max 2145722375.
    let (meta, schema) = load(&root, "int32_with_null_pages.parquet");
    assert_eq!(meta.num_rows, 1000);
    let c = schema.column(0);
    assert_eq!(
        (c.path.string(), c.physical_type),
        ("int32_field".into(), Type::Int32)
    );
    let stats = meta.row_groups[0].columns[0]
        .meta_data
        .as_ref()
        .unwrap()
        .statistics
        .as_ref()
        .unwrap();
    assert_eq!(stats.null_count, Some(275));
    assert_eq!(
        stats.min_value(),
        Some(&(-2_136_906_554i32).to_le_bytes()[..])
    );
    assert_eq!(stats.max_value(), Some(&2_145_722_375i32.to_le_bytes()[..]));
}

#[test]
fn documented_int96_from_spark() {
    let Some(root) = corpus_root() else { return };
    // int96_from_spark.md: message spark_schema { optional int96 a; },
    // 6 values, 1 null, Spark 3.4.3.
    let (meta, schema) = load(&root, "int96_from_spark.parquet");
    assert_eq!(meta.num_rows, 6);
    assert_eq!(schema.root_schema().name(), "spark_schema");
    let c = schema.column(0);
    assert_eq!(c.path.string(), "a");
    assert_eq!(c.physical_type, Type::Int96);
    assert_eq!(c.repetition, Rep::Optional);
    assert_eq!(kv(&meta, "org.apache.spark.version"), Some("3.4.3"));
    let chunk = &meta.row_groups[0].columns[0];
    assert_eq!(
        chunk
            .meta_data
            .as_ref()
            .unwrap()
            .statistics
            .as_ref()
            .unwrap()
            .null_count,
        Some(1)
    );
}

#[test]
fn documented_nested_schemas() {
    let Some(root) = corpus_root() else { return };
    // map_no_value.md: three REQUIRED groups (MAP, MAP, LIST) each with a
    // REPEATED group; leaves key (required), value (optional), key,
    // element (required); rows start at rep levels 0,0,0 => 3 rows.
    let (meta, schema) = load(&root, "map_no_value.parquet");
    assert_eq!(meta.num_rows, 3);
    assert_eq!(
        names(&schema),
        [
            "my_map.key_value.key",
            "my_map.key_value.value",
            "my_map_no_v.key_value.key",
            "my_list.list.element"
        ]
    );
    let levels: Vec<_> = schema
        .columns()
        .iter()
        .map(|c| (c.max_def_level, c.max_rep_level))
        .collect();
    assert_eq!(levels, [(1, 1), (2, 1), (1, 1), (1, 1)]);
    let top = schema.root_schema().get_fields();
    assert_eq!(top[0].get_basic_info().converted_type(), ConvertedType::Map);
    assert_eq!(
        top[2].get_basic_info().converted_type(),
        ConvertedType::List
    );
    assert_eq!(schema.column(3).root_field_index, 2);

    // README: repeated_primitive_no_list.parquet, 4 rows, parquet-rs 53.2.0.
    let (meta, schema) = load(&root, "repeated_primitive_no_list.parquet");
    assert_eq!(meta.num_rows, 4);
    assert_eq!(meta.version, 1);
    assert_eq!(
        meta.created_by.as_deref(),
        Some("parquet-rs version 53.2.0")
    );
    assert_eq!(
        names(&schema),
        [
            "Int32_list",
            "String_list",
            "group_of_lists.Int32_list_in_group",
            "group_of_lists.String_list_in_group"
        ]
    );
    for c in schema.columns() {
        assert_eq!(
            (c.repetition, c.max_def_level, c.max_rep_level),
            (Rep::Repeated, 1, 1)
        );
    }
    assert_eq!(schema.column(1).converted_type, Some(ConvertedType::Utf8));
    assert_eq!(schema.column(0).physical_type, Type::Int32);

    // README: incorrect_map_schema.parquet, hive_schema with an optional
    // MAP whose repeated key_value (MAP_KEY_VALUE) has optional key/value.
    let (_, schema) = load(&root, "incorrect_map_schema.parquet");
    assert_eq!(schema.root_schema().name(), "hive_schema");
    assert_eq!(
        names(&schema),
        ["my_map.key_value.key", "my_map.key_value.value"]
    );
    for c in schema.columns() {
        assert_eq!((c.max_def_level, c.max_rep_level), (3, 1));
        assert_eq!(c.logical_type, Some(LogicalType::String));
    }
    let my_map = &schema.root_schema().get_fields()[0];
    assert_eq!(my_map.get_basic_info().converted_type(), ConvertedType::Map);
    assert_eq!(
        my_map.get_fields()[0].get_basic_info().converted_type(),
        ConvertedType::MapKeyValue
    );

    // old_list_structure.md: a single LIST<LIST<INT32>> value in the legacy
    // two-level form: one INT32 leaf under two repeated levels, one row.
    let (meta, schema) = load(&root, "old_list_structure.parquet");
    assert_eq!(meta.num_rows, 1);
    assert_eq!(schema.num_columns(), 1);
    let c = schema.column(0);
    assert_eq!(c.physical_type, Type::Int32);
    assert_eq!(c.max_rep_level, 2);
    assert_eq!(c.path.parts()[0], "a");
}

#[test]
fn documented_statistics_and_orders() {
    let Some(root) = corpus_root() else { return };
    // README: binary_truncated_min_max.parquet, six required binary columns
    // written by parquet-rs 55.1.0 with exactness flags per column.
    let (meta, schema) = load(&root, "binary_truncated_min_max.parquet");
    assert_eq!(meta.num_rows, 12);
    assert_eq!(
        meta.created_by.as_deref(),
        Some("parquet-rs version 55.1.0")
    );
    let expected = [
        ("utf8_full_truncation", &b"Al"[..], false, &b"Kf"[..], false),
        ("binary_full_truncation", b"Al", false, b"Kf", false),
        (
            "utf8_partial_truncation",
            b"Al",
            false,
            "🚀Kevin Bacon".as_bytes(),
            true,
        ),
        (
            "binary_partial_truncation",
            b"Al",
            false,
            &[0xFF, 0xFF, 0x01, 0x02],
            true,
        ),
        ("utf8_no_truncation", b"Al", true, b"Ke", true),
        ("binary_no_truncation", b"Al", true, b"Ke", true),
    ];
    assert_eq!(schema.num_columns(), 6);
    for (i, (name, min, min_exact, max, max_exact)) in expected.into_iter().enumerate() {
        let c = schema.column(i);
        assert_eq!(c.path.string(), name);
        assert_eq!(
            (c.physical_type, c.repetition),
            (Type::ByteArray, Rep::Required)
        );
        let stats = meta.row_groups[0].columns[i]
            .meta_data
            .as_ref()
            .unwrap()
            .statistics
            .as_ref()
            .unwrap();
        assert_eq!(stats.min_value(), Some(min), "{name}");
        assert_eq!(stats.max_value(), Some(max), "{name}");
        assert_eq!(stats.is_min_value_exact, Some(min_exact), "{name}");
        assert_eq!(stats.is_max_value_exact, Some(max_exact), "{name}");
    }

    // README: float16_zeros_and_nans.parquet, column x, Float16 logical
    // type, 3 values, 1 null, min -0 (00 80), max +0 (00 00), uncompressed,
    // dictionary at 4, data at 22, 64 bytes.
    let (meta, schema) = load(&root, "float16_zeros_and_nans.parquet");
    let c = schema.column(0);
    assert_eq!(c.path.string(), "x");
    assert_eq!(c.logical_type, Some(LogicalType::Float16));
    assert_eq!(
        (c.physical_type, c.type_length),
        (Type::FixedLenByteArray, Some(2))
    );
    let md = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    assert_eq!(md.num_values, 3);
    assert_eq!(md.codec, CompressionCodec::Uncompressed);
    assert_eq!(md.dictionary_page_offset, Some(4));
    assert_eq!(md.data_page_offset, 22);
    assert_eq!(md.total_compressed_size, 64);
    let stats = md.statistics.as_ref().unwrap();
    assert_eq!(stats.null_count, Some(1));
    assert_eq!(stats.min_value(), Some(&[0x00, 0x80][..]));
    assert_eq!(stats.max_value(), Some(&[0x00, 0x00][..]));
    assert!(
        meta.column_orders
            .as_ref()
            .unwrap()
            .iter()
            .all(|o| matches!(o, ColumnOrder::TYPE_DEFINED_ORDER(_)))
    );

    // README: nan_in_stats.parquet (pyarrow 0.8.0): DOUBLE x, 2 values,
    // snappy, dictionary at 4, data at 36, sizes 84/80.
    let (meta, schema) = load(&root, "nan_in_stats.parquet");
    assert_eq!(schema.column(0).physical_type, Type::Double);
    let md = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    assert_eq!(md.num_values, 2);
    assert_eq!(md.codec, CompressionCodec::Snappy);
    assert_eq!(md.dictionary_page_offset, Some(4));
    assert_eq!(md.data_page_offset, 36);
    assert_eq!(
        (md.total_compressed_size, md.total_uncompressed_size),
        (84, 80)
    );

    // README: byte_stream_split_extended.gzip.parquet, 14 columns, 200 rows.
    let (meta, schema) = load(&root, "byte_stream_split_extended.gzip.parquet");
    assert_eq!(meta.num_rows, 200);
    assert_eq!(meta.row_groups.len(), 1);
    assert_eq!(schema.num_columns(), 14);
    let c0 = schema.column(0);
    assert_eq!(c0.path.string(), "float16_plain");
    assert_eq!(c0.logical_type, Some(LogicalType::Float16));
    let c12 = schema.column(12);
    assert_eq!(c12.path.string(), "decimal_plain");
    assert_eq!(c12.type_length, Some(4));
    assert_eq!(
        c12.logical_type,
        Some(LogicalType::Decimal(DecimalType {
            scale: 3,
            precision: 7
        }))
    );
    assert_eq!((c12.precision, c12.scale), (Some(7), Some(3)));
    for i in [1, 3, 5, 7, 9, 11, 13] {
        let md = meta.row_groups[0].columns[i].meta_data.as_ref().unwrap();
        assert!(
            md.encodings.contains(Encoding::ByteStreamSplit),
            "column {i}"
        );
        assert_eq!(md.codec, CompressionCodec::Gzip);
    }
}

#[test]
fn documented_key_values_sorting_and_geo() {
    let Some(root) = corpus_root() else { return };
    // README: two INT32 columns, one with chunk metadata {"foo": "bar",
    // "thisiskeywithoutvalue": null}.
    let (meta, schema) = load(&root, "column_chunk_key_value_metadata.parquet");
    assert_eq!(schema.num_columns(), 2);
    assert!(
        schema
            .columns()
            .iter()
            .all(|c| c.physical_type == Type::Int32)
    );
    let with_kv: Vec<_> = meta.row_groups[0]
        .columns
        .iter()
        .filter_map(|c| c.meta_data.as_ref().unwrap().key_value_metadata())
        .collect();
    assert_eq!(with_kv.len(), 1);
    let pairs: Vec<_> = with_kv[0]
        .iter()
        .map(|kv| (kv.key.as_str(), kv.value.as_deref()))
        .collect();
    assert_eq!(
        pairs,
        [("foo", Some("bar")), ("thisiskeywithoutvalue", None)]
    );

    // README: sort_columns.parquet, two row groups; first column descending
    // with nulls first, second ascending with nulls last.
    let (meta, schema) = load(&root, "sort_columns.parquet");
    assert_eq!(meta.row_groups.len(), 2);
    assert_eq!(schema.column(0).physical_type, Type::Int64);
    assert_eq!(schema.column(1).physical_type, Type::ByteArray);
    for rg in &meta.row_groups {
        let sorting = rg.sorting_columns.as_ref().unwrap();
        assert_eq!(sorting.len(), 2);
        assert_eq!(
            (
                sorting[0].column_idx,
                sorting[0].descending,
                sorting[0].nulls_first
            ),
            (0, true, true)
        );
        assert_eq!(
            (
                sorting[1].column_idx,
                sorting[1].descending,
                sorting[1].nulls_first
            ),
            (1, false, false)
        );
    }

    // geospatial/README.md: CRS variants of GEOMETRY and GEOGRAPHY.
    let geo_leaf = |name: &str| {
        let (_, schema) = load(&root, name);
        schema
            .columns()
            .iter()
            .find_map(|c| match &c.logical_type {
                Some(
                    lt @ (LogicalType::Geometry(GeometryType { .. })
                    | LogicalType::Geography(GeographyType { .. })),
                ) => Some(lt.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{name}: no geospatial column"))
    };
    assert_eq!(
        geo_leaf("geospatial/crs-default.parquet"),
        LogicalType::Geometry(GeometryType { crs: None })
    );
    assert!(matches!(
        geo_leaf("geospatial/crs-geography.parquet"),
        LogicalType::Geography(GeographyType { crs: None, .. })
    ));
    assert_eq!(
        geo_leaf("geospatial/crs-srid.parquet"),
        LogicalType::Geometry(GeometryType {
            crs: Some("srid:5070".into())
        })
    );
    assert_eq!(
        geo_leaf("geospatial/crs-projjson.parquet"),
        LogicalType::Geometry(GeometryType {
            crs: Some("projjson:projjson_epsg_5070".into())
        })
    );
    let (meta, _) = load(&root, "geospatial/crs-projjson.parquet");
    assert!(kv(&meta, "projjson_epsg_5070").is_some());

    // README: unknown-logical-type.parquet has a logical type with an
    // arbitrary high id; it must decode as Unknown, not fail.
    let (_, schema) = load(&root, "unknown-logical-type.parquet");
    assert!(
        schema
            .columns()
            .iter()
            .any(|c| matches!(c.logical_type, Some(LogicalType::_Unknown { field_id: _ })))
    );
}

#[test]
fn bad_data_never_panics() {
    let Some(root) = corpus_root() else { return };
    let mut files = Vec::new();
    files_under(&root.join("bad_data"), &mut files);
    let (mut ok, mut err) = (0, 0);
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
    {
        let bytes = fs::read(path).unwrap();
        match read_metadata_from_slice(&bytes) {
            Ok(meta) => {
                ok += 1;
                // Building the schema may fail, but must not panic.
                let _ = SchemaDescriptor::from_elements(&meta.schema);
            }
            Err(e) => {
                err += 1;
                println!("{}: {e}", path.display());
            }
        }
    }
    println!("bad_data/: {ok} footers decoded, {err} rejected");
    assert!(ok + err >= 8);
}

/// A tiny xorshift64 generator with a fixed seed, for reproducible
/// mutations.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_footers_never_panic() {
    let Some(root) = corpus_root() else { return };
    let picks = [
        "alltypes_plain.parquet",
        "nested_structs.rust.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "binary_truncated_min_max.parquet",
        "map_no_value.parquet",
        "geospatial/geospatial.parquet",
        "unknown-logical-type.parquet",
        "encrypt_columns_plaintext_footer.parquet.encrypted",
    ];
    let start = std::time::Instant::now();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut err) = (0u32, 0u32);
    for name in picks {
        let bytes = fs::read(root.join("data").join(name)).unwrap();
        let tail: [u8; 8] = bytes[bytes.len() - 8..].try_into().unwrap();
        let len = u32::from_le_bytes(tail[..4].try_into().unwrap()) as usize;
        let footer = &bytes[bytes.len() - 8 - len..bytes.len() - 8];
        for round in 0..1500 {
            let mut m = footer.to_vec();
            match round % 3 {
                // Truncate.
                0 => m.truncate(rng.below(footer.len())),
                // Flip a few random bits.
                1 => {
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(m.len());
                        m[i] ^= 1 << rng.below(8);
                    }
                }
                // Overwrite a byte with a random value, then truncate a bit.
                _ => {
                    let i = rng.below(m.len());
                    m[i] = rng.next() as u8;
                    let keep = m.len() - rng.below(m.len().min(16));
                    m.truncate(keep);
                }
            }
            match strata_format::footer::decode_metadata(&m) {
                Ok(meta) => {
                    ok += 1;
                    let _ = SchemaDescriptor::from_elements(&meta.schema);
                }
                Err(_) => err += 1,
            }
        }
    }
    let elapsed = start.elapsed();
    println!("mutations: {ok} decoded, {err} rejected in {elapsed:?}");
    assert_eq!(ok + err, 12_000);
    assert!(err > 0);
    assert!(elapsed.as_secs() < 60, "mutation run took {elapsed:?}");
}
