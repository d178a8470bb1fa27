// Programs using the low-level reader and the row API, as arrow-rs users
// write them: `SerializedFileReader` over a `File` or `Bytes`, the
// `FileReader` / `RowGroupReader` traits, rows printed whole, typed
// getters, column iterators, lists, maps and structs. Some read files of
// the parquet-testing corpus (skipped, with the same text on both sides,
// when it is absent); others write their input with `ArrowWriter` first.
// Included into a module that has `pq` in scope.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{
    Int32Builder, Int64Builder, ListBuilder, MapBuilder, StringBuilder, StructBuilder,
};
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, FixedSizeBinaryArray,
    Int8Array, Int16Array, LargeStringArray, RecordBatch, Time32MillisecondArray,
    Time64MicrosecondArray, TimestampMicrosecondArray, TimestampMillisecondArray,
    TimestampNanosecondArray, UInt8Array, UInt16Array, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field as ArrowField, Fields};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::file::properties::WriterProperties;
use pq::file::reader::{FileReader, SerializedFileReader};
use pq::record::{Field, ListAccessor, MapAccessor, Row, RowAccessor, RowFormatter};

use crate::data::people;
use super::common::{all_rows, corpus, no_corpus, to_parquet};

/// `SerializedFileReader` over `Bytes` written by `ArrowWriter`: every row,
/// across row groups.
pub fn serialized_file_reader_rows(_dir: &Path) -> String {
    let file = to_parquet(&people(6), 4);
    let reader = SerializedFileReader::new(file).unwrap();
    let rows: Vec<String> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| row.unwrap().to_string())
        .collect();
    format!("rows: {}\n{}\n", rows.len(), rows.join("\n"))
}

/// The footer's facts through the trait's `metadata()`, then every row of
/// a corpus file opened from a `std::fs::File`.
pub fn corpus_metadata_and_rows(_dir: &Path) -> String {
    let Some(path) = corpus("alltypes_plain.parquet") else {
        return no_corpus();
    };
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let metadata = reader.metadata();
    let file_metadata = metadata.file_metadata();
    let mut out = format!(
        "num rows: {}\nrow groups: {}\ncreated by: {:?}\nleaf columns: {}\nversion: {}\n",
        file_metadata.num_rows(),
        reader.num_row_groups(),
        file_metadata.created_by(),
        file_metadata.schema_descr().num_columns(),
        file_metadata.version(),
    );
    for (i, group) in metadata.row_groups().iter().enumerate() {
        out.push_str(&format!(
            "group {i}: {} rows, {} columns, {} bytes\n",
            group.num_rows(),
            group.num_columns(),
            group.total_byte_size()
        ));
    }
    out.push_str(&all_rows(&reader));
    out
}

/// Typed getters on every row of `alltypes_plain.parquet`: ints, longs,
/// floats, booleans, bytes, INT96 timestamps; and the errors of a getter of
/// the wrong type and of an index past the end.
pub fn typed_getters(_dir: &Path) -> String {
    let Some(path) = corpus("alltypes_plain.parquet") else {
        return no_corpus();
    };
    let reader = SerializedFileReader::try_from(path.as_path()).unwrap();
    let mut out = String::new();
    let mut n = 0;
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        n += 1;
        out.push_str(&format!(
            "id {} bool {} tiny {} int {} big {} float {} double {} date {:?} string {:?} ts {}\n",
            row.get_int(0).unwrap(),
            row.get_bool(1).unwrap(),
            row.get_int(2).unwrap(),
            row.get_int(4).unwrap(),
            row.get_long(5).unwrap(),
            row.get_float(6).unwrap(),
            row.get_double(7).unwrap(),
            String::from_utf8_lossy(row.get_bytes(8).unwrap().data()),
            row.get_bytes(9).unwrap().data(),
            row.get_timestamp_millis(10).unwrap(),
        ));
        out.push_str(&format!(
            "  null? {} wrong type: {} past the end: {}\n",
            row.is_null(3).unwrap(),
            row.get_string(0).unwrap_err(),
            row.get_int(11).unwrap_err(),
        ));
    }
    format!("rows: {n}\n{out}")
}

