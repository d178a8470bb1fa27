//! Errors of the format layer.

use strata_sink::SinkError;

/// Everything that can go wrong while decoding or encoding Parquet metadata,
/// reading a footer or building a schema tree.
///
/// Decoders in this crate return one of these for malformed, truncated or
/// hostile input; they never panic. Offsets are byte positions inside the
/// buffer being decoded (for example the serialized `FileMetaData`).
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The input ended in the middle of a value.
    #[error("unexpected end of Thrift data at offset {offset}: needed {needed} more bytes")]
    Eof {
        /// Byte offset at which the read started.
        offset: usize,
        /// How many more bytes were needed (a lower bound).
        needed: usize,
    },
    /// The bytes do not follow the Thrift compact protocol.
    #[error("invalid Thrift data at offset {offset}: {reason}")]
    InvalidThrift {
        /// Byte offset of the offending byte or value.
        offset: usize,
        /// What was wrong.
        reason: &'static str,
    },
    /// Structs, lists or schema groups nested deeper than the decoder allows.
    #[error("nesting deeper than {limit} levels at offset {offset}")]
    DepthLimit {
        /// The limit that was exceeded.
        limit: usize,
        /// Byte offset (or element index for schemas) where it was exceeded.
        offset: usize,
    },
    /// A field the Parquet specification marks `required` was absent.
    #[error("required field {struct_name}.{field} is missing")]
    MissingField {
        /// The Thrift struct being decoded.
        struct_name: &'static str,
        /// Name of the missing field.
        field: &'static str,
    },
    /// A value is outside the range its field allows (for example an unknown
    /// physical type).
    #[error("invalid value {value} for {what}")]
    InvalidValue {
        /// What the value was meant to be.
        what: &'static str,
        /// The value found.
        value: i64,
    },
    /// A name that spells none of an enum's values.
    #[error("unknown {what} name {name:?}")]
    UnknownName {
        /// What the name was meant to be.
        what: &'static str,
        /// The name given.
        name: String,
    },
    /// The file does not start or end with the `PAR1` magic.
    #[error("not a Parquet file: expected magic \"PAR1\", found {found:?}")]
    BadMagic {
        /// The four bytes found where the magic should be.
        found: [u8; 4],
    },
    /// The footer is encrypted (magic `PARE`) and no keys were given to
    /// decrypt it (this layer decrypts nothing; the file layer does, with
    /// its `encryption` feature).
    #[error(
        "the file footer is encrypted (magic \"PARE\"); read it with decryption properties (the `encryption` feature)"
    )]
    Encrypted,
    /// The footer's length fields do not fit the file.
    #[error("invalid footer: {0}")]
    InvalidFooter(String),
    /// A codec name that is not one of the format's, or a level given to
    /// a codec that takes none.
    #[error("unsupported compression codec {0}")]
    UnsupportedCodec(String),
    /// A compression level outside the codec's range.
    #[error("invalid {codec} compression level {level} (expected {range})")]
    InvalidLevel {
        /// The codec's name.
        codec: &'static str,
        /// The level given.
        level: i64,
        /// The accepted range.
        range: &'static str,
    },
    /// The flattened schema does not describe a valid tree.
    #[error("invalid schema: {0}")]
    Schema(String),
    /// A schema the builders or the parser refuse (bad annotation, bad
    /// text), with arrow-rs's message and its `Parquet error: ` prefix.
    #[error("Parquet error: {0}")]
    General(String),
    /// A lower-level byte or varint error.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// Reading from the underlying file failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

/// Result alias for this crate.
pub type Result<T, E = FormatError> = std::result::Result<T, E>;
