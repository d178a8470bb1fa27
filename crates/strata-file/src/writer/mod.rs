//! The physical file writer: [`FileWriter`] writes `PAR1`, row groups made
//! of column chunks, Bloom filters, page indexes and the footer;
//! [`RowGroupWriter`] places one row group's column chunks in order;
//! [`ColumnChunkWriter`] (typed) and [`ColumnWriter`] (untyped) turn
//! values and levels into a [`ClosedColumnChunk`].
//!
//! File layout written:
//!
//! ```text
//! PAR1
//! row group 0: column chunk 0 (dictionary page, data pages) ... column chunk n
//!              Bloom filters of row group 0
//! row group 1: ...
//! column indexes (every row group, every column), then offset indexes
//! footer (FileMetaData), its length, PAR1
//! ```
//!
//! Column chunks are buffered in memory until they are closed, then
//! written in one piece; a row group's chunks may be written by separate
//! [`ColumnWriter`]s at the same time (see
//! [`RowGroupWriter::column_writers`]) and appended in column order.
//!
//! ```
//! use std::sync::Arc;
//! use strata_encoding::ByteArrayBatch;
//! use strata_file::properties::WriterProperties;
//! use strata_file::writer::FileWriter;
//! use strata_format::metadata::{FieldRepetitionType as Rep, LogicalType, SchemaElement, Type};
//! use strata_format::SchemaDescriptor;
//!
//! let schema = Arc::new(SchemaDescriptor::from_elements(&[
//!     SchemaElement { name: "schema".into(), num_children: Some(2), ..Default::default() },
//!     SchemaElement {
//!         name: "id".into(), physical_type: Some(Type::Int32),
//!         repetition_type: Some(Rep::Required), ..Default::default()
//!     },
//!     SchemaElement {
//!         name: "name".into(), physical_type: Some(Type::ByteArray),
//!         repetition_type: Some(Rep::Optional), logical_type: Some(LogicalType::String),
//!         ..Default::default()
//!     },
//! ]).unwrap());
//!
//! let mut file = Vec::new();
//! let mut writer = FileWriter::new(&mut file, schema, Arc::new(WriterProperties::default())).unwrap();
//! let mut row_group = writer.next_row_group().unwrap();
//! while let Some(mut column) = row_group.next_column().unwrap() {
//!     if let Some(ids) = column.typed::<i32>() {
//!         ids.write_batch(&[1, 2, 3], None, None).unwrap();
//!     } else if let Some(names) = column.typed::<strata_encoding::ByteArray>() {
//!         let values = ByteArrayBatch::from_slices(&[b"ann", b"cy"]);
//!         names.write_values(values, Some(&[1, 0, 1]), None).unwrap();
//!     }
//!     row_group.append_column(column.close().unwrap()).unwrap();
//! }
//! row_group.close().unwrap();
//! let metadata = writer.close().unwrap();
//! assert_eq!(metadata.num_rows, 3);
//! assert_eq!(&file[..4], b"PAR1");
//! assert_eq!(&file[file.len() - 4..], b"PAR1");
//! ```

mod column;
mod serialized;
mod value;

pub use column::{ClosedColumnChunk, ColumnChunkWriter, ColumnWriter};
pub use serialized::{
    ColumnWriterImpl, SerializedColumnWriter, SerializedFileWriter, SerializedRowGroupWriter,
};
pub use value::{BoxDict, BoxEncoder, ColumnValue, DictSink};

use std::io::{IoSlice, Write};
use std::sync::Arc;

#[cfg(feature = "encryption")]
mod encrypted;

#[cfg(not(feature = "encryption"))]
use strata_format::footer::PARQUET_MAGIC;
use strata_format::footer::write_footer;
use strata_format::metadata::{
    ColumnChunk, ColumnIndex, ColumnOrder, FileMetaData, KeyValue, OffsetIndex, RowGroup,
};
use strata_format::{ColumnDescriptor, SchemaDescriptor, thrift};
use strata_sink::ByteSink;

use crate::error::{FileError, Result};
use crate::properties::WriterProperties;

fn invalid(msg: impl Into<String>) -> FileError {
    FileError::InvalidArgument(msg.into())
}

