//! [`ChunkValue`]: what [`ChunkDecoder`](super::ChunkDecoder) needs of
//! each physical type (its output buffer, dictionary and per-encoding
//! decoders), and [`ValueBuffer`], the output buffers with the one spread
//! of values over null slots.

use std::fmt::Debug;
use std::sync::Arc;

use bytes::Bytes;

use crate::error::{EncodingError, Result};
use crate::validity::{for_each_set_bit, get_bit};
use crate::{
    ByteArray, ByteArrayBuffer, ByteStreamSplitDecoder, ByteStreamSplitFixedLenDecoder,
    DecodeTarget, Decoder, DeltaBinaryPackedDecoder, DeltaByteArrayDecoder,
    DeltaByteArrayFixedLenDecoder, DeltaLengthByteArrayDecoder, DictDecoder, FixedLenByteArray,
    FixedLenByteArrayBuffer, Int96, MAX_INLINE_VIEW_LEN, PlainBooleanDecoder,
    PlainByteArrayDecoder, PlainDecoder, PlainFixedLenByteArrayDecoder, RleBooleanDecoder,
    ValueType, byte_view, indices_below,
};
use strata_format::ColumnDescriptor;
use strata_format::metadata::{Encoding, Type};

use super::plain_dict::PlainDict;
use super::view_buffers::ViewBuffers;

mod sealed {
    /// Keeps [`ChunkValue`](super::ChunkValue) closed.
    pub trait Sealed {}
}

/// Where the present values of a batch with nulls go: one slot per level,
/// slot `i` present when bit `offset + i` of `validity` is set.
#[derive(Debug, Clone, Copy)]
pub struct Spaced<'v> {
    /// LSB-first validity bitmap of the whole output batch.
    pub validity: &'v [u8],
    /// Bit of `validity` that describes the first slot.
    pub offset: usize,
    /// Number of slots (levels) to write.
    pub slots: usize,
    /// Number of null slots among them (at least one).
    pub nulls: usize,
}

/// An output buffer of values: `Vec<T>` for fixed-width types and
/// booleans (and `Vec<u32>` for dictionary indices), [`ByteArrayBuffer`]
/// (offsets + values) for byte arrays, [`FixedLenByteArrayBuffer`] (values
/// back to back) for fixed-length byte arrays. `clear` keeps the
/// allocation.
///
/// A default [`FixedLenByteArrayBuffer`] has width 0; the reader gives an
/// output buffer its column's width at the start of every batch.
pub trait ValueBuffer: Default + Debug {
    /// Number of values (slots) held.
    fn len(&self) -> usize;
    /// Whether no values are held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Remove every value, keeping the allocation.
    fn clear(&mut self);
    /// The room this batch's values took: (values, bytes of variable-width
    /// data, the decoders' slack included). The reader sizes the next
    /// batch's buffer by it ([`reserve_room`](Self::reserve_room)).
    fn room(&self) -> (usize, usize) {
        (self.len(), 0)
    }
    /// Make room for a batch that takes `room` (see [`room`](Self::room)),
    /// so it is written without growing step by step. Called when a batch
    /// starts, not when the last one is handed over: a caller that drops
    /// each batch before reading the next never holds two.
    fn reserve_room(&mut self, room: (usize, usize));
    /// Prepare to append the present values of `slots` slots and return
    /// the mark that [`spread_tail`](Self::spread_tail) takes.
    fn mark_spaced(&mut self, slots: usize) -> Result<usize>;
    /// The values appended since `mark` are the present values of
    /// `spaced`: move them to their slots, leaving empty values in the null
    /// slots, so that `spaced.slots` slots follow `mark`.
    fn spread_tail(&mut self, mark: usize, spaced: Spaced<'_>) -> Result<()>;
    /// Whether [`retain_tail`](Self::retain_tail) can drop values in
    /// place (values of one width, `Vec<T>`); byte arrays cannot (their
    /// kept values are walked to, or read a run at a time).
    fn retains_in_place(&self) -> bool {
        false
    }
    /// Of the values after `mark`, keep those whose bit in `keep` (LSB
    /// first, from bit `offset`, checked by the caller) is set, in order.
    /// Only for buffers that [`retains_in_place`](Self::retains_in_place).
    fn retain_tail(&mut self, mark: usize, keep: &[u8], offset: usize) -> Result<()> {
        let _ = (mark, keep, offset);
        Err(EncodingError::Unsupported(
            "dropping values in place from this buffer".into(),
        ))
    }
}

impl<T: Debug + Copy + Default> ValueBuffer for Vec<T> {
    fn retains_in_place(&self) -> bool {
        true
    }
    fn retain_tail(&mut self, mark: usize, keep: &[u8], offset: usize) -> Result<()> {
        let tail = self.get_mut(mark..).unwrap_or_default();
        // Every value is written to the next kept position, which moves
        // on only for a kept one: no branch per value.
        let mut kept = 0usize;
        for i in 0..tail.len() {
            let Some(&v) = tail.get(i) else {
                break;
            };
            if let Some(slot) = tail.get_mut(kept) {
                *slot = v;
            }
            kept += usize::from(get_bit(keep, offset.saturating_add(i)));
        }
        self.truncate(mark + kept);
        Ok(())
    }
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn mark_spaced(&mut self, slots: usize) -> Result<usize> {
        self.reserve(slots);
        Ok(Vec::len(self))
    }
    fn spread_tail(&mut self, mark: usize, s: Spaced<'_>) -> Result<()> {
        let present = Vec::len(self)
            .checked_sub(mark)
            .ok_or_else(|| EncodingError::Corrupt("values removed during a spaced read".into()))?;
        self.resize(mark + s.slots, T::default());
        let tail = self.get_mut(mark..).unwrap_or_default();
        DecodeTarget::finish_spaced(tail, 0, present, s.slots, s.validity, s.offset)
    }
    fn reserve_room(&mut self, room: (usize, usize)) {
        self.reserve(room.0.saturating_sub(Vec::len(self)));
    }
}

/// [`DecodeTarget::finish_spaced`] for the `present` values after `mark`.
fn spread_target<B: DecodeTarget>(
    b: &mut B,
    mark: usize,
    present: usize,
    s: Spaced<'_>,
) -> Result<()> {
    b.finish_spaced(mark, present, s.slots, s.validity, s.offset)
}

impl ValueBuffer for ByteArrayBuffer {
    fn len(&self) -> usize {
        ByteArrayBuffer::len(self)
    }
    fn clear(&mut self) {
        ByteArrayBuffer::clear(self);
    }
    fn room(&self) -> (usize, usize) {
        // The room the batch had, not just what it used: decoders reserve
        // a little slack past the bytes they write, and growing a buffer
        // past its capacity reallocates, which copies the whole old
        // allocation.
        (self.len(), self.bytes_capacity())
    }
    fn reserve_room(&mut self, room: (usize, usize)) {
        if self.is_empty() && self.bytes_capacity() < room.1 {
            *self = ByteArrayBuffer::with_capacity(room.0, room.1);
        }
    }
    fn mark_spaced(&mut self, slots: usize) -> Result<usize> {
        DecodeTarget::begin_spaced(self, slots)
    }
    fn spread_tail(&mut self, mark: usize, s: Spaced<'_>) -> Result<()> {
        let present = self.len().saturating_sub(mark);
        spread_target(self, mark, present, s)
    }
}

impl ValueBuffer for FixedLenByteArrayBuffer {
    fn len(&self) -> usize {
        FixedLenByteArrayBuffer::len(self)
    }
    fn reserve_room(&mut self, _room: (usize, usize)) {
        // Fixed-length values grow by whole runs; nothing to size ahead.
    }
    fn clear(&mut self) {
        FixedLenByteArrayBuffer::clear(self);
    }
    fn mark_spaced(&mut self, slots: usize) -> Result<usize> {
        DecodeTarget::begin_spaced(self, slots)
    }
    fn spread_tail(&mut self, mark: usize, s: Spaced<'_>) -> Result<()> {
        let present = self.len().saturating_sub(mark);
        spread_target(self, mark, present, s)
    }
}

/// A Parquet physical type the record reader can read: `bool`, `i32`,
/// `i64`, [`Int96`], `f32`, `f64`, [`ByteArray`] (i32 offsets) and
/// [`FixedLenByteArray`]. Sealed; the methods are the reader's plumbing.
pub trait ChunkValue: ValueType + Sized + sealed::Sealed {
    /// The output buffer of a batch.
    type Values: ValueBuffer;
    /// The decoded dictionary of a column chunk (`()` for booleans, which
    /// are never dictionary encoded).
    type Dict: Debug + Send + Sync + 'static;
    /// What decoding needs to know of a column beyond its physical type,
    /// taken from its descriptor once when the reader is built: the value
    /// width (`usize`) for [`FixedLenByteArray`], `()` for every other
    /// type.
    type Context: Copy + Debug + Default + Send + Sync + 'static;

