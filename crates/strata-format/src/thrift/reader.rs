//! [`CompactReader`]: decoding the Thrift compact protocol from a slice.

use super::{FieldHeader, FieldType, MAX_DEPTH, ReadThrift};
use crate::error::{FormatError, Result};
use crate::metadata::ParquetMetaDataOptions;
use std::sync::Arc;
use strata_sink::SinkError;
use strata_sink::varint::{decode_uleb128, decode_uleb128_word, zigzag_decode};

/// A cursor over compact-protocol bytes.
///
/// It keeps the position, the current struct nesting depth and the last
/// field id of the struct being read (field ids are delta-encoded). Every
/// read checks bounds and returns [`FormatError`] instead of panicking.
///
/// Reading a struct by hand:
///
/// ```
/// use strata_format::thrift::{CompactReader, FieldType};
///
/// // struct { 1: i32 = 7, 3: bool = true }, then stop
/// let bytes = [0x15, 14, 0x21, 0x00];
/// let mut r = CompactReader::new(&bytes);
/// let saved = r.begin_struct().unwrap();
/// let mut seen = Vec::new();
/// while let Some(f) = r.next_field().unwrap() {
///     match f.id {
///         1 => seen.push(format!("a={}", r.read_i32().unwrap())),
///         3 => seen.push(format!("b={}", f.ty == FieldType::BoolTrue)),
///         _ => r.skip(f.ty).unwrap(),
///     }
/// }
/// r.end_struct(saved);
/// assert_eq!(seen, ["a=7", "b=true"]);
/// assert_eq!(r.position(), 4);
/// ```
#[derive(Debug, Clone)]
pub struct CompactReader<'a> {
    data: &'a [u8],
    pos: usize,
    depth: usize,
    last_field_id: i16,
    /// Ordinal of the next column chunk within the current row group.
    chunk_ordinal: usize,
    /// `path_in_schema` of each column of the last row group, with its
    /// encoded bytes: the same column in the next row group almost always
    /// has byte-identical path bytes and then shares the decoded path.
    path_cache: Vec<(&'a [u8], Arc<[String]>)>,
    /// What the decode may leave out; `None` keeps everything.
    options: Option<&'a ParquetMetaDataOptions>,
    /// Leaf index of the column chunk being decoded, for `options`.
    column: usize,
}

/// Which details of one column chunk a decode leaves out (see
/// [`CompactReader::skipped_details`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SkippedDetails {
    pub(crate) column_stats: bool,
    pub(crate) encoding_stats: bool,
    pub(crate) size_stats: bool,
}

/// State saved by [`CompactReader::begin_struct`] and restored by
/// [`CompactReader::end_struct`].
#[derive(Debug, Clone, Copy)]
#[must_use = "pass it to end_struct"]
pub struct StructState {
    last_field_id: i16,
}

