//! Dictionary encoding: property round trips for every supported type
//! (gathered decode, raw indices with a manual lookup, skips, spaced
//! batches), a dictionary shared by several data pages, hand-derived golden
//! pages, and the decoder's refusals.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use proptest::prelude::*;
use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, Decoder, DictDecoder, DictEncoder, DictKey,
    DictValue, Encoder, EncodingError, FixedLenBatch, FixedLenByteArray, FixedLenByteArrayBuffer,
    Int96, OffsetSize, PlainEncoder,
};
use strata_sink::{ByteSink, SinkError};

/// Bit-exact identity of a value, independent of the encoder's own keys.
trait Key: Copy + Debug + Default {
    type K: Eq + Hash + Copy + Debug;
    fn key(&self) -> Self::K;
}
impl Key for i32 {
    type K = i32;
    fn key(&self) -> i32 {
        *self
    }
}
impl Key for i64 {
    type K = i64;
    fn key(&self) -> i64 {
        *self
    }
}
impl Key for f32 {
    type K = u32;
    fn key(&self) -> u32 {
        self.to_bits()
    }
}
impl Key for f64 {
    type K = u64;
    fn key(&self) -> u64 {
        self.to_bits()
    }
}
impl Key for Int96 {
    type K = [u32; 3];
    fn key(&self) -> [u32; 3] {
        self.0
    }
}

/// The bit width rule, written out independently: 0 entries -> 0, 1 -> 1,
/// otherwise the number of bits of `n - 1`.
fn expected_width(n: usize) -> u8 {
    match n {
        0 => 0,
        1 => 1,
        n => {
            let mut w = 0;
            while (1usize << w) < n {
                w += 1;
            }
            w
        }
    }
}

