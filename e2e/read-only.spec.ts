/** A read-only connection refuses to execute, and says why, before anything is sent. */
import { STUCK_HANDLE } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('a read-only connection cannot execute a release', async ({ app, inspector, lookup, lockForm }) => {
  await app.selectConnection('sandbox');
  await app.makeReadOnly();
  await app.selectTable('accounts');
  await inspector.waitComplete();

  await lookup.lookUp(STUCK_HANDLE);
  await lookup.confirmByScan('HANDLE');
  await lookup.rule('HANDLE').getByTestId('action-release').click();
  await lockForm.preview();

  await expect(lockForm.root.getByTestId('tx-read-only')).toContainText(/read-only/i);
  await expect(lockForm.root.getByTestId('tx-confirm')).toBeDisabled();
  await expect(lockForm.executeButton).toBeDisabled();
  // The lock is still there.
  await lockForm.close();
  await lookup.lookUp(STUCK_HANDLE);
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'orphan');
});
