//! [`ColumnValue`]: what the column writer needs to know about each
//! physical type (its encoders, dictionary, statistics and enum wrapper).

use strata_encoding::chunk::ChunkValue;
use strata_encoding::{
    ByteArray, ByteArrayBatch, ByteStreamSplitEncoder, ByteStreamSplitFixedLenEncoder,
    DeltaBinaryPackedEncoder, DeltaByteArrayEncoder, DeltaByteArrayFixedLenEncoder,
    DeltaLengthByteArrayEncoder, DictEncoder, DictValue, Encoder, Encoding, FixedLenBatch,
    FixedLenByteArray, Int96, PlainBooleanEncoder, PlainByteArrayEncoder, PlainEncoder,
    PlainFixedLenByteArrayEncoder, RleBooleanEncoder, ValueBatch,
};
use strata_sink::ByteSink;

use super::column::{ColumnChunkWriter, ColumnWriter};
use crate::error::{FileError, Result};
use crate::properties::WriterVersion;
use crate::statistics::{StatisticsAccumulator, StatsValue};

/// A boxed value encoder.
pub type BoxEncoder<T> = Box<dyn Encoder<T> + Send>;

/// A dictionary encoder seen through a trait object: the data-page side is
/// an [`Encoder`], plus what the column writer needs for the dictionary
/// page and the fallback decision.
pub trait DictSink<T: strata_encoding::ValueType>: Encoder<T> + Send {
    /// PLAIN size of the dictionary page in bytes.
    fn dict_size_bytes(&self) -> usize;
    /// Number of distinct entries.
    fn num_entries(&self) -> usize;
    /// Append the dictionary page body (entries, PLAIN).
    fn write_dict_page(&self, page: &mut ByteSink) -> Result<()>;
    /// Add entry `k` of `entries` if new; its index (see
    /// [`DictEncoder::intern_entry`]).
    fn intern_entry(&mut self, entries: T::Batch<'_>, k: usize) -> Result<u32>;
    /// Buffer indices of existing entries (see [`DictEncoder::put_indices`]).
    fn put_indices(&mut self, indices: &[u32]) -> Result<()>;
    /// The buffered indices (see [`DictEncoder::indices`]).
    fn indices(&self) -> &[u32];
    /// Entry `index` as a batch of one value (see [`DictEncoder::entry`]).
    fn entry(&self, index: usize) -> Option<T::Batch<'_>>;
}

impl<T: DictValue> DictSink<T> for DictEncoder<T>
where
    DictEncoder<T>: Encoder<T> + Send,
{
    fn dict_size_bytes(&self) -> usize {
        DictEncoder::dict_size_bytes(self)
    }
    fn num_entries(&self) -> usize {
        DictEncoder::num_entries(self)
    }
    fn write_dict_page(&self, page: &mut ByteSink) -> Result<()> {
        Ok(DictEncoder::write_dict_page(self, page)?)
    }
    fn intern_entry(&mut self, entries: T::Batch<'_>, k: usize) -> Result<u32> {
        Ok(DictEncoder::intern_entry(self, entries, k)?)
    }
    fn put_indices(&mut self, indices: &[u32]) -> Result<()> {
        Ok(DictEncoder::put_indices(self, indices)?)
    }
    fn indices(&self) -> &[u32] {
        DictEncoder::indices(self)
    }
    fn entry(&self, index: usize) -> Option<T::Batch<'_>> {
        DictEncoder::entry(self, index)
    }
}

/// A boxed dictionary encoder.
pub type BoxDict<T> = Box<dyn DictSink<T>>;

/// A physical type the column writer accepts: `bool`, `i32`, `i64`,
/// [`Int96`], `f32`, `f64`, [`ByteArray`] and [`FixedLenByteArray`].
pub trait ColumnValue: StatsValue + ChunkValue + Sized {
    /// Whether page statistics of a dictionary-encoded page are taken over
    /// the dictionary entries the page uses, each once, rather than over
    /// every value: for byte arrays, where comparing a value costs more
    /// than looking up whether its entry was seen on the page.
    const STATS_BY_ENTRY: bool = false;

