//! Writer settings: [`WriterProperties`] and its [`WriterPropertiesBuilder`],
//! with the names and signatures of arrow-rs `parquet` 60.1
//! (`parquet::file::properties`), so code written against it compiles
//! against strata with only its imports changed.
//!
//! File-wide settings (writer version, row group size, `created_by`,
//! key/value metadata) sit beside per-column settings (encoding,
//! compression, dictionary, statistics, Bloom filter, page limits), which
//! have a default for every column and optional overrides by
//! [`ColumnPath`].
//!
//! Differences from arrow-rs:
//! - setters never panic: an invalid choice (a dictionary encoding passed to
//!   [`set_encoding`](WriterPropertiesBuilder::set_encoding), an encoding
//!   the column's type cannot use) is reported as an error by the column
//!   writer that would use it;
//! - [`set_write_page_crc`](WriterPropertiesBuilder::set_write_page_crc)
//!   has no arrow-rs 60.1 counterpart (its writer never writes page CRCs);
//! - [`set_write_distinct_count`](WriterPropertiesBuilder::set_write_distinct_count)
//!   is a strata extension.
//!
//! ```
//! use strata_file::codec::Compression;
//! use strata_file::properties::{EnabledStatistics, Encoding, WriterProperties, WriterVersion};
//! use strata_format::ColumnPath;
//!
//! let props = WriterProperties::builder()
//!     .set_writer_version(WriterVersion::PARQUET_2_0)
//!     .set_compression(Compression::SNAPPY)
//!     .set_column_encoding(ColumnPath::from(vec!["id".to_string()]), Encoding::DELTA_BINARY_PACKED)
//!     .set_column_dictionary_enabled(ColumnPath::from(vec!["id".to_string()]), false)
//!     .set_statistics_enabled(EnabledStatistics::Chunk)
//!     .build();
//! let id = ColumnPath::from(vec!["id".to_string()]);
//! assert_eq!(props.encoding(&id), Some(Encoding::DELTA_BINARY_PACKED));
//! assert!(!props.dictionary_enabled(&id));
//! assert!(props.dictionary_enabled(&ColumnPath::from(vec!["name".to_string()])));
//! assert_eq!(props.compression(&id), Compression::SNAPPY);
//! ```

use std::collections::HashMap;

use strata_format::ColumnPath;
use strata_format::metadata::{KeyValue, SortingColumn};

use crate::codec::Compression;

/// Default data page size limit in bytes (1 MiB).
pub const DEFAULT_PAGE_SIZE: usize = 1024 * 1024;
/// Default number of levels handed to the encoders at a time.
pub const DEFAULT_WRITE_BATCH_SIZE: usize = 1024;
/// Default writer version.
pub const DEFAULT_WRITER_VERSION: WriterVersion = WriterVersion::PARQUET_1_0;
/// Default compression.
pub const DEFAULT_COMPRESSION: Compression = Compression::UNCOMPRESSED;
/// Whether dictionary encoding is on by default.
pub const DEFAULT_DICTIONARY_ENABLED: bool = true;
/// Default dictionary page size limit in bytes.
pub const DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT: usize = DEFAULT_PAGE_SIZE;
/// Default maximum number of rows in a data page.
pub const DEFAULT_DATA_PAGE_ROW_COUNT_LIMIT: usize = 20_000;
/// Default statistics level.
pub const DEFAULT_STATISTICS_ENABLED: EnabledStatistics = EnabledStatistics::Page;
/// Whether page headers carry statistics by default.
pub const DEFAULT_WRITE_PAGE_HEADER_STATISTICS: bool = false;
/// Default maximum number of rows in a row group.
pub const DEFAULT_MAX_ROW_GROUP_ROW_COUNT: usize = 1024 * 1024;
/// Default `created_by` string.
pub const DEFAULT_CREATED_BY: &str = concat!("strata version ", env!("CARGO_PKG_VERSION"));
/// Default length bound of column index min/max values.
pub const DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH: Option<usize> = Some(64);
/// Default length bound of chunk statistics min/max values.
pub const DEFAULT_STATISTICS_TRUNCATE_LENGTH: Option<usize> = Some(64);
/// Default Bloom filter false positive probability.
pub const DEFAULT_BLOOM_FILTER_FPP: f64 = 0.05;
/// Default Bloom filter number of distinct values.
pub const DEFAULT_BLOOM_FILTER_NDV: u64 = DEFAULT_MAX_ROW_GROUP_ROW_COUNT as u64;
/// Default of [`WriterProperties::coerce_types`].
pub const DEFAULT_COERCE_TYPES: bool = false;
/// Default of [`WriterProperties::write_path_in_schema`].
pub const DEFAULT_WRITE_PATH_IN_SCHEMA: bool = true;
/// Default [`CdcOptions::min_chunk_size`]: 256 KiB.
pub const DEFAULT_CDC_MIN_CHUNK_SIZE: usize = 256 * 1024;
/// Default [`CdcOptions::max_chunk_size`]: 1 MiB.
pub const DEFAULT_CDC_MAX_CHUNK_SIZE: usize = 1024 * 1024;
/// Default [`CdcOptions::norm_level`].
pub const DEFAULT_CDC_NORM_LEVEL: i32 = 0;

