import { expect, type Page, test } from '@playwright/test';
import { chooseBotFile, connect, saved, signUp } from './helpers';

// Room for the canvas and the block editor side by side.
test.use({ viewport: { width: 1600, height: 1000 } });

const shot = (page: Page, name: string) =>
  process.env.SCREENSHOTS ? page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png` }) : null;

test('an arrow that can never fire gets a lint badge, and the problems list jumps to it', async ({
  page,
}) => {
  await signUp(page, `lint-${Date.now()}@example.com`);
  await saved(page);
  // The demo bot is clean.
  await page.getByRole('button', { name: 'Problems (0)' }).click();
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('No problems found');
  await shot(page, 'problems-empty');
  await page.keyboard.press('Escape');

  // A new arrow out of "Reminder" (not a state) continues at once: it fires.
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await page.waitForTimeout(400);
  await connect(page, 5, 3);
  const arrowEditor = page.getByRole('complementary', { name: 'Arrow editor' });
  await expect(arrowEditor.getByRole('heading')).toContainText('#8');
  await expect(page.getByTestId('arrow-8')).toContainText('continue');
  await expect(page.getByRole('button', { name: 'Problems (0)' })).toBeVisible();
  // Made to wait for a reply, it never fires: the client never stands in a not-a-state block.
  await arrowEditor.getByLabel('Arrow kind').selectOption('unconditional');
  const badge = page.getByTestId('arrow-8').getByRole('img', { name: /^1 problem: This arrow never fires/ });
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAttribute('title', /the client never stands in block #5/);
  await saved(page);

  // Select something else, pan away, then jump back from the problems list.
  await page.getByRole('combobox', { name: 'Search blocks' }).fill('Welcome');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Block editor' }).getByRole('heading')).toContainText(
    '#1',
  );
  await page.getByRole('button', { name: 'Problems (1)' }).click();
  const problems = page.getByRole('region', { name: 'Problems' });
  await expect(problems).toContainText('Arrow #8 — This arrow never fires');
  await shot(page, 'problems-list');
  await problems.getByRole('button', { name: /Arrow #8/ }).click();
  await expect(problems).toHaveCount(0);
  await expect(arrowEditor.getByRole('heading')).toContainText('#8');
  await expect(badge).toBeInViewport();
  await shot(page, 'problems-jumped');

  // Made a timer arrow, it fires (timers out of a not-state block are scheduled): no problem left.
  await arrowEditor.getByLabel('Arrow kind').selectOption('timer');
  await expect(page.getByRole('button', { name: 'Problems (0)' })).toBeVisible();
  await expect(badge).toHaveCount(0);
});

const imported = {
  format: 'blockbot/schema@1',
  blocks: [
    { id: 1, kind: 'start', name: 'Imported hello', position: { x: 0, y: 0 }, text: 'Hello from the file' },
    { id: 2, kind: 'state', name: 'Imported menu', position: { x: 300, y: 0 }, text: 'Menu' },
  ],
  arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
};

async function importFile(page: Page) {
  await chooseBotFile(page, 'shop.json', imported);
  return page.getByRole('dialog', { name: 'Import shop.json?' });
}

test('importing over a bot asks first: cancel keeps it, replace can be undone, add beside keeps both', async ({
  page,
}) => {
  await signUp(page, `import-${Date.now()}@example.com`);
  await saved(page);

  let dialog = await importFile(page);
  await expect(dialog).toContainText('This bot has 9 blocks; the file has 2 blocks.');
  await shot(page, 'import-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('block-7')).toBeVisible();
  await expect(page.getByTestId('block-1')).toContainText('Welcome');

  dialog = await importFile(page);
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await expect(page.getByTestId('block-1')).toContainText('Imported hello');
  await expect(page.getByTestId('block-7')).toHaveCount(0);
  await saved(page);

  // Undo brings the bot back, and that is saved too.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await expect(page.getByTestId('block-7')).toBeVisible();
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('block-1')).toContainText('Welcome');

  // Add beside: new ids after the bot's, the bot untouched.
  dialog = await importFile(page);
  await dialog.getByRole('button', { name: 'Add beside' }).click();
  await expect(page.getByTestId('block-10')).toContainText('Imported hello');
  await expect(page.getByTestId('block-11')).toContainText('Imported menu');
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await saved(page);
  await shot(page, 'import-beside');
});

test('the toolbar says an edit with an error is not saved, and goes to the field', async ({ page }) => {
  await signUp(page, `held-${Date.now()}@example.com`);
  await saved(page);
  await page.getByRole('combobox', { name: 'Search blocks' }).fill('Prices');
  await page.keyboard.press('Enter');
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await editor.getByRole('button', { name: 'Add attachment' }).click();
  const status = page.getByRole('toolbar', { name: 'Canvas' }).getByRole('status');
  await expect(status).toHaveText('Not saved: 1 field has an error');
  await shot(page, 'held-back');
  await editor.getByLabel('Name', { exact: true }).focus();
  await page.getByRole('button', { name: 'Show field' }).click();
  await expect(editor.getByLabel('Attachment 1 URL')).toBeFocused();
  await page.keyboard.type('https://example.com/plan.png');
  await expect(status).toHaveText('Saved');
});
