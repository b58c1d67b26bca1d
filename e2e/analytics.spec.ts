import { expect, type Page, test } from '@playwright/test';
import { saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

/**
 * Analytics on the canvas (docs/analytics.md): clients who talk to the published demo bot
 * through the public API are counted by block and arrow, drawn on the canvas while the panel is
 * open, and a funnel between two blocks gives the share who went on.
 */
test('draws clients per block and arrow on the canvas, and a funnel between blocks', async ({
  page,
  baseURL,
}) => {
  await signUp(page, `analytics-${Date.now()}@example.com`);
  const projectUrl = page.url();
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('Traffic');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  const api = async (action: string, data: object) => {
    const response = await page.request.post(`${baseURL}/api/${key}/${action}`, { data });
    expect(response.ok(), await response.text()).toBe(true);
    return response.json();
  };
  // Two callers of the telephony line (client type 13): the bot runs for them as for a message.
  const { clients } = await api('load_clients', {
    clients: [
      { platform_id: '+33100000001', group_id: '', client_type: 13, name: 'Ann' },
      { platform_id: '+33100000002', group_id: '', client_type: 13, name: 'Bob' },
    ],
  });
  const [ann, bob] = clients.map((c: { client_id: number }) => String(c.client_id));
  await api('callback', { client_id: ann, message: 'hi' });
  await api('callback', { client_id: ann, message: 'Prices' });
  await api('callback', { client_id: bob, message: 'hi' });

  await page.goto(projectUrl);
  await expect(page.getByTestId('block-1')).toBeVisible();
  // No figures until the panel is open.
  await expect(page.getByTestId('figures-1')).toHaveCount(0);
  await page.getByRole('button', { name: 'Analytics' }).click();
  const panel = page.getByRole('region', { name: 'Analytics' });
  await expect(panel.getByTestId('analytics-summary')).toContainText('Version 1');
  await expect(page.getByTestId('figures-1')).toContainText('2 clients');
  await expect(page.getByTestId('figures-2')).toContainText('1 client');
  await expect(page.getByTestId('arrow-figures-1')).toHaveText('1');
  await expect(page.getByTestId('figures-3')).toContainText('0 clients');

  // A funnel from the welcome to the prices: half went on.
  const add = panel.getByLabel('Add a funnel step');
  await add.selectOption({ label: '#1 Welcome' });
  await add.selectOption({ label: '#2 Prices' });
  const funnel = panel.getByTestId('funnel');
  await expect(funnel.getByRole('listitem')).toHaveText([/1\. Welcome\s*2/, /2\. Prices\s*1\s*50%/]);
  await expect(panel).toContainText('Conversion from the first step: 50%');

  // Ten years is more than the limit: said, and nothing is asked.
  await panel.getByLabel('Days').selectOption('Custom range');
  await panel.getByLabel('From').fill('2016-01-01');
  await expect(panel.getByRole('alert')).toContainText('A range is at most 366 days: pick a shorter one.');

  // Closing the panel takes the figures off the canvas.
  await panel.getByRole('button', { name: 'Close analytics' }).click();
  await expect(page.getByTestId('figures-1')).toHaveCount(0);
});

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });

