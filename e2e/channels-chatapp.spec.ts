import { expect, test } from '@playwright/test';
import { type FakeCloudApi, startFakeCloudApi } from '../server/channels/chatapp/testing/fake-cloud-api';
import { setUpChannel, signUp } from './helpers';

// The app's Cloud API client points at this port (playwright.config.ts: BLOCKBOT_CHATAPP_API_ROOT).
const fakePort = Number(process.env.E2E_PORT ?? 3100) + 2;
let fake: FakeCloudApi;

test.beforeAll(async () => {
  fake = await startFakeCloudApi({ port: fakePort });
});
test.afterAll(() => fake?.close());

test('a chat-app number connected on the Channels screen gets its webhook and answers a client', async ({
  page,
}) => {
  await signUp(page, `chatapp-${Date.now()}@example.com`);
  const number = fake.addNumber({
    displayPhoneNumber: `1555${String(Date.now()).slice(-7)}`,
    verifiedName: 'E2E Pizza',
  });
  await page.getByRole('link', { name: 'Channels' }).click();
  await setUpChannel(page, 'Chat-app messenger');
  await expect(page.getByTestId('chatapp-empty')).toBeVisible();
  const form = page.getByRole('form', { name: 'Connect a chat-app number' });
  await form.getByLabel('Phone number ID').fill(number.phoneNumberId);
  await form.getByLabel('WhatsApp Business Account ID').fill(number.wabaId);
  await form.getByLabel('App secret').fill(number.appSecret);

  // A token the API refuses: said under the token's field.
  await form.getByLabel('Access token').fill('EAAnotavalidtokenatallxx');
  await form.getByRole('button', { name: 'Connect the number' }).click();
  await expect(page.locator('#chatapp-accessToken-error')).toContainText('does not accept this access token');

  await form.getByLabel('Access token').fill(number.token);
  await form.getByRole('button', { name: 'Connect the number' }).click();
  const setup = page.getByTestId('chatapp-webhook-setup');
  await expect(setup).toContainText(`+${number.displayPhoneNumber} is connected`);
  const url = await setup.getByTestId('chatapp-callback-url').innerText();
  const verifyToken = await setup.getByTestId('chatapp-verify-token').innerText();
  expect(url).toMatch(/\/api\/channels\/chatapp\/\d+$/);
  await expect(page.getByTestId('channels-reach')).toHaveText(
    'Clients reach the bot through 1 chat-app number.',
  );
  const row = page.getByTestId('chatapp-row');
  await expect(row).toContainText(`+${number.displayPhoneNumber}`);
  await expect(page.getByText(number.token)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/channels-chatapp.png', fullPage: true });

  // Meta's handshake with the token shown, then a client writes: the example bot answers.
  expect(await fake.setWebhook(number.phoneNumberId, { url, verifyToken })).toBe(true);
  await fake.sendInbound(number.phoneNumberId, {
    from: '447700900123',
    name: 'Ann',
    type: 'text',
    text: 'hello',
  });
  const reply = await fake.waitForCall(
    (c) =>
      c.path.endsWith(`/${number.phoneNumberId}/messages`) &&
      (c.body as { to?: string }).to === '447700900123',
    30_000,
  );
  expect(reply.status).toBe(200);
  await expect(row).not.toContainText('Last update received: never');

  // The window template: a wrong language code is said under its field; a right one is kept.
  await row.getByLabel('Template name').fill('order_update');
  await row.getByLabel('Language code').fill('English');
  await row.getByRole('button', { name: 'Save template' }).click();
  await expect(row.getByText('must be the template’s language code')).toBeVisible();
  await row.getByLabel('Language code').fill('en_US');
  await row.getByRole('button', { name: 'Save template' }).click();
  await expect(row.getByText('Saved.')).toBeVisible();

  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByTestId('chatapp-empty')).toBeVisible();
});
