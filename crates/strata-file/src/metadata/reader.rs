//! Reading a file's metadata: [`ParquetMetaDataReader`] (arrow-rs's name
//! and calls) reads the footer through a [`ChunkReader`], decodes it as
//! [`ParquetMetaDataOptions`] say, builds the schema, and loads the page
//! index as its policies say.
//!
//! Every length and offset read here comes from the file: the footer
//! length is checked against the file before it sizes a read, and each
//! page index range against the file before it is read.

use std::ops::Range;
use std::sync::Arc;

use strata_format::SchemaDescriptor;
use strata_format::footer::{ENCRYPTED_MAGIC, FOOTER_TAIL_LEN, PARQUET_MAGIC};
use strata_format::metadata::{
    ColumnChunk, ColumnIndex, FileMetaData as Footer, ParquetMetaDataOptions,
};
use strata_format::thrift::{self, ReadThrift};

#[cfg(feature = "encryption")]
use crate::encryption::{self, DecryptionKeys, FileDecryptor};

use super::page_index::{ColumnIndexMetaData, OffsetIndexMetaData, PageIndex};
use super::{ColumnChunkMask, PageIndexPolicy, ParquetMetaData};
use crate::chunk_reader::{ChunkReader, check_range};
use crate::error::{FileError, Result};

/// The last eight bytes of a Parquet file: the metadata length and the
/// magic, which says whether the footer is encrypted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FooterTail {
    metadata_length: usize,
    encrypted_footer: bool,
}

impl FooterTail {
    /// Decode the tail: `PAR1` (plain footer) or `PARE` (encrypted
    /// footer); any other magic is an error.
    ///
    /// ```
    /// use strata_file::metadata::FooterTail;
    ///
    /// let tail = FooterTail::try_new(&[10, 0, 0, 0, b'P', b'A', b'R', b'1']).unwrap();
    /// assert_eq!(tail.metadata_length(), 10);
    /// assert!(!tail.is_encrypted_footer());
    /// assert!(FooterTail::try_new(&[0, 0, 0, 0, b'P', b'A', b'R', b'2']).is_err());
    /// ```
    pub fn try_new(tail: &[u8; FOOTER_TAIL_LEN]) -> Result<Self> {
        let [l0, l1, l2, l3, m0, m1, m2, m3] = *tail;
        let magic = [m0, m1, m2, m3];
        let encrypted_footer = magic == ENCRYPTED_MAGIC;
        if !encrypted_footer && magic != PARQUET_MAGIC {
            return Err(strata_format::FormatError::BadMagic { found: magic }.into());
        }
        Ok(Self {
            metadata_length: u32::from_le_bytes([l0, l1, l2, l3]) as usize,
            encrypted_footer,
        })
    }

    /// Length of the metadata in front of the tail.
    pub fn metadata_length(&self) -> usize {
        self.metadata_length
    }

    /// Whether the footer is encrypted (`PARE`).
    pub fn is_encrypted_footer(&self) -> bool {
        self.encrypted_footer
    }
}

impl TryFrom<[u8; FOOTER_TAIL_LEN]> for FooterTail {
    type Error = FileError;

    fn try_from(tail: [u8; FOOTER_TAIL_LEN]) -> Result<Self> {
        Self::try_new(&tail)
    }
}

impl TryFrom<&[u8]> for FooterTail {
    type Error = FileError;

    /// The tail from a slice of exactly eight bytes.
    fn try_from(tail: &[u8]) -> Result<Self> {
        let tail: &[u8; FOOTER_TAIL_LEN] = tail.try_into().map_err(|_| {
            FileError::Corrupt(format!(
                "a footer tail is {FOOTER_TAIL_LEN} bytes, not {}",
                tail.len()
            ))
        })?;
        Self::try_new(tail)
    }
}

/// Reads a file's [`ParquetMetaData`]: the footer, the schema, and the page
/// index where asked.
///
/// ```
/// # use std::sync::Arc;
/// # use strata_file::writer::FileWriter;
/// # use strata_file::properties::WriterProperties;
/// # use strata_format::SchemaDescriptor;
/// # use strata_format::metadata::{FieldRepetitionType, SchemaElement, Type};
/// # let schema = Arc::new(SchemaDescriptor::from_elements(&[
/// #     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
/// #     SchemaElement {
/// #         name: "x".into(), physical_type: Some(Type::Int32),
/// #         repetition_type: Some(FieldRepetitionType::Required), ..Default::default()
/// #     },
/// # ]).unwrap());
/// # let mut out = Vec::new();
/// # FileWriter::new(&mut out, schema, Arc::new(WriterProperties::default())).unwrap().close().unwrap();
/// use bytes::Bytes;
/// use strata_file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
///
/// let file = Bytes::from(out);
/// let metadata = ParquetMetaDataReader::new()
///     .with_page_index_policy(PageIndexPolicy::Optional)
///     .parse_and_finish(&file)
///     .unwrap();
/// assert_eq!(metadata.num_row_groups(), 0);
/// assert_eq!(metadata.file_metadata().schema_descr().column(0).name(), "x");
/// ```
#[derive(Debug, Default)]
pub struct ParquetMetaDataReader {
    metadata: Option<ParquetMetaData>,
    column_index: PageIndexPolicy,
    offset_index: PageIndexPolicy,
    column_index_mask: ColumnChunkMask,
    offset_index_mask: ColumnChunkMask,
    prefetch_hint: Option<usize>,
    options: Option<ParquetMetaDataOptions>,
    metadata_size: Option<usize>,
    keys: FooterKeys,
}

