//! The parquet-testing corpus, compared with the values its documentation
//! gives (`*_expect.csv`, the `.md` notes, and well-known contents).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;

use bytes::Bytes;
use common::read_flat;
use strata_encoding::chunk::ChunkValue;
use strata_encoding::{
    ByteArray, ByteArrayBuffer, FixedLenByteArray, FixedLenByteArrayBuffer, Int96,
};
use strata_file::serialized_reader::SerializedFileReader;
use strata_format::metadata::Type;
use strata_record::{ColumnRecordReader, DictionaryRead, RecordBatchBuffers};

fn corpus(file: &str) -> Option<SerializedFileReader<Bytes>> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/parquet-testing/data"
    ));
    let path = dir.join(file);
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!(
            "skipped: parquet-testing corpus not found at {}",
            path.display()
        );
        return None;
    };
    Some(SerializedFileReader::new(Bytes::from(bytes)).unwrap())
}

fn column_index(file: &SerializedFileReader<Bytes>, name: &str) -> usize {
    file.schema()
        .columns()
        .iter()
        // delta_encoding_required_column's names end with a colon.
        .position(|c| {
            c.path
                .parts()
                .last()
                .is_some_and(|p| p.trim().trim_end_matches(':') == name)
        })
        .unwrap_or_else(|| {
            let names: Vec<_> = file
                .schema()
                .columns()
                .iter()
                .map(|c| c.path.parts().join("."))
                .collect();
            panic!("no column {name} in {names:?}")
        })
}

fn reader<T: ChunkValue>(
    file: &SerializedFileReader<Bytes>,
    row_group: usize,
    column: usize,
) -> ColumnRecordReader<T> {
    let rg = file.row_group(row_group).unwrap();
    let descr = rg.column_descriptor(column).unwrap().clone();
    ColumnRecordReader::new(rg.page_reader(column).unwrap(), descr).unwrap()
}

fn read_strings(reader: &mut ColumnRecordReader<ByteArray>, batch: usize) -> Vec<Option<String>> {
    let mut out: RecordBatchBuffers<ByteArrayBuffer> = RecordBatchBuffers::new();
    let mut rows = Vec::new();
    while reader.read_records(batch, &mut out).unwrap() > 0 {
        for i in 0..out.num_levels {
            rows.push(
                out.is_valid(i)
                    .then(|| String::from_utf8(out.values.value(i).unwrap().to_vec()).unwrap()),
            );
        }
    }
    rows
}

/// A small CSV reader for the `_expect.csv` files: quoted or bare fields,
/// an empty field is null.
/// A CSV row: one field per column, `None` for an empty field.
type Row = Vec<Option<String>>;

fn read_csv(file: &str) -> Option<(Vec<String>, Vec<Row>)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/parquet-testing/data/"
    );
    let text = std::fs::read_to_string(format!("{path}{file}")).ok()?;
    let mut lines = text.lines().filter(|l| !l.is_empty()).map(|line| {
        let mut fields = Vec::new();
        let mut field = String::new();
        let (mut quoted, mut was_quoted) = (false, false);
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' if quoted && chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                '"' => {
                    quoted = !quoted;
                    was_quoted = true;
                }
                ',' if !quoted => {
                    let f = std::mem::take(&mut field);
                    fields.push((!f.is_empty() || was_quoted).then_some(f));
                    was_quoted = false;
                }
                c => field.push(c),
            }
        }
        fields.push((!field.is_empty() || was_quoted).then_some(field));
        fields
    });
    let header = lines
        .next()?
        .into_iter()
        .map(|h| h.unwrap_or_default().trim().to_string())
        .collect();
    Some((header, lines.collect()))
}

