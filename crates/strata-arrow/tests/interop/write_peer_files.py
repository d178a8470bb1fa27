"""Part b of the interop test: real peers write Parquet files that strata
then reads. For each file DIR/<name>.parquet this writes DIR/<name>.arrow,
an Arrow IPC file of the peer's own reading of it:

  pyarrow_*  `pq.read_table(file)`.
  duckdb_*   DuckDB's reading (`select * from read_parquet(file)`), cast to
             the Arrow schema pyarrow derives from the file's Parquet schema
             (`pq.read_schema`), so that DuckDB's values are compared with
             the types a Parquet-to-Arrow reader gives without an embedded
             Arrow schema (DuckDB writes none). Where that cast is not
             possible the reference is pyarrow's reading (noted).

Prints `RESULT\\t<name>\\t<writer>\\t<note>` per file written, and
`SKIPPED\\t<name>\\t<reason>` for a variant the peer refuses to write.
"""

import datetime
import decimal
import os
import random
import sys
import uuid

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

N = 1500


def maybe(rng, v, p=0.2):
    return None if rng.random() < p else v


def rand_str(rng):
    pieces = ["a", "b", "xyz", "é", "漢字", "🦀", " ", "0", "long-ish-"]
    n = rng.choice([0, 1, 2, 3, 5, 8, 20])
    return "".join(rng.choice(pieces) for _ in range(n))


def rand_bytes(rng, n=None):
    n = rng.choice([0, 1, 4, 9, 17]) if n is None else n
    return bytes(rng.randrange(256) for _ in range(n))


def rand_dec(rng, p, s):
    digits = rng.randrange(10**p)
    v = decimal.Decimal(digits).scaleb(-s)
    return -v if rng.random() < 0.5 else v


