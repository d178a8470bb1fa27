//! [`PageReader`]: the pages of one column chunk.
//!
//! A column chunk is a run of pages, each a Thrift [`PageHeader`] followed by
//! `compressed_page_size` bytes: at most one dictionary page first, then data
//! pages (v1 or v2); writers may also leave index pages, which are skipped.
//! The reader decodes each header, checks its sizes against the bytes that
//! exist and against what its codec could plausibly produce, optionally
//! verifies the page CRC, decompresses the body, and yields a [`Page`]. It
//! stops once the chunk's `num_values` have been read (or, with an offset
//! index, after the last indexed page).
//!
//! Uncompressed bodies are zero-copy slices of the chunk. Decompressed
//! bodies go to a buffer the reader takes back for the next page once the
//! caller has dropped the previous one, and the codec is created once per
//! chunk.
//!
//! ```no_run
//! use strata_file::page::Page;
//! use strata_file::serialized_reader::SerializedFileReader;
//!
//! let file = std::fs::File::open("data.parquet")?;
//! let reader = SerializedFileReader::new(file)?;
//! let mut pages = reader.row_group(0)?.page_reader(0)?;
//! while let Some(page) = pages.get_next_page()? {
//!     if let Page::DataPage { num_values, .. } = page {
//!         println!("a v1 data page of {num_values} values");
//!     }
//! }
//! # Ok::<(), strata_file::FileError>(())
//! ```

use bytes::Bytes;
use strata_format::metadata::{CompressionCodec, PageHeader, PageLocation, PageType};
use strata_format::thrift;

use crate::codec::{Codec, codec_for};
use crate::error::{FileError, Result};
use crate::page::Page;

/// Default largest uncompressed page a [`PageReader`] accepts: 1 GiB. A
/// header declaring more is treated as corrupt before anything is
/// allocated (see [`PageReaderOptions::max_page_size`]).
pub const MAX_PAGE_SIZE: usize = 1 << 30;

/// The most bytes `compressed_len` bytes of `codec` output can expand to,
/// from the limits of each format (rounded up), or `None` where the format
/// allows effectively unbounded ratios (then only the maximum page size
/// applies).
///
/// - SNAPPY: the densest element is a 3-byte copy of 64 bytes (< 22x).
/// - LZ4 (raw and Hadoop-framed): each extra match-length byte adds at most
///   255 bytes of output (< 256x).
/// - GZIP: DEFLATE's maximum ratio is 1032:1.
/// - ZSTD: every block takes at least 4 bytes and yields at most 128 KiB
///   (32768x).
/// - BROTLI: no useful bound.
pub fn max_decompressed_len(codec: CompressionCodec, compressed_len: usize) -> Option<usize> {
    let ratio = match codec {
        CompressionCodec::Uncompressed => 1,
        CompressionCodec::Snappy => 22,
        CompressionCodec::Lz4 | CompressionCodec::Lz4Raw => 256,
        CompressionCodec::Gzip => 1032,
        CompressionCodec::Zstd => 32 * 1024,
        _ => return None,
    };
    // A little slack for framing and varint preambles of tiny pages.
    Some(compressed_len.saturating_mul(ratio).saturating_add(64))
}

/// Options of a [`PageReader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageReaderOptions {
    /// Verify the CRC32 of pages whose header carries one, failing with
    /// [`FileError::CrcMismatch`] on a mismatch. Off by default.
    pub verify_crc: bool,
    /// Largest uncompressed page accepted, in bytes; [`MAX_PAGE_SIZE`] by
    /// default. Pages declaring more fail before any allocation.
    pub max_page_size: usize,
}

impl Default for PageReaderOptions {
    fn default() -> Self {
        Self {
            verify_crc: false,
            max_page_size: MAX_PAGE_SIZE,
        }
    }
}

/// A decoded page header and where its body lies in the chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct PageInfo {
    /// The page header.
    pub header: PageHeader,
    /// Offset of the header within the column chunk.
    pub header_offset: usize,
    /// Offset of the body (just after the header) within the column chunk.
    pub body_offset: usize,
    /// Length of the body in the chunk (`compressed_page_size`, checked).
    pub body_len: usize,
    /// Declared uncompressed size of the body (checked).
    pub uncompressed_len: usize,
}

