//! Property round trips for every (encoding, type) pair: dense batches split
//! at random points, spaced batches with random validity (all-null and
//! empty included), chunked decoding, skipping, and encoder reuse across
//! pages.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt::Debug;

use proptest::prelude::*;
use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, ByteStreamSplitDecoder, ByteStreamSplitEncoder,
    ByteStreamSplitFixedLenDecoder, ByteStreamSplitFixedLenEncoder, Decoder,
    DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder, DeltaByteArrayDecoder,
    DeltaByteArrayEncoder, DeltaByteArrayFixedLenDecoder, DeltaByteArrayFixedLenEncoder,
    DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder, Encoder, FixedLenBatch,
    FixedLenByteArray, FixedLenByteArrayBuffer, Int96, PlainBooleanDecoder, PlainBooleanEncoder,
    PlainByteArrayDecoder, PlainByteArrayEncoder, PlainDecoder, PlainEncoder,
    PlainFixedLenByteArrayDecoder, PlainFixedLenByteArrayEncoder, ValueType,
};
use strata_sink::ByteSink;

/// An (encoder, decoder) pair for one value type.
trait Codec<T: ValueType> {
    fn encoder(&self) -> Box<dyn Encoder<T>>;
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, T> + 'a>;
    /// Whether `estimated_size` is exact (otherwise an upper bound).
    fn exact_estimate(&self) -> bool;
}

macro_rules! codec {
    ($name:ident < $t:ty > , $exact:expr, $enc:expr, $dec:expr) => {
        struct $name;
        impl Codec<$t> for $name {
            fn encoder(&self) -> Box<dyn Encoder<$t>> {
                Box::new($enc)
            }
            fn decoder<'a>(&self) -> Box<dyn Decoder<'a, $t> + 'a> {
                Box::new($dec)
            }
            fn exact_estimate(&self) -> bool {
                $exact
            }
        }
    };
}

codec!(
    PlainI32<i32>,
    true,
    PlainEncoder::<i32>::new(),
    PlainDecoder::<i32>::new()
);
codec!(
    PlainI64<i64>,
    true,
    PlainEncoder::<i64>::new(),
    PlainDecoder::<i64>::new()
);
codec!(
    PlainF32<f32>,
    true,
    PlainEncoder::<f32>::new(),
    PlainDecoder::<f32>::new()
);
codec!(
    PlainF64<f64>,
    true,
    PlainEncoder::<f64>::new(),
    PlainDecoder::<f64>::new()
);
codec!(
    PlainInt96<Int96>,
    true,
    PlainEncoder::<Int96>::new(),
    PlainDecoder::<Int96>::new()
);
codec!(
    PlainBool<bool>,
    true,
    PlainBooleanEncoder::new(),
    PlainBooleanDecoder::new()
);
codec!(
    BssI32<i32>,
    true,
    ByteStreamSplitEncoder::<i32>::new(),
    ByteStreamSplitDecoder::<i32>::new()
);
codec!(
    BssI64<i64>,
    true,
    ByteStreamSplitEncoder::<i64>::new(),
    ByteStreamSplitDecoder::<i64>::new()
);
codec!(
    BssF32<f32>,
    true,
    ByteStreamSplitEncoder::<f32>::new(),
    ByteStreamSplitDecoder::<f32>::new()
);
codec!(
    BssF64<f64>,
    true,
    ByteStreamSplitEncoder::<f64>::new(),
    ByteStreamSplitDecoder::<f64>::new()
);
codec!(
    DeltaI32<i32>,
    false,
    DeltaBinaryPackedEncoder::<i32>::new(),
    DeltaBinaryPackedDecoder::<i32>::new()
);
codec!(
    DeltaI64<i64>,
    false,
    DeltaBinaryPackedEncoder::<i64>::new(),
    DeltaBinaryPackedDecoder::<i64>::new()
);
codec!(
    DeltaI64Wide<i64>,
    false,
    DeltaBinaryPackedEncoder::<i64>::with_layout(256, 2).unwrap(),
    DeltaBinaryPackedDecoder::<i64>::new()
);
codec!(
    DeltaI32Narrow<i32>,
    false,
    DeltaBinaryPackedEncoder::<i32>::with_layout(128, 1).unwrap(),
    DeltaBinaryPackedDecoder::<i32>::new()
);
codec!(
    PlainBytes<ByteArray>,
    true,
    PlainByteArrayEncoder::new(),
    PlainByteArrayDecoder::new()
);
codec!(
    DeltaLenBytes<ByteArray>,
    false,
    DeltaLengthByteArrayEncoder::new(),
    DeltaLengthByteArrayDecoder::new()
);
codec!(
    DeltaBytes<ByteArray>,
    false,
    DeltaByteArrayEncoder::new(),
    DeltaByteArrayDecoder::new()
);
codec!(
    PlainBytes64<ByteArray<i64>>,
    true,
    TypedBytes(PlainByteArrayEncoder::new()),
    PlainByteArrayDecoder::<i64>::default()
);
codec!(
    DeltaBytes64<ByteArray<i64>>,
    false,
    TypedBytes(DeltaByteArrayEncoder::new()),
    DeltaByteArrayDecoder::<i64>::default()
);

