//! Every Arrow output type of a byte-array column from every encoding the
//! writer produces: offsets-and-bytes (`Utf8`, `LargeUtf8`, `Binary`,
//! `LargeBinary`), views (`Utf8View`, `BinaryView`) and dictionaries, from
//! dictionary pages, PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and a
//! dictionary that falls back to PLAIN mid-chunk; flat (required and with
//! nulls) and inside a list; v1 and v2 pages small enough that batch
//! boundaries cut them. Each read is compared, value by value, with the
//! input, and each array passes Arrow's full validation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use bytes::Bytes;
use strata_arrow::ArrowWriter;
use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use strata_file::properties::{Encoding, WriterProperties, WriterVersion};

const ROWS: usize = 1500;

/// Row `i`'s string: lengths 0 to 40 (inline views up to 12 bytes, longer
/// ones in a data buffer), some not ASCII, drawn from about 300 values so
/// a dictionary is worth writing.
fn value(i: usize) -> String {
    let k = (i * 7919) % 301;
    let mut s = format!("{k}-").repeat(k % 11);
    if k.is_multiple_of(7) {
        s.push_str("\u{e9}t\u{e9}");
    }
    s
}

fn flat(nulls: bool) -> ArrayRef {
    Arc::new(StringArray::from_iter(
        (0..ROWS).map(|i| (!nulls || i % 5 != 2).then(|| value(i))),
    ))
}

fn list() -> ArrayRef {
    let mut b = ListBuilder::new(StringBuilder::new());
    for i in 0..ROWS {
        match i % 9 {
            0 => b.append(false),
            1 => b.append(true),
            _ => {
                for j in 0..i % 4 {
                    if (i + j) % 6 == 0 {
                        b.values().append_null();
                    } else {
                        b.values().append_value(value(i * 3 + j));
                    }
                }
                b.append(true);
            }
        }
    }
    Arc::new(b.finish())
}

/// The writer settings: (name, properties).
fn settings() -> Vec<(String, WriterProperties)> {
    let mut out = Vec::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let base = || {
            WriterProperties::builder()
                .set_writer_version(version)
                .set_data_page_size_limit(300)
                .set_write_batch_size(16)
        };
        out.push((format!("{version:?} dictionary"), base().build()));
        out.push((
            format!("{version:?} dictionary falling back"),
            base().set_dictionary_page_size_limit(600).build(),
        ));
        for encoding in [
            Encoding::PLAIN,
            Encoding::DELTA_LENGTH_BYTE_ARRAY,
            Encoding::DELTA_BYTE_ARRAY,
        ] {
            out.push((
                format!("{version:?} {encoding:?}"),
                base()
                    .set_dictionary_enabled(false)
                    .set_encoding(encoding)
                    .build(),
            ));
        }
    }
    out
}

fn write(batch: &RecordBatch, props: WriterProperties) -> Bytes {
    let mut buf = Vec::new();
    let mut w = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
    Bytes::from(buf)
}

fn read(data: &Bytes, schema: &SchemaRef, batch_size: usize) -> Vec<RecordBatch> {
    let options = ArrowReaderOptions::new().with_schema(schema.clone());
    ParquetRecordBatchReaderBuilder::try_new_with_options(data.clone(), options)
        .unwrap()
        .with_batch_size(batch_size)
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// The values of a flat byte-array column of any output type.
fn bytes_of(a: &dyn Array) -> Vec<Option<Vec<u8>>> {
    fn collect<'a>(it: impl Iterator<Item = Option<&'a [u8]>>) -> Vec<Option<Vec<u8>>> {
        it.map(|v| v.map(<[u8]>::to_vec)).collect()
    }
    match a.data_type() {
        DataType::Utf8 => collect(a.as_string::<i32>().iter().map(|v| v.map(str::as_bytes))),
        DataType::LargeUtf8 => collect(a.as_string::<i64>().iter().map(|v| v.map(str::as_bytes))),
        DataType::Utf8View => collect(a.as_string_view().iter().map(|v| v.map(str::as_bytes))),
        DataType::Binary => collect(a.as_binary::<i32>().iter()),
        DataType::LargeBinary => collect(a.as_binary::<i64>().iter()),
        DataType::BinaryView => collect(a.as_binary_view().iter()),
        DataType::Dictionary(_, _) => {
            let d = a.as_dictionary::<Int32Type>();
            let values = arrow_select::take::take(d.values(), d.keys(), None).unwrap();
            bytes_of(values.as_ref())
        }
        other => panic!("{other}"),
    }
}

