//! The compact protocol: golden bytes derived by hand from the Thrift
//! compact protocol specification, primitive round trips, and malformed
//! input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use strata_format::FormatError;
use strata_format::metadata::{
    Encoding, KeyValue, LogicalType, PageEncodingStats, PageType, SchemaElement, SortingColumn,
    Statistics, Type,
};
use strata_format::thrift::{
    CompactReader, CompactWriter, FieldType, MAX_DEPTH, decode, decode_prefix, encode_to_vec,
};
use strata_sink::ByteSink;

// ---- golden bytes (derived by hand from the specification) ----

#[test]
fn golden_short_field_header_and_zigzag_i32() {
    // SortingColumn { 1: column_idx = 1, 2: descending = true,
    // 3: nulls_first = false }:
    //   field 1, delta 1, type i32 (5)      -> 0x15, zigzag(1) = 2 -> 0x02
    //   field 2, delta 1, bool true (1)     -> 0x11
    //   field 3, delta 1, bool false (2)    -> 0x12
    //   stop                                -> 0x00
    let v = SortingColumn {
        column_idx: 1,
        descending: true,
        nulls_first: false,
    };
    let golden = [0x15, 0x02, 0x11, 0x12, 0x00];
    assert_eq!(encode_to_vec(&v), golden);
    assert_eq!(decode::<SortingColumn>(&golden).unwrap(), v);
}

#[test]
fn golden_bool_fields_with_gap_in_ids() {
    // Statistics with only fields 7 (true) and 8 (false):
    //   field 7 from 0: delta 7, BOOLEAN_TRUE (1)  -> 0x71
    //   field 8: delta 1, BOOLEAN_FALSE (2)        -> 0x12
    //   stop                                       -> 0x00
    let mut v = Statistics::default();
    v.is_max_value_exact = Some(true);
    v.is_min_value_exact = Some(false);
    let golden = [0x71, 0x12, 0x00];
    assert_eq!(encode_to_vec(&v), golden);
    assert_eq!(decode::<Statistics>(&golden).unwrap(), v);
}

#[test]
fn golden_long_form_field_header() {
    // LogicalType::VECTOR is union member 19: delta 19 > 15, so the long
    // form: type byte STRUCT (12) = 0x0C, then the id as zigzag varint
    // zigzag(19) = 38 = 0x26, then 0x00 ending the empty struct, then
    // 0x00 ending the union.
    let golden = [0x0C, 0x26, 0x00, 0x00];
    assert_eq!(encode_to_vec(&LogicalType::Vector), golden);
    assert_eq!(decode::<LogicalType>(&golden).unwrap(), LogicalType::Vector);

    // An unknown member 300: zigzag(300) = 600 = 0xD8 0x04.
    let golden = [0x0C, 0xD8, 0x04, 0x00, 0x00];
    assert_eq!(
        decode::<LogicalType>(&golden).unwrap(),
        LogicalType::_Unknown { field_id: 300 }
    );
    assert_eq!(
        encode_to_vec(&LogicalType::_Unknown { field_id: 300 }),
        golden
    );
}

#[test]
fn golden_writer_uses_long_form_for_decreasing_ids() {
    let mut sink = ByteSink::new();
    let mut w = CompactWriter::new(&mut sink);
    let s = w.begin_struct();
    w.i32_field(5, -1); // delta 5: 0x55, zigzag(-1) = 1
    w.i32_field(2, 3); // delta -3: long form 0x05, zigzag(2) = 4, zigzag(3) = 6
    w.i64_field(40, 64); // delta 38: long form 0x06, zigzag(40) = 80 = 0x50, zigzag(64) = 128 = 0x80 0x01
    w.end_struct(s);
    assert_eq!(
        sink.as_slice(),
        &[0x55, 0x01, 0x05, 0x04, 0x06, 0x06, 0x50, 0x80, 0x01, 0x00]
    );

    let mut r = CompactReader::new(sink.as_slice());
    let s = r.begin_struct().unwrap();
    let mut seen = Vec::new();
    while let Some(f) = r.next_field().unwrap() {
        let v = match f.ty {
            FieldType::I32 => i64::from(r.read_i32().unwrap()),
            FieldType::I64 => r.read_i64().unwrap(),
            other => panic!("unexpected {other:?}"),
        };
        seen.push((f.id, v));
    }
    r.end_struct(s);
    assert_eq!(seen, [(5, -1), (2, 3), (40, 64)]);
}

