use super::*;
use crate::codec::{Compression, create_codec};
use strata_format::metadata::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, IndexPageHeader,
};

fn header(page_type: PageType, uncompressed: usize, compressed: usize) -> PageHeader {
    PageHeader {
        page_type,
        uncompressed_page_size: uncompressed as i32,
        compressed_page_size: compressed as i32,
        crc: None,
        data_page_header: None,
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    }
}

fn v1_header(num_values: i32, uncompressed: usize, compressed: usize) -> PageHeader {
    PageHeader {
        data_page_header: Some(DataPageHeader {
            num_values,
            encoding: Encoding::Plain,
            definition_level_encoding: Encoding::Rle,
            repetition_level_encoding: Encoding::Rle,
            statistics: None,
        }),
        ..header(PageType::DataPage, uncompressed, compressed)
    }
}

fn dict_header(num_values: i32, uncompressed: usize, compressed: usize) -> PageHeader {
    PageHeader {
        dictionary_page_header: Some(DictionaryPageHeader {
            num_values,
            encoding: Encoding::Plain,
            is_sorted: Some(true),
        }),
        ..header(PageType::DictionaryPage, uncompressed, compressed)
    }
}

fn v2_header(
    num_values: i32,
    num_nulls: i32,
    rep_len: i32,
    def_len: i32,
    uncompressed: usize,
    compressed: usize,
    is_compressed: bool,
) -> PageHeader {
    PageHeader {
        data_page_header_v2: Some(DataPageHeaderV2 {
            num_values,
            num_nulls,
            num_rows: num_values,
            encoding: Encoding::Plain,
            definition_levels_byte_length: def_len,
            repetition_levels_byte_length: rep_len,
            is_compressed: Some(is_compressed),
            statistics: None,
        }),
        ..header(PageType::DataPageV2, uncompressed, compressed)
    }
}

fn push_page(chunk: &mut Vec<u8>, header: &PageHeader, body: &[u8]) {
    chunk.extend_from_slice(&thrift::encode_to_vec(header));
    chunk.extend_from_slice(body);
}

