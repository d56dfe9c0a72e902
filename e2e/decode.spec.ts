/** The decoder: its input survives a tab switch, the example fills both fields, the ALL_OLD item is shown, and a failed lock links to Lookup. */
import { STUCK_HANDLE } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('decodes a cancellation, shows the ALL_OLD item and looks its value up', async ({ app, inspector, page }) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();

  // The example fills the message and the request it answers.
  await app.tab('decode');
  await page.getByRole('button', { name: 'Use an example' }).click();
  await expect(page.getByTestId('decode-text')).toHaveValue(/ConditionalCheckFailed/);
  await expect(page.getByTestId('decode-request')).toHaveValue(/UNIQ#HANDLE#ada/);

  // A pasted CancellationReasons array with the ALL_OLD item of the failed action.
  const reasons = JSON.stringify([
    { Code: 'None' },
    { Code: 'ConditionalCheckFailed', Item: { PK: { S: `UNIQ#HANDLE#${STUCK_HANDLE}` }, SK: { S: 'LOCK' } } },
  ]);
  await page.getByTestId('decode-text').fill(reasons);
  await page.getByRole('button', { name: 'Decode', exact: true }).click();
  const failed = page.getByTestId('decode-reason').nth(1);
  await expect(failed).toContainText('ConditionalCheckFailed');
  await failed.getByText('The item when the condition failed (ALL_OLD)').click();
  await expect(failed.getByTestId('decode-item')).toContainText(`UNIQ#HANDLE#${STUCK_HANDLE}`);

  // The input is still there after a visit to another tab.
  await app.tab('inspector');
  await app.tab('decode');
  await expect(page.getByTestId('decode-text')).toHaveValue(reasons);

  // "Look up" takes the lock's value to Lookup.
  await page.getByRole('button', { name: 'Decode', exact: true }).click();
  await page.getByTestId('decode-reason').nth(1).getByTestId('decode-lookup').click();
  await expect(page.getByTestId('lookup-input')).toHaveValue(STUCK_HANDLE);
  await expect(page.getByTestId('lookup-rule-HANDLE').getByTestId('lookup-verdict')).toHaveAttribute('data-verdict', 'orphan');
});
