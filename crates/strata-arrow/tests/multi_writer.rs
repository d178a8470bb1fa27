//! The generated multi-writer corpus: Parquet files written by fastparquet,
//! polars, DuckDB and pyarrow across the options their users set
//! (`tests/multi_writer/generate.py`), each read by strata and compared
//! value by value, nulls included, with pyarrow's reading of it.
//!
//! The script writes, for every file, a sidecar `<name>.expected.json` with
//! pyarrow's reading in an implementation-independent form (type strings
//! and JSON values; the format is in the script's docstring). This test
//! reads each file whole with strata's Arrow reader (default options),
//! brings strata's schema and arrays into the same form and compares:
//! field names, nullability, type strings (dictionary index type and Arrow
//! extension name included), the number of rows and row groups, and every
//! value of every row.
//!
//! Where strata and pyarrow read the same stored data as different Arrow
//! types, the difference is listed in [`KNOWN_TYPES`] with the reason for
//! strata's choice, and the values are still compared after the
//! normalisation of [`common_values`] (the same instant, the same day, the
//! same bytes). A type difference that is not listed, and every value
//! difference, fails the test with the file, column and row.
//!
//! Files a writer refuses to write, and files pyarrow itself cannot read
//! (so there is nothing to compare against), are skipped by name with the
//! reason; strata's reading of the latter is printed for information.
//!
//! The interpreter is `$STRATA_PYTHON` (CI sets it to a venv with pyarrow,
//! DuckDB, fastparquet and polars; it is an error if it cannot import
//! pyarrow and DuckDB), else `python3` if it can import all four, else the
//! test is skipped with a message. It is also skipped, with a message,
//! when the interpreter lacks fastparquet or polars.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod python_peers;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::*;
use arrow_schema::{DataType, Field, IntervalUnit, TimeUnit};
use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

// ---------------------------------------------------------------------------
// Known type differences
// ---------------------------------------------------------------------------

/// Where strata and pyarrow read the same stored data as different Arrow
/// types: (file name, column, pyarrow's type, strata's type, why strata
/// reads it so). File names (without `.parquet`) and columns may list
/// alternatives with `|` and use `*` for any run of characters, as may
/// strata's type; pyarrow's type is exact. Types are the sidecar's type
/// strings; a dictionary is spelt `dictionary<INDEX, VALUE>`, an extension
/// type `extension<NAME, STORAGE>`.
///
/// The values of such a column are still compared, after the
/// normalisation [`common_values`] gives the pair of types. A type
/// difference not listed here fails the test; an entry that no column
/// hits is reported as stale.
///
/// What arrow-rs does was checked by reading the same files with arrow-rs
/// `parquet` 60.1 (`ParquetRecordBatchReaderBuilder`, default options and
/// features) and comparing its arrays with the sidecars the same way.
#[rustfmt::skip]
const KNOWN_TYPES: &[(&str, &str, &str, &str, &str)] = &[
    // INT96 timestamps (use_deprecated_int96_timestamps, flavor='spark').
    ("pyarrow_int96|pyarrow_flavor_spark", "ts_ns_utc", "timestamp[ns]", "timestamp[ns, UTC]",
        INT96),
    ("pyarrow_int96|pyarrow_flavor_spark", "ts_us_ny", "timestamp[ns]",
        "timestamp[us, America/New_York]", INT96),
    ("pyarrow_int96|pyarrow_flavor_spark", "ts_ms", "timestamp[ns]", "timestamp[ms]", INT96),
    ("pyarrow_int96|pyarrow_flavor_spark", "ts_s", "timestamp[ns]", "timestamp[s]", INT96),
    ("pyarrow_more_types", "date64", "date32", "date64", DATE64),
    ("pyarrow_dictionary_*", "ints", "int64", "dictionary<*, int64>", DICTIONARY),
    ("duckdb_*", "iv", "fixed_size_binary[12]", "interval[month_day_nano]", INTERVAL),
    ("duckdb_*", "uid", "extension<arrow.uuid, fixed_size_binary[16]>", "fixed_size_binary[16]",
        EXTENSION),
    ("duckdb_*|fastparquet_object_json", "js", "extension<arrow.json, utf8>", "utf8", EXTENSION),
];

const INT96: &str = "INT96 timestamps: pyarrow reads timestamp[ns] without the ARROW:schema's \
     unit or zone; strata applies both, as arrow-rs 60.1 does (INT96 reads as timestamp[ns] and \
     takes the ARROW:schema's timestamp type). Compared as the same instant in nanoseconds";
const DATE64: &str = "Arrow date64 is stored as Parquet DATE (INT32 days); strata reads the \
     ARROW:schema's date64 (days * 86,400,000 ms), as arrow-rs 60.1 does; pyarrow reads date32. \
     Compared as the same day";
const DICTIONARY: &str = "the ARROW:schema says dictionary<INDEX, int64>; strata keeps the \
     dictionary, as arrow-rs 60.1 does; pyarrow restores only dictionaries of strings and \
     binaries. Compared as decoded values";
