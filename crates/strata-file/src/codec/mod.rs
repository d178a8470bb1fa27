//! Page compression: the [`Compression`] setting, its levels, and a
//! [`Codec`] per algorithm.
//!
//! A codec compresses or decompresses one page body at a time into a
//! caller-owned buffer that is reused page after page. Decompression is
//! bounded by the uncompressed size the page header declares: a codec
//! produces exactly that many bytes or fails with
//! [`FileError::Decompress`], and never allocates more than the declared
//! size (which the page reader bounds before calling).
//!
//! ```
//! use strata_file::codec::{create_codec, Compression, ZstdLevel};
//!
//! let mut codec = create_codec(Compression::ZSTD(ZstdLevel::try_new(3).unwrap()))
//!     .unwrap()
//!     .expect("zstd compresses");
//! let page = b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".to_vec();
//! let mut compressed = Vec::new();
//! codec.compress(&page, &mut compressed).unwrap();
//! let mut restored = Vec::new();
//! codec.decompress(&compressed, &mut restored, page.len()).unwrap();
//! assert_eq!(restored, page);
//! ```

mod brotli;
mod gzip;
mod lz4;
mod snappy;
mod zstd;

use strata_format::metadata::CompressionCodec;
pub use strata_format::metadata::{BrotliLevel, Compression, GzipLevel, ZstdLevel};

use crate::error::{FileError, Result};

/// Compresses and decompresses page bodies.
pub trait Codec: Send + std::fmt::Debug {
    /// Append the compressed form of `input` to `output`.
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()>;

    /// Append exactly `uncompressed_size` decompressed bytes of `input` to
    /// `output`, or fail if the data decompresses to any other size.
    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()>;

    /// Like [`decompress`](Self::decompress), but into `output` after its
    /// first `keep` bytes, replacing whatever follows them: `output` ends
    /// `keep + uncompressed_size` bytes long. A codec that writes into a
    /// slice may overwrite the bytes a reused buffer still holds instead
    /// of zero-filling them first (the page reader reuses one buffer page
    /// after page). Fails, leaving `output` at `keep` bytes or fewer, as
    /// `decompress` does.
    fn decompress_replacing(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        keep: usize,
        uncompressed_size: usize,
    ) -> Result<()> {
        output.truncate(keep);
        self.decompress(input, output, uncompressed_size)
    }

    /// The codec as it is recorded in column metadata.
    fn kind(&self) -> CompressionCodec;
}

/// The codec for a compression setting, or `None` for `UNCOMPRESSED`.
pub fn create_codec(compression: Compression) -> Result<Option<Box<dyn Codec>>> {
    Ok(match compression {
        Compression::UNCOMPRESSED => None,
        Compression::SNAPPY => Some(Box::new(snappy::SnappyCodec::default())),
        Compression::GZIP(level) => Some(Box::new(gzip::GzipCodec::new(level))),
        Compression::BROTLI(level) => Some(Box::new(brotli::BrotliCodec::new(level))),
        Compression::LZ4 => Some(Box::new(lz4::Lz4HadoopCodec)),
        Compression::LZ4_RAW => Some(Box::new(lz4::Lz4RawCodec)),
        Compression::ZSTD(level) => Some(Box::new(zstd::ZstdCodec::new(level))),
        Compression::LZO => return Err(FileError::UnsupportedCodec("LZO".into())),
    })
}

/// The codec for a column chunk's metadata, or `None` when uncompressed.
pub fn codec_for(codec: CompressionCodec) -> Result<Option<Box<dyn Codec>>> {
    create_codec(Compression::from_codec(codec)?)
}

/// Check that a decompressor produced exactly the declared size.
fn check_size(codec: &'static str, produced: usize, declared: usize) -> Result<()> {
    if produced == declared {
        Ok(())
    } else {
        Err(FileError::Decompress {
            codec,
            reason: format!("page decompressed to {produced} bytes, header declares {declared}"),
        })
    }
}

/// Grow `output` by `n` zeroed bytes and return them.
fn extend_zeroed(output: &mut Vec<u8>, n: usize) -> &mut [u8] {
    let start = output.len();
    output.resize(start + n, 0);
    &mut output[start..]
}

/// Read a whole decompressing stream into `output`, failing if it yields
/// anything other than `declared` bytes. Reads at most `declared + 1` bytes,
/// so a stream that expands past its declaration cannot grow the buffer.
fn read_exact_stream(
    codec: &'static str,
    mut reader: impl std::io::Read,
    output: &mut Vec<u8>,
    declared: usize,
) -> Result<()> {
    use std::io::Read;
    let start = output.len();
    output.reserve(declared);
    let limit = u64::try_from(declared)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    let result = (&mut reader)
        .take(limit)
        .read_to_end(output)
        .map_err(|e| FileError::Decompress {
            codec,
            reason: e.to_string(),
        })
        .and_then(|_| check_size(codec, output.len() - start, declared));
    if result.is_err() {
        // Leave nothing of a failed page behind.
        output.truncate(start);
    }
    result
}

#[cfg(test)]
mod tests;
