"""Part a of the interop test: strata wrote DIR/<case>.parquet and the same
batches as DIR/<case>.arrow (Arrow IPC file). Read each Parquet file with
pyarrow and with DuckDB and compare with the IPC table.

Per column and reader, the status is one of:

  pass      the reader's result equals the IPC column exactly (type and
            values; `ChunkedArray.equals`, dictionaries compared by their
            decoded values).
  pass-rt   it differs from the IPC column, but equals what the same reader
            returns for the same column written by pyarrow's own writer
            (`pq.write_table` of the IPC table). This is the reader's own
            representation of the type, not a strata issue: e.g. DuckDB has
            no dictionary, view, float16, time32 or unsigned-decimal types,
            pyarrow reads dictionaries with int32 indices.
  pass-cast pyarrow cannot write the column (so there is no reference); the
            reader's result equals the IPC column cast to the reader's type.
  skip      the reader cannot read the column even from pyarrow's own file
            (e.g. DuckDB rejects a type); the reason is printed. Nothing is
            compared.
  fail      anything else: the detail says what differs.

DuckDB (2.0) reads every column strata writes; none is skipped. Its own
representation (status pass-rt, same as for pyarrow's file): no dictionary,
view, large, fixed-size-binary, float16, decimal32/64, duration or time32
types (read as the plain/64-bit/128-bit/int64/time64[us] equivalents),
decimals over 38 digits read as double, timestamps at microseconds except
nanoseconds, zoned timestamps in the session zone (UTC here), fixed-size
lists as lists, nullability and `keys_sorted` dropped.

The reader "duckdb-sql" compares DuckDB's SQL type of each column (from
`DESCRIBE`) with the one it gives for pyarrow's own file: the Arrow export
hides some differences (TIME and TIME WITH TIME ZONE both export as
time64[us]).

Output: one line `RESULT\\t<case>\\t<peer>\\t<column>\\t<status>\\t<detail>` per
(case, reader, column); a JSON summary is written to DIR/report.json.
"""

import glob
import json
import os
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq


def clean(s, n=400):
    try:
        s = str(s)
    except Exception:  # e.g. a nanosecond time a datetime cannot hold
        s = f"<{getattr(s, 'value', '?')} ({getattr(s, 'type', '?')})>"
    s = s.replace("\t", " ").replace("\n", " ")
    return s if len(s) <= n else s[:n] + "..."


def result(report, case, peer, column, status, detail=""):
    report.setdefault(case, []).append(
        {"peer": peer, "column": column, "status": status, "detail": str(detail)}
    )
    print(f"RESULT\t{case}\t{peer}\t{column}\t{status}\t{clean(detail)}", flush=True)


def first_diff(a, b):
    """Describe the first row where two equal-length chunked arrays differ."""
    if pa.types.is_dictionary(a.type) and pa.types.is_dictionary(b.type):
        a, b = a.cast(a.type.value_type), b.cast(b.type.value_type)
    a = a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a
    b = b.combine_chunks() if isinstance(b, pa.ChunkedArray) else b
    if len(a) != len(b):
        return f"length {len(a)} vs {len(b)}"
    for i in range(len(a)):
        if not a.slice(i, 1).equals(b.slice(i, 1)):
            return f"row {i}: got {clean(a[i], 150)} expected {clean(b[i], 150)}"
    return "arrays differ (not row by row)"


def equal_values(a, b):
    """`equals`, except that dictionary arrays compare by their decoded
    values: which dictionary a reader builds is not part of the data."""
    if pa.types.is_dictionary(a.type) and pa.types.is_dictionary(b.type):
        a, b = a.cast(a.type.value_type), b.cast(b.type.value_type)
    return a.equals(b)


def pa_columns(path, names):
    """pyarrow's reading, per column: a ChunkedArray or the Exception."""
    try:
        t = pq.read_table(path)
        return {n: t.column(n) for n in names}
    except Exception:  # one unreadable column fails the whole file
        out = {}
        for n in names:
            try:
                out[n] = pq.read_table(path, columns=[n]).column(0)
            except Exception as e:
                out[n] = e
        return out


def compare_column(got, exp, ref):
    """(status, detail) for a reader's column `got` against the IPC column
    `exp` and the reader's reading of pyarrow's file `ref` (or an
    Exception if that failed)."""
    if got.type == exp.type:
        if equal_values(got, exp):
            return "pass", ""
        return "fail", f"values differ: {first_diff(got, exp)}"
    if not isinstance(ref, Exception):
        if got.type == ref.type and equal_values(got, ref):
            return "pass-rt", f"{exp.type} read as {got.type}, as for pyarrow's own file"
        if got.type != ref.type:
            return "fail", (
                f"type {got.type}, expected {exp.type}; pyarrow's own file gives {ref.type}"
            )
        return "fail", f"values differ from pyarrow's own file: {first_diff(got, ref)}"
    # No reference (pyarrow cannot write the column): the IPC column cast
    # to the type the reader gave.
    try:
        cast = exp.cast(got.type)
    except Exception as e:
        return "fail", (f"type {got.type} != expected {exp.type}, no reference "
                        f"({ref}) and no cast ({e})")
    if equal_values(got, cast):
        return "pass-cast", f"{exp.type} read as {got.type}; equals the IPC column cast (no reference: {ref})"
    return "fail", f"values differ from the IPC column cast to {got.type}: {first_diff(got, cast)}"


