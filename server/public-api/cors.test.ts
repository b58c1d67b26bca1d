import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET, OPTIONS, POST } from '@/app/api/[apiKey]/[action]/route';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject, updateProjectSettings } from '@/server/projects/project-service';
import { servePublicApi } from './production-entry';
import { apiKeyRateKey } from './rate-limit';
import { startApiServer } from './testing/api-server';

const SHOP = 'https://shop.example';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-cors-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let harness: Awaited<ReturnType<typeof startApiServer>>;
let fastPath: http.Server;
let fastPathUrl: string;
/** Keys of projects allowing SHOP, every site (*), and none (the default). */
const keys = { shop: '', any: '', none: '' };
let noneProjectId: number;

beforeAll(async () => {
  process.env.BLOCKBOT_API_RATE_LIMIT = '100000';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  harness = await startApiServer();
  // The production server's fast path alone: what `npm start` serves once the route has loaded.
  fastPath = http.createServer((req, res) => {
    if (!servePublicApi(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fastPath.listen(0, '127.0.0.1', resolve));
  fastPathUrl = `http://127.0.0.1:${(fastPath.address() as AddressInfo).port}`;
  for (const [name, origins] of [
    ['shop', [`${SHOP}/`, 'http://localhost:3000']],
    ['any', ['*']],
    ['none', undefined],
  ] as const) {
    const project = await createProject(db, { name, owner: { email: 'owner@example.com' } });
    if (origins) await updateProjectSettings(db, project.id, { apiAllowedOrigins: [...origins] });
    else noneProjectId = project.id;
    keys[name] = (await createApiKey(db, project.id, { name })).key;
  }
});
afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => fastPath?.close(resolve));
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Send = (apiKey: string, action: string, init: RequestInit) => Promise<Response>;

/** The same calls through each server that answers the API. */
const servers: [string, Send][] = [
  ['the HTTP harness', (apiKey, action, init) => fetch(`${harness.url}/api/${apiKey}/${action}`, init)],
  [
    'the production fast path',
    (apiKey, action, init) => fetch(`${fastPathUrl}/api/${apiKey}/${action}`, init),
  ],
  [
    'the Next.js route handler',
    (apiKey, action, init) => {
      const handler = { GET, POST, OPTIONS }[(init.method ?? 'GET') as 'GET' | 'POST' | 'OPTIONS'];
      const request = new Request(`http://localhost/api/${apiKey}/${action}`, init);
      return handler(request, { params: Promise.resolve({ apiKey, action }) });
    },
  ],
];

const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  },
});
const jsonPost = (origin: string | null, body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
  body: JSON.stringify(body),
});

describe.each(servers)('CORS through %s', (_name, send) => {
  it('answers a preflight from an allowed origin with the methods, the header and a max-age', async () => {
    const response = await send(keys.shop, 'get_variables', preflight(SHOP));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': SHOP,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    const any = await send(keys.any, 'get_variables', preflight('https://anyone.example'));
    expect(any.headers.get('access-control-allow-origin')).toBe('*');
    expect(any.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
  });

  it('gives a refused origin, a project without origins and an unknown key no CORS headers', async () => {
    for (const [apiKey, origin] of [
      [keys.shop, 'https://evil.example'],
      [keys.shop, 'http://shop.example'],
      [keys.none, SHOP],
      ['bb_unknownkey', SHOP],
    ]) {
      const response = await send(apiKey, 'get_variables', preflight(origin));
      expect(response.status, `${apiKey} ${origin}`).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), `${apiKey} ${origin}`).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
    }
  });

  it('lets an allowed page read answers: success, 400 and 404 alike; a refused page gets none', async () => {
    const success = await send(keys.shop, 'get_messages', { method: 'GET', headers: { origin: SHOP } });
    expect(success.status).toBe(200);
    expect(success.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(success.headers.get('vary')).toBe('Origin');
    const local = await send(keys.shop, 'get_messages', {
      method: 'GET',
      headers: { origin: 'http://localhost:3000' },
    });
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');

    const missing = await send(keys.shop, 'get_variables', jsonPost(SHOP, {}));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'missing_parameter' });
    expect(missing.headers.get('access-control-allow-origin')).toBe(SHOP);
    const unknown = await send(keys.shop, 'frobnicate', jsonPost(SHOP, {}));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBe(SHOP);

    const refused = await send(keys.shop, 'get_variables', jsonPost('https://evil.example', {}));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const any = await send(keys.any, 'get_messages', {
      method: 'GET',
      headers: { origin: 'https://x.example' },
    });
    expect(any.headers.get('access-control-allow-origin')).toBe('*');
    // Server-to-server calls carry no Origin and get no CORS headers.
    const plain = await send(keys.shop, 'get_messages', { method: 'GET' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives an unknown key no CORS headers on its 401', async () => {
    const response = await send('bb_unknownkey', 'get_messages', {
      method: 'GET',
      headers: { origin: SHOP },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS of the public API', () => {
  it('lets an allowed page read a 429 and its Retry-After', async () => {
    const project = await createProject(db, { name: 'busy' });
    await updateProjectSettings(db, project.id, { apiAllowedOrigins: [SHOP] });
    const busy = await createApiKey(db, project.id, { name: 'busy' });
    // The key's window, full (BLOCKBOT_API_RATE_LIMIT is 100000 here).
    await db.rateWindow.create({
      data: { key: apiKeyRateKey(busy.id), windowStart: new Date(), count: 100_000 },
    });
    const response = await fetch(`${fastPathUrl}/api/${busy.key}/get_messages`, {
      headers: { origin: SHOP },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(response.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('applies a change of the allowed origins at once, though the key is cached', async () => {
    const call = () =>
      fetch(`${fastPathUrl}/api/${keys.none}/get_messages`, { headers: { origin: 'https://new.example' } });
    expect((await call()).headers.get('access-control-allow-origin')).toBeNull();
    await updateProjectSettings(db, noneProjectId, { apiAllowedOrigins: ['https://new.example'] });
    expect((await call()).headers.get('access-control-allow-origin')).toBe('https://new.example');
    await updateProjectSettings(db, noneProjectId, { apiAllowedOrigins: [] });
    expect((await call()).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('stores origins as browsers send them, and names a bad entry and how to write it', async () => {
    const project = await createProject(db, { name: 'settings' });
    const saved = await updateProjectSettings(db, project.id, {
      apiAllowedOrigins: ['HTTPS://Shop.Example:443/', ' https://shop.example ', 'http://localhost:8080'],
    });
    expect(saved.apiAllowedOrigins).toEqual(['https://shop.example', 'http://localhost:8080']);
    await expect(
      updateProjectSettings(db, project.id, { apiAllowedOrigins: ['https://shop.example/landing'] }),
    ).rejects.toMatchObject({
      code: 'invalid',
      field: 'apiAllowedOrigins.0',
      message: expect.stringContaining('e.g. https://shop.example'),
    });
    await expect(
      updateProjectSettings(db, project.id, { apiAllowedOrigins: ['shop.example'] }),
    ).rejects.toThrow('"shop.example" is not an origin');
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).apiAllowedOrigins).toEqual([
      'https://shop.example',
      'http://localhost:8080',
    ]);
  });
});
