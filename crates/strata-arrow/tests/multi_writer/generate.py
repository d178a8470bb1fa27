"""The generated multi-writer corpus: Parquet files written by fastparquet,
polars, DuckDB and pyarrow across the options their users set, each with
pyarrow's reading of it beside it, for a reader to be compared against.

Usage: generate.py OUTDIR

Writes into OUTDIR (created if missing; files of an earlier run with the
same names are replaced):

  <writer>_<case>.parquet        one file per case; data is small (a few
                                 hundred rows, with nulls) and seeded, so
                                 two runs with the same package versions
                                 write the same values.
  <writer>_<case>.expected.json  what `pq.read_table(file)` returns (pyarrow's
                                 defaults: the embedded Arrow schema is used,
                                 Arrow extension types are on), in the form
                                 described below. Absent when pyarrow cannot
                                 read the file.
  manifest.json                  {"versions": {package: version},
                                  "writers": {writer: [file, ...]},
                                  "files": [{"file", "writer", "case",
                                             "options", "expected"}]}
                                 "expected" is the sidecar's name, or null
                                 for a file listed in skipped.json.
  skipped.json                   [{"file", "writer", "case", "stage",
                                   "reason"}]: stage "write" when the writer
                                 refused the case (no file is left), stage
                                 "pyarrow" when the file was written but
                                 pyarrow cannot read it (the file stays, with
                                 no expected sidecar).

A writer whose package cannot be imported has each of its cases listed in
skipped.json (stage "write", reason "<package> is not installed").

Prints one line per file, then counts per writer, and exits 0 unless the
script itself fails.

## The expected sidecar

    {"file": "duckdb_nested.parquet", "writer": "duckdb", "case": "nested",
     "num_rows": 300, "num_row_groups": 1, "created_by": "...",
     "schema": [{"name": "m", "type": "map<utf8, int32>", "nullable": true,
                 "pyarrow_type": "map<string, int32>"}, ...],
     "columns": [[...values of field 0...], [...field 1...], ...]}

`columns[i]` holds every row's value of `schema[i]`, top-level fields in
file order. A field may also carry "dictionary_index" (the index type, when
pyarrow read the column as a dictionary array; the type and values are the
dictionary's values) and "extension" (an Arrow extension type name such as
"arrow.uuid"; the type and values are its storage's). "pyarrow_type" is
pyarrow's own spelling, for people; compare "type".

Type strings do not depend on how an implementation lays a type out in
memory:

  null, bool, int8 .. int64, uint8 .. uint64, float16, float32, float64
  utf8                      string, large_string and string_view alike
  binary                    binary, large_binary and binary_view alike
  fixed_size_binary[N]
  decimal(P,S)              every decimal width
  date32, date64
  time[UNIT]                time32 and time64; UNIT is s, ms, us or ns
  timestamp[UNIT]           no time zone
  timestamp[UNIT, TZ]       TZ as pyarrow gives it, except that "+00:00",
                            "Z", "Etc/UTC" and "UTC" are all spelled "UTC"
  duration[UNIT]
  interval[month], interval[day_time], interval[month_day_nano]
  list<CHILD>               list, large_list, list_view alike
  fixed_size_list[N]<CHILD>
  struct<NAME: CHILD, ...>
  map<KEY, CHILD>
  CHILD is a type string followed by " not null" when that child field is
  not nullable; list item names ("item", "element") are not part of it.

Values, per row (null is JSON null at any level):

  bool, integers            JSON booleans and integers (exact, u64 too)
  floats                    JSON numbers (the shortest text that reads back
                            as the same double; a float32 or float16 value
                            is the exact double of it), or the strings
                            "NaN", "inf", "-inf"
  utf8                      JSON strings
  binary, fixed_size_binary lower-case hex strings
  decimal                   strings, fixed point with exactly S digits after
                            the point ("-12.30", "0.001"; no point when
                            S <= 0, e.g. "1200" for unscaled 12 at S = -2)
  date32                    days since 1970-01-01
  date64, time, timestamp,  integers in the type's unit (timestamps are
  duration                  UTC-based instants for every time zone)
  interval[month]           months as an integer
  interval[day_time]        {"days": D, "milliseconds": M}
  interval[month_day_nano]  {"months": M, "days": D, "nanoseconds": N}
  list, fixed_size_list     JSON lists
  struct                    JSON objects keyed by field name, in field order
  map                       JSON lists of [key, value] pairs, in file order
"""

import datetime
import decimal
import json
import os
import random
import sys
import traceback

import pyarrow as pa
import pyarrow.parquet as pq

N = 300
SEED = 2026

try:
    import pandas as pd
    import numpy as np
except ImportError:  # fastparquet needs both; the other writers do not
    pd = None
    np = None

try:
    import fastparquet
except ImportError:
    fastparquet = None

try:
    import polars as pl
except ImportError:
    pl = None

try:
    import duckdb
except ImportError:
    duckdb = None


# ---------------------------------------------------------------------------
# Normalising pyarrow's reading
# ---------------------------------------------------------------------------

UTC_SPELLINGS = {"UTC", "+00:00", "Z", "Etc/UTC", "utc", "+0000"}


def type_string(t):
    """The implementation-independent type string of an Arrow type."""
    if pa.types.is_dictionary(t):
        return type_string(t.value_type)
    if isinstance(t, pa.BaseExtensionType):
        return type_string(t.storage_type)
    if pa.types.is_null(t):
        return "null"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_integer(t):
        return str(t)  # int8 .. uint64
    if pa.types.is_floating(t):
        return f"float{t.bit_width}"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "utf8"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return "binary"
    if pa.types.is_fixed_size_binary(t) and not pa.types.is_decimal(t):
        return f"fixed_size_binary[{t.byte_width}]"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    if pa.types.is_date32(t):
        return "date32"
    if pa.types.is_date64(t):
        return "date64"
    if pa.types.is_time(t):
        return f"time[{t.unit}]"
    if pa.types.is_timestamp(t):
        if t.tz is None:
            return f"timestamp[{t.unit}]"
        tz = "UTC" if t.tz in UTC_SPELLINGS else t.tz
        return f"timestamp[{t.unit}, {tz}]"
    if pa.types.is_duration(t):
        return f"duration[{t.unit}]"
    if t == pa.month_day_nano_interval():
        return "interval[month_day_nano]"
    if pa.types.is_interval(t):
        return "interval[month]" if str(t) == "month_interval" else "interval[day_time]"
    if pa.types.is_map(t):
        return f"map<{type_string(t.key_type)}, {child_string(t.item_field)}>"
    if pa.types.is_fixed_size_list(t):
        return f"fixed_size_list[{t.list_size}]<{child_string(t.value_field)}>"
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t)
            or pa.types.is_large_list_view(t)):
        return f"list<{child_string(t.value_field)}>"
    if pa.types.is_struct(t):
        inner = ", ".join(f"{f.name}: {child_string(f)}" for f in t)
        return f"struct<{inner}>"
    raise TypeError(f"no normalised type string for {t}")


