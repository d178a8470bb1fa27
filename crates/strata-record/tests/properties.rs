//! Property tests: random columns, page cuts, batch sizes and skips.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Chunk, descr, encode, read_flat};
use proptest::prelude::*;
use strata_encoding::{
    ByteSink, DeltaBinaryPackedEncoder, DictEncoder, DictKey, DictValue, Int96, PlainEncoder,
};
use strata_format::metadata::{Encoding, Type};
use strata_record::{ColumnRecordReader, RecordBatchBuffers};

/// Cut `total` levels into pages of the given sizes (cycled).
fn cut(total: usize, sizes: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while start < total {
        let end = (start + sizes[i % sizes.len()]).min(total);
        out.push((start, end));
        start = end;
        i += 1;
    }
    out
}

fn values_page(delta: bool, values: &[i32]) -> Vec<u8> {
    if delta {
        encode(&mut DeltaBinaryPackedEncoder::<i32>::new(), values)
    } else {
        encode(&mut PlainEncoder::<i32>::new(), values)
    }
}

/// An optional chunk of `data`: one dictionary page, then RLE_DICTIONARY
/// pages cut at `sizes` (v1 or v2).
fn dict_chunk<T>(data: &[Option<T>], sizes: &[usize], v2: bool) -> Chunk
where
    T: DictKey + DictValue<Dict = Vec<T>>,
{
    let mut enc = DictEncoder::<T>::new();
    let mut pages = Vec::new();
    for (start, end) in cut(data.len(), sizes) {
        let page = &data[start..end];
        let present: Vec<T> = page.iter().flatten().copied().collect();
        let defs: Vec<i16> = page.iter().map(|v| i16::from(v.is_some())).collect();
        pages.push((defs, encode(&mut enc, &present[..])));
    }
    let mut dict = ByteSink::new();
    enc.write_dict_page(&mut dict).unwrap();
    Chunk::dictionary(dict.as_slice(), enc.num_entries(), &pages, v2)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Fixed-width dictionaries are gathered straight from the dictionary
    /// page: every entry, every index width, nulls or none.
    #[test]
    fn dictionary_numbers_round_trip(
        picks in prop::collection::vec(prop::option::weighted(0.9, any::<u16>()), 0..700),
        entries in prop::collection::vec(any::<i64>(), 1..300),
        sizes in prop::collection::vec(1usize..250, 1..4),
        v2 in any::<bool>(),
        batch in 1usize..400,
    ) {
        let data: Vec<Option<i64>> = picks
            .iter()
            .map(|p| p.map(|p| entries[usize::from(p) % entries.len()]))
            .collect();
        let chunk = dict_chunk(&data, &sizes, v2);
        let mut reader =
            ColumnRecordReader::<i64>::new(chunk.reader(), descr(Type::Int64, 1, 0)).unwrap();
        prop_assert_eq!(read_flat(&mut reader, batch), data.clone());

        // The same picks as INT96 (12-byte entries) and DOUBLE.
        let wide: Vec<Option<Int96>> = data
            .iter()
            .map(|v| v.map(|v| Int96([v as u32, (v >> 32) as u32, (v as u32).rotate_left(7)])))
            .collect();
        let chunk = dict_chunk(&wide, &sizes, v2);
        let mut reader =
            ColumnRecordReader::<Int96>::new(chunk.reader(), descr(Type::Int96, 1, 0)).unwrap();
        prop_assert_eq!(read_flat(&mut reader, batch), wide);
        let floats: Vec<Option<f64>> = data.iter().map(|v| v.map(|v| v as f64 / 3.0)).collect();
        let chunk = dict_chunk(&floats, &sizes, v2);
        let mut reader =
            ColumnRecordReader::<f64>::new(chunk.reader(), descr(Type::Double, 1, 0)).unwrap();
        prop_assert_eq!(read_flat(&mut reader, batch), floats);
    }

    #[test]
    fn optional_round_trip(
        data in prop::collection::vec(prop::option::weighted(0.8, any::<i32>()), 0..600),
        sizes in prop::collection::vec(1usize..200, 1..5),
        v2 in any::<bool>(),
        delta in any::<bool>(),
        batch in 1usize..300,
        skip in 0usize..700,
    ) {
        let mut chunk = Chunk::default();
        for (start, end) in cut(data.len(), &sizes) {
            let page = &data[start..end];
            let defs: Vec<i16> = page.iter().map(|v| i16::from(v.is_some())).collect();
            let present: Vec<i32> = page.iter().flatten().copied().collect();
            let encoding = if delta { Encoding::DeltaBinaryPacked } else { Encoding::Plain };
            let values = values_page(delta, &present);
            if v2 {
                chunk.v2(0, 1, &[], &defs, encoding, &values);
            } else {
                chunk.v1(0, 1, &[], &defs, encoding, &values);
            }
        }
        let mut reader =
            ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 0)).unwrap();
        let skipped = reader.skip_records(skip).unwrap();
        prop_assert_eq!(skipped, skip.min(data.len()));
        let mut out = RecordBatchBuffers::new();
        let mut got = Vec::new();
        loop {
            let n = reader.read_records(batch, &mut out).unwrap();
            if n == 0 {
                break;
            }
            prop_assert!(n <= batch);
            let nulls = (0..n).filter(|&i| !out.is_valid(i)).count();
            prop_assert_eq!(out.null_count, nulls);
            for i in 0..n {
                got.push(out.is_valid(i).then(|| out.values[i]));
            }
        }
        prop_assert_eq!(&got[..], &data[skipped..]);
        let stats = reader.stats();
        if data.iter().all(Option::is_some) {
            prop_assert_eq!(stats.spaced_decodes, 0);
        }
    }

    #[test]
    fn repeated_round_trip(
        data in prop::collection::vec(prop::collection::vec(any::<i32>(), 0..6), 0..600),
        // Pages and batches long enough to span several 64-level chunks
        // of the reader's record-boundary scan.
        sizes in prop::collection::vec(1usize..300, 1..5),
        batch in 1usize..200,
        skip in 0usize..350,
    ) {
        let (mut reps, mut defs, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for list in &data {
            if list.is_empty() {
                reps.push(0);
                defs.push(0);
            }
            for (i, &v) in list.iter().enumerate() {
                reps.push(i16::from(i > 0));
                defs.push(1);
                values.push(v);
            }
        }
        let mut chunk = Chunk::default();
        let mut value_pos = 0;
        for (start, end) in cut(reps.len(), &sizes) {
            let present = defs[start..end].iter().filter(|&&d| d == 1).count();
            let page = values_page(false, &values[value_pos..value_pos + present]);
            value_pos += present;
            chunk.v1(1, 1, &reps[start..end], &defs[start..end], Encoding::Plain, &page);
        }
        let mut reader =
            ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 1)).unwrap();
        let skipped = reader.skip_records(skip).unwrap();
        prop_assert_eq!(skipped, skip.min(data.len()));
        let mut out = RecordBatchBuffers::new();
        let mut got: Vec<Vec<i32>> = Vec::new();
        loop {
            let n = reader.read_records(batch, &mut out).unwrap();
            if n == 0 {
                break;
            }
            prop_assert!(n <= batch);
            prop_assert_eq!(out.rep_levels[0], 0);
            let mut next = out.values.iter();
            for (&r, &d) in out.rep_levels.iter().zip(&out.def_levels) {
                if r == 0 {
                    got.push(Vec::new());
                }
                if d == 1 {
                    got.last_mut().unwrap().push(*next.next().unwrap());
                }
            }
            prop_assert!(next.next().is_none());
        }
        prop_assert_eq!(&got[..], &data[skipped..]);
    }
}
