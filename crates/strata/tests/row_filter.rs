//! Row filters against a reference: every filtered read must equal reading
//! everything with arrow-rs 60.1 and then filtering with `arrow-select`
//! (the predicates' masks ANDed, null as false; offset and limit after
//! the filter), through the synchronous reader, the push decoder and the
//! async stream alike. The files have several row groups, small pages and
//! a page index, so filters cut pages; the columns cover nulls, strings,
//! dictionaries, a struct (filtered on one of its leaves) and a list.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, BooleanArray, FixedSizeBinaryArray, Float64Array, Int32Array, Int64Array,
    ListArray, RecordBatch, StringArray, StructArray,
};
use arrow_schema::{ArrowError, DataType, Field, Fields};
use bytes::Bytes;
use strata::DecodeResult;
use strata::arrow::arrow_reader::{
    ArrowPredicate, ArrowPredicateFn, ArrowReaderBuilder, ArrowReaderOptions,
    ParquetRecordBatchReaderBuilder, RowFilter, RowSelection, RowSelectionPolicy, RowSelector,
};
use strata::arrow::push_decoder::ParquetPushDecoderBuilder;
use strata::arrow::{ArrowWriter, ProjectionMask};
use strata::file::metadata::ParquetMetaDataReader;
use strata::file::properties::WriterProperties;

const ROWS: i64 = 20_000;

/// The table: `id` 0..ROWS, `n` nullable, `s` strings (dictionary
/// encoded, some null), `v` doubles, `st` a struct {a, b}, `l` a list,
/// `flag` nullable booleans, `fx` nullable 4-byte fixed-size binaries.
fn table() -> RecordBatch {
    let id = Int64Array::from_iter_values(0..ROWS);
    let n = Int32Array::from_iter((0..ROWS).map(|i| (i % 7 != 0).then_some((i % 100) as i32)));
    let s =
        StringArray::from_iter((0..ROWS).map(|i| (i % 11 != 3).then(|| format!("s{}", i % 37))));
    let v = Float64Array::from_iter_values((0..ROWS).map(|i| ((i * 7919) % 1000) as f64 / 10.0));
    let a = Int32Array::from_iter((0..ROWS).map(|i| (i % 13 != 5).then_some((i % 50) as i32)));
    let b = StringArray::from_iter_values((0..ROWS).map(|i| format!("b{i}")));
    let st = StructArray::new(
        Fields::from(vec![
            Field::new("a", DataType::Int32, true),
            Field::new("b", DataType::Utf8, false),
        ]),
        vec![Arc::new(a) as ArrayRef, Arc::new(b) as ArrayRef],
        None,
    );
    let l = ListArray::from_iter_primitive::<Int32Type, _, _>((0..ROWS).map(|i| {
        (i % 9 != 4).then(|| {
            (0..(i % 4) as i32)
                .map(|x| Some(x + i as i32))
                .collect::<Vec<_>>()
        })
    }));
    let flag = BooleanArray::from_iter((0..ROWS).map(|i| (i % 6 != 2).then_some(i % 3 == 0)));
    let fx = FixedSizeBinaryArray::try_from_sparse_iter_with_size(
        (0..ROWS).map(|i| (i % 8 != 5).then(|| ((i % 300) as u32).to_le_bytes())),
        4,
    )
    .unwrap();
    RecordBatch::try_from_iter([
        ("id", Arc::new(id) as ArrayRef),
        ("n", Arc::new(n) as ArrayRef),
        ("s", Arc::new(s) as ArrayRef),
        ("v", Arc::new(v) as ArrayRef),
        ("st", Arc::new(st) as ArrayRef),
        ("l", Arc::new(l) as ArrayRef),
        ("flag", Arc::new(flag) as ArrayRef),
        ("fx", Arc::new(fx) as ArrayRef),
    ])
    .unwrap()
}

