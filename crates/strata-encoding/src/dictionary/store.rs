//! Dictionary storage per value type: how values are deduplicated on the
//! encoder side, written PLAIN to the dictionary page, read back from it,
//! and gathered by index on the decoder side.
//!
//! The same type holds a dictionary on both sides: `Vec<T>` for fixed-width
//! numbers, [`ByteArrayBuffer`] (one values buffer plus offsets) for byte
//! arrays and [`FixedLenByteArrayBuffer`] for fixed-length byte arrays. Each
//! implementation has its own monomorphic insert and gather loops.

use std::fmt::Debug;

use strata_sink::append::{OVERCOPY, ShortAppender};
use strata_sink::rle::RleDecoder;
use strata_sink::{ByteSink, SinkError};

use super::hash::{HashTable, bytes_eq, hash_bytes, hash_u64, hash_u128, process_seed, tag_of};
use crate::error::{EncodingError, Result};
use crate::plain::PlainByteArrayDecoder;
use crate::traits::Decoder;
use crate::types::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, FixedLenBatch, FixedLenByteArray,
    FixedLenByteArrayBuffer, FixedWidthValue, Int96, OffsetSize, ValueBatch, ValueType,
};

/// Indices decoded per step of a byte-array gather (a stack buffer).
const GATHER_CHUNK: usize = 512;

/// What a dictionary store does; implemented by `Vec<T>`,
/// [`ByteArrayBuffer`] and [`FixedLenByteArrayBuffer`]. Sealed: it lives in
/// a private module.
pub trait DictStore<T: ValueType + ?Sized>: Debug + Send + Sync + Sized + 'static {
    /// An empty store of the same kind (same width) as `self`.
    fn empty_like(&self) -> Self;

    /// Number of entries.
    fn entries(&self) -> usize;

    /// Bytes of heap memory held.
    fn heap_bytes(&self) -> usize;

    /// Add every value of `batch` not yet present, and push the index of
    /// each value to `indices`. `plain_size` grows by the PLAIN size of each
    /// new entry.
    fn insert_batch(
        &mut self,
        table: &mut HashTable,
        batch: T::Batch<'_>,
        indices: &mut Vec<u32>,
        plain_size: &mut usize,
    ) -> Result<()>;

    /// Append the PLAIN encoding of every entry to `page`.
    fn write_plain(&self, page: &mut ByteSink) -> Result<()>;

    /// Read `n` PLAIN values from `page` (FIXED_LEN_BYTE_ARRAY values are
    /// `width` bytes). Fails before allocating if `page` cannot hold them.
    fn decode_plain(page: &[u8], n: usize, width: usize) -> Result<Self>;

    /// Decode up to `n` indices from `rle` and append (or write) the
    /// entries they name to `out`; returns how many were written.
    fn gather(&self, rle: &mut RleDecoder<'_>, out: &mut T::Out, n: usize) -> Result<usize>;

    /// Entry `index` as a batch of one value, or `None` past the end.
    fn entry(&self, index: usize) -> Option<T::Batch<'_>>;
}

/// The error for a byte-array dictionary whose values pass 4 GiB, where
/// its table's 32-bit keys (where each entry starts) end.
fn too_large_to_key(bytes: usize) -> EncodingError {
    EncodingError::Unsupported(format!(
        "a byte-array dictionary of more than 4 GiB of values ({bytes} bytes)"
    ))
}

fn truncated_indices() -> EncodingError {
    EncodingError::Truncated("dictionary indices")
}

fn out_of_range(index: u32, len: usize) -> EncodingError {
    EncodingError::Sink(SinkError::IndexOutOfRange {
        index: u64::from(index),
        len,
    })
}

/// Check that every index is below `len`; report the first that is not.
#[inline]
pub(crate) fn check_indices(indices: &[u32], len: usize) -> Result<()> {
    if indices_below(indices, len) {
        return Ok(());
    }
    let bad = indices
        .iter()
        .copied()
        .find(|&i| i as usize >= len)
        .unwrap_or(0);
    Err(out_of_range(bad, len))
}

