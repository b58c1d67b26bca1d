import { z } from 'zod';
import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { instantOfLocalTime } from '@/lib/formula/time-zone';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { submissionVariableNames } from '@/server/db/row-queries';
import { DomainError } from '@/server/errors';

/** Kinds of block whose entering submits the deal's variables (bot-semantics §2). */
const SUBMITTING_KINDS = ['close_deal', 'data_transfer'] as const;

/** Columns of variables shown and exported at most; a block collecting more is cut, said on screen. */
export const MAX_SUBMISSION_COLUMNS = 200;

/** A submission's snapshot of the deal's variables (written by the engine as names and texts). */
export const storedSubmissionVariables = z.record(z.string(), z.string()).catch({});

const localDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date written as YYYY-MM-DD' })
  .refine(
    (text) => {
      const day = new Date(`${text}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
    },
    {
      error: 'is not a date of the calendar',
    },
  );

/** A red or yellow block's submissions between two dates of the project's time zone, both included. */
export const submissionRangeInput = z
  .object({
    blockId: z.number().int().positive(),
    from: localDate.optional(),
    to: localDate.optional(),
  })
  .refine((range) => !range.from || !range.to || range.from <= range.to, {
    error: 'The end date is before the start date: pick an end date on or after it.',
    path: ['to'],
  });
export type SubmissionRange = z.infer<typeof submissionRangeInput>;

export const submissionPageInput = submissionRangeInput.safeExtend({
  /** The id of the last submission of the page before (newest first). */
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** The start of a local date in the zone, or of the day after it (`nextDay`). */
function dayStart(date: string, timeZone: string, nextDay = false) {
  const [year, month, day] = date.split('-').map(Number);
  return instantOfLocalTime({ year, month, day: day + (nextDay ? 1 : 0) }, timeZone);
}

/** The filter of a range's submissions, the range's dates read in the project's time zone. */
async function rangeFilter(db: Db, projectId: number, range: SubmissionRange) {
  const [project] = await Promise.all([
    db.project.findUniqueOrThrow({ where: { id: projectId }, select: { timeZone: true } }),
    requireSubmissionBlock(db, projectId, range.blockId),
  ]);
  const from = range.from ? dayStart(range.from, project.timeZone) : null;
  const to = range.to ? dayStart(range.to, project.timeZone, true) : null;
  const where: Prisma.SubmissionWhereInput = {
    projectId,
    blockId: range.blockId,
    createdAt: { ...(from && { gte: from }), ...(to && { lt: to }) },
  };
  return { where, from, to, timeZone: project.timeZone };
}

/**
 * The blocks whose submissions can be looked at: the bot's red and yellow blocks, and blocks
 * deleted since that left submissions (by id, with no name), each with its count.
 */
export async function submissionBlocks(db: Db, projectId: number) {
  const [blocks, counts] = await Promise.all([
    db.block.findMany({
      where: { projectId, kind: { in: [...SUBMITTING_KINDS] } },
      select: { id: true, name: true, kind: true },
      orderBy: { id: 'asc' },
    }),
    db.submission.groupBy({ by: ['blockId'], where: { projectId }, _count: { _all: true } }),
  ]);
  const countOf = new Map(counts.map((c) => [c.blockId, c._count._all]));
  const known = new Set(blocks.map((b) => b.id));
  const deleted = counts
    .filter((c) => !known.has(c.blockId))
    .map((c) => ({ id: c.blockId, name: '', kind: null, deleted: true }));
  return [...blocks.map((b) => ({ ...b, deleted: false })), ...deleted].map((b) => ({
    ...b,
    count: countOf.get(b.id) ?? 0,
  }));
}

/** The variable names of a range's submissions: the table's columns, by name. */
async function columnsOf(db: Db, bounds: Parameters<typeof submissionVariableNames>[1]) {
  // One more than shown tells whether the block collects more than can be shown.
  const names = await submissionVariableNames(db, bounds, MAX_SUBMISSION_COLUMNS + 1);
  return {
    columns: names.slice(0, MAX_SUBMISSION_COLUMNS),
    columnsCut: names.length > MAX_SUBMISSION_COLUMNS,
  };
}

const submissionSelect = {
  id: true,
  createdAt: true,
  dealId: true,
  kept: true,
  variables: true,
  client: { select: { id: true, name: true, clientType: true } },
} satisfies Prisma.SubmissionSelect;

function submissionRow(s: Prisma.SubmissionGetPayload<{ select: typeof submissionSelect }>) {
  return {
    id: s.id,
    createdAt: s.createdAt,
    dealId: s.dealId,
    kept: s.kept,
    client: {
      id: s.client.id,
      displayName: clientDisplayName(s.client),
      messenger: messengerLabel(s.client.clientType),
    },
    variables: storedSubmissionVariables.parse(s.variables),
  };
}

/** One page of a block's submissions in a range, newest first, with the range's columns and count. */
export async function submissionPage(db: Db, projectId: number, input: z.input<typeof submissionPageInput>) {
  const { cursor, limit, ...range } = submissionPageInput.parse(input);
  const { where, from, to } = await rangeFilter(db, projectId, range);
  const [rows, total, columns] = await Promise.all([
    db.submission.findMany({
      where: { ...where, ...(cursor && { id: { lt: cursor } }) },
      orderBy: { id: 'desc' },
      take: limit + 1,
      select: submissionSelect,
    }),
    db.submission.count({ where }),
    columnsOf(db, { projectId, blockId: range.blockId, from, to }),
  ]);
  const page = rows.slice(0, limit).map(submissionRow);
  return { ...columns, total, rows: page, nextCursor: rows.length > limit ? page.at(-1)?.id : undefined };
}

/** Submissions read per statement by the export. */
const EXPORT_BATCH = 1_000;

/**
 * A range's submissions for the CSV export, oldest first, in batches (a block with 100,000
 * submissions is never held in memory at once). Its header comes first.
 */
export async function* submissionExportRows(db: Db, projectId: number, range: SubmissionRange) {
  const { where, from, to, timeZone } = await rangeFilter(db, projectId, range);
  const { columns } = await columnsOf(db, { projectId, blockId: range.blockId, from, to });
  yield [
    'submission_id',
    'date',
    'time_zone',
    'client_id',
    'client_name',
    'messenger',
    'deal_id',
    'deal',
    ...columns,
  ];
  const local = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' });
  let after = 0;
  for (;;) {
    const batch = await db.submission.findMany({
      where: { ...where, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: EXPORT_BATCH,
      select: submissionSelect,
    });
    for (const s of batch.map(submissionRow)) {
      yield [
        String(s.id),
        local.format(s.createdAt),
        timeZone,
        String(s.client.id),
        s.client.displayName,
        s.client.messenger,
        s.dealId === null ? '' : String(s.dealId),
        s.kept ? 'kept open' : 'closed',
        ...columns.map((name) => s.variables[name] ?? ''),
      ];
    }
    if (batch.length < EXPORT_BATCH) return;
    after = batch[batch.length - 1].id;
  }
}

/** Refuses a block that is neither a red or yellow block of the bot nor one that left submissions. */
export async function requireSubmissionBlock(db: Db, projectId: number, blockId: number) {
  const [block, submitted] = await Promise.all([
    db.block.findFirst({ where: { projectId, id: blockId }, select: { kind: true } }),
    db.submission.count({ where: { projectId, blockId }, take: 1 }),
  ]);
  const submits = block && (SUBMITTING_KINDS as readonly string[]).includes(block.kind);
  if (!submits && !submitted)
    throw new DomainError(
      'not_found',
      `Block ${blockId} is not a red or yellow block of this bot and has no submissions: pick one from the list.`,
    );
}
