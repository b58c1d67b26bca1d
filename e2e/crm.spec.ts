import { expect, type Page, test } from '@playwright/test';
import { centre, importBot, password, saved, signUp } from './helpers';

test.use({ viewport: { width: 1440, height: 900 } });

/** Drags a card onto a column with the mouse, in steps (dnd-kit starts a drag after 6 px). */
async function drag(page: Page, card: ReturnType<Page['locator']>, column: ReturnType<Page['locator']>) {
  const from = await centre(card);
  const to = await centre(column);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 10 });
  await page.mouse.up();
}

test('an admin builds a funnel; a deal dragged on the board moves live on an operator’s board', async ({
  page,
  browser,
}) => {
  await signUp(page, 'crm-owner@example.com');
  const projectUrl = new URL(page.url()).pathname;

  // The funnel: a new stage with a colour, its id shown to copy.
  await page.goto(`${projectUrl}/deals/funnels`);
  await expect(page.getByRole('heading', { name: 'Funnels' })).toBeVisible();
  await page.getByLabel('New stage', { exact: true }).fill('Qualified');
  await page.getByLabel("New stage's colour").selectOption('teal');
  await page.getByRole('button', { name: 'Add stage' }).click();
  const qualified = page.getByLabel('Stage name (Qualified)');
  await expect(qualified).toBeVisible();
  // Placed before won and lost.
  const names = page.getByLabel(/^Stage name/);
  await expect(names).toHaveCount(5);
  await expect(names.nth(2)).toHaveValue('Qualified');
  const newRow = page.getByRole('listitem').filter({ has: page.getByLabel('Stage name (New)') });
  const newId = (await newRow.getByTitle("The stage's id (state_id)").textContent())?.replace('id ', '');
  expect(newId).toMatch(/^\d+$/);
  await expect(newRow.getByRole('button', { name: 'Copy id' })).toBeVisible();
  // Deleting a won stage is not offered; renaming is.
  await expect(page.getByRole('button', { name: 'Delete Won' })).toHaveCount(0);

  // A bot whose first block puts the deal in "New"; the simulator's client writes.
  await page.goto(projectUrl);
  await importBot(page, 'crm.json', {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome',
        trigger: { alternatives: '' },
        position: { x: 0, y: 0 },
        actions: { crmStateId: Number(newId), addToLists: [], removeFromLists: [] },
      },
    ],
    arrows: [],
  });
  await saved(page);
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('Welcome');

  // An operator joins by invite link, in a browser of their own, and opens the board.
  await page.goto(`${projectUrl}/team`);
  await page.getByLabel('E-mail', { exact: true }).fill('crm-op@example.com');
  await page.getByLabel('Role', { exact: true }).selectOption('operator');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByTestId('invite-link-value').textContent();
  const theirs = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const op = await theirs.newPage();
  await op.goto(link as string);
  await op.getByLabel('Name').fill('Olga');
  await op.getByLabel('Password').fill(password);
  await op.getByRole('button', { name: 'Sign up' }).click();
  await expect(op).toHaveURL(new RegExp(`${projectUrl}$`));
  await op.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Deals' }).click();
  // Operators work the board; the Funnels page is not theirs.
  await expect(
    op.getByRole('navigation', { name: 'Deals pages' }).getByRole('link', { name: 'Funnels' }),
  ).toHaveCount(0);
  const opNew = op.getByRole('region', { name: 'Stage New' });
  const opQualified = op.getByRole('region', { name: 'Stage Qualified' });
  await expect(opNew.getByRole('button', { name: /^Deal #\d+/ })).toHaveCount(1);
  await expect(opQualified.getByRole('button', { name: /^Deal #\d+/ })).toHaveCount(0);

  // The admin drags the deal to Qualified; the operator's board follows without a reload.
  await page.goto(`${projectUrl}/deals`);
  const card = page.getByRole('region', { name: 'Stage New' }).getByRole('button', { name: /^Deal #\d+/ });
  await expect(card).toBeVisible();
  await drag(page, card, page.getByRole('region', { name: 'Stage Qualified' }));
  await expect(
    page.getByRole('region', { name: 'Stage Qualified' }).getByRole('button', { name: /^Deal #/ }),
  ).toHaveCount(1);
  await expect(opQualified.getByRole('button', { name: /^Deal #\d+/ })).toHaveCount(1);
  await expect(opNew.getByRole('button', { name: /^Deal #\d+/ })).toHaveCount(0);

  // The operator opens the deal: the panel shows its stage, and its variables are editable.
  await opQualified.getByRole('button', { name: /^Deal #\d+/ }).click();
  const panel = op.getByRole('complementary', { name: /^Deal #\d+/ });
  await expect(panel).toContainText('Sales: Qualified');
  await panel.getByLabel("New variable's name").fill('product');
  await panel.getByLabel("New variable's value").fill('Sofa');
  await panel.getByRole('button', { name: 'Save variables' }).click();
  await expect(panel.getByLabel('Variable product')).toHaveValue('Sofa');
  await theirs.close();
});

test('a deal made by hand for a client found by name; the board reopens on the funnel last viewed, its last column in reach', async ({
  page,
}) => {
  const email = `deals-hand-${Date.now()}@example.com`;
  const me = email.split('@')[0];
  await signUp(page, email);
  const projectUrl = new URL(page.url()).pathname;
  // The simulator's client (named after its designer); the demo bot puts it on no board.
  await page.getByLabel('Message to the bot').fill('hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').first()).toBeVisible();

  // Sales with five stages, and a second funnel.
  const addStages = async (names: string[]) => {
    await page.goto(`${projectUrl}/deals/funnels`);
    for (const name of names) {
      await page.getByLabel('New stage', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Add stage' }).click();
      await expect(page.getByLabel(`Stage name (${name})`)).toBeVisible();
    }
  };
  await addStages(['Qualified']);
  await page.getByLabel("New funnel's name").fill('Partners');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(
    page.getByRole('region', { name: 'Funnels' }).getByRole('button', { name: 'Partners', exact: true }),
  ).toBeVisible();

  // Five columns fit at 1440 px: the last is whole, nothing to scroll.
  await page.goto(`${projectUrl}/deals`);
  const board = page.getByRole('region', { name: 'Sales board' });
  const lost = board.getByRole('region', { name: 'Stage Lost' });
  const rightEdge = async () => {
    const box = await lost.boundingBox();
    return (box?.x ?? Number.POSITIVE_INFINITY) + (box?.width ?? 0);
  };
  await expect(lost).toBeVisible();
  expect(await rightEdge()).toBeLessThanOrEqual(1440);
  await expect(page.getByRole('button', { name: 'Show the columns to the right' })).toHaveCount(0);

  // Seven do not: the board scrolls sideways, a button steps it, and the last column comes whole.
  await addStages(['Proposal', 'Invoice sent']);
  await page.goto(`${projectUrl}/deals`);
  await expect(lost).toBeVisible();
  expect(await rightEdge()).toBeGreaterThan(1440);
  const right = page.getByRole('button', { name: 'Show the columns to the right' });
  const scrolled = () => board.evaluate((el) => el.scrollLeft);
  while (await right.isVisible()) {
    const before = await scrolled();
    await right.click();
    // A step is one column (256 px and its gap), or the rest of the way, where the button goes.
    await expect
      .poll(async () => !(await right.isVisible()) || (await scrolled()) >= before + 267)
      .toBe(true);
  }
  await expect.poll(rightEdge).toBeLessThanOrEqual(1440);
  await expect(page.getByRole('button', { name: 'Show the columns to the left' })).toBeVisible();

  // A deal by hand: the client found by name, a stage, a variable.
  await page.getByRole('button', { name: 'New deal' }).click();
  const dialog = page.getByRole('dialog', { name: 'New deal in Sales' });
  await dialog.getByLabel('Find a client').fill(me);
  await dialog
    .getByRole('list', { name: 'Matching clients' })
    .getByRole('button', { name: new RegExp(me) })
    .click();
  await expect(dialog.getByTestId('new-deal-client')).toContainText(me);
  await dialog.getByLabel('Stage').selectOption({ label: 'Qualified' });
  await dialog.getByLabel('Variable 1 name').fill('amount');
  await dialog.getByLabel('Variable 1 value').fill('1200');
  await dialog.getByRole('button', { name: 'Create deal' }).click();
  await expect(page.getByText(new RegExp(`Deal #\\d+ for ${me} created in “Qualified”.`))).toBeVisible();
  const panel = page.getByRole('complementary', { name: /^Deal #\d+$/ });
  await expect(panel).toContainText('Sales: Qualified');
  await expect(panel.getByLabel('Variable amount')).toHaveValue('1200');
  // Its column, scrolled out of sight, comes into view with the card.
  await expect(
    board.getByRole('region', { name: 'Stage Qualified' }).getByRole('button', { name: new RegExp(me) }),
  ).toBeInViewport();
  await panel.getByRole('button', { name: 'Close the deal panel' }).click();

  // A second open deal for the same client is refused, naming the first.
  await page.getByRole('button', { name: 'New deal' }).click();
  await dialog.getByLabel('Find a client').fill(me);
  await dialog
    .getByRole('list', { name: 'Matching clients' })
    .getByRole('button', { name: new RegExp(me) })
    .click();
  await dialog.getByRole('button', { name: 'Create deal' }).click();
  await expect(dialog.getByRole('alert')).toContainText(`${me} already has an open deal, #`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The board reopens on the funnel last viewed (remembered for this member on the server).
  const remembered = page.waitForResponse((r) => r.url().includes('crm.rememberBoardFunnel') && r.ok());
  await page.getByLabel('Funnel', { exact: true }).selectOption({ label: 'Partners' });
  await remembered;
  await expect(page.getByRole('region', { name: 'Partners board' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Partners board' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Deals pages' }).getByRole('link', { name: 'Table' }).click();
  await expect(page.getByLabel('Funnel', { exact: true }).locator('option:checked')).toHaveText('Partners');
});
