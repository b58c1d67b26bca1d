import { expect, test } from '@playwright/test';
import { chooseBotFile, importBot, saved, signUp } from './helpers';

test('the simulator talks to the demo bot: replies, buttons, the current block and variables', async ({
  page,
}) => {
  await signUp(page, `sim-${Date.now()}@example.com`);
  // The demo project is on the free plan: formulas run, in-flow functions would not.
  await page.getByLabel('Message to the bot').fill('hello');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').first()).toContainText('I am the Blockbot demo');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '1');
  await page.getByRole('button', { name: 'Prices' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('The plan costs 120 a month');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '2');
  await expect(page.getByTestId('variables')).toContainText('price = 120');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.getByTestId('log')).toContainText('block');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByTestId('sim-out')).toHaveCount(0);
});

test('imports a bot schema file, refusing an invalid one with errors that name the field', async ({
  page,
}) => {
  await signUp(page, `import-${Date.now()}@example.com`);
  const bad = { format: 'blockbot/schema@1', blocks: [{ id: 1, kind: 'menu' }], arrows: [] };
  await chooseBotFile(page, 'bad.json', bad);
  await expect(page.getByTestId('canvas').getByRole('alert')).toContainText('blocks[0].kind');
  await expect(page.getByTestId('block-2')).toBeVisible();

  const good = {
    format: 'blockbot/schema@1',
    blocks: [{ id: 41, kind: 'start', name: 'Imported', text: 'Hello' }],
    arrows: [],
  };
  // The bot has blocks (the demo), so the builder asks first.
  await importBot(page, 'good.json', good);
  await expect(page.getByTestId('block-41')).toContainText('Imported');
  await expect(page.getByTestId('block-2')).toHaveCount(0);
  await saved(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await (await download).path();
  const { readFileSync } = await import('node:fs');
  expect(JSON.parse(readFileSync(file, 'utf8')).blocks[0]).toMatchObject({ id: 41, name: 'Imported' });
});
