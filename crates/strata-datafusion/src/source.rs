//! [`StrataSource`]: the scan of Parquet files through strata, as a
//! DataFusion [`FileSource`].
//!
//! A scan is planned by DataFusion and run file by file: the source is
//! told the table's schema, the projection and the filters, and then
//! opens each [`PartitionedFile`] of its partition with a
//! [`StrataOpener`]. Opening a file:
//!
//! 1. loads its footer through the object store (one suffix request of
//!    `metadata_size_hint` bytes where the footer fits), or takes it from
//!    the session's file metadata cache, where the file is unchanged,
//! 2. reads it with the table's types where only the Arrow type differs
//!    (`Utf8View` for `Utf8` under `schema_force_view_types`, strings for
//!    binary under `binary_as_string`), so no cast follows the decode,
//! 3. keeps the row groups whose first page lies in the file's byte range
//!    (DataFusion splits large files across partitions by range), whose
//!    statistics may match the filters (DataFusion's `PruningPredicate`
//!    over strata's `StatisticsConverter`) and whose Bloom filters may
//!    hold the literals a filter compares a column with, and skips the
//!    pages whose column index rules a filter out,
//! 4. streams the projected columns of those row groups through strata's
//!    push decoder, and hands each batch to DataFusion through the C Data
//!    Interface ([`crate::bridge`]), without copying a value.
//!
//! Filters skip data; by default they do not drop rows: every filter is
//! reported as not pushed down, so DataFusion keeps its own filter above
//! the scan. Under `pushdown_filters`, the filters on file columns also
//! run inside the scan as strata row filters ([`crate::filter`]), are
//! reported as pushed down, and DataFusion drops its own.
//! Columns the table has and a file lacks, and columns whose type differs
//! from the table's, are filled in and cast by DataFusion's batch adapter,
//! as its own Parquet source does.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema};
use arrow59::datatypes::{DataType as DfDataType, SchemaRef as DfSchemaRef};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result, ScalarValue};
use datafusion::config::{ConfigOptions, TableParquetOptions};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{
    FileOpenFuture, FileOpener, FileScanConfig, FileSource,
};
use datafusion::datasource::projection::{ProjectionOpener, SplitProjection};
use datafusion::datasource::table_schema::TableSchema;
use datafusion::execution::cache::cache_manager::FileMetadataCache;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_expr::utils::collect_columns;
use datafusion::physical_expr::{conjunction, split_conjunction};
use datafusion::physical_expr_adapter::{
    BatchAdapterFactory, DefaultPhysicalExprAdapterFactory, PhysicalExprAdapterFactory,
    replace_columns_with_literals,
};
use datafusion::physical_optimizer::pruning::{PruningPredicate, build_pruning_predicate};
use datafusion::physical_plan::filter_pushdown::{FilterPushdownPropagation, PushedDown};
use datafusion::physical_plan::metrics::{Count, ExecutionPlanMetricsSet, MetricBuilder, Time};
use datafusion::physical_plan::{DisplayFormatType, PhysicalExpr, apply_expression_roots};
use futures::{StreamExt, TryStreamExt};
use object_store13::ObjectStore;
use strata_arrow::ProjectionMask;
use strata_arrow::arrow_reader::statistics::StatisticsConverter;
use strata_arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, RowSelection};
use strata_arrow::async_reader::{AsyncFileReader, ParquetRecordBatchStreamBuilder};
use strata_file::metadata::{PageIndexPolicy, RowGroupMetaData};

use crate::bridge;
use crate::filter::{self, FileRowFilter};
use crate::statistics::{
    BloomFilterStatistics, ColumnBloomFilters, PagePruningStatistics, RowGroupPruningStatistics,
    column_orders,
};
use crate::store::ObjectStoreFileReader;

/// The file type DataFusion shows for a strata scan.
pub(crate) const FILE_TYPE: &str = "parquet";

