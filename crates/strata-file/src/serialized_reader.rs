//! [`SerializedFileReader`]: the physical reader of a Parquet file, at
//! arrow-rs's path (`parquet::file::serialized_reader`).
//!
//! Opening a file reads only its tail: the 8-byte footer tail, then exactly
//! the serialized metadata, then the 4-byte head magic. Everything else is
//! read on demand through a [`ChunkReader`]: a column chunk's byte range
//! (for a [`PageReader`]), the page index of one column chunk
//! ([`ColumnIndex`] / [`OffsetIndex`]), or its Bloom filter ([`Sbbf`]).
//!
//! Every offset and length from the metadata is checked against the file's
//! length before it is used.
//!
//! arrow-rs's reader traits (`FileReader`, `RowGroupReader`: metadata, row
//! groups and rows) are implemented for [`SerializedFileReader`] and
//! [`SerializedRowGroupReader`] by the record layer (`strata-record`),
//! which assembles rows; the `strata` facade puts them at
//! `strata::file::reader`. The methods here are the reader's own: what
//! both traits answer with the same name and meaning ([`metadata`],
//! [`num_row_groups`], [`num_columns`]) and the physical access behind
//! them.
//!
//! [`metadata`]: SerializedFileReader::metadata
//! [`num_row_groups`]: SerializedFileReader::num_row_groups
//! [`num_columns`]: SerializedRowGroupReader::num_columns
//!
//! ```no_run
//! use strata_file::serialized_reader::SerializedFileReader;
//!
//! let reader = SerializedFileReader::new(std::fs::File::open("data.parquet")?)?;
//! let rows = reader.metadata().file_metadata().num_rows();
//! println!("{rows} rows in {} row groups", reader.num_row_groups());
//! for i in 0..reader.num_row_groups() {
//!     let row_group = reader.row_group(i)?;
//!     for j in 0..row_group.num_columns() {
//!         for page in row_group.page_reader(j)? {
//!             let page = page?;
//!             println!("{:?} page of {} values", page.page_type(), page.num_values());
//!         }
//!     }
//! }
//! # Ok::<(), strata_file::FileError>(())
//! ```

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use strata_format::metadata::{
    ColumnChunk, ColumnIndex, ColumnMetaData, FileMetaData as Footer, OffsetIndex, RowGroup,
};
use strata_format::thrift::{self, ReadThrift};
use strata_format::{ColumnDescriptor, SchemaDescriptor};

use crate::bloom::{BloomFilterFetch, BloomFilterStep, Sbbf};
use crate::chunk_reader::{ChunkReader, check_range};
use crate::error::{FileError, Result};
use crate::metadata::{PageIndexPolicy, ParquetMetaData, ParquetMetaDataReader, RowGroupMetaData};
use crate::page_reader::PageReader;
use crate::properties::ReaderProperties;

/// A filter on row groups, given each row group's metadata and its
/// position in the file; a [`SerializedFileReader`] opened with it keeps
/// the row groups for which it returns `true` (arrow-rs's
/// `ReadGroupPredicate`).
pub type ReadGroupPredicate = Box<dyn FnMut(&RowGroupMetaData, usize) -> bool>;

