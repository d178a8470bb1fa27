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
//! | `strata::data_type` | `ByteArray`, `FixedLenByteArray`, `Int96`, `Decimal`, `AsBytes`, `DataType`, `Int32Type`, `ByteArrayType`, ... |
//! | `strata::bloom_filter` | `Sbbf` (its `check` / `insert` take any `AsBytes`) |
//! | `strata::basic` | `Compression`, `Encoding`, `ZstdLevel`, `GzipLevel`, `BrotliLevel`, `Type`, `Repetition`, `ConvertedType`, `LogicalType` (with `DecimalType`, `IntType`, `TimestampType`, ...), `TimeUnit` |
//! | `strata::schema::types` | `Type`, `TypePtr`, `BasicTypeInfo`, `PrimitiveTypeBuilder`, `GroupTypeBuilder`, `SchemaDescriptor`, `ColumnDescriptor`, `ColumnPath` (and the `*Ptr` aliases) |
//! | `strata::schema::parser` | `parse_message_type` |
//! | `strata::schema::printer` | `print_schema`, `print_file_metadata`, `print_parquet_metadata` |
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
/// Parquet modular encryption, at arrow-rs's path: `encryption::decrypt`
/// (`FileDecryptionProperties`, `KeyRetriever`) with the `encryption`
/// feature.
pub use strata_arrow::encryption;
pub use strata_encoding as encoding;
pub use strata_file::DecodeResult;
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

/// Split-block Bloom filters, at arrow-rs's `parquet::bloom_filter` path:
/// what [`get_row_group_column_bloom_filter`](arrow::arrow_reader::ParquetRecordBatchReaderBuilder::get_row_group_column_bloom_filter)
/// returns, probed with [`Sbbf::check`](bloom_filter::Sbbf::check).
pub mod bloom_filter {
    pub use strata_file::bloom::{
        MAX_BLOOM_BYTES as BITSET_MAX_LENGTH, MIN_BLOOM_BYTES as BITSET_MIN_LENGTH, Sbbf,
    };
}

/// Column readers and writers, at arrow-rs's `parquet::column` path.
pub mod column {
    /// The untyped and typed column readers, at arrow-rs's
    /// `parquet::column::reader` path.
    pub mod reader {
        pub use strata_record::column_reader::{
            ColumnReader, ColumnReaderImpl, get_column_reader, get_typed_column_reader,
        };
    }

    /// The untyped and typed column writers, at arrow-rs's
    /// `parquet::column::writer` path.
    pub mod writer {
        pub use strata_file::writer::{ColumnWriter, ColumnWriterImpl};
    }
}

/// Basic enums of the format, at arrow-rs's `parquet::basic` path. The
/// physical type, repetition, converted type and time unit answer to
/// arrow-rs's spellings (`Type::INT32`, `Repetition::OPTIONAL`,
/// `ConvertedType::UTF8`, `TimeUnit::MILLIS`) beside strata's own, and
/// [`LogicalType`](basic::LogicalType) has arrow-rs's shape
/// (`LogicalType::Decimal(DecimalType { .. })`, `LogicalType::integer(8, true)`).
pub mod basic {
    pub use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    pub use strata_file::properties::Encoding;
    pub use strata_format::metadata::{
        BoundaryOrder, ColumnOrder, ConvertedType, DecimalType, EdgeInterpolationAlgorithm,
        FieldRepetitionType, FieldRepetitionType as Repetition, GeographyType, GeometryType,
        IntType, LogicalType, PageType, SortOrder, TimeType, TimeUnit, TimestampType, Type,
        VariantType,
    };
}

/// Geospatial statistics of `GEOMETRY` and `GEOGRAPHY` columns, at
/// arrow-rs's `parquet::geospatial` paths: read from a chunk's
/// `geo_statistics()`, and written by strata from the values' WKB
/// ([`strata_file::geospatial`]).
///
/// ```
/// use strata::geospatial::bounding_box::BoundingBox;
/// use strata::geospatial::statistics::GeospatialStatistics;
///
/// let stats = GeospatialStatistics::new(Some(BoundingBox::new(0.0, 1.0, 2.0, 3.0)), Some(vec![1]));
/// assert_eq!(stats.bounding_box().map(|b| b.get_ymax()), Some(3.0));
/// assert_eq!(stats.geospatial_types(), Some(&vec![1]));
/// ```
pub mod geospatial {
    /// The box of a chunk's coordinates.
    pub mod bounding_box {
        pub use strata_format::metadata::BoundingBox;
    }
    /// A chunk's geospatial statistics.
    pub mod statistics {
        pub use strata_format::metadata::GeospatialStatistics;
    }
    pub use strata_file::geospatial::GeospatialAccumulator;
}

