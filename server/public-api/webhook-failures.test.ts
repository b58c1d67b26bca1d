import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { startWorkers } from '@/server/jobs/jobs';
import { jobDefinitions } from '@/server/jobs/registry';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { actions } from './actions';
import { buildOpenApiDocument } from './openapi';
import { startApiServer } from './testing/api-server';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-hooks-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let db: PrismaClient;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  process.env.BLOCKBOT_API_RATE_LIMIT = '5';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await startApiServer();
  await startWorkers(jobDefinitions);
});
afterAll(async () => {
  await server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function projectWithKey(webhookUrl?: string) {
  const project = await createProject(db, { name: 'hooks', plan: 'business' });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'pong', trigger: { alternatives: 'ping' } }],
    arrows: [],
  });
  if (webhookUrl)
    await db.project.update({
      where: { id: project.id },
      data: { webhookUrl, webhookTestConversations: true },
    });
  return { project, key: (await createApiKey(db, project.id, { name: 'k' })).key };
}

const post = (key: string, action: string, body: object) =>
  fetch(`${server.url}/api/${key}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function waitFor<T>(check: () => Promise<T | undefined>, tries = 150): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}

describe('a failing webhook receiver never slows the bot', () => {
  it.each([
    ['hangs', (_req: http.IncomingMessage, _res: http.ServerResponse) => {}],
    ['answers 500', (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(500).end('down')],
  ])(
    'a receiver that %s: the bot answers, one attempt per message is logged, none retried',
    async (_, handler) => {
      const receiver = http.createServer(handler);
      const url = await new Promise<string>((r) =>
        receiver.listen(0, '127.0.0.1', () =>
          r(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`),
        ),
      );
      const { project, key } = await projectWithKey(url);
      const loaded = await (
        await post(key, 'load_clients', { platform_id: 'p1', group_id: 'g', client_type: 99 })
      ).json();
      const clientId = loaded.clients[0].client_id;
      const answer = await post(key, 'callback', { client_id: clientId, message: 'ping' });
      expect(answer.status).toBe(200);
      expect((await answer.json()).sent).toBe(1);
      const log = await waitFor(async () => {
        const rows = await db.webhookDelivery.findMany({ where: { projectId: project.id } });
        return rows.length === 2 ? rows : undefined;
      }, 200);
      expect(log.every((row) => row.error)).toBe(true);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await db.webhookDelivery.count({ where: { projectId: project.id } })).toBe(2);
      receiver.closeAllConnections();
      receiver.close();
    },
  );
});

describe('limits and the reference', () => {
  it('rate-limits a key with 429 and Retry-After', async () => {
    const { key } = await projectWithKey();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 7; i++) {
      const r = await fetch(`${server.url}/api/${key}/get_messages`);
      statuses.push(r.status);
      if (r.status === 429) retryAfter = r.headers.get('retry-after');
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('documents every action in OpenAPI 3.1, from the same schemas, with an example each', () => {
    const doc = buildOpenApiDocument('http://localhost:3000');
    expect(doc.openapi).toBe('3.1.0');
    for (const action of actions) {
      const path = doc.paths[`/api/{api_key}/${action.name}`] as Record<
        string,
        { requestBody?: { content: Record<string, { example?: unknown }> } }
      >;
      expect(path, action.name).toBeDefined();
      expect(path.post.requestBody?.content['application/json'].example).toEqual(action.example);
    }
    const getVariables = doc.paths['/api/{api_key}/get_variables'] as Record<
      string,
      { parameters: { name: string; required: boolean }[] }
    >;
    expect(getVariables.get.parameters).toEqual([
      expect.objectContaining({ name: 'client_id', required: true }),
    ]);
  });
});
