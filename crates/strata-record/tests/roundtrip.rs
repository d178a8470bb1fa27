//! Round trips through hand-built column chunks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use common::{Chunk, Lcg, descr, encode};
use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, ByteStreamSplitEncoder, DeltaBinaryPackedEncoder,
    DictEncoder, PlainByteArrayEncoder, PlainEncoder, RleBooleanEncoder,
};
use strata_format::metadata::{Encoding, Type};
use strata_record::{ColumnRecordReader, DictionaryRead, RecordBatchBuffers, RecordError};
use strata_sink::ByteSink;

const BATCHES: [usize; 3] = [1, 7, 1024];

/// Page sizes (in levels) used to cut a column: deliberately uneven.
fn cuts(total: usize) -> Vec<(usize, usize)> {
    let sizes = [100, 37, 250, 1, 313];
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

fn optional_column(n: usize, null_every: Option<u64>, seed: u64) -> Vec<Option<i32>> {
    let mut rng = Lcg(seed);
    (0..n)
        .map(|i| {
            let v = (rng.next() as i32).wrapping_add(i as i32);
            match null_every {
                Some(k) if rng.below(k) == 0 => None,
                _ => Some(v),
            }
        })
        .collect()
}

/// Build an optional INT32 chunk of `data`, v1 or v2, values encoded by
/// `encoding` (PLAIN or DELTA_BINARY_PACKED).
fn optional_i32_chunk(data: &[Option<i32>], v2: bool, encoding: Encoding) -> Chunk {
    let mut chunk = Chunk::default();
    for (start, end) in cuts(data.len()) {
        let page = &data[start..end];
        let defs: Vec<i16> = page.iter().map(|v| i16::from(v.is_some())).collect();
        let present: Vec<i32> = page.iter().flatten().copied().collect();
        let values = match encoding {
            Encoding::Plain => encode(&mut PlainEncoder::<i32>::new(), &present[..]),
            Encoding::DeltaBinaryPacked => {
                encode(&mut DeltaBinaryPackedEncoder::<i32>::new(), &present[..])
            }
            _ => unreachable!(),
        };
        if v2 {
            chunk.v2(0, 1, &[], &defs, encoding, &values);
        } else {
            chunk.v1(0, 1, &[], &defs, encoding, &values);
        }
    }
    chunk
}

fn read_optional_i32(
    reader: &mut ColumnRecordReader<i32>,
    batch_size: usize,
) -> (Vec<Option<i32>>, usize) {
    let mut out = RecordBatchBuffers::new();
    let mut got = Vec::new();
    let mut batches = 0;
    loop {
        let n = reader.read_records(batch_size, &mut out).unwrap();
        if n == 0 {
            break;
        }
        batches += 1;
        assert!(n <= batch_size);
        assert_eq!(out.num_records, n);
        assert_eq!(out.values.len(), n);
        assert_eq!(out.def_levels.len(), n);
        assert!(out.rep_levels.is_empty());
        let mut nulls = 0;
        for i in 0..n {
            if out.is_valid(i) {
                assert_eq!(out.def_levels[i], 1);
                got.push(Some(out.values[i]));
            } else {
                assert_eq!(out.def_levels[i], 0);
                assert_eq!(out.values[i], 0, "null slots hold zero");
                nulls += 1;
                got.push(None);
            }
        }
        assert_eq!(out.null_count, nulls);
    }
    (got, batches)
}

#[test]
fn required_plain_v1_and_v2_across_pages() {
    let data: Vec<i32> = (0..2000).map(|i| i * 3 - 1000).collect();
    for v2 in [false, true] {
        for &batch in &BATCHES {
            let mut chunk = Chunk::default();
            for (start, end) in cuts(data.len()) {
                let values = encode(&mut PlainEncoder::<i32>::new(), &data[start..end]);
                let n = end - start;
                let levels = vec![0i16; n];
                if v2 {
                    chunk.v2(0, 0, &[], &levels[..n], Encoding::Plain, &values);
                } else {
                    chunk.v1(0, 0, &[], &levels[..n], Encoding::Plain, &values);
                }
            }
            let mut reader =
                ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 0, 0)).unwrap();
            let mut out = RecordBatchBuffers::new();
            let mut got = Vec::new();
            loop {
                let n = reader.read_records(batch, &mut out).unwrap();
                if n == 0 {
                    break;
                }
                assert_eq!(n, batch.min(data.len() - got.len()));
                assert!(out.def_levels.is_empty() && out.rep_levels.is_empty());
                assert!(out.validity.is_empty());
                got.extend_from_slice(&out.values);
            }
            assert_eq!(got, data, "v2={v2} batch={batch}");
            assert_eq!(reader.stats().spaced_decodes, 0);
        }
    }
}

