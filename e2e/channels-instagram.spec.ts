import { expect, test } from '@playwright/test';
import { type FakeInstagram, startFakeInstagram } from '../server/channels/social/testing/fake-instagram';
import { setUpChannel, signUp } from './helpers';

// The app's Graph API client for Instagram points at this port (playwright.config.ts: BLOCKBOT_SOCIAL_API_ROOT).
const fakePort = Number(process.env.E2E_PORT ?? 3100) + 3;
let fake: FakeInstagram;

test.beforeAll(async () => {
  fake = await startFakeInstagram({ port: fakePort });
});
test.afterAll(() => fake?.close());

test('an Instagram account connected on the Channels screen gets its webhook and answers a person', async ({
  page,
}) => {
  await signUp(page, `instagram-${Date.now()}@example.com`);
  const account = fake.addAccount({
    username: `E2E_Pizza_${String(Date.now()).slice(-6)}`,
    name: 'E2E Pizza',
  });
  await page.getByRole('link', { name: 'Channels' }).click();
  await setUpChannel(page, 'Instagram Direct');
  await expect(page.getByTestId('social-empty')).toBeVisible();
  const form = page.getByRole('form', { name: 'Connect an Instagram account' });
  await form.getByLabel('Instagram account ID').fill(account.accountId);
  await form.getByLabel('App secret').fill(account.appSecret);

  // A token the Graph API refuses: said under the token's field, nothing connected.
  await form.getByLabel('Access token').fill('IGAAnotavalidtokenatallxx');
  await form.getByRole('button', { name: 'Connect the account' }).click();
  await expect(page.locator('#social-accessToken-error')).toBeVisible();
  await expect(page.getByTestId('social-row')).toHaveCount(0);

  await form.getByLabel('Access token').fill(account.token);
  await form.getByRole('button', { name: 'Connect the account' }).click();
  const setup = page.getByTestId('social-webhook-setup');
  await expect(setup).toContainText(`@${account.username.toLowerCase()} is connected`);
  const url = await setup.getByTestId('social-callback-url').innerText();
  const verifyToken = await setup.getByTestId('social-verify-token').innerText();
  expect(url).toMatch(/\/api\/channels\/social\/\d+$/);
  const row = page.getByTestId('social-row');
  await expect(row).toContainText(account.accountId);
  // The secrets are never shown back.
  await expect(page.getByText(account.token)).toHaveCount(0);
  await expect(page.getByText(account.appSecret)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/channels-instagram.png', fullPage: true });

  // Meta's handshake with the token shown, then a person writes: the example bot answers them.
  expect(await fake.setWebhook(account.accountId, { url, verifyToken })).toBe(true);
  const person = fake.addUser({ username: 'ann.e2e', name: 'Ann' });
  expect((await fake.sendInbound(account.accountId, person.igsid, { text: 'hello' })).status).toBe(200);
  await expect
    .poll(() => fake.sent(account.accountId, person.igsid).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  await expect(row).not.toContainText('Last update received: never');

  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByTestId('social-empty')).toBeVisible();
});