    /// The value type arrow-rs's column writer takes for this physical
    /// type (its `DataType::T`): the type itself for fixed-width values,
    /// [`data_type::ByteArray`](crate::data_type::ByteArray) and
    /// [`data_type::FixedLenByteArray`](crate::data_type::FixedLenByteArray)
    /// for byte arrays.
    type Value;

    /// Value `i` of a decoded batch (what a chunk decoder writes), as
    /// arrow-rs's typed column readers hand it out; `None` past the end.
    fn value_at(values: &<Self as ChunkValue>::Values, i: usize) -> Option<Self::Value>;

    /// Run `f` on `values` seen as a batch of this type (`width`: the
    /// FIXED_LEN_BYTE_ARRAY width). Fixed-width values are their own batch;
    /// byte arrays are gathered into one, sized by `values`.
    fn with_values<R>(
        values: &[Self::Value],
        width: usize,
        f: impl FnOnce(Self::Batch<'_>) -> Result<R>,
    ) -> Result<R>;

    /// The writer for this type inside the untyped [`ColumnWriter`].
    fn typed(writer: &mut ColumnWriter) -> Option<&mut ColumnChunkWriter<Self>>;

    /// The writer for this type inside `writer`, which is first replaced
    /// by `replacement()` when it holds another type.
    fn typed_or_replace(
        writer: &mut ColumnWriter,
        replacement: impl Fn() -> ColumnChunkWriter<Self>,
    ) -> &mut ColumnChunkWriter<Self>;

    /// Wrap a typed writer into the untyped [`ColumnWriter`].
    fn wrap(writer: ColumnChunkWriter<Self>) -> ColumnWriter;

    /// A non-dictionary encoder; `width` is the FIXED_LEN_BYTE_ARRAY width.
    /// Fails for an encoding the type cannot use.
    fn encoder(encoding: Encoding, width: usize) -> Result<BoxEncoder<Self>>;

    /// A dictionary encoder, or `None` where the type has no dictionary
    /// encoding (BOOLEAN).
    fn dict_encoder(width: usize) -> Result<Option<BoxDict<Self>>>;

    /// The encoding used when none is set or the dictionary falls back (the
    /// choice arrow-rs makes): `PARQUET_1_0` PLAIN; `PARQUET_2_0` RLE for
    /// booleans, DELTA_BINARY_PACKED for integers, DELTA_BYTE_ARRAY for
    /// byte arrays, PLAIN otherwise.
    fn fallback_encoding(version: WriterVersion) -> Encoding {
        let _ = version;
        Encoding::Plain
    }

    /// Bytes of BYTE_ARRAY data without length prefixes (`None` for other
    /// types).
    fn unencoded_bytes(_values: &Self::Batch<'_>) -> Option<u64> {
        None
    }

    /// The bytes each value is hashed as for Bloom filters (its PLAIN
    /// encoding without length prefix), handed to `f` one by one.
    fn for_each_plain(values: &Self::Batch<'_>, f: &mut dyn FnMut(&[u8]));

    /// The width the batch's values have (FIXED_LEN_BYTE_ARRAY only).
    fn batch_width(_values: &Self::Batch<'_>) -> Option<usize> {
        None
    }

    /// Fold dictionary entries `indices` of `dict` into `acc` (see
    /// [`STATS_BY_ENTRY`](Self::STATS_BY_ENTRY)): one at a time unless the
    /// type gathers them into batches.
    fn update_with_entries(
        acc: &mut StatisticsAccumulator<Self>,
        dict: &dyn DictSink<Self>,
        indices: &[u32],
    ) -> Result<()> {
        for &i in indices {
            acc.update(dict.entry(i as usize).ok_or_else(entry_past_end)?);
        }
        Ok(())
    }

    /// Number of values in a batch.
    fn batch_len(values: &Self::Batch<'_>) -> usize;

    /// Values `start..end` of a batch.
    fn batch_slice<'a>(
        values: &Self::Batch<'a>,
        start: usize,
        end: usize,
    ) -> Option<Self::Batch<'a>>;
}

fn entry_past_end() -> FileError {
    FileError::InvalidArgument("dictionary index past its entries".into())
}

fn unsupported(encoding: Encoding, ty: &str) -> FileError {
    FileError::InvalidArgument(format!("encoding {encoding} cannot encode {ty} values"))
}

macro_rules! common_batch {
    () => {
        fn batch_len(values: &Self::Batch<'_>) -> usize {
            ValueBatch::len(values)
        }
        fn batch_slice<'a>(
            values: &Self::Batch<'a>,
            start: usize,
            end: usize,
        ) -> Option<Self::Batch<'a>> {
            ValueBatch::slice(values, start, end)
        }
    };
}