/// Column names and values through `get_column_iter`, `fmt(i)` of
/// `RowFormatter`, `len` and `into_columns`, on nested nullable data.
pub fn column_iter_and_formatter(_dir: &Path) -> String {
    let Some(path) = corpus("nullable.impala.parquet") else {
        return no_corpus();
    };
    let reader = SerializedFileReader::try_from(path.to_str().unwrap()).unwrap();
    let mut out = String::new();
    let mut n = 0;
    for row in reader.get_row_iter(None).unwrap() {
        let row: Row = row.unwrap();
        n += 1;
        for (i, (name, field)) in row.get_column_iter().enumerate() {
            out.push_str(&format!(
                "{i} {name} primitive={} {field}\n",
                field.is_primitive()
            ));
        }
        out.push_str(&format!(
            "len {} fmt(1) {} fmt(99) {}\n",
            row.len(),
            row.fmt(1),
            row.fmt(99)
        ));
        let columns = row.into_columns();
        out.push_str(&format!("columns {}\n", columns.len()));
    }
    format!("rows: {n}\n{out}")
}

/// Row groups one at a time: `get_row_group(i)`, its metadata and its own
/// row iterator.
pub fn row_group_row_iters(_dir: &Path) -> String {
    let file = to_parquet(&people(11), 4);
    let reader = SerializedFileReader::new(file).unwrap();
    let mut out = format!("row groups: {}\n", reader.num_row_groups());
    let mut total = 0;
    for i in 0..reader.num_row_groups() {
        let group = reader.get_row_group(i).unwrap();
        out.push_str(&format!(
            "group {i}: {} rows, {} columns\n",
            group.metadata().num_rows(),
            group.num_columns()
        ));
        for row in group.get_row_iter(None).unwrap() {
            total += 1;
            out.push_str(&format!("  {}\n", row.unwrap()));
        }
    }
    format!("rows: {total}\n{out}")
}

/// Nested lists and maps of the corpus, printed and walked with the list
/// and map getters.
pub fn nested_lists_and_maps(_dir: &Path) -> String {
    let (Some(lists), Some(maps)) = (
        corpus("nested_lists.snappy.parquet"),
        corpus("nested_maps.snappy.parquet"),
    ) else {
        return no_corpus();
    };
    let mut out = String::new();
    let mut n = 0;
    let reader = SerializedFileReader::new(File::open(lists).unwrap()).unwrap();
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        n += 1;
        out.push_str(&format!("{row}\n"));
        let Ok(outer) = row.get_list(0) else {
            continue;
        };
        for i in 0..outer.len() {
            let Ok(middle) = outer.get_list(i) else {
                continue;
            };
            let sizes: Vec<usize> = (0..middle.len())
                .map(|j| match &middle.elements()[j] {
                    Field::ListInternal(inner) => inner.len(),
                    _ => 0,
                })
                .collect();
            out.push_str(&format!("  list {i}: {} lists, sizes {sizes:?}\n", middle.len()));
        }
        out.push_str(&format!("  b = {:?}\n", row.get_int(1).ok()));
    }
    let reader = SerializedFileReader::new(File::open(maps).unwrap()).unwrap();
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        n += 1;
        out.push_str(&format!("{row}\n"));
        let Ok(map) = row.get_map(0) else {
            continue;
        };
        let keys = map.get_keys();
        let values = map.get_values();
        for i in 0..map.len() {
            let inner = values.get_map(i);
            out.push_str(&format!(
                "  {:?} -> {:?} entries, first value {:?}\n",
                keys.get_string(i).ok(),
                inner.as_ref().map(|m| m.len()).ok(),
                // arrow-rs's map getters do not check bounds (they panic).
                inner
                    .ok()
                    .filter(|m| m.len() > 0)
                    .and_then(|m| m.get_values().get_bool(0).ok())
            ));
        }
    }
    format!("rows: {n}\n{out}")
}