impl PageInfo {
    /// The page's kind.
    pub fn page_type(&self) -> PageType {
        self.header.page_type
    }

    /// Number of values a data page holds (nulls included), or `None` for
    /// other pages.
    pub fn data_page_num_values(&self) -> Option<i32> {
        match self.header.page_type {
            PageType::DataPage => self.header.data_page_header.as_ref().map(|h| h.num_values),
            PageType::DataPageV2 => self
                .header
                .data_page_header_v2
                .as_ref()
                .map(|h| h.num_values),
            _ => None,
        }
    }
}

/// The bytes of a column chunk: all of them, or the pieces fetched (its
/// dictionary and the pages a selection reads), at their offsets within
/// the chunk. Positions are always chunk offsets.
#[derive(Debug, Clone)]
enum ChunkBytes {
    Whole(Bytes),
    Pieces {
        len: usize,
        /// Sorted by offset, without overlap.
        pieces: Vec<(usize, Bytes)>,
    },
}

impl ChunkBytes {
    fn len(&self) -> usize {
        match self {
            Self::Whole(b) => b.len(),
            Self::Pieces { len, .. } => *len,
        }
    }

    /// The piece holding `position`, and `position` within it.
    fn piece_at(&self, position: usize) -> Option<(&Bytes, usize)> {
        match self {
            Self::Whole(b) => (position <= b.len()).then_some((b, position)),
            Self::Pieces { pieces, .. } => {
                let i = pieces
                    .partition_point(|(start, _)| *start <= position)
                    .checked_sub(1)?;
                let (start, bytes) = &pieces[i];
                let at = position - start;
                (at < bytes.len()).then_some((bytes, at))
            }
        }
    }

    /// The bytes from `position` to the end of its piece.
    fn rest(&self, position: usize) -> Result<&[u8]> {
        match self.piece_at(position) {
            Some((bytes, at)) => Ok(&bytes[at..]),
            None => Err(corrupt(format!(
                "the page at chunk offset {position} was not fetched"
            ))),
        }
    }

    /// `start..end`, which must lie in one piece.
    fn slice(&self, start: usize, end: usize) -> Result<Bytes> {
        if start == end {
            return Ok(Bytes::new());
        }
        match self.piece_at(start) {
            Some((bytes, at)) if at + (end - start) <= bytes.len() => {
                Ok(bytes.slice(at..at + (end - start)))
            }
            _ => Err(corrupt(format!(
                "chunk bytes {start}..{end} were not fetched"
            ))),
        }
    }
}

/// The page locations of an offset index, checked against the chunk.
#[derive(Debug, Clone)]
struct IndexedPages {
    /// Offsets of each data page within the chunk, with its length and first
    /// row.
    pages: Vec<(usize, usize, i64)>,
    /// Index of the next data page to read.
    next: usize,
}

/// Reads the pages of one column chunk.
///
/// Implements `Iterator<Item = Result<Page>>`; after an error it yields
/// nothing more.
pub struct PageReader {
    chunk: ChunkBytes,
    position: usize,
    codec: Option<Box<dyn Codec>>,
    codec_kind: CompressionCodec,
    options: PageReaderOptions,
    total_values: u64,
    values_read: u64,
    peeked: Option<PageInfo>,
    indexed: Option<IndexedPages>,
    scratch: Vec<u8>,
    /// The buffers of the last two decompressed pages, oldest first: one
    /// the caller has dropped is taken back for the next page. (The caller
    /// usually still holds the last page while the next one is read, so
    /// the one before it is the one that comes back.)
    previous_pages: [Option<Bytes>; 2],
    finished: bool,
    /// Decrypts the headers and bodies of an encrypted chunk's pages.
    #[cfg(feature = "encryption")]
    decryptor: Option<crate::encryption::ChunkDecryptor>,
    /// Data pages read or skipped so far, for the page ordinal of an
    /// encrypted page (with an offset index, the index's own count).
    data_pages_passed: usize,
}

impl std::fmt::Debug for PageReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageReader")
            .field("chunk_len", &self.chunk.len())
            .field("position", &self.position)
            .field("codec", &self.codec_kind)
            .field("total_values", &self.total_values)
            .field("values_read", &self.values_read)
            .finish_non_exhaustive()
    }
}

