import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

/** A third-party API on 127.0.0.1 (the app may reach it: BLOCKBOT_HTTP_ALLOW_HOSTS in the config). */
let apiUrl: string;
let server: http.Server;
test.beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ order: { id: 42, status: 'paid' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('the simulator says in the chat why a stored value came out empty', async ({ page }) => {
  await signUp(page, `sim-warnings-${Date.now()}@example.com`);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Order status',
        text: 'Your order number: #{order_number}',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
        // The reply has order|id, not order|number: the path matches nothing.
        request: { type: 'GET', url: `${apiUrl}/orders/1`, storedValues: 'order|number->order_number' },
      },
    ],
    arrows: [],
  };
  await importBot(page, 'orders.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Order status');
  await saved(page);

  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  await simulator.getByLabel('Message to the bot').fill('hi');
  await simulator.getByRole('button', { name: 'Send' }).click();

  // Inline, where it happened: after the client's message, before the bot's (empty-valued) answer.
  const chat = simulator.getByRole('list').first().getByRole('listitem');
  await expect(chat).toHaveText([
    'hi',
    /^Stored values not saved from the reply of block #1's request \(GET http:\/\/127\.0\.0\.1:\d+\/orders\/1\): Stored value order_number: 'order\|number' not found: 'order' has no key "number"/,
    /^#\{order_number\} is not set, so it was left empty\./,
    /^Your order number:\s*$/,
  ]);
  const warning = simulator.getByRole('note', { name: 'Simulator warning' }).first();
  await expect(warning).toContainText('Check the path in Stored values against the reply');
  await simulator.screenshot({ path: test.info().outputPath('simulator-warnings.png') });
});
