import { expect, test } from '@playwright/test';
import { saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

/**
 * Draft and published in the builder (docs/versions.md): an edit is a draft until it is
 * published with a note; the history lists versions, rolls back to one as a new version, and
 * discarding the draft brings the canvas back to the published bot.
 */
test('publishes the draft with a note, rolls back from the history, discards the draft', async ({ page }) => {
  await signUp(page, `versions-${Date.now()}@example.com`);
  const state = page.getByTestId('publish-state');
  // A new project's demo bot is version 1, published.
  await expect(state).toHaveText('Published · v1');
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();

  // An edit: the draft differs from what clients get.
  await page.getByTestId('block-5').click();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('block-5')).toHaveCount(0);
  await saved(page);
  await expect(state).toHaveText('Unpublished changes · live: v1');

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const publish = page.getByRole('dialog', { name: 'Publish the draft' });
  await publish.getByLabel('What changed (optional)').fill('No reminder any more');
  await publish.getByRole('button', { name: 'Publish' }).click();
  await expect(publish).toHaveCount(0);
  await expect(state).toHaveText('Published · v2');

  // The history: version 2 live, with its note; roll back to version 1.
  await page.getByRole('button', { name: 'Version history' }).click();
  const history = page.getByRole('dialog', { name: 'Versions of the bot' });
  const v2 = history.locator('[data-version="2"]');
  await expect(v2).toContainText('live');
  await expect(v2).toContainText('No reminder any more');
  const v1 = history.locator('[data-version="1"]');
  await v1.getByRole('button', { name: 'Roll back to it' }).click();
  await v1.getByRole('button', { name: 'Publish it for every client' }).click();
  const v3 = history.locator('[data-version="3"]');
  await expect(v3).toContainText('live');
  await expect(v3).toContainText('the bot of version 1');
  await history.getByRole('button', { name: 'Close' }).click();

  // The draft (without block 5) is kept: it differs from the rolled-back bot.
  await expect(state).toHaveText('Unpublished changes · live: v3');
  await expect(page.getByTestId('block-5')).toHaveCount(0);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('button', { name: 'Discard the draft…' }).click();
  await page
    .getByRole('dialog', { name: 'Discard the draft?' })
    .getByRole('button', { name: 'Discard changes' })
    .click();
  await expect(page.getByTestId('block-5')).toBeVisible();
  await expect(state).toHaveText('Published · v3');
});

test('the simulator talks to the draft or to the published version, a conversation each', async ({
  page,
}) => {
  await signUp(page, `versions-sim-${Date.now()}@example.com`);
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  const talkTo = simulator.getByRole('group', { name: 'Talk to' });
  await expect(talkTo.getByRole('radio', { name: 'Draft' })).toBeChecked();
  await talkTo.getByText('Published v1').click();
  await expect(talkTo.getByRole('radio', { name: 'Published v1' })).toBeChecked();
  await simulator.getByLabel('Message to the bot').fill('hi');
  await simulator.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Blockbot demo');

  // The draft's conversation is another one: still empty; back on the published one, it is there.
  await talkTo.getByText('Draft').click();
  await expect(page.getByTestId('sim-out')).toHaveCount(0);
  await talkTo.getByText('Published v1').click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Blockbot demo');
});

/**
 * A rollback says the draft stays as it is, and can put the version on the canvas as the draft
 * too (docs/versions.md): an edit of the canvas, saved as any other and undone by Undo.
 */
test('a rollback says the draft is kept, and can put the version on the canvas as the draft', async ({
  page,
}) => {
  await signUp(page, `versions-restore-${Date.now()}@example.com`);
  const state = page.getByTestId('publish-state');
  await page.getByTestId('block-5').click();
  await page.keyboard.press('Delete');
  await saved(page);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const publish = page.getByRole('dialog', { name: 'Publish the draft' });
  await publish.getByRole('button', { name: 'Publish' }).click();
  await expect(state).toHaveText('Published · v2');

  await page.getByRole('button', { name: 'Version history' }).click();
  const history = page.getByRole('dialog', { name: 'Versions of the bot' });
  const v1 = history.locator('[data-version="1"]');
  await v1.getByRole('button', { name: 'Roll back to it' }).click();
  const confirm = v1.getByRole('group', { name: 'Roll back to version 1' });
  await expect(confirm).toContainText('The draft on the canvas stays as it is');
  const asDraft = confirm.getByLabel('Also put it on the canvas as the draft');
  await expect(asDraft).not.toBeChecked();
  await asDraft.check();
  await confirm.getByRole('button', { name: 'Publish it for every client' }).click();
  await expect(history).toHaveCount(0);

  // Version 1's bot (with the reminder) is the draft now, saved through the canvas's autosave.
  await expect(page.getByTestId('block-5')).toBeVisible();
  await saved(page);
  await expect(state).toContainText('live: v3');
  // Undo brings the draft back as it was; saved too.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('block-5')).toHaveCount(0);
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('block-5')).toHaveCount(0);
  // The draft keeps working afterwards.
  await page.getByTestId('block-2').click();
  await page
    .getByRole('complementary', { name: 'Block editor' })
    .getByLabel('Name', { exact: true })
    .fill('Our prices');
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('block-2')).toContainText('Our prices');
});
