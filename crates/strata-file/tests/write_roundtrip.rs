//! Round trips at the physical level: strata writes, arrow-rs `parquet`
//! reads, and every value, definition level and repetition level must come
//! back as written.
//!
//! The matrix: every physical type × every encoding valid for it (PLAIN,
//! dictionary, dictionary falling back mid-chunk, DELTA_*, BYTE_STREAM_SPLIT,
//! RLE for booleans) × page version (v1, v2) × nesting and nulls (required;
//! optional with no/some/all nulls; one repeated level with no/some/all
//! nulls) × write batch size (1, 7, 1024 levels), with the codec rotating
//! through all seven so each type and encoding meets several codecs, plus a
//! full type × codec × version sweep. Pages are kept small (row and byte
//! limits) so every chunk spans many pages, and every file has several row
//! groups.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod write_support;

use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use strata_file::properties::{Encoding, WriterProperties, WriterVersion};
use strata_format::metadata::Type;
use write_support::*;

const TYPES: [Type; 8] = [
    Type::Boolean,
    Type::Int32,
    Type::Int64,
    Type::Int96,
    Type::Float,
    Type::Double,
    Type::ByteArray,
    Type::FixedLenByteArray,
];

fn codecs() -> [Compression; 7] {
    [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::BROTLI(BrotliLevel::default()),
        Compression::LZ4,
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4_RAW,
    ]
}

/// How values are encoded in a case.
#[derive(Debug, Clone, Copy)]
enum Enc {
    /// Dictionary, never falling back.
    Dict,
    /// Dictionary with a tiny limit: falls back to the given encoding
    /// (or the version's default) mid-chunk.
    DictFallback(Option<Encoding>),
    /// Dictionary off, this encoding (None: the version's default).
    Only(Option<Encoding>),
}

fn encodings_for(ty: Type) -> Vec<Enc> {
    let mut v = vec![Enc::Only(Some(Encoding::PLAIN)), Enc::Only(None)];
    if ty != Type::Boolean {
        v.push(Enc::Dict);
        v.push(Enc::DictFallback(None));
    }
    match ty {
        Type::Boolean => v.push(Enc::Only(Some(Encoding::RLE))),
        Type::Int32 | Type::Int64 => {
            v.push(Enc::Only(Some(Encoding::DELTA_BINARY_PACKED)));
            v.push(Enc::Only(Some(Encoding::BYTE_STREAM_SPLIT)));
        }
        Type::Float | Type::Double => {
            v.push(Enc::Only(Some(Encoding::BYTE_STREAM_SPLIT)));
            v.push(Enc::DictFallback(Some(Encoding::BYTE_STREAM_SPLIT)));
        }
        Type::ByteArray => {
            v.push(Enc::Only(Some(Encoding::DELTA_LENGTH_BYTE_ARRAY)));
            v.push(Enc::Only(Some(Encoding::DELTA_BYTE_ARRAY)));
            v.push(Enc::DictFallback(Some(Encoding::DELTA_LENGTH_BYTE_ARRAY)));
        }
        Type::FixedLenByteArray => {
            v.push(Enc::Only(Some(Encoding::DELTA_BYTE_ARRAY)));
            v.push(Enc::Only(Some(Encoding::BYTE_STREAM_SPLIT)));
        }
        Type::Int96 => {}
    }
    v
}

fn props(enc: Enc, codec: Compression, version: WriterVersion, crc: bool) -> WriterProperties {
    let mut b = WriterProperties::builder()
        .set_writer_version(version)
        .set_compression(codec)
        .set_data_page_size_limit(700)
        .set_data_page_row_count_limit(150)
        .set_write_batch_size(37)
        .set_write_page_crc(crc);
    b = match enc {
        Enc::Dict => b.set_dictionary_enabled(true),
        Enc::DictFallback(e) => {
            let b = b
                .set_dictionary_enabled(true)
                .set_dictionary_page_size_limit(48);
            match e {
                Some(e) => b.set_encoding(e),
                None => b,
            }
        }
        Enc::Only(e) => {
            let b = b.set_dictionary_enabled(false);
            match e {
                Some(e) => b.set_encoding(e),
                None => b,
            }
        }
    };
    b.build()
}

fn check(
    ty: Type,
    nesting: Nesting,
    nulls: Nulls,
    props: WriterProperties,
    batch: usize,
    seed: u64,
) {
    let rows = 700;
    let mut rng = Rng(seed | 1);
    let data = gen_column(&mut rng, ty, nesting, nulls, rows);
    let schema = schema_for(ty, nesting);
    let (file, meta) = write_file(schema, props, &data, 300, batch);
    assert_eq!(meta.num_rows, rows as i64);
    assert_eq!(meta.row_groups.len(), 3);
    let back = read_back(&file, 0);
    let ctx = format!("{ty:?} {nesting:?} {nulls:?} batch {batch}");
    assert_eq!(back.records, rows, "{ctx}");
    assert_eq!(back.values.len(), data.values.len(), "{ctx}");
    assert!(back.values == data.values, "{ctx}: values differ");
    if nesting != Nesting::Required {
        assert_eq!(back.def, data.def, "{ctx}");
    }
    if nesting == Nesting::Repeated {
        assert_eq!(back.rep, data.rep, "{ctx}");
    }
}

#[test]
fn matrix_type_encoding_version_nesting_nulls_batch() {
    let cases = [
        (Nesting::Required, Nulls::None),
        (Nesting::Optional, Nulls::None),
        (Nesting::Optional, Nulls::Some),
        (Nesting::Optional, Nulls::All),
        (Nesting::Repeated, Nulls::None),
        (Nesting::Repeated, Nulls::Some),
        (Nesting::Repeated, Nulls::All),
    ];
    let codecs = codecs();
    let mut n = 0usize;
    for ty in TYPES {
        for enc in encodings_for(ty) {
            for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                for (nesting, nulls) in cases {
                    for batch in [1, 7, 1024] {
                        let codec = codecs[n % codecs.len()];
                        let p = props(enc, codec, version, n.is_multiple_of(3));
                        check(ty, nesting, nulls, p, batch, n as u64 * 7919 + 13);
                        n += 1;
                    }
                }
            }
        }
    }
    eprintln!("{n} files round-tripped");
    assert!(n > 1000);
}

#[test]
fn every_codec_for_every_type_and_version() {
    let mut n = 0;
    for ty in TYPES {
        for codec in codecs() {
            for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                for enc in [Enc::Only(None), Enc::DictFallback(None)] {
                    let p = props(enc, codec, version, true);
                    check(ty, Nesting::Repeated, Nulls::Some, p, 64, n + 1);
                    n += 1;
                }
            }
        }
    }
}

#[test]
fn default_properties_round_trip() {
    for ty in TYPES {
        for nesting in [Nesting::Required, Nesting::Optional, Nesting::Repeated] {
            check(
                ty,
                nesting,
                Nulls::Some,
                WriterProperties::default(),
                1024,
                99,
            );
        }
    }
}
