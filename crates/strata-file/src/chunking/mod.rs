//! Content-defined chunking: where a column's data pages end when the
//! writer is asked to cut them by content
//! ([`CdcOptions`]).
//!
//! # Design
//!
//! A content-addressed store keeps a byte range once however many files
//! hold it. Pages cut every N values defeat it: one row inserted near the
//! start shifts every later page boundary, and no later page is the same.
//! Here each leaf column is cut where a rolling hash of its recent bytes
//! hits a pattern, so after an edit the boundaries fall in the same places
//! again as soon as the hash window has passed it, and the pages between
//! them are the same bytes as before.
//!
//! - **What is hashed.** For each slot of the column (each level), its
//!   definition level (2 bytes, little-endian, when the column has any),
//!   its repetition level (likewise), and, when the slot holds a value,
//!   that value's bytes: a fixed-width value's little-endian bytes at the
//!   width the caller holds it, a byte array's bytes without a length, a
//!   boolean as one byte. The caller feeds the value bytes through
//!   [`ChunkValues`]; the Arrow writer feeds Arrow's bytes (a dictionary
//!   array's keys), as arrow-rs and Arrow C++ do.
//! - **The hash.** A gear hash: for each byte `b`,
//!   `h = (h << 1) + T[b]`, so a byte leaves the hash after 64 more. A
//!   slot whose bytes made the top `k` bits of `h` all zero is a *hit*.
//!   There are eight tables `T` (module `gear`); a boundary needs eight hits,
//!   one with each table in turn, which makes chunk sizes cluster around
//!   the middle of the range (a sum of eight waits) instead of spreading
//!   as one wait would.
//! - **Sizes.** Every byte fed counts toward the chunk's size. Until the
//!   size reaches `min_chunk_size` the hash is not updated, so no boundary
//!   falls there; at `max_chunk_size` a boundary is forced. `k` is
//!   `floor(log2((max - min) / 2 / 8)) - norm_level`: the expected wait
//!   for one hit is `2^k` bytes, eight of them about the middle of the
//!   range.
//! - **Where the cut goes.** The hit and size tests run after each slot;
//!   when they report a boundary, that slot starts the next chunk. In a
//!   repeated column they run only at record starts (repetition level 0),
//!   so a record is never split; a long record can then pass the maximum.
//! - **State.** The hash, the table in use and the size carry over from
//!   one call to the next (batches, row groups): the column is one
//!   stream. A boundary resets the size only; a forced one leaves the
//!   run of tables where it was.
//!
//! The tables, the mask and the rules are Arrow C++'s and arrow-rs's, so
//! for the same values all three find the same boundaries
//! (`tests/content_defined_chunking.rs` checks strata's pages against
//! arrow-rs's). Each chunk becomes at least one page: the writer cuts a
//! page at each boundary and its size and row limits still apply inside a
//! chunk. One difference in the pages: a boundary on the first slot of a
//! batch of a repeated column ends the page the previous batch left open
//! here, as it does for other columns; arrow-rs and Arrow C++ leave that
//! page open (and so depend on where batches begin).

mod gear;

use crate::error::{FileError, Result};
use crate::properties::CdcOptions;
use gear::{GEAR_TABLES, TABLE_COUNT};

/// The rolling hash and the running chunk size, which values roll bytes
/// into.
#[derive(Debug, Clone)]
pub struct RollingHash {
    hash: u64,
    mask: u64,
    /// The table the current run of hits uses.
    table: usize,
    /// Whether a byte since the last test made a hit.
    hit: bool,
    /// Bytes fed since the last boundary.
    size: usize,
    min: usize,
    max: usize,
}

impl RollingHash {
    /// Feed `bytes`: counted toward the chunk's size, and hashed once the
    /// size has reached the minimum (a value that crosses it is hashed
    /// whole).
    #[inline]
    pub fn roll(&mut self, bytes: &[u8]) {
        self.size += bytes.len();
        if self.size < self.min {
            return;
        }
        let table = &GEAR_TABLES[self.table];
        let mut hash = self.hash;
        let mut hit = false;
        for &b in bytes {
            hash = (hash << 1).wrapping_add(table[b as usize]);
            hit |= hash & self.mask == 0;
        }
        self.hash = hash;
        self.hit |= hit;
    }

    /// Feed a level (2 bytes, little-endian).
    #[inline]
    fn roll_level(&mut self, level: i16) {
        self.roll(&level.to_le_bytes());
    }

    /// Whether a boundary falls here: the eighth hit of a run, or the
    /// maximum size reached.
    #[inline]
    fn boundary(&mut self) -> bool {
        if self.hit {
            self.hit = false;
            self.table += 1;
            if self.table == TABLE_COUNT {
                self.table = 0;
                self.size = 0;
                return true;
            }
        }
        if self.size >= self.max {
            self.size = 0;
            return true;
        }
        false
    }
}

/// The present values of a batch, in order, as bytes to hash: the `i`-th
/// call to [`roll_next`](Self::roll_next) rolls the `i`-th value.
pub trait ChunkValues {
    /// Roll the next value's bytes into `hash`.
    fn roll_next(&mut self, hash: &mut RollingHash);
}