/// The table written by strata: row groups of 6,000 rows, pages of 500.
fn file() -> Bytes {
    let batch = table();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(6_000))
        .set_data_page_row_count_limit(500)
        .set_write_batch_size(500)
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    Bytes::from(out)
}

/// A predicate: the roots or leaves it reads, and its test on the rows of
/// a batch holding them (the same code runs on the full table, where it
/// finds its columns by name).
#[derive(Clone, Copy)]
struct Pred {
    roots: &'static [usize],
    leaves: &'static [usize],
    test: fn(&RecordBatch) -> BooleanArray,
}

fn ids(b: &RecordBatch) -> &Int64Array {
    b.column_by_name("id").unwrap().as_primitive::<Int64Type>()
}

/// id % 5 == 1: scattered.
const SCATTERED: Pred = Pred {
    roots: &[0],
    leaves: &[],
    test: |b| BooleanArray::from_iter(ids(b).iter().map(|x| x.map(|x| x % 5 == 1))),
};
/// id % 97 == 3: about 1% of rows, 96 dropped between kept ones (dropped
/// runs a reader may read through where every output column drops the
/// masked rows as it reads them, and skips otherwise).
const SPARSE: Pred = Pred {
    roots: &[0],
    leaves: &[],
    test: |b| BooleanArray::from_iter(ids(b).iter().map(|x| x.map(|x| x % 97 == 3))),
};
/// 4,100 <= id < 4,350 or 12,000 <= id < 12,010: contiguous, cutting pages.
const RANGE: Pred = Pred {
    roots: &[0],
    leaves: &[],
    test: |b| {
        BooleanArray::from_iter(
            ids(b)
                .iter()
                .map(|x| x.map(|x| (4_100..4_350).contains(&x) || (12_000..12_010).contains(&x))),
        )
    },
};
/// n > 40, null where n is null.
const NULLABLE: Pred = Pred {
    roots: &[1],
    leaves: &[],
    test: |b| {
        let n = b.column_by_name("n").unwrap().as_primitive::<Int32Type>();
        BooleanArray::from_iter(n.iter().map(|x| x.map(|x| x > 40)))
    },
};
/// s == "s3" or s is null... as a non-null mask: s starts with "s1".
const STRINGS: Pred = Pred {
    roots: &[2],
    leaves: &[],
    test: |b| {
        let s = b.column_by_name("s").unwrap().as_string::<i32>();
        BooleanArray::from_iter(
            s.iter()
                .map(|x| Some(x.is_some_and(|x| x.starts_with("s1")))),
        )
    },
};
/// st.a < 10 (reads the leaf `st.a` only, leaf 4).
const STRUCT_LEAF: Pred = Pred {
    roots: &[],
    leaves: &[4],
    test: |b| {
        let st = b.column_by_name("st").unwrap().as_struct();
        let a = st.column_by_name("a").unwrap().as_primitive::<Int32Type>();
        BooleanArray::from_iter(
            (0..st.len()).map(|i| (st.is_valid(i) && a.is_valid(i)).then(|| a.value(i) < 10)),
        )
    },
};
/// Lists of more than two elements.
const LISTS: Pred = Pred {
    roots: &[5],
    leaves: &[],
    test: |b| {
        let l = b.column_by_name("l").unwrap().as_list::<i32>();
        BooleanArray::from_iter((0..l.len()).map(|i| l.is_valid(i).then(|| l.value_length(i) > 2)))
    },
};
/// Keeps nothing.
const NOTHING: Pred = Pred {
    roots: &[0],
    leaves: &[],
    test: |b| BooleanArray::from(vec![false; b.num_rows()]),
};

/// One filtered read.
#[derive(Clone)]
struct Case {
    name: &'static str,
    predicates: Vec<Pred>,
    /// Output roots (`None`: all).
    output: Option<&'static [usize]>,
    selection: Option<Vec<RowSelector>>,
    offset: Option<usize>,
    limit: Option<usize>,
    batch_size: usize,
    policy: RowSelectionPolicy,
}