/// Encoders implement `Encoder<ByteArray>`; this adapter lets the generic
/// harness drive them as `Encoder<ByteArray<i64>>` (same input batches).
struct TypedBytes<E>(E);

impl<E: Encoder<ByteArray>> Encoder<ByteArray<i64>> for TypedBytes<E> {
    fn put(&mut self, values: ByteArrayBatch<'_>) -> strata_encoding::Result<()> {
        self.0.put(values)
    }
    fn flush_into(&mut self, page: &mut ByteSink) -> strata_encoding::Result<()> {
        self.0.flush_into(page)
    }
    fn num_values(&self) -> usize {
        self.0.num_values()
    }
    fn estimated_size(&self) -> usize {
        self.0.estimated_size()
    }
    fn heap_size(&self) -> usize {
        self.0.heap_size()
    }
    fn encoding(&self) -> strata_encoding::Encoding {
        self.0.encoding()
    }
}

/// Equality that treats floats by their bits (NaN payloads included).
trait Same: Copy + Debug + Default {
    fn same(&self, other: &Self) -> bool;
}
macro_rules! same_eq {
    ($($t:ty),*) => { $(impl Same for $t { fn same(&self, o: &Self) -> bool { self == o } })* };
}
same_eq!(i32, i64, bool, Int96);
impl Same for f32 {
    fn same(&self, o: &Self) -> bool {
        self.to_bits() == o.to_bits()
    }
}
impl Same for f64 {
    fn same(&self, o: &Self) -> bool {
        self.to_bits() == o.to_bits()
    }
}

fn bitmap(valid: &[bool], offset: usize) -> Vec<u8> {
    let mut bm = vec![0u8; (valid.len() + offset).div_ceil(8)];
    for (i, &v) in valid.iter().enumerate() {
        if v {
            bm[(i + offset) / 8] |= 1 << ((i + offset) % 8);
        }
    }
    bm
}

