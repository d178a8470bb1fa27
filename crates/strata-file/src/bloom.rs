//! Split-block Bloom filters ([`Sbbf`]), as the Parquet specification
//! (`BloomFilter.md`) defines them.
//!
//! A filter is an array of 32-byte *blocks*, each eight 32-bit words. A value
//! is hashed with XXH64 (seed 0) over its PLAIN encoding (for byte arrays:
//! the bytes alone, without the length prefix). The upper 32 bits of the hash
//! pick a block (`(upper * num_blocks) >> 32`); the lower 32 bits, multiplied
//! by eight fixed odd *salts*, pick one bit in each word (the top five bits
//! of each product). Inserting sets those eight bits; checking tests them.
//!
//! In a file the filter is a Thrift [`BloomFilterHeader`] followed by the
//! bitset, with each word little-endian. A column chunk's metadata gives
//! its offset and, in newer files, its length; [`BloomFilterFetch`] says
//! which bytes to read for one, so that every reader (the file reader, the
//! Arrow reader's builders, sync and async) reads it the same way and
//! checks the same bounds.
//!
//! ```
//! use strata_file::bloom::Sbbf;
//!
//! let mut filter = Sbbf::new_with_ndv_fpp(1000, 0.01).unwrap();
//! filter.insert("parquet");
//! filter.insert(&42i64);
//! assert!(filter.check("parquet"));
//! assert!(filter.check(&42i64));
//!
//! let mut file = strata_sink::ByteSink::new();
//! filter.write(&mut file);
//! let read = Sbbf::read(file.as_slice()).unwrap();
//! assert_eq!(read, filter);
//! ```

use std::ops::Range;

use strata_format::metadata::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
    ColumnMetaData,
};
use strata_format::thrift;
use strata_sink::ByteSink;

use crate::data_type::AsBytes;
use crate::error::{FileError, Result};

/// The eight salts of the split-block algorithm, one per word of a block.
pub const SALT: [u32; 8] = [
    0x47b6_137b,
    0x4497_4d91,
    0x8824_ad5b,
    0xa2b7_289d,
    0x7054_95c7,
    0x2df1_424b,
    0x9efc_4947,
    0x5c6b_fb31,
];

/// Bytes in one block: eight 32-bit words.
pub const BLOCK_BYTES: usize = 32;
/// Smallest bitset: one block.
pub const MIN_BLOOM_BYTES: usize = BLOCK_BYTES;
/// Largest bitset strata creates or reads: 128 MiB (the limit parquet-mr
/// and arrow-rs also apply).
pub const MAX_BLOOM_BYTES: usize = 128 * 1024 * 1024;

/// One block: eight words, one bit set per inserted value in each.
type Block = [u32; 8];

/// A split-block Bloom filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sbbf {
    blocks: Vec<Block>,
}

/// The eight one-bit masks of a hash's lower 32 bits.
#[inline]
fn block_mask(hash: u64) -> Block {
    let key = hash as u32;
    let mut mask = [0u32; 8];
    for (bit, salt) in mask.iter_mut().zip(SALT) {
        *bit = 1u32 << (key.wrapping_mul(salt) >> 27);
    }
    mask
}

/// The block a hash selects among `num_blocks`: the upper 32 bits scaled
/// to the block count (multiply, keep the high half).
#[inline]
fn block_index(hash: u64, num_blocks: usize) -> usize {
    (((hash >> 32) * num_blocks as u64) >> 32) as usize
}

/// Bitset size in bytes for `num_distinct` values at false-positive
/// probability `fpp`, by the specification's formula (bits per value
/// `-8 / ln(1 - fpp^(1/8))`): the whole bytes of that many bits, rounded
/// up to a power of two and clamped to
/// [`MIN_BLOOM_BYTES`]`..=`[`MAX_BLOOM_BYTES`] (the size arrow-rs picks).
///
/// Fails unless `0 < fpp < 1`.
pub fn optimal_num_bytes(num_distinct: u64, fpp: f64) -> Result<usize> {
    if !(fpp > 0.0 && fpp < 1.0) {
        return Err(FileError::InvalidArgument(format!(
            "Bloom filter false-positive probability must be in (0, 1), got {fpp}"
        )));
    }
    let bits_per_value = -8.0 / (1.0 - fpp.powf(1.0 / 8.0)).ln();
    // A float that overflows usize saturates in the cast, then clamps.
    let bits = (bits_per_value * num_distinct as f64) as usize;
    let bytes = bits / 8;
    Ok(clamp_num_bytes(bytes))
}

