/** The window at 1024×700 (a small laptop, a split screen): every control reachable, every column shown, nothing clipped. */
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: false });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Asserts `inner` lies horizontally inside `outer` (within a pixel). */
async function expectInside(inner: Locator, outer: Locator | { x: number; width: number }, what: string): Promise<void> {
  const box = await inner.boundingBox();
  const frame = 'boundingBox' in outer ? await outer.boundingBox() : outer;
  expect(box, what).not.toBeNull();
  expect(frame, what).not.toBeNull();
  if (!box || !frame) return;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(frame.x - 1);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(frame.x + frame.width + 1);
}

test('at 1024×700 the header, the grid and an expanded row fit, long values end in an ellipsis', async ({
  app,
  inspector,
  page,
}, testInfo) => {
  const viewport = { width: 1024, height: 700 };
  await page.setViewportSize(viewport);
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  const window = { x: 0, width: viewport.width };

  // The header: theme buttons, Lookup and the sidebar toggle all on screen; no page-wide sideways scroll.
  for (const id of ['theme-dark', 'theme-light', 'toggle-sidebar']) await expectInside(page.getByTestId(id), window, id);
  await expectInside(page.getByRole('button', { name: /Lookup/ }), window, 'Lookup');
  expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(viewport.width);

  // The sidebar's connection details fit the sidebar (endpoint text wraps, the region select shrinks).
  const sidebar = page.locator('#app-sidebar');
  await expectInside(page.getByTestId('effective-endpoint'), sidebar, 'endpoint');
  await expectInside(page.locator('#connection-region'), sidebar, 'region select');

  // Every column header is inside the grid's visible area (not one column and a sideways scroll).
  const scroll = page.getByTestId('inspector-scroll');
  const headers = page.locator('.grid-header-row th');
  await expect(headers).toHaveCount(5); // expander, item, EMAIL, HANDLE, problems
  for (let i = 0; i < 5; i++) await expectInside(headers.nth(i), scroll, `column ${i}`);
  await shoot(page, testInfo, 'inspector-1024x700-light');

  // A long value is cut with an ellipsis and its tooltip holds it whole.
  await inspector.search('ex-employee');
  // The filtered rows come from the row store a moment later: wait for them, not the rows before.
  const found = inspector.row('UNIQ#EMAIL#ex-employee#42@example.com');
  await expect(found).toBeVisible();
  const value = found.locator('.cell-value').first();
  const cut = await value.evaluate((el) => ({
    overflow: el.scrollWidth > el.clientWidth,
    ellipsis: el.ownerDocument.defaultView?.getComputedStyle(el).textOverflow,
    title: el.getAttribute('title'),
  }));
  expect(cut.ellipsis).toBe('ellipsis');
  expect(cut.title).toContain('UNIQ#EMAIL#ex-employee#42@example.com');
  await inspector.search('');

  // An expanded row's actions are inside the visible area.
  await inspector.filter('missing-lock');
  await expect(inspector.rows.first()).toContainText('Missing lock');
  const detail = await inspector.expand(inspector.rows.first());
  const actions = detail.getByRole('button', { name: 'Look up' });
  for (let i = 0; i < (await actions.count()); i++) await expectInside(actions.nth(i), scroll, `Look up ${i}`);
  await expectInside(detail.getByRole('button', { name: 'Claim lock…' }).first(), scroll, 'Claim lock');
  await app.theme('dark');
  await shoot(page, testInfo, 'inspector-expanded-1024x700-dark');

  // The sidebar folds away and comes back; columns can be hidden.
  const before = (await scroll.boundingBox())?.width ?? 0;
  await page.getByTestId('toggle-sidebar').click();
  await expect(page.locator('#app-sidebar')).toBeHidden();
  await expect.poll(async () => (await scroll.boundingBox())?.width ?? 0).toBeGreaterThan(before + 200);
  await shoot(page, testInfo, 'inspector-sidebar-hidden-1024x700-dark');
  await page.getByTestId('toggle-sidebar').click();
  await expect(page.locator('#app-sidebar')).toBeVisible();
  await page.getByTestId('columns-menu').locator('summary').click();
  await page.getByTestId('column-rule:HANDLE').uncheck();
  await expect(headers).toHaveCount(4);
  await expect(page.locator('.grid-header-row')).not.toContainText('HANDLE');
});
