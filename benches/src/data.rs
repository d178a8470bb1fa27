//! Deterministic inputs for the benchmarks.

use strata_sink::rle::RleEncoder;

/// A small xorshift generator: deterministic, no dependency.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next pseudo-random `u64`.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// `count` random values of `bit_width` bits, and those values packed
/// LSB-first (plus 8 padding bytes).
pub fn packed_values(count: usize, bit_width: u32, seed: u64) -> (Vec<u64>, Vec<u8>) {
    let mut rng = XorShift::new(seed);
    let mask = if bit_width == 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    let values: Vec<u64> = (0..count).map(|_| rng.next_u64() & mask).collect();
    let mut w = strata_sink::BitWriter::new();
    for &v in &values {
        w.put_value(v, bit_width);
    }
    let mut packed = w.into_vec();
    packed.extend_from_slice(&[0; 8]);
    (values, packed)
}

/// An RLE/bit-packed hybrid stream of `count` values shaped like definition
/// levels or dictionary indices: runs of repeats mixed with random stretches.
pub fn rle_stream(count: usize, bit_width: u32, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mask = if bit_width >= 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    let mut enc = RleEncoder::new(bit_width);
    let mut written = 0;
    while written < count {
        let len = (rng.next_u64() % 64 + 1) as usize;
        let len = len.min(count - written);
        if rng.next_u64().is_multiple_of(2) {
            enc.put_repeated(rng.next_u64() & mask, len);
        } else {
            for _ in 0..len {
                enc.put(rng.next_u64() & mask);
            }
        }
        written += len;
    }
    enc.finish()
}

/// The Thrift-encoded `FileMetaData` of a wide file: `columns` leaf columns
/// (INT64, DOUBLE, UTF-8 strings and optional INT32 in turn) and
/// `row_groups` row groups, each chunk with statistics, encoding stats and
/// page-index offsets, as a writer such as arrow-rs or pyarrow produces them.
// The statistics bounds set below are at most 16 bytes: setting them
// cannot fail.
#[allow(clippy::unwrap_used)]
pub fn wide_footer(columns: usize, row_groups: usize) -> Vec<u8> {
    use strata_format::metadata::{
        ColumnChunk, ColumnMetaData, CompressionCodec, Encoding, FieldRepetitionType, FileMetaData,
        LogicalType, PageEncodingStats, PageType, RowGroup, SchemaElement, Statistics, Type,
    };

    let kind = |i: usize| i % 4;
    let mut schema = vec![SchemaElement {
        name: "schema".into(),
        num_children: Some(columns as i32),
        ..Default::default()
    }];
    for i in 0..columns {
        let (ty, logical, repetition) = match kind(i) {
            0 => (Type::Int64, None, FieldRepetitionType::Required),
            1 => (Type::Double, None, FieldRepetitionType::Required),
            2 => (
                Type::ByteArray,
                Some(LogicalType::String),
                FieldRepetitionType::Optional,
            ),
            _ => (Type::Int32, None, FieldRepetitionType::Optional),
        };
        schema.push(SchemaElement {
            physical_type: Some(ty),
            repetition_type: Some(repetition),
            name: format!("column_{i:04}"),
            logical_type: logical,
            ..Default::default()
        });
    }
    let mut offset = 4i64;
    let mut groups = Vec::with_capacity(row_groups);
    for g in 0..row_groups {
        let mut chunks = Vec::with_capacity(columns);
        for i in 0..columns {
            let (ty, min, max): (Type, Vec<u8>, Vec<u8>) = match kind(i) {
                0 => (
                    Type::Int64,
                    (g as i64 * 1000).to_le_bytes().to_vec(),
                    (g as i64 * 1000 + 999).to_le_bytes().to_vec(),
                ),
                1 => (
                    Type::Double,
                    (-1.5f64).to_le_bytes().to_vec(),
                    (1e9f64 + i as f64).to_le_bytes().to_vec(),
                ),
                2 => (
                    Type::ByteArray,
                    b"aardvark".to_vec(),
                    format!("zebra_{i}").into_bytes(),
                ),
                _ => (
                    Type::Int32,
                    0i32.to_le_bytes().to_vec(),
                    (i as i32).to_le_bytes().to_vec(),
                ),
            };
            let size = 10_000 + i as i64;
            let meta = ColumnMetaData {
                physical_type: ty,
                encodings: vec![Encoding::Plain, Encoding::Rle, Encoding::RleDictionary].into(),
                path_in_schema: vec![format!("column_{i:04}")].into(),
                codec: CompressionCodec::Snappy,
                num_values: 100_000,
                total_uncompressed_size: size * 2,
                total_compressed_size: size,
                data_page_offset: offset + 100,
                dictionary_page_offset: Some(offset),
                statistics: Some({
                    let mut s = Statistics::default();
                    s.null_count = Some((i % 7) as i64);
                    s.set_max_value(Some(&max)).unwrap();
                    s.set_min_value(Some(&min)).unwrap();
                    s.is_max_value_exact = Some(true);
                    s.is_min_value_exact = Some(true);
                    s
                }),
                encoding_stats: Some(
                    vec![
                        PageEncodingStats {
                            page_type: PageType::DictionaryPage,
                            encoding: Encoding::Plain,
                            count: 1,
                        },
                        PageEncodingStats {
                            page_type: PageType::DataPage,
                            encoding: Encoding::RleDictionary,
                            count: 3,
                        },
                    ]
                    .into(),
                ),
                size_statistics: None,
                extras: None,
            };
            chunks.push(ColumnChunk {
                file_offset: offset,
                meta_data: Some(meta),
                offset_index_offset: Some(1_000_000_000 + offset),
                offset_index_length: Some(40),
                column_index_offset: Some(2_000_000_000 + offset),
                column_index_length: Some(60),
                ..Default::default()
            });
            offset += size;
        }
        groups.push(RowGroup {
            columns: chunks,
            total_byte_size: 20_000 * columns as i64,
            num_rows: 100_000,
            file_offset: Some(4),
            total_compressed_size: Some(10_000 * columns as i64),
            ordinal: Some(g as i16),
            ..Default::default()
        });
    }
    let metadata = FileMetaData {
        version: 2,
        schema,
        num_rows: 100_000 * row_groups as i64,
        row_groups: groups,
        created_by: Some("strata benchmark generator".into()),
        ..Default::default()
    };
    let mut sink = strata_sink::ByteSink::new();
    strata_format::thrift::encode(&metadata, &mut sink);
    sink.into_vec()
}

