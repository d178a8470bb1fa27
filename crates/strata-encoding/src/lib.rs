//! # strata-encoding: Parquet value encodings
//!
//! Encoders turn batches of typed values into the values section of a
//! Parquet data page; decoders turn that section back into values. This
//! crate knows nothing of files, page headers, levels or compression: a file
//! layer (strata's own or any other) hands it page bytes and value counts.
//!
//! ## Types
//!
//! Each Parquet physical type is a [`ValueType`]: `bool`, `i32`, `i64`,
//! [`Int96`], `f32`, `f64`, [`ByteArray`] and [`FixedLenByteArray`]. The
//! value type fixes what an encoder takes ([`ValueType::Batch`]: a slice, a
//! [`ByteArrayBatch`] or a [`FixedLenBatch`]) and where a decoder writes
//! ([`ValueType::Out`]: a slice, a [`ByteArrayBuffer`] or a
//! [`FixedLenByteArrayBuffer`]). Byte arrays decode into Arrow's offsets +
//! values layout so an Arrow layer can adopt the vectors without a copy, and
//! encode fastest from that same layout.
//!
//! ## Encodings
//!
//! | Encoding | Types | Encoder / decoder |
//! |---|---|---|
//! | PLAIN | all | [`PlainEncoder`], [`PlainBooleanEncoder`], [`PlainByteArrayEncoder`], [`PlainFixedLenByteArrayEncoder`] and their decoders |
//! | RLE_DICTIONARY, PLAIN_DICTIONARY | all but BOOLEAN | [`DictEncoder`] / [`DictDecoder`] |
//! | RLE | BOOLEAN | [`RleBooleanEncoder`] / [`RleBooleanDecoder`] |
//! | RLE, BIT_PACKED (decode only) | levels | [`LevelEncoder`] / [`LevelDecoder`] |
//! | BYTE_STREAM_SPLIT | FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY | [`ByteStreamSplitEncoder`], [`ByteStreamSplitFixedLenEncoder`] and their decoders |
//! | DELTA_BINARY_PACKED | INT32, INT64 | [`DeltaBinaryPackedEncoder`] / [`DeltaBinaryPackedDecoder`] |
//! | DELTA_LENGTH_BYTE_ARRAY | BYTE_ARRAY | [`DeltaLengthByteArrayEncoder`] / [`DeltaLengthByteArrayDecoder`] |
//! | DELTA_BYTE_ARRAY | BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY | [`DeltaByteArrayEncoder`], [`DeltaByteArrayFixedLenEncoder`] and their decoders |
//!
//! Byte arrays can also be decoded as 16-byte views ([`byte_view`], the
//! layout of Arrow's `Utf8View`): [`plain_views`] turns a PLAIN values
//! section into views that point into the page instead of copying it.
//!
//! Dictionary encoding splits a column chunk in two: the encoder builds the
//! dictionary across all data pages ([`DictEncoder::write_dict_page`] writes
//! it once), and the decoder decodes it once per chunk
//! ([`DictDecoder::set_dict`]) into an `Arc` every batch can share (hand the
//! indices out with [`DictDecoder::decode_indices`] for an Arrow
//! `DictionaryArray`). Levels are not values: [`LevelEncoder`] and
//! [`LevelDecoder`] work on `i16` slices directly, and
//! [`def_levels_to_validity`] turns a leaf's definition levels into a
//! validity bitmap and null count in one pass.
//!
//! ## Data flow
//!
//! Writing: `put` / `put_spaced` buffer encoded values inside the encoder;
//! `flush_into` appends the finished bytes to a [`ByteSink`] page buffer and
//! resets the encoder for the next page, keeping its allocations:
//!
//! ```text
//! values ──put──▶ encoder (encoded bytes, block state) ──flush_into──▶ page ByteSink
//! ```
//!
//! Reading: `set_data(page, num_values)` validates the page up front, then
//! `decode` / `decode_spaced` / `skip` consume values in order:
//!
//! ```text
//! page &[u8] ──set_data──▶ decoder (cursor) ──decode──▶ &mut [T] / ByteArrayBuffer
//! ```
//!
//! A reader of whole column chunks goes through [`chunk::ChunkDecoder`],
//! the one seam between page bytes and values: built once per chunk, it
//! owns the dictionary, picks the decoder of each page's encoding and
//! reads or skips `n` values as values, dictionary indices or views,
//! densely or spread over null slots (see the [`chunk`] module's design
//! notes).
//!
//! ## Invariants
//!
//! - **No preallocation.** A new encoder or decoder holds no heap memory;
//!   an idle encoder reports `heap_size() == 0`. Buffers grow on demand.
//! - **Scratch is lazy and reused.** Any scratch (a block of deltas, the
//!   previous value of DELTA_BYTE_ARRAY) is allocated on first need and kept
//!   across pages; it is released with the encoder or decoder.
//! - **Dense when there are no nulls.** `put_spaced` encodes runs of present
//!   values through the batch path; `decode_spaced` with `null_count == 0`
//!   is the dense `decode` and never reads the bitmap.
//! - **Decoders validate.** `set_data` checks the page length against the
//!   value count wherever the encoding makes that knowable (PLAIN fixed width
//!   needs `num_values * width` bytes; delta headers must be well formed and
//!   announce exactly `num_values`), and every read is bounds-checked.
//! - **One dictionary per column chunk.** A dictionary page is decoded once
//!   and shared through an `Arc`; every index is checked against it.
//! - **Errors, never panics.** Malformed input yields an [`EncodingError`];
//!   decoders never allocate more than the page or the caller's request can
//!   justify.
//!
//! ## Example
//!
//! ```
//! use strata_encoding::{
//!     ByteArrayBatch, ByteArrayBuffer, Decoder, DeltaBinaryPackedDecoder,
//!     DeltaBinaryPackedEncoder, DeltaByteArrayDecoder, DeltaByteArrayEncoder, Encoder,
//! };
//! use strata_sink::ByteSink;
//!
//! // Integers with DELTA_BINARY_PACKED.
//! let mut enc = DeltaBinaryPackedEncoder::<i64>::new();
//! enc.put(&[10, 11, 12, 13, 20]).unwrap();
//! let mut page = ByteSink::new();
//! enc.flush_into(&mut page).unwrap();
//!
//! let mut dec = DeltaBinaryPackedDecoder::<i64>::new();
//! dec.set_data(page.as_slice(), 5).unwrap();
//! let mut out = [0i64; 5];
//! assert_eq!(dec.decode(&mut out, 5).unwrap(), 5);
//! assert_eq!(out, [10, 11, 12, 13, 20]);
//!
//! // Strings with DELTA_BYTE_ARRAY, from and to the Arrow layout; the second
//! // slot is null.
//! let offsets = [0i32, 4, 4, 10];
//! let mut enc = DeltaByteArrayEncoder::new();
//! enc.put_spaced(ByteArrayBatch::from_offsets(&offsets, b"axisbabble").unwrap(), &[0b101], 0)
//!     .unwrap();
//! let mut page = ByteSink::new();
//! enc.flush_into(&mut page).unwrap();
//!
//! let mut dec = DeltaByteArrayDecoder::<i32>::new();
//! dec.set_data(page.as_slice(), 2).unwrap();
//! let mut out = ByteArrayBuffer::new();
//! dec.decode_spaced(&mut out, 3, &[0b101], 0, 1).unwrap();
//! assert_eq!(out.offsets(), &[0, 4, 4, 10]);
//! assert_eq!(out.values(), b"axisbabble");
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bit_pack;
mod byte_stream_split;
pub mod chunk;
mod delta_binary_packed;
mod delta_byte_array;
mod delta_length_byte_array;
mod dictionary;
mod error;
mod levels;
mod plain;
mod rle_boolean;
mod traits;
mod types;
mod validity;
mod view;