/// Encode with `put`, split at `splits`, into a page that already holds
/// `prefix` bytes; check the estimate; return the page.
fn encode_pieces<T: ValueType>(
    codec: &impl Codec<T>,
    enc: &mut dyn Encoder<T>,
    pieces: &[T::Batch<'_>],
    n: usize,
    prefix: &[u8],
) -> Vec<u8> {
    for &p in pieces {
        enc.put(p).unwrap();
    }
    assert_eq!(enc.num_values(), n);
    let estimate = enc.estimated_size();
    let mut page = ByteSink::new();
    page.extend_from_slice(prefix);
    enc.flush_into(&mut page).unwrap();
    let written = page.len() - prefix.len();
    if codec.exact_estimate() {
        assert_eq!(written, estimate);
    } else {
        assert!(written <= estimate, "wrote {written} > estimate {estimate}");
    }
    assert_eq!(enc.num_values(), 0);
    page.into_vec()
}

fn cut_points(len: usize, splits: &[usize]) -> Vec<usize> {
    let mut cuts: Vec<usize> = splits.iter().map(|s| s % (len + 1)).collect();
    cuts.push(0);
    cuts.push(len);
    cuts.sort_unstable();
    cuts
}

/// The full check for slice-typed values.
fn check_slices<T, C>(codec: &C, values: &[T], valid: &[bool], splits: &[usize], chunk: usize)
where
    T: Same + ValueType<Out = [T]> + for<'b> ValueType<Batch<'b> = &'b [T]>,
    C: Codec<T>,
{
    let n = values.len();
    let cuts = cut_points(n, splits);
    let pieces: Vec<&[T]> = cuts.windows(2).map(|w| &values[w[0]..w[1]]).collect();
    let mut enc = codec.encoder();
    let page = encode_pieces(codec, enc.as_mut(), &pieces, n, b"");

    // Dense decode in chunks.
    let mut dec = codec.decoder();
    dec.set_data(&page, n).unwrap();
    let mut out = vec![T::default(); n];
    let mut done = 0;
    while done < n {
        let got = dec.decode(&mut out[done..], chunk).unwrap();
        assert!(got > 0);
        done += got;
    }
    assert_eq!(dec.values_left(), 0);
    assert_eq!(dec.decode(&mut [T::default(); 4], 4).unwrap(), 0);
    for (a, b) in out.iter().zip(values) {
        assert!(a.same(b), "{a:?} != {b:?}");
    }

    // Skip then decode the rest.
    let k = splits.first().map_or(0, |s| s % (n + 1));
    let mut dec = codec.decoder();
    dec.set_data(&page, n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = vec![T::default(); n - k];
    assert_eq!(dec.decode(&mut rest, n).unwrap(), n - k);
    for (a, b) in rest.iter().zip(&values[k..]) {
        assert!(a.same(b));
    }

    // The encoder is reusable: the same values give the same page.
    let page2 = encode_pieces(codec, enc.as_mut(), &[values], n, b"xy");
    assert_eq!(&page2[2..], page.as_slice());

    // Spaced: encode the present values, decode them back into their slots.
    let valid = &valid[..n.min(valid.len())];
    let slots = valid.len();
    let offset = splits.get(1).map_or(0, |s| s % 8);
    let bm = bitmap(valid, offset);
    let present: Vec<T> = values[..slots]
        .iter()
        .zip(valid)
        .filter(|(_, v)| **v)
        .map(|(x, _)| *x)
        .collect();
    let nulls = slots - present.len();
    let mut enc = codec.encoder();
    enc.put_spaced(&values[..slots], &bm, offset).unwrap();
    assert_eq!(enc.num_values(), present.len());
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    let mut dec = codec.decoder();
    dec.set_data(page.as_slice(), present.len()).unwrap();
    let mut out = vec![T::default(); slots];
    assert_eq!(
        dec.decode_spaced(&mut out, slots, &bm, offset, nulls)
            .unwrap(),
        slots
    );
    for i in 0..slots {
        let want = if valid[i] { values[i] } else { T::default() };
        assert!(out[i].same(&want), "slot {i}: {:?} != {want:?}", out[i]);
    }
}

fn batches_of<'a>(
    values: &'a [Vec<u8>],
    refs: &'a [&'a [u8]],
) -> (Vec<i32>, Vec<u8>, &'a [&'a [u8]]) {
    let mut offsets = vec![0i32];
    let mut flat = Vec::new();
    for v in values {
        flat.extend_from_slice(v);
        offsets.push(flat.len() as i32);
    }
    (offsets, flat, refs)
}