/// Whether every index of `indices` is below `len`: the range check of a
/// batch of dictionary indices before a gather
/// ([`strata_sink::bitpack::all_below`], vectorised, with an AVX2 build on
/// x86-64).
///
/// ```
/// use strata_encoding::indices_below;
/// assert!(indices_below(&[0, 4, 2], 5));
/// assert!(!indices_below(&[0, 5, 2], 5));
/// assert!(indices_below(&[], 0));
/// assert!(!indices_below(&[0], 0));
/// assert!(indices_below(&[u32::MAX], 1 << 40));
/// ```
#[inline]
pub fn indices_below(indices: &[u32], len: usize) -> bool {
    match u32::try_from(len) {
        Ok(len) => strata_sink::bitpack::all_below(indices, len),
        // Every u32 is below a longer dictionary.
        Err(_) => true,
    }
}

/// Fill `idx` from `rle`, failing if the stream ends first.
#[inline]
fn read_indices(rle: &mut RleDecoder<'_>, idx: &mut [u32], len: usize) -> Result<()> {
    if rle.get_batch(idx)? < idx.len() {
        return Err(truncated_indices());
    }
    check_indices(idx, len)
}

/// Fixed-width values a dictionary can key by their bits: `i32`, `i64`,
/// `f32`, `f64`, [`Int96`]. Floats are compared and hashed by bit pattern,
/// so every NaN payload is its own entry and `-0.0` differs from `0.0`.
pub trait DictKey: FixedWidthValue {
    /// The bit pattern compared for equality.
    type Bits: Copy + Eq;
    /// The bit pattern of `self`.
    fn bits(self) -> Self::Bits;
    /// Hash of a bit pattern under `seed` (see `process_seed`).
    fn hash_bits(bits: Self::Bits, seed: u64) -> u64;
}

macro_rules! dict_key {
    ($t:ty, $bits:ty, |$v:ident| $to_bits:expr) => {
        impl DictKey for $t {
            type Bits = $bits;
            #[inline(always)]
            fn bits(self) -> $bits {
                let $v = self;
                $to_bits
            }
            #[inline(always)]
            fn hash_bits(bits: $bits, seed: u64) -> u64 {
                hash_u64(u64::from(bits), seed)
            }
        }
    };
}

dict_key!(i32, u32, |v| v as u32);
dict_key!(i64, u64, |v| v as u64);
dict_key!(f32, u32, |v| v.to_bits());
dict_key!(f64, u64, |v| v.to_bits());

impl DictKey for Int96 {
    type Bits = u128;
    #[inline(always)]
    fn bits(self) -> u128 {
        u128::from(self.0[0]) | (u128::from(self.0[1]) << 32) | (u128::from(self.0[2]) << 64)
    }
    #[inline(always)]
    fn hash_bits(bits: u128, seed: u64) -> u64 {
        hash_u128(bits, seed)
    }
}

impl<T: DictKey> DictStore<T> for Vec<T> {
    fn empty_like(&self) -> Self {
        Vec::new()
    }

    fn entries(&self) -> usize {
        self.len()
    }