#[test]
fn golden_list_headers() {
    // 14 elements: short form, size nibble 14 (0xE), type i32 (5) -> 0xE5.
    let v: Vec<i32> = vec![0; 14];
    let mut golden = vec![0xE5];
    golden.extend([0u8; 14]);
    assert_eq!(encode_to_vec(&v), golden);
    assert_eq!(decode::<Vec<i32>>(&golden).unwrap(), v);

    // 15 elements: long form 0xF5, then varint 15 = 0x0F.
    let v: Vec<i32> = vec![0; 15];
    let mut golden = vec![0xF5, 0x0F];
    golden.extend([0u8; 15]);
    assert_eq!(encode_to_vec(&v), golden);
    assert_eq!(decode::<Vec<i32>>(&golden).unwrap(), v);

    // 300 i64 ones: 0xF6, varint 300 = 0xAC 0x02, then zigzag(1) = 2 each.
    let v: Vec<i64> = vec![1; 300];
    let mut golden = vec![0xF6, 0xAC, 0x02];
    golden.extend([2u8; 300]);
    assert_eq!(encode_to_vec(&v), golden);
    assert_eq!(decode::<Vec<i64>>(&golden).unwrap(), v);
}

#[test]
fn golden_bool_list_and_binary_and_double() {
    // list<bool> [true, false]: size 2, element type BOOL (2) -> 0x22,
    // then one byte per element: 1, 0.
    let golden = [0x22, 0x01, 0x00];
    assert_eq!(encode_to_vec(&vec![true, false]), golden);
    assert_eq!(decode::<Vec<bool>>(&golden).unwrap(), [true, false]);
    // Some writers use BOOLEAN_TRUE (1) as the element type and 2 for false.
    assert_eq!(
        decode::<Vec<bool>>(&[0x21, 0x01, 0x02]).unwrap(),
        [true, false]
    );

    // binary "abc": varint length 3, then the bytes.
    assert_eq!(encode_to_vec(&b"abc".to_vec()), [0x03, b'a', b'b', b'c']);
    // list<string> ["a", "bc"]: 0x28 (2 x binary), then each string.
    assert_eq!(
        encode_to_vec(&vec!["a".to_string(), "bc".to_string()]),
        [0x28, 0x01, b'a', 0x02, b'b', b'c']
    );

    // double 1.0: 8 bytes little endian of 0x3FF0_0000_0000_0000.
    let golden = [0, 0, 0, 0, 0, 0, 0xF0, 0x3F];
    assert_eq!(encode_to_vec(&1.0f64), golden);
    assert_eq!(decode::<f64>(&golden).unwrap(), 1.0);

    // i32 150: zigzag 300 = 0b10_0101100 -> 0xAC 0x02. i64 -1 -> 0x01.
    assert_eq!(encode_to_vec(&150i32), [0xAC, 0x02]);
    assert_eq!(encode_to_vec(&-1i64), [0x01]);
    assert_eq!(decode::<i32>(&[0xAC, 0x02]).unwrap(), 150);
}

#[test]
fn golden_nested_struct_restarts_field_ids() {
    // SchemaElement { 1: type = INT32, 4: name = "a",
    //                 10: logicalType = STRING }:
    //   0x15 (delta 1, i32) zigzag(1) = 0x02
    //   0x38 (delta 3, binary) len 1 'a'
    //   0x6C (delta 6, struct) -> LogicalType union:
    //       0x1C (field 1 from 0 inside the union, struct) 0x00 (StringType stop)
    //       0x00 (union stop)
    //   0x00 (SchemaElement stop)
    let v = SchemaElement {
        physical_type: Some(Type::Int32),
        name: "a".into(),
        logical_type: Some(LogicalType::String),
        ..Default::default()
    };
    let golden = [0x15, 0x02, 0x38, 0x01, b'a', 0x6C, 0x1C, 0x00, 0x00, 0x00];
    assert_eq!(encode_to_vec(&v), golden);
    assert_eq!(decode::<SchemaElement>(&golden).unwrap(), v);
}

// ---- skipping, leniency and errors ----

