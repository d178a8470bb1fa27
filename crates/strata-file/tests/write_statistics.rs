//! Statistics written by strata, with hand-written expectations: signed,
//! unsigned, floats (NaN, ±0), decimals, booleans, byte-array truncation;
//! checked in the returned metadata and as arrow-rs reads them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod write_support;

use std::sync::Arc;

use bytes::Bytes;
use parquet::file::reader::{FileReader, SerializedFileReader};
use strata_encoding::{ByteArrayBatch, FixedLenBatch};
use strata_file::properties::{EnabledStatistics, WriterProperties};
use strata_file::statistics::{truncate_max_value, truncate_min_value};
use strata_file::writer::{ColumnWriter, FileWriter};
use strata_format::metadata::{
    ConvertedType, DecimalType, FieldRepetitionType as Rep, IntType, LogicalType, SchemaElement,
    Statistics, Type,
};
use write_support::*;

/// Write one optional column with `f` and return the chunk statistics as
/// strata wrote them, checking arrow-rs reads the same bounds.
fn stats_of(
    leaf: SchemaElement,
    props: WriterProperties,
    f: impl FnOnce(&mut ColumnWriter),
) -> Statistics {
    let schema = schema_from(&[root(1), leaf]);
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    let mut rg = fw.next_row_group().unwrap();
    let mut cw = rg.next_column().unwrap().unwrap();
    f(&mut cw);
    rg.append_column(cw.close().unwrap()).unwrap();
    rg.close().unwrap();
    let meta = fw.close().unwrap();
    let stats = meta.row_groups[0].columns[0]
        .meta_data
        .as_ref()
        .unwrap()
        .statistics
        .clone()
        .unwrap();
    // arrow-rs agrees.
    let reader = SerializedFileReader::new(Bytes::from(out)).unwrap();
    let col = reader.metadata().row_group(0).column(0);
    let theirs = col.statistics().expect("arrow-rs sees statistics");
    assert_eq!(theirs.null_count_opt(), stats.null_count.map(|n| n as u64));
    assert_eq!(theirs.min_bytes_opt(), stats.min_value());
    assert_eq!(theirs.max_bytes_opt(), stats.max_value());
    if stats.max_value().is_some() {
        assert_eq!(theirs.max_is_exact(), stats.is_max_value_exact.unwrap());
        assert_eq!(theirs.min_is_exact(), stats.is_min_value_exact.unwrap());
    }
    stats
}

fn opt(ty: Type) -> SchemaElement {
    leaf("x", ty, Rep::Optional)
}

fn i32s(w: &mut ColumnWriter, v: &[i32], def: &[i16]) {
    w.typed::<i32>()
        .unwrap()
        .write_batch(v, Some(def), None)
        .unwrap();
}

#[test]
fn signed_int32() {
    let s = stats_of(opt(Type::Int32), WriterProperties::default(), |w| {
        i32s(w, &[3, -5, 7, 0], &[1, 1, 0, 1, 1, 0])
    });
    assert_eq!(s.null_count, Some(2));
    assert_eq!(s.min_value(), Some(&(-5i32).to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&7i32.to_le_bytes()[..]));
    // Signed order agrees with the legacy fields: written too.
    assert_eq!(s.min(), Some(&(-5i32).to_le_bytes()[..]));
    assert_eq!(s.max(), Some(&7i32.to_le_bytes()[..]));
    assert_eq!(s.is_min_value_exact, Some(true));
}

#[test]
fn unsigned_int32_and_int64() {
    let leaf = SchemaElement {
        converted_type: Some(ConvertedType::Uint32),
        logical_type: Some(LogicalType::Integer(IntType {
            bit_width: 32,
            is_signed: false,
        })),
        ..opt(Type::Int32)
    };
    let s = stats_of(leaf, WriterProperties::default(), |w| {
        i32s(w, &[-1, 1, 5], &[1, 1, 1])
    });
    // -1 is u32::MAX: the maximum; 1 the minimum.
    assert_eq!(s.min_value(), Some(&1i32.to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&(-1i32).to_le_bytes()[..]));
    assert_eq!((s.min(), s.max()), (None, None));

    let leaf = SchemaElement {
        converted_type: Some(ConvertedType::Uint64),
        ..opt(Type::Int64)
    };
    let s = stats_of(leaf, WriterProperties::default(), |w| {
        w.typed::<i64>()
            .unwrap()
            .write_batch(&[i64::MIN, 7, 0], Some(&[1, 1, 1]), None)
            .unwrap();
    });
    assert_eq!(s.min_value(), Some(&0i64.to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&i64::MIN.to_le_bytes()[..]));
}

fn f64s(props: WriterProperties, v: &[f64]) -> Statistics {
    let def = vec![1i16; v.len()];
    stats_of(opt(Type::Double), props, |w| {
        w.typed::<f64>()
            .unwrap()
            .write_batch(v, Some(&def), None)
            .unwrap();
    })
}

