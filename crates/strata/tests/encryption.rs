//! Reading encrypted files: the encrypted files of the parquet-testing
//! corpus (`data/*.parquet.encrypted`, `data/aes256/`), read with the keys
//! its README documents, checked value by value against the values the
//! files were generated with, and against arrow-rs 60.1 (its `encryption`
//! feature) where arrow-rs reads them (it does not read AES_GCM_CTR_V1).
//! Wrong keys, missing keys and changed bytes give errors, never a panic
//! or wrong values.
//!
//! The README's keys are ASCII digits: the footer key `0123456789012345`,
//! the column keys `1234567890123450` (double_field) and
//! `1234567890123451` (float_field); the AES-256 files use 32-digit keys.
//! The AAD prefix of the `_aad` and `_disable_aad_storage` files is
//! `tester`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/python.rs"]
mod python;

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use bytes::Bytes;
use strata::arrow::ProjectionMask;
use strata::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use strata::encryption::decrypt::{FileDecryptionProperties, KeyRetriever};

fn data_dir() -> Option<PathBuf> {
    corpus::corpus_dir("data")
}

const FOOTER_128: &[u8] = b"0123456789012345";
const DOUBLE_128: &[u8] = b"1234567890123450";
const FLOAT_128: &[u8] = b"1234567890123451";
const FOOTER_256: &[u8] = b"01234567890123456789012345678901";

/// An AES-256 column key: 31 digits, then the last one of the column's.
fn key_256(last: u8) -> Vec<u8> {
    let mut key = b"1234567890123456789012345678901".to_vec();
    key.push(last);
    key
}

/// Every column of the AES-256 files with its key.
fn columns_256() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("double_field", key_256(b'2')),
        ("float_field", key_256(b'3')),
        ("boolean_field", key_256(b'4')),
        ("int32_field", key_256(b'5')),
        ("ba_field", key_256(b'6')),
        ("flba_field", key_256(b'7')),
        ("int64_field.list.element", key_256(b'8')),
        ("int96_field", key_256(b'9')),
    ]
}

/// A corpus file and the properties that read it.
struct Case {
    file: &'static str,
    footer: &'static [u8],
    columns: Vec<(&'static str, Vec<u8>)>,
    aad_prefix: Option<&'static [u8]>,
    /// arrow-rs 60.1 reads it (not AES_GCM_CTR_V1).
    arrow_rs_reads: bool,
}

fn cases() -> Vec<Case> {
    let columns_128 = || {
        vec![
            ("double_field", DOUBLE_128.to_vec()),
            ("float_field", FLOAT_128.to_vec()),
        ]
    };
    let case = |file, aad_prefix, arrow_rs_reads| Case {
        file,
        footer: FOOTER_128,
        columns: columns_128(),
        aad_prefix,
        arrow_rs_reads,
    };
    let case_256 = |file, aad_prefix, arrow_rs_reads| Case {
        file,
        footer: FOOTER_256,
        columns: columns_256(),
        aad_prefix,
        arrow_rs_reads,
    };
    vec![
        case("uniform_encryption.parquet.encrypted", None, true),
        case("encrypt_columns_and_footer.parquet.encrypted", None, true),
        case(
            "encrypt_columns_and_footer_aad.parquet.encrypted",
            None,
            true,
        ),
        case(
            "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
            Some(b"tester"),
            true,
        ),
        case(
            "encrypt_columns_and_footer_ctr.parquet.encrypted",
            None,
            false,
        ),
        case(
            "encrypt_columns_plaintext_footer.parquet.encrypted",
            None,
            true,
        ),
        case_256("aes256/uniform_encryption.parquet.encrypted", None, true),
        case_256(
            "aes256/encrypt_columns_and_footer.parquet.encrypted",
            None,
            true,
        ),
        case_256(
            "aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
            Some(b"tester"),
            true,
        ),
        case_256(
            "aes256/encrypt_columns_and_footer_ctr.parquet.encrypted",
            None,
            false,
        ),
        case_256(
            "aes256/encrypt_columns_plaintext_footer.parquet.encrypted",
            None,
            true,
        ),
    ]
}

fn strata_properties(case: &Case) -> Arc<FileDecryptionProperties> {
    let mut b = FileDecryptionProperties::builder(case.footer.to_vec());
    for (name, key) in &case.columns {
        b = b.with_column_key(name, key.clone());
    }
    if let Some(prefix) = case.aad_prefix {
        b = b.with_aad_prefix(prefix.to_vec());
    }
    b.build().unwrap()
}

fn strata_read(
    file: &Bytes,
    properties: Arc<FileDecryptionProperties>,
) -> strata::errors::Result<Vec<RecordBatch>> {
    let options = ArrowReaderOptions::new().with_file_decryption_properties(properties);
    ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)?
        .build()?
        .collect::<Result<Vec<_>, _>>()
        .map_err(Into::into)
}

fn arrow_rs_read(file: &Bytes, case: &Case) -> Vec<RecordBatch> {
    use parquet::encryption::decrypt::FileDecryptionProperties as PqProperties;
    let mut b = PqProperties::builder(case.footer.to_vec());
    for (name, key) in &case.columns {
        b = b.with_column_key(name, key.clone());
    }
    if let Some(prefix) = case.aad_prefix {
        b = b.with_aad_prefix(prefix.to_vec());
    }
    let options = parquet::arrow::arrow_reader::ArrowReaderOptions::new()
        .with_file_decryption_properties(b.build().unwrap());
    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new_with_options(
        file.clone(),
        options,
    )
    .unwrap()
    .build()
    .unwrap()
    .collect::<Result<Vec<_>, _>>()
    .unwrap()
}

