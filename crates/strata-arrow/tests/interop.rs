//! Interoperability with real peers: pyarrow and DuckDB, run as Python
//! subprocesses (scripts under `tests/interop/`).
//!
//! - [`strata_writes_peers_read`]: strata writes a matrix of tables (every
//!   supported Arrow type, nesting, null patterns, codecs, writer versions,
//!   dictionary on/off, tiny pages and row groups) plus the same batches as
//!   an Arrow IPC file; pyarrow and DuckDB read each Parquet file and
//!   compare it with the IPC file.
//! - [`peers_write_strata_reads`]: pyarrow and DuckDB write files with many
//!   options plus their own reading as IPC; strata reads each Parquet file
//!   and compares the batches with the IPC.
//! - [`corpus_matches_pyarrow`]: strata reads every non-encrypted file of
//!   `shared/parquet-testing/data` and writes its reading as IPC; pyarrow
//!   reads the same file and compares.
//! - [`byte_array_annotations_read_as_peers_read`],
//!   [`second_units_round_trip_in_strata_files_only`],
//!   [`embedded_schema_units_follow_the_annotation`] and
//!   [`coerce_types_with_and_without`]: ENUM/JSON/BSON annotations, time
//!   units under an embedded Arrow schema, and `set_coerce_types`, each
//!   checked in strata and, with a Python, against pyarrow and DuckDB
//!   (`read_columns.py`).
//!
//! The interpreter is `$STRATA_PYTHON` (CI sets it to a venv with pyarrow
//! and duckdb; it is an error if it cannot import them), else `python3` if
//! it can import both, else the tests are skipped with a message.
//!
//! Every failure must either be fixed or listed in one of the
//! known-differences tables below, with a reason.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;
mod python_peers;

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::BufWriter;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use arrow_array::builder::{
    Int32Builder, Int64Builder, ListBuilder, MapBuilder, MapFieldNames, StringBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::*;
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer, i256};
use arrow_data::ArrayData;
use arrow_ipc::reader::FileReader as IpcReader;
use arrow_ipc::writer::FileWriter as IpcWriter;
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use corpus_support::corpus_files;
use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata_arrow::{ArrowWriter, ProjectionMask};
use strata_file::codec::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use strata_file::properties::{WriterProperties, WriterVersion};
use strata_format::SchemaDescriptor;
use strata_format::metadata::{
    ConvertedType, FieldRepetitionType as Repetition, KeyValue, LogicalType, SchemaElement,
    TimeType, TimestampType, Type as PhysicalType,
};

// ---------------------------------------------------------------------------
// Known differences. Each entry: (case or file name, peer, reason). A
// result that fails and is not listed fails the test; a listed entry that
// passes is reported as stale.
// ---------------------------------------------------------------------------

/// Part a: (substring of the case name, peer, column name prefix, reason).
const KNOWN_A: &[(&str, &str, &str, &str)] = &[];

/// Part b: (substring of the file name, column or "*", reason).
const KNOWN_B: &[(&str, &str, &str)] = &[(
    "duckdb_v2_uinteger",
    "u32",
    "peer bug: DuckDB 2.0 with PARQUET_VERSION V2 writes a UINTEGER column (INT32, \
         DELTA_BINARY_PACKED) with 33-bit miniblocks; strata rejects it ('miniblock bit width \
         33 exceeds 32') as pyarrow does ('delta bit width larger than integer bit width')",
)];

/// Part c: (corpus file relative path, reason).
const KNOWN_C: &[(&str, &str)] = &[
    (
        "large_string_map.brotli.parquet",
        "strata limitation: its pages hold 1 GiB + 4 bytes uncompressed (one 2^30-byte string \
         each), over strata's 1 GiB page cap ('declares 1073741828 uncompressed bytes, more \
         than the 1073741824 allowed'). pyarrow is not run on it (it needs 4+ GB and ~20 s, \
         then fails too: 'Nested data conversions not implemented for chunked array outputs')",
    ),
    (
        "nation.dict-malformed.parquet",
        "deliberately malformed file (a page header declares 28 compressed bytes where 13 \
         remain in the chunk): strata rejects it with an error, pyarrow tolerates it",
    ),
];

// ---------------------------------------------------------------------------
// Python discovery and helpers
// ---------------------------------------------------------------------------

fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// The interpreter to use, or `None` (with a printed message) to skip.
fn python() -> Option<PathBuf> {
    python_peers::find_python("interop", &["pyarrow", "duckdb"], &["pyarrow", "duckdb"])
}

/// Runs `script args...`, returning stdout; panics with stderr on failure.
fn run_python(py: &Path, script: &str, args: &[&Path]) -> String {
    let out = Command::new(py)
        .arg(scripts_dir().join(script))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !stderr.trim().is_empty() {
        eprintln!("--- {script} stderr ---\n{stderr}");
    }
    assert!(
        out.status.success(),
        "{script} failed ({}): {stderr}",
        out.status
    );
    String::from_utf8(out.stdout).expect("script output is UTF-8")
}

/// A fresh directory under the system temp dir.
fn work_dir(part: &str) -> PathBuf {
    python_peers::fresh_dir(&format!("interop-{part}"))
}

/// Lines `RESULT\t<f1>\t<f2>...` of a script's output, split on tabs.
fn results(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT\t"))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn write_ipc(path: &Path, schema: &SchemaRef, batches: &[RecordBatch]) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut w = IpcWriter::try_new(BufWriter::new(file), schema).map_err(|e| e.to_string())?;
    for b in batches {
        w.write(b).map_err(|e| e.to_string())?;
    }
    w.finish().map_err(|e| e.to_string())
}

fn read_ipc(path: &Path) -> RecordBatch {
    let r = IpcReader::try_new(File::open(path).unwrap(), None).unwrap();
    let schema = r.schema();
    let batches: Vec<_> = r.collect::<Result<_, _>>().unwrap();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// Reads a whole Parquet file with strata into one batch, in batches of
/// `batch_size` rows.
fn strata_read_batched(path: &Path, batch_size: usize) -> Result<RecordBatch, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
    let schema = builder.schema().clone();
    let reader = builder
        .with_batch_size(batch_size)
        .build()
        .map_err(|e| e.to_string())?;
    let batches: Vec<RecordBatch> = reader
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    arrow_select::concat::concat_batches(&schema, &batches).map_err(|e| e.to_string())
}

/// Reads a whole Parquet file with strata in batches of 1000 rows, and
/// again in batches of 37 rows (batch boundaries inside pages, lists and
/// row groups), which must give the same data.
fn strata_read(path: &Path) -> Result<RecordBatch, String> {
    let batch = strata_read_batched(path, 1000)?;
    let small = strata_read_batched(path, 37)?;
    compare(&batch, &small)
        .map_err(|e| format!("reading in batches of 37 rows differs from batches of 1000: {e}"))?;
    Ok(batch)
}

/// [`strata_read`] with panics caught and reported as `Err("PANIC: ..")`.
fn strata_read_catching(path: &Path) -> Result<RecordBatch, String> {
    match catch_unwind(AssertUnwindSafe(|| strata_read(path))) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "PANIC: {}",
            python_peers::panic_message(p.as_ref())
        )),
    }
}

// ---------------------------------------------------------------------------
// Deterministic data generation driven by the Arrow type
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Nulls {
    None,
    Some,
    All,
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo) as u64)) as i64
    }
}

fn validity(n: usize, nulls: Nulls, g: &mut Rng) -> Option<NullBuffer> {
    match nulls {
        Nulls::None => None,
        Nulls::All => Some(NullBuffer::new_null(n)),
        Nulls::Some => Some(NullBuffer::from_iter((0..n).map(|_| g.below(5) != 0))),
    }
}

fn gen_string(g: &mut Rng) -> String {
    const PIECES: &[&str] = &[
        "a",
        "b",
        "xyz",
        "é",
        "漢字",
        "🦀",
        " ",
        "0",
        "Z",
        "long-ish-",
    ];
    let len = match g.below(10) {
        0 => 0,
        1 => 20 + g.below(20),
        _ => g.below(6),
    };
    (0..len)
        .map(|_| PIECES[g.below(PIECES.len() as u64) as usize])
        .collect()
}

fn gen_bytes(g: &mut Rng) -> Vec<u8> {
    let len = match g.below(10) {
        0 => 0,
        1 => 13 + g.below(20),
        _ => g.below(8),
    };
    (0..len).map(|_| g.next() as u8).collect()
}

fn opts<T>(n: usize, v: &Option<NullBuffer>, mut f: impl FnMut() -> T) -> Vec<Option<T>> {
    (0..n)
        .map(|i| {
            let x = f();
            v.as_ref().is_none_or(|v| v.is_valid(i)).then_some(x)
        })
        .collect()
}

fn pow10(p: u32) -> i128 {
    10i128.pow(p)
}

fn gen_decimal(g: &mut Rng, p: u8) -> i256 {
    let neg = g.below(2) == 0;
    let lo = (((g.next() as u128) << 64 | g.next() as u128) % pow10(u32::from(p.min(38))) as u128)
        as i128;
    let v = if p > 38 {
        let hi = (g.next() as i128).rem_euclid(pow10(u32::from(p) - 38));
        i256::from_i128(hi)
            .wrapping_mul(i256::from_i128(pow10(38)))
            .wrapping_add(i256::from_i128(lo))
    } else {
        i256::from_i128(lo)
    };
    if neg { v.wrapping_neg() } else { v }
}

fn gen_f64(g: &mut Rng) -> f64 {
    match g.below(20) {
        0 => f64::INFINITY,
        1 => f64::NEG_INFINITY,
        2 => 0.0,
        3 => f64::MAX,
        4 => f64::MIN_POSITIVE,
        _ => (g.next() as i64 as f64) / 1e9,
    }
}

fn offsets_and_len(n: usize, v: &Option<NullBuffer>, g: &mut Rng) -> (Vec<usize>, usize) {
    let lens: Vec<usize> = (0..n)
        .map(|i| {
            let l = g.below(5) as usize;
            if v.as_ref().is_none_or(|v| v.is_valid(i)) {
                l
            } else {
                0
            }
        })
        .collect();
    let total = lens.iter().sum();
    (lens, total)
}

/// An array for `field` of `n` rows; non-nullable fields never get nulls.
fn gen_field(field: &Field, n: usize, nulls: Nulls, g: &mut Rng) -> ArrayRef {
    let nulls = if field.is_nullable() {
        nulls
    } else {
        Nulls::None
    };
    gen_type(field.data_type(), n, nulls, g)
}

