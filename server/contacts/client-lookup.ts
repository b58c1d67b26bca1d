import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import type { Db } from '@/server/db/client-type';
import { findClientIdByPhoneDigits } from '@/server/db/row-queries';

/** Phone numbers compare by their digits: `+7 (900) 123-45-67`, `79001234567@c.us` and `79001234567` agree. */
export function phoneDigits(phone: string): string {
  return phone.replace(/@.*$/, '').replace(/\D/g, '');
}

export async function findClientIdsByPlatformIds(db: Db, projectId: number, platformIds: readonly string[]) {
  const rows = await db.client.findMany({
    where: { projectId, platformId: { in: [...platformIds] } },
    select: { id: true, platformId: true },
    orderBy: { id: 'asc' },
  });
  return rows;
}

/** Chat-app clients by their number (with or without the messenger suffix), then `phone` variables. */
export async function findClientIdByPhone(db: Db, projectId: number, phone: string): Promise<number | null> {
  const digits = phoneDigits(phone);
  if (!digits) return null;
  const chatapp = await db.client.findFirst({
    where: {
      projectId,
      clientType: CLIENT_TYPES.chatapp,
      platformId: { in: [digits, `+${digits}`, `${digits}@c.us`, `${digits}@s.whatsapp.net`] },
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  if (chatapp) return chatapp.id;
  return findClientIdByPhoneDigits(db, projectId, digits);
}

/** E-mail variables of the profile or a deal, compared without case. */
export async function findClientIdByEmail(db: Db, projectId: number, email: string): Promise<number | null> {
  return findClientIdByVariable(db, projectId, 'email', email.trim(), { caseInsensitive: true });
}

/** `client.x` searches profiles; any other name searches deals first, then profiles. */
export async function findClientIdByVariable(
  db: Db,
  projectId: number,
  name: string,
  value: string,
  options: { caseInsensitive?: boolean } = {},
): Promise<number | null> {
  const isClient = name.startsWith('client.');
  const bare = isClient ? name.slice('client.'.length) : name;
  // valueKey is indexed with the name; the full value is compared after, as it may be longer.
  const valueKeyFilter = {
    equals: value.slice(0, 200),
    ...(options.caseInsensitive ? { mode: 'insensitive' as const } : {}),
  };
  const matches = (v: string) =>
    options.caseInsensitive ? v.toLowerCase() === value.toLowerCase() : v === value;
  if (!isClient) {
    const dealRows = await db.dealVariable.findMany({
      where: { projectId, name: bare, valueKey: valueKeyFilter },
      select: { value: true, deal: { select: { clientId: true } } },
      orderBy: { dealId: 'desc' },
      take: 50,
    });
    const hit = dealRows.find((r) => matches(r.value));
    if (hit) return hit.deal.clientId;
  }
  const clientRows = await db.clientVariable.findMany({
    where: { projectId, name: bare, valueKey: valueKeyFilter },
    select: { clientId: true, value: true },
    orderBy: { clientId: 'asc' },
    take: 50,
  });
  return clientRows.find((r) => matches(r.value))?.clientId ?? null;
}
