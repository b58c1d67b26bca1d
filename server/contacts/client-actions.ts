import { MESSAGE_FROM } from '@/lib/history-message';
import { isBotPaused } from '@/lib/inbox/pause';
import type { PrismaClient } from '@/server/db/client-type';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { DomainError, notFound } from '@/server/errors';
import { deleteClients } from './client-listing';
import { getClient, lockClients } from './client-service';

/**
 * Sends a client to a block from the CRM (the client profile): the block runs fully and the
 * client moves into it, the same event as the API's `message` with `message_id`, marked as
 * coming from the CRM (bot-semantics §3).
 */
export async function sendClientToBlock(
  deps: EngineDeps,
  projectId: number,
  clientId: number,
  blockId: number,
) {
  const client = await getClient(deps.db, projectId, clientId);
  // A paused bot enters no block (the engine only notes it): say so rather than send nothing.
  if (isBotPaused(client, deps.now()))
    throw new DomainError(
      'conflict',
      'The bot is paused for this client while an operator answers: resume the bot first, then send the client to a block.',
    );
  const result = await handleEvent(
    deps,
    projectId,
    { clientId },
    { type: 'enter_block', blockId, messageFromOutside: MESSAGE_FROM.crm },
  );
  return { currentBlockId: result.currentBlockId, sent: result.messages.length };
}

/**
 * Resets a client's dialogue (docs/clients.md, "Client profile"): the client leaves its block,
 * so its next message starts the bot as a new client's would; the open deal's variables are
 * cleared and the deal is closed (the next event opens a new one); pending timers and delayed
 * or scheduled messages are cancelled. The history, the client's own variables, lists and
 * submissions stay. Under the client's lock, as events take it.
 */
export async function resetDialogue(deps: EngineDeps, projectId: number, clientId: number) {
  const now = deps.now();
  const pending = await deps.db.$transaction(async (tx) => {
    await lockClients(tx, projectId, [clientId]);
    await tx.client.update({ where: { id: clientId }, data: { currentBlockId: null } });
    const deals = await tx.deal.findMany({
      where: { projectId, clientId, closedAt: null },
      select: { id: true },
    });
    const dealIds = deals.map((d) => d.id);
    await tx.dealVariable.deleteMany({ where: { dealId: { in: dealIds } } });
    await tx.deal.updateMany({ where: { id: { in: dealIds } }, data: { closedAt: now } });
    const pending = await tx.scheduledSend.findMany({
      where: { projectId, clientId, status: 'pending' },
      select: { id: true, jobId: true },
    });
    await tx.scheduledSend.updateMany({
      where: { id: { in: pending.map((p) => p.id) } },
      data: { status: 'cancelled', doneAt: now },
    });
    return pending;
  });
  // A job that still fires finds its row cancelled and does nothing: cancelling it only saves the wake-up.
  for (const { jobId } of pending) if (jobId) await deps.scheduler.cancel(jobId).catch(() => {});
  return { cancelledSends: pending.length };
}

/** Deletes one client with its history, deals and variables; another project's client is not found. */
export async function deleteClient(db: PrismaClient, projectId: number, clientId: number) {
  if (!(await deleteClients(db, projectId, [clientId])))
    throw notFound(`Client ${clientId} does not exist in this project.`);
}
