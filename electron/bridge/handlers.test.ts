/**
 * Keeps "adding a method = one contract entry + one service function" true: the handler table has
 * exactly one short entry per contract method, no other file of the bridge names a method, and
 * the bridge's files stay small (the per-method code lives in the services).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../shared/contract/api';

const BRIDGE = __dirname;
/** The bridge's own code (tests and test support excluded). */
const sources = readdirSync(BRIDGE, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('testing'))
  .map((file) => ({ file, text: readFileSync(join(BRIDGE, file), 'utf8') }));
const handlers = sources.find((s) => s.file === 'handlers.ts')?.text ?? '';
/** Handler entries: `'<method>': …` up to the next entry, blank line or the end of the table. */
const entries = [...handlers.matchAll(/^ {4}'([a-z]+\.[A-Za-z]+)': ([\s\S]*?)(?=\n {4}'|\n\n|\n {2}\};)/gm)].map((m) => ({
  method: m[1] ?? '',
  lines: (m[2] ?? '').split('\n').length,
}));

describe('the handler table', () => {
  it('has exactly one entry per contract method, in contract order', () => {
    expect(entries.map((e) => e.method)).toEqual(METHOD_NAMES);
  });

  it('keeps each entry to one call of a service function (at most a few lines)', () => {
    expect(entries.filter((e) => e.lines > 5)).toEqual([]);
  });

  it('is the only file of the bridge that names a method', () => {
    const naming = sources
      .filter((s) => s.file !== 'handlers.ts' && METHOD_NAMES.some((m) => s.text.includes(`'${m}'`)))
      .map((s) => s.file);
    expect(naming).toEqual([]);
  });

  it('leaves every file of the bridge under 200 lines', () => {
    expect(sources.filter((s) => s.text.split('\n').length > 200).map((s) => s.file)).toEqual([]);
  });
});
