//! strata as DataFusion's Parquet format.
//!
//! DataFusion's built-in Parquet support is wired to arrow-rs's reader
//! and writer types. This crate brings strata's own: a `FileFormat`
//! ([`StrataFormat`]) made by a `FileFormatFactory`
//! ([`StrataFormatFactory`]) registered for the `parquet` extension, a
//! `FileSource` for scans ([`StrataSource`]) and a `DataSink` for writes
//! ([`StrataSink`]). Once [`register_strata`] has put them in a session,
//! everything DataFusion does with `.parquet` files goes through strata:
//! `CREATE EXTERNAL TABLE ... STORED AS PARQUET`, listing tables, queries
//! over them, `COPY ... TO 'file.parquet'` and `INSERT INTO`.
//!
//! ```
//! use datafusion::prelude::SessionContext;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> datafusion::error::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("strata-datafusion-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("numbers.parquet");
//! # let path = path.to_str().unwrap();
//! let ctx = SessionContext::new();
//! strata_datafusion::register_strata(&ctx)?;
//! // Written by strata ...
//! ctx.sql(&format!("COPY (VALUES (1, 'a'), (2, 'b'), (3, 'c')) TO '{path}'"))
//!     .await?
//!     .collect()
//!     .await?;
//! // ... and read by strata.
//! ctx.sql(&format!("CREATE EXTERNAL TABLE numbers STORED AS PARQUET LOCATION '{path}'"))
//!     .await?;
//! let batches = ctx
//!     .sql("SELECT sum(column1) FROM numbers WHERE column2 <> 'b'")
//!     .await?
//!     .collect()
//!     .await?;
//! let total = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
//! assert!(total.contains("| 4 "), "{total}");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! # Two Arrows
//!
//! strata is built on Arrow 60 and DataFusion 55 on Arrow 59. The crate
//! depends on both and hands batches across through the Arrow C Data
//! Interface ([`bridge`]): the arrays DataFusion receives are strata's
//! buffers, not copies. When DataFusion moves to strata's Arrow, the
//! bridge becomes a no-op and nothing else changes.
//!
//! # Layers
//!
//! - [`bridge`]: batches, arrays and schemas across the two Arrows;
//! - [`store`]: a file in DataFusion's object store as strata's
//!   `AsyncFileReader`;
//! - [`statistics`]: footers as the planner's statistics and as pruning
//!   statistics;
//! - [`mod@format`], [`source`], [`sink`]: the format, the scan and the write;
//! - [`filter`]: filters run inside the scan as strata row filters.

#![deny(unsafe_code)]

pub mod bridge;
pub mod filter;
pub mod format;
pub mod sink;
pub mod source;
pub mod statistics;
pub mod store;

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::datasource::provider::DefaultTableFactory;
use datafusion::prelude::{DataFrame, SessionContext};

pub use format::{StrataFormat, StrataFormatFactory};
pub use sink::StrataSink;
pub use source::{StrataOpener, StrataSource};

/// Make strata the Parquet format of `ctx`'s session: `.parquet` files in
/// SQL (`CREATE EXTERNAL TABLE ... STORED AS PARQUET`, `COPY ... TO`,
/// `INSERT INTO`) and in listing tables are read and written by strata.
///
/// Replaces any Parquet format already registered (DataFusion's own, when
/// its `parquet` feature is on), and registers the `PARQUET` table
/// factory, which DataFusion only has with that feature.
pub fn register_strata(ctx: &SessionContext) -> Result<()> {
    let state = ctx.state_ref();
    let mut state = state.write();
    state.register_file_format(Arc::new(StrataFormatFactory::new()), true)?;
    state
        .table_factories_mut()
        .entry("PARQUET".to_owned())
        .or_insert_with(|| Arc::new(DefaultTableFactory::new()));
    Ok(())
}

/// The `.parquet` files at `path` (a file, a directory or a glob) as a
/// table read by strata, with the session's Parquet options.
async fn listing_table(ctx: &SessionContext, path: &str) -> Result<Arc<ListingTable>> {
    let state = ctx.state();
    let format = StrataFormat::new().with_options(state.default_table_options().parquet);
    let options = ListingOptions::new(Arc::new(format)).with_file_extension(".parquet");
    let config = ListingTableConfig::new(ListingTableUrl::parse(path)?)
        .with_listing_options(options)
        .infer_schema(&state)
        .await?;
    Ok(Arc::new(ListingTable::try_new(config)?))
}

/// The `.parquet` files at `path` (a file, a directory or a glob) read
/// by strata, as DataFusion's `SessionContext::read_parquet` reads them
/// (which a session without DataFusion's `parquet` feature lacks).
///
/// ```
/// # use datafusion::prelude::SessionContext;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// # let dir = std::env::temp_dir().join(format!("strata-datafusion-read-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("n.parquet");
/// # let path = path.to_str().unwrap();
/// let ctx = SessionContext::new();
/// strata_datafusion::register_strata(&ctx)?;
/// ctx.sql(&format!("COPY (VALUES (1), (2)) TO '{path}'")).await?.collect().await?;
/// let df = strata_datafusion::read_parquet(&ctx, path).await?;
/// assert_eq!(df.count().await?, 2);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(())
/// # }
/// ```
pub async fn read_parquet(ctx: &SessionContext, path: &str) -> Result<DataFrame> {
    ctx.read_table(listing_table(ctx, path).await?)
}

/// Register the `.parquet` files at `path` as table `name`, read by
/// strata, as DataFusion's `SessionContext::register_parquet` does.
pub async fn register_parquet(ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
    ctx.register_table(name, listing_table(ctx, path).await?)?;
    Ok(())
}