    fn heap_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>()
    }

    fn insert_batch(
        &mut self,
        table: &mut HashTable,
        batch: &[T],
        indices: &mut Vec<u32>,
        plain_size: &mut usize,
    ) -> Result<()> {
        indices.reserve(batch.len());
        let seed = process_seed();
        // As for byte arrays below: a group's home buckets are announced to
        // the cache before its lookups.
        for group in batch.chunks(LOOKUP_GROUP) {
            let mut hashes = [0u64; LOOKUP_GROUP];
            for (hash, &v) in hashes.iter_mut().zip(group) {
                *hash = T::hash_bits(v.bits(), seed);
                table.prefetch_home(*hash);
            }
            // As for byte arrays: lookups that find their value run on a
            // shared borrow of the entries until one misses, which is
            // inserted without a second lookup.
            let mut found = [0u32; LOOKUP_GROUP];
            let mut j = 0;
            let mut look_up = || -> Result<()> {
                while j < group.len() {
                    let values = &*self;
                    while let (Some(&v), Some(&hash)) = (group.get(j), hashes.get(j)) {
                        let (bits, tag) = (v.bits(), hash as u32);
                        let eq = |i: usize, key: u32| {
                            key == tag && values.get(i).is_some_and(|e| e.bits() == bits)
                        };
                        let Some(index) = table.find_keyed(hash, eq) else {
                            break;
                        };
                        found[j] = index;
                        j += 1;
                    }
                    let (Some(&v), Some(&hash)) = (group.get(j), hashes.get(j)) else {
                        break;
                    };
                    found[j] = table.insert_keyed(hash, self.len(), hash as u32, tag_of)?;
                    self.push(v);
                    *plain_size += T::WIDTH;
                    j += 1;
                }
                Ok(())
            };
            let looked_up = look_up();
            // On an error too, every value with an entry keeps its index.
            indices.extend_from_slice(&found[..j]);
            looked_up?;
        }
        Ok(())
    }

    fn write_plain(&self, page: &mut ByteSink) -> Result<()> {
        T::encode_plain(self, page.append_zeroed(self.len() * T::WIDTH));
        Ok(())
    }

    fn decode_plain(page: &[u8], n: usize, _width: usize) -> Result<Self> {
        let bytes = n.checked_mul(T::WIDTH).filter(|&b| b <= page.len()).ok_or(
            EncodingError::InvalidValueCount {
                requested: n,
                available: page.len() / T::WIDTH,
            },
        )?;
        // Exactly `n` values, appended without a zero fill first.
        let mut values = Vec::with_capacity(n);
        T::extend_plain(&page[..bytes], &mut values);
        Ok(values)
    }

    fn entry(&self, index: usize) -> Option<&[T]> {
        self.get(index..index.checked_add(1)?)
    }

    fn gather(&self, rle: &mut RleDecoder<'_>, out: &mut [T], n: usize) -> Result<usize> {
        let n = n.min(out.len());
        if rle.get_batch_with_dict(self, &mut out[..n])? < n {
            return Err(truncated_indices());
        }
        Ok(n)
    }
}

/// Values hashed, and their home buckets announced to the cache, together by
/// the dictionaries' `insert_batch`.
const LOOKUP_GROUP: usize = 16;

impl<O: OffsetSize> ByteArrayBuffer<O> {
    /// The low 32 bits of the hash of the entry a slot of this store's
    /// table holds (its index plus one in the low half): what the table
    /// needs to re-place it when it grows.
    #[inline]
    fn home_of(&self, slot: u64, seed: u64) -> u32 {
        let index = (slot as u32).wrapping_sub(1) as usize;
        hash_bytes(self.value(index).unwrap_or_default(), seed) as u32
    }

    /// Size `table`, which indexes this store, for `entries` entries in
    /// all ([`HashTable::reserve_with`]).
    pub(crate) fn reserve_table(&self, table: &mut HashTable, entries: usize) -> Result<()> {
        let seed = process_seed();
        table.reserve_with(entries, |slot| self.home_of(slot, seed))
    }
}

impl<O: OffsetSize> DictStore<ByteArray<O>> for ByteArrayBuffer<O> {
    fn empty_like(&self) -> Self {
        ByteArrayBuffer::new()
    }

