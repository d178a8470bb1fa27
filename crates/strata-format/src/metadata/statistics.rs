//! Column statistics: [`Statistics`], [`SizeStatistics`] and the geospatial
//! [`GeospatialStatistics`] with its [`BoundingBox`].

use super::required;
use crate::error::{FormatError, Result};
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};
use smallvec::SmallVec;

/// A statistics value (min or max) in its plain encoding, as an owned
/// buffer. Values of up to 16 bytes are held inline. [`Statistics`] itself
/// keeps its four bounds in one buffer and hands out slices; this type is
/// for code that builds or keeps single values.
pub type StatValue = smallvec::SmallVec<[u8; 16]>;

/// Length slot of an absent bound.
const ABSENT: u32 = u32::MAX;

/// The bytes of [`Bounds`]: inline while they fit in 32 bytes, then on
/// the heap. Bytes of the inline array past `len` are unspecified (a short
/// value is written with a fixed 16-byte move), so equality and hashing
/// look at the used bytes only.
#[derive(Clone)]
enum BoundBytes {
    Inline { buf: [u8; 32], len: u8 },
    Heap(Vec<u8>),
}

impl BoundBytes {
    const EMPTY: Self = Self::Inline {
        buf: [0; 32],
        len: 0,
    };
}

impl Default for BoundBytes {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl BoundBytes {
    #[inline]
    fn as_slice(&self) -> &[u8] {
        match self {
            Self::Inline { buf, len } => buf.get(..usize::from(*len)).unwrap_or_default(),
            Self::Heap(v) => v,
        }
    }

    /// Append the first `n` bytes of `window` (`n <= 16`) with one 16-byte
    /// move, if that fits inline; `false` (nothing written) otherwise.
    #[inline]
    fn push_short(&mut self, window: &[u8; 16], n: usize) -> bool {
        if let Self::Inline { buf, len } = self
            && n <= 16
            && let Some(dst) = buf.get_mut(usize::from(*len)..usize::from(*len) + 16)
        {
            dst.copy_from_slice(window);
            *len += n as u8;
            return true;
        }
        false
    }

    fn extend_from_slice(&mut self, v: &[u8]) {
        match self {
            Self::Inline { buf, len } => {
                let used = usize::from(*len);
                if let Some(dst) = buf.get_mut(used..used + v.len()) {
                    dst.copy_from_slice(v);
                    *len += v.len() as u8;
                } else {
                    let mut heap = Vec::with_capacity(used + v.len());
                    heap.extend_from_slice(buf.get(..used).unwrap_or_default());
                    heap.extend_from_slice(v);
                    *self = Self::Heap(heap);
                }
            }
            Self::Heap(heap) => heap.extend_from_slice(v),
        }
    }

    fn truncate(&mut self, n: usize) {
        match self {
            Self::Inline { len, .. } => *len = (*len).min(n.min(32) as u8),
            Self::Heap(heap) => heap.truncate(n),
        }
    }
}

impl PartialEq for BoundBytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for BoundBytes {}

impl std::hash::Hash for BoundBytes {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

/// The four bounds of a [`Statistics`] (`max`, `min`, `max_value`,
/// `min_value`, in that order) in one buffer: up to 32 bytes in all are
/// held inline, and longer bounds share one heap allocation.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Bounds {
    /// The present bounds, concatenated in slot order.
    bytes: BoundBytes,
    /// Length of each bound, [`ABSENT`] when the field is absent.
    lens: [u32; 4],
}

impl Bounds {
    const EMPTY: Self = Self {
        bytes: BoundBytes::EMPTY,
        lens: [ABSENT; 4],
    };
}

impl Default for Bounds {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Bounds {
    /// Start of slot `i` in `bytes`.
    #[inline]
    fn start(&self, i: usize) -> usize {
        self.lens[..i]
            .iter()
            .filter(|&&l| l != ABSENT)
            .map(|&l| l as usize)
            .sum()
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        let len = *self.lens.get(i)?;
        if len == ABSENT {
            return None;
        }
        let start = self.start(i);
        self.bytes.as_slice().get(start..start + len as usize)
    }

