//! What a footer decode may leave out: [`ParquetMetaDataOptions`] and
//! [`ParquetStatisticsPolicy`], with arrow-rs's names
//! (`parquet::file::metadata`).
//!
//! A footer holds one `ColumnMetaData` per column per row group, and most
//! of each is statistics: min/max, page encoding counts, level histograms.
//! A reader that will read ten columns of a 10,000-column file needs none
//! of the other 9,990 columns' statistics; a policy names the columns whose
//! statistics are kept, and the decoder skips the rest over the wire
//! without building them. A schema already known (from an earlier file of
//! a dataset) lets the decoder skip the footer's schema elements too.
//!
//! What is skipped decodes as absent (`None`): a chunk whose statistics
//! were skipped looks like a chunk written without them. Everything a
//! reader needs to find and decode the pages (offsets, sizes, codec, value
//! counts, path, encodings) is always decoded.

use std::collections::HashSet;
use std::sync::Arc;

use crate::schema::SchemaDescriptor;

/// Which columns' statistics of one kind a footer decode keeps.
///
/// Columns are leaf indexes of the schema (the position of a chunk in its
/// row group).
///
/// ```
/// use strata_format::metadata::ParquetStatisticsPolicy;
///
/// let policy = ParquetStatisticsPolicy::skip_except(&[0, 3]);
/// assert!(!policy.is_skip(3));
/// assert!(policy.is_skip(1));
/// assert!(ParquetStatisticsPolicy::skip_except(&[]).is_skip(0));
/// assert!(!ParquetStatisticsPolicy::default().is_skip(7));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ParquetStatisticsPolicy {
    /// Keep them for every column (the default).
    #[default]
    KeepAll,
    /// Skip them for every column.
    SkipAll,
    /// Skip them for every column but these.
    SkipExcept(Arc<HashSet<usize>>),
}

impl ParquetStatisticsPolicy {
    /// Skip every column but those in `keep`; [`SkipAll`](Self::SkipAll)
    /// when `keep` is empty.
    pub fn skip_except(keep: &[usize]) -> Self {
        if keep.is_empty() {
            Self::SkipAll
        } else {
            Self::SkipExcept(Arc::new(keep.iter().copied().collect()))
        }
    }

    /// Whether column `column`'s statistics are skipped.
    #[inline]
    pub fn is_skip(&self, column: usize) -> bool {
        match self {
            Self::KeepAll => false,
            Self::SkipAll => true,
            Self::SkipExcept(keep) => !keep.contains(&column),
        }
    }
}

/// What a footer decode leaves out (arrow-rs's `ParquetMetaDataOptions`).
///
/// The default keeps everything (and asks for encoding counts as a set,
/// as arrow-rs's does).
///
/// ```
/// use strata_format::footer::decode_metadata_with_options;
/// use strata_format::metadata::{ParquetMetaDataOptions, ParquetStatisticsPolicy};
///
/// let options = ParquetMetaDataOptions::new()
///     .with_column_stats_policy(ParquetStatisticsPolicy::skip_except(&[2]))
///     .with_encoding_stats_policy(ParquetStatisticsPolicy::SkipAll);
/// assert!(options.skip_column_stats(0));
/// assert!(!options.skip_column_stats(2));
/// assert!(options.skip_encoding_stats(2));
/// assert!(!options.skip_size_stats(0));
/// # let _ = decode_metadata_with_options;
/// ```
#[derive(Debug, Clone)]
pub struct ParquetMetaDataOptions {
    schema: Option<Arc<SchemaDescriptor>>,
    encoding_stats_as_mask: bool,
    encoding_stats_policy: ParquetStatisticsPolicy,
    column_stats_policy: ParquetStatisticsPolicy,
    size_stats_policy: ParquetStatisticsPolicy,
}

impl Default for ParquetMetaDataOptions {
    fn default() -> Self {
        Self {
            schema: None,
            encoding_stats_as_mask: true,
            encoding_stats_policy: ParquetStatisticsPolicy::KeepAll,
            column_stats_policy: ParquetStatisticsPolicy::KeepAll,
            size_stats_policy: ParquetStatisticsPolicy::KeepAll,
        }
    }
}

