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
use crate::{decode_dictionary_indices_from, plain_views};

mod plain_dict;
mod value;
mod view_buffers;

pub use plain_dict::PlainDict;
pub use value::{ChunkValue, Spaced, ValueBuffer};
pub use view_buffers::ViewBuffers;

/// Where the current page's values come from.
#[derive(Debug)]
enum Source {
    /// No page loaded.
    Empty,
    /// PLAIN fixed width: read straight from the page at value `pos`.
    Plain { data: Bytes, pos: usize },
    /// Dictionary encoded: the page's values section `data` holds `len`
    /// indices, the next at `pos`. They are decoded as they are read, a
    /// window of at least [`INDEX_WINDOW`] at a time into
    /// `PageValues::indices`, whose first index is the page's index
    /// `window`: never the whole page at once.
    Indices {
        data: Bytes,
        pos: usize,
        len: usize,
        window: usize,
    },
    /// Any other encoding: the page's values are in `PageValues::store`.
    Store { pos: usize },
    /// PLAIN variable width (byte arrays): read straight from the page, the
    /// next value at byte `at`, `left` values after it.
    PlainInPlace { data: Bytes, at: usize, left: usize },
}

/// The fewest dictionary indices decoded at a time. Each window is
/// decoded from the start of the page's indices, passing over the runs
/// before it, so a page costs (its runs) x (its indices / this) steps
/// however small the batches; 16 KiB of indices.
const INDEX_WINDOW: usize = 4096;

/// The values of one column chunk: the chunk's dictionary and the current
/// data page's values section. See the [module documentation](self).
#[derive(Debug)]
pub struct ChunkDecoder<T: ChunkValue> {
    ctx: T::Context,
    source: Source,
    dict: Option<Arc<T::Dict>>,
    indices: Vec<u32>,
    store: T::Values,
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
            dict: None,
            indices: Vec::new(),
            store: T::Values::default(),
        })
    }

    /// Empty `values` and make it ready for this column's values (see
    /// [`ChunkValue::reset_values`]).
    pub fn reset_values(&self, values: &mut T::Values) {
        T::reset_values(self.ctx, values);
    }

    /// The chunk's dictionary, once its dictionary page was read.
    pub fn dictionary(&self) -> Option<&Arc<T::Dict>> {
        self.dict.as_ref()
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
        if self.dict.is_some() {
            return Err(corrupt("a second dictionary page in one column chunk"));
        }
        if !matches!(encoding, Encoding::Plain | Encoding::PlainDictionary) {
            return Err(EncodingError::Unsupported(format!(
                "dictionary page encoding {encoding:?}"
            )));
        }
        self.dict = Some(T::decode_dictionary(self.ctx, page, num_values)?);
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
                if self.dict.is_none() {
                    return Err(corrupt("dictionary-encoded page without a dictionary page"));
                }
                self.indices.clear();
                self.source = Source::Indices {
                    data: values,
                    pos: 0,
                    len: present,
                    window: 0,
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
                self.source = if width.is_some() {
                    Source::Plain {
                        data: values,
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
            Source::Indices { pos, len, .. } => len.saturating_sub(*pos),
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

    /// Make `self.indices[at..at + n]` the next `n` indices of a
    /// dictionary-encoded page and return `at`, decoding a new window when
    /// they are not all in the current one.
    fn index_window(&mut self, n: usize) -> Result<usize> {
        let Source::Indices {
            data,
            pos,
            len,
            window,
        } = &mut self.source
        else {
            return Err(corrupt("indices requested from a non-dictionary page"));
        };
        let have = *pos >= *window && *pos + n <= *window + self.indices.len();
        if !have {
            let dict = self
                .dict
                .as_deref()
                .ok_or_else(|| corrupt("dictionary-encoded page without a dictionary"))?;
            let count = n.max(INDEX_WINDOW).min(len.saturating_sub(*pos));
            if count < n {
                return Err(corrupt("dictionary indices past the page"));
            }
            self.indices.resize(count, 0);
            let decoded =
                decode_dictionary_indices_from(data, T::dict_len(dict)?, *pos, &mut self.indices);
            if let Err(e) = decoded {
                self.indices.clear();
                return Err(e);
            }
            *window = *pos;
        }
        Ok(*pos - *window)
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
                // window of indices at a time, so the indices decoded at
                // once stay at `INDEX_WINDOW` however large the batch.
                let mark = match spaced {
                    Some(s) => Some(out.mark_spaced(s.slots)?),
                    None => None,
                };
                let mut done = 0;
                while done < present {
                    let k = (present - done).min(INDEX_WINDOW);
                    let at = self.index_window(k)?;
                    let dict = self
                        .dict
                        .as_deref()
                        .ok_or_else(|| corrupt("dictionary-encoded page without a dictionary"))?;
                    let indices = self
                        .indices
                        .get(at..at + k)
                        .ok_or_else(|| corrupt("dictionary indices past their window"))?;
                    T::gather(dict, indices, out)?;
                    if let Source::Indices { pos, .. } = &mut self.source {
                        *pos += k;
                    }
                    done += k;
                }
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
                *at += T::read_plain_from(bytes, present, out, spaced)?;
                *left -= present;
            }
        }
        Ok(())
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
        if spaced.is_none() && present >= INDEX_WINDOW {
            // Straight into the batch's indices, no window (only for runs
            // at least a window long, so a page is still passed over at
            // most once per window's worth of indices).
            let Source::Indices { data, pos, .. } = &mut self.source else {
                return Err(corrupt("indices requested from a non-dictionary page"));
            };
            let dict = self
                .dict
                .as_deref()
                .ok_or_else(|| corrupt("dictionary-encoded page without a dictionary"))?;
            let start = out.len();
            out.resize(start + present, 0);
            let tail = out.get_mut(start..).unwrap_or_default();
            if let Err(e) = decode_dictionary_indices_from(data, T::dict_len(dict)?, *pos, tail) {
                out.truncate(start);
                return Err(e);
            }
            *pos += present;
            return Ok(());
        }
        let at = self.index_window(present)?;
        let indices = self
            .indices
            .get(at..at + present)
            .ok_or_else(|| corrupt("dictionary indices past their window"))?;
        match spaced {
            None => out.extend_from_slice(indices),
            Some(s) => {
                let start = out.len();
                out.resize(start + s.slots, 0);
                let mut next = indices.iter();
                for (i, slot) in out.iter_mut().skip(start).enumerate() {
                    let bit = s.offset + i;
                    let valid = s
                        .validity
                        .get(bit / 8)
                        .is_some_and(|b| b & (1 << (bit % 8)) != 0);
                    if valid {
                        *slot = *next
                            .next()
                            .ok_or_else(|| corrupt("more present slots than indices"))?;
                    }
                }
            }
        }
        if let Source::Indices { pos, .. } = &mut self.source {
            *pos += present;
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
                return Err(EncodingError::Unsupported(
                    "a dictionary-encoded page read as views (read the chunk's dictionary \
                     pages as indices)"
                        .into(),
                ));
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
            Source::Plain { pos, .. } | Source::Indices { pos, .. } | Source::Store { pos } => {
                *pos += n
            }
            Source::PlainInPlace { data, at, left } => {
                *at += T::skip_plain_from(data.get(*at..).unwrap_or_default(), n)?;
                *left -= n;
            }
        }
        Ok(())
    }
}