const INTERVAL: &str = "Parquet INTERVAL (months, days, milliseconds) without an Arrow schema: \
     pyarrow gives the raw 12 bytes; arrow-rs 60.1 reads interval[day_time] and drops the \
     months; interval[month_day_nano] is the one Arrow interval type that holds all three \
     exactly. Compared as the 12 INTERVAL bytes";
const EXTENSION: &str = "the UUID and JSON logical types: pyarrow 26 gives the arrow.uuid and \
     arrow.json extension types; strata gives their storage types without extension metadata, \
     as arrow-rs 60.1 does with its default features (it adds these extension types only with \
     its optional `arrow_canonical_extension_types` feature). Compared as the same bytes and \
     strings";

// ---------------------------------------------------------------------------
// Python discovery and the generator
// ---------------------------------------------------------------------------

/// The interpreter to use, or `None` (with a printed message) to skip.
fn python() -> Option<PathBuf> {
    python_peers::find_python(
        "multi_writer",
        &["pyarrow", "duckdb", "fastparquet", "polars", "pandas"],
        &["pyarrow", "duckdb"],
    )
}

/// A fresh directory under the system temp dir.
fn work_dir() -> PathBuf {
    python_peers::fresh_dir("multi-writer")
}

/// Runs `generate.py dir`; panics with its output on failure.
fn generate(py: &Path, dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/multi_writer/generate.py");
    let out = Command::new(py)
        .arg(&script)
        .arg(dir)
        // Keep the source tree free of __pycache__ directories.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "generate.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    if !stderr.trim().is_empty() {
        // Warnings of the peers, for whoever reads the log.
        let lines: Vec<&str> = stderr.lines().collect();
        eprintln!(
            "--- generate.py stderr ({} lines, last 10) ---",
            lines.len()
        );
        for l in lines.iter().rev().take(10).rev() {
            eprintln!("  {l}");
        }
    }
}

// ---------------------------------------------------------------------------
// A small JSON reader (the sidecars, manifest.json and skipped.json)
// ---------------------------------------------------------------------------

/// A JSON value. Integers are kept exact (u64 and i64 alike); numbers
/// written with a point or an exponent are floats.
#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    List(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn field(&self, key: &str) -> &J {
        self.get(key)
            .unwrap_or_else(|| panic!("JSON has no {key:?}: {}", show(self)))
    }
    fn str(&self) -> &str {
        match self {
            J::Str(s) => s,
            other => panic!("expected a JSON string, got {}", show(other)),
        }
    }
    fn opt_str(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            None | Some(J::Null) => None,
            Some(v) => Some(v.str()),
        }
    }
    fn list(&self) -> &[J] {
        match self {
            J::List(v) => v,
            other => panic!("expected a JSON list, got {}", show(other)),
        }
    }
    fn int(&self) -> i128 {
        match self {
            J::Int(v) => *v,
            other => panic!("expected a JSON integer, got {}", show(other)),
        }
    }
    fn bool(&self) -> bool {
        match self {
            J::Bool(v) => *v,
            other => panic!("expected a JSON boolean, got {}", show(other)),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

fn parse_json(text: &str) -> Result<J, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(format!("trailing bytes at {}", p.pos));
    }
    Ok(v)
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && matches!(self.s[self.pos], b' ' | b'\n' | b'\r' | b'\t') {
            self.pos += 1;
        }
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("JSON: {what} at byte {}", self.pos))
    }
    fn eat(&mut self, lit: &str) -> Result<(), String> {
        if self.s[self.pos..].starts_with(lit.as_bytes()) {
            self.pos += lit.len();
            Ok(())
        } else {
            self.err(&format!("expected {lit}"))
        }
    }
    fn value(&mut self) -> Result<J, String> {
        self.ws();
        match self.s.get(self.pos) {
            None => self.err("unexpected end"),
            Some(b'n') => self.eat("null").map(|_| J::Null),
            Some(b't') => self.eat("true").map(|_| J::Bool(true)),
            Some(b'f') => self.eat("false").map(|_| J::Bool(false)),
            Some(b'"') => self.string().map(J::Str),
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(J::List(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(J::List(items));
                        }
                        _ => return self.err("expected , or ]"),
                    }
                }
            }
            Some(b'{') => {
                self.pos += 1;
                let mut kv = Vec::new();
                self.ws();
                if self.s.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(J::Obj(kv));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.ws();
                    self.eat(":")?;
                    kv.push((k, self.value()?));
                    self.ws();
                    match self.s.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(J::Obj(kv));
                        }
                        _ => return self.err("expected , or }"),
                    }
                }
            }
            Some(_) => self.number(),
        }
    }
    fn number(&mut self) -> Result<J, String> {
        let start = self.pos;
        while self.pos < self.s.len()
            && matches!(
                self.s[self.pos],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap();
        if text.contains(['.', 'e', 'E']) {
            text.parse::<f64>()
                .map(J::Float)
                .map_err(|e| format!("JSON: bad number {text:?}: {e}"))
        } else {
            text.parse::<i128>()
                .map(J::Int)
                .map_err(|e| format!("JSON: bad number {text:?}: {e}"))
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .s
            .get(self.pos..self.pos + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match h {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => self.err("bad \\u escape"),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.eat("\"")?;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.pos) else {
                return self.err("unterminated string");
            };
            self.pos += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let Some(&e) = self.s.get(self.pos) else {
                        return self.err("unterminated escape");
                    };
                    self.pos += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                self.eat("\\u")?;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00))
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(ch) => ch,
                                None => return self.err("bad code point"),
                            }
                        }
                        _ => return self.err("bad escape"),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(c),
            }
        }
    }
}

