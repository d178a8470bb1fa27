//! Arrow round trips through strata's writer and reader: every supported
//! type, nulls, nesting, writer settings, and the reader's options.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use arrow_array::builder::*;
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::*;
use arrow_buffer::{NullBuffer, OffsetBuffer, i256};
use arrow_schema::{DataType, Field, Fields, IntervalUnit, Schema, SchemaRef, TimeUnit};
use bytes::Bytes;
use strata_arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
};
use strata_arrow::{ArrowWriter, ProjectionMask};
use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use strata_file::properties::{WriterProperties, WriterVersion};

fn write(batches: &[RecordBatch], props: Option<WriterProperties>) -> Bytes {
    let mut buf = Vec::new();
    let mut w = ArrowWriter::try_new(&mut buf, batches[0].schema(), props).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
    Bytes::from(buf)
}

fn read_all(data: Bytes, batch_size: usize) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(data)
        .unwrap()
        .with_batch_size(batch_size)
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

fn concat(schema: &SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(schema, batches).unwrap()
}

/// Write `batch` with several settings and check every reading equals it.
fn check_roundtrip(batch: &RecordBatch) {
    let settings: Vec<WriterProperties> = vec![
        WriterProperties::default(),
        WriterProperties::builder()
            .set_writer_version(WriterVersion::PARQUET_2_0)
            .set_dictionary_enabled(false)
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).unwrap()))
            .build(),
        WriterProperties::builder()
            .set_data_page_size_limit(64)
            .set_write_batch_size(7)
            .set_max_row_group_row_count(Some(37))
            .set_compression(Compression::SNAPPY)
            .build(),
    ];
    for props in settings {
        let data = write(std::slice::from_ref(batch), Some(props.clone()));
        for batch_size in [1, 10, 1024] {
            let read = read_all(data.clone(), batch_size);
            let got = concat(&batch.schema(), &read);
            assert_eq!(&got, batch, "batch size {batch_size}, props {props:?}");
        }
    }
}

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| {
            Field::new(
                *n,
                a.data_type().clone(),
                a.null_count() > 0 || a.data_type() == &DataType::Null,
            )
        })
        .collect();
    RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .unwrap()
}

fn nullable<T: Clone>(n: usize, f: impl Fn(usize) -> T, every: usize) -> Vec<Option<T>> {
    (0..n).map(|i| (i % every != 0).then(|| f(i))).collect()
}

const N: usize = 200;

#[test]
fn primitive_types_round_trip() {
    let b = batch(vec![
        (
            "bool",
            Arc::new(BooleanArray::from(nullable(N, |i| i % 3 == 0, 5))) as ArrayRef,
        ),
        ("i8", Arc::new(Int8Array::from(nullable(N, |i| i as i8, 4)))),
        (
            "i16",
            Arc::new(Int16Array::from(nullable(N, |i| -(i as i16) * 100, 4))),
        ),
        (
            "i32",
            Arc::new(Int32Array::from(
                (0..N as i32).map(|i| i * 7 - 300).collect::<Vec<_>>(),
            )),
        ),
        (
            "i64",
            Arc::new(Int64Array::from(nullable(N, |i| i64::MAX - i as i64, 3))),
        ),
        (
            "u8",
            Arc::new(UInt8Array::from(nullable(N, |i| 255 - (i % 256) as u8, 6))),
        ),
        (
            "u16",
            Arc::new(UInt16Array::from(nullable(N, |i| 65535 - i as u16, 6))),
        ),
        (
            "u32",
            Arc::new(UInt32Array::from(nullable(N, |i| u32::MAX - i as u32, 6))),
        ),
        (
            "u64",
            Arc::new(UInt64Array::from(nullable(N, |i| u64::MAX - i as u64, 6))),
        ),
        (
            "f16",
            Arc::new(Float16Array::from(nullable(
                N,
                |i| half::f16::from_f32(i as f32 / 4.0),
                7,
            ))),
        ),
        (
            "f32",
            Arc::new(Float32Array::from(nullable(N, |i| i as f32 * 0.5, 7))),
        ),
        (
            "f64",
            Arc::new(Float64Array::from(nullable(N, |i| -(i as f64) / 3.0, 7))),
        ),
        (
            "date32",
            Arc::new(Date32Array::from(nullable(N, |i| i as i32 - 100, 8))),
        ),
        (
            "date64",
            Arc::new(Date64Array::from(nullable(
                N,
                |i| (i as i64 - 100) * 86_400_000,
                8,
            ))),
        ),
        ("null", Arc::new(NullArray::new(N))),
    ]);
    check_roundtrip(&b);
}

#[test]
fn temporal_and_decimal_types_round_trip() {
    let ts = |unit: TimeUnit, tz: Option<&str>| -> ArrayRef {
        let v: Vec<Option<i64>> = nullable(N, |i| 1_600_000_000 + i as i64 * 1_000_003, 9);
        let a: ArrayRef = match unit {
            TimeUnit::Second => Arc::new(TimestampSecondArray::from(v)),
            TimeUnit::Millisecond => Arc::new(TimestampMillisecondArray::from(v)),
            TimeUnit::Microsecond => Arc::new(TimestampMicrosecondArray::from(v)),
            TimeUnit::Nanosecond => Arc::new(TimestampNanosecondArray::from(v)),
        };
        match tz {
            Some(tz) => arrow_array::make_array(
                a.to_data()
                    .into_builder()
                    .data_type(DataType::Timestamp(unit, Some(tz.into())))
                    .build()
                    .unwrap(),
            ),
            None => a,
        }
    };
    let b = batch(vec![
        ("ts_s", ts(TimeUnit::Second, None)),
        ("ts_ms_utc", ts(TimeUnit::Millisecond, Some("UTC"))),
        ("ts_us_tz", ts(TimeUnit::Microsecond, Some("Europe/Paris"))),
        ("ts_ns", ts(TimeUnit::Nanosecond, None)),
        (
            "t32s",
            Arc::new(Time32SecondArray::from(nullable(N, |i| i as i32 * 60, 5))),
        ),
        (
            "t32ms",
            Arc::new(Time32MillisecondArray::from(nullable(
                N,
                |i| i as i32 * 60_001,
                5,
            ))),
        ),
        (
            "t64us",
            Arc::new(Time64MicrosecondArray::from(nullable(
                N,
                |i| i as i64 * 1_000_003,
                5,
            ))),
        ),
        (
            "t64ns",
            Arc::new(Time64NanosecondArray::from(nullable(
                N,
                |i| i as i64 * 1_000_000_007,
                5,
            ))),
        ),
        (
            "dur_ms",
            Arc::new(DurationMillisecondArray::from(nullable(
                N,
                |i| i as i64 - 50,
                5,
            ))),
        ),
        (
            "dec32",
            Arc::new(
                Decimal32Array::from(nullable(N, |i| i as i32 * 1001 - 90_000, 4))
                    .with_precision_and_scale(9, 2)
                    .unwrap(),
            ),
        ),
        (
            "dec64",
            Arc::new(
                Decimal64Array::from(nullable(N, |i| i as i64 * 10_000_019 - 1, 4))
                    .with_precision_and_scale(18, 4)
                    .unwrap(),
            ),
        ),
        (
            "dec128_small",
            Arc::new(
                Decimal128Array::from(nullable(N, |i| i as i128 - 100, 4))
                    .with_precision_and_scale(5, 1)
                    .unwrap(),
            ),
        ),
        (
            "dec128",
            Arc::new(
                Decimal128Array::from(nullable(N, |i| (i as i128 - 100) * 10i128.pow(30) + 7, 4))
                    .with_precision_and_scale(38, 10)
                    .unwrap(),
            ),
        ),
        (
            "dec256",
            Arc::new(
                Decimal256Array::from(nullable(
                    N,
                    |i| {
                        i256::from_i128(i as i128 - 100)
                            .wrapping_mul(i256::from_i128(10i128.pow(37)))
                    },
                    4,
                ))
                .with_precision_and_scale(60, 5)
                .unwrap(),
            ),
        ),
    ]);
    check_roundtrip(&b);
}