/// Builds [`ReadOptions`], with arrow-rs's names: row group filters
/// (every one must keep a row group), the page index, reader properties.
///
/// ```
/// # use std::sync::Arc;
/// # use strata_file::writer::FileWriter;
/// # use strata_file::properties::WriterProperties;
/// # use strata_format::SchemaDescriptor;
/// # use strata_format::metadata::{FieldRepetitionType, SchemaElement, Type};
/// # let schema = Arc::new(SchemaDescriptor::from_elements(&[
/// #     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
/// #     SchemaElement {
/// #         name: "x".into(), physical_type: Some(Type::Int32),
/// #         repetition_type: Some(FieldRepetitionType::Required), ..Default::default()
/// #     },
/// # ]).unwrap());
/// # let mut out = Vec::new();
/// # let mut writer = FileWriter::new(&mut out, schema, Arc::new(WriterProperties::default())).unwrap();
/// # for _ in 0..3 {
/// #     let mut rg = writer.next_row_group().unwrap();
/// #     let mut column = rg.next_column().unwrap().unwrap();
/// #     column.typed::<i32>().unwrap().write_batch(&[1, 2], None, None).unwrap();
/// #     rg.append_column(column.close().unwrap()).unwrap();
/// #     rg.close().unwrap();
/// # }
/// # writer.close().unwrap();
/// use bytes::Bytes;
/// use strata_file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
///
/// let options = ReadOptionsBuilder::new()
///     .with_predicate(Box::new(|_, i| i != 1))
///     .build();
/// let reader = SerializedFileReader::new_with_options(Bytes::from(out), options).unwrap();
/// assert_eq!(reader.num_row_groups(), 2);
/// ```
#[derive(Default)]
pub struct ReadOptionsBuilder {
    predicates: Vec<ReadGroupPredicate>,
    page_index: bool,
    props: ReaderProperties,
}

impl std::fmt::Debug for ReadOptionsBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadOptionsBuilder")
            .field("predicates", &self.predicates.len())
            .field("page_index", &self.page_index)
            .field("props", &self.props)
            .finish()
    }
}

impl ReadOptionsBuilder {
    /// Options that keep every row group, with default properties.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keep only the row groups `predicate` accepts (and every other
    /// predicate given).
    pub fn with_predicate(mut self, predicate: ReadGroupPredicate) -> Self {
        self.predicates.push(predicate);
        self
    }

    /// Keep only the row groups whose midpoint (the offset of their first
    /// column chunk plus half their compressed size) lies in
    /// `start..end`. A row group without columns has no midpoint and is
    /// dropped. arrow-rs panics when `end <= start`; strata keeps no row
    /// group then.
    pub fn with_range(mut self, start: i64, end: i64) -> Self {
        self.predicates
            .push(Box::new(move |rg: &RowGroupMetaData, _| {
                midpoint(rg).is_some_and(|mid| start <= mid && mid < end)
            }));
        self
    }

    /// Load the page indexes (column and offset indexes) of the row groups
    /// kept when the file is opened, into the reader's metadata
    /// (`metadata().page_index()`), as arrow-rs does. Without it, a column
    /// chunk's page index is still read when it is asked for
    /// ([`SerializedRowGroupReader::column_index`],
    /// [`SerializedRowGroupReader::offset_index`]).
    pub fn with_page_index(mut self) -> Self {
        self.page_index = true;
        self
    }

    /// The reader's properties.
    pub fn with_reader_properties(mut self, properties: ReaderProperties) -> Self {
        self.props = properties;
        self
    }

    /// The options.
    pub fn build(self) -> ReadOptions {
        ReadOptions {
            predicates: self.predicates,
            page_index: self.page_index,
            props: self.props,
        }
    }
}

/// The offset of a row group's first column chunk plus half its compressed
/// size, as arrow-rs's range filter computes it; `None` without columns.
fn midpoint(rg: &RowGroupMetaData) -> Option<i64> {
    let first = rg.columns.first()?;
    let data = first.data_page_offset();
    let start = first
        .dictionary_page_offset()
        .map_or(data, |dict| dict.min(data));
    Some(start.saturating_add(rg.compressed_size() / 2))
}

/// Options of [`SerializedFileReader::new_with_options`], built by
/// [`ReadOptionsBuilder`].
#[derive(Default)]
pub struct ReadOptions {
    predicates: Vec<ReadGroupPredicate>,
    page_index: bool,
    props: ReaderProperties,
}

impl std::fmt::Debug for ReadOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadOptions")
            .field("predicates", &self.predicates.len())
            .field("page_index", &self.page_index)
            .field("props", &self.props)
            .finish()
    }
}

impl ReadOptions {
    /// Whether [`ReadOptionsBuilder::with_page_index`] was called.
    pub fn page_index(&self) -> bool {
        self.page_index
    }

