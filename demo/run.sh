#!/bin/sh
# demo/run.sh -- query demo/sample.parquet and demo/sample.csv (the same 1000
# rows) in the sqlite3 shell with the columnar extension loaded.
#
#   make demo            (or: sh demo/run.sh after `make`)
#
# Needs the sqlite3 command-line shell (Debian package sqlite3) and
# build/columnar.so. Runs from the repository root whatever the caller's
# directory.
set -eu
cd "$(dirname "$0")/.."
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "demo: the sqlite3 shell is not installed (apt-get install sqlite3)" >&2; exit 1
fi
if [ ! -f build/columnar.so ]; then
  echo "demo: build/columnar.so is missing; run make first" >&2; exit 1
fi
sqlite3 -bail :memory: <<'SQL'
.load build/columnar
.headers on
.mode box

.print "-- Parquet: CREATE VIRTUAL TABLE temp.t USING parquet('demo/sample.parquet')"
CREATE VIRTUAL TABLE temp.t USING parquet('demo/sample.parquet');
SELECT count(*) AS rows FROM t;
SELECT * FROM t WHERE qty >= 17 AND region = 'north' ORDER BY id LIMIT 5;
SELECT region, count(*) AS n, sum(qty) AS qty, round(avg(price), 2) AS avg_price
  FROM t GROUP BY region ORDER BY region;
SELECT id, tags, tags ->> '$[0]' AS first_tag FROM t WHERE sold_on = '2024-02-29' LIMIT 3;

.print "-- parquet_schema and parquet_metadata"
SELECT name, type, repetition_type, converted_type, sql_type FROM parquet_schema('demo/sample.parquet');
SELECT row_group_id, path_in_schema, compression, encodings, stats_min, stats_max, total_compressed_size
  FROM parquet_metadata('demo/sample.parquet') WHERE column_id < 4;

.print "-- CSV: CREATE VIRTUAL TABLE temp.c USING csv('demo/sample.csv', header=true)"
CREATE VIRTUAL TABLE temp.c USING csv('demo/sample.csv', header=true);
SELECT count(*) AS rows FROM c;
SELECT * FROM c WHERE qty >= 17 AND region = 'north' ORDER BY id LIMIT 5;
SELECT region, count(*) AS n, sum(qty) AS qty, round(avg(price), 2) AS avg_price
  FROM c GROUP BY region ORDER BY region;
.print "-- the two files agree:"
SELECT count(*) AS rows_that_differ FROM (
  SELECT id, region, product, qty, price, sold_on, customer FROM t
  EXCEPT SELECT id, region, product, qty, price, sold_on, customer FROM c);

.print "-- group_by: the aggregation runs over the reader's batches"
CREATE VIRTUAL TABLE temp.by_product USING group_by(
  'demo/sample.parquet',
  keys = 'product',
  aggregates = 'count(*) AS n, count(DISTINCT customer) AS customers, sum(qty) AS qty, avg(price) AS avg_price',
  filter = 'region <> ''west'''
);
SELECT * FROM by_product ORDER BY qty DESC;
.print "-- group_by with date modifiers, CAST and FILTER: a month-end key, per region"
CREATE VIRTUAL TABLE temp.by_month USING group_by(
  'demo/sample.parquet',
  keys = 'date(sold_on, ''start of month'', ''+1 month'', ''-1 day'') AS month_end, region',
  aggregates = 'count(*) AS n, count(*) FILTER (WHERE qty >= 10) AS big, total(CAST(price AS REAL) * qty) AS revenue'
);
SELECT * FROM by_month ORDER BY month_end, region LIMIT 6;
.print "-- group_by with ORDER BY inside an aggregate (SQLite 3.44's syntax): each region's products, and its sales by quantity, largest first"
CREATE VIRTUAL TABLE temp.by_region USING group_by(
  'demo/sample.parquet',
  keys = 'region',
  aggregates = 'group_concat(DISTINCT product ORDER BY product) AS products, group_concat(id, '' '' ORDER BY qty DESC, id) AS ids_by_qty'
);
SELECT region, products, substr(ids_by_qty, 1, 40) AS ids_by_qty FROM by_region ORDER BY region;
SQL
