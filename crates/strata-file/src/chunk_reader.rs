//! [`ChunkReader`]: random access to the bytes of a file.
//!
//! The file reader asks for byte ranges (the footer tail, a column chunk, a
//! page index) rather than streaming the file, so one trait covers a local
//! file, an in-memory buffer, or a remote object. Requests outside the
//! source are errors, never panics.
//!
//! ```
//! use bytes::Bytes;
//! use strata_file::chunk_reader::ChunkReader;
//!
//! let data = Bytes::from_static(b"PAR1....PAR1");
//! assert_eq!(data.len_bytes(), 12);
//! assert_eq!(&data.get_bytes(8, 4).unwrap()[..], b"PAR1");
//! assert!(data.get_bytes(10, 4).is_err());
//! ```

use bytes::Bytes;

use crate::error::{FileError, Result};

/// A source of bytes that can be read at any offset.
pub trait ChunkReader {
    /// Length of the source in bytes.
    fn len(&self) -> u64;

    /// Whether the source is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `length` bytes starting at `start`. Fails if the range does not
    /// lie within `0..len()`.
    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes>;

    /// [`len`](Self::len) under a name that does not clash with inherent
    /// `len` methods of implementing types.
    fn len_bytes(&self) -> u64 {
        self.len()
    }
}

/// Check that `start..start + length` lies within `0..total`.
pub(crate) fn check_range(start: u64, length: usize, total: u64) -> Result<u64> {
    let end = u64::try_from(length)
        .ok()
        .and_then(|length| start.checked_add(length))
        .filter(|end| *end <= total)
        .ok_or_else(|| {
            FileError::Corrupt(format!(
                "byte range {start}+{length} is outside the {total} bytes of the file"
            ))
        })?;
    Ok(end)
}

impl ChunkReader for Bytes {
    fn len(&self) -> u64 {
        Bytes::len(self) as u64
    }

    /// A zero-copy slice of the buffer.
    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let end = check_range(start, length, Bytes::len(self) as u64)?;
        // Both ends are within the buffer, so they fit in usize.
        let (start, end) = (start as usize, end as usize);
        Ok(self.slice(start..end))
    }
}

impl ChunkReader for std::fs::File {
    fn len(&self) -> u64 {
        // A file whose metadata cannot be read has no readable bytes; the
        // next read reports the real error.
        self.metadata().map(|m| m.len()).unwrap_or(0)
    }

    /// A positioned read: the file's cursor is not used, so shared
    /// references can read concurrently.
    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let file_len = self.metadata()?.len();
        check_range(start, length, file_len)?;
        let mut buf = vec![0u8; length];
        read_exact_at(self, &mut buf, start)?;
        Ok(Bytes::from(buf))
    }
}

#[cfg(unix)]
fn read_exact_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &std::fs::File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "file ended before the requested range",
                ));
            }
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_exact_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    // `&File` implements Read + Seek; this fallback moves the shared cursor.
    let mut handle = file;
    handle.seek(SeekFrom::Start(offset))?;
    handle.read_exact(buf)
}

impl<T: ChunkReader + ?Sized> ChunkReader for &T {
    fn len(&self) -> u64 {
        (**self).len()
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        (**self).get_bytes(start, length)
    }
}

impl<T: ChunkReader + ?Sized> ChunkReader for std::sync::Arc<T> {
    fn len(&self) -> u64 {
        (**self).len()
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        (**self).get_bytes(start, length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_ranges_are_checked() {
        let data = Bytes::from_static(b"0123456789");
        assert_eq!(&data.get_bytes(0, 10).unwrap()[..], b"0123456789");
        assert_eq!(&data.get_bytes(10, 0).unwrap()[..], b"");
        assert!(data.get_bytes(11, 0).is_err());
        assert!(data.get_bytes(5, 6).is_err());
        assert!(data.get_bytes(u64::MAX, 2).is_err());
        assert!(data.get_bytes(1, usize::MAX).is_err());
    }

    #[test]
    fn file_reads_positioned_ranges() {
        use std::io::Write;
        let path =
            std::env::temp_dir().join(format!("strata-chunk-reader-{}.bin", std::process::id()));
        std::fs::File::create(&path)
            .unwrap()
            .write_all(b"abcdefgh")
            .unwrap();
        let file = std::fs::File::open(&path).unwrap();
        assert_eq!(ChunkReader::len(&file), 8);
        assert_eq!(&file.get_bytes(2, 3).unwrap()[..], b"cde");
        assert_eq!(&file.get_bytes(0, 8).unwrap()[..], b"abcdefgh");
        assert!(file.get_bytes(6, 3).is_err());
        assert!(file.get_bytes(u64::MAX, 1).is_err());
        drop(file);
        let _ = std::fs::remove_file(path);
    }
}