/// `count` byte strings of exactly `width` bytes each (random lower-case
/// letters), in the Arrow layout: `count + 1` offsets into one buffer.
pub fn fixed_width_strings(count: usize, width: usize, seed: u64) -> (Vec<i32>, Vec<u8>) {
    let mut rng = XorShift::new(seed);
    let values: Vec<u8> = (0..count * width)
        .map(|_| b'a' + (rng.next_u64() % 26) as u8)
        .collect();
    let offsets = (0..=count).map(|i| (i * width) as i32).collect();
    (offsets, values)
}

/// `count * width` random bytes: `count` FIXED_LEN_BYTE_ARRAY values.
pub fn fixed_len_values(count: usize, width: usize, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    (0..count * width).map(|_| rng.next_u64() as u8).collect()
}

/// An LSB-first validity bitmap of `count` slots where about one slot in
/// `one_null_in` is null (0 for none); the first slot is always valid.
pub fn sparse_validity(count: usize, one_null_in: u64, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut bitmap = vec![0u8; count.div_ceil(8)];
    for i in 0..count {
        let null = one_null_in != 0 && i != 0 && rng.next_u64().is_multiple_of(one_null_in);
        if !null {
            bitmap[i / 8] |= 1 << (i % 8);
        }
    }
    bitmap
}

/// `count` ascending `i64` values with small random steps (0..16), like
/// timestamps or row ids.
pub fn sorted_i64(count: usize, seed: u64) -> Vec<i64> {
    let mut rng = XorShift::new(seed);
    let mut v = 1_700_000_000_000i64;
    (0..count)
        .map(|_| {
            v += (rng.next_u64() % 16) as i64;
            v
        })
        .collect()
}

