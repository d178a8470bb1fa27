//! Page headers: [`PageHeader`] and the per-kind headers inside it.

use super::{Encoding, PageType, Statistics, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Header of a version 1 data page (`DataPageHeader`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DataPageHeader {
    /// Number of values including nulls, field 1.
    pub num_values: i32,
    /// Encoding of the values, field 2.
    pub encoding: Encoding,
    /// Encoding of the definition levels, field 3.
    pub definition_level_encoding: Encoding,
    /// Encoding of the repetition levels, field 4.
    pub repetition_level_encoding: Encoding,
    /// Page statistics, field 5.
    pub statistics: Option<Statistics>,
}

impl ReadThrift for DataPageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "DataPageHeader";
        let saved = r.begin_struct()?;
        let (mut num_values, mut encoding, mut def, mut rep) = (None, None, None, None);
        let mut statistics = None;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut num_values)?,
                2 => r.read_into(f, &mut encoding)?,
                3 => r.read_into(f, &mut def)?,
                4 => r.read_into(f, &mut rep)?,
                5 => r.read_into(f, &mut statistics)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            num_values: required(num_values, NAME, "num_values")?,
            encoding: required(encoding, NAME, "encoding")?,
            definition_level_encoding: required(def, NAME, "definition_level_encoding")?,
            repetition_level_encoding: required(rep, NAME, "repetition_level_encoding")?,
            statistics,
        })
    }
}

impl WriteThrift for DataPageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i32_field(1, self.num_values);
        w.field(2, &self.encoding);
        w.field(3, &self.definition_level_encoding);
        w.field(4, &self.repetition_level_encoding);
        if let Some(v) = &self.statistics {
            w.field(5, v);
        }
        w.end_struct(saved);
    }
}

/// Header of an index page (`IndexPageHeader`); the specification defines
/// no fields yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct IndexPageHeader;

impl ReadThrift for IndexPageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        r.skip(FieldType::Struct)?;
        Ok(Self)
    }
}

impl WriteThrift for IndexPageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.end_struct(saved);
    }
}

/// Header of a dictionary page (`DictionaryPageHeader`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DictionaryPageHeader {
    /// Number of dictionary entries, field 1.
    pub num_values: i32,
    /// Encoding of the entries, field 2.
    pub encoding: Encoding,
    /// Whether the entries are sorted ascending, field 3.
    pub is_sorted: Option<bool>,
}

impl ReadThrift for DictionaryPageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "DictionaryPageHeader";
        let saved = r.begin_struct()?;
        let (mut num_values, mut encoding, mut is_sorted) = (None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut num_values)?,
                2 => r.read_into(f, &mut encoding)?,
                3 => r.bool_into(f, &mut is_sorted)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            num_values: required(num_values, NAME, "num_values")?,
            encoding: required(encoding, NAME, "encoding")?,
            is_sorted,
        })
    }
}

impl WriteThrift for DictionaryPageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i32_field(1, self.num_values);
        w.field(2, &self.encoding);
        if let Some(v) = self.is_sorted {
            w.bool_field(3, v);
        }
        w.end_struct(saved);
    }
}

/// Header of a version 2 data page (`DataPageHeaderV2`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DataPageHeaderV2 {
    /// Number of values including nulls, field 1.
    pub num_values: i32,
    /// Number of nulls, field 2.
    pub num_nulls: i32,
    /// Number of rows, field 3.
    pub num_rows: i32,
    /// Encoding of the values, field 4.
    pub encoding: Encoding,
    /// Byte length of the definition levels, field 5.
    pub definition_levels_byte_length: i32,
    /// Byte length of the repetition levels, field 6.
    pub repetition_levels_byte_length: i32,
    /// Whether the values section is compressed, field 7; absent means
    /// `true` (see [`values_compressed`](Self::values_compressed)).
    pub is_compressed: Option<bool>,
    /// Page statistics, field 8.
    pub statistics: Option<Statistics>,
}

impl DataPageHeaderV2 {
    /// Whether the values section is compressed, applying the
    /// specification's default of `true`.
    pub fn values_compressed(&self) -> bool {
        self.is_compressed.unwrap_or(true)
    }
}

