// Programs about writing: sinks, codecs, writer versions, encodings,
// dictionaries, statistics, row groups, flushing, metadata. Each writes with
// `pq` and reads back with `pq`. Included into a module that has `pq` in
// scope (arrow-rs `parquet` or `strata`); nothing else may differ.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Float32Array, Float64Array, Int32Array, Int64Array,
    RecordBatch, StringArray,
};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pq::basic::{BrotliLevel, Compression, Encoding, GzipLevel, ZstdLevel};
use pq::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use pq::schema::types::ColumnPath;

use crate::data::{people, people_from};
use crate::summary::{fmt_batches, fmt_counts, fmt_digest, fmt_field, fmt_metadata, fmt_schema};

/// Write one batch to memory with `props`, read it all back.
fn roundtrip(batch: &RecordBatch, props: Option<WriterProperties>) -> Vec<RecordBatch> {
    let mut buf = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), props).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf))
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// The simplest use: a batch with nulls into a `Vec<u8>`, read back from
/// `Bytes` with the default options.
pub fn basic_vec_roundtrip(_dir: &Path) -> String {
    let ids = Int32Array::from(vec![1, 2, 3, 4, 5]);
    let names = StringArray::from(vec![
        Some("ada"),
        None,
        Some("grace"),
        Some(""),
        Some("linus"),
    ]);
    let scores = Float64Array::from(vec![
        Some(1.5),
        Some(-0.25),
        None,
        Some(1e10),
        Some(f64::NAN),
    ]);
    let batch = RecordBatch::try_from_iter([
        ("id", Arc::new(ids) as ArrayRef),
        ("name", Arc::new(names) as ArrayRef),
        ("score", Arc::new(scores) as ArrayRef),
    ])
    .unwrap();

    let mut buf = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();

    let reader = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf))
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    fmt_batches(&batches)
}

fn write_people(path: &Path, batch: &RecordBatch) -> pq::errors::Result<()> {
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .build();
    let file = File::create(path)?;
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props))?;
    writer.write(batch)?;
    writer.close()?;
    Ok(())
}

fn read_people(path: &Path) -> pq::errors::Result<(usize, Vec<RecordBatch>)> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?;
    let row_groups = builder.metadata().num_row_groups();
    let batches = builder.build()?.collect::<Result<Vec<_>, ArrowError>>()?;
    Ok((row_groups, batches))
}

/// A file on disk, with errors carried by `pq::errors::Result` and `?`.
pub fn file_roundtrip_with_result(dir: &Path) -> String {
    let path = dir.join("people.parquet");
    write_people(&path, &people(30)).unwrap();
    let (row_groups, batches) = read_people(&path).unwrap();
    format!("row groups: {row_groups}\n{}", fmt_batches(&batches))
}

/// Every codec without a level. (Not LZO: neither writes it, and arrow-rs
/// 60.1 panics in its column writer rather than returning an error.)
pub fn codecs_without_levels(_dir: &Path) -> String {
    let batch = people(2000);
    let mut out = String::new();
    for (label, codec) in [
        ("UNCOMPRESSED", Compression::UNCOMPRESSED),
        ("SNAPPY", Compression::SNAPPY),
        ("LZ4", Compression::LZ4),
        ("LZ4_RAW", Compression::LZ4_RAW),
    ] {
        let props = WriterProperties::builder().set_compression(codec).build();
        let batches = roundtrip(&batch, Some(props));
        out.push_str(&format!("{label}: {}\n", fmt_digest(&batches)));
    }
    out
}

