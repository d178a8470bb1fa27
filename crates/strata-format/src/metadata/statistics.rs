//! Column statistics: [`Statistics`], [`SizeStatistics`] and the geospatial
//! [`GeospatialStatistics`] with its [`BoundingBox`].

use super::required;
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// A statistics value (min or max) in its plain encoding. Values of up to
/// 16 bytes (every fixed-width type, short strings) are held inline, without
/// a heap allocation.
pub type StatValue = smallvec::SmallVec<[u8; 16]>;

/// Statistics of a column chunk or a page (`Statistics`). All fields are
/// optional.
///
/// Bounds are PLAIN-encoded values without a length prefix for byte arrays.
/// `min`/`max` are the deprecated signed-order bounds; `min_value` /
/// `max_value` follow the column's [`ColumnOrder`](super::ColumnOrder).

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Statistics {
    /// Deprecated maximum (signed comparison), field 1.
    pub max: Option<StatValue>,
    /// Deprecated minimum (signed comparison), field 2.
    pub min: Option<StatValue>,
    /// Number of nulls, field 3. Absent is not the same as zero.
    pub null_count: Option<i64>,
    /// Number of distinct values, field 4.
    pub distinct_count: Option<i64>,
    /// Upper bound under the column order, field 5.
    pub max_value: Option<StatValue>,
    /// Lower bound under the column order, field 6.
    pub min_value: Option<StatValue>,
    /// Whether `max_value` is the actual maximum, field 7.
    pub is_max_value_exact: Option<bool>,
    /// Whether `min_value` is the actual minimum, field 8.
    pub is_min_value_exact: Option<bool>,
    /// Number of NaN values (floating-point columns), field 9.
    pub nan_count: Option<i64>,
}

impl Statistics {
    /// Decode a `Statistics` struct into `self` (which must be default).
    pub(crate) fn read_in_place(&mut self, r: &mut CompactReader<'_>) -> Result<()> {
        let saved = r.begin_struct()?;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut self.max)?,
                2 => r.read_into(f, &mut self.min)?,
                3 => r.read_into(f, &mut self.null_count)?,
                4 => r.read_into(f, &mut self.distinct_count)?,
                5 => r.read_into(f, &mut self.max_value)?,
                6 => r.read_into(f, &mut self.min_value)?,
                7 => r.bool_into(f, &mut self.is_max_value_exact)?,
                8 => r.bool_into(f, &mut self.is_min_value_exact)?,
                9 => r.read_into(f, &mut self.nan_count)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(())
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
        if let Some(v) = &self.max {
            w.binary_field(1, v);
        }
        if let Some(v) = &self.min {
            w.binary_field(2, v);
        }
        if let Some(v) = self.null_count {
            w.i64_field(3, v);
        }
        if let Some(v) = self.distinct_count {
            w.i64_field(4, v);
        }
        if let Some(v) = &self.max_value {
            w.binary_field(5, v);
        }
        if let Some(v) = &self.min_value {
            w.binary_field(6, v);
        }
        if let Some(v) = self.is_max_value_exact {
            w.bool_field(7, v);
        }
        if let Some(v) = self.is_min_value_exact {
            w.bool_field(8, v);
        }
        if let Some(v) = self.nan_count {
            w.i64_field(9, v);
        }
        w.end_struct(saved);
    }
}

/// Sizes and level histograms for estimating decoded memory
/// (`SizeStatistics`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SizeStatistics {
    /// Bytes of `BYTE_ARRAY` data without length prefixes, field 1.
    pub unencoded_byte_array_data_bytes: Option<i64>,
    /// Count of each repetition level, field 2.
    pub repetition_level_histogram: Option<Vec<i64>>,
    /// Count of each definition level, field 3.
    pub definition_level_histogram: Option<Vec<i64>>,
}

impl ReadThrift for SizeStatistics {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        let saved = r.begin_struct()?;
        let mut s = Self::default();
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut s.unencoded_byte_array_data_bytes)?,
                2 => r.read_into(f, &mut s.repetition_level_histogram)?,
                3 => r.read_into(f, &mut s.definition_level_histogram)?,
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
            w.field(2, v);
        }
        if let Some(v) = &self.definition_level_histogram {
            w.field(3, v);
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
