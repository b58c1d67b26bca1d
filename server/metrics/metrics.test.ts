import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as apiRoute from '@/app/api/[apiKey]/[action]/route';
import * as metricsRoute from '@/app/api/metrics/route';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { messengerFetch } from '@/server/channels/messenger-fetch';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { resetEnvCache } from '@/server/config/env';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { getSafeHttpConfig } from '@/server/http';
import { defineJob, enqueue } from '@/server/jobs/jobs';
import { saveBotSchema } from '@/server/projects/bot-schema-store';
import { createProject } from '@/server/projects/project-service';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { scrape } from './testing/scrape';

const TOKEN = 'metrics-token-0123456789abcdef';
/** What a client wrote: it must never become a label. */
const CLIENT_TEXT = 'my-card-4242-4242';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-metrics-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: RouteServer;
let projectId: number;
const metricsUrl = () => `${server.url}/api/metrics`;

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await serveRoutes([
    { method: 'GET', pattern: /^\/api\/metrics$/, handler: metricsRoute.GET },
    { method: 'GET', pattern: /^\/api\/(?<apiKey>[^/]+)\/(?<action>[^/]+)$/, handler: apiRoute.GET },
  ]);
  const project = await createProject(db, { name: 'Metrics', owner: { email: 'owner@example.com' } });
  projectId = project.id;
  await saveBotSchema(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Noted: #{question}', trigger: { alternatives: '', match: 'exact' } },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
});
afterAll(async () => {
  server?.close();
  delete process.env.BLOCKBOT_METRICS_TOKEN;
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function withToken(token: string | undefined) {
  if (token === undefined) delete process.env.BLOCKBOT_METRICS_TOKEN;
  else process.env.BLOCKBOT_METRICS_TOKEN = token;
  resetEnvCache();
}

describe('/api/metrics', () => {
  it('is not served until BLOCKBOT_METRICS_TOKEN is set, and then only with the token', async () => {
    withToken(undefined);
    expect((await fetch(metricsUrl())).status).toBe(404);
    withToken(TOKEN);
    const missing = await fetch(metricsUrl());
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const right = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toContain('text/plain');
    // Node's default process metrics come with ours.
    const text = await right.text();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts 10 messages received, 10 sent and 10 events after 10 messages', async () => {
    withToken(TOKEN);
    const before = await scrape(metricsUrl(), TOKEN);
    const deps = await getEngineDeps();
    for (let i = 0; i < 10; i++) {
      await handleEvent(
        deps,
        projectId,
        { ref: simulatorClientRef(`visitor-${i % 3}`, 'Visitor') },
        { type: 'message', text: `${CLIENT_TEXT} ${i}` },
      );
    }
    const after = await scrape(metricsUrl(), TOKEN);
    const delta = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(delta('blockbot_messages_received_total', { channel: 'simulator', outcome: 'handled' })).toBe(10);
    expect(delta('blockbot_messages_sent_total', { channel: 'simulator', outcome: 'sent' })).toBe(10);
    const events = { event: 'message' };
    expect(
      after.count('blockbot_engine_event_duration_seconds', events) -
        before.count('blockbot_engine_event_duration_seconds', events),
    ).toBe(10);
  });

  it('counts public API requests per action and status, an unknown action as "unknown"', async () => {
    withToken(TOKEN);
    const before = await scrape(metricsUrl(), TOKEN);
    const statuses: Record<string, number[]> = { get_variables: [], unknown: [] };
    for (let i = 0; i < 3; i++) {
      statuses.get_variables.push(
        (await fetch(`${server.url}/api/bb_nokey${i}/get_variables?client_id=1`)).status,
      );
      statuses.unknown.push((await fetch(`${server.url}/api/bb_nokey/no_such_action_${i}`)).status);
    }
    const after = await scrape(metricsUrl(), TOKEN);
    for (const [action, codes] of Object.entries(statuses)) {
      for (const status of new Set(codes)) {
        const labels = { action, status: String(status) };
        const counted =
          after.value('blockbot_api_requests_total', labels) -
          before.value('blockbot_api_requests_total', labels);
        expect(counted, `${action} ${status}`).toBe(codes.filter((c) => c === status).length);
      }
    }
    expect(after.families.find((f) => f.name === 'blockbot_api_requests_total')?.metrics.length).toBe(2);
  });

  it("counts a messenger API's answers by status, and a call that got none as error", async () => {
    withToken(TOKEN);
    const messenger = http.createServer((req, res) => {
      const status = req.url === '/busy' ? 429 : 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":false}');
    });
    await new Promise<void>((resolve) => messenger.listen(0, '127.0.0.1', resolve));
    const root = `http://127.0.0.1:${(messenger.address() as AddressInfo).port}`;
    const config = { ...getSafeHttpConfig(), allowHosts: ['127.0.0.1'] };
    const call = messengerFetch('tg');
    try {
      const before = await scrape(metricsUrl(), TOKEN);
      await call(`${root}/busy`, {}, config);
      await call(`${root}/busy`, {}, config);
      await call(`${root}/ok`, {}, config);
      await expect(call('http://127.0.0.1:1/closed', {}, config)).rejects.toThrow();
      const after = await scrape(metricsUrl(), TOKEN);
      const delta = (status: string) =>
        after.value('blockbot_messenger_api_responses_total', { channel: 'tg', status }) -
        before.value('blockbot_messenger_api_responses_total', { channel: 'tg', status });
      expect([delta('429'), delta('200'), delta('error')]).toEqual([2, 1, 1]);
    } finally {
      messenger.close();
    }
  });

  it("reports the database's job and outbox backlogs, and the oldest one's age", async () => {
    withToken(TOKEN);
    const waiting = defineJob<{ n: number }>({ name: 'metrics-test.waiting', handle: async () => {} });
    for (let n = 0; n < 3; n++) await enqueue(waiting, { n });
    // Not yet due: a job set for later is no backlog.
    await enqueue(waiting, { n: 9 }, { startAfter: 3600 });
    const old = new Date(Date.now() - 120_000);
    await db.outbox.createMany({
      data: [
        { projectId, kind: 'send', state: 'pending', createdAt: old },
        { projectId, kind: 'send', state: 'held', createdAt: new Date() },
        { projectId, kind: 'webhook', state: 'done', createdAt: old },
      ],
    });
    const s = await scrape(metricsUrl(), TOKEN);
    expect(s.value('blockbot_job_backlog', { queue: 'metrics-test.waiting' })).toBe(3);
    expect(
      s.value('blockbot_job_oldest_age_seconds', { queue: 'metrics-test.waiting' }),
    ).toBeGreaterThanOrEqual(0);
    expect(s.value('blockbot_outbox_backlog', { kind: 'send' })).toBe(2);
    expect(s.value('blockbot_outbox_oldest_age_seconds', { kind: 'send' })).toBeGreaterThanOrEqual(119);
    expect(s.value('blockbot_outbox_backlog', { kind: 'webhook' })).toBe(0);
  });

  it('carries no client data, project id or address in any label', async () => {
    withToken(TOKEN);
    const s = await scrape(metricsUrl(), TOKEN);
    const values = s.families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      expect(value).not.toContain(CLIENT_TEXT);
      expect(value).not.toMatch(/visitor|bb_|127\.0\.0\.1|owner@/);
      expect(value).not.toBe(String(projectId));
    }
  });
});
