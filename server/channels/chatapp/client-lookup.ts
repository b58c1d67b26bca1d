import { findClientIdsByNumber } from '@/server/contacts/client-lookup';
import type { Db } from '@/server/db/client-type';
import { CHATAPP_CLIENT_TYPE } from './channel-service';

/**
 * The chat-app client with this number, written in any form (`+7 900 123-45-67`,
 * `79001234567@c.us`), by the phone lookup every caller shares; null when there is none.
 */
export async function findChatappClientId(db: Db, projectId: number, phone: string): Promise<number | null> {
  const [id] = await findClientIdsByNumber(db, projectId, phone, [CHATAPP_CLIENT_TYPE], { limit: 1 });
  return id ?? null;
}
