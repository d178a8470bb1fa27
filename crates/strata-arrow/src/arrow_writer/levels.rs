//! Definition and repetition levels of Arrow arrays, for nesting at any
//! depth.
//!
//! [`LevelNode`] mirrors a field's nesting with the levels of each node;
//! [`LevelNode::visit`] walks a range of an array and appends, to every
//! leaf below, its levels and the ranges of the leaf array that hold
//! present values. Ranges are visited whole where they can be: a flat
//! column is one call that appends one range, and an array without nulls
//! never has its validity bitmap read.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;

use crate::error::{Result, general};
use crate::schema::{FieldKind, ParquetField};

/// Levels and present values of one leaf column for one batch.
#[derive(Debug, Default)]
pub(crate) struct LeafLevels {
    /// Definition levels (left empty when the leaf's maximum is 0).
    pub def: Vec<i16>,
    /// Repetition levels (left empty when the leaf's maximum is 0).
    pub rep: Vec<i16>,
    /// Ranges of `array` holding the present (non-null) values, in order.
    pub ranges: Vec<Range<usize>>,
    /// The leaf's array (the innermost child array).
    pub array: Option<ArrayRef>,
}

impl LeafLevels {
    pub(crate) fn clear(&mut self) {
        self.def.clear();
        self.rep.clear();
        self.ranges.clear();
        self.array = None;
    }

    fn push_range(&mut self, r: Range<usize>) {
        if r.is_empty() {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => self.ranges.push(r),
        }
    }

    /// Bytes of heap memory held.
    pub(crate) fn heap_size(&self) -> usize {
        (self.def.capacity() + self.rep.capacity()) * 2
            + self.ranges.capacity() * std::mem::size_of::<Range<usize>>()
    }

    /// Number of present values.
    pub(crate) fn num_values(&self) -> usize {
        self.ranges.iter().map(|r| r.len()).sum()
    }
}

/// A field's nesting with its levels.
#[derive(Debug)]
pub(crate) struct LevelNode {
    def_level: i16,
    rep_level: i16,
    nullable: bool,
    /// Leaves below this node: `leaf_start..leaf_end` (indices into the
    /// column's leaves).
    leaf_start: usize,
    leaf_end: usize,
    kind: NodeKind,
}

#[derive(Debug)]
enum NodeKind {
    Leaf { max_def: i16, max_rep: i16 },
    Struct(Vec<LevelNode>),
    List(Box<LevelNode>),
}

impl LevelNode {
    /// The level tree of `field`, numbering its leaves from `*next_leaf`.
    pub(crate) fn new(field: &ParquetField, next_leaf: &mut usize) -> Self {
        let leaf_start = *next_leaf;
        let kind = match &field.kind {
            FieldKind::Leaf { .. } => {
                *next_leaf += 1;
                NodeKind::Leaf {
                    max_def: field.def_level,
                    max_rep: field.rep_level,
                }
            }
            FieldKind::Struct { children } => NodeKind::Struct(
                children
                    .iter()
                    .map(|c| LevelNode::new(c, next_leaf))
                    .collect(),
            ),
            FieldKind::List { element } => {
                NodeKind::List(Box::new(LevelNode::new(element, next_leaf)))
            }
        };
        Self {
            def_level: field.def_level,
            rep_level: field.rep_level,
            nullable: field.nullable,
            leaf_start,
            leaf_end: *next_leaf,
            kind,
        }
    }

    /// Append a slot that ends at this node (null or an empty list) with
    /// definition level `def` to every leaf below.
    fn push_empty(&self, leaves: &mut [LeafLevels], def: i16, rep: i16, max: &[(i16, i16)]) {
        for i in self.leaf_start..self.leaf_end {
            let (max_def, max_rep) = max[i];
            let leaf = &mut leaves[i];
            if max_def > 0 {
                leaf.def.push(def);
            }
            if max_rep > 0 {
                leaf.rep.push(rep);
            }
        }
    }

    /// Maximum (definition, repetition) level of every leaf below, indexed
    /// by leaf.
    pub(crate) fn leaf_maxima(&self, out: &mut Vec<(i16, i16)>) {
        match &self.kind {
            NodeKind::Leaf { max_def, max_rep } => out.push((*max_def, *max_rep)),
            NodeKind::Struct(children) => children.iter().for_each(|c| c.leaf_maxima(out)),
            NodeKind::List(child) => child.leaf_maxima(out),
        }
    }

    /// The nulls of `array` this node must honour (none unless nullable),
    /// taken once per array and handed to [`visit`](Self::visit).
    pub(crate) fn nulls_of(&self, array: &ArrayRef) -> Option<NullBuffer> {
        if self.nullable {
            array.logical_nulls()
        } else {
            None
        }
    }

