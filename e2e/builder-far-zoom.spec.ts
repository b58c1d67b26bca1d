import { expect, type Page, test } from '@playwright/test';
import { chainBot, importBot, saved, signUp, zoomOf } from './helpers';

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