/// `v` as compact JSON-like text, cut at 200 characters.
fn show(v: &J) -> String {
    fn go(v: &J, out: &mut String) {
        match v {
            J::Null => out.push_str("null"),
            J::Bool(b) => write!(out, "{b}").unwrap(),
            J::Int(i) => write!(out, "{i}").unwrap(),
            J::Float(f) => write!(out, "{f:?}").unwrap(),
            J::Str(s) => write!(out, "{s:?}").unwrap(),
            J::List(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    go(x, out);
                }
                out.push(']');
            }
            J::Obj(kv) => {
                out.push('{');
                for (i, (k, x)) in kv.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write!(out, "{k:?}: ").unwrap();
                    go(x, out);
                }
                out.push('}');
            }
        }
    }
    let mut s = String::new();
    go(v, &mut s);
    if s.chars().count() > 200 {
        s = s.chars().take(200).collect::<String>() + "...";
    }
    s
}

/// The first difference between `expected` and `got`, as the path to it
/// inside the value ("" at the top) and a description. Floats are equal
/// when their bits are (so -0.0 differs from 0.0); integers exactly.
fn first_difference(expected: &J, got: &J, path: &str) -> Option<String> {
    let here = || {
        let at = if path.is_empty() {
            String::new()
        } else {
            format!(" at {path}")
        };
        Some(format!(
            "expected {}, got {}{at}",
            show(expected),
            show(got)
        ))
    };
    match (expected, got) {
        (J::Null, J::Null) => None,
        (J::Bool(a), J::Bool(b)) if a == b => None,
        (J::Int(a), J::Int(b)) if a == b => None,
        (J::Float(a), J::Float(b)) if a.to_bits() == b.to_bits() => None,
        (J::Str(a), J::Str(b)) if a == b => None,
        (J::List(a), J::List(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(x, y, &format!("{path}[{i}]"))),
        (J::Obj(a), J::Obj(b))
            if a.len() == b.len() && a.iter().zip(b).all(|((k1, _), (k2, _))| k1 == k2) =>
        {
            a.iter()
                .zip(b)
                .find_map(|((k, x), (_, y))| first_difference(x, y, &format!("{path}.{k}")))
        }
        _ => here(),
    }
}

// ---------------------------------------------------------------------------
// strata's reading in the sidecar's form
// ---------------------------------------------------------------------------

const UTC_SPELLINGS: &[&str] = &["UTC", "+00:00", "Z", "Etc/UTC", "utc", "+0000"];

fn unit(u: &TimeUnit) -> &'static str {
    match u {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    }
}

/// The sidecar's type string of an Arrow type (generate.py `type_string`).
fn type_string(dt: &DataType) -> String {
    match dt {
        DataType::Null => "null".into(),
        DataType::Boolean => "bool".into(),
        DataType::Int8 => "int8".into(),
        DataType::Int16 => "int16".into(),
        DataType::Int32 => "int32".into(),
        DataType::Int64 => "int64".into(),
        DataType::UInt8 => "uint8".into(),
        DataType::UInt16 => "uint16".into(),
        DataType::UInt32 => "uint32".into(),
        DataType::UInt64 => "uint64".into(),
        DataType::Float16 => "float16".into(),
        DataType::Float32 => "float32".into(),
        DataType::Float64 => "float64".into(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => "utf8".into(),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => "binary".into(),
        DataType::FixedSizeBinary(n) => format!("fixed_size_binary[{n}]"),
        DataType::Decimal32(p, s)
        | DataType::Decimal64(p, s)
        | DataType::Decimal128(p, s)
        | DataType::Decimal256(p, s) => format!("decimal({p},{s})"),
        DataType::Date32 => "date32".into(),
        DataType::Date64 => "date64".into(),
        DataType::Time32(u) | DataType::Time64(u) => format!("time[{}]", unit(u)),
        DataType::Timestamp(u, None) => format!("timestamp[{}]", unit(u)),
        DataType::Timestamp(u, Some(tz)) => {
            let tz = if UTC_SPELLINGS.contains(&tz.as_ref()) {
                "UTC"
            } else {
                tz.as_ref()
            };
            format!("timestamp[{}, {tz}]", unit(u))
        }
        DataType::Duration(u) => format!("duration[{}]", unit(u)),
        DataType::Interval(IntervalUnit::YearMonth) => "interval[month]".into(),
        DataType::Interval(IntervalUnit::DayTime) => "interval[day_time]".into(),
        DataType::Interval(IntervalUnit::MonthDayNano) => "interval[month_day_nano]".into(),
        DataType::Dictionary(_, v) => type_string(v),
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f) => format!("list<{}>", child_string(f)),
        DataType::FixedSizeList(f, n) => format!("fixed_size_list[{n}]<{}>", child_string(f)),
        DataType::Struct(fs) => {
            let inner: Vec<String> = fs
                .iter()
                .map(|f| format!("{}: {}", f.name(), child_string(f)))
                .collect();
            format!("struct<{}>", inner.join(", "))
        }
        DataType::Map(entries, _) => match entries.data_type() {
            DataType::Struct(kv) if kv.len() == 2 => format!(
                "map<{}, {}>",
                type_string(kv[0].data_type()),
                child_string(&kv[1])
            ),
            other => format!("map<?{other}?>"),
        },
        other => format!("unsupported<{other}>"),
    }
}