    /// Replace slot `i`. Fails, leaving `self` unchanged, for a value of
    /// 4 GiB or more (the Thrift binary it is written as holds less).
    fn set(&mut self, i: usize, value: Option<&[u8]>) -> Result<()> {
        let new_len = match value {
            None => ABSENT,
            Some(v) => match u32::try_from(v.len()) {
                Ok(l) if l != ABSENT => l,
                _ => {
                    return Err(FormatError::InvalidValue {
                        what: "statistics value length",
                        value: i64::try_from(v.len()).unwrap_or(i64::MAX),
                    });
                }
            },
        };
        let start = self.start(i);
        let old_len = match self.lens[i] {
            ABSENT => 0,
            l => l as usize,
        };
        let bytes = self.bytes.as_slice();
        let end = (start + old_len).min(bytes.len());
        let tail = SmallVec::<[u8; 32]>::from_slice(&bytes[end..]);
        self.bytes.truncate(start);
        self.bytes.extend_from_slice(value.unwrap_or_default());
        self.bytes.extend_from_slice(&tail);
        self.lens[i] = new_len;
        Ok(())
    }

    /// Append slot `i`'s value, read from the input: slots are decoded in
    /// field order, so a value read after a later slot goes through `set`.
    fn read(&mut self, i: usize, r: &mut CompactReader<'_>) -> Result<()> {
        let start = r.position();
        let (v, window) = r.read_binary_window()?;
        let in_order = self.lens[i..].iter().all(|&l| l == ABSENT);
        match u32::try_from(v.len()) {
            Ok(l) if l != ABSENT && in_order => {
                // A short value with room inline is one fixed 16-byte move
                // (the value and whatever input follows it); most bounds
                // are 4 or 8 bytes.
                if !window.is_some_and(|w| self.bytes.push_short(w, v.len())) {
                    self.bytes.extend_from_slice(v);
                }
                self.lens[i] = l;
                Ok(())
            }
            Ok(l) if l != ABSENT => self.set(i, Some(v)),
            _ => Err(FormatError::InvalidThrift {
                offset: start,
                reason: "statistics value of 4 GiB or more",
            }),
        }
    }
}

/// Statistics of a column chunk or a page (`Statistics`). All fields are
/// optional.
///
/// Bounds are PLAIN-encoded values without a length prefix for byte arrays.
/// [`min`](Self::min)/[`max`](Self::max) are the deprecated signed-order
/// bounds; [`min_value`](Self::min_value)/[`max_value`](Self::max_value)
/// follow the column's [`ColumnOrder`](super::ColumnOrder). The four bounds
/// share one buffer (inline up to 32 bytes in all), read through the
/// accessors and written through the `set_` methods.
///
/// ```
/// use strata_format::metadata::Statistics;
///
/// let mut s = Statistics::default();
/// s.null_count = Some(0);
/// s.set_min_value(Some(&1i32.to_le_bytes())).unwrap();
/// s.set_max_value(Some(&9i32.to_le_bytes())).unwrap();
/// assert_eq!(s.min_value(), Some(&1i32.to_le_bytes()[..]));
/// assert_eq!(s.max(), None);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Statistics {
    /// The bounds: fields 1 (`max`), 2 (`min`), 5 (`max_value`) and 6
    /// (`min_value`).
    bounds: Bounds,
    /// Number of nulls, field 3. Absent is not the same as zero.
    pub null_count: Option<i64>,
    /// Fields 4 (`distinct_count`) and 9 (`nan_count`), which few writers
    /// set, without the 8 bytes of padding each `Option<i64>` carries:
    /// the values (0 when absent), present where bit 0 and bit 1 of
    /// `counts_present` are set. Read and written through
    /// [`distinct_count`](Self::distinct_count),
    /// [`nan_count`](Self::nan_count) and their `set_` methods.
    counts: [i64; 2],
    counts_present: u8,
    /// Whether `max_value` is the actual maximum, field 7.
    pub is_max_value_exact: Option<bool>,
    /// Whether `min_value` is the actual minimum, field 8.
    pub is_min_value_exact: Option<bool>,
}

/// Slots of `Statistics::counts`.
const DISTINCT: usize = 0;
const NAN: usize = 1;

/// Slots of the bounds.
const MAX: usize = 0;
const MIN: usize = 1;
const MAX_VALUE: usize = 2;
const MIN_VALUE: usize = 3;

impl Default for Statistics {
    #[inline]
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Statistics {
    /// No field set. A constant: the decoder starts each chunk's
    /// statistics from a copy of it.
    const EMPTY: Self = Self {
        bounds: Bounds::EMPTY,
        null_count: None,
        counts: [0; 2],
        counts_present: 0,
        is_max_value_exact: None,
        is_min_value_exact: None,
    };

    #[inline]
    fn count(&self, slot: usize) -> Option<i64> {
        (self.counts_present & (1 << slot) != 0).then(|| self.counts[slot])
    }

    #[inline]
    fn set_count(&mut self, slot: usize, value: Option<i64>) {
        self.counts[slot] = value.unwrap_or(0);
        self.counts_present &= !(1 << slot);
        self.counts_present |= u8::from(value.is_some()) << slot;
    }

    /// Number of distinct values, field 4.
    #[inline]
    pub fn distinct_count(&self) -> Option<i64> {
        self.count(DISTINCT)
    }

    /// Set or clear the number of distinct values, field 4.
    ///
    /// ```
    /// use strata_format::metadata::Statistics;
    ///
    /// let mut s = Statistics::default();
    /// s.set_distinct_count(Some(12));
    /// assert_eq!(s.distinct_count(), Some(12));
    /// assert_eq!(s.nan_count(), None);
    /// s.set_distinct_count(None);
    /// assert_eq!(s, Statistics::default());
    /// ```
    #[inline]
    pub fn set_distinct_count(&mut self, value: Option<i64>) {
        self.set_count(DISTINCT, value);
    }

    /// Number of NaN values (floating-point columns), field 9.
    #[inline]
    pub fn nan_count(&self) -> Option<i64> {
        self.count(NAN)
    }

    /// Set or clear the number of NaN values, field 9.
    #[inline]
    pub fn set_nan_count(&mut self, value: Option<i64>) {
        self.set_count(NAN, value);
    }

    /// Deprecated maximum (signed comparison), field 1.
    #[inline]
    pub fn max(&self) -> Option<&[u8]> {
        self.bounds.get(MAX)
    }

    /// Deprecated minimum (signed comparison), field 2.
    #[inline]
    pub fn min(&self) -> Option<&[u8]> {
        self.bounds.get(MIN)
    }

    /// Upper bound under the column order, field 5.
    #[inline]
    pub fn max_value(&self) -> Option<&[u8]> {
        self.bounds.get(MAX_VALUE)
    }

    /// Lower bound under the column order, field 6.
    #[inline]
    pub fn min_value(&self) -> Option<&[u8]> {
        self.bounds.get(MIN_VALUE)
    }

    /// Set or clear the deprecated maximum, field 1. Fails, changing
    /// nothing, for a value of 4 GiB or more.
    pub fn set_max(&mut self, value: Option<&[u8]>) -> Result<()> {
        self.bounds.set(MAX, value)
    }

    /// Set or clear the deprecated minimum, field 2. Fails, changing
    /// nothing, for a value of 4 GiB or more.
    pub fn set_min(&mut self, value: Option<&[u8]>) -> Result<()> {
        self.bounds.set(MIN, value)
    }

    /// Set or clear the upper bound, field 5. Fails, changing nothing, for
    /// a value of 4 GiB or more.
    pub fn set_max_value(&mut self, value: Option<&[u8]>) -> Result<()> {
        self.bounds.set(MAX_VALUE, value)
    }

    /// Set or clear the lower bound, field 6. Fails, changing nothing, for
    /// a value of 4 GiB or more.
    pub fn set_min_value(&mut self, value: Option<&[u8]>) -> Result<()> {
        self.bounds.set(MIN_VALUE, value)
    }

    /// Decode a `Statistics` struct into `self` (which must be default).
    pub(crate) fn read_in_place(&mut self, r: &mut CompactReader<'_>) -> Result<()> {
        let saved = r.begin_struct()?;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 | 2 | 5 | 6 if f.ty.same_kind(FieldType::Binary) => {
                    let slot = match f.id {
                        1 => MAX,
                        2 => MIN,
                        5 => MAX_VALUE,
                        _ => MIN_VALUE,
                    };
                    self.bounds.read(slot, r)?;
                }
                3 => r.read_into(f, &mut self.null_count)?,
                4 | 9 if f.ty.same_kind(FieldType::I64) => {
                    let value = r.read_i64()?;
                    self.set_count(if f.id == 4 { DISTINCT } else { NAN }, Some(value));
                }
                7 => r.bool_into(f, &mut self.is_max_value_exact)?,
                8 => r.bool_into(f, &mut self.is_min_value_exact)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(())
    }
}

impl std::fmt::Debug for Statistics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Statistics")
            .field("max", &self.max())
            .field("min", &self.min())
            .field("null_count", &self.null_count)
            .field("distinct_count", &self.distinct_count())
            .field("max_value", &self.max_value())
            .field("min_value", &self.min_value())
            .field("is_max_value_exact", &self.is_max_value_exact)
            .field("is_min_value_exact", &self.is_min_value_exact)
            .field("nan_count", &self.nan_count())
            .finish()
    }
}

