//! `StatisticsConverter` against arrow-rs 60.1's: every method, for every
//! top-level field of every parquet-testing data file both open, and of
//! files written by strata and by arrow-rs covering the Arrow types the
//! reader maps; the arrays must be equal. A file or field arrow-rs cannot
//! answer for (an error opening it, a panic in its converter), or whose
//! Arrow type strata maps differently, is skipped with its reason and
//! counted. Then page pruning: a range predicate on a sorted key keeps
//! few pages, and reading the selection gives exactly the rows in range.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use corpus::{panic_text, parquet_files_under};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, BooleanArray, Date32Array, Date64Array,
    Decimal32Array, Decimal64Array, Decimal128Array, Decimal256Array, DictionaryArray,
    FixedSizeBinaryArray, Float16Array, Float32Array, Float64Array, Int8Array, Int16Array,
    Int32Array, Int64Array, LargeBinaryArray, LargeStringArray, RecordBatch, StringArray,
    StringViewArray, Time32MillisecondArray, Time32SecondArray, Time64MicrosecondArray,
    Time64NanosecondArray, TimestampMicrosecondArray, TimestampMillisecondArray,
    TimestampNanosecondArray, TimestampSecondArray, UInt8Array, UInt16Array, UInt32Array,
    UInt64Array,
};
use bytes::Bytes;

/// Every answer of one converter for one field, by method, as text for
/// errors and arrays as they are.
type Answers = Vec<(&'static str, Result<Option<ArrayRef>, String>)>;

/// Every method of `$krate`'s converter for field `$name`, over every row
/// group (and every page, when the metadata has a page index); each call
/// is made with and without the file's column orders.
macro_rules! answers {
    ($krate:ident, $builder:expr, $name:expr) => {{
        use $krate::arrow::arrow_reader::statistics::StatisticsConverter;
        let builder = $builder;
        let schema = builder.schema().clone();
        let parquet = builder.parquet_schema();
        let metadata = builder.metadata().clone();
        let groups = metadata.row_groups();
        let indices: Vec<usize> = (0..groups.len()).collect();
        let orders = metadata
            .file_metadata()
            .column_orders()
            .map(|o| o.as_slice());
        let mut out: Answers = Vec::new();
        fn text<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<T, String> {
            r.map_err(|e| e.to_string())
        }
        fn some<A: Array + 'static>(a: A) -> Option<ArrayRef> {
            Some(Arc::new(a))
        }
        match StatisticsConverter::try_new($name, &schema, parquet) {
            Err(e) => out.push(("try_new", Err(e.to_string()))),
            Ok(plain) => {
                out.push((
                    "parquet_column_index",
                    Ok(some(UInt64Array::from(vec![
                        plain.parquet_column_index().map(|i| i as u64),
                    ]))),
                ));
                for (ordered, converter) in [
                    (false, plain),
                    (
                        true,
                        StatisticsConverter::try_new($name, &schema, parquet)
                            .unwrap()
                            .with_column_orders(orders),
                    ),
                ] {
                    let tag = |a: &'static str, b: &'static str| if ordered { b } else { a };
                    out.push((
                        tag("row_group_mins", "row_group_mins (orders)"),
                        text(converter.row_group_mins(groups.iter())).map(Some),
                    ));
                    out.push((
                        tag("row_group_maxes", "row_group_maxes (orders)"),
                        text(converter.row_group_maxes(groups.iter())).map(Some),
                    ));
                    out.push((
                        tag("row_group_null_counts", "row_group_null_counts (orders)"),
                        text(converter.row_group_null_counts(groups.iter())).map(some),
                    ));
                    if ordered {
                        continue;
                    }
                    out.push((
                        "row_group_row_counts",
                        text(converter.row_group_row_counts(groups.iter()))
                            .map(|a| a.and_then(some)),
                    ));
                    out.push((
                        "row_group_is_min_value_exact",
                        text(converter.row_group_is_min_value_exact(groups.iter())).map(some),
                    ));
                    out.push((
                        "row_group_is_max_value_exact",
                        text(converter.row_group_is_max_value_exact(groups.iter())).map(some),
                    ));
                    out.push((
                        "row_group_nan_counts",
                        text(converter.row_group_nan_counts(groups.iter())).map(some),
                    ));
                    out.push((
                        "row_group_distinct_counts",
                        text(converter.row_group_distinct_counts(groups.iter())).map(some),
                    ));
                    let converter = converter.with_missing_null_counts_as_zero(false);
                    out.push((
                        "row_group_null_counts (missing unknown)",
                        text(converter.row_group_null_counts(groups.iter())).map(some),
                    ));
                }
                let ordered = StatisticsConverter::try_new($name, &schema, parquet)
                    .unwrap()
                    .with_column_orders(orders);
                if let Some(index) = metadata.page_index() {
                    let index = index.as_ref();
                    out.push((
                        "data_page_mins",
                        text(ordered.data_page_mins(index, &indices)).map(Some),
                    ));
                    out.push((
                        "data_page_maxes",
                        text(ordered.data_page_maxes(index, &indices)).map(Some),
                    ));
                    out.push((
                        "data_page_null_counts",
                        text(ordered.data_page_null_counts(index, &indices)).map(some),
                    ));
                    out.push((
                        "data_page_nan_counts",
                        text(ordered.data_page_nan_counts(index, &indices)).map(some),
                    ));
                    out.push((
                        "data_page_row_counts",
                        text(ordered.data_page_row_counts(index, groups, &indices))
                            .map(|a| a.and_then(some)),
                    ));
                    let plain = StatisticsConverter::try_new($name, &schema, parquet).unwrap();
                    out.push((
                        "data_page_mins (no orders)",
                        text(plain.data_page_mins(index, &indices)).map(Some),
                    ));
                }
            }
        }
        out
    }};
}

