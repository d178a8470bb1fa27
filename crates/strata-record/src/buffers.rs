//! [`RecordBatchBuffers`]: the output of one batch, reused across batches.

use strata_encoding::chunk::ValueBuffer;

/// The levels, validity and values of one batch of records.
///
/// - `def_levels` / `rep_levels`: one entry per level of the batch; left
///   empty when the column's maximum definition / repetition level is 0
///   (a required or non-repeated column has no such levels).
/// - `values`:
///   - flat optional columns (max rep 0, max def > 0): one slot per level,
///     null slots holding a zero / empty value, described by `validity`;
///   - required columns: one value per level (record);
///   - repeated columns: only the present values (levels whose
///     definition level is the maximum), densely; the levels say where
///     they belong.
/// - `validity` / `null_count`: for flat optional columns only, an
///   LSB-first bitmap with one bit per level (set = present) and its null
///   count; empty and 0 otherwise.
///
/// [`clear`](Self::clear) keeps every allocation, so one set of buffers
/// serves every batch of a column.
#[derive(Debug, Clone, Default)]
pub struct RecordBatchBuffers<V> {
    /// Definition levels (empty for columns whose max definition level is 0).
    pub def_levels: Vec<i16>,
    /// Repetition levels (empty for columns whose max repetition level is 0).
    pub rep_levels: Vec<i16>,
    /// Values (see the type's documentation for the layout).
    pub values: V,
    /// Validity bitmap of flat optional columns, one bit per level.
    pub validity: Vec<u8>,
    /// Null slots in `validity`.
    pub null_count: usize,
    /// Levels in the batch (one per record for non-repeated columns).
    pub num_levels: usize,
    /// Records in the batch.
    pub num_records: usize,
    /// Every value of the batch was gathered from the chunk's dictionary
    /// (set by [`read_records`](crate::ColumnRecordReader::read_records);
    /// `false` once a value came from a page that is not dictionary
    /// encoded). A string column whose dictionary was checked to be UTF-8
    /// needs no second check of such a batch.
    pub from_dictionary: bool,
}

impl<V: ValueBuffer> RecordBatchBuffers<V> {
    /// Empty buffers; no heap memory until the first batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empty the buffers, keeping their allocations.
    pub fn clear(&mut self) {
        self.def_levels.clear();
        self.rep_levels.clear();
        self.values.clear();
        self.validity.clear();
        self.null_count = 0;
        self.num_levels = 0;
        self.num_records = 0;
        self.from_dictionary = false;
    }
}

impl<V> RecordBatchBuffers<V> {
    /// Whether slot `i` of a flat optional column is present (`true` for
    /// other columns, which carry no validity).
    pub fn is_valid(&self, i: usize) -> bool {
        if self.validity.is_empty() {
            return true;
        }
        self.validity
            .get(i / 8)
            .is_some_and(|byte| byte & (1 << (i % 8)) != 0)
    }
}
