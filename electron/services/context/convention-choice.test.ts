import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { KeyedTableContext } from './request-context';
import { chooseConvention, detectSample } from './convention-choice';

// No request may reach the table: a saved convention is judged against the keys the context already holds.
const client = new Proxy({}, { get: () => () => Promise.reject(new Error('no request expected')) }) as unknown as DynamoDBClient;
const saved = layoutFor('uniq').convention;

function context(keys: KeyedTableContext['table']['keys']): KeyedTableContext {
  return { client, table: { name: 'users', keys } } as unknown as KeyedTableContext;
}

describe('a saved convention is used only while it fits the table', () => {
  it("is chosen when its keys are the table's", async () => {
    const out = await chooseConvention(context(saved.keys), undefined, saved);
    expect(out).toMatchObject({ ok: true, value: { conventionSource: 'saved' } });
  });

  it.each([
    ['other key names (re-created as pk/sk)', { hash: { name: 'pk', type: 'S' as const }, range: { name: 'sk', type: 'S' as const } }],
    ['hash and range swapped', { hash: { name: 'SK', type: 'S' as const }, range: { name: 'PK', type: 'S' as const } }],
    ['no range key any more', { hash: { name: 'PK', type: 'S' as const } }],
  ])('is refused, naming the table, when the table has %s', async (_name, keys) => {
    const out = await chooseConvention(context(keys), undefined, saved);
    expect(out).toMatchObject({
      ok: false,
      error: {
        kind: 'validation',
        field: 'convention',
        message: expect.stringContaining('The convention saved for users no longer fits the table'),
      },
    });
  });
});

describe('detection of a shared sample', () => {
  it('runs once per sample, key schema and preset, and again for another sample', () => {
    const layout = layoutFor('uniq');
    const sample = [
      layout.account('a1', { email: 'ada@x.io', username: 'ada' }),
      layout.lock('EMAIL', 'ada@x.io'),
      layout.lock('HANDLE', 'ada'),
    ];
    const keys = layout.convention.keys;
    const first = detectSample(keys, sample);
    expect(first.ok).toBe(true);
    // The same answer object: the survey and the audit start of one table detect once.
    expect(detectSample(keys, sample)).toBe(first);
    expect(detectSample(keys, [...sample])).not.toBe(first);
    expect(detectSample(keys, sample, 'uniq')).not.toBe(first);
  });
});
