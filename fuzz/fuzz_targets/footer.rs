//! Footer and metadata decoding of arbitrary bytes: the whole-file path
//! (magic, length, Thrift `FileMetaData`), the bare Thrift decode, the
//! schema tree built from the decoded schema, and the other Thrift
//! structures a reader decodes from file offsets (page headers, page
//! indexes, Bloom filter headers).
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::format::footer::{decode_metadata, read_metadata_from_slice};
use strata::format::thrift::{CompactReader, ReadThrift};
use strata::format::{BloomFilterHeader, ColumnIndex, OffsetIndex, PageHeader, SchemaDescriptor};

fuzz_target!(|data: &[u8]| {
    let _ = read_metadata_from_slice(data);
    if let Ok(meta) = decode_metadata(data) {
        let _ = SchemaDescriptor::from_elements(&meta.schema);
    }
    let _ = PageHeader::read_thrift(&mut CompactReader::new(data));
    let _ = ColumnIndex::read_thrift(&mut CompactReader::new(data));
    let _ = OffsetIndex::read_thrift(&mut CompactReader::new(data));
    let _ = BloomFilterHeader::read_thrift(&mut CompactReader::new(data));
});
