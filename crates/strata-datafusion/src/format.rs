//! [`StrataFormat`], DataFusion's `FileFormat` for `.parquet` files read
//! and written by strata, and [`StrataFormatFactory`], which a session
//! registers for the `parquet` extension.
//!
//! The format answers the planner's questions from each file's footer,
//! loaded through the object store ([`crate::store`]):
//!
//! - the schema: every file's Arrow schema, merged in the order of their
//!   paths, then (as DataFusion's own Parquet format does, under the same
//!   options) without metadata (`skip_metadata`), with strings and binary
//!   as views (`schema_force_view_types`) and binary as strings
//!   (`binary_as_string`);
//! - the statistics: rows, bytes, and each column's null count and bounds
//!   ([`crate::statistics`]);
//! - the scan ([`StrataSource`]) and the write ([`StrataSink`]).

use std::collections::HashMap;
use std::sync::Arc;

use arrow59::datatypes::{
    DataType as DfDataType, Field as DfField, Schema as DfSchema, SchemaRef as DfSchemaRef,
};
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::{DataFusionError, GetExt, Result, Statistics, internal_err, not_impl_err};
use datafusion::config::{ConfigField, TableParquetOptions};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory};
use datafusion::datasource::physical_plan::{
    FileScanConfig, FileScanConfigBuilder, FileSinkConfig, FileSource,
};
use datafusion::datasource::sink::DataSinkExec;
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::logical_expr::dml::InsertOp;
use datafusion::physical_expr::LexRequirement;
use datafusion::physical_plan::ExecutionPlan;
use futures::{StreamExt, TryStreamExt};
use object_store13::{ObjectMeta, ObjectStore};
use strata_arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use strata_file::metadata::PageIndexPolicy;

use crate::bridge;
use crate::sink::StrataSink;
use crate::source::{StrataSource, external};
use crate::statistics::file_statistics;
use crate::store::ObjectStoreFileReader;

/// The extension the format is registered for, without its dot.
const EXTENSION: &str = "parquet";

/// Makes a [`StrataFormat`] for each table or statement that reads or
/// writes `.parquet` files (DataFusion's `FileFormatFactory`).
///
/// Register it in place of DataFusion's Parquet format with
/// [`register_strata`](crate::register_strata) or
/// [`SessionStateBuilder::with_file_formats`](datafusion::execution::session_state::SessionStateBuilder::with_file_formats).
#[derive(Debug, Default, Clone)]
pub struct StrataFormatFactory {
    options: Option<TableParquetOptions>,
}

impl StrataFormatFactory {
    /// A factory whose formats take the session's Parquet options.
    pub fn new() -> Self {
        <Self as Default>::default()
    }

    /// A factory whose formats start from `options` instead of the
    /// session's.
    pub fn new_with_options(options: TableParquetOptions) -> Self {
        Self {
            options: Some(options),
        }
    }
}

impl GetExt for StrataFormatFactory {
    fn get_ext(&self) -> String {
        EXTENSION.to_owned()
    }
}

impl FileFormatFactory for StrataFormatFactory {
    fn create(
        &self,
        state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> Result<Arc<dyn FileFormat>> {
        let mut options = match &self.options {
            Some(options) => options.clone(),
            None => state.default_table_options().parquet,
        };
        // A statement's options: `format.compression`, `format.metadata::k`,
        // `format.compression::column`. Others (`execution.*`) are not ours.
        for (key, value) in format_options {
            if let Some(name) = key.strip_prefix("format.") {
                options.set(name, value)?;
            }
        }
        Ok(Arc::new(StrataFormat::new().with_options(options)))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(StrataFormat::new())
    }
}

/// Parquet files read and written by strata (DataFusion's `FileFormat`).
#[derive(Debug, Default, Clone)]
pub struct StrataFormat {
    options: TableParquetOptions,
}

impl StrataFormat {
    /// The format with DataFusion's default Parquet options.
    pub fn new() -> Self {
        Self::default()
    }

    /// The format with `options`.
    pub fn with_options(mut self, options: TableParquetOptions) -> Self {
        self.options = options;
        self
    }

    /// The format's options.
    pub fn options(&self) -> &TableParquetOptions {
        &self.options
    }

    /// The footer of `object`, with its Arrow schema (kept in the
    /// session's file metadata cache for the scans to come). The page
    /// index is loaded with it where the options enable it, as DataFusion's
    /// own reader does with a cache: a scan with a predicate would
    /// otherwise load it, and planning reads every file once anyway.
    async fn metadata(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        object: &ObjectMeta,
    ) -> Result<ArrowReaderMetadata> {
        let cache = state.runtime_env().cache_manager.get_file_metadata_cache();
        let mut reader = ObjectStoreFileReader::new(Arc::clone(store), object.clone())
            .with_footer_size_hint(self.options.global.metadata_size_hint)
            .with_metadata_cache(Some(cache));
        let page_index = if self.options.global.enable_page_index {
            PageIndexPolicy::Optional
        } else {
            PageIndexPolicy::Skip
        };
        let options = ArrowReaderOptions::new().with_page_index_policy(page_index);
        ArrowReaderMetadata::load_async(&mut reader, options)
            .await
            .map_err(|e| {
                external(e).context(format!(
                    "reading the footer of Parquet file {} with strata",
                    object.location
                ))
            })
    }