/// `count` ascending `i32` values with small random steps (0..16).
pub fn sorted_i32(count: usize, seed: u64) -> Vec<i32> {
    let mut rng = XorShift::new(seed);
    let mut v = -1_000_000i32;
    (0..count)
        .map(|_| {
            v += (rng.next_u64() % 16) as i32;
            v
        })
        .collect()
}

/// `count` uniformly random `i64` values over the whole range.
pub fn random_i64(count: usize, seed: u64) -> Vec<i64> {
    let mut rng = XorShift::new(seed);
    (0..count).map(|_| rng.next_u64() as i64).collect()
}

/// `count` uniformly random `i32` values over the whole range.
pub fn random_i32(count: usize, seed: u64) -> Vec<i32> {
    let mut rng = XorShift::new(seed);
    (0..count).map(|_| (rng.next_u64() >> 32) as i32).collect()
}

/// `count` sensor-like `f64` readings: a slow random walk with noise.
pub fn random_f64(count: usize, seed: u64) -> Vec<f64> {
    let mut rng = XorShift::new(seed);
    let mut level = 20.0f64;
    (0..count)
        .map(|_| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            level += (u - 0.5) * 0.1;
            level + u * 0.01
        })
        .collect()
}

/// `count` sensor-like `f32` readings (see [`random_f64`]).
pub fn random_f32(count: usize, seed: u64) -> Vec<f32> {
    random_f64(count, seed)
        .into_iter()
        .map(|v| v as f32)
        .collect()
}

/// `count` strings with long shared prefixes, in the Arrow layout: sorted
/// keys such as `tenant-0003/region-eu-west/bucket-0042/object-00012345-x7`,
/// where the tenant changes every 65,536 values, the bucket every 256 and a
/// random tail of 0..8 letters ends each value.
pub fn prefixed_strings(count: usize, seed: u64) -> (Vec<i32>, Vec<u8>) {
    let mut rng = XorShift::new(seed);
    let regions = ["us-east", "eu-west", "ap-south"];
    let mut offsets = Vec::with_capacity(count + 1);
    let mut values = Vec::new();
    offsets.push(0);
    for i in 0..count {
        let tenant = i / 65_536;
        let region = regions[tenant % regions.len()];
        let bucket = i / 256;
        values.extend_from_slice(
            format!("tenant-{tenant:04}/region-{region}/bucket-{bucket:04}/object-{i:08}-")
                .as_bytes(),
        );
        let tail = rng.next_u64() % 8;
        for _ in 0..tail {
            values.push(b'a' + (rng.next_u64() % 26) as u8);
        }
        offsets.push(values.len() as i32);
    }
    (offsets, values)
}

/// Byte strings of 4..=32 random letters, `count` of them, distinct, in the
/// Arrow layout (a byte-array dictionary).
pub fn distinct_strings(count: usize, seed: u64) -> (Vec<i32>, Vec<u8>) {
    let mut rng = XorShift::new(seed);
    let mut offsets = Vec::with_capacity(count + 1);
    let mut values = Vec::new();
    offsets.push(0);
    for i in 0..count {
        // A unique stem keeps the entries distinct.
        values.extend_from_slice(format!("{i:x}_").as_bytes());
        let len = 4 + rng.next_u64() % 29;
        for _ in 0..len.saturating_sub(4) {
            values.push(b'a' + (rng.next_u64() % 26) as u8);
        }
        offsets.push(values.len() as i32);
    }
    (offsets, values)
}

/// The PLAIN encoding of byte arrays in the Arrow layout (4-byte
/// little-endian length, then the bytes), written by hand.
pub fn plain_byte_array_page(offsets: &[i32], values: &[u8]) -> Vec<u8> {
    let mut page = Vec::new();
    for w in offsets.windows(2) {
        let v = &values[w[0] as usize..w[1] as usize];
        page.extend_from_slice(&(v.len() as u32).to_le_bytes());
        page.extend_from_slice(v);
    }
    page
}

