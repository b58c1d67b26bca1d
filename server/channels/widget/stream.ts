import type { EngineDeps } from '@/server/engine/engine-deps';
import { subscribeLive } from '@/server/live/live-events';
import { lastEventId, sseResponse } from '@/server/live/sse';
import { logFor } from '@/server/log';
import { messagesAfter, RESUME_PAGE, type Visitor } from './visitors';

const log = logFor('widget');

/**
 * The visitor's live stream: every stored message after the one the browser last had (the SSE
 * id, sent back as Last-Event-ID when it reconnects), in id order, each once; then the new ones
 * as they are announced, `typing` while the bot works, and `draft` as an AI answer is written. Subscribed before the first read,
 * so a message stored in between is announced to a listener that is already there.
 */
export function dialogStream(req: Request, deps: EngineDeps, visitor: Visitor): Response {
  const given = lastEventId(req);
  let last = given && /^\d{1,19}$/.test(given) ? BigInt(given) : 0n;
  return sseResponse(req, (send) => {
    let reading = Promise.resolve();
    let stopped = false;
    let queued = false;
    // Reads one after another, so a message is never sent twice nor out of order; announcements
    // arriving before the next read starts (a message in and its reply) share that read.
    const catchUp = () => {
      if (queued) return;
      queued = true;
      reading = reading
        .then(async () => {
          queued = false;
          for (;;) {
            if (stopped) return;
            const messages = await messagesAfter(deps.db, visitor, last);
            for (const message of messages) {
              send('message', message, message.id);
              last = BigInt(message.id);
            }
            if (messages.length < RESUME_PAGE) return;
          }
        })
        .catch((error: Error) => log.error(`the live stream could not read: ${error.message}`));
    };
    const unsubscribe = subscribeLive(
      { projectId: visitor.projectId, clientId: visitor.clientId },
      (event) => {
        // A resync: events may have been missed while another instance was out of reach.
        if (event.kind === 'message' || event.kind === 'resync') catchUp();
        else if (event.kind === 'typing') send('typing', { on: event.on });
        else if (event.kind === 'draft') send('draft', { text: event.text });
      },
    );
    catchUp();
    return () => {
      stopped = true;
      unsubscribe();
    };
  });
}
