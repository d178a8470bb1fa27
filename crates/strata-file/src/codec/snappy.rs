//! Snappy, raw block format (no framing), as Parquet stores it.

use strata_format::metadata::CompressionCodec;

use super::{Codec, check_size, extend_zeroed};
use crate::error::{FileError, Result};

/// Snappy codec; its encoder and decoder state is reused across pages.
#[derive(Debug, Default)]
pub(super) struct SnappyCodec {
    encoder: Option<snap::raw::Encoder>,
    decoder: Option<snap::raw::Decoder>,
}

impl Codec for SnappyCodec {
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        let encoder = self.encoder.get_or_insert_with(snap::raw::Encoder::new);
        let start = output.len();
        let max = snap::raw::max_compress_len(input.len());
        let n = encoder
            .compress(input, extend_zeroed(output, max))
            .map_err(|e| FileError::Compress {
                codec: "SNAPPY",
                reason: e.to_string(),
            })?;
        output.truncate(start + n);
        Ok(())
    }

    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()> {
        // Appending is replacing nothing after the current bytes.
        let keep = output.len();
        self.decompress_replacing(input, output, keep, uncompressed_size)
    }

    fn decompress_replacing(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        keep: usize,
        uncompressed_size: usize,
    ) -> Result<()> {
        let err = |reason: String| FileError::Decompress {
            codec: "SNAPPY",
            reason,
        };
        // The block states its own length; it must agree with the header
        // before anything is allocated.
        let stated = snap::raw::decompress_len(input)
            .map_err(|e| err(e.to_string()))
            .and_then(|stated| check_size("SNAPPY", stated, uncompressed_size).map(|()| stated))
            .inspect_err(|_| output.truncate(keep))?;
        let decoder = self.decoder.get_or_insert_with(snap::raw::Decoder::new);
        // Only what lies past the buffer's current length is zero-filled;
        // the decoder overwrites the rest (the previous page's bytes).
        output.resize(keep + stated, 0);
        match decoder.decompress(input, &mut output[keep..]) {
            Ok(n) => {
                output.truncate(keep + n);
                check_size("SNAPPY", n, uncompressed_size).inspect_err(|_| output.truncate(keep))
            }
            Err(e) => {
                output.truncate(keep);
                Err(err(e.to_string()))
            }
        }
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Snappy
    }
}
