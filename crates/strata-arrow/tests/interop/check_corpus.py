"""Part c of the interop test: strata read each file of the parquet-testing
corpus and wrote its reading as an Arrow IPC file (or recorded its error).
Read each file with pyarrow (`pq.read_table`) and compare.

Input: MANIFEST, lines `id \\t path \\t relative path \\t strata status`,
where status is `ok` (strata's reading is in <dir of MANIFEST>/<id>.arrow)
or `error: ...`.

Normalisation before comparing (representation only, never values):
  - a UTC time zone spelt "+00:00", "Etc/UTC", "Z" is spelt "UTC" (strata,
    like arrow-rs, says "+00:00" for isAdjustedToUTC without an embedded
    Arrow schema; pyarrow says "UTC");
  - extension types (pyarrow reads UUID as extension<arrow.uuid>, GEOMETRY /
    GEOGRAPHY as geoarrow.wkb when those are registered) are compared
    through their storage type, since strata has no extension types;
  - schema and field metadata are ignored;
  - in floating columns NaN equals NaN.

Status per file:
  pass           equal after normalisation
  type-diff      same values, different types (detail: the types)
  value-diff     different values (detail: the first differing row)
  strata-error   strata failed, pyarrow read the file
  pyarrow-error  pyarrow failed, strata read the file; DuckDB, the second
                 oracle, reads the same as strata (or fails too)
  duckdb-diff    pyarrow failed, strata read the file, DuckDB reads
                 something else
  both-error     both failed (e.g. deliberately corrupt files)
  too-large      more than 256 MiB uncompressed: not read with pyarrow
                 (strata read it); too-large-strata-error: strata failed

Prints `RESULT\\t<relative path>\\t<status>\\t<detail>` per file.
"""

import os
import sys

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

UTC_NAMES = {"+00:00", "Etc/UTC", "Z", "UTC", "utc"}


def clean(s, n=500):
    try:
        s = str(s)
    except Exception:  # e.g. a nanosecond time a datetime cannot hold
        s = f"<{getattr(s, 'value', '?')} ({getattr(s, 'type', '?')})>"
    s = s.replace("\t", " ").replace("\n", " ")
    return s if len(s) <= n else s[:n] + "..."


def norm_type(t):
    if isinstance(t, pa.BaseExtensionType):
        return norm_type(t.storage_type)
    if pa.types.is_timestamp(t) and t.tz in UTC_NAMES:
        return pa.timestamp(t.unit, tz="UTC")
    if pa.types.is_map(t):
        return pa.map_(norm_field(t.key_field), norm_field(t.item_field), t.keys_sorted)
    if pa.types.is_fixed_size_list(t):
        return pa.list_(norm_field(t.value_field), t.list_size)
    if pa.types.is_large_list(t):
        return pa.large_list(norm_field(t.value_field))
    if pa.types.is_list(t):
        return pa.list_(norm_field(t.value_field))
    if pa.types.is_struct(t):
        return pa.struct([norm_field(t.field(i)) for i in range(t.num_fields)])
    if pa.types.is_dictionary(t):
        return pa.dictionary(t.index_type, norm_type(t.value_type), t.ordered)
    return t


def norm_field(f):
    return pa.field(f.name, norm_type(f.type), f.nullable)


def storage(col):
    """Replace extension arrays by their storage (recursively at top)."""
    if isinstance(col.type, pa.BaseExtensionType):
        return pa.chunked_array([c.storage for c in col.chunks], col.type.storage_type)
    return col


def equal_nan_aware(a, b):
    """`equals`, except that NaN equals NaN in floating columns (Arrow's
    `equals` says NaN != NaN; the corpus has NaN test files)."""
    if a.equals(b):
        return True
    if not (pa.types.is_floating(a.type) and a.type == b.type):
        return False
    a, b = a.cast(pa.float64()), b.cast(pa.float64())
    na, nb = pc.is_nan(a), pc.is_nan(b)
    if not na.equals(nb):
        return False
    return pc.if_else(na, 0.0, a).equals(pc.if_else(nb, 0.0, b))


def first_diff(a, b):
    a, b = a.combine_chunks(), b.combine_chunks()
    for i in range(min(len(a), len(b))):
        if not a.slice(i, 1).equals(b.slice(i, 1)):
            return f"row {i}: strata {clean(a[i], 150)} pyarrow {clean(b[i], 150)}"
    return f"lengths {len(a)} vs {len(b)}"


