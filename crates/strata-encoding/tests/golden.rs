//! Golden bytes derived by hand from the worked examples of the Parquet
//! specification (Encodings.md) and from its layout rules. Each expected
//! byte string is spelled out from the spec text, not captured from the
//! encoder.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use strata_encoding::{
    ByteArrayBatch, ByteArrayBuffer, ByteStreamSplitDecoder, ByteStreamSplitEncoder,
    ByteStreamSplitFixedLenDecoder, ByteStreamSplitFixedLenEncoder, Decoder,
    DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder, DeltaByteArrayDecoder,
    DeltaByteArrayEncoder, DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder, Encoder,
    FixedLenBatch, FixedLenByteArrayBuffer, Int96, PlainBooleanDecoder, PlainBooleanEncoder,
    PlainByteArrayEncoder, PlainDecoder, PlainEncoder,
};
use strata_sink::ByteSink;

fn flush<T: strata_encoding::ValueType>(enc: &mut impl Encoder<T>) -> Vec<u8> {
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    page.into_vec()
}

/// Spec example 1 (1, 2, 3, 4, 5), with the spec's illegal block size of 8
/// replaced by 128 and one miniblock:
/// header 128 (ULEB `80 01`), 1 miniblock, 5 values, first value 1 (zigzag
/// 2); block: min delta 1 (zigzag 2), bit width 0, no miniblock data.
#[test]
fn delta_binary_packed_spec_example_1() {
    let expected = [0x80, 0x01, 0x01, 0x05, 0x02, 0x02, 0x00];
    let mut enc = DeltaBinaryPackedEncoder::<i32>::with_layout(128, 1).unwrap();
    enc.put(&[1, 2, 3, 4, 5]).unwrap();
    assert_eq!(flush(&mut enc), expected);

    let mut dec = DeltaBinaryPackedDecoder::<i32>::new();
    dec.set_data(&expected, 5).unwrap();
    let mut out = [0; 5];
    assert_eq!(dec.decode(&mut out, 5).unwrap(), 5);
    assert_eq!(out, [1, 2, 3, 4, 5]);
}

/// The spec's example 1 taken literally has block size 8, which the spec
/// itself calls invalid: the decoder must refuse it.
#[test]
fn delta_binary_packed_rejects_spec_block_size_8() {
    let literal = [0x08, 0x01, 0x05, 0x02, 0x02, 0x00];
    let mut dec = DeltaBinaryPackedDecoder::<i32>::new();
    assert!(dec.set_data(&literal, 5).is_err());
}

/// Spec example 2 (7, 5, 3, 1, 2, 3, 4, 5): deltas -2,-2,-2,1,1,1,1, min
/// delta -2 (zigzag 3), relative deltas 0,0,0,3,3,3,3 at bit width 2.
/// Packed LSB first: byte 0 holds relative deltas 0..4 = 0,0,0,3 ->
/// 0b11_00_00_00 = 0xC0; byte 1 holds the last three, 3,3,3 -> 0b00_11_11_11
/// = 0x3F (seven deltas for eight values); the rest of the 128-value
/// miniblock (32 bytes at width 2) is zero padding.
#[test]
fn delta_binary_packed_spec_example_2() {
    let mut expected = vec![0x80, 0x01, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F];
    expected.extend_from_slice(&[0; 30]);
    let values = [7, 5, 3, 1, 2, 3, 4, 5];
    let mut enc = DeltaBinaryPackedEncoder::<i64>::with_layout(128, 1).unwrap();
    enc.put(&values).unwrap();
    assert_eq!(flush(&mut enc), expected);

    let mut dec = DeltaBinaryPackedDecoder::<i64>::new();
    dec.set_data(&expected, 8).unwrap();
    let mut out = [0; 8];
    assert_eq!(dec.decode(&mut out, 8).unwrap(), 8);
    assert_eq!(out, values);
}

/// Default layout (128 values, 4 miniblocks of 32): the unused miniblocks
/// still have their bit-width bytes, and only the first miniblock's 32
/// values x 2 bits = 8 bytes follow.
#[test]
fn delta_binary_packed_spec_example_2_default_layout() {
    let expected = [
        0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00, 0xC0, 0x3F, 0, 0, 0, 0, 0, 0,
    ];
    let mut enc = DeltaBinaryPackedEncoder::<i32>::new();
    enc.put(&[7, 5, 3, 1, 2, 3, 4, 5]).unwrap();
    assert_eq!(flush(&mut enc), expected);
}

