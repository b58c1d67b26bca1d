import { phoneDigits } from '@/lib/channels/phone-numbers';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import type { Db } from '@/server/db/client-type';
import { findClientIdsByPhoneDigits } from '@/server/db/row-queries';

export async function findClientIdsByPlatformIds(db: Db, projectId: number, platformIds: readonly string[]) {
  const rows = await db.client.findMany({
    where: { projectId, platformId: { in: [...platformIds] } },
    select: { id: true, platformId: true },
    orderBy: { id: 'asc' },
  });
  return rows;
}

/** Narrows a search to the clients of one channel (a messenger bot's group_id). */
export interface ChannelFilter {
  groupId?: string;
}

/**
 * A group_id as a filter: in any case, as tg bot usernames are case-insensitive (`Shop_Bot`
 * finds the clients of `shop_bot`); the other channels' group ids are numbers or empty.
 */
export const groupIdFilter = (groupId: string | undefined) =>
  groupId === undefined ? undefined : { equals: groupId, mode: 'insensitive' as const };

/** The clients stored by their phone number: the chat-app messenger's and telephony's. */
const PHONE_CLIENT_TYPES = [CLIENT_TYPES.chatapp, CLIENT_TYPES.telephony];

/** The forms a phone client's number may be stored under (telephony's: the digits). */
const chatappNumbers = (digits: string) => [
  digits,
  `+${digits}`,
  `${digits}@c.us`,
  `${digits}@s.whatsapp.net`,
];

/**
 * Clients of these phone client types whose number is this phone, in any form it may be stored
 * under (with or without the messenger suffix); at most `limit`, by id.
 */
export async function findClientIdsByNumber(
  db: Db,
  projectId: number,
  phone: string,
  clientTypes: readonly number[],
  options: ChannelFilter & { limit: number },
): Promise<number[]> {
  const digits = phoneDigits(phone);
  if (!digits) return [];
  const rows = await db.client.findMany({
    where: {
      projectId,
      clientType: { in: [...clientTypes] },
      platformId: { in: chatappNumbers(digits) },
      groupId: groupIdFilter(options.groupId),
    },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: options.limit,
  });
  return rows.map((c) => c.id);
}

/**
 * Clients with this phone: chat-app and telephony clients by their number (with or without the messenger
 * suffix), then those whose `phone` variable has its digits; at most `limit`.
 */
export async function findClientIdsByPhone(
  db: Db,
  projectId: number,
  phone: string,
  options: ChannelFilter & { limit: number },
): Promise<number[]> {
  const digits = phoneDigits(phone);
  if (!digits) return [];
  const byNumber = await findClientIdsByNumber(db, projectId, digits, PHONE_CLIENT_TYPES, options);
  if (byNumber.length >= options.limit) return byNumber;
  return distinct(byNumber, await findClientIdsByPhoneDigits(db, projectId, digits, options)).slice(
    0,
    options.limit,
  );
}

/** The first client with this phone (see findClientIdsByPhone). */
export async function findClientIdByPhone(db: Db, projectId: number, phone: string): Promise<number | null> {
  return (await findClientIdsByPhone(db, projectId, phone, { limit: 1 }))[0] ?? null;
}

/** Clients whose e-mail variable (profile or a deal) is this one, compared without case. */
export async function findClientIdsByEmail(
  db: Db,
  projectId: number,
  email: string,
  options: ChannelFilter & { limit: number },
): Promise<number[]> {
  return findClientIdsByVariable(db, projectId, 'email', email.trim(), { ...options, caseInsensitive: true });
}

/** The first client with this e-mail (see findClientIdsByEmail). */
export async function findClientIdByEmail(db: Db, projectId: number, email: string): Promise<number | null> {
  return (await findClientIdsByEmail(db, projectId, email, { limit: 1 }))[0] ?? null;
}

/** Rows compared by their value after the indexed prefix, per variable table. */
const VARIABLE_ROWS = 50;

/**
 * Clients whose variable `name` is `value`: `client.x` searches profiles; any other name
 * searches deals first (newest first), then profiles. At most `limit`.
 */
export async function findClientIdsByVariable(
  db: Db,
  projectId: number,
  name: string,
  value: string,
  options: ChannelFilter & { caseInsensitive?: boolean; limit: number },
): Promise<number[]> {
  const isClient = name.startsWith('client.');
  const bare = isClient ? name.slice('client.'.length) : name;
  // valueKey is indexed with the name; the full value is compared after, as it may be longer.
  const valueKeyFilter = {
    equals: value.slice(0, 200),
    ...(options.caseInsensitive ? { mode: 'insensitive' as const } : {}),
  };
  const matches = (v: string) =>
    options.caseInsensitive ? v.toLowerCase() === value.toLowerCase() : v === value;
  const client = options.groupId === undefined ? undefined : { groupId: groupIdFilter(options.groupId) };
  const dealRows = isClient
    ? []
    : await db.dealVariable.findMany({
        where: { projectId, name: bare, valueKey: valueKeyFilter, deal: client && { client } },
        select: { value: true, deal: { select: { clientId: true } } },
        orderBy: { dealId: 'desc' },
        take: VARIABLE_ROWS,
      });
  const byDeal = distinct(dealRows.filter((r) => matches(r.value)).map((r) => r.deal.clientId));
  if (byDeal.length >= options.limit) return byDeal.slice(0, options.limit);
  const clientRows = await db.clientVariable.findMany({
    where: { projectId, name: bare, valueKey: valueKeyFilter, client },
    select: { clientId: true, value: true },
    orderBy: { clientId: 'asc' },
    take: VARIABLE_ROWS,
  });
  return distinct(
    byDeal,
    clientRows.filter((r) => matches(r.value)).map((r) => r.clientId),
  ).slice(0, options.limit);
}

/** The first client whose variable `name` is `value` (see findClientIdsByVariable). */
export async function findClientIdByVariable(
  db: Db,
  projectId: number,
  name: string,
  value: string,
): Promise<number | null> {
  return (await findClientIdsByVariable(db, projectId, name, value, { limit: 1 }))[0] ?? null;
}

/** What locates a client whose id the caller does not know (platform-interface, universal webhook mode). */
export interface ClientIdentifiers extends ChannelFilter {
  phone?: string;
  email?: string;
  /** The client's id in its messenger (the interface's user_id). */
  platformId?: string;
}

/**
 * The clients any of the identifiers matches (a phone or an e-mail through the client's
 * variables and chat-app number; a platform id as the messenger's id), only those of the
 * channel `groupId` when given: by id, at most `limit`.
 */
export async function findClientIdsByIdentifiers(
  db: Db,
  projectId: number,
  ids: ClientIdentifiers,
  limit: number,
): Promise<number[]> {
  const options = { groupId: ids.groupId, limit };
  const [byPhone, byEmail, byPlatformId] = await Promise.all([
    ids.phone === undefined ? [] : findClientIdsByPhone(db, projectId, ids.phone, options),
    ids.email === undefined ? [] : findClientIdsByEmail(db, projectId, ids.email, options),
    ids.platformId === undefined
      ? []
      : db.client
          .findMany({
            where: { projectId, platformId: ids.platformId, groupId: groupIdFilter(ids.groupId) },
            select: { id: true },
            orderBy: { id: 'asc' },
            take: limit,
          })
          .then((rows) => rows.map((r) => r.id)),
  ]);
  return distinct(byPhone, byEmail, byPlatformId)
    .sort((a, b) => a - b)
    .slice(0, limit);
}

/** The ids in their first order, each once. */
const distinct = (...lists: number[][]) => [...new Set(lists.flat())];