/// A scan of Parquet files read by strata (DataFusion's `FileSource`).
///
/// Made by [`StrataFormat::file_source`](crate::StrataFormat); DataFusion
/// sets its projection, filters and batch size while planning.
#[derive(Clone)]
pub struct StrataSource {
    table_schema: TableSchema,
    options: Arc<TableParquetOptions>,
    projection: SplitProjection,
    predicate: Option<Arc<dyn PhysicalExpr>>,
    /// The filters evaluated inside the scan (reported as pushed down).
    row_predicate: Option<Arc<dyn PhysicalExpr>>,
    batch_size: Option<usize>,
    metrics: ExecutionPlanMetricsSet,
    /// Where decoded footers are kept between scans (the session's).
    metadata_cache: Option<Arc<FileMetadataCache>>,
}

impl fmt::Debug for StrataSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StrataSource")
            .field("file_schema", self.table_schema.file_schema())
            .field("predicate", &self.predicate)
            .field("batch_size", &self.batch_size)
            .finish_non_exhaustive()
    }
}

impl StrataSource {
    /// A scan of files with `table_schema`, read under `options` (the
    /// `datafusion.execution.parquet.*` reader settings that apply:
    /// `pruning`, `skip_metadata`, `metadata_size_hint`,
    /// `schema_force_view_types`, `binary_as_string`).
    pub fn new(table_schema: impl Into<TableSchema>, options: TableParquetOptions) -> Self {
        let table_schema = table_schema.into();
        Self {
            projection: SplitProjection::unprojected(&table_schema),
            table_schema,
            options: Arc::new(options),
            predicate: None,
            row_predicate: None,
            batch_size: None,
            metrics: ExecutionPlanMetricsSet::new(),
            metadata_cache: None,
        }
    }

    /// The scan keeping the footers it decodes in `cache` and taking them
    /// from it (DataFusion's file metadata cache: the session runtime's
    /// `cache_manager.get_file_metadata_cache()`).
    pub fn with_metadata_cache(mut self, cache: Arc<FileMetadataCache>) -> Self {
        self.metadata_cache = Some(cache);
        self
    }

    /// The options the scan reads under.
    pub fn options(&self) -> &TableParquetOptions {
        &self.options
    }

    /// The scan with these reader options.
    pub fn with_options(mut self, options: TableParquetOptions) -> Self {
        self.options = Arc::new(options);
        self
    }

    /// The filters the scan prunes row groups by, all in one conjunction.
    pub fn predicate(&self) -> Option<&Arc<dyn PhysicalExpr>> {
        self.predicate.as_ref()
    }

    /// The scan pruning row groups by `predicate` (over the table's
    /// columns), as well as by any filters it already had.
    pub fn with_predicate(mut self, predicate: Arc<dyn PhysicalExpr>) -> Self {
        and_also(&mut self.predicate, predicate);
        self
    }

    /// The filters run inside the scan as row filters (those DataFusion
    /// was told are pushed down, under `pushdown_filters`), all in one
    /// conjunction.
    pub fn row_predicate(&self) -> Option<&Arc<dyn PhysicalExpr>> {
        self.row_predicate.as_ref()
    }

    /// The scan dropping the rows `predicate` (over the table's columns,
    /// naming file columns only) does not keep, as well as those its row
    /// filters already dropped. Whoever calls this answers for the rows:
    /// DataFusion does not filter them again. For rebuilding a planned
    /// scan elsewhere, as a plan codec does.
    pub fn with_row_predicate(mut self, predicate: Arc<dyn PhysicalExpr>) -> Self {
        and_also(&mut self.row_predicate, predicate);
        self
    }
}

/// `slot`'s predicate and `predicate` too (just `predicate` where `slot`
/// held none).
fn and_also(slot: &mut Option<Arc<dyn PhysicalExpr>>, predicate: Arc<dyn PhysicalExpr>) {
    *slot = Some(match slot.take() {
        Some(old) => conjunction([old, predicate]),
        None => predicate,
    });
}