#[test]
fn optional_with_nulls_takes_spaced_path() {
    let data = optional_column(3000, Some(4), 7);
    for (v2, encoding) in [
        (false, Encoding::Plain),
        (true, Encoding::Plain),
        (false, Encoding::DeltaBinaryPacked),
        (true, Encoding::DeltaBinaryPacked),
    ] {
        for &batch in &BATCHES {
            let chunk = optional_i32_chunk(&data, v2, encoding);
            let mut reader =
                ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 0)).unwrap();
            let (got, _) = read_optional_i32(&mut reader, batch);
            assert_eq!(got, data, "v2={v2} {encoding:?} batch={batch}");
            let stats = reader.stats();
            assert!(stats.spaced_decodes > 0);
            assert_eq!(stats.data_pages as usize, cuts(data.len()).len());
        }
    }
}

#[test]
fn optional_without_nulls_takes_dense_path() {
    let data = optional_column(2500, None, 11);
    for (v2, encoding) in [
        (false, Encoding::Plain),
        (true, Encoding::DeltaBinaryPacked),
    ] {
        for &batch in &BATCHES {
            let chunk = optional_i32_chunk(&data, v2, encoding);
            let mut reader =
                ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 0)).unwrap();
            let (got, batches) = read_optional_i32(&mut reader, batch);
            assert_eq!(got, data);
            let stats = reader.stats();
            assert_eq!(stats.spaced_decodes, 0, "no batch may take the spaced path");
            assert!(stats.dense_decodes > 0);
            // Every batch, including the final empty one, was dense.
            assert_eq!(stats.dense_batches as usize, batches + 1);
            assert_eq!(stats.spaced_batches, 0);
        }
    }
}

#[test]
fn mixed_batches_choose_per_batch() {
    // First 500 rows without nulls, then nulls: early batches stay dense.
    let mut data = optional_column(500, None, 3);
    data.extend(optional_column(500, Some(2), 4));
    let chunk = optional_i32_chunk(&data, true, Encoding::Plain);
    let mut reader =
        ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 0)).unwrap();
    let mut out = RecordBatchBuffers::new();
    assert_eq!(reader.read_records(100, &mut out).unwrap(), 100);
    assert_eq!(out.null_count, 0);
    assert_eq!(reader.stats().spaced_decodes, 0);
    assert_eq!(reader.stats().dense_batches, 1);
    let (rest, _) = read_optional_i32(&mut reader, 1024);
    assert_eq!(rest, data[100..]);
    assert!(reader.stats().spaced_batches > 0);
}

/// Lists of random lengths (0 = empty list) for `repeated int32 c`
/// (max def 1, max rep 1).
fn lists(n: usize, seed: u64) -> Vec<Vec<i32>> {
    let mut rng = Lcg(seed);
    (0..n)
        .map(|_| {
            let len = rng.below(6) as usize;
            (0..len).map(|_| rng.next() as i32).collect()
        })
        .collect()
}

