import { expect, test } from '@playwright/test';
import { chooseBotFile, connect, importBot, pressOn, saved, settled, signUp } from './helpers';

// Room for the canvas, the block editor and the simulator side by side.
test.use({ viewport: { width: 1600, height: 1000 } });

test('designs on the canvas: add, edit, connect, undo/redo, copy/paste, search, autosave, import errors', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, `canvas-${Date.now()}@example.com`);
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await saved(page);

  // Add a state block from the palette: it gets the next id and opens in the block editor.
  await page.getByRole('button', { name: 'Add state block' }).click();
  const block10 = page.getByTestId('block-10');
  await expect(block10).toBeVisible();
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByRole('heading')).toContainText('#10');
  await editor.getByLabel('Name', { exact: true }).fill('Shipping');
  await editor.getByLabel('Text', { exact: true }).fill('Ships in #{days} days');
  await expect(block10).toContainText('Shipping');
  await expect(block10).toContainText('Ships in #{days} days');
  await expect(editor.getByTestId('text-preview').locator('mark')).toHaveText('#{days}');

  // An invalid edit shows the field's error and is not applied.
  await editor.getByRole('button', { name: 'Add attachment' }).click();
  await expect(editor.getByText('attachment url is empty')).toBeVisible();
  await editor.getByLabel('Attachment 1 URL').fill('https://example.com/map.png');
  await expect(editor.getByText('attachment url is empty')).toHaveCount(0);
  await saved(page);

  // Connect the new block to "Prices": a new unconditional arrow, selected in the arrow editor.
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await page.waitForTimeout(400);
  await connect(page, 10, 2);
  const arrowEditor = page.getByRole('complementary', { name: 'Arrow editor' });
  await expect(arrowEditor.getByRole('heading')).toContainText('#8');
  await expect(page.getByTestId('arrow-8')).toContainText('any reply');
  await arrowEditor.getByLabel('Arrow kind').selectOption('condition');
  await arrowEditor.getByLabel('Alternatives').fill('ship;delivery');
  await expect(page.getByTestId('arrow-8')).toContainText('ship | delivery');
  await arrowEditor.getByLabel('Match mode').selectOption('regex');
  await arrowEditor.getByLabel('Alternatives').fill('ship(');
  await expect(arrowEditor.getByRole('alert').first()).toBeVisible();
  await expect(page.getByTestId('arrow-8')).toContainText('ship | delivery');
  await arrowEditor.getByLabel('Alternatives').fill('ship');
  await expect(page.getByTestId('arrow-8')).toContainText('ship');

  // Undo and redo, from the toolbar and the keyboard.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByTestId('arrow-8')).toContainText('ship | delivery');
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByTestId('arrow-8')).not.toContainText('delivery');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('arrow-8')).toContainText('delivery');
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(page.getByTestId('arrow-8')).not.toContainText('delivery');

  // Clicking an arrow's label selects it.
  await page.getByTestId('arrow-1').click();
  await expect(arrowEditor.getByRole('heading')).toContainText('#1');
  await expect(arrowEditor.getByLabel('Show as a button')).toBeChecked();

  // Copy and paste the block: new ids above the highest; duplicate gets the next one.
  await block10.click();
  await expect(editor.getByRole('heading')).toContainText('#10');
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(page.getByTestId('block-11')).toContainText('Shipping');
  await expect(editor.getByRole('heading')).toContainText('#11');
  await page.keyboard.press('Control+d');
  await expect(page.getByTestId('block-12')).toContainText('Shipping');
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('block-12')).toHaveCount(0);
  // A deleted block's id is never given again.
  await page.getByRole('button', { name: 'Add note block' }).click();
  await expect(page.getByTestId('block-13')).toBeVisible();

  // Search by id and jump: the block is centred and selected.
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await page.getByLabel('Search blocks').fill('4');
  await expect(page.getByRole('listbox').getByRole('option').first()).toContainText('Order placed');
  await page.getByLabel('Search blocks').press('Enter');
  await expect(editor.getByRole('heading')).toContainText('#4');
  await expect(editor.getByLabel('Name', { exact: true })).toHaveValue('Order placed');
  await page.getByLabel('Search blocks').fill('Shipp');
  await page.getByRole('listbox').getByRole('option', { name: /#10/ }).click();
  await expect(editor.getByRole('heading')).toContainText('#10');

  // Everything was saved: a reload shows it.
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('block-10')).toContainText('Shipping');
  await expect(page.getByTestId('block-11')).toContainText('Shipping');
  await expect(page.getByTestId('block-12')).toHaveCount(0);
  await expect(page.getByTestId('arrow-8')).toContainText('ship');
  await expect(page.getByTestId('block-13')).toHaveAttribute('data-kind', 'comment');

  // Importing an invalid file names the field; the canvas is unchanged.
  const bad = {
    format: 'blockbot/schema@1',
    blocks: [{ id: 1, kind: 'start' }],
    arrows: [{ id: 1, from: 1, to: 9, kind: 'unconditional' }],
  };
  await chooseBotFile(page, 'bad.json', bad);
  await expect(page.getByTestId('canvas').getByRole('alert')).toContainText('arrows[0].to');
  await expect(page.getByTestId('block-10')).toBeVisible();
});