/// The full check for byte arrays, through both input layouts.
fn check_bytes<O, C>(codec: &C, values: &[Vec<u8>], valid: &[bool], splits: &[usize], chunk: usize)
where
    O: strata_encoding::OffsetSize,
    C: Codec<ByteArray<O>>,
{
    let n = values.len();
    let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
    let (offsets, flat, refs) = batches_of(values, &refs);
    let cuts = cut_points(n, splits);

    // Slices input and Arrow-layout input must give the same page.
    let slice_pieces: Vec<ByteArrayBatch<'_>> = cuts
        .windows(2)
        .map(|w| ByteArrayBatch::from_slices(&refs[w[0]..w[1]]))
        .collect();
    let offset_pieces: Vec<ByteArrayBatch<'_>> = cuts
        .windows(2)
        .map(|w| ByteArrayBatch::from_offsets(&offsets[w[0]..=w[1]], &flat).unwrap())
        .collect();
    let mut enc = codec.encoder();
    let page = encode_pieces(codec, enc.as_mut(), &slice_pieces, n, b"");
    let page_arrow = encode_pieces(codec, enc.as_mut(), &offset_pieces, n, b"");
    assert_eq!(page, page_arrow);

    let mut dec = codec.decoder();
    dec.set_data(&page, n).unwrap();
    let mut out = ByteArrayBuffer::<O>::default();
    let mut done = 0;
    while done < n {
        let got = dec.decode(&mut out, chunk).unwrap();
        assert!(got > 0);
        done += got;
    }
    assert_eq!(dec.values_left(), 0);
    assert_eq!(out.len(), n);
    assert_eq!(out.values(), flat.as_slice());
    for (i, v) in values.iter().enumerate() {
        assert_eq!(out.value(i), Some(v.as_slice()));
    }

    // Skip then decode.
    let k = splits.first().map_or(0, |s| s % (n + 1));
    let mut dec = codec.decoder();
    dec.set_data(&page, n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = ByteArrayBuffer::<O>::default();
    assert_eq!(dec.decode(&mut rest, usize::MAX).unwrap(), n - k);
    for (i, v) in values[k..].iter().enumerate() {
        assert_eq!(rest.value(i), Some(v.as_slice()));
    }

    // Spaced, from the Arrow layout, into a buffer that already has a value.
    let slots = n.min(valid.len());
    let offset = splits.get(1).map_or(0, |s| s % 8);
    check_bytes_spaced::<O, C>(codec, values, &offsets, &flat, &valid[..slots], offset);
}

/// Encode the first `valid.len()` values with `put_spaced` from a bitmap at
/// bit `offset`, decode them spaced into a buffer that already holds a
/// value, and compare slot by slot (null slots are empty).
fn check_bytes_spaced<O, C>(
    codec: &C,
    values: &[Vec<u8>],
    offsets: &[i32],
    flat: &[u8],
    valid: &[bool],
    offset: usize,
) where
    O: strata_encoding::OffsetSize,
    C: Codec<ByteArray<O>>,
{
    let slots = valid.len();
    let bm = bitmap(valid, offset);
    let present = valid.iter().filter(|v| **v).count();
    let mut enc = codec.encoder();
    enc.put_spaced(
        ByteArrayBatch::from_offsets(&offsets[..=slots], flat).unwrap(),
        &bm,
        offset,
    )
    .unwrap();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    let mut dec = codec.decoder();
    dec.set_data(page.as_slice(), present).unwrap();
    let mut out = ByteArrayBuffer::<O>::default();
    out.push(b"before").unwrap();
    dec.decode_spaced(&mut out, slots, &bm, offset, slots - present)
        .unwrap();
    assert_eq!(out.len(), slots + 1);
    assert_eq!(out.value(0), Some(&b"before"[..]));
    for i in 0..slots {
        let want: &[u8] = if valid[i] { &values[i] } else { b"" };
        assert_eq!(out.value(i + 1), Some(want), "offset {offset}, slot {i}");
    }
}

/// The full check for fixed-length byte arrays.
fn check_fixed_len<C: Codec<FixedLenByteArray>>(
    codec: &C,
    width: usize,
    flat: &[u8],
    valid: &[bool],
    splits: &[usize],
) {
    let n = flat.len() / width;
    let flat = &flat[..n * width];
    let cuts = cut_points(n, splits);
    let pieces: Vec<FixedLenBatch<'_>> = cuts
        .windows(2)
        .map(|w| FixedLenBatch::new(width, &flat[w[0] * width..w[1] * width]).unwrap())
        .collect();
    let mut enc = codec.encoder();
    let page = encode_pieces(codec, enc.as_mut(), &pieces, n, b"");
    let mut dec = codec.decoder();
    dec.set_data(&page, n).unwrap();
    let mut out = FixedLenByteArrayBuffer::new(width);
    assert_eq!(dec.decode(&mut out, n).unwrap(), n);
    assert_eq!(out.values(), flat);

    let k = splits.first().map_or(0, |s| s % (n + 1));
    let mut dec = codec.decoder();
    dec.set_data(&page, n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = FixedLenByteArrayBuffer::new(width);
    dec.decode(&mut rest, n).unwrap();
    assert_eq!(rest.values(), &flat[k * width..]);

    let slots = n.min(valid.len());
    let valid = &valid[..slots];
    let bm = bitmap(valid, 0);
    let present = valid.iter().filter(|v| **v).count();
    let mut enc = codec.encoder();
    enc.put_spaced(
        FixedLenBatch::new(width, &flat[..slots * width]).unwrap(),
        &bm,
        0,
    )
    .unwrap();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    let mut dec = codec.decoder();
    dec.set_data(page.as_slice(), present).unwrap();
    let mut out = FixedLenByteArrayBuffer::new(width);
    dec.decode_spaced(&mut out, slots, &bm, 0, slots - present)
        .unwrap();
    for i in 0..slots {
        let want = if valid[i] {
            flat[i * width..(i + 1) * width].to_vec()
        } else {
            vec![0; width]
        };
        assert_eq!(out.value(i), Some(want.as_slice()));
    }
}

struct FlbaPlain(usize);
struct FlbaBss(usize);
struct FlbaDelta(usize);
impl Codec<FixedLenByteArray> for FlbaPlain {
    fn encoder(&self) -> Box<dyn Encoder<FixedLenByteArray>> {
        Box::new(PlainFixedLenByteArrayEncoder::new(self.0).unwrap())
    }
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a> {
        Box::new(PlainFixedLenByteArrayDecoder::new(self.0).unwrap())
    }
    fn exact_estimate(&self) -> bool {
        true
    }
}
impl Codec<FixedLenByteArray> for FlbaBss {
    fn encoder(&self) -> Box<dyn Encoder<FixedLenByteArray>> {
        Box::new(ByteStreamSplitFixedLenEncoder::new(self.0).unwrap())
    }
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a> {
        Box::new(ByteStreamSplitFixedLenDecoder::new(self.0).unwrap())
    }
    fn exact_estimate(&self) -> bool {
        true
    }
}
impl Codec<FixedLenByteArray> for FlbaDelta {
    fn encoder(&self) -> Box<dyn Encoder<FixedLenByteArray>> {
        Box::new(DeltaByteArrayFixedLenEncoder::new(self.0).unwrap())
    }
    fn decoder<'a>(&self) -> Box<dyn Decoder<'a, FixedLenByteArray> + 'a> {
        Box::new(DeltaByteArrayFixedLenDecoder::new(self.0).unwrap())
    }
    fn exact_estimate(&self) -> bool {
        false
    }
}

fn int64s() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        Just(i64::MIN),
        Just(i64::MAX),
        -4i64..4,
        (0i64..1_000_000),
    ]
}

