import { describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import { holderScanFilter, holderScanProjection } from './holder-scan';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { holderIndex } from './holder-reads';
import { foundLockNotes, lookupValue } from './lookup';

const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const [email, handle] = convention.rules;

describe('holderIndex', () => {
  const gsi = (name: string, attribute: string, status?: string) => ({
    name,
    hash: { name: attribute, type: 'S' as const },
    projection: 'ALL',
    ...(status ? { status } : {}),
  });

  it('picks an active index whose partition key is the rule attribute', () => {
    expect(holderIndex([gsi('by-name', 'name'), gsi('by-email', 'email', 'ACTIVE')], email!)?.name).toBe('by-email');
  });

  it('ignores indexes still being built', () => {
    expect(holderIndex([gsi('by-email', 'email', 'CREATING')], email!)).toBeUndefined();
  });
});

describe('holder scan', () => {
  it('projects keys and the rules’ attributes only', () => {
    expect(holderScanProjection(convention, [{ rule: email!, index: 0, normalized: 'a', forms: ['a'] }])).toEqual({
      expression: '#p0, #p1, #p2',
      names: { '#p0': 'PK', '#p1': 'SK', '#p2': 'email' },
    });
  });

  it('filters exactly for rules without normalization (string and number forms)', () => {
    const plain = { ...handle!, normalize: [] };
    expect(holderScanFilter([{ rule: plain, index: 1, normalized: '42', forms: ['42'] }])).toEqual({
      expression: '(#f0 = :f0s0 OR #f0 = :f0n0)',
      names: { '#f0': 'username' },
      values: { ':f0s0': { S: '42' }, ':f0n0': { N: '42' } },
    });
  });

  it('only requires the attribute for normalizing rules (the comparison happens after normalizing)', () => {
    expect(holderScanFilter([{ rule: email!, index: 0, normalized: 'a@b', forms: ['a@b', 'A@B'] }])).toEqual({
      expression: 'attribute_exists(#f0)',
      names: { '#f0': 'email' },
    });
  });
});

describe('found-lock notes', () => {
  const probe = (PK: string, exists = true) => ({ key: { PK, SK: 'LOCK' }, exists, legacy: false });

  it('says when a found lock is malformed (the audit reports it as malformed-lock)', () => {
    const notes = foundLockNotes(convention, 1, [probe('UNIQ#HANDLE#undefined')]);
    expect(notes.join(' ')).toMatch(/UNIQ#HANDLE#undefined \/ LOCK exists but is malformed: .*literal `undefined`/);
  });

  it('says when a lock is written in a spelling other than the canonical one', () => {
    const notes = foundLockNotes(convention, 1, [probe('UNIQ#HANDLE#ada', false), probe('UNIQ#HANDLE#Ada')]);
    expect(notes).toEqual([
      'lock UNIQ#HANDLE#Ada / LOCK is written with the value as typed, not normalized (trim, lowercase): new claims and releases use UNIQ#HANDLE#ada / LOCK',
    ]);
  });

  it('says nothing about a canonical lock', () => {
    expect(foundLockNotes(convention, 1, [probe('UNIQ#HANDLE#ada')])).toEqual([]);
  });
});

describe('lookupValue validation', () => {
  it('refuses a value that is empty after the rule normalization, before reading anything', async () => {
    const client = { send: () => Promise.reject(new Error('must not be called')) } as unknown as DynamoDBClient;
    const answer = await lookupValue({ client, table: { name: 't', gsis: [] }, convention, value: '   ', rule: 'HANDLE' });
    expect(answer).toEqual({
      ok: false,
      error: { kind: 'validation', message: 'HANDLE: the value is empty after normalization (trim, lowercase)', field: 'value' },
    });
  });
});
