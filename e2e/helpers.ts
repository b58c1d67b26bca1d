import { expect, type Page } from '@playwright/test';

export const password = 'correct horse battery';

/** Signs a new user up; they land on their first project's canvas. */
export async function signUp(page: Page, email: string) {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(email.split('@')[0]);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
}