fn list_levels(data: &[Vec<i32>]) -> (Vec<i16>, Vec<i16>, Vec<i32>) {
    let (mut reps, mut defs, mut values) = (Vec::new(), Vec::new(), Vec::new());
    for list in data {
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
    (reps, defs, values)
}

#[test]
fn repeated_records_never_split() {
    let data = lists(700, 5);
    let (reps, defs, values) = list_levels(&data);
    // Cut pages at arbitrary levels, so records span pages (v1 only: v2
    // pages must start at a record boundary).
    let mut chunk = Chunk::default();
    let mut value_pos = 0;
    for (start, end) in cuts(reps.len()) {
        let present = defs[start..end].iter().filter(|&&d| d == 1).count();
        let page_values = encode(
            &mut PlainEncoder::<i32>::new(),
            &values[value_pos..value_pos + present],
        );
        value_pos += present;
        chunk.v1(
            1,
            1,
            &reps[start..end],
            &defs[start..end],
            Encoding::Plain,
            &page_values,
        );
    }
    let bytes_chunk = chunk;
    let pages = bytes_chunk.reader();
    let mut readers = vec![(1usize, pages)];
    // Rebuild for each batch size (PageReader is not Clone).
    for &batch in &BATCHES[1..] {
        let mut chunk = Chunk::default();
        let mut value_pos = 0;
        for (start, end) in cuts(reps.len()) {
            let present = defs[start..end].iter().filter(|&&d| d == 1).count();
            let page_values = encode(
                &mut PlainEncoder::<i32>::new(),
                &values[value_pos..value_pos + present],
            );
            value_pos += present;
            chunk.v1(
                1,
                1,
                &reps[start..end],
                &defs[start..end],
                Encoding::Plain,
                &page_values,
            );
        }
        readers.push((batch, chunk.reader()));
    }
    for (batch, pages) in readers {
        let mut reader = ColumnRecordReader::<i32>::new(pages, descr(Type::Int32, 1, 1)).unwrap();
        let mut out = RecordBatchBuffers::new();
        let mut got: Vec<Vec<i32>> = Vec::new();
        loop {
            let n = reader.read_records(batch, &mut out).unwrap();
            if n == 0 {
                break;
            }
            assert!(n <= batch);
            assert_eq!(out.rep_levels[0], 0, "a batch starts a record");
            assert_eq!(out.rep_levels.iter().filter(|&&r| r == 0).count(), n);
            assert!(out.validity.is_empty());
            let mut next_value = out.values.iter();
            for (&r, &d) in out.rep_levels.iter().zip(&out.def_levels) {
                if r == 0 {
                    got.push(Vec::new());
                }
                if d == 1 {
                    got.last_mut().unwrap().push(*next_value.next().unwrap());
                }
            }
            assert!(
                next_value.next().is_none(),
                "values are exactly the present ones"
            );
        }
        assert_eq!(got, data, "batch={batch}");
    }
}

fn strings(n: usize, distinct: u64, null_every: Option<u64>, seed: u64) -> Vec<Option<String>> {
    let mut rng = Lcg(seed);
    (0..n)
        .map(|_| {
            let s = format!("value-{}", rng.below(distinct));
            match null_every {
                Some(k) if rng.below(k) == 0 => None,
                _ => Some(s),
            }
        })
        .collect()
}

/// An optional BYTE_ARRAY chunk: a dictionary page and RLE_DICTIONARY
/// pages, then (if `plain_tail` > 0) PLAIN pages of the last rows.
fn dict_string_chunk(data: &[Option<String>], v2: bool, plain_tail: usize) -> Chunk {
    let dict_rows = data.len() - plain_tail;
    let mut enc = DictEncoder::<ByteArray>::new();
    let mut pages = Vec::new();
    for (start, end) in cuts(dict_rows) {
        let page = &data[start..end];
        let present: Vec<&[u8]> = page.iter().flatten().map(|s| s.as_bytes()).collect();
        let indices = encode(&mut enc, ByteArrayBatch::from_slices(&present));
        let defs: Vec<i16> = page.iter().map(|v| i16::from(v.is_some())).collect();
        pages.push((defs, indices));
    }
    let mut dict = ByteSink::new();
    enc.write_dict_page(&mut dict).unwrap();
    let mut chunk = Chunk::dictionary(dict.as_slice(), enc.num_entries(), &pages, v2);
    if plain_tail > 0 {
        for (start, end) in cuts(plain_tail) {
            let page = &data[dict_rows + start..dict_rows + end];
            let present: Vec<&[u8]> = page.iter().flatten().map(|s| s.as_bytes()).collect();
            let values = encode(
                &mut PlainByteArrayEncoder::new(),
                ByteArrayBatch::from_slices(&present),
            );
            let defs: Vec<i16> = page.iter().map(|v| i16::from(v.is_some())).collect();
            chunk.v1(0, 1, &[], &defs, Encoding::Plain, &values);
        }
    }
    chunk
}

fn collect_strings(out: &RecordBatchBuffers<ByteArrayBuffer>, got: &mut Vec<Option<String>>) {
    for i in 0..out.num_levels {
        if out.is_valid(i) {
            got.push(Some(
                String::from_utf8(out.values.value(i).unwrap().to_vec()).unwrap(),
            ));
        } else {
            assert_eq!(out.values.value(i), Some(&b""[..]));
            got.push(None);
        }
    }
}

#[test]
fn dictionary_strings_materialised() {
    let data = strings(2000, 50, Some(5), 9);
    for v2 in [false, true] {
        for &batch in &BATCHES {
            let chunk = dict_string_chunk(&data, v2, 0);
            let mut reader =
                ColumnRecordReader::<ByteArray>::new(chunk.reader(), descr(Type::ByteArray, 1, 0))
                    .unwrap();
            let mut out = RecordBatchBuffers::new();
            let mut got = Vec::new();
            while reader.read_records(batch, &mut out).unwrap() > 0 {
                collect_strings(&out, &mut got);
            }
            assert_eq!(got, data);
            assert_eq!(reader.stats().dictionary_pages, 1);
        }
    }
}

#[test]
fn dictionary_mode_shares_one_arc() {
    let data = strings(2000, 40, Some(6), 13);
    for &batch in &BATCHES {
        let chunk = dict_string_chunk(&data, true, 0);
        let mut reader =
            ColumnRecordReader::<ByteArray>::new(chunk.reader(), descr(Type::ByteArray, 1, 0))
                .unwrap();
        let mut out = RecordBatchBuffers::new();
        let mut first: Option<Arc<ByteArrayBuffer>> = None;
        let mut got = Vec::new();
        loop {
            let DictionaryRead::Indices {
                records,
                dictionary,
            } = reader.read_records_dictionary(batch, &mut out).unwrap()
            else {
                panic!("no fallback expected");
            };
            if records == 0 {
                break;
            }
            let dictionary = dictionary.unwrap();
            match &first {
                None => first = Some(dictionary.clone()),
                Some(first) => assert!(Arc::ptr_eq(first, &dictionary)),
            }
            assert_eq!(out.values.len(), records);
            for i in 0..records {
                if out.is_valid(i) {
                    let v = dictionary.value(out.values[i] as usize).unwrap();
                    got.push(Some(String::from_utf8(v.to_vec()).unwrap()));
                } else {
                    assert_eq!(out.values[i], 0);
                    got.push(None);
                }
            }
        }
        assert_eq!(got, data);
        assert!(Arc::ptr_eq(
            first.as_ref().unwrap(),
            reader.dictionary().unwrap().unwrap()
        ));
        assert_eq!(reader.stats().dictionary_pages, 1);
    }
}

#[test]
fn dictionary_fallback_is_reported() {
    let data = strings(1500, 30, Some(4), 17);
    let plain_tail = 400;
    let chunk = dict_string_chunk(&data, false, plain_tail);
    let mut reader =
        ColumnRecordReader::<ByteArray>::new(chunk.reader(), descr(Type::ByteArray, 1, 0)).unwrap();
    let mut indices = RecordBatchBuffers::new();
    let mut got = Vec::new();
    loop {
        match reader.read_records_dictionary(64, &mut indices).unwrap() {
            DictionaryRead::Indices {
                records,
                dictionary,
            } => {
                assert!(records > 0, "the fallback comes before the end");
                let dictionary = dictionary.unwrap();
                for i in 0..records {
                    got.push(indices.is_valid(i).then(|| {
                        String::from_utf8(
                            dictionary
                                .value(indices.values[i] as usize)
                                .unwrap()
                                .to_vec(),
                        )
                        .unwrap()
                    }));
                }
            }
            DictionaryRead::Fallback {
                records,
                dictionary,
            } => {
                assert!(dictionary.is_some());
                let dictionary = dictionary.unwrap();
                for i in 0..records {
                    got.push(indices.is_valid(i).then(|| {
                        String::from_utf8(
                            dictionary
                                .value(indices.values[i] as usize)
                                .unwrap()
                                .to_vec(),
                        )
                        .unwrap()
                    }));
                }
                break;
            }
        }
    }
    assert_eq!(got.len(), data.len() - plain_tail);
    // Asking again still reports the fallback, reading nothing.
    assert!(matches!(
        reader.read_records_dictionary(64, &mut indices).unwrap(),
        DictionaryRead::Fallback { records: 0, .. }
    ));
    let mut out = RecordBatchBuffers::new();
    while reader.read_records(100, &mut out).unwrap() > 0 {
        collect_strings(&out, &mut got);
    }
    assert_eq!(got, data);
}

#[test]
fn skip_then_read() {
    // Required, v2 pages: whole pages are skipped without decoding.
    let data: Vec<i64> = (0..1500).map(|i| i * 7).collect();
    let mut chunk = Chunk::default();
    for (start, end) in cuts(data.len()) {
        let values = encode(&mut PlainEncoder::<i64>::new(), &data[start..end]);
        chunk.v2(0, 0, &[], &vec![0; end - start], Encoding::Plain, &values);
    }
    let mut reader =
        ColumnRecordReader::<i64>::new(chunk.reader(), descr(Type::Int64, 0, 0)).unwrap();
    assert_eq!(reader.skip_records(150).unwrap(), 150);
    let mut out = RecordBatchBuffers::new();
    assert_eq!(reader.read_records(10, &mut out).unwrap(), 10);
    assert_eq!(out.values, data[150..160]);
    assert_eq!(
        reader.stats().pages_skipped,
        2,
        "pages 0 and 1 (137 rows) skipped whole"
    );
    assert_eq!(reader.skip_records(500).unwrap(), 500);
    assert_eq!(reader.read_records(3, &mut out).unwrap(), 3);
    assert_eq!(out.values, data[660..663]);
    assert_eq!(reader.stats().pages_skipped, 3, "and the 1-row page 3");
    assert_eq!(reader.skip_records(10_000).unwrap(), 1500 - 663);
    assert_eq!(reader.read_records(3, &mut out).unwrap(), 0);

    // Optional with nulls and a dictionary: skipping indices.
    let strs = strings(1200, 20, Some(3), 21);
    for skip in [0usize, 1, 99, 100, 101, 555] {
        let chunk = dict_string_chunk(&strs, false, 300);
        let mut reader =
            ColumnRecordReader::<ByteArray>::new(chunk.reader(), descr(Type::ByteArray, 1, 0))
                .unwrap();
        assert_eq!(reader.skip_records(skip).unwrap(), skip);
        let mut out = RecordBatchBuffers::new();
        let mut got = Vec::new();
        while reader.read_records(77, &mut out).unwrap() > 0 {
            collect_strings(&out, &mut got);
        }
        assert_eq!(got, strs[skip..], "skip={skip}");
    }

    // Repeated: skip whole records, then read the rest.
    let lists_data = lists(400, 23);
    let (reps, defs, values) = list_levels(&lists_data);
    for skip in [1usize, 37, 200] {
        let mut chunk = Chunk::default();
        let mut value_pos = 0;
        for (start, end) in cuts(reps.len()) {
            let present = defs[start..end].iter().filter(|&&d| d == 1).count();
            let page_values = encode(
                &mut DeltaBinaryPackedEncoder::<i32>::new(),
                &values[value_pos..value_pos + present],
            );
            value_pos += present;
            chunk.v1(
                1,
                1,
                &reps[start..end],
                &defs[start..end],
                Encoding::DeltaBinaryPacked,
                &page_values,
            );
        }
        let mut reader =
            ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 1)).unwrap();
        assert_eq!(reader.skip_records(skip).unwrap(), skip);
        let mut out = RecordBatchBuffers::new();
        let mut got: Vec<Vec<i32>> = Vec::new();
        while reader.read_records(50, &mut out).unwrap() > 0 {
            let mut next_value = out.values.iter();
            for (&r, &d) in out.rep_levels.iter().zip(&out.def_levels) {
                if r == 0 {
                    got.push(Vec::new());
                }
                if d == 1 {
                    got.last_mut().unwrap().push(*next_value.next().unwrap());
                }
            }
        }
        assert_eq!(got, lists_data[skip..], "skip={skip}");
    }
}

