#!/usr/bin/env node
// fixtures.mjs -- writes the Parquet fixtures of test/data/parquet/ and
// DuckDB's reading of them as *.expected.jsonl (files that hold the same rows
// share one: types.expected.jsonl serves all 12 types_* files), in the golden
// normalization of shared/testdata/parquet-testing/README.golden.md (one JSON
// object per row; top-level booleans 1/0; %.17g doubles; "NaN"/"Infinity";
// exact DECIMAL text; dates/timestamps as UTC text with 0/3/6/9 fraction
// digits; blobs as "X'HEX'"; LIST/STRUCT/MAP as embedded JSON with booleans
// true/false). Also writes demo/sample.parquet and demo/sample.csv.
//
//   NODE_PATH=/root/duck/node_modules node test/gen/fixtures.mjs   # from the repo root
//
// Needs @duckdb/node-api; hyparquet-writer (optional) writes a second set of
// files with a different writer and explicit encodings. The output is
// committed: the test suite itself never needs node.
//
// What is written:
//   types_<codec>_<v1|v2>.parquet   one table covering the types, every codec
//                                   DuckDB writes x both page versions,
//                                   several row groups
//   hyparquet_<plain|delta|bss|default>.parquet
//                                   hyparquet-writer, encodings forced per column
//   rowgroups_zstd_v2.parquet       2000 rows in 8 row groups, null runs
//   empty.parquet                   the types schema, zero rows
//   MANIFEST.tsv                    name, expected (the .jsonl), columns ([name,
//                                   DuckDB type] JSON), writer, rows, notes
// (read by tcl/fixtures.test). Output is deterministic: rerunning rewrites
// byte-identical files. Keep test/data/parquet under ~3 MiB.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

function need(name) {
  const bases = [import.meta.url, 'file://' + path.join(process.cwd(), 'x.js'),
    ...(process.env.NODE_PATH || '').split(':').filter(Boolean).map((d) => 'file://' + path.join(d, '..', 'x.js'))];
  for (const b of bases) { try { return createRequire(b)(name); } catch { /* next */ } }
  return null;
}
const duck = need('@duckdb/node-api');
if (!duck) { console.error('fixtures.mjs: cannot load @duckdb/node-api (set NODE_PATH)'); process.exit(2); }
const D = duck;

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const OUT = path.join(ROOT, 'test', 'data', 'parquet');
const DEMO = path.join(ROOT, 'demo');
fs.mkdirSync(OUT, { recursive: true });

// ---------------------------------------------------------------- rendering
const HEX = '0123456789ABCDEF';
function quoteJ(s) {                                   // as SQLite's json_quote()
  let o = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"') o += '\\"';
    else if (ch === '\\') o += '\\\\';
    else if (c < 0x20) o += ({ 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' })[c] ?? '\\u00' + HEX[c >> 4].toLowerCase() + HEX[c & 15].toLowerCase();
    else o += ch;
  }
  return o + '"';
}
// printf("%.17g"): toExponential(16) gives the 17 significant digits
// (correctly rounded; the spec's tie rule differs from glibc only on exact
// ties at the 18th digit, which a double cannot produce at this precision).
function g17(x) {
  if (Number.isNaN(x)) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const neg = x < 0;
  const [m, e] = Math.abs(x).toExponential(16).split('e');
  const X = parseInt(e, 10);
  const digits = m.replace('.', '');
  let out;
  if (X < -4 || X >= 17) {
    const frac = digits.slice(1).replace(/0+$/, '');
    const ae = Math.abs(X);
    out = digits[0] + (frac ? '.' + frac : '') + 'e' + (X < 0 ? '-' : '+') + (ae < 10 ? '0' : '') + ae;
  } else if (X >= 0) {
    const ip = digits.slice(0, X + 1), fp = digits.slice(X + 1).replace(/0+$/, '');
    out = ip + (fp ? '.' + fp : '');
  } else {
    out = ('0.' + '0'.repeat(-X - 1) + digits).replace(/0+$/, '');
  }
  return (neg ? '-' : '') + out;
}
const pad = (n, w = 2) => String(n).padStart(w, '0');
function yearText(y) { return y >= 0 && y <= 9999 ? pad(y, 4) : (y < 0 ? '-' + pad(-y, 4) : '+' + pad(y, 4)); }
function dateText(days) {                              // days since 1970-01-01, proleptic Gregorian
  // Howard Hinnant's civil_from_days
  let z = Number(days) + 719468;
  const era = Math.floor(z / 146097), doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const mo = mp < 10 ? mp + 3 : mp - 9;
  return yearText(yoe + era * 400 + (mo <= 2 ? 1 : 0)) + '-' + pad(mo) + '-' + pad(d);
}
function fraction(ns) {                                // BigInt in [0, 1e9)
  if (ns === 0n) return '';
  for (const [div, w] of [[1000000n, 3], [1000n, 6], [1n, 9]]) if (ns % div === 0n) return '.' + pad(ns / div, w);
}
function clockText(ns) {                               // BigInt nanoseconds of the day
  const s = ns / 1000000000n;
  return pad(s / 3600n) + ':' + pad((s / 60n) % 60n) + ':' + pad(s % 60n) + fraction(ns % 1000000000n);
}
function tsText(ns) {                                  // BigInt nanoseconds since the epoch, UTC
  const DAY = 86400000000000n;
  let d = ns / DAY, r = ns % DAY;
  if (r < 0n) { r += DAY; d -= 1n; }
  return dateText(d) + ' ' + clockText(r);
}
function decimalText(v, scale) {
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) { s = s.padStart(scale + 1, '0'); s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale); }
  return (neg ? '-' : '') + s;
}
function blobText(bytes) { let s = "X'"; for (const b of bytes) s += HEX[b >> 4] + HEX[b & 15]; return s + "'"; }

