//! [`LeafReader`]: one Parquet leaf column to Arrow arrays, a batch of
//! records at a time.
//!
//! ## Data flow
//!
//! ```text
//! ColumnRecordReader<T> ── read_records(n) ──▶ RecordBatchBuffers
//!   levels (def, rep)                     ──▶ kept for the parents' assembly
//!   validity bitmap (flat optional)       ──▶ NullBuffer, no copy
//!   values Vec<T> / offsets + bytes       ──▶ Arrow buffers, no copy
//!                                             (taken out of the buffers)
//!   ──▶ converted to the target Arrow type (widening, units, decimals)
//!   ──▶ repeated leaves with null slots: dense values (or dictionary
//!       keys, or views) spread to one slot per level with def >= slot
//!       level, before they become an array (`spread_batch`)
//! dictionary target ── read_records_dictionary(n) ──▶ u32 indices + the
//!   chunk's dictionary Arc, turned into an Arrow array once per chunk
//! ```
//!
//! A flat optional column whose batch has no nulls gets no `NullBuffer`
//! and its values were decoded densely by the record reader.

use std::sync::Arc;

use arrow_array::types::*;
use arrow_array::*;
use arrow_buffer::{
    BooleanBuffer, Buffer, IntervalDayTime, IntervalMonthDayNano, NullBuffer, OffsetBuffer,
    ScalarBuffer, ToByteSlice, i256,
};
use arrow_schema::{DataType, IntervalUnit, TimeUnit as ArrowTimeUnit};
use strata_encoding::chunk::{ChunkValue, Spaced, ValueBuffer, ViewBuffers};
use strata_encoding::{
    ByteArray, ByteArrayBuffer, FirstOccurrences, FixedLenByteArray, FixedLenByteArrayBuffer, Int96,
};
use strata_file::page_reader::PageReader;
use strata_format::ColumnDescriptor;
use strata_format::metadata::{LogicalType, TimeUnit, TimestampType};
use strata_record::{ColumnRecordReader, DictionaryRead, RecordBatchBuffers, RecordRun};

use super::views;
use crate::error::{Result, general};

/// The levels and array of one leaf for one batch.
#[derive(Debug)]
pub(crate) struct LeafBatch {
    /// Definition levels (empty when the maximum is 0).
    pub def: Vec<i16>,
    /// Repetition levels (empty when the maximum is 0).
    pub rep: Vec<i16>,
    /// One slot per level whose definition level reaches the leaf's slot
    /// level (one per record for non-repeated leaves).
    pub array: ArrayRef,
}

/// A typed record reader with its reused buffers.
#[derive(Debug)]
struct Typed<T: ChunkValue> {
    reader: ColumnRecordReader<T>,
    buffers: RecordBatchBuffers<T::Values>,
    /// A batch of dictionary indices (dictionary targets), created on
    /// first use: most columns never need it.
    indices: Option<Box<RecordBatchBuffers<Vec<u32>>>>,
    /// The Arrow dictionary values built from the chunk's dictionary, with
    /// the address of the `Arc` it was built from.
    dict_values: Option<(usize, ArrayRef)>,
    /// The chunk fell back from dictionary pages to another encoding.
    fallen_back: bool,
    /// For a repeated leaf: its slot level and maximum definition level.
    /// Values read by [`plain`] are spread over the leaf's slots (null
    /// where the level is below the maximum) before they become an array.
    spread: Option<(i16, i16)>,
    /// Keys the values of byte-array pages that are not dictionary
    /// encoded when the target is a dictionary (see [`intern_bytes`]):
    /// created on first use, its hash table reused batch after batch.
    interner: Option<Box<FirstOccurrences>>,
    /// A batch of byte arrays read as views, and the buffers they point
    /// into (see [`read_views`]); created on first use.
    views: Option<Box<ViewBatch>>,
}

/// A batch of views and the buffers they point into.
#[derive(Debug, Default)]
struct ViewBatch {
    views: RecordBatchBuffers<Vec<u128>>,
    buffers: ViewBuffers,
}

impl<T: ChunkValue> Typed<T> {
    fn new(
        pages: PageReader,
        descr: ColumnDescriptor,
        top_level: bool,
        slot_def: i16,
    ) -> Result<Self> {
        let spread = (descr.max_rep_level > 0).then_some((slot_def, descr.max_def_level));
        let mut reader = ColumnRecordReader::new(pages, descr)?;
        // A top-level leaf has no parent to assemble from its levels: its
        // validity bitmap is all it needs.
        reader.set_flat_def_levels(!top_level);
        Ok(Self {
            reader,
            buffers: RecordBatchBuffers::default(),
            indices: None,
            dict_values: None,
            fallen_back: false,
            spread,
            interner: None,
            views: None,
        })
    }
}

#[derive(Debug)]
enum Column {
    Bool(Typed<bool>),
    I32(Typed<i32>),
    I64(Typed<i64>),
    /// INT32 or INT64 read as a 128-bit decimal: widened as decoded.
    Wide(Typed<i128>),
    I96(Typed<Int96>),
    F32(Typed<f32>),
    F64(Typed<f64>),
    Bytes(Typed<ByteArray>),
    Fixed(Typed<FixedLenByteArray>),
}

/// Reads one leaf column of one row group as Arrow arrays.
#[derive(Debug)]
pub(crate) struct LeafReader {
    column: Column,
    target: DataType,
    /// Unit of stored INT64 timestamps / times (from the logical type).
    stored_unit: Option<ArrowTimeUnit>,
    /// A field of the schema root (not inside a struct or list).
    top_level: bool,
    /// The leaf's maximum repetition level is above 0.
    repeated: bool,
}

fn unit_of(d: &ColumnDescriptor) -> Option<ArrowTimeUnit> {
    match &d.logical_type {
        Some(
            LogicalType::Timestamp(TimestampType { unit, .. })
            | LogicalType::Time(TimestampType { unit, .. }),
        ) => match unit {
            TimeUnit::Millis => Some(ArrowTimeUnit::Millisecond),
            TimeUnit::Micros => Some(ArrowTimeUnit::Microsecond),
            TimeUnit::Nanos => Some(ArrowTimeUnit::Nanosecond),
            TimeUnit::Unknown(_) => None,
        },
        _ => None,
    }
}

impl LeafReader {
    /// A reader of the chunk `pages` of leaf `descr`, producing `target`;
    /// slots exist where the definition level is at least `slot_def`.
    /// A `top_level` leaf (a field of the schema root, not inside a struct
    /// or list) returns no definition levels for a flat optional column.
    pub(crate) fn new(
        pages: PageReader,
        descr: ColumnDescriptor,
        target: DataType,
        slot_def: i16,
        top_level: bool,
    ) -> Result<Self> {
        use strata_format::metadata::Type as P;
        let stored_unit = unit_of(&descr);
        let repeated = descr.max_rep_level > 0;
        // The value type a dictionary target holds, else the target.
        let value_type = match &target {
            DataType::Dictionary(_, value) => value.as_ref(),
            other => other,
        };
        let widened = matches!(value_type, DataType::Decimal128(..));
        let column = match descr.physical_type {
            P::Int32 | P::Int64 if widened => {
                Column::Wide(Typed::new(pages, descr, top_level, slot_def)?)
            }
            P::Boolean => Column::Bool(Typed::new(pages, descr, top_level, slot_def)?),
            P::Int32 => Column::I32(Typed::new(pages, descr, top_level, slot_def)?),
            P::Int64 => Column::I64(Typed::new(pages, descr, top_level, slot_def)?),
            P::Int96 => Column::I96(Typed::new(pages, descr, top_level, slot_def)?),
            P::Float => Column::F32(Typed::new(pages, descr, top_level, slot_def)?),
            P::Double => Column::F64(Typed::new(pages, descr, top_level, slot_def)?),
            P::ByteArray => Column::Bytes(Typed::new(pages, descr, top_level, slot_def)?),
            P::FixedLenByteArray => Column::Fixed(Typed::new(pages, descr, top_level, slot_def)?),
        };
        Ok(Self {
            column,
            target,
            stored_unit,
            top_level,
            repeated,
        })
    }

