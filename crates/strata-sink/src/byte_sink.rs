//! [`ByteSink`]: the append-only byte buffer every encoder writes into.
//!
//! The sink is a thin layer over `Vec<u8>` with little-endian puts and one
//! batch primitive, [`ByteSink::reserved_region`], that grows the buffer once
//! for a whole batch and hands out the new bytes as a plain slice. Encoders use
//! it to write thousands of values with a single capacity check (the lesson of
//! arrow-go's batched PLAIN `BYTE_ARRAY` encoder), and [`RegionWriter`] keeps
//! the cursor arithmetic in one place.

/// An append-only, growable byte buffer.
///
/// `clear` keeps the allocation so a sink can be reused page after page, and
/// the finished bytes move into a `Vec<u8>` without a copy (which an Arrow
/// `Buffer` can take over as it is, with `Buffer::from_vec`).
///
/// ```
/// use strata_sink::ByteSink;
///
/// let mut sink = ByteSink::new();
/// sink.put_u32_le(3);
/// sink.extend_from_slice(b"abc");
/// assert_eq!(sink.as_slice(), &[3, 0, 0, 0, b'a', b'b', b'c']);
///
/// // Batch path: one reservation, then direct writes.
/// let mut region = sink.reserved_region(8);
/// region.put_u32_le(1);
/// region.put_slice(b"xyzw");
/// assert_eq!(sink.len(), 15);
/// ```
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ByteSink {
    buf: Vec<u8>,
}

impl ByteSink {
    /// An empty sink. It holds no heap memory until the first write.
    pub const fn new() -> Self {
        Self { buf: Vec::new() }
    }