/// Floats are bounded in IEEE 754 total order (the `IEEE_754_TOTAL_ORDER`
/// column order the writer names), NaNs counted and left out unless every
/// value is NaN.
#[test]
fn floats_nan_and_signed_zero() {
    let p = WriterProperties::default;
    let s = f64s(p(), &[f64::NAN, 2.5, 0.0, -1.0, f64::NAN]);
    assert_eq!(s.min_value(), Some(&(-1.0f64).to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&2.5f64.to_le_bytes()[..]));
    assert_eq!(s.nan_count(), Some(2));

    // Zeros are ordered, -0.0 below +0.0, and written as they occur.
    let s = f64s(p(), &[0.0, 3.0]);
    assert_eq!(s.min_value(), Some(&0.0f64.to_le_bytes()[..]));
    let s = f64s(p(), &[-0.0, -3.0]);
    assert_eq!(s.max_value(), Some(&(-0.0f64).to_le_bytes()[..]));
    let s = f64s(p(), &[0.0, -0.0, f64::NAN]);
    assert_eq!(s.min_value(), Some(&(-0.0f64).to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&0.0f64.to_le_bytes()[..]));
    assert_eq!(s.nan_count(), Some(1));

    // Only NaNs: the least and greatest NaN in total order (a set sign bit
    // is the least), no deprecated bounds.
    let s = f64s(p(), &[f64::NAN, -f64::NAN, f64::NAN]);
    assert_eq!(s.min_value(), Some(&(-f64::NAN).to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&f64::NAN.to_le_bytes()[..]));
    assert_eq!((s.min(), s.max()), (None, None));
    assert_eq!((s.null_count, s.nan_count()), (Some(0), Some(3)));

    // Infinities are ordinary bounds.
    let s = f64s(p(), &[f64::INFINITY, f64::NEG_INFINITY]);
    assert_eq!(s.min_value(), Some(&f64::NEG_INFINITY.to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&f64::INFINITY.to_le_bytes()[..]));
    assert_eq!(s.nan_count(), Some(0));

    // f32 too.
    let s = stats_of(opt(Type::Float), p(), |w| {
        w.typed::<f32>()
            .unwrap()
            .write_batch(&[f32::NAN, 0.0, 1.5], Some(&[1, 1, 1, 0]), None)
            .unwrap();
    });
    assert_eq!(s.min_value(), Some(&0.0f32.to_le_bytes()[..]));
    assert_eq!(s.max_value(), Some(&1.5f32.to_le_bytes()[..]));
    assert_eq!((s.null_count, s.nan_count()), (Some(1), Some(1)));

    // Integers count no NaNs.
    let s = stats_of(opt(Type::Int32), p(), |w| {
        w.typed::<i32>()
            .unwrap()
            .write_batch(&[1], Some(&[1]), None)
            .unwrap();
    });
    assert_eq!(s.nan_count(), None);
}

#[test]
fn decimal_flba_is_signed_big_endian() {
    let leaf = SchemaElement {
        type_length: Some(2),
        converted_type: Some(ConvertedType::Decimal),
        logical_type: Some(LogicalType::Decimal(DecimalType {
            scale: 0,
            precision: 4,
        })),
        precision: Some(4),
        scale: Some(0),
        ..opt(Type::FixedLenByteArray)
    };
    // 128, -256, 127, -1
    let bytes = [0x00, 0x80, 0xFF, 0x00, 0x00, 0x7F, 0xFF, 0xFF];
    let s = stats_of(leaf, WriterProperties::default(), |w| {
        let b = FixedLenBatch::new(2, &bytes).unwrap();
        w.typed::<strata_encoding::FixedLenByteArray>()
            .unwrap()
            .write_values(b, Some(&[1; 4]), None)
            .unwrap();
    });
    assert_eq!(s.min_value(), Some(&[0xFF, 0x00][..]));
    assert_eq!(s.max_value(), Some(&[0x00, 0x80][..]));
    // Legacy signed-byte order disagrees for decimals: not written.
    assert_eq!((s.min(), s.max()), (None, None));

    // Decimals in variable-length byte arrays: sign-extended comparison.
    let leaf = SchemaElement {
        converted_type: Some(ConvertedType::Decimal),
        logical_type: Some(LogicalType::Decimal(DecimalType {
            scale: 0,
            precision: 9,
        })),
        precision: Some(9),
        scale: Some(0),
        ..opt(Type::ByteArray)
    };
    let vals: [&[u8]; 3] = [&[0x01, 0x00], &[0xFF], &[0x7F]]; // 256, -1, 127
    let s = stats_of(leaf, WriterProperties::default(), |w| {
        w.typed::<strata_encoding::ByteArray>()
            .unwrap()
            .write_values(ByteArrayBatch::from_slices(&vals), Some(&[1; 3]), None)
            .unwrap();
    });
    assert_eq!(s.min_value(), Some(&[0xFF][..]));
    assert_eq!(s.max_value(), Some(&[0x01, 0x00][..]));
}

