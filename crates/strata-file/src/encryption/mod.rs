//! Parquet modular encryption: reading files whose footer, column
//! metadata and pages are encrypted (the `encryption` feature).
//!
//! ## What is encrypted, and how a reader finds its way
//!
//! Each encrypted piece of a file is a *module*: a 4-byte length, then
//! AES-GCM's nonce, ciphertext and tag (or, for page bodies under
//! `AES_GCM_CTR_V1`, AES-CTR's nonce and ciphertext; see `cipher`). A
//! module's AAD names where it belongs (see `aad`), so a module copied to
//! another column, row group or page fails to authenticate.
//!
//! - **Encrypted footer** (the file ends in `PARE`): the footer section is
//!   a plaintext `FileCryptoMetaData` (the algorithm, the file's unique AAD
//!   bytes, the footer key's metadata) and then the `FileMetaData` as one
//!   GCM module under the footer key.
//! - **Plaintext footer** (`PAR1`, with `encryption_algorithm` set): the
//!   `FileMetaData` is readable, followed by a 28-byte signature (nonce and
//!   GCM tag). A reader with the footer key checks it by encrypting the
//!   footer again with the stored nonce and comparing tags.
//! - **Columns** are encrypted with the footer key or with a key of their
//!   own. A column with its own key keeps its full `ColumnMetaData` in
//!   `encrypted_column_metadata` (under an encrypted footer there is no
//!   plaintext copy at all; under a plaintext footer a stripped one). Once
//!   the footer is read, `FileDecryptor::decrypt_columns` replaces each
//!   such chunk's metadata by its decrypted copy, so the layers above read
//!   encrypted chunks' metadata as any other.
//! - **Pages**: each page header and each page body of an encrypted
//!   column is a module of its own ([`ChunkDecryptor`], used by the page
//!   reader). The page's `compressed_page_size` counts the body module;
//!   its CRC is of the encrypted bytes. Pages are decrypted, then
//!   decompressed.
//!
//! Keys come through [`DecryptionKeys`]: the Arrow layer's
//! `FileDecryptionProperties` (arrow-rs's API) implements it.
//!
//! Writing ([`FileEncryptionProperties`], given to the writer's
//! properties) frames the same modules: a closed column chunk's pages are
//! encrypted as the row group writer places it (each header re-encoded
//! with its body module's size, and the CRC of the encrypted body), and
//! the page indexes, Bloom filters, column metadata and footer as the file
//! is finished. Every module is AES-GCM.
//!
//! ## Invariants
//!
//! - Nothing is allocated by a length a module declares: each module is
//!   cut from bytes already read, and a length past them is an error.
//! - A module that fails to authenticate yields an error and none of its
//!   plaintext.
//! - A column whose key the reader does not have keeps its undecrypted
//!   metadata; reading it is an error naming it, and the other columns
//!   read.

mod aad;
mod cipher;
mod encrypt;

pub(crate) use aad::ModuleType;
pub(crate) use encrypt::{ChunkEncryptor, FileEncryptor};
pub use encrypt::{EncryptionPropertiesBuilder, FileEncryptionProperties};

use std::collections::HashMap;
use std::sync::Arc;

use strata_format::metadata::{
    ColumnCryptoMetaData, ColumnMetaData, EncryptionAlgorithm, FileCryptoMetaData,
    FileMetaData as Footer,
};
use strata_format::thrift::{self, ReadThrift};

use crate::error::{FileError, Result};
use aad::{footer_aad, module_aad};
use cipher::{LENGTH_LEN, ModuleCipher, NONCE_LEN, TAG_LEN, split_module};

