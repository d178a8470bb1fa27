//! Appending many short byte strings to one `Vec<u8>`.
//!
//! Decoding a page of strings, or gathering them from a dictionary, appends
//! millions of values of a few bytes each. `Vec::extend_from_slice` pays
//! for each one a capacity check, a length update and a copy of a length
//! known only at run time (a call to `memcpy`). [`ShortAppender`] instead
//! copies a value of up to [`OVERCOPY`] bytes as one fixed-size move of
//! `OVERCOPY` bytes into the vector's spare capacity and advances its own
//! count by the value's length; the bytes past the value are overwritten by
//! the next one, or lie beyond the length the vector ends with.
//!
//! Invariant: every byte of the vector below the appender's count has been
//! written. The vector's length is set to that count when the appender is
//! dropped, and before any call that may grow the vector.

/// The size of the fixed copy [`ShortAppender::push_chunk`] makes.
pub const OVERCOPY: usize = 32;

/// Appends byte strings to a `Vec<u8>` (see the [module docs](self)).
///
/// Reserve room first (the total length plus [`OVERCOPY`]) and every
/// value goes by the fixed copy; without room, a value is appended the
/// ordinary way and the vector grows.
///
/// ```
/// use strata_sink::append::{ShortAppender, OVERCOPY};
/// let page = *b"ab_cde_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
/// let mut out = Vec::with_capacity(5 + OVERCOPY);
/// let mut app = ShortAppender::new(&mut out);
/// // "ab", from a chunk of OVERCOPY bytes that starts with it.
/// app.push_chunk(page.first_chunk().unwrap(), 2);
/// app.push(&page[3..6]);
/// assert_eq!(app.len(), 5);
/// drop(app);
/// assert_eq!(out, b"abcde");
/// ```
#[derive(Debug)]
pub struct ShortAppender<'a> {
    buf: &'a mut Vec<u8>,
    /// `buf`'s allocation and its capacity, read once (and again after the
    /// vector grows) so that a loop of appends keeps them in registers:
    /// the compiler cannot otherwise tell that the copies into the
    /// allocation leave the vector's own fields alone, and reloads them
    /// for every value.
    ptr: *mut u8,
    capacity: usize,
    /// Bytes of `buf` written so far, from its start.
    len: usize,
}

impl<'a> ShortAppender<'a> {
    /// An appender that continues after `buf`'s current bytes.
    pub fn new(buf: &'a mut Vec<u8>) -> Self {
        let len = buf.len();
        let (ptr, capacity) = (buf.as_mut_ptr(), buf.capacity());
        Self {
            buf,
            ptr,
            capacity,
            len,
        }
    }

    /// Bytes written so far: the length the vector will have.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written (the vector was empty and stays so).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append the first `len` bytes of `chunk` (all of it when `len` is
    /// larger): one move of [`OVERCOPY`] bytes when the spare capacity
    /// holds them, else an ordinary append of `chunk[..len]`.
    #[inline(always)]
    pub fn push_chunk(&mut self, chunk: &[u8; OVERCOPY], len: usize) {
        let len = len.min(OVERCOPY);
        // `len <= capacity` always holds, so this does not underflow.
        if self.capacity - self.len >= OVERCOPY {
            #[allow(unsafe_code)]
            // SAFETY: `ptr` and `capacity` are the vector's allocation and
            // its size as they are now (read at construction and after the
            // only call that may reallocate, in `push`), so the destination
            // `len..len + OVERCOPY` lies inside the allocation (checked just
            // above). The source is a live array of `OVERCOPY` bytes, which
            // cannot overlap the vector's spare capacity (no shared
            // reference into that capacity can exist while we hold `&mut
            // Vec`). Only the first `len` bytes count as written: the count
            // advances by `len`, keeping the invariant that every byte
            // below it was written.
            unsafe {
                std::ptr::copy_nonoverlapping(chunk.as_ptr(), self.ptr.add(self.len), OVERCOPY);
            }
            self.len += len;
        } else {
            self.push(&chunk[..len]);
        }
    }