    /// The physical type read as this type.
    const PHYSICAL: Type;

    /// Whether a column of physical type `physical` is read as this type.
    fn accepts(physical: Type) -> bool {
        physical == Self::PHYSICAL
    }

    /// The context of the column `descr`, whose physical type this type
    /// [`accepts`](Self::accepts). Fails if the descriptor lacks what the
    /// type needs (a FIXED_LEN_BYTE_ARRAY column without a positive
    /// `type_length`).
    fn context(descr: &ColumnDescriptor) -> Result<Self::Context> {
        let _ = descr;
        Ok(Self::Context::default())
    }

    /// Empty `values` and make it ready to hold this column's values (a
    /// [`FixedLenByteArrayBuffer`] takes the column's width), keeping the
    /// allocation.
    fn reset_values(_ctx: Self::Context, values: &mut Self::Values) {
        values.clear();
    }

    /// Bytes per value under PLAIN when values can be read straight from
    /// the page at any position (fixed-width values); `None` otherwise.
    fn plain_width(_ctx: Self::Context) -> Option<usize> {
        None
    }

    /// Decode `present` PLAIN values from `bytes` (exactly
    /// `present * plain_width(ctx)` bytes) into `out`, spread over null slots
    /// when `spaced` is given.
    fn read_plain(
        ctx: Self::Context,
        bytes: &[u8],
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()>;

    /// Whether PLAIN pages of variable-width values are read in place, a
    /// run at a time from a byte position ([`read_plain_from`]), instead of
    /// being decoded whole into a store and copied from there.
    ///
    /// [`read_plain_from`]: Self::read_plain_from
    const PLAIN_IN_PLACE: bool = false;

    /// Decode `present` PLAIN values from the start of `bytes`, which
    /// holds the page's last `left` values (`left >= present`: the output
    /// is sized by the values' share of those bytes), into `out`, spread
    /// over null slots when `spaced` is given; returns the bytes they took.
    /// Only for types with [`PLAIN_IN_PLACE`](Self::PLAIN_IN_PLACE).
    fn read_plain_from(
        bytes: &[u8],
        present: usize,
        left: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<usize> {
        let _ = (bytes, present, left, out, spaced);
        Err(not_in_place::<Self>())
    }

    /// Append those of the first `n` PLAIN values at the start of `bytes`
    /// (the page's last `left` values) whose bit in `keep` (LSB first, bits
    /// `offset..offset + n`, checked by the caller) is set, walking past
    /// the others; returns the bytes the `n` values took. Only for types
    /// with [`PLAIN_IN_PLACE`](Self::PLAIN_IN_PLACE).
    fn read_plain_kept_from(
        bytes: &[u8],
        n: usize,
        left: usize,
        keep: &[u8],
        offset: usize,
        out: &mut Self::Values,
    ) -> Result<usize> {
        let _ = (bytes, n, left, keep, offset, out);
        Err(not_in_place::<Self>())
    }

    /// Whether values of one width are gathered by the bits of a mask
    /// straight from a PLAIN page or the decoded store
    /// ([`gather_plain_kept`](Self::gather_plain_kept),
    /// [`gather_store_kept`](Self::gather_store_kept)): a step per 64
    /// rows and one per kept value, nothing for a dropped one.
    const GATHERS_KEPT: bool = false;

    /// Append those of the `n` PLAIN values of `bytes` (exactly `n`
    /// values) whose bit in `keep` (LSB first, bits `offset..offset + n`,
    /// checked by the caller; `kept` of them set) is set. Only for types
    /// with [`GATHERS_KEPT`](Self::GATHERS_KEPT).
    fn gather_plain_kept(
        bytes: &[u8],
        n: usize,
        (keep, offset, kept): (&[u8], usize, usize),
        out: &mut Self::Values,
    ) -> Result<()> {
        let _ = (bytes, n, keep, offset, kept, out);
        Err(not_gathered::<Self>())
    }

    /// Append those of values `start..start + n` of `store` whose bit in
    /// `keep` is set, as [`gather_plain_kept`](Self::gather_plain_kept)
    /// does. Only for types with [`GATHERS_KEPT`](Self::GATHERS_KEPT).
    fn gather_store_kept(
        store: &Self::Values,
        start: usize,
        n: usize,
        (keep, offset, kept): (&[u8], usize, usize),
        out: &mut Self::Values,
    ) -> Result<()> {
        let _ = (store, start, n, keep, offset, kept, out);
        Err(not_gathered::<Self>())
    }

    /// The bytes the first `n` PLAIN values at the start of `bytes` take.
    /// Only for types with [`PLAIN_IN_PLACE`](Self::PLAIN_IN_PLACE).
    fn skip_plain_from(bytes: &[u8], n: usize) -> Result<usize> {
        let _ = (bytes, n);
        Err(not_in_place::<Self>())
    }

    /// Decode all `present` values of a page's values section encoded
    /// with `encoding` (not a dictionary encoding) into `store`, replacing
    /// its contents.
    fn decode_page(
        ctx: Self::Context,
        encoding: Encoding,
        data: &[u8],
        present: usize,
        store: &mut Self::Values,
    ) -> Result<()>;

    /// Append values `start..start + present` of `store` to `out`, spread
    /// over null slots when `spaced` is given.
    fn read_store(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()>;

    /// Decode a dictionary page of `num_values` PLAIN values.
    ///
    /// `data` is the whole decompressed page; a fixed-width type keeps a
    /// reference to it as its [`PlainDict`] instead of copying it.
    fn decode_dictionary(
        ctx: Self::Context,
        data: &Bytes,
        num_values: usize,
    ) -> Result<Arc<Self::Dict>>;

    /// The number of entries of a decoded dictionary (what indices are
    /// checked against).
    fn dict_len(dict: &Self::Dict) -> Result<usize>;

    /// Append `dict[i]` for every index to `out`.
    fn gather(dict: &Self::Dict, indices: &[u32], out: &mut Self::Values) -> Result<()>;

    /// The 16-byte views of the `len` entries of the PLAIN dictionary
    /// page `page`, pointing into the page as buffer 0 of a view array (no
    /// entry copied). Only byte arrays have views.
    fn dictionary_views(page: &[u8], len: usize) -> Result<Vec<u128>> {
        let _ = (page, len);
        Err(EncodingError::Unsupported(format!(
            "{} dictionaries read as views",
            Self::NAME
        )))
    }

    /// Whether each of the `len` entries of the PLAIN dictionary page
    /// `page` is valid UTF-8; `false` for types that are not byte arrays.
    fn dictionary_is_utf8(page: &[u8], len: usize) -> Result<bool> {
        let _ = (page, len);
        Ok(false)
    }

    /// Whether the decoded dictionary copies what it needs of its page, so
    /// the page can be let go once it is decoded (byte arrays); fixed-width
    /// dictionaries read their page in place and keep it.
    const DICTIONARY_COPIES_PAGE: bool = false;

    /// [`dictionary_is_utf8`](Self::dictionary_is_utf8) of a dictionary
    /// already decoded (its page let go).
    fn decoded_dictionary_is_utf8(dict: &Self::Dict) -> bool {
        let _ = dict;
        false
    }

    /// The views of a decoded dictionary's entries and the bytes they
    /// point into (buffer 0), sharing the dictionary's memory: for views
    /// read after the page was let go.
    fn decoded_dictionary_views(dict: &Arc<Self::Dict>) -> Result<(Bytes, Vec<u128>)> {
        let _ = dict;
        Err(EncodingError::Unsupported(format!(
            "{} dictionaries read as views",
            Self::NAME
        )))
    }

    /// Append the views of values `start..start + present` of `store` to
    /// `out`, their bytes copied to `buffers` (values of up to 12 bytes
    /// inline). Only byte arrays have views.
    fn store_views(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Vec<u128>,
        buffers: &mut ViewBuffers,
    ) -> Result<()> {
        let _ = (store, start, present, out, buffers);
        Err(EncodingError::Unsupported(format!(
            "{} values read as views",
            Self::NAME
        )))
    }
}

/// A decoded dictionary whose offsets do not fit its bytes (cannot happen
/// for one the decoder built; an error rather than a panic all the same).
fn corrupt_entry() -> EncodingError {
    EncodingError::Corrupt("dictionary entry outside the dictionary's bytes".into())
}

/// The error of [`ChunkValue::read_plain_from`] and
/// [`ChunkValue::skip_plain_from`] for a type without
/// [`ChunkValue::PLAIN_IN_PLACE`].
fn not_gathered<T: ValueType>() -> EncodingError {
    EncodingError::Unsupported(format!("{} values gathered by a mask", T::NAME))
}

fn not_in_place<T: ValueType>() -> EncodingError {
    EncodingError::Unsupported(format!("PLAIN {} values read in place", T::NAME))
}

fn short(expected: usize, got: usize) -> EncodingError {
    EncodingError::Corrupt(format!(
        "page holds {got} values where its levels need {expected}"
    ))
}

fn unsupported<T: ValueType>(encoding: Encoding) -> EncodingError {
    EncodingError::Unsupported(format!("encoding {encoding:?} for {}", T::NAME))
}

fn bad_index(i: u32) -> EncodingError {
    EncodingError::Corrupt(format!("dictionary index {i} out of range"))
}

/// Decode `present` values (or `spaced.slots` slots) from `dec` into the
/// end of a `Vec`.
fn emit_vec<'s, T, D>(
    dec: &mut D,
    out: &mut Vec<T>,
    present: usize,
    spaced: Option<Spaced<'_>>,
) -> Result<()>
where
    T: ValueType<Out = [T]> + Copy + Default,
    D: Decoder<'s, T>,
{
    let start = out.len();
    match spaced {
        None => {
            out.resize(start + present, T::default());
            let got = dec.decode(&mut out[start..], present)?;
            if got != present {
                out.truncate(start);
                return Err(short(present, got));
            }
        }
        Some(s) => {
            out.resize(start + s.slots, T::default());
            dec.decode_spaced(&mut out[start..], s.slots, s.validity, s.offset, s.nulls)?;
        }
    }
    Ok(())
}

/// Decode `present` values (or `spaced.slots` slots) from `dec` onto the
/// end of an appending buffer (byte arrays, fixed-length byte arrays).
fn emit_append<'s, T, D>(
    dec: &mut D,
    out: &mut T::Out,
    present: usize,
    spaced: Option<Spaced<'_>>,
) -> Result<()>
where
    T: ValueType,
    T::Out: Sized,
    D: Decoder<'s, T>,
{
    match spaced {
        None => {
            let got = dec.decode(out, present)?;
            if got != present {
                return Err(short(present, got));
            }
        }
        Some(s) => {
            dec.decode_spaced(out, s.slots, s.validity, s.offset, s.nulls)?;
        }
    }
    Ok(())
}

/// Decode a whole page of `present` values into a `Vec` store.
fn decode_all_vec<'s, T, D>(
    mut dec: D,
    data: &'s [u8],
    present: usize,
    store: &mut Vec<T>,
) -> Result<()>
where
    T: ValueType<Out = [T]> + Copy + Default,
    D: Decoder<'s, T>,
{
    store.clear();
    dec.set_data(data, present)?;
    emit_vec(&mut dec, store, present, None)
}

/// Decode a whole page of `present` values into an appending store (its
/// contents already removed).
fn decode_all_append<'s, T, D>(
    mut dec: D,
    data: &'s [u8],
    present: usize,
    store: &mut T::Out,
) -> Result<()>
where
    T: ValueType,
    T::Out: Sized,
    D: Decoder<'s, T>,
{
    dec.set_data(data, present)?;
    emit_append(&mut dec, store, present, None)
}

