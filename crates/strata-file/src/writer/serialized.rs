//! arrow-rs's writer without Arrow (`parquet::file::writer`):
//! [`SerializedFileWriter`], [`SerializedRowGroupWriter`] and
//! [`SerializedColumnWriter`], for code that writes values and levels
//! column by column.
//!
//! They are a thin face over [`FileWriter`], [`RowGroupWriter`] and the
//! typed [`ColumnChunkWriter`]: a column writer appends its chunk to the
//! row group when it is closed, as arrow-rs's does, and the file's
//! metadata comes back as a [`ParquetMetaData`]. The typed writer is the
//! one the Arrow writer uses, so pages, encodings, statistics, page
//! indexes and Bloom filters are the same as for Arrow data.
//!
//! Where arrow-rs panics (asking a column for a typed writer of another
//! type), strata hands out a writer that refuses every value, and closing
//! the column fails saying why.

use std::io::Write;
use std::sync::Arc;

use strata_format::metadata::KeyValue;
use strata_format::{SchemaDescriptor, TypePtr};

use super::column::{ClosedColumnChunk, ColumnChunkWriter, ColumnWriter};
use super::{FileWriter, RowGroupWriter};
use crate::data_type::DataType;
use crate::error::Result;
use crate::metadata::{ParquetMetaData, RowGroupMetaData, RowGroupMetaDataPtr};
use crate::properties::WriterPropertiesPtr;

/// The typed column writer arrow-rs's `typed::<T>()` returns
/// (`parquet::column::writer::ColumnWriterImpl`): strata's
/// [`ColumnChunkWriter`] of the physical type `T`, whose
/// [`write_batch`](ColumnChunkWriter::write_batch) takes arrow-rs's
/// arguments. The lifetime is arrow-rs's and unused.
pub type ColumnWriterImpl<'a, T> = ColumnChunkWriter<T>;

/// Writes a Parquet file row group by row group, column by column
/// (arrow-rs's `SerializedFileWriter`).
///
/// ```
/// use std::sync::Arc;
/// use strata_file::data_type::{ByteArray, ByteArrayType, Int32Type};
/// use strata_file::properties::WriterProperties;
/// use strata_file::writer::SerializedFileWriter;
/// use strata_format::schema::parser::parse_message_type;
///
/// let schema = Arc::new(
///     parse_message_type("message m { REQUIRED INT32 id; OPTIONAL BYTE_ARRAY name (UTF8); }")
///         .unwrap(),
/// );
///
/// let mut file = Vec::new();
/// let props = Arc::new(WriterProperties::default());
/// let mut writer = SerializedFileWriter::new(&mut file, schema, props).unwrap();
/// let mut row_group = writer.next_row_group().unwrap();
/// let mut ids = row_group.next_column().unwrap().unwrap();
/// ids.typed::<Int32Type>().write_batch(&[1, 2, 3], None, None).unwrap();
/// ids.close().unwrap();
/// let mut names = row_group.next_column().unwrap().unwrap();
/// names
///     .typed::<ByteArrayType>()
///     .write_batch(&[ByteArray::from("ann"), ByteArray::from("cy")], Some(&[1, 0, 1]), None)
///     .unwrap();
/// names.close().unwrap();
/// assert!(row_group.next_column().unwrap().is_none());
/// assert_eq!(row_group.close().unwrap().num_rows(), 3);
/// let metadata = writer.close().unwrap();
/// assert_eq!(metadata.file_metadata().num_rows(), 3);
/// ```
#[derive(Debug)]
pub struct SerializedFileWriter<W: Write + Send> {
    inner: FileWriter<W>,
}

impl<W: Write + Send> SerializedFileWriter<W> {
    /// Start a file of the message type `schema` written with
    /// `properties`: writes `PAR1`. Fails if `schema` is not a group
    /// (arrow-rs panics there).
    pub fn new(buf: W, schema: TypePtr, properties: WriterPropertiesPtr) -> Result<Self> {
        let schema = Arc::new(SchemaDescriptor::try_new(schema)?);
        Ok(Self {
            inner: FileWriter::new(buf, schema, properties)?,
        })
    }