    /// The reader's properties.
    pub fn reader_properties(&self) -> &ReaderProperties {
        &self.props
    }
}

/// Reads a Parquet file through a [`ChunkReader`] (`std::fs::File`,
/// `bytes::Bytes`, or the caller's own).
#[derive(Debug)]
pub struct SerializedFileReader<R: ChunkReader> {
    reader: R,
    file_len: u64,
    /// The decoded footer and schema, behind `Arc`s: readers of one file
    /// opened from metadata already read (`with_metadata`) share one copy.
    metadata: ParquetMetaData,
    props: ReaderProperties,
}

impl<R: ChunkReader> SerializedFileReader<R> {
    /// Open a file: read and decode its footer and build its schema.
    ///
    /// Files with an encrypted footer fail with
    /// [`FormatError::Encrypted`](strata_format::FormatError::Encrypted)
    /// (inside [`FileError::Format`]).
    pub fn new(chunk_reader: R) -> Result<Self> {
        Self::new_with_options(chunk_reader, ReadOptions::default())
    }

    /// [`new`](Self::new) with options: row groups the options' predicates
    /// reject are left out of the reader's metadata (the file's row count
    /// stays as the footer says, as in arrow-rs), and with
    /// [`ReadOptionsBuilder::with_page_index`] the page indexes of the row
    /// groups kept are loaded into it (`metadata().page_index()`).
    pub fn new_with_options(chunk_reader: R, options: ReadOptions) -> Result<Self> {
        let file_len = chunk_reader.len();
        let (decoded, _) =
            crate::metadata::read_footer(&chunk_reader, file_len, None, None, &Default::default())?;
        let mut footer = decoded.footer;
        let schema = SchemaDescriptor::from_file_metadata(&footer)?;
        let ReadOptions {
            mut predicates,
            page_index,
            props,
        } = options;
        if !predicates.is_empty() {
            let row_groups = std::mem::take(&mut footer.row_groups);
            footer.row_groups = row_groups
                .into_iter()
                .enumerate()
                .filter_map(|(i, rg)| predicates.iter_mut().all(|p| p(&rg, i)).then_some(rg))
                .collect();
        }
        let mut metadata = ParquetMetaData::from_footer(Arc::new(footer), Arc::new(schema));
        if page_index {
            let mut reader = ParquetMetaDataReader::new_with_metadata(metadata)
                .with_page_index_policy(PageIndexPolicy::Required);
            reader.read_page_indexes(&chunk_reader)?;
            metadata = reader.finish()?;
        }
        Ok(Self {
            reader: chunk_reader,
            file_len,
            metadata,
            props,
        })
    }

    /// A reader of `reader` whose footer was already read: `metadata`
    /// (from [`metadata`](Self::metadata) of an earlier reader of the same
    /// file, cloned: two `Arc`s), so the footer is neither read nor decoded
    /// again.
    ///
    /// ```
    /// # use strata_file::writer::FileWriter;
    /// # use strata_file::properties::WriterProperties;
    /// # use strata_format::SchemaDescriptor;
    /// # use strata_format::metadata::{FieldRepetitionType, SchemaElement, Type};
    /// # use std::sync::Arc;
    /// # let schema = Arc::new(SchemaDescriptor::from_elements(&[
    /// #     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
    /// #     SchemaElement {
    /// #         name: "x".into(), physical_type: Some(Type::Int32),
    /// #         repetition_type: Some(FieldRepetitionType::Required), ..Default::default()
    /// #     },
    /// # ]).unwrap());
    /// # let mut out = Vec::new();
    /// # FileWriter::new(&mut out, schema, Arc::new(WriterProperties::default())).unwrap().close().unwrap();
    /// use bytes::Bytes;
    /// use strata_file::properties::ReaderProperties;
    /// use strata_file::serialized_reader::SerializedFileReader;
    ///
    /// let file = Bytes::from(out);
    /// let first = SerializedFileReader::new(file.clone()).unwrap();
    /// let second = SerializedFileReader::with_metadata(
    ///     file,
    ///     first.metadata().clone(),
    ///     ReaderProperties::default(),
    /// );
    /// assert_eq!(second.num_row_groups(), first.num_row_groups());
    /// ```
    pub fn with_metadata(reader: R, metadata: ParquetMetaData, props: ReaderProperties) -> Self {
        Self {
            file_len: reader.len(),
            reader,
            metadata,
            props,
        }
    }

