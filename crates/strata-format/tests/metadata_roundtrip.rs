//! Every metadata struct, fully populated, survives encode then decode.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt::Debug;

use strata_format::metadata::*;
use strata_format::thrift::{ReadThrift, WriteThrift, decode_prefix, encode_to_vec};

/// Encode, decode, compare, and check that decoding consumed exactly the
/// encoded bytes and that a re-encode is byte-identical.
fn round_trip<T: ReadThrift + WriteThrift + PartialEq + Debug>(v: &T) -> Vec<u8> {
    let bytes = encode_to_vec(v);
    let (back, used) = decode_prefix::<T>(&bytes).unwrap();
    assert_eq!(&back, v);
    assert_eq!(used, bytes.len());
    assert_eq!(encode_to_vec(&back), bytes);
    // Any truncation is an error.
    for n in [0, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            decode_prefix::<T>(&bytes[..n]).is_err(),
            "prefix {n} of {v:?}"
        );
    }
    bytes
}

fn statistics() -> Statistics {
    let mut s = Statistics::default();
    s.set_max(Some(&[9, 9])).unwrap();
    s.set_min(Some(&[0])).unwrap();
    s.null_count = Some(3);
    s.set_distinct_count(Some(-7));
    s.set_max_value(Some(b"zz")).unwrap();
    s.set_min_value(Some(&[])).unwrap();
    s.is_max_value_exact = Some(false);
    s.is_min_value_exact = Some(true);
    s.set_nan_count(Some(i64::MAX));
    s
}

fn column_meta_data() -> ColumnMetaData {
    ColumnMetaData {
        physical_type: Type::ByteArray,
        encodings: vec![
            Encoding::Plain,
            Encoding::Rle,
            Encoding::RleDictionary,
            Encoding::ByteStreamSplit,
            Encoding::Alp,
            Encoding::Unknown(42),
        ]
        .into(),
        path_in_schema: vec!["a".into(), "list".into(), "element".into()].into(),
        codec: CompressionCodec::Lz4Raw,
        num_values: 1_000_000,
        total_uncompressed_size: 1 << 40,
        total_compressed_size: 1 << 33,
        data_page_offset: 4,
        dictionary_page_offset: Some(6),
        statistics: Some(statistics()),
        encoding_stats: Some(
            vec![
                PageEncodingStats {
                    page_type: PageType::DictionaryPage,
                    encoding: Encoding::Plain,
                    count: 1,
                },
                PageEncodingStats {
                    page_type: PageType::DataPageV2,
                    encoding: Encoding::RleDictionary,
                    count: 20,
                },
            ]
            .into(),
        ),
        size_statistics: Some(SizeStatistics {
            unencoded_byte_array_data_bytes: Some(77),
            repetition_level_histogram: Some(vec![1, 2, 3].into()),
            definition_level_histogram: Some(vec![4, 5, 6, 7].into()),
        }),
        extras: Some(Box::new(ColumnMetaDataExtras {
            key_value_metadata: Some(
                vec![
                    KeyValue {
                        key: "k".into(),
                        value: Some("v".into()),
                    },
                    KeyValue {
                        key: "no value".into(),
                        value: None,
                    },
                ]
                .into(),
            ),
            index_page_offset: Some(5),
            bloom_filter_offset: Some(123_456),
            bloom_filter_length: Some(2048),
            geospatial_statistics: Some(GeospatialStatistics {
                bbox: Some(BoundingBox {
                    xmin: -180.0,
                    xmax: 180.0,
                    ymin: -90.0,
                    ymax: 90.0,
                    zmin: Some(-1.5),
                    zmax: Some(1.5),
                    mmin: Some(0.0),
                    mmax: Some(f64::MAX),
                }),
                geospatial_types: Some(vec![1, 3, 1001]),
            }),
        })),
    }
}

fn column_chunk() -> ColumnChunk {
    ColumnChunk {
        file_offset: 99,
        meta_data: Some(column_meta_data()),
        offset_index_offset: Some(1000),
        offset_index_length: Some(50),
        column_index_offset: Some(2000),
        column_index_length: Some(60),
        column_descr: None,
        extras: Some(Box::new(ColumnChunkExtras {
            file_path: Some("other.parquet".into()),
            crypto_metadata: Some(ColumnCryptoMetaData::EncryptionWithColumnKey(
                EncryptionWithColumnKey {
                    path_in_schema: vec!["a".into(), "b".into()],
                    key_metadata: Some(b"kc1".to_vec()),
                },
            )),
            encrypted_column_metadata: Some(vec![0xDE, 0xAD].into()),
        })),
    }
}

