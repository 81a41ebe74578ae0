#!/usr/bin/env node
/*
 * bench/csv/bench.mjs - the CSV benchmark (bench/csv.sh runs it; `make bench` runs that).
 *
 *   node bench/csv/bench.mjs DIR          DIR holds hits.csv (with a header row), e.g. /tmp/hits/10m
 *
 * One table over DIR/hits.csv: best of TRIES hot runs (seconds) of five queries,
 *   count(*)            records only
 *   sum(ResolutionWidth) one INTEGER column
 *   CounterID = 62      a selective WHERE on an INTEGER column (15% of rows)
 *   URL LIKE '%google%' a selective WHERE on a TEXT column (0.15% of rows)
 *   all columns         SELECT count(c) for every one of the 105 columns: every value of every
 *                       column is produced and handed to SQLite (xColumn for each)
 * by these engines:
 *   ours t1/t2   csv('hits.csv', header=true, threads=N) in the sqlite3 shell
 *   csvtable     Debian's libsqlite3-mod-csvtable: csvtable(file, 1, 0, ',', '"') (header row, no
 *                conversion, separator, quote; without the last two it guesses and splits at
 *                blanks too); every column is TEXT without affinity, so CounterID = '62' there
 *   native       the sqlite3 shell's `.import --csv --skip 1` into create-sqlite.sql's table, then
 *                the query on the native table; import time is printed on its own and added in
 *                the import+query column
 *   duck t1/t2   DuckDB read_csv(header=true), SET threads = N (in this node process)
 * Ratios: csvtable / ours t1 (target >= 5), ours / DuckDB at equal threads (target <= 1.5).
 *
 * Then group_by over the same CSV table (issue 4: it serves CSV as it serves Parquet): ClickBench
 * GROUP BY queries (CSV_GB, default 9,13,16,34) as bench/queries-groupby.sql writes them, at
 * threads 1 and 2 (CREATE + SELECT), against the ClickBench SQL over our CSV table (SQLite's own
 * GROUP BY, threads=2) and DuckDB's read_csv at threads 1 and 2; answers' first rows compared.
 * Peak RSS of the sqlite3 process running ours is printed per query (/usr/bin/time).
 * Every engine's answer is compared with ours t1; a difference is flagged.
 *
 * Environment:
 *   COLUMNAR_EXT     extension to .load (default build/columnar)
 *   COLUMNAR_SHARED  shared folder with bench/create-sqlite.sql (default ../shared next to the repo)
 *   CSVTABLE         csvtable module (default /usr/lib/x86_64-linux-gnu/libsqlite3_mod_csvtable)
 *   TRIES            hot runs (default 3)
 *   TIMEOUT          seconds per run (default 300): a run over it prints '>300'
 *   SLOW             a run slower than this many seconds is not repeated (default 30)
 *   CSV_IMPORT       1 (default): time .import into a scratch database (deleted afterwards);
 *                    0: skip it and query DIR/hits.sqlite (built the same way by bench/run.sh)
 *   ENGINES          subset, e.g. ours,duck (default ours,csvtable,native,duck)
 *   SQLITE3          sqlite3 binary (default sqlite3)
 *   CSV_GB           group_by queries to run (ClickBench numbers, default 9,13,16,34; 0: none)
 *   REUSE            engines whose results are taken from the previous run over the same file
 *                    (saved in $TMPDIR/csv-bench-<size>-<mtime>.json after every run), e.g.
 *                    REUSE=csvtable,native to rerun only ours and DuckDB after a change
 */
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(path.dirname(here));
const env = process.env;
const DIR = process.argv[2] || env.BENCH_DIR;
if (!DIR) { console.error('usage: bench.mjs DIR (holding hits.csv)'); process.exit(2); }
const CSV = path.resolve(DIR, 'hits.csv');
if (!fs.existsSync(CSV)) { console.error(`csv bench: ${CSV} not found`); process.exit(2); }
const EXT = env.COLUMNAR_EXT || path.join(repo, 'build/columnar');
const SHARED = env.COLUMNAR_SHARED || path.join(repo, '../shared');
const CSVTABLE = env.CSVTABLE || '/usr/lib/x86_64-linux-gnu/libsqlite3_mod_csvtable';
const TRIES = +(env.TRIES || 3);
const TIMEOUT = +(env.TIMEOUT || 300);
const SLOW = +(env.SLOW || 30);
const IMPORT = (env.CSV_IMPORT ?? '1') !== '0';
const ENGINES = new Set((env.ENGINES || 'ours,csvtable,native,duck').split(','));
const SQLITE3 = env.SQLITE3 || 'sqlite3';