fn corrupt(message: String) -> FileError {
    FileError::Corrupt(message)
}

/// A non-negative `i32` from a header as `usize`.
fn non_negative(value: i32, what: &str) -> Result<usize> {
    usize::try_from(value).map_err(|_| corrupt(format!("page header {what} is negative ({value})")))
}

impl PageReader {
    /// A reader over the bytes of one column chunk (`chunk` starts at the
    /// chunk's first page), compressed with `codec`, holding `num_values`
    /// values in its data pages.
    pub fn new(chunk: Bytes, codec: CompressionCodec, num_values: i64) -> Result<Self> {
        Self::with_options(chunk, codec, num_values, PageReaderOptions::default())
    }

    /// [`new`](Self::new) with options.
    pub fn with_options(
        chunk: Bytes,
        codec: CompressionCodec,
        num_values: i64,
        options: PageReaderOptions,
    ) -> Result<Self> {
        let total_values = u64::try_from(num_values).map_err(|_| {
            corrupt(format!(
                "column chunk num_values is negative ({num_values})"
            ))
        })?;
        Ok(Self {
            chunk: ChunkBytes::Whole(chunk),
            position: 0,
            codec: codec_for(codec)?,
            codec_kind: codec,
            options,
            total_values,
            values_read: 0,
            peeked: None,
            indexed: None,
            scratch: Vec::new(),
            previous_pages: [None, None],
            finished: false,
            #[cfg(feature = "encryption")]
            decryptor: None,
            data_pages_passed: 0,
        })
    }

    /// Decrypt this chunk's pages with `decryptor` (an encrypted chunk's,
    /// from [`FileDecryptor::chunk`](crate::encryption::FileDecryptor::chunk)).
    /// Call before reading any page.
    #[cfg(feature = "encryption")]
    pub fn set_decryptor(&mut self, decryptor: crate::encryption::ChunkDecryptor) {
        self.decryptor = Some(decryptor);
    }

    /// Whether the page at the current position is a dictionary page, and
    /// the ordinal the next data page has among the chunk's data pages:
    /// what an encrypted page's AAD names.
    #[cfg(feature = "encryption")]
    fn page_position(&self, decryptor: &crate::encryption::ChunkDecryptor) -> (bool, usize) {
        let dictionary = decryptor.is_dictionary_at(self.position);
        let ordinal = match &self.indexed {
            Some(indexed) => indexed.next,
            None => self.data_pages_passed,
        };
        (dictionary, ordinal)
    }

    /// A reader over some pieces of a column chunk of `chunk_len` bytes:
    /// each piece is its offset within the chunk and its bytes (the
    /// dictionary page and the data pages a row selection reads, say).
    /// Pieces must be in order, not overlap, and lie within the chunk.
    /// Set the chunk's page locations
    /// ([`set_page_locations`](Self::set_page_locations)) so pages that
    /// were not fetched are skipped by the offset index; reading one is an
    /// error.
    pub fn with_pieces(
        pieces: Vec<(usize, Bytes)>,
        chunk_len: usize,
        codec: CompressionCodec,
        num_values: i64,
        options: PageReaderOptions,
    ) -> Result<Self> {
        let mut end_of_previous = 0usize;
        for (start, bytes) in &pieces {
            let end = start
                .checked_add(bytes.len())
                .filter(|end| *end <= chunk_len);
            if *start < end_of_previous || end.is_none() {
                return Err(FileError::InvalidArgument(format!(
                    "chunk piece at {start} of {} bytes is not inside the {chunk_len}-byte chunk, in order",
                    bytes.len()
                )));
            }
            end_of_previous = end.unwrap_or(chunk_len);
        }
        let mut reader = Self::with_options(Bytes::new(), codec, num_values, options)?;
        reader.chunk = ChunkBytes::Pieces {
            len: chunk_len,
            pieces,
        };
        Ok(reader)
    }

