#!/usr/bin/env node
// tsdict_fixture.mjs -- writes test/data/parquet/tsdict.parquet for
// tcl/topk.test and tcl/ts_pred.test: timestamps and dates, dictionary
// encoded or plain, with values outside years 0000-9999, which a top-k's
// first pass and a comparison read as their stored integers.
//
//   NODE_PATH=/root/duck/node_modules node test/gen/tsdict_fixture.mjs   # from the repo root
//
// 3000 rows, row groups of 1000. t_far: TIMESTAMP_MS from 9 values, two
// of them outside years 0000-9999 (whose text sorts unlike the integers),
// met only in the last row group; t_near: TIMESTAMP from 7 values in
// 1990-2030; d_wide: DATE of 3000 values over years -768..10727, past
// 9999 too (plain); d_dict: DATE of 7 values at the edges of years
// 0000-9999 (a dictionary); all with NULLs; t_wide: TIMESTAMP_MS of 3000
// values over years -502..11758, plain, without NULLs. Deterministic; the
// output is committed.
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('tsdict_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const FILE = path.join(ROOT, 'test', 'data', 'parquet', 'tsdict.parquet');

const inst = await D.DuckDBInstance.create(':memory:');
const con = await inst.connect();
// ms since the epoch: -1000-03-01, 11000-07-04 (outside), and seven inside
const far = ['-93706675200000', '285000000000000', '0', '946684799999', '946684800000',
  '1234567890123', '-62135596800000', '253402300799999', '1700000000000'];
const near = ['631152000000000', '946684799000000', '946684800000000', '1234567890123456',
  '1500000000000001', '1700000000000000', '1893455999999999'];
await con.run(`CREATE TABLE r AS SELECT i AS id,
    CASE WHEN i % 11 = 0 THEN NULL
         WHEN i < 2000 THEN epoch_ms(([${far.slice(2).join(',')}])[1 + (i * 3) % 7])::TIMESTAMP_MS
         ELSE epoch_ms(([${far.join(',')}])[1 + (i * 5) % 9])::TIMESTAMP_MS END AS t_far,
    CASE WHEN i % 13 = 0 THEN NULL
         ELSE make_timestamp(([${near.join(',')}])[1 + (i * 3) % 7]) END AS t_near,
    CASE WHEN i % 17 = 0 THEN NULL
         ELSE DATE '1970-01-01' + CAST(((i * 7919) % 3000) * 1400 - 1000000 AS INTEGER) END AS d_wide,
    CASE WHEN i % 19 = 0 THEN NULL
         ELSE DATE '1970-01-01' + ([-719529, -719528, -1, 0, 15000, 2932896, 2932897])[1 + (i * 5) % 7] END AS d_dict,
    epoch_ms(((i * 7919) % 3000) * 124000000000 - 78000000000000 + (i % 7) * 999)::TIMESTAMP_MS AS t_wide
  FROM range(3000) t(i)`);
await con.run(`COPY (SELECT * FROM r ORDER BY id) TO '${FILE}'
  (FORMAT PARQUET, ROW_GROUP_SIZE 1000, COMPRESSION ZSTD)`);
console.log('wrote tsdict.parquet');
