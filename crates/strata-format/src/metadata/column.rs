//! Column chunk metadata: [`ColumnChunk`], [`ColumnMetaData`] and
//! [`PageEncodingStats`] (kept in a [`PageEncodingStatsList`](super::PageEncodingStatsList)).

use super::{
    ColumnCryptoMetaData, Compression, CompressionCodec, Encoding, EncodingSet,
    GeospatialStatistics, KeyValue, LevelHistogram, PageEncodingStatsList, PageType,
    SizeStatistics, Statistics, Type, TypedStatistics, required,
};
use crate::ColumnPath;
use crate::error::{FormatError, Result};
use crate::schema::{ColumnDescPtr, ColumnDescriptor};
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Number of pages of one type and encoding in a column chunk
/// (`PageEncodingStats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PageEncodingStats {
    /// Page type, field 1.
    pub page_type: PageType,
    /// Encoding of the pages, field 2.
    pub encoding: Encoding,
    /// Number of such pages, field 3.
    pub count: i32,
}

impl ReadThrift for PageEncodingStats {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "PageEncodingStats";
        let saved = r.begin_struct()?;
        let (mut page_type, mut encoding, mut count) = (None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut page_type)?,
                2 => r.read_into(f, &mut encoding)?,
                3 => r.read_into(f, &mut count)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            page_type: required(page_type, NAME, "page_type")?,
            encoding: required(encoding, NAME, "encoding")?,
            count: required(count, NAME, "count")?,
        })
    }
}

impl WriteThrift for PageEncodingStats {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.page_type);
        w.field(2, &self.encoding);
        w.i32_field(3, self.count);
        w.end_struct(saved);
    }
}

/// Metadata of one column chunk (`ColumnMetaData`).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnMetaData {
    /// Physical type, field 1.
    pub physical_type: Type,
    /// All encodings used in the chunk, field 2 (a set: the order and
    /// repetition of the list on the wire are not kept).
    pub encodings: EncodingSet,
    /// Path of the leaf in the schema, field 3.
    ///
    /// Shared: the chunks of one column in every row group usually hold the
    /// same `Arc`.
    pub path_in_schema: ColumnPath,
    /// Compression codec, field 4.
    pub codec: CompressionCodec,
    /// Number of values, including nulls, field 5.
    pub num_values: i64,
    /// Uncompressed size of all pages including headers, field 6.
    pub total_uncompressed_size: i64,
    /// Compressed size of all pages including headers, field 7.
    pub total_compressed_size: i64,
    /// File offset of the first data page, field 9.
    pub data_page_offset: i64,
    /// File offset of the dictionary page, field 11.
    pub dictionary_page_offset: Option<i64>,
    /// Chunk statistics, field 12.
    pub statistics: Option<Statistics>,
    /// Page counts per type and encoding, field 13.
    pub encoding_stats: Option<PageEncodingStatsList>,
    /// Size statistics, field 16.
    pub size_statistics: Option<SizeStatistics>,
    /// The fields most chunks leave out (8, 10, 14, 15 and 17), in one box:
    /// `None` when all of them are absent. Read them through the accessors
    /// ([`bloom_filter_offset`](Self::bloom_filter_offset), ...).
    pub extras: Option<Box<ColumnMetaDataExtras>>,
}

/// The fields of a [`ColumnMetaData`] that most chunks leave out.
///
/// A footer holds one `ColumnMetaData` per column per row group, so its
/// size is most of a decoded footer's memory. These fields are absent from
/// most chunks; keeping them behind one pointer makes every chunk 56 bytes
/// smaller and costs one allocation only in a chunk that has one of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnMetaDataExtras {
    /// Key/value metadata of the chunk, field 8.
    pub key_value_metadata: Option<Box<[KeyValue]>>,
    /// File offset of the index page, field 10.
    pub index_page_offset: Option<i64>,
    /// File offset of the Bloom filter, field 14.
    pub bloom_filter_offset: Option<i64>,
    /// Size of the Bloom filter including its header, field 15.
    pub bloom_filter_length: Option<i32>,
    /// Geospatial statistics, field 17.
    pub geospatial_statistics: Option<GeospatialStatistics>,
}

