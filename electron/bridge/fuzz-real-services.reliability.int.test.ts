/**
 * Extends bridge.fuzz.test.ts (fake services) to the real composed app over the run's DynamoDB
 * Local: random, mutated and valid-but-odd arguments for every contract method, with the real
 * connection id and table swapped in half the time so calls reach the real services. Every call
 * answers with a Result, nothing throws, and the table is byte-identical afterwards.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { METHOD_NAMES, type MethodName } from '../../shared/contract/api';
import { EXAMPLE_ARGS } from '../../shared/contract/examples';
import { layoutFor } from '../../shared/conventions/test-layouts';
import { err } from '../../shared/result';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { recordFigures } from '../testing/reliability/figures';
import { HOSTILE_VALUES } from '../testing/reliability/hostile-corpus';
import { composeApp, type ComposedApp } from './compose';

const ROUNDS = 40;
const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
let dir = '';
let table = '';
let app: ComposedApp;
let connectionId = '';
let calls = 0;
let internalErrors = 0;

/** Deterministic PRNG (mulberry32): a failure replays from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD: readonly unknown[] = [
  null,
  undefined,
  true,
  0,
  -1,
  1e308,
  NaN,
  '',
  ' ',
  'x'.repeat(100_000),
  '\ud800',
  '__proto__',
  ...HOSTILE_VALUES,
  [],
  {},
  [[[]]],
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** A valid example pointed at the real connection and table, then maybe one field replaced. */
function argsFor(name: MethodName, random: () => number): unknown {
  const example = JSON.parse(JSON.stringify(EXAMPLE_ARGS[name])) as Record<string, unknown>;
  if ('connectionId' in example && random() < 0.7) example.connectionId = connectionId;
  if ('id' in example && random() < 0.5) example.id = connectionId;
  if ('table' in example && random() < 0.7) example.table = table;
  const roll = random();
  if (roll < 0.3) return example;
  if (roll < 0.4) return pick(random, ODD);
  const keys = Object.keys(example);
  const key = keys.length > 0 ? pick(random, keys) : 'extra';
  if (roll < 0.55) delete example[key];
  else if (roll < 0.9) example[key] = pick(random, ODD);
  else example[pick(random, ['extra', '__proto__', 'constructor'])] = pick(random, ODD);
  return example;
}

async function snapshot(): Promise<string> {
  const items = (await admin.send(new ScanCommand({ TableName: table, ConsistentRead: true }))).Items ?? [];
  return items
    .map((i) => JSON.stringify(i))
    .sort()
    .join('\n');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-fuzz-real-'));
  table = await createTempTable(admin, layout.convention.keys, 'fuzz');
  await putItems(admin, table, [
    layout.account('a1', { username: 'ada', email: 'ada@lovelace.io' }),
    layout.lock('HANDLE', 'ada'),
    layout.lock('HANDLE', 'orphan'),
  ]);
  app = composeApp({
    mode: 'browser',
    version: 'fuzz',
    env: { LOCKSMITH_DATA_DIR: join(dir, 'data'), AWS_CONFIG_FILE: join(dir, 'none'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none') },
    // A fuzzed sandbox.start must not launch a JVM.
    startSandbox: async () => err('not-found', 'no sandbox in this test'),
    log: { refused: () => undefined, failed: () => void (internalErrors += 1) },
  });
  const added = await app.dispatch('connections.addEndpoint', { endpoint, region: 'us-east-1' }, 'http', { trusted: true, label: 'fuzz' });
  if (!added.ok) throw new Error(added.error.message);
  connectionId = (added.value as { id: string }).id;
});

afterAll(async () => {
  await app.shutdown();
  await deleteTable(admin, table);
  await rm(dir, { recursive: true, force: true });
});

describe('bridge fuzz against the real services', () => {
  it.each(METHOD_NAMES)('%s: always a Result, never a throw or an internal error, never a write', async (name) => {
    const before = await snapshot();
    const random = prng([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 11));
    for (let round = 0; round < ROUNDS; round++) {
      const args = argsFor(name, random);
      const result = await app.dispatch(name, args, round % 2 === 0 ? 'ipc' : 'http', { trusted: true, label: 'fuzz' });
      calls += 1;
      expect(typeof result.ok, `${name} round ${round}`).toBe('boolean');
      if (!result.ok) expect(result.error.kind, `${name} round ${round}: ${result.error.message}`).not.toBe('internal');
    }
    expect(await snapshot()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves a readable settings file and no internal errors', async () => {
    const settings = await readFile(join(dir, 'data', 'settings.json'), 'utf8');
    expect(() => JSON.parse(settings) as unknown).not.toThrow();
    expect(internalErrors).toBe(0);
    await recordFigures('fuzz-real', { methods: METHOD_NAMES.length, rounds: ROUNDS, calls, internalErrors, writes: 0 });
  });
});
