import http from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { BOT_SCHEMA_FORMAT } from '../lib/schema/bot-schema';
import { startFakeOpenAi } from '../server/ai/testing/fake-openai';
import { cuttableProxy } from '../server/testing/cuttable-proxy';
import { signUp } from './helpers';

/**
 * The chat widget on a website: a page served from another origin (another port) carries the
 * snippet from the Channels tab; a third port is a site the widget does not allow.
 */

const appPort = Number(process.env.E2E_PORT ?? 3100);
const sitePort = appPort + 2;
const refusedPort = appPort + 3;
const SITE = `http://127.0.0.1:${sitePort}`;
const shots = process.env.SCREENSHOTS;
const shot = (page: Page, name: string) => (shots ? page.screenshot({ path: `${shots}/${name}.png` }) : null);

/** What widget.js gives the page. */
interface Site {
  Blockbot: {
    recipient: string | null;
    onReady(fn: (recipient: string) => void): void;
    identify(who: { name?: string; tag?: string; variables?: Record<string, string> }): Promise<void>;
  };
}

let snippet = '';
const pages: Record<string, string> = {
  '/': '<h1>Shop</h1><p>Welcome to the shop.</p>',
  '/other': '<h1>Another page</h1>',
  // The page's own CSS at its worst: every element reset, huge fonts.
  '/hostile':
    '<style>*{all:unset!important} html,body{font-size:64px!important;font-family:serif!important;color:red!important}</style><h1>Hostile</h1>',
};
const serveSite = (port: number) => {
  const server = http.createServer((req, res) => {
    const body = pages[req.url ?? ''];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Site</title></head><body>${body}${snippet}</body></html>`);
  });
  return new Promise<http.Server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
};
let servers: http.Server[] = [];
/** The site's pages reach the app through it (widget.js and its calls), so a test can cut their network. */
let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
test.beforeAll(async () => {
  servers = [await serveSite(sitePort), await serveSite(refusedPort)];
  proxy = await cuttableProxy(appPort);
});
test.afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await proxy?.close();
});

const BOT = {
  format: BOT_SCHEMA_FORMAT,
  blocks: [
    {
      id: 1,
      kind: 'start',
      text: 'Welcome to the shop',
      trigger: { alternatives: '' },
      attachments: [{ type: 'file', url: 'https://files.example/price-list.pdf' }],
      buttons: [
        { type: 'reply', text: 'Yes', line: 0 },
        { type: 'reply', text: 'No', line: 0 },
        { type: 'inline', text: 'Our site', url: 'https://shop.example/', line: 1 },
      ],
    },
    { id: 2, kind: 'start', text: 'You said yes', trigger: { alternatives: 'Yes' } },
    {
      id: 3,
      kind: 'start',
      text: 'Bold <b>text</b> <img src=x onerror="window.__xss=1">',
      trigger: { alternatives: 'html' },
    },
    { id: 4, kind: 'not_state_condition', text: 'We open at 9', trigger: { alternatives: 'hours' } },
  ],
  arrows: [],
};

async function trpc(page: Page, path: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${path}`, { data: { json: input } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).result.data.json;
}

/** Imports the bot into the draft and publishes it: the widget's visitors talk to the published bot. */
async function importAndPublish(page: Page, projectId: number, bot: unknown) {
  const { revision } = await trpc(page, 'botSchema.import', { projectId, json: JSON.stringify(bot) });
  await trpc(page, 'versions.publish', { projectId, note: '', expectedRevision: revision });
}

test('a visitor talks to the bot through the widget on another site, and comes back to the history', async ({
  page,
  browser,
}) => {
  // Three pages, two sites, a reload and a network drop.
  test.setTimeout(180_000);
  await signUp(page, `widget-${Date.now()}@example.com`);
  const projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await importAndPublish(page, projectId, BOT);

  // The Channels tab: a widget made, its look and the site set, the snippet copied.
  await page.getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByTestId('widgets-empty')).toBeVisible();
  const reach = page.getByTestId('channels-reach');
  await expect(reach).toContainText('it talks only in the builder’s simulator');
  await page.getByRole('button', { name: 'Create a chat widget' }).click();
  const row = page.getByTestId('widget-row');
  await expect(row).toContainText('The widget works on no site yet');
  await row.getByLabel('Title').fill('Shop chat');
  await row.getByLabel('Greeting').fill('Hi! Ask us anything.');
  await row.getByLabel('Allowed origins').fill('shop.example');
  await row.getByRole('button', { name: 'Save widget' }).click();
  await expect(row.getByRole('alert')).toContainText('"shop.example" is not an origin');
  await row.getByLabel('Allowed origins').fill(SITE);
  await row.getByRole('button', { name: 'Save widget' }).click();
  await expect(row.getByRole('status')).toHaveText('Saved');
  await expect(row).not.toContainText('The widget works on no site yet');
  // With no tg bot, the widget on a site is how clients reach the bot: not "only the simulator".
  await expect(reach).toHaveText('Clients reach the bot through 1 chat widget on your website.');
  await expect(page.getByTestId('channel-kind-tg')).toContainText('Not connected');
  snippet = (await row.getByTestId('widget-snippet').textContent()) ?? '';
  expect(snippet).toMatch(
    new RegExp(
      `^<script src="http://127.0.0.1:${appPort}/widget.js" data-channel="w[\\w-]{16}" async></script>$`,
    ),
  );
  await shot(page, 'widget-channels-tab');
  // The site loads widget.js, and so calls the app, through the proxy.
  snippet = snippet.replace(`http://127.0.0.1:${appPort}/`, `${proxy.origin}/`);

  // The site: a bubble, then the panel with the title and greeting, focus in the input.
  const visitor = await browser.newPage();
  await visitor.goto(`${SITE}/`);
  const bubble = visitor.getByRole('button', { name: 'Open chat: Shop chat' });
  await expect(bubble).toBeVisible();
  await shot(visitor, 'widget-closed');
  const ready = visitor.evaluate(
    () =>
      new Promise<string>((resolve) =>
        (window as unknown as Site).Blockbot.onReady((recipient) => resolve(recipient)),
      ),
  );
  await bubble.click();
  const panel = visitor.getByRole('dialog', { name: 'Shop chat' });
  await expect(panel).toContainText('Hi! Ask us anything.');
  await expect(panel.getByLabel('Your message')).toBeFocused();
  await panel.getByLabel('Your message').fill('hello');
  await visitor.keyboard.press('Enter');
  const log = panel.getByRole('log');
  await expect(log).toContainText('Welcome to the shop');
  await expect(log.getByRole('link', { name: /price-list\.pdf/ })).toHaveAttribute(
    'href',
    'https://files.example/price-list.pdf',
  );
  await expect(log.getByRole('link', { name: 'Our site' })).toHaveAttribute('target', '_blank');
  await shot(visitor, 'widget-open');
  // An answer from a block the visitor is not in leaves the welcome's reply buttons usable.
  await panel.getByLabel('Your message').fill('hours');
  await visitor.keyboard.press('Enter');
  await expect(log).toContainText('We open at 9');
  await expect(panel.getByRole('button', { name: 'No', exact: true })).toBeVisible();
  await panel.getByRole('button', { name: 'Yes' }).click();
  await expect(log).toContainText('You said yes');
  await expect(panel.getByRole('button', { name: 'Yes' })).toHaveCount(0);

  // The page learns the recipient, and its backend finds the client through the public API.
  const recipient = await ready;
  expect(await visitor.evaluate(() => (window as unknown as Site).Blockbot.recipient)).toBe(recipient);
  const apiKey = (await trpc(page, 'apiKey.create', { projectId, name: 'site backend' })).key as string;
  const found = await page.request.get(
    `/api/${apiKey}/online_chat_client_id?recipient=${encodeURIComponent(recipient)}&name=Ann`,
  );
  expect(await found.json()).toMatchObject({ status: 'success', client_id: expect.any(Number) });
  await visitor.evaluate(() =>
    (window as unknown as Site).Blockbot.identify({ tag: 'returning', variables: { plan: 'gold' } }),
  );

  // HTML in a text, the visitor's or the bot's, is shown as text and runs nothing.
  await panel.getByLabel('Your message').fill('<img src=x onerror="window.__xss=1">');
  await visitor.keyboard.press('Enter');
  await expect(log.getByText('<img src=x onerror="window.__xss=1">')).toBeVisible();
  await panel.getByLabel('Your message').fill('html');
  await visitor.keyboard.press('Enter');
  await expect(log.getByText('Bold <b>text</b> <img src=x onerror="window.__xss=1">')).toBeVisible();
  await expect(log.locator('img')).toHaveCount(0);
  expect(await visitor.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

  // Escape closes the panel and gives the focus back to the bubble.
  await visitor.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bubble).toBeFocused();

  // A reload, and another page of the site: the same dialog, its history.
  await visitor.reload();
  await visitor.getByRole('button', { name: 'Open chat: Shop chat' }).click();
  await expect(log).toContainText('You said yes');
  await expect(log.getByText('hello', { exact: true })).toHaveCount(1);
  await visitor.goto(`${SITE}/other`);
  expect(await visitor.evaluate(() => (window as unknown as Site).Blockbot.recipient)).toBe(recipient);
  await visitor.getByRole('button', { name: 'Open chat: Shop chat' }).click();
  await expect(log).toContainText('Welcome to the shop');

  // A network drop, the connections cut under the open stream: what the bot sends meanwhile
  // arrives once after the widget reconnects, and what the visitor sends meanwhile is stored
  // once (sent again with the same id until it goes through).
  const clientId = (await found.json()).client_id as number;
  const historyTexts = async () => {
    const history = await page.request.get(`/api/${apiKey}/get_history?client_id=${clientId}`);
    return ((await history.json()).result as { message: string }[]).map((m) => m.message);
  };
  await expect.poll(() => proxy.counts.streams).toBeGreaterThan(0);
  const streamsBefore = proxy.counts.streams;
  proxy.cut();
  const sent = await page.request.post(`/api/${apiKey}/message`, {
    data: { client_id: clientId, message: 'Sent while you were away' },
  });
  expect(sent.ok()).toBe(true);
  await panel.getByLabel('Your message').fill('Typed while offline');
  await visitor.keyboard.press('Enter');
  await expect(log.locator('.pending')).toHaveText('Typed while offline');
  // The send, or the stream's reconnect, was refused: the page is really offline.
  await expect.poll(() => proxy.counts.refused).toBeGreaterThan(0);
  expect(await historyTexts()).not.toContain('Typed while offline');
  proxy.restore();
  // Bounded by the widget's longest pause between attempts (15 s), not a wait.
  await expect.poll(() => proxy.counts.streams, { timeout: 30_000 }).toBeGreaterThan(streamsBefore);
  await expect(log.getByText('Sent while you were away')).toHaveCount(1, { timeout: 30_000 });
  await expect(log.getByText('Typed while offline')).toHaveCount(1, { timeout: 30_000 });
  await expect(log.locator('.pending')).toHaveCount(0);
  expect((await historyTexts()).filter((t) => t === 'Typed while offline')).toHaveLength(1);

  // Phone width: the panel takes the whole screen.
  await visitor.setViewportSize({ width: 390, height: 760 });
  await expect(panel).toHaveJSProperty('offsetWidth', 390);
  await shot(visitor, 'widget-390');
  await visitor.emulateMedia({ colorScheme: 'dark' });
  await visitor.setViewportSize({ width: 1024, height: 760 });
  await shot(visitor, 'widget-dark');

  // The page's own CSS leaves the widget as it was.
  await visitor.goto(`${SITE}/hostile`);
  const hostileBubble = visitor.getByRole('button', { name: 'Open chat: Shop chat' });
  await expect(hostileBubble).toBeVisible();
  expect(await hostileBubble.boundingBox()).toMatchObject({ width: 56, height: 56 });
  await hostileBubble.click();
  await expect(log).toContainText('You said yes');
  const size = await visitor.getByRole('dialog', { name: 'Shop chat' }).boundingBox();
  expect(size?.width).toBe(370);
  expect(await log.evaluate((el) => getComputedStyle(el.querySelector('.msg')!).fontSize)).toBe('14px');
  await shot(visitor, 'widget-hostile');

  // A site the widget does not allow gets nothing: no bubble, no dialog.
  const refused = await browser.newPage();
  // The browser reports a response the page may not read as a failed request.
  const config = new Promise<number | 'refused'>((resolve) => {
    refused.on('response', (r) => r.url().endsWith('/config') && resolve(r.status()));
    refused.on('requestfailed', (r) => r.url().endsWith('/config') && resolve('refused'));
  });
  await refused.goto(`http://127.0.0.1:${refusedPort}/`);
  expect([403, 'refused']).toContain(await config);
  await expect(refused.locator('blockbot-widget')).toHaveCount(0);
  expect(
    await refused.evaluate(() => (window as unknown as Partial<Site>).Blockbot?.recipient ?? null),
  ).toBeNull();

  // A long dialog: the newest 100 messages, and the earlier ones when the visitor scrolls to
  // the top, with what was at the top left in place.
  for (let i = 0; i < 100; i += 10)
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        page.request.post(`/api/${apiKey}/message`, {
          data: { client_id: clientId, message: `News ${i + j}` },
        }),
      ),
    );
  await visitor.goto(`${SITE}/`);
  await visitor.getByRole('button', { name: 'Open chat: Shop chat' }).click();
  await expect(log.locator('.msg')).toHaveCount(100);
  await expect(log.getByText('hello', { exact: true })).toHaveCount(0);
  const top = log.locator('.msg').first();
  const topId = await top.getAttribute('data-id');
  // Where the top message sits in the log's view; scrolling first happens in the same task.
  const offset = (scrollToTop: boolean) =>
    log.evaluate(
      (el, [id, scroll]) => {
        if (scroll) el.scrollTop = 0;
        const shown = el.querySelector(`[data-id="${id}"]`) as HTMLElement;
        return shown.getBoundingClientRect().top - el.getBoundingClientRect().top;
      },
      [topId, scrollToTop] as const,
    );
  // Measured as it scrolls, before the earlier page can arrive.
  const atTop = await offset(true);
  await expect(log.getByText('hello', { exact: true })).toHaveCount(1);
  expect(Math.abs((await offset(false)) - atTop)).toBeLessThan(2);
  expect(await log.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d4b5a70000000049454e44ae426082',
  'hex',
);

test('a visitor sends an image through the attach button; the bot and the operator see it', async ({
  page,
  browser,
}) => {
  await signUp(page, `widget-files-${Date.now()}@example.com`);
  const projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await importAndPublish(page, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Thanks for the file',
        trigger: { alternatives: '' },
        attachments: [{ type: 'image', url: '#{attachment_url}' }],
      },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const { key } = await trpc(page, 'channels.connect', {
    kind: 'widget',
    projectId,
    settings: { title: 'Files chat', allowedOrigins: [SITE] },
  });
  snippet = `<script src="http://127.0.0.1:${appPort}/widget.js" data-channel="${key}" async></script>`;

  const visitor = await browser.newPage();
  await visitor.goto(`${SITE}/`);
  await visitor.getByRole('button', { name: 'Open chat: Files chat' }).click();
  const panel = visitor.getByRole('dialog', { name: 'Files chat' });
  const log = panel.getByRole('log');

  // The attach button is reachable from the message field with the keyboard.
  await expect(panel.getByLabel('Your message')).toBeFocused();
  await visitor.keyboard.press('Shift+Tab');
  const attach = panel.getByRole('button', { name: 'Attach a file' });
  await expect(attach).toBeFocused();
  await panel.getByLabel('Your message').fill('Here is my <b>cat</b>');
  const chooser = visitor.waitForEvent('filechooser');
  await attach.click();
  await (await chooser).setFiles({
    name: '<img src=x onerror="window.__xss=1">.png',
    mimeType: 'image/png',
    buffer: PNG,
  });

  // The visitor's message with its image, then the bot's, which shows the file's address back.
  const mine = log.locator('.msg.visitor:not(.pending)');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Here is my <b>cat</b>');
  const src = await mine.locator('img').getAttribute('src');
  expect(src).toMatch(new RegExp(`^http://127.0.0.1:${appPort}/api/files/[\\w-]{22}/.+\\?sig=`));
  const reply = log.locator('.msg.bot', { hasText: 'Thanks for the file' });
  await expect(reply.locator('img')).toHaveAttribute('src', src!);
  // Loaded from the app on the site's page, with no cookie.
  await expect
    .poll(() => mine.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1);
  await expect(log.locator('.pending')).toHaveCount(0);
  await shot(visitor, 'widget-file-sent');

  // A refused file: the server's reason in the panel, nothing left in the dialog.
  const again = visitor.waitForEvent('filechooser');
  await attach.click();
  await (await again).setFiles({
    name: 'page.html',
    mimeType: 'text/html',
    buffer: Buffer.from('<h1>x</h1>'),
  });
  await expect(panel.getByRole('alert')).toContainText('Files of type text/html cannot be sent');
  await expect(log.locator('.pending')).toHaveCount(0);
  await expect(log.locator('.msg.visitor')).toHaveCount(1);

  // One over 10 MB is refused in the panel before it is sent; what was typed stays.
  await panel.getByLabel('Your message').fill('a big one');
  const big = visitor.waitForEvent('filechooser');
  await attach.click();
  await (await big).setFiles({
    name: 'big.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  });
  await expect(panel.getByRole('alert')).toContainText('The file is over 10 MB');
  await expect(panel.getByLabel('Your message')).toHaveValue('a big one');
  await panel.getByLabel('Your message').fill('');
  await expect(log.locator('.msg.visitor')).toHaveCount(1);

  // An image pasted into the message field is sent too.
  await panel.getByLabel('Your message').evaluate(
    (field, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'pasted.png', { type: 'image/png' }));
      field.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    [...PNG],
  );
  await expect(mine).toHaveCount(2);
  await expect(mine.nth(1).locator('img')).toHaveAttribute(
    'src',
    /\/api\/files\/[\w-]{22}\/pasted\.png\?sig=/,
  );

  // A file dropped on the panel: a PDF, shown as a link to download it by its name.
  await panel.evaluate((el) => {
    const data = new DataTransfer();
    data.items.add(new File(['%PDF-1.4\n%%EOF'], 'price list.pdf', { type: 'application/pdf' }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(mine).toHaveCount(3);
  await expect(mine.nth(2).getByRole('link', { name: 'File: price list.pdf' })).toHaveAttribute(
    'href',
    /\/api\/files\/[\w-]{22}\/price%20list\.pdf\?sig=/,
  );

  // The operator's view of the client: the image, from the same address.
  const recipient = await visitor.evaluate(() => (window as unknown as Site).Blockbot.recipient);
  const apiKey = (await trpc(page, 'apiKey.create', { projectId, name: 'files' })).key as string;
  const found = await page.request.get(`/api/${apiKey}/online_chat_client_id?recipient=${recipient}`);
  const clientId = (await found.json()).client_id as number;
  await page.goto(`/projects/${projectId}/clients/${clientId}`);
  await expect(page.locator(`img[src="${src}"]`).first()).toBeVisible();
  expect(await visitor.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

  // A visitor who gave no name has one name on every screen, never the widget's raw id.
  const visitorName = `Website visitor ${clientId}`;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(visitorName);
  const history = page.getByTestId('client-history');
  await expect(history.locator('li[data-sender="client"]').first().getByTestId('sender')).toHaveText(
    visitorName,
  );
  await expect(history.locator('li[data-sender="bot"]').first().getByTestId('sender')).toHaveText('Bot');
  await page.goto(`/projects/${projectId}/clients`);
  await expect(page.getByRole('link', { name: visitorName })).toBeVisible();
  await page.goto(`/projects/${projectId}/inbox`);
  const conversation = page.getByTestId('conversation').filter({ hasText: visitorName });
  await expect(conversation).toHaveCount(1);
  await expect(conversation).not.toContainText(String(recipient));
  await conversation.click();
  await expect(page.getByRole('heading', { level: 2, name: visitorName })).toBeVisible();

  // The operator says how clients see them; their reply carries that name and photo in the widget.
  await page.getByRole('button', { name: 'Change' }).click();
  const profile = page.getByRole('form', { name: 'How clients see you' });
  await profile.getByLabel("Your name in clients' chats").fill('Ann from support');
  await profile.getByLabel('Photo address (optional)').fill('ftp://files.example/ann.png');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByRole('alert')).toContainText('The photo must be an http(s) address');
  await profile.getByLabel('Photo address (optional)').fill(`${SITE}/ann.png`);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('chat-profile')).toHaveText('Clients see you as Ann from support');
  await page.getByLabel('Reply').fill('Hello, I am a person');
  await page.getByRole('button', { name: 'Send' }).click();
  const signed = panel.locator('.msg.bot', { hasText: 'Hello, I am a person' });
  await expect(signed.locator('.who')).toHaveText('Ann from support');
  await expect(signed.locator('.who img')).toHaveAttribute('src', `${SITE}/ann.png`);
  await shot(visitor, 'widget-operator-reply');
});

test("a visitor watches an AI answer being written in the typing bubble, then gets it as the bot's message", async ({
  page,
  browser,
}) => {
  const fake = await startFakeOpenAi();
  try {
    await signUp(page, `widget-ai-${Date.now()}@example.com`);
    const projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
    await trpc(page, 'project.updateSettings', { projectId, plan: 'ai' });
    await trpc(page, 'secrets.set', { projectId, name: 'OPENAI_KEY', value: fake.apiKey });
    await trpc(page, 'ai.saveProvider', {
      projectId,
      id: null,
      settings: { name: 'fake', baseUrl: fake.url, chatModel: 'gpt-4o-mini', apiKeySecret: 'OPENAI_KEY' },
    });
    await importAndPublish(page, projectId, {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: 'Sorry, no answer right now.',
          trigger: { alternatives: '' },
          ai: { prompt: 'Answer: #{question}' },
        },
      ],
      arrows: [],
    });
    const widget = await trpc(page, 'channels.connect', {
      kind: 'widget',
      projectId,
      settings: { title: 'Shop chat', allowedOrigins: [SITE] },
    });
    snippet = `<script src="${proxy.origin}/widget.js" data-channel="${widget.key}" async></script>`;

    const visitor = await browser.newPage();
    await visitor.goto(`${SITE}/`);
    await visitor.getByRole('button', { name: 'Open chat: Shop chat' }).click();
    const panel = visitor.getByRole('dialog', { name: 'Shop chat' });
    // The model writes three words, then waits until the test lets it finish.
    const answer = 'We deliver within two days anywhere in town, and returns are free.';
    fake.next({ text: answer, pauseAfter: 3 });
    await panel.getByLabel('Your message').fill('how fast is delivery?');
    await visitor.keyboard.press('Enter');
    const log = panel.getByRole('log');
    const typing = log.locator('.typing');
    await expect(typing).toHaveText('We deliver within');
    await expect(log.locator('.msg.bot')).toHaveCount(0);
    await shot(visitor, 'widget-ai-draft');
    fake.release();
    await expect(log.locator('.msg.bot')).toHaveText([answer]);
    await expect(typing).toBeHidden();
    await shot(visitor, 'widget-ai-answered');
  } finally {
    await fake.close();
  }
});
