/** Claiming a missing lock from the inspector: hedy's handle has no lock; claim it and see the row healed in place. */
import { ACCOUNTS_NAMED, EXPECTED_PROBLEMS } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('claims the missing handle lock of an account', async ({ app, inspector, lockForm }) => {
  const { hedy } = ACCOUNTS_NAMED;
  const missing = EXPECTED_PROBLEMS.accounts.summary['missing-lock'];
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();

  await inspector.search(hedy.email);
  const row = inspector.row(`ACCT#${hedy.id}`);
  await expect(row).toContainText('no lock');
  const detail = await inspector.expand(row);
  await detail.getByRole('button', { name: 'Claim lock…' }).click();

  await lockForm.preview();
  const json = (await lockForm.previewJson()) as { TransactItems: unknown[] };
  expect(json.TransactItems).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        Put: expect.objectContaining({ Item: expect.objectContaining({ PK: { S: `UNIQ#HANDLE#${hedy.username}` } }) }),
      }),
      expect.objectContaining({ ConditionCheck: expect.objectContaining({ Key: { PK: { S: `ACCT#${hedy.id}` }, SK: { S: 'PROFILE' } } }) }),
    ]),
  );
  await lockForm.confirm(hedy.username);
  const outcome = await lockForm.execute();
  await expect(outcome).toHaveAttribute('data-status', 'succeeded');
  await lockForm.close();

  // The group was re-checked and updated in place: healthy now, one missing lock fewer.
  await expect(inspector.row(`ACCT#${hedy.id}`)).toContainText('healthy');
  await expect(inspector.count('missing-lock')).toHaveAttribute('data-count', String(missing - 1));
});
