//! A column chunk's column index typed by its physical type, as arrow-rs
//! presents it ([`ColumnIndexMetaData`], one variant per physical type).
//!
//! The footer layer decodes the index as its Thrift struct
//! (strata-format's [`ColumnIndex`]), bounds as byte strings; this layer
//! turns it, once, into the typed form when it loads the page index:
//! primitive bounds become values ([`PrimitiveColumnIndex`]), byte-array
//! bounds are laid end to end ([`ByteArrayColumnIndex`]). What every
//! index has (null pages, boundary order, counts, histograms) stays the
//! Thrift struct, with its bounds moved out; both typed forms dereference
//! to it for its accessors.
//!
//! An index whose lists disagree in length, or whose bound is too short
//! for its type, does not become typed: the page index reader leaves it
//! out (or fails, under a required policy).

use strata_encoding::Int96;
pub use strata_format::metadata::ColumnIndex;
use strata_format::metadata::{BoundaryOrder, StatisticsValue, Type};

use crate::error::{FileError, Result};

/// A physical type's values as a column index holds them. A bound is
/// read by its prefix ([`StatisticsValue::from_plain_prefix`]), as arrow-rs
/// reads column indexes.
trait IndexValue: Copy + Default {
    /// The value a bound encodes; `None` when it is too short.
    fn from_bound(bytes: &[u8]) -> Option<Self>;
}

macro_rules! plain_index_value {
    ($($t:ty),*) => {$(
        impl IndexValue for $t {
            fn from_bound(bytes: &[u8]) -> Option<Self> {
                <$t>::from_plain_prefix(bytes)
            }
        }
    )*};
}
plain_index_value!(bool, i32, i64, f32, f64);

impl IndexValue for Int96 {
    fn from_bound(bytes: &[u8]) -> Option<Self> {
        <[u32; 3]>::from_plain_prefix(bytes).map(Int96)
    }
}

/// The column index of a chunk of primitive values: the shared part and
/// each page's bounds as values (a default value on null pages).
#[derive(Debug, Clone, PartialEq)]
pub struct PrimitiveColumnIndex<T> {
    column_index: ColumnIndex,
    min_values: Vec<T>,
    max_values: Vec<T>,
}

/// The typed form of a decoded index of a chunk of `T` values.
fn primitive_from_thrift<T: IndexValue>(mut index: ColumnIndex) -> Result<PrimitiveColumnIndex<T>> {
    let pages = check_lengths(&index)?;
    let typed = |bounds: &[Vec<u8>]| -> Result<Vec<T>> {
        let mut out = Vec::with_capacity(pages);
        for (page, (bound, &null)) in bounds.iter().zip(&index.null_pages).enumerate() {
            out.push(if null {
                T::default()
            } else {
                T::from_bound(bound).ok_or_else(|| {
                    FileError::Corrupt(format!(
                        "column index bound of page {page} has {} bytes, too few for its type",
                        bound.len()
                    ))
                })?
            });
        }
        Ok(out)
    };
    let min_values = typed(&index.min_values)?;
    let max_values = typed(&index.max_values)?;
    index.min_values = Vec::new();
    index.max_values = Vec::new();
    Ok(PrimitiveColumnIndex {
        column_index: index,
        min_values,
        max_values,
    })
}

impl<T> PrimitiveColumnIndex<T> {
    /// The lower bound of each page (a default value on null pages).
    pub fn min_values(&self) -> &[T] {
        &self.min_values
    }

    /// The upper bound of each page (a default value on null pages).
    pub fn max_values(&self) -> &[T] {
        &self.max_values
    }

    /// The lower bound of each page, `None` on null pages.
    pub fn min_values_iter(&self) -> impl Iterator<Item = Option<&T>> {
        (0..self.min_values.len()).map(|page| self.min_value(page))
    }

    /// The upper bound of each page, `None` on null pages.
    pub fn max_values_iter(&self) -> impl Iterator<Item = Option<&T>> {
        (0..self.max_values.len()).map(|page| self.max_value(page))
    }

    /// The lower bound of page `idx`; `None` on a null page or past the
    /// last page.
    pub fn min_value(&self, idx: usize) -> Option<&T> {
        self.min_values
            .get(idx)
            .filter(|_| !self.column_index.is_null_page(idx))
    }

    /// The upper bound of page `idx`; `None` on a null page or past the
    /// last page.
    pub fn max_value(&self, idx: usize) -> Option<&T> {
        self.max_values
            .get(idx)
            .filter(|_| !self.column_index.is_null_page(idx))
    }
}