impl FileSource for StrataSource {
    fn create_file_opener(
        &self,
        object_store: Arc<dyn ObjectStore>,
        base_config: &FileScanConfig,
        partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        let metrics = OpenerMetrics::new(&self.metrics, partition);
        let inner = Arc::new(StrataOpener {
            source: Arc::new(self.clone()),
            store: object_store,
            limit: base_config.limit,
            file_indices: self.projection.file_indices.clone(),
            metrics,
        });
        ProjectionOpener::try_new(
            self.projection.clone(),
            inner,
            self.table_schema.file_schema(),
        )
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        let mut source = self.clone();
        source.batch_size = Some(batch_size);
        Arc::new(source)
    }

    fn filter(&self) -> Option<Arc<dyn PhysicalExpr>> {
        self.predicate.clone()
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection.source)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        FILE_TYPE
    }

    fn fmt_extra(&self, t: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match t {
            DisplayFormatType::Default | DisplayFormatType::Verbose => {
                f.write_str(", reader=strata")?;
                if let Some(predicate) = &self.predicate {
                    write!(f, ", predicate={predicate}")?;
                }
                Ok(())
            }
            DisplayFormatType::TreeRender => {
                if let Some(predicate) = &self.predicate {
                    writeln!(f, "predicate={predicate}")?;
                }
                Ok(())
            }
        }
    }

    fn try_pushdown_filters(
        &self,
        filters: Vec<Arc<dyn PhysicalExpr>>,
        config: &ConfigOptions,
    ) -> Result<FilterPushdownPropagation<Arc<dyn FileSource>>> {
        if filters.is_empty() {
            return Ok(FilterPushdownPropagation::with_parent_pushdown_result(
                vec![],
            ));
        }
        // Every filter prunes. Under `pushdown_filters`, those on file
        // columns also run inside the scan as row filters, and DataFusion
        // drops its own; the rest stay in DataFusion's filter above.
        let pushdown =
            self.options.global.pushdown_filters || config.execution.parquet.pushdown_filters;
        let mut source = self.clone();
        let mut reported = Vec::with_capacity(filters.len());
        for filter in &filters {
            if pushdown && filter::can_push_down(filter, self.table_schema.file_schema()) {
                source = source.with_row_predicate(Arc::clone(filter));
                reported.push(PushedDown::Yes);
            } else {
                reported.push(PushedDown::No);
            }
        }
        let source = source.with_predicate(conjunction(filters));
        Ok(
            FilterPushdownPropagation::with_parent_pushdown_result(reported)
                .with_updated_node(Arc::new(source) as Arc<dyn FileSource>),
        )
    }

    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        let merged = self.projection.source.try_merge(projection)?;
        let mut source = self.clone();
        source.projection = SplitProjection::new(self.table_schema.file_schema(), &merged);
        Ok(Some(Arc::new(source)))
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        apply_expression_roots(
            self.predicate
                .iter()
                .chain(self.projection.source.iter().map(|p| &p.expr)),
            f,
        )
    }
}

/// What a scan counts, per partition.
#[derive(Debug, Clone)]
struct OpenerMetrics {
    /// Bytes fetched from the store (footers and pages).
    bytes_scanned: Count,
    /// Row groups read.
    row_groups_matched: Count,
    /// Row groups skipped because their statistics rule the filters out.
    row_groups_pruned_statistics: Count,
    /// Row groups skipped because their Bloom filters hold none of the
    /// literals a filter compares a column with.
    row_groups_pruned_bloom_filter: Count,
    /// Row groups left to another partition (outside the file range).
    row_groups_pruned_range: Count,
    /// Data pages skipped because their column index rules a filter out.
    pages_pruned: Count,
    /// Rows of kept row groups skipped with those pages.
    page_index_rows_pruned: Count,
    /// Rows the filters run inside the scan dropped.
    pushdown_rows_pruned: Count,
    /// Filters that could not be turned into a pruning predicate.
    predicate_errors: Count,
    /// Time spent loading footers.
    metadata_load_time: Time,
    /// Time spent inside the reader's stream: decoding pages, running row
    /// filters and handing batches across the C Data Interface. Waits for
    /// bytes from the store are not in it (the stream is pending then).
    decode_time: Time,
}

