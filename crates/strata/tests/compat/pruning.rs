// Programs about pruning as arrow-rs users write it: probing Bloom filters
// through the reader builder before reading a row group, and reading the
// row groups' sorting columns and the exactness of chunk statistics.
// Included into a module that has `pq` in scope (arrow-rs `parquet` or
// `strata`); nothing else may differ.

use std::path::Path;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use bytes::Bytes;

use pq::arrow::ArrowWriter;
use pq::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pq::bloom_filter::Sbbf;
use pq::file::metadata::SortingColumn;
use pq::file::properties::WriterProperties;

/// Two row groups of ids and names, Bloom filters on both columns, sorted
/// by id, names long enough to be truncated in the statistics.
fn pruning_file() -> Bytes {
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..2000));
    let names: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..2000).map(|i| format!("{:0>80}", i * 3)),
    ));
    let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
    let props = WriterProperties::builder()
        .set_bloom_filter_enabled(true)
        .set_bloom_filter_fpp(0.01)
        .set_max_row_group_row_count(Some(1000))
        .set_sorting_columns(Some(vec![SortingColumn {
            column_idx: 0,
            descending: false,
            nulls_first: false,
        }]))
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

/// Which row groups may hold each sought id and name, by their Bloom
/// filters; then only those row groups are read.
pub fn bloom_filter_pruning(_dir: &Path) -> String {
    let file = pruning_file();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let mut out = String::new();
    let groups = builder.metadata().num_row_groups();
    let mut keep = Vec::new();
    for id in [5i64, 1500, 99_999] {
        let hits: Vec<usize> = (0..groups)
            .filter(|rg| {
                let filter: Sbbf = builder
                    .get_row_group_column_bloom_filter(*rg, 0)
                    .unwrap()
                    .unwrap();
                filter.check(&id)
            })
            .collect();
        out.push_str(&format!("id {id}: row groups {hits:?}\n"));
        keep.extend(hits);
    }
    for name in [format!("{:0>80}", 30), "absent".to_string()] {
        let hits: Vec<usize> = (0..groups)
            .filter(|rg| {
                let filter = builder
                    .get_row_group_column_bloom_filter(*rg, 1)
                    .unwrap()
                    .unwrap();
                filter.check(name.as_str())
            })
            .collect();
        out.push_str(&format!("name of {} bytes: row groups {hits:?}\n", name.len()));
    }
    keep.sort();
    keep.dedup();
    let reader = builder.with_row_groups(keep).build().unwrap();
    let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
    out.push_str(&format!("rows: {rows}\n"));
    out
}

/// Sorting columns and statistics exactness, as a pruning reader checks
/// them before trusting a bound.
pub fn sorting_columns_and_statistics_exactness(_dir: &Path) -> String {
    let file = pruning_file();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let mut out = String::new();
    for (i, rg) in builder.metadata().row_groups().iter().enumerate() {
        out.push_str(&format!("row group {i}: rows: {} sorting: {:?}\n", rg.num_rows(), rg.sorting_columns()));
        for col in rg.columns() {
            let s = col.statistics().unwrap();
            out.push_str(&format!(
                "  {}: min exact {} max exact {} min {:?} max {:?} nulls {:?}\n",
                col.column_path().string(),
                s.min_is_exact(),
                s.max_is_exact(),
                s.min_bytes_opt().map(|b| b.len()),
                s.max_bytes_opt().map(|b| b.to_vec()),
                s.null_count_opt(),
            ));
        }
    }
    out
}
