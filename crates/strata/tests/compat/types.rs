// Programs about Arrow types: temporal, decimal, integer/float/boolean,
// binary and string, dictionary arrays, nested lists, structs and maps.
// Each writes with `pq` and reads back with `pq`. Included into a module
// that has `pq` in scope.
//
// Left out on purpose (strata stores them differently by design, see
// docs/architecture.md, "Writer options" and "Time units on read"): Date64,
// Time32(Second), Timestamp(Second, _), and Interval types.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{
    FixedSizeListBuilder, Float32Builder, Int32Builder, Int64Builder, LargeListBuilder,
    ListBuilder, MapBuilder, OffsetBufferBuilder, StringBuilder, StringDictionaryBuilder,
};
use arrow_array::types::{Int8Type, Int32Type, UInt16Type};
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal32Array, Decimal64Array,
    Decimal128Array, DictionaryArray, DurationMicrosecondArray, DurationMillisecondArray,
    FixedSizeBinaryArray, Float32Array, Float64Array, Int8Array, Int16Array, Int32Array,
    Int64Array, LargeBinaryArray, LargeStringArray, ListArray, RecordBatch, StringArray,
    StructArray, Time32MillisecondArray, Time64MicrosecondArray, Time64NanosecondArray,
    TimestampMicrosecondArray, TimestampMillisecondArray, TimestampNanosecondArray, UInt8Array,
    UInt16Array, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Fields};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use pq::file::properties::{WriterProperties, WriterVersion};

use crate::summary::{fmt_batches, fmt_digest};

