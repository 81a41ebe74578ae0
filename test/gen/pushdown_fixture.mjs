#!/usr/bin/env node
// pushdown_fixture.mjs -- writes the fixture of tcl/pushdown.test, the
// randomized differential test of predicate pushdown:
//
//   test/data/parquet/pushdown.parquet   5000 rows sorted by k, row groups of
//                                        1024 rows (statistics can prune)
//   test/data/csv/pushdown.csv           the same rows as CSV (header; NaN as
//                                        an empty field; blobs as DuckDB's
//                                        escaped text)
//
//   NODE_PATH=/root/duck/node_modules node test/gen/pushdown_fixture.mjs   # from the repo root
//
// Deterministic (a fixed xorshift seed). The output is committed: the test
// suite itself never needs node. The test's oracle is SQLite over a native
// copy of what our reader returns (tcl/fixtures.test checks the reader
// against DuckDB), so no expected file is written.
//
// Columns: k BIGINT (0..4999, sorted, unique), i BIGINT (NULLs, 0, +-1,
// +-(2^63-1), -2^63, 2^53 and 2^53+-1, small and large randoms), n INTEGER
// (0..20 and NULLs: many literal collisions), d DOUBLE (NULL, NaN, -0.0,
// integral doubles, fractions, +-inf, 2^53 neighbours, 1e20, tiny), s VARCHAR
// (mixed case, trailing spaces, '', '%', '_', '*', '?', '[', non-ASCII UTF-8,
// numeric-looking text), c VARCHAR (low cardinality: dictionary encoded), dt
// DATE (sorted with k), ts TIMESTAMP (with fractions), bl BLOB, b BOOLEAN.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

function need(name) {
  const bases = [import.meta.url, 'file://' + path.join(process.cwd(), 'x.js'),
    ...(process.env.NODE_PATH || '').split(':').filter(Boolean).map((d) => 'file://' + path.join(d, '..', 'x.js'))];
  for (const b of bases) { try { return createRequire(b)(name); } catch { /* next */ } }
  return null;
}
const D = need('@duckdb/node-api');
if (!D) { console.error('pushdown_fixture.mjs: cannot load @duckdb/node-api (set NODE_PATH)'); process.exit(2); }

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const PQ = path.join(ROOT, 'test', 'data', 'parquet', 'pushdown.parquet');
const CSV = path.join(ROOT, 'test', 'data', 'csv', 'pushdown.csv');
const N = 5000;

