//! Writing Arrow [`RecordBatch`]es as Parquet: [`ArrowWriter`], with the
//! names and signatures of arrow-rs's `parquet::arrow::ArrowWriter`.
//!
//! ## Data flow
//!
//! ```text
//! RecordBatch ─▶ per root field: LevelNode::visit ─▶ per leaf: def/rep
//!   levels + ranges of the leaf array holding present values
//! leaf array + ranges ─▶ values of the leaf's physical type: a slice of
//!   the Arrow buffer when the values are one contiguous range (no copy),
//!   else gathered into the leaf's reused scratch buffer
//! ─▶ ColumnChunkWriter::write_batch (pages, encodings, statistics)
//! (content-defined chunking on: each leaf's levels and Arrow values
//!   hashed first, the leaf written chunk by chunk, a page cut after each
//!   chunk but the last; `chunking`)
//! row group full (rows or bytes) ─▶ chunks appended to the FileWriter
//! close ─▶ page indexes, footer with the Arrow schema (`ARROW:schema`)
//! ```

mod chunking;
mod levels;

use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, IntervalUnit, SchemaRef, TimeUnit as ArrowTimeUnit};
use strata_encoding::{ByteArrayBatch, ByteArrayBuffer, FixedLenBatch, Int96};
use strata_file::chunking::ContentDefinedChunker;
use strata_file::properties::{Encoding, WriterProperties, WriterVersion};
use strata_file::writer::{ColumnWriter, FileWriter};
use strata_format::metadata::{KeyValue, Type};
use strata_format::{ColumnDescriptor, SchemaDescriptor};

use crate::error::{ParquetError, Result, general};
use crate::schema::{
    ARROW_SCHEMA_META_KEY, DEFAULT_SCHEMA_ROOT, FieldKind, HintRule, ParquetField,
    arrow_to_parquet_schema_rooted, build_arrow_schema, encode_arrow_schema,
};
use levels::{LeafLevels, LevelNode};
use strata_file::metadata::ParquetMetaData;

/// One root field of the schema: its level tree and leaves.
#[derive(Debug)]
struct Root {
    node: LevelNode,
    /// Maximum (def, rep) of each leaf below.
    maxima: Vec<(i16, i16)>,
    /// Index of its first leaf among the schema's leaves.
    first_leaf: usize,
}

/// Reused buffers of one leaf: values gathered from several ranges.
#[derive(Debug, Default)]
struct Scratch {
    bools: Vec<bool>,
    i32s: Vec<i32>,
    i64s: Vec<i64>,
    f32s: Vec<f32>,
    f64s: Vec<f64>,
    bytes: ByteArrayBuffer,
    offsets: Vec<i64>,
    values: Vec<u8>,
    fixed: Vec<u8>,
    keys: Vec<u32>,
}

impl Scratch {
    fn heap_size(&self) -> usize {
        self.bools.capacity()
            + self.i32s.capacity() * 4
            + self.i64s.capacity() * 8
            + self.f32s.capacity() * 4
            + self.f64s.capacity() * 8
            + self.bytes.heap_size()
            + self.offsets.capacity() * 8
            + self.values.capacity()
            + self.fixed.capacity()
            + self.keys.capacity() * 4
    }
}

/// Writes Arrow record batches to a Parquet file.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// use strata_arrow::ArrowWriter;
/// use strata_file::properties::{Encoding, WriterProperties, WriterVersion};
/// use strata_file::codec::{Compression, ZstdLevel};
///
/// let col: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None, Some(3)]));
/// let batch = RecordBatch::try_from_iter([("x", col)]).unwrap();
/// let props = WriterProperties::builder()
///     .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).unwrap()))
///     .set_max_row_group_row_count(Some(2))
///     .build();
/// let mut buf = Vec::new();
/// let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props)).unwrap();
/// writer.write(&batch).unwrap();
/// let metadata = writer.close().unwrap();
/// assert_eq!(metadata.num_row_groups(), 2);
/// ```
pub struct ArrowWriter<W: Write + Send> {
    file: FileWriter<W>,
    arrow_schema: SchemaRef,
    descr: Arc<SchemaDescriptor>,
    /// The leaves of `descr`, shared by the column writers of every row
    /// group.
    columns: Vec<Arc<ColumnDescriptor>>,
    props: Arc<WriterProperties>,
    roots: Vec<Root>,
    writers: Vec<ColumnWriter>,
    /// Levels of the leaves of one root field at a time (as many entries
    /// as the widest root has leaves), reused for every root and batch: a
    /// writer of thousands of flat columns holds one set of level buffers,
    /// not one per column.
    levels: Vec<LeafLevels>,
    /// Values gathered from several ranges, shared by all leaves.
    scratch: Scratch,
    /// With content-defined chunking: one chunker per leaf, kept across
    /// batches and row groups (each column is one stream); the boundaries
    /// of the leaf being written and the part of it between two.
    chunkers: Option<Vec<ContentDefinedChunker>>,
    boundaries: Vec<usize>,
    chunk: LeafLevels,
    in_progress_rows: usize,
    max_rows: usize,
    max_bytes: Option<usize>,
}