/// Structs with nulls at every level, and their required twin.
pub fn impala_structs(_dir: &Path) -> String {
    let (Some(nullable), Some(required)) = (
        corpus("nullable.impala.parquet"),
        corpus("nonnullable.impala.parquet"),
    ) else {
        return no_corpus();
    };
    let mut out = String::new();
    for path in [nullable, required] {
        let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
        out.push_str(&all_rows(&reader));
        for row in reader.get_row_iter(None).unwrap() {
            let row = row.unwrap();
            let nested = row
                .get_column_iter()
                .find(|(name, _)| name.as_str() == "nested_Struct")
                .map(|(_, field)| field.clone());
            if let Some(Field::Group(group)) = nested {
                out.push_str(&format!(
                    "  nested_Struct has {} fields, a = {:?}\n",
                    group.len(),
                    group.get_int(0).ok()
                ));
            }
        }
    }
    out
}

/// Decimals stored as INT32, INT64, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY:
/// printed, and read with `get_decimal`.
pub fn decimals_of_every_storage(_dir: &Path) -> String {
    let names = [
        "int32_decimal.parquet",
        "int64_decimal.parquet",
        "byte_array_decimal.parquet",
        "fixed_length_decimal.parquet",
        "fixed_length_decimal_legacy.parquet",
    ];
    let mut out = String::new();
    let mut n = 0;
    for name in names {
        let Some(path) = corpus(name) else {
            return no_corpus();
        };
        let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
        out.push_str(&format!("{name}\n"));
        for row in reader.get_row_iter(None).unwrap() {
            let row = row.unwrap();
            n += 1;
            let d = row.get_decimal(0).unwrap();
            out.push_str(&format!(
                "  {row} precision {} scale {} bytes {:?}\n",
                d.precision(),
                d.scale(),
                d.data()
            ));
        }
    }
    format!("rows: {n}\n{out}")
}

/// Dates, times, timestamps of three units, decimals, small and unsigned
/// integers, binaries and large strings written by `ArrowWriter`, nulls
/// included, printed as rows.
pub fn written_types_as_rows(_dir: &Path) -> String {
    let n = 5;
    let opt = |i: usize| i % 3 != 1;
    let columns: Vec<(&str, ArrayRef)> = vec![
        (
            "date",
            Arc::new(Date32Array::from_iter(
                (0..n).map(|i| opt(i).then_some(i as i32 * 4000 - 8000)),
            )),
        ),
        (
            "time_ms",
            Arc::new(Time32MillisecondArray::from_iter(
                (0..n).map(|i| opt(i).then_some(i as i32 * 3_723_004)),
            )),
        ),
        (
            "time_us",
            Arc::new(Time64MicrosecondArray::from_iter(
                (0..n).map(|i| opt(i).then_some(i as i64 * 3_723_000_005)),
            )),
        ),
        (
            "ts_ms",
            Arc::new(
                TimestampMillisecondArray::from_iter(
                    (0..n).map(|i| opt(i).then_some(i as i64 * 86_400_123 - 100_000)),
                )
                .with_timezone("UTC"),
            ),
        ),
        (
            "ts_us",
            Arc::new(TimestampMicrosecondArray::from_iter(
                (0..n).map(|i| opt(i).then_some(1_262_391_174_000_001 + i as i64)),
            )),
        ),
        (
            "ts_ns",
            Arc::new(TimestampNanosecondArray::from_iter(
                (0..n).map(|i| opt(i).then_some(1_262_391_174_000_000_001 + i as i64)),
            )),
        ),
        (
            "price",
            Arc::new(
                Decimal128Array::from_iter((0..n).map(|i| opt(i).then_some(i as i128 * 12345 - 20_000)))
                    .with_precision_and_scale(9, 3)
                    .unwrap(),
            ),
        ),
        (
            "wide",
            Arc::new(
                Decimal128Array::from_iter(
                    (0..n).map(|i| opt(i).then_some(i as i128 * 10i128.pow(30) - 7)),
                )
                .with_precision_and_scale(38, 10)
                .unwrap(),
            ),
        ),
        (
            "i8",
            Arc::new(Int8Array::from_iter((0..n).map(|i| Some((i as i32 * 60 - 120) as i8)))),
        ),
        (
            "i16",
            Arc::new(Int16Array::from_iter((0..n).map(|i| Some((i as i32 * 16000 - 32000) as i16)))),
        ),
        (
            "u8",
            Arc::new(UInt8Array::from_iter((0..n).map(|i| Some(i as u8 * 63)))),
        ),
        (
            "u16",
            Arc::new(UInt16Array::from_iter((0..n).map(|i| Some(i as u16 * 16000)))),
        ),
        (
            "u32",
            Arc::new(UInt32Array::from_iter((0..n).map(|i| Some(u32::MAX - i as u32)))),
        ),
        (
            "u64",
            Arc::new(UInt64Array::from_iter((0..n).map(|i| Some(u64::MAX - i as u64)))),
        ),
        (
            "bin",
            Arc::new(BinaryArray::from_iter(
                (0..n).map(|i| opt(i).then(|| vec![i as u8; i])),
            )),
        ),
        (
            "fixed",
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    (0..n).map(|i| opt(i).then(|| [i as u8, 255 - i as u8])),
                    2,
                )
                .unwrap(),
            ),
        ),
        (
            "text",
            Arc::new(LargeStringArray::from_iter(
                (0..n).map(|i| opt(i).then(|| format!("é{i}"))),
            )),
        ),
        (
            "flag",
            Arc::new(BooleanArray::from_iter((0..n).map(|i| opt(i).then_some(i % 2 == 0)))),
        ),
    ];
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let file = to_parquet(&batch, 3);
    let reader = SerializedFileReader::new(file).unwrap();
    let mut out = all_rows(&reader);
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        out.push_str(&format!(
            "ubyte {} ushort {} uint {} ulong {} ts_us {:?}\n",
            row.get_ubyte(10).unwrap(),
            row.get_ushort(11).unwrap(),
            row.get_uint(12).unwrap(),
            row.get_ulong(13).unwrap(),
            row.get_timestamp_micros(4).ok()
        ));
    }
    out
}