#[test]
fn unknown_fields_of_every_type_are_skipped() {
    // KeyValue with extra fields 3..=12 of every wire type between the known
    // ones.
    let mut sink = ByteSink::new();
    let mut w = CompactWriter::new(&mut sink);
    let s = w.begin_struct();
    w.binary_field(1, b"k");
    w.bool_field(3, true);
    w.i8_field(4, -3);
    w.i16_field(5, 300);
    w.i32_field(6, 1 << 20);
    w.i64_field(7, -1 << 40);
    w.double_field(8, 2.5);
    w.binary_field(9, b"ignored");
    w.field(10, &vec![vec![1i32, 2], vec![3]]); // list<list<i32>>
    w.field(11, &{
        let mut s = Statistics::default();
        s.set_min(Some(&[1])).unwrap();
        s
    });
    w.field_header(12, FieldType::Uuid);
    w.write_byte(0);
    for b in 1..16u8 {
        w.write_byte(b);
    }
    // A map<i32, string> with two entries: size 2, key/value types 0x58.
    w.field_header(13, FieldType::Map);
    w.write_byte(2);
    w.write_byte(0x58);
    w.write_i32(1);
    w.write_binary(b"x");
    w.write_i32(2);
    w.write_binary(b"y");
    // An empty map is a single zero byte.
    w.field_header(14, FieldType::Map);
    w.write_byte(0);
    // A set<bool> of 3.
    w.field_header(15, FieldType::Set);
    w.write_list_header(FieldType::BoolFalse, 3);
    w.write_bool_element(true);
    w.write_bool_element(false);
    w.write_bool_element(true);
    w.binary_field(2, b"v");
    w.end_struct(s);

    let kv = decode::<KeyValue>(sink.as_slice()).unwrap();
    assert_eq!(
        kv,
        KeyValue {
            key: "k".into(),
            value: Some("v".into())
        }
    );
    let (_, used) = decode_prefix::<KeyValue>(sink.as_slice()).unwrap();
    assert_eq!(used, sink.len());
}

#[test]
fn known_field_with_another_wire_type_is_skipped() {
    // KeyValue field 2 sent as an i32: ignored, like an unknown field.
    let bytes = [0x18, 0x01, b'k', 0x15, 0x04, 0x00];
    assert_eq!(
        decode::<KeyValue>(&bytes).unwrap(),
        KeyValue {
            key: "k".into(),
            value: None
        }
    );
}

#[test]
fn missing_required_field_is_reported() {
    // PageEncodingStats with only page_type.
    let bytes = [0x15, 0x00, 0x00];
    match decode::<PageEncodingStats>(&bytes) {
        Err(FormatError::MissingField { struct_name, field }) => {
            assert_eq!((struct_name, field), ("PageEncodingStats", "encoding"));
        }
        other => panic!("expected MissingField, got {other:?}"),
    }
}

#[test]
fn unknown_enum_values_are_kept_and_invalid_physical_type_rejected() {
    // PageEncodingStats { page_type = 9, encoding = 77, count = 1 }.
    let bytes = [0x15, 18, 0x15, 154, 0x01, 0x15, 0x02, 0x00];
    let v = decode::<PageEncodingStats>(&bytes).unwrap();
    assert_eq!(v.page_type, PageType::Unknown(9));
    assert_eq!(v.encoding, Encoding::Unknown(77));
    assert_eq!(encode_to_vec(&v), bytes);
    assert_eq!(Encoding::from_i32(10), Encoding::Alp);
    assert_eq!(Encoding::from_i32(9), Encoding::ByteStreamSplit);

    // SchemaElement { type = 8 } is not a physical type.
    let bytes = [0x15, 16, 0x38, 0x01, b'a', 0x00];
    assert!(matches!(
        decode::<SchemaElement>(&bytes),
        Err(FormatError::InvalidValue {
            what: "physical type",
            value: 8
        })
    ));
}

#[test]
fn depth_limit_stops_deep_nesting() {
    // KeyValue, unknown field 3 as a struct, whose field 1 is a struct,
    // ... 10_000 levels deep.
    let mut bytes = vec![0x3C];
    bytes.extend(std::iter::repeat_n(0x1C, 10_000));
    bytes.extend(std::iter::repeat_n(0x00, 10_001));
    match decode::<KeyValue>(&bytes) {
        Err(FormatError::DepthLimit { limit, .. }) => assert_eq!(limit, MAX_DEPTH),
        other => panic!("expected DepthLimit, got {other:?}"),
    }
    // Nested lists count too: list<list<list<...>>>.
    let mut bytes = vec![0x39];
    bytes.extend(std::iter::repeat_n(0x19, 10_000));
    assert!(matches!(
        decode::<KeyValue>(&bytes),
        Err(FormatError::DepthLimit { .. })
    ));
    // Within the limit is fine.
    let mut bytes = vec![0x18, 0x01, b'k', 0x3C];
    bytes.extend(std::iter::repeat_n(0x1C, MAX_DEPTH - 3));
    bytes.extend(std::iter::repeat_n(0x00, MAX_DEPTH - 1));
    assert!(decode::<KeyValue>(&bytes).is_ok());
}