/// Write `batches` (one schema) to memory; read back in batches of `batch_size`.
fn write_then_read(
    batches: &[RecordBatch],
    props: Option<WriterProperties>,
    batch_size: usize,
) -> Vec<RecordBatch> {
    let mut writer = ArrowWriter::try_new(Vec::new(), batches[0].schema(), props).unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    let file = Bytes::from(writer.into_inner().unwrap());
    ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_batch_size(batch_size)
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// Dates, times, timestamps (with and without zones) and durations.
pub fn temporal_types(_dir: &Path) -> String {
    let day = 86_400_000i64;
    let date = Date32Array::from(vec![Some(0), Some(19_000), None, Some(-365)]);
    let t_ms = Time32MillisecondArray::from(vec![Some(0), Some(86_399_999), Some(4), None]);
    let t_us = Time64MicrosecondArray::from(vec![Some(1), None, Some(3_600_000_000), Some(7)]);
    let t_ns = Time64NanosecondArray::from(vec![None, Some(5), Some(86_399_999_999_999), Some(0)]);
    let ts_ms =
        TimestampMillisecondArray::from(vec![Some(0), Some(1_700_000_000_123), None, Some(-day)]);
    let ts_us = TimestampMicrosecondArray::from(vec![Some(1), Some(2), Some(3), None]);
    let ts_ns = TimestampNanosecondArray::from(vec![
        Some(1_600_000_000_000_000_000),
        None,
        Some(0),
        Some(-1),
    ]);
    let dur_ms = DurationMillisecondArray::from(vec![Some(-1), Some(0), Some(day), None]);
    let dur_us =
        DurationMicrosecondArray::from(vec![Some(7), None, Some(i64::MAX), Some(i64::MIN)]);
    let batch = RecordBatch::try_from_iter([
        ("date", Arc::new(date) as ArrayRef),
        ("t_ms", Arc::new(t_ms)),
        ("t_us", Arc::new(t_us)),
        ("t_ns", Arc::new(t_ns)),
        ("ts_ms", Arc::new(ts_ms)),
        ("ts_us_utc", Arc::new(ts_us.with_timezone("UTC"))),
        ("ts_ns_off", Arc::new(ts_ns.with_timezone("+02:00"))),
        ("dur_ms", Arc::new(dur_ms)),
        ("dur_us", Arc::new(dur_us)),
    ])
    .unwrap();
    fmt_batches(&write_then_read(
        &[batch.clone(), batch.slice(1, 2)],
        None,
        1024,
    ))
}

/// Decimals of every width, from 32-bit to 256-bit storage.
pub fn decimal_types(_dir: &Path) -> String {
    let d32 = Decimal32Array::from(vec![Some(1234567), None, Some(-9999999), Some(0)])
        .with_precision_and_scale(7, 3)
        .unwrap();
    let d64 = Decimal64Array::from(vec![Some(123_456_789_012_345), Some(-1), None, Some(10)])
        .with_precision_and_scale(15, 2)
        .unwrap();
    let small = Decimal128Array::from(vec![Some(12_345), Some(-12_345), None, Some(999_999_999)])
        .with_precision_and_scale(9, 2)
        .unwrap();
    let mid = Decimal128Array::from(vec![
        Some(1),
        Some(999_999_999_999_999_999),
        Some(-(10i128.pow(17))),
        None,
    ])
    .with_precision_and_scale(18, 4)
    .unwrap();
    let wide = Decimal128Array::from(vec![
        Some(10i128.pow(37)),
        None,
        Some(-(10i128.pow(36)) - 7),
        Some(0),
    ])
    .with_precision_and_scale(38, 10)
    .unwrap();
    let huge = arrow_cast::cast(&wide, &DataType::Decimal256(50, 12)).unwrap();
    let batch = RecordBatch::try_from_iter([
        ("d32", Arc::new(d32) as ArrayRef),
        ("d64", Arc::new(d64) as ArrayRef),
        ("d128_9", Arc::new(small) as ArrayRef),
        ("d128_18", Arc::new(mid) as ArrayRef),
        ("d128_38", Arc::new(wide) as ArrayRef),
        ("d256_50", huge),
    ])
    .unwrap();
    fmt_batches(&write_then_read(&[batch], None, 1024))
}

/// Every integer width signed and unsigned at its extremes, floats with
/// NaN, infinities and -0.0, half floats, and booleans.
pub fn integer_float_bool_types(_dir: &Path) -> String {
    let i8s = Int8Array::from(vec![i8::MIN, -1, 0, 1, i8::MAX]);
    let i16s = Int16Array::from(vec![
        Some(i16::MIN),
        None,
        Some(0),
        Some(300),
        Some(i16::MAX),
    ]);
    let i32s = Int32Array::from(vec![i32::MIN, -7, 0, 7, i32::MAX]);
    let i64s = Int64Array::from(vec![
        Some(i64::MIN),
        Some(-7),
        None,
        Some(7),
        Some(i64::MAX),
    ]);
    let u8s = UInt8Array::from(vec![0, 1, 127, 128, u8::MAX]);
    let u16s = UInt16Array::from(vec![Some(0), Some(32768), None, Some(1), Some(u16::MAX)]);
    let u32s = UInt32Array::from(vec![0, 1, 1 << 31, (1 << 31) - 1, u32::MAX]);
    let u64s = UInt64Array::from(vec![
        Some(0),
        Some(1 << 63),
        Some((1 << 63) - 1),
        None,
        Some(u64::MAX),
    ]);
    let f32s = Float32Array::from(vec![
        Some(f32::NAN),
        Some(f32::INFINITY),
        Some(-0.0),
        None,
        Some(1e-38),
    ]);
    let f64s = Float64Array::from(vec![f64::NEG_INFINITY, f64::MAX, f64::MIN, 1e-300, 0.1]);
    let halves = Float32Array::from(vec![Some(0.5), Some(-2.0), None, Some(65504.0), Some(1e-3)]);
    let halves = arrow_cast::cast(&halves, &DataType::Float16).unwrap();
    let bools = BooleanArray::from(vec![Some(true), None, Some(false), Some(true), Some(false)]);
    let batch = RecordBatch::try_from_iter([
        ("i8", Arc::new(i8s) as ArrayRef),
        ("i16", Arc::new(i16s)),
        ("i32", Arc::new(i32s)),
        ("i64", Arc::new(i64s)),
        ("u8", Arc::new(u8s)),
        ("u16", Arc::new(u16s)),
        ("u32", Arc::new(u32s)),
        ("u64", Arc::new(u64s)),
        ("f16", halves),
        ("f32", Arc::new(f32s)),
        ("f64", Arc::new(f64s)),
        ("bool", Arc::new(bools)),
    ])
    .unwrap();
    fmt_batches(&write_then_read(&[batch], None, 2))
}

/// Binary, large binary, fixed-size binary and strings of many lengths and
/// scripts, over several pages.
pub fn binary_and_string_types(_dir: &Path) -> String {
    let n = 300;
    let bin =
        BinaryArray::from_iter((0..n).map(|i| {
            (i % 10 != 9).then(|| (0..i % 40).map(|b| (b * i) as u8).collect::<Vec<u8>>())
        }));
    let large_bin = LargeBinaryArray::from_iter_values((0..n).map(|i| vec![0xAB; i % 5]));
    let fixed = FixedSizeBinaryArray::try_from_sparse_iter_with_size(
        (0..n).map(|i| (i % 7 != 6).then_some([(i % 256) as u8; 16])),
        16,
    )
    .unwrap();
    let text = StringArray::from_iter((0..n).map(|i| match i % 4 {
        0 => Some("ascii".repeat(i % 9)),
        1 => Some(format!("ünïcödé-{i}-日本語")),
        2 => None,
        _ => Some(String::new()),
    }));
    let large_text = LargeStringArray::from_iter_values((0..n).map(|i| "x".repeat(i * 3 % 1000)));
    let batch = RecordBatch::try_from_iter([
        ("bin", Arc::new(bin) as ArrayRef),
        ("large_bin", Arc::new(large_bin) as ArrayRef),
        ("fixed", Arc::new(fixed) as ArrayRef),
        ("text", Arc::new(text) as ArrayRef),
        ("large_text", Arc::new(large_text) as ArrayRef),
    ])
    .unwrap();
    let props = WriterProperties::builder()
        .set_data_page_size_limit(2048)
        .build();
    fmt_batches(&write_then_read(&[batch], Some(props), 1024))
}

/// Dictionary-encoded Arrow arrays with different key types; each batch
/// brings its own dictionary.
pub fn dictionary_arrays(_dir: &Path) -> String {
    let make = |words: &[&str], start: usize| {
        let mut by_int32 = StringDictionaryBuilder::<Int32Type>::new();
        let mut by_int8 = StringDictionaryBuilder::<Int8Type>::new();
        for i in 0..25 {
            let word = words[(i * 7 + start) % words.len()];
            if i % 6 == 5 {
                by_int32.append_null()
            } else {
                by_int32.append_value(word)
            }
            by_int8.append_value(format!("{word}-{}", i % 2));
        }
        let keys = UInt16Array::from_iter((0..25u16).map(|i| (i % 4 != 3).then_some(i % 3)));
        let binary = DictionaryArray::<UInt16Type>::try_new(
            keys,
            Arc::new(BinaryArray::from_iter_values([
                b"\x00".as_slice(),
                b"ab".as_slice(),
                b"".as_slice(),
            ])),
        )
        .unwrap();
        RecordBatch::try_from_iter([
            ("word", Arc::new(by_int32.finish()) as ArrayRef),
            ("tagged", Arc::new(by_int8.finish()) as ArrayRef),
            ("raw", Arc::new(binary) as ArrayRef),
        ])
        .unwrap()
    };
    let first = make(&["alpha", "beta", "gamma"], 0);
    let second = make(&["delta", "alpha", "epsilon", "zeta"], 3);
    let mut out = String::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .build();
        let read = write_then_read(&[first.clone(), second.clone()], Some(props), 20);
        out.push_str(&format!("v{}:\n{}", version.as_num(), fmt_batches(&read)));
    }
    out
}

