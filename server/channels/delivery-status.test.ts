import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { DELIVERY_STATUSES } from '@/lib/history-message';
import { DeliveryStatus } from '@/server/db/generated/enums';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { type LiveEvent, subscribeLive } from '@/server/live/live-events';
import { createProject } from '@/server/projects/project-service';
import { startRecordingReceiver } from '@/server/testing/recording-receiver';
import { deliverWebhook } from '@/server/webhooks/webhook-delivery';
import { recordDeliveryStatus } from './delivery-status';

let h: EngineHarness;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
let deps: EngineDeps;

beforeAll(async () => {
  h = await EngineHarness.create();
  receiver = await startRecordingReceiver();
  // The report's delivery, carried out at once through the same steps a webhook job takes.
  deps = {
    ...h.deps,
    queueWebhooks: async (projectId, deliveries) => {
      for (const { target } of deliveries) await deliverWebhook(h.deps.db, h.deps.http, projectId, target);
    },
  };
});
afterAll(async () => {
  receiver?.close();
  await h?.close();
});

/** A project with a webhook and a tg client, with one sent message per messenger id. */
async function sentMessages(externalIds: string[]) {
  const db = h.tdb.prisma;
  const project = await createProject(db, { name: 'statuses', plan: 'business' });
  await db.project.update({ where: { id: project.id }, data: { webhookUrl: receiver.url } });
  const client = await db.client.create({
    data: { projectId: project.id, clientType: CLIENT_TYPES.tg, groupId: 'shop_bot', platformId: '501' },
  });
  const messages = [];
  for (const externalId of externalIds)
    messages.push(
      await db.message.create({
        data: {
          projectId: project.id,
          clientId: client.id,
          direction: 'out',
          text: `message ${externalId}`,
          status: 'sent',
          externalId,
        },
      }),
    );
  return { project, client, messages };
}

it('names the statuses as the database does', () => {
  expect([...DELIVERY_STATUSES]).toEqual(Object.values(DeliveryStatus));
});

it('moves a message forward only, shows it live and posts each move to the webhook once', async () => {
  const { project, client, messages } = await sentMessages(['wamid.1']);
  const [message] = messages;
  const live: LiveEvent[] = [];
  const stop = subscribeLive({ projectId: project.id }, (event) => live.push(event));
  const report = (status: 'delivered' | 'read') =>
    recordDeliveryStatus(deps, { projectId: project.id, clientId: client.id, externalId: 'wamid.1', status });
  try {
    expect(await report('read')).toBe(true);
    // Reports come out of order: a delivered after read moves nothing, and posts nothing.
    expect(await report('delivered')).toBe(false);
    expect(await report('read')).toBe(false);
  } finally {
    stop();
  }
  const db = h.tdb.prisma;
  expect(await db.message.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({
    status: 'read',
    delivered: true,
    error: null,
  });
  expect(live).toEqual([
    { kind: 'message', projectId: project.id, clientId: client.id, messageId: String(message.id) },
  ]);
  const posted = receiver.received.filter((r) => r.body.includes(`"project_id":${project.id}`));
  expect(posted).toHaveLength(1);
  expect(posted[0].headers['webhook-id']).toBe(`msg_${project.id}_${message.id}_read`);
  const body = new Webhook(project.webhookSecret).verify(
    posted[0].body,
    posted[0].headers as Record<string, string>,
  );
  expect(body).toMatchObject({
    type: 'message_status',
    id: Number(message.id),
    client: { id: client.id, recepient: '501' },
    status: 'read',
    delivered: 1,
    error_message: null,
  });
  // The report's outbox row is the client's, so it goes after the message's own delivery.
  expect(await db.outbox.findMany({ where: { projectId: project.id } })).toMatchObject([
    {
      kind: 'webhook',
      clientId: client.id,
      messageId: message.id,
      payload: { status: 'read' },
      state: 'queued',
    },
  ]);
});

it("records a late failure with the messenger's error", async () => {
  const { project, client, messages } = await sentMessages(['wamid.2']);
  expect(
    await recordDeliveryStatus(deps, {
      projectId: project.id,
      clientId: client.id,
      externalId: 'wamid.2',
      status: 'failed',
      error: '131047: Re-engagement message',
    }),
  ).toBe(true);
  expect(await h.tdb.prisma.message.findUniqueOrThrow({ where: { id: messages[0].id } })).toMatchObject({
    status: 'failed',
    delivered: false,
    error: '131047: Re-engagement message',
  });
  const posted = receiver.received.find(
    (r) => r.headers['webhook-id'] === `msg_${project.id}_${messages[0].id}_failed`,
  );
  expect(JSON.parse(posted?.body ?? '{}')).toMatchObject({
    status: 'failed',
    delivered: 0,
    error_message: '131047: Re-engagement message',
  });
});

it("moves nothing for an id the project never sent, nor another project's message", async () => {
  const mine = await sentMessages(['wamid.3']);
  const theirs = await sentMessages(['wamid.4']);
  const report = { projectId: mine.project.id, clientId: mine.client.id, status: 'read' as const };
  expect(await recordDeliveryStatus(deps, { ...report, externalId: 'wamid.unknown' })).toBe(false);
  expect(await recordDeliveryStatus(deps, { ...report, externalId: 'wamid.4' })).toBe(false);
  expect(
    await recordDeliveryStatus(deps, { ...report, clientId: theirs.client.id, externalId: 'wamid.4' }),
  ).toBe(false);
  expect(
    await h.tdb.prisma.message.findUniqueOrThrow({ where: { id: theirs.messages[0].id } }),
  ).toMatchObject({ status: 'sent' });
});

it('a report that came before its send was recorded is tried again, and moves the message once it is', async () => {
  const { project, client } = await sentMessages([]);
  const db = h.tdb.prisma;
  // The message is on its way: the messenger answered (and reported on it) before its id was stored.
  const sending = await db.message.create({
    data: {
      projectId: project.id,
      clientId: client.id,
      direction: 'out',
      text: 'on its way',
      status: 'queued',
    },
  });
  const report = {
    projectId: project.id,
    clientId: client.id,
    externalId: 'call-early',
    status: 'failed' as const,
    error: 'the call was not answered',
  };
  await expect(recordDeliveryStatus(deps, report)).rejects.toThrow(
    "the report on call-early came while the client's message was still being sent",
  );
  await db.message.update({ where: { id: sending.id }, data: { status: 'sent', externalId: 'call-early' } });
  expect(await recordDeliveryStatus(deps, report)).toBe(true);
  expect(await db.message.findUniqueOrThrow({ where: { id: sending.id } })).toMatchObject({
    status: 'failed',
    error: 'the call was not answered',
  });
  // A held send (queued, with the reason it waits) is not on its way: a report on another id moves nothing.
  await db.message.create({
    data: {
      projectId: project.id,
      clientId: client.id,
      direction: 'out',
      text: 'held',
      status: 'queued',
      error: 'rate limited',
    },
  });
  expect(await recordDeliveryStatus(deps, { ...report, externalId: 'call-unknown' })).toBe(false);
});
