import { z } from 'zod';
import type { PrismaClient } from '@/server/db/client-type';
import { column } from '@/server/db/columns';
import { PreparedStatement, plainSql } from '@/server/db/raw-sql';

/** Ids an event draws before its final write, for rows it creates there. */

/** Tables whose new rows the event numbers itself, as their id is needed before the final write. */
export type NumberedTable = 'Deal' | 'Submission' | 'ScheduledSend';

const nextIdStatement = (table: NumberedTable) =>
  new PreparedStatement(
    `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::int AS id`,
    z.object({ id: column.int }),
  );
export const nextIds: Record<NumberedTable, PreparedStatement<{ id: number }>> = {
  Deal: nextIdStatement('Deal'),
  Submission: nextIdStatement('Submission'),
  ScheduledSend: nextIdStatement('ScheduledSend'),
};

/** An id for a row this event creates in its final write (sequences never roll back). */
export async function newId(db: PrismaClient, table: NumberedTable): Promise<number> {
  const [row] = await plainSql(db).run(nextIds[table], {});
  return row.id;
}
