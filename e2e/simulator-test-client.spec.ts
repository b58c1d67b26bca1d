import { expect, test } from '@playwright/test';
import { importBot, saved, signUp } from './helpers';

const greetingBot = {
  format: 'blockbot/schema@1',
  blocks: [
    {
      id: 1,
      kind: 'start',
      text: 'Hi #{name}! We write to #{client.email} in #{client.language}.',
      trigger: { alternatives: '' },
    },
  ],
  arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
};

test('the simulator talks as the member, and the Test client form sets its name, e-mail and language', async ({
  page,
}) => {
  const member = `test-client-${Date.now()}`;
  await signUp(page, `${member}@example.com`);
  await importBot(page, 'greeting.json', greetingBot);
  await saved(page);
  const simulator = page.getByRole('complementary', { name: 'Simulator' });
  // Before it writes, the test client is the member: their name is its name.
  await expect(simulator.getByTestId('test-client')).toHaveText(`Talking as ${member}`);

  await simulator.getByRole('button', { name: 'Test client' }).click();
  const form = simulator.getByRole('form', { name: 'Test client' });
  await expect(form.getByLabel('Name')).toHaveValue(member);
  await form.getByLabel('Name').fill('Bob Test');
  await form.getByLabel('E-mail').fill('bob@');
  await form.getByLabel('Language').fill('de');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'The e-mail must be an address like ann@example.com, or empty for none.',
  );
  await form.getByLabel('E-mail').fill('bob@example.com');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  await expect(simulator.getByTestId('test-client')).toHaveText('Talking as Bob Test');

  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toHaveText(
    'Hi Bob Test! We write to bob@example.com in de.',
  );
  await expect(page.getByTestId('variables')).toContainText('client.email = bob@example.com');
});
