//! Schema trees from flat schemas (valid and malformed), and footer
//! framing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Cursor;

use strata_format::FormatError;
use strata_format::footer::{
    decode_metadata, parse_footer_tail, read_metadata, read_metadata_from_slice, write_footer,
};
use strata_format::metadata::{
    ConvertedType, FieldRepetitionType as Rep, FileMetaData, LogicalType, SchemaElement, Type,
};
use strata_format::schema::{ColumnPath, MAX_SCHEMA_DEPTH, SchemaDescriptor};
use strata_sink::ByteSink;

fn group(name: &str, rep: Option<Rep>, n: i32) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        repetition_type: rep,
        num_children: Some(n),
        ..Default::default()
    }
}

fn leaf(name: &str, rep: Rep, ty: Type) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        repetition_type: Some(rep),
        physical_type: Some(ty),
        ..Default::default()
    }
}

fn schema_err(elements: &[SchemaElement]) -> String {
    match SchemaDescriptor::from_elements(elements) {
        Err(FormatError::Schema(msg)) => msg,
        other => panic!("expected a schema error, got {other:?}"),
    }
}

#[test]
fn three_level_list_and_map_levels() {
    // message m {
    //   optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
    //   required group attrs (MAP) { repeated group key_value {
    //       required binary key; optional group value { optional int32 x; } } }
    //   optional fixed_len_byte_array(16) id (UUID);
    // }
    let mut tags = group("tags", Some(Rep::Optional), 1);
    tags.converted_type = Some(ConvertedType::List);
    tags.logical_type = Some(LogicalType::List);
    let mut element = leaf("element", Rep::Optional, Type::ByteArray);
    element.logical_type = Some(LogicalType::String);
    let mut id = leaf("id", Rep::Optional, Type::FixedLenByteArray);
    id.type_length = Some(16);
    id.logical_type = Some(LogicalType::Uuid);
    let elements = vec![
        group("m", None, 3),
        tags,
        group("list", Some(Rep::Repeated), 1),
        element,
        group("attrs", Some(Rep::Required), 1),
        group("key_value", Some(Rep::Repeated), 2),
        leaf("key", Rep::Required, Type::ByteArray),
        group("value", Some(Rep::Optional), 1),
        leaf("x", Rep::Optional, Type::Int32),
        id,
    ];
    let schema = SchemaDescriptor::from_elements(&elements).unwrap();
    let got: Vec<_> = schema
        .columns()
        .iter()
        .map(|c| {
            (
                c.path.string(),
                c.max_def_level,
                c.max_rep_level,
                c.root_field_index,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("tags.list.element".to_string(), 3, 1, 0),
            ("attrs.key_value.key".to_string(), 1, 1, 1),
            ("attrs.key_value.value.x".to_string(), 3, 1, 1),
            ("id".to_string(), 1, 0, 2),
        ]
    );
    let id = schema.column(3);
    assert_eq!(id.type_length, Some(16));
    assert_eq!(id.logical_type, Some(LogicalType::Uuid));
    assert_eq!(
        schema.column(0).path,
        ColumnPath::from(&["tags", "list", "element"][..])
    );
    assert_eq!(schema.root_schema().get_fields().len(), 3);
    assert!(schema.root_schema().is_schema());
    assert_eq!(
        schema.root_schema().get_fields()[0]
            .get_basic_info()
            .logical_type_ref(),
        Some(&LogicalType::List)
    );
    // Flattening gives the same elements back.
    assert_eq!(schema.to_elements(), elements);
    // And a tree built in code validates the same way.
    let again = SchemaDescriptor::try_new(schema.root_schema_ptr()).unwrap();
    assert_eq!(again, schema);
}

#[test]
fn leaf_with_zero_children_and_empty_root() {
    // Some writers put num_children = 0 on leaves.
    let mut a = leaf("a", Rep::Required, Type::Int64);
    a.num_children = Some(0);
    let schema = SchemaDescriptor::from_elements(&[group("r", None, 1), a]).unwrap();
    assert_eq!(schema.num_columns(), 1);
    // A root with no children is an empty schema.
    let schema = SchemaDescriptor::from_elements(&[group("r", None, 0)]).unwrap();
    assert_eq!(schema.num_columns(), 0);
    // An empty group below the root has no leaves.
    let schema = SchemaDescriptor::from_elements(&[
        group("r", None, 2),
        group("empty", Some(Rep::Optional), 0),
        leaf("b", Rep::Optional, Type::Boolean),
    ])
    .unwrap();
    assert_eq!(schema.num_columns(), 1);
    assert_eq!(schema.column(0).root_field_index, 1);
}

#[test]
fn malformed_schemas_are_errors() {
    assert!(schema_err(&[]).contains("no elements"));
    // Child count past the end.
    let msg = schema_err(&[group("r", None, 3), leaf("a", Rep::Required, Type::Int32)]);
    assert!(msg.contains("claims 3 children"), "{msg}");
    // Nested child count past the end.
    let msg = schema_err(&[
        group("r", None, 1),
        group("g", Some(Rep::Required), 2),
        leaf("a", Rep::Required, Type::Int32),
    ]);
    assert!(msg.contains("claims 2 children"), "{msg}");
    // Leftover elements.
    let msg = schema_err(&[
        group("r", None, 1),
        leaf("a", Rep::Required, Type::Int32),
        leaf("b", Rep::Required, Type::Int32),
    ]);
    assert!(msg.contains("left over"), "{msg}");
    // Repeated root.
    let msg = schema_err(&[group("r", Some(Rep::Repeated), 0)]);
    assert!(msg.contains("repeated"), "{msg}");
    // Root that is a leaf.
    let msg = schema_err(&[leaf("r", Rep::Required, Type::Int32)]);
    assert!(msg.contains("not a group"), "{msg}");
    // Leaf without physical type.
    let mut bad = leaf("a", Rep::Required, Type::Int32);
    bad.physical_type = None;
    let msg = schema_err(&[group("r", None, 1), bad]);
    assert!(msg.contains("no physical type"), "{msg}");
    // Group with a physical type.
    let mut bad = group("g", Some(Rep::Required), 1);
    bad.physical_type = Some(Type::Int32);
    let msg = schema_err(&[
        group("r", None, 1),
        bad,
        leaf("a", Rep::Required, Type::Int32),
    ]);
    assert!(msg.contains("has a physical type"), "{msg}");
    // Negative child count.
    let msg = schema_err(&[group("r", None, 1), group("g", Some(Rep::Required), -1)]);
    assert!(msg.contains("negative"), "{msg}");
    // Field without repetition.
    let mut bad = leaf("a", Rep::Required, Type::Int32);
    bad.repetition_type = None;
    let msg = schema_err(&[group("r", None, 1), bad]);
    assert!(msg.contains("no repetition"), "{msg}");
}

#[test]
fn schema_depth_is_limited() {
    let build = |depth: usize| {
        let mut elements = vec![group("r", None, 1)];
        for i in 0..depth {
            elements.push(group(&format!("g{i}"), Some(Rep::Optional), 1));
        }
        elements.push(leaf("x", Rep::Optional, Type::Int32));
        elements
    };
    let ok = SchemaDescriptor::from_elements(&build(MAX_SCHEMA_DEPTH - 1)).unwrap();
    assert_eq!(ok.column(0).max_def_level as usize, MAX_SCHEMA_DEPTH);
    assert!(matches!(
        SchemaDescriptor::from_elements(&build(MAX_SCHEMA_DEPTH)),
        Err(FormatError::DepthLimit { .. })
    ));
    assert!(matches!(
        SchemaDescriptor::from_elements(&build(100_000)),
        Err(FormatError::DepthLimit { .. })
    ));
}

// ---- footer framing ----

fn sample_metadata() -> FileMetaData {
    FileMetaData {
        version: 1,
        schema: vec![group("r", None, 1), leaf("a", Rep::Required, Type::Int32)],
        num_rows: 0,
        created_by: Some("test".into()),
        ..Default::default()
    }
}

fn sample_file() -> Vec<u8> {
    let mut sink = ByteSink::new();
    sink.extend_from_slice(b"PAR1");
    sink.extend_from_slice(&[0xAA; 10]); // stand-in column data
    write_footer(&sample_metadata(), &mut sink).unwrap();
    sink.into_vec()
}

#[test]
fn footer_tail_parsing() {
    assert_eq!(
        parse_footer_tail(&[1, 2, 0, 0, b'P', b'A', b'R', b'1']).unwrap(),
        0x0201
    );
    assert!(matches!(
        parse_footer_tail(&[0, 0, 0, 0, b'P', b'A', b'R', b'E']),
        Err(FormatError::Encrypted)
    ));
    match parse_footer_tail(&[0, 0, 0, 0, b'O', b'R', b'C', b'!']) {
        Err(FormatError::BadMagic { found }) => assert_eq!(&found, b"ORC!"),
        other => panic!("expected BadMagic, got {other:?}"),
    }
}

#[test]
fn footer_layout_and_readers() {
    let file = sample_file();
    let meta_len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    assert_eq!(&file[file.len() - 4..], b"PAR1");
    assert_eq!(meta_len as usize, file.len() - 8 - 14);
    let meta_bytes = &file[14..file.len() - 8];
    assert_eq!(decode_metadata(meta_bytes).unwrap(), sample_metadata());
    assert_eq!(read_metadata_from_slice(&file).unwrap(), sample_metadata());
    assert_eq!(
        read_metadata(Cursor::new(&file)).unwrap(),
        sample_metadata()
    );
}

#[test]
fn footer_errors() {
    let file = sample_file();
    // Too short.
    for n in 0..12 {
        assert!(read_metadata_from_slice(&file[file.len() - n..]).is_err());
        assert!(read_metadata(Cursor::new(&file[file.len() - n..])).is_err());
    }
    // Bad head magic.
    let mut bad = file.clone();
    bad[0] = b'X';
    assert!(matches!(
        read_metadata_from_slice(&bad),
        Err(FormatError::BadMagic { .. })
    ));
    assert!(matches!(
        read_metadata(Cursor::new(&bad)),
        Err(FormatError::BadMagic { .. })
    ));
    // Length larger than the file: rejected before any allocation.
    let mut bad = file.clone();
    let n = bad.len();
    bad[n - 8..n - 4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        read_metadata_from_slice(&bad),
        Err(FormatError::InvalidFooter(_))
    ));
    assert!(matches!(
        read_metadata(Cursor::new(&bad)),
        Err(FormatError::InvalidFooter(_))
    ));
    // Length that overlaps the head magic.
    let mut bad = file.clone();
    bad[n - 8..n - 4].copy_from_slice(&((n - 8 - 3) as u32).to_le_bytes());
    assert!(read_metadata_from_slice(&bad).is_err());
    // Encrypted footer.
    let mut enc = file.clone();
    enc[n - 4..].copy_from_slice(b"PARE");
    assert!(matches!(
        read_metadata_from_slice(&enc),
        Err(FormatError::Encrypted)
    ));
    assert!(matches!(
        read_metadata(Cursor::new(&enc)),
        Err(FormatError::Encrypted)
    ));
    // Truncated metadata (length too short).
    let mut bad = file.clone();
    bad[n - 8..n - 4].copy_from_slice(&3u32.to_le_bytes());
    assert!(read_metadata_from_slice(&bad).is_err());
    // The error messages say what is wrong.
    let msg = read_metadata_from_slice(&enc).unwrap_err().to_string();
    assert!(msg.contains("encrypted"), "{msg}");
}

