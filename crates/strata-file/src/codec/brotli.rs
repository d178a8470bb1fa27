//! Brotli.

use std::io::Write;

use strata_format::metadata::CompressionCodec;

use ::brotli::{BrotliDecompressStream, BrotliResult, BrotliState, HeapAlloc, HuffmanCode};

use super::{BrotliLevel, Codec};
use crate::error::{FileError, Result};

/// Window size (log2) used when compressing, as other Parquet writers do.
const LG_WINDOW: u32 = 22;
/// Internal buffer size of the compressing stream.
const BUFFER: usize = 4096;

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
        // One call over the whole input, straight into the declared number
        // of output bytes: no input buffer to fill and refill, no copy out
        // of the stream reader. A stream that needs more room than
        // declared stops at it (`NeedsMoreOutput`) and is an error.
        let start = output.len();
        let out = super::extend_zeroed(output, uncompressed_size);
        let mut state = BrotliState::new(
            HeapAlloc::<u8>::new(0),
            HeapAlloc::<u32>::new(0),
            HeapAlloc::<HuffmanCode>::new(HuffmanCode::default()),
        );
        let (mut available_in, mut input_offset) = (input.len(), 0usize);
        let (mut available_out, mut output_offset, mut written) = (out.len(), 0usize, 0usize);
        let result = BrotliDecompressStream(
            &mut available_in,
            &mut input_offset,
            input,
            &mut available_out,
            &mut output_offset,
            out,
            &mut written,
            &mut state,
        );
        let checked = match result {
            BrotliResult::ResultSuccess => {
                super::check_size("BROTLI", output_offset, uncompressed_size)
            }
            BrotliResult::NeedsMoreOutput => Err(FileError::Decompress {
                codec: "BROTLI",
                reason: format!(
                    "page decompresses to more than the {uncompressed_size} bytes its header declares"
                ),
            }),
            BrotliResult::NeedsMoreInput => Err(FileError::Decompress {
                codec: "BROTLI",
                reason: "truncated brotli stream".into(),
            }),
            BrotliResult::ResultFailure => Err(FileError::Decompress {
                codec: "BROTLI",
                reason: "corrupt brotli stream".into(),
            }),
        };
        if checked.is_err() {
            // Leave nothing of a failed page behind.
            output.truncate(start);
        }
        checked
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Brotli
    }
}