#[test]
fn booleans_rle_and_floats_byte_stream_split() {
    let bools: Vec<bool> = (0..1000).map(|i| i % 3 == 0 || i % 7 == 0).collect();
    let floats: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.5 - 3.0).collect();
    let mut bool_chunk = Chunk::default();
    let mut float_chunk = Chunk::default();
    for (start, end) in cuts(1000) {
        let levels = vec![0i16; end - start];
        let b = encode(&mut RleBooleanEncoder::new(), &bools[start..end]);
        bool_chunk.v1(0, 0, &[], &levels, Encoding::Rle, &b);
        let f = encode(
            &mut ByteStreamSplitEncoder::<f64>::new(),
            &floats[start..end],
        );
        float_chunk.v2(0, 0, &[], &levels, Encoding::ByteStreamSplit, &f);
    }
    let mut br =
        ColumnRecordReader::<bool>::new(bool_chunk.reader(), descr(Type::Boolean, 0, 0)).unwrap();
    let mut fr =
        ColumnRecordReader::<f64>::new(float_chunk.reader(), descr(Type::Double, 0, 0)).unwrap();
    let (mut bo, mut fo) = (RecordBatchBuffers::new(), RecordBatchBuffers::new());
    let (mut got_b, mut got_f) = (Vec::new(), Vec::new());
    while br.read_records(7, &mut bo).unwrap() > 0 {
        got_b.extend_from_slice(&bo.values);
    }
    while fr.read_records(7, &mut fo).unwrap() > 0 {
        got_f.extend_from_slice(&fo.values);
    }
    assert_eq!(got_b, bools);
    assert_eq!(got_f, floats);
}

