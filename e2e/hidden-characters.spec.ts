/**
 * A key with a right-to-left override and zero-width characters is shown as it really is, marks and
 * all, on every surface that shows a value or a key: the inspector, the lookup, the lock form's
 * action explanations, the repair dialog (hand-picked list, fixes, actions, what is left for you) and
 * the live-watch panel.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Locator } from '@playwright/test';
import { sandboxClient } from '../electron/services/sandbox';
import { createStreamTable, signup } from '../electron/services/watch/testing-watch';
import { testClient } from '../electron/testing/dynamo-fixtures';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app-page';
import { startServe } from './support/server';

// Displayed raw, U+202E makes the tail read "live"; the zero-width space hides between two letters.
const HANDLE = 'abc مرحبا_عالم \u202eevil\u200bx';
/** Raw, an orphan `‮ecila` reads as "alice". */
const SPOOF = '\u202eecila';

/** No raw override reaches the surface's text, and the override is named where it stood. */
async function expectMarked(surface: Locator): Promise<void> {
  await expect(surface).toContainText('RLO');
  expect(await surface.innerText()).not.toContain('\u202e');
}

test('bidi and invisible characters in a lock key are visible in the inspector and the lookup', async ({
  app,
  server,
  inspector,
  lookup,
}) => {
  // Arrange: an orphan lock with the hostile handle, written into the sandbox's accounts table.
  await app.selectConnection('sandbox');
  // The sandbox is a private database: only its own access key sees its tables.
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  try {
    await client.send(new PutItemCommand({ TableName: 'accounts', Item: { PK: { S: `UNIQ#HANDLE#${HANDLE}` }, SK: { S: 'LOCK' } } }));
  } finally {
    client.destroy();
  }
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await inspector.rerun();

  // Act
  await inspector.search('evil');

  // Assert: one row, its controls shown as marks next to the text they would reorder.
  await expect(inspector.rows).toHaveCount(1);
  const row = inspector.rows.first();
  await expect(row).toHaveAttribute('data-row-kind', 'orphan-lock');
  await expect(row.locator('[data-hidden-char="U+202E"]').first()).toBeVisible();
  await expect(row.locator('[data-hidden-char="U+200B"]').first()).toBeVisible();
  await expect(row).toContainText('RLO');
  await expect(row.locator('.visible-text').first()).toHaveAttribute('title', /⟨U\+202E RLO⟩evil⟨U\+200B ZWSP⟩x/);
  // No raw override reaches the page's text.
  expect(await row.innerText()).not.toContain('\u202e');

  await lookup.lookUp(HANDLE);
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'orphan');
  await expect(lookup.rule('HANDLE').locator('[data-hidden-char="U+202E"]').first()).toBeVisible();
  expect(await lookup.rule('HANDLE').innerText()).not.toContain('\u202e');
});

test('bidi controls are marked in the lock form and the repair dialog: hand-picked list, fixes, actions, left for you', async ({
  app,
  server,
  inspector,
  lockForm,
  page,
}) => {
  // Arrange: an orphan lock that reads "alice", and two accounts sharing a spoofed e-mail (a duplicate, left for a person).
  await app.selectConnection('sandbox');
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  try {
    await client.send(new PutItemCommand({ TableName: 'accounts', Item: { PK: { S: `UNIQ#HANDLE#${SPOOF}` }, SK: { S: 'LOCK' } } }));
    for (const id of ['spoof1', 'spoof2'])
      await client.send(
        new PutItemCommand({
          TableName: 'accounts',
          Item: { PK: { S: `ACCT#${id}` }, SK: { S: 'PROFILE' }, email: { S: `${SPOOF}@example.com` }, username: { S: id } },
        }),
      );
  } finally {
    client.destroy();
  }
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await inspector.rerun();
  await inspector.waitComplete();

  // The lock form: the release's action explanations.
  await inspector.search('ecila');
  const detail = await inspector.expand(inspector.rows.and(page.locator('[data-row-kind="orphan-lock"]')).first());
  await detail.getByRole('button', { name: 'Release this lock…' }).click();
  await lockForm.preview();
  await expectMarked(lockForm.root.getByTestId('tx-actions'));
  await lockForm.close();
  await inspector.search('');

  // The repair dialog: the hand-picked list shows marks, as the inspector does.
  await page.getByTestId('repair-open').click();
  const dialog = page.getByTestId('repair-dialog');
  await dialog.getByTestId('repair-mode-picked').check();
  const picks = dialog.getByTestId('repair-pick-list');
  const spoofed = picks.locator('li').filter({ has: page.locator('[data-hidden-char="U+202E"]') });
  // The orphan, and the duplicate (with its missing lock): every one of them marked.
  await expect(spoofed.nth(1)).toBeVisible();
  await expectMarked(picks);
  for (const item of await spoofed.all()) await item.getByRole('checkbox').check();
  await dialog.getByTestId('repair-make-plan').click();

  // The plan: the fix's summary and its action explanations; the duplicate left for you, with its reason.
  const plan = dialog.getByTestId('repair-plan');
  // The orphan's release is the one fix: a Delete of the lock.
  await expect(plan).toHaveAttribute('data-action-count', '1');
  const transaction = plan.getByTestId('repair-transaction').first();
  await transaction.locator('summary').click();
  await expectMarked(transaction.locator('ul').first());
  await expectMarked(transaction.locator('.actions-list'));
  const manual = plan.getByTestId('repair-manual');
  await expect(manual.locator('[data-hidden-char="U+202E"]').first()).toBeVisible();
  await expectMarked(manual);
  expect(await dialog.innerText()).not.toContain('\u202e');
});

test('bidi controls are marked in the live-watch panel', async ({ localDynamo, dataDir, page, inspector }) => {
  test.setTimeout(120_000);
  const client = testClient(localDynamo.endpoint);
  const table = await createStreamTable(client, 'live_bidi');
  await signup(client, table, 'a0', 'user0@example.com', 'user0');
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    await page.locator('[data-testid^="connection-endpoint"]').first().click();
    await app.selectTable(table);
    await inspector.waitComplete();
    await page.getByTestId('live-toggle').check();
    await expect(page.getByTestId('live-watch')).toHaveAttribute('data-live-status', 'live', { timeout: 30_000 });

    // Act: an orphan whose value reads "alice", written from outside.
    await client.send(new PutItemCommand({ TableName: table, Item: { PK: { S: `UNIQ#HANDLE#${SPOOF}` }, SK: { S: 'LOCK' } } }));

    // Assert: the value, the lock key and the write that caused it are all marked.
    const orphan = page.locator('[data-testid="live-problem"][data-kind="orphan-lock"]');
    await expect(orphan).toBeVisible({ timeout: 30_000 });
    await expect(orphan.locator('code [data-hidden-char="U+202E"]')).toBeVisible();
    await expectMarked(orphan);
  } finally {
    client.destroy();
    await server.stop();
  }
});
