"""Read Parquet files with pyarrow and DuckDB and print each column's type
and values, so the Rust test can check what the peers see.

Arguments: Parquet files. Prints one line per file, peer and column:

  RESULT<TAB>file name<TAB>pyarrow|duckdb<TAB>column<TAB>type<TAB>values

TYPE is pyarrow's `str(field.type)` or DuckDB's `DESCRIBE` column type
(a file DuckDB cannot open gives one line with column `*`, type `ERROR`
and DuckDB's message);
VALUES is compact JSON (no spaces), normalised so the test compares
numbers, not formatting:

  date              days since 1970-01-01
  time              milliseconds since midnight
  datetime          milliseconds since 1970-01-01 00:00 (UTC when the
                    value has a zone; the wall clock otherwise)
  bytes             {"hex": "..."}
  str, int, bool    as they are
  list, tuple       lists; a pyarrow map is a list of [key, value] pairs
  dict              a DuckDB MAP: a list of [key, value] pairs
  None              null
"""
import datetime
import json
import sys

import duckdb
import pyarrow.parquet as pq

EPOCH_DAY = datetime.date(1970, 1, 1)
EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_UTC = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
MS = datetime.timedelta(milliseconds=1)


def norm(v):
    if v is None:
        return None
    if isinstance(v, datetime.datetime):
        return (v - (EPOCH_UTC if v.tzinfo is not None else EPOCH)) // MS
    if isinstance(v, datetime.date):
        return (v - EPOCH_DAY).days
    if isinstance(v, datetime.time):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"hex": bytes(v).hex()}
    if isinstance(v, dict):
        return [[norm(k), norm(x)] for k, x in v.items()]
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    return v


def emit(path, peer, column, type_, values):
    text = json.dumps([norm(v) for v in values], separators=(",", ":"), ensure_ascii=False)
    print("\t".join(["RESULT", path.rsplit("/", 1)[-1], peer, column, type_, text]))


con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
for path in sys.argv[1:]:
    table = pq.read_table(path)
    for field, column in zip(table.schema, table.columns):
        emit(path, "pyarrow", field.name, str(field.type), column.to_pylist())
    try:
        described = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()
    except duckdb.Error as e:
        print("\t".join(["RESULT", path.rsplit("/", 1)[-1], "duckdb", "*", "ERROR",
                          str(e).splitlines()[0]]))
        continue
    for row in described:
        name, type_ = row[0], row[1]
        values = [r[0] for r in con.execute(
            f'SELECT "{name}" FROM read_parquet(?)', [path]).fetchall()]
        emit(path, "duckdb", name, type_, values)