/// A dictionary data page: one byte of index bit width, then `count`
/// indices below `dict_len` as an RLE/bit-packed hybrid stream, shaped like
/// a real column (runs of repeats mixed with random stretches). Returns the
/// page and the indices it holds.
pub fn dict_indices_page(count: usize, dict_len: usize, seed: u64) -> (Vec<u8>, Vec<u32>) {
    let mut rng = XorShift::new(seed);
    let width = match dict_len {
        0 | 1 => 1,
        n => usize::BITS - (n - 1).leading_zeros(),
    };
    let mut indices = Vec::with_capacity(count);
    while indices.len() < count {
        let len = ((rng.next_u64() % 64 + 1) as usize).min(count - indices.len());
        if rng.next_u64().is_multiple_of(4) {
            let v = (rng.next_u64() % dict_len as u64) as u32;
            indices.extend(std::iter::repeat_n(v, len));
        } else {
            for _ in 0..len {
                indices.push((rng.next_u64() % dict_len as u64) as u32);
            }
        }
    }
    let mut enc = RleEncoder::new(width);
    for &i in &indices {
        enc.put(u64::from(i));
    }
    let mut page = vec![width as u8];
    page.extend_from_slice(&enc.finish());
    (page, indices)
}

/// The optional-column report's record-reader column (`../shared/seeds/004_*.txt`): `rows` strings of 24 bytes
/// (`value-` and 18 digits) drawn from `distinct` values, back to back.
pub fn optional_report_strings(rows: usize, distinct: usize, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut values = Vec::with_capacity(rows * 24);
    for _ in 0..rows {
        let v = format!("value-{:018}", rng.next_u64() % distinct.max(1) as u64);
        values.extend_from_slice(v.as_bytes());
    }
    values
}

/// A one-column, one-row-group file of the strings `offsets` + `values`
/// (a `required` or an `optional` UTF-8 BYTE_ARRAY column, no nulls),
/// dictionary encoded with a dictionary page limit of
/// `dictionary_page_size_limit` bytes, written by strata-file.
///
/// # Panics
/// If the input is malformed (benchmark setup only).
#[allow(clippy::unwrap_used)]
pub fn one_string_column_file(
    offsets: &[i32],
    values: &[u8],
    optional: bool,
    dictionary_page_size_limit: usize,
) -> Vec<u8> {
    use std::sync::Arc;
    use strata_encoding::{ByteArray, ByteArrayBatch};
    use strata_file::properties::WriterProperties;
    use strata_file::writer::FileWriter;
    use strata_format::metadata::{ConvertedType, FieldRepetitionType, LogicalType, Type};

    let rows = offsets.len().saturating_sub(1);
    let rep = if optional {
        FieldRepetitionType::Optional
    } else {
        FieldRepetitionType::Required
    };
    let schema = one_column_schema(
        Type::ByteArray,
        rep,
        Some(ConvertedType::Utf8),
        Some(LogicalType::String),
    );
    let props = Arc::new(
        WriterProperties::builder()
            .set_dictionary_enabled(true)
            .set_dictionary_page_size_limit(dictionary_page_size_limit)
            .set_max_row_group_row_count(Some(rows))
            .build(),
    );
    let mut out = Vec::new();
    let mut writer = FileWriter::new(&mut out, schema, props).unwrap();
    let mut row_group = writer.next_row_group().unwrap();
    let mut col = row_group.next_column().unwrap().unwrap();
    let defs = vec![1i16; rows];
    let batch = ByteArrayBatch::from_offsets(offsets, values).unwrap();
    col.typed::<ByteArray>()
        .unwrap()
        .write_values(batch, optional.then_some(&defs[..]), None)
        .unwrap();
    row_group.append_column(col.close().unwrap()).unwrap();
    row_group.close().unwrap();
    writer.close().unwrap();
    out
}

