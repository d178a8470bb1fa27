//! The writer's encryption (the `encryption` feature): a closed column
//! chunk's pages and Bloom filter framed as encrypted modules when the row
//! group writer places it, and the page indexes, column metadata and
//! footer when the file is finished. See `crate::encryption` for the
//! modules and their AADs.

use strata_format::footer::{ENCRYPTED_MAGIC, PARQUET_MAGIC};
use strata_format::metadata::{BloomFilterHeader, FileMetaData, PageHeader, RowGroup};
use strata_format::{ColumnDescriptor, thrift};
use strata_sink::ByteSink;

use super::ClosedColumnChunk;
use crate::encryption::{ChunkEncryptor, FileEncryptor, ModuleType};
use crate::error::{FileError, Result};

fn size(len: usize, what: &str) -> Result<i32> {
    i32::try_from(len).map_err(|_| FileError::InvalidArgument(format!("{what} of {len} bytes")))
}

/// The magic a file written by `encryptor` starts and ends with.
pub(crate) fn magic(encryptor: Option<&FileEncryptor>) -> [u8; 4] {
    match encryptor {
        Some(e) if e.encrypt_footer() => ENCRYPTED_MAGIC,
        _ => PARQUET_MAGIC,
    }
}

/// Encrypt the pages (and Bloom filter) of `chunk`, column `descr` of row
/// group `row_group`, when `encryptor` encrypts that column: each page's
/// body becomes a module, its header is re-encoded with the module's size
/// (and the CRC of the encrypted bytes) and becomes a module too. The
/// chunk's offsets, sizes and offset index follow.
pub(crate) fn encrypt_chunk(
    encryptor: &mut FileEncryptor,
    descr: &ColumnDescriptor,
    row_group: usize,
    chunk: &mut ClosedColumnChunk,
) -> Result<()> {
    let Some((ce, _)) = encryptor.chunk(&descr.path().string(), row_group, chunk.column) else {
        return Ok(());
    };
    let has_dictionary = !chunk.dict_page.is_empty();
    if has_dictionary {
        chunk.dict_page = reframe_page(encryptor, &ce, &chunk.dict_page, None)?;
    }
    let data_start = chunk.dict_page.len();
    let mut offset = data_start;
    let mut locations = chunk
        .offset_index
        .as_mut()
        .map(|oi| oi.page_locations.iter_mut());
    chunk.data.reframe(|i, page| {
        let framed = reframe_page(encryptor, &ce, page, Some(i))?;
        if let Some(location) = locations.as_mut().and_then(Iterator::next) {
            location.offset = offset as i64;
            location.compressed_page_size = size(framed.len(), "an encrypted page")?;
        }
        offset += framed.len();
        Ok(framed)
    })?;
    let meta = &mut chunk.metadata;
    meta.total_compressed_size = offset as i64;
    meta.data_page_offset = data_start as i64;
    meta.dictionary_page_offset = has_dictionary.then_some(0);
    if let Some(bloom) = &chunk.bloom {
        let (_, header_len) = thrift::decode_prefix::<BloomFilterHeader>(bloom)?;
        let (header, bitset) = bloom.split_at(header_len);
        let mut framed = encryptor.chunk_module(&ce, ModuleType::BloomFilterHeader, 0, header)?;
        framed.extend(encryptor.chunk_module(&ce, ModuleType::BloomFilterBitset, 0, bitset)?);
        chunk.bloom = Some(framed);
    }
    Ok(())
}

/// One page (header and body, as the column writer wrote it) as its
/// header module and body module: the dictionary page, or data page
/// `ordinal`.
fn reframe_page(
    encryptor: &mut FileEncryptor,
    ce: &ChunkEncryptor,
    page: &[u8],
    ordinal: Option<usize>,
) -> Result<Vec<u8>> {
    let (mut header, header_len) = thrift::decode_prefix::<PageHeader>(page)?;
    let body = page.get(header_len..).unwrap_or_default();
    let (body_kind, header_kind, ordinal) = match ordinal {
        None => (
            ModuleType::DictionaryPage,
            ModuleType::DictionaryPageHeader,
            0,
        ),
        Some(i) => (ModuleType::DataPage, ModuleType::DataPageHeader, i),
    };
    let body = encryptor.page_body_module(ce, body_kind, ordinal, body)?;
    header.compressed_page_size = size(body.len(), "an encrypted page")?;
    if header.crc.is_some() {
        header.crc = Some(crc32fast::hash(&body) as i32);
    }
    let mut plain_header = ByteSink::new();
    thrift::encode(&header, &mut plain_header);
    let mut framed = encryptor.chunk_module(ce, header_kind, ordinal, plain_header.as_slice())?;
    framed.extend_from_slice(&body);
    Ok(framed)
}