    /// Whether [`read_runs`](Self::read_runs) can keep
    /// only a mask's rows: a field of the schema root (whose array is the
    /// leaf's own), not repeated, read as values
    /// (not as a dictionary of byte arrays, not as views).
    pub(crate) fn keeps_masked_rows(&self) -> bool {
        self.top_level
            && !self.repeated
            && !(matches!(self.column, Column::Bytes(_))
                && matches!(
                    self.target,
                    DataType::Dictionary(..) | DataType::Utf8View | DataType::BinaryView
                ))
    }

    /// Read the records `runs` read, skipping the others, as one batch,
    /// and keep only the rows whose bit in `keep` (one per row read) is
    /// set where this leaf can
    /// ([`keeps_masked_rows`](Self::keeps_masked_rows)): the values of
    /// the rows dropped are passed over, not built and filtered out.
    /// Returns the rows read, the batch, and whether it holds the kept
    /// rows only (`false`: every row read, for the caller to filter).
    pub(crate) fn read_runs(
        &mut self,
        runs: &[RecordRun],
        keep: Option<&BooleanBuffer>,
    ) -> Result<(usize, LeafBatch, bool)> {
        if let Some(k) = keep {
            let read = RecordRun::records_read(runs);
            if k.len() != read {
                return Err(general(format!(
                    "a mask of {} rows for {read} rows read",
                    k.len()
                )));
            }
        }
        let keep = keep.filter(|_| self.keeps_masked_rows());
        let kept = keep.is_some();
        let keep = keep.map(|k| (k.values(), k.offset()));
        // Byte arrays read dictionaries from the chunk's own dictionary;
        // other values are read as their value type, then interned.
        let (target, intern_key) = match &self.target {
            DataType::Dictionary(key, value) if !matches!(self.column, Column::Bytes(_)) => {
                (value.as_ref().clone(), Some(key.as_ref().clone()))
            }
            other => (other.clone(), None),
        };
        let unit = self.stored_unit;
        let (records, def, rep, array) = match &mut self.column {
            Column::Bool(t) => plain(t, runs, keep, |v, nulls| {
                Ok(Arc::new(BooleanArray::new(pack_bools(&v), nulls)) as ArrayRef)
            })?,
            Column::I32(t) => plain(t, runs, keep, |v, nulls| from_i32(v, nulls, &target))?,
            Column::I64(t) => plain(t, runs, keep, |v, nulls| from_i64(v, nulls, &target, unit))?,
            Column::Wide(t) => plain(t, runs, keep, |v, nulls| from_i128(v, nulls, &target))?,
            Column::I96(t) => plain(t, runs, keep, |v, nulls| from_int96(&v, nulls, &target))?,
            Column::F32(t) => plain(t, runs, keep, |v, nulls| {
                Ok(Arc::new(Float32Array::new(v.into(), nulls)) as ArrayRef)
            })?,
            Column::F64(t) => plain(t, runs, keep, |v, nulls| {
                Ok(Arc::new(Float64Array::new(v.into(), nulls)) as ArrayRef)
            })?,
            Column::Bytes(t) => match &target {
                DataType::Dictionary(key, value) => {
                    let (key, value) = (key.as_ref().clone(), value.as_ref().clone());
                    match runs {
                        [run] if !run.skip => read_dictionary(t, run.records, &key, &value)?,
                        _ => run_by_run(t, runs, |t, n| read_dictionary(t, n, &key, &value))?,
                    }
                }
                DataType::Utf8View => read_views(t, runs, true)?,
                DataType::BinaryView => read_views(t, runs, false)?,
                _ => read_bytes(t, runs, keep, &target)?,
            },
            Column::Fixed(t) => plain(t, runs, keep, |v, nulls| from_fixed(v, nulls, &target))?,
        };
        let array = match intern_key {
            Some(key) => fixed_width_dictionary(&array, &key)?,
            None => array,
        };
        Ok((records, LeafBatch { def, rep, array }, kept))
    }
}

/// The records `runs` read, one run at a time with `read`, the parts
/// joined: for reads that take a record count, not runs (dictionary
/// arrays, which may fall back to another encoding mid-batch).
fn run_by_run(
    t: &mut Typed<ByteArray>,
    runs: &[RecordRun],
    mut read: impl FnMut(&mut Typed<ByteArray>, usize) -> Result<Levels>,
) -> Result<Levels> {
    let (mut records, mut def, mut rep) = (0usize, Vec::new(), Vec::new());
    let mut arrays = Vec::new();
    for run in runs {
        let n = if run.skip {
            t.reader.skip_records(run.records)?
        } else {
            let (n, d, r, array) = read(t, run.records)?;
            def.extend_from_slice(&d);
            rep.extend_from_slice(&r);
            arrays.push(array);
            records += n;
            n
        };
        if n < run.records {
            break;
        }
    }
    let array = match arrays.as_slice() {
        [one] => one.clone(),
        [] => return Err(general("a batch of no runs read")),
        many => {
            let parts: Vec<&dyn Array> = many.iter().map(|a| a.as_ref()).collect();
            arrow_select::concat::concat(&parts)?
        }
    };
    Ok((records, def, rep, array))
}

type Levels = (usize, Vec<i16>, Vec<i16>, ArrayRef);

/// Pack booleans into an LSB-first bitmap, 64 at a time.
fn pack_bools(v: &[bool]) -> BooleanBuffer {
    let mut bytes = Vec::with_capacity(v.len().div_ceil(64) * 8);
    for chunk in v.chunks(64) {
        let mut word = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            word |= u64::from(b) << i;
        }
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.truncate(v.len().div_ceil(8));
    BooleanBuffer::new(Buffer::from_vec(bytes), 0, v.len())
}

/// Read `n` records as values and convert them with `convert` (given the
/// values, taken out of the buffers, and the nulls of flat columns).
fn plain<T: ChunkValue>(
    t: &mut Typed<T>,
    runs: &[RecordRun],
    keep: Option<(&[u8], usize)>,
    convert: impl FnOnce(T::Values, Option<NullBuffer>) -> Result<ArrayRef>,
) -> Result<Levels> {
    let (records, values, nulls, def, rep) = read_values(t, runs, keep)?;
    Ok((records, def, rep, convert(values, nulls)?))
}

/// The values, nulls and levels of the next `n` records (records read
/// first), taken out of the reader's buffers.
type ValuesBatch<V> = (usize, V, Option<NullBuffer>, Vec<i16>, Vec<i16>);

fn read_values<T: ChunkValue>(
    t: &mut Typed<T>,
    runs: &[RecordRun],
    keep: Option<(&[u8], usize)>,
) -> Result<ValuesBatch<T::Values>> {
    let records = match keep {
        Some((bits, offset)) => t
            .reader
            .read_runs_kept(runs, bits, offset, &mut t.buffers)?,
        None => t.reader.read_runs(runs, &mut t.buffers)?,
    };
    let nulls = spread_batch(&mut t.buffers, t.spread)?;
    let b = &mut t.buffers;
    Ok((
        records,
        std::mem::take(&mut b.values),
        nulls,
        std::mem::take(&mut b.def_levels),
        std::mem::take(&mut b.rep_levels),
    ))
}

