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

test('the Clients table pages with Previous and Next, 50 clients a page', async ({ page, baseURL }) => {
  await signUp(page, `clients-pages-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('Setup');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  const loaded = await page.request.post(`${baseURL}/api/${key}/load_clients`, {
    data: {
      clients: Array.from({ length: 60 }, (_, i) => ({
        platform_id: `p${i}`,
        group_id: 'sim',
        client_type: 99,
        name: `Client ${i}`,
      })),
    },
  });
  expect(loaded.ok(), await loaded.text()).toBe(true);

  await page.getByRole('link', { name: 'Clients' }).click();
  const pages = page.getByRole('navigation', { name: 'Pagination' });
  const rows = page.locator('tbody tr');
  await expect(pages).toContainText('Page 1');
  await expect(rows).toHaveCount(50);
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(pages).toContainText('Page 2');
  await expect(rows).toHaveCount(10);
  await expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Previous' }).click();
  await expect(pages).toContainText('Page 1');
  await expect(rows).toHaveCount(50);
});
