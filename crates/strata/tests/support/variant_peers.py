"""The peers of strata's VARIANT tests (tests/variant.rs).

    read FILE EXPECTED     DuckDB reads column `v` of FILE as JSON, row by
                           row, and pyarrow reads its storage struct (pyarrow
                           has no Variant type: the `metadata` and `value`
                           bytes). EXPECTED is a JSON object: "json", the
                           rows' values as JSON text (null for a null row),
                           and "metadata" / "value", the bytes strata wrote
                           at the top level, in hex (null where none).
    write VALUES OUT...    DuckDB writes the JSON texts of VALUES (a JSON
                           list) as a VARIANT column `v`: OUT[0] unshredded,
                           OUT[1] shredded as DuckDB chooses.

Prints one line per peer with its version; exits non-zero on a difference.
"""
import json
import sys
from decimal import Decimal

import duckdb
import pyarrow
import pyarrow.parquet as pq


def parse(text):
    """A JSON text as a value, exact for decimals; None for null."""
    return None if text is None else json.loads(text, parse_float=Decimal)


def read(path, expected_path):
    with open(expected_path) as f:
        expected = json.load(f)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    rows = con.execute(
        "SELECT CAST(v AS JSON)::VARCHAR FROM read_parquet(?, file_row_number = true) "
        "ORDER BY file_row_number",
        [path],
    ).fetchall()
    got = [r[0] for r in rows]
    # DuckDB reads a Variant null as SQL NULL: both are None here.
    differ = [
        i
        for i, (g, e) in enumerate(zip(got, expected["json"]))
        if parse(g) != parse(e)
    ]
    if len(got) != len(expected["json"]):
        differ.append(f"{len(got)} rows, expected {len(expected['json'])}")
    print(f"duckdb {duckdb.__version__}: {len(got)} rows, {len(differ)} differ {differ[:5]}")

    column = pq.read_table(path).column("v").to_pylist()
    wrong = []
    for i, row in enumerate(column):
        for key in ("metadata", "value"):
            want = expected[key][i]
            have = None if row is None or row.get(key) is None else row[key].hex()
            if have != want:
                wrong.append((i, key))
    print(f"pyarrow {pyarrow.__version__}: {len(column)} rows, {len(wrong)} differ {wrong[:5]}")
    return not differ and not wrong


def write(values_path, unshredded, shredded):
    with open(values_path) as f:
        values = json.load(f)
    con = duckdb.connect()
    con.execute("CREATE TABLE t (id INTEGER, j VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(values)))
    query = "SELECT id, CAST(CAST(j AS JSON) AS VARIANT) AS v FROM t ORDER BY id"
    con.execute(f"COPY ({query}) TO '{unshredded}' (FORMAT parquet, SHREDDING {{v: 'VARIANT'}})")
    con.execute(f"COPY ({query}) TO '{shredded}' (FORMAT parquet)")
    print(f"duckdb {duckdb.__version__}: wrote {len(values)} rows twice")
    return True


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    ok = read(*args) if command == "read" else write(*args)
    sys.exit(0 if ok else 1)
