//! Column statistics for the writer: minimum and maximum under the
//! column's sort order, null counts, and the truncation of long byte-array
//! bounds.
//!
//! The order ([`ValueOrder`]) comes from the column's physical and logical
//! type, as the format's `TypeDefinedOrder` defines it:
//! - INT32 / INT64 compare as signed integers, or unsigned for `UINT_*` /
//!   unsigned `INTEGER` annotations (decimals stored in integers are
//!   signed integers);
//! - FLOAT / DOUBLE (and FLOAT16 in a 2-byte FIXED_LEN_BYTE_ARRAY) follow
//!   IEEE 754 total order, the `IEEE_754_TOTAL_ORDER` column order the
//!   writer names for them: `-0.0 < +0.0`, infinities at the ends. NaNs
//!   are counted (`nan_count`, written for every float chunk and page) and
//!   left out of the bounds, unless every value is NaN: then the bounds
//!   are the least and the greatest NaN in total order (a NaN with its
//!   sign bit set is below every number, one without above);
//! - BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY compare byte by byte as unsigned
//!   bytes, except decimals, which compare as signed big-endian integers;
//! - BOOLEAN: `false < true`;
//! - INT96 and INTERVAL have no defined order: no bounds are written.
//!
//! Byte-array bounds longer than a limit (64 bytes by default) are
//! truncated as arrow-rs truncates them: the minimum to a prefix (still a
//! lower bound), the maximum to a prefix incremented as a big-endian number
//! (still an upper bound; a carry leaves `0x00` bytes, the width stays).
//! UTF-8 columns are cut at character boundaries and their last
//! character that has a successor of the same width is incremented, so
//! bounds stay valid UTF-8. A maximum that cannot be shortened (all
//! `0xFF`) is kept whole. Truncated bounds are marked
//! inexact (`is_min_value_exact` / `is_max_value_exact`).
//!
//! The deprecated `min`/`max` fields (signed order) are written only where
//! the legacy signed comparison agrees with the column order: booleans and
//! signed integers (not floats, whose total-order bounds a reader of the
//! old fields would misread when they are NaN).
//!
//! ```
//! use strata_file::statistics::{StatisticsAccumulator, ValueOrder};
//!
//! let mut acc = StatisticsAccumulator::<f64>::new(ValueOrder::Float);
//! acc.update(&[3.5, f64::NAN, 0.0, -0.0]);
//! acc.add_nulls(2);
//! let stats = acc.to_statistics(None).unwrap();
//! assert_eq!(stats.null_count, Some(2));
//! assert_eq!(stats.nan_count(), Some(1));
//! assert_eq!(stats.min_value(), Some(&(-0.0f64).to_le_bytes()[..]));
//! assert_eq!(stats.max_value(), Some(&3.5f64.to_le_bytes()[..]));
//!
//! // Only NaNs: the bounds are NaNs.
//! let mut acc = StatisticsAccumulator::<f32>::new(ValueOrder::Float);
//! acc.update(&[f32::NAN, -f32::NAN]);
//! let stats = acc.to_statistics(None).unwrap();
//! assert_eq!(stats.nan_count(), Some(2));
//! assert_eq!(stats.min_value(), Some(&(-f32::NAN).to_le_bytes()[..]));
//! assert_eq!(stats.max_value(), Some(&f32::NAN.to_le_bytes()[..]));
//! ```

use std::cmp::Ordering;

pub use strata_format::metadata::{TypedStatistics as Statistics, ValueStatistics};

use strata_encoding::{
    ByteArray, ByteArrayBatch, FixedLenBatch, FixedLenByteArray, Int96, ValueType,
};
use strata_format::ColumnDescriptor;
use strata_format::FormatError;
use strata_format::metadata::{
    ConvertedType, IntType, LogicalType, Statistics as ThriftStatistics, Type,
};

/// How two values of a column compare for statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueOrder {
    /// `false < true`.
    Boolean,
    /// Signed integers.
    SignedInt,
    /// Unsigned integers (`UINT_8` .. `UINT_64`).
    UnsignedInt,
    /// IEEE 754 numbers in total order, NaN counted and left out of the
    /// bounds unless every value is NaN.
    Float,
    /// Half-precision floats in 2 little-endian bytes, as [`Float`](Self::Float).
    Float16,
    /// Lexicographic by unsigned bytes.
    Bytes,
    /// Signed big-endian two's complement integers (decimals in byte
    /// arrays).
    SignedBytes,
    /// No order: min/max are not computed.
    Undefined,
}

impl ValueOrder {
    /// The order of a column's values, from its physical and logical type.
    pub fn of(descr: &ColumnDescriptor) -> Self {
        let logical = descr.logical_type.as_ref();
        let converted = descr.converted_type;
        let unsigned = matches!(
            logical,
            Some(LogicalType::Integer(IntType {
                is_signed: false,
                ..
            }))
        ) || matches!(
            converted,
            Some(
                ConvertedType::Uint8
                    | ConvertedType::Uint16
                    | ConvertedType::Uint32
                    | ConvertedType::Uint64
            )
        );
        let decimal = matches!(logical, Some(LogicalType::Decimal(_)))
            || converted == Some(ConvertedType::Decimal);
        match descr.physical_type {
            Type::Boolean => Self::Boolean,
            Type::Int32 | Type::Int64 if unsigned => Self::UnsignedInt,
            Type::Int32 | Type::Int64 => Self::SignedInt,
            Type::Int96 => Self::Undefined,
            Type::Float | Type::Double => Self::Float,
            Type::ByteArray | Type::FixedLenByteArray if decimal => Self::SignedBytes,
            Type::FixedLenByteArray if matches!(logical, Some(LogicalType::Float16)) => {
                if descr.type_length == Some(2) {
                    Self::Float16
                } else {
                    Self::Undefined
                }
            }
            Type::FixedLenByteArray if converted == Some(ConvertedType::Interval) => {
                Self::Undefined
            }
            Type::ByteArray | Type::FixedLenByteArray => Self::Bytes,
        }
    }