fn case(name: &'static str, predicates: Vec<Pred>) -> Case {
    Case {
        name,
        predicates,
        output: None,
        selection: None,
        offset: None,
        limit: None,
        batch_size: 1024,
        policy: RowSelectionPolicy::default(),
    }
}

fn cases() -> Vec<Case> {
    vec![
        case("no predicate", vec![]),
        case("scattered", vec![SCATTERED]),
        case("range", vec![RANGE]),
        case("sparse", vec![SPARSE]),
        Case {
            output: Some(&[1, 2, 3, 6, 7]),
            ..case("sparse, flat output", vec![SPARSE])
        },
        case("nullable", vec![NULLABLE]),
        case("strings", vec![STRINGS]),
        case("struct leaf", vec![STRUCT_LEAF]),
        case("lists", vec![LISTS]),
        case("nothing", vec![NOTHING]),
        case("three in order", vec![NULLABLE, STRINGS, SCATTERED]),
        Case {
            output: Some(&[2, 3, 5]),
            ..case("output without the predicate column", vec![RANGE, NULLABLE])
        },
        Case {
            output: Some(&[]),
            ..case("no output column", vec![SCATTERED])
        },
        Case {
            selection: Some(vec![
                RowSelector::skip(3_000),
                RowSelector::select(7_000),
                RowSelector::skip(100),
                RowSelector::select(5),
            ]),
            ..case("after a selection", vec![SCATTERED, STRUCT_LEAF])
        },
        Case {
            offset: Some(700),
            limit: Some(1_234),
            batch_size: 100,
            ..case("offset and limit", vec![NULLABLE])
        },
        Case {
            limit: Some(60),
            ..case("limit within the first group", vec![RANGE])
        },
    ]
}

fn mask(pred: &Pred, schema: &strata::schema::types::SchemaDescriptor) -> ProjectionMask {
    if pred.leaves.is_empty() {
        ProjectionMask::roots(schema, pred.roots.iter().copied())
    } else {
        ProjectionMask::leaves(schema, pred.leaves.iter().copied())
    }
}

/// The predicates as a strata row filter; each checks that its batches
/// hold exactly its projection's roots.
fn row_filter(case: &Case, schema: &strata::schema::types::SchemaDescriptor) -> RowFilter {
    let predicates = case
        .predicates
        .iter()
        .map(|p| {
            let p = *p;
            let want: Vec<usize> = if p.leaves.is_empty() {
                p.roots.to_vec()
            } else {
                vec![4]
            };
            Box::new(ArrowPredicateFn::new(
                mask(&p, schema),
                move |batch: RecordBatch| {
                    assert_eq!(batch.num_columns(), want.len(), "a predicate's batch");
                    Ok((p.test)(&batch))
                },
            )) as Box<dyn ArrowPredicate>
        })
        .collect();
    RowFilter::new(predicates)
}

fn configure<T>(b: ArrowReaderBuilder<T>, case: &Case) -> ArrowReaderBuilder<T> {
    let filter = row_filter(case, b.parquet_schema());
    let mut b = b
        .with_batch_size(case.batch_size)
        .with_row_filter(filter)
        .with_row_selection_policy(case.policy);
    if let Some(roots) = case.output {
        let m = ProjectionMask::roots(b.parquet_schema(), roots.iter().copied());
        b = b.with_projection(m);
    }
    if let Some(s) = &case.selection {
        b = b.with_row_selection(RowSelection::from(s.clone()));
    }
    if let Some(o) = case.offset {
        b = b.with_offset(o);
    }
    if let Some(l) = case.limit {
        b = b.with_limit(l);
    }
    b
}