def compare(strata, pya):
    if strata.num_columns != pya.num_columns:
        return "type-diff", (f"strata has {strata.num_columns} columns {strata.schema.names}, "
                             f"pyarrow {pya.num_columns} {pya.schema.names}")
    if strata.num_rows != pya.num_rows:
        return "value-diff", f"strata has {strata.num_rows} rows, pyarrow {pya.num_rows}"
    type_diffs, value_diffs = [], []
    for i in range(pya.num_columns):
        sf, pf = strata.schema.field(i), pya.schema.field(i)
        s, p = storage(strata.column(i)), storage(pya.column(i))
        st, pt = norm_type(s.type), norm_type(p.type)
        name = pf.name if sf.name == pf.name else f"{sf.name} (pyarrow: {pf.name})"
        try:
            s, p = s.cast(st), p.cast(pt)
        except Exception as e:  # noqa: BLE001 - reported, not raised
            type_diffs.append(f"{name}: cannot normalise ({e})")
            continue
        if sf.name != pf.name:
            type_diffs.append(f"column {i} named {sf.name!r}, pyarrow {pf.name!r}")
        if st != pt:
            try:
                same = s.cast(pt).equals(p)
            except Exception:  # noqa: BLE001
                same = False
            type_diffs.append(f"{name}: strata {st} pyarrow {pt}"
                              + (" (values equal after cast)" if same else " (values differ)"))
            if not same:
                value_diffs.append(f"{name}: types differ and values differ")
            continue
        if not equal_nan_aware(s, p):
            value_diffs.append(f"{name}: {first_diff(s, p)}")
    if value_diffs:
        return "value-diff", "; ".join(value_diffs + type_diffs)
    if type_diffs:
        return "type-diff", "; ".join(type_diffs)
    return "pass", ""


def duckdb_oracle(path, strata, pya_err):
    """pyarrow cannot read the file: compare strata's reading with DuckDB's,
    cast to strata's types."""
    try:
        duck = duckdb.sql(f"select * from read_parquet('{path}')").to_arrow_table()
    except Exception as e:  # noqa: BLE001
        return "pyarrow-error", f"pyarrow: {pya_err} | DuckDB: {e}"
    try:
        duck = duck.cast(strata.schema.remove_metadata())
    except Exception as e:  # noqa: BLE001
        return "duckdb-diff", f"pyarrow: {pya_err} | DuckDB's reading {duck.schema} cannot be cast to strata's: {e}"
    st, det = compare(strata, duck)
    if st == "pass":
        return "pyarrow-error", f"pyarrow: {pya_err} | DuckDB reads the same as strata"
    return "duckdb-diff", f"pyarrow: {pya_err} | DuckDB differs: {st}: {det}"


MAX_UNCOMPRESSED = 256 << 20


def uncompressed_size(path):
    md = pq.ParquetFile(path).metadata
    return sum(md.row_group(i).total_byte_size for i in range(md.num_row_groups))


def main():
    manifest = sys.argv[1]
    d = os.path.dirname(manifest)
    with open(manifest) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for ident, path, rel, status in lines:
        try:
            size = uncompressed_size(path)
        except Exception:  # noqa: BLE001 - pyarrow will say why below
            size = 0
        if size > MAX_UNCOMPRESSED:
            # large_string_map.brotli.parquet: pyarrow needs 4+ GB and 20 s
            # to fail on it; not worth it in a test.
            st = "too-large" if status == "ok" else "too-large-strata-error"
            print(f"RESULT\t{rel}\t{st}\t{clean(f'{size} bytes uncompressed, not read with pyarrow; strata: {status}')}",
                  flush=True)
            continue
        try:
            pya = pq.read_table(path)
            pya_err = None
        except Exception as e:  # noqa: BLE001
            pya, pya_err = None, e
        if status != "ok":
            if pya_err is not None:
                out = ("both-error", f"strata: {status[7:]} | pyarrow: {pya_err}")
            else:
                out = ("strata-error", status[7:])
        elif pya_err is not None:
            with pa.ipc.open_file(os.path.join(d, ident + ".arrow")) as r:
                strata = r.read_all()
            out = duckdb_oracle(path, strata, pya_err)
        else:
            with pa.ipc.open_file(os.path.join(d, ident + ".arrow")) as r:
                strata = r.read_all()
            try:
                out = compare(strata, pya)
            except Exception as e:  # noqa: BLE001
                out = ("value-diff", f"comparison failed: {e!r}")
        print(f"RESULT\t{rel}\t{out[0]}\t{clean(out[1])}", flush=True)


if __name__ == "__main__":
    main()
