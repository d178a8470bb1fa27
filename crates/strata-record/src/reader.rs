//! [`ColumnRecordReader`]: records of one column chunk, in batches.

use std::sync::Arc;

use bytes::Bytes;
use strata_encoding::chunk::{ChunkDecoder, ChunkValue, Spaced, ValueBuffer, ViewBuffers};
use strata_encoding::{EncodingError, LevelDecoder, count_levels, def_levels_to_validity};
use strata_file::page::Page;
use strata_file::page_reader::PageReader;
use strata_format::ColumnDescriptor;
use strata_format::metadata::{Encoding, PageType};
use strata_sink::bitmap::{count_set, get_bit, set_bit};

use crate::buffers::RecordBatchBuffers;
use crate::error::{RecordError, Result};

/// Counters of what a reader did, for tests and benchmarks: which decode
/// path each piece of a batch took, and how pages were handled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Value runs decoded densely (no nulls in the run).
    pub dense_decodes: u64,
    /// Value runs decoded spaced (`decode_spaced`, at least one null).
    pub spaced_decodes: u64,
    /// Batches whose every value run was decoded densely.
    pub dense_batches: u64,
    /// Batches with at least one spaced run.
    pub spaced_batches: u64,
    /// Data pages decoded.
    pub data_pages: u64,
    /// Data pages skipped whole, without decompressing them.
    pub pages_skipped: u64,
    /// Dictionary pages decoded (at most one per column chunk).
    pub dictionary_pages: u64,
    /// Data pages of a flat optional column whose definition levels were
    /// one run of the maximum, known without decoding them.
    pub pages_without_nulls: u64,
}

impl ReadStats {
    /// Count one value run, spaced (with nulls) or dense.
    fn count_decode(&mut self, spaced: bool) {
        if spaced {
            self.spaced_decodes += 1;
        } else {
            self.dense_decodes += 1;
        }
    }
}

/// What the last batch took, to size the next batch's buffers when it
/// starts (buffers are sized by the batch, never by a page header).
#[derive(Debug, Clone, Copy, Default)]
struct BatchRoom {
    def_levels: usize,
    rep_levels: usize,
    validity: usize,
    values: (usize, usize),
}

impl BatchRoom {
    fn of<V: ValueBuffer>(out: &RecordBatchBuffers<V>) -> Self {
        Self {
            def_levels: out.def_levels.len(),
            rep_levels: out.rep_levels.len(),
            validity: out.validity.len(),
            values: out.values.room(),
        }
    }

    fn reserve_in<V: ValueBuffer>(&self, out: &mut RecordBatchBuffers<V>) {
        out.def_levels.reserve(self.def_levels);
        out.rep_levels.reserve(self.rep_levels);
        out.validity.reserve(self.validity);
        out.values.reserve_room(self.values);
    }
}

/// The outcome of
/// [`read_records_dictionary`](ColumnRecordReader::read_records_dictionary).
#[derive(Debug, Clone)]
pub enum DictionaryRead<D> {
    /// `records` records were read; the batch's values are indices into
    /// `dictionary`, the chunk's one dictionary (the same `Arc` for every
    /// batch). `dictionary` is `None` only for a batch of no values from a
    /// chunk without a dictionary page.
    Indices {
        /// Records read.
        records: usize,
        /// The chunk's dictionary.
        dictionary: Option<Arc<D>>,
    },
    /// The chunk's next page is not dictionary encoded (the writer fell
    /// back to another encoding). The `records` records read before it
    /// (possibly none) are indices into `dictionary`; read the rest of the
    /// chunk with [`read_records`](ColumnRecordReader::read_records).
    Fallback {
        /// Records read as indices before the fallback.
        records: usize,
        /// The chunk's dictionary, if it has one.
        dictionary: Option<Arc<D>>,
    },
}

/// The most levels (values, nulls included) the reader accepts in one
/// data page: 4,194,304. A page's levels, and its values for encodings
/// other than PLAIN and dictionary encoding, are decoded whole when the
/// page is loaded, and a page header's count is untrusted: a few bytes of
/// RLE can claim any number of levels. This bound caps what one page can
/// make the reader allocate (8 MiB of levels of each kind, 32 MiB of
/// decoded 8-byte values) whatever its header says; dictionary indices
/// are decoded as they are read, never a page at once. Writers
/// keep pages far smaller (arrow-rs, pyarrow and parquet-java cut pages
/// at 20,000 rows by default); a page over it is refused with
/// [`RecordError::PageTooLarge`].
pub const MAX_PAGE_LEVELS: usize = 1 << 22;

/// The most value slots reserved ahead for a column's first batch
/// (65,536: 1 MiB of 16-byte views); a larger first batch grows as its
/// values arrive.
const FIRST_BATCH_SLOTS: usize = 1 << 16;

/// `num_values` of a data page header as a level count, refused past
/// [`MAX_PAGE_LEVELS`].
fn page_levels(num_values: u32) -> Result<usize> {
    let levels = num_values as usize;
    if levels > MAX_PAGE_LEVELS {
        return Err(RecordError::PageTooLarge {
            levels: u64::from(num_values),
            limit: MAX_PAGE_LEVELS,
        });
    }
    Ok(levels)
}

