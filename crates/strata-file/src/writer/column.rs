//! [`ColumnChunkWriter`]: one leaf column of one row group, from batches of
//! values and levels to finished pages; [`ColumnWriter`]: the same, untyped.

use std::sync::Arc;

use strata_encoding::{ByteArray, FixedLenByteArray, Int96, LevelEncoder, count_levels};
use strata_format::ColumnDescriptor;
use strata_format::metadata::{
    BoundaryOrder, ColumnIndex, ColumnMetaData, DataPageHeader, DataPageHeaderV2,
    DictionaryPageHeader, Encoding as FormatEncoding, EncodingSet, OffsetIndex, PageEncodingStats,
    PageHeader, PageLocation, PageType, SizeStatistics, Type,
};
use strata_format::thrift;
use strata_sink::ByteSink;

use super::value::{BoxDict, BoxEncoder, ColumnValue};
use crate::bloom::Sbbf;
use crate::codec::{Codec, Compression, create_codec};
use crate::error::{FileError, Result};
use crate::geospatial::GeospatialAccumulator;
use crate::properties::{
    BloomFilterProperties, EnabledStatistics, WriterProperties, WriterVersion,
};
use crate::statistics::{StatisticsAccumulator, StatsValue, ValueOrder, is_utf8};
use strata_format::metadata::{ColumnMetaDataExtras, LogicalType};

/// The settings of one column, resolved once from [`WriterProperties`].
#[derive(Debug, Clone, Copy)]
struct Settings {
    v2: bool,
    /// Of a page v2: compressed values at or above this share of the
    /// page's uncompressed size are stored uncompressed.
    v2_ratio: f64,
    /// Whether the chunk's metadata names its path.
    write_path: bool,
    compression: Compression,
    dictionary: bool,
    encoding: strata_encoding::Encoding,
    page_size_limit: usize,
    page_row_limit: usize,
    dict_size_limit: usize,
    batch_size: usize,
    stats: EnabledStatistics,
    page_header_stats: bool,
    index_truncate: Option<usize>,
    stats_truncate: Option<usize>,
    crc: bool,
    offset_index: bool,
    distinct: bool,
    bloom: Option<BloomFilterProperties>,
    /// Whether geospatial statistics are kept (`GEOMETRY` columns with
    /// statistics).
    geo: bool,
    order: ValueOrder,
    utf8: bool,
    width: usize,
    max_def: i16,
    max_rep: i16,
    /// Content-defined chunking is on: pages are also cut at the caller's
    /// boundaries, and the write batches within a page count from the
    /// page's start (the limits are checked only there), so that the size
    /// and row limits cut a chunk at the same places whatever calls
    /// brought its values.
    pages_by_content: bool,
}

impl Settings {
    /// The settings `props` give column `descr`, written with `encoding`
    /// (when not dictionary encoded) at FIXED_LEN_BYTE_ARRAY width `width`.
    fn new(
        descr: &ColumnDescriptor,
        props: &WriterProperties,
        encoding: strata_encoding::Encoding,
        width: usize,
    ) -> Self {
        let path = &descr.path;
        let stats = props.statistics_enabled(path);
        Settings {
            v2: props.writer_version() == WriterVersion::PARQUET_2_0,
            v2_ratio: props.column_data_page_v2_compression_ratio_threshold(path),
            write_path: props.write_path_in_schema(),
            compression: props.compression(path),
            dictionary: props.dictionary_enabled(path),
            encoding,
            page_size_limit: props.column_data_page_size_limit(path).max(1),
            page_row_limit: props.column_data_page_row_count_limit(path).max(1),
            dict_size_limit: props.column_dictionary_page_size_limit(path),
            batch_size: props.write_batch_size().max(1),
            stats,
            page_header_stats: props.write_page_header_statistics(path),
            index_truncate: props.column_index_truncate_length(),
            stats_truncate: props.statistics_truncate_length(),
            crc: props.write_page_crc(),
            offset_index: !props.offset_index_disabled() || stats == EnabledStatistics::Page,
            distinct: props.write_distinct_count(),
            bloom: props.bloom_filter_properties(path).copied(),
            geo: stats != EnabledStatistics::None
                && matches!(descr.logical_type, Some(LogicalType::Geometry(_))),
            order: ValueOrder::of(descr),
            utf8: is_utf8(descr),
            width,
            max_def: descr.max_def_level,
            max_rep: descr.max_rep_level,
            pages_by_content: props.content_defined_chunking().is_some(),
        }
    }
}

fn invalid(msg: impl Into<String>) -> FileError {
    FileError::InvalidArgument(msg.into())
}

fn to_i32(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| invalid(format!("{what} of {n} does not fit a page header")))
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Writes one leaf column of one row group: takes batches of non-null
/// values with their definition and repetition levels, cuts them into
/// pages, encodes, compresses and buffers the pages, and on
/// [`close`](Self::close) hands back the chunk's bytes and metadata as a
/// [`ClosedColumnChunk`] for a
/// [`RowGroupWriter`](super::RowGroupWriter) to place in the file.
///
/// - **Encoding**: dictionary first (when enabled and the type has one),
///   falling back once the dictionary passes the dictionary page size
///   limit to the column's encoding, or by default (as arrow-rs) PLAIN for
///   `PARQUET_1_0` and DELTA_BINARY_PACKED (integers), DELTA_BYTE_ARRAY
///   (byte arrays), RLE (booleans) or PLAIN (floats, INT96) for
///   `PARQUET_2_0`. Dictionary-encoded data pages are `PLAIN_DICTIONARY`
///   with a `PLAIN_DICTIONARY` dictionary page under `PARQUET_1_0` (as
///   parquet-java writes format 1.0) and `RLE_DICTIONARY` with a `PLAIN`
///   dictionary page under `PARQUET_2_0`.
/// - **Pages**: v1 for `PARQUET_1_0` (levels length-prefixed inside the
///   compressed body), v2 for `PARQUET_2_0` (levels first and never
///   compressed; values stored uncompressed when compression does not
///   shrink them). A page is cut when its estimated size reaches the data
///   page size limit or its row count the row limit, checked every
///   `write_batch_size` levels, and only where a record starts (repetition
///   level 0), so no record spans pages.
/// - **Statistics**, **size statistics**, **column index** and **offset
///   index** entries are gathered per page.
/// - **Memory**: a new writer holds no heap memory; encoders, buffers,
///   dictionary and codec are created on the first write, and afterwards
///   memory is proportional to the data buffered.
///
/// ```
/// use std::sync::Arc;
/// use strata_file::properties::WriterProperties;
/// use strata_file::writer::ColumnChunkWriter;
/// use strata_format::metadata::{FieldRepetitionType, SchemaElement, Type};
/// use strata_format::SchemaDescriptor;
///
/// let schema = SchemaDescriptor::from_elements(&[
///     SchemaElement { name: "schema".into(), num_children: Some(1), ..Default::default() },
///     SchemaElement {
///         name: "x".into(),
///         physical_type: Some(Type::Int64),
///         repetition_type: Some(FieldRepetitionType::Optional),
///         ..Default::default()
///     },
/// ])
/// .unwrap();
/// let descr = schema.column(0);
/// let mut writer =
///     ColumnChunkWriter::<i64>::new(descr, 0, Arc::new(WriterProperties::default())).unwrap();
/// // Three rows: 1, null, 3.
/// writer.write_batch(&[1, 3], Some(&[1, 0, 1]), None).unwrap();
/// let chunk = writer.close().unwrap();
/// assert_eq!(chunk.num_rows(), 3);
/// let stats = chunk.metadata().statistics.as_ref().unwrap();
/// assert_eq!(stats.null_count, Some(1));
/// assert_eq!(stats.min_value(), Some(&1i64.to_le_bytes()[..]));
/// ```
pub struct ColumnChunkWriter<T: ColumnValue> {
    descr: Arc<ColumnDescriptor>,
    column: usize,
    settings: Settings,
    state: Option<Box<ChunkState<T>>>,
    /// Why this writer takes no values (see [`refusing`](Self::refusing)).
    refused: Option<Box<str>>,
}