impl ColumnMetaData {
    /// Key/value metadata of the chunk, field 8.
    #[inline]
    pub fn key_value_metadata(&self) -> Option<&[KeyValue]> {
        self.extras.as_ref()?.key_value_metadata.as_deref()
    }

    /// File offset of the index page, field 10.
    #[inline]
    pub fn index_page_offset(&self) -> Option<i64> {
        self.extras.as_ref()?.index_page_offset
    }

    /// File offset of the Bloom filter, field 14.
    #[inline]
    pub fn bloom_filter_offset(&self) -> Option<i64> {
        self.extras.as_ref()?.bloom_filter_offset
    }

    /// Size of the Bloom filter including its header, field 15.
    #[inline]
    pub fn bloom_filter_length(&self) -> Option<i32> {
        self.extras.as_ref()?.bloom_filter_length
    }

    /// Geospatial statistics, field 17.
    #[inline]
    pub fn geospatial_statistics(&self) -> Option<&GeospatialStatistics> {
        self.extras.as_ref()?.geospatial_statistics.as_ref()
    }

    /// The rarely present fields, allocated on first use.
    ///
    /// ```
    /// use strata_format::metadata::{ColumnMetaData, CompressionCodec, EncodingSet, Type};
    ///
    /// let mut meta = ColumnMetaData {
    ///     physical_type: Type::Int64,
    ///     encodings: EncodingSet::new(),
    ///     path_in_schema: vec!["id".to_string()].into(),
    ///     codec: CompressionCodec::Uncompressed,
    ///     num_values: 0,
    ///     total_uncompressed_size: 0,
    ///     total_compressed_size: 0,
    ///     data_page_offset: 4,
    ///     dictionary_page_offset: None,
    ///     statistics: None,
    ///     encoding_stats: None,
    ///     size_statistics: None,
    ///     extras: None,
    /// };
    /// assert_eq!(meta.bloom_filter_offset(), None);
    /// meta.extras_mut().bloom_filter_offset = Some(4096);
    /// assert_eq!(meta.bloom_filter_offset(), Some(4096));
    /// assert_eq!(meta.bloom_filter_length(), None);
    /// ```
    #[inline]
    pub fn extras_mut(&mut self) -> &mut ColumnMetaDataExtras {
        self.extras.get_or_insert_default()
    }
}

impl ColumnMetaData {
    /// A value to decode into: required fields hold neutral values until the
    /// decoder overwrites them. A constant: each chunk starts from a copy
    /// of it.
    const DECODE_TARGET: Self = Self {
        physical_type: Type::Boolean,
        encodings: EncodingSet::new(),
        path_in_schema: ColumnPath::EMPTY,
        codec: CompressionCodec::Uncompressed,
        num_values: 0,
        total_uncompressed_size: 0,
        total_compressed_size: 0,
        data_page_offset: 0,
        dictionary_page_offset: None,
        statistics: None,
        encoding_stats: None,
        size_statistics: None,
        extras: None,
    };

