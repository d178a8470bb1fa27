//! Value encodings, strata-encoding against arrow-rs `parquet` on the same
//! values, with memcpy of the same bytes as the floor where that makes sense.
//!
//! Every workload checks once, outside the timed loop, that both sides agree:
//! decoders must produce the same values from the same page, and encoders
//! must produce pages the other side decodes to the input (byte-identical
//! pages where the two write the same layout).
//!
//! arrow-rs is driven through its public `Encoder` / `Decoder` traits. Its
//! `Encoder::put_spaced` is test-only, so the spaced cases run its own
//! default body (gather the valid values into a `Vec`, then `put`), which is
//! also what its generic column writer does for nullable columns.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::sync::Arc;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::basic::{Encoding as PqEncoding, Type as PhysicalType};
use parquet::data_type::{
    ByteArray as PqByteArray, ByteArrayType, DataType, DoubleType,
    FixedLenByteArray as PqFixedLenByteArray, FixedLenByteArrayType, FloatType, Int32Type,
    Int64Type,
};
use parquet::encodings::decoding::{
    Decoder as PqDecoder, DictDecoder as PqDictDecoder, PlainDecoder as PqPlainDecoder, get_decoder,
};
use parquet::encodings::encoding::{Encoder as PqEncoder, get_encoder};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor, ColumnPath, Type as SchemaType};
use strata_benches::data::{
    dict_indices_page, distinct_strings, fixed_len_values, fixed_width_strings,
    plain_byte_array_page, prefixed_strings, random_f32, random_f64, random_i32, random_i64,
    sorted_i32, sorted_i64, sparse_validity,
};
use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, ByteSink, ByteStreamSplitDecoder,
    ByteStreamSplitEncoder, ByteStreamSplitValue, Decoder, DeltaBinaryPackedDecoder,
    DeltaBinaryPackedEncoder, DeltaByteArrayDecoder, DeltaByteArrayEncoder, DeltaInt, DictDecoder,
    Encoder, FixedLenBatch, PlainByteArrayEncoder, PlainDecoder, PlainFixedLenByteArrayEncoder,
};

/// Values per workload (1,048,576).
const N: usize = 1 << 20;

fn descr(ty: PhysicalType, type_length: Option<i32>) -> ColumnDescPtr {
    let mut builder = SchemaType::primitive_type_builder("c", ty);
    if let Some(len) = type_length {
        builder = builder.with_length(len);
    }
    let ty = builder.build().unwrap();
    Arc::new(ColumnDescriptor::new(
        Arc::new(ty),
        1,
        0,
        ColumnPath::new(vec!["c".into()]),
    ))
}

fn get_bit(bitmap: &[u8], i: usize) -> bool {
    bitmap[i / 8] & (1 << (i % 8)) != 0
}

/// arrow-rs's own `Encoder::put_spaced` body (test-only there): gather the
/// valid values into a `Vec`, then `put` them.
fn pq_put_spaced<T: DataType>(
    enc: &mut dyn PqEncoder<T>,
    values: &[T::T],
    valid: &[u8],
    valid_offset: usize,
) {
    let mut buffer = Vec::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        if get_bit(valid, valid_offset + i) {
            buffer.push(v.clone());
        }
    }
    enc.put(&buffer).unwrap();
}

/// arrow-rs byte arrays over one shared buffer (no copy per value).
fn pq_byte_arrays(offsets: &[i32], values: &[u8]) -> Vec<PqByteArray> {
    let all = Bytes::from(values.to_vec());
    offsets
        .windows(2)
        .map(|w| PqByteArray::from(all.slice(w[0] as usize..w[1] as usize)))
        .collect()
}

fn strata_flush<T: strata_encoding::ValueType>(enc: &mut impl Encoder<T>) -> Vec<u8> {
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    page.into_vec()
}

// ---------------------------------------------------------------------------
// 1. PLAIN BYTE_ARRAY put

