//! Brotli.

use std::io::Write;

use strata_format::metadata::CompressionCodec;

use super::{BrotliLevel, Codec, read_exact_stream};
use crate::error::{FileError, Result};

/// Window size (log2) used when compressing, as other Parquet writers do.
const LG_WINDOW: u32 = 22;
/// Internal buffer size of the brotli streams.
const BUFFER: usize = 4096;
/// Largest input buffer used when decompressing.
const MAX_INPUT_BUFFER: usize = 1 << 20;

#[derive(Debug)]
pub(super) struct BrotliCodec {
    level: BrotliLevel,
}

impl BrotliCodec {
    pub(super) fn new(level: BrotliLevel) -> Self {
        Self { level }
    }
}

impl Codec for BrotliCodec {
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        let err = |e: std::io::Error| FileError::Compress {
            codec: "BROTLI",
            reason: e.to_string(),
        };
        let mut writer = ::brotli::CompressorWriter::new(
            output,
            BUFFER,
            self.level.compression_level(),
            LG_WINDOW,
        );
        writer.write_all(input).map_err(err)?;
        writer.flush().map_err(err)?;
        Ok(())
    }

    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()> {
        // The decompressor copies its input through a buffer of this size;
        // one as large as the input (already in memory) makes that a single
        // copy instead of many small refills. Bounded by the input's size.
        let buffer = input.len().clamp(BUFFER, MAX_INPUT_BUFFER);
        let reader = ::brotli::Decompressor::new(input, buffer);
        read_exact_stream("BROTLI", reader, output, uncompressed_size)
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Brotli
    }
}
