//! PLAIN for FIXED_LEN_BYTE_ARRAY: the bytes of each value, back to back.

use strata_sink::ByteSink;

use crate::error::{EncodingError, Result};
use crate::plain::move_into;
use crate::traits::{Decoder, Encoder};
use crate::types::{FixedLenBatch, FixedLenByteArray, FixedLenByteArrayBuffer};
use strata_format::metadata::Encoding;

pub(crate) fn check_width(width: usize) -> Result<()> {
    if width == 0 {
        return Err(EncodingError::InvalidArgument(
            "FIXED_LEN_BYTE_ARRAY width must be positive".into(),
        ));
    }
    Ok(())
}

pub(crate) fn check_batch_width(batch: &FixedLenBatch<'_>, width: usize) -> Result<()> {
    if batch.width() != width {
        return Err(EncodingError::InvalidArgument(format!(
            "batch of {}-byte values given to a {width}-byte encoder",
            batch.width()
        )));
    }
    Ok(())
}

/// PLAIN encoder for fixed-length byte arrays of one width.
///
/// A batch is one copy. Spaced batches copy each run of present values;
/// nulls are not written at all, so no zero-filled placeholder scratch is
/// ever needed (unlike designs whose input has no bytes for null slots and
/// must substitute zeros).
///
/// ```
/// use strata_encoding::{Encoder, FixedLenBatch, PlainFixedLenByteArrayEncoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = PlainFixedLenByteArrayEncoder::new(2).unwrap();
/// // Slot 1 is null: its bytes are ignored.
/// enc.put_spaced(FixedLenBatch::new(2, b"ab??cd").unwrap(), &[0b101], 0).unwrap();
/// let mut page = ByteSink::new();
/// enc.flush_into(&mut page).unwrap();
/// assert_eq!(page.as_slice(), b"abcd");
/// ```
#[derive(Debug)]
pub struct PlainFixedLenByteArrayEncoder {
    width: usize,
    buf: ByteSink,
}

impl PlainFixedLenByteArrayEncoder {
    /// A new encoder of `width`-byte values (positive); no heap memory until
    /// the first value.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self {
            width,
            buf: ByteSink::new(),
        })
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.width
    }
}

impl Encoder<FixedLenByteArray> for PlainFixedLenByteArrayEncoder {
    fn put(&mut self, values: FixedLenBatch<'_>) -> Result<()> {
        check_batch_width(&values, self.width)?;
        self.buf.extend_from_slice(values.bytes());
        Ok(())
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        move_into(&mut self.buf, page);
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.buf.len() / self.width
    }

    fn estimated_size(&self) -> usize {
        self.buf.len()
    }

    fn heap_size(&self) -> usize {
        self.buf.capacity()
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}

/// PLAIN decoder for fixed-length byte arrays of one width.
///
/// ```
/// use strata_encoding::{Decoder, FixedLenByteArrayBuffer, PlainFixedLenByteArrayDecoder};
///
/// let mut dec = PlainFixedLenByteArrayDecoder::new(3).unwrap();
/// dec.set_data(b"abcdef", 2).unwrap();
/// let mut out = FixedLenByteArrayBuffer::new(3);
/// dec.decode(&mut out, 2).unwrap();
/// assert_eq!(out.value(1), Some(&b"def"[..]));
/// ```
#[derive(Debug)]
pub struct PlainFixedLenByteArrayDecoder<'a> {
    width: usize,
    data: &'a [u8],
    left: usize,
}

impl PlainFixedLenByteArrayDecoder<'_> {
    /// A decoder of `width`-byte values (positive) with no page yet.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self {
            width,
            data: &[],
            left: 0,
        })
    }
}

impl<'a> Decoder<'a, FixedLenByteArray> for PlainFixedLenByteArrayDecoder<'a> {
    fn set_data(&mut self, page: &'a [u8], num_values: usize) -> Result<()> {
        match num_values.checked_mul(self.width) {
            Some(n) if n <= page.len() => {
                self.data = &page[..n];
                self.left = num_values;
                Ok(())
            }
            _ => {
                self.data = &[];
                self.left = 0;
                Err(EncodingError::InvalidValueCount {
                    requested: num_values,
                    available: page.len() / self.width,
                })
            }
        }
    }

    fn values_left(&self) -> usize {
        self.left
    }

    fn decode(&mut self, out: &mut FixedLenByteArrayBuffer, max_values: usize) -> Result<usize> {
        out.check_width(self.width)?;
        let n = max_values.min(self.left);
        let (head, tail) = self.data.split_at(n * self.width);
        out.values_mut().extend_from_slice(head);
        self.data = tail;
        self.left -= n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.left);
        self.data = &self.data[n * self.width..];
        self.left -= n;
        Ok(n)
    }

    fn encoding(&self) -> Encoding {
        Encoding::Plain
    }
}
