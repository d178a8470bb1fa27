//! [`PushBuffers`]: the bytes a caller has pushed into a push decoder,
//! readable as a [`ChunkReader`].
//!
//! A push decoder does no I/O: it answers which byte ranges of the file it
//! needs, the caller fetches them however it likes (a local read, one or
//! many object-store requests) and pushes them back. The buffers keep
//! those ranges, in order of their start, and answer reads that fall
//! inside one of them. A read of bytes nobody pushed is an error, never a
//! read of zeros.
//!
//! ```
//! use bytes::Bytes;
//! use strata_file::chunk_reader::ChunkReader;
//! use strata_file::push_buffers::PushBuffers;
//!
//! let mut buffers = PushBuffers::new(100);
//! buffers.push_range(10..20, Bytes::from(vec![7u8; 10])).unwrap();
//! assert_eq!(&buffers.get_bytes(12, 3).unwrap()[..], &[7, 7, 7]);
//! assert!(buffers.get_bytes(18, 5).is_err());
//! assert_eq!(buffers.missing(&[10..15, 15..30]), vec![15..30]);
//! ```

use std::ops::Range;

use bytes::Bytes;

use crate::chunk_reader::ChunkReader;
use crate::error::{FileError, Result};

/// Byte ranges of one file pushed by the caller, with their bytes.
///
/// [`Default`] buffers are of a file of unknown length: any range is
/// accepted, and reads are checked against the pushed ranges alone.
#[derive(Debug, Clone)]
pub struct PushBuffers {
    file_len: u64,
    /// Sorted by start; ranges may overlap.
    ranges: Vec<(Range<u64>, Bytes)>,
    /// The longest range held, which bounds how far back a lookup looks.
    longest: u64,
}

impl Default for PushBuffers {
    fn default() -> Self {
        Self::new(u64::MAX)
    }
}

impl PushBuffers {
    /// Empty buffers of a file of `file_len` bytes.
    pub fn new(file_len: u64) -> Self {
        Self {
            file_len,
            ranges: Vec::new(),
            longest: 0,
        }
    }

    /// The length of the file the ranges belong to.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Keep the bytes of `range`. Fails if the range is not within the
    /// file or the buffer's length is not the range's.
    pub fn push_range(&mut self, range: Range<u64>, buffer: Bytes) -> Result<()> {
        if range.start > range.end || range.end > self.file_len {
            return Err(FileError::InvalidArgument(format!(
                "pushed range {range:?} is not within the {} bytes of the file",
                self.file_len
            )));
        }
        let len = range.end - range.start;
        if buffer.len() as u64 != len {
            return Err(FileError::InvalidArgument(format!(
                "pushed range {range:?} of {len} bytes came with {} bytes",
                buffer.len()
            )));
        }
        if len == 0 {
            return Ok(());
        }
        self.longest = self.longest.max(len);
        let at = self.ranges.partition_point(|(r, _)| r.start <= range.start);
        self.ranges.insert(at, (range, buffer));
        Ok(())
    }

    /// [`push_range`](Self::push_range) of each range with its buffer.
    pub fn push_ranges(&mut self, ranges: Vec<Range<u64>>, buffers: Vec<Bytes>) -> Result<()> {
        if ranges.len() != buffers.len() {
            return Err(FileError::InvalidArgument(format!(
                "{} ranges pushed with {} buffers",
                ranges.len(),
                buffers.len()
            )));
        }
        self.ranges.reserve(ranges.len());
        for (range, buffer) in ranges.into_iter().zip(buffers) {
            self.push_range(range, buffer)?;
        }
        Ok(())
    }

    /// The buffer holding all of `start..end`, sliced to it.
    fn find(&self, start: u64, end: u64) -> Option<Bytes> {
        let after = self.ranges.partition_point(|(r, _)| r.start <= start);
        // Only ranges starting within `longest` bytes before `start` can
        // reach it.
        self.ranges[..after]
            .iter()
            .rev()
            .take_while(|(r, _)| start - r.start <= self.longest)
            .find(|(r, _)| r.end >= end)
            .map(|(r, bytes)| bytes.slice((start - r.start) as usize..(end - r.start) as usize))
    }