/// Distinct values in first-occurrence order and each value's index.
fn reference_dict<K: Eq + Hash + Copy>(keys: impl Iterator<Item = K>) -> (Vec<K>, Vec<u32>) {
    let mut seen = HashMap::new();
    let mut order = Vec::new();
    let mut idx = Vec::new();
    for k in keys {
        let i = *seen.entry(k).or_insert_with(|| {
            order.push(k);
            order.len() as u32 - 1
        });
        idx.push(i);
    }
    (order, idx)
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

fn cut_points(len: usize, splits: &[usize]) -> Vec<usize> {
    let mut cuts: Vec<usize> = splits.iter().map(|s| s % (len + 1)).collect();
    cuts.push(0);
    cuts.push(len);
    cuts.sort_unstable();
    cuts
}

/// Flush an index page, checking the estimate and the bit width byte.
fn flush_checked<T: DictValue>(enc: &mut DictEncoder<T>) -> Vec<u8> {
    let estimate = enc.estimated_size();
    let width = enc.bit_width();
    let mut page = ByteSink::new();
    enc.flush_into(&mut page).unwrap();
    assert!(page.len() <= estimate, "{} > {estimate}", page.len());
    assert_eq!(page.as_slice()[0], width);
    assert_eq!(enc.num_values(), 0);
    page.into_vec()
}

fn dict_page<T: DictValue>(enc: &DictEncoder<T>) -> Vec<u8> {
    let mut page = ByteSink::new();
    enc.write_dict_page(&mut page).unwrap();
    assert_eq!(page.len(), enc.dict_size_bytes());
    page.into_vec()
}

fn check_fixed<T>(values: &[T], valid: &[bool], splits: &[usize], chunk: usize)
where
    T: Key + DictKey + DictValue<Dict = Vec<T>>,
    PlainEncoder<T>: Encoder<T>,
{
    let n = values.len();
    let (distinct, want_idx) = reference_dict(values.iter().map(Key::key));
    let cuts = cut_points(n, splits);
    let mut enc = DictEncoder::<T>::new();
    for w in cuts.windows(2) {
        enc.put(&values[w[0]..w[1]]).unwrap();
    }
    assert_eq!(enc.num_values(), n);
    assert_eq!(enc.indices(), want_idx.as_slice());
    assert_eq!(enc.num_entries(), distinct.len());
    assert_eq!(enc.bit_width(), expected_width(distinct.len()));
    let got_keys: Vec<_> = enc.dict().iter().map(Key::key).collect();
    assert_eq!(got_keys, distinct);

    // The dictionary page is the PLAIN encoding of the distinct values.
    let dpage = dict_page(&enc);
    let mut plain = PlainEncoder::<T>::new();
    plain.put(enc.dict()).unwrap();
    let mut plain_page = ByteSink::new();
    plain.flush_into(&mut plain_page).unwrap();
    assert_eq!(dpage, plain_page.as_slice());

    let page = flush_checked(&mut enc);

    // Gathered, in chunks.
    let mut dec = DictDecoder::<T>::new();
    dec.set_dict(&dpage, distinct.len()).unwrap();
    dec.set_data(&page, n).unwrap();
    let mut out = vec![T::default(); n];
    let mut done = 0;
    while done < n {
        let got = dec.decode(&mut out[done..], chunk).unwrap();
        assert!(got > 0);
        done += got;
    }
    assert_eq!(dec.values_left(), 0);
    assert_eq!(dec.decode(&mut [T::default(); 2], 2).unwrap(), 0);
    assert!(out.iter().zip(values).all(|(a, b)| a.key() == b.key()));

    // Raw indices plus a manual lookup in the shared dictionary.
    dec.set_data(&page, n).unwrap();
    let mut idx = vec![0u32; n];
    let mut done = 0;
    while done < n {
        let end = (done + chunk).min(n);
        done += dec.decode_indices(&mut idx[done..end]).unwrap();
    }
    assert_eq!(idx, want_idx);
    let dict = Arc::clone(dec.dict().unwrap());
    for (i, v) in idx.iter().zip(values) {
        assert_eq!(dict[*i as usize].key(), v.key());
    }

    // Skip, then the rest.
    let k = splits[0] % (n + 1);
    dec.set_data(&page, n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = vec![T::default(); n - k];
    assert_eq!(dec.decode(&mut rest, n).unwrap(), n - k);
    assert!(
        rest.iter()
            .zip(&values[k..])
            .all(|(a, b)| a.key() == b.key())
    );

    // Spaced: only present values are indexed.
    let slots = n.min(valid.len());
    let valid = &valid[..slots];
    let offset = splits[1] % 8;
    let bm = bitmap(valid, offset);
    let present = valid.iter().filter(|v| **v).count();
    let mut enc = DictEncoder::<T>::new();
    enc.put_spaced(&values[..slots], &bm, offset).unwrap();
    assert_eq!(enc.num_values(), present);
    let dpage = dict_page(&enc);
    let entries = enc.num_entries();
    let page = flush_checked(&mut enc);
    let mut dec = DictDecoder::<T>::new();
    dec.set_dict(&dpage, entries).unwrap();
    dec.set_data(&page, present).unwrap();
    let mut out = vec![T::default(); slots];
    dec.decode_spaced(&mut out, slots, &bm, offset, slots - present)
        .unwrap();
    for i in 0..slots {
        let want = if valid[i] { values[i] } else { T::default() };
        assert_eq!(out[i].key(), want.key(), "slot {i}");
    }
}

fn offsets_of<O: OffsetSize>(values: &[Vec<u8>]) -> (Vec<O>, Vec<u8>) {
    let mut offsets = vec![O::from_usize(0).unwrap()];
    let mut flat = Vec::new();
    for v in values {
        flat.extend_from_slice(v);
        offsets.push(O::from_usize(flat.len()).unwrap());
    }
    (offsets, flat)
}

fn check_bytes<O: OffsetSize>(values: &[Vec<u8>], valid: &[bool], splits: &[usize], chunk: usize) {
    let n = values.len();
    let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
    let (offsets, flat) = offsets_of::<O>(values);
    let (distinct, want_idx) = reference_dict(values.iter().map(Vec::as_slice));
    let cuts = cut_points(n, splits);

    // Slices and Arrow layout give the same pages.
    let mut enc = DictEncoder::<ByteArray<O>>::new();
    let mut enc2 = DictEncoder::<ByteArray<O>>::new();
    for w in cuts.windows(2) {
        enc.put(ByteArrayBatch::from_slices(&refs[w[0]..w[1]]))
            .unwrap();
        enc2.put(ByteArrayBatch::from_offsets(&offsets[w[0]..=w[1]], &flat).unwrap())
            .unwrap();
    }
    assert_eq!(enc.indices(), want_idx.as_slice());
    assert_eq!(enc.num_entries(), distinct.len());
    assert_eq!(enc.bit_width(), expected_width(distinct.len()));
    let dict_vals: Vec<&[u8]> = enc.dict().iter().collect();
    assert_eq!(dict_vals, distinct);
    let dpage = dict_page(&enc);
    // PLAIN by hand: 4-byte length, bytes.
    let mut want_dpage = Vec::new();
    for d in &distinct {
        want_dpage.extend_from_slice(&(d.len() as u32).to_le_bytes());
        want_dpage.extend_from_slice(d);
    }
    assert_eq!(dpage, want_dpage);
    assert_eq!(dict_page(&enc2), dpage);
    let page = flush_checked(&mut enc);
    assert_eq!(flush_checked(&mut enc2), page);

    let mut dec = DictDecoder::<ByteArray<O>>::new();
    dec.set_dict(&dpage, distinct.len()).unwrap();
    dec.set_data(&page, n).unwrap();
    let mut out = ByteArrayBuffer::<O>::default();
    out.push(b"head").unwrap();
    let mut done = 0;
    while done < n {
        let got = dec.decode(&mut out, chunk).unwrap();
        assert!(got > 0);
        done += got;
    }
    assert_eq!(out.len(), n + 1);
    for (i, v) in values.iter().enumerate() {
        assert_eq!(out.value(i + 1), Some(v.as_slice()));
    }

    dec.set_data(&page, n).unwrap();
    let mut idx = vec![0u32; n];
    assert_eq!(dec.decode_indices(&mut idx).unwrap(), n);
    let dict = dec.dict().unwrap();
    for (i, v) in idx.iter().zip(values) {
        assert_eq!(dict.value(*i as usize), Some(v.as_slice()));
    }

    let k = splits[0] % (n + 1);
    dec.set_data(&page, n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut rest = ByteArrayBuffer::<O>::default();
    assert_eq!(dec.decode(&mut rest, usize::MAX).unwrap(), n - k);
    for (i, v) in values[k..].iter().enumerate() {
        assert_eq!(rest.value(i), Some(v.as_slice()));
    }

    let slots = n.min(valid.len());
    let valid = &valid[..slots];
    let offset = splits[1] % 8;
    let bm = bitmap(valid, offset);
    let present = valid.iter().filter(|v| **v).count();
    let mut enc = DictEncoder::<ByteArray<O>>::new();
    enc.put_spaced(
        ByteArrayBatch::from_offsets(&offsets[..=slots], &flat).unwrap(),
        &bm,
        offset,
    )
    .unwrap();
    let dpage = dict_page(&enc);
    let entries = enc.num_entries();
    let page = flush_checked(&mut enc);
    let mut dec = DictDecoder::<ByteArray<O>>::new();
    dec.set_dict(&dpage, entries).unwrap();
    dec.set_data(&page, present).unwrap();
    let mut out = ByteArrayBuffer::<O>::default();
    dec.decode_spaced(&mut out, slots, &bm, offset, slots - present)
        .unwrap();
    for i in 0..slots {
        let want: &[u8] = if valid[i] { &values[i] } else { b"" };
        assert_eq!(out.value(i), Some(want), "slot {i}");
    }
}

fn check_fixed_len(width: usize, flat: &[u8], valid: &[bool], splits: &[usize]) {
    let n = flat.len() / width;
    let flat = &flat[..n * width];
    let (distinct, want_idx) = reference_dict(flat.chunks_exact(width));
    let mut enc = DictEncoder::<FixedLenByteArray>::new(width).unwrap();
    for w in cut_points(n, splits).windows(2) {
        enc.put(FixedLenBatch::new(width, &flat[w[0] * width..w[1] * width]).unwrap())
            .unwrap();
    }
    assert_eq!(enc.indices(), want_idx.as_slice());
    let dpage = dict_page(&enc);
    assert_eq!(dpage, distinct.concat());
    let page = flush_checked(&mut enc);
    let mut dec = DictDecoder::<FixedLenByteArray>::new(width).unwrap();
    dec.set_dict(&dpage, distinct.len()).unwrap();
    dec.set_data(&page, n).unwrap();
    let mut out = FixedLenByteArrayBuffer::new(width);
    assert_eq!(dec.decode(&mut out, n).unwrap(), n);
    assert_eq!(out.values(), flat);

    let k = splits[0] % (n + 1);
    dec.set_data(&page, n).unwrap();
    assert_eq!(dec.skip(k).unwrap(), k);
    let mut idx = vec![0u32; n - k];
    assert_eq!(dec.decode_indices(&mut idx).unwrap(), n - k);
    assert_eq!(idx, want_idx[k..]);

    let slots = n.min(valid.len());
    let bm = bitmap(&valid[..slots], 0);
    let present = valid[..slots].iter().filter(|v| **v).count();
    let mut enc = DictEncoder::<FixedLenByteArray>::new(width).unwrap();
    enc.put_spaced(
        FixedLenBatch::new(width, &flat[..slots * width]).unwrap(),
        &bm,
        0,
    )
    .unwrap();
    let dpage = dict_page(&enc);
    let entries = enc.num_entries();
    let page = flush_checked(&mut enc);
    let mut dec = DictDecoder::<FixedLenByteArray>::new(width).unwrap();
    dec.set_dict(&dpage, entries).unwrap();
    dec.set_data(&page, present).unwrap();
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

/// Values drawn from a pool: `pool` distinct values repeated at random
/// (many duplicates when small, all distinct when larger than `n`).
fn pooled<T: Clone + Debug>(
    pool: impl Strategy<Value = Vec<T>>,
    n: usize,
) -> impl Strategy<Value = Vec<T>> {
    pool.prop_flat_map(move |pool| {
        let len = pool.len().max(1);
        prop::collection::vec(0..len, 0..n).prop_map(move |picks| {
            picks
                .into_iter()
                .filter_map(|i| pool.get(i).cloned())
                .collect()
        })
    })
}

fn ints<T: Arbitrary + Clone + Debug + 'static>(n: usize) -> impl Strategy<Value = Vec<T>> {
    prop_oneof![
        pooled(prop::collection::vec(any::<T>(), 1..4), n),
        pooled(prop::collection::vec(any::<T>(), 1..300), n),
        prop::collection::vec(any::<T>(), 0..n),
    ]
}

fn float_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        Just(f64::NAN.to_bits()),
        Just((-0.0f64).to_bits()),
        Just(0),
        Just(0x7FF8_0000_0000_0001),
    ]
}

fn byte_strings() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        3 => prop::collection::vec(any::<u8>(), 0..12),
        1 => Just(Vec::new()),
        1 => prop::collection::vec(any::<u8>(), 0..600),
    ];
    prop_oneof![
        pooled(prop::collection::vec(value.clone(), 1..5), 600),
        pooled(prop::collection::vec(value.clone(), 1..200), 600),
        prop::collection::vec(value, 0..300),
        // All distinct.
        (0usize..700).prop_map(|n| (0..n).map(|i| format!("v{i}").into_bytes()).collect()),
    ]
}