fn int32s() -> impl Strategy<Value = i32> {
    prop_oneof![
        any::<i32>(),
        Just(i32::MIN),
        Just(i32::MAX),
        -4i32..4,
        0i32..100_000
    ]
}

/// Byte strings with long shared prefixes, empty values and a few large ones.
fn byte_strings() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        4 => (0usize..40, prop::collection::vec(any::<u8>(), 0..6)).prop_map(|(p, tail)| {
            let mut v = vec![b'k'; p];
            v.extend(tail);
            v
        }),
        1 => Just(Vec::new()),
        1 => prop::collection::vec(any::<u8>(), 0..3000),
    ];
    prop::collection::vec(value, 0..300)
}

fn validity() -> impl Strategy<Value = Vec<bool>> {
    prop_oneof![
        prop::collection::vec(any::<bool>(), 0..700),
        prop::collection::vec(Just(false), 0..300),
        prop::collection::vec(Just(true), 0..300),
    ]
}

fn splits() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 2..5)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn plain_i32(v in prop::collection::vec(int32s(), 0..700), m in validity(), s in splits(), c in 1usize..300) {
        check_slices(&PlainI32, &v, &m, &s, c);
    }

    #[test]
    fn plain_i64(v in prop::collection::vec(int64s(), 0..700), m in validity(), s in splits(), c in 1usize..300) {
        check_slices(&PlainI64, &v, &m, &s, c);
    }

    #[test]
    fn plain_floats(bits in prop::collection::vec(any::<u64>(), 0..700), m in validity(), s in splits(), c in 1usize..300) {
        let f64s: Vec<f64> = bits.iter().map(|b| f64::from_bits(*b)).collect();
        let f32s: Vec<f32> = bits.iter().map(|b| f32::from_bits(*b as u32)).collect();
        check_slices(&PlainF64, &f64s, &m, &s, c);
        check_slices(&PlainF32, &f32s, &m, &s, c);
    }

    #[test]
    fn plain_int96(w in prop::collection::vec(any::<[u32; 3]>(), 0..400), m in validity(), s in splits(), c in 1usize..300) {
        let v: Vec<Int96> = w.into_iter().map(Int96).collect();
        check_slices(&PlainInt96, &v, &m, &s, c);
    }

    #[test]
    fn plain_bool(v in prop::collection::vec(any::<bool>(), 0..700), m in validity(), s in splits(), c in 1usize..300) {
        check_slices(&PlainBool, &v, &m, &s, c);
    }

    #[test]
    fn byte_stream_split_numeric(bits in prop::collection::vec(any::<u64>(), 0..700), m in validity(), s in splits(), c in 1usize..300) {
        let i64s: Vec<i64> = bits.iter().map(|b| *b as i64).collect();
        let i32s: Vec<i32> = bits.iter().map(|b| *b as i32).collect();
        let f64s: Vec<f64> = bits.iter().map(|b| f64::from_bits(*b)).collect();
        let f32s: Vec<f32> = bits.iter().map(|b| f32::from_bits(*b as u32)).collect();
        check_slices(&BssI64, &i64s, &m, &s, c);
        check_slices(&BssI32, &i32s, &m, &s, c);
        check_slices(&BssF64, &f64s, &m, &s, c);
        check_slices(&BssF32, &f32s, &m, &s, c);
    }

    #[test]
    fn delta_i32(v in prop::collection::vec(int32s(), 0..1200), m in validity(), s in splits(), c in 1usize..300) {
        check_slices(&DeltaI32, &v, &m, &s, c);
        check_slices(&DeltaI32Narrow, &v, &m, &s, c);
    }

    #[test]
    fn delta_i64(v in prop::collection::vec(int64s(), 0..1200), m in validity(), s in splits(), c in 1usize..300) {
        check_slices(&DeltaI64, &v, &m, &s, c);
        check_slices(&DeltaI64Wide, &v, &m, &s, c);
    }

    #[test]
    fn delta_i64_sorted(start in int64s(), steps in prop::collection::vec(0i64..50, 0..900), s in splits()) {
        let v: Vec<i64> = steps.iter().scan(start, |acc, d| { *acc = acc.wrapping_add(*d); Some(*acc) }).collect();
        check_slices(&DeltaI64, &v, &[], &s, 64);
    }

    #[test]
    fn plain_byte_array(v in byte_strings(), m in validity(), s in splits(), c in 1usize..300) {
        check_bytes(&PlainBytes, &v, &m, &s, c);
        check_bytes(&PlainBytes64, &v, &m, &s, c);
    }

    #[test]
    fn delta_length_byte_array(v in byte_strings(), m in validity(), s in splits(), c in 1usize..300) {
        check_bytes(&DeltaLenBytes, &v, &m, &s, c);
    }

    #[test]
    fn delta_byte_array(v in byte_strings(), m in validity(), s in splits(), c in 1usize..300) {
        check_bytes(&DeltaBytes, &v, &m, &s, c);
        check_bytes(&DeltaBytes64, &v, &m, &s, c);
    }

    #[test]
    fn fixed_len_byte_array(width in 1usize..20, flat in prop::collection::vec(any::<u8>(), 0..2000), m in validity(), s in splits()) {
        check_fixed_len(&FlbaPlain(width), width, &flat, &m, &s);
        check_fixed_len(&FlbaBss(width), width, &flat, &m, &s);
        check_fixed_len(&FlbaDelta(width), width, &flat, &m, &s);
    }

    #[test]
    fn fixed_len_shared_prefixes(width in 1usize..40, n in 0usize..300, seed in any::<u64>(), m in validity()) {
        // Mostly identical values with rare changes: long shared prefixes.
        let mut x = seed | 1;
        let mut flat = Vec::with_capacity(n * width);
        let mut cur = vec![b'p'; width];
        for _ in 0..n {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            if x % 5 == 0 {
                let at = (x >> 8) as usize % width;
                cur[at] = (x >> 16) as u8;
            }
            flat.extend_from_slice(&cur);
        }
        check_fixed_len(&FlbaDelta(width), width, &flat, &m, &[n / 2, 3]);
    }
}