    /// Whether the deprecated signed-order `min`/`max` agree with this
    /// order and are written too.
    pub fn writes_deprecated_min_max(self) -> bool {
        matches!(self, Self::Boolean | Self::SignedInt)
    }

    /// Whether values may be NaN, which are counted (`nan_count`).
    pub fn counts_nans(self) -> bool {
        matches!(self, Self::Float | Self::Float16)
    }

    /// Whether long bounds may be truncated (unsigned byte order only).
    pub fn truncatable(self) -> bool {
        self == Self::Bytes
    }
}

/// Whether a column holds UTF-8 text (bounds are cut at characters).
pub fn is_utf8(descr: &ColumnDescriptor) -> bool {
    matches!(
        descr.logical_type,
        Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
    ) || matches!(
        descr.converted_type,
        Some(ConvertedType::Utf8 | ConvertedType::Enum | ConvertedType::Json)
    )
}

/// A minimum and maximum seen so far.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MinMax<S> {
    /// Smallest value, if any value was ordered.
    pub min: Option<S>,
    /// Largest value.
    pub max: Option<S>,
}

/// A physical type whose values the writer keeps statistics of.
///
/// Implemented for `bool`, `i32`, `i64`, [`Int96`], `f32`, `f64`,
/// [`ByteArray`] and [`FixedLenByteArray`].
pub trait StatsValue: ValueType {
    /// An owned bound.
    type Owned: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static;