impl<T> std::ops::Deref for PrimitiveColumnIndex<T> {
    type Target = ColumnIndex;

    fn deref(&self) -> &ColumnIndex {
        &self.column_index
    }
}

/// The column index of a chunk of byte arrays (variable or fixed length):
/// the shared part and each page's bounds, laid end to end.
#[derive(Debug, Clone, PartialEq)]
pub struct ByteArrayColumnIndex {
    column_index: ColumnIndex,
    min_bytes: Vec<u8>,
    /// Page `i`'s lower bound is `min_bytes[min_offsets[i]..min_offsets[i + 1]]`.
    min_offsets: Vec<usize>,
    max_bytes: Vec<u8>,
    max_offsets: Vec<usize>,
}

impl ByteArrayColumnIndex {
    fn try_from_thrift(mut index: ColumnIndex) -> Result<Self> {
        check_lengths(&index)?;
        let (min_bytes, min_offsets) = end_to_end(&index.min_values, &index.null_pages);
        let (max_bytes, max_offsets) = end_to_end(&index.max_values, &index.null_pages);
        index.min_values = Vec::new();
        index.max_values = Vec::new();
        Ok(Self {
            column_index: index,
            min_bytes,
            min_offsets,
            max_bytes,
            max_offsets,
        })
    }

    /// The lower bound of page `idx`; `None` on a null page or past the
    /// last page.
    pub fn min_value(&self, idx: usize) -> Option<&[u8]> {
        page_bytes(&self.min_bytes, &self.min_offsets, idx)
            .filter(|_| !self.column_index.is_null_page(idx))
    }

    /// The upper bound of page `idx`; `None` on a null page or past the
    /// last page.
    pub fn max_value(&self, idx: usize) -> Option<&[u8]> {
        page_bytes(&self.max_bytes, &self.max_offsets, idx)
            .filter(|_| !self.column_index.is_null_page(idx))
    }

    /// The lower bound of each page, `None` on null pages.
    pub fn min_values_iter(&self) -> impl Iterator<Item = Option<&[u8]>> {
        (0..self.column_index.null_pages.len()).map(|page| self.min_value(page))
    }

    /// The upper bound of each page, `None` on null pages.
    pub fn max_values_iter(&self) -> impl Iterator<Item = Option<&[u8]>> {
        (0..self.column_index.null_pages.len()).map(|page| self.max_value(page))
    }
}

impl std::ops::Deref for ByteArrayColumnIndex {
    type Target = ColumnIndex;

    fn deref(&self) -> &ColumnIndex {
        &self.column_index
    }
}

/// The bounds of non-null pages laid end to end, with each page's start
/// (and one past the last page's end).
fn end_to_end(bounds: &[Vec<u8>], null_pages: &[bool]) -> (Vec<u8>, Vec<usize>) {
    let total = bounds
        .iter()
        .zip(null_pages)
        .filter(|(_, null)| !**null)
        .map(|(b, _)| b.len())
        .sum();
    let mut bytes = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity(bounds.len() + 1);
    for (bound, &null) in bounds.iter().zip(null_pages) {
        offsets.push(bytes.len());
        if !null {
            bytes.extend_from_slice(bound);
        }
    }
    offsets.push(bytes.len());
    (bytes, offsets)
}

/// Page `idx`'s bytes among bounds laid end to end.
fn page_bytes<'a>(bytes: &'a [u8], offsets: &[usize], idx: usize) -> Option<&'a [u8]> {
    bytes.get(*offsets.get(idx)?..*offsets.get(idx.checked_add(1)?)?)
}

/// The page count of an index whose per-page lists agree in length.
fn check_lengths(index: &ColumnIndex) -> Result<usize> {
    let pages = index.null_pages.len();
    let bad = |what: &str, len: usize| {
        Err(FileError::Corrupt(format!(
            "column index of {pages} pages has {len} {what}"
        )))
    };
    if index.min_values.len() != pages {
        return bad("lower bounds", index.min_values.len());
    }
    if index.max_values.len() != pages {
        return bad("upper bounds", index.max_values.len());
    }
    for (what, counts) in [
        ("null counts", &index.null_counts),
        ("NaN counts", &index.nan_counts),
    ] {
        if let Some(counts) = counts
            && counts.len() != pages
        {
            return bad(what, counts.len());
        }
    }
    for (what, histograms) in [
        (
            "repetition level histogram entries",
            &index.repetition_level_histograms,
        ),
        (
            "definition level histogram entries",
            &index.definition_level_histograms,
        ),
    ] {
        if let Some(h) = histograms
            && pages != 0
            && !h.len().is_multiple_of(pages)
        {
            return bad(what, h.len());
        }
    }
    Ok(pages)
}

