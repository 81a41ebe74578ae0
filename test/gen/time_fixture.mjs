#!/usr/bin/env node
// time_fixture.mjs -- writes the fixtures of tcl/groupby_time.test, the
// differential test of group_by's date functions over timestamps read as
// their stored integers (agg/ts_memo.h):
//
//   test/data/parquet/times.parquet     6000 rows, row groups of 1000
//   test/data/parquet/times_us.parquet  500 rows, the same columns but t_ms
//                                       in microseconds (a glob of both
//                                       must fall back to the text)
//
//   NODE_PATH=/root/duck/node_modules node test/gen/time_fixture.mjs   # from the repo root
//
// Deterministic (a fixed xorshift seed); the output is committed. The
// test's oracle is SQLite over a native copy of what our reader returns.
//
// Columns: id BIGINT; k INTEGER (0..9); t_ms TIMESTAMP_MS over years
// -2000..12000 (text outside 0000-9999 is signed or 5 digits), with
// fractions of a second on some rows; t_us TIMESTAMP 1900..2100, mostly
// whole seconds, some microseconds, some just before a minute; t_ns
// TIMESTAMP_NS 1677..2262 with nanoseconds on some rows; t_dict TIMESTAMP
// with 12 distinct values (dictionary encoded); t_tz TIMESTAMPTZ; all
// with NULLs.
import path from 'node:path';
import { loadDuckDB } from './duckdb_load.mjs';

const D = loadDuckDB('time_fixture.mjs');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet');

let st = 0x1b873593;
function rnd() { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st / 4294967296; }
const ri = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (a) => a[Math.floor(rnd() * a.length)];

const YEAR = 31556952; // seconds in a mean Gregorian year
// seconds since the epoch, whole, in [y0, y1) years after 1970
const secs = (y0, y1) => BigInt(Math.floor((y0 - 1970) * YEAR + rnd() * (y1 - y0) * YEAR));
// a second picked near interesting edges: a minute's last second, midnight, New Year
function edgy(y0, y1) {
  let s = secs(y0, y1);
  switch (ri(0, 5)) {
    case 0: s = s - (((s % 60n) + 60n) % 60n) + 59n; break;
    case 1: s = s - (((s % 86400n) + 86400n) % 86400n); break;
    case 2: s = s - (((s % 86400n) + 86400n) % 86400n) - 1n; break;
    default: break;
  }
  return s;
}
const DICT = Array.from({ length: 12 }, () => edgy(1990, 2030));

function row(i, msInMicros) {
  const nul = (p) => rnd() < p;
  let ms = null, us = null, ns = null, dict = null, tz = null;
  if (!nul(0.05)) {
    ms = edgy(-2000, 12000) * 1000n;
    if (rnd() < 0.3) ms += BigInt(pick([1, 499, 500, 999, ri(1, 998)]));
  }
  if (!nul(0.05)) {
    us = edgy(1900, 2100) * 1000000n;
    if (rnd() < 0.2) us += BigInt(pick([1, 500000, 999999, 999500, ri(1, 999998)]));
  }
  if (!nul(0.05)) {
    ns = edgy(1678, 2261) * 1000000000n;
    if (rnd() < 0.2) ns += BigInt(pick([1, 999999999, 999500000, ri(1, 999999998)]));
  }
  if (!nul(0.1)) dict = pick(DICT) * 1000000n;
  if (!nul(0.05)) tz = edgy(1970, 2040) * 1000000n;
  if (msInMicros && ms !== null) ms = ms * 1000n;
  return [i, ri(0, 9), ms, us, ns, dict, tz];
}

const lit = (v) => (v === null ? 'NULL' : v.toString());
async function write(file, n, msInMicros) {
  const inst = await D.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  await con.run(`CREATE TABLE r(id BIGINT, k INTEGER, ms BIGINT, us BIGINT, ns BIGINT, dict BIGINT, tz BIGINT)`);
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(row(i, msInMicros));
  for (let at = 0; at < rows.length; at += 500) {
    const vals = rows.slice(at, at + 500).map((r) => '(' + r.map(lit).join(',') + ')').join(',');
    await con.run(`INSERT INTO r VALUES ${vals}`);
  }
  const msExpr = msInMicros ? 'make_timestamp(ms)' : 'epoch_ms(ms)::TIMESTAMP_MS';
  await con.run(`COPY (SELECT id, k, ${msExpr} AS t_ms, make_timestamp(us) AS t_us,
      make_timestamp_ns(ns) AS t_ns, make_timestamp(dict) AS t_dict,
      make_timestamp(tz)::TIMESTAMPTZ AS t_tz FROM r ORDER BY id)
    TO '${file}' (FORMAT PARQUET, ROW_GROUP_SIZE 1000, COMPRESSION ZSTD)`);
}

await write(path.join(OUT, 'times.parquet'), 6000, false);
await write(path.join(OUT, 'times_us.parquet'), 500, true);
console.log('wrote times.parquet, times_us.parquet');