fn schema_elements() -> Vec<SchemaElement> {
    vec![
        SchemaElement {
            name: "schema".into(),
            num_children: Some(2),
            ..Default::default()
        },
        SchemaElement {
            physical_type: Some(Type::FixedLenByteArray),
            type_length: Some(16),
            repetition_type: Some(FieldRepetitionType::Optional),
            name: "d".into(),
            num_children: None,
            converted_type: Some(ConvertedType::Decimal),
            scale: Some(2),
            precision: Some(30),
            field_id: Some(7),
            logical_type: Some(LogicalType::Decimal(DecimalType {
                scale: 2,
                precision: 30,
            })),
            vector_length: Some(4),
        },
        SchemaElement {
            physical_type: Some(Type::Int32),
            repetition_type: Some(FieldRepetitionType::Vector),
            name: "ünïcode".into(),
            converted_type: Some(ConvertedType::Unknown(99)),
            ..Default::default()
        },
    ]
}

fn file_metadata() -> FileMetaData {
    FileMetaData {
        version: 2,
        schema: schema_elements(),
        num_rows: 12345,
        row_groups: vec![
            RowGroup {
                columns: vec![column_chunk(), ColumnChunk::default()],
                total_byte_size: 1 << 20,
                num_rows: 12345,
                sorting_columns: Some(vec![SortingColumn {
                    column_idx: 1,
                    descending: true,
                    nulls_first: false,
                }]),
                file_offset: Some(4),
                total_compressed_size: Some(1 << 19),
                ordinal: Some(-2),
                schema_descr: None,
            },
            RowGroup::default(),
        ],
        key_value_metadata: Some(vec![KeyValue {
            key: "ARROW:schema".into(),
            value: Some("....".into()),
        }]),
        created_by: Some("strata version 0.1.0".into()),
        column_orders: Some(vec![
            // A decoded TYPE_ORDER holds SIGNED until the schema is known.
            ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::SIGNED),
            ColumnOrder::IEEE_754_TOTAL_ORDER,
            ColumnOrder::INT96_TIMESTAMP_ORDER,
        ]),
        encryption_algorithm: Some(EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
            aad_prefix: Some(b"tester".to_vec()),
            aad_file_unique: Some(vec![1, 2, 3]),
            supply_aad_prefix: Some(true),
        })),
        footer_signing_key_metadata: Some(b"kf".to_vec()),
    }
}

#[test]
fn column_orders_decode_with_unknown_members() {
    // A union member with id 9 (an empty struct), then the union's stop.
    let (order, used) = decode_prefix::<ColumnOrder>(&[0x9C, 0x00, 0x00]).unwrap();
    assert_eq!((order, used), (ColumnOrder::UNKNOWN, 3));
    assert_eq!(order.sort_order(), SortOrder::UNDEFINED);
    // With no column order a file is legacy: signed comparison.
    assert_eq!(
        FileMetaData::default().column_order(0),
        ColumnOrder::UNDEFINED
    );
    // Neither has a wire form: written, they say TYPE_ORDER.
    for order in [ColumnOrder::UNKNOWN, ColumnOrder::UNDEFINED] {
        assert_eq!(encode_to_vec(&order), [0x1C, 0x00, 0x00]);
    }
}

#[test]
fn file_metadata_round_trips() {
    round_trip(&file_metadata());
    round_trip(&FileMetaData::default());
}

#[test]
fn row_group_and_column_structs_round_trip() {
    for rg in &file_metadata().row_groups {
        round_trip(rg);
    }
    round_trip(&column_chunk());
    round_trip(&ColumnChunk::default());
    round_trip(&column_meta_data());
    round_trip(&PageEncodingStats {
        page_type: PageType::IndexPage,
        encoding: Encoding::DeltaByteArray,
        count: i32::MIN,
    });
    round_trip(&SortingColumn {
        column_idx: i32::MAX,
        descending: false,
        nulls_first: true,
    });
    round_trip(&KeyValue {
        key: String::new(),
        value: Some(String::new()),
    });
}

