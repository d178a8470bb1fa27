//! TPC-H tables from `tpchgen-arrow`, written as Parquet by strata or by
//! arrow-rs, and the 22 query texts of `tests/tpch/`.
//!
//! Shared by the TPC-H test (`tests/tpch.rs`, scale factor 0.01) and the
//! TPC-H benchmark (`benches/tpch`, scale factor 1), which includes this
//! file by path. The tables are generated batch by batch and written as
//! they come, so a large scale factor needs no more memory than a batch.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use tpchgen::generators::{
    CustomerGenerator, LineItemGenerator, NationGenerator, OrderGenerator, PartGenerator,
    PartSuppGenerator, RegionGenerator, SupplierGenerator,
};
use tpchgen_arrow::arrow::record_batch::RecordBatchReader;
use tpchgen_arrow::{
    CustomerArrow, LineItemArrow, NationArrow, OrderArrow, PartArrow, PartSuppArrow, RegionArrow,
    SupplierArrow,
};

/// The eight tables, by the names the queries use.
pub const TABLES: [&str; 8] = [
    "nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem",
];

/// Which implementation writes the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// strata's `ArrowWriter`.
    Strata,
    /// arrow-rs's `ArrowWriter`.
    ArrowRs,
}

/// The batches of `table` at `scale`, generated as they are taken.
pub fn batches(table: &str, scale: f64) -> Box<dyn RecordBatchReader> {
    match table {
        "nation" => Box::new(NationArrow::new(NationGenerator::new(scale, 1, 1))),
        "region" => Box::new(RegionArrow::new(RegionGenerator::new(scale, 1, 1))),
        "part" => Box::new(PartArrow::new(PartGenerator::new(scale, 1, 1))),
        "supplier" => Box::new(SupplierArrow::new(SupplierGenerator::new(scale, 1, 1))),
        "partsupp" => Box::new(PartSuppArrow::new(PartSuppGenerator::new(scale, 1, 1))),
        "customer" => Box::new(CustomerArrow::new(CustomerGenerator::new(scale, 1, 1))),
        "orders" => Box::new(OrderArrow::new(OrderGenerator::new(scale, 1, 1))),
        "lineitem" => Box::new(LineItemArrow::new(LineItemGenerator::new(scale, 1, 1))),
        other => panic!("no TPC-H table {other}"),
    }
}

/// The file of `table` under `dir`.
pub fn table_path(dir: &Path, table: &str) -> PathBuf {
    dir.join(format!("{table}.parquet"))
}

/// Writes every table at `scale` to `dir/<table>.parquet` with `writer`,
/// in row groups of at most `row_group_rows` rows (the writer's default
/// where `None`).
pub fn write_tables(dir: &Path, scale: f64, writer: Writer, row_group_rows: Option<usize>) {
    std::fs::create_dir_all(dir).unwrap();
    for table in TABLES {
        let batches = batches(table, scale);
        let schema = batches.schema();
        let file = std::fs::File::create(table_path(dir, table)).unwrap();
        match writer {
            Writer::Strata => {
                let mut props = strata_file::properties::WriterProperties::builder();
                if let Some(rows) = row_group_rows {
                    props = props.set_max_row_group_row_count(Some(rows));
                }
                let mut out =
                    strata_arrow::ArrowWriter::try_new(file, schema, Some(props.build())).unwrap();
                for batch in batches {
                    out.write(&batch.unwrap()).unwrap();
                }
                out.close().unwrap();
            }
            Writer::ArrowRs => {
                let mut props = parquet::file::properties::WriterProperties::builder();
                if let Some(rows) = row_group_rows {
                    props = props.set_max_row_group_row_count(Some(rows));
                }
                let mut out =
                    parquet::arrow::ArrowWriter::try_new(file, schema, Some(props.build()))
                        .unwrap();
                for batch in batches {
                    out.write(&batch.unwrap()).unwrap();
                }
                out.close().unwrap();
            }
        }
    }
}

/// Registers every table in `dir` with `ctx` (`CREATE EXTERNAL TABLE ...
/// STORED AS PARQUET`, so through whichever Parquet format `ctx` has).
pub async fn register_tables(ctx: &datafusion::prelude::SessionContext, dir: &Path) {
    for name in TABLES {
        let sql = format!(
            "CREATE EXTERNAL TABLE {name} STORED AS PARQUET LOCATION '{}'",
            table_path(dir, name).display()
        );
        ctx.sql(&sql).await.unwrap().collect().await.unwrap();
    }
}

/// The text of query `n`, from `dir` (the crate's `tests/tpch`).
pub fn query(dir: &Path, n: usize) -> String {
    let path = dir.join(format!("q{n}.sql"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
