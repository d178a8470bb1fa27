//! A program written the way arrow-rs's `parquet` crate is used, compiled
//! against strata: only the crate name differs (`parquet::` → `strata::`).
//! It writes with options, then reads with a projection, a batch size, a
//! row selection and a schema hint, from a `std::fs::File`.

use std::fs::File;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use strata::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder, RowSelection,
    RowSelector,
};
use strata::arrow::{ArrowWriter, ProjectionMask};
use strata::basic::{BrotliLevel, Compression, Encoding, GzipLevel, ZstdLevel};
use strata::errors::{ParquetError, Result};
use strata::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use strata::schema::types::ColumnPath;

fn write_file(path: &std::path::Path, batch: &RecordBatch) -> Result<()> {
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .set_column_compression(
            ColumnPath::from("name"),
            Compression::GZIP(GzipLevel::try_new(6)?),
        )
        .set_column_compression(
            ColumnPath::from("score"),
            Compression::BROTLI(BrotliLevel::try_new(4)?),
        )
        .set_column_encoding(ColumnPath::from("id"), Encoding::DELTA_BINARY_PACKED)
        .set_column_dictionary_enabled(ColumnPath::from("id"), false)
        .set_dictionary_enabled(true)
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(400))
        .set_data_page_size_limit(1024)
        .set_dictionary_page_size_limit(4096)
        .set_write_batch_size(256)
        .set_bloom_filter_enabled(true)
        .set_created_by("drop-in test".to_string())
        .set_coerce_types(true)
        .build();
    assert!(props.coerce_types());
    let file = File::create(path)?;
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props))?;
    writer.write(batch)?;
    writer.close()?;
    Ok(())
}

fn read_file(path: &std::path::Path) -> Result<Vec<RecordBatch>> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0, 1]);
    let reader: ParquetRecordBatchReader = builder
        .with_projection(mask)
        .with_batch_size(100)
        .with_row_selection(RowSelection::from(vec![
            RowSelector::skip(10),
            RowSelector::select(500),
        ]))
        .build()?;
    reader
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(ParquetError::from)
}

#[test]
fn arrow_rs_style_program_compiles_and_runs() -> Result<()> {
    let n = 1000;
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..n));
    let names: ArrayRef = Arc::new(StringArray::from_iter(
        (0..n).map(|i| (i % 10 != 0).then(|| format!("name-{}", i % 37))),
    ));
    let scores: ArrayRef = Arc::new(Int32Array::from_iter_values((0..n as i32).map(|i| i * 3)));
    let batch = RecordBatch::try_from_iter([("id", ids), ("name", names), ("score", scores)])?;

    let dir = std::env::temp_dir().join(format!("strata-drop-in-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("drop_in.parquet");
    write_file(&path, &batch)?;

    let read = read_file(&path)?;
    assert!(read.iter().all(|b| b.num_rows() <= 100));
    let got = arrow_select::concat::concat_batches(&read[0].schema(), &read)?;
    let expect = batch.project(&[0, 1])?.slice(10, 500);
    assert_eq!(got.columns(), expect.columns());
    assert_eq!(got.schema().field(1).name(), "name");

    // Read as a different Arrow type through a schema hint.
    let hint = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::LargeUtf8, true),
        Field::new("score", DataType::Int32, false),
    ]));
    let options = ArrowReaderOptions::new().with_schema(hint.clone());
    let mut reader =
        ParquetRecordBatchReaderBuilder::try_new_with_options(File::open(&path)?, options)?
            .with_limit(5)
            .build()?;
    let first = reader.next().expect("a batch")?;
    assert_eq!(first.schema(), hint);
    assert_eq!(first.num_rows(), 5);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
