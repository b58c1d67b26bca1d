import type { z } from 'zod';
import type { Value } from '@/lib/formula';
import { storableJson } from '@/lib/storable-json';
import { BUSINESS_CONNECTION_KEY } from '@/lib/tg/inbound';
import type { ChannelClient } from '@/server/channels/channel-adapter';
import type { TakenSlot } from '@/server/db/channel-pacing-sql';
import type { PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { GroupWrite } from '@/server/db/group-write';
import { plainSql } from '@/server/db/raw-sql';
import type { SlotParams } from './pacing';
import { sendRoutesWithSlots } from './sql';

/**
 * tg_callback's business flag (platform-interface: "pass 1 for business clients"). A client
 * who last wrote through a business account keeps its connection id in its channel state
 * (`BUSINESS_CONNECTION_KEY`) and is answered through it; the flag selects such a client, its
 * absence one who writes to the bot directly.
 */
export const isBusinessFlag = (value: Value | undefined): boolean =>
  value === true || value === 1 || value === '1' || value === 'True' || value === 'true';

/** The clients reached through a business connection (`business`), or directly. */
export function reachedThroughBusiness(business: boolean): Prisma.ClientWhereInput {
  const kept = { some: { key: BUSINESS_CONNECTION_KEY } };
  return business ? { channelStates: kept } : { channelStates: { none: kept.some } };
}

type RouteRow = z.infer<NonNullable<typeof sendRoutesWithSlots.row>>;

interface RouteRequest {
  projectId: number;
  clientType: number;
  groupId: string;
  clientId: number;
  chat: string;
  botMs: number;
  chatMs: number;
}

/**
 * The routes of sends that come at once, in one statement (GroupWrite), per database: a bot's
 * sends to different chats share its pacing row's one lock; two sends to one chat go in two
 * statements, so the second is spaced from the first.
 */
const routeWrites = new WeakMap<PrismaClient, GroupWrite<RouteRequest, RouteRow | undefined>>();

function routesOf(db: PrismaClient) {
  let write = routeWrites.get(db);
  if (!write) {
    write = new GroupWrite(
      async (requests) => {
        const rows = await plainSql(db).run(sendRoutesWithSlots, {
          rows: storableJson(requests),
          stateKey: BUSINESS_CONNECTION_KEY,
        });
        const byPlace = new Map(rows.map((row) => [Number(row.n), row]));
        return requests.map((_, i) => byPlace.get(i + 1));
      },
      { distinct: (r) => `${r.projectId}\u0000${r.groupId.toLowerCase()}\u0000${r.chat}` },
    );
    routeWrites.set(db, write);
  }
  return write;
}

/**
 * How a message reaches a tg client: through the bot it wrote to (its group_id) and, when it
 * last wrote through a business account, that connection; one the owner disabled, or left
 * without the right to reply, is refused. One statement for the sends of a moment, as it runs
 * for every message sent, which also takes each send's first pacing slot (`slot`: the pacer's
 * slotParams for the chat) when its route is not refused.
 */
export async function tgRoute(db: PrismaClient, client: ChannelClient, slot: SlotParams) {
  const row = await routesOf(db).add({
    projectId: client.projectId,
    clientType: client.clientType,
    groupId: client.groupId,
    clientId: client.id,
    chat: slot.chat,
    botMs: slot.botMs,
    chatMs: slot.chatMs,
  });
  if (!row) throw new Error(`the tg bot ${client.groupId} is not connected to this project`);
  const { n: _place, connectionId, enabled, canReply, waitMs, chatEntry, ...channel } = row;
  // Unseen (connected before the bot was): the messenger itself accepts or refuses it.
  if (!connectionId || enabled === null || (enabled && canReply)) {
    const taken: TakenSlot | undefined =
      waitMs !== null && chatEntry !== null ? { waitMs, chatEntry } : undefined;
    return { channel, business: connectionId ? { business_connection_id: connectionId } : {}, slot: taken };
  }
  return {
    channel,
    refused: `the business connection ${connectionId} ${
      enabled ? 'does not allow the bot to reply' : 'is disabled'
    }: the business account's owner must turn the bot back on (with the right to reply) in the messenger's Business settings`,
  };
}