def child_string(field):
    return type_string(field.type) + ("" if field.nullable else " not null")


def float_value(v):
    if v is None:
        return None
    v = float(v)
    if v != v:
        return "NaN"
    if v == float("inf"):
        return "inf"
    if v == float("-inf"):
        return "-inf"
    return v


def decimal_string(d, scale):
    """Fixed point with exactly `scale` digits after the point."""
    sign, digits, exp = d.as_tuple()
    n = int("".join(map(str, digits))) if digits else 0
    shift = exp + scale
    if shift >= 0:
        unscaled = n * 10**shift
    else:
        unscaled, rest = divmod(n, 10 ** (-shift))
        if rest:
            raise ValueError(f"{d} has more than {scale} fractional digits")
    if scale <= 0:
        text = str(unscaled * 10 ** (-scale))
    else:
        text = str(unscaled).rjust(scale + 1, "0")
        text = text[:-scale] + "." + text[-scale:]
    return ("-" if sign and unscaled else "") + text


def list_of(arr, f):
    return [None if v is None else f(v) for v in arr.to_pylist()]


def values(arr):
    """Every row of a pyarrow Array as normalised JSON values."""
    t = arr.type
    if pa.types.is_dictionary(t):
        return values(arr.dictionary_decode())
    if isinstance(t, pa.BaseExtensionType):
        return values(arr.storage)
    if pa.types.is_null(t):
        return [None] * len(arr)
    if pa.types.is_boolean(t) or pa.types.is_integer(t):
        return arr.to_pylist()
    if pa.types.is_float16(t):
        return [float_value(v) for v in arr.cast(pa.float32()).to_pylist()]
    if pa.types.is_floating(t):
        return [float_value(v) for v in arr.to_pylist()]
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return arr.to_pylist()
    if pa.types.is_decimal(t):
        return list_of(arr, lambda d: decimal_string(d, t.scale))
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return list_of(arr, lambda b: b.hex())
    if pa.types.is_date32(t) or (pa.types.is_time(t) and t.bit_width == 32):
        return arr.view(pa.int32()).to_pylist()
    if pa.types.is_temporal(t) and not pa.types.is_interval(t):
        return arr.view(pa.int64()).to_pylist()
    if t == pa.month_day_nano_interval():
        return list_of(arr, lambda v: {"months": v.months, "days": v.days,
                                        "nanoseconds": v.nanoseconds})
    if pa.types.is_interval(t):
        if str(t) == "month_interval":
            return arr.view(pa.int32()).to_pylist()
        return list_of(arr, lambda v: {"days": v[0], "milliseconds": v[1]})
    if pa.types.is_map(t):
        out = []
        for i in range(len(arr)):
            s = arr[i]
            if not s.is_valid:
                out.append(None)
                continue
            entries = s.values
            if entries is None or len(entries) == 0:
                out.append([])
                continue
            keys, items = entries.flatten()
            out.append([[k, v] for k, v in zip(values(keys), values(items))])
        return out
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)
            or pa.types.is_list_view(t) or pa.types.is_large_list_view(t)):
        out = []
        for i in range(len(arr)):
            s = arr[i]
            out.append(values(s.values) if s.is_valid else None)
        return out
    if pa.types.is_struct(t):
        children = [values(c) for c in arr.flatten()]
        names = [f.name for f in t]
        valid = arr.is_valid().to_pylist()
        return [
            {n: c[i] for n, c in zip(names, children)} if valid[i] else None
            for i in range(len(arr))
        ]
    raise TypeError(f"no normalised values for {t}")


def read_with_pyarrow(path):
    """pyarrow's reading of `path` and its footer (raises if pyarrow cannot
    read it)."""
    return pq.read_table(path), pq.ParquetFile(path).metadata


def expected_reading(table, meta, path, writer, case):
    """The sidecar's content for pyarrow's reading `table` of `path`."""
    schema = []
    columns = []
    for field, column in zip(table.schema, table.columns):
        entry = {
            "name": field.name,
            "type": type_string(field.type),
            "nullable": field.nullable,
            "pyarrow_type": str(field.type),
        }
        if pa.types.is_dictionary(field.type):
            entry["dictionary_index"] = str(field.type.index_type)
        if isinstance(field.type, pa.BaseExtensionType):
            entry["extension"] = field.type.extension_name
        schema.append(entry)
        col = []
        for chunk in column.chunks:
            col.extend(values(chunk))
        columns.append(col)
    return {
        "file": os.path.basename(path),
        "writer": writer,
        "case": case,
        "num_rows": table.num_rows,
        "num_row_groups": meta.num_row_groups,
        "created_by": meta.created_by,
        "schema": schema,
        "columns": columns,
    }


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------

WORDS = ["alpha", "beta", "gamma", "delta", "", "é", "漢字", "🦀", "a b", "zeta-long-word"]


def maybe(rng, v, p=0.15):
    return None if rng.random() < p else v


def rand_text(rng):
    return "".join(rng.choice(WORDS) for _ in range(rng.choice([0, 1, 2, 3])))


def rand_bytes(rng):
    return bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 3, 8, 20])))


def rand_decimal(rng, precision, scale):
    v = decimal.Decimal(rng.randrange(10**precision)).scaleb(-scale)
    return -v if rng.random() < 0.5 else v


def rand_float(rng):
    r = rng.random()
    if r < 0.03:
        return float("nan")
    if r < 0.05:
        return rng.choice([float("inf"), float("-inf"), -0.0])
    return rng.uniform(-1e6, 1e6)


