import { describe, expect, it } from 'vitest';
import { parseKeyInput } from './parse-key-input';

describe('parseKeyInput', () => {
  it('reads hash and hash+range keys', () => {
    expect(parseKeyInput('{"PK":"ACCT#1","SK":"PROFILE"}')).toEqual({ PK: 'ACCT#1', SK: 'PROFILE' });
    expect(parseKeyInput('{"userId":"u-1"}')).toEqual({ userId: 'u-1' });
  });

  it.each(['', 'nope', '[]', '{}', '{"a":1,"b":2,"c":3}', '{"a":{"S":"x"}}', 'null'])('rejects %j', (text) => {
    expect(parseKeyInput(text)).toBeUndefined();
  });
});