/// A list of structs with nulls at every level.
pub fn nested_list_of_structs(_dir: &Path) -> String {
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", DataType::Utf8, false),
    ]);
    let values = StructArray::new(
        fields.clone(),
        vec![
            Arc::new(Int32Array::from(vec![
                Some(1),
                None,
                Some(3),
                Some(4),
                Some(5),
                Some(6),
            ])) as ArrayRef,
            Arc::new(StringArray::from(vec!["p", "q", "r", "s", "t", "u"])),
        ],
        Some(vec![true, true, false, true, true, true].into()),
    );
    let item = Arc::new(Field::new("item", DataType::Struct(fields), true));
    // Rows: [{1,p},{null,q}], null, [], [null-struct, {4,s}], [{5,t},{6,u}]
    let mut offsets = OffsetBufferBuilder::<i32>::new(5);
    for length in [2, 0, 0, 2, 2] {
        offsets.push_length(length);
    }
    let list = ListArray::new(
        item,
        offsets.finish(),
        Arc::new(values),
        Some(vec![true, false, true, true, true].into()),
    );
    let batch = RecordBatch::try_from_iter([
        (
            "row",
            Arc::new(Int32Array::from_iter_values(0..5)) as ArrayRef,
        ),
        ("items", Arc::new(list) as ArrayRef),
    ])
    .unwrap();
    let read = write_then_read(&[batch.clone(), batch.slice(3, 2)], None, 3);
    fmt_batches(&read)
}

