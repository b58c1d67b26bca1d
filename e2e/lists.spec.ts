import { expect, type Locator, test } from '@playwright/test';
import { signUp } from './helpers';

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