/// Round `n` up to a power of two within the allowed bitset sizes.
fn clamp_num_bytes(n: usize) -> usize {
    n.clamp(MIN_BLOOM_BYTES, MAX_BLOOM_BYTES)
        .checked_next_power_of_two()
        .unwrap_or(MAX_BLOOM_BYTES)
        .min(MAX_BLOOM_BYTES)
}

impl Sbbf {
    /// An empty filter sized for `ndv` distinct values at false-positive
    /// probability `fpp` (see [`optimal_num_bytes`]), as arrow-rs's. Fails
    /// unless `0 < fpp < 1`.
    ///
    /// ```
    /// use strata_file::bloom::Sbbf;
    ///
    /// let filter = Sbbf::new_with_ndv_fpp(1000, 0.01).unwrap();
    /// // 9585 bits: 1198 bytes, rounded up to 2048, 64 blocks.
    /// assert_eq!(filter.num_blocks(), 64);
    /// assert!(Sbbf::new_with_ndv_fpp(1000, 1.0).is_err());
    /// ```
    pub fn new_with_ndv_fpp(ndv: u64, fpp: f64) -> Result<Self> {
        Ok(Self::new_with_num_of_bytes(optimal_num_bytes(ndv, fpp)?))
    }

    /// An empty filter of `num_bytes` bytes, rounded up to a power of two
    /// and clamped to [`MIN_BLOOM_BYTES`]`..=`[`MAX_BLOOM_BYTES`].
    pub fn new_with_num_of_bytes(num_bytes: usize) -> Self {
        let num_bytes = clamp_num_bytes(num_bytes);
        Self {
            blocks: vec![[0u32; 8]; num_bytes / BLOCK_BYTES],
        }
    }

    /// A filter over a bitset as a file stores it (little-endian words,
    /// without the header), as arrow-rs's `Sbbf::new`: whole blocks only,
    /// a trailing partial block is ignored.
    ///
    /// ```
    /// use strata_file::bloom::Sbbf;
    ///
    /// assert_eq!(Sbbf::new(&[0; 70]).num_blocks(), 2);
    /// ```
    pub fn new(bitset: &[u8]) -> Self {
        let blocks = bitset
            .chunks_exact(BLOCK_BYTES)
            .map(|chunk| {
                let mut block = [0u32; 8];
                for (word, le) in block.iter_mut().zip(chunk.chunks_exact(4)) {
                    if let Ok(le) = <[u8; 4]>::try_from(le) {
                        *word = u32::from_le_bytes(le);
                    }
                }
                block
            })
            .collect();
        Self { blocks }
    }

