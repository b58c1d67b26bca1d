import { dayInZone } from '@/lib/analytics/query';
import type { PrismaClient } from '@/server/db/client-type';

/**
 * Tokens spent per project and day (the project's time zone), against its daily limit
 * (Settings, AI; 0: none). Counted when the provider answers, outside the event's write: the
 * tokens are spent whether or not the event is stored.
 */

export interface DailyUsage {
  day: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
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
  };
}

export async function recordUsage(
  db: PrismaClient,
  project: { id: number; timeZone: string },
  now: Date,
  usage: { inputTokens: number; outputTokens: number },
): Promise<void> {
  const day = dayInZone(now, project.timeZone);
  await db.aiUsage.upsert({
    where: { projectId_day: { projectId: project.id, day } },
    create: { projectId: project.id, day, ...usage, calls: 1 },
    update: {
      inputTokens: { increment: usage.inputTokens },
      outputTokens: { increment: usage.outputTokens },
      calls: { increment: 1 },
    },
  });
}

/** The last `days` days' usage, newest first, for the settings screen. */
export async function usageHistory(db: PrismaClient, projectId: number, days: number): Promise<DailyUsage[]> {
  const rows = await db.aiUsage.findMany({ where: { projectId }, orderBy: { day: 'desc' }, take: days });
  return rows.map(({ day, inputTokens, outputTokens, calls }) => ({ day, inputTokens, outputTokens, calls }));
}