/// The values the 8-column files were generated with, row `i` of 50.
fn check_generated_values(batches: &[RecordBatch], what: &str) {
    let batch = arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap();
    assert_eq!(batch.num_rows(), 50, "{what}");
    let column = |name: &str| {
        batch
            .column_by_name(name)
            .unwrap_or_else(|| panic!("{what}: no column {name}"))
    };
    let booleans = column("boolean_field").as_boolean();
    let int32s = column("int32_field");
    let floats = column("float_field").as_primitive::<Float32Type>();
    let doubles = column("double_field").as_primitive::<Float64Type>();
    let lists = column("int64_field").as_list::<i32>();
    let bytes = column("ba_field");
    let fixed = column("flba_field").as_fixed_size_binary();
    for i in 0..50usize {
        assert_eq!(booleans.value(i), i % 2 == 0, "{what}: boolean_field {i}");
        let int32 = match int32s.data_type() {
            arrow_schema::DataType::Int32 => int32s.as_primitive::<Int32Type>().value(i),
            _ => arrow_cast::cast(int32s, &arrow_schema::DataType::Int32)
                .unwrap()
                .as_primitive::<Int32Type>()
                .value(i),
        };
        assert_eq!(int32, i as i32, "{what}: int32_field {i}");
        assert_eq!(
            floats.value(i),
            i as f32 * 1.1f32,
            "{what}: float_field {i}"
        );
        assert_eq!(
            doubles.value(i),
            i as f64 * 1.1111111,
            "{what}: double_field {i}"
        );
        let list = lists.value(i);
        let list = list.as_primitive::<Int64Type>();
        let i64s: Vec<i64> = list.values().to_vec();
        let base = 1_000_000_000_000i64;
        assert_eq!(
            i64s,
            [2 * i as i64 * base, (2 * i as i64 + 1) * base],
            "{what}: int64_field {i}"
        );
        if i % 2 == 0 {
            let value: &[u8] = match bytes.data_type() {
                arrow_schema::DataType::Utf8 => bytes.as_string::<i32>().value(i).as_bytes(),
                _ => bytes.as_binary::<i32>().value(i),
            };
            assert_eq!(
                value,
                format!("parquet{i:03}").as_bytes(),
                "{what}: ba_field {i}"
            );
        } else {
            assert!(bytes.is_null(i), "{what}: ba_field {i} is null");
        }
        assert_eq!(fixed.value(i), [i as u8; 10], "{what}: flba_field {i}");
    }
}

#[test]
fn every_encrypted_corpus_file_reads_its_generated_values() {
    let Some(dir) = data_dir() else { return };
    let mut compared_with_arrow_rs = 0;
    for case in cases() {
        let file = Bytes::from(std::fs::read(dir.join(case.file)).unwrap());
        let batches = strata_read(&file, strata_properties(&case))
            .unwrap_or_else(|e| panic!("{}: {e}", case.file));
        check_generated_values(&batches, case.file);
        if case.arrow_rs_reads {
            let want = arrow_rs_read(&file, &case);
            let concat = |b: &[RecordBatch]| {
                arrow_select::concat::concat_batches(&b[0].schema(), b).unwrap()
            };
            assert_eq!(
                concat(&batches),
                concat(&want),
                "{}: strata against arrow-rs",
                case.file
            );
            compared_with_arrow_rs += 1;
        }
    }
    assert_eq!(compared_with_arrow_rs, 9);
}

/// The key retriever the README's key ids name: "kf" for the footer,
/// "kc1" and "kc2" for the double and float columns.
struct ReadmeKeys;

impl KeyRetriever for ReadmeKeys {
    fn retrieve_key(&self, key_metadata: &[u8]) -> strata::errors::Result<Vec<u8>> {
        match key_metadata {
            b"kf" => Ok(FOOTER_128.to_vec()),
            b"kc1" => Ok(DOUBLE_128.to_vec()),
            b"kc2" => Ok(FLOAT_128.to_vec()),
            other => Err(strata::errors::ParquetError::General(format!(
                "no key named {:?}",
                String::from_utf8_lossy(other)
            ))),
        }
    }
}

#[test]
fn a_key_retriever_finds_keys_by_their_metadata() {
    let Some(dir) = data_dir() else { return };
    for file in [
        "encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_and_footer_ctr.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted",
        "uniform_encryption.parquet.encrypted",
    ] {
        let bytes = Bytes::from(std::fs::read(dir.join(file)).unwrap());
        let properties = FileDecryptionProperties::with_key_retriever(Arc::new(ReadmeKeys))
            .build()
            .unwrap();
        let batches = strata_read(&bytes, properties).unwrap_or_else(|e| panic!("{file}: {e}"));
        check_generated_values(&batches, file);
    }
}