/// The nulls of a batch read into `b`, its values spread first when the
/// leaf is repeated (`spread` holds its slot level and maximum definition
/// level, see [`spread_values`]). Every output (values, dictionary keys,
/// views) of every leaf goes through here, so a repeated leaf's slots are
/// made in one place.
fn spread_batch<V: ValueBuffer>(
    b: &mut RecordBatchBuffers<V>,
    spread: Option<(i16, i16)>,
) -> Result<Option<NullBuffer>> {
    match spread {
        Some((slot_def, max_def)) => spread_values(&mut b.values, &b.def_levels, slot_def, max_def),
        None => Ok(take_nulls(&mut b.validity, b.null_count, b.num_levels)),
    }
}

/// Spread the dense values of a repeated leaf to one slot per level whose
/// definition level reaches `slot_def`, null (an empty value) where it is
/// below `max_def`, with the record layer's one spread routine
/// ([`ValueBuffer::spread_tail`]): byte arrays move offsets only, no value
/// bytes.
fn spread_values<V: ValueBuffer>(
    values: &mut V,
    def: &[i16],
    slot_def: i16,
    max_def: i16,
) -> Result<Option<NullBuffer>> {
    // Levels in chunks of 64, each chunk's slot bits collected in a
    // register and appended once (as in `list_offsets`).
    let mut bitmap = super::BitmapWords::with_capacity(def.len());
    let mut slots = 0usize;
    for chunk in def.chunks(64) {
        let mut word = 0u64;
        let mut bits = 0u32;
        for &d in chunk {
            let slot = d >= slot_def;
            word |= u64::from(slot & (d == max_def)) << (bits & 63);
            bits += u32::from(slot);
        }
        bitmap.append(word, bits);
        slots += bits as usize;
    }
    let validity = Buffer::from_vec(bitmap.finish());
    let present = validity.count_set_bits_offset(0, slots);
    if present != values.len() {
        return Err(general(format!(
            "{} values for {present} present slots",
            values.len()
        )));
    }
    if slots == present {
        return Ok(None);
    }
    let spaced = Spaced {
        validity: validity.as_slice(),
        offset: 0,
        slots,
        nulls: slots - present,
    };
    values.mark_spaced(slots)?;
    values.spread_tail(0, spaced)?;
    let bits = BooleanBuffer::new(validity, 0, slots);
    Ok(Some(NullBuffer::new(bits)))
}

/// Read `n` records of a byte-array column as `target` (not a dictionary
/// type). A batch whose every value was gathered from a dictionary whose
/// entries are all UTF-8 is turned into strings without validating it
/// again (see [`string_array`]).
fn read_bytes(
    t: &mut Typed<ByteArray>,
    runs: &[RecordRun],
    keep: Option<(&[u8], usize)>,
    target: &DataType,
) -> Result<Levels> {
    let (records, values, nulls, def, rep) = read_values(t, runs, keep)?;
    let gathered = t.buffers.from_dictionary;
    let strings = matches!(
        target,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    );
    let utf8 = gathered && strings && t.reader.dictionary_is_utf8()?;
    Ok((
        records,
        def,
        rep,
        bytes_to_array(values, nulls, target, utf8)?,
    ))
}

/// A string array of `offsets` and `values`. With `entries_utf8`, the
/// caller vouches that every value is valid UTF-8 on its own: whole entries
/// of a dictionary whose every entry is valid UTF-8 (or empty null slots),
/// or whole values (or the buffers) of a `StringArray` keyed by
/// [`intern_bytes`]. Arrow's
/// UTF-8 validation of the batch is then skipped; the offsets are still
/// checked.
/// Validating every gathered batch again cost about a tenth of reading a
/// dictionary-encoded string column (profile in docs/log/).
///
/// Otherwise a batch whose bytes are all ASCII (most text) skips Arrow's
/// validation too: ASCII is UTF-8 and every position in it is a character
/// boundary, and `is_ascii` is one quick pass, where Arrow's check decodes
/// the buffer and then tests each offset (14% of reading PLAIN strings).
fn string_array(
    offsets: OffsetBuffer<i32>,
    values: Buffer,
    nulls: Option<NullBuffer>,
    entries_utf8: bool,
) -> Result<StringArray> {
    let fits = usize::try_from(offsets.last()).is_ok_and(|end| end <= values.len())
        && nulls.as_ref().is_none_or(|n| n.len() == offsets.len() - 1);
    if fits && (entries_utf8 || values.as_slice().is_ascii()) {
        // SAFETY: `new_unchecked` needs what `try_new` checks. The offsets
        // are an `OffsetBuffer` (checked non-negative and increasing when
        // built), the last one is within `values` and the nulls match the
        // length (`fits`). UTF-8: each value is one whole dictionary entry
        // copied by `ByteArrayBuffer::extend_gather`, or an empty null
        // slot, and every entry of that dictionary was checked to be UTF-8
        // with its boundaries on character boundaries
        // (`ColumnRecordReader::dictionary_is_utf8`); or (from `intern_bytes`) each value is a
        // copy of one whole value of a `StringArray`, which Arrow checked,
        // or the offsets and values are those of such an array, its nulls
        // dropped.
        // So each value, and the buffer they make back to back, is UTF-8
        // and every offset is a character boundary. Or every byte of
        // `values` is ASCII, so the buffer is UTF-8 and every offset within
        // it is a character boundary.
        #[allow(unsafe_code)]
        let array = unsafe { StringArray::new_unchecked(offsets, values, nulls) };
        return Ok(array);
    }
    Ok(StringArray::try_new(offsets, values, nulls)?)
}

/// `offsets` (of a byte-array batch) as an Arrow offset buffer, after the
/// check Arrow's `OffsetBuffer::new` makes: not empty, the first offset not
/// negative, none smaller than the one before. `OffsetBuffer::new` checks
/// one offset at a time with an early exit, which took a tenth of reading a
/// dictionary-encoded Utf8 column (perf); here the decreases are ORed
/// together in one pass the compiler vectorises.
fn offset_buffer(offsets: impl Into<ScalarBuffer<i32>>) -> Result<OffsetBuffer<i32>> {
    let offsets: ScalarBuffer<i32> = offsets.into();
    let starts_at_zero_or_more = offsets.first().is_some_and(|&o| o >= 0);
    let decreases = offsets
        .iter()
        .zip(offsets.iter().skip(1))
        .fold(false, |bad, (a, b)| bad | (b < a));
    if !starts_at_zero_or_more || decreases {
        return Err(general(
            "byte array offsets are empty, negative or decreasing",
        ));
    }
    // SAFETY: `new_unchecked` needs a non-empty buffer of non-negative,
    // monotonically increasing offsets: the first is at least 0 and no
    // offset is below the one before it (checked just above).
    #[allow(unsafe_code)]
    let buffer = unsafe { OffsetBuffer::new_unchecked(offsets) };
    Ok(buffer)
}

