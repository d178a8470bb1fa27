"""Read strata's float columns (NaNs of both signs, both zeros, infinities,
nulls) with pyarrow and DuckDB.

Arguments: the Parquet file and a JSON file with, per column, its rows as
hex bit patterns (or null) and its NaN count per row group, and a list of
filters. Checks:
- pyarrow reads every value bit for bit;
- DuckDB reads every value (NaN as NaN, the sign of a zero kept);
- DuckDB's `parquet_metadata` shows the NaN count strata wrote for every
  chunk;
- each filter counts the same rows over the file as over the same rows in
  memory (DuckDB may prune row groups by the file's statistics).
Prints `RESULT<TAB>peer<TAB>what<TAB>ok|fail<TAB>detail`.
"""
import json
import math
import struct
import sys

import duckdb
import numpy as np
import pyarrow.parquet as pq

path, expected_path = sys.argv[1], sys.argv[2]
with open(expected_path) as f:
    expected = json.load(f)

WIDTH = {"f64": ("<d", "<Q", 16), "f32": ("<f", "<I", 8), "f16": (None, "<H", 4)}

def bits_of(value, kind):
    """The hex bit pattern of a Python float (or numpy float16) of `kind`."""
    fmt, ufmt, digits = WIDTH[kind]
    if kind == "f16":
        raw = np.array([value], dtype=np.float16).view(np.uint16)[0]
        return format(int(raw), f"0{digits}x")
    return format(struct.unpack(ufmt, struct.pack(fmt, value))[0], f"0{digits}x")

def as_float(hexbits, kind):
    fmt, ufmt, _ = WIDTH[kind]
    if kind == "f16":
        return float(np.array([int(hexbits, 16)], dtype=np.uint16).view(np.float16)[0])
    return struct.unpack(fmt, struct.pack(ufmt, int(hexbits, 16)))[0]

table = pq.read_table(path)
for column, spec in expected["columns"].items():
    kind = spec["kind"]
    values = table.column(column)
    if kind == "f16":
        arr = values.combine_chunks()
        got = [None if v is None else bits_of(v, kind) for v in arr.to_numpy(zero_copy_only=False).tolist()] if arr.null_count == 0 else None
        if got is None:
            raw = arr.to_pylist()
            got = [None if v is None else bits_of(np.float16(v), kind) for v in raw]
    else:
        got = [None if v is None else bits_of(v, kind) for v in values.to_pylist()]
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, spec["rows"])) if g != w]
    if kind == "f16":
        # Python floats carry a float16 NaN's sign but not its payload:
        # compare NaN-ness and sign for NaNs.
        def same(g, w):
            if g is None or w is None:
                return g == w
            x, y = as_float(g, kind), as_float(w, kind)
            if math.isnan(y):
                return math.isnan(x) and math.copysign(1, x) == math.copysign(1, y)
            return g == w
        bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, spec["rows"])) if not same(g, w)]
    status = "ok" if not bad and len(got) == len(spec["rows"]) else "fail"
    print(f"RESULT\tpyarrow\t{column}\t{status}\t{bad[:3]}")

con = duckdb.connect()
for column, spec in expected["columns"].items():
    kind = spec["kind"]
    got = [r[0] for r in con.execute(f'SELECT "{column}" FROM read_parquet(?)', [path]).fetchall()]
    def same(g, w):
        if g is None or w is None:
            return g is None and w is None
        y = as_float(w, kind)
        if math.isnan(y):
            return isinstance(g, float) and math.isnan(g)
        return g == y and math.copysign(1, g) == math.copysign(1, y)
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, spec["rows"])) if not same(g, w)]
    status = "ok" if not bad and len(got) == len(spec["rows"]) else "fail"
    print(f"RESULT\tduckdb\t{column}\t{status}\t{bad[:3]}")

meta = con.execute(
    "SELECT row_group_id, path_in_schema, stats_nan_count FROM parquet_metadata(?) ORDER BY 1, 2",
    [path],
).fetchall()
for column, spec in expected["columns"].items():
    got = [n for (_, c, n) in meta if c == column]
    status = "ok" if got == spec["nan_counts"] else "fail"
    print(f"RESULT\tduckdb\tnan_count {column}\t{status}\t{got} want {spec['nan_counts']}")

# The rows in memory: the whole file read without a filter (DuckDB reads no
# Arrow float16, so pyarrow's table cannot be handed over).
con.execute("CREATE TABLE memory AS SELECT * FROM read_parquet(?)", [path])
for flt in expected["filters"]:
    from_file = con.execute(f"SELECT count(*) FROM read_parquet(?) WHERE {flt}", [path]).fetchone()[0]
    in_memory = con.execute(f"SELECT count(*) FROM memory WHERE {flt}").fetchone()[0]
    status = "ok" if from_file == in_memory else "fail"
    print(f"RESULT\tduckdb\tfilter {flt}\t{status}\tfile {from_file} memory {in_memory}")
