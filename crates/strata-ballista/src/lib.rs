//! strata on a Ballista cluster.
//!
//! Ballista runs DataFusion plans across processes: a scheduler splits a
//! plan into stages at its exchanges, and executors run each stage's
//! tasks, trading shuffle data over Arrow Flight. Plans cross as
//! protobuf, so every node must be encodable; DataFusion's own are, and
//! strata's scan ([`strata_datafusion::StrataSource`]) and sink
//! ([`strata_datafusion::StrataSink`]) are encoded by this crate's
//! [`StrataPhysicalCodec`]. [`physical_codec`] composes it with
//! Ballista's codec; the scheduler, every executor and the client must all
//! use it.
//!
//! - [`codec`]: the codec, and what it carries across.
//! - [`cluster`]: a scheduler and an executor with the codec registered,
//!   as the `strata-ballista` binary runs them (`strata-ballista
//!   scheduler --port 50050`, `strata-ballista executor --scheduler-port
//!   50050 --flight-port 50051 --grpc-port 50052 --work-dir DIR`).
//!
//! A client plans a query in a session where strata reads Parquet
//! ([`strata_datafusion::register_strata`]) and submits the physical plan
//! with Ballista's `execute_physical_plan` and this crate's codec; the
//! scheduler splits it into stages and the executors read the files with
//! strata. The plan names the files, so every executor must reach them at
//! the same paths (a shared file system or an object store).
//!
//! ```
//! use std::sync::Arc;
//! use datafusion::physical_plan::ExecutionPlan;
//! use datafusion::prelude::SessionContext;
//! use datafusion_proto::physical_plan::AsExecutionPlan;
//! use datafusion_proto::protobuf::PhysicalPlanNode;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> datafusion::error::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("strata-ballista-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("t.parquet");
//! # let path = path.to_str().unwrap();
//! let ctx = SessionContext::new();
//! strata_datafusion::register_strata(&ctx)?;
//! ctx.sql(&format!("COPY (VALUES (1, 'a'), (2, 'b')) TO '{path}'")).await?.collect().await?;
//! ctx.sql(&format!("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '{path}'")).await?;
//! let plan = ctx.sql("SELECT column2 FROM t WHERE column1 > 1").await?.create_physical_plan().await?;
//!
//! // What a scheduler or an executor gets, and decodes with the same codec.
//! let codec = strata_ballista::physical_codec();
//! let sent = PhysicalPlanNode::try_from_physical_plan(Arc::clone(&plan), codec.as_ref())?;
//! let received = sent.try_into_physical_plan(&ctx.task_ctx(), codec.as_ref())?;
//! let rows = datafusion::physical_plan::collect(received, ctx.task_ctx()).await?;
//! assert_eq!(rows.iter().map(|b| b.num_rows()).sum::<usize>(), 1);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]

pub mod cluster;
pub mod codec;

pub use codec::{StrataPhysicalCodec, physical_codec};
