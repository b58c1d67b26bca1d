import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { buildOpenApiDocument } from '@/server/public-api/openapi';
import { startApiServer } from '@/server/public-api/testing/api-server';
import { startRecordingReceiver } from '@/server/testing/recording-receiver';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { buildSubmissionPayload, buildWebhookPayload } from './webhook-payload';

// biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON the receiver got
type Payload = Record<string, any>;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-hook-payload-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let fakeApi: FakeApi;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  app = await useFreshAppDatabase(tmp);
  server = await startApiServer();
  fakeApi = await startFakeApi();
  receiver = await startRecordingReceiver();
  const { startWorkers } = await import('@/server/jobs/jobs');
  const { jobDefinitions } = await import('@/server/jobs/registry');
  await startWorkers(jobDefinitions);
});
afterAll(async () => {
  await server?.close();
  await fakeApi?.close();
  receiver?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function receivedPayloads(count: number, secret: string): Promise<Payload[]> {
  for (let i = 0; i < 200 && receiver.received.length < count; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(receiver.received).toHaveLength(count);
  const hook = new Webhook(secret);
  return receiver.received.map((r) => hook.verify(r.body, r.headers as Record<string, string>) as Payload);
}

it("carries bot-semantics §7's fields, and client.custom_answer once a block request ran for the client", async () => {
  const db = await getDb();
  const project = await createProject(db, { name: 'Hooks', owner: { email: 'owner@example.com' } });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Welcome', trigger: { alternatives: '' } },
      {
        id: 2,
        kind: 'start',
        text: 'Pizza costs #{price}',
        trigger: { alternatives: 'order' },
        request: { type: 'GET', url: `${fakeApi.url}/json`, storedValues: 'data|items|0|price->price' },
      },
    ],
    arrows: [],
  });
  const { webhookSecret } = await db.project.update({
    where: { id: project.id },
    data: { webhookUrl: receiver.url, webhookTestConversations: true },
  });
  const key = (await createApiKey(db, project.id, { name: 'main' })).key;
  const call = async (action: string, params: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/api/${key}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Payload;
  };
  const { clients } = await call('load_clients', { platform_id: 'ann', group_id: 'sim', client_type: 99 });
  const clientId = clients[0].client_id as number;

  await call('callback', { client_id: clientId, message: 'hi' });
  const before = await receivedPayloads(2, webhookSecret);
  const welcome = before.find((p) => p.is_input === 0);
  expect(Object.keys(welcome ?? {}).sort()).toEqual(
    [
      'attachments',
      'client',
      'delivered',
      'error_message',
      'id',
      'is_input',
      'message',
      'message_id',
      'project_id',
    ].sort(),
  );
  expect(welcome).toMatchObject({ message: 'Welcome', message_id: 1, project_id: project.id, delivered: 1 });
  // No block request ran for the client yet: it has no custom_answer.
  expect(Object.keys(welcome?.client).sort()).toEqual(
    ['avatar', 'client_type', 'created_at', 'group', 'id', 'name', 'recepient', 'tag'].sort(),
  );

  await call('callback', { client_id: clientId, message: 'order' });
  const after = (await receivedPayloads(4, webhookSecret)).slice(2);
  const priced = after.find((p) => p.is_input === 0);
  expect(priced).toMatchObject({
    message: 'Pizza costs 42',
    client: { id: clientId, recepient: 'ann', client_type: 99, group: 'sim' },
  });
  expect(JSON.parse(priced?.client.custom_answer)).toMatchObject({
    status: 'ok',
    data: { items: [{ name: 'Pizza', price: 42 }, expect.anything()] },
  });
  const stored = await db.client.findUniqueOrThrow({ where: { id: clientId } });
  expect(stored.customAnswer).toBe(priced?.client.custom_answer);
});