    /// Use an offset index's page locations to find data pages, so they can
    /// be skipped without decoding their headers ([`skip_next_page`],
    /// [`seek_to_data_page`], [`seek_to_row`]). `chunk_offset` is the file
    /// offset of the chunk's first byte. Every location must lie inside the
    /// chunk, in order and without overlap. Reading then ends after the
    /// last indexed page. Call before reading any data page.
    ///
    /// [`skip_next_page`]: Self::skip_next_page
    /// [`seek_to_data_page`]: Self::seek_to_data_page
    /// [`seek_to_row`]: Self::seek_to_row
    pub fn set_page_locations(
        &mut self,
        locations: &[PageLocation],
        chunk_offset: u64,
    ) -> Result<()> {
        let mut pages = Vec::with_capacity(locations.len());
        let mut end_of_previous = 0usize;
        for (i, location) in locations.iter().enumerate() {
            let bad = || {
                corrupt(format!(
                    "offset index page {i} (offset {}, size {}) is not inside the column chunk at {chunk_offset} of {} bytes, in order",
                    location.offset,
                    location.compressed_page_size,
                    self.chunk.len()
                ))
            };
            let start = u64::try_from(location.offset)
                .ok()
                .and_then(|offset| offset.checked_sub(chunk_offset))
                .and_then(|start| usize::try_from(start).ok())
                .ok_or_else(bad)?;
            let len = usize::try_from(location.compressed_page_size).map_err(|_| bad())?;
            let end = start.checked_add(len).ok_or_else(bad)?;
            if start < end_of_previous || end > self.chunk.len() {
                return Err(bad());
            }
            // Row numbers must not go back: skipping by them counts rows.
            let previous_row = pages.last().map_or(0, |p: &(usize, usize, i64)| p.2);
            if location.first_row_index < previous_row {
                return Err(corrupt(format!(
                    "offset index page {i} starts at row {} before row {previous_row}",
                    location.first_row_index
                )));
            }
            end_of_previous = end;
            pages.push((start, len, location.first_row_index));
        }
        self.indexed = Some(IndexedPages { pages, next: 0 });
        Ok(())
    }

    /// The chunk's bytes, when it was read whole (not
    /// [`with_pieces`](Self::with_pieces)).
    pub fn chunk(&self) -> Option<&Bytes> {
        match &self.chunk {
            ChunkBytes::Whole(b) => Some(b),
            ChunkBytes::Pieces { .. } => None,
        }
    }

    /// The compression codec of the chunk.
    pub fn codec(&self) -> CompressionCodec {
        self.codec_kind
    }

    /// Number of data-page values read or skipped so far.
    pub fn values_read(&self) -> u64 {
        self.values_read
    }

    /// Number of the chunk's values (its metadata's `num_values`) not yet
    /// read or skipped. The metadata is untrusted: a sizing hint to bound
    /// by something the caller knows, never a size on its own.
    pub fn values_left(&self) -> u64 {
        self.total_values.saturating_sub(self.values_read)
    }

    /// Whether reading is finished: the chunk's values are all read, or
    /// the last indexed page is passed, or the bytes are exhausted.
    fn at_end(&self) -> bool {
        if self.position >= self.chunk.len() {
            return true;
        }
        match &self.indexed {
            // Pages before the first indexed one (a dictionary) are read
            // too; reading ends once every indexed page is consumed.
            Some(indexed) => indexed.next >= indexed.pages.len(),
            None => self.values_read >= self.total_values && self.total_values > 0,
        }
    }

    /// Decode the header at the current position (skipping index pages and
    /// pages of unknown type), without consuming it.
    ///
    /// Returns `None` at the end of the chunk.
    pub fn peek_header(&mut self) -> Result<Option<&PageInfo>> {
        if self.finished {
            return Ok(None);
        }
        if self.peeked.is_none() {
            match self.read_header() {
                Ok(info) => self.peeked = info,
                Err(e) => {
                    self.finished = true;
                    return Err(e);
                }
            }
        }
        Ok(self.peeked.as_ref())
    }