/// Arrow's writer trait, so an `ArrowWriter` goes wherever an IPC or CSV
/// writer would.
impl<W: Write + Send> arrow_array::RecordBatchWriter for ArrowWriter<W> {
    fn write(&mut self, batch: &RecordBatch) -> std::result::Result<(), arrow_schema::ArrowError> {
        ArrowWriter::write(self, batch).map_err(Into::into)
    }

    fn close(self) -> std::result::Result<(), arrow_schema::ArrowError> {
        ArrowWriter::close(self).map(|_| ()).map_err(Into::into)
    }
}

impl<W: Write + Send> std::fmt::Debug for ArrowWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrowWriter")
            .field("schema", &self.arrow_schema)
            .field("in_progress_rows", &self.in_progress_rows)
            .finish_non_exhaustive()
    }
}

/// `props`, with PLAIN as the encoding of every byte-array leaf of an
/// Arrow `Dictionary` type that has no encoding of its own, when the
/// format version would otherwise make its non-dictionary pages
/// DELTA_BYTE_ARRAY.
///
/// Such pages appear when dictionary encoding is off or falls back
/// mid-chunk. pyarrow refuses to read DELTA_BYTE_ARRAY pages into a
/// dictionary-typed column (the type the embedded Arrow schema asks for),
/// so the whole column would be unreadable there; PLAIN pages read
/// everywhere, and the values are the same.
fn plain_fallback_for_dictionaries(
    props: WriterProperties,
    fields: &[ParquetField],
    descr: &SchemaDescriptor,
) -> WriterProperties {
    fn dictionary_leaves(field: &ParquetField, out: &mut Vec<usize>) {
        match &field.kind {
            FieldKind::Leaf { column } => {
                if matches!(field.arrow_type, DataType::Dictionary(..)) {
                    out.push(*column);
                }
            }
            FieldKind::Struct { children } => {
                children.iter().for_each(|c| dictionary_leaves(c, out))
            }
            FieldKind::List { element } => dictionary_leaves(element, out),
        }
    }
    if props.writer_version() != WriterVersion::PARQUET_2_0 {
        return props;
    }
    let mut leaves = Vec::new();
    fields
        .iter()
        .for_each(|f| dictionary_leaves(f, &mut leaves));
    let paths: Vec<_> = leaves
        .into_iter()
        .filter_map(|i| descr.columns().get(i))
        .filter(|c| {
            matches!(c.physical_type, Type::ByteArray | Type::FixedLenByteArray)
                && props.encoding(&c.path).is_none()
        })
        .map(|c| c.path.clone())
        .collect();
    if paths.is_empty() {
        return props;
    }
    paths
        .into_iter()
        .fold(props.into_builder(), |b, path| {
            b.set_column_encoding(path, Encoding::PLAIN)
        })
        .build()
}

/// Options of an [`ArrowWriter`] beyond its [`WriterProperties`]
/// ([`ArrowWriter::try_new_with_options`]).
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// use strata_arrow::arrow_writer::{ArrowWriter, ArrowWriterOptions};
/// use strata_file::properties::WriterProperties;
///
/// let batch = RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from(vec![1])) as ArrayRef)])
///     .unwrap();
/// let options = ArrowWriterOptions::new()
///     .with_properties(WriterProperties::builder().build())
///     .with_skip_arrow_metadata(true)
///     .with_schema_root("table".to_string());
/// let mut out = Vec::new();
/// let mut writer = ArrowWriter::try_new_with_options(&mut out, batch.schema(), options).unwrap();
/// writer.write(&batch).unwrap();
/// let metadata = writer.close().unwrap();
/// assert_eq!(metadata.file_metadata().schema[0].name, "table");
/// assert!(metadata.file_metadata().key_value_metadata.is_none());
/// ```
#[derive(Debug, Clone, Default)]
pub struct ArrowWriterOptions {
    properties: WriterProperties,
    skip_arrow_metadata: bool,
    schema_root: Option<String>,
}

impl ArrowWriterOptions {
    /// The defaults: default properties, the Arrow schema embedded, the
    /// root named `arrow_schema`.
    pub fn new() -> Self {
        Self::default()
    }

    /// The writer properties.
    pub fn with_properties(mut self, properties: WriterProperties) -> Self {
        self.properties = properties;
        self
    }

    /// Do not store the Arrow schema (`ARROW:schema`) in the footer.
    /// Readers then see the Parquet schema's own types: large, view,
    /// dictionary and some time types come back as their plain forms.
    pub fn with_skip_arrow_metadata(mut self, skip_arrow_metadata: bool) -> Self {
        self.skip_arrow_metadata = skip_arrow_metadata;
        self
    }

    /// The name of the Parquet schema's root.
    pub fn with_schema_root(mut self, schema_root: String) -> Self {
        self.schema_root = Some(schema_root);
        self
    }
}