#[test]
fn buffers_keep_capacity_and_type_is_checked() {
    let data = optional_column(3000, Some(3), 29);
    let chunk = optional_i32_chunk(&data, false, Encoding::Plain);
    let mut reader =
        ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 0)).unwrap();
    let mut out = RecordBatchBuffers::new();
    reader.read_records(1024, &mut out).unwrap();
    let caps = (
        out.values.capacity(),
        out.def_levels.capacity(),
        out.validity.capacity(),
    );
    let ptr = out.values.as_ptr();
    reader.read_records(1024, &mut out).unwrap();
    assert_eq!(
        (
            out.values.capacity(),
            out.def_levels.capacity(),
            out.validity.capacity()
        ),
        caps
    );
    assert_eq!(out.values.as_ptr(), ptr, "no reallocation across batches");

    let chunk = optional_i32_chunk(&data, false, Encoding::Plain);
    assert!(matches!(
        ColumnRecordReader::<i64>::new(chunk.reader(), descr(Type::Int32, 1, 0)),
        Err(RecordError::TypeMismatch { .. })
    ));
}

#[test]
fn malformed_pages_are_errors() {
    // Levels announce 10 present values, the PLAIN page holds 5.
    let mut chunk = Chunk::default();
    let values = encode(&mut PlainEncoder::<i32>::new(), &[1, 2, 3, 4, 5][..]);
    chunk.v1(0, 1, &[], &[1; 10], Encoding::Plain, &values);
    let mut reader =
        ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 0)).unwrap();
    let mut out = RecordBatchBuffers::new();
    assert!(reader.read_records(100, &mut out).is_err());

    // INT32 dictionary chunks: (dictionary page, index page (bit width,
    // then a run of three), max definition level, what a read gives).
    let two = [1, 0, 0, 0, 2, 0, 0, 0];
    type Case<'a> = (Option<&'a [u8]>, [u8; 3], i16, Option<[i32; 3]>);
    let cases: [Case<'_>; 5] = [
        // Dictionary-encoded data without a dictionary page.
        (None, [1, 6, 0], 0, None),
        // A dictionary page of 7 bytes cannot hold 2 entries.
        (Some(&two[..7]), [1, 6, 0], 0, None),
        // Index 2 in a dictionary of 2 entries, required and optional.
        (Some(&two), [2, 6, 2], 0, None),
        (Some(&two), [2, 6, 2], 1, None),
        // Index 1 is the second entry.
        (Some(&two), [2, 6, 1], 1, Some([2, 2, 2])),
    ];
    for (dict, indices, max_def, expected) in cases {
        let mut chunk = Chunk::default();
        if let Some(dict) = dict {
            chunk.dictionary_page(dict, 2);
        }
        chunk.v1(
            0,
            max_def,
            &[],
            &[max_def; 3],
            Encoding::RleDictionary,
            &indices,
        );
        let mut reader =
            ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, max_def, 0)).unwrap();
        match expected {
            None => {
                let r = reader.read_records(100, &mut out);
                assert!(r.is_err(), "{dict:?} {indices:?}: {r:?}");
            }
            Some(values) => {
                assert_eq!(reader.read_records(100, &mut out).unwrap(), 3);
                assert_eq!(out.values, values);
            }
        }
    }
}

