// Programs about encrypted files (the `encryption` feature): writing with
// `FileEncryptionProperties` and reading with `FileDecryptionProperties`,
// explicit keys or a `KeyRetriever`, under an encrypted footer and a
// signed plaintext one. Included into a module that has `pq` in scope.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::ProjectionMask;
use pq::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use pq::encryption::decrypt::{FileDecryptionProperties, KeyRetriever};
use pq::encryption::encrypt::FileEncryptionProperties;
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::fmt_batches;

const FOOTER_KEY: &[u8] = b"0123456789012345";
const SCORE_KEY: &[u8] = b"1234567890123450";

fn write_encrypted(batch: &RecordBatch, encryption: Arc<FileEncryptionProperties>) -> Bytes {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(40))
        .with_file_encryption_properties(encryption)
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

fn read_with(file: &Bytes, decryption: Arc<FileDecryptionProperties>) -> pq::errors::Result<Vec<RecordBatch>> {
    let options = ArrowReaderOptions::new().with_file_decryption_properties(decryption);
    ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)?
        .build()?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| pq::errors::ParquetError::General(e.to_string()))
}

/// Every column under the footer key: written, read back, and refused
/// without keys.
pub fn encrypted_file_roundtrip(_dir: &Path) -> String {
    let file = write_encrypted(
        &people(100),
        FileEncryptionProperties::builder(FOOTER_KEY.to_vec()).build().unwrap(),
    );
    let decryption = FileDecryptionProperties::builder(FOOTER_KEY.to_vec()).build().unwrap();
    let mut out = fmt_batches(&read_with(&file, decryption).unwrap());
    let keyless = ParquetRecordBatchReaderBuilder::try_new(file.clone());
    out.push_str(&format!("read without keys fails: {}\n", keyless.is_err()));
    let wrong = FileDecryptionProperties::builder(b"0123456789012346".to_vec()).build().unwrap();
    out.push_str(&format!("read with a wrong key fails: {}\n", read_with(&file, wrong).is_err()));
    out
}

/// Key ids stored as key metadata, found by a retriever.
struct Keys(HashMap<Vec<u8>, Vec<u8>>);

impl KeyRetriever for Keys {
    fn retrieve_key(&self, key_metadata: &[u8]) -> pq::errors::Result<Vec<u8>> {
        self.0
            .get(key_metadata)
            .cloned()
            .ok_or_else(|| pq::errors::ParquetError::General("no such key".into()))
    }
}

/// One column under its own key (with a key id), a plaintext footer:
/// read with explicit keys, with a retriever, and, without the column's
/// key, the other columns.
pub fn encrypted_column_key_and_plaintext_footer(_dir: &Path) -> String {
    let encryption = FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
        .with_footer_key_metadata(b"kf".to_vec())
        .with_column_key_and_metadata("score", SCORE_KEY.to_vec(), b"kc1".to_vec())
        .with_plaintext_footer(true)
        .build()
        .unwrap();
    let file = write_encrypted(&people(90), encryption);
    let explicit = FileDecryptionProperties::builder(FOOTER_KEY.to_vec())
        .with_column_key("score", SCORE_KEY.to_vec())
        .build()
        .unwrap();
    let mut out = fmt_batches(&read_with(&file, explicit).unwrap());
    let keys = Keys(HashMap::from([
        (b"kf".to_vec(), FOOTER_KEY.to_vec()),
        (b"kc1".to_vec(), SCORE_KEY.to_vec()),
    ]));
    let retrieved = FileDecryptionProperties::with_key_retriever(Arc::new(keys))
        .build()
        .unwrap();
    out.push_str(&fmt_batches(&read_with(&file, retrieved).unwrap()));
    // No key for `score`: the plaintext footer reads, and so do the other
    // columns.
    let footer_only = FileDecryptionProperties::builder(FOOTER_KEY.to_vec()).build().unwrap();
    let options = ArrowReaderOptions::new().with_file_decryption_properties(footer_only);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).unwrap();
    out.push_str(&format!("rows in the footer: {}\n", builder.metadata().file_metadata().num_rows()));
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [0, 1, 3]);
    let open: Vec<RecordBatch> = builder
        .with_projection(mask)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    out.push_str(&fmt_batches(&open));
    out
}
