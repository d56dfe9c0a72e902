/** The `users` table (seed-2 layout: hash key only, `NAME#<name>` markers, Korean names) audited correctly. */
import { EXPECTED_PROBLEMS, USERS_NAMED, USERS_ORPHAN_NAME } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

test('audits users with Korean names: the orphan marker and the missing one', async ({ app, inspector, lookup, page }) => {
  const expected = EXPECTED_PROBLEMS.users;
  await app.selectConnection('sandbox');
  await app.selectTable('users');
  await inspector.waitComplete();

  await inspector.expectCounts(expected.summary);
  await expect(page.getByTestId('count-accounts')).toHaveText(expected.accounts.toLocaleString('en-US'));

  await inspector.search(USERS_ORPHAN_NAME);
  await expect(inspector.rows).toHaveCount(1);
  await expect(inspector.rows.first()).toHaveAttribute('data-row-kind', 'orphan-lock');
  await expect(inspector.rows.first()).toContainText(`NAME#${USERS_ORPHAN_NAME}`);

  await inspector.search(USERS_NAMED.choi.name);
  await expect(inspector.rows).toHaveCount(1);
  await expect(inspector.rows.first()).toContainText('no lock');

  // A healthy Korean name is held, and the lookup says so.
  await lookup.lookUp(USERS_NAMED.baekgwa.name);
  await expect(lookup.verdict('NAME')).toHaveAttribute('data-verdict', 'held');
  await expect(lookup.rule('NAME')).toContainText(`NAME#${USERS_NAMED.baekgwa.name}`);
});
