import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resultOf } from '@/lib/channels/operation-result';
import { MAX_FILE_BYTES } from '@/lib/files/file-types';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import type { WidgetMessage } from '@/lib/widget/messages';
import { urlSignature } from '@/server/config/url-signature';
import { clearHistory } from '@/server/contacts/history-service';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { startRecordingReceiver } from '@/server/testing/recording-receiver';
import { waitFor } from '@/server/testing/wait-for';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { saveAndPublish } from '@/server/versions/bot-versions';
import type { createWidgetChannel } from './channel-service';
import { DEFAULT_WIDGET_LIMITS, setWidgetLimits } from './limits';
import { serveWidgetRoute } from './testing/route-server';

/**
 * The widget's file uploads over real HTTP, as widget.js sends them: stored in the database,
 * served back by a signed address with safe headers, through the engine (the bot's
 * `#{attachment_url}`, the webhook), and refused before anything is stored when they are too
 * large, of a refused type, or not what their type says.
 */

const SITE = 'http://shop.test';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-widget-files-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: Awaited<ReturnType<typeof serveWidgetRoute>>;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
let webhookSecret: string;
let projectId: number;
let key: string;
let otherKey: string;
let nextAddress = 1;

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000d4944415478da63f8cfc0f01f0005000201a1d4b5a70000000049454e44ae426082', 'hex'),
]);

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await serveWidgetRoute();
  receiver = await startRecordingReceiver();
  const { startWorkers } = await import('@/server/jobs/jobs');
  const { jobDefinitions } = await import('@/server/jobs/registry');
  await startWorkers(jobDefinitions);

  const owner = await signedInCaller(db, 'f@example.com');
  projectId = (
    await createProject(db, {
      name: 'f',
      plan: 'business',
      owner: { email: 'f@example.com', userId: 'u-f@example.com' },
    })
  ).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Got #{attachment_url}',
        trigger: { alternatives: '' },
        attachments: [{ type: 'image', url: '#{attachment_url}' }],
      },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  ({ webhookSecret } = await db.project.update({
    where: { id: projectId },
    data: { webhookUrl: receiver.url },
  }));
  key = resultOf<typeof createWidgetChannel>(
    await owner.channels.connect({ kind: 'widget', projectId, settings: { allowedOrigins: [SITE] } }),
  )!.key;
  otherKey = resultOf<typeof createWidgetChannel>(
    await owner.channels.connect({ kind: 'widget', projectId, settings: { allowedOrigins: [SITE] } }),
  )!.key;
});

