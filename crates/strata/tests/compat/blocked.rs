// Programs written the same way as the rest of the suite, using arrow-rs
// API that strata does not have (yet) at the same path and signature. They
// are compiled and run against arrow-rs only (`blocked!` in compat.rs), so
// they stay correct; each says what strata lacks. When strata gains it,
// move the program to the suite.

use std::path::Path;

use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pq::file::properties::WriterProperties;

use crate::data::people;
use crate::summary::fmt_counts;
use super::common::to_parquet;

/// Needs `IntoIterator` for `SerializedFileReader<File>` (rows). strata's
/// reader is strata-file's and its rows strata-record's, a layer above, so
/// neither crate may implement the trait (Rust's orphan rule);
/// `RowIter::from_file_into(Box::new(reader))` is the same iterator.
pub fn serialized_file_reader_into_iter(dir: &Path) -> String {
    use pq::file::reader::SerializedFileReader;
    let path = dir.join("people.parquet");
    std::fs::write(&path, to_parquet(&people(5), 2)).unwrap();
    let reader = SerializedFileReader::try_from(path.as_path()).unwrap();
    let rows: Vec<String> = reader
        .into_iter()
        .map(|row| row.unwrap().to_string())
        .collect();
    format!("rows: {}\n{}\n", rows.len(), rows.join("\n"))
}

/// Needs the level constructors to return `pq::errors::Result` (strata's
/// return `strata::file::Result`, whose error is `FileError`), so that a
/// function returning `pq::errors::Result<Compression>` can hand their
/// result on without `?`.
pub fn compression_from_config(_dir: &Path) -> String {
    use pq::basic::{Compression, ZstdLevel};
    fn zstd(level: i32) -> pq::errors::Result<Compression> {
        ZstdLevel::try_new(level).map(Compression::ZSTD)
    }
    let batch = people(20);
    let props = WriterProperties::builder()
        .set_compression(zstd(5).unwrap())
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    format!(
        "{}rejected 99: {}\n",
        fmt_counts(&reader.collect::<Result<Vec<_>, _>>().unwrap()),
        zstd(99).is_err()
    )
}