impl<W: Write + Send> ArrowWriter<W> {
    /// A writer of batches of `arrow_schema` to `writer`, with `props` (or
    /// the defaults). Writes the leading magic bytes.
    pub fn try_new(
        writer: W,
        arrow_schema: SchemaRef,
        props: Option<WriterProperties>,
    ) -> Result<Self> {
        let options = ArrowWriterOptions::new().with_properties(props.unwrap_or_default());
        Self::try_new_with_options(writer, arrow_schema, options)
    }

    /// [`try_new`](Self::try_new) with [`ArrowWriterOptions`].
    pub fn try_new_with_options(
        writer: W,
        arrow_schema: SchemaRef,
        options: ArrowWriterOptions,
    ) -> Result<Self> {
        let root = options
            .schema_root
            .as_deref()
            .unwrap_or(DEFAULT_SCHEMA_ROOT);
        let descr = Arc::new(arrow_to_parquet_schema_rooted(&arrow_schema, root)?);
        let hint = Some((arrow_schema.as_ref(), HintRule::Exact));
        let (_, fields) = build_arrow_schema(&descr, None, hint, None)?;
        let props = Arc::new(plain_fallback_for_dictionaries(
            options.properties,
            &fields,
            &descr,
        ));
        let mut roots = Vec::with_capacity(fields.len());
        let mut next_leaf = 0;
        for f in &fields {
            let first_leaf = next_leaf;
            let mut local = 0;
            let node = LevelNode::new(f, &mut local);
            let mut maxima = Vec::with_capacity(local);
            node.leaf_maxima(&mut maxima);
            next_leaf += local;
            roots.push(Root {
                node,
                maxima,
                first_leaf,
            });
        }
        if next_leaf != descr.num_columns() {
            return Err(general("schema mapping lost a leaf column"));
        }
        let mut file = FileWriter::new(writer, descr.clone(), props.clone())?;
        if !options.skip_arrow_metadata {
            file.append_key_value_metadata(KeyValue::new(
                ARROW_SCHEMA_META_KEY.to_string(),
                encode_arrow_schema(&arrow_schema),
            ));
        }
        let chunkers = match props.content_defined_chunking() {
            Some(options) => Some(
                descr
                    .columns()
                    .iter()
                    .map(|c| {
                        ContentDefinedChunker::try_new(options, c.max_def_level, c.max_rep_level)
                    })
                    .collect::<std::result::Result<Vec<_>, _>>()?,
            ),
            None => None,
        };
        let widest = roots.iter().map(|r| r.maxima.len()).max().unwrap_or(0);
        let columns = file.columns().to_vec();
        let mut this = Self {
            file,
            arrow_schema,
            descr,
            columns,
            max_rows: props.max_row_group_row_count().unwrap_or(usize::MAX).max(1),
            max_bytes: props.max_row_group_bytes(),
            props,
            roots,
            writers: Vec::new(),
            levels: (0..widest).map(|_| LeafLevels::default()).collect(),
            scratch: Scratch::default(),
            chunkers,
            boundaries: Vec::new(),
            chunk: LeafLevels::default(),
            in_progress_rows: 0,
        };
        this.writers = this.new_writers()?;
        Ok(this)
    }

