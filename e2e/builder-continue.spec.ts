import { expect, type Page, test } from '@playwright/test';
import { dragArrowOut, saved, settled, signUp } from './helpers';

// Room for the canvas, the block editor and the simulator side by side.
test.use({ viewport: { width: 1700, height: 1000 } });

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });

/** Drags a new block out of `from`, well below it, once the view has stopped moving. */
async function dragOutBelow(page: Page, from: number) {
  await saved(page);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  const block = page.getByTestId(`block-${from}`);
  const box = await settled(block);
  await dragArrowOut(page, from, { x: box.x + 10, y: box.y + box.height + 140 });
}

test('a greeting and the menu are sent together: the default arrow out of a block that does not wait continues at once', async ({
  page,
}) => {
  await signUp(page, `continue-${Date.now()}@example.com`);
  await page.goto('/projects');
  await page.getByLabel('Name').fill('Corner shop');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Corner shop');
  await expect(page.getByTestId('canvas').locator('.react-flow__node')).toHaveCount(0);

  // The entry for new clients, silent: it only leads on.
  await page.getByRole('button', { name: 'Add start block' }).click();
  await expect(blockEditor(page).getByRole('heading')).toContainText('#1');
  await blockEditor(page).getByLabel('Name', { exact: true }).fill('Start');

  // The greeting: a not-a-state block.
  await dragOutBelow(page, 1);
  let panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#2');
  await panel.getByLabel('Kind').selectOption('not_state');
  await panel.getByLabel('Name', { exact: true }).fill('Greeting');
  await panel.getByLabel('Text', { exact: true }).fill('Hi! Welcome to the corner shop.');
  await expect(page.getByTestId('block-2')).toHaveAttribute('data-kind', 'not_state');

  // The menu: a state block, reached by the default arrow out of the greeting.
  await dragOutBelow(page, 2);
  panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#3');
  await panel.getByLabel('Name', { exact: true }).fill('Menu');
  await panel.getByLabel('Text', { exact: true }).fill('What would you like: fruit or bread?');
  await saved(page);

  // Both default arrows continue at once; the arrow editor says so.
  await expect(page.getByTestId('arrow-1')).toContainText('continue');
  await expect(page.getByTestId('arrow-2')).toContainText('continue');
  await page.getByTestId('arrow-2').click();
  const arrowEditor = page.getByRole('complementary', { name: 'Arrow editor' });
  await expect(arrowEditor.getByRole('heading')).toContainText('#2');
  await expect(arrowEditor.getByLabel('Arrow kind')).toHaveValue('continue');
  await expect(page.getByRole('button', { name: 'Problems (0)' })).toBeVisible();

  // One message in, the greeting and the menu out; the client waits in the menu.
  await page.getByLabel('Message to the bot').fill('/start');
  await page.getByRole('button', { name: 'Send' }).click();
  const out = page.getByTestId('sim-out');
  await expect(out).toHaveText(['Hi! Welcome to the corner shop.', 'What would you like: fruit or bread?']);
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '3');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.getByTestId('log')).toContainText(
    'Entered block #3 "Menu" (state) through a continue arrow',
  );
});
