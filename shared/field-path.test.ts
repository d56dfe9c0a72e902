import { describe, expect, it } from 'vitest';
import { formatFieldPath } from './field-path';

describe('formatFieldPath', () => {
  it.each<[PropertyKey[], string]>([
    [[], ''],
    [['account'], 'account'],
    [['rules', 1, 'lockKeys', 0, 'hash'], 'rules[1].lockKeys[0].hash'],
    [[0, 'name'], '[0].name'],
    [['matrix', 2, 3], 'matrix[2][3]'],
    [['rules', 0, 'scope', 'tenantId'], 'rules[0].scope.tenantId'],
  ])('%j → %s', (path, text) => {
    expect(formatFieldPath(path)).toBe(text);
  });
});