/// The keys a footer is decrypted with (the `encryption` feature; without
/// it, nothing, and an encrypted footer is an error).
#[derive(Debug, Clone, Default)]
pub(crate) struct FooterKeys {
    #[cfg(feature = "encryption")]
    keys: Option<Arc<dyn DecryptionKeys>>,
}

impl FooterKeys {
    #[cfg(feature = "encryption")]
    pub(crate) fn new(keys: Option<Arc<dyn DecryptionKeys>>) -> Self {
        Self { keys }
    }
}

/// A decoded footer, and, for an encrypted file read with keys, what
/// decrypts its column chunks.
pub(crate) struct DecodedFooter {
    pub(crate) footer: Footer,
    #[cfg(feature = "encryption")]
    pub(crate) decryptor: Option<FileDecryptor>,
}

impl DecodedFooter {
    /// The metadata of this footer, with `schema` and the decryptor.
    pub(crate) fn into_metadata(self, schema: Arc<SchemaDescriptor>) -> ParquetMetaData {
        #[allow(unused_mut)]
        let mut metadata = ParquetMetaData::from_footer(Arc::new(self.footer), schema);
        #[cfg(feature = "encryption")]
        metadata.set_decryptor(self.decryptor.map(Arc::new));
        metadata
    }
}

impl ParquetMetaDataReader {
    /// The dictionary of one column chunk, as a `Binary` array of its
    /// entries (strings too), without reading the chunk's data pages: to
    /// look at a chunk's distinct values before reading it (the feature
    /// `arrow`, on wherever the Arrow layer is). `None` for a column that
    /// is not `BYTE_ARRAY` or a chunk without a dictionary page. Whether
    /// every page of the chunk uses the dictionary is the chunk's
    /// encoding statistics' to say. A row group or column past the file's
    /// is an error (arrow-rs panics), as is a dictionary page that is
    /// missing where the footer says or does not decode. A dictionary page
    /// marked `PLAIN_DICTIONARY` (older writers, and strata's `PARQUET_1_0`
    /// files) reads as one marked `PLAIN`, which arrow-rs refuses.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{Array, cast::AsArray};
    /// use strata_file::metadata::ParquetMetaDataReader;
    /// use strata_file::properties::WriterProperties;
    /// use strata_file::writer::FileWriter;
    /// use strata_format::schema::SchemaDescriptor;
    /// use strata_format::schema::parser::parse_message_type;
    /// use strata_file::data_type::ByteArray;
    ///
    /// let schema = Arc::new(SchemaDescriptor::new(Arc::new(
    ///     parse_message_type("message m { required binary s (STRING); }")?,
    /// )));
    /// let mut file = Vec::new();
    /// let mut writer = FileWriter::new(&mut file, schema, Arc::new(WriterProperties::default()))?;
    /// let mut group = writer.next_row_group()?;
    /// let mut column = group.next_column()?.unwrap();
    /// let values: Vec<ByteArray> = ["b", "a", "b", "b"].into_iter().map(ByteArray::from).collect();
    /// column.typed::<strata_encoding::ByteArray>().unwrap().write_batch(&values, None, None)?;
    /// group.append_column(column.close()?)?;
    /// group.close()?;
    /// writer.close()?;
    ///
    /// let file = bytes::Bytes::from(file);
    /// let metadata = ParquetMetaDataReader::new().parse_and_finish(&file)?;
    /// let dictionary = ParquetMetaDataReader::read_column_dictionary(&file, &metadata, 0, 0)?.unwrap();
    /// let entries = dictionary.as_binary::<i32>();
    /// assert_eq!(entries.iter().flatten().collect::<Vec<_>>(), [&b"b"[..], &b"a"[..]]);
    /// assert!(ParquetMetaDataReader::read_column_dictionary(&file, &metadata, 1, 0).is_err());
    /// // The dictionary page cut short: an error, not a panic.
    /// let cut = file.slice(..20);
    /// assert!(ParquetMetaDataReader::read_column_dictionary(&cut, &metadata, 0, 0).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "arrow")]
    pub fn read_column_dictionary<R: ChunkReader>(
        reader: &R,
        metadata: &ParquetMetaData,
        row_group_idx: usize,
        column_idx: usize,
    ) -> Result<Option<arrow_array::ArrayRef>> {
        use strata_encoding::{ByteArrayBuffer, Decoder, PlainByteArrayDecoder};
        use strata_format::metadata::Type;

        let chunk = metadata
            .row_groups()
            .get(row_group_idx)
            .and_then(|g| g.columns().get(column_idx))
            .ok_or_else(|| {
                FileError::InvalidArgument(format!(
                    "no column chunk {column_idx} in row group {row_group_idx}"
                ))
            })?;
        if chunk.column_type() != Type::ByteArray {
            return Ok(None);
        }
        let Some(start) = chunk.dictionary_page_offset() else {
            return Ok(None);
        };
        let end = chunk.data_page_offset();
        let length = end
            .checked_sub(start)
            .and_then(|l| usize::try_from(l).ok())
            .filter(|&l| start >= 0 && l > 0)
            .ok_or_else(|| {
                FileError::Corrupt(format!(
                    "dictionary page at {start} does not end before the data pages at {end}"
                ))
            })?;
        let bytes = reader.get_bytes(start as u64, length)?;
        let mut pages = crate::page_reader::PageReader::new(bytes, chunk.compression_codec(), 0)?;
        let Some(crate::page::Page::DictionaryPage {
            buf, num_values, ..
        }) = pages.get_next_page()?
        else {
            return Err(FileError::Corrupt(format!(
                "no dictionary page at {start} of column chunk {column_idx} in row group {row_group_idx}"
            )));
        };
        let mut decoder = PlainByteArrayDecoder::new();
        decoder.set_data(&buf, num_values as usize)?;
        let mut entries = ByteArrayBuffer::<i32>::new();
        while decoder.values_left() > 0 {
            if decoder.decode(&mut entries, num_values as usize)? == 0 {
                break;
            }
        }
        let offsets = arrow_buffer::OffsetBuffer::new(arrow_buffer::ScalarBuffer::from(
            entries.offsets().to_vec(),
        ));
        let array = arrow_array::BinaryArray::try_new(
            offsets,
            arrow_buffer::Buffer::from(entries.values().to_vec()),
            None,
        )
        .map_err(|e| FileError::Corrupt(format!("dictionary page: {e}")))?;
        Ok(Some(std::sync::Arc::new(array)))
    }