def safe_compare(got, exp, ref):
    try:
        return compare_column(got, exp, ref)
    except Exception as e:  # a comparison that cannot be made is a failure
        return "fail", f"comparison failed: {e!r}"


def duck_read(con, path, column=None):
    sel = "*" if column is None else '"' + column.replace('"', '""') + '"'
    return con.sql(f"select {sel} from read_parquet('{path}')").to_arrow_table()


def duck_types(con, path):
    """{column: DuckDB SQL type} of a file, or {} on error."""
    try:
        rows = con.sql(f"describe select * from read_parquet('{path}')").fetchall()
        return {r[0]: r[1] for r in rows}
    except Exception:
        return {}


def duck_columns(con, path, names):
    """DuckDB's reading, per column: a ChunkedArray or the Exception."""
    try:
        t = duck_read(con, path)
        return {n: t.column(n) for n in names}
    except Exception:  # one unreadable column fails the whole query
        out = {}
        for n in names:
            try:
                out[n] = duck_read(con, path, n).column(0)
            except Exception as e:
                out[n] = e
        return out


def write_refs(exp, d, case):
    """Write the IPC table with pyarrow's own writer: {column: path of the
    file holding it, or the Exception if pyarrow cannot write it}. One file
    if possible, else one per column (pyarrow refuses e.g. dictionaries
    whose values hold nulls)."""
    path = os.path.join(d, case + ".ref.parquet")
    try:
        pq.write_table(exp, path)
        return {n: path for n in exp.schema.names}
    except Exception:
        out = {}
        for i, n in enumerate(exp.schema.names):
            p = os.path.join(d, f"{case}.ref{i}.parquet")
            try:
                pq.write_table(exp.select([n]), p)
                out[n] = p
            except Exception as e:
                out[n] = e
        return out


def read_refs(refs, read):
    """Read the reference files with `read(path, names)`."""
    out = {n: r for n, r in refs.items() if isinstance(r, Exception)}
    by_path = {}
    for n, r in refs.items():
        if not isinstance(r, Exception):
            by_path.setdefault(r, []).append(n)
    for path, ns in by_path.items():
        out.update(read(path, ns))
    return out


def main():
    d = sys.argv[1]
    con = duckdb.connect()
    con.sql("SET TimeZone='UTC'")
    report = {}
    for pq_path in sorted(glob.glob(os.path.join(d, "*.parquet"))):
        if ".ref" in os.path.basename(pq_path):
            continue
        case = os.path.basename(pq_path)[: -len(".parquet")]
        with pa.ipc.open_file(os.path.join(d, case + ".arrow")) as r:
            exp = r.read_all()
        names = exp.schema.names

        # pyarrow's own file(s) of the same table: the reference
        # representation, per column.
        refs = write_refs(exp, d, case)

        # --- pyarrow
        got = pa_columns(pq_path, names)
        ref = read_refs(refs, pa_columns)
        for n in names:
            g, r = got[n], ref[n]
            if isinstance(g, Exception):
                result(report, case, "pyarrow", n, "fail", f"read error: {g}")
                continue
            st, det = safe_compare(g, exp.column(n), r)
            result(report, case, "pyarrow", n, st, det)

        # --- DuckDB
        got = duck_columns(con, pq_path, names)
        ref = read_refs(refs, lambda path, ns: duck_columns(con, path, ns))
        for n in names:
            g, r = got[n], ref[n]
            if isinstance(g, Exception):
                if isinstance(r, Exception):
                    result(report, case, "duckdb", n, "skip",
                           f"DuckDB cannot read {exp.schema.field(n).type} "
                           f"(pyarrow's own file too): {r}")
                else:
                    result(report, case, "duckdb", n, "fail", f"read error: {g}")
                continue
            st, det = safe_compare(g, exp.column(n), r)
            result(report, case, "duckdb", n, st, det)

        # --- DuckDB's SQL types: the Arrow export hides some (TIME and
        # TIME WITH TIME ZONE both export as time64[us]).
        got = duck_types(con, pq_path)
        ref = read_refs(refs, lambda path, ns: duck_types(con, path))
        for n in names:
            g, r = got.get(n), ref.get(n)
            if isinstance(g, Exception) or g is None:
                result(report, case, "duckdb-sql", n, "fail", f"describe failed: {g}")
            elif isinstance(r, Exception) or r is None:
                result(report, case, "duckdb-sql", n, "skip", f"{g}; no reference: {r}")
            elif g == r:
                result(report, case, "duckdb-sql", n, "pass", g)
            else:
                result(report, case, "duckdb-sql", n, "fail",
                       f"DuckDB type {g}, for pyarrow's own file {r}")
    with open(os.path.join(d, "report.json"), "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