    /// Start the next row group. Fails while the previous one is open.
    pub fn next_row_group(&mut self) -> Result<SerializedRowGroupWriter<'_, W>> {
        Ok(SerializedRowGroupWriter {
            inner: self.inner.next_row_group()?,
        })
    }

    /// The row groups written so far.
    pub fn flushed_row_groups(&self) -> &[RowGroupMetaData] {
        self.inner.flushed_row_groups()
    }

    /// Write the page indexes and the footer, and return the file's
    /// metadata. Calling it again returns the same metadata.
    pub fn finish(&mut self) -> Result<ParquetMetaData> {
        let footer = self.inner.finish()?;
        Ok(self.metadata_of(footer))
    }

    /// Finish the file (see [`finish`](Self::finish)) and return its
    /// metadata.
    pub fn close(self) -> Result<ParquetMetaData> {
        let schema = Arc::clone(self.inner.schema_descr());
        let footer = self.inner.close()?;
        Ok(ParquetMetaData::from_footer(Arc::new(footer), schema))
    }

    fn metadata_of(&self, footer: strata_format::metadata::FileMetaData) -> ParquetMetaData {
        ParquetMetaData::from_footer(Arc::new(footer), Arc::clone(self.inner.schema_descr()))
    }

    /// Add a key/value pair to the footer.
    pub fn append_key_value_metadata(&mut self, kv_metadata: KeyValue) {
        self.inner.append_key_value_metadata(kv_metadata);
    }

    /// The schema written.
    pub fn schema_descr(&self) -> &SchemaDescriptor {
        self.inner.schema_descr()
    }

    /// The writer settings.
    pub fn properties(&self) -> &WriterPropertiesPtr {
        self.inner.properties()
    }

    /// The underlying writer.
    pub fn inner(&self) -> &W {
        self.inner.inner()
    }

    /// The underlying writer, mutably: for flushing or inspecting it, not
    /// writing to it (bytes written there are not counted, so the file's
    /// offsets would be wrong).
    pub fn inner_mut(&mut self) -> &mut W {
        self.inner.inner_mut()
    }

    /// Finish the file and return the underlying writer.
    pub fn into_inner(self) -> Result<W> {
        self.inner.into_inner()
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> usize {
        usize::try_from(self.inner.bytes_written()).unwrap_or(usize::MAX)
    }
}

/// Writes one row group column by column (arrow-rs's
/// `SerializedRowGroupWriter`): each [`next_column`](Self::next_column)
/// writer appends its chunk when closed.
#[derive(Debug)]
pub struct SerializedRowGroupWriter<'a, W: Write + Send> {
    inner: RowGroupWriter<'a, W>,
}

impl<W: Write + Send> SerializedRowGroupWriter<'_, W> {
    /// The writer of the next column, or `None` once every column is
    /// written. A column writer dropped without
    /// [`close`](SerializedColumnWriter::close) appends nothing, and the
    /// next call starts the same column again.
    pub fn next_column(&mut self) -> Result<Option<SerializedColumnWriter<'_>>> {
        let Some(writer) = self.inner.next_column()? else {
            return Ok(None);
        };
        let row_group = &mut self.inner;
        Ok(Some(SerializedColumnWriter {
            writer,
            on_close: Box::new(move |chunk| row_group.append_column(chunk)),
        }))
    }

    /// Finish the row group and return its metadata. Fails unless every
    /// column was written and closed.
    pub fn close(self) -> Result<RowGroupMetaDataPtr> {
        self.inner.close().map(Arc::new)
    }
}

/// Writes one column chunk of a row group (arrow-rs's
/// `SerializedColumnWriter`): values and levels through
/// [`typed`](Self::typed) or [`untyped`](Self::untyped), then
/// [`close`](Self::close), which appends the chunk to the row group.
pub struct SerializedColumnWriter<'a> {
    writer: ColumnWriter,
    on_close: Box<dyn FnOnce(ClosedColumnChunk) -> Result<()> + 'a>,
}

impl std::fmt::Debug for SerializedColumnWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SerializedColumnWriter")
            .field("writer", &self.writer)
            .finish_non_exhaustive()
    }
}

impl SerializedColumnWriter<'_> {
    /// The untyped writer, an enum over the physical types.
    pub fn untyped(&mut self) -> &mut ColumnWriter {
        &mut self.writer
    }

    /// The writer of `T` values. Asked for a type the column does not
    /// have, it returns a writer that refuses every write, and
    /// [`close`](Self::close) fails naming both types (arrow-rs panics).
    pub fn typed<T: DataType>(&mut self) -> &mut ColumnWriterImpl<'_, T> {
        let descr = Arc::clone(self.writer.descriptor());
        let column = self.writer.column_index();
        T::typed_or_replace(&mut self.writer, || {
            ColumnChunkWriter::refusing(
                &descr,
                column,
                format!(
                    "column {} is {:?}; it was asked for a writer of {:?} values",
                    descr.path,
                    descr.physical_type,
                    T::PHYSICAL
                ),
            )
        })
    }

    /// Finish the chunk and append it to the row group.
    pub fn close(self) -> Result<()> {
        let chunk = self.writer.close()?;
        (self.on_close)(chunk)
    }
}