impl OpenerMetrics {
    fn new(metrics: &ExecutionPlanMetricsSet, partition: usize) -> Self {
        let counter = |name: &'static str| MetricBuilder::new(metrics).counter(name, partition);
        Self {
            bytes_scanned: counter("bytes_scanned"),
            row_groups_matched: counter("row_groups_matched_statistics"),
            row_groups_pruned_statistics: counter("row_groups_pruned_statistics"),
            row_groups_pruned_bloom_filter: counter("row_groups_pruned_bloom_filter"),
            row_groups_pruned_range: counter("row_groups_pruned_range"),
            pages_pruned: counter("page_index_pages_pruned"),
            page_index_rows_pruned: counter("page_index_rows_pruned"),
            pushdown_rows_pruned: counter("pushdown_rows_pruned"),
            predicate_errors: counter("num_predicate_creation_errors"),
            metadata_load_time: MetricBuilder::new(metrics)
                .subset_time("metadata_load_time", partition),
            decode_time: MetricBuilder::new(metrics).subset_time("decode_time", partition),
        }
    }
}

/// Opens the files of one partition of a [`StrataSource`] scan.
///
/// Its batches hold the logical file columns the projection needs, in
/// the table's order and types; DataFusion's `ProjectionOpener` around it
/// adds partition columns and computes the projection's expressions.
pub struct StrataOpener {
    source: Arc<StrataSource>,
    store: Arc<dyn ObjectStore>,
    limit: Option<usize>,
    file_indices: Vec<usize>,
    metrics: OpenerMetrics,
}

impl FileOpener for StrataOpener {
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let source = Arc::clone(&self.source);
        let store = Arc::clone(&self.store);
        let limit = self.limit;
        let file_indices = self.file_indices.clone();
        let metrics = self.metrics.clone();
        let location = file.object_meta.location.to_string();
        Ok(Box::pin(async move {
            open_file(source, store, file, limit, file_indices, metrics)
                .await
                .map_err(|e| e.context(format!("reading Parquet file {location} with strata")))
        }))
    }
}

