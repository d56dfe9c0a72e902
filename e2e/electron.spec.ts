/**
 * The Electron app itself, driven by Playwright's `_electron` against the unpackaged build
 * (node_modules/electron + dist-electron/main.cjs; the packaged app's fuses forbid the inspector
 * Playwright attaches with — see electron-builder.yml). Where no Electron binary exists (this offline
 * machine: electron 45 fetches it on first launch), the tests are reported as skipped with the reason.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Electron binary, found without require('electron') (which would try to download it). */
function electronBinary(): string | undefined {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();
const electronBinaryAvailable = binary !== undefined;
const built = existsSync(join(root, 'dist-electron', 'main.cjs')) && existsSync(join(root, 'dist', 'renderer', 'index.html'));

const skipReason = !electronBinaryAvailable
  ? 'Electron binary not installed on this machine (offline): node_modules/electron/dist is fetched on first launch, which needs the network.'
  : !built
    ? 'Not built: run `npm run build` (vite build + bin/build-electron.mjs) first.'
    : undefined;
// The list reporter shows skipped tests without their reason; say it once, plainly, in the run's output.
if (skipReason) console.log(`[electron] e2e/electron.spec.ts skipped: ${skipReason}`);

test.describe('Electron app', () => {
  test.skip(skipReason !== undefined, skipReason);

  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  test.beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'locksmith-electron-e2e-'));
    app = await electron.launch({
      executablePath: binary,
      args: [root],
      cwd: root,
      env: { ...process.env, LOCKSMITH_DATA_DIR: dataDir, JAVA_TOOL_OPTIONS: '-Xmx1g', ELECTRON_RUN_AS_NODE: '' },
    });
    page = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('opens the app from app:// with the first-run sandbox and table accounts', async () => {
    await expect(page).toHaveURL(/^app:\/\/locksmith\/index\.html#connection=sandbox&table=accounts/);
    await expect(page.locator('body')).toHaveAttribute('data-app-state', 'loaded', { timeout: 60_000 });
  });

  test('exposes only window.locksmith, no Node', async () => {
    const globals = await page.evaluate(() => {
      const page = globalThis as unknown as { locksmith?: { call?: unknown }; require?: unknown; process?: unknown };
      return { bridge: typeof page.locksmith?.call, require: typeof page.require, process: typeof page.process };
    });
    expect(globals).toEqual({ bridge: 'function', require: 'undefined', process: 'undefined' });
  });

  test('loads no remote content', async () => {
    const fetched = await page.evaluate(() =>
      fetch('https://example.com/').then(
        () => 'loaded',
        () => 'blocked',
      ),
    );
    expect(fetched).toBe('blocked');
  });

  test('answers a bridge call and refuses bad arguments', async () => {
    const results = await page.evaluate(async () => {
      const bridge = (
        globalThis as unknown as { locksmith: { call(m: string, a: unknown): Promise<{ ok: boolean; error?: { kind: string } }> } }
      ).locksmith;
      return [await bridge.call('settings.get', {}), await bridge.call('tables.list', { connectionId: 'x'.repeat(999) })];
    });
    expect(results[0]?.ok).toBe(true);
    expect(results[1]).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });

  test('does not navigate away or open windows', async () => {
    await page.evaluate(() => {
      const page = globalThis as unknown as { open(url: string): unknown; location: { href: string } };
      page.open('https://example.com/');
      page.location.href = 'https://example.com/';
    });
    await expect(page).toHaveURL(/^app:\/\/locksmith\//);
    expect(app.windows()).toHaveLength(1);
  });
});
