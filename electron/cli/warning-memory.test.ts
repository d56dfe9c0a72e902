import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConventionWarning } from '../../shared/audit/fit';
import { layoutFor } from '../../shared/conventions/test-layouts';
import { captureIo } from './testing-io';
import { rememberWarnings, standingWarning, warnedRuleGate } from './warning-memory';

const convention = layoutFor('uniq').convention;
const other = layoutFor('uniq', { lockRange: 'L' }).convention;
const place = JSON.stringify(['http://localhost:8000', '', 'us-east-1', 'users']);
const warning: ConventionWarning = {
  rule: 'EMAIL',
  kind: 'values-elsewhere',
  counts: { rule: 'EMAIL', held: 60, healthy: 0, missing: 60, malformed: 0, embedded: 60, unmatched: 60 },
  message: 'the convention does not explain this table for rule EMAIL: 60 of its 60 missing values stand in keys of another layout',
};
let dataDir = '';
const env = (): NodeJS.ProcessEnv => ({ LOCKSMITH_DATA_DIR: dataDir });
const gate = (source: string, rule = 'EMAIL', dryRun = false, conv = convention) => {
  const io = captureIo(env());
  return warnedRuleGate(io, { place, resolved: { convention: conv, source }, rule, dryRun, refusedCode: 1 }).then((code) => ({
    code,
    err: io.err(),
  }));
};

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-warnings-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('warnings remembered for claim and release', () => {
  it('a claim under a warned rule of a detected or preset convention is refused, saying why and how to pass a reviewed one', async () => {
    await rememberWarnings(env(), place, convention, { complete: true, warnings: [warning] });
    for (const source of ['detected', 'preset', 'preset-defaults']) {
      const refused = await gate(source);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`refused: ${warning.message}`);
      expect(refused.err).toContain('pass it as --convention FILE');
    }
  });

  it('lets through a reviewed --convention FILE, another rule, another convention, and a dry run (with the warning)', async () => {
    await rememberWarnings(env(), place, convention, { complete: true, warnings: [warning] });
    expect(await gate('file')).toEqual({ code: undefined, err: '' });
    expect(await gate('detected', 'HANDLE')).toEqual({ code: undefined, err: '' });
    expect(await gate('detected', 'EMAIL', false, other)).toEqual({ code: undefined, err: '' });
    const dry = await gate('detected', 'EMAIL', true);
    expect(dry.code).toBeUndefined();
    expect(dry.err).toContain(`warning: ${warning.message}`);
  });

  it('a clean complete audit under the convention forgets the warning; an incomplete one changes nothing', async () => {
    await rememberWarnings(env(), place, convention, { complete: true, warnings: [warning] });
    await rememberWarnings(env(), place, convention, { complete: false, warnings: [] });
    expect(await standingWarning(env(), place, convention, 'EMAIL')).toEqual({ rule: 'EMAIL', message: warning.message });
    await rememberWarnings(env(), place, convention, { complete: true, warnings: [] });
    expect(await standingWarning(env(), place, convention, 'EMAIL')).toBeUndefined();
    expect((await gate('detected')).code).toBeUndefined();
  });
});
