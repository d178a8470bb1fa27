//! A string column read as views, for profiling: `view_probe [distinct]
//! [batch] [reps] [strata|arrow-rs] [utf8view|binaryview|utf8|dict]
//! [dictionary|plain] [FILE]` (defaults 1000, 8192, 200, strata, utf8view,
//! dictionary). Writes 1M rows of `value-NNNNNNNN` strings (arrow-rs
//! writer, uncompressed), then reads the file `reps` times as the type
//! asked and prints the fastest and median read. With `FILE`, the file is
//! written there and the probe stops when it does not exist yet, and read
//! from there otherwise: a heap profiler run on the second call sees the
//! read alone.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use arrow_array::{ArrayRef, BinaryArray, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use strata_benches::data::XorShift;

const ROWS: usize = 1 << 20;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |i: usize, d: usize| args.get(i).map_or(d, |s| s.parse().unwrap());
    let (distinct, batch, reps) = (num(1, 1000), num(2, 8192), num(3, 200));
    let side = args.get(4).map_or("strata", String::as_str).to_string();
    let output = args.get(5).map_or("utf8view", String::as_str).to_string();
    let plain = args.get(6).is_some_and(|s| s == "plain");
    let saved = args.get(7).map(std::path::PathBuf::from);
    if let Some(path) = saved.as_ref().filter(|p| p.exists()) {
        let file = Bytes::from(std::fs::read(path).unwrap());
        return read_file(file, batch, reps, &side, &output, distinct, plain);
    }
    let mut rng = XorShift::new(7);
    let strings: Vec<String> = (0..ROWS)
        .map(|_| format!("value-{:08}", rng.next_u64() as usize % distinct))
        .collect();
    let binary = output == "binaryview";
    let array: ArrayRef = if binary {
        Arc::new(BinaryArray::from_iter_values(strings.iter()))
    } else {
        Arc::new(StringArray::from(strings))
    };
    let batch_in = RecordBatch::try_from_iter([("s", array)]).unwrap();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_dictionary_enabled(!plain)
        .build();
    let mut out = Vec::new();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(&mut out, batch_in.schema(), Some(props)).unwrap();
    w.write(&batch_in).unwrap();
    w.close().unwrap();
    if let Some(path) = saved {
        std::fs::write(path, &out).unwrap();
        return;
    }
    read_file(
        Bytes::from(out),
        batch,
        reps,
        &side,
        &output,
        distinct,
        plain,
    );
}

fn read_file(
    file: Bytes,
    batch: usize,
    reps: usize,
    side: &str,
    output: &str,
    distinct: usize,
    plain: bool,
) {
    let dt = match output {
        "utf8view" => DataType::Utf8View,
        "binaryview" => DataType::BinaryView,
        "utf8" => DataType::Utf8,
        _ => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
    };
    let schema = Arc::new(Schema::new(vec![Field::new("s", dt, false)]));
    let read = || -> usize {
        if side == "strata" {
            use strata_arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
            ParquetRecordBatchReaderBuilder::try_new_with_options(
                file.clone(),
                ArrowReaderOptions::new().with_schema(schema.clone()),
            )
            .unwrap()
            .with_batch_size(batch)
            .build()
            .unwrap()
            .map(|b| black_box(b.unwrap()).num_rows())
            .sum()
        } else {
            use parquet::arrow::arrow_reader::{
                ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
            };
            ParquetRecordBatchReaderBuilder::try_new_with_options(
                file.clone(),
                ArrowReaderOptions::new().with_schema(schema.clone()),
            )
            .unwrap()
            .with_batch_size(batch)
            .build()
            .unwrap()
            .map(|b| black_box(b.unwrap()).num_rows())
            .sum()
        }
    };
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        assert_eq!(read(), ROWS);
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "{side} {output} distinct={distinct} batch={batch} plain={plain}: fastest {:?} median {:?}",
        times[0],
        times[reps / 2]
    );
}