/// Content-defined chunking of data pages
/// ([`WriterPropertiesBuilder::set_content_defined_chunking`]): each leaf
/// column's pages end where a rolling hash of its values (and levels)
/// says, not at a fixed count, so the pages of data that did not change
/// come out byte for byte the same when rows are inserted or removed
/// elsewhere, and a content-addressed store keeps them once. Sizes are of
/// the values as the writer is given them, before encoding and
/// compression (the levels count 2 bytes each). The options and their
/// meaning are arrow-rs's and Arrow C++'s, whose boundaries strata's
/// match for the same values (`strata_file::chunking`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CdcOptions {
    /// The least bytes a chunk holds: no boundary is looked for before.
    pub min_chunk_size: usize,
    /// The most bytes a chunk holds: a boundary is forced at the first
    /// value (the first record, for repeated columns) that reaches it.
    /// The page size and row count limits still cut pages inside a chunk.
    pub max_chunk_size: usize,
    /// Bits taken from (positive) or added to (negative) the hash mask:
    /// higher levels find boundaries more often, for smaller pages and
    /// better deduplication; outside -3..=3 is rarely useful.
    pub norm_level: i32,
}

impl Default for CdcOptions {
    fn default() -> Self {
        Self {
            min_chunk_size: DEFAULT_CDC_MIN_CHUNK_SIZE,
            max_chunk_size: DEFAULT_CDC_MAX_CHUNK_SIZE,
            norm_level: DEFAULT_CDC_NORM_LEVEL,
        }
    }
}
/// Default of [`WriterProperties::data_page_v2_compression_ratio_threshold`]:
/// a data page v2 keeps its compressed values when they are smaller than
/// the page uncompressed.
pub const DEFAULT_DATA_PAGE_V2_COMPRESSION_RATIO_THRESHOLD: f64 = 1.0;

/// Parquet format version the writer targets.
///
/// `PARQUET_1_0` writes data pages v1 and falls back from dictionary
/// encoding to PLAIN; `PARQUET_2_0` writes data pages v2 and falls back to
/// the delta encodings.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WriterVersion {
    /// Format 1.0: data pages v1.
    PARQUET_1_0,
    /// Format 2.0: data pages v2.
    PARQUET_2_0,
}

/// `PARQUET_1_0` or `PARQUET_2_0`, in upper or lower case, as arrow-rs
/// parses them.
///
/// ```
/// use strata_file::properties::WriterVersion;
/// assert_eq!("parquet_2_0".parse::<WriterVersion>(), Ok(WriterVersion::PARQUET_2_0));
/// assert!("2.0".parse::<WriterVersion>().is_err());
/// ```
impl std::str::FromStr for WriterVersion {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "PARQUET_1_0" | "parquet_1_0" => Ok(Self::PARQUET_1_0),
            "PARQUET_2_0" | "parquet_2_0" => Ok(Self::PARQUET_2_0),
            other => Err(format!("invalid writer version: {other}")),
        }
    }
}

/// `NONE`, `CHUNK` or `PAGE`, in upper or lower case, as arrow-rs parses
/// them.
///
/// ```
/// use strata_file::properties::EnabledStatistics;
/// assert_eq!("chunk".parse::<EnabledStatistics>(), Ok(EnabledStatistics::Chunk));
/// assert!("Page".parse::<EnabledStatistics>().is_err());
/// ```
impl std::str::FromStr for EnabledStatistics {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "NONE" | "none" => Ok(Self::None),
            "CHUNK" | "chunk" => Ok(Self::Chunk),
            "PAGE" | "page" => Ok(Self::Page),
            other => Err(format!("invalid statistics level: {other}")),
        }
    }
}

impl WriterVersion {
    /// The version number written to the footer (1 or 2).
    pub fn as_num(&self) -> i32 {
        match self {
            Self::PARQUET_1_0 => 1,
            Self::PARQUET_2_0 => 2,
        }
    }
}

/// Which statistics the writer computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EnabledStatistics {
    /// None.
    None,
    /// Column chunk statistics only.
    Chunk,
    /// Column chunk statistics and per-page statistics (the column index).
    #[default]
    Page,
}

/// The format layer's encoding enum, the one `Encoding` of every strata
/// crate; it answers to arrow-rs's spellings too (`Encoding::PLAIN`,
/// `Encoding::RLE_DICTIONARY`, ...).
pub use strata_format::metadata::Encoding;

/// Bloom filter sizing of a column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BloomFilterProperties {
    /// Target false positive probability, in `(0, 1)`.
    pub fpp: f64,
    /// Expected number of distinct values.
    pub ndv: u64,
}

impl Default for BloomFilterProperties {
    fn default() -> Self {
        Self {
            fpp: DEFAULT_BLOOM_FILTER_FPP,
            ndv: DEFAULT_BLOOM_FILTER_NDV,
        }
    }
}

/// Settings of one column; `None` means "not set here".
#[derive(Debug, Clone, Default, PartialEq)]
struct ColumnProperties {
    encoding: Option<Encoding>,
    compression: Option<Compression>,
    dictionary_enabled: Option<bool>,
    dictionary_page_size_limit: Option<usize>,
    data_page_size_limit: Option<usize>,
    data_page_row_count_limit: Option<usize>,
    statistics_enabled: Option<EnabledStatistics>,
    write_page_header_statistics: Option<bool>,
    bloom_filter_enabled: Option<bool>,
    bloom_filter_fpp: Option<f64>,
    bloom_filter_ndv: Option<u64>,
    data_page_v2_compression_ratio_threshold: Option<f64>,
}

impl ColumnProperties {
    fn enable_bloom(&mut self) {
        self.bloom_filter_enabled = Some(true);
    }
}

/// Writer settings shared between writers (arrow-rs's
/// `WriterPropertiesPtr`).
pub type WriterPropertiesPtr = std::sync::Arc<WriterProperties>;

