//! From leaf columns to Arrow arrays: [`LeafReader`]s read each projected
//! leaf of a row group, and [`assemble`] builds the nested arrays from
//! their levels.
//!
//! ## Data flow
//!
//! ```text
//! row group ─▶ one LeafReader per projected leaf (page reader + record reader)
//! batch of n records ─▶ every leaf reads n records ─▶ LeafBatch (levels + array)
//!   leaf:   its array (one slot per level at or above its slot level)
//!   struct: children assembled; validity from the first leaf's levels
//!   list:   offsets and validity from the first leaf's levels:
//!           a level starts a list slot when its repetition level is at or
//!           below the list's parent repetition and its definition level
//!           reaches the list's slot level; it adds an element when its
//!           definition level reaches the element's
//!   map:    a list of key/value structs
//! ```
//!
//! A field's slot level is the definition level of its nearest repeated
//! ancestor's element (0 at the top): every level whose definition level
//! reaches it and whose repetition level is at most that ancestor's
//! repetition level is one slot of the field's array. All leaves under a
//! field agree on those slots, so any of them (the first) gives the
//! parents' structure.

pub(crate) mod leaf;
pub(crate) mod views;
pub(crate) mod window;

use std::sync::Arc;
use strata_encoding::levels_at_least_mask;

use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, GenericListArray, MapArray, OffsetSizeTrait, StructArray,
    UInt32Array,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Fields};

use crate::error::{Result, general};
use crate::schema::{FieldKind, ParquetField};
pub(crate) use leaf::{LeafBatch, LeafReader};

/// The definition level at which each leaf under `field` holds a slot,
/// given `field`'s own slot level; appended in leaf order.
pub(crate) fn leaf_slot_levels(field: &ParquetField, slot_def: i16, out: &mut Vec<i16>) {
    match &field.kind {
        FieldKind::Leaf { .. } => out.push(slot_def),
        FieldKind::Struct { children } => children
            .iter()
            .for_each(|c| leaf_slot_levels(c, slot_def, out)),
        FieldKind::List { element } => leaf_slot_levels(element, field.def_level + 1, out),
    }
}

/// Build the array of `field` from the leaf batches starting at
/// `*next` (advanced past the field's leaves). Returns the array and the
/// index of the field's first leaf.
pub(crate) fn assemble(
    field: &ParquetField,
    slot_def: i16,
    slot_rep: i16,
    leaves: &[LeafBatch],
    next: &mut usize,
) -> Result<(ArrayRef, usize)> {
    let first = *next;
    match &field.kind {
        FieldKind::Leaf { .. } => {
            let leaf = leaves
                .get(first)
                .ok_or_else(|| general("fewer leaf batches than leaves"))?;
            *next += 1;
            Ok((leaf.array.clone(), first))
        }
        FieldKind::Struct { children } => {
            let DataType::Struct(fields) = &field.arrow_type else {
                return Err(general("struct field without a struct type"));
            };
            let mut arrays = Vec::with_capacity(children.len());
            for child in children {
                arrays.push(assemble(child, slot_def, slot_rep, leaves, next)?.0);
            }
            let levels = leaves
                .get(first)
                .ok_or_else(|| general("struct without leaves"))?;
            let (nulls, len) = if field.nullable {
                slot_validity(levels, slot_def, slot_rep, field.def_level)
            } else {
                (None, slot_count(levels, slot_def, slot_rep))
            };
            Ok((Arc::new(struct_array(fields, arrays, nulls, len)?), first))
        }
        FieldKind::List { element } => {
            let (values, _) = assemble(
                element,
                field.def_level + 1,
                field.rep_level + 1,
                leaves,
                next,
            )?;
            let levels = leaves
                .get(first)
                .ok_or_else(|| general("list without leaves"))?;
            let array: ArrayRef = match &field.arrow_type {
                DataType::List(f) => {
                    let (offsets, nulls) =
                        list_offsets::<i32>(levels, ListLevels::of(field), slot_def, slot_rep)?;
                    Arc::new(GenericListArray::<i32>::try_new(
                        f.clone(),
                        offsets,
                        values,
                        nulls,
                    )?)
                }
                DataType::LargeList(f) => {
                    let (offsets, nulls) =
                        list_offsets::<i64>(levels, ListLevels::of(field), slot_def, slot_rep)?;
                    Arc::new(GenericListArray::<i64>::try_new(
                        f.clone(),
                        offsets,
                        values,
                        nulls,
                    )?)
                }
                DataType::Map(f, sorted) => {
                    let (offsets, nulls) =
                        list_offsets::<i32>(levels, ListLevels::of(field), slot_def, slot_rep)?;
                    let entries = values
                        .as_any()
                        .downcast_ref::<StructArray>()
                        .ok_or_else(|| general("map entries are not a struct"))?
                        .clone();
                    Arc::new(MapArray::try_new(
                        f.clone(),
                        offsets,
                        entries,
                        nulls,
                        *sorted,
                    )?)
                }
                DataType::FixedSizeList(f, size) => {
                    let (offsets, nulls) =
                        list_offsets::<i32>(levels, ListLevels::of(field), slot_def, slot_rep)?;
                    let values = fixed_size_values(values, &offsets, nulls.as_ref(), *size)?;
                    Arc::new(FixedSizeListArray::try_new(
                        f.clone(),
                        *size,
                        values,
                        nulls,
                    )?)
                }
                other => return Err(general(format!("list field read as {other}"))),
            };
            Ok((array, first))
        }
    }
}