fn child_string(f: &Field) -> String {
    let t = type_string(f.data_type());
    if f.is_nullable() { t } else { t + " not null" }
}

/// A column's type as the known-differences table spells it: the type
/// string, wrapped in `dictionary<INDEX, ..>` and `extension<NAME, ..>`.
fn type_spelling(t: &str, dictionary_index: Option<&str>, extension: Option<&str>) -> String {
    let mut s = t.to_string();
    if let Some(i) = dictionary_index {
        s = format!("dictionary<{i}, {s}>");
    }
    if let Some(e) = extension {
        s = format!("extension<{e}, {s}>");
    }
    s
}

/// strata's field in the table's spelling.
fn strata_spelling(f: &Field) -> String {
    let index = match f.data_type() {
        DataType::Dictionary(k, _) => Some(type_string(k)),
        _ => None,
    };
    type_spelling(
        &type_string(f.data_type()),
        index.as_deref(),
        f.metadata().get("ARROW:extension:name").map(String::as_str),
    )
}

fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        write!(s, "{x:02x}").unwrap();
    }
    s
}

/// A float as the sidecar writes it.
fn float(v: f64) -> J {
    if v.is_nan() {
        J::Str("NaN".into())
    } else if v == f64::INFINITY {
        J::Str("inf".into())
    } else if v == f64::NEG_INFINITY {
        J::Str("-inf".into())
    } else {
        J::Float(v)
    }
}

/// Fixed point with exactly `scale` digits after the point, from the
/// unscaled integer's decimal text (generate.py `decimal_string`).
fn decimal_string(unscaled: &str, scale: i8) -> String {
    let (neg, digits) = match unscaled.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, unscaled),
    };
    let zero = digits.bytes().all(|b| b == b'0');
    let text = if scale <= 0 {
        if zero {
            "0".to_string()
        } else {
            format!("{digits}{}", "0".repeat(scale.unsigned_abs() as usize))
        }
    } else {
        let s = scale as usize;
        let padded = format!("{digits:0>width$}", width = s + 1);
        format!(
            "{}.{}",
            &padded[..padded.len() - s],
            &padded[padded.len() - s..]
        )
    };
    if neg && !zero {
        format!("-{text}")
    } else {
        text
    }
}

fn prim<T: ArrowPrimitiveType>(a: &dyn Array, f: impl Fn(T::Native) -> J) -> Vec<J> {
    a.as_primitive::<T>()
        .values()
        .iter()
        .map(|v| f(*v))
        .collect()
}

fn int<T>(v: T) -> J
where
    i128: From<T>,
{
    J::Int(i128::from(v))
}

/// Rows `[start, start + len)` of `child` as a JSON list.
fn slice(child: &[J], start: usize, len: usize) -> J {
    J::List(child[start..start + len].to_vec())
}

/// Every row of `a` in the sidecar's form (generate.py `values`).
/// Each slot of a list view: its `size` values from `offset`.
fn list_view_values<O: OffsetSizeTrait>(l: &GenericListViewArray<O>) -> Result<Vec<J>, String> {
    let child = values(l.values().as_ref())?;
    Ok((0..l.len())
        .map(|i| {
            slice(
                &child,
                l.value_offsets()[i].as_usize(),
                l.value_sizes()[i].as_usize(),
            )
        })
        .collect())
}