    /// Fold a batch of (non-null) values into `acc`; returns how many of
    /// them are NaN (0 but for floats).
    fn update(acc: &mut MinMax<Self::Owned>, values: Self::Batch<'_>, order: ValueOrder) -> u64;

    /// Whether `a < b` under `order`.
    fn less(a: &Self::Owned, b: &Self::Owned, order: ValueOrder) -> bool;

    /// Fold the bounds of other values (a page's into its chunk's) into
    /// `acc`. Floats override it: bounds of numbers replace NaN-only
    /// bounds and are never replaced by them.
    fn fold(acc: &mut MinMax<Self::Owned>, lo: &Self::Owned, hi: &Self::Owned, order: ValueOrder) {
        fold_owned(acc, lo, hi, |a, b| Self::less(a, b, order));
    }

    /// The PLAIN bytes of a bound (no length prefix).
    fn to_bytes(v: &Self::Owned, order: ValueOrder) -> Vec<u8>;
}

/// Fold one candidate into `acc` with `less`.
fn fold_owned<S: Clone>(acc: &mut MinMax<S>, lo: &S, hi: &S, less: impl Fn(&S, &S) -> bool) {
    match &acc.min {
        Some(m) if !less(lo, m) => {}
        _ => acc.min = Some(lo.clone()),
    }
    match &acc.max {
        Some(m) if !less(m, hi) => {}
        _ => acc.max = Some(hi.clone()),
    }
}

/// Lanes of the bound scans: as many independent minimums and maximums,
/// so that each compare waits on the one eight values back, not the one
/// before (a single pair of running bounds is one long dependency chain).
const SCAN_LANES: usize = 8;

/// The least and greatest key of `values`. Keys are compared with `Ord`,
/// so equal keys are equal values for the integer keys used here, and
/// which occurrence of a bound is found does not matter.
#[inline]
fn key_bounds<V: Copy, K: Ord + Copy>(values: &[V], key: impl Fn(V) -> K) -> Option<(K, K)> {
    let first = key(*values.first()?);
    let (mut lo, mut hi) = ([first; SCAN_LANES], [first; SCAN_LANES]);
    let (chunks, rest) = values.as_chunks::<SCAN_LANES>();
    for chunk in chunks {
        for ((l, h), &v) in lo.iter_mut().zip(hi.iter_mut()).zip(chunk) {
            let k = key(v);
            *l = (*l).min(k);
            *h = (*h).max(k);
        }
    }
    for &v in rest {
        let k = key(v);
        lo[0] = lo[0].min(k);
        hi[0] = hi[0].max(k);
    }
    Some((lo.into_iter().min()?, hi.into_iter().max()?))
}

macro_rules! int_stats {
    ($t:ty, $u:ty) => {
        impl StatsValue for $t {
            type Owned = $t;

            fn update(acc: &mut MinMax<$t>, values: &[$t], order: ValueOrder) -> u64 {
                let found = match order {
                    ValueOrder::UnsignedInt => {
                        key_bounds(values, |v| v as $u).map(|(lo, hi)| (lo as $t, hi as $t))
                    }
                    ValueOrder::SignedInt => key_bounds(values, |v| v),
                    _ => None,
                };
                if let Some((lo, hi)) = found {
                    fold_owned(acc, &lo, &hi, |a, b| Self::less(a, b, order));
                }
                0
            }

            fn less(a: &$t, b: &$t, order: ValueOrder) -> bool {
                if order == ValueOrder::UnsignedInt {
                    (*a as $u) < (*b as $u)
                } else {
                    a < b
                }
            }

            fn to_bytes(v: &$t, _order: ValueOrder) -> Vec<u8> {
                v.to_le_bytes().to_vec()
            }
        }
    };
}

int_stats!(i32, u32);
int_stats!(i64, u64);

/// The IEEE 754 total order of floats as integers: the bits of a value
/// read as a signed integer, with the magnitude bits of negative values
/// flipped, order as `total_cmp` orders the values (`-NaN < -inf < ... <
/// -0.0 < +0.0 < ... < +inf < +NaN`). The mapping is its own inverse.
macro_rules! total_order_key {
    ($name:ident, $int:ty, $uint:ty) => {
        #[inline(always)]
        fn $name(bits: $int) -> $int {
            bits ^ ((((bits >> (<$int>::BITS - 1)) as $uint) >> 1) as $int)
        }
    };
}

total_order_key!(total_key16, i16, u16);
total_order_key!(total_key32, i32, u32);
total_order_key!(total_key64, i64, u64);

/// Fold float bounds into `acc` under total order, where bounds of
/// numbers replace NaN-only bounds and are never replaced by them (`lo`
/// and `hi` are both NaN or neither, as are `acc`'s).
fn fold_float<S: Clone>(
    acc: &mut MinMax<S>,
    lo: &S,
    hi: &S,
    is_nan: impl Fn(&S) -> bool,
    less: impl Fn(&S, &S) -> bool,
) {
    match &acc.min {
        Some(m) if is_nan(m) && !is_nan(lo) => {
            acc.min = Some(lo.clone());
            acc.max = Some(hi.clone());
        }
        Some(m) if !is_nan(m) && is_nan(lo) => {}
        _ => fold_owned(acc, lo, hi, less),
    }
}

macro_rules! float_stats {
    ($t:ty, $int:ty, $key:ident) => {
        impl StatsValue for $t {
            type Owned = $t;

            fn update(acc: &mut MinMax<$t>, values: &[$t], order: ValueOrder) -> u64 {
                if order != ValueOrder::Float || values.is_empty() {
                    return 0;
                }
                // Lanes as for integers, compared as numbers: NaN fails
                // both comparisons and is never a bound, and the two zeros
                // compare equal (their signs are settled below). Number
                // comparisons vectorise where total-order keys (integer
                // minimums of the lane width) would not on every target.
                let mut lo = [<$t>::INFINITY; SCAN_LANES];
                let mut hi = [<$t>::NEG_INFINITY; SCAN_LANES];
                let mut nans = [0u64; SCAN_LANES];
                let (chunks, rest) = values.as_chunks::<SCAN_LANES>();
                for chunk in chunks {
                    for i in 0..SCAN_LANES {
                        let v = chunk[i];
                        if v < lo[i] {
                            lo[i] = v;
                        }
                        if v > hi[i] {
                            hi[i] = v;
                        }
                        nans[i] += u64::from(v.is_nan());
                    }
                }
                for &v in rest {
                    if v < lo[0] {
                        lo[0] = v;
                    }
                    if v > hi[0] {
                        hi[0] = v;
                    }
                    nans[0] += u64::from(v.is_nan());
                }
                let nan_count: u64 = nans.iter().sum();
                let (lo, hi) = if nan_count == values.len() as u64 {
                    // Only NaNs: their least and greatest in total order.
                    let Some((lo, hi)) = key_bounds(values, |v| $key(v.to_bits() as $int)) else {
                        return nan_count;
                    };
                    let value = |k: $int| <$t>::from_bits($key(k) as _);
                    (value(lo), value(hi))
                } else {
                    // A sentinel left in place is a value that occurred
                    // (some value is a number, so both bounds are).
                    let lo = lo
                        .into_iter()
                        .fold(<$t>::INFINITY, |a, b| if b < a { b } else { a });
                    let hi = hi
                        .into_iter()
                        .fold(<$t>::NEG_INFINITY, |a, b| if b > a { b } else { a });
                    // A zero bound is `-0.0` when a `-0.0` occurred (the
                    // least zero), a zero maximum `+0.0` when a `+0.0` did.
                    let has = |zero: $t| values.iter().any(|v| v.to_bits() == zero.to_bits());
                    let lo = if lo == 0.0 {
                        if has(-0.0) { -0.0 } else { 0.0 }
                    } else {
                        lo
                    };
                    let hi = if hi == 0.0 {
                        if has(0.0) { 0.0 } else { -0.0 }
                    } else {
                        hi
                    };
                    (lo, hi)
                };
                Self::fold(acc, &lo, &hi, order);
                nan_count
            }

            fn less(a: &$t, b: &$t, _order: ValueOrder) -> bool {
                a.total_cmp(b).is_lt()
            }

            fn fold(acc: &mut MinMax<$t>, lo: &$t, hi: &$t, order: ValueOrder) {
                fold_float(acc, lo, hi, |v| v.is_nan(), |a, b| Self::less(a, b, order));
            }

            fn to_bytes(v: &$t, _order: ValueOrder) -> Vec<u8> {
                v.to_le_bytes().to_vec()
            }
        }
    };
}

float_stats!(f32, i32, total_key32);
float_stats!(f64, i64, total_key64);

impl StatsValue for bool {
    type Owned = bool;

