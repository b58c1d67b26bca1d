import { expect, test } from '@playwright/test';
import { type FakeBotApi, startFakeBotApi } from '../server/channels/tg/testing/fake-bot-api';
import { setUpChannel, signUp } from './helpers';

// The app's tg client points at this port (playwright.config.ts: BLOCKBOT_TG_API_ROOT).
const fakePort = Number(process.env.E2E_PORT ?? 3100) + 1;
let fake: FakeBotApi;

test.beforeAll(async () => {
  fake = await startFakeBotApi({ port: fakePort, limits: null });
});
test.afterAll(() => fake?.close());

test('a tg bot connected on the Channels screen receives a message and answers it', async ({ page }) => {
  await signUp(page, `channels-${Date.now()}@example.com`);
  const bot = fake.addBot({ username: `e2e${Date.now()}_bot`, firstName: 'E2E shop' });
  await page.getByRole('link', { name: 'Channels' }).click();
  // Nothing connected: the chat widget first (it needs no outside account), every messenger one line.
  await expect(page.locator('[data-testid^="channel-kind-"]').first()).toHaveAttribute(
    'data-testid',
    'channel-kind-widget',
  );
  await expect(page.getByTestId('channel-kind-tg')).toContainText('Not connected');
  await expect(page.getByRole('form', { name: 'Connect a tg bot' })).toHaveCount(0);
  await setUpChannel(page, 'tg messenger');
  await expect(page.getByTestId('channels-empty')).toContainText('BotFather');
  await expect(page.getByTestId('channels-reach')).toContainText('it talks only in the builder’s simulator');

  // A wrong token: the messenger's answer is shown on the form.
  await page.getByLabel('Bot token').fill('123456:NOT-A-REAL-TOKEN-x');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.locator('#tg-token-error')).toContainText('Unauthorized');

  await page.getByLabel('Bot token').fill(bot.token);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const row = page.getByTestId('channel-row');
  await expect(row).toContainText(`@${bot.username}`);
  await expect(row.getByTestId('channel-last-update')).toContainText('never');
  await expect(page.getByTestId('channels-reach')).toHaveText('Clients reach the bot through 1 tg bot.');
  await expect(page.getByText(bot.token)).toHaveCount(0);
  expect(fake.bot(bot.token).webhook?.url).toMatch(/\/api\/channels\/tg\/\d+$/);

  // A client writes to the bot: the webhook takes it, the bot's first block answers.
  const sent = await fake.pushUpdate(bot.token, {
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 4242, type: 'private', first_name: 'Ann' },
      from: { id: 4242, is_bot: false, first_name: 'Ann' },
      text: 'hello',
    },
  });
  expect(sent).toMatchObject({ via: 'webhook', status: 200 });
  const reply = await fake.waitForCall(
    (c) => c.token === bot.token && c.method === 'sendMessage' && c.params.chat_id === '4242',
    30_000,
  );
  expect(reply).toMatchObject({ status: 200, params: { text: expect.stringContaining('Hi Ann') } });
  await expect(row.getByTestId('channel-last-update')).not.toContainText('never');

  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByTestId('channels-empty')).toBeVisible();
  expect(fake.bot(bot.token).webhook).toBeNull();
});
