//! Finding, decoding and writing the file footer.
//!
//! A Parquet file ends with the serialized [`FileMetaData`], its length as
//! a 4-byte little-endian integer, and the magic `PAR1`:
//!
//! ```text
//! PAR1 | column chunks ... | FileMetaData | len: u32 LE | PAR1
//! ```
//!
//! Files whose footer is encrypted end in `PARE` instead; this layer
//! recognises them and rejects them with [`FormatError::Encrypted`] (the
//! file layer decrypts them, with its `encryption` feature and keys).
//! Files with a plaintext footer and encrypted columns decode normally
//! (their `encryption_algorithm` is set).

use std::io::{Read, Seek, SeekFrom};

use crate::error::{FormatError, Result};
use crate::metadata::{FileMetaData, ParquetMetaDataOptions, SchemaElement};
use crate::thrift::{self, CompactReader, FieldType, ReadThrift};
use strata_sink::ByteSink;

/// Magic at both ends of a Parquet file.
pub const PARQUET_MAGIC: [u8; 4] = *b"PAR1";
/// Magic at the end of a file with an encrypted footer.
pub const ENCRYPTED_MAGIC: [u8; 4] = *b"PARE";
/// Size of the footer tail: metadata length and magic.
pub const FOOTER_TAIL_LEN: usize = 8;

/// Parse the last 8 bytes of a file: check the magic and return the length
/// of the serialized metadata in front of them.
///
/// ```
/// use strata_format::error::FormatError;
/// use strata_format::footer::parse_footer_tail;
///
/// assert_eq!(parse_footer_tail(&[0x2A, 0, 0, 0, b'P', b'A', b'R', b'1']).unwrap(), 42);
/// assert!(matches!(
///     parse_footer_tail(&[1, 0, 0, 0, b'P', b'A', b'R', b'E']),
///     Err(FormatError::Encrypted)
/// ));
/// ```
pub fn parse_footer_tail(tail: &[u8; FOOTER_TAIL_LEN]) -> Result<u32> {
    let [l0, l1, l2, l3, m0, m1, m2, m3] = *tail;
    let magic = [m0, m1, m2, m3];
    if magic == ENCRYPTED_MAGIC {
        return Err(FormatError::Encrypted);
    }
    if magic != PARQUET_MAGIC {
        return Err(FormatError::BadMagic { found: magic });
    }
    Ok(u32::from_le_bytes([l0, l1, l2, l3]))
}

/// Decode serialized [`FileMetaData`] (the bytes in front of the footer
/// tail). Bytes after the struct's end are ignored.
pub fn decode_metadata(bytes: &[u8]) -> Result<FileMetaData> {
    let mut r = CompactReader::new(bytes);
    FileMetaData::read_thrift(&mut r)
}

/// Only the schema elements of serialized [`FileMetaData`] (field 2):
/// the fields before them are skipped over the wire and decoding stops
/// once they are read, so the row groups (most of a footer) are never
/// decoded. Fails as [`decode_metadata`] would on a footer without a
/// schema.
///
/// ```
/// use strata_format::footer::decode_schema_elements;
/// use strata_format::metadata::{FileMetaData, SchemaElement};
/// use strata_format::thrift::{CompactWriter, WriteThrift};
/// use strata_sink::ByteSink;
///
/// let footer = FileMetaData {
///     schema: vec![SchemaElement { name: "root".into(), num_children: Some(0), ..Default::default() }],
///     ..Default::default()
/// };
/// let mut bytes = ByteSink::new();
/// footer.write_thrift(&mut CompactWriter::new(&mut bytes));
/// assert_eq!(decode_schema_elements(bytes.as_slice()).unwrap(), footer.schema);
/// assert!(decode_schema_elements(&bytes.as_slice()[..3]).is_err());
/// ```
pub fn decode_schema_elements(bytes: &[u8]) -> Result<Vec<SchemaElement>> {
    let mut r = CompactReader::new(bytes);
    // Decoding stops inside the struct, so its end is never needed.
    let _outer = r.begin_struct()?;
    while let Some(f) = r.next_field()? {
        if f.id == 2 && f.ty.same_kind(FieldType::List) {
            let mut schema: Option<Vec<SchemaElement>> = None;
            r.read_into(f, &mut schema)?;
            if let Some(schema) = schema {
                return Ok(schema);
            }
        } else {
            r.skip(f.ty)?;
        }
    }
    Err(FormatError::MissingField {
        struct_name: "FileMetaData",
        field: "schema",
    })
}