def pyarrow_table(n=N, seed=7):
    rng = random.Random(seed)
    col = {}

    def add(name, typ, gen, p=0.2):
        col[name] = pa.array([maybe(rng, gen(), p) for _ in range(n)], type=typ)

    add("bool", pa.bool_(), lambda: rng.random() < 0.5)
    for bits in (8, 16, 32, 64):
        add(f"int{bits}", getattr(pa, f"int{bits}")(),
            lambda b=bits: rng.randrange(-(2 ** (b - 1)), 2 ** (b - 1)))
        add(f"uint{bits}", getattr(pa, f"uint{bits}")(), lambda b=bits: rng.randrange(2**b))
    add("float32", pa.float32(), lambda: rng.uniform(-1e6, 1e6))
    add("float64", pa.float64(), lambda: rng.uniform(-1e12, 1e12))
    col["float16"] = pa.array(
        [maybe(rng, rng.uniform(-100, 100)) for _ in range(n)], pa.float32()
    ).cast(pa.float16())
    add("dec_7_2", pa.decimal128(7, 2), lambda: rand_dec(rng, 7, 2))
    add("dec_18_6", pa.decimal128(18, 6), lambda: rand_dec(rng, 18, 6))
    add("dec_25_5", pa.decimal128(25, 5), lambda: rand_dec(rng, 25, 5))
    add("dec_38_0", pa.decimal128(38, 0), lambda: rand_dec(rng, 38, 0))
    add("dec256_50_10", pa.decimal256(50, 10), lambda: rand_dec(rng, 50, 10))
    epoch = datetime.date(1970, 1, 1)
    add("date32", pa.date32(), lambda: epoch + datetime.timedelta(days=rng.randrange(-30000, 60000)))
    col["date64"] = pa.array(
        [maybe(rng, rng.randrange(-30000, 60000) * 86_400_000) for _ in range(n)], pa.int64()
    ).cast(pa.date64())
    add("time32_s", pa.time32("s"), lambda: rng.randrange(86400))
    add("time32_ms", pa.time32("ms"), lambda: rng.randrange(86_400_000))
    add("time64_us", pa.time64("us"), lambda: rng.randrange(86_400_000_000))
    add("time64_ns", pa.time64("ns"), lambda: rng.randrange(86_400_000_000_000))
    for unit, per in (("s", 1), ("ms", 10**3), ("us", 10**6), ("ns", 10**9)):
        lo, hi = (-2_000_000_000, 7_000_000_000) if unit != "ns" else (-9_000_000_000, 9_000_000_000)
        add(f"ts_{unit}", pa.timestamp(unit), lambda lo=lo, hi=hi, per=per: rng.randrange(lo, hi) * per + rng.randrange(per))
    add("ts_ms_utc", pa.timestamp("ms", tz="UTC"), lambda: rng.randrange(-2 * 10**12, 7 * 10**12))
    add("ts_us_ny", pa.timestamp("us", tz="America/New_York"), lambda: rng.randrange(-2 * 10**15, 7 * 10**15))
    add("ts_ns_p0100", pa.timestamp("ns", tz="+01:00"), lambda: rng.randrange(-9 * 10**18, 9 * 10**18))
    for unit in ("s", "ms", "us", "ns"):
        add(f"dur_{unit}", pa.duration(unit), lambda: rng.randrange(-(2**40), 2**40))
    add("string", pa.string(), lambda: rand_str(rng))
    add("large_string", pa.large_string(), lambda: rand_str(rng))
    add("string_view", pa.string_view(), lambda: rand_str(rng))
    add("binary", pa.binary(), lambda: rand_bytes(rng))
    add("large_binary", pa.large_binary(), lambda: rand_bytes(rng))
    add("fsb7", pa.binary(7), lambda: rand_bytes(rng, 7))
    col["dict_string"] = pa.array(
        [maybe(rng, rng.choice(["red", "green", "blue", "ünïcode", ""])) for _ in range(n)]
    ).dictionary_encode()
    col["dict_int64"] = pa.array(
        [maybe(rng, rng.choice([1, 10, 100, -5])) for _ in range(n)], pa.int64()
    ).dictionary_encode()
    col["dict_int8_string"] = pa.array(
        [maybe(rng, rng.choice(["α", "β", "γ"])) for _ in range(n)]
    ).cast(pa.dictionary(pa.int8(), pa.string()))
    col["all_null_int32"] = pa.array([None] * n, pa.int32())
    col["req_int32"] = pa.array([rng.randrange(-1000, 1000) for _ in range(n)], pa.int32())

    def small_list(gen):
        return maybe(rng, [maybe(rng, gen(), 0.1) for _ in range(rng.randrange(5))])

    add("list_int32", pa.list_(pa.int32()), lambda: small_list(lambda: rng.randrange(-100, 100)))
    add("large_list_string", pa.large_list(pa.string()), lambda: small_list(lambda: rand_str(rng)))
    add("fsl_int16_2", pa.list_(pa.int16(), 2),
        lambda: [maybe(rng, rng.randrange(-100, 100), 0.1) for _ in range(2)])
    st = pa.struct([("a", pa.int64()), ("b", pa.string())])
    add("struct", st, lambda: {"a": maybe(rng, rng.randrange(10**9)), "b": maybe(rng, rand_str(rng))})
    add("list_struct", pa.list_(st),
        lambda: small_list(lambda: {"a": maybe(rng, rng.randrange(100)), "b": maybe(rng, rand_str(rng))}))
    sl = pa.struct([("l", pa.list_(pa.float64())), ("s", pa.struct([("z", pa.bool_())]))])
    add("struct_list", sl, lambda: {"l": small_list(lambda: rng.random()),
                                    "s": maybe(rng, {"z": maybe(rng, rng.random() < 0.5)})})
    add("map_string_int32", pa.map_(pa.string(), pa.int32()),
        lambda: [(f"k{i}", maybe(rng, rng.randrange(100))) for i in range(rng.randrange(4))])
    add("list_list_int64", pa.list_(pa.list_(pa.int64())),
        lambda: small_list(lambda: [maybe(rng, rng.randrange(10**12), 0.1) for _ in range(rng.randrange(3))]))
    add("list_ts_utc", pa.list_(pa.timestamp("us", tz="UTC")),
        lambda: small_list(lambda: rng.randrange(-10**15, 10**15)))
    add("list_dec", pa.list_(pa.decimal128(20, 4)), lambda: small_list(lambda: rand_dec(rng, 20, 4)))
    return pa.table(col)