/// Lists (with null lists and null elements), lists of structs, maps with
/// null values and structs of lists, written by `ArrowWriter`, as rows.
pub fn written_nested_as_rows(_dir: &Path) -> String {
    let n = 7;
    let mut tags = ListBuilder::new(Int32Builder::new());
    let mut attrs = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
    let mut nested = ListBuilder::new(ListBuilder::new(StringBuilder::new()));
    let point_fields = Fields::from(vec![
        ArrowField::new("x", DataType::Int32, true),
        ArrowField::new(
            "names",
            DataType::List(Arc::new(ArrowField::new_list_field(DataType::Utf8, true))),
            true,
        ),
    ]);
    let mut points = StructBuilder::from_fields(point_fields, n);
    for i in 0..n {
        for t in 0..(i % 4) {
            if t == 1 {
                tags.values().append_null();
            } else {
                tags.values().append_value((i * 10 + t) as i32);
            }
        }
        tags.append(i % 5 != 3);
        for k in 0..(i % 3) {
            attrs.keys().append_value(format!("k{k}"));
            attrs
                .values()
                .append_option((k != 1).then_some((i * 100 + k) as i64));
        }
        attrs.append(i != 4).unwrap();
        for j in 0..(i % 3) {
            for s in 0..j {
                nested.values().values().append_value(format!("s{i}{j}{s}"));
            }
            nested.values().append(j != 2 || i != 5);
        }
        nested.append(i != 6);
        points
            .field_builder::<Int32Builder>(0)
            .unwrap()
            .append_option((i != 2).then_some(i as i32));
        let names = points
            .field_builder::<ListBuilder<Box<dyn arrow_array::builder::ArrayBuilder>>>(1)
            .unwrap();
        for s in 0..(i % 2 + 1) {
            names
                .values()
                .as_any_mut()
                .downcast_mut::<StringBuilder>()
                .unwrap()
                .append_value(format!("p{i}{s}"));
        }
        names.append(i != 1);
        points.append(i != 4);
    }
    let batch = RecordBatch::try_from_iter([
        ("tags", Arc::new(tags.finish()) as ArrayRef),
        ("attrs", Arc::new(attrs.finish()) as ArrayRef),
        ("nested", Arc::new(nested.finish()) as ArrayRef),
        ("point", Arc::new(points.finish()) as ArrayRef),
    ])
    .unwrap();
    let file = to_parquet(&batch, 4);
    let reader = SerializedFileReader::new(file).unwrap();
    let mut out = all_rows(&reader);
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        let tags = match row.get_list(0) {
            // arrow-rs's list getters do not check bounds (they panic).
            Ok(list) if list.len() > 0 => {
                format!("{} tags, first {:?}", list.len(), list.get_int(0).ok())
            }
            Ok(_) => "0 tags".to_string(),
            Err(e) => format!("no tags ({e})"),
        };
        let attrs = match row.get_map(1) {
            Ok(map) => format!("{} attrs", map.len()),
            Err(e) => format!("no attrs ({e})"),
        };
        out.push_str(&format!("{tags}, {attrs}, point null: {}\n", row.is_null(3).unwrap()));
    }
    out
}

