import { subscribeLive } from '@/server/live/live-events';
import { sseResponse } from '@/server/live/sse';
import { memberOfRequest } from '@/server/projects/request-member';

/**
 * The builder's live events (docs/builder.md, "Working together"): `bot` `{ revision }` when
 * the draft has a new revision (the canvas reads what changed through `botSchema.changesSince`),
 * `presence` (lib/schema/draft-presence.ts) when another designer's selection or pointer moves,
 * `ready` once set up and `resync` when events may have been lost (the canvas asks anyway).
 */
export async function draftEvents(request: Request, rawProjectId: string): Promise<Response> {
  const member = await memberOfRequest(request, rawProjectId, '/api/projects/<project id>/bot/events');
  if (member instanceof Response) return member;
  const { projectId } = member;
  return sseResponse(request, (send) => {
    const stop = subscribeLive({ projectId }, (event) => {
      if (event.kind === 'bot') send('bot', { revision: event.revision });
      else if (event.kind === 'presence') {
        const { kind: _kind, projectId: _project, ...presence } = event;
        send('presence', presence);
      } else if (event.kind === 'resync') send('resync', {});
    });
    send('ready', {});
    return stop;
  });
}
