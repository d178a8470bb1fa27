//! # strata-file: the physical Parquet file
//!
//! The layer between metadata ([`strata_format`]) and values
//! ([`strata_encoding`]) on one side, and bytes on disk on the other: page
//! compression, pages, column chunks, row groups, and the physical file
//! reader and writer. It knows nothing about Arrow.
//!
//! - [`codec`]: [`Compression`](codec::Compression) (arrow-rs's names and
//!   levels) and a [`Codec`](codec::Codec) per algorithm, with decompression
//!   bounded by the size a page header declares.
//!
//! ## Invariants
//! - Untrusted sizes (page headers, offsets) are checked against the bytes
//!   that exist before they size an allocation.
//! - Codec state and buffers are reused across pages.
//!
//! ```
//! use strata_file::codec::{create_codec, Compression};
//!
//! let mut snappy = create_codec(Compression::SNAPPY).unwrap().unwrap();
//! let mut compressed = Vec::new();
//! snappy.compress(b"hello hello hello hello", &mut compressed).unwrap();
//! let mut page = Vec::new();
//! snappy.decompress(&compressed, &mut page, 23).unwrap();
//! assert_eq!(page, b"hello hello hello hello");
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod codec;
mod error;

pub use error::{FileError, Result};
