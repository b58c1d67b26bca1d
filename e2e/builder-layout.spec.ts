import { expect, type Locator, type Page, test } from '@playwright/test';
import { importBot, pressOn, saved, settled, signUp } from './helpers';

// A common laptop: the palette, the canvas, the block editor and the simulator share 1440 px.
test.use({ viewport: { width: 1440, height: 900 } });

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not visible');
  return box;
}

/** The blocks' boxes in the canvas's own coordinates (whatever the zoom), by id. */
const flowBoxes = (page: Page): Promise<Record<string, Box>> =>
  page.locator('.react-flow__node').evaluateAll((els) =>
    Object.fromEntries(
      els.map((el) => {
        const node = el as HTMLElement;
        const [x, y] = (node.style.transform.match(/-?[\d.]+/g) ?? []).map(Number);
        return [node.dataset.id, { x, y, width: node.offsetWidth, height: node.offsetHeight }];
      }),
    ),
  );

const state = (id: number, name: string, x: number, y: number) => ({
  id,
  kind: 'state',
  name,
  text: `The ${name.toLowerCase()} step`,
  position: { x, y },
});
const arrow = (id: number, from: number, to: number, alternatives: string) => ({
  id,
  from,
  to,
  kind: 'condition',
  condition: { alternatives },
});

test('the block editor and the simulator collapse and resize, and stay so after a reload', async ({
  page,
}) => {
  await signUp(page, `panels-${Date.now()}@example.com`);
  await saved(page);
  const canvas = page.locator('.react-flow');
  await page.getByTestId('block-2').click();
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor).toBeVisible();
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  await expect(simulator).toBeVisible();
  const roomBefore = (await boxOf(canvas)).width;

  // The block editor's handle dragged right narrows it; the simulator's, by the keyboard.
  const editorHandle = page.getByRole('separator', { name: 'Resize the block editor' });
  await expect(editorHandle).toHaveAttribute('aria-valuenow', '320');
  const grip = await boxOf(editorHandle);
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height * 0.75);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2 + 40, grip.y + grip.height * 0.75, { steps: 4 });
  await page.mouse.up();
  await expect(editorHandle).toHaveAttribute('aria-valuenow', '280');
  await expect.poll(async () => Math.round((await boxOf(editor)).width)).toBe(280);
  const simulatorHandle = page.getByRole('separator', { name: 'Resize the simulator' });
  await simulatorHandle.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect(simulatorHandle).toHaveAttribute('aria-valuenow', String(384 - 64));
  await expect.poll(async () => Math.round((await boxOf(simulator)).width)).toBe(320);
  expect((await boxOf(canvas)).width).toBeGreaterThan(roomBefore + 100);

  // Collapsed: the editor leaves a rail that opens it again; the simulator its own rail.
  await page.getByRole('button', { name: 'Hide the block editor' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show the block editor' })).toBeVisible();
  await page.getByRole('button', { name: 'Hide simulator' }).click();
  await expect(simulator).toBeHidden();
  await expect.poll(async () => (await boxOf(canvas)).width).toBeGreaterThan(1200);

  // The next visit in this browser opens them as they were left.
  await page.reload();
  await expect(page.getByTestId('block-2')).toBeVisible();
  await expect(simulator).toBeHidden();
  await page.getByTestId('block-2').click();
  await expect(page.getByRole('button', { name: 'Show the block editor' })).toBeVisible();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: 'Show the block editor' }).click();
  await expect(editor).toBeVisible();
  await expect(editorHandle).toHaveAttribute('aria-valuenow', '280');
  await page.getByRole('button', { name: 'Show simulator' }).click();
  await expect(simulator).toBeVisible();
  await expect(simulatorHandle).toHaveAttribute('aria-valuenow', '320');
});