#[test]
fn huge_lengths_fail_before_allocating() {
    // list<i64> claiming 2^31-1 elements with 3 bytes of data.
    let bytes = [0xF6, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3];
    assert!(matches!(
        decode::<Vec<i64>>(&bytes),
        Err(FormatError::Eof { .. })
    ));
    // list of doubles needs 8 bytes per element.
    let bytes = [0x37, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    assert!(matches!(
        decode::<Vec<f64>>(&bytes),
        Err(FormatError::Eof { .. })
    ));
    // A list size above i32::MAX is invalid.
    let bytes = [0xF6, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
    assert!(decode::<Vec<i64>>(&bytes).is_err());
    // binary of length u64::MAX.
    let mut bytes = vec![0xFF; 9];
    bytes.push(0x01);
    assert!(matches!(
        decode::<Vec<u8>>(&bytes),
        Err(FormatError::Eof { .. })
    ));
    // Unknown map field claiming many entries.
    let bytes = [0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x55, 0x00];
    assert!(decode::<KeyValue>(&bytes).is_err());
}

#[test]
fn malformed_primitives_are_errors() {
    // Truncated varint.
    assert!(matches!(
        decode::<i64>(&[0x80, 0x80]),
        Err(FormatError::Eof { .. })
    ));
    // Overlong varint.
    assert!(matches!(
        decode::<i64>(&[0xFF; 11]),
        Err(FormatError::InvalidThrift { .. })
    ));
    // i32 out of range: zigzag(2^31) = 2^32 -> 0x80 0x80 0x80 0x80 0x10.
    assert!(matches!(
        decode::<i32>(&[0x80, 0x80, 0x80, 0x80, 0x10]),
        Err(FormatError::InvalidThrift { .. })
    ));
    // Invalid UTF-8 in a string.
    assert!(matches!(
        decode::<String>(&[0x02, 0xC3, 0x28]),
        Err(FormatError::InvalidThrift { .. })
    ));
    // Unknown field wire type 14.
    assert!(decode::<KeyValue>(&[0x1E, 0x00]).is_err());
    // Struct with no stop byte.
    assert!(matches!(
        decode::<KeyValue>(&[0x18, 0x01, b'k']),
        Err(FormatError::Eof { .. })
    ));
    // Bool element that is not 0, 1 or 2.
    assert!(decode::<Vec<bool>>(&[0x12, 0x07]).is_err());
    // List element type that does not match.
    assert!(decode::<Vec<i32>>(&[0x18, 0x01, b'a']).is_err());
    // Empty input.
    assert!(decode::<KeyValue>(&[]).is_err());
}

#[test]
fn every_prefix_of_a_valid_struct_is_an_error_not_a_panic() {
    let v = SchemaElement {
        physical_type: Some(Type::FixedLenByteArray),
        type_length: Some(16),
        name: "uuid".into(),
        logical_type: Some(LogicalType::Uuid),
        ..Default::default()
    };
    let bytes = encode_to_vec(&v);
    for n in 0..bytes.len() {
        assert!(decode::<SchemaElement>(&bytes[..n]).is_err(), "prefix {n}");
    }
    assert_eq!(decode::<SchemaElement>(&bytes).unwrap(), v);
}

// ---- property tests: primitives through the protocol ----

fn round_trip_field<T>(
    write: impl Fn(&mut CompactWriter<'_>),
    read: impl Fn(&mut CompactReader<'_>) -> T,
) -> T {
    let mut sink = ByteSink::new();
    let mut w = CompactWriter::new(&mut sink);
    write(&mut w);
    let mut r = CompactReader::new(sink.as_slice());
    let v = read(&mut r);
    assert_eq!(r.position(), sink.len());
    v
}

proptest! {
    #[test]
    fn i32_round_trips(v: i32) {
        prop_assert_eq!(decode::<i32>(&encode_to_vec(&v)).unwrap(), v);
        let got = round_trip_field(|w| w.write_i32(v), |r| r.read_i32().unwrap());
        prop_assert_eq!(got, v);
    }

    #[test]
    fn i64_round_trips(v: i64) {
        prop_assert_eq!(decode::<i64>(&encode_to_vec(&v)).unwrap(), v);
    }

    #[test]
    fn i16_and_i8_round_trip(a: i16, b: i8) {
        prop_assert_eq!(decode::<i16>(&encode_to_vec(&a)).unwrap(), a);
        prop_assert_eq!(decode::<i8>(&encode_to_vec(&b)).unwrap(), b);
    }

    #[test]
    fn double_round_trips(v: f64) {
        let got = decode::<f64>(&encode_to_vec(&v)).unwrap();
        prop_assert_eq!(got.to_bits(), v.to_bits());
    }

    #[test]
    fn binary_round_trips(v in proptest::collection::vec(any::<u8>(), 0..600)) {
        let bytes = encode_to_vec(&v);
        let (got, used) = decode_prefix::<Vec<u8>>(&bytes).unwrap();
        prop_assert_eq!(got, v);
        prop_assert_eq!(used, bytes.len());
    }

    #[test]
    fn string_round_trips(v in ".{0,40}") {
        prop_assert_eq!(decode::<String>(&encode_to_vec(&v)).unwrap(), v);
    }

    #[test]
    fn lists_round_trip(
        a in proptest::collection::vec(any::<i64>(), 0..100),
        b in proptest::collection::vec(any::<i32>(), 0..40),
        c in proptest::collection::vec(any::<bool>(), 0..40),
        d in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..20), 0..30),
    ) {
        prop_assert_eq!(decode::<Vec<i64>>(&encode_to_vec(&a)).unwrap(), a);
        prop_assert_eq!(decode::<Vec<i32>>(&encode_to_vec(&b)).unwrap(), b);
        prop_assert_eq!(decode::<Vec<bool>>(&encode_to_vec(&c)).unwrap(), c);
        prop_assert_eq!(decode::<Vec<Vec<u8>>>(&encode_to_vec(&d)).unwrap(), d);
    }

    #[test]
    fn field_ids_round_trip(ids in proptest::collection::vec(any::<i16>(), 1..30)) {
        // Any sequence of ids, increasing or not, survives the delta coding.
        let mut sink = ByteSink::new();
        let mut w = CompactWriter::new(&mut sink);
        let s = w.begin_struct();
        for &id in &ids {
            w.i32_field(id, i32::from(id));
        }
        w.end_struct(s);
        let mut r = CompactReader::new(sink.as_slice());
        let s = r.begin_struct().unwrap();
        let mut got = Vec::new();
        while let Some(f) = r.next_field().unwrap() {
            prop_assert_eq!(f.ty, FieldType::I32);
            prop_assert_eq!(r.read_i32().unwrap(), i32::from(f.id));
            got.push(f.id);
        }
        r.end_struct(s);
        prop_assert_eq!(got, ids);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode::<strata_format::FileMetaData>(&bytes);
        let _ = decode::<strata_format::PageHeader>(&bytes);
        let _ = decode::<strata_format::ColumnIndex>(&bytes);
        let _ = decode::<LogicalType>(&bytes);
    }
}

#[test]
fn statistics_bounds_out_of_order_repeated_or_mistyped() {
    // Fields 6, 1, 5, 6 again (the last value wins, as for any repeated
    // field), and field 2 with a wrong wire type (skipped).
    let mut sink = ByteSink::new();
    let mut w = CompactWriter::new(&mut sink);
    let s = w.begin_struct();
    w.binary_field(6, b"first");
    w.i32_field(2, 5);
    w.binary_field(5, b"hi");
    w.binary_field(6, b"lo");
    w.end_struct(s);
    let mut sink2 = ByteSink::new();
    let mut w = CompactWriter::new(&mut sink2);
    let s = w.begin_struct();
    w.binary_field(6, b"lo");
    w.binary_field(1, &[1u8; 33]);
    w.binary_field(5, b"hi");
    w.end_struct(s);
    for (bytes, max) in [
        (sink.as_slice(), None),
        (sink2.as_slice(), Some(&[1u8; 33][..])),
    ] {
        let v = decode::<Statistics>(bytes).unwrap();
        assert_eq!(v.min_value(), Some(&b"lo"[..]));
        assert_eq!(v.max_value(), Some(&b"hi"[..]));
        assert_eq!(v.min(), None);
        assert_eq!(v.max(), max);
        // A truncated value is an error.
        assert!(decode::<Statistics>(&bytes[..bytes.len() - 2]).is_err());
    }
}