/// The chunk's decoded dictionary as an Arrow array of `target`, for the
/// values of `Dictionary` outputs. `Utf8` and `Binary` arrays share the
/// dictionary's memory with the decoder (their buffers own a reference to
/// it), so a chunk's dictionary is held once, not once decoded and once
/// in Arrow; other types get a copy.
fn dictionary_values(dict: &Arc<ByteArrayBuffer>, target: &DataType) -> Result<ArrayRef> {
    /// The dictionary's value bytes, as the owner of an Arrow buffer.
    struct EntryBytes(Arc<ByteArrayBuffer>);
    impl AsRef<[u8]> for EntryBytes {
        fn as_ref(&self) -> &[u8] {
            self.0.values()
        }
    }
    /// The dictionary's offsets, as the owner of an Arrow buffer.
    struct EntryOffsets(Arc<ByteArrayBuffer>);
    impl AsRef<[u8]> for EntryOffsets {
        fn as_ref(&self) -> &[u8] {
            self.0.offsets().to_byte_slice()
        }
    }
    if !matches!(target, DataType::Utf8 | DataType::Binary) {
        return from_bytes(dict.as_ref().clone(), None, target);
    }
    fn shared(owner: impl AsRef<[u8]> + Send + 'static) -> Buffer {
        Buffer::from(bytes::Bytes::from_owner(owner))
    }
    let offsets = ScalarBuffer::<i32>::new(
        shared(EntryOffsets(Arc::clone(dict))),
        0,
        dict.offsets().len(),
    );
    let offsets = offset_buffer(offsets)?;
    let values = shared(EntryBytes(Arc::clone(dict)));
    Ok(match target {
        DataType::Utf8 => Arc::new(string_array(offsets, values, None, false)?),
        _ => Arc::new(BinaryArray::try_new(offsets, values, None)?),
    })
}

fn take_nulls(validity: &mut Vec<u8>, null_count: usize, len: usize) -> Option<NullBuffer> {
    if null_count == 0 || validity.is_empty() {
        validity.clear();
        return None;
    }
    let bits = BooleanBuffer::new(Buffer::from_vec(std::mem::take(validity)), 0, len);
    Some(NullBuffer::new(bits))
}

/// Read `n` records of a byte-array column by way of the chunk's
/// dictionary: while its pages are dictionary encoded, a batch's indices
/// (left in `t.indices.values`) become an array through `keyed`, given the
/// chunk's dictionary and the batch's nulls; after the chunk falls back to
/// another encoding, `dense` reads up to the records it is given. A
/// batch that meets the fallback is the two parts concatenated.
fn read_keyed(
    t: &mut Typed<ByteArray>,
    n: usize,
    keyed: impl FnOnce(
        &mut Typed<ByteArray>,
        Option<&Arc<ByteArrayBuffer>>,
        Option<NullBuffer>,
    ) -> Result<ArrayRef>,
    dense: impl Fn(&mut Typed<ByteArray>, usize) -> Result<Levels>,
) -> Result<Levels> {
    if t.fallen_back {
        return dense(t, n);
    }
    let indices = t.indices.get_or_insert_default();
    let (mut records, dictionary, fell_back) = match t.reader.read_records_dictionary(n, indices)? {
        DictionaryRead::Indices {
            records,
            dictionary,
        } => (records, dictionary, false),
        DictionaryRead::Fallback {
            records,
            dictionary,
        } => (records, dictionary, true),
    };
    let nulls = spread_batch(indices, t.spread)?;
    let mut def = std::mem::take(&mut indices.def_levels);
    let mut rep = std::mem::take(&mut indices.rep_levels);
    let mut array = keyed(t, dictionary.as_ref(), nulls)?;
    if fell_back {
        t.fallen_back = true;
        if records < n {
            let (more, d2, r2, tail) = dense(t, n - records)?;
            array = arrow_select::concat::concat(&[array.as_ref(), tail.as_ref()])?;
            def.extend_from_slice(&d2);
            rep.extend_from_slice(&r2);
            records += more;
        }
    }
    Ok((records, def, rep, array))
}

/// Read `n` records of a byte-array column as a dictionary array: the
/// chunk's dictionary turned into an Arrow array once and keyed by the
/// batch's indices; values of pages that are not dictionary encoded keyed
/// by first occurrence ([`intern_bytes`]).
fn read_dictionary(
    t: &mut Typed<ByteArray>,
    n: usize,
    key: &DataType,
    value: &DataType,
) -> Result<Levels> {
    let keyed = |t: &mut Typed<ByteArray>,
                 dictionary: Option<&Arc<ByteArrayBuffer>>,
                 nulls: Option<NullBuffer>| {
        let values = match dictionary {
            Some(dict) => {
                let addr = Arc::as_ptr(dict) as usize;
                match &t.dict_values {
                    Some((a, v)) if *a == addr => v.clone(),
                    _ => {
                        let v = dictionary_values(dict, value)?;
                        t.dict_values = Some((addr, v.clone()));
                        v
                    }
                }
            }
            None => new_empty_array(value),
        };
        let indices = t
            .indices
            .as_deref_mut()
            .map(|b| std::mem::take(&mut b.values))
            .unwrap_or_default();
        keyed_dictionary(indices, nulls, values, key)
    };
    let dense = |t: &mut Typed<ByteArray>, n| {
        let (records, values, nulls, def, rep) = read_values(t, &[RecordRun::read(n)], None)?;
        let values = from_bytes(values, nulls, value)?;
        Ok((
            records,
            def,
            rep,
            intern_bytes(values, key, &mut t.interner)?,
        ))
    };
    read_keyed(t, n, keyed, dense)
}

/// Read `n` records of a byte-array column as `Utf8View` (`strings`) or
/// `BinaryView` (see [`views`]): the record reader makes the views
/// (`ColumnRecordReader::read_records_views`). Entries of the chunk's
/// dictionary are gathered as views over its bytes; PLAIN values point
/// into their pages; values of other encodings into one buffer they are
/// copied to. A string batch is checked by Arrow unless every byte of its
/// values outside the dictionary is ASCII and every entry of the
/// dictionary is UTF-8 (checked once per chunk).
fn read_views(t: &mut Typed<ByteArray>, runs: &[RecordRun], strings: bool) -> Result<Levels> {
    let batch = t.views.get_or_insert_default();
    batch.buffers.check_ascii(strings);
    let records = t
        .reader
        .read_runs_views(runs, &mut batch.views, &mut batch.buffers)?;
    let nulls = spread_batch(&mut batch.views, t.spread)?;
    let b = &mut batch.views;
    let def = std::mem::take(&mut b.def_levels);
    let rep = std::mem::take(&mut b.rep_levels);
    let views = std::mem::take(&mut b.values);
    let utf8 = batch.buffers.all_ascii()
        && (!batch.buffers.has_dictionary_values() || t.reader.dictionary_is_utf8()?);
    let buffers = batch.buffers.take();
    let array = views::views_over(strings, views, buffers, nulls, utf8)?;
    Ok((records, def, rep, array))
}

fn keyed_dictionary(
    indices: Vec<u32>,
    nulls: Option<NullBuffer>,
    values: ArrayRef,
    key: &DataType,
) -> Result<ArrayRef> {
    fn make<K: ArrowDictionaryKeyType>(
        indices: Vec<u32>,
        nulls: Option<NullBuffer>,
        values: ArrayRef,
    ) -> Result<ArrayRef> {
        use arrow_buffer::ArrowNativeType;
        // Every index is below the dictionary's length (the record reader
        // checks each; `try_new` checks again), so one check of the largest
        // possible key covers them all.
        if !keys_fit::<K>(values.len()) {
            return Err(general(format!(
                "a dictionary of {} entries does not fit {} keys",
                values.len(),
                K::DATA_TYPE
            )));
        }
        let len = indices.len();
        let in_range = strata_encoding::indices_below(&indices, values.len());
        let keys: ScalarBuffer<K::Native> = if std::mem::size_of::<K::Native>() == 4 {
            // 32-bit keys: the indices' own buffer, without a copy.
            ScalarBuffer::new(Buffer::from_vec(indices), 0, len)
        } else {
            indices
                .iter()
                .map(|&i| K::Native::from_usize(i as usize).unwrap_or_default())
                .collect()
        };
        let keys = PrimitiveArray::<K>::new(keys, nulls);
        Ok(Arc::new(checked_dictionary(keys, values, in_range)?))
    }
    match key {
        DataType::Int8 => make::<Int8Type>(indices, nulls, values),
        DataType::Int16 => make::<Int16Type>(indices, nulls, values),
        DataType::Int32 => make::<Int32Type>(indices, nulls, values),
        DataType::Int64 => make::<Int64Type>(indices, nulls, values),
        DataType::UInt8 => make::<UInt8Type>(indices, nulls, values),
        DataType::UInt16 => make::<UInt16Type>(indices, nulls, values),
        DataType::UInt32 => make::<UInt32Type>(indices, nulls, values),
        DataType::UInt64 => make::<UInt64Type>(indices, nulls, values),
        other => Err(general(format!("dictionary key type {other}"))),
    }
}

