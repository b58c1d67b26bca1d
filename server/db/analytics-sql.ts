import { z } from 'zod';
import { column, DB_NOW } from './columns';
import { PreparedStatement } from './raw-sql';

// Analytics (docs/analytics.md): the roll-up of queued hits into daily counts
// (server/analytics/roll-up.ts), and the read of a range (server/analytics/flow-analytics.ts).

const ROLL_UP_LOCK = 73_400_101;

const intArray = column.json(z.array(z.number().int()));

export const takeHits = new PreparedStatement(
  `WITH taken AS (
     DELETE FROM "FlowHit" WHERE id IN (
       SELECT id FROM "FlowHit" WHERE $projectId::int IS NULL OR "projectId" = $projectId::int
       ORDER BY id LIMIT $limit::int)
     RETURNING "projectId", version, "clientId", at, blocks, arrows, stages, submitted, test
   )
   -- The project's own day; a deleted project's hits are dropped.
   SELECT t."projectId", t.version, t."clientId", t.test,
     to_char((t.at AT TIME ZONE 'UTC') AT TIME ZONE p."timeZone", 'YYYY-MM-DD') AS day,
     array_to_json(coalesce(t.blocks, '{}')) AS blocks, array_to_json(coalesce(t.arrows, '{}')) AS arrows,
     array_to_json(coalesce(t.stages, '{}')) AS stages, array_to_json(coalesce(t.submitted, '{}')) AS submitted
   FROM taken t JOIN "Project" p ON p.id = t."projectId"`,
  z.object({
    projectId: column.int,
    version: column.int,
    clientId: column.int,
    test: column.bool,
    day: column.text,
    blocks: intArray,
    arrows: intArray,
    stages: intArray,
    submitted: intArray,
  }),
);

const countColumns = `"projectId" int, version int, day date, kind text, "targetId" int, test boolean`;

export const readCounts = new PreparedStatement(
  `SELECT c."projectId", c.version, to_char(c.day, 'YYYY-MM-DD') AS day, c.kind, c."targetId", c.test,
     encode(c.visitors, 'hex') AS visitors
   FROM jsonb_to_recordset($keys::jsonb) AS k(${countColumns})
   JOIN "FlowCount" c USING ("projectId", version, day, kind, "targetId", test)`,
  z.object({
    projectId: column.int,
    version: column.int,
    day: column.text,
    kind: column.text,
    targetId: column.int,
    test: column.bool,
    visitors: column.text,
  }),
);

export const writeCounts = new PreparedStatement(
  `INSERT INTO "FlowCount" ("projectId", version, day, kind, "targetId", test, count, visitors)
   SELECT r."projectId", r.version, r.day, r.kind, r."targetId", r.test, r.count, decode(r.visitors, 'hex')
   FROM jsonb_to_recordset($rows::jsonb) AS r(${countColumns}, count int, visitors text)
   ON CONFLICT ("projectId", version, day, kind, "targetId", test)
   DO UPDATE SET count = "FlowCount".count + excluded.count, visitors = excluded.visitors`,
);

// Selected as a row: the driver adapters cannot read a void column.
export const rollUpLock = new PreparedStatement(`SELECT 1 FROM pg_advisory_xact_lock(${ROLL_UP_LOCK})`);

/**
 * The range's daily counts, of one version (null: of every version), with or without the test
 * conversations'. Row by row, not aggregated: the drivers read a bytea column fast but an array
 * of them slowly, and PostgreSQL has no byte-wise max to merge the clients with.
 */
export const rangeCounts = new PreparedStatement(
  `SELECT kind, "targetId", count, visitors
   FROM "FlowCount"
   WHERE "projectId" = $projectId::int AND ($version::int IS NULL OR version = $version::int)
     AND day BETWEEN $from::date AND $to::date AND ($tests::boolean OR NOT test)`,
  z.object({
    kind: column.text,
    targetId: column.int,
    count: column.int,
    // bytea arrives as bytes on both databases (a Buffer from pg, a Uint8Array from PGlite).
    visitors: z.instanceof(Uint8Array),
  }),
);

/**
 * Clients whose last block was entered in the range and longer ago than the chosen time,
 * by that block: where they stopped (the simulator's test clients too when asked). The range's days are the project's.
 */
export const stoppedClients = new PreparedStatement(
  `SELECT c."currentBlockId" AS "blockId", count(*)::int AS stopped
   FROM "Client" c JOIN "Project" p ON p.id = c."projectId"
   WHERE c."projectId" = $projectId::int AND ($tests::boolean OR c."clientType" <> $simulator::int)
     AND c."currentBlockId" IS NOT NULL
     AND c."lastBlockAt" >= ($from::date::timestamp AT TIME ZONE p."timeZone") AT TIME ZONE 'UTC'
     AND c."lastBlockAt" < ((($to::date + 1)::timestamp AT TIME ZONE p."timeZone") AT TIME ZONE 'UTC')
     AND c."lastBlockAt" < ${DB_NOW} - make_interval(mins => $minutes::int)
   GROUP BY c."currentBlockId"`,
  z.object({ blockId: column.int, stopped: column.int }),
);
