/** A newcomer's flow: sandbox → accounts → the seeded problems → free the stuck handle → verified → in Activity. */
import { EXPECTED_PROBLEMS, STUCK_HANDLE } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('a newcomer finds and frees the stuck handle', async ({ app, inspector, lookup, lockForm, page }) => {
  const expected = EXPECTED_PROBLEMS.accounts;

  // Arrange: start → sandbox → accounts, audited.
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();

  // The seeded problems, with their exact counts.
  await inspector.expectCounts(expected.summary);
  await expect(page.getByTestId('count-accounts')).toHaveText(expected.accounts.toLocaleString('en-US'));
  await expect(page.getByTestId('count-locks')).toHaveText(expected.locks.toLocaleString('en-US'));
  await inspector.filter('orphan-lock');
  await expect(inspector.rows).toHaveCount(expected.summary['orphan-lock']);
  await expect(inspector.row(`UNIQ#HANDLE#${STUCK_HANDLE}`)).toBeVisible();

  // Act: look up the stuck handle, preview its release.
  await lookup.lookUp(STUCK_HANDLE);
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'orphan');
  await lookup.confirmByScan('HANDLE');
  await lookup.rule('HANDLE').getByTestId('action-release').click();
  await lockForm.preview();

  // The preview shows the exact request: one guarded Delete of the lock, and its token.
  const json = (await lockForm.previewJson()) as { TransactItems: unknown[]; ClientRequestToken?: string };
  expect(json.TransactItems[0]).toMatchObject({
    Delete: {
      TableName: 'accounts',
      Key: { PK: { S: `UNIQ#HANDLE#${STUCK_HANDLE}` }, SK: { S: 'LOCK' } },
      ConditionExpression: expect.stringContaining('attribute_exists'),
    },
  });
  const token = (await lockForm.root.getByTestId('tx-token').innerText()).trim();
  expect(token).not.toBe('');
  if (json.ClientRequestToken !== undefined) expect(json.ClientRequestToken).toBe(token);

  // Execute stays disabled until the value is typed back.
  await expect(lockForm.executeButton).toBeDisabled();
  await lockForm.confirm(STUCK_HANDLE.toUpperCase());
  await expect(lockForm.executeButton).toBeDisabled();
  await lockForm.confirm(STUCK_HANDLE);
  await expect(lockForm.executeButton).toBeEnabled();
  const outcome = await lockForm.execute();

  // Assert: executed, re-checked free, the problem gone from the inspector, Activity records it.
  await expect(outcome).toHaveAttribute('data-status', 'succeeded');
  // "Verified" means verified: the release's written item was re-read (consistently) and is gone.
  await expect(outcome.getByTestId('tx-verified')).toHaveAttribute('data-verified', 'true');
  await expect(lockForm.root.getByTestId('tx-recheck').getByTestId('lookup-verdict').first()).toBeVisible();
  await lockForm.close();
  await app.tab('inspector');
  await expect(inspector.count('orphan-lock')).toHaveAttribute('data-count', String(expected.summary['orphan-lock'] - 1));
  await expect(inspector.rows.filter({ hasText: `UNIQ#HANDLE#${STUCK_HANDLE}` })).toHaveCount(0);
  await app.tab('activity');
  const entry = page.getByTestId('activity-entry').first();
  await expect(entry).toContainText('accounts');
  await expect(entry).toContainText(`UNIQ#HANDLE#${STUCK_HANDLE}`);
  // The row itself says which action, which value and which keys, without opening it.
  await expect(entry.getByTestId('activity-kind')).toHaveText('release');
  await expect(entry.getByTestId('activity-what')).toContainText(STUCK_HANDLE);
  await expect(entry.getByTestId('activity-keys')).toContainText(`Delete PK=UNIQ#HANDLE#${STUCK_HANDLE} · SK=LOCK`);
});
