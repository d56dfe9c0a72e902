/**
 * #16 finding 1 in the UI: an endpoint says what it signs with (chosen when added, shown by source),
 * another machine's endpoint is read-only until its host is typed back, and AWS itself is refused
 * without a profile. Traffic stays on this machine: 127.0.0.1:9 and 0.0.0.0:9 (closed ports).
 */
import { expect, test } from './fixtures';

test.use({ serveArgs: ['--endpoint', 'http://127.0.0.1:9'] });

test('an endpoint signs with what was chosen, and another host is read-only until its host is typed', async ({ app, page }) => {
  const addEndpoint = async (url: string, signsWith: string): Promise<void> => {
    await page.getByRole('button', { name: 'Add an endpoint…' }).click();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByTestId('endpoint-signs-with').selectOption({ label: signsWith });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
  };

  // AWS itself with dummy keys: refused, nothing added.
  await addEndpoint('https://dynamodb.us-east-1.amazonaws.com', 'dummy keys (DynamoDB Local)');
  await expect(page.getByText(/is AWS itself: it is reached only through an AWS profile/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await addEndpoint('http://0.0.0.0:9', 'dummy keys (DynamoDB Local)');
  const added = page.locator('[data-testid^="connection-endpoint"]', { hasText: '0.0.0.0' });
  await expect(added).toHaveCount(1);
  await expect(added).toContainText('read-only');
  await added.click();
  await expect(added).toHaveAttribute('aria-current', 'true');
  await expect(app.connectionDetails.getByTestId('credential-source')).toHaveText('dummy keys');

  await app.connectionDetails.getByRole('button', { name: 'Allow writes…' }).click();
  const dialog = page.getByTestId('allow-writes-dialog');
  await dialog.getByLabel('Host').fill('localhost');
  await expect(dialog.getByRole('button', { name: 'Allow writes' })).toBeDisabled();
  await dialog.getByLabel('Host').fill('0.0.0.0');
  await dialog.getByRole('button', { name: 'Allow writes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(added).toContainText('writable');
});
