"""Read strata's INTERVAL columns with pyarrow and DuckDB.

Arguments: the Parquet file and a JSON file mapping each column to its
expected rows, each null or [months, days, milliseconds].

pyarrow reads a Parquet INTERVAL as fixed_size_binary(12): the three parts
are unpacked as little-endian unsigned 32-bit integers. DuckDB reads it as an
INTERVAL, which its Python API returns as a timedelta of months * 30 + days
days and milliseconds. Prints `RESULT<TAB>peer<TAB>column<TAB>ok|fail<TAB>detail`.
"""
import datetime
import json
import struct
import sys

import duckdb
import pyarrow.parquet as pq

path, expected_path = sys.argv[1], sys.argv[2]
with open(expected_path) as f:
    expected = json.load(f)

table = pq.read_table(path)
for column, rows in expected.items():
    got = [None if v is None else list(struct.unpack("<III", v)) for v in table.column(column).to_pylist()]
    status = "ok" if got == rows else "fail"
    print(f"RESULT\tpyarrow\t{column}\t{status}\t{got[:5] if status == 'fail' else ''}")

con = duckdb.connect()
for column, rows in expected.items():
    got = [r[0] for r in con.execute(f"SELECT \"{column}\" FROM read_parquet(?)", [path]).fetchall()]
    want = [
        None if r is None else datetime.timedelta(days=r[0] * 30 + r[1], milliseconds=r[2])
        for r in rows
    ]
    status = "ok" if got == want else "fail"
    print(f"RESULT\tduckdb\t{column}\t{status}\t{got[:5] if status == 'fail' else ''}")
