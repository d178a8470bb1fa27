//! The page index: [`ColumnIndex`], [`OffsetIndex`] and [`PageLocation`].

use super::{BoundaryOrder, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};
use strata_sink::varint::zigzag_decode;

/// Location of one page in the file (`PageLocation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PageLocation {
    /// File offset of the page header, field 1.
    pub offset: i64,
    /// Size of the page including its header, field 2.
    pub compressed_page_size: i32,
    /// Index of the page's first row within the row group, field 3.
    pub first_row_index: i64,
}

impl ReadThrift for PageLocation {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    #[inline]
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "PageLocation";
        // Fields 1 (i64), 2 (i32) and 3 (i64) in order, as every writer
        // we know writes them: read in one pass.
        if let Some([offset, size, first_row]) = r.read_varint_struct([0x16, 0x15, 0x16])
            && let Ok(compressed_page_size) = i32::try_from(zigzag_decode(size))
        {
            return Ok(Self {
                offset: zigzag_decode(offset),
                compressed_page_size,
                first_row_index: zigzag_decode(first_row),
            });
        }
        let saved = r.begin_struct()?;
        let (mut offset, mut size, mut first_row) = (None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut offset)?,
                2 => r.read_into(f, &mut size)?,
                3 => r.read_into(f, &mut first_row)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            offset: required(offset, NAME, "offset")?,
            compressed_page_size: required(size, NAME, "compressed_page_size")?,
            first_row_index: required(first_row, NAME, "first_row_index")?,
        })
    }
}

impl WriteThrift for PageLocation {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i64_field(1, self.offset);
        w.i32_field(2, self.compressed_page_size);
        w.i64_field(3, self.first_row_index);
        w.end_struct(saved);
    }
}

/// Page locations of a column chunk (`OffsetIndex`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct OffsetIndex {
    /// One location per page, in file order, field 1.
    pub page_locations: Vec<PageLocation>,
    /// Unencoded `BYTE_ARRAY` bytes per page, field 2.
    pub unencoded_byte_array_data_bytes: Option<Vec<i64>>,
}

impl OffsetIndex {
    /// The location of each page (arrow-rs's `OffsetIndexMetaData`
    /// accessor).
    pub fn page_locations(&self) -> &Vec<PageLocation> {
        &self.page_locations
    }

    /// The unencoded `BYTE_ARRAY` bytes of each page, where written.
    pub fn unencoded_byte_array_data_bytes(&self) -> Option<&Vec<i64>> {
        self.unencoded_byte_array_data_bytes.as_ref()
    }
}

impl ReadThrift for OffsetIndex {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "OffsetIndex";
        let saved = r.begin_struct()?;
        let mut page_locations = None;
        let mut unencoded = None;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut page_locations)?,
                2 => r.read_into(f, &mut unencoded)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            page_locations: required(page_locations, NAME, "page_locations")?,
            unencoded_byte_array_data_bytes: unencoded,
        })
    }
}

impl WriteThrift for OffsetIndex {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.page_locations);
        if let Some(v) = &self.unencoded_byte_array_data_bytes {
            w.field(2, v);
        }
        w.end_struct(saved);
    }
}

/// Per-page bounds and counts of a column chunk (`ColumnIndex`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnIndex {
    /// Whether each page holds only nulls, field 1.
    pub null_pages: Vec<bool>,
    /// Lower bound of each page, field 2.
    pub min_values: Vec<Vec<u8>>,
    /// Upper bound of each page, field 3.
    pub max_values: Vec<Vec<u8>>,
    /// Ordering of the bounds across pages, field 4.
    pub boundary_order: BoundaryOrder,
    /// Null count of each page, field 5.
    pub null_counts: Option<Vec<i64>>,
    /// Concatenated repetition level histograms, field 6.
    pub repetition_level_histograms: Option<Vec<i64>>,
    /// Concatenated definition level histograms, field 7.
    pub definition_level_histograms: Option<Vec<i64>>,
    /// NaN count of each page, field 8.
    pub nan_counts: Option<Vec<i64>>,
}

