//! RLE booleans and definition/repetition levels: round trips at every
//! maximum level (v1 with its length prefix, v2 without, and the deprecated
//! MSB-first BIT_PACKED), golden bytes worked out from `Encodings.md`, and
//! the validity helper against a naive reference.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use strata_encoding::{
    Decoder, Encoder, EncodingError, LevelDecoder, LevelEncoder, RleBooleanDecoder,
    RleBooleanEncoder, def_levels_to_validity,
};
use strata_sink::ByteSink;

fn bitmap(valid: &[bool], offset: usize) -> Vec<u8> {
    let mut bm = vec![0u8; (valid.len() + offset).div_ceil(8)];
    for (i, &v) in valid.iter().enumerate() {
        if v {
            bm[(i + offset) / 8] |= 1 << ((i + offset) % 8);
        }
    }
    bm
}

/// Runs of random length: long runs exercise RLE runs, short ones the
/// bit-packed groups.
fn runs_of<T: Clone + std::fmt::Debug>(
    value: impl Strategy<Value = T>,
) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(
        (value, prop_oneof![1usize..4, 1usize..40, 100usize..700]),
        0..40,
    )
    .prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(v, n)| std::iter::repeat_n(v, n))
            .collect()
    })
}

/// Pack levels MSB first, back to back, as the BIT_PACKED section of the
/// spec describes (the test's own packer).
fn pack_msb_first(levels: &[i16], width: u32) -> Vec<u8> {
    let mut out = vec![0u8; (levels.len() * width as usize).div_ceil(8)];
    let mut bit = 0usize;
    for &l in levels {
        for b in (0..width).rev() {
            if (l >> b) & 1 == 1 {
                out[bit / 8] |= 0x80 >> (bit % 8);
            }
            bit += 1;
        }
    }
    out
}

fn width_of(max: i16) -> u32 {
    16 - (max as u16).leading_zeros()
}

fn check_levels(max: i16, levels: &[i16], chunk: usize, skip: usize) {
    let n = levels.len();
    let mut enc = LevelEncoder::new(max).unwrap();
    assert_eq!(enc.bit_width(), width_of(max));
    let half = n / 2;
    enc.put(&levels[..half]).unwrap();
    enc.put(&levels[half..]).unwrap();
    assert_eq!(enc.num_values(), n);
    let estimate = enc.estimated_size();

    // v1: length prefix, then the runs; other page bytes follow.
    let mut page = ByteSink::new();
    enc.flush_v1(&mut page).unwrap();
    assert!(page.len() <= estimate + 4);
    let runs_len = u32::from_le_bytes(page.as_slice()[..4].try_into().unwrap()) as usize;
    assert_eq!(runs_len + 4, page.len());
    let v1_runs = page.as_slice()[4..].to_vec();
    page.extend_from_slice(b"values");
    let mut dec = LevelDecoder::new(max).unwrap();
    assert_eq!(dec.set_rle_v1(page.as_slice(), n).unwrap(), runs_len + 4);
    let mut out = vec![-1i16; n];
    let mut done = 0;
    while done < n {
        let end = (done + chunk).min(n);
        let got = dec.decode(&mut out[done..end]).unwrap();
        assert!(got > 0);
        done += got;
    }
    assert_eq!(dec.levels_left(), 0);
    assert_eq!(dec.decode(&mut [0; 4]).unwrap(), 0);
    assert_eq!(out, levels);

    // v2: the same runs with no prefix; the encoder reports their length.
    enc.put(levels).unwrap();
    let mut page = ByteSink::new();
    page.extend_from_slice(b"rep");
    let len = enc.flush_v2(&mut page).unwrap();
    assert_eq!(&page.as_slice()[3..], v1_runs.as_slice());
    assert_eq!(len, v1_runs.len());
    let mut dec = LevelDecoder::new(max).unwrap();
    dec.set_rle_v2(&page.as_slice()[3..3 + len], n).unwrap();
    let k = skip % (n + 1);
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = vec![0i16; n - k];
    assert_eq!(dec.decode(&mut rest).unwrap(), n - k);
    assert_eq!(rest, levels[k..]);

    // BIT_PACKED, MSB first, followed by other bytes.
    let mut packed = pack_msb_first(levels, width_of(max));
    let packed_len = packed.len();
    packed.extend_from_slice(&[0xAB; 3]);
    let mut dec = LevelDecoder::new(max).unwrap();
    assert_eq!(dec.set_bit_packed(&packed, n).unwrap(), packed_len);
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = vec![0i16; n - k];
    assert_eq!(dec.decode(&mut rest).unwrap(), n - k);
    assert_eq!(rest, levels[k..]);
}

fn levels_strategy() -> impl Strategy<Value = (i16, Vec<i16>)> {
    prop_oneof![
        0i16..=20,
        Just(255i16),
        Just(256),
        Just(1000),
        Just(i16::MAX)
    ]
    .prop_flat_map(|max| (Just(max), runs_of(0..=max)))
}

