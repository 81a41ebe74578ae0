// sorted_fixture.mjs — writes test/data/parquet/sorted.parquet: 6000 rows in
// 3 row groups, sorted by k (INT64, ascending, nulls first) and declared so in
// every row group's sorting_columns (DuckDB does not write them), for the
// ORDER BY consumption test in tcl/prune.test.
//   NODE_PATH=/root/duck/node_modules node test/gen/sorted_fixture.mjs
import { createRequire } from 'module';
import { fileURLToPath } from 'url';
import path from 'path';
const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const { ParquetWriter } = await import(require.resolve('hyparquet-writer'));
const { fileWriter } = await import(path.join(path.dirname(require.resolve('hyparquet-writer')), 'node.js'));

const n = 6000;
const k = [], g = [];
for (let i = 0; i < n; i++) { k.push(BigInt(i * 3)); g.push(i % 11); }
const out = path.join(here, '..', 'data', 'parquet', 'sorted.parquet');
const writer = new ParquetWriter({
  writer: fileWriter(out),
  schema: [
    { name: 'root', num_children: 2 },
    { name: 'k', type: 'INT64', repetition_type: 'REQUIRED' },
    { name: 'g', type: 'INT32', repetition_type: 'REQUIRED' },
  ],
});
writer.write({ columnData: [{ name: 'k', data: k }, { name: 'g', data: g }], rowGroupSize: 2000 });
for (const rg of writer.row_groups) {
  rg.sorting_columns = [{ column_idx: 0, descending: false, nulls_first: true }];
}
await writer.finish();
console.log('wrote', out);
