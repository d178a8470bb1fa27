//! Errors of the Arrow bridge: [`ParquetError`], named as arrow-rs names
//! its error so that `strata::errors::{ParquetError, Result}` is a drop-in.

use arrow_schema::ArrowError;
use strata_encoding::EncodingError;
use strata_file::FileError;
use strata_format::FormatError;
use strata_record::RecordError;

/// What can go wrong reading or writing Arrow data as Parquet: everything
/// the record and file layers report, plus schema mapping and Arrow errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParquetError {
    /// The record layer (and through it the file, encoding and format
    /// layers) failed.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The file layer failed (writing, metadata, page index).
    #[error(transparent)]
    File(#[from] FileError),
    /// Arrow refused an array or schema.
    #[error("Arrow: {0}")]
    Arrow(#[from] ArrowError),
    /// A schema that cannot be mapped between Arrow and Parquet.
    #[error("schema: {0}")]
    Schema(String),
    /// A feature strata does not support (yet).
    #[error("not yet implemented: {0}")]
    NYI(String),
    /// Anything else, with a message (arrow-rs's catch-all variant).
    #[error("{0}")]
    General(String),
}

impl From<FormatError> for ParquetError {
    fn from(e: FormatError) -> Self {
        ParquetError::File(FileError::Format(e))
    }
}

impl From<EncodingError> for ParquetError {
    fn from(e: EncodingError) -> Self {
        ParquetError::File(FileError::Encoding(e))
    }
}

impl From<std::io::Error> for ParquetError {
    fn from(e: std::io::Error) -> Self {
        ParquetError::File(FileError::Io(e))
    }
}

impl From<ParquetError> for ArrowError {
    fn from(e: ParquetError) -> Self {
        match e {
            ParquetError::Arrow(a) => a,
            other => ArrowError::ParquetError(other.to_string()),
        }
    }
}

/// Result alias of the Arrow bridge (`strata::errors::Result`).
pub type Result<T, E = ParquetError> = std::result::Result<T, E>;

pub(crate) fn schema_err(msg: impl Into<String>) -> ParquetError {
    ParquetError::Schema(msg.into())
}

pub(crate) fn general(msg: impl Into<String>) -> ParquetError {
    ParquetError::General(msg.into())
}
