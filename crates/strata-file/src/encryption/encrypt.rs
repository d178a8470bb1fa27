//! Writing encrypted files: [`FileEncryptionProperties`] (arrow-rs 60.1's
//! API: a footer key, column keys, a plaintext footer or not, an AAD
//! prefix stored or not) and the `FileEncryptor` the writer frames its
//! modules with.
//!
//! Every module is AES-GCM (`AES_GCM_V1`). Nonces are a random 12-byte
//! start, drawn once per file, with a counter added to its last eight
//! bytes for each module: unique under a key without a system call per
//! page. The file's unique AAD bytes are 8 random bytes.

use std::collections::HashMap;
use std::sync::Arc;

use strata_format::metadata::{
    AesGcmV1, ColumnCryptoMetaData, EncryptionAlgorithm, EncryptionWithColumnKey,
    FileCryptoMetaData,
};

use super::aad::{ModuleType, footer_aad, module_aad};
use super::cipher::{ModuleCipher, NONCE_LEN};
use crate::error::{FileError, Result};

/// How a writer encrypts a file: the footer key (which also encrypts every
/// column when no column key is given), the keys of the columns to
/// encrypt, whether the footer stays readable (signed, not encrypted), and
/// the AAD prefix. Given to a writer with
/// `WriterPropertiesBuilder::with_file_encryption_properties`.
///
/// ```
/// use strata_file::encryption::FileEncryptionProperties;
///
/// let properties = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
///     .with_column_key("secret", b"1234567890123450".to_vec())
///     .with_aad_prefix(b"table-7".to_vec())
///     .build()
///     .unwrap();
/// assert!(properties.encrypt_footer());
/// // Keys are never printed.
/// assert!(!format!("{properties:?}").contains("0123"));
/// assert!(FileEncryptionProperties::builder(vec![0; 7]).build().is_err());
/// ```
#[derive(Clone, PartialEq)]
pub struct FileEncryptionProperties {
    footer_key: Vec<u8>,
    footer_key_metadata: Option<Vec<u8>>,
    plaintext_footer: bool,
    columns: HashMap<String, (Vec<u8>, Option<Vec<u8>>)>,
    aad_prefix: Option<Vec<u8>>,
    store_aad_prefix: bool,
    ctr_pages: bool,
}

impl std::fmt::Debug for FileEncryptionProperties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileEncryptionProperties { }")
    }
}

impl FileEncryptionProperties {
    /// Properties with `footer_key` (16, 24 or 32 bytes).
    pub fn builder(footer_key: Vec<u8>) -> EncryptionPropertiesBuilder {
        EncryptionPropertiesBuilder {
            properties: FileEncryptionProperties {
                footer_key,
                footer_key_metadata: None,
                plaintext_footer: false,
                columns: HashMap::new(),
                aad_prefix: None,
                store_aad_prefix: false,
                ctr_pages: false,
            },
        }
    }

    /// Whether the footer is encrypted (`PARE`), rather than signed.
    pub fn encrypt_footer(&self) -> bool {
        !self.plaintext_footer
    }

    /// The footer key's metadata, stored for readers that look keys up.
    pub fn footer_key_metadata(&self) -> Option<&Vec<u8>> {
        self.footer_key_metadata.as_ref()
    }

    /// The AAD prefix, if any.
    pub fn aad_prefix(&self) -> Option<&Vec<u8>> {
        self.aad_prefix.as_ref()
    }

    /// Whether the AAD prefix is stored in the file.
    pub fn store_aad_prefix(&self) -> bool {
        self.store_aad_prefix && self.aad_prefix.is_some()
    }
}

/// Builds [`FileEncryptionProperties`].
#[derive(Clone)]
pub struct EncryptionPropertiesBuilder {
    properties: FileEncryptionProperties,
}

impl std::fmt::Debug for EncryptionPropertiesBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EncryptionPropertiesBuilder { }")
    }
}

impl EncryptionPropertiesBuilder {
    /// Leave the footer readable, signed with the footer key, so that
    /// readers without keys read the columns that are not encrypted.
    pub fn with_plaintext_footer(mut self, plaintext_footer: bool) -> Self {
        self.properties.plaintext_footer = plaintext_footer;
        self
    }

    /// Store `metadata` as the footer key's metadata.
    pub fn with_footer_key_metadata(mut self, metadata: Vec<u8>) -> Self {
        self.properties.footer_key_metadata = Some(metadata);
        self
    }

    /// Encrypt the column named `column_name` (its path joined with `.`)
    /// with `key`. With any column key, only the columns named are
    /// encrypted.
    pub fn with_column_key(mut self, column_name: &str, key: Vec<u8>) -> Self {
        self.properties
            .columns
            .insert(column_name.to_string(), (key, None));
        self
    }

