#!/usr/bin/env node
// topk_fixture.mjs -- writes test/data/parquet/topk.parquet, the fixture of
// the ORDER BY ... LIMIT bound tests in tcl/topk.test: columns whose values
// cluster by row group, as a file sorted by one key and then by time holds
// them (ClickBench's EventTime), so that once a top-k holds its rows the
// statistics of most row groups show they cannot hold a better one.
//
//   NODE_PATH=~/.cache/columnar-bench/node_modules node test/gen/topk_fixture.mjs   # from the repo root
//
// 16384 rows in 8 row groups of 2048 (DuckDB's smallest). Deterministic; the output is committed.
// Columns: id BIGINT; t TIMESTAMP (ascending: row group g spans days
// 4g..4g+5; NULL in one row in 40 of the first two); c INTEGER (ascending:
// 200g + 0..599, no NULLs); dn INTEGER (descending: 200(7-g) + 0..599,
// NULLs); s VARCHAR (descending: a letter h..a per row group then digits,
// NULLs, '' in the last two); r DOUBLE (descending, -0.0, +-inf and NULLs;
// NaN in the first two, whose statistics DuckDB then leaves out); x BIGINT
// (random); tm TIMESTAMP, dictionary-coded in the first two row groups (three
// values) and plain after (a new value every row).
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('topk_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet', 'topk.parquet');

const inst = await D.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET threads=1`);
await con.run(`COPY (
  SELECT i AS id,
    CASE WHEN hash(i, 1) % 40 = 0 AND i < 4096 THEN NULL
         ELSE TIMESTAMP '2013-07-01' + to_seconds(((i // 2048) * 4 * 86400 + hash(i, 2) % (6 * 86400))::BIGINT) END AS t,
    ((i // 2048) * 200 + hash(i, 4) % 600)::INTEGER AS c,
    CASE WHEN hash(i, 3) % 37 = 0 THEN NULL
         ELSE ((7 - i // 2048) * 200 + hash(i, 10) % 600)::INTEGER END AS dn,
    CASE WHEN hash(i, 5) % 29 = 0 THEN NULL
         WHEN hash(i, 5) % 29 = 1 AND i >= 12288 THEN ''
         ELSE chr((104 - (i // 2048))::INTEGER) || (hash(i, 6) % 5000)::VARCHAR END AS s,
    CASE WHEN hash(i, 7) % 31 = 0 THEN NULL
         WHEN hash(i, 7) % 31 = 1 AND i < 4096 THEN 'NaN'::DOUBLE
         WHEN hash(i, 7) % 31 = 2 THEN -0.0::DOUBLE
         WHEN i = 7777 THEN 'inf'::DOUBLE
         WHEN i = 8888 THEN '-inf'::DOUBLE
         ELSE (7 - i // 2048) * 10.0 + (hash(i, 8) % 2000) / 100.0 END AS r,
    (hash(i, 9) % 1000000)::BIGINT AS x,
    CASE WHEN i < 4096 THEN TIMESTAMP '2020-01-01' + to_seconds((i % 3)::BIGINT * 86400 * 400)
         ELSE TIMESTAMP '2021-01-01' + to_seconds(i::BIGINT * 7) END AS tm
  FROM range(16384) t(i) ORDER BY i
) TO '${OUT}' (FORMAT parquet, ROW_GROUP_SIZE 2048, COMPRESSION zstd)`);
console.log(`wrote ${OUT}`);
