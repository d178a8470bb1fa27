//! Rows: a file read record by record as [`Row`]s of [`Field`]s, with
//! arrow-rs's row API (`parquet::record`, `parquet::file::reader`).
//!
//! The rows are assembled from the same record readers the Arrow reader
//! uses ([`ColumnRecordReader`](crate::ColumnRecordReader)): per row group,
//! a reader per leaf column hands out batches of levels and values, and a
//! tree built from the schema walks them level by level into rows (see
//! `assemble.rs` for the list and map rules). Each value becomes a
//! [`Field`] by its column's annotation, as arrow-rs converts it (dates,
//! times and timestamps, decimals of every physical type, unsigned
//! integers, `FLOAT16`, strings).
//!
//! - [`FileReader`] / [`RowGroupReader`]: arrow-rs's reader traits, here
//!   because they hand out rows; implemented for strata-file's
//!   [`SerializedFileReader`](strata_file::serialized_reader::SerializedFileReader)
//!   and [`SerializedRowGroupReader`](strata_file::serialized_reader::SerializedRowGroupReader).
//! - [`RowIter`]: the rows of a file or of one row group.
//! - [`Row`], [`Field`], [`List`], [`Map`] and their typed getters
//!   ([`RowAccessor`], [`ListAccessor`], [`MapAccessor`]); [`ByteArray`]
//!   and [`Decimal`], the values of `Bytes` and `Decimal` fields.
//!
//! A row is text as arrow-rs prints it, so programs that print rows print
//! the same with either crate.
//!
//! ## Hostile input
//!
//! A malformed file is an error from the iterator, never a panic; the
//! iterator ends after it. Nothing is sized by a count the file declares:
//! values arrive in batches of records from the record reader, whose pages
//! are bounded (`MAX_PAGE_LEVELS`), and a row holds what its levels
//! describe. Schema nesting is bounded by `strata_format`'s
//! `MAX_SCHEMA_DEPTH`, and so is the recursion of assembly and printing.
//! A decimal value longer than [`MAX_DECIMAL_BYTES`] is an error, so its
//! text cannot cost quadratic time.

mod assemble;
mod convert;
mod field;
mod reader;
mod text;

pub use convert::MAX_DECIMAL_BYTES;
pub use field::{
    ByteArray, Decimal, Field, List, ListAccessor, Map, MapAccessor, Row, RowAccessor,
    RowColumnIter, RowFormatter,
};
pub use reader::{FileReader, RowGroupReader, RowIter};
