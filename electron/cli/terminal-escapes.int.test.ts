/**
 * Item data chosen by an attacker (an end user's username) must not drive the operator's terminal:
 * every readable command marks ESC, BEL, CSI, OSC 52, the C1 CSI U+009B, DEL, newlines and bidi
 * controls that come from items; `--json` stays the exact JSON of the stored values.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditReport } from '../../shared/audit/types';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../shared/conventions/presets';
import type { Item } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { createStreamTable, signup } from '../services/watch/testing-watch';
import type { LookupAnswer } from '../services/lookup/lookup-types';
import { main } from './main';
import { captureIo } from './testing-io';

const endpoint = inject('dynamoEndpoint');

/** Erase the line, move up, forge a clean verdict, ring, write the clipboard (OSC 52), C1 CSI, DEL, a bidi override. */
const HOSTILE = 'eve\u001b[2K\u001b[1A\rNo problems found.\u0007\u001b]52;c;ZXZpbA==\u0007\u009b31m\u007f\u202eecila';
/** A key with a newline and a window-title sequence in it. */
const HOSTILE_ACCOUNT = 'ACCT#m\n\u001b]0;pwned\u0007';

/** Any control character but newline (which the output's own lines use), DEL, C1, or a bidi control. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const s = (value: string): { S: string } => ({ S: value });
const KEYS = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } } as const;
const ITEMS: readonly Item[] = [
  // A healthy account, so detection has something to pair.
  { PK: s('ACCT#h1'), SK: s('PROFILE'), email: s('ok@example.com'), username: s('ok') },
  { PK: s('UNIQ#EMAIL#ok@example.com'), SK: s('LOCK') },
  { PK: s('UNIQ#HANDLE#ok'), SK: s('LOCK') },
  // An orphan lock whose value is the hostile text.
  { PK: s(`UNIQ#HANDLE#${HOSTILE}`), SK: s('LOCK') },
  // An account whose key and email are hostile, its email lock missing.
  { PK: s(HOSTILE_ACCOUNT), SK: s('PROFILE'), email: s(`${HOSTILE}@example.com`), username: s('mallory') },
  { PK: s('UNIQ#HANDLE#mallory'), SK: s('LOCK') },
];

let admin: DynamoDBClient;
let table = '';
const made: string[] = [];

beforeAll(async () => {
  admin = testClient(endpoint);
  table = await createTempTable(admin, KEYS, 'cli-escapes');
  made.push(table);
  await putItems(admin, table, ITEMS);
});

afterAll(async () => {
  for (const name of made) await deleteTable(admin, name);
  admin.destroy();
});

async function run(args: readonly string[], signal?: AbortSignal): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({}, signal);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

function expectNoRawControls(text: string): void {
  const found = RAW_CONTROL.exec(text);
  expect(
    found
      ? `U+${found[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${found.index}: ${JSON.stringify(text.slice(Math.max(0, found.index - 40), found.index + 20))}`
      : 'none',
  ).toBe('none');
}

describe('readable output marks control characters from items', () => {
  it('audit: no raw control reaches the terminal, and the forged verdict is visibly quoted', async () => {
    const result = await run(['audit', '--endpoint', endpoint, '--table', table, '--preset', 'uniq']);
    expect(result.code).toBe(1);
    expectNoRawControls(result.out);
    expectNoRawControls(result.err);
    expect(result.out).toContain('⟨U+001B CONTROL⟩[2K');
    expect(result.out).toContain('⟨U+009B CONTROL⟩31m');
    expect(result.out).toContain('⟨U+202E RLO⟩ecila');
    expect(result.out).toContain('ACCT#m⟨U+000A CONTROL⟩');
  });

  it('audit --json: the exact stored values, parsed back', async () => {
    const result = await run(['audit', '--endpoint', endpoint, '--table', table, '--preset', 'uniq', '--json']);
    expectNoRawControls(result.out.replace(/\n$/, ''));
    const report = JSON.parse(result.out) as AuditReport;
    expect(report.problems.map((p) => p.value)).toEqual(expect.arrayContaining([HOSTILE, `${HOSTILE}@example.com`.toLowerCase()]));
    expect(report.problems.flatMap((p) => p.accounts ?? []).map((k) => k.PK)).toContain(HOSTILE_ACCOUNT);
  });

  it('lookup: the value, its lock key and its holder are marked', async () => {
    const orphan = await run([
      'lookup',
      '--endpoint',
      endpoint,
      '--table',
      table,
      '--preset',
      'uniq',
      '--rule',
      'HANDLE',
      '--value',
      HOSTILE,
    ]);
    expectNoRawControls(orphan.out);
    expectNoRawControls(orphan.err);
    expect(orphan.out).toContain('ORPHAN');
    const held = await run([
      'lookup',
      '--endpoint',
      endpoint,
      '--table',
      table,
      '--preset',
      'uniq',
      '--rule',
      'HANDLE',
      '--value',
      'mallory',
    ]);
    expectNoRawControls(held.out);
    expect(held.out).toContain('ACCT#m⟨U+000A CONTROL⟩⟨U+001B CONTROL⟩]0;pwned⟨U+0007 CONTROL⟩');
    const json = await run([
      'lookup',
      '--endpoint',
      endpoint,
      '--table',
      table,
      '--preset',
      'uniq',
      '--rule',
      'HANDLE',
      '--value',
      'mallory',
      '--json',
    ]);
    expect((JSON.parse(json.out) as LookupAnswer).rules[0]?.holders).toEqual([{ PK: HOSTILE_ACCOUNT, SK: 'PROFILE' }]);
  });

  it('repair: the plan, the transaction outcomes and the summary are marked', async () => {
    const plan = await run(['repair', '--endpoint', endpoint, '--table', table, '--preset', 'uniq']);
    expectNoRawControls(plan.out);
    expectNoRawControls(plan.err);
    expect(plan.out).toContain('release handle `eve⟨U+001B CONTROL⟩[2K');
    const copy = await createTempTable(admin, KEYS, 'cli-escapes-repair');
    made.push(copy);
    await putItems(admin, copy, ITEMS);
    // A reviewed convention file: --yes refuses to write from a detected guess.
    const file = join(await mkdtemp(join(tmpdir(), 'locksmith-')), 'convention.json');
    await writeFile(file, JSON.stringify(presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq)));
    const executed = await run(['repair', '--endpoint', endpoint, '--table', copy, '--convention', file, '--execute', '--yes']);
    expect(executed.code).toBe(0);
    expectNoRawControls(executed.out);
    expectNoRawControls(executed.err);
    expect(executed.out).toContain('applied and verified');
  });

  it('detect: evidence and the proposed file are marked', async () => {
    // Accounts keyed with a C1 CSI and a bidi override in their prefix: detection learns the prefix and prints it.
    const keyed = await createTempTable(admin, KEYS, 'cli-escapes-detect');
    made.push(keyed);
    const prefix = 'U\u009b2J\u202e#';
    await putItems(
      admin,
      keyed,
      ['a1', 'a2', 'a3'].flatMap((id): Item[] => [
        { PK: s(`${prefix}${id}`), SK: s('PROFILE'), email: s(`${id}@example.com`), username: s(id) },
        { PK: s(`UNIQ#EMAIL#${id}@example.com`), SK: s('LOCK') },
        { PK: s(`UNIQ#HANDLE#${id}`), SK: s('LOCK') },
      ]),
    );
    const result = await run(['detect', '--endpoint', endpoint, '--table', keyed]);
    expect(result.out).toContain('U+009B');
    expectNoRawControls(result.out);
    expectNoRawControls(result.err);
  });

  it('watch: the problem line names the hostile value and key, marked', async () => {
    const streamed = await createStreamTable(admin, 'cli-escapes-watch');
    made.push(streamed);
    await signup(admin, streamed, 'w1', 'ok@example.com', 'ok');
    const stop = new AbortController();
    const io = captureIo({}, stop.signal);
    const running = main(
      ['watch', '--endpoint', endpoint, '--table', streamed, '--preset', 'uniq', '--settle-ms', '200', '--poll-ms', '50'],
      io,
    );
    await expect.poll(() => io.out(), { timeout: 30_000 }).toContain('watching');
    await admin.send(new PutItemCommand({ TableName: streamed, Item: { PK: s(`UNIQ#HANDLE#${HOSTILE}`), SK: s('LOCK') } }));
    await expect.poll(() => io.out(), { timeout: 30_000 }).toContain('PROBLEM');
    stop.abort();
    await running;
    expectNoRawControls(io.out());
    expectNoRawControls(io.err());
    expect(io.out()).toContain('⟨U+202E RLO⟩ecila');
  });
});
