/** The sandbox's lifecycle as the window shows it: Stop asks first, a stopped sandbox says so, Start brings fresh data and a fresh audit. */
import { EXPECTED_PROBLEMS } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('stopping and starting the sandbox: confirmation, an honest card, a stale audit, then a fresh one', async ({
  app,
  inspector,
  page,
}) => {
  const expected = EXPECTED_PROBLEMS.accounts;
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  // The sandbox is named once in the sidebar: its list entry, no heading, badge or details title repeating it.
  await expect(page.getByTestId('connections').getByText('Sandbox (bundled DynamoDB Local)', { exact: true })).toHaveCount(1);
  await expect(page.getByTestId('connections').getByText(/^sandbox$/i)).toHaveCount(0);

  // Stop asks first; keeping it running changes nothing.
  const details = app.connectionDetails;
  await details.getByTestId('sandbox-stop').click();
  const dialog = page.getByTestId('sandbox-stop-dialog');
  await expect(dialog).toContainText('loses the demo data');
  await dialog.getByRole('button', { name: 'Keep it running' }).click();
  await expect(dialog).toBeHidden();
  await expect(details.getByTestId('sandbox-stop')).toBeVisible();

  // Stopped: the card says so (no AWS default endpoint), the audit on screen is marked stale.
  await details.getByTestId('sandbox-stop').click();
  await page.getByTestId('sandbox-stop-confirm').click();
  await expect(details.getByRole('button', { name: 'Start sandbox' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('effective-endpoint')).toHaveText('none: the sandbox is not running');
  await expect(details).toContainText('stopped');
  await expect(details).not.toContainText('AWS default');
  await expect(page.getByTestId('audit-stale')).toBeVisible();
  await expect(page.getByTestId('audit-complete')).toHaveCount(0);
  const staleRun = await inspector.runId();

  // Start: fresh demo data, the table list and a new audit of it, no longer stale.
  await details.getByRole('button', { name: 'Start sandbox' }).click();
  await inspector.waitNewRunComplete(staleRun);
  await expect(page.getByTestId('audit-stale')).toHaveCount(0);
  await expect(app.table('accounts')).toBeVisible();
  await inspector.expectCounts(expected.summary);
  await inspector.expectRowTotal(expected.accounts + expected.summary['orphan-lock'] + expected.summary['malformed-lock']);
});
