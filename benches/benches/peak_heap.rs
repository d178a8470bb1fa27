//! Seed 003: peak heap of a PARQUET_2_0 Arrow writer over 100, 1,000 or
//! 10,000 nullable Utf8 columns, strata against arrow-rs.
//!
//! A counting global allocator tracks the bytes live and their peak, so
//! each measurement needs a process of its own: `cargo xtask bench` runs
//! `cargo bench --bench peak_heap -- <strata|arrow-rs> <columns>` once per
//! pair and reads the line this prints:
//!
//! `peak_heap impl=<impl> columns=<n> after_try_new=<bytes> peak=<bytes> file=<bytes>`
//!
//! Bytes are counted from just before `try_new` (the input batch already
//! built), so they are the writer's own: `after_try_new` live after
//! `try_new`, `peak` the most live at any point until `close` returned.
//! The writer writes to a byte counter, not to memory.
//!
//! Run without those two arguments (as `cargo bench` and `--test` do), it
//! checks instead that both writers write 100 such columns that arrow-rs
//! reads back to the input.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::file::properties::{
    WriterProperties as PqWriterProperties, WriterVersion as PqWriterVersion,
};
use strata_file::properties::{WriterProperties, WriterVersion};

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Ordering::Relaxed);
}

/// The system allocator, counting live bytes and their peak.
struct Counting;

// SAFETY: every method forwards its arguments unchanged to `System`, which
// upholds the `GlobalAlloc` contract; the counters only observe sizes and
// never touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `alloc` hold for `System`.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `alloc_zeroed` hold for `System`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` (through this allocator)
        // with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees for `realloc` hold for `System`,
        // which allocated `ptr`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Counts the bytes written and keeps none.
#[derive(Default)]
struct ByteCount(usize);

impl Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `columns` nullable Utf8 columns of 4 rows, each with a null in a
/// different place.
fn batch(columns: usize) -> RecordBatch {
    let fields: Vec<Field> = (0..columns)
        .map(|i| Field::new(format!("c{i}"), DataType::Utf8, true))
        .collect();
    let arrays: Vec<ArrayRef> = (0..columns)
        .map(|i| {
            let a: StringArray = (0..4)
                .map(|r| (r != i % 4).then(|| format!("value {i}/{r}")))
                .collect();
            Arc::new(a) as ArrayRef
        })
        .collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

fn strata_props() -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .build()
}

fn arrow_rs_props() -> PqWriterProperties {
    PqWriterProperties::builder()
        .set_writer_version(PqWriterVersion::PARQUET_2_0)
        .build()
}

/// Writes `batch` to `out` with one implementation; calls `after_try_new`
/// once the writer exists.
fn write<W: Write + Send>(imp: &str, batch: &RecordBatch, out: W, after_try_new: impl FnOnce()) {
    match imp {
        "strata" => {
            let mut w =
                strata_arrow::ArrowWriter::try_new(out, batch.schema(), Some(strata_props()))
                    .unwrap();
            after_try_new();
            w.write(batch).unwrap();
            w.close().unwrap();
        }
        "arrow-rs" => {
            let mut w =
                parquet::arrow::ArrowWriter::try_new(out, batch.schema(), Some(arrow_rs_props()))
                    .unwrap();
            after_try_new();
            w.write(batch).unwrap();
            w.close().unwrap();
        }
        other => panic!("unknown implementation {other}"),
    }
}

fn measure(imp: &str, columns: usize) {
    let input = batch(columns);
    let mut out = ByteCount::default();
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut after_try_new = 0;
    write(imp, &input, &mut out, || {
        after_try_new = LIVE.load(Ordering::Relaxed).saturating_sub(base)
    });
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    println!(
        "peak_heap impl={imp} columns={columns} after_try_new={after_try_new} peak={peak} file={}",
        out.0
    );
}

fn check() {
    let input = batch(100);
    for imp in ["strata", "arrow-rs"] {
        let mut file = Vec::new();
        write(imp, &input, &mut file, || {});
        let read: Vec<RecordBatch> =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
                bytes::Bytes::from(file),
            )
            .unwrap()
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            read,
            vec![input.clone()],
            "{imp}'s file read back by arrow-rs"
        );
    }
    println!("peak_heap: both writers checked; measure with <strata|arrow-rs> <columns>");
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    match (
        args.first().map(String::as_str),
        args.get(1).map(|c| c.parse::<usize>()),
    ) {
        (Some(imp @ ("strata" | "arrow-rs")), Some(Ok(columns))) => measure(imp, columns),
        _ => check(),
    }
}