impl<T: ColumnValue> std::fmt::Debug for ColumnChunkWriter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnChunkWriter")
            .field("column", &self.descr.path.string())
            .field("physical_type", &T::PHYSICAL)
            .field("active", &self.state.is_some())
            .finish()
    }
}

/// Counters of the page being filled.
#[derive(Debug, Default, Clone, Copy)]
struct PageCounters {
    levels: usize,
    values: usize,
    nulls: usize,
    rows: usize,
    unencoded: u64,
    /// With content-defined chunking: the level count at which the page's
    /// limits are next checked (a multiple of the write batch size).
    next_check: usize,
}

/// Column index entries gathered page by page.
struct IndexBuilder<T: StatsValue> {
    valid: bool,
    null_pages: Vec<bool>,
    mins: Vec<Vec<u8>>,
    maxs: Vec<Vec<u8>>,
    null_counts: Vec<i64>,
    /// Per page, for floats (whose order counts NaNs).
    nan_counts: Vec<i64>,
    def_hists: Vec<i64>,
    rep_hists: Vec<i64>,
    ascending: bool,
    descending: bool,
    prev: Option<(T::Owned, T::Owned)>,
}

impl<T: StatsValue> IndexBuilder<T> {
    fn new() -> Self {
        Self {
            valid: true,
            null_pages: Vec::new(),
            mins: Vec::new(),
            maxs: Vec::new(),
            null_counts: Vec::new(),
            nan_counts: Vec::new(),
            def_hists: Vec::new(),
            rep_hists: Vec::new(),
            ascending: true,
            descending: true,
            prev: None,
        }
    }

    fn add_page(
        &mut self,
        stats: &StatisticsAccumulator<T>,
        page: &PageCounters,
        truncate: Option<usize>,
    ) {
        if !self.valid {
            return;
        }
        let order = stats.order();
        match stats.bounds(truncate) {
            None if page.values == 0 => {
                self.null_pages.push(true);
                self.mins.push(Vec::new());
                self.maxs.push(Vec::new());
            }
            // Values without bounds (no defined order): the index cannot
            // describe this page.
            None => {
                self.valid = false;
                return;
            }
            Some((lo, hi)) => {
                // The order of the pages' bounds before truncation, as
                // arrow-rs decides it.
                if let (Some(min), Some(max)) = (&stats.min_max().min, &stats.min_max().max) {
                    if let Some((pmin, pmax)) = &self.prev {
                        self.ascending &= !T::less(min, pmin, order) && !T::less(max, pmax, order);
                        self.descending &= !T::less(pmin, min, order) && !T::less(pmax, max, order);
                    }
                    self.prev = Some((min.clone(), max.clone()));
                }
                self.null_pages.push(false);
                self.mins.push(lo.bytes);
                self.maxs.push(hi.bytes);
            }
        }
        self.null_counts.push(to_i64(page.nulls as u64));
        if let Some(nans) = stats.nan_count() {
            self.nan_counts.push(to_i64(nans));
        }
    }

    fn boundary_order(&self) -> BoundaryOrder {
        if self.ascending {
            BoundaryOrder::Ascending
        } else if self.descending {
            BoundaryOrder::Descending
        } else {
            BoundaryOrder::Unordered
        }
    }
}

/// Everything a writer holds once it has been written to.
/// Reused buffers of a keyed batch: per entry of the caller's dictionary,
/// its index in the chunk's dictionary (`u32::MAX` until used), the page
/// (`1 +` pages written before it) whose statistics it was last fed to,
/// and its unencoded size.
#[derive(Debug, Default)]
struct KeyedScratch {
    remap: Vec<u32>,
    seen: Vec<u32>,
    sizes: Vec<u64>,
    round: u32,
    indices: Vec<u32>,
}

impl KeyedScratch {
    fn heap_size(&self) -> usize {
        (self.remap.capacity() + self.seen.capacity() + self.indices.capacity()) * 4
            + self.sizes.capacity() * 8
    }
}

struct ChunkState<T: ColumnValue> {
    // Boxed: an encoder is 160 bytes and most columns have no repetition
    // levels (a writer of many columns keeps one state per column).
    def: Option<Box<LevelEncoder>>,
    rep: Option<Box<LevelEncoder>>,
    dict: Option<BoxDict<T>>,
    encoder: Option<BoxEncoder<T>>,
    fell_back: bool,
    /// Whether the first data page has been cut (and the dictionary's
    /// worth checked on it).
    first_page_done: bool,
    /// Values (and unencoded byte-array bytes) of pages cut by content
    /// before the dictionary was judged: too few to judge it by.
    unjudged_values: usize,
    unjudged_unencoded: u64,
    codec: Option<Box<dyn Codec>>,
    body: ByteSink,
    compressed: Vec<u8>,
    dict_page: ByteSink,
    data: Pages,
    page: PageCounters,
    page_stats: StatisticsAccumulator<T>,
    chunk_stats: StatisticsAccumulator<T>,
    def_hist: Vec<i64>,
    rep_hist: Vec<i64>,
    chunk_def_hist: Vec<i64>,
    chunk_rep_hist: Vec<i64>,
    index: IndexBuilder<T>,
    /// Scratch of [`write_keyed_batch`](ColumnChunkWriter::write_keyed_batch),
    /// made on first use.
    keyed: Option<Box<KeyedScratch>>,
    /// Per dictionary entry, the page (`1 +` pages written before it) whose
    /// statistics it was last fed to, for types with
    /// [`ColumnValue::STATS_BY_ENTRY`]; grows with the dictionary.
    entry_seen: Vec<u32>,
    /// Scratch: the entries a batch uses that its page had not seen.
    entry_fresh: Vec<u32>,
    locations: Vec<PageLocation>,
    page_unencoded: Vec<i64>,
    chunk_unencoded: u64,
    encoding_stats: Vec<PageEncodingStats>,
    total_uncompressed: u64,
    total_compressed: u64,
    num_values: u64,
    num_rows: u64,
    bloom: Option<Sbbf>,
    geo: Option<Box<GeospatialAccumulator>>,
}

/// Count every level of `levels` into `hist` (one bucket per level; levels
/// outside the buckets are not counted). A bucket at a time for the few
/// buckets levels have in practice: each count is one pass of comparisons
/// the compiler vectorises, where incrementing a bucket per level chains
/// the levels through memory.
fn add_to_histogram(hist: &mut [i64], levels: &[i16]) {
    if hist.len() <= 8 {
        for (level, count) in (0i16..).zip(hist.iter_mut()) {
            *count += count_levels(levels, level) as i64;
        }
    } else {
        for &l in levels {
            if let Some(count) = usize::try_from(l).ok().and_then(|l| hist.get_mut(l)) {
                *count += 1;
            }
        }
    }
}

