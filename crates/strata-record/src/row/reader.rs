//! arrow-rs's reader traits, [`FileReader`] and [`RowGroupReader`], their
//! implementations for strata-file's [`SerializedFileReader`] and
//! [`SerializedRowGroupReader`], and [`RowIter`], the rows of a file or a
//! row group.

use strata_file::bloom::Sbbf;
use strata_file::chunk_reader::ChunkReader;
use strata_file::metadata::{ParquetMetaData, RowGroupMetaData};
use strata_file::page_reader::PageReader;
use strata_file::serialized_reader::{SerializedFileReader, SerializedRowGroupReader};
use strata_format::SchemaDescriptor;
use strata_format::schema::Type;

use super::assemble::RowGroupRows;
use super::field::Row;
use crate::column_reader::{ColumnReader, get_column_reader};
use crate::error::{RecordError, Result};

/// Records of a leaf column read at a time while rows are assembled
/// (arrow-rs's default).
const DEFAULT_BATCH_SIZE: usize = 1024;

/// A Parquet file: its metadata, its row groups and its rows (arrow-rs's
/// `parquet::file::reader::FileReader`, at `strata::file::reader`).
///
/// Implemented for
/// [`SerializedFileReader`](strata_file::serialized_reader::SerializedFileReader).
/// A projection is a schema [`Type`] (arrow-rs's
/// `schema::types::Type`, for example from
/// [`parse_message_type`](strata_format::schema::parser::parse_message_type))
/// whose fields are a part of the file's, under a root of the file root's
/// name ([`Type::check_contains`]).
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
/// #         repetition_type: Some(FieldRepetitionType::Optional), ..Default::default()
/// #     },
/// # ]).unwrap());
/// # let mut out = Vec::new();
/// # let mut writer = FileWriter::new(&mut out, schema, Arc::new(WriterProperties::default())).unwrap();
/// # let mut rg = writer.next_row_group().unwrap();
/// # let mut column = rg.next_column().unwrap().unwrap();
/// # column.typed::<i32>().unwrap().write_batch(&[1, 3], Some(&[1, 0, 1]), None).unwrap();
/// # rg.append_column(column.close().unwrap()).unwrap();
/// # rg.close().unwrap();
/// # writer.close().unwrap();
/// use bytes::Bytes;
/// use strata_file::serialized_reader::SerializedFileReader;
/// use strata_record::row::FileReader;
///
/// let reader = SerializedFileReader::new(Bytes::from(out)).unwrap();
/// assert_eq!(reader.metadata().file_metadata().num_rows(), 3);
/// let rows: Vec<String> = reader
///     .get_row_iter(None)
///     .unwrap()
///     .map(|row| row.unwrap().to_string())
///     .collect();
/// assert_eq!(rows, ["{x: 1}", "{x: null}", "{x: 3}"]);
/// ```
pub trait FileReader: Send + Sync {
    /// The file's metadata.
    fn metadata(&self) -> &ParquetMetaData;

    /// Number of row groups.
    fn num_row_groups(&self) -> usize;

    /// A reader of row group `i`; an error if there is none (arrow-rs
    /// panics).
    fn get_row_group(&self, i: usize) -> Result<Box<dyn RowGroupReader + '_>>;

    /// The rows of every row group, in order, of the whole schema
    /// (`None`) or of a projection of it.
    fn get_row_iter(&self, projection: Option<Type>) -> Result<RowIter<'_>>;
}

/// A row group of a Parquet file: its metadata, its column chunks' pages
/// and Bloom filters, and its rows (arrow-rs's
/// `parquet::file::reader::RowGroupReader`).
///
/// `get_column_page_reader` returns strata's
/// [`PageReader`](strata_file::page_reader::PageReader) rather than
/// arrow-rs's boxed trait object: an iterator of the same pages
/// ([`Page`](strata_file::page::Page), with arrow-rs's variants), with
/// `get_next_page`. arrow-rs's `get_column_reader` (typed column readers)
/// has no counterpart; strata's is
/// [`ColumnRecordReader`](crate::ColumnRecordReader).
pub trait RowGroupReader: Send + Sync {
    /// The row group's metadata.
    fn metadata(&self) -> &RowGroupMetaData;

    /// Number of column chunks, one per leaf column.
    fn num_columns(&self) -> usize;

    /// The pages of column chunk `i`.
    fn get_column_page_reader(&self, i: usize) -> Result<PageReader>;

    /// The Bloom filter of column chunk `i`, if the file has one and the
    /// reader's properties asked for Bloom filters.
    fn get_column_bloom_filter(&self, i: usize) -> Option<&Sbbf>;

