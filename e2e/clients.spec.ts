import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

test('the Clients tab is empty at first, then finds the simulator client by a variable', async ({ page }) => {
  await signUp(page, `clients-${Date.now()}@example.com`);
  const projectUrl = page.url();
  await page.getByRole('link', { name: 'Clients' }).click();
  await expect(
    page.getByText('No clients yet: they appear when someone writes to the bot, or in the simulator.'),
  ).toBeVisible();

  await page.goto(projectUrl);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Welcome',
        text: 'Hello from Paris',
        formula: 'client.city = "Paris"',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
      },
    ],
    arrows: [],
  };
  await importBot(page, 'paris.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await saved(page);
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Hello from Paris');

  await page.getByRole('link', { name: 'Clients' }).click();
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'Simulator' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Simulator' })).toContainText('Welcome');

  await page.getByLabel('Variable name').fill('city');
  await page.getByLabel('Variable value').fill('PAR');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows.filter({ hasText: 'Simulator' })).toHaveCount(1);

  await page.getByLabel('Variable value').fill('50%_');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No clients match this search.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(rows.filter({ hasText: 'Simulator' })).toHaveCount(1);
});
