// stats_fixture.mjs — writes the small files of tcl/groupby_stats.test, where
// zero-key group_by aggregates are answered from footer statistics:
//   stats_duck.parquet     DuckDB, 600 rows in 6 row groups of 100: negative
//                          integers, unsigned ones past 2^31 and 2^63, dates,
//                          timestamps with fractions, a date past 9999, text,
//                          a column NULL in whole row groups, one all NULL,
//                          doubles with NaN, decimals, booleans
//   stats_none.parquet     hyparquet-writer with statistics off
//   stats_trunc.parquet    hyparquet-writer truncating statistics to 4 bytes
//                          (is_min/max_value_exact false on long strings)
//   NODE_PATH=/root/duck/node_modules node test/gen/stats_fixture.mjs
import { createRequire } from 'module';
import { fileURLToPath } from 'url';
import fs from 'fs';
import path from 'path';
const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(here, '..', 'data', 'parquet');
const D = require('@duckdb/node-api');
const hw = await import(require.resolve('hyparquet-writer'));

const inst = await D.DuckDBInstance.create(':memory:');
const conn = await inst.connect();
const duck = path.join(OUT, 'stats_duck.parquet');
await conn.run(`COPY (
  SELECT
    i * 37 - 9000 AS neg,
    CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 1000003)::BIGINT * 1000 - 250000000 END AS big,
    (3000000000 + i)::UINTEGER AS u32,
    CASE WHEN i = 599 THEN 18000000000000000000::UBIGINT ELSE i::UBIGINT END AS u64,
    DATE '1999-12-25' + (i * 3)::INTEGER AS d,
    TIMESTAMP '2021-03-04 05:06:07' + to_microseconds(i * 123457) AS ts,
    CASE WHEN i = 0 THEN DATE '12000-01-01' ELSE DATE '2000-01-01' END AS far,
    CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || lpad((i * 7 % 600)::VARCHAR, 4, '0') END AS s,
    CASE WHEN i < 200 OR i >= 500 THEN NULL ELSE i - 300 END AS holes,
    NULL::INTEGER AS allnull,
    CASE WHEN i = 3 THEN 'NaN'::DOUBLE ELSE i / 4.0 END AS f,
    (i / 8.0)::DECIMAL(10,2) AS dec,
    i % 3 = 1 AS b
  FROM (SELECT i::INTEGER AS i FROM range(600) r(i)) t ORDER BY i
) TO '${duck}' (FORMAT parquet, ROW_GROUP_SIZE 100)`);
console.log('wrote', duck);

const n = 300;
const ids = Array.from({ length: n }, (_, i) => i);
const cols = [
  { name: 'i', data: ids.map((i) => (i % 9 === 0 ? null : 50 - i)), type: 'INT32' },
  { name: 's', data: ids.map((i) => (i % 11 === 0 ? null : 'long-string-' + String(1000 - i))), type: 'STRING' },
];
for (const [name, opts] of [['stats_none.parquet', { statistics: false }],
                            ['stats_trunc.parquet', { statisticsTruncateLength: 4 }]]) {
  const file = path.join(OUT, name);
  fs.writeFileSync(file, Buffer.from(hw.parquetWriteBuffer({ columnData: cols, rowGroupSize: 100, ...opts })));
  console.log('wrote', file);
}