/// Where a reader's keys come from. The Arrow layer's
/// `FileDecryptionProperties` implements it, with explicit keys or a key
/// retriever.
pub trait DecryptionKeys: Send + Sync + std::fmt::Debug {
    /// The footer key, given the footer's key metadata (if the file has
    /// any).
    fn footer_key(&self, key_metadata: Option<&[u8]>) -> Result<Vec<u8>>;
    /// The key of the column at `path` (its path in the schema, joined
    /// with `.`), given its key metadata; `None` when the reader has no
    /// key for it.
    fn column_key(&self, path: &str, key_metadata: Option<&[u8]>) -> Result<Option<Vec<u8>>>;
    /// The AAD prefix the reader supplies, if any (it overrides one stored
    /// in the file).
    fn aad_prefix(&self) -> Option<&[u8]>;
    /// Whether a plaintext footer's signature is checked.
    fn verify_plaintext_footer(&self) -> bool {
        true
    }
}

/// The footer section of a file that ends in `PARE`, decrypted: the
/// plaintext `FileMetaData` bytes (trailing bytes after the struct, which
/// some writers leave, are the caller's to ignore) and the decryptor for
/// the rest of the file.
pub(crate) fn decrypt_footer(
    section: &[u8],
    keys: &Arc<dyn DecryptionKeys>,
) -> Result<(Vec<u8>, FileDecryptor)> {
    let (crypto, taken) = thrift::decode_prefix::<FileCryptoMetaData>(section)?;
    let (file_aad, ctr_pages) = file_aad(&crypto.encryption_algorithm, keys.as_ref())?;
    let footer = Arc::new(ModuleCipher::new(
        &keys.footer_key(crypto.key_metadata.as_deref())?,
    )?);
    let rest = section.get(taken..).unwrap_or_default();
    let (module, _) = split_module(rest, "the footer")?;
    let (plaintext, aad_free) =
        match footer.decrypt_gcm(module, &footer_aad(&file_aad), "the footer") {
            Ok(plaintext) => (plaintext, false),
            // DuckDB writes no file AAD and authenticates every module with an
            // empty AAD: a file without AAD bytes whose footer authenticates
            // only so is read so throughout.
            Err(e) if file_aad.is_empty() => match footer.decrypt_gcm(module, &[], "the footer") {
                Ok(plaintext) => (plaintext, true),
                Err(_) => return Err(e),
            },
            Err(e) => return Err(e),
        };
    let mut decryptor = FileDecryptor::new(Arc::clone(keys), file_aad, ctr_pages, footer);
    decryptor.aad_free = aad_free;
    Ok((plaintext, decryptor))
}

/// The decryptor of a file with a plaintext footer whose
/// `encryption_algorithm` is set, `section` being its footer section
/// (the `FileMetaData` and the 28-byte signature after it). The signature
/// is checked unless the keys say not to.
pub(crate) fn signed_footer(
    section: &[u8],
    footer: &Footer,
    keys: &Arc<dyn DecryptionKeys>,
) -> Result<FileDecryptor> {
    let algorithm = footer.encryption_algorithm.as_ref().ok_or_else(|| {
        FileError::Decryption("a plaintext footer without an encryption algorithm".into())
    })?;
    let (file_aad, ctr_pages) = file_aad(algorithm, keys.as_ref())?;
    let cipher = Arc::new(ModuleCipher::new(
        &keys.footer_key(footer.footer_signing_key_metadata.as_deref())?,
    )?);
    if keys.verify_plaintext_footer() {
        let signature_at = section
            .len()
            .checked_sub(NONCE_LEN + TAG_LEN)
            .ok_or_else(|| {
                FileError::Decryption(format!(
                    "a signed footer of {} bytes is shorter than its signature",
                    section.len()
                ))
            })?;
        let (plaintext, signature) = section.split_at(signature_at);
        let (nonce, tag) = signature
            .split_first_chunk::<NONCE_LEN>()
            .ok_or_else(|| FileError::Decryption("the footer signature has no nonce".into()))?;
        let computed = cipher.gcm_tag(nonce, &footer_aad(&file_aad), plaintext)?;
        if computed.as_slice() != tag {
            return Err(FileError::Decryption(
                "the footer signature does not match: the footer key is wrong or the footer \
                 was changed"
                    .into(),
            ));
        }
    }
    Ok(FileDecryptor::new(
        Arc::clone(keys),
        file_aad,
        ctr_pages,
        cipher,
    ))
}

