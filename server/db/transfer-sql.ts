import { z } from 'zod';
import type { Prisma } from './generated/client';

/** Tables whose rows a project import creates with ids of its own (server/transfer/). */
export type SerialTable =
  | 'Client'
  | 'CrmFunnel'
  | 'CrmState'
  | 'Deal'
  | 'ClientList'
  | 'Message'
  | 'Channel'
  | 'AiProvider'
  | 'KnowledgeDocument';

/**
 * Takes `count` ids from a table's own sequence, in ascending order: the importer writes rows
 * with them, so the ids it maps the archive's to are known before the insert, and the
 * sequence stays ahead of every row as if they had been inserted one by one.
 */
export async function reserveIds(
  tx: Prisma.TransactionClient,
  table: SerialTable,
  count: number,
): Promise<bigint[]> {
  if (!count) return [];
  const rows = await tx.$queryRawUnsafe(
    `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::text AS id FROM generate_series(1, $1::int)`,
    count,
  );
  return z
    .array(z.object({ id: z.string() }))
    .parse(rows)
    .map((r) => BigInt(r.id))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
