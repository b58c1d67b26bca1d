import { expect, type Locator, test } from '@playwright/test';
import { startFakeJambonz } from '../server/channels/telephony/testing/fake-jambonz';
import { setUpChannel, signUp } from './helpers';

test.use({ viewport: { width: 1440, height: 1000 } });

/** Picks the option of a select whose text starts with `text` (its value holds an id unknown here). */
async function choose(select: Locator, text: string) {
  const value = await select.locator('option').filter({ hasText: text }).first().getAttribute('value');
  await select.selectOption(value ?? '');
}

const csv = (text: string) => ({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

test('a list is created, filled from a CSV (a bad row shown, then fixed) and from the Clients table, and filters it', async ({
  page,
}) => {
  await signUp(page, `lists-${Date.now()}@example.com`);
  // The simulator's client is the project's one client.
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('link', { name: 'Clients' }).click();
  const client = page.getByRole('row').filter({ hasText: 'Simulator' });
  await expect(client).toHaveCount(1);
  const clientId = (await client.getByRole('link').getAttribute('href'))?.split('/').at(-1);
  expect(clientId).toMatch(/^\d+$/);

  // The Lists page: two lists, each with its id.
  await page.getByRole('navigation', { name: 'Clients pages' }).getByRole('link', { name: 'Lists' }).click();
  await expect(page.getByText('No lists yet.')).toBeVisible();
  for (const name of ['Newsletter', 'VIP']) {
    await page.getByLabel('New list name').fill(name);
    await page.getByRole('button', { name: 'Create list' }).click();
    await expect(page.getByRole('listitem', { name: `List ${name}` })).toContainText('0 members');
  }
  const newsletter = page.getByRole('listitem', { name: 'List Newsletter' });
  await expect(newsletter.getByRole('button', { name: 'Copy id' })).toBeVisible();

  // Import: an unknown id is reported by row and column, nothing can be imported; the fixed file goes in.
  await newsletter.getByRole('button', { name: 'Import CSV' }).click();
  const file = newsletter.getByLabel('CSV file (UTF-8)');
  await file.setInputFiles(csv(`client_id\n${clientId}\n999999\n`));
  await expect(newsletter.getByRole('list', { name: 'Row errors' })).toHaveText(
    'Row 3, column client_id: no client 999999 in this project.',
  );
  await expect(newsletter.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await file.setInputFiles(csv(`client_id\n${clientId}\n${clientId}\n`));
  await expect(newsletter.getByTestId('import-summary')).toContainText(
    '1 client found, 1 duplicate row counted once.',
  );
  await newsletter.getByRole('button', { name: 'Import 1 new member', exact: true }).click();
  await expect(page.getByText('1 client added to “Newsletter”.')).toBeVisible();
  await expect(newsletter.getByTestId('member-count')).toHaveText('1 member');

  // Its members, in the Clients table filtered by the list.
  await newsletter.getByRole('link', { name: 'Newsletter' }).click();
  await expect(page.getByLabel('List', { exact: true })).toHaveValue(/^in:\d+$/);
  await expect(client).toHaveCount(1);

  // Select every matching client and add them to VIP; "not in VIP" is then empty.
  await page.getByLabel('Select the clients on this page').check();
  await expect(page.getByTestId('selected-count')).toHaveText('1 selected');
  await choose(page.getByLabel('List for the selected clients'), 'VIP (id');
  await page.getByRole('button', { name: 'Add to list' }).click();
  await expect(page.getByText('1 client added to “VIP”.')).toBeVisible();
  await choose(page.getByLabel('List', { exact: true }), 'Not in VIP');
  await expect(page.getByText('No clients match this search.')).toBeVisible();

  // Deleting a list says how many members it has.
  await page.getByRole('navigation', { name: 'Clients pages' }).getByRole('link', { name: 'Lists' }).click();
  await page.getByRole('listitem', { name: 'List VIP' }).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete list VIP' });
  await expect(confirm).toContainText('It has 1 member');
  await confirm.getByRole('button', { name: 'Delete list' }).click();
  await expect(page.getByRole('listitem', { name: 'List VIP' })).toHaveCount(0);
});

test('a CSV of names, e-mails and phones adds people the project never met as clients of a telephony line', async ({
  page,
}) => {
  const fake = await startFakeJambonz();
  try {
    await signUp(page, `lists-people-${Date.now()}@example.com`);
    // A telephony line: its clients are reached by their phone number.
    await page.getByRole('link', { name: 'Channels' }).click();
    await setUpChannel(page, 'Voice calls (telephony)');
    const form = page.getByRole('form', { name: 'Connect a jambonz gateway' });
    await form.getByLabel('jambonz API address').fill(fake.url);
    await form.getByLabel('Account SID').fill(fake.account.accountSid);
    await form.getByLabel('Application SID').fill(fake.account.applicationSid);
    await form.getByLabel('Webhook secret').fill(fake.account.webhookSecret);
    await form.getByLabel('Caller number').fill(`+1 557 ${String(Date.now()).slice(-7)}`);
    await form.getByLabel('API key').fill(fake.account.apiKey);
    await form.getByRole('button', { name: 'Connect the gateway' }).click();
    await expect(page.getByTestId('telephony-row')).toHaveCount(1);

    await page.getByRole('link', { name: 'Clients' }).click();
    await page
      .getByRole('navigation', { name: 'Clients pages' })
      .getByRole('link', { name: 'Lists' })
      .click();
    await page.getByLabel('New list name').fill('Leads');
    await page.getByRole('button', { name: 'Create list' }).click();
    const leads = page.getByRole('listitem', { name: 'List Leads' });
    await leads.getByRole('button', { name: 'Import CSV' }).click();

    // Without a channel, people nobody knows are refused, as the newcomer found.
    const file = leads.getByLabel('CSV file (UTF-8)');
    const people = [
      'Name,E-mail,Phone',
      'Ann Lee,ann@example.com,+1 (415) 555-2671',
      'Bob Stone,bob@example.com,0033 6 12 34 56 78',
      'Ann Lee,,14155552671',
    ];
    await file.setInputFiles(csv(`${[...people, 'Carl,,8 900 765 43 21'].join('\n')}\n`));
    await expect(leads.getByTestId('import-summary')).toContainText('0 clients found');
    await expect(leads.getByRole('list', { name: 'Row errors' }).getByRole('listitem')).toHaveCount(4);

    // With the line chosen: two new clients, the third row the same person, the fourth refused.
    await leads.getByLabel('People not in the project yet').selectOption({ index: 1 });
    await expect(leads.getByTestId('import-summary')).toContainText(
      '0 clients found, 2 new clients to create in Telephony',
    );
    await expect(leads.getByTestId('import-summary')).toContainText(
      '1 duplicate row counted once, 1 row refused.',
    );
    await expect(leads.getByRole('list', { name: 'Row errors' })).toHaveText(
      /^Row 5, column phone: 89007654321 is not a number Telephony can reach/,
    );
    await expect(leads.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

    // The fixed file goes in.
    await file.setInputFiles(csv(`${people.join('\n')}\n`));
    await expect(leads.getByTestId('import-summary')).toContainText('0 rows refused.');
    await expect(leads.getByRole('row').filter({ hasText: 'Ann Lee' }).first()).toContainText('new');
    await leads.getByRole('button', { name: 'Import 2 new members', exact: true }).click();
    await expect(page.getByText('2 clients added to “Leads”, 2 new clients created.')).toBeVisible();
    await expect(leads.getByTestId('member-count')).toHaveText('2 members');

    // They are clients of the line, by name, with their numbers in one form.
    await leads.getByRole('link', { name: 'Leads' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Ann Lee' })).toContainText('Telephony');
    await expect(page.getByRole('row').filter({ hasText: 'Bob Stone' })).toHaveCount(1);
  } finally {
    await fake.close();
  }
});
