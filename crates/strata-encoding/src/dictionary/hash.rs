//! The hash function and open-addressing table behind [`DictEncoder`].
//!
//! The table stores no values: a slot is one `u64` holding the low 32 bits
//! of the value's hash (the tag) and the value's dictionary index plus one
//! (zero marks an empty slot). Values live in the dictionary store, so an
//! entry costs no allocation of its own. Probing is linear and the load
//! factor stays at or below one half, so a probe always meets an empty slot.
//! Because the tag is kept, growing the table rehashes without touching the
//! values.
//!
//! The hash is a folded 64×64→128-bit multiply over 8-byte words: fast and
//! well mixed in its low bits (which pick the slot), but not resistant to
//! adversarial collisions; a column writer bounds the dictionary size anyway.
//!
//! [`DictEncoder`]: crate::DictEncoder

use crate::error::{EncodingError, Result};

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xD6E8_FEB8_6659_FD93;
const SEED: u64 = 0x2D35_8DCC_AA6C_78A5;

/// Multiply to 128 bits and fold the halves together.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// Hash of one 64-bit word (the bits of a fixed-width value).
#[inline(always)]
pub(crate) fn hash_u64(v: u64) -> u64 {
    fold(v ^ SEED, K1)
}

/// Hash of a 128-bit key (INT96 values).
#[inline(always)]
pub(crate) fn hash_u128(v: u128) -> u64 {
    fold(fold(v as u64 ^ SEED, K1) ^ (v >> 64) as u64, K2)
}

/// Little-endian `u64` at `bytes[at..at + 8]` (the caller checks the
/// bounds).
#[inline(always)]
fn read8(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Little-endian `u32` at `bytes[at..at + 4]`.
#[inline(always)]
fn read4(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

/// The bytes of a string shorter than 8 in one word, read with at most two
/// loads from the string itself (overlapping for 4 to 7 bytes; bytes 0,
/// `n / 2` and `n - 1` for 1 to 3), so no partial word goes through the
/// stack. With the length mixed in by the caller, distinct strings give
/// distinct words.
#[inline(always)]
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 4 {
        (u64::from(read4(bytes, 0)) << 32) | u64::from(read4(bytes, n - 4))
    } else if n > 0 {
        u64::from(bytes[0]) | (u64::from(bytes[n / 2]) << 8) | (u64::from(bytes[n - 1]) << 16)
    } else {
        0
    }
}

/// Hash of a byte string, 8 bytes at a time; a partial last word is read
/// as the string's last 8 bytes (overlapping the word before), which
/// avoids a store-to-load stall on a copied tail.
#[inline]
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let mut h = SEED ^ n as u64;
    if n < 8 {
        return fold(fold(h ^ short_word(bytes), K1), K2);
    }
    let (words, tail) = bytes.as_chunks::<8>();
    for w in words {
        h = fold(h ^ u64::from_le_bytes(*w), K1);
    }
    if !tail.is_empty() {
        h = fold(h ^ read8(bytes, n - 8), K1);
    }
    fold(h, K2)
}

/// Whether two byte strings are equal; strings of up to 32 bytes are
/// compared with a few overlapping word loads instead of a `memcmp` call
/// (dictionary values are mostly short).
#[inline(always)]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=7 => short_word(a) == short_word(b),
        8..=16 => read8(a, 0) == read8(b, 0) && read8(a, n - 8) == read8(b, n - 8),
        17..=32 => {
            read8(a, 0) == read8(b, 0)
                && read8(a, 8) == read8(b, 8)
                && read8(a, n - 16) == read8(b, n - 16)
                && read8(a, n - 8) == read8(b, n - 8)
        }
        _ => a == b,
    }
}

/// Smallest table, in slots, once something is inserted.
const MIN_SLOTS: usize = 32;

/// Largest number of dictionary entries: indices are `u32` and the slot
/// stores `index + 1`.
pub(crate) const MAX_ENTRIES: usize = u32::MAX as usize - 1;

/// Open-addressing table from hash to dictionary index. A new table holds
/// no heap memory.
#[derive(Debug, Default, Clone)]
pub struct HashTable {
    slots: Vec<u64>,
}

impl HashTable {
    /// An empty table; no heap memory until the first insert.
    pub(crate) const fn new() -> Self {
        Self { slots: Vec::new() }
    }

    /// Bytes of heap memory held.
    pub(crate) fn heap_size(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u64>()
    }

