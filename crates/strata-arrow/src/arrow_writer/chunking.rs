//! Content-defined page boundaries for the Arrow writer: each leaf
//! column's levels and Arrow values go through its
//! [`ContentDefinedChunker`], and the leaf is written chunk by chunk with
//! a page cut after each chunk but the last (which the next batch
//! continues). The bytes hashed are the Arrow values' own, as arrow-rs and
//! Arrow C++ hash them: fixed-width values at their Arrow width, byte
//! arrays without lengths, booleans as one byte, a dictionary array's keys.

use std::ops::Range;

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_buffer::BooleanBuffer;
use arrow_schema::DataType;
use strata_file::chunking::{ChunkValues, ContentDefinedChunker, RollingHash};

use super::levels::LeafLevels;

/// The Arrow index of each present value of a leaf, in order.
struct PresentIndices<'a> {
    ranges: std::slice::Iter<'a, Range<usize>>,
    current: Range<usize>,
}

impl<'a> PresentIndices<'a> {
    fn new(ranges: &'a [Range<usize>]) -> Self {
        Self {
            ranges: ranges.iter(),
            current: 0..0,
        }
    }

    #[inline]
    fn next_index(&mut self) -> Option<usize> {
        loop {
            if let Some(i) = self.current.next() {
                return Some(i);
            }
            self.current = self.ranges.next()?.clone();
        }
    }
}

/// Values of one width in one buffer (primitives, decimals, fixed-size
/// binary, dictionary keys).
struct FixedWidth<'a> {
    bytes: &'a [u8],
    width: usize,
    /// The array's offset, in values.
    offset: usize,
    present: PresentIndices<'a>,
}

impl ChunkValues for FixedWidth<'_> {
    #[inline]
    fn roll_next(&mut self, hash: &mut RollingHash) {
        if let Some(i) = self.present.next_index() {
            let start = (self.offset + i) * self.width;
            if let Some(value) = self.bytes.get(start..start + self.width) {
                hash.roll(value);
            }
        }
    }
}

struct Booleans<'a> {
    bits: &'a BooleanBuffer,
    present: PresentIndices<'a>,
}

impl ChunkValues for Booleans<'_> {
    #[inline]
    fn roll_next(&mut self, hash: &mut RollingHash) {
        if let Some(i) = self.present.next_index()
            && i < self.bits.len()
        {
            hash.roll(&[u8::from(self.bits.value(i))]);
        }
    }
}

/// Byte arrays by index: offsets or views, whatever the array holds.
struct ByteValues<'a, F: Fn(usize) -> Option<&'a [u8]>> {
    value: F,
    present: PresentIndices<'a>,
}

impl<'a, F: Fn(usize) -> Option<&'a [u8]>> ChunkValues for ByteValues<'a, F> {
    #[inline]
    fn roll_next(&mut self, hash: &mut RollingHash) {
        if let Some(bytes) = self.present.next_index().and_then(&self.value) {
            hash.roll(bytes);
        }
    }
}

/// No values to hash (the `Null` type, or a leaf without its array).
struct NoValues;

impl ChunkValues for NoValues {
    fn roll_next(&mut self, _: &mut RollingHash) {}
}

/// Append to `out` the slots of `leaf` before which a chunk ends (see
/// [`ContentDefinedChunker::boundaries`]). The chunker's loop is
/// monomorphised for each form of values.
pub(crate) fn leaf_boundaries(
    chunker: &mut ContentDefinedChunker,
    leaf: &LeafLevels,
    num_levels: usize,
    out: &mut Vec<usize>,
) {
    let def = (!leaf.def.is_empty()).then_some(leaf.def.as_slice());
    let rep = (!leaf.rep.is_empty()).then_some(leaf.rep.as_slice());
    let present = PresentIndices::new(&leaf.ranges);
    macro_rules! run {
        ($values:expr) => {
            chunker.boundaries(def, rep, num_levels, &mut $values, out)
        };
    }
    macro_rules! bytes_of {
        ($array:expr) => {{
            let a = $array;
            run!(ByteValues {
                value: |i: usize| (i < a.len()).then(|| a.value(i).as_ref()),
                present,
            })
        }};
    }
    let Some(array) = &leaf.array else {
        return run!(NoValues);
    };
    let fixed = match array.data_type() {
        DataType::Boolean => {
            let bits = array.as_boolean().values();
            return run!(Booleans { bits, present });
        }
        DataType::Utf8 => return bytes_of!(array.as_string::<i32>()),
        DataType::LargeUtf8 => return bytes_of!(array.as_string::<i64>()),
        DataType::Binary => return bytes_of!(array.as_binary::<i32>()),
        DataType::LargeBinary => return bytes_of!(array.as_binary::<i64>()),
        DataType::Utf8View => return bytes_of!(array.as_string_view()),
        DataType::BinaryView => return bytes_of!(array.as_binary_view()),
        DataType::Dictionary(..) => array.as_any_dictionary().keys(),
        _ => array.as_ref(),
    };
    // Values of a fixed width (primitives, fixed-size binary, keys).
    let width = match fixed.data_type() {
        DataType::FixedSizeBinary(w) => usize::try_from(*w).ok(),
        other => other.primitive_width(),
    };
    let data = fixed.to_data();
    match (width, data.buffers().first()) {
        (Some(width), Some(buffer)) => run!(FixedWidth {
            bytes: buffer.as_slice(),
            width,
            offset: data.offset(),
            present,
        }),
        _ => run!(NoValues),
    }
}

/// The part of `leaf` at slots `levels`, whose present values are the
/// `values`-th ones on, into `out` (levels copied, ranges cut to match).
/// Returns the number of present values in it.
pub(crate) fn slice_leaf(
    leaf: &LeafLevels,
    levels: Range<usize>,
    values: usize,
    max_def: i16,
    out: &mut LeafLevels,
) -> usize {
    out.clear();
    out.array = leaf.array.clone();
    let count = if leaf.def.is_empty() {
        levels.len()
    } else {
        let def = leaf.def.get(levels.clone()).unwrap_or(&[]);
        out.def.extend_from_slice(def);
        def.iter().filter(|&&d| d == max_def).count()
    };
    if !leaf.rep.is_empty() {
        out.rep
            .extend_from_slice(leaf.rep.get(levels).unwrap_or(&[]));
    }
    // The present values `values..values + count`, as ranges of the array.
    let (mut skip, mut take) = (values, count);
    for range in &leaf.ranges {
        if take == 0 {
            break;
        }
        if skip >= range.len() {
            skip -= range.len();
            continue;
        }
        let start = range.start + skip;
        let end = (start + take).min(range.end);
        out.ranges.push(start..end);
        take -= end - start;
        skip = 0;
    }
    // The part's own stretch of the array, so that work over the whole
    // array (a dictionary's `take`, say) is done per chunk, not per batch.
    if let (Some(array), Some(first), Some(last)) =
        (&leaf.array, out.ranges.first(), out.ranges.last())
    {
        let (low, high) = (first.start, last.end);
        if low <= high && high <= array.len() {
            out.array = Some(array.slice(low, high - low));
            for range in &mut out.ranges {
                *range = range.start - low..range.end - low;
            }
        }
    }
    count
}