/// The reference: arrow-rs reads every row, then the predicates' masks
/// (null as false) and the selection filter it; offset and limit cut
/// the rows left.
fn expected(file: &Bytes, case: &Case) -> RecordBatch {
    let reader =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_batch_size(100_000)
            .build()
            .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let all = arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
    let mut keep = vec![true; all.num_rows()];
    if let Some(s) = &case.selection {
        let mut at = 0;
        keep.fill(false);
        for r in s {
            if !r.skip {
                keep[at..at + r.row_count].fill(true);
            }
            at += r.row_count;
        }
    }
    for p in &case.predicates {
        let m = (p.test)(&all);
        for (k, v) in keep.iter_mut().zip(m.iter()) {
            *k &= v == Some(true);
        }
    }
    let mut rows: Vec<usize> = (0..all.num_rows()).filter(|&i| keep[i]).collect();
    let offset = case.offset.unwrap_or(0).min(rows.len());
    rows.drain(..offset);
    rows.truncate(case.limit.unwrap_or(usize::MAX));
    let mut mask = vec![false; all.num_rows()];
    rows.iter().for_each(|&i| mask[i] = true);
    let filtered =
        arrow_select::filter::filter_record_batch(&all, &BooleanArray::from(mask)).unwrap();
    match case.output {
        Some(roots) => filtered.project(roots).unwrap(),
        None => filtered,
    }
}

/// Equal batches; else the first column and row that differ. arrow-rs
/// names a list's element field after the Parquet node (`element` in
/// files strata writes), strata after the embedded Arrow schema (`item`):
/// the reference is cast to strata's type where only that differs.
fn assert_same(got: &RecordBatch, want: &RecordBatch, what: &str) {
    assert_eq!(got.num_columns(), want.num_columns(), "{what}: columns");
    for (i, (g, w)) in got.columns().iter().zip(want.columns()).enumerate() {
        let w = &match (g.data_type(), w.data_type()) {
            (DataType::List(a), DataType::List(b)) if a.data_type() == b.data_type() => {
                arrow_cast::cast(w, g.data_type()).unwrap()
            }
            _ => w.clone(),
        };
        if g.to_data() == w.to_data() {
            continue;
        }
        let row = (0..g.len().min(w.len()))
            .find(|&r| g.slice(r, 1).to_data() != w.slice(r, 1).to_data())
            .unwrap_or(g.len().min(w.len()));
        panic!(
            "{what}: column {i} ({}: {} vs {}) differs at row {row} of {}/{}: {:?} vs {:?}",
            want.schema().field(i).name(),
            g.data_type(),
            w.data_type(),
            g.len(),
            w.len(),
            g.slice(row, 1.min(g.len().saturating_sub(row))),
            w.slice(row, 1.min(w.len().saturating_sub(row)))
        );
    }
}

fn concat(batches: &[RecordBatch], schema: arrow_schema::SchemaRef) -> RecordBatch {
    arrow_select::concat::concat_batches(&schema, batches).unwrap()
}

fn read_sync(file: &Bytes, case: &Case) -> RecordBatch {
    let b = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let reader = configure(b, case).build().unwrap();
    let schema = arrow_array::RecordBatchReader::schema(&reader);
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    assert!(
        batches
            .iter()
            .all(|b| b.num_rows() <= case.batch_size && b.num_rows() > 0)
    );
    concat(&batches, schema)
}

/// Push the bytes of `ranges` of `file`, which `decoder` asked for.
fn push_asked(
    decoder: &mut strata::arrow::push_decoder::ParquetPushDecoder,
    file: &Bytes,
    ranges: Vec<std::ops::Range<u64>>,
) -> Result<(), strata::errors::ParquetError> {
    let data = ranges
        .iter()
        .map(|r| file.slice(r.start as usize..r.end as usize))
        .collect();
    decoder.push_ranges(ranges, data)
}

/// Run `decoder` to its end, pushing exactly the ranges it asks for: its
/// batches and the bytes it asked for, or its first error.
fn drive(
    decoder: &mut strata::arrow::push_decoder::ParquetPushDecoder,
    file: &Bytes,
) -> Result<(Vec<RecordBatch>, u64), strata::errors::ParquetError> {
    let mut batches = Vec::new();
    let mut requested = 0;
    loop {
        match decoder.try_decode()? {
            DecodeResult::NeedsData(ranges) => {
                requested += ranges.iter().map(|r| r.end - r.start).sum::<u64>();
                push_asked(decoder, file, ranges)?;
            }
            DecodeResult::Data(b) => batches.push(b),
            DecodeResult::Finished => return Ok((batches, requested)),
        }
    }
}

