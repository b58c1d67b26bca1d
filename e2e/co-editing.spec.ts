import { expect, type Page, test } from '@playwright/test';
import { password, saved, settled, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });

/** Opens a block in the block editor: clicked (only selecting it, however often) until the editor shows it. */
async function open(page: Page, block: number) {
  await expect(async () => {
    await settled(page.getByTestId(`block-${block}`));
    await page.getByTestId(`block-${block}`).click();
    await expect(blockEditor(page).getByRole('heading')).toContainText(`#${block}`, { timeout: 2_000 });
  }).toPass();
}

async function setText(page: Page, block: number, text: string) {
  await open(page, block);
  await blockEditor(page).getByLabel('Text', { exact: true }).fill(text);
  await saved(page);
}

/**
 * Two designers on one bot (docs/builder.md, "Working together"), each in a browser of their
 * own: each sees who else is here and what they have selected, and the other's edits without
 * reloading, and both keep theirs; one field changed
 * by both tells the one replaced, who takes theirs back; a block deleted while the other has it
 * open is offered back with their edit.
 */
test('two designers edit one bot at once, see each other, merge, and settle a conflict', async ({
  page,
  browser,
}) => {
  await signUp(page, `co-owner-${Date.now()}@example.com`);
  const projectUrl = new URL(page.url()).pathname;
  await page.getByRole('link', { name: 'Team' }).click();
  await page.getByLabel('E-mail', { exact: true }).fill(`ada-${Date.now()}@example.com`);
  await page.getByLabel('Name (optional)').fill('Ada');
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByTestId('invite-link-value').textContent();

  const hers = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const ada = await hers.newPage();
  await ada.goto(link as string);
  await ada.getByLabel('Name').fill('Ada');
  await ada.getByLabel('Password').fill(password);
  await ada.getByRole('button', { name: 'Sign up' }).click();
  await expect(ada).toHaveURL(new RegExp(`${projectUrl}$`));
  await page.goto(projectUrl);
  await expect(page.getByTestId('block-2')).toBeVisible();
  await expect(ada.getByTestId('block-2')).toBeVisible();

  // Each sees who else is here, and the block the other has selected, in their colour.
  await expect(page.getByRole('list', { name: 'Also editing this bot' })).toContainText('Ada');
  await expect(ada.getByRole('list', { name: 'Also editing this bot' })).toContainText('co-owner');
  await open(ada, 3);
  await expect(page.getByTestId('block-3')).toHaveCSS('outline-style', 'dashed');
  await expect(page.getByTestId('block-2')).not.toHaveCSS('outline-style', 'dashed');

  // Different blocks: each sees the other's, without reloading.
  await setText(page, 2, 'Worded by the owner');
  await expect(ada.getByTestId('block-2')).toContainText('Worded by the owner');
  await setText(ada, 3, 'Worded by Ada');
  await expect(page.getByTestId('block-3')).toContainText('Worded by Ada');

  // One field by both: the later wins; Ada is told whose change replaced hers, and takes it back.
  await setText(page, 3, "The owner's wording");
  const notice = ada.getByRole('status').filter({ hasText: 'your change was replaced' });
  await expect(notice).toContainText('changed');
  await expect(notice).toContainText('text');
  await expect(ada.getByTestId('block-3')).toContainText("The owner's wording");
  await notice.getByRole('button', { name: 'Take mine back' }).click();
  await expect(page.getByTestId('block-3')).toContainText('Worded by Ada');

  // A block deleted while Ada has it open: she is told and gets it back with her edit.
  await open(ada, 2);
  await open(page, 2);
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('block-2')).toHaveCount(0);
  const deleted = ada.getByRole('status').filter({ hasText: 'while you were editing it' });
  await expect(deleted).toBeVisible();
  await deleted.getByRole('button', { name: 'Restore with my edit' }).click();
  await expect(page.getByTestId('block-2')).toContainText('Worded by the owner');

  // Undo is one's own: Ada's Undo takes back her restore, not the owner's wording of block 3.
  await expect(ada.getByTestId('save-state')).toHaveText('Saved');
  await ada.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('block-2')).toHaveCount(0);
  await expect(ada.getByTestId('block-3')).toContainText('Worded by Ada');

  // Both canvases and the stored draft end the same.
  await saved(ada);
  await ada.reload();
  await page.reload();
  for (const p of [page, ada]) {
    await expect(p.getByTestId('block-2')).toHaveCount(0);
    await expect(p.getByTestId('block-3')).toContainText('Worded by Ada');
  }
  // Ada goes elsewhere in the app: the owner's toolbar says so at once.
  await ada.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('list', { name: 'Also editing this bot' })).toHaveCount(0);
  await hers.close();
});