    fn update(acc: &mut MinMax<bool>, values: &[bool], _order: ValueOrder) -> u64 {
        if !values.is_empty() {
            let any_false = values.iter().any(|v| !v);
            let any_true = values.iter().any(|&v| v);
            fold_owned(acc, &!any_false, &any_true, |a, b| !a & b);
        }
        0
    }

    fn less(a: &bool, b: &bool, _order: ValueOrder) -> bool {
        !a & b
    }

    fn to_bytes(v: &bool, _order: ValueOrder) -> Vec<u8> {
        vec![u8::from(*v)]
    }
}

impl StatsValue for Int96 {
    type Owned = Int96;

    fn update(_acc: &mut MinMax<Int96>, _values: &[Int96], _order: ValueOrder) -> u64 {
        0
    }

    fn less(_a: &Int96, _b: &Int96, _order: ValueOrder) -> bool {
        false
    }

    fn to_bytes(v: &Int96, _order: ValueOrder) -> Vec<u8> {
        v.0.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// Compare two signed big-endian two's complement integers of any length
/// (the empty array is zero).
pub fn cmp_signed_be(a: &[u8], b: &[u8]) -> Ordering {
    let neg = |x: &[u8]| x.first().is_some_and(|&h| h & 0x80 != 0);
    let (an, bn) = (neg(a), neg(b));
    if an != bn {
        return if an {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    let ext = if an { 0xFF } else { 0 };
    let n = a.len().max(b.len());
    let (pa, pb) = (n - a.len(), n - b.len());
    for i in 0..n {
        let x = if i < pa { ext } else { a[i - pa] };
        let y = if i < pb { ext } else { b[i - pb] };
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

/// A half-precision float (2 little-endian bytes): its total-order key
/// and whether it is NaN; `None` for another length.
fn f16_key(bytes: &[u8]) -> Option<(i16, bool)> {
    let &[lo, hi] = bytes else { return None };
    let bits = u16::from_le_bytes([lo, hi]);
    let nan = bits & 0x7C00 == 0x7C00 && bits & 0x03FF != 0;
    Some((total_key16(bits as i16), nan))
}

fn bytes_less(a: &[u8], b: &[u8], order: ValueOrder) -> bool {
    match order {
        ValueOrder::SignedBytes => cmp_signed_be(a, b) == Ordering::Less,
        ValueOrder::Float16 => match (f16_key(a), f16_key(b)) {
            (Some((x, _)), Some((y, _))) => x < y,
            _ => false,
        },
        _ => a < b,
    }
}

/// A FLOAT16 value with its total-order key.
type KeyedF16<'a> = (i16, &'a [u8]);

/// Min and max of byte values under `order`, and how many are NaN (FLOAT16
/// under total order, NaN left out of the bounds unless every value is
/// NaN).
fn scan_bytes<'a>(
    mut values: impl Iterator<Item = &'a [u8]>,
    order: ValueOrder,
) -> Option<(&'a [u8], &'a [u8], u64)> {
    match order {
        ValueOrder::Undefined => None,
        ValueOrder::Bytes => scan_lexicographic(values).map(|(lo, hi)| (lo, hi, 0)),
        ValueOrder::Float16 => {
            // Bounds of the numbers and of the NaNs, by key.
            let mut numbers: Option<(KeyedF16<'a>, KeyedF16<'a>)> = None;
            let mut nans: Option<(KeyedF16<'a>, KeyedF16<'a>)> = None;
            let mut nan_count = 0u64;
            for v in values {
                let Some((key, nan)) = f16_key(v) else {
                    continue;
                };
                nan_count += u64::from(nan);
                let slot = if nan { &mut nans } else { &mut numbers };
                match slot {
                    Some((lo, hi)) => {
                        if key < lo.0 {
                            *lo = (key, v);
                        }
                        if key > hi.0 {
                            *hi = (key, v);
                        }
                    }
                    None => *slot = Some(((key, v), (key, v))),
                }
            }
            let ((_, lo), (_, hi)) = numbers.or(nans)?;
            Some((lo, hi, nan_count))
        }
        _ => {
            let first = values.next()?;
            let (mut lo, mut hi) = (first, first);
            for v in values {
                if bytes_less(v, lo, order) {
                    lo = v;
                }
                if bytes_less(hi, v, order) {
                    hi = v;
                }
            }
            Some((lo, hi, 0))
        }
    }
}

/// The first 16 bytes of `v` as a big-endian number, zero padded. A
/// strictly smaller key means a lexicographically smaller value: the first
/// byte where the keys differ is a real byte of the larger value (padding
/// is 0), and either a smaller real byte of the other value or past its
/// end. Sixteen bytes, not eight, because values often share a prefix of
/// eight or more ("customer-", dates, URLs).
#[inline]
fn prefix_key(v: &[u8]) -> u128 {
    if let Some(head) = v.first_chunk::<16>() {
        return u128::from_be_bytes(*head);
    }
    let (high, low) = match v.split_first_chunk::<8>() {
        Some((head, rest)) => (u64::from_be_bytes(*head), short_key(rest)),
        None => (short_key(v), 0),
    };
    (u128::from(high) << 64) | u128::from(low)
}

/// [`prefix_key`] of a value shorter than 8 bytes, as 8 bytes: fixed-size
/// loads, where a copy of a run-time length would call `memcpy`.
#[inline]
fn short_key(v: &[u8]) -> u64 {
    let n = v.len();
    if let (Some(head), Some(tail)) = (v.first_chunk::<4>(), v.last_chunk::<4>()) {
        // 4 to 7 bytes: the last four shifted up to their place; where they
        // overlap the first four they are the same bytes.
        let tail = u64::from(u32::from_be_bytes(*tail)) << ((8 - n.min(8)) * 8);
        return (u64::from(u32::from_be_bytes(*head)) << 32) | tail;
    }
    v.iter()
        .enumerate()
        .fold(0, |key, (i, &b)| key | (u64::from(b) << ((7 - i) * 8)))
}

/// Min and max under lexicographic (unsigned byte) order. Values whose
/// 16-byte prefix lies strictly between those of the current bounds cannot
/// be new bounds and skip both full comparisons; with bounds of distinct
/// prefixes that is almost every value.
fn scan_lexicographic<'a>(
    mut values: impl Iterator<Item = &'a [u8]>,
) -> Option<(&'a [u8], &'a [u8])> {
    let first = values.next()?;
    let (mut lo, mut hi) = (first, first);
    let (mut lo_key, mut hi_key) = (prefix_key(first), prefix_key(first));
    for v in values {
        let key = prefix_key(v);
        if key > lo_key && key < hi_key {
            continue;
        }
        // `v < lo` needs `key <= lo_key`, `v > hi` needs `key >= hi_key`,
        // and a value below `lo` cannot also be above `hi`.
        if key <= lo_key && v < lo {
            lo = v;
            lo_key = key;
        } else if key >= hi_key && hi < v {
            hi = v;
            hi_key = key;
        }
    }
    Some((lo, hi))
}

/// Fold borrowed byte bounds into owned ones, reusing their allocations.
/// FLOAT16 bounds fold as floats do ([`StatsValue::fold`]).
fn fold_bytes(acc: &mut MinMax<Vec<u8>>, lo: &[u8], hi: &[u8], order: ValueOrder) {
    if order == ValueOrder::Float16 {
        let is_nan = |v: &[u8]| f16_key(v).is_some_and(|(_, nan)| nan);
        match &acc.min {
            Some(m) if is_nan(m) && !is_nan(lo) => {
                acc.min = None;
                acc.max = None;
            }
            Some(m) if !is_nan(m) && is_nan(lo) => return,
            _ => {}
        }
    }
    match &mut acc.min {
        Some(m) if !bytes_less(lo, m, order) => {}
        Some(m) => {
            m.clear();
            m.extend_from_slice(lo);
        }
        slot => *slot = Some(lo.to_vec()),
    }
    match &mut acc.max {
        Some(m) if !bytes_less(m, hi, order) => {}
        Some(m) => {
            m.clear();
            m.extend_from_slice(hi);
        }
        slot => *slot = Some(hi.to_vec()),
    }
}

impl StatsValue for ByteArray {
    type Owned = Vec<u8>;

    fn update(acc: &mut MinMax<Vec<u8>>, values: ByteArrayBatch<'_>, order: ValueOrder) -> u64 {
        let Some((lo, hi, nans)) = scan_bytes(values.iter(), order) else {
            return 0;
        };
        fold_bytes(acc, lo, hi, order);
        nans
    }

    fn less(a: &Vec<u8>, b: &Vec<u8>, order: ValueOrder) -> bool {
        bytes_less(a, b, order)
    }

    fn fold(acc: &mut MinMax<Vec<u8>>, lo: &Vec<u8>, hi: &Vec<u8>, order: ValueOrder) {
        fold_bytes(acc, lo, hi, order);
    }

    fn to_bytes(v: &Vec<u8>, _order: ValueOrder) -> Vec<u8> {
        v.clone()
    }
}

impl StatsValue for FixedLenByteArray {
    type Owned = Vec<u8>;

    fn update(acc: &mut MinMax<Vec<u8>>, values: FixedLenBatch<'_>, order: ValueOrder) -> u64 {
        let n = values.len();
        let Some((lo, hi, nans)) = scan_bytes((0..n).filter_map(|i| values.get(i)), order) else {
            return 0;
        };
        fold_bytes(acc, lo, hi, order);
        nans
    }

    fn less(a: &Vec<u8>, b: &Vec<u8>, order: ValueOrder) -> bool {
        bytes_less(a, b, order)
    }

    fn fold(acc: &mut MinMax<Vec<u8>>, lo: &Vec<u8>, hi: &Vec<u8>, order: ValueOrder) {
        fold_bytes(acc, lo, hi, order);
    }

    fn to_bytes(v: &Vec<u8>, _order: ValueOrder) -> Vec<u8> {
        v.clone()
    }
}

/// Truncate a minimum to at most `len` bytes. Returns the bound and
/// whether it was shortened. UTF-8 text is cut at a character boundary
/// (and kept whole if its first character is longer than `len`).
pub fn truncate_min_value(value: &[u8], len: usize, utf8: bool) -> (Vec<u8>, bool) {
    if value.len() <= len {
        return (value.to_vec(), false);
    }
    if utf8 && let Ok(s) = std::str::from_utf8(value) {
        let cut = (1..=len).rev().find(|&i| s.is_char_boundary(i));
        return match cut {
            Some(cut) => (value[..cut].to_vec(), true),
            None => (value.to_vec(), false),
        };
    }
    (value[..len].to_vec(), true)
}

/// Truncate a maximum to at most `len` bytes such that the result is still
/// an upper bound, as arrow-rs does. Returns the bound and whether it was
/// shortened; a value that cannot be shortened is returned whole (exact).
///
/// Bytes: the first `len`, incremented as a big-endian number (a 0xFF
/// byte becomes 0x00 and carries to the one before, so the length stays
/// `len`); `len` 0xFF bytes cannot be incremented. UTF-8 text: cut at the
/// last character boundary at most `len` bytes in (looking back at most
/// three bytes), then the last character that has a successor of the same
/// encoded width is incremented and what follows it dropped; text that is
/// not valid UTF-8 is treated as bytes.
pub fn truncate_max_value(value: &[u8], len: usize, utf8: bool) -> (Vec<u8>, bool) {
    if value.len() <= len {
        return (value.to_vec(), false);
    }
    let bound = match std::str::from_utf8(value) {
        Ok(s) if utf8 => truncate_max_utf8(s, len),
        _ => increment_bytes(&value[..len]),
    };
    match bound {
        Some(v) => (v, true),
        None => (value.to_vec(), false),
    }
}

/// `bytes` plus one, as a big-endian number of the same width; `None` when
/// every byte is 0xFF.
fn increment_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = bytes.to_vec();
    for byte in out.iter_mut().rev() {
        let (next, carry) = byte.overflowing_add(1);
        *byte = next;
        if !carry {
            return Some(out);
        }
    }
    None
}

fn truncate_max_utf8(s: &str, len: usize) -> Option<Vec<u8>> {
    let cut = (len.saturating_sub(3)..=len)
        .rev()
        .find(|&i| s.is_char_boundary(i))?;
    let prefix = s.get(..cut)?;
    prefix.char_indices().rev().find_map(|(at, c)| {
        let next = char::from_u32(u32::from(c) + 1).filter(|n| n.len_utf8() == c.len_utf8())?;
        let mut out = prefix.as_bytes()[..at].to_vec();
        let mut buf = [0u8; 4];
        out.extend_from_slice(next.encode_utf8(&mut buf).as_bytes());
        Some(out)
    })
}

/// A bound ready to be written, with whether it is exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// PLAIN bytes of the bound.
    pub bytes: Vec<u8>,
    /// Whether the bound is the actual value (not truncated).
    pub exact: bool,
}

/// Statistics of a page or a column chunk as they are gathered: min/max
/// under the column order, null count, optional distinct count.
#[derive(Debug, Clone)]
pub struct StatisticsAccumulator<T: StatsValue> {
    order: ValueOrder,
    utf8: bool,
    min_max: MinMax<T::Owned>,
    null_count: u64,
    nan_count: u64,
    distinct_count: Option<u64>,
}

impl<T: StatsValue> StatisticsAccumulator<T> {
    /// An empty accumulator for values compared under `order`; holds no
    /// heap memory until a byte-array bound is recorded.
    pub fn new(order: ValueOrder) -> Self {
        Self {
            order,
            utf8: false,
            min_max: MinMax {
                min: None,
                max: None,
            },
            null_count: 0,
            nan_count: 0,
            distinct_count: None,
        }
    }

