import { expect, test } from '@playwright/test';
import { signUp } from './helpers';

test('the project tabs are prefetched when reached for, not all as the page opens', async ({ page }) => {
  await signUp(page, `nav-${Date.now()}@example.com`);
  const prefetched = new Set<string>();
  page.on('request', (request) => {
    if (request.headers()['next-router-prefetch']) prefetched.add(new URL(request.url()).pathname);
  });
  await page.reload();
  const nav = page.getByRole('navigation', { name: 'Project' });
  const base = new URL(page.url()).pathname;

  // Pointing at a tab prefetches it, so following it stays instant.
  const clients = page.waitForRequest(
    (r) => !!r.headers()['next-router-prefetch'] && new URL(r.url()).pathname === `${base}/clients`,
  );
  await nav.getByRole('link', { name: 'Clients' }).hover();
  await clients;
  await page.waitForLoadState('networkidle');

  // The tabs nobody reached for were never rendered ahead.
  for (const tab of ['inbox', 'channels', 'settings', 'api-keys', 'team'])
    expect(prefetched, `${tab} prefetched`).not.toContain(`${base}/${tab}`);

  await nav.getByRole('link', { name: 'Clients' }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/clients$`));
  await expect(nav.getByRole('link', { name: 'Clients' })).toHaveAttribute('aria-current', 'page');
});