const sq = (s) => `'${s.replace(/'/g, "''")}'`;
function firstLine(file) {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(65536);
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  fs.closeSync(fd);
  const s = buf.subarray(0, n).toString('utf8');
  return s.slice(0, s.search(/\r?\n/));
}
const cols = firstLine(CSV).split(',').map((c) => c.replace(/^"|"$/g, ''));
const allCount = cols.map((c) => `count("${c}")`).join(', ');

const QUERIES = [
  { name: 'count(*)', sql: 'SELECT count(*) FROM t' },
  { name: 'sum(ResolutionWidth)', sql: 'SELECT sum(ResolutionWidth) FROM t' },
  { name: 'CounterID = 62', sql: 'SELECT count(*) FROM t WHERE CounterID = 62',
    text: "SELECT count(*) FROM t WHERE CounterID = '62'" },
  { name: "URL LIKE '%google%'", sql: "SELECT count(*) FROM t WHERE URL LIKE '%google%'" },
  { name: `all ${cols.length} columns`, sql: `SELECT ${allCount} FROM t`, sum: true },
];

/* One sqlite3 process: setup lines, then the query under .timer. Returns
 * { t: seconds | null, timeout: bool, out: first result line, rss: KiB }. */
function sqliteRun(db, setup, sql) {
  const script = [...setup, '.timer on', sql + ';', ''].join('\n');
  const r = spawnSync('/usr/bin/time', ['-f', 'MAXRSS %M', SQLITE3, '-batch', '-bail', db], {
    input: script, encoding: 'utf8', timeout: (TIMEOUT + 60) * 1000, killSignal: 'SIGKILL',
    maxBuffer: 1 << 26,
  });
  // a line of several statements (CREATE + SELECT) times each: the run is their sum
  const times = [...(r.stdout || '').matchAll(/Run Time: real ([0-9.]+)/g)].map((x) => +x[1]);
  const m = times.length ? [null, times.reduce((a, b) => a + b, 0)] : null;
  const rss = /MAXRSS (\d+)/.exec(r.stderr || '');
  const lines = (r.stdout || '').split('\n').filter((l) => l && !l.startsWith('Run Time'));
  if (r.error || r.status !== 0 || !m) {
    if (r.error && r.error.code === 'ETIMEDOUT') return { t: null, timeout: true };
    const why = (r.stderr || '').split('\n').filter((l) => l && !l.startsWith('MAXRSS')).join(' ');
    console.error(`csv bench: sqlite3 failed: ${why || r.error}`);
    return { t: null, timeout: false };
  }
  const t = +m[1];
  return { t, timeout: t > TIMEOUT, out: lines[lines.length - 1], first: lines[0], rss: rss ? +rss[1] : 0 };
}

/* Best of TRIES; a run over SLOW is not repeated, one over TIMEOUT gives '>TIMEOUT'. */
function best(fn) {
  let b = null, out, first, rss = 0;
  for (let i = 0; i < TRIES; i++) {
    const r = fn();
    if (r.timeout) return { t: null, label: `>${TIMEOUT}` };
    if (r.t == null) return { t: null, label: 'error' };
    if (b == null || r.t < b) b = r.t;
    out = r.out; first = r.first; rss = Math.max(rss, r.rss || 0);
    if (r.t > SLOW) break;
  }
  return { t: b, label: b.toFixed(3), out, first, rss };
}

function normalize(out) {
  // Results as comparable text: numbers rounded (sums may be REAL in one engine).
  return String(out ?? '').split('|').map((x) => (isFinite(+x) && x !== '' ? String(Math.round(+x)) : x)).join('|');
}

const results = {};   // engine -> query name -> {t,label,out,rss}
const note = (msg) => process.stderr.write(`csv bench: ${msg}\n`);
const st = fs.statSync(CSV);
const SAVED = path.join(os.tmpdir(), `csv-bench-${st.size}-${Math.round(st.mtimeMs)}.json`);
const saved = fs.existsSync(SAVED) ? JSON.parse(fs.readFileSync(SAVED, 'utf8')) : { results: {} };
const REUSE = new Set((env.REUSE || '').split(',').filter(Boolean));
const reused = (name) => {
  const keys = name === 'ours' ? ['ours t1', 'ours t2'] : name === 'duck' ? ['duck t1', 'duck t2'] : [name];
  if (!REUSE.has(name) || !keys.every((k) => saved.results[k])) return false;
  for (const k of keys) results[k] = saved.results[k];
  note(`${name}: results reused from ${SAVED}`);
  return true;
};