    /// The file's metadata: the decoded footer and its schema (what
    /// arrow-rs's `FileReader::metadata` returns).
    pub fn metadata(&self) -> &ParquetMetaData {
        &self.metadata
    }

    /// The decoded footer (strata-format's Thrift `FileMetaData`), with the
    /// row groups the reader kept.
    pub fn footer(&self) -> &Footer {
        self.metadata.shared_footer()
    }

    /// The schema, with a descriptor per leaf column.
    pub fn schema(&self) -> &SchemaDescriptor {
        self.metadata.schema_descr()
    }

    /// The properties this reader was opened with.
    pub fn properties(&self) -> &ReaderProperties {
        &self.props
    }

    /// The underlying byte source.
    pub fn chunk_reader(&self) -> &R {
        &self.reader
    }

    /// Length of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.metadata.num_row_groups()
    }

    /// A reader for row group `i`. Fails if there is no such row group, if
    /// it does not have one column chunk per leaf column of the schema, or
    /// (when the properties ask for Bloom filters) if a Bloom filter cannot
    /// be read.
    pub fn row_group(&self, i: usize) -> Result<SerializedRowGroupReader<'_, R>> {
        let row_groups = self.metadata.row_groups();
        let metadata = row_groups.get(i).ok_or_else(|| {
            FileError::InvalidArgument(format!(
                "row group {i} does not exist (the file has {})",
                row_groups.len()
            ))
        })?;
        let schema = self.schema();
        if metadata.columns.len() != schema.num_columns() {
            return Err(FileError::Corrupt(format!(
                "row group {i} has {} column chunks, the schema {} leaf columns",
                metadata.columns.len(),
                schema.num_columns()
            )));
        }
        let mut reader = SerializedRowGroupReader {
            file: self,
            index: i,
            metadata,
            bloom_filters: Vec::new(),
        };
        if self.props.read_bloom_filter() {
            reader.bloom_filters = (0..metadata.columns.len())
                .map(|j| reader.bloom_filter(j))
                .collect::<Result<_>>()?;
        }
        Ok(reader)
    }

    /// The column index of column `column` in row group `row_group`, or
    /// `None` if the file has none for it.
    pub fn column_index(&self, row_group: usize, column: usize) -> Result<Option<ColumnIndex>> {
        self.row_group(row_group)?.column_index(column)
    }

    /// The offset index of column `column` in row group `row_group`, or
    /// `None` if the file has none for it.
    pub fn offset_index(&self, row_group: usize, column: usize) -> Result<Option<OffsetIndex>> {
        self.row_group(row_group)?.offset_index(column)
    }

    /// The Bloom filter of column `column` in row group `row_group`, or
    /// `None` if the file has none for it.
    pub fn bloom_filter(&self, row_group: usize, column: usize) -> Result<Option<Sbbf>> {
        self.row_group(row_group)?.bloom_filter(column)
    }

    /// Read `length` bytes at `offset`, both taken from the metadata:
    /// negative or out-of-file values are corrupt.
    /// The bytes of `range` (checked against the file's length by
    /// whoever made it).
    fn get_range(&self, range: std::ops::Range<u64>) -> Result<Bytes> {
        let len = usize::try_from(range.end.saturating_sub(range.start))
            .map_err(|_| FileError::Corrupt(format!("a byte range of {range:?}")))?;
        self.reader.get_bytes(range.start, len)
    }

    fn read_range(&self, offset: i64, length: i64, what: &str) -> Result<Bytes> {
        let range = u64::try_from(offset)
            .ok()
            .zip(usize::try_from(length).ok())
            .filter(|(start, len)| check_range(*start, *len, self.file_len).is_ok());
        let (start, len) = range.ok_or_else(|| {
            FileError::Corrupt(format!(
                "{what} at offset {offset} with length {length} is outside the {} bytes of the file",
                self.file_len
            ))
        })?;
        self.reader.get_bytes(start, len)
    }
}

