//! Page decoding for every encoding and physical type. A 13-byte header
//! picks the decoder and its parameters; the rest is the page:
//!
//! | byte  | meaning |
//! |-------|---------|
//! | 0     | encoding and physical type (see `run`) |
//! | 1     | fixed length width, or the maximum level |
//! | 2..4  | value count the page claims (u16 LE) |
//! | 4     | values per `decode` call, minus one |
//! | 5     | values skipped before the spaced decode |
//! | 6..8  | slots of the spaced decode (u16 LE, below 4096) |
//! | 8     | validity pattern of the spaced decode |
//! | 9..11 | length of the dictionary page at the front of the rest (u16 LE) |
//! | 11..13| entries of the dictionary page (u16 LE) |
//!
//! Each page is decoded twice: once with `decode` until it runs out, once
//! with `skip` then `decode_spaced`. Errors are expected; panics are bugs.
#![no_main]

use std::convert::Infallible;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use strata::encoding::{
    ByteArray, ByteArrayBuffer, ByteStreamSplitDecoder, ByteStreamSplitFixedLenDecoder, Decoder,
    DeltaBinaryPackedDecoder, DeltaByteArrayDecoder, DeltaByteArrayFixedLenDecoder,
    DeltaLengthByteArrayDecoder, DictDecoder, DictValue, FixedLenByteArray,
    FixedLenByteArrayBuffer, Int96, LevelDecoder, PlainBooleanDecoder, PlainByteArrayDecoder,
    PlainDecoder, PlainFixedLenByteArrayDecoder, RleBooleanDecoder, ValueType,
    def_levels_to_validity,
};

/// Most values decoded from one page.
const CAP: usize = 4096;
const HEADER: usize = 13;

struct Params {
    width: u8,
    n: usize,
    chunk: usize,
    skip: usize,
    slots: usize,
    validity: [u8; CAP / 8],
    dict_len: usize,
    dict_n: usize,
}

impl Params {
    fn parse(h: &[u8]) -> Self {
        let u16_at = |i: usize| usize::from(u16::from_le_bytes([h[i], h[i + 1]]));
        let slots = u16_at(6) % CAP;
        Self {
            width: h[1],
            n: u16_at(2),
            chunk: 1 + usize::from(h[4]),
            skip: usize::from(h[5]),
            slots,
            validity: [h[8]; CAP / 8],
            dict_len: u16_at(9),
            dict_n: u16_at(11),
        }
    }

    fn nulls(&self) -> usize {
        (0..self.slots)
            .filter(|i| self.validity[i / 8] & (1 << (i % 8)) == 0)
            .count()
    }
}

/// Where one decoder's values go: a slice for fixed-width values, an
/// appending buffer for byte arrays.
trait Target<T: ValueType + ?Sized> {
    fn tail(&mut self, done: usize) -> &mut T::Out;
    fn slots(&mut self, slots: usize) -> &mut T::Out;
}

impl<T: ValueType<Out = [T]> + Clone> Target<T> for Vec<T> {
    fn tail(&mut self, done: usize) -> &mut [T] {
        &mut self[done..]
    }
    fn slots(&mut self, slots: usize) -> &mut [T] {
        &mut self[..slots]
    }
}

impl Target<ByteArray> for ByteArrayBuffer<i32> {
    fn tail(&mut self, _: usize) -> &mut Self {
        self
    }
    fn slots(&mut self, _: usize) -> &mut Self {
        self
    }
}

impl Target<FixedLenByteArray> for FixedLenByteArrayBuffer {
    fn tail(&mut self, _: usize) -> &mut Self {
        self
    }
    fn slots(&mut self, _: usize) -> &mut Self {
        self
    }
}

/// Decode `page` with two decoders from `make`: the first with `decode`
/// until it runs out, the second with `skip` then `decode_spaced`.
fn drive<'a, T: ValueType, D: Decoder<'a, T>, E>(
    make: impl Fn() -> Result<D, E>,
    mut out: impl FnMut() -> Box<dyn Target<T>>,
    page: &'a [u8],
    p: &Params,
) {
    let (Ok(mut a), Ok(mut b)) = (make(), make()) else {
        return;
    };
    if a.set_data(page, p.n).is_ok() {
        let mut target = out();
        let mut done = 0;
        while done < CAP {
            match a.decode(target.tail(done), p.chunk.min(CAP - done)) {
                Ok(0) | Err(_) => break,
                Ok(k) => done += k,
            }
        }
    }
    if b.set_data(page, p.n).is_ok() {
        let mut target = out();
        let _ = b.skip(p.skip);
        let _ = b.decode_spaced(target.slots(p.slots), p.slots, &p.validity, 0, p.nulls());
    }
}

/// An infallible constructor's value, for [`drive`].
fn ok<D>(d: D) -> Result<D, Infallible> {
    Ok(d)
}

fn slice<T: ValueType<Out = [T]> + Clone + Default + 'static>() -> Box<dyn Target<T>> {
    Box::new(vec![T::default(); CAP])
}

fn bytes() -> Box<dyn Target<ByteArray>> {
    Box::new(ByteArrayBuffer::<i32>::new())
}

