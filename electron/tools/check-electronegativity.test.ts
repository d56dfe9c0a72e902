import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { judge, type Finding } from './check-electronegativity';

const finding = (id: string, severity: string, file = '/repo/electron/main/main.ts'): Finding => ({
  id,
  file,
  location: { line: 1, column: 1 },
  severity: { name: severity },
  confidence: { name: 'FIRM' },
});

describe('electronegativity check', () => {
  it('fails on unreviewed HIGH and MEDIUM findings, not on LOW or reviewed ones', () => {
    const reviewed = [{ id: 'PRELOAD_JS_CHECK', file: 'electron/main/main.ts', reason: 'ours' }];
    const { failures, stale } = judge(
      [finding('PRELOAD_JS_CHECK', 'MEDIUM'), finding('CSP_GLOBAL_CHECK', 'LOW'), finding('NODE_INTEGRATION_JS_CHECK', 'HIGH')],
      '/repo',
      reviewed,
    );
    expect(failures.map((f) => f.id)).toEqual(['NODE_INTEGRATION_JS_CHECK']);
    expect(stale).toEqual([]);
  });

  it('reports reviewed entries that no longer match (they must not outlive the code)', () => {
    const { stale } = judge([], '/repo', [{ id: 'PRELOAD_JS_CHECK', file: 'electron/main/main.ts', reason: 'ours' }]);
    expect(stale).toHaveLength(1);
  });

  it('catches an insecure window with the real scanner', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'locksmith-eneg-'));
    try {
      await writeFile(
        join(dir, 'main.js'),
        "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
      );
      const run = createRequire(import.meta.url)('@doyensec/electronegativity') as (o: object) => Promise<{ issues: Finding[] }>;
      const result = await run({ input: dir, electronVersionOverride: '45.5.0', customScan: [], excludeFromScan: [], parserPlugins: [] });
      const { failures } = judge(result.issues, dir, []);
      expect(failures.map((f) => f.id)).toEqual(
        expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
