import { expect, test } from '@playwright/test';
import { type FakeJambonz, startFakeJambonz } from '../server/channels/telephony/testing/fake-jambonz';
import { signUp } from './helpers';

let fake: FakeJambonz;

test.beforeAll(async () => {
  fake = await startFakeJambonz();
});
test.afterAll(() => fake?.close());

test('a jambonz gateway connected on the Channels screen answers a call with the bot', async ({ page }) => {
  await signUp(page, `telephony-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByTestId('telephony-empty')).toBeVisible();
  const form = page.getByRole('form', { name: 'Connect a jambonz gateway' });
  await form.getByLabel('jambonz API address').fill(fake.url);
  await form.getByLabel('Account SID').fill(fake.account.accountSid);
  await form.getByLabel('Application SID').fill(fake.account.applicationSid);
  await form.getByLabel('Webhook secret').fill(fake.account.webhookSecret);
  const caller = `+1 555 ${String(Date.now()).slice(-7)}`;
  await form.getByLabel('Caller number').fill(caller);

  // A key jambonz refuses: said under the key's field, nothing connected.
  await form.getByLabel('API key').fill('key_not_the_right_one_at_all');
  await form.getByRole('button', { name: 'Connect the gateway' }).click();
  await expect(page.locator('#telephony-apiKey-error')).toContainText('does not accept this API key');
  await expect(page.getByTestId('telephony-row')).toHaveCount(0);

  await form.getByLabel('API key').fill(fake.account.apiKey);
  await form.getByRole('button', { name: 'Connect the gateway' }).click();
  const setup = page.getByTestId('telephony-webhook-setup');
  await expect(setup).toContainText('is connected');
  const [callHook, statusHook] = await setup.locator('code').allInnerTexts();
  expect(callHook).toMatch(/\/api\/channels\/telephony\/\d+$/);
  expect(statusHook).toBe(`${callHook}/status`);
  await expect(page.getByTestId('telephony-row')).toHaveCount(1);
  // The secrets are never shown back.
  await expect(page.getByText(fake.account.apiKey)).toHaveCount(0);
  await expect(page.getByText(fake.account.webhookSecret)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/channels-telephony.png', fullPage: true });

  // The gateway's application points at the addresses shown; a call comes in and the bot speaks.
  fake.setApplication({ callHook, statusHook });
  const call = await fake.inboundCall('+44 7700 900123');
  expect(call.spoken.length).toBeGreaterThan(0);
  await fake.hangUp(call);
});