/// The file's AAD (the AAD prefix, then the file's unique bytes) and
/// whether page bodies are AES-CTR.
fn file_aad(algorithm: &EncryptionAlgorithm, keys: &dyn DecryptionKeys) -> Result<(Vec<u8>, bool)> {
    let (params, ctr_pages) = match algorithm {
        EncryptionAlgorithm::AesGcmV1(p) => (p, false),
        EncryptionAlgorithm::AesGcmCtrV1(p) => (p, true),
        EncryptionAlgorithm::Unknown(id) => {
            return Err(FileError::Unsupported(format!(
                "encryption algorithm {id} (strata reads AES_GCM_V1 and AES_GCM_CTR_V1)"
            )));
        }
    };
    let prefix = match (keys.aad_prefix(), params.aad_prefix.as_deref()) {
        (Some(supplied), _) => supplied,
        (None, Some(stored)) => stored,
        (None, None) if params.supply_aad_prefix == Some(true) => {
            return Err(FileError::Decryption(
                "the file was encrypted with an AAD prefix it does not store; the reader must \
                 supply it"
                    .into(),
            ));
        }
        (None, None) => &[],
    };
    let unique = params.aad_file_unique.as_deref().unwrap_or_default();
    let mut aad = Vec::with_capacity(prefix.len() + unique.len());
    aad.extend_from_slice(prefix);
    aad.extend_from_slice(unique);
    Ok((aad, ctr_pages))
}

/// What decrypts one encrypted file's column metadata and pages: its AAD,
/// algorithm and footer key, and the column keys found.
pub struct FileDecryptor {
    keys: Arc<dyn DecryptionKeys>,
    file_aad: Arc<[u8]>,
    ctr_pages: bool,
    footer: Arc<ModuleCipher>,
    /// The cipher of each column path with a key of its own (`None`: the
    /// reader has no key for it).
    columns: HashMap<String, Option<Arc<ModuleCipher>>>,
    /// Every module is authenticated with an empty AAD (DuckDB's files).
    aad_free: bool,
}

impl std::fmt::Debug for FileDecryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileDecryptor")
            .field("ctr_pages", &self.ctr_pages)
            .field("columns_with_keys", &self.columns.len())
            .finish_non_exhaustive()
    }
}

impl FileDecryptor {
    fn new(
        keys: Arc<dyn DecryptionKeys>,
        file_aad: Vec<u8>,
        ctr_pages: bool,
        footer: Arc<ModuleCipher>,
    ) -> Self {
        Self {
            keys,
            file_aad: file_aad.into(),
            ctr_pages,
            footer,
            columns: HashMap::new(),
            aad_free: false,
        }
    }

    /// The cipher of column chunk `crypto` (`None`: the reader has no key
    /// for it), asking the keys once per column path.
    fn cipher(&mut self, crypto: &ColumnCryptoMetaData) -> Result<Option<Arc<ModuleCipher>>> {
        let with_key = match crypto {
            ColumnCryptoMetaData::EncryptionWithFooterKey => {
                return Ok(Some(Arc::clone(&self.footer)));
            }
            ColumnCryptoMetaData::EncryptionWithColumnKey(k) => k,
            ColumnCryptoMetaData::Unknown(id) => return Err(unknown_crypto(*id)),
        };
        let path = with_key.path_in_schema.join(".");
        if let Some(cipher) = self.columns.get(&path) {
            return Ok(cipher.clone());
        }
        let cipher = match self
            .keys
            .column_key(&path, with_key.key_metadata.as_deref())?
        {
            Some(key) => Some(Arc::new(ModuleCipher::new(&key)?)),
            None => None,
        };
        self.columns.insert(path, cipher.clone());
        Ok(cipher)
    }