/// Decode a dictionary page of `num_values` PLAIN values with `dec`.
fn dictionary_with<T: crate::DictValue>(
    mut dec: DictDecoder<'_, T>,
    data: &[u8],
    num_values: usize,
) -> Result<Arc<T::Dict>> {
    dec.set_dict(data, num_values)?;
    dec.dict()
        .cloned()
        .ok_or_else(|| EncodingError::Corrupt("dictionary page did not decode".into()))
}

/// Append `data` to `out`, spread over null slots when `spaced` is given
/// (values already decoded: a page store).
fn extend_spread<T: Debug + Copy + Default>(
    data: &[T],
    out: &mut Vec<T>,
    spaced: Option<Spaced<'_>>,
) -> Result<()> {
    match spaced {
        None => {
            out.extend_from_slice(data);
            Ok(())
        }
        Some(s) => {
            let mark = out.mark_spaced(s.slots)?;
            out.extend_from_slice(data);
            out.spread_tail(mark, s)
        }
    }
}

fn store_range<T>(store: &[T], start: usize, present: usize) -> Result<&[T]> {
    start
        .checked_add(present)
        .and_then(|end| store.get(start..end))
        .ok_or_else(|| short(present, store.len().saturating_sub(start)))
}

/// Append `value(entry)` for the entry of `W` PLAIN bytes of `page` that
/// each index names: one vectorised check of every index, then a loop the
/// compiler can unroll (the lookups cannot fail after it).
fn gather_entries<const W: usize, T>(
    page: &[u8],
    indices: &[u32],
    out: &mut Vec<T>,
    value: impl Fn([u8; W]) -> T,
) -> Result<()> {
    let (entries, _) = page.as_chunks::<W>();
    if !indices_below(indices, entries.len()) {
        let bad = indices.iter().copied().max().unwrap_or(0);
        return Err(bad_index(bad));
    }
    out.extend(
        indices
            .iter()
            .map(|&i| value(entries.get(i as usize).copied().unwrap_or([0; W]))),
    );
    Ok(())
}