    fn read_header(&mut self) -> Result<Option<PageInfo>> {
        loop {
            if self.at_end() {
                if self.indexed.is_none()
                    && self.values_read < self.total_values
                    && self.position >= self.chunk.len()
                {
                    return Err(corrupt(format!(
                        "column chunk ended after {} of its {} values",
                        self.values_read, self.total_values
                    )));
                }
                return Ok(None);
            }
            let rest = self.chunk.rest(self.position)?;
            #[cfg(feature = "encryption")]
            let (header, header_len, overhead) = match &self.decryptor {
                Some(d) => {
                    let (dictionary, ordinal) = self.page_position(d);
                    let (plaintext, taken) = d.header(rest, dictionary, ordinal)?;
                    let (mut header, _) = thrift::decode_prefix::<PageHeader>(&plaintext)?;
                    // DuckDB's headers count the body without its framing.
                    header.compressed_page_size = header
                        .compressed_page_size
                        .saturating_add(d.unframed_size_correction());
                    (header, taken, d.body_overhead())
                }
                None => {
                    let (header, len) = thrift::decode_prefix::<PageHeader>(rest)?;
                    (header, len, 0)
                }
            };
            #[cfg(not(feature = "encryption"))]
            let (header, header_len, overhead) = {
                let (header, len) = thrift::decode_prefix::<PageHeader>(rest)?;
                (header, len, 0)
            };
            let info = self.check_header(header, header_len, overhead)?;
            match info.header.page_type {
                PageType::DataPage | PageType::DataPageV2 | PageType::DictionaryPage => {
                    return Ok(Some(info));
                }
                // Index pages (never written in practice) and page types
                // from newer writers carry nothing a reader needs.
                _ => self.position = info.body_offset + info.body_len,
            }
        }
    }

    /// Check a header's sizes against the chunk and its codec; an
    /// encrypted page's body holds `overhead` bytes of framing around its
    /// (compressed) plaintext.
    fn check_header(
        &self,
        header: PageHeader,
        header_len: usize,
        overhead: usize,
    ) -> Result<PageInfo> {
        let header_offset = self.position;
        let body_offset = header_offset + header_len;
        let stored_len = non_negative(header.compressed_page_size, "compressed_page_size")?;
        let remaining = self.chunk.len().saturating_sub(body_offset);
        if stored_len > remaining {
            return Err(corrupt(format!(
                "page at chunk offset {header_offset} declares {stored_len} compressed bytes, only {remaining} remain in the column chunk"
            )));
        }
        let body_len = stored_len.checked_sub(overhead).ok_or_else(|| {
            corrupt(format!(
                "encrypted page at chunk offset {header_offset} of {stored_len} bytes is shorter than its {overhead} bytes of framing"
            ))
        })?;
        let uncompressed_len =
            non_negative(header.uncompressed_page_size, "uncompressed_page_size")?;
        let max_page_size = self.options.max_page_size;
        if uncompressed_len > max_page_size {
            return Err(corrupt(format!(
                "page at chunk offset {header_offset} declares {uncompressed_len} uncompressed bytes, more than the {max_page_size} allowed"
            )));
        }
        let info = PageInfo {
            header,
            header_offset,
            body_offset,
            body_len: stored_len,
            uncompressed_len,
        };
        match info.header.page_type {
            PageType::DataPage => {
                let h =
                    info.header.data_page_header.as_ref().ok_or_else(|| {
                        corrupt("data page without a data_page_header".to_string())
                    })?;
                non_negative(h.num_values, "num_values")?;
                self.check_expansion(&info, body_len, uncompressed_len)?;
            }
            PageType::DictionaryPage => {
                let h = info.header.dictionary_page_header.as_ref().ok_or_else(|| {
                    corrupt("dictionary page without a dictionary_page_header".to_string())
                })?;
                non_negative(h.num_values, "num_values")?;
                self.check_expansion(&info, body_len, uncompressed_len)?;
            }
            PageType::DataPageV2 => {
                let h = info.header.data_page_header_v2.as_ref().ok_or_else(|| {
                    corrupt("v2 data page without a data_page_header_v2".to_string())
                })?;
                let num_values = non_negative(h.num_values, "num_values")?;
                let num_nulls = non_negative(h.num_nulls, "num_nulls")?;
                non_negative(h.num_rows, "num_rows")?;
                if num_nulls > num_values {
                    return Err(corrupt(format!(
                        "v2 data page has {num_nulls} nulls but only {num_values} values"
                    )));
                }
                let levels_len = non_negative(h.repetition_levels_byte_length, "rep levels length")?
                    .checked_add(non_negative(
                        h.definition_levels_byte_length,
                        "def levels length",
                    )?)
                    .filter(|len| *len <= body_len && *len <= uncompressed_len)
                    .ok_or_else(|| {
                        corrupt(format!(
                            "v2 data page levels ({} + {} bytes) exceed the page ({body_len} bytes, {uncompressed_len} uncompressed)",
                            h.repetition_levels_byte_length, h.definition_levels_byte_length
                        ))
                    })?;
                let values_len = body_len - levels_len;
                let values_uncompressed = uncompressed_len - levels_len;
                if h.values_compressed() {
                    self.check_expansion(&info, values_len, values_uncompressed)?;
                } else if values_len != values_uncompressed {
                    return Err(corrupt(format!(
                        "uncompressed v2 page values: {values_len} bytes stored, {values_uncompressed} declared"
                    )));
                }
            }
            _ => {}
        }
        Ok(info)
    }

