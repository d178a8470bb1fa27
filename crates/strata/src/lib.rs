//! # strata
//!
//! The facade crate most users depend on. It re-exports every layer of
//! strata under one name, so that code can start with the whole stack and
//! later depend on a single layer without changing how it is written:
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`sink`] | `strata-sink` | byte sink, bit writer/reader, varints, RLE/bit-packed hybrid, bit-packing kernels |
//! | [`format`](mod@format) | `strata-format` | Thrift compact protocol, Parquet metadata, footer, schema tree |
//! | [`encoding`] | `strata-encoding` | every Parquet encoding, encoders and decoders |
//! | [`file`](mod@file) | `strata-file` | codecs, pages, column chunks, row groups, physical file reader and writer |
//! | [`record`] | `strata-record` | the record reader: levels, validity and values in batches |
//! | [`arrow`] | `strata-arrow` | Arrow schema mapping, `ArrowWriter`, `ParquetRecordBatchReader` |
//!
//! ## arrow-rs compatible paths
//!
//! The common entry points sit where arrow-rs's `parquet` crate has them,
//! so a program written for arrow-rs compiles against strata by renaming
//! the crate:
//!
//! | path | items |
//! |---|---|
//! | `strata::arrow` | [`ArrowWriter`](arrow::ArrowWriter), [`ProjectionMask`](arrow::ProjectionMask) |
//! | `strata::arrow::arrow_reader` | `ParquetRecordBatchReaderBuilder`, `ParquetRecordBatchReader`, `ArrowReaderOptions`, `RowSelection`, `RowSelector` |
//! | `strata::file::properties` | `WriterProperties`, `WriterVersion`, `EnabledStatistics` |
//! | `strata::basic` | `Compression`, `Encoding`, `ZstdLevel`, `GzipLevel`, `BrotliLevel` |
//! | `strata::schema::types` | `ColumnPath` |
//! | `strata::errors` | `ParquetError`, `Result` |
//!
//! ```
//! use strata::encoding::{Decoder, Encoder, PlainDecoder, PlainEncoder};
//! use strata::format::footer::{read_metadata_from_slice, write_footer};
//! use strata::format::metadata::FileMetaData;
//! use strata::sink::ByteSink;
//!
//! // Encode and decode a page's values.
//! let mut encoder = PlainEncoder::<i64>::default();
//! encoder.put(&[1, 2, 3]).unwrap();
//! let mut page = ByteSink::new();
//! encoder.flush_into(&mut page).unwrap();
//! let mut decoder = PlainDecoder::<i64>::default();
//! decoder.set_data(page.as_slice(), 3).unwrap();
//! let mut values = [0i64; 3];
//! assert_eq!(decoder.decode(&mut values, 3).unwrap(), 3);
//! assert_eq!(values, [1, 2, 3]);
//!
//! // Write and read back a footer.
//! let mut file = ByteSink::new();
//! file.extend_from_slice(b"PAR1");
//! write_footer(&FileMetaData::default(), &mut file).unwrap();
//! assert_eq!(read_metadata_from_slice(file.as_slice()).unwrap(), FileMetaData::default());
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use strata_arrow as arrow;
pub use strata_encoding as encoding;
pub use strata_file as file;
pub use strata_format as format;
pub use strata_record as record;
pub use strata_sink as sink;

/// Basic enums of the format, at arrow-rs's `parquet::basic` path. The
/// physical type and repetition answer to arrow-rs's spellings
/// (`Type::INT32`, `Repetition::OPTIONAL`) beside strata's own.
pub mod basic {
    pub use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    pub use strata_file::properties::Encoding;
    pub use strata_format::metadata::{
        ConvertedType, FieldRepetitionType as Repetition, PageType, Type,
    };
}

/// Schema types, at arrow-rs's `parquet::schema` path.
pub mod schema {
    /// Schema types, at arrow-rs's `parquet::schema::types` path.
    pub mod types {
        pub use strata_format::{ColumnDescriptor, ColumnPath, SchemaDescriptor};
    }
}

/// Errors, at arrow-rs's `parquet::errors` path.
pub mod errors {
    pub use strata_arrow::{ParquetError, Result};
}
