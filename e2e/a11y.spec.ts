/** No serious or critical axe violations on the main screens, in light and dark. */
import { STUCK_HANDLE } from '../electron/services/sandbox';
import { test } from './fixtures';
import { expectAccessible } from './support/accessible';

for (const theme of ['light', 'dark'] as const) {
  test(`main screens have no serious or critical axe violations (${theme})`, async ({ app, inspector, lookup, lockForm, page }) => {
    await app.theme(theme);
    await expectAccessible(page, 'welcome');
    await app.selectConnection('sandbox');
    await app.selectTable('accounts');
    await inspector.waitComplete();
    await expectAccessible(page, 'inspector');
    await inspector.expand(inspector.rows.first());
    await expectAccessible(page, 'inspector expanded');
    await lookup.lookUp(STUCK_HANDLE);
    await expectAccessible(page, 'lookup');
    await lookup.confirmByScan('HANDLE');
    await lookup.rule('HANDLE').getByTestId('action-release').click();
    await lockForm.preview();
    await expectAccessible(page, 'lock form');
    await lockForm.close();
    for (const tab of ['table', 'convention', 'decode', 'activity'] as const) {
      await app.tab(tab);
      await expectAccessible(page, tab);
    }
  });
}