fn struct_array(
    fields: &Fields,
    arrays: Vec<ArrayRef>,
    nulls: Option<NullBuffer>,
    len: usize,
) -> Result<StructArray> {
    if arrays.is_empty() {
        return Ok(StructArray::new_empty_fields(len, nulls));
    }
    Ok(StructArray::try_new(fields.clone(), arrays, nulls)?)
}

fn num_levels(leaf: &LeafBatch) -> usize {
    if !leaf.def.is_empty() {
        leaf.def.len()
    } else if !leaf.rep.is_empty() {
        leaf.rep.len()
    } else {
        leaf.array.len()
    }
}

fn slot_count(leaf: &LeafBatch, slot_def: i16, slot_rep: i16) -> usize {
    if leaf.def.is_empty() && leaf.rep.is_empty() {
        return leaf.array.len();
    }
    let mut count = 0usize;
    for_each_slot(leaf, slot_def, slot_rep, |_| count += 1);
    count
}

/// Call `f` with the definition level (`slot_def` when the leaf has none)
/// of every level that holds a slot, in order.
#[inline]
fn for_each_slot(leaf: &LeafBatch, slot_def: i16, slot_rep: i16, mut f: impl FnMut(i16)) {
    match (leaf.def.is_empty(), leaf.rep.is_empty()) {
        (false, false) => {
            for (&d, &r) in leaf.def.iter().zip(leaf.rep.iter()) {
                if d >= slot_def && r <= slot_rep {
                    f(d);
                }
            }
            // (Both lists have one entry per level; should the repetition
            // levels be short, the rest is judged by definition alone.)
            for &d in leaf.def.get(leaf.rep.len()..).unwrap_or_default() {
                if d >= slot_def {
                    f(d);
                }
            }
        }
        (false, true) => leaf
            .def
            .iter()
            .filter(|&&d| d >= slot_def)
            .for_each(|&d| f(d)),
        (true, false) => leaf
            .rep
            .iter()
            .filter(|&&r| r <= slot_rep)
            .for_each(|_| f(slot_def)),
        (true, true) => (0..leaf.array.len()).for_each(|_| f(slot_def)),
    }
}