    /// A serialized filter (header then bitset) that is exactly `bytes`,
    /// as arrow-rs's `Sbbf::from_bytes`; [`read_prefix`](Self::read_prefix)
    /// checks the header. Fails on trailing bytes.
    ///
    /// ```
    /// use strata_file::bloom::Sbbf;
    ///
    /// let mut filter = Sbbf::new_with_num_of_bytes(64);
    /// filter.insert("x");
    /// let mut bytes = strata_sink::ByteSink::new();
    /// filter.write(&mut bytes);
    /// let mut bytes = bytes.as_slice().to_vec();
    /// assert_eq!(Sbbf::from_bytes(&bytes).unwrap(), filter);
    /// bytes.push(0);
    /// assert!(Sbbf::from_bytes(&bytes).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let (filter, used) = Self::read_prefix(bytes)?;
        if used != bytes.len() {
            return Err(FileError::Corrupt(format!(
                "Bloom filter of {used} bytes followed by {} more",
                bytes.len() - used
            )));
        }
        Ok(filter)
    }

    /// Size of the bitset in bytes.
    pub fn num_bytes(&self) -> usize {
        self.blocks.len() * BLOCK_BYTES
    }

    /// Number of 32-byte blocks.
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Insert a value: its [`AsBytes`] bytes, hashed as the file's column
    /// hashes them (`&42i64`, `"text"`, `b"bytes".as_slice()`,
    /// a [`ByteArray`](crate::data_type::ByteArray)).
    ///
    /// ```
    /// use strata_file::bloom::Sbbf;
    ///
    /// let mut filter = Sbbf::new_with_num_of_bytes(1024);
    /// filter.insert(&7i32);
    /// filter.insert("seven");
    /// assert!(filter.check(&7i32) && filter.check("seven"));
    /// assert!(!filter.check(&7i64)); // eight bytes hash differently (almost surely absent)
    /// ```
    #[inline]
    pub fn insert<T: AsBytes + ?Sized>(&mut self, value: &T) {
        self.insert_hash(Self::hash_bytes(value.as_bytes()));
    }

    /// Whether a value may have been inserted: `false` means certainly
    /// not. Hashes as [`insert`](Self::insert) does.
    #[inline]
    pub fn check<T: AsBytes + ?Sized>(&self, value: &T) -> bool {
        self.check_hash(Self::hash_bytes(value.as_bytes()))
    }

    /// Add a hash (from [`hash_bytes`](Self::hash_bytes)).
    #[inline]
    pub fn insert_hash(&mut self, hash: u64) {
        let index = block_index(hash, self.blocks.len());
        let mask = block_mask(hash);
        if let Some(block) = self.blocks.get_mut(index) {
            for (word, bit) in block.iter_mut().zip(mask) {
                *word |= bit;
            }
        }
    }

    /// Whether a hash may have been inserted: `false` means certainly not.
    #[inline]
    pub fn check_hash(&self, hash: u64) -> bool {
        let index = block_index(hash, self.blocks.len());
        let mask = block_mask(hash);
        match self.blocks.get(index) {
            Some(block) => block.iter().zip(mask).all(|(word, bit)| word & bit != 0),
            None => false,
        }
    }

    /// XXH64 with seed 0 of a value's bytes (for a BYTE_ARRAY or
    /// FIXED_LEN_BYTE_ARRAY value its bytes without a length prefix; for a
    /// number its PLAIN encoding): the one hash of every filter.
    #[inline]
    pub fn hash_bytes(bytes: &[u8]) -> u64 {
        xxhash_rust::xxh64::xxh64(bytes, 0)
    }

    /// The header this filter is written with.
    pub fn header(&self) -> BloomFilterHeader {
        BloomFilterHeader {
            // At most MAX_BLOOM_BYTES (128 MiB), which fits an i32.
            num_bytes: i32::try_from(self.num_bytes()).unwrap_or(i32::MAX),
            algorithm: BloomFilterAlgorithm::Block,
            hash: BloomFilterHash::XxHash,
            compression: BloomFilterCompression::Uncompressed,
        }
    }

    /// Append the serialized filter to `sink`: the Thrift
    /// [`BloomFilterHeader`] then the bitset.
    pub fn write(&self, sink: &mut ByteSink) {
        thrift::encode(&self.header(), sink);
        sink.reserve(self.num_bytes());
        for block in &self.blocks {
            for word in block {
                sink.put_u32_le(*word);
            }
        }
    }

    /// Decode a filter from the start of `bytes` (header then bitset;
    /// trailing bytes are ignored). Returns the filter and the number of
    /// bytes it took.
    ///
    /// The header must name the split-block algorithm, XXH64 and no
    /// compression, and its size must be a power of two within
    /// [`MIN_BLOOM_BYTES`]`..=`[`MAX_BLOOM_BYTES`] and fit in `bytes`.
    pub fn read_prefix(bytes: &[u8]) -> Result<(Self, usize)> {
        let (header_len, num_bytes) = read_header(bytes)?;
        let bitset = bytes
            .get(header_len..)
            .and_then(|rest| rest.get(..num_bytes))
            .ok_or_else(|| {
                FileError::Corrupt(format!(
                    "Bloom filter header declares {num_bytes} bytes, only {} follow it",
                    bytes.len().saturating_sub(header_len)
                ))
            })?;
        Ok((Self::new(bitset), header_len + num_bytes))
    }

    /// Decode a filter from the start of `bytes`; see
    /// [`read_prefix`](Self::read_prefix).
    pub fn read(bytes: &[u8]) -> Result<Self> {
        Self::read_prefix(bytes).map(|(filter, _)| filter)
    }
}

