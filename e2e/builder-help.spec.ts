import { expect, test } from '@playwright/test';
import { saved, signUp } from './helpers';

// Room for the canvas, the block editor and the simulator side by side.
test.use({ viewport: { width: 1600, height: 1000 } });

test('help where it is needed: kind descriptions, the shortcuts overlay, the builder guide', async ({
  page,
  context,
}) => {
  await signUp(page, `help-${Date.now()}@example.com`);
  await saved(page);

  // The palette says what a kind does on hover.
  await page.getByRole('button', { name: 'Add quick reply block' }).hover();
  await expect(page.getByRole('tooltip')).toContainText('Answers a message that nothing else matched');
  await page.mouse.move(800, 600);
  await expect(page.getByRole('tooltip')).toHaveCount(0);

  // The block and arrow editors explain the selected kind.
  const search = page.getByRole('combobox', { name: 'Search blocks' });
  await search.fill('Reminder');
  await search.press('Enter');
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByRole('heading')).toContainText('Not a state block #5');
  await expect(editor.getByText('Sends its message but leaves the client where they were')).toBeVisible();
  await editor.getByLabel('Kind', { exact: true }).selectOption('close_deal');
  await expect(editor.getByText("the deal's collected variables are submitted")).toBeVisible();

  // `?` opens the keyboard shortcuts (not while typing); Escape closes them; so does the toolbar's button.
  await search.press('?');
  await expect(search).toHaveValue(/\?$/);
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  await search.fill('');
  await search.blur();
  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toBeVisible();
  await expect(shortcuts).toContainText('Duplicate the selection');
  // Keys in the overlay stay there: Delete does not delete the selected block behind it.
  await page.keyboard.press('Delete');
  await page.keyboard.press('Escape');
  await expect(shortcuts).toHaveCount(0);
  await expect(editor.getByRole('heading')).toContainText('#5');
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await shortcuts.getByRole('button', { name: 'Close' }).click();
  await expect(shortcuts).toHaveCount(0);

  // The builder guide opens in a new tab, rendered from docs/builder.md, its links kept in the app.
  const [guide] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: 'Builder guide' }).click(),
  ]);
  await expect(guide.getByRole('heading', { name: 'The builder', level: 1 })).toBeVisible();
  await expect(guide.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
  await guide.getByRole('link', { name: 'bot-schema.md' }).first().click();
  await expect(guide).toHaveURL(/\/docs\/bot-schema$/);
  await expect(guide.getByRole('heading', { level: 1 })).toBeVisible();
  await guide.close();
});

