"""Geospatial statistics strata wrote, beside pyarrow's for the same WKB.

Argument: a directory with `cases.json` (per case: "edges" null for a
GEOMETRY column or "spherical" for GEOGRAPHY, and the values as hex WKB)
and, per case, `<case>.strata.parquet` written by strata. For each case
pyarrow writes the same values as a `geoarrow.wkb` extension column (which
parquet-cpp writes as GEOMETRY or GEOGRAPHY with its own statistics); then
pyarrow's reading of both files' geospatial statistics is compared, and
DuckDB's (`parquet_metadata`'s geo_bbox and geo_types).
Prints `RESULT<TAB>peer<TAB>case<TAB>ok|fail<TAB>detail`.
"""
import json
import os
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq


class Wkb(pa.ExtensionType):
    def __init__(self, metadata=b"{}"):
        self._metadata = metadata
        super().__init__(pa.binary(), "geoarrow.wkb")

    def __arrow_ext_serialize__(self):
        return self._metadata

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return Wkb(serialized)


pa.register_extension_type(Wkb())

folder = sys.argv[1]
with open(os.path.join(folder, "cases.json")) as f:
    cases = json.load(f)


def view(stats):
    if stats is None:
        return None
    return {
        "types": stats.geospatial_types,
        "box": [stats.xmin, stats.xmax, stats.ymin, stats.ymax, stats.zmin, stats.zmax, stats.mmin, stats.mmax],
    }


def pyarrow_view(path):
    md = pq.ParquetFile(path).metadata
    out = []
    for i in range(md.num_row_groups):
        c = md.row_group(i).column(0)
        out.append(view(c.geo_statistics) if c.is_geo_stats_set else None)
    return out


con = duckdb.connect()
for name, case in cases.items():
    ours = os.path.join(folder, f"{name}.strata.parquet")
    theirs = os.path.join(folder, f"{name}.pyarrow.parquet")
    meta = b"{}" if case["edges"] is None else json.dumps({"edges": case["edges"]}).encode()
    values = [bytes.fromhex(v) for v in case["values"]]
    array = pa.ExtensionArray.from_storage(Wkb(meta), pa.array(values, pa.binary()))
    pq.write_table(pa.table({"geometry": array}), theirs)
    a, b = pyarrow_view(ours), pyarrow_view(theirs)
    status = "ok" if a == b else "fail"
    print(f"RESULT\tpyarrow\t{name}\t{status}\tstrata {a} pyarrow {b}")
    query = "SELECT geo_bbox, geo_types FROM parquet_metadata(?) ORDER BY row_group_id"
    a, b = con.execute(query, [ours]).fetchall(), con.execute(query, [theirs]).fetchall()
    status = "ok" if a == b else "fail"
    print(f"RESULT\tduckdb\t{name}\t{status}\tstrata {a} pyarrow {b}")
