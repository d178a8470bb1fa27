//! The many-column writer report (`../shared/seeds/003_*.txt`): peak heap of a PARQUET_2_0 Arrow writer over 100, 1,000 or
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
//! `-- reads` measures instead the peak heap of Arrow reads (the mixed
//! table by codec; a 1M-row string column, dictionary encoded or PLAIN, by
//! distinct values, output type and batch size; files written by arrow-rs,
//! read whole by both) and of writing the mixed table by codec, one line
//! each: `peak_read impl=<impl> case=<case> peak=<bytes> ...` and
//! `peak_write_mixed impl=<impl> codec=<codec> peak=<bytes> ...`. These
//! run in one process: the counter counts the bytes asked for, which
//! earlier measurements do not disturb.
//!
//! Run without those arguments (as `cargo bench` and `--test` do), it
//! checks instead that both writers write 100 such columns that arrow-rs
//! reads back to the input.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

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

/// The Arrow read cases whose peak heap is measured (`read <impl> <case>`):
/// the mixed table by codec, and a dictionary-encoded (or PLAIN) string
/// column of 1M rows by distinct values, output type and batch size.
const READ_CASES: &[&str] = &[
    "mixed/uncompressed",
    "mixed/snappy",
    "mixed/zstd",
    "strings/1k/utf8/8192",
    "strings/1k/utf8/65536",
    "strings/1k/dict/65536",
    "strings/1k/utf8view/8192",
    "strings/1k/utf8view/65536",
    "strings/100k/utf8/65536",
    "strings/100k/utf8view/65536",
    "plain/100k/utf8/8192",
    "plain/100k/utf8view/8192",
];

/// The file and read of a case: arrow-rs writes the file (both readers
/// read the same bytes), the spec says how it is read.
fn read_case(case: &str) -> (bytes::Bytes, common::ReadSpec) {
    use parquet::basic::{Compression as Pq, ZstdLevel};
    let parts: Vec<&str> = case.split('/').collect();
    match parts.as_slice() {
        ["mixed", codec] => {
            let codec = match *codec {
                "uncompressed" => Pq::UNCOMPRESSED,
                "snappy" => Pq::SNAPPY,
                "zstd" => Pq::ZSTD(ZstdLevel::try_new(1).unwrap()),
                other => panic!("codec {other}"),
            };
            let file = common::arrow_rs_write(
                &common::mixed_table(),
                PqWriterProperties::builder().set_compression(codec).build(),
            );
            (
                bytes::Bytes::from(file),
                common::ReadSpec::batches_of(common::MIXED_BATCH),
            )
        }
        [kind @ ("strings" | "plain"), distinct, output, batch] => {
            let distinct: usize = distinct.trim_end_matches('k').parse::<usize>().unwrap() * 1000;
            let values = common::string_values(1 << 20, distinct);
            let batch_in = RecordBatch::try_from_iter([("s", values)]).unwrap();
            let props = PqWriterProperties::builder()
                .set_compression(parquet::basic::Compression::UNCOMPRESSED)
                .set_dictionary_enabled(*kind == "strings")
                .build();
            let file = common::arrow_rs_write(std::slice::from_ref(&batch_in), props);
            let dt = match *output {
                "utf8" => DataType::Utf8,
                "utf8view" => DataType::Utf8View,
                "dict" => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
                other => panic!("output {other}"),
            };
            let spec = common::ReadSpec {
                schema: Some(Arc::new(Schema::new(vec![Field::new("s", dt, false)]))),
                ..common::ReadSpec::batches_of(batch.parse().unwrap())
            };
            (bytes::Bytes::from(file), spec)
        }
        _ => panic!("unknown read case {case}"),
    }
}

/// Peak heap of reading `case` whole with `imp`, each batch dropped before
/// the next: counted from just before the reader is built (the file
/// already in memory), so the bytes are the reader's own and the batch it
/// hands out.
fn measure_read(imp: &str, case: &str) {
    let (file, spec) = read_case(case);
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut rows = 0;
    match imp {
        "strata" => common::strata_read(&file, &spec, |b| rows += b.num_rows()),
        "arrow-rs" => common::arrow_rs_read(&file, &spec, |b| rows += b.num_rows()),
        other => panic!("unknown implementation {other}"),
    }
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    assert!(rows > 0);
    println!(
        "peak_read impl={imp} case={case} peak={peak} file={} rows={rows}",
        file.len()
    );
}

/// Peak heap of writing the mixed table with `codec` (uncompressed, snappy
/// or zstd) with `imp`, from `try_new` to `close`, to a byte counter.
fn measure_write_mixed(imp: &str, codec: &str) {
    let batches = common::mixed_table();
    let mut out = ByteCount::default();
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    match imp {
        "strata" => {
            use strata_file::codec::{Compression, ZstdLevel};
            let codec = match codec {
                "uncompressed" => Compression::UNCOMPRESSED,
                "snappy" => Compression::SNAPPY,
                _ => Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
            };
            let props = WriterProperties::builder().set_compression(codec).build();
            let mut w =
                strata_arrow::ArrowWriter::try_new(&mut out, batches[0].schema(), Some(props))
                    .unwrap();
            for b in &batches {
                w.write(b).unwrap();
            }
            w.close().unwrap();
        }
        "arrow-rs" => {
            use parquet::basic::{Compression, ZstdLevel};
            let codec = match codec {
                "uncompressed" => Compression::UNCOMPRESSED,
                "snappy" => Compression::SNAPPY,
                _ => Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
            };
            let props = PqWriterProperties::builder().set_compression(codec).build();
            let mut w =
                parquet::arrow::ArrowWriter::try_new(&mut out, batches[0].schema(), Some(props))
                    .unwrap();
            for b in &batches {
                w.write(b).unwrap();
            }
            w.close().unwrap();
        }
        other => panic!("unknown implementation {other}"),
    }
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    println!(
        "peak_write_mixed impl={imp} codec={codec} peak={peak} file={}",
        out.0
    );
}

/// Every read case and the mixed-table writer with every codec, both
/// implementations, one line each (`reads`).
fn measure_reads() {
    for case in READ_CASES {
        for imp in ["strata", "arrow-rs"] {
            measure_read(imp, case);
        }
    }
    for codec in ["uncompressed", "snappy", "zstd"] {
        for imp in ["strata", "arrow-rs"] {
            measure_write_mixed(imp, codec);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if args.first().map(String::as_str) == Some("reads") {
        measure_reads();
        return;
    }
    match (
        args.first().map(String::as_str),
        args.get(1).map(|c| c.parse::<usize>()),
    ) {
        (Some(imp @ ("strata" | "arrow-rs")), Some(Ok(columns))) => measure(imp, columns),
        _ => check(),
    }
}
