//! arrow-rs `parquet` 60.1 as the oracle of strata's small API pieces that
//! compute something: the row selection algebra, `ProjectionMask`'s
//! column names and set operations, the parsing of codec, encoding,
//! writer version and statistics names, typed statistics, and the text and
//! JSON of row fields. Each case runs on both crates and the answers must
//! be equal.

#[path = "support/corpus.rs"]
mod corpus;

use arrow_array::BooleanArray;
use arrow_schema::{DataType, Field, Fields, Schema};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Random runs: (row_count, skip), some of length 0, covering `total`
/// rows when given.
fn runs(g: &mut Rng, total: Option<usize>) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    match total {
        Some(mut left) => {
            while left > 0 {
                let n = (1 + g.below(9) as usize).min(left);
                out.push((n, g.below(2) == 0));
                left -= n;
            }
        }
        None => {
            for _ in 0..g.below(8) {
                out.push((g.below(9) as usize, g.below(2) == 0));
            }
        }
    }
    out
}

fn strata_sel(r: &[(usize, bool)]) -> strata::arrow::arrow_reader::RowSelection {
    use strata::arrow::arrow_reader::RowSelector;
    r.iter()
        .map(|&(n, skip)| RowSelector { row_count: n, skip })
        .collect()
}

fn arrow_sel(r: &[(usize, bool)]) -> parquet::arrow::arrow_reader::RowSelection {
    use parquet::arrow::arrow_reader::RowSelector;
    r.iter()
        .map(|&(n, skip)| RowSelector { row_count: n, skip })
        .collect()
}

fn strata_runs(s: &strata::arrow::arrow_reader::RowSelection) -> Vec<(usize, bool)> {
    s.iter().map(|r| (r.row_count, r.skip)).collect()
}

/// arrow-rs's runs, with the same normal form as strata's (adjacent runs
/// of one kind merged, empty runs dropped): the two may split a run
/// differently without selecting different rows.
fn arrow_runs(s: &parquet::arrow::arrow_reader::RowSelection) -> Vec<(usize, bool)> {
    let mut out: Vec<(usize, bool)> = Vec::new();
    for r in s.iter() {
        if r.row_count == 0 {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1 == r.skip => last.0 += r.row_count,
            _ => out.push((r.row_count, r.skip)),
        }
    }
    out
}

#[test]
fn row_selection_algebra_matches_arrow_rs() {
    let mut g = Rng(0x5EED_2026);
    for case in 0..3000 {
        let a = runs(&mut g, None);
        let b = runs(&mut g, None);
        let (sa, sb) = (strata_sel(&a), strata_sel(&b));
        let (aa, ab) = (arrow_sel(&a), arrow_sel(&b));
        assert_eq!(
            strata_runs(&sa.intersection(&sb)),
            arrow_runs(&aa.intersection(&ab)),
            "case {case}: {a:?} AND {b:?}"
        );
        assert_eq!(
            strata_runs(&sa.union(&sb)),
            arrow_runs(&aa.union(&ab)),
            "case {case}: {a:?} OR {b:?}"
        );
        assert_eq!(sa.row_count(), aa.row_count(), "case {case}");
        assert_eq!(
            sa.skipped_row_count(),
            aa.skipped_row_count(),
            "case {case}"
        );
        assert_eq!(sa.total_row_count(), aa.total_row_count(), "case {case}");
        assert_eq!(sa.selects_any(), aa.selects_any(), "case {case}");

        // and_then: arrow-rs requires `other` to cover exactly the rows
        // `self` selects.
        let then = runs(&mut g, Some(sa.row_count()));
        assert_eq!(
            strata_runs(&sa.and_then(&strata_sel(&then))),
            arrow_runs(&aa.and_then(&arrow_sel(&then))),
            "case {case}: {a:?} and_then {then:?}"
        );

        let at = g.below(sa.total_row_count() as u64 + 3) as usize;
        let (mut rest_s, mut rest_a) = (sa.clone(), aa.clone());
        let (head_s, head_a) = (rest_s.split_off(at), rest_a.split_off(at));
        assert_eq!(
            strata_runs(&head_s),
            arrow_runs(&head_a),
            "case {case}: split_off({at}) of {a:?}"
        );
        assert_eq!(
            strata_runs(&rest_s),
            arrow_runs(&rest_a),
            "case {case}: rest after {at}"
        );
    }
}