/** Publishes the saved draft. */
async function publish(page: Page) {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * Test conversations (docs/analytics.md): the simulator's are left out unless asked, which the
 * panel says; each block also gives its clients over every version.
 */
test("counts the simulator's test conversations only when asked, and each block's clients in every version", async ({
  page,
}) => {
  await signUp(page, `analytics-tests-${Date.now()}@example.com`);
  // The draft is version 1 (nothing changed since it was published): its test conversation counts for it.
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  await simulator.getByLabel('Message to the bot').fill('hi');
  await simulator.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Blockbot demo');

  await page.getByRole('button', { name: 'Analytics' }).click();
  const panel = page.getByRole('region', { name: 'Analytics' });
  const tests = panel.getByLabel('Include test conversations');
  await expect(tests).not.toBeChecked();
  await expect(panel.getByTestId('analytics-tests-note')).toHaveText(
    "Off: only your clients are counted, not the simulator's test conversations.",
  );
  await expect(page.getByTestId('figures-1')).toContainText('0 clients');
  await tests.check();
  await expect(page.getByTestId('figures-1')).toContainText('1 client');
  await expect(page.getByTestId('all-versions-1')).toHaveText('All versions: 1 client');
  await expect(panel.getByTestId('analytics-summary')).toContainText('test conversations included');

  // Version 2: its own figures start at nothing; the block's total over every version stays.
  await panel.getByRole('button', { name: 'Close analytics' }).click();
  await page.getByTestId('block-3').click();
  await blockEditor(page).getByLabel('Text', { exact: true }).fill('Which e-mail gets the invoice?');
  await saved(page);
  await publish(page);
  await expect(page.getByTestId('publish-state')).toHaveText('Published · v2');
  await page.getByRole('button', { name: 'Analytics' }).click();
  await panel.getByLabel('Include test conversations').check();
  await expect(panel.getByTestId('analytics-summary')).toContainText('Version 2');
  await expect(page.getByTestId('figures-1')).toContainText('0 clients');
  await expect(page.getByTestId('all-versions-1')).toHaveText('All versions: 1 client');
});

/**
 * An older version's analytics are drawn on its own blocks (docs/analytics.md): read-only, the
 * draft untouched and not saved meanwhile, and back as it was when the panel closes.
 */
test("shows an older version's own blocks, read-only, while its analytics are open", async ({ page }) => {
  await signUp(page, `analytics-version-${Date.now()}@example.com`);
  const state = page.getByTestId('publish-state');
  // Version 2 has no reminder (block 5); the draft then renames the prices block.
  await page.getByTestId('block-5').click();
  await page.keyboard.press('Delete');
  await saved(page);
  await publish(page);
  await expect(state).toHaveText('Published · v2');
  await page.getByTestId('block-2').click();
  await blockEditor(page).getByLabel('Name', { exact: true }).fill('Draft prices');
  await saved(page);
  await expect(state).toHaveText('Unpublished changes · live: v2');

  await page.getByRole('button', { name: 'Analytics' }).click();
  const panel = page.getByRole('region', { name: 'Analytics' });
  await panel.getByLabel('Version').selectOption('1');
  const notice = page.getByTestId('version-view-notice');
  await expect(notice).toHaveText('Version 1, read-only: close Analytics to edit the draft');
  await expect(page.getByTestId('block-5')).toBeVisible();
  await expect(page.getByTestId('figures-5')).toBeVisible();
  await expect(page.getByTestId('block-2')).toContainText('Prices');
  await expect(page.getByTestId('block-2')).not.toContainText('Draft prices');
  // Read-only: no editor, no palette, no undo.
  await expect(blockEditor(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  // The published version 2 is not the draft either: its own blocks too.
  await panel.getByLabel('Version').selectOption('');
  await expect(notice).toHaveText('Version 2, read-only: close Analytics to edit the draft');
  await expect(page.getByTestId('block-5')).toHaveCount(0);
  await expect(page.getByTestId('block-2')).not.toContainText('Draft prices');

  // Closed: the draft as it was, nothing saved meanwhile, and editable with its autosave.
  await panel.getByRole('button', { name: 'Close analytics' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('block-2')).toContainText('Draft prices');
  await expect(page.getByTestId('block-5')).toHaveCount(0);
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByTestId('block-2').click();
  await blockEditor(page).getByLabel('Name', { exact: true }).fill('Prices again');
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('block-2')).toContainText('Prices again');
  // Version 1's reminder never reached the draft.
  await expect(page.getByTestId('block-2')).toBeVisible();
  await expect(page.getByTestId('block-5')).toHaveCount(0);
});