    /// Forget every entry, keeping the allocation.
    pub(crate) fn clear(&mut self) {
        self.slots.clear();
    }

    /// The index of the entry with hash `hash` for which `eq(index)` holds,
    /// or, when there is none, `next_index` (the store's current length) is
    /// recorded for it and returned with `true`: the caller must then append
    /// the value to its store.
    #[inline]
    pub(crate) fn find_or_insert(
        &mut self,
        hash: u64,
        next_index: usize,
        mut eq: impl FnMut(usize) -> bool,
    ) -> Result<(u32, bool)> {
        if next_index.saturating_add(1).saturating_mul(2) > self.slots.len() {
            self.grow(next_index)?;
        }
        let mask = self.slots.len() - 1;
        let tag = hash as u32;
        let mut pos = tag as usize & mask;
        loop {
            let slot = self.slots[pos];
            if slot == 0 {
                // `grow` refused tables past MAX_ENTRIES, so this fits.
                let index = next_index as u32;
                self.slots[pos] = (u64::from(tag) << 32) | u64::from(index + 1);
                return Ok((index, true));
            }
            if (slot >> 32) as u32 == tag {
                let index = (slot as u32).wrapping_sub(1);
                if eq(index as usize) {
                    return Ok((index, false));
                }
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Double the table (or create it) and re-place every entry by its tag.
    /// The entry in the home slot of `hash`, if that slot holds one with
    /// the same tag (what a lookup reads first; the entry may still be
    /// another value).
    #[inline]
    pub(crate) fn home_entry(&self, hash: u64) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let tag = hash as u32;
        let slot = *self.slots.get(tag as usize & mask)?;
        (slot != 0 && (slot >> 32) as u32 == tag).then(|| (slot as u32).wrapping_sub(1) as usize)
    }

    #[cold]
    fn grow(&mut self, entries: usize) -> Result<()> {
        if entries >= MAX_ENTRIES {
            return Err(EncodingError::Unsupported(format!(
                "a dictionary of more than {MAX_ENTRIES} entries"
            )));
        }
        let new_len = (self.slots.len() * 2).max(MIN_SLOTS);
        if self.slots.is_empty() {
            self.slots.resize(new_len, 0);
            return Ok(());
        }
        let old = std::mem::replace(&mut self.slots, vec![0; new_len]);
        let mask = new_len - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut pos = (slot >> 32) as usize & mask;
            while self.slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            self.slots[pos] = slot;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_it_inserted_across_growth() {
        let keys: Vec<u64> = (0..5000u64).map(|i| i * 7919 % 3001).collect();
        let mut stored: Vec<u64> = Vec::new();
        let mut table = HashTable::new();
        assert_eq!(table.heap_size(), 0);
        for &k in &keys {
            let (idx, inserted) = table
                .find_or_insert(hash_u64(k), stored.len(), |i| stored[i] == k)
                .unwrap();
            if inserted {
                assert_eq!(idx as usize, stored.len());
                stored.push(k);
            }
            assert_eq!(stored[idx as usize], k);
        }
        // 3001 distinct residues.
        assert_eq!(stored.len(), 3001);
        table.clear();
        let (idx, inserted) = table.find_or_insert(hash_u64(1), 0, |_| true).unwrap();
        assert_eq!((idx, inserted), (0, true));
    }

    #[test]
    fn short_comparisons_see_every_byte() {
        // Every length up to 40, a difference at every position.
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert!(bytes_eq(&a, &a.clone()));
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x10;
                assert!(!bytes_eq(&a, &b), "length {n}, byte {at}");
                assert_ne!(hash_bytes(&a), hash_bytes(&b), "length {n}, byte {at}");
            }
            let mut longer = a.clone();
            longer.push(0);
            assert!(!bytes_eq(&a, &longer));
            assert_ne!(hash_bytes(&a), hash_bytes(&longer), "length {n}");
        }
    }

    #[test]
    fn byte_hash_depends_on_every_byte_and_length() {
        let base = hash_bytes(b"abcdefghij");
        assert_ne!(base, hash_bytes(b"abcdefghik"));
        assert_ne!(base, hash_bytes(b"bbcdefghij"));
        assert_ne!(hash_bytes(b""), hash_bytes(b"\0"));
        assert_ne!(hash_bytes(b"\0"), hash_bytes(b"\0\0"));
        assert_ne!(hash_u128(1), hash_u128(1 << 64));
    }
}
