import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import type { Db } from '@/server/db/client-type';
import type { Visitor } from './visitors';

/**
 * The visitor of the widget dialog `recipient` (the id the widget script exposes on the page,
 * its client's platform_id) in the project; null when there is none.
 */
export async function findVisitorByRecipient(
  db: Db,
  projectId: number,
  recipient: string,
): Promise<Visitor | null> {
  const client = await db.client.findFirst({
    where: { projectId, clientType: CLIENT_TYPES.widget, platformId: recipient },
    select: { id: true },
  });
  return client && { clientId: client.id, projectId, recipient };
}