/// The levels of the current data page, decoded when the page is loaded.
#[derive(Debug, Default)]
struct PageLevels {
    defs: Vec<i16>,
    reps: Vec<i16>,
    len: usize,
    pos: usize,
    /// Levels of the page below the maximum definition level (0 when the
    /// column has none): a page without nulls needs no per-batch scan.
    nulls: usize,
    /// The page's definition levels are all the maximum (one RLE run) and
    /// were not decoded: `defs` is empty (flat optional columns only).
    defs_elided: bool,
}

fn corrupt(message: impl Into<String>) -> RecordError {
    RecordError::Corrupt(message.into())
}

/// A run of records of a [`ColumnRecordReader::read_runs`] batch: records
/// read into the batch, or skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordRun {
    /// The records in the run.
    pub records: usize,
    /// Whether they are skipped.
    pub skip: bool,
}

impl RecordRun {
    /// `records` records read.
    pub fn read(records: usize) -> Self {
        Self {
            records,
            skip: false,
        }
    }

    /// `records` records skipped.
    pub fn skip(records: usize) -> Self {
        Self {
            records,
            skip: true,
        }
    }

    /// The records `runs` read.
    pub fn records_read(runs: &[RecordRun]) -> usize {
        runs.iter()
            .filter(|r| !r.skip)
            .fold(0usize, |sum, r| sum.saturating_add(r.records))
    }
}

