//! Round trips for every codec and the bounds on decompression.

use super::*;
use proptest::prelude::*;

fn all() -> Vec<Compression> {
    vec![
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::BROTLI(BrotliLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
        Compression::ZSTD(ZstdLevel::try_new(9).unwrap()),
        Compression::ZSTD(ZstdLevel::try_new(-5).unwrap()),
        Compression::ZSTD(ZstdLevel::try_new(0).unwrap()),
        Compression::GZIP(GzipLevel::try_new(9).unwrap()),
    ]
}

#[test]
fn levels_are_checked() {
    // arrow-rs's ranges: zstd -131072..=22 (0 is zstd's default level,
    // negative levels its fast modes), gzip 0..=9.
    assert!(ZstdLevel::try_new(-131_073).is_err());
    assert!(ZstdLevel::try_new(-131_072).is_ok());
    assert!(ZstdLevel::try_new(0).is_ok());
    assert!(ZstdLevel::try_new(23).is_err());
    assert_eq!(ZstdLevel::try_new(22).unwrap().compression_level(), 22);
    assert!(GzipLevel::try_new(10).is_err());
    assert!(BrotliLevel::try_new(12).is_err());
    assert!(create_codec(Compression::UNCOMPRESSED).unwrap().is_none());
    assert!(matches!(
        create_codec(Compression::LZO),
        Err(FileError::UnsupportedCodec(_))
    ));
}

#[test]
fn codec_ids_round_trip() {
    for c in all() {
        let codec = create_codec(c).unwrap().unwrap();
        assert_eq!(codec.kind(), c.codec());
        assert_eq!(
            Compression::from_codec(c.codec()).unwrap().codec(),
            c.codec()
        );
    }
}

#[test]
fn wrong_declared_size_is_an_error() {
    let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
    for c in all() {
        let mut codec = create_codec(c).unwrap().unwrap();
        let mut compressed = Vec::new();
        codec.compress(&data, &mut compressed).unwrap();
        for declared in [data.len() - 1, data.len() + 1, 0] {
            let mut out = Vec::new();
            assert!(
                codec.decompress(&compressed, &mut out, declared).is_err(),
                "{c:?} accepted declared size {declared}"
            );
            // Never more than the declared size (+1 probe byte for streams).
            assert!(out.capacity() <= (declared + 1).max(64 * 1024), "{c:?}");
        }
    }
}

#[test]
fn hadoop_lz4_reads_multiple_frames_and_bare_blocks() {
    let a: Vec<u8> = (0..3000u32).map(|i| (i % 7) as u8).collect();
    let b: Vec<u8> = (0..500u32).map(|i| (i % 13) as u8).collect();
    // Two Hadoop frames.
    let mut framed = Vec::new();
    for part in [&a, &b] {
        let mut block = Vec::new();
        compress_block_for_test(part, &mut block);
        framed.extend_from_slice(&(part.len() as u32).to_be_bytes());
        framed.extend_from_slice(&(block.len() as u32).to_be_bytes());
        framed.extend_from_slice(&block);
    }
    let mut codec = create_codec(Compression::LZ4).unwrap().unwrap();
    let mut out = Vec::new();
    codec
        .decompress(&framed, &mut out, a.len() + b.len())
        .unwrap();
    assert_eq!(&out[..a.len()], &a[..]);
    assert_eq!(&out[a.len()..], &b[..]);
    // A bare block, as some writers produced for the deprecated codec.
    let mut bare = Vec::new();
    compress_block_for_test(&a, &mut bare);
    let mut out = Vec::new();
    codec.decompress(&bare, &mut out, a.len()).unwrap();
    assert_eq!(out, a);
}

fn compress_block_for_test(input: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&lz4_flex::block::compress(input));
}

proptest! {
    #[test]
    fn round_trip_every_codec(data in proptest::collection::vec(any::<u8>(), 0..5000), repeat in 1usize..4) {
        let data: Vec<u8> = data.iter().copied().cycle().take(data.len() * repeat).collect();
        for c in all() {
            let mut codec = create_codec(c).unwrap().unwrap();
            let mut compressed = vec![0xEE];
            codec.compress(&data, &mut compressed).unwrap();
            let mut out = vec![0xDD];
            codec.decompress(&compressed[1..], &mut out, data.len()).unwrap();
            prop_assert_eq!(out[0], 0xDD);
            prop_assert_eq!(&out[1..], &data[..], "{:?}", c);
        }
    }

    #[test]
    fn decompressing_over_a_used_buffer_replaces_what_follows_the_kept_bytes(
        data in proptest::collection::vec(any::<u8>(), 0..3000),
        stale in 0usize..6000,
        keep in 0usize..8,
    ) {
        for c in all() {
            let mut codec = create_codec(c).unwrap().unwrap();
            let mut compressed = Vec::new();
            codec.compress(&data, &mut compressed).unwrap();
            // A buffer holding an earlier page: shorter or longer than the
            // new one, its first `keep` bytes the new page's prefix.
            let mut out = vec![0xAB; keep + stale];
            codec.decompress_replacing(&compressed, &mut out, keep, data.len()).unwrap();
            prop_assert_eq!(out.len(), keep + data.len());
            prop_assert!(out[..keep].iter().all(|&b| b == 0xAB));
            prop_assert_eq!(&out[keep..], &data[..], "{:?}", c);
            // A wrong declared size fails and keeps at most the prefix.
            let mut out = vec![0xAB; keep + stale];
            let wrong = codec.decompress_replacing(&compressed, &mut out, keep, data.len() + 1);
            prop_assert!(wrong.is_err(), "{:?}", c);
            prop_assert!(out.len() <= keep, "{:?}", c);
        }
    }

    #[test]
    fn garbage_never_panics(data in proptest::collection::vec(any::<u8>(), 0..300), declared in 0usize..5000) {
        for c in all() {
            let mut codec = create_codec(c).unwrap().unwrap();
            let mut out = vec![7u8];
            match codec.decompress(&data, &mut out, declared) {
                // Exactly the declared size is appended, or nothing at all.
                Ok(()) => prop_assert_eq!(out.len(), 1 + declared),
                Err(_) => prop_assert_eq!(&out[..], &[7u8][..], "{:?}", c),
            }
            let mut used = vec![7u8; 100];
            match codec.decompress_replacing(&data, &mut used, 3, declared) {
                Ok(()) => prop_assert_eq!(used.len(), 3 + declared),
                Err(_) => prop_assert!(used.len() <= 3, "{:?}", c),
            }
        }
    }
}
