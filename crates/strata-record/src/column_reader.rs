//! The typed column reader of arrow-rs's low-level API
//! (`parquet::column::reader`): [`ColumnReader`], one variant per
//! physical type, each a [`ColumnReaderImpl`] whose `read_records` hands
//! out definition levels, repetition levels and the non-null values as
//! arrow-rs does.
//!
//! It is a thin layer over [`ColumnRecordReader`], which reads a batch
//! into reused buffers; this layer copies each batch out into the
//! caller's vectors. Where the record reader lays the values of a
//! non-repeated column over its slots (one per level, nulls included),
//! only the present ones are handed out.

use std::any::Any;

use strata_encoding::chunk::ValueBuffer;
use strata_encoding::{ByteArray, FixedLenByteArray, Int96};
use strata_file::data_type::DataType;
use strata_file::page_reader::PageReader;
use strata_format::schema::ColumnDescPtr;

use crate::buffers::RecordBatchBuffers;
use crate::error::{RecordError, Result};
use crate::reader::ColumnRecordReader;

/// Reads the records of one column chunk of physical type `T`, with
/// arrow-rs's `read_records` and `skip_records`.
#[derive(Debug)]
pub struct ColumnReaderImpl<T: DataType> {
    reader: ColumnRecordReader<T>,
    batch: RecordBatchBuffers<T::Values>,
    descr: ColumnDescPtr,
}

impl<T: DataType> ColumnReaderImpl<T> {
    /// A reader of the chunk `pages` of the leaf `descr`; fails when the
    /// leaf is not of type `T` (or is malformed, see
    /// [`ColumnRecordReader::new`]).
    pub fn new(descr: ColumnDescPtr, pages: PageReader) -> Result<Self> {
        let mut reader = ColumnRecordReader::new(pages, (*descr).clone())?;
        // The definition levels of a flat optional column are handed out.
        reader.set_flat_def_levels(true);
        Ok(Self {
            reader,
            batch: RecordBatchBuffers::new(),
            descr,
        })
    }

    /// The leaf read.
    pub fn descr(&self) -> &ColumnDescPtr {
        &self.descr
    }

    /// Read up to `max_records` whole records, appending their levels to
    /// `def_levels` and `rep_levels` (required when the column has levels
    /// of that kind) and their non-null values to `values`. Returns the
    /// records, values and levels read; no records only at the end of the
    /// chunk.
    pub fn read_records(
        &mut self,
        max_records: usize,
        def_levels: Option<&mut Vec<i16>>,
        rep_levels: Option<&mut Vec<i16>>,
        values: &mut Vec<T::T>,
    ) -> Result<(usize, usize, usize)> {
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        if max_def > 0 && def_levels.is_none() {
            return Err(RecordError::InvalidArgument(
                "must specify definition levels".into(),
            ));
        }
        if max_rep > 0 && rep_levels.is_none() {
            return Err(RecordError::InvalidArgument(
                "must specify repetition levels".into(),
            ));
        }
        let records = self.reader.read_records(max_records, &mut self.batch)?;
        let batch = &self.batch;
        let levels = batch.num_levels;
        if (max_def > 0 && batch.def_levels.len() != levels)
            || (max_rep > 0 && batch.rep_levels.len() != levels)
        {
            return Err(RecordError::Corrupt(
                "a batch's levels disagree in number".into(),
            ));
        }
        if let Some(out) = def_levels.filter(|_| max_def > 0) {
            out.extend_from_slice(&batch.def_levels);
        }
        if let Some(out) = rep_levels.filter(|_| max_rep > 0) {
            out.extend_from_slice(&batch.rep_levels);
        }
        let before = values.len();
        let missing = || RecordError::Corrupt("a batch has fewer values than its levels".into());
        if max_rep == 0 && max_def > 0 {
            // One slot per level: the present ones are at the maximum.
            for (slot, _) in batch
                .def_levels
                .iter()
                .enumerate()
                .filter(|(_, def)| **def == max_def)
            {
                values.push(<T as DataType>::read_value(&batch.values, slot).ok_or_else(missing)?);
            }
        } else {
            let present = batch.values.len();
            values.reserve(present);
            for i in 0..present {
                values.push(<T as DataType>::read_value(&batch.values, i).ok_or_else(missing)?);
            }
        }
        Ok((records, values.len() - before, levels))
    }

