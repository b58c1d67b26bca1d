import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { startWorkers } from '@/server/jobs/jobs';
import { createProject } from '@/server/projects/project-service';
import type { RouteServer } from '@/server/testing/route-server';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { channelSweepJob } from '../inbound/pipeline';
import { serveChannelRoutes } from '../testing/channel-routes';
import { connectTgChannel } from './channel-service';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

/**
 * Clients' avatars and the files they send, through our signed route: updates go from the fake
 * Bot API to the real webhook route over HTTP, the stored URLs are opened over HTTP at the file
 * route, which fetches from the fake (getUserProfilePhotos, getFile, /file/bot<token>/<path>).
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-tg-files-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeBotApi;
let server: RouteServer;
let routeUrl: string;

async function newBot(username: string) {
  const bot = fake.addBot({ username });
  const project = await createProject(db, { name: username, plan: 'business' });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Hi', trigger: { alternatives: '' } }],
    arrows: [],
  });
  const channel = await connectTgChannel(
    db,
    project.id,
    { token: bot.token, mode: 'webhook' },
    async () => {},
  );
  return { bot, channelId: channel.id, projectId: project.id };
}

const photo = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
const pdf = new TextEncoder().encode('%PDF-1.4 <script>alert(1)</script>');

let shop: Awaited<ReturnType<typeof newBot>>;
let other: Awaited<ReturnType<typeof newBot>>;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ limits: null });
  server = await serveChannelRoutes();
  routeUrl = server.url;
  process.env.BLOCKBOT_TG_API_ROOT = fake.url;
  process.env.BLOCKBOT_BASE_URL = routeUrl;
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  await startWorkers([channelSweepJob] as never);
  shop = await newBot('files_shop_bot');
  other = await newBot('files_other_bot');
});
afterAll(async () => {
  await app?.dispose();
  await fake?.close();
  server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function message(bot: FakeBot, chat: number, fields: Record<string, unknown>) {
  return fake.pushUpdate(bot.token, {
    message: {
      message_id: 1,
      date: 1_700_000_000,
      chat: {
        id: chat,
        type: chat > 0 ? 'private' : 'group',
        ...(chat > 0 ? { first_name: 'Ann' } : { title: 'Team' }),
      },
      from: { id: Math.abs(chat), is_bot: false, first_name: 'Ann', username: 'ann' },
      ...fields,
    },
  });
}

const clientOf = (projectId: number, chat: number) =>
  waitFor(() => db.client.findFirst({ where: { projectId, platformId: String(chat) } }), `client ${chat}`);

/** Everything stored about the project's clients and messages, to look for the token in. */
async function storedRows(projectId: number): Promise<string> {
  const rows = await Promise.all([
    db.client.findMany({ where: { projectId } }),
    db.message.findMany({ where: { projectId } }),
    db.clientVariable.findMany({ where: { client: { projectId } } }),
  ]);
  return JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? String(v) : v));
}