#[test]
fn byte_types_round_trip() {
    let strings: Vec<Option<String>> = nullable(N, |i| "x".repeat(i % 13) + &i.to_string(), 3);
    let strs: Vec<Option<&str>> = strings.iter().map(|s| s.as_deref()).collect();
    let bins: Vec<Option<&[u8]>> = strs.iter().map(|s| s.map(str::as_bytes)).collect();
    let fixed: Vec<Option<[u8; 5]>> = nullable(N, |i| [i as u8, 1, 2, 3, (i * 7) as u8], 4);
    let b = batch(vec![
        (
            "utf8",
            Arc::new(StringArray::from(strs.clone())) as ArrayRef,
        ),
        ("large_utf8", Arc::new(LargeStringArray::from(strs.clone()))),
        ("utf8_view", Arc::new(StringViewArray::from(strs.clone()))),
        ("binary", Arc::new(BinaryArray::from(bins.clone()))),
        (
            "large_binary",
            Arc::new(LargeBinaryArray::from(bins.clone())),
        ),
        ("binary_view", Arc::new(BinaryViewArray::from(bins.clone()))),
        (
            "fixed",
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    fixed.iter().map(|v| v.as_ref().map(|x| x.to_vec())),
                    5,
                )
                .unwrap(),
            ),
        ),
        (
            "dict",
            Arc::new(
                strs.iter()
                    .map(|s| s.map(|s| &s[..s.len().min(2)]))
                    .collect::<DictionaryArray<Int32Type>>(),
            ),
        ),
        (
            "dict_u8",
            Arc::new(
                strs.iter()
                    .map(|s| s.map(|s| &s[..s.len().min(1)]))
                    .collect::<DictionaryArray<UInt8Type>>(),
            ),
        ),
    ]);
    check_roundtrip(&b);
}

#[test]
fn required_and_all_null_columns() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("req", DataType::Int64, false),
        Field::new("all_null", DataType::Utf8, true),
        Field::new("req_str", DataType::Utf8, false),
    ]));
    let b = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(Int64Array::from_iter_values(0..N as i64)),
            Arc::new(StringArray::from(vec![None::<&str>; N])),
            Arc::new(StringArray::from_iter_values(
                (0..N).map(|i| format!("r{i}")),
            )),
        ],
    )
    .unwrap();
    check_roundtrip(&b);
}

fn list_of_i32() -> ArrayRef {
    // [0], null, [], [1, null, 2], [3, 4, 5], null, [] ... repeated
    let mut b = ListBuilder::new(Int32Builder::new());
    for i in 0..N {
        match i % 5 {
            0 => b.append_null(),
            1 => b.append(true),
            2 => {
                b.values().append_value(i as i32);
                b.values().append_null();
                b.values().append_value(-(i as i32));
                b.append(true);
            }
            _ => {
                for k in 0..(i % 4) {
                    b.values().append_value((i * 10 + k) as i32);
                }
                b.append(true);
            }
        }
    }
    Arc::new(b.finish())
}

#[test]
fn lists_round_trip() {
    let strings = {
        let mut b = ListBuilder::new(StringBuilder::new());
        for i in 0..N {
            if i % 7 == 3 {
                b.append_null();
                continue;
            }
            for k in 0..(i % 3) {
                if k == 1 && i % 2 == 0 {
                    b.values().append_null();
                } else {
                    b.values().append_value(format!("s{i}_{k}"));
                }
            }
            b.append(true);
        }
        Arc::new(b.finish()) as ArrayRef
    };
    let large = {
        let mut b = LargeListBuilder::new(Int64Builder::new());
        for i in 0..N {
            for k in 0..(i % 4) {
                b.values().append_value((i * k) as i64);
            }
            b.append(i % 9 != 0);
        }
        Arc::new(b.finish()) as ArrayRef
    };
    let nested = {
        let mut b = ListBuilder::new(ListBuilder::new(Int32Builder::new()));
        for i in 0..N {
            if i % 11 == 0 {
                b.append_null();
                continue;
            }
            for j in 0..(i % 3) {
                if j == 1 && i % 4 == 0 {
                    b.values().append_null();
                    continue;
                }
                for k in 0..(i + j) % 3 {
                    b.values().values().append_value((i + j + k) as i32);
                }
                b.values().append(true);
            }
            b.append(true);
        }
        Arc::new(b.finish()) as ArrayRef
    };
    let b = batch(vec![
        ("ints", list_of_i32()),
        ("strings", strings),
        ("large", large),
        ("nested", nested),
    ]);
    check_roundtrip(&b);
}

#[test]
fn structs_and_maps_round_trip() {
    let inner_fields = Fields::from(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", DataType::Utf8, false),
        Field::new("c", DataType::new_list(DataType::Int32, true), true),
    ]);
    let a: ArrayRef = Arc::new(Int32Array::from(nullable(N, |i| i as i32, 3)));
    let bcol: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..N).map(|i| format!("b{i}")),
    ));
    let c = list_of_i32();
    let nulls = NullBuffer::from((0..N).map(|i| i % 4 != 1).collect::<Vec<_>>());
    let st: ArrayRef = Arc::new(StructArray::new(
        inner_fields.clone(),
        vec![a, bcol, c],
        Some(nulls),
    ));

    // A list of structs.
    let values = {
        let n = N * 2;
        let x: ArrayRef = Arc::new(Int64Array::from(nullable(n, |i| i as i64, 5)));
        let y: ArrayRef = Arc::new(StringArray::from(nullable(n, |i| format!("y{i}"), 6)));
        let f = Fields::from(vec![
            Field::new("x", DataType::Int64, true),
            Field::new("y", DataType::Utf8, true),
        ]);
        let nulls = NullBuffer::from((0..n).map(|i| i % 7 != 2).collect::<Vec<_>>());
        StructArray::new(f, vec![x, y], Some(nulls))
    };
    let offsets: OffsetBuffer<i32> =
        OffsetBuffer::from_lengths((0..N).map(|i| if i % 10 == 0 { 0 } else { 2 + (i % 3) - 1 }));
    let used = offsets.last() as usize;
    let values = values.slice(0, used);
    let list_nulls = NullBuffer::from((0..N).map(|i| i % 13 != 5).collect::<Vec<_>>());
    let list_of_struct: ArrayRef = Arc::new(ListArray::new(
        Arc::new(Field::new("item", values.data_type().clone(), true)),
        offsets,
        Arc::new(values),
        Some(list_nulls),
    ));

    let map = {
        let mut b = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
        for i in 0..N {
            if i % 6 == 0 {
                b.append(false).unwrap();
                continue;
            }
            for k in 0..(i % 3) {
                b.keys().append_value(format!("k{k}"));
                if k == 1 {
                    b.values().append_null();
                } else {
                    b.values().append_value((i * k) as i32);
                }
            }
            b.append(true).unwrap();
        }
        Arc::new(b.finish()) as ArrayRef
    };
    let b = batch(vec![
        ("st", st),
        ("list_of_struct", list_of_struct),
        ("map", map),
    ]);
    check_roundtrip(&b);
}

#[test]
fn sliced_input_round_trips() {
    let b = batch(vec![
        ("ints", list_of_i32()),
        (
            "s",
            Arc::new(StringArray::from(nullable(N, |i| format!("v{i}"), 4))) as ArrayRef,
        ),
    ]);
    let sliced = b.slice(17, 101);
    let data = write(std::slice::from_ref(&sliced), None);
    let got = concat(&sliced.schema(), &read_all(data, 33));
    assert_eq!(got, sliced);
}