    fn entry(&self, index: usize) -> Option<ByteArrayBatch<'_>> {
        // Two offsets to check: O(1).
        let offsets = self.offsets().get(index..=index.checked_add(1)?)?;
        O::batch(offsets, self.values()).ok()
    }

    fn entries(&self) -> usize {
        self.len()
    }

    fn heap_bytes(&self) -> usize {
        self.heap_size()
    }

    fn insert_batch(
        &mut self,
        table: &mut HashTable,
        batch: ByteArrayBatch<'_>,
        indices: &mut Vec<u32>,
        plain_size: &mut usize,
    ) -> Result<()> {
        if batch.total_bytes() > u32::MAX as usize {
            batch.try_for_each_len(|len| {
                if len > u32::MAX as usize {
                    Err(EncodingError::InvalidArgument(format!(
                        "byte array of {len} bytes does not fit a 4-byte length"
                    )))
                } else {
                    Ok(())
                }
            })?;
        }
        indices.reserve(batch.len());
        self.start();
        let seed = process_seed();
        // A group of values at a time: hash them all, announce each hash's
        // home bucket to the cache (a prefetch, which neither waits nor
        // holds up the instructions after it), then look each value up. A
        // table past the core's caches then has the group's bucket misses
        // in flight together instead of one after another.
        //
        // Whether every value of the batch, were all of them new entries,
        // would still end within the offsets' and the keys' range: then
        // the loop below checks neither per value.
        let fits = self
            .values()
            .len()
            .checked_add(batch.total_bytes())
            .is_some_and(|end| O::from_usize(end).is_some() && end <= u32::MAX as usize);
        let mut start = 0;
        while start < batch.len() {
            let end = (start + LOOKUP_GROUP).min(batch.len());
            let group = ValueBatch::slice(&batch, start, end)
                .ok_or_else(|| EncodingError::InvalidArgument("batch out of range".into()))?;
            let mut values: [&[u8]; LOOKUP_GROUP] = [&[]; LOOKUP_GROUP];
            let mut chunks: [Option<&[u8; OVERCOPY]>; LOOKUP_GROUP] = [None; LOOKUP_GROUP];
            let mut hashes = [0u64; LOOKUP_GROUP];
            let mut k = 0;
            group.try_for_each_with_chunk(|v, chunk| {
                values[k] = v;
                chunks[k] = chunk;
                hashes[k] = hash_bytes(v, seed);
                k += 1;
                Ok(())
            })?;
            for &hash in &hashes[..k] {
                table.prefetch_home(hash);
            }
            // Each value's index, written out once per group.
            let mut found = [0u32; LOOKUP_GROUP];
            let mut j = 0;
            let mut look_up = || -> Result<()> {
                while j < k {
                    // Lookups that find their value, on shared borrows of the
                    // entries (which then stay in registers), until one
                    // misses.
                    let (offsets, stored) = (self.offsets(), self.values());
                    while let (Some(&v), Some(&hash)) = (values[..k].get(j), hashes.get(j)) {
                        // An entry is `v` when it ends `v.len()` bytes after
                        // its start and those bytes are `v`'s: two loads that
                        // do not wait for each other.
                        let eq = |i: usize, at: u32| {
                            let (at, to) = (at as usize, at as usize + v.len());
                            offsets.get(i + 1).is_some_and(|o| o.as_usize() == to)
                                && stored.get(at..to).is_some_and(|s| bytes_eq(s, v))
                        };
                        let Some(index) = table.find_keyed(hash, eq) else {
                            break;
                        };
                        found[j] = index;
                        j += 1;
                    }
                    let (Some(&v), Some(&hash)) = (values[..k].get(j), hashes.get(j)) else {
                        break;
                    };
                    // A value the lookup missed: a new entry (the lookup saw
                    // every entry added before it, this group's too).
                    let start = self.values().len();
                    let end = start + v.len();
                    // The table keys each entry by where its bytes start.
                    let key = start as u32;
                    if !fits {
                        if O::from_usize(end).is_none() {
                            return Err(EncodingError::OffsetOverflow(end));
                        }
                        u32::try_from(start).map_err(|_| too_large_to_key(start))?;
                    }
                    let next = self.offsets().len() - 1;
                    let home = |slot: u64| self.home_of(slot, seed);
                    let index = table.insert_keyed(hash, next, key, home)?;
                    // A short value goes as one fixed-size copy when the
                    // batch's buffer runs on past it (no memcpy call).
                    let mut out = ShortAppender::new(self.values_mut());
                    match chunks.get(j).copied().flatten() {
                        Some(chunk) if v.len() <= OVERCOPY => out.push_chunk(chunk, v.len()),
                        _ => out.push(v),
                    }
                    drop(out);
                    self.commit_end(end)?;
                    *plain_size += 4 + v.len();
                    found[j] = index;
                    j += 1;
                }
                Ok(())
            };
            let looked_up = look_up();
            // On an error too, every value with an entry keeps its index.
            indices.extend_from_slice(&found[..j]);
            looked_up?;
            start = end;
        }
        Ok(())
    }

    fn write_plain(&self, page: &mut ByteSink) -> Result<()> {
        let size = self.len() * 4 + self.values().len();
        let mut region = page.reserved_region(size);
        for v in self.iter() {
            region.put_len_prefixed(v);
        }
        Ok(())
    }

    fn decode_plain(page: &[u8], n: usize, _width: usize) -> Result<Self> {
        let mut dec = PlainByteArrayDecoder::<O>::default();
        dec.set_data(page, n)?;
        let mut out = ByteArrayBuffer::new();
        if dec.decode(&mut out, n)? < n {
            return Err(EncodingError::Truncated("dictionary page"));
        }
        Ok(out)
    }

    fn gather(
        &self,
        rle: &mut RleDecoder<'_>,
        out: &mut ByteArrayBuffer<O>,
        n: usize,
    ) -> Result<usize> {
        let offsets = self.offsets();
        let values = self.values();
        let len = self.len();
        let mut idx = [0u32; GATHER_CHUNK];
        out.start();
        let mut done = 0;
        while done < n {
            let k = (n - done).min(GATHER_CHUNK);
            let idx = &mut idx[..k];
            read_indices(rle, idx, len)?;
            let bytes: usize = idx
                .iter()
                .map(|&i| offsets[i as usize + 1].as_usize() - offsets[i as usize].as_usize())
                .sum();
            out.reserve(k, bytes);
            for &i in idx.iter() {
                let i = i as usize;
                let v = &values[offsets[i].as_usize()..offsets[i + 1].as_usize()];
                out.values_mut().extend_from_slice(v);
                out.commit_value()?;
            }
            done += k;
        }
        Ok(n)
    }
}

