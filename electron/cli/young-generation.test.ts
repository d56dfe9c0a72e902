// fixYoungGeneration changes V8 flags for the whole process: each case runs in a child node, the
// same allocation pattern as a scan (parsed pages, part of each kept), with and without the fix.
// The child runs the module compiled to plain JavaScript: a TypeScript loader would itself grow the
// new space before the module runs, as the CLI bundle does not.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('./young-generation.ts', import.meta.url));
let dir = '';
let MODULE = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'locksmith-young-'));
  MODULE = join(dir, 'young-generation.mjs');
  writeFileSync(MODULE, (await transform(readFileSync(SOURCE, 'utf8'), { loader: 'ts', format: 'esm' })).code);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The semi-space's size (MiB) after a scan-like allocation pattern, in a fresh node; `fix` first when given. */
async function newSpaceAfterPages(
  fix: number | undefined,
  nodeFlags: readonly string[] = [],
): Promise<{ fixed: number | undefined; after: number }> {
  const script = `
    import { fixYoungGeneration, semiSpaceMib } from ${JSON.stringify(MODULE)};
    const fixed = ${fix === undefined ? 'undefined' : `fixYoungGeneration(${fix})`};
    const page = JSON.stringify(Array.from({ length: 8000 }, (_, i) => ({ PK: { S: 'ACCT#' + i }, email: { S: 'someone.' + i + '@example.com' } })));
    const kept = [];
    for (let i = 0; i < 40; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      const items = JSON.parse(page);
      for (let j = 0; j < items.length; j += 2) kept.push(items[j].email.S + i);
    }
    process.stdout.write(JSON.stringify({ fixed, after: semiSpaceMib(), kept: kept.length }));`;
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeFlags, '--input-type=module', '-e', script]);
  return JSON.parse(stdout) as { fixed: number | undefined; after: number };
}

describe('fixYoungGeneration', () => {
  it('grows the new space once to the size asked for and keeps it there while pages are parsed', async () => {
    const [control, fixed] = await Promise.all([newSpaceAfterPages(undefined), newSpaceAfterPages(4)]);
    // Without the fix the same pages grow it past 4 MiB: the case below would pass for nothing otherwise.
    expect(control.after).toBeGreaterThan(4);
    expect(fixed.fixed).toBe(4);
    expect(fixed.after).toBe(4);
  }, 30_000);

  it('stops at a lower maximum node was started with, after one growth', async () => {
    const capped = await newSpaceAfterPages(4, ['--max-semi-space-size=2']);
    expect(capped.fixed).toBe(2);
    expect(capped.after).toBe(2);
  }, 30_000);
});
