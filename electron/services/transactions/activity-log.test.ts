import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from './activity-log';
import { rememberSecrets } from '../dynamo/secrets';
import { appendActivity, activityLine, activityLogPath, readActivity, recordedStatus } from './activity-log';

const ENTRY: ActivityEntry = {
  time: '2026-12-01T08:00:00.000Z',
  connection: 'profile prod',
  region: 'eu-west-1',
  endpoint: 'aws',
  table: 'accounts',
  previewId: 'pv_1',
  token: '0f1e2d3c-0000-4000-8000-000000000000',
  kind: 'release',
  summary: 'Release handle `ada`',
  request: { TransactItems: [], ClientRequestToken: '0f1e2d3c-0000-4000-8000-000000000000' },
  outcome: {
    status: 'error',
    error: { kind: 'aws', message: 'denied for AKIAIOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  },
};

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('activity log', () => {
  it('reads and appends to the file earlier versions wrote, audit-log.jsonl (the module was renamed, the file was not)', async () => {
    await writeFile(join(dir, 'audit-log.jsonl'), `${JSON.stringify({ ...ENTRY, summary: 'written by an earlier version' })}\n`, {
      mode: 0o600,
    });
    await appendActivity({ ...ENTRY, summary: 'written now' }, { dataDir: dir });
    expect(activityLogPath(dir)).toBe(join(dir, 'audit-log.jsonl'));
    expect((await readActivity({ dataDir: dir })).map((e) => e.summary)).toEqual(['written now', 'written by an earlier version']);
  });

  it('reads back the status each outcome recorded, and `unknown` for a line this version did not write (#14: one status set)', async () => {
    const outcomes: ActivityEntry['outcome'][] = [
      { status: 'succeeded', token: 't', attempts: 1, message: 'applied' },
      { status: 'cancelled', token: 't', attempts: 1, message: 'held', reasons: [] },
      { status: 'refused', message: 'holders changed', holders: [] },
      { status: 'error', error: { kind: 'aws', message: 'denied' } },
    ];
    for (const outcome of outcomes) await appendActivity({ ...ENTRY, outcome }, { dataDir: dir });
    await writeFile(
      activityLogPath(dir),
      `${JSON.stringify({ ...ENTRY, outcome: { status: 'executed' } })}\n${JSON.stringify({ ...ENTRY, outcome: 'ok' })}\n`,
      { flag: 'a' },
    );
    const read = await readActivity({ dataDir: dir });
    expect(read.map(recordedStatus)).toEqual(['unknown', 'unknown', 'error', 'refused', 'cancelled', 'succeeded']);
  });

  it('scrubs access key ids, known secrets and credential-named fields, and keeps the token', () => {
    const withCreds = { ...ENTRY, credentials: { accessKeyId: 'x' } } as ActivityEntry;
    const line = activityLine(withCreds, ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY']);
    expect(line).not.toMatch(/AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/);
    expect(line).toContain('"credentials":"***"');
    expect(line).toContain('"token":"0f1e2d3c-0000-4000-8000-000000000000"');
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
  });

  it('keeps the exact request: attributes named like secrets are data, not credentials (#16 finding 8)', () => {
    const request = {
      TransactItems: [
        {
          Put: {
            TableName: 'accounts',
            Item: { PK: { S: 'UNIQ#ALIAS#bob' }, SK: { S: 'LOCK' }, secretAlias: { S: 'bob' }, sessionToken: { S: 'not-a-credential' } },
          },
        },
      ],
      ClientRequestToken: '0f1e2d3c-0000-4000-8000-000000000000',
    } as ActivityEntry['request'];
    const logged = JSON.parse(activityLine({ ...ENTRY, request })) as ActivityEntry;
    expect(logged.request).toEqual(request);
  });

  it('scrubs a secret value the process knows wherever it appears, keeping the attribute (#16 finding 2)', () => {
    rememberSecrets('KnownSessionToken0123456789abcdef');
    const request = {
      TransactItems: [{ Put: { TableName: 'accounts', Item: { PK: { S: 'x' }, note: { S: 'KnownSessionToken0123456789abcdef' } } } }],
      ClientRequestToken: 't',
    } as ActivityEntry['request'];
    const line = activityLine({
      ...ENTRY,
      request,
      outcome: { status: 'error', error: { kind: 'validation', message: 'echo KnownSessionToken0123456789abcdef' } },
    });
    expect(line).not.toContain('KnownSessionToken0123456789abcdef');
    expect(line).toContain('"note":{"S":"***"}');
    expect(line).toContain('echo ***');
  });

  it('appends lines with mode 0600 (tightening an existing file) and reads them newest first', async () => {
    await writeFile(activityLogPath(dir), '', { mode: 0o644 });
    await appendActivity(ENTRY, { dataDir: dir });
    await appendActivity({ ...ENTRY, previewId: 'pv_2' }, { dataDir: dir });
    expect((await stat(activityLogPath(dir))).mode & 0o777).toBe(0o600);
    expect((await readFile(activityLogPath(dir), 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    expect((await readActivity({ dataDir: dir })).map((e) => e.previewId)).toEqual(['pv_2', 'pv_1']);
    expect((await readActivity({ dataDir: dir, limit: 1 })).map((e) => e.previewId)).toEqual(['pv_2']);
  });

  it('reads no activity from a missing file and skips a torn line', async () => {
    expect(await readActivity({ dataDir: dir })).toEqual([]);
    await appendActivity(ENTRY, { dataDir: dir });
    await writeFile(activityLogPath(dir), '{"torn', { flag: 'a' });
    expect(await readActivity({ dataDir: dir })).toHaveLength(1);
  });
});