def pyarrow_variants():
    enc = {
        "int32": "DELTA_BINARY_PACKED",
        "int64": "DELTA_BINARY_PACKED",
        "uint32": "DELTA_BINARY_PACKED",
        "string": "DELTA_BYTE_ARRAY",
        "large_string": "DELTA_LENGTH_BYTE_ARRAY",
        "binary": "DELTA_LENGTH_BYTE_ARRAY",
        "float32": "BYTE_STREAM_SPLIT",
        "float64": "BYTE_STREAM_SPLIT",
        "dec_25_5": "BYTE_STREAM_SPLIT",
        "fsb7": "DELTA_BYTE_ARRAY",
        "bool": "RLE",
    }
    v = {
        "default": {},
        "no_dict": {"use_dictionary": False},
        "page_v2": {"data_page_version": "2.0"},
        "page_v2_no_dict": {"data_page_version": "2.0", "use_dictionary": False},
        "no_store_schema": {"store_schema": False},
        "format_1_0": {"version": "1.0", "coerce_timestamps": "us",
                       "allow_truncated_timestamps": True},
        "format_2_4": {"version": "2.4", "coerce_timestamps": "us",
                       "allow_truncated_timestamps": True},
        "small_pages": {"row_group_size": 200, "data_page_size": 300, "write_batch_size": 37,
                        "dictionary_pagesize_limit": 200},
        "small_pages_v2": {"row_group_size": 200, "data_page_size": 300, "write_batch_size": 37,
                           "data_page_version": "2.0", "dictionary_pagesize_limit": 200},
        "encodings_v1": {"use_dictionary": False, "column_encoding": enc},
        "encodings_v2": {"use_dictionary": False, "column_encoding": enc, "data_page_version": "2.0"},
        "decimal_as_int": {"store_decimal_as_integer": True},
        "int96": {"use_deprecated_int96_timestamps": True},
        "page_checksum": {"write_page_checksum": True},
        "page_index": {"write_page_index": True},
        "statistics_off": {"write_statistics": False},
        "legacy_nested_names": {"use_compliant_nested_type": False},
        "byte_stream_split": {"use_dictionary": False, "use_byte_stream_split": [
            "int32", "int64", "uint32", "float16", "float32", "float64", "dec_7_2",
            "dec_25_5", "dec256_50_10", "fsb7", "date32", "ts_us", "time64_ns", "dur_ms"]},
    }
    for c in ("none", "gzip", "zstd", "lz4", "brotli"):
        v[f"codec_{c}"] = {"compression": c}
        v[f"codec_{c}_v2"] = {"compression": c, "data_page_version": "2.0"}
    return v


DUCK_SELECT = """
select
  case when i % 7 = 3 then null else i % 2 = 0 end as b,
  case when i % 5 = 1 then null else (i * 37 % 256 - 128)::TINYINT end as i8,
  (i * 7919 % 65536 - 32768)::SMALLINT as i16,
  case when i % 9 = 0 then null else (i * 104729)::INTEGER end as i32,
  (i::BIGINT * 1000000007 * 1000003) as i64,
  (i % 256)::UTINYINT as u8,
  (i * 31 % 65536)::USMALLINT as u16,
  (i::UBIGINT * 2654435761 % 4294967296)::UINTEGER as u32,
  hash(i) as u64,
  case when i % 4 = 0 then null else (i / 7.0)::FLOAT end as f32,
  (i * 1.0e-3 - 500)::DOUBLE as f64,
  (i % 10000 / 100.0 - 50)::DECIMAL(4,2) as dec_4_2,
  (i * 12345 / 1000.0)::DECIMAL(9,3) as dec_9_3,
  (i::HUGEINT * 987654321987 / 1000000.0)::DECIMAL(18,6) as dec_18_6,
  (i::HUGEINT * 98765432109876543 / 10000000000.0)::DECIMAL(38,10) as dec_38_10,
  case when i % 6 = 0 then null else 'str_' || i || repeat('é', i % 5) end as s,
  case when i % 10 = 0 then '' else repeat('x', i % 40) end as s_long,
  ('\\x' || lpad(to_hex(i % 255), 2, '0') || 'AB')::BLOB as blob,
  (DATE '1970-01-01' + (i * 17 - 20000)::INTEGER) as d,
  (TIME '00:00:00' + to_microseconds(i::BIGINT * 57123457)) as t,
  (TIMESTAMP '2000-01-01' + to_microseconds(i::BIGINT * 123456789123)) as ts,
  (TIMESTAMP '2000-01-01' + to_microseconds(i::BIGINT * 987654321))::TIMESTAMP_MS as ts_ms,
  (TIMESTAMP '2000-01-01' + to_microseconds(i::BIGINT * 987654321))::TIMESTAMP_S as ts_s,
  (TIMESTAMP '2000-01-01' + to_microseconds(i::BIGINT * 987654321))::TIMESTAMP_NS as ts_ns,
  case when i % 3 = 0 then null else
    (TIMESTAMPTZ '2010-06-01 00:00:00+00' + to_microseconds(i::BIGINT * 3600000000)) end as tstz,
  case when i % 8 = 0 then null else
    ('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID end as uuid,
  case when i % 5 = 0 then null when i % 5 = 1 then []::INTEGER[]
       else [i, null, i * 2][1:(i % 3 + 1)] end as list_int,
  ['a' || i, null, 'c'][1:(i % 4)] as list_str,
  case when i % 7 = 0 then null else {'x': i, 'y': 'v' || i, 'z': [i % 3, null]} end as st,
  case when i % 6 = 0 then null else map(['k1', 'k2'][1:(i % 3)], [i, null][1:(i % 3)]) end as m,
  case when i % 9 = 0 then null else [{'a': i, 'b': [i::DOUBLE, null]}, null] end as list_struct,
  [[i, i + 1], null, []] as list_list,
  (['red', 'green', 'blue'])[i % 3 + 1]::ENUM('red', 'green', 'blue') as enum_col,
  null::INTEGER as all_null
from range({n}) t(i)
"""


