import { expect, test } from '@playwright/test';
import Papa from 'papaparse';
import { importBot, saved, signUp } from './helpers';

test.use({ viewport: { width: 1440, height: 900 } });

test("a red block's submission made in the simulator is listed with its variables and exported", async ({
  page,
}) => {
  await signUp(page, `submissions-${Date.now()}@example.com`);
  const projectUrl = page.url();
  await page.goto(`${projectUrl}/deals/submissions`);
  // The demo bot's red block has no submissions yet.
  await expect(
    page.getByText('No submissions of this block yet: they appear when a client enters it.'),
  ).toBeVisible();

  await page.goto(projectUrl);
  await importBot(page, 'order.json', {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Size',
        text: 'Which size?',
        formula: 'size = question',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
      },
      { id: 2, kind: 'close_deal', name: 'Order', text: 'Ordered', position: { x: 0, y: 200 } },
    ],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
  });
  await saved(page);
  for (const text of ['XL', 'confirm']) {
    await page.getByLabel('Message to the bot').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }
  await expect(page.getByTestId('sim-out').last()).toContainText('Ordered');

  await page.goto(`${projectUrl}/deals/submissions`);
  await expect(page.getByLabel('Block')).toContainText('Order (red) · 1');
  await expect(page.getByText('1 submission')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Simulator' });
  await expect(row).toContainText('XL');
  await expect(page.getByRole('columnheader', { name: 'size' })).toBeVisible();
  await row.getByRole('button', { name: /Open deal/ }).click();
  await expect(page.getByText(/\(closed /)).toBeVisible();
  await page.getByRole('button', { name: 'Close the deal panel' }).click();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const rows = Papa.parse<string[]>(Buffer.concat(chunks).toString('utf8'), { skipEmptyLines: true }).data;
  expect(rows[0].at(-1)).toBe('size');
  expect(rows[1].at(-1)).toBe('XL');

  // A range with nothing in it says so; a reversed one is refused before anything is asked.
  await page.getByLabel('From').fill('2000-01-01');
  await page.getByLabel('To').fill('2000-01-02');
  await expect(page.getByText('No submissions of this block in these dates.')).toBeVisible();
  await page.getByLabel('From').fill('2000-01-03');
  await expect(page.getByText('The end date is before the start date.')).toBeVisible();
});