test('search finds formulas; the editor opens each block at its top; export and timers as expected', async ({
  page,
}) => {
  await signUp(page, `help-search-${Date.now()}@example.com`);
  await saved(page);

  // Block 1 opens in the editor, scrolled to its bottom.
  const search = page.getByRole('combobox', { name: 'Search blocks' });
  await search.fill('Welcome');
  await search.press('Enter');
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByRole('heading')).toContainText('#1');
  await editor.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect.poll(() => editor.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);

  // A formula's text finds its block, which opens at the top of the editor.
  await search.fill('round(base');
  await expect(page.getByRole('listbox').getByRole('option', { name: /#2 Prices/ })).toContainText(
    'Σ price = round(base * 1.2, 2)',
  );
  await search.press('Enter');
  await expect(editor.getByRole('heading')).toContainText('#2');
  expect(await editor.evaluate((el) => el.scrollTop)).toBe(0);

  // The export is named after the project and the day.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^my-first-bot-\d{4}-\d{2}-\d{2}\.json$/);

  // The welcome's reminder timer cancels as the client leaves the block: it is gone, and the log says why.
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  // Before the first message, the chat says who writes first and where the bot starts.
  const hint = simulator.getByRole('note').filter({ hasText: 'Write to the bot as a client would' });
  await expect(hint).toContainText('goes to the start block whose trigger it matches');
  await simulator.getByLabel('Message to the bot').fill('hello');
  await simulator.getByRole('button', { name: 'Send' }).click();
  await expect(hint).toHaveCount(0);
  const variables = simulator.getByTestId('variables');
  await expect(variables.getByRole('button', { name: 'Fire now' })).toBeVisible();
  await simulator.getByRole('button', { name: 'Prices', exact: true }).click();
  await expect(variables.getByRole('button', { name: 'Fire now' })).toHaveCount(0);
  await simulator.getByRole('tab', { name: 'Log' }).click();
  await expect(simulator.getByTestId('log')).toContainText(
    'Timer of arrow #2 cancelled: the client left block #1',
  );
});

test('an empty bot offers a start block or the shop bot template, both undoable', async ({ page }) => {
  await signUp(page, `help-empty-${Date.now()}@example.com`);
  await saved(page);
  const empty = page.getByRole('region', { name: 'This bot has no blocks yet' });
  await expect(empty).toHaveCount(0);

  // Delete the demo: the canvas offers what to do next.
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await expect(empty).toBeVisible();
  await expect(empty.getByRole('link', { name: 'How the builder works' })).toHaveAttribute(
    'href',
    '/docs/builder',
  );

  await empty.getByRole('button', { name: 'Add a start block' }).click();
  await expect(empty).toHaveCount(0);
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByRole('heading')).toContainText('Start block');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(empty).toBeVisible();

  await empty.getByRole('button', { name: 'Open the shop bot template' }).click();
  await expect(empty).toHaveCount(0);
  const canvas = page.getByTestId('canvas');
  await expect(canvas.getByText('Welcome', { exact: true })).toBeVisible();
  await expect(canvas.getByText('Order placed', { exact: true })).toBeVisible();
  await saved(page);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(empty).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the simulator opens over the canvas, whole, and talks to the bot', async ({ page }) => {
    await signUp(page, `help-phone-${Date.now()}@example.com`);
    await saved(page);
    await page.getByRole('button', { name: 'Show simulator' }).click();
    const simulator = page.getByRole('complementary', { name: 'Simulator' });
    // Nothing of the canvas's toolbar lies over the chat, and the chat fits the screen.
    await expect(simulator.getByRole('button', { name: 'Reset' })).toBeInViewport({ ratio: 1 });
    await expect(simulator.getByRole('button', { name: 'Send' })).toBeInViewport({ ratio: 1 });
    await simulator.getByLabel('Message to the bot').fill('hello');
    await simulator.getByRole('button', { name: 'Send' }).click();
    await expect(simulator.getByTestId('sim-out').first()).toContainText('Blockbot demo');
    await page.getByRole('button', { name: 'Hide simulator' }).click();
    await expect(simulator).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export JSON' })).toBeVisible();
  });
});

test('the docs have a home: the guide first, starting with getting started, the developers’ pages apart', async ({
  page,
}) => {
  const response = await page.goto('/docs');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Blockbot documentation', level: 1 })).toBeVisible();
  const sections = page.getByRole('main').getByRole('heading', { level: 2 });
  await expect(sections.first()).toHaveText('Start here');
  await expect(sections.last()).toHaveText('For developers of Blockbot');
  const developers = page.getByRole('region', { name: 'For developers of Blockbot' });
  await expect(developers.getByRole('link', { name: 'Architecture' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Build bots' }).getByRole('link', { name: 'Architecture' }),
  ).toHaveCount(0);

  await page.getByRole('main').getByRole('link', { name: 'Getting started' }).first().click();
  await expect(page).toHaveURL(/\/docs\/getting-started$/);
  await expect(page.getByRole('heading', { name: 'Getting started', level: 1 })).toBeVisible();
  // Its links stay in the app, and the bar leads back home.
  await page.getByRole('article').getByRole('link', { name: 'the builder' }).first().click();
  await expect(page).toHaveURL(/\/docs\/builder$/);
  await page
    .getByRole('navigation', { name: 'Documentation' })
    .getByRole('link', { name: 'Docs home' })
    .click();
  await expect(page).toHaveURL(/\/docs$/);
});
