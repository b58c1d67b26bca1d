import { expect, test } from '@playwright/test';
import { importBot, saved, settled, signUp } from './helpers';

/** A start block at the origin and a state block far away from it, joined by 'go'. */
const farBot = {
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

test('the canvas follows the simulator into a block that is off-screen', async ({ page }) => {
  await signUp(page, `follow-${Date.now()}@example.com`);
  // The new project's demo bot has blocks, so the builder asks first.
  await importBot(page, 'far.json', farBot);
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

test('a ?block= link opens on its block, not on the block the simulator was left in', async ({ page }) => {
  await signUp(page, `link-${Date.now()}@example.com`);
  await importBot(page, 'link.json', farBot);
  await saved(page);
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '1');

  // The simulator's state is held back until the canvas has opened on block 2, so it arrives
  // after the canvas has its blocks (the order that used to pan the view back to block 1).
  let releaseState = () => {};
  const stateHeld = new Promise<void>((resolve) => {
    releaseState = resolve;
  });
  let held = false;
  await page.route(/simulator\.state/, async (route) => {
    if (!held) {
      held = true;
      await stateHeld;
    }
    await route.continue();
  });
  await page.goto(`${page.url()}?block=2`);
  await expect(page.getByTestId('block-2')).toBeInViewport();
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '');
  releaseState();
  // The simulator's state has loaded (its block outlined) before the view is judged.
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '1');
  await settled(page.getByTestId('block-2'));
  await expect(page.getByTestId('block-2')).toBeInViewport();
  await expect(page.getByTestId('block-1')).not.toBeInViewport();
  await expect(page.getByRole('complementary', { name: 'Block editor' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Block editor' })).toContainText('#2');
});

test('the simulator opens at the newest message of a long conversation', async ({ page }) => {
  await signUp(page, `newest-${Date.now()}@example.com`);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Echo',
        text: 'You said: #{question}',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
      },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  };
  await importBot(page, 'echo.json', bot);
  await saved(page);
  for (let i = 1; i <= 12; i++) {
    await page.getByLabel('Message to the bot').fill(`message ${i}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('sim-out').last()).toHaveText(`You said: message ${i}`);
  }
  await page.reload();
  const newest = page.getByTestId('sim-out').last();
  await expect(newest).toHaveText('You said: message 12');
  await expect(newest).toBeInViewport();
  const scroller = page.getByTestId('simulator-scroller');
  const { top, height, client } = await scroller.evaluate((el) => ({
    top: el.scrollTop,
    height: el.scrollHeight,
    client: el.clientHeight,
  }));
  // A history longer than the panel, shown at its bottom.
  expect(height).toBeGreaterThan(client);
  expect(top + client).toBeGreaterThanOrEqual(height - 1);
});