/// strata answers float bounds that hold for every value, NaN included
/// (its converter's module docs say why); arrow-rs answers the stored
/// bounds. The expected float bounds are arrow-rs's, changed here by that
/// rule, stated again independently of strata's code: with NaNs counted,
/// unknown; a NaN bound kept only under IEEE 754 total order; under other
/// orders (or none given) a zero minimum is `-0.0` and a zero maximum
/// `+0.0`; under total order a bound without a NaN count is unknown.
fn expected_float_bounds(answers: &mut Answers, orders: Option<&[parquet::basic::ColumnOrder]>) {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float16Type, Float32Type, Float64Type};
    use parquet::basic::ColumnOrder;
    let find = |answers: &Answers, name: &str| {
        answers
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, a)| a.as_ref().ok().cloned().flatten())
    };
    let leaf = find(answers, "parquet_column_index").and_then(|a| {
        let a = a.as_primitive::<arrow_array::types::UInt64Type>().clone();
        a.is_valid(0).then(|| a.value(0) as usize)
    });
    let total = leaf
        .and_then(|i| orders?.get(i).copied())
        .is_some_and(|o| o == ColumnOrder::IEEE_754_TOTAL_ORDER);
    let group_nans = find(answers, "row_group_nan_counts");
    let page_nans = find(answers, "data_page_nan_counts");
    for (name, answer) in answers.iter_mut() {
        let (is_min, with_orders, nans) = match *name {
            "row_group_mins" => (true, false, &group_nans),
            "row_group_maxes" => (false, false, &group_nans),
            "row_group_mins (orders)" => (true, true, &group_nans),
            "row_group_maxes (orders)" => (false, true, &group_nans),
            "data_page_mins" => (true, true, &page_nans),
            "data_page_maxes" => (false, true, &page_nans),
            "data_page_mins (no orders)" => (true, false, &page_nans),
            _ => continue,
        };
        let (Ok(Some(bounds)), Some(nans)) = (answer.as_ref(), nans) else {
            continue;
        };
        let nans = nans.as_primitive::<arrow_array::types::UInt64Type>();
        let total = total && with_orders;
        macro_rules! widen {
            ($ty:ty, $zero:expr, $neg_zero:expr) => {{
                let typed = bounds.as_primitive::<$ty>();
                let out: arrow_array::PrimitiveArray<$ty> = (0..typed.len())
                    .map(|i| {
                        let v = typed.is_valid(i).then(|| typed.value(i))?;
                        if v.is_nan() {
                            return total.then_some(v);
                        }
                        let n = nans.is_valid(i).then(|| nans.value(i));
                        if !(n == Some(0) || (n.is_none() && !total)) {
                            return None;
                        }
                        if !total && v == $zero {
                            return Some(if is_min { $neg_zero } else { $zero });
                        }
                        Some(v)
                    })
                    .collect();
                Arc::new(out) as ArrayRef
            }};
        }
        let widened = match bounds.data_type() {
            arrow_schema::DataType::Float16 => {
                widen!(Float16Type, half::f16::ZERO, half::f16::NEG_ZERO)
            }
            arrow_schema::DataType::Float32 => widen!(Float32Type, 0.0f32, -0.0f32),
            arrow_schema::DataType::Float64 => widen!(Float64Type, 0.0f64, -0.0f64),
            _ => continue,
        };
        *answer = Ok(Some(widened));
    }
}

