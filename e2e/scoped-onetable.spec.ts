/**
 * Scoped uniqueness in the UI, on a table the real dynamodb-onetable wrote: a nickname unique per org
 * is shown with its org, one nickname held in two orgs is healthy, an orphan in one org is released
 * from its row — and OneTable itself then accepts the released nickname in that org.
 */
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { Table } from 'dynamodb-onetable';
import { testClient, uniqueTableName } from '../electron/testing/dynamo-fixtures';
import { ONETABLE_ORG_SCHEMA } from '../electron/testing/interop/onetable-schema';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app-page';
import { LockFormPage } from './pages/lock-form-page';
import { startServe } from './support/server';

test('a OneTable nickname unique per org: shown with its org, released in that org only, accepted by OneTable after', async ({
  localDynamo,
  dataDir,
  page,
  inspector,
  lookup,
}) => {
  test.setTimeout(120_000);
  // Arrange: OneTable writes the table; a raw delete strands bob's locks in acme.
  const client = testClient(localDynamo.endpoint);
  const name = uniqueTableName('org_users');
  const table = new Table({ client, name, schema: ONETABLE_ORG_SCHEMA, partial: false });
  await table.createTable();
  const User = table.getModel('User') as unknown as { create(u: Record<string, string>): Promise<unknown> };
  await User.create({ id: 'u1', orgId: 'acme', email: 'ada@acme.io', nickname: 'ada' });
  await User.create({ id: 'u2', orgId: 'globex', email: 'ada@globex.io', nickname: 'ada' });
  await User.create({ id: 'u3', orgId: 'acme', email: 'bob@acme.io', nickname: 'bob' });
  await client.send(new DeleteItemCommand({ TableName: name, Key: { pk: { S: 'User#u3' }, sk: { S: 'User#' } } }));
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    await page.locator('[data-testid^="connection-endpoint"]').first().click();
    await app.selectTable(name);
    await inspector.waitComplete();

    // The same nickname in two orgs is not a duplicate; bob's two locks are orphans.
    await inspector.expectCounts({ 'orphan-lock': 2, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 });
    await inspector.search('bob');
    const orphan = inspector.rows.filter({ hasText: '_unique#acme#User#nickname#bob' });
    await expect(orphan).toHaveCount(1);
    await expect(orphan.getByTestId('cell-scope')).toHaveText('in orgId acme');

    // Lookup answers per org.
    await lookup.lookUp('ada');
    const nickname = lookup.rule('User.nickname');
    await expect(nickname).toHaveCount(2);
    await expect(nickname.getByTestId('lookup-scope')).toHaveText([/orgId.*acme/, /orgId.*globex/]);
    await expect(nickname.getByTestId('lookup-verdict')).toHaveText([/held/i, /held/i]);

    // Release the orphan from its row: the preview deletes exactly the scoped key OneTable checks.
    await page.getByTestId('tab-inspector').click();
    await inspector.search('bob');
    const detail = await inspector.expand(inspector.rows.filter({ hasText: '_unique#acme#User#nickname#bob' }));
    await expect(detail.getByTestId('row-scope')).toHaveText('orgId acme');
    await detail.getByRole('button', { name: 'Release this lock…' }).click();
    const form = new LockFormPage(page);
    await form.preview();
    const input = (await form.previewJson()) as { TransactItems: { Delete?: { Key: Record<string, { S: string }> } }[] };
    expect(input.TransactItems[0]?.Delete?.Key).toEqual({ pk: { S: '_unique#acme#User#nickname#bob' }, sk: { S: '_unique#' } });
    await form.confirm('bob');
    const outcome = await form.execute();
    await expect(outcome).toContainText(/applied|succeeded|released/i);

    // The library is the judge: OneTable now accepts bob in acme.
    await expect(User.create({ id: 'u9', orgId: 'acme', email: 'bob2@acme.io', nickname: 'bob' })).resolves.toBeTruthy();
  } finally {
    await server.stop();
    client.destroy();
  }
});
