import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resultOf } from '@/lib/channels/operation-result';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import type { WidgetMessage } from '@/lib/widget/messages';
import { channelFor } from '@/server/channels/registry';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { replyToClient } from '@/server/inbox/operator-reply';
import { createProject } from '@/server/projects/project-service';
import type { TRPCContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';
import { saveAndPublish } from '@/server/versions/bot-versions';
import type { createWidgetChannel } from './channel-service';
import { DEFAULT_WIDGET_LIMITS, setWidgetLimits } from './limits';
import { serveWidgetRoute } from './testing/route-server';
import { openTestStream } from './testing/sse-client';

/**
 * The chat widget's endpoints over real HTTP, as widget.js calls them from a site: origins,
 * tokens, the engine's replies, the live stream and its resume, rate limits and bad input.
 */

const SITE = 'http://shop.test';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-widget-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: Awaited<ReturnType<typeof serveWidgetRoute>>;
let owner: ReturnType<typeof createCaller>;
let projectId: number;
let key: string;
let otherKey: string;
let nextAddress = 1;

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await serveWidgetRoute();
  const user = await db.user.create({ data: { id: 'u-w', email: 'w@example.com', name: 'w' } });
  owner = createCaller({
    db,
    session: { user, session: { id: 's-w', userId: user.id } } as unknown as TRPCContext['session'],
  });
  projectId = (
    await createProject(db, { name: 'w', plan: 'business', owner: { email: user.email, userId: user.id } })
  ).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome',
        trigger: { alternatives: '' },
        attachments: [{ type: 'image', url: 'https://cdn.example/menu.png' }],
        buttons: [
          { type: 'reply', text: 'Yes', line: 0 },
          { type: 'reply', text: 'No', line: 0 },
          { type: 'inline', text: 'Menu', callback_data: 'menu', line: 1 },
          { type: 'inline', text: 'Site', url: 'https://shop.example/', line: 2 },
          { type: 'inline', text: 'Bad', url: 'javascript:alert(1)', line: 3 },
        ],
      },
      { id: 2, kind: 'start', text: 'You said yes', trigger: { alternatives: 'Yes' } },
      { id: 3, kind: 'start', text: 'The menu', trigger: { alternatives: 'menu' } },
      { id: 4, kind: 'not_state_condition', text: 'We open at 9', trigger: { alternatives: 'hours' } },
    ],
    arrows: [],
  });
  const created = resultOf<typeof createWidgetChannel>(
    await owner.channels.connect({ kind: 'widget', projectId }),
  )!;
  key = created.key;
  const list = await owner.channels.list({ projectId });
  const widget = list.find((c) => c.id === created.id)?.widget;
  await owner.channels.update({
    kind: 'widget',
    projectId,
    channelId: created.id,
    settings: { ...widget!.settings, title: 'Shop chat', allowedOrigins: [SITE, 'https://other.test'] },
  });
  otherKey = resultOf<typeof createWidgetChannel>(
    await owner.channels.connect({ kind: 'widget', projectId, settings: { allowedOrigins: [SITE] } }),
  )!.key;
});