/// Opening by path (`&str`, `String`, `&Path`) and from a `File` with
/// `TryFrom`; read options that keep some row groups; Bloom filters read
/// ahead; the rows of a reader the iterator owns.
pub fn open_forms_and_read_options(dir: &Path) -> String {
    use pq::file::metadata::RowGroupMetaData;
    use pq::file::properties::ReaderProperties;
    use pq::file::serialized_reader::ReadOptionsBuilder;
    use pq::record::reader::RowIter;
    let path = dir.join("people.parquet");
    let batch = people(20);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(6))
        .set_bloom_filter_enabled(true)
        .build();
    let mut writer = ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), Some(props))
        .unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();

    let text = path.to_str().unwrap();
    let counts = [
        SerializedFileReader::try_from(text).unwrap().num_row_groups(),
        SerializedFileReader::try_from(text.to_string())
            .unwrap()
            .num_row_groups(),
        SerializedFileReader::try_from(path.as_path())
            .unwrap()
            .num_row_groups(),
        SerializedFileReader::try_from(File::open(&path).unwrap())
            .unwrap()
            .num_row_groups(),
    ];
    let mut out = format!("row groups by each constructor: {counts:?}\n");

    let options = ReadOptionsBuilder::new()
        .with_predicate(Box::new(|group: &RowGroupMetaData, i: usize| {
            i.is_multiple_of(2) && group.num_rows() > 0
        }))
        .build();
    let even = SerializedFileReader::new_with_options(File::open(&path).unwrap(), options).unwrap();
    out.push_str(&format!(
        "even groups: {} of {} rows in the file\n",
        even.num_row_groups(),
        even.metadata().file_metadata().num_rows()
    ));
    out.push_str(&all_rows(&even));
    let options = ReadOptionsBuilder::new().with_page_index().build();
    let indexed =
        SerializedFileReader::new_with_options(File::open(&path).unwrap(), options).unwrap();
    out.push_str(&format!(
        "page index loaded: {}, without asking: {}\n",
        indexed.metadata().page_index().is_some(),
        even.metadata().page_index().is_some()
    ));

    let bytes = Bytes::from(std::fs::read(&path).unwrap());
    let whole = SerializedFileReader::new(bytes.clone()).unwrap();
    let first = whole.metadata().row_group(0).compressed_size();
    let options = ReadOptionsBuilder::new()
        .with_range(0, 4 + first)
        .with_reader_properties(ReaderProperties::builder().set_read_bloom_filter(true).build())
        .build();
    let ranged = SerializedFileReader::new_with_options(bytes, options).unwrap();
    let group = ranged.get_row_group(0).unwrap();
    out.push_str(&format!(
        "groups in range: {}, Bloom filters read: {:?}\n",
        ranged.num_row_groups(),
        (0..group.num_columns())
            .map(|j| group.get_column_bloom_filter(j).is_some())
            .collect::<Vec<_>>()
    ));

    let owned = SerializedFileReader::try_from(text).unwrap();
    let ids: Vec<i64> = RowIter::from_file_into(Box::new(owned))
        .map(|row| row.unwrap().get_long(0).unwrap())
        .collect();
    out.push_str(&format!("owned iterator ids: {ids:?}\n"));
    out
}

