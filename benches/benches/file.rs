//! The physical file layer, strata-file against arrow-rs `parquet` on the
//! same bytes and values: page decompression per codec, writing one column
//! chunk, and reading it back to values and levels.
//!
//! Every workload checks once, outside the timed loop, that both sides
//! agree: both codecs decompress the same compressed page to the same
//! bytes, arrow-rs reads the file strata writes to the input values, and
//! both readers return the same values and levels from the same file.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::sync::Arc;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::basic::{
    BrotliLevel as PqBrotliLevel, Compression as PqCompression, ZstdLevel as PqZstdLevel,
};
use parquet::column::reader::get_typed_column_reader;
use parquet::compression::{CodecOptions, create_codec as pq_create_codec};
use parquet::data_type::{ByteArray as PqByteArray, ByteArrayType, Int64Type};
use parquet::file::properties::WriterProperties as PqWriterProperties;
use parquet::file::reader::{FileReader as _, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type as PqSchemaType;
use strata_benches::data::{
    XorShift, dict_indices_page, fixed_width_strings, random_i64, sorted_i64,
};
use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, Decoder, DictDecoder, LevelDecoder,
    PlainByteArrayDecoder, PlainDecoder,
};
use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel, create_codec};
use strata_file::page::Page;
use strata_file::properties::WriterProperties;
use strata_file::serialized_reader::SerializedFileReader as StrataFileReader;
use strata_file::writer::FileWriter;
use strata_format::SchemaDescriptor;
use strata_format::metadata::{Encoding as FormatEncoding, FieldRepetitionType, Type};

/// Values per column chunk (1,048,576).
const N: usize = 1 << 20;
/// Bytes per decompressed page (1 MiB).
const PAGE: usize = 1 << 20;

// ---------------------------------------------------------------------------
// 1. Page decompression

/// A PLAIN INT64 page with repetition: runs of repeated values and small
/// steps, like measurements or foreign keys.
fn repetitive_i64_page(seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut v = 1_000_000i64;
    let mut page = Vec::with_capacity(PAGE);
    while page.len() < PAGE {
        let r = rng.next_u64();
        match r % 4 {
            0 | 1 => {}
            2 => v += ((r >> 8) % 64) as i64,
            _ => v = 1_000_000 + ((r >> 8) % 100_000) as i64,
        }
        page.extend_from_slice(&v.to_le_bytes());
    }
    page
}

/// A dictionary-index page (1,000 entries, 10-bit RLE/bit-packed hybrid),
/// cut to 1 MiB.
fn dict_index_page(seed: u64) -> Vec<u8> {
    let (mut page, _) = dict_indices_page(N + N / 4, 1_000, seed);
    assert!(page.len() >= PAGE, "dictionary-index page too small");
    page.truncate(PAGE);
    page
}

fn page_decompress(c: &mut Criterion) {
    let pages = [
        ("int64", repetitive_i64_page(0xC0DE)),
        ("dict_idx", dict_index_page(0xC0DF)),
    ];
    let codecs = [
        ("snappy", Compression::SNAPPY, PqCompression::SNAPPY),
        (
            "gzip",
            Compression::GZIP(GzipLevel::default()),
            PqCompression::GZIP(Default::default()),
        ),
        (
            "zstd1",
            Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
            PqCompression::ZSTD(PqZstdLevel::try_new(1).unwrap()),
        ),
        ("lz4_raw", Compression::LZ4_RAW, PqCompression::LZ4_RAW),
        (
            "brotli1",
            Compression::BROTLI(BrotliLevel::try_new(1).unwrap()),
            PqCompression::BROTLI(PqBrotliLevel::try_new(1).unwrap()),
        ),
    ];

    let mut group = c.benchmark_group("page_decompress");
    group.throughput(Throughput::Bytes(PAGE as u64));
    for (page_name, page) in &pages {
        for (codec_name, ours, theirs) in &codecs {
            let case = format!("{codec_name}/{page_name}");
            let mut strata = create_codec(*ours).unwrap().unwrap();
            let mut pq = pq_create_codec(*theirs, &CodecOptions::default())
                .unwrap()
                .unwrap();
            let mut compressed = Vec::new();
            strata.compress(page, &mut compressed).unwrap();

            // Both sides restore the page from the same compressed bytes.
            let mut out = Vec::with_capacity(PAGE);
            strata.decompress(&compressed, &mut out, PAGE).unwrap();
            assert!(out == *page, "strata {case}");
            out.clear();
            assert_eq!(
                pq.decompress(&compressed, &mut out, Some(PAGE)).unwrap(),
                PAGE
            );
            assert!(out == *page, "arrow-rs {case}");

            group.bench_function(format!("strata/{case}"), |b| {
                b.iter(|| {
                    out.clear();
                    strata
                        .decompress(black_box(&compressed), &mut out, PAGE)
                        .unwrap();
                    black_box(out.len())
                })
            });
            group.bench_function(format!("arrow-rs/{case}"), |b| {
                b.iter(|| {
                    out.clear();
                    black_box(
                        pq.decompress(black_box(&compressed), &mut out, Some(PAGE))
                            .unwrap(),
                    )
                })
            });
            group.bench_function(format!("memcpy/{case}"), |b| {
                b.iter(|| {
                    out.clear();
                    out.extend_from_slice(black_box(&page[..]));
                    black_box(out.len())
                })
            });
        }
    }
    group.finish();
}

