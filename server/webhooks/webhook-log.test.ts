import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { safeFetch } from '@/server/http';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { deliverWebhook } from './webhook-delivery';
import { pruneWebhookLog, WEBHOOK_LOG_DAYS } from './webhook-log';

let tdb: TestDatabase;
let server: http.Server;
let url: string;
/** What the receiver answers next; what it got. */
let answer = { status: 200, body: 'ok' };
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  tdb = await createTestDatabase();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer.status;
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await tdb?.close();
});

/** A project of `owner`'s with an admin and an operator, its webhook at the receiver, one message delivered. */
async function setup(prefix: string) {
  const owner = await signedInCaller(tdb.prisma, `${prefix}-owner@example.com`);
  const project = await owner.project.create({ name: prefix, timeZone: 'UTC', withDemoBot: false });
  const projectId = project.id;
  const member = async (role: 'admin' | 'operator') => {
    const email = `${prefix}-${role}@example.com`;
    const caller = await signedInCaller(tdb.prisma, email);
    await tdb.prisma.projectMember.create({ data: { projectId, userId: `u-${email}`, email, role } });
    return caller;
  };
  const admin = await member('admin');
  const operator = await member('operator');
  await owner.project.updateSettings({ projectId, webhookUrl: url });
  const client = await tdb.prisma.client.create({ data: { projectId, platformId: 'c1', clientType: 99 } });
  const message = await tdb.prisma.message.create({
    data: { projectId, clientId: client.id, direction: 'in', text: 'hello' },
  });
  return { owner, admin, operator, projectId, message };
}

describe('the webhook log', () => {
  it('shows each attempt to admins, filters failures, pages, and redelivers under the same webhook-id', async () => {
    const { admin, projectId, message } = await setup('log');
    answer = { status: 503, body: `busy ${'x'.repeat(5000)}` };
    await deliverWebhook(tdb.prisma, safeFetch, projectId, { messageId: message.id });

    const page = await admin.webhooks.list({ projectId });
    expect(page.items).toHaveLength(1);
    const [failed] = page.items;
    expect(failed).toMatchObject({
      webhookId: `msg_${projectId}_${message.id}`,
      event: 'message.in',
      status: 503,
      error: 'the receiver answered 503',
      url,
    });
    const detail = await admin.webhooks.get({ projectId, deliveryId: failed.id });
    expect(JSON.parse(detail.requestBody ?? '')).toMatchObject({ message: 'hello', is_input: 1 });
    // The start of the answer only.
    expect(detail.responseBody).toHaveLength(2048);

    // The receiver is fixed: the redelivery carries the same webhook-id and body, signed anew.
    answer = { status: 200, body: 'thanks' };
    const again = await admin.webhooks.redeliver({ projectId, deliveryId: failed.id });
    expect(again).toMatchObject({
      webhookId: failed.webhookId,
      status: 200,
      error: null,
      responseBody: 'thanks',
    });
    expect(again.id).not.toBe(failed.id);
    const last = received[received.length - 1];
    expect(last.headers['webhook-id']).toBe(failed.webhookId);
    expect(last.body).toBe(detail.requestBody);
    const { webhookSecret } = await tdb.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(
      new Webhook(webhookSecret).verify(last.body, last.headers as Record<string, string>),
    ).toMatchObject({
      message: 'hello',
    });

    // The test event: its own type and webhook-id, in the log.
    const test = await admin.webhooks.sendTest({ projectId });
    expect(test).toMatchObject({
      event: 'test',
      status: 200,
      webhookId: expect.stringMatching(/^test_\d+_\d+$/),
    });
    expect(JSON.parse(received[received.length - 1].body)).toMatchObject({
      type: 'test',
      project_id: projectId,
    });

    expect((await admin.webhooks.list({ projectId })).items.map((i) => i.event)).toEqual([
      'test',
      'message.in',
      'message.in',
    ]);
    const failures = await admin.webhooks.list({ projectId, failuresOnly: true });
    expect(failures.items.map((i) => i.id)).toEqual([failed.id]);
    const first = await admin.webhooks.list({ projectId, limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await admin.webhooks.list({ projectId, limit: 2, cursor: first.nextCursor ?? '' });
    expect(second).toMatchObject({ items: [{ id: failed.id }], nextCursor: null });
  });

  it('is for owners and admins only, and shows and redelivers nothing of another project', async () => {
    const mine = await setup('mine');
    const other = await setup('other');
    await deliverWebhook(tdb.prisma, safeFetch, other.projectId, { messageId: other.message.id });
    const [theirs] = (await other.owner.webhooks.list({ projectId: other.projectId })).items;

    const { operator, projectId } = mine;
    for (const call of [
      () => operator.webhooks.list({ projectId }),
      () => operator.webhooks.sendTest({ projectId }),
      () => operator.webhooks.get({ projectId, deliveryId: theirs.id }),
      () => operator.webhooks.redeliver({ projectId, deliveryId: theirs.id }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN' });

    // An admin of one project asking for another's delivery through their own project.
    const sent = received.length;
    await expect(mine.admin.webhooks.get({ projectId, deliveryId: theirs.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(mine.admin.webhooks.redeliver({ projectId, deliveryId: theirs.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // …or through theirs, where they are no member.
    await expect(mine.admin.webhooks.list({ projectId: other.projectId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(received).toHaveLength(sent);
    expect((await mine.admin.webhooks.list({ projectId })).items).toEqual([]);
    await expect(
      mine.admin.webhooks.get({ projectId, deliveryId: '99999999999999999999' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('refuses a test event while the project has no webhook URL, naming the setting', async () => {
    const { owner, projectId } = await setup('nourl');
    await owner.project.updateSettings({ projectId, webhookUrl: '' });
    await expect(owner.webhooks.sendTest({ projectId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('webhook URL'),
    });
  });

  it(`prunes attempts older than ${WEBHOOK_LOG_DAYS} days, keeping the rest`, async () => {
    const { projectId } = await setup('prune');
    const old = new Date(Date.now() - (WEBHOOK_LOG_DAYS + 1) * 86_400_000);
    await tdb.prisma.webhookDelivery.createMany({
      data: [
        { projectId, url, webhookId: 'old', createdAt: old },
        { projectId, url, webhookId: 'new' },
      ],
    });
    expect(await pruneWebhookLog(tdb.prisma)).toBeGreaterThanOrEqual(1);
    const left = await tdb.prisma.webhookDelivery.findMany({ where: { projectId } });
    expect(left.map((r) => r.webhookId)).toEqual(['new']);
  });
});
