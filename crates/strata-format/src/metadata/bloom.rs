//! [`BloomFilterHeader`] and its algorithm, hash and compression unions.

use super::required;
use crate::error::Result;
use crate::thrift::{CompactReader, CompactWriter, FieldType, ReadThrift, WriteThrift};

/// Reads a union whose known members are all empty marker structs: returns
/// the field id of the first member.
fn read_marker_union(r: &mut CompactReader<'_>, name: &'static str) -> Result<i16> {
    let saved = r.begin_struct()?;
    let mut out = None;
    while let Some(f) = r.next_field()? {
        if out.is_none() && f.ty == FieldType::Struct {
            r.skip(FieldType::Struct)?;
            out = Some(f.id);
        } else {
            r.skip(f.ty)?;
        }
    }
    r.end_struct(saved);
    required(out, name, "member")
}

fn write_marker_union(w: &mut CompactWriter<'_>, id: i16) {
    let saved = w.begin_struct();
    w.empty_struct_field(id);
    w.end_struct(saved);
}

/// Algorithm of a Bloom filter (`BloomFilterAlgorithm` union).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BloomFilterAlgorithm {
    /// Split-block Bloom filter (`BLOCK`, id 1).
    Block,
    /// A member this version does not know, by field id.
    Unknown(i16),
}

impl ReadThrift for BloomFilterAlgorithm {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(match read_marker_union(r, "BloomFilterAlgorithm")? {
            1 => Self::Block,
            id => Self::Unknown(id),
        })
    }
}

impl WriteThrift for BloomFilterAlgorithm {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let id = match *self {
            Self::Block => 1,
            Self::Unknown(id) => id,
        };
        write_marker_union(w, id);
    }
}

/// Hash function of a Bloom filter (`BloomFilterHash` union).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BloomFilterHash {
    /// 64-bit xxHash (`XXHASH`, id 1).
    XxHash,
    /// A member this version does not know, by field id.
    Unknown(i16),
}

impl ReadThrift for BloomFilterHash {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(match read_marker_union(r, "BloomFilterHash")? {
            1 => Self::XxHash,
            id => Self::Unknown(id),
        })
    }
}

impl WriteThrift for BloomFilterHash {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let id = match *self {
            Self::XxHash => 1,
            Self::Unknown(id) => id,
        };
        write_marker_union(w, id);
    }
}

/// Compression of a Bloom filter (`BloomFilterCompression` union).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BloomFilterCompression {
    /// Not compressed (`UNCOMPRESSED`, id 1).
    Uncompressed,
    /// A member this version does not know, by field id.
    Unknown(i16),
}

impl ReadThrift for BloomFilterCompression {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        Ok(match read_marker_union(r, "BloomFilterCompression")? {
            1 => Self::Uncompressed,
            id => Self::Unknown(id),
        })
    }
}

impl WriteThrift for BloomFilterCompression {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let id = match *self {
            Self::Uncompressed => 1,
            Self::Unknown(id) => id,
        };
        write_marker_union(w, id);
    }
}

/// Header in front of a Bloom filter's bitset (`BloomFilterHeader`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BloomFilterHeader {
    /// Size of the bitset in bytes (`numBytes`), field 1.
    pub num_bytes: i32,
    /// Algorithm, field 2.
    pub algorithm: BloomFilterAlgorithm,
    /// Hash function, field 3.
    pub hash: BloomFilterHash,
    /// Compression, field 4.
    pub compression: BloomFilterCompression,
}

impl ReadThrift for BloomFilterHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn read_thrift(r: &mut CompactReader<'_>) -> Result<Self> {
        const NAME: &str = "BloomFilterHeader";
        let saved = r.begin_struct()?;
        let (mut num_bytes, mut algorithm, mut hash, mut compression) = (None, None, None, None);
        while let Some(f) = r.next_field()? {
            match f.id {
                1 => r.read_into(f, &mut num_bytes)?,
                2 => r.read_into(f, &mut algorithm)?,
                3 => r.read_into(f, &mut hash)?,
                4 => r.read_into(f, &mut compression)?,
                _ => r.skip(f.ty)?,
            }
        }
        r.end_struct(saved);
        Ok(Self {
            num_bytes: required(num_bytes, NAME, "numBytes")?,
            algorithm: required(algorithm, NAME, "algorithm")?,
            hash: required(hash, NAME, "hash")?,
            compression: required(compression, NAME, "compression")?,
        })
    }
}

impl WriteThrift for BloomFilterHeader {
    const WIRE_TYPE: FieldType = FieldType::Struct;
    fn write_thrift(&self, w: &mut CompactWriter<'_>) {
        let saved = w.begin_struct();
        w.i32_field(1, self.num_bytes);
        w.field(2, &self.algorithm);
        w.field(3, &self.hash);
        w.field(4, &self.compression);
        w.end_struct(saved);
    }
}