/// What comparing one file found.
#[derive(Default)]
struct Tally {
    files_compared: usize,
    files_passed: usize,
    files_failed: Vec<String>,
    files_skipped: BTreeMap<String, String>,
    fields_compared: usize,
    fields_skipped: Vec<String>,
    answers_compared: usize,
}

/// Open `data` with arrow-rs's builder, with the page index when it can.
fn open_arrow_rs(
    data: &Bytes,
) -> Result<parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder<Bytes>, String> {
    use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use parquet::file::metadata::PageIndexPolicy;
    catch_unwind(|| {
        ParquetRecordBatchReaderBuilder::try_new_with_options(
            data.clone(),
            ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional),
        )
    })
    .map_err(|p| format!("arrow-rs panicked opening: {}", panic_text(p)))?
    .map_err(|e| format!("arrow-rs cannot open: {e}"))
}

/// Open `data` with strata's builder, with the page index.
fn open_strata(
    data: &Bytes,
) -> Result<strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder<Bytes>, String> {
    use strata::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use strata::file::metadata::PageIndexPolicy;
    ParquetRecordBatchReaderBuilder::try_new_with_options(
        data.clone(),
        ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional),
    )
    .map_err(|e| format!("strata cannot open: {e}"))
}

/// Compare every answer for every top-level field of one file; `Err`
/// with the differences, or the reason the file was skipped.
fn compare_file(name: &str, data: Bytes, tally: &mut Tally) {
    let theirs = match open_arrow_rs(&data) {
        Ok(b) => b,
        Err(why) => {
            tally.files_skipped.insert(name.to_string(), why);
            return;
        }
    };
    let ours = match open_strata(&data) {
        Ok(b) => b,
        Err(why) => {
            tally.files_failed.push(format!("{name}: {why}"));
            tally.files_compared += 1;
            return;
        }
    };
    tally.files_compared += 1;
    let mut differences = Vec::new();
    let their_schema = theirs.schema().clone();
    for field in their_schema.fields() {
        let fname = field.name();
        let what = format!("{name} {fname}");
        if field.data_type().is_nested() {
            continue; // arrow-rs's try_new answers nulls: nothing to compare
        }
        let our_type = ours
            .schema()
            .field_with_name(fname)
            .map(|f| f.data_type().clone());
        if our_type.as_ref().ok() != Some(field.data_type()) {
            tally.fields_skipped.push(format!(
                "{what}: strata reads {:?}, arrow-rs {}",
                our_type.ok(),
                field.data_type()
            ));
            continue;
        }
        let expected = match catch_unwind(AssertUnwindSafe(|| answers!(parquet, &theirs, fname))) {
            Ok(a) => a,
            Err(p) => {
                tally.fields_skipped.push(format!(
                    "{what}: arrow-rs's converter panicked: {}",
                    panic_text(p)
                ));
                continue;
            }
        };
        let mut expected = expected;
        if matches!(
            field.data_type(),
            arrow_schema::DataType::Float16
                | arrow_schema::DataType::Float32
                | arrow_schema::DataType::Float64
        ) {
            let orders = theirs.metadata().file_metadata().column_orders().cloned();
            expected_float_bounds(&mut expected, orders.as_deref());
        }
        let actual = answers!(strata, &ours, fname);
        tally.fields_compared += 1;
        // arrow-rs's metadata has no page index for a file without one;
        // strata's has an empty one, whose page answers must be empty.
        let (actual, extra) = actual.split_at(expected.len().min(actual.len()));
        for (method, a) in extra {
            let empty = match a {
                Ok(Some(a)) => a.is_empty(),
                Ok(None) => true,
                Err(_) => false,
            };
            if !(method.starts_with("data_page") && empty) {
                differences.push(format!(
                    "{what} {method}: arrow-rs has no answer, strata {a:?}"
                ));
            }
        }
        let (names_e, names_a): (Vec<_>, Vec<_>) = (
            expected.iter().map(|(n, _)| *n).collect(),
            actual.iter().map(|(n, _)| *n).collect(),
        );
        if names_e != names_a {
            differences.push(format!(
                "{what}: answered {names_a:?}, arrow-rs {names_e:?}"
            ));
            continue;
        }
        for ((method, e), (_, a)) in expected.iter().zip(actual) {
            tally.answers_compared += 1;
            let same = match (e, a) {
                (Ok(Some(e)), Ok(Some(a))) => {
                    e.data_type() == a.data_type() && e.to_data() == a.to_data()
                }
                (Ok(None), Ok(None)) => true,
                // Both refuse: the messages may differ.
                (Err(_), Err(_)) => true,
                _ => false,
            };
            if !same {
                differences.push(format!(
                    "{what} {method}:\n  arrow-rs {e:?}\n  strata   {a:?}"
                ));
            }
        }
    }
    if differences.is_empty() {
        tally.files_passed += 1;
    } else {
        tally.files_failed.push(differences.join("\n"));
    }
}