impl<T: ColumnValue> ChunkState<T> {
    fn new(s: &Settings) -> Result<Self> {
        let dict = if s.dictionary {
            T::dict_encoder(s.width)?
        } else {
            None
        };
        let encoder = if dict.is_none() {
            Some(T::encoder(s.encoding, s.width)?)
        } else {
            None
        };
        let levels = |max: i16| -> Result<Option<Box<LevelEncoder>>> {
            Ok(if max > 0 {
                Some(Box::new(LevelEncoder::new(max)?))
            } else {
                None
            })
        };
        let hist = |max: i16| -> Vec<i64> {
            if max > 0 {
                vec![0; max as usize + 1]
            } else {
                Vec::new()
            }
        };
        Ok(Self {
            def: levels(s.max_def)?,
            rep: levels(s.max_rep)?,
            dict,
            encoder,
            fell_back: false,
            first_page_done: false,
            unjudged_values: 0,
            unjudged_unencoded: 0,
            codec: create_codec(s.compression)?,
            body: ByteSink::new(),
            compressed: Vec::new(),
            dict_page: ByteSink::new(),
            data: Pages::default(),
            page: PageCounters::default(),
            page_stats: StatisticsAccumulator::new(s.order).with_utf8(s.utf8),
            chunk_stats: StatisticsAccumulator::new(s.order).with_utf8(s.utf8),
            def_hist: hist(s.max_def),
            rep_hist: hist(s.max_rep),
            chunk_def_hist: hist(s.max_def),
            chunk_rep_hist: hist(s.max_rep),
            index: IndexBuilder::new(),
            keyed: None,
            entry_seen: Vec::new(),
            entry_fresh: Vec::new(),
            locations: Vec::new(),
            page_unencoded: Vec::new(),
            chunk_unencoded: 0,
            encoding_stats: Vec::new(),
            total_uncompressed: 0,
            total_compressed: 0,
            num_values: 0,
            num_rows: 0,
            bloom: match s.bloom {
                Some(b) => Some(Sbbf::new_with_ndv_fpp(b.ndv, b.fpp)?),
                None => None,
            },
            geo: s.geo.then(Box::<GeospatialAccumulator>::default),
        })
    }

    fn estimated_page_size(&self) -> usize {
        let levels = self.def.as_ref().map_or(0, |e| e.estimated_size())
            + self.rep.as_ref().map_or(0, |e| e.estimated_size());
        let values = match (&self.dict, &self.encoder) {
            (Some(d), _) => d.estimated_size(),
            (None, Some(e)) => e.estimated_size(),
            (None, None) => 0,
        };
        levels + values
    }

    /// Fall back from the dictionary or cut the page, if a limit is
    /// reached. Called only where a record starts.
    fn maybe_flush(&mut self, s: &Settings) -> Result<()> {
        if let Some(d) = &self.dict
            && d.dict_size_bytes() >= s.dict_size_limit
        {
            return self.fall_back(s);
        }
        if self.page.rows >= s.page_row_limit || self.estimated_page_size() >= s.page_size_limit {
            self.cut_page(s, false)?;
        }
        Ok(())
    }

    /// End the buffered page, if it holds anything. The first page cut
    /// also decides whether the dictionary stays, unless it was cut by
    /// content (`by_content`) before a write batch's worth of values: a
    /// chunk's tail that starts a row group can be a handful of values,
    /// nearly all new, which would drop the dictionary for the whole
    /// chunk. Its values then count toward the next page's judgement.
    fn cut_page(&mut self, s: &Settings, by_content: bool) -> Result<()> {
        if self.page.levels == 0 {
            return Ok(());
        }
        if !self.first_page_done {
            if by_content && self.unjudged_values + self.page.values < s.batch_size {
                self.unjudged_values += self.page.values;
                self.unjudged_unencoded += self.page.unencoded;
                return self.flush_page(s);
            }
            self.first_page_done = true;
            if !self.keeps_dictionary(s) {
                return self.fall_back(s);
            }
        }
        self.flush_page(s)
    }

    /// Whether to keep the dictionary after the first page, the page about
    /// to be cut: unless nearly all of its values (49 in 50) were new
    /// entries and its indices plus the dictionary take at least as many
    /// bytes as its values in PLAIN. A column of unique values (keys,
    /// timestamps, measurements) then falls back here, instead of growing a
    /// dictionary to its size limit first; the size test alone (which
    /// parquet-java makes) would also drop dictionaries of columns with
    /// many but bounded distinct values, whose first page repeats few of
    /// them and whose later pages would.
    fn keeps_dictionary(&self, s: &Settings) -> bool {
        let Some(d) = &self.dict else {
            return true;
        };
        let width = match T::PHYSICAL {
            Type::Int32 | Type::Float => 4,
            Type::Int64 | Type::Double => 8,
            Type::Int96 => 12,
            Type::FixedLenByteArray => s.width,
            // The length prefix; the bytes are counted as unencoded.
            Type::ByteArray => 4,
            Type::Boolean => return true,
        };
        let values = self.page.values + self.unjudged_values;
        let plain =
            values.saturating_mul(width) as u64 + self.page.unencoded + self.unjudged_unencoded;
        let nearly_all_new = d.num_entries().saturating_mul(50) >= values.saturating_mul(49);
        !nearly_all_new || ((d.estimated_size() + d.dict_size_bytes()) as u64) < plain
    }

    fn fall_back(&mut self, s: &Settings) -> Result<()> {
        if self.page.levels > 0 {
            self.flush_page(s)?;
        }
        self.write_dict_page(s)?;
        self.encoder = Some(T::encoder(s.encoding, s.width)?);
        self.fell_back = true;
        Ok(())
    }

    fn write_levels(
        &mut self,
        s: &Settings,
        def: Option<&[i16]>,
        rep: Option<&[i16]>,
        n_levels: usize,
        present: usize,
    ) -> Result<()> {
        if let (Some(d), Some(enc)) = (def, &mut self.def) {
            enc.put(d)?;
            add_to_histogram(&mut self.def_hist, d);
        }
        if let (Some(r), Some(enc)) = (rep, &mut self.rep) {
            enc.put(r)?;
            add_to_histogram(&mut self.rep_hist, r);
            // A record starts at every repetition level 0.
            self.page.rows += count_levels(r, 0);
        } else {
            self.page.rows += n_levels;
        }
        let _ = s;
        self.page.levels += n_levels;
        self.page.values += present;
        self.page.nulls += n_levels - present;
        Ok(())
    }

    fn write_values(&mut self, s: &Settings, values: T::Batch<'_>) -> Result<()> {
        if T::batch_len(&values) == 0 {
            return Ok(());
        }
        let stats = s.stats != EnabledStatistics::None;
        // Whether the page statistics already saw these values' entries.
        let mut by_entry = false;
        match (&mut self.dict, &mut self.encoder) {
            (Some(d), _) => {
                let from = d.indices().len();
                d.put(values)?;
                if stats && T::STATS_BY_ENTRY {
                    // The entries the values use that this page has not
                    // seen; unless most are new (then the values' own scan
                    // is as quick), only those go to the statistics.
                    let round = u32::try_from(self.locations.len() + 1).unwrap_or(u32::MAX);
                    let (seen, fresh) = (&mut self.entry_seen, &mut self.entry_fresh);
                    if seen.len() < d.num_entries() {
                        seen.resize(d.num_entries(), 0);
                    }
                    fresh.clear();
                    for &i in d.indices().get(from..).unwrap_or_default() {
                        let Some(stamp) = seen.get_mut(i as usize) else {
                            return Err(invalid("dictionary index past its entries"));
                        };
                        if *stamp != round {
                            *stamp = round;
                            fresh.push(i);
                        }
                    }
                    if fresh.len() * 2 <= T::batch_len(&values) {
                        T::update_with_entries(&mut self.page_stats, d.as_ref(), fresh)?;
                        by_entry = true;
                    }
                }
            }
            (None, Some(e)) => e.put(values)?,
            (None, None) => return Err(invalid("column writer has no encoder")),
        }
        if stats && !by_entry {
            self.page_stats.update(values);
        }
        if let Some(n) = T::unencoded_bytes(&values) {
            self.page.unencoded += n;
        }
        if let Some(bloom) = &mut self.bloom {
            T::for_each_plain(&values, &mut |bytes| {
                bloom.insert(bytes);
            });
        }
        if let Some(geo) = &mut self.geo {
            T::for_each_plain(&values, &mut |wkb| geo.update(wkb));
        }
        Ok(())
    }