def duckdb_variants():
    v = {"default": ""}
    for c in ("uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli"):
        v[f"codec_{c}"] = f", COMPRESSION {c}"
    v["v2"] = ", PARQUET_VERSION V2"
    v["v2_zstd"] = ", PARQUET_VERSION V2, COMPRESSION zstd"
    v["small_row_groups"] = ", ROW_GROUP_SIZE 100"
    v["small_row_groups_v2"] = ", ROW_GROUP_SIZE 100, PARQUET_VERSION V2"
    return v


# DuckDB 2.0 with PARQUET_VERSION V2 writes UINTEGER columns (INT32,
# DELTA_BINARY_PACKED) with 33-bit miniblocks, which pyarrow rejects too
# ("delta bit width larger than integer bit width"). The V2 variants leave
# u32 out; `duckdb_v2_uinteger` has it alone.
V2_EXCLUDE = ("u32",)


def cast_columns(table, schema, int96=False):
    """Cast columns of pyarrow's reading to the type pyarrow wrote and
    embedded in the file (`ARROW:schema`) where strata, like arrow-rs,
    restores that type and pyarrow does not; the values are the same.
    That is date64 (pyarrow reads date32), INT96 timestamps (`int96`:
    pyarrow reads timestamp[ns] without a zone) and nested types. Times
    and timestamps stored in another unit (time32[s] and timestamp[s] as
    milliseconds, coerce_timestamps) keep pyarrow's unit: arrow-rs and
    strata read the stored unit too. Other type changes (format 1.0 stores
    uint32 as INT64 without a logical type) are not restored by pyarrow
    nor strata nor arrow-rs.
    Returns (table, notes about the casts)."""
    cols, notes = [], []
    for field in schema:
        col = table.column(field.name)
        temporal = (pa.types.is_temporal(col.type) and pa.types.is_temporal(field.type))
        timed = pa.types.is_time(field.type) or pa.types.is_timestamp(field.type)
        if timed and not (int96 and pa.types.is_timestamp(field.type)):
            temporal = False
        if col.type != field.type and (temporal or pa.types.is_nested(field.type)):
            try:
                col = col.cast(field.type)
                if not pa.types.is_nested(field.type):
                    notes.append(f"{field.name} {table.schema.field(field.name).type}->{field.type}")
            except Exception as e:  # keep pyarrow's type
                notes.append(f"{field.name} kept as {col.type} ({e})")
        cols.append(col)
    return pa.table(cols, schema=pa.schema([pa.field(f.name, c.type, f.nullable)
                                            for f, c in zip(schema, cols)])), notes


def duck_reference(duck, schema):
    """DuckDB's reading cast column by column to the Arrow types pyarrow
    derives from the Parquet schema; returns (table, notes)."""
    cols, fields, notes = [], [], []
    for field in schema:
        col = duck.column(field.name)
        target = field.type
        if isinstance(target, pa.BaseExtensionType):
            # UUID: pyarrow says extension<arrow.uuid>; a Parquet reader
            # without extension types gives its storage, 16 bytes.
            target = target.storage_type
            notes.append(f"{field.name}: extension type compared as {target}")
        if pa.types.is_fixed_size_binary(target) and pa.types.is_string(col.type):
            col = pa.array([None if v is None else uuid.UUID(v).bytes for v in col.to_pylist()],
                           target)
        else:
            col = col.cast(target)
        cols.append(col)
        fields.append(pa.field(field.name, target, field.nullable))
    return pa.table(cols, schema=pa.schema(fields)), notes


