import { expect, type Page, test } from '@playwright/test';
import { saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });

/** Publishes the saved draft with a note. */
async function publish(page: Page, note: string) {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
  await dialog.getByLabel('What changed (optional)').fill(note);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toHaveCount(0);
}

/** What a block's ::after says (the diff's label on the canvas), or "none". */
const markLabel = (page: Page, block: number) =>
  page.getByTestId(`block-${block}`).evaluate((el) => getComputedStyle(el, '::after').content);

/**
 * Comparing versions (docs/versions.md): a version's changes against the one before, field by
 * field with before and after; the changed block marked on the canvas; and the draft's
 * unpublished changes against the live version.
 */
test('compares two published versions, marks the changed block, shows unpublished changes', async ({
  page,
}) => {
  await signUp(page, `version-diff-${Date.now()}@example.com`);
  const state = page.getByTestId('publish-state');
  // The demo bot is version 1; change a block's text and publish version 2.
  await expect(state).toHaveText('Published · v1');
  await page.getByTestId('block-3').click();
  await blockEditor(page).getByLabel('Text', { exact: true }).fill('Which e-mail gets the invoice?');
  await saved(page);
  await publish(page, 'Shorter question');
  await expect(state).toHaveText('Published · v2');

  await page.getByRole('button', { name: 'Version history' }).click();
  const history = page.getByRole('dialog');
  await history.locator('[data-version="2"]').getByRole('button', { name: 'Changes in version 2' }).click();
  await expect(history.getByRole('heading', { name: 'Compare versions' })).toBeVisible();
  await expect(history.getByLabel('From (older)')).toHaveValue('1');
  await expect(history.getByLabel('To (newer)')).toHaveValue('2');
  await expect(history.getByTestId('diff-summary')).toHaveText(
    'From version 1 to version 2: 1 block changed.',
  );
  const changed = history.getByTestId('diff-block-3');
  await expect(changed).toHaveAttribute('data-status', 'changed');
  await expect(changed).toContainText('Ask for e-mail');
  const text = changed.locator('[data-field="text"]');
  await expect(text).toContainText('Great! Which e-mail should we send the invoice to?');
  await expect(text).toContainText('Which e-mail gets the invoice?');
  // No other block is listed.
  await expect(history.locator('[data-testid^="diff-block-"]')).toHaveCount(1);

  // Marked on the canvas: the changed block outlined amber with its label, the others not.
  await history.getByRole('button', { name: 'Show on canvas' }).click();
  await expect(history).toHaveCount(0);
  await expect(page.getByTestId('diff-marks')).toContainText('Changes from version 1 to version 2');
  await expect(page.getByTestId('block-3')).toHaveCSS('outline-color', 'rgb(217, 119, 6)');
  expect(await markLabel(page, 3)).toBe('"changed"');
  expect(await markLabel(page, 2)).toBe('none');
  await page.getByRole('button', { name: 'Hide the changes' }).click();
  await expect(page.getByTestId('diff-marks')).toHaveCount(0);
  expect(await markLabel(page, 3)).toBe('none');

  // Unpublished changes: the draft against the live version.
  await page.getByTestId('block-2').click();
  await blockEditor(page).getByLabel('Name', { exact: true }).fill('Our prices');
  await saved(page);
  await expect(state).toHaveText('Unpublished changes · live: v2');
  await page.getByRole('button', { name: 'Version history' }).click();
  await history.getByRole('button', { name: 'Unpublished changes' }).click();
  await expect(history.getByLabel('From (older)')).toHaveValue('2');
  await expect(history.getByLabel('To (newer)')).toHaveValue('draft');
  const renamed = history.getByTestId('diff-block-2').locator('[data-field="name"]');
  await expect(renamed).toContainText('Prices');
  await expect(renamed).toContainText('Our prices');
  // Another pair, picked by hand: version 1 against the draft has both changes.
  await history.getByLabel('From (older)').selectOption('1');
  await expect(history.getByTestId('diff-summary')).toHaveText(
    'From version 1 to the draft: 2 blocks changed.',
  );
});

/**
 * The marks on the canvas follow the bot (docs/versions.md): the unpublished changes marked,
 * then published, and the banner says there are none left instead of keeping the old ones.
 */
test('the unpublished changes marked on the canvas refresh after a publish', async ({ page }) => {
  await signUp(page, `version-diff-refresh-${Date.now()}@example.com`);
  const state = page.getByTestId('publish-state');
  await page.getByTestId('block-2').click();
  await blockEditor(page).getByLabel('Name', { exact: true }).fill('Our prices');
  await saved(page);
  await expect(state).toHaveText('Unpublished changes · live: v1');
  await page.getByRole('button', { name: 'Version history' }).click();
  const history = page.getByRole('dialog');
  await history.getByRole('button', { name: 'Unpublished changes' }).click();
  await expect(history.getByTestId('diff-summary')).toHaveText(
    'From version 1 to the draft: 1 block changed.',
  );
  await history.getByRole('button', { name: 'Show on canvas' }).click();
  const banner = page.getByTestId('diff-marks');
  await expect(banner).toContainText('Changes from version 1 to the draft');
  await expect(page.getByTestId('block-2')).toHaveCSS('outline-color', 'rgb(217, 119, 6)');

  await publish(page, 'Renamed the prices');
  await expect(state).toHaveText('Published · v2');
  await expect(banner).toContainText('No changes from version 2 to the draft');
  expect(await markLabel(page, 2)).toBe('none');
  // A new edit is marked as it is saved.
  await page.getByTestId('block-3').click();
  await blockEditor(page).getByLabel('Name', { exact: true }).fill('E-mail please');
  await saved(page);
  await expect(banner).toContainText('Changes from version 2 to the draft');
  expect(await markLabel(page, 3)).toBe('"changed"');
});
