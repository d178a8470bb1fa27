//! Modular encryption metadata: [`EncryptionAlgorithm`],
//! [`FileCryptoMetaData`] and [`ColumnCryptoMetaData`].
//!
//! This layer only models these structs; it does not decrypt anything.

use super::required;
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Parameters of AES-GCM encryption (`AesGcmV1`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct AesGcmV1 {
    /// AAD prefix, field 1.
    pub aad_prefix: Option<Vec<u8>>,
    /// Unique file identifier part of the AAD suffix, field 2.
    pub aad_file_unique: Option<Vec<u8>>,
    /// Whether readers must supply the AAD prefix, field 3.
    pub supply_aad_prefix: Option<bool>,
}

/// Parameters of AES-GCM-CTR encryption (`AesGcmCtrV1`); same fields as
/// [`AesGcmV1`].
pub type AesGcmCtrV1 = AesGcmV1;

fn read_aes(r: &mut CompactReader<'_>) -> Result<AesGcmV1> {
    let saved = r.begin_struct()?;
    let mut a = AesGcmV1::default();
    while let Some(f) = r.next_field()? {
        match f.id {
            1 => r.read_into(f, &mut a.aad_prefix)?,
            2 => r.read_into(f, &mut a.aad_file_unique)?,
            3 => r.bool_into(f, &mut a.supply_aad_prefix)?,
            _ => r.skip(f.ty)?,
        }
    }
    r.end_struct(saved);
    Ok(a)
}

fn write_aes(w: &mut CompactWriter<'_>, a: &AesGcmV1) {
    let saved = w.begin_struct();
    if let Some(v) = &a.aad_prefix {
        w.binary_field(1, v);
    }
    if let Some(v) = &a.aad_file_unique {
        w.binary_field(2, v);
    }
    if let Some(v) = a.supply_aad_prefix {
        w.bool_field(3, v);
    }
    w.end_struct(saved);
}

/// The encryption algorithm of a file (`EncryptionAlgorithm` union).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EncryptionAlgorithm {
    /// AES-GCM for all modules (`AES_GCM_V1`, id 1).
    AesGcmV1(AesGcmV1),
    /// AES-GCM for metadata, AES-CTR for pages (`AES_GCM_CTR_V1`, id 2).
    AesGcmCtrV1(AesGcmCtrV1),
    /// A member this version does not know, by field id.
    Unknown(i16),
}

impl ReadThrift for EncryptionAlgorithm {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "EncryptionAlgorithm";
        let saved = r.begin_struct()?;
        let mut out = None;
        while let Some(f) = r.next_field()? {
            if out.is_some() || f.ty != FieldType::Struct {
                r.skip(f.ty)?;
                continue;
            }
            out = Some(match f.id {
                1 => Self::AesGcmV1(read_aes(r)?),
                2 => Self::AesGcmCtrV1(read_aes(r)?),
                id => {
                    r.skip(f.ty)?;
                    Self::Unknown(id)
                }
            });
        }
        r.end_struct(saved);
        required(out, NAME, "member")
    }
}

impl WriteThrift for EncryptionAlgorithm {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        match self {
            Self::AesGcmV1(a) => {
                w.field_header(1, FieldType::Struct);
                write_aes(w, a);
            }
            Self::AesGcmCtrV1(a) => {
                w.field_header(2, FieldType::Struct);
                write_aes(w, a);
            }
            Self::Unknown(id) => w.empty_struct_field(*id),
        }
        w.end_struct(saved);
    }
}

/// Crypto metadata stored in front of an encrypted footer
/// (`FileCryptoMetaData`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileCryptoMetaData {
    /// Encryption algorithm, field 1.
    pub encryption_algorithm: EncryptionAlgorithm,
    /// Key retrieval metadata, field 2.
    pub key_metadata: Option<Vec<u8>>,
}

impl ReadThrift for FileCryptoMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "FileCryptoMetaData";
        let saved = r.begin_struct()?;
        let (mut algorithm, mut key_metadata) = (None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut algorithm)?,
                2 => r.read_into(f, &mut key_metadata)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            encryption_algorithm: required(algorithm, NAME, "encryption_algorithm")?,
            key_metadata,
        })
    }
}

impl WriteThrift for FileCryptoMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.field(1, &self.encryption_algorithm);
        if let Some(v) = &self.key_metadata {
            w.binary_field(2, v);
        }
        w.end_struct(saved);
    }
}

/// Key information of a column encrypted with its own key
/// (`EncryptionWithColumnKey`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct EncryptionWithColumnKey {
    /// Path of the column, field 1.
    pub path_in_schema: Vec<String>,
    /// Key retrieval metadata, field 2.
    pub key_metadata: Option<Vec<u8>>,
}

/// How a column chunk is encrypted (`ColumnCryptoMetaData` union).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ColumnCryptoMetaData {
    /// Encrypted with the footer key (`ENCRYPTION_WITH_FOOTER_KEY`, id 1).
    EncryptionWithFooterKey,
    /// Encrypted with a column key (`ENCRYPTION_WITH_COLUMN_KEY`, id 2).
    EncryptionWithColumnKey(EncryptionWithColumnKey),
    /// A member this version does not know, by field id.
    Unknown(i16),
}

impl ReadThrift for ColumnCryptoMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "ColumnCryptoMetaData";
        const INNER: &str = "EncryptionWithColumnKey";
        let saved = r.begin_struct()?;
        let mut out = None;
        while let Some(f) = r.next_field()? {
            if out.is_some() || f.ty != FieldType::Struct {
                r.skip(f.ty)?;
                continue;
            }
            out = Some(match f.id {
                1 => {
                    r.skip(FieldType::Struct)?;
                    Self::EncryptionWithFooterKey
                }
                2 => {
                    let inner_saved = r.begin_struct()?;
                    let (mut path, mut key_metadata) = (None, None);
                    while let Some(g) = r.next_field()? {
                        match g.id {
                            1 => r.read_into(g, &mut path)?,
                            2 => r.read_into(g, &mut key_metadata)?,
                            _ => r.skip(g.ty)?,
                        }
                    }
                    r.end_struct(inner_saved);
                    Self::EncryptionWithColumnKey(EncryptionWithColumnKey {
                        path_in_schema: required(path, INNER, "path_in_schema")?,
                        key_metadata,
                    })
                }
                id => {
                    r.skip(f.ty)?;
                    Self::Unknown(id)
                }
            });
        }
        r.end_struct(saved);
        required(out, NAME, "member")
    }
}

impl WriteThrift for ColumnCryptoMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        match self {
            Self::EncryptionWithFooterKey => w.empty_struct_field(1),
            Self::EncryptionWithColumnKey(k) => {
                w.field_header(2, FieldType::Struct);
                let inner = w.begin_struct();
                w.field(1, &k.path_in_schema);
                if let Some(v) = &k.key_metadata {
                    w.binary_field(2, v);
                }
                w.end_struct(inner);
            }
            Self::Unknown(id) => w.empty_struct_field(*id),
        }
        w.end_struct(saved);
    }
}
