//! GZIP (RFC 1952); several concatenated members are read as one stream, as
//! some writers produce them.

use std::io::Write;

use strata_format::metadata::CompressionCodec;

use super::{Codec, GzipLevel, read_exact_stream};
use crate::error::{FileError, Result};

#[derive(Debug)]
pub(super) struct GzipCodec {
    level: GzipLevel,
}

impl GzipCodec {
    pub(super) fn new(level: GzipLevel) -> Self {
        Self { level }
    }
}

impl Codec for GzipCodec {
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        let err = |e: std::io::Error| FileError::Compress {
            codec: "GZIP",
            reason: e.to_string(),
        };
        let level = flate2::Compression::new(self.level.compression_level());
        let mut encoder = flate2::write::GzEncoder::new(output, level);
        encoder.write_all(input).map_err(err)?;
        encoder.finish().map_err(err)?;
        Ok(())
    }

    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()> {
        let reader = flate2::read::MultiGzDecoder::new(input);
        read_exact_stream("GZIP", reader, output, uncompressed_size)
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Gzip
    }
}