if (ENGINES.has('ours') && !reused('ours')) {
  for (const th of [1, 2]) {
    const e = `ours t${th}`;
    results[e] = {};
    for (const q of QUERIES) {
      note(`${e}: ${q.name}`);
      results[e][q.name] = best(() => sqliteRun(':memory:', [
        `.load ${EXT}`,
        `CREATE VIRTUAL TABLE temp.t USING csv(${sq(CSV)}, header=true, threads=${th});`,
      ], q.sql));
    }
  }
}

if (ENGINES.has('csvtable') && !reused('csvtable')) {
  results.csvtable = {};
  for (const q of QUERIES) {
    note(`csvtable: ${q.name}`);
    results.csvtable[q.name] = best(() => sqliteRun(':memory:', [
      `.load ${CSVTABLE}`,
      `CREATE VIRTUAL TABLE temp.t USING csvtable(${sq(CSV)}, 1, 0, ',', '"');`,
    ], q.text || q.sql));
  }
}

let importSeconds = null, importLabel = '-';
if (ENGINES.has('native') && reused('native')) {
  importSeconds = saved.importSeconds ?? null;
  importLabel = saved.importLabel ?? '-';
} else if (ENGINES.has('native')) {
  let db = path.join(DIR, 'hits.sqlite');
  let scratch = null;
  if (IMPORT) {
    scratch = path.join(os.tmpdir(), `csv-bench-import-${process.pid}.sqlite`);
    const create = path.join(SHARED, 'bench/create-sqlite.sql');
    const schema = fs.existsSync(create) ? [`.read ${create}`] : [];
    note(`importing ${CSV} into ${scratch}`);
    const t0 = performance.now();
    const r = spawnSync(SQLITE3, ['-batch', '-bail', scratch], {
      input: [...schema, `.import --csv ${schema.length ? '--skip 1 ' : ''}${CSV} hits`, ''].join('\n'),
      encoding: 'utf8', timeout: 4 * 3600 * 1000,
    });
    importSeconds = (performance.now() - t0) / 1000;
    if (r.status !== 0) { note(`import failed: ${r.stderr}`); importSeconds = null; importLabel = 'error'; }
    else { importLabel = importSeconds.toFixed(1); db = scratch; }
  }
  if (fs.existsSync(db)) {
    results.native = {};
    for (const q of QUERIES) {
      note(`native: ${q.name}`);
      results.native[q.name] = best(() => sqliteRun(db, [], q.sql.replace(/FROM t\b/, 'FROM hits')));
    }
  } else {
    note(`${db} not found: native skipped`);
  }
  if (scratch) fs.rmSync(scratch, { force: true });
}

if (ENGINES.has('duck') && !reused('duck')) {
  let duck = null;
  for (const req of [createRequire(import.meta.url), createRequire(path.join(process.cwd(), 'noop.js'))]) {
    try { duck = req('@duckdb/node-api'); break; } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }
  }
  if (!duck) note('@duckdb/node-api not found (set NODE_PATH): DuckDB skipped');
  else {
    const inst = await duck.DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    await con.run(`CREATE VIEW t AS SELECT * FROM read_csv(${sq(CSV)}, header = true)`);
    for (const th of [1, 2]) {
      const e = `duck t${th}`;
      results[e] = {};
      await con.run(`SET threads = ${th}`);
      for (const q of QUERIES) {
        note(`${e}: ${q.name}`);
        let b = null, out;
        for (let i = 0; i < TRIES; i++) {
          const t0 = performance.now();
          const r = await con.runAndReadAll(q.sql);
          const t = (performance.now() - t0) / 1000;
          out = r.getRows()[0].map((v) => String(v)).join('|');
          if (b == null || t < b) b = t;
          if (t > SLOW) break;
        }
        results[e][q.name] = { t: b, label: b.toFixed(3), out };
      }
    }
  }
}