# ---- pandas frames for fastparquet ----


def pandas_frame(n=N, seed=SEED):
    """Numpy-backed columns of every kind fastparquet writes, with nulls
    where the dtype can hold them (NaN, NaT, None in object columns)."""
    rng = random.Random(seed)
    df = pd.DataFrame()
    df["i8"] = np.array([rng.randrange(-128, 128) for _ in range(n)], dtype=np.int8)
    df["i16"] = np.array([rng.randrange(-2**15, 2**15) for _ in range(n)], dtype=np.int16)
    df["i32"] = np.array([rng.randrange(-2**31, 2**31) for _ in range(n)], dtype=np.int32)
    df["i64"] = np.array([rng.randrange(-2**63, 2**63) for _ in range(n)], dtype=np.int64)
    df["u8"] = np.array([rng.randrange(256) for _ in range(n)], dtype=np.uint8)
    df["u32"] = np.array([rng.randrange(2**32) for _ in range(n)], dtype=np.uint32)
    df["u64"] = np.array([rng.randrange(2**63) for _ in range(n)], dtype=np.uint64)
    df["f32"] = np.array([rand_float(rng) for _ in range(n)], dtype=np.float32)
    df["f64"] = np.array([rand_float(rng) for _ in range(n)], dtype=np.float64)
    df["flag"] = np.array([rng.random() < 0.5 for _ in range(n)], dtype=bool)
    df["text"] = pd.Series([maybe(rng, rand_text(rng)) for _ in range(n)], dtype=object)
    base = datetime.datetime(2001, 2, 3, 4, 5, 6)
    df["ts"] = pd.Series(
        [maybe(rng, base + datetime.timedelta(microseconds=rng.randrange(-10**15, 10**15)))
         for _ in range(n)], dtype="datetime64[ns]")
    df["ts_tz"] = df["ts"].dt.tz_localize("UTC").dt.tz_convert("Europe/Paris")
    df["td"] = pd.Series(
        [maybe(rng, datetime.timedelta(seconds=rng.randrange(-10**6, 10**6))) for _ in range(n)],
        dtype="timedelta64[ns]")
    return df


def pandas_nullable_frame(n=N, seed=SEED + 1):
    rng = random.Random(seed)
    df = pd.DataFrame()
    for name, dtype, lo, hi in [("i8", "Int8", -128, 128), ("i16", "Int16", -2**15, 2**15),
                                ("i32", "Int32", -2**31, 2**31), ("i64", "Int64", -2**63, 2**63),
                                ("u8", "UInt8", 0, 256), ("u16", "UInt16", 0, 2**16),
                                ("u32", "UInt32", 0, 2**32), ("u64", "UInt64", 0, 2**64)]:
        df[name] = pd.array([maybe(rng, rng.randrange(lo, hi)) for _ in range(n)], dtype=dtype)
    df["b"] = pd.array([maybe(rng, rng.random() < 0.5) for _ in range(n)], dtype="boolean")
    df["s"] = pd.array([maybe(rng, rand_text(rng)) for _ in range(n)], dtype="string")
    df["f32"] = pd.array([maybe(rng, rng.uniform(-1e3, 1e3)) for _ in range(n)], dtype="Float32")
    df["f64"] = pd.array([maybe(rng, rng.uniform(-1e9, 1e9)) for _ in range(n)], dtype="Float64")
    return df


def pandas_object_frame(n=N, seed=SEED + 2):
    rng = random.Random(seed)

    def obj():
        kind = rng.randrange(4)
        if kind == 0:
            return [rng.randrange(100) for _ in range(rng.randrange(4))]
        if kind == 1:
            return {"k": rand_text(rng), "n": rng.randrange(10)}
        if kind == 2:
            return rand_text(rng)
        return rng.random() < 0.5

    df = pd.DataFrame()
    df["js"] = pd.Series([maybe(rng, obj()) for _ in range(n)], dtype=object)
    df["raw"] = pd.Series([maybe(rng, rand_bytes(rng)) for _ in range(n)], dtype=object)
    df["txt"] = pd.Series([maybe(rng, rand_text(rng)) for _ in range(n)], dtype=object)
    return df


def pandas_categorical_frame(n=N, seed=SEED + 3):
    rng = random.Random(seed)
    df = pd.DataFrame()
    df["cat_s"] = pd.Categorical([maybe(rng, rng.choice(WORDS[:6])) for _ in range(n)])
    df["cat_i"] = pd.Categorical([rng.choice([10, 20, 30, 40]) for _ in range(n)])
    df["cat_unused"] = pd.Categorical(
        [maybe(rng, rng.choice(["x", "y"])) for _ in range(n)], categories=["x", "y", "never"])
    df["plain"] = np.arange(n, dtype=np.int64)
    return df


def pandas_fixed_text_frame(n=N, seed=SEED + 4):
    rng = random.Random(seed)
    df = pd.DataFrame()
    df["code"] = pd.Series(
        ["".join(rng.choice("ABCDEFGH") for _ in range(5)) for _ in range(n)], dtype=object)
    df["raw4"] = pd.Series([bytes(rng.randrange(256) for _ in range(4)) for _ in range(n)],
                           dtype=object)
    df["n"] = np.arange(n, dtype=np.int32)
    return df


# ---- Arrow tables for pyarrow and polars ----


