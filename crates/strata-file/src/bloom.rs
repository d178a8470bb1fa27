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
//! bitset, with each word little-endian.
//!
//! ```
//! use strata_file::bloom::Sbbf;
//!
//! let mut filter = Sbbf::new(1000, 0.01).unwrap();
//! filter.insert_bytes(b"parquet");
//! filter.insert_i64(42);
//! assert!(filter.check_bytes(b"parquet"));
//! assert!(filter.check_i64(42));
//!
//! let mut file = strata_sink::ByteSink::new();
//! filter.write(&mut file);
//! let read = Sbbf::read(file.as_slice()).unwrap();
//! assert_eq!(read, filter);
//! ```

use strata_format::metadata::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
};
use strata_format::thrift;
use strata_sink::ByteSink;

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
/// `-8 / ln(1 - fpp^(1/8))`), rounded up to a power of two and clamped to
/// [`MIN_BLOOM_BYTES`]`..=`[`MAX_BLOOM_BYTES`].
///
/// Fails unless `0 < fpp < 1`.
pub fn optimal_num_bytes(num_distinct: u64, fpp: f64) -> Result<usize> {
    if !(fpp > 0.0 && fpp < 1.0) {
        return Err(FileError::InvalidArgument(format!(
            "Bloom filter false-positive probability must be in (0, 1), got {fpp}"
        )));
    }
    let bits_per_value = -8.0 / (1.0 - fpp.powf(1.0 / 8.0)).ln();
    let bits = bits_per_value * num_distinct as f64;
    // A float that overflows usize saturates in the cast, then clamps.
    let bytes = (bits / 8.0).ceil() as usize;
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
    /// An empty filter sized for `num_distinct` values at false-positive
    /// probability `fpp` (see [`optimal_num_bytes`]). Fails unless
    /// `0 < fpp < 1`.
    pub fn new(num_distinct: u64, fpp: f64) -> Result<Self> {
        Ok(Self::with_num_bytes(optimal_num_bytes(num_distinct, fpp)?))
    }

    /// An empty filter of `num_bytes` bytes, rounded up to a power of two
    /// and clamped to [`MIN_BLOOM_BYTES`]`..=`[`MAX_BLOOM_BYTES`].
    pub fn with_num_bytes(num_bytes: usize) -> Self {
        let num_bytes = clamp_num_bytes(num_bytes);
        Self {
            blocks: vec![[0u32; 8]; num_bytes / BLOCK_BYTES],
        }
    }

    /// Size of the bitset in bytes.
    pub fn num_bytes(&self) -> usize {
        self.blocks.len() * BLOCK_BYTES
    }

    /// Add a hash (from [`hash_bytes`](Self::hash_bytes) or a typed helper).
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

    /// XXH64 with seed 0 of raw bytes: the hash of a BYTE_ARRAY or
    /// FIXED_LEN_BYTE_ARRAY value (its bytes, without a length prefix).
    #[inline]
    pub fn hash_bytes(bytes: &[u8]) -> u64 {
        xxhash_rust::xxh64::xxh64(bytes, 0)
    }

    /// Hash of an INT32 value (its 4 little-endian bytes).
    #[inline]
    pub fn hash_i32(value: i32) -> u64 {
        Self::hash_bytes(&value.to_le_bytes())
    }

    /// Hash of an INT64 value (its 8 little-endian bytes).
    #[inline]
    pub fn hash_i64(value: i64) -> u64 {
        Self::hash_bytes(&value.to_le_bytes())
    }

    /// Hash of a FLOAT value (its 4 little-endian IEEE 754 bytes).
    #[inline]
    pub fn hash_f32(value: f32) -> u64 {
        Self::hash_bytes(&value.to_le_bytes())
    }

    /// Hash of a DOUBLE value (its 8 little-endian IEEE 754 bytes).
    #[inline]
    pub fn hash_f64(value: f64) -> u64 {
        Self::hash_bytes(&value.to_le_bytes())
    }

    /// Hash of an INT96 value given as its three little-endian words.
    #[inline]
    pub fn hash_int96(words: [u32; 3]) -> u64 {
        let mut bytes = [0u8; 12];
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Self::hash_bytes(&bytes)
    }

    /// Insert a byte array value.
    #[inline]
    pub fn insert_bytes(&mut self, value: &[u8]) {
        self.insert_hash(Self::hash_bytes(value));
    }

    /// Whether a byte array value may be present.
    #[inline]
    pub fn check_bytes(&self, value: &[u8]) -> bool {
        self.check_hash(Self::hash_bytes(value))
    }

    /// Insert an INT32 value.
    #[inline]
    pub fn insert_i32(&mut self, value: i32) {
        self.insert_hash(Self::hash_i32(value));
    }

    /// Whether an INT32 value may be present.
    #[inline]
    pub fn check_i32(&self, value: i32) -> bool {
        self.check_hash(Self::hash_i32(value))
    }

    /// Insert an INT64 value.
    #[inline]
    pub fn insert_i64(&mut self, value: i64) {
        self.insert_hash(Self::hash_i64(value));
    }

    /// Whether an INT64 value may be present.
    #[inline]
    pub fn check_i64(&self, value: i64) -> bool {
        self.check_hash(Self::hash_i64(value))
    }

    /// Insert a FLOAT value.
    #[inline]
    pub fn insert_f32(&mut self, value: f32) {
        self.insert_hash(Self::hash_f32(value));
    }

    /// Whether a FLOAT value may be present.
    #[inline]
    pub fn check_f32(&self, value: f32) -> bool {
        self.check_hash(Self::hash_f32(value))
    }

    /// Insert a DOUBLE value.
    #[inline]
    pub fn insert_f64(&mut self, value: f64) {
        self.insert_hash(Self::hash_f64(value));
    }

    /// Whether a DOUBLE value may be present.
    #[inline]
    pub fn check_f64(&self, value: f64) -> bool {
        self.check_hash(Self::hash_f64(value))
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
                    "Bloom filter size {} is not a power of two in {MIN_BLOOM_BYTES}..={MAX_BLOOM_BYTES}",
                    header.num_bytes
                ))
            })?;
        let bitset = bytes
            .get(header_len..)
            .and_then(|rest| rest.get(..num_bytes))
            .ok_or_else(|| {
                FileError::Corrupt(format!(
                    "Bloom filter header declares {num_bytes} bytes, only {} follow it",
                    bytes.len().saturating_sub(header_len)
                ))
            })?;
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
        Ok((Self { blocks }, header_len + num_bytes))
    }

    /// Decode a filter from the start of `bytes`; see
    /// [`read_prefix`](Self::read_prefix).
    pub fn read(bytes: &[u8]) -> Result<Self> {
        Self::read_prefix(bytes).map(|(filter, _)| filter)
    }
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
        let mut filter = Sbbf::with_num_bytes(4 * BLOCK_BYTES);
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
        assert_eq!(Sbbf::with_num_bytes(0).num_bytes(), 32);
        assert_eq!(Sbbf::with_num_bytes(33).num_bytes(), 64);
        assert_eq!(Sbbf::with_num_bytes(1024).num_bytes(), 1024);
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
        assert_eq!(Sbbf::hash_i32(7), Sbbf::hash_bytes(&[7, 0, 0, 0]));
        assert_eq!(Sbbf::hash_i64(-1), Sbbf::hash_bytes(&[0xff; 8]));
        assert_eq!(
            Sbbf::hash_f32(1.0),
            Sbbf::hash_bytes(&0x3f80_0000u32.to_le_bytes())
        );
        assert_eq!(
            Sbbf::hash_int96([1, 2, 3]),
            Sbbf::hash_bytes(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
        );
        // XXH64 of the empty input with seed 0 (xxHash reference value).
        assert_eq!(Sbbf::hash_bytes(b""), 0xef46_db37_51d8_e999);
    }

    #[test]
    fn no_false_negatives_and_false_positive_rate_near_target() {
        let mut filter = Sbbf::new(10_000, 0.01).unwrap();
        for i in 0..10_000i64 {
            filter.insert_i64(i);
        }
        assert!((0..10_000i64).all(|i| filter.check_i64(i)));
        let trials = 100_000i64;
        let false_positives = (1_000_000..1_000_000 + trials)
            .filter(|i| filter.check_i64(*i))
            .count();
        let rate = false_positives as f64 / trials as f64;
        // Rounding the size up to a power of two only lowers the rate.
        assert!(rate < 0.01, "false-positive rate {rate}");
    }

    #[test]
    fn write_then_read_round_trips_and_checks_sizes() {
        let mut filter = Sbbf::with_num_bytes(64);
        filter.insert_bytes(b"hello");
        let mut sink = ByteSink::new();
        filter.write(&mut sink);
        let bytes = sink.as_slice();
        let (read, used) = Sbbf::read_prefix(bytes).unwrap();
        assert_eq!(read, filter);
        assert_eq!(used, bytes.len());
        assert!(read.check_bytes(b"hello"));
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