/// Settings for writing Parquet files. Build one with
/// [`WriterProperties::builder`]; share it as an `Arc` between writers.
#[derive(Debug, Clone, PartialEq)]
pub struct WriterProperties {
    write_batch_size: usize,
    max_row_group_row_count: Option<usize>,
    max_row_group_bytes: Option<usize>,
    writer_version: WriterVersion,
    created_by: String,
    key_value_metadata: Option<Vec<KeyValue>>,
    sorting_columns: Option<Vec<SortingColumn>>,
    default_column: ColumnProperties,
    columns: HashMap<ColumnPath, ColumnProperties>,
    column_index_truncate_length: Option<usize>,
    statistics_truncate_length: Option<usize>,
    offset_index_disabled: bool,
    write_page_crc: bool,
    write_distinct_count: bool,
    coerce_types: bool,
    write_path_in_schema: bool,
    content_defined_chunking: Option<CdcOptions>,
    /// Resolved Bloom filter settings: the default, and columns that set
    /// any Bloom filter option.
    bloom_default: Option<BloomFilterProperties>,
    bloom_columns: HashMap<ColumnPath, Option<BloomFilterProperties>>,
    #[cfg(feature = "encryption")]
    file_encryption_properties: Option<std::sync::Arc<crate::encryption::FileEncryptionProperties>>,
}

impl Default for WriterProperties {
    fn default() -> Self {
        Self::builder().build()
    }
}

impl WriterProperties {
    /// Default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder starting from the defaults.
    pub fn builder() -> WriterPropertiesBuilder {
        WriterPropertiesBuilder::default()
    }

    /// A builder starting from these settings.
    pub fn into_builder(self) -> WriterPropertiesBuilder {
        WriterPropertiesBuilder {
            write_batch_size: self.write_batch_size,
            max_row_group_row_count: self.max_row_group_row_count,
            max_row_group_bytes: self.max_row_group_bytes,
            writer_version: self.writer_version,
            created_by: self.created_by,
            key_value_metadata: self.key_value_metadata,
            sorting_columns: self.sorting_columns,
            default_column: self.default_column,
            columns: self.columns,
            column_index_truncate_length: self.column_index_truncate_length,
            statistics_truncate_length: self.statistics_truncate_length,
            offset_index_disabled: self.offset_index_disabled,
            write_page_crc: self.write_page_crc,
            write_distinct_count: self.write_distinct_count,
            coerce_types: self.coerce_types,
            write_path_in_schema: self.write_path_in_schema,
            content_defined_chunking: self.content_defined_chunking,
            #[cfg(feature = "encryption")]
            file_encryption_properties: self.file_encryption_properties,
        }
    }

    fn column(&self, col: &ColumnPath) -> Option<&ColumnProperties> {
        self.columns.get(col)
    }

    fn resolve<T>(
        &self,
        col: &ColumnPath,
        f: impl Fn(&ColumnProperties) -> Option<T>,
    ) -> Option<T> {
        self.column(col)
            .and_then(&f)
            .or_else(|| f(&self.default_column))
    }

    /// Best-effort limit of a data page's size in bytes (default column
    /// setting).
    pub fn data_page_size_limit(&self) -> usize {
        self.default_column
            .data_page_size_limit
            .unwrap_or(DEFAULT_PAGE_SIZE)
    }

    /// Data page size limit of a column.
    pub fn column_data_page_size_limit(&self, col: &ColumnPath) -> usize {
        self.resolve(col, |c| c.data_page_size_limit)
            .unwrap_or(DEFAULT_PAGE_SIZE)
    }

    /// Best-effort limit of the dictionary page size in bytes (default
    /// column setting); past it the column falls back to another encoding.
    pub fn dictionary_page_size_limit(&self) -> usize {
        self.default_column
            .dictionary_page_size_limit
            .unwrap_or(DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT)
    }

    /// Dictionary page size limit of a column.
    pub fn column_dictionary_page_size_limit(&self, col: &ColumnPath) -> usize {
        self.resolve(col, |c| c.dictionary_page_size_limit)
            .unwrap_or(DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT)
    }

    /// Best-effort maximum number of rows in a data page (default column
    /// setting).
    pub fn data_page_row_count_limit(&self) -> usize {
        self.default_column
            .data_page_row_count_limit
            .unwrap_or(DEFAULT_DATA_PAGE_ROW_COUNT_LIMIT)
    }

    /// Data page row count limit of a column.
    pub fn column_data_page_row_count_limit(&self, col: &ColumnPath) -> usize {
        self.resolve(col, |c| c.data_page_row_count_limit)
            .unwrap_or(DEFAULT_DATA_PAGE_ROW_COUNT_LIMIT)
    }

    /// Number of levels handed to the encoders at a time; page limits are
    /// checked between such batches.
    pub fn write_batch_size(&self) -> usize {
        self.write_batch_size
    }

    /// Maximum number of rows in a row group, if limited.
    pub fn max_row_group_row_count(&self) -> Option<usize> {
        self.max_row_group_row_count
    }

    /// Maximum estimated size of a row group in bytes, if limited (the
    /// Arrow writer closes a row group once its buffered pages reach it).
    pub fn max_row_group_bytes(&self) -> Option<usize> {
        self.max_row_group_bytes
    }

    /// The format version written.
    pub fn writer_version(&self) -> WriterVersion {
        self.writer_version
    }

    /// The `created_by` string of the footer.
    pub fn created_by(&self) -> &str {
        &self.created_by
    }

    /// Whether the Arrow writer is asked to store Arrow types as native
    /// Parquet types ([`WriterPropertiesBuilder::set_coerce_types`]).
    pub fn coerce_types(&self) -> bool {
        self.coerce_types
    }

    /// Whether each column chunk's metadata names its column's path
    /// ([`WriterPropertiesBuilder::set_write_path_in_schema`]).
    pub fn write_path_in_schema(&self) -> bool {
        self.write_path_in_schema
    }

