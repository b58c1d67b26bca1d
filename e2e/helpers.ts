import { expect, type Locator, type Page } from '@playwright/test';

export const password = 'correct horse battery';

/**
 * Signs a new user up through the sign-up form, as a visitor does; they land on their first
 * project's canvas. `timeout`: for callers outside the test runner (a benchmark), whose expect
 * waits only 5 s.
 */
export async function signUpThroughForm(page: Page, email: string, options: { timeout?: number } = {}) {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(email.split('@')[0]);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/, options);
}

/**
 * Signs a new user up and opens their first project's canvas, through the requests the sign-up
 * form makes (its account, then its first project) without loading the form: most tests only
 * need someone signed in, and the form's page cost each of them a second or two. The form itself
 * is tested in account.spec.ts.
 */
export async function signUp(page: Page, email: string) {
  // better-auth refuses a cookie-setting request from no known origin: it is sent as the page's
  // would be, from the context's server (a test may start a server of its own).
  const headers = { origin: new URL((await page.request.get('/api/health')).url()).origin };
  const account = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password, name: email.split('@')[0] },
    headers,
  });
  if (!account.ok()) throw new Error(`sign-up of ${email}: HTTP ${account.status()} ${await account.text()}`);
  // As the form does: the first project in the browser's time zone (the runner's machine).
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const first = await page.request.post('/api/trpc/project.ensureFirst', {
    data: { json: { timeZone } },
    headers,
  });
  if (!first.ok())
    throw new Error(`the first project of ${email}: HTTP ${first.status()} ${await first.text()}`);
  const project = (await first.json()) as { result: { data: { json: { id: number } } } };
  await page.goto(`/projects/${project.result.data.json.id}`);
}

/** Unfolds a channel kind on the Channels tab: a kind with nothing connected is one line until asked. */
export const setUpChannel = (page: Page, label: string) =>
  page.getByRole('button', { name: `Set up ${label}` }).click();

/** The canvas's autosave indicator reads "Saved". */
export const saved = (page: Page) => expect(page.getByTestId('save-state')).toHaveText('Saved');

/** Waits for a locator's box to stop moving (the canvas animates its zoom and pans); returns it. */
export async function settled(locator: Locator) {
  let box = await locator.boundingBox();
  await expect
    .poll(async () => {
      const last = JSON.stringify(box);
      box = await locator.boundingBox();
      return box !== null && JSON.stringify(box) === last;
    })
    .toBe(true);
  if (!box) throw new Error('not visible');
  return box;
}

export async function centre(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not visible');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Presses the mouse on an element's centre, once it can take the press: hover() waits until it is
 * visible, still across animation frames (not mid-pan) and not covered by anything at that point.
 * Returns where the press is, for the drag that follows.
 */
export async function pressOn(page: Page, locator: Locator) {
  await locator.hover();
  const at = await centre(locator);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  return at;
}

/** A block's own outgoing handle: the first of its source handles (each button has one too). */
const ownHandle = (page: Page, block: number) =>
  page.getByTestId(`block-${block}`).locator('.react-flow__handle.source').first();

/** Drags a new arrow from one block's outgoing handle to another block's incoming handle. */
export async function connect(page: Page, from: number, to: number) {
  const end = await centre(page.getByTestId(`block-${to}`).locator('.react-flow__handle.target'));
  const start = await pressOn(page, ownHandle(page, from));
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 5 });
  await page.mouse.move(end.x, end.y, { steps: 5 });
  await page.mouse.up();
}

/** Drags an arrow out of a block's handle into empty space at a screen point: a new block there. */
export async function dragArrowOut(page: Page, from: number, to: { x: number; y: number }) {
  await pressOn(page, ownHandle(page, from));
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** Monaco's visible lines (it renders spaces as no-break spaces). */
export const monacoText = (editor: Locator) =>
  editor.locator('.view-lines').evaluate((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, ' '));

/** Puts the cursor at the end of a Monaco editor's text. */
export async function monacoFocusEnd(page: Page, editor: Locator) {
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
}

/** Picks a bot schema file in the toolbar's import, as the file dialog would. */
export const chooseBotFile = (page: Page, name: string, bot: unknown) =>
  page.getByLabel('Bot schema file').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bot)),
  });

/** Imports a bot over the project's bot: a new project has the example bot, so the builder asks first. */
export async function importBot(page: Page, name: string, bot: unknown) {
  await chooseBotFile(page, name, bot);
  await page
    .getByRole('dialog', { name: `Import ${name}?` })
    .getByRole('button', { name: 'Replace' })
    .click();
}

/** The canvas's zoom, from React Flow's viewport transform. */
export const zoomOf = (page: Page) =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);

/**
 * A bot of `count` blocks chained by unconditional arrows, laid out in rows of `columns` with
 * `spacing` between their corners; block `start` is the start block, named and worded by
 * `start`'s own name and text.
 */
export function chainBot(options: {
  count: number;
  columns: number;
  spacing: { x: number; y: number };
  start: { id: number; name: string; text: string };
  name: (id: number) => string;
}) {
  const { count, columns, spacing, start, name } = options;
  return {
    format: 'blockbot/schema@1',
    blocks: Array.from({ length: count }, (_, i) => {
      const id = i + 1;
      return {
        id,
        kind: id === start.id ? 'start' : 'state',
        name: id === start.id ? start.name : name(id),
        position: { x: (i % columns) * spacing.x, y: Math.floor(i / columns) * spacing.y },
        text: id === start.id ? start.text : `The text of step ${id}`,
      };
    }),
    arrows: Array.from({ length: count - 1 }, (_, i) => ({
      id: i + 1,
      from: i + 1,
      to: i + 2,
      kind: 'unconditional',
    })),
  };
}