#[test]
fn several_batches_and_row_groups() {
    let mk = |start: i64| {
        batch(vec![
            (
                "id",
                Arc::new(Int64Array::from_iter_values(start..start + 100)) as ArrayRef,
            ),
            (
                "s",
                Arc::new(StringArray::from(nullable(
                    100,
                    |i| format!("{}", start + i as i64),
                    10,
                ))),
            ),
        ])
    };
    let batches: Vec<RecordBatch> = (0..5).map(|k| mk(k * 100)).collect();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(130))
        .build();
    let data = write(&batches, Some(props));
    let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
    // 500 rows cut at 130: 130, 130, 130, 110.
    let rgs: Vec<i64> = builder
        .metadata()
        .row_groups()
        .iter()
        .map(|r| r.num_rows)
        .collect();
    assert_eq!(rgs, vec![130, 130, 130, 110]);
    let schema = batches[0].schema();
    let all = concat(&schema, &batches);
    let read = read_all(data.clone(), 64);
    assert_eq!(concat(&schema, &read), all);
    // Batches span row groups: full batches of 64, the rest at the end.
    let sizes: Vec<usize> = read.iter().map(RecordBatch::num_rows).collect();
    assert_eq!(sizes, [64, 64, 64, 64, 64, 64, 64, 52]);

    // Row groups 3 then 1.
    let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_row_groups(vec![3, 1])
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expect = concat(&schema, &[all.slice(390, 110), all.slice(130, 130)]);
    assert_eq!(concat(&schema, &read), expect);

    // Selection across row groups, then offset and limit.
    let selection = RowSelection::from(vec![
        RowSelector::skip(120),
        RowSelector::select(20),
        RowSelector::skip(200),
        RowSelector::select(100),
    ]);
    let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_row_selection(selection)
        .with_offset(5)
        .with_limit(50)
        .with_batch_size(16)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expect = concat(&schema, &[all.slice(125, 15), all.slice(340, 35)]);
    assert_eq!(concat(&schema, &read), expect);
    // Selected runs from two row groups fill whole batches.
    let sizes: Vec<usize> = read.iter().map(RecordBatch::num_rows).collect();
    assert_eq!(sizes, [16, 16, 16, 2]);
}

#[test]
fn projection_by_roots_and_leaves() {
    let st_fields = Fields::from(vec![
        Field::new("p", DataType::Int32, false),
        Field::new("q", DataType::Utf8, true),
    ]);
    let st: ArrayRef = Arc::new(StructArray::new(
        st_fields,
        vec![
            Arc::new(Int32Array::from_iter_values(0..N as i32)),
            Arc::new(StringArray::from(nullable(N, |i| i.to_string(), 3))),
        ],
        None,
    ));
    let b = batch(vec![
        (
            "a",
            Arc::new(Int64Array::from_iter_values(0..N as i64)) as ArrayRef,
        ),
        ("st", st.clone()),
        (
            "c",
            Arc::new(StringArray::from(nullable(N, |i| format!("c{i}"), 5))),
        ),
    ]);
    let data = write(std::slice::from_ref(&b), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0, 2]);
    let read = builder
        .with_projection(mask)
        .build()
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(read.num_columns(), 2);
    assert_eq!(read.column(0), b.column(0));
    assert_eq!(read.column(1), b.column(2));

    // Leaf 2 is st.q: the struct keeps only that child.
    let builder = ParquetRecordBatchReaderBuilder::try_new(data).unwrap();
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [2]);
    let read = builder
        .with_projection(mask)
        .build()
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(read.num_columns(), 1);
    let got = read
        .column(0)
        .as_any()
        .downcast_ref::<StructArray>()
        .unwrap();
    assert_eq!(got.num_columns(), 1);
    assert_eq!(
        got.column(0),
        st.as_any().downcast_ref::<StructArray>().unwrap().column(1)
    );
}

#[test]
fn every_codec_round_trips() {
    let b = batch(vec![
        (
            "i",
            Arc::new(Int64Array::from(nullable(N * 5, |i| (i * i) as i64, 7))) as ArrayRef,
        ),
        (
            "s",
            Arc::new(StringArray::from(nullable(
                N * 5,
                |i| format!("value {}", i % 17),
                9,
            ))),
        ),
    ]);
    for codec in [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4_RAW,
        Compression::BROTLI(BrotliLevel::default()),
    ] {
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let props = WriterProperties::builder()
                .set_compression(codec)
                .set_writer_version(version)
                .build();
            let data = write(std::slice::from_ref(&b), Some(props));
            assert_eq!(
                concat(&b.schema(), &read_all(data, 100)),
                b,
                "{codec:?} {version:?}"
            );
        }
    }
}

#[test]
fn schema_hint_reads_strings_as_dictionary_and_large() {
    let b = batch(vec![(
        "s",
        Arc::new(StringArray::from(nullable(N, |i| format!("k{}", i % 4), 5))) as ArrayRef,
    )]);
    let data = write(std::slice::from_ref(&b), None);
    for dt in [
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        DataType::LargeUtf8,
        DataType::Utf8View,
    ] {
        let schema = Arc::new(Schema::new(vec![Field::new("s", dt.clone(), true)]));
        let read = read_with_schema_in(&data, &schema, 64).unwrap();
        let got = concat(&schema, &read);
        assert_eq!(got.column(0).data_type(), &dt);
        // Compare through the values.
        let expect: Vec<Option<String>> = b
            .column(0)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap()
            .iter()
            .map(|s| s.map(str::to_string))
            .collect();
        let col = got.column(0);
        let actual: Vec<Option<String>> = (0..col.len())
            .map(|i| {
                if col.is_null(i) {
                    None
                } else {
                    let s = arrow_array::cast::AsArray::as_any_dictionary_opt(col.as_ref())
                        .map(|d| {
                            let k = d.normalized_keys()[i];
                            d.values()
                                .as_any()
                                .downcast_ref::<StringArray>()
                                .unwrap()
                                .value(k)
                                .to_string()
                        })
                        .or_else(|| {
                            col.as_any()
                                .downcast_ref::<LargeStringArray>()
                                .map(|a| a.value(i).to_string())
                        })
                        .or_else(|| {
                            col.as_any()
                                .downcast_ref::<StringViewArray>()
                                .map(|a| a.value(i).to_string())
                        })
                        .unwrap();
                    Some(s)
                }
            })
            .collect();
        assert_eq!(actual, expect, "{dt}");
    }
    // A hint the data cannot be read as is refused.
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Int32, true)]));
    let options = ArrowReaderOptions::new().with_schema(schema);
    assert!(ParquetRecordBatchReaderBuilder::try_new_with_options(data, options).is_err());
}

#[test]
fn writer_reports_sizes_and_flushes() {
    let b = batch(vec![(
        "i",
        Arc::new(Int64Array::from_iter_values(0..10_000)) as ArrayRef,
    )]);
    let mut buf = Vec::new();
    let mut w = ArrowWriter::try_new(&mut buf, b.schema(), None).unwrap();
    assert_eq!(w.in_progress_size(), 0);
    w.write(&b).unwrap();
    assert!(w.in_progress_size() > 0);
    assert!(w.memory_size() > 0);
    assert_eq!(w.in_progress_rows(), 10_000);
    w.flush().unwrap();
    assert_eq!(w.in_progress_rows(), 0);
    w.write(&b).unwrap();
    let meta = w.close().unwrap();
    assert_eq!(meta.num_row_groups(), 2);
    assert_eq!(meta.file_metadata().num_rows, 20_000);
}

#[test]
fn mismatched_batch_is_refused() {
    let b = batch(vec![(
        "i",
        Arc::new(Int64Array::from_iter_values(0..10)) as ArrayRef,
    )]);
    let other = batch(vec![(
        "i",
        Arc::new(Int32Array::from_iter_values(0..10)) as ArrayRef,
    )]);
    let mut buf = Vec::new();
    let mut w = ArrowWriter::try_new(&mut buf, b.schema(), None).unwrap();
    assert!(w.write(&other).is_err());
    w.write(&b).unwrap();
    w.close().unwrap();
}