    fn new_writers(&self) -> Result<Vec<ColumnWriter>> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, c)| Ok(ColumnWriter::new(c.clone(), i, self.props.clone())?))
            .collect()
    }

    /// The Arrow schema written.
    pub fn schema(&self) -> &SchemaRef {
        &self.arrow_schema
    }

    /// Rows buffered in the row group being written.
    pub fn in_progress_rows(&self) -> usize {
        self.in_progress_rows
    }

    /// Estimated bytes the row group being written would add to the file.
    pub fn in_progress_size(&self) -> usize {
        self.writers.iter().map(|w| w.estimated_bytes()).sum()
    }

    /// Heap memory held by the writer's column buffers.
    pub fn memory_size(&self) -> usize {
        let levels: usize = self.levels.iter().map(LeafLevels::heap_size).sum();
        self.writers.iter().map(|w| w.memory_size()).sum::<usize>()
            + levels
            + self.scratch.heap_size()
    }

    /// The row groups written so far (flushed, not the one in progress).
    pub fn flushed_row_groups(&self) -> &[strata_file::metadata::RowGroupMetaData] {
        self.file.flushed_row_groups()
    }

    /// Bytes written to the output so far.
    pub fn bytes_written(&self) -> usize {
        usize::try_from(self.file.bytes_written()).unwrap_or(usize::MAX)
    }

    /// Add a key-value pair to the footer.
    pub fn append_key_value_metadata(&mut self, kv_metadata: KeyValue) {
        self.file.append_key_value_metadata(kv_metadata);
    }

    /// The underlying writer.
    pub fn inner(&self) -> &W {
        self.file.inner()
    }

    /// The underlying writer, mutably. Bytes written through it are not
    /// counted: the file's offsets would be wrong. For flushing or
    /// inspecting the sink, not writing to it.
    pub fn inner_mut(&mut self) -> &mut W {
        self.file.inner_mut()
    }

    /// Write a batch: buffered into the current row group, which is
    /// flushed whenever it reaches the row count or byte limit.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if batch.num_columns() != self.arrow_schema.fields().len() {
            return Err(general(format!(
                "batch of {} columns for a schema of {}",
                batch.num_columns(),
                self.arrow_schema.fields().len()
            )));
        }
        for (field, column) in self.arrow_schema.fields().iter().zip(batch.columns()) {
            if field.data_type() != column.data_type() {
                return Err(general(format!(
                    "column {} is {}, the schema says {}",
                    field.name(),
                    column.data_type(),
                    field.data_type()
                )));
            }
        }
        let rows = batch.num_rows();
        let mut offset = 0;
        while offset < rows {
            let take = (rows - offset).min(self.max_rows - self.in_progress_rows);
            let slice;
            let part = if offset == 0 && take == rows {
                batch
            } else {
                slice = batch.slice(offset, take);
                &slice
            };
            self.write_part(part)?;
            self.in_progress_rows += take;
            offset += take;
            if self.in_progress_rows >= self.max_rows
                || self.max_bytes.is_some_and(|m| self.in_progress_size() >= m)
            {
                self.flush()?;
            }
        }
        Ok(())
    }

    fn write_part(&mut self, batch: &RecordBatch) -> Result<()> {
        for (root, column) in self.roots.iter().zip(batch.columns()) {
            let count = root.maxima.len();
            let levels = &mut self.levels[..count];
            levels.iter_mut().for_each(LeafLevels::clear);
            let nulls = root.node.nulls_of(column);
            root.node.visit(
                column,
                nulls.as_ref(),
                0..column.len(),
                0,
                0,
                levels,
                &root.maxima,
            )?;
            for (k, level) in levels.iter().enumerate() {
                // No writers after a failed flush: the file is unusable.
                let w = self
                    .writers
                    .get_mut(root.first_leaf + k)
                    .ok_or_else(|| general("the writer failed earlier; the file is unusable"))?;
                let leaf = root.first_leaf + k;
                match self.chunkers.as_mut().and_then(|c| c.get_mut(leaf)) {
                    Some(chunker) => write_chunked(
                        w,
                        level,
                        chunker,
                        &mut self.scratch,
                        &mut self.boundaries,
                        &mut self.chunk,
                    )?,
                    None => write_leaf(w, level, &mut self.scratch)?,
                }
            }
        }
        Ok(())
    }

    /// Close the current row group (if it has rows) and write it out.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_row_group(true)
    }

    /// Close the current row group; with `reopen`, make the column writers
    /// of the next one after the old ones are gone (each old writer is
    /// dropped as soon as its chunk is out, so the two sets never coexist).
    fn flush_row_group(&mut self, reopen: bool) -> Result<()> {
        if self.in_progress_rows == 0 {
            return Ok(());
        }
        let writers = std::mem::take(&mut self.writers);
        let mut rg = self.file.next_row_group()?;
        // One chunk at a time: each is written and freed before the next
        // closes, so a sink that keeps what it is given (a `Vec<u8>`) never
        // holds the row group twice over.
        for w in writers {
            rg.append_column(w.close()?)?;
        }
        rg.finish()?;
        self.in_progress_rows = 0;
        if reopen {
            self.writers = self.new_writers()?;
        }
        Ok(())
    }

    /// Flush and write the footer; the writer can be dropped after.
    pub fn finish(&mut self) -> Result<ParquetMetaData> {
        self.flush()?;
        let file = self.file.finish()?;
        Ok(ParquetMetaData::from_footer(
            Arc::new(file),
            Arc::clone(&self.descr),
        ))
    }

    /// Flush, write the footer and return the file's metadata.
    pub fn close(mut self) -> Result<ParquetMetaData> {
        self.flush_row_group(false)?;
        let file = self.file.close()?;
        Ok(ParquetMetaData::from_footer(
            Arc::new(file),
            Arc::clone(&self.descr),
        ))
    }

    /// Flush, write the footer and return the underlying writer.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush_row_group(false)?;
        Ok(self.file.into_inner()?)
    }
}

fn gather<'a, T: Copy>(
    vals: &'a [T],
    ranges: &[Range<usize>],
    scratch: &'a mut Vec<T>,
) -> Result<&'a [T]> {
    let get = |r: &Range<usize>| {
        vals.get(r.clone())
            .ok_or_else(|| general("value range past the end of the array"))
    };
    match ranges {
        [] => Ok(&[]),
        [r] => get(r),
        _ => {
            scratch.clear();
            for r in ranges {
                scratch.extend_from_slice(get(r)?);
            }
            Ok(scratch)
        }
    }
}

fn gather_map<'a, T: Copy, U>(
    vals: &[T],
    ranges: &[Range<usize>],
    scratch: &'a mut Vec<U>,
    f: impl Fn(T) -> U,
) -> Result<&'a [U]> {
    scratch.clear();
    for r in ranges {
        let v = vals
            .get(r.clone())
            .ok_or_else(|| general("value range past the end of the array"))?;
        scratch.extend(v.iter().map(|&x| f(x)));
    }
    Ok(scratch)
}

