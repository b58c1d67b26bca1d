import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { dragArrowOut, monacoFocusEnd, monacoText, saved, settled, signUp } from './helpers';

// Room for the canvas, the block editor and the simulator side by side.
test.use({ viewport: { width: 1700, height: 1000 } });

/** The shop's rates API on 127.0.0.1 (the app may reach it: BLOCKBOT_HTTP_ALLOW_HOSTS). */
let api: { url: string; paths: string[] };
let server: http.Server;
test.beforeAll(async () => {
  const paths: string[] = [];
  server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    const plan = new URL(req.url ?? '/', 'http://x').searchParams.get('plan');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { plan, rate: plan === 'Pro' ? 1.5 : 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });
const arrowEditor = (page: Page) => page.getByRole('complementary', { name: 'Arrow editor' });

async function openBlock(page: Page, id: number) {
  await page.getByTestId(`block-${id}`).click();
  await expect(blockEditor(page).getByRole('heading')).toContainText(`#${id}`);
  return blockEditor(page);
}

async function openArrow(page: Page, id: number) {
  await page.getByTestId(`arrow-${id}`).click();
  await expect(arrowEditor(page).getByRole('heading')).toContainText(`#${id}`);
  return arrowEditor(page);
}

/** Fits the bot in view, zooms out a little, and drags a new block out of `from`, below it. */
async function addBlockBelow(page: Page, from: number) {
  // Saved first: the toolbar's save state changes width as it saves, which can move the canvas.
  await saved(page);
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await page.waitForTimeout(400); // the fit animates for 300 ms
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  // The zoom animates: measure the block once it has stopped moving.
  const block = page.getByTestId(`block-${from}`);
  const box = await settled(block);
  // Well below, so the new arrow's label sits in the open between the two blocks, but inside the canvas.
  const canvas = await page.getByTestId('canvas').boundingBox();
  if (!canvas) throw new Error('the canvas is not visible');
  const y = Math.min(box.y + box.height + 160, canvas.y + canvas.height - 60);
  await dragArrowOut(page, from, { x: box.x + 10, y });
}

async function send(page: Page, text: string) {
  await page.getByLabel('Message to the bot').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('builds a bot from scratch through the UI only, then talks to it in the simulator', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, `scratch-${Date.now()}@example.com`);
  await page.goto('/projects');
  await page.getByLabel('Name').fill('Seat shop');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Seat shop');
  await expect(page.getByTestId('canvas').locator('.react-flow__node')).toHaveCount(0);

  // 1. A start block: the entry for new clients, with two reply buttons.
  await page.getByRole('button', { name: 'Add start block' }).click();
  let panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#1');
  await panel.getByLabel('Name', { exact: true }).fill('Welcome');
  await panel.getByLabel('Text', { exact: true }).fill('Hi! Which plan?');
  await panel.getByRole('button', { name: 'Add button' }).click();
  await panel.getByLabel('Button 1 text').fill('Basic');
  await panel.getByRole('button', { name: 'Add button' }).click();
  await panel.getByLabel('Button 2 text').fill('Pro');
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await expect(page.getByTestId('block-1')).toContainText('Pro');

  // Its id is shown and copies for integrators (message_id).
  await panel.getByRole('button', { name: 'Copy id' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('1');

  // 2. An arrow dragged into empty space makes the next block: a state block with a block request.
  await addBlockBelow(page, 1);
  panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#2');
  await panel.getByLabel('Name', { exact: true }).fill('Rate');
  await panel.getByLabel('Text', { exact: true }).fill('#{plan} costs #{rate} a seat. How many seats?');
  await panel.getByLabel('Send a block request').check();
  await panel.getByLabel('Request URL').fill(`${api.url}/rates?plan=#{plan}`);
  await panel.getByLabel('Stored values').fill('data|rate->rate');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await saved(page);

  // The arrow from the start block: the buttons' texts, the reply collected into `plan`.
  let arrow = await openArrow(page, 1);
  await arrow.getByLabel('Arrow kind').selectOption('condition');
  await arrow.getByLabel('Alternatives').fill('Basic;Pro');
  await arrow.getByLabel('Collect the reply into variable').fill('plan');
  await expect(page.getByTestId('arrow-1')).toContainText('Basic | Pro');

  // 3. The quote: a formula written in the formula editor, `round` picked from the completions.
  await addBlockBelow(page, 2);
  panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#3');
  await panel.getByLabel('Name', { exact: true }).fill('Quote');
  await panel.getByLabel('Text', { exact: true }).fill('Total: #{total} EUR');
  const formula = panel.getByTestId('formula-editor');
  await expect(formula.locator('.monaco-editor')).toBeVisible();
  await monacoFocusEnd(page, formula);
  await page.keyboard.type('total = rou');
  const round = page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'round' }).first();
  await expect(round).toBeVisible();
  await round.click();
  await page.keyboard.type('seats * rate * 10, 2)');
  await page.keyboard.press('Escape');
  await expect.poll(() => monacoText(formula)).toBe('total = round(seats * rate * 10, 2)');
  await expect(formula.locator('.squiggly-error')).toHaveCount(0);
  await saved(page);

  arrow = await openArrow(page, 2);
  await expect(arrow.getByLabel('Arrow kind')).toHaveValue('unconditional');
  await arrow.getByLabel('Collect the reply into variable').fill('seats');
  await saved(page);

  // 4. A red block after a timer: the deal is submitted and closed.
  await addBlockBelow(page, 3);
  panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#4');
  await panel.getByLabel('Kind').selectOption('close_deal');
  await panel.getByLabel('Name', { exact: true }).fill('Order placed');
  await panel.getByLabel('Text', { exact: true }).fill('Order placed: #{seats} × #{plan} for #{total} EUR');
  await expect(page.getByTestId('block-4')).toHaveAttribute('data-kind', 'close_deal');
  arrow = await openArrow(page, 3);
  await arrow.getByLabel('Arrow kind').selectOption('timer');
  await arrow.getByLabel('Delay').fill('10');
  await arrow.getByLabel('Unit').selectOption('minutes');
  await expect(page.getByTestId('arrow-3')).toContainText('10 min');
  await saved(page);

  // Everything survives a reload.
  await page.reload();
  await expect(page.getByTestId('block-4')).toContainText('Order placed');
  await expect(page.getByTestId('arrow-1')).toContainText('Basic | Pro');

  // Talk to it.
  await send(page, 'hello');
  const out = page.getByTestId('sim-out');
  await expect(out.last()).toHaveText('Hi! Which plan?');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '1');
  await page
    .getByRole('complementary', { name: 'Simulator' })
    .getByRole('button', { name: 'Pro', exact: true })
    .click();
  await expect(out.last()).toHaveText('Pro costs 1.5 a seat. How many seats?');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '2');
  expect(api.paths).toEqual(['/rates?plan=Pro']);
  await send(page, '3');
  await expect(out.last()).toHaveText('Total: 45 EUR');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '3');
  // The current block is outlined on the canvas.
  await expect(page.getByTestId('block-3')).toHaveCSS('outline-style', 'solid');
  await expect(page.getByTestId('block-2')).not.toHaveCSS('outline-style', 'solid');

  const variables = page.getByTestId('variables');
  await expect(variables).toContainText('plan = Pro');
  await expect(variables).toContainText('rate = 1.5');
  await expect(variables).toContainText('seats = 3');
  await expect(variables).toContainText('total = 45');

  await page.getByRole('tab', { name: 'Log' }).click();
  const log = page.getByTestId('log');
  await expect(log).toContainText('Entered block #1 "Welcome" (start) through the entry for a new client');
  await expect(log).toContainText(`Block request in block #2: GET ${api.url}/rates?plan=Pro → HTTP 200`);
  await expect(log).toContainText('Timer of arrow #3 scheduled');
  await log.getByText(/Block request in block #2/).click();
  await expect(log).toContainText('rate = 1.5');

  // The timer waits ten minutes; "Fire now" runs it.
  await page.getByRole('tab', { name: 'Variables' }).click();
  await page.getByRole('button', { name: 'Fire now' }).click();
  await expect(out.last()).toHaveText('Order placed: 3 × Pro for 45 EUR');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-current-block', '4');
  // The red block submitted the deal and discarded its variables.
  await expect(variables).not.toContainText('plan = Pro');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(log).toContainText('Timer of arrow #3 fired');
  await expect(log).toContainText('Deal submitted from block #4 (variables discarded)');
});