#[test]
fn alltypes_plain() {
    let Some(file) = corpus("alltypes_plain.parquet") else {
        return;
    };
    for batch in [1, 3, 1024] {
        let mut ids = reader::<i32>(&file, 0, column_index(&file, "id"));
        assert_eq!(
            read_flat(&mut ids, batch),
            [4, 5, 6, 7, 2, 3, 0, 1].map(Some)
        );
        // A dictionary page, decoded once.
        assert_eq!(ids.stats().dictionary_pages, 1);
        assert_eq!(ids.stats().spaced_decodes, 0, "no nulls: dense only");

        let mut bools = reader::<bool>(&file, 0, column_index(&file, "bool_col"));
        assert_eq!(
            read_flat(&mut bools, batch),
            [true, false, true, false, true, false, true, false].map(Some)
        );
        let mut ints = reader::<i32>(&file, 0, column_index(&file, "int_col"));
        assert_eq!(
            read_flat(&mut ints, batch),
            [0, 1, 0, 1, 0, 1, 0, 1].map(Some)
        );
        let mut bigints = reader::<i64>(&file, 0, column_index(&file, "bigint_col"));
        assert_eq!(
            read_flat(&mut bigints, batch),
            [0, 10, 0, 10, 0, 10, 0, 10].map(Some)
        );
        let mut floats = reader::<f32>(&file, 0, column_index(&file, "float_col"));
        assert_eq!(
            read_flat(&mut floats, batch),
            [0.0, 1.1, 0.0, 1.1, 0.0, 1.1, 0.0, 1.1].map(Some)
        );
        let mut doubles = reader::<f64>(&file, 0, column_index(&file, "double_col"));
        assert_eq!(
            read_flat(&mut doubles, batch),
            [0.0, 10.1, 0.0, 10.1, 0.0, 10.1, 0.0, 10.1].map(Some)
        );
        let mut dates = reader::<ByteArray>(&file, 0, column_index(&file, "date_string_col"));
        let expected = [
            "03/01/09", "03/01/09", "04/01/09", "04/01/09", "02/01/09", "02/01/09", "01/01/09",
            "01/01/09",
        ];
        assert_eq!(
            read_strings(&mut dates, batch),
            expected.map(|s| Some(s.to_string()))
        );
        let mut strings = reader::<ByteArray>(&file, 0, column_index(&file, "string_col"));
        assert_eq!(
            read_strings(&mut strings, batch),
            ["0", "1", "0", "1", "0", "1", "0", "1"].map(|s| Some(s.to_string()))
        );
        let mut ts = reader::<Int96>(&file, 0, column_index(&file, "timestamp_col"));
        assert_eq!(read_flat(&mut ts, batch).iter().flatten().count(), 8);
    }
    // Skipping, then reading.
    let mut ids = reader::<i32>(&file, 0, column_index(&file, "id"));
    assert_eq!(ids.skip_records(5).unwrap(), 5);
    assert_eq!(read_flat(&mut ids, 2), [3, 0, 1].map(Some));
}

#[test]
fn nulls_snappy() {
    let Some(file) = corpus("nulls.snappy.parquet") else {
        return;
    };
    // `b_struct.b_c_int`: 8 rows, every one null (the struct present).
    let mut r = reader::<i32>(&file, 0, column_index(&file, "b_c_int"));
    let mut out = RecordBatchBuffers::new();
    assert_eq!(r.read_records(100, &mut out).unwrap(), 8);
    assert_eq!(out.null_count, 8);
    assert_eq!(out.def_levels, [1; 8]);
    assert_eq!(out.values, [0; 8]);
    assert_eq!(r.read_records(100, &mut out).unwrap(), 0);
}