afterAll(async () => {
  server?.close();
  receiver?.close();
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

interface Upload {
  token?: string;
  name?: string | null;
  type?: string;
  body?: BodyInit;
  caption?: string;
  id?: string;
  origin?: string;
  channel?: string;
  address?: string;
  headers?: Record<string, string>;
}

async function upload(options: Upload = {}) {
  const headers: Record<string, string> = {
    origin: options.origin ?? SITE,
    'x-forwarded-for': options.address ?? '10.0.0.1',
    'content-type': options.type ?? 'image/png',
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.name !== null) headers['x-file-name'] = encodeURIComponent(options.name ?? 'photo.png');
  if (options.caption !== undefined) headers['x-caption'] = encodeURIComponent(options.caption);
  if (options.id) headers['x-message-id'] = options.id;
  const body = options.body ?? PNG;
  const response = await fetch(`${server.url}/api/channels/widget/${options.channel ?? key}/files`, {
    method: 'POST',
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function openDialog(channel = key) {
  const response = await fetch(`${server.url}/api/channels/widget/${channel}/dialog`, {
    method: 'POST',
    headers: { origin: SITE, 'x-forwarded-for': `10.2.0.${nextAddress++}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { recipient: string; token: string };
}

async function messagesOf(token: string): Promise<WidgetMessage[]> {
  const response = await fetch(`${server.url}/api/channels/widget/${key}/messages`, {
    headers: { origin: SITE, authorization: `Bearer ${token}` },
  });
  return (await response.json()).messages;
}

/** A stored file's address, on the test server. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${server.url}${parsed.pathname}${parsed.search}`;
};

const counts = async () => ({
  files: await db.storedFile.count({ where: { projectId } }),
  messages: await db.message.count({ where: { projectId } }),
});

describe('an upload', () => {
  it('is stored, sent through the engine with its address in #{attachment_url}, and served back', async () => {
    const { token } = await openDialog();
    const sent = await upload({ token, name: 'my "photo" ünï.png', caption: 'Look at this' });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('access-control-allow-origin')).toBe(SITE);
    const { file } = sent.body;
    expect(file).toMatchObject({ name: 'my "photo" ünï.png', size: PNG.length, type: 'image' });
    expect(file.url).toMatch(/\/api\/files\/[A-Za-z0-9_-]{22}\/my%20%22photo%22%20%C3%BCn%C3%AF\.png\?sig=/);

    const [mine, reply] = await messagesOf(token);
    expect(mine).toMatchObject({
      from: 'visitor',
      text: 'Look at this',
      attachments: [{ type: 'image', url: file.url }],
    });
    // The bot got the file's address: in its text and as its own attachment.
    expect(reply).toMatchObject({
      from: 'bot',
      text: `Got ${file.url}`,
      attachments: [{ type: 'image', url: file.url }],
    });

    const stored = await db.storedFile.findFirstOrThrow({ where: { projectId } });
    expect(stored).toMatchObject({ mimeType: 'image/png', size: PNG.length });
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);

    // Read back by its address, with no cookie or token: what an <img> on the site does.
    const served = await fetch(local(file.url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect(Object.fromEntries(served.headers)).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=86400',
      'cross-origin-resource-policy': 'cross-origin',
      'content-disposition': `inline; filename*=UTF-8''my%20%22photo%22%20%C3%BCn%C3%AF.png`,
      etag: `"${stored.sha256}"`,
    });
    const again = await fetch(local(file.url), { headers: { 'if-none-match': `"${stored.sha256}"` } });
    expect(again.status).toBe(304);

    // The webhook carries the visitor's message with its file.
    const hook = new Webhook(webhookSecret);
    const payload = await waitFor(
      async () =>
        receiver.received
          .map((r) => hook.verify(r.body, r.headers as Record<string, string>) as Record<string, unknown>)
          .find((p) => p.is_input === 1),
      'the webhook of the visitor’s message',
    );
    expect(payload).toMatchObject({
      message: 'Look at this',
      attachments: [{ type: 'image', url: file.url }],
    });
  });

  it('is served as a download unless it is an image, audio or video', async () => {
    const { token } = await openDialog();
    const pdf = await upload({
      token,
      name: 'price list.pdf',
      type: 'application/pdf',
      body: '%PDF-1.4\n%%EOF',
    });
    expect(pdf.status).toBe(200);
    expect(pdf.body.file.type).toBe('file');
    const served = await fetch(local(pdf.body.file.url));
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''price%20list.pdf`);
    const note = await upload({
      token,
      name: 'note.txt',
      type: 'text/plain; charset=utf-8',
      body: '<b>hi</b>',
    });
    expect(note.body.file.type).toBe('file');
    const text = await fetch(local(note.body.file.url));
    expect(text.headers.get('content-type')).toBe('text/plain');
    expect(text.headers.get('content-disposition')).toMatch(/^attachment;/);
    const song = await upload({ token, name: 'a.mp3', type: 'audio/mpeg', body: 'ID3 and the rest' });
    expect(song.body.file.type).toBe('audio');
    const played = await fetch(local(song.body.file.url));
    expect(played.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(played.headers.get('accept-ranges')).toBe('bytes');
    // A player asks for ranges of it.
    const range = async (header: string) => {
      const answer = await fetch(local(song.body.file.url), { headers: { range: header } });
      return { status: answer.status, range: answer.headers.get('content-range'), body: await answer.text() };
    };
    expect(await range('bytes=4-6')).toEqual({ status: 206, range: 'bytes 4-6/16', body: 'and' });
    expect(await range('bytes=12-')).toEqual({ status: 206, range: 'bytes 12-15/16', body: 'rest' });
    expect(await range('bytes=-4')).toEqual({ status: 206, range: 'bytes 12-15/16', body: 'rest' });
    expect(await range('bytes=16-')).toMatchObject({ status: 416, range: 'bytes */16' });
    expect(await range('bytes=0-1,4-5')).toMatchObject({ status: 200, body: 'ID3 and the rest' });
  });

  it('sent again with the same id (its answer was lost) is stored and run once', async () => {
    const { token } = await openDialog();
    const before = await counts();
    const first = await upload({ token, id: 'upload-retry-1' });
    const second = await upload({ token, id: 'upload-retry-1' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.file.url).toBe(first.body.file.url);
    expect(await counts()).toEqual({ files: before.files + 1, messages: before.messages + 2 });
    expect((await messagesOf(token)).map((m) => m.from)).toEqual(['visitor', 'bot']);
    const third = await upload({ token, id: 'upload-retry-2' });
    expect(third.body.file.url).not.toBe(first.body.file.url);
  });

  it('goes only into the dialog of its own token, and only on its own widget', async () => {
    const a = await openDialog();
    const b = await openDialog();
    const sent = await upload({ token: a.token, name: 'secret-of-a.png' });
    expect((await messagesOf(b.token)).map((m) => m.text)).toEqual([]);
    const before = await counts();
    for (const token of [a.recipient, 'x'.repeat(43), undefined]) {
      const refused = await upload({ token });
      expect(refused.status).toBe(401);
      expect(JSON.stringify(refused.body)).not.toContain('secret-of-a');
    }
    expect((await upload({ token: a.token, channel: otherKey })).status).toBe(401);
    expect((await upload({ token: a.token, origin: 'http://evil.test' })).status).toBe(403);
    expect(await counts()).toEqual(before);
    // b's upload is b's: a's dialog does not get it.
    await upload({ token: b.token, name: 'of-b.png' });
    const ofA = await messagesOf(a.token);
    expect(ofA.filter((m) => m.from === 'visitor').map((m) => m.attachments[0].url)).toEqual([
      sent.body.file.url,
    ]);
  });

  it('passes the preflight with the upload’s headers', async () => {
    const preflight = await fetch(`${server.url}/api/channels/widget/${key}/files`, {
      method: 'OPTIONS',
      headers: { origin: SITE },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-file-name');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-message-id');
  });
});

describe('the signed address', () => {
  it('refuses a wrong signature 403, an unknown file 404, and a file whose client was deleted 404', async () => {
    const { token, recipient } = await openDialog();
    const { url } = (await upload({ token })).body.file;
    const wrong = local(url).replace(/sig=[^&]+/, `sig=${'A'.repeat(32)}`);
    expect((await fetch(wrong)).status).toBe(403);
    expect((await fetch(local(url).replace(/\?.*$/, ''))).status).toBe(403);
    const unknown = 'A'.repeat(22);
    const signed = `${server.url}/api/files/${unknown}/x.png?sig=${urlSignature('stored-file-url', [unknown])}`;
    expect((await fetch(signed)).status).toBe(404);
    // Another purpose's signature (a tg file's) does not open a stored file.
    const tgSig = urlSignature('tg-file-url', [unknown]);
    expect((await fetch(`${server.url}/api/files/${unknown}/x.png?sig=${tgSig}`)).status).toBe(403);

    await db.client.deleteMany({ where: { platformId: recipient } });
    expect((await fetch(local(url))).status).toBe(404);
  });

  it("no longer opens a file once its client's history is cleared", async () => {
    const { token, recipient } = await openDialog();
    const { url } = (await upload({ token })).body.file;
    expect((await fetch(local(url))).status).toBe(200);
    const client = await db.client.findFirstOrThrow({ where: { platformId: recipient } });
    expect(await clearHistory(db, client.projectId, client.id)).toBeGreaterThan(0);
    expect((await fetch(local(url))).status).toBe(404);
  });
});

describe('a refused upload', () => {
  it('over the cap is 413, by its declared length or as it streams, with nothing stored', async () => {
    const { token } = await openDialog();
    const before = await counts();
    const big = Buffer.alloc(MAX_FILE_BYTES + 1, 0);
    PNG.copy(big);
    const declared = await upload({ token, body: big });
    expect(declared.status).toBe(413);
    expect(declared.body.message).toContain('10 MB');
    // No Content-Length: the body is read up to the cap and no further.
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled > MAX_FILE_BYTES + 1024 * 1024) return controller.close();
        pulled += 256 * 1024;
        controller.enqueue(new Uint8Array(256 * 1024));
      },
    });
    // The server stops reading and answers: this connection is not reused after.
    const streamed = await upload({ token, body: stream, headers: { connection: 'close' } });
    expect(streamed.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it('of a refused type is 415 naming what may be sent; an HTML page labelled image/png too', async () => {
    const { token } = await openDialog();
    const before = await counts();
    for (const type of ['text/html', 'application/x-msdownload', 'image/svg+xml', '']) {
      const refused = await upload({ token, type, body: '<html><script>alert(1)</script></html>' });
      expect(refused.status, type).toBe(415);
      expect(refused.body.message).toContain('images (JPEG, PNG, GIF, WebP), PDF, plain text');
    }
    const disguised = await upload({
      token,
      type: 'image/png',
      name: 'cat.png',
      body: '<html><script>alert(1)</script></html>',
    });
    expect(disguised.status).toBe(415);
    expect(disguised.body.message).toContain('labelled image/png but its content is not');
    expect(await counts()).toEqual(before);
  });

  it('with a bad name, caption or id is 400 naming the header', async () => {
    const { token } = await openDialog();
    const before = await counts();
    const cases: [Upload, string][] = [
      [{ name: null }, 'x-file-name: the file name is required'],
      [{ name: '../../etc/passwd' }, 'x-file-name'],
      [{ name: 'a\\b.png' }, 'x-file-name'],
      [{ name: 'line\nbreak.png' }, 'control characters'],
      [{ name: '..' }, 'only dots'],
      [{ name: `${'x'.repeat(300)}.png` }, '255'],
      [{ caption: 'x'.repeat(4001) }, 'x-caption'],
      [{ id: 'a b' }, 'x-message-id: id is 8 to 64'],
      [{ body: new Uint8Array() }, 'empty'],
    ];
    for (const [options, message] of cases) {
      const refused = await upload({ token, ...options });
      expect(refused.status, message).toBe(400);
      expect(refused.body.message).toContain(message);
    }
    const raw = await fetch(`${server.url}/api/channels/widget/${key}/files`, {
      method: 'POST',
      headers: {
        origin: SITE,
        authorization: `Bearer ${token}`,
        'content-type': 'image/png',
        'x-file-name': '%E0%A4%A',
      },
      body: PNG,
    });
    expect(raw.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('counts as a message against the rate limits: 429, nothing stored', async () => {
    setWidgetLimits({ ...DEFAULT_WIDGET_LIMITS, messagesPerVisitor: 1 });
    const { token } = await openDialog();
    expect((await upload({ token, address: '203.0.113.5' })).status).toBe(200);
    const before = await counts();
    const refused = await upload({ token, address: '203.0.113.5' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/Too many messages or files; try again in \d+ s/);
    expect(await counts()).toEqual(before);
  });

  it('has limits of its own: files a minute per visitor, whatever its messages allow', async () => {
    setWidgetLimits({ filesPerVisitor: 2 });
    const { token } = await openDialog();
    for (let i = 0; i < 2; i++) expect((await upload({ token, address: '203.0.113.6' })).status).toBe(200);
    const before = await counts();
    const refused = await upload({ token, address: '203.0.113.6' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
    // Another visitor from another address is not refused.
    expect((await upload({ token: (await openDialog()).token, address: '203.0.113.7' })).status).toBe(200);
  });

  it("is refused past the visitor's bytes of a day, saying when to try again; a retry of a stored one is not", async () => {
    // Its own address: the earlier tests' uploads count against 10.0.0.1's files this minute.
    setWidgetLimits({ fileBytesPerVisitorPerDay: PNG.length * 2 });
    const address = '203.0.113.8';
    const { token } = await openDialog();
    expect((await upload({ token, address, id: 'day-file-1' })).status).toBe(200);
    expect((await upload({ token, address, id: 'day-file-2' })).status).toBe(200);
    const before = await counts();
    const refused = await upload({ token, address, id: 'day-file-3' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited' });
    expect(refused.body.message).toMatch(/in a day; try again in 24 h/);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(23 * 3600);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(await counts()).toEqual(before);
    // The second one's answer was lost: sent again, it is the stored file, not a new one.
    const again = await upload({ token, address, id: 'day-file-2' });
    expect(again.status).toBe(200);
    expect(await counts()).toEqual(before);
    // The budget is the visitor's own.
    expect((await upload({ token: (await openDialog()).token, address })).status).toBe(200);
  });
});