#[test]
fn corrupt_files_give_errors_not_panics() {
    let b = batch(vec![
        ("ints", list_of_i32()),
        (
            "s",
            Arc::new(StringArray::from(nullable(N, |i| format!("v{i}"), 4))) as ArrayRef,
        ),
        (
            "d",
            Arc::new(Float64Array::from(nullable(N, |i| i as f64, 3))),
        ),
    ]);
    let data = write(
        &[b],
        Some(
            WriterProperties::builder()
                .set_data_page_size_limit(128)
                .build(),
        ),
    );
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut errors = 0;
    for case in 0..600 {
        let mut bytes = data.to_vec();
        match case % 3 {
            0 => {
                let cut = (next() as usize) % bytes.len();
                bytes.truncate(cut);
            }
            _ => {
                for _ in 0..1 + case % 4 {
                    let i = (next() as usize) % bytes.len();
                    bytes[i] ^= 1 << (next() % 8);
                }
            }
        }
        let outcome = std::panic::catch_unwind(|| -> Result<usize, String> {
            let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(bytes))
                .map_err(|e| e.to_string())?;
            let mut rows = 0;
            for batch in builder.build().map_err(|e| e.to_string())? {
                rows += batch.map_err(|e| e.to_string())?.num_rows();
            }
            Ok(rows)
        });
        match outcome {
            Ok(Ok(_)) => {}
            Ok(Err(_)) => errors += 1,
            Err(_) => panic!("case {case} panicked"),
        }
    }
    // Truncations alone make a third of the cases fail.
    assert!(errors >= 200, "{errors} errors");
}

#[test]
fn map_field_names_round_trip() {
    let names = MapFieldNames {
        entry: "pairs".into(),
        key: "keys".into(),
        value: "values".into(),
    };
    let mut b = MapBuilder::new(Some(names), StringBuilder::new(), Int32Builder::new());
    b.keys().append_value("a");
    b.values().append_value(1);
    b.append(true).unwrap();
    b.append(false).unwrap();
    b.keys().append_value("b");
    b.values().append_null();
    b.keys().append_value("c");
    b.values().append_value(3);
    b.append(true).unwrap();
    let map: ArrayRef = Arc::new(b.finish());
    let batch = batch(vec![("m", map)]);
    let data = write(std::slice::from_ref(&batch), None);
    let read = read_all(data, 10);
    assert_eq!(read[0].schema(), batch.schema());
    assert_eq!(read[0], batch);
}

#[test]
fn fixed_size_lists_round_trip() {
    let mut b = FixedSizeListBuilder::new(Int32Builder::new(), 3);
    for i in 0..N {
        for k in 0..3 {
            if (i + k) % 5 == 0 {
                b.values().append_null();
            } else {
                b.values().append_value((i * 3 + k) as i32);
            }
        }
        b.append(i % 7 != 4);
    }
    let a: ArrayRef = Arc::new(b.finish());
    check_roundtrip(&batch(vec![("fsl", a)]));
}

#[test]
fn dictionary_column_stored_plain_reads_as_dictionary() {
    // More rows per batch than an Int8 key can count: the keys must come
    // from the distinct values, not from the row positions.
    let values: Vec<Option<&str>> = (0..600)
        .map(|i| (i % 11 != 0).then_some(["a", "b", "c"][i % 3]))
        .collect();
    let dict: DictionaryArray<Int8Type> = values.iter().copied().collect();
    let b = batch(vec![("d", Arc::new(dict) as ArrayRef)]);
    for enabled in [false, true] {
        let props = WriterProperties::builder()
            .set_dictionary_enabled(enabled)
            .build();
        let data = write(std::slice::from_ref(&b), Some(props));
        for batch_size in [100, 1000] {
            let got = concat(&b.schema(), &read_all(data.clone(), batch_size));
            assert_eq!(got, b, "dictionary enabled {enabled}, batch {batch_size}");
        }
    }
}

#[test]
fn times_are_stored_as_local_times() {
    use strata_format::metadata::LogicalType;
    let b = batch(vec![(
        "t",
        Arc::new(Time64NanosecondArray::from(vec![1_000_000_001i64, 2])) as ArrayRef,
    )]);
    let data = write(std::slice::from_ref(&b), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
    let column = builder.parquet_schema().column(0);
    assert!(matches!(
        column.logical_type,
        Some(LogicalType::Time(strata_format::metadata::TimeType {
            is_adjusted_to_u_t_c: false,
            ..
        }))
    ));
    assert_eq!(concat(&b.schema(), &read_all(data, 10)), b);
}

#[test]
fn intervals_round_trip() {
    use arrow_buffer::{IntervalDayTime, IntervalMonthDayNano};
    let ym = IntervalYearMonthArray::from(nullable(N, |i| i as i32 * 5, 7));
    let dt = IntervalDayTimeArray::from(nullable(
        N,
        |i| IntervalDayTime::new(i as i32, i as i32 * 1000 + 7),
        6,
    ));
    let mdn = IntervalMonthDayNanoArray::from(nullable(
        N,
        |i| IntervalMonthDayNano::new(i as i32, 3 * i as i32, i as i64 * 1_000_000),
        5,
    ));
    let b = batch(vec![
        ("ym", Arc::new(ym) as ArrayRef),
        ("dt", Arc::new(dt.clone())),
        ("mdn", Arc::new(mdn)),
    ]);
    check_roundtrip(&b);

    // Stored as FIXED_LEN_BYTE_ARRAY(12) INTERVAL, without min/max.
    let data = write(std::slice::from_ref(&b), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
    let column = builder.parquet_schema().column(1);
    assert_eq!(column.type_length, Some(12));
    assert_eq!(
        column.converted_type,
        Some(strata_format::metadata::ConvertedType::Interval)
    );

    // Read as month-day-nano, the day-time column keeps its parts.
    let schema = Arc::new(Schema::new(vec![
        Field::new("ym", DataType::Interval(IntervalUnit::YearMonth), true),
        Field::new("dt", DataType::Interval(IntervalUnit::MonthDayNano), true),
        Field::new("mdn", DataType::Interval(IntervalUnit::MonthDayNano), true),
    ]));
    let options = ArrowReaderOptions::new().with_schema(schema.clone());
    let read: Vec<RecordBatch> =
        ParquetRecordBatchReaderBuilder::try_new_with_options(data, options)
            .unwrap()
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    let got = concat(&schema, &read);
    let col = got.column(1).as_primitive::<IntervalMonthDayNanoType>();
    for i in 0..N {
        assert_eq!(col.is_null(i), dt.is_null(i));
        if dt.is_valid(i) {
            let v = dt.value(i);
            assert_eq!(
                col.value(i),
                IntervalMonthDayNano::new(0, v.days, i64::from(v.milliseconds) * 1_000_000)
            );
        }
    }

    // Sub-millisecond nanoseconds and negative parts cannot be stored (the
    // parts are unsigned): an error, not a value other readers would see
    // differently.
    for (v, why) in [
        (
            IntervalMonthDayNano::new(0, 0, 1),
            "whole number of milliseconds",
        ),
        (IntervalMonthDayNano::new(0, -1, 0), "negative"),
        (IntervalMonthDayNano::new(-2, 0, 0), "negative"),
        (IntervalMonthDayNano::new(0, 0, -1_000_000), "negative"),
    ] {
        let bad = batch(vec![(
            "mdn",
            Arc::new(IntervalMonthDayNanoArray::from(vec![v])) as ArrayRef,
        )]);
        let mut buf = Vec::new();
        let mut w = ArrowWriter::try_new(&mut buf, bad.schema(), None).unwrap();
        let err = w
            .write(&bad)
            .and_then(|()| w.close().map(|_| ()))
            .unwrap_err();
        assert!(err.to_string().contains(why), "{v:?}: {err}");
    }
}

#[test]
fn dictionaries_of_fixed_width_values_round_trip() {
    let keys = Int16Array::from(nullable(N, |i| (i % 5) as i16, 9));
    let longs = DictionaryArray::<Int16Type>::new(
        keys.clone(),
        Arc::new(Int64Array::from(vec![10, -20, 30, i64::MAX, i64::MIN])),
    );
    let dates = DictionaryArray::<Int32Type>::new(
        Int32Array::from(nullable(N, |i| (i % 3) as i32, 4)),
        Arc::new(Date32Array::from(vec![0, 19_000, -5])),
    );
    let fixed = DictionaryArray::<UInt8Type>::new(
        UInt8Array::from_iter_values((0..N).map(|i| (i % 2) as u8)),
        Arc::new(FixedSizeBinaryArray::try_from_iter([b"abc", b"xyz"].into_iter()).unwrap()),
    );
    let decimals = DictionaryArray::<UInt32Type>::new(
        UInt32Array::from(nullable(N, |i| (i % 4) as u32, 3)),
        Arc::new(
            Decimal128Array::from(vec![1, -2, 300, 123_456_789])
                .with_precision_and_scale(12, 2)
                .unwrap(),
        ),
    );
    let b = batch(vec![
        ("longs", Arc::new(longs) as ArrayRef),
        ("dates", Arc::new(dates)),
        ("fixed", Arc::new(fixed)),
        ("decimals", Arc::new(decimals)),
    ]);
    check_roundtrip(&b);
    // They come back as dictionaries, each distinct value once per batch.
    let read = read_all(write(std::slice::from_ref(&b), None), 1024);
    assert_eq!(read[0].schema(), b.schema());
    let longs = read[0].column(0).as_any_dictionary();
    assert_eq!(longs.values().len(), 5);
}

#[test]
fn selections_on_repeated_columns_in_v1_and_v2_pages() {
    // Small pages with a page index: selected runs skip whole pages of the
    // list column by the offset index (v1 headers count levels, not rows).
    let lists: Vec<ArrayRef> = (0..5).map(|_| list_of_i32()).collect();
    let lists = arrow_select::concat::concat(&lists.iter().map(|a| a.as_ref()).collect::<Vec<_>>())
        .unwrap();
    let rows = lists.len();
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..rows as i64));
    let b = batch(vec![("id", ids), ("l", lists)]);
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .set_data_page_size_limit(64)
            .set_write_batch_size(8)
            .build();
        let data = write(std::slice::from_ref(&b), Some(props));
        let selection = RowSelection::from(vec![
            RowSelector::skip(300),
            RowSelector::select(7),
            RowSelector::skip(400),
            RowSelector::select(93),
        ]);
        let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(data)
            .unwrap()
            .with_row_selection(selection)
            .with_batch_size(50)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let expect = concat(&b.schema(), &[b.slice(300, 7), b.slice(707, 93)]);
        assert_eq!(concat(&b.schema(), &read), expect, "{version:?}");
    }
}