/* ---- group_by over the CSV table ---- */
const GBQ = (env.CSV_GB ?? '9,13,16,34').split(',').map(Number).filter((q) => q > 0);
const gbRes = {};   // query -> engine -> {t,label,first}
if (GBQ.length && ENGINES.has('ours')) {
  const readQ = (f) => fs.readFileSync(f, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('--'));
  const qs = path.join(SHARED, 'bench/queries.sql'), qd = path.join(SHARED, 'bench/queries-duckdb.sql');
  const gbText = {};
  for (const l of fs.readFileSync(path.join(repo, 'bench/queries-groupby.sql'), 'utf8').split('\n')) {
    const m = /^Q(\d+):\s*(.*)$/.exec(l.trim());
    if (m) gbText[+m[1]] = m[2];
  }
  if (!fs.existsSync(qs) || !fs.existsSync(qd)) note(`${qs} not found: group_by over CSV skipped`);
  else {
    const QS = readQ(qs), QD = readQ(qd);
    const table = (th) => [`.load ${EXT}`,
      `CREATE VIRTUAL TABLE temp.hits USING csv(${sq(CSV)}, header=true, threads=${th});`];
    let con = null;
    if (ENGINES.has('duck')) {
      let duck = null;
      for (const req of [createRequire(import.meta.url), createRequire(path.join(process.cwd(), 'noop.js'))]) {
        try { duck = req('@duckdb/node-api'); break; } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }
      }
      if (duck) {
        const inst = await duck.DuckDBInstance.create(':memory:');
        con = await inst.connect();
        await con.run(`CREATE VIEW hits AS SELECT * FROM read_csv(${sq(CSV)}, header = true)`);
      }
    }
    for (const q of GBQ) {
      if (!gbText[q]) { note(`Q${q} has no group_by form in bench/queries-groupby.sql`); continue; }
      const r = gbRes[q] = {};
      for (const th of [1, 2]) {
        note(`group_by t${th}: Q${q}`);
        const sql = gbText[q].replace('USING group_by(hits, ', `USING group_by(hits, threads=${th}, `);
        r[`gb t${th}`] = best(() => sqliteRun(':memory:', table(th), sql));
      }
      note(`SQLite GROUP BY over the csv table: Q${q}`);
      r.sql = best(() => sqliteRun(':memory:', table(2), QS[q - 1].replace(/;$/, '')));
      if (con) {
        for (const th of [1, 2]) {
          note(`duck t${th}: Q${q}`);
          await con.run(`SET threads = ${th}`);
          let b = null, first;
          for (let i = 0; i < TRIES; i++) {
            const t0 = performance.now();
            const rr = await con.runAndReadAll(QD[q - 1]);
            const t = (performance.now() - t0) / 1000;
            first = rr.getRows()[0]?.map((v) => String(v)).join('|');
            if (b == null || t < b) b = t;
            if (t > SLOW) break;
          }
          r[`duck t${th}`] = { t: b, label: b.toFixed(3), first };
        }
      }
    }
  }
}

{ // merge into what is saved now (another run over the same file may have finished meanwhile)
  const now = fs.existsSync(SAVED) ? JSON.parse(fs.readFileSync(SAVED, 'utf8')) : { results: {} };
  for (const k of Object.keys(results)) now.results[k] = results[k];
  if (results.native) { now.importSeconds = importSeconds; now.importLabel = importLabel; }
  fs.writeFileSync(SAVED, JSON.stringify(now));
}