    /// [`with_column_key`](Self::with_column_key), storing `metadata`
    /// beside the column for readers that look keys up.
    pub fn with_column_key_and_metadata(
        mut self,
        column_name: &str,
        key: Vec<u8>,
        metadata: Vec<u8>,
    ) -> Self {
        self.properties
            .columns
            .insert(column_name.to_string(), (key, Some(metadata)));
        self
    }

    /// The keys of several columns, in order; fails if the lists differ in
    /// length.
    pub fn with_column_keys(mut self, column_names: Vec<&str>, keys: Vec<Vec<u8>>) -> Result<Self> {
        if column_names.len() != keys.len() {
            return Err(FileError::InvalidArgument(format!(
                "{} column names and {} keys",
                column_names.len(),
                keys.len()
            )));
        }
        for (name, key) in column_names.into_iter().zip(keys) {
            self = self.with_column_key(name, key);
        }
        Ok(self)
    }

    /// Bind the file to `aad_prefix` (a table name and file path, say): a
    /// reader must supply it unless it is stored
    /// ([`with_aad_prefix_storage`](Self::with_aad_prefix_storage)).
    pub fn with_aad_prefix(mut self, aad_prefix: Vec<u8>) -> Self {
        self.properties.aad_prefix = Some(aad_prefix);
        self
    }

    /// Encrypt the bodies of pages with AES-CTR (`AES_GCM_CTR_V1`: no tag
    /// on page bodies, everything else AES-GCM) rather than AES-GCM (the
    /// default, `AES_GCM_V1`). Not in arrow-rs 60.1, which reads neither;
    /// parquet-java and Arrow C++ read and write both.
    pub fn with_aes_gcm_ctr(mut self, ctr: bool) -> Self {
        self.properties.ctr_pages = ctr;
        self
    }

    /// Store the AAD prefix in the file (off by default).
    pub fn with_aad_prefix_storage(mut self, store: bool) -> Self {
        self.properties.store_aad_prefix = store;
        self
    }

    /// The properties; fails for a key that is not 16, 24 or 32 bytes.
    pub fn build(self) -> Result<Arc<FileEncryptionProperties>> {
        ModuleCipher::new(&self.properties.footer_key)?;
        for (key, _) in self.properties.columns.values() {
            ModuleCipher::new(key)?;
        }
        Ok(Arc::new(self.properties))
    }
}

/// A column's encryption: its cipher and what its chunks' crypto metadata
/// say.
struct ColumnEncryption {
    cipher: Arc<ModuleCipher>,
    crypto: ColumnCryptoMetaData,
}

/// Encrypts the modules of one file being written.
pub(crate) struct FileEncryptor {
    properties: Arc<FileEncryptionProperties>,
    file_aad: Vec<u8>,
    aad_file_unique: Vec<u8>,
    footer: Arc<ModuleCipher>,
    columns: HashMap<String, Arc<ModuleCipher>>,
    nonce_start: [u8; NONCE_LEN],
    modules: u64,
}

impl std::fmt::Debug for FileEncryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileEncryptor").finish_non_exhaustive()
    }
}

fn random(buf: &mut [u8]) -> Result<()> {
    use ring::rand::SecureRandom;
    ring::rand::SystemRandom::new()
        .fill(buf)
        .map_err(|_| FileError::Decryption("no random bytes for encryption".into()))
}

impl FileEncryptor {
    pub(crate) fn new(properties: Arc<FileEncryptionProperties>) -> Result<Self> {
        let mut aad_file_unique = vec![0u8; 8];
        random(&mut aad_file_unique)?;
        let mut nonce_start = [0u8; NONCE_LEN];
        random(&mut nonce_start)?;
        let mut file_aad = properties.aad_prefix.clone().unwrap_or_default();
        file_aad.extend_from_slice(&aad_file_unique);
        let footer = Arc::new(ModuleCipher::new(&properties.footer_key)?);
        let columns = properties
            .columns
            .iter()
            .map(|(name, (key, _))| Ok((name.clone(), Arc::new(ModuleCipher::new(key)?))))
            .collect::<Result<_>>()?;
        Ok(Self {
            properties,
            file_aad,
            aad_file_unique,
            footer,
            columns,
            nonce_start,
            modules: 0,
        })
    }

    /// Whether the footer is encrypted.
    pub(crate) fn encrypt_footer(&self) -> bool {
        self.properties.encrypt_footer()
    }

    fn next_nonce(&mut self) -> [u8; NONCE_LEN] {
        self.modules += 1;
        let mut nonce = self.nonce_start;
        let (_, low) = nonce.split_at_mut(NONCE_LEN - 8);
        let counter = u64::from_le_bytes(low.try_into().unwrap_or_default());
        low.copy_from_slice(&counter.wrapping_add(self.modules).to_le_bytes());
        nonce
    }

