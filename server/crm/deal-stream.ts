import { subscribeLive } from '@/server/live/live-events';
import { sseResponse } from '@/server/live/sse';
import { memberOfRequest } from '@/server/projects/request-member';

/**
 * The deals board's live events (docs/crm.md): `deal` `{ dealId, clientId }` when a deal moved
 * or closed (the bot, the API, another operator), `client` `{ clientId }` when a client's
 * assignment changed, `ready` once set up and `resync` when events may have been lost (the
 * board re-reads its columns). Ids only: the board reads what it shows through its own
 * membership-checked queries.
 */
export async function dealEvents(request: Request, rawProjectId: string): Promise<Response> {
  const member = await memberOfRequest(request, rawProjectId, '/api/projects/<project id>/deals/events');
  if (member instanceof Response) return member;
  const { projectId } = member;
  return sseResponse(request, (send) => {
    const stop = subscribeLive({ projectId }, (event) => {
      if (event.kind === 'deal') send('deal', { dealId: event.dealId, clientId: event.clientId });
      else if (event.kind === 'client') send('client', { clientId: event.clientId });
      else if (event.kind === 'resync') send('resync', {});
    });
    send('ready', {});
    return stop;
  });
}
