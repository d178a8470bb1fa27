//! The physical plan codec for strata's plan nodes.
//!
//! A distributed plan crosses processes as protobuf: the client (or the
//! scheduler) encodes it, and each executor decodes the stage it runs.
//! DataFusion encodes its own nodes itself and hands every node it does
//! not know, whole, to an extension codec. strata brings two: a file scan
//! whose source is a [`StrataSource`] and a write whose sink is a
//! [`StrataSink`]. [`StrataPhysicalCodec`] writes each as a small protobuf
//! envelope around DataFusion's own messages:
//!
//! - a scan: DataFusion's `FileScanExecConf` (file groups with their byte
//!   ranges and partition values, schema, projection, limit, ordering,
//!   statistics, batch size), plus what that message leaves out and a
//!   strata scan needs: the pruning predicate, the row filters DataFusion
//!   was told run inside the scan (it dropped its own filter for them, so
//!   losing them would return rows the query excludes), and the Parquet
//!   reader options;
//! - a sink: DataFusion's `FileSinkConfig` (output URL, file groups,
//!   schema, partition columns, insert operation), the sort order the
//!   input must have, the Parquet writer options, and the output as the
//!   statement named it (which DataFusion's message leaves out). The sink's input is
//!   a child plan, encoded by DataFusion and handed back on decode.
//!
//! Expressions go through DataFusion's expression serialization, with the
//! codec and converter of the plan being encoded, so an expression that
//! itself needs an extension codec still finds it.
//!
//! A Ballista stage also holds Ballista's own nodes (shuffle writers and
//! readers). [`physical_codec`] composes Ballista's codec with strata's;
//! every process of a cluster must use it, in the same order.

use std::sync::Arc;

use ballista_core::serde::BallistaPhysicalExtensionCodec;
use datafusion::common::{DataFusionError, Result, internal_datafusion_err, not_impl_err};
use datafusion::config::TableParquetOptions;
use datafusion::datasource::physical_plan::{FileScanConfig, FileSinkConfig};
use datafusion::datasource::sink::DataSinkExec;
use datafusion::datasource::source::DataSourceExec;
use datafusion::execution::TaskContext;
use datafusion::physical_expr::{LexRequirement, PhysicalSortExpr, PhysicalSortRequirement};
use datafusion::physical_plan::ExecutionPlan;
use datafusion_proto::physical_plan::from_proto::{
    parse_physical_expr_with_converter, parse_physical_sort_exprs, parse_protobuf_file_scan_config,
};
use datafusion_proto::physical_plan::to_proto::{
    serialize_file_scan_config, serialize_physical_expr_with_converter,
    serialize_physical_sort_exprs,
};
use datafusion_proto::physical_plan::{
    ComposedPhysicalExtensionCodec, PhysicalExtensionCodec, PhysicalPlanDecodeContext,
    PhysicalProtoConverterExtension,
};
use datafusion_proto::protobuf;
use datafusion_proto_common::protobuf_common;
use prost::Message;
use strata_datafusion::{StrataSink, StrataSource};

/// The codec every process of a Ballista cluster running strata uses:
/// Ballista's own nodes first, then strata's.
///
/// ```
/// let codec = strata_ballista::physical_codec();
/// # let _ = codec;
/// ```
pub fn physical_codec() -> Arc<dyn PhysicalExtensionCodec> {
    Arc::new(ComposedPhysicalExtensionCodec::new(vec![
        Arc::new(BallistaPhysicalExtensionCodec::default()),
        Arc::new(StrataPhysicalCodec),
    ]))
}

/// Encodes and decodes strata's scans and sinks (see the module docs);
/// any other node is refused, so that a composed codec tries the next.
#[derive(Debug, Default, Clone, Copy)]
pub struct StrataPhysicalCodec;

/// The envelope: exactly one of its fields is set.
#[derive(Clone, PartialEq, Message)]
struct StrataNode {
    #[prost(message, optional, tag = "1")]
    scan: Option<ScanNode>,
    #[prost(message, optional, tag = "2")]
    sink: Option<SinkNode>,
}

/// A `DataSourceExec` over a [`StrataSource`].
#[derive(Clone, PartialEq, Message)]
struct ScanNode {
    #[prost(message, optional, tag = "1")]
    config: Option<protobuf::FileScanExecConf>,
    /// The pruning predicate, over the table's columns.
    #[prost(message, optional, tag = "2")]
    predicate: Option<protobuf::PhysicalExprNode>,
    /// The row filters run inside the scan, over the table's columns.
    #[prost(message, optional, tag = "3")]
    row_predicate: Option<protobuf::PhysicalExprNode>,
    #[prost(message, optional, tag = "4")]
    options: Option<protobuf_common::TableParquetOptions>,
}

/// A `DataSinkExec` into a [`StrataSink`].
#[derive(Clone, PartialEq, Message)]
struct SinkNode {
    #[prost(message, optional, tag = "1")]
    config: Option<protobuf::FileSinkConfig>,
    /// The order the input must have; absent where none is required.
    #[prost(message, optional, tag = "2")]
    sort_order: Option<protobuf::PhysicalSortExprNodeCollection>,
    #[prost(message, optional, tag = "3")]
    options: Option<protobuf_common::TableParquetOptions>,
    /// The output as the statement named it, which DataFusion's message
    /// leaves out (plans print it).
    #[prost(string, tag = "4")]
    original_url: String,
}

fn options_to_proto(options: &TableParquetOptions) -> Result<protobuf_common::TableParquetOptions> {
    protobuf_common::TableParquetOptions::try_from(options)
        .map_err(|e| internal_datafusion_err!("strata's Parquet options: {e}"))
}

