//! [`StrataSink`]: `COPY ... TO` and `INSERT INTO` written by strata, as
//! a DataFusion `DataSink`.
//!
//! DataFusion's demultiplexer splits the rows to write into files (one
//! for a single-file target, several for a directory or partitioned
//! write) and hands the sink one stream of batches per file. Each file is
//! written by its own task with strata's [`AsyncArrowWriter`] into an
//! object-store `BufWriter` (a multipart upload once it outgrows the
//! buffer): each batch crosses from DataFusion's Arrow to strata's
//! through the C Data Interface ([`crate::bridge`]), and each row group's
//! bytes are uploaded as it is flushed.
//!
//! The write settings are DataFusion's Parquet options (`format.*` of a
//! statement, else `datafusion.execution.parquet.*`), mapped onto strata's
//! `WriterProperties` by [`writer_properties`].

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use arrow59::datatypes::SchemaRef as DfSchemaRef;
use async_trait::async_trait;
use datafusion::common::runtime::{JoinSet, SpawnedTask};
use datafusion::common::{DataFusionError, Result};
use datafusion::config::TableParquetOptions;
use datafusion::datasource::file_format::write::demux::DemuxedStreamReceiver;
use datafusion::datasource::file_format::write::get_writer_schema;
use datafusion::datasource::physical_plan::{FileSink, FileSinkConfig};
use datafusion::datasource::sink::DataSink;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_plan::metrics::{ExecutionPlanMetricsSet, MetricBuilder, MetricsSet};
use datafusion::physical_plan::{DisplayAs, DisplayFormatType};
use object_store13::ObjectStore;
use object_store13::buffered::BufWriter;
use strata_arrow::arrow_writer::ArrowWriterOptions;
use strata_arrow::async_writer::AsyncArrowWriter;
use strata_file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use strata_format::metadata::{Compression, Encoding, KeyValue};
use strata_format::schema::ColumnPath;

use crate::bridge;
use crate::source::external;

/// Writes the files of a `COPY ... TO` or `INSERT INTO` with strata.
pub struct StrataSink {
    config: FileSinkConfig,
    options: TableParquetOptions,
    metrics: ExecutionPlanMetricsSet,
}

impl fmt::Debug for StrataSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StrataSink")
            .field("original_url", &self.config.original_url)
            .finish_non_exhaustive()
    }
}

impl StrataSink {
    /// A sink writing what `config` says, under `options`.
    pub fn new(config: FileSinkConfig, options: TableParquetOptions) -> Self {
        Self {
            config,
            options,
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }

    /// The options the files are written under.
    pub fn options(&self) -> &TableParquetOptions {
        &self.options
    }
}

impl DisplayAs for StrataSink {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match t {
            DisplayFormatType::Default | DisplayFormatType::Verbose => {
                write!(f, "StrataSink(url={})", self.config.original_url)
            }
            DisplayFormatType::TreeRender => writeln!(f, "format: parquet (strata)"),
        }
    }
}

#[async_trait]
impl DataSink for StrataSink {
    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    fn schema(&self) -> &DfSchemaRef {
        self.config.output_schema()
    }

    async fn write_all(
        &self,
        data: SendableRecordBatchStream,
        context: &Arc<TaskContext>,
    ) -> Result<u64> {
        FileSink::write_all(self, data, context).await
    }
}

#[async_trait]
impl FileSink for StrataSink {
    fn config(&self) -> &FileSinkConfig {
        &self.config
    }

    async fn spawn_writer_tasks_and_join(
        &self,
        context: &Arc<TaskContext>,
        demux_task: SpawnedTask<Result<()>>,
        mut file_stream_rx: DemuxedStreamReceiver,
        object_store: Arc<dyn ObjectStore>,
    ) -> Result<u64> {
        let rows_written = MetricBuilder::new(&self.metrics).global_counter("rows_written");
        let bytes_written = MetricBuilder::new(&self.metrics).global_counter("bytes_written");
        let df_schema = get_writer_schema(&self.config);
        let schema = Arc::new(bridge::schema_from_df(&df_schema).map_err(external)?);
        let properties = writer_properties(&self.options)?;
        let skip_arrow_metadata = self.options.global.skip_arrow_metadata;
        let buffer_size = context
            .session_config()
            .options()
            .execution
            .objectstore_writer_buffer_size;

        let mut tasks: JoinSet<Result<(u64, u64)>> = JoinSet::new();
        while let Some((path, mut batches)) = file_stream_rx.recv().await {
            let upload =
                BufWriter::with_capacity(Arc::clone(&object_store), path.clone(), buffer_size);
            let options = ArrowWriterOptions::new()
                .with_properties(properties.clone())
                .with_skip_arrow_metadata(skip_arrow_metadata);
            let mut writer =
                AsyncArrowWriter::try_new_with_options(upload, Arc::clone(&schema), options)
                    .map_err(external)?;
            let schema = Arc::clone(&schema);
            tasks.spawn(async move {
                let written = async {
                    while let Some(batch) = batches.recv().await {
                        let batch = bridge::batch_from_df(&batch, &schema).map_err(external)?;
                        writer.write(&batch).await.map_err(external)?;
                    }
                    let metadata = writer.close().await.map_err(external)?;
                    let rows = u64::try_from(metadata.file_metadata().num_rows()).unwrap_or(0);
                    let bytes: i64 = metadata
                        .row_groups()
                        .iter()
                        .map(|g| g.compressed_size())
                        .sum();
                    Ok::<_, DataFusionError>((rows, u64::try_from(bytes).unwrap_or(0)))
                };
                written
                    .await
                    .map_err(|e| e.context(format!("writing Parquet file {path} with strata")))
            });
        }

        let mut rows = 0u64;
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok(result) => {
                    let (file_rows, file_bytes) = result?;
                    rows += file_rows;
                    rows_written.add(usize::try_from(file_rows).unwrap_or(usize::MAX));
                    bytes_written.add(usize::try_from(file_bytes).unwrap_or(usize::MAX));
                }
                Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                Err(e) => return Err(DataFusionError::ExecutionJoin(Box::new(e))),
            }
        }
        demux_task
            .join_unwind()
            .await
            .map_err(|e| DataFusionError::ExecutionJoin(Box::new(e)))??;
        Ok(rows)
    }
}

