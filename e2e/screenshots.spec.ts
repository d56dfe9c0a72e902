/**
 * Screenshots of the main screens in light and dark, attached to the report as artifacts. With
 * LOCKSMITH_DOCS_IMAGES set (`npm run screenshots`), the light inspector is also written there as
 * inspector.png: the README's picture is taken from the sandbox by this test, never by hand.
 */
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { STUCK_HANDLE } from '../electron/services/sandbox';
import { test } from './fixtures';

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: false });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

for (const theme of ['light', 'dark'] as const) {
  test(`screenshots of the main screens (${theme})`, async ({ app, inspector, lookup, lockForm, page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.theme(theme);
    await shoot(page, testInfo, `${theme}-welcome`);
    await app.selectConnection('sandbox');
    await app.selectTable('accounts');
    await inspector.waitComplete();
    await shoot(page, testInfo, `${theme}-inspector`);
    await inspector.filter('problems');
    await inspector.expand(inspector.rows.first());
    await shoot(page, testInfo, `${theme}-inspector-problems`);
    const docsImages = process.env.LOCKSMITH_DOCS_IMAGES;
    if (docsImages && theme === 'light') await page.screenshot({ path: join(docsImages, 'inspector.png'), fullPage: false });
    await lookup.lookUp(STUCK_HANDLE);
    await shoot(page, testInfo, `${theme}-lookup`);
    await lookup.confirmByScan('HANDLE');
    await lookup.rule('HANDLE').getByTestId('action-release').click();
    await lockForm.preview();
    await shoot(page, testInfo, `${theme}-release-preview`);
    await lockForm.close();
    for (const tab of ['table', 'convention', 'decode', 'activity'] as const) {
      await app.tab(tab);
      await shoot(page, testInfo, `${theme}-${tab}`);
    }
  });
}