// One value; top = a top-level column (booleans 1/0), else inside JSON.
function show(v, top) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return top ? (v ? '1' : '0') : String(v);
  if (typeof v === 'number') return g17(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return quoteJ(v);
  if (v instanceof D.DuckDBListValue || v instanceof D.DuckDBArrayValue) return '[' + v.items.map((x) => show(x, false)).join(',') + ']';
  if (v instanceof D.DuckDBStructValue) return '{' + Object.entries(v.entries).map(([k, x]) => quoteJ(k) + ':' + show(x, false)).join(',') + '}';
  if (v instanceof D.DuckDBMapValue) {
    return '{' + v.entries.map(({ key, value }) => {
      let k = typeof key === 'string' ? key : show(key, false);
      if (typeof key !== 'string' && k.startsWith('"')) k = JSON.parse(k);
      return quoteJ(k) + ':' + show(value, false);
    }).join(',') + '}';
  }
  if (v instanceof D.DuckDBBlobValue) return quoteJ(blobText(v.bytes));
  if (v instanceof D.DuckDBDecimalValue) return quoteJ(decimalText(v.value, v.scale));
  if (v instanceof D.DuckDBDateValue) return quoteJ(dateText(v.days));
  if (v instanceof D.DuckDBTimestampTZValue || v instanceof D.DuckDBTimestampValue) return quoteJ(tsText(v.micros * 1000n));
  if (v instanceof D.DuckDBTimestampMillisecondsValue) return quoteJ(tsText(v.millis * 1000000n));
  if (v instanceof D.DuckDBTimestampNanosecondsValue) return quoteJ(tsText(v.nanos));
  if (v instanceof D.DuckDBTimestampSecondsValue) return quoteJ(tsText(v.seconds * 1000000000n));
  if (v instanceof D.DuckDBTimeValue) return quoteJ(clockText(v.micros * 1000n));
  if (v instanceof D.DuckDBTimeNSValue) return quoteJ(clockText(v.nanos));
  if (v instanceof D.DuckDBUUIDValue) return quoteJ(v.toString().toLowerCase());
  throw new Error('fixtures.mjs: cannot render ' + (v.constructor?.name ?? typeof v));
}