    /// A reader that loads no page index and keeps every detail.
    pub fn new() -> Self {
        Self::default()
    }

    /// A reader that starts from metadata already decoded (to load its
    /// page index with [`read_page_indexes`](Self::read_page_indexes)).
    pub fn new_with_metadata(metadata: ParquetMetaData) -> Self {
        Self {
            metadata: Some(metadata),
            ..Self::default()
        }
    }

    /// Load both page indexes as `policy` says.
    pub fn with_page_index_policy(self, policy: PageIndexPolicy) -> Self {
        self.with_column_index_policy(policy)
            .with_offset_index_policy(policy)
    }

    /// Load the column indexes as `policy` says.
    pub fn with_column_index_policy(mut self, policy: PageIndexPolicy) -> Self {
        self.column_index = policy;
        self
    }

    /// Load the offset indexes as `policy` says.
    pub fn with_offset_index_policy(mut self, policy: PageIndexPolicy) -> Self {
        self.offset_index = policy;
        self
    }

    /// Load both page indexes of the chunks `mask` includes only (the
    /// others read as absent; a required policy checks only those).
    pub fn with_page_index_mask(self, mask: ColumnChunkMask) -> Self {
        self.with_column_index_mask(mask.clone())
            .with_offset_index_mask(mask)
    }

    /// Load the column indexes of the chunks `mask` includes only.
    pub fn with_column_index_mask(mut self, mask: ColumnChunkMask) -> Self {
        self.column_index_mask = mask;
        self
    }

    /// Load the offset indexes of the chunks `mask` includes only.
    pub fn with_offset_index_mask(mut self, mask: ColumnChunkMask) -> Self {
        self.offset_index_mask = mask;
        self
    }

    /// Decode the footer as `options` say (`None`: keep everything).
    pub fn with_metadata_options(mut self, options: Option<ParquetMetaDataOptions>) -> Self {
        self.options = options;
        self
    }

    /// Decrypt the footer and column metadata of an encrypted file with
    /// `keys` (the `encryption` feature): the metadata read then carries
    /// what decrypts its chunks' pages ([`ParquetMetaData::file_decryptor`]).
    /// Without keys, a file with an encrypted footer is an error, and one
    /// with a plaintext footer reads its columns that are not encrypted.
    #[cfg(feature = "encryption")]
    pub fn with_decryption_keys(mut self, keys: Option<Arc<dyn DecryptionKeys>>) -> Self {
        self.keys = FooterKeys::new(keys);
        self
    }