/// What a pass over the levels does with them.
enum Sink<'o, T: ChunkValue> {
    Skip,
    Values(&'o mut RecordBatchBuffers<T::Values>),
    Indices(&'o mut RecordBatchBuffers<Vec<u32>>),
    Views(&'o mut RecordBatchBuffers<Vec<u128>>, &'o mut ViewBuffers),
    /// Values of the records whose bit is set, from bit `.2` of `.1` on.
    Kept(&'o mut RecordBatchBuffers<T::Values>, &'o [u8], usize),
}

/// Decode `n` levels of a v1 page at the start of `data`; returns the
/// bytes they take and whether they were elided (see [`fill_levels`]).
fn decode_levels_v1(
    data: &[u8],
    encoding: Encoding,
    max_level: i16,
    n: usize,
    out: &mut Vec<i16>,
    may_elide: bool,
) -> Result<(usize, bool)> {
    let mut dec = LevelDecoder::new(max_level)?;
    let used = match encoding {
        Encoding::Rle => dec.set_rle_v1(data, n)?,
        Encoding::BitPacked => dec.set_bit_packed(data, n)?,
        other => {
            return Err(RecordError::Unsupported(format!(
                "level encoding {other:?}"
            )));
        }
    };
    let elided = fill_levels(&mut dec, n, out, may_elide)?;
    Ok((used, elided))
}

/// Decode `n` levels into `out`. When `may_elide` and the stream is one
/// run of the maximum level, leave `out` empty and return `true` instead:
/// every level is the maximum.
fn fill_levels(
    dec: &mut LevelDecoder<'_>,
    n: usize,
    out: &mut Vec<i16>,
    may_elide: bool,
) -> Result<bool> {
    out.clear();
    if may_elide && dec.all_equal(dec.max_level())? {
        return Ok(true);
    }
    out.resize(n, 0);
    let got = dec.decode(out)?;
    if got != n {
        return Err(corrupt(format!("page has {got} of its {n} levels")));
    }
    Ok(false)
}

/// Reads the records of one column chunk in batches: levels, validity and
/// values, across page boundaries, never splitting a record.
///
/// `T` is the physical type's value type (`i32`, `i64`, `f32`, `f64`,
/// [`Int96`](strata_encoding::Int96), `bool`,
/// [`ByteArray`](strata_encoding::ByteArray),
/// [`FixedLenByteArray`](strata_encoding::FixedLenByteArray)).
#[derive(Debug)]
pub struct ColumnRecordReader<T: ChunkValue> {
    pages: PageReader,
    descr: ColumnDescriptor,
    max_def: i16,
    max_rep: i16,
    levels: PageLevels,
    values: ChunkDecoder<T>,
    stats: ReadStats,
    /// Copy the definition levels of a flat optional column into the
    /// output (its validity bitmap carries the same facts).
    flat_def_levels: bool,
    /// The last batch's size, which the next batch's buffers are given
    /// when it starts.
    last_room: BatchRoom,
    /// For a run with nulls read under a filter: one bit per present
    /// value, set where its record is kept. Grown on first use, reused.
    kept_present: Vec<u8>,
}

impl<T: ChunkValue> ColumnRecordReader<T> {
    /// A reader of the column chunk `pages`, whose leaf is `descr`.
    ///
    /// Fails if `descr`'s physical type is not `T`'s, if its maximum
    /// levels are negative, or if it is a FIXED_LEN_BYTE_ARRAY column
    /// without a positive `type_length`
    /// ([`RecordError::InvalidArgument`]).
    pub fn new(pages: PageReader, descr: ColumnDescriptor) -> Result<Self> {
        if !T::accepts(descr.physical_type) {
            return Err(RecordError::TypeMismatch {
                column: descr.path.parts().join("."),
                expected: T::NAME,
                found: format!("{:?}", descr.physical_type),
            });
        }
        if descr.max_def_level < 0 || descr.max_rep_level < 0 {
            return Err(RecordError::InvalidArgument(format!(
                "negative maximum levels ({}, {})",
                descr.max_def_level, descr.max_rep_level
            )));
        }
        let values = ChunkDecoder::new(&descr).map_err(|e| match e {
            EncodingError::InvalidArgument(m) => RecordError::InvalidArgument(m),
            other => other.into(),
        })?;
        Ok(Self {
            pages,
            max_def: descr.max_def_level,
            max_rep: descr.max_rep_level,
            descr,
            levels: PageLevels::default(),
            values,
            stats: ReadStats::default(),
            flat_def_levels: true,
            last_room: BatchRoom::default(),
            kept_present: Vec::new(),
        })
    }

    /// Whether batches of a flat optional column (maximum repetition level
    /// 0) carry their definition levels in
    /// [`RecordBatchBuffers::def_levels`] (the default) or leave it empty.
    /// Such a column's validity bitmap says the same thing, so a caller
    /// that only needs values and validity saves a copy of every level.
    /// Has no effect on other columns.
    ///
    /// ```no_run
    /// # fn demo(mut reader: strata_record::ColumnRecordReader<i64>) -> strata_record::Result<()> {
    /// use strata_record::RecordBatchBuffers;
    /// reader.set_flat_def_levels(false);
    /// let mut out = RecordBatchBuffers::new();
    /// reader.read_records(1024, &mut out)?;
    /// assert!(out.def_levels.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn set_flat_def_levels(&mut self, keep: bool) {
        self.flat_def_levels = keep;
    }

    /// The column's descriptor.
    pub fn descriptor(&self) -> &ColumnDescriptor {
        &self.descr
    }

    /// What the reader has done so far.
    pub fn stats(&self) -> ReadStats {
        self.stats
    }

    /// The chunk's dictionary, once its dictionary page has been read
    /// (decoded on first use).
    pub fn dictionary(&mut self) -> Result<Option<&Arc<T::Dict>>> {
        Ok(self.values.dictionary()?)
    }

    /// Whether every entry of the chunk's dictionary is valid UTF-8
    /// (checked once; `false` without a dictionary), so that a batch whose
    /// every value is a dictionary entry needs no UTF-8 check of its own.
    pub fn dictionary_is_utf8(&mut self) -> Result<bool> {
        Ok(self.values.dictionary_is_utf8()?)
    }

    /// Size `out` for a batch of up to `max_records` records: by what the
    /// last batch took, or for the first batch of a non-repeated column
    /// (one value slot per record) by `max_records`, at most the values
    /// the chunk's metadata says it has left and at most
    /// [`FIRST_BATCH_SLOTS`], so the first batch's values are not grown
    /// (and copied) step by step either. The metadata's count is
    /// untrusted and a caller may ask for any number of records: the
    /// fixed bound keeps either from sizing the reservation.
    fn size_batch<V: ValueBuffer>(&self, max_records: usize, out: &mut RecordBatchBuffers<V>) {
        if self.last_room.values.0 == 0 && self.max_rep == 0 {
            let page_left = self.levels.len.saturating_sub(self.levels.pos) as u64;
            let chunk_left = page_left.saturating_add(self.pages.values_left());
            let slots = usize::try_from(chunk_left)
                .map_or(max_records, |n| n.min(max_records))
                .min(FIRST_BATCH_SLOTS);
            out.values.reserve_room((slots, 0));
        }
        self.last_room.reserve_in(out);
    }

    /// Read up to `max_records` records into `out` (cleared first) and
    /// return how many were read: 0 only at the end of the chunk (or when
    /// `max_records` is 0). A record is never split across batches.
    ///
    /// A [`FixedLenByteArrayBuffer`](strata_encoding::FixedLenByteArrayBuffer)
    /// `out.values` is given the column's width (a default one has none).
    pub fn read_records(
        &mut self,
        max_records: usize,
        out: &mut RecordBatchBuffers<T::Values>,
    ) -> Result<usize> {
        self.read_runs(&[RecordRun::read(max_records)], out)
    }

    /// Read the records `runs` read into `out` (cleared first), one batch,
    /// skipping the records of the runs that skip (without decoding them
    /// where the encoding allows, as [`skip_records`](Self::skip_records)
    /// does). Returns the records read; fewer than the runs read only at
    /// the end of the chunk, where the runs stop.
    ///
    /// ```no_run
    /// # fn demo(mut reader: strata_record::ColumnRecordReader<i64>) -> strata_record::Result<()> {
    /// use strata_record::{RecordBatchBuffers, RecordRun};
    /// let mut out = RecordBatchBuffers::new();
    /// // Records 0..2 and 100..103 of the chunk, in one batch.
    /// let runs = [RecordRun::read(2), RecordRun::skip(98), RecordRun::read(3)];
    /// assert_eq!(reader.read_runs(&runs, &mut out)?, 5);
    /// # Ok(()) }
    /// ```
    pub fn read_runs(
        &mut self,
        runs: &[RecordRun],
        out: &mut RecordBatchBuffers<T::Values>,
    ) -> Result<usize> {
        self.read_batch(runs, None, out)
    }

    /// One batch of `runs` into `out` (cleared first): every record read,
    /// or with `keep` (the bitmap and the bit of the first record read)
    /// only those whose bit is set. Returns the records read.
    fn read_batch(
        &mut self,
        runs: &[RecordRun],
        keep: Option<(&[u8], usize)>,
        out: &mut RecordBatchBuffers<T::Values>,
    ) -> Result<usize> {
        out.clear();
        out.from_dictionary = true;
        self.values.reset_values(&mut out.values);
        self.size_batch(RecordRun::records_read(runs), out);
        let spaced_before = self.stats.spaced_decodes;
        let records = match keep {
            Some((bits, offset)) => self.consume_runs(runs, &mut Sink::Kept(out, bits, offset))?,
            None => self.consume_runs(runs, &mut Sink::Values(out))?,
        };
        // Kept records are one level each (the column is not repeated).
        out.num_records = if keep.is_some() {
            out.num_levels
        } else {
            records
        };
        self.last_room = BatchRoom::of(out);
        self.count_batch(spaced_before);
        Ok(records)
    }

    /// Read the records `runs` read, as [`read_runs`](Self::read_runs)
    /// does, keeping in `out` (cleared first) only those whose bit in
    /// `keep` is set: one bit per record read, LSB first, from bit
    /// `offset`. The records a filter drops are passed over as a skip
    /// passes over them (dictionary indices decoded but not gathered,
    /// byte arrays walked, and copied only where many are kept). Returns
    /// the records read, kept
    /// or not; `out.num_records` is the records kept.
    ///
    /// Only for columns that are not repeated (a record is one level);
    /// fails with [`RecordError::InvalidArgument`] for a repeated column
    /// or a `keep` too short for the records the runs read.
    ///
    /// ```no_run
    /// # fn demo(mut reader: strata_record::ColumnRecordReader<i64>) -> strata_record::Result<()> {
    /// use strata_record::{RecordBatchBuffers, RecordRun};
    /// let mut out = RecordBatchBuffers::new();
    /// // Records 0..8 read, records 1, 2 and 7 kept.
    /// let keep = [0b1000_0110u8];
    /// assert_eq!(reader.read_runs_kept(&[RecordRun::read(8)], &keep, 0, &mut out)?, 8);
    /// assert_eq!(out.num_records, 3);
    /// # Ok(()) }
    /// ```
    pub fn read_runs_kept(
        &mut self,
        runs: &[RecordRun],
        keep: &[u8],
        offset: usize,
        out: &mut RecordBatchBuffers<T::Values>,
    ) -> Result<usize> {
        if self.max_rep > 0 {
            return Err(RecordError::InvalidArgument(
                "records kept by a mask from a repeated column".into(),
            ));
        }
        let wanted = RecordRun::records_read(runs);
        let bits = offset.checked_add(wanted).map(|end| end.div_ceil(8));
        if bits.is_none_or(|bytes| bytes > keep.len()) {
            return Err(RecordError::InvalidArgument(format!(
                "a mask of {} bytes for {wanted} records from bit {offset}",
                keep.len()
            )));
        }
        self.read_batch(runs, Some((keep, offset)), out)
    }

    /// Read up to `max_records` records as dictionary indices into `out`
    /// (cleared first), for an Arrow `DictionaryArray`: every batch of the
    /// chunk shares the chunk's dictionary `Arc`, never copied. Stops
    /// before a page that is not dictionary encoded and says so with
    /// [`DictionaryRead::Fallback`]; continue with
    /// [`read_records`](Self::read_records). Null slots of flat optional
    /// columns hold index 0.
    pub fn read_records_dictionary(
        &mut self,
        max_records: usize,
        out: &mut RecordBatchBuffers<Vec<u32>>,
    ) -> Result<DictionaryRead<T::Dict>> {
        out.clear();
        self.size_batch(max_records, out);
        let spaced_before = self.stats.spaced_decodes;
        let (records, fallback) = self.consume(max_records, &mut Sink::Indices(out))?;
        out.num_records = records;
        self.last_room = BatchRoom::of(out);
        self.count_batch(spaced_before);
        let dictionary = self.values.dictionary()?.cloned();
        Ok(if fallback {
            DictionaryRead::Fallback {
                records,
                dictionary,
            }
        } else {
            DictionaryRead::Indices {
                records,
                dictionary,
            }
        })
    }

    /// Read up to `max_records` records of a byte-array column as 16-byte
    /// views ([`strata_encoding::byte_view`], the layout of Arrow's
    /// `Utf8View`/`BinaryView`) into `out` (cleared first), their data in
    /// `buffers` (cleared first; take them with [`ViewBuffers::take`]):
    /// entries of the chunk's dictionary are views into the dictionary's
    /// bytes (each index decoded straight into its entry's view), views of
    /// PLAIN values point into the pages themselves, so no value byte is
    /// copied; values of other encodings are copied once into one buffer.
    /// Null slots of flat optional columns hold an empty view. A chunk that
    /// falls back from dictionary pages is read through in one call.
    pub fn read_records_views(
        &mut self,
        max_records: usize,
        out: &mut RecordBatchBuffers<Vec<u128>>,
        buffers: &mut ViewBuffers,
    ) -> Result<usize> {
        self.read_runs_views(&[RecordRun::read(max_records)], out, buffers)
    }

    /// [`read_records_views`](Self::read_records_views) of the records
    /// `runs` read, skipping the others ([`read_runs`](Self::read_runs)).
    pub fn read_runs_views(
        &mut self,
        runs: &[RecordRun],
        out: &mut RecordBatchBuffers<Vec<u128>>,
        buffers: &mut ViewBuffers,
    ) -> Result<usize> {
        out.clear();
        buffers.clear();
        self.size_batch(RecordRun::records_read(runs), out);
        let spaced_before = self.stats.spaced_decodes;
        let records = self.consume_runs(runs, &mut Sink::Views(out, buffers))?;
        out.num_records = records;
        self.last_room = BatchRoom::of(out);
        self.count_batch(spaced_before);
        Ok(records)
    }

    /// Walk `runs`, skipping or handing to `sink`; returns the records
    /// handed to `sink`. Stops where the chunk ends.
    fn consume_runs(&mut self, runs: &[RecordRun], sink: &mut Sink<'_, T>) -> Result<usize> {
        let mut read = 0usize;
        for run in runs {
            // A skip within the current page of a flat column whose page
            // has no nulls: every level holds a value, so the values are
            // skipped without walking the levels.
            let in_page = self.levels.len.saturating_sub(self.levels.pos);
            if run.skip
                && self.max_rep == 0
                && (self.max_def == 0 || self.levels.nulls == 0)
                && run.records <= in_page
            {
                self.values.skip(run.records)?;
                self.levels.pos += run.records;
                continue;
            }
            let n = if run.skip {
                self.consume(run.records, &mut Sink::Skip)?.0
            } else {
                let n = self.consume(run.records, sink)?.0;
                read += n;
                n
            };
            if n < run.records {
                break;
            }
        }
        Ok(read)
    }

    /// Skip up to `n` records and return how many were skipped (fewer only
    /// at the end of the chunk). Values are not decoded where the encoding
    /// allows (PLAIN fixed width advances a position; dictionary pages skip
    /// indices), and whole data pages are skipped without decompression
    /// when their record count is known (v2 headers, or any data page of a
    /// non-repeated column).
    pub fn skip_records(&mut self, n: usize) -> Result<usize> {
        Ok(self.consume(n, &mut Sink::Skip)?.0)
    }

    fn count_batch(&mut self, spaced_before: u64) {
        if self.stats.spaced_decodes == spaced_before {
            self.stats.dense_batches += 1;
        } else {
            self.stats.spaced_batches += 1;
        }
    }

    /// Walk up to `max_records` records of levels, handing each run of
    /// levels within a page to `sink`. Returns the records and whether a
    /// dictionary-mode pass stopped at a non-dictionary page.
    fn consume(&mut self, max_records: usize, sink: &mut Sink<'_, T>) -> Result<(usize, bool)> {
        let mut records = 0usize;
        if max_records == 0 {
            return Ok((0, false));
        }
        loop {
            if self.levels.pos >= self.levels.len {
                // With an offset index, pages begin at record boundaries
                // (parquet.thrift, `PageLocation`): the last record of a
                // page is complete, and the next page, which a sparse read
                // may not have fetched, need not be looked at.
                if records == max_records && self.pages.num_indexed_pages().is_some() {
                    break;
                }
                if matches!(sink, Sink::Skip) && records < max_records {
                    let skipped = self.skip_whole_pages(max_records - records)?;
                    records += skipped;
                    // Pages skipped whole end at a record boundary; an open
                    // record from a partly read page may still continue in
                    // the next page, so that page is loaded and scanned.
                    if skipped > 0 && records == max_records {
                        break;
                    }
                }
                if !self.load_next_page()? {
                    break;
                }
                continue;
            }
            if matches!(sink, Sink::Indices(_)) && !self.values.is_dictionary_page() {
                let continues = self.max_rep > 0
                    && self
                        .levels
                        .reps
                        .get(self.levels.pos)
                        .is_some_and(|&r| r != 0);
                if continues && records > 0 {
                    return Err(RecordError::FallbackMidRecord);
                }
                return Ok((records, true));
            }
            let remaining = max_records - records;
            let (take, started, stop) = self.scan(remaining);
            if take > 0 {
                self.emit(take, sink)?;
            }
            records += started;
            if stop || (self.max_rep == 0 && records == max_records) {
                break;
            }
        }
        Ok((records, false))
    }

    /// How many levels of the current page to take for at most
    /// `remaining` more records: (levels, records started, whether a
    /// record boundary past the last wanted record was reached).
    fn scan(&self, remaining: usize) -> (usize, usize, bool) {
        let (pos, len) = (self.levels.pos, self.levels.len);
        if self.max_rep == 0 {
            let take = remaining.min(len - pos);
            return (take, take, take == remaining);
        }
        let reps = self.levels.reps.get(pos..len).unwrap_or_default();
        let mut started = 0usize;
        // Whole chunks whose record starts all fall within `remaining` are
        // counted without a branch per level (the count vectorises); the
        // chunk where the wanted records end is walked level by level.
        const CHUNK: usize = 64;
        let mut offset = 0usize;
        for chunk in reps.chunks_exact(CHUNK) {
            let zeros = chunk.iter().map(|&r| usize::from(r == 0)).sum::<usize>();
            if started + zeros > remaining {
                break;
            }
            started += zeros;
            offset += CHUNK;
        }
        for (i, &r) in reps.iter().enumerate().skip(offset) {
            if r == 0 {
                if started == remaining {
                    return (i, started, true);
                }
                started += 1;
            }
        }
        (reps.len(), started, false)
    }

    /// Hand the next `take` levels of the page to `sink`.
    fn emit(&mut self, take: usize, sink: &mut Sink<'_, T>) -> Result<()> {
        let start = self.levels.pos;
        let end = start + take;
        let max_def = self.max_def;
        // Elided levels are all `max_def`: no slice to read them from.
        let elided = self.levels.defs_elided;
        let defs: &[i16] = if max_def > 0 && !elided {
            self.levels
                .defs
                .get(start..end)
                .ok_or_else(|| corrupt("definition levels past the page"))?
        } else {
            &[]
        };
        let reps: &[i16] = if self.max_rep > 0 {
            self.levels
                .reps
                .get(start..end)
                .ok_or_else(|| corrupt("repetition levels past the page"))?
        } else {
            &[]
        };
        let flat_optional = self.max_rep == 0 && max_def > 0;
        let run = LevelRun {
            defs,
            reps,
            take,
            max_def,
            elided,
            flat_optional,
            copy_defs: !flat_optional || self.flat_def_levels,
            page_has_nulls: self.levels.nulls > 0,
        };
        match sink {
            Sink::Skip => self.values.skip(run.present())?,
            Sink::Values(out) => {
                if !self.values.is_dictionary_page() {
                    out.from_dictionary = false;
                }
                let values = &mut self.values;
                read_run(out, &run, &mut self.stats, |n, v, s| {
                    Ok(values.read(n, v, s)?)
                })?;
            }
            Sink::Indices(out) => {
                let values = &mut self.values;
                read_run(out, &run, &mut self.stats, |n, v, s| {
                    Ok(values.read_indices(n, v, s)?)
                })?;
            }
            Sink::Views(out, buffers) => {
                let values = &mut self.values;
                read_run(out, &run, &mut self.stats, |n, v, s| {
                    Ok(values.read_views(n, v, buffers, s)?)
                })?;
            }
            Sink::Kept(out, keep, at) => {
                if !self.values.is_dictionary_page() {
                    out.from_dictionary = false;
                }
                read_kept_run(
                    out,
                    &run,
                    (keep, *at),
                    &mut self.kept_present,
                    &mut self.stats,
                    &mut self.values,
                )?;
                *at += take;
            }
        }
        self.levels.pos = end;
        Ok(())
    }

    /// Skip whole data pages, without decompressing them, while each holds
    /// no more than `remaining` records and its record count is known.
    /// Only called between pages.
    fn skip_whole_pages(&mut self, remaining: usize) -> Result<usize> {
        // With an offset index, whole pages are passed over without reading
        // their headers; the rest goes page by page below. A dictionary in
        // front of the first data page is read first (the index starts at
        // the data pages, which a sparse read may not have fetched).
        if self.pages.before_indexed_pages() {
            self.read_leading_dictionary()?;
        }
        let (by_index, pages) = self.pages.skip_pages_by_index(remaining as u64);
        let mut skipped = usize::try_from(by_index).unwrap_or(0).min(remaining);
        self.stats.pages_skipped += pages as u64;
        while skipped < remaining {
            let Some(info) = self.pages.peek_header()? else {
                break;
            };
            let page_type = info.page_type();
            let v2_rows = info.header.data_page_header_v2.as_ref().map(|h| h.num_rows);
            let num_values = info.data_page_num_values();
            let rows = match page_type {
                PageType::DataPageV2 => v2_rows.map_or(0, |n| usize::try_from(n).unwrap_or(0)),
                PageType::DataPage if self.max_rep == 0 => {
                    num_values.map_or(0, |n| usize::try_from(n).unwrap_or(0))
                }
                // A v1 header counts levels; the offset index, if the reader
                // has one, gives the rows (pages start at record boundaries
                // when a page index is written).
                PageType::DataPage => match self.pages.next_page_rows_from_index() {
                    Some(rows) => usize::try_from(rows).unwrap_or(0),
                    None => break,
                },
                _ => break,
            };
            // A page of no rows may continue a record: read it instead.
            if rows == 0 || rows > remaining - skipped {
                break;
            }
            self.pages.skip_next_page()?;
            self.stats.pages_skipped += 1;
            skipped += rows;
        }
        Ok(skipped)
    }

    /// Decode a dictionary page for the data pages after it.
    fn set_dictionary_page(&mut self, page: Page) -> Result<()> {
        if let Page::DictionaryPage {
            buf,
            num_values,
            encoding,
            ..
        } = page
        {
            self.values
                .set_dictionary(encoding, &buf, num_values as usize)?;
            self.stats.dictionary_pages += 1;
        }
        Ok(())
    }

    /// Read the dictionary page the page reader stands at, if it does, so
    /// that the reader stands at the first data page.
    fn read_leading_dictionary(&mut self) -> Result<()> {
        let at_dictionary = self
            .pages
            .peek_header()?
            .is_some_and(|info| info.page_type() == PageType::DictionaryPage);
        if at_dictionary && let Some(page) = self.pages.next().transpose()? {
            self.set_dictionary_page(page)?;
        }
        Ok(())
    }

    /// Load the next data page (decoding a dictionary page on the way).
    /// Returns `false` at the end of the chunk.
    fn load_next_page(&mut self) -> Result<bool> {
        // Let go of the last page first: the page reader decompresses the
        // next one over its buffer when nothing else holds it, so a chunk
        // read batch by batch keeps one page buffer, not two.
        self.values.release_page();
        loop {
            let Some(page) = self.pages.next().transpose()? else {
                self.levels.len = 0;
                self.levels.pos = 0;
                self.values.release_page();
                return Ok(false);
            };
            match page {
                Page::DictionaryPage { .. } => self.set_dictionary_page(page)?,
                Page::DataPage {
                    buf,
                    num_values,
                    encoding,
                    def_level_encoding,
                    rep_level_encoding,
                    ..
                } => {
                    let n = page_levels(num_values)?;
                    let mut offset = 0usize;
                    let mut elided = false;
                    if self.max_rep > 0 {
                        let data = buf.get(offset..).unwrap_or_default();
                        offset += decode_levels_v1(
                            data,
                            rep_level_encoding,
                            self.max_rep,
                            n,
                            &mut self.levels.reps,
                            false,
                        )?
                        .0;
                    }
                    if self.max_def > 0 {
                        let data = buf.get(offset..).unwrap_or_default();
                        let (used, e) = decode_levels_v1(
                            data,
                            def_level_encoding,
                            self.max_def,
                            n,
                            &mut self.levels.defs,
                            self.max_rep == 0,
                        )?;
                        offset += used;
                        elided = e;
                    }
                    self.levels.defs_elided = elided;
                    let values = buf.slice(offset.min(buf.len())..);
                    self.start_page(n, encoding, values)?;
                    return Ok(true);
                }
                Page::DataPageV2 {
                    buf,
                    num_values,
                    encoding,
                    def_levels_byte_len,
                    rep_levels_byte_len,
                    ..
                } => {
                    let n = page_levels(num_values)?;
                    let rep_len = rep_levels_byte_len as usize;
                    let def_end = rep_len + def_levels_byte_len as usize;
                    if def_end > buf.len() {
                        return Err(corrupt("v2 page levels past the page"));
                    }
                    if self.max_rep > 0 {
                        let mut dec = LevelDecoder::new(self.max_rep)?;
                        dec.set_rle_v2(&buf[..rep_len], n)?;
                        fill_levels(&mut dec, n, &mut self.levels.reps, false)?;
                    }
                    self.levels.defs_elided = false;
                    if self.max_def > 0 {
                        let mut dec = LevelDecoder::new(self.max_def)?;
                        dec.set_rle_v2(&buf[rep_len..def_end], n)?;
                        self.levels.defs_elided =
                            fill_levels(&mut dec, n, &mut self.levels.defs, self.max_rep == 0)?;
                    }
                    let values = buf.slice(def_end..);
                    self.start_page(n, encoding, values)?;
                    return Ok(true);
                }
            }
        }
    }

    /// Set up the values of a data page of `n` levels.
    fn start_page(&mut self, n: usize, encoding: Encoding, values: Bytes) -> Result<()> {
        if self.max_def == 0 {
            self.levels.defs.clear();
        }
        if self.max_rep == 0 {
            self.levels.reps.clear();
        }
        self.levels.len = n;
        self.levels.pos = 0;
        let max_def = self.max_def;
        if max_def == 0 {
            self.levels.defs_elided = false;
        }
        if self.levels.defs_elided {
            self.stats.pages_without_nulls += 1;
        }
        let present = if max_def > 0 && !self.levels.defs_elided {
            count_levels(
                self.levels.defs.get(..n).unwrap_or(&self.levels.defs),
                max_def,
            )
        } else {
            n
        };
        self.levels.nulls = n.saturating_sub(present);
        self.values.set_page(encoding, values, present)?;
        self.stats.data_pages += 1;
        Ok(())
    }
}