fn gen_type(dt: &DataType, n: usize, nulls: Nulls, g: &mut Rng) -> ArrayRef {
    let v = validity(n, nulls, g);
    macro_rules! prim {
        ($t:ty, $e:expr) => {{
            let vals: Vec<<$t as ArrowPrimitiveType>::Native> = (0..n).map(|_| $e).collect();
            Arc::new(
                PrimitiveArray::<$t>::new(ScalarBuffer::from(vals), v).with_data_type(dt.clone()),
            ) as ArrayRef
        }};
    }
    // Timestamps between 1900 and 2200, in `per_s` units per second.
    let ts = |g: &mut Rng, per_s: i64| {
        g.range(-2_208_988_800, 7_258_118_400) * per_s + g.range(0, per_s)
    };
    match dt {
        DataType::Null => Arc::new(NullArray::new(n)),
        DataType::Boolean => Arc::new(BooleanArray::new(
            BooleanBuffer::from_iter((0..n).map(|_| g.below(2) == 0)),
            v,
        )),
        DataType::Int8 => prim!(Int8Type, g.next() as i8),
        DataType::Int16 => prim!(Int16Type, g.next() as i16),
        DataType::Int32 => prim!(Int32Type, g.next() as i32),
        DataType::Int64 => prim!(Int64Type, g.next() as i64),
        DataType::UInt8 => prim!(UInt8Type, g.next() as u8),
        DataType::UInt16 => prim!(UInt16Type, g.next() as u16),
        DataType::UInt32 => prim!(UInt32Type, g.next() as u32),
        DataType::UInt64 => prim!(UInt64Type, g.next()),
        DataType::Float16 => {
            // Random bit patterns, never NaN or infinite (exponent all ones).
            let bits: Vec<u16> = (0..n)
                .map(|_| {
                    let b = g.next() as u16;
                    if (b >> 10) & 0x1f == 0x1f {
                        b & !0x4000
                    } else {
                        b
                    }
                })
                .collect();
            let buf = ScalarBuffer::<F16>::new(Buffer::from_vec(bits), 0, n);
            Arc::new(Float16Array::new(buf, v))
        }
        DataType::Float32 => prim!(Float32Type, gen_f64(g) as f32),
        DataType::Float64 => prim!(Float64Type, gen_f64(g)),
        DataType::Decimal32(p, _) => prim!(Decimal32Type, gen_decimal(g, *p).as_i128() as i32),
        DataType::Decimal64(p, _) => prim!(Decimal64Type, gen_decimal(g, *p).as_i128() as i64),
        DataType::Decimal128(p, _) => prim!(Decimal128Type, gen_decimal(g, *p).as_i128()),
        DataType::Decimal256(p, _) => prim!(Decimal256Type, gen_decimal(g, *p)),
        DataType::Date32 => prim!(Date32Type, g.range(-40_000, 80_000) as i32),
        DataType::Date64 => prim!(Date64Type, g.range(-40_000, 80_000) * 86_400_000),
        DataType::Time32(TimeUnit::Second) => prim!(Time32SecondType, g.range(0, 86_400) as i32),
        DataType::Time32(_) => prim!(Time32MillisecondType, g.range(0, 86_400_000) as i32),
        DataType::Time64(TimeUnit::Microsecond) => {
            prim!(Time64MicrosecondType, g.range(0, 86_400_000_000))
        }
        DataType::Time64(_) => prim!(Time64NanosecondType, g.range(0, 86_400_000_000_000)),
        DataType::Timestamp(TimeUnit::Second, _) => prim!(TimestampSecondType, ts(g, 1)),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            prim!(TimestampMillisecondType, ts(g, 1_000))
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            prim!(TimestampMicrosecondType, ts(g, 1_000_000))
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            // i64 nanoseconds only span 1677..2262.
            prim!(
                TimestampNanosecondType,
                g.range(-9_000_000_000, 9_000_000_000) * 1_000_000_000 + g.range(0, 1_000_000_000)
            )
        }
        DataType::Duration(TimeUnit::Second) => {
            prim!(DurationSecondType, g.range(-1 << 40, 1 << 40))
        }
        DataType::Duration(TimeUnit::Millisecond) => {
            prim!(DurationMillisecondType, g.range(-1 << 45, 1 << 45))
        }
        DataType::Duration(TimeUnit::Microsecond) => {
            prim!(DurationMicrosecondType, g.range(-1 << 50, 1 << 50))
        }
        DataType::Duration(TimeUnit::Nanosecond) => {
            prim!(DurationNanosecondType, g.range(-1 << 60, 1 << 60))
        }
        DataType::Utf8 => Arc::new(StringArray::from(opts(n, &v, || gen_string(g)))),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(opts(n, &v, || gen_string(g)))),
        DataType::Utf8View => Arc::new(StringViewArray::from_iter(opts(n, &v, || gen_string(g)))),
        DataType::Binary => Arc::new(BinaryArray::from_iter(opts(n, &v, || gen_bytes(g)))),
        DataType::LargeBinary => {
            Arc::new(LargeBinaryArray::from_iter(opts(n, &v, || gen_bytes(g))))
        }
        DataType::BinaryView => Arc::new(BinaryViewArray::from_iter(opts(n, &v, || gen_bytes(g)))),
        DataType::FixedSizeBinary(w) => {
            let bytes: Vec<u8> = (0..n * *w as usize).map(|_| g.next() as u8).collect();
            Arc::new(FixedSizeBinaryArray::new(*w, Buffer::from_vec(bytes), v))
        }
        DataType::Dictionary(k, values) => {
            let d = 1 + g.below(12) as usize;
            let values = gen_type(values, d, Nulls::None, g);
            macro_rules! dict {
                ($kt:ty) => {{
                    let keys: Vec<<$kt as ArrowPrimitiveType>::Native> =
                        (0..n).map(|_| g.below(d as u64) as _).collect();
                    let keys = PrimitiveArray::<$kt>::new(ScalarBuffer::from(keys), v);
                    Arc::new(DictionaryArray::<$kt>::try_new(keys, values).unwrap()) as ArrayRef
                }};
            }
            match k.as_ref() {
                DataType::Int8 => dict!(Int8Type),
                DataType::Int16 => dict!(Int16Type),
                DataType::Int32 => dict!(Int32Type),
                DataType::Int64 => dict!(Int64Type),
                DataType::UInt8 => dict!(UInt8Type),
                DataType::UInt16 => dict!(UInt16Type),
                DataType::UInt32 => dict!(UInt32Type),
                DataType::UInt64 => dict!(UInt64Type),
                other => panic!("dictionary key {other}"),
            }
        }
        DataType::List(f) => {
            let (lens, total) = offsets_and_len(n, &v, g);
            let child = gen_field(f, total, nulls, g);
            Arc::new(
                ListArray::try_new(f.clone(), OffsetBuffer::from_lengths(lens), child, v).unwrap(),
            )
        }
        DataType::LargeList(f) => {
            let (lens, total) = offsets_and_len(n, &v, g);
            let child = gen_field(f, total, nulls, g);
            Arc::new(
                LargeListArray::try_new(f.clone(), OffsetBuffer::from_lengths(lens), child, v)
                    .unwrap(),
            )
        }
        DataType::FixedSizeList(f, size) => {
            let child = gen_field(f, n * *size as usize, nulls, g);
            Arc::new(FixedSizeListArray::try_new(f.clone(), *size, child, v).unwrap())
        }
        DataType::Struct(fields) => {
            let children = fields.iter().map(|f| gen_field(f, n, nulls, g)).collect();
            Arc::new(StructArray::try_new(fields.clone(), children, v).unwrap())
        }
        DataType::Map(entries, sorted) => {
            let (lens, total) = offsets_and_len(n, &v, g);
            let DataType::Struct(kv) = entries.data_type() else {
                panic!("map entries")
            };
            // Keys are unique within each map (DuckDB insists).
            let mut keys_pos = Vec::with_capacity(total);
            for &l in &lens {
                let base = g.below(1000) as usize;
                keys_pos.extend((0..l).map(|j| base * 10 + j));
            }
            let keys: ArrayRef = match kv[0].data_type() {
                DataType::Utf8 => Arc::new(StringArray::from_iter_values(
                    keys_pos.iter().map(|k| format!("k{k}")),
                )),
                DataType::Int32 => Arc::new(Int32Array::from_iter_values(
                    keys_pos.iter().map(|&k| k as i32),
                )),
                other => panic!("map key {other}"),
            };
            let values = gen_field(&kv[1], total, nulls, g);
            let entries_arr = StructArray::try_new(kv.clone(), vec![keys, values], None).unwrap();
            Arc::new(
                MapArray::try_new(
                    entries.clone(),
                    OffsetBuffer::from_lengths(lens),
                    entries_arr,
                    v,
                    *sorted,
                )
                .unwrap(),
            )
        }
        other => panic!("no generator for {other}"),
    }
}

type F16 = <Float16Type as ArrowPrimitiveType>::Native;

fn gen_batch(schema: &SchemaRef, n: usize, nulls: Nulls, seed: u64) -> RecordBatch {
    let mut g = Rng(seed);
    let cols = schema
        .fields()
        .iter()
        .map(|f| gen_field(f, n, nulls, &mut g))
        .collect();
    RecordBatch::try_new(schema.clone(), cols).unwrap()
}

// ---------------------------------------------------------------------------
// Schemas of the matrix
// ---------------------------------------------------------------------------

fn f(name: &str, dt: DataType) -> Field {
    Field::new(name, dt, true)
}

fn item(dt: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", dt, true))
}

fn map_type(key: DataType, value: DataType) -> DataType {
    DataType::Map(
        Arc::new(Field::new(
            "entries",
            DataType::Struct(Fields::from(vec![
                Field::new("keys", key, false),
                Field::new("values", value, true),
            ])),
            false,
        )),
        false,
    )
}