#[test]
fn row_selection_from_filters_matches_arrow_rs() {
    let mut g = Rng(7);
    for case in 0..500 {
        let filters: Vec<BooleanArray> = (0..g.below(4))
            .map(|_| {
                let len = g.below(20) as usize;
                BooleanArray::from((0..len).map(|_| g.below(3) != 0).collect::<Vec<_>>())
            })
            .collect();
        let s = strata::arrow::arrow_reader::RowSelection::from_filters(&filters);
        let a = parquet::arrow::arrow_reader::RowSelection::from_filters(&filters);
        assert_eq!(strata_runs(&s), arrow_runs(&a), "case {case}: {filters:?}");
    }
}

fn nested_schema() -> Schema {
    let point = Fields::from(vec![
        Field::new("x", DataType::Float64, false),
        Field::new("y", DataType::Float64, true),
    ]);
    let tags = Field::new_list("tags", Field::new_list_field(DataType::Utf8, true), true);
    let map = Field::new_map(
        "attrs",
        "entries",
        Field::new("keys", DataType::Utf8, false),
        Field::new("values", DataType::Int64, true),
        false,
        true,
    );
    Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("point", DataType::Struct(point), true),
        tags,
        map,
        Field::new("point_x", DataType::Int32, true),
    ])
}

#[test]
fn projection_by_names_matches_arrow_rs() {
    let schema = nested_schema();
    let ours = strata::arrow::ArrowSchemaConverter::new()
        .convert(&schema)
        .unwrap();
    // strata always names list elements and map entries as the
    // specification does, which arrow-rs does with coercion on.
    let theirs = parquet::arrow::ArrowSchemaConverter::new()
        .with_coerce_types(true)
        .convert(&schema)
        .unwrap();
    for (o, t) in ours.columns().iter().zip(theirs.columns()) {
        assert_eq!(o.path.string(), t.path().string());
    }
    assert_eq!(ours.num_columns(), theirs.num_columns());
    let leaves = ours.num_columns();
    let name_sets: &[&[&str]] = &[
        &["id"],
        &["point"],
        &["point.x"],
        &["point.x.z"],
        &["point_x"],
        &["tags"],
        &["tags.list.element"],
        &["attrs", "id"],
        &["attrs.key_value.key"],
        &["nothing"],
        &[],
        &["poi"],
    ];
    let ours_of = |m: &strata::arrow::ProjectionMask| -> Vec<bool> {
        (0..leaves).map(|i| m.leaf_included(i)).collect()
    };
    let theirs_of = |m: &parquet::arrow::ProjectionMask| -> Vec<bool> {
        (0..leaves).map(|i| m.leaf_included(i)).collect()
    };
    for names in name_sets {
        let s = strata::arrow::ProjectionMask::columns(&ours, names.iter().copied());
        let a = parquet::arrow::ProjectionMask::columns(&theirs, names.iter().copied());
        assert_eq!(ours_of(&s), theirs_of(&a), "columns {names:?}");
    }
    // Union and intersection, with the "all columns" mask on either side.
    let pick = |i: usize| -> (
        strata::arrow::ProjectionMask,
        parquet::arrow::ProjectionMask,
    ) {
        match i {
            0 => (
                strata::arrow::ProjectionMask::all(),
                parquet::arrow::ProjectionMask::all(),
            ),
            i => (
                strata::arrow::ProjectionMask::columns(
                    &ours,
                    name_sets[i % name_sets.len()].iter().copied(),
                ),
                parquet::arrow::ProjectionMask::columns(
                    &theirs,
                    name_sets[i % name_sets.len()].iter().copied(),
                ),
            ),
        }
    };
    for i in 0..8 {
        for j in 0..8 {
            let ((mut s1, mut a1), (s2, a2)) = (pick(i), pick(j));
            let (mut s3, mut a3) = (s1.clone(), a1.clone());
            s1.union(&s2);
            a1.union(&a2);
            assert_eq!(ours_of(&s1), theirs_of(&a1), "union {i} {j}");
            s3.intersect(&s2);
            a3.intersect(&a2);
            assert_eq!(ours_of(&s3), theirs_of(&a3), "intersect {i} {j}");
        }
    }
}

