/**
 * A source file a newcomer opens should fit in one reading: none over 300 lines. Tests, test support
 * (`testing/` folders, e2e), and the bench are measured by other standards and are left out.
 */
import { describe, expect, it } from 'vitest';
import { readRepoFile, trackedFiles } from './doc-files';

const LIMIT = 300;

/** Whether a tracked path is product source held to the limit. */
function heldToLimit(path: string): boolean {
  if (!/\.(?:ts|tsx|mjs|js)$/.test(path)) return false;
  if (/\.(?:test|spec)\.tsx?$/.test(path) || /\.d\.mts$/.test(path)) return false;
  return !/(?:^|\/)(?:testing|fixtures)\//.test(path) && !/^(?:bench|e2e)\//.test(path);
}

describe('source files', () => {
  it(`stay at ${LIMIT} lines or fewer`, () => {
    const held = trackedFiles().filter(heldToLimit);
    const over = held
      .map((path) => ({ path, lines: readRepoFile(path).split('\n').length - 1 }))
      .filter(({ lines }) => lines > LIMIT)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(over).toEqual([]);
    expect(held.length).toBeGreaterThan(300);
  });

  it('are told from tests, test support and the bench', () => {
    expect(heldToLimit('shared/audit/engine.ts')).toBe(true);
    expect(heldToLimit('renderer/src/features/inspector/inspector-table.tsx')).toBe(true);
    expect(heldToLimit('shared/audit/engine.test.ts')).toBe(false);
    expect(heldToLimit('electron/testing/reliability/catalogue.ts')).toBe(false);
    expect(heldToLimit('bench/run.ts')).toBe(false);
    expect(heldToLimit('e2e/claim.spec.ts')).toBe(false);
  });
});