fn validity() -> impl Strategy<Value = Vec<bool>> {
    prop_oneof![
        prop::collection::vec(any::<bool>(), 0..700),
        prop::collection::vec(Just(true), 0..300),
        prop::collection::vec(Just(false), 0..300),
    ]
}

fn splits() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 2..5)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn dict_i32(v in ints::<i32>(900), m in validity(), s in splits(), c in 1usize..300) {
        check_fixed(&v, &m, &s, c);
    }

    #[test]
    fn dict_i64(v in ints::<i64>(900), m in validity(), s in splits(), c in 1usize..300) {
        check_fixed(&v, &m, &s, c);
    }

    #[test]
    fn dict_floats(bits in pooled(prop::collection::vec(float_bits(), 1..40), 900), m in validity(), s in splits(), c in 1usize..300) {
        let f64s: Vec<f64> = bits.iter().map(|b| f64::from_bits(*b)).collect();
        let f32s: Vec<f32> = bits.iter().map(|b| f32::from_bits((*b >> 32) as u32 ^ *b as u32)).collect();
        check_fixed(&f64s, &m, &s, c);
        check_fixed(&f32s, &m, &s, c);
    }

    #[test]
    fn dict_int96(w in ints::<[u32; 3]>(500), m in validity(), s in splits(), c in 1usize..300) {
        let v: Vec<Int96> = w.into_iter().map(Int96).collect();
        check_fixed(&v, &m, &s, c);
    }

    #[test]
    fn put_keys_matches_put_of_the_values(
        entries in prop::collection::vec(prop::collection::vec(0u8..4, 0..4), 1..30),
        raw_keys in prop::collection::vec(any::<u32>(), 0..400),
        split in 0usize..400,
    ) {
        // Entries may repeat (as an Arrow dictionary's values may); keys
        // put in two calls must give the same dictionary and indices as
        // putting the values they name.
        let keys: Vec<u32> = raw_keys.iter().map(|k| k % entries.len() as u32).collect();
        let slices: Vec<&[u8]> = entries.iter().map(Vec::as_slice).collect();
        let values: Vec<&[u8]> = keys.iter().map(|&k| slices[k as usize]).collect();
        let mut by_value = DictEncoder::<ByteArray>::new();
        by_value.put(ByteArrayBatch::from_slices(&values)).unwrap();
        let mut by_key = DictEncoder::<ByteArray>::new();
        let (a, b) = keys.split_at(split.min(keys.len()));
        by_key.put_keys(ByteArrayBatch::from_slices(&slices), a).unwrap();
        by_key.put_keys(ByteArrayBatch::from_slices(&slices), b).unwrap();
        prop_assert_eq!(by_key.indices(), by_value.indices());
        prop_assert_eq!(by_key.dict().values(), by_value.dict().values());
        prop_assert_eq!(by_key.dict().offsets(), by_value.dict().offsets());
        // A key past the entries adds nothing.
        let before = by_key.indices().len();
        prop_assert!(by_key.put_keys(ByteArrayBatch::from_slices(&slices), &[0, entries.len() as u32]).is_err());
        prop_assert_eq!(by_key.indices().len(), before);
    }

    #[test]
    fn dict_byte_array(v in byte_strings(), m in validity(), s in splits(), c in 1usize..300) {
        check_bytes::<i32>(&v, &m, &s, c);
        check_bytes::<i64>(&v, &m, &s, c);
    }

    #[test]
    fn dict_fixed_len(width in 1usize..20, pool in prop::collection::vec(any::<u8>(), 1..8), picks in prop::collection::vec(any::<u8>(), 0..3000), m in validity(), s in splits()) {
        // Few distinct byte values give many duplicate fixed-length values.
        let flat: Vec<u8> = picks.iter().map(|p| pool[*p as usize % pool.len()]).collect();
        check_fixed_len(width, &flat, &m, &s);
        check_fixed_len(width, &picks, &m, &s);
    }
}