fn primitive_fields() -> Vec<Field> {
    use DataType as D;
    use TimeUnit as U;
    let dict = |k: D, v: D| D::Dictionary(Box::new(k), Box::new(v));
    vec![
        f("null", D::Null),
        f("bool", D::Boolean),
        f("i8", D::Int8),
        f("i16", D::Int16),
        f("i32", D::Int32),
        f("i64", D::Int64),
        f("u8", D::UInt8),
        f("u16", D::UInt16),
        f("u32", D::UInt32),
        f("u64", D::UInt64),
        f("f16", D::Float16),
        f("f32", D::Float32),
        f("f64", D::Float64),
        f("dec32_9_2", D::Decimal32(9, 2)),
        f("dec64_18_4", D::Decimal64(18, 4)),
        f("dec128_5_2", D::Decimal128(5, 2)),
        f("dec128_15_3", D::Decimal128(15, 3)),
        f("dec128_38_10", D::Decimal128(38, 10)),
        f("dec256_40_5", D::Decimal256(40, 5)),
        f("dec256_76_20", D::Decimal256(76, 20)),
        f("date32", D::Date32),
        f("date64", D::Date64),
        f("time32_s", D::Time32(U::Second)),
        f("time32_ms", D::Time32(U::Millisecond)),
        f("time64_us", D::Time64(U::Microsecond)),
        f("time64_ns", D::Time64(U::Nanosecond)),
        f("ts_s", D::Timestamp(U::Second, None)),
        f("ts_ms", D::Timestamp(U::Millisecond, None)),
        f("ts_us", D::Timestamp(U::Microsecond, None)),
        f("ts_ns", D::Timestamp(U::Nanosecond, None)),
        f("ts_s_utc", D::Timestamp(U::Second, Some("UTC".into()))),
        f(
            "ts_ms_utc",
            D::Timestamp(U::Millisecond, Some("UTC".into())),
        ),
        f(
            "ts_us_utc",
            D::Timestamp(U::Microsecond, Some("UTC".into())),
        ),
        f(
            "ts_ns_p0530",
            D::Timestamp(U::Nanosecond, Some("+05:30".into())),
        ),
        f(
            "ts_us_ny",
            D::Timestamp(U::Microsecond, Some("America/New_York".into())),
        ),
        f("dur_s", D::Duration(U::Second)),
        f("dur_ms", D::Duration(U::Millisecond)),
        f("dur_us", D::Duration(U::Microsecond)),
        f("dur_ns", D::Duration(U::Nanosecond)),
        f("utf8", D::Utf8),
        f("large_utf8", D::LargeUtf8),
        f("utf8_view", D::Utf8View),
        f("binary", D::Binary),
        f("large_binary", D::LargeBinary),
        f("binary_view", D::BinaryView),
        f("fsb5", D::FixedSizeBinary(5)),
        f("dict_i32_utf8", dict(D::Int32, D::Utf8)),
        f("dict_i8_binary", dict(D::Int8, D::Binary)),
        f("dict_u16_i64", dict(D::UInt16, D::Int64)),
        f("dict_i64_large_utf8", dict(D::Int64, D::LargeUtf8)),
        f("dict_i16_utf8", dict(D::Int16, D::Utf8)),
        f("dict_u8_utf8", dict(D::UInt8, D::Utf8)),
        f("dict_u32_f64", dict(D::UInt32, D::Float64)),
        f("dict_u64_binary", dict(D::UInt64, D::Binary)),
        Field::new("req_i32", D::Int32, false),
        Field::new("req_utf8", D::Utf8, false),
        Field::new("req_f64", D::Float64, false),
    ]
}

fn nested_fields() -> Vec<Field> {
    use DataType as D;
    let sxy = D::Struct(Fields::from(vec![f("x", D::Int64), f("y", D::Utf8)]));
    vec![
        f("list_i32", D::List(item(D::Int32))),
        f("large_list_utf8", D::LargeList(item(D::Utf8))),
        f("fsl_f64_3", D::FixedSizeList(item(D::Float64), 3)),
        f(
            "struct_ab",
            D::Struct(Fields::from(vec![f("a", D::Int32), f("b", D::Utf8)])),
        ),
        f("list_struct", D::List(item(sxy))),
        f(
            "struct_list",
            D::Struct(Fields::from(vec![
                f("l", D::List(item(D::Int32))),
                f("s", D::Struct(Fields::from(vec![f("z", D::Boolean)]))),
            ])),
        ),
        f("map_utf8_i32", map_type(D::Utf8, D::Int32)),
        f("map_i32_list", map_type(D::Int32, D::List(item(D::Utf8)))),
        f("list_list_i32", D::List(item(D::List(item(D::Int32))))),
        f("list_map", D::List(item(map_type(D::Utf8, D::Float64)))),
        f(
            "list_ts_utc",
            D::List(item(D::Timestamp(
                TimeUnit::Microsecond,
                Some("UTC".into()),
            ))),
        ),
        f("list_dec", D::List(item(D::Decimal128(20, 4)))),
        f("list_utf8_view", D::List(item(D::Utf8View))),
        Field::new(
            "req_list",
            D::List(Arc::new(Field::new("item", D::Int32, false))),
            false,
        ),
        f(
            "struct_req",
            D::Struct(Fields::from(vec![
                Field::new("req", D::Int32, false),
                f("opt", D::Utf8),
            ])),
        ),
    ]
}

// ---------------------------------------------------------------------------
// Part a: strata writes, peers read
// ---------------------------------------------------------------------------

struct Case {
    name: String,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
    props: WriterProperties,
}

fn codecs() -> Vec<(&'static str, Compression)> {
    vec![
        ("uncompressed", Compression::UNCOMPRESSED),
        ("snappy", Compression::SNAPPY),
        ("gzip", Compression::GZIP(GzipLevel::default())),
        ("zstd", Compression::ZSTD(ZstdLevel::try_new(3).unwrap())),
        ("lz4_raw", Compression::LZ4_RAW),
        ("brotli", Compression::BROTLI(BrotliLevel::default())),
    ]
}

/// Edge cases the type-driven generator does not make: dictionary values
/// with nulls, NUL bytes and 100 KB strings (values larger than a page),
/// three-level nesting, a sorted map, a required struct of required fields.
fn edge_batch(n: usize, seed: u64) -> RecordBatch {
    use DataType as D;
    let mut g = Rng(seed);
    let dict_values = StringArray::from(vec![Some("x"), None, Some(""), Some("y\0z")]);
    let keys = Int32Array::from_iter((0..n).map(|_| match g.below(6) {
        0 => None,
        k => Some((k % 4) as i32),
    }));
    let dict_nullvals = DictionaryArray::<Int32Type>::try_new(keys, Arc::new(dict_values)).unwrap();
    let strings = StringArray::from_iter((0..n).map(|i| match i % 50 {
        0 => Some("L".repeat(100_000 + i)),
        1 => Some("nul\0inside\0".to_string()),
        2 => None,
        _ => Some(gen_string(&mut g)),
    }));
    let lll = f("lll", D::List(item(D::List(item(D::List(item(D::Int16)))))));
    let lll_arr = gen_field(&lll, n, Nulls::Some, &mut g);
    let sorted_map = D::Map(
        Arc::new(Field::new(
            "entries",
            D::Struct(Fields::from(vec![
                Field::new("keys", D::Int32, false),
                Field::new("values", D::Utf8, true),
            ])),
            false,
        )),
        true,
    );
    let sorted_map_field = f("sorted_map", sorted_map);
    let sorted_map_arr = gen_field(&sorted_map_field, n, Nulls::Some, &mut g);
    let req_struct = Field::new(
        "req_struct",
        D::Struct(Fields::from(vec![
            Field::new("a", D::Int64, false),
            Field::new(
                "b",
                D::List(Arc::new(Field::new("item", D::Utf8, false))),
                false,
            ),
        ])),
        false,
    );
    let req_struct_arr = gen_field(&req_struct, n, Nulls::None, &mut g);
    RecordBatch::try_from_iter_with_nullable([
        ("dict_nullvals", Arc::new(dict_nullvals) as ArrayRef, true),
        ("big_and_nul_strings", Arc::new(strings) as ArrayRef, true),
        ("lll", lll_arr, true),
        ("sorted_map", sorted_map_arr, true),
        ("req_struct", req_struct_arr, false),
    ])
    .unwrap()
}

fn cases_a() -> Vec<Case> {
    let prim = Arc::new(Schema::new(primitive_fields()));
    let nested = Arc::new(Schema::new(nested_fields()));
    let mut all = primitive_fields();
    all.extend(nested_fields());
    let all = Arc::new(Schema::new(all));
    let mut cases = Vec::new();
    let mut seed = 1;
    let mut next_seed = || {
        seed += 1;
        seed
    };

    // Null patterns, default properties.
    for (tag, nulls) in [
        ("none", Nulls::None),
        ("some", Nulls::Some),
        ("all", Nulls::All),
    ] {
        for (tname, schema, n) in [("prim", &prim, 1000), ("nested", &nested, 600)] {
            cases.push(Case {
                name: format!("{tname}_nulls-{tag}"),
                schema: schema.clone(),
                batches: vec![gen_batch(schema, n, nulls, next_seed())],
                props: WriterProperties::builder().build(),
            });
        }
    }
    // Codecs x writer versions x dictionary.
    for (cname, codec) in codecs() {
        for (vname, version) in [
            ("v1", WriterVersion::PARQUET_1_0),
            ("v2", WriterVersion::PARQUET_2_0),
        ] {
            for dict in [true, false] {
                cases.push(Case {
                    name: format!(
                        "all_{cname}_{vname}_dict-{}",
                        if dict { "on" } else { "off" }
                    ),
                    schema: all.clone(),
                    batches: vec![gen_batch(&all, 400, Nulls::Some, next_seed())],
                    props: WriterProperties::builder()
                        .set_compression(codec)
                        .set_writer_version(version)
                        .set_dictionary_enabled(dict)
                        .build(),
                });
            }
        }
    }
    // Edge cases, with and without dictionaries, both page versions.
    for (vname, version) in [
        ("v1", WriterVersion::PARQUET_1_0),
        ("v2", WriterVersion::PARQUET_2_0),
    ] {
        for dict in [true, false] {
            let batch = edge_batch(300, next_seed());
            cases.push(Case {
                name: format!("edge_{vname}_dict-{}", if dict { "on" } else { "off" }),
                schema: batch.schema(),
                batches: vec![batch],
                props: WriterProperties::builder()
                    .set_writer_version(version)
                    .set_dictionary_enabled(dict)
                    .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
                    .build(),
            });
        }
    }
    // Sliced batches (arrays with offsets, odd lengths) and empty batches.
    for (vname, version) in [
        ("v1", WriterVersion::PARQUET_1_0),
        ("v2", WriterVersion::PARQUET_2_0),
    ] {
        let big = gen_batch(&all, 900, Nulls::Some, next_seed());
        cases.push(Case {
            name: format!("sliced_{vname}"),
            schema: all.clone(),
            batches: vec![
                big.slice(3, 0),
                big.slice(7, 301),
                big.slice(333, 1),
                big.slice(401, 499),
            ],
            props: WriterProperties::builder()
                .set_writer_version(version)
                .build(),
        });
        cases.push(Case {
            name: format!("empty_{vname}"),
            schema: all.clone(),
            batches: vec![gen_batch(&all, 0, Nulls::Some, next_seed())],
            props: WriterProperties::builder()
                .set_writer_version(version)
                .build(),
        });
    }
    // Many pages and row groups, several batches.
    for (vname, version) in [
        ("v1", WriterVersion::PARQUET_1_0),
        ("v2", WriterVersion::PARQUET_2_0),
    ] {
        for dict in [true, false] {
            let batches = [300, 1, 700, 999]
                .iter()
                .map(|&n| gen_batch(&all, n, Nulls::Some, next_seed()))
                .collect();
            cases.push(Case {
                name: format!(
                    "small-pages_{vname}_dict-{}",
                    if dict { "on" } else { "off" }
                ),
                schema: all.clone(),
                batches,
                props: WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_writer_version(version)
                    .set_dictionary_enabled(dict)
                    .set_data_page_size_limit(256)
                    .set_data_page_row_count_limit(50)
                    .set_dictionary_page_size_limit(512)
                    .set_max_row_group_row_count(Some(333))
                    .build(),
            });
        }
    }
    cases
}

