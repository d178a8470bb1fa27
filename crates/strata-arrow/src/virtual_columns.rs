//! Virtual columns: columns a reader adds to its batches that the file
//! does not store, computed from where each row is. arrow-rs 60.1's
//! `parquet::arrow::{RowNumber, RowGroupIndex}`, asked for with
//! [`ArrowReaderOptions::with_virtual_columns`].
//!
//! - [`RowNumber`]: the row's position in the file, counting from 0 at
//!   the first row of the first row group, whatever is read: row groups
//!   chosen or reordered, rows selected or skipped, pages pruned, rows a
//!   filter dropped, offset and limit.
//! - [`RowGroupIndex`]: the position in the file of the row's row group.
//!
//! A virtual column is an `Int64` field with one of these extension types
//! (`ARROW:extension:name` `parquet.virtual.row_number` or
//! `parquet.virtual.row_group_index`). The reader appends the virtual
//! fields after the columns it reads, in the order given, whatever the
//! projection; [`is_virtual_column`] tells such a field.
//!
//! ## How the rows are numbered
//!
//! The decoder reads a row group in windows: runs of rows read and
//! skipped from a known row of the row group, then a mask of the rows
//! read that are kept. A row number column is those runs' rows counted
//! from the row group's first row in the file (the rows of the row groups
//! before it), less the masked rows: made from the same runs and mask
//! that place the stored columns' values, so the two cannot drift apart.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::cast::AsArray;
//! use arrow_array::types::Int64Type;
//! use arrow_array::{ArrayRef, Int32Array, RecordBatch};
//! use arrow_schema::{DataType, Field};
//! use bytes::Bytes;
//! use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector};
//! use strata_arrow::{ArrowWriter, RowNumber};
//!
//! let values: ArrayRef = Arc::new(Int32Array::from_iter_values(0..10));
//! let batch = RecordBatch::try_from_iter([("v", values)]).unwrap();
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
//! writer.write(&batch).unwrap();
//! writer.close().unwrap();
//!
//! let row_number = Field::new("row", DataType::Int64, false).with_extension_type(RowNumber);
//! let options = ArrowReaderOptions::new().with_virtual_columns(vec![Arc::new(row_number)]).unwrap();
//! let reader = ParquetRecordBatchReaderBuilder::try_new_with_options(Bytes::from(file), options)
//!     .unwrap()
//!     .with_row_selection(RowSelection::from(vec![RowSelector::skip(3), RowSelector::select(2)]))
//!     .build()
//!     .unwrap();
//! let batch = reader.into_iter().next().unwrap().unwrap();
//! let rows: Vec<i64> = batch.column(1).as_primitive::<Int64Type>().values().to_vec();
//! assert_eq!(rows, [3, 4]);
//! ```
//!
//! [`ArrowReaderOptions::with_virtual_columns`]: crate::arrow_reader::ArrowReaderOptions::with_virtual_columns

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array};
use arrow_buffer::BooleanBuffer;
use arrow_schema::extension::ExtensionType;
use arrow_schema::{ArrowError, DataType, Field};
use strata_record::RecordRun;

use crate::error::{ParquetError, Result};

/// The start of every virtual column's extension type name.
const VIRTUAL_PREFIX: &str = "parquet.virtual.";

/// What a virtual extension type accepts: `Int64` fields, with empty
/// metadata.
fn int64_only(data_type: &DataType) -> std::result::Result<(), ArrowError> {
    match data_type {
        DataType::Int64 => Ok(()),
        other => Err(ArrowError::InvalidArgumentError(format!(
            "a virtual column is Int64, not {other}"
        ))),
    }
}

fn empty_metadata(metadata: Option<&str>) -> std::result::Result<&'static str, ArrowError> {
    match metadata {
        Some("") => Ok(""),
        _ => Err(ArrowError::InvalidArgumentError(
            "a virtual column's extension metadata is the empty string".into(),
        )),
    }
}