#[test]
fn dictionary_shared_across_pages_is_decoded_once() {
    let mut enc = DictEncoder::<ByteArray>::new();
    enc.put(ByteArrayBatch::from_slices(&[b"a", b"bb", b"a"]))
        .unwrap();
    let page1 = flush_checked(&mut enc);
    // The second page reuses entries and adds one.
    enc.put(ByteArrayBatch::from_slices(&[b"bb", b"ccc", b"a", b"ccc"]))
        .unwrap();
    let page2 = flush_checked(&mut enc);
    let dpage = dict_page(&enc);
    assert_eq!(enc.num_entries(), 3);

    let mut dec = DictDecoder::<ByteArray>::new();
    dec.set_dict(&dpage, 3).unwrap();
    let batches: Vec<(Arc<ByteArrayBuffer>, Vec<u32>)> = [(&page1, 3), (&page2, 4)]
        .into_iter()
        .map(|(page, n)| {
            dec.set_data(page, n).unwrap();
            let mut idx = vec![0; n];
            assert_eq!(dec.decode_indices(&mut idx).unwrap(), n);
            (Arc::clone(dec.dict().unwrap()), idx)
        })
        .collect();
    assert!(Arc::ptr_eq(&batches[0].0, &batches[1].0));
    assert_eq!(batches[0].1, [0, 1, 0]);
    assert_eq!(batches[1].1, [1, 2, 0, 2]);
    // Each batch can be read through the one dictionary.
    let dict = &batches[1].0;
    let words: Vec<&[u8]> = batches[1]
        .1
        .iter()
        .map(|&i| dict.value(i as usize).unwrap())
        .collect();
    assert_eq!(words, [&b"bb"[..], b"ccc", b"a", b"ccc"]);
    // Two handles plus the decoder's: the dictionary was never copied.
    assert_eq!(Arc::strong_count(dict), 3);

    // A shared dictionary can be installed in another decoder.
    let mut other = DictDecoder::<ByteArray>::new();
    other.set_shared_dict(Arc::clone(dict));
    other.set_data(&page2, 4).unwrap();
    let mut out = ByteArrayBuffer::new();
    other.decode(&mut out, 4).unwrap();
    assert_eq!(out.values(), b"bbcccaccc");
}

