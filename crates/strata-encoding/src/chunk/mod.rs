//! The seam between page bytes and values: [`ChunkDecoder`] reads the
//! values of one column chunk, page after page, for any reader above it.
//!
//! # Design
//!
//! A column chunk is a dictionary page (maybe) and data pages, each data
//! page's values section in one encoding. Whoever reads the chunk (the
//! record layer, which owns levels, record boundaries and page skipping)
//! hands this decoder the decompressed dictionary page once
//! ([`ChunkDecoder::set_dictionary`]) and each data page's values section
//! with its encoding and present-value count ([`ChunkDecoder::set_page`]),
//! then asks for values `n` at a time:
//!
//! - [`read`](ChunkDecoder::read): values into the type's output buffer
//!   ([`ChunkValue::Values`]: `Vec<T>`, offsets + bytes, fixed-length
//!   values), densely or spread over the null slots of a validity bitmap
//!   ([`Spaced`]);
//! - [`read_indices`](ChunkDecoder::read_indices): dictionary indices, for
//!   an output keyed by the chunk's dictionary;
//! - [`read_views`](ChunkDecoder::read_views): 16-byte views of byte
//!   arrays, pointing into the PLAIN pages themselves
//!   ([`ViewBuffers`]);
//! - [`skip`](ChunkDecoder::skip): values passed over, decoded only where
//!   the encoding gives no other way.
//!
//! How a page is read depends on its encoding, decided once per page:
//!
//! | Page | Held as | Read by |
//! |---|---|---|
//! | PLAIN fixed width | the page's bytes | position: `read_plain` straight from the page |
//! | PLAIN byte arrays | the page's bytes | byte position: each value's length prefix walked in place |
//! | dictionary indices | the page's bytes | a window of at least 4,096 indices decoded at a time (or straight into the batch for a dense run that long), then gathered from the dictionary |
//! | anything else | decoded whole into a store reused page after page | position in the store |
//!
//! The dictionary is decoded once per chunk and shared by `Arc` with every
//! batch (byte arrays as offsets + bytes; fixed-width numbers as the page
//! itself, [`PlainDict`], which gathers read in place).
//!
//! # Invariants
//!
//! - Nothing is sized by a page header: a page's values are held as its
//!   own bytes, a store decoded from a page grows only as values decode,
//!   and indices are decoded a window at a time.
//! - Every dictionary index is checked against the dictionary before a
//!   value is gathered.
//! - Spreading values over null slots has one routine,
//!   [`DecodeTarget::finish_spaced`](crate::DecodeTarget::finish_spaced),
//!   reached through [`ValueBuffer::spread_tail`].
//! - [`is_dictionary_page`](ChunkDecoder::is_dictionary_page) says whether
//!   values come from the dictionary, so a reader knows when every value
//!   of a batch is a whole dictionary entry (whose UTF-8 it may have
//!   checked once).

use std::sync::Arc;

use bytes::Bytes;
use strata_format::ColumnDescriptor;
use strata_format::metadata::Encoding;

use crate::error::{EncodingError, Result};
use strata_sink::rle::{RleDecoder, RlePosition};

use crate::dictionary::check_indices;
use crate::plain_views;
use crate::validity::{SetRuns, check_bitmap, count_set, get_bit};

mod plain_dict;
mod value;
mod view_buffers;

pub use plain_dict::PlainDict;
pub use value::{ChunkValue, IntWidth, Spaced, ValueBuffer, WideDict};
pub use view_buffers::ViewBuffers;

/// Where the current page's values come from.
#[derive(Debug)]
enum Source {
    /// No page loaded.
    Empty,
    /// PLAIN fixed width: read straight from the page at value `pos`.
    Plain { data: Bytes, pos: usize },
    /// Dictionary encoded: `runs` is the page's RLE/bit-packed indices
    /// (after the bit-width byte), `left` of them still to read, the next
    /// at `at`. They are decoded as they are read, straight into the
    /// output or a chunk of [`INDEX_CHUNK`] at a time: never the whole
    /// page at once.
    Indices {
        runs: Bytes,
        bit_width: u32,
        at: RlePosition,
        left: usize,
    },
    /// Any other encoding: the page's values are in `PageValues::store`.
    Store { pos: usize },
    /// PLAIN variable width (byte arrays): read straight from the page, the
    /// next value at byte `at`, `left` values after it.
    PlainInPlace { data: Bytes, at: usize, left: usize },
}

/// Dictionary indices decoded at a time where they are gathered rather
/// than handed out (4 KiB of indices, reused).
const INDEX_CHUNK: usize = 1024;

/// The largest index bit width the format allows.
const MAX_INDEX_BIT_WIDTH: u8 = 32;

/// The values of one column chunk: the chunk's dictionary and the current
/// data page's values section. See the [module documentation](self).
#[derive(Debug)]
pub struct ChunkDecoder<T: ChunkValue> {
    ctx: T::Context,
    source: Source,
    /// The chunk's dictionary page (decompressed) and its entry count.
    /// The page is let go once decoded when the decoded dictionary copies
    /// it ([`ChunkValue::DICTIONARY_COPIES_PAGE`]) and no views point into
    /// it; views asked for after that point into the decoded dictionary,
    /// whose bytes then take the page's place here.
    dict_page: Option<(Option<Bytes>, usize)>,
    /// The dictionary decoded, on the first read that needs its values.
    dict: Option<Arc<T::Dict>>,
    /// The dictionary's entries as views into its page, on the first read
    /// of a dictionary-encoded page as views.
    dict_views: Option<Vec<u128>>,
    /// Whether every entry is UTF-8, once asked.
    dict_utf8: Option<bool>,
    indices: Vec<u32>,
    store: T::Values,
}