    /// The content-defined chunking options, if it is on
    /// ([`WriterPropertiesBuilder::set_content_defined_chunking`]).
    pub fn content_defined_chunking(&self) -> Option<&CdcOptions> {
        self.content_defined_chunking.as_ref()
    }

    /// Key/value metadata of the footer.
    pub fn key_value_metadata(&self) -> Option<&Vec<KeyValue>> {
        self.key_value_metadata.as_ref()
    }

    /// The order every row group's rows are declared sorted in.
    pub fn sorting_columns(&self) -> Option<&Vec<SortingColumn>> {
        self.sorting_columns.as_ref()
    }

    /// How the file is encrypted, if it is (the `encryption` feature).
    #[cfg(feature = "encryption")]
    pub fn file_encryption_properties(
        &self,
    ) -> Option<&std::sync::Arc<crate::encryption::FileEncryptionProperties>> {
        self.file_encryption_properties.as_ref()
    }

    /// Whether offset indexes are left out. As in arrow-rs, page-level
    /// statistics keep them on: a column index needs its offset index.
    pub fn offset_index_disabled(&self) -> bool {
        let page = |c: &ColumnProperties| c.statistics_enabled == Some(EnabledStatistics::Page);
        self.offset_index_disabled
            && !page(&self.default_column)
            && self.default_column.statistics_enabled.is_some()
            && !self.columns.values().any(page)
    }

    /// Length bound of column index min/max values (`None`: untruncated).
    pub fn column_index_truncate_length(&self) -> Option<usize> {
        self.column_index_truncate_length
    }

    /// Length bound of chunk statistics min/max values (`None`:
    /// untruncated).
    pub fn statistics_truncate_length(&self) -> Option<usize> {
        self.statistics_truncate_length
    }

    /// Whether page headers carry a CRC32 of the page.
    pub fn write_page_crc(&self) -> bool {
        self.write_page_crc
    }

    /// Whether chunk statistics carry a distinct count where it is known
    /// exactly (chunks dictionary encoded throughout, non-float types).
    pub fn write_distinct_count(&self) -> bool {
        self.write_distinct_count
    }

    /// The encoding set for a column: its only encoding when dictionary
    /// encoding is off, the fallback when it is on. `None` lets the writer
    /// choose.
    pub fn encoding(&self, col: &ColumnPath) -> Option<Encoding> {
        self.resolve(col, |c| c.encoding)
    }

    /// Compression of a column.
    pub fn compression(&self, col: &ColumnPath) -> Compression {
        self.resolve(col, |c| c.compression)
            .unwrap_or(DEFAULT_COMPRESSION)
    }

    /// Whether a column starts out dictionary encoded.
    pub fn dictionary_enabled(&self, col: &ColumnPath) -> bool {
        self.resolve(col, |c| c.dictionary_enabled)
            .unwrap_or(DEFAULT_DICTIONARY_ENABLED)
    }

    /// The ratio of a data page v2's compressed values to the page's
    /// uncompressed size (levels and values) at or above which its values
    /// are stored uncompressed
    /// ([`WriterPropertiesBuilder::set_data_page_v2_compression_ratio_threshold`]).
    pub fn data_page_v2_compression_ratio_threshold(&self) -> f64 {
        self.default_column
            .data_page_v2_compression_ratio_threshold
            .unwrap_or(DEFAULT_DATA_PAGE_V2_COMPRESSION_RATIO_THRESHOLD)
    }

    /// [`data_page_v2_compression_ratio_threshold`](Self::data_page_v2_compression_ratio_threshold)
    /// of one column.
    pub fn column_data_page_v2_compression_ratio_threshold(&self, col: &ColumnPath) -> f64 {
        self.resolve(col, |c| c.data_page_v2_compression_ratio_threshold)
            .unwrap_or(DEFAULT_DATA_PAGE_V2_COMPRESSION_RATIO_THRESHOLD)
    }

    /// Statistics level of a column.
    pub fn statistics_enabled(&self, col: &ColumnPath) -> EnabledStatistics {
        self.resolve(col, |c| c.statistics_enabled)
            .unwrap_or(DEFAULT_STATISTICS_ENABLED)
    }

    /// Whether the data page headers of a column carry statistics (only
    /// with [`EnabledStatistics::Page`]).
    pub fn write_page_header_statistics(&self, col: &ColumnPath) -> bool {
        self.resolve(col, |c| c.write_page_header_statistics)
            .unwrap_or(DEFAULT_WRITE_PAGE_HEADER_STATISTICS)
    }

    /// Bloom filter settings of a column, if it gets a Bloom filter.
    pub fn bloom_filter_properties(&self, col: &ColumnPath) -> Option<&BloomFilterProperties> {
        match self.bloom_columns.get(col) {
            Some(resolved) => resolved.as_ref(),
            None => self.bloom_default.as_ref(),
        }
    }
}

/// Builder of [`WriterProperties`]; every setter takes and returns the
/// builder by value.
#[derive(Debug, Clone)]
pub struct WriterPropertiesBuilder {
    write_batch_size: usize,
    max_row_group_row_count: Option<usize>,
    max_row_group_bytes: Option<usize>,
    writer_version: WriterVersion,
    created_by: String,
    key_value_metadata: Option<Vec<KeyValue>>,
    sorting_columns: Option<Vec<SortingColumn>>,
    default_column: ColumnProperties,
    columns: HashMap<ColumnPath, ColumnProperties>,
    column_index_truncate_length: Option<usize>,
    statistics_truncate_length: Option<usize>,
    offset_index_disabled: bool,
    write_page_crc: bool,
    write_distinct_count: bool,
    coerce_types: bool,
    write_path_in_schema: bool,
    content_defined_chunking: Option<CdcOptions>,
    #[cfg(feature = "encryption")]
    file_encryption_properties: Option<std::sync::Arc<crate::encryption::FileEncryptionProperties>>,
}

