/** A preview that went stale (the lock vanished behind our back) fails clearly and writes nothing. */
import { DeleteItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { sandboxClient } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('executing a stale release preview is refused with the reason', async ({ app, server, inspector, lookup, lockForm }) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  const key = { PK: { S: 'UNIQ#HANDLE#ghost' }, SK: { S: 'LOCK' } };

  await lookup.lookUp('ghost');
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'orphan');
  await lookup.confirmByScan('HANDLE');
  await lookup.rule('HANDLE').getByTestId('action-release').click();
  await lockForm.preview();

  // Someone else releases the lock between preview and execute.
  await client.send(new DeleteItemCommand({ TableName: 'accounts', Key: key }));
  await lockForm.confirm('ghost');
  const outcome = await lockForm.execute();

  await expect(outcome).toHaveAttribute('data-status', 'cancelled');
  await expect(outcome.getByTestId('tx-reason').first()).toContainText('ConditionalCheckFailed');
  expect((await client.send(new GetItemCommand({ TableName: 'accounts', Key: key, ConsistentRead: true }))).Item).toBeUndefined();
  client.destroy();
});