macro_rules! virtual_type {
    ($(#[$doc:meta])* $name:ident, $suffix:literal) => {
        $(#[$doc])*
        #[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
        pub struct $name;

        impl ExtensionType for $name {
            const NAME: &'static str = concat!("parquet.virtual.", $suffix);
            type Metadata = &'static str;

            fn metadata(&self) -> &Self::Metadata {
                &""
            }

            fn serialize_metadata(&self) -> Option<String> {
                Some(String::new())
            }

            fn deserialize_metadata(
                metadata: Option<&str>,
            ) -> std::result::Result<Self::Metadata, ArrowError> {
                empty_metadata(metadata)
            }

            fn supports_data_type(&self, data_type: &DataType) -> std::result::Result<(), ArrowError> {
                int64_only(data_type)
            }

            fn try_new(
                data_type: &DataType,
                _metadata: Self::Metadata,
            ) -> std::result::Result<Self, ArrowError> {
                int64_only(data_type).map(|()| Self)
            }
        }
    };
}

virtual_type!(
    /// The virtual column of each row's position in the file (`Int64`,
    /// from 0). See the [module docs](self).
    RowNumber,
    "row_number"
);

virtual_type!(
    /// The virtual column of the position in the file of each row's row
    /// group (`Int64`, from 0).
    RowGroupIndex,
    "row_group_index"
);

/// Whether `field` is a virtual column: its extension type name starts
/// with `parquet.virtual.`.
pub fn is_virtual_column(field: &Field) -> bool {
    field
        .extension_type_name()
        .is_some_and(|name| name.starts_with(VIRTUAL_PREFIX))
}

/// Which virtual column a field asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VirtualColumn {
    RowNumber,
    RowGroupIndex,
}

impl VirtualColumn {
    /// The virtual column `field` asks for; an error for a field that is
    /// not one strata computes, or of another type than `Int64`.
    pub(crate) fn of(field: &Field) -> Result<Self> {
        if field.try_extension_type::<RowNumber>().is_ok() {
            Ok(Self::RowNumber)
        } else if field.try_extension_type::<RowGroupIndex>().is_ok() {
            Ok(Self::RowGroupIndex)
        } else {
            Err(ParquetError::General(format!(
                "field '{}' is not a virtual column strata computes: an Int64 field with \
                 extension type {} or {}",
                field.name(),
                RowNumber::NAME,
                RowGroupIndex::NAME
            )))
        }
    }

    /// This column's values for one window of a row group: the rows the
    /// `runs` read, from row `first_row` of the file (the row the runs
    /// start at), less those `kept` (one bit per row read) drops.
    /// `row_group` is the row group's position in the file.
    pub(crate) fn values(
        self,
        row_group: usize,
        first_row: i64,
        runs: &[RecordRun],
        kept: Option<&BooleanBuffer>,
        rows: usize,
    ) -> ArrayRef {
        match self {
            Self::RowGroupIndex => Arc::new(Int64Array::from_value(row_group as i64, rows)),
            Self::RowNumber => {
                let mut numbers = Vec::with_capacity(rows);
                let mut at = first_row;
                let mut bit = 0usize;
                for run in runs {
                    let n = run.records as i64;
                    if !run.skip {
                        match kept {
                            None => numbers.extend(at..at + n),
                            Some(kept) => numbers.extend(
                                (at..at + n)
                                    .zip(bit..)
                                    .filter(|&(_, b)| b < kept.len() && kept.value(b))
                                    .map(|(row, _)| row),
                            ),
                        }
                        bit += run.records;
                    }
                    at += n;
                }
                Arc::new(Int64Array::from(numbers))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_numbers_follow_the_runs_and_the_mask() {
        let runs = [
            RecordRun::skip(2),
            RecordRun::read(3),
            RecordRun::skip(4),
            RecordRun::read(2),
        ];
        let all = VirtualColumn::RowNumber.values(1, 100, &runs, None, 5);
        assert_eq!(
            all.as_ref(),
            &Int64Array::from(vec![102, 103, 104, 109, 110])
        );
        let kept = BooleanBuffer::from(vec![true, false, true, false, true]);
        let some = VirtualColumn::RowNumber.values(1, 100, &runs, Some(&kept), 3);
        assert_eq!(some.as_ref(), &Int64Array::from(vec![102, 104, 110]));
        let groups = VirtualColumn::RowGroupIndex.values(7, 100, &runs, Some(&kept), 3);
        assert_eq!(groups.as_ref(), &Int64Array::from(vec![7, 7, 7]));
    }

    #[test]
    fn only_int64_fields_with_a_known_name_are_virtual_columns() {
        let row = Field::new("r", DataType::Int64, false).with_extension_type(RowNumber);
        assert!(is_virtual_column(&row));
        assert_eq!(VirtualColumn::of(&row).unwrap(), VirtualColumn::RowNumber);
        let group = Field::new("g", DataType::Int64, false).with_extension_type(RowGroupIndex);
        assert_eq!(
            VirtualColumn::of(&group).unwrap(),
            VirtualColumn::RowGroupIndex
        );
        assert!(
            Field::new("i", DataType::Int32, false)
                .try_with_extension_type(RowNumber)
                .is_err()
        );
        let plain = Field::new("p", DataType::Int64, false);
        assert!(!is_virtual_column(&plain));
        assert!(VirtualColumn::of(&plain).is_err());
        let unknown = Field::new("u", DataType::Int64, false).with_metadata(
            std::collections::HashMap::from([(
                arrow_schema::extension::EXTENSION_TYPE_NAME_KEY.to_string(),
                "parquet.virtual.file_name".to_string(),
            )]),
        );
        assert!(is_virtual_column(&unknown));
        assert!(VirtualColumn::of(&unknown).is_err());
    }
}