/// GZIP, ZSTD and BROTLI at their lowest, default and highest levels.
pub fn codecs_with_levels(_dir: &Path) -> String {
    let batch = people(1500);
    let mut codecs = Vec::new();
    for level in [0, 6, 9] {
        codecs.push(Compression::GZIP(GzipLevel::try_new(level).unwrap()));
    }
    for level in [1, 3, 19] {
        codecs.push(Compression::ZSTD(ZstdLevel::try_new(level).unwrap()));
    }
    for level in [0, 1, 11] {
        codecs.push(Compression::BROTLI(BrotliLevel::try_new(level).unwrap()));
    }
    codecs.push(Compression::GZIP(GzipLevel::default()));
    codecs.push(Compression::ZSTD(ZstdLevel::default()));
    codecs.push(Compression::BROTLI(BrotliLevel::default()));
    let mut out = String::new();
    for codec in codecs {
        let props = WriterProperties::builder().set_compression(codec).build();
        let batches = roundtrip(&batch, Some(props));
        out.push_str(&format!("{codec:?}: {}\n", fmt_digest(&batches)));
    }
    out
}

/// A default codec with per-column overrides.
pub fn per_column_compression(dir: &Path) -> String {
    let path = dir.join("mixed.parquet");
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(7).unwrap()))
        .set_column_compression(ColumnPath::from("id"), Compression::UNCOMPRESSED)
        .set_column_compression(ColumnPath::from("name"), Compression::SNAPPY)
        .set_column_compression(
            ColumnPath::from("score"),
            Compression::GZIP(GzipLevel::try_new(2).unwrap()),
        )
        .set_column_compression(ColumnPath::from("active"), Compression::LZ4_RAW)
        .build();
    let for_name = props.compression(&ColumnPath::from("name"));
    let for_other = props.compression(&ColumnPath::from("not_a_column"));
    let batch = people(300);
    let mut writer =
        ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let batches: Vec<RecordBatch> =
        ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap())
            .unwrap()
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    format!(
        "name: {for_name:?}, other: {for_other:?}\n{}",
        fmt_batches(&batches)
    )
}

/// Format versions 1.0 and 2.0 (data pages v1 and v2), many small pages.
pub fn writer_versions(_dir: &Path) -> String {
    let batch = people(5000);
    let mut out = String::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .set_data_page_size_limit(512)
            .set_data_page_row_count_limit(100)
            .set_compression(Compression::SNAPPY)
            .build();
        let as_num = props.writer_version().as_num();
        let batches = roundtrip(&batch, Some(props));
        out.push_str(&format!("version {as_num}: {}\n", fmt_digest(&batches)));
    }
    out
}

/// Dictionary encoding off by default, on for one column, and a tiny
/// dictionary page limit forcing a fallback on another.
pub fn dictionary_toggles(_dir: &Path) -> String {
    let n = 3000;
    let city: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..n).map(|i| ["Lisbon", "Oslo", "Quito", "Hanoi"][i % 4]),
    ));
    let code: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..n).map(|i| format!("c{:05}", i * 7919 % 10007)),
    ));
    let amount: ArrayRef = Arc::new(Int64Array::from_iter_values((0..n as i64).map(|i| i % 13)));
    let batch =
        RecordBatch::try_from_iter([("city", city), ("code", code), ("amount", amount)]).unwrap();
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_column_dictionary_enabled(ColumnPath::from("city"), true)
        .set_column_dictionary_enabled(ColumnPath::from("code"), true)
        .set_column_dictionary_page_size_limit(ColumnPath::from("code"), 256)
        .build();
    let flags: Vec<bool> = ["city", "code", "amount"]
        .iter()
        .map(|c| props.dictionary_enabled(&ColumnPath::from(*c)))
        .collect();
    let batches = roundtrip(&batch, Some(props));
    format!("dictionary enabled: {flags:?}\n{}", fmt_batches(&batches))
}

