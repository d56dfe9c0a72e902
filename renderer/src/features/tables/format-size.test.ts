import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount } from './format-size';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024, '5.0 MB'],
  ])('%d → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('formatCount', () => {
  it('groups thousands', () => expect(formatCount(1234567)).toBe('1,234,567'));
});
