//! [`DictEncoder`]: builds a dictionary and writes index pages.

use strata_sink::ByteSink;
use strata_sink::rle::RleEncoder;

use super::hash::HashTable;
use super::store::{DictKey, DictStore};
use super::{DictValue, index_bit_width};
use crate::error::{EncodingError, Result};
use crate::plain::fixed_len::check_width;
use crate::traits::Encoder;
use crate::types::{
    ByteArray, ByteArrayBuffer, FixedLenByteArray, FixedLenByteArrayBuffer, OffsetSize, ValueBatch,
};
use strata_format::metadata::Encoding;

/// Dictionary encoder (RLE_DICTIONARY) for every physical type but BOOLEAN.
///
/// [`put`](Encoder::put) and [`put_spaced`](Encoder::put_spaced) add unseen
/// values to the dictionary and record one `u32` index per value.
/// [`flush_into`](Encoder::flush_into) writes an index data page (one byte
/// of bit width, then the RLE/bit-packed hybrid indices) and clears the
/// indices; the dictionary stays, since one dictionary serves every data
/// page of a column chunk. [`write_dict_page`](Self::write_dict_page) writes
/// the dictionary page (the entries PLAIN) once the chunk's data pages are
/// done. A column writer watches [`dict_size_bytes`](Self::dict_size_bytes)
/// and [`num_entries`](Self::num_entries) to fall back to another encoding.
///
/// Values are deduplicated by their bytes (floats by bit pattern, so NaNs
/// with one payload share an entry and `-0.0` is distinct from `0.0`) in a
/// hash table of indices into one contiguous store: no allocation per
/// value. A new encoder holds no heap memory.
///
/// ```
/// use strata_encoding::{ByteArrayBatch, DictEncoder, Encoder};
/// use strata_sink::ByteSink;
///
/// let mut enc = DictEncoder::<strata_encoding::ByteArray>::new();
/// enc.put(ByteArrayBatch::from_slices(&[b"hi", b"yo", b"hi"])).unwrap();
/// assert_eq!(enc.num_entries(), 2);
/// assert_eq!(enc.dict_size_bytes(), 12);
///
/// let mut data = ByteSink::new();
/// enc.flush_into(&mut data).unwrap();
/// // Bit width 1; one bit-packed group of 8 (header 0b11): 0, 1, 0 and padding.
/// assert_eq!(data.as_slice(), &[1, 0b11, 0b010]);
///
/// let mut dict = ByteSink::new();
/// enc.write_dict_page(&mut dict).unwrap();
/// assert_eq!(dict.as_slice(), &[2, 0, 0, 0, b'h', b'i', 2, 0, 0, 0, b'y', b'o']);
/// ```
#[derive(Debug)]
pub struct DictEncoder<T: DictValue> {
    dict: T::Dict,
    table: HashTable,
    indices: Vec<u32>,
    plain_size: usize,
    /// Kept between pages while the bit width stays the same.
    rle: Option<RleEncoder>,
    /// [`put_keys`](Self::put_keys): the index of each entry of the
    /// caller's dictionary, `u32::MAX` until a key uses it. Allocated on
    /// first use and reused.
    remap: Vec<u32>,
}

impl<T: DictKey + DictValue<Dict = Vec<T>>> Default for DictEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: DictKey + DictValue<Dict = Vec<T>>> DictEncoder<T> {
    /// An encoder for `i32`, `i64`, [`Int96`](crate::Int96), `f32` or
    /// `f64`; no heap memory until the first value.
    pub const fn new() -> Self {
        Self::with_dict(Vec::new())
    }
}

impl<O: OffsetSize> DictEncoder<ByteArray<O>> {
    /// An encoder for byte arrays whose dictionary has offsets of type `O`
    /// (`DictEncoder::<ByteArray>::new()` for `i32`); no heap memory until
    /// the first value.
    pub const fn new() -> Self {
        Self::with_dict(ByteArrayBuffer::new())
    }
}

impl<O: OffsetSize> DictEncoder<ByteArray<O>> {
    /// Make room for `values` more distinct entries of `bytes` bytes in all,
    /// so that putting them neither grows the hash table nor moves the
    /// dictionary: for a caller interning a batch of known size (an empty
    /// encoder after [`reset`](Self::reset) reuses its table's allocation).
    /// A page writer does not call it: it would size the table for every
    /// value instead of the distinct ones.
    ///
    /// ```
    /// use strata_encoding::{ByteArray, ByteArrayBatch, DictEncoder, Encoder};
    ///
    /// let mut enc = DictEncoder::<ByteArray>::new();
    /// enc.reserve(3, 4).unwrap();
    /// enc.put(ByteArrayBatch::from_slices(&[b"ab", b"c", b"ab"])).unwrap();
    /// assert_eq!(enc.take_indices(), vec![0, 1, 0]);
    /// ```
    pub fn reserve(&mut self, values: usize, bytes: usize) -> Result<()> {
        self.dict
            .reserve_table(&mut self.table, self.dict.len().saturating_add(values))?;
        self.dict.start();
        // The slack lets the last short value go as one fixed-size copy.
        self.dict
            .reserve(values, bytes.saturating_add(strata_sink::append::OVERCOPY));
        Ok(())
    }
}