    /// Append the first `len` bytes of `chunk` by the fixed copy if
    /// `len <= OVERCOPY` and the spare capacity holds `OVERCOPY` bytes;
    /// otherwise write nothing and return `false`. It never grows the
    /// vector (no call to the allocator or to `memcpy`), so a loop of
    /// these keeps its state in registers, with the rare value it refuses
    /// left to [`push`](Self::push).
    ///
    /// ```
    /// use strata_sink::append::{ShortAppender, OVERCOPY};
    /// let chunk = [b'x'; OVERCOPY];
    /// let mut out = Vec::with_capacity(OVERCOPY);
    /// let mut app = ShortAppender::new(&mut out);
    /// assert!(app.try_push_chunk(&chunk, 3));
    /// // 29 bytes of room left: too few for another fixed copy.
    /// assert!(!app.try_push_chunk(&chunk, 1));
    /// assert!(!app.try_push_chunk(&chunk, OVERCOPY + 1));
    /// drop(app);
    /// assert_eq!(out, b"xxx");
    /// ```
    #[inline(always)]
    pub fn try_push_chunk(&mut self, chunk: &[u8; OVERCOPY], len: usize) -> bool {
        // `len <= capacity` always holds, so this does not underflow.
        if len > OVERCOPY || self.capacity - self.len < OVERCOPY {
            return false;
        }
        #[allow(unsafe_code)]
        // SAFETY: as in `push_chunk`: the destination `len..len + OVERCOPY`
        // lies inside the allocation (checked just above), the source is
        // a live array that cannot overlap the spare capacity, and the
        // count advances by `len <= OVERCOPY` bytes, all of them written.
        unsafe {
            std::ptr::copy_nonoverlapping(chunk.as_ptr(), self.ptr.add(self.len), OVERCOPY);
        }
        self.len += len;
        true
    }

    /// Append `value` whatever its length, growing the vector if needed.
    #[inline]
    pub fn push(&mut self, value: &[u8]) {
        if self.capacity - self.len >= value.len() {
            #[allow(unsafe_code)]
            // SAFETY: as in `push_chunk`: the destination range is inside
            // the allocation (checked above), `value` is a live slice that
            // cannot overlap the spare capacity, and the count advances by
            // exactly the bytes written.
            unsafe {
                std::ptr::copy_nonoverlapping(value.as_ptr(), self.ptr.add(self.len), value.len());
            }
            self.len += value.len();
        } else {
            self.sync();
            self.buf.extend_from_slice(value);
            // The vector may have moved: read its allocation again.
            self.len = self.buf.len();
            self.ptr = self.buf.as_mut_ptr();
            self.capacity = self.buf.capacity();
        }
    }

    /// Bytes that can be appended before the vector must grow.
    ///
    /// ```
    /// use strata_sink::append::ShortAppender;
    /// let mut out = Vec::with_capacity(10);
    /// let mut app = ShortAppender::new(&mut out);
    /// app.push(b"abc");
    /// assert_eq!(app.room(), 7);
    /// ```
    #[inline(always)]
    pub fn room(&self) -> usize {
        self.capacity - self.len
    }

    /// Make room for at least `additional` more bytes, growing the
    /// vector to exactly that much spare capacity when it has less (no
    /// doubling: the caller knows how much is coming).
    ///
    /// ```
    /// use strata_sink::append::ShortAppender;
    /// let mut out = b"ab".to_vec();
    /// let mut app = ShortAppender::new(&mut out);
    /// app.reserve_exact(100);
    /// app.push(b"cd");
    /// drop(app);
    /// assert!(out.capacity() >= 102);
    /// assert_eq!(out, b"abcd");
    /// ```
    pub fn reserve_exact(&mut self, additional: usize) {
        if self.capacity - self.len >= additional {
            return;
        }
        self.sync();
        self.buf.reserve_exact(additional);
        self.ptr = self.buf.as_mut_ptr();
        self.capacity = self.buf.capacity();
    }