test('on a phone the editor and the simulator each close, giving the canvas back', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, `panels-phone-${Date.now()}@example.com`);
  await saved(page);
  const canvas = page.locator('.react-flow');
  const tall = (await boxOf(canvas)).height;
  await page.getByTestId('block-1').click();
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor).toBeVisible();
  await expect.poll(async () => (await boxOf(canvas)).height).toBeLessThan(tall - 200);
  const hide = page.getByRole('button', { name: 'Hide the block editor' });
  const hideBox = await boxOf(hide);
  expect(hideBox.x + hideBox.width).toBeLessThanOrEqual(390);
  await hide.click();
  await expect(editor).toBeHidden();
  await expect.poll(async () => (await boxOf(canvas)).height).toBeGreaterThan(tall - 60);

  // The simulator lies over the canvas, its rail (with the way to close it) still on screen.
  await page.getByRole('button', { name: 'Show simulator' }).click();
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  await expect(simulator).toBeVisible();
  const close = page.getByRole('button', { name: 'Hide simulator' });
  const closeBox = await boxOf(close);
  expect(closeBox.x).toBeGreaterThanOrEqual(0);
  expect((await boxOf(simulator)).x).toBeGreaterThanOrEqual(closeBox.x + closeBox.width - 1);
  await close.click();
  await expect(simulator).toBeHidden();
});

test('an arrow dragged from a block by the canvas’s edge and let go over the simulator still makes its block', async ({
  page,
}) => {
  await signUp(page, `edge-${Date.now()}@example.com`);
  await importBot(page, 'edge.json', {
    format: 'blockbot/schema@1',
    blocks: [state(1, 'Ask', 0, 0)],
    arrows: [],
  });
  await saved(page);
  // Pan the canvas until the block's handle is 15 px from the canvas's right edge.
  const pane = await boxOf(page.locator('.react-flow'));
  const handle = page.getByTestId('block-1').locator('.react-flow__handle.source').first();
  const at = await boxOf(handle);
  const shift = pane.x + pane.width - 15 - (at.x + at.width / 2);
  await page.mouse.move(pane.x + 60, pane.y + 60);
  await page.mouse.down();
  await page.mouse.move(pane.x + 60 + shift, pane.y + 60, { steps: 6 });
  await page.mouse.up();
  await settled(handle);

  // Out past the canvas, over the simulator beside it.
  const start = await pressOn(page, handle);
  const simulator = await boxOf(page.getByRole('complementary', { name: 'Simulator' }));
  await page.mouse.move(simulator.x + 120, start.y + 30, { steps: 8 });
  await page.mouse.up();

  await expect(page.locator('.react-flow__node')).toHaveCount(2);
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  const [source, added] = Object.values(await flowBoxes(page));
  expect(added.x).toBeGreaterThanOrEqual(source.x + source.width);
  expect(added.x).toBeLessThan(source.x + source.width + 100);
  expect(added.y).toBe(source.y);
  // Selected, it opens in the block editor and is panned into sight.
  await expect(page.getByRole('complementary', { name: 'Block editor' })).toBeVisible();
});

