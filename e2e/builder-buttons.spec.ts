import { expect, type Locator, type Page, test } from '@playwright/test';
import { centre, pressOn, saved, settled, signUp } from './helpers';

// Room for the canvas, the block editor and the simulator side by side.
test.use({ viewport: { width: 1700, height: 1000 } });

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });
const arrowEditor = (page: Page) => page.getByRole('complementary', { name: 'Arrow editor' });
/** A block on the canvas, by the text it shows. */
const node = (page: Page, text: string) => page.locator('.react-flow__node', { hasText: text });
/** An arrow on the canvas, by its accessible name. */
const arrow = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

async function drag(page: Page, from: Locator, to: { x: number; y: number }) {
  const start = await pressOn(page, from);
  await page.mouse.move((start.x + to.x) / 2, (start.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

test('a button’s handle makes its arrow; renaming the button renames the arrow; pressing it follows the arrow', async ({
  page,
}) => {
  await signUp(page, `buttons-${Date.now()}@example.com`);
  await page.goto('/projects');
  await page.getByLabel('Name').fill('Rooms');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Rooms');

  // A start block with one button: the button has its own handle on the block.
  await page.getByRole('button', { name: 'Add start block' }).click();
  let panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#1');
  await panel.getByLabel('Name', { exact: true }).fill('Welcome');
  await panel.getByLabel('Text', { exact: true }).fill('Pick a room');
  await panel.getByRole('button', { name: 'Add button' }).click();
  await panel.getByLabel('Button 1 text').fill('Red');
  await expect(panel.getByText('No arrow yet: drag from the button’s handle')).toBeVisible();
  const redHandle = page.getByLabel('Arrow from button Red');
  await expect(redHandle).toBeVisible();
  await saved(page);

  // Dragged from the button's handle into empty space: a new block, joined by the button's arrow.
  await page.getByRole('button', { name: 'Zoom to fit' }).click();
  await settled(node(page, 'Welcome'));
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await settled(node(page, 'Welcome'));
  const welcome = await node(page, 'Welcome').boundingBox();
  const canvas = await page.getByRole('application').boundingBox();
  if (!welcome || !canvas) throw new Error('the start block is not visible');
  // Below the block, inside the canvas (a drop outside it makes nothing).
  await drag(page, redHandle, {
    x: welcome.x + 10,
    y: Math.min(welcome.y + welcome.height + 160, canvas.y + canvas.height - 60),
  });
  panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#2');
  await panel.getByLabel('Name', { exact: true }).fill('Red room');
  await panel.getByLabel('Text', { exact: true }).fill('You are in the red room');
  await expect(arrow(page, 'Arrow 1 (condition): Red')).toBeVisible();

  // A button of the new block, dragged onto the start block: an arrow back, labelled with it.
  await panel.getByRole('button', { name: 'Add button' }).click();
  await panel.getByLabel('Button 1 text').fill('Back');
  const backHandle = page.getByLabel('Arrow from button Back');
  await expect(backHandle).toBeVisible();
  await saved(page);
  await drag(page, backHandle, await centre(node(page, 'Welcome').locator('.react-flow__handle.target')));
  await expect(arrow(page, 'Arrow 2 (condition): Back')).toBeVisible();
  let editor = arrowEditor(page);
  await expect(editor.getByRole('heading')).toContainText('#2');
  await expect(editor.getByLabel('Arrow kind')).toHaveValue('condition');
  await expect(editor.getByLabel('Alternatives')).toHaveValue('Back');
  await expect(editor.getByLabel('Match mode')).toHaveValue('exact');
  await expect(editor.getByText('Follows the button “Back” of block #2')).toBeVisible();

  // Renaming the button in the block editor renames its arrow's condition.
  await node(page, 'Welcome').click();
  panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#1');
  await panel.getByLabel('Button 1 text').fill('Crimson');
  await expect(arrow(page, 'Arrow 1 (condition): Crimson')).toBeVisible();
  await expect(node(page, 'Welcome')).toContainText('Crimson');
  // The block editor says where the button leads; the link opens its arrow.
  await panel.getByRole('button', { name: '#2 Red room', exact: true }).click();
  editor = arrowEditor(page);
  await expect(editor.getByRole('heading')).toContainText('#1');
  await expect(editor.getByLabel('Alternatives')).toHaveValue('Crimson');
  await saved(page);

  // In the simulator, pressing the button follows its arrow, and the other button's back.
  await page.getByLabel('Message to the bot').fill('hello');
  await page.getByRole('button', { name: 'Send' }).click();
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  await expect(simulator.getByText('Pick a room')).toBeVisible();
  await simulator.getByRole('button', { name: 'Crimson', exact: true }).click();
  await expect(simulator.getByText('You are in the red room')).toBeVisible();
  await simulator.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(simulator.getByText('Pick a room')).toHaveCount(2);

  // Removing the button removes its arrow too.
  await node(page, 'Red room').click();
  panel = blockEditor(page);
  await panel.getByRole('button', { name: 'Remove button 1 and its arrow' }).click();
  await expect(arrow(page, 'Arrow 2 (condition): Back')).toHaveCount(0);
  await expect(arrow(page, 'Arrow 1 (condition): Crimson')).toBeVisible();
});

test('an arrow shown as a button is one of its block’s buttons in the block editor', async ({ page }) => {
  await signUp(page, `arrow-buttons-${Date.now()}@example.com`);
  // The demo bot: the welcome block's "Prices" button is its arrow #1 shown as a button (its
  // "Not understood" block repeats the button).
  const welcome = page.getByTestId('block-1');
  await expect(welcome.getByLabel('Arrow from button Prices')).toBeVisible();
  await saved(page);
  await node(page, 'Welcome').first().click();
  const panel = blockEditor(page);
  await expect(panel.getByRole('heading')).toContainText('#1');
  const text = panel.getByLabel('Arrow #1’s button text');
  await expect(text).toHaveValue('Prices');
  await expect(panel.getByText(/to #2 Prices: its text is the arrow’s condition/)).toBeVisible();
  // Editing it edits the arrow's first alternative, keeping the others.
  await text.fill('Plans');
  await expect(arrow(page, 'Arrow 1 (condition): Plans | price | cost')).toBeVisible();
  await expect(welcome.getByLabel('Arrow from button Plans')).toBeVisible();
  await panel.getByRole('button', { name: 'arrow #1', exact: true }).click();
  await expect(arrowEditor(page).getByLabel('Alternatives')).toHaveValue('Plans;price;cost');
});

test('Add button adds an empty row at the end, not an error, and nothing above it is renumbered', async ({
  page,
}) => {
  await signUp(page, `add-button-${Date.now()}@example.com`);
  // The demo's Welcome block has one button, added by its arrow to Prices.
  await node(page, 'Welcome').click();
  const panel = blockEditor(page);
  await expect(panel.getByLabel('Arrow #1’s button text')).toHaveValue('Prices');
  await panel.getByRole('button', { name: 'Add button' }).click();
  const fresh = panel.getByLabel('Button 1 text');
  await expect(fresh).toHaveValue('');
  await expect(fresh).toBeFocused();
  // Untouched: neither an error nor a change; the arrow's button keeps its name.
  await expect(page.getByTestId('save-state')).not.toHaveAttribute('data-status', 'held-back');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await expect(panel.getByLabel('Arrow #1’s button text')).toHaveValue('Prices');
  await saved(page);

  await fresh.fill('Help');
  await saved(page);
  await expect(node(page, 'Welcome').getByText('Help')).toBeVisible();
  // Emptied again after typing: now it is an error, held back until fixed.
  await fresh.fill('');
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-status', 'held-back');
  await fresh.fill('Help me');
  await saved(page);

  // A second new row goes under the first.
  await panel.getByRole('button', { name: 'Add button' }).click();
  await expect(panel.getByLabel('Button 2 text')).toBeFocused();
  await expect(panel.getByLabel('Button 1 text')).toHaveValue('Help me');

  // Add button again while that row is still empty: no third row; it says why and goes back there.
  await panel.getByLabel('Button 1 text').focus();
  await panel.getByRole('button', { name: 'Add button' }).click();
  await expect(panel.getByRole('status')).toHaveText(
    'Button 2 is still empty: type its text before adding another.',
  );
  await expect(panel.getByLabel('Button 2 text')).toBeFocused();
  await expect(panel.getByLabel('Button 3 text')).toHaveCount(0);
  await panel.getByLabel('Button 2 text').fill('Later');
  await expect(panel.getByRole('status')).toHaveCount(0);
});

test("the block editor lists the block's arrows: each opens its arrow editor or is deleted there", async ({
  page,
}) => {
  await signUp(page, `block-arrows-${Date.now()}@example.com`);
  // The demo's Welcome block: a condition shown as a button, a timer and the "any reply" arrow.
  await node(page, 'Welcome').click();
  const panel = blockEditor(page);
  const list = panel.getByRole('list', { name: 'Arrows out of this block' });
  await expect(list.getByRole('listitem')).toHaveText([
    /#1\s*if\s*Prices \| price \| cost\s*→ #2 Prices/,
    /#2\s*timer\s*→ #5 Reminder/,
    /#6\s*any reply\s*→ #8 Not understood/,
  ]);
  await list.getByRole('button', { name: /#2\s*timer/ }).click();
  await expect(arrowEditor(page).getByRole('heading')).toContainText('#2');

  await node(page, 'Welcome').click();
  await list.getByRole('button', { name: 'Delete arrow #6' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(arrow(page, 'Arrow 6 (unconditional): any reply')).toHaveCount(0);
  await saved(page);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(arrow(page, 'Arrow 6 (unconditional): any reply')).toHaveCount(1);
});
