//! Idle column writers hold no heap memory: a row group of 10,000 columns
//! costs only the `Vec` holding its writers until data arrives.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod write_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use strata_file::properties::{WriterProperties, WriterVersion};
use strata_file::writer::{ColumnWriter, FileWriter};
use strata_format::metadata::{FieldRepetitionType as Rep, Type};
use write_support::*;

struct Counting;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
}

fn note(d: isize) {
    let _ = IN_USE.try_with(|c| c.set(c.get() + d));
}

// SAFETY: forwards every call unchanged to the system allocator; the
// counter is a thread-local cell that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            note(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn in_use() -> isize {
    IN_USE.with(Cell::get)
}

#[test]
fn ten_thousand_idle_column_writers() {
    const N: usize = 10_000;
    let types = [
        Type::Int32,
        Type::Int64,
        Type::ByteArray,
        Type::Double,
        Type::FixedLenByteArray,
        Type::Boolean,
    ];
    let mut elements = vec![root(N as i32)];
    for i in 0..N {
        elements.push(leaf(
            &format!("c{i}"),
            types[i % types.len()],
            Rep::Optional,
        ));
    }
    let schema = schema_from(&elements);
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let props = Arc::new(
            WriterProperties::builder()
                .set_writer_version(version)
                .build(),
        );
        let mut out = Vec::new();
        let mut fw = FileWriter::new(&mut out, schema.clone(), props).unwrap();
        let rg = fw.next_row_group().unwrap();

        let before = in_use();
        let writers = rg.column_writers().unwrap();
        let held = in_use() - before;
        let vec_bytes = (writers.capacity() * std::mem::size_of::<ColumnWriter>()) as isize;
        // Nothing beyond the Vec that holds them: no per-column heap.
        assert_eq!(held, vec_bytes);
        let all_idle = writers.iter().all(|w| w.memory_size() == 0);
        drop(writers);
        let after_drop = in_use() - before;
        // Report only now: printing allocates (the test harness captures).
        eprintln!(
            "{version:?}: {N} idle column writers hold {held} heap bytes \
             ({vec_bytes} of them the Vec of {}-byte writers)",
            std::mem::size_of::<ColumnWriter>()
        );
        assert!(all_idle);
        assert_eq!(after_drop, 0);
    }
}

#[test]
fn a_written_writer_grows_with_its_data_only() {
    let schema = schema_from(&[root(1), leaf("x", Type::Int64, Rep::Required)]);
    let props = Arc::new(
        WriterProperties::builder()
            .set_dictionary_enabled(false)
            .build(),
    );
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, props).unwrap();
    let mut rg = fw.next_row_group().unwrap();
    let mut w = rg.next_column().unwrap().unwrap();
    let before = in_use();
    w.typed::<i64>()
        .unwrap()
        .write_batch(&[1, 2, 3], None, None)
        .unwrap();
    let small = in_use() - before;
    // A few values: well under a kilobyte per buffer, nothing sized by a
    // page limit up front.
    assert!(small < 8 * 1024, "{small} bytes for three values");
    assert!(w.memory_size() > 0);
}