    /// How the column at `path` (joined with `.`) is encrypted; `None`
    /// for a column left in plaintext.
    fn column(&self, path: &str) -> Option<ColumnEncryption> {
        if self.properties.columns.is_empty() {
            return Some(ColumnEncryption {
                cipher: Arc::clone(&self.footer),
                crypto: ColumnCryptoMetaData::EncryptionWithFooterKey,
            });
        }
        let cipher = self.columns.get(path)?;
        let key_metadata = self
            .properties
            .columns
            .get(path)
            .and_then(|(_, metadata)| metadata.clone());
        Some(ColumnEncryption {
            cipher: Arc::clone(cipher),
            crypto: ColumnCryptoMetaData::EncryptionWithColumnKey(EncryptionWithColumnKey {
                path_in_schema: path.split('.').map(str::to_string).collect(),
                key_metadata,
            }),
        })
    }

    /// The chunk encryptor of column `column` (at `path`) of row group
    /// `row_group`, with the crypto metadata its chunk records; `None` for
    /// a column left in plaintext.
    pub(crate) fn chunk(
        &self,
        path: &str,
        row_group: usize,
        column: usize,
    ) -> Option<(ChunkEncryptor, ColumnCryptoMetaData)> {
        let ColumnEncryption { cipher, crypto } = self.column(path)?;
        Some((
            ChunkEncryptor {
                cipher,
                row_group,
                column,
            },
            crypto,
        ))
    }

    /// The GCM module of `plaintext` under `cipher` and `aad`.
    pub(crate) fn module(
        &mut self,
        cipher: &ModuleCipher,
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<Vec<u8>> {
        let nonce = self.next_nonce();
        cipher.encrypt_gcm(&nonce, aad, plaintext)
    }

    /// The module of a chunk's module of type `kind` (page ordinal `page`
    /// where the type has one).
    pub(crate) fn chunk_module(
        &mut self,
        chunk: &ChunkEncryptor,
        kind: ModuleType,
        page: usize,
        plaintext: &[u8],
    ) -> Result<Vec<u8>> {
        let aad = module_aad(&self.file_aad, kind, chunk.row_group, chunk.column, page)?;
        self.module(&chunk.cipher, &aad, plaintext)
    }

    /// The encryption algorithm a footer records.
    pub(crate) fn algorithm(&self) -> EncryptionAlgorithm {
        let prefix = self.properties.aad_prefix.as_ref();
        let stored = self.properties.store_aad_prefix();
        let params = AesGcmV1 {
            aad_prefix: prefix.filter(|_| stored).cloned(),
            aad_file_unique: Some(self.aad_file_unique.clone()),
            supply_aad_prefix: (prefix.is_some() && !stored).then_some(true),
        };
        if self.properties.ctr_pages {
            EncryptionAlgorithm::AesGcmCtrV1(params)
        } else {
            EncryptionAlgorithm::AesGcmV1(params)
        }
    }

    /// The module of a page body (of type `kind`, `DataPage` or
    /// `DictionaryPage`, data page `page`): AES-CTR under
    /// `AES_GCM_CTR_V1`, else AES-GCM.
    pub(crate) fn page_body_module(
        &mut self,
        chunk: &ChunkEncryptor,
        kind: ModuleType,
        page: usize,
        plaintext: &[u8],
    ) -> Result<Vec<u8>> {
        if self.properties.ctr_pages {
            let nonce = self.next_nonce();
            return chunk.cipher.encrypt_ctr(&nonce, plaintext);
        }
        self.chunk_module(chunk, kind, page, plaintext)
    }

    /// The plaintext part of an encrypted footer: the crypto metadata.
    pub(crate) fn crypto_metadata(&self) -> FileCryptoMetaData {
        FileCryptoMetaData {
            encryption_algorithm: self.algorithm(),
            key_metadata: self.properties.footer_key_metadata.clone(),
        }
    }

    /// The footer key's metadata.
    pub(crate) fn footer_key_metadata(&self) -> Option<Vec<u8>> {
        self.properties.footer_key_metadata.clone()
    }

    /// The footer module of the serialized `FileMetaData` `footer`.
    pub(crate) fn footer_module(&mut self, footer: &[u8]) -> Result<Vec<u8>> {
        let cipher = Arc::clone(&self.footer);
        let aad = footer_aad(&self.file_aad);
        self.module(&cipher, &aad, footer)
    }

    /// The 28-byte signature of the plaintext footer `footer`: a nonce and
    /// the GCM tag of the footer under it.
    pub(crate) fn footer_signature(&mut self, footer: &[u8]) -> Result<Vec<u8>> {
        let nonce = self.next_nonce();
        let tag = self
            .footer
            .gcm_tag(&nonce, &footer_aad(&self.file_aad), footer)?;
        let mut signature = nonce.to_vec();
        signature.extend_from_slice(&tag);
        Ok(signature)
    }
}

/// The encryption of one column chunk being written.
pub(crate) struct ChunkEncryptor {
    cipher: Arc<ModuleCipher>,
    row_group: usize,
    column: usize,
}