    /// Replace the metadata of every encrypted column chunk of `footer`
    /// whose key the reader has by its decrypted `encrypted_column_metadata`.
    /// Chunks without a key keep what they have (nothing, under an
    /// encrypted footer).
    pub(crate) fn decrypt_columns(&mut self, footer: &mut Footer) -> Result<()> {
        for (g, row_group) in footer.row_groups.iter_mut().enumerate() {
            let ordinal = row_group_ordinal(row_group.ordinal(), g)?;
            for (j, chunk) in row_group.columns.iter_mut().enumerate() {
                let Some(crypto) = chunk.crypto_metadata().cloned() else {
                    continue;
                };
                let Some(encrypted) = chunk.encrypted_column_metadata() else {
                    continue;
                };
                let Some(cipher) = self.cipher(&crypto)? else {
                    continue;
                };
                let what = format!("the metadata of column {j} of row group {g}");
                let (module, _) = split_module(encrypted, &what)?;
                let aad = if self.aad_free {
                    Vec::new()
                } else {
                    module_aad(&self.file_aad, ModuleType::ColumnMetaData, ordinal, j, 0)?
                };
                let plaintext = cipher.decrypt_gcm(module, &aad, &what)?;
                let mut r = thrift::CompactReader::new(&plaintext);
                chunk.meta_data = Some(ColumnMetaData::read_thrift(&mut r)?);
            }
        }
        Ok(())
    }

    /// The decryptor of the modules of chunk `column` of row group
    /// `row_group` (its ordinal, if stored), whose crypto metadata is
    /// `crypto`: `None` for a chunk that is not encrypted, an error naming
    /// `what` for one whose key the reader does not have. It knows no
    /// dictionary page ([`chunk`](Self::chunk) adds that).
    fn modules_of(
        &self,
        (row_group, ordinal): (usize, Option<i16>),
        column: usize,
        crypto: Option<&ColumnCryptoMetaData>,
        what: impl FnOnce() -> String,
    ) -> Result<Option<ChunkDecryptor>> {
        // DuckDB's files mark no chunk, and encrypt every one with the
        // footer key.
        let footer_key = ColumnCryptoMetaData::EncryptionWithFooterKey;
        let Some(crypto) = crypto.or(self.aad_free.then_some(&footer_key)) else {
            return Ok(None);
        };
        let cipher = match crypto {
            ColumnCryptoMetaData::EncryptionWithFooterKey => Some(Arc::clone(&self.footer)),
            ColumnCryptoMetaData::EncryptionWithColumnKey(k) => self
                .columns
                .get(&k.path_in_schema.join("."))
                .cloned()
                .flatten(),
            ColumnCryptoMetaData::Unknown(id) => return Err(unknown_crypto(*id)),
        };
        let cipher = cipher.ok_or_else(|| {
            FileError::EncryptedColumn(format!("{} (no key for it was given)", what()))
        })?;
        Ok(Some(ChunkDecryptor {
            cipher,
            file_aad: Arc::clone(&self.file_aad),
            ctr_pages: self.ctr_pages,
            row_group: row_group_ordinal(ordinal, row_group)?,
            column,
            dictionary_before: None,
            aad_free: self.aad_free,
        }))
    }

    /// The plaintext of the page index `bytes` (a column index if
    /// `column_index`, else an offset index) of chunk `column` of row
    /// group `at` (index and stored ordinal), whose crypto metadata is
    /// `crypto`; `None` for a chunk that is not encrypted.
    pub(crate) fn unseal_index(
        &self,
        at: (usize, Option<i16>),
        column: usize,
        crypto: Option<&ColumnCryptoMetaData>,
        column_index: bool,
        bytes: &[u8],
    ) -> Result<Option<Vec<u8>>> {
        let (kind, what) = if column_index {
            (ModuleType::ColumnIndex, "a column index")
        } else {
            (ModuleType::OffsetIndex, "an offset index")
        };
        let Some(d) =
            self.modules_of(at, column, crypto, || format!("{what} of column {column}"))?
        else {
            return Ok(None);
        };
        d.open(bytes, kind, what)
            .map(|(plaintext, _)| Some(plaintext))
    }

