/**
 * What the release form says of an audit's orphan is no stronger than what was checked: the verdict is
 * the audit's (minutes old), and an account that took the value since makes Execute refuse, naming it.
 */
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { sandboxClient } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test("releasing an audit's orphan that an account took since: the form says the verdict is the audit's, Execute refuses naming the account", async ({
  app,
  server,
  inspector,
  lockForm,
}) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  const lockKey = { PK: { S: 'UNIQ#HANDLE#ghost' }, SK: { S: 'LOCK' } };
  try {
    await inspector.search('ghost');
    const detail = await inspector.expand(inspector.rows.filter({ hasText: 'UNIQ#HANDLE#ghost' }));
    await detail.getByRole('button', { name: 'Release this lock…' }).click();
    await expect(lockForm.root.getByTestId('tx-orphan-as-of')).toContainText('when the audit read it: an account may hold it since');

    // After the audit, an account comes to hold the value (written outside a transaction).
    await client.send(
      new PutItemCommand({ TableName: 'accounts', Item: { PK: { S: 'ACCT#taker1' }, SK: { S: 'PROFILE' }, username: { S: 'Ghost' } } }),
    );
    await lockForm.preview();
    await lockForm.confirm('ghost');
    const outcome = await lockForm.execute();

    await expect(outcome).toHaveAttribute('data-status', 'refused');
    await expect(outcome.getByTestId('tx-refused')).toContainText('ACCT#taker1');
    expect((await client.send(new GetItemCommand({ TableName: 'accounts', Key: lockKey, ConsistentRead: true }))).Item).toBeDefined();
  } finally {
    client.destroy();
  }
});