/// The front `p.dict_len` bytes of `rest` are the dictionary page, the
/// rest the indices.
fn run_dict<'a, T: DictValue, E>(
    make: impl Fn() -> Result<DictDecoder<'a, T>, E>,
    out: impl FnMut() -> Box<dyn Target<T>>,
    rest: &'a [u8],
    p: &Params,
) {
    let split = p.dict_len.min(rest.len());
    let (dict, page) = rest.split_at(split);
    let Ok(mut first) = make() else {
        return;
    };
    if first.set_dict(dict, p.dict_n).is_err() {
        return;
    }
    let Some(shared) = first.dict().cloned() else {
        return;
    };
    let with_dict = || {
        make().map(|mut d| {
            d.set_shared_dict(Arc::clone(&shared));
            d
        })
    };
    drive(with_dict, out, page, p);
}

fn run_levels(data: &[u8], p: &Params, how: u8) {
    let Ok(mut dec) = LevelDecoder::new(i16::from(p.width)) else {
        return;
    };
    let ok = match how {
        0 => dec.set_rle_v1(data, p.n).is_ok(),
        1 => dec.set_rle_v2(data, p.n).is_ok(),
        _ => dec.set_bit_packed(data, p.n).is_ok(),
    };
    if !ok {
        return;
    }
    let mut levels = vec![0i16; CAP];
    let mut done = 0;
    while done < CAP {
        let end = (done + p.chunk).min(CAP);
        match dec.decode(&mut levels[done..end]) {
            Ok(0) | Err(_) => break,
            Ok(k) => done += k,
        }
    }
    let mut validity = vec![0u8; CAP.div_ceil(8)];
    let _ = def_levels_to_validity(&levels[..done], i16::from(p.width), &mut validity, 0);
}

fn flba(width: u8) -> impl FnMut() -> Box<dyn Target<FixedLenByteArray>> {
    move || Box::new(FixedLenByteArrayBuffer::new(usize::from(width.max(1))))
}

fn run(selector: u8, rest: &[u8], p: &Params) {
    let w = usize::from(p.width);
    match selector % 28 {
        0 => drive(|| ok(PlainDecoder::<i32>::new()), slice::<i32>, rest, p),
        1 => drive(|| ok(PlainDecoder::<i64>::new()), slice::<i64>, rest, p),
        2 => drive(|| ok(PlainDecoder::<Int96>::new()), slice::<Int96>, rest, p),
        3 => drive(|| ok(PlainDecoder::<f32>::new()), slice::<f32>, rest, p),
        4 => drive(|| ok(PlainDecoder::<f64>::new()), slice::<f64>, rest, p),
        5 => drive(|| ok(PlainBooleanDecoder::new()), slice::<bool>, rest, p),
        6 => drive(|| ok(PlainByteArrayDecoder::new()), bytes, rest, p),
        7 => drive(
            || PlainFixedLenByteArrayDecoder::new(w),
            flba(p.width),
            rest,
            p,
        ),
        8 => drive(|| ok(RleBooleanDecoder::new()), slice::<bool>, rest, p),
        9 => drive(
            || ok(DeltaBinaryPackedDecoder::<i32>::new()),
            slice::<i32>,
            rest,
            p,
        ),
        10 => drive(
            || ok(DeltaBinaryPackedDecoder::<i64>::new()),
            slice::<i64>,
            rest,
            p,
        ),
        11 => drive(|| ok(DeltaLengthByteArrayDecoder::new()), bytes, rest, p),
        12 => drive(|| ok(DeltaByteArrayDecoder::new()), bytes, rest, p),
        13 => drive(
            || DeltaByteArrayFixedLenDecoder::new(w),
            flba(p.width),
            rest,
            p,
        ),
        14 => drive(
            || ok(ByteStreamSplitDecoder::<f32>::new()),
            slice::<f32>,
            rest,
            p,
        ),
        15 => drive(
            || ok(ByteStreamSplitDecoder::<f64>::new()),
            slice::<f64>,
            rest,
            p,
        ),
        16 => drive(
            || ok(ByteStreamSplitDecoder::<i32>::new()),
            slice::<i32>,
            rest,
            p,
        ),
        17 => drive(
            || ok(ByteStreamSplitDecoder::<i64>::new()),
            slice::<i64>,
            rest,
            p,
        ),
        18 => drive(
            || ByteStreamSplitFixedLenDecoder::new(w),
            flba(p.width),
            rest,
            p,
        ),
        19 => run_dict(|| ok(DictDecoder::<i32>::new()), slice::<i32>, rest, p),
        20 => run_dict(|| ok(DictDecoder::<i64>::new()), slice::<i64>, rest, p),
        21 => run_dict(|| ok(DictDecoder::<f64>::new()), slice::<f64>, rest, p),
        22 => run_dict(|| ok(DictDecoder::<ByteArray>::new()), bytes, rest, p),
        23 => run_dict(
            || DictDecoder::<FixedLenByteArray>::new(w),
            flba(p.width),
            rest,
            p,
        ),
        24 => run_dict(|| ok(DictDecoder::<Int96>::new()), slice::<Int96>, rest, p),
        25 => run_levels(rest, p, 0),
        26 => run_levels(rest, p, 1),
        _ => run_levels(rest, p, 2),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < HEADER {
        return;
    }
    let (header, rest) = data.split_at(HEADER);
    run(header[0], rest, &Params::parse(header));
});
