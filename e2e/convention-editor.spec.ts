/** The convention editor checks a draft against the sampled items, says what is wrong on the field, and resets to the detection. */
import { expect, test } from './fixtures';

test('a misspelt attribute is caught on its field before it runs, and Reset restores the detection', async ({ app, inspector, page }) => {
  await app.selectConnection('sandbox');
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await app.tab('convention');
  const attribute = page.locator('#rule-0-attribute');
  await expect(attribute).toHaveValue('email');
  await expect(page.getByTestId('rule-0-attribute-sample')).toHaveText(/^\d[\d,]* of [\d,]+ sampled accounts have `email`$/);
  await expect(page.getByTestId('rule-0-template-sample')).toHaveText(
    /^[1-9][\d,]* of [\d,]+ sampled lock keys match UNIQ#EMAIL#\{value\}$/,
  );

  // Act: the typo from the issue, and a template without {value}.
  await attribute.fill('emial');
  await expect(page.getByTestId('rule-0-attribute-sample')).toHaveText(/^Check this: 0 of [\d,]+ sampled accounts have `emial`$/);
  await page.locator('#rule-0-template').fill('UNIQ#EMAIL#');
  await expect(page.getByTestId('rule-0-template-error')).toHaveText(
    'The template must contain {value} (in the partition key, the sort key, or both).',
  );
  await expect(page.locator('#rule-0-template')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Re-run the audit with these rules' })).toBeDisabled();

  // Reset to detected brings the detected rule back.
  await page.getByTestId('convention-reset').click();
  await expect(attribute).toHaveValue('email');
  await expect(page.locator('#rule-0-template')).toHaveValue('UNIQ#EMAIL#{value}');
  await expect(page.getByTestId('rule-0-template-error')).toHaveCount(0);

  // Re-running says so where it was clicked.
  await page.getByRole('button', { name: 'Re-run the audit with these rules' }).click();
  await expect(page.getByTestId('convention-rerun')).toContainText('see the Inspector tab');
});