#[test]
fn all_null_and_empty_batches() {
    // All-null spaced batches encode nothing, and decode to default slots.
    let values = [5i64; 70];
    let bm = [0u8; 9];
    for codec in [&DeltaI64 as &dyn Codec<i64>, &PlainI64, &BssI64] {
        let mut enc = codec.encoder();
        enc.put_spaced(&values, &bm, 0).unwrap();
        enc.put(&[]).unwrap();
        assert_eq!(enc.num_values(), 0);
        let mut page = ByteSink::new();
        enc.flush_into(&mut page).unwrap();
        let mut dec = codec.decoder();
        dec.set_data(page.as_slice(), 0).unwrap();
        let mut out = [9i64; 70];
        assert_eq!(dec.decode_spaced(&mut out, 70, &bm, 0, 70).unwrap(), 70);
        assert_eq!(out, [0; 70]);
    }
    // Large byte arrays.
    let big = vec![7u8; 1 << 20];
    let refs: [&[u8]; 3] = [&big, b"", &big[1..]];
    check_bytes(
        &DeltaBytes,
        &refs.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
        &[true, false, true],
        &[1, 2],
        2,
    );
}

#[test]
fn decode_spaced_with_no_nulls_ignores_the_bitmap() {
    // null_count == 0 is the dense path: even an empty bitmap is fine.
    let mut enc = PlainEncoder::<i32>::new();
    enc.put(&[1, 2, 3]).unwrap();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    let mut dec = PlainDecoder::<i32>::new();
    dec.set_data(page.as_slice(), 3).unwrap();
    let mut out = [0; 3];
    assert_eq!(dec.decode_spaced(&mut out, 3, &[], 0, 0).unwrap(), 3);
    assert_eq!(out, [1, 2, 3]);
}

