/**
 * The inspector tells the truth on every audit and after every write: re-runs, table switches, a
 * release followed by exports, lookup and a re-run — each checked against the seeded table's exact
 * rows, counts and problems (EXPECTED_PROBLEMS), not against what an earlier screen showed.
 */
import type { Page } from '@playwright/test';
import { EXPECTED_PROBLEMS, problemSignature, STUCK_HANDLE, type ExpectedTable } from '../electron/services/sandbox';
import type { Problem } from '../shared/model';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { ExportedJson, InspectorPage } from './pages/inspector-page';

// One row per account, per orphan lock and per malformed lock.
const rowTotal = (expected: ExpectedTable): number =>
  expected.accounts + expected.summary['orphan-lock'] + expected.summary['malformed-lock'];
const signatures = (problems: readonly Problem[]): string[] => problems.map(problemSignature).sort();
const number = (n: number): string => n.toLocaleString('en-US');

/** Asserts the inspector shows exactly `expected`: every count, the row total, and each orphan row. */
async function expectTable(page: Page, inspector: InspectorPage, expected: ExpectedTable): Promise<void> {
  await inspector.expectCounts(expected.summary);
  await expect(page.getByTestId('count-accounts')).toHaveText(number(expected.accounts));
  await expect(page.getByTestId('count-locks')).toHaveText(number(expected.locks));
  await expect(page.getByTestId('count-scanned')).toHaveText(number(expected.items));
  await expect(page.getByTestId('problem-counts')).toHaveAttribute('data-provisional', 'false');
  await inspector.expectRowTotal(rowTotal(expected));
  await inspector.filter('orphan-lock');
  const orphans = expected.problems.filter((p) => p.kind === 'orphan-lock');
  await expect(inspector.rows).toHaveCount(orphans.length);
  for (const orphan of orphans)
    await expect(inspector.rows.filter({ hasText: Object.values(orphan.lock ?? {})[0] as string })).toHaveCount(1);
  await inspector.filter('all');
}

/** Opens `table` (the startup URL may have opened it already) and waits for its audit. */
async function openTable(app: AppPage, inspector: InspectorPage, table: string): Promise<void> {
  if ((await app.table(table).getAttribute('aria-current')) === 'true') return inspector.waitComplete();
  const previous = await inspector.runId();
  await app.selectTable(table);
  await inspector.waitNewRunComplete(previous);
}

test('three re-runs in a row each show exactly the rows and counts of the table', async ({ app, inspector, page }) => {
  const expected = EXPECTED_PROBLEMS.accounts;
  await app.selectConnection('sandbox');
  await openTable(app, inspector, 'accounts');
  await expectTable(page, inspector, expected);
  for (let run = 0; run < 3; run++) {
    await inspector.rerun();
    await expectTable(page, inspector, expected);
    // The problems sort groups by kind on every run, whatever order the rows streamed in.
    const kinds = await inspector.rows.evaluateAll((rows) => rows.slice(0, 8).map((r) => r.getAttribute('data-row-kind')));
    expect(kinds.slice(0, expected.summary['orphan-lock'])).toEqual(Array(expected.summary['orphan-lock']).fill('orphan-lock'));
  }
  const exported = await inspector.exportJson();
  expect(signatures(exported.problems as Problem[])).toEqual(signatures(expected.problems));
});

test('switching tables back and forth shows each table exactly, never the rows of the other', async ({ app, inspector, page }) => {
  await app.selectConnection('sandbox');
  for (const table of ['accounts', 'users', 'accounts', 'onetable_app', 'users'] as const) {
    await openTable(app, inspector, table);
    await expectTable(page, inspector, EXPECTED_PROBLEMS[table]);
  }
  // A table can also be opened by typing its name (past the listed pages, or not listable).
  const previous = await inspector.runId();
  await page.getByTestId('table-by-name').fill('accounts');
  await page.getByTestId('table-by-name').press('Enter');
  await inspector.waitNewRunComplete(previous);
  await expectTable(page, inspector, EXPECTED_PROBLEMS.accounts);
});

test('after a release, the inspector, the lookup card, both exports and a re-run agree', async ({
  app,
  inspector,
  lookup,
  lockForm,
  page,
}) => {
  const before = EXPECTED_PROBLEMS.accounts;
  const after: ExpectedTable = {
    ...before,
    locks: before.locks - 1,
    items: before.items - 1,
    summary: { ...before.summary, 'orphan-lock': before.summary['orphan-lock'] - 1 },
    problems: before.problems.filter((p) => !(p.kind === 'orphan-lock' && p.value === STUCK_HANDLE)),
  };
  await app.selectConnection('sandbox');
  await openTable(app, inspector, 'accounts');

  // Act: release the stuck handle from its lookup card.
  await lookup.lookUp(STUCK_HANDLE);
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'orphan');
  await lookup.confirmByScan('HANDLE');
  await lookup.rule('HANDLE').getByTestId('action-release').click();
  await lockForm.preview();
  await lockForm.confirm(STUCK_HANDLE);
  await expect(await lockForm.execute()).toHaveAttribute('data-status', 'succeeded');
  await lockForm.close();

  // The lookup card re-checked itself: free, and no Release on offer.
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'free');
  await expect(lookup.rule('HANDLE').getByTestId('action-release')).toHaveCount(0);

  // The inspector: one orphan and one lock fewer, and scanned still equals accounts + locks.
  await app.tab('inspector');
  await expectTable(page, inspector, after);

  // Both exports say the same as the screen, and where they came from.
  const json: ExportedJson = await inspector.exportJson();
  expect(json.summary).toEqual(after.summary);
  expect([json.scanned, json.accounts, json.locks]).toEqual([after.items, after.accounts, after.locks]);
  expect(signatures(json.problems as Problem[])).toEqual(signatures(after.problems));
  expect(json.complete).toBe(true);
  expect(json.exported).toMatchObject({
    filter: 'all problems',
    search: '',
    rowsShown: rowTotal(after),
    writesSinceAudit: 1,
    connection: { id: 'sandbox' },
  });
  expect(Date.parse(json.exported.exportedAt)).not.toBeNaN();
  const csv = await inspector.exportCsv();
  expect(csv).not.toContain(STUCK_HANDLE);
  const csvLines = csv.trimEnd().split('\r\n');
  // Header, one line per problem, the provenance line.
  expect(csvLines).toHaveLength(1 + after.problems.length + 1);
  expect(csvLines.at(-1)).toMatch(/^"export",.*filter: all problems.*; complete; 1 value\(s\) re-checked after writes"$/);

  // A filtered export carries only what the filter shows, and says which filter.
  await inspector.filter('missing-lock');
  const filtered = await inspector.exportJson();
  expect(filtered.exported.filter).toBe('Missing lock');
  expect(signatures(filtered.problems as Problem[])).toEqual(signatures(after.problems.filter((p) => p.kind === 'missing-lock')));
  await inspector.filter('all');

  // A re-run reads the table again and finds exactly the same.
  await inspector.rerun();
  await expectTable(page, inspector, after);
  const rerun = await inspector.exportJson();
  expect(rerun.exported.writesSinceAudit).toBe(0);
  expect(signatures(rerun.problems as Problem[])).toEqual(signatures(after.problems));
});