test('a change made in another tab shows here without a reload, and an edit here keeps it', async ({
  page,
  context,
}) => {
  await signUp(page, `two-tabs-${Date.now()}@example.com`);
  await saved(page);
  const other = await context.newPage();
  await other.goto(page.url());
  await other.getByRole('button', { name: 'Add close deal block' }).click();
  await other.getByLabel('Name', { exact: true }).fill('From the other tab');
  await expect(other.getByTestId('save-state')).toHaveText('Saved');
  await expect(page.getByTestId('block-10')).toContainText('From the other tab');

  // Added here after it: the next id, and both tabs end with both blocks, saved.
  await page.getByRole('button', { name: 'Add state block' }).click();
  await expect(page.getByTestId('block-11')).toBeVisible();
  await saved(page);
  await expect(other.getByTestId('block-11')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('block-10')).toContainText('From the other tab');
  await expect(page.getByTestId('block-11')).toBeVisible();
});

test('the canvas comes back with the latest bot after another tab of the project and Back', async ({
  page,
}) => {
  await signUp(page, `back-${Date.now()}@example.com`);
  await saved(page);
  await page.getByRole('button', { name: 'Add state block' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Added before leaving');
  await saved(page);

  // The page the browser keeps for Back was streamed with the bot as it was before the edit.
  await page.getByRole('link', { name: 'Clients' }).click();
  await expect(page).toHaveURL(/\/clients$/);
  await page.goBack();
  await expect(page.getByTestId('block-10')).toContainText('Added before leaving');
  await page.getByRole('button', { name: 'Add state block' }).click();
  await expect(page.getByTestId('block-11')).toBeVisible();
  await saved(page);
});

test('an arrow dragged into empty space creates a block there; notes resize; both are saved', async ({
  page,
}) => {
  await signUp(page, `drag-${Date.now()}@example.com`);
  await saved(page);
  const handle = await pressOn(page, page.getByTestId('block-6').locator('.react-flow__handle.source'));
  await page.mouse.move(handle.x + 150, handle.y + 200, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByTestId('block-10')).toBeVisible();
  // Out of "Restart" (a start block without buttons) a new arrow continues at once.
  await expect(page.getByTestId('arrow-8')).toContainText('continue');
  await expect(page.getByRole('complementary', { name: 'Block editor' }).getByRole('heading')).toContainText(
    '#10',
  );

  // The note resizes from its bottom-left corner.
  await page.getByTestId('block-7').click();
  // Opening it in the editor may pan the canvas to keep it in sight: measure once that is over.
  await settled(page.getByTestId('block-7'));
  const before = (await page.getByTestId('block-7').boundingBox())!;
  const corner = await pressOn(page, page.locator('.react-flow__resize-control.handle.bottom.left'));
  await page.mouse.move(corner.x - 80, corner.y + 60, { steps: 10 });
  await page.mouse.up();
  // The last resize frame may still be on its way to the screen: wait for the width, then read it.
  await expect
    .poll(async () => (await page.getByTestId('block-7').boundingBox())!.width)
    .toBeGreaterThan(before.width + 40);
  const after = await settled(page.getByTestId('block-7'));
  await saved(page);

  await page.reload();
  await expect(page.getByTestId('block-10')).toBeVisible();
  await expect(page.getByTestId('arrow-8')).toBeVisible();
  const reloaded = (await page.getByTestId('block-7').boundingBox())!;
  expect(reloaded.width / reloaded.height).toBeCloseTo(after.width / after.height, 1);
});

test('the minimap draws the blocks in their kinds’ colours, pans the canvas when dragged, follows a dragged block, and hides', async ({
  page,
}) => {
  await signUp(page, `minimap-${Date.now()}@example.com`);
  await saved(page);
  const minimap = page.getByRole('img', { name: 'Minimap' });
  // The demo bot's start blocks, in the start colour (#34d399).
  const fills = () =>
    minimap
      .locator('.react-flow__minimap-node')
      .evaluateAll((paths) => paths.map((p) => getComputedStyle(p).fill));
  await expect.poll(fills).toContain('rgb(52, 211, 153)');

  // A dragged block stays on the minimap while it moves (drawn apart from the still ones).
  const drawnBlocks = () =>
    page
      .locator('.react-flow__minimap .react-flow__minimap-node')
      .evaluateAll((paths) =>
        paths.reduce((n, p) => n + (p.getAttribute('d')?.split('M').length ?? 1) - 1, 0),
      );
  const blocks = await page.locator('.react-flow__node').count();
  await expect.poll(drawnBlocks).toBe(blocks);
  const grip = await pressOn(page, page.getByTestId('block-1'));
  await page.mouse.move(grip.x + 40, grip.y + 30, { steps: 5 });
  await expect(page.locator('.react-flow__node.dragging')).toHaveCount(1);
  await expect.poll(drawnBlocks).toBe(blocks);
  await page.mouse.up();
  await expect(page.locator('.react-flow__node.dragging')).toHaveCount(0);
  await expect.poll(drawnBlocks).toBe(blocks);

  // The selected block's arrows are ready on layers of their own for the next drag; others are not.
  const layered = (label: string) =>
    page
      .getByTestId('canvas')
      .locator('[data-testid^="arrow-"]', { hasText: label })
      .evaluate((el) => {
        const id = `a${el.getAttribute('data-testid')?.slice('arrow-'.length)}`;
        const svg = document.querySelector(`.react-flow__edges > svg:has(> [data-id="${id}"])`);
        return svg ? getComputedStyle(svg).willChange : 'no arrow';
      });
  const blockOne = page.locator('.react-flow__node', { has: page.getByTestId('block-1') });
  await expect(blockOne).toHaveClass(/selected/);
  await expect.poll(() => layered('Prices | price | cost')).toBe('transform');
  await expect.poll(() => layered('Yes | yes please')).toBe('auto');
  await page.keyboard.press('Escape');
  await page.getByTestId('canvas').click({ position: { x: 20, y: 20 } });
  await expect(blockOne).not.toHaveClass(/selected/);
  await expect.poll(() => layered('Prices | price | cost')).toBe('auto');

  const transform = () =>
    page.locator('.react-flow__viewport').evaluate((el) => getComputedStyle(el).transform);
  const before = await transform();
  const from = await pressOn(page, minimap);
  await page.mouse.move(from.x + 30, from.y + 20, { steps: 5 });
  await page.mouse.up();
  await expect.poll(transform).not.toBe(before);

  await page.getByRole('button', { name: 'Hide the minimap' }).click();
  await expect(minimap).toHaveCount(0);
});

test('without a mouse: the simulator’s block is named and found, handles say what they do, arrows are drawn from the editor', async ({
  page,
}) => {
  await signUp(page, `keyboard-${Date.now()}@example.com`);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Hello',
        text: 'Pick one',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
        buttons: [{ type: 'reply', text: 'Red' }],
      },
      { id: 2, kind: 'state', name: 'Red room', text: 'All red', position: { x: 400, y: 0 } },
      { id: 3, kind: 'state', name: 'Help', text: 'How can I help?', position: { x: 400, y: 250 } },
    ],
    arrows: [],
  };
  await importBot(page, 'keys.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Hello');
  await saved(page);

  // Handles have names.
  await expect(page.getByLabel('Arrow from block #1 Hello')).toHaveCount(1);
  await expect(page.getByLabel('Arrows into block #2 Red room')).toHaveCount(1);
  await expect(page.getByRole('group', { name: 'Start block #1: Hello' })).toBeVisible();

  // The simulator's block is marked for assistive technology, and can be shown from the simulator.
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('block-1')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('block-2')).not.toHaveAttribute('aria-current', 'step');
  await page.getByRole('button', { name: 'block #1' }).click();
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByRole('heading')).toContainText('#1');

  // The button's arrow, chosen from a list: pressing the button now follows it.
  await editor.getByLabel('Button “Red” leads to').selectOption({ label: '#2 Red room' });
  const arrowEditor = page.getByRole('complementary', { name: 'Arrow editor' });
  await expect(arrowEditor).toContainText('From #1 Hello to #2 Red room');
  await expect(arrowEditor.getByLabel('Alternatives')).toHaveValue('Red');
  await saved(page);
  // And an arrow from the block itself.
  await page.getByTestId('block-1').click();
  await editor.getByLabel('New arrow to').selectOption({ label: '#3 Help' });
  await expect(arrowEditor).toContainText('From #1 Hello to #3 Help');
  await saved(page);
  await page.getByTestId('sim-out').last().waitFor();
  await page.getByRole('button', { name: 'Red', exact: true }).last().click();
  await expect(page.getByTestId('sim-out').last()).toHaveText('All red');
});

test('an arrow back to an earlier block goes around the blocks, its label clear of them and of the forward one', async ({
  page,
}) => {
  await signUp(page, `back-${Date.now()}@example.com`);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Ask',
        text: 'Yes or no?',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
      },
      { id: 2, kind: 'state', name: 'Answer', text: 'Noted', position: { x: 340, y: 30 } },
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'yes' } },
      { id: 2, from: 2, to: 1, kind: 'condition', condition: { alternatives: 'again' } },
    ],
  };
  await importBot(page, 'back.json', bot);
  await saved(page);
  await expect(page.getByTestId('arrow-2')).toContainText('again');
  const forward = await settled(page.getByTestId('arrow-1'));
  const back = await settled(page.getByTestId('arrow-2'));
  const blocks = [await settled(page.getByTestId('block-1')), await settled(page.getByTestId('block-2'))];
  const overlap = (a: typeof back, b: typeof back) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap(back, forward)).toBe(false);
  for (const block of blocks) expect(overlap(back, block)).toBe(false);
});