/// The values of a dictionary array, looked up (the leaf then writes them
/// like a plain array).
fn materialize(array: &ArrayRef) -> Result<ArrayRef> {
    match array.as_any_dictionary_opt() {
        Some(dict) => Ok(arrow_select::take::take(
            dict.values().as_ref(),
            dict.keys(),
            None,
        )?),
        None => Ok(array.clone()),
    }
}

/// Write `leaf` chunk by chunk, as its chunker cuts it, ending a page at
/// each boundary (the last chunk stays open for the next batch).
fn write_chunked(
    w: &mut ColumnWriter,
    leaf: &LeafLevels,
    chunker: &mut ContentDefinedChunker,
    s: &mut Scratch,
    boundaries: &mut Vec<usize>,
    part: &mut LeafLevels,
) -> Result<()> {
    let levels = leaf.def.len().max(leaf.rep.len()).max(leaf.num_values());
    boundaries.clear();
    chunking::leaf_boundaries(chunker, leaf, levels, boundaries);
    if boundaries.is_empty() {
        return write_leaf(w, leaf, s);
    }
    let max_def = w.descriptor().max_def_level;
    let (mut start, mut values) = (0, 0);
    for &boundary in boundaries.iter() {
        if boundary > start {
            values += chunking::slice_leaf(leaf, start..boundary, values, max_def, part);
            write_leaf(w, part, s)?;
        }
        w.add_data_page()?;
        start = boundary;
    }
    chunking::slice_leaf(leaf, start..levels, values, max_def, part);
    write_leaf(w, part, s)
}

fn write_leaf(w: &mut ColumnWriter, l: &LeafLevels, s: &mut Scratch) -> Result<()> {
    let levels = l.def.len().max(l.rep.len()).max(l.num_values());
    if levels == 0 {
        return Ok(());
    }
    let def = (!l.def.is_empty()).then_some(l.def.as_slice());
    let rep = (!l.rep.is_empty()).then_some(l.rep.as_slice());
    let r = &l.ranges;
    // A dictionary of byte arrays goes in as keys into its own entries:
    // each used entry is hashed once per batch, not once per value.
    if let ColumnWriter::ByteArrayColumnWriter(cw) = w
        && cw.is_dictionary_encoding()
        && let Some(a) = &l.array
        && l.num_values() > 0
        && let Some(entries) = byte_dictionary_keys(a, r, &mut s.keys)?
    {
        let keys = std::mem::take(&mut s.keys);
        let all = [Range {
            start: 0,
            end: entries.len(),
        }];
        let written = byte_values(&entries, &all, s)
            .and_then(|batch| Ok(cw.write_keyed_batch(batch, &keys, def, rep)?));
        s.keys = keys;
        written?;
        return Ok(());
    }
    let array = match &l.array {
        Some(a) if l.num_values() > 0 => Some(materialize(a)?),
        _ => None,
    };
    match w {
        ColumnWriter::BoolColumnWriter(cw) => {
            let v: &[bool] = match &array {
                None => &[],
                Some(a) => {
                    let b = a.as_boolean_opt().ok_or_else(|| type_err(a, "BOOLEAN"))?;
                    s.bools.clear();
                    // The bits of each range in one pass of a bit iterator,
                    // not a checked lookup per value.
                    let bits = b.values();
                    for range in r {
                        if range.start > range.end || range.end > bits.len() {
                            return Err(general("value range past the end of the array"));
                        }
                        s.bools.extend(bits.slice(range.start, range.len()).iter());
                    }
                    &s.bools
                }
            };
            cw.write_batch(v, def, rep)?;
        }
        ColumnWriter::Int32ColumnWriter(cw) => {
            let v = match &array {
                None => &[][..],
                Some(a) => int32_values(a, r, &mut s.i32s)?,
            };
            cw.write_batch(v, def, rep)?;
        }
        ColumnWriter::Int64ColumnWriter(cw) => {
            let v = match &array {
                None => &[][..],
                Some(a) => int64_values(a, r, &mut s.i64s)?,
            };
            cw.write_batch(v, def, rep)?;
        }
        ColumnWriter::Int96ColumnWriter(cw) => {
            let empty: [Int96; 0] = [];
            if array.is_some() {
                return Err(general("strata writes no INT96 columns"));
            }
            cw.write_batch(&empty, def, rep)?;
        }
        ColumnWriter::FloatColumnWriter(cw) => {
            let v = match &array {
                None => &[][..],
                Some(a) => {
                    let p = a
                        .as_primitive_opt::<Float32Type>()
                        .ok_or_else(|| type_err(a, "FLOAT"))?;
                    gather(p.values(), r, &mut s.f32s)?
                }
            };
            cw.write_batch(v, def, rep)?;
        }
        ColumnWriter::DoubleColumnWriter(cw) => {
            let v = match &array {
                None => &[][..],
                Some(a) => {
                    let p = a
                        .as_primitive_opt::<Float64Type>()
                        .ok_or_else(|| type_err(a, "DOUBLE"))?;
                    gather(p.values(), r, &mut s.f64s)?
                }
            };
            cw.write_batch(v, def, rep)?;
        }
        ColumnWriter::ByteArrayColumnWriter(cw) => {
            let v = match &array {
                None => ByteArrayBatch::from_slices(&[]),
                Some(a) => byte_values(a, r, s)?,
            };
            cw.write_values(v, def, rep)?;
        }
        ColumnWriter::FixedLenByteArrayColumnWriter(cw) => {
            let width = usize::try_from(cw.descriptor().type_length.unwrap_or(0)).unwrap_or(0);
            s.fixed.clear();
            if let Some(a) = &array {
                fixed_values(a, r, width, &mut s.fixed)?;
            }
            cw.write_values(FixedLenBatch::new(width, &s.fixed)?, def, rep)?;
        }
    }
    Ok(())
}

