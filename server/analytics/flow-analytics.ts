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
 * Per-block analytics of a published version over a range of days (docs/analytics.md), with
 * each block's total over every version: read from the daily counts, after counting what the
 * engine queued since the last roll-up. Test conversations only when the query asks.
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
  const includeTests = query.includeTests ?? false;
  const range = { projectId, from: query.from, to: query.to, tests: includeTests };
  const [counts, everyVersion, stopped] = await Promise.all([
    sql.run(rangeCounts, { ...range, version }),
    sql.run(rangeCounts, { ...range, version: null }),
    // Clients are not kept by version: only the version clients talk to has stopped clients.
    version === project.publishedVersion
      ? sql.run(stoppedClients, {
          ...range,
          simulator: SIMULATED_CLIENT_TYPE,
          minutes: query.stoppedAfterMinutes,
        })
      : [],
  ]);
  const of = totalsOf(counts);
  const allBlocks = new Map(totalsOf(everyVersion)('block').map((c) => [c.targetId, c]));
  const stoppedIn = new Map(stopped.map((s) => [s.blockId, s.stopped]));
  const entered = new Map(of('block').map((c) => [c.targetId, c]));
  const blockIds = new Set([...entered.keys(), ...stoppedIn.keys(), ...allBlocks.keys()]);
  return {
    version,
    from: query.from,
    to: query.to,
    stoppedAfterMinutes: query.stoppedAfterMinutes,
    includeTests,
    blocks: [...blockIds]
      .sort((a, b) => a - b)
      .map((blockId) => ({
        blockId,
        entries: entered.get(blockId)?.count ?? 0,
        clients: entered.get(blockId)?.clients ?? 0,
        stopped: stoppedIn.get(blockId) ?? 0,
        allVersions: {
          entries: allBlocks.get(blockId)?.count ?? 0,
          clients: allBlocks.get(blockId)?.clients ?? 0,
        },
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

/** Each target's days (and versions) added up, their clients merged; by kind. */
function totalsOf(rows: { kind: string; targetId: number; count: number; visitors: Uint8Array }[]) {
  const totals = new Map<string, { kind: string; targetId: number; count: number; sets: Uint8Array[] }>();
  for (const row of rows) {
    const key = `${row.kind}:${row.targetId}`;
    const total = totals.get(key) ?? { kind: row.kind, targetId: row.targetId, count: 0, sets: [] };
    total.count += row.count;
    if (row.visitors.length) total.sets.push(row.visitors);
    totals.set(key, total);
  }
  return (kind: string) =>
    [...totals.values()]
      .filter((t) => t.kind === kind)
      .map((t) => ({ targetId: t.targetId, count: t.count, clients: countVisitors(mergeVisitors(t.sets)) }));
}