/// Append values `start..start + present` of a decoded page `store` to
/// `out`, spread over null slots when `spaced` is given.
fn read_store_vec<T: Debug + Copy + Default>(
    store: &[T],
    start: usize,
    present: usize,
    out: &mut Vec<T>,
    spaced: Option<Spaced<'_>>,
) -> Result<()> {
    let data = store_range(store, start, present)?;
    extend_spread(data, out, spaced)
}

macro_rules! dict_numeric {
    ($t:ty, $w:literal, |$c:ident| $from_le:expr) => {
        type Dict = PlainDict<$t>;

        fn decode_dictionary(
            _ctx: Self::Context,
            data: &Bytes,
            num_values: usize,
        ) -> Result<Arc<Self::Dict>> {
            Ok(Arc::new(PlainDict::new(Bytes::clone(data), num_values)?))
        }

        fn dict_len(dict: &Self::Dict) -> Result<usize> {
            Ok(dict.len())
        }

        fn gather(dict: &Self::Dict, indices: &[u32], out: &mut Self::Values) -> Result<()> {
            // Entries straight from the page's bytes.
            gather_entries::<$w, _>(dict.page(), indices, out, |$c| $from_le)
        }
    };
}

macro_rules! fixed_common {
    ($t:ty, $w:literal, $phys:ident) => {
        type Values = Vec<$t>;
        type Context = ();
        const PHYSICAL: Type = Type::$phys;

        fn plain_width(_ctx: ()) -> Option<usize> {
            Some($w)
        }

        const GATHERS_KEPT: bool = true;

        fn gather_plain_kept(
            bytes: &[u8],
            n: usize,
            (keep, offset, kept): (&[u8], usize, usize),
            out: &mut Self::Values,
        ) -> Result<()> {
            let (values, _) = bytes.as_chunks::<$w>();
            let values = values
                .get(..n)
                .ok_or_else(|| EncodingError::Corrupt("PLAIN values past the page".into()))?;
            out.reserve(kept);
            for_each_set_bit(keep, offset, n, |i| {
                if let Some(c) = values.get(i) {
                    let mut v = <$t>::default();
                    <$t as crate::FixedWidthValue>::decode_plain(c, std::slice::from_mut(&mut v));
                    out.push(v);
                }
            });
            Ok(())
        }

        fn gather_store_kept(
            store: &Self::Values,
            start: usize,
            n: usize,
            (keep, offset, kept): (&[u8], usize, usize),
            out: &mut Self::Values,
        ) -> Result<()> {
            let values = store_range(store, start, n)?;
            out.reserve(kept);
            for_each_set_bit(keep, offset, n, |i| {
                if let Some(&v) = values.get(i) {
                    out.push(v);
                }
            });
            Ok(())
        }

        fn read_plain(
            _ctx: (),
            bytes: &[u8],
            present: usize,
            out: &mut Self::Values,
            spaced: Option<Spaced<'_>>,
        ) -> Result<()> {
            if spaced.is_none() && bytes.len() == present * $w {
                // Dense: straight from the page bytes, no zero fill first.
                <$t as crate::FixedWidthValue>::extend_plain(bytes, out);
                return Ok(());
            }
            let mut dec = PlainDecoder::<$t>::new();
            dec.set_data(bytes, present)?;
            emit_vec(&mut dec, out, present, spaced)
        }

        fn read_store(
            store: &Self::Values,
            start: usize,
            present: usize,
            out: &mut Self::Values,
            spaced: Option<Spaced<'_>>,
        ) -> Result<()> {
            read_store_vec(store, start, present, out, spaced)
        }
    };
}