describe('avatars and files of tg clients', () => {
  it('gives a new private client an avatar address that serves its profile photo', async () => {
    const chat = 4101;
    fake.setProfilePhoto(shop.bot.token, chat, photo);
    expect(await message(shop.bot, chat, { text: 'hello' })).toMatchObject({ status: 200 });
    const client = await clientOf(shop.projectId, chat);
    expect(client.avatar).toMatch(
      new RegExp(`^${routeUrl}/api/channels/tg/${shop.channelId}/avatar/${chat}\\?sig=[\\w-]{32}$`),
    );
    const response = await fetch(client.avatar);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(photo);
    // The small size was asked for, then downloaded with the token, which stays on the server.
    expect(fake.callsOf('getUserProfilePhotos', shop.bot.token).at(-1)?.params).toMatchObject({
      user_id: chat,
    });
    expect(await storedRows(shop.projectId)).not.toContain(shop.bot.token);
  });

  it('answers 404 for a client without a profile photo, and gives groups no avatar', async () => {
    const chat = 4102;
    await message(shop.bot, chat, { text: 'hi' });
    const client = await clientOf(shop.projectId, chat);
    const response = await fetch(client.avatar);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(shop.bot.token);
    await message(shop.bot, -4103, { text: 'hi all' });
    expect((await clientOf(shop.projectId, -4103)).avatar).toBe('');
  });

  it('stores a sent photo and document as signed addresses that serve them', async () => {
    const chat = 4104;
    const photoId = fake.addFile(shop.bot.token, photo, { path: 'photos/file_7.jpg' });
    const docId = fake.addFile(shop.bot.token, pdf, { path: 'documents/file_8.html' });
    await message(shop.bot, chat, {
      photo: [
        { file_id: 'thumb', width: 90, height: 90 },
        { file_id: photoId, width: 800, height: 800 },
      ],
      caption: 'look',
    });
    const client = await clientOf(shop.projectId, chat);
    await message(shop.bot, chat, { document: { file_id: docId, file_name: 'x.html' }, message_id: 2 });
    const messages = await waitFor(async () => {
      const found = await db.message.findMany({
        where: { clientId: client.id, direction: 'in' },
        orderBy: { id: 'asc' },
      });
      return found.length === 2 && found;
    }, 'both messages');
    const [image, document] = messages.map((m) => (m.attachments as { type: string; url: string }[])[0]);
    expect(image).toEqual({
      type: 'image',
      url: expect.stringContaining(`/api/channels/tg/${shop.channelId}/file/${photoId}?sig=`),
    });
    expect(document.type).toBe('file');

    const shown = await fetch(image.url);
    expect(shown.status).toBe(200);
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(photo);
    // A file that is not an image, audio or video is a download, and never runs as our page.
    const downloaded = await fetch(document.url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('application/octet-stream');
    expect(downloaded.headers.get('content-disposition')).toBe('attachment');
    expect(downloaded.headers.get('x-content-type-options')).toBe('nosniff');
    expect(downloaded.headers.get('content-security-policy')).toContain('sandbox');
    expect(await downloaded.text()).toBe(new TextDecoder().decode(pdf));
    expect(await storedRows(shop.projectId)).not.toContain(shop.bot.token);
  });

  it('refuses forged, moved and unknown addresses with 4xx, never showing the token', async () => {
    const chat = 4105;
    const fileId = fake.addFile(shop.bot.token, photo, { path: 'photos/file_9.jpg' });
    await message(shop.bot, chat, { document: { file_id: fileId } });
    const client = await clientOf(shop.projectId, chat);
    const stored = await waitFor(
      () => db.message.findFirst({ where: { clientId: client.id, direction: 'in' } }),
      'message',
    );
    const url = new URL((stored.attachments as { url: string }[])[0].url);
    const sig = url.searchParams.get('sig') ?? '';
    const at = (pathname: string, signature = sig) => fetch(`${routeUrl}${pathname}?sig=${signature}`);
    const cases: [string, () => Promise<Response>, number][] = [
      ['the signed address', () => at(url.pathname), 200],
      ['no signature', () => fetch(`${routeUrl}${url.pathname}`), 403],
      ['a forged signature', () => at(url.pathname, 'A'.repeat(32)), 403],
      // The same file id and signature at another project's bot.
      [
        'another channel',
        () => at(url.pathname.replace(`/tg/${shop.channelId}/`, `/tg/${other.channelId}/`)),
        403,
      ],
      ['another file', () => at(url.pathname.replace(fileId, `${fileId}x`)), 403],
      ['another kind', () => at(url.pathname.replace('/file/', '/avatar/')), 400],
      ['an unknown channel', () => at('/api/channels/tg/999999/file/abc'), 403],
      ['a bad id', () => at(`/api/channels/tg/${shop.channelId}/file/${encodeURIComponent('../x')}`), 400],
    ];
    for (const [what, response, status] of cases) {
      const answer = await response();
      expect(answer.status, what).toBe(status);
      if (status !== 200) expect(await answer.text(), what).not.toContain(shop.bot.token);
    }
    // An id the messenger does not know, signed by us (e.g. from an older bot): a 404.
    const { tgFileUrl } = await import('./files');
    const unknown = await fetch(tgFileUrl(shop.channelId, 'file', 'no-such-file'));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain(shop.bot.token);
    // Over the Bot API's 20 MB a bot cannot download it at all.
    const huge = fake.addFile(shop.bot.token, new Uint8Array(20 * 1024 * 1024 + 1), {
      path: 'videos/big.mp4',
    });
    expect((await fetch(tgFileUrl(shop.channelId, 'file', huge))).status).toBe(413);
  });

  it('streams a file through whole, with its length', async () => {
    const { tgFileUrl } = await import('./files');
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
    const fileId = fake.addFile(shop.bot.token, bytes, { path: 'videos/clip.mp4' });
    const response = await fetch(tgFileUrl(shop.channelId, 'file', fileId));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('cuts a file the messenger gives larger than the 20 MB it said it allows, with an error', async () => {
    const { tgFileUrl, MAX_TG_FILE_BYTES } = await import('./files');
    // getFile says 1 KB; the download goes on past the cap, with no length to refuse it by.
    const fileId = fake.addFile(shop.bot.token, new Uint8Array(MAX_TG_FILE_BYTES + 64 * 1024), {
      path: 'documents/grown.bin',
      reportedSize: 1024,
    });
    // The answer is cut at the cap: fetching it fails (its headers may not even have left)
    // instead of ending as if it were whole.
    let received = 0;
    const whole = async () => {
      const response = await fetch(tgFileUrl(shop.channelId, 'file', fileId));
      expect(response.headers.get('content-length')).toBeNull();
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += value.byteLength;
      }
    };
    await expect(whole()).rejects.toThrow();
    expect(received).toBeLessThanOrEqual(MAX_TG_FILE_BYTES);
  });
});
