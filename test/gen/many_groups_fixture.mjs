#!/usr/bin/env node
// many_groups_fixture.mjs -- writes test/data/parquet/many_groups.parquet, the fixture of
// tcl/groupby_repeat.test: enough groups (300k) that a parallel group_by's tables and states
// outgrow the 2 MiB blocks a zone carves (agg/zone.h) and come and go through the connection's
// slab pool from one query to the next.
//
//   NODE_PATH=~/.cache/columnar-bench/node_modules node test/gen/many_groups_fixture.mjs   # from the repo root
//
// 360000 rows in row groups of 45000. Deterministic; the output is committed. Columns: k BIGINT,
// 300000 values (rows 300000 on repeat earlier keys), v INTEGER in [-50, 49], r DOUBLE (v / 8),
// t TIMESTAMP, k seconds after 2013-07-01 (a key group_by reads as its stored integers).
// Written as Parquet 2 (DELTA_BINARY_PACKED integers) with zstd, so it stays small.
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('many_groups_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet', 'many_groups.parquet');

const inst = await D.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET threads=1`);
await con.run(`COPY (
  SELECT CASE WHEN i < 300000 THEN i ELSE (i * 7919) % 300000 END AS k,
    (i % 100)::INTEGER - 50 AS v,
    ((i % 100) - 50) / 8.0 AS r,
    TIMESTAMP '2013-07-01 00:00:00' + to_seconds(CASE WHEN i < 300000 THEN i ELSE (i * 7919) % 300000 END) AS t
  FROM range(360000) t(i) ORDER BY i
) TO '${OUT}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 45000, PARQUET_VERSION V2)`);
console.log(`wrote ${OUT}`);
