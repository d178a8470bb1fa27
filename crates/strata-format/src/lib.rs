//! # strata-format: the Parquet file format
//!
//! The layer between raw bytes ([`strata_sink`]) and the readers and writers
//! of column data. It owns everything Parquet stores as metadata:
//!
//! - [`thrift`]: a hand-written Thrift *compact protocol* reader and writer,
//!   with the [`ReadThrift`](thrift::ReadThrift) /
//!   [`WriteThrift`](thrift::WriteThrift) traits.
//! - [`metadata`]: Rust types for every struct, union and enum of
//!   `parquet.thrift` that readers and writers use — [`FileMetaData`],
//!   [`PageHeader`], [`ColumnIndex`], [`BloomFilterHeader`] and the rest —
//!   each with a compact-protocol encoding.
//! - [`footer`]: locating, checking and decoding the footer of a file, and
//!   writing one.
//! - [`schema`]: the flattened schema as a tree with leaf
//!   [`ColumnDescriptor`]s carrying their paths
//!   and maximum definition/repetition levels.
//!
//! ## Invariants
//! - Decoding never panics on untrusted bytes: every read is bounds
//!   checked and returns a [`FormatError`].
//! - No allocation is sized by an untrusted length before that length is
//!   checked against the bytes that remain.
//! - Struct and list nesting is limited to [`thrift::MAX_DEPTH`] and
//!   schema nesting to [`schema::MAX_SCHEMA_DEPTH`], so hostile input
//!   cannot exhaust the stack.
//! - Unknown struct fields are skipped, unknown union members and unknown
//!   values of open enums are kept (`Unknown(..)`), so files from newer
//!   writers decode.
//! - Encoding then decoding any value gives it back unchanged.
//!
//! ## Example
//!
//! ```
//! use strata_format::footer::{read_metadata_from_slice, write_footer};
//! use strata_format::metadata::{FieldRepetitionType, FileMetaData, LogicalType, SchemaElement, Type};
//! use strata_format::schema::SchemaDescriptor;
//! use strata_sink::ByteSink;
//!
//! let metadata = FileMetaData {
//!     version: 1,
//!     schema: vec![
//!         SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
//!         SchemaElement {
//!             name: "name".into(),
//!             physical_type: Some(Type::ByteArray),
//!             repetition_type: Some(FieldRepetitionType::Optional),
//!             logical_type: Some(LogicalType::String),
//!             ..Default::default()
//!         },
//!     ],
//!     num_rows: 0,
//!     created_by: Some("strata".into()),
//!     ..Default::default()
//! };
//!
//! // A minimal file: magic, (no row groups), footer.
//! let mut file = ByteSink::new();
//! file.extend_from_slice(b"PAR1");
//! write_footer(&metadata, &mut file).unwrap();
//!
//! let decoded = read_metadata_from_slice(file.as_slice()).unwrap();
//! assert_eq!(decoded, metadata);
//!
//! let schema = SchemaDescriptor::from_elements(&decoded.schema).unwrap();
//! let column = schema.column(0);
//! assert_eq!(column.path.string(), "name");
//! assert_eq!(column.max_def_level, 1);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod error;
pub mod footer;
pub mod metadata;
pub mod schema;
pub mod thrift;

pub use error::{FormatError, Result};
pub use metadata::{BloomFilterHeader, ColumnIndex, FileMetaData, OffsetIndex, PageHeader};
pub use schema::{
    BasicTypeInfo, ColumnDescPtr, ColumnDescriptor, ColumnPath, SchemaDescPtr, SchemaDescriptor,
    TypePtr,
};
/// Re-exported: the inline small vectors used in the metadata model.
pub use smallvec;
