/** Live watch: with "Live" on, a raw delete made outside the app shows up in the inspector as a new orphan, naming the write; fixing it clears it. */
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { createStreamTable, lockKey, signup } from '../electron/services/watch/testing-watch';
import { testClient } from '../electron/testing/dynamo-fixtures';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app-page';
import { startServe } from './support/server';

test('live on, a raw delete from outside: the orphan appears marked new with its cause, and clears when fixed', async ({
  localDynamo,
  dataDir,
  page,
  inspector,
}) => {
  test.setTimeout(120_000);
  // Arrange: a stream-enabled seed-1 table with healthy accounts, and a server pointed at it.
  const client = testClient(localDynamo.endpoint);
  const table = await createStreamTable(client, 'live_accounts');
  for (let i = 0; i < 6; i++) await signup(client, table, `a${i}`, `user${i}@example.com`, `user${i}`);
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    const endpoint = page.locator('[data-testid^="connection-endpoint"]').first();
    await endpoint.click();
    await app.selectTable(table);
    await inspector.waitComplete();
    await expect(page.getByTestId('live-status')).toHaveText('paused');

    // Act: live on, then a raw delete of an account (its locks stay behind).
    await page.getByTestId('live-toggle').check();
    await expect(page.getByTestId('live-watch')).toHaveAttribute('data-live-status', 'live', { timeout: 30_000 });
    await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#a3' }, SK: { S: 'PROFILE' } } }));

    // Assert: both orphans appear, marked new, each naming the REMOVE.
    const orphan = page.locator('[data-testid="live-problem"][data-kind="orphan-lock"][data-value="user3"]');
    await expect(orphan).toBeVisible({ timeout: 30_000 });
    await expect(orphan).toContainText('new');
    await expect(page.locator('[data-testid="live-problem"][data-value="user3@example.com"]')).toBeVisible({ timeout: 30_000 });
    await orphan.getByText(/caused by REMOVE/).click();
    await expect(orphan.getByTestId('live-cause')).toContainText('{"PK":"ACCT#a3","SK":"PROFILE"}');

    // Fixing one clears it; the other stays.
    await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('HANDLE', 'user3') }));
    await expect(orphan).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('[data-testid="live-problem"]')).toHaveCount(1);

    // Live off: paused, the watch is stopped.
    await page.getByTestId('live-toggle').uncheck();
    await expect(page.getByTestId('live-status')).toHaveText('paused');
  } finally {
    client.destroy();
    await server.stop();
  }
});