#[test]
fn schema_elements_round_trip() {
    for e in schema_elements() {
        round_trip(&e);
    }
}

#[test]
fn statistics_round_trip() {
    round_trip(&statistics());
    round_trip(&Statistics::default());
    round_trip(&column_meta_data().size_statistics.unwrap());
    round_trip(column_meta_data().geospatial_statistics().unwrap());
    round_trip(&SizeStatistics::default());
    // Bounds set out of field order, replaced, cleared, and longer than
    // the 32 bytes held inline.
    let long = [7u8; 40];
    let mut s = Statistics::default();
    s.set_min_value(Some(b"m")).unwrap();
    s.set_max(Some(&long)).unwrap();
    s.set_min(Some(b"abc")).unwrap();
    s.set_max_value(Some(b"zzzz")).unwrap();
    s.set_min(Some(b"a")).unwrap();
    assert_eq!(
        (s.max(), s.min(), s.max_value(), s.min_value()),
        (
            Some(&long[..]),
            Some(&b"a"[..]),
            Some(&b"zzzz"[..]),
            Some(&b"m"[..])
        )
    );
    round_trip(&s);
    s.set_max(None).unwrap();
    assert_eq!(s.max(), None);
    assert_eq!(s.min_value(), Some(&b"m"[..]));
    round_trip(&s);
    // Equal statistics compare equal whatever order the bounds were set in.
    let mut t = Statistics::default();
    t.set_max_value(Some(b"zzzz")).unwrap();
    t.set_min(Some(b"a")).unwrap();
    t.set_min_value(Some(b"m")).unwrap();
    assert_eq!(s, t);
    round_trip(&GeospatialStatistics::default());
}

#[test]
fn every_logical_type_round_trips() {
    let units = [
        TimeUnit::Millis,
        TimeUnit::Micros,
        TimeUnit::Nanos,
        TimeUnit::Unknown(4),
    ];
    let mut all = vec![
        LogicalType::String,
        LogicalType::Map,
        LogicalType::List,
        LogicalType::Enum,
        LogicalType::Decimal(DecimalType {
            scale: 0,
            precision: 38,
        }),
        LogicalType::Date,
        LogicalType::Integer(IntType {
            bit_width: 8,
            is_signed: false,
        }),
        LogicalType::Integer(IntType {
            bit_width: 64,
            is_signed: true,
        }),
        LogicalType::Unknown,
        LogicalType::Json,
        LogicalType::Bson,
        LogicalType::Uuid,
        LogicalType::Float16,
        LogicalType::Variant(VariantType {
            specification_version: Some(1),
        }),
        LogicalType::Variant(VariantType {
            specification_version: None,
        }),
        LogicalType::Geometry(GeometryType { crs: None }),
        LogicalType::Geometry(GeometryType {
            crs: Some("srid:5070".into()),
        }),
        LogicalType::Geography(GeographyType {
            crs: Some("OGC:CRS84".into()),
            algorithm: Some(EdgeInterpolationAlgorithm::Karney),
        }),
        LogicalType::Geography(GeographyType {
            crs: None,
            algorithm: None,
        }),
        LogicalType::Vector,
        LogicalType::_Unknown { field_id: 9 },
        LogicalType::_Unknown { field_id: 1000 },
    ];
    for unit in units {
        for utc in [true, false] {
            all.push(LogicalType::Time(TimeType {
                is_adjusted_to_u_t_c: utc,
                unit,
            }));
            all.push(LogicalType::Timestamp(TimestampType {
                is_adjusted_to_u_t_c: utc,
                unit,
            }));
        }
        round_trip(&unit);
    }
    for lt in &all {
        round_trip(lt);
    }
}

