//! FIXED_LEN_BYTE_ARRAY columns through hand-built column chunks: every
//! width class, shape (required, optional, repeated), encoding (PLAIN,
//! dictionary, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT), page version, batch
//! size, skipping and dictionary mode; then files written by strata-file's
//! writer, and malformed input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use common::{Chunk, Lcg, descr, encode};
use strata_encoding::{
    ByteStreamSplitFixedLenEncoder, DeltaByteArrayFixedLenEncoder, DictEncoder, FixedLenBatch,
    FixedLenByteArray, FixedLenByteArrayBuffer, PlainEncoder, PlainFixedLenByteArrayEncoder,
};
use strata_format::ColumnDescriptor;
use strata_format::metadata::{Encoding, Type};
use strata_record::{ColumnRecordReader, DictionaryRead, RecordBatchBuffers, RecordError};
use strata_sink::ByteSink;

const WIDTHS: [usize; 5] = [1, 2, 12, 16, 33];
const BATCHES: [usize; 3] = [1, 7, 1024];

/// One level of a column: repetition level, definition level, and the
/// value when the definition level is the maximum.
type Level = (i16, i16, Option<Vec<u8>>);
/// A record: its levels.
type Record = Vec<Level>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `required fixed_len_byte_array(w) c`: max def 0, max rep 0.
    Required,
    /// `optional fixed_len_byte_array(w) c`: max def 1, max rep 0.
    Optional,
    /// `repeated fixed_len_byte_array(w) c`: max def 1, max rep 1 (a
    /// record with no value is one level of definition 0).
    Repeated,
}

