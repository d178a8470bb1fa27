//! Keys for reading encrypted files, with arrow-rs 60.1's names at its
//! paths (`parquet::encryption::decrypt`). Empty unless the `encryption`
//! feature is on.
//!
//! The file layer (`strata_file::encryption`) decrypts; this module holds
//! what a reader is given: `decrypt::FileDecryptionProperties`, with a
//! footer key and column keys, or a `decrypt::KeyRetriever` that finds
//! keys by the key metadata the file stores. It lives here, not
//! in the file layer, because a key retriever returns this layer's
//! [`ParquetError`](crate::ParquetError), as arrow-rs's does.

/// Encryption properties for writers (the file layer's, at arrow-rs's
/// path), given with `WriterPropertiesBuilder::with_file_encryption_properties`.
#[cfg(feature = "encryption")]
pub mod encrypt {
    pub use strata_file::encryption::{EncryptionPropertiesBuilder, FileEncryptionProperties};
}

/// Decryption properties and key retrieval.
#[cfg(feature = "encryption")]
pub mod decrypt {
    use std::collections::HashMap;
    use std::sync::Arc;

    use strata_file::FileError;
    use strata_file::encryption::DecryptionKeys;

    use crate::error::{ParquetError, Result};

    /// Finds a key by the key metadata a file stores beside it (a key id,
    /// or wrapped key material): for keys kept in a key management
    /// service.
    ///
    /// ```
    /// use strata_arrow::encryption::decrypt::KeyRetriever;
    /// use strata_arrow::{ParquetError, Result};
    ///
    /// struct Keys;
    /// impl KeyRetriever for Keys {
    ///     fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Vec<u8>> {
    ///         match key_metadata {
    ///             b"kf" => Ok(b"0123456789012345".to_vec()),
    ///             other => Err(ParquetError::General(format!("no key {other:?}"))),
    ///         }
    ///     }
    /// }
    /// assert_eq!(Keys.retrieve_key(b"kf").unwrap().len(), 16);
    /// ```
    pub trait KeyRetriever: Send + Sync {
        /// The key that `key_metadata` names (empty when the file stores
        /// none).
        fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Vec<u8>>;
    }

    /// Where the keys come from.
    #[derive(Clone)]
    enum Keys {
        Explicit {
            footer: Vec<u8>,
            columns: HashMap<String, Vec<u8>>,
        },
        Retriever(Arc<dyn KeyRetriever>),
    }

    /// What a reader decrypts an encrypted file with: the footer key and
    /// column keys, or a [`KeyRetriever`]; the AAD prefix when the file
    /// does not store it; whether a plaintext footer's signature is
    /// checked. Given to a reader with
    /// `ArrowReaderOptions::with_file_decryption_properties`.
    ///
    /// ```
    /// use strata_arrow::encryption::decrypt::FileDecryptionProperties;
    ///
    /// let properties = FileDecryptionProperties::builder(b"0123456789012345".to_vec())
    ///     .with_column_key("double_field", b"1234567890123450".to_vec())
    ///     .with_aad_prefix(b"tester".to_vec())
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(properties.aad_prefix(), Some(&b"tester".to_vec()));
    /// // Keys are never printed.
    /// assert!(!format!("{properties:?}").contains("0123"));
    /// ```
    #[derive(Clone)]
    pub struct FileDecryptionProperties {
        keys: Keys,
        aad_prefix: Option<Vec<u8>>,
        footer_signature_verification: bool,
    }

