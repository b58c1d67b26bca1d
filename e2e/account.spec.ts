import { expect, test } from '@playwright/test';
import { password, signUp } from './helpers';

test('sign up lands in the demo project, an API key is shown once, sign out and back in', async ({
  page,
}) => {
  const email = `designer-${Date.now()}@example.com`;
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill('Dana Designer');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();

  // The first project opens on its canvas with the demo bot's blocks.
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  await expect(page.getByTestId('canvas')).toBeVisible();
  await expect(page.getByTestId('block-1')).toContainText('Welcome');
  await expect(page.getByTestId('block-2')).toContainText('Prices');
  const projectUrl = page.url();

  // An API key is shown exactly once.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('Integration');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByTestId('new-key-value').textContent();
  expect(key).toMatch(/^bb_[A-Za-z0-9_-]{20,}$/);
  await expect(page.getByTestId('api-key-row')).toHaveCount(1);
  await expect(page.getByTestId('api-key-row')).toContainText(key!.slice(0, 10));
  await page.reload();
  await expect(page.getByTestId('api-key-row')).toHaveCount(1);
  await expect(page.getByText(key!)).toHaveCount(0);

  // Sign out, and back in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(projectUrl);
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('wrong password!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('Wrong e-mail or password.');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole('link', { name: 'My first bot' })).toBeVisible();
});

test('sign-up errors: weak password and taken e-mail', async ({ page }) => {
  const email = `taken-${Date.now()}@example.com`;
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill('First');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.locator('form').getByRole('alert')).toContainText('too weak');

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.goto('/sign-up');
  await page.getByLabel('Name').fill('Second');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.locator('form').getByRole('alert')).toContainText('already exists');
});

test('unknown routes and foreign projects get the 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();

  await signUp(page, `owner-${Date.now()}@example.com`);
  const foreignProject = page.url();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signUp(page, `stranger-${Date.now()}@example.com`);
  expect(page.url()).not.toBe(foreignProject);
  const foreign = await page.goto(`${foreignProject}/settings`);
  expect(foreign?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
});