fn plain_byte_array_put(c: &mut Criterion) {
    let descr = descr(PhysicalType::BYTE_ARRAY, None);
    let all_valid = vec![0xFFu8; N.div_ceil(8)];
    // The inputs, built once for both groups.
    let inputs: Vec<_> = [4usize, 16, 64]
        .into_iter()
        .map(|width| {
            let (offsets, values) = fixed_width_strings(N, width, 0xB1 + width as u64);
            let pq_values = pq_byte_arrays(&offsets, &values);
            (width, offsets, values, pq_values)
        })
        .collect();
    for spaced in [false, true] {
        let name = if spaced {
            "plain_byte_array_put_spaced"
        } else {
            "plain_byte_array_put"
        };
        let mut group = c.benchmark_group(name);
        for (width, offsets, values, pq_values) in &inputs {
            let (width, offsets, values, pq_values) = (*width, offsets, values, pq_values);
            let total = N * (4 + width);

            let strata_put = || {
                let mut enc = PlainByteArrayEncoder::new();
                let batch = ByteArrayBatch::from_offsets(offsets, values).unwrap();
                if spaced {
                    enc.put_spaced(batch, &all_valid, 0).unwrap();
                } else {
                    enc.put(batch).unwrap();
                }
                strata_flush(&mut enc)
            };
            let pq_put = || {
                let mut enc = get_encoder::<ByteArrayType>(PqEncoding::PLAIN, &descr).unwrap();
                if spaced {
                    pq_put_spaced(enc.as_mut(), pq_values, &all_valid, 0);
                } else {
                    enc.put(pq_values).unwrap();
                }
                enc.flush_buffer().unwrap()
            };
            // Same layout on both sides: the pages must be identical.
            let page = strata_put();
            assert_eq!(page.len(), total);
            assert_eq!(&page[..], &pq_put()[..], "PLAIN BYTE_ARRAY w{width}");
            assert_eq!(page, plain_byte_array_page(offsets, values));

            group.throughput(Throughput::Bytes(total as u64));
            group.bench_function(format!("strata/w{width}"), |b| {
                b.iter(|| {
                    let mut enc = PlainByteArrayEncoder::new();
                    let batch = ByteArrayBatch::from_offsets(black_box(offsets), black_box(values))
                        .unwrap();
                    if spaced {
                        enc.put_spaced(batch, black_box(&all_valid), 0).unwrap();
                    } else {
                        enc.put(batch).unwrap();
                    }
                    black_box(strata_flush(&mut enc))
                })
            });
            group.bench_function(format!("arrow-rs/w{width}"), |b| {
                b.iter(|| {
                    let mut enc = get_encoder::<ByteArrayType>(PqEncoding::PLAIN, &descr).unwrap();
                    if spaced {
                        pq_put_spaced(enc.as_mut(), black_box(pq_values), &all_valid, 0);
                    } else {
                        enc.put(black_box(pq_values)).unwrap();
                    }
                    black_box(enc.flush_buffer().unwrap())
                })
            });
            // The floor: produce a new buffer holding the page's bytes.
            group.bench_function(format!("memcpy/w{width}"), |b| {
                b.iter(|| black_box(black_box(&page[..]).to_vec()))
            });
        }
        group.finish();
    }
}

// ---------------------------------------------------------------------------
// 2. PLAIN FIXED_LEN_BYTE_ARRAY put: many small puts

const FLBA_PUTS: usize = 64;