#[test]
fn skip_completes_a_record_that_spans_pages() {
    // Records [1, 2], [3, 4, 5], [6]: the second spans the page boundary.
    let mut chunk = Chunk::default();
    let page1 = encode(&mut PlainEncoder::<i32>::new(), &[1, 2, 3, 4][..]);
    chunk.v1(1, 1, &[0, 1, 0, 1], &[1, 1, 1, 1], Encoding::Plain, &page1);
    let page2 = encode(&mut PlainEncoder::<i32>::new(), &[5, 6][..]);
    chunk.v1(1, 1, &[1, 0], &[1, 1], Encoding::Plain, &page2);
    let mut reader =
        ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 1)).unwrap();
    assert_eq!(reader.skip_records(2).unwrap(), 2);
    let mut out = RecordBatchBuffers::new();
    assert_eq!(reader.read_records(10, &mut out).unwrap(), 1);
    assert_eq!(out.values, [6]);
    assert_eq!(out.rep_levels, [0]);

    // Read the same way: a batch of 2 records ends after the continuation.
    let mut chunk = Chunk::default();
    chunk.v1(1, 1, &[0, 1, 0, 1], &[1, 1, 1, 1], Encoding::Plain, &page1);
    chunk.v1(1, 1, &[1, 0], &[1, 1], Encoding::Plain, &page2);
    let mut reader =
        ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 1)).unwrap();
    assert_eq!(reader.read_records(2, &mut out).unwrap(), 2);
    assert_eq!(out.values, [1, 2, 3, 4, 5]);
    assert_eq!(out.rep_levels, [0, 1, 0, 1, 1]);
    assert_eq!(reader.read_records(2, &mut out).unwrap(), 1);
    assert_eq!(out.values, [6]);
}

