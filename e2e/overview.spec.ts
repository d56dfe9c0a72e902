/** The connection's overview: every table's locks, convention, last audit and trend at a glance; Audit all; accessible in both themes. */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { AuditReport } from '../shared/audit/types';
import { PRESET_TABLES } from '../electron/cli/testing/preset-tables';
import { historyTarget, recordAudit } from '../electron/services/history/audit-history';
import { createTempTable, putItems, testClient } from '../electron/testing/dynamo-fixtures';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app-page';
import { expectAccessible } from './support/accessible';
import { seedLargeUniqTable } from './support/seed';
import { startServe } from './support/server';

const pair = { hash: { name: 'PK', type: 'S' as const }, range: { name: 'SK', type: 'S' as const } };
const s = (value: string): { S: string } => ({ S: value });

test('the overview shows each table’s lock health and trend, audits all, and opens a table', async ({
  localDynamo,
  dataDir,
  page,
  inspector,
}) => {
  test.setTimeout(180_000);
  // Arrange: two layouts with problems, a table without locks, an empty one, a doubtful one; two past audits of the first.
  const client = testClient(localDynamo.endpoint);
  const [uniq, marker] = [PRESET_TABLES[0]!, PRESET_TABLES[1]!];
  const uniqTable = await createTempTable(client, uniq.keys, 'ov_uniq');
  await putItems(client, uniqTable, uniq.items);
  const markerTable = await createTempTable(client, marker.keys, 'ov_marker');
  await putItems(client, markerTable, marker.items);
  const plain = await createTempTable(client, pair, 'ov_orders');
  await client.send(new PutItemCommand({ TableName: plain, Item: { PK: s('order-1'), SK: s('v1') } }));
  const empty = await createTempTable(client, pair, 'ov_empty');
  const doubtful = await createTempTable(client, pair, 'ov_doubtful');
  await putItems(client, doubtful, [
    { PK: s('ACCT#1'), SK: s('PROFILE'), email: s('a@x.io') },
    { PK: s('UNIQ#EMAIL#a@x.io'), SK: s('LOCK') },
    { PK: s('UNIQ#HANDLE#zed'), SK: s('LOCK') },
  ]);
  const target = historyTarget({ endpoint: localDynamo.endpoint, region: 'us-east-1' });
  const past = (problems: number): AuditReport => ({
    table: uniqTable,
    complete: true,
    warnings: [],
    convention: {
      preset: 'uniq',
      keys: uniq.keys,
      account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
      rules: [],
      lockPrefixes: ['UNIQ#'],
    },
    scanned: 12,
    accounts: 4,
    locks: 7,
    summary: { 'orphan-lock': problems, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
    problems: [],
  });
  await recordAudit(dataDir, past(3), { target, source: 'live', time: new Date('2026-01-01T10:00:00Z') });
  await recordAudit(dataDir, past(5), { target, source: 'export', time: new Date('2026-01-08T10:00:00Z') });
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    await page.locator('[data-testid^="connection-endpoint"]').first().click();
    const overview = page.getByTestId('overview');
    const row = (table: string) => overview.getByTestId(`overview-row-${table}`);

    // Assert: every table's answer, once sampled.
    await expect(row(uniqTable)).toContainText('yes', { timeout: 30_000 });
    await expect(row(uniqTable)).toContainText('uniq (detected)');
    await expect(row(uniqTable)).toContainText('5 problems');
    await expect(row(uniqTable)).toContainText('(export)');
    await expect(row(uniqTable).getByRole('img')).toHaveAccessibleName(
      'Problems over past audits: 2 complete audits: 3, 5 problems (oldest first), rising',
    );
    await expect(row(markerTable)).toContainText('marker (detected)');
    await expect(row(markerTable)).toContainText('never');
    await expect(row(plain).getByRole('cell').first()).toHaveText('no');
    await expect(row(empty)).toContainText('no (empty table)');
    await expect(row(doubtful)).toContainText('needs a convention (0.5)');
    for (const theme of ['light', 'dark'] as const) {
      await app.theme(theme);
      await expectAccessible(page, `overview (${theme})`);
    }

    // Act: Audit all — the two tables detection is sure of, not the doubtful one.
    await expect(overview.getByTestId('overview-audit-all')).toHaveText('Audit all (2)');
    await overview.getByTestId('overview-audit-all').click();
    await expect(overview.getByText('Audit all finished')).toBeVisible({ timeout: 60_000 });
    await expect(overview.getByTestId('overview-progress')).toHaveText('2 of 2 tables');

    // Assert: the new audits are in the history, and in the trend.
    await expect(row(uniqTable)).toContainText('2 problems');
    await expect(row(uniqTable)).not.toContainText('(export)');
    await expect(row(uniqTable).getByRole('img')).toHaveAccessibleName(
      'Problems over past audits: 3 complete audits: 3, 5, 2 problems (oldest first), falling',
    );
    await expect(row(markerTable)).toContainText('2 problems');
    await expect(row(doubtful)).toContainText('never');
    await expectAccessible(page, 'overview after Audit all');

    // A click opens the table's inspector, as the sidebar does.
    await row(uniqTable).getByRole('button', { name: uniqTable }).click();
    await expect(app.table(uniqTable)).toHaveAttribute('aria-current', 'true');
    await inspector.waitDone();
    await page.getByTestId('tables-overview').click();
    await expect(overview).toBeVisible();
  } finally {
    client.destroy();
    await server.stop();
  }
});

test('Audit all stops on Cancel: the running audit ends cancelled and is not recorded; a finished one is', async ({
  localDynamo,
  dataDir,
  page,
}) => {
  test.setTimeout(180_000);
  let small = '';
  // Arrange: a table big enough that its scan is still running when Cancel is pressed.
  const client = testClient(localDynamo.endpoint);
  await seedLargeUniqTable(client, 'ov_big', 20_000);
  await createTempTable(client, PRESET_TABLES[0]!.keys, 'ov_small').then((name) =>
    putItems(client, name, PRESET_TABLES[0]!.items.slice(0, 6)).then(() => (small = name)),
  );
  const server = await startServe({ dataDir, args: ['--endpoint', localDynamo.endpoint] });
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    await page.locator('[data-testid^="connection-endpoint"]').first().click();
    const overview = page.getByTestId('overview');
    await expect(overview.getByTestId('overview-audit-all')).toHaveText('Audit all (2)', { timeout: 30_000 });

    // Act: start, and cancel once the scan has read items.
    await overview.getByTestId('overview-audit-all').click();
    await expect(overview.getByTestId('overview-progress')).toContainText('ov_big:', { timeout: 30_000 });
    await overview.getByTestId('overview-cancel').click();

    // Assert: it ends as cancelled, says why, and the table still has no audit on record.
    await expect(overview.getByText('Audit all cancelled')).toBeVisible({ timeout: 30_000 });
    await expect(overview.getByRole('list', { name: 'Audits that did not complete' })).toContainText('ov_big');
    // The small table's finished audit shows once the history is read again; the big one's cancelled run is not in it.
    await expect(overview.getByTestId(`overview-row-${small}`)).toContainText('no problems');
    await expect(overview.getByTestId('overview-row-ov_big')).toContainText('never');
    await expect(overview.getByTestId('overview-audit-all')).toBeEnabled();
  } finally {
    client.destroy();
    await server.stop();
  }
});
