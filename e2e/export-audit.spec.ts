/**
 * "Audit from an export…" in browser mode: the sandbox's accounts table exported to a folder,
 * audited from that export (problem groups only, labelled with the export and its time), then
 * confirmed against the live table — where an orphan released after the export has gone stale.
 */
import { join } from 'node:path';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { EXPECTED_PROBLEMS, sandboxClient, STUCK_HANDLE } from '../electron/services/sandbox';
import { exportTable } from '../electron/services/export/export-table';
import { tableArnFor } from '../electron/services/export/layout';
import { expect, test } from './fixtures';
import { expectAccessible } from './support/accessible';

test('audit from an export shows its problem groups labelled with its time, and confirming drops what was fixed since', async ({
  app,
  server,
  inspector,
  page,
  dataDir,
}) => {
  const expected = EXPECTED_PROBLEMS.accounts;
  await app.selectConnection('sandbox');
  if ((await app.table('accounts').getAttribute('aria-current')) !== 'true') await app.selectTable('accounts');
  await inspector.waitComplete();
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  try {
    const out = join(dataDir, 'accounts-export');
    const written = await exportTable({
      client,
      table: 'accounts',
      keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
      tableArn: tableArnFor('accounts', 'us-east-1'),
      out,
      partitions: 4,
    });
    // After the export: the stuck handle's orphan lock is released.
    await client.send(
      new DeleteItemCommand({ TableName: 'accounts', Key: { PK: { S: `UNIQ#HANDLE#${STUCK_HANDLE}` }, SK: { S: 'LOCK' } } }),
    );

    const live = await inspector.runId();
    // Keyboard: Escape closes the form and gives the focus back; the path field has it when open; Enter starts.
    await page.getByTestId('export-audit-open').click();
    await expect(page.getByTestId('export-path')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('export-audit-form')).toHaveCount(0);
    await expect(page.getByTestId('export-audit-open')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('export-path')).toBeFocused();
    await expectAccessible(page, 'export form');
    await page.keyboard.type(out);
    await page.keyboard.press('Enter');
    await inspector.waitNewRunComplete(live);

    const banner = page.getByTestId('export-source');
    await expect(banner).toContainText(written.exportArn);
    await expect(banner).toContainText('not live');
    await expect(banner).toContainText('Problem groups only');
    const exportTime = (await page.locator('[data-testid="export-source"] time').getAttribute('datetime')) ?? '';
    expect(Date.parse(exportTime)).toBeGreaterThan(Date.now() - 10 * 60_000);
    // The export was taken before the release: every problem of the seeded table is there.
    await inspector.expectCounts(expected.summary);
    await inspector.filter('orphan-lock');
    await expect(inspector.rows).toHaveCount(expected.summary['orphan-lock']);
    await expect(inspector.rows.filter({ hasText: `UNIQ#HANDLE#${STUCK_HANDLE}` })).toHaveCount(1);

    await expectAccessible(page, 'export run');
    await page.getByTestId('export-confirm').click();
    await expect(page.getByTestId('export-confirmed')).toContainText('1 stale');
    await inspector.expectCounts({ ...expected.summary, 'orphan-lock': expected.summary['orphan-lock'] - 1 });
    await expect(inspector.rows).toHaveCount(expected.summary['orphan-lock'] - 1);
    await expect(inspector.rows.filter({ hasText: `UNIQ#HANDLE#${STUCK_HANDLE}` })).toHaveCount(0);
    // A file saved from it says what it is: the export, its time, the confirmation.
    const saved = (await inspector.exportJson()) as Awaited<ReturnType<typeof inspector.exportJson>> & {
      source?: { exportArn: string; exportTime: string; confirmed?: { stale: number } };
    };
    expect(saved.source).toMatchObject({ exportArn: written.exportArn, exportTime, confirmed: { stale: 1 } });
    expect(saved.summary['orphan-lock']).toBe(expected.summary['orphan-lock'] - 1);
  } finally {
    client.destroy();
  }
});