/// A strata error as DataFusion's.
pub(crate) fn external(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> DataFusionError {
    DataFusionError::External(e.into())
}

/// An Arrow error at the boundary as DataFusion's.
fn arrow_error(e: arrow59::error::ArrowError) -> DataFusionError {
    DataFusionError::ArrowError(Box::new(e), None)
}

/// The body of [`StrataOpener::open`].
async fn open_file(
    source: Arc<StrataSource>,
    store: Arc<dyn ObjectStore>,
    file: PartitionedFile,
    limit: Option<usize>,
    file_indices: Vec<usize>,
    metrics: OpenerMetrics,
) -> Result<futures::stream::BoxStream<'static, Result<arrow59::array::RecordBatch>>> {
    let options = &source.options.global;
    let hint = file.metadata_size_hint.or(options.metadata_size_hint);
    let mut reader = ObjectStoreFileReader::new(store, file.object_meta.clone())
        .with_footer_size_hint(hint)
        .with_bytes_counter(metrics.bytes_scanned.clone())
        .with_metadata_cache(source.metadata_cache.clone());
    let logical = Arc::clone(source.table_schema.file_schema());

    // The page index is loaded only where it can prune pages.
    let prunes = options.pruning && source.predicate.is_some();
    let page_index = if prunes && options.enable_page_index {
        PageIndexPolicy::Optional
    } else {
        PageIndexPolicy::Skip
    };
    let reader_options = ArrowReaderOptions::new().with_page_index_policy(page_index);
    let load = metrics.metadata_load_time.timer();
    let loaded = ArrowReaderMetadata::load_async(&mut reader, reader_options.clone())
        .await
        .map_err(external)?;
    // Read with the table's types where only the Arrow type differs.
    let hinted = read_schema(loaded.schema(), &logical);
    let metadata = match hinted {
        Some(schema) => ArrowReaderMetadata::try_new(
            Arc::clone(loaded.metadata()),
            reader_options.with_schema(Arc::new(schema)),
        )
        .map_err(external)?,
        None => loaded,
    };
    load.done();
    let physical = Arc::new(bridge::schema_to_df(metadata.schema()).map_err(arrow_error)?);

    // The logical columns to read, by name, in the table's order.
    let wanted = Arc::new(logical.project(&file_indices)?);
    let mut roots: Vec<usize> = wanted
        .fields()
        .iter()
        .filter_map(|f| metadata.schema().index_of(f.name()).ok())
        .collect();
    roots.sort_unstable();
    roots.dedup();
    let mask = ProjectionMask::roots(metadata.parquet_schema(), roots.iter().copied());

    let row_groups = metadata.metadata().row_groups();
    let mut keep: Vec<usize> = (0..row_groups.len())
        .filter(|&i| match &file.range {
            None => true,
            Some(range) => first_page_offset(&row_groups[i]).is_some_and(|o| range.contains(o)),
        })
        .collect();
    metrics
        .row_groups_pruned_range
        .add(row_groups.len() - keep.len());
    let mut builder = ParquetRecordBatchStreamBuilder::new_with_metadata(reader, metadata.clone())
        .with_projection(mask);
    let mut selection = None;
    if prunes && let Some(predicate) = &source.predicate {
        let predicate = file_predicate(&source, &file, predicate, &logical, &physical)?;
        if let Some(pruning) =
            build_pruning_predicate(Arc::clone(&predicate), &physical, &metrics.predicate_errors)
        {
            let before = keep.len();
            keep = prune_row_groups(&pruning, &metadata, keep)?;
            metrics
                .row_groups_pruned_statistics
                .add(before - keep.len());
            if options.bloom_filter_on_read && !keep.is_empty() {
                let before = keep.len();
                keep = prune_by_bloom_filters(&mut builder, &pruning, keep).await?;
                metrics
                    .row_groups_pruned_bloom_filter
                    .add(before - keep.len());
            }
        }
        selection = prune_pages(&predicate, &physical, &metadata, &keep, &metrics);
    }
    if let Some(row_predicate) = &source.row_predicate {
        let row_predicate = file_predicate(&source, &file, row_predicate, &logical, &physical)?;
        match filter::file_row_filter(
            &row_predicate,
            &physical,
            &metadata,
            &metrics.pushdown_rows_pruned,
        )? {
            FileRowFilter::All => {}
            FileRowFilter::None => {
                keep.clear();
                selection = None;
            }
            FileRowFilter::Rows(row_filter) => builder = builder.with_row_filter(row_filter),
        }
    }
    metrics.row_groups_matched.add(keep.len());
    builder = builder.with_row_groups(keep);
    if let Some(selection) = selection {
        builder = builder.with_row_selection(selection);
    }
    if let Some(batch_size) = source.batch_size {
        builder = builder.with_batch_size(batch_size);
    }
    if let Some(limit) = limit {
        builder = builder.with_limit(limit);
    }
    let stream = builder.build().map_err(external)?;
    let read = Arc::new(bridge::schema_to_df(stream.schema()).map_err(arrow_error)?);
    let adapter = if read == wanted {
        None
    } else {
        Some(BatchAdapterFactory::new(Arc::clone(&wanted)).make_adapter(&read)?)
    };
    // An error while reading names the file, as an error opening it does.
    let location = file.object_meta.location.to_string();
    let decoded = stream
        .map_err(move |e| {
            external(e).context(format!("reading Parquet file {location} with strata"))
        })
        .and_then(move |batch| {
            let converted = bridge::batch_to_df(&batch, &read)
                .map_err(arrow_error)
                .and_then(|b| match &adapter {
                    Some(adapter) => adapter.adapt_batch(&b),
                    None => Ok(b),
                });
            futures::future::ready(converted)
        })
        .boxed();
    Ok(TimedPolls {
        inner: decoded,
        time: metrics.decode_time,
    }
    .boxed())
}

/// A stream that adds the time spent inside its inner stream's polls to a
/// metric: the work done between the moments the inner stream waits.
struct TimedPolls<S> {
    inner: S,
    time: Time,
}