/// The push decoder's read; `cache`: the bytes of predicate arrays a row
/// group may keep for the output (0: none, every column decoded again).
fn read_push(file: &Bytes, case: &Case, cache: usize) -> RecordBatch {
    let metadata = Arc::new(ParquetMetaDataReader::new().parse_and_finish(file).unwrap());
    let b = ParquetPushDecoderBuilder::try_new_decoder(metadata)
        .unwrap()
        .with_max_predicate_cache_size(cache);
    let mut decoder = configure(b, case).build().unwrap();
    let schema = decoder.schema().clone();
    let (batches, _) = drive(&mut decoder, file).unwrap();
    // Everything pushed was released.
    assert_eq!(
        decoder.buffered_bytes(),
        0,
        "{}: bytes left in the decoder",
        case.name
    );
    concat(&batches, schema)
}

fn read_stream(file: &Bytes, case: &Case) -> RecordBatch {
    use futures::TryStreamExt;
    use strata::arrow::async_reader::ParquetRecordBatchStreamBuilder;
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let input = std::io::Cursor::new(file.to_vec());
        let b = ParquetRecordBatchStreamBuilder::new_with_options(input, ArrowReaderOptions::new())
            .await
            .unwrap();
        let stream = configure(b, case).build().unwrap();
        let schema = stream.schema().clone();
        let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
        concat(&batches, schema)
    })
}

/// The push decoder's `try_next_reader`: a reader per row group, each
/// filtered before it is handed out.
fn read_next_readers(file: &Bytes, case: &Case) -> RecordBatch {
    let metadata = Arc::new(ParquetMetaDataReader::new().parse_and_finish(file).unwrap());
    let b = ParquetPushDecoderBuilder::try_new_decoder(metadata).unwrap();
    let mut decoder = configure(b, case).build().unwrap();
    let schema = decoder.schema().clone();
    let mut batches = Vec::new();
    loop {
        match decoder.try_next_reader().unwrap() {
            DecodeResult::NeedsData(ranges) => push_asked(&mut decoder, file, ranges).unwrap(),
            DecodeResult::Data(reader) => {
                batches.extend(reader.map(|b| b.unwrap()));
            }
            DecodeResult::Finished => break,
        }
    }
    concat(&batches, schema)
}

#[test]
fn filtered_reads_equal_reading_everything_then_filtering() {
    let file = file();
    let mut checked = 0;
    for case in cases() {
        let want = expected(&file, &case);
        for (path, got) in [
            ("sync", read_sync(&file, &case)),
            ("push", read_push(&file, &case, 100 << 20)),
            (
                "push, predicate arrays not kept",
                read_push(&file, &case, 0),
            ),
            (
                "push, predicate arrays partly kept",
                read_push(&file, &case, 300_000),
            ),
            ("stream", read_stream(&file, &case)),
            (
                "push, a reader per row group",
                read_next_readers(&file, &case),
            ),
        ] {
            assert_eq!(
                got.num_rows(),
                want.num_rows(),
                "{}: {path}: rows",
                case.name
            );
            assert_same(&got, &want, &format!("{}: {path}", case.name));
            checked += 1;
        }
    }
    assert_eq!(checked, cases().len() * 6);
}