/// The delta encodings, set per column with dictionaries off.
pub fn delta_encodings(_dir: &Path) -> String {
    let n = 2500i64;
    let ts: ArrayRef = Arc::new(Int64Array::from_iter_values(
        (0..n).map(|i| 1_700_000_000_000 + i * 1000 + i % 7),
    ));
    let small: ArrayRef = Arc::new(Int32Array::from_iter(
        (0..n).map(|i| (i % 11 != 0).then_some((i % 100 - 50) as i32)),
    ));
    let url: ArrayRef =
        Arc::new(StringArray::from_iter_values((0..n).map(|i| {
            format!("https://example.com/items/{}/{}", i / 10, i % 10)
        })));
    let blob: ArrayRef = Arc::new(BinaryArray::from_iter(
        (0..n).map(|i| (i % 9 != 0).then(|| vec![b'x'; (i % 17) as usize])),
    ));
    let batch =
        RecordBatch::try_from_iter([("ts", ts), ("small", small), ("url", url), ("blob", blob)])
            .unwrap();
    let mut builder = WriterProperties::builder().set_writer_version(WriterVersion::PARQUET_2_0);
    for (column, encoding) in [
        ("ts", Encoding::DELTA_BINARY_PACKED),
        ("small", Encoding::DELTA_BINARY_PACKED),
        ("url", Encoding::DELTA_BYTE_ARRAY),
        ("blob", Encoding::DELTA_LENGTH_BYTE_ARRAY),
    ] {
        builder = builder
            .set_column_dictionary_enabled(ColumnPath::from(column), false)
            .set_column_encoding(ColumnPath::from(column), encoding);
    }
    let props = builder.build();
    let chosen = props
        .encoding(&ColumnPath::from("url"))
        .map(|e| e.to_string());
    let batches = roundtrip(&batch, Some(props));
    format!("url encoding: {chosen:?}\n{}", fmt_batches(&batches))
}

/// BYTE_STREAM_SPLIT for floating point and integer columns.
pub fn byte_stream_split(_dir: &Path) -> String {
    let n = 1200;
    let temp: ArrayRef = Arc::new(Float32Array::from_iter(
        (0..n).map(|i| (i % 8 != 0).then_some(i as f32 * 0.125 - 20.0)),
    ));
    let pressure: ArrayRef = Arc::new(Float64Array::from_iter_values(
        (0..n).map(|i| 1013.25 + (i as f64).sin()),
    ));
    let count: ArrayRef = Arc::new(Int32Array::from_iter_values((0..n).map(|i| i * 31 % 1000)));
    let total: ArrayRef = Arc::new(Int64Array::from_iter_values((0..n as i64).map(|i| i * i)));
    let batch = RecordBatch::try_from_iter([
        ("temp", temp),
        ("pressure", pressure),
        ("count", count),
        ("total", total),
    ])
    .unwrap();
    let mut builder = WriterProperties::builder().set_dictionary_enabled(false);
    for column in ["temp", "pressure", "count", "total"] {
        builder =
            builder.set_column_encoding(ColumnPath::from(column), Encoding::BYTE_STREAM_SPLIT);
    }
    fmt_batches(&roundtrip(&batch, Some(builder.build())))
}

/// PLAIN everywhere (dictionaries off), RLE for a boolean column.
pub fn plain_and_rle(_dir: &Path) -> String {
    let mut out = String::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .set_dictionary_enabled(false)
            .set_encoding(Encoding::PLAIN)
            .set_column_encoding(ColumnPath::from("active"), Encoding::RLE)
            .build();
        let batches = roundtrip(&people(777), Some(props));
        out.push_str(&format!(
            "v{}: {}\n",
            version.as_num(),
            fmt_digest(&batches)
        ));
    }
    out
}