afterAll(async () => {
  server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() =>
  setWidgetLimits({
    dialogsPerAddress: 1000,
    messagesPerVisitor: 1000,
    messagesPerAddress: 1000,
    filesPerVisitor: 1000,
    filesPerAddress: 1000,
  }),
);

interface Call {
  method?: string;
  token?: string;
  origin?: string | null;
  body?: unknown;
  raw?: string;
  address?: string;
  channel?: string;
}

async function call(action: string, options: Call = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': options.address ?? '10.0.0.1' };
  if (options.origin !== null) headers.origin = options.origin ?? SITE;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}/api/channels/widget/${options.channel ?? key}/${action}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function openDialog(channel = key) {
  const opened = await call('dialog', { method: 'POST', address: `10.1.0.${nextAddress++}`, channel });
  expect(opened.status).toBe(201);
  return opened.body as { recipient: string; token: string };
}

const messagesOf = async (token: string, after?: string) =>
  (await call(after ? `messages?after=${after}` : 'messages', { token })).body.messages as WidgetMessage[];

const stream = (token: string, lastEventId?: string) =>
  openTestStream(`${server.url}/api/channels/widget/${key}/events`, {
    origin: SITE,
    authorization: `Bearer ${token}`,
    ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
  });

describe('origins', () => {
  it('answers an allowed site with its config and CORS headers, and no origins list', async () => {
    const config = await call('config');
    expect(config.status).toBe(200);
    expect(config.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(config.body).toMatchObject({ title: 'Shop chat', position: 'right', theme: 'auto' });
    expect(config.body.allowedOrigins).toBeUndefined();
    const preflight = await call('messages', { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('refuses any other site, and a request with no origin, storing nothing', async () => {
    const before = await db.client.count({ where: { projectId } });
    for (const origin of ['http://evil.test', 'https://shop.test', null]) {
      for (const action of ['config', 'dialog']) {
        const refused = await call(action, { origin, method: action === 'dialog' ? 'POST' : 'GET' });
        expect(refused.status).toBe(403);
        expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    const { token } = await openDialog();
    const sent = await call('messages', { origin: 'http://evil.test', token, body: { text: 'hi' } });
    expect(sent.status).toBe(403);
    expect(await db.client.count({ where: { projectId } })).toBe(before + 1);
    expect(await db.message.count({ where: { projectId } })).toBe(0);
  });

  it('answers an unknown or malformed channel key 404', async () => {
    expect((await call('config', { channel: 'wAAAAAAAAAAAAAAAA' })).status).toBe(404);
    expect((await call('config', { channel: '../../x' })).status).toBe(404);
  });
});

describe('a dialog', () => {
  it('is opened with a recipient the public API knows and a token stored only as its hash', async () => {
    const { recipient, token } = await openDialog();
    expect(recipient).toMatch(/^w-[A-Za-z0-9_-]{16}$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const client = await db.client.findFirstOrThrow({
      where: { projectId, clientType: 5, platformId: recipient },
      include: { widgetVisitor: true },
    });
    expect(client.groupId).toBe(key);
    expect(client.widgetVisitor?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(client)).not.toContain(token);
  });

  it('talks to the bot: buttons in rows, attachments, only safe links; a pressed button is a message', async () => {
    const { token } = await openDialog();
    expect(await messagesOf(token)).toEqual([]);
    expect((await call('messages', { token, body: { text: 'hello' } })).status).toBe(200);
    const [hello, welcome] = await messagesOf(token);
    expect(hello).toMatchObject({ from: 'visitor', text: 'hello' });
    expect(welcome).toMatchObject({
      from: 'bot',
      text: 'Welcome',
      attachments: [{ type: 'image', url: 'https://cdn.example/menu.png' }],
      replies: [
        [
          { text: 'Yes', send: 'Yes' },
          { text: 'No', send: 'No' },
        ],
      ],
      inline: [
        [{ text: 'Menu', send: 'menu' }],
        [{ text: 'Site', url: 'https://shop.example/' }],
        [{ text: 'Bad' }],
      ],
    });
    await call('messages', { token, body: { text: 'menu' } });
    const after = await messagesOf(token, welcome.id);
    expect(after.map((m) => m.text)).toEqual(['menu', 'The menu']);
  });

  it('keeps the reply buttons under an answer from a block the visitor is not in, until a block of theirs has none', async () => {
    const { token } = await openDialog();
    await call('messages', { token, body: { text: 'hello' } });
    await call('messages', { token, body: { text: 'hours' } });
    const [, welcome, , hours] = await messagesOf(token);
    expect(welcome).toMatchObject({ text: 'Welcome', keepsReplies: false });
    // The not-a-state answer leaves the visitor in the welcome block: its Yes and No stay.
    expect(hours).toMatchObject({ text: 'We open at 9', replies: [], keepsReplies: true });
    await call('messages', { token, body: { text: 'Yes' } });
    const yes = (await messagesOf(token, hours.id)).at(-1);
    expect(yes).toMatchObject({ text: 'You said yes', replies: [], keepsReplies: false });
  });

  it('takes half an emoji (a lone surrogate, which JSON lets a page send) with U+FFFD in its place', async () => {
    const { recipient, token } = await openDialog();
    expect((await call('messages', { token, body: { text: 'menu \ud83d' } })).status).toBe(200);
    expect((await messagesOf(token)).map((m) => m.text)).toEqual(['menu \ufffd', 'Welcome']);
    const identified = await call('identify', {
      token,
      body: { name: 'Ann \udc00', tag: '\ud83d', variables: { 'client.note': 'a\ud83d', 'city\ud83d': 'b' } },
    });
    expect(identified.status).toBe(200);
    const client = await db.client.findFirstOrThrow({ where: { platformId: recipient } });
    expect(client).toMatchObject({ name: 'Ann \ufffd', tag: '\ufffd' });
  });

  it('stores and runs a message sent again with the same id once (its answer was lost), another id again', async () => {
    const { token } = await openDialog();
    const send = (id: string) => call('messages', { token, body: { text: 'menu', id } });
    expect((await send('first-try-1')).status).toBe(200);
    // The widget sends again, with the same id, when the answer did not reach it.
    expect((await send('first-try-1')).status).toBe(200);
    expect((await messagesOf(token)).map((m) => m.text)).toEqual(['menu', 'The menu']);
    expect((await send('second-try-2')).status).toBe(200);
    expect((await messagesOf(token)).map((m) => m.text)).toEqual(['menu', 'The menu', 'menu', 'The menu']);
    expect((await call('messages', { token, body: { text: 'menu', id: 'a b' } })).body.message).toContain(
      'id is 8 to 64',
    );
  });

  it('is read only with its own token: not another visitor’s, not the recipient, not on another widget', async () => {
    const a = await openDialog();
    const b = await openDialog();
    await call('messages', { token: a.token, body: { text: 'secret of a' } });
    expect((await messagesOf(b.token)).map((m) => m.text)).toEqual([]);
    for (const token of [a.recipient, 'x'.repeat(43), '', undefined]) {
      const refused = await call('messages', { token });
      expect(refused.status).toBe(401);
      expect(JSON.stringify(refused.body)).not.toContain('secret of a');
    }
    expect((await call('messages', { token: a.token, channel: otherKey })).status).toBe(401);
    const before = await db.message.count({ where: { projectId } });
    expect((await call('messages', { token: a.recipient, body: { text: 'as a' } })).status).toBe(401);
    expect(await db.message.count({ where: { projectId } })).toBe(before);
  });

  it('identifies the visitor: name, tag and variables within the limits', async () => {
    const { recipient, token } = await openDialog();
    const ok = await call('identify', {
      token,
      body: {
        name: 'Ann Lee',
        tag: 'vip',
        variables: { plan: 'gold', 'client.email': 'ann@example.com', n: 3 },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ recipient });
    const client = await db.client.findFirstOrThrow({ where: { platformId: recipient } });
    expect(client).toMatchObject({ name: 'Ann Lee', tag: 'vip' });
    const variables = await db.clientVariable.findMany({ where: { clientId: client.id } });
    expect(variables).toEqual([expect.objectContaining({ name: 'email', value: 'ann@example.com' })]);
    const project = await call('identify', { token, body: { variables: { 'project.x': '1' } } });
    expect(project.status).toBe(400);
    expect(project.body.message).toContain('project constant');
  });
});

describe('history paging', () => {
  it('gives the newest page, then each earlier one before its first message, to the first', async () => {
    const { recipient, token } = await openDialog();
    const client = await db.client.findFirstOrThrow({ where: { projectId, platformId: recipient } });
    const texts = Array.from({ length: 230 }, (_, i) => `m${i}`);
    await db.message.createMany({
      data: texts.map((text, i) => ({
        projectId,
        clientId: client.id,
        direction: i % 2 ? ('out' as const) : ('in' as const),
        text,
      })),
    });
    const pages: string[][] = [];
    let page = (await call('messages', { token })).body;
    for (;;) {
      pages.unshift(page.messages.map((m: WidgetMessage) => m.text));
      if (!page.more) break;
      page = (await call(`messages?before=${page.messages[0].id}`, { token })).body;
    }
    expect(pages.map((p) => p.length)).toEqual([30, 100, 100]);
    expect(pages.flat()).toEqual(texts);
    // Another visitor's token pages nothing of this dialog, even from its ids.
    const other = await openDialog();
    const foreign = await call(`messages?before=${page.messages.at(-1).id}`, { token: other.token });
    expect(foreign.body).toEqual({ messages: [], more: false });
    expect((await call(`messages?before=${page.messages[0].id}`, { token: recipient })).status).toBe(401);
  });
});

describe('bad input', () => {
  it('gets a 4xx naming the problem, and stores nothing', async () => {
    const { token } = await openDialog();
    const cases: [Call, number, string][] = [
      [{ raw: 'not json' }, 400, 'not JSON'],
      [{ body: { text: '' } }, 400, 'empty'],
      [{ body: { text: 'x'.repeat(4001) } }, 400, '4000'],
      [{ body: { text: 5 } }, 400, 'text'],
      [{ body: [] }, 400, ''],
      [{ raw: JSON.stringify({ text: 'x'.repeat(20_000) }) }, 413, 'KiB'],
    ];
    for (const [options, status, message] of cases) {
      const answer = await call('messages', { token, ...options });
      expect(answer.status, JSON.stringify(options).slice(0, 60)).toBe(status);
      expect(answer.body.message).toContain(message);
    }
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x']));
    expect((await call('identify', { token, body: { variables: many } })).status).toBe(400);
    expect((await call('identify', { token, body: { name: 'x'.repeat(201) } })).status).toBe(400);
    expect((await call('identify', { token, raw: JSON.stringify({ n: 'x'.repeat(70_000) }) })).status).toBe(
      413,
    );
    for (const query of [
      'after=abc',
      'before=-1',
      'before=99999999999999999999',
      'before=9999999999999999999',
    ])
      expect((await call(`messages?${query}`, { token })).body.message, query).toMatch(
        /must be a message id/,
      );
    expect((await call('messages?after=1&before=5', { token })).body.message).toMatch(/not both/);
    expect((await call('nothing', { token })).status).toBe(404);
    expect(
      await db.message.count({
        where: { client: { widgetVisitor: { tokenHash: { not: '' } } }, text: { startsWith: 'x' } },
      }),
    ).toBe(0);
  });
});

describe('rate limits', () => {
  it('refuses new dialogs per address and messages per visitor with a clear 429', async () => {
    setWidgetLimits({ ...DEFAULT_WIDGET_LIMITS, dialogsPerAddress: 2, messagesPerVisitor: 2 });
    const address = '192.0.2.7';
    const first = await call('dialog', { method: 'POST', address });
    expect((await call('dialog', { method: 'POST', address })).status).toBe(201);
    const refused = await call('dialog', { method: 'POST', address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(refused.body.message).toMatch(/Too many new dialogs.*try again in \d+ s/);
    expect((await call('dialog', { method: 'POST', address: '192.0.2.8' })).status).toBe(201);

    const { token } = first.body;
    await call('messages', { token, address, body: { text: 'one' } });
    await call('messages', { token, address, body: { text: 'two' } });
    const flood = await call('messages', { token, address, body: { text: 'three' } });
    expect(flood.status).toBe(429);
    expect(flood.body.message).toMatch(/Too many messages/);
    expect((await messagesOf(token)).filter((m) => m.from === 'visitor').map((m) => m.text)).toEqual([
      'one',
      'two',
    ]);
  });

  it('counts messages per address across visitors', async () => {
    setWidgetLimits({ ...DEFAULT_WIDGET_LIMITS, messagesPerAddress: 3 });
    const address = '198.51.100.9';
    const [a, b] = [await openDialog(), await openDialog()];
    const statuses = [];
    for (const token of [a.token, b.token, a.token, b.token])
      statuses.push((await call('messages', { token, address, body: { text: 'hi' } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('the live stream', () => {
  it('sends what came after Last-Event-ID, then new messages, each once and in order', async () => {
    const { token } = await openDialog();
    await call('messages', { token, body: { text: 'hello' } });
    const [hello, welcome] = await messagesOf(token);

    const live = stream(token, hello.id);
    const response = await live.response;
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('access-control-allow-origin')).toBe(SITE);
    await live.until(() => live.messages().length === 1, 'the message after the last one');
    expect(live.messages()[0]).toMatchObject({ id: welcome.id, text: 'Welcome' });
    expect(live.frames[0].id).toBe(welcome.id);

    await call('messages', { token, body: { text: 'Yes' } });
    await live.until(() => live.messages().length === 3, 'the new message and its reply');
    const texts = live.messages().map((m) => m.text);
    expect(texts).toEqual(['Welcome', 'Yes', 'You said yes']);
    // The bot was typing while it worked on the message, and stopped.
    await live.until(
      () => live.frames.some((f) => f.event === 'typing' && !(f.data as { on: boolean }).on),
      'typing off',
    );
    const typing = live.frames.filter((f) => f.event === 'typing').map((f) => (f.data as { on: boolean }).on);
    expect(typing[0]).toBe(true);
    expect(typing.at(-1)).toBe(false);
    await live.close();

    // A reconnect from the last id it had: nothing again, and what came while it was away.
    const lastSeen = live.messages().at(-1)!.id;
    await call('messages', { token, body: { text: 'menu' } });
    const again = stream(token, lastSeen);
    await again.until(() => again.messages().length === 2, 'the messages sent while away');
    expect(again.messages().map((m) => m.text)).toEqual(['menu', 'The menu']);
    await again.close();
  });

  it('delivers an operator’s answer from the inbox', async () => {
    const { recipient, token } = await openDialog();
    const client = await db.client.findFirstOrThrow({ where: { platformId: recipient } });
    const member = await db.projectMember.findFirstOrThrow({ where: { projectId } });
    const live = stream(token, '0');
    await live.response;
    const reply = await replyToClient(
      await getEngineDeps(),
      projectId,
      member.id,
      client.id,
      'An operator here',
    );
    expect(reply).toMatchObject({ delivered: true, error: null });
    await live.until(() => live.messages().length === 1, 'the operator’s answer');
    // Signed with the operator's name (never their e-mail), with their photo where they have one.
    expect(live.messages()[0]).toMatchObject({
      from: 'bot',
      text: 'An operator here',
      operator: { name: member.name || 'w' },
    });
    expect(live.messages()[0].operator?.avatar).toBeUndefined();
    await owner.team.setChatProfile({
      projectId,
      name: 'Ann from support',
      avatarUrl: 'https://cdn.example/w.png',
    });
    const history = await messagesOf(token);
    expect(history.at(-1)?.operator).toEqual({
      name: 'Ann from support',
      avatar: 'https://cdn.example/w.png',
    });
    // A photo that is not an http(s) address is refused, naming the field.
    await expect(
      owner.team.setChatProfile({ projectId, name: 'Ann', avatarUrl: 'javascript:alert(1)' }),
    ).rejects.toThrow(/The photo must be an http\(s\) address/);
    expect(history.filter((m) => m.operator)).toHaveLength(1);
    await expect(channelFor(5).call(projectId, 'tg_set_my_commands', {}, { db })).rejects.toThrow(
      /not a function of the chat widget/,
    );
    await live.close();
  });

  it('refuses an unknown token', async () => {
    const refused = await call('events', { token: 'y'.repeat(43) });
    expect(refused.status).toBe(401);
  });
});