fn read_error(file: &Bytes, properties: Arc<FileDecryptionProperties>) -> String {
    match strata_read(file, properties) {
        Ok(_) => panic!("read without error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn wrong_keys_and_missing_prefixes_are_errors() {
    let Some(dir) = data_dir() else { return };
    let read = |name: &str| Bytes::from(std::fs::read(dir.join(name)).unwrap());
    let uniform = read("uniform_encryption.parquet.encrypted");
    // A wrong footer key.
    let wrong = FileDecryptionProperties::builder(b"0123456789012346".to_vec())
        .build()
        .unwrap();
    let e = read_error(&uniform, wrong);
    assert!(e.contains("did not authenticate"), "{e}");
    // A key of a length AES does not have.
    let short = FileDecryptionProperties::builder(b"short".to_vec())
        .build()
        .unwrap();
    assert!(read_error(&uniform, short).contains("16 or 32"));
    // No decryption properties at all: the footer is encrypted.
    let e = ParquetRecordBatchReaderBuilder::try_new(uniform.clone()).unwrap_err();
    assert!(e.to_string().contains("encrypted"), "{e}");
    // A wrong column key fails when that column's metadata is decrypted.
    let columns = read("encrypt_columns_and_footer.parquet.encrypted");
    let wrong_column = FileDecryptionProperties::builder(FOOTER_128.to_vec())
        .with_column_key("double_field", FLOAT_128.to_vec())
        .with_column_key("float_field", FLOAT_128.to_vec())
        .build()
        .unwrap();
    assert!(read_error(&columns, wrong_column).contains("did not authenticate"));
    // The AAD prefix the file does not store, not supplied.
    let unstored = read("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
    let no_prefix = FileDecryptionProperties::builder(FOOTER_128.to_vec())
        .with_column_key("double_field", DOUBLE_128.to_vec())
        .with_column_key("float_field", FLOAT_128.to_vec())
        .build()
        .unwrap();
    assert!(read_error(&unstored, no_prefix.clone()).contains("AAD prefix"));
    // A wrong prefix.
    let wrong_prefix = FileDecryptionProperties::builder(FOOTER_128.to_vec())
        .with_aad_prefix(b"testers".to_vec())
        .build()
        .unwrap();
    assert!(read_error(&unstored, wrong_prefix).contains("did not authenticate"));
    // A plaintext footer signed with another key.
    let plaintext = read("encrypt_columns_plaintext_footer.parquet.encrypted");
    let wrong_signer = FileDecryptionProperties::builder(b"0123456789012346".to_vec())
        .build()
        .unwrap();
    assert!(read_error(&plaintext, wrong_signer).contains("signature"));
}

#[test]
fn columns_without_keys_are_errors_naming_them_and_the_others_read() {
    let Some(dir) = data_dir() else { return };
    for name in [
        "encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted",
    ] {
        let file = Bytes::from(std::fs::read(dir.join(name)).unwrap());
        let footer_only = FileDecryptionProperties::builder(FOOTER_128.to_vec())
            .build()
            .unwrap();
        let e = read_error(&file, footer_only.clone());
        assert!(
            e.contains("double_field") || e.contains("float_field"),
            "{name}: {e}"
        );
        // A projection without the two encrypted columns reads.
        let options = ArrowReaderOptions::new().with_file_decryption_properties(footer_only);
        let builder =
            ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
        let schema = builder.parquet_schema();
        let keep: Vec<usize> = (0..schema.num_columns())
            .filter(|&i| !["double_field", "float_field"].contains(&schema.column(i).name()))
            .collect();
        let mask = ProjectionMask::leaves(schema, keep.iter().copied());
        let batches: Vec<RecordBatch> = builder
            .with_projection(mask)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows, 50, "{name}");
        let ints = batches[0]
            .column_by_name("boolean_field")
            .unwrap()
            .as_boolean();
        assert!(ints.value(0) && !ints.value(1), "{name}");
    }
}

/// Every byte of two files whose columns are all encrypted (one with an
/// encrypted footer, one with a signed plaintext footer) changed in turn,
/// and the files cut short at every length: each read is an error, or
/// (where the byte changed lies outside what the read uses) the same
/// values as the file unchanged. Never a panic, never other values: under
/// AES_GCM_V1 every module authenticates, and so does a signed footer.
/// (A column left unencrypted has no such protection beyond its CRC.)
#[test]
fn changed_or_cut_bytes_never_give_other_values() {
    let Some(dir) = data_dir() else { return };
    for case in cases().into_iter().filter(|c| {
        c.file == "uniform_encryption.parquet.encrypted"
            || c.file == "aes256/encrypt_columns_plaintext_footer.parquet.encrypted"
    }) {
        let original = std::fs::read(dir.join(case.file)).unwrap();
        let properties = strata_properties(&case);
        let want = strata_read(&Bytes::from(original.clone()), Arc::clone(&properties)).unwrap();
        let mut errors = 0;
        for i in 0..original.len() {
            let mut changed = original.clone();
            changed[i] ^= 0x5A;
            let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                strata_read(&Bytes::from(changed), Arc::clone(&properties))
            }))
            .unwrap_or_else(|_| panic!("{}: byte {i} changed: a panic", case.file));
            match got {
                Err(_) => errors += 1,
                Ok(batches) => assert_eq!(batches, want, "{}: byte {i} changed", case.file),
            }
        }
        for len in 0..original.len() {
            let cut = Bytes::from(original[..len].to_vec());
            assert!(
                strata_read(&cut, Arc::clone(&properties)).is_err(),
                "{}: cut to {len}",
                case.file
            );
        }
        // Most bytes are inside an authenticated module or a structure
        // the read checks; the rest are in what this read does not use
        // (the encrypted page indexes, the footer's statistics).
        assert!(
            errors * 4 > original.len() * 3,
            "{}: {errors} errors",
            case.file
        );
    }
}

/// parquet-mr's file with several v2 data pages per encrypted column (page
/// ordinals 0, 1, 2 in their AADs) and page CRCs of the encrypted bytes.
/// Its 2,000 rows hold, in row `i`: `double_field` `i + 0.5`,
/// `float_field` `i + 0.25`, `int32_field` `i`, `name` `"name_i"` (the
/// parquet-mr generator's pattern, also seen by decrypting the file with
/// Python's `cryptography`). arrow-rs 60.1 built with its `crc` feature
/// fails on this file ("Page CRC checksum mismatch": it checks the CRC of
/// the decrypted bytes), so it is not compared here.
#[test]
fn pages_of_a_chunk_decrypt_in_order() {
    let Some(dir) = data_dir() else { return };
    let case = Case {
        file: "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
        footer: FOOTER_128,
        columns: vec![
            ("double_field", DOUBLE_128.to_vec()),
            ("float_field", FLOAT_128.to_vec()),
        ],
        aad_prefix: None,
        arrow_rs_reads: false,
    };
    let file = Bytes::from(std::fs::read(dir.join(case.file)).unwrap());
    let got = strata_read(&file, strata_properties(&case)).unwrap();
    let got = arrow_select::concat::concat_batches(&got[0].schema(), &got).unwrap();
    assert_eq!(got.num_rows(), 2000);
    let doubles = got
        .column_by_name("double_field")
        .unwrap()
        .as_primitive::<Float64Type>();
    let floats = got
        .column_by_name("float_field")
        .unwrap()
        .as_primitive::<Float32Type>();
    let ints = got
        .column_by_name("int32_field")
        .unwrap()
        .as_primitive::<Int32Type>();
    let names = got.column_by_name("name").unwrap().as_string::<i32>();
    for i in 0..2000 {
        assert_eq!(doubles.value(i), i as f64 + 0.5, "row {i}");
        assert_eq!(floats.value(i), i as f32 + 0.25, "row {i}");
        assert!(ints.is_valid(i) && names.is_valid(i), "row {i}");
        assert_eq!(ints.value(i), i as i32, "row {i}");
        assert_eq!(names.value(i), format!("name_{i}"), "row {i}");
    }
}

