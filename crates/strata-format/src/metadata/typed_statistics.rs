//! A column chunk's statistics with their bounds typed by the column's
//! physical type: arrow-rs's `parquet::file::statistics::{Statistics,
//! ValueStatistics}` shape, read from the footer's Thrift
//! [`Statistics`](super::Statistics) on demand
//! ([`ColumnChunk::statistics`](super::ColumnChunk::statistics)), so the
//! footer itself stays as decoded.

use super::{Statistics, Type};

/// Bounds and counts of one column chunk, the bounds as values of `T`.
///
/// The bounds are the footer's `min_value`/`max_value`; a writer that
/// set only the deprecated `min`/`max` has those, and
/// [`is_min_max_deprecated`](TypedStatistics::is_min_max_deprecated)
/// says so (their order was signed byte order whatever the type, so
/// they may be wrong for unsigned and byte-array columns).
#[derive(Debug, Clone, PartialEq)]
pub struct ValueStatistics<T> {
    min: Option<T>,
    max: Option<T>,
    min_bytes: Option<Vec<u8>>,
    max_bytes: Option<Vec<u8>>,
    distinct_count: Option<u64>,
    null_count: Option<u64>,
    nan_count: Option<u64>,
    is_min_max_deprecated: bool,
    min_is_exact: bool,
    max_is_exact: bool,
}

impl<T> ValueStatistics<T> {
    /// The lower bound.
    pub fn min_opt(&self) -> Option<&T> {
        self.min.as_ref()
    }

    /// The upper bound.
    pub fn max_opt(&self) -> Option<&T> {
        self.max.as_ref()
    }

    /// The lower bound as stored (PLAIN encoded).
    pub fn min_bytes_opt(&self) -> Option<&[u8]> {
        self.min_bytes.as_deref()
    }

    /// The upper bound as stored (PLAIN encoded).
    pub fn max_bytes_opt(&self) -> Option<&[u8]> {
        self.max_bytes.as_deref()
    }

    /// Distinct values, where the writer counted them.
    pub fn distinct_count(&self) -> Option<u64> {
        self.distinct_count
    }

    /// Nulls, where the writer counted them.
    pub fn null_count_opt(&self) -> Option<u64> {
        self.null_count
    }

    /// NaNs, where the writer counted them (floating point columns:
    /// FLOAT, DOUBLE and FLOAT16's FIXED_LEN_BYTE_ARRAY).
    pub fn nan_count_opt(&self) -> Option<u64> {
        self.nan_count
    }

    /// Whether the lower bound is a value of the chunk (not truncated):
    /// a fixed-width bound always is; a byte-array bound where the writer
    /// said so (`is_min_value_exact`), as arrow-rs reads it.
    pub fn min_is_exact(&self) -> bool {
        self.min.is_some() && self.min_is_exact
    }

    /// Whether the upper bound is a value of the chunk (not truncated),
    /// by [`min_is_exact`](Self::min_is_exact)'s rule.
    pub fn max_is_exact(&self) -> bool {
        self.max.is_some() && self.max_is_exact
    }
}

/// A column chunk's statistics, typed by its physical type (arrow-rs's
/// `Statistics` enum; `strata_file::statistics::Statistics`).
///
/// ```
/// use strata_format::metadata::{Statistics, Type, TypedStatistics};
///
/// let mut thrift = Statistics::default();
/// thrift.set_min_value(Some(&7i32.to_le_bytes())).unwrap();
/// thrift.set_max_value(Some(&42i32.to_le_bytes())).unwrap();
/// thrift.null_count = Some(3);
/// let stats = TypedStatistics::from_thrift(Type::INT32, &thrift).unwrap();
/// let TypedStatistics::Int32(values) = &stats else { panic!() };
/// assert_eq!((values.min_opt(), values.max_opt()), (Some(&7), Some(&42)));
/// assert_eq!(stats.null_count_opt(), Some(3));
/// assert_eq!(stats.min_bytes_opt(), Some(&7i32.to_le_bytes()[..]));
/// assert!(!stats.is_min_max_deprecated());
/// // A bound of the wrong width is no statistics at all.
/// thrift.set_min_value(Some(&[1, 2])).unwrap();
/// assert!(TypedStatistics::from_thrift(Type::INT32, &thrift).is_none());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum TypedStatistics {
    /// A BOOLEAN column's.
    Boolean(ValueStatistics<bool>),
    /// An INT32 column's.
    Int32(ValueStatistics<i32>),
    /// An INT64 column's.
    Int64(ValueStatistics<i64>),
    /// An INT96 column's: three little-endian words, least significant
    /// first.
    Int96(ValueStatistics<[u32; 3]>),
    /// A FLOAT column's.
    Float(ValueStatistics<f32>),
    /// A DOUBLE column's.
    Double(ValueStatistics<f64>),
    /// A BYTE_ARRAY column's.
    ByteArray(ValueStatistics<Vec<u8>>),
    /// A FIXED_LEN_BYTE_ARRAY column's.
    FixedLenByteArray(ValueStatistics<Vec<u8>>),
}

