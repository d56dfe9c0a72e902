/**
 * Repair in the app, on the sandbox's demo accounts: every problem selected → a plan of packed,
 * guarded transactions (katherine's two missing locks check one account, so they go apart) → each
 * request previewed → the action count typed back → executed with progress → the repaired values
 * re-checked in the inspector → orphans and missing locks gone, duplicates and malformed locks left
 * for a person → one Activity entry per transaction.
 */
import { EXPECTED_PROBLEMS } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('plan → preview → confirm → execute → problems gone → Activity entries', async ({ app, inspector, page }) => {
  const expected = EXPECTED_PROBLEMS.accounts.summary;
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await inspector.expectCounts(expected);

  await page.getByTestId('repair-open').click();
  const dialog = page.getByTestId('repair-dialog');
  await dialog.getByTestId('repair-mode-all').check();
  await dialog.getByTestId('repair-make-plan').click();
  const plan = dialog.getByTestId('repair-plan');
  // Orphans: one Delete each; missing locks: a Put and a ConditionCheck of the holder each.
  const actions = expected['orphan-lock'] + 2 * expected['missing-lock'];
  await expect(plan).toHaveAttribute('data-action-count', String(actions));
  const transactions = plan.getByTestId('repair-transaction');
  await expect(transactions).toHaveCount(2);
  await expect(plan.getByTestId('repair-manual').locator('li')).toHaveCount(
    expected['duplicate-value'] + expected['malformed-lock'] + expected['owner-mismatch'],
  );

  // The exact request of the first transaction, behind its summary.
  await transactions.first().locator('summary').click();
  const json = JSON.parse((await transactions.first().getByTestId('repair-json').innerText()).trim()) as {
    TransactItems: unknown[];
    ClientRequestToken: string;
  };
  expect(json.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
  await expect(transactions.first().locator('summary')).toContainText(json.ClientRequestToken);
  expect(json.TransactItems.length).toBeGreaterThan(0);

  await expect(dialog.getByTestId('repair-execute')).toBeDisabled();
  await dialog.getByTestId('repair-confirm').fill(String(actions));
  await dialog.getByTestId('repair-execute').click();
  const outcome = dialog.getByTestId('repair-outcome');
  await expect(outcome).toHaveAttribute('data-phase', 'done');
  await expect(outcome.getByTestId('repair-tx-outcome')).toHaveCount(2);
  for (const tx of await outcome.getByTestId('repair-tx-outcome').all()) await expect(tx).toHaveAttribute('data-state', 'succeeded');
  await expect(outcome.getByTestId('repair-fix-outcome').filter({ hasText: 'applied and verified' })).toHaveCount(
    expected['orphan-lock'] + expected['missing-lock'],
  );
  // Each repaired value is looked up again (a consistent holder scan on a table without an index).
  await expect(dialog.getByTestId('repair-recheck')).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  await dialog.getByTestId('repair-close').click();

  // Re-checked in place, then confirmed by a fresh audit.
  await inspector.expectCounts({ ...expected, 'orphan-lock': 0, 'missing-lock': 0 });
  const before = await inspector.runId();
  await inspector.rerun();
  await inspector.waitNewRunComplete(before);
  await inspector.expectCounts({ ...expected, 'orphan-lock': 0, 'missing-lock': 0 });

  await app.tab('activity');
  const entries = page.getByTestId('activity-entry');
  await expect(entries).toHaveCount(2);
  for (const entry of await entries.all()) {
    await expect(entry.getByTestId('activity-kind')).toHaveText('repair');
    await expect(entry.getByTestId('activity-status')).toHaveText('succeeded');
  }
});