    /// [`with_decryption_keys`](Self::with_decryption_keys) under
    /// arrow-rs's name, for its `FileDecryptionProperties` (the Arrow
    /// layer's, which implements [`DecryptionKeys`]).
    #[cfg(feature = "encryption")]
    pub fn with_decryption_properties<K: DecryptionKeys + 'static>(
        self,
        properties: Option<Arc<K>>,
    ) -> Self {
        self.with_decryption_keys(properties.map(|p| -> Arc<dyn DecryptionKeys> { p }))
    }

    /// Read this many bytes from the end of the file in the first read,
    /// so that a footer shorter than that takes one read instead of two.
    pub fn with_prefetch_hint(mut self, prefetch: Option<usize>) -> Self {
        self.prefetch_hint = prefetch;
        self
    }

    /// Whether metadata was read (or given) and not yet taken.
    pub fn has_metadata(&self) -> bool {
        self.metadata.is_some()
    }

    /// Take the metadata read.
    pub fn finish(&mut self) -> Result<ParquetMetaData> {
        self.metadata
            .take()
            .ok_or_else(|| FileError::Corrupt("could not parse parquet metadata".into()))
    }

    /// Read the metadata of `reader` and take it.
    pub fn parse_and_finish<R: ChunkReader>(mut self, reader: &R) -> Result<ParquetMetaData> {
        self.try_parse(reader)?;
        self.finish()
    }

    /// Read the metadata of `reader` (footer and page indexes as the
    /// policies say), to be taken by [`finish`](Self::finish).
    pub fn try_parse<R: ChunkReader>(&mut self, reader: &R) -> Result<()> {
        self.try_parse_sized(reader, reader.len())
    }

    /// [`try_parse`](Self::try_parse) of a file that ends at `file_size`
    /// (at most the reader's length).
    pub fn try_parse_sized<R: ChunkReader>(&mut self, reader: &R, file_size: u64) -> Result<()> {
        if file_size > reader.len() {
            return Err(FileError::Corrupt(format!(
                "file size {file_size} is beyond the {} bytes of the reader",
                reader.len()
            )));
        }
        let (decoded, size) = read_footer(
            reader,
            file_size,
            self.options.as_ref(),
            self.prefetch_hint,
            &self.keys,
        )?;
        self.metadata_size = Some(size);
        let schema = match self.options.as_ref().and_then(|o| o.schema()) {
            Some(schema) => Arc::clone(schema),
            None => Arc::new(SchemaDescriptor::from_file_metadata(&decoded.footer)?),
        };
        self.metadata = Some(decoded.into_metadata(schema));
        self.read_page_indexes_sized(reader, file_size)
    }

    /// Load the page indexes of the metadata read (or given), as the
    /// policies say.
    pub fn read_page_indexes<R: ChunkReader>(&mut self, reader: &R) -> Result<()> {
        self.read_page_indexes_sized(reader, reader.len())
    }

    fn read_page_indexes_sized<R: ChunkReader>(
        &mut self,
        reader: &R,
        file_size: u64,
    ) -> Result<()> {
        let (column_policy, offset_policy) = (self.column_index, self.offset_index);
        if !column_policy.loads() && !offset_policy.loads() {
            return Ok(());
        }
        let Some(metadata) = self.metadata.as_mut() else {
            return Err(FileError::Corrupt(
                "no metadata to read the page indexes of".into(),
            ));
        };
        let footer = Arc::clone(metadata.shared_footer());
        let decryptable = index_unsealer(metadata, true).0;
        let plans = page_index_plans(
            (file_size, decryptable),
            &footer.row_groups,
            (column_policy, &self.column_index_mask),
            (offset_policy, &self.offset_index_mask),
        )?;
        let page_index = decode_page_index(plans, reader, metadata)?;
        metadata.set_page_index(Some(Arc::new(page_index)));
        Ok(())
    }

    /// Size of the footer read (metadata and tail), once read.
    pub fn metadata_size(&self) -> Option<usize> {
        self.metadata_size
    }

    /// Decode metadata bytes (the footer without its tail) into
    /// [`ParquetMetaData`], schema built.
    pub fn decode_metadata(buf: &[u8]) -> Result<ParquetMetaData> {
        Self::decode_metadata_with_options(buf, None)
    }

    /// [`decode_metadata`](Self::decode_metadata), leaving out what
    /// `options` say.
    pub fn decode_metadata_with_options(
        buf: &[u8],
        options: Option<&ParquetMetaDataOptions>,
    ) -> Result<ParquetMetaData> {
        let footer = decode_footer(buf, options)?;
        let schema = match options.and_then(|o| o.schema()) {
            Some(schema) => Arc::clone(schema),
            None => Arc::new(SchemaDescriptor::from_file_metadata(&footer)?),
        };
        Ok(ParquetMetaData::from_footer(Arc::new(footer), schema))
    }

    /// Decode only the schema of metadata bytes (the row groups are not
    /// decoded).
    pub fn decode_schema(buf: &[u8]) -> Result<Arc<SchemaDescriptor>> {
        let elements = strata_format::footer::decode_schema_elements(buf)?;
        Ok(Arc::new(SchemaDescriptor::from_elements(&elements)?))
    }
}

fn decode_footer(buf: &[u8], options: Option<&ParquetMetaDataOptions>) -> Result<Footer> {
    Ok(match options {
        Some(o) => strata_format::footer::decode_metadata_with_options(buf, o)?,
        None => strata_format::footer::decode_metadata(buf)?,
    })
}