/// The rows of a flat or list column: a list row as its elements' values.
fn rows_of(a: &dyn Array) -> Vec<Option<Vec<Option<Vec<u8>>>>> {
    match a.data_type() {
        DataType::List(_) => {
            let l = a.as_list::<i32>();
            (0..l.len())
                .map(|i| (!l.is_null(i)).then(|| bytes_of(l.value(i).as_ref())))
                .collect()
        }
        _ => bytes_of(a).into_iter().map(|v| Some(vec![v])).collect(),
    }
}

fn outputs() -> Vec<DataType> {
    vec![
        DataType::Utf8,
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Binary,
        DataType::LargeBinary,
        DataType::BinaryView,
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
    ]
}

#[test]
fn every_output_type_from_every_encoding() {
    let columns = [
        ("required", flat(false)),
        ("with nulls", flat(true)),
        ("list", list()),
    ];
    let mut reads = 0;
    for (shape, column) in &columns {
        let nullable = column.null_count() > 0;
        let field = Field::new("s", column.data_type().clone(), nullable);
        let input =
            RecordBatch::try_new(Arc::new(Schema::new(vec![field])), vec![Arc::clone(column)])
                .unwrap();
        let want = rows_of(column.as_ref());
        for (setting, props) in settings() {
            let data = write(&input, props);
            for output in outputs() {
                let dt = match column.data_type() {
                    DataType::List(_) => {
                        DataType::List(Arc::new(Field::new_list_field(output.clone(), true)))
                    }
                    _ => output.clone(),
                };
                let schema = Arc::new(Schema::new(vec![Field::new("s", dt.clone(), nullable)]));
                for batch_size in [7, 64, 1000] {
                    let batches = read(&data, &schema, batch_size);
                    let mut got = Vec::new();
                    for b in &batches {
                        assert_eq!(b.column(0).data_type(), &dt);
                        b.column(0).to_data().validate_full().unwrap();
                        got.extend(rows_of(b.column(0).as_ref()));
                    }
                    assert!(
                        got == want,
                        "{shape}, {setting}, read as {output} in batches of {batch_size}"
                    );
                    reads += 1;
                }
            }
        }
    }
    // 3 shapes, 10 settings, 7 outputs, 3 batch sizes.
    assert_eq!(reads, 3 * 10 * 7 * 3);
}

/// The settings really produce the encodings they are named for.
#[test]
fn the_settings_write_what_they_say() {
    use strata_format::metadata::Encoding as E;
    let input = RecordBatch::try_from_iter([("s", flat(true))]).unwrap();
    for (setting, props) in settings() {
        let data = write(&input, props);
        let builder = ParquetRecordBatchReaderBuilder::try_new(data).unwrap();
        let chunk = builder.metadata().row_groups()[0].columns[0]
            .meta_data
            .clone()
            .unwrap();
        let has = |e: E| chunk.encodings.contains(e);
        let dictionary = has(E::RleDictionary) || has(E::PlainDictionary);
        if setting.ends_with("falling back") {
            assert!(
                dictionary && has(E::Plain),
                "{setting}: {:?}",
                chunk.encodings
            );
        } else if setting.ends_with("dictionary") {
            assert!(dictionary, "{setting}: {:?}", chunk.encodings);
        } else if setting.ends_with("DELTA_LENGTH_BYTE_ARRAY") {
            assert!(has(E::DeltaLengthByteArray), "{setting}");
        } else if setting.ends_with("DELTA_BYTE_ARRAY") {
            assert!(has(E::DeltaByteArray), "{setting}");
        } else {
            assert!(has(E::Plain) && !dictionary, "{setting}");
        }
        assert!(
            builder.metadata().row_groups()[0].columns[0]
                .meta_data
                .as_ref()
                .is_some_and(|m| m.num_values as usize == ROWS)
        );
    }
}

