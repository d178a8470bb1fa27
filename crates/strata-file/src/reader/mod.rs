//! [`FileReader`]: the physical reader of a Parquet file.
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
//! ```no_run
//! use strata_file::reader::FileReader;
//!
//! let reader = FileReader::try_new(std::fs::File::open("data.parquet")?)?;
//! println!("{} rows in {} row groups", reader.metadata().num_rows, reader.num_row_groups());
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

use std::sync::Arc;

use bytes::Bytes;
use strata_format::metadata::{
    BloomFilterHeader, ColumnChunk, ColumnIndex, ColumnMetaData, FileMetaData, OffsetIndex,
    RowGroup,
};
use strata_format::thrift::{self, ReadThrift};
use strata_format::{ColumnDescriptor, SchemaDescriptor};

use crate::bloom::{MAX_BLOOM_BYTES, Sbbf};
use crate::chunk_reader::{ChunkReader, check_range};
use crate::error::{FileError, Result};
use crate::page_reader::{PageReader, PageReaderOptions};

/// Most bytes read to decode a Bloom filter header whose length the
/// metadata does not give. Headers are a few bytes; this leaves room for
/// unknown fields.
const BLOOM_HEADER_PROBE_LEN: u64 = 256;

/// Options of a [`FileReader`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Options given to every [`PageReader`] the file reader creates
    /// (CRC verification).
    pub page_options: PageReaderOptions,
}

impl ReadOptions {
    /// Verify page CRCs where page headers carry one.
    pub fn with_page_crc_verification(mut self, verify: bool) -> Self {
        self.page_options.verify_crc = verify;
        self
    }
}

/// Reads a Parquet file through a [`ChunkReader`].
#[derive(Debug)]
pub struct FileReader<R: ChunkReader> {
    reader: R,
    file_len: u64,
    /// Shared, so that readers of one file opened from metadata already
    /// read (`with_metadata`) hold one copy of it.
    metadata: Arc<FileMetaData>,
    schema: Arc<SchemaDescriptor>,
    options: ReadOptions,
}

impl<R: ChunkReader> FileReader<R> {
    /// Open a file: read and decode its footer and build its schema.
    ///
    /// Files with an encrypted footer fail with
    /// [`FormatError::Encrypted`](strata_format::FormatError::Encrypted)
    /// (inside [`FileError::Format`]).
    pub fn try_new(reader: R) -> Result<Self> {
        Self::try_new_with_options(reader, ReadOptions::default())
    }

    /// [`try_new`](Self::try_new) with options.
    pub fn try_new_with_options(reader: R, options: ReadOptions) -> Result<Self> {
        let file_len = reader.len();
        let (metadata, _) = crate::metadata::read_footer(&reader, file_len, None, None)?;
        let schema = SchemaDescriptor::from_elements(&metadata.schema)?;
        Ok(Self {
            reader,
            file_len,
            metadata: Arc::new(metadata),
            schema: Arc::new(schema),
            options,
        })
    }

    /// A reader of `reader` whose footer was already read: `metadata` and
    /// its `schema` (from [`shared_metadata`](Self::shared_metadata) and
    /// [`shared_schema`](Self::shared_schema) of an earlier reader of the
    /// same file), so the footer is neither read nor decoded again.
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
    /// use strata_file::reader::{FileReader, ReadOptions};
    ///
    /// let file = Bytes::from(out);
    /// let first = FileReader::try_new(file.clone()).unwrap();
    /// let second = FileReader::with_metadata(
    ///     file,
    ///     first.shared_metadata(),
    ///     first.shared_schema(),
    ///     ReadOptions::default(),
    /// );
    /// assert_eq!(second.num_row_groups(), first.num_row_groups());
    /// ```
    pub fn with_metadata(
        reader: R,
        metadata: Arc<FileMetaData>,
        schema: Arc<SchemaDescriptor>,
        options: ReadOptions,
    ) -> Self {
        Self {
            file_len: reader.len(),
            reader,
            metadata,
            schema,
            options,
        }
    }

    /// The decoded footer, shared.
    pub fn shared_metadata(&self) -> Arc<FileMetaData> {
        Arc::clone(&self.metadata)
    }

    /// The schema, shared.
    pub fn shared_schema(&self) -> Arc<SchemaDescriptor> {
        Arc::clone(&self.schema)
    }

    /// The decoded footer.
    pub fn metadata(&self) -> &FileMetaData {
        &self.metadata
    }

    /// The schema, with a descriptor per leaf column.
    pub fn schema(&self) -> &SchemaDescriptor {
        &self.schema
    }

    /// The options this reader was opened with.
    pub fn options(&self) -> ReadOptions {
        self.options
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
        self.metadata.row_groups.len()
    }