/// The schema of a file with one column `c` of `physical` type under the
/// root `schema`.
///
/// # Panics
/// Never for the types the benchmarks use (setup only).
#[allow(clippy::unwrap_used)]
pub fn one_column_schema(
    physical: strata_format::metadata::Type,
    repetition: strata_format::metadata::FieldRepetitionType,
    converted_type: Option<strata_format::metadata::ConvertedType>,
    logical_type: Option<strata_format::metadata::LogicalType>,
) -> std::sync::Arc<strata_format::SchemaDescriptor> {
    use strata_format::metadata::SchemaElement;
    std::sync::Arc::new(
        strata_format::SchemaDescriptor::from_elements(&[
            SchemaElement {
                name: "schema".into(),
                num_children: Some(1),
                ..Default::default()
            },
            SchemaElement {
                name: "c".into(),
                physical_type: Some(physical),
                repetition_type: Some(repetition),
                converted_type,
                logical_type,
                ..Default::default()
            },
        ])
        .unwrap(),
    )
}

/// Open `file` (one BYTE_ARRAY column) and read it whole with
/// strata-record, `batch` records at a time, values materialised into
/// `out`; `keep_levels` as `set_flat_def_levels`. Returns the rows read.
///
/// # Panics
/// If the file cannot be read (benchmark inputs only).
#[allow(clippy::unwrap_used)]
pub fn read_string_column(
    file: &bytes::Bytes,
    batch: usize,
    keep_levels: bool,
    out: &mut strata_record::RecordBatchBuffers<strata_encoding::ByteArrayBuffer>,
) -> usize {
    let reader = strata_file::serialized_reader::SerializedFileReader::new(file.clone()).unwrap();
    let row_group = reader.row_group(0).unwrap();
    let descr = row_group.column_descriptor(0).unwrap().clone();
    let mut records = strata_record::ColumnRecordReader::<strata_encoding::ByteArray>::new(
        row_group.page_reader(0).unwrap(),
        descr,
    )
    .unwrap();
    records.set_flat_def_levels(keep_levels);
    let mut rows = 0;
    loop {
        let n = records.read_records(batch, out).unwrap();
        if n == 0 {
            return rows;
        }
        rows += n;
        std::hint::black_box(&out.values);
    }
}

/// A batch of `columns` columns and `rows` rows, cycling through four
/// column types: required `Int64`, required `Float64`, optional `Utf8`
/// (one null in five) and optional `Int32` (one null in three), named
/// `column_00000`, ...
///
/// # Panics
/// Never (benchmark setup only).
#[allow(clippy::unwrap_used)]
pub fn wide_batch(columns: usize, rows: usize) -> arrow_array::RecordBatch {
    use arrow_array::{ArrayRef, Float64Array, Int32Array, Int64Array, StringArray};
    use std::sync::Arc;

    let arrays = (0..columns).map(|i| {
        let array: ArrayRef = match i % 4 {
            0 => Arc::new(Int64Array::from_iter_values(
                (0..rows as i64).map(|v| v * 7 + i as i64),
            )),
            1 => Arc::new(Float64Array::from_iter_values(
                (0..rows).map(|v| v as f64 * 0.5),
            )),
            2 => Arc::new(StringArray::from_iter(
                (0..rows).map(|v| (v % 5 != 0).then(|| format!("s{}", v % 37))),
            )),
            _ => Arc::new(Int32Array::from_iter(
                (0..rows as i32).map(|v| (v % 3 != 0).then_some(v)),
            )),
        };
        (format!("column_{i:05}"), array)
    });
    arrow_array::RecordBatch::try_from_iter(arrays).unwrap()
}

/// A file of [`wide_batch`]`(columns, 1000)` written by strata's
/// `ArrowWriter` `row_groups` times, one row group each (statistics, page
/// indexes and the embedded Arrow schema as written by default).
///
/// # Panics
/// Never (benchmark setup only).
#[allow(clippy::unwrap_used)]
pub fn wide_file(columns: usize, row_groups: usize) -> bytes::Bytes {
    let batch = wide_batch(columns, 1000);
    let props = strata_file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(batch.num_rows()))
        .build();
    let mut out = Vec::new();
    let mut writer =
        strata_arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    for _ in 0..row_groups {
        writer.write(&batch).unwrap();
    }
    writer.close().unwrap();
    bytes::Bytes::from(out)
}