// ---------------------------------------------------------------------------
// Column chunk inputs

/// One column chunk's input: INT64 (required) or strings (optional).
enum Column {
    I64(Vec<i64>),
    Str {
        /// One level per row: 1 present, 0 null.
        defs: Vec<i16>,
        /// The present values, as offsets into `values`.
        offsets: Vec<i32>,
        values: Vec<u8>,
        /// The same present values for arrow-rs.
        pq: Vec<PqByteArray>,
    },
}

/// 1M strings of 24 bytes drawn from 1,000 distinct values, 10% null.
fn string_column(seed: u64) -> Column {
    let (dict_offsets, dict_values) = fixed_width_strings(1_000, 24, seed);
    let mut rng = XorShift::new(seed + 1);
    let mut defs = Vec::with_capacity(N);
    let mut offsets = vec![0i32];
    let mut values = Vec::with_capacity(N * 24);
    for _ in 0..N {
        if rng.next_u64().is_multiple_of(10) {
            defs.push(0);
            continue;
        }
        defs.push(1);
        let i = (rng.next_u64() % 1_000) as usize;
        values.extend_from_slice(
            &dict_values[dict_offsets[i] as usize..dict_offsets[i + 1] as usize],
        );
        offsets.push(values.len() as i32);
    }
    let all = Bytes::from(values.clone());
    let pq = offsets
        .windows(2)
        .map(|w| PqByteArray::from(all.slice(w[0] as usize..w[1] as usize)))
        .collect();
    Column::Str {
        defs,
        offsets,
        values,
        pq,
    }
}

fn strata_schema(column: &Column) -> Arc<SchemaDescriptor> {
    let (ty, rep) = match column {
        Column::I64(_) => (Type::Int64, FieldRepetitionType::Required),
        Column::Str { .. } => (Type::ByteArray, FieldRepetitionType::Optional),
    };
    strata_benches::data::one_column_schema(ty, rep, None, None)
}

fn pq_schema(column: &Column) -> Arc<PqSchemaType> {
    let message = match column {
        Column::I64(_) => "message schema { required int64 c; }",
        Column::Str { .. } => "message schema { optional binary c; }",
    };
    Arc::new(parse_message_type(message).unwrap())
}

/// Write `column` as a one-column, one-row-group file into `out`.
fn strata_write(
    out: &mut Vec<u8>,
    schema: &Arc<SchemaDescriptor>,
    props: &Arc<WriterProperties>,
    column: &Column,
) {
    out.clear();
    let mut writer = FileWriter::new(&mut *out, Arc::clone(schema), Arc::clone(props)).unwrap();
    let mut row_group = writer.next_row_group().unwrap();
    let mut col = row_group.next_column().unwrap().unwrap();
    match column {
        Column::I64(values) => {
            col.typed::<i64>()
                .unwrap()
                .write_batch(values, None, None)
                .unwrap();
        }
        Column::Str {
            defs,
            offsets,
            values,
            ..
        } => {
            let batch = ByteArrayBatch::from_offsets(offsets, values).unwrap();
            col.typed::<ByteArray>()
                .unwrap()
                .write_values(batch, Some(defs), None)
                .unwrap();
        }
    }
    row_group.append_column(col.close().unwrap()).unwrap();
    row_group.close().unwrap();
    writer.close().unwrap();
}

/// The same file through arrow-rs.
fn pq_write(
    out: &mut Vec<u8>,
    schema: &Arc<PqSchemaType>,
    props: &Arc<PqWriterProperties>,
    column: &Column,
) {
    out.clear();
    let mut writer =
        SerializedFileWriter::new(&mut *out, Arc::clone(schema), Arc::clone(props)).unwrap();
    let mut row_group = writer.next_row_group().unwrap();
    let mut col = row_group.next_column().unwrap().unwrap();
    match column {
        Column::I64(values) => {
            col.typed::<Int64Type>()
                .write_batch(values, None, None)
                .unwrap();
        }
        Column::Str { defs, pq, .. } => {
            col.typed::<ByteArrayType>()
                .write_batch(pq, Some(defs), None)
                .unwrap();
        }
    }
    col.close().unwrap();
    row_group.close().unwrap();
    writer.close().unwrap();
}

