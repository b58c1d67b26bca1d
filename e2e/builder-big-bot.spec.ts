import { expect, test } from '@playwright/test';
import { chainBot, importBot, saved, signUp, zoomOf } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

/** 400 blocks on a 20-column grid, its start block in the middle: fitted, far too small to read. */
const bigBot = chainBot({
  count: 400,
  columns: 20,
  spacing: { x: 300, y: 260 },
  start: { id: 210, name: 'Welcome', text: 'Hello, this is the shop' },
  name: (id) => `Step ${id}`,
});

test('a big bot opens readable on its start block, and Zoom to fit still shows all of it', async ({
  page,
}) => {
  // React Flow's pane: the block editor beside it shows names too.
  const canvas = page.getByRole('application');
  await signUp(page, `big-bot-${Date.now()}@example.com`);
  await saved(page);
  await importBot(page, 'big.json', bigBot);
  await saved(page);

  // Opened again: at a zoom where blocks are drawn in full, the start block and its text in view.
  await page.reload();
  await expect(canvas.getByText('Hello, this is the shop')).toBeInViewport();
  await expect(canvas.getByText('Welcome', { exact: true })).toBeInViewport();
  expect(await zoomOf(page)).toBeGreaterThanOrEqual(0.4);
  // Blocks far from it are not drawn at all.
  await expect(canvas.getByText('Step 1', { exact: true })).toHaveCount(0);
  await expect(canvas.getByText('Step 400', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Minimap' })).toBeVisible();

  // The whole bot, corner to corner, drawn as names.
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await expect.poll(() => zoomOf(page)).toBeLessThan(0.4);
  await expect(canvas.getByText('Step 1', { exact: true })).toBeInViewport();
  await expect(canvas.getByText('Step 400', { exact: true })).toBeInViewport();
  await expect(canvas.getByText('Welcome', { exact: true })).toBeInViewport();

  // A link to one block opens on it, selected; the Controls' Fit view shows the whole again.
  await page.goto(`${page.url()}?block=400`);
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByLabel('Name')).toHaveValue('Step 400');
  await expect(canvas.getByText('The text of step 400')).toBeInViewport();
  await page.getByRole('button', { name: 'Fit view' }).click();
  await expect(canvas.getByText('Step 1', { exact: true })).toBeInViewport();
  await expect(canvas.getByText('Step 400', { exact: true })).toBeInViewport();
});
