import type { Db } from '@/server/db/client-type';

/**
 * Whether a client is subscribed to the Viber bot, kept in their channel state: 'yes' once they
 * write (a message subscribes them, with no `subscribed` callback) or subscribe, 'no' once they
 * unsubscribe, open the chat without subscribing, or Viber refuses a send to them as not
 * subscribed; no state for a client the bot has not heard of that way (the send is tried).
 */
export const SUBSCRIBED_KEY = 'viber.subscribed';

export async function readSubscribed(db: Db, clientId: number): Promise<'yes' | 'no' | null> {
  const row = await db.clientChannelState.findUnique({
    where: { clientId_key: { clientId, key: SUBSCRIBED_KEY } },
    select: { value: true },
  });
  return row?.value === 'yes' || row?.value === 'no' ? row.value : null;
}

export async function writeState(db: Db, clientId: number, key: string, value: string): Promise<void> {
  await db.clientChannelState.upsert({
    where: { clientId_key: { clientId, key } },
    create: { clientId, key, value },
    update: { value, updatedAt: new Date() },
  });
}