#[test]
fn repeated_v2_pages_skipped_whole() {
    // v2 pages start at record boundaries and give their record count.
    let mut chunk = Chunk::default();
    let pages: [(&[i16], &[i32]); 3] = [
        (&[0, 1, 0], &[1, 2, 3]),
        (&[0, 0, 1, 1], &[4, 5, 6, 7]),
        (&[0, 1], &[8, 9]),
    ];
    for (reps, values) in pages {
        let defs = vec![1i16; reps.len()];
        let body = encode(&mut PlainEncoder::<i32>::new(), values);
        chunk.v2(1, 1, reps, &defs, Encoding::Plain, &body);
    }
    let mut reader =
        ColumnRecordReader::<i32>::new(chunk.reader(), descr(Type::Int32, 1, 1)).unwrap();
    assert_eq!(reader.skip_records(3).unwrap(), 3);
    assert_eq!(reader.stats().pages_skipped, 1);
    let mut out = RecordBatchBuffers::new();
    assert_eq!(reader.read_records(10, &mut out).unwrap(), 2);
    assert_eq!(out.values, [5, 6, 7, 8, 9]);
    assert_eq!(out.rep_levels, [0, 1, 1, 0, 1]);
}

#[test]
fn repeated_v1_pages_skipped_whole_with_offset_index() {
    // v1 headers count levels, not records: without an offset index the
    // pages are decoded to skip; with one, whole pages are skipped.
    let pages: [(&[i16], &[i32]); 3] = [
        (&[0, 1, 0], &[1, 2, 3]),
        (&[0, 0, 1, 1], &[4, 5, 6, 7]),
        (&[0, 1], &[8, 9]),
    ];
    let build = || {
        let mut chunk = Chunk::default();
        let mut locations = Vec::new();
        let mut first_row = 0i64;
        for (reps, values) in pages {
            let start = chunk.offset();
            let defs = vec![1i16; reps.len()];
            let body = encode(&mut PlainEncoder::<i32>::new(), values);
            chunk.v1(1, 1, reps, &defs, Encoding::Plain, &body);
            locations.push(strata_format::metadata::PageLocation {
                offset: start as i64,
                compressed_page_size: (chunk.offset() - start) as i32,
                first_row_index: first_row,
            });
            first_row += reps.iter().filter(|&&r| r == 0).count() as i64;
        }
        (chunk, locations)
    };
    for indexed in [false, true] {
        let (chunk, locations) = build();
        let mut pages_reader = chunk.reader();
        if indexed {
            pages_reader.set_page_locations(&locations, 0).unwrap();
        }
        let mut reader =
            ColumnRecordReader::<i32>::new(pages_reader, descr(Type::Int32, 1, 1)).unwrap();
        // Records: [1,2] [3] | [4] [5,6,7] | [8,9]; skip the first page's 2.
        assert_eq!(reader.skip_records(2).unwrap(), 2);
        assert_eq!(
            reader.stats().pages_skipped,
            u64::from(indexed),
            "indexed {indexed}"
        );
        let mut out = RecordBatchBuffers::new();
        assert_eq!(reader.read_records(10, &mut out).unwrap(), 3);
        assert_eq!(out.values, [4, 5, 6, 7, 8, 9]);
        assert_eq!(out.rep_levels, [0, 0, 1, 1, 0, 1]);
    }
}

#[test]
fn offset_index_skips_runs_of_pages_without_their_headers() {
    // Three optional INT32 pages of 3, 4 and 2 rows: after one row is read,
    // skipping 6 passes the rest of page 0 and, by the index, page 1.
    let pages: [&[i32]; 3] = [&[1, 2, 3], &[4, 5, 6, 7], &[8, 9]];
    let mut chunk = Chunk::default();
    let mut locations = Vec::new();
    let mut first_row = 0i64;
    for values in pages {
        let start = chunk.offset();
        let body = encode(&mut PlainEncoder::<i32>::new(), values);
        chunk.v1(0, 1, &[], &vec![1i16; values.len()], Encoding::Plain, &body);
        locations.push(strata_format::metadata::PageLocation {
            offset: start as i64,
            compressed_page_size: (chunk.offset() - start) as i32,
            first_row_index: first_row,
        });
        first_row += values.len() as i64;
    }
    let mut pages_reader = chunk.reader();
    // An index whose rows go back is refused (skipping counts by them).
    let mut backwards = locations.clone();
    backwards[2].first_row_index = 1;
    assert!(pages_reader.set_page_locations(&backwards, 0).is_err());
    pages_reader.set_page_locations(&locations, 0).unwrap();
    let mut reader =
        ColumnRecordReader::<i32>::new(pages_reader, descr(Type::Int32, 1, 0)).unwrap();
    let mut out = RecordBatchBuffers::new();
    assert_eq!(reader.read_records(1, &mut out).unwrap(), 1);
    assert_eq!(out.values, [1]);
    // 2 rows left in page 0, then page 1 whole: skipped by the index.
    assert_eq!(reader.skip_records(6).unwrap(), 6);
    assert_eq!(reader.stats().pages_skipped, 1);
    assert_eq!(reader.read_records(10, &mut out).unwrap(), 2);
    assert_eq!(out.values, [8, 9]);
}