/// `keys` over `values`, where `in_range` says whether every key (null
/// slots included) is below the number of values. When it is, every key is
/// a valid index and arrow's own key-by-key validation is skipped: it stops at each
/// key to test it and its validity bit, and took a third of the time of
/// reading a dictionary-encoded column as a dictionary (profile in
/// docs/log/). Otherwise `try_new` decides (all-null batches
/// over an empty dictionary are valid) and gives its error.
fn checked_dictionary<K: ArrowDictionaryKeyType>(
    keys: PrimitiveArray<K>,
    values: ArrayRef,
    in_range: bool,
) -> Result<DictionaryArray<K>> {
    if in_range {
        // SAFETY: `new_unchecked` needs what `try_new` checks: every valid
        // key in `0..values.len()`. Each key is an index of the batch
        // (u32) converted to `K::Native` without loss (the caller checked
        // that `values.len() - 1` fits `K::Native`, and `in_range` says
        // that every index is below `values.len()`), so every key, null or
        // not, is in range.
        #[allow(unsafe_code)]
        let array = unsafe { DictionaryArray::<K>::new_unchecked(keys, values) };
        Ok(array)
    } else {
        Ok(DictionaryArray::<K>::try_new(keys, values)?)
    }
}

/// A dictionary array of `values` (a fallback chunk's values, or a chunk
/// stored without dictionary encoding) in the dictionary type the schema
/// asks for: equal values get equal keys, null slots key 0.
///
/// Utf8 and Binary values are keyed by [`FirstOccurrences`] (`interner`,
/// kept by the caller so its hash table is reused): each value's key is
/// the position of the first equal value in the batch. When more than half
/// of the present values are distinct (the batch of a chunk whose
/// dictionary overflowed, typically), the batch's own array, without its
/// nulls, is the dictionary: nothing is copied, and the dictionary holds
/// every value where a deduplicated one would hold more than half of them
/// (its repeats are never keyed). Otherwise the first occurrences are copied into a dictionary of
/// distinct values, in order of first appearance, and the keys renumbered.
/// Other types go through Arrow's builder ([`identity_dictionary`]).
fn intern_bytes(
    values: ArrayRef,
    key: &DataType,
    interner: &mut Option<Box<FirstOccurrences>>,
) -> Result<ArrayRef> {
    use arrow_array::cast::AsArray;
    let (offsets, data, utf8): (&[i32], &[u8], bool) = match values.data_type() {
        DataType::Utf8 => {
            let a = values.as_string::<i32>();
            (a.value_offsets(), a.value_data(), true)
        }
        DataType::Binary => {
            let a = values.as_binary::<i32>();
            (a.value_offsets(), a.value_data(), false)
        }
        _ => return identity_dictionary(values, key),
    };
    let n = values.len();
    let nulls = values.logical_nulls().filter(|n| n.null_count() > 0);
    let first = interner.get_or_insert_with(|| Box::new(FirstOccurrences::new()));
    first.start(n);
    let mut keys = Vec::with_capacity(n);
    match &nulls {
        None => {
            first.extend_keys(offsets, data, 0..n, &mut keys)?;
        }
        Some(nulls) => {
            // Only the present values are keyed; a null slot's key is 0.
            for (start, end) in nulls.valid_slices() {
                keys.resize(start, 0);
                first.extend_keys(offsets, data, start..end, &mut keys)?;
            }
            keys.resize(n, 0);
        }
    }
    let present = n - nulls.as_ref().map_or(0, |n| n.null_count());
    if first.distinct() * 2 > present && key_holds(key, n) {
        // The batch's own buffers, shared, as the dictionary (without the
        // nulls, whose slots no valid key names).
        let dictionary: ArrayRef = match (&nulls, values.data_type()) {
            (None, _) => Arc::clone(&values),
            (Some(_), DataType::Utf8) => {
                let a = values.as_string::<i32>();
                let (offsets, data) = (a.offsets().clone(), a.values().clone());
                Arc::new(string_array(offsets, data, None, true)?)
            }
            (Some(_), _) => {
                let a = values.as_binary::<i32>();
                Arc::new(BinaryArray::try_new(
                    a.offsets().clone(),
                    a.values().clone(),
                    None,
                )?)
            }
        };
        return keyed_dictionary(keys, nulls, dictionary, key);
    }
    // Few distinct values: copy each first occurrence once and renumber.
    // A position's first occurrence comes before it (or is itself), so its
    // key is renumbered already when the position is reached.
    let mut entries = ByteArrayBuffer::with_capacity(first.distinct(), 0);
    let mut next = 0u32;
    for i in 0..n {
        if nulls.as_ref().is_some_and(|nulls| nulls.is_null(i)) {
            continue;
        }
        let k = keys[i] as usize;
        if k == i {
            keys[i] = next;
            next += 1;
            let v = offsets
                .get(i..=i + 1)
                .and_then(|o| data.get(o[0] as usize..o[1] as usize))
                .ok_or_else(|| general("offsets past the values"))?;
            entries.push(v)?;
        } else {
            keys[i] = keys.get(k).copied().unwrap_or(0);
        }
    }
    // Each entry is a copy of one whole value of `values`, which Arrow
    // checked to be UTF-8 (for Utf8) when it was built.
    let dictionary = bytes_to_array(entries, None, values.data_type(), utf8)?;
    keyed_dictionary(keys, nulls, dictionary, key)
}

/// Whether a dictionary of `len` entries can be keyed by `K` (whether
/// `len - 1` fits it).
fn keys_fit<K: ArrowDictionaryKeyType>(len: usize) -> bool {
    use arrow_buffer::ArrowNativeType;
    K::Native::from_usize(len.saturating_sub(1)).is_some()
}

/// [`keys_fit`] for the key type `key`.
fn key_holds(key: &DataType, len: usize) -> bool {
    match key {
        DataType::Int8 => keys_fit::<Int8Type>(len),
        DataType::Int16 => keys_fit::<Int16Type>(len),
        DataType::Int32 => keys_fit::<Int32Type>(len),
        DataType::Int64 => keys_fit::<Int64Type>(len),
        DataType::UInt8 => keys_fit::<UInt8Type>(len),
        DataType::UInt16 => keys_fit::<UInt16Type>(len),
        DataType::UInt32 => keys_fit::<UInt32Type>(len),
        DataType::UInt64 => keys_fit::<UInt64Type>(len),
        _ => false,
    }
}