/// Validity of a field present at `def_level`, one bit per slot (`None`
/// when every slot is valid), and the number of slots.
fn slot_validity(
    leaf: &LeafBatch,
    slot_def: i16,
    slot_rep: i16,
    def_level: i16,
) -> (Option<NullBuffer>, usize) {
    if leaf.def.is_empty() {
        return (None, slot_count(leaf, slot_def, slot_rep));
    }
    // Levels in chunks of 64, each chunk's bits collected in a register
    // (as in `list_offsets`). Without repetition levels every level whose
    // definition reaches `slot_def` is a slot.
    let mut bitmap = BitmapWords::with_capacity(leaf.def.len());
    let mut slots = 0usize;
    let mut chunk_bits = |word: u64, bits: u32| {
        bitmap.append(word, bits);
        slots += bits as usize;
    };
    if leaf.rep.is_empty() && slot_def <= 0 {
        // Every level is a slot (a top-level struct): each bit stands at
        // its level's own place, with no running count between levels.
        let (chunks, rest) = leaf.def.as_chunks::<64>();
        for defs in chunks {
            chunk_bits(levels_at_least_mask(defs, def_level), 64);
        }
        let word = rest
            .iter()
            .enumerate()
            .fold(0u64, |w, (k, &d)| w | (u64::from(d >= def_level) << k));
        chunk_bits(word, rest.len() as u32);
    } else if leaf.rep.is_empty() {
        for defs in leaf.def.chunks(64) {
            let mut word = 0u64;
            let mut bits = 0u32;
            for &d in defs {
                let slot = d >= slot_def;
                word |= u64::from(slot & (d >= def_level)) << (bits & 63);
                bits += u32::from(slot);
            }
            chunk_bits(word, bits);
        }
    } else if leaf.rep.len() == leaf.def.len() {
        for (defs, reps) in leaf.def.chunks(64).zip(leaf.rep.chunks(64)) {
            let mut word = 0u64;
            let mut bits = 0u32;
            for (&d, &r) in defs.iter().zip(reps) {
                let slot = (d >= slot_def) & (r <= slot_rep);
                word |= u64::from(slot & (d >= def_level)) << (bits & 63);
                bits += u32::from(slot);
            }
            chunk_bits(word, bits);
        }
    } else {
        // Level lists of different lengths (not written by a valid leaf
        // reader): slot by slot, as `for_each_slot` judges them.
        let mut word = 0u64;
        let mut bits = 0u32;
        for_each_slot(leaf, slot_def, slot_rep, |d| {
            word |= u64::from(d >= def_level) << bits;
            bits += 1;
            if bits == 64 {
                chunk_bits(word, bits);
                word = 0;
                bits = 0;
            }
        });
        chunk_bits(word, bits);
    }
    let validity = Buffer::from_vec(bitmap.finish());
    let valid = validity.count_set_bits_offset(0, slots);
    let nulls = (valid < slots).then(|| NullBuffer::new(BooleanBuffer::new(validity, 0, slots)));
    (nulls, slots)
}

type ListParts<O> = (OffsetBuffer<O>, Option<NullBuffer>);

/// What [`list_offsets`] needs of a list field: its own definition and
/// repetition levels and whether it may be null.
#[derive(Debug, Clone, Copy)]
struct ListLevels {
    def_level: i16,
    rep_level: i16,
    nullable: bool,
}

impl ListLevels {
    fn of(field: &ParquetField) -> Self {
        Self {
            def_level: field.def_level,
            rep_level: field.rep_level,
            nullable: field.nullable,
        }
    }
}

/// Offsets and validity of a list field from a leaf's levels.
fn list_offsets<O: OffsetSizeTrait>(
    leaf: &LeafBatch,
    field: ListLevels,
    slot_def: i16,
    slot_rep: i16,
) -> Result<ListParts<O>> {
    // A top-level list: every level with repetition 0 starts a slot.
    let by_mask = slot_rep == 0 && slot_def <= 0;
    build_list_offsets(leaf, field, slot_def, slot_rep, by_mask)
}

