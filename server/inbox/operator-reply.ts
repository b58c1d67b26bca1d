import { z } from 'zod';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { notFound, parseInput } from '@/server/errors';
import { markRead } from './inbox-query';

/** An operator's reply: the same limit as any message text. */
export const replyText = z
  .string()
  .max(4096, 'A reply can be at most 4,096 characters.')
  .refine((text) => text.trim() !== '', 'Type a reply first.');

/**
 * An operator's reply to a client (docs/inbox.md): an event of the client like any other, so
 * it takes the engine's path: stored with `message_from_outside` 2, sent through the client's
 * channel by the outbox and delivered to the project's webhook. A send that fails (the
 * client's channel was disconnected) leaves the reply stored as not delivered, with the error.
 * The operator has read the conversation up to the reply.
 */
export async function replyToClient(
  deps: EngineDeps,
  projectId: number,
  memberId: number,
  clientId: number,
  text: string,
) {
  const body = parseInput(replyText, text);
  const exists = await deps.db.client.count({ where: { id: clientId, projectId } });
  if (!exists) throw notFound(`Client ${clientId} does not exist in this project.`);
  const result = await handleEvent(deps, projectId, { clientId }, { type: 'reply', text: body, memberId });
  const [message] = result.messages;
  await markRead(deps.db, projectId, memberId, clientId, message.id);
  return { messageId: message.id, delivered: message.delivered, error: message.error };
}