/// Apply `$f` to the `ValueStatistics` inside, whatever its type.
macro_rules! each {
    ($s:expr, |$v:ident| $f:expr) => {
        match $s {
            TypedStatistics::Boolean($v) => $f,
            TypedStatistics::Int32($v) => $f,
            TypedStatistics::Int64($v) => $f,
            TypedStatistics::Int96($v) => $f,
            TypedStatistics::Float($v) => $f,
            TypedStatistics::Double($v) => $f,
            TypedStatistics::ByteArray($v) => $f,
            TypedStatistics::FixedLenByteArray($v) => $f,
        }
    };
}

impl TypedStatistics {
    /// The statistics of a column of `physical` type from the footer's
    /// Thrift `stats`. `None` when a bound does not decode as a value of
    /// the type (a width that does not match it).
    pub fn from_thrift(physical: Type, stats: &Statistics) -> Option<Self> {
        let deprecated = stats.min_value().is_none() && stats.max_value().is_none();
        let (min, max) = match deprecated {
            true => (stats.min(), stats.max()),
            false => (stats.min_value(), stats.max_value()),
        };
        let count = |c: Option<i64>| c.and_then(|c| u64::try_from(c).ok());
        fn typed<T>(
            min: Option<&[u8]>,
            max: Option<&[u8]>,
            decode: impl Fn(&[u8]) -> Option<T>,
        ) -> Option<(Option<T>, Option<T>)> {
            let min = match min {
                Some(b) => Some(decode(b)?),
                None => None,
            };
            let max = match max {
                Some(b) => Some(decode(b)?),
                None => None,
            };
            Some((min, max))
        }
        // Exactness as arrow-rs reads it: fixed-width bounds are never
        // truncated, so they are exact; a byte-array bound is exact only
        // where the writer said so. NaN counts are kept for the floating
        // point types (FLOAT16 is a FIXED_LEN_BYTE_ARRAY).
        let byte_bounds = matches!(physical, Type::ByteArray | Type::FixedLenByteArray);
        let (min_is_exact, max_is_exact) = match byte_bounds {
            true => (
                stats.is_min_value_exact.unwrap_or(false),
                stats.is_max_value_exact.unwrap_or(false),
            ),
            false => (true, true),
        };
        let nan_count = match physical {
            Type::Float | Type::Double | Type::FixedLenByteArray => count(stats.nan_count()),
            _ => None,
        };
        macro_rules! values {
            ($variant:ident, $decode:expr) => {{
                let (tmin, tmax) = typed(min, max, $decode)?;
                TypedStatistics::$variant(ValueStatistics {
                    min: tmin,
                    max: tmax,
                    min_bytes: min.map(<[u8]>::to_vec),
                    max_bytes: max.map(<[u8]>::to_vec),
                    distinct_count: count(stats.distinct_count()),
                    null_count: count(stats.null_count),
                    nan_count,
                    is_min_max_deprecated: deprecated,
                    min_is_exact,
                    max_is_exact,
                })
            }};
        }
        Some(match physical {
            Type::Boolean => values!(Boolean, bool::from_plain),
            Type::Int32 => values!(Int32, i32::from_plain),
            Type::Int64 => values!(Int64, i64::from_plain),
            Type::Int96 => values!(Int96, <[u32; 3]>::from_plain),
            Type::Float => values!(Float, f32::from_plain),
            Type::Double => values!(Double, f64::from_plain),
            Type::ByteArray => values!(ByteArray, Vec::<u8>::from_plain),
            Type::FixedLenByteArray => values!(FixedLenByteArray, Vec::<u8>::from_plain),
        })
    }

