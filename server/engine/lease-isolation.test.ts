import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { startApiServer } from '@/server/public-api/testing/api-server';
import { saveAndPublish } from '@/server/versions/bot-versions';

// An event waiting on a third party holds neither a transaction nor a connection: in embedded
// mode (one connection) another project's calls used to wait for it. Both database modes.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-lease-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let slow: http.Server;
let slowUrl: string;
/** Answers the held request; set once it arrived. */
let release: (() => void) | undefined;
let arrived: Promise<void>;

beforeAll(async () => {
  process.env.BLOCKBOT_API_RATE_LIMIT = '100000';
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  app = await useFreshAppDatabase(tmp);
  server = await startApiServer();
  let onArrival!: () => void;
  arrived = new Promise((resolve) => {
    onArrival = resolve;
  });
  // A third party that answers only when the test lets it.
  slow = http.createServer((_req, res) => {
    release = () => {
      release = undefined;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('late');
    };
    onArrival();
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hold`;
});
afterAll(async () => {
  release?.();
  slow?.closeAllConnections();
  await new Promise((resolve) => slow?.close(resolve));
  await server?.close();
  await app?.dispose();
  delete process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function project(name: string, request?: { type: 'GET'; url: string }) {
  const db = await getDb();
  const { id } = await createProject(db, { name, plan: 'business', owner: { email: `${name}@example.com` } });
  await saveAndPublish(db, id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Answer #{custom_answer}', trigger: { alternatives: '' }, request },
    ],
    arrows: [],
  });
  const key = (await createApiKey(db, id, { name: 'main' })).key;
  const call = async (action: string, params: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/api/${key}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON answers
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const { body } = await call('load_clients', { platform_id: `${name}-1`, group_id: 'sim', client_type: 99 });
  return { call, clientId: body.clients[0].client_id as number };
}

it("while one project's event waits on a slow API, another project's get_variables calls complete", async () => {
  const a = await project('a', { type: 'GET', url: slowUrl });
  const b = await project('b');
  await b.call('save_variables', { client_id: b.clientId, variables: { city: 'Oslo' } });

  let aDone = false;
  const aEvent = a.call('callback', { client_id: a.clientId, message: 'hi' }).finally(() => {
    aDone = true;
  });
  await arrived;
  for (let i = 0; i < 5; i++) {
    const { status, body } = await b.call('get_variables', { client_id: b.clientId });
    expect(status).toBe(200);
    expect(body.variables ?? body).toMatchObject({ city: 'Oslo' });
  }
  // All of them while A's request was still held open.
  expect(aDone).toBe(false);
  release?.();
  expect((await aEvent).status).toBe(200);
  const db = await getDb();
  const replies = await db.message.findMany({ where: { clientId: a.clientId, direction: 'out' } });
  expect(replies.map((m) => m.text)).toEqual(['Answer late']);
});