    /// Decode a `ColumnMetaData` struct into `self`, field by field.
    ///
    /// Column metadata is the bulk of a footer (one per column per row
    /// group) and this struct is large, so it is decoded where it will live
    /// rather than assembled on the stack and moved through `Result`s.
    pub(crate) fn read_in_place(&mut self, r: &mut CompactReader<'_>) -> Result<()> {
        const NAME: &str = "ColumnMetaData";
        const TYPE: u32 = 1;
        const ENCODINGS: u32 = 1 << 1;
        const PATH: u32 = 1 << 2;
        const CODEC: u32 = 1 << 3;
        const NUM_VALUES: u32 = 1 << 4;
        const UNCOMPRESSED: u32 = 1 << 5;
        const COMPRESSED: u32 = 1 << 6;
        const DATA_PAGE: u32 = 1 << 7;
        let mut seen = 0u32;
        let skipped = r.skipped_details();
        let saved = r.begin_struct()?;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => {
                    if r.read_field(f, &mut self.physical_type)? {
                        seen |= TYPE;
                    }
                }
                2 => {
                    if r.read_field(f, &mut self.encodings)? {
                        seen |= ENCODINGS;
                    }
                }
                3 if f.ty.same_kind(FieldType::List) => {
                    self.path_in_schema = r.read_path_in_schema()?.into();
                    seen |= PATH;
                }
                4 => {
                    if r.read_field(f, &mut self.codec)? {
                        seen |= CODEC;
                    }
                }
                5 => {
                    if r.read_field(f, &mut self.num_values)? {
                        seen |= NUM_VALUES;
                    }
                }
                6 => {
                    if r.read_field(f, &mut self.total_uncompressed_size)? {
                        seen |= UNCOMPRESSED;
                    }
                }
                7 => {
                    if r.read_field(f, &mut self.total_compressed_size)? {
                        seen |= COMPRESSED;
                    }
                }
                8 if f.ty.same_kind(FieldType::List) => {
                    r.read_into(f, &mut self.extras_mut().key_value_metadata)?;
                }
                9 => {
                    if r.read_field(f, &mut self.data_page_offset)? {
                        seen |= DATA_PAGE;
                    }
                }
                10 if f.ty.same_kind(FieldType::I64) => {
                    r.read_into(f, &mut self.extras_mut().index_page_offset)?;
                }
                11 => r.read_into(f, &mut self.dictionary_page_offset)?,
                12 if skipped.column_stats => r.skip(f.ty)?,
                13 if skipped.encoding_stats => r.skip(f.ty)?,
                16 if skipped.size_stats => r.skip(f.ty)?,
                12 if f.ty.same_kind(FieldType::Struct) => {
                    self.statistics
                        .insert(Statistics::default())
                        .read_in_place(r)?;
                }
                13 => r.read_into(f, &mut self.encoding_stats)?,
                14 if f.ty.same_kind(FieldType::I64) => {
                    r.read_into(f, &mut self.extras_mut().bloom_filter_offset)?;
                }
                15 if f.ty.same_kind(FieldType::I32) => {
                    r.read_into(f, &mut self.extras_mut().bloom_filter_length)?;
                }
                16 => r.read_into(f, &mut self.size_statistics)?,
                17 if f.ty.same_kind(FieldType::Struct) => {
                    r.read_into(f, &mut self.extras_mut().geospatial_statistics)?;
                }
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        // `path_in_schema` may be left out (arrow-rs's
        // `set_write_path_in_schema(false)`): the chunk's path is then the
        // schema's, filled in where the footer meets its schema.
        const REQUIRED: u32 = ((1 << 8) - 1) & !PATH;
        if seen & REQUIRED == REQUIRED {
            return Ok(());
        }
        for (bit, field) in [
            (TYPE, "type"),
            (ENCODINGS, "encodings"),
            (CODEC, "codec"),
            (NUM_VALUES, "num_values"),
            (UNCOMPRESSED, "total_uncompressed_size"),
            (COMPRESSED, "total_compressed_size"),
            (DATA_PAGE, "data_page_offset"),
        ] {
            if seen & bit == 0 {
                return Err(FormatError::MissingField {
                    struct_name: NAME,
                    field,
                });
            }
        }
        Ok(())
    }
}

impl ReadThrift for ColumnMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let mut m = Self::DECODE_TARGET;
        m.read_in_place(r)?;
        Ok(m)
    }
}

impl WriteThrift for ColumnMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.physical_type);
        w.field(2, &self.encodings);
        // An empty path (never a column's) stands for a path left out.
        if !self.path_in_schema.is_empty() {
            w.field(3, &self.path_in_schema[..]);
        }
        w.field(4, &self.codec);
        w.i64_field(5, self.num_values);
        w.i64_field(6, self.total_uncompressed_size);
        w.i64_field(7, self.total_compressed_size);
        if let Some(v) = self.key_value_metadata() {
            w.field(8, v);
        }
        w.i64_field(9, self.data_page_offset);
        if let Some(v) = self.index_page_offset() {
            w.i64_field(10, v);
        }
        if let Some(v) = self.dictionary_page_offset {
            w.i64_field(11, v);
        }
        if let Some(v) = &self.statistics {
            w.field(12, v);
        }
        if let Some(v) = &self.encoding_stats {
            w.field(13, v);
        }
        if let Some(v) = self.bloom_filter_offset() {
            w.i64_field(14, v);
        }
        if let Some(v) = self.bloom_filter_length() {
            w.i32_field(15, v);
        }
        if let Some(v) = &self.size_statistics {
            w.field(16, v);
        }
        if let Some(v) = self.geospatial_statistics() {
            w.field(17, v);
        }
        w.end_struct(saved);
    }
}

