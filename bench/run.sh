#!/bin/sh
# run.sh — `make bench`: prepare the hits data, then print the benchmark tables (bench/bench.mjs)
# and, when bench/csv.sh exists, the CSV benchmarks. Results also go to /tmp/hits/bench-results.txt.
#
#   make bench                       10m rows (generation ~3-6 min and sqlite import ~3 min the first time)
#   BENCH_ROWS=1m make bench         quick run
#   SECTIONS=3 ONLY=8,9,37-43 make bench    part of it (see bench/bench.mjs for every knob)
#
# Environment:
#   BENCH_ROWS       rows of the generated table, as gen-hits.mjs --rows takes them (default 10m)
#   BENCH_DIR        data folder (default /tmp/hits/$BENCH_ROWS); never inside the repository
#   COLUMNAR_SHARED  the shared folder holding bench/gen-hits.mjs (default ../shared next to the repo)
#   BENCH_CSV=0      skip bench/csv.sh
#   NODE_PATH        where @duckdb/node-api is; if it is not loadable it is installed into
#                    ${XDG_CACHE_HOME:-~/.cache}/columnar-bench
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
rows=${BENCH_ROWS:-10m}
dir=${BENCH_DIR:-/tmp/hits/$rows}
shared=${COLUMNAR_SHARED:-$repo/../shared}
kit=$shared/bench
results=${BENCH_RESULTS:-/tmp/hits/bench-results.txt}
duck_version=1.5.6-r.1

if [ ! -f "$kit/gen-hits.mjs" ]; then
  echo "bench: $kit/gen-hits.mjs not found (set COLUMNAR_SHARED to the shared folder)" >&2
  exit 1
fi
command -v node >/dev/null || { echo "bench: node is required (DuckDB runs through @duckdb/node-api)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "bench: the sqlite3 shell is required" >&2; exit 1; }

# DuckDB for node: NODE_PATH as given, else a cache folder (installed once).
if ! node -e "require('@duckdb/node-api')" 2>/dev/null; then
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/columnar-bench
  if [ ! -d "$cache/node_modules/@duckdb/node-api" ]; then
    echo "bench: installing @duckdb/node-api@$duck_version into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-audit --no-fund "@duckdb/node-api@$duck_version" >&2
  fi
  NODE_PATH=$cache/node_modules${NODE_PATH:+:$NODE_PATH}
  export NODE_PATH
fi

# Debian's csvtable module, the CSV peer: installed when missing and this is
# root on a Debian-like system; otherwise its columns say it failed to load.
csvtable=${CSVTABLE:-/usr/lib/x86_64-linux-gnu/libsqlite3_mod_csvtable}
if [ "${BENCH_CSV:-1}" != 0 ] && [ ! -f "$csvtable.so" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "bench: installing libsqlite3-mod-csvtable (Debian's csvtable module, the CSV peer)" >&2
    apt-get install -y -q libsqlite3-mod-csvtable >/dev/null 2>&1 \
      || echo "bench: could not install libsqlite3-mod-csvtable; csvtable columns will fail" >&2
  else
    echo "bench: $csvtable.so not found (apt-get install libsqlite3-mod-csvtable); csvtable columns will fail" >&2
  fi
fi

# The data: hits.parquet and hits.csv from gen-hits.mjs, hits.sqlite imported from hits.csv.
mkdir -p "$dir"
formats=
[ -f "$dir/hits.parquet" ] || formats=parquet
[ -f "$dir/hits.csv" ] || formats=${formats:+$formats,}csv
if [ -n "$formats" ]; then
  echo "bench: generating $rows rows ($formats) into $dir" >&2
  node "$kit/gen-hits.mjs" --rows "$rows" --out "$dir" --formats "$formats" >&2
fi
if [ ! -f "$dir/hits.sqlite" ]; then
  echo "bench: importing $dir/hits.csv into $dir/hits.sqlite (native SQLite table, create-sqlite.sql)" >&2
  rm -f "$dir/hits.sqlite.tmp"
  start=$(date +%s)
  sqlite3 "$dir/hits.sqlite.tmp" <<EOF
.read $kit/create-sqlite.sql
.import --csv --skip 1 $dir/hits.csv hits
EOF
  mv "$dir/hits.sqlite.tmp" "$dir/hits.sqlite"
  echo "bench: import took $(( $(date +%s) - start )) s" >&2
fi

make -C "$repo" --no-print-directory build/columnar.so build/bench_scan >&2
# Measure a private copy: build/ may be rebuilt (by anyone) while the benchmark runs.
snap=$(mktemp -d "${TMPDIR:-/tmp}/columnar-bench.XXXXXX")
trap 'rm -rf "$snap"' EXIT
cp "$repo/build/columnar.so" "$repo/build/bench_scan" "$snap/"
BENCH_BUILD="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
if [ -n "$(git -C "$repo" status --porcelain -- reader agg ext 2>/dev/null)" ]; then
  BENCH_BUILD="$BENCH_BUILD + uncommitted changes in reader/ agg/ ext/"
fi
export BENCH_BUILD

mkdir -p "$(dirname "$results")"
BENCH_DIR=$dir SHARED_BENCH=$kit BENCH_OUT=$results \
  COLUMNAR_EXT=$snap/columnar BENCH_SCAN=$snap/bench_scan \
  node "$here/bench.mjs"

if [ "${BENCH_CSV:-1}" != 0 ] && [ -f "$here/csv.sh" ]; then
  echo
  BENCH_ROWS=$rows BENCH_DIR=$dir COLUMNAR_SHARED=$shared COLUMNAR_EXT=$snap/columnar \
    sh "$here/csv.sh" | tee -a "$results"
fi
echo "bench: results written to $results" >&2
