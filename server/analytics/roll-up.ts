import {
  mergeVisitors,
  noVisitors,
  type Visitors,
  visitorsFromHex,
  visitorsOf,
  visitorsToHex,
} from '@/lib/analytics/visitors';
import { readCounts, rollUpLock, takeHits, writeCounts } from '@/server/db/analytics-sql';
import type { PrismaClient } from '@/server/db/generated/client';
import { sqlTransaction } from '@/server/db/raw-sql';
import { logFor } from '@/server/log';

const log = logFor('analytics');

/**
 * The analytics roll-up (docs/analytics.md): the engine queues one FlowHit row per counted
 * event, in the event's own statement; this turns them into per-day counts (FlowCount) and
 * deletes them in one transaction, so each hit is counted once whatever order events commit
 * in. One roll-up at a time (a transaction lock): the counts' unique clients are merged here.
 */

/** Hits taken per transaction: a few hundred kilobytes of counts at most. */
const BATCH = 5000;

export type FlowKind = 'block' | 'arrow' | 'stage' | 'submission';

interface Pending {
  projectId: number;
  version: number;
  day: string;
  kind: FlowKind;
  test: boolean;
  targetId: number;
  count: number;
  clients: Set<number>;
}

const keyOf = (c: {
  projectId: number;
  version: number;
  day: string;
  kind: string;
  targetId: number;
  test: boolean;
}) => `${c.projectId}|${c.version}|${c.day}|${c.kind}|${c.targetId}|${c.test}`;

/**
 * Counts one batch of queued hits (of one project, or of all); returns how many it took.
 * Callers loop while a full batch comes back.
 */
export async function rollUpBatch(db: PrismaClient, projectId: number | null = null): Promise<number> {
  return sqlTransaction(
    db,
    async (_tx, sql) => {
      await sql.run(rollUpLock, {});
      const hits = await sql.run(takeHits, { projectId, limit: BATCH });
      const pending = new Map<string, Pending>();
      const add = (hit: (typeof hits)[number], kind: FlowKind, targetId: number) => {
        const key = keyOf({ ...hit, kind, targetId });
        const entry = pending.get(key) ?? { ...hit, kind, targetId, count: 0, clients: new Set<number>() };
        entry.count++;
        entry.clients.add(hit.clientId);
        pending.set(key, entry);
      };
      for (const hit of hits) {
        for (const id of hit.blocks) add(hit, 'block', id);
        for (const id of hit.arrows) add(hit, 'arrow', id);
        for (const id of hit.stages) add(hit, 'stage', id);
        for (const id of hit.submitted) add(hit, 'submission', id);
      }
      if (pending.size === 0) return hits.length;
      const keys = [...pending.values()].map(({ projectId, version, day, kind, targetId, test }) => ({
        projectId,
        version,
        day,
        kind,
        targetId,
        test,
      }));
      const stored = new Map<string, Visitors>();
      for (const row of await sql.run(readCounts, { keys: JSON.stringify(keys) }))
        stored.set(keyOf(row), visitorsFromHex(row.visitors));
      const rows = [...pending.entries()].map(([key, p]) => ({
        projectId: p.projectId,
        version: p.version,
        day: p.day,
        kind: p.kind,
        targetId: p.targetId,
        test: p.test,
        count: p.count,
        // Arrows are counted, not their clients.
        visitors: visitorsToHex(
          p.kind === 'arrow'
            ? noVisitors()
            : mergeVisitors([stored.get(key) ?? noVisitors(), visitorsOf(p.clients)]),
        ),
      }));
      await sql.runAndCommit(writeCounts, { rows: JSON.stringify(rows) });
      return hits.length;
    },
    { timeout: 60_000 },
  );
}

/** Counts every queued hit (of one project, or of all), at most `maxBatches` batches. */
export async function rollUpFlowHits(
  db: PrismaClient,
  options: { projectId?: number; maxBatches?: number } = {},
): Promise<{ counted: number; more: boolean }> {
  let counted = 0;
  for (let i = 0; i < (options.maxBatches ?? Number.POSITIVE_INFINITY); i++) {
    const taken = await rollUpBatch(db, options.projectId ?? null);
    counted += taken;
    if (taken < BATCH) return { counted, more: false };
  }
  return { counted, more: true };
}

const ROLL_UP_SECONDS = 30;
const globalForRollUp = globalThis as unknown as { blockbotFlowRollUp?: NodeJS.Timeout };

/** The worker's roll-up: every ROLL_UP_SECONDS, so the canvas's numbers are at most that old. */
export function startFlowRollUp(db: PrismaClient): void {
  const run = () => rollUpFlowHits(db).catch((error: Error) => log.error(`roll-up failed: ${error.message}`));
  globalForRollUp.blockbotFlowRollUp ??= setInterval(run, ROLL_UP_SECONDS * 1000).unref();
}
