/**
 * Two tabs watching one table share the server's stream reader: switching Live off in one leaves the
 * other watching — its badge stays live and a raw delete made afterwards still reaches it.
 */
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { createStreamTable, signup } from '../electron/services/watch/testing-watch';
import { testClient } from '../electron/testing/dynamo-fixtures';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app-page';
import { InspectorPage } from './pages/inspector-page';
import { startServe } from './support/server';

test('live in two tabs: one switching it off leaves the other live, and a later write still reaches it', async ({
  localDynamo,
  dataDir,
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const client = testClient(localDynamo.endpoint);
  const table = await createStreamTable(client, 'live_two_tabs');
  await signup(client, table, 'b1', 'grace@example.com', 'grace');
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const tabs = [page, await context.newPage()];
    for (const tab of tabs) {
      const app = new AppPage(tab);
      await app.open(server.url);
      await tab.locator('[data-testid^="connection-endpoint"]').first().click();
      await app.selectTable(table);
      await new InspectorPage(tab).waitComplete();
      await tab.getByTestId('live-toggle').check();
      await expect(tab.getByTestId('live-watch')).toHaveAttribute('data-live-status', 'live', { timeout: 30_000 });
    }
    const [first, second] = tabs as [typeof page, typeof page];

    // The first tab switches Live off.
    await first.getByTestId('live-toggle').uncheck();
    await expect(first.getByTestId('live-status')).toHaveText('paused');

    // The second still reads the stream: a raw delete made now shows up there.
    await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#b1' }, SK: { S: 'PROFILE' } } }));
    await expect(second.locator('[data-testid="live-problem"][data-kind="orphan-lock"][data-value="grace"]')).toBeVisible({
      timeout: 30_000,
    });
    await expect(second.getByTestId('live-watch')).toHaveAttribute('data-live-status', 'live');
  } finally {
    client.destroy();
    await server.stop();
  }
});