impl ReadThrift for DataPageHeaderV2 {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "DataPageHeaderV2";
        let saved = r.begin_struct()?;
        let (mut num_values, mut num_nulls, mut num_rows, mut encoding) = (None, None, None, None);
        let (mut def_len, mut rep_len) = (None, None);
        let (mut is_compressed, mut statistics) = (None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut num_values)?,
                2 => r.read_into(f, &mut num_nulls)?,
                3 => r.read_into(f, &mut num_rows)?,
                4 => r.read_into(f, &mut encoding)?,
                5 => r.read_into(f, &mut def_len)?,
                6 => r.read_into(f, &mut rep_len)?,
                7 => r.bool_into(f, &mut is_compressed)?,
                8 => r.read_into(f, &mut statistics)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            num_values: required(num_values, NAME, "num_values")?,
            num_nulls: required(num_nulls, NAME, "num_nulls")?,
            num_rows: required(num_rows, NAME, "num_rows")?,
            encoding: required(encoding, NAME, "encoding")?,
            definition_levels_byte_length: required(
                def_len,
                NAME,
                "definition_levels_byte_length",
            )?,
            repetition_levels_byte_length: required(
                rep_len,
                NAME,
                "repetition_levels_byte_length",
            )?,
            is_compressed,
            statistics,
        })
    }
}

impl WriteThrift for DataPageHeaderV2 {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i32_field(1, self.num_values);
        w.i32_field(2, self.num_nulls);
        w.i32_field(3, self.num_rows);
        w.field(4, &self.encoding);
        w.i32_field(5, self.definition_levels_byte_length);
        w.i32_field(6, self.repetition_levels_byte_length);
        if let Some(v) = self.is_compressed {
            w.bool_field(7, v);
        }
        if let Some(v) = &self.statistics {
            w.field(8, v);
        }
        w.end_struct(saved);
    }
}

/// The header in front of every page (`PageHeader`).
///
/// ```
/// use strata_format::metadata::{DictionaryPageHeader, Encoding, PageHeader, PageType};
/// use strata_format::thrift::{decode_prefix, encode_to_vec};
///
/// let header = PageHeader {
///     page_type: PageType::DictionaryPage,
///     uncompressed_page_size: 12,
///     compressed_page_size: 12,
///     crc: None,
///     data_page_header: None,
///     index_page_header: None,
///     dictionary_page_header: Some(DictionaryPageHeader {
///         num_values: 3,
///         encoding: Encoding::Plain,
///         is_sorted: None,
///     }),
///     data_page_header_v2: None,
/// };
/// let mut bytes = encode_to_vec(&header);
/// let header_len = bytes.len();
/// bytes.extend_from_slice(&[0; 12]); // the page body follows the header
/// let (decoded, used) = decode_prefix::<PageHeader>(&bytes).unwrap();
/// assert_eq!((decoded, used), (header, header_len));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PageHeader {
    /// Kind of page (`type`), field 1.
    pub page_type: PageType,
    /// Size of the page body after decompression, field 2.
    pub uncompressed_page_size: i32,
    /// Size of the page body as stored, field 3.
    pub compressed_page_size: i32,
    /// CRC32 of the stored page body, field 4.
    pub crc: Option<i32>,
    /// Version 1 data page header, field 5.
    pub data_page_header: Option<DataPageHeader>,
    /// Index page header, field 6.
    pub index_page_header: Option<IndexPageHeader>,
    /// Dictionary page header, field 7.
    pub dictionary_page_header: Option<DictionaryPageHeader>,
    /// Version 2 data page header, field 8.
    pub data_page_header_v2: Option<DataPageHeaderV2>,
}

impl ReadThrift for PageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "PageHeader";
        let saved = r.begin_struct()?;
        let (mut page_type, mut uncompressed, mut compressed, mut crc) = (None, None, None, None);
        let (mut data, mut index, mut dict, mut data_v2) = (None, None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut page_type)?,
                2 => r.read_into(f, &mut uncompressed)?,
                3 => r.read_into(f, &mut compressed)?,
                4 => r.read_into(f, &mut crc)?,
                5 => r.read_into(f, &mut data)?,
                6 => r.read_into(f, &mut index)?,
                7 => r.read_into(f, &mut dict)?,
                8 => r.read_into(f, &mut data_v2)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            page_type: required(page_type, NAME, "type")?,
            uncompressed_page_size: required(uncompressed, NAME, "uncompressed_page_size")?,
            compressed_page_size: required(compressed, NAME, "compressed_page_size")?,
            crc,
            data_page_header: data,
            index_page_header: index,
            dictionary_page_header: dict,
            data_page_header_v2: data_v2,
        })
    }
}

impl WriteThrift for PageHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.page_type);
        w.i32_field(2, self.uncompressed_page_size);
        w.i32_field(3, self.compressed_page_size);
        if let Some(v) = self.crc {
            w.i32_field(4, v);
        }
        if let Some(v) = &self.data_page_header {
            w.field(5, v);
        }
        if let Some(v) = &self.index_page_header {
            w.field(6, v);
        }
        if let Some(v) = &self.dictionary_page_header {
            w.field(7, v);
        }
        if let Some(v) = &self.data_page_header_v2 {
            w.field(8, v);
        }
        w.end_struct(saved);
    }
}
