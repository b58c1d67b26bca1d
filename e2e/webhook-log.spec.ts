import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signUp } from './helpers';

test("a bot's deliveries failing at the receiver show in the webhook log with their error, and one redelivered after the fix succeeds under the same webhook-id", async ({
  page,
}) => {
  // The receiver: broken (500) until the test fixes it.
  let broken = true;
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.statusCode = broken ? 500 : 200;
      res.end(broken ? 'receiver broken' : 'thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    await signUp(page, `webhook-log-${Date.now()}@example.com`);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Webhook URL').fill(url);
    // The simulator's conversations reach the webhook only when asked for (off by default).
    await page.getByLabel('Also send test conversations').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    // A message to the demo bot and its answer: two deliveries, through the worker.
    await page.getByRole('link', { name: 'Bot', exact: true }).click();
    await page.getByLabel('Message to the bot').fill('hi');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => received.length).toBeGreaterThanOrEqual(2);

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Settings pages' })
      .getByRole('link', { name: 'Webhook log' })
      .click();
    const deliveries = page.getByRole('list', { name: 'Deliveries' });
    const incoming = deliveries.getByRole('button', { name: /Message in/ });
    await expect(incoming).toContainText('the receiver answered 500');
    await expect(deliveries.getByRole('button', { name: /Message out/ }).first()).toContainText('500');
    await page.getByLabel('Failures only').check();
    await expect(deliveries.getByRole('button')).toHaveCount(received.length);

    // Its detail: the body sent and the start of the answer.
    await incoming.click();
    const detail = page.getByRole('region', { name: 'Delivery detail' });
    await expect(detail).toContainText('"is_input": 1');
    await expect(detail).toContainText('receiver broken');
    const webhookId = received[0];
    await expect(detail).toContainText(webhookId);

    broken = false;
    await detail.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByLabel('Failures only').uncheck();
    // The new attempt, open, succeeded; the receiver got the same webhook-id again.
    await expect(page.getByRole('region', { name: 'Delivery detail' })).toContainText('thanks');
    await expect(deliveries.getByRole('button').first()).toContainText('200');
    expect(received.filter((id) => id === webhookId)).toHaveLength(2);

    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect(deliveries.getByRole('button').first()).toContainText('Test event');
    await expect(page.getByRole('tab', { name: 'Python' })).toBeVisible();
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
});