#[test]
fn int32_with_null_pages() {
    let Some(file) = corpus("int32_with_null_pages.parquet") else {
        return;
    };
    // Per page of 100 rows, from the file's notes: null count, min, max.
    let pages: [(usize, Option<(i32, i32)>); 10] = [
        (8, Some((-2135807632, 2144701119))),
        (55, Some((-2104090659, 1745329571))),
        (100, None),
        (52, Some((-2116849709, 2077105757))),
        (16, Some((-2048691758, 2143189382))),
        (12, Some((-2017923401, 2087827129))),
        (5, Some((-2136906554, 2125689411))),
        (7, Some((-2113313110, 2145722375))),
        (8, Some((-2046900272, 2087168549))),
        (12, Some((-1941944785, 2078586537))),
    ];
    let col = column_index(&file, "int32_field");
    let mut r = reader::<i32>(&file, 0, col);
    let mut out = RecordBatchBuffers::new();
    for (nulls, bounds) in pages {
        assert_eq!(r.read_records(100, &mut out).unwrap(), 100);
        assert_eq!(out.null_count, nulls);
        let present: Vec<i32> = (0..100)
            .filter(|&i| out.is_valid(i))
            .map(|i| out.values[i])
            .collect();
        assert_eq!(present.len(), 100 - nulls);
        let got = present
            .iter()
            .min()
            .zip(present.iter().max())
            .map(|(a, b)| (*a, *b));
        assert_eq!(got, bounds);
    }
    assert_eq!(r.read_records(100, &mut out).unwrap(), 0);

    let all = read_flat(&mut reader::<i32>(&file, 0, col), 7);
    assert_eq!(all.len(), 1000);
    assert_eq!(all.iter().filter(|v| v.is_none()).count(), 275);

    // Skip 250 rows (two whole pages, half of the all-null page), read the rest.
    let mut r = reader::<i32>(&file, 0, col);
    assert_eq!(r.skip_records(250).unwrap(), 250);
    assert!(r.stats().pages_skipped >= 2, "{:?}", r.stats());
    assert_eq!(read_flat(&mut r, 64), all[250..]);
}