#[test]
fn names_parse_as_arrow_rs_parses_them() {
    for text in [
        "UNCOMPRESSED",
        "uncompressed",
        "snappy",
        "SNAPPY",
        "gzip(6)",
        "GZIP(9)",
        "brotli(4)",
        "BROTLI(11)",
        "zstd(3)",
        "ZSTD(22)",
        "lz4",
        "LZ4_RAW",
        "lz4_raw",
        "lzo",
        "zstd",
        "gzip",
        "snappy(1)",
        "Snappy",
        "zstd(x)",
        "brotli(12)",
        // Not "" or "zstd(": arrow-rs 60.1 panics on them (an overflow in
        // its parser); strata refuses them (its own unit tests).
        "nope",
    ] {
        let ours = text.parse::<strata::basic::Compression>();
        let theirs = text.parse::<parquet::basic::Compression>();
        assert_eq!(
            ours.is_ok(),
            theirs.is_ok(),
            "{text:?}: {ours:?} / {theirs:?}"
        );
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            assert_eq!(o.to_string(), t.to_string(), "{text:?}");
        }
    }
    for text in [
        "PLAIN",
        "plain",
        "RLE_DICTIONARY",
        "delta_binary_packed",
        "DELTA_LENGTH_BYTE_ARRAY",
        "delta_byte_array",
        "BYTE_STREAM_SPLIT",
        "RLE",
        "PLAIN_DICTIONARY",
        "nope",
    ] {
        let ours = text.parse::<strata::basic::Encoding>();
        let theirs = text.parse::<parquet::basic::Encoding>();
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{text:?}");
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            assert_eq!(o.to_string(), t.to_string(), "{text:?}");
        }
    }
    for text in ["PARQUET_1_0", "parquet_2_0", "Parquet_2_0", "2.0"] {
        let ours = text.parse::<strata::file::properties::WriterVersion>();
        let theirs = text.parse::<parquet::file::properties::WriterVersion>();
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{text:?}");
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            assert_eq!(o.as_num(), t.as_num(), "{text:?}");
        }
    }
    for text in ["NONE", "chunk", "PAGE", "Page", "all"] {
        let ours = text.parse::<strata::file::properties::EnabledStatistics>();
        let theirs = text.parse::<parquet::file::properties::EnabledStatistics>();
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{text:?}");
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            assert_eq!(format!("{o:?}"), format!("{t:?}"), "{text:?}");
        }
    }
}