fn report(what: &str, tally: &Tally) {
    println!(
        "{what}: files compared {}, passed {}, failed {}, skipped {}; fields compared {}, \
         skipped {}; answers compared {}",
        tally.files_compared,
        tally.files_passed,
        tally.files_failed.len(),
        tally.files_skipped.len(),
        tally.fields_compared,
        tally.fields_skipped.len(),
        tally.answers_compared
    );
    for (file, why) in &tally.files_skipped {
        println!("  skipped file {file}: {why}");
    }
    for why in &tally.fields_skipped {
        println!("  skipped field {why}");
    }
}

#[test]
fn corpus_statistics_match_arrow_rs() {
    let Some(dir) = corpus::corpus_dir("data") else {
        return;
    };
    let mut tally = Tally::default();
    for path in parquet_files_under(&dir) {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        compare_file(
            &name,
            Bytes::from(std::fs::read(&path).unwrap()),
            &mut tally,
        );
    }
    report("corpus", &tally);
    assert!(
        tally.files_failed.is_empty(),
        "{} files differ:\n{}",
        tally.files_failed.len(),
        tally.files_failed.join("\n")
    );
    assert!(tally.files_passed > 50, "too few files compared");
}

/// A batch of every Arrow type the reader maps a leaf to, with nulls, a
/// run of nulls long enough to fill pages, and values that vary in order.
fn every_type_batch(rows: usize) -> RecordBatch {
    let valid = |i: usize| i % 7 != 3 && !(100..260).contains(&i);
    let v = |i: usize| ((i * 7919) % 1000) as i64 - 500;
    macro_rules! col {
        ($array:ty, $f:expr) => {
            Arc::new(<$array>::from_iter(
                (0..rows).map(|i| valid(i).then(|| $f(i))),
            )) as ArrayRef
        };
    }
    let text = |i: usize| format!("s{:05}é", v(i) + 500);
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("bool", col!(BooleanArray, |i| v(i) > 0)),
        ("i8", col!(Int8Array, |i| (v(i) / 4) as i8)),
        ("i16", col!(Int16Array, |i| v(i) as i16 * 60)),
        ("i32", col!(Int32Array, |i| v(i) as i32 * 1_000_000)),
        ("i64", col!(Int64Array, |i| v(i) << 40)),
        ("u8", col!(UInt8Array, |i| (v(i) + 500) as u8)),
        ("u16", col!(UInt16Array, |i| (v(i) + 500) as u16 * 60)),
        ("u32", col!(UInt32Array, |i| (v(i) + 500) as u32 * 4_000_000)),
        ("u64", col!(UInt64Array, |i| (v(i) + 500) as u64 * (1 << 54))),
        ("f16", col!(Float16Array, |i| half::f16::from_f32(v(i) as f32 / 8.0))),
        ("f32", col!(Float32Array, |i| v(i) as f32 / 3.0)),
        ("f64", col!(Float64Array, |i| v(i) as f64 / 7.0)),
        ("date32", col!(Date32Array, |i| v(i) as i32 * 30)),
        ("date64", col!(Date64Array, |i| v(i) * 86_400_000)),
        ("time32s", col!(Time32SecondArray, |i| (v(i) + 500) as i32 * 80)),
        ("time32ms", col!(Time32MillisecondArray, |i| (v(i) + 500) as i32 * 80_000)),
        ("time64us", col!(Time64MicrosecondArray, |i| (v(i) + 500) * 80_000_000)),
        ("time64ns", col!(Time64NanosecondArray, |i| (v(i) + 500) * 80_000_000_000)),
        ("ts_s", col!(TimestampSecondArray, |i| v(i) * 1_000_000)),
        ("ts_ms", col!(TimestampMillisecondArray, |i| v(i) * 1_000_000_000)),
        (
            "ts_us_utc",
            Arc::new(
                TimestampMicrosecondArray::from_iter(
                    (0..rows).map(|i| valid(i).then(|| v(i) * 1_000_000_000_000)),
                )
                .with_timezone("UTC"),
            ),
        ),
        (
            "ts_ns_zone",
            Arc::new(
                TimestampNanosecondArray::from_iter(
                    (0..rows).map(|i| valid(i).then(|| v(i) * 1_000_000_000_000_000)),
                )
                .with_timezone("+02:00"),
            ),
        ),
        (
            "dec32",
            Arc::new(
                Decimal32Array::from_iter((0..rows).map(|i| valid(i).then(|| v(i) as i32 * 1000)))
                    .with_precision_and_scale(9, 2)
                    .unwrap(),
            ),
        ),
        (
            "dec64",
            Arc::new(
                Decimal64Array::from_iter((0..rows).map(|i| valid(i).then(|| v(i) << 30)))
                    .with_precision_and_scale(18, 3)
                    .unwrap(),
            ),
        ),
        (
            "dec128",
            Arc::new(
                Decimal128Array::from_iter(
                    (0..rows).map(|i| valid(i).then(|| i128::from(v(i)) << 80)),
                )
                .with_precision_and_scale(38, 4)
                .unwrap(),
            ),
        ),
        (
            "dec256",
            Arc::new(
                Decimal256Array::from_iter((0..rows).map(|i| {
                    valid(i).then(|| <arrow_array::types::Decimal256Type as arrow_array::ArrowPrimitiveType>::Native::from_i128(i128::from(v(i)) << 100))
                }))
                .with_precision_and_scale(76, 5)
                .unwrap(),
            ),
        ),
        ("utf8", col!(StringArray, text)),
        ("large_utf8", col!(LargeStringArray, text)),
        ("utf8_view", col!(StringViewArray, text)),
        ("binary", col!(BinaryArray, |i| text(i).into_bytes())),
        ("large_binary", col!(LargeBinaryArray, |i| text(i).into_bytes())),
        ("binary_view", col!(BinaryViewArray, |i| text(i).into_bytes())),
        (
            "fixed",
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    (0..rows).map(|i| valid(i).then(|| (v(i) as i32).to_be_bytes())),
                    4,
                )
                .unwrap(),
            ),
        ),
        (
            "dict",
            {
                let keys: Vec<Option<String>> = (0..rows)
                    .map(|i| valid(i).then(|| format!("k{}", v(i) % 13)))
                    .collect();
                Arc::new(
                    keys.iter()
                        .map(Option::as_deref)
                        .collect::<DictionaryArray<arrow_array::types::Int32Type>>(),
                )
            },
        ),
        (
            "long_text",
            col!(StringArray, |i| format!("{}{}", "x".repeat(80), text(i))),
        ),
    ];
    RecordBatch::try_from_iter(columns).unwrap()
}