fn values(a: &dyn Array) -> Result<Vec<J>, String> {
    let n = a.len();
    let mut out: Vec<J> = match a.data_type() {
        DataType::Null => vec![J::Null; n],
        DataType::Boolean => a
            .as_boolean()
            .iter()
            .map(|v| J::Bool(v == Some(true)))
            .collect(),
        DataType::Int8 => prim::<Int8Type>(a, int),
        DataType::Int16 => prim::<Int16Type>(a, int),
        DataType::Int32 => prim::<Int32Type>(a, int),
        DataType::Int64 => prim::<Int64Type>(a, int),
        DataType::UInt8 => prim::<UInt8Type>(a, int),
        DataType::UInt16 => prim::<UInt16Type>(a, int),
        DataType::UInt32 => prim::<UInt32Type>(a, int),
        DataType::UInt64 => prim::<UInt64Type>(a, int),
        DataType::Float16 => prim::<Float16Type>(a, |v| float(v.to_f64())),
        DataType::Float32 => prim::<Float32Type>(a, |v| float(f64::from(v))),
        DataType::Float64 => prim::<Float64Type>(a, float),
        DataType::Utf8 => str_values(a.as_string::<i32>().iter()),
        DataType::LargeUtf8 => str_values(a.as_string::<i64>().iter()),
        DataType::Utf8View => str_values(a.as_string_view().iter()),
        DataType::Binary => bin_values(a.as_binary::<i32>().iter()),
        DataType::LargeBinary => bin_values(a.as_binary::<i64>().iter()),
        DataType::BinaryView => bin_values(a.as_binary_view().iter()),
        DataType::FixedSizeBinary(_) => bin_values(a.as_fixed_size_binary().iter()),
        DataType::Decimal32(_, s) => {
            prim::<Decimal32Type>(a, |v| J::Str(decimal_string(&v.to_string(), *s)))
        }
        DataType::Decimal64(_, s) => {
            prim::<Decimal64Type>(a, |v| J::Str(decimal_string(&v.to_string(), *s)))
        }
        DataType::Decimal128(_, s) => {
            prim::<Decimal128Type>(a, |v| J::Str(decimal_string(&v.to_string(), *s)))
        }
        DataType::Decimal256(_, s) => {
            prim::<Decimal256Type>(a, |v| J::Str(decimal_string(&v.to_string(), *s)))
        }
        DataType::Date32 => prim::<Date32Type>(a, int),
        DataType::Date64 => prim::<Date64Type>(a, int),
        DataType::Time32(TimeUnit::Second) => prim::<Time32SecondType>(a, int),
        DataType::Time32(TimeUnit::Millisecond) => prim::<Time32MillisecondType>(a, int),
        DataType::Time64(TimeUnit::Microsecond) => prim::<Time64MicrosecondType>(a, int),
        DataType::Time64(TimeUnit::Nanosecond) => prim::<Time64NanosecondType>(a, int),
        DataType::Timestamp(TimeUnit::Second, _) => prim::<TimestampSecondType>(a, int),
        DataType::Timestamp(TimeUnit::Millisecond, _) => prim::<TimestampMillisecondType>(a, int),
        DataType::Timestamp(TimeUnit::Microsecond, _) => prim::<TimestampMicrosecondType>(a, int),
        DataType::Timestamp(TimeUnit::Nanosecond, _) => prim::<TimestampNanosecondType>(a, int),
        DataType::Duration(TimeUnit::Second) => prim::<DurationSecondType>(a, int),
        DataType::Duration(TimeUnit::Millisecond) => prim::<DurationMillisecondType>(a, int),
        DataType::Duration(TimeUnit::Microsecond) => prim::<DurationMicrosecondType>(a, int),
        DataType::Duration(TimeUnit::Nanosecond) => prim::<DurationNanosecondType>(a, int),
        DataType::Interval(IntervalUnit::YearMonth) => prim::<IntervalYearMonthType>(a, int),
        DataType::Interval(IntervalUnit::DayTime) => prim::<IntervalDayTimeType>(a, |v| {
            J::Obj(vec![
                ("days".into(), int(v.days)),
                ("milliseconds".into(), int(v.milliseconds)),
            ])
        }),
        DataType::Interval(IntervalUnit::MonthDayNano) => {
            prim::<IntervalMonthDayNanoType>(a, |v| {
                J::Obj(vec![
                    ("months".into(), int(v.months)),
                    ("days".into(), int(v.days)),
                    ("nanoseconds".into(), int(v.nanoseconds)),
                ])
            })
        }
        DataType::List(_) => {
            let l = a.as_list::<i32>();
            let child = values(l.values().as_ref())?;
            l.offsets()
                .windows(2)
                .map(|w| slice(&child, w[0] as usize, (w[1] - w[0]) as usize))
                .collect()
        }
        DataType::LargeList(_) => {
            let l = a.as_list::<i64>();
            let child = values(l.values().as_ref())?;
            l.offsets()
                .windows(2)
                .map(|w| slice(&child, w[0] as usize, (w[1] - w[0]) as usize))
                .collect()
        }
        DataType::ListView(_) => list_view_values(a.as_list_view::<i32>())?,
        DataType::LargeListView(_) => list_view_values(a.as_list_view::<i64>())?,
        DataType::FixedSizeList(_, size) => {
            let l = a.as_fixed_size_list();
            let child = values(l.values().as_ref())?;
            let size = *size as usize;
            (0..n).map(|i| slice(&child, i * size, size)).collect()
        }
        DataType::Struct(fs) => {
            let s = a.as_struct();
            let children = s
                .columns()
                .iter()
                .map(|c| values(c.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            (0..n)
                .map(|i| {
                    J::Obj(
                        fs.iter()
                            .zip(&children)
                            .map(|(f, c)| (f.name().clone(), c[i].clone()))
                            .collect(),
                    )
                })
                .collect()
        }
        DataType::Map(_, _) => {
            let m = a.as_map();
            let keys = values(m.keys().as_ref())?;
            let items = values(m.values().as_ref())?;
            m.offsets()
                .windows(2)
                .map(|w| {
                    J::List(
                        (w[0] as usize..w[1] as usize)
                            .map(|j| J::List(vec![keys[j].clone(), items[j].clone()]))
                            .collect(),
                    )
                })
                .collect()
        }
        DataType::Dictionary(_, _) => {
            let d = a.as_any_dictionary();
            let dict = values(d.values().as_ref())?;
            // normalized_keys panics on an empty dictionary.
            let keys = if dict.is_empty() {
                vec![0; n]
            } else {
                d.normalized_keys()
            };
            keys.iter()
                .enumerate()
                .map(|(i, &k)| {
                    if a.is_null(i) {
                        J::Null
                    } else {
                        dict.get(k).cloned().unwrap_or_else(|| {
                            J::Str(format!("<key {k} outside a dictionary of {}>", dict.len()))
                        })
                    }
                })
                .collect()
        }
        other => return Err(format!("no sidecar form for strata's type {other}")),
    };
    if out.len() != n {
        return Err(format!("{} values for {n} rows", out.len()));
    }
    if let Some(nulls) = a.logical_nulls() {
        for (i, v) in out.iter_mut().enumerate() {
            if nulls.is_null(i) {
                *v = J::Null;
            }
        }
    }
    Ok(out)
}

fn str_values<'a>(it: impl Iterator<Item = Option<&'a str>>) -> Vec<J> {
    it.map(|v| v.map_or(J::Null, |s| J::Str(s.to_string())))
        .collect()
}

fn bin_values<'a>(it: impl Iterator<Item = Option<&'a [u8]>>) -> Vec<J> {
    it.map(|v| v.map_or(J::Null, |b| J::Str(hex(b)))).collect()
}

