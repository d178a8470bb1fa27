//! Errors of the file layer.

use strata_encoding::EncodingError;
use strata_format::FormatError;

/// What can go wrong reading or writing the physical file: I/O, metadata,
/// value encodings, compression, and inconsistencies between them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// Reading or writing the underlying bytes failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// Metadata (footer, page header, page index) was malformed.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Encoded values or levels were malformed.
    #[error(transparent)]
    Encoding(#[from] EncodingError),
    /// A compressed page could not be decompressed, or decompressed to a
    /// different size than its header declares.
    #[error("{codec} decompression failed: {reason}")]
    Decompress {
        /// The codec's name.
        codec: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// Compressing a page failed.
    #[error("{codec} compression failed: {reason}")]
    Compress {
        /// The codec's name.
        codec: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// The file uses a codec strata cannot read or write.
    #[error("unsupported compression codec {0}")]
    UnsupportedCodec(String),
    /// The file's structure is inconsistent (offsets, sizes, counts).
    #[error("corrupt file: {0}")]
    Corrupt(String),
    /// A page checksum did not match its contents.
    #[error("page CRC mismatch: header says {expected:#010x}, contents hash to {actual:#010x}")]
    CrcMismatch {
        /// CRC stored in the page header.
        expected: u32,
        /// CRC of the page bytes.
        actual: u32,
    },
    /// An argument outside its allowed range (for example a Bloom filter
    /// false-positive probability not in (0, 1)).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A column chunk is encrypted and cannot be read: no decryption
    /// properties were given (or the `encryption` feature is off), or none
    /// with its key.
    #[error("column {0} is encrypted and cannot be decrypted")]
    EncryptedColumn(String),
    /// An encrypted module could not be decrypted: it did not
    /// authenticate (a wrong key or AAD, or changed bytes), a key was
    /// refused, or its framing was wrong.
    #[error("decryption: {0}")]
    Decryption(String),
    /// A feature the file uses that strata does not support yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Result alias for this crate.
pub type Result<T, E = FileError> = std::result::Result<T, E>;
