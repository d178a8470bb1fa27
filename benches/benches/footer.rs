//! Footer (FileMetaData) decode of a 1,000-column x 10-row-group file (and
//! of 100 and 10,000 columns in one row group),
//! strata against arrow-rs `ParquetMetaDataReader` on the same bytes. Both
//! sides also build their schema descriptor, as a reader must.
//! `-- --interleaved-sides [REPS]` runs every case with strata and arrow-rs
//! taking turns instead of under criterion (`common::pair`).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
#![forbid(unsafe_code)]

mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};
use strata_benches::data::wide_footer;
use strata_format::metadata::FileMetaData;
use strata_format::schema::SchemaDescriptor;

fn footer(c: &mut Criterion) {
    let mut group = c.benchmark_group("footer_decode");
    for (columns, row_groups) in [(1000usize, 10usize), (100, 1), (10_000, 1)] {
        let bytes = wide_footer(columns, row_groups);
        // Both readers must accept the bytes and agree on the shape.
        let ours = strata_format::footer::decode_metadata(&bytes).unwrap();
        let theirs = ParquetMetaDataReader::decode_metadata(&bytes).unwrap();
        assert_eq!(ours.row_groups.len(), theirs.num_row_groups());
        assert_eq!(
            SchemaDescriptor::from_file_metadata(&ours)
                .unwrap()
                .num_columns(),
            theirs.file_metadata().schema_descr().num_columns()
        );
        check_facts(&ours, &theirs);
        // The checked copies are not needed while timing: free them first,
        // so neither side's loop runs above ten megabytes of dead setup.
        drop((ours, theirs));
        let case = format!("{columns}cols_x_{row_groups}rg");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        common::pair(
            &mut group,
            "footer_decode",
            &case,
            || {
                let meta = strata_format::footer::decode_metadata(black_box(&bytes)).unwrap();
                let schema = SchemaDescriptor::from_file_metadata(&meta).unwrap();
                black_box((meta, schema));
            },
            || {
                black_box(ParquetMetaDataReader::decode_metadata(black_box(&bytes)).unwrap());
            },
        );
    }
    group.finish();
}

/// Both decodings agree on what each row group and column chunk says:
/// rows, sizes, leaf paths, physical types, data page offsets and value
/// counts.
fn check_facts(ours: &FileMetaData, theirs: &ParquetMetaData) {
    assert_eq!(ours.num_rows, theirs.file_metadata().num_rows());
    for (g, (o, t)) in ours.row_groups.iter().zip(theirs.row_groups()).enumerate() {
        assert_eq!(o.num_rows, t.num_rows(), "row group {g}");
        assert_eq!(o.total_byte_size, t.total_byte_size(), "row group {g}");
        assert_eq!(o.columns.len(), t.num_columns(), "row group {g}");
        for (i, (o, t)) in o.columns.iter().zip(t.columns()).enumerate() {
            let o = o.meta_data.as_ref().unwrap();
            let what = format!("row group {g}, column {i}");
            assert_eq!(&o.path_in_schema[..], t.column_path().parts(), "{what}");
            assert_eq!(o.physical_type.to_i32(), t.column_type() as i32, "{what}");
            assert_eq!(o.total_compressed_size, t.compressed_size(), "{what}");
            assert_eq!(o.data_page_offset, t.data_page_offset(), "{what}");
            assert_eq!(o.num_values, t.num_values(), "{what}");
        }
    }
}

fn main() {
    common::main_with_sides(footer);
}