it("delivers each red and yellow block's submission, signed under its own webhook-id, after the event's message webhooks", async () => {
  const db = await getDb();
  const project = await createProject(db, { name: 'Orders', owner: { email: 'orders@example.com' } });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'order?', trigger: { alternatives: '' }, formula: "item = 'pizza'" },
      { id: 2, kind: 'data_transfer', text: 'noted #{item}' },
      { id: 3, kind: 'close_deal', text: 'done #{item}' },
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'unconditional' },
      { id: 2, from: 2, to: 3, kind: 'unconditional' },
    ],
  });
  const { webhookSecret } = await db.project.update({
    where: { id: project.id },
    data: { webhookUrl: receiver.url, webhookTestConversations: true },
  });
  const key = (await createApiKey(db, project.id, { name: 'main' })).key;
  const call = (action: string, params: Record<string, unknown>) =>
    fetch(`${server.url}/api/${key}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    }).then(async (response) => {
      expect(response.status).toBe(200);
      return (await response.json()) as Payload;
    });
  const { clients } = await call('load_clients', { platform_id: 'bob', group_id: 'sim', client_type: 99 });
  const clientId = clients[0].client_id as number;
  const start = receiver.received.length;
  for (const text of ['hi', 'yellow', 'red']) await call('callback', { client_id: clientId, message: text });

  // Three events of two messages each, and two submissions.
  for (let i = 0; i < 200 && receiver.received.length < start + 8; i++)
    await new Promise((r) => setTimeout(r, 50));
  const hooks = receiver.received.slice(start);
  expect(hooks).toHaveLength(8);
  const verify = new Webhook(webhookSecret);
  const submissions = hooks
    .map((r) => ({
      id: r.headers['webhook-id'],
      body: verify.verify(r.body, r.headers as Record<string, string>) as Payload,
    }))
    .filter((hook) => hook.body.type === 'submission')
    .sort((a, b) => a.body.id - b.body.id);
  const stored = await db.submission.findMany({ where: { projectId: project.id }, orderBy: { id: 'asc' } });
  expect(submissions.map((s) => s.id)).toEqual(stored.map((s) => `sub_${project.id}_${s.id}`));
  expect(submissions.map((s) => s.body)).toEqual(
    stored.map((s, i) => ({
      type: 'submission',
      id: s.id,
      client: expect.objectContaining({ id: clientId, recepient: 'bob', client_type: 99, group: 'sim' }),
      submission: {
        id: s.id,
        block_id: [2, 3][i],
        deal_id: s.dealId,
        kept: [true, false][i],
        variables: { item: 'pizza' },
        created_at: Math.floor(s.createdAt.getTime() / 1000),
      },
      project_id: project.id,
    })),
  );
  // Each submission's outbox row follows its event's message rows; every row is done.
  const rows = await db.outbox.findMany({ where: { projectId: project.id }, orderBy: { id: 'asc' } });
  expect(rows.map((r) => (r.messageId === null ? 'submission' : 'message'))).toEqual([
    ...['message', 'message'],
    ...['message', 'message', 'submission'],
    ...['message', 'message', 'submission'],
  ]);
  for (
    let i = 0;
    i < 200 && (await db.outbox.count({ where: { projectId: project.id, state: { not: 'done' } } }));
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
  expect(
    // Deliveries run side by side: they are recorded in any order.
    await db.webhookDelivery.findMany({
      where: { projectId: project.id, submissionId: { not: null } },
      orderBy: { submissionId: 'asc' },
    }),
  ).toEqual(
    stored.map((s) =>
      expect.objectContaining({ submissionId: s.id, messageId: null, status: 200, error: null }),
    ),
  );
});

it('is documented field for field in the OpenAPI document', () => {
  const payload = buildWebhookPayload(
    {
      id: 1n,
      projectId: 1,
      direction: 'out',
      text: 'hi',
      attachments: [],
      blockId: 1,
      delivered: true,
      error: null,
    },
    {
      id: 1,
      platformId: 'ann',
      clientType: 99,
      name: '',
      avatar: '',
      createdAt: new Date(),
      tag: '',
      groupId: 'sim',
      customAnswer: 'ok',
    },
  );
  const { schema, example } =
    buildOpenApiDocument().webhooks.message.post.requestBody.content['application/json'];
  expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(payload).sort());
  expect(Object.keys(schema.properties.client.properties).sort()).toEqual(Object.keys(payload.client).sort());
  expect(Object.keys(example).sort()).toEqual(Object.keys(payload).sort());
});

it("documents the submission's body field for field in the OpenAPI document", () => {
  const payload = buildSubmissionPayload(
    {
      id: 1,
      projectId: 1,
      blockId: 2,
      dealId: 3,
      kept: true,
      variables: { item: 'pizza' },
      createdAt: new Date(),
    },
    {
      id: 1,
      platformId: 'ann',
      clientType: 99,
      name: '',
      avatar: '',
      createdAt: new Date(),
      tag: '',
      groupId: 'sim',
      customAnswer: null,
    },
  );
  const { schema, example } =
    buildOpenApiDocument().webhooks.submission.post.requestBody.content['application/json'];
  expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(payload).sort());
  expect(Object.keys(schema.properties.submission.properties).sort()).toEqual(
    Object.keys(payload.submission).sort(),
  );
  expect(Object.keys(example).sort()).toEqual(Object.keys(payload).sort());
  expect(Object.keys(example.submission).sort()).toEqual(Object.keys(payload.submission).sort());
});