/// If `a` is a dictionary of Utf8, Binary or their large and view forms:
/// its keys at the value ranges `r` into `out`, and its entries.
fn byte_dictionary_keys(
    a: &ArrayRef,
    r: &[Range<usize>],
    out: &mut Vec<u32>,
) -> Result<Option<ArrayRef>> {
    fn keys<K: ArrowDictionaryKeyType>(
        a: &ArrayRef,
        r: &[Range<usize>],
        out: &mut Vec<u32>,
    ) -> Result<Option<ArrayRef>> {
        let Some(d) = a.as_dictionary_opt::<K>() else {
            return Ok(None);
        };
        let keys = d.keys().values();
        out.clear();
        for range in r {
            let run = keys
                .get(range.clone())
                .ok_or_else(|| general("value range past the end of the array"))?;
            for &k in run {
                let k = arrow_buffer::ArrowNativeType::to_usize(k)
                    .and_then(|k| u32::try_from(k).ok())
                    .ok_or_else(|| general("a negative or oversized dictionary key"))?;
                out.push(k);
            }
        }
        Ok(Some(d.values().clone()))
    }
    use DataType as D;
    let D::Dictionary(key, value) = a.data_type() else {
        return Ok(None);
    };
    if !matches!(
        **value,
        D::Utf8 | D::LargeUtf8 | D::Utf8View | D::Binary | D::LargeBinary | D::BinaryView
    ) {
        return Ok(None);
    }
    match **key {
        D::Int8 => keys::<Int8Type>(a, r, out),
        D::Int16 => keys::<Int16Type>(a, r, out),
        D::Int32 => keys::<Int32Type>(a, r, out),
        D::Int64 => keys::<Int64Type>(a, r, out),
        D::UInt8 => keys::<UInt8Type>(a, r, out),
        D::UInt16 => keys::<UInt16Type>(a, r, out),
        D::UInt32 => keys::<UInt32Type>(a, r, out),
        D::UInt64 => keys::<UInt64Type>(a, r, out),
        _ => Ok(None),
    }
}

fn type_err(a: &ArrayRef, physical: &str) -> ParquetError {
    general(format!(
        "cannot write {} to a {physical} column",
        a.data_type()
    ))
}

fn int32_values<'a>(a: &'a ArrayRef, r: &[Range<usize>], s: &'a mut Vec<i32>) -> Result<&'a [i32]> {
    use DataType as D;
    Ok(match a.data_type() {
        D::Int32 => gather(a.as_primitive::<Int32Type>().values(), r, s)?,
        D::Date32 => gather(a.as_primitive::<Date32Type>().values(), r, s)?,
        D::Date64 => gather_map(a.as_primitive::<Date64Type>().values(), r, s, |x| {
            x.div_euclid(86_400_000) as i32
        })?,
        D::Time32(ArrowTimeUnit::Millisecond) => {
            gather(a.as_primitive::<Time32MillisecondType>().values(), r, s)?
        }
        D::Time32(_) => gather_map(a.as_primitive::<Time32SecondType>().values(), r, s, |x| {
            x.wrapping_mul(1000)
        })?,
        D::Int8 => gather_map(a.as_primitive::<Int8Type>().values(), r, s, i32::from)?,
        D::Int16 => gather_map(a.as_primitive::<Int16Type>().values(), r, s, i32::from)?,
        D::UInt8 => gather_map(a.as_primitive::<UInt8Type>().values(), r, s, i32::from)?,
        D::UInt16 => gather_map(a.as_primitive::<UInt16Type>().values(), r, s, i32::from)?,
        D::UInt32 => gather_map(a.as_primitive::<UInt32Type>().values(), r, s, |x| x as i32)?,
        D::Decimal32(_, _) => gather(a.as_primitive::<Decimal32Type>().values(), r, s)?,
        D::Decimal64(_, _) => gather_map(a.as_primitive::<Decimal64Type>().values(), r, s, |x| {
            x as i32
        })?,
        D::Decimal128(_, _) => {
            gather_map(a.as_primitive::<Decimal128Type>().values(), r, s, |x| {
                x as i32
            })?
        }
        D::Decimal256(_, _) => {
            gather_map(a.as_primitive::<Decimal256Type>().values(), r, s, |x| {
                x.as_i128() as i32
            })?
        }
        D::Null => &[],
        _ => return Err(type_err(a, "INT32")),
    })
}

