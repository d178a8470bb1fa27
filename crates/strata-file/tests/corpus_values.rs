//! Values, page indexes, checksums and Bloom filters of corpus files,
//! checked against what the corpus documents (its README, `*.md` notes and
//! `*_expect.csv` files).
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`;
//! when it is absent these tests print "skipped" and pass.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;

use std::path::PathBuf;

use bytes::Bytes;
use corpus_support::{Values, corpus_root, read_column};
use strata_file::FileError;
use strata_file::bloom::Sbbf;
use strata_file::page::Page;
use strata_file::properties::ReaderProperties;
use strata_file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
use strata_format::FormatError;
use strata_format::metadata::{BoundaryOrder, Encoding};

/// Open `file` with reader properties `props`.
fn open_with<R: strata_file::chunk_reader::ChunkReader>(
    file: R,
    props: ReaderProperties,
) -> Result<SerializedFileReader<R>, strata_file::FileError> {
    let options = ReadOptionsBuilder::new()
        .with_reader_properties(props)
        .build();
    SerializedFileReader::new_with_options(file, options)
}

fn data_file(test: &str, name: &str) -> Option<PathBuf> {
    corpus_root(test).map(|root| root.join("data").join(name))
}

fn open(path: &PathBuf) -> SerializedFileReader<std::fs::File> {
    SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap()
}

/// Render decoded values as CSV cells, with nulls (def level below the
/// maximum) as empty cells.
fn cells(values: &Values, def_levels: &[i16], max_def: i16, rows: usize) -> Vec<String> {
    let rendered: Vec<String> = match values {
        Values::I32(v) => v.iter().map(ToString::to_string).collect(),
        Values::I64(v) => v.iter().map(ToString::to_string).collect(),
        Values::Bytes(v) => v
            .iter()
            .map(|b| String::from_utf8(b.clone()).unwrap())
            .collect(),
        other => panic!("unexpected values {other:?}"),
    };
    if max_def == 0 {
        return rendered;
    }
    let mut present = rendered.into_iter();
    let out: Vec<String> = def_levels
        .iter()
        .map(|d| {
            if *d == max_def {
                present.next().unwrap()
            } else {
                String::new()
            }
        })
        .collect();
    assert_eq!(out.len(), rows);
    out
}

/// The cells of one CSV line: comma-separated, optionally double-quoted
/// (quoted cells may hold commas).
fn split_csv_line(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

/// Compare every column of `name` with `expect_csv`, cell by cell.
fn check_against_csv(test: &str, name: &str, expect_csv: &str) {
    let Some(path) = data_file(test, name) else {
        return;
    };
    let csv = std::fs::read_to_string(path.with_file_name(expect_csv)).unwrap();
    let mut lines = csv.lines();
    let header: Vec<String> = split_csv_line(lines.next().unwrap())
        .into_iter()
        .map(|h| h.trim().to_string())
        .collect();
    let rows: Vec<Vec<String>> = lines.map(split_csv_line).collect();
    let reader = open(&path);
    assert_eq!(reader.num_row_groups(), 1);
    let row_group = reader.row_group(0).unwrap();
    assert_eq!(row_group.num_columns(), header.len());
    let mut checked = 0;
    for j in 0..row_group.num_columns() {
        let descr = row_group.column_descriptor(j).unwrap();
        // One writer stored the names with a trailing ':'.
        assert_eq!(descr.path.string().trim_end_matches(':'), header[j]);
        let summary = read_column(&row_group, j, true).unwrap();
        let got = cells(
            &summary.values,
            &summary.def_levels,
            descr.max_def_level,
            rows.len(),
        );
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(got[i], row[j], "{name} column {} row {i}", header[j]);
            checked += 1;
        }
    }
    println!("{name}: {checked} cells match {expect_csv}");
}

#[test]
fn delta_binary_packed_matches_expected_csv() {
    check_against_csv(
        "delta_binary_packed",
        "delta_binary_packed.parquet",
        "delta_binary_packed_expect.csv",
    );
}

#[test]
fn delta_byte_array_matches_expected_csv() {
    check_against_csv(
        "delta_byte_array",
        "delta_byte_array.parquet",
        "delta_byte_array_expect.csv",
    );
}

#[test]
fn delta_optional_columns_match_expected_csv() {
    check_against_csv(
        "delta_optional",
        "delta_encoding_optional_column.parquet",
        "delta_encoding_optional_column_expect.csv",
    );
}

#[test]
fn delta_required_columns_match_expected_csv() {
    check_against_csv(
        "delta_required",
        "delta_encoding_required_column.parquet",
        "delta_encoding_required_column_expect.csv",
    );
}

/// `int32_with_null_pages.md` lists the column index and offset index.
#[test]
fn int32_with_null_pages_page_index() {
    let Some(path) = data_file("int32_with_null_pages", "int32_with_null_pages.parquet") else {
        return;
    };
    let reader = open(&path);
    let column_index = reader.column_index(0, 0).unwrap().unwrap();
    assert_eq!(column_index.boundary_order, BoundaryOrder::Unordered);
    assert_eq!(
        column_index.null_counts.as_deref().unwrap(),
        &[8, 55, 100, 52, 16, 12, 5, 7, 8, 12]
    );
    let null_pages: Vec<bool> = (0..10).map(|i| i == 2).collect();
    assert_eq!(column_index.null_pages, null_pages);
    assert_eq!(column_index.min_values[0], (-2135807632i32).to_le_bytes());
    assert_eq!(column_index.max_values[0], 2144701119i32.to_le_bytes());
    assert_eq!(column_index.min_values[6], (-2136906554i32).to_le_bytes());

    let offset_index = reader.offset_index(0, 0).unwrap().unwrap();
    let locations: Vec<(i64, i32, i64)> = offset_index
        .page_locations
        .iter()
        .map(|l| (l.offset, l.compressed_page_size, l.first_row_index))
        .collect();
    assert_eq!(
        locations,
        [
            (4, 415, 0),
            (419, 220, 100),
            (639, 31, 200),
            (670, 228, 300),
            (898, 382, 400),
            (1280, 402, 500),
            (1682, 422, 600),
            (2104, 411, 700),
            (2515, 417, 800),
            (2932, 400, 900),
        ]
    );

    // Each page's nulls, from its definition levels, agree with the index;
    // 1000 values with 275 nulls in all (the metadata in the note).
    let row_group = reader.row_group(0).unwrap();
    let summary = read_column(&row_group, 0, true).unwrap();
    assert_eq!(summary.num_values, 1000);
    assert_eq!(summary.num_present, 1000 - 275);
    assert_eq!(summary.data_pages, 10);
    for (page, nulls) in [8, 55, 100, 52, 16, 12, 5, 7, 8, 12].iter().enumerate() {
        let levels = &summary.def_levels[page * 100..(page + 1) * 100];
        assert_eq!(
            levels.iter().filter(|d| **d == 0).count(),
            *nulls,
            "page {page}"
        );
    }

    // Seek with the offset index: row 250 is on the all-null page 2.
    let mut pages = row_group.indexed_page_reader(0).unwrap();
    assert_eq!(pages.num_indexed_pages(), Some(10));
    assert_eq!(pages.seek_to_row(250).unwrap(), 200);
    let page = pages.next().unwrap().unwrap();
    assert_eq!(page.num_values(), 100);
    // Page 2 is all null: 100 def levels of 0 in a single RLE run.
    let Page::DataPage { buf, .. } = &page else {
        panic!("v1 pages expected");
    };
    let mut levels = strata_encoding::LevelDecoder::new(1).unwrap();
    levels.set_rle_v1(buf, 100).unwrap();
    let mut out = [1i16; 100];
    assert_eq!(levels.decode(&mut out).unwrap(), 100);
    assert!(out.iter().all(|d| *d == 0));
    // Skip page 3 without decompressing it (it ends where page 4 starts),
    // then read the remaining pages 4..=9.
    let skipped = pages.skip_next_page().unwrap().unwrap();
    assert_eq!(skipped.body_offset + skipped.body_len, 898 - 4);
    assert_eq!(pages.count(), 6);
}

/// README "Checksum Files": which pages carry a good or bad CRC.
#[test]
fn checksums_verify_and_corrupt_pages_fail_only_when_verified() {
    let Some(root) = corpus_root("checksums") else {
        return;
    };
    let verify = ReaderProperties::builder()
        .set_page_crc_verification(true)
        .build();
    let good = [
        "datapage_v1-uncompressed-checksum.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
        "rle-dict-snappy-checksum.parquet",
        "plain-dict-uncompressed-checksum.parquet",
    ];
    for name in good {
        let file = std::fs::File::open(root.join("data").join(name)).unwrap();
        let reader = open_with(file, verify).unwrap();
        let row_group = reader.row_group(0).unwrap();
        for j in 0..row_group.num_columns() {
            let mut pages = row_group.page_reader(j).unwrap();
            let mut with_crc = 0;
            while let Some(info) = pages.peek_header().unwrap() {
                with_crc += usize::from(info.header.crc.is_some());
                pages.next().unwrap().unwrap();
            }
            // parquet-mr wrote no CRC on the v2 data pages of the
            // rle-dict file; every other page has one.
            assert!(with_crc >= 1, "{name} column {j}: pages carry CRCs");
            read_column(&row_group, j, false).unwrap();
        }
    }

    // Column "a": page 0 bad, page 1 good; column "b": page 0 good, page 1 bad.
    let path = root.join("data/datapage_v1-corrupt-checksum.parquet");
    let reader = open_with(std::fs::File::open(&path).unwrap(), verify).unwrap();
    let row_group = reader.row_group(0).unwrap();
    let mut a = row_group.page_reader(0).unwrap();
    assert!(matches!(a.next(), Some(Err(FileError::CrcMismatch { .. }))));
    let mut b = row_group.page_reader(1).unwrap();
    assert!(b.next().unwrap().is_ok());
    assert!(matches!(b.next(), Some(Err(FileError::CrcMismatch { .. }))));
    // The same file reads in full without verification.
    let lenient = open(&path);
    let row_group = lenient.row_group(0).unwrap();
    for j in 0..2 {
        let summary = read_column(&row_group, j, false).unwrap();
        assert_eq!(summary.data_pages, 2);
    }

    // Dictionary pages with a bad CRC.
    let path = root.join("data/rle-dict-uncompressed-corrupt-checksum.parquet");
    let reader = open_with(std::fs::File::open(&path).unwrap(), verify).unwrap();
    let row_group = reader.row_group(0).unwrap();
    for j in 0..2 {
        let mut pages = row_group.page_reader(j).unwrap();
        assert!(matches!(
            pages.next(),
            Some(Err(FileError::CrcMismatch { .. }))
        ));
    }
    let lenient = open(&path);
    let row_group = lenient.row_group(0).unwrap();
    for j in 0..2 {
        assert!(read_column(&row_group, j, false).unwrap().has_dictionary);
    }
}

/// README "Bloom Filter Files": "hello", "parquet", "bloom", "filter".
#[test]
fn bloom_filter_xxhash_bin_holds_the_documented_strings() {
    let Some(path) = data_file("bloom_filter_bin", "bloom_filter.xxhash.bin") else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let filter = Sbbf::read(&bytes).unwrap();
    for word in ["hello", "parquet", "bloom", "filter"] {
        assert!(filter.check(word), "{word}");
    }
    let absent = ["world", "arrow", "strata", "HELLO", "parquet "];
    let false_positives = absent.iter().filter(|w| filter.check(**w)).count();
    assert!(
        false_positives <= 1,
        "{false_positives} of {} absent words match",
        absent.len()
    );
}

/// README: an optional STRING column with Bloom filters, column and offset
/// indexes (with and without `bloom_filter_length`).
#[test]
fn bloom_filters_in_files_hold_every_value() {
    for name in [
        "data_index_bloom_encoding_stats.parquet",
        "data_index_bloom_encoding_with_length.parquet",
    ] {
        let Some(path) = data_file("bloom_in_files", name) else {
            return;
        };
        let reader = open(&path);
        let filter = reader.bloom_filter(0, 0).unwrap().expect("a Bloom filter");
        assert!(reader.column_index(0, 0).unwrap().is_some());
        assert!(reader.offset_index(0, 0).unwrap().is_some());
        let row_group = reader.row_group(0).unwrap();
        let summary = read_column(&row_group, 0, true).unwrap();
        let Values::Bytes(values) = summary.values else {
            panic!("strings expected");
        };
        assert!(!values.is_empty());
        for value in &values {
            assert!(
                filter.check(value.as_slice()),
                "{name}: {:?}",
                String::from_utf8_lossy(value)
            );
        }
        let absent: Vec<String> = (0..200).map(|i| format!("absent value {i}")).collect();
        let hits = absent.iter().filter(|v| filter.check(v.as_str())).count();
        assert!(hits < 20, "{name}: {hits} of 200 absent values match");
        // Without bloom_filter_length the header is read first.
        let length = row_group.column_metadata(0).unwrap().bloom_filter_length();
        println!(
            "{name}: {} values, bloom_filter_length {length:?}",
            values.len()
        );
    }
}

#[test]
fn encrypted_files_give_clear_errors() {
    let Some(root) = corpus_root("encrypted") else {
        return;
    };
    let footer_encrypted =
        std::fs::File::open(root.join("data/uniform_encryption.parquet.encrypted")).unwrap();
    assert!(matches!(
        SerializedFileReader::new(footer_encrypted),
        Err(FileError::Format(FormatError::Encrypted))
    ));
    let plaintext_footer =
        std::fs::File::open(root.join("data/encrypt_columns_plaintext_footer.parquet.encrypted"))
            .unwrap();
    let reader = SerializedFileReader::new(plaintext_footer).unwrap();
    let row_group = reader.row_group(0).unwrap();
    let errors: Vec<_> = (0..row_group.num_columns())
        .filter_map(|j| row_group.page_reader(j).err())
        .collect();
    assert!(!errors.is_empty());
    for e in errors {
        assert!(matches!(e, FileError::EncryptedColumn(_)), "{e}");
        assert!(e.to_string().contains("encrypted"));
    }
}

/// Files whose chunk offsets need care: a dictionary offset of 0, and
/// chunks without data pages whose data page offset is 0.
#[test]
fn chunk_ranges_of_unusual_offsets() {
    let Some(path) = data_file("chunk_ranges", "dict-page-offset-zero.parquet") else {
        return;
    };
    let reader = open(&path);
    let row_group = reader.row_group(0).unwrap();
    let meta = row_group.column_metadata(0).unwrap();
    assert_eq!(meta.dictionary_page_offset, Some(0));
    let (start, len) = row_group.column_chunk_range(0).unwrap();
    assert_eq!(start as i64, meta.data_page_offset);
    assert_eq!(len as i64, meta.total_compressed_size);
    let summary = read_column(&row_group, 0, false).unwrap();
    assert!(!summary.has_dictionary);
    assert_eq!(summary.num_values as i64, meta.num_values);

    let path = path.with_file_name("column_chunk_key_value_metadata.parquet");
    let reader = open(&path);
    let row_group = reader.row_group(0).unwrap();
    let meta = row_group.column_metadata(0).unwrap();
    assert_eq!(meta.data_page_offset, 0);
    let (start, _) = row_group.column_chunk_range(0).unwrap();
    assert_eq!(Some(start as i64), meta.dictionary_page_offset);
    assert_eq!(read_column(&row_group, 0, false).unwrap().num_values, 0);
}

/// README: a v2 page of one null FLOAT whose empty values section is
/// "compressed" to nothing; and v2 pages in general.
#[test]
fn v2_pages_with_empty_values() {
    let Some(path) = data_file("v2_empty", "datapage_v2_empty_datapage.snappy.parquet") else {
        return;
    };
    let reader = open(&path);
    let row_group = reader.row_group(0).unwrap();
    let summary = read_column(&row_group, 0, true).unwrap();
    assert_eq!((summary.num_values, summary.num_present), (1, 0));
    assert_eq!(summary.def_levels, [0]);
    let pages: Vec<Page> = row_group
        .page_reader(0)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(matches!(
        pages.last(),
        Some(Page::DataPageV2 { num_nulls: 1, .. })
    ));
}

/// README: optional boolean columns with RLE encoding.
#[test]
fn rle_boolean_pages() {
    let Some(path) = data_file("rle_boolean", "rle_boolean_encoding.parquet") else {
        return;
    };
    let reader = open(&path);
    let row_group = reader.row_group(0).unwrap();
    let encodings: Vec<Encoding> = row_group
        .page_reader(0)
        .unwrap()
        .map(|p| p.unwrap().encoding())
        .collect();
    assert!(encodings.contains(&Encoding::Rle));
    let summary = read_column(&row_group, 0, true).unwrap();
    let Values::Bool(values) = &summary.values else {
        panic!("booleans expected");
    };
    assert_eq!(values.len() as u64, summary.num_present);
    assert!(
        summary.num_present < summary.num_values,
        "the column has nulls"
    );
    assert!(values.contains(&true) && values.contains(&false));
}

/// The same file through `File` and through `Bytes` gives the same pages.
#[test]
fn file_and_bytes_readers_agree() {
    let Some(path) = data_file("file_vs_bytes", "alltypes_tiny_pages.parquet") else {
        return;
    };
    let from_file = open(&path);
    let from_bytes = SerializedFileReader::new(Bytes::from(std::fs::read(&path).unwrap())).unwrap();
    assert_eq!(from_file.footer(), from_bytes.footer());
    let (a, b) = (
        from_file.row_group(0).unwrap(),
        from_bytes.row_group(0).unwrap(),
    );
    let mut pages = 0;
    for j in 0..a.num_columns() {
        let pa: Vec<Page> = a.page_reader(j).unwrap().map(Result::unwrap).collect();
        let pb: Vec<Page> = b.page_reader(j).unwrap().map(Result::unwrap).collect();
        assert_eq!(pa, pb);
        pages += pa.len();
    }
    assert!(pages > 100, "tiny pages: {pages}");
}