#[test]
fn spaced_argument_errors() {
    let mut dec = PlainDecoder::<i32>::new();
    dec.set_data(&[0; 8], 2).unwrap();
    let mut out = [0; 4];
    // Bitmap too short for the slots.
    assert!(dec.decode_spaced(&mut out, 4, &[], 0, 2).is_err());
    // Set bits disagree with the null count.
    assert!(dec.decode_spaced(&mut out, 4, &[0b0111], 0, 2).is_err());
    // More present values than the page holds.
    assert!(dec.decode_spaced(&mut out, 4, &[0b0111], 0, 1).is_err());
    // Output slice too short.
    assert!(dec.decode_spaced(&mut out[..2], 3, &[0b101], 0, 1).is_err());
    assert_eq!(dec.decode_spaced(&mut out, 4, &[0b1001], 0, 2).unwrap(), 4);
    assert_eq!(out, [0, 0, 0, 0]);
    // Bad encoder arguments.
    let mut enc = PlainFixedLenByteArrayEncoder::new(4).unwrap();
    assert!(enc.put(FixedLenBatch::new(2, b"ab").unwrap()).is_err());
    assert!(PlainFixedLenByteArrayEncoder::new(0).is_err());
    assert!(
        enc.put_spaced(FixedLenBatch::new(4, b"abcd").unwrap(), &[], 0)
            .is_err()
    );
}

/// Every target refuses a bitmap whose set bits disagree with the values
/// it holds, called directly as well as through `decode_spaced`.
#[test]
fn finish_spaced_checks_the_set_bits_of_every_target() {
    use strata_encoding::DecodeTarget;
    let mut fixed = FixedLenByteArrayBuffer::new(2);
    let mark = fixed.begin_spaced(4).unwrap();
    fixed.push(b"ab").unwrap();
    fixed.push(b"cd").unwrap();
    assert!(fixed.finish_spaced(mark, 2, 4, &[0b0001], 0).is_err());
    assert!(fixed.finish_spaced(mark, 2, 4, &[0b0111], 0).is_err());
    fixed.finish_spaced(mark, 2, 4, &[0b1010], 0).unwrap();
    assert_eq!(fixed.values(), b"\0\0ab\0\0cd");

    let mut bytes = ByteArrayBuffer::<i32>::new();
    let mark = bytes.begin_spaced(3).unwrap();
    bytes.push(b"x").unwrap();
    assert!(bytes.finish_spaced(mark, 1, 3, &[0b011], 0).is_err());
    bytes.finish_spaced(mark, 1, 3, &[0b100], 0).unwrap();
    assert_eq!(bytes.iter().collect::<Vec<_>>(), [&b""[..], b"", b"x"]);

    let mut ints = [7i32, 0, 0];
    assert!(ints.finish_spaced(0, 1, 3, &[0b000], 0).is_err());
    ints.finish_spaced(0, 1, 3, &[0b010], 0).unwrap();
    assert_eq!(ints, [0, 7, 0]);
}