    /// Whether one pushed range holds all of `range`.
    pub fn has_range(&self, range: &Range<u64>) -> bool {
        range.start >= range.end || self.find(range.start, range.end).is_some()
    }

    /// The ranges of `needed` that no single pushed range holds, in the
    /// order given.
    pub fn missing(&self, needed: &[Range<u64>]) -> Vec<Range<u64>> {
        needed
            .iter()
            .filter(|r| !self.has_range(r))
            .cloned()
            .collect()
    }

    /// The bytes held (overlapping ranges counted twice).
    pub fn buffered_bytes(&self) -> u64 {
        self.ranges.iter().map(|(r, _)| r.end - r.start).sum()
    }

    /// Drop every pushed range.
    pub fn clear_all_ranges(&mut self) {
        self.ranges.clear();
        self.longest = 0;
    }

    /// Keep only the ranges for which `keep` answers true.
    pub fn retain(&mut self, mut keep: impl FnMut(&Range<u64>) -> bool) {
        self.ranges.retain(|(r, _)| keep(r));
        self.longest = self
            .ranges
            .iter()
            .map(|(r, _)| r.end - r.start)
            .max()
            .unwrap_or(0);
    }

    /// The pushed ranges, in order of their start.
    pub fn ranges(&self) -> impl Iterator<Item = &Range<u64>> {
        self.ranges.iter().map(|(r, _)| r)
    }
}

impl ChunkReader for PushBuffers {
    fn len(&self) -> u64 {
        self.file_len
    }

    /// A zero-copy slice of the pushed range that holds the bytes; an
    /// error if none does.
    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let end = crate::chunk_reader::check_range(start, length, self.file_len)?;
        if length == 0 {
            return Ok(Bytes::new());
        }
        self.find(start, end).ok_or_else(|| {
            FileError::InvalidArgument(format!("bytes {start}..{end} of the file were not pushed"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_inside_one_pushed_range_only() {
        let mut b = PushBuffers::new(1000);
        b.push_range(100..200, Bytes::from(vec![1u8; 100])).unwrap();
        b.push_range(0..50, Bytes::from(vec![2u8; 50])).unwrap();
        b.push_range(150..400, Bytes::from(vec![3u8; 250])).unwrap();
        assert_eq!(b.get_bytes(0, 50).unwrap(), vec![2u8; 50]);
        assert_eq!(b.get_bytes(120, 10).unwrap(), vec![1u8; 10]);
        // Held by the later, longer range only.
        assert_eq!(b.get_bytes(190, 20).unwrap(), vec![3u8; 20]);
        // Spans two ranges that touch: no single range holds it.
        assert!(b.get_bytes(40, 70).is_err());
        assert!(b.get_bytes(400, 1).is_err());
        assert!(b.get_bytes(999, 2).is_err());
        assert_eq!(b.buffered_bytes(), 400);
        assert_eq!(b.missing(&[0..10, 50..60, 399..400]), vec![50..60]);
        b.retain(|r| r.start != 150);
        assert!(b.get_bytes(190, 20).is_err());
        b.clear_all_ranges();
        assert_eq!(b.buffered_bytes(), 0);
    }

    #[test]
    fn bad_pushes_are_errors() {
        let mut b = PushBuffers::new(10);
        assert!(b.push_range(5..11, Bytes::from(vec![0u8; 6])).is_err());
        assert!(b.push_range(0..4, Bytes::from(vec![0u8; 3])).is_err());
        #[allow(clippy::reversed_empty_ranges)]
        let backwards = 6..5;
        assert!(b.push_range(backwards, Bytes::new()).is_err());
        assert!(b.push_ranges(vec![0..1, 1..2], vec![]).is_err());
        assert_eq!(b.buffered_bytes(), 0);
    }
}
