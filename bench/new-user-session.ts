/**
 * A new user's first session with `npm start`, in headless Chromium over real HTTP, for
 * `npm run bench -- start` to read the server's memory after use: sign up (the first project
 * opens on the demo bot's canvas), talk to the demo bot in the simulator, open every project tab
 * and the pages under them, create an API key and call the public API with it, and open the docs
 * and the instance's page. Steps click what the browser tests click (e2e/helpers.ts,
 * e2e/api-keys.spec.ts), with longer waits: outside the test runner, Playwright's expect waits
 * 5 s, which a loaded machine, or a server just paused by a heap snapshot, can exceed.
 */
import { type Browser, chromium, expect as expectSoon, type Page } from '@playwright/test';
import { signUpThroughForm } from '../e2e/helpers';
import playwrightConfig from '../playwright.config';

const expect = expectSoon.configure({ timeout: 60_000 });

/** The demo bot's conversation: each message and the start of the bot's last answer to it. */
const CONVERSATION: [string, string][] = [
  ['hi', 'Hi'],
  ['Prices', 'The plan costs'],
  ['Yes', 'Great!'],
  ['ann@example.com', 'Thank you!'],
  ['restart', 'Hi'],
  ['what?', "Sorry, I didn't understand"],
];

/** Pages outside the project, opened at the end. */
const OTHER_PAGES = ['/projects', '/docs', '/docs/api', '/instance'];

const TABS = ['Conversations', 'Clients', 'Broadcasts', 'Channels', 'Settings', 'API keys', 'Team', 'Bot'];

/** Pages under the tabs, opened by address as a user's bookmark or a link elsewhere would. */
const PROJECT_PAGES = [
  'deals',
  'deals/table',
  'deals/funnels',
  'deals/submissions',
  'clients/lists',
  'broadcasts/new',
  'knowledge',
  'settings/ai',
  'settings/webhooks',
];

async function talkToTheDemoBot(page: Page) {
  const out = page.getByTestId('sim-out');
  for (const [message, answer] of CONVERSATION) {
    await page.getByLabel('Message to the bot').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(out.last()).toContainText(answer);
  }
}

async function openTabs(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Project' });
  for (const tab of TABS) {
    await nav.getByRole('link', { name: tab, exact: true }).click();
    await expect(nav.getByRole('link', { name: tab, exact: true })).toHaveAttribute('aria-current', 'page');
  }
}

/** Creates a key on the API keys tab (as e2e/api-keys.spec.ts does) and calls the API with it. */
async function callTheApi(page: Page, projectUrl: string): Promise<number> {
  await page.goto(`${projectUrl}/api-keys`);
  await page.getByLabel('Name').fill('bench');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  const api = `${new URL(projectUrl).origin}/api/${key}`;
  const calls = ['get_messages', 'connected_channels', 'find_client_id_by_email?email=ann@example.com'];
  let answered = 0;
  for (const call of calls) {
    const response = await page.request.get(`${api}/${call}`);
    if (response.ok()) answered++;
    const body = await response.json();
    if (call.startsWith('find_client_id') && body.client_id) {
      const more = await page.request.get(`${api}/get_variables?client_id=${body.client_id}`);
      if (more.ok()) answered++;
    }
  }
  return answered;
}

export interface SessionReport {
  /** Pages opened (tabs clicked and addresses gone to). */
  pages: number;
  /** Messages sent in the simulator. */
  messages: number;
  /** Public API calls answered 200. */
  apiCalls: number;
  /** ms the session took. */
  took: number;
}

/** Runs the session against the server at `baseURL`; the browser is closed afterwards. */
export async function newUserSession(baseURL: string): Promise<SessionReport> {
  const began = performance.now();
  const browser: Browser = await chromium.launch({ ...playwrightConfig.use?.launchOptions, headless: true });
  try {
    const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signUpThroughForm(page, `new-user-${Date.now()}@example.com`, { timeout: 60_000 });
    const projectUrl = page.url();
    await talkToTheDemoBot(page);
    await openTabs(page);
    for (const sub of PROJECT_PAGES) await page.goto(`${projectUrl}/${sub}`);
    const apiCalls = await callTheApi(page, projectUrl);
    for (const other of OTHER_PAGES) await page.goto(other);
    // Back to the canvas, as a user ends up: the builder and its simulator again.
    await page.goto(projectUrl);
    await expect(page.getByLabel('Message to the bot')).toBeVisible();
    await context.close();
    return {
      // The sign-up's canvas, the tabs, the pages under them, the API keys page, the others, the canvas.
      pages: 1 + TABS.length + PROJECT_PAGES.length + 1 + OTHER_PAGES.length + 1,
      messages: CONVERSATION.length,
      apiCalls,
      took: performance.now() - began,
    };
  } finally {
    await browser.close();
  }
}
