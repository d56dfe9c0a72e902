/**
 * Baseline child for the export bench: DuckDB reading the export's files with no checks. Prints the count.
 * `bare` (the issue's baseline): `SELECT count(*)`, which DuckDB answers without extracting any column.
 * `columns`: the same read counting every column the audit loads (keys and audit attributes), so each is extracted.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../shared/conventions/presets';
import { itemColumnNames, itemColumns, itemStructFields, sqlString } from '../electron/services/export/sql-items';
import { openExport } from '../electron/services/export/read-export';

const [dir, dbPath, mode = 'bare'] = process.argv.slice(2);
if (mode !== 'bare' && mode !== 'columns') throw new Error(`duck-count: mode must be bare or columns, not ${mode}`);
mkdirSync(dirname(dbPath!), { recursive: true });
const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const files = (await openExport(dir!)).files.filter((f) => f.itemCount > 0).map((f) => sqlString(f.path));
const type = `STRUCT(${itemStructFields(convention)
  .map((f) => `"${f.name}" STRUCT(S VARCHAR, N VARCHAR, B VARCHAR)`)
  .join(', ')})`;
const db = await DuckDBInstance.create(dbPath!, { memory_limit: '512MB', temp_directory: `${dbPath}.tmp` });
const conn = await db.connect();
// The same read as the audit's load (explicit columns, the same projection), counted instead of stored.
const counted = mode === 'bare' ? 'count(*) AS n' : ['count(*) AS n', ...itemColumnNames(convention).map((c) => `count(${c})`)].join(', ');
const sql = `SELECT ${counted} FROM (SELECT ${itemColumns(convention, 'Item').join(', ')} FROM read_json([${files.join(', ')}], format = 'newline_delimited', compression = 'gzip', columns = {Item: ${sqlString(type)}}))`;
const rows = (await conn.runAndReadAll(sql)).getRowObjectsJson();
process.stdout.write(`${String(rows[0]?.n)}\n`);
conn.closeSync();
db.closeSync();