#[test]
fn strata_writes_peers_read() {
    let Some(py) = python() else { return };
    let dir = work_dir("a");
    let mut write_errors = Vec::new();
    for case in cases_a() {
        let pq_path = dir.join(format!("{}.parquet", case.name));
        let res = (|| -> Result<(), String> {
            let file = File::create(&pq_path).map_err(|e| e.to_string())?;
            let mut w =
                ArrowWriter::try_new(BufWriter::new(file), case.schema.clone(), Some(case.props))
                    .map_err(|e| e.to_string())?;
            for b in &case.batches {
                w.write(b).map_err(|e| e.to_string())?;
            }
            w.close().map_err(|e| e.to_string())?;
            Ok(())
        })();
        if let Err(e) = res {
            let _ = fs::remove_file(&pq_path);
            write_errors.push(format!("{}: strata write failed: {e}", case.name));
            continue;
        }
        // One batch: an IPC file cannot replace a dictionary between batches.
        let all = arrow_select::concat::concat_batches(&case.schema, &case.batches).unwrap();
        write_ipc(
            &dir.join(format!("{}.arrow", case.name)),
            &case.schema,
            &[all],
        )
        .unwrap();
    }
    let out = run_python(&py, "check_strata_files.py", &[&dir]);
    let rows = results(&out);
    check_a(&rows, &write_errors, &dir);
}

fn check_a(rows: &[Vec<String>], write_errors: &[String], dir: &Path) {
    // RESULT case peer column status detail
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut unexpected = write_errors.to_vec();
    let mut used_known = vec![false; KNOWN_A.len()];
    let mut case_status: BTreeMap<(String, String), bool> = BTreeMap::new();
    for r in rows {
        let [case, peer, column, status, detail] = &r[..] else {
            panic!("bad result line {r:?}")
        };
        let case_ok = case_status
            .entry((case.clone(), peer.clone()))
            .or_insert(true);
        *case_ok &= status != "fail";
        let mut label = status.clone();
        if status == "fail" {
            let known = KNOWN_A.iter().position(|(c, p, col, _)| {
                case.contains(c) && p == peer && column.starts_with(col)
            });
            match known {
                Some(i) => {
                    used_known[i] = true;
                    label = "fail (known difference)".to_string();
                }
                None => unexpected.push(format!("{case} [{peer}] {column}: {detail}")),
            }
        }
        *counts.entry((peer.clone(), label)).or_default() += 1;
    }
    eprintln!("part a (strata writes, peers read), column results by (peer, status):");
    for ((peer, status), n) in &counts {
        eprintln!("  {peer:8} {status:24} {n}");
    }
    for peer in ["pyarrow", "duckdb", "duckdb-sql"] {
        let all: Vec<_> = case_status.iter().filter(|((_, p), _)| p == peer).collect();
        let clean = all.iter().filter(|(_, ok)| **ok).count();
        eprintln!(
            "  {peer}: {} cases, {clean} without any failing column, {} with failures \
             (known or not)",
            all.len(),
            all.len() - clean
        );
    }
    if !write_errors.is_empty() {
        eprintln!("  strata write errors: {}", write_errors.len());
    }
    for (i, (c, p, col, why)) in KNOWN_A.iter().enumerate() {
        if used_known[i] {
            eprintln!("  known difference: {c} [{p}] {col}: {why}");
        } else {
            eprintln!("  STALE known difference (did not occur): {c} [{p}] {col}");
        }
    }
    assert!(!rows.is_empty(), "no results from check_strata_files.py");
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures (files kept in {}):\n{}",
        unexpected.len(),
        dir.display(),
        unexpected.join("\n")
    );
    let _ = fs::remove_dir_all(dir);
}

// ---------------------------------------------------------------------------
// Comparing strata's reading with a peer's
// ---------------------------------------------------------------------------

/// The documented normalisation before comparing (representation only):
///
/// - a UTC zone spelt "UTC", "+00:00", "Z" or "Etc/UTC" is spelt "UTC"
///   (strata, pyarrow and arrow-rs 60.1 say "UTC" for a Parquet
///   `isAdjustedToUTC` timestamp without an embedded Arrow schema; other
///   writers' embedded schemas spell it in other ways);
/// - the names of list items and of map entries, keys and values are
///   canonical ("item", "entries", "keys", "values"): without an embedded
///   Arrow schema they are whatever the writer named the Parquet groups
///   ("element", "key_value", ...), and pyarrow names a map's entries after
///   the column;
/// - field metadata is dropped.
fn normalize_type(dt: &DataType) -> DataType {
    match dt {
        DataType::Timestamp(u, Some(tz))
            if matches!(tz.as_ref(), "+00:00" | "UTC" | "Z" | "Etc/UTC" | "utc") =>
        {
            DataType::Timestamp(*u, Some("UTC".into()))
        }
        DataType::List(f) => DataType::List(normalize_field(f, Some("item"))),
        DataType::LargeList(f) => DataType::LargeList(normalize_field(f, Some("item"))),
        DataType::FixedSizeList(f, n) => {
            DataType::FixedSizeList(normalize_field(f, Some("item")), *n)
        }
        DataType::Map(f, s) => {
            let DataType::Struct(kv) = f.data_type() else {
                return dt.clone();
            };
            let kv: Vec<_> = kv
                .iter()
                .zip(["keys", "values"])
                .map(|(c, name)| normalize_field(c, Some(name)))
                .collect();
            let entries = Field::new("entries", DataType::Struct(kv.into()), f.is_nullable());
            DataType::Map(Arc::new(entries), *s)
        }
        DataType::Struct(fs) => DataType::Struct(
            fs.iter()
                .map(|f| normalize_field(f, None))
                .collect::<Vec<_>>()
                .into(),
        ),
        DataType::Dictionary(k, v) => DataType::Dictionary(k.clone(), Box::new(normalize_type(v))),
        other => other.clone(),
    }
}

fn normalize_field(f: &Arc<Field>, name: Option<&str>) -> Arc<Field> {
    let name = name.unwrap_or(f.name());
    Arc::new(Field::new(
        name,
        normalize_type(f.data_type()),
        f.is_nullable(),
    ))
}

/// `d` retyped as `target` (its normalised type), children likewise.
fn normalize_data(d: &ArrayData, target: &DataType) -> ArrayData {
    let child_types: Vec<DataType> = match target {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => vec![f.data_type().clone()],
        DataType::Struct(fs) => fs.iter().map(|f| f.data_type().clone()).collect(),
        DataType::Dictionary(_, v) => vec![v.as_ref().clone()],
        _ => d
            .child_data()
            .iter()
            .map(|c| c.data_type().clone())
            .collect(),
    };
    let children = d
        .child_data()
        .iter()
        .zip(&child_types)
        .map(|(c, t)| normalize_data(c, t))
        .collect();
    d.clone()
        .into_builder()
        .data_type(target.clone())
        .child_data(children)
        .build()
        .unwrap()
}

fn normalize_array(a: &ArrayRef) -> ArrayRef {
    make_array(normalize_data(&a.to_data(), &normalize_type(a.data_type())))
}

/// Compares column by column: `(column, difference)` per differing column
/// ("*" for the whole batch).
fn compare_columns(expected: &RecordBatch, actual: &RecordBatch) -> Vec<(String, String)> {
    let (es, as_) = (expected.schema(), actual.schema());
    if es.fields().len() != as_.fields().len() {
        let msg = format!(
            "{} columns, expected {}",
            as_.fields().len(),
            es.fields().len()
        );
        return vec![("*".to_string(), msg)];
    }
    if expected.num_rows() != actual.num_rows() {
        let msg = format!(
            "{} rows, expected {}",
            actual.num_rows(),
            expected.num_rows()
        );
        return vec![("*".to_string(), msg)];
    }
    (0..es.fields().len())
        .filter_map(|i| {
            let name = es.field(i).name().clone();
            compare_column(
                es.field(i),
                expected.column(i),
                as_.field(i),
                actual.column(i),
            )
            .err()
            .map(|e| (name, e))
        })
        .collect()
}

/// Where strata keeps more of a stored type than the peer: a dictionary
/// of numbers the file's Arrow schema asks for (pyarrow restores only
/// dictionaries of strings and binaries) and INTERVAL (pyarrow reads its
/// 12 bytes as FixedSizeBinary(12)). Strata's array is brought to the
/// peer's type, value by value, so the values are still compared.
fn reconcile(expected: &DataType, a: ArrayRef) -> ArrayRef {
    use arrow_array::cast::AsArray;
    match (a.data_type(), expected) {
        (DataType::Dictionary(_, v), e) if v.as_ref() == e => {
            let d = a.as_any_dictionary();
            if d.values().is_empty() {
                return arrow_array::new_null_array(e, a.len());
            }
            arrow_select::take::take(
                d.values().as_ref(),
                &d.normalized_keys()
                    .iter()
                    .zip(0..)
                    .map(|(&k, i)| a.is_valid(i).then_some(k as u32))
                    .collect::<UInt32Array>(),
                None,
            )
            .unwrap()
        }
        (
            DataType::Interval(arrow_schema::IntervalUnit::MonthDayNano),
            DataType::FixedSizeBinary(12),
        ) => {
            let iv = a.as_primitive::<arrow_array::types::IntervalMonthDayNanoType>();
            let bytes = (0..iv.len()).map(|i| {
                iv.is_valid(i).then(|| {
                    let v = iv.value(i);
                    let mut b = Vec::with_capacity(12);
                    b.extend_from_slice(&v.months.to_le_bytes());
                    b.extend_from_slice(&v.days.to_le_bytes());
                    b.extend_from_slice(&((v.nanoseconds / 1_000_000) as i32).to_le_bytes());
                    b
                })
            });
            Arc::new(FixedSizeBinaryArray::try_from_sparse_iter_with_size(bytes, 12).unwrap())
        }
        _ => a,
    }
}

