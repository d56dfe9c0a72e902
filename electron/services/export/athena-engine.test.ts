import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import type { Convention } from '../../../shared/model';
import { PRESET_TABLES } from '../../cli/testing/preset-tables';
import { athenaAudit, pollDelay, type AthenaAuditOptions } from './athena-engine';
import { athenaDdl, composedQueries } from './athena-sql';
import { ATHENA_DIALECT, sqlIdent } from './sql-items';
import { duckAudit } from './duck-audit';
import { openExport, verifyExport } from './read-export';
import { athena, duckAnswers, fakeAthena, kindOf, type Page } from './testing-athena';
import { writeExport } from './write-export';

let work = '';
let n = 0;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-athena-engine-'));
});
afterAll(async () => {
  athena.restore();
  await rm(work, { recursive: true, force: true });
});
beforeEach(() => athena.reset());

const uniq = (): Convention => presetConvention('uniq', PRESET_TABLES[0]!.keys, PRESET_DEFAULTS.uniq);
const delays: number[] = [];
const base = (convention: Convention, extra: Partial<AthenaAuditOptions> = {}): AthenaAuditOptions => ({
  client: new AthenaClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
  convention,
  table: 'users',
  dataLocation: 's3://exports/p/AWSDynamoDB/01700000000000-abcd1234/data/',
  outputLocation: 's3://results/locksmith/',
  expectedItems: 3,
  tableName: 'locksmith_users_test',
  sleep: async (ms) => {
    delays.push(ms);
  },
  ...extra,
});
const COUNTS_3: Page[] = [{ columns: ['scanned', 'accounts', 'locks', 'nokey'], rows: [['3', '1', '2', '0']] }];
const NO_ROWS: Page[] = [{ columns: ['id', 'pulled_rule'], rows: [] }];