/// [`intern_bytes`] for the types it does not intern itself: Arrow's
/// dictionary builder.
fn identity_dictionary(values: ArrayRef, key: &DataType) -> Result<ArrayRef> {
    use arrow_array::builder::GenericByteDictionaryBuilder;
    use arrow_array::cast::AsArray;
    fn build<K: ArrowDictionaryKeyType>(values: &ArrayRef) -> Result<ArrayRef> {
        fn run<K: ArrowDictionaryKeyType, T: ByteArrayType>(
            a: &GenericByteArray<T>,
        ) -> Result<ArrayRef> {
            // Sized for the worst case (every value distinct): no regrowth
            // and rehashing while the batch is interned.
            let mut b = GenericByteDictionaryBuilder::<K, T>::with_capacity(
                a.len(),
                a.len(),
                a.value_data().len(),
            );
            for v in a.iter() {
                match v {
                    Some(v) => {
                        b.append(v).map_err(|e| {
                            general(format!(
                                "more distinct values than the dictionary key holds: {e}"
                            ))
                        })?;
                    }
                    None => b.append_null(),
                }
            }
            Ok(Arc::new(b.finish()))
        }
        match values.data_type() {
            DataType::Utf8 => run::<K, Utf8Type>(values.as_string::<i32>()),
            DataType::LargeUtf8 => run::<K, LargeUtf8Type>(values.as_string::<i64>()),
            DataType::Binary => run::<K, BinaryType>(values.as_binary::<i32>()),
            DataType::LargeBinary => run::<K, LargeBinaryType>(values.as_binary::<i64>()),
            other => Err(general(format!("dictionary of {other} values"))),
        }
    }
    match key {
        DataType::Int8 => build::<Int8Type>(&values),
        DataType::Int16 => build::<Int16Type>(&values),
        DataType::Int32 => build::<Int32Type>(&values),
        DataType::Int64 => build::<Int64Type>(&values),
        DataType::UInt8 => build::<UInt8Type>(&values),
        DataType::UInt16 => build::<UInt16Type>(&values),
        DataType::UInt32 => build::<UInt32Type>(&values),
        DataType::UInt64 => build::<UInt64Type>(&values),
        other => Err(general(format!("dictionary key type {other}"))),
    }
}

/// A dictionary array of fixed-width `values` (numbers, dates, times,
/// decimals, fixed-size binary): each distinct value once, keyed in order
/// of first appearance, the values' bytes compared as they are stored.
fn fixed_width_dictionary(values: &ArrayRef, key: &DataType) -> Result<ArrayRef> {
    use std::collections::HashMap;
    let data = values.to_data();
    let width = match data.data_type() {
        DataType::FixedSizeBinary(w) => usize::try_from(*w).unwrap_or(0),
        dt => dt
            .primitive_width()
            .ok_or_else(|| general(format!("dictionary of {dt} values")))?,
    };
    let buffer = data
        .buffers()
        .first()
        .ok_or_else(|| general("fixed-width array without a values buffer"))?;
    let start = data.offset() * width;
    let bytes = buffer
        .as_slice()
        .get(start..start + data.len() * width)
        .ok_or_else(|| general("fixed-width values past their buffer"))?;
    let mut seen: HashMap<&[u8], u32> = HashMap::new();
    let mut firsts: Vec<u32> = Vec::new();
    let mut keys: Vec<u32> = Vec::with_capacity(data.len());
    for i in 0..data.len() {
        if !data.is_valid(i) {
            keys.push(0);
            continue;
        }
        let v = &bytes[i * width..(i + 1) * width];
        let next = u32::try_from(firsts.len()).map_err(|_| general("too many distinct values"))?;
        let k = *seen.entry(v).or_insert_with(|| {
            firsts.push(i as u32);
            next
        });
        keys.push(k);
    }
    let distinct = arrow_select::take::take(values.as_ref(), &UInt32Array::from(firsts), None)?;
    keyed_dictionary(keys, data.nulls().cloned(), distinct, key)
}

fn widen<N: ArrowPrimitiveType, F: Fn(i32) -> N::Native>(
    v: &[i32],
    nulls: Option<NullBuffer>,
    f: F,
) -> PrimitiveArray<N> {
    PrimitiveArray::<N>::new(v.iter().map(|&x| f(x)).collect(), nulls)
}

/// Reinterpret a `Vec` of one 4- or 8-byte primitive as another of the same
/// width, without copying.
fn reinterpret<N: ArrowPrimitiveType, T: arrow_buffer::ArrowNativeType>(
    v: Vec<T>,
    nulls: Option<NullBuffer>,
) -> PrimitiveArray<N> {
    let len = v.len();
    PrimitiveArray::<N>::new(ScalarBuffer::new(Buffer::from_vec(v), 0, len), nulls)
}

fn from_i32(v: Vec<i32>, nulls: Option<NullBuffer>, target: &DataType) -> Result<ArrayRef> {
    use DataType as D;
    Ok(match target {
        D::Int32 => Arc::new(Int32Array::new(v.into(), nulls)),
        D::Int8 => Arc::new(widen::<Int8Type, _>(&v, nulls, |x| x as i8)),
        D::Int16 => Arc::new(widen::<Int16Type, _>(&v, nulls, |x| x as i16)),
        D::UInt8 => Arc::new(widen::<UInt8Type, _>(&v, nulls, |x| x as u8)),
        D::UInt16 => Arc::new(widen::<UInt16Type, _>(&v, nulls, |x| x as u16)),
        D::UInt32 => Arc::new(reinterpret::<UInt32Type, _>(v, nulls)),
        D::Date32 => Arc::new(reinterpret::<Date32Type, _>(v, nulls)),
        D::Date64 => Arc::new(widen::<Date64Type, _>(&v, nulls, |x| {
            i64::from(x) * 86_400_000
        })),
        D::Time32(ArrowTimeUnit::Second) => {
            Arc::new(widen::<Time32SecondType, _>(&v, nulls, |x| x / 1000))
        }
        D::Time32(_) => Arc::new(reinterpret::<Time32MillisecondType, _>(v, nulls)),
        D::Decimal32(p, s) => {
            Arc::new(reinterpret::<Decimal32Type, _>(v, nulls).with_precision_and_scale(*p, *s)?)
        }
        D::Decimal64(p, s) => Arc::new(
            widen::<Decimal64Type, _>(&v, nulls, i64::from).with_precision_and_scale(*p, *s)?,
        ),
        D::Decimal128(p, s) => Arc::new(
            widen::<Decimal128Type, _>(&v, nulls, i128::from).with_precision_and_scale(*p, *s)?,
        ),
        D::Decimal256(p, s) => Arc::new(
            widen::<Decimal256Type, _>(&v, nulls, |x| i256::from_i128(i128::from(x)))
                .with_precision_and_scale(*p, *s)?,
        ),
        D::Null => Arc::new(NullArray::new(v.len())),
        other => return Err(general(format!("INT32 column read as {other}"))),
    })
}

/// Factor between two time units: `(multiply, divide)`.
fn unit_scale(from: ArrowTimeUnit, to: ArrowTimeUnit) -> (i64, i64) {
    fn exp(u: ArrowTimeUnit) -> i32 {
        match u {
            ArrowTimeUnit::Second => 0,
            ArrowTimeUnit::Millisecond => 3,
            ArrowTimeUnit::Microsecond => 6,
            ArrowTimeUnit::Nanosecond => 9,
        }
    }
    let d = exp(to) - exp(from);
    if d >= 0 {
        (10i64.pow(d as u32), 1)
    } else {
        (1, 10i64.pow((-d) as u32))
    }
}

fn rescale<N: ArrowPrimitiveType<Native = i64>>(
    v: Vec<i64>,
    nulls: Option<NullBuffer>,
    from: ArrowTimeUnit,
    to: ArrowTimeUnit,
) -> PrimitiveArray<N> {
    match unit_scale(from, to) {
        (1, 1) => PrimitiveArray::<N>::new(v.into(), nulls),
        (m, 1) => PrimitiveArray::<N>::new(v.iter().map(|x| x.wrapping_mul(m)).collect(), nulls),
        (_, d) => PrimitiveArray::<N>::new(v.iter().map(|x| x.div_euclid(d)).collect(), nulls),
    }
}

