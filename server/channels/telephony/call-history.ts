import type { StoredMessageInput } from '@/server/contacts/history-service';
import { storeMessage } from '@/server/contacts/history-service';
import type { Db } from '@/server/db/client-type';
import { publishLive } from '@/server/live/live-events';
import { TELEPHONY_CLIENT_TYPE } from './channel-service';

/** The telephony client calling from (or called at) this number's digits, if any. */
export const findCaller = (db: Db, projectId: number, platformId: string) =>
  db.client.findUnique({
    where: {
      projectId_clientType_groupId_platformId: {
        projectId,
        clientType: TELEPHONY_CLIENT_TYPE,
        groupId: '',
        platformId,
      },
    },
    select: { id: true, currentBlockId: true, botPausedAt: true },
  });

/**
 * What a call leaves in the client's history without running the bot (a transcript's line, a
 * recording), once per `dedupeKey`: a repeat, or two runs at once, store it once. Announced
 * live, as the engine's messages are. Answers whether this run stored it.
 */
export async function keepCallMessage(
  db: Db,
  input: StoredMessageInput & { dedupeKey: string },
): Promise<boolean> {
  const stored = () => db.message.findUnique({ where: { dedupeKey: input.dedupeKey }, select: { id: true } });
  if (await stored()) return false;
  const message = await storeMessage(db, input).catch(async (error) => {
    if (await stored()) return null;
    throw error;
  });
  if (!message) return false;
  publishLive([
    { kind: 'message', projectId: input.projectId, clientId: input.clientId, messageId: String(message.id) },
  ]);
  return true;
}
