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
//! | [`record`] | `strata-record` | the record reader: levels, validity and values in batches; rows |
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
//! | `strata::file::properties` | `WriterProperties`, `WriterVersion`, `EnabledStatistics`, `ReaderProperties` |
//! | `strata::file::reader` | `FileReader`, `RowGroupReader` (traits), `SerializedFileReader`, `ChunkReader` |
//! | `strata::file::serialized_reader` | `SerializedFileReader`, `ReadOptionsBuilder`, `ReadOptions` |
//! | `strata::file::metadata` | `ParquetMetaData`, `FileMetaData`, `RowGroupMetaData`, `ColumnChunkMetaData` |
//! | `strata::record` | `Row`, `Field`, `List`, `Map`, `RowAccessor`, `ListAccessor`, `MapAccessor` |
//! | `strata::record::reader` | `RowIter` |
//! | `strata::file::writer` | `SerializedFileWriter`, `SerializedRowGroupWriter`, `SerializedColumnWriter` |
//! | `strata::column::writer` | `ColumnWriter`, `ColumnWriterImpl` |
//! | `strata::data_type` | `ByteArray`, `FixedLenByteArray`, `Int96`, `Decimal`, `DataType`, `Int32Type`, `ByteArrayType`, ... |
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
pub use strata_format as format;
pub use strata_sink as sink;

/// The file layer (`strata-file`), with arrow-rs's `parquet::file::reader`
/// beside it: the reader traits, which the record layer implements.
pub mod file {
    pub use strata_file::*;

    /// File readers, at arrow-rs's `parquet::file::reader` path: the
    /// [`FileReader`](reader::FileReader) and
    /// [`RowGroupReader`](reader::RowGroupReader) traits (rows and
    /// metadata), [`SerializedFileReader`](reader::SerializedFileReader)
    /// which implements them, and [`ChunkReader`](reader::ChunkReader).
    ///
    /// ```no_run
    /// use strata::file::reader::{FileReader, SerializedFileReader};
    ///
    /// let reader = SerializedFileReader::new(std::fs::File::open("data.parquet")?)?;
    /// println!("{} rows", reader.metadata().file_metadata().num_rows());
    /// for row in reader.get_row_iter(None)? {
    ///     println!("{}", row?);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub mod reader {
        pub use strata_file::chunk_reader::ChunkReader;
        pub use strata_file::serialized_reader::SerializedFileReader;
        pub use strata_record::row::{FileReader, RowGroupReader};
    }
}

/// The record layer (`strata-record`: levels and values in batches), with
/// arrow-rs's row API beside it (`parquet::record`): [`Row`](record::Row),
/// [`Field`](record::Field) and their getters, and
/// [`reader::RowIter`](record::reader::RowIter).
pub mod record {
    pub use strata_record::row::{
        Field, List, ListAccessor, Map, MapAccessor, Row, RowAccessor, RowColumnIter, RowFormatter,
    };
    pub use strata_record::*;

    /// Row iterators, at arrow-rs's `parquet::record::reader` path.
    pub mod reader {
        pub use strata_record::row::RowIter;
    }
}

/// Values and physical type names, at arrow-rs's `parquet::data_type`
/// path: what the column writers take ([`ByteArray`](data_type::ByteArray),
/// [`FixedLenByteArray`](data_type::FixedLenByteArray), ...), the types
/// that select one ([`Int32Type`](data_type::Int32Type), ...), and the
/// row API's [`Decimal`](data_type::Decimal).
pub mod data_type {
    pub use strata_file::data_type::*;
    pub use strata_record::row::Decimal;
}

/// Column writers, at arrow-rs's `parquet::column` path.
pub mod column {
    /// The untyped and typed column writers, at arrow-rs's
    /// `parquet::column::writer` path.
    pub mod writer {
        pub use strata_file::writer::{ColumnWriter, ColumnWriterImpl};
    }
}

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