/// Empty and single-value pages: a header only.
#[test]
fn delta_binary_packed_header_only() {
    let mut enc = DeltaBinaryPackedEncoder::<i32>::new();
    assert_eq!(flush(&mut enc), [0x80, 0x01, 0x04, 0x00, 0x00]);
    enc.put(&[-1]).unwrap();
    assert_eq!(flush(&mut enc), [0x80, 0x01, 0x04, 0x01, 0x01]);
}

/// Extreme deltas wrap: i64::MIN, i64::MAX has delta -1 (wrapping), min
/// delta -1 (zigzag 1), relative delta 0, bit width 0.
#[test]
fn delta_binary_packed_wrapping_extremes() {
    let expected = [
        0x80, 0x01, 0x04, 0x02, // header: 128, 4 miniblocks, 2 values
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, // zigzag(i64::MIN)
        0x01, 0x00, 0x00, 0x00, 0x00, // min delta -1, four widths of 0
    ];
    let mut enc = DeltaBinaryPackedEncoder::<i64>::new();
    enc.put(&[i64::MIN, i64::MAX]).unwrap();
    assert_eq!(flush(&mut enc), expected);
    let mut dec = DeltaBinaryPackedDecoder::<i64>::new();
    dec.set_data(&expected, 2).unwrap();
    let mut out = [0; 2];
    dec.decode(&mut out, 2).unwrap();
    assert_eq!(out, [i64::MIN, i64::MAX]);
}

/// Spec DELTA_LENGTH_BYTE_ARRAY example: "Hello", "World", "Foobar",
/// "ABCDEF" -> DeltaEncoding(5, 5, 6, 6) then "HelloWorldFoobarABCDEF".
/// Lengths: first value 5 (zigzag 10); deltas 0, 1, 0, min 0, relative 0,1,0
/// at width 1 -> first byte 0b010 = 0x02, 4 bytes for the 32-value group.
#[test]
fn delta_length_byte_array_spec_example() {
    let mut expected = vec![
        0x80, 0x01, 0x04, 0x04, 0x0A, // header
        0x00, 0x01, 0x00, 0x00, 0x00, // min delta 0, widths 1,0,0,0
        0x02, 0x00, 0x00, 0x00, // miniblock 0
    ];
    expected.extend_from_slice(b"HelloWorldFoobarABCDEF");
    let words: [&[u8]; 4] = [b"Hello", b"World", b"Foobar", b"ABCDEF"];
    let mut enc = DeltaLengthByteArrayEncoder::new();
    enc.put(ByteArrayBatch::from_slices(&words)).unwrap();
    assert_eq!(flush(&mut enc), expected);

    let mut dec = DeltaLengthByteArrayDecoder::new();
    dec.set_data(&expected, 4).unwrap();
    let mut out = ByteArrayBuffer::new();
    assert_eq!(dec.decode(&mut out, 4).unwrap(), 4);
    assert_eq!(out.offsets(), &[0, 5, 10, 16, 22]);
    assert_eq!(out.values(), b"HelloWorldFoobarABCDEF");
}