/// [`decode_metadata`], leaving out what `options` says: the statistics of
/// the columns its policies skip (decoded as absent) and, when it carries
/// a schema, the footer's schema elements (decoded as empty).
///
/// ```
/// use strata_format::footer::{decode_metadata, decode_metadata_with_options};
/// use strata_format::metadata::{
///     ColumnChunk, ColumnMetaData, CompressionCodec, EncodingSet, FileMetaData,
///     ParquetMetaDataOptions, ParquetStatisticsPolicy, RowGroup, Statistics, Type,
/// };
/// use strata_format::thrift::{CompactWriter, WriteThrift};
/// use strata_sink::ByteSink;
///
/// let chunk = |name: &str| ColumnChunk {
///     meta_data: Some(ColumnMetaData {
///         physical_type: Type::Int32,
///         encodings: EncodingSet::new(),
///         path_in_schema: vec![name.to_string()].into(),
///         codec: CompressionCodec::Uncompressed,
///         num_values: 1,
///         total_uncompressed_size: 10,
///         total_compressed_size: 10,
///         data_page_offset: 4,
///         dictionary_page_offset: None,
///         statistics: Some({ let mut s = Statistics::default(); s.null_count = Some(0); s }),
///         encoding_stats: None,
///         size_statistics: None,
///         extras: None,
///     }),
///     ..Default::default()
/// };
/// let footer = FileMetaData {
///     row_groups: vec![RowGroup { columns: vec![chunk("a"), chunk("b")], ..Default::default() }],
///     ..Default::default()
/// };
/// let mut sink = ByteSink::new();
/// footer.write_thrift(&mut CompactWriter::new(&mut sink));
/// let bytes = sink.as_slice();
///
/// let options = ParquetMetaDataOptions::new()
///     .with_column_stats_policy(ParquetStatisticsPolicy::skip_except(&[1]));
/// let decoded = decode_metadata_with_options(bytes, &options).unwrap();
/// let stats = |m: &FileMetaData, j: usize| {
///     m.row_groups[0].columns[j].meta_data.as_ref().unwrap().statistics.clone()
/// };
/// assert_eq!(stats(&decoded, 0), None);
/// assert_eq!(stats(&decoded, 1), stats(&footer, 1));
/// // Everything else is as a full decode has it.
/// let mut full = decode_metadata(bytes).unwrap();
/// full.row_groups[0].columns[0].meta_data.as_mut().unwrap().statistics = None;
/// assert_eq!(decoded, full);
/// ```
pub fn decode_metadata_with_options(
    bytes: &[u8],
    options: &ParquetMetaDataOptions,
) -> Result<FileMetaData> {
    let mut r = CompactReader::with_options(bytes, options);
    FileMetaData::read_thrift(&mut r)
}

/// Where the metadata sits in a file of `file_len` bytes whose tail gives
/// `metadata_len`: its start offset. Checks that the header magic, the
/// metadata and the tail all fit.
fn metadata_start(file_len: u64, metadata_len: u32) -> Result<u64> {
    let needed = u64::from(metadata_len) + (FOOTER_TAIL_LEN + PARQUET_MAGIC.len()) as u64;
    if needed > file_len {
        return Err(FormatError::InvalidFooter(format!(
            "metadata length {metadata_len} does not fit in a file of {file_len} bytes"
        )));
    }
    Ok(file_len - FOOTER_TAIL_LEN as u64 - u64::from(metadata_len))
}