/// The column index of a column chunk, typed by the chunk's physical type
/// (arrow-rs's `parquet::file::page_index::column_index::ColumnIndexMetaData`).
///
/// ```
/// use strata_file::metadata::ColumnIndexMetaData;
/// use strata_format::metadata::{BoundaryOrder, ColumnIndex, Type};
///
/// let thrift = ColumnIndex {
///     null_pages: vec![false, true],
///     min_values: vec![3i64.to_le_bytes().to_vec(), Vec::new()],
///     max_values: vec![9i64.to_le_bytes().to_vec(), Vec::new()],
///     boundary_order: BoundaryOrder::Ascending,
///     null_counts: Some(vec![0, 4]),
///     repetition_level_histograms: None,
///     definition_level_histograms: None,
///     nan_counts: None,
/// };
/// let index = ColumnIndexMetaData::try_from_thrift(Type::INT64, thrift)?;
/// let ColumnIndexMetaData::INT64(pages) = &index else { unreachable!() };
/// assert_eq!((pages.min_value(0), pages.max_value(0)), (Some(&3), Some(&9)));
/// assert_eq!(pages.min_value(1), None);
/// assert_eq!((index.num_pages(), index.null_count(1)), (2, Some(4)));
/// assert!(index.is_sorted() && index.is_null_page(1));
/// # Ok::<(), strata_file::FileError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[allow(non_camel_case_types)]
pub enum ColumnIndexMetaData {
    /// Of a `BOOLEAN` column.
    BOOLEAN(PrimitiveColumnIndex<bool>),
    /// Of an `INT32` column.
    INT32(PrimitiveColumnIndex<i32>),
    /// Of an `INT64` column.
    INT64(PrimitiveColumnIndex<i64>),
    /// Of an `INT96` column.
    INT96(PrimitiveColumnIndex<Int96>),
    /// Of a `FLOAT` column.
    FLOAT(PrimitiveColumnIndex<f32>),
    /// Of a `DOUBLE` column.
    DOUBLE(PrimitiveColumnIndex<f64>),
    /// Of a `BYTE_ARRAY` column.
    BYTE_ARRAY(ByteArrayColumnIndex),
    /// Of a `FIXED_LEN_BYTE_ARRAY` column.
    FIXED_LEN_BYTE_ARRAY(ByteArrayColumnIndex),
}

impl ColumnIndexMetaData {
    /// The typed form of a decoded index of a chunk of `physical` values;
    /// an error when its lists disagree in length or a bound is too short
    /// for the type.
    pub fn try_from_thrift(physical: Type, index: ColumnIndex) -> Result<Self> {
        Ok(match physical {
            Type::Boolean => Self::BOOLEAN(primitive_from_thrift(index)?),
            Type::Int32 => Self::INT32(primitive_from_thrift(index)?),
            Type::Int64 => Self::INT64(primitive_from_thrift(index)?),
            Type::Int96 => Self::INT96(primitive_from_thrift(index)?),
            Type::Float => Self::FLOAT(primitive_from_thrift(index)?),
            Type::Double => Self::DOUBLE(primitive_from_thrift(index)?),
            Type::ByteArray => Self::BYTE_ARRAY(ByteArrayColumnIndex::try_from_thrift(index)?),
            Type::FixedLenByteArray => {
                Self::FIXED_LEN_BYTE_ARRAY(ByteArrayColumnIndex::try_from_thrift(index)?)
            }
        })
    }

    /// What every index has: null pages, boundary order, counts and
    /// histograms (its bounds are in the typed part).
    pub fn common(&self) -> &ColumnIndex {
        match self {
            Self::BOOLEAN(i) => i,
            Self::INT32(i) => i,
            Self::INT64(i) => i,
            Self::INT96(i) => i,
            Self::FLOAT(i) => i,
            Self::DOUBLE(i) => i,
            Self::BYTE_ARRAY(i) | Self::FIXED_LEN_BYTE_ARRAY(i) => i,
        }
    }