/// The page index `bytes` (a column index if `column_index`, else an
/// offset index) of chunk `column` of row group `row_group`, as its module
/// when the column is encrypted; `None` when it is not.
pub(crate) fn seal_index(
    encryptor: &mut FileEncryptor,
    descr: &ColumnDescriptor,
    (row_group, column): (usize, usize),
    column_index: bool,
    bytes: &[u8],
) -> Result<Option<Vec<u8>>> {
    let Some((ce, _)) = encryptor.chunk(&descr.path().string(), row_group, column) else {
        return Ok(None);
    };
    let kind = if column_index {
        ModuleType::ColumnIndex
    } else {
        ModuleType::OffsetIndex
    };
    encryptor.chunk_module(&ce, kind, 0, bytes).map(Some)
}

/// Record each encrypted chunk's crypto metadata, and encrypt its
/// `ColumnMetaData` where the format wants it encrypted: a column with its
/// own key (under an encrypted footer the plaintext copy is dropped), and
/// every encrypted column under a plaintext footer (which keeps a copy
/// without statistics).
pub(crate) fn encrypt_column_metadata(
    encryptor: &mut FileEncryptor,
    columns: &[std::sync::Arc<ColumnDescriptor>],
    row_groups: &mut [RowGroup],
) -> Result<()> {
    let plaintext_footer = !encryptor.encrypt_footer();
    for (g, rg) in row_groups.iter_mut().enumerate() {
        for (j, chunk) in rg.columns.iter_mut().enumerate() {
            let Some(descr) = columns.get(j) else {
                continue;
            };
            let Some((ce, crypto)) = encryptor.chunk(&descr.path().string(), g, j) else {
                continue;
            };
            let own_key = matches!(
                crypto,
                strata_format::metadata::ColumnCryptoMetaData::EncryptionWithColumnKey(_)
            );
            chunk.extras_mut().crypto_metadata = Some(crypto);
            if !(own_key || plaintext_footer) {
                continue;
            }
            let Some(meta) = chunk.meta_data.take() else {
                continue;
            };
            let mut bytes = ByteSink::new();
            thrift::encode(&meta, &mut bytes);
            let module =
                encryptor.chunk_module(&ce, ModuleType::ColumnMetaData, 0, bytes.as_slice())?;
            chunk.extras_mut().encrypted_column_metadata = Some(module.into_boxed_slice());
            if plaintext_footer {
                let mut stripped = meta;
                stripped.statistics = None;
                stripped.encoding_stats = None;
                stripped.size_statistics = None;
                chunk.meta_data = Some(stripped);
            }
        }
    }
    Ok(())
}

/// Write the footer of `metadata` to `sink` as `encryptor` says: an
/// encrypted footer (crypto metadata, the footer module, the length,
/// `PARE`), or a plaintext one signed with the footer key (the footer, its
/// 28-byte signature, the length, `PAR1`).
pub(crate) fn write_encrypted_footer(
    encryptor: &mut FileEncryptor,
    metadata: &mut FileMetaData,
    sink: &mut ByteSink,
) -> Result<()> {
    let start = sink.len();
    if encryptor.encrypt_footer() {
        thrift::encode(&encryptor.crypto_metadata(), sink);
        let mut footer = ByteSink::new();
        thrift::encode(&*metadata, &mut footer);
        let module = encryptor.footer_module(footer.as_slice())?;
        sink.extend_from_slice(&module);
    } else {
        metadata.encryption_algorithm = Some(encryptor.algorithm());
        metadata.footer_signing_key_metadata = encryptor.footer_key_metadata();
        thrift::encode(&*metadata, sink);
        let signature = encryptor.footer_signature(&sink.as_slice()[start..])?;
        sink.extend_from_slice(&signature);
    }
    let len = u32::try_from(sink.len() - start)
        .map_err(|_| FileError::InvalidArgument("a footer of 4 GiB or more".into()))?;
    sink.put_u32_le(len);
    sink.extend_from_slice(&magic(Some(encryptor)));
    Ok(())
}