/// Variant values (feature `variant_experimental`), at arrow-rs's
/// `parquet::variant` path: arrow-rs's `parquet-variant` crates, which
/// encode, decode, shred and unshred Variant values and read no Parquet.
/// With the feature, a `VARIANT` column reads as a struct field of the
/// extension type [`VariantType`](variant::VariantType), and such a field
/// is written as a `VARIANT` column, shredded or not.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, RecordBatch};
/// use arrow_schema::Schema;
/// use strata::arrow::ArrowWriter;
/// use strata::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
/// use strata::variant::{Variant, VariantArray, VariantArrayBuilder, VariantBuilderExt};
///
/// let mut builder = VariantArrayBuilder::new(2);
/// builder.new_object().with_field("name", "Ada").finish();
/// builder.append_value(42i64);
/// let array = builder.build();
/// let schema = Arc::new(Schema::new(vec![array.field("v")]));
/// let batch = RecordBatch::try_new(schema.clone(), vec![ArrayRef::from(array)])?;
///
/// let mut file = Vec::new();
/// let mut writer = ArrowWriter::try_new(&mut file, schema, None)?;
/// writer.write(&batch)?;
/// writer.close()?;
///
/// let mut reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(file))?.build()?;
/// let read = reader.next().unwrap()?;
/// let values = VariantArray::try_new(read.column(0))?;
/// assert_eq!(values.value(1), Variant::from(42i64));
/// assert_eq!(
///     values.value(0).as_object().and_then(|o| o.get("name")),
///     Some(Variant::from("Ada"))
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "variant_experimental")]
pub mod variant {
    pub use parquet_variant::*;
    pub use parquet_variant_compute::*;
    // Shadows the glob's function of the same name and signature: this
    // one refuses hostile values with an error where that one panics.
    pub use strata_arrow::variant::unshred_variant;
}

/// Schema types, their parser and printer, at arrow-rs's `parquet::schema`
/// path.
///
/// ```
/// use std::sync::Arc;
/// use strata::basic::{LogicalType, Repetition, Type as PhysicalType};
/// use strata::schema::parser::parse_message_type;
/// use strata::schema::printer::print_schema;
/// use strata::schema::types::{SchemaDescriptor, Type};
///
/// let parsed = parse_message_type("message m { required int64 id; optional binary name (STRING); }")?;
/// let built = Type::group_type_builder("m")
///     .with_fields(vec![
///         Arc::new(
///             Type::primitive_type_builder("id", PhysicalType::INT64)
///                 .with_repetition(Repetition::REQUIRED)
///                 .build()?,
///         ),
///         Arc::new(
///             Type::primitive_type_builder("name", PhysicalType::BYTE_ARRAY)
///                 .with_logical_type(Some(LogicalType::String))
///                 .build()?,
///         ),
///     ])
///     .build()?;
/// assert_eq!(parsed, built);
/// let schema = SchemaDescriptor::new(Arc::new(built));
/// assert_eq!(schema.column(1).path().string(), "name");
/// let mut text = Vec::new();
/// print_schema(&mut text, schema.root_schema());
/// assert_eq!(
///     String::from_utf8(text)?,
///     "message m {\n  REQUIRED INT64 id;\n  OPTIONAL BYTE_ARRAY name (STRING);\n}\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod schema {
    /// Schema types, at arrow-rs's `parquet::schema::types` path: the
    /// tree ([`Type`](types::Type), its builders and
    /// [`BasicTypeInfo`](types::BasicTypeInfo)) and its descriptors.
    pub mod types {
        pub use strata_format::schema::{
            BasicTypeInfo, ColumnDescPtr, ColumnDescriptor, ColumnPath, GroupTypeBuilder,
            PrimitiveTypeBuilder, SchemaDescPtr, SchemaDescriptor, Type, TypePtr,
        };
    }

    /// The schema's textual form, at arrow-rs's `parquet::schema::parser`
    /// path.
    pub mod parser {
        use crate::errors::Result;
        use crate::schema::types::Type;

        /// Parses a schema's textual form (`message m { required int32 a; }`)
        /// into its root group, as arrow-rs's `parse_message_type`; see
        /// [`strata_format::schema::parser`] for what is accepted.
        pub fn parse_message_type(message_type: &str) -> Result<Type> {
            Ok(strata_format::schema::parser::parse_message_type(
                message_type,
            )?)
        }
    }

    /// Printing a schema and a file's metadata, at arrow-rs's
    /// `parquet::schema::printer` path.
    pub mod printer {
        pub use strata_file::metadata::printer::{
            print_file_metadata, print_parquet_metadata, print_schema,
        };
    }
}

/// Errors, at arrow-rs's `parquet::errors` path.
pub mod errors {
    pub use strata_arrow::{ParquetError, Result};
}
