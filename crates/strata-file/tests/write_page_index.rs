//! Page indexes and Bloom filters written by strata, read back by arrow-rs:
//! column index entries must match the pages' contents, offset index
//! entries must point at page headers, pages must start on records.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod write_support;

use std::sync::Arc;

use bytes::Bytes;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::properties::ReaderProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::serialized_reader::ReadOptionsBuilder;
use strata_encoding::ByteArrayBatch;
use strata_file::properties::{Encoding, WriterProperties, WriterVersion};
use strata_file::writer::FileWriter;
use strata_format::metadata::{BoundaryOrder, FieldRepetitionType as Rep, PageHeader, Type};
use strata_format::thrift::decode_prefix;
use write_support::*;

fn reader_with_index(file: &[u8]) -> SerializedFileReader<Bytes> {
    let opts = ReadOptionsBuilder::new()
        .with_page_index()
        .with_reader_properties(
            ReaderProperties::builder()
                .set_read_bloom_filter(true)
                .build(),
        )
        .build();
    SerializedFileReader::new_with_options(Bytes::copy_from_slice(file), opts).unwrap()
}

/// Check every offset index entry points at a page header whose stored
/// size fills the entry.
fn check_locations(file: &[u8], locs: &[parquet::file::page_index::offset_index::PageLocation]) {
    for l in locs {
        let at = &file[l.offset as usize..];
        let (h, used) = decode_prefix::<PageHeader>(at).unwrap();
        assert_eq!(
            used + h.compressed_page_size as usize,
            l.compressed_page_size as usize
        );
    }
}

#[test]
fn optional_int64_column_index_matches_pages() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let rows = 5000usize;
        // Ascending values with every 7th row null.
        let def: Vec<i16> = (0..rows).map(|i| i16::from(i % 7 != 0)).collect();
        let values: Vec<i64> = (0..rows as i64)
            .filter(|i| i % 7 != 0)
            .map(|i| i * 3)
            .collect();
        let props = WriterProperties::builder()
            .set_writer_version(version)
            .set_dictionary_enabled(false)
            .set_data_page_row_count_limit(400)
            .set_write_batch_size(100)
            .build();
        let schema = schema_from(&[root(1), leaf("x", Type::Int64, Rep::Optional)]);
        let mut out = Vec::new();
        let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
        let mut rg = fw.next_row_group().unwrap();
        let mut cw = rg.next_column().unwrap().unwrap();
        cw.typed::<i64>()
            .unwrap()
            .write_batch(&values, Some(&def), None)
            .unwrap();
        let chunk = cw.close().unwrap();
        let ci = chunk.column_index().unwrap().clone();
        assert_eq!(ci.boundary_order, BoundaryOrder::Ascending);
        rg.append_column(chunk).unwrap();
        rg.close().unwrap();
        fw.close().unwrap();

        let reader = reader_with_index(&out);
        let pi = reader.metadata().page_index_for_row_group(0);
        let oi = pi.offset_index(0).unwrap();
        let locs = oi.page_locations();
        assert!(locs.len() >= 12, "{} pages", locs.len());
        check_locations(&out, locs);
        let Some(ColumnIndexMetaData::INT64(idx)) = pi.column_index(0) else {
            panic!("no INT64 column index")
        };
        assert!(pi.column_index(0).unwrap().is_sorted());
        for (p, l) in locs.iter().enumerate() {
            let first = l.first_row_index as usize;
            let end = locs.get(p + 1).map_or(rows, |n| n.first_row_index as usize);
            let present: Vec<i64> = (first..end)
                .filter(|i| i % 7 != 0)
                .map(|i| i as i64 * 3)
                .collect();
            assert_eq!(idx.min_value(p), present.iter().min());
            assert_eq!(idx.max_value(p), present.iter().max());
            assert_eq!(
                idx.null_count(p),
                Some(((first..end).filter(|i| i % 7 == 0).count()) as i64)
            );
            assert_eq!(
                idx.definition_level_histogram(p),
                Some(&[(end - first - present.len()) as i64, present.len() as i64][..])
            );
        }
    }
}