#[test]
fn page_headers_round_trip() {
    let v1 = PageHeader {
        page_type: PageType::DataPage,
        uncompressed_page_size: 100,
        compressed_page_size: 80,
        crc: Some(-123_456),
        data_page_header: Some(DataPageHeader {
            num_values: 10,
            encoding: Encoding::DeltaBinaryPacked,
            definition_level_encoding: Encoding::Rle,
            repetition_level_encoding: Encoding::BitPacked,
            statistics: Some(statistics()),
        }),
        index_page_header: Some(IndexPageHeader),
        dictionary_page_header: Some(DictionaryPageHeader {
            num_values: 3,
            encoding: Encoding::PlainDictionary,
            is_sorted: Some(true),
        }),
        data_page_header_v2: Some(DataPageHeaderV2 {
            num_values: 10,
            num_nulls: 2,
            num_rows: 5,
            encoding: Encoding::DeltaLengthByteArray,
            definition_levels_byte_length: 4,
            repetition_levels_byte_length: 3,
            is_compressed: Some(false),
            statistics: Some(Statistics::default()),
        }),
    };
    round_trip(&v1);
    round_trip(v1.data_page_header.as_ref().unwrap());
    round_trip(v1.dictionary_page_header.as_ref().unwrap());
    let v2 = v1.data_page_header_v2.clone().unwrap();
    assert!(!v2.values_compressed());
    round_trip(&v2);
    let default_compressed = DataPageHeaderV2 {
        is_compressed: None,
        statistics: None,
        ..v2
    };
    assert!(default_compressed.values_compressed());
    round_trip(&default_compressed);
    round_trip(&IndexPageHeader);
}

#[test]
fn page_index_round_trips() {
    round_trip(&ColumnIndex {
        null_pages: vec![false, true, false],
        min_values: vec![b"a".to_vec(), Vec::new(), b"m".to_vec()],
        max_values: vec![b"f".to_vec(), Vec::new(), b"z".to_vec()],
        boundary_order: BoundaryOrder::Ascending,
        null_counts: Some(vec![0, 10, 1]),
        repetition_level_histograms: Some(vec![1, 2, 3, 4, 5, 6]),
        definition_level_histograms: Some(vec![6, 5, 4, 3, 2, 1]),
        nan_counts: Some(vec![0, 0, 0]),
    });
    round_trip(&ColumnIndex {
        null_pages: Vec::new(),
        min_values: Vec::new(),
        max_values: Vec::new(),
        boundary_order: BoundaryOrder::Unknown(5),
        null_counts: None,
        repetition_level_histograms: None,
        definition_level_histograms: None,
        nan_counts: None,
    });
    let locations: Vec<_> = (0..40)
        .map(|i| PageLocation {
            offset: 4 + i * 1000,
            compressed_page_size: 1000,
            first_row_index: i * 100,
        })
        .collect();
    round_trip(&locations[3]);
    round_trip(&OffsetIndex {
        page_locations: locations,
        unencoded_byte_array_data_bytes: Some(vec![7; 40]),
    });
    round_trip(&OffsetIndex::default());
}

#[test]
fn bloom_filter_header_round_trips() {
    round_trip(&BloomFilterHeader {
        num_bytes: 1024,
        algorithm: BloomFilterAlgorithm::Block,
        hash: BloomFilterHash::XxHash,
        compression: BloomFilterCompression::Uncompressed,
    });
    round_trip(&BloomFilterHeader {
        num_bytes: 0,
        algorithm: BloomFilterAlgorithm::Unknown(2),
        hash: BloomFilterHash::Unknown(3),
        compression: BloomFilterCompression::Unknown(4),
    });
}

#[test]
fn encryption_structs_round_trip() {
    let gcm = AesGcmV1 {
        aad_prefix: None,
        aad_file_unique: Some(vec![9; 8]),
        supply_aad_prefix: Some(false),
    };
    round_trip(&EncryptionAlgorithm::AesGcmV1(gcm.clone()));
    round_trip(&EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1::default()));
    round_trip(&EncryptionAlgorithm::Unknown(3));
    round_trip(&FileCryptoMetaData {
        encryption_algorithm: EncryptionAlgorithm::AesGcmV1(gcm),
        key_metadata: Some(b"kf".to_vec()),
    });
    round_trip(&ColumnCryptoMetaData::EncryptionWithFooterKey);
    round_trip(&ColumnCryptoMetaData::EncryptionWithColumnKey(
        EncryptionWithColumnKey::default(),
    ));
    round_trip(&ColumnCryptoMetaData::Unknown(3));
}