#[test]
fn golden_pages_by_hand() {
    // i32 values 5, 7, 5, 5: dictionary [5, 7] PLAIN; 2 entries -> width 1;
    // indices 0, 1, 0, 0 as one bit-packed group (header 1 << 1 | 1),
    // LSB first: 0b0000_0010.
    let mut enc = DictEncoder::<i32>::new();
    enc.put(&[5, 7, 5, 5]).unwrap();
    assert_eq!(dict_page(&enc), [5, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(flush_checked(&mut enc), [1, 0b11, 0b10]);

    // Ten copies of one value: width 1, an RLE run of 10 (header 10 << 1)
    // of index 0 in one byte.
    let mut enc = DictEncoder::<f64>::new();
    enc.put(&[2.5; 10]).unwrap();
    assert_eq!(dict_page(&enc), 2.5f64.to_le_bytes());
    assert_eq!(flush_checked(&mut enc), [1, 20, 0]);

    // Nothing put: width 0 and no runs.
    let mut enc = DictEncoder::<i64>::new();
    assert_eq!(flush_checked(&mut enc), [0]);
    assert!(dict_page(&enc).is_empty());

    // Decoding a hand-built page: 300 entries need width 9; an RLE run of
    // 3 (header 6) with the value 299 = 0x012B in two little-endian bytes.
    let dict: Vec<u8> = (0..300i32).flat_map(|v| (v * 10).to_le_bytes()).collect();
    let mut dec = DictDecoder::<i32>::new();
    dec.set_dict(&dict, 300).unwrap();
    dec.set_data(&[9, 6, 0x2B, 0x01], 3).unwrap();
    let mut out = [0; 3];
    dec.decode(&mut out, 3).unwrap();
    assert_eq!(out, [2990; 3]);

    // Width 0 pages are legal: every index is 0 (RLE run of 4, no value
    // bytes).
    dec.set_data(&[0, 8], 4).unwrap();
    let mut out = [1; 4];
    dec.decode(&mut out, 4).unwrap();
    assert_eq!(out, [0; 4]);

    // Floats are keyed by bit pattern: NaN dedupes with itself, -0 and +0
    // are different entries.
    let mut enc = DictEncoder::<f32>::new();
    enc.put(&[f32::NAN, -0.0, 0.0, f32::NAN, -0.0]).unwrap();
    assert_eq!(enc.num_entries(), 3);
    assert_eq!(enc.indices(), [0, 1, 2, 0, 1]);
}

#[test]
fn decoder_refusals() {
    // Index out of range: dictionary of 2, RLE run of one 3 at width 2.
    let dict = [1u8, 0, 0, 0, 2, 0, 0, 0];
    let mut dec = DictDecoder::<i32>::new();
    dec.set_dict(&dict, 2).unwrap();
    dec.set_data(&[2, 2, 3], 1).unwrap();
    assert!(matches!(
        dec.decode(&mut [0; 1], 1),
        Err(EncodingError::Sink(SinkError::IndexOutOfRange {
            index: 3,
            len: 2
        }))
    ));
    dec.set_data(&[2, 2, 3], 1).unwrap();
    assert!(dec.decode_indices(&mut [0; 1]).is_err());
    // Same for a bit-packed index, through the byte-array gather.
    let mut bdec = DictDecoder::<ByteArray>::new();
    bdec.set_dict(&[1, 0, 0, 0, b'x'], 1).unwrap();
    bdec.set_data(&[1, 0b11, 0b0000_0010], 2).unwrap();
    assert!(bdec.decode(&mut ByteArrayBuffer::new(), 2).is_err());
    // Bit width above 32.
    assert!(matches!(
        dec.set_data(&[33, 0], 1),
        Err(EncodingError::Corrupt(_))
    ));
    // Missing bit width byte, and a stream that runs out.
    assert!(dec.set_data(&[], 1).is_err());
    dec.set_data(&[], 0).unwrap();
    dec.set_data(&[1, 4, 1], 5).unwrap();
    assert!(matches!(
        dec.decode(&mut [0; 5], 5),
        Err(EncodingError::Truncated(_))
    ));
    // Dictionary pages claiming more values than their bytes hold.
    assert!(dec.set_dict(&dict, 3).is_err());
    assert!(dec.set_dict(&dict, usize::MAX).is_err());
    assert!(
        DictDecoder::<ByteArray>::new()
            .set_dict(&[0; 11], 3)
            .is_err()
    );
    assert!(
        DictDecoder::<FixedLenByteArray>::new(4)
            .unwrap()
            .set_dict(&[0; 11], 3)
            .is_err()
    );
    // A byte array whose length runs past the page.
    assert!(
        DictDecoder::<ByteArray>::new()
            .set_dict(&[9, 0, 0, 0, 1, 2], 1)
            .is_err()
    );
    // No dictionary yet.
    assert!(DictDecoder::<i64>::new().set_data(&[1, 2, 0], 1).is_err());
    // FIXED_LEN_BYTE_ARRAY width checks.
    assert!(DictEncoder::<FixedLenByteArray>::new(0).is_err());
    assert!(DictDecoder::<FixedLenByteArray>::new(0).is_err());
    let mut fenc = DictEncoder::<FixedLenByteArray>::new(2).unwrap();
    assert!(fenc.put(FixedLenBatch::new(3, b"abc").unwrap()).is_err());
}

#[test]
fn take_dict_and_reset() {
    let mut enc = DictEncoder::<ByteArray>::new();
    enc.put(ByteArrayBatch::from_slices(&[b"x", b"y"])).unwrap();
    // Buffered indices refer to the dictionary.
    assert!(enc.take_dict().is_err());
    let _ = flush_checked(&mut enc);
    let dict = enc.take_dict().unwrap();
    assert_eq!(dict.iter().collect::<Vec<_>>(), [&b"x"[..], b"y"]);
    assert_eq!((enc.num_entries(), enc.dict_size_bytes()), (0, 0));
    // A fresh dictionary starts at index 0 again.
    enc.put(ByteArrayBatch::from_slices(&[b"y"])).unwrap();
    assert_eq!(enc.indices(), [0]);
    enc.reset();
    assert_eq!((enc.num_entries(), enc.num_values()), (0, 0));
    assert!(enc.heap_size() > 0, "reset keeps allocations");
}

/// Byte arrays from 0 to 40 bytes: short ones take a fixed-size copy
/// of `extend_gather` (16 or 32 bytes), long ones and the last entries the
/// exact copy.
fn byte_values() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 1..60)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn gather_and_range_copy_match_pushes(
        dict_values in byte_values(),
        picks in prop::collection::vec(any::<u32>(), 0..200),
        prefix in prop::collection::vec(any::<u8>(), 0..20),
        range in (any::<usize>(), any::<usize>()),
    ) {
        let mut dict = ByteArrayBuffer::<i32>::new();
        for v in &dict_values {
            dict.push(v).unwrap();
        }
        let indices: Vec<u32> = picks.iter().map(|p| p % dict_values.len() as u32).collect();
        let mut gathered = ByteArrayBuffer::<i32>::new();
        gathered.push(&prefix).unwrap();
        gathered.extend_gather(&dict, &indices).unwrap();
        let mut expect: Vec<&[u8]> = vec![&prefix];
        expect.extend(indices.iter().map(|&i| dict_values[i as usize].as_slice()));
        prop_assert_eq!(gathered.iter().collect::<Vec<_>>(), expect.clone());
        prop_assert_eq!(gathered.values().len(), expect.iter().map(|v| v.len()).sum::<usize>());

        // An index past the end appends nothing, alone or at the end of a
        // batch at least as long as the dictionary (sized by its longest
        // entry when the lengths are even enough).
        let before = gathered.clone();
        prop_assert!(gathered.extend_gather(&dict, &[dict_values.len() as u32]).is_err());
        prop_assert_eq!(&gathered, &before);
        let mut long_bad: Vec<u32> = (0..dict_values.len() as u32).collect();
        long_bad.push(dict_values.len() as u32);
        prop_assert!(gathered.extend_gather(&dict, &long_bad).is_err());
        prop_assert_eq!(&gathered, &before);

        // A range of the gathered values, copied onto another buffer.
        let n = gathered.len();
        let (a, b) = (range.0 % (n + 1), range.1 % (n + 1));
        let (start, end) = (a.min(b), a.max(b));
        let mut copied = ByteArrayBuffer::<i32>::new();
        copied.push(b"head").unwrap();
        copied.extend_from_range(&gathered, start, end).unwrap();
        let mut want: Vec<&[u8]> = vec![b"head"];
        want.extend(expect[start..end].iter().copied());
        prop_assert_eq!(copied.iter().collect::<Vec<_>>(), want);
        prop_assert!(copied.extend_from_range(&gathered, start, n + 1).is_err());
        prop_assert!(copied.extend_from_range(&gathered, end + 1, end).is_err());
    }
}