/// [`list_offsets`], with whole chunks of 64 levels taken as bit masks
/// when `by_mask` (only for a top-level list; the tests compare the two
/// ways).
fn build_list_offsets<O: OffsetSizeTrait>(
    leaf: &LeafBatch,
    field: ListLevels,
    slot_def: i16,
    slot_rep: i16,
    by_mask: bool,
) -> Result<ListParts<O>> {
    let n = num_levels(leaf);
    if leaf.rep.len() != n || leaf.def.len() != n {
        return Err(general("a list's leaf has no levels"));
    }
    let elem_def = field.def_level + 1;
    let elem_rep = field.rep_level + 1;
    // Offsets never exceed the number of levels: one check here, plain
    // conversions in the loop.
    if O::from_usize(n).is_none() {
        return Err(general("list offset overflow"));
    }
    // Without branches on the levels (list lengths are irregular, so
    // branches mispredict): every level writes the current element count
    // at the next slot's offset, kept only when the level starts a slot.
    // The levels go in chunks of 64, each collecting its slots' validity
    // bits in a register (at most 64 of them), appended to the bitmap once
    // per chunk; a bitmap store per level chained every level through
    // memory.
    let mut offsets: Vec<O> = vec![O::usize_as(0); n + 1];
    let mut validity = BitmapWords::with_capacity(n);
    let mut slots = 0usize;
    let mut elements = 0usize;
    let mut orphan = false;
    let list_def = field.def_level;
    // A top-level list (every level with repetition 0 starts a slot): whole
    // chunks of 64 levels as bit masks (vectorised compares), then work
    // per slot instead of per level; the rest as below.
    let mut from = 0;
    if by_mask {
        let (defs, _) = leaf.def.as_chunks::<64>();
        let (reps, _) = leaf.rep.as_chunks::<64>();
        for (defs, reps) in defs.iter().zip(reps) {
            let starts = !levels_at_least_mask(reps, 1);
            let elems =
                levels_at_least_mask(defs, elem_def) & !levels_at_least_mask(reps, elem_rep + 1);
            let valid = levels_at_least_mask(defs, list_def);
            if slots == 0 {
                // Elements before the first slot belong to no list.
                let before = elems & starts.wrapping_sub(1) & !starts;
                orphan |= before != 0;
            }
            let mut word = 0u64;
            let mut bits = 0u32;
            let mut rest = starts;
            while rest != 0 {
                let k = rest.trailing_zeros();
                let below = elems & ((1u64 << k) - 1);
                if let Some(o) = offsets.get_mut(slots) {
                    *o = O::usize_as(elements + below.count_ones() as usize);
                }
                word |= ((valid >> k) & 1) << bits;
                bits += 1;
                slots += 1;
                rest &= rest - 1;
            }
            elements += elems.count_ones() as usize;
            validity.append(word, bits);
            from += 64;
        }
    }
    let (defs, reps) = (&leaf.def[from..], &leaf.rep[from..]);
    for (defs, reps) in defs.chunks(64).zip(reps.chunks(64)) {
        let mut word = 0u64;
        let mut bits = 0u32;
        for (&d, &r) in defs.iter().zip(reps) {
            let starts = (r <= slot_rep) & (d >= slot_def);
            let element = (d >= elem_def) & (r <= elem_rep);
            if let Some(o) = offsets.get_mut(slots) {
                *o = O::usize_as(elements);
            }
            word |= u64::from(starts & (d >= list_def)) << (bits & 63);
            bits += u32::from(starts);
            slots += usize::from(starts);
            orphan |= element & (slots == 0);
            elements += usize::from(element);
        }
        validity.append(word, bits);
    }
    let validity = validity.finish();
    if orphan {
        return Err(general("list element before its list"));
    }
    offsets.truncate(slots + 1);
    if let Some(last) = offsets.get_mut(slots) {
        *last = O::usize_as(elements);
    }
    let valid: usize = validity.iter().map(|w| w.count_ones() as usize).sum();
    let nulls = (field.nullable && valid < slots)
        .then(|| NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(validity), 0, slots)));
    Ok((OffsetBuffer::new(ScalarBuffer::from(offsets)), nulls))
}

/// A bitmap built from runs of up to 64 bits at a time, in `u64` words.
struct BitmapWords {
    words: Vec<u64>,
    /// Bits of `words`' last word in use (0 when a new word is due).
    used: u32,
}

impl BitmapWords {
    fn with_capacity(bits: usize) -> Self {
        Self {
            words: Vec::with_capacity(bits.div_ceil(64) + 1),
            used: 0,
        }
    }

    /// Append the low `bits` bits of `word` (`bits <= 64`; the bits above
    /// them are zero).
    fn append(&mut self, word: u64, bits: u32) {
        if bits == 0 {
            return;
        }
        match self.words.last_mut() {
            Some(last) if self.used > 0 => {
                *last |= word << self.used;
                let spill = self.used + bits;
                if spill > 64 {
                    self.words.push(word >> (64 - self.used));
                }
                self.used = spill % 64;
            }
            _ => {
                self.words.push(word);
                self.used = bits % 64;
            }
        }
    }

    fn finish(self) -> Vec<u64> {
        self.words
    }
}

