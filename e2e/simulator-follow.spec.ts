import { expect, test } from '@playwright/test';
import { importBot, signUp } from './helpers';

test('the canvas follows the simulator into a block that is off-screen', async ({ page }) => {
  await signUp(page, `follow-${Date.now()}@example.com`);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Here',
        text: 'Say go',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
      },
      { id: 2, kind: 'state', name: 'Far away', text: 'You came far', position: { x: 6000, y: 4000 } },
    ],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'go' } }],
  };
  // The new project's demo bot has blocks, so the builder asks first.
  await importBot(page, 'far.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Here');
  // Zoom in on the first block: the second one is now far off-screen.
  await page.getByLabel('Search blocks').fill('1');
  await page.getByLabel('Search blocks').press('Enter');
  await expect(page.getByTestId('block-1')).toBeInViewport();
  await expect(page.getByTestId('block-2')).not.toBeInViewport();

  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '1');
  // Already visible: the view stays on it.
  await expect(page.getByTestId('block-2')).not.toBeInViewport();

  await page.getByLabel('Message to the bot').fill('go');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('You came far');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '2');
  await expect(page.getByTestId('block-2')).toBeInViewport();
});