    /// Check that `compressed` bytes can decompress to `uncompressed`.
    fn check_expansion(
        &self,
        info: &PageInfo,
        compressed: usize,
        uncompressed: usize,
    ) -> Result<()> {
        if self.codec.is_none() {
            if compressed != uncompressed {
                return Err(corrupt(format!(
                    "uncompressed page at chunk offset {}: {compressed} bytes stored, {uncompressed} declared",
                    info.header_offset
                )));
            }
            return Ok(());
        }
        if let Some(max) = max_decompressed_len(self.codec_kind, compressed)
            && uncompressed > max
        {
            return Err(corrupt(format!(
                "page at chunk offset {} declares {uncompressed} bytes, more than {compressed} {:?} bytes can hold",
                info.header_offset, self.codec_kind
            )));
        }
        Ok(())
    }

    /// Skip the next page without decompressing it. Returns its header, or
    /// `None` at the end of the chunk.
    pub fn skip_next_page(&mut self) -> Result<Option<PageInfo>> {
        self.peek_header()?;
        let Some(info) = self.peeked.take() else {
            return Ok(None);
        };
        self.consume(&info);
        Ok(Some(info))
    }

    /// Account for a page being read or skipped.
    fn consume(&mut self, info: &PageInfo) {
        self.position = info.body_offset + info.body_len;
        if let Some(n) = info.data_page_num_values() {
            self.data_pages_passed += 1;
            self.values_read = self
                .values_read
                .saturating_add(u64::try_from(n).unwrap_or(0));
            if let Some(indexed) = &mut self.indexed {
                // Move past the indexed page this one is (or contains).
                while indexed
                    .pages
                    .get(indexed.next)
                    .is_some_and(|(start, _, _)| *start < self.position)
                {
                    indexed.next += 1;
                }
            }
        }
    }

    /// The number of rows of the next page, from the offset index: known
    /// when an index was set, the reader stands at one of its data pages and
    /// a later page gives where the next row starts (so not for the last
    /// page). Lets a reader skip a v1 page of a repeated column, whose
    /// header counts levels, not rows, without decoding its levels.
    pub fn next_page_rows_from_index(&self) -> Option<u64> {
        let indexed = self.indexed.as_ref()?;
        let (start, _, first) = *indexed.pages.get(indexed.next)?;
        let (_, _, next_first) = *indexed.pages.get(indexed.next + 1)?;
        if start != self.position {
            return None;
        }
        u64::try_from(next_first.checked_sub(first)?).ok()
    }

    /// Skip, by the offset index alone (no page header decoded), the whole
    /// data pages from the next one on that hold at most `rows` rows in
    /// all; returns the rows skipped (0 without an index, when the reader
    /// does not stand at an indexed page, or when the next page alone holds
    /// more than `rows`), with the number of pages skipped. The last
    /// indexed page is never skipped this way, since its row count is not
    /// known from the index.
    pub fn skip_pages_by_index(&mut self, rows: u64) -> (u64, usize) {
        let Some(indexed) = self.indexed.as_mut() else {
            return (0, 0);
        };
        let Some(&(start, _, first)) = indexed.pages.get(indexed.next) else {
            return (0, 0);
        };
        if start != self.position {
            return (0, 0);
        }
        let limit = first.saturating_add(i64::try_from(rows).unwrap_or(i64::MAX));
        // The first later page that starts past the rows to skip ends the
        // run; the pages before it are skipped.
        let mut k = indexed.next;
        while k + 1 < indexed.pages.len() && indexed.pages[k + 1].2 <= limit {
            k += 1;
        }
        if k == indexed.next {
            return (0, 0);
        }
        let (to, _, to_first) = indexed.pages[k];
        let skipped = u64::try_from(to_first.saturating_sub(first)).unwrap_or(0);
        let pages = k - indexed.next;
        indexed.next = k;
        self.position = to;
        self.peeked = None;
        (skipped, pages)
    }

