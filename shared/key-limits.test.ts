import { describe, expect, it } from 'vitest';
import { layoutFor } from './conventions/test-layouts';
import {
  checkKeyValue,
  checkLockKeyLimits,
  maxValueBytes,
  PARTITION_KEY_MAX_BYTES,
  SORT_KEY_MAX_BYTES,
  utf8ByteLength,
} from './key-limits';

describe('utf8ByteLength', () => {
  it.each([
    ['', 0],
    ['ada', 3],
    ['é', 2],
    ['백과', 6],
    ['😀', 4],
    ['a\uD800b', 5],
  ])('%j is %i bytes', (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
    if (!/[\uD800-\uDFFF]/.test(text)) expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
  });
});

describe('key limits', () => {
  it.each([
    ['a'.repeat(PARTITION_KEY_MAX_BYTES), 'partition', true],
    ['a'.repeat(PARTITION_KEY_MAX_BYTES + 1), 'partition', false],
    ['a'.repeat(SORT_KEY_MAX_BYTES), 'sort', true],
    ['가'.repeat(342), 'sort', false],
    ['가'.repeat(341), 'sort', true],
    ['', 'partition', false],
  ] as const)('%#: %s key of its length ok=%s', (text, part, fine) => {
    expect(checkKeyValue(text, part).ok).toBe(fine);
  });

  it('says how many bytes and how many too many', () => {
    const r = checkKeyValue('a'.repeat(2051), 'partition', 'hash');
    expect(r).toEqual({
      ok: false,
      error: {
        kind: 'validation',
        message: 'the partition key is 2,051 bytes in UTF-8; DynamoDB allows at most 2,048 (3 too many)',
        field: 'hash',
      },
    });
  });

  it('checks a lock key, counting the template prefix', () => {
    const email = layoutFor('uniq').convention.rules[0]!;
    const room = maxValueBytes(email);
    expect(room).toBe(PARTITION_KEY_MAX_BYTES - 'UNIQ#EMAIL#'.length);
    expect(checkLockKeyLimits(email, 'a'.repeat(room)).ok).toBe(true);
    const over = checkLockKeyLimits(email, 'a'.repeat(room - 2) + 'é!');
    expect(over.ok).toBe(false);
    if (!over.ok)
      expect(over.error.message).toBe(
        `EMAIL: the lock key is 2,049 bytes in UTF-8; DynamoDB allows at most 2,048 for a partition key, so the value may have at most 2,037 bytes (it has 2,038)`,
      );
    expect(checkLockKeyLimits(email, '').ok).toBe(false);
  });
});
