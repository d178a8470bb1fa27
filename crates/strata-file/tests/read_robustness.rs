//! Hostile input: the `bad_data` files of the corpus, and deterministic
//! mutations (truncations, bit flips, byte overwrites) of real files. Every
//! read must return `Ok` or `Err` — never panic or hang — and must not
//! allocate more than a bounded multiple of the file's size.
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`;
//! when it is absent these tests print "skipped" and pass.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use bytes::Bytes;
use corpus_support::{corpus_root, parquet_files, read_column};
use strata_file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
use strata_file::properties::ReaderProperties;
use strata_file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};

/// Open `file` with reader properties `props`.
fn open_with<R: strata_file::chunk_reader::ChunkReader>(
    file: R,
    props: ReaderProperties,
) -> Result<SerializedFileReader<R>, strata_file::FileError> {
    let options = ReadOptionsBuilder::new()
        .with_reader_properties(props)
        .build();
    SerializedFileReader::new_with_options(file, options)
}

/// Counts the heap bytes in use by the current thread, and their peak.
struct ThreadCounting;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note(delta: isize) {
    let _ = IN_USE.try_with(|c| {
        let v = c.get() + delta;
        c.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are thread-local cells that never allocate.
unsafe impl GlobalAlloc for ThreadCounting {
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
static ALLOCATOR: ThreadCounting = ThreadCounting;

/// Run `f` and return its result with the peak heap growth (bytes) on this
/// thread while it ran.
fn peak_growth<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = IN_USE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, (PEAK.with(Cell::get) - base).max(0) as usize)
}

/// Open `file` and read every page of every column down to decoded values;
/// the first error ends the read. Returns whether everything read.
fn read_everything(file: Bytes, options: ReaderProperties) -> bool {
    // The metadata reader follows the same untrusted lengths and page index
    // offsets, in its own way (one prefetched suffix, one read of all
    // indexes): errors, never panics.
    for (policy, hint) in [
        (PageIndexPolicy::Required, None),
        (PageIndexPolicy::Optional, Some(4096)),
    ] {
        let _ = ParquetMetaDataReader::new()
            .with_page_index_policy(policy)
            .with_prefetch_hint(hint)
            .parse_and_finish(&file);
    }
    let Ok(reader) = open_with(file, options) else {
        return false;
    };
    let mut ok = true;
    for i in 0..reader.num_row_groups() {
        let Ok(row_group) = reader.row_group(i) else {
            return false;
        };
        for j in 0..row_group.num_columns() {
            ok &= read_column(&row_group, j, false).is_ok();
            // Page indexes and Bloom filters are read from untrusted offsets too.
            let _ = row_group.column_index(j);
            let _ = row_group.offset_index(j);
            let _ = row_group.bloom_filter(j);
            if let Ok(pages) = row_group.indexed_page_reader(j) {
                ok &= pages.into_iter().all(|p| p.is_ok());
            }
        }
    }
    ok
}

#[test]
fn bad_data_files_error_or_read_without_panicking() {
    let Some(root) = corpus_root("bad_data") else {
        return;
    };
    let files = parquet_files(&root.join("bad_data"));
    assert!(files.len() >= 8);
    for path in files {
        let bytes = Bytes::from(std::fs::read(&path).unwrap());
        let start = Instant::now();
        let verified = ReaderProperties::builder()
            .set_page_crc_verification(true)
            .build();
        let ok = read_everything(bytes.clone(), verified);
        // Through a real file handle too.
        let file = std::fs::File::open(&path).unwrap();
        if let Ok(reader) = SerializedFileReader::new(file) {
            for i in 0..reader.num_row_groups() {
                if let Ok(row_group) = reader.row_group(i) {
                    for j in 0..row_group.num_columns() {
                        let _ = read_column(&row_group, j, false);
                    }
                }
            }
        }
        let elapsed = start.elapsed();
        println!(
            "{}: {} in {elapsed:?}",
            path.file_name().unwrap().to_string_lossy(),
            if ok { "read" } else { "error" }
        );
        assert!(
            elapsed < Duration::from_secs(5),
            "{path:?} took {elapsed:?}"
        );
    }
}

/// xorshift64: deterministic, seedable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One corruption of `file`: a truncation, bit flips, or byte overwrites;
/// half of the edits land in the last quarter (footer and page indexes).
fn mutate(file: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = file.to_vec();
    let len = out.len();
    let position = |rng: &mut Rng| {
        if rng.next().is_multiple_of(2) {
            len - 1 - rng.below(len / 4)
        } else {
            rng.below(len)
        }
    };
    match rng.next() % 4 {
        0 => {
            let keep = rng.below(len);
            out.truncate(keep);
        }
        1 => {
            for _ in 0..1 + rng.below(4) {
                let at = position(rng);
                out[at] ^= 1 << rng.below(8);
            }
        }
        2 => {
            let value = [0x00, 0xff, 0x7f, 0x80][rng.below(4)];
            for _ in 0..1 + rng.below(3) {
                let at = position(rng);
                out[at] = value;
            }
        }
        _ => {
            // A truncated middle: pages shift against their offsets.
            let from = rng.below(len);
            let to = (from + 1 + rng.below(64)).min(len);
            out.drain(from..to);
        }
    }
    out
}

/// Peak heap during one read may not exceed this multiple of the file's
/// size plus [`ALLOCATION_SLACK`]: decompressed pages of these snappy and
/// uncompressed files are bounded by 22x their stored size, and metadata
/// structs are larger than their encoding.
const ALLOCATION_FACTOR: usize = 64;
/// Fixed allowance for per-read buffers (decoder batches, codec state).
const ALLOCATION_SLACK: usize = 1 << 20;

#[test]
fn mutated_files_never_panic_and_allocate_boundedly() {
    let Some(root) = corpus_root("mutations") else {
        return;
    };
    let names = [
        "alltypes_plain.parquet",
        "alltypes_plain.snappy.parquet",
        "nulls.snappy.parquet",
        "datapage_v2.snappy.parquet",
        "int32_with_null_pages.parquet",
        "delta_encoding_optional_column.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
    ];
    const CASES_PER_FILE: usize = 250;
    let start = Instant::now();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut total, mut read_ok, mut worst_ratio) = (0, 0, 0.0f64);
    for name in names {
        let original = std::fs::read(root.join("data").join(name)).unwrap();
        assert!(read_everything(
            Bytes::from(original.clone()),
            ReaderProperties::default()
        ));
        for case in 0..CASES_PER_FILE {
            let mutated = mutate(&original, &mut rng);
            let len = mutated.len();
            let verify = case % 2 == 0;
            let file = Bytes::from(mutated);
            let (ok, peak) = peak_growth(|| {
                read_everything(
                    file,
                    ReaderProperties::builder()
                        .set_page_crc_verification(verify)
                        .build(),
                )
            });
            let bound = ALLOCATION_FACTOR * original.len() + ALLOCATION_SLACK;
            assert!(
                peak <= bound,
                "{name} case {case}: peak heap {peak} bytes for a {len}-byte file (bound {bound})"
            );
            worst_ratio = worst_ratio.max(peak as f64 / original.len() as f64);
            total += 1;
            read_ok += usize::from(ok);
        }
    }
    let elapsed = start.elapsed();
    println!(
        "{total} mutations: {read_ok} read in full, {} failed cleanly; worst peak heap {worst_ratio:.1}x the file size; {elapsed:?}",
        total - read_ok
    );
    assert!(total >= 2000);
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
}