/// A binary column holding bytes that are not UTF-8, short (inline in a
/// view) or long, written with every setting: read as any string type it
/// is an error, read as any binary type it equals the input.
#[test]
fn bytes_that_are_not_utf8_fail_string_outputs_only() {
    use arrow_array::BinaryArray;
    for bad in [&b"\xff"[..], &b"a long value that ends badly \xc3"[..]] {
        let values: Vec<Option<Vec<u8>>> = (0..ROWS)
            .map(|i| match i % 5 {
                2 => None,
                _ if i == ROWS / 2 => Some(bad.to_vec()),
                _ => Some(value(i).into_bytes()),
            })
            .collect();
        let column: ArrayRef =
            Arc::new(BinaryArray::from_iter(values.iter().map(|v| v.as_deref())));
        let input = RecordBatch::try_from_iter([("s", column.clone())]).unwrap();
        for (setting, props) in settings() {
            let data = write(&input, props);
            for output in outputs() {
                let schema = Arc::new(Schema::new(vec![Field::new("s", output.clone(), true)]));
                let options = ArrowReaderOptions::new().with_schema(schema.clone());
                let read: Result<Vec<RecordBatch>, _> =
                    ParquetRecordBatchReaderBuilder::try_new_with_options(data.clone(), options)
                        .unwrap()
                        .with_batch_size(64)
                        .build()
                        .unwrap()
                        .collect();
                let strings = matches!(
                    output,
                    DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
                ) || matches!(&output, DataType::Dictionary(_, v) if **v == DataType::Utf8);
                match read {
                    Ok(batches) => {
                        assert!(!strings, "{setting}, {output}: read as strings");
                        let got: Vec<_> = batches
                            .iter()
                            .flat_map(|b| bytes_of(b.column(0).as_ref()))
                            .collect();
                        assert!(got == values, "{setting}, {output}");
                    }
                    Err(e) => {
                        assert!(strings, "{setting}, {output}: {e}");
                        assert!(e.to_string().to_lowercase().contains("utf"), "{e}");
                    }
                }
            }
        }
    }
}

/// Dictionary pages of tens of thousands of values, whose indices are
/// decoded a window at a time: batches that start and end anywhere in a
/// page, and selections that skip into the middle of one, read what was
/// written, as every output type.
#[test]
fn long_dictionary_pages_read_in_windows() {
    use strata_arrow::arrow_reader::{RowSelection, RowSelector};
    const LONG: usize = 50_000;
    // With nulls (spread runs) and without (dense runs, which a batch of
    // a window or more decodes straight into its indices).
    for nulls in [true, false] {
        let values: ArrayRef = Arc::new(StringArray::from_iter(
            (0..LONG).map(|i| (!nulls || i % 7 != 3).then(|| value(i % 500))),
        ));
        let input = RecordBatch::try_from_iter([("s", values.clone())]).unwrap();
        let props = WriterProperties::builder()
            .set_data_page_size_limit(1 << 20)
            .set_data_page_row_count_limit(LONG)
            .build();
        let data = write(&input, props);
        let want = bytes_of(values.as_ref());
        for output in outputs() {
            let schema = Arc::new(Schema::new(vec![Field::new("s", output.clone(), nulls)]));
            for batch_size in [7, 1000, 4097, 65_536] {
                let got: Vec<_> = read(&data, &schema, batch_size)
                    .iter()
                    .flat_map(|b| bytes_of(b.column(0).as_ref()))
                    .collect();
                assert!(got == want, "{output} in batches of {batch_size}");
            }
            // Skip into the middle of the page, read across window edges.
            let selectors = vec![
                RowSelector::skip(4_000),
                RowSelector::select(300),
                RowSelector::skip(9_000),
                RowSelector::select(20_000),
            ];
            let options = ArrowReaderOptions::new().with_schema(schema.clone());
            let got: Vec<_> =
                ParquetRecordBatchReaderBuilder::try_new_with_options(data.clone(), options)
                    .unwrap()
                    .with_batch_size(999)
                    .with_row_selection(RowSelection::from(selectors))
                    .build()
                    .unwrap()
                    .flat_map(|b| bytes_of(b.unwrap().column(0).as_ref()))
                    .collect();
            let mut expect = want[4_000..4_300].to_vec();
            expect.extend_from_slice(&want[13_300..33_300]);
            assert!(got == expect, "{output} with a selection, nulls {nulls}");
        }
    }
}