#[test]
fn dictionary_arrays_are_written_from_their_keys() {
    // A dictionary column (written from its keys) and the same values as a
    // plain string column (hashed value by value) must give identical
    // chunks: same dictionary, pages, statistics and sizes. The entries
    // hold a duplicate ("b") and unused values ("zzz", "a").
    let entries = StringArray::from(vec!["zzz", "b", "c", "a", "b", "longer value d"]);
    let keys = Int16Array::from(
        (0..3000)
            .map(|i: i32| (i % 11 != 0).then_some([1, 2, 4, 5, 2, 1, 5][(i % 7) as usize]))
            .collect::<Vec<_>>(),
    );
    let dict = DictionaryArray::<Int16Type>::new(keys, Arc::new(entries));
    let plain: ArrayRef =
        arrow_select::take::take(dict.values().as_ref(), dict.keys(), None).unwrap();
    let b = batch(vec![
        ("d", Arc::new(dict.clone()) as ArrayRef),
        ("p", plain),
    ]);
    let settings = [
        WriterProperties::default(),
        WriterProperties::builder()
            .set_writer_version(WriterVersion::PARQUET_2_0)
            .set_bloom_filter_enabled(true)
            .set_data_page_size_limit(128)
            .build(),
        // A dictionary page limit that forces a fallback part way.
        WriterProperties::builder()
            .set_dictionary_page_size_limit(20)
            .set_write_batch_size(100)
            .build(),
    ];
    for props in settings {
        for input in [b.clone(), b.slice(1000, 1500)] {
            let data = write(std::slice::from_ref(&input), Some(props.clone()));
            let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
            for rg in builder.metadata().row_groups() {
                let d = rg.columns[0].meta_data.as_ref().unwrap();
                let p = rg.columns[1].meta_data.as_ref().unwrap();
                assert_eq!(d.statistics, p.statistics, "{props:?}");
                assert_eq!(d.size_statistics, p.size_statistics);
                assert_eq!(d.encodings, p.encodings);
                assert_eq!(d.encoding_stats, p.encoding_stats);
                assert_eq!(d.total_uncompressed_size, p.total_uncompressed_size);
                assert_eq!(d.bloom_filter_length(), p.bloom_filter_length());
            }
            let got = concat(&input.schema(), &read_all(data, 1024));
            assert_eq!(got, input);
        }
    }
}

#[test]
fn writes_after_a_failed_flush_are_errors() {
    /// Accepts the 4-byte magic, then fails every write.
    struct Failing(usize);
    impl std::io::Write for Failing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 + buf.len() > 4 {
                return Err(std::io::Error::other("disk full"));
            }
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let b = batch(vec![(
        "id",
        Arc::new(Int64Array::from_iter_values(0..100)) as ArrayRef,
    )]);
    let mut w = ArrowWriter::try_new(Failing(0), b.schema(), None).unwrap();
    w.write(&b).unwrap();
    assert!(w.flush().is_err());
    assert!(w.write(&b).is_err());
    assert!(w.flush().is_err());
    assert!(w.close().is_err());
}

/// Reads `data` with `schema` in batches of 50: the batches, or the first
/// error.
fn read_with_schema(data: &Bytes, schema: &SchemaRef) -> Result<Vec<RecordBatch>, String> {
    read_with_schema_in(data, schema, 50)
}

/// [`read_with_schema`] in batches of `batch_size`.
fn read_with_schema_in(
    data: &Bytes,
    schema: &SchemaRef,
    batch_size: usize,
) -> Result<Vec<RecordBatch>, String> {
    let options = ArrowReaderOptions::new().with_schema(schema.clone());
    ParquetRecordBatchReaderBuilder::try_new_with_options(data.clone(), options)
        .map_err(|e| e.to_string())?
        .with_batch_size(batch_size)
        .build()
        .map_err(|e| e.to_string())?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// Binary columns read as strings: batches gathered from a dictionary whose
/// entries are all UTF-8 skip arrow's validation (and still equal the
/// input); a dictionary with one entry that is not UTF-8 makes every batch
/// that uses it an error, and the batches before it still read. The same
/// stored PLAIN, where an all-ASCII batch skips arrow's validation and a
/// batch with a value that is not UTF-8 is an error.
#[test]
fn binary_dictionaries_read_as_strings_are_checked() {
    let valid: Vec<&[u8]> = vec![
        b"alpha",
        "b\u{e9}ta".as_bytes(),
        b"",
        "\u{1F600}x".as_bytes(),
    ];
    let n = 400;
    // Rows 0..300 use the valid entries only; the bad entry appears after.
    let rows = |bad: Option<&'static [u8]>| -> Vec<Option<Vec<u8>>> {
        (0..n)
            .map(|i| match (i % 7, bad) {
                (0, _) => None,
                (_, Some(b)) if i >= 300 && i % 5 == 0 => Some(b.to_vec()),
                // Rows 100..200 are ASCII only (a batch of 100 that skips
                // Arrow's check when stored PLAIN).
                _ if (100..200).contains(&i) => Some(valid[(i % 2) * 2].to_vec()),
                _ => Some(valid[i % valid.len()].to_vec()),
            })
            .collect()
    };
    for bad in [None, Some(&[0xC3u8][..]), Some(&[b'o', b'k', 0xFF][..])] {
        let data_rows = rows(bad);
        let array = BinaryArray::from_iter(data_rows.iter().map(|r| r.as_deref()));
        let b = batch(vec![("s", Arc::new(array) as ArrayRef)]);
        for (v2, dictionary) in [(false, true), (true, true), (false, false), (true, false)] {
            let props = WriterProperties::builder()
                .set_writer_version(if v2 {
                    WriterVersion::PARQUET_2_0
                } else {
                    WriterVersion::PARQUET_1_0
                })
                .set_dictionary_enabled(dictionary)
                .build();
            let data = write(std::slice::from_ref(&b), Some(props));
            for dt in [DataType::Utf8, DataType::LargeUtf8, DataType::Utf8View] {
                let schema = Arc::new(Schema::new(vec![Field::new("s", dt.clone(), true)]));
                match (read_with_schema(&data, &schema), bad) {
                    (Ok(read), None) => {
                        let got = concat(&schema, &read);
                        let got = arrow_cast_to_strings(got.column(0));
                        let expect: Vec<Option<String>> = data_rows
                            .iter()
                            .map(|r| r.as_ref().map(|v| String::from_utf8(v.clone()).unwrap()))
                            .collect();
                        assert_eq!(got, expect, "{dt} v2={v2} dictionary={dictionary}");
                    }
                    (Err(e), Some(_)) => assert!(e.to_lowercase().contains("utf"), "{e}"),
                    (outcome, bad) => {
                        panic!("{dt} v2={v2} dictionary={dictionary} bad={bad:?}: {outcome:?}")
                    }
                }
                if bad.is_some() {
                    // The first 300 rows never use the bad entry.
                    let options = ArrowReaderOptions::new().with_schema(schema.clone());
                    let mut reader = ParquetRecordBatchReaderBuilder::try_new_with_options(
                        data.clone(),
                        options,
                    )
                    .unwrap()
                    .with_batch_size(100)
                    .build()
                    .unwrap();
                    for _ in 0..3 {
                        assert_eq!(reader.next().unwrap().unwrap().num_rows(), 100);
                    }
                    assert!(reader.next().unwrap().is_err());
                }
            }
        }
    }
}