    /// Append the levels of slots `range` of `array` (whose nulls, from
    /// [`nulls_of`](Self::nulls_of), are `nulls`) to the leaves below; the
    /// first slot repeats at `first_rep`, the others at `rest_rep`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn visit(
        &self,
        array: &ArrayRef,
        nulls: Option<&NullBuffer>,
        range: Range<usize>,
        first_rep: i16,
        rest_rep: i16,
        leaves: &mut [LeafLevels],
        max: &[(i16, i16)],
    ) -> Result<()> {
        if range.is_empty() {
            return Ok(());
        }
        let nulls = nulls.filter(|n| has_null(n, &range));
        match &self.kind {
            NodeKind::Leaf { max_def, max_rep } => {
                let leaf = &mut leaves[self.leaf_start];
                if leaf.array.is_none() {
                    leaf.array = Some(array.clone());
                }
                let n = range.len();
                match &nulls {
                    None => {
                        if *max_def > 0 {
                            leaf.def.extend(std::iter::repeat_n(self.def_level, n));
                        }
                        if *max_rep > 0 {
                            leaf.rep.push(first_rep);
                            leaf.rep.extend(std::iter::repeat_n(rest_rep, n - 1));
                        }
                        leaf.push_range(range);
                    }
                    Some(nulls) => {
                        let defs = [self.def_level - 1, self.def_level - 1, self.def_level];
                        push_masked(leaf, None, Some(nulls), range, defs);
                        if *max_rep > 0 {
                            leaf.rep.push(first_rep);
                            leaf.rep.extend(std::iter::repeat_n(rest_rep, n - 1));
                        }
                    }
                }
                Ok(())
            }
            NodeKind::Struct(children) => {
                let s = array.as_struct_opt().ok_or_else(|| {
                    general(format!(
                        "expected a struct array, got {}",
                        array.data_type()
                    ))
                })?;
                for (child, column) in children.iter().zip(s.columns()) {
                    let child_nulls = child.nulls_of(column);
                    match (&nulls, &child.kind) {
                        (None, _) => child.visit(
                            column,
                            child_nulls.as_ref(),
                            range.clone(),
                            first_rep,
                            rest_rep,
                            leaves,
                            max,
                        )?,
                        // A leaf below a struct with nulls: its levels and
                        // value ranges from both bitmaps in one pass.
                        (Some(nulls), NodeKind::Leaf { max_def, max_rep }) => {
                            let leaf = &mut leaves[child.leaf_start];
                            if leaf.array.is_none() {
                                leaf.array = Some(column.clone());
                            }
                            let child_nulls = child_nulls.as_ref().filter(|n| has_null(n, &range));
                            let defs = [self.def_level - 1, child.def_level - 1, child.def_level];
                            let n = range.len();
                            if *max_def > 0 {
                                push_masked(leaf, Some(nulls), child_nulls, range.clone(), defs);
                            } else {
                                return Err(general("a struct with nulls above a required leaf"));
                            }
                            if *max_rep > 0 {
                                leaf.rep.push(first_rep);
                                leaf.rep.extend(std::iter::repeat_n(rest_rep, n - 1));
                            }
                        }
                        // A nested child: visited per run of valid struct
                        // slots, with the null slots ending at this struct.
                        (Some(nulls), _) => {
                            let mut i = range.start;
                            while i < range.end {
                                let rep = if i == range.start {
                                    first_rep
                                } else {
                                    rest_rep
                                };
                                if nulls.is_null(i) {
                                    child.push_empty(leaves, self.def_level - 1, rep, max);
                                    i += 1;
                                    continue;
                                }
                                let mut j = i + 1;
                                while j < range.end && nulls.is_valid(j) {
                                    j += 1;
                                }
                                child.visit(
                                    column,
                                    child_nulls.as_ref(),
                                    i..j,
                                    rep,
                                    rest_rep,
                                    leaves,
                                    max,
                                )?;
                                i = j;
                            }
                        }
                    }
                }
                Ok(())
            }
            NodeKind::List(child) => {
                let elem_rep = self.rep_level + 1;
                let (values, offsets): (ArrayRef, ListOffsets<'_>) = match array.data_type() {
                    DataType::List(_) => {
                        let l = array.as_list::<i32>();
                        (l.values().clone(), ListOffsets::I32(l.value_offsets()))
                    }
                    DataType::LargeList(_) => {
                        let l = array.as_list::<i64>();
                        (l.values().clone(), ListOffsets::I64(l.value_offsets()))
                    }
                    DataType::Map(_, _) => {
                        let m = array.as_map();
                        let entries: ArrayRef = std::sync::Arc::new(m.entries().clone());
                        (entries, ListOffsets::I32(m.value_offsets()))
                    }
                    DataType::FixedSizeList(_, size) => {
                        let l = array.as_fixed_size_list();
                        // The values of a sliced fixed-size list are sliced
                        // with it: slot i is values i*size..(i+1)*size.
                        let size = usize::try_from(*size).unwrap_or(0);
                        (l.values().clone(), ListOffsets::Fixed(size))
                    }
                    other => {
                        return Err(general(format!("expected a list array, got {other}")));
                    }
                };
                let child_nulls = child.nulls_of(&values);
                if let NodeKind::Leaf { max_def, max_rep } = &child.kind {
                    let leaf = &mut leaves[child.leaf_start];
                    let maxima = (*max_def, *max_rep);
                    let slots = ListSlots {
                        nulls,
                        offsets,
                        range,
                        first_rep,
                        rest_rep,
                    };
                    return self.visit_leaf_list(
                        child,
                        maxima,
                        &values,
                        child_nulls.as_ref(),
                        slots,
                        leaf,
                    );
                }
                for i in range.clone() {
                    let rep = if i == range.start {
                        first_rep
                    } else {
                        rest_rep
                    };
                    if nulls.is_some_and(|n| n.is_null(i)) {
                        self.push_empty(leaves, self.def_level - 1, rep, max);
                        continue;
                    }
                    let r = offsets.range(i);
                    if r.is_empty() {
                        self.push_empty(leaves, self.def_level, rep, max);
                    } else {
                        if r.end > values.len() {
                            return Err(general("list offsets past the end of the values"));
                        }
                        child.visit(
                            &values,
                            child_nulls.as_ref(),
                            r,
                            rep,
                            elem_rep,
                            leaves,
                            max,
                        )?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Where the slots of a list-like array find their elements. A match per
/// slot (always the same arm, so well predicted), not an indirect call.
#[derive(Clone, Copy)]
enum ListOffsets<'a> {
    /// List and Map: `offsets[i]..offsets[i + 1]`.
    I32(&'a [i32]),
    /// LargeList.
    I64(&'a [i64]),
    /// FixedSizeList of this size: slot `i` is `i * size..(i + 1) * size`.
    Fixed(usize),
}

impl ListOffsets<'_> {
    /// The element range of slot `i` (a slot of the array, so `i + 1` is
    /// within its offsets).
    #[inline]
    fn range(self, i: usize) -> Range<usize> {
        match self {
            Self::I32(o) => o[i] as usize..o[i + 1] as usize,
            Self::I64(o) => o[i] as usize..o[i + 1] as usize,
            Self::Fixed(size) => i * size..(i + 1) * size,
        }
    }
}

/// The list slots a [`LevelNode::visit`] of a list covers: their nulls,
/// element ranges and repetition levels.
struct ListSlots<'a> {
    nulls: Option<&'a NullBuffer>,
    offsets: ListOffsets<'a>,
    range: Range<usize>,
    first_rep: i16,
    rest_rep: i16,
}

impl LevelNode {
    /// [`visit`](Self::visit) of a list whose elements are a leaf (the
    /// common `List<primitive>` and `List<Utf8>`): the same levels and value
    /// ranges, without a visit of the leaf per list. Consecutive lists with
    /// elements are one range of the values, so a run of them takes one
    /// fill of definition levels (or one pass over the element bitmap) and
    /// one fill of repetition levels with each list's first level set after;
    /// only null and empty lists are written one at a time.
    fn visit_leaf_list(
        &self,
        child: &LevelNode,
        (max_def, max_rep): (i16, i16),
        values: &ArrayRef,
        child_nulls: Option<&NullBuffer>,
        slots: ListSlots<'_>,
        leaf: &mut LeafLevels,
    ) -> Result<()> {
        let elem_rep = self.rep_level + 1;
        let (has_def, has_rep) = (max_def > 0, max_rep > 0);
        let present = child.def_level;
        let value_count = values.len();
        let list_rep = |i: usize| {
            if i == slots.range.start {
                slots.first_rep
            } else {
                slots.rest_rep
            }
        };
        let is_null = |i: usize| slots.nulls.is_some_and(|n| n.is_null(i));
        let end = slots.range.end;
        let mut i = slots.range.start;
        while i < end {
            let r = slots.offsets.range(i);
            let null = is_null(i);
            if null || r.is_empty() {
                // A null or empty list: one level, no value.
                if has_def {
                    leaf.def.push(self.def_level - i16::from(null));
                }
                if has_rep {
                    leaf.rep.push(list_rep(i));
                }
                i += 1;
                continue;
            }
            // A run of lists with elements, each starting where the one
            // before ended: their elements are one range of the values,
            // whose levels are written in bulk.
            let (run_start, first, mut last) = (i, r.start, r.end);
            i += 1;
            while i < end {
                let r = slots.offsets.range(i);
                if r.is_empty() || r.start != last || is_null(i) {
                    break;
                }
                last = r.end;
                i += 1;
            }
            if last > value_count {
                return Err(general("list offsets past the end of the values"));
            }
            if leaf.array.is_none() {
                leaf.array = Some(values.clone());
            }
            let n = last - first;
            if has_rep {
                // Every element repeats the list, but each list's first,
                // which carries the list's own level.
                let base = leaf.rep.len();
                leaf.rep.resize(base + n, elem_rep);
                for k in run_start..i {
                    let at = base + (slots.offsets.range(k).start - first);
                    if let Some(level) = leaf.rep.get_mut(at) {
                        *level = list_rep(k);
                    }
                }
            }
            match child_nulls {
                None => {
                    if has_def {
                        leaf.def.resize(leaf.def.len() + n, present);
                    }
                    leaf.push_range(first..last);
                }
                // A long run a bitmap word at a time.
                Some(nulls) if n >= 64 => {
                    push_masked(
                        leaf,
                        None,
                        Some(nulls),
                        first..last,
                        [0, present - 1, present],
                    );
                }
                Some(nulls) => {
                    let bits = nulls.inner();
                    let mut all_present = true;
                    leaf.def.extend((first..last).map(|j| {
                        let valid = bits.value(j);
                        all_present &= valid;
                        present - i16::from(!valid)
                    }));
                    if all_present {
                        leaf.push_range(first..last);
                    } else {
                        // The run's values, split at each null element.
                        let mut from = first;
                        for j in first..last {
                            if !bits.value(j) {
                                leaf.push_range(from..j);
                                from = j + 1;
                            }
                        }
                        leaf.push_range(from..last);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Append to `leaf` the definition levels of slots `range` and the ranges
/// of those present, a 64-slot word at a time. A slot is null at the outer
/// level when its bit in `outer` is clear (definition level `defs[0]`),
/// else null at the inner level when its bit in `inner` is clear
/// (`defs[1]`), else present (`defs[2]`); a missing bitmap is all valid.
fn push_masked(
    leaf: &mut LeafLevels,
    outer: Option<&NullBuffer>,
    inner: Option<&NullBuffer>,
    range: Range<usize>,
    defs: [i16; 3],
) {
    let outer = outer.map(|n| n.inner().slice(range.start, range.len()));
    let inner = inner.map(|n| n.inner().slice(range.start, range.len()));
    // The words of a bitmap (padded: they cover every slot), all ones for
    // a missing one.
    fn next_word(words: &mut Option<impl Iterator<Item = u64>>) -> u64 {
        words.as_mut().map_or(u64::MAX, |w| w.next().unwrap_or(0))
    }
    let (outer_chunks, inner_chunks) = (
        outer.as_ref().map(|b| b.bit_chunks()),
        inner.as_ref().map(|b| b.bit_chunks()),
    );
    let mut outer_words = outer_chunks.as_ref().map(|c| c.iter_padded());
    let mut inner_words = inner_chunks.as_ref().map(|c| c.iter_padded());
    let (mut base, end) = (range.start, range.end);
    while base < end {
        let (o, i) = (next_word(&mut outer_words), next_word(&mut inner_words));
        let n = (end - base).min(64);
        let mask = u64::MAX >> (64 - n);
        let present = o & i & mask;
        if present == mask {
            leaf.def.extend(std::iter::repeat_n(defs[2], n));
            leaf.push_range(base..base + n);
        } else {
            leaf.def.extend((0..n).map(|k| {
                let (ob, ib) = ((o >> k) & 1, (i >> k) & 1);
                // 0: outer null, 1: inner null, 2: present.
                defs[(ob + (ob & ib)) as usize]
            }));
            push_runs(leaf, present, base);
        }
        base += n;
    }
}

/// Append the runs of set bits of `word` (bit `k` is slot `base + k`) as
/// ranges to `leaf`.
fn push_runs(leaf: &mut LeafLevels, mut word: u64, base: usize) {
    let mut pos = 0usize;
    while word != 0 {
        let zeros = word.trailing_zeros() as usize;
        word >>= zeros;
        pos += zeros;
        let ones = (!word).trailing_zeros() as usize;
        leaf.push_range(base + pos..base + pos + ones);
        pos += ones;
        word = word.checked_shr(ones as u32).unwrap_or(0);
    }
}

fn has_null(nulls: &NullBuffer, range: &Range<usize>) -> bool {
    if nulls.null_count() == 0 {
        return false;
    }
    if range.start == 0 && range.end == nulls.len() {
        return true;
    }
    if range.len() <= 64 {
        // Short ranges (list elements): a bit test each beats building a
        // bit-chunk iterator.
        return range.clone().any(|i| nulls.is_null(i));
    }
    nulls
        .inner()
        .slice(range.start, range.len())
        .count_set_bits()
        < range.len()
}