/// The child values of a fixed-size list: every valid list must hold
/// `size` elements, and a null list, which has none in the file, gets
/// `size` null slots.
fn fixed_size_values(
    values: ArrayRef,
    offsets: &OffsetBuffer<i32>,
    nulls: Option<&NullBuffer>,
    size: i32,
) -> Result<ArrayRef> {
    let n = usize::try_from(size).map_err(|_| general("negative list size"))?;
    let mut needs_padding = false;
    for (k, w) in offsets.windows(2).enumerate() {
        let len = (w[1] - w[0]) as usize;
        let valid = nulls.is_none_or(|b| b.is_valid(k));
        if valid && len != n {
            return Err(general(format!(
                "a list of {len} elements in a FixedSizeList({size})"
            )));
        }
        needs_padding |= !valid && len != n;
    }
    if !needs_padding {
        return Ok(values);
    }
    let mut indices: Vec<Option<u32>> = Vec::with_capacity(offsets.len().saturating_sub(1) * n);
    for (k, w) in offsets.windows(2).enumerate() {
        if nulls.is_none_or(|b| b.is_valid(k)) || (w[1] - w[0]) as usize == n {
            indices.extend((w[0]..w[1]).map(|i| Some(i as u32)));
        } else {
            indices.extend(std::iter::repeat_n(None, n));
        }
    }
    Ok(arrow_select::take::take(
        values.as_ref(),
        &UInt32Array::from(indices),
        None,
    )?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::sync::Arc;

    use arrow_array::{Array, Int32Array};

    use super::{BitmapWords, LeafBatch, ListLevels, build_list_offsets};

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// A top-level list's offsets and validity from whole chunks of 64
    /// levels as bit masks are those of the level-by-level loop: random
    /// levels of a nullable list of nullable lists of a leaf (so levels
    /// deeper than the list's elements too), of lengths around the chunk
    /// size, with and without an element before the first list.
    #[test]
    fn top_level_list_offsets_by_mask_match_level_by_level() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        // Outer list: def 1 (0 = null list), rep 0; its element list def
        // 2..; the leaf's maxima def 4, rep 2.
        let outer = ListLevels {
            def_level: 1,
            rep_level: 0,
            nullable: true,
        };
        for round in 0..300 {
            let n = [1, 63, 64, 65, 127, 128, 200, 640][round % 8];
            let mut def = Vec::with_capacity(n);
            let mut rep = Vec::with_capacity(n);
            for i in 0..n {
                let r = xorshift(&mut seed);
                // Mostly valid streams: a record starts at rep 0.
                let level_rep = if i == 0 && round % 5 != 0 {
                    0
                } else {
                    (r % 3) as i16
                };
                rep.push(level_rep);
                def.push(((r >> 8) % 5) as i16);
            }
            let leaf = LeafBatch {
                def,
                rep,
                array: Arc::new(Int32Array::from(Vec::<i32>::new())),
            };
            let by_mask = build_list_offsets::<i32>(&leaf, outer, 0, 0, true);
            let by_level = build_list_offsets::<i32>(&leaf, outer, 0, 0, false);
            match (by_mask, by_level) {
                (Ok((mo, mn)), Ok((lo, ln))) => {
                    assert_eq!(mo, lo, "round {round}");
                    assert_eq!(mn, ln, "round {round}");
                }
                (Err(_), Err(_)) => {}
                (m, l) => panic!("round {round}: {:?} against {:?}", m.is_ok(), l.is_ok()),
            }
        }
        // The orphan case itself, in a whole chunk: an element (rep 1)
        // before any list starts.
        let mut def = vec![4i16; 64];
        let mut rep = vec![0i16; 64];
        rep[0] = 1;
        def[1] = 0;
        let leaf = LeafBatch {
            def,
            rep,
            array: Arc::new(Int32Array::from(Vec::<i32>::new())),
        };
        assert!(build_list_offsets::<i32>(&leaf, outer, 0, 0, true).is_err());
        assert!(build_list_offsets::<i32>(&leaf, outer, 0, 0, false).is_err());
        assert_eq!(leaf.array.len(), 0);
    }

    /// Runs of every length 0..=64 at every fill of the current word give
    /// the bits appended, in order, and nothing past them.
    #[test]
    fn bitmap_words_appends_runs() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut bitmap = BitmapWords::with_capacity(0);
        let mut want = Vec::new();
        for round in 0..400u32 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let bits = round % 65;
            let word = if bits == 64 {
                seed
            } else {
                seed & ((1u64 << bits) - 1)
            };
            bitmap.append(word, bits);
            want.extend((0..bits).map(|i| word >> i & 1 == 1));
        }
        let words = bitmap.finish();
        assert_eq!(words.len(), want.len().div_ceil(64));
        for (i, &bit) in want.iter().enumerate() {
            assert_eq!(words[i / 64] >> (i % 64) & 1 == 1, bit, "bit {i}");
        }
        if want.len() % 64 != 0 {
            let last = words[words.len() - 1];
            assert_eq!(last >> (want.len() % 64), 0);
        }
    }
}