    /// The row group's rows, of the whole schema (`None`) or of a
    /// projection of it.
    fn get_row_iter(&self, projection: Option<Type>) -> Result<RowIter<'_>>;

    /// The file's schema (also `metadata().schema_descr()`, as arrow-rs
    /// reaches it).
    fn schema_descr(&self) -> &SchemaDescriptor;

    /// The typed reader of column chunk `i` (arrow-rs's low-level
    /// `ColumnReader`), of the leaf's physical type.
    fn get_column_reader(&self, i: usize) -> Result<ColumnReader> {
        let descr = self
            .schema_descr()
            .columns()
            .get(i)
            .cloned()
            .ok_or_else(|| {
                RecordError::InvalidArgument(format!(
                    "column {i} of a row group of {} columns",
                    self.num_columns()
                ))
            })?;
        get_column_reader(descr, self.get_column_page_reader(i)?)
    }
}

impl<R: ChunkReader + Send + Sync> FileReader for SerializedFileReader<R> {
    fn metadata(&self) -> &ParquetMetaData {
        SerializedFileReader::metadata(self)
    }

    fn num_row_groups(&self) -> usize {
        SerializedFileReader::num_row_groups(self)
    }

    fn get_row_group(&self, i: usize) -> Result<Box<dyn RowGroupReader + '_>> {
        Ok(Box::new(self.row_group(i)?))
    }

    fn get_row_iter(&self, projection: Option<Type>) -> Result<RowIter<'_>> {
        RowIter::from_file(projection, self)
    }
}

impl<R: ChunkReader + Send + Sync> RowGroupReader for SerializedRowGroupReader<'_, R> {
    fn metadata(&self) -> &RowGroupMetaData {
        SerializedRowGroupReader::metadata(self)
    }

    fn num_columns(&self) -> usize {
        SerializedRowGroupReader::num_columns(self)
    }

    fn get_column_page_reader(&self, i: usize) -> Result<PageReader> {
        Ok(self.page_reader(i)?)
    }

    fn get_column_bloom_filter(&self, i: usize) -> Option<&Sbbf> {
        self.loaded_bloom_filter(i)
    }

    fn get_row_iter(&self, projection: Option<Type>) -> Result<RowIter<'_>> {
        RowIter::from_row_group(projection, self)
    }

    fn schema_descr(&self) -> &SchemaDescriptor {
        self.file().schema()
    }
}

/// Where a [`RowIter`] reads its row groups from.
enum Source<'a> {
    Borrowed(&'a dyn FileReader),
    Owned(Box<dyn FileReader>),
    /// A single row group, already opened.
    RowGroup,
}

impl Source<'_> {
    fn file(&self) -> Option<&dyn FileReader> {
        match self {
            Source::Borrowed(file) => Some(*file),
            Source::Owned(file) => Some(file.as_ref()),
            Source::RowGroup => None,
        }
    }
}

/// The rows of a file or of one row group, assembled from the leaf
/// columns' levels and values (arrow-rs's `parquet::record::reader::RowIter`,
/// at `strata::record::reader`). Row groups are read one after the other;
/// only the current one's column chunks are held.
///
/// After an error the iterator ends (arrow-rs's may go on yielding the
/// same error).
pub struct RowIter<'a> {
    source: Source<'a>,
    /// The projection, checked against the file's schema.
    projection: Option<Type>,
    batch_size: usize,
    next_row_group: usize,
    num_row_groups: usize,
    current: Option<RowGroupRows>,
    done: bool,
}

impl std::fmt::Debug for RowIter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowIter")
            .field("batch_size", &self.batch_size)
            .field("next_row_group", &self.next_row_group)
            .field("num_row_groups", &self.num_row_groups)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// `projection`, checked to be a part of `schema`.
fn checked(projection: Option<Type>, schema: &SchemaDescriptor) -> Result<Option<Type>> {
    match projection {
        Some(p) if !schema.root_schema().check_contains(&p) => Err(RecordError::Row(
            "the projection is not a part of the file's schema".into(),
        )),
        p => Ok(p),
    }
}

/// The rows of the row group `rg` of the file whose schema is `schema`.
fn open_rows(
    rg: &dyn RowGroupReader,
    projection: Option<&Type>,
    schema: &SchemaDescriptor,
    batch_size: usize,
) -> Result<RowGroupRows> {
    let num_rows = usize::try_from(rg.metadata().num_rows).map_err(|_| {
        RecordError::Corrupt(format!("a row group of {} rows", rg.metadata().num_rows))
    })?;
    let root = projection.unwrap_or(schema.root_schema());
    RowGroupRows::new(root, schema, num_rows, batch_size, |column| {
        rg.get_column_page_reader(column)
    })
}

