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
//! - [`bloom`]: split-block Bloom filters ([`Sbbf`](bloom::Sbbf)): hashing,
//!   insert/check, and their serialized form.
//! - [`chunk_reader`]: [`ChunkReader`](chunk_reader::ChunkReader), random
//!   access to a file's bytes (a `File`, or `Bytes` in memory).
//! - [`page`]: [`Page`](page::Page), one decompressed dictionary or data page.
//! - [`page_reader`]: [`PageReader`](page_reader::PageReader), the checked,
//!   decompressed pages of one column chunk, with page skipping.
//! - [`serialized_reader`]:
//!   [`SerializedFileReader`](serialized_reader::SerializedFileReader) and
//!   [`SerializedRowGroupReader`](serialized_reader::SerializedRowGroupReader):
//!   footer, column chunk ranges, page indexes and Bloom filters, with
//!   arrow-rs's names ([`ReadOptionsBuilder`](serialized_reader::ReadOptionsBuilder),
//!   row group predicates). arrow-rs's `FileReader` and `RowGroupReader`
//!   traits are the record layer's, which assembles rows.
//! - [`properties`]: reader and writer settings,
//!   [`ReaderProperties`](properties::ReaderProperties), and
//!   [`WriterProperties`](properties::WriterProperties) with its builder,
//!   with arrow-rs's setter names.
//! - [`statistics`]: min/max in each column's sort order, null counts, and
//!   truncation of long byte-array bounds.
//! - [`data_type`]: arrow-rs's value types ([`ByteArray`](data_type::ByteArray),
//!   ...) and the names of the physical types that select a typed column
//!   writer ([`Int32Type`](data_type::Int32Type), ...).
//! - [`writer`]: the file writer, [`FileWriter`](writer::FileWriter),
//!   [`RowGroupWriter`](writer::RowGroupWriter) and
//!   [`ColumnChunkWriter`](writer::ColumnChunkWriter): pages, dictionary
//!   fallback, compression, statistics, page indexes, Bloom filters and the
//!   footer; arrow-rs's faces of them,
//!   [`SerializedFileWriter`](writer::SerializedFileWriter),
//!   [`SerializedRowGroupWriter`](writer::SerializedRowGroupWriter) and
//!   [`SerializedColumnWriter`](writer::SerializedColumnWriter).
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

pub mod bloom;
pub mod chunk_reader;
pub mod chunking;
pub mod codec;
pub mod data_type;
#[cfg(feature = "encryption")]
pub mod encryption;
mod error;
pub mod geospatial;
pub mod metadata;
pub mod page;
pub mod page_reader;

/// The page index types at arrow-rs's paths
/// (`parquet::file::page_index::{column_index, offset_index}`); they live
/// in [`metadata`].
pub mod page_index {
    /// The column index of a column chunk.
    pub mod column_index {
        pub use crate::metadata::{
            ByteArrayColumnIndex, ColumnIndex, ColumnIndexIterators, ColumnIndexMetaData,
            PrimitiveColumnIndex,
        };
    }
    /// The offset index of a column chunk.
    pub mod offset_index {
        pub use crate::metadata::{OffsetIndexMetaData, PageLocation};
    }
}
pub mod projection;
pub mod properties;
pub mod push_buffers;
pub mod serialized_reader;
pub mod statistics;
pub mod writer;

pub use error::{FileError, Result};

/// What a push decoder answers when asked to go on
/// ([`ParquetMetaDataPushDecoder::try_decode`](metadata::ParquetMetaDataPushDecoder::try_decode),
/// and the Arrow push decoder above this layer).
#[derive(Debug, Clone, PartialEq)]
pub enum DecodeResult<T: std::fmt::Debug> {
    /// The byte ranges of the file it needs before it can go on.
    NeedsData(Vec<std::ops::Range<u64>>),
    /// The next thing decoded.
    Data(T),
    /// Nothing is left to decode.
    Finished,
}
