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
  const operator = `inbox-${Date.now()}`;
  await signUp(builder, `${operator}@example.com`);
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
  // The list names who sent the last message: the bot, not "You".
  await expect(item).toContainText('Bot: The bot again');
  await expect(messages.locator('li[data-sender="bot"]').last().getByTestId('sender')).toHaveText('Bot');

  // The operator answers; the reply reaches the simulator client's chat.
  await inbox.getByLabel('Reply').fill('Hello from a person');
  await inbox.getByRole('button', { name: 'Send' }).click();
  await expect(messages.getByRole('listitem').last()).toContainText('Hello from a person');
  // Labelled with the operator's name from the team, in the thread and in the list.
  await expect(messages.getByRole('listitem').last().getByTestId('sender')).toHaveText(operator);
  await expect(messages.getByRole('listitem').last()).toHaveAttribute('data-sender', 'operator');
  await expect(item).toContainText(`${operator}: Hello from a person`);
  await expect(inbox.getByLabel('Reply')).toHaveValue('');
  await expect(builder.getByTestId('sim-out').last()).toContainText('Hello from a person');

  // Paused, the bot routes the next message nowhere: it is stored and nothing answers it.
  await inbox.getByRole('button', { name: 'Pause bot' }).click();
  await expect(inbox.getByTestId('handoff')).toContainText('Bot paused until');
  await expect(item).toContainText('Bot paused');
  const waitingTab = inbox.getByRole('tab', { name: 'Waiting' });
  const waitingCount = waitingTab.getByTestId('waiting-count');
  await expect(waitingCount).toHaveCount(0);
  await simulatorSays(builder, 'anyone there?');
  await expect(messages.getByRole('listitem').last()).toContainText('anyone there?');
  // The bot's answer would have been stored with the message: none came.
  await expect(messages.getByRole('listitem')).toHaveCount(6);
  await expect(builder.getByTestId('sim-out').last()).toContainText('Hello from a person');

  // Paused with the client's message unanswered, the conversation waits for an operator.
  await expect(item).toContainText('Waiting');
  await expect(waitingCount).toHaveText('1');
  await expect(inbox.getByTestId('handoff')).toContainText('Waiting for an answer');
  await waitingTab.click();
  await expect(inbox.getByTestId('conversation')).toHaveCount(1);
  await inbox.getByLabel('Reply').fill('Yes, here');
  await inbox.getByRole('button', { name: 'Send' }).click();
  await expect(inbox.getByTestId('conversation')).toHaveCount(0);
  await expect(waitingCount).toHaveCount(0);
  await expect(inbox.getByTestId('handoff')).not.toContainText('Waiting');
  await inbox.getByRole('tab', { name: 'All' }).click();
  await expect(item).toHaveCount(1);

  // Resumed, the bot answers again.
  await inbox.getByRole('button', { name: 'Resume bot' }).click();
  await expect(inbox.getByTestId('handoff')).toContainText('Bot active');
  await simulatorSays(builder, 'back to the bot');
  await expect(messages.getByRole('listitem').last()).toContainText('The bot again');
  await expect(builder.getByTestId('sim-out').last()).toContainText('The bot again');
});