fn columns() -> Vec<(&'static str, Column)> {
    vec![
        ("i64_random", Column::I64(random_i64(N, 0xF11E))),
        ("i64_sorted", Column::I64(sorted_i64(N, 0xF11F))),
        ("str24_dict1000_nulls10", string_column(0xF120)),
    ]
}

// ---------------------------------------------------------------------------
// Readers

/// What a reader hands back: values and definition levels, in reused
/// buffers.
#[derive(Default)]
struct StrataOut {
    i64s: Vec<i64>,
    defs: Vec<i16>,
    strings: ByteArrayBuffer<i32>,
}

#[derive(Default)]
struct PqOut {
    i64s: Vec<i64>,
    defs: Vec<i16>,
    strings: Vec<PqByteArray>,
}

/// Read column 0 of row group 0 with strata-file's reader and page reader
/// and strata-encoding's decoders.
fn strata_read(file: &Bytes, out: &mut StrataOut) {
    out.i64s.clear();
    out.defs.clear();
    out.strings.clear();
    let reader = StrataFileReader::new(file.clone()).unwrap();
    let row_group = reader.row_group(0).unwrap();
    let max_def = row_group.column_descriptor(0).unwrap().max_def_level;
    let physical = row_group.column_descriptor(0).unwrap().physical_type;
    let pages: Vec<Page> = row_group
        .page_reader(0)
        .unwrap()
        .map(|p| p.unwrap())
        .collect();
    let mut i64_dict = DictDecoder::<i64>::new();
    let mut i64_plain = PlainDecoder::<i64>::new();
    let mut str_dict = DictDecoder::<ByteArray>::new();
    let mut str_plain = PlainByteArrayDecoder::new();
    let mut levels = LevelDecoder::new(max_def).unwrap();
    for page in &pages {
        match page {
            Page::DictionaryPage {
                buf, num_values, ..
            } => match physical {
                Type::Int64 => i64_dict.set_dict(buf, *num_values as usize).unwrap(),
                _ => str_dict.set_dict(buf, *num_values as usize).unwrap(),
            },
            Page::DataPage {
                buf,
                num_values,
                encoding,
                ..
            } => {
                let n = *num_values as usize;
                let (data, present) = if max_def > 0 {
                    let used = levels.set_rle_v1(buf, n).unwrap();
                    let start = out.defs.len();
                    out.defs.resize(start + n, 0);
                    assert_eq!(levels.decode(&mut out.defs[start..]).unwrap(), n);
                    let present = out.defs[start..].iter().filter(|&&l| l == max_def).count();
                    (&buf[used..], present)
                } else {
                    (&buf[..], n)
                };
                let dict = matches!(
                    encoding,
                    FormatEncoding::PlainDictionary | FormatEncoding::RleDictionary
                );
                match physical {
                    Type::Int64 => {
                        let start = out.i64s.len();
                        out.i64s.resize(start + present, 0);
                        let dst = &mut out.i64s[start..];
                        let got = if dict {
                            i64_dict.set_data(data, present).unwrap();
                            i64_dict.decode(dst, present).unwrap()
                        } else {
                            i64_plain.set_data(data, present).unwrap();
                            i64_plain.decode(dst, present).unwrap()
                        };
                        assert_eq!(got, present);
                    }
                    _ => {
                        let got = if dict {
                            str_dict.set_data(data, present).unwrap();
                            str_dict.decode(&mut out.strings, present).unwrap()
                        } else {
                            str_plain.set_data(data, present).unwrap();
                            str_plain.decode(&mut out.strings, present).unwrap()
                        };
                        assert_eq!(got, present);
                    }
                }
            }
            Page::DataPageV2 { .. } => panic!("the benchmark writes v1 pages"),
        }
    }
}

/// Read column 0 of row group 0 with arrow-rs's `SerializedFileReader` and
/// `ColumnReaderImpl::read_records`.
fn pq_read(file: &Bytes, out: &mut PqOut) {
    out.i64s.clear();
    out.defs.clear();
    out.strings.clear();
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let row_group = reader.get_row_group(0).unwrap();
    let column = row_group.get_column_reader(0).unwrap();
    let optional = row_group
        .metadata()
        .column(0)
        .column_descr()
        .max_def_level()
        > 0;
    match column {
        parquet::column::reader::ColumnReader::Int64ColumnReader(_) => {
            let mut r = get_typed_column_reader::<Int64Type>(column);
            while r.read_records(N, None, None, &mut out.i64s).unwrap().0 > 0 {}
        }
        _ => {
            let mut r = get_typed_column_reader::<ByteArrayType>(column);
            let defs = optional.then_some(&mut out.defs);
            let mut defs = defs;
            while r
                .read_records(N, defs.as_deref_mut(), None, &mut out.strings)
                .unwrap()
                .0
                > 0
            {}
        }
    }
}

