import { expect, test } from '@playwright/test';
import { signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

/**
 * Analytics on the canvas (docs/analytics.md): clients who talk to the published demo bot
 * through the public API are counted by block and arrow, drawn on the canvas while the panel is
 * open, and a funnel between two blocks gives the share who went on.
 */
test('draws clients per block and arrow on the canvas, and a funnel between blocks', async ({
  page,
  baseURL,
}) => {
  await signUp(page, `analytics-${Date.now()}@example.com`);
  const projectUrl = page.url();
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('Traffic');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  const api = async (action: string, data: object) => {
    const response = await page.request.post(`${baseURL}/api/${key}/${action}`, { data });
    expect(response.ok(), await response.text()).toBe(true);
    return response.json();
  };
  // Two callers of the telephony line (client type 13): the bot runs for them as for a message.
  const { clients } = await api('load_clients', {
    clients: [
      { platform_id: '+33100000001', group_id: '', client_type: 13, name: 'Ann' },
      { platform_id: '+33100000002', group_id: '', client_type: 13, name: 'Bob' },
    ],
  });
  const [ann, bob] = clients.map((c: { client_id: number }) => String(c.client_id));
  await api('callback', { client_id: ann, message: 'hi' });
  await api('callback', { client_id: ann, message: 'Prices' });
  await api('callback', { client_id: bob, message: 'hi' });

  await page.goto(projectUrl);
  await expect(page.getByTestId('block-1')).toBeVisible();
  // No figures until the panel is open.
  await expect(page.getByTestId('figures-1')).toHaveCount(0);
  await page.getByRole('button', { name: 'Analytics' }).click();
  const panel = page.getByRole('region', { name: 'Analytics' });
  await expect(panel.getByTestId('analytics-summary')).toContainText('Version 1');
  await expect(page.getByTestId('figures-1')).toContainText('2 clients');
  await expect(page.getByTestId('figures-2')).toContainText('1 client');
  await expect(page.getByTestId('arrow-figures-1')).toHaveText('1');
  await expect(page.getByTestId('figures-3')).toContainText('0 clients');

  // A funnel from the welcome to the prices: half went on.
  const add = panel.getByLabel('Add a funnel step');
  await add.selectOption({ label: '#1 Welcome' });
  await add.selectOption({ label: '#2 Prices' });
  const funnel = panel.getByTestId('funnel');
  await expect(funnel.getByRole('listitem')).toHaveText([/1\. Welcome\s*2/, /2\. Prices\s*1\s*50%/]);
  await expect(panel).toContainText('Conversion from the first step: 50%');

  // Ten years is more than the limit: said, and nothing is asked.
  await panel.getByLabel('Days').selectOption('Custom range');
  await panel.getByLabel('From').fill('2016-01-01');
  await expect(panel.getByRole('alert')).toContainText('A range is at most 366 days: pick a shorter one.');

  // Closing the panel takes the figures off the canvas.
  await panel.getByRole('button', { name: 'Close analytics' }).click();
  await expect(page.getByTestId('figures-1')).toHaveCount(0);
});