    /// Start a keyed batch of `entries` entries: forget the previous
    /// batch's entry-to-index map.
    fn begin_keyed(&mut self, entries: usize) {
        let k = self.keyed.get_or_insert_with(Box::default);
        k.remap.clear();
        k.remap.resize(entries, u32::MAX);
        k.seen.clear();
        k.seen.resize(entries, 0);
        k.sizes.clear();
        k.sizes.resize(entries, 0);
        k.round = 0;
    }

    /// Write values given as `keys` into `entries`: as indices while the
    /// dictionary lasts, else looked up and written as values. Each entry
    /// is hashed once per keyed batch and fed to the statistics once per
    /// page.
    fn write_keyed_values(
        &mut self,
        s: &Settings,
        entries: T::Batch<'_>,
        keys: &[u32],
    ) -> Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let Some(d) = &mut self.dict else {
            // Dictionary off or fallen back: one value run per key run.
            let mut i = 0;
            while i < keys.len() {
                let k = keys[i] as usize;
                let mut j = i + 1;
                while j < keys.len() && keys[j] as usize == k + (j - i) {
                    j += 1;
                }
                let run = T::batch_slice(&entries, k, k + (j - i))
                    .ok_or_else(|| invalid("dictionary key past its entries"))?;
                self.write_values(s, run)?;
                i = j;
            }
            return Ok(());
        };
        let k = self.keyed.get_or_insert_with(Box::default);
        // Statistics are per page: an entry is fed once per page it is in.
        k.round = u32::try_from(self.locations.len() + 1).unwrap_or(u32::MAX);
        k.indices.clear();
        let stats = s.stats != EnabledStatistics::None;
        for &key in keys {
            let key = key as usize;
            let slot = k
                .remap
                .get_mut(key)
                .ok_or_else(|| invalid("dictionary key past its entries"))?;
            if *slot == u32::MAX {
                *slot = d.intern_entry(entries, key)?;
                let one = T::batch_slice(&entries, key, key + 1)
                    .ok_or_else(|| invalid("dictionary key past its entries"))?;
                k.sizes[key] = T::unencoded_bytes(&one).unwrap_or(0);
            }
            k.indices.push(*slot);
            self.page.unencoded += k.sizes[key];
            if k.seen[key] != k.round {
                // First use on this page: statistics and Bloom filter.
                k.seen[key] = k.round;
                let one = T::batch_slice(&entries, key, key + 1)
                    .ok_or_else(|| invalid("dictionary key past its entries"))?;
                if stats {
                    self.page_stats.update(one);
                }
                if let Some(bloom) = &mut self.bloom {
                    T::for_each_plain(&one, &mut |bytes| {
                        bloom.insert(bytes);
                    });
                }
                if let Some(geo) = &mut self.geo {
                    T::for_each_plain(&one, &mut |wkb| geo.update(wkb));
                }
            }
        }
        d.put_indices(&k.indices)
    }

    /// Compress `self.body[from..]` after copying `self.body[..from]`
    /// as is into `self.compressed`; returns whether the tail was stored
    /// compressed. Without a codec nothing is copied.
    /// Compress the body after its first `from` bytes (a page v2's levels,
    /// kept as they are) into `compressed`; whether it was compressed. With
    /// `threshold` (a page v2), compressed values at or above that share of
    /// the whole body's size are dropped and the body stored as it is.
    fn compress_body(&mut self, from: usize, threshold: Option<f64>) -> Result<bool> {
        let Some(codec) = &mut self.codec else {
            return Ok(false);
        };
        let body = self.body.as_slice();
        self.compressed.clear();
        self.compressed.extend_from_slice(&body[..from]);
        codec.compress(&body[from..], &mut self.compressed)?;
        let values = self.compressed.len() - from;
        if threshold.is_some_and(|t| values as f64 >= body.len() as f64 * t) {
            self.compressed.clear();
            self.compressed.extend_from_slice(body);
            return Ok(false);
        }
        Ok(true)
    }

    fn flush_page(&mut self, s: &Settings) -> Result<()> {
        self.body.clear();
        let (mut rep_len, mut def_len) = (0, 0);
        if let Some(rep) = &mut self.rep {
            if s.v2 {
                rep_len = rep.flush_v2(&mut self.body)?;
            } else {
                rep.flush_v1(&mut self.body)?;
            }
        }
        if let Some(def) = &mut self.def {
            if s.v2 {
                def_len = def.flush_v2(&mut self.body)?;
            } else {
                def.flush_v1(&mut self.body)?;
            }
        }
        let levels_len = self.body.len();
        let encoding = match (&mut self.dict, &mut self.encoder) {
            (Some(d), _) => {
                d.flush_into(&mut self.body)?;
                if s.v2 {
                    FormatEncoding::RleDictionary
                } else {
                    FormatEncoding::PlainDictionary
                }
            }
            (None, Some(e)) => {
                e.flush_into(&mut self.body)?;
                e.encoding()
            }
            (None, None) => return Err(invalid("column writer has no encoder")),
        };
        let uncompressed = self.body.len();
        let (compressed, values_compressed) = if s.v2 {
            let c = self.compress_body(levels_len, Some(s.v2_ratio))?;
            (self.codec.is_some(), c)
        } else {
            let c = self.compress_body(0, None)?;
            (c, c)
        };
        let stored: &[u8] = if compressed {
            &self.compressed
        } else {
            self.body.as_slice()
        };

        let page = self.page;
        self.page_stats.add_nulls(page.nulls as u64);
        let header_stats = (s.page_header_stats && s.stats == EnabledStatistics::Page)
            .then(|| self.page_stats.to_statistics(s.stats_truncate))
            .transpose()?;
        let (page_type, v1, v2) = if s.v2 {
            (
                PageType::DataPageV2,
                None,
                Some(DataPageHeaderV2 {
                    num_values: to_i32(page.levels, "page value count")?,
                    num_nulls: to_i32(page.nulls, "page null count")?,
                    num_rows: to_i32(page.rows, "page row count")?,
                    encoding,
                    definition_levels_byte_length: to_i32(def_len, "level length")?,
                    repetition_levels_byte_length: to_i32(rep_len, "level length")?,
                    is_compressed: Some(values_compressed),
                    statistics: header_stats,
                }),
            )
        } else {
            (
                PageType::DataPage,
                Some(DataPageHeader {
                    num_values: to_i32(page.levels, "page value count")?,
                    encoding,
                    definition_level_encoding: FormatEncoding::Rle,
                    repetition_level_encoding: FormatEncoding::Rle,
                    statistics: header_stats,
                }),
                None,
            )
        };
        let header = PageHeader {
            page_type,
            uncompressed_page_size: to_i32(uncompressed, "page size")?,
            compressed_page_size: to_i32(stored.len(), "page size")?,
            crc: s.crc.then(|| crc32fast::hash(stored) as i32),
            data_page_header: v1,
            index_page_header: None,
            dictionary_page_header: None,
            data_page_header_v2: v2,
        };
        let offset = self.data.len();
        // The page in a buffer of its own, with room for a header of
        // usual size (one with long statistics grows it once).
        let mut buf = ByteSink::with_capacity(PAGE_HEADER_ROOM + stored.len());
        thrift::encode(&header, &mut buf);
        let header_len = buf.len();
        buf.extend_from_slice(stored);
        let page_len = buf.len();
        self.data.push(buf.into_vec());
        self.total_uncompressed += (header_len + uncompressed) as u64;
        self.total_compressed += (header_len + stored.len()) as u64;
        self.locations.push(PageLocation {
            offset: offset as i64,
            compressed_page_size: to_i32(page_len, "page size")?,
            first_row_index: to_i64(self.num_rows),
        });
        count_page(&mut self.encoding_stats, page_type, encoding);

        if s.stats == EnabledStatistics::Page {
            self.index
                .add_page(&self.page_stats, &page, s.index_truncate);
            self.index.def_hists.extend_from_slice(&self.def_hist);
            self.index.rep_hists.extend_from_slice(&self.rep_hist);
        }
        self.chunk_stats.merge(&self.page_stats);
        self.page_stats.reset();
        for (c, p) in self.chunk_def_hist.iter_mut().zip(&mut self.def_hist) {
            *c += std::mem::take(p);
        }
        for (c, p) in self.chunk_rep_hist.iter_mut().zip(&mut self.rep_hist) {
            *c += std::mem::take(p);
        }
        self.page_unencoded.push(to_i64(page.unencoded));
        self.chunk_unencoded += page.unencoded;
        self.num_rows += page.rows as u64;
        self.num_values += page.levels as u64;
        self.page = PageCounters::default();
        Ok(())
    }

    /// Write the dictionary page (once) and drop the dictionary.
    fn write_dict_page(&mut self, s: &Settings) -> Result<()> {
        let Some(dict) = self.dict.take() else {
            return Ok(());
        };
        self.body.clear();
        dict.write_dict_page(&mut self.body)?;
        let uncompressed = self.body.len();
        let compressed = self.compress_body(0, None)?;
        let stored: &[u8] = if compressed {
            &self.compressed
        } else {
            self.body.as_slice()
        };
        let encoding = if s.v2 {
            FormatEncoding::Plain
        } else {
            FormatEncoding::PlainDictionary
        };
        let header = PageHeader {
            page_type: PageType::DictionaryPage,
            uncompressed_page_size: to_i32(uncompressed, "dictionary page size")?,
            compressed_page_size: to_i32(stored.len(), "dictionary page size")?,
            crc: s.crc.then(|| crc32fast::hash(stored) as i32),
            data_page_header: None,
            index_page_header: None,
            dictionary_page_header: Some(DictionaryPageHeader {
                num_values: to_i32(dict.num_entries(), "dictionary size")?,
                encoding,
                is_sorted: Some(false),
            }),
            data_page_header_v2: None,
        };
        self.dict_page.clear();
        thrift::encode(&header, &mut self.dict_page);
        let header_len = self.dict_page.len();
        self.dict_page.extend_from_slice(stored);
        self.total_uncompressed += (header_len + uncompressed) as u64;
        self.total_compressed += (header_len + stored.len()) as u64;
        count_page(&mut self.encoding_stats, PageType::DictionaryPage, encoding);
        Ok(())
    }

    fn heap_size(&self) -> usize {
        self.body.capacity()
            + self.compressed.capacity()
            + self.dict_page.capacity()
            + self.data.capacity()
            + self.dict.as_ref().map_or(0, |d| d.heap_size())
            + self.encoder.as_ref().map_or(0, |e| e.heap_size())
            + self
                .def
                .as_ref()
                .map_or(0, |e| e.heap_size() + std::mem::size_of::<LevelEncoder>())
            + self
                .rep
                .as_ref()
                .map_or(0, |e| e.heap_size() + std::mem::size_of::<LevelEncoder>())
            + self.locations.capacity() * std::mem::size_of::<PageLocation>()
            + self.keyed.as_ref().map_or(0, |k| k.heap_size())
            + (self.entry_seen.capacity() + self.entry_fresh.capacity())
                * std::mem::size_of::<u32>()
            + self.bloom.as_ref().map_or(0, Sbbf::num_bytes)
    }
}

