#!/usr/bin/env node
// wide_fixture.mjs -- writes test/data/parquet/wide.parquet, the fixture of
// tcl/wide.test: a table of more columns than SQLite's colUsed has bits
// (its last bit stands for every column from the 64th on), so a query that
// reads one of those columns leaves the scan to decode the others only if
// asked.
//
//   NODE_PATH=~/.cache/columnar-bench/node_modules node test/gen/wide_fixture.mjs   # from the repo root
//
// 8192 rows (id 0..8191) in two row groups, two batches each, zstd; then columns c00..c79,
// column j by j % 4:
//   0  BIGINT  (id * (j + 3)) % 1000, NULL where (id + j) % 13 = 0
//   1  VARCHAR 'v' || (id * j) % 37 (dictionary encoded), NULL where
//              (id * 7 + j) % 17 = 0
//   2  DOUBLE  (id % 101) / 4.0 + j
//   3  VARCHAR 'row' || id || '_' || j
// Plain arithmetic SQLite computes the same way: the test builds its oracle
// from these formulas, not from the reader. Deterministic; the output is
// committed.
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('wide_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet', 'wide.parquet');

const cols = [];
for (let j = 0; j < 80; j++) {
  const n = `c${String(j).padStart(2, '0')}`;
  switch (j % 4) {
    case 0: cols.push(`CASE WHEN (i + ${j}) % 13 = 0 THEN NULL ELSE (i * ${j + 3}) % 1000 END::BIGINT AS ${n}`); break;
    case 1: cols.push(`CASE WHEN (i * 7 + ${j}) % 17 = 0 THEN NULL ELSE 'v' || ((i * ${j}) % 37) END::VARCHAR AS ${n}`); break;
    case 2: cols.push(`((i % 101) / 4.0 + ${j})::DOUBLE AS ${n}`); break;
    default: cols.push(`('row' || i || '_' || ${j})::VARCHAR AS ${n}`); break;
  }
}

const inst = await D.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET threads=1`);
await con.run(`COPY (
  SELECT i::BIGINT AS id, ${cols.join(',\n    ')}
  FROM range(8192) t(i) ORDER BY i
) TO '${OUT}' (FORMAT parquet, ROW_GROUP_SIZE 4096, COMPRESSION zstd)`);
console.log(`wrote ${OUT}`);