    /// A reader for row group `i`. Fails if there is no such row group or
    /// it does not have one column chunk per leaf column of the schema.
    pub fn row_group(&self, i: usize) -> Result<RowGroupReader<'_, R>> {
        let metadata = self.metadata.row_groups.get(i).ok_or_else(|| {
            FileError::InvalidArgument(format!(
                "row group {i} does not exist (the file has {})",
                self.metadata.row_groups.len()
            ))
        })?;
        if metadata.columns.len() != self.schema.num_columns() {
            return Err(FileError::Corrupt(format!(
                "row group {i} has {} column chunks, the schema {} leaf columns",
                metadata.columns.len(),
                self.schema.num_columns()
            )));
        }
        Ok(RowGroupReader {
            file: self,
            index: i,
            metadata,
        })
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

/// Reads one row group: its column chunks' pages, page indexes and Bloom
/// filters.
#[derive(Debug)]
pub struct RowGroupReader<'a, R: ChunkReader> {
    file: &'a FileReader<R>,
    index: usize,
    metadata: &'a RowGroup,
}

impl<'a, R: ChunkReader> RowGroupReader<'a, R> {
    /// The row group's metadata.
    pub fn metadata(&self) -> &'a RowGroup {
        self.metadata
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
        self.file.schema.column(j).ok_or_else(|| no_column(j))
    }

    /// The metadata of column chunk `j`.
    pub fn column_chunk(&self, j: usize) -> Result<&'a ColumnChunk> {
        self.metadata.columns.get(j).ok_or_else(|| no_column(j))
    }

    /// The column metadata of chunk `j`. Fails for encrypted columns and
    /// chunks stored in another file.
    pub fn column_metadata(&self, j: usize) -> Result<&'a ColumnMetaData> {
        let chunk = self.column_chunk(j)?;
        if chunk.crypto_metadata().is_some() || chunk.encrypted_column_metadata().is_some() {
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
            .schema
            .column(j)
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

    /// A page reader over column chunk `j`, with the file's options.
    pub fn page_reader(&self, j: usize) -> Result<PageReader> {
        let meta = self.column_metadata(j)?;
        let chunk = self.column_chunk_bytes(j)?;
        PageReader::with_options(
            chunk,
            meta.codec,
            meta.num_values,
            self.file.options.page_options,
        )
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

    /// The offset index of chunk `j`, or `None` if it has none.
    pub fn offset_index(&self, j: usize) -> Result<Option<OffsetIndex>> {
        let chunk = self.column_chunk(j)?;
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
        if self.column_chunk(j)?.crypto_metadata().is_some() {
            return Err(FileError::EncryptedColumn(self.column_name(j)));
        }
        let length = length.ok_or_else(|| {
            FileError::Corrupt(format!(
                "column chunk {j} of row group {} has a {what} offset but no length",
                self.index
            ))
        })?;
        let bytes = self.file.read_range(offset, i64::from(length), what)?;
        Ok(Some(thrift::decode(&bytes)?))
    }

    /// The Bloom filter of chunk `j`, or `None` if it has none.
    ///
    /// Uses `bloom_filter_length` when the metadata has it; otherwise reads
    /// the header first and then exactly the bitset it declares (after
    /// checking it against the file and [`MAX_BLOOM_BYTES`]).
    pub fn bloom_filter(&self, j: usize) -> Result<Option<Sbbf>> {
        let meta = self.column_metadata(j)?;
        let Some(offset) = meta.bloom_filter_offset() else {
            return Ok(None);
        };
        if let Some(length) = meta.bloom_filter_length() {
            let bytes = self
                .file
                .read_range(offset, i64::from(length), "Bloom filter")?;
            return Sbbf::read(&bytes).map(Some);
        }
        let remaining = u64::try_from(offset)
            .ok()
            .and_then(|start| self.file.file_len.checked_sub(start))
            .ok_or_else(|| {
                FileError::Corrupt(format!(
                    "Bloom filter offset {offset} is outside the {} bytes of the file",
                    self.file.file_len
                ))
            })?;
        let probe_len = remaining.min(BLOOM_HEADER_PROBE_LEN) as i64;
        let probe = self
            .file
            .read_range(offset, probe_len, "Bloom filter header")?;
        let (header, header_len) = thrift::decode_prefix::<BloomFilterHeader>(&probe)?;
        let num_bytes = usize::try_from(header.num_bytes)
            .ok()
            .filter(|n| *n <= MAX_BLOOM_BYTES)
            .ok_or_else(|| {
                FileError::Corrupt(format!("Bloom filter of {} bytes", header.num_bytes))
            })?;
        let total = (header_len + num_bytes) as i64;
        let bytes = self.file.read_range(offset, total, "Bloom filter")?;
        Sbbf::read(&bytes).map(Some)
    }
}

fn no_column(j: usize) -> FileError {
    FileError::InvalidArgument(format!("column {j} does not exist"))
}