/// One column chunk of a row group (`ColumnChunk`). Chunks compare equal
/// when their wire fields are: whether one is paired with its schema
/// ([`column_descr`](Self::column_descr)) does not count.
#[derive(Debug, Clone, Default)]
pub struct ColumnChunk {
    /// Deprecated offset of the metadata copy, field 2 (0 when absent).
    pub file_offset: i64,
    /// The chunk's metadata, field 3. Absent only in encrypted columns
    /// whose metadata is in `encrypted_column_metadata`.
    pub meta_data: Option<ColumnMetaData>,
    /// File offset of the offset index, field 4.
    pub offset_index_offset: Option<i64>,
    /// Length of the offset index, field 5.
    pub offset_index_length: Option<i32>,
    /// File offset of the column index, field 6.
    pub column_index_offset: Option<i64>,
    /// Length of the column index, field 7.
    pub column_index_length: Option<i32>,
    /// The fields only summary files and encrypted files carry (1, 8 and
    /// 9), in one box: `None` when all of them are absent. Read them
    /// through the accessors ([`file_path`](Self::file_path), ...).
    pub extras: Option<Box<ColumnChunkExtras>>,
    /// The leaf column the chunk holds, shared with the schema. Not part
    /// of the wire form: the file layer sets it when it pairs a decoded
    /// footer with its schema (every chunk of a file's `ParquetMetaData`
    /// has it); a chunk decoded or built on its own has `None`.
    pub column_descr: Option<ColumnDescPtr>,
}

impl PartialEq for ColumnChunk {
    fn eq(&self, other: &Self) -> bool {
        self.file_offset == other.file_offset
            && self.meta_data == other.meta_data
            && self.offset_index_offset == other.offset_index_offset
            && self.offset_index_length == other.offset_index_length
            && self.column_index_offset == other.column_index_offset
            && self.column_index_length == other.column_index_length
            && self.extras == other.extras
    }
}

/// The fields of a [`ColumnChunk`] that only summary files and encrypted
/// files carry, kept out of line so that every other chunk is 32 bytes
/// smaller.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnChunkExtras {
    /// File holding the data if not this one, field 1 (summary files only).
    pub file_path: Option<Box<str>>,
    /// Encryption metadata of an encrypted column, field 8.
    pub crypto_metadata: Option<ColumnCryptoMetaData>,
    /// Encrypted `ColumnMetaData`, field 9.
    pub encrypted_column_metadata: Option<Box<[u8]>>,
}

/// arrow-rs's accessors (`parquet::file::metadata::ColumnChunkMetaData`),
/// reading the chunk's metadata: code written for arrow-rs reads a chunk
/// unchanged. A chunk without metadata (an encrypted column's, read
/// without its key) reads as empty: counts and sizes 0, no encodings.
///
/// ```
/// use strata_format::metadata::{ColumnChunk, ColumnMetaData, CompressionCodec, Encoding, Type};
///
/// let chunk = ColumnChunk {
///     meta_data: Some(ColumnMetaData {
///         physical_type: Type::INT64,
///         encodings: [Encoding::PLAIN, Encoding::RLE_DICTIONARY].into(),
///         path_in_schema: vec!["id".to_string()].into(),
///         codec: CompressionCodec::Uncompressed,
///         num_values: 10,
///         total_uncompressed_size: 200,
///         total_compressed_size: 120,
///         data_page_offset: 104,
///         dictionary_page_offset: Some(4),
///         statistics: None,
///         encoding_stats: None,
///         size_statistics: None,
///         extras: None,
///     }),
///     ..Default::default()
/// };
/// assert_eq!((chunk.num_values(), chunk.compressed_size()), (10, 120));
/// assert_eq!(chunk.byte_range(), (4, 120));
/// assert_eq!(chunk.encodings().count(), 2);
/// assert_eq!(chunk.column_path().string(), "id");
/// assert_eq!(ColumnChunk::default().num_values(), 0);
/// assert!(ColumnChunk::default().column_path().is_empty());
/// ```
/// The path of a chunk without metadata.
static NO_PATH: ColumnPath = ColumnPath::EMPTY;