/// Decode and check the header at the start of `bytes`: the split-block
/// algorithm, XXH64, no compression, and a bitset size that is a power of
/// two in [`MIN_BLOOM_BYTES`]`..=`[`MAX_BLOOM_BYTES`]. Returns the
/// header's length and the bitset's.
fn read_header(bytes: &[u8]) -> Result<(usize, usize)> {
    let (header, header_len) = thrift::decode_prefix::<BloomFilterHeader>(bytes)?;
    if header.algorithm != BloomFilterAlgorithm::Block {
        return Err(FileError::Unsupported(format!(
            "Bloom filter algorithm {:?}",
            header.algorithm
        )));
    }
    if header.hash != BloomFilterHash::XxHash {
        return Err(FileError::Unsupported(format!(
            "Bloom filter hash {:?}",
            header.hash
        )));
    }
    if header.compression != BloomFilterCompression::Uncompressed {
        return Err(FileError::Unsupported(format!(
            "Bloom filter compression {:?}",
            header.compression
        )));
    }
    let num_bytes = usize::try_from(header.num_bytes)
        .ok()
        .filter(|n| (MIN_BLOOM_BYTES..=MAX_BLOOM_BYTES).contains(n) && n.is_power_of_two())
        .ok_or_else(|| {
            FileError::Corrupt(format!(
                "Bloom filter size {} is not a power of two within {MIN_BLOOM_BYTES}..={MAX_BLOOM_BYTES}",
                header.num_bytes
            ))
        })?;
    Ok((header_len, num_bytes))
}

/// Bytes read for a Bloom filter header when the column chunk's metadata
/// gives no length: enough for every header of the specification's fields
/// (at most 19 bytes), as arrow-rs reads.
pub const BLOOM_HEADER_SIZE_ESTIMATE: u64 = 20;

/// Most bytes a filter's length may give beyond [`MAX_BLOOM_BYTES`]: room
/// for a header with unknown fields.
const MAX_HEADER_BYTES: u64 = 256;

/// How to read one column chunk's Bloom filter from its file, in at most
/// two reads, whatever does the reading (a [`ChunkReader`](crate::chunk_reader::ChunkReader),
/// an async source).
///
/// [`plan`](Self::plan) turns the chunk's `bloom_filter_offset` and
/// `bloom_filter_length` into the first byte range to read: the whole
/// filter when the length is known, else the header's first
/// [`BLOOM_HEADER_SIZE_ESTIMATE`] bytes. [`next`](Self::next) takes those
/// bytes and gives the filter, or (no length) the range of header and
/// bitset to read next, checked against [`MAX_BLOOM_BYTES`] and the file's
/// length, for [`Sbbf::read`]. No range is sized by a declared length
/// before it is checked: a length is at most [`MAX_BLOOM_BYTES`] and a
/// little header.
///
/// ```
/// use strata_file::bloom::{BloomFilterFetch, BloomFilterStep, Sbbf};
/// # use strata_format::metadata::{ColumnMetaData, CompressionCodec, EncodingSet, Type};
/// # let column = || ColumnMetaData {
/// #     physical_type: Type::Int64,
/// #     encodings: EncodingSet::new(),
/// #     path_in_schema: vec!["id".to_string()].into(),
/// #     codec: CompressionCodec::Uncompressed,
/// #     num_values: 0,
/// #     total_uncompressed_size: 0,
/// #     total_compressed_size: 0,
/// #     data_page_offset: 4,
/// #     dictionary_page_offset: None,
/// #     statistics: None,
/// #     encoding_stats: None,
/// #     size_statistics: None,
/// #     extras: None,
/// # };
///
/// let mut filter = Sbbf::new_with_num_of_bytes(32);
/// filter.insert(&5i64);
/// let mut file = strata_sink::ByteSink::new();
/// file.extend_from_slice(b"PAR1");
/// filter.write(&mut file);
/// let file = file.as_slice();
///
/// let mut meta = column();
/// meta.extras_mut().bloom_filter_offset = Some(4);
/// // Without a length: the header first, then header and bitset.
/// let fetch = BloomFilterFetch::plan(&meta, Some(file.len() as u64)).unwrap().unwrap();
/// let first = fetch.first_range();
/// let read = match fetch.next(&file[first.start as usize..first.end as usize]).unwrap() {
///     BloomFilterStep::Filter(f) => f,
///     BloomFilterStep::Fetch(r) => Sbbf::read(&file[r.start as usize..r.end as usize]).unwrap(),
/// };
/// assert!(read.check(&5i64));
///
/// assert!(BloomFilterFetch::plan(&column(), None).unwrap().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BloomFilterFetch {
    offset: u64,
    first: Range<u64>,
    /// Whether `first` is the whole filter (the metadata gave its length).
    complete: bool,
    file_len: Option<u64>,
}