/// A file arrow-rs writes (statistics on, nulls in every nullable column,
/// small row groups), whose chunk statistics both crates read typed.
#[test]
fn typed_statistics_match_arrow_rs() {
    use std::sync::Arc;

    use arrow_array::{
        ArrayRef, BinaryArray, BooleanArray, FixedSizeBinaryArray, Float32Array, Float64Array,
        Int32Array, Int64Array, RecordBatch, StringArray,
    };

    let n = 300usize;
    let valid = |i: usize| i % 7 != 3;
    let batch = RecordBatch::try_from_iter([
        (
            "i32",
            Arc::new(Int32Array::from_iter(
                (0..n).map(|i| valid(i).then(|| i as i32 * 37 % 101 - 50)),
            )) as ArrayRef,
        ),
        (
            "i64",
            Arc::new(Int64Array::from_iter(
                (0..n).map(|i| Some(i as i64 * 1_000_003 - 7)),
            )),
        ),
        (
            "f32",
            Arc::new(Float32Array::from_iter(
                (0..n).map(|i| valid(i).then(|| i as f32 / 3.0 - 20.0)),
            )),
        ),
        (
            "f64",
            Arc::new(Float64Array::from_iter(
                (0..n).map(|i| valid(i).then(|| (i as f64).sqrt())),
            )),
        ),
        (
            "flag",
            Arc::new(BooleanArray::from_iter(
                (0..n).map(|i| valid(i).then_some(i % 3 == 0)),
            )),
        ),
        (
            "s",
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| valid(i).then(|| format!("v{:04}", i * 13 % 997))),
            )),
        ),
        (
            "bin",
            Arc::new(BinaryArray::from_iter(
                (0..n).map(|i| valid(i).then(|| vec![(i % 251) as u8; i % 5])),
            )),
        ),
        (
            "fsb",
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    (0..n).map(|i| valid(i).then_some([(i % 256) as u8, 1, 2])),
                    3,
                )
                .unwrap(),
            ),
        ),
    ])
    .unwrap();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(120))
        .build();
    let mut out = Vec::new();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let file = bytes::Bytes::from(out);

    let theirs =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .metadata()
            .clone();
    let ours = strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .metadata()
        .clone();
    assert_eq!(ours.num_row_groups(), theirs.num_row_groups());
    let mut compared = 0;
    for g in 0..theirs.num_row_groups() {
        for c in 0..theirs.row_group(g).num_columns() {
            let t = theirs.row_group(g).column(c).statistics().unwrap();
            let o = ours.row_group(g).column(c).statistics().unwrap();
            let what = format!("group {g} column {c}");
            assert_eq!(
                o.physical_type().to_string(),
                t.physical_type().to_string(),
                "{what}"
            );
            assert_eq!(o.null_count_opt(), t.null_count_opt(), "{what}");
            assert_eq!(o.distinct_count_opt(), t.distinct_count_opt(), "{what}");
            assert_eq!(o.min_bytes_opt(), t.min_bytes_opt(), "{what}");
            assert_eq!(o.max_bytes_opt(), t.max_bytes_opt(), "{what}");
            assert_eq!(
                o.is_min_max_deprecated(),
                t.is_min_max_deprecated(),
                "{what}"
            );
            assert_eq!(o.min_is_exact(), t.min_is_exact(), "{what}");
            assert_eq!(o.max_is_exact(), t.max_is_exact(), "{what}");
            use parquet::file::statistics::Statistics as T;
            use strata::file::statistics::Statistics as O;
            // Each side's bounds, printed: numbers as they are, byte
            // arrays as their bytes.
            macro_rules! bounds {
                ($o:expr, $t:expr) => {
                    (
                        format!("{:?}", ($o.min_opt(), $o.max_opt())),
                        format!("{:?}", ($t.min_opt(), $t.max_opt())),
                    )
                };
                (bytes $o:expr, $t:expr) => {
                    (
                        format!(
                            "{:?}",
                            (
                                $o.min_opt().map(Vec::as_slice),
                                $o.max_opt().map(Vec::as_slice)
                            )
                        ),
                        format!(
                            "{:?}",
                            (
                                $t.min_opt().map(|b| b.data()),
                                $t.max_opt().map(|b| b.data())
                            )
                        ),
                    )
                };
            }
            let typed = match (&o, t) {
                (O::Int32(o), T::Int32(t)) => bounds!(o, t),
                (O::Int64(o), T::Int64(t)) => bounds!(o, t),
                (O::Float(o), T::Float(t)) => bounds!(o, t),
                (O::Double(o), T::Double(t)) => bounds!(o, t),
                (O::Boolean(o), T::Boolean(t)) => bounds!(o, t),
                (O::ByteArray(o), T::ByteArray(t)) => bounds!(bytes o, t),
                (O::FixedLenByteArray(o), T::FixedLenByteArray(t)) => bounds!(bytes o, t),
                (o, t) => panic!("{what}: {o:?} against {t:?}"),
            };
            assert_eq!(typed.0, typed.1, "{what}");
            compared += 1;
        }
    }
    assert_eq!(compared, 3 * 8);
}