/// Decode the footer section `section` (the bytes in front of the tail),
/// decrypting it with `keys` when the footer is encrypted, and, for an
/// encrypted file read with keys, the column metadata of the chunks whose
/// keys are given.
pub(crate) fn decode_section(
    section: &[u8],
    encrypted_footer: bool,
    options: Option<&ParquetMetaDataOptions>,
    keys: &FooterKeys,
) -> Result<DecodedFooter> {
    #[cfg(feature = "encryption")]
    {
        if encrypted_footer {
            let keys = keys
                .keys
                .as_ref()
                .ok_or(strata_format::FormatError::Encrypted)?;
            let (plaintext, mut decryptor) = encryption::decrypt_footer(section, keys)?;
            let mut footer = decode_footer(&plaintext, options)?;
            decryptor.decrypt_columns(&mut footer)?;
            return Ok(DecodedFooter {
                footer,
                decryptor: Some(decryptor),
            });
        }
        let mut footer = decode_footer(section, options)?;
        let decryptor = match &keys.keys {
            Some(keys) if footer.encryption_algorithm.is_some() => {
                let mut decryptor = encryption::signed_footer(section, &footer, keys)?;
                decryptor.decrypt_columns(&mut footer)?;
                Some(decryptor)
            }
            _ => None,
        };
        Ok(DecodedFooter { footer, decryptor })
    }
    #[cfg(not(feature = "encryption"))]
    {
        let _ = keys;
        if encrypted_footer {
            return Err(strata_format::FormatError::Encrypted.into());
        }
        Ok(DecodedFooter {
            footer: decode_footer(section, options)?,
        })
    }
}

/// Where the metadata a footer tail announces lies in a file of
/// `file_len` bytes (checked to fit between the leading magic and the
/// tail). An encrypted footer is an error unless `encrypted_ok`.
pub(crate) fn metadata_range(
    file_len: u64,
    tail: FooterTail,
    encrypted_ok: bool,
) -> Result<Range<u64>> {
    if tail.is_encrypted_footer() && !encrypted_ok {
        return Err(strata_format::FormatError::Encrypted.into());
    }
    let tail_len = FOOTER_TAIL_LEN as u64;
    let min_len = tail_len + PARQUET_MAGIC.len() as u64;
    let metadata_len = tail.metadata_length() as u64;
    if metadata_len + min_len > file_len {
        return Err(FileError::Format(
            strata_format::FormatError::InvalidFooter(format!(
                "metadata length {metadata_len} does not fit in a file of {file_len} bytes"
            )),
        ));
    }
    let end = file_len - tail_len;
    Ok(end - metadata_len..end)
}

/// Read and decode the footer of the file of `file_len` bytes behind
/// `reader`, as `options` say, reading the last `prefetch` bytes first
/// when given; returns it with the footer's size (metadata and tail).
pub(crate) fn read_footer<R: ChunkReader>(
    reader: &R,
    file_len: u64,
    options: Option<&ParquetMetaDataOptions>,
    prefetch: Option<usize>,
    keys: &FooterKeys,
) -> Result<(DecodedFooter, usize)> {
    let tail_len = FOOTER_TAIL_LEN as u64;
    let min_len = tail_len + PARQUET_MAGIC.len() as u64;
    if file_len < min_len {
        return Err(FileError::Format(
            strata_format::FormatError::InvalidFooter(format!(
                "file of {file_len} bytes is shorter than the {min_len} bytes of magic and footer tail"
            )),
        ));
    }
    // The first read: the tail, or the last `prefetch` bytes (within the
    // file, after the leading magic).
    let first = prefetch
        .map_or(tail_len, |p| p as u64)
        .clamp(tail_len, file_len - PARQUET_MAGIC.len() as u64);
    let suffix = reader.get_bytes(file_len - first, first as usize)?;
    let tail: &[u8; FOOTER_TAIL_LEN] = suffix
        .get(suffix.len().saturating_sub(FOOTER_TAIL_LEN)..)
        .and_then(|t| t.try_into().ok())
        .ok_or_else(|| FileError::Corrupt("footer tail is not 8 bytes".into()))?;
    let tail = FooterTail::try_new(tail)?;
    let encrypted = tail.is_encrypted_footer();
    let metadata_range = metadata_range(file_len, tail, cfg!(feature = "encryption"))?;
    let metadata_len = metadata_range.end - metadata_range.start;
    let head = reader.get_bytes(0, PARQUET_MAGIC.len())?;
    let magic = if encrypted {
        ENCRYPTED_MAGIC
    } else {
        PARQUET_MAGIC
    };
    if head.as_ref() != magic {
        let mut found = [0u8; 4];
        found.copy_from_slice(head.get(..4).unwrap_or(&[0; 4]));
        return Err(FileError::Format(strata_format::FormatError::BadMagic {
            found,
        }));
    }
    let footer_len = metadata_len + tail_len;
    let footer = if footer_len <= first {
        // The prefetched suffix holds it.
        let start = (first - footer_len) as usize;
        decode_section(
            suffix
                .get(start..start + metadata_len as usize)
                .unwrap_or_default(),
            encrypted,
            options,
            keys,
        )?
    } else {
        let start = file_len - footer_len;
        // Bounded by the file length checked above.
        let metadata = reader.get_bytes(start, metadata_len as usize)?;
        decode_section(&metadata, encrypted, options, keys)?
    };
    Ok((footer, footer_len as usize))
}