/// Statistics levels, page header statistics, truncation and Bloom filters:
/// options that change only the metadata, so the data must read the same.
pub fn statistics_and_bloom_options(_dir: &Path) -> String {
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::None)
        .set_column_statistics_enabled(ColumnPath::from("id"), EnabledStatistics::Chunk)
        .set_column_statistics_enabled(ColumnPath::from("name"), EnabledStatistics::Page)
        .set_write_page_header_statistics(true)
        .set_statistics_truncate_length(Some(8))
        .set_column_index_truncate_length(Some(4))
        .set_bloom_filter_enabled(false)
        .set_column_bloom_filter_enabled(ColumnPath::from("name"), true)
        .set_column_bloom_filter_fpp(ColumnPath::from("name"), 0.01)
        .set_column_bloom_filter_max_ndv(ColumnPath::from("name"), 64)
        .build();
    let levels: Vec<String> = ["id", "name", "score"]
        .iter()
        .map(|c| format!("{c}={:?}", props.statistics_enabled(&ColumnPath::from(*c))))
        .collect();
    let truncation = (
        props.statistics_truncate_length(),
        props.column_index_truncate_length(),
    );
    let blooms = [
        props
            .bloom_filter_properties(&ColumnPath::from("name"))
            .is_some(),
        props
            .bloom_filter_properties(&ColumnPath::from("id"))
            .is_some(),
    ];
    let batches = roundtrip(&people(400), Some(props));
    format!(
        "statistics: {levels:?}\ntruncation: {truncation:?}\nbloom: {blooms:?}\n{}",
        fmt_digest(&batches)
    )
}

/// Build properties, print what the getters say, and write with them.
pub fn property_getters(_dir: &Path) -> String {
    let defaults = WriterProperties::new();
    let mut out = format!(
        "defaults: page={} dict_page={} page_rows={} batch={} max_rows={:?} max_bytes={:?} v={} coerce={} dict={} stats={:?} codec={:?}\n",
        defaults.data_page_size_limit(),
        defaults.dictionary_page_size_limit(),
        defaults.data_page_row_count_limit(),
        defaults.write_batch_size(),
        defaults.max_row_group_row_count(),
        defaults.max_row_group_bytes(),
        defaults.writer_version().as_num(),
        defaults.coerce_types(),
        defaults.dictionary_enabled(&ColumnPath::from("x")),
        defaults.statistics_enabled(&ColumnPath::from("x")),
        defaults.compression(&ColumnPath::from("x")),
    );
    let props = WriterProperties::builder()
        .set_data_page_size_limit(4096)
        .set_dictionary_page_size_limit(8192)
        .set_data_page_row_count_limit(500)
        .set_write_batch_size(128)
        .set_max_row_group_row_count(Some(250))
        .set_max_row_group_bytes(Some(1 << 20))
        .set_created_by("compat suite".to_string())
        .set_column_encoding(
            ColumnPath::new(vec!["id".to_string()]),
            Encoding::DELTA_BINARY_PACKED,
        )
        .build();
    out.push_str(&format!(
        "set: page={} dict_page={} page_rows={} batch={} max_rows={:?} max_bytes={:?} created_by={} id_encoding={:?}\n",
        props.data_page_size_limit(),
        props.dictionary_page_size_limit(),
        props.data_page_row_count_limit(),
        props.write_batch_size(),
        props.max_row_group_row_count(),
        props.max_row_group_bytes(),
        props.created_by(),
        props.encoding(&ColumnPath::from("id")).map(|e| e.to_string()),
    ));
    let rebuilt = props.into_builder().set_write_batch_size(64).build();
    out.push_str(&format!(
        "rebuilt batch={} max_rows={:?}\n",
        rebuilt.write_batch_size(),
        rebuilt.max_row_group_row_count()
    ));
    out.push_str(&fmt_digest(&roundtrip(&people(600), Some(rebuilt))));
    out
}