/// The values of a Utf8, LargeUtf8 or Utf8View column.
fn arrow_cast_to_strings(col: &ArrayRef) -> Vec<Option<String>> {
    (0..col.len())
        .map(|i| {
            if col.is_null(i) {
                return None;
            }
            let s = match col.data_type() {
                DataType::Utf8 => col.as_string::<i32>().value(i),
                DataType::LargeUtf8 => col.as_string::<i64>().value(i),
                DataType::Utf8View => col.as_string_view().value(i),
                other => panic!("{other}"),
            };
            Some(s.to_string())
        })
        .collect()
}

/// A string column whose every value is null, read as a dictionary: the
/// chunk's dictionary is empty and every key is a null slot (the keys are
/// not checked against the empty dictionary), in batches and row groups.
#[test]
fn all_null_strings_read_as_dictionary() {
    let array = StringArray::from(vec![None::<&str>; 300]);
    let b = batch(vec![("s", Arc::new(array) as ArrayRef)]);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(128))
        .build();
    let data = write(std::slice::from_ref(&b), Some(props));
    let dt = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    let schema = Arc::new(Schema::new(vec![Field::new("s", dt.clone(), true)]));
    let read = read_with_schema(&data, &schema).unwrap();
    assert_eq!(read.iter().map(RecordBatch::num_rows).sum::<usize>(), 300);
    for b in &read {
        let col = b.column(0);
        assert_eq!(col.data_type(), &dt);
        assert_eq!(col.null_count(), col.len());
    }
}

/// Struct{i: Int32?, s: Utf8?, r: Int64} of `n` rows: the struct null where
/// `struct_null(row)`, the nullable children null on their own pattern and
/// holding values under null struct slots (which the struct's null must
/// hide).
fn struct_column(n: usize, struct_null: impl Fn(usize) -> bool) -> ArrayRef {
    let fields = Fields::from(vec![
        Field::new("i", DataType::Int32, true),
        Field::new("s", DataType::Utf8, true),
        Field::new("r", DataType::Int64, false),
    ]);
    let i: ArrayRef = Arc::new(Int32Array::from(nullable(n, |k| k as i32, 5)));
    let s: ArrayRef = Arc::new(StringArray::from(
        (0..n)
            .map(|k| (k % 9 != 4).then(|| format!("s{}", k % 37)))
            .collect::<Vec<_>>(),
    ));
    let r: ArrayRef = Arc::new(Int64Array::from_iter_values((0..n).map(|k| k as i64 * 3)));
    let nulls = NullBuffer::from((0..n).map(|k| !struct_null(k)).collect::<Vec<_>>());
    Arc::new(StructArray::new(fields, vec![i, s, r], Some(nulls)))
}

/// A batch of `columns`, every field nullable.
fn nullable_batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .unwrap()
}

/// Nulls of each leaf of a struct column (null struct or null child).
fn leaf_null_counts(col: &ArrayRef) -> Vec<i64> {
    let st = col.as_struct();
    st.columns()
        .iter()
        .map(|c| {
            (0..st.len())
                .filter(|&k| st.is_null(k) || c.is_null(k))
                .count() as i64
        })
        .collect()
}

/// The null count statistics of each leaf of the first row group.
fn chunk_null_counts(data: &Bytes) -> Vec<i64> {
    let meta = ParquetRecordBatchReaderBuilder::try_new(data.clone())
        .unwrap()
        .metadata()
        .clone();
    meta.row_group(0)
        .columns
        .iter()
        .map(|c| {
            let m = c.meta_data.as_ref().unwrap();
            m.statistics.as_ref().unwrap().null_count.unwrap()
        })
        .collect()
}

/// Whether a row is null.
type NullAt = fn(usize) -> bool;

#[test]
fn struct_leaves_with_null_structs_and_null_children() {
    const ROWS: usize = 300;
    let patterns: [(&str, NullAt); 4] = [
        ("scattered", |k| k % 7 == 3),
        ("none null", |_| false),
        ("all null", |_| true),
        // Whole 64-slot words valid, then whole words null, then mixed.
        ("long runs", |k| {
            (130..200).contains(&k) || k % 3 == 0 && k > 250
        }),
    ];
    for (name, pattern) in patterns {
        let col = struct_column(ROWS, pattern);
        let b = nullable_batch(vec![("st", col.clone())]);
        check_roundtrip(&b);
        let data = write(std::slice::from_ref(&b), None);
        assert_eq!(chunk_null_counts(&data), leaf_null_counts(&col), "{name}");
        // Slices starting inside a bitmap byte and ending mid-word.
        for (start, len) in [(3, 200), (61, 130), (67, 1), (64, 64), (129, 171)] {
            let sliced = b.slice(start, len);
            let data = write(std::slice::from_ref(&sliced), None);
            let got = concat(&sliced.schema(), &read_all(data.clone(), 50));
            assert_eq!(got, sliced, "{name} slice {start}+{len}");
            assert_eq!(
                chunk_null_counts(&data),
                leaf_null_counts(sliced.column(0)),
                "{name} slice {start}+{len}"
            );
        }
    }
}

#[test]
fn structs_nested_in_structs_and_lists_with_nulls() {
    const ROWS: usize = 200;
    // An outer struct with nulls around an inner struct with nulls and a
    // leaf: the inner struct is visited per run of valid outer slots.
    let inner = struct_column(ROWS, |k| k % 6 == 1);
    let leaf: ArrayRef = Arc::new(Int32Array::from(nullable(ROWS, |k| k as i32 * 7, 4)));
    let outer_fields = Fields::from(vec![
        Field::new("inner", inner.data_type().clone(), true),
        Field::new("x", DataType::Int32, true),
    ]);
    let outer_nulls = NullBuffer::from((0..ROWS).map(|k| k % 11 != 2).collect::<Vec<_>>());
    let outer: ArrayRef = Arc::new(StructArray::new(
        outer_fields,
        vec![inner, leaf],
        Some(outer_nulls),
    ));

    // A list of structs with nulls: the struct's leaves repeat.
    let elements = struct_column(ROWS * 3, |k| k % 5 == 2);
    let offsets: OffsetBuffer<i32> =
        OffsetBuffer::from_lengths((0..ROWS).map(|k| [0, 1, 3, 5, 2, 4][k % 6]));
    let used = offsets.last().unsigned_abs() as usize;
    let list: ArrayRef = Arc::new(ListArray::new(
        Arc::new(Field::new("item", elements.data_type().clone(), true)),
        offsets,
        elements.slice(0, used),
        Some(NullBuffer::from(
            (0..ROWS).map(|k| k % 13 != 7).collect::<Vec<_>>(),
        )),
    ));
    let b = nullable_batch(vec![("outer", outer), ("list", list)]);
    check_roundtrip(&b);
    let sliced = b.slice(9, 150);
    let data = write(std::slice::from_ref(&sliced), None);
    assert_eq!(concat(&sliced.schema(), &read_all(data, 64)), sliced);
}