fn check_booleans(values: &[bool], valid: &[bool], chunk: usize, skip: usize) {
    let n = values.len();
    let mut enc = RleBooleanEncoder::new();
    let third = n / 3;
    enc.put(&values[..third]).unwrap();
    enc.put(&values[third..]).unwrap();
    assert_eq!(enc.num_values(), n);
    let estimate = enc.estimated_size();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    assert!(page.len() <= estimate);
    let len = u32::from_le_bytes(page.as_slice()[..4].try_into().unwrap()) as usize;
    assert_eq!(len + 4, page.len());

    let mut dec = RleBooleanDecoder::new();
    dec.set_data(page.as_slice(), n).unwrap();
    let mut out = vec![false; n];
    let mut done = 0;
    while done < n {
        let got = dec.decode(&mut out[done..], chunk).unwrap();
        assert!(got > 0);
        done += got;
    }
    assert_eq!(out, values);

    let k = skip % (n + 1);
    dec.set_data(page.as_slice(), n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = vec![false; n - k];
    assert_eq!(dec.decode(&mut rest, n).unwrap(), n - k);
    assert_eq!(rest, values[k..]);

    let slots = n.min(valid.len());
    let valid = &valid[..slots];
    let bm = bitmap(valid, 3);
    let present = valid.iter().filter(|v| **v).count();
    let mut enc = RleBooleanEncoder::new();
    enc.put_spaced(&values[..slots], &bm, 3).unwrap();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    let mut dec = RleBooleanDecoder::new();
    dec.set_data(page.as_slice(), present).unwrap();
    let mut out = vec![true; slots];
    dec.decode_spaced(&mut out, slots, &bm, 3, slots - present)
        .unwrap();
    for i in 0..slots {
        assert_eq!(out[i], valid[i] && values[i], "slot {i}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn levels_round_trip((max, levels) in levels_strategy(), chunk in 1usize..400, skip in any::<usize>()) {
        check_levels(max, &levels, chunk, skip);
    }

    #[test]
    fn booleans_round_trip(values in runs_of(any::<bool>()), valid in prop::collection::vec(any::<bool>(), 0..900), chunk in 1usize..600, skip in any::<usize>()) {
        check_booleans(&values, &valid, chunk, skip);
    }

    #[test]
    fn validity_matches_naive((max, levels) in levels_strategy(), offset in 0usize..17, fill in any::<u8>()) {
        let bytes = (offset + levels.len()).div_ceil(8) + 1;
        let mut bm = vec![fill; bytes];
        let nulls = def_levels_to_validity(&levels, max, &mut bm, offset).unwrap();
        prop_assert_eq!(nulls, levels.iter().filter(|&&l| l != max).count());
        for i in 0..bytes * 8 {
            let got = (bm[i / 8] >> (i % 8)) & 1 == 1;
            let want = if i >= offset && i < offset + levels.len() {
                levels[i - offset] == max
            } else {
                (fill >> (i % 8)) & 1 == 1
            };
            prop_assert_eq!(got, want, "bit {}", i);
        }
    }
}

#[test]
fn every_small_max_level_round_trips() {
    for max in 0i16..=16 {
        let levels: Vec<i16> = (0..1000)
            .map(|i| ((i * 7 + i / 13) % (max as i32 + 1)) as i16)
            .collect();
        check_levels(max, &levels, 64, 333);
        check_levels(max, &vec![max; 1000], 100, 5);
        check_levels(max, &[], 1, 0);
    }
}

#[test]
fn golden_level_and_boolean_bytes() {
    // BIT_PACKED (Encodings.md): 0..=7 at width 3, bits ABC DEF ... packed
    // from the most significant bit: 00000101 00111001 01110111.
    let data = [0b0000_0101, 0b0011_1001, 0b0111_0111];
    let mut dec = LevelDecoder::new(7).unwrap();
    assert_eq!(dec.set_bit_packed(&data, 8).unwrap(), 3);
    let mut out = [0i16; 8];
    assert_eq!(dec.decode(&mut out).unwrap(), 8);
    assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
    // The same values through the hybrid's bit-packed run are LSB first:
    // header 0b11, then 10001000 11000110 11111010.
    let mut dec = LevelDecoder::new(7).unwrap();
    dec.set_rle_v2(&[0b11, 0b1000_1000, 0b1100_0110, 0b1111_1010], 8)
        .unwrap();
    let mut out = [0i16; 8];
    assert_eq!(dec.decode(&mut out).unwrap(), 8);
    assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
    // Two levels at width 2, MSB first: 3 then 1 -> 11 01 0000.
    let mut dec = LevelDecoder::new(3).unwrap();
    assert_eq!(dec.set_bit_packed(&[0b1101_0000, 0xFF], 2).unwrap(), 1);
    let mut out = [0i16; 2];
    dec.decode(&mut out).unwrap();
    assert_eq!(out, [3, 1]);

    // v1 levels: 4-byte length 2, then an RLE run of 5 (header 5 << 1) of
    // level 2 (width 2, one value byte).
    let mut enc = LevelEncoder::new(2).unwrap();
    enc.put(&[2; 5]).unwrap();
    let mut page = ByteSink::new();
    enc.flush_v1(&mut page).unwrap();
    assert_eq!(page.as_slice(), &[2, 0, 0, 0, 10, 2]);
    // v2: no prefix.
    enc.put_repeated(1, 300).unwrap();
    let mut page = ByteSink::new();
    assert_eq!(enc.flush_v2(&mut page).unwrap(), 3);
    // 300 << 1 = 600 = ULEB128 0xD8 0x04.
    assert_eq!(page.as_slice(), &[0xD8, 0x04, 1]);

    // RLE booleans: length 2, an RLE run of 9 (header 18) of 1.
    let mut enc = RleBooleanEncoder::new();
    enc.put(&[true; 9]).unwrap();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    assert_eq!(page.as_slice(), &[2, 0, 0, 0, 18, 1]);
    // Decoding a hand-built v2-style boolean page (the prefix is present in
    // v2 too): one bit-packed group 0b0101_0011 -> 1,1,0,0,1,0,1,0.
    let page = [2, 0, 0, 0, 0b11, 0b0101_0011];
    let mut dec = RleBooleanDecoder::new();
    dec.set_data(&page, 8).unwrap();
    let mut out = [false; 8];
    dec.decode(&mut out, 8).unwrap();
    assert_eq!(out, [true, true, false, false, true, false, true, false]);
}

#[test]
fn level_refusals() {
    // A level above the maximum: max 2 (width 2), RLE run of one 3.
    let mut dec = LevelDecoder::new(2).unwrap();
    dec.set_rle_v2(&[2, 3], 1).unwrap();
    assert!(matches!(
        dec.decode(&mut [0; 1]),
        Err(EncodingError::Corrupt(_))
    ));
    // BIT_PACKED too: width 2, value 3 > 2.
    dec.set_bit_packed(&[0b1100_0000], 1).unwrap();
    assert!(dec.decode(&mut [0; 1]).is_err());
    // BIT_PACKED needs ceil(n * width / 8) bytes.
    assert!(dec.set_bit_packed(&[0; 2], 9).is_err());
    assert!(dec.set_bit_packed(&[0; 2], usize::MAX).is_err());
    // v1 length prefix past the data, or missing.
    assert!(dec.set_rle_v1(&[5, 0, 0, 0, 1, 2], 1).is_err());
    assert!(dec.set_rle_v1(&[5, 0], 1).is_err());
    // Runs ending before the announced count.
    dec.set_rle_v2(&[4, 1], 5).unwrap();
    assert!(matches!(
        dec.decode(&mut [0; 5]),
        Err(EncodingError::Truncated(_))
    ));
    // Encoder input outside 0..=max, nothing buffered.
    let mut enc = LevelEncoder::new(1).unwrap();
    assert!(enc.put(&[0, 1, 2]).is_err());
    assert!(enc.put(&[-1]).is_err());
    assert!(enc.put_repeated(2, 3).is_err());
    assert_eq!(enc.num_values(), 0);
    // Booleans: a length prefix past the page, or no prefix.
    let mut bdec = RleBooleanDecoder::new();
    assert!(bdec.set_data(&[9, 0, 0, 0, 1], 1).is_err());
    assert!(bdec.set_data(&[1], 1).is_err());
    bdec.set_data(&[2, 0, 0, 0, 4, 1], 3).unwrap();
    assert!(bdec.decode(&mut [false; 3], 3).is_err());
}

/// `levels` written under a maximum of 3 and read under a maximum of 2
/// (both 2 bits wide).
fn read_under_max_2(levels: &[i16]) -> Result<Vec<i16>, EncodingError> {
    let mut enc = LevelEncoder::new(3).unwrap();
    enc.put(levels).unwrap();
    let mut page = ByteSink::new();
    enc.flush_v2(&mut page).unwrap();
    let mut dec = LevelDecoder::new(2).unwrap();
    dec.set_rle_v2(page.as_slice(), levels.len()).unwrap();
    let mut out = vec![0i16; levels.len()];
    dec.decode(&mut out)?;
    Ok(out)
}

/// A 3 anywhere, in a run or a bit-packed group, is an error under a
/// maximum of 2; without one the levels read back.
#[test]
fn levels_above_the_maximum_are_errors() {
    for at in [0usize, 7, 8, 63, 64, 299] {
        for run in [false, true] {
            let mut levels: Vec<i16> = (0..300).map(|i| (i % 3) as i16).collect();
            let span = if run {
                at..(at + 12).min(300)
            } else {
                at..at + 1
            };
            levels[span.clone()].fill(2);
            assert_eq!(read_under_max_2(&levels).unwrap(), levels);
            levels[span].fill(3);
            assert!(read_under_max_2(&levels).is_err(), "a 3 at {at}, run {run}");
        }
    }
}
