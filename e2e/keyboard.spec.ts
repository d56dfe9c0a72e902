/** Keyboard use: `/` focuses the search, arrows and Enter work the grid, Ctrl+K opens Lookup, Esc closes dialogs. */
import { expect, test } from './fixtures';

test('the inspector and dialogs work from the keyboard', async ({ app, inspector, page }) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();

  // `/` focuses the search box (from anywhere but a text field).
  await page.getByTestId('inspector-grid').focus();
  await page.keyboard.press('/');
  await expect(page.getByTestId('inspector-search')).toBeFocused();
  await page.getByTestId('inspector-search').fill('ghost');

  // Arrows move the active row, Enter expands it.
  const grid = page.getByTestId('inspector-grid');
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  await expect(grid).toHaveAttribute('aria-activedescendant', 'inspector-row-1');
  await page.keyboard.press('Enter');
  await expect(page.locator('#inspector-row-1').getByTestId('row-detail')).toBeVisible();

  // The expanded row's item viewer closes with Esc and gives focus back.
  await page
    .locator('#inspector-row-1')
    .getByRole('button', { name: /View lock item|View account item/ })
    .click();
  await expect(page.getByTestId('item-viewer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('item-viewer')).toBeHidden();

  // Left collapses the active row, Right expands it again; End moves down, never sideways.
  await grid.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#inspector-row-1').getByTestId('row-detail')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#inspector-row-1').getByTestId('row-detail')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await inspector.search('');
  await grid.focus();
  await page.keyboard.press('End');
  await expect(grid).not.toHaveAttribute('aria-activedescendant', 'inspector-row-1');
  expect(await page.getByTestId('inspector-scroll').evaluate((el) => el.scrollLeft)).toBe(0);

  // Ctrl+K opens Lookup with its input focused.
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('lookup-input')).toBeFocused();

  // An empty lookup clears the result; an over-long value gets words, not a schema error.
  await page.getByTestId('lookup-input').fill('grace_h');
  await page.getByTestId('lookup-input').press('Enter');
  await expect(page.getByTestId('lookup-result')).toBeVisible();
  await page.getByTestId('lookup-input').fill('');
  await page.getByTestId('lookup-input').press('Enter');
  await expect(page.getByTestId('lookup-result')).toHaveCount(0);
  await page.getByTestId('lookup-input').fill('x'.repeat(3000));
  await page.getByTestId('lookup-input').press('Enter');
  await expect(page.getByTestId('lookup-too-long')).toContainText('3,000 characters');
  await expect(page.getByTestId('error-box')).toHaveCount(0);

  // Ctrl+K on an open Lookup focuses it and keeps what was typed (it once reset the box to the last
  // handed-over value, racing with typing).
  await page.getByTestId('lookup-input').fill('half-typed');
  await page.getByTestId('tab-lookup').focus();
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('lookup-input')).toBeFocused();
  await expect(page.getByTestId('lookup-input')).toHaveValue('half-typed');
});