/// The table written without dictionaries (PLAIN pages, v1 and v2), and
/// with the delta encodings: the rows a filter keeps are read from each
/// kind of page without building the others (dictionary pages are the
/// main file's).
fn files_by_encoding() -> Vec<(&'static str, Bytes)> {
    use strata::basic::Encoding;
    use strata::file::properties::WriterVersion;
    use strata::schema::types::ColumnPath;
    let base = || {
        WriterProperties::builder()
            .set_max_row_group_row_count(Some(6_000))
            .set_data_page_row_count_limit(500)
            .set_write_batch_size(500)
            .set_dictionary_enabled(false)
    };
    let delta = base()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_column_encoding(ColumnPath::from("id"), Encoding::DELTA_BINARY_PACKED)
        .set_column_encoding(ColumnPath::from("n"), Encoding::DELTA_BINARY_PACKED)
        .set_column_encoding(ColumnPath::from("s"), Encoding::DELTA_BYTE_ARRAY)
        .set_column_encoding(ColumnPath::from("v"), Encoding::BYTE_STREAM_SPLIT);
    let batch = table();
    [
        ("plain, v1", base().build()),
        (
            "plain, v2",
            base()
                .set_writer_version(WriterVersion::PARQUET_2_0)
                .build(),
        ),
        ("delta", delta.build()),
    ]
    .into_iter()
    .map(|(name, props)| {
        let mut out = Vec::new();
        let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        (name, Bytes::from(out))
    })
    .collect()
}

