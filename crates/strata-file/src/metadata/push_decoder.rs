//! [`ParquetMetaDataPushDecoder`]: a file's metadata decoded from bytes the
//! caller pushes, with no I/O of its own.
//!
//! It goes through three stages, each asking for what it needs:
//!
//! 1. the eight-byte tail (`DecodeResult::NeedsData([len - 8..len])`),
//!    which gives the metadata length;
//! 2. the metadata in front of it, decoded as the options say;
//! 3. the column and offset indexes the policies ask for: one span when
//!    they lie close together, as writers put them, or else each chunk's
//!    range.
//!
//! A caller that pushes a larger suffix of the file at the start (a
//! footer size hint) passes the first two stages at once. Lengths read
//! from the file are checked against the file's length before they name
//! a range; the leading magic is not requested.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use strata_format::SchemaDescriptor;
use strata_format::footer::FOOTER_TAIL_LEN;
use strata_format::metadata::ParquetMetaDataOptions;

use super::reader::{
    decode_page_index, decode_section, index_unsealer, metadata_range, page_index_plans,
};
use super::{ColumnChunkMask, FooterTail, PageIndexPolicy, ParquetMetaData};
use crate::DecodeResult;
use crate::chunk_reader::ChunkReader;
use crate::error::{FileError, Result};
use crate::push_buffers::PushBuffers;

#[derive(Debug)]
enum Stage {
    Footer,
    PageIndex(Box<ParquetMetaData>),
    Finished,
}

/// Decodes a file's [`ParquetMetaData`] from pushed byte ranges (arrow-rs's
/// `parquet::file::metadata::ParquetMetaDataPushDecoder`).
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
/// use strata_file::DecodeResult;
/// use strata_file::metadata::ParquetMetaDataPushDecoder;
///
/// let file = Bytes::from(out);
/// let mut decoder = ParquetMetaDataPushDecoder::try_new(file.len() as u64).unwrap();
/// let metadata = loop {
///     match decoder.try_decode().unwrap() {
///         DecodeResult::NeedsData(ranges) => {
///             let data = ranges
///                 .iter()
///                 .map(|r| file.slice(r.start as usize..r.end as usize))
///                 .collect();
///             decoder.push_ranges(ranges, data).unwrap();
///         }
///         DecodeResult::Data(metadata) => break metadata,
///         DecodeResult::Finished => unreachable!("metadata comes first"),
///     }
/// };
/// assert_eq!(metadata.file_metadata().schema_descr().column(0).name(), "x");
/// ```
#[derive(Debug)]
pub struct ParquetMetaDataPushDecoder {
    buffers: PushBuffers,
    column_index: PageIndexPolicy,
    offset_index: PageIndexPolicy,
    column_index_mask: ColumnChunkMask,
    offset_index_mask: ColumnChunkMask,
    options: Option<Arc<ParquetMetaDataOptions>>,
    stage: Stage,
    keys: super::reader::FooterKeys,
}

impl ParquetMetaDataPushDecoder {
    /// A decoder of the metadata of a file of `file_len` bytes, loading
    /// both page indexes where the file has them
    /// ([`PageIndexPolicy::Optional`], as arrow-rs).
    pub fn try_new(file_len: u64) -> Result<Self> {
        if file_len < FOOTER_TAIL_LEN as u64 {
            return Err(FileError::Corrupt(format!(
                "a Parquet file is at least {FOOTER_TAIL_LEN} bytes long, not {file_len}"
            )));
        }
        Ok(Self {
            buffers: PushBuffers::new(file_len),
            column_index: PageIndexPolicy::Optional,
            offset_index: PageIndexPolicy::Optional,
            column_index_mask: ColumnChunkMask::all(),
            offset_index_mask: ColumnChunkMask::all(),
            options: None,
            stage: Stage::Footer,
            keys: Default::default(),
        })
    }

    /// Decrypt the footer and column metadata of an encrypted file with
    /// `keys` (the `encryption` feature), as
    /// [`ParquetMetaDataReader::with_decryption_keys`](super::ParquetMetaDataReader::with_decryption_keys)
    /// does.
    #[cfg(feature = "encryption")]
    pub fn with_decryption_keys(
        mut self,
        keys: Option<Arc<dyn crate::encryption::DecryptionKeys>>,
    ) -> Self {
        self.keys = super::reader::FooterKeys::new(keys);
        self
    }