fn plain_flba_put(c: &mut Criterion) {
    let mut group = c.benchmark_group("plain_flba_put");
    for width in [4usize, 16, 32] {
        let descr = descr(PhysicalType::FIXED_LEN_BYTE_ARRAY, Some(width as i32));
        for rows in [1usize, 16] {
            let slots = rows * FLBA_PUTS;
            let bytes = fixed_len_values(slots, width, 0xF1 + (width * rows) as u64);
            let pq_values: Vec<PqFixedLenByteArray> = {
                let all = Bytes::from(bytes.clone());
                (0..slots)
                    .map(|i| {
                        PqFixedLenByteArray::from(PqByteArray::from(
                            all.slice(i * width..(i + 1) * width),
                        ))
                    })
                    .collect()
            };
            for nulls in [false, true] {
                // About one slot in eight is null in the sparse case.
                let validity = sparse_validity(slots, if nulls { 8 } else { 0 }, 0x5EED);
                let present: Vec<u8> = (0..slots)
                    .filter(|&i| get_bit(&validity, i))
                    .flat_map(|i| bytes[i * width..(i + 1) * width].iter().copied())
                    .collect();

                let strata_run = |bytes: &[u8], validity: &[u8]| {
                    let mut enc = PlainFixedLenByteArrayEncoder::new(width).unwrap();
                    for p in 0..FLBA_PUTS {
                        let chunk = &bytes[p * rows * width..(p + 1) * rows * width];
                        let batch = FixedLenBatch::new(width, chunk).unwrap();
                        if nulls {
                            enc.put_spaced(batch, validity, p * rows).unwrap();
                        } else {
                            enc.put(batch).unwrap();
                        }
                    }
                    strata_flush(&mut enc)
                };
                let pq_run = |values: &[PqFixedLenByteArray], validity: &[u8]| {
                    let mut enc =
                        get_encoder::<FixedLenByteArrayType>(PqEncoding::PLAIN, &descr).unwrap();
                    for p in 0..FLBA_PUTS {
                        let chunk = &values[p * rows..(p + 1) * rows];
                        if nulls {
                            pq_put_spaced(enc.as_mut(), chunk, validity, p * rows);
                        } else {
                            enc.put(chunk).unwrap();
                        }
                    }
                    enc.flush_buffer().unwrap()
                };
                let page = strata_run(&bytes, &validity);
                assert_eq!(page, present, "FLBA w{width} r{rows} nulls={nulls}");
                assert_eq!(&pq_run(&pq_values, &validity)[..], &page[..]);

                let case = format!(
                    "w{width}_r{rows}_{}",
                    if nulls { "sparse_nulls" } else { "valid" }
                );
                group.throughput(Throughput::Bytes(page.len() as u64));
                group.bench_function(format!("strata/{case}"), |b| {
                    b.iter(|| black_box(strata_run(black_box(&bytes), black_box(&validity))))
                });
                group.bench_function(format!("arrow-rs/{case}"), |b| {
                    b.iter(|| black_box(pq_run(black_box(&pq_values), black_box(&validity))))
                });
            }
        }
    }
    group.finish();
}

// ---------------------------------------------------------------------------
// 3. DELTA_BINARY_PACKED

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn dbp_strata_encode<T: DeltaInt>(values: &[T]) -> Vec<u8> {
    let mut enc = DeltaBinaryPackedEncoder::<T>::new();
    enc.put(values).unwrap();
    strata_flush(&mut enc)
}

fn dbp_pq_encode<P: DataType>(descr: &ColumnDescPtr, values: &[P::T]) -> Bytes {
    let mut enc = get_encoder::<P>(PqEncoding::DELTA_BINARY_PACKED, descr).unwrap();
    enc.put(values).unwrap();
    enc.flush_buffer().unwrap()
}

/// Both encoders' pages decode, on both sides, to `values`.
fn dbp_check<T: DeltaInt, P: DataType<T = T>>(descr: &ColumnDescPtr, case: &str, values: &[T]) {
    let page = dbp_strata_encode(values);
    let pq_page = dbp_pq_encode::<P>(descr, values);
    for (who, page) in [("strata", Bytes::from(page)), ("arrow-rs", pq_page)] {
        let mut out = vec![T::default(); values.len()];
        let mut dec = get_decoder::<P>(descr.clone(), PqEncoding::DELTA_BINARY_PACKED).unwrap();
        dec.set_data(page.clone(), values.len()).unwrap();
        assert_eq!(dec.get(&mut out).unwrap(), values.len());
        assert!(out == values, "arrow-rs decoding {who}'s {case}");
        out.fill(T::default());
        let mut dec = DeltaBinaryPackedDecoder::<T>::new();
        dec.set_data(&page, values.len()).unwrap();
        assert_eq!(dec.decode(&mut out, values.len()).unwrap(), values.len());
        assert!(out == values, "strata decoding {who}'s {case}");
    }
}

fn dbp_encode_case<T: DeltaInt, P: DataType<T = T>>(
    group: &mut Group<'_>,
    descr: &ColumnDescPtr,
    case: &str,
    values: &[T],
) {
    dbp_check::<T, P>(descr, case, values);
    group.throughput(Throughput::Elements(values.len() as u64));
    group.bench_function(format!("strata/{case}"), |b| {
        b.iter(|| black_box(dbp_strata_encode(black_box(values))))
    });
    group.bench_function(format!("arrow-rs/{case}"), |b| {
        b.iter(|| black_box(dbp_pq_encode::<P>(descr, black_box(values))))
    });
}