    /// Whether the pages' bounds are ordered (ascending or descending).
    pub fn is_sorted(&self) -> bool {
        self.common().is_sorted()
    }

    /// The order of the pages' bounds.
    pub fn get_boundary_order(&self) -> Option<BoundaryOrder> {
        Some(self.common().boundary_order)
    }

    /// The null count of each page, where written.
    pub fn null_counts(&self) -> Option<&Vec<i64>> {
        self.common().null_counts()
    }

    /// The NaN count of each page, where written.
    pub fn nan_counts(&self) -> Option<&Vec<i64>> {
        self.common().nan_counts()
    }

    /// Number of pages.
    pub fn num_pages(&self) -> u64 {
        self.common().num_pages()
    }

    /// The null count of page `idx`.
    pub fn null_count(&self, idx: usize) -> Option<i64> {
        self.common().null_count(idx)
    }

    /// The NaN count of page `idx`.
    pub fn nan_count(&self, idx: usize) -> Option<i64> {
        self.common().nan_count(idx)
    }

    /// The repetition level histogram of page `idx`.
    pub fn repetition_level_histogram(&self, idx: usize) -> Option<&[i64]> {
        self.common().repetition_level_histogram(idx)
    }

    /// The definition level histogram of page `idx`.
    pub fn definition_level_histogram(&self, idx: usize) -> Option<&[i64]> {
        self.common().definition_level_histogram(idx)
    }

    /// Whether page `idx` holds only nulls (`false` past the last page).
    pub fn is_null_page(&self, idx: usize) -> bool {
        self.common().is_null_page(idx)
    }
}

/// The bounds of a [`ColumnIndexMetaData`] as values of one type
/// (arrow-rs's `ColumnIndexIterators`): implemented for `bool`, `i32`,
/// `i64`, [`Int96`], `f32`, `f64` and the byte-array value types. Asked
/// of an index of another type, the iterators are empty (arrow-rs
/// panics).
///
/// ```
/// use strata_file::metadata::{ColumnIndexIterators, ColumnIndexMetaData};
/// use strata_format::metadata::{BoundaryOrder, ColumnIndex, Type};
///
/// let thrift = ColumnIndex {
///     null_pages: vec![false, true],
///     min_values: vec![1i32.to_le_bytes().to_vec(), Vec::new()],
///     max_values: vec![5i32.to_le_bytes().to_vec(), Vec::new()],
///     boundary_order: BoundaryOrder::Ascending,
///     null_counts: None,
///     repetition_level_histograms: None,
///     definition_level_histograms: None,
///     nan_counts: None,
/// };
/// let index = ColumnIndexMetaData::try_from_thrift(Type::INT32, thrift)?;
/// let mins: Vec<Option<i32>> = i32::min_values_iter(&index).collect();
/// assert_eq!(mins, [Some(1), None]);
/// assert_eq!(i64::max_values_iter(&index).count(), 0);
/// # Ok::<(), strata_file::FileError>(())
/// ```
pub trait ColumnIndexIterators {
    /// The value type of the bounds.
    type Item;

    /// The lower bound of each page, `None` on null pages.
    fn min_values_iter(colidx: &ColumnIndexMetaData) -> impl Iterator<Item = Option<Self::Item>>;

    /// The upper bound of each page, `None` on null pages.
    fn max_values_iter(colidx: &ColumnIndexMetaData) -> impl Iterator<Item = Option<Self::Item>>;
}

macro_rules! index_iterators {
    ($($t:ty => $variant:ident, $convert:expr);*) => {$(
        impl ColumnIndexIterators for $t {
            type Item = $t;

            fn min_values_iter(
                colidx: &ColumnIndexMetaData,
            ) -> impl Iterator<Item = Option<Self::Item>> {
                index_iterators!(@typed colidx, $variant)
                    .flat_map(|index| index.min_values_iter().map(|v| v.map($convert)))
            }

            fn max_values_iter(
                colidx: &ColumnIndexMetaData,
            ) -> impl Iterator<Item = Option<Self::Item>> {
                index_iterators!(@typed colidx, $variant)
                    .flat_map(|index| index.max_values_iter().map(|v| v.map($convert)))
            }
        }
    )*};
    // The typed index inside, if `colidx` is of this variant (none otherwise).
    (@typed $colidx:ident, $variant:ident) => {
        match $colidx {
            ColumnIndexMetaData::$variant(index) => Some(index),
            _ => None,
        }
        .into_iter()
    };
}