impl ColumnChunk {
    /// The leaf column the chunk holds.
    ///
    /// # Panics
    ///
    /// When the chunk is not paired with a schema
    /// ([`column_descr`](Self::column_descr) field `None`): chunks of a
    /// file's metadata always are; a chunk decoded or built on its own is
    /// not.
    #[allow(clippy::panic)]
    pub fn column_descr(&self) -> &ColumnDescriptor {
        match &self.column_descr {
            Some(descr) => descr,
            None => panic!("column chunk not paired with a schema"),
        }
    }

    /// The leaf column the chunk holds, shared (panics as
    /// [`column_descr`](Self::column_descr) does).
    #[allow(clippy::panic)]
    pub fn column_descr_ptr(&self) -> ColumnDescPtr {
        match &self.column_descr {
            Some(descr) => std::sync::Arc::clone(descr),
            None => panic!("column chunk not paired with a schema"),
        }
    }

    /// The column's path in the schema (empty for a chunk without
    /// metadata).
    pub fn column_path(&self) -> &ColumnPath {
        self.meta_data
            .as_ref()
            .map_or(&NO_PATH, |m| &m.path_in_schema)
    }

    /// The chunk's statistics, typed by its physical type (arrow-rs's
    /// `statistics()`, made from the footer's on each call); `None`
    /// without statistics, without metadata, or when a bound does not
    /// decode as a value of the type.
    pub fn statistics(&self) -> Option<TypedStatistics> {
        let meta = self.meta_data.as_ref()?;
        TypedStatistics::from_thrift(meta.physical_type, meta.statistics.as_ref()?)
    }

    /// The chunk's geospatial statistics (`GEOMETRY` and `GEOGRAPHY`
    /// columns), where written (arrow-rs's `geo_statistics()`).
    pub fn geo_statistics(&self) -> Option<&GeospatialStatistics> {
        self.meta_data.as_ref()?.geospatial_statistics()
    }

    /// How many pages of each type and encoding the chunk holds, where
    /// the writer counted them (arrow-rs's `page_encoding_stats()`,
    /// returned by value: the footer's form is packed).
    pub fn page_encoding_stats(&self) -> Option<Vec<PageEncodingStats>> {
        let stats = self.meta_data.as_ref()?.encoding_stats.as_ref()?;
        Some(stats.iter().collect())
    }

    /// The column's physical type (`BOOLEAN` for a chunk without
    /// metadata).
    pub fn column_type(&self) -> Type {
        self.meta_data
            .as_ref()
            .map_or(Type::Boolean, |m| m.physical_type)
    }

    /// The codec the metadata records (`UNCOMPRESSED` for a chunk without
    /// metadata).
    pub fn compression_codec(&self) -> CompressionCodec {
        self.meta_data
            .as_ref()
            .map_or(CompressionCodec::Uncompressed, |m| m.codec)
    }

    /// The chunk's compression as arrow-rs's `Compression`, at the codec's
    /// default level (the level is not recorded in a file). A codec id this
    /// version does not know has no `Compression`: it answers
    /// `UNCOMPRESSED` here, and reading the chunk's pages fails naming it
    /// ([`compression_codec`](Self::compression_codec) has the id).
    pub fn compression(&self) -> Compression {
        Compression::from_codec(self.compression_codec()).unwrap_or_default()
    }

    /// Values in the chunk, nulls included.
    pub fn num_values(&self) -> i64 {
        self.meta_data.as_ref().map_or(0, |m| m.num_values)
    }

    /// Bytes of the chunk as stored (page headers included).
    pub fn compressed_size(&self) -> i64 {
        self.meta_data
            .as_ref()
            .map_or(0, |m| m.total_compressed_size)
    }

    /// Bytes of the chunk uncompressed (page headers included).
    pub fn uncompressed_size(&self) -> i64 {
        self.meta_data
            .as_ref()
            .map_or(0, |m| m.total_uncompressed_size)
    }

    /// Offset of the first data page.
    pub fn data_page_offset(&self) -> i64 {
        self.meta_data.as_ref().map_or(0, |m| m.data_page_offset)
    }

    /// Offset of the dictionary page.
    pub fn dictionary_page_offset(&self) -> Option<i64> {
        self.meta_data.as_ref()?.dictionary_page_offset
    }