fn dbp_decode_case<T: DeltaInt, P: DataType<T = T>>(
    group: &mut Group<'_>,
    descr: &ColumnDescPtr,
    case: &str,
    values: &[T],
) {
    // Both decode strata's page (checked above to decode on both sides).
    let page = dbp_strata_encode(values);
    let bytes = Bytes::from(page.clone());
    let n = values.len();
    let mut out = vec![T::default(); n];
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(format!("strata/{case}"), |b| {
        b.iter(|| {
            let mut dec = DeltaBinaryPackedDecoder::<T>::new();
            dec.set_data(black_box(&page), n).unwrap();
            black_box(dec.decode(&mut out, n).unwrap())
        })
    });
    group.bench_function(format!("arrow-rs/{case}"), |b| {
        b.iter(|| {
            let mut dec = get_decoder::<P>(descr.clone(), PqEncoding::DELTA_BINARY_PACKED).unwrap();
            dec.set_data(black_box(bytes.clone()), n).unwrap();
            black_box(dec.get(&mut out).unwrap())
        })
    });
}

fn delta_binary_packed(c: &mut Criterion) {
    let d32 = descr(PhysicalType::INT32, None);
    let d64 = descr(PhysicalType::INT64, None);
    let sorted32 = sorted_i32(N, 31);
    let random32 = random_i32(N, 32);
    let sorted64 = sorted_i64(N, 63);
    let random64 = random_i64(N, 64);

    let mut group = c.benchmark_group("delta_binary_packed_encode");
    dbp_encode_case::<i32, Int32Type>(&mut group, &d32, "i32_sorted", &sorted32);
    dbp_encode_case::<i32, Int32Type>(&mut group, &d32, "i32_random", &random32);
    dbp_encode_case::<i64, Int64Type>(&mut group, &d64, "i64_sorted", &sorted64);
    dbp_encode_case::<i64, Int64Type>(&mut group, &d64, "i64_random", &random64);
    group.finish();

    let mut group = c.benchmark_group("delta_binary_packed_decode");
    dbp_decode_case::<i32, Int32Type>(&mut group, &d32, "i32_sorted", &sorted32);
    dbp_decode_case::<i32, Int32Type>(&mut group, &d32, "i32_random", &random32);
    dbp_decode_case::<i64, Int64Type>(&mut group, &d64, "i64_sorted", &sorted64);
    dbp_decode_case::<i64, Int64Type>(&mut group, &d64, "i64_random", &random64);
    group.finish();
}

// ---------------------------------------------------------------------------
// 4a. DELTA_BYTE_ARRAY

