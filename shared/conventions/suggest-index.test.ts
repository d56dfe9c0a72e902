import { describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from './presets';
import { shellQuote, suggestedIndexName, suggestIndexes, type IndexedTable } from './suggest-index';

const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const table = (extra: Partial<IndexedTable> = {}): IndexedTable => ({
  name: 'users',
  keys: PRESET_KEYS.uniq,
  gsis: [],
  billingMode: 'PAY_PER_REQUEST',
  ...extra,
});

describe('suggestIndexes', () => {
  it('gives the exact UpdateTable input and AWS CLI line for each rule without an index', () => {
    const [email, handle] = suggestIndexes(table(), convention);
    expect(email?.updateTable).toEqual({
      TableName: 'users',
      AttributeDefinitions: [{ AttributeName: 'email', AttributeType: 'S' }],
      GlobalSecondaryIndexUpdates: [
        {
          Create: {
            IndexName: 'locksmith-by-email',
            KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        },
      ],
    });
    expect(email?.awsCli).toBe(`aws dynamodb update-table --cli-input-json '${JSON.stringify(email?.updateTable)}'`);
    expect(handle?.attribute).toBe('username');
    expect(email?.notes.join(' ')).toMatch(/as stored.*trim, lowercase/);
  });

  it('names an active index that already serves a rule instead of suggesting another', () => {
    const [email, handle] = suggestIndexes(
      table({ gsis: [{ name: 'by-email', hash: { name: 'email', type: 'S' }, status: 'ACTIVE' }] }),
      convention,
    );
    expect(email).toMatchObject({ existing: 'by-email' });
    expect(email?.updateTable).toBeUndefined();
    expect(handle?.existing).toBeUndefined();
    // One still being created does not serve lookups yet.
    expect(
      suggestIndexes(
        table({ gsis: [{ name: 'by-email', hash: { name: 'email', type: 'S' }, status: 'CREATING' }] }),
        convention,
        'EMAIL',
      )[0]?.existing,
    ).toBeUndefined();
  });

  it('adds capacity for a provisioned table and says so; refuses an unknown rule', () => {
    const [email] = suggestIndexes(table({ billingMode: 'PROVISIONED' }), convention, 'EMAIL');
    expect(
      (email?.updateTable?.GlobalSecondaryIndexUpdates as { Create: Record<string, unknown> }[])[0]?.Create.ProvisionedThroughput,
    ).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 5 });
    expect(email?.notes.join(' ')).toMatch(/provisioned/);
    expect(() => suggestIndexes(table(), convention, 'PHONE')).toThrow('unknown rule PHONE (rules: EMAIL, HANDLE)');
  });

  it('makes names DynamoDB accepts and quotes for the shell', () => {
    expect(suggestedIndexName('e mail#1')).toBe('locksmith-by-e_mail_1');
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
  });
});