/// Finds one leaf column's content-defined boundaries, batch after batch.
///
/// ```
/// use strata_file::chunking::{ChunkValues, ContentDefinedChunker, RollingHash};
/// use strata_file::properties::CdcOptions;
///
/// /// Values `0..` as 8-byte integers.
/// struct Counting(u64);
/// impl ChunkValues for Counting {
///     fn roll_next(&mut self, hash: &mut RollingHash) {
///         hash.roll(&self.0.to_le_bytes());
///         self.0 += 1;
///     }
/// }
///
/// let options = CdcOptions { min_chunk_size: 1024, max_chunk_size: 8192, norm_level: 0 };
/// let mut chunker = ContentDefinedChunker::try_new(&options, 0, 0)?;
/// let mut cuts = Vec::new();
/// chunker.boundaries(None, None, 100_000, &mut Counting(0), &mut cuts);
/// // 800,000 bytes in chunks of 1 KiB to 8 KiB.
/// assert!(cuts.len() > 800_000 / 8192 && cuts.len() < 800_000 / 1024);
/// assert!(cuts.windows(2).all(|w| (128..=1024).contains(&(w[1] - w[0]))));
/// # Ok::<(), strata_file::FileError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ContentDefinedChunker {
    hash: RollingHash,
    max_def: i16,
    max_rep: i16,
}

impl ContentDefinedChunker {
    /// A chunker for a leaf column with these maximum levels. Fails for
    /// options without room for a boundary: a minimum of 0, a maximum not
    /// above the minimum, or a normalisation level that leaves the hash
    /// mask empty or full.
    pub fn try_new(options: &CdcOptions, max_def: i16, max_rep: i16) -> Result<Self> {
        let (min, max) = (options.min_chunk_size, options.max_chunk_size);
        if min == 0 || max <= min {
            return Err(FileError::InvalidArgument(format!(
                "content-defined chunking needs 0 < min_chunk_size < max_chunk_size, \
                 got {min} and {max}"
            )));
        }
        // Half the range past the minimum, per table.
        let target = (max - min) / 2 / TABLE_COUNT;
        let bits = if target == 0 {
            0
        } else {
            target.ilog2() as i64
        };
        let bits = bits - i64::from(options.norm_level);
        if !(1..=63).contains(&bits) {
            return Err(FileError::InvalidArgument(format!(
                "content-defined chunking's hash mask would have {bits} bits \
                 (norm_level {}); it needs 1 to 63",
                options.norm_level
            )));
        }
        Ok(Self {
            hash: RollingHash {
                hash: 0,
                mask: u64::MAX << (64 - bits),
                table: 0,
                hit: false,
                size: 0,
                min,
                max,
            },
            max_def,
            max_rep,
        })
    }

    /// The boundaries of the next `num_levels` slots of the column:
    /// appends to `out` each slot index (in `0..num_levels`, ascending)
    /// before which a chunk ends. A boundary at 0 ends the chunk the
    /// previous batch left open. `def` and `rep` are the slots' levels
    /// (`None` where the column's maximum is 0); `values` rolls the present
    /// values, one per slot at the maximum definition level.
    pub fn boundaries<V: ChunkValues>(
        &mut self,
        def: Option<&[i16]>,
        rep: Option<&[i16]>,
        num_levels: usize,
        values: &mut V,
        out: &mut Vec<usize>,
    ) {
        let h = &mut self.hash;
        let max_def = self.max_def;
        match (
            def.filter(|_| max_def > 0),
            rep.filter(|_| self.max_rep > 0),
        ) {
            (None, _) => {
                for i in 0..num_levels {
                    values.roll_next(h);
                    if h.boundary() {
                        out.push(i);
                    }
                }
            }
            (Some(def), None) => {
                for (i, &d) in def.iter().enumerate().take(num_levels) {
                    h.roll_level(d);
                    if d == max_def {
                        values.roll_next(h);
                    }
                    if h.boundary() {
                        out.push(i);
                    }
                }
            }
            (Some(def), Some(rep)) => {
                for (i, (&d, &r)) in def.iter().zip(rep).enumerate().take(num_levels) {
                    h.roll_level(d);
                    h.roll_level(r);
                    if d == max_def {
                        values.roll_next(h);
                    }
                    if r == 0 && h.boundary() {
                        out.push(i);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_their_definition() {
        use md5::{Digest, Md5};
        for (t, table) in GEAR_TABLES.iter().enumerate() {
            for (b, &entry) in table.iter().enumerate() {
                let mut input = vec![t as u8; 64];
                input.extend(std::iter::repeat_n(b as u8, 64));
                let digest = Md5::digest(&input);
                let first = u64::from_be_bytes(digest[..8].try_into().unwrap());
                assert_eq!(entry, first, "table {t} entry {b}");
            }
        }
    }

    #[test]
    fn mask_bits_follow_the_sizes_and_the_level() {
        let mask = |min, max, norm_level| {
            ContentDefinedChunker::try_new(
                &CdcOptions {
                    min_chunk_size: min,
                    max_chunk_size: max,
                    norm_level,
                },
                0,
                0,
            )
            .map(|c| c.hash.mask.count_ones())
        };
        // (640 KiB - 256 KiB) / 8 = 49,152 bytes: 15 bits.
        assert_eq!(mask(256 << 10, 1 << 20, 0).unwrap(), 15);
        assert_eq!(mask(256 << 10, 1 << 20, 1).unwrap(), 14);
        assert_eq!(mask(256 << 10, 1 << 20, -2).unwrap(), 17);
        assert!(mask(0, 10, 0).is_err());
        assert!(mask(10, 10, 0).is_err());
        assert!(mask(10, 11, 0).is_err()); // no bits left
        assert!(mask(256 << 10, 1 << 20, 15).is_err());
        assert!(mask(256 << 10, 1 << 20, -49).is_err());
    }
}
