/** #14 item 9: `locksmith serve` builds a stale renderer first, with the staleness check `npm start` uses. */
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRenderer, rendererStale } from '../../../bin/renderer-build.mjs';
import { CliError } from '../command';
import { ensureRendererBuilt } from './serve';

let root: string;
const OLD = new Date('2026-01-01T00:00:00Z');
const NEW = new Date('2026-06-01T00:00:00Z');

async function file(path: string, at: Date): Promise<void> {
  const full = join(root, path);
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, 'x');
  await utimes(full, at, at);
}

/** A build stand-in that records its calls and writes the entry page as Vite would. */
function fakeBuild(code: number | undefined) {
  const calls: string[] = [];
  const build = async (at: string): Promise<number | undefined> => {
    calls.push(at);
    if (code === 0) await file('dist/renderer/index.html', new Date());
    return code;
  };
  return { calls, build };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'locksmith-renderer-'));
  await file('renderer/src/main.tsx', OLD);
  await file('shared/model.ts', OLD);
  await file('vite.config.ts', OLD);
  await file('package.json', OLD);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('ensureRendererBuilt', () => {
  it('builds when nothing is built yet, and says so', async () => {
    const said: string[] = [];
    const { calls, build } = fakeBuild(0);
    await ensureRendererBuilt(root, { stderr: (line) => said.push(line) }, build);
    expect(calls).toEqual([root]);
    expect(said.join('')).toMatch(/Building the renderer/);
    expect(rendererStale(root)).toBe(false);
  });

  it.each([
    { name: 'a renderer source', path: 'renderer/src/features/x.tsx', stale: true },
    { name: 'a shared source', path: 'shared/audit/derive.ts', stale: true },
    { name: 'the Vite config', path: 'vite.config.ts', stale: true },
    { name: 'a test file only', path: 'renderer/src/features/x.test.tsx', stale: false },
    { name: 'a dot-folder only', path: 'renderer/.cache/x.ts', stale: false },
  ])('rebuilds after $name changed: $stale', async ({ path, stale }) => {
    await file('dist/renderer/index.html', new Date('2026-03-01T00:00:00Z'));
    await file(path, NEW);
    const { calls, build } = fakeBuild(0);
    await ensureRendererBuilt(root, { stderr: () => undefined }, build);
    expect(calls).toEqual(stale ? [root] : []);
  });

  it('leaves a fresh build alone', async () => {
    await file('dist/renderer/index.html', NEW);
    const { calls, build } = fakeBuild(0);
    await ensureRendererBuilt(root, { stderr: () => undefined }, build);
    expect(calls).toEqual([]);
  });

  it('refuses to start when the build fails', async () => {
    const { build } = fakeBuild(1);
    const failure = ensureRendererBuilt(root, { stderr: () => undefined }, build);
    await expect(failure).rejects.toBeInstanceOf(CliError);
    await expect(failure).rejects.toThrow(/renderer build failed \(vite exited with 1\)/);
  });

  it('without Vite: serves an old build with a warning, refuses when there is none', async () => {
    const noVite = fakeBuild(undefined);
    await expect(ensureRendererBuilt(root, { stderr: () => undefined }, noVite.build)).rejects.toThrow(
      /not built and Vite is not installed/,
    );
    await file('dist/renderer/index.html', OLD);
    await file('renderer/src/main.tsx', NEW);
    const said: string[] = [];
    await ensureRendererBuilt(root, { stderr: (line) => said.push(line) }, noVite.build);
    expect(said.join('')).toMatch(/Vite is not installed; serving the renderer as it was last built/);
  });

  it('servers started together build once: the others wait for that build and use it', async () => {
    let finish: (code: number) => void = () => undefined;
    const calls: string[] = [];
    const build = (at: string): Promise<number> => {
      calls.push(at);
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    };
    const first = ensureRendererBuilt(root, { stderr: () => undefined }, build);
    await expect.poll(() => calls.length).toBe(1);
    const second = ensureRendererBuilt(root, { stderr: () => undefined }, build);
    await file('dist/renderer/index.html', new Date());
    finish(0);
    await Promise.all([first, second]);
    expect(calls).toEqual([root]);
    await expect(stat(join(root, 'dist', '.renderer-build.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('the real build reports a checkout without Vite as such', async () => {
    await expect(buildRenderer(root)).resolves.toBeUndefined();
  });
});