// ---------------------------------------------------------------------------
// Normalisation across a known type difference
// ---------------------------------------------------------------------------

/// Multiplier from a unit to nanoseconds.
fn per_ns(u: &str) -> Option<i128> {
    match u {
        "s" => Some(1_000_000_000),
        "ms" => Some(1_000_000),
        "us" => Some(1_000),
        "ns" => Some(1),
        _ => None,
    }
}

/// The unit of `timestamp[UNIT...]` or `time[UNIT]`.
fn unit_of<'a>(t: &'a str, kind: &str) -> Option<&'a str> {
    let rest = t.strip_prefix(kind)?.strip_prefix('[')?;
    Some(rest.split([',', ']']).next()?.trim())
}

/// A conversion of one value into the common form.
type Convert = fn(&J, i128) -> J;

fn scale_int(v: &J, factor: i128) -> J {
    match v {
        J::Int(i) => J::Int(i * factor),
        other => other.clone(),
    }
}

fn same(v: &J, _: i128) -> J {
    v.clone()
}

/// A month-day-nano interval as the 12 bytes of Parquet's INTERVAL
/// (months, days, milliseconds; little-endian u32 each), when its
/// nanoseconds are whole milliseconds; otherwise unchanged, so that it
/// differs.
fn interval_bytes(v: &J, _: i128) -> J {
    let (Some(J::Int(m)), Some(J::Int(d)), Some(J::Int(ns))) =
        (v.get("months"), v.get("days"), v.get("nanoseconds"))
    else {
        return v.clone();
    };
    if ns % 1_000_000 != 0 {
        return v.clone();
    }
    let (Ok(m), Ok(d), Ok(ms)) = (
        u32::try_from(*m),
        u32::try_from(*d),
        u32::try_from(ns / 1_000_000),
    ) else {
        return v.clone();
    };
    let mut b = Vec::with_capacity(12);
    for x in [m, d, ms] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    J::Str(hex(&b))
}

/// How values of pyarrow's type `expected` and strata's type `got` are
/// brought to one form: (conversion of pyarrow's value, its factor,
/// conversion of strata's value, its factor), or `None` when the two types
/// do not hold the same data in different forms.
///
/// - the same type string (a dictionary or an extension type on one side
///   only): the values as they are (dictionaries decoded);
/// - `timestamp[U1, ..]` / `timestamp[U2, ..]` and `time[U1]` /
///   `time[U2]`: both as integers of nanoseconds, the same instant or time
///   of day (time zones do not change the stored UTC instant);
/// - `date32` / `date64`: days as milliseconds (`days * 86_400_000`);
/// - `fixed_size_binary[12]` / `interval[month_day_nano]`: the interval as
///   Parquet's 12 INTERVAL bytes (months, days, milliseconds).
fn common_values(expected: &str, got: &str) -> Option<(Convert, i128, Convert, i128)> {
    if expected == got {
        return Some((same, 1, same, 1));
    }
    for kind in ["timestamp", "time"] {
        if let (Some(ue), Some(ug)) = (unit_of(expected, kind), unit_of(got, kind)) {
            return Some((scale_int, per_ns(ue)?, scale_int, per_ns(ug)?));
        }
    }
    match (expected, got) {
        ("date32", "date64") => Some((scale_int, 86_400_000, same, 1)),
        ("fixed_size_binary[12]", "interval[month_day_nano]") => Some((same, 1, interval_bytes, 1)),
        _ => None,
    }
}

/// `|` separates alternatives; `*` matches any run of characters.
fn matches(pattern: &str, s: &str) -> bool {
    pattern.split('|').any(|p| glob(p, s))
}