fn check_read(column: &Column, strata: &StrataOut, pq: &PqOut, what: &str) {
    match column {
        Column::I64(values) => {
            assert!(strata.i64s == *values, "strata read {what}");
            assert!(pq.i64s == *values, "arrow-rs read {what}");
        }
        Column::Str {
            defs,
            offsets,
            values,
            ..
        } => {
            assert!(strata.defs == *defs, "strata levels {what}");
            assert!(pq.defs == *defs, "arrow-rs levels {what}");
            let expected = offsets
                .windows(2)
                .map(|w| &values[w[0] as usize..w[1] as usize]);
            assert_eq!(strata.strings.len(), offsets.len() - 1);
            assert_eq!(pq.strings.len(), offsets.len() - 1);
            for ((e, s), p) in expected.zip(strata.strings.iter()).zip(&pq.strings) {
                assert_eq!(e, s, "strata values {what}");
                assert_eq!(e, p.data(), "arrow-rs values {what}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 2. Column chunk write

fn column_write(c: &mut Criterion) {
    // Default settings on both sides: PARQUET_1_0, 1 MiB data pages, 20,000
    // rows per page, dictionary on (1 MiB dictionary page limit),
    // uncompressed, page statistics and page indexes.
    let props = Arc::new(WriterProperties::default());
    let pq_props = Arc::new(PqWriterProperties::default());
    assert_eq!(
        props.data_page_size_limit(),
        pq_props.data_page_size_limit()
    );
    assert_eq!(
        props.dictionary_page_size_limit(),
        pq_props.dictionary_page_size_limit()
    );
    assert_eq!(
        props.data_page_row_count_limit(),
        pq_props.data_page_row_count_limit()
    );
    assert_eq!(props.write_batch_size(), pq_props.write_batch_size());
    assert_eq!(
        props.writer_version().as_num(),
        pq_props.writer_version().as_num()
    );

    let mut group = c.benchmark_group("column_write");
    group.throughput(Throughput::Elements(N as u64));
    for (case, column) in columns() {
        let schema = strata_schema(&column);
        let pq_schema = pq_schema(&column);
        let mut out = Vec::with_capacity(32 << 20);

        // arrow-rs reads what strata writes (and its own file) to the input.
        strata_write(&mut out, &schema, &props, &column);
        let strata_file = Bytes::from(out.clone());
        pq_write(&mut out, &pq_schema, &pq_props, &column);
        let pq_file = Bytes::from(out.clone());
        let (mut s_out, mut p_out) = (StrataOut::default(), PqOut::default());
        strata_read(&strata_file, &mut s_out);
        pq_read(&strata_file, &mut p_out);
        check_read(&column, &s_out, &p_out, case);
        strata_read(&pq_file, &mut s_out);
        pq_read(&pq_file, &mut p_out);
        check_read(&column, &s_out, &p_out, case);
        eprintln!(
            "column_write/{case}: strata file {} bytes, arrow-rs file {} bytes",
            strata_file.len(),
            pq_file.len()
        );

        group.bench_function(format!("strata/{case}"), |b| {
            b.iter(|| {
                strata_write(&mut out, &schema, &props, black_box(&column));
                black_box(out.len())
            })
        });
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            b.iter(|| {
                pq_write(&mut out, &pq_schema, &pq_props, black_box(&column));
                black_box(out.len())
            })
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------
// 3. Column chunk read

fn column_read(c: &mut Criterion) {
    let props = Arc::new(WriterProperties::default());
    let mut group = c.benchmark_group("column_read");
    group.throughput(Throughput::Elements(N as u64));
    for (case, column) in columns() {
        // Both read the file strata writes (arrow-rs reads it; checked above
        // and again here).
        let mut out = Vec::new();
        strata_write(&mut out, &strata_schema(&column), &props, &column);
        let file = Bytes::from(out);
        let (mut s_out, mut p_out) = (StrataOut::default(), PqOut::default());
        strata_read(&file, &mut s_out);
        pq_read(&file, &mut p_out);
        check_read(&column, &s_out, &p_out, case);

        group.bench_function(format!("strata/{case}"), |b| {
            b.iter(|| {
                strata_read(black_box(&file), &mut s_out);
                black_box(s_out.i64s.len() + s_out.strings.len())
            })
        });
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            b.iter(|| {
                pq_read(black_box(&file), &mut p_out);
                black_box(p_out.i64s.len() + p_out.strings.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, page_decompress, column_write, column_read);
criterion_main!(benches);