#[test]
fn enums_convert_both_ways() {
    for v in -1..30 {
        assert_eq!(Encoding::from_i32(v).to_i32(), v);
        assert_eq!(CompressionCodec::from_i32(v).to_i32(), v);
        assert_eq!(ConvertedType::from_i32(v).to_i32(), v);
        assert_eq!(PageType::from_i32(v).to_i32(), v);
        assert_eq!(BoundaryOrder::from_i32(v).to_i32(), v);
        assert_eq!(EdgeInterpolationAlgorithm::from_i32(v).to_i32(), v);
        match Type::try_from_i32(v) {
            Ok(t) => assert_eq!(t.to_i32(), v),
            Err(_) => assert!(!(0..=7).contains(&v)),
        }
        match FieldRepetitionType::try_from_i32(v) {
            Ok(t) => assert_eq!(t.to_i32(), v),
            Err(_) => assert!(!(0..=3).contains(&v)),
        }
    }
    assert_eq!(CompressionCodec::from_i32(7), CompressionCodec::Lz4Raw);
    assert_eq!(Encoding::from_i32(1), Encoding::Unknown(1));
    assert_eq!(ConvertedType::from_i32(21), ConvertedType::Interval);
    assert!(Type::try_from_i32(8).is_err());
    assert!(FieldRepetitionType::try_from_i32(4).is_err());
}

/// A footer repeats each column's path in every row group; the decoder shares
/// one decoded path per column across row groups, and only when the encoded
/// bytes are identical.
#[test]
fn column_paths_are_shared_across_row_groups_only_when_equal() {
    let chunk = |path: &[&str]| ColumnChunk {
        meta_data: Some(ColumnMetaData {
            path_in_schema: path
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .into(),
            ..column_meta_data()
        }),
        ..Default::default()
    };
    let group = |paths: [&[&str]; 2]| RowGroup {
        columns: vec![chunk(paths[0]), chunk(paths[1])],
        num_rows: 1,
        ..Default::default()
    };
    let metadata = FileMetaData {
        row_groups: vec![
            group([&["a"], &["b", "c"]]),
            group([&["a"], &["b", "c"]]),
            // A different path at position 0, then the old one again.
            group([&["x", "y"], &["b", "c"]]),
            group([&["a"], &["b", "c"]]),
        ],
        ..file_metadata()
    };
    let bytes = round_trip(&metadata);
    let decoded =
        FileMetaData::read_thrift(&mut strata_format::thrift::CompactReader::new(&bytes)).unwrap();
    let path = |g: usize, c: usize| {
        decoded.row_groups[g].columns[c]
            .meta_data
            .as_ref()
            .unwrap()
            .path_in_schema
            .clone()
    };
    assert!(std::ptr::eq(path(0, 0).parts(), path(1, 0).parts()));
    assert!(std::ptr::eq(path(0, 1).parts(), path(3, 1).parts()));
    assert_eq!(&path(2, 0)[..], ["x".to_string(), "y".to_string()]);
    assert!(!std::ptr::eq(path(1, 0).parts(), path(2, 0).parts()));
    assert_eq!(&path(3, 0)[..], ["a".to_string()]);
}

#[test]
fn encoding_sets_round_trip_with_unknown_values() {
    // Known encodings, unknown values inside the bit range (10, 63) and
    // outside it (64, 1000, negative): all survive encode then decode.
    let values = [0, 3, 8, 9, 10, 63, 64, 1000, -1, i32::MIN, i32::MAX];
    let set: EncodingSet = values.iter().map(|&v| Encoding::from_i32(v)).collect();
    assert_eq!(set.len(), values.len());
    for &v in &values {
        assert!(set.contains(Encoding::from_i32(v)), "{v}");
    }
    assert!(!set.contains(Encoding::DeltaBinaryPacked));
    assert!(!set.contains(Encoding::Unknown(65)));
    round_trip(&set);
    // Written in ascending order: 0..64 first, then the others.
    let order: Vec<i32> = set.iter().map(Encoding::to_i32).collect();
    assert_eq!(
        order,
        [0, 3, 8, 9, 10, 63, i32::MIN, -1, 64, 1000, i32::MAX]
    );
    // Inside a column chunk's metadata too.
    let mut meta = column_meta_data();
    meta.encodings = set;
    round_trip(&meta);
    round_trip(&EncodingSet::new());
}