// xorshift32, fixed seed
let st = 0x2545F491;
function rnd() { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st / 4294967296; }
const pick = (a) => a[Math.floor(rnd() * a.length)];
const ri = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const q = (s) => "'" + s.replace(/'/g, "''") + "'";

const I_POOL = ['NULL', '0', '1', '-1', '5', '10', '42', '9223372036854775807', '-9223372036854775807',
  '-9223372036854775808', '9007199254740992', '9007199254740993', '9007199254740991', '-9007199254740993',
  '100', '-100', '1000000'];
const D_POOL = ['NULL', "'nan'", "'-0.0'", '0.0', '1.0', '5.0', '0.5', '-2.5', '1e20', '-1e20',
  '9007199254740992.0', '9007199254740994.0', '9223372036854775807.0', "'inf'", "'-inf'", '0.1', '1e-300',
  '42.0', '-1.0', '100.0', '3.14159'];
const S_POOL = ['', ' ', 'abc', 'ABC', 'Abc', 'abc ', 'abc  ', 'ab', 'abcd', 'a%c', 'a_c', 'a\\c', '100%', '_', '%',
  '*', '?', '[a]', 'a[b]c', 'é', 'É', 'école', 'ÉCOLE', 'Straße', 'STRASSE', '日本語', '😀x', 'x😀', '5', '5.0',
  ' 5', '05', '1e2', '-0', '0', '42', "it's", 'NULL', 'null', 'zzz', 'Zebra', 'apple', 'Apple ', 'ÿ', 'ÿ '];
const WORDS = ['alpha', 'Beta', 'GAMMA', 'delta', 'Eps', 'zeta', 'eta', 'theta', 'Iota', 'kappa'];
const C_POOL = ['red', 'green', 'blue', 'Red', 'BLUE', 'red ', 'NULL'];
const BL_POOL = ['NULL', "''::BLOB", "'\\x00'::BLOB", "'5'::BLOB", "'abc'::BLOB", "'ABC'::BLOB", "'\\xFF\\x00'::BLOB",
  "'a%c'::BLOB"];

const rows = [];
for (let k = 0; k < N; k++) {
  const r = rnd();
  const i = r < 0.1 ? 'NULL' : r < 0.5 ? pick(I_POOL) : r < 0.9 ? String(ri(-1000, 1000)) : String(ri(-2e9, 2e9) * 4096);
  const n = rnd() < 0.1 ? 'NULL' : String(ri(0, 20));
  const rd = rnd();
  const d = rd < 0.08 ? 'NULL' : rd < 0.5 ? pick(D_POOL) : rd < 0.75 ? String(ri(-50, 50)) + '.0'
    : (ri(-100000, 100000) / 64).toString();
  const rs = rnd();
  const s = rs < 0.1 ? 'NULL' : rs < 0.6 ? q(pick(S_POOL))
    : q(pick(WORDS) + (rnd() < 0.5 ? ' ' + pick(WORDS) : '') + (rnd() < 0.3 ? String(ri(0, 99)) : '') + (rnd() < 0.1 ? ' ' : ''));
  const c = pick(C_POOL);
  const cq = c === 'NULL' ? 'NULL' : q(c);
  const dt = `DATE '2000-01-01' + ${Math.floor(k / 4)}`;
  const ts = rnd() < 0.1 ? 'NULL'
    : `TIMESTAMP '2020-01-01' + INTERVAL ${ri(0, 400 * 86400)} SECOND + INTERVAL ${pick([0, 0, 0, 123000, 500, 999999])} MICROSECOND`;
  const bl = rnd() < 0.4 ? pick(BL_POOL) : `'${String(ri(0, 999))}'::BLOB`;
  const b = pick(['NULL', 'true', 'false', 'false']);
  rows.push(`(${k}, ${i}, ${n}, ${d}::DOUBLE, ${s}, ${cq}, ${dt}, ${ts}, ${bl}, ${b})`);
}

const inst = await D.DuckDBInstance.create(':memory:');
const conn = await inst.connect();
for (const s of ['SET threads=1', "SET TimeZone='UTC'"]) await conn.run(s);
await conn.run(`CREATE TABLE p(k BIGINT, i BIGINT, n INTEGER, d DOUBLE, s VARCHAR, c VARCHAR, dt DATE,
  ts TIMESTAMP, bl BLOB, b BOOLEAN)`);
for (let a = 0; a < N; a += 500) await conn.run('INSERT INTO p VALUES ' + rows.slice(a, a + 500).join(',\n'));
fs.rmSync(PQ, { force: true });
// DuckDB fills row groups from 2048-row chunks; a UNION ALL of 1024-row
// slices hands the writer 1024-row chunks, so ROW_GROUP_SIZE 1024 holds.
const slices = [];
for (let a = 0; a < N; a += 1024) slices.push(`SELECT * FROM p WHERE k >= ${a} AND k < ${a + 1024}`);
await conn.run('SET preserve_insertion_order=true');
await conn.run(`COPY (${slices.join(' UNION ALL ')}) TO ${q(PQ)} (FORMAT parquet, ROW_GROUP_SIZE 1024, COMPRESSION zstd)`);
fs.rmSync(CSV, { force: true });
await conn.run(`COPY (SELECT k, i, n, CASE WHEN isnan(d) THEN NULL ELSE d END AS d, s, c, dt, ts, bl, b
  FROM p ORDER BY k) TO ${q(CSV)} (FORMAT csv, HEADER true)`);
const rg = await conn.runAndReadAll(`SELECT count(DISTINCT row_group_id), min(row_group_num_rows), max(row_group_num_rows)
  FROM parquet_metadata(${q(PQ)})`);
console.log('row groups, min/max rows:', rg.getRows()[0].map(String).join(' '));
for (const f of [PQ, CSV]) console.log(path.relative(ROOT, f), fs.statSync(f).size, 'bytes');