/// Run `read` over the RLE/bit-packed indices of a dictionary-encoded
/// page from where the last read stopped, then note where it stopped and
/// that `n` more indices were read (`read` reads exactly `n` or fails).
/// `scratch` is the decoder's reused index buffer.
fn with_indices(
    source: &mut Source,
    scratch: &mut Vec<u32>,
    n: usize,
    read: impl FnOnce(&mut RleDecoder<'_>, &mut Vec<u32>) -> Result<()>,
) -> Result<()> {
    let Source::Indices {
        runs,
        bit_width,
        at,
        left,
    } = source
    else {
        return Err(corrupt("indices requested from a non-dictionary page"));
    };
    let mut rle = RleDecoder::resume(runs, *bit_width, *at)?;
    read(&mut rle, scratch)?;
    *at = rle.position();
    *left -= n;
    Ok(())
}

/// Decode the next `n` indices of `rle` a chunk of at most
/// [`INDEX_CHUNK`] at a time into `scratch`, check each chunk against
/// `dict_len`, and hand it to `each`.
fn index_chunks(
    rle: &mut RleDecoder<'_>,
    scratch: &mut Vec<u32>,
    n: usize,
    dict_len: usize,
    mut each: impl FnMut(&mut [u32]) -> Result<()>,
) -> Result<()> {
    scratch.resize(INDEX_CHUNK.min(n), 0);
    let mut done = 0;
    while done < n {
        let k = (n - done).min(INDEX_CHUNK);
        let indices = scratch.get_mut(..k).unwrap_or_default();
        if rle.get_batch(indices)? < k {
            return Err(EncodingError::Truncated("dictionary indices"));
        }
        check_indices(indices, dict_len)?;
        each(indices)?;
        done += k;
    }
    Ok(())
}

/// Move the indices of `indices` whose bit in `keep` (from bit `offset`)
/// is set to the front, in order, and return how many there are. Written
/// without a branch per index: each index is stored, and the write
/// position moves on only for a kept one.
fn compact_kept(indices: &mut [u32], keep: &[u8], offset: usize) -> usize {
    let mut kept = 0usize;
    for i in 0..indices.len() {
        let index = indices[i];
        indices[kept] = index;
        kept += usize::from(get_bit(keep, offset + i));
    }
    kept
}

/// Append to `out` the entries of `entries` that `indices` name (each
/// already checked to be below `entries.len()`).
fn gather_entries<V: Copy>(entries: &[V], indices: &[u32], out: &mut Vec<V>) {
    // Clamping changes no index (all are in range); it lets the compiler
    // drop the bounds check, so the loop is a load and a store, written
    // straight to the end of `out` (no zero fill first).
    if let Some(last) = entries.len().checked_sub(1) {
        out.extend(indices.iter().map(|&i| entries[(i as usize).min(last)]));
    }
}

/// Set the buffer index of every view in `views` that is not inline to
/// `index`.
fn retarget_views(views: &mut [u128], index: u32) {
    for view in views {
        if (*view as u32) as usize > crate::MAX_INLINE_VIEW_LEN {
            let keep = !(u128::from(u32::MAX) << 64);
            *view = (*view & keep) | (u128::from(index) << 64);
        }
    }
}

fn corrupt(message: impl Into<String>) -> EncodingError {
    EncodingError::Corrupt(message.into())
}

impl<T: ChunkValue> ChunkDecoder<T> {
    /// A decoder for the column `descr`, whose physical type `T`
    /// [`accepts`](ChunkValue::accepts); fails when the descriptor lacks
    /// what `T` needs (see [`ChunkValue::context`]).
    pub fn new(descr: &ColumnDescriptor) -> Result<Self> {
        Ok(Self {
            ctx: T::context(descr)?,
            source: Source::Empty,
            dict_page: None,
            dict: None,
            dict_views: None,
            dict_utf8: None,
            indices: Vec::new(),
            store: T::Values::default(),
        })
    }

    /// Empty `values` and make it ready for this column's values (see
    /// [`ChunkValue::reset_values`]).
    pub fn reset_values(&self, values: &mut T::Values) {
        T::reset_values(self.ctx, values);
    }

    /// The chunk's dictionary, decoded (once) if it was not yet; `None`
    /// before a dictionary page was read.
    pub fn dictionary(&mut self) -> Result<Option<&Arc<T::Dict>>> {
        if self.dict_page.is_none() {
            return Ok(None);
        }
        self.decoded().map(Some)
    }

    /// The decoded dictionary (decoded on first use).
    fn decoded(&mut self) -> Result<&Arc<T::Dict>> {
        let dict = match self.dict.take() {
            Some(dict) => dict,
            None => {
                let (page, len) = self
                    .dict_page
                    .as_mut()
                    .ok_or_else(|| corrupt("dictionary-encoded page without a dictionary"))?;
                let bytes = page
                    .as_ref()
                    .ok_or_else(|| corrupt("dictionary page let go"))?;
                let dict = T::decode_dictionary(self.ctx, bytes, *len)?;
                if T::DICTIONARY_COPIES_PAGE && self.dict_views.is_none() {
                    // The copy is the dictionary now: hold it alone.
                    *page = None;
                }
                dict
            }
        };
        Ok(self.dict.insert(dict))
    }

    /// Whether every entry of the chunk's dictionary is valid UTF-8 on its
    /// own (checked once, from the dictionary page); `false` without a
    /// dictionary or for types that are not byte arrays. A batch whose
    /// every value is a dictionary entry is then UTF-8 without a second
    /// check.
    pub fn dictionary_is_utf8(&mut self) -> Result<bool> {
        if let Some(ok) = self.dict_utf8 {
            return Ok(ok);
        }
        let ok = match (&self.dict, &self.dict_page) {
            (_, None) => return Ok(false),
            (Some(dict), _) => T::decoded_dictionary_is_utf8(dict),
            (None, Some((Some(page), len))) => T::dictionary_is_utf8(page, *len)?,
            (None, Some((None, _))) => return Err(corrupt("dictionary page let go")),
        };
        self.dict_utf8 = Some(ok);
        Ok(ok)
    }

    /// Whether the current page holds dictionary indices (values read
    /// from it are gathered from the dictionary).
    pub fn is_dictionary_page(&self) -> bool {
        matches!(self.source, Source::Indices { .. })
    }

    /// Decode the chunk's dictionary page: `num_values` values encoded
    /// with `encoding` (PLAIN, or its old spelling PLAIN_DICTIONARY) in
    /// the decompressed page `page`. Once per chunk: a second one is an
    /// error.
    pub fn set_dictionary(
        &mut self,
        encoding: Encoding,
        page: &Bytes,
        num_values: usize,
    ) -> Result<()> {
        if self.dict_page.is_some() {
            return Err(corrupt("a second dictionary page in one column chunk"));
        }
        if !matches!(encoding, Encoding::Plain | Encoding::PlainDictionary) {
            return Err(EncodingError::Unsupported(format!(
                "dictionary page encoding {encoding:?}"
            )));
        }
        // Decoded when a read first needs its values: views point into
        // the page itself and need no decoded copy.
        self.dict_page = Some((Some(page.clone()), num_values));
        Ok(())
    }

    /// Let go of the current page (the next page can then be decompressed
    /// over its buffer).
    pub fn release_page(&mut self) {
        self.source = Source::Empty;
    }

    /// Take the values section `values` of a data page holding `present`
    /// values (its levels say how many) encoded with `encoding`. PLAIN and
    /// dictionary-encoded pages are read in place as values are asked for;
    /// other encodings are decoded whole here, into a store reused page
    /// after page.
    pub fn set_page(&mut self, encoding: Encoding, values: Bytes, present: usize) -> Result<()> {
        self.source = Source::Empty;
        match encoding {
            Encoding::PlainDictionary | Encoding::RleDictionary => {
                if self.dict_page.is_none() {
                    return Err(corrupt("dictionary-encoded page without a dictionary page"));
                }
                let (bit_width, runs) = match values.split_first() {
                    Some((&w, _)) if w <= MAX_INDEX_BIT_WIDTH => (u32::from(w), values.slice(1..)),
                    Some((&w, _)) => {
                        return Err(corrupt(format!(
                            "dictionary index bit width {w} exceeds {MAX_INDEX_BIT_WIDTH}"
                        )));
                    }
                    None if present == 0 => (0, Bytes::new()),
                    None => return Err(EncodingError::Truncated("dictionary index bit width")),
                };
                self.source = Source::Indices {
                    runs,
                    bit_width,
                    at: RlePosition::default(),
                    left: present,
                };
            }
            Encoding::Plain if T::PLAIN_IN_PLACE || T::plain_width(self.ctx).is_some() => {
                // Fixed-width values are read by position; variable-width
                // ones in place, each taking at least its 4-byte length.
                let width = T::plain_width(self.ctx);
                let least = width.unwrap_or(4);
                if present.saturating_mul(least) > values.len() {
                    return Err(corrupt(format!(
                        "PLAIN page of {} bytes cannot hold {present} values of at least \
                         {least} bytes",
                        values.len()
                    )));
                }
                self.source = if let Some(w) = width {
                    // Bytes past the values (some writers leave slack)
                    // are not values: the page's count ends them.
                    Source::Plain {
                        data: values.slice(..present * w),
                        pos: 0,
                    }
                } else {
                    Source::PlainInPlace {
                        data: values,
                        at: 0,
                        left: present,
                    }
                };
            }
            other => {
                T::decode_page(self.ctx, other, &values, present, &mut self.store)?;
                self.source = Source::Store { pos: 0 };
            }
        }
        Ok(())
    }

    fn available(&self) -> usize {
        match &self.source {
            Source::Empty => 0,
            Source::Plain { data, pos } => {
                T::plain_width(self.ctx).map_or(0, |w| (data.len() / w.max(1)).saturating_sub(*pos))
            }
            Source::Indices { left, .. } => *left,
            Source::Store { pos } => ValueBuffer::len(&self.store).saturating_sub(*pos),
            Source::PlainInPlace { left, .. } => *left,
        }
    }

    fn check(&self, n: usize) -> Result<()> {
        let available = self.available();
        if n > available {
            return Err(corrupt(format!(
                "levels need {n} values, the page has {available} left"
            )));
        }
        Ok(())
    }

    fn dict_len(&mut self) -> Result<usize> {
        T::dict_len(self.decoded()?)
    }

    /// Append `present` values (spread over `spaced` slots if given).
    pub fn read(
        &mut self,
        present: usize,
        out: &mut T::Values,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        if present == 0 && spaced.is_none() {
            return Ok(());
        }
        self.check(present)?;
        match &mut self.source {
            Source::Empty => return Err(corrupt("values without a data page")),
            Source::Plain { data, pos } => {
                let w = T::plain_width(self.ctx).unwrap_or(1);
                let bytes = data
                    .get(*pos * w..(*pos + present) * w)
                    .ok_or_else(|| corrupt("PLAIN values past the page"))?;
                T::read_plain(self.ctx, bytes, present, out, spaced)?;
                *pos += present;
            }
            Source::Indices { .. } => {
                // Gather the present values densely onto the end of `out`
                // (then move them to their slots when some are null), a
                // chunk of indices at a time.
                let dict = Arc::clone(self.decoded()?);
                let mark = match spaced {
                    Some(s) => Some(out.mark_spaced(s.slots)?),
                    None => None,
                };
                let dict_len = T::dict_len(&dict)?;
                with_indices(
                    &mut self.source,
                    &mut self.indices,
                    present,
                    |rle, scratch| {
                        index_chunks(rle, scratch, present, dict_len, |indices| {
                            T::gather(&dict, indices, out)
                        })
                    },
                )?;
                if let (Some(mark), Some(s)) = (mark, spaced) {
                    out.spread_tail(mark, s)?;
                }
            }
            Source::Store { pos } => {
                T::read_store(&self.store, *pos, present, out, spaced)?;
                *pos += present;
            }
            Source::PlainInPlace { data, at, left } => {
                let bytes = data.get(*at..).unwrap_or_default();
                *at += T::read_plain_from(bytes, present, *left, out, spaced)?;
                *left -= present;
            }
        }
        Ok(())
    }

    /// Append those of the next `n` values whose bit in `keep` (LSB first,
    /// bits `offset..offset + n`) is set, passing over the others: the rows
    /// a filter keeps, read without building the values it drops. Values
    /// are dense (no null slots); the caller counts the bits over the
    /// present values of a run with nulls.
    ///
    /// Dictionary indices are decoded a chunk at a time as in
    /// [`read`](Self::read), the kept ones moved to the front of the chunk
    /// and only those gathered (where under one in eight is kept, only the
    /// kept indices are unpacked: [`RleDecoder::get_kept`]); PLAIN byte arrays are walked once, keeping
    /// the kept values ([`ChunkValue::read_plain_kept_from`]); values of
    /// one width are gathered by the set bits, from the page or the
    /// decoded store ([`ChunkValue::gather_plain_kept`]); other pages
    /// read each run of kept values and skip each run of dropped ones.
    pub fn read_kept(
        &mut self,
        n: usize,
        keep: &[u8],
        offset: usize,
        out: &mut T::Values,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        check_bitmap(keep, offset, n)?;
        self.check(n)?;
        let kept = match count_set(keep, offset, n) {
            0 => return self.skip(n),
            // A few values of one width are gathered rather than copied:
            // a call to copy them costs more than the copy.
            all if all == n && (n >= 64 || !T::GATHERS_KEPT) => return self.read(n, out, None),
            some => some,
        };
        match &mut self.source {
            Source::Plain { data, pos } if T::GATHERS_KEPT => {
                let w = T::plain_width(self.ctx).unwrap_or(1);
                let bytes = data
                    .get(*pos * w..(*pos + n) * w)
                    .ok_or_else(|| corrupt("PLAIN values past the page"))?;
                T::gather_plain_kept(bytes, n, (keep, offset, kept), out)?;
                *pos += n;
                Ok(())
            }
            Source::Store { pos } if T::GATHERS_KEPT => {
                T::gather_store_kept(&self.store, *pos, n, (keep, offset, kept), out)?;
                *pos += n;
                Ok(())
            }
            Source::Indices { .. } if kept.saturating_mul(8) < n => {
                // Few kept: only the kept indices are unpacked, a chunk of
                // at most INDEX_CHUNK values passed at a time.
                let dict = Arc::clone(self.decoded()?);
                let dict_len = T::dict_len(&dict)?;
                with_indices(&mut self.source, &mut self.indices, n, |rle, scratch| {
                    let mut done = 0usize;
                    while done < n {
                        let k = (n - done).min(INDEX_CHUNK);
                        scratch.clear();
                        if rle.get_kept(k, keep, offset + done, scratch)? < k {
                            return Err(EncodingError::Truncated("dictionary indices"));
                        }
                        check_indices(scratch, dict_len)?;
                        T::gather(&dict, scratch, out)?;
                        done += k;
                    }
                    Ok(())
                })
            }
            Source::Indices { .. } => {
                let dict = Arc::clone(self.decoded()?);
                let dict_len = T::dict_len(&dict)?;
                let mut done = 0usize;
                with_indices(&mut self.source, &mut self.indices, n, |rle, scratch| {
                    index_chunks(rle, scratch, n, dict_len, |indices| {
                        let kept = compact_kept(indices, keep, offset + done);
                        done += indices.len();
                        T::gather(&dict, indices.get(..kept).unwrap_or_default(), out)
                    })
                })
            }
            Source::PlainInPlace { data, at, left } => {
                let bytes = data.get(*at..).unwrap_or_default();
                *at += T::read_plain_kept_from(bytes, n, *left, keep, offset, out)?;
                *left -= n;
                Ok(())
            }
            Source::Empty => Err(corrupt("values without a data page")),
            Source::Plain { .. } | Source::Store { .. } if out.retains_in_place() => {
                // Values of one width: read all of them (a copy), then
                // drop those not kept in one pass.
                let mark = ValueBuffer::len(out);
                self.read(n, out, None)?;
                out.retain_tail(mark, keep, offset)
            }
            Source::Plain { .. } | Source::Store { .. } => {
                let mut at = 0usize;
                for (start, len) in SetRuns::new(keep, offset, n) {
                    self.skip(start - at)?;
                    self.read(len, out, None)?;
                    at = start + len;
                }
                self.skip(n - at)
            }
        }
    }

    /// Append `present` dictionary indices (spread over `spaced` slots,
    /// null slots 0, if given).
    pub fn read_indices(
        &mut self,
        present: usize,
        out: &mut Vec<u32>,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        self.check(present)?;
        let dict_len = self.dict_len()?;
        let mark = match spaced {
            Some(s) => Some(out.mark_spaced(s.slots)?),
            None => None,
        };
        let start = out.len();
        out.resize(start + present, 0);
        let tail = out.get_mut(start..).unwrap_or_default();
        let decoded = with_indices(&mut self.source, &mut self.indices, present, |rle, _| {
            if rle.get_batch(tail)? < present {
                return Err(EncodingError::Truncated("dictionary indices"));
            }
            check_indices(tail, dict_len)
        });
        if let Err(e) = decoded {
            out.truncate(start);
            return Err(e);
        }
        if let (Some(mark), Some(s)) = (mark, spaced) {
            // Null slots get index 0.
            out.spread_tail(mark, s)?;
        }
        Ok(())
    }

    /// Append the views of `present` byte arrays (spread over `spaced`
    /// slots, null slots an empty view, if given): pointing into the page
    /// for PLAIN, into bytes copied to `buffers` for values another
    /// encoding decoded.
    pub fn read_views(
        &mut self,
        present: usize,
        out: &mut Vec<u128>,
        buffers: &mut ViewBuffers,
        spaced: Option<Spaced<'_>>,
    ) -> Result<()> {
        if present == 0 && spaced.is_none() {
            return Ok(());
        }
        self.check(present)?;
        let mark = match spaced {
            Some(s) => Some(out.mark_spaced(s.slots)?),
            None => None,
        };
        match &mut self.source {
            Source::PlainInPlace { data, at, left } => {
                let index = buffers.page_index(data)?;
                let end = plain_views(data, *at, present, index, out)?;
                buffers.note_ascii(data.get(*at..end).unwrap_or_default());
                *at = end;
                *left -= present;
            }
            Source::Store { pos } => {
                T::store_views(&self.store, *pos, present, out, buffers)?;
                *pos += present;
            }
            Source::Indices { .. } => {
                if matches!(self.dict_page, Some((None, _))) && self.dict_views.is_none() {
                    // The page was let go when the dictionary was decoded:
                    // views point into the decoded dictionary instead.
                    let dict = Arc::clone(self.decoded()?);
                    let (bytes, views) = T::decoded_dictionary_views(&dict)?;
                    self.dict_views = Some(views);
                    if let Some((page, _)) = &mut self.dict_page {
                        *page = Some(bytes);
                    }
                }
                let (Some(page), len) = self
                    .dict_page
                    .as_ref()
                    .ok_or_else(|| corrupt("dictionary-encoded page without a dictionary"))?
                else {
                    return Err(corrupt("dictionary page let go"));
                };
                let views = match &self.dict_views {
                    Some(built) => built,
                    None => self.dict_views.insert(T::dictionary_views(page, *len)?),
                };
                let index = buffers.dictionary_index(page)?;
                let start = out.len();
                out.reserve(present);
                let gathered = with_indices(
                    &mut self.source,
                    &mut self.indices,
                    present,
                    |rle, scratch| {
                        index_chunks(rle, scratch, present, views.len(), |indices| {
                            gather_entries(views, indices, out);
                            Ok(())
                        })
                    },
                );
                if let Err(e) = gathered {
                    out.truncate(start);
                    return Err(e);
                }
                let tail = out.get_mut(start..).unwrap_or_default();
                if index != 0 {
                    // The dictionary is not this batch's first buffer:
                    // point its entries' views at where it is.
                    retarget_views(tail, index);
                }
            }
            Source::Plain { .. } => {
                return Err(EncodingError::Unsupported(format!(
                    "{} values read as views",
                    T::NAME
                )));
            }
            Source::Empty => return Err(corrupt("values without a data page")),
        }
        if let (Some(mark), Some(s)) = (mark, spaced) {
            out.spread_tail(mark, s)?;
        }
        Ok(())
    }

    /// Skip `n` values without decoding them.
    pub fn skip(&mut self, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.check(n)?;
        match &mut self.source {
            Source::Empty => return Err(corrupt("values without a data page")),
            Source::Plain { pos, .. } | Source::Store { pos } => *pos += n,
            Source::Indices { .. } => {
                with_indices(&mut self.source, &mut self.indices, n, |rle, _| {
                    if rle.skip(n)? < n {
                        return Err(EncodingError::Truncated("dictionary indices"));
                    }
                    Ok(())
                })?;
            }
            Source::PlainInPlace { data, at, left } => {
                *at += T::skip_plain_from(data.get(*at..).unwrap_or_default(), n)?;
                *left -= n;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ByteArray, FixedLenByteArray};
    use strata_format::ColumnPath;
    use strata_format::metadata::{FieldRepetitionType, Type};
    use strata_sink::rle::RleEncoder;

    fn leaf_descr(physical: Type, length: i32) -> ColumnDescriptor {
        let leaf = strata_format::schema::Type::primitive_type_builder("s", physical)
            .with_repetition(FieldRepetitionType::Required)
            .with_length(length)
            .build()
            .unwrap();
        ColumnDescriptor::new(
            std::sync::Arc::new(leaf),
            0,
            0,
            ColumnPath::new(vec!["s".into()]),
        )
    }

    fn descr() -> ColumnDescriptor {
        leaf_descr(Type::ByteArray, -1)
    }

    fn plain_page(values: &[&[u8]]) -> Bytes {
        let mut page = Vec::new();
        for v in values {
            page.extend_from_slice(&(v.len() as u32).to_le_bytes());
            page.extend_from_slice(v);
        }
        Bytes::from(page)
    }

    /// A dictionary-encoded data page of `indices` at `bit_width`.
    fn index_page(indices: &[u32], bit_width: u8) -> Bytes {
        let mut enc = RleEncoder::new(u32::from(bit_width));
        for &i in indices {
            enc.put(u64::from(i));
        }
        let mut page = vec![bit_width];
        page.extend(enc.finish());
        Bytes::from(page)
    }

    const ENTRIES: [&[u8]; 3] = [b"short", b"an entry longer than twelve bytes", b""];

    /// Indices with runs and bit-packed stretches, so reads cut both.
    fn indices() -> Vec<u32> {
        (0..300u32)
            .map(|i| if (i / 37) % 2 == 0 { 1 } else { (i * 7) % 3 })
            .collect()
    }

    fn view_value(view: u128, buffers: &[Bytes]) -> &[u8] {
        let len = view as u32 as usize;
        if len <= crate::MAX_INLINE_VIEW_LEN {
            return &[];
        }
        let buffer = &buffers[(view >> 64) as u32 as usize];
        let offset = (view >> 96) as u32 as usize;
        &buffer[offset..offset + len]
    }

    #[test]
    fn reads_resume_where_the_last_stopped() {
        let want = indices();
        for cut in [1usize, 7, 36, 37, 64, 150] {
            let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
            dec.set_dictionary(Encoding::Plain, &plain_page(&ENTRIES), 3)
                .unwrap();
            dec.set_page(Encoding::RleDictionary, index_page(&want, 2), want.len())
                .unwrap();
            let mut got = Vec::new();
            let mut done = 0;
            while done < want.len() {
                let n = cut.min(want.len() - done);
                if done % 2 == 1 {
                    // Skip some, then check the rest lines up.
                    dec.skip(n).unwrap();
                    got.extend_from_slice(&want[done..done + n]);
                } else {
                    dec.read_indices(n, &mut got, None).unwrap();
                }
                done += n;
            }
            assert_eq!(got, want, "reads of {cut}");
            assert!(dec.read_indices(1, &mut got, None).is_err());
        }
    }

    #[test]
    fn dictionary_entries_become_views_over_the_dictionarys_bytes() {
        let want = indices();
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        let dictionary_page = plain_page(&ENTRIES);
        dec.set_dictionary(Encoding::Plain, &dictionary_page, 3)
            .unwrap();
        dec.set_page(Encoding::RleDictionary, index_page(&want, 2), want.len())
            .unwrap();
        let mut buffers = ViewBuffers::new();
        // A PLAIN page's buffer first, so the dictionary is buffer 1.
        buffers.page_index(&plain_page(&[b"other"])).unwrap();
        let mut views = Vec::new();
        dec.read_views(100, &mut views, &mut buffers, None).unwrap();
        dec.read_views(200, &mut views, &mut buffers, None).unwrap();
        assert!(buffers.has_dictionary_values());
        let buffers = buffers.take();
        assert_eq!(buffers.len(), 2);
        // The views point into the dictionary page itself, not a copy.
        assert_eq!(buffers[1].as_ptr(), dictionary_page.as_ptr());
        for (view, &i) in views.iter().zip(&want) {
            let entry = ENTRIES[i as usize];
            assert_eq!(*view as u32 as usize, entry.len());
            if entry.len() > crate::MAX_INLINE_VIEW_LEN {
                assert_eq!(view_value(*view, &buffers), entry);
            } else {
                assert_eq!(*view, crate::byte_view(entry, 0, 0));
            }
        }
    }

    /// A byte-array dictionary is held once: decoded, its page is let go;
    /// views asked for afterwards point into the decoded entries.
    #[test]
    fn a_decoded_dictionary_lets_its_page_go_and_still_gives_views() {
        let want = indices();
        let dictionary_page = plain_page(&ENTRIES);
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        dec.set_dictionary(Encoding::Plain, &dictionary_page, 3)
            .unwrap();
        assert!(!dictionary_page.is_unique(), "held until decoded");
        dec.set_page(Encoding::RleDictionary, index_page(&want, 2), want.len())
            .unwrap();
        let mut values = crate::ByteArrayBuffer::new();
        dec.read(100, &mut values, None).unwrap();
        assert!(dictionary_page.is_unique(), "let go once decoded");
        for (i, &k) in want[..100].iter().enumerate() {
            assert_eq!(values.value(i).unwrap(), ENTRIES[k as usize]);
        }
        assert!(dec.dictionary_is_utf8().unwrap());
        let mut buffers = ViewBuffers::new();
        let mut views = Vec::new();
        dec.read_views(200, &mut views, &mut buffers, None).unwrap();
        let buffers = buffers.take();
        let dict = dec.dictionary().unwrap().unwrap();
        assert_eq!(buffers[0].as_ptr(), dict.values().as_ptr());
        for (view, &k) in views.iter().zip(&want[100..]) {
            let entry = ENTRIES[k as usize];
            if entry.len() > crate::MAX_INLINE_VIEW_LEN {
                assert_eq!(view_value(*view, &buffers), entry);
            } else {
                assert_eq!(*view, crate::byte_view(entry, 0, 0));
            }
        }
        // Not UTF-8: the verdict is the same from the decoded entries.
        let bad: [&[u8]; 2] = [b"fine", b"\xff"];
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        dec.set_dictionary(Encoding::Plain, &plain_page(&bad), 2)
            .unwrap();
        dec.dictionary().unwrap();
        assert!(!dec.dictionary_is_utf8().unwrap());
    }

    #[test]
    fn the_dictionarys_utf8_is_checked_once_from_its_page() {
        let cases: [(&[&[u8]], bool); 4] = [
            (&ENTRIES, true),
            (&[b"caf\xc3\xa9", b"na\xc3\xafve, and long enough"], true),
            (&[b"fine", b"\xff not UTF-8"], false),
            // UTF-8 back to back, but an entry cut inside a character.
            (&[b"\xc3", b"\xa9"], false),
        ];
        for (entries, want) in cases {
            let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
            assert!(!dec.dictionary_is_utf8().unwrap(), "no dictionary yet");
            dec.set_dictionary(Encoding::Plain, &plain_page(entries), entries.len())
                .unwrap();
            assert_eq!(dec.dictionary_is_utf8().unwrap(), want, "{entries:?}");
        }
        // A count the page cannot hold is an error, not an answer.
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        dec.set_dictionary(Encoding::Plain, &plain_page(&[b"\xff"]), 2)
            .unwrap();
        assert!(dec.dictionary_is_utf8().is_err());
        assert!(dec.dictionary().is_err());
    }

    /// fastparquet leaves zero bytes after a FIXED_LEN_BYTE_ARRAY page's
    /// PLAIN values (1,508 bytes for 300 values of 5); other writers may
    /// too. Bytes past the values are ignored; too few bytes for the
    /// values the page declares is an error.
    #[test]
    fn bytes_after_a_pages_plain_values_are_ignored_but_too_few_are_an_error() {
        let flba = leaf_descr(Type::FixedLenByteArray, 5);
        let values: Vec<u8> = (0..1500u32).map(|i| (i % 251) as u8).collect();
        for slack in [0usize, 1, 8, 4096] {
            let mut page = values.clone();
            page.resize(values.len() + slack, 0);
            let mut dec = ChunkDecoder::<FixedLenByteArray>::new(&flba).unwrap();
            dec.set_page(Encoding::Plain, Bytes::from(page), 300)
                .unwrap();
            let mut out = crate::FixedLenByteArrayBuffer::default();
            dec.reset_values(&mut out);
            dec.read(300, &mut out, None).unwrap();
            assert_eq!(out.values(), &values[..], "slack {slack}");
            assert!(dec.read(1, &mut out, None).is_err(), "past the count");
        }
        // One byte short: refused when the page is set or when read.
        let mut dec = ChunkDecoder::<FixedLenByteArray>::new(&flba).unwrap();
        let mut out = crate::FixedLenByteArrayBuffer::default();
        dec.reset_values(&mut out);
        let short = Bytes::from(values[..1499].to_vec());
        let read = dec
            .set_page(Encoding::Plain, short, 300)
            .and_then(|()| dec.read(300, &mut out, None));
        assert!(read.is_err(), "one byte short");

        // The same for BYTE_ARRAY: a zero length prefix in the slack
        // would read as a value, but the page's count ends the values.
        let mut page = plain_page(&ENTRIES).to_vec();
        page.extend_from_slice(&[0; 11]);
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        dec.set_page(Encoding::Plain, Bytes::from(page), 3).unwrap();
        let mut out = crate::ByteArrayBuffer::new();
        dec.read(3, &mut out, None).unwrap();
        assert_eq!(out.len(), 3);
        assert!(dec.read(1, &mut out, None).is_err(), "past the count");
        let short = plain_page(&ENTRIES);
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        let read = dec
            .set_page(Encoding::Plain, short.slice(..short.len() - 1), 3)
            .and_then(|()| dec.read(3, &mut out, None));
        assert!(read.is_err(), "last value cut");
    }

    #[test]
    fn an_index_past_the_dictionary_is_an_error_for_every_output() {
        let bad = [0u32, 1, 3, 0];
        let page = index_page(&bad, 2);
        let mut dec = ChunkDecoder::<ByteArray>::new(&descr()).unwrap();
        dec.set_dictionary(Encoding::Plain, &plain_page(&ENTRIES), 3)
            .unwrap();
        dec.set_page(Encoding::RleDictionary, page.clone(), 4)
            .unwrap();
        assert!(dec.read_indices(4, &mut Vec::new(), None).is_err());
        dec.set_page(Encoding::RleDictionary, page.clone(), 4)
            .unwrap();
        let mut views = Vec::new();
        assert!(
            dec.read_views(4, &mut views, &mut ViewBuffers::new(), None)
                .is_err()
        );
        dec.set_page(Encoding::RleDictionary, page, 4).unwrap();
        let mut values = crate::ByteArrayBuffer::new();
        assert!(dec.read(4, &mut values, None).is_err());
        // A bit width past 32 is refused when the page is set.
        assert!(
            dec.set_page(Encoding::RleDictionary, Bytes::from_static(&[33, 0]), 1)
                .is_err()
        );
    }

    /// INT32 and INT64 pages read as `i128`: every encoding gives the
    /// values sign-extended (the extremes, -1 and 0 included), with nulls
    /// spread, and a dictionary index past the entries is an error.
    #[test]
    fn integers_read_widened_to_128_bits() {
        use crate::{DeltaBinaryPackedEncoder, Encoder};
        use strata_sink::ByteSink;
        fn delta_page<T: crate::DeltaInt>(
            mut enc: DeltaBinaryPackedEncoder<T>,
            values: &[T],
        ) -> Bytes {
            enc.put(values).unwrap();
            let mut page = ByteSink::new();
            enc.flush_into(&mut page).unwrap();
            Bytes::from(page.as_slice().to_vec())
        }
        let v64: Vec<i64> = vec![i64::MIN, -1, 0, 1, i64::MAX, -123_456_789_012, 42];
        let v32: Vec<i32> = vec![i32::MIN, -1, 0, 1, i32::MAX, -7, 42];
        let cases: [(Type, Vec<i128>, Vec<u8>, Bytes); 2] = [
            (
                Type::Int64,
                v64.iter().map(|&v| i128::from(v)).collect(),
                v64.iter().flat_map(|v| v.to_le_bytes()).collect(),
                delta_page(DeltaBinaryPackedEncoder::<i64>::new(), &v64),
            ),
            (
                Type::Int32,
                v32.iter().map(|&v| i128::from(v)).collect(),
                v32.iter().flat_map(|v| v.to_le_bytes()).collect(),
                delta_page(DeltaBinaryPackedEncoder::<i32>::new(), &v32),
            ),
        ];
        for (physical, want, plain, delta) in cases {
            let d = leaf_descr(physical, -1);
            let n = want.len();
            // PLAIN, read in two parts.
            let mut dec = ChunkDecoder::<i128>::new(&d).unwrap();
            dec.set_page(Encoding::Plain, Bytes::from(plain.clone()), n)
                .unwrap();
            let mut got = Vec::new();
            dec.read(3, &mut got, None).unwrap();
            dec.read(n - 3, &mut got, None).unwrap();
            assert_eq!(got, want, "{physical:?} PLAIN");
            assert!(dec.read(1, &mut got, None).is_err(), "past the count");
            // DELTA_BINARY_PACKED, through the page store.
            dec.set_page(Encoding::DeltaBinaryPacked, delta, n).unwrap();
            got.clear();
            dec.read(n, &mut got, None).unwrap();
            assert_eq!(got, want, "{physical:?} DELTA_BINARY_PACKED");
            // Dictionary indices, the entries gathered widened.
            let order: Vec<u32> = vec![4, 0, 1, 1, 6, 2, 3, 5, 0];
            dec.set_dictionary(Encoding::Plain, &Bytes::from(plain.clone()), n)
                .unwrap();
            dec.set_page(Encoding::RleDictionary, index_page(&order, 3), order.len())
                .unwrap();
            got.clear();
            dec.read(order.len(), &mut got, None).unwrap();
            let gathered: Vec<i128> = order.iter().map(|&i| want[i as usize]).collect();
            assert_eq!(got, gathered, "{physical:?} dictionary");
            // Nulls spread: slots 1 and 3 of five are null.
            dec.set_page(Encoding::Plain, Bytes::from(plain.clone()), n)
                .unwrap();
            got.clear();
            let validity = [0b10101u8];
            let spaced = Spaced {
                validity: &validity,
                offset: 0,
                slots: 5,
                nulls: 2,
            };
            dec.read(3, &mut got, Some(spaced)).unwrap();
            assert_eq!(
                (got[0], got[2], got[4]),
                (want[0], want[1], want[2]),
                "{physical:?} spaced"
            );
            // An index past the entries.
            dec.set_page(Encoding::RleDictionary, index_page(&[1, 7], 3), 2)
                .unwrap();
            assert!(dec.read(2, &mut got, None).is_err(), "{physical:?} index");
        }
        // Neither a BOOLEAN nor a DOUBLE column is read as 128-bit integers.
        assert!(ChunkDecoder::<i128>::new(&leaf_descr(Type::Boolean, -1)).is_err());
        assert!(ChunkDecoder::<i128>::new(&leaf_descr(Type::Double, -1)).is_err());
    }
}
