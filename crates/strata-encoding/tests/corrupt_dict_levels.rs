//! Mutation test for dictionary pages, index pages, RLE boolean pages and
//! level streams: a fixed-seed xorshift corrupts valid pages (truncation,
//! random bytes, flipped bits, extreme header bytes, junk appended) and
//! claims value counts near the true one. Every outcome must be `Ok` or
//! `Err`, never a panic, and decoding a dictionary page must not allocate
//! more than its bytes justify.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, Decoder, DictDecoder, DictEncoder, Encoder,
    FixedLenBatch, FixedLenByteArray, FixedLenByteArrayBuffer, LevelDecoder, LevelEncoder,
    RleBooleanDecoder, RleBooleanEncoder,
};
use strata_sink::ByteSink;

mod support;

use support::{Rng, ThreadCounting, mutate, peak_growth};

#[global_allocator]
static ALLOC: ThreadCounting = ThreadCounting;

fn claimed(n: usize, rng: &mut Rng) -> usize {
    match rng.below(5) {
        0 => n + 1 + rng.below(5),
        1 => n.saturating_sub(1 + rng.below(3)),
        2 => n * 1000 + rng.below(10),
        _ => n,
    }
}

const CASES: usize = 4000;
const MAX_DECODE: usize = 20_000;
/// An error message, an `Arc` header and allocator rounding.
const SLACK: isize = 512;

fn sample_strings(n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(7);
    (0..n)
        .map(|i| {
            let mut v = b"k/".to_vec();
            v.extend((0..rng.below(6)).map(|_| b'a' + rng.below(3) as u8));
            if i % 11 == 0 {
                v.clear();
            }
            v
        })
        .collect()
}

fn pages<T: strata_encoding::DictValue>(enc: &mut DictEncoder<T>) -> (Vec<u8>, usize, Vec<u8>) {
    let mut dict = ByteSink::new();
    enc.write_dict_page(&mut dict).unwrap();
    let entries = enc.num_entries();
    let mut data = ByteSink::new();
    enc.flush_into(&mut data).unwrap();
    (dict.into_vec(), entries, data.into_vec())
}

#[test]
fn corrupt_numeric_dictionary_and_index_pages() {
    let values: Vec<i64> = (0..400i64).map(|i| (i * i) % 37 - 5).collect();
    let mut enc = DictEncoder::<i64>::new();
    enc.put(&values).unwrap();
    let (dict, entries, data) = pages(&mut enc);
    let mut rng = Rng(0xD1C7);
    let mut out = vec![0i64; MAX_DECODE];
    let mut idx = vec![0u32; MAX_DECODE];
    for _ in 0..CASES {
        // Dictionary page.
        let bad_dict = mutate(&dict, &mut rng);
        let count = claimed(entries, &mut rng);
        let mut dec = DictDecoder::<i64>::new();
        let peak = peak_growth(|| {
            let _ = dec.set_dict(&bad_dict, count);
        });
        assert!(
            peak <= bad_dict.len() as isize + SLACK,
            "dictionary of {} bytes allocated {peak}",
            bad_dict.len()
        );
        // Index page against the valid dictionary.
        dec.set_dict(&dict, entries).unwrap();
        let bad = mutate(&data, &mut rng);
        let count = claimed(values.len(), &mut rng).min(MAX_DECODE);
        let chunk = 1 + rng.below(300);
        let peak = peak_growth(|| {
            if dec.set_data(&bad, count).is_ok() {
                let mut done = 0;
                while done < count {
                    match dec.decode(&mut out[done..], chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(k) => done += k,
                    }
                }
            }
            if dec.set_data(&bad, count).is_ok() {
                let _ = dec.skip(rng.below(count + 1));
                let _ = dec.decode_indices(&mut idx[..count]);
            }
            if dec.set_data(&bad, count).is_ok() {
                let bm = [0b1011_0110u8; 8];
                let _ = dec.decode_spaced(&mut out[..64], 64, &bm, 0, 64 - 40);
            }
        });
        assert!(peak <= SLACK, "index decode allocated {peak}");
        // Every index handed out is valid for the dictionary.
        if dec.set_data(&bad, count).is_ok()
            && let Ok(k) = dec.decode_indices(&mut idx[..count])
        {
            assert!(idx[..k].iter().all(|&i| (i as usize) < entries));
        }
    }
}