/// Where one kind of page index of every chunk of a file lies: each
/// chunk's checked range (or none), and, when the ranges lie close
/// together (as writers put them, after the last row group), the one span
/// that holds them all.
pub(crate) struct IndexPlan {
    ranges: Vec<Vec<Option<(u64, usize)>>>,
    span: Option<Range<u64>>,
    required: bool,
    what: &'static str,
}

impl IndexPlan {
    /// Check the location `locate` gives of each chunk's index against a
    /// file of `file_len` bytes.
    ///
    /// Under [`PageIndexPolicy::Optional`], a chunk whose index is missing
    /// its length or lies outside the file has none; under
    /// [`PageIndexPolicy::Required`] that is an error.
    pub(crate) fn new(
        (file_len, decryptable): (u64, bool),
        row_groups: &[strata_format::metadata::RowGroup],
        (policy, mask): (PageIndexPolicy, &ColumnChunkMask),
        locate: impl Fn(&ColumnChunk) -> (Option<i64>, Option<i32>),
        what: &'static str,
    ) -> Result<Self> {
        let required = policy == PageIndexPolicy::Required;
        let range_of = |g: usize, j: usize, c: &ColumnChunk| -> Result<Option<(u64, usize)>> {
            let (offset, length) = locate(c);
            let Some(offset) = offset else {
                return Ok(None);
            };
            if c.crypto_metadata().is_some() && !decryptable {
                return if required {
                    Err(FileError::Corrupt(format!(
                        "the {what} of column {j} of row group {g} is encrypted"
                    )))
                } else {
                    Ok(None)
                };
            }
            let range = length
                .and_then(|l| usize::try_from(l).ok())
                .zip(u64::try_from(offset).ok())
                .filter(|(len, start)| check_range(*start, *len, file_len).is_ok());
            match range {
                Some((len, start)) => Ok(Some((start, len))),
                None if required => Err(FileError::Corrupt(format!(
                    "the {what} of column {j} of row group {g} (offset {offset}, length {length:?}) is outside the {file_len} bytes of the file"
                ))),
                None => Ok(None),
            }
        };
        let mut ranges: Vec<Vec<Option<(u64, usize)>>> = Vec::with_capacity(row_groups.len());
        let (mut lo, mut hi, mut total) = (u64::MAX, 0u64, 0u64);
        for (g, rg) in row_groups.iter().enumerate() {
            let mut row = Vec::with_capacity(rg.columns.len());
            let group_included = mask.includes_row_group(g, row_groups.len());
            for (j, c) in rg.columns.iter().enumerate() {
                if !(group_included && mask.includes_column(j, rg.columns.len())) {
                    row.push(None);
                    continue;
                }
                let r = range_of(g, j, c)?;
                if let Some((start, len)) = r {
                    lo = lo.min(start);
                    hi = hi.max(start + len as u64);
                    total += len as u64;
                }
                row.push(r);
            }
            ranges.push(row);
        }
        // One read when the indexes fill at least half of their span.
        let span = (lo < hi && (hi - lo) <= total.saturating_mul(2)).then_some(lo..hi);
        Ok(Self {
            ranges,
            span,
            required,
            what,
        })
    }

    /// The byte ranges the indexes are read from: the span, or else each
    /// chunk's range.
    pub(crate) fn reads(&self) -> Vec<Range<u64>> {
        match &self.span {
            Some(span) => vec![span.clone()],
            None => self
                .ranges
                .iter()
                .flatten()
                .flatten()
                .map(|&(start, len)| start..start + len as u64)
                .collect(),
        }
    }