impl ReadThrift for Statistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let mut s = Self::default();
        s.read_in_place(r)?;
        Ok(s)
    }
}

impl WriteThrift for Statistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        if let Some(v) = self.max() {
            w.binary_field(1, v);
        }
        if let Some(v) = self.min() {
            w.binary_field(2, v);
        }
        if let Some(v) = self.null_count {
            w.i64_field(3, v);
        }
        if let Some(v) = self.distinct_count() {
            w.i64_field(4, v);
        }
        if let Some(v) = self.max_value() {
            w.binary_field(5, v);
        }
        if let Some(v) = self.min_value() {
            w.binary_field(6, v);
        }
        if let Some(v) = self.is_max_value_exact {
            w.bool_field(7, v);
        }
        if let Some(v) = self.is_min_value_exact {
            w.bool_field(8, v);
        }
        if let Some(v) = self.nan_count() {
            w.i64_field(9, v);
        }
        w.end_struct(saved);
    }
}

/// How many of a column chunk's levels (repetition or definition) are at
/// each level: entry `i` counts level `i`. The repetition histogram's
/// entry 0 is the chunk's row count; the definition histogram's last
/// entry its count of present values. arrow-rs's `LevelHistogram`, with
/// its methods; where arrow-rs panics on a level or histogram that does
/// not fit, these ignore what does not fit.
///
/// ```
/// use strata_format::metadata::LevelHistogram;
///
/// let mut histogram = LevelHistogram::try_new(2).unwrap();
/// histogram.increment_by(0, 5);
/// histogram.increment_by(2, 7);
/// histogram.add(&LevelHistogram::from(vec![1, 1, 1]));
/// assert_eq!(histogram.values(), &[6, 1, 8]);
/// assert_eq!(histogram.get(3), None);
/// assert!(LevelHistogram::try_new(0).is_none());
/// // Counts read from a file may be anything: sums saturate.
/// let mut huge = LevelHistogram::from(vec![i64::MAX, 0]);
/// huge.add(&LevelHistogram::from(vec![1, 1]));
/// assert_eq!(huge.values(), &[i64::MAX, 1]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct LevelHistogram {
    inner: Box<[i64]>,
}

