import { type Browser, expect, type Page, test } from '@playwright/test';
import { monacoText, password, saved, settled, signUp, zoomOf } from './helpers';

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
 * The owner (signed up on `page`) invites Ada as an admin, who signs up in a browser of her own;
 * both then have the bot's canvas open.
 */
async function twoDesigners(page: Page, browser: Browser) {
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
  return { ada, hers };
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
  const { ada, hers } = await twoDesigners(page, browser);

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

  // One field by both at once (the owner offline meanwhile): the later wins; Ada is told whose
  // change replaced hers, and takes it back. (An edit made after seeing hers tells her nothing.)
  await page.context().setOffline(true);
  await open(page, 3);
  await blockEditor(page).getByLabel('Text', { exact: true }).fill("The owner's wording");
  await setText(ada, 3, 'Reworded by Ada');
  await page.context().setOffline(false);
  const notice = ada.getByRole('status').filter({ hasText: 'your change was replaced' });
  await expect(notice).toContainText('changed');
  await expect(notice).toContainText('text');
  await expect(ada.getByTestId('block-3')).toContainText("The owner's wording");
  await notice.getByRole('button', { name: 'Take mine back' }).click();
  await expect(page.getByTestId('block-3')).toContainText('Reworded by Ada');

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
  await expect(ada.getByTestId('block-3')).toContainText('Reworded by Ada');

  // Both canvases and the stored draft end the same.
  await saved(ada);
  await ada.reload();
  await page.reload();
  for (const p of [page, ada]) {
    await expect(p.getByTestId('block-2')).toHaveCount(0);
    await expect(p.getByTestId('block-3')).toContainText('Reworded by Ada');
  }
  // Ada goes elsewhere in the app: the owner's toolbar says so at once.
  await ada.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('list', { name: 'Also editing this bot' })).toHaveCount(0);
  await hers.close();
});

/** Where a point on a page's canvas is relative to a block there, in flow units (its zoom undone). */
async function fromBlock(page: Page, block: number, point: { x: number; y: number }) {
  const box = await settled(page.getByTestId(`block-${block}`));
  const zoom = await zoomOf(page);
  return { x: (point.x - box.x) / zoom, y: (point.y - box.y) / zoom };
}

/**
 * Pointers on request (docs/builder.md, "Working together"): the owner shows them and sees Ada's,
 * named, where her mouse is on the bot, at any zoom; it goes when her mouse leaves the canvas.
 * Ada's canvas sends no pointer while no one asks, and hidden pointers show nothing.
 */
