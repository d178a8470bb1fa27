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
//! - [`bitpack`]: pack and unpack kernels for blocks of 32 and 64 values at
//!   every bit width, one specialised function per width.
//! - [`rle`]: the RLE/bit-packed hybrid encoding of Parquet levels and
//!   dictionary indices.
//!
//! ## Invariants
//! - Writers start empty and grow on demand; nothing preallocates.
//! - Readers never panic on malformed input: they return `None` or a
//!   [`SinkError`].
//!
#![deny(missing_docs)]

mod byte_sink;
mod error;
pub mod varint;

pub use byte_sink::{ByteSink, RegionWriter};
pub use error::{Result, SinkError};