impl<S: futures::Stream + Unpin> futures::Stream for TimedPolls<S> {
    type Item = S::Item;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<S::Item>> {
        let this = self.get_mut();
        let timer = this.time.timer();
        let polled = this.inner.poll_next_unpin(cx);
        timer.done();
        polled
    }
}

/// The scan's predicate as it applies to one file: partition columns
/// (constants within a file) replaced by their values, and columns
/// rewritten from the table's types to the file's.
fn file_predicate(
    source: &StrataSource,
    file: &PartitionedFile,
    predicate: &Arc<dyn PhysicalExpr>,
    logical: &DfSchemaRef,
    physical: &DfSchemaRef,
) -> Result<Arc<dyn PhysicalExpr>> {
    let partition_values: HashMap<&str, ScalarValue> = source
        .table_schema
        .table_partition_cols()
        .iter()
        .zip(&file.partition_values)
        .map(|(field, value)| (field.name().as_str(), value.clone()))
        .collect();
    let predicate = if partition_values.is_empty() {
        Arc::clone(predicate)
    } else {
        replace_columns_with_literals(Arc::clone(predicate), &partition_values)?
    };
    DefaultPhysicalExprAdapterFactory
        .create(Arc::clone(logical), Arc::clone(physical))?
        .rewrite(predicate)
}

/// The row groups of `keep` whose statistics may satisfy `pruning`.
fn prune_row_groups(
    pruning: &PruningPredicate,
    metadata: &ArrowReaderMetadata,
    keep: Vec<usize>,
) -> Result<Vec<usize>> {
    let statistics = RowGroupPruningStatistics::new(metadata, &keep);
    let matches = pruning.prune(&statistics)?;
    Ok(kept(keep, &matches))
}

/// The entries of `keep` whose `matches` is true.
fn kept(keep: Vec<usize>, matches: &[bool]) -> Vec<usize> {
    keep.into_iter()
        .zip(matches)
        .filter_map(|(i, &m)| m.then_some(i))
        .collect()
}

/// The row groups of `keep` whose Bloom filters may hold the literals
/// `pruning` compares columns with (`=`, `IN`). A filter that cannot be
/// read rules nothing out: it only ever skips data.
async fn prune_by_bloom_filters<T: AsyncFileReader + Send + 'static>(
    builder: &mut ParquetRecordBatchStreamBuilder<T>,
    pruning: &PruningPredicate,
    keep: Vec<usize>,
) -> Result<Vec<usize>> {
    let mut columns = HashMap::new();
    for guarantee in pruning.literal_guarantees() {
        let name = guarantee.column.name();
        if columns.contains_key(name) {
            continue;
        }
        let leaf = StatisticsConverter::try_new(name, builder.schema(), builder.parquet_schema())
            .ok()
            .and_then(|c| c.parquet_column_index());
        let Some(leaf) = leaf else {
            continue;
        };
        let Some(column) = builder.parquet_schema().columns().get(leaf) else {
            continue;
        };
        let (physical_type, type_length) = (column.physical_type(), column.type_length());
        let mut filters = Vec::with_capacity(keep.len());
        for &row_group in &keep {
            let filter = builder
                .get_row_group_column_bloom_filter(row_group, leaf)
                .await
                .ok()
                .flatten();
            filters.push(filter);
        }
        if filters.iter().any(Option::is_some) {
            columns.insert(
                name.to_owned(),
                ColumnBloomFilters::new(physical_type, type_length, filters),
            );
        }
    }
    if columns.is_empty() {
        return Ok(keep);
    }
    let statistics = BloomFilterStatistics::new(keep.len(), columns);
    let matches = pruning.prune(&statistics)?;
    Ok(kept(keep, &matches))
}