/// Each selection policy carries the kept rows its own way (selectors,
/// a mask, a mask from runs under two rows apart): the same rows.
#[test]
fn every_selection_policy_reads_the_same_rows() {
    let file = file();
    let mut checked = 0;
    for policy in [
        RowSelectionPolicy::Selectors,
        RowSelectionPolicy::Mask,
        RowSelectionPolicy::Auto { threshold: 2 },
    ] {
        for case in cases() {
            let case = Case { policy, ..case };
            let want = expected(&file, &case);
            for (path, got) in [
                ("sync", read_sync(&file, &case)),
                ("push", read_push(&file, &case, 100 << 20)),
            ] {
                let what = format!("{policy:?}: {}: {path}", case.name);
                assert_eq!(got.num_rows(), want.num_rows(), "{what}: rows");
                assert_same(&got, &want, &what);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * cases().len() * 2);
}

#[test]
fn filtered_reads_equal_reading_everything_then_filtering_under_every_encoding() {
    let mut checked = 0;
    for (encoding, file) in files_by_encoding() {
        for case in cases() {
            let want = expected(&file, &case);
            for (path, got) in [
                ("sync", read_sync(&file, &case)),
                ("push", read_push(&file, &case, 0)),
            ] {
                let what = format!("{encoding}: {}: {path}", case.name);
                assert_eq!(got.num_rows(), want.num_rows(), "{what}: rows");
                assert_same(&got, &want, &what);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * cases().len() * 2);
}

/// The same filter, arrow-rs's reader with its own row filter: the same
/// rows (a second oracle, for the semantics of offset, limit and
/// selection under a filter).
#[test]
fn filtered_reads_equal_arrow_rs_row_filters() {
    use parquet::arrow::arrow_reader::{
        ArrowPredicate as P, ArrowPredicateFn as F, ParquetRecordBatchReaderBuilder as B,
        RowFilter as R, RowSelection as S, RowSelector as Sr,
    };
    let file = file();
    for case in cases() {
        let b = B::try_new(file.clone()).unwrap();
        let schema = b.parquet_schema();
        let predicates: Vec<Box<dyn P>> = case
            .predicates
            .iter()
            .map(|p| {
                let p = *p;
                let m = if p.leaves.is_empty() {
                    parquet::arrow::ProjectionMask::roots(schema, p.roots.iter().copied())
                } else {
                    parquet::arrow::ProjectionMask::leaves(schema, p.leaves.iter().copied())
                };
                Box::new(F::new(m, move |batch: RecordBatch| Ok((p.test)(&batch)))) as Box<dyn P>
            })
            .collect();
        let mut b = b
            .with_batch_size(case.batch_size)
            .with_row_filter(R::new(predicates));
        if let Some(roots) = case.output {
            let m =
                parquet::arrow::ProjectionMask::roots(b.parquet_schema(), roots.iter().copied());
            b = b.with_projection(m);
        }
        if let Some(s) = &case.selection {
            let s: Vec<Sr> = s
                .iter()
                .map(|r| {
                    if r.skip {
                        Sr::skip(r.row_count)
                    } else {
                        Sr::select(r.row_count)
                    }
                })
                .collect();
            b = b.with_row_selection(S::from(s));
        }
        if let Some(o) = case.offset {
            b = b.with_offset(o);
        }
        if let Some(l) = case.limit {
            b = b.with_limit(l);
        }
        let reader = b.build().unwrap();
        let schema = arrow_array::RecordBatchReader::schema(&reader);
        let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
        let theirs = concat(&batches, schema);
        let ours = read_sync(&file, &case);
        assert_same(&ours, &theirs, case.name);
    }
}

/// A predicate's error: the synchronous builder's `build` returns it (the
/// filter runs there, as arrow-rs's does); the push decoder returns it
/// from `try_decode`. So does a mask of the wrong length.
#[test]
fn predicate_errors_are_errors() {
    let file = file();
    let failing = |len_wrong: bool| {
        let b = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let m = ProjectionMask::roots(b.parquet_schema(), [0]);
        let p = ArrowPredicateFn::new(m, move |batch: RecordBatch| {
            if len_wrong {
                Ok(BooleanArray::from(vec![true; batch.num_rows() + 1]))
            } else {
                Err(ArrowError::ComputeError("no".into()))
            }
        });
        b.with_row_filter(RowFilter::new(vec![Box::new(p)]))
    };
    let e = failing(false).build().unwrap_err().to_string();
    assert!(e.contains("no"), "{e}");
    let e = failing(true).build().unwrap_err().to_string();
    assert!(e.contains("values for a batch of"), "{e}");

    let metadata = Arc::new(
        ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap(),
    );
    let b = ParquetPushDecoderBuilder::try_new_decoder(metadata).unwrap();
    let m = ProjectionMask::roots(b.parquet_schema(), [0]);
    let p = ArrowPredicateFn::new(m, |_b: RecordBatch| {
        Err(ArrowError::ComputeError("no".into()))
    });
    let mut decoder = b
        .with_row_filter(RowFilter::new(vec![Box::new(p)]))
        .build()
        .unwrap();
    let err = drive(&mut decoder, &file).unwrap_err().to_string();
    assert!(err.contains("no"), "{err}");
}

/// With a filter that keeps a contiguous range, the output columns of
/// the push decoder are fetched only for the pages holding kept rows.
#[test]
fn output_columns_fetch_only_pages_with_kept_rows() {
    let file = file();
    let metadata = Arc::new(
        ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap(),
    );
    let requested = |filter: bool| {
        let b = ParquetPushDecoderBuilder::try_new_decoder(Arc::clone(&metadata)).unwrap();
        let out = ProjectionMask::roots(b.parquet_schema(), [3]);
        let mut b = b.with_projection(out);
        if filter {
            let filter = row_filter(&case("range", vec![RANGE]), b.parquet_schema());
            b = b.with_row_filter(filter);
        }
        let mut decoder = b.build().unwrap();
        let (batches, bytes) = drive(&mut decoder, &file).unwrap();
        let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
        (rows, bytes)
    };
    let (all_rows, all_bytes) = requested(false);
    let (rows, bytes) = requested(true);
    assert_eq!(all_rows, ROWS as usize);
    assert_eq!(rows, 260);
    // The id column is read whole; of `v` only a few pages of 500 rows.
    let id_bytes: u64 = metadata
        .row_groups()
        .iter()
        .map(|g| {
            g.columns[0]
                .meta_data
                .as_ref()
                .unwrap()
                .total_compressed_size as u64
        })
        .sum();
    assert!(
        bytes < id_bytes + all_bytes / 4,
        "filtered read fetched {bytes} bytes (id chunks {id_bytes}, v whole {all_bytes})"
    );
}