impl LevelHistogram {
    /// A histogram of zeros for levels `0..=max_level`; `None` when the
    /// maximum level is 0 (a histogram of one entry says nothing).
    pub fn try_new(max_level: i16) -> Option<Self> {
        let len = usize::try_from(max_level).ok().filter(|&m| m > 0)? + 1;
        Some(Self {
            inner: vec![0; len].into_boxed_slice(),
        })
    }

    /// The counts, one per level.
    pub fn values(&self) -> &[i64] {
        &self.inner
    }

    /// The counts, one per level.
    pub fn into_inner(self) -> Vec<i64> {
        self.inner.into_vec()
    }

    /// The count of level `index`, `None` past the last level.
    pub fn get(&self, index: usize) -> Option<i64> {
        self.inner.get(index).copied()
    }

    /// Add `other`'s counts, level by level (levels `other` has beyond
    /// this one's are ignored). Counts saturate at `i64::MAX`: a file's
    /// histograms may hold any number.
    pub fn add(&mut self, other: &Self) {
        for (count, more) in self.inner.iter_mut().zip(other.inner.iter()) {
            *count = count.saturating_add(*more);
        }
    }

    /// The number of levels counted.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether there are no levels.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// Set every count to 0.
    pub fn reset(&mut self) {
        self.inner.iter_mut().for_each(|c| *c = 0);
    }

    /// Count `count` more values at `level` (a level past the last is
    /// ignored).
    pub fn increment_by(&mut self, level: i16, count: i64) {
        if let Some(c) = usize::try_from(level)
            .ok()
            .and_then(|l| self.inner.get_mut(l))
        {
            *c = c.saturating_add(count);
        }
    }

    /// Count each of `levels`.
    #[deprecated(note = "count with increment_by")]
    pub fn update_from_levels(&mut self, levels: &[i16]) {
        for &level in levels {
            self.increment_by(level, 1);
        }
    }
}