    /// Offset of the (unused) index page.
    pub fn index_page_offset(&self) -> Option<i64> {
        self.meta_data.as_ref()?.index_page_offset()
    }

    /// Offset of the Bloom filter.
    pub fn bloom_filter_offset(&self) -> Option<i64> {
        self.meta_data.as_ref()?.bloom_filter_offset()
    }

    /// Length of the Bloom filter.
    pub fn bloom_filter_length(&self) -> Option<i32> {
        self.meta_data.as_ref()?.bloom_filter_length()
    }

    /// Bytes of `BYTE_ARRAY` data without length prefixes, from the size
    /// statistics.
    pub fn unencoded_byte_array_data_bytes(&self) -> Option<i64> {
        self.meta_data
            .as_ref()?
            .size_statistics
            .as_ref()?
            .unencoded_byte_array_data_bytes
    }

    /// How many of the chunk's levels are at each repetition level, from
    /// the size statistics.
    pub fn repetition_level_histogram(&self) -> Option<&LevelHistogram> {
        self.meta_data
            .as_ref()?
            .size_statistics
            .as_ref()?
            .repetition_level_histogram
            .as_ref()
    }

    /// How many of the chunk's levels are at each definition level, from
    /// the size statistics.
    pub fn definition_level_histogram(&self) -> Option<&LevelHistogram> {
        self.meta_data
            .as_ref()?
            .size_statistics
            .as_ref()?
            .definition_level_histogram
            .as_ref()
    }

    /// Offset of the column index.
    pub fn column_index_offset(&self) -> Option<i64> {
        self.column_index_offset
    }

    /// Length of the column index.
    pub fn column_index_length(&self) -> Option<i32> {
        self.column_index_length
    }

    /// Offset of the offset index.
    pub fn offset_index_offset(&self) -> Option<i64> {
        self.offset_index_offset
    }

    /// Length of the offset index.
    pub fn offset_index_length(&self) -> Option<i32> {
        self.offset_index_length
    }

    /// The chunk's encodings.
    pub fn encodings(&self) -> impl Iterator<Item = Encoding> + '_ {
        self.meta_data.iter().flat_map(|m| m.encodings.iter())
    }

    /// Where the chunk starts (its dictionary page, else its first data
    /// page) and its stored length, as arrow-rs gives them; negative
    /// values (malformed metadata) read as 0.
    pub fn byte_range(&self) -> (u64, u64) {
        let start = self
            .dictionary_page_offset()
            .unwrap_or_else(|| self.data_page_offset());
        (
            u64::try_from(start).unwrap_or(0),
            u64::try_from(self.compressed_size()).unwrap_or(0),
        )
    }

    /// File holding the data if not this one, field 1 (summary files only).
    #[inline]
    pub fn file_path(&self) -> Option<&str> {
        self.extras.as_ref()?.file_path.as_deref()
    }

    /// Encryption metadata of an encrypted column, field 8.
    #[inline]
    pub fn crypto_metadata(&self) -> Option<&ColumnCryptoMetaData> {
        self.extras.as_ref()?.crypto_metadata.as_ref()
    }

    /// Encrypted `ColumnMetaData`, field 9.
    #[inline]
    pub fn encrypted_column_metadata(&self) -> Option<&[u8]> {
        self.extras.as_ref()?.encrypted_column_metadata.as_deref()
    }

    /// The rarely present fields, allocated on first use.
    ///
    /// ```
    /// use strata_format::metadata::ColumnChunk;
    ///
    /// let mut chunk = ColumnChunk::default();
    /// assert_eq!(chunk.file_path(), None);
    /// chunk.extras_mut().file_path = Some("part-0.parquet".into());
    /// assert_eq!(chunk.file_path(), Some("part-0.parquet"));
    /// ```
    #[inline]
    pub fn extras_mut(&mut self) -> &mut ColumnChunkExtras {
        self.extras.get_or_insert_default()
    }

    /// Decode a `ColumnChunk` struct into `self` (which must be default),
    /// with its metadata decoded in place too.
    pub(crate) fn read_in_place(&mut self, r: &mut CompactReader<'_>) -> Result<()> {
        let saved = r.begin_struct()?;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 if f.ty.same_kind(FieldType::Binary) => {
                    r.read_into(f, &mut self.extras_mut().file_path)?;
                }
                // Required, with a default of 0 in the specification.
                2 => {
                    r.read_field(f, &mut self.file_offset)?;
                }
                3 if f.ty.same_kind(FieldType::Struct) => {
                    self.meta_data
                        .insert(ColumnMetaData::DECODE_TARGET)
                        .read_in_place(r)?;
                }
                4 => r.read_into(f, &mut self.offset_index_offset)?,
                5 => r.read_into(f, &mut self.offset_index_length)?,
                6 => r.read_into(f, &mut self.column_index_offset)?,
                7 => r.read_into(f, &mut self.column_index_length)?,
                8 if f.ty.same_kind(FieldType::Struct) => {
                    r.read_into(f, &mut self.extras_mut().crypto_metadata)?;
                }
                9 if f.ty.same_kind(FieldType::Binary) => {
                    r.read_into(f, &mut self.extras_mut().encrypted_column_metadata)?;
                }
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(())
    }
}