impl<'a> RowIter<'a> {
    fn new(source: Source<'a>, projection: Option<Type>) -> Self {
        let num_row_groups = source.file().map_or(0, FileReader::num_row_groups);
        Self {
            source,
            projection,
            batch_size: DEFAULT_BATCH_SIZE,
            next_row_group: 0,
            num_row_groups,
            current: None,
            done: false,
        }
    }

    /// The rows of every row group of `reader`, of the whole schema or a
    /// projection of it (an error if the projection is not a part of the
    /// file's schema).
    pub fn from_file(projection: Option<Type>, reader: &'a dyn FileReader) -> Result<Self> {
        let projection = checked(projection, reader.metadata().schema_descr())?;
        Ok(Self::new(Source::Borrowed(reader), projection))
    }

    /// The rows of one row group, opened now: an error if its schema
    /// cannot be assembled into rows or a column chunk cannot be read.
    pub fn from_row_group(
        projection: Option<Type>,
        reader: &'a dyn RowGroupReader,
    ) -> Result<Self> {
        let schema = reader.schema_descr();
        let projection = checked(projection, schema)?;
        let rows = open_rows(reader, projection.as_ref(), schema, DEFAULT_BATCH_SIZE)?;
        let mut iter = Self::new(Source::RowGroup, projection);
        iter.current = Some(rows);
        Ok(iter)
    }

    /// The rows of every row group of `reader`, which the iterator owns
    /// (what arrow-rs's `SerializedFileReader<File>` gives as an
    /// iterator; strata's reader cannot implement `IntoIterator` for rows,
    /// as rows are assembled a layer above it).
    ///
    /// ```no_run
    /// use strata_file::serialized_reader::SerializedFileReader;
    /// use strata_record::row::RowIter;
    ///
    /// let reader = SerializedFileReader::try_from("data.parquet")?;
    /// for row in RowIter::from_file_into(Box::new(reader)) {
    ///     println!("{}", row?);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_file_into(reader: Box<dyn FileReader>) -> Self {
        Self::new(Source::Owned(reader), None)
    }

    /// These rows again from the first, of `projection` (an error for an
    /// iterator of one row group, or if the projection is not a part of
    /// the file's schema).
    pub fn project(self, projection: Option<Type>) -> Result<Self> {
        let Some(file) = self.source.file() else {
            return Err(RecordError::Row(
                "a file reader is required to use projections".into(),
            ));
        };
        let projection = checked(projection, file.metadata().schema_descr())?;
        let batch_size = self.batch_size;
        let mut iter = Self::new(self.source, projection);
        iter.batch_size = batch_size;
        Ok(iter)
    }

    /// Records of each leaf column read at a time (1,024 by default; 0 is
    /// taken as 1). It applies to row groups opened after the call.
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size.max(1);
        self
    }

    fn next_row(&mut self) -> Option<Result<Row>> {
        loop {
            if let Some(row) = self.current.as_mut().and_then(RowGroupRows::next_row) {
                return Some(row);
            }
            self.current = None;
            if self.next_row_group >= self.num_row_groups {
                return None;
            }
            let file = self.source.file()?;
            let i = self.next_row_group;
            self.next_row_group += 1;
            let rows = file.get_row_group(i).and_then(|rg| {
                open_rows(
                    rg.as_ref(),
                    self.projection.as_ref(),
                    file.metadata().schema_descr(),
                    self.batch_size,
                )
            });
            match rows {
                Ok(rows) => self.current = Some(rows),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

impl Iterator for RowIter<'_> {
    type Item = Result<Row>;

    fn next(&mut self) -> Option<Result<Row>> {
        if self.done {
            return None;
        }
        let row = self.next_row();
        if !matches!(row, Some(Ok(_))) {
            self.done = true;
            self.current = None;
        }
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row iterators and readers cross threads, as arrow-rs's do.
    #[test]
    fn iterators_and_readers_are_send() {
        fn send<T: Send>() {}
        fn sync<T: Sync>() {}
        send::<RowIter<'static>>();
        send::<Row>();
        sync::<Row>();
        send::<Box<dyn FileReader>>();
        send::<SerializedFileReader<bytes::Bytes>>();
        sync::<SerializedFileReader<std::fs::File>>();
    }
}
