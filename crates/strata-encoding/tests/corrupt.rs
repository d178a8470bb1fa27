//! Truncated and corrupted pages: a deterministic mutation test (xorshift,
//! fixed seeds, thousands of cases per decoder). Every outcome must be `Ok`
//! or `Err`, never a panic, and decoding must not allocate beyond what the
//! page can justify. Also checks that decoders refuse value counts the page
//! bytes cannot hold.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, ByteStreamSplitDecoder, ByteStreamSplitEncoder,
    ByteStreamSplitFixedLenDecoder, Decoder, DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder,
    DeltaByteArrayDecoder, DeltaByteArrayEncoder, DeltaByteArrayFixedLenDecoder,
    DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder, Encoder, FixedLenByteArray,
    FixedLenByteArrayBuffer, PlainBooleanDecoder, PlainByteArrayDecoder, PlainByteArrayEncoder,
    PlainDecoder, PlainEncoder, PlainFixedLenByteArrayDecoder,
};
use strata_sink::ByteSink;

mod support;

use support::{Rng, ThreadCounting, mutate, peak_growth};

#[global_allocator]
static ALLOC: ThreadCounting = ThreadCounting;

/// A claimed value count near the true one.
fn claimed(n: usize, rng: &mut Rng) -> usize {
    match rng.below(4) {
        0 => n + 1 + rng.below(5),
        1 => n.saturating_sub(1 + rng.below(3)),
        _ => n,
    }
}

const CASES: usize = 3000;
/// Room for the formatted message of an error, the only allocation a
/// failing decode may make.
const ERROR_MESSAGE_BYTES: isize = 256;
/// Never decode more than this many values from one corrupt page.
const MAX_DECODE: usize = 20_000;

trait SliceCodec<T: strata_encoding::ValueType> {
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, T> + 'a>;
}

macro_rules! slice_codec {
    ($name:ident, $t:ty, $dec:expr) => {
        struct $name;
        impl SliceCodec<$t> for $name {
            fn decoder<'a>(&self) -> Box<dyn Decoder<'a, $t> + 'a> {
                Box::new($dec)
            }
        }
    };
}

slice_codec!(PlainI64, i64, PlainDecoder::<i64>::new());
slice_codec!(PlainBool, bool, PlainBooleanDecoder::new());
slice_codec!(BssF64, f64, ByteStreamSplitDecoder::<f64>::new());
slice_codec!(DeltaI32, i32, DeltaBinaryPackedDecoder::<i32>::new());
slice_codec!(DeltaI64, i64, DeltaBinaryPackedDecoder::<i64>::new());

fn fuzz_slices<T: Copy + Default + strata_encoding::ValueType<Out = [T]>>(
    codec: &dyn SliceCodec<T>,
    page: &[u8],
    n: usize,
    seed: u64,
) {
    let mut rng = Rng(seed);
    let mut out: Vec<T> = std::iter::repeat_n(T::default(), MAX_DECODE).collect();
    for _ in 0..CASES {
        let bad = mutate(page, &mut rng);
        let count = claimed(n, &mut rng);
        let chunk = 1 + rng.below(100);
        let mut dec = codec.decoder();
        let mut dec2 = codec.decoder();
        let peak = peak_growth(|| {
            if dec.set_data(&bad, count).is_err() {
                return;
            }
            let mut done = 0;
            while done < MAX_DECODE {
                match dec.decode(&mut out[done..], chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => done += k,
                }
            }
            if dec2.set_data(&bad, count).is_ok() {
                let _ = dec2.skip(rng.below(count + 1));
                let bm = [0b1010_1010u8; 8];
                let _ = dec2.decode_spaced(&mut out[..64], 64, &bm, 0, 32);
            }
        });
        // Nothing but the message of an error may be allocated.
        assert!(
            peak <= ERROR_MESSAGE_BYTES,
            "slice decoder allocated {peak} bytes"
        );
    }
}

trait BytesCodec {
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, ByteArray> + 'a>;
}

macro_rules! bytes_codec {
    ($name:ident, $dec:expr) => {
        struct $name;
        impl BytesCodec for $name {
            fn decoder<'a>(&self) -> Box<dyn Decoder<'a, ByteArray> + 'a> {
                Box::new($dec)
            }
        }
    };
}

bytes_codec!(PlainBytes, PlainByteArrayDecoder::new());
bytes_codec!(DeltaLenBytes, DeltaLengthByteArrayDecoder::new());
bytes_codec!(DeltaBytes, DeltaByteArrayDecoder::new());