fn delta_byte_array(c: &mut Criterion) {
    let descr = descr(PhysicalType::BYTE_ARRAY, None);
    let (offsets, values) = prefixed_strings(N, 0xDBA);
    let pq_values = pq_byte_arrays(&offsets, &values);
    let n = pq_values.len();

    let strata_encode = |offsets: &[i32], values: &[u8]| {
        let mut enc = DeltaByteArrayEncoder::new();
        enc.put(ByteArrayBatch::from_offsets(offsets, values).unwrap())
            .unwrap();
        strata_flush(&mut enc)
    };
    let pq_encode = |values: &[PqByteArray]| {
        let mut enc = get_encoder::<ByteArrayType>(PqEncoding::DELTA_BYTE_ARRAY, &descr).unwrap();
        enc.put(values).unwrap();
        enc.flush_buffer().unwrap()
    };
    let page = strata_encode(&offsets, &values);
    let pq_page = pq_encode(&pq_values);
    let bytes = Bytes::from(page.clone());
    for (who, page) in [("strata", bytes.clone()), ("arrow-rs", pq_page)] {
        let mut dec =
            get_decoder::<ByteArrayType>(descr.clone(), PqEncoding::DELTA_BYTE_ARRAY).unwrap();
        dec.set_data(page.clone(), n).unwrap();
        let mut out = vec![PqByteArray::default(); n];
        assert_eq!(dec.get(&mut out).unwrap(), n);
        assert!(
            out == pq_values,
            "arrow-rs decoding {who}'s DELTA_BYTE_ARRAY"
        );
        let mut dec = DeltaByteArrayDecoder::<i32>::new();
        dec.set_data(&page, n).unwrap();
        let mut out = ByteArrayBuffer::<i32>::new();
        assert_eq!(dec.decode(&mut out, n).unwrap(), n);
        assert_eq!(out.offsets(), &offsets[..], "strata decoding {who}'s page");
        assert_eq!(out.values(), &values[..], "strata decoding {who}'s page");
    }

    let mut group = c.benchmark_group("delta_byte_array_encode");
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("strata/prefixed_strings", |b| {
        b.iter(|| black_box(strata_encode(black_box(&offsets), black_box(&values))))
    });
    group.bench_function("arrow-rs/prefixed_strings", |b| {
        b.iter(|| black_box(pq_encode(black_box(&pq_values))))
    });
    group.finish();

    let mut group = c.benchmark_group("delta_byte_array_decode");
    group.throughput(Throughput::Elements(n as u64));
    let mut out = ByteArrayBuffer::<i32>::with_capacity(n, values.len());
    group.bench_function("strata/prefixed_strings", |b| {
        b.iter(|| {
            out.clear();
            let mut dec = DeltaByteArrayDecoder::<i32>::new();
            dec.set_data(black_box(&page), n).unwrap();
            black_box(dec.decode(&mut out, n).unwrap())
        })
    });
    let mut pq_out = vec![PqByteArray::default(); n];
    group.bench_function("arrow-rs/prefixed_strings", |b| {
        b.iter(|| {
            let mut dec =
                get_decoder::<ByteArrayType>(descr.clone(), PqEncoding::DELTA_BYTE_ARRAY).unwrap();
            dec.set_data(black_box(bytes.clone()), n).unwrap();
            black_box(dec.get(&mut pq_out).unwrap())
        })
    });
    group.finish();
}

// ---------------------------------------------------------------------------
// 4b. BYTE_STREAM_SPLIT

fn bss_strata_encode<T: ByteStreamSplitValue>(values: &[T]) -> Vec<u8> {
    let mut enc = ByteStreamSplitEncoder::<T>::new();
    enc.put(values).unwrap();
    strata_flush(&mut enc)
}

fn bss_pq_encode<P: DataType>(descr: &ColumnDescPtr, values: &[P::T]) -> Bytes {
    let mut enc = get_encoder::<P>(PqEncoding::BYTE_STREAM_SPLIT, descr).unwrap();
    enc.put(values).unwrap();
    enc.flush_buffer().unwrap()
}

fn bss_case<T: ByteStreamSplitValue, P: DataType<T = T>>(
    c: &mut Criterion,
    physical: PhysicalType,
    case: &str,
    values: &[T],
) -> (Vec<u8>, ColumnDescPtr) {
    let descr = descr(physical, None);
    let page = bss_strata_encode(values);
    // One layout: byte-identical pages.
    assert_eq!(&page[..], &bss_pq_encode::<P>(&descr, values)[..], "{case}");
    let n = values.len();
    let mut out = vec![T::default(); n];
    let mut dec = get_decoder::<P>(descr.clone(), PqEncoding::BYTE_STREAM_SPLIT).unwrap();
    dec.set_data(Bytes::from(page.clone()), n).unwrap();
    assert_eq!(dec.get(&mut out).unwrap(), n);
    assert!(out == values, "arrow-rs decoding {case}");
    let mut dec = ByteStreamSplitDecoder::<T>::new();
    dec.set_data(&page, n).unwrap();
    out.fill(T::default());
    assert_eq!(dec.decode(&mut out, n).unwrap(), n);
    assert!(out == values, "strata decoding {case}");

    let mut group = c.benchmark_group("byte_stream_split_encode");
    group.throughput(Throughput::Bytes((n * T::WIDTH) as u64));
    group.bench_function(format!("strata/{case}"), |b| {
        b.iter(|| black_box(bss_strata_encode(black_box(values))))
    });
    group.bench_function(format!("arrow-rs/{case}"), |b| {
        b.iter(|| black_box(bss_pq_encode::<P>(&descr, black_box(values))))
    });
    group.finish();
    (page, descr)
}

