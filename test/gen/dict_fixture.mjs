#!/usr/bin/env node
// dict_fixture.mjs -- writes test/data/parquet/dict.parquet, the fixture of
// tcl/groupby_dict.test: dictionary-encoded columns in row groups larger
// than a batch, so that expressions evaluated once per dictionary entry
// (agg/expr.c ex_eval_dict) meet the same dictionary in several batches
// and a new one at each row group.
//
//   NODE_PATH=~/.cache/columnar-bench/node_modules node test/gen/dict_fixture.mjs   # from the repo root
//
// 15000 rows in row groups of 5000. Deterministic; the output is committed.
// Columns: id BIGINT; w VARCHAR, ~40 words per row group drawn from a list
// that shifts by row group (mixed case, non-ASCII, '' and NULLs); v INTEGER
// with 30 values and NULLs; dd DATE over 25 days and NULLs; u VARCHAR, ~500
// values per row group (some non-ASCII), a dictionary larger than the rows
// a filter leaves in a batch, so that a batch computes dozens of its new
// entries at once (ex_eval_dict_cached, ex_sort_codes).
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('dict_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet', 'dict.parquet');

const words = ['apple', 'Apple', 'APPLE', 'banana', 'cherry', 'Éclair', 'éclair', 'zebra', '', 'a',
  'Straße', 'STRASSE', 'naïve', 'x-ray', 'yak', 'Yak', 'kiwi', 'lime', 'Lime', 'mango', 'ñandú',
  'olive', 'pear', 'Pear', 'quince', 'radish', 'sage', 'thyme', 'ugli', 'vanilla', 'walnut',
  'Ωmega', 'ωmega', 'fig', 'date', 'grape', 'hazel', 'iris', 'jujube', 'kale', 'leek', 'melon',
  'nut', 'oat', 'pea', 'rye', 'soy', 'tea', 'urd', 'vine'];
const list = words.map((w) => `'${w}'`).join(', ');

const inst = await D.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET threads=1`);
await con.run(`COPY (
  SELECT i AS id,
    CASE WHEN hash(i, 1) % 23 = 0 THEN NULL
         ELSE ([${list}])[1 + ((i // 5000) * 5 + hash(i, 2) % 40)::INTEGER % ${words.length}] END AS w,
    CASE WHEN hash(i, 3) % 17 = 0 THEN NULL ELSE (hash(i, 4) % 30)::INTEGER - 10 END AS v,
    CASE WHEN hash(i, 5) % 19 = 0 THEN NULL
         ELSE DATE '2013-06-20' + ((i // 5000) * 4 + hash(i, 6) % 25)::INTEGER END AS dd,
    'u' || un::VARCHAR || CASE WHEN un % 5 = 0 THEN 'é' ELSE '' END AS u
  FROM (SELECT i, ((i // 5000) * 250 + hash(i, 7) % 500)::INTEGER AS un FROM range(15000) t(i))
  ORDER BY i
) TO '${OUT}' (FORMAT parquet, ROW_GROUP_SIZE 5000, COMPRESSION zstd)`);
console.log(`wrote ${OUT}`);
