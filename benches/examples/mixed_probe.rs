//! The 1M-row mixed table of the `arrow` and `peak_heap` benches, for heap
//! profiles of one read: `mixed_probe FILE [uncompressed|snappy|zstd]
//! [strata|arrow-rs]`. When `FILE` does not exist, the table is written
//! there with arrow-rs (the codec given) and the probe stops; otherwise
//! the file is read once in batches of 8,192 by the implementation given,
//! so a heap profiler run on that call sees the read alone.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

#[path = "../benches/common/mod.rs"]
mod common;

use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::PathBuf::from(args.get(1).expect("mixed_probe FILE [codec] [side]"));
    let codec = args.get(2).map_or("zstd", String::as_str);
    let side = args.get(3).map_or("strata", String::as_str);
    if !path.exists() {
        let codec = match codec {
            "uncompressed" => Compression::UNCOMPRESSED,
            "snappy" => Compression::SNAPPY,
            _ => Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
        };
        let props = WriterProperties::builder().set_compression(codec).build();
        std::fs::write(&path, common::arrow_rs_write(&common::mixed_table(), props)).unwrap();
        return;
    }
    let file = bytes::Bytes::from(std::fs::read(&path).unwrap());
    let spec = common::ReadSpec::batches_of(common::MIXED_BATCH);
    let mut rows = 0;
    match side {
        "arrow-rs" => common::arrow_rs_read(&file, &spec, |b| rows += b.num_rows()),
        _ => common::strata_read(&file, &spec, |b| rows += b.num_rows()),
    }
    println!("{side} read {rows} rows");
}