fn count_page(stats: &mut Vec<PageEncodingStats>, page_type: PageType, encoding: FormatEncoding) {
    match stats
        .iter_mut()
        .find(|p| p.page_type == page_type && p.encoding == encoding)
    {
        Some(p) => p.count += 1,
        None => stats.push(PageEncodingStats {
            page_type,
            encoding,
            count: 1,
        }),
    }
}

impl<T: ColumnValue> ColumnChunkWriter<T> {
    /// A writer for leaf column number `column` of the schema, described
    /// by `descr`. Holds no heap memory until the first write.
    ///
    /// Fails if the column's physical type is not `T`, if a
    /// FIXED_LEN_BYTE_ARRAY column has no positive width, or if the
    /// encoding set for the column cannot encode its type.
    pub fn new(
        descr: Arc<ColumnDescriptor>,
        column: usize,
        props: Arc<WriterProperties>,
    ) -> Result<Self> {
        if descr.physical_type != T::PHYSICAL {
            return Err(invalid(format!(
                "column {} is {:?}, not {:?}",
                descr.path,
                descr.physical_type,
                T::PHYSICAL
            )));
        }
        let width = match T::PHYSICAL {
            Type::FixedLenByteArray => match descr.type_length {
                Some(w) if w > 0 => w as usize,
                other => {
                    return Err(invalid(format!(
                        "FIXED_LEN_BYTE_ARRAY column {} has width {other:?}",
                        descr.path
                    )));
                }
            },
            _ => 0,
        };
        let path = &descr.path;
        let version = props.writer_version();
        let encoding = match props.encoding(path) {
            Some(e) => e,
            None => T::fallback_encoding(version),
        };
        if matches!(
            encoding,
            strata_encoding::Encoding::RleDictionary | strata_encoding::Encoding::PlainDictionary
        ) {
            return Err(invalid(format!(
                "{encoding} set as the encoding of column {path}; enable dictionary encoding \
                 with set_dictionary_enabled instead"
            )));
        }
        // Check the encoding fits the type now rather than at the first
        // write (building an encoder allocates nothing but its box).
        drop(T::encoder(encoding, width)?);
        let settings = Settings::new(&descr, &props, encoding, width);
        if let Compression::LZO = settings.compression {
            return Err(FileError::UnsupportedCodec("LZO".into()));
        }
        Ok(Self {
            descr,
            column,
            settings,
            state: None,
            refused: None,
        })
    }

    /// A writer of `T` values for column `column` that takes none: every
    /// write and [`close`](Self::close) fail with `reason`. What a typed
    /// accessor hands out when asked for a type the column does not have
    /// (arrow-rs panics there). The descriptor is taken as if it were of
    /// type `T`.
    pub fn refusing(descr: &ColumnDescriptor, column: usize, reason: String) -> Self {
        let mut as_t = descr.clone();
        as_t.physical_type = T::PHYSICAL;
        let width = usize::try_from(as_t.type_length.unwrap_or(1))
            .unwrap_or(1)
            .max(1);
        let settings = Settings::new(
            &as_t,
            &WriterProperties::default(),
            strata_encoding::Encoding::Plain,
            width,
        );
        Self {
            descr: Arc::new(as_t),
            column,
            settings,
            state: None,
            refused: Some(reason.into()),
        }
    }

    fn check_refused(&self) -> Result<()> {
        match &self.refused {
            Some(reason) => Err(invalid(reason.to_string())),
            None => Ok(()),
        }
    }

    /// The column written.
    pub fn descriptor(&self) -> &Arc<ColumnDescriptor> {
        &self.descr
    }

    /// The column's index among the schema's leaves.
    pub fn column_index(&self) -> usize {
        self.column
    }