#[test]
fn repeated_pages_start_on_records_and_index_strings() {
    let mut rng = Rng(77);
    let data = gen_column(
        &mut rng,
        Type::ByteArray,
        Nesting::Repeated,
        Nulls::Some,
        3000,
    );
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_data_page_size_limit(300)
        .set_write_batch_size(16)
        .set_column_index_truncate_length(Some(2))
        .build();
    // Batches of 5 levels cut records anywhere; pages must still not.
    let (file, _) = write_file(
        schema_for(Type::ByteArray, Nesting::Repeated),
        props,
        &data,
        3000,
        5,
    );
    let reader = reader_with_index(&file);
    let pi = reader.metadata().page_index_for_row_group(0);
    let locs = pi.offset_index(0).unwrap().page_locations();
    assert!(locs.len() > 10);
    check_locations(&file, locs);
    // first_row_index strictly increases: no page starts mid-record.
    for w in locs.windows(2) {
        assert!(w[1].first_row_index > w[0].first_row_index);
    }
    let Some(ColumnIndexMetaData::BYTE_ARRAY(idx)) = pi.column_index(0) else {
        panic!("no BYTE_ARRAY column index")
    };
    // Recompute each page's bounds from the data and the row boundaries.
    let mut level = 0usize;
    let mut value = 0usize;
    let mut row = 0usize;
    for (p, l) in locs.iter().enumerate() {
        assert_eq!(l.first_row_index as usize, row);
        let end_row = locs.get(p + 1).map_or(3000, |n| n.first_row_index as usize);
        let mut vals: Vec<&[u8]> = Vec::new();
        while level < data.def.len() && (row < end_row || data.rep[level] != 0) {
            if data.rep[level] == 0 {
                row += 1;
                if row > end_row {
                    row -= 1;
                    break;
                }
            }
            if data.def[level] == 2 {
                vals.push(&data.values[value]);
                value += 1;
            }
            level += 1;
        }
        match (vals.iter().min(), vals.iter().max()) {
            (Some(lo), Some(hi)) => {
                let min = idx.min_value(p).unwrap();
                let max = idx.max_value(p).unwrap();
                assert!(min.len() <= 2 && max.len() <= 2);
                assert!(min <= *lo && min == &lo[..lo.len().min(2)]);
                assert!(max >= *hi, "page {p}: {max:?} < {hi:?}");
            }
            _ => assert!(idx.is_null_page(p)),
        }
    }
    assert_eq!(value, data.values.len());
    let oi = pi.offset_index(0).unwrap();
    let unencoded: i64 = oi.unencoded_byte_array_data_bytes().unwrap().iter().sum();
    assert_eq!(
        unencoded as usize,
        data.values.iter().map(Vec::len).sum::<usize>()
    );
}

