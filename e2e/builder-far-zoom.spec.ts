import { expect, type Page, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

const shot = (page: Page, name: string) =>
  process.env.SCREENSHOTS ? page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png` }) : null;

/** 60 blocks in a chain on a wide grid: zoomed to fit, the canvas is far out. */
const COLUMNS = 12;
const wideBot = {
  format: 'blockbot/schema@1',
  blocks: Array.from({ length: 60 }, (_, i) => ({
    id: i + 1,
    kind: i === 0 ? 'start' : 'state',
    name: i === 0 ? 'Welcome' : `Step ${i + 1}: delivery options`,
    position: { x: (i % COLUMNS) * 420, y: Math.floor(i / COLUMNS) * 400 },
    text: `The text of step ${i + 1}`,
  })),
  arrows: Array.from({ length: 59 }, (_, i) => ({
    id: i + 1,
    from: i + 1,
    to: i + 2,
    kind: 'unconditional',
  })),
};

/** The canvas's zoom, from React Flow's viewport transform. */
const zoomOf = (page: Page) =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);

test('zoomed far out, blocks are drawn as their names, and a click still opens the block editor', async ({
  page,
}) => {
  await signUp(page, `far-zoom-${Date.now()}@example.com`);
  await saved(page);
  await importBot(page, 'wide.json', wideBot);
  await saved(page);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await expect.poll(() => zoomOf(page)).toBeLessThan(0.4);

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