    /// A decoder that starts from metadata already decoded, to load its
    /// page indexes.
    pub fn try_new_with_metadata(file_len: u64, metadata: ParquetMetaData) -> Result<Self> {
        let mut decoder = Self::try_new(file_len)?;
        decoder.stage = Stage::PageIndex(Box::new(metadata));
        Ok(decoder)
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
    pub fn with_metadata_options(mut self, options: Option<Arc<ParquetMetaDataOptions>>) -> Self {
        self.options = options;
        self
    }

    /// Give the decoder the bytes of `range`.
    pub fn push_range(&mut self, range: Range<u64>, buffer: Bytes) -> Result<()> {
        self.buffers.push_range(range, buffer)
    }

    /// Give the decoder the bytes of each range.
    pub fn push_ranges(&mut self, ranges: Vec<Range<u64>>, buffers: Vec<Bytes>) -> Result<()> {
        self.buffers.push_ranges(ranges, buffers)
    }

    /// Drop every range pushed so far.
    pub fn clear_all_ranges(&mut self) {
        self.buffers.clear_all_ranges();
    }

    /// Go on as far as the pushed bytes allow: the ranges still needed,
    /// the metadata once decoded, and then `Finished`.
    pub fn try_decode(&mut self) -> Result<DecodeResult<ParquetMetaData>> {
        loop {
            match std::mem::replace(&mut self.stage, Stage::Finished) {
                Stage::Footer => match self.decode_footer()? {
                    Ok(metadata) => self.stage = Stage::PageIndex(Box::new(metadata)),
                    Err(needed) => {
                        self.stage = Stage::Footer;
                        return Ok(DecodeResult::NeedsData(needed));
                    }
                },
                Stage::PageIndex(mut metadata) => {
                    if !self.column_index.loads() && !self.offset_index.loads() {
                        self.buffers.clear_all_ranges();
                        return Ok(DecodeResult::Data(*metadata));
                    }
                    let decryptable = index_unsealer(&metadata, true).0;
                    let plans = page_index_plans(
                        (self.buffers.file_len(), decryptable),
                        &metadata.shared_footer().row_groups,
                        (self.column_index, &self.column_index_mask),
                        (self.offset_index, &self.offset_index_mask),
                    )?;
                    let mut reads: Vec<Range<u64>> =
                        plans.0.iter().flat_map(|p| p.reads()).collect();
                    reads.extend(plans.1.iter().flat_map(|p| p.reads()));
                    let missing = self.buffers.missing(&reads);
                    if !missing.is_empty() {
                        self.stage = Stage::PageIndex(metadata);
                        return Ok(DecodeResult::NeedsData(missing));
                    }
                    let page_index = decode_page_index(plans, &self.buffers, &metadata)?;
                    metadata.set_page_index(Some(Arc::new(page_index)));
                    self.buffers.clear_all_ranges();
                    return Ok(DecodeResult::Data(*metadata));
                }
                Stage::Finished => return Ok(DecodeResult::Finished),
            }
        }
    }

    /// The decoded footer, or the ranges needed first.
    fn decode_footer(&self) -> Result<std::result::Result<ParquetMetaData, Vec<Range<u64>>>> {
        let file_len = self.buffers.file_len();
        let tail_range = file_len - FOOTER_TAIL_LEN as u64..file_len;
        if !self.buffers.has_range(&tail_range) {
            return Ok(Err(std::iter::once(tail_range).collect()));
        }
        let tail = self.buffers.get_bytes(tail_range.start, FOOTER_TAIL_LEN)?;
        let tail = FooterTail::try_from(&tail[..])?;
        let range = metadata_range(file_len, tail, cfg!(feature = "encryption"))?;
        if !self.buffers.has_range(&range) {
            return Ok(Err(std::iter::once(range).collect()));
        }
        let bytes = self
            .buffers
            .get_bytes(range.start, (range.end - range.start) as usize)?;
        let options = self.options.as_deref();
        let decoded = decode_section(&bytes, tail.is_encrypted_footer(), options, &self.keys)?;
        let schema = match options.and_then(|o| o.schema()) {
            Some(schema) => Arc::clone(schema),
            None => Arc::new(SchemaDescriptor::from_file_metadata(&decoded.footer)?),
        };
        Ok(Ok(decoded.into_metadata(schema)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::ParquetMetaDataReader;
    use strata_format::metadata::Type;

    /// Two row groups of `rows` INT32 values each.
    fn file(rows: i32) -> Bytes {
        let first: Vec<i32> = (0..rows).collect();
        let second: Vec<i32> = (rows..2 * rows).collect();
        super::super::one_column_file::<i32>(Type::Int32, &[&first, &second])
    }

    fn drive(decoder: &mut ParquetMetaDataPushDecoder, file: &Bytes) -> (ParquetMetaData, usize) {
        let mut rounds = 0;
        loop {
            match decoder.try_decode().unwrap() {
                DecodeResult::NeedsData(ranges) => {
                    rounds += 1;
                    let data = ranges
                        .iter()
                        .map(|r| file.slice(r.start as usize..r.end as usize))
                        .collect();
                    decoder.push_ranges(ranges, data).unwrap();
                }
                DecodeResult::Data(m) => return (m, rounds),
                DecodeResult::Finished => panic!("finished before the metadata"),
            }
        }
    }

    #[test]
    fn decodes_what_the_reader_reads() {
        let file = file(100);
        let expected = ParquetMetaDataReader::new()
            .with_page_index_policy(PageIndexPolicy::Required)
            .parse_and_finish(&file)
            .unwrap();
        let mut decoder = ParquetMetaDataPushDecoder::try_new(file.len() as u64).unwrap();
        let (got, rounds) = drive(&mut decoder, &file);
        // Tail, metadata, page indexes.
        assert_eq!(rounds, 3);
        assert_eq!(
            got.file_metadata().num_rows(),
            expected.file_metadata().num_rows()
        );
        assert_eq!(
            format!("{:?}", got.shared_footer()),
            format!("{:?}", expected.shared_footer())
        );
        let (a, b) = (got.page_index().unwrap(), expected.page_index().unwrap());
        for rg in 0..2 {
            assert_eq!(a.offset_index(rg, 0), b.offset_index(rg, 0));
            assert_eq!(a.column_index(rg, 0), b.column_index(rg, 0));
        }
        assert!(matches!(
            decoder.try_decode().unwrap(),
            DecodeResult::Finished
        ));
    }

    #[test]
    fn a_page_index_mask_loads_only_its_chunks() {
        let file = file(100);
        let mask = ColumnChunkMask::row_groups([1]);
        let mut decoder = ParquetMetaDataPushDecoder::try_new(file.len() as u64)
            .unwrap()
            .with_page_index_policy(PageIndexPolicy::Required)
            .with_column_index_mask(mask.clone())
            .with_offset_index_mask(ColumnChunkMask::none());
        let (got, _) = drive(&mut decoder, &file);
        let index = got.page_index().unwrap();
        assert!(index.column_index(0, 0).is_none());
        assert!(index.column_index(1, 0).is_some());
        assert!(index.offset_index(0, 0).is_none() && index.offset_index(1, 0).is_none());
        let read = ParquetMetaDataReader::new()
            .with_page_index_policy(PageIndexPolicy::Required)
            .with_page_index_mask(mask)
            .parse_and_finish(&file)
            .unwrap();
        let read = read.page_index().unwrap();
        assert_eq!(read.column_index(1, 0), index.column_index(1, 0));
        assert!(read.column_index(0, 0).is_none() && read.offset_index(1, 0).is_some());
    }

    #[test]
    fn a_pushed_suffix_saves_the_second_round() {
        let file = file(10);
        let mut decoder = ParquetMetaDataPushDecoder::try_new(file.len() as u64)
            .unwrap()
            .with_page_index_policy(PageIndexPolicy::Skip);
        let len = file.len() as u64;
        decoder.push_range(4..len, file.slice(4..)).unwrap();
        let (got, rounds) = drive(&mut decoder, &file);
        assert_eq!(rounds, 0);
        assert_eq!(got.num_row_groups(), 2);
        assert!(got.page_index().is_none());
    }

    #[test]
    fn hostile_tails_are_errors() {
        assert!(ParquetMetaDataPushDecoder::try_new(7).is_err());
        // A metadata length beyond the file.
        let mut bytes = b"PAR1".to_vec();
        bytes.extend_from_slice(&1000u32.to_le_bytes());
        bytes.extend_from_slice(b"PAR1");
        let mut d = ParquetMetaDataPushDecoder::try_new(12).unwrap();
        d.push_range(0..12, Bytes::from(bytes)).unwrap();
        assert!(d.try_decode().is_err());
        // A foreign magic, and metadata that does not decode.
        let mut d = ParquetMetaDataPushDecoder::try_new(16).unwrap();
        let mut bytes = b"PAR1\xff\xff\xff\xff".to_vec();
        bytes.extend_from_slice(&4u32.to_le_bytes());
        bytes.extend_from_slice(b"PAR1");
        d.push_range(0..16, Bytes::from(bytes)).unwrap();
        assert!(d.try_decode().is_err());
        let mut d = ParquetMetaDataPushDecoder::try_new(8).unwrap();
        d.push_range(0..8, Bytes::from_static(b"\0\0\0\0PAR2"))
            .unwrap();
        assert!(d.try_decode().is_err());
    }
}
