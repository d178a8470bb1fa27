//! LZ4: the raw block format (`LZ4_RAW`), and the deprecated `LZ4` codec.
//!
//! Files written with the deprecated codec disagree on what it means. Hadoop
//! writers frame each block as `[u32 BE decompressed size][u32 BE compressed
//! size][block]`; some older writers used the LZ4 frame format; others wrote a
//! bare block. Reading tries the three in that order, as other readers do,
//! and accepts the first that yields exactly the declared size. Writing the
//! deprecated codec uses the Hadoop framing.

use std::io::Read;

use strata_format::metadata::CompressionCodec;

use super::{Codec, check_size, extend_zeroed, read_exact_stream};
use crate::error::{FileError, Result};

#[derive(Debug)]
pub(super) struct Lz4RawCodec;

fn compress_block(input: &[u8], output: &mut Vec<u8>) -> Result<usize> {
    let start = output.len();
    let bound = lz4_flex::block::get_maximum_output_size(input.len());
    let n = lz4_flex::block::compress_into(input, extend_zeroed(output, bound)).map_err(|e| {
        FileError::Compress {
            codec: "LZ4",
            reason: e.to_string(),
        }
    })?;
    output.truncate(start + n);
    Ok(n)
}

fn decompress_block(input: &[u8], output: &mut Vec<u8>, size: usize) -> Result<()> {
    let start = output.len();
    let result = lz4_flex::block::decompress_into(input, extend_zeroed(output, size));
    match result {
        Ok(n) => {
            output.truncate(start + n);
            check_size("LZ4", n, size).inspect_err(|_| output.truncate(start))
        }
        Err(e) => {
            output.truncate(start);
            Err(FileError::Decompress {
                codec: "LZ4",
                reason: e.to_string(),
            })
        }
    }
}

impl Codec for Lz4RawCodec {
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        compress_block(input, output).map(|_| ())
    }

    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()> {
        decompress_block(input, output, uncompressed_size)
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Lz4Raw
    }
}

#[derive(Debug)]
pub(super) struct Lz4HadoopCodec;

/// Decode Hadoop-framed LZ4 blocks; `None` when the input is not a valid
/// sequence of frames adding up to `size`.
fn decompress_hadoop(input: &[u8], output: &mut Vec<u8>, size: usize) -> Option<()> {
    let start = output.len();
    let mut rest = input;
    while !rest.is_empty() {
        let header = rest.get(..8)?;
        let decompressed =
            u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let compressed = u32::from_be_bytes([header[4], header[5], header[6], header[7]]) as usize;
        let block = rest.get(8..8usize.checked_add(compressed)?)?;
        if output.len() - start + decompressed > size {
            return None;
        }
        decompress_block(block, output, decompressed).ok()?;
        rest = &rest[8 + compressed..];
    }
    (output.len() - start == size).then_some(())
}

impl Codec for Lz4HadoopCodec {
    fn compress(&mut self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        let header_at = output.len();
        output.extend_from_slice(&[0; 8]);
        let n = compress_block(input, output)?;
        let too_big = |_| FileError::Compress {
            codec: "LZ4",
            reason: "page larger than 4 GiB".into(),
        };
        let decompressed = u32::try_from(input.len()).map_err(too_big)?;
        let compressed = u32::try_from(n).map_err(too_big)?;
        output[header_at..header_at + 4].copy_from_slice(&decompressed.to_be_bytes());
        output[header_at + 4..header_at + 8].copy_from_slice(&compressed.to_be_bytes());
        Ok(())
    }

    fn decompress(
        &mut self,
        input: &[u8],
        output: &mut Vec<u8>,
        uncompressed_size: usize,
    ) -> Result<()> {
        let start = output.len();
        if decompress_hadoop(input, output, uncompressed_size).is_some() {
            return Ok(());
        }
        output.truncate(start);
        let frame = lz4_flex::frame::FrameDecoder::new(input);
        if read_exact_stream("LZ4", frame.take(u64::MAX), output, uncompressed_size).is_ok() {
            return Ok(());
        }
        output.truncate(start);
        decompress_block(input, output, uncompressed_size)
    }

    fn kind(&self) -> CompressionCodec {
        CompressionCodec::Lz4
    }
}