/// Floats are written under IEEE 754 total order: arrow-rs reads the
/// column order, the chunk's and each page's NaN count, and a page of NaNs
/// only has NaN bounds (the index keeps it, as arrow-rs's writer does).
#[test]
fn nan_counts_and_nan_only_pages_in_the_column_index() {
    use parquet::basic::ColumnOrder;
    use parquet::file::statistics::Statistics;
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_row_count_limit(10)
        .set_write_batch_size(10)
        .build();
    let schema = schema_from(&[root(1), leaf("x", Type::Double, Rep::Required)]);
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    let mut rg = fw.next_row_group().unwrap();
    let mut cw = rg.next_column().unwrap().unwrap();
    let mut v = vec![1.0f64, f64::NAN, -0.0, 0.0, 2.5, 1.0, 1.0, 1.0, 1.0, 1.0];
    v.extend([f64::NAN; 9]);
    v.push(-f64::NAN);
    cw.typed::<f64>()
        .unwrap()
        .write_batch(&v, None, None)
        .unwrap();
    let chunk = cw.close().unwrap();
    assert!(chunk.column_index().is_some());
    assert_eq!(chunk.offset_index().unwrap().page_locations.len(), 2);
    rg.append_column(chunk).unwrap();
    rg.close().unwrap();
    fw.close().unwrap();

    let reader = reader_with_index(&out);
    let metadata = reader.metadata();
    assert_eq!(
        metadata.file_metadata().column_orders().unwrap(),
        &vec![ColumnOrder::IEEE_754_TOTAL_ORDER]
    );
    let Some(Statistics::Double(stats)) = metadata.row_group(0).column(0).statistics() else {
        panic!("no DOUBLE statistics");
    };
    assert_eq!(
        stats.min_opt().map(|v| v.to_bits()),
        Some((-0.0f64).to_bits())
    );
    assert_eq!(stats.max_opt(), Some(&2.5));
    assert_eq!(stats.nan_count_opt(), Some(11));
    let index = metadata.page_index_for_row_group(0);
    let Some(ColumnIndexMetaData::DOUBLE(index)) = index.column_index(0) else {
        panic!("no DOUBLE column index");
    };
    assert_eq!(
        (index.nan_count(0), index.nan_count(1)),
        (Some(1), Some(10))
    );
    assert_eq!(index.min_value(0), Some(&-0.0));
    assert_eq!(index.max_value(0), Some(&2.5));
    // Page two holds only NaNs: its bounds are the least and greatest in
    // total order, the one with the sign bit set and the one without.
    let (lo, hi) = (index.min_value(1).unwrap(), index.max_value(1).unwrap());
    assert_eq!(lo.to_bits(), (-f64::NAN).to_bits());
    assert_eq!(hi.to_bits(), f64::NAN.to_bits());
    assert_eq!(read_back(&out, 0).values.len(), 20);
}

#[test]
fn bloom_filters_read_by_arrow_rs() {
    let schema = schema_from(&[
        root(2),
        leaf("id", Type::Int64, Rep::Required),
        string_leaf("name", Rep::Optional),
    ]);
    let props = WriterProperties::builder()
        .set_bloom_filter_enabled(true)
        .set_bloom_filter_max_ndv(1000)
        .set_bloom_filter_fpp(0.01)
        .set_encoding(Encoding::PLAIN)
        .build();
    let ids: Vec<i64> = (0..1000).map(|i| i * 11).collect();
    let names: Vec<String> = (0..500).map(|i| format!("name-{i}")).collect();
    let name_refs: Vec<&[u8]> = names.iter().map(|s| s.as_bytes()).collect();
    let def: Vec<i16> = (0..1000).map(|i| i16::from(i % 2 == 0)).collect();
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    for _ in 0..2 {
        let mut rg = fw.next_row_group().unwrap();
        let mut writers = rg.column_writers().unwrap();
        writers[0]
            .typed::<i64>()
            .unwrap()
            .write_batch(&ids, None, None)
            .unwrap();
        writers[1]
            .typed::<strata_encoding::ByteArray>()
            .unwrap()
            .write_values(ByteArrayBatch::from_slices(&name_refs), Some(&def), None)
            .unwrap();
        for w in writers {
            rg.append_column(w.close().unwrap()).unwrap();
        }
        rg.close().unwrap();
    }
    fw.close().unwrap();
    let reader = reader_with_index(&out);
    for g in 0..2 {
        let rg = reader.get_row_group(g).unwrap();
        let ids_bf = rg.get_column_bloom_filter(0).expect("id bloom filter");
        let names_bf = rg.get_column_bloom_filter(1).expect("name bloom filter");
        for id in &ids {
            assert!(ids_bf.check(id));
        }
        for n in &names {
            assert!(names_bf.check(n.as_str()));
        }
        let false_hits = (0..1000i64).filter(|i| ids_bf.check(&(i * 11 + 5))).count();
        assert!(false_hits < 50, "{false_hits} false positives");
        assert!(!names_bf.check("definitely-absent-name-zz"));
    }
}