    /// The column's physical type.
    pub fn physical_type(&self) -> Type {
        match self {
            Self::Boolean(_) => Type::Boolean,
            Self::Int32(_) => Type::Int32,
            Self::Int64(_) => Type::Int64,
            Self::Int96(_) => Type::Int96,
            Self::Float(_) => Type::Float,
            Self::Double(_) => Type::Double,
            Self::ByteArray(_) => Type::ByteArray,
            Self::FixedLenByteArray(_) => Type::FixedLenByteArray,
        }
    }

    /// Nulls, where the writer counted them.
    pub fn null_count_opt(&self) -> Option<u64> {
        each!(self, |v| v.null_count)
    }

    /// Distinct values, where the writer counted them.
    pub fn distinct_count_opt(&self) -> Option<u64> {
        each!(self, |v| v.distinct_count)
    }

    /// NaNs, where the writer counted them (floating point columns).
    pub fn nan_count_opt(&self) -> Option<u64> {
        each!(self, |v| v.nan_count)
    }

    /// The lower bound as stored (PLAIN encoded).
    pub fn min_bytes_opt(&self) -> Option<&[u8]> {
        each!(self, |v| v.min_bytes.as_deref())
    }

    /// The upper bound as stored (PLAIN encoded).
    pub fn max_bytes_opt(&self) -> Option<&[u8]> {
        each!(self, |v| v.max_bytes.as_deref())
    }

    /// Whether the bounds come from the deprecated `min`/`max` fields.
    pub fn is_min_max_deprecated(&self) -> bool {
        each!(self, |v| v.is_min_max_deprecated)
    }

    /// Whether the lower bound is a value of the chunk.
    pub fn min_is_exact(&self) -> bool {
        each!(self, |v| v.min_is_exact())
    }

    /// Whether the upper bound is a value of the chunk.
    pub fn max_is_exact(&self) -> bool {
        each!(self, |v| v.max_is_exact())
    }
}

/// A bound's value as statistics and column indexes hold it: its PLAIN
/// bytes, and back.
pub trait StatisticsValue: Sized {
    /// The width of the PLAIN encoding, `None` for byte arrays.
    const WIDTH: Option<usize>;

    /// The PLAIN encoding of the value (a byte array's bytes alone).
    fn plain_bytes(&self) -> Vec<u8>;

    /// The value whose PLAIN encoding `bytes` starts with; `None` when
    /// they are too few. (Column indexes are read this way, by prefix;
    /// chunk statistics only where the width is exact.)
    fn from_plain_prefix(bytes: &[u8]) -> Option<Self>;

    /// The value `bytes` encode, exactly: `None` for a wrong width.
    fn from_plain(bytes: &[u8]) -> Option<Self> {
        if Self::WIDTH.is_some_and(|w| w != bytes.len()) {
            return None;
        }
        Self::from_plain_prefix(bytes)
    }
}

impl StatisticsValue for bool {
    const WIDTH: Option<usize> = Some(1);

    fn plain_bytes(&self) -> Vec<u8> {
        vec![u8::from(*self)]
    }

    fn from_plain_prefix(bytes: &[u8]) -> Option<Self> {
        Some(*bytes.first()? != 0)
    }
}

macro_rules! le_statistics_value {
    ($($t:ty),*) => {$(
        impl StatisticsValue for $t {
            const WIDTH: Option<usize> = Some(size_of::<$t>());

            fn plain_bytes(&self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }

            fn from_plain_prefix(bytes: &[u8]) -> Option<Self> {
                Some(<$t>::from_le_bytes(bytes.get(..size_of::<$t>())?.try_into().ok()?))
            }
        }
    )*};
}
le_statistics_value!(i32, i64, f32, f64, u32);

impl StatisticsValue for [u32; 3] {
    const WIDTH: Option<usize> = Some(12);

    fn plain_bytes(&self) -> Vec<u8> {
        self.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn from_plain_prefix(bytes: &[u8]) -> Option<Self> {
        let word = |i: usize| u32::from_plain_prefix(bytes.get(4 * i..)?);
        Some([word(0)?, word(1)?, word(2)?])
    }
}

impl StatisticsValue for Vec<u8> {
    const WIDTH: Option<usize> = None;

    fn plain_bytes(&self) -> Vec<u8> {
        self.clone()
    }

