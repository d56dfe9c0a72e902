/**
 * Lifecycle fixes for one account, in the app (seed 1's templates): change a protected value (new
 * lock guarded, old lock deleted, account updated — one transaction), then delete the account with
 * all its locks; each previewed exactly, confirmed, executed, verified, and the inspector audits again
 * to exactly what the table now holds.
 */
import { ACCOUNTS_NAMED, EXPECTED_PROBLEMS } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('change a handle, then delete the account with its locks: previewed, verified, audited again', async ({
  app,
  inspector,
  lockForm,
  page,
}) => {
  const { ada } = ACCOUNTS_NAMED;
  const expected = EXPECTED_PROBLEMS.accounts;
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();

  // Change ada's handle to ada2.
  await inspector.search(ada.email);
  let detail = await inspector.expand(inspector.row(`ACCT#${ada.id}`));
  await detail.locator('tr', { hasText: 'HANDLE' }).getByTestId('action-change-value').click();
  await expect(lockForm.root.getByTestId('tx-account-fixed')).toContainText(`ACCT#${ada.id}`);
  await lockForm.root.getByTestId('tx-value').fill('ada2');
  await lockForm.preview();
  const change = (await lockForm.previewJson()) as {
    TransactItems: Record<string, { Key?: unknown; Item?: Record<string, unknown>; UpdateExpression?: string }>[];
  };
  expect(change.TransactItems.map((t) => Object.keys(t)[0])).toEqual(['Put', 'Delete', 'Update']);
  expect(change.TransactItems[0]?.Put?.Item).toMatchObject({ PK: { S: 'UNIQ#HANDLE#ada2' } });
  expect(change.TransactItems[1]?.Delete?.Key).toEqual({ PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } });
  await lockForm.confirm('ada2');
  let outcome = await lockForm.execute();
  await expect(outcome).toHaveAttribute('data-status', 'succeeded');
  await expect(outcome.getByTestId('tx-verified')).toHaveAttribute('data-verified', 'true');
  await lockForm.close();
  await inspector.waitComplete();
  await inspector.search('ada2');
  await expect(inspector.row(`ACCT#${ada.id}`)).toContainText('healthy');
  await inspector.expectCounts(expected.summary);

  // Delete the account and both its locks.
  detail = await inspector.expand(inspector.row(`ACCT#${ada.id}`));
  await detail.getByTestId('action-delete-account').click();
  await lockForm.preview();
  const del = (await lockForm.previewJson()) as { TransactItems: Record<string, { Key?: Record<string, { S: string }> }>[] };
  expect(del.TransactItems.map((t) => Object.values(t)[0]?.Key?.PK?.S)).toEqual([
    `ACCT#${ada.id}`,
    `UNIQ#EMAIL#${ada.email}`,
    'UNIQ#HANDLE#ada2',
  ]);
  await lockForm.confirm(`ACCT#${ada.id}`);
  outcome = await lockForm.execute();
  await expect(outcome).toHaveAttribute('data-status', 'succeeded');
  await expect(outcome.getByTestId('tx-verified')).toHaveAttribute('data-verified', 'true');
  await lockForm.close();
  await inspector.waitComplete();
  await inspector.search(ada.email);
  await expect(inspector.rows).toHaveCount(0);
  await inspector.expectCounts(expected.summary);
  await expect(page.getByTestId('count-accounts')).toHaveText((expected.accounts - 1).toLocaleString('en-US'));
});
