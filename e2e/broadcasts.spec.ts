import { expect, type Page, test } from '@playwright/test';
import { signUp } from './helpers';

test.use({ viewport: { width: 1440, height: 1000 } });

/** The app's own API as the signed-in user (tRPC over HTTP, the page's cookies). */
async function trpc<T>(page: Page, path: string, input: unknown): Promise<T> {
  const response = await page.request.post(`/api/trpc/${path}`, { data: { json: input } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).result.data.json as T;
}

test('a broadcast composed to a list runs to the end through the simulator, with its counts', async ({
  page,
  baseURL,
}) => {
  await signUp(page, `broadcasts-${Date.now()}@example.com`);
  const projectId = Number(new URL(page.url()).pathname.split('/').at(-1));

  // Setup (the lists screen is another tab's): 4 simulator clients from the public API's
  // load_clients, and a list of 3 of them imported from a CSV by platform id and type.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('Setup');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  const api = async (action: string, body: unknown) => {
    const r = await page.request.post(`${baseURL}/api/${key}/${action}`, { data: body });
    expect(r.ok(), await r.text()).toBe(true);
    return r.json();
  };
  const loaded = await api('load_clients', {
    clients: ['ann', 'bob', 'cid', 'dan'].map((name) => ({
      platform_id: name,
      group_id: 'sim',
      client_type: 99,
      name,
    })),
  });
  expect(loaded.clients).toHaveLength(4);
  const list = await trpc<{ id: number }>(page, 'lists.create', { projectId, name: 'Spring sale' });
  const imported = await page.request.post(`/api/projects/${projectId}/lists/${list.id}/import?commit=1`, {
    headers: { 'Content-Type': 'text/csv' },
    data: 'platform_id,client_type\nann,99\nbob,99\ncid,99\n',
  });
  expect(imported.ok(), await imported.text()).toBe(true);

  // Compose: the list picked by name, the count shown before sending.
  await page.getByRole('link', { name: 'Broadcasts' }).click();
  await expect(page.getByText('No broadcasts yet.')).toBeVisible();
  await page.getByRole('link', { name: 'New broadcast' }).click();
  await expect(page.getByTestId('recipient-count')).toContainText('4 recipients match now');
  await page.getByRole('button', { name: 'Send broadcast' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'text:' })).toContainText('write a message');
  await page.getByLabel('Name (for the list of broadcasts)').fill('Spring sale');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello #{name}, spring sale today!');
  await page.getByRole('group', { name: 'In any of these lists' }).getByText('Spring sale').click();
  await expect(page.getByTestId('recipient-count')).toContainText('3 recipients match now');
  await page.getByLabel('Seconds between messages').fill('0');
  await page.getByRole('button', { name: 'Send broadcast' }).click();

  // Its page: it runs to the end, each recipient sent.
  await expect(page).toHaveURL(/\/broadcasts\/\d+$/);
  await expect(page.getByTestId('broadcast-status')).toHaveText('done');
  await expect(page.getByTestId('count-total')).toHaveText('3');
  await expect(page.getByTestId('count-sent')).toHaveText('3');
  await expect(page.getByTestId('count-failed')).toHaveText('0');
  await expect(page.getByTestId('count-pending')).toHaveText('0');
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'sent' })).toHaveCount(3);
  await expect(rows.filter({ hasText: 'dan' })).toHaveCount(0);

  // The list shows it, with the API's broadcasts beside it.
  await api('broadcast', { message: 'From the API', list: list.id, shift: 0 });
  await page.getByRole('link', { name: '← Broadcasts' }).click();
  const listed = page.getByRole('row');
  await expect(listed.filter({ hasText: 'Spring sale' }).filter({ hasText: 'app' })).toContainText('done');
  await expect(listed.filter({ hasText: 'From the API' })).toContainText('API');

  // A draft (kept through the API here) edited from its page: the form holds what the draft
  // holds, the edit saved into the same draft, then sent.
  const draft = await trpc<{ id: number }>(page, 'broadcasts.create', {
    projectId,
    name: 'Autumn',
    text: 'Old text',
    shiftSeconds: 0,
    filter: { listIds: [], excludeListIds: [], clientTypes: [] },
    mode: 'draft',
  });
  await page.goto(`/projects/${projectId}/broadcasts/${draft.id}`);
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit draft' })).toBeVisible();
  await expect(page.getByLabel('Name (for the list of broadcasts)')).toHaveValue('Autumn');
  const text = page.getByRole('textbox', { name: 'Message', exact: true });
  await expect(text).toHaveValue('Old text');
  await expect(page.getByRole('radio', { name: 'Keep as a draft' })).toBeChecked();
  await expect(page.getByTestId('recipient-count')).toContainText('4 recipients match now');
  await text.fill('Autumn for #{name}');
  await page.getByRole('group', { name: 'In any of these lists' }).getByText('Spring sale').click();
  await expect(page.getByTestId('recipient-count')).toContainText('3 recipients match now');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/broadcasts/${draft.id}$`));
  await expect(page.getByText('Autumn for #{name}')).toBeVisible();
  await expect(page.getByText('in Spring sale')).toBeVisible();
  await page.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('broadcast-status')).toHaveText('done');
  await expect(page.getByTestId('count-sent')).toHaveText('3');
});