    /// Mark the values as UTF-8 text, so truncation keeps characters whole.
    pub fn with_utf8(mut self, utf8: bool) -> Self {
        self.utf8 = utf8;
        self
    }

    /// The comparison order.
    pub fn order(&self) -> ValueOrder {
        self.order
    }

    /// Fold in a batch of non-null values.
    pub fn update(&mut self, values: T::Batch<'_>) {
        self.nan_count += T::update(&mut self.min_max, values, self.order);
    }

    /// Count `n` more nulls.
    pub fn add_nulls(&mut self, n: u64) {
        self.null_count += n;
    }

    /// Set the distinct count written with the statistics.
    pub fn set_distinct_count(&mut self, n: Option<u64>) {
        self.distinct_count = n;
    }

    /// Fold in another accumulator's bounds and nulls (a page into its
    /// chunk).
    pub fn merge(&mut self, other: &Self) {
        if let (Some(lo), Some(hi)) = (&other.min_max.min, &other.min_max.max) {
            T::fold(&mut self.min_max, lo, hi, self.order);
        }
        self.null_count += other.null_count;
        self.nan_count += other.nan_count;
    }

    /// Forget everything (keeps nothing allocated but byte-array bounds).
    pub fn reset(&mut self) {
        self.min_max.min = None;
        self.min_max.max = None;
        self.null_count = 0;
        self.nan_count = 0;
        self.distinct_count = None;
    }

