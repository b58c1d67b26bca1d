import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

/** A menu (a state block with buttons) and an answer that works anywhere, leaving the client in the menu. */
const menuBot = {
  format: 'blockbot/schema@1',
  blocks: [
    {
      id: 1,
      kind: 'start',
      text: 'Pick one',
      trigger: { alternatives: '' },
      buttons: [
        { type: 'reply', text: 'Weather' },
        { type: 'reply', text: 'Prices' },
      ],
    },
    { id: 2, kind: 'not_state_condition', text: 'Sunny, 21 °C', trigger: { alternatives: 'Weather' } },
    { id: 3, kind: 'state', text: 'From 9 € a month' },
  ],
  arrows: [{ id: 1, from: 1, to: 3, kind: 'condition', condition: { alternatives: 'Prices' } }],
};

test("the menu's buttons stay under an answer from a block the client is not in", async ({
  page,
  context,
}) => {
  await signUp(page, `sim-buttons-${Date.now()}@example.com`);
  const projectUrl = page.url();
  await importBot(page, 'menu.json', menuBot);
  await saved(page);
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  const buttons = simulator.getByTestId('sim-buttons');
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(buttons.getByRole('button')).toHaveText(['Weather', 'Prices']);

  // The weather answer is not a state: the client is still in the menu, its buttons still there.
  await buttons.getByRole('button', { name: 'Weather' }).click();
  await expect(page.getByTestId('sim-out').last()).toHaveText('Sunny, 21 °C');
  await expect(buttons.getByRole('button')).toHaveText(['Weather', 'Prices']);
  // The operator sees in the inbox what the client can press now.
  const inbox = await context.newPage();
  await inbox.goto(`${projectUrl}/inbox`);
  await inbox.getByTestId('conversation').click();
  await expect(
    inbox.getByRole('list', { name: "The client's buttons now" }).getByRole('listitem'),
  ).toHaveText(['Weather', 'Prices']);

  // A state block without buttons takes them away.
  await buttons.getByRole('button', { name: 'Prices' }).click();
  await expect(page.getByTestId('sim-out').last()).toHaveText('From 9 € a month');
  await expect(buttons).toHaveCount(0);
});