impl Default for WriterPropertiesBuilder {
    fn default() -> Self {
        Self {
            write_batch_size: DEFAULT_WRITE_BATCH_SIZE,
            max_row_group_row_count: Some(DEFAULT_MAX_ROW_GROUP_ROW_COUNT),
            max_row_group_bytes: None,
            writer_version: DEFAULT_WRITER_VERSION,
            created_by: DEFAULT_CREATED_BY.to_string(),
            key_value_metadata: None,
            sorting_columns: None,
            default_column: ColumnProperties::default(),
            columns: HashMap::new(),
            column_index_truncate_length: DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH,
            statistics_truncate_length: DEFAULT_STATISTICS_TRUNCATE_LENGTH,
            offset_index_disabled: false,
            write_page_crc: false,
            write_distinct_count: false,
            coerce_types: DEFAULT_COERCE_TYPES,
            write_path_in_schema: DEFAULT_WRITE_PATH_IN_SCHEMA,
            content_defined_chunking: None,
            #[cfg(feature = "encryption")]
            file_encryption_properties: None,
        }
    }
}

impl WriterPropertiesBuilder {
    /// The settings. Bloom filter sizes left unset default to the row
    /// group row count limit, as in arrow-rs.
    pub fn build(self) -> WriterProperties {
        let default_ndv = self
            .max_row_group_row_count
            .unwrap_or(DEFAULT_MAX_ROW_GROUP_ROW_COUNT) as u64;
        let d = &self.default_column;
        let resolve_bloom = |c: &ColumnProperties| -> Option<BloomFilterProperties> {
            c.bloom_filter_enabled
                .or(d.bloom_filter_enabled)
                .filter(|&on| on)
                .map(|_| BloomFilterProperties {
                    fpp: c
                        .bloom_filter_fpp
                        .or(d.bloom_filter_fpp)
                        .unwrap_or(DEFAULT_BLOOM_FILTER_FPP),
                    ndv: c
                        .bloom_filter_ndv
                        .or(d.bloom_filter_ndv)
                        .unwrap_or(default_ndv),
                })
        };
        let bloom_default = resolve_bloom(d);
        let bloom_columns = self
            .columns
            .iter()
            .filter(|(_, c)| {
                c.bloom_filter_enabled.is_some()
                    || c.bloom_filter_fpp.is_some()
                    || c.bloom_filter_ndv.is_some()
            })
            .map(|(path, c)| (path.clone(), resolve_bloom(c)))
            .collect();
        WriterProperties {
            write_batch_size: self.write_batch_size,
            max_row_group_row_count: self.max_row_group_row_count,
            max_row_group_bytes: self.max_row_group_bytes,
            writer_version: self.writer_version,
            created_by: self.created_by,
            key_value_metadata: self.key_value_metadata,
            sorting_columns: self.sorting_columns,
            default_column: self.default_column,
            columns: self.columns,
            column_index_truncate_length: self.column_index_truncate_length,
            statistics_truncate_length: self.statistics_truncate_length,
            offset_index_disabled: self.offset_index_disabled,
            write_page_crc: self.write_page_crc,
            write_distinct_count: self.write_distinct_count,
            coerce_types: self.coerce_types,
            write_path_in_schema: self.write_path_in_schema,
            content_defined_chunking: self.content_defined_chunking,
            bloom_default,
            bloom_columns,
            #[cfg(feature = "encryption")]
            file_encryption_properties: self.file_encryption_properties,
        }
    }

    /// Encrypt the file as `file_encryption_properties` say (the
    /// `encryption` feature).
    #[cfg(feature = "encryption")]
    pub fn with_file_encryption_properties(
        mut self,
        file_encryption_properties: std::sync::Arc<crate::encryption::FileEncryptionProperties>,
    ) -> Self {
        self.file_encryption_properties = Some(file_encryption_properties);
        self
    }

    /// The format version (default `PARQUET_1_0`).
    pub fn set_writer_version(mut self, value: WriterVersion) -> Self {
        self.writer_version = value;
        self
    }

    /// Best-effort maximum rows per data page (default 20,000).
    pub fn set_data_page_row_count_limit(mut self, value: usize) -> Self {
        self.default_column.data_page_row_count_limit = Some(value);
        self
    }

    /// Levels handed to the encoders at a time (default 1024; at least 1).
    pub fn set_write_batch_size(mut self, value: usize) -> Self {
        self.write_batch_size = value.max(1);
        self
    }

    /// Maximum rows per row group (`None`: unlimited; default 1 Mi rows).
    pub fn set_max_row_group_row_count(mut self, value: Option<usize>) -> Self {
        self.max_row_group_row_count = value;
        self
    }

    /// Close a row group once its estimated size reaches this many bytes
    /// (`None`, the default: only the row count limits a row group).
    pub fn set_max_row_group_bytes(mut self, value: Option<usize>) -> Self {
        self.max_row_group_bytes = value;
        self
    }

    /// The footer's `created_by`.
    ///
    /// strata's Arrow reader recognises its own files by the default
    /// (`strata version ...`): it reads a second-unit time or timestamp
    /// they store as milliseconds back in seconds. Under another
    /// `created_by` such a column reads in milliseconds, as pyarrow and
    /// arrow-rs read it.
    pub fn set_created_by(mut self, value: String) -> Self {
        self.created_by = value;
        self
    }