fn bss_decode_case<T: ByteStreamSplitValue, P: DataType<T = T>>(
    c: &mut Criterion,
    case: &str,
    page: &[u8],
    descr: &ColumnDescPtr,
) {
    let n = page.len() / T::WIDTH;
    let bytes = Bytes::from(page.to_vec());
    let mut out = vec![T::default(); n];
    let mut group = c.benchmark_group("byte_stream_split_decode");
    group.throughput(Throughput::Bytes(page.len() as u64));
    group.bench_function(format!("strata/{case}"), |b| {
        b.iter(|| {
            let mut dec = ByteStreamSplitDecoder::<T>::new();
            dec.set_data(black_box(page), n).unwrap();
            black_box(dec.decode(&mut out, n).unwrap())
        })
    });
    group.bench_function(format!("arrow-rs/{case}"), |b| {
        b.iter(|| {
            let mut dec = get_decoder::<P>(descr.clone(), PqEncoding::BYTE_STREAM_SPLIT).unwrap();
            dec.set_data(black_box(bytes.clone()), n).unwrap();
            black_box(dec.get(&mut out).unwrap())
        })
    });
    group.finish();
}

fn byte_stream_split(c: &mut Criterion) {
    let f32s = random_f32(N, 0xF32);
    let f64s = random_f64(N, 0xF64);
    let (p32, d32) = bss_case::<f32, FloatType>(c, PhysicalType::FLOAT, "f32", &f32s);
    let (p64, d64) = bss_case::<f64, DoubleType>(c, PhysicalType::DOUBLE, "f64", &f64s);
    bss_decode_case::<f32, FloatType>(c, "f32", &p32, &d32);
    bss_decode_case::<f64, DoubleType>(c, "f64", &p64, &d64);
}

// ---------------------------------------------------------------------------
// 5. Dictionary gather

fn dict_gather(c: &mut Criterion) {
    let mut group = c.benchmark_group("dict_gather");
    group.throughput(Throughput::Elements(N as u64));

    for dict_len in [1_000usize, 100_000] {
        let dict: Vec<i64> = random_i64(dict_len, 0xD1 + dict_len as u64);
        let dict_page: Vec<u8> = dict.iter().flat_map(|v| v.to_le_bytes()).collect();
        let (page, indices) = dict_indices_page(N, dict_len, 0xD2 + dict_len as u64);
        let expected: Vec<i64> = indices.iter().map(|&i| dict[i as usize]).collect();
        let bytes = Bytes::from(page.clone());
        // The dictionary page is decoded once per column chunk, outside the
        // timed loop; each iteration decodes one data page of N indices.
        let mut dec = DictDecoder::<i64>::new();
        dec.set_dict(&dict_page, dict_len).unwrap();
        let mut pq_dec = PqDictDecoder::<Int64Type>::new();
        let mut pq_dict = PqPlainDecoder::<Int64Type>::new(0);
        pq_dict
            .set_data(Bytes::from(dict_page.clone()), dict_len)
            .unwrap();
        pq_dec.set_dict(Box::new(pq_dict)).unwrap();

        let mut out = vec![0i64; N];
        dec.set_data(&page, N).unwrap();
        assert_eq!(dec.decode(&mut out, N).unwrap(), N);
        assert!(out == expected, "strata dict{dict_len}");
        out.fill(0);
        pq_dec.set_data(bytes.clone(), N).unwrap();
        assert_eq!(pq_dec.get(&mut out).unwrap(), N);
        assert!(out == expected, "arrow-rs dict{dict_len}");

        group.bench_function(format!("strata/i64_dict{dict_len}"), |b| {
            b.iter(|| {
                dec.set_data(black_box(&page), N).unwrap();
                black_box(dec.decode(&mut out, N).unwrap())
            })
        });
        group.bench_function(format!("arrow-rs/i64_dict{dict_len}"), |b| {
            b.iter(|| {
                pq_dec.set_data(black_box(bytes.clone()), N).unwrap();
                black_box(pq_dec.get(&mut out).unwrap())
            })
        });
    }

    // Byte arrays: 1,000 strings of 4..=32 bytes.
    let dict_len = 1_000;
    let (dict_offsets, dict_values) = distinct_strings(dict_len, 0xD5);
    let dict_page = plain_byte_array_page(&dict_offsets, &dict_values);
    let (page, indices) = dict_indices_page(N, dict_len, 0xD6);
    let bytes = Bytes::from(page.clone());
    let mut dec = DictDecoder::<ByteArray>::new();
    dec.set_dict(&dict_page, dict_len).unwrap();
    let mut pq_dec = PqDictDecoder::<ByteArrayType>::new();
    let mut pq_dict = PqPlainDecoder::<ByteArrayType>::new(0);
    pq_dict
        .set_data(Bytes::from(dict_page.clone()), dict_len)
        .unwrap();
    pq_dec.set_dict(Box::new(pq_dict)).unwrap();

    let value = |i: u32| {
        let i = i as usize;
        &dict_values[dict_offsets[i] as usize..dict_offsets[i + 1] as usize]
    };
    let total: usize = indices.iter().map(|&i| value(i).len()).sum();
    let mut out = ByteArrayBuffer::<i32>::with_capacity(N, total);
    dec.set_data(&page, N).unwrap();
    assert_eq!(dec.decode(&mut out, N).unwrap(), N);
    assert!(
        out.iter().zip(&indices).all(|(v, &i)| v == value(i)),
        "strata byte-array dictionary"
    );
    let mut pq_out = vec![PqByteArray::default(); N];
    pq_dec.set_data(bytes.clone(), N).unwrap();
    assert_eq!(pq_dec.get(&mut pq_out).unwrap(), N);
    assert!(
        pq_out
            .iter()
            .zip(&indices)
            .all(|(v, &i)| v.data() == value(i)),
        "arrow-rs byte-array dictionary"
    );

    group.bench_function("strata/bytes_dict1000", |b| {
        b.iter(|| {
            out.clear();
            dec.set_data(black_box(&page), N).unwrap();
            black_box(dec.decode(&mut out, N).unwrap())
        })
    });
    group.bench_function("arrow-rs/bytes_dict1000", |b| {
        b.iter(|| {
            pq_dec.set_data(black_box(bytes.clone()), N).unwrap();
            black_box(pq_dec.get(&mut pq_out).unwrap())
        })
    });
    group.finish();
}