/// `*` matches any run of characters.
fn glob(pattern: &str, s: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == s;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !s.starts_with(first) || s.len() < first.len() + last.len() || !s.ends_with(last) {
        return false;
    }
    let mut rest = &s[first.len()..s.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

// ---------------------------------------------------------------------------
// One file
// ---------------------------------------------------------------------------

/// What checking one file found.
#[derive(Default)]
struct FileResult {
    /// Problems that fail the test: "column: ..." lines.
    failures: Vec<String>,
    /// Known type differences hit (indices into `KNOWN_TYPES`).
    known: Vec<usize>,
}

/// Reads `path` whole with strata (default options).
fn strata_read(path: &Path) -> Result<(RecordBatch, usize), String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
    let row_groups = builder.metadata().num_row_groups();
    let schema = builder.schema().clone();
    let reader = builder.build().map_err(|e| e.to_string())?;
    let batches: Vec<RecordBatch> = reader
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let batch =
        arrow_select::concat::concat_batches(&schema, &batches).map_err(|e| e.to_string())?;
    Ok((batch, row_groups))
}

/// [`strata_read`] with a panic caught and reported as `Err("PANIC: ..")`.
fn strata_read_catching(path: &Path) -> Result<(RecordBatch, usize), String> {
    match catch_unwind(AssertUnwindSafe(|| strata_read(path))) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "PANIC: {}",
            python_peers::panic_message(p.as_ref())
        )),
    }
}

/// strata's reading of `path` against pyarrow's, `expected` (a sidecar).
fn check_file(path: &Path, expected: &J) -> FileResult {
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    match strata_read_catching(path) {
        Ok((batch, row_groups)) => compare_reading(&stem, &batch, row_groups, expected),
        Err(e) => FileResult {
            failures: vec![format!("*: strata cannot read it: {e}")],
            known: Vec::new(),
        },
    }
}