/// The push decoder (metadata read with the properties) and the async
/// stream read what the synchronous reader reads.
#[test]
fn push_and_async_readers_decrypt_as_the_synchronous_one_does() {
    use strata::arrow::async_reader::ParquetRecordBatchStreamBuilder;
    use strata::arrow::push_decoder::ParquetPushDecoderBuilder;
    use strata::file::metadata::ParquetMetaDataReader;
    use strata_file::DecodeResult;
    let Some(dir) = data_dir() else { return };
    for case in cases() {
        let file = Bytes::from(std::fs::read(dir.join(case.file)).unwrap());
        let properties = strata_properties(&case);
        let want = strata_read(&file, Arc::clone(&properties)).unwrap();

        let metadata = ParquetMetaDataReader::new()
            .with_decryption_properties(Some(Arc::clone(&properties)))
            .parse_and_finish(&file)
            .unwrap();
        let mut decoder = ParquetPushDecoderBuilder::try_new_decoder(Arc::new(metadata))
            .unwrap()
            .build()
            .unwrap();
        let mut pushed = Vec::new();
        loop {
            match decoder.try_decode().unwrap() {
                DecodeResult::NeedsData(ranges) => {
                    let data = ranges
                        .iter()
                        .map(|r| file.slice(r.start as usize..r.end as usize))
                        .collect();
                    decoder.push_ranges(ranges, data).unwrap();
                }
                DecodeResult::Data(batch) => pushed.push(batch),
                DecodeResult::Finished => break,
            }
        }
        assert_eq!(pushed, want, "{}: push decoder", case.file);

        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let streamed: Vec<RecordBatch> = runtime.block_on(async {
            use futures::TryStreamExt;
            let options = ArrowReaderOptions::new().with_file_decryption_properties(properties);
            ParquetRecordBatchStreamBuilder::new_with_options(
                std::io::Cursor::new(file.to_vec()),
                options,
            )
            .await
            .unwrap()
            .build()
            .unwrap()
            .try_collect()
            .await
            .unwrap()
        });
        assert_eq!(streamed, want, "{}: async stream", case.file);
    }
}

/// A table of several types, in row groups of 700 rows and pages of 100,
/// with page indexes, a Bloom filter on `id`, and page CRCs if `crc`.
fn table_and_props(
    encryption: Arc<strata::encryption::encrypt::FileEncryptionProperties>,
    crc: bool,
) -> (RecordBatch, strata::file::properties::WriterProperties) {
    use arrow_array::{ArrayRef, Float64Array, Int64Array, StringArray};
    let n = 2_000i64;
    let id: ArrayRef = Arc::new(Int64Array::from_iter_values(0..n));
    let name: ArrayRef = Arc::new(StringArray::from_iter(
        (0..n).map(|i| (i % 7 != 3).then(|| format!("name-{}", i % 50))),
    ));
    let secret: ArrayRef = Arc::new(Float64Array::from_iter_values(
        (0..n).map(|i| i as f64 * 0.25),
    ));
    let note: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..n).map(|i| format!("note {i:x}")),
    ));
    let batch = RecordBatch::try_from_iter([
        ("id", id),
        ("name", name),
        ("secret", secret),
        ("note", note),
    ])
    .unwrap();
    let props = strata::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(700))
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(100)
        .set_write_page_crc(crc)
        .set_column_bloom_filter_enabled("id".into(), true)
        .with_file_encryption_properties(encryption)
        .build();
    (batch, props)
}

/// The encryptions written: uniform (the footer key only), column keys
/// under an encrypted footer, column keys under a signed plaintext footer,
/// and an AAD prefix stored or left for the reader.
/// A case written: its name, how it is encrypted, and the AAD prefix a
/// reader must supply.
type WriteCase = (
    &'static str,
    Arc<strata::encryption::encrypt::FileEncryptionProperties>,
    Option<&'static [u8]>,
);

fn write_cases() -> Vec<WriteCase> {
    use strata::encryption::encrypt::FileEncryptionProperties as P;
    let columns = |b: strata::encryption::encrypt::EncryptionPropertiesBuilder| {
        b.with_column_key("secret", DOUBLE_128.to_vec())
            .with_column_key_and_metadata("note", FLOAT_128.to_vec(), b"kc2".to_vec())
    };
    vec![
        (
            "uniform",
            P::builder(FOOTER_128.to_vec()).build().unwrap(),
            None,
        ),
        (
            "column keys",
            columns(P::builder(FOOTER_128.to_vec())).build().unwrap(),
            None,
        ),
        (
            "plaintext footer",
            columns(P::builder(FOOTER_128.to_vec()).with_plaintext_footer(true))
                .build()
                .unwrap(),
            None,
        ),
        (
            "stored prefix, 256-bit",
            P::builder(FOOTER_256.to_vec())
                .with_aad_prefix(b"table".to_vec())
                .with_aad_prefix_storage(true)
                .build()
                .unwrap(),
            None,
        ),
        (
            "prefix for the reader",
            columns(P::builder(FOOTER_128.to_vec()).with_aad_prefix(b"table".to_vec()))
                .build()
                .unwrap(),
            Some(b"table"),
        ),
    ]
}

fn written(
    encryption: Arc<strata::encryption::encrypt::FileEncryptionProperties>,
    crc: bool,
) -> (RecordBatch, Bytes) {
    let (batch, props) = table_and_props(encryption, crc);
    let mut out = Vec::new();
    let mut w = strata::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    (batch, Bytes::from(out))
}

/// What strata encrypts, strata and arrow-rs (its `encryption` feature)
/// both decrypt to the table written, and a reader without keys gets
/// nothing of an encrypted column. Page CRCs are left out of the files
/// arrow-rs reads: strata writes an encrypted page's CRC of its encrypted
/// bytes, as the format and parquet-java do, and arrow-rs 60.1 (its `crc`
/// feature) checks it against the decrypted bytes; strata reads them with
/// CRCs too.
#[test]
fn written_encrypted_files_read_back_in_strata_and_arrow_rs() {
    for (what, encryption, prefix) in write_cases() {
        let (batch, with_crc) = written(Arc::clone(&encryption), true);
        let (_, file) = written(encryption, false);
        let case = write_case(what, prefix);
        let concat =
            |b: &[RecordBatch]| arrow_select::concat::concat_batches(&batch.schema(), b).unwrap();
        for file in [&file, &with_crc] {
            let got = strata_read(file, strata_properties(&case))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(concat(&got), batch, "{what}: strata");
        }
        assert_eq!(
            concat(&arrow_rs_read(&file, &case)),
            batch,
            "{what}: arrow-rs"
        );
        // The plaintext values of the encrypted columns appear nowhere in
        // the file.
        let needle = b"note 7cf";
        assert!(
            !file.windows(needle.len()).any(|w| w == needle),
            "{what}: a value of an encrypted column in plaintext"
        );
        // Without keys: an encrypted footer is refused; under a plaintext
        // footer the other columns read, the encrypted ones do not.
        let keyless = ParquetRecordBatchReaderBuilder::try_new(file.clone());
        if what == "plaintext footer" {
            let builder = keyless.unwrap();
            let schema = builder.parquet_schema();
            let mask = ProjectionMask::leaves(schema, [0, 1]);
            let open: Vec<RecordBatch> = builder
                .with_projection(mask)
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let rows: usize = open.iter().map(RecordBatch::num_rows).sum();
            assert_eq!(rows, batch.num_rows(), "{what}");
            assert!(
                ParquetRecordBatchReaderBuilder::try_new(file.clone())
                    .unwrap()
                    .build()
                    .unwrap()
                    .any(|b| b.is_err())
            );
        } else {
            assert!(keyless.is_err(), "{what}: read without keys");
        }
    }
}

