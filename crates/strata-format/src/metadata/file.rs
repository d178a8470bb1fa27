//! [`FileMetaData`] and [`KeyValue`].

use super::{ColumnOrder, EncryptionAlgorithm, RowGroup, SchemaElement, required};
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// A key/value metadata pair (`KeyValue`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct KeyValue {
    /// Key, field 1.
    pub key: String,
    /// Value, field 2 (may be absent).
    pub value: Option<String>,
}

impl KeyValue {
    /// A pair; the value may be a `String` or an `Option<String>` (the
    /// signature of arrow-rs's `KeyValue::new`).
    ///
    /// ```
    /// use strata_format::metadata::KeyValue;
    /// assert_eq!(KeyValue::new("k".into(), "v".to_string()).value.as_deref(), Some("v"));
    /// assert_eq!(KeyValue::new("k".into(), None).value, None);
    /// ```
    pub fn new<V: Into<Option<String>>>(key: String, value: V) -> Self {
        Self {
            key,
            value: value.into(),
        }
    }
}

impl ReadThrift for KeyValue {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "KeyValue";
        let saved = r.begin_struct()?;
        let mut key = None;
        let mut value = None;
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut key)?,
                2 => r.read_into(f, &mut value)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            key: required(key, NAME, "key")?,
            value,
        })
    }
}

impl WriteThrift for KeyValue {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.binary_field(1, self.key.as_bytes());
        if let Some(v) = &self.value {
            w.binary_field(2, v.as_bytes());
        }
        w.end_struct(saved);
    }
}

/// The file footer (`FileMetaData`).
///
/// ```
/// use strata_format::metadata::{FieldRepetitionType, FileMetaData, SchemaElement, Type};
/// use strata_format::thrift::{decode, encode_to_vec};
///
/// let meta = FileMetaData {
///     version: 1,
///     schema: vec![
///         SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
///         SchemaElement {
///             name: "id".into(),
///             physical_type: Some(Type::Int64),
///             repetition_type: Some(FieldRepetitionType::Required),
///             ..Default::default()
///         },
///     ],
///     num_rows: 0,
///     ..Default::default()
/// };
/// let bytes = encode_to_vec(&meta);
/// assert_eq!(decode::<FileMetaData>(&bytes).unwrap(), meta);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileMetaData {
    /// Format version (1 or 2), field 1.
    pub version: i32,
    /// Flattened schema, root first, field 2.
    pub schema: Vec<SchemaElement>,
    /// Number of rows in the file, field 3.
    pub num_rows: i64,
    /// Row groups, field 4.
    pub row_groups: Vec<RowGroup>,
    /// Key/value metadata, field 5.
    pub key_value_metadata: Option<Vec<KeyValue>>,
    /// Application that wrote the file, field 6.
    pub created_by: Option<String>,
    /// Order of `min_value`/`max_value` per leaf column, field 7.
    pub column_orders: Option<Vec<ColumnOrder>>,
    /// Encryption algorithm of a file with a plaintext footer and encrypted
    /// columns, field 8.
    pub encryption_algorithm: Option<EncryptionAlgorithm>,
    /// Key metadata for the footer signature, field 9.
    pub footer_signing_key_metadata: Option<Vec<u8>>,
}

/// arrow-rs's accessors (`parquet::file::metadata::FileMetaData`), beside
/// the public fields they read, so that code written for arrow-rs reads
/// the footer unchanged.
///
/// ```
/// use strata_format::metadata::{FileMetaData, KeyValue};
///
/// let footer = FileMetaData {
///     version: 2,
///     num_rows: 7,
///     created_by: Some("me".into()),
///     key_value_metadata: Some(vec![KeyValue::new("k".into(), Some("v".into()))]),
///     ..Default::default()
/// };
/// assert_eq!((footer.version(), footer.num_rows()), (2, 7));
/// assert_eq!(footer.created_by(), Some("me"));
/// assert_eq!(footer.key_value_metadata().map(|kv| kv.len()), Some(1));
/// ```
impl FileMetaData {
    /// The format version (1 or 2).
    pub fn version(&self) -> i32 {
        self.version
    }

    /// Rows in the file.
    pub fn num_rows(&self) -> i64 {
        self.num_rows
    }

    /// The application that wrote the file.
    pub fn created_by(&self) -> Option<&str> {
        self.created_by.as_deref()
    }

    /// The key/value metadata.
    pub fn key_value_metadata(&self) -> Option<&Vec<KeyValue>> {
        self.key_value_metadata.as_ref()
    }

    /// The order of each leaf column's statistics.
    pub fn column_orders(&self) -> Option<&Vec<ColumnOrder>> {
        self.column_orders.as_ref()
    }

    /// The order of leaf `i`'s statistics: [`ColumnOrder::UNDEFINED`]
    /// (legacy signed comparison) when the footer names none for it.
    pub fn column_order(&self, i: usize) -> ColumnOrder {
        self.column_orders
            .as_ref()
            .and_then(|orders| orders.get(i).copied())
            .unwrap_or(ColumnOrder::UNDEFINED)
    }
}

impl ReadThrift for FileMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "FileMetaData";
        let saved = r.begin_struct()?;
        let mut version = None;
        let mut schema: Option<Vec<SchemaElement>> = None;
        let mut num_rows = None;
        let mut row_groups = None;
        let mut m = Self::default();
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut version)?,
                2 if let Some(columns) = r.supplied_schema_columns() => {
                    // The caller supplied the schema: skip the elements.
                    r.skip(f.ty)?;
                    schema = Some(Vec::new());
                    r.reserve_paths(columns);
                }
                2 => {
                    r.read_into(f, &mut schema)?;
                    // At most one column per schema element: size the
                    // path cache once, before the row groups fill it.
                    if let Some(schema) = &schema {
                        r.reserve_paths(schema.len());
                    }
                }
                3 => r.read_into(f, &mut num_rows)?,
                4 => r.read_into(f, &mut row_groups)?,
                5 => r.read_into(f, &mut m.key_value_metadata)?,
                6 => r.read_into(f, &mut m.created_by)?,
                7 => r.read_into(f, &mut m.column_orders)?,
                8 => r.read_into(f, &mut m.encryption_algorithm)?,
                9 => r.read_into(f, &mut m.footer_signing_key_metadata)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        m.version = required(version, NAME, "version")?;
        m.schema = required(schema, NAME, "schema")?;
        m.num_rows = required(num_rows, NAME, "num_rows")?;
        m.row_groups = required(row_groups, NAME, "row_groups")?;
        Ok(m)
    }
}

impl WriteThrift for FileMetaData {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i32_field(1, self.version);
        w.field(2, &self.schema);
        w.i64_field(3, self.num_rows);
        w.field(4, &self.row_groups);
        if let Some(v) = &self.key_value_metadata {
            w.field(5, v);
        }
        if let Some(v) = &self.created_by {
            w.binary_field(6, v.as_bytes());
        }
        if let Some(v) = &self.column_orders {
            w.field(7, v);
        }
        if let Some(v) = &self.encryption_algorithm {
            w.field(8, v);
        }
        if let Some(v) = &self.footer_signing_key_metadata {
            w.binary_field(9, v);
        }
        w.end_struct(saved);
    }
}
