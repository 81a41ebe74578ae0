// duckdb_load.mjs -- @duckdb/node-api for the fixture generators, found
// next to the script, in the current directory or along NODE_PATH; exits
// with a message naming the generator when it is nowhere.
import path from 'node:path';
import { createRequire } from 'node:module';

export function loadDuckDB(generator) {
  const bases = ['file://' + path.join(process.cwd(), 'x.js'),
    ...(process.env.NODE_PATH || '').split(':').filter(Boolean).map((d) => 'file://' + path.join(d, '..', 'x.js')),
    import.meta.url];
  for (const b of bases) { try { return createRequire(b)('@duckdb/node-api'); } catch { /* next */ } }
  console.error(`${generator}: cannot load @duckdb/node-api (set NODE_PATH)`);
  process.exit(2);
}