/// A row count limit splits the file; read chosen row groups back in a
/// chosen order.
pub fn row_group_row_limit(dir: &Path) -> String {
    let path = dir.join("groups.parquet");
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(128))
        .build();
    let mut writer = ArrowWriter::try_new(
        File::create(&path).unwrap(),
        people(1).schema(),
        Some(props),
    )
    .unwrap();
    for start in (0..1000).step_by(100) {
        writer.write(&people_from(start, 100)).unwrap();
    }
    let written = writer.close().unwrap();
    let mut out = format!("written row groups: {}\n", written.num_row_groups());

    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
    let groups = builder.metadata().num_row_groups();
    out.push_str(&format!(
        "read row groups: {groups} ({})\n",
        builder.metadata().row_groups().len()
    ));
    for i in 0..groups {
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap())
            .unwrap()
            .with_row_groups(vec![i])
            .build()
            .unwrap();
        let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
        out.push_str(&format!("  group {i}: {rows} rows\n"));
    }
    let picked: Vec<RecordBatch> =
        ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap())
            .unwrap()
            .with_row_groups(vec![5, 0, 7])
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    out.push_str(&fmt_batches(&picked));
    out
}

/// A byte limit splits the file too (how often depends on each writer's
/// size estimate, so only "more than one" is printed).
pub fn row_group_byte_limit(_dir: &Path) -> String {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(None)
        .set_max_row_group_bytes(Some(16 * 1024))
        .set_dictionary_enabled(false)
        .build();
    let batch = people(20_000);
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    for start in (0..20_000).step_by(1000) {
        writer.write(&batch.slice(start, 1000)).unwrap();
    }
    let buf = writer.into_inner().unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf)).unwrap();
    let several = builder.metadata().num_row_groups() > 1;
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    format!("several row groups: {several}\n{}", fmt_digest(&batches))
}

/// Many small writes, a row group closed by hand every 20 of them.
pub fn many_small_writes_with_flush(_dir: &Path) -> String {
    let schema = people(1).schema();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema, None).unwrap();
    let mut log = Vec::new();
    for i in 0..70 {
        writer.write(&people_from(i * 3, 3)).unwrap();
        if i % 20 == 19 {
            let before = writer.in_progress_rows();
            writer.flush().unwrap();
            log.push((before, writer.in_progress_rows()));
        }
    }
    let pending = writer.in_progress_rows();
    writer.flush().unwrap();
    writer.flush().unwrap(); // nothing buffered: no empty row group
    let buf = writer.into_inner().unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf)).unwrap();
    let groups = builder.metadata().num_row_groups();
    let batches: Vec<RecordBatch> = builder
        .with_batch_size(50)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    format!(
        "flushes (before, after): {log:?}\npending at end: {pending}\nrow groups: {groups}\n{}",
        fmt_batches(&batches)
    )
}

/// `into_inner` hands the sink back; `finish` closes without consuming and
/// `inner` then gives the bytes.
pub fn into_inner_and_finish(_dir: &Path) -> String {
    let batch = people(64);
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    let buf = writer.into_inner().unwrap();
    let framed = buf.starts_with(b"PAR1") && buf.ends_with(b"PAR1");
    let first = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf))
        .unwrap()
        .build()
        .unwrap();
    let first: Vec<RecordBatch> = first.collect::<Result<_, _>>().unwrap();

    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), None).unwrap();
    writer.write(&batch.slice(0, 40)).unwrap();
    writer.flush().unwrap();
    writer.write(&batch.slice(40, 24)).unwrap();
    let metadata = writer.finish().unwrap();
    let groups = (metadata.num_row_groups(), metadata.row_groups().len());
    let bytes = Bytes::from(writer.inner().clone());
    let second = ParquetRecordBatchReaderBuilder::try_new(bytes)
        .unwrap()
        .build()
        .unwrap();
    let second: Vec<RecordBatch> = second.collect::<Result<_, _>>().unwrap();
    format!(
        "framed: {framed}\ninto_inner: {}\nfinish row groups: {groups:?}\nfinish: {}",
        fmt_digest(&first),
        fmt_digest(&second)
    )
}

