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

test('on a phone the project name shows, the current tab opens a menu of every tab, and the Clients filters fit', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, `nav-phone-${Date.now()}@example.com`);
  const nav = page.getByRole('navigation', { name: 'Project' });
  const name = await nav.getByTestId('project-name').boundingBox();
  expect(name?.width).toBeGreaterThan(60);
  const menu = nav.getByRole('button', { name: 'Bot: open the project menu' });
  await expect(menu).toBeInViewport();
  await expect(nav.getByRole('link', { name: 'Clients' })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  for (const tab of [
    'Bot',
    'Conversations',
    'Clients',
    'Broadcasts',
    'Channels',
    'Settings',
    'API keys',
    'Team',
  ])
    await expect(nav.getByRole('link', { name: tab, exact: true })).toBeInViewport();
  await nav.getByRole('link', { name: 'Clients' }).click();
  await expect(page).toHaveURL(/\/clients$/);
  await expect(nav.getByRole('button', { name: 'Clients: open the project menu' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Bot', exact: true })).toBeHidden();

  // Every filter is wide enough to read its choice, and none runs past the screen.
  for (const label of [
    'Search by name, phone, e-mail or platform id',
    'Messenger',
    'List',
    'CRM state',
    'Tag',
    'Assigned member',
    'Sort',
  ]) {
    const box = await page.getByLabel(label, { exact: true }).boundingBox();
    expect(box?.width, label).toBeGreaterThan(140);
    expect((box?.x ?? 0) + (box?.width ?? 0), label).toBeLessThanOrEqual(390);
  }
  await expect(page.getByLabel('Messenger')).toContainText('All messengers');
});
