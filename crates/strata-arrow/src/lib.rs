//! # strata-arrow: Arrow record batches to and from Parquet
//!
//! The Arrow bridge of strata, and the API most users meet. It follows the
//! names and signatures of arrow-rs's `parquet::arrow` for the common
//! entry points, so that code written for arrow-rs compiles against
//! strata by renaming the crate:
//!
//! - [`ArrowWriter`]: `try_new(writer, schema, Option<WriterProperties>)`,
//!   `write`, `flush`, `close`, `in_progress_size`, `memory_size`.
//! - `arrow_reader::ParquetRecordBatchReaderBuilder`: `try_new`,
//!   `try_new_with_options`, `with_batch_size`, `with_projection`,
//!   `with_row_groups`, `with_row_selection`, `with_limit`, `with_offset`,
//!   `build` into a `ParquetRecordBatchReader`, an iterator of
//!   `Result<RecordBatch, ArrowError>` (see [`arrow_reader`]).
//! - Schema mapping both ways ([`parquet_to_arrow_schema`],
//!   [`arrow_to_parquet_schema`]), with the Arrow schema embedded in the
//!   footer under `ARROW:schema` so types round-trip exactly.
//!
//! ## How data flows
//!
//! ```text
//! write: RecordBatch ─▶ levels from validity bitmaps and offsets (an
//!        all-valid array's bitmap is never read) ─▶ leaf values as slices
//!        of the Arrow buffers ─▶ strata-file column chunk writers
//! read:  strata-file page readers ─▶ strata-record record readers
//!        (levels ─▶ validity bitmap first; a batch without nulls is
//!        decoded densely; the dictionary once per chunk) ─▶ Arrow buffers
//!        taken without a copy ─▶ structs, lists and maps from the levels
//! ```
//!
//! ## Example
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray};
//! use bytes::Bytes;
//! use strata_arrow::{ArrowWriter, ProjectionMask};
//! use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
//!
//! let price: ArrayRef = Arc::new(Float64Array::from(vec![1.5, 2.5]));
//! let item: ArrayRef = Arc::new(StringArray::from(vec!["tea", "cake"]));
//! let batch = RecordBatch::try_from_iter([("price", price), ("item", item)]).unwrap();
//!
//! let mut buf = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), None).unwrap();
//! writer.write(&batch).unwrap();
//! writer.close().unwrap();
//!
//! let builder = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(buf)).unwrap();
//! let mask = ProjectionMask::roots(builder.parquet_schema(), [1]);
//! let mut reader = builder.with_projection(mask).build().unwrap();
//! let read = reader.next().unwrap().unwrap();
//! assert_eq!(read.num_columns(), 1);
//! assert_eq!(read.column(0), batch.column(1));
//! ```
#![deny(missing_docs)]
// One exception, documented where it is: `reader::leaf::checked_dictionary`
// skips arrow's per-key validation after a vectorised range check.
#![deny(unsafe_code)]

pub mod arrow_reader;
pub mod arrow_writer;
#[cfg(feature = "async")]
pub mod async_reader;
#[cfg(feature = "async")]
pub mod async_writer;
pub mod encryption;
mod error;
pub mod geoarrow;
pub mod push_decoder;
mod reader;
mod schema;
pub mod variant;
pub mod virtual_columns;

pub use arrow_reader::{ParquetMetaData, ProjectionMask};
pub use arrow_writer::ArrowWriter;
pub use error::{ParquetError, Result};
pub use schema::{
    ARROW_SCHEMA_META_KEY, ArrowSchemaConverter, PARQUET_FIELD_ID_META_KEY,
    arrow_to_parquet_schema, parquet_column, parquet_to_arrow_schema,
};
pub use virtual_columns::{RowGroupIndex, RowNumber, is_virtual_column};