pub use byte_stream_split::{
    ByteStreamSplitDecoder, ByteStreamSplitEncoder, ByteStreamSplitFixedLenDecoder,
    ByteStreamSplitFixedLenEncoder, ByteStreamSplitValue,
};
pub use delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder, DeltaInt};
pub use delta_byte_array::{
    DeltaByteArrayDecoder, DeltaByteArrayEncoder, DeltaByteArrayFixedLenDecoder,
    DeltaByteArrayFixedLenEncoder,
};
pub use delta_length_byte_array::{DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder};
pub use dictionary::{
    DictDecoder, DictEncoder, DictKey, DictValue, FirstOccurrences, decode_dictionary_indices,
    decode_dictionary_indices_from, indices_below,
};
pub use error::{EncodingError, Result};
pub use levels::{
    LevelDecoder, LevelEncoder, count_levels, def_levels_to_validity, levels_at_least_mask,
};
pub use plain::{
    PlainBooleanDecoder, PlainBooleanEncoder, PlainByteArrayDecoder, PlainByteArrayEncoder,
    PlainDecoder, PlainEncoder, PlainFixedLenByteArrayDecoder, PlainFixedLenByteArrayEncoder,
};
pub use rle_boolean::{RleBooleanDecoder, RleBooleanEncoder};
/// The format layer's encoding enum: the one `Encoding` of every strata
/// crate.
pub use strata_format::metadata::Encoding;
pub use strata_sink::ByteSink;
pub use traits::{Decoder, Encoder};
pub use types::{
    ByteArray, ByteArrayBatch, ByteArrayBuffer, DecodeTarget, FixedLenBatch, FixedLenByteArray,
    FixedLenByteArrayBuffer, FixedWidthValue, Int96, OffsetSize, ValueBatch, ValueType,
};
pub use view::{MAX_INLINE_VIEW_LEN, byte_view, plain_views};