    /// Set the vector's length to the bytes written.
    fn sync(&mut self) {
        debug_assert!(self.len <= self.buf.capacity());
        #[allow(unsafe_code)]
        // SAFETY: `len` never exceeds the capacity (each copy was checked
        // against it) and every byte below it was written, by the vector's
        // owner before the appender existed or by this appender.
        unsafe {
            self.buf.set_len(self.len);
        }
    }
}

impl Drop for ShortAppender<'_> {
    fn drop(&mut self) {
        self.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::{OVERCOPY, ShortAppender};

    /// A source long enough that every value has a full chunk after it.
    fn padded(values: &[Vec<u8>]) -> (Vec<u8>, Vec<(usize, usize)>) {
        let mut src = Vec::new();
        let mut spans = Vec::new();
        for v in values {
            spans.push((src.len(), v.len()));
            src.extend_from_slice(v);
        }
        src.resize(src.len() + OVERCOPY, b'#');
        (src, spans)
    }

    fn values(n: usize, longest: usize) -> Vec<Vec<u8>> {
        let mut x = 0x9E37_79B9u32;
        (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let len = (x as usize) % (longest + 1);
                (0..len).map(|j| (i * 31 + j) as u8).collect()
            })
            .collect()
    }

    #[test]
    fn chunks_and_plain_pushes_append_exactly_the_values() {
        for longest in [0, 1, 7, OVERCOPY - 1, OVERCOPY, OVERCOPY + 1, 100] {
            let vals = values(500, longest);
            let (src, spans) = padded(&vals);
            let want: Vec<u8> = vals.concat();
            // Room for everything, for half of it, and for nothing: the
            // appender must grow where it runs out and never write past
            // the capacity.
            for room in [want.len() + OVERCOPY, want.len() / 2, 0] {
                let mut out = b"head".to_vec();
                out.reserve_exact(room);
                let mut app = ShortAppender::new(&mut out);
                for (k, &(at, len)) in spans.iter().enumerate() {
                    let chunk = src[at..].first_chunk::<OVERCOPY>().unwrap();
                    if k % 3 == 2 || len > OVERCOPY {
                        app.push(&src[at..at + len]);
                    } else if k % 3 == 1 {
                        // Refused (long value, or no room): nothing was
                        // written, and the ordinary append takes it.
                        if !app.try_push_chunk(chunk, len) {
                            app.push(&src[at..at + len]);
                        }
                    } else {
                        app.push_chunk(chunk, len);
                    }
                }
                assert_eq!(app.len(), 4 + want.len());
                drop(app);
                assert_eq!(&out[..4], b"head");
                assert_eq!(&out[4..], &want[..], "longest {longest}, room {room}");
            }
        }
    }

    #[test]
    fn room_for_exactly_one_chunk_and_a_len_past_the_chunk() {
        let chunk = [7u8; OVERCOPY];
        let mut out = Vec::with_capacity(OVERCOPY);
        let mut app = ShortAppender::new(&mut out);
        assert!(app.is_empty());
        app.push_chunk(&chunk, 3);
        // 29 bytes of room left: not enough for a fixed copy.
        app.push_chunk(&chunk, 2);
        // A length larger than the chunk takes the whole chunk.
        app.push_chunk(&chunk, OVERCOPY + 10);
        app.push(&[]);
        drop(app);
        assert_eq!(out.len(), 3 + 2 + OVERCOPY);
        assert!(out.iter().all(|&b| b == 7));
    }

    #[test]
    fn forgetting_the_appender_leaves_the_vector_as_it_was() {
        let mut out = b"ab".to_vec();
        out.reserve(64);
        let mut app = ShortAppender::new(&mut out);
        app.push(b"cd");
        std::mem::forget(app);
        assert_eq!(out, b"ab");
    }
}
