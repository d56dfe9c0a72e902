/**
 * A write whose answer is lost is never "not accepted": in browser mode the request reaches `serve`
 * and is applied, then the answer is dropped (Chromium's interception: forward, then reset) or
 * replaced by a proxy's 502 HTML page. The lock form, a lifecycle fix and the repair dialog headline
 * an unknown outcome with what to do, the table shows the write happened, and the Activity tab lists it.
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Page, Route } from '@playwright/test';
import { ACCOUNTS_NAMED, sandboxClient } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

const PROXY_502 = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';

/** Ways an answer is lost after the request reached the server (it was applied). */
const AFTER_SEND = {
  reset: async (route: Route) => {
    await route.fetch();
    await route.abort('connectionreset');
  },
  '502 HTML': async (route: Route) => {
    await route.fetch();
    await route.fulfill({ status: 502, contentType: 'text/html', body: PROXY_502 });
  },
} as const;

/** The next call of `method` loses its answer as `fault` says; later calls go through. */
async function loseNextAnswer(page: Page, method: string, fault: (route: Route) => Promise<void>): Promise<void> {
  await page.route(`**/api/${method}`, fault, { times: 1 });
}

const UNKNOWN = 'Outcome unknown — the request may have been applied';

test('tx.execute: a release whose answer was reset, then one whose answer was a 502 page — outcome unknown, lock gone, Activity lists both', async ({
  app,
  server,
  inspector,
  lockForm,
  page,
}) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  try {
    for (const [fault, rule, value] of [
      ['reset', 'HANDLE', 'ghost'],
      ['502 HTML', 'EMAIL', 'ghost@example.net'],
    ] as const) {
      await inspector.search(value);
      const detail = await inspector.expand(inspector.rows.filter({ hasText: `UNIQ#${rule}#${value}` }));
      await detail.getByRole('button', { name: 'Release this lock…' }).click();
      await lockForm.preview();
      await lockForm.confirm(value);
      await loseNextAnswer(page, 'tx.execute', AFTER_SEND[fault]);
      await lockForm.executeButton.click();
      const error = lockForm.root.getByTestId('error-box');
      await expect(error.locator('.alert-title'), fault).toHaveText(UNKNOWN);
      await expect(error).toContainText('ClientRequestToken');
      await expect(error).toContainText('look the value up');
      await expect(lockForm.root).not.toContainText('not accepted');
      // It was applied: the lock is gone.
      const lock = await client.send(
        new GetItemCommand({ TableName: 'accounts', Key: { PK: { S: `UNIQ#${rule}#${value}` }, SK: { S: 'LOCK' } }, ConsistentRead: true }),
      );
      expect(lock.Item, fault).toBeUndefined();
      await lockForm.close();
    }
    await app.tab('activity');
    const entries = page.getByTestId('activity-entry');
    await expect(entries).toHaveCount(2);
    for (const entry of await entries.all()) await expect(entry.getByTestId('activity-status')).toHaveText('succeeded');
  } finally {
    client.destroy();
  }
});

test('tx.execute with the server gone before the send: the page cannot tell, so it says outcome unknown; nothing was sent, and Activity says so', async ({
  app,
  inspector,
  lockForm,
  page,
}) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await inspector.search('ghost');
  const detail = await inspector.expand(inspector.rows.filter({ hasText: 'UNIQ#HANDLE#ghost' }));
  await detail.getByRole('button', { name: 'Release this lock…' }).click();
  await lockForm.preview();
  await lockForm.confirm('ghost');
  await loseNextAnswer(page, 'tx.execute', (route) => route.abort('connectionrefused'));
  await lockForm.executeButton.click();
  await expect(lockForm.root.getByTestId('error-box').locator('.alert-title')).toHaveText(UNKNOWN);
  await lockForm.close();
  await app.tab('activity');
  await expect(page.getByTestId('activity')).toBeVisible();
  await expect(page.getByTestId('activity-entry')).toHaveCount(0);
});

test('a lifecycle write (change a handle) whose answer was reset: outcome unknown, the change applied', async ({
  app,
  server,
  inspector,
  lockForm,
  page,
}) => {
  const { ada } = ACCOUNTS_NAMED;
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await inspector.search(ada.email);
  const detail = await inspector.expand(inspector.row(`ACCT#${ada.id}`));
  await detail.locator('tr', { hasText: 'HANDLE' }).getByTestId('action-change-value').click();
  await lockForm.root.getByTestId('tx-value').fill('ada2');
  await lockForm.preview();
  await lockForm.confirm('ada2');
  await loseNextAnswer(page, 'tx.execute', AFTER_SEND.reset);
  await lockForm.executeButton.click();
  await expect(lockForm.root.getByTestId('error-box').locator('.alert-title')).toHaveText(UNKNOWN);
  await expect(lockForm.root).not.toContainText('not accepted');
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  try {
    const lock = await client.send(
      new GetItemCommand({ TableName: 'accounts', Key: { PK: { S: 'UNIQ#HANDLE#ada2' }, SK: { S: 'LOCK' } }, ConsistentRead: true }),
    );
    expect(lock.Item).toBeDefined();
  } finally {
    client.destroy();
  }
  await lockForm.close();
  await app.tab('activity');
  await expect(page.getByTestId('activity-entry')).toHaveCount(1);
  await expect(page.getByTestId('activity-status')).toHaveText('succeeded');
});

for (const fault of ['reset', '502 HTML'] as const) {
  test(`repair.execute whose answer was lost (${fault}): the dialog says it lost track — it may still be running — and Activity lists what was sent`, async ({
    app,
    inspector,
    page,
  }) => {
    await app.selectConnection('sandbox');
    await app.selectTable('accounts');
    await inspector.waitComplete();
    await page.getByTestId('repair-open').click();
    const dialog = page.getByTestId('repair-dialog');
    await dialog.getByTestId('repair-mode-all').check();
    await dialog.getByTestId('repair-make-plan').click();
    const plan = dialog.getByTestId('repair-plan');
    const actions = await plan.getAttribute('data-action-count');
    await dialog.getByTestId('repair-confirm').fill(String(actions));
    await loseNextAnswer(page, 'repair.execute', AFTER_SEND[fault]);
    await dialog.getByTestId('repair-execute').click();
    const error = dialog.getByTestId('error-box');
    await expect(error.locator('.alert-title')).toHaveText('Lost track of the repair — it may still be running');
    await expect(error).toContainText('may have been applied');
    await expect(error).toContainText('Activity tab');
    await expect(dialog).not.toContainText('not accepted');
    await expect(dialog).not.toContainText('could not go on');
    await dialog.getByTestId('repair-close').click();
    await app.tab('activity');
    // The repair went on in serve: its transactions are listed as they end (the list reloads on demand).
    await expect(async () => {
      await page.getByTestId('activity').getByRole('button', { name: 'Reload' }).click();
      await expect(page.getByTestId('activity-entry')).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    for (const entry of await page.getByTestId('activity-entry').all())
      await expect(entry.getByTestId('activity-kind')).toHaveText('repair');
  });
}