/// A batch that picks a dictionary's longest entries outgrows the room
/// sized by the average entry: the values grow mid-gather and every entry
/// still lands whole, short and long, with a bad index at the end refused
/// after all that growth, appending nothing.
#[test]
fn gather_past_the_average_grows() {
    let mut dict = ByteArrayBuffer::<i32>::new();
    for i in 0..99u8 {
        dict.push(&[i]).unwrap();
    }
    let long: Vec<u8> = (0..30).collect();
    let longer: Vec<u8> = (0..70).collect();
    dict.push(&long).unwrap();
    dict.push(&longer).unwrap();
    let indices: Vec<u32> = (0..3000u32)
        .map(|i| match i % 5 {
            0 => 100,
            1 => i % 99,
            _ => 99,
        })
        .collect();
    let mut out = ByteArrayBuffer::<i32>::new();
    out.extend_gather(&dict, &indices).unwrap();
    let expect: Vec<&[u8]> = indices
        .iter()
        .map(|&i| dict.value(i as usize).unwrap())
        .collect();
    assert_eq!(out.iter().collect::<Vec<_>>(), expect);
    let before = out.clone();
    let mut bad = indices.clone();
    bad.push(101);
    assert!(out.extend_gather(&dict, &bad).is_err());
    assert_eq!(out, before);
}