impl DictEncoder<FixedLenByteArray> {
    /// An encoder for fixed-length byte arrays of `width` bytes (positive);
    /// no heap memory until the first value.
    pub fn new(width: usize) -> Result<Self> {
        check_width(width)?;
        Ok(Self::with_dict(FixedLenByteArrayBuffer::new(width)))
    }
}

impl<T: DictValue> DictEncoder<T> {
    const fn with_dict(dict: T::Dict) -> Self {
        Self {
            dict,
            table: HashTable::new(),
            indices: Vec::new(),
            plain_size: 0,
            rle: None,
            remap: Vec::new(),
        }
    }

    /// Number of distinct values in the dictionary.
    pub fn num_entries(&self) -> usize {
        self.dict.entries()
    }

    /// Size in bytes of the dictionary page
    /// [`write_dict_page`](Self::write_dict_page) would write (the PLAIN
    /// size of the entries).
    pub fn dict_size_bytes(&self) -> usize {
        self.plain_size
    }

    /// Bit width of the indices of the next data page: 0 for an empty
    /// dictionary, 1 for one entry, else the bits of `num_entries - 1`.
    pub fn bit_width(&self) -> u8 {
        index_bit_width(self.num_entries())
    }

    /// The dictionary built so far, in index order.
    pub fn dict(&self) -> &T::Dict {
        &self.dict
    }

    /// Append the dictionary page (every entry, PLAIN) to `page`.
    pub fn write_dict_page(&self, page: &mut ByteSink) -> Result<()> {
        self.dict.write_plain(page)
    }

    /// Take the dictionary out (for reuse, statistics or a decoder) and
    /// start a new, empty one, keeping the table's allocation.
    ///
    /// Fails if indices are still buffered: they refer to this dictionary,
    /// so flush them first.
    pub fn take_dict(&mut self) -> Result<T::Dict> {
        if !self.indices.is_empty() {
            return Err(EncodingError::InvalidArgument(format!(
                "{} buffered indices refer to the dictionary; flush them first",
                self.indices.len()
            )));
        }
        let empty = self.dict.empty_like();
        self.table.clear();
        self.plain_size = 0;
        Ok(std::mem::replace(&mut self.dict, empty))
    }

    /// Forget the dictionary and every buffered index (for a new column
    /// chunk, or after falling back), keeping the table and index
    /// allocations.
    pub fn reset(&mut self) {
        self.dict = self.dict.empty_like();
        self.table.clear();
        self.indices.clear();
        self.plain_size = 0;
    }