test('moves blocks, selects several, and copies them with their arrow into another project', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, `between-${Date.now()}@example.com`);
  await saved(page);

  // Move a block by dragging it: the new place is saved.
  const restart = page.getByTestId('block-6');
  const before = (await restart.boundingBox())!;
  const from = { x: before.x + before.width / 2, y: before.y + 20 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 120, from.y + 80, { steps: 10 });
  await page.mouse.up();
  await saved(page);
  const welcome = (await page.getByTestId('block-1').boundingBox())!;
  const moved = (await restart.boundingBox())!;
  await page.reload();
  const welcomeAfter = (await page.getByTestId('block-1').boundingBox())!;
  const movedAfter = (await page.getByTestId('block-6').boundingBox())!;
  // Relative to another block, so the view's own fit does not matter.
  const ratio = welcomeAfter.width / welcome.width;
  expect((movedAfter.x - welcomeAfter.x) / ratio).toBeCloseTo(moved.x - welcome.x, -1);
  expect((movedAfter.y - welcomeAfter.y) / ratio).toBeCloseTo(moved.y - welcome.y, -1);

  // Select two blocks (Ctrl+click) and copy them.
  await openBlock(page, 2);
  await page.getByTestId('block-3').click({ modifiers: ['Control'] });
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(2);
  await page.keyboard.press('Control+c');

  // Paste into a new, empty project: new ids there, the arrow between them kept.
  await page.goto('/projects');
  await page.getByLabel('Name').fill('Second bot');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Second bot');
  await expect(page.getByTestId('canvas').locator('.react-flow__node')).toHaveCount(0);
  // Near the top, beside the empty canvas's offer in the middle.
  await page
    .getByTestId('canvas')
    .locator('.react-flow__pane')
    .click({ position: { x: 300, y: 60 } });
  await page.keyboard.press('Control+v');
  await expect(page.getByTestId('block-1')).toContainText('Prices');
  await expect(page.getByTestId('block-2')).toContainText('Ask for e-mail');
  await expect(page.getByTestId('arrow-1')).toContainText('Yes');
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('block-1')).toContainText('Prices');
  const panel = await openBlock(page, 1);
  await expect
    .poll(() => monacoText(panel.getByTestId('formula-editor')))
    .toContain('price = round(base * 1.2, 2)');
});