/// One column, after [`normalize_type`].
fn compare_column(ef: &Field, e: &ArrayRef, af: &Field, a: &ArrayRef) -> Result<(), String> {
    if ef.name() != af.name() {
        return Err(format!("named {:?}, expected {:?}", af.name(), ef.name()));
    }
    let e = normalize_array(e);
    let a = reconcile(e.data_type(), normalize_array(a));
    if e.data_type() != a.data_type() {
        return Err(format!("type {} expected {}", a.data_type(), e.data_type()));
    }
    if e.len() != a.len() {
        return Err(format!("{} rows, expected {}", a.len(), e.len()));
    }
    if e.as_ref() == a.as_ref() {
        return Ok(());
    }
    let row = (0..e.len()).find(|&r| e.slice(r, 1).as_ref() != a.slice(r, 1).as_ref());
    let show = |x: &ArrayRef, r: usize| {
        let s = format!("{:?}", x.slice(r, 1));
        s.chars()
            .take(300)
            .collect::<String>()
            .replace(['\n', '\t'], " ")
    };
    Err(match row {
        Some(r) => format!("row {r} is {} expected {}", show(&a, r), show(&e, r)),
        None => "arrays differ (not row by row)".to_string(),
    })
}

/// [`compare_columns`] as one `Result`.
fn compare(expected: &RecordBatch, actual: &RecordBatch) -> Result<(), String> {
    let diffs = compare_columns(expected, actual);
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs
            .iter()
            .map(|(c, e)| format!("{c}: {e}"))
            .collect::<Vec<_>>()
            .join("; "))
    }
}

/// Strata's reading of `path` against `expected`, per column: if the whole
/// file cannot be read, each top-level column is read alone (projection),
/// so that one unreadable column does not hide the others.
fn check_file_columns(path: &Path, expected: &RecordBatch) -> Vec<(String, String)> {
    match strata_read_catching(path) {
        Ok(batch) => compare_columns(expected, &batch),
        Err(e) if e.starts_with("PANIC") => vec![("*".to_string(), e)],
        Err(whole) => {
            let mut diffs = Vec::new();
            for (i, ef) in expected.schema().fields().iter().enumerate() {
                let read = catch_unwind(AssertUnwindSafe(|| strata_read_column(path, i)))
                    .unwrap_or_else(|_| Err("PANIC reading the column alone".to_string()));
                let res = read.and_then(|(af, a)| compare_column(ef, expected.column(i), &af, &a));
                if let Err(e) = res {
                    diffs.push((ef.name().clone(), e));
                }
            }
            if diffs.is_empty() {
                diffs.push((
                    "*".to_string(),
                    format!("whole file fails, every column alone reads: {whole}"),
                ));
            }
            diffs
        }
    }
}

/// Top-level column `i` of `path` read alone, in batches of 1000 and 37.
fn strata_read_column(path: &Path, i: usize) -> Result<(Field, ArrayRef), String> {
    let read = |batch_size: usize| -> Result<RecordBatch, String> {
        let file = File::open(path).map_err(|e| e.to_string())?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
        let mask = ProjectionMask::roots(builder.parquet_schema(), [i]);
        let reader = builder
            .with_projection(mask)
            .with_batch_size(batch_size)
            .build()
            .map_err(|e| e.to_string())?;
        let schema = reader.schema();
        let batches: Vec<RecordBatch> = reader
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        arrow_select::concat::concat_batches(&schema, &batches).map_err(|e| e.to_string())
    };
    let batch = read(1000)?;
    compare(&batch, &read(37)?)
        .map_err(|e| format!("batches of 37 rows differ from batches of 1000: {e}"))?;
    Ok((batch.schema().field(0).clone(), batch.column(0).clone()))
}

// ---------------------------------------------------------------------------
// Part b: peers write, strata reads
// ---------------------------------------------------------------------------

#[test]
fn peers_write_strata_reads() {
    let Some(py) = python() else { return };
    let dir = work_dir("b");
    let out = run_python(&py, "write_peer_files.py", &[&dir]);
    // RESULT name writer note
    let files = results(&out);
    assert!(!files.is_empty(), "write_peer_files.py wrote nothing");
    for l in out.lines().filter(|l| l.starts_with("SKIPPED\t")) {
        eprintln!("  peer could not write: {}", &l[8..]);
    }
    let mut pass = 0;
    let mut unexpected = Vec::new();
    let mut known_hit = vec![false; KNOWN_B.len()];
    for r in &files {
        let name = &r[0];
        let pq_path = dir.join(format!("{name}.parquet"));
        let ipc_path = dir.join(format!("{name}.arrow"));
        if !ipc_path.exists() {
            unexpected.push(format!(
                "{name}: the script wrote no {}",
                ipc_path.display()
            ));
            continue;
        }
        let expected = read_ipc(&ipc_path);
        let diffs = check_file_columns(&pq_path, &expected);
        if diffs.is_empty() {
            pass += 1;
            eprintln!("  pass {name}");
        }
        for (col, e) in diffs {
            let known = KNOWN_B
                .iter()
                .position(|(f, c, _)| name.contains(f) && (*c == "*" || *c == col));
            match known {
                Some(i) => {
                    known_hit[i] = true;
                    eprintln!("  KNOWN {name} {col}: {e}");
                }
                None => {
                    eprintln!("  FAIL {name} {col}: {e}");
                    unexpected.push(format!("{name} {col}: {e}"));
                }
            }
        }
    }
    eprintln!(
        "part b (peers write, strata reads): {} files, {pass} pass in every column, {} with \
         differences; {} known differences hit, {} unexpected failures",
        files.len(),
        files.len() - pass,
        known_hit.iter().filter(|h| **h).count(),
        unexpected.len()
    );
    for (i, (f, c, why)) in KNOWN_B.iter().enumerate() {
        let tag = if known_hit[i] {
            "known difference"
        } else {
            "STALE known difference"
        };
        eprintln!("  {tag}: {f} {c}: {why}");
    }
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures (files kept in {}):\n{}",
        unexpected.len(),
        dir.display(),
        unexpected.join("\n")
    );
    let _ = fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// Part c: the parquet-testing corpus, strata vs pyarrow
// ---------------------------------------------------------------------------

#[test]
fn corpus_matches_pyarrow() {
    let data = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/parquet-testing/data"
    ));
    if !data.is_dir() {
        eprintln!("SKIPPED corpus interop: {} is absent", data.display());
        return;
    }
    let Some(py) = python() else { return };
    let dir = work_dir("c");
    let mut files = Vec::new();
    corpus_files(data, &mut files);
    // Manifest lines: id \t absolute path \t relative path \t strata status
    let mut manifest = String::new();
    let mut panics = Vec::new();
    for (id, path) in files.iter().enumerate() {
        let rel = path
            .strip_prefix(data)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let status = match strata_read_catching(path) {
            Ok(batch) => {
                match write_ipc(&dir.join(format!("{id}.arrow")), &batch.schema(), &[batch]) {
                    Ok(()) => "ok".to_string(),
                    Err(e) => format!("error: IPC write of strata's reading failed: {e}"),
                }
            }
            Err(e) => {
                if e.starts_with("PANIC") {
                    panics.push(format!("{rel}: {e}"));
                }
                format!("error: {e}")
            }
        };
        let status = status.replace(['\n', '\t'], " ");
        manifest.push_str(&format!("{id}\t{}\t{rel}\t{status}\n", path.display()));
    }
    let manifest_path = dir.join("manifest.tsv");
    fs::write(&manifest_path, manifest).unwrap();
    let out = run_python(&py, "check_corpus.py", &[&manifest_path]);
    // RESULT rel status detail
    let rows = results(&out);
    assert_eq!(
        rows.len(),
        files.len(),
        "check_corpus.py reported {} of {} files",
        rows.len(),
        files.len()
    );
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut known_hit = vec![false; KNOWN_C.len()];
    for r in &rows {
        let [rel, status, detail] = &r[..] else {
            panic!("bad result line {r:?}")
        };
        *counts.entry(status.clone()).or_default() += 1;
        // Both failing, or only pyarrow failing, leaves nothing to compare:
        // counted and shown, not a failure.
        let ok = matches!(
            status.as_str(),
            "pass" | "both-error" | "pyarrow-error" | "too-large"
        );
        let known = KNOWN_C.iter().position(|(p, _)| p == rel);
        if let Some(i) = known {
            known_hit[i] = !ok;
        }
        let tag = if ok {
            "ok"
        } else if known.is_some() {
            "KNOWN"
        } else {
            "FAIL"
        };
        eprintln!("  {tag:5} {status:14} {rel} {detail}");
        if !ok && known.is_none() {
            unexpected.push(format!("{rel}: {status}: {detail}"));
        }
    }
    eprintln!("part c (corpus, {} files), by status:", rows.len());
    for (s, n) in &counts {
        eprintln!("  {s:14} {n}");
    }
    for (i, (p, why)) in KNOWN_C.iter().enumerate() {
        let tag = if known_hit[i] {
            "known difference"
        } else {
            "STALE known difference"
        };
        eprintln!("  {tag}: {p}: {why}");
    }
    assert!(
        panics.is_empty(),
        "strata panicked on:\n{}",
        panics.join("\n")
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures (files kept in {}):\n{}",
        unexpected.len(),
        dir.display(),
        unexpected.join("\n")
    );
    let _ = fs::remove_dir_all(&dir);
}

