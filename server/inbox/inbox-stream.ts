import { z } from 'zod';
import type { HistoryMessage } from '@/lib/history-message';
import { toHistoryMessage, WITH_SENDER } from '@/server/contacts/history-service';
import type { PrismaClient } from '@/server/db/client-type';
import { type LiveEvent, subscribeLive } from '@/server/live/live-events';
import { lastEventId, type SseSend, sseResponse } from '@/server/live/sse';
import { logFor } from '@/server/log';
import { jsonRefusal, memberOfRequest } from '@/server/projects/request-member';

const log = logFor('inbox');

/** Messages sent at once when a stream resumes; past it the browser re-reads the conversation. */
export const RESUME_LIMIT = 500;

const idText = z.string().regex(/^\d{1,19}$/);
const streamQuery = z.object({ clientId: z.coerce.number().int().positive().optional() });

/**
 * What the inbox's stream sends (docs/inbox.md):
 * - `message` (SSE id: the message's id): a message of the open conversation, stored or with
 *   its delivery state changed, as the UI shows it; the browser merges by id;
 * - `changed`: `{ clientId }`, something of a conversation changed (a message of another
 *   conversation, an assignment, a pause, the waiting mark): the list re-reads;
 * - `ready`: sent once the stream is set up (after any resumed messages), so the browser
 *   re-reads what it may have missed while it was away;
 * - `resync`: events may have been lost: re-read everything shown.
 */
export type InboxStreamEvent =
  | { event: 'message'; data: { clientId: number; message: HistoryMessage } }
  | { event: 'changed'; data: { clientId: number } }
  | { event: 'ready' | 'resync'; data: Record<string, never> };

/**
 * The inbox's live events of one project (and its open conversation, `?clientId=`) for a signed-in
 * member. On a reconnect the browser sends the last message id it got (`Last-Event-ID`); the
 * open conversation's messages stored after it are sent first, then live ones, so none is lost,
 * and a message already shown comes again only to replace itself.
 */
export async function inboxEvents(request: Request, rawProjectId: string): Promise<Response> {
  const usage = '/api/projects/<project id>/inbox/events[?clientId=<client id>]';
  const query = streamQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return jsonRefusal(400, `Expected ${usage}.`);
  const member = await memberOfRequest(request, rawProjectId, usage);
  if (member instanceof Response) return member;
  const { db, projectId } = member;
  const clientId = query.data.clientId ?? null;
  if (clientId && !(await db.client.count({ where: { id: clientId, projectId } })))
    return jsonRefusal(404, `Client ${clientId} does not exist in this project.`);
  const after = idText.safeParse(lastEventId(request));
  return sseResponse(request, (send) =>
    stream(db, send, projectId, clientId, after.success ? BigInt(after.data) : null),
  );
}

async function stream(
  db: PrismaClient,
  rawSend: SseSend,
  projectId: number,
  clientId: number | null,
  after: bigint | null,
) {
  const send = (e: InboxStreamEvent, id?: string) => rawSend(e.event, e.data, id);
  /** The greatest message id sent: the SSE id only moves forward, so a resume never skips one. */
  let lastSent = after ?? 0n;
  const sendMessage = (message: HistoryMessage) => {
    const id = BigInt(message.id);
    const forward = id > lastSent;
    if (forward) lastSent = id;
    send({ event: 'message', data: { clientId: clientId ?? 0, message } }, forward ? message.id : undefined);
  };

  // Live events are taken from now on, in order, behind the resumed messages.
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const onEvent = (event: LiveEvent) => {
    queue = queue.then(async () => {
      if (closed) return;
      if (event.kind === 'resync') return send({ event: 'resync', data: {} });
      if (
        event.kind === 'typing' ||
        event.kind === 'deal' ||
        event.kind === 'bot' ||
        event.kind === 'presence'
      )
        return;
      if (event.kind === 'message' && event.clientId === clientId) {
        const row = await db.message.findFirst({
          where: { id: BigInt(event.messageId), projectId, clientId },
          include: WITH_SENDER,
        });
        if (row) sendMessage(toHistoryMessage(row));
      }
      send({ event: 'changed', data: { clientId: event.clientId } });
    });
    queue = queue.catch((error: Error) => log.error(`stream event failed: ${error.message}`));
  };
  const unsubscribe = subscribeLive({ projectId }, onEvent);

  queue = queue.then(async () => {
    if (clientId && after !== null) {
      const missed = await db.message.findMany({
        where: { projectId, clientId, id: { gt: after } },
        orderBy: { id: 'asc' },
        take: RESUME_LIMIT,
        include: WITH_SENDER,
      });
      for (const row of missed) sendMessage(toHistoryMessage(row));
      if (missed.length === RESUME_LIMIT) send({ event: 'resync', data: {} });
    }
    send({ event: 'ready', data: {} });
  });
  return () => {
    closed = true;
    unsubscribe();
  };
}