impl DictStore<FixedLenByteArray> for FixedLenByteArrayBuffer {
    fn empty_like(&self) -> Self {
        FixedLenByteArrayBuffer::new(self.width())
    }

    fn entry(&self, index: usize) -> Option<FixedLenBatch<'_>> {
        FixedLenBatch::new(self.width(), self.value(index)?).ok()
    }

    fn entries(&self) -> usize {
        self.len()
    }

    fn heap_bytes(&self) -> usize {
        self.heap_size()
    }

    fn insert_batch(
        &mut self,
        table: &mut HashTable,
        batch: FixedLenBatch<'_>,
        indices: &mut Vec<u32>,
        plain_size: &mut usize,
    ) -> Result<()> {
        let w = self.width();
        crate::plain::fixed_len::check_batch_width(&batch, w)?;
        indices.reserve(batch.len());
        let seed = process_seed();
        for v in batch.bytes().chunks_exact(w) {
            let values = self.values();
            let (index, inserted) =
                table.find_or_insert(hash_bytes(v, seed), values.len() / w, |i| {
                    bytes_eq(&values[i * w..(i + 1) * w], v)
                })?;
            if inserted {
                self.values_mut().extend_from_slice(v);
                *plain_size += w;
            }
            indices.push(index);
        }
        Ok(())
    }

    fn write_plain(&self, page: &mut ByteSink) -> Result<()> {
        page.extend_from_slice(self.values());
        Ok(())
    }

    fn decode_plain(page: &[u8], n: usize, width: usize) -> Result<Self> {
        crate::plain::fixed_len::check_width(width)?;
        let bytes = n.checked_mul(width).filter(|&b| b <= page.len()).ok_or(
            EncodingError::InvalidValueCount {
                requested: n,
                available: page.len() / width,
            },
        )?;
        let mut out = FixedLenByteArrayBuffer::new(width);
        out.values_mut().extend_from_slice(&page[..bytes]);
        Ok(out)
    }

    fn gather(
        &self,
        rle: &mut RleDecoder<'_>,
        out: &mut FixedLenByteArrayBuffer,
        n: usize,
    ) -> Result<usize> {
        let w = self.width();
        out.check_width(w)?;
        let values = self.values();
        let len = self.len();
        let mut idx = [0u32; GATHER_CHUNK];
        let mut done = 0;
        while done < n {
            let k = (n - done).min(GATHER_CHUNK);
            let idx = &mut idx[..k];
            read_indices(rle, idx, len)?;
            let dst = out.values_mut();
            dst.reserve(k * w);
            for &i in idx.iter() {
                let i = i as usize;
                dst.extend_from_slice(&values[i * w..(i + 1) * w]);
            }
            done += k;
        }
        Ok(n)
    }
}