#[test]
fn written_files_statistics_match_arrow_rs() {
    let batch = every_type_batch(2000);
    let mut tally = Tally::default();
    // Each writer: 3 row groups, pages of 100 rows, page statistics.
    macro_rules! write_with {
        ($krate:ident) => {{
            use $krate::file::properties::{EnabledStatistics, WriterProperties};
            let props = WriterProperties::builder()
                .set_max_row_group_row_count(Some(700))
                .set_data_page_row_count_limit(100)
                .set_write_batch_size(100)
                .set_statistics_enabled(EnabledStatistics::Page)
                .build();
            let mut out = Vec::new();
            let mut writer =
                $krate::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
            writer.write(&batch).unwrap();
            writer.close().unwrap();
            Bytes::from(out)
        }};
    }
    compare_file("written by strata", write_with!(strata), &mut tally);
    compare_file("written by arrow-rs", write_with!(parquet), &mut tally);
    report("written", &tally);
    assert!(
        tally.files_failed.is_empty(),
        "differences:\n{}",
        tally.files_failed.join("\n")
    );
    assert_eq!(tally.files_passed, 2);
    // strata stores seconds as milliseconds and, in its own files, reads
    // them back as seconds (docs/architecture.md, "Time units on read");
    // arrow-rs reads milliseconds, so the two fields' types differ.
    assert_eq!(
        tally.fields_skipped,
        [
            "written by strata time32s: strata reads Some(Time32(Second)), arrow-rs Time32(ms)",
            "written by strata ts_s: strata reads Some(Timestamp(Second, None)), arrow-rs Timestamp(ms)",
        ]
    );
    assert_eq!(tally.fields_compared, 2 * batch.num_columns() - 2);
}