/// A reading of file `stem` (`batch`, and the footer's number of row
/// groups) against pyarrow's, `expected`.
fn compare_reading(stem: &str, batch: &RecordBatch, row_groups: usize, expected: &J) -> FileResult {
    let mut r = FileResult::default();
    let want_rows = expected.field("num_rows").int();
    if batch.num_rows() as i128 != want_rows {
        r.failures.push(format!(
            "*: {} rows, pyarrow reads {want_rows}",
            batch.num_rows()
        ));
    }
    let want_groups = expected.field("num_row_groups").int();
    if row_groups as i128 != want_groups {
        r.failures.push(format!(
            "*: {row_groups} row groups, pyarrow's footer has {want_groups}"
        ));
    }
    let schema = expected.field("schema").list();
    let columns = expected.field("columns").list();
    let fields = batch.schema_ref().fields().clone();
    if fields.len() != schema.len() {
        r.failures.push(format!(
            "*: {} columns [{}], pyarrow reads {} [{}]",
            fields.len(),
            fields
                .iter()
                .map(|f| f.name().as_str())
                .collect::<Vec<_>>()
                .join(", "),
            schema.len(),
            schema
                .iter()
                .map(|s| s.field("name").str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return r;
    }
    for (i, (ef, af)) in schema.iter().zip(fields.iter()).enumerate() {
        let col = ef.field("name").str();
        if af.name() != col {
            r.failures
                .push(format!("{col}: strata names column {i} {:?}", af.name()));
            continue;
        }
        if af.is_nullable() != ef.field("nullable").bool() {
            r.failures.push(format!(
                "{col}: nullable {} in strata, {} in pyarrow",
                af.is_nullable(),
                ef.field("nullable").bool()
            ));
        }
        let e_type = ef.field("type").str();
        let e_spelling = type_spelling(
            e_type,
            ef.opt_str("dictionary_index"),
            ef.opt_str("extension"),
        );
        let a_type = type_string(af.data_type());
        let a_spelling = strata_spelling(af);
        if e_spelling != a_spelling {
            let known = KNOWN_TYPES.iter().position(|(f, c, pt, st, _)| {
                matches(f, stem) && matches(c, col) && *pt == e_spelling && glob(st, &a_spelling)
            });
            match known {
                Some(k) => r.known.push(k),
                None => {
                    r.failures.push(format!(
                        "{col}: type {a_spelling} (Arrow {}), pyarrow reads {e_spelling} ({}); \
                         not in KNOWN_TYPES",
                        af.data_type(),
                        ef.field("pyarrow_type").str()
                    ));
                    continue;
                }
            }
        }
        let Some((conv_e, fe, conv_a, fa)) = common_values(e_type, &a_type) else {
            r.failures.push(format!(
                "{col}: no value normalisation between pyarrow's {e_type} and strata's {a_type}"
            ));
            continue;
        };
        let got = match values(batch.column(i).as_ref()) {
            Ok(v) => v,
            Err(e) => {
                r.failures.push(format!("{col}: {e}"));
                continue;
            }
        };
        let want = columns[i].list();
        if got.len() != want.len() {
            r.failures.push(format!(
                "{col}: {} values, pyarrow reads {}",
                got.len(),
                want.len()
            ));
            continue;
        }
        let mut first = None;
        let mut bad = 0;
        for (row, (w, g)) in want.iter().zip(&got).enumerate() {
            if let Some(d) = first_difference(&conv_e(w, fe), &conv_a(g, fa), "") {
                bad += 1;
                first.get_or_insert((row, d));
            }
        }
        if let Some((row, d)) = first {
            r.failures.push(format!(
                "{col}: row {row}: {d} ({bad} of {} rows differ; strata's type {}, pyarrow's {})",
                want.len(),
                af.data_type(),
                ef.field("pyarrow_type").str()
            ));
        }
    }
    r
}

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Counts {
    cases: usize,
    written: usize,
    read: usize,
    passed: usize,
    failed: usize,
    skipped: Vec<(String, String)>,
}

#[test]
fn multi_writer_corpus_matches_pyarrow() {
    let Some(py) = python() else { return };
    let dir = work_dir();
    generate(&py, &dir);

    let load = |name: &str| {
        let text = fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("cannot read {name} from generate.py: {e}"));
        parse_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let manifest = load("manifest.json");
    let skipped = load("skipped.json");
    let versions: Vec<String> = match manifest.field("versions") {
        J::Obj(kv) => kv.iter().map(|(k, v)| format!("{k} {}", v.str())).collect(),
        _ => Vec::new(),
    };
    eprintln!("generated with {}", versions.join(", "));

    let mut counts: BTreeMap<String, Counts> = BTreeMap::new();
    let mut reasons: BTreeMap<String, String> = BTreeMap::new();
    for s in skipped.list() {
        let (file, writer) = (s.field("file").str(), s.field("writer").str());
        let why = format!("{}: {}", s.field("stage").str(), s.field("reason").str());
        reasons.insert(file.to_string(), why.clone());
        if s.field("stage").str() == "write" {
            let c = counts.entry(writer.to_string()).or_default();
            c.cases += 1;
            c.skipped
                .push((file.to_string(), format!("not written ({why})")));
        }
    }

    let mut failures: Vec<String> = Vec::new();
    let mut known_hit = vec![0usize; KNOWN_TYPES.len()];
    for entry in manifest.field("files").list() {
        let file = entry.field("file").str();
        let writer = entry.field("writer").str();
        let c = counts.entry(writer.to_string()).or_default();
        c.cases += 1;
        c.written += 1;
        let path = dir.join(file);
        let Some(sidecar) = entry.opt_str("expected") else {
            let why = reasons
                .get(file)
                .cloned()
                .unwrap_or_else(|| "no expected sidecar".to_string());
            let strata = match strata_read_catching(&path) {
                Ok((b, _)) => format!("strata reads {} rows", b.num_rows()),
                Err(e) => format!("strata: {e}"),
            };
            eprintln!("  SKIP {file}: pyarrow cannot read it ({why}); {strata}");
            c.skipped
                .push((file.to_string(), format!("pyarrow cannot read it ({why})")));
            continue;
        };
        c.read += 1;
        let expected = load(sidecar);
        let r =
            catch_unwind(AssertUnwindSafe(|| check_file(&path, &expected))).unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                FileResult {
                    failures: vec![format!("*: PANIC while comparing: {msg}")],
                    known: Vec::new(),
                }
            });
        for &k in &r.known {
            known_hit[k] += 1;
        }
        if r.failures.is_empty() {
            c.passed += 1;
            let note = if r.known.is_empty() {
                String::new()
            } else {
                format!(" ({} known type differences)", r.known.len())
            };
            eprintln!("  pass {file}{note}");
        } else {
            c.failed += 1;
            for f in &r.failures {
                eprintln!("  FAIL {file} {f}");
                failures.push(format!("{file} {f}"));
            }
        }
    }

    eprintln!("\nknown type differences (values compared after normalising):");
    let mut explained: Vec<&str> = Vec::new();
    for (i, (f, c, pt, st, why)) in KNOWN_TYPES.iter().enumerate() {
        let tag = if known_hit[i] > 0 {
            format!("{} columns", known_hit[i])
        } else {
            "STALE: no column hit it".to_string()
        };
        eprintln!("  {f} {c}: pyarrow {pt}, strata {st} [{tag}]");
        if !explained.contains(why) {
            explained.push(why);
            eprintln!("      why: {why}");
        }
    }

    eprintln!(
        "\nper writer: cases; files written; read by strata and compared with pyarrow; \
         passed; failed; skipped"
    );
    eprintln!("writer        cases  written  read  passed  failed  skipped");
    for (w, c) in &counts {
        eprintln!(
            "{w:<12} {:>6}  {:>7}  {:>4}  {:>6}  {:>6}  {:>7}",
            c.cases,
            c.written,
            c.read,
            c.passed,
            c.failed,
            c.skipped.len()
        );
    }
    for (w, c) in &counts {
        for (file, why) in &c.skipped {
            eprintln!("  skipped {w} {file}: {why}");
        }
    }

    for w in ["fastparquet", "polars", "duckdb", "pyarrow"] {
        let read = counts.get(w).map_or(0, |c| c.read);
        assert!(
            read > 0,
            "generate.py gave no {w} file with pyarrow's reading (files in {})",
            dir.display()
        );
    }
    assert!(
        failures.is_empty(),
        "{} differences between strata and pyarrow (files kept in {}):\n{}",
        failures.len(),
        dir.display(),
        failures.join("\n")
    );
    let _ = fs::remove_dir_all(&dir);
}