/// The levels of one run of a page handed to a sink.
struct LevelRun<'a> {
    /// Definition levels (empty when the maximum is 0 or they were elided).
    defs: &'a [i16],
    /// Repetition levels (empty when the maximum is 0).
    reps: &'a [i16],
    /// Number of levels.
    take: usize,
    max_def: i16,
    /// The page's definition levels are all `max_def` and were not decoded.
    elided: bool,
    /// Maximum repetition level 0, maximum definition level above 0.
    flat_optional: bool,
    /// Copy the definition levels into the output.
    copy_defs: bool,
    /// The page has at least one level below `max_def`.
    page_has_nulls: bool,
}

impl LevelRun<'_> {
    /// Values present in the run.
    fn present(&self) -> usize {
        if self.max_def > 0 && !self.elided {
            count_levels(self.defs, self.max_def)
        } else {
            self.take
        }
    }
}

/// Append `run`'s levels to `out` and, for a flat optional column, its
/// validity and null count. Returns the values present and, when some
/// slots are null, the validity offset of the run and its null count.
fn push_levels<V>(
    out: &mut RecordBatchBuffers<V>,
    run: &LevelRun<'_>,
) -> Result<(usize, Option<(usize, usize)>)> {
    if run.copy_defs {
        copy_def_levels(
            &mut out.def_levels,
            run.defs,
            run.elided,
            run.max_def,
            run.take,
        );
    }
    out.rep_levels.extend_from_slice(run.reps);
    if !run.flat_optional {
        return Ok((run.present(), None));
    }
    let offset = out.num_levels;
    let nulls = if run.elided {
        set_all_valid(&mut out.validity, offset, run.take);
        0
    } else {
        validity_for(
            run.defs,
            run.max_def,
            run.page_has_nulls,
            &mut out.validity,
            offset,
        )?
    };
    out.null_count += nulls;
    Ok((run.take - nulls, (nulls > 0).then_some((offset, nulls))))
}