/// Empty batches, an all-null column, and a file with no rows at all.
pub fn empty_and_null_batches(_dir: &Path) -> String {
    let schema = Arc::new(Schema::new(vec![
        Field::new("k", DataType::Int32, false),
        Field::new("v", DataType::Utf8, true),
        Field::new("w", DataType::Float64, true),
    ]));
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), None).unwrap();
    writer
        .write(&RecordBatch::new_empty(schema.clone()))
        .unwrap();
    let nulls = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int32Array::from(vec![1, 2, 3])),
            Arc::new(StringArray::from(vec![None::<&str>, None, None])),
            Arc::new(Float64Array::from(vec![None, None, None])),
        ],
    )
    .unwrap();
    writer.write(&nulls).unwrap();
    writer.write(&nulls.slice(1, 0)).unwrap();
    let mixed = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int32Array::from(vec![4, 5])),
            Arc::new(StringArray::from(vec![Some("x"), None])),
            Arc::new(Float64Array::from(vec![None, Some(0.0)])),
        ],
    )
    .unwrap();
    writer.write(&mixed).unwrap();
    let buf = writer.into_inner().unwrap();
    let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf))
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();

    let writer = ArrowWriter::try_new(Vec::new(), schema, None).unwrap();
    let empty_file = Bytes::from(writer.into_inner().unwrap());
    let builder = ParquetRecordBatchReaderBuilder::try_new(empty_file).unwrap();
    let empty_schema = fmt_schema(builder.schema());
    let groups = builder.metadata().num_row_groups();
    let empty: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    format!(
        "{}empty file: {groups} row groups\n{empty_schema}{}",
        fmt_batches(&read),
        fmt_counts(&empty)
    )
}

/// Schema-level and field-level Arrow metadata survive the round trip to
/// the builder's schema and the batches' fields (and are gone when the
/// embedded Arrow schema is skipped).
pub fn schema_and_field_metadata(_dir: &Path) -> String {
    let buf = file_with_metadata();
    let builder = ParquetRecordBatchReaderBuilder::try_new(buf.clone()).unwrap();
    let builder_schema = fmt_schema(builder.schema());
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    let fields: Vec<String> = batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| fmt_field(f))
        .collect();
    let options = pq::arrow::arrow_reader::ArrowReaderOptions::new().with_skip_arrow_metadata(true);
    let skipped = ParquetRecordBatchReaderBuilder::try_new_with_options(buf, options).unwrap();
    format!(
        "builder {builder_schema}batch fields: {fields:?}\n{}\nskipped: {}",
        fmt_digest(&batches),
        fmt_schema(skipped.schema())
    )
}

fn file_with_metadata() -> Bytes {
    let unit = HashMap::from([("unit".to_string(), "celsius".to_string())]);
    let schema = Arc::new(Schema::new_with_metadata(
        vec![
            Field::new("sensor", DataType::Utf8, false),
            Field::new("reading", DataType::Float32, true).with_metadata(unit),
        ],
        HashMap::from([
            ("origin".to_string(), "field-station-7".to_string()),
            ("version".to_string(), "3".to_string()),
        ]),
    ));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from(vec!["a", "b", "a"])),
            Arc::new(Float32Array::from(vec![Some(21.5), None, Some(19.0)])),
        ],
    )
    .unwrap();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema, None).unwrap();
    writer.write(&batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

/// The schema-level metadata of what the reader hands out: its
/// `RecordBatchReader::schema()` and each batch's schema.
pub fn batch_schema_metadata(_dir: &Path) -> String {
    use arrow_array::RecordBatchReader;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file_with_metadata()).unwrap();
    let reader = builder.build().unwrap();
    let reader_metadata = fmt_metadata(reader.schema().metadata());
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    format!(
        "reader schema metadata:{reader_metadata}\n{}",
        fmt_batches(&batches)
    )
}

