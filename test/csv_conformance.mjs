// csv_conformance.mjs — builds test/data/csv/*: CSV files written by DuckDB
// (COPY TO) and by hand (Python csv style, spreadsheet CRLF+BOM, TSV,
// quoted newlines, 500 columns, a long field), each with DuckDB's read_csv
// answer as <name>.expected.jsonl, which test/test_csv.c compares against.
//
//   NODE_PATH=/root/duck/node_modules node test/csv_conformance.mjs
//
// Expected format: line 1 the column names (DuckDB's columnN renamed cN, our
// and csv.c's naming), then one JSON array per row of values as SQLite shows
// them, tagged: "i:<integer>" (booleans as 1/0), "r:<shortest real>" (".0"
// when integral), "t:<text>" (dates/times in DESIGN.md's ISO form), null.
// MANIFEST lists the files, with an optional extra csv() option for ours.
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
const require = createRequire(import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

const dir = 'test/data/csv';
fs.mkdirSync(dir, { recursive: true });
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const q = async (sql) => (await con.runAndReadAll(sql));

// Hand-written files.
const hand = {};
hand['python_style.csv'] = 'id,name,score,active\r\n1,"Smith, John",3.5,True\r\n2,"O\'Brien ""Bob""",4,False\r\n3,,-2.25,true\r\n';
hand['spreadsheet_bom.csv'] = '\ufeffRegion,Units,Price,Day\r\n"North",10,"1.25",2024-01-05\r\nSouth,"20",2.5,2024-02-29\r\n"East West",,3,2023-12-31\r\n';
hand['tabs.tsv'] = 'a\tb\tc\n1\tx y\t2.5\n2\t"q"\t3\n3\tz\t\n';
hand['quoted_newlines.csv'] = 'k,text\n1,"line one\nline two"\n2,"has ""quotes"" and, commas"\n3,plain\n4,"trailing\n"\n';
hand['semicolon.csv'] = 'x;y;z\n1;2;hello\n3;4;world\n5;;again\n';
hand['pipe.csv'] = 'p|q\n10|a\n20|b\n30|c\n';
hand['noheader.csv'] = '1,2.5,3\n4,5.5,6\n7,8.5,9\n';
hand['timestamps.csv'] = 'ts,d,t\n2024-01-02 03:04:05,2024-01-02,10:11:12\n2024-01-02T03:04:05.5,2025-06-30,23:59:59.25\n2024-03-04 05:06:07.123456,1999-12-31,00:00:00\n';
hand['leading_zeros.csv'] = 'zip,n\n007,1\n0123,2\n10,3\n';
// Not here: a quoted empty "" (DuckDB: NULL; we: '' in a TEXT column).
hand['nulls_empty.csv'] = 'a,b,c\n1,,x\n,2,y\n3,3,\n';
let wide = [];
for (let c = 0; c < 500; c++) wide.push('col' + c);
wide = [wide.join(',')];
for (let r = 0; r < 20; r++) {
  const row = [];
  for (let c = 0; c < 500; c++) row.push(c % 3 === 0 ? String(r * c) : c % 3 === 1 ? (r + c / 4).toFixed(2) : 'v' + r + '_' + c);
  wide.push(row.join(','));
}
hand['wide500.csv'] = wide.join('\n') + '\n';
hand['long_field.csv'] = 'id,blob\n1,"' + 'abcdefghij'.repeat(9000) + '"\n2,short\n';
for (const [name, body] of Object.entries(hand)) fs.writeFileSync(path.join(dir, name), body);

// Files written by DuckDB itself.
await q(`CREATE TABLE t AS SELECT i AS id, 'name ' || i AS name, CAST(i AS DOUBLE) * 1.25 AS price,
  i % 2 = 0 AS even, DATE '2024-01-01' + CAST(i AS INTEGER) AS day,
  CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || i END AS note
  FROM range(0, 300) r(i)`);
await q(`COPY t TO '${dir}/duck_basic.csv' (HEADER)`);
await q(`CREATE TABLE u AS SELECT i AS id, CASE i % 4 WHEN 0 THEN 'a,b' WHEN 1 THEN 'say "hi"'
  WHEN 2 THEN 'two' || chr(10) || 'lines' ELSE 'plain' END AS s FROM range(0, 50) r(i)`);
await q(`COPY u TO '${dir}/duck_quoted.csv' (HEADER)`);

const files = [...Object.keys(hand), 'duck_basic.csv', 'duck_quoted.csv'].sort();
const manifest = [];
for (const f of files) {
  const p = path.join(dir, f);
  const src = `read_csv('${p}')`;
  const desc = (await q(`DESCRIBE SELECT * FROM ${src}`)).getRowsJS();
  const exprs = desc.map(([name, type]) => {
    const id = '"' + name.replace(/"/g, '""') + '"';
    if (type === 'BOOLEAN') return `CAST(${id} AS INTEGER)`;
    if (/^(DATE|TIME|TIMESTAMP)/.test(type)) return `CAST(${id} AS VARCHAR)`;
    return id;
  });
  const rows = (await q(`SELECT ${exprs.join(', ')} FROM ${src}`)).getRowsJS();
  const names = desc.map(([name]) => /^column\d+$/.test(name) ? 'c' + Number(name.slice(6)) : name);
  const out = [JSON.stringify(names)];
  for (const row of rows) {
    out.push(JSON.stringify(row.map((v, i) => render(v, desc[i][1]))));
  }
  fs.writeFileSync(p + '.expected.jsonl', out.join('\n') + '\n');
  manifest.push(f);
  console.log(f, desc.map(d => d[1]).join(','), rows.length, 'rows');
}
fs.writeFileSync(path.join(dir, 'MANIFEST'), manifest.join('\n') + '\n');

function fixFraction(s) {
  // DuckDB prints fractions without trailing zeros; DESIGN.md wants 3/6/9.
  return s.replace(/\.(\d+)$/, (m, f) => {
    f = f.replace(/0+$/, '');
    if (!f) return '';
    const w = f.length <= 3 ? 3 : f.length <= 6 ? 6 : 9;
    return '.' + f.padEnd(w, '0');
  });
}
function render(v, type) {
  if (v === null || v === undefined) return null;
  if (/INT/.test(type) || type === 'BOOLEAN') return 'i:' + String(v);
  if (type === 'DOUBLE' || type === 'FLOAT' || /^DECIMAL/.test(type)) {
    const x = Number(v);
    if (Number.isNaN(x)) return null;
    let s = String(x);
    if (!/[.e]/.test(s)) s += '.0';
    return 'r:' + s;
  }
  if (/^(DATE|TIME|TIMESTAMP)/.test(type)) return 't:' + fixFraction(String(v));
  return 't:' + String(v);
}
