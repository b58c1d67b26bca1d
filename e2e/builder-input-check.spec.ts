import { expect, type Page, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1700, height: 1000 } });

const blockEditor = (page: Page) => page.getByRole('complementary', { name: 'Block editor' });

const askBot = {
  format: 'blockbot/schema@1',
  blocks: [
    { id: 1, kind: 'start', text: 'Hello', trigger: { alternatives: '' }, position: { x: 0, y: 0 } },
    { id: 2, kind: 'state', name: 'Ask', text: 'Your e-mail, please?', position: { x: 300, y: 0 } },
    { id: 3, kind: 'state', name: 'Done', text: 'We write to #{client.email}', position: { x: 600, y: 0 } },
    { id: 4, kind: 'state', name: 'Phone', text: 'Call us instead', position: { x: 600, y: 200 } },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'continue' },
    { id: 2, from: 2, to: 3, kind: 'unconditional' },
    { id: 3, from: 2, to: 4, kind: 'unconditional' },
  ],
};

test('an input check set in the block editor: a wrong e-mail is asked again, the last wrong one exits, a right one is stored', async ({
  page,
}) => {
  await signUp(page, `input-check-${Date.now()}@example.com`);
  await importBot(page, 'ask.json', askBot);
  await saved(page);
  await page.getByTestId('block-2').click();
  const editor = blockEditor(page);
  await editor.getByLabel('The answer must be').selectOption('An e-mail address');
  await expect(editor.getByLabel('Store the answer in')).toHaveValue('client.email');
  await editor.getByLabel('Wrong answers before the exit arrow').fill('2');
  await expect(editor.getByTestId('input-exit')).toContainText('No exit arrow');
  await expect(page.getByTestId('block-2').getByTestId('block-input')).toHaveText(
    'asks an e-mail → client.email',
  );

  // Arrow #3 becomes the exit: the block editor's list opens it.
  await editor.getByRole('button', { name: /#3\s*any reply/ }).click();
  const arrowEditor = page.getByRole('complementary', { name: 'Arrow editor' });
  await arrowEditor.getByLabel('Exit after wrong answers').check();
  await expect(arrowEditor).toContainText('Followed only after 2 wrong answers');
  await saved(page);

  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toHaveText('Your e-mail, please?');
  await page.getByLabel('Message to the bot').fill('ann at example');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toHaveText(
    'That does not look like an e-mail address. Please write it like ann@example.com.',
  );
  await page.getByLabel('Message to the bot').fill('ann@example.com');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toHaveText('We write to ann@example.com');

  // A new conversation: two wrong answers lead along the exit arrow.
  await page.getByRole('button', { name: 'Reset' }).click();
  for (const wrong of ['hi', 'nope', 'still nope']) {
    await page.getByLabel('Message to the bot').fill(wrong);
    await page.getByRole('button', { name: 'Send' }).click();
  }
  await expect(page.getByTestId('sim-out').last()).toHaveText('Call us instead');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.getByTestId('log')).toContainText(
    'Wrong answer 2 to the email input of block #2: its exit arrow #3 is followed',
  );
});
