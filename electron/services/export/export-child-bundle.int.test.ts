// The CLI bundle forks the export audit's child from its own build (bin/build-cli.mjs writes it beside the
// chunks), not the TypeScript source through tsx: no tsx start-up per export audit. Run from a folder
// outside the checkout, as a user runs it.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { AuditReport } from '../../../shared/audit/types';
import { cleanEnv } from '../../cli/testing-cli';
import { writeExport } from './write-export';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const layout = layoutFor('uniq');
const folders: string[] = [];
let cache = '';
let exportDir = '';

beforeAll(async () => {
  // The bundle leaves its dependencies to Node, found from the checkout: its cache folder stays inside it.
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  cache = mkdtempSync(join(ROOT, '.cache', 'cli-child-test-'));
  const work = mkdtempSync(join(tmpdir(), 'locksmith-child-bundle-'));
  folders.push(cache, work);
  await promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'build-cli.mjs')], { env: cleanEnv({ LOCKSMITH_CLI_CACHE: cache }) });
  exportDir = (
    await writeExport(
      { out: join(work, 'x'), keys: layout.convention.keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/users', partitions: 2 },
      [layout.account('a1', { email: 'a@x', username: 'a' }), layout.lock('EMAIL', 'a@x'), layout.lock('HANDLE', 'ghost')],
    )
  ).dir;
}, 60_000);
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The folder of the current build's chunks. */
const chunkDir = (): string =>
  dirname(join(cache, (JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as { entry: string }).entry));

describe('the export audit from the CLI bundle', () => {
  it('forks the bundled child beside the chunks, without tsx', () => {
    // The export audit's launcher is bundled into whichever chunk the audit command loads (its own or a shared one).
    const holder = readdirSync(chunkDir()).find(
      (name) =>
        name.endsWith('.js') && readFileSync(join(chunkDir(), name), 'utf8').includes('// electron/services/export/run-export-audit.ts'),
    );
    expect(holder).toBeDefined();
    const text = readFileSync(join(chunkDir(), holder!), 'utf8');
    // childEntry forks the built child found beside the chunk itself (tsx only when it is missing), and the build wrote it there.
    expect(text).toContain('join(import.meta.dirname, "export-audit-child.cjs")');
    expect(existsSync(join(chunkDir(), 'export-audit-child.cjs'))).toBe(true);
  });

  it('reports from a working folder outside the checkout', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'locksmith-elsewhere-'));
    folders.push(elsewhere);
    const run = await promisify(execFile)(join(ROOT, 'bin', 'locksmith'), ['audit', '--export', exportDir, '--preset', 'uniq', '--json'], {
      cwd: elsewhere,
      env: cleanEnv({ LOCKSMITH_CLI_CACHE: cache, LOCKSMITH_TRACE_LAUNCH: '1', LOCKSMITH_DATA_DIR: join(elsewhere, 'data') }),
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    // Exit 1: complete, with the planted problem (an orphan lock).
    expect({ code: 'code' in run ? run.code : 0, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: `locksmith launch: bundle ${join(chunkDir(), 'main.js')}\n`,
    });
    const report = JSON.parse(run.stdout) as AuditReport;
    expect({ scanned: report.scanned, orphans: report.summary['orphan-lock'] }).toEqual({ scanned: 3, orphans: 1 });
  });
});
