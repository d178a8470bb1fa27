//! Module AADs: what each encrypted module is bound to, so that a module
//! moved to another place in the file (another column, row group or page)
//! fails to authenticate.
//!
//! A module's AAD is the file's AAD (the AAD prefix, stored or supplied,
//! then the file's unique bytes), the module type, and for every module
//! but the footer the row group's and the column's ordinals, and for data
//! pages and their headers the page's ordinal in its chunk (data pages
//! only, from 0; the dictionary page is not counted). Ordinals are 2-byte
//! little-endian and at most 32,767.

use crate::error::{FileError, Result};

/// The kinds of encrypted module, with the type byte of their AAD.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModuleType {
    Footer = 0,
    ColumnMetaData = 1,
    DataPage = 2,
    DictionaryPage = 3,
    DataPageHeader = 4,
    DictionaryPageHeader = 5,
    ColumnIndex = 6,
    OffsetIndex = 7,
    BloomFilterHeader = 8,
    BloomFilterBitset = 9,
}

impl ModuleType {
    /// Whether the AAD of this module ends with a page ordinal.
    fn has_page_ordinal(self) -> bool {
        matches!(self, Self::DataPage | Self::DataPageHeader)
    }
}

/// An ordinal as the AAD holds it: 2 bytes, little-endian, at most 32,767.
fn ordinal(value: usize, what: &str) -> Result<[u8; 2]> {
    i16::try_from(value).map(i16::to_le_bytes).map_err(|_| {
        FileError::Decryption(format!(
            "{what} {value}: encrypted files have at most 32,767 (a 2-byte ordinal)"
        ))
    })
}

/// The AAD of the footer.
pub(crate) fn footer_aad(file_aad: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(file_aad.len() + 1);
    aad.extend_from_slice(file_aad);
    aad.push(ModuleType::Footer as u8);
    aad
}

/// The AAD of a module of column `column` of row group `row_group`; the
/// page ordinal is used by data pages and their headers only.
pub(crate) fn module_aad(
    file_aad: &[u8],
    module: ModuleType,
    row_group: usize,
    column: usize,
    page: usize,
) -> Result<Vec<u8>> {
    let mut aad = Vec::with_capacity(file_aad.len() + 7);
    aad.extend_from_slice(file_aad);
    aad.push(module as u8);
    aad.extend_from_slice(&ordinal(row_group, "row group")?);
    aad.extend_from_slice(&ordinal(column, "column")?);
    if module.has_page_ordinal() {
        aad.extend_from_slice(&ordinal(page, "page")?);
    }
    Ok(aad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aads_hold_the_ordinals_each_module_type_names() {
        let file = b"pre\x01\x02";
        assert_eq!(footer_aad(file), b"pre\x01\x02\x00");
        assert_eq!(
            module_aad(file, ModuleType::ColumnMetaData, 1, 258, 9).unwrap(),
            b"pre\x01\x02\x01\x01\x00\x02\x01"
        );
        assert_eq!(
            module_aad(file, ModuleType::DataPageHeader, 0, 3, 513).unwrap(),
            b"pre\x01\x02\x04\x00\x00\x03\x00\x01\x02"
        );
        assert_eq!(
            module_aad(file, ModuleType::DictionaryPage, 2, 0, 7).unwrap(),
            b"pre\x01\x02\x03\x02\x00\x00\x00"
        );
        assert!(module_aad(file, ModuleType::DataPage, 0, 0, 32_767).is_ok());
        assert!(module_aad(file, ModuleType::DataPage, 0, 0, 32_768).is_err());
        assert!(module_aad(file, ModuleType::DataPage, 40_000, 0, 0).is_err());
    }
}