    /// The bounds so far.
    pub fn min_max(&self) -> &MinMax<T::Owned> {
        &self.min_max
    }

    /// Number of nulls so far.
    pub fn null_count(&self) -> u64 {
        self.null_count
    }

    /// Number of NaNs so far, for the orders that count them (floats);
    /// `None` for the others.
    pub fn nan_count(&self) -> Option<u64> {
        self.order.counts_nans().then_some(self.nan_count)
    }

    /// The bounds as bytes, truncated to `truncate` bytes where the order
    /// allows it; `None` when no value was ordered (all null, or an
    /// undefined order).
    pub fn bounds(&self, truncate: Option<usize>) -> Option<(Bound, Bound)> {
        let (lo, hi) = (self.min_max.min.as_ref()?, self.min_max.max.as_ref()?);
        let lo = T::to_bytes(lo, self.order);
        let hi = T::to_bytes(hi, self.order);
        match truncate {
            Some(len) if self.order.truncatable() => {
                let (lo, lo_cut) = truncate_min_value(&lo, len, self.utf8);
                let (hi, hi_cut) = truncate_max_value(&hi, len, self.utf8);
                Some((
                    Bound {
                        bytes: lo,
                        exact: !lo_cut,
                    },
                    Bound {
                        bytes: hi,
                        exact: !hi_cut,
                    },
                ))
            }
            _ => Some((
                Bound {
                    bytes: lo,
                    exact: true,
                },
                Bound {
                    bytes: hi,
                    exact: true,
                },
            )),
        }
    }

