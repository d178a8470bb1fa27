//! [`EncodingSet`]: the encodings of a column chunk as a compact set.

use super::Encoding;
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// The set of encodings used in a column chunk (`ColumnMetaData.encodings`,
/// a Thrift `list<Encoding>`).
///
/// Encodings with Thrift values 0 to 63 (every encoding the specification
/// defines, and unknown values in that range) are bits of one word; any
/// other value, which only a writer from the future or a corrupt file would
/// produce, is kept in a sorted side list. No value read is lost: writing
/// the set and reading it back gives the same set. What is not kept is the
/// order and repetition of the list on the wire; the set is written in
/// ascending order of Thrift value, without duplicates.
///
/// ```
/// use strata_format::metadata::{Encoding, EncodingSet};
///
/// let mut set: EncodingSet = [Encoding::RleDictionary, Encoding::Plain].into_iter().collect();
/// set.insert(Encoding::Unknown(1000));
/// assert!(set.contains(Encoding::Plain));
/// assert!(!set.contains(Encoding::Rle));
/// let all: Vec<_> = set.iter().collect();
/// assert_eq!(all, [Encoding::Plain, Encoding::RleDictionary, Encoding::Unknown(1000)]);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct EncodingSet {
    /// Bit `v` is set when the encoding with Thrift value `v` is present.
    bits: u64,
    /// Present values outside `0..64`, sorted, without duplicates. A
    /// boxed `Vec` rather than a boxed slice: a thin pointer keeps the set
    /// at 16 bytes, and every column chunk of a footer holds one.
    #[allow(clippy::box_collection)]
    other: Option<Box<Vec<i32>>>,
}

impl EncodingSet {
    /// An empty set.
    #[inline]
    pub const fn new() -> Self {
        Self {
            bits: 0,
            other: None,
        }
    }

    /// The present values outside `0..64` (usually none).
    #[inline]
    fn others(&self) -> &[i32] {
        self.other.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The bit of a Thrift value, if it is in `0..64`.
    #[inline]
    fn bit(value: i32) -> Option<u64> {
        u32::try_from(value).ok().and_then(|v| 1u64.checked_shl(v))
    }

    /// Add an encoding (no effect if it is already present).
    pub fn insert(&mut self, encoding: Encoding) {
        let value = encoding.to_i32();
        match Self::bit(value) {
            Some(bit) => self.bits |= bit,
            None => {
                let other = self.others();
                if let Err(at) = other.binary_search(&value) {
                    let mut v = Vec::with_capacity(other.len() + 1);
                    v.extend_from_slice(&other[..at]);
                    v.push(value);
                    v.extend_from_slice(&other[at..]);
                    self.other = Some(Box::new(v));
                }
            }
        }
    }

    /// Whether the set holds `encoding`.
    #[inline]
    pub fn contains(&self, encoding: Encoding) -> bool {
        let value = encoding.to_i32();
        match Self::bit(value) {
            Some(bit) => self.bits & bit != 0,
            None => self.others().binary_search(&value).is_ok(),
        }
    }

    /// Number of encodings in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.bits.count_ones() as usize + self.others().len()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The encodings in ascending order of Thrift value (values 0 to 63
    /// first, then the others, which are unknown, in ascending order).
    pub fn iter(&self) -> impl Iterator<Item = Encoding> + '_ {
        let mut bits = self.bits;
        let known = std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let v = bits.trailing_zeros();
            bits &= bits - 1;
            // v < 64, so the cast is exact.
            Some(Encoding::from_i32(v as i32))
        });
        let other = self.others();
        known.chain(other.iter().map(|&v| Encoding::from_i32(v)))
    }
}

impl std::fmt::Debug for EncodingSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Encoding> for EncodingSet {
    fn from_iter<I: IntoIterator<Item = Encoding>>(iter: I) -> Self {
        let mut set = Self::new();
        set.extend(iter);
        set
    }
}

impl Extend<Encoding> for EncodingSet {
    fn extend<I: IntoIterator<Item = Encoding>>(&mut self, iter: I) {
        for e in iter {
            self.insert(e);
        }
    }
}

impl From<&[Encoding]> for EncodingSet {
    fn from(encodings: &[Encoding]) -> Self {
        encodings.iter().copied().collect()
    }
}

impl From<Vec<Encoding>> for EncodingSet {
    fn from(encodings: Vec<Encoding>) -> Self {
        encodings.into_iter().collect()
    }
}

impl<const N: usize> From<[Encoding; N]> for EncodingSet {
    fn from(encodings: [Encoding; N]) -> Self {
        encodings.into_iter().collect()
    }
}

impl ReadThrift for EncodingSet {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let n = r.read_list_header_of(FieldType::I32)?;
        let mut set = Self::new();
        // Values outside 0..64 are collected first and sorted once, so a
        // long list of them costs O(n log n); `n` is bounded by the input.
        let mut other = Vec::new();
        for _ in 0..n {
            let value = r.read_i32()?;
            match Self::bit(value) {
                Some(bit) => set.bits |= bit,
                None => other.push(value),
            }
        }
        if !other.is_empty() {
            other.sort_unstable();
            other.dedup();
            set.other = Some(Box::new(other));
        }
        Ok(set)
    }
}

impl WriteThrift for EncodingSet {
    const WIRE_TYPE: FieldType = FieldType::List;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        w.write_list_header(FieldType::I32, self.len());
        for e in self.iter() {
            w.write_i32(e.to_i32());
        }
    }
}