impl ReadThrift for ColumnChunk {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let mut c = Self::default();
        c.read_in_place(r)?;
        Ok(c)
    }
}

impl WriteThrift for ColumnChunk {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        if let Some(v) = self.file_path() {
            w.binary_field(1, v.as_bytes());
        }
        w.i64_field(2, self.file_offset);
        if let Some(v) = &self.meta_data {
            w.field(3, v);
        }
        if let Some(v) = self.offset_index_offset {
            w.i64_field(4, v);
        }
        if let Some(v) = self.offset_index_length {
            w.i32_field(5, v);
        }
        if let Some(v) = self.column_index_offset {
            w.i64_field(6, v);
        }
        if let Some(v) = self.column_index_length {
            w.i32_field(7, v);
        }
        if let Some(v) = self.crypto_metadata() {
            w.field(8, v);
        }
        if let Some(v) = self.encrypted_column_metadata() {
            w.binary_field(9, v);
        }
        w.end_struct(saved);
    }
}

/// The metadata of a chunk of `physical` values at `path` that holds no
/// values yet.
fn empty_metadata(physical_type: Type, path_in_schema: ColumnPath) -> ColumnMetaData {
    ColumnMetaData {
        physical_type,
        path_in_schema,
        ..ColumnMetaData::DECODE_TARGET
    }
}

/// Builds a [`ColumnChunk`] of a leaf, as arrow-rs's
/// `ColumnChunkMetaData::builder` does (see [`RowGroup::builder`] for an
/// example). The chunk's metadata starts with the leaf's physical type
/// and path, no values and no encodings.
///
/// [`RowGroup::builder`]: super::RowGroup::builder
#[derive(Debug, Clone)]
pub struct ColumnChunkBuilder(ColumnChunk);

impl ColumnChunk {
    /// A builder of a chunk of the leaf `column_descr`.
    pub fn builder(column_descr: ColumnDescPtr) -> ColumnChunkBuilder {
        let meta = empty_metadata(column_descr.physical_type, column_descr.path.clone());
        ColumnChunkBuilder(ColumnChunk {
            meta_data: Some(meta),
            column_descr: Some(column_descr),
            ..Default::default()
        })
    }
}

impl ColumnChunkBuilder {
    fn meta(&mut self) -> &mut ColumnMetaData {
        // The builder always holds metadata (see `ColumnChunk::builder`).
        self.0
            .meta_data
            .get_or_insert_with(|| empty_metadata(Type::Boolean, ColumnPath::default()))
    }

    fn meta_extras(&mut self) -> &mut ColumnMetaDataExtras {
        self.meta().extras.get_or_insert_with(Default::default)
    }

    /// The encodings used.
    pub fn set_encodings(mut self, encodings: Vec<Encoding>) -> Self {
        self.meta().encodings = encodings.into_iter().collect();
        self
    }

    /// The file holding the data, if not this one.
    pub fn set_file_path(mut self, value: String) -> Self {
        self.0.extras.get_or_insert_with(Default::default).file_path = Some(value.into());
        self
    }

    /// The values, nulls included.
    pub fn set_num_values(mut self, value: i64) -> Self {
        self.meta().num_values = value;
        self
    }

    /// The codec, from arrow-rs's `Compression` (the level is not stored).
    pub fn set_compression(mut self, value: Compression) -> Self {
        self.meta().codec = value.codec();
        self
    }

