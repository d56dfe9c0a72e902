/** A row store worker that crashes after answering leaves an error and a way back, never a run that looks alive or whole. */
import { EXPECTED_PROBLEMS } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('a row store worker that crashes after answering shows an error, and a re-run shows every row again', async ({
  app,
  inspector,
  page,
}) => {
  const expected = EXPECTED_PROBLEMS.users;
  await app.selectConnection('sandbox');
  await app.selectTable('users');
  await inspector.waitComplete();
  const runId = await inspector.runId();

  // The store's worker throws out of a task of its own, as a bug or a failed allocation would.
  const worker = page.workers().find((w) => w.url().includes('row-store.worker'));
  expect(worker).toBeDefined();
  await worker?.evaluate(() => {
    setTimeout(() => {
      throw new Error('row store crashed on purpose');
    });
  });

  await expect(inspector.root).toHaveAttribute('data-audit-phase', 'error');
  await expect(inspector.root.getByTestId('error-box')).toContainText("lost this audit's rows");
  await expect(inspector.root.getByTestId('error-box')).toContainText('row store crashed on purpose');
  await expect(page.getByTestId('audit-complete')).toHaveCount(0);
  await expect(inspector.root.getByTestId('export-json')).toBeDisabled();

  await inspector.root.getByRole('button', { name: 'Re-run audit' }).click();
  await inspector.waitNewRunComplete(runId);
  await inspector.expectCounts(expected.summary);
  await expect(page.getByTestId('count-accounts')).toHaveText(expected.accounts.toLocaleString('en-US'));
  await inspector.filter('orphan-lock');
  await expect(inspector.rows).toHaveCount(expected.summary['orphan-lock']);
});