def write_ipc(table, path):
    with pa.ipc.new_file(path, table.schema) as w:
        w.write_table(table)


def main():
    d = sys.argv[1]
    table = pyarrow_table()
    all_null = pa.table({
        f.name: table.column(f.name) if f.name.startswith("req_") else pa.nulls(N, f.type)
        for f in table.schema
    })
    tables = {"": table, "all_null_": all_null, "empty_": table.slice(0, 0),
              "sliced_": table.slice(333, 777)}
    variants = [(f"{prefix}{name}", kw, t)
                for prefix, t in tables.items()
                for name, kw in pyarrow_variants().items()
                if prefix == "" or name in ("default", "no_dict", "page_v2", "no_store_schema")]
    for name, kw, t in variants:
        if kw.get("version") == "1.0":
            # Format 1.0 has no logical types for these: pyarrow refuses or
            # rewrites them; keep them out of this variant.
            t = t.drop_columns([c for c in t.column_names if "view" in c])
        fname = f"pyarrow_{name}"
        path = os.path.join(d, fname + ".parquet")
        try:
            pq.write_table(t, path, **kw)
        except Exception as e:
            print(f"SKIPPED\t{fname}\tpyarrow cannot write it: {e}".replace("\n", " "))
            if os.path.exists(path):
                os.remove(path)
            continue
        ref, notes = pq.read_table(path), []
        if kw.get("store_schema", True):
            ref, notes = cast_columns(ref, t.schema,
                                      int96=kw.get("use_deprecated_int96_timestamps", False))
        write_ipc(ref, os.path.join(d, fname + ".arrow"))
        note = f"{kw}" + (f" (pyarrow's reading cast: {', '.join(notes)})" if notes else "")
        print(f"RESULT\t{fname}\tpyarrow\t{note}", flush=True)

    con = duckdb.connect()
    con.sql("SET TimeZone='UTC'")
    con.sql(f"create table t as {DUCK_SELECT.replace('{n}', str(N))}")
    for name, opts in duckdb_variants().items():
        fname = f"duckdb_{name}"
        path = os.path.join(d, fname + ".parquet")
        src = "t"
        if "V2" in opts:
            src = f"(select * exclude ({', '.join(V2_EXCLUDE)}) from t)"
        con.sql(f"COPY {src} TO '{path}' (FORMAT parquet{opts})")
        note = opts.strip(", ") or "defaults"
        duck = con.sql(f"select * from read_parquet('{path}')").to_arrow_table()
        schema = pq.read_schema(path).remove_metadata()
        ref, notes = duck_reference(duck, schema)
        if notes:
            note += " (" + "; ".join(notes) + ")"
        write_ipc(ref, os.path.join(d, fname + ".arrow"))
        print(f"RESULT\t{fname}\tduckdb\t{note}".replace("\n", " "), flush=True)

    path = os.path.join(d, "duckdb_v2_uinteger.parquet")
    con.sql(f"COPY (select u32 from t) TO '{path}' (FORMAT parquet, PARQUET_VERSION V2)")
    duck = con.sql(f"select * from read_parquet('{path}')").to_arrow_table()
    write_ipc(duck_reference(duck, pq.read_schema(path).remove_metadata())[0],
              os.path.join(d, "duckdb_v2_uinteger.arrow"))
    print("RESULT\tduckdb_v2_uinteger\tduckdb\tUINTEGER, PARQUET_VERSION V2", flush=True)

    # An INTERVAL column (Parquet INTERVAL, FIXED_LEN_BYTE_ARRAY(12)):
    # strata does not support it and must say so with an error.
    path = os.path.join(d, "duckdb_interval.parquet")
    con.sql(f"COPY (select i, to_days(i::INTEGER) + to_milliseconds(i) as iv from range(10) t(i)) "
            f"TO '{path}' (FORMAT parquet)")
    write_ipc(pq.read_table(path), os.path.join(d, "duckdb_interval.arrow"))
    print("RESULT\tduckdb_interval\tduckdb\tINTERVAL column", flush=True)


if __name__ == "__main__":
    main()