describe('Athena engine: the client flow (SDK mocked at the edge)', () => {
  it('sends the DDL, the two composed queries and the DROP, in order, with the output location, workgroup and database', async () => {
    const fake = fakeAthena({ counts: COUNTS_3, pulled: NO_ROWS });
    const convention = uniq();
    const result = await athenaAudit(base(convention, { workgroup: 'audits', database: 'exports' }));
    const { counts, pulled } = composedQueries(convention, ATHENA_DIALECT, sqlIdent('locksmith_users_test'));
    expect(fake.sent()).toEqual([
      athenaDdl(convention, 'locksmith_users_test', 's3://exports/p/AWSDynamoDB/01700000000000-abcd1234/data/'),
      counts,
      pulled,
      'DROP TABLE IF EXISTS `locksmith_users_test`',
    ]);
    for (const call of athena.commandCalls(StartQueryExecutionCommand)) {
      expect(call.args[0].input).toMatchObject({
        WorkGroup: 'audits',
        QueryExecutionContext: { Database: 'exports' },
        ResultConfiguration: { OutputLocation: 's3://results/locksmith/' },
      });
    }
    expect(result.report).toMatchObject({ complete: true, scanned: 3, accounts: 1, locks: 2, problems: [] });
    expect(result.scannedBytes).toBe(4000);
    expect(result.dropFailed).toBeUndefined();
  });

  it('polls each query until it ends, with growing delays', async () => {
    fakeAthena({ counts: COUNTS_3, pulled: NO_ROWS }, { counts: ['QUEUED', 'QUEUED', 'RUNNING', 'RUNNING', 'SUCCEEDED'] });
    delays.length = 0;
    await athenaAudit(base(uniq()));
    const polls = athena.commandCalls(GetQueryExecutionCommand).filter((c) => c.args[0].input.QueryExecutionId === 'q-counts');
    expect(polls).toHaveLength(5);
    expect(delays.slice(2, 7)).toEqual([0, 1, 2, 3, 4].map(pollDelay));
    expect(pollDelay(1)).toBeGreaterThan(pollDelay(0));
    expect(pollDelay(30)).toBe(5_000);
  });

  it.each(['FAILED', 'CANCELLED'] as const)(
    'a %s query is an error naming it, with no report; the table is still dropped',
    async (state) => {
      const fake = fakeAthena({ counts: COUNTS_3, pulled: NO_ROWS }, { pulled: ['RUNNING', state] });
      await expect(athenaAudit(base(uniq()))).rejects.toThrow(new RegExp(`pulled-rows query ${state} \\(query q-pulled\\)`));
      expect(fake.sent().at(-1)).toBe('DROP TABLE IF EXISTS `locksmith_users_test`');
    },
  );

  it('AccessDenied is a clear error naming the permissions, and nothing is left to drop', async () => {
    athena
      .on(StartQueryExecutionCommand)
      .rejects(
        Object.assign(new Error('User is not authorized to perform: athena:StartQueryExecution'), { name: 'AccessDeniedException' }),
      );
    await expect(athenaAudit(base(uniq()))).rejects.toThrow(
      /CREATE EXTERNAL TABLE \(StartQueryExecution\) failed: AccessDeniedException: User is not authorized.*glue:CreateTable/,
    );
    // The CREATE was refused: no table exists, so no DROP is attempted (it would be refused too).
    expect(athena.commandCalls(StartQueryExecutionCommand)).toHaveLength(1);
  });

  it('a count that differs from the manifest is an error, never a complete report', async () => {
    fakeAthena({ counts: [{ columns: ['scanned', 'accounts', 'locks', 'nokey'], rows: [['2', '1', '1', '0']] }], pulled: NO_ROWS });
    await expect(athenaAudit(base(uniq()))).rejects.toThrow(/Athena read 2 items .* manifest-summary.json says 3/);
  });

  it('items read without their partition key (a SerDe mapping that reads NULLs) are an error, not a clean report', async () => {
    fakeAthena({ counts: [{ columns: ['scanned', 'accounts', 'locks', 'nokey'], rows: [['3', null, null, '3']] }], pulled: NO_ROWS });
    await expect(athenaAudit(base(uniq()))).rejects.toThrow(/Athena read 3 items without their partition key PK/);
  });

  it('cancel: the running query is stopped and the table dropped', async () => {
    const fake = fakeAthena({ counts: COUNTS_3, pulled: NO_ROWS }, { counts: ['RUNNING'] });
    const controller = new AbortController();
    let countsPolls = 0;
    const run = athenaAudit(
      base(uniq(), {
        signal: controller.signal,
        // Cancelled while the counts query runs (as SIGINT would), after it has been polled twice.
        sleep: async () => {
          if (athena.commandCalls(StartQueryExecutionCommand).length === 2 && ++countsPolls === 3) controller.abort();
        },
      }),
    );
    await expect(run).rejects.toThrow('cancelled');
    expect(athena.commandCalls(StopQueryExecutionCommand).map((c) => c.args[0].input.QueryExecutionId)).toEqual(['q-counts']);
    expect(fake.sent().map(kindOf)).toEqual(['ddl', 'counts', 'drop']);
  });
});

describe('Athena engine: parity with the DuckDB engine', { timeout: 30_000 }, () => {
  for (const table of PRESET_TABLES) {
    it(`preset ${table.preset}: the report equals the DuckDB engine's, byte for byte`, async () => {
      const convention = presetConvention(table.preset, table.keys, PRESET_DEFAULTS[table.preset]);
      const out = join(work, `e${n++}`);
      await writeExport({ out, keys: table.keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/t', partitions: 3 }, table.items);
      const opened = await openExport(out);
      await verifyExport(opened);
      const answers = await duckAnswers(
        convention,
        opened.files.filter((f) => f.itemCount > 0).map((f) => f.path),
      );
      expect(answers.pulled.length).toBeGreaterThan(1);
      fakeAthena(answers);
      const fromAthena = await athenaAudit(base(convention, { table: 't', expectedItems: table.items.length }));
      const fromDuck = await duckAudit({
        exports: [opened],
        convention,
        table: 't',
        dbPath: join(work, `db${n++}.duckdb`),
        memoryMb: 128,
        threads: 2,
      });
      expect(JSON.stringify(fromAthena.report)).toBe(JSON.stringify(fromDuck.report));
      expect(fromAthena.report.problems.length).toBeGreaterThan(0);
      expect(athena.commandCalls(GetQueryResultsCommand).filter((c) => c.args[0].input.QueryExecutionId === 'q-pulled').length).toBe(
        answers.pulled.length,
      );
    });
  }
});