    /// Put the values `keys` name in `entries`, a batch that is itself a
    /// dictionary (an Arrow `DictionaryArray`'s values): each entry a key
    /// uses is looked up in the hash table once per call, not once per
    /// value, so a dictionary-encoded input is not hashed again row by row.
    /// Entries no key uses are not added. Fails, adding nothing, if a key is
    /// not below the number of entries.
    ///
    /// ```
    /// use strata_encoding::{ByteArray, ByteArrayBatch, DictEncoder, Encoder};
    ///
    /// let mut enc = DictEncoder::<ByteArray>::new();
    /// let entries: [&[u8]; 3] = [b"red", b"green", b"blue"];
    /// enc.put_keys(ByteArrayBatch::from_slices(&entries), &[2, 0, 2, 2])
    ///     .unwrap();
    /// // "green" is unused: two entries, indices in order of first use.
    /// assert_eq!(enc.num_entries(), 2);
    /// assert_eq!(enc.indices(), &[0, 1, 0, 0]);
    /// ```
    pub fn put_keys(&mut self, entries: T::Batch<'_>, keys: &[u32]) -> Result<()> {
        let len = entries.len();
        super::store::check_indices(keys, len)?;
        let mut remap = std::mem::take(&mut self.remap);
        remap.clear();
        remap.resize(len, u32::MAX);
        self.indices.reserve(keys.len());
        let mut result = Ok(());
        for &k in keys {
            let k = k as usize;
            let mut index = remap[k];
            if index == u32::MAX {
                match self.intern_entry(entries, k) {
                    Ok(i) => index = i,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
                remap[k] = index;
            }
            self.indices.push(index);
        }
        self.remap = remap;
        result
    }

    /// Add entry `k` of `entries` to the dictionary if it is not there yet
    /// and return its index, without buffering an index for a data page
    /// (pair with [`put_indices`](Self::put_indices)).
    pub fn intern_entry(&mut self, entries: T::Batch<'_>, k: usize) -> Result<u32> {
        let one = entries.slice(k, k + 1).ok_or_else(|| {
            EncodingError::InvalidArgument(format!("entry {k} of {}", entries.len()))
        })?;
        self.dict.insert_batch(
            &mut self.table,
            one,
            &mut self.indices,
            &mut self.plain_size,
        )?;
        self.indices
            .pop()
            .ok_or_else(|| EncodingError::InvalidArgument("no index for an entry".into()))
    }

    /// Buffer indices into the dictionary built so far, one per value (as
    /// [`intern_entry`](Self::intern_entry) returned them). Fails, adding
    /// nothing, if one is not below [`num_entries`](Self::num_entries).
    pub fn put_indices(&mut self, indices: &[u32]) -> Result<()> {
        super::store::check_indices(indices, self.num_entries())?;
        self.indices.extend_from_slice(indices);
        Ok(())
    }

    /// The buffered indices, one per value put since the last flush.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// Dictionary entry `index` as a batch of one value, or `None` past the
    /// end: what a caller feeds to statistics once per entry instead of
    /// once per value.
    ///
    /// ```
    /// use strata_encoding::{ByteArray, ByteArrayBatch, DictEncoder, Encoder};
    ///
    /// let mut enc = DictEncoder::<ByteArray>::new();
    /// enc.put(ByteArrayBatch::from_slices(&[b"b", b"a", b"b"])).unwrap();
    /// assert_eq!(enc.entry(1).unwrap().get(0), Some(&b"a"[..]));
    /// assert!(enc.entry(2).is_none());
    /// ```
    pub fn entry(&self, index: usize) -> Option<T::Batch<'_>> {
        self.dict.entry(index)
    }

    /// Take the buffered indices out, leaving none buffered: for a caller
    /// that uses the encoder to intern values (the indices and
    /// [`take_dict`](Self::take_dict) then make a dictionary array) rather
    /// than to write pages.
    ///
    /// ```
    /// use strata_encoding::{ByteArray, ByteArrayBatch, DictEncoder, Encoder};
    ///
    /// let mut enc = DictEncoder::<ByteArray>::new();
    /// enc.put(ByteArrayBatch::from_slices(&[b"b", b"a", b"b"])).unwrap();
    /// assert_eq!(enc.take_indices(), vec![0, 1, 0]);
    /// let dict = enc.take_dict().unwrap();
    /// assert_eq!(dict.iter().collect::<Vec<_>>(), [&b"b"[..], b"a"]);
    /// ```
    pub fn take_indices(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.indices)
    }
}

impl<T: DictValue> Encoder<T> for DictEncoder<T> {
    fn put(&mut self, values: T::Batch<'_>) -> Result<()> {
        self.dict.insert_batch(
            &mut self.table,
            values,
            &mut self.indices,
            &mut self.plain_size,
        )
    }

    fn flush_into(&mut self, page: &mut ByteSink) -> Result<()> {
        let width = self.bit_width();
        let rle = match &mut self.rle {
            Some(rle) if rle.bit_width() == u32::from(width) => rle,
            slot => slot.insert(RleEncoder::new(u32::from(width))),
        };
        // Runs counted once, other indices packed eight at a time.
        rle.put_slice(&self.indices);
        page.put_u8(width);
        rle.flush_into(page);
        self.indices.clear();
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.indices.len()
    }

    /// An upper bound: one byte of bit width, and per group of 8 indices
    /// either the packed bytes plus a run header or an RLE run (a header of
    /// at most 5 bytes and a value of at most 4).
    fn estimated_size(&self) -> usize {
        let width = usize::from(self.bit_width());
        let groups = self.indices.len().div_ceil(8);
        1 + groups * (width + 1).max(5 + width.div_ceil(8))
    }

    fn heap_size(&self) -> usize {
        self.dict.heap_bytes()
            + self.table.heap_size()
            + self.indices.capacity() * std::mem::size_of::<u32>()
            + self.rle.as_ref().map_or(0, RleEncoder::heap_size)
            + self.remap.capacity() * std::mem::size_of::<u32>()
    }

    fn encoding(&self) -> Encoding {
        Encoding::RleDictionary
    }
}
