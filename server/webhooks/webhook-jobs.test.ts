import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { resetEnvCache } from '@/server/config/env';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getBoss } from '@/server/jobs/boss';
import { enqueueMany, startWorkers } from '@/server/jobs/jobs';
import { createProject } from '@/server/projects/project-service';
import {
  queueWebhookDeliveries,
  WEBHOOK_PROJECT_CONCURRENCY,
  WEBHOOK_RETRIES,
  webhookDeliveryJob,
  webhookGaveUpJob,
} from './webhook-jobs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-webhook-jobs-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
const receivers: http.Server[] = [];

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  // The hanging receiver stays open for the whole test, however slowly a loaded machine runs it.
  process.env.BLOCKBOT_WEBHOOK_TIMEOUT_MS = '60000';
  resetEnvCache();
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  await startWorkers([webhookDeliveryJob, webhookGaveUpJob]);
});
afterAll(async () => {
  for (const receiver of receivers) {
    receiver.closeAllConnections();
    receiver.close();
  }
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function receiver(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/**
 * A project with a webhook and `count` stored messages, round-robin over `clients` clients,
 * their deliveries queued as the engine queues them.
 */
async function projectWithMessages(webhookUrl: string, count: number, clients = count) {
  const project = await createProject(db, { name: 'hooks', plan: 'business' });
  await db.project.update({ where: { id: project.id }, data: { webhookUrl } });
  const clientIds: number[] = [];
  for (let i = 0; i < clients; i++) {
    const client = await db.client.create({
      data: { projectId: project.id, platformId: `p${i}`, clientType: 99 },
    });
    clientIds.push(client.id);
  }
  const messages = await db.message.createManyAndReturn({
    data: Array.from({ length: count }, (_, i) => ({
      projectId: project.id,
      clientId: clientIds[i % clients],
      direction: 'out' as const,
      text: `m${i}`,
    })),
    select: { id: true },
  });
  const ids = messages.map((m) => m.id).sort((a, b) => (a < b ? -1 : 1));
  await queueWebhookDeliveries(
    project.id,
    ids.map((messageId) => ({ target: { messageId } })),
  );
  return project;
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

it("a receiver that hangs holds up only its own project's deliveries, a bounded number at a time", async () => {
  const events: string[] = [];
  let open = 0;
  let mostOpen = 0;
  const hanging = await receiver((req) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    events.push('A opened');
    // Never answered: only the sender's timeout (or the test's end) closes it.
    req.socket.on('close', () => {
      open--;
      events.push('A closed');
    });
  });
  const prompt = await receiver((req, res) => {
    req.resume();
    req.on('end', () => {
      events.push('B');
      res.end('ok');
    });
  });

  // A timeout says nothing of which wait stalled: this does.
  onTestFailed(() => console.error('hanging receiver test:', { events, open, mostOpen }));

  await projectWithMessages(hanging, 6);
  // At least: a third delivery opened beside the first two fails the assertion below, not a wait.
  await until(() => open >= WEBHOOK_PROJECT_CONCURRENCY || events.includes('A closed'));
  await projectWithMessages(prompt, 5);
  await until(() => events.filter((e) => e === 'B').length === 5 || events.includes('A closed'));

  // Every delivery of B arrived while A's first deliveries were still waiting for an answer.
  expect(events.filter((e) => e === 'B')).toHaveLength(5);
  expect(events).not.toContain('A closed');
  expect(mostOpen).toBe(WEBHOOK_PROJECT_CONCURRENCY);
}, 60_000);

it("a delivery whose job is taken away stops at once, freeing its worker, and the job's retry delivers it again", async () => {
  const attempts: { webhookId: string; closed: boolean }[] = [];
  const url = await receiver((req) => {
    const attempt = { webhookId: String(req.headers['webhook-id']), closed: false };
    attempts.push(attempt);
    // Never answered: only the sender closes it.
    req.socket.on('close', () => {
      attempt.closed = true;
    });
  });
  const project = await createProject(db, { name: 'taken', plan: 'business' });
  await db.project.update({ where: { id: project.id }, data: { webhookUrl: url } });
  const client = await db.client.create({ data: { projectId: project.id, platformId: 'p', clientType: 99 } });
  const message = await db.message.create({
    data: { projectId: project.id, clientId: client.id, direction: 'out', text: 'hi' },
  });
  const target = { messageId: message.id };
  const row = await db.outbox.create({
    data: { projectId: project.id, kind: 'webhook', messageId: message.id, state: 'queued' },
  });
  await queueWebhookDeliveries(project.id, [{ target, outboxId: row.id }]);
  await until(() => attempts.length === 1);

  // The claim goes away as when its heartbeat went unseen: another attempt of the job may run now.
  const [job] = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id::text FROM pgboss.job WHERE name = $1 AND state = 'active' AND data->>'projectId' = $2`,
    webhookDeliveryJob.name,
    String(project.id),
  );
  await (await getBoss()).fail(webhookDeliveryJob.name, job.id, { message: 'taken away by the test' });
  await until(() => attempts[0].closed && attempts.length === 2);

  expect(attempts[1].webhookId).toBe(attempts[0].webhookId);
  // The stopped attempt left the row to the retry, which is still waiting for its answer.
  expect(await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
    state: 'queued',
    attempts: 2,
  });
}, 60_000);

it('a delivery that failed on every attempt ends its outbox row with the error: the outbox keeps no row nothing will carry out', async () => {
  const project = await createProject(db, { name: 'doomed', plan: 'business' });
  const url = await receiver((_req, res) => res.end('ok'));
  await db.project.update({ where: { id: project.id }, data: { webhookUrl: url } });
  // An id beyond the column's range: reading the submission fails, on every attempt.
  const target = { submissionId: 2 ** 31 };
  const row = await db.outbox.create({
    data: { projectId: project.id, kind: 'webhook', payload: target, state: 'queued' },
  });
  await queueWebhookDeliveries(project.id, [{ target, outboxId: row.id }]);

  let done = await db.outbox.findUniqueOrThrow({ where: { id: row.id } });
  while (done.state !== 'done') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    done = await db.outbox.findUniqueOrThrow({ where: { id: row.id } });
  }
  expect(done).toMatchObject({
    attempts: WEBHOOK_RETRIES + 1,
    error: expect.stringContaining(`all ${WEBHOOK_RETRIES + 1} attempts failed or were cut off`),
  });
  expect(done.doneAt).not.toBeNull();
}, 60_000);

it("delivers each client's messages one after another in the order they were queued, different clients side by side", async () => {
  const open = new Map<string, number>();
  const arrived: string[] = [];
  let overlapping = 0;
  let mostOpen = 0;
  let openNow = 0;
  const url = await receiver((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk) => body.push(chunk));
    req.on('end', () => {
      const { client, id } = JSON.parse(Buffer.concat(body).toString()) as {
        client: { id: number };
        id: number;
      };
      const key = String(client.id);
      if (open.get(key)) overlapping++;
      open.set(key, 1);
      openNow++;
      mostOpen = Math.max(mostOpen, openNow);
      arrived.push(`${key}:${id}`);
      // Answers in a random order across clients.
      setTimeout(() => {
        open.set(key, 0);
        openNow--;
        res.end('ok');
      }, Math.random() * 4);
    });
  });
  // More than a fetch takes, queued in one statement: pg-boss orders them no further than by
  // when they were queued, so the dispatcher sorts each client's, across fetches.
  const project = await projectWithMessages(url, 300, 3);
  await until(() => arrived.length === 300);
  await until(() => openNow === 0);

  expect(overlapping).toBe(0);
  for (const client of new Set(arrived.map((a) => a.split(':')[0]))) {
    const ids = arrived.filter((a) => a.startsWith(`${client}:`)).map((a) => Number(a.split(':')[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toHaveLength(100);
  }
  // The three clients' deliveries ran side by side.
  expect(mostOpen).toBeGreaterThan(1);
  let recorded = 0;
  while (recorded < 300) {
    recorded = await db.webhookDelivery.count({ where: { projectId: project.id } });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}, 60_000);

it('never repeats a delivery that got an answer, even an error, and records it with its webhook-id and the answer', async () => {
  const seen: string[] = [];
  const url = await receiver((req, res) => {
    seen.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => {
      res.statusCode = 500;
      res.end('down for maintenance');
    });
  });
  const project = await createProject(db, { name: 'erring', plan: 'business' });
  await db.project.update({ where: { id: project.id }, data: { webhookUrl: url } });
  const client = await db.client.create({ data: { projectId: project.id, platformId: 'p', clientType: 99 } });
  const deliveries = [];
  for (let i = 0; i < 3; i++) {
    const message = await db.message.create({
      data: { projectId: project.id, clientId: client.id, direction: 'in', text: `m${i}` },
    });
    const row = await db.outbox.create({
      data: { projectId: project.id, kind: 'webhook', messageId: message.id, state: 'queued' },
    });
    deliveries.push({ target: { messageId: message.id }, outboxId: row.id });
  }
  await queueWebhookDeliveries(project.id, deliveries);
  let done = 0;
  while (done < 3) {
    done = await db.outbox.count({ where: { projectId: project.id, state: 'done' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Time for a retry, were there one: the jobs are completed.
  const [{ open }] = await db.$queryRawUnsafe<{ open: number }[]>(
    `SELECT count(*)::int AS open FROM pgboss.job WHERE name = $1 AND state < 'completed' AND data->>'projectId' = $2`,
    webhookDeliveryJob.name,
    String(project.id),
  );
  expect(open).toBe(0);
  expect(seen).toHaveLength(3);
  expect(new Set(seen).size).toBe(3);
  const rows = await db.webhookDelivery.findMany({
    where: { projectId: project.id },
    orderBy: { id: 'asc' },
  });
  expect(rows.map((r) => r.webhookId)).toEqual(
    deliveries.map((d) => `msg_${project.id}_${d.target.messageId}`),
  );
  expect(rows[0]).toMatchObject({
    status: 500,
    event: 'message.in',
    error: 'the receiver answered 500',
    responseBody: 'down for maintenance',
  });
  expect(JSON.parse(rows[0].requestBody ?? '')).toMatchObject({ message: 'm0', project_id: project.id });
  expect(await db.outbox.findFirstOrThrow({ where: { projectId: project.id } })).toMatchObject({
    attempts: 1,
    error: 'the receiver answered 500',
  });
}, 60_000);

/**
 * A project whose one client has `count` messages with their webhook outbox rows, as the engine
 * writes them (in order, with the client), and a receiver that records each request's message
 * as it arrives; with `hangFirst`, the first request is never answered.
 */
async function clientInOrder(count: number, hangFirst: boolean) {
  const arrived: string[] = [];
  const first = { closed: false };
  const url = await receiver((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk) => body.push(chunk));
    req.on('end', () => {
      arrived.push((JSON.parse(Buffer.concat(body).toString()) as { message: string }).message);
      if (!hangFirst || arrived.length > 1) res.end('ok');
      else
        req.socket.on('close', () => {
          first.closed = true;
        });
    });
  });
  const project = await createProject(db, { name: 'in order', plan: 'business' });
  await db.project.update({ where: { id: project.id }, data: { webhookUrl: url } });
  const client = await db.client.create({ data: { projectId: project.id, platformId: 'p', clientType: 99 } });
  const deliveries = [];
  for (let i = 0; i < count; i++) {
    const message = await db.message.create({
      data: { projectId: project.id, clientId: client.id, direction: 'in', text: `m${i}` },
    });
    const row = await db.outbox.create({
      data: {
        projectId: project.id,
        clientId: client.id,
        kind: 'webhook',
        messageId: message.id,
        state: 'queued',
      },
    });
    deliveries.push({ target: { messageId: message.id }, outboxId: row.id });
  }
  return { project, deliveries, arrived, first };
}

/** The id of the delivery job of an outbox row, once it is in the given state. */
async function jobOf(outboxId: bigint, state: string): Promise<string> {
  for (;;) {
    const [job] = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM pgboss.job WHERE name = $1 AND state = $2 AND data->>'outboxId' = $3`,
      webhookDeliveryJob.name,
      state,
      String(outboxId),
    );
    if (job) return job.id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("a client's delivery cut off (its claim lost) goes out again before the client's later one waiting behind it", async () => {
  const { project, deliveries, arrived, first } = await clientInOrder(2, true);
  await queueWebhookDeliveries(project.id, deliveries.slice(0, 1));
  await until(() => arrived.length === 1);
  await queueWebhookDeliveries(project.id, deliveries.slice(1));
  await jobOf(deliveries[1].outboxId, 'active');

  // The first one's claim goes away (as when its heartbeat went unseen), its retry held back an
  // hour: the dispatcher notices at its next heartbeat and cuts the request off.
  const job = await jobOf(deliveries[0].outboxId, 'active');
  await db.$executeRawUnsafe(
    `UPDATE pgboss.job SET state = 'retry', retry_count = retry_count + 1,
       start_after = now() + interval '1 hour' WHERE id = $1::uuid`,
    job,
  );
  await until(() => first.closed);
  expect(arrived).toEqual(['m0']);
  // Its retry comes: it goes first.
  await db.$executeRawUnsafe(`UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid`, job);
  await until(() => arrived.length === 3);
  expect(arrived).toEqual(['m0', 'm0', 'm1']);
}, 60_000);

it("a client's later delivery waits for an earlier one another worker holds, and for its retry when that worker dies", async () => {
  const { project, deliveries, arrived } = await clientInOrder(2, false);
  const [earlier, later] = deliveries;
  // Another worker holds the first delivery's job: queued to start later, so this process's
  // dispatcher does not fetch it, then claimed as a fetch claims it.
  await enqueueMany(webhookDeliveryJob, [
    {
      data: {
        projectId: project.id,
        messageId: String(earlier.target.messageId),
        outboxId: String(earlier.outboxId),
      },
      startAfter: new Date(Date.now() + 3_600_000),
      retryLimit: WEBHOOK_RETRIES,
    },
  ]);
  const first = await jobOf(earlier.outboxId, 'created');
  await db.$executeRawUnsafe(
    `UPDATE pgboss.job SET state = 'active', started_on = now(), heartbeat_on = now() WHERE id = $1::uuid`,
    first,
  );
  // The second is this process's dispatcher's: taken (its outbox row counts the attempt), not sent.
  await queueWebhookDeliveries(project.id, [later]);
  while ((await db.outbox.findUniqueOrThrow({ where: { id: later.outboxId } })).attempts === 0)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(arrived).toEqual([]);

  // The other worker dies with it: its job is retried, here, and the later one follows.
  await (await getBoss()).fail(webhookDeliveryJob.name, first, { message: 'its worker died' });
  await until(() => arrived.length === 2);
  expect(arrived).toEqual(['m0', 'm1']);
}, 60_000);