impl Shape {
    fn levels(self) -> (i16, i16) {
        match self {
            Shape::Required => (0, 0),
            Shape::Optional => (1, 0),
            Shape::Repeated => (1, 1),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Enc {
    Plain,
    Dict,
    Delta,
    Split,
}

const ENCODINGS: [Enc; 4] = [Enc::Plain, Enc::Dict, Enc::Delta, Enc::Split];

fn flba_descr(width: usize, shape: Shape) -> ColumnDescriptor {
    let (max_def, max_rep) = shape.levels();
    let mut d = descr(Type::FixedLenByteArray, max_def, max_rep);
    d.type_length = Some(width as i32);
    d
}

/// `n` records of `width`-byte values drawn from a pool of `pool` random
/// values (so dictionaries stay small and prefixes repeat).
fn records(shape: Shape, n: usize, width: usize, pool: usize, seed: u64) -> Vec<Record> {
    let mut rng = Lcg(seed);
    let pool: Vec<Vec<u8>> = (0..pool)
        .map(|_| (0..width).map(|_| rng.next() as u8).collect())
        .collect();
    let value = |rng: &mut Lcg| pool[rng.below(pool.len() as u64) as usize].clone();
    (0..n)
        .map(|_| match shape {
            Shape::Required => vec![(0, 0, Some(value(&mut rng)))],
            Shape::Optional => {
                if rng.below(4) == 0 {
                    vec![(0, 0, None)]
                } else {
                    vec![(0, 1, Some(value(&mut rng)))]
                }
            }
            Shape::Repeated => {
                let len = rng.below(5) as usize;
                if len == 0 {
                    vec![(0, 0, None)]
                } else {
                    (0..len)
                        .map(|i| (i16::from(i > 0), 1, Some(value(&mut rng))))
                        .collect()
                }
            }
        })
        .collect()
}

/// Uneven page cuts, in levels.
fn cuts(total: usize) -> Vec<(usize, usize)> {
    let sizes = [100, 37, 250, 1, 313];
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while start < total {
        let end = (start + sizes[i % sizes.len()]).min(total);
        out.push((start, end));
        start = end;
        i += 1;
    }
    out
}

/// Page cuts of `levels`: arbitrary for v1 pages (records span pages),
/// moved forward to the next record start for v2 pages.
fn page_cuts(levels: &[Level], v2: bool) -> Vec<(usize, usize)> {
    if !v2 {
        return cuts(levels.len());
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (_, end) in cuts(levels.len()) {
        let mut end = end.max(start);
        while end < levels.len() && levels[end].0 != 0 {
            end += 1;
        }
        if end > start {
            out.push((start, end));
            start = end;
        }
    }
    out
}

fn present_bytes(levels: &[Level]) -> Vec<u8> {
    levels
        .iter()
        .filter_map(|l| l.2.as_deref())
        .flatten()
        .copied()
        .collect()
}

/// The values section of one page of `present` values (bytes back to
/// back), encoded with `enc` (the dictionary encoder is shared by the
/// chunk's pages).
fn encode_page(
    enc: Enc,
    width: usize,
    present: &[u8],
    dict: &mut DictEncoder<FixedLenByteArray>,
) -> Vec<u8> {
    let batch = FixedLenBatch::new(width, present).unwrap();
    match enc {
        Enc::Plain => encode(
            &mut PlainFixedLenByteArrayEncoder::new(width).unwrap(),
            batch,
        ),
        Enc::Dict => encode(dict, batch),
        Enc::Delta => encode(
            &mut DeltaByteArrayFixedLenEncoder::new(width).unwrap(),
            batch,
        ),
        Enc::Split => encode(
            &mut ByteStreamSplitFixedLenEncoder::new(width).unwrap(),
            batch,
        ),
    }
}

/// A column chunk of `data`; with `plain_tail`, the last `plain_tail`
/// records' pages are PLAIN (a dictionary fallback).
fn chunk(
    data: &[Record],
    shape: Shape,
    width: usize,
    enc: Enc,
    v2: bool,
    plain_tail: usize,
) -> Chunk {
    let (max_def, max_rep) = shape.levels();
    let head: Vec<Level> = data[..data.len() - plain_tail].concat();
    let tail: Vec<Level> = data[data.len() - plain_tail..].concat();
    let mut dict = DictEncoder::<FixedLenByteArray>::new(width).unwrap();
    let mut pages = Vec::new();
    for (levels, enc) in [(&head, enc), (&tail, Enc::Plain)] {
        for (start, end) in page_cuts(levels, v2) {
            let page = &levels[start..end];
            let values = encode_page(enc, width, &present_bytes(page), &mut dict);
            let reps: Vec<i16> = page.iter().map(|l| l.0).collect();
            let defs: Vec<i16> = page.iter().map(|l| l.1).collect();
            let encoding = match enc {
                Enc::Plain => Encoding::Plain,
                Enc::Dict if v2 => Encoding::RleDictionary,
                Enc::Dict => Encoding::PlainDictionary,
                Enc::Delta => Encoding::DeltaByteArray,
                Enc::Split => Encoding::ByteStreamSplit,
            };
            pages.push((reps, defs, encoding, values));
        }
    }
    let mut chunk = Chunk::default();
    if enc == Enc::Dict {
        let mut page = ByteSink::new();
        dict.write_dict_page(&mut page).unwrap();
        chunk.dictionary_page(page.as_slice(), dict.num_entries());
    }
    for (reps, defs, encoding, values) in pages {
        let reps = if max_rep > 0 { &reps[..] } else { &[] };
        // Required columns have no definition levels, but the page still
        // needs its level count: `Chunk` takes it from the longer list.
        if v2 {
            chunk.v2(max_rep, max_def, reps, &defs, encoding, &values);
        } else {
            chunk.v1(max_rep, max_def, reps, &defs, encoding, &values);
        }
    }
    chunk
}

fn reader(chunk: Chunk, width: usize, shape: Shape) -> ColumnRecordReader<FixedLenByteArray> {
    ColumnRecordReader::new(chunk.reader(), flba_descr(width, shape)).unwrap()
}

/// Check one batch's layout and append its records to `got`.
fn collect(
    out: &RecordBatchBuffers<FixedLenByteArrayBuffer>,
    shape: Shape,
    width: usize,
    records: usize,
    got: &mut Vec<Record>,
) {
    assert_eq!(out.num_records, records);
    assert_eq!(out.values.width(), width);
    let n = out.num_levels;
    match shape {
        Shape::Required => {
            assert!(out.def_levels.is_empty() && out.rep_levels.is_empty());
            assert!(out.validity.is_empty());
            assert_eq!((n, out.values.len()), (records, records));
            for i in 0..n {
                got.push(vec![(0, 0, Some(out.values.value(i).unwrap().to_vec()))]);
            }
        }
        Shape::Optional => {
            assert!(out.rep_levels.is_empty());
            assert_eq!((n, out.def_levels.len()), (records, records));
            assert_eq!(out.values.len(), n, "one slot per record");
            assert_eq!(out.values.values().len(), n * width);
            let mut nulls = 0;
            for i in 0..n {
                let slot = out.values.value(i).unwrap();
                if out.is_valid(i) {
                    assert_eq!(out.def_levels[i], 1);
                    got.push(vec![(0, 1, Some(slot.to_vec()))]);
                } else {
                    assert_eq!(out.def_levels[i], 0);
                    assert_eq!(slot, vec![0u8; width], "a null slot is zeros");
                    nulls += 1;
                    got.push(vec![(0, 0, None)]);
                }
            }
            assert_eq!(out.null_count, nulls);
        }
        Shape::Repeated => {
            assert!(out.validity.is_empty());
            assert_eq!(out.rep_levels.len(), n);
            assert_eq!(out.def_levels.len(), n);
            if n > 0 {
                assert_eq!(out.rep_levels[0], 0, "a batch starts a record");
            }
            assert_eq!(out.rep_levels.iter().filter(|&&r| r == 0).count(), records);
            let present = out.def_levels.iter().filter(|&&d| d == 1).count();
            assert_eq!(out.values.len(), present, "present values, densely");
            let mut next = 0;
            for (&r, &d) in out.rep_levels.iter().zip(&out.def_levels) {
                if r == 0 {
                    got.push(Vec::new());
                }
                let value = (d == 1).then(|| {
                    next += 1;
                    out.values.value(next - 1).unwrap().to_vec()
                });
                got.last_mut().unwrap().push((r, d, value));
            }
        }
    }
}

fn read_all(
    r: &mut ColumnRecordReader<FixedLenByteArray>,
    shape: Shape,
    width: usize,
    batch: usize,
) -> Vec<Record> {
    // A default buffer: the reader gives it the column's width.
    let mut out = RecordBatchBuffers::new();
    let mut got = Vec::new();
    loop {
        let n = r.read_records(batch, &mut out).unwrap();
        if n == 0 {
            break;
        }
        assert!(n <= batch);
        collect(&out, shape, width, n, &mut got);
    }
    got
}

const SHAPES: [Shape; 3] = [Shape::Required, Shape::Optional, Shape::Repeated];

#[test]
fn round_trip_every_width_shape_encoding_and_page_version() {
    for (k, &width) in WIDTHS.iter().enumerate() {
        for shape in SHAPES {
            for enc in ENCODINGS {
                let pool = if enc == Enc::Dict { 37 } else { 1000 };
                let data = records(shape, 1100, width, pool, 100 + k as u64);
                for v2 in [false, true] {
                    for batch in BATCHES {
                        let c = chunk(&data, shape, width, enc, v2, 0);
                        let mut r = reader(c, width, shape);
                        let got = read_all(&mut r, shape, width, batch);
                        assert_eq!(
                            got, data,
                            "width={width} {shape:?} {enc:?} v2={v2} batch={batch}"
                        );
                        let stats = r.stats();
                        assert_eq!(stats.dictionary_pages, u64::from(enc == Enc::Dict));
                        if shape == Shape::Optional {
                            assert!(stats.spaced_decodes > 0, "nulls take the spaced path");
                        } else {
                            assert_eq!(stats.spaced_decodes, 0);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn optional_without_nulls_stays_dense() {
    let width = 16;
    let data: Vec<Record> = records(Shape::Required, 900, width, 1000, 5)
        .into_iter()
        .map(|r| vec![(0, 1, r[0].2.clone())])
        .collect();
    for enc in ENCODINGS {
        let c = chunk(&data, Shape::Optional, width, enc, true, 0);
        let mut r = reader(c, width, Shape::Optional);
        assert_eq!(
            read_all(&mut r, Shape::Optional, width, 64),
            data,
            "{enc:?}"
        );
        assert_eq!(r.stats().spaced_decodes, 0, "{enc:?}");
    }
}

/// Skip `skip` records, then read the rest; and alternate skips and reads.
#[test]
fn skip_records_every_encoding() {
    for (k, &width) in [1usize, 12, 33].iter().enumerate() {
        for shape in SHAPES {
            for enc in ENCODINGS {
                let pool = if enc == Enc::Dict { 20 } else { 1000 };
                let data = records(shape, 1000, width, pool, 300 + k as u64);
                for v2 in [false, true] {
                    let what = format!("width={width} {shape:?} {enc:?} v2={v2}");
                    for skip in [0usize, 1, 99, 100, 101, 555, 999, 1000, 5000] {
                        let mut r = reader(chunk(&data, shape, width, enc, v2, 0), width, shape);
                        assert_eq!(r.skip_records(skip).unwrap(), skip.min(1000), "{what}");
                        let got = read_all(&mut r, shape, width, 77);
                        assert_eq!(got, data[skip.min(1000)..], "{what} skip={skip}");
                    }
                    // Skip 3, read 5, skip 11, read 1, ...
                    let mut r = reader(chunk(&data, shape, width, enc, v2, 0), width, shape);
                    let mut out = RecordBatchBuffers::new();
                    let (mut pos, mut step) = (0usize, 0usize);
                    while pos < data.len() {
                        let skip = [3, 11, 0, 250][step % 4];
                        let read = [5, 1, 64, 2][step % 4];
                        let skipped = r.skip_records(skip).unwrap();
                        assert_eq!(skipped, skip.min(data.len() - pos), "{what}");
                        pos += skipped;
                        let n = r.read_records(read, &mut out).unwrap();
                        assert_eq!(n, read.min(data.len() - pos), "{what}");
                        let mut got = Vec::new();
                        collect(&out, shape, width, n, &mut got);
                        assert_eq!(got, data[pos..pos + n], "{what} at {pos}");
                        pos += n;
                        step += 1;
                    }
                    assert_eq!(r.read_records(10, &mut out).unwrap(), 0);
                }
            }
        }
    }
}

#[test]
fn dictionary_mode_shares_one_arc() {
    for &width in &WIDTHS {
        for shape in SHAPES {
            let data = records(shape, 1100, width, 29, 77);
            for v2 in [false, true] {
                for batch in BATCHES {
                    let what = format!("width={width} {shape:?} v2={v2} batch={batch}");
                    let mut r = reader(chunk(&data, shape, width, Enc::Dict, v2, 0), width, shape);
                    let mut out = RecordBatchBuffers::new();
                    let mut first: Option<Arc<FixedLenByteArrayBuffer>> = None;
                    let mut got: Vec<Record> = Vec::new();
                    loop {
                        let DictionaryRead::Indices {
                            records,
                            dictionary,
                        } = r.read_records_dictionary(batch, &mut out).unwrap()
                        else {
                            panic!("no fallback expected: {what}");
                        };
                        if records == 0 {
                            break;
                        }
                        let dictionary = dictionary.unwrap();
                        assert_eq!(dictionary.width(), width);
                        match &first {
                            None => first = Some(Arc::clone(&dictionary)),
                            Some(f) => assert!(Arc::ptr_eq(f, &dictionary), "{what}"),
                        }
                        // Materialise the indices as a value buffer would be.
                        let mut values = FixedLenByteArrayBuffer::new(width);
                        for (i, &ix) in out.values.iter().enumerate() {
                            if out.is_valid(i) {
                                values.push(dictionary.value(ix as usize).unwrap()).unwrap();
                            } else {
                                assert_eq!(ix, 0, "a null slot holds index 0");
                                values.push(&vec![0; width]).unwrap();
                            }
                        }
                        let as_values = RecordBatchBuffers {
                            def_levels: out.def_levels.clone(),
                            rep_levels: out.rep_levels.clone(),
                            values,
                            validity: out.validity.clone(),
                            null_count: out.null_count,
                            num_levels: out.num_levels,
                            num_records: out.num_records,
                            from_dictionary: true,
                        };
                        collect(&as_values, shape, width, records, &mut got);
                    }
                    assert_eq!(got, data, "{what}");
                    assert!(Arc::ptr_eq(
                        first.as_ref().unwrap(),
                        r.dictionary().unwrap().unwrap()
                    ));
                    assert_eq!(r.stats().dictionary_pages, 1);
                }
            }
        }
    }
}

#[test]
fn dictionary_fallback_to_plain() {
    let width = 12;
    for shape in [Shape::Optional, Shape::Required] {
        let data = records(shape, 1200, width, 31, 91);
        let tail = 350;
        let c = chunk(&data, shape, width, Enc::Dict, false, tail);
        let mut r = reader(c, width, shape);
        let mut indices = RecordBatchBuffers::new();
        let mut got: Vec<Record> = Vec::new();
        loop {
            let (records, dictionary, fallback) =
                match r.read_records_dictionary(100, &mut indices).unwrap() {
                    DictionaryRead::Indices {
                        records,
                        dictionary,
                    } => (records, dictionary, false),
                    DictionaryRead::Fallback {
                        records,
                        dictionary,
                    } => (records, dictionary, true),
                };
            let dictionary = dictionary.unwrap();
            for i in 0..records {
                let value = indices.is_valid(i).then(|| {
                    dictionary
                        .value(indices.values[i] as usize)
                        .unwrap()
                        .to_vec()
                });
                let def = if shape == Shape::Optional {
                    i16::from(value.is_some())
                } else {
                    0
                };
                got.push(vec![(0, def, value)]);
            }
            if fallback {
                break;
            }
            assert!(records > 0, "the fallback comes before the end");
        }
        assert_eq!(got.len(), data.len() - tail);
        got.extend(read_all(&mut r, shape, width, 64));
        assert_eq!(got, data, "{shape:?}");
    }
}

#[test]
fn records_span_v1_pages_and_batches_never_split_them() {
    // Records [a, b], [c, d, e], [f]: the second spans the page boundary.
    let width = 3;
    let vals: Vec<Vec<u8>> = (0..6u8).map(|i| vec![i, i + 1, i + 2]).collect();
    let page1: Vec<u8> = vals[..4].concat();
    let page2: Vec<u8> = vals[4..].concat();
    let build = || {
        let mut c = Chunk::default();
        let mut enc = PlainFixedLenByteArrayEncoder::new(width).unwrap();
        let p1 = encode(&mut enc, FixedLenBatch::new(width, &page1).unwrap());
        let p2 = encode(&mut enc, FixedLenBatch::new(width, &page2).unwrap());
        c.v1(1, 1, &[0, 1, 0, 1], &[1, 1, 1, 1], Encoding::Plain, &p1);
        c.v1(1, 1, &[1, 0], &[1, 1], Encoding::Plain, &p2);
        reader(c, width, Shape::Repeated)
    };
    let mut r = build();
    let mut out = RecordBatchBuffers::new();
    assert_eq!(r.read_records(2, &mut out).unwrap(), 2);
    assert_eq!(out.values.values(), vals[..5].concat());
    assert_eq!(out.rep_levels, [0, 1, 0, 1, 1]);
    assert_eq!(r.read_records(2, &mut out).unwrap(), 1);
    assert_eq!(out.values.values(), vals[5]);

    let mut r = build();
    assert_eq!(r.skip_records(2).unwrap(), 2);
    assert_eq!(r.read_records(10, &mut out).unwrap(), 1);
    assert_eq!(out.values.values(), vals[5]);
    assert_eq!(r.read_records(10, &mut out).unwrap(), 0);
}

#[test]
fn required_v2_pages_are_skipped_whole() {
    let width = 16;
    let data = records(Shape::Required, 1000, width, 1000, 8);
    let mut r = reader(
        chunk(&data, Shape::Required, width, Enc::Plain, true, 0),
        width,
        Shape::Required,
    );
    assert_eq!(r.skip_records(150).unwrap(), 150);
    assert_eq!(r.stats().pages_skipped, 2, "pages of 100 and 37 rows");
    let mut out = RecordBatchBuffers::new();
    assert_eq!(r.read_records(3, &mut out).unwrap(), 3);
    let mut got = Vec::new();
    collect(&out, Shape::Required, width, 3, &mut got);
    assert_eq!(got, data[150..153]);
}

#[test]
fn buffers_are_reused_and_rewidthed() {
    let width = 33;
    let data = records(Shape::Optional, 2000, width, 1000, 12);
    let mut r = reader(
        chunk(&data, Shape::Optional, width, Enc::Plain, false, 0),
        width,
        Shape::Optional,
    );
    // A buffer of another width is given the column's width.
    let mut out = RecordBatchBuffers {
        values: FixedLenByteArrayBuffer::new(4),
        ..RecordBatchBuffers::new()
    };
    assert_eq!(r.read_records(512, &mut out).unwrap(), 512);
    assert_eq!(out.values.width(), width);
    let cap = out.values.heap_size();
    let ptr = out.values.values().as_ptr();
    assert_eq!(r.read_records(512, &mut out).unwrap(), 512);
    assert_eq!(out.values.heap_size(), cap);
    assert_eq!(out.values.values().as_ptr(), ptr, "no reallocation");
}

fn new_error(d: ColumnDescriptor) -> RecordError {
    let c = Chunk::default();
    ColumnRecordReader::<FixedLenByteArray>::new(c.reader(), d).unwrap_err()
}

#[test]
fn width_must_be_positive() {
    for type_length in [None, Some(0), Some(-1), Some(i32::MIN)] {
        let mut d = flba_descr(4, Shape::Optional);
        d.type_length = type_length;
        let e = new_error(d);
        assert!(
            matches!(&e, RecordError::InvalidArgument(m) if m.contains("type_length")),
            "{type_length:?}: {e}"
        );
    }
    // The physical type is checked too, both ways.
    assert!(matches!(
        new_error(descr(Type::Int32, 0, 0)),
        RecordError::TypeMismatch { .. }
    ));
    let c = Chunk::default();
    assert!(matches!(
        ColumnRecordReader::<i32>::new(c.reader(), flba_descr(4, Shape::Required)),
        Err(RecordError::TypeMismatch { .. })
    ));
}

/// Read every record of a one-page chunk, returning the first error.
fn read_page(width: usize, shape: Shape, levels: &[i16], encoding: Encoding, body: &[u8]) {
    let mut c = Chunk::default();
    let (max_def, _) = shape.levels();
    c.v1(0, max_def, &[], levels, encoding, body);
    let mut r = reader(c, width, shape);
    let mut out = RecordBatchBuffers::new();
    while r.read_records(7, &mut out).unwrap() > 0 {}
}

fn read_page_err(
    width: usize,
    shape: Shape,
    levels: &[i16],
    encoding: Encoding,
    body: &[u8],
) -> RecordError {
    let mut c = Chunk::default();
    let (max_def, _) = shape.levels();
    c.v1(0, max_def, &[], levels, encoding, body);
    let mut r = reader(c, width, shape);
    let mut out = RecordBatchBuffers::new();
    loop {
        match r.read_records(7, &mut out) {
            Ok(0) => panic!("no error"),
            Ok(_) => {}
            Err(e) => return e,
        }
    }
}

#[test]
fn malformed_pages_are_errors() {
    let w = 4;
    // PLAIN: 10 present values need 40 bytes, the page has 39.
    read_page(w, Shape::Optional, &[1; 10], Encoding::Plain, &[7; 40]);
    read_page_err(w, Shape::Optional, &[1; 10], Encoding::Plain, &[7; 39]);
    // BYTE_STREAM_SPLIT: the page must be exactly values * width bytes.
    read_page(
        w,
        Shape::Required,
        &[0; 10],
        Encoding::ByteStreamSplit,
        &[7; 40],
    );
    read_page_err(
        w,
        Shape::Required,
        &[0; 10],
        Encoding::ByteStreamSplit,
        &[7; 41],
    );
    // DELTA_BYTE_ARRAY of 3-byte values in a 4-byte column.
    let values = encode(
        &mut DeltaByteArrayFixedLenEncoder::new(3).unwrap(),
        FixedLenBatch::new(3, b"abcabd").unwrap(),
    );
    read_page_err(
        w,
        Shape::Required,
        &[0; 2],
        Encoding::DeltaByteArray,
        &values,
    );
    // An encoding FIXED_LEN_BYTE_ARRAY does not have.
    assert!(matches!(
        read_page_err(
            w,
            Shape::Required,
            &[0; 2],
            Encoding::DeltaLengthByteArray,
            &values
        ),
        RecordError::File(strata_file::FileError::Encoding(
            strata_encoding::EncodingError::Unsupported(_)
        ))
    ));
    // Dictionary-encoded data without a dictionary page.
    assert!(matches!(
        read_page_err(
            w,
            Shape::Required,
            &[0; 3],
            Encoding::RleDictionary,
            &[1, 6, 0]
        ),
        RecordError::File(strata_file::FileError::Encoding(
            strata_encoding::EncodingError::Corrupt(_)
        ))
    ));

    // A dictionary page too short for its entries.
    let mut c = Chunk::default();
    c.dictionary_page(&[1; 11], 3);
    c.v1(0, 0, &[], &[0; 3], Encoding::RleDictionary, &[2, 6, 0]);
    let mut r = reader(c, w, Shape::Required);
    let mut out = RecordBatchBuffers::new();
    assert!(r.read_records(10, &mut out).is_err());

    // An index past the dictionary (2 entries, index 3).
    let mut c = Chunk::default();
    c.dictionary_page(&[1; 8], 2);
    c.v1(0, 0, &[], &[0; 3], Encoding::RleDictionary, &[2, 6, 3]);
    let mut r = reader(c, w, Shape::Required);
    assert!(r.read_records(10, &mut out).is_err());
    let mut c = Chunk::default();
    c.dictionary_page(&[1; 8], 2);
    c.v1(0, 0, &[], &[0; 3], Encoding::RleDictionary, &[2, 6, 3]);
    let mut r = reader(c, w, Shape::Required);
    let mut indices = RecordBatchBuffers::new();
    assert!(r.read_records_dictionary(10, &mut indices).is_err());
}

#[test]
fn random_pages_never_panic() {
    let mut rng = Lcg(2024);
    for round in 0..400 {
        let width = [1usize, 2, 5, 16][round % 4];
        let shape = SHAPES[round % 3];
        let (max_def, max_rep) = shape.levels();
        let encoding = [
            Encoding::Plain,
            Encoding::RleDictionary,
            Encoding::DeltaByteArray,
            Encoding::ByteStreamSplit,
        ][round / 4 % 4];
        let n = 1 + rng.below(40) as usize;
        let body_len = rng.below(200) as usize;
        let body: Vec<u8> = (0..body_len).map(|_| rng.next() as u8).collect();
        let reps: Vec<i16> = (0..n)
            .map(|i| if i == 0 { 0 } else { rng.below(2) as i16 })
            .map(|r| r.min(max_rep))
            .collect();
        let defs: Vec<i16> = (0..n).map(|_| (rng.below(2) as i16).min(max_def)).collect();
        let mut c = Chunk::default();
        if encoding == Encoding::RleDictionary {
            let entries = rng.below(8) as usize;
            let dict: Vec<u8> = (0..entries * width).map(|_| rng.next() as u8).collect();
            c.dictionary_page(&dict, entries);
        }
        let reps = if max_rep > 0 { &reps[..] } else { &[] };
        if round % 2 == 0 {
            c.v1(max_rep, max_def, reps, &defs, encoding, &body);
        } else {
            c.v2(max_rep, max_def, reps, &defs, encoding, &body);
        }
        let mut r = reader(c, width, shape);
        let mut out = RecordBatchBuffers::new();
        let mut indices = RecordBatchBuffers::new();
        for step in 0.. {
            let res = match step % 3 {
                0 => r.read_records(5, &mut out),
                1 => r.skip_records(3),
                _ => match r.read_records_dictionary(4, &mut indices) {
                    Ok(DictionaryRead::Indices { records, .. }) => Ok(records),
                    Ok(DictionaryRead::Fallback { records, .. }) => Ok(records + 1),
                    Err(e) => Err(e),
                },
            };
            match res {
                Ok(0) | Err(_) => break,
                Ok(_) if step > 200 => panic!("no progress"),
                Ok(_) => {}
            }
        }
    }
}

#[test]
fn flba_and_numbers_share_a_chunk_layout() {
    // An INT32 column and a FIXED_LEN_BYTE_ARRAY(4) column of the same
    // little-endian bytes read the same values.
    let ints: Vec<i32> = (0..500).map(|i| i * 7919 - 100_000).collect();
    let bytes: Vec<u8> = ints.iter().flat_map(|v| v.to_le_bytes()).collect();
    let levels = vec![0i16; ints.len()];
    let mut ic = Chunk::default();
    ic.v1(
        0,
        0,
        &[],
        &levels,
        Encoding::Plain,
        &encode(&mut PlainEncoder::<i32>::new(), &ints[..]),
    );
    let mut fc = Chunk::default();
    fc.v1(0, 0, &[], &levels, Encoding::Plain, &bytes);
    let mut ir = ColumnRecordReader::<i32>::new(ic.reader(), descr(Type::Int32, 0, 0)).unwrap();
    let mut fr = reader(fc, 4, Shape::Required);
    let (mut io, mut fo) = (RecordBatchBuffers::new(), RecordBatchBuffers::new());
    while ir.read_records(64, &mut io).unwrap() > 0 {
        assert_eq!(fr.read_records(64, &mut fo).unwrap(), io.num_records);
        let from_flba: Vec<i32> = fo
            .values
            .values()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(from_flba, io.values);
    }
}

/// Files written by strata-file's `FileWriter` (FIXED_LEN_BYTE_ARRAY
/// columns of three shapes, every writer encoding and page version, small
/// pages), read back through `SerializedFileReader` and the record reader.
#[test]
fn files_written_by_strata_file() {
    use bytes::Bytes;
    use strata_file::properties::{Encoding as WriteEncoding, WriterProperties, WriterVersion};
    use strata_file::serialized_reader::SerializedFileReader;
    use strata_file::writer::FileWriter;
    use strata_format::SchemaDescriptor;
    use strata_format::metadata::{FieldRepetitionType as Rep, SchemaElement};

    let columns = [
        ("r16", 16usize, Shape::Required, Rep::Required),
        ("o12", 12, Shape::Optional, Rep::Optional),
        ("l33", 33, Shape::Repeated, Rep::Repeated),
        ("o1", 1, Shape::Optional, Rep::Optional),
    ];
    let mut elements = vec![SchemaElement {
        name: "schema".into(),
        num_children: Some(columns.len() as i32),
        ..Default::default()
    }];
    for (name, width, _, rep) in columns {
        elements.push(SchemaElement {
            name: name.into(),
            physical_type: Some(Type::FixedLenByteArray),
            type_length: Some(width as i32),
            repetition_type: Some(rep),
            ..Default::default()
        });
    }
    let schema = Arc::new(SchemaDescriptor::from_elements(&elements).unwrap());
    let rows = 1500;
    let data: Vec<Vec<Record>> = columns
        .iter()
        .enumerate()
        .map(|(k, &(_, width, shape, _))| records(shape, rows, width, 40, 500 + k as u64))
        .collect();

    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for encoding in [
            None,
            Some(WriteEncoding::PLAIN),
            Some(WriteEncoding::DELTA_BYTE_ARRAY),
            Some(WriteEncoding::BYTE_STREAM_SPLIT),
        ] {
            let mut props = WriterProperties::builder()
                .set_writer_version(version)
                .set_dictionary_enabled(encoding.is_none())
                .set_data_page_row_count_limit(211)
                .set_write_batch_size(64);
            if let Some(e) = encoding {
                props = props.set_encoding(e);
            }
            let mut file = Vec::new();
            let mut writer =
                FileWriter::new(&mut file, Arc::clone(&schema), Arc::new(props.build())).unwrap();
            let mut rg = writer.next_row_group().unwrap();
            let mut k = 0;
            while let Some(mut column) = rg.next_column().unwrap() {
                let (_, width, shape, _) = columns[k];
                let levels: Vec<Level> = data[k].concat();
                let bytes = present_bytes(&levels);
                let defs: Vec<i16> = levels.iter().map(|l| l.1).collect();
                let reps: Vec<i16> = levels.iter().map(|l| l.0).collect();
                let w = column.typed::<FixedLenByteArray>().unwrap();
                let batch = FixedLenBatch::new(width, &bytes).unwrap();
                let (max_def, max_rep) = shape.levels();
                w.write_values(
                    batch,
                    (max_def > 0).then_some(&defs[..]),
                    (max_rep > 0).then_some(&reps[..]),
                )
                .unwrap();
                rg.append_column(column.close().unwrap()).unwrap();
                k += 1;
            }
            rg.close().unwrap();
            writer.close().unwrap();

            let file = SerializedFileReader::new(Bytes::from(file)).unwrap();
            for (k, &(name, width, shape, _)) in columns.iter().enumerate() {
                let what = format!("{name} {version:?} {encoding:?}");
                let rg = file.row_group(0).unwrap();
                let d = rg.column_descriptor(k).unwrap().clone();
                assert_eq!(d.type_length, Some(width as i32));
                for batch in BATCHES {
                    let mut r = ColumnRecordReader::<FixedLenByteArray>::new(
                        rg.page_reader(k).unwrap(),
                        d.clone(),
                    )
                    .unwrap();
                    assert_eq!(read_all(&mut r, shape, width, batch), data[k], "{what}");
                    assert!(r.stats().data_pages > 1, "{what}: several pages");
                    assert_eq!(r.stats().dictionary_pages, u64::from(encoding.is_none()));
                }
                let mut r =
                    ColumnRecordReader::<FixedLenByteArray>::new(rg.page_reader(k).unwrap(), d)
                        .unwrap();
                assert_eq!(r.skip_records(777).unwrap(), 777);
                assert_eq!(
                    read_all(&mut r, shape, width, 100),
                    data[k][777..],
                    "{what}"
                );
            }
        }
    }
}