/// Spaced byte-array decode with mostly valid slots, so that whole bytes of
/// the validity bitmap are all ones (the block path of `finish_spaced`)
/// next to partial and all-null bytes, at every bit offset.
#[test]
fn byte_array_spaced_decode_with_whole_valid_bytes() {
    let slots = 203;
    // Nulls: every 13th slot, and slots 96..112 (two whole null bytes at
    // offset 0).
    let valid: Vec<bool> = (0..slots)
        .map(|i| i % 13 != 5 && !(96..112).contains(&i))
        .collect();
    let values: Vec<Vec<u8>> = (0..slots).map(|i| format!("v{i}").into_bytes()).collect();
    let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
    let (offsets, flat, _) = batches_of(&values, &refs);
    for offset in 0..8 {
        check_bytes_spaced::<i32, _>(&PlainBytes, &values, &offsets, &flat, &valid, offset);
    }
}

/// Spacing fixed-width values into their slots with mostly valid slots, so
/// that whole bytes of the bitmap are all ones (the block path of the
/// slice's `finish_spaced`) next to partial and all-null bytes, at every
/// bit offset and with the present values ending at every slot count.
#[test]
fn fixed_width_spaced_with_whole_valid_bytes() {
    use strata_encoding::DecodeTarget;
    for slots in [0usize, 1, 7, 8, 9, 64, 203] {
        // Nulls: every 13th slot, and slots 96..112.
        let valid: Vec<bool> = (0..slots)
            .map(|i| i % 13 != 5 && !(96..112).contains(&i))
            .collect();
        let want: Vec<i64> = (0..slots)
            .map(|i| if valid[i] { i as i64 * 3 + 1 } else { 0 })
            .collect();
        let present: Vec<i64> = want
            .iter()
            .zip(&valid)
            .filter(|(_, v)| **v)
            .map(|(x, _)| *x)
            .collect();
        for offset in 0..8 {
            let bm = bitmap(&valid, offset);
            // Slots past the present values hold garbage before spacing.
            let mut out = vec![-1i64; slots];
            out[..present.len()].copy_from_slice(&present);
            out.as_mut_slice()
                .finish_spaced(0, present.len(), slots, &bm, offset)
                .unwrap();
            assert_eq!(out, want, "{slots} slots at bit offset {offset}");
        }
    }
}

proptest! {
    /// A batch's iterator yields its values in order in every layout (a
    /// slice of slices, 32-bit and 64-bit offsets) and in every slice of
    /// a batch, as many as the batch holds.
    #[test]
    fn byte_array_batches_iterate_every_value_in_every_layout(
        values in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..12), 0..40),
        cut in (0usize..40, 0usize..40),
    ) {
        let slices: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let mut o32 = vec![0i32];
        let mut bytes = Vec::new();
        for v in &values {
            bytes.extend_from_slice(v);
            o32.push(bytes.len() as i32);
        }
        let o64: Vec<i64> = o32.iter().map(|&o| i64::from(o)).collect();
        let batches = [
            ByteArrayBatch::from_slices(&slices),
            ByteArrayBatch::from_offsets(&o32, &bytes).unwrap(),
            ByteArrayBatch::from_offsets(&o64, &bytes).unwrap(),
        ];
        let (a, b) = (cut.0.min(values.len()), cut.1.min(values.len()));
        let (start, end) = (a.min(b), a.max(b));
        for batch in batches {
            let all: Vec<&[u8]> = batch.iter().collect();
            prop_assert_eq!(&all, &slices);
            let part = strata_encoding::ValueBatch::slice(&batch, start, end).unwrap();
            let some: Vec<&[u8]> = part.iter().collect();
            prop_assert_eq!(&some[..], &slices[start..end]);
        }
    }
}
