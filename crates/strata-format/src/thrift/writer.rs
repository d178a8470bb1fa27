//! [`CompactWriter`]: encoding the Thrift compact protocol into a
//! [`ByteSink`].

use super::{FieldType, WriteThrift};
use strata_sink::ByteSink;

/// Writes compact-protocol values into a [`ByteSink`].
///
/// It tracks the last field id of the struct being written so field headers
/// use the one-byte delta form whenever the delta is 1..=15.
///
/// ```
/// use strata_format::thrift::CompactWriter;
/// use strata_sink::ByteSink;
///
/// let mut sink = ByteSink::new();
/// let mut w = CompactWriter::new(&mut sink);
/// let saved = w.begin_struct();
/// w.i32_field(1, 7);
/// w.bool_field(3, true);
/// w.end_struct(saved);
/// assert_eq!(sink.as_slice(), &[0x15, 14, 0x21, 0x00]);
/// ```
#[derive(Debug)]
pub struct CompactWriter<'a> {
    sink: &'a mut ByteSink,
    last_field_id: i16,
}

/// State saved by [`CompactWriter::begin_struct`] and restored by
/// [`CompactWriter::end_struct`].
#[derive(Debug, Clone, Copy)]
#[must_use = "pass it to end_struct"]
pub struct WriterStructState {
    last_field_id: i16,
}

impl<'a> CompactWriter<'a> {
    /// A writer appending to `sink`.
    pub fn new(sink: &'a mut ByteSink) -> Self {
        Self {
            sink,
            last_field_id: 0,
        }
    }

    /// Start a struct: field ids restart from zero.
    #[inline]
    pub fn begin_struct(&mut self) -> WriterStructState {
        let saved = WriterStructState {
            last_field_id: self.last_field_id,
        };
        self.last_field_id = 0;
        saved
    }

    /// Write the stop byte and return to the enclosing struct's field ids.
    #[inline]
    pub fn end_struct(&mut self, saved: WriterStructState) {
        self.sink.put_u8(0);
        self.last_field_id = saved.last_field_id;
    }

    /// Write a field header for field `id` of wire type `ty`.
    #[inline]
    pub fn field_header(&mut self, id: i16, ty: FieldType) {
        let delta = i32::from(id) - i32::from(self.last_field_id);
        if (1..=15).contains(&delta) {
            self.sink.put_u8(((delta as u8) << 4) | ty as u8);
        } else {
            self.sink.put_u8(ty as u8);
            self.sink.put_zigzag(i64::from(id));
        }
        self.last_field_id = id;
    }

    /// Write a raw byte.
    #[inline]
    pub fn write_byte(&mut self, b: u8) {
        self.sink.put_u8(b);
    }

    /// Write an `i8` (one byte).
    #[inline]
    pub fn write_i8(&mut self, v: i8) {
        self.sink.put_u8(v as u8);
    }

    /// Write an `i16` as a zigzag varint.
    #[inline]
    pub fn write_i16(&mut self, v: i16) {
        self.sink.put_zigzag(i64::from(v));
    }

    /// Write an `i32` as a zigzag varint.
    #[inline]
    pub fn write_i32(&mut self, v: i32) {
        self.sink.put_zigzag(i64::from(v));
    }

    /// Write an `i64` as a zigzag varint.
    #[inline]
    pub fn write_i64(&mut self, v: i64) {
        self.sink.put_zigzag(v);
    }

    /// Write a `double` as 8 bytes little-endian.
    #[inline]
    pub fn write_double(&mut self, v: f64) {
        self.sink.put_f64_le(v);
    }

    /// Write a boolean list element (1 for true, 0 for false).
    #[inline]
    pub fn write_bool_element(&mut self, v: bool) {
        self.sink.put_u8(u8::from(v));
    }

    /// Write length-prefixed bytes.
    #[inline]
    pub fn write_binary(&mut self, v: &[u8]) {
        self.sink.put_uleb128(v.len() as u64);
        self.sink.extend_from_slice(v);
    }

    /// Write a list header for `n` elements of wire type `elem`.
    #[inline]
    pub fn write_list_header(&mut self, elem: FieldType, n: usize) {
        if n < 15 {
            self.sink.put_u8(((n as u8) << 4) | elem as u8);
        } else {
            self.sink.put_u8(0xF0 | elem as u8);
            self.sink.put_uleb128(n as u64);
        }
    }

    /// Write a list of values.
    pub fn write_list<T: WriteThrift>(&mut self, items: &[T]) {
        self.write_list_header(T::WIRE_TYPE, items.len());
        for item in items {
            item.write_thrift(self);
        }
    }

    /// Write a boolean field (the value goes in the header).
    #[inline]
    pub fn bool_field(&mut self, id: i16, v: bool) {
        let ty = if v {
            FieldType::BoolTrue
        } else {
            FieldType::BoolFalse
        };
        self.field_header(id, ty);
    }

    /// Write an `i8` field.
    #[inline]
    pub fn i8_field(&mut self, id: i16, v: i8) {
        self.field_header(id, FieldType::I8);
        self.write_i8(v);
    }

    /// Write an `i16` field.
    #[inline]
    pub fn i16_field(&mut self, id: i16, v: i16) {
        self.field_header(id, FieldType::I16);
        self.write_i16(v);
    }

    /// Write an `i32` field.
    #[inline]
    pub fn i32_field(&mut self, id: i16, v: i32) {
        self.field_header(id, FieldType::I32);
        self.write_i32(v);
    }

    /// Write an `i64` field.
    #[inline]
    pub fn i64_field(&mut self, id: i16, v: i64) {
        self.field_header(id, FieldType::I64);
        self.write_i64(v);
    }

    /// Write a `double` field.
    #[inline]
    pub fn double_field(&mut self, id: i16, v: f64) {
        self.field_header(id, FieldType::Double);
        self.write_double(v);
    }

    /// Write a `binary` (or `string`) field.
    #[inline]
    pub fn binary_field(&mut self, id: i16, v: &[u8]) {
        self.field_header(id, FieldType::Binary);
        self.write_binary(v);
    }

    /// Write any [`WriteThrift`] value as field `id` (structs, unions,
    /// enums, lists).
    #[inline]
    pub fn field<T: WriteThrift + ?Sized>(&mut self, id: i16, v: &T) {
        self.field_header(id, T::WIRE_TYPE);
        v.write_thrift(self);
    }

    /// Write an empty struct as field `id` (the members of Parquet's
    /// "marker" unions such as `LogicalType::STRING`).
    #[inline]
    pub fn empty_struct_field(&mut self, id: i16) {
        self.field_header(id, FieldType::Struct);
        self.sink.put_u8(0);
    }
}