/// What a [`BloomFilterFetch`] makes of its first read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BloomFilterStep {
    /// The filter, read whole.
    Filter(Sbbf),
    /// Read this range (from the filter's offset: header and bitset) and
    /// decode it with [`Sbbf::read`].
    Fetch(Range<u64>),
}

/// The Bloom filter of chunk `column` of row group `row_group` of
/// `metadata`, when that chunk is encrypted and the file was read with
/// keys (the `encryption` feature): read whole (its metadata must give its
/// length) with `get`, decrypted and decoded. `None` when the chunk is not
/// encrypted (read it as any other); `Some(None)` when it has no filter.
#[cfg(feature = "encryption")]
pub fn read_encrypted_bloom_filter(
    metadata: &crate::metadata::ParquetMetaData,
    (row_group, column): (usize, usize),
    get: impl FnOnce(Range<u64>) -> Result<bytes::Bytes>,
) -> Result<Option<Option<Sbbf>>> {
    let Some(decryptor) = metadata.file_decryptor() else {
        return Ok(None);
    };
    let Some(rg) = metadata.shared_footer().row_groups.get(row_group) else {
        return Ok(None);
    };
    let Some(chunk) = rg.columns.get(column) else {
        return Ok(None);
    };
    let Some(meta) = chunk.meta_data.as_ref() else {
        return Ok(None);
    };
    let Some(offset) = meta.bloom_filter_offset() else {
        return Ok(Some(None));
    };
    let length = meta.bloom_filter_length().ok_or_else(|| {
        FileError::Unsupported("an encrypted Bloom filter without its length".into())
    })?;
    let start = u64::try_from(offset)
        .map_err(|_| FileError::Corrupt(format!("Bloom filter offset {offset}")))?;
    let len = u64::try_from(length)
        .ok()
        .filter(|n| *n <= MAX_BLOOM_BYTES as u64 + MAX_HEADER_BYTES + 64)
        .ok_or_else(|| FileError::Corrupt(format!("Bloom filter length {length}")))?;
    let bytes = get(start..start + len)?;
    let at = (row_group, rg.ordinal());
    match decryptor.unseal_bloom_filter(at, column, chunk.crypto_metadata(), &bytes)? {
        Some(plaintext) => Ok(Some(Some(Sbbf::read(&plaintext)?))),
        None => Ok(None),
    }
}

impl BloomFilterFetch {
    /// The reads of the filter of a column chunk with metadata `meta`, in a
    /// file of `file_len` bytes (`None` when the reader does not know it;
    /// the source then fails a read past its end); `None` if the chunk has
    /// no Bloom filter. Fails on a negative offset or length, or a filter
    /// that does not fit in the file.
    pub fn plan(meta: &ColumnMetaData, file_len: Option<u64>) -> Result<Option<Self>> {
        let Some(offset) = meta.bloom_filter_offset() else {
            return Ok(None);
        };
        let start = u64::try_from(offset)
            .map_err(|_| FileError::Corrupt(format!("Bloom filter offset {offset}")))?;
        let (len, complete) = match meta.bloom_filter_length() {
            Some(length) => {
                let len = u64::try_from(length)
                    .ok()
                    .filter(|n| *n <= MAX_BLOOM_BYTES as u64 + MAX_HEADER_BYTES)
                    .ok_or_else(|| FileError::Corrupt(format!("Bloom filter length {length}")))?;
                (len, true)
            }
            None => {
                let left = file_len.map_or(u64::MAX, |n| n.saturating_sub(start));
                (BLOOM_HEADER_SIZE_ESTIMATE.min(left), false)
            }
        };
        let first = range_in_file(start, len, file_len)?;
        Ok(Some(Self {
            offset: start,
            first,
            complete,
            file_len,
        }))
    }