#[test]
fn strings_whose_null_slots_hold_bytes_round_trip() {
    // Null slots with and without bytes behind them: the writer keeps the
    // array's value buffer only when the gaps between present values are
    // empty, and must gather the present values otherwise.
    const ROWS: usize = 150;
    let lengths = (0..ROWS).map(|k| k % 4 + usize::from(k % 7 == 0));
    let offsets = OffsetBuffer::<i32>::from_lengths(lengths.clone());
    let values: Vec<u8> = (0..offsets.last().unsigned_abs() as usize)
        .map(|k| b'a' + (k % 26) as u8)
        .collect();
    let with_bytes = NullBuffer::from((0..ROWS).map(|k| k % 7 != 0).collect::<Vec<_>>());
    let leaky: ArrayRef = Arc::new(StringArray::new(
        offsets.clone(),
        values.clone().into(),
        Some(with_bytes.clone()),
    ));
    // The same strings built with empty null slots.
    let tight: ArrayRef = Arc::new(StringArray::from(
        (0..ROWS)
            .map(|k| (!leaky.is_null(k)).then(|| leaky.as_string::<i32>().value(k)))
            .collect::<Vec<_>>(),
    ));
    let big: ArrayRef = Arc::new(LargeStringArray::from(
        (0..ROWS)
            .map(|k| (!leaky.is_null(k)).then(|| leaky.as_string::<i32>().value(k)))
            .collect::<Vec<_>>(),
    ));
    let st: ArrayRef = Arc::new(StructArray::new(
        Fields::from(vec![Field::new("s", DataType::Utf8, true)]),
        vec![leaky.clone()],
        Some(NullBuffer::from(
            (0..ROWS).map(|k| k % 5 != 1).collect::<Vec<_>>(),
        )),
    ));
    let b = nullable_batch(vec![
        ("leaky", leaky),
        ("tight", tight),
        ("big", big),
        ("st", st),
    ]);
    check_roundtrip(&b);
    let sliced = b.slice(13, 101);
    let data = write(std::slice::from_ref(&sliced), None);
    assert_eq!(concat(&sliced.schema(), &read_all(data, 40)), sliced);
}

/// Plain-encoded strings (no dictionary in the file) read as a dictionary
/// are interned batch by batch: each batch must equal what Arrow's own
/// dictionary builder makes of the same values, keys in order of first
/// appearance, nulls adding no entry, for string and binary values and
/// every key width that holds the batch's entries.
#[test]
fn plain_byte_arrays_read_as_dictionary_match_arrows_builder() {
    let words = [
        "",
        "kiwi",
        "apple",
        "a much longer value",
        "kiwi",
        "é",
        "fig",
    ];
    let values: Vec<Option<String>> = (0..2500)
        .map(|i: usize| {
            (i % 13 != 5 && !(700..900).contains(&i))
                .then(|| format!("{}{}", words[(i * 3) % words.len()], i % 50))
        })
        .collect();
    let strings = StringArray::from(values.clone());
    let binary = BinaryArray::from(
        values
            .iter()
            .map(|v| v.as_deref().map(str::as_bytes))
            .collect::<Vec<_>>(),
    );
    let input = batch(vec![
        ("s", Arc::new(strings) as ArrayRef),
        ("b", Arc::new(binary) as ArrayRef),
    ]);
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_size_limit(512)
        .build();
    let data = write(std::slice::from_ref(&input), Some(props));
    for key in [DataType::Int32, DataType::UInt16, DataType::Int64] {
        let dict = |v: DataType| DataType::Dictionary(Box::new(key.clone()), Box::new(v));
        let schema = Arc::new(Schema::new(vec![
            Field::new("s", dict(DataType::Utf8), true),
            Field::new("b", dict(DataType::Binary), true),
        ]));
        let read = read_with_schema_in(&data, &schema, 300).unwrap();
        let mut row = 0;
        for got in &read {
            let n = got.num_rows();
            for (c, field) in schema.fields().iter().enumerate() {
                let plain = input.column(c).slice(row, n);
                let expect = arrow_cast_dictionary(&plain, field.data_type());
                assert_eq!(
                    got.column(c).to_data(),
                    expect.to_data(),
                    "{key} rows {row}+{n}"
                );
            }
            row += n;
        }
        assert_eq!(row, input.num_rows());
    }
    // More distinct values in a batch than the key type holds: an error.
    let schema = Arc::new(Schema::new(vec![Field::new(
        "s",
        DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
        true,
    )]));
    let plain_only_s = {
        let props = WriterProperties::builder()
            .set_dictionary_enabled(false)
            .build();
        write(
            &[batch(vec![("s", Arc::clone(input.column(0)))])],
            Some(props),
        )
    };
    let options = ArrowReaderOptions::new().with_schema(schema);
    let result: Result<Vec<RecordBatch>, _> =
        ParquetRecordBatchReaderBuilder::try_new_with_options(plain_only_s, options)
            .unwrap()
            .with_batch_size(1000)
            .build()
            .unwrap()
            .collect();
    assert!(result.is_err(), "200+ distinct values under Int8 keys");
}

/// A PLAIN column of few distinct values read as a dictionary: each batch's
/// dictionary is its distinct values once each, in order of first
/// appearance (copied out of the batch, not the batch itself), under keys
/// as narrow as Int8 even for batches longer than Int8 could index.
#[test]
fn few_distinct_plain_values_read_as_a_compact_dictionary() {
    let values: Vec<Option<String>> = (0..2000)
        .map(|i: usize| (i % 9 != 4).then(|| format!("w{}", (i * 7) % 10)))
        .collect();
    let input = batch(vec![("s", Arc::new(StringArray::from(values)) as ArrayRef)]);
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .build();
    let data = write(std::slice::from_ref(&input), Some(props));
    for key in [DataType::Int8, DataType::Int32] {
        let dt = DataType::Dictionary(Box::new(key.clone()), Box::new(DataType::Utf8));
        let schema = Arc::new(Schema::new(vec![Field::new("s", dt, true)]));
        let read = read_with_schema_in(&data, &schema, 500).unwrap();
        let mut row = 0;
        for got in &read {
            let n = got.num_rows();
            let column = got.column(0);
            let take = arrow_select::take::take;
            let (entries, plain) = match &key {
                DataType::Int8 => {
                    let d = column.as_dictionary::<Int8Type>();
                    (
                        d.values().clone(),
                        take(d.values(), d.keys(), None).unwrap(),
                    )
                }
                _ => {
                    let d = column.as_dictionary::<Int32Type>();
                    (
                        d.values().clone(),
                        take(d.values(), d.keys(), None).unwrap(),
                    )
                }
            };
            let expect = input.column(0).slice(row, n);
            assert_eq!(plain.to_data(), expect.to_data(), "{key} row {row}");
            let mut firsts: Vec<&str> = Vec::new();
            for v in expect.as_string::<i32>().iter().flatten() {
                if !firsts.contains(&v) {
                    firsts.push(v);
                }
            }
            let listed: Vec<&str> = entries.as_string::<i32>().iter().flatten().collect();
            assert_eq!(listed, firsts, "{key} row {row}");
            assert_eq!(entries.null_count(), 0);
            row += n;
        }
        assert_eq!(row, input.num_rows());
    }
}