/// An option's value strata does not accept, as a configuration error.
fn bad_option(name: &str, value: &str, why: impl fmt::Display) -> DataFusionError {
    DataFusionError::Configuration(format!("Parquet option {name} = {value:?}: {why}"))
}

/// Parse an option's string value with strata's `FromStr`.
fn parse<T: FromStr>(name: &str, value: &str) -> Result<T>
where
    T::Err: fmt::Display,
{
    value.parse().map_err(|e| bad_option(name, value, e))
}

/// A statistics level as DataFusion spells it (`none`, `chunk`, `page`).
fn statistics_level(name: &str, value: &str) -> Result<EnabledStatistics> {
    parse(name, &value.to_ascii_lowercase())
}

/// strata's writer properties for DataFusion's Parquet write options: the
/// global ones, then each column's, then the file's key/value metadata.
///
/// Unknown codec, encoding or statistics names are errors, as in
/// DataFusion's own Parquet sink.
pub fn writer_properties(options: &TableParquetOptions) -> Result<WriterProperties> {
    let global = &options.global;
    let mut builder = WriterProperties::builder()
        .set_data_page_size_limit(global.data_pagesize_limit)
        .set_write_batch_size(global.write_batch_size)
        .set_dictionary_page_size_limit(global.dictionary_page_size_limit)
        .set_max_row_group_row_count(Some(global.max_row_group_size))
        .set_created_by(global.created_by.clone())
        .set_column_index_truncate_length(global.column_index_truncate_length)
        .set_statistics_truncate_length(global.statistics_truncate_length)
        .set_data_page_row_count_limit(global.data_page_row_count_limit)
        .set_bloom_filter_enabled(global.bloom_filter_on_write);
    let version = global.writer_version.to_string();
    builder = builder.set_writer_version(match version.as_str() {
        "1.0" => WriterVersion::PARQUET_1_0,
        "2.0" => WriterVersion::PARQUET_2_0,
        other => return Err(bad_option("writer_version", other, "expected 1.0 or 2.0")),
    });
    if let Some(codec) = &global.compression {
        builder = builder.set_compression(parse::<Compression>("compression", codec)?);
    }
    if let Some(enabled) = global.dictionary_enabled {
        builder = builder.set_dictionary_enabled(enabled);
    }
    if let Some(level) = &global.statistics_enabled {
        builder = builder.set_statistics_enabled(statistics_level("statistics_enabled", level)?);
    }
    if let Some(encoding) = &global.encoding {
        builder = builder.set_encoding(parse::<Encoding>("encoding", encoding)?);
    }
    if let Some(fpp) = global.bloom_filter_fpp {
        builder = builder.set_bloom_filter_fpp(fpp);
    }
    if let Some(ndv) = global.bloom_filter_ndv {
        builder = builder.set_bloom_filter_ndv(ndv);
    }
    for (column, o) in &options.column_specific_options {
        let path = ColumnPath::from(column.split('.').map(str::to_owned).collect::<Vec<_>>());
        if let Some(codec) = &o.compression {
            builder = builder
                .set_column_compression(path.clone(), parse::<Compression>("compression", codec)?);
        }
        if let Some(encoding) = &o.encoding {
            builder =
                builder.set_column_encoding(path.clone(), parse::<Encoding>("encoding", encoding)?);
        }
        if let Some(enabled) = o.dictionary_enabled {
            builder = builder.set_column_dictionary_enabled(path.clone(), enabled);
        }
        if let Some(level) = &o.statistics_enabled {
            builder = builder.set_column_statistics_enabled(
                path.clone(),
                statistics_level("statistics_enabled", level)?,
            );
        }
        if let Some(enabled) = o.bloom_filter_enabled {
            builder = builder.set_column_bloom_filter_enabled(path.clone(), enabled);
        }
        if let Some(fpp) = o.bloom_filter_fpp {
            builder = builder.set_column_bloom_filter_fpp(path.clone(), fpp);
        }
        if let Some(ndv) = o.bloom_filter_ndv {
            builder = builder.set_column_bloom_filter_ndv(path, ndv);
        }
    }
    if !options.key_value_metadata.is_empty() {
        let mut pairs: Vec<KeyValue> = options
            .key_value_metadata
            .iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
            .collect();
        pairs.sort_by(|a, b| a.key.cmp(&b.key));
        builder = builder.set_key_value_metadata(Some(pairs));
    }
    Ok(builder.build())
}