def arrow_table(n=N, seed=SEED + 10):
    rng = random.Random(seed)
    cols = {}

    def add(name, typ, gen, p=0.15):
        cols[name] = pa.array([maybe(rng, gen(), p) for _ in range(n)], type=typ)

    add("b", pa.bool_(), lambda: rng.random() < 0.5)
    add("i8", pa.int8(), lambda: rng.randrange(-128, 128))
    add("i16", pa.int16(), lambda: rng.randrange(-2**15, 2**15))
    add("i32", pa.int32(), lambda: rng.randrange(-2**31, 2**31))
    add("i64", pa.int64(), lambda: rng.randrange(-2**63, 2**63))
    add("u16", pa.uint16(), lambda: rng.randrange(2**16))
    add("u32", pa.uint32(), lambda: rng.randrange(2**32))
    add("u64", pa.uint64(), lambda: rng.randrange(2**64))
    add("f32", pa.float32(), lambda: rand_float(rng))
    add("f64", pa.float64(), lambda: rand_float(rng))
    add("s", pa.string(), lambda: rand_text(rng))
    add("bin", pa.binary(), lambda: rand_bytes(rng))
    add("fsb", pa.binary(6), lambda: bytes(rng.randrange(256) for _ in range(6)))
    add("dec", pa.decimal128(12, 3), lambda: rand_decimal(rng, 12, 3))
    add("date", pa.date32(), lambda: datetime.date(1970, 1, 1)
        + datetime.timedelta(days=rng.randrange(-20000, 40000)))
    add("ts_ns", pa.timestamp("ns"), lambda: rng.randrange(-2**62, 2**62))
    add("ts_us_utc", pa.timestamp("us", tz="UTC"), lambda: rng.randrange(-10**17, 10**17))
    add("time_us", pa.time64("us"), lambda: rng.randrange(86_400_000_000))
    add("lst", pa.list_(pa.int32()), lambda: [maybe(rng, rng.randrange(1000), 0.2)
                                              for _ in range(rng.randrange(4))])
    add("st", pa.struct([("x", pa.int64()), ("y", pa.string())]),
        lambda: {"x": maybe(rng, rng.randrange(100)), "y": maybe(rng, rand_text(rng))})
    return pa.table(cols)


def low_cardinality_table(n=N, seed=SEED + 11):
    """Columns with few distinct values (dictionary-friendly) next to
    high-cardinality ones."""
    rng = random.Random(seed)
    return pa.table({
        "cat": pa.array([maybe(rng, rng.choice(WORDS[:4])) for _ in range(n)], pa.string()),
        "code": pa.array([maybe(rng, rng.randrange(5)) for _ in range(n)], pa.int32()),
        "uniq": pa.array([maybe(rng, f"id-{i:05d}") for i in range(n)], pa.string()),
        "val": pa.array([maybe(rng, rng.random()) for _ in range(n)], pa.float64()),
        "big": pa.array([maybe(rng, rng.randrange(-2**40, 2**40)) for _ in range(n)], pa.int64()),
    })


def nested_arrow_table(n=N, seed=SEED + 12):
    rng = random.Random(seed)

    def small_list(gen):
        return [maybe(rng, gen(), 0.2) for _ in range(rng.randrange(4))]

    return pa.table({
        "ints": pa.array([maybe(rng, small_list(lambda: rng.randrange(100))) for _ in range(n)],
                         pa.list_(pa.int64())),
        "strs": pa.array([maybe(rng, small_list(lambda: rand_text(rng))) for _ in range(n)],
                         pa.list_(pa.string())),
        "nested": pa.array(
            [maybe(rng, [maybe(rng, small_list(lambda: rng.randrange(9)), 0.2)
                         for _ in range(rng.randrange(3))]) for _ in range(n)],
            pa.list_(pa.list_(pa.int16()))),
        "m": pa.array(
            [maybe(rng, [(f"k{j}", maybe(rng, rng.randrange(50))) for j in range(rng.randrange(3))])
             for _ in range(n)], pa.map_(pa.string(), pa.int32())),
        "recs": pa.array(
            [maybe(rng, [{"a": maybe(rng, rng.randrange(10)), "b": maybe(rng, rand_text(rng))}
                         for _ in range(rng.randrange(3))]) for _ in range(n)],
            pa.list_(pa.struct([("a", pa.int32()), ("b", pa.string())]))),
    })