    /// The Bloom filter of chunk `column` of row group `at` (index and
    /// stored ordinal), whose crypto metadata is `crypto`, from `bytes`
    /// (the header module and the bitset module, as `bloom_filter_length`
    /// counts them): the plaintext header and bitset, as an unencrypted
    /// file holds them; `None` for a chunk that is not encrypted.
    pub fn unseal_bloom_filter(
        &self,
        at: (usize, Option<i16>),
        column: usize,
        crypto: Option<&ColumnCryptoMetaData>,
        bytes: &[u8],
    ) -> Result<Option<Vec<u8>>> {
        let what = || format!("the Bloom filter of column {column}");
        let Some(d) = self.modules_of(at, column, crypto, what)? else {
            return Ok(None);
        };
        let (mut plaintext, taken) = d.open(
            bytes,
            ModuleType::BloomFilterHeader,
            "a Bloom filter header",
        )?;
        let rest = bytes.get(taken..).unwrap_or_default();
        let (bitset, _) = d.open(rest, ModuleType::BloomFilterBitset, "a Bloom filter bitset")?;
        plaintext.extend(bitset);
        Ok(Some(plaintext))
    }

    /// Whether a chunk whose crypto metadata is `crypto` can be read: it
    /// is not encrypted, or the reader has its key.
    pub fn has_key(&self, crypto: Option<&ColumnCryptoMetaData>) -> bool {
        match crypto {
            None | Some(ColumnCryptoMetaData::EncryptionWithFooterKey) => true,
            Some(ColumnCryptoMetaData::EncryptionWithColumnKey(k)) => self
                .columns
                .get(&k.path_in_schema.join("."))
                .is_some_and(Option::is_some),
            Some(ColumnCryptoMetaData::Unknown(_)) => false,
        }
    }

    /// The decryptor of chunk `column` of row group `row_group` (its
    /// ordinal, `ordinal`, if stored), whose crypto metadata is `crypto`
    /// and whose metadata is `meta`, starting at file offset
    /// `chunk_start`; `None` for a chunk that is not encrypted. A chunk
    /// whose key the reader does not have is an error naming it.
    pub fn chunk(
        &self,
        at: (usize, Option<i16>),
        column: usize,
        crypto: Option<&ColumnCryptoMetaData>,
        meta: &ColumnMetaData,
        chunk_start: u64,
    ) -> Result<Option<ChunkDecryptor>> {
        let Some(mut d) = self.modules_of(at, column, crypto, || meta.path_in_schema.string())?
        else {
            return Ok(None);
        };
        // The page before the first data page, if any, is the dictionary.
        let has_dictionary = meta.dictionary_page_offset.is_some_and(|at| at > 0);
        d.dictionary_before = u64::try_from(meta.data_page_offset)
            .ok()
            .and_then(|at| at.checked_sub(chunk_start))
            .and_then(|at| usize::try_from(at).ok())
            .filter(|_| has_dictionary);
        Ok(Some(d))
    }
}

fn unknown_crypto(id: i16) -> FileError {
    FileError::Unsupported(format!("column encryption of kind {id}"))
}

/// A row group's ordinal in module AADs: the one stored, or its index.
fn row_group_ordinal(stored: Option<i16>, index: usize) -> Result<usize> {
    match stored {
        Some(o) => usize::try_from(o)
            .map_err(|_| FileError::Decryption(format!("a negative row group ordinal ({o})"))),
        None => Ok(index),
    }
}

