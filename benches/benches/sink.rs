//! Bit unpacking and RLE/bit-packed hybrid decoding, strata against
//! arrow-rs `parquet` on the same bytes, with memcpy of those bytes as the
//! floor.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
#![forbid(unsafe_code)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::util::bit_util::BitPacking;
use strata_benches::data::{packed_values, rle_stream};
use strata_sink::bitpack::Unpacked;

const N: usize = 1 << 16;

/// `N` values of `width` bits unpacked from `data` (`bytes` holds the
/// same) by strata, once strata and arrow-rs both unpacked all of them to
/// `expect`.
fn unpacked_by_both<T: Unpacked + BitPacking>(
    expect: &[u64],
    data: &[u8],
    bytes: &bytes::Bytes,
    width: u32,
) -> Vec<T> {
    let mut ours = vec![T::default(); N];
    let mut theirs = vec![T::default(); N];
    let mut r = parquet::util::bit_util::BitReader::new(bytes.clone());
    assert_eq!(
        r.get_batch(&mut theirs, width as usize),
        N,
        "arrow-rs w{width}"
    );
    assert_eq!(
        strata_sink::BitReader::new(data).get_batch(&mut ours, width),
        N,
        "strata w{width}"
    );
    assert_eq!(ours, theirs, "strata against arrow-rs, w{width}");
    assert!(
        ours.iter().map(|v| v.to_u64()).eq(expect.iter().copied()),
        "strata against the packed values, w{width}"
    );
    ours
}

fn unpack(c: &mut Criterion) {
    let mut group = c.benchmark_group("unpack_u32");
    for width in [1u32, 2, 3, 5, 8, 12, 16, 20, 24, 31, 32] {
        let (values, data) = packed_values(N, width, 7);
        let bytes = bytes::Bytes::from(data.clone());
        let mut out: Vec<u32> = unpacked_by_both(&values, &data, &bytes, width);
        group.throughput(Throughput::Elements(N as u64));
        group.bench_function(format!("strata/w{width}"), |b| {
            b.iter(|| {
                let mut r = strata_sink::BitReader::new(black_box(&data));
                black_box(r.get_batch(&mut out, width))
            })
        });
        group.bench_function(format!("arrow-rs/w{width}"), |b| {
            b.iter(|| {
                let mut r = parquet::util::bit_util::BitReader::new(black_box(bytes.clone()));
                black_box(r.get_batch(&mut out, width as usize))
            })
        });
        let packed_len = N * width as usize / 8;
        let mut dst = vec![0u8; packed_len];
        group.bench_function(format!("memcpy/w{width}"), |b| {
            b.iter(|| {
                dst.copy_from_slice(black_box(&data[..packed_len]));
                black_box(&dst);
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("unpack_u64");
    for width in [7u32, 33, 48, 64] {
        let (values, data) = packed_values(N, width, 11);
        let bytes = bytes::Bytes::from(data.clone());
        let mut out: Vec<u64> = unpacked_by_both(&values, &data, &bytes, width);
        group.throughput(Throughput::Elements(N as u64));
        group.bench_function(format!("strata/w{width}"), |b| {
            b.iter(|| {
                let mut r = strata_sink::BitReader::new(black_box(&data));
                black_box(r.get_batch(&mut out, width))
            })
        });
        group.bench_function(format!("arrow-rs/w{width}"), |b| {
            b.iter(|| {
                let mut r = parquet::util::bit_util::BitReader::new(black_box(bytes.clone()));
                black_box(r.get_batch(&mut out, width as usize))
            })
        });
    }
    group.finish();
}

fn rle_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("rle_decode");
    for width in [1u32, 3, 8, 17] {
        let data = rle_stream(N, width, 3);
        let bytes = bytes::Bytes::from(data.clone());
        let mut out = vec![0u32; N];
        // Both decoders must decode every value, identically.
        let mut theirs = vec![0u32; N];
        let mut d = parquet::encodings::rle::RleDecoder::new(width as u8);
        d.set_data(bytes.clone()).unwrap();
        assert_eq!(d.get_batch(&mut theirs).unwrap(), N);
        let mut d = strata_sink::rle::RleDecoder::new(&data, width).unwrap();
        assert_eq!(d.get_batch(&mut out).unwrap(), N);
        assert_eq!(out, theirs);
        group.throughput(Throughput::Elements(N as u64));
        group.bench_function(format!("strata/w{width}"), |b| {
            b.iter(|| {
                let mut d = strata_sink::rle::RleDecoder::new(black_box(&data), width).unwrap();
                black_box(d.get_batch(&mut out).unwrap())
            })
        });
        group.bench_function(format!("arrow-rs/w{width}"), |b| {
            b.iter(|| {
                let mut d = parquet::encodings::rle::RleDecoder::new(width as u8);
                d.set_data(black_box(bytes.clone())).unwrap();
                black_box(d.get_batch(&mut out).unwrap())
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("rle_dict_gather");
    for dict_len in [1_000usize, 100_000] {
        let width = usize::BITS - (dict_len - 1).leading_zeros();
        let data = rle_stream(N, width, 5);
        // Keep indices inside the dictionary.
        let mut indices = vec![0u32; N];
        strata_sink::rle::RleDecoder::new(&data, width)
            .unwrap()
            .get_batch(&mut indices)
            .unwrap();
        let mut enc = strata_sink::rle::RleEncoder::new(width);
        for i in &mut indices {
            *i %= dict_len as u32;
            enc.put(u64::from(*i));
        }
        let data = enc.finish();
        let bytes = bytes::Bytes::from(data.clone());
        let dict: Vec<i64> = (0..dict_len as i64).map(|i| i * 3).collect();
        // Both decoders gather every index, each to its dictionary value.
        let expect: Vec<i64> = indices.iter().map(|&i| dict[i as usize]).collect();
        let mut theirs = vec![0i64; N];
        let mut d = parquet::encodings::rle::RleDecoder::new(width as u8);
        d.set_data(bytes.clone()).unwrap();
        assert_eq!(d.get_batch_with_dict(&dict, &mut theirs, N).unwrap(), N);
        let mut out = vec![0i64; N];
        let mut d = strata_sink::rle::RleDecoder::new(&data, width).unwrap();
        assert_eq!(d.get_batch_with_dict(&dict, &mut out).unwrap(), N);
        assert_eq!(out, theirs, "strata against arrow-rs, dict{dict_len}");
        assert_eq!(out, expect, "strata against the indices, dict{dict_len}");
        group.throughput(Throughput::Elements(N as u64));
        group.bench_function(format!("strata/dict{dict_len}"), |b| {
            b.iter(|| {
                let mut d = strata_sink::rle::RleDecoder::new(black_box(&data), width).unwrap();
                black_box(d.get_batch_with_dict(&dict, &mut out).unwrap())
            })
        });
        group.bench_function(format!("arrow-rs/dict{dict_len}"), |b| {
            b.iter(|| {
                let mut d = parquet::encodings::rle::RleDecoder::new(width as u8);
                d.set_data(black_box(bytes.clone())).unwrap();
                black_box(d.get_batch_with_dict(&dict, &mut out, N).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, unpack, rle_decode);
criterion_main!(benches);