fn check_against_csv(parquet: &str, csv: &str) {
    let Some(file) = corpus(parquet) else {
        return;
    };
    let Some((header, rows)) = read_csv(csv) else {
        eprintln!("skipped: {csv} not found");
        return;
    };
    let mut checked = 0;
    for (k, name) in header.iter().enumerate() {
        let col = column_index(&file, name);
        let expected: Vec<Option<String>> = rows.iter().map(|r| r[k].clone()).collect();
        for batch in [1, 7, 1024] {
            let descr = file.schema().column(col);
            let mut got: Vec<Option<String>> = Vec::new();
            for rg in 0..file.num_row_groups() {
                got.extend(match descr.physical_type {
                    Type::Int64 => read_flat(&mut reader::<i64>(&file, rg, col), batch)
                        .into_iter()
                        .map(|v| v.map(|v| v.to_string()))
                        .collect::<Vec<_>>(),
                    Type::Int32 => read_flat(&mut reader::<i32>(&file, rg, col), batch)
                        .into_iter()
                        .map(|v| v.map(|v| v.to_string()))
                        .collect(),
                    Type::ByteArray => {
                        read_strings(&mut reader::<ByteArray>(&file, rg, col), batch)
                    }
                    other => panic!("unexpected type {other:?}"),
                });
            }
            assert_eq!(got, expected, "{parquet} column {name} batch {batch}");
        }
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn delta_encoding_optional_column() {
    check_against_csv(
        "delta_encoding_optional_column.parquet",
        "delta_encoding_optional_column_expect.csv",
    );
}

#[test]
fn delta_encoding_required_column() {
    check_against_csv(
        "delta_encoding_required_column.parquet",
        "delta_encoding_required_column_expect.csv",
    );
}

#[test]
fn delta_binary_packed() {
    check_against_csv(
        "delta_binary_packed.parquet",
        "delta_binary_packed_expect.csv",
    );
}

#[test]
fn delta_byte_array() {
    check_against_csv("delta_byte_array.parquet", "delta_byte_array_expect.csv");
}

// ---- FIXED_LEN_BYTE_ARRAY ----

/// Every row of a flat FIXED_LEN_BYTE_ARRAY column (all row groups),
/// `None` for nulls, read in batches of `batch`; checks the width and the
/// zero bytes of null slots on the way.
fn read_flba(file: &SerializedFileReader<Bytes>, col: usize, batch: usize) -> Vec<Option<Vec<u8>>> {
    let width = file.schema().column(col).type_length.unwrap() as usize;
    let mut rows = Vec::new();
    for rg in 0..file.num_row_groups() {
        let mut r = reader::<FixedLenByteArray>(file, rg, col);
        let mut out: RecordBatchBuffers<FixedLenByteArrayBuffer> = RecordBatchBuffers::new();
        while r.read_records(batch, &mut out).unwrap() > 0 {
            assert_eq!(out.values.width(), width);
            assert_eq!(out.values.len(), out.num_levels);
            for i in 0..out.num_levels {
                let slot = out.values.value(i).unwrap();
                if out.is_valid(i) {
                    rows.push(Some(slot.to_vec()));
                } else {
                    assert!(slot.iter().all(|&b| b == 0), "null slots are zeros");
                    rows.push(None);
                }
            }
        }
    }
    rows
}

/// The same rows through dictionary mode (indices into the shared `Arc`),
/// finishing with `read_records` after a fallback; also the number of rows
/// read as indices.
fn read_flba_dictionary(
    file: &SerializedFileReader<Bytes>,
    col: usize,
    batch: usize,
) -> (Vec<Option<Vec<u8>>>, usize) {
    let mut rows = Vec::new();
    let mut as_indices = 0;
    for rg in 0..file.num_row_groups() {
        let mut r = reader::<FixedLenByteArray>(file, rg, col);
        let mut out = RecordBatchBuffers::new();
        let mut first: Option<std::sync::Arc<FixedLenByteArrayBuffer>> = None;
        loop {
            let (records, dictionary, fallback) = match r.read_records_dictionary(batch, &mut out) {
                Ok(DictionaryRead::Indices {
                    records,
                    dictionary,
                }) => (records, dictionary, false),
                Ok(DictionaryRead::Fallback {
                    records,
                    dictionary,
                }) => (records, dictionary, true),
                Err(e) => panic!("{e}"),
            };
            if let Some(d) = &dictionary {
                match &first {
                    None => first = Some(d.clone()),
                    Some(f) => assert!(std::sync::Arc::ptr_eq(f, d)),
                }
            }
            as_indices += records;
            for i in 0..records {
                let d = dictionary.as_ref().unwrap();
                rows.push(
                    out.is_valid(i)
                        .then(|| d.value(out.values[i] as usize).unwrap().to_vec()),
                );
            }
            if fallback || records == 0 {
                break;
            }
        }
        let mut values: RecordBatchBuffers<FixedLenByteArrayBuffer> = RecordBatchBuffers::new();
        while r.read_records(batch, &mut values).unwrap() > 0 {
            for i in 0..values.num_levels {
                rows.push(
                    values
                        .is_valid(i)
                        .then(|| values.values.value(i).unwrap().to_vec()),
                );
            }
        }
    }
    (rows, as_indices)
}

/// A big-endian two's-complement integer of any width up to 16 bytes.
fn be_int(bytes: &[u8]) -> i128 {
    let mut v: i128 = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        -1
    } else {
        0
    };
    for &b in bytes {
        v = (v << 8) | i128::from(b);
    }
    v
}

#[test]
fn fixed_length_byte_array() {
    let Some(file) = corpus("fixed_length_byte_array.parquet") else {
        return;
    };
    // From fixed_length_byte_array.md: `optional fixed_len_byte_array(4)
    // flba_field`, 1000 values in descending order, 105 nulls, and per
    // page of 100 rows its null count, min and max (big-endian).
    let col = column_index(&file, "flba_field");
    assert_eq!(file.schema().column(col).type_length, Some(4));
    let pages: [(usize, u32, u32); 10] = [
        (9, 0x385, 0x3E8),
        (9, 0x321, 0x384),
        (19, 0x2BD, 0x320),
        (10, 0x259, 0x2BC),
        (13, 0x1F5, 0x258),
        (11, 0x191, 0x1F4),
        (11, 0x12D, 0x190),
        (8, 0xC9, 0x12C),
        (9, 0x65, 0xC8),
        (6, 0x01, 0x64),
    ];
    let mut r = reader::<FixedLenByteArray>(&file, 0, col);
    let mut out = RecordBatchBuffers::new();
    for (k, (nulls, min, max)) in pages.into_iter().enumerate() {
        assert_eq!(r.read_records(100, &mut out).unwrap(), 100);
        assert_eq!(out.null_count, nulls, "page {k}");
        let present: Vec<u32> = (0..100)
            .filter(|&i| out.is_valid(i))
            .map(|i| u32::from_be_bytes(out.values.value(i).unwrap().try_into().unwrap()))
            .collect();
        assert_eq!(present.len(), 100 - nulls);
        assert_eq!(present.iter().min(), Some(&min), "page {k}");
        assert_eq!(present.iter().max(), Some(&max), "page {k}");
    }
    assert_eq!(r.read_records(100, &mut out).unwrap(), 0);

    for batch in [1, 7, 1024] {
        let rows = read_flba(&file, col, batch);
        assert_eq!(rows.len(), 1000);
        assert_eq!(rows.iter().filter(|v| v.is_none()).count(), 105);
        let present: Vec<u32> = rows
            .iter()
            .flatten()
            .map(|v| u32::from_be_bytes(v[..].try_into().unwrap()))
            .collect();
        assert!(present.windows(2).all(|w| w[0] > w[1]), "descending");
    }

    // Skip 250 rows (two whole pages and half a page), read the rest.
    let all = read_flba(&file, col, 1024);
    let mut r = reader::<FixedLenByteArray>(&file, 0, col);
    assert_eq!(r.skip_records(250).unwrap(), 250);
    assert!(r.stats().pages_skipped >= 2, "{:?}", r.stats());
    let mut rest = Vec::new();
    while r.read_records(64, &mut out).unwrap() > 0 {
        for i in 0..out.num_levels {
            rest.push(
                out.is_valid(i)
                    .then(|| out.values.value(i).unwrap().to_vec()),
            );
        }
    }
    assert_eq!(rest, all[250..]);
}

#[test]
fn fixed_length_decimals() {
    // Both files hold the decimals 1.00, 2.00, ..., 24.00 (scale 2) with
    // no nulls, as FIXED_LEN_BYTE_ARRAY big-endian unscaled integers; the
    // legacy file has a narrower width (smaller precision).
    for name in [
        "fixed_length_decimal.parquet",
        "fixed_length_decimal_legacy.parquet",
    ] {
        let Some(file) = corpus(name) else {
            return;
        };
        let descr = file.schema().column(0);
        assert_eq!(descr.physical_type, Type::FixedLenByteArray, "{name}");
        assert_eq!(descr.scale, Some(2), "{name}");
        let width = descr.type_length.unwrap() as usize;
        let expected: Vec<i128> = (1..=24).map(|v| v * 100).collect();
        for batch in [1, 7, 1024] {
            let rows = read_flba(&file, 0, batch);
            let got: Vec<i128> = rows
                .iter()
                .map(|v| {
                    let v = v.as_ref().expect("no nulls");
                    assert_eq!(v.len(), width);
                    be_int(v)
                })
                .collect();
            assert_eq!(got, expected, "{name} batch {batch}");
        }
        let mut r = reader::<FixedLenByteArray>(&file, 0, 0);
        assert_eq!(r.skip_records(20).unwrap(), 20);
        let mut out = RecordBatchBuffers::new();
        assert_eq!(r.read_records(10, &mut out).unwrap(), 4);
        assert_eq!(be_int(out.values.value(0).unwrap()), 2100, "{name}");
    }
}

/// Float16 as stored (little-endian IEEE 754 half).
fn f16_bits(v: &[u8]) -> u16 {
    u16::from_le_bytes(v.try_into().unwrap())
}

fn is_f16_nan(bits: u16) -> bool {
    bits & 0x7C00 == 0x7C00 && bits & 0x03FF != 0
}

#[test]
fn float16_dictionary_columns() {
    // From the corpus README (the pyarrow code that wrote them): column
    // `x`, Float16 as FIXED_LEN_BYTE_ARRAY(2), dictionary encoded.
    // None, 0.0, NaN and None, 1.0, -2.0, NaN, 0.0, -1.0, -0.0, 2.0.
    let cases: [(&str, &[Option<u16>]); 2] = [
        (
            "float16_zeros_and_nans.parquet",
            &[None, Some(0x0000), Some(0x7E00)],
        ),
        (
            "float16_nonzeros_and_nans.parquet",
            &[
                None,
                Some(0x3C00),
                Some(0xC000),
                Some(0x7E00),
                Some(0x0000),
                Some(0xBC00),
                Some(0x8000),
                Some(0x4000),
            ],
        ),
    ];
    for (name, expected) in cases {
        let Some(file) = corpus(name) else {
            return;
        };
        let col = column_index(&file, "x");
        assert_eq!(file.schema().column(col).type_length, Some(2));
        let check = |rows: Vec<Option<Vec<u8>>>, how: &str| {
            assert_eq!(rows.len(), expected.len(), "{name} {how}");
            for (i, (got, want)) in rows.iter().zip(expected).enumerate() {
                match (got, want) {
                    (None, None) => {}
                    (Some(v), Some(w)) if is_f16_nan(*w) => {
                        assert!(is_f16_nan(f16_bits(v)), "{name} {how} row {i}: NaN")
                    }
                    (Some(v), Some(w)) => assert_eq!(f16_bits(v), *w, "{name} {how} row {i}"),
                    _ => panic!("{name} {how} row {i}: {got:?} vs {want:?}"),
                }
            }
        };
        for batch in [1, 7, 1024] {
            check(read_flba(&file, col, batch), "values");
            let (rows, as_indices) = read_flba_dictionary(&file, col, batch);
            assert_eq!(as_indices, expected.len(), "{name}: every row as an index");
            check(rows, "dictionary");
        }
        let r = {
            let mut r = reader::<FixedLenByteArray>(&file, 0, col);
            let mut out = RecordBatchBuffers::new();
            r.read_records(100, &mut out).unwrap();
            r
        };
        assert_eq!(r.stats().dictionary_pages, 1, "{name}");
    }
}

#[test]
fn byte_stream_split_extended_flba() {
    let Some(file) = corpus("byte_stream_split_extended.gzip.parquet") else {
        return;
    };
    // From the corpus README: 200 rows; each BYTE_STREAM_SPLIT column holds
    // the same values as its PLAIN twin. The FIXED_LEN_BYTE_ARRAY pairs are
    // float16 (width 2), flba5 (width 5) and decimal (width 4).
    assert_eq!(file.footer().num_rows, 200);
    for (stem, width) in [("float16", 2), ("flba5", 5), ("decimal", 4)] {
        let plain = column_index(&file, &format!("{stem}_plain"));
        let split = column_index(&file, &format!("{stem}_byte_stream_split"));
        for col in [plain, split] {
            let d = file.schema().column(col);
            assert_eq!(d.physical_type, Type::FixedLenByteArray);
            assert_eq!(d.type_length, Some(width));
        }
        let rg = file.row_group(0).unwrap();
        let encodings = &rg.metadata().columns[split]
            .meta_data
            .as_ref()
            .unwrap()
            .encodings;
        assert!(
            encodings.contains(strata_format::metadata::Encoding::ByteStreamSplit),
            "{stem}: {encodings:?}"
        );
        let expected = read_flba(&file, plain, 1024);
        assert_eq!(expected.len(), 200);
        for batch in [1, 7, 1024] {
            assert_eq!(
                read_flba(&file, split, batch),
                expected,
                "{stem} batch {batch}"
            );
        }
        // Skipping inside BYTE_STREAM_SPLIT pages.
        let mut r = reader::<FixedLenByteArray>(&file, 0, split);
        assert_eq!(r.skip_records(123).unwrap(), 123);
        let mut out = RecordBatchBuffers::new();
        let mut rest = Vec::new();
        while r.read_records(50, &mut out).unwrap() > 0 {
            for i in 0..out.num_levels {
                rest.push(
                    out.is_valid(i)
                        .then(|| out.values.value(i).unwrap().to_vec()),
                );
            }
        }
        assert_eq!(rest, expected[123..], "{stem}");
    }
}
