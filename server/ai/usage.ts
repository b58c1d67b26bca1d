import { dayInZone } from '@/lib/analytics/query';
import type { PrismaClient } from '@/server/db/client-type';

/**
 * Tokens spent per project and day (the project's time zone), against its daily limit
 * (Settings, AI; 0: none). Counted when the provider answers, outside the event's write: the
 * tokens are spent whether or not the event is stored. A server that reports no usage is
 * counted by estimate (token-estimate.ts), and the day says how many of its calls were.
 */

export interface DailyUsage {
  day: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  /** Of the calls, those whose tokens were estimated (the server reported none). */
  estimatedCalls: number;
}

export async function usageToday(
  db: PrismaClient,
  project: { id: number; timeZone: string },
  now: Date,
): Promise<DailyUsage> {
  const day = dayInZone(now, project.timeZone);
  const row = await db.aiUsage.findUnique({ where: { projectId_day: { projectId: project.id, day } } });
  return {
    day,
    inputTokens: row?.inputTokens ?? 0,
    outputTokens: row?.outputTokens ?? 0,
    calls: row?.calls ?? 0,
    estimatedCalls: row?.estimatedCalls ?? 0,
  };
}

export async function recordUsage(
  db: PrismaClient,
  project: { id: number; timeZone: string },
  now: Date,
  usage: { inputTokens: number; outputTokens: number; estimated: boolean },
): Promise<void> {
  const day = dayInZone(now, project.timeZone);
  const { inputTokens, outputTokens } = usage;
  const estimatedCalls = usage.estimated ? 1 : 0;
  await db.aiUsage.upsert({
    where: { projectId_day: { projectId: project.id, day } },
    create: { projectId: project.id, day, inputTokens, outputTokens, calls: 1, estimatedCalls },
    update: {
      inputTokens: { increment: inputTokens },
      outputTokens: { increment: outputTokens },
      calls: { increment: 1 },
      estimatedCalls: { increment: estimatedCalls },
    },
  });
}

/** The last `days` days' usage, newest first, for the settings screen. */
export async function usageHistory(db: PrismaClient, projectId: number, days: number): Promise<DailyUsage[]> {
  const rows = await db.aiUsage.findMany({ where: { projectId }, orderBy: { day: 'desc' }, take: days });
  return rows.map(({ day, inputTokens, outputTokens, calls, estimatedCalls }) => ({
    day,
    inputTokens,
    outputTokens,
    calls,
    estimatedCalls,
  }));
}
