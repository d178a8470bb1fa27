//! [`Compression`]: a column chunk's codec with its level, with arrow-rs's
//! names (`parquet::basic::Compression`), and the checked levels
//! [`ZstdLevel`], [`GzipLevel`] and [`BrotliLevel`].
//!
//! The Thrift enum [`CompressionCodec`] is what the metadata records; a
//! `Compression` is what a writer is set to (the level is not recorded, so
//! one read from metadata has the default level).

use super::CompressionCodec;
use crate::error::{FormatError, Result};

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
            Err(FormatError::InvalidLevel {
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
            Err(FormatError::InvalidLevel {
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
            Err(FormatError::InvalidLevel {
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
/// use strata_format::metadata::{Compression, ZstdLevel};
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
    type Err = FormatError;

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

fn bad_compression(s: &str) -> FormatError {
    FormatError::UnsupportedCodec(format!(
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
            other => return Err(FormatError::UnsupportedCodec(format!("{other:?}"))),
        })
    }
}