macro_rules! wrap {
    ($variant:ident) => {
        fn typed(writer: &mut ColumnWriter) -> Option<&mut ColumnChunkWriter<Self>> {
            match writer {
                ColumnWriter::$variant(w) => Some(w),
                _ => None,
            }
        }
        fn wrap(writer: ColumnChunkWriter<Self>) -> ColumnWriter {
            ColumnWriter::$variant(writer)
        }
        fn typed_or_replace(
            writer: &mut ColumnWriter,
            replacement: impl Fn() -> ColumnChunkWriter<Self>,
        ) -> &mut ColumnChunkWriter<Self> {
            // At most two rounds: the second finds the replacement.
            loop {
                match *writer {
                    ColumnWriter::$variant(ref mut w) => return w,
                    ref mut other => *other = ColumnWriter::$variant(replacement()),
                }
            }
        }
    };
}

/// `Value` and `with_values` of a fixed-width type: its values are their
/// own batch.
macro_rules! own_values {
    () => {
        type Value = Self;
        fn value_at(values: &Vec<Self>, i: usize) -> Option<Self> {
            values.get(i).copied()
        }
        fn with_values<R>(
            values: &[Self],
            _width: usize,
            f: impl FnOnce(Self::Batch<'_>) -> Result<R>,
        ) -> Result<R> {
            f(values)
        }
    };
}

impl ColumnValue for bool {
    wrap!(BoolColumnWriter);
    own_values!();
    common_batch!();

    fn encoder(encoding: Encoding, _width: usize) -> Result<BoxEncoder<Self>> {
        Ok(match encoding {
            Encoding::Plain => Box::new(PlainBooleanEncoder::new()),
            Encoding::Rle => Box::new(RleBooleanEncoder::new()),
            other => return Err(unsupported(other, "BOOLEAN")),
        })
    }

    fn dict_encoder(_width: usize) -> Result<Option<BoxDict<Self>>> {
        Ok(None)
    }

    fn fallback_encoding(version: WriterVersion) -> Encoding {
        match version {
            WriterVersion::PARQUET_1_0 => Encoding::Plain,
            WriterVersion::PARQUET_2_0 => Encoding::Rle,
        }
    }

    fn for_each_plain(values: &&[bool], f: &mut dyn FnMut(&[u8])) {
        for &v in *values {
            f(&[u8::from(v)]);
        }
    }
}

macro_rules! int_value {
    ($t:ty, $variant:ident, $phys:expr, $name:literal) => {
        impl ColumnValue for $t {
            wrap!($variant);
            own_values!();
            common_batch!();

            fn encoder(encoding: Encoding, _width: usize) -> Result<BoxEncoder<Self>> {
                Ok(match encoding {
                    Encoding::Plain => Box::new(PlainEncoder::<$t>::new()),
                    Encoding::DeltaBinaryPacked => Box::new(DeltaBinaryPackedEncoder::<$t>::new()),
                    Encoding::ByteStreamSplit => Box::new(ByteStreamSplitEncoder::<$t>::new()),
                    other => return Err(unsupported(other, $name)),
                })
            }

            fn dict_encoder(_width: usize) -> Result<Option<BoxDict<Self>>> {
                Ok(Some(Box::new(DictEncoder::<$t>::new())))
            }

            fn fallback_encoding(version: WriterVersion) -> Encoding {
                match version {
                    WriterVersion::PARQUET_1_0 => Encoding::Plain,
                    WriterVersion::PARQUET_2_0 => Encoding::DeltaBinaryPacked,
                }
            }

            fn for_each_plain(values: &&[$t], f: &mut dyn FnMut(&[u8])) {
                for v in *values {
                    f(&v.to_le_bytes());
                }
            }
        }
    };
}

int_value!(i32, Int32ColumnWriter, Type::Int32, "INT32");
int_value!(i64, Int64ColumnWriter, Type::Int64, "INT64");

macro_rules! float_value {
    ($t:ty, $variant:ident, $phys:expr, $name:literal) => {
        impl ColumnValue for $t {
            wrap!($variant);
            own_values!();
            common_batch!();

            fn encoder(encoding: Encoding, _width: usize) -> Result<BoxEncoder<Self>> {
                Ok(match encoding {
                    Encoding::Plain => Box::new(PlainEncoder::<$t>::new()),
                    Encoding::ByteStreamSplit => Box::new(ByteStreamSplitEncoder::<$t>::new()),
                    other => return Err(unsupported(other, $name)),
                })
            }

            fn dict_encoder(_width: usize) -> Result<Option<BoxDict<Self>>> {
                Ok(Some(Box::new(DictEncoder::<$t>::new())))
            }

            fn for_each_plain(values: &&[$t], f: &mut dyn FnMut(&[u8])) {
                for v in *values {
                    f(&v.to_le_bytes());
                }
            }
        }
    };
}

float_value!(f32, FloatColumnWriter, Type::Float, "FLOAT");
float_value!(f64, DoubleColumnWriter, Type::Double, "DOUBLE");

impl ColumnValue for Int96 {
    wrap!(Int96ColumnWriter);
    own_values!();
    common_batch!();

    fn encoder(encoding: Encoding, _width: usize) -> Result<BoxEncoder<Self>> {
        match encoding {
            Encoding::Plain => Ok(Box::new(PlainEncoder::<Int96>::new())),
            other => Err(unsupported(other, "INT96")),
        }
    }

    fn dict_encoder(_width: usize) -> Result<Option<BoxDict<Self>>> {
        Ok(Some(Box::new(DictEncoder::<Int96>::new())))
    }

    fn for_each_plain(values: &&[Int96], f: &mut dyn FnMut(&[u8])) {
        for v in *values {
            let mut b = [0u8; 12];
            for (chunk, w) in b.chunks_exact_mut(4).zip(v.0) {
                chunk.copy_from_slice(&w.to_le_bytes());
            }
            f(&b);
        }
    }
}

impl ColumnValue for ByteArray {
    const STATS_BY_ENTRY: bool = true;
    wrap!(ByteArrayColumnWriter);
    type Value = crate::data_type::ByteArray;

    fn value_at(values: &<Self as ChunkValue>::Values, i: usize) -> Option<Self::Value> {
        values.value(i).map(Self::Value::from)
    }

    fn with_values<R>(
        values: &[Self::Value],
        _width: usize,
        f: impl FnOnce(Self::Batch<'_>) -> Result<R>,
    ) -> Result<R> {
        let slices: Vec<&[u8]> = values.iter().map(|v| v.data()).collect();
        f(ByteArrayBatch::from_slices(&slices))
    }
    common_batch!();

    fn encoder(encoding: Encoding, _width: usize) -> Result<BoxEncoder<Self>> {
        Ok(match encoding {
            Encoding::Plain => Box::new(PlainByteArrayEncoder::new()),
            Encoding::DeltaLengthByteArray => Box::new(DeltaLengthByteArrayEncoder::new()),
            Encoding::DeltaByteArray => Box::new(DeltaByteArrayEncoder::new()),
            other => return Err(unsupported(other, "BYTE_ARRAY")),
        })
    }

    fn dict_encoder(_width: usize) -> Result<Option<BoxDict<Self>>> {
        Ok(Some(Box::new(DictEncoder::<ByteArray>::new())))
    }

    fn fallback_encoding(version: WriterVersion) -> Encoding {
        match version {
            WriterVersion::PARQUET_1_0 => Encoding::Plain,
            WriterVersion::PARQUET_2_0 => Encoding::DeltaByteArray,
        }
    }

    fn unencoded_bytes(values: &ByteArrayBatch<'_>) -> Option<u64> {
        Some(values.total_bytes() as u64)
    }

    fn for_each_plain(values: &ByteArrayBatch<'_>, f: &mut dyn FnMut(&[u8])) {
        for v in values.iter() {
            f(v);
        }
    }

    /// Entries gathered 64 at a time into one batch, so that the scan for
    /// the minimum and maximum compares them by their prefixes as it does
    /// a batch of values.
    fn update_with_entries(
        acc: &mut StatisticsAccumulator<Self>,
        dict: &dyn DictSink<Self>,
        indices: &[u32],
    ) -> Result<()> {
        let mut group: [&[u8]; 64] = [&[]; 64];
        for chunk in indices.chunks(64) {
            for (slot, &i) in group.iter_mut().zip(chunk) {
                *slot = dict
                    .entry(i as usize)
                    .and_then(|e| e.get(0))
                    .ok_or_else(entry_past_end)?;
            }
            acc.update(ByteArrayBatch::from_slices(&group[..chunk.len()]));
        }
        Ok(())
    }
}

impl ColumnValue for FixedLenByteArray {
    wrap!(FixedLenByteArrayColumnWriter);
    type Value = crate::data_type::FixedLenByteArray;

    fn value_at(values: &<Self as ChunkValue>::Values, i: usize) -> Option<Self::Value> {
        values.value(i).map(Self::Value::from)
    }

    fn with_values<R>(
        values: &[Self::Value],
        width: usize,
        f: impl FnOnce(Self::Batch<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut bytes = Vec::with_capacity(values.len().saturating_mul(width));
        for v in values {
            if v.len() != width {
                return Err(FileError::InvalidArgument(format!(
                    "a FIXED_LEN_BYTE_ARRAY value of {} bytes for a column {width} bytes wide",
                    v.len()
                )));
            }
            bytes.extend_from_slice(v.data());
        }
        f(FixedLenBatch::new(width, &bytes)?)
    }
    common_batch!();

    fn encoder(encoding: Encoding, width: usize) -> Result<BoxEncoder<Self>> {
        Ok(match encoding {
            Encoding::Plain => Box::new(PlainFixedLenByteArrayEncoder::new(width)?),
            Encoding::DeltaByteArray => Box::new(DeltaByteArrayFixedLenEncoder::new(width)?),
            Encoding::ByteStreamSplit => Box::new(ByteStreamSplitFixedLenEncoder::new(width)?),
            other => return Err(unsupported(other, "FIXED_LEN_BYTE_ARRAY")),
        })
    }

    fn dict_encoder(width: usize) -> Result<Option<BoxDict<Self>>> {
        Ok(Some(Box::new(DictEncoder::<FixedLenByteArray>::new(
            width,
        )?)))
    }

    fn fallback_encoding(version: WriterVersion) -> Encoding {
        match version {
            WriterVersion::PARQUET_1_0 => Encoding::Plain,
            WriterVersion::PARQUET_2_0 => Encoding::DeltaByteArray,
        }
    }

    fn for_each_plain(values: &FixedLenBatch<'_>, f: &mut dyn FnMut(&[u8])) {
        let w = values.width();
        for chunk in values.bytes().chunks_exact(w.max(1)) {
            f(chunk);
        }
    }

    fn batch_width(values: &FixedLenBatch<'_>) -> Option<usize> {
        Some(values.width())
    }
}