/// One huge entry among short ones raises the dictionary's average entry
/// far above what a batch of the short ones needs: the gather's room stays
/// within the dictionary's bytes plus a little a value, not the batch
/// times that average.
#[test]
fn a_huge_entry_does_not_size_a_gather_of_short_ones() {
    let mut dict = ByteArrayBuffer::<i32>::new();
    dict.push(&vec![7u8; 4 << 20]).unwrap();
    for i in 0..100u8 {
        dict.push(&[i, i]).unwrap();
    }
    let indices: Vec<u32> = (0..4096u32).map(|i| 1 + i % 100).collect();
    let mut out = ByteArrayBuffer::<i32>::new();
    out.extend_gather(&dict, &indices).unwrap();
    assert_eq!(out.values().len(), 4096 * 2);
    // The average entry is about 41 KB: 4,096 of them would be 170 MB.
    assert!(out.heap_size() < 8 << 20, "{} bytes", out.heap_size());
    // Index 4,095 names entry 96, the 96th short one.
    assert_eq!(out.value(4095), Some(&[95u8, 95][..]));
}

/// A gather sized by the dictionary's average entry (entries of even
/// lengths) appends exactly the entries, reserves no more than half as
/// much again, and rejects an index past the end anywhere in the batch,
/// appending nothing.
#[test]
fn gather_sized_by_average_entry() {
    let mut dict = ByteArrayBuffer::<i32>::new();
    let entries: Vec<String> = (0..100)
        .map(|i| format!("value-{:04}", i * 37 % 1000))
        .collect();
    for e in &entries {
        dict.push(e.as_bytes()).unwrap();
    }
    let indices: Vec<u32> = (0..5000u32).map(|i| i * 7919 % 100).collect();
    let mut out = ByteArrayBuffer::<i32>::new();
    out.extend_gather(&dict, &indices).unwrap();
    let expect: Vec<&[u8]> = indices
        .iter()
        .map(|&i| entries[i as usize].as_bytes())
        .collect();
    assert_eq!(out.iter().collect::<Vec<_>>(), expect);
    assert_eq!(out.values().len(), 5000 * 10);
    assert!(out.heap_size() <= 5000 * 10 * 3 / 2 + 5001 * 4 + 64);
    for at in [0usize, 2500, 4999] {
        let mut bad = indices.clone();
        bad[at] = 100;
        let before = out.clone();
        assert!(out.extend_gather(&dict, &bad).is_err(), "bad index at {at}");
        assert_eq!(out, before);
    }
}