/// arrow-rs's accessors (`ColumnIndexMetaData`): per-page facts by page
/// position. Out-of-range pages answer `None` (or `false`).
///
/// ```
/// use strata_format::metadata::{BoundaryOrder, ColumnIndex};
///
/// let index = ColumnIndex {
///     null_pages: vec![false, true],
///     min_values: vec![b"a".to_vec(), Vec::new()],
///     max_values: vec![b"m".to_vec(), Vec::new()],
///     boundary_order: BoundaryOrder::Ascending,
///     null_counts: Some(vec![0, 5]),
///     repetition_level_histograms: None,
///     definition_level_histograms: Some(vec![0, 3, 5, 0]),
///     nan_counts: None,
/// };
/// assert_eq!(index.num_pages(), 2);
/// assert!(index.is_null_page(1) && !index.is_null_page(0) && !index.is_null_page(9));
/// assert_eq!(index.null_count(1), Some(5));
/// assert_eq!(index.definition_level_histogram(1), Some(&[5, 0][..]));
/// assert_eq!(index.repetition_level_histogram(0), None);
/// assert!(index.is_sorted());
/// assert_eq!(index.get_boundary_order(), Some(BoundaryOrder::Ascending));
/// ```
impl ColumnIndex {
    /// Number of pages.
    pub fn num_pages(&self) -> u64 {
        self.null_pages.len() as u64
    }

    /// Whether page `idx` holds only nulls.
    pub fn is_null_page(&self, idx: usize) -> bool {
        self.null_pages.get(idx).copied().unwrap_or(false)
    }

    /// The null count of each page, where written.
    pub fn null_counts(&self) -> Option<&Vec<i64>> {
        self.null_counts.as_ref()
    }

    /// The null count of page `idx`.
    pub fn null_count(&self, idx: usize) -> Option<i64> {
        self.null_counts.as_ref()?.get(idx).copied()
    }

    /// The NaN count of each page, where written.
    pub fn nan_counts(&self) -> Option<&Vec<i64>> {
        self.nan_counts.as_ref()
    }

    /// The NaN count of page `idx`.
    pub fn nan_count(&self, idx: usize) -> Option<i64> {
        self.nan_counts.as_ref()?.get(idx).copied()
    }

    /// Whether the pages' bounds are ordered (ascending or descending).
    pub fn is_sorted(&self) -> bool {
        self.boundary_order != BoundaryOrder::Unordered
    }

    /// The order of the pages' bounds.
    pub fn get_boundary_order(&self) -> Option<BoundaryOrder> {
        Some(self.boundary_order)
    }

    /// The repetition level histogram of page `idx`.
    pub fn repetition_level_histogram(&self, idx: usize) -> Option<&[i64]> {
        page_histogram(
            self.repetition_level_histograms.as_deref()?,
            self.null_pages.len(),
            idx,
        )
    }

    /// The definition level histogram of page `idx`.
    pub fn definition_level_histogram(&self, idx: usize) -> Option<&[i64]> {
        page_histogram(
            self.definition_level_histograms.as_deref()?,
            self.null_pages.len(),
            idx,
        )
    }
}

/// Page `idx`'s share of histograms laid end to end, one per page, all of
/// one length.
fn page_histogram(all: &[i64], pages: usize, idx: usize) -> Option<&[i64]> {
    if pages == 0 || !all.len().is_multiple_of(pages) {
        return None;
    }
    let len = all.len() / pages;
    all.get(idx.checked_mul(len)?..idx.checked_add(1)?.checked_mul(len)?)
}

impl ReadThrift for ColumnIndex {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "ColumnIndex";
        let saved = r.begin_struct()?;
        let (mut null_pages, mut min_values, mut max_values, mut order) = (None, None, None, None);
        let (mut null_counts, mut rep, mut def, mut nan) = (None, None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut null_pages)?,
                2 => r.read_into(f, &mut min_values)?,
                3 => r.read_into(f, &mut max_values)?,
                4 => r.read_into(f, &mut order)?,
                5 => r.read_into(f, &mut null_counts)?,
                6 => r.read_into(f, &mut rep)?,
                7 => r.read_into(f, &mut def)?,
                8 => r.read_into(f, &mut nan)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            null_pages: required(null_pages, NAME, "null_pages")?,
            min_values: required(min_values, NAME, "min_values")?,
            max_values: required(max_values, NAME, "max_values")?,
            boundary_order: required(order, NAME, "boundary_order")?,
            null_counts,
            repetition_level_histograms: rep,
            definition_level_histograms: def,
            nan_counts: nan,
        })
    }
}

