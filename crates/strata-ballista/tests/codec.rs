//! strata's plan nodes through the codec in one process: a plan encoded
//! and decoded must print the same and give the same rows as the plan
//! itself, and bytes that are not a strata node must be an error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::sync::Arc;

use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::execution::TaskContext;
use datafusion::physical_plan::{ExecutionPlan, collect, displayable};
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_proto::physical_plan::{
    AsExecutionPlan, DefaultPhysicalProtoConverter, PhysicalExtensionCodec,
};
use datafusion_proto::protobuf::PhysicalPlanNode;
use strata_ballista::{StrataPhysicalCodec, physical_codec};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-ballista-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `plan` as another process gets it: encoded to bytes and decoded in a
/// task context like an executor's (DataFusion's functions registered).
fn round_trip(plan: &Arc<dyn ExecutionPlan>, ctx: &TaskContext) -> Arc<dyn ExecutionPlan> {
    let codec = physical_codec();
    let node = PhysicalPlanNode::try_from_physical_plan(Arc::clone(plan), codec.as_ref()).unwrap();
    let mut bytes = Vec::new();
    node.try_encode(&mut bytes).unwrap();
    PhysicalPlanNode::try_decode(&bytes)
        .unwrap()
        .try_into_physical_plan(ctx, codec.as_ref())
        .unwrap()
}

/// The physical plan of `sql` in `ctx`.
async fn physical(ctx: &SessionContext, sql: &str) -> Arc<dyn ExecutionPlan> {
    let frame = ctx.sql(sql).await.unwrap();
    frame.create_physical_plan().await.unwrap()
}

fn shown(plan: &Arc<dyn ExecutionPlan>) -> String {
    displayable(plan.as_ref()).indent(true).to_string()
}

/// A session reading with strata, over 4,000 rows in row groups of 500,
/// written by strata.
async fn table(dir: &std::path::Path, config: SessionConfig) -> SessionContext {
    let ctx = SessionContext::new_with_config(config);
    strata_datafusion::register_strata(&ctx).unwrap();
    let path = dir.join("t.parquet");
    if !path.exists() {
        let copy = format!(
            "COPY (SELECT value AS id, value % 7 AS small, \
             CASE WHEN value % 5 = 0 THEN NULL ELSE concat('n-', value % 13) END AS name \
             FROM generate_series(0, 3999) AS s(value)) TO '{}' \
             OPTIONS ('format.max_row_group_size' '500')",
            path.display()
        );
        ctx.sql(&copy).await.unwrap().collect().await.unwrap();
    }
    ctx.sql(&format!(
        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '{}'",
        path.display()
    ))
    .await
    .unwrap()
    .collect()
    .await
    .unwrap();
    ctx
}

#[tokio::test]
async fn scans_cross_with_their_projection_pruning_and_row_filters() {
    let dir = scratch("codec-scan");
    for pushdown in [false, true] {
        let mut config = SessionConfig::new().with_target_partitions(2);
        config.options_mut().execution.parquet.pushdown_filters = pushdown;
        let ctx = table(&dir, config).await;
        for sql in [
            "SELECT id, name FROM t WHERE small = 3 AND id > 1000 ORDER BY id",
            "SELECT count(*), min(name) FROM t WHERE name IS NOT NULL AND id < 2500",
            "SELECT name, id FROM t WHERE id BETWEEN 1200 AND 1210 ORDER BY id LIMIT 4",
        ] {
            let plan = physical(&ctx, sql).await;
            let before = shown(&plan);
            assert!(before.contains("reader=strata"), "{before}");
            // Under pushdown the filters run in the scan, and DataFusion
            // has no filter of its own left: losing the scan's row filter
            // on the way would return rows the query excludes.
            assert_eq!(before.contains("FilterExec"), !pushdown, "{before}");
            let decoded = round_trip(&plan, &ctx.task_ctx());
            assert_eq!(shown(&decoded), before, "{sql}");
            let expected = collect(plan, ctx.task_ctx()).await.unwrap();
            let actual = collect(decoded, ctx.task_ctx()).await.unwrap();
            assert_eq!(
                pretty_format_batches(&actual).unwrap().to_string(),
                pretty_format_batches(&expected).unwrap().to_string(),
                "{sql} with pushdown_filters={pushdown}"
            );
            assert!(!expected.is_empty(), "{sql}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn sinks_cross_and_write_with_strata() {
    let dir = scratch("codec-sink");
    let ctx = table(&dir, SessionConfig::new()).await;
    let out = dir.join("out.parquet");
    let copy = format!(
        "COPY (SELECT id, name FROM t WHERE small = 1) TO '{}' \
         OPTIONS ('format.compression' 'zstd(3)', 'format.max_row_group_size' '100')",
        out.display()
    );
    let plan = physical(&ctx, &copy).await;
    let before = shown(&plan);
    let decoded = round_trip(&plan, &ctx.task_ctx());
    assert_eq!(shown(&decoded), before);
    let written = collect(decoded, ctx.task_ctx()).await.unwrap();
    let written = pretty_format_batches(&written).unwrap().to_string();
    // 572 of the 4,000 ids are 1 modulo 7.
    assert!(written.contains("572"), "{written}");
    // The writer options crossed: row groups of 100 rows, zstd.
    let file = std::fs::File::open(&out).unwrap();
    let reader = strata_file::serialized_reader::SerializedFileReader::new(file).unwrap();
    let metadata = reader.metadata();
    assert_eq!(metadata.num_row_groups(), 6);
    // (A footer names the codec, not its level.)
    let codec = format!("{:?}", metadata.row_group(0).column(0).compression());
    assert!(codec.starts_with("ZSTD"), "{codec}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn bytes_that_are_not_a_strata_node_are_an_error() {
    let ctx = TaskContext::default();
    let converter = DefaultPhysicalProtoConverter {};
    let codec = StrataPhysicalCodec;
    for bytes in [
        &b""[..],
        &b"\xff\xff\xff\xff"[..],
        // A scan field holding a truncated message.
        &b"\x0a\x05\x0a\x03"[..],
    ] {
        let decoded = codec.try_decode(bytes, &[], &ctx, &converter);
        assert!(decoded.is_err(), "{bytes:?}");
    }
}
