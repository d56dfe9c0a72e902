import { describe, expect, it } from 'vitest';
import type { Convention } from '../model';
import { methods } from './methods';
import { conventionSchema, fieldPath } from './convention-schema';
import { EXAMPLE_CONVENTION } from './examples';

const withRule = (rule: Partial<Convention['rules'][number]>): Convention => ({
  ...EXAMPLE_CONVENTION,
  rules: [{ ...EXAMPLE_CONVENTION.rules[0]!, ...rule }],
});

describe('conventionSchema cross-field checks', () => {
  it('accepts the example convention', () => {
    expect(conventionSchema.safeParse(EXAMPLE_CONVENTION).success).toBe(true);
  });

  it.each([
    [
      'a lock key without a literal prefix in either key attribute (every item would be a lock)',
      withRule({ lockKeys: [{ hash: '{value}', range: '{value}' }] }),
      ['rules', 0, 'lockKeys', 0, 'hash'],
      /literal text/,
    ],
    [
      'a template without a range on a table with a sort key',
      withRule({ lockKeys: [{ hash: 'UNIQ#EMAIL#{value}' }] }),
      ['rules', 0, 'lockKeys', 0, 'range'],
      /sort key/,
    ],
    [
      'two identical templates',
      withRule({
        lockKeys: [
          { hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' },
          { hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' },
        ],
      }),
      ['rules', 0, 'lockKeys', 1, 'hash'],
      /could never match/,
    ],
    [
      'duplicate rule names',
      {
        ...EXAMPLE_CONVENTION,
        rules: [EXAMPLE_CONVENTION.rules[0]!, { ...EXAMPLE_CONVENTION.rules[0]!, lockKeys: [{ hash: 'U#{value}', range: 'LOCK' }] }],
      },
      ['rules', 1, 'name'],
      /duplicate/,
    ],
  ])('refuses %s, naming the field', (_what, convention, path, message) => {
    const parsed = conventionSchema.safeParse(convention);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path, message: expect.stringMatching(message) });
  });

  it('names the field under the method argument', () => {
    const parsed = methods['conventions.save'].args.safeParse({
      connectionId: 'sandbox',
      table: 'accounts',
      convention: withRule({ lockKeys: [{ hash: '{value}', range: '{value}' }] }),
    });
    expect(parsed.error?.issues[0]?.path).toEqual(['convention', 'rules', 0, 'lockKeys', 0, 'hash']);
  });

  it('splits field names into paths', () => {
    expect(fieldPath('rules[12].lockKeys[0].range')).toEqual(['rules', 12, 'lockKeys', 0, 'range']);
    expect(fieldPath('account')).toEqual(['account']);
  });
});