/// The pages of every column chunk of two corpus files (v1 pages with
/// dictionaries, v2 pages) through `get_column_page_reader`: their value
/// counts, encodings and sizes.
pub fn column_pages(_dir: &Path) -> String {
    let (Some(v1), Some(v2)) = (
        corpus("alltypes_plain.parquet"),
        corpus("datapage_v2.snappy.parquet"),
    ) else {
        return no_corpus();
    };
    let mut out = String::new();
    for path in [v1, v2] {
        let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
        let group = reader.get_row_group(0).unwrap();
        out.push_str(&format!("rows: {}\n", group.metadata().num_rows()));
        for j in 0..group.num_columns() {
            let mut pages = Vec::new();
            for page in group.get_column_page_reader(j).unwrap() {
                let page = page.unwrap();
                pages.push(format!(
                    "{} {} {}",
                    page.num_values(),
                    page.encoding(),
                    page.buffer().len()
                ));
            }
            out.push_str(&format!("column {j}: {pages:?}\n"));
        }
    }
    out
}

/// Every value of one chunk through the typed column reader: read the
/// first records, skip some, read the rest, as a column-at-a-time tool
/// does.
fn drain_column(reader: pq::column::reader::ColumnReader) -> String {
    use pq::column::reader::{ColumnReader, ColumnReaderImpl, get_typed_column_reader};
    use pq::data_type::DataType;
    fn drain<T: DataType>(
        mut r: ColumnReaderImpl<T>,
        show: impl Fn(&T::T) -> String,
    ) -> String {
        let (mut defs, mut reps, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let first = r
            .read_records(3, Some(&mut defs), Some(&mut reps), &mut values)
            .unwrap();
        let skipped = r.skip_records(2).unwrap();
        let mut rest = (0, 0, 0);
        loop {
            let got = r
                .read_records(4, Some(&mut defs), Some(&mut reps), &mut values)
                .unwrap();
            if got.0 == 0 {
                break;
            }
            rest = (rest.0 + got.0, rest.1 + got.1, rest.2 + got.2);
        }
        let shown: Vec<String> = values.iter().map(show).collect();
        format!(
            "first {first:?} skipped {skipped} rest {rest:?} defs {defs:?} reps {reps:?} values [{}]",
            shown.join(", ")
        )
    }
    match reader {
        ColumnReader::Int64ColumnReader(r) => drain(r, |v| v.to_string()),
        ColumnReader::Int32ColumnReader(r) => drain(r, |v| v.to_string()),
        ColumnReader::DoubleColumnReader(r) => drain(r, |v| v.to_string()),
        ColumnReader::BoolColumnReader(r) => drain(r, |v| v.to_string()),
        ColumnReader::ByteArrayColumnReader(r) => {
            drain(r, |v| String::from_utf8_lossy(v.data()).into_owned())
        }
        other => {
            // The checked way in: matching; the unchecked: by type.
            let r = get_typed_column_reader::<pq::data_type::FixedLenByteArrayType>(other);
            drain(r, |v| format!("{:?}", v.data()))
        }
    }
}

/// The low-level column API over a flat table and a list column: each
/// chunk's levels and values through `RowGroupReader::get_column_reader`.
pub fn typed_column_readers(_dir: &Path) -> String {
    let mut list = ListBuilder::new(Int32Builder::new());
    for i in 0..12 {
        match i % 4 {
            0 => list.append_null(),
            1 => list.append(true),
            _ => {
                for k in 0..i % 3 + 1 {
                    list.values().append_value(i * 10 + k);
                }
                list.append(true);
            }
        }
    }
    let lists: ArrayRef = Arc::new(list.finish());
    let nested = RecordBatch::try_from_iter([("lists", lists)]).unwrap();
    let mut out = String::new();
    for file in [to_parquet(&people(12), 7), to_parquet(&nested, 100)] {
        let reader = SerializedFileReader::new(file).unwrap();
        out.push_str(&format!("rows: {}\n", reader.metadata().file_metadata().num_rows()));
        for g in 0..reader.num_row_groups() {
            let group = reader.get_row_group(g).unwrap();
            for c in 0..group.num_columns() {
                // The top field only: the list's child is named
                // differently (see the one deliberate difference).
                let path = group.metadata().column(c).column_path().parts()[0].clone();
                let column = group.get_column_reader(c).unwrap();
                out.push_str(&format!("{g}/{path}: {}\n", drain_column(column)));
            }
        }
    }
    out
}