/// One primitive value built in both crates' `Field`.
fn field_pair(g: &mut Rng) -> (strata::record::Field, parquet::record::Field) {
    use parquet::record::Field as P;
    use strata::record::Field as S;
    // Values within chrono's years, where arrow-rs prints rather than
    // panics: |days| < 95,000,000, |milliseconds| < 8.2e15 (as days).
    let day = (g.next() % 190_000_000) as i64 - 95_000_000;
    let millis = (g.next() % 16_000_000_000_000_000) as i64 - 8_000_000_000_000_000;
    let micros = (g.next() as i64) / 2_000;
    let bits = g.next();
    let float = f32::from_bits(bits as u32);
    let double = f64::from_bits(bits);
    let scale = (g.below(20)) as i32;
    let width = 1 + g.below(40) as usize;
    let bytes: Vec<u8> = (0..width).map(|_| g.next() as u8).collect();
    let precision = 76;
    match g.below(14) {
        0 => (S::Date(day as i32), P::Date(day as i32)),
        1 => (S::TimestampMillis(millis), P::TimestampMillis(millis)),
        2 => (S::TimestampMicros(micros), P::TimestampMicros(micros)),
        3 => (S::TimeMillis(bits as i32), P::TimeMillis(bits as i32)),
        4 => (S::TimeMicros(bits as i64), P::TimeMicros(bits as i64)),
        5 => (S::Float(float), P::Float(float)),
        6 => (S::Double(double), P::Double(double)),
        7 => {
            // Round numbers and small ones, where the formats switch.
            let v = [0.0, -0.0, 1e19, 1e-15, 1e20, 123456.0, 0.1, -7.0][g.below(8) as usize];
            (S::Double(v), P::Double(v))
        }
        8 => {
            let h = half::f16::from_bits(bits as u16);
            (S::Float16(h), P::Float16(h))
        }
        9 => (
            S::Decimal(strata::data_type::Decimal::from_bytes(
                bytes.clone().into(),
                precision,
                scale,
            )),
            P::Decimal(parquet::data_type::Decimal::from_bytes(
                bytes.into(),
                precision,
                scale,
            )),
        ),
        10 => (
            S::Decimal(strata::data_type::Decimal::from_i32(
                bits as i32,
                9,
                scale.min(9),
            )),
            P::Decimal(parquet::data_type::Decimal::from_i32(
                bits as i32,
                9,
                scale.min(9),
            )),
        ),
        11 => (
            S::Decimal(strata::data_type::Decimal::from_i64(
                bits as i64,
                18,
                scale.min(18),
            )),
            P::Decimal(parquet::data_type::Decimal::from_i64(
                bits as i64,
                18,
                scale.min(18),
            )),
        ),
        12 => (S::Bytes(bytes.clone().into()), P::Bytes(bytes.into())),
        _ => (S::ULong(bits), P::ULong(bits)),
    }
}

/// The text (`Display`) and JSON of fields of every primitive kind, with
/// random and boundary values, as arrow-rs's.
#[test]
fn field_text_and_json_match_arrow_rs() {
    let mut g = Rng(0x0F1E_2D3C_4B5A_6978);
    for case in 0..20_000 {
        let (s, p) = field_pair(&mut g);
        assert_eq!(s.to_string(), p.to_string(), "case {case}: {p:?}");
        assert_eq!(
            s.to_json_value().to_string(),
            p.to_json_value().to_string(),
            "case {case}: {p:?}"
        );
    }
}