/// What arrow-rs encrypts, strata decrypts to the same values.
#[test]
fn arrow_rs_encrypted_files_read_in_strata() {
    use parquet::encryption::encrypt::FileEncryptionProperties as PqEncryption;
    for plaintext_footer in [false, true] {
        let (batch, _) = table_and_props(
            strata::encryption::encrypt::FileEncryptionProperties::builder(FOOTER_128.to_vec())
                .build()
                .unwrap(),
            false,
        );
        let encryption = PqEncryption::builder(FOOTER_128.to_vec())
            .with_column_key("secret", DOUBLE_128.to_vec())
            .with_plaintext_footer(plaintext_footer)
            .build()
            .unwrap();
        let props = parquet::file::properties::WriterProperties::builder()
            .set_max_row_group_row_count(Some(700))
            .set_data_page_row_count_limit(100)
            .set_write_batch_size(100)
            .with_file_encryption_properties(encryption)
            .build();
        let mut out = Vec::new();
        let mut w =
            parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        let file = Bytes::from(out);
        let properties = FileDecryptionProperties::builder(FOOTER_128.to_vec())
            .with_column_key("secret", DOUBLE_128.to_vec())
            .build()
            .unwrap();
        let got = strata_read(&file, properties).unwrap();
        let got = arrow_select::concat::concat_batches(&batch.schema(), &got).unwrap();
        assert_eq!(got, batch, "plaintext footer: {plaintext_footer}");
    }
}

/// The table of [`table_and_props`] as lines `id|name|secret*4|note` (a
/// null name as `-`), the form the peers print it in.
fn table_lines(batch: &RecordBatch) -> Vec<String> {
    let ids = batch.column(0).as_primitive::<Int64Type>();
    let names = batch.column(1).as_string::<i32>();
    let secrets = batch.column(2).as_primitive::<Float64Type>();
    let notes = batch.column(3).as_string::<i32>();
    (0..batch.num_rows())
        .map(|i| {
            let name = if names.is_null(i) {
                "-"
            } else {
                names.value(i)
            };
            format!(
                "{}|{name}|{}|{}",
                ids.value(i),
                (secrets.value(i) * 4.0) as i64,
                notes.value(i)
            )
        })
        .collect()
}

/// A key-management client for pyarrow's `CryptoFactory` whose "wrapping"
/// is base64, and which prints every key it wraps: the test's own KMS, so
/// that keys pass between strata and pyarrow in pyarrow's key material.
const PY_KMS: &str = r#"
import base64, sys, pyarrow as pa, pyarrow.parquet as pq, pyarrow.parquet.encryption as pe
class IdentityKms(pe.KmsClient):
    def __init__(self, config):
        pe.KmsClient.__init__(self)
    def wrap_key(self, key_bytes, master_key_identifier):
        print("key %s %s" % (master_key_identifier, bytes(key_bytes).hex()))
        return base64.b64encode(key_bytes)
    def unwrap_key(self, wrapped_key, master_key_identifier):
        return base64.b64decode(wrapped_key)
factory = pe.CryptoFactory(lambda config: IdentityKms(config))
kms = pe.KmsConnectionConfig()
def lines(t):
    d = t.to_pydict()
    for i, n, s, note in zip(d["id"], d["name"], d["secret"], d["note"]):
        print("%d|%s|%d|%s" % (i, "-" if n is None else n, int(s * 4), note))
"#;

/// pyarrow's key material for `key` under master key `id`, in the form
/// its `CryptoFactory` reads (PKMT1, stored in the file, not double
/// wrapped), with the test's base64 "wrapping".
fn pyarrow_key_material(id: &str, key: &[u8], footer: bool) -> Vec<u8> {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut wrapped = String::new();
    for chunk in key.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                wrapped.push(B64[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                wrapped.push('=');
            }
        }
    }
    let kms = if footer {
        r#""kmsInstanceID":"DEFAULT","kmsInstanceURL":"DEFAULT","#
    } else {
        ""
    };
    format!(
        r#"{{"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":{footer},{kms}"masterKeyID":"{id}","wrappedDEK":"{wrapped}","doubleWrapping":false}}"#
    )
    .into_bytes()
}