impl<'a> CompactReader<'a> {
    /// A reader at the start of `data`.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Self {
            data,
            pos: 0,
            depth: 0,
            last_field_id: 0,
            chunk_ordinal: 0,
            path_cache: Vec::new(),
            options: None,
            column: 0,
        }
    }

    /// A reader at the start of `data` that leaves out what `options`
    /// says (see [`ParquetMetaDataOptions`]).
    #[inline]
    pub fn with_options(data: &'a [u8], options: &'a ParquetMetaDataOptions) -> Self {
        Self {
            options: Some(options),
            ..Self::new(data)
        }
    }

    /// Mark the start of the column chunk of leaf `column`, for the
    /// options' per-column policies.
    #[inline]
    pub(crate) fn start_column(&mut self, column: usize) {
        self.column = column;
    }

    /// The options' verdicts for the current column chunk: whether its
    /// chunk statistics, page encoding counts and size statistics are
    /// skipped.
    #[inline]
    pub(crate) fn skipped_details(&self) -> SkippedDetails {
        match self.options {
            None => SkippedDetails::default(),
            Some(o) => SkippedDetails {
                column_stats: o.skip_column_stats(self.column),
                encoding_stats: o.skip_encoding_stats(self.column),
                size_stats: o.skip_size_stats(self.column),
            },
        }
    }

    /// Whether the footer's schema elements are skipped (the options carry
    /// the schema), and the schema's leaf count if so.
    #[inline]
    pub(crate) fn supplied_schema_columns(&self) -> Option<usize> {
        self.options?.schema().map(|s| s.num_columns())
    }

    /// Bytes consumed so far.
    #[inline]
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not yet consumed.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    #[inline]
    fn eof(&self, needed: usize) -> FormatError {
        FormatError::Eof {
            offset: self.pos,
            needed,
        }
    }

    #[inline]
    fn invalid(&self, reason: &'static str) -> FormatError {
        FormatError::InvalidThrift {
            offset: self.pos,
            reason,
        }
    }

    /// Read one raw byte.
    #[inline]
    pub fn read_byte(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Take the next `n` bytes as a slice of the input.
    #[inline]
    pub fn read_slice(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or_else(|| self.eof(n))?;
        match self.data.get(self.pos..end) {
            Some(s) => {
                self.pos = end;
                Ok(s)
            }
            None => Err(self.eof(end - self.data.len().min(end))),
        }
    }

    /// The fast path for a small struct of `N` `i32` fields with ids
    /// `1..=N`, written in order with one-byte values and then the stop
    /// byte: `2N + 1` bytes (`0x15 v 0x15 v ... 0`). Returns the values and
    /// consumes the struct when the next bytes have exactly that shape;
    /// otherwise returns `None` and consumes nothing, and the caller reads
    /// the struct field by field.
    ///
    /// Writers emit short structs such as `PageEncodingStats` in this shape
    /// almost always, so the common case costs one bounds check and a few
    /// byte compares instead of a field loop.
    #[inline]
    pub(crate) fn try_small_i32_struct<const N: usize>(&mut self) -> Option<[i32; N]> {
        let bytes = self.data.get(self.pos..self.pos + 2 * N + 1)?;
        let mut out = [0i32; N];
        for (i, v) in out.iter_mut().enumerate() {
            // Field header: id delta 1, wire type i32 (5).
            let (header, value) = (bytes[2 * i], bytes[2 * i + 1]);
            if header != 0x15 || value >= 0x80 {
                return None;
            }
            // A one-byte zigzag value always fits an i32.
            *v = zigzag_decode(u64::from(value)) as i32;
        }
        if bytes[2 * N] != 0 {
            return None;
        }
        self.pos += 2 * N + 1;
        Some(out)
    }

    /// Read an unsigned LEB128 varint.
    #[inline(always)]
    pub fn read_varint(&mut self) -> Result<u64> {
        // Fast path: most varints in metadata (field ids, small counts,
        // enum values) fit in one byte.
        if let Some(&b) = self.data.get(self.pos)
            && b < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(b));
        }
        self.read_varint_multibyte()
    }

    /// Read a struct written the common way with exactly these fields:
    /// each a one-byte field header (id delta and type in one byte) and a
    /// varint value (an i16, i32 or i64 field), then the stop byte. Returns
    /// the values as written (zigzag encoded), or `None`, having read
    /// nothing, when the bytes are anything else; the caller then reads the
    /// struct field by field, which accepts every valid encoding and
    /// reports errors. A fast path for small structs that come by the
    /// thousand (the page locations of an offset index).
    #[inline]
    pub(crate) fn read_varint_struct<const N: usize>(
        &mut self,
        headers: [u8; N],
    ) -> Option<[u64; N]> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let mut pos = self.pos;
        let mut values = [0u64; N];
        for (&header, value) in headers.iter().zip(&mut values) {
            if self.data.get(pos) != Some(&header) {
                return None;
            }
            pos += 1;
            // A byte at a time: these values are mostly two to four bytes,
            // where the word-at-a-time decoder costs more than it saves.
            let mut shift = 0;
            loop {
                let byte = *self.data.get(pos)?;
                pos += 1;
                if shift == 63 && byte > 1 {
                    // Past 64 bits: the field-by-field reader reports it.
                    return None;
                }
                *value |= u64::from(byte & 0x7F) << shift;
                if byte < 0x80 {
                    break;
                }
                shift += 7;
                if shift > 63 {
                    return None;
                }
            }
        }
        if self.data.get(pos) != Some(&0) {
            return None;
        }
        self.pos = pos + 1;
        Some(values)
    }

    /// The multi-byte varint path (offsets, sizes, counts).
    #[inline(never)]
    fn read_varint_multibyte(&mut self) -> Result<u64> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        // Offsets and sizes: up to eight bytes from one word load.
        if let Some(word) = rest.first_chunk::<8>()
            && let Some((v, n)) = decode_uleb128_word(u64::from_le_bytes(*word))
        {
            self.pos += n;
            return Ok(v);
        }
        match decode_uleb128(rest) {
            Ok((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            Err(SinkError::UnexpectedEof { needed, .. }) => Err(FormatError::Eof {
                offset: self.data.len(),
                needed,
            }),
            Err(_) => Err(self.invalid("varint longer than 10 bytes or overflowing 64 bits")),
        }
    }

    /// Read an `i8` (one raw byte).
    #[inline]
    pub fn read_i8(&mut self) -> Result<i8> {
        Ok(self.read_byte()? as i8)
    }

    /// Read an `i16` (zigzag varint), rejecting out-of-range values.
    #[inline]
    pub fn read_i16(&mut self) -> Result<i16> {
        let start = self.pos;
        let v = zigzag_decode(self.read_varint()?);
        i16::try_from(v).map_err(|_| FormatError::InvalidThrift {
            offset: start,
            reason: "i16 value out of range",
        })
    }

    /// Read an `i32` (zigzag varint), rejecting out-of-range values.
    #[inline]
    pub fn read_i32(&mut self) -> Result<i32> {
        let start = self.pos;
        let v = zigzag_decode(self.read_varint()?);
        i32::try_from(v).map_err(|_| FormatError::InvalidThrift {
            offset: start,
            reason: "i32 value out of range",
        })
    }

    /// Read an `i64` (zigzag varint).
    #[inline]
    pub fn read_i64(&mut self) -> Result<i64> {
        Ok(zigzag_decode(self.read_varint()?))
    }

    /// Read a `double` (8 bytes little-endian).
    #[inline]
    pub fn read_double(&mut self) -> Result<f64> {
        let s = self.read_slice(8)?;
        let mut b = [0u8; 8];
        b.copy_from_slice(s);
        Ok(f64::from_le_bytes(b))
    }

    /// Read a boolean list element (one byte: 1 is true, 0 or 2 false).
    #[inline]
    pub fn read_bool_element(&mut self) -> Result<bool> {
        match self.read_byte()? {
            1 => Ok(true),
            0 | 2 => Ok(false),
            _ => Err(FormatError::InvalidThrift {
                offset: self.pos - 1,
                reason: "boolean element is not 0, 1 or 2",
            }),
        }
    }

    /// Read a length-prefixed byte string, borrowed from the input.
    #[inline]
    pub fn read_binary(&mut self) -> Result<&'a [u8]> {
        let len = self.read_varint()?;
        let len = usize::try_from(len).map_err(|_| self.eof(usize::MAX))?;
        self.read_slice(len)
    }

    /// Read a length-prefixed byte string like
    /// [`read_binary`](Self::read_binary), together with the 16 input bytes
    /// that start where the value starts, when the input holds that many.
    /// A caller copying a short value can move those 16 bytes at once and
    /// keep the value's length, instead of a copy of variable length.
    #[inline]
    pub(crate) fn read_binary_window(&mut self) -> Result<(&'a [u8], Option<&'a [u8; 16]>)> {
        let len = self.read_varint()?;
        let len = usize::try_from(len).map_err(|_| self.eof(usize::MAX))?;
        let window = self
            .data
            .get(self.pos..)
            .and_then(|rest| rest.first_chunk::<16>());
        Ok((self.read_slice(len)?, window))
    }

    /// Read a length-prefixed UTF-8 string into an owned `String`.
    #[inline]
    pub fn read_string(&mut self) -> Result<String> {
        let start = self.pos;
        let bytes = self.read_binary()?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => Err(FormatError::InvalidThrift {
                offset: start,
                reason: "string is not valid UTF-8",
            }),
        }
    }

    /// Enter a struct: check the depth limit and start a fresh field-id
    /// sequence. Pair with [`end_struct`](Self::end_struct).
    #[inline]
    pub fn begin_struct(&mut self) -> Result<StructState> {
        self.enter()?;
        let saved = StructState {
            last_field_id: self.last_field_id,
        };
        self.last_field_id = 0;
        Ok(saved)
    }

    /// Leave a struct entered with [`begin_struct`](Self::begin_struct),
    /// after [`next_field`](Self::next_field) returned `None`.
    #[inline]
    pub fn end_struct(&mut self, saved: StructState) {
        self.depth = self.depth.saturating_sub(1);
        self.last_field_id = saved.last_field_id;
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(FormatError::DepthLimit {
                limit: MAX_DEPTH,
                offset: self.pos,
            });
        }
        self.depth += 1;
        Ok(())
    }

    /// Read the next field header of the current struct, or `None` at its
    /// stop byte.
    #[inline]
    pub fn next_field(&mut self) -> Result<Option<FieldHeader>> {
        let b = self.read_byte()?;
        if b == 0 {
            return Ok(None);
        }
        let ty = match FieldType::from_nibble(b & 0x0F) {
            Some(t) => t,
            None => {
                return Err(FormatError::InvalidThrift {
                    offset: self.pos - 1,
                    reason: "unknown field wire type",
                });
            }
        };
        let delta = b >> 4;
        let id = if delta != 0 {
            self.last_field_id
                .checked_add(i16::from(delta))
                .ok_or_else(|| self.invalid("field id overflows i16"))?
        } else {
            self.read_i16()?
        };
        self.last_field_id = id;
        Ok(Some(FieldHeader { id, ty }))
    }

    /// Read field `f` into `slot` if its wire type is `T`'s; otherwise skip
    /// it like an unknown field (the Thrift specification allows either;
    /// some old writers reused field ids with other types).
    #[inline]
    pub fn read_into<T: ReadThrift>(&mut self, f: FieldHeader, slot: &mut Option<T>) -> Result<()> {
        if f.ty.same_kind(T::WIRE_TYPE) {
            *slot = Some(T::read_thrift(self)?);
            Ok(())
        } else {
            self.skip(f.ty)
        }
    }

    /// Store the value of a boolean field in `slot` (the value lives in the
    /// header's type nibble). A non-boolean field with this id is skipped.
    #[inline]
    pub fn bool_into(&mut self, f: FieldHeader, slot: &mut Option<bool>) -> Result<()> {
        match f.ty {
            FieldType::BoolTrue => *slot = Some(true),
            FieldType::BoolFalse => *slot = Some(false),
            other => self.skip(other)?,
        }
        Ok(())
    }

    /// Read a list or set header: element type and element count. The count
    /// is checked against the remaining bytes, using the element type's
    /// smallest encoding, so callers may allocate that many elements.
    ///
    /// The element type of an empty list is never looked at: some writers
    /// (fastparquet among them) write an empty list with element type 0,
    /// which is no wire type. Such a list reads as `(None, 0)`; a non-empty
    /// list whose element type is not a wire type is an error.
    #[inline]
    pub fn read_list_header(&mut self) -> Result<(Option<FieldType>, usize)> {
        let start = self.pos;
        let b = self.read_byte()?;
        let short = usize::from(b >> 4);
        let n = if short != 15 {
            short
        } else {
            let n = self.read_varint()?;
            if n > i32::MAX as u64 {
                return Err(FormatError::InvalidThrift {
                    offset: start,
                    reason: "list size exceeds i32::MAX",
                });
            }
            n as usize
        };
        let elem = FieldType::from_nibble(b & 0x0F);
        if n == 0 {
            return Ok((elem, 0));
        }
        let Some(elem) = elem else {
            return Err(FormatError::InvalidThrift {
                offset: start,
                reason: "unknown list element type",
            });
        };
        let need = n.saturating_mul(elem.min_encoded_len());
        if need > self.remaining() {
            return Err(FormatError::Eof {
                offset: self.pos,
                needed: need - self.remaining(),
            });
        }
        Ok((Some(elem), n))
    }

    /// Read the header of a list whose elements the schema says are of
    /// wire type `expected`, and return its element count (checked against
    /// the remaining bytes like [`read_list_header`](Self::read_list_header)).
    ///
    /// An empty list is accepted whatever its element type says, since no
    /// element is read by it. A non-empty list of another element type is
    /// an error: its elements cannot be read as the schema's.
    ///
    /// ```
    /// use strata_format::thrift::{CompactReader, FieldType};
    ///
    /// // An empty list with element type 0, as fastparquet writes it.
    /// assert_eq!(CompactReader::new(&[0x00]).read_list_header_of(FieldType::Struct).unwrap(), 0);
    /// // One i32 where structs are expected.
    /// assert!(CompactReader::new(&[0x15, 0x02]).read_list_header_of(FieldType::Struct).is_err());
    /// ```
    #[inline]
    pub fn read_list_header_of(&mut self, expected: FieldType) -> Result<usize> {
        let start = self.pos;
        match self.read_list_header()? {
            (_, 0) => Ok(0),
            (Some(elem), n) if elem.same_kind(expected) => Ok(n),
            _ => Err(FormatError::InvalidThrift {
                offset: start,
                reason: "list element type does not match the schema",
            }),
        }
    }

    /// Mark the start of a row group's column list: column chunks read after
    /// this are numbered from 0 for [`read_path_in_schema`](Self::read_path_in_schema).
    #[inline]
    pub(crate) fn start_row_group(&mut self) {
        self.chunk_ordinal = 0;
    }

    /// Reserve room for the shared paths of `columns` column chunks per row
    /// group (see [`read_path_in_schema`](Self::read_path_in_schema)), so
    /// the cache is not grown step by step. `columns` should be bounded by
    /// input already decoded, such as the schema's element count.
    pub(crate) fn reserve_paths(&mut self, columns: usize) {
        self.path_cache
            .reserve(columns.saturating_sub(self.path_cache.len()));
    }

    /// Read a column chunk's `path_in_schema` (a list of strings).
    ///
    /// Footers repeat every column's path once per row group. When the
    /// encoded path is byte-identical to the one at the same column position
    /// in the previous row group, the already decoded path is shared instead
    /// of allocated again. Sharing depends only on a byte comparison, so a
    /// malformed or unusual footer decodes exactly as without the cache.
    pub(crate) fn read_path_in_schema(&mut self) -> Result<Arc<[String]>> {
        let ordinal = self.chunk_ordinal;
        self.chunk_ordinal = self.chunk_ordinal.saturating_add(1);
        let start = self.pos;
        // A Thrift value's encoding determines where it ends, so when the
        // bytes here begin with the cached encoding, the list here is that
        // list, byte for byte: no need to walk it first.
        if let Some((cached_raw, path)) = self.path_cache.get(ordinal)
            && self
                .data
                .get(start..)
                .is_some_and(|rest| rest.starts_with(cached_raw))
        {
            self.pos = start + cached_raw.len();
            return Ok(Arc::clone(path));
        }
        self.skip(FieldType::List)?;
        let raw = self.data.get(start..self.pos).unwrap_or_default();
        self.pos = start;
        // Most paths have one part: build the shared slice in one
        // allocation instead of collecting a vector and copying it.
        let (elem, n) = self.read_list_header()?;
        let path: Arc<[String]> = if n == 1 && elem.is_some_and(|e| e.same_kind(FieldType::Binary))
        {
            self.enter()?;
            let part = self.read_string()?;
            self.depth -= 1;
            Arc::new([part])
        } else {
            self.pos = start;
            Arc::from(self.read_list::<String>()?)
        };
        if let Some(slot) = self.path_cache.get_mut(ordinal) {
            *slot = (raw, Arc::clone(&path));
        } else if ordinal == self.path_cache.len() {
            self.path_cache.push((raw, Arc::clone(&path)));
        }
        Ok(path)
    }

    /// Read a list of structs, decoding each one into a default value already
    /// in its place in the output vector (for large structs, this avoids
    /// moving each one through a `Result`).
    pub fn read_list_in_place<T: ReadThrift + Default>(
        &mut self,
        mut read: impl FnMut(&mut T, &mut Self) -> Result<()>,
    ) -> Result<Vec<T>> {
        let n = self.read_list_header_of(T::WIRE_TYPE)?;
        self.enter()?;
        let mut out: Vec<T> = Vec::with_capacity(n);
        // Defaults are written a block at a time, in place (a `push` of
        // each would build it aside and copy it), so a list whose declared
        // size runs past its data stops within one block of what decoded.
        const BLOCK: usize = 1024;
        while out.len() < n {
            let start = out.len();
            out.resize_with(start + (n - start).min(BLOCK), T::default);
            for item in &mut out[start..] {
                read(item, self)?;
            }
        }
        self.depth -= 1;
        Ok(out)
    }

    /// Read field `f` into `dst` if its wire type is `T`'s, returning
    /// `true`; otherwise skip it like an unknown field and return `false`.
    #[inline]
    pub fn read_field<T: ReadThrift>(&mut self, f: FieldHeader, dst: &mut T) -> Result<bool> {
        if f.ty.same_kind(T::WIRE_TYPE) {
            *dst = T::read_thrift(self)?;
            Ok(true)
        } else {
            self.skip(f.ty)?;
            Ok(false)
        }
    }

    /// Read a list of `T`.
    pub fn read_list<T: ReadThrift>(&mut self) -> Result<Vec<T>> {
        let n = self.read_list_header_of(T::WIRE_TYPE)?;
        self.enter()?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(T::read_thrift(self)?);
        }
        self.depth -= 1;
        Ok(out)
    }

    /// Skip one value of wire type `ty` (for unknown fields), honouring the
    /// depth limit.
    pub fn skip(&mut self, ty: FieldType) -> Result<()> {
        match ty {
            // A boolean field's value is in its header; nothing follows.
            FieldType::BoolTrue | FieldType::BoolFalse => Ok(()),
            FieldType::I8 => self.read_byte().map(drop),
            FieldType::I16 | FieldType::I32 | FieldType::I64 => self.read_varint().map(drop),
            FieldType::Double => self.read_slice(8).map(drop),
            FieldType::Uuid => self.read_slice(16).map(drop),
            FieldType::Binary => self.read_binary().map(drop),
            FieldType::List | FieldType::Set => {
                // An empty list's element type may be anything (see
                // `read_list_header`); a non-empty one's is known.
                let (Some(elem), n) = self.read_list_header()? else {
                    return Ok(());
                };
                self.enter()?;
                // The common element types in a tight loop of their own.
                match elem {
                    FieldType::I16 | FieldType::I32 | FieldType::I64 => {
                        for _ in 0..n {
                            self.read_varint()?;
                        }
                    }
                    FieldType::Binary => {
                        for _ in 0..n {
                            self.read_binary()?;
                        }
                    }
                    FieldType::Struct => {
                        for _ in 0..n {
                            self.skip_struct()?;
                        }
                    }
                    other => {
                        for _ in 0..n {
                            self.skip_element(other)?;
                        }
                    }
                }
                self.depth -= 1;
                Ok(())
            }
            FieldType::Map => {
                let start = self.pos;
                let n = self.read_varint()?;
                if n == 0 {
                    return Ok(());
                }
                let kv = self.read_byte()?;
                let (k, v) = match (
                    FieldType::from_nibble(kv >> 4),
                    FieldType::from_nibble(kv & 0x0F),
                ) {
                    (Some(k), Some(v)) => (k, v),
                    _ => {
                        return Err(FormatError::InvalidThrift {
                            offset: start,
                            reason: "unknown map key or value type",
                        });
                    }
                };
                let per = k.min_encoded_len() + v.min_encoded_len();
                if n > i32::MAX as u64 || (n as usize).saturating_mul(per) > self.remaining() {
                    return Err(FormatError::Eof {
                        offset: self.pos,
                        needed: (n as usize).saturating_mul(per),
                    });
                }
                self.enter()?;
                for _ in 0..n {
                    self.skip_element(k)?;
                    self.skip_element(v)?;
                }
                self.depth -= 1;
                Ok(())
            }
            FieldType::Struct => self.skip_struct(),
        }
    }

    /// Skip a struct, up to and including its stop byte. The same checks
    /// as reading it field by field with [`next_field`](Self::next_field)
    /// and [`skip`](Self::skip) (wire types, field ids within `i16`,
    /// varints, lengths, the depth limit), in the same order, so it fails
    /// where and as they would; but it builds no field header, keeps the
    /// ids in a local and skips the common wire types in place, which
    /// makes skipped chunk statistics or a walked footer cheaper than a
    /// decoded one.
    fn skip_struct(&mut self) -> Result<()> {
        self.enter()?;
        let mut last_id: i16 = 0;
        loop {
            let header = self.read_byte()?;
            if header == 0 {
                break;
            }
            let nibble = header & 0x0F;
            if !(1..=13).contains(&nibble) {
                return Err(FormatError::InvalidThrift {
                    offset: self.pos - 1,
                    reason: "unknown field wire type",
                });
            }
            let delta = header >> 4;
            last_id = if delta != 0 {
                last_id
                    .checked_add(i16::from(delta))
                    .ok_or_else(|| self.invalid("field id overflows i16"))?
            } else {
                self.read_i16()?
            };
            match nibble {
                // A boolean's value is in its header.
                1 | 2 => {}
                3 => drop(self.read_byte()?),
                4..=6 => drop(self.read_varint()?),
                7 => drop(self.read_slice(8)?),
                8 => drop(self.read_binary()?),
                9 => self.skip(FieldType::List)?,
                10 => self.skip(FieldType::Set)?,
                11 => self.skip(FieldType::Map)?,
                12 => self.skip_struct()?,
                _ => drop(self.read_slice(16)?),
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Skip one container element: like [`skip`](Self::skip), except that
    /// booleans take a byte.
    fn skip_element(&mut self, ty: FieldType) -> Result<()> {
        match ty {
            FieldType::BoolTrue | FieldType::BoolFalse => self.read_byte().map(drop),
            other => self.skip(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::{
        ColumnMetaData, EncodingSet, FileMetaData, KeyValue, PageEncodingStatsList, RowGroup,
    };
    use crate::thrift::{CompactWriter, decode};
    use smallvec::SmallVec;
    use strata_sink::ByteSink;

    /// The field-by-field skip that the struct and list fast paths of
    /// [`CompactReader::skip`] replaced, kept as their oracle: built only on
    /// `begin_struct`, `next_field`, `read_list_header` and the scalar
    /// reads, never on the fast paths.
    fn skip_by_fields(r: &mut CompactReader<'_>, ty: FieldType) -> Result<()> {
        let element = |r: &mut CompactReader<'_>, ty: FieldType| match ty {
            FieldType::BoolTrue | FieldType::BoolFalse => r.read_byte().map(drop),
            other => skip_by_fields(r, other),
        };
        match ty {
            FieldType::List | FieldType::Set => {
                let (Some(elem), n) = r.read_list_header()? else {
                    return Ok(());
                };
                r.enter()?;
                for _ in 0..n {
                    element(r, elem)?;
                }
                r.depth -= 1;
                Ok(())
            }
            FieldType::Map => {
                let start = r.pos;
                let n = r.read_varint()?;
                if n == 0 {
                    return Ok(());
                }
                let kv = r.read_byte()?;
                let (Some(k), Some(v)) = (
                    FieldType::from_nibble(kv >> 4),
                    FieldType::from_nibble(kv & 0x0F),
                ) else {
                    return Err(FormatError::InvalidThrift {
                        offset: start,
                        reason: "unknown map key or value type",
                    });
                };
                let per = k.min_encoded_len() + v.min_encoded_len();
                if n > i32::MAX as u64 || (n as usize).saturating_mul(per) > r.remaining() {
                    return Err(FormatError::Eof {
                        offset: r.pos,
                        needed: (n as usize).saturating_mul(per),
                    });
                }
                r.enter()?;
                for _ in 0..n {
                    element(r, k)?;
                    element(r, v)?;
                }
                r.depth -= 1;
                Ok(())
            }
            FieldType::Struct => {
                let saved = r.begin_struct()?;
                while let Some(f) = r.next_field()? {
                    skip_by_fields(r, f.ty)?;
                }
                r.end_struct(saved);
                Ok(())
            }
            // The scalar arms are the same code in both.
            scalar => r.skip(scalar),
        }
    }

    /// What skipping one `ty` from the start of `bytes` gives: the end
    /// position or the error, by the fast paths and by the oracle.
    fn both_skips(bytes: &[u8], ty: FieldType) -> (String, String) {
        let mut fast = CompactReader::new(bytes);
        let fast = fast.skip(ty).map(|()| fast.position());
        let mut oracle = CompactReader::new(bytes);
        let oracle = skip_by_fields(&mut oracle, ty).map(|()| oracle.position());
        (format!("{fast:?}"), format!("{oracle:?}"))
    }

    /// A struct with every wire type: short and long field headers, a list
    /// of structs, of i32s, of binaries, a map with struct values, nested
    /// structs, booleans, a double and a UUID.
    fn every_wire_type() -> Vec<u8> {
        let mut b = vec![0x15, 0x0A, 0x18, 0x03, b'a', b'b', b'c'];
        b.extend([0x19, 0x2C, 0x16, 0xD8, 0x04, 0x00, 0x11, 0x00]);
        b.push(0x17);
        b.extend(1.5f64.to_le_bytes());
        b.extend([0x04, 0x28, 0x02, 0x13, 0x7F]);
        b.extend([0x1C, 0x19, 0x35, 0x02, 0x04, 0x06, 0x00]);
        b.extend([0x19, 0x18, 0x01, b'x']);
        b.extend([0x1B, 0x01, 0x5C, 0x02, 0x12, 0x00]);
        b.extend([0x1A, 0x01, 0x15, 0x00]);
        b.push(0x1D);
        b.extend([7u8; 16]);
        b.push(0x00);
        b
    }

    #[test]
    fn fast_skip_agrees_with_the_field_by_field_skip() {
        let bytes = every_wire_type();
        let (fast, oracle) = both_skips(&bytes, FieldType::Struct);
        assert_eq!(fast, format!("Ok({})", bytes.len()));
        assert_eq!(fast, oracle);
        // Every prefix, and every byte replaced by a handful of values.
        for len in 0..bytes.len() {
            let (fast, oracle) = both_skips(&bytes[..len], FieldType::Struct);
            assert_eq!(fast, oracle, "prefix of {len} bytes");
        }
        for at in 0..bytes.len() {
            for value in [0x00, 0x01, 0x0C, 0x0F, 0x19, 0x7F, 0x80, 0xF0, 0xFF] {
                let mut mutated = bytes.clone();
                mutated[at] = value;
                for ty in [FieldType::Struct, FieldType::List] {
                    let (fast, oracle) = both_skips(&mutated, ty);
                    assert_eq!(fast, oracle, "byte {at} set to {value:#04x}, {ty:?}");
                }
            }
        }
        // Nesting past the depth limit fails at the same place both ways.
        let mut deep = vec![0x1C; MAX_DEPTH + 2];
        deep.extend(vec![0x00; MAX_DEPTH + 2]);
        let (fast, oracle) = both_skips(&deep, FieldType::Struct);
        assert!(fast.contains("DepthLimit"), "{fast}");
        assert_eq!(fast, oracle);
    }

    proptest::proptest! {
        #[test]
        fn fast_skip_agrees_on_any_bytes(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..96),
        ) {
            for ty in [FieldType::Struct, FieldType::List, FieldType::Map] {
                let (fast, oracle) = both_skips(&bytes, ty);
                proptest::prop_assert_eq!(fast, oracle);
            }
        }
    }

    /// The reason of an `InvalidThrift` error, or a panic naming what came
    /// instead.
    fn invalid_reason<T: std::fmt::Debug>(r: Result<T>) -> &'static str {
        match r {
            Err(FormatError::InvalidThrift { reason, .. }) => reason,
            other => panic!("expected InvalidThrift, got {other:?}"),
        }
    }

    /// Every empty list header a writer might emit: element type 0 (what
    /// fastparquet writes), a type other than the schema's, the two nibbles
    /// that are no wire type, each in the short and the long form.
    fn empty_list_headers() -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for nibble in [0u8, 1, 2, 5, 8, 12, 13, 14, 15] {
            out.push(vec![nibble]);
            out.push(vec![0xF0 | nibble, 0x00]);
        }
        out
    }

    #[test]
    fn empty_list_of_any_element_type_reads_as_empty() {
        for header in empty_list_headers() {
            let what = format!("header {header:02x?}");
            assert!(decode::<Vec<KeyValue>>(&header).expect(&what).is_empty());
            assert!(decode::<Vec<i64>>(&header).expect(&what).is_empty());
            assert!(decode::<Vec<String>>(&header).expect(&what).is_empty());
            assert!(decode::<Box<[i32]>>(&header).expect(&what).is_empty());
            assert!(
                decode::<SmallVec<[i32; 4]>>(&header)
                    .expect(&what)
                    .is_empty()
            );
            assert!(decode::<EncodingSet>(&header).expect(&what).is_empty());
            assert!(
                decode::<PageEncodingStatsList>(&header)
                    .expect(&what)
                    .is_empty()
            );
            let mut r = CompactReader::new(&header);
            let rows: Vec<RowGroup> = r.read_list_in_place(|_, _| Ok(())).expect(&what);
            assert!(rows.is_empty());
            // The header is consumed, nothing more.
            assert_eq!(r.position(), header.len(), "{what}");

            let mut r = CompactReader::new(&header);
            let (elem, n) = r.read_list_header().expect(&what);
            assert_eq!((elem, n), (FieldType::from_nibble(header[0] & 0x0F), 0));
        }
    }

    #[test]
    fn non_empty_list_of_another_element_type_is_refused() {
        // One i32 (zigzag 1) where structs are expected: short and long form.
        for bytes in [&[0x15, 0x02][..], &[0xF5, 0x01, 0x02]] {
            assert_eq!(
                invalid_reason(decode::<Vec<KeyValue>>(bytes)),
                "list element type does not match the schema"
            );
            assert_eq!(
                invalid_reason(decode::<PageEncodingStatsList>(bytes)),
                "list element type does not match the schema"
            );
            let mut r = CompactReader::new(bytes);
            assert_eq!(
                invalid_reason(r.read_list_in_place::<RowGroup>(|_, _| Ok(()))),
                "list element type does not match the schema"
            );
        }
        // One string where i32 are expected.
        for bytes in [&[0x18, 0x01, b'a'][..], &[0xF8, 0x01, 0x01, b'a']] {
            assert_eq!(
                invalid_reason(decode::<Vec<i32>>(bytes)),
                "list element type does not match the schema"
            );
            assert_eq!(
                invalid_reason(decode::<EncodingSet>(bytes)),
                "list element type does not match the schema"
            );
            assert_eq!(
                invalid_reason(decode::<SmallVec<[i32; 4]>>(bytes)),
                "list element type does not match the schema"
            );
        }
        // One element of type 0, 14 or 15: no wire type says how to read it.
        for nibble in [0u8, 14, 15] {
            let short = [0x10 | nibble, 0x02];
            let long = [0xF0 | nibble, 0x01, 0x02];
            for bytes in [&short[..], &long[..]] {
                let mut r = CompactReader::new(bytes);
                assert_eq!(
                    invalid_reason(r.read_list_header()),
                    "unknown list element type"
                );
                assert_eq!(
                    invalid_reason(decode::<Vec<i32>>(bytes)),
                    "unknown list element type"
                );
            }
        }
        // The two boolean codes are one type: a list of bools written with
        // either reads.
        assert_eq!(decode::<Vec<bool>>(&[0x11, 1]).unwrap(), [true]);
        assert_eq!(decode::<Vec<bool>>(&[0x12, 1]).unwrap(), [true]);
    }

    /// A `KeyValue` with an unknown field 3 holding the given list bytes.
    fn key_value_with_list_field(list: &[u8]) -> Vec<u8> {
        let mut bytes = vec![0x18, 0x01, b'k', 0x18, 0x01, b'v', 0x19];
        bytes.extend_from_slice(list);
        bytes.push(0x00);
        bytes
    }

    #[test]
    fn unknown_list_field_is_skipped_when_empty_and_refused_when_unreadable() {
        let expected = KeyValue {
            key: "k".into(),
            value: Some("v".into()),
        };
        for header in empty_list_headers() {
            let bytes = key_value_with_list_field(&header);
            assert_eq!(decode::<KeyValue>(&bytes).unwrap(), expected);
        }
        // A non-empty list of a known type is skipped element by element.
        let bytes = key_value_with_list_field(&[0x25, 0x02, 0x04]);
        assert_eq!(decode::<KeyValue>(&bytes).unwrap(), expected);
        // A non-empty list of no wire type cannot be skipped: its length is
        // unknown.
        for nibble in [0u8, 14, 15] {
            let bytes = key_value_with_list_field(&[0x10 | nibble, 0x02]);
            assert_eq!(
                invalid_reason(decode::<KeyValue>(&bytes)),
                "unknown list element type"
            );
        }
    }

    #[test]
    fn unknown_optional_fields_are_skipped_until_their_type_is_unknown() {
        // KeyValue with unknown fields 3 (i64), 4 (struct holding a list)
        // and 100 (binary, long-form header) around the known ones.
        let mut sink = ByteSink::new();
        let mut w = CompactWriter::new(&mut sink);
        let s = w.begin_struct();
        w.binary_field(1, b"k");
        w.i64_field(3, -7);
        w.field_header(4, FieldType::Struct);
        w.field(1, &vec![1i32, 2, 3]);
        w.write_byte(0);
        w.binary_field(100, b"later");
        w.binary_field(2, b"v");
        w.end_struct(s);
        let kv = decode::<KeyValue>(sink.as_slice()).unwrap();
        assert_eq!((kv.key.as_str(), kv.value.as_deref()), ("k", Some("v")));

        // A field whose wire type is 14 or 15 has no known length: an error,
        // not a guess.
        for ty in [14u8, 15] {
            let bytes = [0x18, 0x01, b'k', 0x30 | ty, 0x00, 0x00];
            assert_eq!(
                invalid_reason(decode::<KeyValue>(&bytes)),
                "unknown field wire type"
            );
        }
    }

    /// A footer shaped like fastparquet's for a frame of no rows: empty
    /// `row_groups` and `key_value_metadata` lists with element type 0, and
    /// an unknown optional field.
    #[test]
    fn fastparquet_style_footer_with_empty_lists_decodes() {
        let mut sink = ByteSink::new();
        let mut w = CompactWriter::new(&mut sink);
        let s = w.begin_struct();
        w.i32_field(1, 1);
        w.field(
            2,
            &vec![crate::metadata::SchemaElement {
                name: "schema".into(),
                num_children: Some(0),
                ..Default::default()
            }],
        );
        w.i64_field(3, 0);
        w.field_header(4, FieldType::List);
        w.write_byte(0x00);
        w.field_header(5, FieldType::List);
        w.write_byte(0x00);
        w.binary_field(6, b"fastparquet-python version 2026.9.0");
        w.i32_field(30, 5);
        w.end_struct(s);
        let meta = decode::<FileMetaData>(sink.as_slice()).unwrap();
        assert!(meta.row_groups.is_empty());
        assert_eq!(meta.key_value_metadata, Some(Vec::new()));
        assert_eq!(meta.num_rows, 0);
        assert_eq!(meta.schema.len(), 1);
        assert_eq!(
            meta.created_by.as_deref(),
            Some("fastparquet-python version 2026.9.0")
        );

        // The same footer with one row group listed under element type 0
        // is refused: its row group cannot be read.
        let mut bytes = sink.as_slice().to_vec();
        let at = bytes
            .windows(2)
            .position(|p| p == [0x19, 0x00])
            .expect("the row_groups header");
        bytes[at + 1] = 0x10;
        bytes.insert(at + 2, 0x00);
        assert!(decode::<FileMetaData>(&bytes).is_err());
    }

    #[test]
    fn column_metadata_with_empty_lists_of_type_zero_decodes() {
        // ColumnMetaData with every required field, its `encodings` and
        // `path_in_schema` empty lists of element type 0.
        let mut sink = ByteSink::new();
        let mut w = CompactWriter::new(&mut sink);
        let s = w.begin_struct();
        w.i32_field(1, 1);
        w.field_header(2, FieldType::List);
        w.write_byte(0x00);
        w.field_header(3, FieldType::List);
        w.write_byte(0x00);
        w.i32_field(4, 0);
        w.i64_field(5, 0);
        w.i64_field(6, 0);
        w.i64_field(7, 0);
        w.field_header(8, FieldType::List);
        w.write_byte(0x00);
        w.i64_field(9, 4);
        w.end_struct(s);
        let meta = decode::<ColumnMetaData>(sink.as_slice()).unwrap();
        assert!(meta.encodings.is_empty());
        assert!(meta.path_in_schema.is_empty());
    }
}