#[test]
fn page_indexes_match_arrow_rs() {
    use parquet::file::page_index::column_index::ColumnIndexMetaData as T;

    let mut files_compared = 0;
    let (mut column_indexes, mut offset_indexes) = (0, 0);
    for path in corpus::corpus_files("data") {
        let file = bytes::Bytes::from(std::fs::read(&path).unwrap());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(theirs) = parquet::file::metadata::ParquetMetaDataReader::new()
            .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Optional)
            .parse_and_finish(&file)
        else {
            // Encrypted or malformed: arrow-rs reads no page index of it.
            continue;
        };
        let ours = strata::file::metadata::ParquetMetaDataReader::new()
            .with_page_index_policy(strata::file::metadata::PageIndexPolicy::Optional)
            .parse_and_finish(&file)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(ours.num_row_groups(), theirs.num_row_groups(), "{name}");
        for g in 0..theirs.num_row_groups() {
            let (o, t) = (
                ours.page_index_for_row_group(g),
                theirs.page_index_for_row_group(g),
            );
            for c in 0..theirs.row_group(g).num_columns() {
                let what = format!("{name}: row group {g}, column {c}");
                match (o.offset_index(c), t.offset_index(c)) {
                    (None, None) => {}
                    (Some(o), Some(t)) => {
                        offset_indexes += 1;
                        let o: Vec<_> = o
                            .page_locations()
                            .iter()
                            .map(|p| (p.offset, p.compressed_page_size, p.first_row_index))
                            .collect();
                        let t: Vec<_> = t
                            .page_locations()
                            .iter()
                            .map(|p| (p.offset, p.compressed_page_size, p.first_row_index))
                            .collect();
                        assert_eq!(o, t, "{what}");
                    }
                    (o, t) => panic!(
                        "{what}: offset index {:?} against {:?}",
                        o.is_some(),
                        t.is_some()
                    ),
                }
                match (o.column_index(c), t.column_index(c)) {
                    (None, None) => {}
                    (Some(o), Some(t)) => {
                        column_indexes += 1;
                        let pages = t.num_pages() as usize;
                        assert_eq!(o.num_pages(), t.num_pages(), "{what}");
                        assert_eq!(o.is_sorted(), t.is_sorted(), "{what}");
                        assert_eq!(o.null_counts(), t.null_counts(), "{what}");
                        for i in 0..pages {
                            assert_eq!(o.is_null_page(i), t.is_null_page(i), "{what} page {i}");
                            assert_eq!(o.null_count(i), t.null_count(i), "{what} page {i}");
                            assert_eq!(
                                o.definition_level_histogram(i),
                                t.definition_level_histogram(i),
                                "{what} page {i}"
                            );
                            assert_eq!(
                                o.repetition_level_histogram(i),
                                t.repetition_level_histogram(i),
                                "{what} page {i}"
                            );
                            // The bounds, value for value, variant for variant.
                            use strata::file::metadata::ColumnIndexMetaData as O;
                            let same = match (o, t) {
                                (O::BOOLEAN(o), T::BOOLEAN(t)) => {
                                    (o.min_value(i), o.max_value(i))
                                        == (t.min_value(i), t.max_value(i))
                                }
                                (O::INT32(o), T::INT32(t)) => {
                                    (o.min_value(i), o.max_value(i))
                                        == (t.min_value(i), t.max_value(i))
                                }
                                (O::INT64(o), T::INT64(t)) => {
                                    (o.min_value(i), o.max_value(i))
                                        == (t.min_value(i), t.max_value(i))
                                }
                                (O::INT96(o), T::INT96(t)) => {
                                    let words = |v: Option<&strata::data_type::Int96>| {
                                        v.map(|v| v.data().to_vec())
                                    };
                                    let theirs = |v: Option<&parquet::data_type::Int96>| {
                                        v.map(|v| v.data().to_vec())
                                    };
                                    (words(o.min_value(i)), words(o.max_value(i)))
                                        == (theirs(t.min_value(i)), theirs(t.max_value(i)))
                                }
                                (O::FLOAT(o), T::FLOAT(t)) => {
                                    let bits = |v: Option<&f32>| v.map(|v| v.to_bits());
                                    (bits(o.min_value(i)), bits(o.max_value(i)))
                                        == (bits(t.min_value(i)), bits(t.max_value(i)))
                                }
                                (O::DOUBLE(o), T::DOUBLE(t)) => {
                                    let bits = |v: Option<&f64>| v.map(|v| v.to_bits());
                                    (bits(o.min_value(i)), bits(o.max_value(i)))
                                        == (bits(t.min_value(i)), bits(t.max_value(i)))
                                }
                                (O::BYTE_ARRAY(o), T::BYTE_ARRAY(t))
                                | (O::FIXED_LEN_BYTE_ARRAY(o), T::FIXED_LEN_BYTE_ARRAY(t)) => {
                                    (o.min_value(i), o.max_value(i))
                                        == (t.min_value(i), t.max_value(i))
                                }
                                _ => false,
                            };
                            assert!(same, "{what} page {i}: {o:?} against {t:?}");
                        }
                    }
                    (o, t) => panic!(
                        "{what}: column index {:?} against {:?}",
                        o.is_some(),
                        t.is_some()
                    ),
                }
            }
        }
        files_compared += 1;
    }
    eprintln!(
        "{files_compared} files, {column_indexes} column indexes and {offset_indexes} offset indexes equal"
    );
    if !corpus::corpus_files("data").is_empty() {
        assert!(
            column_indexes > 50 && offset_indexes > 50,
            "too few page indexes compared"
        );
    }
}