    /// Read (the [`reads`](Self::reads)) and decode the indexes. Under
    /// [`PageIndexPolicy::Optional`] an index that does not decode is
    /// left out; under [`PageIndexPolicy::Required`] it is an error.
    pub(crate) fn decode<T: ReadThrift, U, R: ChunkReader>(
        self,
        reader: &R,
        unseal: &Unseal<'_>,
        typed: impl Fn(usize, T) -> Result<U>,
    ) -> Result<Vec<Vec<Option<U>>>> {
        let Self {
            ranges,
            span,
            required,
            what,
        } = self;
        let lo = span.as_ref().map_or(0, |s| s.start);
        let span = span
            .map(|s| reader.get_bytes(s.start, (s.end - s.start) as usize))
            .transpose()?;
        let mut out = Vec::with_capacity(ranges.len());
        for (g, row) in ranges.into_iter().enumerate() {
            let mut indexes = Vec::with_capacity(row.len());
            for (j, r) in row.into_iter().enumerate() {
                let Some((start, len)) = r else {
                    indexes.push(None);
                    continue;
                };
                let read;
                let bytes = match &span {
                    Some(span) => {
                        let at = (start - lo) as usize;
                        span.get(at..at + len).unwrap_or_default()
                    }
                    None => {
                        read = reader.get_bytes(start, len)?;
                        &read[..]
                    }
                };
                let decoded = unseal(g, j, bytes).and_then(|plaintext| {
                    typed(
                        j,
                        thrift::decode::<T>(plaintext.as_deref().unwrap_or(bytes))?,
                    )
                });
                match decoded {
                    Ok(index) => indexes.push(Some(index)),
                    Err(e) if required => {
                        return Err(FileError::Corrupt(format!(
                            "the {what} of column {j} of row group {g} does not decode: {e}"
                        )));
                    }
                    Err(_) => indexes.push(None),
                }
            }
            out.push(indexes);
        }
        Ok(out)
    }
}

/// Where the column and offset indexes of `row_groups` lie, as the
/// policies say (`None` for a kind not loaded).
pub(crate) fn page_index_plans(
    file: (u64, bool),
    row_groups: &[strata_format::metadata::RowGroup],
    (column_policy, column_mask): (PageIndexPolicy, &ColumnChunkMask),
    (offset_policy, offset_mask): (PageIndexPolicy, &ColumnChunkMask),
) -> Result<(Option<IndexPlan>, Option<IndexPlan>)> {
    let column = column_policy
        .loads()
        .then(|| {
            IndexPlan::new(
                file,
                row_groups,
                (column_policy, column_mask),
                |c| (c.column_index_offset, c.column_index_length),
                "column index",
            )
        })
        .transpose()?;
    let offset = offset_policy
        .loads()
        .then(|| {
            IndexPlan::new(
                file,
                row_groups,
                (offset_policy, offset_mask),
                |c| (c.offset_index_offset, c.offset_index_length),
                "offset index",
            )
        })
        .transpose()?;
    Ok((column, offset))
}

/// The plaintext of the index bytes of chunk `(row group, column)` when
/// they are an encrypted module; `None` when they are plaintext.
pub(crate) type Unseal<'a> = dyn Fn(usize, usize, &[u8]) -> Result<Option<Vec<u8>>> + 'a;

/// Whether `metadata`'s page indexes of encrypted chunks can be read (the
/// file was read with keys), and what decrypts them: a column index if
/// `column_index`, else an offset index.
pub(crate) fn index_unsealer(
    metadata: &ParquetMetaData,
    column_index: bool,
) -> (bool, Box<Unseal<'_>>) {
    #[cfg(feature = "encryption")]
    if let Some(decryptor) = metadata.file_decryptor() {
        let footer = metadata.shared_footer();
        return (
            true,
            Box::new(move |g, j, bytes| {
                let Some(rg) = footer.row_groups.get(g) else {
                    return Ok(None);
                };
                let crypto = rg.columns.get(j).and_then(|c| c.crypto_metadata());
                decryptor.unseal_index((g, rg.ordinal()), j, crypto, column_index, bytes)
            }),
        );
    }
    let _ = (metadata, column_index);
    (false, Box::new(|_, _, _| Ok(None)))
}