fn fuzz_bytes(codec: &dyn BytesCodec, page: &[u8], n: usize, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..CASES {
        let bad = mutate(page, &mut rng);
        let count = claimed(n, &mut rng);
        let chunk = 1 + rng.below(100);
        let mut out = ByteArrayBuffer::<i32>::with_capacity(MAX_DECODE, 0);
        let (peak_skip, ok) = {
            let mut ok = false;
            let mut dec = codec.decoder();
            let peak = peak_growth(|| {
                if dec.set_data(&bad, count).is_ok() {
                    ok = true;
                    let _ = dec.skip(count);
                }
            });
            (peak, ok)
        };
        // Skipping needs at most the previous-value scratch of
        // DELTA_BYTE_ARRAY, itself built from page bytes.
        assert!(
            peak_skip <= 2 * bad.len() as isize + ERROR_MESSAGE_BYTES,
            "skip allocated {peak_skip} for a {}-byte page",
            bad.len()
        );
        if !ok {
            continue;
        }
        let mut dec = codec.decoder();
        dec.set_data(&bad, count).unwrap();
        let mut done = 0;
        while done < MAX_DECODE {
            match dec.decode(&mut out, chunk) {
                Ok(0) | Err(_) => break,
                Ok(k) => done += k,
            }
        }
        let mut dec = codec.decoder();
        dec.set_data(&bad, count).unwrap();
        let bm = [0b0110_1101u8; 4];
        let _ = dec.decode_spaced(&mut out, 32, &bm, 0, 32 - 20);
    }
}

trait FixedLenCodec {
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a>;
}

struct FlbaPlain;
struct FlbaBss;
struct FlbaDelta;
impl FixedLenCodec for FlbaPlain {
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a> {
        Box::new(PlainFixedLenByteArrayDecoder::new(3).unwrap())
    }
}
impl FixedLenCodec for FlbaBss {
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a> {
        Box::new(ByteStreamSplitFixedLenDecoder::new(3).unwrap())
    }
}
impl FixedLenCodec for FlbaDelta {
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a> {
        Box::new(DeltaByteArrayFixedLenDecoder::new(3).unwrap())
    }
}

