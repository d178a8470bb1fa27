//! # strata-sink: bytes and bits
//!
//! The bottom layer of strata. It owns every primitive that turns values into
//! bytes and bits and back, with no knowledge of Parquet metadata:
//!
//! - [`ByteSink`]: an append-only byte buffer with little-endian puts and a
//!   batch path ([`ByteSink::reserved_region`]) that reserves once for many
//!   values.
//! - [`BitWriter`] / [`BitReader`]: LSB-first bit streams with aligned reads
//!   and writes and ULEB128/zigzag varints.
//! - [`bitmap`]: LSB-first bitmaps (validity, filter masks): bits read,
//!   counted and walked as runs a word at a time.
//! - [`bitpack`]: pack and unpack kernels for blocks of 32 and 64 values at
//!   every bit width, one specialised function per width.
//! - [`rle`]: the RLE/bit-packed hybrid encoding of Parquet levels and
//!   dictionary indices.
//! - [`append`]: appending many short byte strings to a vector, each as one
//!   fixed-size copy.
//!
//! ## Invariants
//! - Writers start empty and grow on demand; nothing preallocates.
//! - Readers never panic on malformed input: they return `None` or a
//!   [`SinkError`].
//!
//!
//! ```
//! use strata_sink::rle::{RleDecoder, RleEncoder};
//!
//! let mut enc = RleEncoder::new(3);
//! for v in [1u64, 1, 1, 1, 1, 1, 1, 1, 1, 5, 6, 7] {
//!     enc.put(v);
//! }
//! let bytes = enc.finish();
//! let mut dec = RleDecoder::new(&bytes, 3).unwrap();
//! let mut out = [0u32; 12];
//! assert_eq!(dec.get_batch(&mut out).unwrap(), 12);
//! assert_eq!(out, [1, 1, 1, 1, 1, 1, 1, 1, 1, 5, 6, 7]);
//! ```
#![deny(missing_docs)]
// `unsafe` is denied everywhere but in `bitpack::x86`, which calls the AVX2
// build of the unpack kernels behind a run-time CPU feature check, and in
// `cache::x86`, which issues a prefetch hint, and in `append`, which copies
// short values into a vector's spare capacity.
#![deny(unsafe_code)]

pub mod append;
pub mod bit_reader;
pub mod bit_writer;
pub mod bitmap;
pub mod bitpack;
mod byte_sink;
pub mod cache;
mod error;
pub mod rle;
pub mod varint;

pub use bit_reader::BitReader;
pub use bit_writer::BitWriter;
pub use byte_sink::{ByteSink, RegionWriter};
pub use error::{Result, SinkError};