    /// Whether values written now would be dictionary encoded: dictionary
    /// encoding is on for the column and the chunk has not fallen back.
    /// [`write_keyed_batch`](Self::write_keyed_batch) is fastest then.
    pub fn is_dictionary_encoding(&self) -> bool {
        match &self.state {
            Some(state) => state.dict.is_some(),
            None => self.settings.dictionary && T::PHYSICAL != Type::Boolean,
        }
    }

    fn state(&mut self) -> Result<&mut ChunkState<T>> {
        let state = match &mut self.state {
            Some(s) => s,
            slot => slot.insert(Box::new(ChunkState::new(&self.settings)?)),
        };
        Ok(state)
    }

    /// Write a batch of records.
    ///
    /// `values` holds the non-null leaf values only. `def_levels` is
    /// required when the column's maximum definition level is positive
    /// (one level per slot, nulls included; a value is present where the
    /// level equals the maximum) and `rep_levels` when its maximum
    /// repetition level is positive (same length); both are ignored
    /// otherwise. The first repetition level of a column chunk must be 0.
    ///
    /// Returns the number of values consumed (all of `values`). Fails,
    /// writing nothing, if the levels are out of range or disagree with the
    /// number of values.
    ///
    /// The values are given in this type's batch form (for byte arrays a
    /// [`ByteArrayBatch`](strata_encoding::ByteArrayBatch), which borrows
    /// offsets and bytes as Arrow holds them);
    /// [`write_batch`](Self::write_batch) takes them as arrow-rs's column
    /// writer does.
    pub fn write_values(
        &mut self,
        values: T::Batch<'_>,
        def_levels: Option<&[i16]>,
        rep_levels: Option<&[i16]>,
    ) -> Result<usize> {
        self.check_refused()?;
        let num_values = T::batch_len(&values);
        self.check_width(&values)?;
        self.write_levels_and(
            num_values,
            def_levels,
            rep_levels,
            |state, s, start, end| {
                let vals = T::batch_slice(&values, start, end)
                    .ok_or_else(|| invalid("values run out before the levels"))?;
                state.write_values(s, vals)
            },
        )
    }

    /// Write a batch of records given as arrow-rs's column writer takes
    /// them (`ColumnWriterImpl::write_batch`): a slice of the type's values
    /// (`i32`, `bool`, ..., [`ByteArray`](crate::data_type::ByteArray),
    /// [`FixedLenByteArray`](crate::data_type::FixedLenByteArray)), the
    /// non-null ones only, with levels as in
    /// [`write_values`](Self::write_values). Fixed-width values are written
    /// as given; byte arrays are first gathered into a batch (a
    /// FIXED_LEN_BYTE_ARRAY value of the wrong width fails).
    pub fn write_batch(
        &mut self,
        values: &[T::Value],
        def_levels: Option<&[i16]>,
        rep_levels: Option<&[i16]>,
    ) -> Result<usize> {
        self.check_refused()?;
        let width = self.settings.width;
        T::with_values(values, width, |batch| {
            self.write_values(batch, def_levels, rep_levels)
        })
    }

    /// Write a batch of records whose values are given as `keys` into
    /// `entries`, as an Arrow `DictionaryArray` holds them: one key per
    /// non-null slot (levels as in [`write_batch`](Self::write_batch)).
    ///
    /// While the chunk is dictionary encoded, each entry a key uses is
    /// hashed once per call and the keys become dictionary indices, so
    /// dictionary-encoded input is not hashed again value by value;
    /// statistics and Bloom filters see each used entry once. After a
    /// fallback (or with dictionary encoding off), the values are looked up
    /// and written as by `write_batch`. Fails, writing nothing, if a key is
    /// not below the number of entries.
    pub fn write_keyed_batch(
        &mut self,
        entries: T::Batch<'_>,
        keys: &[u32],
        def_levels: Option<&[i16]>,
        rep_levels: Option<&[i16]>,
    ) -> Result<usize> {
        self.check_refused()?;
        let len = T::batch_len(&entries);
        if let Some(&bad) = keys.iter().find(|&&k| k as usize >= len) {
            return Err(invalid(format!("key {bad} for {len} dictionary entries")));
        }
        self.check_width(&entries)?;
        self.state()?.begin_keyed(len);
        self.write_levels_and(
            keys.len(),
            def_levels,
            rep_levels,
            |state, s, start, end| state.write_keyed_values(s, entries, &keys[start..end]),
        )
    }

    /// FIXED_LEN_BYTE_ARRAY values must have the column's width.
    fn check_width(&self, values: &T::Batch<'_>) -> Result<()> {
        match T::batch_width(values) {
            Some(w) if w != self.settings.width && T::batch_len(values) > 0 => {
                Err(invalid(format!(
                    "values of {w} bytes for a FIXED_LEN_BYTE_ARRAY({}) column",
                    self.settings.width
                )))
            }
            _ => Ok(()),
        }
    }

    /// Check the levels against `num_values`, then write them in runs of
    /// about the write batch size cut at record starts, handing each run's
    /// values `start..end` to `put`.
    fn write_levels_and(
        &mut self,
        num_values: usize,
        def_levels: Option<&[i16]>,
        rep_levels: Option<&[i16]>,
        mut put: impl FnMut(&mut ChunkState<T>, &Settings, usize, usize) -> Result<()>,
    ) -> Result<usize> {
        let s = self.settings;
        let def = if s.max_def > 0 {
            Some(def_levels.ok_or_else(|| {
                invalid(format!(
                    "column {} needs definition levels",
                    self.descr.path
                ))
            })?)
        } else {
            None
        };
        let rep = if s.max_rep > 0 {
            Some(rep_levels.ok_or_else(|| {
                invalid(format!(
                    "column {} needs repetition levels",
                    self.descr.path
                ))
            })?)
        } else {
            None
        };
        let num_levels = match (def, rep) {
            (Some(d), _) => d.len(),
            (None, Some(r)) => r.len(),
            (None, None) => num_values,
        };
        if let Some(r) = rep {
            if r.len() != num_levels {
                return Err(invalid(format!(
                    "{} repetition levels for {num_levels} definition levels",
                    r.len()
                )));
            }
            if let Some(&bad) = r.iter().find(|&&l| l < 0 || l > s.max_rep) {
                return Err(invalid(format!(
                    "repetition level {bad} outside 0..={}",
                    s.max_rep
                )));
            }
        }
        let present = match def {
            Some(d) => {
                if let Some(&bad) = d.iter().find(|&&l| l < 0 || l > s.max_def) {
                    return Err(invalid(format!(
                        "definition level {bad} outside 0..={}",
                        s.max_def
                    )));
                }
                count_levels(d, s.max_def)
            }
            None => num_levels,
        };
        if present != num_values {
            return Err(invalid(format!(
                "{num_values} values for {present} non-null slots in the levels"
            )));
        }
        if num_levels == 0 {
            return Ok(0);
        }
        let state = self.state()?;
        if let Some(r) = rep
            && state.num_values == 0
            && state.page.levels == 0
            && r.first() != Some(&0)
        {
            return Err(invalid(
                "the first repetition level of a column chunk must be 0",
            ));
        }

        let mut lstart = 0;
        let mut vstart = 0;
        while lstart < num_levels {
            let record_start = rep.is_none_or(|r| r[lstart] == 0);
            let step = if s.pages_by_content {
                // The limits are checked where the page holds a multiple
                // of the batch size (or at the first record start after),
                // wherever the calls that brought its values began or
                // ended.
                if record_start && state.page.levels >= state.page.next_check {
                    state.maybe_flush(&s)?;
                    state.page.next_check = (state.page.levels / s.batch_size + 1) * s.batch_size;
                }
                state
                    .page
                    .next_check
                    .saturating_sub(state.page.levels)
                    .max(1)
            } else {
                if record_start {
                    state.maybe_flush(&s)?;
                }
                s.batch_size
            };
            let mut lend = (lstart + step).min(num_levels);
            if let Some(r) = rep {
                while lend < num_levels && r[lend] != 0 {
                    lend += 1;
                }
            }
            let dl = def.map(|d| &d[lstart..lend]);
            let rl = rep.map(|r| &r[lstart..lend]);
            let n_present = dl.map_or(lend - lstart, |d| count_levels(d, s.max_def));
            if vstart + n_present > num_values {
                return Err(invalid("values run out before the levels"));
            }
            state.write_levels(&s, dl, rl, lend - lstart, n_present)?;
            put(state, &s, vstart, vstart + n_present)?;
            lstart = lend;
            vstart += n_present;
        }
        if rep.is_none() && !s.pages_by_content {
            state.maybe_flush(&s)?;
        }
        Ok(vstart)
    }