/// A sorted INT64 key of 1,000,000 rows in pages of 1,000 (two row
/// groups): pruning by the page bounds for a range of 1% of the keys keeps
/// at most 2% of the pages, and reading the selection gives exactly the
/// rows in range.
#[test]
fn page_pruning_keeps_few_pages_and_the_rows_in_range() {
    use strata::arrow::arrow_reader::statistics::StatisticsConverter;
    use strata::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
    use strata::file::metadata::PageIndexPolicy;
    use strata::file::properties::{EnabledStatistics, WriterProperties};

    const ROWS: i64 = 1_000_000;
    let keys = Int64Array::from_iter_values((0..ROWS).map(|i| i * 3 + 7));
    let payload = Int64Array::from_iter_values((0..ROWS).map(|i| i ^ 0x5555));
    let batch = RecordBatch::try_from_iter([
        ("key", Arc::new(keys) as ArrayRef),
        ("payload", Arc::new(payload) as ArrayRef),
    ])
    .unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(600_000))
        .set_data_page_row_count_limit(1000)
        .set_write_batch_size(1000)
        .set_statistics_enabled(EnabledStatistics::Page)
        .build();
    let mut file = Vec::new();
    let mut writer =
        strata::arrow::ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let file = Bytes::from(file);

    // Keys 1,200,007 ..= 1,230,004: rows 400,000 .. 409,999, 1% of them,
    // across the first row group's last pages.
    let (lo, hi) = (1_200_007i64, 1_230_004i64);
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
    let metadata = builder.metadata().clone();
    let converter =
        StatisticsConverter::try_new("key", builder.schema(), builder.parquet_schema()).unwrap();
    let page_index = metadata.page_index().unwrap().as_ref();
    let groups: Vec<usize> = (0..metadata.num_row_groups()).collect();
    let mins = converter.data_page_mins(page_index, &groups).unwrap();
    let maxes = converter.data_page_maxes(page_index, &groups).unwrap();
    let (mins, maxes) = (
        mins.as_primitive::<Int64Type>(),
        maxes.as_primitive::<Int64Type>(),
    );
    let keep: BooleanArray = (0..mins.len())
        .map(|p| Some(mins.value(p) <= hi && maxes.value(p) >= lo))
        .collect();

    // Pages counted through the offset index.
    let total_pages: usize = groups
        .iter()
        .map(|&g| {
            page_index
                .offset_index(g, 0)
                .unwrap()
                .page_locations()
                .len()
        })
        .sum();
    let kept = keep.true_count();
    println!("page pruning: kept {kept} of {total_pages} data pages");
    assert_eq!(total_pages, mins.len());
    assert!(total_pages >= 1000, "{total_pages} pages");
    assert!(kept * 50 <= total_pages, "kept {kept} of {total_pages}");
    assert!(kept > 0);

    let selection = converter
        .data_page_row_selection(&keep, page_index, metadata.row_groups(), &groups)
        .unwrap();
    let read: Vec<RecordBatch> = builder
        .with_row_groups(groups.clone())
        .with_row_selection(selection)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let in_range = |b: &RecordBatch| {
        let keys = b.column(0).as_primitive::<Int64Type>();
        let mask: BooleanArray = keys.iter().map(|k| k.map(|k| k >= lo && k <= hi)).collect();
        arrow_select::filter::filter_record_batch(b, &mask).unwrap()
    };
    let pruned: Vec<RecordBatch> = read.iter().map(in_range).collect();
    let everything: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| in_range(&b.unwrap()))
        .collect();
    let schema = batch.schema();
    let pruned = arrow_select::concat::concat_batches(&schema, &pruned).unwrap();
    let everything = arrow_select::concat::concat_batches(&schema, &everything).unwrap();
    assert_eq!(everything.num_rows(), 10_000);
    assert_eq!(pruned, everything);
    let read_rows: usize = read.iter().map(RecordBatch::num_rows).sum();
    assert!(read_rows <= 20_000, "read {read_rows} rows");
}
