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
    #[error("NYI: {0}")]
    NYI(String),
    /// Anything else, with a message (arrow-rs's catch-all variant).
    #[error("Parquet error: {0}")]
    General(String),
    /// Input ended early (arrow-rs's variant, for code that builds or
    /// matches it).
    #[error("EOF: {0}")]
    EOF(String),
    /// An Arrow error as text (arrow-rs's variant; strata's own Arrow
    /// errors keep their type, in [`Arrow`](Self::Arrow)).
    #[error("Arrow: {0}")]
    ArrowError(String),
    /// An index past the end: the index and the bound.
    #[error("Index {0} out of bound: {1}")]
    IndexOutOfBound(usize, usize),
    /// An error from outside strata, boxed (for example from a caller's
    /// own reader or writer).
    #[error("External: {0}")]
    External(Box<dyn std::error::Error + Send + Sync>),
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