fn options_from_proto(
    options: Option<&protobuf_common::TableParquetOptions>,
) -> Result<TableParquetOptions> {
    let options = options.ok_or_else(|| missing("the Parquet options"))?;
    TableParquetOptions::try_from(options)
        .map_err(|e| DataFusionError::Plan(format!("strata's Parquet options: {e}")))
}

fn missing(what: &str) -> DataFusionError {
    DataFusionError::Plan(format!("a strata plan node without {what}"))
}

impl StrataPhysicalCodec {
    fn encode_scan(
        &self,
        config: &FileScanConfig,
        source: &StrataSource,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<ScanNode> {
        let expr = |e| serialize_physical_expr_with_converter(e, self, converter);
        Ok(ScanNode {
            config: Some(serialize_file_scan_config(config, self, converter)?),
            predicate: source.predicate().map(expr).transpose()?,
            row_predicate: source.row_predicate().map(expr).transpose()?,
            options: Some(options_to_proto(source.options())?),
        })
    }

    fn decode_scan(
        &self,
        node: &ScanNode,
        ctx: &PhysicalPlanDecodeContext<'_>,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let config = node.config.as_ref().ok_or_else(|| missing("a scan"))?;
        let table_schema = FileScanConfig::parse_table_schema_from_proto(config)?;
        let columns = Arc::clone(table_schema.table_schema());
        let options = options_from_proto(node.options.as_ref())?;
        // The executor's own cache: its later tasks over the same files
        // skip their footers.
        let cache = ctx
            .task_ctx()
            .runtime_env()
            .cache_manager
            .get_file_metadata_cache();
        let mut source = StrataSource::new(table_schema, options).with_metadata_cache(cache);
        if let Some(predicate) = &node.predicate {
            let predicate =
                parse_physical_expr_with_converter(predicate, &columns, ctx, converter)?;
            source = source.with_predicate(predicate);
        }
        if let Some(predicate) = &node.row_predicate {
            let predicate =
                parse_physical_expr_with_converter(predicate, &columns, ctx, converter)?;
            source = source.with_row_predicate(predicate);
        }
        let scan = parse_protobuf_file_scan_config(config, ctx, converter, Arc::new(source))?;
        Ok(DataSourceExec::from_data_source(scan))
    }

    fn encode_sink(
        &self,
        exec: &DataSinkExec,
        sink: &StrataSink,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<SinkNode> {
        use datafusion::datasource::physical_plan::FileSink;
        let sort_order = exec
            .sort_order()
            .as_ref()
            .map(|requirement| {
                let exprs = requirement.iter().cloned().map(PhysicalSortExpr::from);
                serialize_physical_sort_exprs(exprs, self, converter).map(|nodes| {
                    protobuf::PhysicalSortExprNodeCollection {
                        physical_sort_expr_nodes: nodes,
                    }
                })
            })
            .transpose()?;
        Ok(SinkNode {
            config: Some(protobuf::FileSinkConfig::try_from(sink.config())?),
            sort_order,
            options: Some(options_to_proto(sink.options())?),
            original_url: sink.config().original_url.clone(),
        })
    }

    fn decode_sink(
        &self,
        node: &SinkNode,
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &PhysicalPlanDecodeContext<'_>,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let [input] = inputs else {
            return Err(DataFusionError::Plan(format!(
                "a strata sink with {} inputs, not one",
                inputs.len()
            )));
        };
        let config = node.config.as_ref().ok_or_else(|| missing("a sink"))?;
        let mut config = FileSinkConfig::try_from(config)?;
        config.original_url = node.original_url.clone();
        let options = options_from_proto(node.options.as_ref())?;
        let sort_order = match &node.sort_order {
            None => None,
            Some(collection) => {
                let exprs = parse_physical_sort_exprs(
                    &collection.physical_sort_expr_nodes,
                    ctx,
                    &input.schema(),
                    converter,
                )?;
                LexRequirement::new(exprs.into_iter().map(PhysicalSortRequirement::from))
            }
        };
        let sink = Arc::new(StrataSink::new(config, options));
        Ok(Arc::new(DataSinkExec::new(
            Arc::clone(input),
            sink,
            sort_order,
        )))
    }
}

impl PhysicalExtensionCodec for StrataPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let node = StrataNode::decode(buf)
            .map_err(|e| DataFusionError::Plan(format!("not a strata plan node: {e}")))?;
        let ctx = PhysicalPlanDecodeContext::new(ctx, self);
        match (&node.scan, &node.sink) {
            (Some(scan), None) => self.decode_scan(scan, &ctx, converter),
            (None, Some(sink)) => self.decode_sink(sink, inputs, &ctx, converter),
            _ => Err(DataFusionError::Plan(
                "a strata plan node must be one scan or one sink".into(),
            )),
        }
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        let envelope = if let Some((config, source)) = node
            .downcast_ref::<DataSourceExec>()
            .and_then(|exec| exec.downcast_to_file_source::<StrataSource>())
        {
            StrataNode {
                scan: Some(self.encode_scan(config, source, converter)?),
                sink: None,
            }
        } else if let Some((exec, sink)) = node.downcast_ref::<DataSinkExec>().and_then(|exec| {
            exec.sink()
                .downcast_ref::<StrataSink>()
                .map(|sink| (exec, sink))
        }) {
            StrataNode {
                scan: None,
                sink: Some(self.encode_sink(exec, sink, converter)?),
            }
        } else {
            return not_impl_err!("not a strata plan node: {}", node.name());
        };
        envelope
            .encode(buf)
            .map_err(|e| internal_datafusion_err!("encoding a strata plan node: {e}"))
    }
}