    /// Whether the Arrow writer stores Arrow types as native Parquet types
    /// (default `false`, [`DEFAULT_COERCE_TYPES`]), arrow-rs's setting of
    /// the same name. With `true` a file reads as dates, times and lists
    /// in readers that ignore the embedded Arrow schema: `Date64` is
    /// stored as `DATE` (INT32 days), and a list's element and a map's
    /// entries, key and value get the names the Parquet specification
    /// gives them (`element`, `key_value`, `key`, `value`).
    ///
    /// strata's Arrow writer already stores every type so, with or
    /// without this setting, and the embedded Arrow schema gives the
    /// writer's types and names back when strata, arrow-rs or pyarrow
    /// read the file:
    ///
    /// | Arrow type | stored, either way |
    /// |---|---|
    /// | `Date64` | INT32 `DATE` (days; Arrow requires whole days, a remainder is dropped) |
    /// | `Time32(Second)` | INT32 `TIME(MILLIS)`, seconds * 1000 |
    /// | `Timestamp(Second, tz)` | INT64 `TIMESTAMP(MILLIS)`, seconds * 1000 |
    /// | list / map | `list.element` / `key_value.key`, `key_value.value` |
    ///
    /// arrow-rs without coercion stores `Date64` and second units as bare
    /// INT64/INT32, which pyarrow and DuckDB read as integers; strata
    /// keeps the annotated forms, which every reader reads as dates,
    /// times and timestamps; strata's reader gives the seconds back in
    /// seconds (in files with strata's default `created_by`).
    ///
    /// ```
    /// use strata_file::properties::WriterProperties;
    ///
    /// let props = WriterProperties::builder().set_coerce_types(true).build();
    /// assert!(props.coerce_types());
    /// assert!(!WriterProperties::default().coerce_types());
    /// ```
    pub fn set_coerce_types(mut self, coerce_types: bool) -> Self {
        self.coerce_types = coerce_types;
        self
    }

    /// Whether each column chunk's metadata repeats its column's path in
    /// the schema (`path_in_schema`; on by default). Without it a wide
    /// file's footer is smaller, and strata and arrow-rs take each chunk's
    /// path from the schema, but the format still requires the field:
    /// pyarrow, DuckDB, Spark and most other readers refuse such files.
    /// Turn it off only for files that strata or arrow-rs alone will read.
    ///
    /// ```
    /// use strata_file::properties::WriterProperties;
    ///
    /// let props = WriterProperties::builder().set_write_path_in_schema(false).build();
    /// assert!(!props.write_path_in_schema());
    /// assert!(WriterProperties::default().write_path_in_schema());
    /// ```
    pub fn set_write_path_in_schema(mut self, write_path_in_schema: bool) -> Self {
        self.write_path_in_schema = write_path_in_schema;
        self
    }

    /// Cut data pages where the values' content says (`Some`), as
    /// [`CdcOptions`] describes, or by size and row count alone (`None`,
    /// the default). The Arrow writer finds the boundaries; with the
    /// option set, a column writer also counts its write batches from
    /// each page's start, checking the size and row limits only there, so
    /// they cut pages at the same places whatever calls bring the values
    /// (`ColumnChunkWriter::add_data_page` ends a page on demand). Options arrow-rs's
    /// builder panics on (`min_chunk_size` 0, `max_chunk_size` not above
    /// it) and ones whose hash mask would be empty or full are refused by
    /// the Arrow writer's constructor with an error.
    ///
    /// ```
    /// use strata_file::properties::{CdcOptions, WriterProperties};
    ///
    /// let props = WriterProperties::builder()
    ///     .set_content_defined_chunking(Some(CdcOptions::default()))
    ///     .build();
    /// assert_eq!(props.content_defined_chunking().map(|o| o.max_chunk_size), Some(1 << 20));
    /// assert!(WriterProperties::default().content_defined_chunking().is_none());
    /// ```
    pub fn set_content_defined_chunking(mut self, options: Option<CdcOptions>) -> Self {
        self.content_defined_chunking = options;
        self
    }

    /// Leave out offset indexes (ignored while page statistics are on).
    pub fn set_offset_index_disabled(mut self, value: bool) -> Self {
        self.offset_index_disabled = value;
        self
    }

    /// Key/value metadata of the footer.
    pub fn set_key_value_metadata(mut self, value: Option<Vec<KeyValue>>) -> Self {
        self.key_value_metadata = value;
        self
    }

    /// Declare every row group's rows sorted in this order (written to
    /// each row group's metadata; the writer does not sort or check).
    pub fn set_sorting_columns(mut self, value: Option<Vec<SortingColumn>>) -> Self {
        self.sorting_columns = value;
        self
    }

    /// Length bound of column index min/max values (default 64).
    pub fn set_column_index_truncate_length(mut self, max_length: Option<usize>) -> Self {
        self.column_index_truncate_length = max_length.map(|l| l.max(1));
        self
    }

    /// Length bound of chunk statistics min/max values (default 64).
    pub fn set_statistics_truncate_length(mut self, max_length: Option<usize>) -> Self {
        self.statistics_truncate_length = max_length.map(|l| l.max(1));
        self
    }

    /// Write a CRC32 of every page into its header (default off; strata
    /// extension, arrow-rs 60.1 has no such writer option).
    pub fn set_write_page_crc(mut self, value: bool) -> Self {
        self.write_page_crc = value;
        self
    }

    /// Write a distinct count in chunk statistics where it is exact
    /// (default off; strata extension).
    pub fn set_write_distinct_count(mut self, value: bool) -> Self {
        self.write_distinct_count = value;
        self
    }

    /// Default encoding of every column (see
    /// [`WriterProperties::encoding`]). A dictionary encoding here is an
    /// error when a column writer is created; use
    /// [`set_dictionary_enabled`](Self::set_dictionary_enabled).
    pub fn set_encoding(mut self, value: Encoding) -> Self {
        self.default_column.encoding = Some(value);
        self
    }

    /// Default compression of every column.
    pub fn set_compression(mut self, value: Compression) -> Self {
        self.default_column.compression = Some(value);
        self
    }