    /// End the data page being buffered here, so the next value starts a
    /// new one (nothing if the page is empty). The Arrow writer cuts pages
    /// this way at content-defined boundaries; the caller ends a page only
    /// where a record starts.
    pub fn add_data_page(&mut self) -> Result<()> {
        self.check_refused()?;
        let s = self.settings;
        match &mut self.state {
            Some(state) => state.cut_page(&s, true),
            None => Ok(()),
        }
    }

    /// Rows written so far (records: repetition level 0 entries).
    pub fn rows_written(&self) -> u64 {
        self.state
            .as_ref()
            .map_or(0, |s| s.num_rows + s.page.rows as u64)
    }

    /// Bytes of finished pages buffered plus an estimate of the page being
    /// filled: roughly what [`close`](Self::close) would add to the file.
    pub fn estimated_bytes(&self) -> usize {
        self.state.as_ref().map_or(0, |s| {
            s.data.len()
                + s.dict_page.len()
                + s.estimated_page_size()
                + s.dict.as_ref().map_or(0, |d| d.dict_size_bytes())
        })
    }

    /// Bytes of heap memory held (buffers, encoders, dictionary).
    pub fn memory_size(&self) -> usize {
        self.state
            .as_ref()
            .map_or(0, |s| std::mem::size_of::<ChunkState<T>>() + s.heap_size())
    }

    /// Finish the chunk: flush the last page, write the dictionary page
    /// if the chunk is still dictionary encoded, and return the chunk's
    /// bytes and metadata.
    pub fn close(mut self) -> Result<ClosedColumnChunk> {
        self.check_refused()?;
        let s = self.settings;
        let column = self.column;
        let descr = Arc::clone(&self.descr);
        self.state()?;
        let Some(mut st) = self.state.take() else {
            return Err(invalid("column writer state missing"));
        };
        if st.page.levels > 0 {
            st.flush_page(&s)?;
        }
        let still_dict = st.dict.as_ref().map(|d| d.num_entries());
        if still_dict.is_some() && st.locations.is_empty() {
            // Nothing was written: no pages at all.
            st.dict = None;
        }
        st.write_dict_page(&s)?;

        let dict_len = st.dict_page.len() as i64;
        let mut encodings: EncodingSet = st.encoding_stats.iter().map(|p| p.encoding).collect();
        if s.max_def > 0 || s.max_rep > 0 {
            encodings.insert(FormatEncoding::Rle);
        }

        let statistics = (s.stats != EnabledStatistics::None).then(|| {
            let floats = matches!(s.order, ValueOrder::Float | ValueOrder::Float16);
            if s.distinct && !st.fell_back && !floats {
                st.chunk_stats
                    .set_distinct_count(still_dict.map(|n| n as u64));
            }
            st.chunk_stats.to_statistics(s.stats_truncate)
        });
        let statistics = statistics.transpose()?;
        let is_byte_array = T::PHYSICAL == Type::ByteArray;
        let size_statistics = if is_byte_array || s.max_def > 0 || s.max_rep > 0 {
            Some(SizeStatistics {
                unencoded_byte_array_data_bytes: is_byte_array.then(|| to_i64(st.chunk_unencoded)),
                repetition_level_histogram: (s.max_rep > 0)
                    .then(|| std::mem::take(&mut st.chunk_rep_hist).into()),
                definition_level_histogram: (s.max_def > 0)
                    .then(|| std::mem::take(&mut st.chunk_def_hist).into()),
            })
        } else {
            None
        };
        let metadata = ColumnMetaData {
            physical_type: T::PHYSICAL,
            encodings,
            // Left empty, the path is not written (and the reader takes
            // the schema's).
            path_in_schema: if s.write_path {
                descr.path.clone()
            } else {
                strata_format::ColumnPath::new(Vec::new())
            },
            codec: s.compression.codec(),
            num_values: to_i64(st.num_values),
            total_uncompressed_size: to_i64(st.total_uncompressed),
            total_compressed_size: to_i64(st.total_compressed),
            data_page_offset: dict_len,
            dictionary_page_offset: (dict_len > 0).then_some(0),
            statistics,
            encoding_stats: Some(st.encoding_stats.iter().copied().collect()),
            size_statistics,
            extras: st.geo.take().and_then(|g| g.finish()).map(|g| {
                Box::new(ColumnMetaDataExtras {
                    geospatial_statistics: Some(g),
                    ..Default::default()
                })
            }),
        };

        let index = &mut st.index;
        let column_index = (s.stats == EnabledStatistics::Page
            && index.valid
            && s.order != ValueOrder::Undefined
            && !index.null_pages.is_empty())
        .then(|| ColumnIndex {
            boundary_order: index.boundary_order(),
            null_pages: std::mem::take(&mut index.null_pages),
            min_values: std::mem::take(&mut index.mins),
            max_values: std::mem::take(&mut index.maxs),
            null_counts: Some(std::mem::take(&mut index.null_counts)),
            repetition_level_histograms: (s.max_rep > 0)
                .then(|| std::mem::take(&mut index.rep_hists)),
            definition_level_histograms: (s.max_def > 0)
                .then(|| std::mem::take(&mut index.def_hists)),
            nan_counts: s
                .order
                .counts_nans()
                .then(|| std::mem::take(&mut index.nan_counts)),
        });
        let offset_index = s.offset_index.then(|| OffsetIndex {
            page_locations: st
                .locations
                .iter()
                .map(|l| PageLocation {
                    offset: l.offset + dict_len,
                    ..*l
                })
                .collect(),
            unencoded_byte_array_data_bytes: is_byte_array
                .then(|| std::mem::take(&mut st.page_unencoded)),
        });
        let bloom = st.bloom.take().map(|b| {
            let mut sink = ByteSink::new();
            b.write(&mut sink);
            sink.into_vec()
        });
        let num_rows = st.num_rows;
        let dict_page = st.dict_page.into_vec();
        let data = st.data;
        Ok(ClosedColumnChunk {
            column,
            dict_page,
            data,
            metadata,
            column_index,
            offset_index,
            bloom,
            num_rows,
        })
    }
}

/// Bytes reserved for a data page's header when its buffer is allocated.
const PAGE_HEADER_ROOM: usize = 64;

/// The data pages of a column chunk, each (header and body) in a buffer of
/// its own sized to it. A chunk grows a page at a time without moving the
/// pages before it: one buffer doubling as it grew copied each page about
/// twice and touched about three times its final size in fresh memory,
/// which in the mixed-table write was a sixth of its page faults. The row
/// group writer hands a chunk's pages to the file in one vectored write.
#[derive(Debug, Default, Clone)]
pub(crate) struct Pages {
    pages: Vec<Vec<u8>>,
    len: usize,
}