/// pyarrow (`pyarrow.parquet.encryption`, through its `CryptoFactory`)
/// reads what strata encrypts, under an encrypted footer and a signed
/// plaintext one, and strata reads what pyarrow encrypts, value by value.
#[test]
fn pyarrow_reads_what_strata_encrypts_and_the_reverse() {
    use strata::encryption::encrypt::FileEncryptionProperties as P;
    let Some(py) = python::pyarrow() else { return };
    let dir = std::env::temp_dir().join(format!("strata-encryption-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for plaintext_footer in [false, true] {
        let encryption = P::builder(FOOTER_128.to_vec())
            .with_footer_key_metadata(pyarrow_key_material("kf", FOOTER_128, true))
            .with_column_key_and_metadata(
                "secret",
                DOUBLE_128.to_vec(),
                pyarrow_key_material("kc1", DOUBLE_128, false),
            )
            .with_plaintext_footer(plaintext_footer)
            .build()
            .unwrap();
        let (batch, file) = written(encryption, false);
        let path = dir.join(format!("strata-{plaintext_footer}.parquet"));
        std::fs::write(&path, &file).unwrap();
        let script = format!(
            "{PY_KMS}\ndec = factory.file_decryption_properties(kms, pe.DecryptionConfiguration())\n\
             lines(pq.read_table(sys.argv[1], decryption_properties=dec))\n"
        );
        let out = python::run_script(&py, &script, &[path.to_str().unwrap()]);
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got, table_lines(&batch), "pyarrow reading strata's file");
    }
    // pyarrow encrypts; the keys it wraps are printed, and strata reads
    // with them.
    let path = dir.join("pyarrow.parquet");
    let script = format!(
        "{PY_KMS}\n\
         n = 2000\n\
         t = pa.table({{'id': pa.array(range(n), pa.int64()),\n\
           'name': pa.array([None if i % 7 == 3 else 'name-%d' % (i % 50) for i in range(n)]),\n\
           'secret': pa.array([i * 0.25 for i in range(n)]),\n\
           'note': pa.array(['note %x' % i for i in range(n)])}})\n\
         enc = pe.EncryptionConfiguration(footer_key='kf', column_keys={{'kc1': ['secret'], 'kc2': ['note']}},\n\
           double_wrapping=False, plaintext_footer=False)\n\
         pq.write_table(t, sys.argv[1], encryption_properties=factory.file_encryption_properties(kms, enc),\n\
           row_group_size=700, data_page_size=2000)\n"
    );
    let out = python::run_script(&py, &script, &[path.to_str().unwrap()]);
    let mut keys = std::collections::HashMap::new();
    for line in out.lines() {
        let [_, id, hex] = line.split(' ').collect::<Vec<_>>()[..] else {
            continue;
        };
        let key: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        keys.insert(id.to_string(), key);
    }
    let file = Bytes::from(std::fs::read(&path).unwrap());
    let properties = FileDecryptionProperties::builder(keys["kf"].clone())
        .with_column_key("secret", keys["kc1"].clone())
        .with_column_key("note", keys["kc2"].clone())
        .build()
        .unwrap();
    let got = strata_read(&file, properties).unwrap();
    let got = arrow_select::concat::concat_batches(&got[0].schema(), &got).unwrap();
    let (want, _) = written(P::builder(FOOTER_128.to_vec()).build().unwrap(), false);
    assert_eq!(
        table_lines(&got),
        table_lines(&want),
        "strata reading pyarrow's file"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// DuckDB (`PRAGMA add_parquet_key`, `encryption_config`) reads what
/// strata encrypts with a footer key, and strata reads what DuckDB
/// encrypts, value by value. DuckDB writes with its bundled crypto
/// (`force_mbedtls_unsafe`: its secure one comes with the `httpfs`
/// extension, which needs a download); reading needs no extension.
///
/// DuckDB 2.0.1 fails to authenticate encrypted chunks of more than one
/// data page, and files with encrypted Bloom filters, whoever wrote them
/// (arrow-rs's files too; parquet-cpp and arrow-rs read strata's), so the
/// file it reads here has one page per chunk and no Bloom filter.
#[test]
fn duckdb_reads_what_strata_encrypts_and_the_reverse() {
    use strata::encryption::encrypt::FileEncryptionProperties as P;
    let Some(py) = python::with_duckdb() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("strata-encryption-duckdb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    const DUCK: &str = r#"
import sys, duckdb
con = duckdb.connect()
con.execute("SET force_mbedtls_unsafe = 'true'")
con.execute("PRAGMA add_parquet_key('k', '0123456789012345')")
if sys.argv[1] == "read":
    rows = con.execute("SELECT id, coalesce(name, '-'), CAST(secret * 4 AS BIGINT), note FROM read_parquet(?, encryption_config = {footer_key: 'k'}) ORDER BY id", [sys.argv[2]]).fetchall()
    for r in rows:
        print("%d|%s|%d|%s" % r)
else:
    con.execute("CREATE TABLE t AS SELECT i::BIGINT AS id, CASE WHEN i % 7 = 3 THEN NULL ELSE 'name-' || (i % 50) END AS name, i * 0.25 AS secret, 'note ' || lower(printf('%x', i)) AS note FROM range(2000) r(i)")
    con.execute("COPY t TO '" + sys.argv[2] + "' (ENCRYPTION_CONFIG {footer_key: 'k'})")
"#;
    let (batch, props) = table_and_props(P::builder(FOOTER_128.to_vec()).build().unwrap(), false);
    let props = props
        .into_builder()
        .set_data_page_row_count_limit(usize::MAX)
        .set_column_bloom_filter_enabled("id".into(), false)
        .build();
    let mut file = Vec::new();
    let mut w =
        strata::arrow::ArrowWriter::try_new(&mut file, batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let path = dir.join("strata.parquet");
    std::fs::write(&path, &file).unwrap();
    let out = python::run_script(&py, DUCK, &["read", path.to_str().unwrap()]);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        table_lines(&batch),
        "DuckDB reading strata's file"
    );

    let path = dir.join("duckdb.parquet");
    python::run_script(&py, DUCK, &["write", path.to_str().unwrap()]);
    let file = Bytes::from(std::fs::read(&path).unwrap());
    let properties = FileDecryptionProperties::builder(FOOTER_128.to_vec())
        .build()
        .unwrap();
    let got = strata_read(&file, properties).unwrap();
    let got = arrow_select::concat::concat_batches(&got[0].schema(), &got).unwrap();
    let got = arrow_cast::cast(got.column(2), &arrow_schema::DataType::Float64)
        .map(|secret| {
            let mut columns = got.columns().to_vec();
            columns[2] = secret;
            RecordBatch::try_new(batch.schema(), columns).unwrap()
        })
        .unwrap();
    assert_eq!(
        table_lines(&got),
        table_lines(&batch),
        "strata reading DuckDB's file"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Page indexes of encrypted columns are decrypted: loading them (the
/// builder's page index, and a row group reader's offset index) works on
/// the corpus's files and on strata's, and a selection read through them
/// gives the same rows.
#[test]
fn encrypted_page_indexes_load_and_select() {
    use strata::arrow::arrow_reader::{RowSelection, RowSelector};
    let Some(dir) = data_dir() else { return };
    let mut files: Vec<(Bytes, Arc<FileDecryptionProperties>)> = cases()
        .iter()
        .map(|case| {
            (
                Bytes::from(std::fs::read(dir.join(case.file)).unwrap()),
                strata_properties(case),
            )
        })
        .collect();
    for (what, encryption, prefix) in write_cases() {
        files.push((
            written(encryption, true).1,
            write_case_properties(what, prefix),
        ));
    }
    let mut with_index = 0;
    for (file, properties) in files {
        let options = ArrowReaderOptions::new()
            .with_page_index(true)
            .with_file_decryption_properties(Arc::clone(&properties));
        let builder =
            ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
        let metadata = builder.metadata();
        let group = metadata.page_index_for_row_group(0);
        with_index += (0..metadata.file_metadata().schema_descr().num_columns())
            .filter(|&j| group.page_locations(j).is_some_and(|l| !l.is_empty()))
            .count();
        let rows = builder.metadata().file_metadata().num_rows() as usize;
        let selection = RowSelection::from(vec![
            RowSelector::skip(rows / 3),
            RowSelector::select(rows / 3),
        ]);
        let got: Vec<RecordBatch> = builder
            .with_row_selection(selection)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let all = strata_read(&file, properties).unwrap();
        let all = arrow_select::concat::concat_batches(&all[0].schema(), &all).unwrap();
        let got = arrow_select::concat::concat_batches(&all.schema(), &got).unwrap();
        assert_eq!(got, all.slice(rows / 3, rows / 3));
    }
    eprintln!("{with_index} chunks of first row groups with offset indexes");
    assert!(with_index >= 60, "{with_index} chunks with offset indexes");
}

/// The value of string field `key` in the JSON object `json` (quotes inside
/// a value escaped as `\"`, as in the key-material file).
fn json_field(json: &str, key: &str) -> Option<String> {
    let unescaped = json.replace("\\\"", "\"");
    let start = unescaped.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let len = unescaped.get(start..)?.find('"')?;
    Some(unescaped[start..start + len].to_string())
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// parquet-java's key material kept outside the file
/// (`_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json`),
/// unwrapped as its `PropertiesDrivenCryptoFactory` does with double
/// wrapping: the key-encryption key is AES-GCM-decrypted with the master
/// key (AAD: the master key's id), the data key with that (AAD: the
/// key-encryption key's id). The master keys are the README's.
struct ExternalKeyMaterial {
    material: String,
}

impl KeyRetriever for ExternalKeyMaterial {
    fn retrieve_key(&self, key_metadata: &[u8]) -> strata::errors::Result<Vec<u8>> {
        use ring::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
        let fail = |what: &str| strata::errors::ParquetError::General(what.to_string());
        let metadata = std::str::from_utf8(key_metadata).map_err(|_| fail("key metadata"))?;
        let reference = json_field(metadata, "keyReference").ok_or_else(|| fail("no reference"))?;
        // The material of `reference`: the JSON string after its name.
        let at = self
            .material
            .find(&format!("\"{reference}\":\""))
            .ok_or_else(|| fail("no material"))?;
        let material = &self.material[at..];
        let material = &material[..material.find("}\"").ok_or_else(|| fail("material"))? + 1];
        let field = |key: &str| json_field(material, key).ok_or_else(|| fail(key));
        let master_id = field("masterKeyID")?;
        let master: &[u8] = match master_id.as_str() {
            "kf" => FOOTER_128,
            "kc1" => DOUBLE_128,
            "kc2" => FLOAT_128,
            _ => return Err(fail("unknown master key")),
        };
        let open = |key: &[u8], wrapped: &[u8], aad: &[u8]| -> strata::errors::Result<Vec<u8>> {
            let key =
                LessSafeKey::new(UnboundKey::new(&AES_128_GCM, key).map_err(|_| fail("key"))?);
            let (nonce, sealed) = wrapped.split_at(12);
            let mut buf = sealed.to_vec();
            let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| fail("nonce"))?;
            let plain = key
                .open_in_place(nonce, Aad::from(aad), &mut buf)
                .map_err(|_| fail("unwrap"))?;
            Ok(plain.to_vec())
        };
        let kek = open(
            master,
            &base64_decode(&field("wrappedKEK")?),
            master_id.as_bytes(),
        )?;
        let kek_id = base64_decode(&field("keyEncryptionKeyID")?);
        open(&kek, &base64_decode(&field("wrappedDEK")?), &kek_id)
    }
}

/// The corpus file whose keys are kept outside it, read through a
/// `KeyRetriever` that unwraps them: 100 rows of `integers` and `strings`
/// (the pattern parquet-java's example writes), every module
/// authenticated (the column keys differ from the footer's).
#[test]
fn external_key_material_is_read_through_a_key_retriever() {
    let Some(dir) = data_dir() else { return };
    let material = std::fs::read_to_string(
        dir.join("_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"),
    )
    .unwrap();
    let file = Bytes::from(
        std::fs::read(dir.join("external_key_material_java.parquet.encrypted")).unwrap(),
    );
    let properties =
        FileDecryptionProperties::with_key_retriever(Arc::new(ExternalKeyMaterial { material }))
            .build()
            .unwrap();
    let batches = strata_read(&file, properties).unwrap();
    let batch = arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
    assert_eq!(batch.num_rows(), 100);
    let names: Vec<&str> = batch
        .schema_ref()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, ["integers", "strings"]);
    // The generator's values: `i`, and a letter (a to j in turn) then `i`.
    let integers = batch.column(0).as_primitive::<Int32Type>();
    let strings = batch.column(1).as_string::<i32>();
    for i in 0..100 {
        assert_eq!(integers.value(i), i as i32, "row {i}");
        let want = format!("{}{i}", (b'a' + (i % 10) as u8) as char);
        assert_eq!(strings.value(i), want, "row {i}");
    }
    // A wrong master key gives an error, not other values.
    let wrong = FileDecryptionProperties::with_key_retriever(Arc::new(ExternalKeyMaterial {
        material: String::new(),
    }))
    .build()
    .unwrap();
    assert!(strata_read(&file, wrong).is_err());
}

/// How a file of [`write_cases`] named `what` is read.
fn write_case(what: &str, prefix: Option<&'static [u8]>) -> Case {
    let uniform = what.contains("uniform") || what.contains("256");
    Case {
        file: "",
        footer: if what.contains("256") {
            FOOTER_256
        } else {
            FOOTER_128
        },
        columns: if uniform {
            vec![]
        } else {
            vec![
                ("secret", DOUBLE_128.to_vec()),
                ("note", FLOAT_128.to_vec()),
            ]
        },
        aad_prefix: prefix,
        arrow_rs_reads: true,
    }
}

/// The decryption properties of a file of [`write_cases`] named `what`.
fn write_case_properties(
    what: &str,
    prefix: Option<&'static [u8]>,
) -> Arc<FileDecryptionProperties> {
    strata_properties(&write_case(what, prefix))
}

/// Bloom filters of encrypted columns are decrypted: the filter on `id` of
/// each of strata's files answers yes for every value of its row group,
/// and rarely for others, through the Arrow builder and the row group
/// reader alike.
#[test]
fn encrypted_bloom_filters_are_read() {
    for (what, encryption, prefix) in write_cases() {
        let properties = write_case_properties(what, prefix);
        let (_, file) = written(encryption, false);
        let options = ArrowReaderOptions::new().with_file_decryption_properties(properties);
        let builder =
            ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
        let reader = strata::file::reader::SerializedFileReader::with_metadata(
            file.clone(),
            (**builder.metadata()).clone(),
            Default::default(),
        );
        for rg in 0..builder.metadata().num_row_groups() {
            let filter = builder
                .get_row_group_column_bloom_filter(rg, 0)
                .unwrap()
                .unwrap_or_else(|| panic!("{what}: no filter in row group {rg}"));
            let direct = reader.bloom_filter(rg, 0).unwrap().unwrap();
            let ids = (rg * 700) as i64..((rg + 1) * 700).min(2000) as i64;
            for id in ids {
                assert!(filter.check(&id) && direct.check(&id), "{what}: {id}");
            }
            let false_positives = (1_000_000i64..1_010_000)
                .filter(|id| filter.check(id))
                .count();
            assert!(
                false_positives < 500,
                "{what}: {false_positives} false positives"
            );
        }
    }
}

/// AES_GCM_CTR_V1 written (page bodies in AES-CTR, 16 bytes of framing
/// each where AES-GCM takes 32): strata reads it back, and so does pyarrow
/// (Arrow C++ reads both algorithms), value by value.
#[test]
fn ctr_written_files_read_back_in_strata_and_pyarrow() {
    use strata::encryption::encrypt::FileEncryptionProperties as P;
    let dir = std::env::temp_dir().join(format!("strata-encryption-ctr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for plaintext_footer in [false, true] {
        let properties = |ctr: bool| {
            P::builder(FOOTER_128.to_vec())
                .with_footer_key_metadata(pyarrow_key_material("kf", FOOTER_128, true))
                .with_column_key_and_metadata(
                    "secret",
                    DOUBLE_128.to_vec(),
                    pyarrow_key_material("kc1", DOUBLE_128, false),
                )
                .with_plaintext_footer(plaintext_footer)
                .with_aes_gcm_ctr(ctr)
                .build()
                .unwrap()
        };
        let (batch, file) = written(properties(true), true);
        let (_, gcm) = written(properties(false), true);
        assert!(file.len() < gcm.len(), "CTR pages take less framing");
        let keys = FileDecryptionProperties::builder(FOOTER_128.to_vec())
            .with_column_key("secret", DOUBLE_128.to_vec())
            .build()
            .unwrap();
        let got = strata_read(&file, keys).unwrap();
        let got = arrow_select::concat::concat_batches(&batch.schema(), &got).unwrap();
        assert_eq!(got, batch, "plaintext footer: {plaintext_footer}");
        if let Some(py) = python::pyarrow() {
            let path = dir.join(format!("ctr-{plaintext_footer}.parquet"));
            std::fs::write(&path, &file).unwrap();
            let script = format!(
                "{PY_KMS}\ndec = factory.file_decryption_properties(kms, pe.DecryptionConfiguration())\n\
                 lines(pq.read_table(sys.argv[1], decryption_properties=dec))\n"
            );
            let out = python::run_script(&py, &script, &[path.to_str().unwrap()]);
            assert_eq!(
                out.lines().collect::<Vec<_>>(),
                table_lines(&batch),
                "pyarrow"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A page module moved to another place gives an error: each page of two
/// chunks of equal page sizes (the same column in two row groups, and two
/// columns of one row group) swapped with its counterpart, in strata's
/// uniformly encrypted file, fails to authenticate (its AAD names its own
/// row group, column and page), whatever the reader reads.
#[test]
fn pages_moved_between_row_groups_or_columns_are_errors() {
    use strata::encryption::encrypt::FileEncryptionProperties as P;
    let (_, file) = written(P::builder(FOOTER_128.to_vec()).build().unwrap(), false);
    let properties = write_case_properties("uniform", None);
    let options = ArrowReaderOptions::new()
        .with_page_index(true)
        .with_file_decryption_properties(Arc::clone(&properties));
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
    let metadata = Arc::clone(builder.metadata());
    let columns = metadata.file_metadata().schema_descr().num_columns();
    let pages = |g: usize, j: usize| -> Vec<(usize, usize)> {
        metadata
            .page_index_for_row_group(g)
            .page_locations(j)
            .unwrap()
            .iter()
            .map(|p| (p.offset as usize, p.compressed_page_size as usize))
            .collect()
    };
    // Pairs of pages of equal size: (row group, column) against another.
    let mut pairs = Vec::new();
    for (a, b) in [((0, 0), (1, 0)), ((0, 2), (1, 2)), ((0, 0), (0, 2))] {
        if a.1 >= columns || b.1 >= columns {
            continue;
        }
        for (x, y) in pages(a.0, a.1).into_iter().zip(pages(b.0, b.1)) {
            if x.1 == y.1 {
                pairs.push((x, y));
            }
        }
    }
    assert!(
        pairs.len() >= 3,
        "only {} pairs of pages of equal size",
        pairs.len()
    );
    for ((x, len), (y, _)) in pairs {
        let mut swapped = file.to_vec();
        let (first, second) = (file[x..x + len].to_vec(), file[y..y + len].to_vec());
        swapped[x..x + len].copy_from_slice(&second);
        swapped[y..y + len].copy_from_slice(&first);
        let e = strata_read(&Bytes::from(swapped), Arc::clone(&properties))
            .expect_err("a swapped page read");
        assert!(e.to_string().contains("did not authenticate"), "{e}");
    }
}
