import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test('crm screenshots', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, 'crm-shots@example.com');
  const projectUrl = new URL(page.url()).pathname;
  await page.goto(`${projectUrl}/deals/funnels`);
  await page.getByLabel('New stage', { exact: true }).fill('Qualified');
  await page.getByLabel("New stage's colour").selectOption('teal');
  await page.getByRole('button', { name: 'Add stage' }).click();
  await expect(page.getByLabel('Stage name (Qualified)')).toBeVisible();
  await page.getByLabel("Deal variables on the board's cards").fill('product, price');
  await page.getByLabel("Deal variables on the board's cards").blur();
  const newRow = page.getByRole('listitem').filter({ has: page.getByLabel('Stage name (New)') });
  const newId = (await newRow.getByTitle("The stage's id (state_id)").textContent())?.replace('id ', '');
  await page.getByRole('button', { name: 'Delete In progress' }).click();
  await page.screenshot({ path: '/work/shots/crm/funnels-1440.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/work/shots/crm/funnels-390.png', fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto(projectUrl);
  await importBot(page, 'crm.json', {
    format: 'blockbot/schema@1',
    blocks: [
      { id: 1, kind: 'start', text: 'Welcome', trigger: { alternatives: '' }, position: { x: 0, y: 0 },
        actions: { crmStateId: Number(newId), addToLists: [], removeFromLists: [] } },
    ],
    arrows: [],
  });
  await saved(page);
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Welcome');
  await page.getByTestId('block-1').click();
  await page.screenshot({ path: '/work/shots/crm/block-actions-1440.png' });

  await page.goto(`${projectUrl}/deals`);
  const card = page.getByRole('button', { name: /^Deal #\d+/ });
  await card.click();
  const panel = page.getByRole('complementary', { name: /^Deal #\d+/ });
  await panel.getByLabel("New variable's name").fill('product');
  await panel.getByLabel("New variable's value").fill('Sofa');
  await panel.getByRole('button', { name: 'Save variables' }).click();
  await expect(panel.getByLabel('Variable product')).toHaveValue('Sofa');
  await page.screenshot({ path: '/work/shots/crm/deal-panel-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/work/shots/crm/deal-panel-390.png' });
  await panel.getByRole('button', { name: 'Close the deal panel' }).click();
  await page.screenshot({ path: '/work/shots/crm/board-390.png' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(card).toContainText('Sofa');
  await page.screenshot({ path: '/work/shots/crm/board-1440.png' });
  await page.goto(`${projectUrl}/deals/table`);
  await expect(page.getByRole('cell', { name: 'Sofa' })).toBeVisible();
  await page.screenshot({ path: '/work/shots/crm/table-1440.png' });
});