/// INT32 or INT64 values read widened ([`Column::Wide`]) as their
/// 128-bit decimal: the buffer becomes the array's, no copy.
fn from_i128(v: Vec<i128>, nulls: Option<NullBuffer>, target: &DataType) -> Result<ArrayRef> {
    match target {
        DataType::Decimal128(p, s) => Ok(Arc::new(
            Decimal128Array::new(v.into(), nulls).with_precision_and_scale(*p, *s)?,
        )),
        other => Err(general(format!("128-bit integers read as {other}"))),
    }
}

fn from_i64(
    v: Vec<i64>,
    nulls: Option<NullBuffer>,
    target: &DataType,
    stored: Option<ArrowTimeUnit>,
) -> Result<ArrayRef> {
    use ArrowTimeUnit as U;
    use DataType as D;
    Ok(match target {
        D::Int64 => Arc::new(Int64Array::new(v.into(), nulls)),
        D::UInt64 => Arc::new(reinterpret::<UInt64Type, _>(v, nulls)),
        D::Date64 => Arc::new(reinterpret::<Date64Type, _>(v, nulls)),
        D::Timestamp(unit, tz) => {
            let from = stored.unwrap_or(*unit);
            let a: ArrayRef = match unit {
                U::Second => Arc::new(rescale::<TimestampSecondType>(v, nulls, from, *unit)),
                U::Millisecond => {
                    Arc::new(rescale::<TimestampMillisecondType>(v, nulls, from, *unit))
                }
                U::Microsecond => {
                    Arc::new(rescale::<TimestampMicrosecondType>(v, nulls, from, *unit))
                }
                U::Nanosecond => {
                    Arc::new(rescale::<TimestampNanosecondType>(v, nulls, from, *unit))
                }
            };
            match tz {
                Some(tz) => arrow_array::make_array(
                    a.to_data()
                        .into_builder()
                        .data_type(D::Timestamp(*unit, Some(tz.clone())))
                        .build()?,
                ),
                None => a,
            }
        }
        D::Time64(unit) => {
            let from = stored.unwrap_or(*unit);
            match unit {
                U::Nanosecond => Arc::new(rescale::<Time64NanosecondType>(v, nulls, from, *unit)),
                _ => Arc::new(rescale::<Time64MicrosecondType>(
                    v,
                    nulls,
                    from,
                    U::Microsecond,
                )),
            }
        }
        D::Duration(unit) => match unit {
            U::Second => Arc::new(reinterpret::<DurationSecondType, _>(v, nulls)),
            U::Millisecond => Arc::new(reinterpret::<DurationMillisecondType, _>(v, nulls)),
            U::Microsecond => Arc::new(reinterpret::<DurationMicrosecondType, _>(v, nulls)),
            U::Nanosecond => Arc::new(reinterpret::<DurationNanosecondType, _>(v, nulls)),
        },
        D::Decimal64(p, s) => {
            Arc::new(reinterpret::<Decimal64Type, _>(v, nulls).with_precision_and_scale(*p, *s)?)
        }
        D::Decimal128(p, s) => Arc::new(
            Decimal128Array::new(v.iter().map(|&x| i128::from(x)).collect(), nulls)
                .with_precision_and_scale(*p, *s)?,
        ),
        D::Decimal256(p, s) => Arc::new(
            Decimal256Array::new(
                v.iter().map(|&x| i256::from_i128(i128::from(x))).collect(),
                nulls,
            )
            .with_precision_and_scale(*p, *s)?,
        ),
        other => return Err(general(format!("INT64 column read as {other}"))),
    })
}

/// Nanoseconds since the Unix epoch of an INT96 timestamp (nanoseconds of
/// the day, then the Julian day), the day read unsigned as pyarrow and
/// parquet-cpp read it, so that Arrow arrays match theirs; arrow-rs's
/// `Int96::to_nanos` ([`Int96::to_nanos`]) reads it signed, and the row
/// API follows that.
fn int96_to_nanos(v: Int96) -> i64 {
    const JULIAN_UNIX_EPOCH: i64 = 2_440_588;
    const NANOS_PER_DAY: i64 = 86_400_000_000_000;
    let nanos = (i64::from(v.0[1]) << 32) | i64::from(v.0[0]);
    (i64::from(v.0[2]) - JULIAN_UNIX_EPOCH)
        .wrapping_mul(NANOS_PER_DAY)
        .wrapping_add(nanos)
}

fn from_int96(v: &[Int96], nulls: Option<NullBuffer>, target: &DataType) -> Result<ArrayRef> {
    let nanos: Vec<i64> = v.iter().map(|&x| int96_to_nanos(x)).collect();
    match target {
        DataType::Timestamp(_, _) => {
            from_i64(nanos, nulls, target, Some(ArrowTimeUnit::Nanosecond))
        }
        other => Err(general(format!("INT96 column read as {other}"))),
    }
}

/// A big-endian two's complement integer of up to 32 bytes.
fn be_to_i256(b: &[u8]) -> Result<i256> {
    if b.len() > 32 {
        return Err(general(format!("decimal of {} bytes", b.len())));
    }
    let fill = if b.first().is_some_and(|&x| x & 0x80 != 0) {
        0xFF
    } else {
        0
    };
    let mut le = [fill; 32];
    for (i, &byte) in b.iter().rev().enumerate() {
        le[i] = byte;
    }
    Ok(i256::from_le_bytes(le))
}

fn be_to_i128(b: &[u8]) -> Result<i128> {
    if b.len() > 16 {
        return Err(general(format!(
            "decimal of {} bytes in a 128-bit decimal",
            b.len()
        )));
    }
    let fill = if b.first().is_some_and(|&x| x & 0x80 != 0) {
        0xFF
    } else {
        0
    };
    let mut le = [fill; 16];
    for (i, &byte) in b.iter().rev().enumerate() {
        le[i] = byte;
    }
    Ok(i128::from_le_bytes(le))
}

fn decimals<'a>(
    values: impl Iterator<Item = &'a [u8]>,
    nulls: Option<NullBuffer>,
    target: &DataType,
) -> Result<ArrayRef> {
    Ok(match target {
        DataType::Decimal128(p, s) => {
            let v = values.map(be_to_i128).collect::<Result<Vec<_>>>()?;
            Arc::new(Decimal128Array::new(v.into(), nulls).with_precision_and_scale(*p, *s)?)
        }
        DataType::Decimal256(p, s) => {
            let v = values.map(be_to_i256).collect::<Result<Vec<_>>>()?;
            Arc::new(Decimal256Array::new(v.into(), nulls).with_precision_and_scale(*p, *s)?)
        }
        other => return Err(general(format!("decimal bytes read as {other}"))),
    })
}

pub(crate) fn from_bytes(
    v: ByteArrayBuffer,
    nulls: Option<NullBuffer>,
    target: &DataType,
) -> Result<ArrayRef> {
    bytes_to_array(v, nulls, target, false)
}