#[test]
fn encoding_lists_decode_as_sets() {
    // A list as some writers produce it: out of order, with repeats, with
    // unknown values; it decodes to the set of its values.
    let list: Vec<Encoding> = [8, 0, 8, 3, 2000, 0, 2000, -5]
        .into_iter()
        .map(Encoding::from_i32)
        .collect();
    let bytes = encode_to_vec(&list);
    let (set, used) = decode_prefix::<EncodingSet>(&bytes).unwrap();
    assert_eq!(used, bytes.len());
    let expected: EncodingSet = [
        Encoding::Plain,
        Encoding::Rle,
        Encoding::RleDictionary,
        Encoding::Unknown(2000),
        Encoding::Unknown(-5),
    ]
    .into();
    assert_eq!(set, expected);
    assert_eq!(
        format!("{set:?}"),
        "{PLAIN, RLE, RLE_DICTIONARY, UNKNOWN(-5), UNKNOWN(2000)}"
    );
    // A list of another element type is an error, not a panic.
    let strings = encode_to_vec(&vec![String::from("PLAIN")]);
    assert!(decode_prefix::<EncodingSet>(&strings).is_err());
}

#[test]
fn page_encoding_stats_lists_round_trip() {
    // Known and unknown page types and encodings, more entries than are
    // held inline, order and repeats kept.
    let entries = [
        (PageType::DictionaryPage, Encoding::Plain, 1),
        (PageType::DataPage, Encoding::RleDictionary, 7),
        (PageType::Unknown(9), Encoding::Unknown(-3), i32::MAX),
        (PageType::DataPageV2, Encoding::Unknown(77), 0),
        (PageType::DataPage, Encoding::RleDictionary, 7),
    ];
    for n in 0..=entries.len() {
        let stats: Vec<PageEncodingStats> = entries[..n]
            .iter()
            .map(|&(page_type, encoding, count)| PageEncodingStats {
                page_type,
                encoding,
                count,
            })
            .collect();
        let list = PageEncodingStatsList::from(stats.clone());
        assert_eq!(list.len(), n);
        assert_eq!(list.iter().collect::<Vec<_>>(), stats);
        assert_eq!(list.get(n), None);
        assert_eq!(format!("{list:?}"), format!("{stats:?}"));
        // Same bytes as the plain list of structs, both ways.
        let bytes = round_trip(&list);
        assert_eq!(bytes, encode_to_vec(&stats));
        let mut meta = column_meta_data();
        meta.encoding_stats = Some(list);
        round_trip(&meta);
    }
}

#[test]
fn page_encoding_stats_in_other_shapes_decode_field_by_field() {
    let entry = |page_type, encoding, count| PageEncodingStats {
        page_type,
        encoding,
        count,
    };
    // One struct, fields in the order 2, 1, 3 (field 1 in the long header
    // form): encoding PLAIN, page type DICTIONARY_PAGE, count 1.
    let reordered = [0x1C, 0x25, 0x00, 0x05, 0x02, 0x04, 0x25, 0x02, 0x00];
    let (list, used) = decode_prefix::<PageEncodingStatsList>(&reordered).unwrap();
    assert_eq!(used, reordered.len());
    let want = [entry(PageType::DictionaryPage, Encoding::Plain, 1)];
    assert_eq!(list.iter().collect::<Vec<_>>(), want);
    // A fourth, unknown field after the three: skipped.
    let extra = [0x1C, 0x15, 0x00, 0x15, 0x00, 0x15, 0x06, 0x15, 0x08, 0x00];
    let (list, used) = decode_prefix::<PageEncodingStatsList>(&extra).unwrap();
    assert_eq!(used, extra.len());
    let want = [entry(PageType::DataPage, Encoding::Plain, 3)];
    assert_eq!(list.iter().collect::<Vec<_>>(), want);
    // A missing required field is still an error.
    let missing = [0x1C, 0x15, 0x00, 0x15, 0x00, 0x00];
    assert!(decode_prefix::<PageEncodingStatsList>(&missing).is_err());
    // Cut short inside the struct: an error, not a panic.
    for end in 1..extra.len() {
        assert!(decode_prefix::<PageEncodingStatsList>(&extra[..end]).is_err());
    }
}