// ---------------------------------------------------------------- DuckDB
const inst = await D.DuckDBInstance.create(':memory:');
const conn = await inst.connect();
for (const s of ['SET threads=1', "SET TimeZone='UTC'"]) await conn.run(s);
const sqlStr = (s) => "'" + s.replace(/'/g, "''") + "'";

// DuckDB's reading of FILE, written to EXPECTED (a name in OUT). Files that
// hold the same rows share one expected file: a second writer of the same
// name must produce the same text, or the generator stops.
const written = new Map();
async function expected(file, expectedName) {
  const r = await conn.runAndReadAll(`SELECT * FROM read_parquet(${sqlStr(file)})`);
  const names = r.columnNames();
  const types = r.columnTypes().map((t) => t.toString());
  const text = r.getRows().map((row) => '{' + row.map((v, i) => quoteJ(names[i]) + ':' + show(v, true)).join(',') + '}\n').join('');
  if (written.has(expectedName)) {
    if (written.get(expectedName) !== text) throw new Error(`${path.basename(file)}: DuckDB reads other rows than ${expectedName}`);
  } else {
    fs.writeFileSync(path.join(OUT, expectedName), text);
    written.set(expectedName, text);
  }
  return { names, types, rows: text.length ? text.split('\n').length - 1 : 0, expected: expectedName };
}

// The type matrix: 600 rows, 4 row groups of 150. Rows 0..9 carry the edge values.
const N = 600;
const TYPES_SQL = `
SELECT
  i::INTEGER AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
  CASE i WHEN 1 THEN -128 WHEN 2 THEN 127 ELSE (i % 200 - 100) END::TINYINT AS i8,
  CASE i WHEN 1 THEN -32768 WHEN 2 THEN 32767 WHEN 3 THEN NULL ELSE i * 7 - 4000 END::SMALLINT AS i16,
  CASE i WHEN 1 THEN -2147483648 WHEN 2 THEN 2147483647 ELSE i * 1000003 - 600000000 END::INTEGER AS i32,
  CASE i WHEN 1 THEN -9223372036854775808 WHEN 2 THEN 9223372036854775807 WHEN 4 THEN NULL
         ELSE i::BIGINT * 7919000000007 - 4000000000000000 END::BIGINT AS i64,
  CASE i WHEN 2 THEN 255 ELSE i % 256 END::UTINYINT AS u8,
  CASE i WHEN 2 THEN 65535 ELSE i * 53 % 65536 END::USMALLINT AS u16,
  CASE i WHEN 2 THEN 4294967295 ELSE i * 3000017 % 4294967296 END::UINTEGER AS u32,
  CASE i WHEN 2 THEN 18446744073709551615 WHEN 3 THEN 9223372036854775808 WHEN 5 THEN 9223372036854775807
         WHEN 6 THEN NULL ELSE i::UBIGINT * 15000000000000001 END::UBIGINT AS u64,
  CASE i WHEN 1 THEN 'NaN' WHEN 2 THEN 'inf' WHEN 3 THEN '-inf' WHEN 4 THEN '-0.0' WHEN 5 THEN NULL
         ELSE (i * 0.1 - 50)::VARCHAR END::FLOAT AS f,
  CASE i WHEN 1 THEN 'NaN' WHEN 2 THEN 'inf' WHEN 3 THEN '-inf' WHEN 4 THEN '-0.0' WHEN 5 THEN NULL
         WHEN 6 THEN '1e308' WHEN 7 THEN '5e-324' WHEN 8 THEN '2.5e-05'
         ELSE (i / 7.0 - 80)::VARCHAR END::DOUBLE AS d,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i = 1 THEN -99.99 WHEN i = 2 THEN 99.99
       ELSE ((i % 1999) - 999) / 100.0 END::DECIMAL(4,2) AS dec4,
  CASE WHEN i = 1 THEN -999999999999.999999 WHEN i = 2 THEN 999999999999.999999
       ELSE i * 123456.000789 - 1000.5 END::DECIMAL(18,6) AS dec18,
  CASE WHEN i = 1 THEN '-9999999999999999999999999999.9999999999'::DECIMAL(38,10)
       WHEN i = 2 THEN '9999999999999999999999999999.9999999999'::DECIMAL(38,10)
       WHEN i = 3 THEN NULL
       ELSE (i::DECIMAL(38,10) * 1234567890123.0000000001 - 5) END::DECIMAL(38,10) AS dec38,
  CASE WHEN i % 13 = 0 THEN NULL ELSE ['red', 'green', 'blue', '', 'naïve café', '日本語', '😀 emoji', 'tab\tand "quote"'][1 + i % 8] END AS color,
  CASE WHEN i IN (10, 20) THEN repeat('long-string ', 854) WHEN i = 30 THEN '' ELSE 'row-' || i::VARCHAR || '-' || md5(i::VARCHAR)[1:8] END AS s,
  CASE WHEN i % 9 = 0 THEN NULL ELSE from_hex(md5(i::VARCHAR)[1:(2 * (i % 6))]) END AS bl,
  CASE WHEN i = 1 THEN DATE '0001-01-01' WHEN i = 2 THEN DATE '9999-12-31' WHEN i = 3 THEN DATE '1969-12-31'
       WHEN i % 17 = 0 THEN NULL ELSE DATE '2000-01-01' + (i * 37 - 20000)::INTEGER END AS dt,
  CASE WHEN i % 19 = 0 THEN NULL WHEN i = 1 THEN TIME '00:00:00' WHEN i = 2 THEN TIME '23:59:59.999999'
       ELSE TIME '00:00:00' + to_microseconds(i::BIGINT * 61234567 % 86400000000) END AS tm,
  CASE WHEN i % 23 = 0 THEN NULL WHEN i = 1 THEN TIMESTAMP '1900-01-01 00:00:00' WHEN i = 2 THEN TIMESTAMP '2262-04-11 00:00:00'
       ELSE TIMESTAMP '2020-02-29 12:00:00' + to_microseconds(i::BIGINT * 987654321987 - 500000000000000) END AS ts,
  CASE WHEN i % 29 = 0 THEN NULL ELSE (TIMESTAMP '2001-09-09 01:46:40' + to_milliseconds(i::BIGINT * 86400123))::TIMESTAMP_MS END AS ts_ms,
  CASE WHEN i % 31 = 0 THEN NULL ELSE ('2024-01-01 00:00:00'::TIMESTAMP_NS + to_microseconds(i::BIGINT * 1000001))::TIMESTAMP_NS END AS ts_ns,
  CASE WHEN i % 37 = 0 THEN NULL ELSE (TIMESTAMPTZ '2010-06-15 08:30:00+00' + to_seconds(i::BIGINT * 3607)) END AS tstz,
  CASE WHEN i % 41 = 0 THEN NULL ELSE md5(i::VARCHAR)::UUID END AS uu,
  CASE WHEN i % 43 = 0 THEN NULL ELSE ('{"k":' || i::VARCHAR || ',"v":[1,2]}')::JSON END AS js,
  CASE WHEN i % 10 = 0 THEN NULL WHEN i % 10 = 1 THEN []::INTEGER[] WHEN i % 10 = 2 THEN [NULL]::INTEGER[]
       ELSE [i, i + 1, NULL, -i][1:(i % 4 + 1)] END AS li,
  CASE WHEN i % 12 = 0 THEN NULL ELSE {'a': CASE WHEN i % 5 = 0 THEN NULL ELSE i END, 'b': 'x' || i::VARCHAR,
       'c': i % 2 = 0, 'd': DATE '2020-01-01' + i::INTEGER} END AS st,
  CASE WHEN i % 14 = 0 THEN NULL WHEN i % 14 = 1 THEN MAP {}::MAP(VARCHAR, INTEGER)
       ELSE MAP {'k' || (i % 3)::VARCHAR: i, 'z': NULL} END AS mp,
  CASE WHEN i % 15 = 0 THEN NULL ELSE MAP {i % 5: 'v' || i::VARCHAR} END AS mpi,
  CASE WHEN i % 16 = 0 THEN NULL WHEN i % 16 = 1 THEN []
       ELSE [{'x': i / 4.0, 'y': ['p', NULL, 'q' || i::VARCHAR][1:(i % 3 + 1)], 't': TIMESTAMP '2021-01-01' + to_milliseconds(i)},
             {'x': NULL, 'y': NULL, 't': NULL}][1:(i % 2 + 1)] END AS nested,
  CASE WHEN i % 20 = 0 THEN NULL ELSE [[i, NULL], [], NULL, [i * 2]] END AS lili,
  CASE WHEN i % 8 = 0 THEN NULL ELSE [1.5 * i, 0.1, -0.0, NULL]::DOUBLE[] END AS ld,
  [i % 2 = 0, NULL, true] AS lb
FROM range(${N}) t(i)
`;

const manifest = [['name', 'expected', 'columns', 'writer', 'rows', 'notes']];
function record(name, info, writer, notes = '') {
  manifest.push([name, info.expected, JSON.stringify(info.names.map((n, i) => [n, info.types[i]])), writer, String(info.rows), notes]);
}

await conn.run(`CREATE TABLE types AS ${TYPES_SQL}`);
// DuckDB closes a row group only at the end of an input chunk (2048 rows), so
// ROW_GROUP_SIZE alone never splits a small table: feed it in pieces.
function chunked(table, n, size) {
  const parts = [];
  for (let lo = 0; lo < n; lo += size) parts.push(`SELECT * FROM ${table} WHERE id >= ${lo} AND id < ${lo + size}`);
  return parts.join(' UNION ALL ');
}
const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw', 'brotli'];
for (const codec of CODECS) {
  for (const ver of ['v1', 'v2']) {
    const name = `types_${codec}_${ver}.parquet`;
    const file = path.join(OUT, name);
    await conn.run(`COPY (${chunked('types', N, 150)}) TO ${sqlStr(file)} (FORMAT parquet, COMPRESSION ${codec}, PARQUET_VERSION ${ver}, ROW_GROUP_SIZE 150)`);
    record(name, await expected(file, 'types.expected.jsonl'), 'duckdb', `codec ${codec}, data pages ${ver}`);
  }
}

// Dictionary-friendly vs unique columns, more rows, small pages: one extra
// file with many row groups of a small table (page/row-group boundaries).
await conn.run(`CREATE TABLE rg AS SELECT i AS id, (i % 5)::VARCHAR AS k5, i * 3 AS v, CASE WHEN i % 100 < 50 THEN NULL ELSE i END AS half_null
  FROM range(2000) t(i)`);
await conn.run(`COPY (${chunked('rg', 2000, 256)}) TO ${sqlStr(path.join(OUT, 'rowgroups_zstd_v2.parquet'))}
  (FORMAT parquet, COMPRESSION zstd, PARQUET_VERSION v2, ROW_GROUP_SIZE 256)`);
record('rowgroups_zstd_v2.parquet', await expected(path.join(OUT, 'rowgroups_zstd_v2.parquet'), 'rowgroups.expected.jsonl'), 'duckdb', '2000 rows, row groups of 256, half-null runs');

// Empty file (zero rows, schema only).
await conn.run(`COPY (SELECT * FROM types LIMIT 0) TO ${sqlStr(path.join(OUT, 'empty.parquet'))} (FORMAT parquet)`);
record('empty.parquet', await expected(path.join(OUT, 'empty.parquet'), 'empty.expected.jsonl'), 'duckdb', 'zero rows');

// ---------------------------------------------------------------- hyparquet-writer
const hw = await (async () => {
  for (const b of [import.meta.url, 'file://' + path.join(process.cwd(), 'x.js'),
    ...(process.env.NODE_PATH || '').split(':').filter(Boolean).map((d) => 'file://' + path.join(d, '..', 'x.js'))]) {
    try { return await import(createRequire(b).resolve('hyparquet-writer')); } catch { /* next */ }
  }
  return null;
})();
if (hw) {
  const M = 1000;
  const ids = Array.from({ length: M }, (_, i) => i);
  const ints = ids.map((i) => (i % 50 === 0 ? null : (i * 7919) % 100003 - 50000));
  const bigs = ids.map((i) => (i % 60 === 0 ? null : BigInt(i) * 1234567890123n - 9000000000000000n));
  const dbls = ids.map((i) => (i % 70 === 0 ? null : i === 1 ? NaN : i === 2 ? -0 : i * 0.37 - 100));
  const flts = ids.map((i) => (i % 80 === 0 ? null : Math.fround(i * 1.5 - 7.25)));
  const strs = ids.map((i) => (i % 90 === 0 ? null : 'prefix-common-' + String(i).padStart(5, '0') + (i % 3 ? '' : '-ü')));
  const cats = ids.map((i) => (i % 45 === 0 ? null : ['alpha', 'beta', 'gamma'][i % 3]));
  const bools = ids.map((i) => (i % 33 === 0 ? null : i % 4 === 1));
  const files = {
    'hyparquet_plain.parquet': { enc: { id: 'PLAIN', i: 'PLAIN', big: 'PLAIN', d: 'PLAIN', f: 'PLAIN', s: 'PLAIN', cat: 'PLAIN', b: 'PLAIN' }, codec: 'UNCOMPRESSED' },
    'hyparquet_delta.parquet': { enc: { id: 'DELTA_BINARY_PACKED', i: 'DELTA_BINARY_PACKED', big: 'DELTA_BINARY_PACKED', d: 'PLAIN', f: 'PLAIN', s: 'DELTA_BYTE_ARRAY', cat: 'DELTA_LENGTH_BYTE_ARRAY', b: 'RLE' }, codec: 'SNAPPY' },
    'hyparquet_bss.parquet': { enc: { id: 'PLAIN', i: 'PLAIN', big: 'PLAIN', d: 'BYTE_STREAM_SPLIT', f: 'BYTE_STREAM_SPLIT', s: 'PLAIN', cat: 'PLAIN', b: 'PLAIN' }, codec: 'SNAPPY' },
    'hyparquet_default.parquet': { enc: {}, codec: 'SNAPPY' },
    // pages of 512 bytes: a chunk's PLAIN numbers over several pages (the
    // reader reads a first page's numbers in place and copies them when a
    // second one comes: column.c, values_borrowable)
    'hyparquet_pages.parquet': { enc: { id: 'PLAIN', i: 'PLAIN', big: 'PLAIN', d: 'PLAIN', f: 'PLAIN', s: 'PLAIN', cat: 'PLAIN', b: 'PLAIN' }, codec: 'SNAPPY', pageSize: 512 },
  };
  for (const [name, { enc, codec, pageSize }] of Object.entries(files)) {
    const cols = [
      { name: 'id', data: ids, type: 'INT32', nullable: false },
      { name: 'i', data: ints, type: 'INT32' },
      { name: 'big', data: bigs, type: 'INT64' },
      { name: 'd', data: dbls, type: 'DOUBLE' },
      { name: 'f', data: flts, type: 'FLOAT' },
      { name: 's', data: strs, type: 'STRING' },
      { name: 'cat', data: cats, type: 'STRING' },
      { name: 'b', data: bools, type: 'BOOLEAN' },
    ].map((c) => (enc[c.name] ? { ...c, encoding: enc[c.name] } : c));
    const file = path.join(OUT, name);
    try {
      const buf = hw.parquetWriteBuffer({ columnData: cols, codec, rowGroupSize: 400, pageSize: pageSize || 4096 });
      fs.writeFileSync(file, Buffer.from(buf));
      record(name, await expected(file, 'hyparquet.expected.jsonl'), 'hyparquet-writer', `encodings ${JSON.stringify(enc)}, codec ${codec}`);
    } catch (e) {
      console.error(`fixtures.mjs: hyparquet-writer ${name}: ${e.message.split('\n')[0]}`);
      fs.rmSync(file, { force: true });
    }
  }
} else {
  console.error('fixtures.mjs: hyparquet-writer not found; second-writer fixtures skipped');
}

fs.writeFileSync(path.join(OUT, 'MANIFEST.tsv'), manifest.map((r) => r.join('\t') + '\n').join(''));

// ---------------------------------------------------------------- demo
fs.mkdirSync(DEMO, { recursive: true });
const DEMO_SQL = `
SELECT i + 1 AS id,
  ['north', 'south', 'east', 'west'][1 + i % 4] AS region,
  ['widget', 'gadget', 'doohickey', 'sprocket', 'gizmo'][1 + (i * 7) % 5] AS product,
  (1 + (i * 37) % 20)::INTEGER AS qty,
  ((i * 7919) % 10000 / 100.0)::DECIMAL(8,2) AS price,
  DATE '2024-01-01' + ((i * 13) % 366)::INTEGER AS sold_on,
  CASE WHEN i % 10 = 0 THEN NULL ELSE 'customer-' || ((i * 31) % 97)::VARCHAR END AS customer,
  [1 + i % 3, 2 + i % 5] AS tags
FROM range(1000) t(i)`;
await conn.run(`COPY (${DEMO_SQL}) TO ${sqlStr(path.join(DEMO, 'sample.parquet'))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 250)`);
await conn.run(`COPY (SELECT * REPLACE (price::VARCHAR AS price, to_json(tags)::VARCHAR AS tags) FROM (${DEMO_SQL}))
  TO ${sqlStr(path.join(DEMO, 'sample.csv'))} (FORMAT csv, HEADER true)`);

let total = 0;
for (const f of fs.readdirSync(OUT)) total += fs.statSync(path.join(OUT, f)).size;
console.log(`fixtures.mjs: ${manifest.length - 1} fixtures, ${(total / 1048576).toFixed(2)} MiB in ${path.relative(ROOT, OUT)}`);
