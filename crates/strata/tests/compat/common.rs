// Helpers the programs share, written against `pq` like the programs
// (included once per side).

use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::file::properties::WriterProperties;
use pq::file::reader::FileReader;

/// Write `batch` to memory in row groups of at most `rows_per_group` rows.
pub fn to_parquet(batch: &RecordBatch, rows_per_group: usize) -> Bytes {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows_per_group))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

/// Which chunks of `metadata` have a page index loaded: a line per row
/// group, each column as `column:pages in its column index/pages in its
/// offset index` (`None` where not loaded).
pub fn loaded_page_indexes(metadata: &pq::file::metadata::ParquetMetaData) -> String {
    let mut out = String::new();
    for g in 0..metadata.num_row_groups() {
        let index = metadata.page_index_for_row_group(g);
        let chunks: Vec<String> = (0..metadata.file_metadata().schema_descr().num_columns())
            .map(|c| {
                let column = index.column_index(c).map(|ci| ci.num_pages());
                let offsets = index.offset_index(c).map(|o| o.page_locations().len());
                format!("{c}:{column:?}/{offsets:?}")
            })
            .collect();
        out.push_str(&format!("  {g}: {}\n", chunks.join(" ")));
    }
    out
}

/// Every row of `reader`, one a line, and the count.
pub fn all_rows(reader: &dyn FileReader) -> String {
    let mut out = String::new();
    let mut n = 0;
    for row in reader.get_row_iter(None).unwrap() {
        out.push_str(&format!("{}\n", row.unwrap()));
        n += 1;
    }
    format!("rows: {n}\n{out}")
}

/// A file of the parquet-testing corpus, if the corpus is there.
pub fn corpus(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/parquet-testing/data")
        .join(name);
    path.exists().then_some(path)
}

/// The `*.parquet` files directly in `dir`, sorted.
pub fn parquet_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    names.sort();
    names
}

/// What a program prints when the corpus is absent (the same on both
/// sides).
pub fn no_corpus() -> String {
    "rows: 0 (parquet-testing corpus not found)\n".to_string()
}

/// Every batch `decoder` gives, its requests answered from `file`.
pub fn decode_all(
    decoder: &mut pq::arrow::push_decoder::ParquetPushDecoder,
    file: &Bytes,
) -> Vec<RecordBatch> {
    use pq::DecodeResult;
    let mut batches = Vec::new();
    loop {
        match decoder.try_decode().unwrap() {
            DecodeResult::NeedsData(ranges) => {
                let data = ranges
                    .iter()
                    .map(|r| file.slice(r.start as usize..r.end as usize))
                    .collect();
                decoder.push_ranges(ranges, data).unwrap();
            }
            DecodeResult::Data(batch) => batches.push(batch),
            DecodeResult::Finished => return batches,
        }
    }
}