fn i32_plain(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn read_all(reader: PageReader) -> Result<Vec<Page>> {
    reader.collect()
}

#[test]
fn uncompressed_dictionary_and_v1_pages() {
    let dict = i32_plain(&[10, 20]);
    let data = i32_plain(&[1, 2, 3]);
    let mut chunk = Vec::new();
    push_page(&mut chunk, &dict_header(2, dict.len(), dict.len()), &dict);
    push_page(&mut chunk, &v1_header(3, data.len(), data.len()), &data);
    // Bytes after the last value are not read: the chunk says 3 values.
    chunk.extend_from_slice(b"trailing garbage");
    let reader = PageReader::new(Bytes::from(chunk), CompressionCodec::Uncompressed, 3).unwrap();
    let pages = read_all(reader).unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(
        pages[0],
        Page::DictionaryPage {
            buf: Bytes::from(dict),
            num_values: 2,
            encoding: Encoding::Plain,
            is_sorted: true,
        }
    );
    assert_eq!(pages[1].page_type(), PageType::DataPage);
    assert_eq!(pages[1].buffer().as_ref(), data.as_slice());
    assert_eq!(pages[1].num_values(), 3);
}

#[test]
fn snappy_pages_decompress_and_reuse_the_buffer() {
    let bodies: Vec<Vec<u8>> = (0..3).map(|i| i32_plain(&[i; 64])).collect();
    let chunk = Bytes::from(chunk_of(&bodies));
    let mut reader = PageReader::new(chunk, CompressionCodec::Snappy, 192).unwrap();
    let first = reader.next().unwrap().unwrap();
    assert_eq!(first.buffer().as_ref(), bodies[0].as_slice());
    let first_ptr = first.buffer().as_ptr();
    drop(first);
    // The caller dropped the first page: its buffer is reused.
    let second = reader.next().unwrap().unwrap();
    assert_eq!(second.buffer().as_ref(), bodies[1].as_slice());
    assert_eq!(second.buffer().as_ptr(), first_ptr);
    // Held pages are never overwritten.
    let third = reader.next().unwrap().unwrap();
    assert_eq!(second.buffer().as_ref(), bodies[1].as_slice());
    assert_eq!(third.buffer().as_ref(), bodies[2].as_slice());
    assert!(reader.next().is_none());
}

#[test]
fn pages_dropped_before_the_next_is_read_share_one_buffer() {
    let bodies: Vec<Vec<u8>> = (0..6).map(|i| i32_plain(&[i; 64])).collect();
    let chunk = Bytes::from(chunk_of(&bodies));
    let mut reader = PageReader::new(chunk, CompressionCodec::Snappy, 384).unwrap();
    // The record reader's pattern: each page let go before the next is
    // read. One allocation serves them all; the reader keeps no second.
    let mut first_ptr = None;
    for body in &bodies {
        let page = reader.next().unwrap().unwrap();
        assert_eq!(page.buffer().as_ref(), body.as_slice());
        let ptr = page.buffer().as_ptr();
        assert_eq!(*first_ptr.get_or_insert(ptr), ptr);
    }
    assert!(reader.next().is_none());
}

#[test]
fn a_page_held_while_the_next_is_read_comes_back_for_the_one_after() {
    let bodies: Vec<Vec<u8>> = (0..6).map(|i| i32_plain(&[i; 64])).collect();
    let chunk = Bytes::from(chunk_of(&bodies));
    let mut reader = PageReader::new(chunk.clone(), CompressionCodec::Snappy, 384).unwrap();
    // A record reader's pattern: the current page is still held when the
    // next one is read, and dropped after. From the third page on, the
    // buffers alternate between two allocations.
    let mut current = reader.next().unwrap().unwrap();
    let mut seen = vec![current.buffer().as_ptr()];
    for (k, body) in bodies.iter().enumerate().skip(1) {
        let next = reader.next().unwrap().unwrap();
        // The held page is intact.
        assert_eq!(current.buffer().as_ref(), bodies[k - 1].as_slice());
        assert_eq!(next.buffer().as_ref(), body.as_slice());
        seen.push(next.buffer().as_ptr());
        current = next;
    }
    assert!(reader.next().is_none());
    for i in 2..seen.len() {
        assert_eq!(
            seen[i],
            seen[i - 2],
            "page {i} reuses page {}'s buffer",
            i - 2
        );
    }
    // Two pages held at once: neither is overwritten.
    let mut reader = PageReader::new(chunk, CompressionCodec::Snappy, 384).unwrap();
    let held: Vec<_> = (0..6).map(|_| reader.next().unwrap().unwrap()).collect();
    for (page, body) in held.iter().zip(&bodies) {
        assert_eq!(page.buffer().as_ref(), body.as_slice());
    }
}

/// Snappy pages of `bodies`, one after another.
fn chunk_of(bodies: &[Vec<u8>]) -> Vec<u8> {
    let mut codec = create_codec(Compression::SNAPPY).unwrap().unwrap();
    let mut chunk = Vec::new();
    for body in bodies {
        let mut compressed = Vec::new();
        codec.compress(body, &mut compressed).unwrap();
        push_page(
            &mut chunk,
            &v1_header(64, body.len(), compressed.len()),
            &compressed,
        );
    }
    chunk
}

#[test]
fn v2_levels_stay_uncompressed_before_the_values() {
    let mut codec = create_codec(Compression::SNAPPY).unwrap().unwrap();
    let rep = [0xAAu8, 0xBB];
    let def = [0xCCu8, 0xDD, 0xEE];
    let values = i32_plain(&[7; 32]);
    let mut compressed = Vec::new();
    codec.compress(&values, &mut compressed).unwrap();
    let mut body = Vec::new();
    body.extend_from_slice(&rep);
    body.extend_from_slice(&def);
    body.extend_from_slice(&compressed);
    let mut chunk = Vec::new();
    let h = v2_header(32, 0, 2, 3, 5 + values.len(), body.len(), true);
    push_page(&mut chunk, &h, &body);
    // An uncompressed v2 page in a compressed chunk.
    let mut plain_body = vec![1u8];
    plain_body.extend_from_slice(&values);
    let h = v2_header(32, 1, 0, 1, plain_body.len(), plain_body.len(), false);
    push_page(&mut chunk, &h, &plain_body);
    let pages =
        read_all(PageReader::new(Bytes::from(chunk), CompressionCodec::Snappy, 64).unwrap())
            .unwrap();
    let Page::DataPageV2 {
        buf,
        rep_levels_byte_len,
        def_levels_byte_len,
        is_compressed,
        ..
    } = &pages[0]
    else {
        panic!("expected a v2 page");
    };
    assert_eq!(
        (*rep_levels_byte_len, *def_levels_byte_len, *is_compressed),
        (2, 3, true)
    );
    assert_eq!(&buf[..2], &rep);
    assert_eq!(&buf[2..5], &def);
    assert_eq!(&buf[5..], values.as_slice());
    let Page::DataPageV2 {
        buf,
        is_compressed,
        num_nulls,
        ..
    } = &pages[1]
    else {
        panic!("expected a v2 page");
    };
    assert!(!is_compressed);
    assert_eq!(*num_nulls, 1);
    assert_eq!(buf.as_ref(), plain_body.as_slice());
}

#[test]
fn empty_compressed_v2_values_need_no_codec_frame() {
    let mut chunk = Vec::new();
    push_page(&mut chunk, &v2_header(2, 2, 0, 1, 1, 1, true), &[0x04]);
    let pages =
        read_all(PageReader::new(Bytes::from(chunk), CompressionCodec::Zstd, 2).unwrap()).unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].buffer().as_ref(), &[0x04]);
}

