//! The page index: [`ColumnIndex`], [`OffsetIndex`] and [`PageLocation`].

use super::{BoundaryOrder, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

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
