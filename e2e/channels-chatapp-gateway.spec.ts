import { expect, test } from '@playwright/test';
import { type FakeWaha, startFakeWaha } from '../server/channels/chatapp/testing/fake-waha';
import { setUpChannel, signUp } from './helpers';

// The gateway's address is typed into the form; 127.0.0.1 is allowed in the browser tests' app.
let waha: FakeWaha;

test.beforeAll(async () => {
  waha = await startFakeWaha({ apiKey: 'e2e-waha-key' });
});
test.afterAll(() => waha?.close());

test('a number paired through a session gateway: QR code on the Channels screen, then the bot answers', async ({
  page,
}) => {
  await signUp(page, `gateway-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'Channels' }).click();
  await setUpChannel(page, 'Chat-app messenger');
  await page.getByRole('tab', { name: 'Session gateway (QR code)' }).click();
  const form = page.getByRole('form', { name: 'Connect a session gateway' });
  await form.getByLabel('Gateway address').fill(waha.url);
  await form.getByLabel('Session name').fill('e2e');

  // A wrong API key: said under its field, nothing connected.
  await form.getByLabel('API key').fill('not-the-key');
  await form.getByRole('button', { name: 'Connect the session' }).click();
  await expect(page.locator('#gateway-apiKey-error')).toContainText('refused the API key');
  await expect(page.getByTestId('chatapp-empty')).toBeVisible();

  await form.getByLabel('API key').fill(waha.apiKey);
  await form.getByRole('button', { name: 'Connect the session' }).click();
  const row = page.getByTestId('chatapp-row');
  await expect(row).toContainText('Not paired yet');
  await expect(row).toContainText('Session gateway');
  await expect(row.getByTestId('gateway-qr')).toBeVisible();
  await expect(row.getByTestId('gateway-state')).toContainText('scan this code');
  await expect(page.getByText(waha.apiKey)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/channels-gateway-qr.png', fullPage: true });

  const phone = `1555${String(Date.now()).slice(-7)}`;
  await waha.pair('e2e', phone, 'E2E Shop');
  await expect(row).toContainText(`+${phone}`);
  await expect(row.getByTestId('gateway-state')).toHaveText('Paired and working.');
  await expect(row.getByTestId('gateway-qr')).toHaveCount(0);
  await expect(page.getByTestId('channels-reach')).toHaveText(
    'Clients reach the bot through 1 chat-app number.',
  );

  // A client writes: the example bot's answer goes out through the gateway.
  await waha.receive('e2e', { from: '447700900456@c.us', body: 'hello' });
  await expect
    .poll(() => waha.sent.filter((m) => m.chatId === '447700900456@c.us').length, { timeout: 30_000 })
    .toBe(1);
  await expect(row).not.toContainText('Last update received: never');
  await page.screenshot({ path: 'test-results/channels-gateway-paired.png', fullPage: true });

  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByTestId('chatapp-empty')).toBeVisible();
  const config = waha.session('e2e')?.config as { webhooks?: unknown[] };
  expect(config.webhooks ?? []).toHaveLength(0);
});