    /// The Thrift `Statistics`, bounds truncated to `truncate` bytes.
    ///
    /// Fails only for a bound of 4 GiB or more, which no Parquet value can
    /// be.
    pub fn to_statistics(&self, truncate: Option<usize>) -> Result<ThriftStatistics, FormatError> {
        let mut s = ThriftStatistics::default();
        s.null_count = Some(i64::try_from(self.null_count).unwrap_or(i64::MAX));
        s.set_nan_count(
            self.nan_count()
                .map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
        );
        s.set_distinct_count(
            self.distinct_count
                .map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
        );
        if let Some((lo, hi)) = self.bounds(truncate) {
            if self.order.writes_deprecated_min_max() {
                s.set_min(Some(&lo.bytes))?;
                s.set_max(Some(&hi.bytes))?;
            }
            s.is_min_value_exact = Some(lo.exact);
            s.is_max_value_exact = Some(hi.exact);
            s.set_min_value(Some(&lo.bytes))?;
            s.set_max_value(Some(&hi.bytes))?;
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The bounds `update` finds in one batch.
    fn bounds<T: StatsValue>(values: T::Batch<'_>, order: ValueOrder) -> MinMax<T::Owned> {
        let mut acc = MinMax {
            min: None,
            max: None,
        };
        T::update(&mut acc, values, order);
        acc
    }

    proptest! {
        /// The lane-wise scans find the bounds a plain scan finds, for
        /// every length (whole lanes and a remainder) and both orders.
        #[test]
        fn integer_bounds_match_a_plain_scan(
            wide in proptest::collection::vec(any::<i64>(), 0..70),
            narrow in proptest::collection::vec(any::<i32>(), 0..70),
        ) {
            let b = bounds::<i64>(&wide, ValueOrder::SignedInt);
            prop_assert_eq!((b.min, b.max), (wide.iter().copied().min(), wide.iter().copied().max()));
            let b = bounds::<i64>(&wide, ValueOrder::UnsignedInt);
            let unsigned = |v: i64| v as u64;
            prop_assert_eq!(
                (b.min.map(unsigned), b.max.map(unsigned)),
                (wide.iter().map(|&v| unsigned(v)).min(), wide.iter().map(|&v| unsigned(v)).max())
            );
            let b = bounds::<i32>(&narrow, ValueOrder::SignedInt);
            prop_assert_eq!((b.min, b.max), (narrow.iter().copied().min(), narrow.iter().copied().max()));
            let b = bounds::<i32>(&narrow, ValueOrder::UnsignedInt);
            prop_assert_eq!(
                (b.min.map(|v| v as u32), b.max.map(|v| v as u32)),
                (narrow.iter().map(|&v| v as u32).min(), narrow.iter().map(|&v| v as u32).max())
            );
        }

        /// Float bounds follow total order: they equal the least and
        /// greatest of the values other than NaN under `total_cmp` (so
        /// `-0.0 < +0.0`), or of the NaNs when every value is NaN, and the
        /// NaNs are counted; a batch split in two and folded gives the same.
        #[test]
        fn float_bounds_follow_total_order(
            picks in proptest::collection::vec((0u8..9, -1e6f64..1e6), 0..70),
            split in 0usize..70,
        ) {
            let values: Vec<f64> = picks
                .iter()
                .map(|&(kind, x)| match kind {
                    0 => f64::NAN,
                    1 => -f64::NAN,
                    2 => 0.0,
                    3 => -0.0,
                    4 => f64::INFINITY,
                    5 => f64::NEG_INFINITY,
                    _ => x,
                })
                .collect();
            let numbers: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
            let pool = if numbers.is_empty() { values.clone() } else { numbers };
            let lo = pool.iter().copied().min_by(f64::total_cmp);
            let hi = pool.iter().copied().max_by(f64::total_cmp);
            let bits = |v: Option<f64>| v.map(f64::to_bits);
            let nans = values.iter().filter(|v| v.is_nan()).count() as u64;

            let mut whole = StatisticsAccumulator::<f64>::new(ValueOrder::Float);
            whole.update(&values);
            prop_assert_eq!(bits(whole.min_max().min), bits(lo));
            prop_assert_eq!(bits(whole.min_max().max), bits(hi));
            prop_assert_eq!(whole.nan_count(), Some(nans));

            let (a, b) = values.split_at(split.min(values.len()));
            let mut first = StatisticsAccumulator::<f64>::new(ValueOrder::Float);
            first.update(a);
            let mut second = StatisticsAccumulator::<f64>::new(ValueOrder::Float);
            second.update(b);
            first.merge(&second);
            prop_assert_eq!(bits(first.min_max().min), bits(lo));
            prop_assert_eq!(bits(first.min_max().max), bits(hi));
            prop_assert_eq!(first.nan_count(), Some(nans));

            // FLOAT16 under the same rules, on values exact in half precision.
            let half: Vec<[u8; 2]> = values
                .iter()
                .map(|&v| {
                    let v = if v.is_finite() && v.abs() > 1.0 { v.signum() * 2.0 } else { v };
                    half::f16::from_f64(v).to_le_bytes()
                })
                .collect();
            let halves: Vec<half::f16> = half.iter().map(|b| half::f16::from_le_bytes(*b)).collect();
            let numbers: Vec<half::f16> = halves.iter().copied().filter(|v| !v.is_nan()).collect();
            let pool = if numbers.is_empty() { halves.clone() } else { numbers };
            let lo = pool.iter().copied().min_by(half::f16::total_cmp).map(|v| v.to_le_bytes().to_vec());
            let hi = pool.iter().copied().max_by(half::f16::total_cmp).map(|v| v.to_le_bytes().to_vec());
            let flat: Vec<u8> = half.concat();
            let batch = FixedLenBatch::new(2, &flat).unwrap();
            let mut acc = StatisticsAccumulator::<FixedLenByteArray>::new(ValueOrder::Float16);
            acc.update(batch);
            prop_assert_eq!(&acc.min_max().min, &lo);
            prop_assert_eq!(&acc.min_max().max, &hi);
            prop_assert_eq!(acc.nan_count(), Some(nans));
        }
    }

    #[test]
    fn signed_be() {
        assert_eq!(cmp_signed_be(&[0x80], &[0x7F]), Ordering::Less);
        assert_eq!(cmp_signed_be(&[0xFF, 0xFF], &[0xFF]), Ordering::Equal);
        assert_eq!(cmp_signed_be(&[0x00, 0x80], &[0x7F]), Ordering::Greater);
        assert_eq!(cmp_signed_be(&[], &[0x00]), Ordering::Equal);
        assert_eq!(cmp_signed_be(&[0xFE], &[]), Ordering::Less);
    }

    #[test]
    fn f16_keys_follow_total_order() {
        // -NaN < -inf < -2 < -0 < +0 < 1 < +inf < +NaN
        let ordered: [[u8; 2]; 8] = [
            [0x01, 0xFC],
            [0x00, 0xFC],
            [0x00, 0xC0],
            [0x00, 0x80],
            [0x00, 0x00],
            [0x00, 0x3C],
            [0x00, 0x7C],
            [0x01, 0x7C],
        ];
        let keys: Vec<(i16, bool)> = ordered.iter().filter_map(|b| f16_key(b)).collect();
        assert_eq!(keys.len(), 8);
        assert!(keys.windows(2).all(|w| w[0].0 < w[1].0));
        let nan: Vec<bool> = keys.iter().map(|k| k.1).collect();
        assert_eq!(nan, [true, false, false, false, false, false, false, true]);
        assert_eq!(f16_key(&[0x00]), None);
    }

    #[test]
    fn truncation() {
        assert_eq!(truncate_max_value(b"abc", 2, false), (b"ac".to_vec(), true));
        // A carry keeps the width: 0x01FF + 1 = 0x0200.
        assert_eq!(
            truncate_max_value(&[1, 0xFF, 3], 2, false),
            (vec![2, 0], true)
        );
        // Not valid UTF-8: incremented as bytes.
        assert_eq!(
            truncate_max_value(&[b'a', 0xFF, 0xFF], 2, true),
            (vec![b'b', 0], true)
        );
        // U+07FF's successor is three bytes: the character before it is
        // incremented instead and the rest dropped.
        assert_eq!(
            truncate_max_value("a\u{7ff}\u{7ff}x".as_bytes(), 5, true),
            (b"b".to_vec(), true)
        );
        // U+D7FF has no successor (surrogates): likewise.
        assert_eq!(
            truncate_max_value("a\u{d7ff}x".as_bytes(), 4, true),
            (b"b".to_vec(), true)
        );
        assert_eq!(
            truncate_max_value("ab\u{e9}x".as_bytes(), 4, true),
            ("ab\u{ea}".as_bytes().to_vec(), true)
        );
        assert_eq!(
            truncate_max_value(&[0xFF, 0xFF, 3], 2, false),
            (vec![0xFF, 0xFF, 3], false)
        );
        assert_eq!(
            truncate_max_value("aé".as_bytes(), 2, true),
            (b"b".to_vec(), true)
        );
        assert_eq!(
            truncate_min_value("aé".as_bytes(), 2, true),
            (b"a".to_vec(), true)
        );
    }

    proptest::proptest! {
        /// The prefix-key shortcut finds the same bounds as plain slice
        /// comparison, including values that differ only after sixteen
        /// bytes, embedded zero bytes and prefixes of one another.
        #[test]
        fn lexicographic_scan_matches_plain_comparison(
            values in proptest::collection::vec(
                proptest::collection::vec(proptest::prop_oneof![proptest::strategy::Just(0u8), proptest::strategy::Just(0xFFu8), 0u8..4], 0..24),
                1..60,
            )
        ) {
            let slices: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
            let expected_min = slices.iter().min().copied();
            let expected_max = slices.iter().max().copied();
            let got = scan_lexicographic(slices.iter().copied());
            proptest::prop_assert_eq!(got.map(|b| b.0), expected_min);
            proptest::prop_assert_eq!(got.map(|b| b.1), expected_max);
        }
    }
}