/// A fixed-width number: PLAIN and BYTE_STREAM_SPLIT pages, plus the
/// encodings listed after the physical type (DELTA_BINARY_PACKED for the
/// integers) with their decoders.
macro_rules! numeric_value {
    ($t:ty, $w:literal, $phys:ident $(, $extra:ident => $decoder:ident)*) => {
        impl sealed::Sealed for $t {}
        impl ChunkValue for $t {
            fixed_common!($t, $w, $phys);
            dict_numeric!($t, $w, |c| <$t>::from_le_bytes(c));

            fn decode_page(
                _ctx: (),
                encoding: Encoding,
                data: &[u8],
                present: usize,
                store: &mut Self::Values,
            ) -> Result<()> {
                match encoding {
                    Encoding::Plain => {
                        decode_all_vec(PlainDecoder::<$t>::new(), data, present, store)
                    }
                    Encoding::ByteStreamSplit => {
                        decode_all_vec(ByteStreamSplitDecoder::<$t>::new(), data, present, store)
                    }
                    $(Encoding::$extra => {
                        decode_all_vec($decoder::<$t>::new(), data, present, store)
                    })*
                    other => Err(unsupported::<$t>(other)),
                }
            }
        }
    };
}

numeric_value!(i32, 4, Int32, DeltaBinaryPacked => DeltaBinaryPackedDecoder);
numeric_value!(i64, 8, Int64, DeltaBinaryPacked => DeltaBinaryPackedDecoder);
numeric_value!(f32, 4, Float);
numeric_value!(f64, 8, Double);

/// The stored width of INT32 or INT64 values read as `i128`: the
/// [`ChunkValue::Context`] of `i128`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IntWidth {
    /// INT32: 4 bytes a value.
    Four,
    /// INT64: 8 bytes a value.
    #[default]
    Eight,
}

/// The dictionary of INT32 or INT64 values read as `i128`: the page's
/// entries at their stored width, widened as they are gathered.
#[derive(Debug)]
pub enum WideDict {
    /// INT32 entries.
    Four(PlainDict<i32>),
    /// INT64 entries.
    Eight(PlainDict<i64>),
}

