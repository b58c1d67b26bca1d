import { expect, type Page, test } from '@playwright/test';
import { chainBot, importBot, saved, settled, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

const PRICES_TEXT = 'The plan costs #{price} a month, tax included. Shall I place an order?';
const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });

/**
 * Sets a block's text in the block editor, saved. The canvas pans by itself (it follows the
 * simulator, and moves an opened block out from under the editor), and may start to after the
 * block stood still: a click that lands mid-pan is a drag, not a click, and selects nothing. So
 * the block is clicked (which only selects it, however often) until the editor shows it; the
 * text is typed then, never into the block shown before.
 */
async function setText(page: Page, block: number, text: string) {
  await expect(async () => {
    await settled(page.getByTestId(`block-${block}`));
    await page.getByTestId(`block-${block}`).click();
    await expect(blockEditor(page).getByRole('heading')).toContainText(`#${block}`, { timeout: 2_000 });
  }).toPass();
  await blockEditor(page).getByLabel('Text', { exact: true }).fill(text);
  await saved(page);
}

/**
 * Conversation tests in the builder (docs/conversation-tests.md, "In the builder"): a
 * conversation in the simulator saved as a test; an edit that breaks it shows as the first
 * difference, expected beside actual, with its block on the canvas; publishing refuses the
 * failing draft (or publishes it anyway with a note), and publishes once the bot is fixed.
 */
test('records a test from the simulator, sees it fail on an edit, fixes the bot and publishes', async ({
  page,
}) => {
  await signUp(page, `conversation-tests-${Date.now()}@example.com`);
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  const panel = page.getByRole('complementary', { name: 'Tests' });

  // No tests yet: the panel says how to make one.
  await page.getByRole('button', { name: 'Show tests' }).click();
  await expect(panel.getByRole('note')).toContainText('Save as test');
  await page.getByRole('button', { name: 'Show simulator' }).click();

  // A conversation: hi, then the Prices button.
  await expect(simulator.getByRole('button', { name: 'Save as test' })).toBeDisabled();
  await simulator.getByLabel('Message to the bot').fill('hi');
  await simulator.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Blockbot demo');
  await page.getByTestId('sim-buttons').getByRole('button', { name: 'Prices' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('The plan costs 120 a month');

  // Saved as a test: the Tests panel opens on its form.
  await simulator.getByRole('button', { name: 'Save as test' }).click();
  await simulator.getByLabel('Test name').fill('Asking for prices');
  await simulator.getByRole('button', { name: 'Save test' }).click();
  const form = panel.getByRole('form', { name: 'Edit test Asking for prices' });
  await expect(form).toBeVisible();
  await expect(form.getByLabel('Step 1: message')).toHaveValue('hi');
  await expect(form.getByTestId('step-2')).toBeVisible();
  await form.getByRole('button', { name: 'Save the test' }).click();
  await expect(form).toHaveCount(0);

  // It passes against the draft as it is.
  await panel.getByRole('button', { name: 'Run all' }).click();
  const item = panel.locator('[data-testid^="test-"][data-result]').first();
  await expect(item).toHaveAttribute('data-result', 'passed');
  await expect(panel.getByTestId('tests-coverage')).toContainText('% of blocks');

  // The prices block says something else now: the test fails at step 2, on that block.
  await setText(page, 2, 'The plan is free this week.');
  await panel.getByRole('button', { name: 'Run all' }).click();
  await expect(item).toHaveAttribute('data-result', 'failed');
  await expect(item.getByTestId('test-result')).toContainText('failed at step 2');
  const difference = item.getByTestId('test-difference');
  await expect(difference).toContainText('Expected');
  await expect(difference).toContainText('The plan costs 120 a month');
  await expect(difference).toContainText('The plan is free this week.');
  // Its block, selected on the canvas.
  await page.getByTestId('block-1').click();
  await difference.getByRole('button', { name: 'Show block #2' }).click();
  await expect(page.locator('.react-flow__node.selected [data-block-id="2"]')).toBeVisible();
  await expect(blockEditor(page).getByLabel('Text', { exact: true })).toHaveValue(
    'The plan is free this week.',
  );

  // Coverage on the canvas: the blocks the test passed through, the others not covered.
  await panel.getByLabel('Show coverage on the canvas').check();
  await expect(page.getByTestId('coverage-legend')).toContainText('Test coverage');
  await expect(page.getByTestId('block-1')).toHaveCSS('opacity', '1');
  await expect(page.getByTestId('block-6')).toHaveCSS('opacity', '0.45');
  await panel.getByLabel('Show coverage on the canvas').uncheck();
  await expect(page.getByTestId('coverage-legend')).toHaveCount(0);

  // Publishing runs the tests: nothing is published; publishing anyway needs a note.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog.getByTestId('failing-tests')).toContainText('Asking for prices');
  await expect(dialog.getByTestId('failing-tests')).toContainText('failed at step 2');
  await expect(dialog.getByRole('button', { name: 'Publish anyway' })).toBeDisabled();
  await dialog.getByLabel('Why publish anyway (required)').fill('Trying it');
  await expect(dialog.getByRole('button', { name: 'Publish anyway' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('publish-state')).toHaveText('Unpublished changes · live: v1');

  // Fixed (and another block reworded, so the draft differs from version 1): the test passes
  // again, and the draft is published with its tests passing.
  await setText(page, 2, PRICES_TEXT);
  await setText(page, 3, 'Which e-mail gets the invoice?');
  await panel.getByRole('button', { name: 'Run all' }).click();
  await expect(item).toHaveAttribute('data-result', 'passed');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await dialog.getByLabel('What changed (optional)').fill('Prices checked');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('publish-state')).toHaveText('Published · v2');
  await page.getByRole('button', { name: 'Version history' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Versions of the bot' }).locator('[data-version="2"]'),
  ).toContainText('1 of 1 tests passed');
});

/** A schema file's tests come with a Replace import (docs/conversation-tests.md, "Import"). */
test("imports a schema file's tests with its bot", async ({ page }) => {
  await signUp(page, `conversation-tests-import-${Date.now()}@example.com`);
  const bot = {
    ...chainBot({
      count: 2,
      columns: 2,
      spacing: { x: 320, y: 200 },
      start: { id: 1, name: 'Hello', text: 'Hello there' },
      name: (id) => `Step ${id}`,
    }),
    tests: [
      {
        id: 1,
        name: 'Says hello',
        steps: [
          {
            action: { type: 'text', text: 'hi' },
            expect: { messages: [{ text: { match: 'exact', value: 'Hello there' } }] },
          },
        ],
      },
    ],
  };
  await importBot(page, 'with-tests.json', bot);
  await saved(page);
  await page.getByRole('button', { name: 'Show tests' }).click();
  const panel = page.getByRole('complementary', { name: 'Tests' });
  await expect(panel.getByTestId('tests-list')).toContainText('Says hello');
  await panel.getByRole('button', { name: 'Run all' }).click();
  await expect(panel.locator('[data-result]').first()).toHaveAttribute('data-result', 'passed');
});