// ---------------------------------------------------------------------------
// 6. PLAIN INT64 decode

fn plain_int64_decode(c: &mut Criterion) {
    let values = random_i64(N, 0x164);
    let page: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = Bytes::from(page.clone());
    let descr = descr(PhysicalType::INT64, None);
    let mut out = vec![0i64; N];

    let mut dec = PlainDecoder::<i64>::new();
    dec.set_data(&page, N).unwrap();
    assert_eq!(dec.decode(&mut out, N).unwrap(), N);
    assert!(out == values, "strata PLAIN INT64");
    out.fill(0);
    let mut pq_dec = get_decoder::<Int64Type>(descr.clone(), PqEncoding::PLAIN).unwrap();
    pq_dec.set_data(bytes.clone(), N).unwrap();
    assert_eq!(pq_dec.get(&mut out).unwrap(), N);
    assert!(out == values, "arrow-rs PLAIN INT64");

    let mut group = c.benchmark_group("plain_int64_decode");
    group.throughput(Throughput::Bytes(page.len() as u64));
    group.bench_function("strata/1M", |b| {
        b.iter(|| {
            let mut dec = PlainDecoder::<i64>::new();
            dec.set_data(black_box(&page), N).unwrap();
            black_box(dec.decode(&mut out, N).unwrap())
        })
    });
    group.bench_function("arrow-rs/1M", |b| {
        b.iter(|| {
            let mut dec = get_decoder::<Int64Type>(descr.clone(), PqEncoding::PLAIN).unwrap();
            dec.set_data(black_box(bytes.clone()), N).unwrap();
            black_box(dec.get(&mut out).unwrap())
        })
    });
    let mut dst = vec![0u8; page.len()];
    group.bench_function("memcpy/1M", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&page));
            black_box(&dst);
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    plain_byte_array_put,
    plain_flba_put,
    delta_binary_packed,
    delta_byte_array,
    byte_stream_split,
    dict_gather,
    plain_int64_decode
);
criterion_main!(benches);