/// A column chunk whose `path_in_schema` is `path`, or one without
/// metadata (as an encrypted column's) when `path` is `None`.
fn chunk_at(path: Option<&[&str]>) -> strata_format::metadata::ColumnChunk {
    use strata_format::metadata::{ColumnChunk, ColumnMetaData, CompressionCodec, EncodingSet};
    ColumnChunk {
        meta_data: path.map(|path| ColumnMetaData {
            physical_type: Type::Int32,
            encodings: EncodingSet::new(),
            path_in_schema: ColumnPath::new(path.iter().map(|p| p.to_string()).collect()),
            codec: CompressionCodec::Uncompressed,
            num_values: 0,
            total_uncompressed_size: 0,
            total_compressed_size: 0,
            data_page_offset: 4,
            dictionary_page_offset: None,
            statistics: None,
            encoding_stats: None,
            size_statistics: None,
            extras: None,
        }),
        ..Default::default()
    }
}

#[test]
fn footer_schema_shares_equal_chunk_paths_only() {
    use strata_format::metadata::RowGroup;
    // message m { required group s { required int32 a; required int32 b; }
    //             required int32 c; required int32 d; required int32 e; }
    let elements = vec![
        group("m", None, 4),
        group("s", Some(Rep::Required), 2),
        leaf("a", Rep::Required, Type::Int32),
        leaf("b", Rep::Required, Type::Int32),
        leaf("c", Rep::Required, Type::Int32),
        leaf("d", Rep::Required, Type::Int32),
        leaf("e", Rep::Required, Type::Int32),
    ];
    let chunks = vec![
        chunk_at(Some(&["s", "a"])), // equal: shared
        chunk_at(Some(&["s"])),      // a prefix of s.b: not shared
        chunk_at(Some(&["x", "c"])), // longer than c: not shared
        chunk_at(None),              // no metadata: not shared
        chunk_at(Some(&["d"])),      // at e's position, but d: not shared
    ];
    let footer = FileMetaData {
        schema: elements.clone(),
        row_groups: vec![RowGroup {
            columns: chunks,
            ..Default::default()
        }],
        ..Default::default()
    };
    let shared = SchemaDescriptor::from_file_metadata(&footer).unwrap();
    let plain = SchemaDescriptor::from_elements(&elements).unwrap();
    let paths = |s: &SchemaDescriptor| -> Vec<String> {
        s.columns().iter().map(|c| c.path().string()).collect()
    };
    assert_eq!(paths(&shared), ["s.a", "s.b", "c", "d", "e"]);
    assert_eq!(paths(&shared), paths(&plain));
    let chunk_path = |i: usize| {
        footer.row_groups[0].columns[i]
            .meta_data
            .as_ref()
            .map(|m| m.path_in_schema.as_ptr())
    };
    let is_shared: Vec<bool> = (0..5)
        .map(|i| Some(shared.column(i).path().as_ptr()) == chunk_path(i))
        .collect();
    assert_eq!(is_shared, [true, false, false, false, false]);
    // A footer without row groups builds the same schema.
    let empty = FileMetaData {
        schema: elements,
        ..Default::default()
    };
    assert_eq!(
        paths(&SchemaDescriptor::from_file_metadata(&empty).unwrap()),
        paths(&plain)
    );
}
