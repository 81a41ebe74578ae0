#!/usr/bin/env node
// lazy_fixture.mjs -- writes test/data/parquet/lazy.parquet, the fixture of
// tcl/groupby_lazy.test: an integer column holding -9223372036854775808
// (whose abs() is SQLite's "integer overflow") in a few rows, dictionary
// encoded, so that a batch's evaluation meets the value both in its rows and
// in dictionary entries no live row uses.
//
//   NODE_PATH=~/.cache/columnar-bench/node_modules node test/gen/lazy_fixture.mjs   # from the repo root
//
// 12000 rows in row groups of 6000. Deterministic; the output is committed.
// Columns: id BIGINT; g INTEGER 0..5; v BIGINT with 25 values, NULLs and
// the smallest integer in about one row in 300; w VARCHAR (12 words, NULLs).
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('lazy_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet', 'lazy.parquet');

const inst = await D.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET threads=1`);
await con.run(`COPY (
  SELECT i AS id,
    (hash(i, 1) % 6)::INTEGER AS g,
    CASE WHEN hash(i, 2) % 300 = 0 THEN (-9223372036854775807)::BIGINT - 1
         WHEN hash(i, 3) % 13 = 0 THEN NULL
         ELSE (hash(i, 4) % 25)::BIGINT - 12 END AS v,
    CASE WHEN hash(i, 5) % 11 = 0 THEN NULL
         ELSE (['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', ''])[1 + (hash(i, 6) % 12)::INTEGER] END AS w
  FROM range(12000) t(i) ORDER BY i
) TO '${OUT}' (FORMAT parquet, ROW_GROUP_SIZE 6000, COMPRESSION zstd)`);
console.log(`wrote ${OUT}`);