/// Decode the planned indexes from `reader` into a [`PageIndex`],
/// decrypting those of encrypted chunks where `metadata` can.
pub(crate) fn decode_page_index<R: ChunkReader>(
    plans: (Option<IndexPlan>, Option<IndexPlan>),
    reader: &R,
    metadata: &ParquetMetaData,
) -> Result<PageIndex> {
    let (_, unseal_column) = index_unsealer(metadata, true);
    let (_, unseal_offset) = index_unsealer(metadata, false);
    let columns = metadata.schema_descr().columns();
    let column_indexes = plans
        .0
        .map(|p| {
            p.decode(reader, &*unseal_column, |j, index: ColumnIndex| {
                let column = columns.get(j).ok_or_else(|| {
                    FileError::Corrupt(format!("column index of leaf {j}, past the schema's"))
                })?;
                ColumnIndexMetaData::try_from_thrift(column.physical_type(), index)
            })
        })
        .transpose()?;
    let offset_indexes = plans
        .1
        .map(|p| {
            p.decode(reader, &*unseal_offset, |_, index: OffsetIndexMetaData| {
                Ok(index)
            })
        })
        .transpose()?;
    Ok(PageIndex::new(column_indexes, offset_indexes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use strata_format::metadata::Type;

    fn file_with_one_column() -> Bytes {
        super::super::one_column_file::<i64>(Type::Int64, &[&[1, 2, 3]])
    }

    #[test]
    fn every_prefetch_hint_reads_the_same_metadata() {
        let file = file_with_one_column();
        let plain = ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap();
        let len = file.len();
        for hint in [0, 1, 8, 9, 20, len / 2, len - 5, len - 4, len, len + 100] {
            let mut reader = ParquetMetaDataReader::new().with_prefetch_hint(Some(hint));
            reader.try_parse(&file).unwrap();
            let size = reader.metadata_size().unwrap();
            let read = reader.finish().unwrap();
            assert_eq!(read.shared_footer(), plain.shared_footer(), "hint {hint}");
            let tail = &file[len - 8..len - 4];
            let metadata_len = u32::from_le_bytes(tail.try_into().unwrap()) as usize;
            assert_eq!(size, metadata_len + 8, "hint {hint}");
        }
        // Nothing left to take.
        let mut reader = ParquetMetaDataReader::new();
        assert!(!reader.has_metadata());
        assert!(reader.finish().is_err());
    }

    #[test]
    fn page_indexes_load_as_the_policies_say() {
        let file = file_with_one_column();
        let skip = ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap();
        assert!(skip.page_index().is_none());
        assert!(skip.page_index_for_row_group(0).offset_index(0).is_none());
        let offsets = ParquetMetaDataReader::new()
            .with_offset_index_policy(PageIndexPolicy::Required)
            .parse_and_finish(&file)
            .unwrap();
        let index = offsets.page_index().unwrap();
        assert!(index.has_offset_indexes() && !index.has_column_indexes());
        let rg = offsets.page_index_for_row_group(0);
        assert_eq!(rg.num_data_pages(0), Some(1));
        assert_eq!(rg.page_locations(0).unwrap()[0].first_row_index, 0);
        assert!(rg.column_index(0).is_none());
        assert!(rg.offset_index(1).is_none());
        let both = ParquetMetaDataReader::new_with_metadata(skip)
            .with_page_index_policy(PageIndexPolicy::Optional);
        let mut both = both;
        both.read_page_indexes(&file).unwrap();
        let both = both.finish().unwrap();
        let ci = both
            .page_index_for_row_group(0)
            .column_index(0)
            .unwrap()
            .clone();
        assert_eq!(ci.num_pages(), 1);
        let ColumnIndexMetaData::INT64(ci) = ci else {
            panic!("an INT64 column's index is typed INT64")
        };
        assert_eq!(ci.min_values(), [1]);
    }

    #[test]
    fn a_page_index_outside_the_file_is_an_error_only_when_required() {
        let file = file_with_one_column();
        let mut metadata = ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap();
        let mut footer = (**metadata.shared_footer()).clone();
        footer.row_groups[0].columns[0].offset_index_offset = Some(file.len() as i64 - 2);
        metadata =
            ParquetMetaData::from_footer(Arc::new(footer), Arc::clone(metadata.shared_schema()));
        let mut optional = ParquetMetaDataReader::new_with_metadata(metadata.clone())
            .with_offset_index_policy(PageIndexPolicy::Optional);
        optional.read_page_indexes(&file).unwrap();
        let optional = optional.finish().unwrap();
        assert!(
            optional
                .page_index_for_row_group(0)
                .offset_index(0)
                .is_none()
        );
        let mut required = ParquetMetaDataReader::new_with_metadata(metadata)
            .with_offset_index_policy(PageIndexPolicy::Required);
        let err = required.read_page_indexes(&file).unwrap_err().to_string();
        assert!(
            err.contains("offset index of column 0 of row group 0"),
            "{err}"
        );
    }

    #[test]
    fn short_and_foreign_files_are_errors() {
        for bytes in [
            &b""[..],
            b"PAR1",
            b"PAR1PAR1",
            b"PAR1\x05\0\0\0PAR1",
            b"PAR1\0\0\0\0PAR2",
        ] {
            let file = Bytes::copy_from_slice(bytes);
            assert!(
                ParquetMetaDataReader::new()
                    .parse_and_finish(&file)
                    .is_err(),
                "{bytes:?}"
            );
        }
        let file = file_with_one_column();
        let mut reader = ParquetMetaDataReader::new();
        assert!(
            reader
                .try_parse_sized(&file, file.len() as u64 + 1)
                .is_err()
        );
    }

    #[test]
    fn the_schema_alone_decodes_as_the_whole_footer_does() {
        let file = file_with_one_column();
        let whole = ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap();
        let len = file.len();
        let tail = &file[len - 8..len - 4];
        let metadata_len = u32::from_le_bytes(tail.try_into().unwrap()) as usize;
        let metadata = &file[len - 8 - metadata_len..len - 8];
        let schema = ParquetMetaDataReader::decode_schema(metadata).unwrap();
        assert_eq!(
            schema.to_elements(),
            whole.file_metadata().schema_descr().to_elements()
        );
        // Every cut through the schema is an error; cuts after it leave the
        // schema whole (the rest is not read).
        let mut errors = 0;
        for cut in 0..metadata_len {
            match ParquetMetaDataReader::decode_schema(&metadata[..cut]) {
                Ok(s) => assert_eq!(s.to_elements(), schema.to_elements(), "cut {cut}"),
                Err(_) => errors += 1,
            }
        }
        assert!(errors > 0);
    }
}
