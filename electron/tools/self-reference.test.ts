/**
 * The product speaks of itself: no work-session or issue numbers, no review rounds, and no
 * before-and-after timings in code, comments, test names or docs. A comment says why the code is as
 * it is; how a figure was reached is git history, and the figures themselves live in docs/benchmarks.md.
 */
import { describe, expect, it } from 'vitest';
import { readRepoFile, trackedFiles } from './doc-files';

const SELF = 'electron/tools/self-reference.test.ts';
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|md|json|yml|yaml|css|html)$|^bin\/locksmith$|^\.ci\//;
// Built from parts, so this file does not match itself.
const SESSION = new RegExp(['\\bsess', 'ions? #?\\d'].join(''), 'i');
const ISSUE = new RegExp(['\\biss', 'ues? #?\\d'].join(''), 'i');
const REVIEW = new RegExp(['\\brevi', 'ew #?\\d'].join(''), 'i');
/** A before → after figure: `~70 → ~25 ms`, `3.5× → 3.0×`, `120 ms -> 80 ms`. */
const BEFORE_AFTER = /~?\d[\d.,]*\s*(?:ms|s|µs|MiB|MB|KiB|KB|GiB|GB|%|×)?\s*(?:→|->)\s*~?\d[\d.,]*\s*(?:ms|s|µs|MiB|MB|KiB|KB|GiB|GB|%|×)/;

/** Lines of the tracked text files that speak of how the product was made. */
function offences(pattern: RegExp, exempt: (path: string) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const path of trackedFiles()) {
    if (path === SELF || path === 'package-lock.json' || !TEXT.test(path) || exempt(path)) continue;
    readRepoFile(path)
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`${path}:${index + 1}: ${line.trim().slice(0, 160)}`);
      });
  }
  return found;
}

describe('the product speaks of itself', () => {
  it('names no work session', () => {
    expect(offences(SESSION)).toEqual([]);
  });

  it('names no issue number', () => {
    expect(offences(ISSUE)).toEqual([]);
  });

  it('names no review round', () => {
    expect(offences(REVIEW)).toEqual([]);
  });

  it('quotes no before → after figure outside docs/benchmarks.md', () => {
    expect(offences(BEFORE_AFTER, (path) => path === 'docs/benchmarks.md')).toEqual([]);
  });
});