    /// The path of `object` and its Arrow schema.
    async fn schema_of(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        object: &ObjectMeta,
    ) -> Result<(String, DfSchema)> {
        let metadata = self.metadata(state, store, object).await?;
        let schema = bridge::schema_to_df(metadata.schema())
            .map_err(|e| DataFusionError::ArrowError(Box::new(e), None))?;
        Ok((object.location.to_string(), schema))
    }

    /// A file's schema as the table sees it, under the options.
    fn table_view(&self, schema: DfSchema) -> DfSchema {
        let global = &self.options.global;
        let fields: Vec<DfField> = schema
            .fields()
            .iter()
            .map(|field| {
                let mut field = field.as_ref().clone();
                if global.skip_metadata {
                    field = field.with_metadata(HashMap::new());
                }
                let mut data_type = field.data_type().clone();
                if global.binary_as_string {
                    data_type = match data_type {
                        DfDataType::Binary => DfDataType::Utf8,
                        DfDataType::LargeBinary => DfDataType::LargeUtf8,
                        DfDataType::BinaryView => DfDataType::Utf8View,
                        other => other,
                    };
                }
                if global.schema_force_view_types {
                    data_type = match data_type {
                        DfDataType::Utf8 | DfDataType::LargeUtf8 => DfDataType::Utf8View,
                        DfDataType::Binary | DfDataType::LargeBinary => DfDataType::BinaryView,
                        other => other,
                    };
                }
                field.with_data_type(data_type)
            })
            .collect();
        if global.skip_metadata {
            DfSchema::new(fields)
        } else {
            DfSchema::new_with_metadata(fields, schema.metadata().clone())
        }
    }
}

#[async_trait]
impl FileFormat for StrataFormat {
    fn get_ext(&self) -> String {
        EXTENSION.to_owned()
    }

    fn get_ext_with_compression(&self, compression: &FileCompressionType) -> Result<String> {
        if compression.is_compressed() {
            return not_impl_err!("Parquet files are not compressed as a whole");
        }
        Ok(self.get_ext())
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        None
    }

    async fn infer_schema(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        objects: &[ObjectMeta],
    ) -> Result<DfSchemaRef> {
        let concurrency = state
            .config_options()
            .execution
            .meta_fetch_concurrency
            .get();
        let loads: Vec<_> = objects
            .iter()
            .map(|object| self.schema_of(state, store, object))
            .collect();
        let mut schemas: Vec<(String, DfSchema)> = futures::stream::iter(loads)
            .buffer_unordered(concurrency)
            .try_collect()
            .await?;
        // Merged in the order of the files' paths, whatever order they
        // were listed or loaded in.
        schemas.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged = DfSchema::empty();
        for (location, schema) in schemas {
            merged = DfSchema::try_merge([merged, self.table_view(schema)]).map_err(|e| {
                DataFusionError::ArrowError(Box::new(e), None).context(format!(
                    "merging the schema of Parquet file {location} with the files before it"
                ))
            })?;
        }
        Ok(Arc::new(merged))
    }

    async fn infer_stats(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: DfSchemaRef,
        object: &ObjectMeta,
    ) -> Result<Statistics> {
        let metadata = self.metadata(state, store, object).await?;
        Ok(file_statistics(&metadata, &table_schema))
    }

    async fn create_physical_plan(
        &self,
        state: &dyn Session,
        conf: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        // The source came from `file_source` and holds the projection and
        // filters DataFusion pushed into it; a scan planned around another
        // format's source would lose them, so it is refused.
        let Some(source) = conf.file_source().downcast_ref::<StrataSource>() else {
            return internal_err!(
                "a strata Parquet scan was planned with a {} source",
                conf.file_source().file_type()
            );
        };
        let cache = state.runtime_env().cache_manager.get_file_metadata_cache();
        let source = source
            .clone()
            .with_options(self.options.clone())
            .with_metadata_cache(cache);
        let conf = FileScanConfigBuilder::from(conf)
            .with_source(Arc::new(source))
            .build();
        Ok(DataSourceExec::from_data_source(conf))
    }

    async fn create_writer_physical_plan(
        &self,
        input: Arc<dyn ExecutionPlan>,
        _state: &dyn Session,
        conf: FileSinkConfig,
        order_requirements: Option<LexRequirement>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if conf.insert_op != InsertOp::Append {
            return not_impl_err!("{} is not supported for Parquet files", conf.insert_op);
        }
        let sink = Arc::new(StrataSink::new(conf, self.options.clone()));
        Ok(Arc::new(DataSinkExec::new(input, sink, order_requirements)))
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        Arc::new(StrataSource::new(table_schema, self.options.clone()))
    }
}