test('new blocks from an arrow or a duplicate land right of the block they come from, on free space', async ({
  page,
}) => {
  await signUp(page, `right-${Date.now()}@example.com`);
  await importBot(page, 'right.json', {
    format: 'blockbot/schema@1',
    blocks: [state(1, 'Ask', 0, 0), state(2, 'Below', 0, 160)],
    arrows: [],
  });
  await saved(page);
  // An arrow dropped left of its block, right by its handle: the block still goes to its right.
  const start = await pressOn(
    page,
    page.getByTestId('block-1').locator('.react-flow__handle.source').first(),
  );
  const source = await boxOf(page.getByTestId('block-1'));
  await page.mouse.move(start.x - source.width - 60, start.y + 10, { steps: 8 });
  await page.mouse.up();
  const nodes = page.locator('.react-flow__node');
  await expect(nodes).toHaveCount(3);
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor).toBeVisible();
  const added = (await editor.getByRole('heading').textContent())?.match(/#(\d+)/)?.[1] ?? '';

  // A duplicate of the new block goes right of it too.
  await page.keyboard.press('Control+d');
  await expect(nodes).toHaveCount(4);
  await expect(editor.getByRole('heading')).not.toContainText(`#${added}`);
  const copy = (await editor.getByRole('heading').textContent())?.match(/#(\d+)/)?.[1] ?? '';
  await saved(page);
  const boxes = await flowBoxes(page);
  expect(boxes[added].x).toBeGreaterThanOrEqual(boxes[1].x + boxes[1].width);
  expect(boxes[copy].x).toBeGreaterThanOrEqual(boxes[added].x + boxes[added].width);
  const ids = Object.keys(boxes);
  for (const a of ids)
    for (const b of ids) if (a < b) expect(overlap(boxes[a], boxes[b]), `${a} on ${b}`).toBe(false);
});

test('Arrange lays the bot out left to right, labels clear of blocks, as one undo step that is saved', async ({
  page,
}) => {
  await signUp(page, `arrange-${Date.now()}@example.com`);
  // Piled up: every block near the same spot, arrows every way.
  await importBot(page, 'pile.json', {
    format: 'blockbot/schema@1',
    blocks: [
      { ...state(1, 'Hello', 300, 200), kind: 'start', trigger: { alternatives: '' } },
      state(2, 'Menu', 310, 210),
      state(3, 'Prices', 320, 220),
      state(4, 'Delivery', 0, 0),
      state(5, 'Thanks', 330, 230),
    ],
    arrows: [
      arrow(1, 1, 2, 'menu'),
      arrow(2, 2, 3, 'prices;how much'),
      arrow(3, 2, 4, 'delivery'),
      arrow(4, 3, 5, 'buy'),
      arrow(5, 4, 5, 'order'),
      arrow(6, 5, 2, 'again'),
    ],
  });
  await saved(page);
  const piled = await flowBoxes(page);

  await page.getByRole('button', { name: 'Arrange' }).click();
  await expect.poll(async () => (await flowBoxes(page))[2].x).not.toBe(piled[2].x);
  await saved(page);
  const arranged = await flowBoxes(page);
  const ids = Object.keys(arranged);
  for (const a of ids)
    for (const b of ids) if (a < b) expect(overlap(arranged[a], arranged[b]), `${a} on ${b}`).toBe(false);
  // Left to right along the arrows (6 goes back, closing the loop).
  for (const [from, to] of [
    [1, 2],
    [2, 3],
    [2, 4],
    [3, 5],
    [4, 5],
  ])
    expect(arranged[to].x, `${from} → ${to}`).toBeGreaterThan(arranged[from].x + arranged[from].width);
  // No label under or over a block.
  const blocks = await Promise.all(ids.map((id) => settled(page.getByTestId(`block-${id}`))));
  for (const id of [1, 2, 3, 4, 5]) {
    const label = await boxOf(page.getByTestId(`arrow-${id}`));
    for (const block of blocks) expect(overlap(label, block), `label of arrow ${id}`).toBe(false);
  }

  // One Undo puts every block back; Redo arranges it again.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(async () => (await flowBoxes(page))[2].x).toBe(piled[2].x);
  const undone = await flowBoxes(page);
  for (const id of ids)
    expect({ x: undone[id].x, y: undone[id].y }).toEqual({ x: piled[id].x, y: piled[id].y });
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect.poll(async () => (await flowBoxes(page))[2].x).toBe(arranged[2].x);
  await saved(page);

  // Saved: a reload shows the arranged bot.
  await page.reload();
  await expect(page.getByTestId('block-5')).toBeVisible();
  await expect.poll(() => flowBoxes(page)).toEqual(arranged);
});

test('an arrow’s label is drawn over a block that lies on it, never hidden under it', async ({ page }) => {
  await signUp(page, `label-${Date.now()}@example.com`);
  await importBot(page, 'label.json', {
    format: 'blockbot/schema@1',
    blocks: [state(1, 'Ask', 0, 0), state(2, 'Answer', 800, 0), state(3, 'In the way', 400, -20)],
    arrows: [arrow(1, 1, 2, 'yes')],
  });
  await saved(page);
  const label = page.getByTestId('arrow-1');
  const box = await settled(label);
  expect(overlap(box, await boxOf(page.getByTestId('block-3')))).toBe(true);
  const onTop = await label.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && el.contains(hit);
  });
  expect(onTop).toBe(true);
});