/// A byte-array dictionary of 60,000 entries, large enough that some of its
/// table's buckets fill and spill into the next and that lookups touch the
/// table ahead of time, read back in batches that mix values seen long
/// before, values new in the same batch and repeats of those within a few
/// positions: every value gets the index of its first occurrence.
#[test]
fn large_byte_array_dictionary_keeps_first_indices() {
    let key =
        |i: u64| format!("value-{}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40).into_bytes();
    let mut enc = DictEncoder::<ByteArray<i32>>::new();
    let mut want: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut expect = Vec::new();
    let mut round = |enc: &mut DictEncoder<ByteArray<i32>>, values: Vec<Vec<u8>>| {
        for v in &values {
            let next = want.len() as u32;
            expect.push(*want.entry(v.clone()).or_insert(next));
        }
        let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        for chunk in refs.chunks(1000) {
            enc.put(ByteArrayBatch::from_slices(chunk)).unwrap();
        }
    };
    round(&mut enc, (0..40_000).map(key).collect());
    // Old values, new ones, and each new one again 3 and 17 places later.
    let mut mixed = Vec::new();
    for i in 0..20_000u64 {
        mixed.push(key(i * 2));
        mixed.push(key(40_000 + i));
        if i >= 3 {
            mixed.push(key(40_000 + i - 3));
        }
        if i >= 17 {
            mixed.push(key(40_000 + i - 17));
        }
    }
    round(&mut enc, mixed);
    // Everything again, backwards.
    round(&mut enc, (0..60_000).rev().map(key).collect());
    assert_eq!(enc.num_entries(), want.len());
    assert_eq!(enc.indices(), expect.as_slice());
    for (v, &i) in &want {
        let entry = enc.entry(i as usize).unwrap();
        assert_eq!(entry.iter().next(), Some(v.as_slice()));
    }
}

/// `reserve` on an encoder that already holds entries grows its table
/// (re-placing the entries by their hashes, which a byte-array table
/// recomputes): the old values keep their indices and new ones follow.
#[test]
fn reserving_a_filled_byte_array_dictionary_keeps_its_indices() {
    let values: Vec<Vec<u8>> = (0..300u32)
        .map(|i| format!("entry-{}", i * 7).into_bytes())
        .collect();
    let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
    let mut enc = DictEncoder::<ByteArray<i32>>::new();
    enc.put(ByteArrayBatch::from_slices(&refs[..200])).unwrap();
    let heap = enc.heap_size();
    // Room for many more: the table grows now, not while putting.
    enc.reserve(20_000, 200_000).unwrap();
    assert!(enc.heap_size() > heap);
    enc.put(ByteArrayBatch::from_slices(&refs)).unwrap();
    let first: Vec<u32> = (0..200).collect();
    let second: Vec<u32> = (0..300).collect();
    assert_eq!(enc.indices(), [first, second].concat().as_slice());
    assert_eq!(enc.num_entries(), 300);
}
