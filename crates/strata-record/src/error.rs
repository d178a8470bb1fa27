//! Errors of the record layer.

use strata_encoding::EncodingError;
use strata_file::FileError;
use strata_format::FormatError;

/// What can go wrong reading records: everything the file layer reports
/// (I/O, metadata, encodings, compression), plus inconsistencies between
/// a column chunk's pages, levels and values.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The file layer (and through it the format and encoding layers)
    /// failed.
    #[error(transparent)]
    File(#[from] FileError),
    /// The column chunk is inconsistent (levels against values, missing
    /// dictionary, a second dictionary page, ...).
    #[error("corrupt column chunk: {0}")]
    Corrupt(String),
    /// The chunk uses something this reader does not support (an encoding
    /// for this physical type, for example).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The reader's value type does not match the column's physical type.
    #[error("column {column} has physical type {found}, the reader reads {expected}")]
    TypeMismatch {
        /// The column's path, dotted.
        column: String,
        /// The physical type the reader decodes.
        expected: &'static str,
        /// The column's physical type.
        found: String,
    },
    /// In dictionary-preserving mode, the chunk switched from dictionary
    /// pages to a plain-encoded page in the middle of a record (only
    /// possible for repeated columns), so the record cannot be handed out
    /// as indices alone.
    #[error("dictionary fallback in the middle of a record")]
    FallbackMidRecord,
    /// A data page's header counts more levels than the reader holds for
    /// one page ([`MAX_PAGE_LEVELS`](crate::MAX_PAGE_LEVELS)). The levels
    /// of a page are decoded whole, so this bound keeps a header's count
    /// (which a few bytes of RLE can make as large as they like) from
    /// sizing an allocation.
    #[error("a data page of {levels} levels exceeds the reader's limit of {limit} levels a page")]
    PageTooLarge {
        /// The levels the page header counts.
        levels: u64,
        /// [`MAX_PAGE_LEVELS`](crate::MAX_PAGE_LEVELS).
        limit: usize,
    },
    /// An argument outside its allowed range.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A row, list or map was asked for a field past its end: the index
    /// and the number of fields (arrow-rs's `IndexOutOfBound`, same text).
    #[error("Index {0} out of bound: {1}")]
    IndexOutOfBound(usize, usize),
    /// A typed getter of a row, list or map met a field of another type:
    /// what the field holds and what was asked for, as arrow-rs names
    /// them (`Cannot access Int as Str`, arrow-rs's text).
    #[error("Parquet error: Cannot access {found} as {expected}")]
    FieldType {
        /// The [`Field`](crate::row::Field) variant the field holds.
        found: &'static str,
        /// The variant the getter reads.
        expected: &'static str,
    },
    /// A schema the row reader cannot assemble rows of (a list or map
    /// group of the wrong shape, a projection that is not part of the
    /// file's schema), or a value it cannot turn into a
    /// [`Field`](crate::row::Field).
    #[error("row reader: {0}")]
    Row(String),
}

impl From<EncodingError> for RecordError {
    fn from(e: EncodingError) -> Self {
        RecordError::File(FileError::Encoding(e))
    }
}

impl From<FormatError> for RecordError {
    fn from(e: FormatError) -> Self {
        RecordError::File(FileError::Format(e))
    }
}

/// Result alias for this crate.
pub type Result<T, E = RecordError> = std::result::Result<T, E>;
