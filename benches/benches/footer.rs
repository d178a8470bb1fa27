//! Footer (FileMetaData) decode of a 1,000-column x 10-row-group file,
//! strata against arrow-rs `ParquetMetaDataReader` on the same bytes. Both
//! sides also build their schema descriptor, as a reader must.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
#![forbid(unsafe_code)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::file::metadata::ParquetMetaDataReader;
use strata_benches::data::wide_footer;
use strata_format::schema::SchemaDescriptor;

fn footer(c: &mut Criterion) {
    let mut group = c.benchmark_group("footer_decode");
    for (columns, row_groups) in [(1000usize, 10usize), (100, 1)] {
        let bytes = wide_footer(columns, row_groups);
        // Both readers must accept the bytes and agree on the shape.
        let ours = strata_format::footer::decode_metadata(&bytes).unwrap();
        let theirs = ParquetMetaDataReader::decode_metadata(&bytes).unwrap();
        assert_eq!(ours.row_groups.len(), theirs.num_row_groups());
        assert_eq!(
            SchemaDescriptor::from_elements(&ours.schema)
                .unwrap()
                .num_columns(),
            theirs.file_metadata().schema_descr().num_columns()
        );
        let case = format!("{columns}cols_x_{row_groups}rg");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("strata/{case}"), |b| {
            b.iter(|| {
                let meta = strata_format::footer::decode_metadata(black_box(&bytes)).unwrap();
                let schema = SchemaDescriptor::from_elements(&meta.schema).unwrap();
                black_box((meta, schema))
            })
        });
        group.bench_function(format!("arrow-rs/{case}"), |b| {
            b.iter(|| black_box(ParquetMetaDataReader::decode_metadata(black_box(&bytes)).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, footer);
criterion_main!(benches);
