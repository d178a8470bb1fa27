//! The Parquet metadata model: Rust types for the structs, unions and enums
//! of `parquet.thrift`, each with a hand-written compact-protocol reader and
//! writer.
//!
//! Field names follow the specification in `snake_case`; a few are renamed
//! where the spec's name is a Rust keyword or unclear (`type` becomes
//! `physical_type` or `page_type`). Optional Thrift fields are `Option`s;
//! required fields are plain values and their absence is a
//! [`FormatError::MissingField`]. Unknown fields are skipped.

mod bloom;
mod column;
mod column_order;
mod compression;
mod encoding_set;
mod encoding_stats;
mod encryption;
mod enums;
mod file;
mod index;
mod logical_type;
mod options;
mod page_header;
mod row_group;
mod schema_element;
mod statistics;
mod typed_statistics;

pub use bloom::{BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader};
pub use column::{
    ColumnChunk, ColumnChunkBuilder, ColumnChunkExtras, ColumnMetaData, ColumnMetaDataExtras,
    PageEncodingStats,
};
pub use column_order::{ColumnOrder, SortOrder};
pub use compression::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
pub use encoding_set::EncodingSet;
pub use encoding_stats::PageEncodingStatsList;
pub use encryption::{
    AesGcmCtrV1, AesGcmV1, ColumnCryptoMetaData, EncryptionAlgorithm, EncryptionWithColumnKey,
    FileCryptoMetaData,
};
pub use enums::{
    BoundaryOrder, CompressionCodec, ConvertedType, EdgeInterpolationAlgorithm, Encoding,
    FieldRepetitionType, PageType, Type,
};
pub use file::{FileMetaData, KeyValue};
pub use index::{ColumnIndex, OffsetIndex, PageLocation};
pub use logical_type::{
    DecimalType, GeographyType, GeometryType, IntType, LogicalType, TimeType, TimeUnit,
    TimestampType, VariantType,
};
pub use options::{ParquetMetaDataOptions, ParquetStatisticsPolicy};
pub use page_header::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, IndexPageHeader, PageHeader,
};
pub use row_group::{RowGroup, RowGroupBuilder, SortingColumn};
pub use schema_element::SchemaElement;
pub use statistics::{
    BoundingBox, GeospatialStatistics, LevelHistogram, SizeStatistics, StatValue, Statistics,
};
pub use typed_statistics::{StatisticsValue, TypedStatistics, ValueStatistics};

use crate::error::{FormatError, Result};

/// The value of a required field, or [`FormatError::MissingField`].
#[inline]
pub(crate) fn required<T>(
    v: Option<T>,
    struct_name: &'static str,
    field: &'static str,
) -> Result<T> {
    // Not `ok_or(..)`: that builds (and drops) a `FormatError` for every
    // field of every struct on the happy path, which showed up in profiles.
    match v {
        Some(v) => Ok(v),
        None => Err(FormatError::MissingField { struct_name, field }),
    }
}