impl TryFrom<File> for SerializedFileReader<File> {
    type Error = FileError;

    /// [`SerializedFileReader::new`].
    fn try_from(file: File) -> Result<Self> {
        Self::new(file)
    }
}

impl TryFrom<&Path> for SerializedFileReader<File> {
    type Error = FileError;

    /// Open the file at `path` and read its footer.
    fn try_from(path: &Path) -> Result<Self> {
        Self::new(File::open(path)?)
    }
}

impl TryFrom<String> for SerializedFileReader<File> {
    type Error = FileError;

    /// Open the file at `path` and read its footer.
    fn try_from(path: String) -> Result<Self> {
        Self::try_from(Path::new(&path))
    }
}

impl TryFrom<&str> for SerializedFileReader<File> {
    type Error = FileError;

    /// Open the file at `path` and read its footer.
    fn try_from(path: &str) -> Result<Self> {
        Self::try_from(Path::new(path))
    }
}

/// Reads one row group: its column chunks' pages, page indexes and Bloom
/// filters.
#[derive(Debug)]
pub struct SerializedRowGroupReader<'a, R: ChunkReader> {
    file: &'a SerializedFileReader<R>,
    index: usize,
    metadata: &'a RowGroup,
    /// Every column's Bloom filter, read when the reader was made if the
    /// file's properties ask for them; empty otherwise.
    bloom_filters: Vec<Option<Sbbf>>,
}