/// Levels taken from configuration: each is checked with `try_new`, and the
/// accepted ones are written with (ZSTD's negative "fast" levels included).
pub fn compression_level_ranges(_dir: &Path) -> String {
    let batch = people(200);
    let mut codecs: Vec<(String, Option<Compression>)> = Vec::new();
    for level in [0, 9, 10] {
        codecs.push((
            format!("gzip {level}"),
            GzipLevel::try_new(level).ok().map(Compression::GZIP),
        ));
    }
    for level in [-131073, -131072, -100, -1, 0, 1, 22, 23] {
        codecs.push((
            format!("zstd {level}"),
            ZstdLevel::try_new(level).ok().map(Compression::ZSTD),
        ));
    }
    for level in [0, 11, 12] {
        codecs.push((
            format!("brotli {level}"),
            BrotliLevel::try_new(level).ok().map(Compression::BROTLI),
        ));
    }
    let mut out = String::new();
    for (label, codec) in codecs {
        match codec {
            Some(codec) => {
                let props = WriterProperties::builder().set_compression(codec).build();
                out.push_str(&format!(
                    "{label}: {}\n",
                    fmt_digest(&roundtrip(&batch, Some(props)))
                ));
            }
            None => out.push_str(&format!("{label}: rejected\n")),
        }
    }
    out
}

/// Small pages, small write batches and a dictionary page limit that makes
/// a high-cardinality column fall back mid-chunk.
pub fn page_and_batch_limits(_dir: &Path) -> String {
    let n = 4000;
    let word: ArrayRef =
        Arc::new(StringArray::from_iter((0..n).map(|i| {
            (i % 10 != 0).then(|| format!("word-{}", i * 37 % 2003))
        })));
    let flag: ArrayRef = Arc::new(BooleanArray::from_iter(
        (0..n).map(|i| (i % 4 != 0).then_some(i % 3 == 0)),
    ));
    let batch = RecordBatch::try_from_iter([("word", word), ("flag", flag)]).unwrap();
    let props = WriterProperties::builder()
        .set_write_batch_size(64)
        .set_data_page_size_limit(1024)
        .set_column_data_page_size_limit(ColumnPath::from("flag"), 64)
        .set_dictionary_page_size_limit(2048)
        .set_column_data_page_row_count_limit(ColumnPath::from("word"), 333)
        .build();
    let limits = (
        props.column_data_page_size_limit(&ColumnPath::from("flag")),
        props.column_data_page_row_count_limit(&ColumnPath::from("word")),
        props.column_dictionary_page_size_limit(&ColumnPath::from("word")),
    );
    format!(
        "limits: {limits:?}\n{}",
        fmt_batches(&roundtrip(&batch, Some(props)))
    )
}

/// Data pages v2 under Snappy that store their values uncompressed unless
/// compression takes off a quarter (a column of its own: a tenth), read
/// back whole.
pub fn v2_compression_ratio_threshold(_dir: &Path) -> String {
    let batch = people(300);
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_compression(Compression::SNAPPY)
        .set_data_page_v2_compression_ratio_threshold(0.75)
        .set_column_data_page_v2_compression_ratio_threshold(ColumnPath::from("name"), 0.9)
        .build();
    let out = format!(
        "default {} name {} id {}\n",
        props.data_page_v2_compression_ratio_threshold(),
        props.column_data_page_v2_compression_ratio_threshold(&ColumnPath::from("name")),
        props.column_data_page_v2_compression_ratio_threshold(&ColumnPath::from("id")),
    );
    out + &fmt_batches(&roundtrip(&batch, Some(props)))
}

/// A file whose chunks do not repeat their paths (for a reader known to
/// take them from the schema), read back with each chunk's path.
pub fn without_path_in_schema(_dir: &Path) -> String {
    let batch = people(50);
    let props = WriterProperties::builder()
        .set_write_path_in_schema(false)
        .build();
    let mut out = format!("write_path_in_schema {}\n", props.write_path_in_schema());
    let mut buf = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf)).unwrap();
    for chunk in builder.metadata().row_group(0).columns() {
        out.push_str(&format!("chunk {}\n", chunk.column_path().string()));
    }
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    out + &fmt_batches(&batches)
}
