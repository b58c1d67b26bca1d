import type { Attachment, Buttons } from '@/lib/schema';
import { loadBotSchema } from '@/server/bot-schema/bot-schema-store';
import { channelFor } from '@/server/channels/registry';
import { type ClientRef, resolveClient } from '@/server/clients/client-service';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { notFound } from '@/server/errors';
import { readVariables } from '@/server/variables/variable-store';
import { getCompiledBot } from './compiled-bot';
import type { EngineDeps } from './engine-deps';
import { EventRun } from './event-run';
import type { EngineEvent, LogEntry } from './events';

const MESSENGERS: Record<number, string> = {
  1: 'tg',
  5: 'online_chat',
  6: 'chatapp',
  10: 'social',
  13: 'telephony',
  99: 'simulator',
};

export interface StoredOutgoing {
  id: bigint;
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
  delivered: boolean;
  error: string | null;
}

export interface EventResult {
  clientId: number;
  currentBlockId: number | null;
  messages: StoredOutgoing[];
  log: LogEntry[];
}

export type EventTarget = { clientId: number } | { ref: ClientRef };

/**
 * The one flow every message takes (DESIGN.md): resolve the client, then under the client's
 * lock store the incoming message, route, enter blocks, store what goes out and schedule
 * timers; after the commit, send through the client's channel and run follow-up work.
 */
export async function handleEvent(
  deps: EngineDeps,
  projectId: number,
  target: EventTarget,
  event: EngineEvent,
): Promise<EventResult> {
  const clientId =
    'clientId' in target ? target.clientId : (await resolveClient(deps.db, projectId, target.ref)).id;

  const run = await deps.db.$transaction(
    async (tx) => {
      // Events of one client are processed one at a time, in arrival order.
      const locked = await tx.$queryRaw<
        { id: number }[]
      >`SELECT id FROM "Client" WHERE id = ${clientId} AND "projectId" = ${projectId} FOR UPDATE`;
      if (!locked.length) throw notFound(`Client ${clientId} does not exist in this project.`);
      const [project, client] = await Promise.all([
        tx.project.findUniqueOrThrow({
          where: { id: projectId },
          select: { id: true, plan: true, timeZone: true, schemaRevision: true },
        }),
        tx.client.findUniqueOrThrow({ where: { id: clientId } }),
      ]);
      const bot = await getCompiledBot(projectId, project.schemaRevision, () => loadBotSchema(tx, projectId));
      const deal = await openDealIn(tx, projectId, clientId);
      const variables = await readVariables(tx, { projectId, clientId, dealId: deal.id });
      const run = new EventRun(
        deps,
        tx,
        project,
        bot,
        client,
        deal.id,
        variables,
        MESSENGERS[client.clientType] ?? String(client.clientType),
      );
      await run.process(event);
      await run.flushVariables();
      const stored = await storeOutgoing(tx, run);
      await tx.client.update({
        where: { id: clientId },
        data: {
          currentBlockId: run.client.currentBlockId,
          lastMessageAt: event.type === 'message' ? deps.now() : undefined,
        },
      });
      if (run.log.length) {
        await tx.engineLogEntry.createMany({
          data: run.log.map((entry) => ({
            projectId,
            clientId,
            kind: entry.kind,
            data: entry.data as Prisma.InputJsonObject,
          })),
        });
      }
      return { run, stored, client };
    },
    { timeout: 120_000, maxWait: 120_000 },
  );

  const messages = await deliver(deps, run.client, run.stored);
  await afterCommit(deps, projectId, run.run);
  const storedIds = [...run.run.incomingIds, ...run.stored.map((m) => m.id)];
  if (deps.onMessagesStored && storedIds.length) await deps.onMessagesStored(projectId, storedIds);
  return { clientId, currentBlockId: run.run.client.currentBlockId, messages, log: run.run.log };
}

async function openDealIn(tx: Db, projectId: number, clientId: number) {
  const open = await tx.deal.findFirst({
    where: { projectId, clientId, closedAt: null },
    orderBy: { id: 'desc' },
  });
  return open ?? tx.deal.create({ data: { projectId, clientId } });
}

async function storeOutgoing(tx: Db, run: EventRun): Promise<StoredOutgoing[]> {
  const stored: StoredOutgoing[] = [];
  for (const m of run.outgoing) {
    if (
      m.dedupeKey &&
      (await tx.message.findUnique({ where: { dedupeKey: m.dedupeKey }, select: { id: true } }))
    )
      continue;
    const row = await tx.message.create({
      data: {
        projectId: run.project.id,
        clientId: run.client.id,
        direction: 'out',
        text: m.text,
        attachments: m.attachments as Prisma.InputJsonArray,
        buttons: (m.buttons ?? undefined) as Prisma.InputJsonValue | undefined,
        blockId: m.blockId,
        messageFromOutside: m.messageFromOutside,
        dedupeKey: m.dedupeKey ?? null,
        delivered: false,
      },
    });
    stored.push({
      id: row.id,
      text: m.text,
      attachments: m.attachments,
      buttons: m.buttons,
      blockId: m.blockId,
      delivered: false,
      error: null,
    });
  }
  return stored;
}

/** Hands stored messages to the client's channel and records the outcome. */
async function deliver(
  deps: EngineDeps,
  client: { id: number; projectId: number; platformId: string; groupId: string; clientType: number },
  messages: StoredOutgoing[],
) {
  const adapter = channelFor(client.clientType);
  for (const m of messages) {
    const result = await adapter
      .send(client, m)
      .catch((error: Error) => ({ delivered: false, error: error.message }));
    m.delivered = result.delivered;
    m.error = result.error ?? null;
    await deps.db.message.update({ where: { id: m.id }, data: { delivered: m.delivered, error: m.error } });
  }
  return messages;
}

async function afterCommit(deps: EngineDeps, projectId: number, run: EventRun) {
  for (const jobId of run.cancelledJobs) await deps.scheduler.cancel(jobId).catch(() => {});
  for (const send of run.scheduled) {
    const jobId = await deps.scheduler.schedule(
      { projectId, clientId: send.clientId, scheduledSendId: send.id },
      send.runAt,
    );
    if (jobId) await deps.db.scheduledSend.update({ where: { id: send.id }, data: { jobId } });
  }
  for (const { clientId: other, event } of run.deferred) {
    await handleEvent(deps, projectId, { clientId: other }, event).catch((error: Error) =>
      console.error(`[engine] event for client ${other} failed:`, error.message),
    );
  }
}
