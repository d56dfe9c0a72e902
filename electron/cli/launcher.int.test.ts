// bin/locksmith starts from the esbuild bundle when it is fresh, from the sources through tsx when it
// is missing or stale (and then rebuilds it in the background). Each case in its own cache folder.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { mainHelp } from './main';
import { cleanEnv, runCli } from './testing-cli';

const BUILD = fileURLToPath(new URL('../../bin/build-cli.mjs', import.meta.url));
const CACHE_ROOT = fileURLToPath(new URL('../../.cache/', import.meta.url));
const folders: string[] = [];

/** A cache folder inside the checkout: the bundle leaves its dependencies to Node, which finds them from there. */
function cacheFolder(): string {
  mkdirSync(CACHE_ROOT, { recursive: true });
  const dir = mkdtempSync(join(CACHE_ROOT, 'cli-test-'));
  folders.push(dir);
  return dir;
}

function env(cache: string): NodeJS.ProcessEnv {
  return cleanEnv({
    LOCKSMITH_CLI_CACHE: cache,
    LOCKSMITH_TRACE_LAUNCH: '1',
    AWS_ACCESS_KEY_ID: 'launcherkey',
    AWS_SECRET_ACCESS_KEY: 'launchersecret',
  });
}

/** The build current.json names (undefined before the first build). */
function currentEntry(cache: string): string | undefined {
  const path = join(cache, 'current.json');
  return existsSync(path) ? join(cache, (JSON.parse(readFileSync(path, 'utf8')) as { entry: string }).entry) : undefined;
}

/** Waits until a background build has replaced `previous` and released its lock. */
async function rebuiltAfter(cache: string, previous: string | undefined): Promise<string> {
  return vi.waitFor(
    () => {
      const entry = currentEntry(cache);
      if (entry === undefined || entry === previous || existsSync(join(cache, 'build.lock'))) throw new Error('no new build yet');
      return entry;
    },
    { timeout: 30_000, interval: 50 },
  );
}

/** Every module the bundle's entry loads before running anything: its static imports, transitively. */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const match of readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?["']([^"']+)["'];/gm)) {
      const specifier = match[1]!;
      if (!specifier.startsWith('./')) {
        seen.add(specifier);
        continue;
      }
      const path = join(dirname(file), specifier);
      if (!seen.has(path)) queue.push(path);
      seen.add(path);
    }
  }
  return seen;
}

/** The sources (from the source maps) of the bundle's files among `modules`: what loading them parses. */
function bundledSources(modules: Iterable<string>): string[] {
  return [...modules]
    .filter((m) => m.endsWith('.js'))
    .flatMap((m) => (JSON.parse(readFileSync(`${m}.map`, 'utf8')) as { sources: string[] }).sources);
}

/** The chunk holding `source` (a path under the repository), found through the source maps. */
function chunkOf(chunkDir: string, source: string): string {
  const name = readdirSync(chunkDir).find(
    (file) => file.endsWith('.js') && bundledSources([join(chunkDir, file)]).some((s) => s.endsWith(`/${source}`)),
  );
  if (name === undefined) throw new Error(`no chunk holds ${source}`);
  return join(chunkDir, name);
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('bin/locksmith launcher', () => {
  it('runs the bundle when it is fresh: --help without the SDK, and a command that talks to DynamoDB', async () => {
    const cache = cacheFolder();
    await promisify(execFile)(process.execPath, [BUILD], { env: env(cache) });
    const entry = currentEntry(cache);
    expect(entry).toBeDefined();
    // Commands are chunks loaded on demand, and a command's services load when it runs: --help and a
    // command's --help parse no bundled package (the SDK, zod). Both pay (docs/benchmarks.md, "Start-up measures through the model").
    const eager = [...staticImports(entry!)];
    expect(eager.filter((m) => m.startsWith('node:'))).not.toHaveLength(0);
    expect(eager.filter((m) => !m.startsWith('node:') && !m.startsWith(cache))).toEqual([]);
    expect(bundledSources([entry!, ...eager]).filter((s) => s.includes('node_modules/'))).toEqual([]);
    const audit = chunkOf(dirname(entry!), 'electron/cli/commands/audit.ts');
    expect(bundledSources([audit, ...staticImports(audit)]).filter((s) => s.includes('node_modules/'))).toEqual([]);

    // import.meta.url in a source means that source's location (serve finds package.json and the
    // renderer from it): every use in the chunks is rewritten to a source file that exists.
    const chunkDir = dirname(entry!);
    const uses = readdirSync(chunkDir)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) => [...readFileSync(join(chunkDir, name), 'utf8').matchAll(/(new URL\("([^"]+)", )?import\.meta\.url/g)]);
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) {
      expect(use[2], use[0]).toMatch(/\.(ts|mjs)$/);
      expect(existsSync(join(chunkDir, use[2]!)), use[2]).toBe(true);
    }

    // The SDK and zod are inside the chunks (Node loading their files one by one cost every audit CPU at start).
    const sdkImports = readdirSync(chunkDir)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) =>
        [
          ...readFileSync(join(chunkDir, name), 'utf8').matchAll(
            /(?:from\s*|import\s*\(\s*)"(@aws-sdk\/[^"]+|@smithy\/[^"]+|zod(?:\/[^"]+)?)"/g,
          ),
        ].map((m) => `${name}: ${m[1]}`),
      );
    expect(sdkImports).toEqual([]);

    const help = await runCli(['--help'], env(cache));
    expect(help.stderr).toBe(`locksmith launch: bundle ${entry}\n`);
    expect(help.stdout).toBe(mainHelp());
    expect(help.code).toBe(0);

    const tables = await runCli(['tables', '--endpoint', inject('dynamoEndpoint'), '--region', 'us-east-1', '--json'], env(cache));
    expect({ code: tables.code, stderr: tables.stderr }).toEqual({ code: 0, stderr: `locksmith launch: bundle ${entry}\n` });
    expect((JSON.parse(tables.stdout) as { tables: unknown }).tables).toBeInstanceOf(Array);
  });

  it('falls back to tsx when a source is newer than the bundle, and rebuilds it for the next run', async () => {
    const cache = cacheFolder();
    await promisify(execFile)(process.execPath, [BUILD], { env: env(cache) });
    const before = currentEntry(cache);
    // As if every source had been edited after the build: the manifest's mtime is the build's start.
    const past = new Date(Date.now() - 24 * 3600_000);
    utimesSync(join(cache, 'current.json'), past, past);

    const stale = await runCli(['--help'], env(cache));
    expect(stale.stderr).toMatch(/^locksmith launch: tsx \(\S+ changed since the bundle was built\)\n$/);
    expect(stale.stdout).toBe(mainHelp());

    const after = await rebuiltAfter(cache, before);
    const fresh = await runCli(['--help'], env(cache));
    expect(fresh.stderr).toBe(`locksmith launch: bundle ${after}\n`);
    expect(fresh.stdout).toBe(mainHelp());
  });

  it('runs from the sources before any build (a fresh clone), and builds the bundle', async () => {
    const cache = join(cacheFolder(), 'not-yet');
    const first = await runCli(['--help'], env(cache));
    expect(first.stderr).toBe('locksmith launch: tsx (no bundle built yet)\n');
    expect(first.stdout).toBe(mainHelp());

    const built = await rebuiltAfter(cache, undefined);
    const second = await runCli(['--help'], env(cache));
    expect(second.stderr).toBe(`locksmith launch: bundle ${built}\n`);
  });
});
