/** The inspector's row store runs in a Web Worker; a worker that cannot start costs speed, never rows. */
import { EXPECTED_PROBLEMS } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('with its worker refused, the inspector still shows every row and count of the audit', async ({ app, inspector, page }) => {
  const expected = EXPECTED_PROBLEMS.users;
  let refused = 0;
  await page.context().route(/row-store\.worker[^/]*\.js/, async (route) => {
    refused += 1;
    await route.abort();
  });
  // The app made its worker when it loaded: load it again, refused this time.
  await page.reload();
  await app.selectConnection('sandbox');
  await app.selectTable('users');
  await inspector.waitComplete();

  expect(refused).toBeGreaterThan(0);
  await inspector.expectCounts(expected.summary);
  await expect(page.getByTestId('count-accounts')).toHaveText(expected.accounts.toLocaleString('en-US'));
  await inspector.filter('orphan-lock');
  await expect(inspector.rows).toHaveCount(expected.summary['orphan-lock']);
});