impl<'a, R: ChunkReader> SerializedRowGroupReader<'a, R> {
    /// The row group's metadata (what arrow-rs's
    /// `RowGroupReader::metadata` returns).
    pub fn metadata(&self) -> &'a RowGroupMetaData {
        self.metadata
    }

    /// The file this row group belongs to.
    pub fn file(&self) -> &'a SerializedFileReader<R> {
        self.file
    }

    /// The Bloom filter of column `j` read when this reader was made:
    /// `None` when the file has none for it, or when the reader's
    /// properties did not ask for Bloom filters
    /// ([`ReaderPropertiesBuilder::set_read_bloom_filter`](crate::properties::ReaderPropertiesBuilder::set_read_bloom_filter)).
    pub fn loaded_bloom_filter(&self, j: usize) -> Option<&Sbbf> {
        self.bloom_filters.get(j).and_then(Option::as_ref)
    }

    /// Position of this row group in the file.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Number of rows.
    pub fn num_rows(&self) -> i64 {
        self.metadata.num_rows
    }

    /// Number of column chunks (one per leaf column).
    pub fn num_columns(&self) -> usize {
        self.metadata.columns.len()
    }

    /// The descriptor (path, type, levels) of column `j`.
    pub fn column_descriptor(&self, j: usize) -> Result<&'a ColumnDescriptor> {
        self.file
            .schema()
            .columns()
            .get(j)
            .map(|column| &**column)
            .ok_or_else(|| no_column(j))
    }

    /// The metadata of column chunk `j`.
    pub fn column_chunk(&self, j: usize) -> Result<&'a ColumnChunk> {
        self.metadata.columns.get(j).ok_or_else(|| no_column(j))
    }

    /// The column metadata of chunk `j`. Fails for chunks stored in
    /// another file, and for encrypted columns unless the file was read
    /// with their key (the `encryption` feature).
    pub fn column_metadata(&self, j: usize) -> Result<&'a ColumnMetaData> {
        let chunk = self.column_chunk(j)?;
        if (chunk.crypto_metadata().is_some() || chunk.encrypted_column_metadata().is_some())
            && !self.decryptable(chunk)
        {
            return Err(FileError::EncryptedColumn(self.column_name(j)));
        }
        if let Some(path) = chunk.file_path() {
            return Err(FileError::Unsupported(format!(
                "column chunk {j} of row group {} is stored in another file ({path})",
                self.index
            )));
        }
        chunk.meta_data.as_ref().ok_or_else(|| {
            FileError::Corrupt(format!(
                "column chunk {j} of row group {} has no metadata",
                self.index
            ))
        })
    }

    fn column_name(&self, j: usize) -> String {
        self.file
            .schema()
            .columns()
            .get(j)
            .map(|c| c.path.string())
            .unwrap_or_else(|| format!("#{j}"))
    }

    /// The byte range of column chunk `j` in the file: `(start, length)`.
    ///
    /// The chunk starts at the smaller of `dictionary_page_offset` and
    /// `data_page_offset`, counting only offsets that are positive (a file
    /// starts with its magic, so 0 is never a page): some writers store a
    /// dictionary offset of 0 or leave it out when `data_page_offset`
    /// already points at the dictionary page, and some store a data page
    /// offset of 0 for a chunk without data pages. The length is
    /// `total_compressed_size`; the range must lie within the file.
    pub fn column_chunk_range(&self, j: usize) -> Result<(u64, u64)> {
        let meta = self.column_metadata(j)?;
        let data_start = meta.data_page_offset;
        let start = [meta.dictionary_page_offset, Some(data_start)]
            .into_iter()
            .flatten()
            .filter(|offset| *offset > 0)
            .min()
            .unwrap_or(data_start);
        let bad = || {
            FileError::Corrupt(format!(
                "column chunk {j} of row group {} (offset {start}, {} bytes) is outside the {} bytes of the file",
                self.index, meta.total_compressed_size, self.file.file_len
            ))
        };
        let start = u64::try_from(start).map_err(|_| bad())?;
        let len = u64::try_from(meta.total_compressed_size).map_err(|_| bad())?;
        match start.checked_add(len) {
            Some(end) if end <= self.file.file_len => Ok((start, len)),
            _ => Err(bad()),
        }
    }

    /// The bytes of column chunk `j` (see
    /// [`column_chunk_range`](Self::column_chunk_range)).
    pub fn column_chunk_bytes(&self, j: usize) -> Result<Bytes> {
        let (start, len) = self.column_chunk_range(j)?;
        let len = usize::try_from(len)
            .map_err(|_| FileError::Corrupt(format!("column chunk of {len} bytes")))?;
        self.file.reader.get_bytes(start, len)
    }

    /// Whether encrypted chunk `chunk` can be read: the file was read with
    /// its key.
    fn decryptable(&self, chunk: &ColumnChunk) -> bool {
        #[cfg(feature = "encryption")]
        if let Some(decryptor) = self.file.metadata.file_decryptor() {
            return decryptor.has_key(chunk.crypto_metadata());
        }
        let _ = chunk;
        false
    }

    /// Make `pages` (over chunk `j`, whose metadata is `meta`) decrypt its
    /// pages when the chunk is encrypted.
    #[allow(unused_variables)]
    fn decrypt_pages(&self, j: usize, meta: &ColumnMetaData, pages: &mut PageReader) -> Result<()> {
        #[cfg(feature = "encryption")]
        if let Some(decryptor) = self.file.metadata.file_decryptor() {
            let (start, _) = self.column_chunk_range(j)?;
            let chunk = self.column_chunk(j)?;
            let ordinal = (self.index, self.metadata.ordinal());
            if let Some(d) = decryptor.chunk(ordinal, j, chunk.crypto_metadata(), meta, start)? {
                pages.set_decryptor(d);
            }
        }
        Ok(())
    }

    /// A page reader over column chunk `j`, with the file's options.
    pub fn page_reader(&self, j: usize) -> Result<PageReader> {
        let meta = self.column_metadata(j)?;
        let chunk = self.column_chunk_bytes(j)?;
        let mut pages = PageReader::with_options(
            chunk,
            meta.codec,
            meta.num_values,
            self.file.props.page_options(),
        )?;
        self.decrypt_pages(j, meta, &mut pages)?;
        Ok(pages)
    }

    /// A page reader over column chunk `j` that knows its page locations
    /// from the offset index, so pages can be skipped without decoding
    /// their headers. Without an offset index this is
    /// [`page_reader`](Self::page_reader).
    pub fn indexed_page_reader(&self, j: usize) -> Result<PageReader> {
        let mut pages = self.page_reader(j)?;
        if let Some(index) = self.offset_index(j)? {
            let (start, _) = self.column_chunk_range(j)?;
            pages.set_page_locations(&index.page_locations, start)?;
        }
        Ok(pages)
    }

    /// The byte ranges (file offsets) of column chunk `j` that reading the
    /// rows `rows` of the row group needs (sorted, not overlapping), given
    /// the chunk's offset index: the bytes in front of its first data page
    /// (a dictionary page) and the data pages holding any of those rows,
    /// neighbouring pages in one range. When every page is needed this is
    /// the whole chunk in one range.
    pub fn page_ranges_for_rows(
        &self,
        j: usize,
        index: &OffsetIndex,
        rows: &[std::ops::Range<u64>],
    ) -> Result<Vec<std::ops::Range<u64>>> {
        let (start, len) = self.column_chunk_range(j)?;
        let end = start + len;
        let num_rows = u64::try_from(self.num_rows()).unwrap_or(0);
        let locations = &index.page_locations;
        let mut ranges: Vec<std::ops::Range<u64>> = Vec::new();
        let mut push = |r: std::ops::Range<u64>| match ranges.last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => ranges.push(r),
        };
        let mut every_page = true;
        let mut next_row = 0usize;
        for (i, page) in locations.iter().enumerate() {
            let bad = || {
                FileError::Corrupt(format!(
                    "offset index page {i} of column chunk {j} (offset {}, size {}) is not inside the chunk",
                    page.offset, page.compressed_page_size
                ))
            };
            let page_start = u64::try_from(page.offset).map_err(|_| bad())?;
            let page_end = u64::try_from(page.compressed_page_size)
                .ok()
                .and_then(|size| page_start.checked_add(size))
                .filter(|e| page_start >= start && *e <= end)
                .ok_or_else(bad)?;
            if i == 0 && page_start > start {
                push(start..page_start);
            }
            let first = u64::try_from(page.first_row_index).unwrap_or(0);
            let last = locations
                .get(i + 1)
                .map_or(num_rows, |p| u64::try_from(p.first_row_index).unwrap_or(0));
            // The selected rows are sorted: skip those before this page.
            while rows.get(next_row).is_some_and(|r| r.end <= first) {
                next_row += 1;
            }
            // A page of no rows of its own (which a broken index might
            // claim) is read, in case it continues a record.
            if first >= last || rows.get(next_row).is_some_and(|r| r.start < last) {
                push(page_start..page_end);
            } else {
                every_page = false;
            }
        }
        if every_page || locations.is_empty() {
            return Ok(std::iter::once(start..end).collect());
        }
        Ok(ranges)
    }

    /// A page reader over the pieces `ranges` of column chunk `j` (from
    /// [`page_ranges_for_rows`](Self::page_ranges_for_rows)) that knows
    /// the chunk's page locations from `index`: pages outside the pieces
    /// are skipped by the index, and reading one is an error.
    pub fn sparse_page_reader(
        &self,
        j: usize,
        index: &OffsetIndex,
        ranges: &[std::ops::Range<u64>],
    ) -> Result<PageReader> {
        let meta = self.column_metadata(j)?;
        let (start, len) = self.column_chunk_range(j)?;
        let mut pieces = Vec::with_capacity(ranges.len());
        for r in ranges {
            let at = r
                .start
                .checked_sub(start)
                .and_then(|at| usize::try_from(at).ok())
                .ok_or_else(|| {
                    FileError::InvalidArgument(format!(
                        "range {r:?} is not inside column chunk {j}"
                    ))
                })?;
            let length = usize::try_from(r.end.saturating_sub(r.start))
                .map_err(|_| FileError::InvalidArgument(format!("a range of {r:?}")))?;
            pieces.push((at, self.file.reader.get_bytes(r.start, length)?));
        }
        let chunk_len = usize::try_from(len)
            .map_err(|_| FileError::Corrupt(format!("column chunk of {len} bytes")))?;
        let mut pages = PageReader::with_pieces(
            pieces,
            chunk_len,
            meta.codec,
            meta.num_values,
            self.file.props.page_options(),
        )?;
        self.decrypt_pages(j, meta, &mut pages)?;
        pages.set_page_locations(&index.page_locations, start)?;
        Ok(pages)
    }

    /// The column index of chunk `j`, or `None` if it has none.
    pub fn column_index(&self, j: usize) -> Result<Option<ColumnIndex>> {
        let chunk = self.column_chunk(j)?;
        self.read_index(
            j,
            chunk.column_index_offset,
            chunk.column_index_length,
            "column index",
        )
    }

    /// The offset index of chunk `j`, or `None` if it has none: the one
    /// the file's metadata holds when its page index was loaded, or else
    /// read from the file.
    pub fn offset_index(&self, j: usize) -> Result<Option<OffsetIndex>> {
        let chunk = self.column_chunk(j)?;
        if let Some(index) = self
            .file
            .metadata
            .page_index()
            .and_then(|p| p.offset_index(self.index, j))
        {
            return Ok(Some(index.clone()));
        }
        self.read_index(
            j,
            chunk.offset_index_offset,
            chunk.offset_index_length,
            "offset index",
        )
    }

    fn read_index<T: ReadThrift>(
        &self,
        j: usize,
        offset: Option<i64>,
        length: Option<i32>,
        what: &str,
    ) -> Result<Option<T>> {
        let Some(offset) = offset else {
            return Ok(None);
        };
        let chunk = self.column_chunk(j)?;
        if chunk.crypto_metadata().is_some() && !self.decryptable(chunk) {
            return Err(FileError::EncryptedColumn(self.column_name(j)));
        }
        let length = length.ok_or_else(|| {
            FileError::Corrupt(format!(
                "column chunk {j} of row group {} has a {what} offset but no length",
                self.index
            ))
        })?;
        let bytes = self.file.read_range(offset, i64::from(length), what)?;
        #[cfg(feature = "encryption")]
        if let Some(decryptor) = self.file.metadata.file_decryptor() {
            let at = (self.index, self.metadata.ordinal());
            let column_index = what == "column index";
            if let Some(plaintext) =
                decryptor.unseal_index(at, j, chunk.crypto_metadata(), column_index, &bytes)?
            {
                return Ok(Some(thrift::decode(&plaintext)?));
            }
        }
        Ok(Some(thrift::decode(&bytes)?))
    }

    /// The Bloom filter of chunk `j`, or `None` if it has none.
    ///
    /// Uses `bloom_filter_length` when the metadata has it; otherwise reads
    /// the header first and then exactly the bitset it declares (after
    /// checking it against the file and [`MAX_BLOOM_BYTES`](crate::bloom::MAX_BLOOM_BYTES)).
    pub fn bloom_filter(&self, j: usize) -> Result<Option<Sbbf>> {
        let meta = self.column_metadata(j)?;
        #[cfg(feature = "encryption")]
        if let Some(filter) = crate::bloom::read_encrypted_bloom_filter(
            &self.file.metadata,
            (self.index, j),
            |range| self.file.get_range(range),
        )? {
            return Ok(filter);
        }
        let Some(fetch) = BloomFilterFetch::plan(meta, Some(self.file.file_len))? else {
            return Ok(None);
        };
        match fetch.next(&self.file.get_range(fetch.first_range())?)? {
            BloomFilterStep::Filter(filter) => Ok(Some(filter)),
            BloomFilterStep::Fetch(range) => Sbbf::read(&self.file.get_range(range)?).map(Some),
        }
    }
}

fn no_column(j: usize) -> FileError {
    FileError::InvalidArgument(format!("column {j} does not exist"))
}
