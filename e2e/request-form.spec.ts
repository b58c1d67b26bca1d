import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

/** A third-party API on 127.0.0.1 (the app may reach it: BLOCKBOT_HTTP_ALLOW_HOSTS in the config). */
let api: { url: string; requests: { path: string; headers: http.IncomingHttpHeaders; body: string }[] };
let server: http.Server;
test.beforeAll(async () => {
  const requests: typeof api.requests = [];
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json', 'x-api-version': '7' });
      res.end(JSON.stringify({ order: { id: 42, status: 'paid', items: [{ name: 'Pizza', price: 12.5 }] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('the block request form validates its fields and tests the request through the server', async ({
  page,
}) => {
  await signUp(page, `request-${Date.now()}@example.com`);
  await saved(page);
  await page.getByTestId('block-3').click();
  const panel = page.getByRole('complementary', { name: 'Block editor' });
  await panel.getByLabel('Send a block request').check();
  await panel.getByLabel('Method').selectOption('POST-json');
  await panel.getByLabel('Request URL').fill(`${api.url}/orders/#{order}?q=#{q}`);

  // Headers: JSON with its error's position until it is an object.
  const headers = panel.getByLabel('Headers (JSON)');
  await headers.fill('{"X-Token": ');
  await expect(panel.getByRole('alert').filter({ hasText: 'not valid JSON' })).toHaveText(
    'not valid JSON: line 1, column 13: Unexpected end of JSON',
  );
  await expect(headers).toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByText('this change is not saved until then')).toBeVisible();
  await headers.fill('{"X-Token": "#{token}"}');
  await expect(headers).not.toHaveAttribute('aria-invalid', 'true');

  // JSON parameters: a bare #{n} needs the format check off, and is then sent as a number.
  await panel.getByLabel('JSON parameters').fill('{"count": #{n}, "note": "#{q}"}');
  await expect(panel.getByRole('alert').filter({ hasText: 'stands outside quotes' })).toContainText(
    'line 1, column 11: #{n} stands outside quotes',
  );
  await panel.getByLabel('Check the JSON format of the parameters').uncheck();
  await expect(panel.getByRole('alert')).toHaveCount(0);

  // Stored values: a bad phrase is named, with its place marked.
  const stored = panel.getByLabel('Stored values');
  await stored.fill('order|id->order_ref; status');
  await expect(panel.getByRole('alert').filter({ hasText: 'phrase 2' })).toContainText(
    `phrase 2, at character 22: "status" has no '->'`,
  );
  await expect(panel.getByTestId('stored-values-preview').locator('mark')).toHaveText('status');
  await stored.fill('order|id->order_ref');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await saved(page);

  // Test it with sample values: one row per variable the request uses.
  await panel.getByLabel('Value of order').fill('42');
  await panel.getByLabel('Value of q').fill('hot pizza');
  await panel.getByLabel('Value of token').fill('s3cret');
  await panel.getByLabel('Value of n').fill('3');
  await panel.getByRole('button', { name: 'Test request' }).click();
  const result = panel.getByTestId('test-result');
  await expect(result.getByTestId('test-status')).toContainText('HTTP 200');
  await expect(result.getByTestId('test-body')).toContainText('"status": "paid"');
  await result.getByText(/Reply headers/).click();
  await expect(result.getByTestId('test-headers')).toContainText('x-api-version');
  await expect(result.getByTestId('test-stored')).toHaveText('order_ref = 42');
  const sent = api.requests.at(-1)!;
  expect(sent.path).toBe('/orders/42?q=hot%20pizza');
  expect(sent.headers['x-token']).toBe('s3cret');
  expect(JSON.parse(sent.body)).toEqual({ count: 3, note: 'hot pizza' });

  // Paths of the JSON reply are offered; picking one adds it to the stored values.
  const paths = result.getByRole('list', { name: 'Paths in the reply' });
  await expect(paths.getByRole('button')).toHaveText([
    'order|id42',
    'order|statuspaid',
    'order|items|0|namePizza',
    'order|items|0|price12.5',
  ]);
  await paths.getByRole('button', { name: 'Store order|items|0|name' }).click();
  await expect(stored).toHaveValue('order|id->order_ref; order|items|0|name->name');
  await saved(page);

  // An address the safe client refuses: said plainly, nothing is sent.
  const before = api.requests.length;
  await panel.getByLabel('Request URL').fill('http://169.254.169.254/latest/meta-data');
  await panel.getByRole('button', { name: 'Test request' }).click();
  await expect(result.getByRole('alert')).toContainText('Refused address');
  await expect(result.getByRole('alert')).toContainText('169.254.169.254');
  expect(api.requests.length).toBe(before);
  await saved(page);

  // Everything was saved with the block.
  await page.reload();
  await page.getByTestId('block-3').click();
  await expect(panel.getByLabel('Method')).toHaveValue('POST-json');
  await expect(panel.getByLabel('Headers (JSON)')).toHaveValue('{"X-Token": "#{token}"}');
  await expect(panel.getByLabel('Check the JSON format of the parameters')).not.toBeChecked();
  await expect(panel.getByLabel('Stored values')).toHaveValue(
    'order|id->order_ref; order|items|0|name->name',
  );
});
