/**
 * Lookup after an audit, in the browser: the verdict from the audit's index says it holds only as of
 * that audit (not green, not "confirmed"), offers the scan that confirms it, and shows the GSI command
 * that would make the lookup instant. An orphan from the audit offers no release until a scan confirms it:
 * an account written since by a client that takes no lock is not seen, and releasing would unprotect it
 * (and should one appear between preview and Execute, the server's holder scan before sending refuses).
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { sandboxClient, USERS_ORPHAN_NAME } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('a lookup answered from the audit is labelled as of that audit, confirms by a scan, and suggests the GSI', async ({
  app,
  inspector,
  lookup,
  page,
}) => {
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

test('an orphan answered from the audit offers its release only after a scan confirms it', async ({
  app,
  server,
  inspector,
  lookup,
  lockForm,
}) => {
  await app.selectConnection('sandbox');
  await app.selectTable('users');
  await inspector.waitComplete();
  const rule = lookup.rule('NAME');
  const release = rule.getByTestId('action-release');
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  const lateAccount = { userId: { S: 'late-writer' }, name: { S: USERS_ORPHAN_NAME } };
  const lockKey = { userId: { S: `NAME#${USERS_ORPHAN_NAME}` } };

  // The audit's orphan: shown, but the release is held back with the reason and the way to confirm.
  await lookup.lookUp(USERS_ORPHAN_NAME);
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-verdict', 'orphan');
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-confirmed', 'false');
  await expect(release).toBeDisabled();
  await expect(release).toHaveAccessibleDescription(/as of the audit of .*Confirm with a scan first/);
  await expect(rule.getByTestId('action-release-why')).toContainText('releasing would leave it unprotected');

  // Another writer (taking no lock) gives the name to an account after the audit; the audit's index
  // cannot see it: still "orphan" as of the audit, and still no release on offer.
  await client.send(new PutItemCommand({ TableName: 'users', Item: lateAccount, ConditionExpression: 'attribute_not_exists(userId)' }));
  await lookup.lookUp(USERS_ORPHAN_NAME);
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-confirmed', 'false');
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-verdict', 'orphan');
  await expect(release).toBeDisabled();

  // The scan finds the account: the lock protects it, and there is nothing to release.
  await lookup.confirmByScan('NAME');
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-verdict', 'held');
  await expect(rule.getByTestId('lookup-holder-link')).toContainText('late-writer');
  await expect(release).toHaveCount(0);

  // The account goes away again; confirmed by a scan, nobody holds the name: the release is offered as before.
  await client.send(new DeleteItemCommand({ TableName: 'users', Key: { userId: lateAccount.userId } }));
  await lookup.lookUp(USERS_ORPHAN_NAME);
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-confirmed', 'false');
  await lookup.confirmByScan('NAME');
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-verdict', 'orphan');
  await expect(release).toBeEnabled();
  await expect(rule.getByTestId('action-release-why')).toHaveCount(0);

  // Previewed, then the writer takes the name again before Execute: the server's holder scan right
  // before sending refuses (defense in depth), and the lock stays.
  await release.click();
  await lockForm.preview();
  await client.send(new PutItemCommand({ TableName: 'users', Item: lateAccount, ConditionExpression: 'attribute_not_exists(userId)' }));
  await lockForm.confirm(USERS_ORPHAN_NAME);
  const outcome = await lockForm.execute();
  await expect(outcome).toHaveAttribute('data-status', 'refused');
  await expect(outcome).toContainText('late-writer');
  expect((await client.send(new GetItemCommand({ TableName: 'users', Key: lockKey, ConsistentRead: true }))).Item).toEqual(lockKey);
  client.destroy();
});