def timestamp_table(n=N, seed=SEED + 13):
    rng = random.Random(seed)
    ns = [maybe(rng, rng.randrange(-10**18, 10**18)) for _ in range(n)]
    return pa.table({
        "ts_ns": pa.array(ns, pa.timestamp("ns")),
        "ts_ns_utc": pa.array(ns, pa.timestamp("ns", tz="UTC")),
        "ts_us_ny": pa.array([None if v is None else v // 1000 for v in ns],
                             pa.timestamp("us", tz="America/New_York")),
        "ts_ms": pa.array([None if v is None else v // 10**6 for v in ns], pa.timestamp("ms")),
        "ts_s": pa.array([None if v is None else v // 10**9 for v in ns], pa.timestamp("s")),
        "n": pa.array(range(n), pa.int32()),
    })


# ---------------------------------------------------------------------------
# Cases: (writer, case, options text, function(path))
# ---------------------------------------------------------------------------


def fastparquet_cases():
    cases = []

    def add(case, options, frame, **kw):
        def write(path):
            fastparquet.write(path, frame(), **kw)
        cases.append(("fastparquet", case, options, write))

    add("default", "defaults (no compression, stats='auto')", pandas_frame)
    for codec in ["UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "LZ4", "LZ4_RAW", "ZSTD"]:
        add(f"codec_{codec.lower()}", f"compression='{codec}'", pandas_frame, compression=codec)
    add("codec_per_column", "compression={'text': 'ZSTD', 'f64': 'LZ4', '_default': 'SNAPPY'}",
        pandas_frame, compression={"text": "ZSTD", "f64": "LZ4", "_default": "SNAPPY"})
    add("times_int96", "times='int96'", pandas_frame, times="int96")
    add("categorical", "pandas categoricals (dictionary pages)", pandas_categorical_frame)
    add("nullable_dtypes", "pandas nullable dtypes (Int*, UInt*, boolean, string, Float*)",
        pandas_nullable_frame)
    add("object_json", "object_encoding={'js': 'json', 'raw': 'bytes', 'txt': 'utf8'}",
        pandas_object_frame, object_encoding={"js": "json", "raw": "bytes", "txt": "utf8"})
    add("object_bytes", "object_encoding='bytes'",
        lambda: pandas_object_frame()[["raw"]], object_encoding="bytes")
    add("object_utf8", "object_encoding='utf8'",
        lambda: pandas_object_frame()[["txt"]], object_encoding="utf8")
    add("fixed_text", "fixed_text={'code': 5, 'raw4': 4}, object_encoding='bytes'",
        lambda: pandas_fixed_text_frame().assign(
            code=lambda d: d["code"].map(str.encode)),
        fixed_text={"code": 5, "raw4": 4}, object_encoding={"code": "bytes", "raw4": "bytes"})
    add("fixed_text_utf8", "fixed_text={'code': 5}, object_encoding='utf8' (UTF8 on FLBA)",
        lambda: pandas_fixed_text_frame()[["code", "n"]],
        fixed_text={"code": 5}, object_encoding={"code": "utf8"})
    add("stats_false", "stats=False", pandas_frame, stats=False)
    add("stats_true", "stats=True", pandas_frame, stats=True)
    add("row_group_offsets", "row_group_offsets=[0, 50, 60, 200]", pandas_frame,
        row_group_offsets=[0, 50, 60, 200])
    add("row_group_size", "row_group_offsets=64 (rows per group)", pandas_frame,
        row_group_offsets=64)
    add("has_nulls_false", "has_nulls=False on columns without nulls",
        lambda: pandas_frame()[["i32", "f64", "flag", "u8"]], has_nulls=False)
    add("write_index", "write_index=True with a named index",
        lambda: pandas_frame().set_index(pd.Index(np.arange(N) * 3, name="idx")),
        write_index=True)
    add("custom_metadata", "custom_metadata={'origin': 'strata-test'}", pandas_frame,
        custom_metadata={"origin": "strata-test", "empty": ""})
    add("empty", "a 0-row frame", lambda: pandas_frame().iloc[:0])
    add("empty_nullable", "a 0-row frame of nullable dtypes",
        lambda: pandas_nullable_frame().iloc[:0])
    add("empty_categorical", "a 0-row frame of categoricals",
        lambda: pandas_categorical_frame().iloc[:0])
    return cases


def polars_frame(n=N, seed=SEED + 20):
    rng = random.Random(seed)
    t = arrow_table(n, seed)
    df = pl.from_arrow(t)
    df = df.with_columns(
        pl.Series("cat", [maybe(rng, rng.choice(WORDS[:5])) for _ in range(n)],
                  dtype=pl.Categorical),
        pl.Series("enum", [maybe(rng, rng.choice(["lo", "mid", "hi"])) for _ in range(n)],
                  dtype=pl.Enum(["lo", "mid", "hi"])),
        pl.Series("dec38", [maybe(rng, rand_decimal(rng, 30, 10)) for _ in range(n)],
                  dtype=pl.Decimal(38, 10)),
        pl.Series("dec9", [maybe(rng, rand_decimal(rng, 9, 2)) for _ in range(n)],
                  dtype=pl.Decimal(9, 2)),
        pl.Series("dur", [maybe(rng, datetime.timedelta(microseconds=rng.randrange(10**12)))
                          for _ in range(n)], dtype=pl.Duration("us")),
        pl.Series("tm", [maybe(rng, datetime.time(rng.randrange(24), rng.randrange(60)))
                         for _ in range(n)], dtype=pl.Time),
    )
    return df


def polars_nested_frame(n=N, seed=SEED + 21):
    rng = random.Random(seed)
    t = nested_arrow_table(n, seed)
    df = pl.from_arrow(t.drop_columns(["m"]))
    df = df.with_columns(
        pl.Series("arr", [maybe(rng, [rng.randrange(100) for _ in range(3)]) for _ in range(n)],
                  dtype=pl.Array(pl.Int32, 3)),
        pl.Series("st", [maybe(rng, {"p": maybe(rng, rng.random()),
                                     "q": maybe(rng, [rng.randrange(5)
                                                      for _ in range(rng.randrange(3))])})
                         for _ in range(n)],
                  dtype=pl.Struct({"p": pl.Float64, "q": pl.List(pl.Int8)})),
    )
    return df


def polars_cases():
    cases = []

    def add(case, options, frame, **kw):
        def write(path):
            frame().write_parquet(path, **kw)
        cases.append(("polars", case, options, write))

    add("default", "defaults (zstd, statistics=True, use_pyarrow=False)", polars_frame)
    for codec in ["uncompressed", "snappy", "gzip", "brotli", "lz4", "zstd", "lzo"]:
        add(f"codec_{codec}", f"compression='{codec}'", polars_frame, compression=codec)
    add("statistics_false", "statistics=False", polars_frame, statistics=False)
    add("statistics_full", "statistics='full'", polars_frame, statistics="full")
    add("use_pyarrow", "use_pyarrow=True", polars_frame, use_pyarrow=True)
    add("nested", "nested lists, lists of structs, arrays and structs", polars_nested_frame)
    add("nested_pyarrow", "nested columns with use_pyarrow=True", polars_nested_frame,
        use_pyarrow=True)
    add("categorical", "Categorical and Enum columns",
        lambda: polars_frame().select(["cat", "enum", "i32"]))
    add("utf8view", "String and Binary (view types) with long and short values",
        lambda: pl.DataFrame({
            "s": pl.Series([maybe(random.Random(i), ("long text " * (i % 5)) + str(i))
                            for i in range(N)], dtype=pl.String),
            "bin": pl.Series([maybe(random.Random(i), bytes(range(i % 40))) for i in range(N)],
                             dtype=pl.Binary),
        }))
    add("decimal", "Decimal(9, 2) and Decimal(38, 10)",
        lambda: polars_frame().select(["dec9", "dec38", "dec"]))
    add("row_groups", "row_group_size=64, data_page_size=1024", polars_frame,
        row_group_size=64, data_page_size=1024)
    add("empty", "a 0-row frame", lambda: polars_frame().head(0))
    return cases


DUCKDB_TABLE = f"""
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE t AS
SELECT
    i::INTEGER AS id,
    CASE WHEN i % 7 = 0 THEN NULL ELSE (hash(i) % 1000)::BIGINT - 500 END AS big,
    CASE WHEN i % 5 = 0 THEN NULL ELSE ((hash(i) % 200)::INTEGER - 100)::TINYINT END AS tiny,
    CASE WHEN i % 6 = 0 THEN NULL ELSE (hash(i + 1) % 60000)::USMALLINT END AS usmall,
    CASE WHEN i % 8 = 0 THEN NULL ELSE (hash(i + 2))::UBIGINT END AS ubig,
    CASE WHEN i % 9 = 0 THEN NULL ELSE (hash(i) % 100000)::DOUBLE / 7 END AS dbl,
    CASE WHEN i % 4 = 0 THEN NULL ELSE ((hash(i) % 1000)::FLOAT / 3)::FLOAT END AS flt,
    CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS flag,
    CASE WHEN i % 10 = 0 THEN NULL ELSE 'word-' || (hash(i) % 17)::VARCHAR END AS s,
    CASE WHEN i % 11 = 0 THEN NULL ELSE repeat('xy', (i % 13)::INTEGER)::BLOB END AS blb,
    CASE WHEN i % 12 = 0 THEN NULL
         ELSE ((hash(i) % 2000000)::DECIMAL(18, 3) / 1000)::DECIMAL(9, 3) END AS dec9,
    CASE WHEN i % 12 = 1 THEN NULL
         ELSE ((hash(i))::DECIMAL(38, 0) * 1000000)::DECIMAL(38, 6) END AS dec38,
    CASE WHEN i % 13 = 0 THEN NULL ELSE (hash(i) % 4000000000)::HUGEINT * 1000000000000 END
        AS huge,
    CASE WHEN i % 7 = 3 THEN NULL ELSE DATE '2000-01-01' + (i * 37 % 20000)::INTEGER END AS d,
    CASE WHEN i % 7 = 4 THEN NULL
         ELSE TIMESTAMP '2001-02-03 04:05:06' + INTERVAL (i * 1234567) SECOND END AS ts,
    CASE WHEN i % 7 = 5 THEN NULL
         ELSE TIMESTAMPTZ '2001-02-03 04:05:06+00' + INTERVAL (i * 7654321) SECOND END AS tstz,
    CASE WHEN i % 7 = 6 THEN NULL ELSE TIME '00:00:00' + INTERVAL (i * 97) SECOND END AS tm,
    CASE WHEN i % 5 = 2 THEN NULL ELSE md5(i::VARCHAR)::UUID END AS uid,
    CASE WHEN i % 6 = 2 THEN NULL
         ELSE to_months((i % 30)::INTEGER) + to_days((i % 11)::INTEGER)
              + to_milliseconds((i * 12345)::BIGINT) END AS iv,
    CASE WHEN i % 6 = 3 THEN NULL
         ELSE json_object('n', i, 'tags', ['x', 'y'][1:(i % 3)::BIGINT]) END AS js,
    CASE WHEN i % 5 = 3 THEN NULL
         ELSE (['sad', 'ok', 'happy'])[(i % 3) + 1]::mood END AS feeling
FROM range({N}) r(i);
CREATE TABLE nested AS
SELECT
    i::INTEGER AS id,
    CASE WHEN i % 7 = 0 THEN NULL
         ELSE MAP(['k' || (i % 3)::VARCHAR, 'j' || (i % 5)::VARCHAR],
                  [i::INTEGER, CASE WHEN i % 2 = 0 THEN NULL ELSE (i * 2)::INTEGER END]) END
        AS m,
    [i::INTEGER, CASE WHEN i % 6 = 0 THEN NULL ELSE (i + 1)::INTEGER END,
     (i * 3)::INTEGER]::INTEGER[3] AS arr,
    CASE WHEN i % 5 = 0 THEN NULL
         ELSE list_transform(range((i % 4)::BIGINT), lambda x: CASE WHEN x = 2 THEN NULL ELSE x END)
        END AS lst,
    CASE WHEN i % 4 = 0 THEN NULL
         ELSE {{'a': i::INTEGER, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'v' || i::VARCHAR END,
                'c': [i % 2 = 0]}} END AS st,
    CASE WHEN i % 9 = 0 THEN NULL
         ELSE [{{'x': i::INTEGER, 'y': [1.5, NULL]}}, NULL] END AS lst_st,
    CASE WHEN i % 8 = 0 THEN NULL
         ELSE MAP([i::VARCHAR], [[i::BIGINT, NULL]]) END AS map_lst,
    CASE WHEN i % 10 = 0 THEN NULL ELSE [[i::SMALLINT], [], NULL] END AS lst_lst
FROM range({N}) r(i);
CREATE TABLE arrays AS
SELECT
    i::INTEGER AS id,
    CASE WHEN i % 6 = 0 THEN NULL
         ELSE [i::INTEGER, NULL, (i * 3)::INTEGER]::INTEGER[3] END AS arr
FROM range({N}) r(i);
"""


def duckdb_cases():
    cases = []

    def add(case, options, table, copy_options):
        def write(path):
            con = duckdb.connect()
            try:
                con.execute(DUCKDB_TABLE)
                con.execute(f"COPY {table} TO '{path}' (FORMAT parquet{copy_options})")
            finally:
                con.close()
        cases.append(("duckdb", case, options, write))

    add("default", "defaults", "t", "")
    for codec in ["uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4", "lz4_raw"]:
        add(f"codec_{codec}", f"COMPRESSION {codec}", "t", f", COMPRESSION {codec}")
    add("v2", "PARQUET_VERSION V2", "t", ", PARQUET_VERSION V2")
    add("v2_nested", "PARQUET_VERSION V2, nested columns", "nested", ", PARQUET_VERSION V2")
    add("row_group_size", "ROW_GROUP_SIZE 64", "t", ", ROW_GROUP_SIZE 64")
    add("enum", "ENUM column", "(SELECT id, feeling FROM t)", "")
    add("nested", "MAP, ARRAY (INTEGER[3], no null rows), LIST, STRUCT and their nestings",
        "nested", "")
    add("array_null_rows", "an ARRAY (INTEGER[3]) column with null rows", "arrays", "")
    add("nested_zstd_small_groups", "nested columns, COMPRESSION zstd, ROW_GROUP_SIZE 50",
        "nested", ", COMPRESSION zstd, ROW_GROUP_SIZE 50")
    add("empty", "0 rows", "(SELECT * FROM t WHERE id < 0)", "")
    return cases


def pyarrow_cases():
    cases = []

    def add(case, options, table, **kw):
        def write(path):
            pq.write_table(table(), path, **kw)
        cases.append(("pyarrow", case, options, write))

    add("default", "defaults", arrow_table)
    add("use_dictionary_per_column", "use_dictionary=['cat', 'code']", low_cardinality_table,
        use_dictionary=["cat", "code"])
    add("column_encoding",
        "use_dictionary=False, column_encoding={i64: DELTA_BINARY_PACKED, s: DELTA_BYTE_ARRAY, "
        "bin: DELTA_LENGTH_BYTE_ARRAY, f64: BYTE_STREAM_SPLIT, i32: BYTE_STREAM_SPLIT, "
        "fsb: BYTE_STREAM_SPLIT, b: RLE}",
        arrow_table, use_dictionary=False,
        column_encoding={"i64": "DELTA_BINARY_PACKED", "s": "DELTA_BYTE_ARRAY",
                         "bin": "DELTA_LENGTH_BYTE_ARRAY", "f64": "BYTE_STREAM_SPLIT",
                         "i32": "BYTE_STREAM_SPLIT", "fsb": "BYTE_STREAM_SPLIT", "b": "RLE"})
    add("data_page_v2", "data_page_version='2.0'", arrow_table, data_page_version="2.0")
    add("data_page_v2_zstd_small_pages",
        "data_page_version='2.0', compression='zstd', data_page_size=512",
        arrow_table, data_page_version="2.0", compression="zstd", data_page_size=512)
    add("byte_stream_split",
        "use_byte_stream_split=[f32, f64, i32, i64, fsb, dec], use_dictionary=False",
        arrow_table, use_byte_stream_split=["f32", "f64", "i32", "i64", "fsb", "dec"],
        use_dictionary=False)
    add("content_defined_chunking", "use_content_defined_chunking=True", arrow_table,
        use_content_defined_chunking=True)
    add("page_index", "write_page_index=True, data_page_size=256, max_rows_per_page=40",
        arrow_table, write_page_index=True, data_page_size=256, max_rows_per_page=40)
    add("sorting_columns",
        "sorting_columns=[code asc, val desc nulls first], data sorted to match",
        lambda: low_cardinality_table().sort_by([("code", "ascending"), ("val", "descending")]),
        sorting_columns=[pq.SortingColumn(1), pq.SortingColumn(3, descending=True,
                                                                nulls_first=True)])
    add("bloom_filters", "bloom_filter_options={uniq: True, big: {ndv: 300, fpp: 0.01}}",
        low_cardinality_table,
        bloom_filter_options={"uniq": True, "big": {"ndv": 300, "fpp": 0.01}})
    add("coerce_timestamps_ms", "coerce_timestamps='ms', allow_truncated_timestamps=True",
        timestamp_table, coerce_timestamps="ms", allow_truncated_timestamps=True)
    add("coerce_timestamps_us", "coerce_timestamps='us', allow_truncated_timestamps=True",
        timestamp_table, coerce_timestamps="us", allow_truncated_timestamps=True)
    add("int96", "use_deprecated_int96_timestamps=True", timestamp_table,
        use_deprecated_int96_timestamps=True)
    add("flavor_spark", "flavor='spark' (INT96 timestamps, sanitized names)",
        lambda: timestamp_table().rename_columns(["ts ns", "ts,ns,utc", "ts_us_ny", "ts_ms",
                                                 "ts_s", "n (id)"]),
        flavor="spark")
    add("noncompliant_nested", "use_compliant_nested_type=False", nested_arrow_table,
        use_compliant_nested_type=False)
    add("compliant_nested", "use_compliant_nested_type=True (default)", nested_arrow_table)
    add("version_1_0", "version='1.0', coerce_timestamps='us', allow_truncated_timestamps=True",
        arrow_table, version="1.0", coerce_timestamps="us", allow_truncated_timestamps=True)
    add("no_store_schema", "store_schema=False", arrow_table, store_schema=False)
    add("decimal_as_integer", "store_decimal_as_integer=True",
        lambda: arrow_table().select(["dec", "i32"]).append_column(
            "dec4", pa.array([maybe(random.Random(i), decimal.Decimal(i) / 100)
                              for i in range(N)], pa.decimal128(4, 2))),
        store_decimal_as_integer=True)
    add("page_checksum", "write_page_checksum=True", arrow_table, write_page_checksum=True)
    add("row_groups", "row_group_size=64, compression per column",
        arrow_table, row_group_size=64,
        compression={"s": "gzip", "i64": "brotli", "f64": "lz4", "b": "none", "bin": "zstd"})
    add("no_statistics", "write_statistics=False", arrow_table, write_statistics=False)
    for index in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
        add(f"dictionary_{index}", f"dictionary arrays with {index} indices",
            lambda index=index: dictionary_table(getattr(pa, index)()))
    add("more_types", "float16, date64, time32, decimal256, large and view strings and "
        "binaries, durations, large_list, fixed_size_list, list_view",
        more_types_table)
    add("null_column", "a column of Arrow type null", lambda: pa.table({
        "nothing": pa.nulls(N), "n": pa.array(range(N), pa.int32())}))
    add("empty", "0 rows", lambda: arrow_table().slice(0, 0))
    return cases


def more_types_table(n=N, seed=SEED + 31):
    rng = random.Random(seed)
    cols = {}

    def add(name, typ, gen, p=0.15):
        cols[name] = pa.array([maybe(rng, gen(), p) for _ in range(n)], type=typ)

    cols["f16"] = pa.array([maybe(rng, rng.uniform(-1000, 1000)) for _ in range(n)],
                           pa.float32()).cast(pa.float16())
    cols["date64"] = pa.array([maybe(rng, rng.randrange(-10**5, 10**5) * 86_400_000)
                               for _ in range(n)], pa.int64()).cast(pa.date64())
    add("time32_s", pa.time32("s"), lambda: rng.randrange(86400))
    add("time32_ms", pa.time32("ms"), lambda: rng.randrange(86_400_000))
    add("time64_ns", pa.time64("ns"), lambda: rng.randrange(86_400 * 10**9))
    add("dec256", pa.decimal256(50, 10), lambda: rand_decimal(rng, 50, 10))
    add("large_s", pa.large_string(), lambda: rand_text(rng))
    add("view_s", pa.string_view(), lambda: rand_text(rng) * rng.choice([1, 5]))
    add("large_bin", pa.large_binary(), lambda: rand_bytes(rng))
    add("view_bin", pa.binary_view(), lambda: rand_bytes(rng))
    add("dur_s", pa.duration("s"), lambda: rng.randrange(-10**9, 10**9))
    add("dur_ns", pa.duration("ns"), lambda: rng.randrange(-10**18, 10**18))
    add("ts_s_tz", pa.timestamp("s", tz="+05:30"), lambda: rng.randrange(-10**10, 10**10))
    add("large_lst", pa.large_list(pa.string()), lambda: [maybe(rng, rand_text(rng))
                                                          for _ in range(rng.randrange(3))])
    add("fsl", pa.list_(pa.float64(), 2), lambda: [maybe(rng, rand_float(rng)), rng.random()])
    cols["lst_view"] = pa.array([maybe(rng, [rng.randrange(9) for _ in range(rng.randrange(3))])
                                 for _ in range(n)], pa.list_view(pa.int32()))
    add("req", pa.int64(), lambda: rng.randrange(100), p=0)
    schema = pa.schema([pa.field(k, v.type, nullable=(k != "req")) for k, v in cols.items()])
    return pa.table(cols, schema=schema)


def dictionary_table(index_type, n=N, seed=SEED + 30):
    rng = random.Random(seed)
    words = pa.array(["red", "green", "", "blue", "漢字"], pa.string())
    indices = pa.array([maybe(rng, rng.randrange(len(words))) for _ in range(n)], index_type)
    ints = pa.array([10**12, -1, 0, 7], pa.int64())
    int_idx = pa.array([maybe(rng, rng.randrange(len(ints))) for _ in range(n)], index_type)
    raw = pa.array([b"\x00\x01", b"", b"\xff" * 9], pa.binary())
    raw_idx = pa.array([maybe(rng, rng.randrange(len(raw))) for _ in range(n)], index_type)
    return pa.table({
        "words": pa.DictionaryArray.from_arrays(indices, words),
        "ints": pa.DictionaryArray.from_arrays(int_idx, ints),
        "raw": pa.DictionaryArray.from_arrays(raw_idx, raw),
    })


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

WRITERS = [
    ("fastparquet", lambda: fastparquet is not None and pd is not None, fastparquet_cases,
     ["fastparquet", "pandas"]),
    ("polars", lambda: pl is not None, polars_cases, ["polars"]),
    ("duckdb", lambda: duckdb is not None, duckdb_cases, ["duckdb"]),
    ("pyarrow", lambda: True, pyarrow_cases, ["pyarrow"]),
]

def versions():
    out = {"python": sys.version.split()[0], "pyarrow": pa.__version__}
    for name, mod in [("fastparquet", fastparquet), ("polars", pl), ("duckdb", duckdb),
                      ("pandas", pd), ("numpy", np)]:
        if mod is not None:
            out[name] = getattr(mod, "__version__", "unknown")
    return out


def one_line(e, path=None):
    """An exception as one line, without the output directory in it."""
    text = f"{type(e).__name__}: {e}".strip()
    if path:
        text = text.replace(path, os.path.basename(path))
    return " ".join(text.split())[:500]


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)

    manifest = {"versions": versions(), "writers": {}, "files": []}
    skipped = []
    counts = {}
    for writer, available, make_cases, packages in WRITERS:
        manifest["writers"][writer] = []
        c = counts.setdefault(writer, {"written": 0, "expected": 0, "not_written": 0,
                                       "pyarrow_unreadable": 0})
        if not available():
            # Cases only touch their package when they write.
            for _, case, _, _ in make_cases():
                skipped.append({"file": f"{writer}_{case}.parquet", "writer": writer,
                                "case": case, "stage": "write",
                                "reason": f"{' and '.join(packages)} not installed"})
                c["not_written"] += 1
            print(f"{writer}: not installed, skipped")
            continue
        for _, case, options, write in make_cases():
            name = f"{writer}_{case}"
            path = os.path.join(out_dir, name + ".parquet")
            sidecar = os.path.join(out_dir, name + ".expected.json")
            for stale in (path, sidecar):
                if os.path.exists(stale):
                    os.remove(stale)
            try:
                write(path)
                if not os.path.exists(path):
                    raise RuntimeError("the writer reported success but wrote no file")
            except Exception as e:  # the writer refused this variant
                if os.path.exists(path):
                    os.remove(path)
                skipped.append({"file": name + ".parquet", "writer": writer, "case": case,
                                "stage": "write", "reason": one_line(e, path)})
                c["not_written"] += 1
                print(f"NOT WRITTEN  {name}: {one_line(e, path)}")
                continue
            c["written"] += 1
            manifest["writers"][writer].append(name + ".parquet")
            entry = {"file": name + ".parquet", "writer": writer, "case": case,
                     "options": options, "expected": None}
            try:
                table, meta = read_with_pyarrow(path)
            except Exception as e:  # pyarrow cannot read the file
                skipped.append({"file": name + ".parquet", "writer": writer, "case": case,
                                "stage": "pyarrow", "reason": one_line(e, path)})
                c["pyarrow_unreadable"] += 1
                manifest["files"].append(entry)
                print(f"UNREADABLE   {name}: {one_line(e, path)}")
                continue
            try:
                expected = expected_reading(table, meta, path, writer, case)
                text = json.dumps(expected, allow_nan=False, ensure_ascii=False,
                                  separators=(",", ":"))
            except Exception as e:
                # A gap in this script, not in pyarrow: fail loudly.
                traceback.print_exc()
                sys.exit(f"cannot normalise pyarrow's reading of {name}: {e}")
            with open(sidecar, "w", encoding="utf-8") as f:
                f.write(text)
                f.write("\n")
            entry["expected"] = name + ".expected.json"
            manifest["files"].append(entry)
            c["expected"] += 1
            print(f"ok           {name} ({expected['num_rows']} rows, "
                  f"{len(expected['schema'])} columns)")

    with open(os.path.join(out_dir, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(out_dir, "skipped.json"), "w", encoding="utf-8") as f:
        json.dump(skipped, f, indent=1, ensure_ascii=False)
        f.write("\n")

    print()
    print("writer       written  expected  not-written  unreadable-by-pyarrow")
    for writer, c in counts.items():
        print(f"{writer:<12} {c['written']:>7}  {c['expected']:>8}  {c['not_written']:>11}  "
              f"{c['pyarrow_unreadable']:>21}")
    print("versions: " + ", ".join(f"{k} {v}" for k, v in manifest["versions"].items()))


if __name__ == "__main__":
    main()