/// Append the little-endian integers of `bytes` (whole values of
/// `width`) to `out`, sign-extended to 128 bits.
fn extend_widened(width: IntWidth, bytes: &[u8], out: &mut Vec<i128>) {
    match width {
        IntWidth::Four => {
            let (chunks, _) = bytes.as_chunks::<4>();
            out.extend(chunks.iter().map(|c| i128::from(i32::from_le_bytes(*c))));
        }
        IntWidth::Eight => {
            let (chunks, _) = bytes.as_chunks::<8>();
            out.extend(chunks.iter().map(|c| i128::from(i64::from_le_bytes(*c))));
        }
    }
}

/// INT32 and INT64 columns read as `i128`, each value sign-extended as it
/// is decoded: the values of a 128-bit decimal stored as integers are
/// written once, at their final width, where reading them as `i32` /
/// `i64` would write them twice (a batch at the stored width, then a
/// widened copy). PLAIN values widen straight from the page, dictionary
/// entries as they are gathered from the page; other encodings decode at
/// the stored width into a page-sized store, widened once.
impl sealed::Sealed for i128 {}
impl ChunkValue for i128 {
    type Values = Vec<i128>;
    type Dict = WideDict;
    type Context = IntWidth;
    const PHYSICAL: Type = Type::Int64;

    fn accepts(physical: Type) -> bool {
        matches!(physical, Type::Int32 | Type::Int64)
    }

    fn context(descr: &ColumnDescriptor) -> Result<IntWidth> {
        match descr.physical_type {
            Type::Int32 => Ok(IntWidth::Four),
            Type::Int64 => Ok(IntWidth::Eight),
            other => Err(EncodingError::Unsupported(format!(
                "{other:?} values read as 128-bit integers"
            ))),
        }
    }

    fn plain_width(ctx: IntWidth) -> Option<usize> {
        Some(match ctx {
            IntWidth::Four => 4,
            IntWidth::Eight => 8,
        })
    }

    fn read_plain(
        ctx: IntWidth,
        bytes: &[u8],
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        let width = Self::plain_width(ctx).unwrap_or(8);
        if bytes.len() != present.saturating_mul(width) {
            return Err(short(present, bytes.len() / width));
        }
        match spaced {
            None => extend_widened(ctx, bytes, out),
            Some(s) => {
                let mark = out.mark_spaced(s.slots)?;
                extend_widened(ctx, bytes, out);
                out.spread_tail(mark, s)?;
            }
        }
        Ok(())
    }

    fn decode_page(
        ctx: IntWidth,
        encoding: Encoding,
        data: &[u8],
        present: usize,
        store: &mut Self::Values,
    ) -> Result<()> {
        // Decoded at the stored width, then widened once into the store.
        fn widened<T: ChunkValue<Context = (), Values = Vec<T>> + Into<i128> + Copy>(
            encoding: Encoding,
            data: &[u8],
            present: usize,
            store: &mut Vec<i128>,
        ) -> Result<()> {
            let mut stored = Vec::new();
            T::decode_page((), encoding, data, present, &mut stored)?;
            store.clear();
            store.extend(stored.iter().map(|&v| v.into()));
            Ok(())
        }
        match ctx {
            IntWidth::Four => widened::<i32>(encoding, data, present, store),
            IntWidth::Eight => widened::<i64>(encoding, data, present, store),
        }
    }

    fn read_store(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        read_store_vec(store, start, present, out, spaced)
    }

    fn decode_dictionary(ctx: IntWidth, data: &Bytes, num_values: usize) -> Result<Arc<WideDict>> {
        let page = Bytes::clone(data);
        Ok(Arc::new(match ctx {
            IntWidth::Four => WideDict::Four(PlainDict::new(page, num_values)?),
            IntWidth::Eight => WideDict::Eight(PlainDict::new(page, num_values)?),
        }))
    }

    fn dict_len(dict: &WideDict) -> Result<usize> {
        Ok(match dict {
            WideDict::Four(d) => d.len(),
            WideDict::Eight(d) => d.len(),
        })
    }

    fn gather(dict: &WideDict, indices: &[u32], out: &mut Self::Values) -> Result<()> {
        match dict {
            WideDict::Four(d) => gather_entries::<4, _>(d.page(), indices, out, |c| {
                i128::from(i32::from_le_bytes(c))
            }),
            WideDict::Eight(d) => gather_entries::<8, _>(d.page(), indices, out, |c| {
                i128::from(i64::from_le_bytes(c))
            }),
        }
    }
}

/// An INT96 value from its 12 PLAIN bytes.
#[inline]
fn int96_from_le(bytes: [u8; 12]) -> Int96 {
    let (words, _) = bytes.as_chunks::<4>();
    let word = |i: usize| words.get(i).copied().map_or(0, u32::from_le_bytes);
    Int96([word(0), word(1), word(2)])
}

impl sealed::Sealed for Int96 {}
impl ChunkValue for Int96 {
    fixed_common!(Int96, 12, Int96);
    dict_numeric!(Int96, 12, |c| int96_from_le(c));

    fn decode_page(
        _ctx: (),
        encoding: Encoding,
        data: &[u8],
        present: usize,
        store: &mut Self::Values,
    ) -> Result<()> {
        match encoding {
            Encoding::Plain => decode_all_vec(PlainDecoder::<Int96>::new(), data, present, store),
            other => Err(unsupported::<Int96>(other)),
        }
    }
}

impl sealed::Sealed for bool {}
impl ChunkValue for bool {
    type Values = Vec<bool>;
    type Dict = ();
    type Context = ();
    const PHYSICAL: Type = Type::Boolean;

