import { expect, test } from '@playwright/test';
import { signUp } from './helpers';

test('the API keys tab offers a ready-to-copy call with the new key, links the API reference, and bad keys point to it', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, `integrator-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'API keys' }).click();

  // Before a key is created (or once it is hidden), a placeholder stands for it.
  const exampleCall = page.getByTestId('example-call');
  await expect(exampleCall).toHaveText(`curl '${baseURL}/api/YOUR_API_KEY/get_messages'`);
  const reference = page.getByRole('link', { name: 'API reference' });
  await expect(reference).toHaveAttribute('href', '/docs/api');

  await page.getByLabel('Name').fill('CRM');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  expect(key).toMatch(/^bb_/);
  const call = `curl '${baseURL}/api/${key}/get_messages'`;
  await expect(exampleCall).toHaveText(call);
  await page.getByRole('button', { name: 'Copy call' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(call);

  // The copied call works as it is.
  const url = /'(.+)'/.exec(call)?.[1] ?? '';
  const answer = await page.request.get(url);
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ status: 'success' });

  // A key the server does not know is told where keys are made.
  const wrong = await page.request.get(`${baseURL}/api/bb_notAKey/get_messages`);
  expect(wrong.status()).toBe(401);
  expect((await wrong.json()).message).toContain('API keys tab of your project');

  await page.reload();
  await expect(exampleCall).toHaveText(`curl '${baseURL}/api/YOUR_API_KEY/get_messages'`);
  await page.screenshot({ path: test.info().outputPath('api-keys.png') });

  const [docs] = await Promise.all([context.waitForEvent('page'), reference.click()]);
  await expect(docs.getByRole('heading', { name: 'Blockbot public API' })).toBeVisible();
});