impl From<Vec<i64>> for LevelHistogram {
    fn from(counts: Vec<i64>) -> Self {
        Self {
            inner: counts.into_boxed_slice(),
        }
    }
}

impl From<LevelHistogram> for Vec<i64> {
    fn from(histogram: LevelHistogram) -> Self {
        histogram.into_inner()
    }
}

/// Sizes and level histograms for estimating decoded memory
/// (`SizeStatistics`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SizeStatistics {
    /// Bytes of `BYTE_ARRAY` data without length prefixes, field 1.
    pub unencoded_byte_array_data_bytes: Option<i64>,
    /// Count of each repetition level, field 2.
    pub repetition_level_histogram: Option<LevelHistogram>,
    /// Count of each definition level, field 3.
    pub definition_level_histogram: Option<LevelHistogram>,
}

impl ReadThrift for SizeStatistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let saved = r.begin_struct()?;
        let mut s = Self::default();
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut s.unencoded_byte_array_data_bytes)?,
                2 | 3 => {
                    let mut counts: Option<Box<[i64]>> = None;
                    r.read_into(f, &mut counts)?;
                    let histogram = counts.map(|inner| LevelHistogram { inner });
                    if f.id == 2 {
                        s.repetition_level_histogram = histogram;
                    } else {
                        s.definition_level_histogram = histogram;
                    }
                }
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(s)
    }
}

impl WriteThrift for SizeStatistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        if let Some(v) = self.unencoded_byte_array_data_bytes {
            w.i64_field(1, v);
        }
        if let Some(v) = &self.repetition_level_histogram {
            w.field(2, v.values());
        }
        if let Some(v) = &self.definition_level_histogram {
            w.field(3, v.values());
        }
        w.end_struct(saved);
    }
}

/// Bounding box of geospatial values (`BoundingBox`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoundingBox {
    /// Minimum x, field 1.
    pub xmin: f64,
    /// Maximum x, field 2.
    pub xmax: f64,
    /// Minimum y, field 3.
    pub ymin: f64,
    /// Maximum y, field 4.
    pub ymax: f64,
    /// Minimum z, field 5.
    pub zmin: Option<f64>,
    /// Maximum z, field 6.
    pub zmax: Option<f64>,
    /// Minimum m, field 7.
    pub mmin: Option<f64>,
    /// Maximum m, field 8.
    pub mmax: Option<f64>,
}

/// arrow-rs's accessors (`parquet::geospatial::bounding_box::BoundingBox`):
/// a range of z or m is there only when both of its ends are.
///
/// ```
/// use strata_format::metadata::BoundingBox;
///
/// let bbox = BoundingBox::new(-1.0, 2.0, 0.0, 5.0).with_zrange(3.0, 4.0);
/// assert_eq!((bbox.get_xmin(), bbox.get_ymax()), (-1.0, 5.0));
/// assert_eq!((bbox.get_zmin(), bbox.is_m_valid()), (Some(3.0), false));
/// let half = BoundingBox { mmin: Some(1.0), ..bbox };
/// assert_eq!(half.get_mmin(), None);
/// ```
impl BoundingBox {
    /// A box of x and y ranges, without z or m.
    pub fn new(xmin: f64, xmax: f64, ymin: f64, ymax: f64) -> Self {
        Self {
            xmin,
            xmax,
            ymin,
            ymax,
            ..Self::default()
        }
    }

    /// This box with the x range `xmin..=xmax`.
    pub fn with_xrange(mut self, xmin: f64, xmax: f64) -> Self {
        (self.xmin, self.xmax) = (xmin, xmax);
        self
    }

    /// This box with the y range `ymin..=ymax`.
    pub fn with_yrange(mut self, ymin: f64, ymax: f64) -> Self {
        (self.ymin, self.ymax) = (ymin, ymax);
        self
    }

    /// This box with the z range `zmin..=zmax`.
    pub fn with_zrange(mut self, zmin: f64, zmax: f64) -> Self {
        (self.zmin, self.zmax) = (Some(zmin), Some(zmax));
        self
    }

    /// This box with the m range `mmin..=mmax`.
    pub fn with_mrange(mut self, mmin: f64, mmax: f64) -> Self {
        (self.mmin, self.mmax) = (Some(mmin), Some(mmax));
        self
    }

    /// The least x.
    pub fn get_xmin(&self) -> f64 {
        self.xmin
    }

