import type { AnalyticsQuery, FlowAnalytics } from '@/lib/analytics/query';
import { countVisitors, mergeVisitors } from '@/lib/analytics/visitors';
import { SIMULATED_CLIENT_TYPE } from '@/lib/channels/descriptors';
import { rangeCounts, stoppedClients } from '@/server/db/analytics-sql';
import type { PrismaClient } from '@/server/db/generated/client';
import { plainSql } from '@/server/db/raw-sql';
import { invalid, notFound } from '@/server/errors';
import { rollUpFlowHits } from './roll-up';

/** Queued hits counted before answering: more than this is a burst the worker's roll-up takes. */
const FRESH_BATCHES = 2;

/**
 * Per-block analytics of a published version over a range of days (docs/analytics.md): read
 * from the daily counts, after counting what the engine queued since the last roll-up.
 */
export async function flowAnalytics(
  db: PrismaClient,
  projectId: number,
  query: AnalyticsQuery,
): Promise<FlowAnalytics> {
  const project = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { publishedVersion: true },
  });
  const version = query.version ?? project.publishedVersion;
  if (version === 0)
    throw invalid('The bot has no published version yet: publish it to see analytics.', 'version');
  if (!(await db.botVersion.findUnique({ where: { projectId_number: { projectId, number: version } } })))
    throw notFound(`The bot has no version ${version}.`);
  const { more } = await rollUpFlowHits(db, { projectId, maxBatches: FRESH_BATCHES });

  const sql = plainSql(db);
  const range = { projectId, from: query.from, to: query.to };
  const [counts, stopped] = await Promise.all([
    sql.run(rangeCounts, { ...range, version }),
    // Clients are not kept by version: only the version clients talk to has stopped clients.
    version === project.publishedVersion
      ? sql.run(stoppedClients, {
          ...range,
          simulator: SIMULATED_CLIENT_TYPE,
          minutes: query.stoppedAfterMinutes,
        })
      : [],
  ]);
  // Each target's days added up, their clients merged.
  const totals = new Map<string, { kind: string; targetId: number; count: number; sets: Uint8Array[] }>();
  for (const row of counts) {
    const key = `${row.kind}:${row.targetId}`;
    const total = totals.get(key) ?? { kind: row.kind, targetId: row.targetId, count: 0, sets: [] };
    total.count += row.count;
    if (row.visitors.length) total.sets.push(row.visitors);
    totals.set(key, total);
  }
  const of = (kind: string) =>
    [...totals.values()]
      .filter((t) => t.kind === kind)
      .map((t) => ({ targetId: t.targetId, count: t.count, clients: countVisitors(mergeVisitors(t.sets)) }));
  const stoppedIn = new Map(stopped.map((s) => [s.blockId, s.stopped]));
  const entered = new Map(of('block').map((c) => [c.targetId, c]));
  const blockIds = new Set([...entered.keys(), ...stoppedIn.keys()]);
  return {
    version,
    from: query.from,
    to: query.to,
    stoppedAfterMinutes: query.stoppedAfterMinutes,
    blocks: [...blockIds]
      .sort((a, b) => a - b)
      .map((blockId) => ({
        blockId,
        entries: entered.get(blockId)?.count ?? 0,
        clients: entered.get(blockId)?.clients ?? 0,
        stopped: stoppedIn.get(blockId) ?? 0,
      })),
    arrows: of('arrow').map((c) => ({ arrowId: c.targetId, passes: c.count })),
    stages: of('stage').map((c) => ({
      stageId: c.targetId,
      entries: c.count,
      clients: c.clients,
    })),
    submissions: of('submission').map((c) => ({
      blockId: c.targetId,
      entries: c.count,
      clients: c.clients,
    })),
    behind: more,
  };
}
