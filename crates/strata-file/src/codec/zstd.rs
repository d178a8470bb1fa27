//! Zstandard; compressor and decompressor contexts are reused across pages.

use strata_format::metadata::CompressionCodec;

use super::{Codec, ZstdLevel, check_size, extend_zeroed};
use crate::error::{FileError, Result};

pub(super) struct ZstdCodec {
    level: ZstdLevel,
    compressor: Option<::zstd::bulk::Compressor<'static>>,
    decompressor: Option<::zstd::bulk::Decompressor<'static>>,
}

impl std::fmt::Debug for ZstdCodec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZstdCodec")
            .field("level", &self.level)
            .finish()
    }
}

impl ZstdCodec {
    pub(super) fn new(level: ZstdLevel) -> Self {
        Self {
            level,
            compressor: None,
            decompressor: None,
        }
    }
}

fn io_err(codec_err: impl Fn(String) -> FileError) -> impl Fn(std::io::Error) -> FileError {
    move |e| codec_err(e.to_string())
}

impl Codec for ZstdCodec {
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        let err = io_err(|reason| FileError::Compress {
            codec: "ZSTD",
            reason,
        });
        let compressor = match &mut self.compressor {
            Some(c) => c,
            None => self.compressor.insert(
                ::zstd::bulk::Compressor::new(self.level.compression_level()).map_err(&err)?,
            ),
        };
        let start = output.len();
        let bound = ::zstd::zstd_safe::compress_bound(input.len());
        let n = compressor
            .compress_to_buffer(input, extend_zeroed(output, bound))
            .map_err(&err)?;
        output.truncate(start + n);
        Ok(())
    }

    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()> {
        let err = io_err(|reason| FileError::Decompress {
            codec: "ZSTD",
            reason,
        });
        let decompressor = match &mut self.decompressor {
            Some(d) => d,
            None => self
                .decompressor
                .insert(::zstd::bulk::Decompressor::new().map_err(&err)?),
        };
        let start = output.len();
        // Decompress straight into spare capacity (zstd initialises every
        // byte it reports), so the page is not zero-filled first. Only the
        // declared size is reserved: a frame that expands past the capacity
        // fails instead of growing the buffer, and one that expands past the
        // declared size fails the size check.
        output.reserve_exact(uncompressed_size);
        let mut cursor = std::io::Cursor::new(&mut *output);
        cursor.set_position(start as u64);
        match decompressor.decompress_to_buffer(input, &mut cursor) {
            Ok(n) => {
                output.truncate(start + n);
                check_size("ZSTD", n, uncompressed_size).inspect_err(|_| output.truncate(start))
            }
            Err(e) => {
                output.truncate(start);
                Err(err(e))
            }
        }
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Zstd
    }
}
