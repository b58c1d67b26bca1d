import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test('the simulator previews each bot message as the chat-app messenger shows it', async ({ page }) => {
  await signUp(page, `chatapp-preview-${Date.now()}@example.com`);
  const sizes = ['Small', 'Medium', 'Large', 'Family'];
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Welcome',
        text: 'Pizza today?',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
        buttons: [
          { type: 'reply', text: 'Yes' },
          { type: 'reply', text: 'No' },
        ],
      },
      {
        id: 2,
        kind: 'state',
        name: 'Size',
        text: 'Which size?',
        position: { x: 400, y: 0 },
        buttons: sizes.map((text) => ({ type: 'reply', text })),
      },
      {
        id: 3,
        kind: 'state',
        name: 'Topping',
        text: 'A topping:',
        position: { x: 800, y: 0 },
        buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'reply', text: `Topping ${i + 1}` })),
      },
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'Yes' } },
      { id: 2, from: 2, to: 3, kind: 'condition', condition: { alternatives: sizes.join(';') } },
    ],
  };
  await importBot(page, 'pizza.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await saved(page);

  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  await simulator.getByRole('switch', { name: 'Preview as: chat app' }).check();
  await simulator.getByLabel('Message to the bot').fill('hi');
  await simulator.getByRole('button', { name: 'Send' }).click();

  // Up to 3 short buttons: reply buttons under the bubble.
  const welcome = simulator.getByTestId('chatapp-out').last();
  await expect(welcome).toContainText('Pizza today?');
  const buttons = welcome.getByRole('group', { name: 'Reply buttons' });
  await expect(buttons.getByRole('button')).toHaveText(['Yes', 'No']);
  await buttons.getByRole('button', { name: 'Yes' }).click();

  // Four: a list behind its button; a row sends its text.
  const size = simulator.getByTestId('chatapp-out').last();
  await expect(size).toContainText('Which size?');
  await size.getByRole('button', { name: '☰ Choose' }).click();
  await expect(size.getByRole('group', { name: 'List' }).getByRole('button')).toHaveText(sizes);
  await page.screenshot({ path: 'test-results/simulator-chatapp-preview.png' });
  await size.getByRole('group', { name: 'List' }).getByRole('button', { name: 'Large' }).click();

  // Eleven: numbered text, nothing to press.
  const topping = simulator.getByTestId('chatapp-out').last();
  await expect(topping).toContainText('A topping:');
  await expect(topping).toContainText('11. Topping 11');
  await expect(topping.getByRole('button')).toHaveCount(0);

  // The tg preview and the chat-app one are one choice at a time.
  await simulator.getByRole('switch', { name: 'Preview as: tg messenger' }).check();
  await expect(simulator.getByRole('switch', { name: 'Preview as: chat app' })).not.toBeChecked();
  await expect(simulator.getByTestId('chatapp-out')).toHaveCount(0);
});