/// Decode the footer of a whole file held in memory.
///
/// Checks `PAR1` at both ends and that the metadata length fits.
///
/// ```
/// use strata_format::footer::{read_metadata_from_slice, write_footer};
/// use strata_format::metadata::{FileMetaData, SchemaElement};
/// use strata_sink::ByteSink;
///
/// let meta = FileMetaData {
///     version: 1,
///     schema: vec![SchemaElement { name: "root".into(), num_children: Some(0), ..Default::default() }],
///     ..Default::default()
/// };
/// let mut file = ByteSink::new();
/// file.extend_from_slice(b"PAR1");
/// write_footer(&meta, &mut file).unwrap();
/// assert_eq!(read_metadata_from_slice(file.as_slice()).unwrap(), meta);
/// ```
pub fn read_metadata_from_slice(file: &[u8]) -> Result<FileMetaData> {
    let min = FOOTER_TAIL_LEN + PARQUET_MAGIC.len();
    if file.len() < min {
        return Err(FormatError::InvalidFooter(format!(
            "file of {} bytes is shorter than the {min} bytes of magic and footer tail",
            file.len()
        )));
    }
    let split = file.len() - FOOTER_TAIL_LEN;
    let (body, tail) = file.split_at(split);
    let tail: &[u8; FOOTER_TAIL_LEN] = tail
        .try_into()
        .map_err(|_| FormatError::InvalidFooter("footer tail is not 8 bytes".into()))?;
    let metadata_len = parse_footer_tail(tail)?;
    check_head_magic(file)?;
    let start = metadata_start(file.len() as u64, metadata_len)? as usize;
    let metadata = body
        .get(start..)
        .ok_or_else(|| FormatError::InvalidFooter("metadata range out of bounds".into()))?;
    decode_metadata(metadata)
}

fn check_head_magic(file: &[u8]) -> Result<()> {
    match file.get(..4) {
        Some(head) if head == PARQUET_MAGIC => Ok(()),
        Some(&[a, b, c, d]) => Err(FormatError::BadMagic {
            found: [a, b, c, d],
        }),
        _ => Err(FormatError::InvalidFooter(
            "file too short for magic".into(),
        )),
    }
}

/// Read the footer of a file through `Read + Seek`, reading only the tail:
/// the last 8 bytes, then exactly the metadata (after checking it fits in
/// the file), then the 4-byte header magic.
pub fn read_metadata<R: Read + Seek>(mut reader: R) -> Result<FileMetaData> {
    let file_len = reader.seek(SeekFrom::End(0))?;
    let min = (FOOTER_TAIL_LEN + PARQUET_MAGIC.len()) as u64;
    if file_len < min {
        return Err(FormatError::InvalidFooter(format!(
            "file of {file_len} bytes is shorter than the {min} bytes of magic and footer tail"
        )));
    }
    reader.seek(SeekFrom::Start(file_len - FOOTER_TAIL_LEN as u64))?;
    let mut tail = [0u8; FOOTER_TAIL_LEN];
    reader.read_exact(&mut tail)?;
    let metadata_len = parse_footer_tail(&tail)?;
    let start = metadata_start(file_len, metadata_len)?;

    let mut head = [0u8; 4];
    reader.seek(SeekFrom::Start(0))?;
    reader.read_exact(&mut head)?;
    if head != PARQUET_MAGIC {
        return Err(FormatError::BadMagic { found: head });
    }

    reader.seek(SeekFrom::Start(start))?;
    // The length is bounded by the file size checked above.
    let mut buf = vec![0u8; metadata_len as usize];
    reader.read_exact(&mut buf)?;
    decode_metadata(&buf)
}

/// Append the footer to `sink`: the serialized metadata, its length and
/// `PAR1`. Fails only if the metadata exceeds 4 GiB.
pub fn write_footer(metadata: &FileMetaData, sink: &mut ByteSink) -> Result<()> {
    let start = sink.len();
    thrift::encode(metadata, sink);
    let len = sink.len() - start;
    let len = u32::try_from(len).map_err(|_| {
        FormatError::InvalidFooter(format!("serialized metadata of {len} bytes exceeds 4 GiB"))
    })?;
    sink.put_u32_le(len);
    sink.extend_from_slice(&PARQUET_MAGIC);
    Ok(())
}
