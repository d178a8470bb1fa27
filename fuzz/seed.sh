#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the parquet-testing
# corpus (default ../../shared/parquet-testing, beside the checkout) into
# fuzz/corpus/<target>/. Nothing here is committed: run it before fuzzing.
#   footer:     every footer's raw Thrift metadata, the files' last 64 KiB,
#               and the encrypted files whole
#   arrow_read: the non-encrypted files up to 256 KiB
# page_decode and roundtrip start from an empty corpus.
set -euo pipefail
cd "$(dirname "$0")"
src="${1:-../../shared/parquet-testing}"
mkdir -p corpus/footer corpus/arrow_read corpus/page_decode corpus/roundtrip
find "$src/data" "$src/bad_data" -name '*.parquet' -print0 | while IFS= read -r -d '' f; do
    name="$(basename "$f")"
    size=$(stat -c %s "$f")
    [ "$size" -ge 12 ] || continue
    [ "$(tail -c 4 "$f")" = "PAR1" ] || continue
    meta=$(tail -c 8 "$f" | head -c 4 | od -An -tu4 | tr -d ' ')
    if [ "$meta" -le $((size - 8)) ]; then
        tail -c $((meta + 8)) "$f" | head -c "$meta" > "corpus/footer/$name.thrift"
    fi
    tail -c 65536 "$f" > "corpus/footer/$name.tail"
    if [ "$size" -le 262144 ]; then
        cp "$f" "corpus/arrow_read/$name"
    fi
done
# The encrypted files whole: the footer target reads them with the
# corpus's keys (encrypted footers, signed plaintext ones).
find "$src/data" -name '*.parquet.encrypted' -print0 | while IFS= read -r -d '' f; do
    cp "$f" "corpus/footer/$(basename "$f")"
done
echo "footer: $(ls corpus/footer | wc -l) seeds, arrow_read: $(ls corpus/arrow_read | wc -l) seeds"
