import type { StoredMessageInput } from '@/server/contacts/history-service';
import { storeMessage } from '@/server/contacts/history-service';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { publishLive } from '@/server/live/live-events';
import { TELEPHONY_CLIENT_TYPE } from './channel-service';
import { callerByNumber, callerWithLastSaid } from './sql';

/** The telephony client calling from (or called at) this number's digits, if any. */
export const findCaller = async (db: PrismaClient, projectId: number, platformId: string) =>
  (await plainSql(db).run(callerByNumber, { projectId, clientType: TELEPHONY_CLIENT_TYPE, platformId }))[0] ??
  null;

/** findCaller, with the last message said to the caller (null when nothing was). */
export async function findCallerWithLastSaid(db: PrismaClient, projectId: number, platformId: string) {
  const [row] = await plainSql(db).run(callerWithLastSaid, {
    projectId,
    clientType: TELEPHONY_CLIENT_TYPE,
    platformId,
  });
  if (!row) return { client: null, last: null };
  const { said, text, buttons, externalId, ...client } = row;
  return { client, last: said ? { text: text ?? '', buttons, externalId } : null };
}

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