/// A writer that counts the bytes written through it, so offsets are
/// known without seeking.
#[derive(Debug)]
struct CountingWriter<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> CountingWriter<W> {
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.inner.write_all(bytes)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// Write every byte of `parts`, as few calls to the inner writer's
    /// `write_vectored` as it takes (a writer without a vectored write
    /// takes one part a call).
    fn write_all_vectored(&mut self, mut parts: &mut [IoSlice<'_>]) -> Result<()> {
        IoSlice::advance_slices(&mut parts, 0);
        while !parts.is_empty() {
            match self.inner.write_vectored(parts) {
                Ok(0) => return Err(std::io::Error::from(std::io::ErrorKind::WriteZero).into()),
                Ok(n) => {
                    self.written += n as u64;
                    IoSlice::advance_slices(&mut parts, n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

fn offset_i64(v: u64) -> Result<i64> {
    i64::try_from(v).map_err(|_| invalid(format!("file offset {v} exceeds i64")))
}

/// Page indexes of one column chunk, held until the file is closed.
#[derive(Debug, Default)]
struct ChunkIndexes {
    column_index: Option<ColumnIndex>,
    offset_index: Option<OffsetIndex>,
}

/// Writes a Parquet file to any `Write`: the leading `PAR1` on creation,
/// then row groups ([`next_row_group`](Self::next_row_group)), then page
/// indexes and the footer on [`close`](Self::close).
///
/// See the [module documentation](self) for an example.
#[derive(Debug)]
pub struct FileWriter<W: Write + Send> {
    out: CountingWriter<W>,
    schema: Arc<SchemaDescriptor>,
    props: Arc<WriterProperties>,
    row_groups: Vec<RowGroup>,
    indexes: Vec<Vec<ChunkIndexes>>,
    extra_kv: Vec<KeyValue>,
    row_group_open: bool,
    finished: Option<FileMetaData>,
    /// What encrypts the file, when its properties say to.
    encryptor: Encryptor,
}

/// The encryption of a file being written (the `encryption` feature).
#[cfg(feature = "encryption")]
type Encryptor = Option<crate::encryption::FileEncryptor>;
/// Without the `encryption` feature, nothing.
#[cfg(not(feature = "encryption"))]
type Encryptor = ();

/// A page index's bytes (a column index if `column_index`) of the chunk at
/// `(row group, column)`, sealed as a module when its column is
/// encrypted; `None` when it is not.
#[cfg(feature = "encryption")]
fn seal_index(
    encryptor: &mut Encryptor,
    columns: &[Arc<ColumnDescriptor>],
    at: (usize, usize),
    column_index: bool,
    bytes: &[u8],
) -> Result<Option<Vec<u8>>> {
    match (encryptor.as_mut(), columns.get(at.1)) {
        (Some(e), Some(descr)) => encrypted::seal_index(e, descr, at, column_index, bytes),
        _ => Ok(None),
    }
}

#[cfg(not(feature = "encryption"))]
fn seal_index(
    _: &mut Encryptor,
    _: &[Arc<ColumnDescriptor>],
    _: (usize, usize),
    _: bool,
    _: &[u8],
) -> Result<Option<Vec<u8>>> {
    Ok(None)
}

impl<W: Write + Send> FileWriter<W> {
    /// Start a file: writes `PAR1`.
    pub fn new(
        writer: W,
        schema: Arc<SchemaDescriptor>,
        props: Arc<WriterProperties>,
    ) -> Result<Self> {
        let mut out = CountingWriter {
            inner: writer,
            written: 0,
        };
        #[cfg(feature = "encryption")]
        let encryptor: Encryptor = props
            .file_encryption_properties()
            .map(|p| crate::encryption::FileEncryptor::new(Arc::clone(p)))
            .transpose()?;
        #[cfg(feature = "encryption")]
        out.write_all(&encrypted::magic(encryptor.as_ref()))?;
        #[cfg(not(feature = "encryption"))]
        let encryptor: Encryptor = ();
        #[cfg(not(feature = "encryption"))]
        out.write_all(&PARQUET_MAGIC)?;
        Ok(Self {
            out,
            schema,
            props,
            row_groups: Vec::new(),
            indexes: Vec::new(),
            extra_kv: Vec::new(),
            row_group_open: false,
            finished: None,
            encryptor,
        })
    }

    /// The schema written.
    pub fn schema_descr(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// The writer settings.
    pub fn properties(&self) -> &Arc<WriterProperties> {
        &self.props
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.out.written
    }

    /// The schema's leaf columns, one shared descriptor each (column
    /// writers can hold these instead of copies).
    pub fn columns(&self) -> &[Arc<ColumnDescriptor>] {
        self.schema.columns()
    }

    /// Row groups written so far.
    pub fn flushed_row_groups(&self) -> &[RowGroup] {
        match &self.finished {
            Some(m) => &m.row_groups,
            None => &self.row_groups,
        }
    }

    /// Add a key/value pair to the footer (after those of the properties).
    pub fn append_key_value_metadata(&mut self, kv: KeyValue) {
        self.extra_kv.push(kv);
    }

    /// Start the next row group. Fails if the previous one was not closed
    /// or the file is closed.
    pub fn next_row_group(&mut self) -> Result<RowGroupWriter<'_, W>> {
        if self.finished.is_some() {
            return Err(invalid("the file is closed"));
        }
        if self.row_group_open {
            return Err(invalid(
                "the previous row group was not closed; its partial bytes make the file unusable",
            ));
        }
        self.row_group_open = true;
        // Not sized up front: the chunks' metadata grows while the column
        // writers that made it are dropped one by one.
        Ok(RowGroupWriter {
            file: self,
            chunks: Vec::new(),
            indexes: Vec::new(),
            blooms: Vec::new(),
            num_rows: None,
            total_uncompressed: 0,
            total_compressed: 0,
            file_offset: None,
        })
    }

    /// Write the page indexes and the footer, and return the footer's
    /// metadata. Calling it again returns the same metadata.
    pub fn finish(&mut self) -> Result<FileMetaData> {
        if let Some(m) = &self.finished {
            return Ok(m.clone());
        }
        let metadata = self.write_footer()?;
        self.finished = Some(metadata.clone());
        Ok(metadata)
    }

    /// Write the page indexes and the footer once; the row groups' metadata
    /// moves into the returned footer (a writer with thousands of columns
    /// holds one copy of it, not several).
    fn write_footer(&mut self) -> Result<FileMetaData> {
        if self.row_group_open {
            return Err(invalid("a row group is still open"));
        }
        let mut sink = ByteSink::new();
        // Column indexes of every chunk, then offset indexes, as arrow-rs
        // and parquet-java lay them out.
        // An encrypted column's index is written as its module.
        for (g, (rg, indexes)) in self.row_groups.iter_mut().zip(&self.indexes).enumerate() {
            for (j, (chunk, idx)) in rg.columns.iter_mut().zip(indexes).enumerate() {
                if let Some(ci) = &idx.column_index {
                    sink.clear();
                    thrift::encode(ci, &mut sink);
                    let sealed = seal_index(
                        &mut self.encryptor,
                        self.schema.columns(),
                        (g, j),
                        true,
                        sink.as_slice(),
                    )?;
                    let bytes = sealed.as_deref().unwrap_or(sink.as_slice());
                    chunk.column_index_offset = Some(offset_i64(self.out.written)?);
                    chunk.column_index_length = Some(len_i32(bytes.len())?);
                    self.out.write_all(bytes)?;
                }
            }
        }
        for (g, (rg, indexes)) in self.row_groups.iter_mut().zip(&self.indexes).enumerate() {
            for (j, (chunk, idx)) in rg.columns.iter_mut().zip(indexes).enumerate() {
                if let Some(oi) = &idx.offset_index {
                    sink.clear();
                    thrift::encode(oi, &mut sink);
                    let sealed = seal_index(
                        &mut self.encryptor,
                        self.schema.columns(),
                        (g, j),
                        false,
                        sink.as_slice(),
                    )?;
                    let bytes = sealed.as_deref().unwrap_or(sink.as_slice());
                    chunk.offset_index_offset = Some(offset_i64(self.out.written)?);
                    chunk.offset_index_length = Some(len_i32(bytes.len())?);
                    self.out.write_all(bytes)?;
                }
            }
        }
        let mut kv: Vec<KeyValue> = self.props.key_value_metadata().cloned().unwrap_or_default();
        kv.append(&mut self.extra_kv);
        #[allow(unused_mut)]
        let mut metadata = FileMetaData {
            version: self.props.writer_version().as_num(),
            schema: self.schema.to_elements(),
            num_rows: self.row_groups.iter().map(|rg| rg.num_rows).sum(),
            row_groups: std::mem::take(&mut self.row_groups),
            key_value_metadata: (!kv.is_empty()).then_some(kv),
            created_by: Some(self.props.created_by().to_string()),
            column_orders: Some(
                self.schema
                    .columns()
                    .iter()
                    .map(|c| {
                        ColumnOrder::column_order_for_type(
                            c.logical_type_ref(),
                            c.converted_type(),
                            c.physical_type(),
                        )
                    })
                    .collect(),
            ),
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        sink.clear();
        #[cfg(feature = "encryption")]
        if let Some(e) = self.encryptor.as_mut() {
            encrypted::encrypt_column_metadata(e, self.schema.columns(), &mut metadata.row_groups)?;
            encrypted::write_encrypted_footer(e, &mut metadata, &mut sink)?;
            self.out.write_all(sink.as_slice())?;
            self.out.inner.flush()?;
            return Ok(metadata);
        }
        write_footer(&metadata, &mut sink)?;
        self.out.write_all(sink.as_slice())?;
        self.out.inner.flush()?;
        Ok(metadata)
    }

    /// Finish the file (see [`finish`](Self::finish)) and return its
    /// metadata.
    pub fn close(mut self) -> Result<FileMetaData> {
        match self.finished.take() {
            Some(m) => Ok(m),
            None => self.write_footer(),
        }
    }

    /// Finish the file and return the underlying writer.
    pub fn into_inner(mut self) -> Result<W> {
        if self.finished.is_none() {
            self.write_footer()?;
        }
        Ok(self.out.inner)
    }

    /// The underlying writer.
    pub fn inner(&self) -> &W {
        &self.out.inner
    }

    /// The underlying writer, mutably. Bytes written through it are not
    /// counted, so the file's offsets would be wrong: for flushing or
    /// inspecting the sink, not writing to it.
    pub fn inner_mut(&mut self) -> &mut W {
        &mut self.out.inner
    }
}

fn len_i32(n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| invalid(format!("structure of {n} bytes exceeds i32")))
}

/// Writes one row group: column chunks appended in schema order, then
/// [`close`](Self::close).
///
/// Dropping it unclosed leaves the file unusable (its chunks are already
/// written); the file writer then refuses further row groups.
#[derive(Debug)]
pub struct RowGroupWriter<'a, W: Write + Send> {
    file: &'a mut FileWriter<W>,
    chunks: Vec<ColumnChunk>,
    indexes: Vec<ChunkIndexes>,
    blooms: Vec<Option<Vec<u8>>>,
    num_rows: Option<u64>,
    total_uncompressed: i64,
    total_compressed: i64,
    file_offset: Option<i64>,
}

impl<W: Write + Send> RowGroupWriter<'_, W> {
    /// A writer for the next column to append, or `None` once every column
    /// is appended. (Calling it again before appending gives a new writer
    /// for the same column.)
    pub fn next_column(&mut self) -> Result<Option<ColumnWriter>> {
        let i = self.chunks.len();
        match self.file.schema.columns().get(i) {
            Some(d) => Ok(Some(ColumnWriter::new(
                Arc::clone(d),
                i,
                Arc::clone(&self.file.props),
            )?)),
            None => Ok(None),
        }
    }

    /// Writers for every column of the row group, to fill independently
    /// (for example on several threads) and append in order. Idle writers
    /// hold no heap memory.
    pub fn column_writers(&self) -> Result<Vec<ColumnWriter>> {
        let mut writers = Vec::with_capacity(self.file.schema.columns().len());
        for (i, d) in self.file.schema.columns().iter().enumerate() {
            writers.push(ColumnWriter::new(
                Arc::clone(d),
                i,
                Arc::clone(&self.file.props),
            )?);
        }
        Ok(writers)
    }

    /// Number of columns appended so far.
    pub fn columns_appended(&self) -> usize {
        self.chunks.len()
    }

    /// Write a closed column chunk into the file. Chunks must come in
    /// column order and hold the same number of rows. The chunk's pages go
    /// to the sink in one vectored write (a file takes them in as few
    /// system calls as it accepts).
    pub fn append_column(
        &mut self,
        #[allow(unused_mut)] mut chunk: ClosedColumnChunk,
    ) -> Result<()> {
        self.admit(&chunk)?;
        #[cfg(feature = "encryption")]
        if let Some(encryptor) = self.file.encryptor.as_mut()
            && let Some(descr) = self.file.schema.columns().get(chunk.column)
        {
            let row_group = self.file.row_groups.len();
            encrypted::encrypt_chunk(encryptor, descr, row_group, &mut chunk)?;
        }
        let base = offset_i64(self.file.out.written)?;
        let mut parts: Vec<IoSlice<'_>> = std::iter::once(IoSlice::new(&chunk.dict_page))
            .chain(chunk.data.iter().map(IoSlice::new))
            .collect();
        self.file.out.write_all_vectored(&mut parts)?;
        self.record_chunk(chunk, base)
    }

    /// Check that `chunk` is the column due and holds as many rows as the
    /// chunks before it.
    fn admit(&mut self, chunk: &ClosedColumnChunk) -> Result<()> {
        let column = self.chunks.len();
        if chunk.column != column {
            return Err(invalid(format!(
                "column chunk {} appended where column {column} is due",
                chunk.column
            )));
        }
        match self.num_rows {
            Some(n) if n != chunk.num_rows => Err(invalid(format!(
                "column {column} has {} rows, earlier columns of the row group {n}",
                chunk.num_rows
            ))),
            _ => {
                self.num_rows = Some(chunk.num_rows);
                Ok(())
            }
        }
    }

    /// Record the metadata and indexes of `chunk`, written at file offset
    /// `base`.
    fn record_chunk(&mut self, chunk: ClosedColumnChunk, base: i64) -> Result<()> {
        let mut meta = chunk.metadata;
        meta.data_page_offset += base;
        meta.dictionary_page_offset = meta.dictionary_page_offset.map(|o| o + base);
        self.file_offset.get_or_insert(base);
        self.total_uncompressed += meta.total_uncompressed_size;
        self.total_compressed += meta.total_compressed_size;
        let offset_index = chunk.offset_index.map(|mut oi| {
            for loc in &mut oi.page_locations {
                loc.offset += base;
            }
            oi
        });
        self.chunks.push(ColumnChunk {
            file_offset: 0,
            meta_data: Some(meta),
            column_descr: self.file.schema.columns().get(self.chunks.len()).cloned(),
            ..Default::default()
        });
        self.indexes.push(ChunkIndexes {
            column_index: chunk.column_index,
            offset_index,
        });
        self.blooms.push(chunk.bloom);
        Ok(())
    }

    /// Finish the row group: write its Bloom filters and record its
    /// metadata, of which a copy is returned. Fails unless every column was
    /// appended.
    pub fn close(mut self) -> Result<RowGroup> {
        self.record()?;
        self.file
            .row_groups
            .last()
            .cloned()
            .ok_or_else(|| invalid("no row group recorded"))
    }

    /// Like [`close`](Self::close), without returning a copy of the
    /// metadata (which, for thousands of columns, is worth not making).
    pub fn finish(mut self) -> Result<()> {
        self.record()
    }

    fn record(&mut self) -> Result<()> {
        let n = self.file.schema.columns().len();
        if self.chunks.len() != n {
            return Err(invalid(format!(
                "row group closed with {} of {n} columns",
                self.chunks.len()
            )));
        }
        for (chunk, bloom) in self.chunks.iter_mut().zip(&self.blooms) {
            if let (Some(bytes), Some(meta)) = (bloom, &mut chunk.meta_data) {
                let extras = meta.extras_mut();
                extras.bloom_filter_offset = Some(offset_i64(self.file.out.written)?);
                extras.bloom_filter_length = Some(len_i32(bytes.len())?);
                self.file.out.write_all(bytes)?;
            }
        }
        let ordinal = i16::try_from(self.file.row_groups.len()).ok();
        let row_group = RowGroup {
            columns: std::mem::take(&mut self.chunks),
            total_byte_size: self.total_uncompressed,
            num_rows: offset_i64(self.num_rows.unwrap_or(0))?,
            sorting_columns: self.file.props.sorting_columns().cloned(),
            file_offset: self.file_offset,
            total_compressed_size: Some(self.total_compressed),
            ordinal,
            schema_descr: Some(Arc::clone(&self.file.schema)),
        };
        self.file.row_groups.push(row_group);
        self.file.indexes.push(std::mem::take(&mut self.indexes));
        self.file.row_group_open = false;
        Ok(())
    }
}