    fn read_plain(
        _ctx: (),
        bytes: &[u8],
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        let mut dec = PlainBooleanDecoder::new();
        dec.set_data(bytes, present)?;
        emit_vec(&mut dec, out, present, spaced)
    }

    fn decode_page(
        _ctx: (),
        encoding: Encoding,
        data: &[u8],
        present: usize,
        store: &mut Self::Values,
    ) -> Result<()> {
        match encoding {
            Encoding::Plain => decode_all_vec(PlainBooleanDecoder::new(), data, present, store),
            Encoding::Rle => decode_all_vec(RleBooleanDecoder::new(), data, present, store),
            other => Err(unsupported::<bool>(other)),
        }
    }

    fn read_store(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        let data = store_range(store, start, present)?;
        extend_spread(data, out, spaced)
    }

    fn decode_dictionary(_ctx: (), _data: &Bytes, _num_values: usize) -> Result<Arc<Self::Dict>> {
        Err(EncodingError::Unsupported(
            "dictionary page for a BOOLEAN column".into(),
        ))
    }

    fn dict_len(_dict: &()) -> Result<usize> {
        Err(EncodingError::Unsupported(
            "dictionary encoding for a BOOLEAN column".into(),
        ))
    }

    fn gather(_dict: &Self::Dict, _indices: &[u32], _out: &mut Self::Values) -> Result<()> {
        Err(EncodingError::Unsupported(
            "dictionary encoding for a BOOLEAN column".into(),
        ))
    }
}

impl sealed::Sealed for ByteArray {}
impl ChunkValue for ByteArray {
    type Values = ByteArrayBuffer;
    type Dict = ByteArrayBuffer;
    type Context = ();
    const PHYSICAL: Type = Type::ByteArray;

    fn read_plain(
        _ctx: (),
        bytes: &[u8],
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        Self::read_plain_from(bytes, present, present, out, spaced).map(|_| ())
    }

    const PLAIN_IN_PLACE: bool = true;

    fn read_plain_from(
        bytes: &[u8],
        present: usize,
        left: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<usize> {
        let mut dec = PlainByteArrayDecoder::new();
        dec.set_data(bytes, left.max(present))?;
        emit_append(&mut dec, out, present, spaced)?;
        Ok(dec.position())
    }

    fn read_plain_kept_from(
        bytes: &[u8],
        n: usize,
        left: usize,
        keep: &[u8],
        offset: usize,
        out: &mut Self::Values,
    ) -> Result<usize> {
        out.extend_plain_kept(bytes, n, left, keep, offset)
    }

    fn skip_plain_from(bytes: &[u8], n: usize) -> Result<usize> {
        let mut dec = PlainByteArrayDecoder::new();
        dec.set_data(bytes, n)?;
        if dec.skip(n)? < n {
            return Err(short(n, 0));
        }
        Ok(dec.position())
    }

    fn decode_page(
        _ctx: (),
        encoding: Encoding,
        data: &[u8],
        present: usize,
        store: &mut Self::Values,
    ) -> Result<()> {
        store.clear();
        match encoding {
            Encoding::Plain => {
                decode_all_append(PlainByteArrayDecoder::new(), data, present, store)
            }
            Encoding::DeltaLengthByteArray => {
                decode_all_append(DeltaLengthByteArrayDecoder::new(), data, present, store)
            }
            Encoding::DeltaByteArray => {
                decode_all_append(DeltaByteArrayDecoder::new(), data, present, store)
            }
            other => Err(unsupported::<ByteArray>(other)),
        }
    }

    fn read_store(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        let end = start
            .checked_add(present)
            .filter(|&end| end <= store.len())
            .ok_or_else(|| short(present, store.len().saturating_sub(start)))?;
        let mark = match spaced {
            Some(s) => Some(out.mark_spaced(s.slots)?),
            None => None,
        };
        out.extend_from_range(store, start, end)?;
        match (mark, spaced) {
            (Some(mark), Some(s)) => out.spread_tail(mark, s),
            _ => Ok(()),
        }
    }

    fn dictionary_views(page: &[u8], len: usize) -> Result<Vec<u128>> {
        let mut views = Vec::new();
        crate::plain_views(page, 0, len, 0, &mut views)?;
        Ok(views)
    }

    const DICTIONARY_COPIES_PAGE: bool = true;

    fn decoded_dictionary_is_utf8(dict: &ByteArrayBuffer) -> bool {
        dict.values().is_ascii()
            || (0..dict.len()).all(|i| {
                dict.value(i)
                    .is_some_and(|v| std::str::from_utf8(v).is_ok())
            })
    }

    fn decoded_dictionary_views(dict: &Arc<ByteArrayBuffer>) -> Result<(Bytes, Vec<u128>)> {
        /// The dictionary's value bytes, as the owner of a `Bytes`.
        struct EntryBytes(Arc<ByteArrayBuffer>);
        impl AsRef<[u8]> for EntryBytes {
            fn as_ref(&self) -> &[u8] {
                self.0.values()
            }
        }
        let bytes = Bytes::from_owner(EntryBytes(Arc::clone(dict)));
        let views = dict
            .offsets()
            .windows(2)
            .map(|w| {
                let (start, end) = (usize::try_from(w[0]), usize::try_from(w[1]));
                let (Ok(start), Ok(end)) = (start, end) else {
                    return Err(corrupt_entry());
                };
                let entry = bytes.get(start..end).ok_or_else(corrupt_entry)?;
                Ok(crate::byte_view(entry, 0, w[0] as u32))
            })
            .collect::<Result<Vec<u128>>>()?;
        Ok((bytes, views))
    }

    fn dictionary_is_utf8(page: &[u8], len: usize) -> Result<bool> {
        // A page of ASCII bytes (length prefixes included) holds only
        // ASCII entries; otherwise each entry is checked on its own.
        if page.is_ascii() {
            return Ok(true);
        }
        let mut dec = PlainByteArrayDecoder::new();
        dec.set_data(page, len)?;
        let mut entries = ByteArrayBuffer::new();
        let mut ok = true;
        while dec.values_left() > 0 {
            entries.clear();
            let got = dec.decode(&mut entries, 1024)?;
            if got == 0 {
                return Err(short(len, 0));
            }
            ok &= (0..entries.len()).all(|i| {
                entries
                    .value(i)
                    .is_some_and(|v| std::str::from_utf8(v).is_ok())
            });
        }
        Ok(ok)
    }

    fn store_views(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Vec<u128>,
        buffers: &mut ViewBuffers,
    ) -> Result<()> {
        let end = start
            .checked_add(present)
            .filter(|&end| end <= store.len())
            .ok_or_else(|| short(present, store.len().saturating_sub(start)))?;
        out.reserve(present);
        for i in start..end {
            let value = store.value(i).unwrap_or_default();
            buffers.note_ascii(value);
            let view = if value.len() <= MAX_INLINE_VIEW_LEN {
                byte_view(value, 0, 0)
            } else {
                let (index, offset) = buffers.copy(value)?;
                byte_view(value, index, offset)
            };
            out.push(view);
        }
        Ok(())
    }

    fn decode_dictionary(_ctx: (), data: &Bytes, num_values: usize) -> Result<Arc<Self::Dict>> {
        dictionary_with(DictDecoder::<ByteArray>::new(), data, num_values)
    }

    fn dict_len(dict: &ByteArrayBuffer) -> Result<usize> {
        Ok(dict.len())
    }

    fn gather(dict: &Self::Dict, indices: &[u32], out: &mut Self::Values) -> Result<()> {
        out.extend_gather(dict, indices)
    }
}

/// The bytes of values `start..start + present` of `width`-byte values.
fn fixed_len_range(bytes: &[u8], width: usize, start: usize, present: usize) -> Result<&[u8]> {
    let available = bytes.len().checked_div(width).unwrap_or(0);
    start
        .checked_add(present)
        .filter(|&end| end <= available)
        .and_then(|end| bytes.get(start * width..end * width))
        .ok_or_else(|| short(present, available.saturating_sub(start)))
}

impl sealed::Sealed for FixedLenByteArray {}
/// FIXED_LEN_BYTE_ARRAY: values of the column's `type_length` bytes, back
/// to back in a [`FixedLenByteArrayBuffer`]. PLAIN pages are read in place
/// (skipping advances a position); DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT
/// pages are decoded once per page; dictionaries are a
/// [`FixedLenByteArrayBuffer`] shared through an [`Arc`].
impl ChunkValue for FixedLenByteArray {
    type Values = FixedLenByteArrayBuffer;
    type Dict = FixedLenByteArrayBuffer;
    /// The value width in bytes (positive).
    type Context = usize;