/// The rows of the row groups `keep` left once the pages whose column
/// index rules out a conjunct of `predicate` on one column are skipped;
/// `None` when no page can be skipped (or the file has no page index).
fn prune_pages(
    predicate: &Arc<dyn PhysicalExpr>,
    physical: &DfSchemaRef,
    metadata: &ArrowReaderMetadata,
    keep: &[usize],
    metrics: &OpenerMetrics,
) -> Option<RowSelection> {
    let footer = metadata.metadata();
    let page_index = footer.page_index()?;
    if keep.is_empty() || !page_index.is_complete() {
        return None;
    }
    let groups = footer.row_groups();
    let mut selection: Option<RowSelection> = None;
    for conjunct in split_conjunction(predicate) {
        let columns = collect_columns(conjunct);
        let [column] = columns.iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        let Ok(converter) = StatisticsConverter::try_new(
            column.name(),
            metadata.schema(),
            metadata.parquet_schema(),
        ) else {
            continue;
        };
        let converter = converter.with_column_orders(column_orders(metadata));
        let Some(statistics) =
            PagePruningStatistics::try_new(&converter, page_index.as_ref(), groups, keep)
        else {
            continue;
        };
        let Some(pruning) =
            build_pruning_predicate(Arc::clone(conjunct), physical, &metrics.predicate_errors)
        else {
            continue;
        };
        let Ok(pages) = pruning.prune(&statistics) else {
            continue;
        };
        let skipped = pages.iter().filter(|&&p| !p).count();
        if skipped == 0 {
            continue;
        }
        metrics.pages_pruned.add(skipped);
        let pages = arrow_array::BooleanArray::from(pages);
        let Ok(pages) =
            converter.data_page_row_selection(&pages, page_index.as_ref(), groups, keep)
        else {
            continue;
        };
        selection = Some(match selection {
            Some(s) => s.intersection(&pages),
            None => pages,
        });
    }
    if let Some(s) = &selection {
        metrics.page_index_rows_pruned.add(s.skipped_row_count());
    }
    selection
}

/// Where a row group's data starts: its first column chunk's dictionary
/// page, or else its first data page. DataFusion assigns a row group to
/// the partition whose byte range holds this offset.
fn first_page_offset(row_group: &RowGroupMetaData) -> Option<i64> {
    let chunk = row_group.columns().first()?;
    Some(
        chunk
            .dictionary_page_offset()
            .filter(|&o| o > 0)
            .unwrap_or_else(|| chunk.data_page_offset()),
    )
}

/// The file's Arrow schema with the table's type taken for each top-level
/// column where the two differ only in how Arrow holds the same bytes
/// (`Utf8`/`LargeUtf8`/`Utf8View`, `Binary`/`LargeBinary`/`BinaryView`,
/// binary read as strings); `None` when nothing changes.
fn read_schema(file: &Schema, table: &arrow59::datatypes::Schema) -> Option<Schema> {
    let mut changed = false;
    let fields: Vec<Field> = file
        .fields()
        .iter()
        .map(|field| {
            let wanted = table
                .field_with_name(field.name())
                .ok()
                .and_then(|t| byte_type(field.data_type(), t.data_type()));
            match wanted {
                Some(data_type) if &data_type != field.data_type() => {
                    changed = true;
                    field.as_ref().clone().with_data_type(data_type)
                }
                _ => field.as_ref().clone(),
            }
        })
        .collect();
    changed.then(|| Schema::new_with_metadata(fields, file.metadata().clone()))
}

/// The type a column of `file` type is read as when the table says
/// `table`, if the two are ways of holding the same bytes.
fn byte_type(file: &DataType, table: &DfDataType) -> Option<DataType> {
    let file_is_string = matches!(
        file,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    );
    let file_is_binary = matches!(
        file,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView
    );
    if !file_is_string && !file_is_binary {
        return None;
    }
    match table {
        DfDataType::Utf8 => Some(DataType::Utf8),
        DfDataType::LargeUtf8 => Some(DataType::LargeUtf8),
        DfDataType::Utf8View => Some(DataType::Utf8View),
        DfDataType::Binary if file_is_binary => Some(DataType::Binary),
        DfDataType::LargeBinary if file_is_binary => Some(DataType::LargeBinary),
        DfDataType::BinaryView if file_is_binary => Some(DataType::BinaryView),
        _ => None,
    }
}
