import type { Value } from '@/lib/formula';
import { BUSINESS_CONNECTION_VARIABLE } from '@/lib/tg/inbound';
import type { Prisma } from '@/server/db/generated/client';

/**
 * tg_callback's business flag (platform-interface: "pass 1 for business clients"). A client
 * who last wrote through a business account keeps its connection id in
 * `client.tg_business_connection_id` and is answered through it; the flag selects such a
 * client, its absence one who writes to the bot directly.
 */
export const isBusinessFlag = (value: Value | undefined): boolean =>
  value === true || value === 1 || value === '1' || value === 'True' || value === 'true';

/** The clients reached through a business connection (`business`), or directly. */
export function reachedThroughBusiness(business: boolean): Prisma.ClientWhereInput {
  const kept = { some: { name: BUSINESS_CONNECTION_VARIABLE, value: { not: '' } } };
  return business ? { variables: kept } : { variables: { none: kept.some } };
}
