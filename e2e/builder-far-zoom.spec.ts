import { expect, type Page, test } from '@playwright/test';
import { chainBot, importBot, saved, settled, signUp, zoomOf } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

const shot = (page: Page, name: string) =>
  process.env.SCREENSHOTS ? page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png` }) : null;

/** 60 blocks in a chain on a wide grid: zoomed to fit, the canvas is far out. */
const wideBot = chainBot({
  count: 60,
  columns: 12,
  spacing: { x: 420, y: 400 },
  start: { id: 1, name: 'Welcome', text: 'The text of step 1' },
  name: (id) => `Step ${id}: delivery options`,
});

/** A new user's canvas with `wideBot` imported, zoomed to fit: far out. */
async function openFarOut(page: Page, user: string) {
  await signUp(page, `${user}-${Date.now()}@example.com`);
  await saved(page);
  await importBot(page, 'wide.json', wideBot);
  await saved(page);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await expect.poll(() => zoomOf(page)).toBeLessThan(0.4);
}

type Box = { x: number; y: number; width: number; height: number };

/** Presses the mouse on the middle of `box` and moves it by `by`, in steps, still pressed. */
async function holdAndMove(page: Page, box: Box, by: { x: number; y: number }) {
  const grip = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(grip.x, grip.y);
  await page.mouse.down();
  await page.mouse.move(grip.x + by.x, grip.y + by.y, { steps: 10 });
}

test('zoomed far out, blocks are drawn as their names, and a click still opens the block editor', async ({
  page,
}) => {
  await openFarOut(page, 'far-zoom');

  // The name, large enough to read at this zoom; no text preview, no arrow labels.
  const step = page.getByTestId('block-30');
  await expect(step).toHaveText('Step 30: delivery options');
  await expect(step).toHaveAttribute('title', 'State #30: Step 30: delivery options');
  await expect(page.getByTestId('arrow-29')).toHaveCount(0);
  await shot(page, 'far-zoom');

  await step.click();
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByRole('heading')).toContainText('#30');
  await expect(editor.getByLabel('Name')).toHaveValue('Step 30: delivery options');

  // Zoomed in again, the block shows its text and the arrows their labels.
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  for (let i = 0; i < 10 && (await zoomOf(page)) < 0.5; i++)
    await page.getByRole('button', { name: 'Zoom In' }).click();
  await expect(page.getByTestId('block-1')).toContainText('The text of step 1');
});

test('zoomed far out, a block dragged with the mouse takes its arrows along, is saved, and Undo puts it back', async ({
  page,
}) => {
  await openFarOut(page, 'far-drag');

  const step = page.getByTestId('block-30');
  // Where the block is, measured from a block that stays: the block editor opening on the drop
  // may shift the whole canvas by a fraction of a pixel, which is not the drag's doing.
  const still = page.getByTestId('block-29');
  const offset = async () => {
    const [a, b] = [await settled(step), await settled(still)];
    return { x: a.x - b.x, y: a.y - b.y };
  };
  const into = page.getByRole('group', { name: /^Arrow 29 / });
  const before = await settled(step);
  const offsetBefore = await offset();
  const arrowBefore = await settled(into);
  await holdAndMove(page, before, { x: 160, y: 90 });
  // The block follows the mouse while it is held.
  await expect.poll(async () => (await offset()).x).toBeCloseTo(offsetBefore.x + 160, 0);
  await expect.poll(async () => (await offset()).y).toBeCloseTo(offsetBefore.y + 90, 0);
  await shot(page, 'far-drag');
  await page.mouse.up();

  // Dropped there, selected, its arrow drawn to its new place, and saved.
  await expect(page.getByRole('complementary', { name: 'Block editor' }).getByRole('heading')).toContainText(
    '#30',
  );
  const after = await offset();
  expect(after.x).toBeCloseTo(offsetBefore.x + 160, 0);
  expect(after.y).toBeCloseTo(offsetBefore.y + 90, 0);
  await expect(into).toBeVisible();
  const arrowAfter = await settled(into);
  const stillAfter = await settled(still);
  const stillBefore = { x: before.x - offsetBefore.x };
  expect(arrowAfter.x + arrowAfter.width - stillAfter.x).toBeGreaterThan(
    arrowBefore.x + arrowBefore.width - stillBefore.x + 120,
  );
  await saved(page);

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(async () => (await offset()).x).toBeCloseTo(offsetBefore.x, 0);
  await saved(page);
});

test('zoomed far out, dragging one of several selected blocks moves them all, and held at the edge the view pans along', async ({
  page,
}) => {
  await openFarOut(page, 'far-drag-many');

  const first = page.getByTestId('block-30');
  const second = page.getByTestId('block-31');
  await first.click();
  await second.click({ modifiers: ['Control'] });
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(2);
  const firstBefore = await settled(first);
  const secondBefore = await settled(second);
  await holdAndMove(page, firstBefore, { x: 100, y: 60 });
  await page.mouse.up();
  const firstAfter = await settled(first);
  const secondAfter = await settled(second);
  expect(firstAfter.x - firstBefore.x).toBeCloseTo(100, 0);
  expect(secondAfter.x - secondBefore.x).toBeCloseTo(100, 0);
  expect(secondAfter.y - secondBefore.y).toBeCloseTo(60, 0);
  await saved(page);

  // Held near the canvas's left edge, the view pans and the block stays under the mouse.
  const pane = await settled(page.getByRole('application'));
  const panX = () =>
    page
      .locator('.react-flow__viewport')
      .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).e);
  const panBefore = await panX();
  await holdAndMove(page, firstAfter, { x: pane.x + 15 - (firstAfter.x + firstAfter.width / 2), y: 0 });
  await expect.poll(panX).toBeGreaterThan(panBefore + 100);
  await page.mouse.up();
  const dropped = await settled(first);
  expect(dropped.x).toBeLessThan(pane.x + 15);
  expect(dropped.x + dropped.width).toBeGreaterThan(pane.x + 15);
  await saved(page);
});