impl Pages {
    fn push(&mut self, page: Vec<u8>) {
        self.len += page.len();
        self.pages.push(page);
    }

    /// Bytes of all pages.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The pages in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.pages.iter().map(Vec::as_slice)
    }

    /// Replace each page `i` by `reframe(i, page)` (its encrypted form).
    #[cfg(feature = "encryption")]
    pub(crate) fn reframe(
        &mut self,
        mut reframe: impl FnMut(usize, &[u8]) -> crate::error::Result<Vec<u8>>,
    ) -> crate::error::Result<()> {
        self.len = 0;
        for (i, page) in self.pages.iter_mut().enumerate() {
            *page = reframe(i, page)?;
            self.len += page.len();
        }
        Ok(())
    }

    /// Bytes of heap memory held.
    fn capacity(&self) -> usize {
        self.pages.iter().map(Vec::capacity).sum::<usize>()
            + self.pages.capacity() * std::mem::size_of::<Vec<u8>>()
    }
}

/// A finished column chunk: its pages (dictionary page first), metadata,
/// page index entries and Bloom filter, with file offsets relative to the
/// chunk's first byte until a [`RowGroupWriter`](super::RowGroupWriter)
/// places it.
#[derive(Debug, Clone)]
pub struct ClosedColumnChunk {
    pub(crate) column: usize,
    pub(crate) dict_page: Vec<u8>,
    pub(crate) data: Pages,
    pub(crate) metadata: ColumnMetaData,
    pub(crate) column_index: Option<ColumnIndex>,
    pub(crate) offset_index: Option<OffsetIndex>,
    pub(crate) bloom: Option<Vec<u8>>,
    pub(crate) num_rows: u64,
}

impl ClosedColumnChunk {
    /// Index of the leaf column.
    pub fn column(&self) -> usize {
        self.column
    }

    /// The chunk's metadata (offsets relative to the chunk).
    pub fn metadata(&self) -> &ColumnMetaData {
        &self.metadata
    }

    /// The chunk's column index, if page statistics were gathered and
    /// every page with values has bounds.
    pub fn column_index(&self) -> Option<&ColumnIndex> {
        self.column_index.as_ref()
    }

    /// The chunk's offset index (offsets relative to the chunk).
    pub fn offset_index(&self) -> Option<&OffsetIndex> {
        self.offset_index.as_ref()
    }

    /// Rows in the chunk.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// Bytes of pages (dictionary and data pages with their headers).
    pub fn len(&self) -> usize {
        self.dict_page.len() + self.data.len()
    }

    /// Whether the chunk has no pages.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The serialized Bloom filter (header and bitset), if one was built.
    pub fn bloom_filter(&self) -> Option<&[u8]> {
        self.bloom.as_deref()
    }
}

/// A column writer of any physical type, as a
/// [`RowGroupWriter`](super::RowGroupWriter) hands them out (arrow-rs's
/// variant names).
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum ColumnWriter {
    /// BOOLEAN.
    BoolColumnWriter(ColumnChunkWriter<bool>),
    /// INT32.
    Int32ColumnWriter(ColumnChunkWriter<i32>),
    /// INT64.
    Int64ColumnWriter(ColumnChunkWriter<i64>),
    /// INT96.
    Int96ColumnWriter(ColumnChunkWriter<Int96>),
    /// FLOAT.
    FloatColumnWriter(ColumnChunkWriter<f32>),
    /// DOUBLE.
    DoubleColumnWriter(ColumnChunkWriter<f64>),
    /// BYTE_ARRAY.
    ByteArrayColumnWriter(ColumnChunkWriter<ByteArray>),
    /// FIXED_LEN_BYTE_ARRAY.
    FixedLenByteArrayColumnWriter(ColumnChunkWriter<FixedLenByteArray>),
}

macro_rules! dispatch {
    ($self:expr, $w:ident => $body:expr) => {
        match $self {
            ColumnWriter::BoolColumnWriter($w) => $body,
            ColumnWriter::Int32ColumnWriter($w) => $body,
            ColumnWriter::Int64ColumnWriter($w) => $body,
            ColumnWriter::Int96ColumnWriter($w) => $body,
            ColumnWriter::FloatColumnWriter($w) => $body,
            ColumnWriter::DoubleColumnWriter($w) => $body,
            ColumnWriter::ByteArrayColumnWriter($w) => $body,
            ColumnWriter::FixedLenByteArrayColumnWriter($w) => $body,
        }
    };
}

impl ColumnWriter {
    /// The writer for a column of `descr`'s physical type.
    pub fn new(
        descr: Arc<ColumnDescriptor>,
        column: usize,
        props: Arc<WriterProperties>,
    ) -> Result<Self> {
        fn make<T: ColumnValue>(
            d: Arc<ColumnDescriptor>,
            c: usize,
            p: Arc<WriterProperties>,
        ) -> Result<ColumnWriter> {
            Ok(T::wrap(ColumnChunkWriter::<T>::new(d, c, p)?))
        }
        match descr.physical_type {
            Type::Boolean => make::<bool>(descr, column, props),
            Type::Int32 => make::<i32>(descr, column, props),
            Type::Int64 => make::<i64>(descr, column, props),
            Type::Int96 => make::<Int96>(descr, column, props),
            Type::Float => make::<f32>(descr, column, props),
            Type::Double => make::<f64>(descr, column, props),
            Type::ByteArray => make::<ByteArray>(descr, column, props),
            Type::FixedLenByteArray => make::<FixedLenByteArray>(descr, column, props),
        }
    }

    /// The typed writer, if the column is of type `T`.
    pub fn typed<T: ColumnValue>(&mut self) -> Option<&mut ColumnChunkWriter<T>> {
        T::typed(self)
    }

    /// The column written.
    pub fn descriptor(&self) -> &Arc<ColumnDescriptor> {
        dispatch!(self, w => w.descriptor())
    }

    /// The column's index among the schema's leaves.
    pub fn column_index(&self) -> usize {
        dispatch!(self, w => w.column_index())
    }

    /// Rows written so far.
    pub fn rows_written(&self) -> u64 {
        dispatch!(self, w => w.rows_written())
    }

    /// See [`ColumnChunkWriter::estimated_bytes`].
    pub fn estimated_bytes(&self) -> usize {
        dispatch!(self, w => w.estimated_bytes())
    }

    /// See [`ColumnChunkWriter::memory_size`].
    pub fn memory_size(&self) -> usize {
        dispatch!(self, w => w.memory_size())
    }

    /// See [`ColumnChunkWriter::add_data_page`].
    pub fn add_data_page(&mut self) -> Result<()> {
        dispatch!(self, w => w.add_data_page())
    }

    /// Finish the chunk.
    pub fn close(self) -> Result<ClosedColumnChunk> {
        dispatch!(self, w => w.close())
    }
}

#[cfg(test)]
mod tests {
    use super::add_to_histogram;

    /// Both ways of counting (a pass per bucket, a bucket per level) agree
    /// with a plain count, skipping levels outside the buckets.
    #[test]
    fn histogram_counts_each_level_in_range() {
        let levels: Vec<i16> = (0..1000i32).map(|i| ((i * 7919) % 23 - 3) as i16).collect();
        for buckets in [1usize, 3, 8, 9, 20] {
            let mut hist = vec![5i64; buckets];
            add_to_histogram(&mut hist, &levels);
            for (b, &count) in hist.iter().enumerate() {
                let expected = levels.iter().filter(|&&l| l as i64 == b as i64).count() as i64;
                assert_eq!(count, 5 + expected, "bucket {b} of {buckets}");
            }
        }
    }
}
