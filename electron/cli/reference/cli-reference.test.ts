import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE_PATH, cliReference } from './cli-reference';
import { COMMANDS } from '../registry';

const committed = (): string => readFileSync(fileURLToPath(new URL(`../../../${CLI_REFERENCE_PATH}`, import.meta.url)), 'utf8');

describe('docs/cli.md', () => {
  it('is exactly what `npm run docs:cli` generates from the commands (run it after changing a command)', async () => {
    expect(committed()).toBe(await cliReference());
  }, 30_000);

  it('has a section for every command', () => {
    const text = committed();
    for (const { name } of COMMANDS) expect(text).toContain(`\n## ${name}\n`);
  });
});
