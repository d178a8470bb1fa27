//! The error type of every encoder and decoder in this crate.

use strata_sink::SinkError;

/// What can go wrong while encoding or decoding values.
///
/// Decoders return one of these for any malformed, truncated or inconsistent
/// page; they never panic on input. Encoders return one for input they
/// cannot represent (for example a byte array longer than `u32::MAX` bytes
/// under PLAIN).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodingError {
    /// A bit, varint or run-level error from the sink layer.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// The page ended before everything it announces could be read.
    #[error("page truncated while reading {0}")]
    Truncated(&'static str),
    /// The number of values asked for does not match what the page holds.
    #[error("invalid value count: {requested} values requested but the page holds {available}")]
    InvalidValueCount {
        /// How many values the caller announced or asked for.
        requested: usize,
        /// How many values the page can hold or announces.
        available: usize,
    },
    /// The page contents are inconsistent (bad header, impossible length…).
    #[error("corrupt page: {0}")]
    Corrupt(String),
    /// The encoding or type combination is not supported.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The caller passed arguments that cannot be honoured (a bitmap too
    /// short, non-monotonic offsets, a width mismatch…).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// Decoded byte arrays no longer fit the offset type of the output buffer
    /// (more than `i32::MAX` bytes in an `i32`-offset buffer).
    #[error("byte array offsets overflow: {0} bytes do not fit the offset type")]
    OffsetOverflow(usize),
}

/// Result alias for this crate.
pub type Result<T, E = EncodingError> = std::result::Result<T, E>;
