/** Cancelling a running audit stops it and marks the result incomplete. */
import { sandboxClient } from '../electron/services/sandbox';
import { expect, test } from './fixtures';
import { seedLargeUniqTable } from './support/seed';

test('cancel stops a running audit and the result says incomplete', async ({ app, server, inspector, page }) => {
  test.setTimeout(180_000);
  await app.selectConnection('sandbox');
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  await seedLargeUniqTable(client, 'big_accounts', 30_000);
  client.destroy();
  await page.getByRole('button', { name: 'Reload tables' }).click();
  await app.selectTable('big_accounts');

  await expect(inspector.progress).toBeVisible();
  await inspector.cancel();

  await inspector.waitDone();
  await expect(inspector.root).toHaveAttribute('data-audit-complete', 'false');
  await expect(inspector.incomplete).toContainText('INCOMPLETE');
});