    /// The stored bytes, page headers included.
    pub fn set_total_compressed_size(mut self, value: i64) -> Self {
        self.meta().total_compressed_size = value;
        self
    }

    /// The uncompressed bytes, page headers included.
    pub fn set_total_uncompressed_size(mut self, value: i64) -> Self {
        self.meta().total_uncompressed_size = value;
        self
    }

    /// The offset of the first data page.
    pub fn set_data_page_offset(mut self, value: i64) -> Self {
        self.meta().data_page_offset = value;
        self
    }

    /// The offset of the dictionary page.
    pub fn set_dictionary_page_offset(mut self, value: Option<i64>) -> Self {
        self.meta().dictionary_page_offset = value;
        self
    }

    /// The offset of the (unused) index page.
    pub fn set_index_page_offset(mut self, value: Option<i64>) -> Self {
        self.meta_extras().index_page_offset = value;
        self
    }

    /// The chunk's statistics.
    pub fn set_statistics(mut self, value: TypedStatistics) -> Self {
        self.meta().statistics = Some(value.to_thrift());
        self
    }

    /// Drop the chunk's statistics.
    pub fn clear_statistics(mut self) -> Self {
        self.meta().statistics = None;
        self
    }

    /// The chunk's page counts by type and encoding.
    pub fn set_page_encoding_stats(mut self, value: Vec<PageEncodingStats>) -> Self {
        self.meta().encoding_stats = Some(value.into());
        self
    }

    /// Drop the chunk's page encoding counts.
    pub fn clear_page_encoding_stats(mut self) -> Self {
        self.meta().encoding_stats = None;
        self
    }

    /// The chunk's geospatial statistics (boxed, as arrow-rs takes them).
    #[allow(clippy::boxed_local)]
    pub fn set_geo_statistics(mut self, value: Box<GeospatialStatistics>) -> Self {
        self.meta().extras_mut().geospatial_statistics = Some(*value);
        self
    }

    /// The offset of the Bloom filter.
    pub fn set_bloom_filter_offset(mut self, value: Option<i64>) -> Self {
        self.meta_extras().bloom_filter_offset = value;
        self
    }

    /// The length of the Bloom filter, header included.
    pub fn set_bloom_filter_length(mut self, value: Option<i32>) -> Self {
        self.meta_extras().bloom_filter_length = value;
        self
    }

    /// The offset of the offset index.
    pub fn set_offset_index_offset(mut self, value: Option<i64>) -> Self {
        self.0.offset_index_offset = value;
        self
    }

    /// The length of the offset index.
    pub fn set_offset_index_length(mut self, value: Option<i32>) -> Self {
        self.0.offset_index_length = value;
        self
    }

    /// The offset of the column index.
    pub fn set_column_index_offset(mut self, value: Option<i64>) -> Self {
        self.0.column_index_offset = value;
        self
    }

    /// The length of the column index.
    pub fn set_column_index_length(mut self, value: Option<i32>) -> Self {
        self.0.column_index_length = value;
        self
    }

    /// The bytes of `BYTE_ARRAY` data without length prefixes.
    pub fn set_unencoded_byte_array_data_bytes(self, value: Option<i64>) -> Self {
        self.set_size_statistic(|s| s.unencoded_byte_array_data_bytes = value)
    }

    /// The count of each repetition level.
    pub fn set_repetition_level_histogram(self, value: Option<LevelHistogram>) -> Self {
        self.set_size_statistic(|s| s.repetition_level_histogram = value)
    }

    /// The count of each definition level.
    pub fn set_definition_level_histogram(self, value: Option<LevelHistogram>) -> Self {
        self.set_size_statistic(|s| s.definition_level_histogram = value)
    }

    /// Set one of the size statistics; none left set leaves none in the
    /// footer (as arrow-rs writes it).
    fn set_size_statistic(mut self, set: impl FnOnce(&mut SizeStatistics)) -> Self {
        let meta = self.meta();
        let mut stats = meta.size_statistics.take().unwrap_or_default();
        set(&mut stats);
        if stats != SizeStatistics::default() {
            meta.size_statistics = Some(stats);
        }
        self
    }

    /// The chunk.
    pub fn build(self) -> crate::error::Result<ColumnChunk> {
        Ok(self.0)
    }
}