/// Intervals strata writes (FIXED_LEN_BYTE_ARRAY(12) INTERVAL: unsigned
/// months, days, milliseconds) read by pyarrow (as 12 bytes) and DuckDB (as
/// intervals). A separate check: neither peer writes Arrow intervals to
/// Parquet, so the matrix above cannot compare them with a peer's own file.
#[test]
fn intervals_read_by_peers() {
    let Some(py) = python() else { return };
    let dir = work_dir("intervals");
    let n = 40i32;
    let parts = |i: i32| (i + 1, 3 * i, i * 12_345 + 999);
    let present = |i: i32| i % 7 != 3;
    let ym = IntervalYearMonthArray::from_iter((0..n).map(|i| present(i).then(|| parts(i).0)));
    let dt = IntervalDayTimeArray::from_iter(
        (0..n).map(|i| present(i).then(|| IntervalDayTime::new(parts(i).1, parts(i).2))),
    );
    let mdn = IntervalMonthDayNanoArray::from_iter((0..n).map(|i| {
        present(i).then(|| {
            let (m, d, ms) = parts(i);
            IntervalMonthDayNano::new(m, d, i64::from(ms) * 1_000_000)
        })
    }));
    let batch = RecordBatch::try_from_iter([
        ("ym", Arc::new(ym) as ArrayRef),
        ("dt", Arc::new(dt)),
        ("mdn", Arc::new(mdn)),
    ])
    .unwrap();
    let path = dir.join("intervals.parquet");
    let mut w = ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    // Expected [months, days, millis] per row, per column.
    let rows = |f: &dyn Fn(i32) -> (i32, i32, i32)| {
        let cells: Vec<String> = (0..n)
            .map(|i| match present(i) {
                true => {
                    let (m, d, ms) = f(i);
                    format!("[{m}, {d}, {ms}]")
                }
                false => "null".to_string(),
            })
            .collect();
        format!("[{}]", cells.join(", "))
    };
    let json = format!(
        "{{\"ym\": {}, \"dt\": {}, \"mdn\": {}}}",
        rows(&|i| (parts(i).0, 0, 0)),
        rows(&|i| (0, parts(i).1, parts(i).2)),
        rows(&|i| parts(i)),
    );
    let expected = dir.join("expected.json");
    fs::write(&expected, json).unwrap();
    let out = run_python(&py, "check_intervals.py", &[&path, &expected]);
    let results = results(&out);
    assert_eq!(results.len(), 6, "{out}");
    for r in &results {
        assert_eq!(r[2], "ok", "{r:?}");
    }
    let _ = fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// Logical types and time units as pyarrow reads them; set_coerce_types
// ---------------------------------------------------------------------------

/// Writes a file of required BYTE_ARRAY columns with strata's column
/// writer: each column's schema element and values are given. `kv` is
/// added to the footer.
fn write_byte_array_file(
    path: &Path,
    columns: &[(SchemaElement, Vec<&[u8]>)],
    kv: Option<KeyValue>,
) {
    use strata_encoding::ByteArrayBatch;
    use strata_file::writer::{ColumnWriter, FileWriter};
    let mut elements = vec![SchemaElement {
        name: "schema".into(),
        num_children: Some(columns.len() as i32),
        ..Default::default()
    }];
    elements.extend(columns.iter().map(|(e, _)| e.clone()));
    let schema = Arc::new(SchemaDescriptor::from_elements(&elements).unwrap());
    let mut fw = FileWriter::new(
        File::create(path).unwrap(),
        schema,
        Arc::new(WriterProperties::default()),
    )
    .unwrap();
    if let Some(kv) = kv {
        fw.append_key_value_metadata(kv);
    }
    let mut rg = fw.next_row_group().unwrap();
    for (_, values) in columns {
        let mut cw = rg.next_column().unwrap().unwrap();
        match &mut cw {
            ColumnWriter::ByteArrayColumnWriter(w) => {
                w.write_values(ByteArrayBatch::from_slices(values), None, None)
                    .unwrap();
            }
            _ => panic!("not a byte-array column"),
        }
        rg.append_column(cw.close().unwrap()).unwrap();
    }
    rg.close().unwrap();
    fw.close().unwrap();
}

fn byte_array_element(
    name: &str,
    lt: Option<LogicalType>,
    ct: Option<ConvertedType>,
) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        physical_type: Some(PhysicalType::ByteArray),
        repetition_type: Some(Repetition::Required),
        logical_type: lt,
        converted_type: ct,
        ..Default::default()
    }
}

/// The peers' reading of `files`: (file, peer, column) -> (type, values
/// as compact JSON).
fn peer_columns(
    py: &Path,
    files: &[&Path],
) -> BTreeMap<(String, String, String), (String, String)> {
    let out = run_python(py, "read_columns.py", files);
    results(&out)
        .into_iter()
        .map(|r| {
            assert_eq!(r.len(), 5, "{r:?}");
            (
                (r[0].clone(), r[1].clone(), r[2].clone()),
                (r[3].clone(), r[4].clone()),
            )
        })
        .collect()
}