/// Pages without nulls next to pages with nulls, read in batches that span
/// both, with and without the definition levels in the output: the
/// validity (which the reader fills without scanning a page it knows has
/// no nulls) and the values match, and the levels are left out when asked.
#[test]
fn flat_levels_optional_and_pages_without_nulls() {
    // Runs of rows alternate between no nulls and one in three null.
    let mut data = Vec::new();
    for (i, len) in [700usize, 300, 900, 250, 400].into_iter().enumerate() {
        let null_every = (i % 2 == 1).then_some(3);
        data.extend(strings(len, 60, null_every, 21 + i as u64));
    }
    for keep in [true, false] {
        for plain_tail in [0, 900] {
            for v2 in [false, true] {
                for &batch in &BATCHES {
                    let chunk = dict_string_chunk(&data, v2, plain_tail);
                    let mut reader = ColumnRecordReader::<ByteArray>::new(
                        chunk.reader(),
                        descr(Type::ByteArray, 1, 0),
                    )
                    .unwrap();
                    reader.set_flat_def_levels(keep);
                    let mut out = RecordBatchBuffers::new();
                    let mut got = Vec::new();
                    while reader.read_records(batch, &mut out).unwrap() > 0 {
                        assert_eq!(out.values.len(), out.num_levels);
                        let nulls = (0..out.num_levels).filter(|&i| !out.is_valid(i)).count();
                        assert_eq!(out.null_count, nulls);
                        if keep {
                            assert_eq!(out.def_levels.len(), out.num_levels);
                            for i in 0..out.num_levels {
                                assert_eq!(out.def_levels[i] == 1, out.is_valid(i));
                            }
                        } else {
                            assert!(out.def_levels.is_empty());
                        }
                        collect_strings(&out, &mut got);
                    }
                    assert_eq!(
                        got, data,
                        "keep={keep} tail={plain_tail} v2={v2} batch={batch}"
                    );
                    // The pages of the runs without nulls were recognised
                    // as such, and not the others.
                    let stats = reader.stats();
                    assert!(stats.pages_without_nulls > 0);
                    assert!(stats.pages_without_nulls < stats.data_pages);
                }
            }
        }
    }
}

/// PLAIN strings are read in place, a run at a time from a byte position:
/// skips and reads of every size, within and across pages, with nulls,
/// give the values in order.
#[test]
fn plain_strings_skip_and_read_in_place() {
    let strs = strings(1200, 300, Some(4), 33);
    for (skip, read) in [
        (0usize, 1usize),
        (1, 7),
        (37, 100),
        (99, 1),
        (250, 333),
        (5, 1200),
    ] {
        // All PLAIN: 1,000 rows after a 200-row dictionary part.
        let chunk = dict_string_chunk(&strs, false, 1000);
        let mut reader =
            ColumnRecordReader::<ByteArray>::new(chunk.reader(), descr(Type::ByteArray, 1, 0))
                .unwrap();
        let mut expect = Vec::new();
        let mut got = Vec::new();
        let mut at = 0usize;
        loop {
            let skipped = reader.skip_records(skip).unwrap();
            assert_eq!(skipped, skip.min(strs.len() - at), "skip {skip} at {at}");
            at += skipped;
            let mut out = RecordBatchBuffers::new();
            let n = reader.read_records(read, &mut out).unwrap();
            assert_eq!(n, read.min(strs.len() - at), "read {read} at {at}");
            collect_strings(&out, &mut got);
            expect.extend_from_slice(&strs[at..at + n]);
            at += n;
            if at == strs.len() {
                break;
            }
        }
        assert_eq!(got, expect, "skip {skip}, read {read}");
    }
}
