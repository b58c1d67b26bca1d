import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * Rate limits' windows (server/rate-limit.ts), shared by every instance: one row per key
 * holding its current window.
 */

/**
 * Counts $by requests for each of $keys (sorted, so two takes never wait on each other's rows
 * in opposite orders) in its window, opening a new window at $now for a key whose window
 * started at or before $expired. A lost count is harmless: the commit is not waited for.
 */
export const takeWindows = new PreparedStatement(
  `WITH no_flush AS (
     SELECT set_config('synchronous_commit', 'off', true)
   )
   INSERT INTO "RateWindow" AS w (key, "windowStart", count)
   SELECT k.key, $now::timestamp(3), $by::int FROM unnest($keys::text[]) AS k (key) CROSS JOIN no_flush
   ON CONFLICT (key) DO UPDATE SET
     count = CASE WHEN w."windowStart" <= $expired::timestamp(3) THEN $by::int ELSE w.count + $by::int END,
     "windowStart" = CASE WHEN w."windowStart" <= $expired::timestamp(3) THEN EXCLUDED."windowStart"
       ELSE w."windowStart" END
   RETURNING w.key, w."windowStart", w.count`,
  z.object({ key: column.text, windowStart: column.timestamp, count: column.int }),
  { shares: true },
);

/** Windows that ended: their keys start afresh at their next request anyway. */
export const deleteEndedWindows = new PreparedStatement(
  `DELETE FROM "RateWindow" WHERE "windowStart" <= $expired::timestamp(3)`,
);