/* ---- the table ---- */
const sizeMiB = fs.statSync(CSV).size / 1048576;
const ref = results['ours t1'] || {};
const rows = ref['count(*)']?.out;
const engines = ['ours t1', 'ours t2', 'csvtable', 'native', 'duck t1', 'duck t2'].filter((e) => results[e]);
const hdr = ['query', ...engines];
if (results.native && importSeconds != null) hdr.push('import+query');
const ratio = (a, b) => (a?.t && b?.t ? (a.t / b.t).toFixed(2) : a?.t == null && b?.t ? `>${(TIMEOUT / b.t).toFixed(0)}` : '-');
if (results.csvtable && results['ours t1']) hdr.push('csvtable/ours1');
if (results['duck t1'] && results['ours t1']) hdr.push('ours1/duck1');
if (results['duck t2'] && results['ours t2']) hdr.push('ours2/duck2');
if (results['ours t1']) hdr.push('RSS MiB t1/t2');
const table = [hdr];
const mismatches = [];
for (const q of QUERIES) {
  const row = [q.name];
  for (const e of engines) {
    const r = results[e][q.name];
    let cell = r?.label ?? '-';
    if (r?.out != null && ref[q.name]?.out != null && e !== 'ours t1'
        && normalize(r.out) !== normalize(ref[q.name].out)) {
      const a = normalize(r.out).split('|'), b = normalize(ref[q.name].out).split('|');
      const diff = q.sum && a.length === b.length ? a.map((x, i) => i).filter((i) => a[i] !== b[i]) : null;
      if (diff && e.startsWith('duck') && diff.every((i) => +a[i] < +b[i])) {
        // DuckDB reads a quoted empty string "" as NULL (allow_quoted_nulls); ours keeps '' in a
        // TEXT column, as SQLite's .import and csv.c do: count(col) differs there by design.
        cell += ' ~';
        mismatches.push(`~ ${q.name}: ${e} counts fewer non-NULL values in ${diff.map((i) => cols[i]).join(', ')}`
          + ' (DuckDB reads a quoted empty string as NULL, ours as \'\'): expected');
      } else if (diff && !e.startsWith('duck') && diff.every((i) => +a[i] > +b[i])) {
        // An unquoted empty field is NULL in ours (DESIGN.md; DuckDB agrees), '' for .import and
        // csvtable, which read every field as text.
        cell += ' ~';
        mismatches.push(`~ ${q.name}: ${e} counts more non-NULL values in ${diff.map((i) => cols[i]).join(', ')}`
          + ' (an unquoted empty field is NULL in ours, \'\' there): expected');
      } else {
        cell += ' !';
        mismatches.push(`! ${q.name}: ${e} answered ${String(r.out).slice(0, 80)}, ours t1 ${String(ref[q.name].out).slice(0, 80)}`);
      }
    }
    row.push(cell);
  }
  if (hdr.includes('import+query')) {
    const n = results.native[q.name];
    row.push(n?.t != null ? (importSeconds + n.t).toFixed(1) : '-');
  }
  if (hdr.includes('csvtable/ours1')) row.push(ratio(results.csvtable[q.name], results['ours t1'][q.name]));
  if (hdr.includes('ours1/duck1')) row.push(ratio(results['ours t1'][q.name], results['duck t1'][q.name]));
  if (hdr.includes('ours2/duck2')) row.push(ratio(results['ours t2'][q.name], results['duck t2'][q.name]));
  if (hdr.includes('RSS MiB t1/t2')) {
    const a = results['ours t1'][q.name]?.rss, b = results['ours t2']?.[q.name]?.rss;
    row.push(`${a ? (a / 1024).toFixed(0) : '-'}/${b ? (b / 1024).toFixed(0) : '-'}`);
  }
  table.push(row);
}
const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`## CSV: ${CSV} (${sizeMiB.toFixed(1)} MiB, ${rows ?? '?'} rows), best of ${TRIES} hot runs, seconds`);
console.log(`timeout ${TIMEOUT} s per run; runs over ${SLOW} s not repeated; load average ${load}`);
if (results.native) {
  console.log(`sqlite3 .import into a native table: ${importLabel} s${importSeconds == null ? ' (skipped: CSV_IMPORT=0, queries run on hits.sqlite)' : ''}`);
}
const w = hdr.map((_, i) => Math.max(...table.map((r) => String(r[i]).length)));
table.forEach((r, k) => {
  console.log('| ' + r.map((c, i) => String(c).padEnd(w[i])).join(' | ') + ' |');
  if (k === 0) console.log('|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|');
});
console.log('targets: csvtable/ours1 >= 5 on every query; ours/duck <= 1.5 at equal threads');
for (const m of mismatches) console.log(`answers: ${m}`);

if (Object.keys(gbRes).length) {
  const eng = ['gb t1', 'gb t2', 'sql', 'duck t1', 'duck t2'];
  const head = ['query', 'gb t1', 'gb t2', 'sql/csv t2', 'duck t1', 'duck t2', 'sql/csv / gb t2', 'gb/duck t1', 'gb/duck t2'];
  const rowsOut = [head];
  const notes = [];
  for (const q of Object.keys(gbRes)) {
    const r = gbRes[q];
    const row = [`Q${q}`];
    for (const e of eng) {
      let cell = r[e]?.label ?? '-';
      if (e !== 'gb t1' && r[e]?.first != null && r['gb t1']?.first != null
          && normalize(r[e].first) !== normalize(r['gb t1'].first)) {
        cell += ' !';
        notes.push(`! Q${q}: ${e} first row ${String(r[e].first).slice(0, 80)}, gb t1 ${String(r['gb t1'].first).slice(0, 80)}`);
      }
      row.push(cell);
    }
    row.push(ratio(r.sql, r['gb t2']), ratio(r['gb t1'], r['duck t1']), ratio(r['gb t2'], r['duck t2']));
    rowsOut.push(row);
  }
  console.log('');
  console.log(`## group_by over the CSV table (bench/queries-groupby.sql; CREATE + SELECT), best of ${TRIES}, seconds`);
  console.log('sql/csv = the ClickBench SQL over our csv table (SQLite\'s GROUP BY, threads=2); duck = read_csv');
  const w2 = head.map((_, i) => Math.max(...rowsOut.map((r) => String(r[i]).length)));
  rowsOut.forEach((r, k) => {
    console.log('| ' + r.map((c, i) => String(c).padEnd(w2[i])).join(' | ') + ' |');
    if (k === 0) console.log('|' + w2.map((n) => '-'.repeat(n + 2)).join('|') + '|');
  });
  for (const n of notes) console.log(`answers: ${n}`);
}