#[test]
fn corrupt_byte_array_dictionary_and_index_pages() {
    let strings = sample_strings(300);
    let refs: Vec<&[u8]> = strings.iter().map(Vec::as_slice).collect();
    let mut enc = DictEncoder::<ByteArray>::new();
    enc.put(ByteArrayBatch::from_slices(&refs)).unwrap();
    let (dict, entries, data) = pages(&mut enc);
    let flat: Vec<u8> = (0..300u32).flat_map(|i| [b'f', (i % 7) as u8, 0]).collect();
    let mut fenc = DictEncoder::<FixedLenByteArray>::new(3).unwrap();
    fenc.put(FixedLenBatch::new(3, &flat).unwrap()).unwrap();
    let (fdict, fentries, fdata) = pages(&mut fenc);

    let mut rng = Rng(0xB17E);
    for _ in 0..CASES {
        let bad_dict = mutate(&dict, &mut rng);
        let count = claimed(entries, &mut rng);
        let mut dec = DictDecoder::<ByteArray>::new();
        let peak = peak_growth(|| {
            let _ = dec.set_dict(&bad_dict, count);
        });
        // Offsets (4 bytes per value, at most one value per 4 page bytes)
        // and the value bytes.
        assert!(
            peak <= 2 * bad_dict.len() as isize + SLACK,
            "dictionary of {} bytes allocated {peak}",
            bad_dict.len()
        );
        dec.set_dict(&dict, entries).unwrap();
        let bad = mutate(&data, &mut rng);
        let count = claimed(strings.len(), &mut rng).min(MAX_DECODE);
        if dec.set_data(&bad, count).is_ok() {
            let mut out = ByteArrayBuffer::<i32>::new();
            while out.len() < MAX_DECODE {
                match dec.decode(&mut out, 1 + rng.below(200)) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        if dec.set_data(&bad, count).is_ok() {
            let _ = dec.skip(rng.below(count + 1));
            let mut out = ByteArrayBuffer::<i32>::new();
            let bm = [0b0110_1101u8; 4];
            let _ = dec.decode_spaced(&mut out, 32, &bm, 0, 32 - 20);
        }

        // FIXED_LEN_BYTE_ARRAY.
        let bad_dict = mutate(&fdict, &mut rng);
        let mut fdec = DictDecoder::<FixedLenByteArray>::new(3).unwrap();
        let _ = fdec.set_dict(&bad_dict, claimed(fentries, &mut rng));
        fdec.set_dict(&fdict, fentries).unwrap();
        let bad = mutate(&fdata, &mut rng);
        let count = claimed(300, &mut rng).min(MAX_DECODE);
        if fdec.set_data(&bad, count).is_ok() {
            let mut out = FixedLenByteArrayBuffer::new(3);
            let _ = fdec.skip(rng.below(4));
            while out.len() < MAX_DECODE {
                match fdec.decode(&mut out, 1 + rng.below(200)) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
    }
}

#[test]
fn corrupt_boolean_pages() {
    let values: Vec<bool> = (0..500).map(|i| (i / 13) % 3 == 0 || i % 7 == 0).collect();
    let mut enc = RleBooleanEncoder::new();
    enc.put(&values).unwrap();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    let page = page.into_vec();
    let mut rng = Rng(0xB001);
    let mut out = vec![false; MAX_DECODE];
    for _ in 0..CASES {
        let bad = mutate(&page, &mut rng);
        let count = claimed(values.len(), &mut rng).min(MAX_DECODE);
        let mut dec = RleBooleanDecoder::new();
        let peak = peak_growth(|| {
            if dec.set_data(&bad, count).is_ok() {
                let chunk = 1 + rng.below(300);
                let mut done = 0;
                while done < count {
                    match dec.decode(&mut out[done..], chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(k) => done += k,
                    }
                }
            }
            if dec.set_data(&bad, count).is_ok() {
                let _ = dec.skip(rng.below(count + 1));
                let bm = [0b1010_1010u8; 8];
                let _ = dec.decode_spaced(&mut out[..64], 64, &bm, 0, 32);
            }
        });
        assert!(peak <= SLACK, "boolean decode allocated {peak}");
    }
}

#[test]
fn corrupt_level_streams() {
    let mut rng = Rng(0x1E7E1);
    let mut out = vec![0i16; MAX_DECODE];
    for max in [1i16, 2, 3, 7, 100, i16::MAX] {
        let levels: Vec<i16> = (0..600)
            .map(|i| {
                if i % 5 == 0 {
                    (i % (max as usize + 1)) as i16
                } else {
                    max
                }
            })
            .collect();
        let mut enc = LevelEncoder::new(max).unwrap();
        enc.put(&levels).unwrap();
        let mut v1 = ByteSink::new();
        enc.flush_v1(&mut v1).unwrap();
        enc.put(&levels).unwrap();
        let mut v2 = ByteSink::new();
        enc.flush_v2(&mut v2).unwrap();
        // A BIT_PACKED stream: any bytes are well formed at the right
        // length, so mutate an arbitrary one.
        let width = 16 - (max as u16).leading_zeros() as usize;
        let packed: Vec<u8> = (0..(600 * width).div_ceil(8))
            .map(|_| rng.next() as u8)
            .collect();
        for _ in 0..CASES / 4 {
            let count = claimed(levels.len(), &mut rng).min(MAX_DECODE);
            let chunk = 1 + rng.below(300);
            let bad_v1 = mutate(v1.as_slice(), &mut rng);
            let bad_v2 = mutate(v2.as_slice(), &mut rng);
            let bad_bp = mutate(&packed, &mut rng);
            let peak = peak_growth(|| {
                let mut dec = LevelDecoder::new(max).unwrap();
                for which in 0..3 {
                    let ok = match which {
                        0 => dec.set_rle_v1(&bad_v1, count).is_ok(),
                        1 => dec.set_rle_v2(&bad_v2, count).is_ok(),
                        _ => dec.set_bit_packed(&bad_bp, count).is_ok(),
                    };
                    if !ok {
                        continue;
                    }
                    let _ = dec.skip(rng.below(10));
                    let mut done = 0;
                    while done < count {
                        let end = (done + chunk).min(count);
                        match dec.decode(&mut out[done..end]) {
                            Ok(0) | Err(_) => break,
                            Ok(k) => done += k,
                        }
                    }
                    assert!(out[..done].iter().all(|&l| (0..=max).contains(&l)));
                }
            });
            assert!(peak <= SLACK, "level decode allocated {peak}");
        }
    }
}