/// A BYTE_ARRAY annotated ENUM or BSON reads as binary, one annotated
/// JSON as a string, whether the annotation is a logical or a legacy
/// converted type: as pyarrow reads them (checked here) and as arrow-rs
/// 60.1 does (`parquet::arrow::schema::primitive`, BYTE_ARRAY: ENUM and
/// BSON to Binary, JSON to Utf8).
#[test]
fn byte_array_annotations_read_as_peers_read() {
    let dir = work_dir("annotations");
    let path = dir.join("annotations.parquet");
    let enums: Vec<&[u8]> = vec![b"lo", b"mid", b"hi", b"mid"];
    let json: Vec<&[u8]> = vec![br#"{"a":1}"#, b"[]", b"null", br#""x""#];
    let bson: Vec<&[u8]> = vec![b"\x05\x00\x00\x00\x00", b"\xff\xfe", b"", b"\x00"];
    let columns = [
        (
            byte_array_element(
                "enum_lt",
                Some(LogicalType::Enum),
                Some(ConvertedType::Enum),
            ),
            enums.clone(),
        ),
        (
            byte_array_element("enum_ct", None, Some(ConvertedType::Enum)),
            enums.clone(),
        ),
        (
            byte_array_element(
                "json_lt",
                Some(LogicalType::Json),
                Some(ConvertedType::Json),
            ),
            json.clone(),
        ),
        (
            byte_array_element("json_ct", None, Some(ConvertedType::Json)),
            json.clone(),
        ),
        (
            byte_array_element(
                "bson_lt",
                Some(LogicalType::Bson),
                Some(ConvertedType::Bson),
            ),
            bson.clone(),
        ),
        (
            byte_array_element("bson_ct", None, Some(ConvertedType::Bson)),
            bson.clone(),
        ),
    ];
    write_byte_array_file(&path, &columns, None);

    let batch = strata_read(&path).unwrap();
    for (i, (element, values)) in columns.iter().enumerate() {
        let (field, column) = (batch.schema().field(i).clone(), batch.column(i));
        let got: Vec<&[u8]> = if element.name.starts_with("json") {
            assert_eq!(field.data_type(), &DataType::Utf8, "{}", element.name);
            column
                .as_string::<i32>()
                .iter()
                .map(|v| v.unwrap().as_bytes())
                .collect()
        } else {
            assert_eq!(field.data_type(), &DataType::Binary, "{}", element.name);
            column
                .as_binary::<i32>()
                .iter()
                .map(|v| v.unwrap())
                .collect()
        };
        assert_eq!(&got, values, "{}", element.name);
    }

    let Some(py) = python() else { return };
    let peers = peer_columns(&py, &[&path]);
    for (element, values) in &columns {
        let key = (
            "annotations.parquet".to_string(),
            "pyarrow".to_string(),
            element.name.clone(),
        );
        let (ty, got) = peers
            .get(&key)
            .unwrap_or_else(|| panic!("no pyarrow reading of {key:?}"));
        if element.name.starts_with("json") {
            // pyarrow 26 gives JSON the arrow.json extension over utf8.
            assert!(
                ty == "string" || ty.starts_with("extension<arrow.json"),
                "{key:?}: {ty}"
            );
            let want: Vec<String> = values
                .iter()
                .map(|v| format!("{:?}", std::str::from_utf8(v).unwrap()))
                .collect();
            assert_eq!(got, &format!("[{}]", want.join(",")), "{key:?}");
        } else {
            assert_eq!(ty, "binary", "{key:?}");
            let want: Vec<String> = values
                .iter()
                .map(|v| {
                    let hex: String = v.iter().map(|b| format!("{b:02x}")).collect();
                    format!(r#"{{"hex":"{hex}"}}"#)
                })
                .collect();
            assert_eq!(got, &format!("[{}]", want.join(",")), "{key:?}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

/// The ARROW:schema value of `schema` (an IPC schema message, framed and
/// base64, as the format stores it).
fn arrow_schema_kv(schema: &Schema) -> KeyValue {
    use base64::Engine;
    let options = arrow_ipc::writer::IpcWriteOptions::default();
    let mut tracker = arrow_ipc::writer::DictionaryTracker::new(true);
    let message = arrow_ipc::writer::IpcDataGenerator::default()
        .schema_to_bytes_with_dictionary_tracker(schema, &mut tracker, &options)
        .ipc_message;
    let mut framed = vec![0xFF; 4];
    framed.extend_from_slice(&(message.len() as u32).to_le_bytes());
    framed.extend_from_slice(&message);
    KeyValue {
        key: "ARROW:schema".into(),
        value: Some(base64::engine::general_purpose::STANDARD.encode(framed)),
    }
}

fn seconds_batch() -> RecordBatch {
    let n = 5;
    let t32 = Time32SecondArray::from_iter((0..n).map(|i| (i != 2).then_some(i * 3_607 + 59)));
    let ts = |tz: Option<&str>| {
        let a = TimestampSecondArray::from_iter(
            (0..n).map(|i| (i != 3).then_some(1_700_000_000 + i64::from(i) * 86_401)),
        );
        Arc::new(a.with_timezone_opt(tz)) as ArrayRef
    };
    RecordBatch::try_from_iter([
        ("t32_s", Arc::new(t32) as ArrayRef),
        ("ts_s", ts(None)),
        ("ts_s_tz", ts(Some("+05:30"))),
    ])
    .unwrap()
}

fn write_batch(path: &Path, batch: &RecordBatch, props: WriterProperties) {
    let mut w =
        ArrowWriter::try_new(File::create(path).unwrap(), batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// Second-unit times and timestamps, which Parquet annotations cannot
/// state, are stored as milliseconds. strata reads its own files (its
/// default `created_by`) back in seconds; a file of another writer with
/// the same storage (pyarrow writes seconds so) reads in milliseconds, as
/// pyarrow and arrow-rs 60.1 read it. pyarrow reads both as milliseconds.
#[test]
fn second_units_round_trip_in_strata_files_only() {
    let dir = work_dir("seconds");
    let batch = seconds_batch();
    let own = dir.join("own.parquet");
    write_batch(&own, &batch, WriterProperties::default());
    let other = dir.join("other.parquet");
    let props = WriterProperties::builder()
        .set_created_by("another writer 1.0".into())
        .build();
    write_batch(&other, &batch, props);

    // strata's own file: the writer's types and values.
    let back = strata_read(&own).unwrap();
    assert_eq!(back.schema(), batch.schema());
    assert_eq!(back, batch);

    // Another writer's: the stored unit, the zone of the ARROW:schema.
    let back = strata_read(&other).unwrap();
    let types: Vec<DataType> = back
        .schema()
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    assert_eq!(
        types,
        vec![
            DataType::Time32(TimeUnit::Millisecond),
            DataType::Timestamp(TimeUnit::Millisecond, None),
            DataType::Timestamp(TimeUnit::Millisecond, Some("+05:30".into())),
        ]
    );
    let millis = |a: &ArrayRef| -> Vec<Option<i64>> {
        match a.data_type() {
            DataType::Time32(TimeUnit::Second) => a
                .as_primitive::<Time32SecondType>()
                .iter()
                .map(|v| v.map(|v| i64::from(v) * 1000))
                .collect(),
            DataType::Time32(_) => a
                .as_primitive::<Time32MillisecondType>()
                .iter()
                .map(|v| v.map(i64::from))
                .collect(),
            DataType::Timestamp(TimeUnit::Second, _) => a
                .as_primitive::<TimestampSecondType>()
                .iter()
                .map(|v| v.map(|v| v * 1000))
                .collect(),
            _ => a
                .as_primitive::<TimestampMillisecondType>()
                .iter()
                .collect(),
        }
    };
    for i in 0..batch.num_columns() {
        assert_eq!(
            millis(back.column(i)),
            millis(batch.column(i)),
            "column {i}"
        );
    }

    let Some(py) = python() else { return };
    let peers = peer_columns(&py, &[&own, &other]);
    let pyarrow_types = ["time32[ms]", "timestamp[ms]", "timestamp[ms, tz=+05:30]"];
    for file in ["own.parquet", "other.parquet"] {
        for (i, f) in batch.schema().fields().iter().enumerate() {
            let key = (file.to_string(), "pyarrow".to_string(), f.name().clone());
            let (ty, values) = &peers[&key];
            assert_eq!(ty, pyarrow_types[i], "{key:?}");
            let want: Vec<String> = millis(batch.column(i))
                .iter()
                .map(|v| v.map_or("null".to_string(), |v| v.to_string()))
                .collect();
            assert_eq!(values, &format!("[{}]", want.join(",")), "{key:?}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

/// How an embedded ARROW:schema's time units apply (arrow-rs 60.1's
/// rule, `parquet::arrow::schema::primitive::apply_hint`): an annotated
/// timestamp keeps its stored unit and takes the schema's zone; a bare
/// INT64 takes the schema's timestamp type; a schema the caller supplies
/// is taken whole, converting units.
#[test]
fn embedded_schema_units_follow_the_annotation() {
    let dir = work_dir("hint-units");
    let path = dir.join("hint.parquet");
    let micros = LogicalType::Timestamp(TimestampType {
        is_adjusted_to_u_t_c: true,
        unit: strata_format::metadata::TimeUnit::Micros,
    });
    let elements = [
        SchemaElement {
            physical_type: Some(PhysicalType::Int64),
            ..byte_array_element("ts_us", Some(micros), None)
        },
        SchemaElement {
            physical_type: Some(PhysicalType::Int64),
            ..byte_array_element("bare", None, None)
        },
    ];
    let hint = Schema::new(vec![
        Field::new(
            "ts_us",
            DataType::Timestamp(TimeUnit::Nanosecond, Some("Europe/Paris".into())),
            false,
        ),
        Field::new("bare", DataType::Timestamp(TimeUnit::Second, None), false),
    ]);
    {
        use strata_file::writer::{ColumnWriter, FileWriter};
        let mut all = vec![SchemaElement {
            name: "schema".into(),
            num_children: Some(2),
            ..Default::default()
        }];
        all.extend(elements.iter().cloned());
        let schema = Arc::new(SchemaDescriptor::from_elements(&all).unwrap());
        let mut fw = FileWriter::new(
            File::create(&path).unwrap(),
            schema,
            Arc::new(WriterProperties::default()),
        )
        .unwrap();
        fw.append_key_value_metadata(arrow_schema_kv(&hint));
        let mut rg = fw.next_row_group().unwrap();
        for values in [[1_700_000_000_123_456i64, -5], [1_700_000_000, 7]] {
            let mut cw = rg.next_column().unwrap().unwrap();
            let ColumnWriter::Int64ColumnWriter(w) = &mut cw else {
                panic!()
            };
            w.write_batch(&values, None, None).unwrap();
            rg.append_column(cw.close().unwrap()).unwrap();
        }
        rg.close().unwrap();
        fw.close().unwrap();
    }
    let back = strata_read(&path).unwrap();
    assert_eq!(
        back.schema().field(0).data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into()))
    );
    assert_eq!(
        back.column(0)
            .as_primitive::<TimestampMicrosecondType>()
            .values()
            .to_vec(),
        vec![1_700_000_000_123_456, -5]
    );
    assert_eq!(
        back.schema().field(1).data_type(),
        hint.field(1).data_type()
    );
    assert_eq!(
        back.column(1)
            .as_primitive::<TimestampSecondType>()
            .values()
            .to_vec(),
        vec![1_700_000_000, 7]
    );

    // A supplied schema is the caller's choice: taken whole.
    let options =
        strata_arrow::arrow_reader::ArrowReaderOptions::new().with_schema(Arc::new(hint.clone()));
    let reader =
        ParquetRecordBatchReaderBuilder::try_new_with_options(File::open(&path).unwrap(), options)
            .unwrap()
            .build()
            .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(batches[0].schema().as_ref(), &hint);
    assert_eq!(
        batches[0]
            .column(0)
            .as_primitive::<TimestampNanosecondType>()
            .values()
            .to_vec(),
        vec![1_700_000_000_123_456_000, -5_000]
    );
    let _ = fs::remove_dir_all(&dir);
}

/// `set_coerce_types` with and without: strata stores Date64 as DATE,
/// second units as milliseconds and lists and maps with the
/// specification's names either way, reads both files back as written,
/// and pyarrow and DuckDB read both as dates, times, timestamps, lists
/// and maps with the same values.
#[test]
fn coerce_types_with_and_without() {
    let dir = work_dir("coerce");
    let n = 6;
    let date64 = Date64Array::from_iter(
        (0..n).map(|i| (i != 1).then_some((i64::from(i) * 7_919 - 20_000) * 86_400_000)),
    );
    let t32 = Time32SecondArray::from_iter((0..n).map(|i| (i != 2).then_some(i * 3_607 + 59)));
    let ts = TimestampSecondArray::from_iter(
        (0..n).map(|i| (i != 3).then_some(1_700_000_000 + i64::from(i) * 86_401)),
    )
    .with_timezone("UTC");
    let list_field = Arc::new(Field::new("item", DataType::Int32, true));
    let mut list = ListBuilder::new(Int32Builder::new()).with_field(list_field);
    for i in 0..n {
        if i != 2 {
            for j in 0..i {
                list.values().append_option((j != 1).then_some(j * 10 + i));
            }
        }
        list.append(i != 2);
    }
    let names = MapFieldNames {
        entry: "entries".into(),
        key: "keys".into(),
        value: "values".into(),
    };
    let mut map = MapBuilder::new(Some(names), StringBuilder::new(), Int64Builder::new());
    for i in 0..n {
        if i != 4 {
            for j in 0..(i % 3) {
                map.keys().append_value(format!("k{j}"));
                map.values().append_value(i64::from(i * 100 + j));
            }
        }
        map.append(i != 4).unwrap();
    }
    let batch = RecordBatch::try_from_iter([
        ("date64", Arc::new(date64) as ArrayRef),
        ("t32_s", Arc::new(t32)),
        ("ts_s_utc", Arc::new(ts)),
        ("lst", Arc::new(list.finish())),
        ("m", Arc::new(map.finish())),
    ])
    .unwrap();
    let mut files = Vec::new();
    for coerce in [false, true] {
        let props = WriterProperties::builder().set_coerce_types(coerce).build();
        assert_eq!(props.coerce_types(), coerce);
        let path = dir.join(format!("coerce_{coerce}.parquet"));
        write_batch(&path, &batch, props);
        let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
        let stored: Vec<(String, PhysicalType, Option<LogicalType>)> = builder
            .parquet_schema()
            .columns()
            .iter()
            .map(|c| (c.path.string(), c.physical_type, c.logical_type.clone()))
            .collect();
        let millis = |utc| {
            LogicalType::Time(TimeType {
                is_adjusted_to_u_t_c: utc,
                unit: strata_format::metadata::TimeUnit::Millis,
            })
        };
        assert_eq!(
            stored,
            vec![
                (
                    "date64".to_string(),
                    PhysicalType::Int32,
                    Some(LogicalType::Date)
                ),
                (
                    "t32_s".to_string(),
                    PhysicalType::Int32,
                    Some(millis(false))
                ),
                (
                    "ts_s_utc".to_string(),
                    PhysicalType::Int64,
                    Some(LogicalType::Timestamp(TimestampType {
                        is_adjusted_to_u_t_c: true,
                        unit: strata_format::metadata::TimeUnit::Millis,
                    }))
                ),
                ("lst.list.element".to_string(), PhysicalType::Int32, None),
                (
                    "m.key_value.key".to_string(),
                    PhysicalType::ByteArray,
                    Some(LogicalType::String)
                ),
                ("m.key_value.value".to_string(), PhysicalType::Int64, None),
            ],
            "coerce_types {coerce}"
        );
        let back = strata_read(&path).unwrap();
        assert_eq!(back.schema(), batch.schema(), "coerce_types {coerce}");
        assert_eq!(back, batch, "coerce_types {coerce}");
        files.push(path);
    }

    let Some(py) = python() else { return };
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let peers = peer_columns(&py, &paths);
    let days: Vec<String> = (0..n)
        .map(|i| {
            if i == 1 {
                "null".into()
            } else {
                (i * 7_919 - 20_000).to_string()
            }
        })
        .collect();
    let times: Vec<String> = (0..n)
        .map(|i| {
            if i == 2 {
                "null".into()
            } else {
                ((i * 3_607 + 59) * 1000).to_string()
            }
        })
        .collect();
    let instants: Vec<String> = (0..n)
        .map(|i| {
            if i == 3 {
                "null".into()
            } else {
                ((1_700_000_000 + i64::from(i) * 86_401) * 1000).to_string()
            }
        })
        .collect();
    let expect = |peer: &str, column: &str| -> (&'static str, String) {
        match (peer, column) {
            ("pyarrow", "date64") => ("date32[day]", format!("[{}]", days.join(","))),
            ("duckdb", "date64") => ("DATE", format!("[{}]", days.join(","))),
            ("pyarrow", "t32_s") => ("time32[ms]", format!("[{}]", times.join(","))),
            ("duckdb", "t32_s") => ("TIME", format!("[{}]", times.join(","))),
            ("pyarrow", "ts_s_utc") => {
                ("timestamp[ms, tz=UTC]", format!("[{}]", instants.join(",")))
            }
            ("duckdb", "ts_s_utc") => (
                "TIMESTAMP WITH TIME ZONE",
                format!("[{}]", instants.join(",")),
            ),
            _ => ("", String::new()),
        }
    };
    for peer in ["pyarrow", "duckdb"] {
        for column in ["date64", "t32_s", "ts_s_utc", "lst", "m"] {
            let key = |coerce: bool| {
                (
                    format!("coerce_{coerce}.parquet"),
                    peer.to_string(),
                    column.to_string(),
                )
            };
            let without = peers
                .get(&key(false))
                .unwrap_or_else(|| panic!("no reading of {:?}", key(false)));
            let with = peers
                .get(&key(true))
                .unwrap_or_else(|| panic!("no reading of {:?}", key(true)));
            assert_eq!(
                without, with,
                "{peer} {column}: with and without set_coerce_types"
            );
            let (ty, values) = expect(peer, column);
            if !ty.is_empty() {
                assert_eq!(without, &(ty.to_string(), values), "{peer} {column}");
            }
        }
        // Lists and maps: every peer sees the elements and entries.
        let lst = &peers[&(
            "coerce_false.parquet".to_string(),
            peer.to_string(),
            "lst".to_string(),
        )]
            .1;
        assert_eq!(
            lst, "[[],[1],null,[3,null,23],[4,null,24,34],[5,null,25,35,45]]",
            "{peer}"
        );
        let m = &peers[&(
            "coerce_false.parquet".to_string(),
            peer.to_string(),
            "m".to_string(),
        )]
            .1;
        assert_eq!(
            m, r#"[[],[["k0",100]],[["k0",200],["k1",201]],[],null,[["k0",500],["k1",501]]]"#,
            "{peer}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// Floats: NaNs, zeros, total order and NaN counts as the peers read them
// ---------------------------------------------------------------------------

/// strata writes FLOAT, DOUBLE and FLOAT16 columns with NaNs of both signs,
/// both zeros, infinities and nulls, in row groups of numbers, of numbers
/// and NaNs, and of NaNs only. pyarrow reads every value bit for bit,
/// DuckDB every value and every chunk's NaN count, and DuckDB's filters
/// count the same rows over the file as over the rows in memory.
#[test]
fn floats_with_nans_read_by_peers() {
    let Some(py) = python() else { return };
    let dir = work_dir("floats");
    let rows = 60usize;
    let value = |i: usize| -> Option<f64> {
        let k = i % 20;
        match i / 20 {
            0 if k % 7 == 6 => None,
            0 if k.is_multiple_of(5) => Some(if k.is_multiple_of(2) { 0.0 } else { -0.0 }),
            0 => Some(k as f64 - 9.5),
            1 if k.is_multiple_of(4) => Some(f64::NAN),
            1 if k % 4 == 1 => Some(-f64::NAN),
            1 if k == 2 => Some(f64::INFINITY),
            1 if k == 3 => Some(f64::NEG_INFINITY),
            1 => Some(k as f64 * 100.0),
            _ if k % 6 == 5 => None,
            _ if k.is_multiple_of(2) => Some(f64::NAN),
            _ => Some(-f64::NAN),
        }
    };
    // The FLOAT column has no nulls: its null rows hold 1.5.
    let d = Float64Array::from_iter((0..rows).map(value));
    let f = Float32Array::from_iter_values((0..rows).map(|i| value(i).unwrap_or(1.5) as f32));
    let h = Float16Array::from_iter((0..rows).map(|i| value(i).map(half::f16::from_f64)));
    let batch = RecordBatch::try_from_iter([
        ("d", Arc::new(d.clone()) as ArrayRef),
        ("f", Arc::new(f.clone())),
        ("h", Arc::new(h.clone())),
    ])
    .unwrap();
    let path = dir.join("floats.parquet");
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(20))
        .build();
    let mut w =
        ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();

    // Expected rows as bit patterns, and NaN counts per row group, from
    // the arrays themselves.
    fn column<T: ToString>(kind: &str, cells: Vec<Option<(T, bool)>>) -> String {
        let rows: Vec<String> = cells
            .iter()
            .map(|c| match c {
                Some((bits, _)) => format!("\"{}\"", bits.to_string()),
                None => "null".to_string(),
            })
            .collect();
        let nans: Vec<String> = cells
            .chunks(20)
            .map(|g| {
                g.iter()
                    .flatten()
                    .filter(|(_, nan)| *nan)
                    .count()
                    .to_string()
            })
            .collect();
        format!(
            "{{\"kind\": \"{kind}\", \"rows\": [{}], \"nan_counts\": [{}]}}",
            rows.join(", "),
            nans.join(", ")
        )
    }
    let d_cells = d
        .iter()
        .map(|v| v.map(|v| (format!("{:016x}", v.to_bits()), v.is_nan())))
        .collect();
    let f_cells = f
        .iter()
        .map(|v| v.map(|v| (format!("{:08x}", v.to_bits()), v.is_nan())))
        .collect();
    let h_cells = h
        .iter()
        .map(|v| v.map(|v| (format!("{:04x}", v.to_bits()), v.is_nan())))
        .collect();
    let filters = [
        "d > 1000",
        "d < -1000",
        "d < 0",
        "d = 0",
        "d >= 0 AND d <= 0",
        "isnan(d)",
        "f > 1000",
        "f <= -9",
        "h > 1000",
        "h < 0",
    ];
    let json = format!(
        "{{\"columns\": {{\"d\": {}, \"f\": {}, \"h\": {}}}, \"filters\": [{}]}}",
        column("f64", d_cells),
        column("f32", f_cells),
        column("f16", h_cells),
        filters
            .iter()
            .map(|f| format!("\"{f}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let expected = dir.join("expected.json");
    fs::write(&expected, json).unwrap();
    let out = run_python(&py, "check_floats.py", &[&path, &expected]);
    let results = results(&out);
    eprintln!("{out}");
    // 3 columns x (pyarrow values, DuckDB values, DuckDB NaN counts), and
    // the filters.
    assert_eq!(results.len(), 9 + filters.len(), "{out}");
    let failed: Vec<_> = results.iter().filter(|r| r[2] != "ok").collect();
    assert!(failed.is_empty(), "{failed:?}\n{out}");
    let _ = fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// Geospatial statistics written from WKB, beside parquet-cpp's
// ---------------------------------------------------------------------------

/// WKB of type `code` (little endian) with `body` after the header.
fn wkb(code: u32, body: &[u8]) -> Vec<u8> {
    let mut out = vec![1u8];
    out.extend(code.to_le_bytes());
    out.extend(body);
    out
}

/// Coordinates as little-endian doubles, after a count when `count`.
fn wkb_coords(count: Option<u32>, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(n) = count {
        out.extend(n.to_le_bytes());
    }
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    out
}

/// strata writes GEOMETRY columns with geospatial statistics computed from
/// their WKB; pyarrow (parquet-cpp) writes the same values as a
/// `geoarrow.wkb` column with its own. pyarrow and DuckDB read the same box
/// and type codes from both files, NaN and empty geometries included; for
/// GEOGRAPHY columns neither writes any.
#[test]
fn geospatial_statistics_match_parquet_cpp() {
    let Some(py) = python() else { return };
    let dir = work_dir("geo");
    let point = |x: f64, y: f64| wkb(1, &wkb_coords(None, &[x, y]));
    let line_z = wkb(1002, &wkb_coords(Some(2), &[3.0, 4.0, 5.0, -5.0, 6.0, 7.0]));
    let polygon_m = {
        let mut body = 1u32.to_le_bytes().to_vec();
        body.extend(wkb_coords(
            Some(4),
            &[0.0, 0.0, 9.0, 8.0, 0.0, 1.0, 0.0, 8.0, 2.0, 0.0, 0.0, 9.0],
        ));
        wkb(2003, &body)
    };
    let point_zm = wkb(3001, &wkb_coords(None, &[-20.0, 15.0, 1.5, -3.0]));
    let collection = {
        let mut body = 2u32.to_le_bytes().to_vec();
        body.extend(point(100.0, -50.0));
        let mut multi = 1u32.to_le_bytes().to_vec();
        multi.extend(point(-1.0, 60.0));
        body.extend(wkb(4, &multi));
        wkb(7, &body)
    };
    let empty_point = point(f64::NAN, f64::NAN);
    let empty_line = wkb(2, &wkb_coords(Some(0), &[]));
    let nan_line = wkb(
        2,
        &wkb_coords(Some(2), &[f64::NAN, f64::NAN, f64::NAN, f64::NAN]),
    );
    // (case, GEOGRAPHY's edges or None for GEOMETRY, values)
    type GeoCase<'a> = (&'a str, Option<&'a str>, Vec<Vec<u8>>);
    let cases: Vec<GeoCase> = vec![
        (
            "mixed",
            None,
            vec![
                point(1.0, 2.0),
                line_z.clone(),
                polygon_m,
                point_zm,
                collection.clone(),
            ],
        ),
        (
            "with_empty_and_nan",
            None,
            vec![point(1.0, 2.0), empty_point, empty_line.clone(), nan_line],
        ),
        ("empty_only", None, vec![empty_line]),
        (
            "geography",
            Some("spherical"),
            vec![point(10.0, 20.0), line_z, collection],
        ),
    ];
    let mut json = Vec::new();
    for (name, edges, values) in &cases {
        let logical = match edges {
            None => LogicalType::Geometry(strata_format::metadata::GeometryType { crs: None }),
            Some(_) => LogicalType::Geography(strata_format::metadata::GeographyType {
                crs: None,
                algorithm: Some(strata_format::metadata::EdgeInterpolationAlgorithm::Spherical),
            }),
        };
        let slices: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        write_byte_array_file(
            &dir.join(format!("{name}.strata.parquet")),
            &[(byte_array_element("geometry", Some(logical), None), slices)],
            None,
        );
        let hex: Vec<String> = values
            .iter()
            .map(|v| {
                format!(
                    "\"{}\"",
                    v.iter().map(|b| format!("{b:02x}")).collect::<String>()
                )
            })
            .collect();
        let edges = edges.map_or("null".to_string(), |e| format!("\"{e}\""));
        json.push(format!(
            "\"{name}\": {{\"edges\": {edges}, \"values\": [{}]}}",
            hex.join(", ")
        ));
    }
    fs::write(dir.join("cases.json"), format!("{{{}}}", json.join(", "))).unwrap();
    let out = run_python(&py, "check_geo.py", &[&dir]);
    eprintln!("{out}");
    let results = results(&out);
    assert_eq!(results.len(), 2 * cases.len(), "{out}");
    let failed: Vec<_> = results.iter().filter(|r| r[2] != "ok").collect();
    assert!(failed.is_empty(), "{failed:?}");
    let _ = fs::remove_dir_all(&dir);
}