/// Maps (with null and empty maps and null values) and lists of lists.
pub fn maps_and_nested_lists(_dir: &Path) -> String {
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
    let mut nested = ListBuilder::new(ListBuilder::new(Int32Builder::new()));
    for i in 0..9i64 {
        for k in 0..i % 4 {
            map.keys().append_value(format!("key{k}"));
            map.values().append_option((k != 2).then_some(i * 100 + k));
        }
        map.append(i != 4).unwrap();
        for j in 0..i % 3 {
            let inner = nested.values();
            for v in 0..j + 1 {
                inner
                    .values()
                    .append_option((v != 1).then_some((i * 10 + v) as i32));
            }
            inner.append(!(i == 5 && j == 1));
        }
        nested.append(i != 7);
    }
    let batch = RecordBatch::try_from_iter([
        ("attrs", Arc::new(map.finish()) as ArrayRef),
        ("matrix", Arc::new(nested.finish()) as ArrayRef),
    ])
    .unwrap();
    fmt_batches(&write_then_read(&[batch], None, 4))
}

/// Large lists and fixed-size lists.
pub fn large_and_fixed_size_lists(_dir: &Path) -> String {
    let mut large = LargeListBuilder::new(Int64Builder::new());
    let mut vectors = FixedSizeListBuilder::new(Float32Builder::new(), 3);
    for i in 0..10 {
        large.append_value((0..i % 4).map(|v| (v != 2).then_some(v * i)));
        if i % 4 == 3 {
            vectors.values().append_nulls(3);
            vectors.append(false);
        } else {
            vectors
                .values()
                .append_slice(&[i as f32, i as f32 * 0.5, -(i as f32)]);
            vectors.append(true);
        }
    }
    let batch = RecordBatch::try_from_iter([
        ("large", Arc::new(large.finish()) as ArrayRef),
        ("vectors", Arc::new(vectors.finish()) as ArrayRef),
    ])
    .unwrap();
    fmt_batches(&write_then_read(&[batch], None, 1024))
}

fn coerced_file() -> Bytes {
    let mut list = ListBuilder::new(Int32Builder::new());
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    for i in 0..4 {
        list.append_value((0..i).map(Some));
        map.keys().append_value(format!("k{i}"));
        map.values().append_value(i);
        map.append(true).unwrap();
    }
    let batch = RecordBatch::try_from_iter([
        ("list", Arc::new(list.finish()) as ArrayRef),
        ("map", Arc::new(map.finish()) as ArrayRef),
        (
            "day",
            Arc::new(Date32Array::from(vec![1, 2, 3, 4])) as ArrayRef,
        ),
    ])
    .unwrap();
    let props = WriterProperties::builder().set_coerce_types(true).build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

/// With `set_coerce_types(true)` the Parquet schema uses the spec's names
/// (`element`, `key_value`), which a reader that skips the embedded Arrow
/// schema sees.
pub fn coerce_types_read_plain(_dir: &Path) -> String {
    let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(coerced_file(), options).unwrap();
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    fmt_batches(&batches)
}

/// The same file read with its embedded Arrow schema: which names do the
/// list element and map entries get?
pub fn coerce_types_read_with_arrow_schema(_dir: &Path) -> String {
    let builder = ParquetRecordBatchReaderBuilder::try_new(coerced_file()).unwrap();
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    fmt_batches(&batches)
}

/// Many rows of a wide mixed table in several batches and row groups,
/// summarised by a digest.
pub fn wide_table_many_batches(_dir: &Path) -> String {
    let make = |start: i64, n: i64| {
        RecordBatch::try_from_iter([
            (
                "a",
                Arc::new(Int64Array::from_iter_values(start..start + n)) as ArrayRef,
            ),
            (
                "b",
                Arc::new(Float64Array::from_iter(
                    (start..start + n).map(|i| (i % 3 != 0).then_some(i as f64 / 7.0)),
                )) as ArrayRef,
            ),
            (
                "c",
                Arc::new(StringArray::from_iter_values(
                    (start..start + n).map(|i| format!("row {i}")),
                )) as ArrayRef,
            ),
            (
                "d",
                Arc::new(Date32Array::from_iter_values(
                    (start..start + n).map(|i| (i % 20000) as i32),
                )) as ArrayRef,
            ),
            (
                "e",
                Arc::new(BooleanArray::from_iter(
                    (start..start + n).map(|i| (i % 5 != 0).then_some(i % 2 == 0)),
                )) as ArrayRef,
            ),
        ])
        .unwrap()
    };
    let batches: Vec<RecordBatch> = (0..12).map(|k| make(k * 2500, 2500)).collect();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(7000))
        .build();
    let read = write_then_read(&batches, Some(props), 4096);
    fmt_digest(&read)
}