    fn from_plain_prefix(bytes: &[u8]) -> Option<Self> {
        Some(bytes.to_vec())
    }
}

/// Statistics made by hand, with arrow-rs's constructors
/// (`ValueStatistics::new` and its `with_` methods).
///
/// ```
/// use strata_format::metadata::{Type, TypedStatistics, ValueStatistics};
///
/// let stats = TypedStatistics::Double(
///     ValueStatistics::new(Some(-1.5), Some(2.0), None, Some(3), false).with_nan_count(Some(1)),
/// );
/// let thrift = stats.to_thrift();
/// assert_eq!(thrift.min_value(), Some(&(-1.5f64).to_le_bytes()[..]));
/// assert_eq!((thrift.null_count, thrift.nan_count()), (Some(3), Some(1)));
/// assert_eq!(TypedStatistics::from_thrift(Type::DOUBLE, &thrift), Some(stats));
/// ```
impl<T: StatisticsValue> ValueStatistics<T> {
    /// Statistics with these bounds and counts; `is_min_max_deprecated`
    /// puts the bounds in the deprecated `min`/`max` fields.
    pub fn new(
        min: Option<T>,
        max: Option<T>,
        distinct_count: Option<u64>,
        null_count: Option<u64>,
        is_min_max_deprecated: bool,
    ) -> Self {
        Self {
            min_bytes: min.as_ref().map(StatisticsValue::plain_bytes),
            max_bytes: max.as_ref().map(StatisticsValue::plain_bytes),
            min,
            max,
            distinct_count,
            null_count,
            nan_count: None,
            is_min_max_deprecated,
            min_is_exact: true,
            max_is_exact: true,
        }
    }
}

impl<T> ValueStatistics<T> {
    /// Whether the lower bound is a value of the chunk.
    pub fn with_min_is_exact(self, is_min_value_exact: bool) -> Self {
        Self {
            min_is_exact: is_min_value_exact,
            ..self
        }
    }

    /// Whether the upper bound is a value of the chunk.
    pub fn with_max_is_exact(self, is_max_value_exact: bool) -> Self {
        Self {
            max_is_exact: is_max_value_exact,
            ..self
        }
    }

    /// The NaN count (floating point columns).
    pub fn with_nan_count(self, nan_count: Option<u64>) -> Self {
        Self { nan_count, ..self }
    }
}

macro_rules! statistics_constructor {
    ($($func:ident, $t:ty, $variant:ident);*) => {$(
        #[doc = concat!("Statistics of a ", stringify!($variant), " column, as arrow-rs's `Statistics::", stringify!($func), "`.")]
        pub fn $func(
            min: Option<$t>,
            max: Option<$t>,
            distinct: Option<u64>,
            nulls: Option<u64>,
            is_deprecated: bool,
        ) -> Self {
            Self::$variant(ValueStatistics::new(min, max, distinct, nulls, is_deprecated))
        }
    )*};
}

impl TypedStatistics {
    statistics_constructor!(
        boolean, bool, Boolean;
        int32, i32, Int32;
        int64, i64, Int64;
        int96, [u32; 3], Int96;
        float, f32, Float;
        double, f64, Double;
        byte_array, Vec<u8>, ByteArray;
        fixed_len_byte_array, Vec<u8>, FixedLenByteArray
    );

    /// The footer's form of these statistics: the bounds in `min_value` /
    /// `max_value` (or, when deprecated, in `min` / `max`), the counts,
    /// and for byte arrays whether each bound is exact. Statistics without
    /// bounds read back as deprecated, as arrow-rs reads such statistics
    /// from a file.
    pub fn to_thrift(&self) -> Statistics {
        let mut out = Statistics::default();
        let (min, max) = (self.min_bytes_opt(), self.max_bytes_opt());
        // Only a bound of 4 GiB or more does not fit; it is left out.
        let _ = if self.is_min_max_deprecated() {
            out.set_min(min).and_then(|()| out.set_max(max))
        } else {
            out.set_min_value(min).and_then(|()| out.set_max_value(max))
        };
        let count = |c: Option<u64>| c.and_then(|c| i64::try_from(c).ok());
        out.null_count = count(self.null_count_opt());
        out.set_distinct_count(count(self.distinct_count_opt()));
        out.set_nan_count(count(self.nan_count_opt()));
        if matches!(self, Self::ByteArray(_) | Self::FixedLenByteArray(_)) {
            out.is_min_value_exact = min.map(|_| self.min_is_exact());
            out.is_max_value_exact = max.map(|_| self.max_is_exact());
        }
        out
    }
}