/// Hand `run` to `out`: its levels, then its values through `read` (the
/// number present, the output values, and where they go when some slots
/// are null).
fn read_run<V>(
    out: &mut RecordBatchBuffers<V>,
    run: &LevelRun<'_>,
    stats: &mut ReadStats,
    read: impl FnOnce(usize, &mut V, Option<Spaced<'_>>) -> Result<()>,
) -> Result<()> {
    let (present, nulls) = push_levels(out, run)?;
    let spaced = nulls.map(|(offset, nulls)| Spaced {
        validity: &out.validity,
        offset,
        slots: run.take,
        nulls,
    });
    read(present, &mut out.values, spaced)?;
    stats.count_decode(spaced.is_some());
    out.num_levels += run.take;
    Ok(())
}

/// Hand the records of `run` (of a column that is not repeated, a level
/// each) whose bits in `keep` (the bitmap, and the bit of the run's first
/// record) are set to `out`: their levels, validity and values. The
/// values of the others are passed over by
/// [`ChunkDecoder::read_kept`]. With nulls in the run, `kept_present`
/// gets one bit per present value, set where its record is kept.
fn read_kept_run<T: ChunkValue>(
    out: &mut RecordBatchBuffers<T::Values>,
    run: &LevelRun<'_>,
    (keep, at): (&[u8], usize),
    kept_present: &mut Vec<u8>,
    stats: &mut ReadStats,
    values: &mut ChunkDecoder<T>,
) -> Result<()> {
    let offset = out.num_levels;
    if run.max_def == 0 || run.elided || !run.page_has_nulls {
        // Every level holds a value: the records' bits are the values'.
        let kept = count_set(keep, at, run.take);
        if run.copy_defs && run.max_def > 0 {
            out.def_levels
                .resize(out.def_levels.len() + kept, run.max_def);
        }
        if run.flat_optional {
            set_all_valid(&mut out.validity, offset, kept);
        }
        values.read_kept(run.take, keep, at, &mut out.values)?;
        stats.count_decode(false);
        out.num_levels += kept;
        return Ok(());
    }
    let defs = run
        .defs
        .get(..run.take)
        .ok_or_else(|| corrupt("definition levels past the page"))?;
    kept_present.clear();
    kept_present.resize(run.take.div_ceil(8), 0);
    let need = (offset + run.take).div_ceil(8);
    if out.validity.len() < need {
        out.validity.resize(need, 0);
    }
    let (mut present, mut kept, mut kept_nulls) = (0usize, 0usize, 0usize);
    for (i, &d) in defs.iter().enumerate() {
        let is_kept = get_bit(keep, at + i);
        let is_present = d == run.max_def;
        if is_present {
            if is_kept {
                set_bit(kept_present, present);
            }
            present += 1;
        }
        if is_kept {
            if run.copy_defs {
                out.def_levels.push(d);
            }
            if is_present {
                set_bit(&mut out.validity, offset + kept);
            } else {
                kept_nulls += 1;
            }
            kept += 1;
        }
    }
    out.null_count += kept_nulls;
    let spaced = (kept_nulls > 0).then_some(Spaced {
        validity: &out.validity,
        offset,
        slots: kept,
        nulls: kept_nulls,
    });
    let mark = match spaced {
        Some(s) => Some(out.values.mark_spaced(s.slots)?),
        None => None,
    };
    values.read_kept(present, kept_present, 0, &mut out.values)?;
    if let (Some(mark), Some(s)) = (mark, spaced) {
        out.values.spread_tail(mark, s)?;
    }
    stats.count_decode(spaced.is_some());
    out.num_levels += kept;
    Ok(())
}

/// Append `take` definition levels: `defs`, or `max_def` repeated when
/// the page's levels were elided.
fn copy_def_levels(out: &mut Vec<i16>, defs: &[i16], elided: bool, max_def: i16, take: usize) {
    if elided {
        out.resize(out.len() + take, max_def);
    } else {
        out.extend_from_slice(defs);
    }
}

/// Mark `len` slots from bit `offset` of `validity` present (growing it).
fn set_all_valid(validity: &mut Vec<u8>, offset: usize, len: usize) {
    let need = (offset + len).div_ceil(8);
    if validity.len() < need {
        validity.resize(need, 0);
    }
    set_bits(validity, offset, len);
}

/// Write the validity bits of `defs` at bit `offset` of `validity`
/// (growing it) and return the null count. `may_have_nulls` is false when
/// the page is known to have none (no scan of the levels then).
fn validity_for(
    defs: &[i16],
    max_def: i16,
    may_have_nulls: bool,
    validity: &mut Vec<u8>,
    offset: usize,
) -> Result<usize> {
    // No nulls (the common case for optional columns): a vectorised check
    // and whole-byte fills instead of building the bitmap bit by bit.
    // Chunked, non-short-circuiting compares so the check vectorises.
    let all_present = !may_have_nulls
        || defs
            .chunks(64)
            .all(|c| c.iter().fold(true, |acc, &d| acc & (d == max_def)));
    if all_present {
        set_all_valid(validity, offset, defs.len());
        return Ok(0);
    }
    let need = (offset + defs.len()).div_ceil(8);
    if validity.len() < need {
        validity.resize(need, 0);
    }
    Ok(def_levels_to_validity(defs, max_def, validity, offset)?)
}

/// Set bits `offset..offset + len` of an LSB-first bitmap long enough to
/// hold them.
fn set_bits(bitmap: &mut [u8], offset: usize, len: usize) {
    let end = offset + len;
    let mut bit = offset;
    while bit < end && !bit.is_multiple_of(8) {
        if let Some(b) = bitmap.get_mut(bit / 8) {
            *b |= 1 << (bit % 8);
        }
        bit += 1;
    }
    let whole_end = end / 8 * 8;
    if bit < whole_end {
        if let Some(bytes) = bitmap.get_mut(bit / 8..whole_end / 8) {
            bytes.fill(0xFF);
        }
        bit = whole_end;
    }
    while bit < end {
        if let Some(b) = bitmap.get_mut(bit / 8) {
            *b |= 1 << (bit % 8);
        }
        bit += 1;
    }
}