test("a designer shows the others' pointers on request", async ({ page, browser }) => {
  const { ada, hers } = await twoDesigners(page, browser);
  const presenceSends: string[] = [];
  ada.on('request', (request) => {
    if (request.url().includes('botSchema.presence')) presenceSends.push(request.postData() ?? '');
  });
  const toggle = page.getByRole('button', { name: /^(Show|Hide) pointers$/ });
  await expect(toggle).toHaveText('Show pointers');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  const adasPointer = page.getByTestId('presence-pointer').filter({ hasText: 'Ada' });

  // No one asks yet: Ada's mouse moves over her canvas, and her canvas sends no pointer.
  const block = await settled(ada.getByTestId('block-2'));
  const over = { x: block.x + block.width / 2, y: block.y + block.height + 30 };
  for (let i = 0; i < 5; i++) await ada.mouse.move(over.x + i * 10, over.y);
  await expect(ada.getByRole('list', { name: 'Also editing this bot' })).toContainText('co-owner');
  expect(presenceSends.filter((body) => body.includes('"pointer":{'))).toEqual([]);

  // The owner asks (remembered in his browser); Ada's next move reaches him, named.
  await toggle.click();
  await expect(toggle).toHaveText('Hide pointers');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  let nudge = 0;
  await expect(async () => {
    nudge = (nudge + 1) % 8;
    await ada.mouse.move(over.x + nudge, over.y);
    await expect(adasPointer).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(page.getByTestId('presence-pointer')).toHaveCount(1);
  expect(presenceSends.some((body) => body.includes('"pointer":{'))).toBe(true);
  // It is where her mouse is on the bot: the same place relative to block 2, in flow units.
  const onHers = await fromBlock(ada, 2, { x: over.x + nudge, y: over.y });
  const expectAtHerMouse = () =>
    expect(async () => {
      const drawn = await adasPointer.boundingBox();
      if (!drawn) throw new Error('no pointer');
      const onHis = await fromBlock(page, 2, drawn);
      expect(Math.abs(onHis.x - onHers.x)).toBeLessThan(4);
      expect(Math.abs(onHis.y - onHers.y)).toBeLessThan(4);
    }).toPass();
  await expectAtHerMouse();
  // He zooms his canvas: it stays on the same spot of the bot.
  const zoomBefore = await zoomOf(page);
  await page.getByTestId('block-3').hover();
  await page.mouse.wheel(0, -300);
  await expect.poll(() => zoomOf(page)).not.toBe(zoomBefore);
  await expectAtHerMouse();
  // Never in the way of a click on what is under it.
  await expect(adasPointer).toHaveCSS('pointer-events', 'none');

  // Ada's mouse leaves the canvas: her pointer goes from his.
  await ada.mouse.move(5, 5);
  await expect(adasPointer).toHaveCount(0);

  // Hidden, none shows while she moves; shown again, hers comes where her mouse is now.
  await toggle.click();
  await expect(toggle).toHaveText('Show pointers');
  for (let i = 0; i < 5; i++) await ada.mouse.move(over.x + 40 + i * 10, over.y);
  await expect(page.getByTestId('presence-pointer')).toHaveCount(0);
  await toggle.click();
  await expect(adasPointer).toBeVisible();
  await hers.close();
});

/**
 * A formula two designers type into at once (docs/builder.md, "Working together"): Ada types
 * while offline, the owner types in the same formula meanwhile; back online, both lines are in
 * everyone's formula, and Ada's cursor stayed where she was typing.
 */
test('two designers type into one formula at once: both keep what they typed, the cursor stays', async ({
  page,
  browser,
}) => {
  const { ada, hers } = await twoDesigners(page, browser);
  const formula = (p: Page) => blockEditor(p).getByTestId('formula-editor');
  /** Types a line and a line break (Escape first: Enter would pick from a suggestion list). */
  const typeLine = async (p: Page, line: string) => {
    await p.keyboard.type(line);
    await p.keyboard.press('Escape');
    await p.keyboard.press('Enter');
  };
  await open(page, 2);
  await formula(page).locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('total = 1');
  await saved(page);
  await open(ada, 2);
  await expect.poll(() => monacoText(formula(ada))).toBe('total = 1');

  // Ada types a line above it while offline; the owner adds one below it meanwhile.
  await hers.setOffline(true);
  await formula(ada).locator('.view-lines').click();
  await ada.keyboard.press('Control+Home');
  await typeLine(ada, 'a = 1');
  await expect.poll(() => monacoText(formula(ada))).toBe('a = 1\ntotal = 1');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('b = 2');
  await saved(page);

  // Back online: both lines in both formulas, and what Ada types next goes where her cursor was.
  await hers.setOffline(false);
  await expect.poll(() => monacoText(formula(ada))).toBe('a = 1\ntotal = 1\nb = 2');
  await expect.poll(() => monacoText(formula(page))).toBe('a = 1\ntotal = 1\nb = 2');
  await typeLine(ada, 'c = 3');
  await expect.poll(() => monacoText(formula(page))).toBe('a = 1\nc = 3\ntotal = 1\nb = 2');
  await saved(ada);
  await page.reload();
  await open(page, 2);
  await expect.poll(() => monacoText(formula(page))).toBe('a = 1\nc = 3\ntotal = 1\nb = 2');
  await hers.close();
});
