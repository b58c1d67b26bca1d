import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test('the simulator previews each bot message as the tg messenger shows it', async ({ page }) => {
  await signUp(page, `tg-preview-${Date.now()}@example.com`);
  const bot = {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Welcome',
        text: 'Welcome to the shop',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
        buttons: [
          { type: 'reply', text: 'Menu', line: 0, index_in_line: 0 },
          { type: 'reply', text: 'Help', line: 0, index_in_line: 1 },
        ],
      },
      {
        id: 2,
        kind: 'state',
        name: 'Menu',
        text: '<b>Our menu</b> today',
        position: { x: 400, y: 0 },
        attachments: [{ type: 'image', url: 'https://example.com/menu.png' }],
        buttons: [
          { type: 'inline', text: 'Order', line: 0 },
          { type: 'inline', text: 'Website', url: 'https://example.com/shop', line: 1 },
        ],
      },
      {
        id: 3,
        kind: 'state',
        name: 'Help',
        text: 'How can we help?',
        position: { x: 400, y: 300 },
        buttons: { hint: 'Reply with a number', buttons: [{ text: 'Delivery' }, { text: 'Returns' }] },
      },
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'Menu' } },
      { id: 2, from: 1, to: 3, kind: 'condition', condition: { alternatives: 'Help' } },
      { id: 3, from: 2, to: 3, kind: 'condition', condition: { alternatives: 'Order' } },
    ],
  };
  // A new project starts with an example bot: the file replaces it.
  await importBot(page, 'shop.json', bot);
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await saved(page);

  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  const preview = simulator.getByRole('switch', { name: 'Preview as: tg messenger' });
  await preview.check();
  await simulator.getByLabel('Message to the bot').fill('hi');
  await simulator.getByRole('button', { name: 'Send' }).click();

  // Reply buttons: a keyboard under the input, in their line order.
  await expect(simulator.getByTestId('tg-out').last()).toHaveText('Welcome to the shop');
  const replyKeyboard = simulator.getByRole('group', { name: 'Reply keyboard' });
  await expect(replyKeyboard.getByRole('button')).toHaveText(['Menu', 'Help']);
  await replyKeyboard.getByRole('button', { name: 'Menu' }).click();

  // One photo with the text as its caption, shown as text (no markup), and the inline keyboard
  // under the message with its URL button as a link.
  const menu = simulator.getByTestId('tg-out').last();
  await expect(menu).toContainText('<b>Our menu</b> today');
  await expect(menu.getByRole('link', { name: 'Photo: https://example.com/menu.png' })).toBeVisible();
  const inline = menu.getByRole('group', { name: 'Inline keyboard' });
  await expect(inline.getByRole('button', { name: 'Order' })).toBeVisible();
  await expect(inline.getByRole('link', { name: /Website/ })).toHaveAttribute(
    'href',
    'https://example.com/shop',
  );
  // The reply keyboard stays, as the messenger keeps it.
  await expect(replyKeyboard).toBeVisible();
  await page.screenshot({ path: 'test-results/simulator-tg-preview.png' });

  // The hint variant is numbered text with no keyboard of its own.
  await inline.getByRole('button', { name: 'Order' }).click();
  await expect(simulator.getByTestId('tg-out').last()).toHaveText(
    'How can we help?\n\nReply with a number\n1. Delivery\n2. Returns',
    { useInnerText: true },
  );

  // Off again: the simulator's own rendering is back, with no messenger keyboard.
  await preview.uncheck();
  await expect(simulator.getByTestId('tg-out')).toHaveCount(0);
  await expect(simulator.getByTestId('sim-out').last()).toContainText('How can we help?');
  await expect(replyKeyboard).toHaveCount(0);
});