fn int64_values<'a>(a: &'a ArrayRef, r: &[Range<usize>], s: &'a mut Vec<i64>) -> Result<&'a [i64]> {
    use ArrowTimeUnit as U;
    use DataType as D;
    Ok(match a.data_type() {
        D::Int64 => gather(a.as_primitive::<Int64Type>().values(), r, s)?,
        D::UInt64 => gather_map(a.as_primitive::<UInt64Type>().values(), r, s, |x| x as i64)?,
        D::Timestamp(U::Second, _) => gather_map(
            a.as_primitive::<TimestampSecondType>().values(),
            r,
            s,
            |x| x.wrapping_mul(1000),
        )?,
        D::Timestamp(U::Millisecond, _) => {
            gather(a.as_primitive::<TimestampMillisecondType>().values(), r, s)?
        }
        D::Timestamp(U::Microsecond, _) => {
            gather(a.as_primitive::<TimestampMicrosecondType>().values(), r, s)?
        }
        D::Timestamp(U::Nanosecond, _) => {
            gather(a.as_primitive::<TimestampNanosecondType>().values(), r, s)?
        }
        D::Time64(U::Nanosecond) => {
            gather(a.as_primitive::<Time64NanosecondType>().values(), r, s)?
        }
        D::Time64(_) => gather(a.as_primitive::<Time64MicrosecondType>().values(), r, s)?,
        D::Duration(U::Second) => gather(a.as_primitive::<DurationSecondType>().values(), r, s)?,
        D::Duration(U::Millisecond) => {
            gather(a.as_primitive::<DurationMillisecondType>().values(), r, s)?
        }
        D::Duration(U::Microsecond) => {
            gather(a.as_primitive::<DurationMicrosecondType>().values(), r, s)?
        }
        D::Duration(U::Nanosecond) => {
            gather(a.as_primitive::<DurationNanosecondType>().values(), r, s)?
        }
        D::Decimal64(_, _) => gather(a.as_primitive::<Decimal64Type>().values(), r, s)?,
        D::Decimal128(_, _) => {
            gather_map(a.as_primitive::<Decimal128Type>().values(), r, s, |x| {
                x as i64
            })?
        }
        D::Decimal256(_, _) => {
            gather_map(a.as_primitive::<Decimal256Type>().values(), r, s, |x| {
                x.as_i128() as i64
            })?
        }
        _ => return Err(type_err(a, "INT64")),
    })
}

/// Byte arrays of the ranges `r` of an offsets + values array: the
/// array's own buffers when `r` is one range, else whole ranges copied into
/// the scratch offsets and values.
fn offsets_batch<'a, O: arrow_array::OffsetSizeTrait + strata_encoding::OffsetSize>(
    offsets: &'a [O],
    values: &'a [u8],
    r: &[Range<usize>],
    s: &'a mut Scratch,
) -> Result<ByteArrayBatch<'a>> {
    let bad = || general("byte array offsets out of range");
    let u = |x: O| arrow_buffer::ArrowNativeType::as_usize(x);
    match r {
        [] => Ok(ByteArrayBatch::from_slices(&[])),
        [one] => {
            let o = offsets
                .get(one.start..=one.end)
                .ok_or_else(|| general("value range past the end of the array"))?;
            Ok(ByteArrayBatch::from_offsets(o, values)?)
        }
        [first, ..]
            if r.windows(2).all(|w| {
                offsets.get(w[0].end).map(|&x| u(x)) == offsets.get(w[1].start).map(|&x| u(x))
            }) =>
        {
            // The null slots between the ranges hold no bytes (as Arrow
            // builders leave them): the values stay in the array's buffer
            // and only the present slots' offsets are gathered.
            s.offsets.clear();
            s.offsets
                .push(u(*offsets.get(first.start).ok_or_else(bad)?) as i64);
            for range in r {
                let o = offsets.get(range.start + 1..=range.end).ok_or_else(bad)?;
                s.offsets.extend(o.iter().map(|&x| u(x) as i64));
            }
            Ok(ByteArrayBatch::from_offsets(&s.offsets, values)?)
        }
        _ => {
            s.offsets.clear();
            s.values.clear();
            s.offsets.push(0);
            for range in r {
                let o = offsets.get(range.start..=range.end).ok_or_else(bad)?;
                let (first, last) = (u(o[0]), u(o[o.len() - 1]));
                s.values
                    .extend_from_slice(values.get(first..last).ok_or_else(bad)?);
                let base = *s.offsets.last().unwrap_or(&0) - first as i64;
                s.offsets.extend(o[1..].iter().map(|&x| base + u(x) as i64));
            }
            Ok(ByteArrayBatch::from_offsets(&s.offsets, &s.values)?)
        }
    }
}

