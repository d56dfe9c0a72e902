/**
 * Playwright fixtures: a temp data dir per test, a browser-mode server per test (its own sandbox,
 * or pointed at a DynamoDB Local the test owns), and the page objects, opened on the readiness marker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { startDynamoDbLocal, type DynamoDbLocalHandle } from '../electron/services/sandbox';
import { AppPage } from './pages/app-page';
import { InspectorPage } from './pages/inspector-page';
import { LockFormPage } from './pages/lock-form-page';
import { LookupPage } from './pages/lookup-page';
import { startServe, type ServeHandle } from './support/server';

/** Fixtures every spec can ask for. */
export interface LocksmithFixtures {
  /** A fresh, empty data folder (settings, activity log) for this test only. */
  dataDir: string;
  /** Flags for `locksmith serve` (override per file with `test.use`). */
  serveArgs: readonly string[];
  /** The running server for this test. */
  server: ServeHandle;
  /** The app, opened and ready (`data-app-state="loaded"`). */
  app: AppPage;
  inspector: InspectorPage;
  lookup: LookupPage;
  lockForm: LockFormPage;
  /** A DynamoDB Local owned by the test (started empty; seed it through the SDK). */
  localDynamo: DynamoDbLocalHandle;
}

/** The extended `test`. */
export const test = base.extend<LocksmithFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
  dataDir: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'locksmith-e2e-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  serveArgs: [[], { option: true }],
  server: async ({ dataDir, serveArgs }, use, testInfo) => {
    const server = await startServe({ dataDir, args: serveArgs });
    await use(server);
    await server.stop();
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach('server-output', { body: server.output(), contentType: 'text/plain' });
  },
  app: async ({ page, server }, use) => {
    // Item values are data: any browser dialog (an alert from injected markup) fails the test.
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    const app = new AppPage(page);
    await app.open(server.url);
    await use(app);
    expect(dialogs, 'no script from item values may run').toEqual([]);
  },
  inspector: async ({ page }, use) => use(new InspectorPage(page)),
  lookup: async ({ page }, use) => use(new LookupPage(page)),
  lockForm: async ({ page }, use) => use(new LockFormPage(page)),
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
  localDynamo: async ({}, use) => {
    const started = await startDynamoDbLocal({ heap: '512m' });
    if (!started.ok) throw new Error(`DynamoDB Local did not start: ${started.error.message}`);
    await use(started.value);
    await started.value.stop();
  },
});

export { expect };