#[test]
fn statistics_policies_skip_what_arrow_rs_skips() {
    use parquet::file::metadata::ParquetStatisticsPolicy as TheirPolicy;
    use strata::file::metadata::ParquetStatisticsPolicy as OurPolicy;

    let mut compared = 0;
    for path in corpus::corpus_files("data") {
        let file = bytes::Bytes::from(std::fs::read(&path).unwrap());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for keep in [&[][..], &[0][..], &[1, 2][..]] {
            let their_options = parquet::file::metadata::ParquetMetaDataOptions::new()
                .with_column_stats_policy(TheirPolicy::skip_except(keep))
                .with_size_stats_policy(TheirPolicy::skip_except(keep));
            let Ok(theirs) = parquet::file::metadata::ParquetMetaDataReader::new()
                .with_metadata_options(Some(their_options))
                .parse_and_finish(&file)
            else {
                continue;
            };
            let our_options = strata::file::metadata::ParquetMetaDataOptions::new()
                .with_column_stats_policy(OurPolicy::skip_except(keep))
                .with_size_stats_policy(OurPolicy::skip_except(keep));
            let ours = strata::file::metadata::ParquetMetaDataReader::new()
                .with_metadata_options(Some(our_options))
                .parse_and_finish(&file)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            for g in 0..theirs.num_row_groups() {
                for c in 0..theirs.row_group(g).num_columns() {
                    let (o, t) = (ours.row_group(g).column(c), theirs.row_group(g).column(c));
                    let what = format!("{name} keeping {keep:?}: row group {g}, column {c}");
                    assert_eq!(o.statistics().is_some(), t.statistics().is_some(), "{what}");
                    assert_eq!(
                        o.unencoded_byte_array_data_bytes(),
                        t.unencoded_byte_array_data_bytes(),
                        "{what}"
                    );
                    assert_eq!(o.num_values(), t.num_values(), "{what}");
                    assert_eq!(o.data_page_offset(), t.data_page_offset(), "{what}");
                    compared += 1;
                }
            }
        }
    }
    eprintln!("{compared} column chunks compared");
}