    const PHYSICAL: Type = Type::FixedLenByteArray;

    fn context(descr: &ColumnDescriptor) -> Result<usize> {
        match descr.type_length {
            Some(w) if w > 0 => usize::try_from(w).map_err(|_| bad_width(descr)),
            _ => Err(bad_width(descr)),
        }
    }

    fn reset_values(width: usize, values: &mut Self::Values) {
        values.reset(width);
    }

    fn plain_width(width: usize) -> Option<usize> {
        Some(width)
    }

    fn read_plain(
        width: usize,
        bytes: &[u8],
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        let mut dec = PlainFixedLenByteArrayDecoder::new(width)?;
        dec.set_data(bytes, present)?;
        emit_append(&mut dec, out, present, spaced)
    }

    fn decode_page(
        width: usize,
        encoding: Encoding,
        data: &[u8],
        present: usize,
        store: &mut Self::Values,
    ) -> Result<()> {
        store.reset(width);
        match encoding {
            Encoding::Plain => decode_all_append(
                PlainFixedLenByteArrayDecoder::new(width)?,
                data,
                present,
                store,
            ),
            Encoding::DeltaByteArray => decode_all_append(
                DeltaByteArrayFixedLenDecoder::new(width)?,
                data,
                present,
                store,
            ),
            Encoding::ByteStreamSplit => decode_all_append(
                ByteStreamSplitFixedLenDecoder::new(width)?,
                data,
                present,
                store,
            ),
            other => Err(unsupported::<FixedLenByteArray>(other)),
        }
    }

    fn read_store(
        store: &Self::Values,
        start: usize,
        present: usize,
        out: &mut Self::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        // Decoded values are laid out as PLAIN values are: read them so.
        let width = store.width();
        let bytes = fixed_len_range(store.values(), width, start, present)?;
        Self::read_plain(width, bytes, present, out, spaced)
    }

    fn decode_dictionary(width: usize, data: &Bytes, num_values: usize) -> Result<Arc<Self::Dict>> {
        dictionary_with(
            DictDecoder::<FixedLenByteArray>::new(width)?,
            data,
            num_values,
        )
    }

    fn dict_len(dict: &FixedLenByteArrayBuffer) -> Result<usize> {
        Ok(dict.len())
    }

    fn gather(dict: &Self::Dict, indices: &[u32], out: &mut Self::Values) -> Result<()> {
        for &i in indices {
            out.push(dict.value(i as usize).ok_or_else(|| bad_index(i))?)?;
        }
        Ok(())
    }
}

fn bad_width(descr: &ColumnDescriptor) -> EncodingError {
    EncodingError::InvalidArgument(format!(
        "FIXED_LEN_BYTE_ARRAY column {} needs a positive type_length, has {:?}",
        descr.path.parts().join("."),
        descr.type_length
    ))
}
