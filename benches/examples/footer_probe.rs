//! Footer decode in a loop, for `perf stat`: `footer_probe strata|arrow N [columns row_groups]`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("strata");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let columns: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let row_groups: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let bytes = strata_benches::data::wide_footer(columns, row_groups);
    let start = std::time::Instant::now();
    for _ in 0..n {
        match which {
            "strata" => {
                let meta = strata_format::footer::decode_metadata(black_box(&bytes)).unwrap();
                let schema =
                    strata_format::schema::SchemaDescriptor::from_elements(&meta.schema).unwrap();
                black_box((meta, schema));
            }
            "arrow" => {
                black_box(
                    parquet::file::metadata::ParquetMetaDataReader::decode_metadata(black_box(
                        &bytes,
                    ))
                    .unwrap(),
                );
            }
            "skip" => {
                let mut r = strata_format::thrift::CompactReader::new(black_box(&bytes));
                r.skip(strata_format::thrift::FieldType::Struct).unwrap();
                black_box(r.position());
            }
            "none" => {}
            _ => panic!("strata|arrow|none"),
        }
    }
    eprintln!(
        "{which}: {:.1} us/decode",
        start.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
