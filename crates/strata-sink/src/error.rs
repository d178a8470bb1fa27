//! Errors of the sink layer.

/// What can go wrong when reading bits, varints or RLE/bit-packed runs.
///
/// Every decoder in this crate returns one of these for malformed or
/// truncated input instead of panicking.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SinkError {
    /// The input ended before a value was complete.
    #[error("unexpected end of input: needed {needed} more bytes at offset {offset}")]
    UnexpectedEof {
        /// Byte offset at which the read started.
        offset: usize,
        /// How many more bytes would have been needed.
        needed: usize,
    },
    /// A ULEB128 varint ran past the largest value it may hold.
    #[error("varint at offset {offset} is longer than {max_bytes} bytes")]
    VarintTooLong {
        /// Byte offset at which the varint started.
        offset: usize,
        /// Maximum encoded length for the target type.
        max_bytes: usize,
    },
    /// A bit width outside `0..=max` was requested or found in the data.
    #[error("bit width {width} is out of range (max {max})")]
    BitWidth {
        /// The offending bit width.
        width: u32,
        /// The largest width allowed here.
        max: u32,
    },
    /// A RLE/bit-packed hybrid run header was malformed.
    #[error("malformed RLE/bit-packed run: {0}")]
    MalformedRun(&'static str),
    /// A dictionary index pointed past the end of the dictionary.
    #[error("dictionary index {index} out of range for dictionary of {len} values")]
    IndexOutOfRange {
        /// The index found in the data.
        index: u64,
        /// The dictionary's length.
        len: usize,
    },
}

/// Result alias for this crate.
pub type Result<T, E = SinkError> = std::result::Result<T, E>;
