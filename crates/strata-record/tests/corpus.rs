//! The parquet-testing corpus, compared with the values its documentation
//! gives (`*_expect.csv`, the `.md` notes, and well-known contents).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use bytes::Bytes;
use strata_encoding::{ByteArray, ByteArrayBuffer, Int96};
use strata_file::reader::FileReader;
use strata_format::metadata::Type;
use strata_record::{ColumnRecordReader, RecordBatchBuffers, RecordValue};

fn corpus(file: &str) -> Option<FileReader<Bytes>> {
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
    Some(FileReader::try_new(Bytes::from(bytes)).unwrap())
}

fn column_index(file: &FileReader<Bytes>, name: &str) -> usize {
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

fn reader<T: RecordValue>(
    file: &FileReader<Bytes>,
    row_group: usize,
    column: usize,
) -> ColumnRecordReader<T> {
    let rg = file.row_group(row_group).unwrap();
    let descr = rg.column_descriptor(column).unwrap().clone();
    ColumnRecordReader::new(rg.page_reader(column).unwrap(), descr).unwrap()
}

/// Every row of a flat column, `None` for nulls, in batches of `batch`.
fn read_fixed<T: RecordValue<Values = Vec<T>> + Copy + std::fmt::Debug>(
    reader: &mut ColumnRecordReader<T>,
    batch: usize,
) -> Vec<Option<T>> {
    let mut out = RecordBatchBuffers::new();
    let mut rows = Vec::new();
    while reader.read_records(batch, &mut out).unwrap() > 0 {
        for i in 0..out.num_levels {
            rows.push(out.is_valid(i).then(|| out.values[i]));
        }
    }
    rows
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
            read_fixed(&mut ids, batch),
            [4, 5, 6, 7, 2, 3, 0, 1].map(Some)
        );
        // A dictionary page, decoded once.
        assert_eq!(ids.stats().dictionary_pages, 1);
        assert_eq!(ids.stats().spaced_decodes, 0, "no nulls: dense only");

        let mut bools = reader::<bool>(&file, 0, column_index(&file, "bool_col"));
        assert_eq!(
            read_fixed(&mut bools, batch),
            [true, false, true, false, true, false, true, false].map(Some)
        );
        let mut ints = reader::<i32>(&file, 0, column_index(&file, "int_col"));
        assert_eq!(
            read_fixed(&mut ints, batch),
            [0, 1, 0, 1, 0, 1, 0, 1].map(Some)
        );
        let mut bigints = reader::<i64>(&file, 0, column_index(&file, "bigint_col"));
        assert_eq!(
            read_fixed(&mut bigints, batch),
            [0, 10, 0, 10, 0, 10, 0, 10].map(Some)
        );
        let mut floats = reader::<f32>(&file, 0, column_index(&file, "float_col"));
        assert_eq!(
            read_fixed(&mut floats, batch),
            [0.0, 1.1, 0.0, 1.1, 0.0, 1.1, 0.0, 1.1].map(Some)
        );
        let mut doubles = reader::<f64>(&file, 0, column_index(&file, "double_col"));
        assert_eq!(
            read_fixed(&mut doubles, batch),
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
        assert_eq!(read_fixed(&mut ts, batch).iter().flatten().count(), 8);
    }
    // Skipping, then reading.
    let mut ids = reader::<i32>(&file, 0, column_index(&file, "id"));
    assert_eq!(ids.skip_records(5).unwrap(), 5);
    assert_eq!(read_fixed(&mut ids, 2), [3, 0, 1].map(Some));
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

    let all = read_fixed(&mut reader::<i32>(&file, 0, col), 7);
    assert_eq!(all.len(), 1000);
    assert_eq!(all.iter().filter(|v| v.is_none()).count(), 275);

    // Skip 250 rows (two whole pages, half of the all-null page), read the rest.
    let mut r = reader::<i32>(&file, 0, col);
    assert_eq!(r.skip_records(250).unwrap(), 250);
    assert!(r.stats().pages_skipped >= 2, "{:?}", r.stats());
    assert_eq!(read_fixed(&mut r, 64), all[250..]);
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
            let descr = file.schema().column(col).unwrap();
            let mut got: Vec<Option<String>> = Vec::new();
            for rg in 0..file.num_row_groups() {
                got.extend(match descr.physical_type {
                    Type::Int64 => read_fixed(&mut reader::<i64>(&file, rg, col), batch)
                        .into_iter()
                        .map(|v| v.map(|v| v.to_string()))
                        .collect::<Vec<_>>(),
                    Type::Int32 => read_fixed(&mut reader::<i32>(&file, rg, col), batch)
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
