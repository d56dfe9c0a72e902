/** Item values are data, never markup: HTML-ish handles render as text in the grid, details and item viewer. */
import { ACCOUNTS_NAMED, HTML_ORPHAN_HANDLE } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('markup in values is shown as text and never runs', async ({ app, inspector, page }) => {
  const handle = ACCOUNTS_NAMED.html.username;
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();

  await inspector.search(handle);
  const row = inspector.row(`ACCT#${ACCOUNTS_NAMED.html.id}`);
  await expect(row).toContainText(handle);
  const detail = await inspector.expand(row);
  await expect(detail).toContainText(handle);
  await detail.getByRole('button', { name: 'View account item' }).click();
  const viewer = page.getByTestId('item-viewer');
  await expect(viewer.getByTestId('item-json')).toContainText(handle);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  await inspector.search(HTML_ORPHAN_HANDLE);
  await expect(inspector.row(`UNIQ#HANDLE#${HTML_ORPHAN_HANDLE}`)).toBeVisible();

  // No element was created from a value; the fixture also fails the test on any alert().
  await expect(page.locator('[data-testid="inspector-grid"] img, [data-testid="inspector-grid"] script')).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
});