impl WriteThrift for ColumnIndex {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.null_pages);
        w.field(2, &self.min_values);
        w.field(3, &self.max_values);
        w.field(4, &self.boundary_order);
        if let Some(v) = &self.null_counts {
            w.field(5, v);
        }
        if let Some(v) = &self.repetition_level_histograms {
            w.field(6, v);
        }
        if let Some(v) = &self.definition_level_histograms {
            w.field(7, v);
        }
        if let Some(v) = &self.nan_counts {
            w.field(8, v);
        }
        w.end_struct(saved);
    }
}

#[cfg(test)]
mod tests {
    use super::{OffsetIndex, PageLocation};
    use crate::thrift::{decode, encode_to_vec};

    fn location(offset: i64, size: i32, first_row: i64) -> PageLocation {
        PageLocation {
            offset,
            compressed_page_size: size,
            first_row_index: first_row,
        }
    }

    #[test]
    fn page_locations_round_trip_at_every_varint_length() {
        let mut locations = Vec::new();
        for shift in 0..63 {
            let v = 1i64 << shift;
            locations.push(location(v, (v as i32).wrapping_abs(), v - 1));
            locations.push(location(-v, i32::MIN, i64::MIN + v));
        }
        locations.push(location(i64::MAX, i32::MAX, i64::MIN));
        let index = OffsetIndex {
            page_locations: locations,
            unencoded_byte_array_data_bytes: None,
        };
        assert_eq!(
            decode::<OffsetIndex>(&encode_to_vec(&index)).unwrap(),
            index
        );
    }

    #[test]
    fn other_encodings_of_a_page_location_read_the_same() {
        let want = location(300, 70, 5);
        // Canonical: 0x16 offset, 0x15 size, 0x16 first row, stop.
        let canonical = [0x16, 0xD8, 0x04, 0x15, 0x8C, 0x01, 0x16, 0x0A, 0x00];
        assert_eq!(encode_to_vec(&want), canonical);
        assert_eq!(decode::<PageLocation>(&canonical).unwrap(), want);
        // Fields out of order (3, 1, 2), long-form headers, an unknown
        // field 4 (i32) before the stop: not the fast path's shape.
        let out_of_order = [0x36, 0x0A, 0x06, 0x02, 0xD8, 0x04, 0x15, 0x8C, 0x01, 0x00];
        assert_eq!(decode::<PageLocation>(&out_of_order).unwrap(), want);
        let extra = [
            0x16, 0xD8, 0x04, 0x15, 0x8C, 0x01, 0x16, 0x0A, 0x15, 0x02, 0x00,
        ];
        assert_eq!(decode::<PageLocation>(&extra).unwrap(), want);
        // A size past i32 and a missing field are errors either way.
        let too_big = [
            0x16, 0x02, 0x15, 0x80, 0x80, 0x80, 0x80, 0x10, 0x16, 0x02, 0x00,
        ];
        assert!(decode::<PageLocation>(&too_big).is_err());
        assert!(decode::<PageLocation>(&[0x16, 0x02, 0x15, 0x02, 0x00]).is_err());
        // A ten-byte varint whose last byte carries bits past 64: an error
        // (the fast path must not keep the low bits).
        let mut overflow = vec![0x16];
        overflow.extend_from_slice(&[0xFF; 9]);
        overflow.extend_from_slice(&[0x02, 0x15, 0x02, 0x16, 0x02, 0x00]);
        assert!(decode::<PageLocation>(&overflow).is_err());
        overflow[10] = 0x01;
        assert_eq!(decode::<PageLocation>(&overflow).unwrap().offset, i64::MIN);
        // Truncated anywhere: an error, never a panic.
        for end in 0..canonical.len() {
            assert!(decode::<PageLocation>(&canonical[..end]).is_err(), "{end}");
        }
    }
}
