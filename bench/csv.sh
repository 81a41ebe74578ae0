#!/bin/sh
# csv.sh — the CSV benchmark: ours (threads 1, 2) vs Debian's csvtable, sqlite3 .import + native
# query, and DuckDB read_csv (threads 1, 2) over DIR/hits.csv; see bench/csv/bench.mjs.
#
#   sh bench/csv.sh /tmp/hits/10m          (bench/run.sh calls it with BENCH_DIR set instead)
#   TRIES=1 ENGINES=ours,duck sh bench/csv.sh /tmp/hits/1m
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
dir=${1:-${BENCH_DIR:-/tmp/hits/${BENCH_ROWS:-10m}}}
[ -f "$dir/hits.csv" ] || { echo "csv.sh: $dir/hits.csv not found" >&2; exit 1; }
[ -f "$repo/build/columnar.so" ] || make -C "$repo" --no-print-directory build/columnar.so >&2
if [ -z "${NODE_PATH:-}" ] && [ -d "$HOME/duck/node_modules" ]; then
  NODE_PATH=$HOME/duck/node_modules; export NODE_PATH
fi
COLUMNAR_EXT=${COLUMNAR_EXT:-$repo/build/columnar} exec node "$here/csv/bench.mjs" "$dir"