    /// Skip up to `num_records` records; returns the records skipped
    /// (fewer only at the end of the chunk).
    pub fn skip_records(&mut self, num_records: usize) -> Result<usize> {
        self.reader.skip_records(num_records)
    }
}

/// A column chunk's reader, by physical type (arrow-rs's `ColumnReader`).
#[derive(Debug)]
#[allow(clippy::enum_variant_names)]
pub enum ColumnReader {
    /// `BOOLEAN`.
    BoolColumnReader(ColumnReaderImpl<bool>),
    /// `INT32`.
    Int32ColumnReader(ColumnReaderImpl<i32>),
    /// `INT64`.
    Int64ColumnReader(ColumnReaderImpl<i64>),
    /// `INT96`.
    Int96ColumnReader(ColumnReaderImpl<Int96>),
    /// `FLOAT`.
    FloatColumnReader(ColumnReaderImpl<f32>),
    /// `DOUBLE`.
    DoubleColumnReader(ColumnReaderImpl<f64>),
    /// `BYTE_ARRAY`.
    ByteArrayColumnReader(ColumnReaderImpl<ByteArray>),
    /// `FIXED_LEN_BYTE_ARRAY`.
    FixedLenByteArrayColumnReader(ColumnReaderImpl<FixedLenByteArray>),
}

/// The reader of the chunk `pages` of the leaf `descr`, of the leaf's
/// physical type. Unlike arrow-rs's, it returns a `Result`: a malformed
/// leaf (a `FIXED_LEN_BYTE_ARRAY` without a width) is an error.
pub fn get_column_reader(descr: ColumnDescPtr, pages: PageReader) -> Result<ColumnReader> {
    use strata_format::metadata::Type;
    Ok(match descr.physical_type {
        Type::Boolean => ColumnReader::BoolColumnReader(ColumnReaderImpl::new(descr, pages)?),
        Type::Int32 => ColumnReader::Int32ColumnReader(ColumnReaderImpl::new(descr, pages)?),
        Type::Int64 => ColumnReader::Int64ColumnReader(ColumnReaderImpl::new(descr, pages)?),
        Type::Int96 => ColumnReader::Int96ColumnReader(ColumnReaderImpl::new(descr, pages)?),
        Type::Float => ColumnReader::FloatColumnReader(ColumnReaderImpl::new(descr, pages)?),
        Type::Double => ColumnReader::DoubleColumnReader(ColumnReaderImpl::new(descr, pages)?),
        Type::ByteArray => {
            ColumnReader::ByteArrayColumnReader(ColumnReaderImpl::new(descr, pages)?)
        }
        Type::FixedLenByteArray => {
            ColumnReader::FixedLenByteArrayColumnReader(ColumnReaderImpl::new(descr, pages)?)
        }
    })
}

/// The typed reader inside `reader`.
///
/// # Panics
///
/// When `reader` is not of type `T`, as arrow-rs does; matching on the
/// [`ColumnReader`] is the checked form.
#[allow(clippy::panic)]
pub fn get_typed_column_reader<T: DataType>(reader: ColumnReader) -> ColumnReaderImpl<T> {
    let inner: Box<dyn Any> = match reader {
        ColumnReader::BoolColumnReader(r) => Box::new(r),
        ColumnReader::Int32ColumnReader(r) => Box::new(r),
        ColumnReader::Int64ColumnReader(r) => Box::new(r),
        ColumnReader::Int96ColumnReader(r) => Box::new(r),
        ColumnReader::FloatColumnReader(r) => Box::new(r),
        ColumnReader::DoubleColumnReader(r) => Box::new(r),
        ColumnReader::ByteArrayColumnReader(r) => Box::new(r),
        ColumnReader::FixedLenByteArrayColumnReader(r) => Box::new(r),
    };
    match inner.downcast::<ColumnReaderImpl<T>>() {
        Ok(reader) => *reader,
        Err(_) => panic!(
            "the column reader is not of type {:?}",
            T::get_physical_type()
        ),
    }
}