#[test]
fn index_pages_are_skipped() {
    let data = i32_plain(&[1]);
    let mut chunk = Vec::new();
    let index = PageHeader {
        index_page_header: Some(IndexPageHeader),
        ..header(PageType::IndexPage, 3, 3)
    };
    push_page(&mut chunk, &index, b"idx");
    push_page(&mut chunk, &v1_header(1, 4, 4), &data);
    let pages =
        read_all(PageReader::new(Bytes::from(chunk), CompressionCodec::Uncompressed, 1).unwrap())
            .unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].page_type(), PageType::DataPage);
}

#[test]
fn crc_is_verified_when_asked() {
    let data = i32_plain(&[1, 2]);
    let crc = crc32fast::hash(&data);
    let mut good = v1_header(2, 8, 8);
    good.crc = Some(crc as i32);
    let mut bad = good.clone();
    bad.crc = Some(crc.wrapping_add(1) as i32);
    let verify = PageReaderOptions {
        verify_crc: true,
        ..Default::default()
    };
    for (h, ok_when_verified) in [(good, true), (bad, false)] {
        let mut chunk = Vec::new();
        push_page(&mut chunk, &h, &data);
        let chunk = Bytes::from(chunk);
        let checked =
            PageReader::with_options(chunk.clone(), CompressionCodec::Uncompressed, 2, verify)
                .unwrap();
        let result = read_all(checked);
        assert_eq!(result.is_ok(), ok_when_verified);
        if !ok_when_verified {
            assert!(matches!(result, Err(FileError::CrcMismatch { .. })));
        }
        let unchecked = PageReader::new(chunk, CompressionCodec::Uncompressed, 2).unwrap();
        assert!(read_all(unchecked).is_ok());
    }
}

#[test]
fn sizes_are_checked_before_anything_is_allocated() {
    let data = i32_plain(&[1, 2]);
    let cases: Vec<(PageHeader, CompressionCodec)> = vec![
        // More compressed bytes than remain.
        (v1_header(2, 8, 9), CompressionCodec::Uncompressed),
        // Negative sizes.
        (
            v1_header(2, 8, -1i32 as usize),
            CompressionCodec::Uncompressed,
        ),
        (v1_header(2, -5i32 as usize, 8), CompressionCodec::Snappy),
        // Uncompressed sizes that disagree.
        (v1_header(2, 9, 8), CompressionCodec::Uncompressed),
        // More than 8 snappy bytes can expand to; more than the maximum.
        (v1_header(2, 100_000, 8), CompressionCodec::Snappy),
        (v1_header(2, MAX_PAGE_SIZE + 1, 8), CompressionCodec::Brotli),
        // Negative value count.
        (v1_header(-1, 8, 8), CompressionCodec::Uncompressed),
        // A data page without its data page header.
        (
            header(PageType::DataPage, 8, 8),
            CompressionCodec::Uncompressed,
        ),
        // v2 levels longer than the page; more nulls than values.
        (
            v2_header(2, 0, 5, 5, 8, 8, false),
            CompressionCodec::Uncompressed,
        ),
        (
            v2_header(2, 3, 0, 0, 8, 8, false),
            CompressionCodec::Uncompressed,
        ),
    ];
    for (h, codec) in cases {
        let mut chunk = Vec::new();
        push_page(&mut chunk, &h, &data);
        let reader = PageReader::new(Bytes::from(chunk), codec, 2).unwrap();
        assert!(
            read_all(reader).is_err(),
            "{h:?} with {codec:?} should fail"
        );
    }
    // Values promised by the metadata but missing from the chunk.
    let mut chunk = Vec::new();
    push_page(&mut chunk, &v1_header(2, 8, 8), &data);
    let reader = PageReader::new(Bytes::from(chunk), CompressionCodec::Uncompressed, 5).unwrap();
    assert!(read_all(reader).is_err());
    assert!(PageReader::new(Bytes::new(), CompressionCodec::Uncompressed, -1).is_err());
    assert!(PageReader::new(Bytes::new(), CompressionCodec::Lzo, 0).is_err());
}