    /// The greatest x.
    pub fn get_xmax(&self) -> f64 {
        self.xmax
    }

    /// The least y.
    pub fn get_ymin(&self) -> f64 {
        self.ymin
    }

    /// The greatest y.
    pub fn get_ymax(&self) -> f64 {
        self.ymax
    }

    /// The least z, where the box has a z range.
    pub fn get_zmin(&self) -> Option<f64> {
        self.zmin.filter(|_| self.is_z_valid())
    }

    /// The greatest z, where the box has a z range.
    pub fn get_zmax(&self) -> Option<f64> {
        self.zmax.filter(|_| self.is_z_valid())
    }

    /// The least m, where the box has an m range.
    pub fn get_mmin(&self) -> Option<f64> {
        self.mmin.filter(|_| self.is_m_valid())
    }

    /// The greatest m, where the box has an m range.
    pub fn get_mmax(&self) -> Option<f64> {
        self.mmax.filter(|_| self.is_m_valid())
    }

    /// Whether the box has a z range (both ends).
    pub fn is_z_valid(&self) -> bool {
        self.zmin.is_some() && self.zmax.is_some()
    }

    /// Whether the box has an m range (both ends).
    pub fn is_m_valid(&self) -> bool {
        self.mmin.is_some() && self.mmax.is_some()
    }
}

impl ReadThrift for BoundingBox {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "BoundingBox";
        let saved = r.begin_struct()?;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (None, None, None, None);
        let (mut zmin, mut zmax, mut mmin, mut mmax) = (None, None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut xmin)?,
                2 => r.read_into(f, &mut xmax)?,
                3 => r.read_into(f, &mut ymin)?,
                4 => r.read_into(f, &mut ymax)?,
                5 => r.read_into(f, &mut zmin)?,
                6 => r.read_into(f, &mut zmax)?,
                7 => r.read_into(f, &mut mmin)?,
                8 => r.read_into(f, &mut mmax)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            xmin: required(xmin, NAME, "xmin")?,
            xmax: required(xmax, NAME, "xmax")?,
            ymin: required(ymin, NAME, "ymin")?,
            ymax: required(ymax, NAME, "ymax")?,
            zmin,
            zmax,
            mmin,
            mmax,
        })
    }
}

impl WriteThrift for BoundingBox {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.double_field(1, self.xmin);
        w.double_field(2, self.xmax);
        w.double_field(3, self.ymin);
        w.double_field(4, self.ymax);
        let optional = [
            (5, self.zmin),
            (6, self.zmax),
            (7, self.mmin),
            (8, self.mmax),
        ];
        for (id, v) in optional {
            if let Some(v) = v {
                w.double_field(id, v);
            }
        }
        w.end_struct(saved);
    }
}

/// Statistics of `GEOMETRY` and `GEOGRAPHY` columns
/// (`GeospatialStatistics`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeospatialStatistics {
    /// Bounding box of all values, field 1.
    pub bbox: Option<BoundingBox>,
    /// Geospatial type codes of all values, field 2.
    pub geospatial_types: Option<Vec<i32>>,
}

/// arrow-rs's accessors (`parquet::geospatial::statistics::GeospatialStatistics`).
impl GeospatialStatistics {
    /// Statistics of this box and these type codes.
    pub fn new(bbox: Option<BoundingBox>, geospatial_types: Option<Vec<i32>>) -> Self {
        Self {
            bbox,
            geospatial_types,
        }
    }

    /// The ISO WKB type codes of the values (1 point ... 7 collection,
    /// plus 1000 with Z, 2000 with M, 3000 with both); `None` where not
    /// known, an empty list included, as arrow-rs reads one.
    pub fn geospatial_types(&self) -> Option<&Vec<i32>> {
        self.geospatial_types.as_ref().filter(|t| !t.is_empty())
    }

    /// The box of every coordinate, where known.
    pub fn bounding_box(&self) -> Option<&BoundingBox> {
        self.bbox.as_ref()
    }
}

impl ReadThrift for GeospatialStatistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let saved = r.begin_struct()?;
        let mut s = Self::default();
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut s.bbox)?,
                2 => r.read_into(f, &mut s.geospatial_types)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(s)
    }
}

impl WriteThrift for GeospatialStatistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        if let Some(v) = &self.bbox {
            w.field(1, v);
        }
        if let Some(v) = &self.geospatial_types {
            w.field(2, v);
        }
        w.end_struct(saved);
    }
}
