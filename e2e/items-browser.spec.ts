/** Raw items, read-only: query a partition by key and sort key prefix, scan by partition key prefix with a filter, both JSON views, and lookup keys that open their item. */
import { ACCOUNTS_NAMED, STUCK_HANDLE } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('browses items by key, prefix and filter, and opens a lookup key as its item', async ({ app, inspector, lookup, page }) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await app.tab('table');
  const browser = page.getByTestId('items-browser');

  // A scan by partition key prefix with a filter: exactly the stuck handle's lock.
  await browser.getByTestId('browse-prefix').fill('UNIQ#HANDLE#');
  await browser.getByTestId('browse-filter-attribute').fill('PK');
  await browser.getByTestId('browse-filter-value').fill(STUCK_HANDLE);
  // The filter compares text only, and says so next to the value.
  await expect(browser.getByTestId('browse-filter-value')).toHaveAccessibleDescription(/text \(S\) values only/);
  await browser.getByTestId('browse-run').click();
  await expect(browser.getByTestId('browse-item')).toHaveCount(1);
  await expect(browser.getByTestId('browse-item')).toContainText(`UNIQ#HANDLE#${STUCK_HANDLE} / LOCK`);

  // A query of one partition with a sort key prefix, seen as DynamoDB JSON and as plain JSON.
  await browser.getByTestId('browse-filter-attribute').fill('');
  await browser.getByTestId('browse-prefix').fill('PRO');
  await browser.getByTestId('browse-partition').fill(`ACCT#${ACCOUNTS_NAMED.hedy.id}`);
  await expect(browser.getByTestId('browse-run')).toHaveText('Query');
  await browser.getByTestId('browse-run').click();
  await expect(browser.getByTestId('browse-item')).toHaveCount(1);
  await expect(browser.getByTestId('browse-summary')).toContainText('(query)');
  await browser.getByTestId('browse-item').locator('summary').click();
  await expect(browser.getByTestId('browse-item')).toContainText('"PK": {');
  await browser.getByRole('button', { name: 'Plain JSON' }).click();
  await expect(browser.getByTestId('browse-item')).toContainText(`"PK": "ACCT#${ACCOUNTS_NAMED.hedy.id}"`);

  // On a lookup card the lock key opens the item itself.
  await lookup.lookUp(STUCK_HANDLE);
  await lookup.rule('HANDLE').getByTestId('lookup-lock-link').click();
  await expect(page.getByTestId('item-viewer')).toContainText(`UNIQ#HANDLE#${STUCK_HANDLE}`);
});