    /// Whether columns start out dictionary encoded (default on).
    ///
    /// A dictionary-encoded column chunk falls back to its fallback encoding
    /// when the dictionary reaches
    /// [`set_dictionary_page_size_limit`](Self::set_dictionary_page_size_limit),
    /// or earlier, at the end of its first data page, when nearly all of
    /// that page's values (49 in 50) were distinct and the dictionary did
    /// not make the page smaller than PLAIN would (unique keys, timestamps,
    /// measurements).
    pub fn set_dictionary_enabled(mut self, value: bool) -> Self {
        self.default_column.dictionary_enabled = Some(value);
        self
    }

    /// Best-effort dictionary page size limit (default 1 MiB).
    pub fn set_dictionary_page_size_limit(mut self, value: usize) -> Self {
        self.default_column.dictionary_page_size_limit = Some(value);
        self
    }

    /// Best-effort data page size limit (default 1 MiB).
    pub fn set_data_page_size_limit(mut self, value: usize) -> Self {
        self.default_column.data_page_size_limit = Some(value);
        self
    }

    /// Default statistics level (default `Page`).
    pub fn set_statistics_enabled(mut self, value: EnabledStatistics) -> Self {
        self.default_column.statistics_enabled = Some(value);
        self
    }

    /// Whether data page headers carry statistics (default off).
    pub fn set_write_page_header_statistics(mut self, value: bool) -> Self {
        self.default_column.write_page_header_statistics = Some(value);
        self
    }

    /// Store a data page v2's values uncompressed when compressing them
    /// does not bring them below `value` times the page's uncompressed
    /// size (levels and values): 1.0 (the default) keeps compression that
    /// makes the page smaller at all, 0.9 asks for a tenth less, above 1.0
    /// keeps compression that makes it somewhat larger. Pages v1 are
    /// always stored as the codec leaves them. A value that is not a
    /// positive finite number is ignored (arrow-rs panics).
    ///
    /// ```
    /// use strata_file::properties::WriterProperties;
    ///
    /// let props = WriterProperties::builder()
    ///     .set_data_page_v2_compression_ratio_threshold(0.9)
    ///     .set_data_page_v2_compression_ratio_threshold(f64::NAN)
    ///     .build();
    /// assert_eq!(props.data_page_v2_compression_ratio_threshold(), 0.9);
    /// ```
    pub fn set_data_page_v2_compression_ratio_threshold(mut self, value: f64) -> Self {
        if value.is_finite() && value > 0.0 {
            self.default_column.data_page_v2_compression_ratio_threshold = Some(value);
        }
        self
    }

    /// [`set_data_page_v2_compression_ratio_threshold`](Self::set_data_page_v2_compression_ratio_threshold)
    /// for one column.
    pub fn set_column_data_page_v2_compression_ratio_threshold(
        mut self,
        col: ColumnPath,
        value: f64,
    ) -> Self {
        if value.is_finite() && value > 0.0 {
            self.col(col).data_page_v2_compression_ratio_threshold = Some(value);
        }
        self
    }

    /// Whether every column gets a Bloom filter (default off).
    pub fn set_bloom_filter_enabled(mut self, value: bool) -> Self {
        self.default_column.bloom_filter_enabled = Some(value);
        self
    }

    /// Default Bloom filter false positive probability; turns Bloom
    /// filters on.
    pub fn set_bloom_filter_fpp(mut self, value: f64) -> Self {
        self.default_column.bloom_filter_fpp = Some(value);
        self.default_column.enable_bloom();
        self
    }

    /// Default Bloom filter number of distinct values; turns Bloom filters
    /// on.
    pub fn set_bloom_filter_max_ndv(mut self, value: u64) -> Self {
        self.default_column.bloom_filter_ndv = Some(value);
        self.default_column.enable_bloom();
        self
    }

    /// Alias of [`set_bloom_filter_max_ndv`](Self::set_bloom_filter_max_ndv).
    pub fn set_bloom_filter_ndv(self, value: u64) -> Self {
        self.set_bloom_filter_max_ndv(value)
    }

    fn col(&mut self, col: ColumnPath) -> &mut ColumnProperties {
        self.columns.entry(col).or_default()
    }

    /// Encoding of one column.
    pub fn set_column_encoding(mut self, col: ColumnPath, value: Encoding) -> Self {
        self.col(col).encoding = Some(value);
        self
    }

    /// Compression of one column.
    pub fn set_column_compression(mut self, col: ColumnPath, value: Compression) -> Self {
        self.col(col).compression = Some(value);
        self
    }

    /// Dictionary encoding of one column.
    pub fn set_column_dictionary_enabled(mut self, col: ColumnPath, value: bool) -> Self {
        self.col(col).dictionary_enabled = Some(value);
        self
    }

    /// Dictionary page size limit of one column.
    pub fn set_column_dictionary_page_size_limit(mut self, col: ColumnPath, value: usize) -> Self {
        self.col(col).dictionary_page_size_limit = Some(value);
        self
    }

    /// Data page size limit of one column.
    pub fn set_column_data_page_size_limit(mut self, col: ColumnPath, value: usize) -> Self {
        self.col(col).data_page_size_limit = Some(value);
        self
    }

    /// Data page row count limit of one column.
    pub fn set_column_data_page_row_count_limit(mut self, col: ColumnPath, value: usize) -> Self {
        self.col(col).data_page_row_count_limit = Some(value);
        self
    }

    /// Statistics level of one column.
    pub fn set_column_statistics_enabled(
        mut self,
        col: ColumnPath,
        value: EnabledStatistics,
    ) -> Self {
        self.col(col).statistics_enabled = Some(value);
        self
    }