/// Spec DELTA_BYTE_ARRAY example: "axis", "axle", "babble", "babyhood" ->
/// prefix lengths (0, 2, 0, 3), suffix lengths (4, 2, 6, 5),
/// "axislebabbleyhood".
///
/// Prefixes: first 0; deltas 2, -2, 3; min -2 (zigzag 3); relative 4, 0, 5
/// at width 3: bits 0-2 = 100, bits 3-5 = 000, bits 6-8 = 101 -> bytes
/// 0x44, 0x01, then zeros to 12 bytes.
/// Suffix lengths: first 4 (zigzag 8); deltas -2, 4, -1; min -2; relative
/// 0, 6, 1 at width 3: bits 3-5 = 110, bits 6-8 = 001 -> 0x70, 0x00, zeros.
#[test]
fn delta_byte_array_spec_example() {
    let mut expected = vec![0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00];
    expected.extend_from_slice(&[0x44, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expected.extend_from_slice(&[0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00]);
    expected.extend_from_slice(&[0x70, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expected.extend_from_slice(b"axislebabbleyhood");

    let words: [&[u8]; 4] = [b"axis", b"axle", b"babble", b"babyhood"];
    let mut enc = DeltaByteArrayEncoder::new();
    enc.put(ByteArrayBatch::from_slices(&words)).unwrap();
    assert_eq!(flush(&mut enc), expected);

    let mut dec = DeltaByteArrayDecoder::new();
    dec.set_data(&expected, 4).unwrap();
    let mut out = ByteArrayBuffer::new();
    assert_eq!(dec.decode(&mut out, 4).unwrap(), 4);
    let got: Vec<&[u8]> = out.iter().collect();
    assert_eq!(got, words);
}

/// Spec BYTE_STREAM_SPLIT example: three FLOATs with raw bytes
/// AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6 become
/// AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6.
#[test]
fn byte_stream_split_spec_example() {
    let raw: [[u8; 4]; 3] = [
        [0xAA, 0xBB, 0xCC, 0xDD],
        [0x00, 0x11, 0x22, 0x33],
        [0xA3, 0xB4, 0xC5, 0xD6],
    ];
    let expected = [
        0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6,
    ];
    let floats: Vec<f32> = raw.iter().map(|b| f32::from_le_bytes(*b)).collect();
    let mut enc = ByteStreamSplitEncoder::<f32>::new();
    enc.put(&floats).unwrap();
    assert_eq!(flush(&mut enc), expected);

    let mut dec = ByteStreamSplitDecoder::<f32>::new();
    dec.set_data(&expected, 3).unwrap();
    let mut out = [0f32; 3];
    dec.decode(&mut out, 3).unwrap();
    let bits: Vec<u32> = out.iter().map(|f| f.to_bits()).collect();
    let want: Vec<u32> = floats.iter().map(|f| f.to_bits()).collect();
    assert_eq!(bits, want);

    // The same bytes as 4-byte FIXED_LEN_BYTE_ARRAY values.
    let flat: Vec<u8> = raw.concat();
    let mut enc = ByteStreamSplitFixedLenEncoder::new(4).unwrap();
    enc.put(FixedLenBatch::new(4, &flat).unwrap()).unwrap();
    assert_eq!(flush(&mut enc), expected);
    let mut dec = ByteStreamSplitFixedLenDecoder::new(4).unwrap();
    dec.set_data(&expected, 3).unwrap();
    let mut out = FixedLenByteArrayBuffer::new(4);
    dec.decode(&mut out, 3).unwrap();
    assert_eq!(out.values(), flat.as_slice());
}

/// PLAIN layouts from the spec's list: little-endian integers, INT96 as 12
/// bytes, BYTE_ARRAY as a 4-byte length and the bytes, BOOLEAN bit-packed
/// LSB first.
#[test]
fn plain_layouts() {
    let mut enc = PlainEncoder::<i32>::new();
    enc.put(&[0x0102_0304, -2]).unwrap();
    assert_eq!(
        flush(&mut enc),
        [0x04, 0x03, 0x02, 0x01, 0xFE, 0xFF, 0xFF, 0xFF]
    );

    let mut enc = PlainEncoder::<Int96>::new();
    enc.put(&[Int96([1, 2, 0x0A0B_0C0D])]).unwrap();
    let page = flush(&mut enc);
    assert_eq!(page, [1, 0, 0, 0, 2, 0, 0, 0, 0x0D, 0x0C, 0x0B, 0x0A]);
    let mut dec = PlainDecoder::<Int96>::new();
    dec.set_data(&page, 1).unwrap();
    let mut out = [Int96::default()];
    dec.decode(&mut out, 1).unwrap();
    assert_eq!(out[0], Int96([1, 2, 0x0A0B_0C0D]));

    let mut enc = PlainEncoder::<f64>::new();
    enc.put(&[1.0]).unwrap();
    assert_eq!(flush(&mut enc), [0, 0, 0, 0, 0, 0, 0xF0, 0x3F]);

    let mut enc = PlainByteArrayEncoder::new();
    enc.put(ByteArrayBatch::from_slices(&[b"Hi", b""])).unwrap();
    assert_eq!(flush(&mut enc), [2, 0, 0, 0, b'H', b'i', 0, 0, 0, 0]);

    // Booleans: true, false, true, true | 8 more with only the last set.
    let mut bools = vec![true, false, true, true, false, false, false, false];
    bools.extend([false, false, false, true]);
    let mut enc = PlainBooleanEncoder::new();
    enc.put(&bools[..3]).unwrap(); // an unaligned batch boundary
    enc.put(&bools[3..]).unwrap();
    let page = flush(&mut enc);
    assert_eq!(page, [0b0000_1101, 0b0000_1000]);
    let mut dec = PlainBooleanDecoder::new();
    dec.set_data(&page, bools.len()).unwrap();
    let mut out = vec![false; bools.len()];
    dec.decode(&mut out, bools.len()).unwrap();
    assert_eq!(out, bools);
}
