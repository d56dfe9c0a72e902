/** An audit whose DynamoDB Local stops midway is shown as incomplete — never as a clean result. */
import { testClient } from '../electron/testing/dynamo-fixtures';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app-page';
import { seedLargeUniqTable } from './support/seed';
import { startServe } from './support/server';

test('the endpoint dying mid-audit gives an unmistakably incomplete result', async ({ localDynamo, dataDir, page, inspector }) => {
  test.setTimeout(180_000);
  // Arrange: our own DynamoDB Local with a large table, and a server pointed at it.
  const client = testClient(localDynamo.endpoint);
  await seedLargeUniqTable(client, 'big_accounts', 30_000);
  client.destroy();
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    const endpoint = page.locator('[data-testid^="connection-endpoint"]').first();
    await endpoint.click();
    await expect(endpoint).toHaveAttribute('aria-current', 'true');
    await app.selectTable('big_accounts');

    // Act: kill DynamoDB Local once rows are streaming in.
    await expect(inspector.progress).toBeVisible();
    await expect(page.getByTestId('progress-items')).not.toHaveText('0');
    await localDynamo.stop();

    // Assert
    await inspector.waitDone();
    await expect(inspector.root).toHaveAttribute('data-audit-complete', 'false');
    await expect(inspector.incomplete).toBeVisible();
    await expect(inspector.incomplete).toContainText('INCOMPLETE');
    await expect(page.getByTestId('audit-complete')).toHaveCount(0);
  } finally {
    await server.stop();
  }
});