index_iterators!(
    bool => BOOLEAN, |v: &bool| *v;
    i32 => INT32, |v: &i32| *v;
    i64 => INT64, |v: &i64| *v;
    Int96 => INT96, |v: &Int96| *v;
    f32 => FLOAT, |v: &f32| *v;
    f64 => DOUBLE, |v: &f64| *v;
    crate::data_type::ByteArray => BYTE_ARRAY, crate::data_type::ByteArray::from;
    crate::data_type::FixedLenByteArray => FIXED_LEN_BYTE_ARRAY,
        crate::data_type::FixedLenByteArray::from
);

#[cfg(test)]
mod tests {
    use super::*;

    fn thrift(null_pages: Vec<bool>, min: Vec<Vec<u8>>, max: Vec<Vec<u8>>) -> ColumnIndex {
        ColumnIndex {
            null_pages,
            min_values: min,
            max_values: max,
            boundary_order: BoundaryOrder::Unordered,
            null_counts: None,
            repetition_level_histograms: None,
            definition_level_histograms: None,
            nan_counts: None,
        }
    }

    #[test]
    fn byte_array_bounds_read_back_around_null_pages() {
        let index = thrift(
            vec![true, false, true, false],
            vec![b"zz".to_vec(), b"a".to_vec(), Vec::new(), b"bcd".to_vec()],
            vec![Vec::new(), b"b".to_vec(), Vec::new(), b"c".to_vec()],
        );
        let ColumnIndexMetaData::BYTE_ARRAY(typed) =
            ColumnIndexMetaData::try_from_thrift(Type::ByteArray, index).unwrap()
        else {
            panic!("not a byte array index")
        };
        let mins: Vec<_> = typed.min_values_iter().collect();
        assert_eq!(mins, [None, Some(&b"a"[..]), None, Some(&b"bcd"[..])]);
        let maxes: Vec<_> = typed.max_values_iter().collect();
        assert_eq!(maxes, [None, Some(&b"b"[..]), None, Some(&b"c"[..])]);
        assert_eq!(typed.min_value(4), None);
    }

    #[test]
    fn primitive_bounds_decode_by_prefix_and_int96_by_words() {
        let words: Vec<u8> = [1u32, 2, 3].iter().flat_map(|w| w.to_le_bytes()).collect();
        let index = thrift(vec![false], vec![words.clone()], vec![words]);
        let ColumnIndexMetaData::INT96(typed) =
            ColumnIndexMetaData::try_from_thrift(Type::Int96, index).unwrap()
        else {
            panic!("not an INT96 index")
        };
        assert_eq!(typed.min_value(0), Some(&Int96([1, 2, 3])));
        // A longer bound is read by its prefix.
        let index = thrift(
            vec![false],
            vec![vec![5, 0, 0, 0, 9]],
            vec![vec![7, 0, 0, 0]],
        );
        let typed = ColumnIndexMetaData::try_from_thrift(Type::Int32, index).unwrap();
        let ColumnIndexMetaData::INT32(typed) = typed else {
            panic!("not an INT32 index")
        };
        assert_eq!(typed.min_values(), [5]);
    }

    #[test]
    fn malformed_indexes_are_errors() {
        // A bound too short for its type.
        let short = thrift(vec![false], vec![vec![1, 2]], vec![vec![1, 2, 3, 4]]);
        assert!(ColumnIndexMetaData::try_from_thrift(Type::Int32, short).is_err());
        // Lists of other lengths than the pages.
        let fewer = thrift(vec![false, false], vec![vec![1]], vec![vec![1], vec![2]]);
        assert!(ColumnIndexMetaData::try_from_thrift(Type::ByteArray, fewer).is_err());
        let mut counts = thrift(vec![true], vec![Vec::new()], vec![Vec::new()]);
        counts.null_counts = Some(vec![1, 2]);
        assert!(ColumnIndexMetaData::try_from_thrift(Type::Double, counts.clone()).is_err());
        counts.null_counts = None;
        counts.definition_level_histograms = Some(vec![0; 3]);
        let mut two = counts.clone();
        two.null_pages.push(true);
        two.min_values.push(Vec::new());
        two.max_values.push(Vec::new());
        assert!(ColumnIndexMetaData::try_from_thrift(Type::Double, two).is_err());
        // Null pages need no bounds of the type's size.
        assert!(ColumnIndexMetaData::try_from_thrift(Type::Double, counts).is_ok());
    }
}