/// [`from_bytes`], where `entries_utf8` says each value is UTF-8 on its
/// own (see [`string_array`]).
fn bytes_to_array(
    v: ByteArrayBuffer,
    nulls: Option<NullBuffer>,
    target: &DataType,
    entries_utf8: bool,
) -> Result<ArrayRef> {
    use DataType as D;
    if let D::Decimal128(_, _) | D::Decimal256(_, _) = target {
        // Null slots hold empty values: decode them as zero.
        return decimals(v.iter(), nulls, target);
    }
    let (offsets, values) = v.into_parts();
    if let D::Utf8View | D::BinaryView = target {
        // Views over the decoded bytes, which are not copied again.
        let values = Buffer::from_vec(values);
        return views::views_of(matches!(target, D::Utf8View), &offsets, values, nulls);
    }
    let offsets = offset_buffer(offsets)?;
    let values = Buffer::from_vec(values);
    let binary = || -> Result<BinaryArray> {
        Ok(BinaryArray::try_new(
            offsets.clone(),
            values.clone(),
            nulls.clone(),
        )?)
    };
    Ok(match target {
        D::Binary => Arc::new(binary()?),
        D::Utf8 => Arc::new(string_array(offsets, values, nulls, entries_utf8)?),
        D::LargeBinary => {
            let b = binary()?;
            Arc::new(LargeBinaryArray::try_new(
                large_offsets(b.offsets()),
                b.values().clone(),
                nulls,
            )?)
        }
        D::LargeUtf8 => {
            let s = string_array(offsets, values, nulls, entries_utf8)?;
            Arc::new(LargeStringArray::try_new(
                large_offsets(s.offsets()),
                s.values().clone(),
                s.nulls().cloned(),
            )?)
        }
        other => return Err(general(format!("BYTE_ARRAY column read as {other}"))),
    })
}

fn from_fixed(
    v: FixedLenByteArrayBuffer,
    nulls: Option<NullBuffer>,
    target: &DataType,
) -> Result<ArrayRef> {
    use DataType as D;
    let width = v.width();
    Ok(match target {
        D::FixedSizeBinary(w) => {
            let len = v.len();
            let bytes = v.into_vec();
            if width == 0 {
                Arc::new(FixedSizeBinaryArray::new_null(*w, len))
            } else {
                Arc::new(FixedSizeBinaryArray::try_new(
                    *w,
                    Buffer::from_vec(bytes),
                    nulls,
                )?)
            }
        }
        D::Float16 if width == 2 => {
            let len = v.len();
            Arc::new(Float16Array::new(
                ScalarBuffer::new(Buffer::from_vec(v.into_vec()), 0, len),
                nulls,
            ))
        }
        D::Interval(unit) if width == 12 => intervals(v.values(), nulls, *unit)?,
        D::Decimal128(_, _) | D::Decimal256(_, _) => {
            let bytes = v.values();
            if width == 0 {
                return Err(general("FIXED_LEN_BYTE_ARRAY decimal of width 0"));
            }
            decimals(bytes.chunks_exact(width), nulls, target)?
        }
        other => {
            return Err(general(format!(
                "FIXED_LEN_BYTE_ARRAY column read as {other}"
            )));
        }
    })
}

/// Parquet INTERVALs (12 bytes: months, days, milliseconds, each an
/// unsigned little-endian 32-bit integer) as Arrow intervals of `unit`.
/// `YearMonth` keeps the months and `DayTime` the days and milliseconds
/// (the parts a writer of those types fills); `MonthDayNano` keeps all
/// three. A part beyond Arrow's `i32` is an error.
fn intervals(bytes: &[u8], nulls: Option<NullBuffer>, unit: IntervalUnit) -> Result<ArrayRef> {
    let mut parts = Vec::with_capacity(bytes.len() / 12);
    for c in bytes.chunks_exact(12) {
        let part = |k: usize| u32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]);
        parts.push((part(0), part(4), part(8)));
    }
    let signed = |x: u32| {
        i32::try_from(x).map_err(|_| general(format!("interval part {x} exceeds Arrow's i32")))
    };
    Ok(match unit {
        IntervalUnit::YearMonth => Arc::new(IntervalYearMonthArray::new(
            parts
                .iter()
                .map(|&(m, _, _)| signed(m))
                .collect::<Result<Vec<_>>>()?
                .into(),
            nulls,
        )),
        IntervalUnit::DayTime => Arc::new(IntervalDayTimeArray::new(
            parts
                .iter()
                .map(|&(_, d, ms)| Ok(IntervalDayTime::new(signed(d)?, signed(ms)?)))
                .collect::<Result<Vec<_>>>()?
                .into(),
            nulls,
        )),
        IntervalUnit::MonthDayNano => Arc::new(IntervalMonthDayNanoArray::new(
            parts
                .iter()
                .map(|&(m, d, ms)| {
                    Ok(IntervalMonthDayNano::new(
                        signed(m)?,
                        signed(d)?,
                        i64::from(ms) * 1_000_000,
                    ))
                })
                .collect::<Result<Vec<_>>>()?
                .into(),
            nulls,
        )),
    })
}

fn large_offsets(o: &OffsetBuffer<i32>) -> OffsetBuffer<i64> {
    OffsetBuffer::new(o.iter().map(|&x| i64::from(x)).collect())
}

#[cfg(test)]
mod tests {
    use super::{dictionary_values, offset_buffer};
    use std::sync::Arc;

    use arrow_array::cast::AsArray;
    use arrow_schema::DataType;
    use strata_encoding::ByteArrayBuffer;

    fn dictionary(entries: &[&[u8]]) -> Arc<ByteArrayBuffer> {
        let mut d = ByteArrayBuffer::new();
        for e in entries {
            d.push(e).unwrap();
        }
        Arc::new(d)
    }

    /// Utf8 and Binary dictionary values are the decoder's own memory, not
    /// a copy; the UTF-8 of a string dictionary is still checked.
    #[test]
    fn dictionary_values_share_the_decoded_dictionary() {
        let entries: [&[u8]; 4] = [b"red", b"", "gr\u{fc}n".as_bytes(), b"blue"];
        let dict = dictionary(&entries);
        let strings = dictionary_values(&dict, &DataType::Utf8).unwrap();
        let strings = strings.as_string::<i32>();
        let want: Vec<&str> = entries
            .iter()
            .map(|e| std::str::from_utf8(e).unwrap())
            .collect();
        assert_eq!(strings.iter().flatten().collect::<Vec<_>>(), want);
        assert_eq!(strings.values().as_ptr(), dict.values().as_ptr());
        assert_eq!(
            strings.offsets().as_ptr() as *const u8,
            dict.offsets().as_ptr() as *const u8
        );
        let binary = dictionary_values(&dict, &DataType::Binary).unwrap();
        assert_eq!(
            binary.as_binary::<i32>().values().as_ptr(),
            dict.values().as_ptr()
        );
        // Other types are copies with the same values.
        let large = dictionary_values(&dict, &DataType::LargeUtf8).unwrap();
        assert_eq!(
            large
                .as_string::<i64>()
                .iter()
                .flatten()
                .collect::<Vec<_>>(),
            want
        );

        let bad = dictionary(&[b"fine", b"\xff"]);
        assert!(dictionary_values(&bad, &DataType::Utf8).is_err());
        assert_eq!(dictionary_values(&bad, &DataType::Binary).unwrap().len(), 2);
        let empty = dictionary(&[]);
        assert_eq!(dictionary_values(&empty, &DataType::Utf8).unwrap().len(), 0);
    }

    /// The same verdict as Arrow's own check (`OffsetBuffer::new` panics
    /// where this gives an error), for a decrease at every position.
    #[test]
    fn offset_buffer_accepts_exactly_what_arrow_accepts() {
        let good: Vec<i32> = vec![0, 0, 3, 3, 7, 12, 12, 20, 21];
        assert_eq!(offset_buffer(good.clone()).unwrap().as_ref(), &good[..]);
        assert!(offset_buffer(vec![5]).is_ok());
        assert!(offset_buffer(Vec::new()).is_err());
        assert!(offset_buffer(vec![-1, 2, 3]).is_err());
        for at in 1..good.len() {
            let mut bad = good.clone();
            bad[at] = bad[at - 1] - 1;
            assert!(offset_buffer(bad.clone()).is_err(), "{bad:?}");
            let arrow = std::panic::catch_unwind(|| {
                arrow_buffer::OffsetBuffer::new(arrow_buffer::ScalarBuffer::from(bad))
            });
            assert!(arrow.is_err());
        }
    }
}