    /// An empty sink with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            buf: Vec::with_capacity(capacity),
        }
    }

    /// Make room for at least `additional` more bytes.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// Number of bytes written.
    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing has been written.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Bytes of heap memory held.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Forget the contents but keep the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// Drop everything after the first `len` bytes.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }

    /// The bytes written so far.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// The bytes written so far, mutably (for patching a length prefix).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.buf
    }

    /// Append a byte slice.
    #[inline]
    pub fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Append one byte.
    #[inline]
    pub fn put_u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Append `n` copies of `byte`.
    #[inline]
    pub fn put_repeated(&mut self, byte: u8, n: usize) {
        self.buf.resize(self.buf.len() + n, byte);
    }

    /// Append a little-endian `u16`.
    #[inline]
    pub fn put_u16_le(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append a little-endian `u32`.
    #[inline]
    pub fn put_u32_le(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append a little-endian `u64`.
    #[inline]
    pub fn put_u64_le(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append a little-endian `i32`.
    #[inline]
    pub fn put_i32_le(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append a little-endian `i64`.
    #[inline]
    pub fn put_i64_le(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append a little-endian `f32`.
    #[inline]
    pub fn put_f32_le(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append a little-endian `f64`.
    #[inline]
    pub fn put_f64_le(&mut self, v: f64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Append an unsigned LEB128 varint.
    #[inline]
    pub fn put_uleb128(&mut self, v: u64) {
        let mut tmp = [0u8; crate::varint::MAX_VARINT_LEN_64];
        let n = crate::varint::encode_uleb128(v, &mut tmp);
        self.buf.extend_from_slice(&tmp[..n]);
    }

    /// Append a zigzag-encoded signed LEB128 varint.
    #[inline]
    pub fn put_zigzag(&mut self, v: i64) {
        self.put_uleb128(crate::varint::zigzag_encode(v));
    }

    /// Grow the sink by exactly `n` bytes in one step and return a writer over
    /// them.
    ///
    /// The new bytes start zeroed. Callers compute the encoded size of a whole
    /// batch first, take the region, then write every value into it with no
    /// capacity check per value. Bytes of the region that are not written stay
    /// zero.
    #[inline]
    pub fn reserved_region(&mut self, n: usize) -> RegionWriter<'_> {
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        RegionWriter {
            out: &mut self.buf[start..],
            pos: 0,
        }
    }

    /// Grow the sink by `n` zeroed bytes and return them for direct writing
    /// (for kernels that fill a slice, such as [`crate::bitpack::pack64`]).
    #[inline]
    pub fn append_zeroed(&mut self, n: usize) -> &mut [u8] {
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        &mut self.buf[start..]
    }

    /// Borrow the underlying vector (for APIs that want `Vec<u8>`).
    #[inline]
    pub fn as_mut_vec(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Take the bytes, leaving the sink empty with no allocation.
    #[inline]
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.buf)
    }

    /// The bytes as a `Vec<u8>`, without copying.
    #[inline]
    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }
}

impl From<Vec<u8>> for ByteSink {
    fn from(buf: Vec<u8>) -> Self {
        Self { buf }
    }
}

impl From<ByteSink> for Vec<u8> {
    fn from(sink: ByteSink) -> Self {
        sink.buf
    }
}

impl AsRef<[u8]> for ByteSink {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

impl std::io::Write for ByteSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A cursor over a region of a [`ByteSink`] reserved by
/// [`ByteSink::reserved_region`].
///
/// Writes past the end of the region are a caller bug: they panic in debug
/// and release builds alike through slice indexing, never write out of
/// bounds. Encoders size the region exactly, so this never happens on any
/// input.
#[derive(Debug)]
pub struct RegionWriter<'a> {
    out: &'a mut [u8],
    pos: usize,
}

impl RegionWriter<'_> {
    /// Bytes written into the region so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes of the region not yet written.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.out.len() - self.pos
    }

    /// Write a byte slice at the cursor.
    #[inline]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        let end = self.pos + bytes.len();
        self.out[self.pos..end].copy_from_slice(bytes);
        self.pos = end;
    }

    /// Write a little-endian `u32` at the cursor.
    #[inline]
    pub fn put_u32_le(&mut self, v: u32) {
        self.put_slice(&v.to_le_bytes());
    }

    /// Write a length-prefixed byte string (`u32` little-endian length, then
    /// the bytes): the PLAIN encoding of one `BYTE_ARRAY` value.
    #[inline]
    pub fn put_len_prefixed(&mut self, bytes: &[u8]) {
        let end = self.pos + 4 + bytes.len();
        let dst = &mut self.out[self.pos..end];
        let (len_dst, payload_dst) = dst.split_at_mut(4);
        len_dst.copy_from_slice(&(bytes.len() as u32).to_le_bytes());
        payload_dst.copy_from_slice(bytes);
        self.pos = end;
    }

    /// Skip `n` bytes, leaving them zero.
    #[inline]
    pub fn skip(&mut self, n: usize) {
        assert!(n <= self.remaining(), "RegionWriter::skip past the region");
        self.pos += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn new_sink_holds_no_heap() {
        assert_eq!(ByteSink::new().capacity(), 0);
    }

    #[test]
    fn little_endian_puts() {
        let mut s = ByteSink::new();
        s.put_u8(1);
        s.put_u16_le(0x0302);
        s.put_u32_le(0x0706_0504);
        s.put_u64_le(0x0F0E_0D0C_0B0A_0908);
        s.put_i32_le(-1);
        s.put_i64_le(-2);
        s.put_f32_le(1.0);
        s.put_f64_le(-0.0);
        let b = s.as_slice();
        assert_eq!(&b[..15], &(1u8..=15).collect::<Vec<_>>()[..]);
        assert_eq!(&b[15..19], &[0xFF; 4]);
        assert_eq!(&b[19..27], &(-2i64).to_le_bytes());
        assert_eq!(&b[27..31], &[0, 0, 0x80, 0x3F]);
        assert_eq!(&b[31..39], &[0, 0, 0, 0, 0, 0, 0, 0x80]);
    }

    #[test]
    fn clear_keeps_capacity() {
        let mut s = ByteSink::with_capacity(64);
        s.extend_from_slice(&[1; 40]);
        let cap = s.capacity();
        s.clear();
        assert!(s.is_empty());
        assert_eq!(s.capacity(), cap);
    }

    #[test]
    fn conversions_do_not_copy() {
        let mut s = ByteSink::new();
        s.extend_from_slice(b"hello world");
        let ptr = s.as_slice().as_ptr();
        let v = s.into_vec();
        assert_eq!(v.as_ptr(), ptr);
        assert_eq!(v, b"hello world");
    }

    #[test]
    fn region_writes_exactly_what_was_reserved() {
        let mut s = ByteSink::new();
        s.put_u8(0xAA);
        let values: [&[u8]; 3] = [b"ab", b"", b"xyz"];
        let size: usize = values.iter().map(|v| 4 + v.len()).sum();
        let mut region = s.reserved_region(size);
        for v in values {
            region.put_len_prefixed(v);
        }
        assert_eq!(region.remaining(), 0);
        assert_eq!(
            s.as_slice(),
            &[
                0xAA, 2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0, 3, 0, 0, 0, b'x', b'y', b'z'
            ]
        );
    }

    proptest! {
        #[test]
        fn region_matches_plain_appends(values in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..50)) {
            let mut batch = ByteSink::new();
            let size: usize = values.iter().map(|v| 4 + v.len()).sum();
            let mut region = batch.reserved_region(size);
            for v in &values {
                region.put_len_prefixed(v);
            }
            let mut single = ByteSink::new();
            for v in &values {
                single.put_u32_le(v.len() as u32);
                single.extend_from_slice(v);
            }
            prop_assert_eq!(batch.as_slice(), single.as_slice());
        }

        #[test]
        fn varint_puts_decode(v: u64, z: i64) {
            let mut s = ByteSink::new();
            s.put_uleb128(v);
            s.put_zigzag(z);
            let (got, n) = crate::varint::decode_uleb128(s.as_slice()).unwrap();
            prop_assert_eq!(got, v);
            let (zz, _) = crate::varint::decode_uleb128(&s.as_slice()[n..]).unwrap();
            prop_assert_eq!(crate::varint::zigzag_decode(zz), z);
        }
    }
}
