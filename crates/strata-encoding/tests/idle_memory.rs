//! Idle encoders hold no heap memory (the lesson of arrow-rs's 1 MiB
//! DELTA_BINARY_PACKED preallocation): checked both through `heap_size()`
//! and with a counting global allocator.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use strata_encoding::{
    ByteArray, ByteStreamSplitEncoder, DeltaBinaryPackedEncoder, DeltaByteArrayEncoder,
    DeltaLengthByteArrayEncoder, DictEncoder, Encoder, FixedLenByteArray, Int96, LevelEncoder,
    PlainByteArrayEncoder, PlainEncoder, RleBooleanEncoder,
};

mod support;

use support::{ThreadCounting, in_use};

#[global_allocator]
static ALLOC: ThreadCounting = ThreadCounting;

const N: usize = 10_000;
const ONE_MIB: isize = 1 << 20;

/// Build `N` idle encoders into a vector whose own storage is allocated
/// before measuring; return the heap the encoders themselves added.
fn heap_of_idle<E>(make: impl Fn() -> E) -> (isize, Vec<E>) {
    let mut encoders = Vec::with_capacity(N);
    let before = in_use();
    for _ in 0..N {
        encoders.push(make());
    }
    let after = in_use();
    (after - before, encoders)
}

#[test]
fn idle_delta_binary_packed_encoders_hold_no_heap() {
    let enc = DeltaBinaryPackedEncoder::<i64>::new();
    assert_eq!(enc.heap_size(), 0);
    let (heap, encoders) = heap_of_idle(DeltaBinaryPackedEncoder::<i64>::new);
    assert!(heap < ONE_MIB, "{N} idle encoders hold {heap} heap bytes");
    assert_eq!(heap, 0);
    assert_eq!(encoders.iter().map(|e| e.heap_size()).sum::<usize>(), 0);

    let (heap, _encoders) = heap_of_idle(DeltaBinaryPackedEncoder::<i32>::new);
    assert_eq!(heap, 0);

    // A custom layout allocates nothing either.
    let (heap, _encoders) =
        heap_of_idle(|| DeltaBinaryPackedEncoder::<i64>::with_layout(1024, 8).unwrap());
    assert_eq!(heap, 0);
}

#[test]
fn idle_delta_byte_array_encoders_hold_no_heap() {
    let enc = DeltaByteArrayEncoder::new();
    assert_eq!(enc.heap_size(), 0);
    let (heap, encoders) = heap_of_idle(DeltaByteArrayEncoder::new);
    assert!(heap < ONE_MIB, "{N} idle encoders hold {heap} heap bytes");
    assert_eq!(heap, 0);
    assert_eq!(encoders.iter().map(|e| e.heap_size()).sum::<usize>(), 0);

    let (heap, _encoders) = heap_of_idle(DeltaLengthByteArrayEncoder::new);
    assert_eq!(heap, 0);
}

#[test]
fn other_idle_encoders_hold_no_heap() {
    let (heap, _e) = heap_of_idle(PlainEncoder::<f64>::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(PlainByteArrayEncoder::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(ByteStreamSplitEncoder::<f32>::new);
    assert_eq!(heap, 0);
}

#[test]
fn delta_encoder_heap_is_lazy_bounded_and_reused() {
    let mut enc = DeltaBinaryPackedEncoder::<i64>::new();
    // The first value lives in the header: still nothing on the heap.
    enc.put(&[42]).unwrap();
    assert_eq!(enc.heap_size(), 0);
    // The second starts the block scratch: one block of deltas, not 1 MiB.
    enc.put(&[43]).unwrap();
    let first = enc.heap_size();
    assert!(first > 0 && first < 4096, "heap after two values: {first}");

    // Pages of the same shape reuse the allocations.
    let values: Vec<i64> = (0..10_000).map(|i| i * 7 % 1000).collect();
    let mut page = strata_sink::ByteSink::new();
    enc.put(&values).unwrap();
    enc.flush_into(&mut page).unwrap();
    let settled = enc.heap_size();
    let before = in_use();
    for _ in 0..5 {
        page.clear();
        enc.put(&values).unwrap();
        enc.flush_into(&mut page).unwrap();
    }
    assert_eq!(enc.heap_size(), settled);
    assert_eq!(in_use(), before);

    // A used DELTA_BYTE_ARRAY encoder keeps its scratch for the next page
    // and gives it all back when dropped.
    let before = in_use();
    let mut enc = DeltaByteArrayEncoder::new();
    enc.put(strata_encoding::ByteArrayBatch::from_slices(&[
        b"abc", b"abd",
    ]))
    .unwrap();
    assert!(enc.heap_size() > 0);
    drop(enc);
    assert_eq!(in_use(), before);
}

#[test]
fn idle_dictionary_encoders_hold_no_heap() {
    assert_eq!(DictEncoder::<ByteArray>::new().heap_size(), 0);
    let (heap, encoders) = heap_of_idle(DictEncoder::<ByteArray>::new);
    assert_eq!(
        heap, 0,
        "{N} idle byte-array dictionary encoders hold {heap} bytes"
    );
    assert_eq!(encoders.iter().map(|e| e.heap_size()).sum::<usize>(), 0);
    let (heap, _e) = heap_of_idle(DictEncoder::<ByteArray<i64>>::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(DictEncoder::<i32>::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(DictEncoder::<f64>::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(DictEncoder::<Int96>::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(|| DictEncoder::<FixedLenByteArray>::new(16).unwrap());
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(RleBooleanEncoder::new);
    assert_eq!(heap, 0);
    let (heap, _e) = heap_of_idle(|| LevelEncoder::new(3).unwrap());
    assert_eq!(heap, 0);
}

#[test]
fn dictionary_encoder_heap_is_reused_and_returned() {
    let values: Vec<&[u8]> = (0..5000)
        .map(|i| [&b"alpha"[..], b"beta", b"gamma"][i % 3])
        .collect();
    let batch = strata_encoding::ByteArrayBatch::from_slices(&values);
    let mut enc = DictEncoder::<ByteArray>::new();
    let mut page = strata_sink::ByteSink::new();
    enc.put(batch).unwrap();
    enc.flush_into(&mut page).unwrap();
    let settled = enc.heap_size();
    assert!(settled > 0);
    // Further pages of the same shape allocate nothing.
    let before = in_use();
    for _ in 0..5 {
        page.clear();
        enc.put(batch).unwrap();
        enc.flush_into(&mut page).unwrap();
    }
    assert_eq!(in_use(), before);
    assert_eq!(enc.heap_size(), settled);
    drop(enc);
    let before = in_use();
    let enc = DictEncoder::<ByteArray>::new();
    drop(enc);
    assert_eq!(in_use(), before);
}