/// Decrypts the page headers and pages of one encrypted column chunk.
#[derive(Clone)]
pub struct ChunkDecryptor {
    cipher: Arc<ModuleCipher>,
    file_aad: Arc<[u8]>,
    ctr_pages: bool,
    row_group: usize,
    column: usize,
    /// Where the first data page starts in the chunk, when a dictionary
    /// page comes before it.
    dictionary_before: Option<usize>,
    /// Every module is authenticated with an empty AAD.
    aad_free: bool,
}

impl std::fmt::Debug for ChunkDecryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkDecryptor")
            .field("row_group", &self.row_group)
            .field("column", &self.column)
            .field("ctr_pages", &self.ctr_pages)
            .finish_non_exhaustive()
    }
}

impl ChunkDecryptor {
    /// Whether the page at chunk offset `position` is the dictionary page.
    pub(crate) fn is_dictionary_at(&self, position: usize) -> bool {
        self.dictionary_before.is_some_and(|first| position < first)
    }

    /// What to add to a page header's `compressed_page_size` for the size
    /// of the body's module: nothing, except in DuckDB's files, whose
    /// headers count the body without its framing.
    pub(crate) fn unframed_size_correction(&self) -> i32 {
        if self.aad_free {
            i32::try_from(self.body_overhead()).unwrap_or(0)
        } else {
            0
        }
    }

    /// The bytes a page body's module adds to its plaintext.
    pub(crate) fn body_overhead(&self) -> usize {
        if self.ctr_pages {
            LENGTH_LEN + NONCE_LEN
        } else {
            LENGTH_LEN + NONCE_LEN + TAG_LEN
        }
    }

    /// The plaintext of the page header module at the start of `bytes`,
    /// and the bytes the module takes: a dictionary page's header, or data
    /// page `page`'s (its ordinal among the chunk's data pages).
    pub(crate) fn header(
        &self,
        bytes: &[u8],
        dictionary: bool,
        page: usize,
    ) -> Result<(Vec<u8>, usize)> {
        let (kind, what) = if dictionary {
            (ModuleType::DictionaryPageHeader, "a dictionary page header")
        } else {
            (ModuleType::DataPageHeader, "a data page header")
        };
        let (module, taken) = split_module(bytes, what)?;
        let aad = self.aad(kind, page)?;
        Ok((self.cipher.decrypt_gcm(module, &aad, what)?, taken))
    }

    /// The plaintext of the page body `body` (the whole module, with its
    /// length): the dictionary page's, or data page `page`'s.
    pub(crate) fn body(&self, body: &[u8], dictionary: bool, page: usize) -> Result<Vec<u8>> {
        let (kind, what) = if dictionary {
            (ModuleType::DictionaryPage, "a dictionary page")
        } else {
            (ModuleType::DataPage, "a data page")
        };
        let (module, taken) = split_module(body, what)?;
        if taken != body.len() {
            return Err(FileError::Decryption(format!(
                "{what}: a module of {taken} bytes in a page of {}",
                body.len()
            )));
        }
        if self.ctr_pages {
            return self.cipher.decrypt_ctr(module, what);
        }
        let aad = self.aad(kind, page)?;
        self.cipher.decrypt_gcm(module, &aad, what)
    }

    /// The plaintext of the GCM module (of type `kind`, not a page's) at
    /// the start of `bytes`, and the bytes the module takes.
    fn open(&self, bytes: &[u8], kind: ModuleType, what: &str) -> Result<(Vec<u8>, usize)> {
        let (module, taken) = split_module(bytes, what)?;
        let aad = self.aad(kind, 0)?;
        Ok((self.cipher.decrypt_gcm(module, &aad, what)?, taken))
    }

    /// The AAD of this chunk's module of type `kind` (data page `page`).
    fn aad(&self, kind: ModuleType, page: usize) -> Result<Vec<u8>> {
        if self.aad_free {
            return Ok(Vec::new());
        }
        module_aad(&self.file_aad, kind, self.row_group, self.column, page)
    }
}
