import { describe, expect, it } from 'vitest';
import { childEntry } from './run-export-audit';

describe('childEntry', () => {
  it('forks the built child beside the Electron main bundle when it is there, without tsx', () => {
    expect(childEntry('/app/dist-electron/export-audit-child.cjs', '/src/export-audit-child.ts', (p) => p.endsWith('.cjs'))).toEqual({ path: '/app/dist-electron/export-audit-child.cjs', execArgv: [] });
  });

  it('runs the source through tsx from the source tree (CLI, browser mode)', () => {
    expect(childEntry('/src/export-audit-child.cjs', '/src/export-audit-child.ts', () => false)).toEqual({ path: '/src/export-audit-child.ts', execArgv: ['--import', 'tsx'] });
  });

  it('finds no built child next to the sources', () => {
    expect(childEntry().path.endsWith('export-audit-child.ts')).toBe(true);
  });
});
