import { expect, type Page, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

const bot = {
  format: 'blockbot/schema@1',
  blocks: [
    {
      id: 1,
      kind: 'start',
      name: 'Welcome',
      text: 'Welcome',
      trigger: { alternatives: '' },
      position: { x: 0, y: 0 },
    },
    { id: 2, kind: 'state', name: 'Again', text: 'The bot again', position: { x: 300, y: 0 } },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'unconditional' },
    { id: 2, from: 2, to: 2, kind: 'unconditional' },
  ],
};

/** Sends a message from the builder's simulator. */
async function simulatorSays(builder: Page, text: string) {
  await builder.getByLabel('Message to the bot').fill(text);
  await builder.getByRole('button', { name: 'Send' }).click();
}

test('answer the simulator client from the inbox, pause the bot, and watch the list update live', async ({
  page: builder,
  context,
}) => {
  await signUp(builder, `inbox-${Date.now()}@example.com`);
  const projectUrl = builder.url();
  await importBot(builder, 'inbox.json', bot);
  await expect(builder.getByTestId('block-1')).toContainText('Welcome');
  await saved(builder);

  // The operator's tab, open before anyone writes: the list fills in live.
  const inbox = await context.newPage();
  await inbox.goto(`${projectUrl}/inbox`);
  await expect(
    inbox.getByText('No conversations yet. When clients write to the bot, they show up here.'),
  ).toBeVisible();
  await simulatorSays(builder, 'hi');
  await expect(builder.getByTestId('sim-out').last()).toContainText('Welcome');
  const item = inbox.getByTestId('conversation');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Welcome');
  await expect(item).toContainText('Simulator');

  // Open it: the conversation, marked read.
  await item.click();
  const messages = inbox.getByRole('list', { name: 'Messages' });
  await expect(messages.getByRole('listitem')).toHaveCount(2);
  await expect(item).not.toContainText('unread');

  // A new message shows in the open conversation and the list without a reload.
  await simulatorSays(builder, 'second message');
  await expect(messages).toContainText('second message');
  await expect(messages.getByRole('listitem').last()).toContainText('The bot again');
  await expect(item).toContainText('The bot again');

  // The operator answers; the reply reaches the simulator client's chat.
  await inbox.getByLabel('Reply').fill('Hello from a person');
  await inbox.getByRole('button', { name: 'Send' }).click();
  await expect(messages.getByRole('listitem').last()).toContainText('Hello from a person');
  await expect(messages.getByRole('listitem').last()).toContainText('CRM');
  await expect(inbox.getByLabel('Reply')).toHaveValue('');
  await expect(builder.getByTestId('sim-out').last()).toContainText('Hello from a person');

  // Paused, the bot routes the next message nowhere: it is stored and nothing answers it.
  await inbox.getByRole('button', { name: 'Pause bot' }).click();
  await expect(inbox.getByTestId('handoff')).toContainText('Bot paused until');
  await expect(item).toContainText('Bot paused');
  await simulatorSays(builder, 'anyone there?');
  await expect(messages.getByRole('listitem').last()).toContainText('anyone there?');
  // The bot's answer would have been stored with the message: none came.
  await expect(messages.getByRole('listitem')).toHaveCount(6);
  await expect(builder.getByTestId('sim-out').last()).toContainText('Hello from a person');

  // Resumed, the bot answers again.
  await inbox.getByRole('button', { name: 'Resume bot' }).click();
  await expect(inbox.getByTestId('handoff')).toContainText('Bot active');
  await simulatorSays(builder, 'back to the bot');
  await expect(messages.getByRole('listitem').last()).toContainText('The bot again');
  await expect(builder.getByTestId('sim-out').last()).toContainText('The bot again');
});