    /// The first range to read.
    pub fn first_range(&self) -> Range<u64> {
        self.first.clone()
    }

    /// Given the bytes of [`first_range`](Self::first_range): the filter,
    /// or the range to read for it.
    pub fn next(&self, first: &[u8]) -> Result<BloomFilterStep> {
        if self.complete {
            return Sbbf::read(first).map(BloomFilterStep::Filter);
        }
        let (header_len, num_bytes) = read_header(first)?;
        let len = (header_len + num_bytes) as u64;
        range_in_file(self.offset, len, self.file_len).map(BloomFilterStep::Fetch)
    }
}

/// `start..start + len`, checked against the file's length when known.
fn range_in_file(start: u64, len: u64, file_len: Option<u64>) -> Result<Range<u64>> {
    start
        .checked_add(len)
        .filter(|end| file_len.is_none_or(|n| *end <= n))
        .map(|end| start..end)
        .ok_or_else(|| {
            FileError::Corrupt(format!(
                "Bloom filter at offset {start} with length {len} is outside the {} bytes of the file",
                file_len.map_or_else(|| "?".to_string(), |n| n.to_string())
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn salts_are_odd_and_match_the_spec() {
        // From BloomFilter.md; multiplicative hashing needs odd multipliers.
        assert!(SALT.iter().all(|s| s % 2 == 1));
        assert_eq!(SALT[0], 0x47b6137b);
        assert_eq!(SALT[7], 0x5c6bfb31);
    }

    #[test]
    fn mask_sets_one_bit_per_word_from_the_top_five_bits() {
        // key = 1: each product is the salt itself, so the bit index is the
        // salt's top five bits: 0x47b6137b >> 27 = 8, 0x44974d91 >> 27 = 8,
        // 0x8824ad5b >> 27 = 17, 0xa2b7289d >> 27 = 20, 0x705495c7 >> 27 = 14,
        // 0x2df1424b >> 27 = 5, 0x9efc4947 >> 27 = 19, 0x5c6bfb31 >> 27 = 11.
        let mask = block_mask(1);
        let expected_bits = [8, 8, 17, 20, 14, 5, 19, 11];
        for (word, bit) in mask.iter().zip(expected_bits) {
            assert_eq!(*word, 1u32 << bit);
        }
        // key = 0: every product is 0, bit 0 in every word. The upper half
        // of the hash does not take part in the mask.
        assert_eq!(block_mask(0xffff_ffff_0000_0000), [1; 8]);
    }

    #[test]
    fn block_index_scales_the_upper_half() {
        assert_eq!(block_index(0, 16), 0);
        assert_eq!(block_index(0x8000_0000_0000_0000, 16), 8);
        assert_eq!(block_index(0xffff_ffff_ffff_ffff, 16), 15);
        assert_eq!(block_index(0x0fff_ffff_0000_0000, 16), 0);
        assert_eq!(block_index(0x1000_0000_0000_0000, 16), 1);
        // The lower half does not take part in the block choice.
        assert_eq!(block_index(0x0000_0000_ffff_ffff, 16), 0);
    }

    #[test]
    fn insert_sets_exactly_the_masked_bits_of_one_block() {
        let mut filter = Sbbf::new_with_num_of_bytes(4 * BLOCK_BYTES);
        // Upper half 0xC000_0000 of 4 blocks selects block 3; key 1.
        let hash = 0xc000_0000_0000_0001;
        filter.insert_hash(hash);
        for (i, block) in filter.blocks.iter().enumerate() {
            if i == 3 {
                assert_eq!(*block, block_mask(1));
            } else {
                assert_eq!(*block, [0; 8]);
            }
        }
        assert!(filter.check_hash(hash));
        // Same mask, another block: absent.
        assert!(!filter.check_hash(0x4000_0000_0000_0001));
    }

    #[test]
    fn sizes_round_up_to_powers_of_two_and_clamp() {
        assert_eq!(Sbbf::new_with_num_of_bytes(0).num_bytes(), 32);
        assert_eq!(Sbbf::new_with_num_of_bytes(33).num_bytes(), 64);
        assert_eq!(Sbbf::new_with_num_of_bytes(1024).num_bytes(), 1024);
        assert_eq!(clamp_num_bytes(usize::MAX), MAX_BLOOM_BYTES);
        // The spec: 1% needs about 9.6 bits per value, so a million values
        // take ~1.2 MB, rounded up to 2 MiB.
        let bytes = optimal_num_bytes(1_000_000, 0.01).unwrap();
        assert_eq!(bytes, 2 * 1024 * 1024);
        // 0.5% needs ~11.54 bits per value: 1000 values ~ 1443 bytes -> 2048.
        assert_eq!(optimal_num_bytes(1000, 0.005).unwrap(), 2048);
        assert!(optimal_num_bytes(1, 0.0).is_err());
        assert!(optimal_num_bytes(1, 1.0).is_err());
        assert!(optimal_num_bytes(1, f64::NAN).is_err());
        assert_eq!(optimal_num_bytes(u64::MAX, 0.01).unwrap(), MAX_BLOOM_BYTES);
    }

    #[test]
    fn typed_hashes_hash_the_plain_encoding() {
        // A value goes in by its AsBytes bytes: set bits as its PLAIN
        // encoding's hash does.
        let inserted = |f: &dyn Fn(&mut Sbbf)| {
            let mut filter = Sbbf::new_with_num_of_bytes(1024);
            f(&mut filter);
            filter
        };
        let by_hash = |bytes: &[u8]| inserted(&|s| s.insert_hash(Sbbf::hash_bytes(bytes)));
        assert_eq!(inserted(&|s| s.insert(&7i32)), by_hash(&[7, 0, 0, 0]));
        assert_eq!(inserted(&|s| s.insert(&-1i64)), by_hash(&[0xff; 8]));
        assert_eq!(
            inserted(&|s| s.insert(&1.0f32)),
            by_hash(&0x3f80_0000u32.to_le_bytes())
        );
        assert_eq!(
            inserted(&|s| s.insert(&crate::data_type::Int96([1, 2, 3]))),
            by_hash(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
        );
        assert_eq!(inserted(&|s| s.insert("ab")), by_hash(b"ab"));
        // XXH64 of the empty input with seed 0 (xxHash reference value).
        assert_eq!(Sbbf::hash_bytes(b""), 0xef46_db37_51d8_e999);
    }

    #[test]
    fn no_false_negatives_and_false_positive_rate_near_target() {
        let mut filter = Sbbf::new_with_ndv_fpp(10_000, 0.01).unwrap();
        for i in 0..10_000i64 {
            filter.insert(&i);
        }
        assert!((0..10_000i64).all(|i| filter.check(&i)));
        let trials = 100_000i64;
        let false_positives = (1_000_000..1_000_000 + trials)
            .filter(|i| filter.check(i))
            .count();
        let rate = false_positives as f64 / trials as f64;
        // Rounding the size up to a power of two only lowers the rate.
        assert!(rate < 0.01, "false-positive rate {rate}");
    }

    #[test]
    fn write_then_read_round_trips_and_checks_sizes() {
        let mut filter = Sbbf::new_with_num_of_bytes(64);
        filter.insert(b"hello".as_slice());
        let mut sink = ByteSink::new();
        filter.write(&mut sink);
        let bytes = sink.as_slice();
        let (read, used) = Sbbf::read_prefix(bytes).unwrap();
        assert_eq!(read, filter);
        assert_eq!(used, bytes.len());
        assert!(read.check(b"hello".as_slice()));
        // Truncated bitset.
        assert!(Sbbf::read(&bytes[..bytes.len() - 1]).is_err());
        // A header claiming more than the maximum.
        let mut header = filter.header();
        header.num_bytes = i32::MAX;
        let mut sink = ByteSink::new();
        thrift::encode(&header, &mut sink);
        assert!(Sbbf::read(sink.as_slice()).is_err());
        // Not a power of two.
        header.num_bytes = 48;
        let mut sink = ByteSink::new();
        thrift::encode(&header, &mut sink);
        sink.extend_from_slice(&[0; 48]);
        assert!(Sbbf::read(sink.as_slice()).is_err());
    }
}
