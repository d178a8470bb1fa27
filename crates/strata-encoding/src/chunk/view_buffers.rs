//! [`ViewBuffers`]: the data buffers a batch of byte-array views points
//! into (see [`ColumnRecordReader::read_records_views`]).
//!
//! [`ColumnRecordReader::read_records_views`]: crate::ColumnRecordReader::read_records_views

use bytes::Bytes;

use crate::error::{EncodingError, Result};

/// The data buffers of one batch of views, in buffer-index order: the
/// values sections of the PLAIN pages the batch read (shared, never
/// copied), and one buffer of bytes copied from values that other
/// encodings decoded. Values of up to 12 bytes live in their views and
/// take no buffer space.
#[derive(Debug, Default)]
pub struct ViewBuffers {
    buffers: Vec<Bytes>,
    /// Bytes copied for the batch, and the index reserved for them.
    copied: Vec<u8>,
    copied_at: Option<u32>,
    /// Whether every byte of every value the batch's views hold, inline or
    /// in a buffer, is ASCII: checked over the ranges of pages read in
    /// place and over each value read from elsewhere. `None` until
    /// something is read.
    all_ascii: Option<bool>,
    /// Whether to check for ASCII at all (only string outputs need it).
    skip_ascii: bool,
    /// Some views are entries of the chunk's dictionary.
    dictionary_values: bool,
}

impl ViewBuffers {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the values read are checked for ASCII
    /// ([`all_ascii`](Self::all_ascii)); on unless turned off here. A
    /// reader of binary values, which need no UTF-8, saves the pass.
    pub fn check_ascii(&mut self, on: bool) {
        self.skip_ascii = !on;
    }

    /// Forget the last batch's buffers (keeping the copy buffer's
    /// allocation only when nothing still holds it).
    pub fn clear(&mut self) {
        self.buffers.clear();
        self.copied.clear();
        self.copied_at = None;
        self.all_ascii = None;
        self.dictionary_values = false;
    }

    /// The index of `page` among the buffers, adding it if it is not the
    /// last one added.
    pub(crate) fn page_index(&mut self, page: &Bytes) -> Result<u32> {
        if let Some(last) = self.buffers.last()
            && last.as_ptr() == page.as_ptr()
            && last.len() == page.len()
        {
            return u32::try_from(self.buffers.len() - 1).map_err(|_| too_many());
        }
        let index = u32::try_from(self.buffers.len()).map_err(|_| too_many())?;
        self.buffers.push(page.clone());
        Ok(index)
    }

    /// The index of the chunk dictionary's bytes `dictionary` among the
    /// buffers, adding them if they are not there yet, and noting that
    /// the batch holds dictionary entries (see
    /// [`has_dictionary_values`](Self::has_dictionary_values)).
    pub(crate) fn dictionary_index(&mut self, dictionary: &Bytes) -> Result<u32> {
        self.dictionary_values = true;
        let found = self
            .buffers
            .iter()
            .position(|b| b.as_ptr() == dictionary.as_ptr() && b.len() == dictionary.len());
        let index = match found {
            Some(i) => i,
            None => {
                self.buffers.push(dictionary.clone());
                self.buffers.len() - 1
            }
        };
        u32::try_from(index).map_err(|_| too_many())
    }

    /// Whether some views of the batch are entries of the chunk's
    /// dictionary. Those are not part of [`all_ascii`](Self::all_ascii):
    /// a reader checks the dictionary's entries once instead.
    pub fn has_dictionary_values(&self) -> bool {
        self.dictionary_values
    }

    /// Append `bytes` to the copy buffer; returns its buffer index and
    /// the offset the bytes start at.
    pub(crate) fn copy(&mut self, bytes: &[u8]) -> Result<(u32, u32)> {
        let index = match self.copied_at {
            Some(index) => index,
            None => {
                let index = u32::try_from(self.buffers.len()).map_err(|_| too_many())?;
                // A placeholder until `finish` puts the copied bytes there.
                self.buffers.push(Bytes::new());
                self.copied_at = Some(index);
                index
            }
        };
        let offset = u32::try_from(self.copied.len())
            .ok()
            .filter(|o| o.checked_add(bytes.len() as u32).is_some())
            .ok_or_else(|| EncodingError::Unsupported("4 GiB of copied view bytes".into()))?;
        self.copied.extend_from_slice(bytes);
        Ok((index, offset))
    }

    /// Note whether `bytes`, which hold values of this batch's views (in
    /// a buffer or inline), are all ASCII. Every value must be noted.
    pub(crate) fn note_ascii(&mut self, bytes: &[u8]) {
        if self.skip_ascii {
            self.all_ascii = Some(false);
            return;
        }
        let ascii = bytes.is_ascii();
        self.all_ascii = Some(self.all_ascii.unwrap_or(true) & ascii);
    }

    /// Whether every byte the batch's views point at, dictionary entries
    /// aside, is ASCII (checked over
    /// whole ranges, length prefixes included, so `false` may be said of
    /// values that are ASCII themselves; always `false` once something was
    /// read with the check turned off). A batch of ASCII values is valid
    /// UTF-8 value by value.
    pub fn all_ascii(&self) -> bool {
        self.all_ascii.unwrap_or(true)
    }

    /// The batch's buffers, in buffer-index order, leaving this empty for
    /// the next batch.
    pub fn take(&mut self) -> Vec<Bytes> {
        let mut buffers = std::mem::take(&mut self.buffers);
        if let Some(index) = self.copied_at.take()
            && let Some(slot) = buffers.get_mut(index as usize)
        {
            *slot = Bytes::from(std::mem::take(&mut self.copied));
        }
        self.all_ascii = None;
        self.dictionary_values = false;
        buffers
    }
}

fn too_many() -> EncodingError {
    EncodingError::Unsupported("more than 2^32 view buffers in one batch".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_shared_and_copies_get_one_buffer() {
        let page = Bytes::from_static(b"page one bytes");
        let other = Bytes::from_static(b"page two");
        let mut b = ViewBuffers::new();
        assert_eq!(b.page_index(&page).unwrap(), 0);
        assert_eq!(b.page_index(&page).unwrap(), 0);
        assert_eq!(b.copy(b"abc").unwrap(), (1, 0));
        assert_eq!(b.page_index(&other).unwrap(), 2);
        assert_eq!(b.copy(b"de").unwrap(), (1, 3));
        b.note_ascii(b"abc");
        assert!(b.all_ascii());
        b.note_ascii("\u{e9}".as_bytes());
        assert!(!b.all_ascii());
        let buffers = b.take();
        assert_eq!(buffers.len(), 3);
        assert_eq!(buffers[0].as_ptr(), page.as_ptr());
        assert_eq!(&buffers[1][..], b"abcde");
        assert_eq!(&buffers[2][..], b"page two");
        assert!(b.take().is_empty());
        assert!(b.all_ascii());
        b.check_ascii(false);
        b.note_ascii(b"plain ascii");
        assert!(!b.all_ascii());
    }
}