    /// Page header statistics of one column.
    pub fn set_column_write_page_header_statistics(mut self, col: ColumnPath, value: bool) -> Self {
        self.col(col).write_page_header_statistics = Some(value);
        self
    }

    /// Bloom filter of one column.
    pub fn set_column_bloom_filter_enabled(mut self, col: ColumnPath, value: bool) -> Self {
        self.col(col).bloom_filter_enabled = Some(value);
        self
    }

    /// Bloom filter false positive probability of one column; turns its
    /// Bloom filter on.
    pub fn set_column_bloom_filter_fpp(mut self, col: ColumnPath, value: f64) -> Self {
        let c = self.col(col);
        c.bloom_filter_fpp = Some(value);
        c.enable_bloom();
        self
    }

    /// Bloom filter number of distinct values of one column; turns its
    /// Bloom filter on.
    pub fn set_column_bloom_filter_max_ndv(mut self, col: ColumnPath, value: u64) -> Self {
        let c = self.col(col);
        c.bloom_filter_ndv = Some(value);
        c.enable_bloom();
        self
    }

    /// Alias of
    /// [`set_column_bloom_filter_max_ndv`](Self::set_column_bloom_filter_max_ndv).
    pub fn set_column_bloom_filter_ndv(self, col: ColumnPath, value: u64) -> Self {
        self.set_column_bloom_filter_max_ndv(col, value)
    }
}

/// Reader settings (arrow-rs's `parquet::file::properties::ReaderProperties`),
/// given to a
/// [`SerializedFileReader`](crate::serialized_reader::SerializedFileReader)
/// through
/// [`ReadOptionsBuilder::with_reader_properties`](crate::serialized_reader::ReadOptionsBuilder::with_reader_properties).
///
/// Beside arrow-rs's settings it holds strata's page reader options: page
/// CRC verification (arrow-rs verifies CRCs when built with its `crc`
/// feature; strata decides per reader) and the largest page accepted.
///
/// ```
/// use strata_file::properties::ReaderProperties;
///
/// let props = ReaderProperties::builder()
///     .set_read_bloom_filter(true)
///     .set_page_crc_verification(true)
///     .build();
/// assert!(props.read_bloom_filter());
/// assert!(props.page_options().verify_crc);
/// assert!(!ReaderProperties::default().read_bloom_filter());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReaderProperties {
    page_options: crate::page_reader::PageReaderOptions,
    read_bloom_filter: bool,
    read_page_stats: bool,
    backward_compatible_lz4: bool,
}

impl ReaderProperties {
    /// A builder with the default settings: no Bloom filters read ahead,
    /// no page CRC verification.
    pub fn builder() -> ReaderPropertiesBuilder {
        ReaderPropertiesBuilder::default()
    }

    /// The options every page reader of the file is given.
    pub fn page_options(&self) -> crate::page_reader::PageReaderOptions {
        self.page_options
    }

    /// Whether a row group reader reads its columns' Bloom filters when it
    /// is made (arrow-rs's `get_column_bloom_filter` answers from them).
    pub fn read_bloom_filter(&self) -> bool {
        self.read_bloom_filter
    }

    /// What [`set_read_page_statistics`](ReaderPropertiesBuilder::set_read_page_statistics)
    /// was given. strata's pages always carry the statistics their header
    /// has; the setting is kept for arrow-rs code.
    pub fn read_page_statistics(&self) -> bool {
        self.read_page_stats
    }

    /// What [`set_backward_compatible_lz4`](ReaderPropertiesBuilder::set_backward_compatible_lz4)
    /// was given. strata reads every framing of the deprecated `LZ4` codec
    /// whatever it says.
    pub fn backward_compatible_lz4(&self) -> bool {
        self.backward_compatible_lz4
    }
}

/// Builds [`ReaderProperties`], with arrow-rs's setter names.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReaderPropertiesBuilder {
    props: ReaderProperties,
}

impl ReaderPropertiesBuilder {
    /// The settings.
    pub fn build(self) -> ReaderProperties {
        self.props
    }

    /// arrow-rs's switch for the framings of the deprecated `LZ4` codec.
    /// strata tries the Hadoop framing, the LZ4 frame format and a bare
    /// block whatever it is set to; the value is kept
    /// ([`ReaderProperties::backward_compatible_lz4`]).
    pub fn set_backward_compatible_lz4(mut self, value: bool) -> Self {
        self.props.backward_compatible_lz4 = value;
        self
    }

    /// Read every column's Bloom filter when a row group reader is made
    /// (off by default, as in arrow-rs).
    pub fn set_read_bloom_filter(mut self, value: bool) -> Self {
        self.props.read_bloom_filter = value;
        self
    }

    /// arrow-rs's switch for decoding page header statistics; strata's
    /// pages carry them either way.
    pub fn set_read_page_statistics(mut self, value: bool) -> Self {
        self.props.read_page_stats = value;
        self
    }

    /// Verify the CRC32 of pages whose header carries one (off by
    /// default): a mismatch fails the read with
    /// [`FileError::CrcMismatch`](crate::FileError::CrcMismatch). A strata
    /// setting.
    pub fn set_page_crc_verification(mut self, verify: bool) -> Self {
        self.props.page_options.verify_crc = verify;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coerce_types_is_kept_through_the_builder() {
        assert_eq!(
            WriterProperties::default().coerce_types(),
            DEFAULT_COERCE_TYPES
        );
        let props = WriterProperties::builder().set_coerce_types(true).build();
        assert!(props.coerce_types());
        assert!(props.clone().into_builder().build().coerce_types());
        assert_ne!(props, WriterProperties::default());
        let off = props.into_builder().set_coerce_types(false).build();
        assert_eq!(off, WriterProperties::default());
    }
}