#[test]
fn an_error_ends_the_iteration() {
    let mut reader = PageReader::new(
        Bytes::from_static(&[0xff; 16]),
        CompressionCodec::Uncompressed,
        1,
    )
    .unwrap();
    assert!(reader.next().unwrap().is_err());
    assert!(reader.next().is_none());
}

#[test]
fn peek_and_skip_pages() {
    let mut chunk = Vec::new();
    for i in 0..4 {
        push_page(&mut chunk, &v1_header(2, 8, 8), &i32_plain(&[i, i]));
    }
    let mut reader =
        PageReader::new(Bytes::from(chunk), CompressionCodec::Uncompressed, 8).unwrap();
    assert_eq!(
        reader
            .peek_header()
            .unwrap()
            .unwrap()
            .data_page_num_values(),
        Some(2)
    );
    // Peeking does not consume.
    assert_eq!(reader.peek_header().unwrap().unwrap().header_offset, 0);
    let skipped = reader.skip_next_page().unwrap().unwrap();
    assert_eq!(skipped.page_type(), PageType::DataPage);
    assert_eq!(reader.values_read(), 2);
    let page = reader.next().unwrap().unwrap();
    assert_eq!(page.buffer().as_ref(), i32_plain(&[1, 1]).as_slice());
    reader.skip_next_page().unwrap().unwrap();
    let page = reader.next().unwrap().unwrap();
    assert_eq!(page.buffer().as_ref(), i32_plain(&[3, 3]).as_slice());
    assert!(reader.skip_next_page().unwrap().is_none());
    assert!(reader.next().is_none());
}

#[test]
fn offset_index_seeks_pages_and_rows() {
    let chunk_offset = 1000u64;
    let mut chunk = Vec::new();
    let dict = i32_plain(&[5]);
    push_page(&mut chunk, &dict_header(1, 4, 4), &dict);
    let mut locations = Vec::new();
    for i in 0..5i32 {
        let start = chunk.len();
        push_page(&mut chunk, &v1_header(3, 12, 12), &i32_plain(&[i; 3]));
        locations.push(PageLocation {
            offset: chunk_offset as i64 + start as i64,
            compressed_page_size: (chunk.len() - start) as i32,
            first_row_index: i64::from(i) * 3,
        });
    }
    let chunk = Bytes::from(chunk);
    let mut reader = PageReader::new(chunk.clone(), CompressionCodec::Uncompressed, 15).unwrap();
    reader.set_page_locations(&locations, chunk_offset).unwrap();
    assert_eq!(reader.num_indexed_pages(), Some(5));
    assert!(reader.next().unwrap().unwrap().is_dictionary());
    // Row 10 is in page 3 (rows 9..12).
    assert_eq!(reader.seek_to_row(10).unwrap(), 9);
    let page = reader.next().unwrap().unwrap();
    assert_eq!(page.buffer().as_ref(), i32_plain(&[3; 3]).as_slice());
    let page = reader.next().unwrap().unwrap();
    assert_eq!(page.buffer().as_ref(), i32_plain(&[4; 3]).as_slice());
    assert!(reader.next().is_none());
    // Back to page 1.
    reader.seek_to_data_page(1).unwrap();
    let page = reader.next().unwrap().unwrap();
    assert_eq!(page.buffer().as_ref(), i32_plain(&[1; 3]).as_slice());
    assert!(reader.seek_to_data_page(5).is_err());

    // Locations outside the chunk, or out of order, are rejected.
    let mut outside = locations.clone();
    outside[4].compressed_page_size += 1;
    let mut r = PageReader::new(chunk.clone(), CompressionCodec::Uncompressed, 15).unwrap();
    assert!(r.set_page_locations(&outside, chunk_offset).is_err());
    let mut swapped = locations.clone();
    swapped.swap(1, 2);
    assert!(r.set_page_locations(&swapped, chunk_offset).is_err());
    assert!(
        r.set_page_locations(&locations, chunk_offset + 1_000_000)
            .is_err()
    );
    // Without an offset index, seeking is an error.
    let mut r = PageReader::new(chunk, CompressionCodec::Uncompressed, 15).unwrap();
    assert!(r.seek_to_row(0).is_err());
}

#[test]
fn expansion_bounds_follow_the_formats() {
    assert_eq!(
        max_decompressed_len(CompressionCodec::Snappy, 3),
        Some(3 * 22 + 64)
    );
    assert_eq!(
        max_decompressed_len(CompressionCodec::Gzip, 10),
        Some(10 * 1032 + 64)
    );
    assert_eq!(max_decompressed_len(CompressionCodec::Brotli, 10), None);
    assert_eq!(
        max_decompressed_len(CompressionCodec::Zstd, usize::MAX),
        Some(usize::MAX)
    );
}