fn byte_values<'a>(
    a: &'a ArrayRef,
    r: &[Range<usize>],
    s: &'a mut Scratch,
) -> Result<ByteArrayBatch<'a>> {
    use DataType as D;
    match a.data_type() {
        D::Utf8 => {
            let x = a.as_string::<i32>();
            offsets_batch(x.value_offsets(), x.value_data(), r, s)
        }
        D::LargeUtf8 => {
            let x = a.as_string::<i64>();
            offsets_batch(x.value_offsets(), x.value_data(), r, s)
        }
        D::Binary => {
            let x = a.as_binary::<i32>();
            offsets_batch(x.value_offsets(), x.value_data(), r, s)
        }
        D::LargeBinary => {
            let x = a.as_binary::<i64>();
            offsets_batch(x.value_offsets(), x.value_data(), r, s)
        }
        D::Utf8View => {
            let x = a.as_string_view();
            let s = &mut s.bytes;
            s.clear();
            for range in r {
                for i in range.clone() {
                    s.push(x.value(i).as_bytes())?;
                }
            }
            Ok(ByteArrayBatch::from_offsets(s.offsets(), s.values())?)
        }
        D::BinaryView => {
            let x = a.as_binary_view();
            let s = &mut s.bytes;
            s.clear();
            for range in r {
                for i in range.clone() {
                    s.push(x.value(i))?;
                }
            }
            Ok(ByteArrayBatch::from_offsets(s.offsets(), s.values())?)
        }
        _ => Err(type_err(a, "BYTE_ARRAY")),
    }
}

fn fixed_values(a: &ArrayRef, r: &[Range<usize>], width: usize, out: &mut Vec<u8>) -> Result<()> {
    use DataType as D;
    let check = |i: usize, len: usize| {
        if i < len {
            Ok(())
        } else {
            Err(general("value range past the end of the array"))
        }
    };
    match a.data_type() {
        D::FixedSizeBinary(_) => {
            let x = a.as_fixed_size_binary();
            for range in r {
                for i in range.clone() {
                    check(i, x.len())?;
                    out.extend_from_slice(x.value(i));
                }
            }
        }
        D::Float16 => {
            let x = a.as_primitive::<Float16Type>().values();
            for range in r {
                for v in x
                    .get(range.clone())
                    .ok_or_else(|| general("range past the end"))?
                {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        D::Interval(unit) => {
            for range in r {
                for i in range.clone() {
                    check(i, a.len())?;
                    let (months, days, millis) = interval_parts(a, *unit, i)?;
                    out.extend_from_slice(&months.to_le_bytes());
                    out.extend_from_slice(&days.to_le_bytes());
                    out.extend_from_slice(&millis.to_le_bytes());
                }
            }
        }
        D::Decimal128(_, _) => {
            let x = a.as_primitive::<Decimal128Type>().values();
            let w = width.min(16);
            for range in r {
                for v in x
                    .get(range.clone())
                    .ok_or_else(|| general("range past the end"))?
                {
                    out.extend_from_slice(&v.to_be_bytes()[16 - w..]);
                }
            }
        }
        D::Decimal256(_, _) => {
            let x = a.as_primitive::<Decimal256Type>().values();
            let w = width.min(32);
            for range in r {
                for v in x
                    .get(range.clone())
                    .ok_or_else(|| general("range past the end"))?
                {
                    out.extend_from_slice(&v.to_be_bytes()[32 - w..]);
                }
            }
        }
        _ => return Err(type_err(a, "FIXED_LEN_BYTE_ARRAY")),
    }
    Ok(())
}

/// The months, days and milliseconds of interval `i` of `a` (a Parquet
/// INTERVAL, three unsigned 32-bit integers). A negative part, or
/// nanoseconds that are not a whole number of milliseconds, cannot be
/// stored and give an error rather than a value other readers would see
/// differently.
fn interval_parts(a: &ArrayRef, unit: IntervalUnit, i: usize) -> Result<(u32, u32, u32)> {
    let (months, days, millis) = match unit {
        IntervalUnit::YearMonth => (
            i64::from(a.as_primitive::<IntervalYearMonthType>().value(i)),
            0,
            0,
        ),
        IntervalUnit::DayTime => {
            let v = a.as_primitive::<IntervalDayTimeType>().value(i);
            (0, i64::from(v.days), i64::from(v.milliseconds))
        }
        IntervalUnit::MonthDayNano => {
            let v = a.as_primitive::<IntervalMonthDayNanoType>().value(i);
            if v.nanoseconds % 1_000_000 != 0 {
                return Err(general(format!(
                    "interval of {} ns is not a whole number of milliseconds; \
                     a Parquet INTERVAL stores milliseconds",
                    v.nanoseconds
                )));
            }
            (
                i64::from(v.months),
                i64::from(v.days),
                v.nanoseconds / 1_000_000,
            )
        }
    };
    let part = |x: i64| {
        u32::try_from(x).map_err(|_| {
            general(format!(
                "interval part {x} is negative or too large; a Parquet INTERVAL stores \
                 unsigned 32-bit months, days and milliseconds"
            ))
        })
    };
    Ok((part(months)?, part(days)?, part(millis)?))
}
