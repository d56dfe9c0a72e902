/**
 * Lookup after an audit, in the browser: the verdict from the audit's index says it holds only as of
 * that audit (not green, not "confirmed"), offers the scan that confirms it, and shows the GSI command
 * that would make the lookup instant.
 */
import { expect, test } from './fixtures';

test('a lookup answered from the audit is labelled as of that audit, confirms by a scan, and suggests the GSI', async ({ app, inspector, lookup, page }) => {
  await app.selectConnection('sandbox');
  await app.selectTable('users');
  await inspector.waitComplete();

  const value = '아무도없음';
  await lookup.lookUp(value);
  const verdict = lookup.verdict('NAME');
  await expect(verdict).toHaveAttribute('data-verdict', 'free');
  await expect(verdict).toHaveAttribute('data-confirmed', 'false');
  await expect(verdict).toContainText('not confirmed by a scan');
  await expect(page.getByTestId('lookup-result')).toContainText('the audit of');
  await expect(lookup.rule('NAME').getByTestId('lookup-as-of-audit')).toBeVisible();

  // The GSI that would answer this with one Query: the exact command, for the users table.
  const suggestion = lookup.rule('NAME').getByTestId('lookup-suggested-index');
  await suggestion.locator('summary').click();
  const command = suggestion.getByTestId('lookup-suggested-command');
  await expect(command).toContainText(`aws dynamodb update-table --cli-input-json '{"TableName":"users"`);
  await expect(command).toContainText('"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"locksmith-by-');

  await lookup.rule('NAME').getByTestId('lookup-confirm-scan').click();
  await expect(verdict).toHaveAttribute('data-confirmed', 'true');
  await expect(verdict).toHaveAttribute('data-verdict', 'free');
  await expect(page.getByTestId('lookup-result')).toContainText('a filtered scan');
  await expect(lookup.rule('NAME').getByTestId('lookup-as-of-audit')).toHaveCount(0);
  await expect(lookup.rule('NAME').getByTestId('lookup-suggested-index')).toBeVisible();
});
