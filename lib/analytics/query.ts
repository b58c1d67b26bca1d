import { z } from 'zod';

/** The longest range analytics answer: a year of daily counts stays quick to add up. */
export const ANALYTICS_MAX_DAYS = 366;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.')
  .refine((d) => {
    const time = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(d);
  }, 'Not a calendar date.');

/** The day `back` days before `now`'s day in the time zone, as YYYY-MM-DD (the analytics' days are the project's). */
export function dayInZone(now: Date, timeZone: string, back = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  return new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
}

export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** What the canvas overlay and the funnel ask for (docs/analytics.md). */
export const analyticsQuerySchema = z
  .object({
    /** A published version's number; omitted: the one clients talk to now. */
    version: z.number().int().positive().optional(),
    /** The first and last day of the range, in the project's time zone, both included. */
    from: day,
    to: day,
    /** A client whose last block was entered longer ago than this has stopped there. */
    stoppedAfterMinutes: z
      .number()
      .int()
      .min(1, 'At least 1 minute.')
      .max(60 * 24 * 90, 'At most 90 days.'),
    /** Count the simulator's test conversations too (off: clients' only). */
    includeTests: z.boolean().default(false),
  })
  .superRefine((q, ctx) => {
    if (q.to < q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The range ends before it starts.' });
    else if (daysBetween(q.from, q.to) > ANALYTICS_MAX_DAYS)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `A range is at most ${ANALYTICS_MAX_DAYS} days: pick a shorter one.`,
      });
  });

// As callers write it: `includeTests` may be left out (off).
export type AnalyticsQuery = z.input<typeof analyticsQuerySchema>;

export interface BlockFigures {
  blockId: number;
  /** Times clients entered it. */
  entries: number;
  /** Different clients who entered it (estimated past a few hundred). */
  clients: number;
  /** Clients whose last block it is, entered in the range and longer ago than the chosen time. */
  stopped: number;
  /** Entries and different clients over the range in every version (block ids stay across versions). */
  allVersions: { entries: number; clients: number };
}

export interface FlowAnalytics {
  version: number;
  from: string;
  to: string;
  stoppedAfterMinutes: number;
  includeTests: boolean;
  blocks: BlockFigures[];
  arrows: { arrowId: number; passes: number }[];
  stages: { stageId: number; entries: number; clients: number }[];
  submissions: { blockId: number; entries: number; clients: number }[];
  /** Hits still queued beyond what this answer counted (a burst): the next answer has them. */
  behind: boolean;
}
