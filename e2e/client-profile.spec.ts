import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

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
    {
      id: 2,
      kind: 'state',
      name: 'Second step',
      text: 'Now the second step',
      buttons: [{ text: 'Go on' }],
      position: { x: 2400, y: 1600 },
    },
  ],
  arrows: [],
};

test("a client's profile: the history, a variable edited and saved, sent to a block, its block on the canvas", async ({
  page,
}) => {
  await signUp(page, `profile-${Date.now()}@example.com`);
  await importBot(page, 'paris.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await saved(page);
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Hello from Paris');

  await page.getByRole('link', { name: 'Clients' }).click();
  await page.getByRole('row').filter({ hasText: 'Simulator' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/projects\/\d+\/clients\/\d+$/);
  const history = page.getByTestId('client-history');
  await expect(history.locator('li[data-direction="in"]')).toHaveText(/hi/);
  await expect(history.locator('li[data-direction="out"]')).toContainText('Hello from Paris');
  await expect(history.locator('li[data-direction="out"]')).toContainText('delivered');

  // Edit a client variable, then add a deal variable; both survive a reload.
  const city = page.getByLabel('client.city', { exact: true });
  await expect(city).toHaveValue('Paris');
  await city.fill('Lyon');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await page.getByLabel('New variable name').fill('order');
  await page.getByLabel('New variable value').fill('42');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByLabel('order', { exact: true })).toHaveValue('42');
  // A name that is no name is refused in the API's own words.
  await page.getByLabel('New variable name').fill('client.');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('form', { name: 'Add a variable' }).getByRole('alert')).toContainText(
    '"client." is not a variable name.',
  );
  await page.reload();
  await expect(page.getByLabel('client.city', { exact: true })).toHaveValue('Lyon');
  await expect(page.getByLabel('order', { exact: true })).toHaveValue('42');

  // Send the client to block 2: it runs, the message is marked as the CRM's.
  await page.getByLabel('Block to send the client to').selectOption({ label: 'Second step (#2)' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Sent to the block: 1 message went out.')).toBeVisible();
  const sent = history.locator('li[data-source="crm"]');
  await expect(sent).toContainText('Now the second step');
  await expect(sent).toContainText('CRM');
  await expect(sent.getByRole('list', { name: 'Buttons' })).toHaveText('Go on');
  const blockLink = page.getByRole('link', { name: 'Second step (#2)' });
  await expect(blockLink).toBeVisible();

  // The current block opens the canvas on it, far from the first block, selected.
  await blockLink.click();
  await expect(page).toHaveURL(/\/projects\/\d+\?block=2$/);
  await expect(page.getByRole('complementary', { name: 'Block editor' })).toBeVisible();
  await expect(page.getByTestId('block-2')).toBeInViewport();
  await expect(page.getByTestId('block-1')).not.toBeInViewport();
});
