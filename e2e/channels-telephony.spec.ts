import { expect, type Locator, test } from '@playwright/test';
import { type FakeJambonz, startFakeJambonz } from '../server/channels/telephony/testing/fake-jambonz';
import { setUpChannel, signUp } from './helpers';

let fake: FakeJambonz;

test.beforeAll(async () => {
  fake = await startFakeJambonz();
});
test.afterAll(() => fake?.close());

/** Fills the connect form with the fake's account, all but the API key. */
async function fillGateway(form: Locator, caller: string) {
  await form.getByLabel('jambonz API address').fill(fake.url);
  await form.getByLabel('Account SID').fill(fake.account.accountSid);
  await form.getByLabel('Application SID').fill(fake.account.applicationSid);
  await form.getByLabel('Webhook secret').fill(fake.account.webhookSecret);
  await form.getByLabel('Caller number').fill(caller);
}

test('a jambonz gateway connected on the Channels screen answers a call with the bot', async ({ page }) => {
  await signUp(page, `telephony-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'Channels' }).click();
  await setUpChannel(page, 'Voice calls (telephony)');
  await expect(page.getByTestId('telephony-empty')).toBeVisible();
  const form = page.getByRole('form', { name: 'Connect a jambonz gateway' });
  await fillGateway(form, `+1 555 ${String(Date.now()).slice(-7)}`);

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

test('a connected caller number shows its webhooks at any time and changes its voice settings', async ({
  page,
}) => {
  await signUp(page, `telephony-voice-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'Channels' }).click();
  await setUpChannel(page, 'Voice calls (telephony)');
  const connect = page.getByRole('form', { name: 'Connect a jambonz gateway' });
  const caller = `+1 556 ${String(Date.now()).slice(-7)}`;
  const digits = caller.replace(/\D/g, '');
  await fillGateway(connect, caller);
  await connect.getByLabel('API key').fill(fake.account.apiKey);
  await connect.getByRole('button', { name: 'Connect the gateway' }).click();
  await expect(page.getByTestId('telephony-webhook-setup')).toContainText('is connected');

  // Once the page is left and opened again, the connected number's row still shows both addresses.
  await page.reload();
  await expect(page.getByTestId('telephony-webhook-setup')).toHaveCount(0);
  const row = page.getByTestId('telephony-row');
  await expect(row).toHaveCount(1);
  const addresses = row.getByTestId('telephony-webhooks').locator('code');
  await expect(addresses).toHaveCount(2);
  const [callHook, statusHook] = await addresses.allInnerTexts();
  expect(callHook).toMatch(/\/api\/channels\/telephony\/\d+$/);
  expect(statusHook).toBe(`${callHook}/status`);
  const channelId = callHook.split('/').at(-1);

  const voice = row.getByRole('form', { name: `Voice settings of +${digits}` });
  await expect(voice.getByLabel('Speech vendor')).toHaveValue('google');
  await expect(voice.getByLabel('Language')).toHaveValue('en-US');
  // A wrong value is said under its own field, and nothing is saved.
  await voice.getByLabel('Language').fill('English');
  await voice.getByRole('button', { name: 'Save voice settings' }).click();
  const languageError = page.locator(`#telephony-${channelId}-language-error`);
  await expect(languageError).toContainText('must be a language code like en-US');
  await expect(row.getByRole('status')).toHaveCount(0);

  await voice.getByLabel('Speech vendor').fill('microsoft');
  await voice.getByLabel('Language').fill('de-DE');
  await voice.getByLabel('Voice').fill('de-DE-KatjaNeural');
  await voice.getByLabel('Transfer number').fill('+1 (555) 999-0000');
  await expect(voice.getByLabel('Transcribe transfers')).not.toBeChecked();
  await voice.getByLabel('Transcribe transfers').check();
  await voice.getByRole('button', { name: 'Save voice settings' }).click();
  await expect(row.getByRole('status')).toHaveText('Saved.');
  await expect(languageError).toHaveCount(0);
  await page.screenshot({ path: 'test-results/channels-telephony-voice.png', fullPage: true });

  // Kept: opened again, the form shows them (the transfer number as stored, in E.164).
  await page.reload();
  const kept = page.getByRole('form', { name: `Voice settings of +${digits}` });
  await expect(kept.getByLabel('Speech vendor')).toHaveValue('microsoft');
  await expect(kept.getByLabel('Language')).toHaveValue('de-DE');
  await expect(kept.getByLabel('Voice')).toHaveValue('de-DE-KatjaNeural');
  await expect(kept.getByLabel('Transfer number')).toHaveValue('+15559990000');
  await expect(kept.getByLabel('Transcribe transfers')).toBeChecked();
  await expect(kept.getByLabel('Keep recordings')).not.toBeChecked();

  // The next call to the number speaks with them.
  fake.setApplication({ callHook, statusHook });
  const call = await fake.inboundCall('+44 7700 900124', digits);
  const said = call.verbs[0];
  expect(said.synthesizer ?? (said.say as { synthesizer?: unknown } | undefined)?.synthesizer).toMatchObject({
    vendor: 'microsoft',
    language: 'de-DE',
    voice: 'de-DE-KatjaNeural',
  });
  await fake.hangUp(call);
});
