import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { AuditEngine } from '../../../shared/audit/engine';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import { PRESET_TABLES } from '../../cli/testing/preset-tables';
import { athenaDdl, composedQueries } from './athena-sql';
import { ATHENA_DIALECT, DUCKDB_DIALECT, itemStructFields, sqlString } from './sql-items';
import { heldOf } from './check-sql';
import { reportFromPulled, type SqlCounts } from './pulled-report';
import { openExport } from './read-export';
import { writeExport } from './write-export';

let work = '';
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-athena-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The Athena queries' text, run by DuckDB: one statement each, CTEs only, no tables kept between them. */
const DUCKDB_AS_ATHENA = { ...DUCKDB_DIALECT, jsNormMap: false };

describe('Athena: the composed queries (shared SQL) run on DuckDB give the live report', { timeout: 30_000 }, () => {
  for (const table of PRESET_TABLES) {
    it(`preset ${table.preset}`, async () => {
      const convention = presetConvention(table.preset, table.keys, PRESET_DEFAULTS[table.preset]);
      const out = join(work, table.preset);
      await writeExport({ out, keys: table.keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/t', partitions: 3 }, table.items);
      const files = (await openExport(out)).files.map((f) => sqlString(f.path)).join(', ');
      const type = `STRUCT(${itemStructFields(convention)
        .map((f) => `"${f.name}" STRUCT(S VARCHAR, N VARCHAR, B VARCHAR)`)
        .join(', ')})`;
      const source = `(SELECT Item FROM read_json([${files}], format = 'newline_delimited', compression = 'gzip', columns = {Item: ${sqlString(type)}})) ext`;
      const { counts, pulled } = composedQueries(convention, DUCKDB_AS_ATHENA, source);
      const db = await DuckDBInstance.create(':memory:');
      const conn = await db.connect();
      try {
        const row = (await conn.runAndReadAll(counts)).getRowObjectsJson()[0] as unknown as SqlCounts & Record<string, unknown>;
        // As athenaAudit reads it: the held values per rule ride on the counts row.
        const c: SqlCounts = { ...row, held: heldOf(convention, row) ?? [] };
        const rows = (await conn.runAndReadAll(pulled)).getRowObjectsJson();
        const { report } = await reportFromPulled(
          convention,
          't',
          c,
          (async function* () {
            yield rows;
          })(),
        );
        const engine = new AuditEngine(convention, { trackDeltas: false });
        engine.addItems(table.items);
        expect(JSON.stringify(report)).toBe(JSON.stringify(engine.report({ table: 't', complete: true })));
      } finally {
        conn.closeSync();
        db.closeSync();
      }
    });
  }

  it('uses no DuckDB-only syntax in the Athena text, and prints a JsonSerDe external table', () => {
    const convention = presetConvention('uniq', PRESET_TABLES[0]!.keys, PRESET_DEFAULTS.uniq);
    const { counts, pulled } = composedQueries(convention, ATHENA_DIALECT, '"exports"."users_export"');
    for (const text of [counts, pulled]) {
      expect(text).not.toMatch(/\b(ANTI|SEMI) JOIN\b|string_agg|\bFILTER\s*\(|regexp_full_match|EXCLUDE|nfc_normalize|encode\(/i);
      expect(text).toContain('regexp_like(');
    }
    const ddl = athenaDdl(convention, 'users_export', 's3://b/p/AWSDynamoDB/01/data/');
    expect(ddl).toContain("ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'");
    expect(ddl).toContain('Item struct<`PK`:struct<S:string,N:string,B:string>');
    expect(ddl).toContain("LOCATION 's3://b/p/AWSDynamoDB/01/data/'");
    // Athena lowercases column names: with case.insensitive = false (and no mappings) "Item" would read as NULL.
    expect(ddl).not.toContain('case.insensitive');
    expect(() => athenaDdl({ ...convention, ownerAttribute: 'pk' }, 'users_export', 's3://b/p/')).toThrow(
      /"PK" and "pk" differ only in case/,
    );
  });
});