    /// Whether an offset index was set and the reader stands before its
    /// first data page (at a dictionary page, say).
    pub fn before_indexed_pages(&self) -> bool {
        self.indexed
            .as_ref()
            .and_then(|indexed| indexed.pages.first())
            .is_some_and(|&(start, _, _)| self.position < start)
    }

    /// The number of data pages in the offset index, if one was set.
    pub fn num_indexed_pages(&self) -> Option<usize> {
        self.indexed.as_ref().map(|indexed| indexed.pages.len())
    }

    /// Position the reader at data page `page` of the offset index (0-based),
    /// skipping earlier pages without reading them. A dictionary page, if
    /// the chunk has one, must be read first. Requires
    /// [`set_page_locations`](Self::set_page_locations).
    pub fn seek_to_data_page(&mut self, page: usize) -> Result<()> {
        let indexed = self.indexed.as_mut().ok_or_else(|| {
            FileError::InvalidArgument("seeking to a page needs an offset index".into())
        })?;
        let (start, _, _) = *indexed.pages.get(page).ok_or_else(|| {
            FileError::InvalidArgument(format!(
                "page {page} is beyond the {} pages of the offset index",
                indexed.pages.len()
            ))
        })?;
        indexed.next = page;
        self.position = start;
        self.peeked = None;
        self.finished = false;
        Ok(())
    }

    /// Position the reader at the data page holding row `row` of the row
    /// group (per the offset index's `first_row_index`), and return that
    /// page's first row. Requires
    /// [`set_page_locations`](Self::set_page_locations).
    pub fn seek_to_row(&mut self, row: i64) -> Result<i64> {
        let indexed = self.indexed.as_ref().ok_or_else(|| {
            FileError::InvalidArgument("seeking to a row needs an offset index".into())
        })?;
        let page = indexed
            .pages
            .partition_point(|(_, _, first_row)| *first_row <= row)
            .saturating_sub(1);
        let first_row = indexed
            .pages
            .get(page)
            .map(|(_, _, first_row)| *first_row)
            .ok_or_else(|| FileError::InvalidArgument("the offset index has no pages".into()))?;
        self.seek_to_data_page(page)?;
        Ok(first_row)
    }