    impl std::fmt::Debug for FileDecryptionProperties {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("FileDecryptionProperties { }")
        }
    }

    impl FileDecryptionProperties {
        /// Properties with `footer_key`; add column keys with the builder.
        pub fn builder(footer_key: Vec<u8>) -> DecryptionPropertiesBuilder {
            DecryptionPropertiesBuilder {
                footer_key,
                columns: HashMap::new(),
                aad_prefix: None,
                footer_signature_verification: true,
            }
        }

        /// Properties whose keys `retriever` finds by the key metadata the
        /// file stores.
        pub fn with_key_retriever(
            retriever: Arc<dyn KeyRetriever>,
        ) -> DecryptionPropertiesBuilderWithRetriever {
            DecryptionPropertiesBuilderWithRetriever {
                retriever,
                aad_prefix: None,
                footer_signature_verification: true,
            }
        }

        /// The AAD prefix given, if any.
        pub fn aad_prefix(&self) -> Option<&Vec<u8>> {
            self.aad_prefix.as_ref()
        }

        /// Whether a plaintext footer's signature is checked.
        pub fn check_plaintext_footer_integrity(&self) -> bool {
            self.footer_signature_verification
        }

        /// Whether keys come from a [`KeyRetriever`].
        pub fn uses_key_retriever(&self) -> bool {
            matches!(self.keys, Keys::Retriever(_))
        }

        /// The column names and keys given (none with a retriever).
        pub fn column_keys(&self) -> (Vec<String>, Vec<Vec<u8>>) {
            match &self.keys {
                Keys::Explicit { columns, .. } => columns
                    .iter()
                    .map(|(name, key)| (name.clone(), key.clone()))
                    .unzip(),
                Keys::Retriever(_) => (Vec::new(), Vec::new()),
            }
        }
    }

    fn retrieved(e: ParquetError) -> FileError {
        FileError::Decryption(format!("the key retriever failed: {e}"))
    }

    impl DecryptionKeys for FileDecryptionProperties {
        fn footer_key(&self, key_metadata: Option<&[u8]>) -> strata_file::Result<Vec<u8>> {
            match &self.keys {
                Keys::Explicit { footer, .. } => Ok(footer.clone()),
                Keys::Retriever(r) => r
                    .retrieve_key(key_metadata.unwrap_or_default())
                    .map_err(retrieved),
            }
        }

        fn column_key(
            &self,
            path: &str,
            key_metadata: Option<&[u8]>,
        ) -> strata_file::Result<Option<Vec<u8>>> {
            match &self.keys {
                Keys::Explicit { columns, .. } => Ok(columns.get(path).cloned()),
                Keys::Retriever(r) => r
                    .retrieve_key(key_metadata.unwrap_or_default())
                    .map(Some)
                    .map_err(retrieved),
            }
        }

        fn aad_prefix(&self) -> Option<&[u8]> {
            self.aad_prefix.as_deref()
        }

        fn verify_plaintext_footer(&self) -> bool {
            self.footer_signature_verification
        }
    }

    /// Builds [`FileDecryptionProperties`] from explicit keys.
    #[derive(Clone)]
    pub struct DecryptionPropertiesBuilder {
        footer_key: Vec<u8>,
        columns: HashMap<String, Vec<u8>>,
        aad_prefix: Option<Vec<u8>>,
        footer_signature_verification: bool,
    }

    impl std::fmt::Debug for DecryptionPropertiesBuilder {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("DecryptionPropertiesBuilder { }")
        }
    }

    impl DecryptionPropertiesBuilder {
        /// The key of the column named `column_name` (its path in the
        /// schema joined with `.`, as `a.b.list.element`).
        pub fn with_column_key(mut self, column_name: &str, decryption_key: Vec<u8>) -> Self {
            self.columns.insert(column_name.to_string(), decryption_key);
            self
        }

        /// The keys of several columns, in order; fails if the lists
        /// differ in length.
        pub fn with_column_keys(
            mut self,
            column_names: Vec<&str>,
            keys: Vec<Vec<u8>>,
        ) -> Result<Self> {
            if column_names.len() != keys.len() {
                return Err(ParquetError::General(format!(
                    "{} column names and {} keys",
                    column_names.len(),
                    keys.len()
                )));
            }
            for (name, key) in column_names.into_iter().zip(keys) {
                self.columns.insert(name.to_string(), key);
            }
            Ok(self)
        }

        /// The AAD prefix, for a file that was written with one it does
        /// not store (overrides a stored one).
        pub fn with_aad_prefix(mut self, value: Vec<u8>) -> Self {
            self.aad_prefix = Some(value);
            self
        }

        /// Do not check a plaintext footer's signature.
        pub fn disable_footer_signature_verification(mut self) -> Self {
            self.footer_signature_verification = false;
            self
        }

        /// The properties.
        pub fn build(self) -> Result<Arc<FileDecryptionProperties>> {
            Ok(Arc::new(FileDecryptionProperties {
                keys: Keys::Explicit {
                    footer: self.footer_key,
                    columns: self.columns,
                },
                aad_prefix: self.aad_prefix,
                footer_signature_verification: self.footer_signature_verification,
            }))
        }
    }

    /// Builds [`FileDecryptionProperties`] around a [`KeyRetriever`].
    #[derive(Clone)]
    pub struct DecryptionPropertiesBuilderWithRetriever {
        retriever: Arc<dyn KeyRetriever>,
        aad_prefix: Option<Vec<u8>>,
        footer_signature_verification: bool,
    }

    impl std::fmt::Debug for DecryptionPropertiesBuilderWithRetriever {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("DecryptionPropertiesBuilderWithRetriever { }")
        }
    }

    impl DecryptionPropertiesBuilderWithRetriever {
        /// The AAD prefix, for a file that was written with one it does
        /// not store (overrides a stored one).
        pub fn with_aad_prefix(mut self, value: Vec<u8>) -> Self {
            self.aad_prefix = Some(value);
            self
        }

        /// Do not check a plaintext footer's signature.
        pub fn disable_footer_signature_verification(mut self) -> Self {
            self.footer_signature_verification = false;
            self
        }

        /// The properties.
        pub fn build(self) -> Result<Arc<FileDecryptionProperties>> {
            Ok(Arc::new(FileDecryptionProperties {
                keys: Keys::Retriever(self.retriever),
                aad_prefix: self.aad_prefix,
                footer_signature_verification: self.footer_signature_verification,
            }))
        }
    }
}
