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

/// ZSTD compression level (1..=22; default 1, as arrow-rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZstdLevel(i32);

impl ZstdLevel {
    /// A level, checked against zstd's range -131072..=22 (as arrow-rs
    /// checks it): negative levels trade ratio for speed, 0 is zstd's
    /// default.
    pub fn try_new(level: i32) -> Result<Self> {
        if (-131_072..=22).contains(&level) {
            Ok(Self(level))
        } else {
            Err(FileError::InvalidLevel {
                codec: "ZSTD",
                level: i64::from(level),
                range: "-131072..=22",
            })
        }
    }

    /// The level as a number.
    pub fn compression_level(&self) -> i32 {
        self.0
    }
}

impl Default for ZstdLevel {
    fn default() -> Self {
        Self(1)
    }
}

/// GZIP compression level (0..=10; default 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GzipLevel(u32);

impl GzipLevel {
    /// A level, checked against the range 0..=9 (as arrow-rs checks it).
    pub fn try_new(level: u32) -> Result<Self> {
        if level <= 9 {
            Ok(Self(level))
        } else {
            Err(FileError::InvalidLevel {
                codec: "GZIP",
                level: i64::from(level),
                range: "0..=9",
            })
        }
    }

    /// The level as a number.
    pub fn compression_level(&self) -> u32 {
        self.0
    }
}

impl Default for GzipLevel {
    fn default() -> Self {
        Self(6)
    }
}

/// BROTLI compression quality (0..=11; default 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BrotliLevel(u32);

impl BrotliLevel {
    /// A level, checked against the range 0..=11.
    pub fn try_new(level: u32) -> Result<Self> {
        if level <= 11 {
            Ok(Self(level))
        } else {
            Err(FileError::InvalidLevel {
                codec: "BROTLI",
                level: i64::from(level),
                range: "0..=11",
            })
        }
    }

    /// The level as a number.
    pub fn compression_level(&self) -> u32 {
        self.0
    }
}

impl Default for BrotliLevel {
    fn default() -> Self {
        Self(1)
    }
}

/// Page compression, with the names arrow-rs's `parquet::basic::Compression`
/// uses so that code written for it compiles unchanged.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compression {
    /// No compression.
    #[default]
    UNCOMPRESSED,
    /// Snappy (raw block format).
    SNAPPY,
    /// GZIP (RFC 1952).
    GZIP(GzipLevel),
    /// LZO: recognised, not supported.
    LZO,
    /// Brotli.
    BROTLI(BrotliLevel),
    /// Deprecated LZ4 with Hadoop framing (read only; write LZ4_RAW).
    LZ4,
    /// Zstandard.
    ZSTD(ZstdLevel),
    /// LZ4 block format without framing.
    LZ4_RAW,
}

/// As arrow-rs prints it, its `Debug` form: `SNAPPY`, `ZSTD(ZstdLevel(3))`.
impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// Parses arrow-rs's spellings: a codec's name in upper or lower case
/// (`snappy`, `LZ4_RAW`), with a level in parentheses for the codecs that
/// take one and only for them (`zstd(3)`, `GZIP(6)`, `brotli(4)`).
///
/// ```
/// use strata_file::codec::{Compression, ZstdLevel};
///
/// let zstd: Compression = "zstd(3)".parse().unwrap();
/// assert_eq!(zstd, Compression::ZSTD(ZstdLevel::try_new(3).unwrap()));
/// assert_eq!(zstd.to_string(), "ZSTD(ZstdLevel(3))");
/// assert_eq!("SNAPPY".parse::<Compression>().unwrap(), Compression::SNAPPY);
/// assert!("zstd".parse::<Compression>().is_err(), "zstd needs a level");
/// assert!("snappy(1)".parse::<Compression>().is_err(), "snappy takes none");
/// assert!("Snappy".parse::<Compression>().is_err());
/// assert!("".parse::<Compression>().is_err());
/// assert!("zstd(".parse::<Compression>().is_err());
/// ```
impl std::str::FromStr for Compression {
    type Err = FileError;

    fn from_str(s: &str) -> Result<Self> {
        let (name, level) = match s.split_once('(') {
            Some((name, rest)) => match rest.strip_suffix(')') {
                Some(level) => (name, Some(level)),
                None => return Err(bad_compression(s)),
            },
            None => (s, None),
        };
        let known = [
            "UNCOMPRESSED",
            "SNAPPY",
            "GZIP",
            "LZO",
            "BROTLI",
            "LZ4",
            "ZSTD",
            "LZ4_RAW",
        ];
        let upper = known
            .into_iter()
            .find(|k| *k == name || k.to_ascii_lowercase() == name)
            .ok_or_else(|| bad_compression(s))?;
        let number = |level: Option<&str>| -> Result<i64> {
            level
                .and_then(|l| l.trim().parse::<i64>().ok())
                .ok_or_else(|| bad_compression(s))
        };
        let unsigned = |level| u32::try_from(number(level)?).map_err(|_| bad_compression(s));
        Ok(match (upper, level) {
            ("UNCOMPRESSED", None) => Self::UNCOMPRESSED,
            ("SNAPPY", None) => Self::SNAPPY,
            ("LZO", None) => Self::LZO,
            ("LZ4", None) => Self::LZ4,
            ("LZ4_RAW", None) => Self::LZ4_RAW,
            ("GZIP", Some(_)) => Self::GZIP(GzipLevel::try_new(unsigned(level)?)?),
            ("BROTLI", Some(_)) => Self::BROTLI(BrotliLevel::try_new(unsigned(level)?)?),
            ("ZSTD", Some(_)) => {
                let level = i32::try_from(number(level)?).map_err(|_| bad_compression(s))?;
                Self::ZSTD(ZstdLevel::try_new(level)?)
            }
            _ => return Err(bad_compression(s)),
        })
    }
}

fn bad_compression(s: &str) -> FileError {
    FileError::UnsupportedCodec(format!(
        "{s:?} (expected a codec name in upper or lower case, with a level in parentheses \
         for gzip, brotli and zstd only)"
    ))
}

impl Compression {
    /// The codec id written to column metadata.
    pub fn codec(&self) -> CompressionCodec {
        match self {
            Self::UNCOMPRESSED => CompressionCodec::Uncompressed,
            Self::SNAPPY => CompressionCodec::Snappy,
            Self::GZIP(_) => CompressionCodec::Gzip,
            Self::LZO => CompressionCodec::Lzo,
            Self::BROTLI(_) => CompressionCodec::Brotli,
            Self::LZ4 => CompressionCodec::Lz4,
            Self::ZSTD(_) => CompressionCodec::Zstd,
            Self::LZ4_RAW => CompressionCodec::Lz4Raw,
        }
    }

    /// The setting for a codec read from metadata, at default levels.
    pub fn from_codec(codec: CompressionCodec) -> Result<Self> {
        Ok(match codec {
            CompressionCodec::Uncompressed => Self::UNCOMPRESSED,
            CompressionCodec::Snappy => Self::SNAPPY,
            CompressionCodec::Gzip => Self::GZIP(GzipLevel::default()),
            CompressionCodec::Lzo => Self::LZO,
            CompressionCodec::Brotli => Self::BROTLI(BrotliLevel::default()),
            CompressionCodec::Lz4 => Self::LZ4,
            CompressionCodec::Zstd => Self::ZSTD(ZstdLevel::default()),
            CompressionCodec::Lz4Raw => Self::LZ4_RAW,
            other => return Err(FileError::UnsupportedCodec(format!("{other:?}"))),
        })
    }
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