impl ParquetMetaDataOptions {
    /// Options that keep everything.
    pub fn new() -> Self {
        Self::default()
    }

    /// The schema to use instead of the footer's, if one was given.
    pub fn schema(&self) -> Option<&Arc<SchemaDescriptor>> {
        self.schema.as_ref()
    }

    /// Use `schema` instead of decoding the footer's schema elements (which
    /// are then skipped): for the files of a dataset that share one
    /// schema. The decoded footer's `schema` elements are left empty.
    pub fn set_schema(&mut self, schema: Arc<SchemaDescriptor>) {
        self.schema = Some(schema);
    }

    /// [`set_schema`](Self::set_schema), by value.
    pub fn with_schema(mut self, schema: Arc<SchemaDescriptor>) -> Self {
        self.set_schema(schema);
        self
    }

    /// Whether page encoding counts are wanted only as a set of encodings
    /// (arrow-rs's mask form).
    pub fn encoding_stats_as_mask(&self) -> bool {
        self.encoding_stats_as_mask
    }

    /// Ask for page encoding counts as a set of encodings only. strata
    /// keeps one compact form of the counts
    /// (`PageEncodingStatsList`, a few bytes inline) that answers both
    /// the list and the set questions, so this changes nothing it
    /// decodes; it is accepted so that code written for arrow-rs compiles.
    pub fn set_encoding_stats_as_mask(&mut self, as_mask: bool) {
        self.encoding_stats_as_mask = as_mask;
    }

    /// [`set_encoding_stats_as_mask`](Self::set_encoding_stats_as_mask),
    /// by value.
    pub fn with_encoding_stats_as_mask(mut self, as_mask: bool) -> Self {
        self.set_encoding_stats_as_mask(as_mask);
        self
    }

    /// Whether column `column`'s page encoding counts (`encoding_stats`)
    /// are skipped.
    #[inline]
    pub fn skip_encoding_stats(&self, column: usize) -> bool {
        self.encoding_stats_policy.is_skip(column)
    }

    /// Which columns' page encoding counts are kept.
    pub fn set_encoding_stats_policy(&mut self, policy: ParquetStatisticsPolicy) {
        self.encoding_stats_policy = policy;
    }

    /// [`set_encoding_stats_policy`](Self::set_encoding_stats_policy), by
    /// value.
    pub fn with_encoding_stats_policy(mut self, policy: ParquetStatisticsPolicy) -> Self {
        self.set_encoding_stats_policy(policy);
        self
    }

    /// Whether column `column`'s chunk statistics (min/max, null count)
    /// are skipped.
    #[inline]
    pub fn skip_column_stats(&self, column: usize) -> bool {
        self.column_stats_policy.is_skip(column)
    }

    /// Which columns' chunk statistics are kept.
    pub fn set_column_stats_policy(&mut self, policy: ParquetStatisticsPolicy) {
        self.column_stats_policy = policy;
    }

    /// [`set_column_stats_policy`](Self::set_column_stats_policy), by value.
    pub fn with_column_stats_policy(mut self, policy: ParquetStatisticsPolicy) -> Self {
        self.set_column_stats_policy(policy);
        self
    }

    /// Whether column `column`'s size statistics (byte counts, level
    /// histograms) are skipped.
    #[inline]
    pub fn skip_size_stats(&self, column: usize) -> bool {
        self.size_stats_policy.is_skip(column)
    }

    /// Which columns' size statistics are kept.
    pub fn set_size_stats_policy(&mut self, policy: ParquetStatisticsPolicy) {
        self.size_stats_policy = policy;
    }

    /// [`set_size_stats_policy`](Self::set_size_stats_policy), by value.
    pub fn with_size_stats_policy(mut self, policy: ParquetStatisticsPolicy) -> Self {
        self.set_size_stats_policy(policy);
        self
    }
}