#[test]
fn booleans() {
    let s = stats_of(opt(Type::Boolean), WriterProperties::default(), |w| {
        w.typed::<bool>()
            .unwrap()
            .write_batch(&[true, true], Some(&[1, 0, 1]), None)
            .unwrap();
    });
    assert_eq!(s.min_value(), Some(&[1u8][..]));
    assert_eq!(s.max_value(), Some(&[1u8][..]));
    assert_eq!(s.null_count, Some(1));
}

fn bytes_stats(leaf: SchemaElement, props: WriterProperties, vals: &[&[u8]]) -> Statistics {
    let def = vec![1i16; vals.len()];
    stats_of(leaf, props, |w| {
        w.typed::<strata_encoding::ByteArray>()
            .unwrap()
            .write_values(ByteArrayBatch::from_slices(vals), Some(&def), None)
            .unwrap();
    })
}

#[test]
fn byte_array_truncation() {
    let long_a: Vec<u8> = (0..100).map(|i| b'a' + (i % 3) as u8).collect();
    let long_z = vec![b'z'; 80];
    let s = bytes_stats(
        opt(Type::ByteArray),
        WriterProperties::default(),
        &[&long_a, b"m", &long_z],
    );
    // Default limit 64: min is a 64-byte prefix, max a 63-byte prefix of
    // "zzz..." with its last byte incremented to '{'.
    assert_eq!(s.min_value(), Some(&long_a[..64]));
    assert_eq!(s.is_min_value_exact, Some(false));
    let mut want_max = vec![b'z'; 63];
    want_max.push(b'{');
    assert_eq!(s.max_value(), Some(&want_max[..]));
    assert_eq!(s.is_max_value_exact, Some(false));
    assert_eq!((s.min(), s.max()), (None, None));

    // A maximum of all 0xFF cannot be shortened: kept whole, exact.
    let ff = vec![0xFFu8; 70];
    let props = WriterProperties::builder()
        .set_statistics_truncate_length(Some(8))
        .build();
    let s = bytes_stats(opt(Type::ByteArray), props, &[b"abc", &ff]);
    assert_eq!(s.max_value(), Some(&ff[..]));
    assert_eq!(s.is_max_value_exact, Some(true));
    assert_eq!(s.min_value(), Some(&b"abc"[..]));
    assert_eq!(s.is_min_value_exact, Some(true));

    // 0xFF tail: incremented as a number, as arrow-rs does: the byte before
    // the 0xFF run goes up by one, the run becomes 0x00 (same width).
    let mixed = [b'q', 0xFF, 0xFF, 0xFF, 1];
    let props = WriterProperties::builder()
        .set_statistics_truncate_length(Some(3))
        .build();
    let s = bytes_stats(opt(Type::ByteArray), props, &[&mixed]);
    assert_eq!(s.max_value(), Some(&[b'r', 0, 0][..]));
    assert_eq!(s.min_value(), Some(&mixed[..3]));

    // No truncation when disabled.
    let props = WriterProperties::builder()
        .set_statistics_truncate_length(None)
        .build();
    let s = bytes_stats(opt(Type::ByteArray), props, &[&long_a]);
    assert_eq!(s.max_value(), Some(&long_a[..]));
    assert_eq!(s.is_max_value_exact, Some(true));
}

#[test]
fn utf8_truncation_keeps_characters() {
    // "é" is 2 bytes: a cut at 5 bytes of "aaaaé..." falls inside it.
    let v = "aaaaébbbb".as_bytes();
    let props = WriterProperties::builder()
        .set_statistics_truncate_length(Some(5))
        .build();
    let s = bytes_stats(string_leaf("s", Rep::Optional), props, &[v]);
    assert_eq!(s.min_value(), Some(&b"aaaa"[..]));
    assert_eq!(s.max_value(), Some(&b"aaab"[..]));
    assert!(std::str::from_utf8(s.max_value().unwrap()).is_ok());
    // The same bytes as binary are cut mid-character.
    assert_eq!(truncate_min_value(v, 5, false), (v[..5].to_vec(), true));
    // U+10FFFF cannot be incremented: the character before it is.
    let s = "a\u{10FFFF}\u{10FFFF}";
    assert_eq!(
        truncate_max_value(s.as_bytes(), 5, true),
        (b"b".to_vec(), true)
    );
}

#[test]
fn statistics_levels_and_distinct_count() {
    let none = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::None)
        .build();
    let schema = schema_from(&[root(1), opt(Type::Int32)]);
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema.clone(), Arc::new(none)).unwrap();
    let mut rg = fw.next_row_group().unwrap();
    let mut cw = rg.next_column().unwrap().unwrap();
    i32s(&mut cw, &[1, 2], &[1, 1]);
    let chunk = cw.close().unwrap();
    assert!(chunk.metadata().statistics.is_none());
    assert!(chunk.column_index().is_none());

    let props = WriterProperties::builder()
        .set_write_distinct_count(true)
        .build();
    let s = stats_of(opt(Type::Int32), props, |w| {
        i32s(w, &[4, 4, 9, 4, 1], &[1; 5])
    });
    assert_eq!(s.distinct_count(), Some(3));
}