/// `plain` (a string or binary array) as the dictionary type `dt`, built
/// with Arrow's dictionary builder: the expected form of an interned batch.
fn arrow_cast_dictionary(plain: &ArrayRef, dt: &DataType) -> ArrayRef {
    fn build<K: ArrowDictionaryKeyType>(plain: &ArrayRef) -> ArrayRef {
        match plain.data_type() {
            DataType::Utf8 => {
                let mut b = StringDictionaryBuilder::<K>::new();
                b.extend(plain.as_string::<i32>().iter());
                Arc::new(b.finish())
            }
            DataType::Binary => {
                let mut b = BinaryDictionaryBuilder::<K>::new();
                b.extend(plain.as_binary::<i32>().iter());
                Arc::new(b.finish())
            }
            other => panic!("{other}"),
        }
    }
    match dt {
        DataType::Dictionary(k, _) => match k.as_ref() {
            DataType::Int32 => build::<Int32Type>(plain),
            DataType::UInt16 => build::<UInt16Type>(plain),
            DataType::Int64 => build::<Int64Type>(plain),
            other => panic!("{other}"),
        },
        other => panic!("{other}"),
    }
}

/// A string chunk whose dictionary fills up part way, so that its later
/// pages are PLAIN, read as a dictionary in batches that do and do not
/// straddle the switch: every batch holds the input's values and nulls,
/// and a batch read wholly from the PLAIN pages is interned (each value
/// once in its dictionary, keys in order of first appearance).
#[test]
fn string_chunk_falling_back_reads_as_dictionary() {
    use strata_format::metadata::Encoding;
    let values: Vec<Option<String>> = (0..3000)
        .map(|i: usize| (i % 17 != 3).then(|| format!("value-{}", (i * 7919) % 1300)))
        .collect();
    let input = batch(vec![("s", Arc::new(StringArray::from(values)) as ArrayRef)]);
    let props = WriterProperties::builder()
        .set_dictionary_page_size_limit(4000)
        .set_data_page_size_limit(1000)
        .set_write_batch_size(100)
        .build();
    let data = write(std::slice::from_ref(&input), Some(props));
    let builder = ParquetRecordBatchReaderBuilder::try_new(data.clone()).unwrap();
    let chunk = builder.metadata().row_groups()[0].columns[0]
        .meta_data
        .clone()
        .unwrap();
    assert!(
        chunk.encodings.contains(Encoding::RleDictionary)
            || chunk.encodings.contains(Encoding::PlainDictionary),
        "{:?}",
        chunk.encodings
    );
    assert!(chunk.encodings.contains(Encoding::Plain), "no fallback");
    let dt = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    let schema = Arc::new(Schema::new(vec![Field::new("s", dt, true)]));
    for batch_size in [64, 700, 5000] {
        let read = read_with_schema_in(&data, &schema, batch_size).unwrap();
        let mut row = 0;
        let (mut interned, mut by_position) = (0, 0);
        for got in &read {
            let dict = got.column(0).as_dictionary::<Int32Type>();
            let strings = arrow_select::take::take(dict.values(), dict.keys(), None).unwrap();
            let expect = input.column(0).slice(row, got.num_rows());
            assert_eq!(
                strings.to_data(),
                expect.to_data(),
                "batch {batch_size}, row {row}"
            );
            let expect = expect.as_string::<i32>();
            let present = expect.iter().flatten().count();
            // A batch read from the PLAIN pages alone is keyed on its own
            // (the chunk's dictionary holds more entries): over its
            // distinct values in order of first appearance, or, when more
            // than half of its values are distinct, over its own values,
            // each key the position of the value's first occurrence.
            let entries = dict.values().as_string::<i32>();
            let mut firsts: Vec<&str> = Vec::new();
            for v in expect.iter().flatten() {
                if !firsts.contains(&v) {
                    firsts.push(v);
                }
            }
            if entries.len() == firsts.len() {
                interned += 1;
                let listed: Vec<&str> = entries.iter().flatten().collect();
                assert_eq!(listed, firsts, "batch {batch_size}, row {row}");
            } else if entries.len() == got.num_rows() && firsts.len() * 2 > present {
                interned += 1;
                by_position += 1;
                for (i, v) in expect.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let first = expect.iter().position(|w| w == Some(v)).unwrap();
                    assert_eq!(dict.keys().value(i) as usize, first, "row {}", row + i);
                    assert_eq!(entries.value(first), v);
                }
            }
            row += got.num_rows();
        }
        assert_eq!(row, input.num_rows());
        if batch_size < 3000 {
            assert!(interned > 0, "no batch read from the PLAIN pages alone");
        }
        if batch_size == 64 {
            // Batches of 64 from 1,300 values with a few nulls: their own
            // values, with nulls, are the dictionary.
            assert!(by_position > 0, "no batch keyed by first position");
        }
    }
}

/// One list slot of [`random_lists`]: null (its elements, if any, are
/// ignored), or a list of `len` elements whose nulls `mask` marks.
#[derive(Debug, Clone)]
struct ListSlot {
    null: bool,
    len: usize,
    mask: u8,
}

fn list_slot() -> impl proptest::strategy::Strategy<Value = ListSlot> {
    use proptest::prelude::*;
    (0u8..10, 0usize..7, any::<u8>()).prop_map(|(kind, len, mask)| ListSlot {
        // One in five null, some of them over elements.
        null: kind < 2,
        len,
        // Elements mostly present: a null where two bits are both set.
        mask: mask & (mask >> 1),
    })
}

/// A List<Int32> and a List<Utf8> of `slots`, sliced from `skip` on.
fn random_lists(slots: &[ListSlot], skip: usize) -> (ArrayRef, ArrayRef) {
    let lengths = slots.iter().map(|s| s.len);
    let offsets = OffsetBuffer::<i32>::from_lengths(lengths);
    let total = usize::try_from(offsets.last()).unwrap();
    let mut valid = Vec::with_capacity(total);
    for s in slots {
        valid.extend((0..s.len).map(|k| s.mask >> k & 1 == 0));
    }
    let element_nulls = Some(NullBuffer::from(valid));
    let list_nulls = Some(NullBuffer::from(
        slots.iter().map(|s| !s.null).collect::<Vec<_>>(),
    ));
    let ints = Int32Array::new((0..total as i32).collect(), element_nulls.clone());
    let strings = StringArray::new(
        OffsetBuffer::from_lengths((0..total).map(|i| 1 + i % 5)),
        (0..total)
            .flat_map(|i| std::iter::repeat_n(b'a' + (i % 26) as u8, 1 + i % 5))
            .collect(),
        element_nulls,
    );
    let list = |values: ArrayRef| -> ArrayRef {
        let field = Arc::new(Field::new("item", values.data_type().clone(), true));
        let a = ListArray::new(field, offsets.clone(), values, list_nulls.clone());
        let skip = skip.min(a.len());
        Arc::new(a.slice(skip, a.len() - skip))
    };
    (list(Arc::new(ints)), list(Arc::new(strings)))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// Lists of leaves with nulls at both levels, empty lists and null
    /// lists over elements, from a sliced array, read back as written,
    /// whole and in row groups of a few rows.
    #[test]
    fn random_lists_of_leaves_round_trip(
        slots in proptest::collection::vec(list_slot(), 1..120),
        skip in 0usize..5,
    ) {
        let (ints, strings) = random_lists(&slots, skip);
        let b = batch(vec![("ints", ints), ("strings", strings)]);
        for props in [
            WriterProperties::default(),
            WriterProperties::builder()
                .set_max_row_group_row_count(Some(13))
                .set_write_batch_size(5)
                .build(),
        ] {
            let data = write(std::slice::from_ref(&b), Some(props));
            let read = read_all(data, 17);
            proptest::prop_assert_eq!(&concat(&b.schema(), &read), &b);
        }
    }
}
