import { expect, test } from '@playwright/test';
import { password, signUp } from './helpers';

test('the owner invites an operator by link; the operator signs up, works in the project read-only', async ({
  page,
  browser,
}) => {
  await signUp(page, 'team-owner@example.com');
  const projectUrl = new URL(page.url()).pathname;
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByText('Only you so far.')).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(1);

  // No mail server in this run: the link is shown once, to copy.
  await page.getByLabel('E-mail', { exact: true }).fill('otto@example.com');
  await page.getByLabel('Name (optional)').fill('Otto');
  await page.getByLabel('Role', { exact: true }).selectOption('operator');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByTestId('invite-link-value').textContent();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
  const otto = page.locator('[data-testid="member-row"][data-email="otto@example.com"]');
  await expect(otto).toContainText('invited');

  // Inviting the same address again is refused, naming it.
  await page.getByLabel('E-mail', { exact: true }).fill('OTTO@example.com');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'otto@example.com is already a member of this project' }),
  ).toHaveText('otto@example.com is already a member of this project (invited, not joined yet).');

  // The invited person, in a browser of their own.
  const theirs = await browser.newContext();
  const op = await theirs.newPage();
  await op.goto(link as string);
  await expect(op.getByRole('heading', { name: 'Join My first bot' })).toBeVisible();
  await expect(op.getByText('You are invited as an operator.')).toBeVisible();
  await expect(op.getByLabel('E-mail')).toHaveValue('otto@example.com');
  await op.getByLabel('Name').fill('Otto');
  await op.getByLabel('Password').fill(password);
  await op.getByRole('button', { name: 'Sign up' }).click();
  await expect(op).toHaveURL(new RegExp(`${projectUrl}$`));

  // The bot, read-only: no palette, no editing tools, no saving.
  await expect(op.getByTestId('read-only-notice')).toBeVisible();
  await expect(op.getByTestId('block-1')).toBeVisible();
  await expect(op.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(op.getByRole('button', { name: 'Import JSON' })).toHaveCount(0);
  await expect(op.getByTestId('save-state')).toHaveCount(0);

  // Settings, API keys and Team are for owners and admins: shown, not openable.
  const nav = op.getByRole('navigation', { name: 'Project' });
  for (const tab of ['Settings', 'API keys', 'Team']) {
    await expect(nav.getByText(tab, { exact: true })).toHaveAttribute('aria-disabled', 'true');
    await expect(nav.getByRole('link', { name: tab })).toHaveCount(0);
  }
  await op.goto(`${projectUrl}/settings`);
  await expect(op.getByText('only its owner or an admin can change its settings')).toBeVisible();
  await expect(op.getByRole('button', { name: /Save/ })).toHaveCount(0);

  // The clients are theirs to see.
  await nav.getByRole('link', { name: 'Clients' }).click();
  await expect(op).toHaveURL(new RegExp(`${projectUrl}/clients$`));
  await expect(op.getByRole('heading', { name: 'Clients' })).toBeVisible();
  await expect(op.getByLabel('Search by name, phone, e-mail or platform id')).toBeVisible();

  // The owner sees Otto joined; the link is spent.
  await page.reload();
  await expect(otto).not.toContainText('invited');
  await expect(otto.getByLabel('Role of otto@example.com')).toHaveValue('operator');
  const later = await browser.newContext();
  const stranger = await later.newPage();
  await stranger.goto(link as string);
  await expect(stranger.getByRole('heading', { name: 'This invite was already used' })).toBeVisible();
  await theirs.close();
  await later.close();
});
