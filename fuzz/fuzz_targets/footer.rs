//! Footer and metadata decoding of arbitrary bytes: the whole-file path
//! (magic, length, Thrift `FileMetaData`), the bare Thrift decode, the
//! schema tree built from the decoded schema, and the other Thrift
//! structures a reader decodes from file offsets (page headers, page
//! indexes, Bloom filter headers). The same bytes as a whole file read
//! with decryption keys: an encrypted footer (`PARE`: the crypto metadata,
//! the footer module, the AADs) or a signed plaintext one, with the
//! column metadata each key decrypts.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use strata::encryption::decrypt::FileDecryptionProperties;
use strata::file::metadata::ParquetMetaDataReader;
use strata::format::footer::{decode_metadata, read_metadata_from_slice};
use strata::format::thrift::{CompactReader, ReadThrift};
use strata::format::{BloomFilterHeader, ColumnIndex, OffsetIndex, PageHeader, SchemaDescriptor};

/// The corpus's keys (parquet-testing's README): footer and two column
/// keys.
fn keys() -> &'static Arc<FileDecryptionProperties> {
    static KEYS: OnceLock<Arc<FileDecryptionProperties>> = OnceLock::new();
    KEYS.get_or_init(|| {
        FileDecryptionProperties::builder(b"0123456789012345".to_vec())
            .with_column_key("double_field", b"1234567890123450".to_vec())
            .with_column_key("float_field", b"1234567890123451".to_vec())
            .build()
            .expect("keys of 16 bytes")
    })
}

fuzz_target!(|data: &[u8]| {
    let _ = ParquetMetaDataReader::new()
        .with_decryption_properties(Some(Arc::clone(keys())))
        .parse_and_finish(&bytes::Bytes::copy_from_slice(data));
    let _ = read_metadata_from_slice(data);
    if let Ok(meta) = decode_metadata(data) {
        let _ = SchemaDescriptor::from_elements(&meta.schema);
    }
    let _ = PageHeader::read_thrift(&mut CompactReader::new(data));
    let _ = ColumnIndex::read_thrift(&mut CompactReader::new(data));
    let _ = OffsetIndex::read_thrift(&mut CompactReader::new(data));
    let _ = BloomFilterHeader::read_thrift(&mut CompactReader::new(data));
});
