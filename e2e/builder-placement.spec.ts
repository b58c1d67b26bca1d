import { expect, type Locator, type Page, test } from '@playwright/test';
import { saved, signUp, zoomOf } from './helpers';

// A laptop: the palette, the canvas, the block editor and the simulator share 1280 px.
test.use({ viewport: { width: 1280, height: 800 } });

type Box = { x: number; y: number; width: number; height: number };

/** A block on the canvas by its id (React Flow's node wrapper). */
const block = (page: Page, id: number) => page.locator(`.react-flow__node[data-id="${id}"]`);
const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not visible');
  return box;
}

/** Waits for the canvas to stop moving (fit and pan animate). */
async function settled(page: Page) {
  let last = '';
  await expect
    .poll(async () => {
      const now = await page
        .locator('.react-flow__viewport')
        .evaluate((el) => getComputedStyle(el).transform);
      const same = now === last;
      last = now;
      return same;
    })
    .toBe(true);
}

test('blocks added from the palette land on free space, not on each other or the bot', async ({ page }) => {
  await signUp(page, `placement-${Date.now()}@example.com`);
  await saved(page);
  const nodes = page.locator('.react-flow__node');
  const before = await nodes.count();
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Add state block' }).click();
    await expect(nodes).toHaveCount(before + i + 1);
  }
  await expect(blockEditor(page).getByRole('heading')).toContainText(`#${before + 3}`);
  await settled(page);
  const boxes = await Promise.all(Array.from({ length: before + 3 }, (_, i) => boxOf(block(page, i + 1))));
  for (const [i, added] of boxes.slice(before).entries())
    for (const [j, other] of boxes.entries())
      if (j !== before + i)
        expect(overlap(added, other), `block ${before + i + 1} on block ${j + 1}`).toBe(false);
});

test('a pasted or duplicated block lands beside the original, on free space', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, `placement-paste-${Date.now()}@example.com`);
  await saved(page);
  const nodes = page.locator('.react-flow__node');
  const before = await nodes.count();
  await block(page, 2).click();
  await expect(blockEditor(page).getByRole('heading')).toContainText('#2');
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(nodes).toHaveCount(before + 1);
  await page.keyboard.press('Control+v');
  await expect(nodes).toHaveCount(before + 2);
  await page.keyboard.press('Control+d');
  await expect(nodes).toHaveCount(before + 3);
  await saved(page);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await settled(page);
  const ids = await nodes.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-id'))));
  const boxes = await Promise.all(ids.map((id) => boxOf(block(page, id))));
  for (const [i, a] of boxes.entries())
    for (const [j, b] of boxes.entries())
      if (i < j) expect(overlap(a, b), `block ${ids[i]} on block ${ids[j]}`).toBe(false);
});

test('a bot with one block opens at 100 % at most, and zoom to fit keeps it there', async ({ page }) => {
  await signUp(page, `placement-zoom-${Date.now()}@example.com`);
  await saved(page);
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.getByRole('button', { name: 'Add a start block' }).click();
  await expect(blockEditor(page).getByRole('heading')).toContainText('Start block');
  await saved(page);

  await page.reload();
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  await settled(page);
  expect(await zoomOf(page)).toBeLessThanOrEqual(1);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await settled(page);
  expect(await zoomOf(page)).toBeLessThanOrEqual(1);
});

test('a block opened beside the canvas edge is panned out from under the block editor', async ({ page }) => {
  await signUp(page, `placement-pan-${Date.now()}@example.com`);
  await saved(page);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await settled(page);
  // The block furthest right: where the block editor opens.
  const ids = await page.locator('.react-flow__node').evaluateAll((els) =>
    els
      .map((el) => ({ id: Number(el.getAttribute('data-id')), right: el.getBoundingClientRect().right }))
      .sort((a, b) => b.right - a.right)
      .map((n) => n.id),
  );
  const target = block(page, ids[0]);
  const pane = await boxOf(page.locator('.react-flow'));
  expect((await boxOf(target)).x + (await boxOf(target)).width).toBeGreaterThan(pane.x + pane.width - 320);

  await target.click({ position: { x: 20, y: 12 } });
  const editor = blockEditor(page);
  await expect(editor.getByRole('heading')).toContainText(`#${ids[0]}`);
  await settled(page);
  const canvas = await boxOf(page.locator('.react-flow'));
  const editorBox = await boxOf(editor);
  const shown = await boxOf(target);
  expect(shown.x).toBeGreaterThanOrEqual(canvas.x);
  expect(shown.x + shown.width).toBeLessThanOrEqual(Math.min(canvas.x + canvas.width, editorBox.x));
  expect(shown.y).toBeGreaterThanOrEqual(canvas.y);
  expect(shown.y + shown.height).toBeLessThanOrEqual(canvas.y + canvas.height);
});