/// Dictionary-encoded BYTE_ARRAY pages take their statistics over the
/// dictionary entries each page uses: the column index must still hold
/// each page's exact minimum and maximum, the chunk statistics the whole
/// column's, with values that repeat within and across pages (entries
/// seen on an earlier page count again on a later one).
/// FIXED_LEN_BYTE_ARRAY, whose statistics scan the values, is held to the
/// same.
#[test]
fn dictionary_byte_pages_index_their_own_bounds() {
    use strata_encoding::FixedLenBatch;
    let rows = 3000usize;
    let width = FLBA_WIDTH as usize;
    // Value of row i (rows with i % 9 == 4 are null): 40 distinct values,
    // with a window that drifts with the row so pages differ.
    let value = |i: usize| -> Vec<u8> {
        let k = (i / 50 + (i * 7) % 13) % 40;
        format!("{:05}", 10_000 + k * 997 % 40_000).into_bytes()
    };
    let present = |i: usize| i % 9 != 4;
    for ty in [Type::ByteArray, Type::FixedLenByteArray] {
        let def: Vec<i16> = (0..rows).map(|i| i16::from(present(i))).collect();
        let vals: Vec<Vec<u8>> = (0..rows).filter(|&i| present(i)).map(value).collect();
        let props = WriterProperties::builder()
            .set_data_page_row_count_limit(170)
            .set_write_batch_size(64)
            .build();
        let schema = schema_from(&[root(1), leaf("x", ty, Rep::Optional)]);
        let mut out = Vec::new();
        let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
        let mut rg = fw.next_row_group().unwrap();
        let mut cw = rg.next_column().unwrap().unwrap();
        match ty {
            Type::ByteArray => {
                let slices: Vec<&[u8]> = vals.iter().map(Vec::as_slice).collect();
                cw.typed::<strata_encoding::ByteArray>()
                    .unwrap()
                    .write_values(ByteArrayBatch::from_slices(&slices), Some(&def), None)
                    .unwrap();
            }
            _ => {
                let bytes: Vec<u8> = vals.concat();
                assert_eq!(bytes.len(), vals.len() * width);
                cw.typed::<strata_encoding::FixedLenByteArray>()
                    .unwrap()
                    .write_values(FixedLenBatch::new(width, &bytes).unwrap(), Some(&def), None)
                    .unwrap();
            }
        }
        let chunk = cw.close().unwrap();
        let stats = chunk.metadata().statistics.clone().unwrap();
        assert_eq!(
            stats.min_value(),
            vals.iter().min().map(Vec::as_slice),
            "{ty:?}"
        );
        assert_eq!(
            stats.max_value(),
            vals.iter().max().map(Vec::as_slice),
            "{ty:?}"
        );
        rg.append_column(chunk).unwrap();
        rg.close().unwrap();
        fw.close().unwrap();

        let reader = reader_with_index(&out);
        let pi = reader.metadata().page_index_for_row_group(0);
        let locs = pi.offset_index(0).unwrap().page_locations();
        assert!(locs.len() >= 10, "{} pages", locs.len());
        type Bounds<'a> = Vec<Option<&'a [u8]>>;
        let (mins, maxs): (Bounds<'_>, Bounds<'_>) = match pi.column_index(0) {
            Some(ColumnIndexMetaData::BYTE_ARRAY(idx)) => (
                idx.min_values_iter().collect(),
                idx.max_values_iter().collect(),
            ),
            Some(ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(idx)) => (
                idx.min_values_iter().collect(),
                idx.max_values_iter().collect(),
            ),
            other => panic!("{ty:?}: column index {other:?}"),
        };
        for (p, l) in locs.iter().enumerate() {
            let first = l.first_row_index as usize;
            let end = locs.get(p + 1).map_or(rows, |n| n.first_row_index as usize);
            let page: Vec<Vec<u8>> = (first..end).filter(|&i| present(i)).map(value).collect();
            assert_eq!(
                mins[p],
                page.iter().min().map(Vec::as_slice),
                "{ty:?} page {p}"
            );
            assert_eq!(
                maxs[p],
                page.iter().max().map(Vec::as_slice),
                "{ty:?} page {p}"
            );
        }
    }
}
