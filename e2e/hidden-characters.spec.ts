/** A key with a right-to-left override and zero-width characters is shown as it really is, marks and all. */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { sandboxClient } from '../electron/services/sandbox';
import { expect, test } from './fixtures';

// Displayed raw, U+202E makes the tail read "live"; the zero-width space hides between two letters.
const HANDLE = 'abc مرحبا_عالم \u202eevil\u200bx';

test('bidi and invisible characters in a lock key are visible in the inspector and the lookup', async ({ app, server, inspector, lookup }) => {
  // Arrange: an orphan lock with the hostile handle, written into the sandbox's accounts table.
  await app.selectConnection('sandbox');
  // The sandbox is a private database: only its own access key sees its tables.
  const client = sandboxClient(await app.effectiveEndpoint(), server.sandboxKey());
  try {
    await client.send(new PutItemCommand({ TableName: 'accounts', Item: { PK: { S: `UNIQ#HANDLE#${HANDLE}` }, SK: { S: 'LOCK' } } }));
  } finally {
    client.destroy();
  }
  await app.selectTable('accounts');
  await inspector.waitComplete();
  await inspector.rerun();

  // Act
  await inspector.search('evil');

  // Assert: one row, its controls shown as marks next to the text they would reorder.
  await expect(inspector.rows).toHaveCount(1);
  const row = inspector.rows.first();
  await expect(row).toHaveAttribute('data-row-kind', 'orphan-lock');
  await expect(row.locator('[data-hidden-char="U+202E"]').first()).toBeVisible();
  await expect(row.locator('[data-hidden-char="U+200B"]').first()).toBeVisible();
  await expect(row).toContainText('RLO');
  await expect(row.locator('.visible-text').first()).toHaveAttribute('title', /⟨U\+202E RLO⟩evil⟨U\+200B ZWSP⟩x/);
  // No raw override reaches the page's text.
  expect(await row.innerText()).not.toContain('\u202e');

  await lookup.lookUp(HANDLE);
  await expect(lookup.verdict('HANDLE')).toHaveAttribute('data-verdict', 'orphan');
  await expect(lookup.rule('HANDLE').locator('[data-hidden-char="U+202E"]').first()).toBeVisible();
  expect(await lookup.rule('HANDLE').innerText()).not.toContain('\u202e');
});
