import { expect, test } from '@playwright/test';
import { setUpChannel, signUp } from './helpers';

// The app under test runs at http://127.0.0.1 (playwright.config.ts: BLOCKBOT_BASE_URL), an
// address the tg messenger's servers cannot call: the Channels tab says so (issue 30 item 10).
test('the Channels tab says a webhook cannot reach a server without a public https address, and offers long polling', async ({
  page,
}) => {
  await signUp(page, `webhook-hint-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'Channels' }).click();
  await setUpChannel(page, 'tg messenger');
  const webhook = page.getByRole('radio', { name: /^Webhook/ });
  await expect(webhook).toBeChecked();
  const hint = page.getByTestId('tg-webhook-hint');
  await expect(hint).toContainText('BLOCKBOT_BASE_URL, is http://127.0.0.1');
  await expect(hint).toContainText('only at public https addresses');
  await hint.getByRole('button', { name: 'Use long polling' }).click();
  await expect(page.getByRole('radio', { name: /^Long polling/ })).toBeChecked();
  await expect(hint).toHaveCount(0);
  // Choosing the webhook again brings the warning back.
  await webhook.check();
  await expect(page.getByTestId('tg-webhook-hint')).toBeVisible();
});