fn fuzz_fixed_len(codec: &dyn FixedLenCodec, page: &[u8], n: usize, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..CASES {
        let bad = mutate(page, &mut rng);
        let count = claimed(n, &mut rng);
        let mut dec = codec.decoder();
        if dec.set_data(&bad, count).is_err() {
            continue;
        }
        let mut out = FixedLenByteArrayBuffer::new(3);
        let _ = dec.skip(rng.below(4));
        while out.len() < MAX_DECODE {
            match dec.decode(&mut out, 1 + rng.below(50)) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
}

fn page_of<T: strata_encoding::ValueType>(enc: &mut dyn Encoder<T>) -> Vec<u8> {
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    page.into_vec()
}

fn sample_ints(n: usize) -> Vec<i64> {
    let mut rng = Rng(42);
    (0..n)
        .map(|i| match i % 7 {
            0 => i64::MIN,
            1 => i64::MAX,
            _ => (rng.next() % 1000) as i64 - 500,
        })
        .collect()
}

fn sample_strings(n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(7);
    (0..n)
        .map(|i| {
            let mut v = b"shared/prefix/".to_vec();
            v.extend((0..rng.below(12)).map(|_| b'a' + rng.below(26) as u8));
            if i % 9 == 0 {
                v.clear();
            }
            v
        })
        .collect()
}

#[test]
fn corrupt_numeric_pages() {
    let ints = sample_ints(300);
    let mut enc = PlainEncoder::<i64>::new();
    enc.put(&ints).unwrap();
    fuzz_slices(&PlainI64, &page_of(&mut enc), 300, 1);

    let bools: Vec<bool> = ints.iter().map(|v| v % 3 == 0).collect();
    let mut enc = strata_encoding::PlainBooleanEncoder::new();
    enc.put(&bools).unwrap();
    fuzz_slices(&PlainBool, &page_of(&mut enc), 300, 2);

    let floats: Vec<f64> = ints.iter().map(|v| *v as f64 / 3.0).collect();
    let mut enc = ByteStreamSplitEncoder::<f64>::new();
    enc.put(&floats).unwrap();
    fuzz_slices(&BssF64, &page_of(&mut enc), 300, 3);

    let mut enc = DeltaBinaryPackedEncoder::<i64>::new();
    enc.put(&ints).unwrap();
    fuzz_slices(&DeltaI64, &page_of(&mut enc), 300, 4);

    let small: Vec<i32> = ints.iter().map(|v| *v as i32).collect();
    let mut enc = DeltaBinaryPackedEncoder::<i32>::with_layout(256, 8).unwrap();
    enc.put(&small).unwrap();
    fuzz_slices(&DeltaI32, &page_of(&mut enc), 300, 5);
}

#[test]
fn corrupt_byte_array_pages() {
    let strings = sample_strings(200);
    let refs: Vec<&[u8]> = strings.iter().map(Vec::as_slice).collect();
    let batch = ByteArrayBatch::from_slices(&refs);

    let mut enc = PlainByteArrayEncoder::new();
    enc.put(batch).unwrap();
    fuzz_bytes(&PlainBytes, &page_of(&mut enc), 200, 11);

    let mut enc = DeltaLengthByteArrayEncoder::new();
    enc.put(batch).unwrap();
    fuzz_bytes(&DeltaLenBytes, &page_of(&mut enc), 200, 12);

    let mut enc = DeltaByteArrayEncoder::new();
    enc.put(batch).unwrap();
    fuzz_bytes(&DeltaBytes, &page_of(&mut enc), 200, 13);
}

#[test]
fn corrupt_fixed_len_pages() {
    let flat: Vec<u8> = (0..300u32).flat_map(|i| [b'a', b'b', i as u8]).collect();
    let batch = strata_encoding::FixedLenBatch::new(3, &flat).unwrap();
    let mut enc = strata_encoding::PlainFixedLenByteArrayEncoder::new(3).unwrap();
    enc.put(batch).unwrap();
    fuzz_fixed_len(&FlbaPlain, &page_of(&mut enc), 300, 21);
    let mut enc = strata_encoding::ByteStreamSplitFixedLenEncoder::new(3).unwrap();
    enc.put(batch).unwrap();
    fuzz_fixed_len(&FlbaBss, &page_of(&mut enc), 300, 22);
    let mut enc = strata_encoding::DeltaByteArrayFixedLenEncoder::new(3).unwrap();
    enc.put(batch).unwrap();
    fuzz_fixed_len(&FlbaDelta, &page_of(&mut enc), 300, 23);
}

#[test]
fn refuses_counts_the_page_cannot_hold() {
    let huge = usize::MAX / 2;
    assert!(PlainDecoder::<i64>::new().set_data(&[0; 16], 3).is_err());
    assert!(PlainDecoder::<i64>::new().set_data(&[0; 16], huge).is_err());
    assert!(PlainBooleanDecoder::new().set_data(&[0; 2], 17).is_err());
    assert!(PlainByteArrayDecoder::new().set_data(&[0; 8], 3).is_err());
    assert!(
        PlainFixedLenByteArrayDecoder::new(4)
            .unwrap()
            .set_data(&[0; 8], 3)
            .is_err()
    );
    assert!(
        ByteStreamSplitDecoder::<f32>::new()
            .set_data(&[0; 8], 3)
            .is_err()
    );
    assert!(
        ByteStreamSplitDecoder::<f32>::new()
            .set_data(&[0; 7], 1)
            .is_err()
    );

    // A DELTA_BINARY_PACKED header must announce exactly the count, and a
    // count needing more blocks than the bytes can hold is refused.
    let mut enc = DeltaBinaryPackedEncoder::<i32>::new();
    enc.put(&[1, 2, 3]).unwrap();
    let page = page_of(&mut enc);
    assert!(
        DeltaBinaryPackedDecoder::<i32>::new()
            .set_data(&page, 4)
            .is_err()
    );
    assert!(
        DeltaBinaryPackedDecoder::<i32>::new()
            .set_data(&page, 3)
            .is_ok()
    );
    // Header: 128-value blocks, 4 miniblocks, 1,000,000 values, first 0 —
    // followed by a single block: needs ~7813 blocks of at least 5 bytes.
    let forged = [
        0x80, 0x01, 0x04, 0xC0, 0x84, 0x3D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ];
    let peak = peak_growth(|| {
        assert!(matches!(
            DeltaBinaryPackedDecoder::<i64>::new().set_data(&forged, 1_000_000),
            Err(strata_encoding::EncodingError::InvalidValueCount { .. })
        ));
    });
    assert_eq!(peak, 0);
    // Bit widths beyond the type's width are corrupt.
    let wide = [0x80, 0x01, 0x01, 0x02, 0x00, 0x00, 33];
    let mut dec = DeltaBinaryPackedDecoder::<i32>::new();
    dec.set_data(&wide, 2).unwrap();
    assert!(dec.decode(&mut [0; 2], 2).is_err());
    // Negative lengths in DELTA_LENGTH_BYTE_ARRAY are corrupt.
    let mut lens = DeltaBinaryPackedEncoder::<i32>::new();
    lens.put(&[-1]).unwrap();
    let page = page_of(&mut lens);
    let mut dec = DeltaLengthByteArrayDecoder::new();
    dec.set_data(&page, 1).unwrap();
    assert!(dec.decode(&mut ByteArrayBuffer::new(), 1).is_err());
}

#[test]
fn zero_width_pages_reserve_little() {
    // 2^20 empty strings take a handful of bytes under DELTA_LENGTH_BYTE_ARRAY
    // (all deltas zero): decoding a few of them must not reserve room for
    // all of them.
    let n = 1 << 20;
    let mut enc = DeltaLengthByteArrayEncoder::new();
    let empties = vec![&b""[..]; n];
    enc.put(ByteArrayBatch::from_slices(&empties)).unwrap();
    let page = page_of(&mut enc);
    assert!(page.len() < 50_000);
    let mut dec = DeltaLengthByteArrayDecoder::new();
    dec.set_data(&page, n).unwrap();
    let mut out = ByteArrayBuffer::<i32>::new();
    let peak = peak_growth(|| {
        dec.decode(&mut out, 10).unwrap();
    });
    assert!(peak < 4096, "reserved {peak} bytes for 10 values");
}
