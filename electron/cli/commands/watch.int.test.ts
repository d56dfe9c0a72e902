import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import type { WatchEvent } from '../../../shared/watch/watch-events';
import { deleteTable, testClient } from '../../testing/dynamo-fixtures';
import { createStreamTable, signup } from '../../services/watch/testing-watch';
import { cleanEnv, LOCKSMITH_BIN, runCli } from '../testing-cli';

const endpoint = inject('dynamoEndpoint');
let client: DynamoDBClient;
const tables: string[] = [];

beforeAll(() => {
  client = testClient(endpoint);
});

afterAll(async () => {
  for (const t of tables) await deleteTable(client, t);
  client.destroy();
});

describe('locksmith watch, through bin/locksmith', () => {
  it('exits 2 with the exact update-table command when the table has no stream', async () => {
    const table = await createStreamTable(client, 'cli-watch-none', { stream: 'none' });
    tables.push(table);
    const run = await runCli(['watch', '--endpoint', endpoint, '--table', table, '--preset', 'uniq', '--json']);
    expect(run.code).toBe(2);
    // --json: the error is the one line on stdout (a script reads it there), and said on stderr.
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: {
        kind: 'validation',
        fix: `aws dynamodb update-table --table-name ${table} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES`,
      },
    });
    expect(run.stderr).toContain(
      `aws dynamodb update-table --table-name ${table} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES`,
    );
  });

  it("exits 2 naming the lock table and its update-table command when a lock-table convention's lock table has no stream", async () => {
    const table = await createStreamTable(client, 'cli-watch-acc');
    const locks = await createStreamTable(client, 'cli-watch-acc-unique', { stream: 'none' });
    tables.push(table, locks);
    const file = join(await mkdtemp(join(tmpdir(), 'locksmith-')), 'convention.json');
    await writeFile(file, JSON.stringify({ ...presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq), lockTable: locks }));
    const run = await runCli(['watch', '--endpoint', endpoint, '--table', table, '--convention', file, '--json']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { kind: 'validation', message: expect.stringContaining(`keeps its locks in table ${locks}`) },
    });
    expect(run.stderr).toContain(`keeps its locks in table ${locks}`);
    expect(run.stderr).toContain(
      `aws dynamodb update-table --table-name ${locks} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES`,
    );
  });

  it('prints JSON lines: watching, then the orphan a raw delete causes; SIGINT stops it with exit 0', async () => {
    const table = await createStreamTable(client, 'cli-watch');
    tables.push(table);
    await signup(client, table, 'w1', 'ada@lovelace.io', 'ada');
    const child = spawn(
      process.execPath,
      [
        LOCKSMITH_BIN,
        'watch',
        '--endpoint',
        endpoint,
        '--table',
        table,
        '--preset',
        'uniq',
        '--json',
        '--settle-ms',
        '200',
        '--poll-ms',
        '50',
      ],
      { env: cleanEnv() },
    );
    const lines: WatchEvent[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let buffer = '';
    let onLine: () => void = () => undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) lines.push(JSON.parse(part) as WatchEvent);
      onLine();
    });
    const until = (match: (lines: WatchEvent[]) => boolean): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (match(lines)) resolve();
        };
        onLine = check;
        check();
        void exited.then((code) => reject(new Error(`watch exited (${code}) early: ${stderr}`)));
      });
    try {
      await until((l) => l.some((e) => e.event === 'watching'));
      expect(lines[0]).toMatchObject({ event: 'watching', table });
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#w1' }, SK: { S: 'PROFILE' } } }));
      await until((l) => l.filter((e) => e.event === 'problem').length === 2);
      expect(
        lines
          .slice(1)
          .map((e) =>
            e.event === 'problem' ? `${e.problem.kind} ${e.problem.value} ${e.cause.eventName} ${String(e.cause.keys.PK)}` : e.event,
          )
          .sort(),
      ).toEqual(['orphan-lock ada REMOVE ACCT#w1', 'orphan-lock ada@lovelace.io REMOVE ACCT#w1']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });
});