    /// Read, check and decompress the next page.
    fn read_page(&mut self) -> Result<Option<Page>> {
        self.peek_header()?;
        let Some(info) = self.peeked.take() else {
            return Ok(None);
        };
        let body = self
            .chunk
            .slice(info.body_offset, info.body_offset + info.body_len)?;
        if self.options.verify_crc
            && let Some(expected) = info.header.crc
        {
            // Of the bytes stored: an encrypted page's are its ciphertext.
            let actual = crc32fast::hash(&body);
            let expected = expected as u32;
            if actual != expected {
                return Err(FileError::CrcMismatch { expected, actual });
            }
        }
        #[cfg(feature = "encryption")]
        let body = match &self.decryptor {
            Some(d) => {
                let (dictionary, ordinal) = self.page_position(d);
                Bytes::from(d.body(&body, dictionary, ordinal)?)
            }
            None => body,
        };
        self.consume(&info);
        let header = info.header;
        let page = match header.page_type {
            PageType::DictionaryPage => {
                let h = header.dictionary_page_header.ok_or_else(|| {
                    corrupt("dictionary page without a dictionary_page_header".to_string())
                })?;
                let buf = self.decompress(body, 0, info.uncompressed_len)?;
                Page::DictionaryPage {
                    buf,
                    num_values: h.num_values as u32,
                    encoding: h.encoding,
                    is_sorted: h.is_sorted.unwrap_or(false),
                }
            }
            PageType::DataPage => {
                let h = header
                    .data_page_header
                    .ok_or_else(|| corrupt("data page without a data_page_header".to_string()))?;
                let buf = self.decompress(body, 0, info.uncompressed_len)?;
                Page::DataPage {
                    buf,
                    num_values: h.num_values as u32,
                    encoding: h.encoding,
                    def_level_encoding: h.definition_level_encoding,
                    rep_level_encoding: h.repetition_level_encoding,
                    statistics: h.statistics,
                }
            }
            PageType::DataPageV2 => {
                let h = header.data_page_header_v2.ok_or_else(|| {
                    corrupt("v2 data page without a data_page_header_v2".to_string())
                })?;
                let is_compressed = h.values_compressed();
                // Checked non-negative, within the page, by check_header.
                let rep_len = h.repetition_levels_byte_length as usize;
                let def_len = h.definition_levels_byte_length as usize;
                let levels_len = rep_len + def_len;
                let buf = if is_compressed {
                    self.decompress(body, levels_len, info.uncompressed_len)?
                } else {
                    body
                };
                Page::DataPageV2 {
                    buf,
                    num_values: h.num_values as u32,
                    num_nulls: h.num_nulls as u32,
                    num_rows: h.num_rows as u32,
                    encoding: h.encoding,
                    def_levels_byte_len: def_len as u32,
                    rep_levels_byte_len: rep_len as u32,
                    is_compressed,
                    statistics: h.statistics,
                }
            }
            // read_header only returns the three page kinds above.
            other => {
                return Err(corrupt(format!("unexpected page type {other:?}")));
            }
        };
        Ok(Some(page))
    }

    /// Decompress `body`, whose first `prefix_len` bytes are stored
    /// uncompressed (v2 levels), to `uncompressed_len` bytes in total.
    fn decompress(
        &mut self,
        body: Bytes,
        prefix_len: usize,
        uncompressed_len: usize,
    ) -> Result<Bytes> {
        let Some(codec) = self.codec.as_mut() else {
            return Ok(body);
        };
        let values_len = uncompressed_len.saturating_sub(prefix_len);
        let (prefix, compressed) = body.split_at(prefix_len.min(body.len()));
        if compressed.is_empty() && values_len == 0 {
            // An empty values section: some writers store no codec frame.
            return Ok(body);
        }
        // Take back an earlier page's buffer if the caller dropped it: the
        // last page's first, so that a reader that lets go of each page
        // before asking for the next (the record reader does) keeps one
        // buffer; the page before is then let go below. The older page is
        // the one to reuse while the last is still held (its values viewed
        // by Arrow arrays, say).
        let [older, newer] = &mut self.previous_pages;
        for slot in [newer, older] {
            if self.scratch.capacity() == 0
                && let Some(previous) = slot.take()
            {
                match previous.try_into_mut() {
                    Ok(reclaimed) => self.scratch = Vec::from(reclaimed),
                    Err(held) => *slot = Some(held),
                }
            }
        }
        // The buffer keeps the previous page's bytes: the codec may write
        // over them rather than zero-fill the page first.
        let mut buf = std::mem::take(&mut self.scratch);
        match buf.get_mut(..prefix.len()) {
            Some(head) => head.copy_from_slice(prefix),
            None => {
                buf.clear();
                buf.extend_from_slice(prefix);
            }
        }
        codec.decompress_replacing(compressed, &mut buf, prefix.len(), values_len)?;
        let page = Bytes::from(buf);
        // A page still held two pages later is left to its holder.
        let [older, newer] = &mut self.previous_pages;
        *older = newer.replace(page.clone());
        Ok(page)
    }
}

impl PageReader {
    /// The next page, or `None` after the last one: [`Iterator::next`]
    /// with the `Result` outside, under arrow-rs's name
    /// (`PageReader::get_next_page`). After an error there are no more
    /// pages.
    pub fn get_next_page(&mut self) -> Result<Option<Page>> {
        self.next().transpose()
    }
}

impl Iterator for PageReader {
    type Item = Result<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        match self.read_page() {
            Ok(Some(page)) => Some(Ok(page)),
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(e) => {
                self.finished = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests;
