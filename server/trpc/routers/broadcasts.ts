import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { instantOfLocalTime } from '@/lib/formula/time-zone';
import { attachmentSchema, incomingButtonsSchema } from '@/lib/schema';
import { changeBroadcast, editDraft, sendDraft, startBroadcast } from '@/server/broadcasts/broadcast-jobs';
import {
  type BroadcastInput,
  DEFAULT_SHIFT_SECONDS,
  previewRecipients,
} from '@/server/broadcasts/broadcast-service';
import {
  broadcastDetail,
  broadcastDraft,
  broadcastRecipients,
  listBroadcasts,
  maySendBroadcasts,
  recipientOptions,
} from '@/server/broadcasts/broadcast-views';
import { DomainError } from '@/server/errors';
import { canManageProject } from '@/server/projects/membership';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

/**
 * The Broadcasts tab (docs/broadcasts.md). Every member sees the broadcasts; sending, pausing,
 * resuming and cancelling are for owners and admins, and for operators while the project's
 * "operators may send broadcasts" setting is on (the default).
 */
const senderProcedure = projectProcedure.use(async ({ ctx, next }) => {
  if (!(await maySendBroadcasts(ctx.db, ctx.projectId, ctx.member.role)))
    throw new TRPCError({
      code: 'FORBIDDEN',
      message:
        'Operators may not send broadcasts in this project; ask an owner or admin (Broadcasts → settings).',
    });
  return next();
});

const broadcastInput = z.object({ broadcastId: z.number().int().positive() });

/** `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`, a wall-clock time of the project's zone. */
const localTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?$/, { error: 'must be a date (YYYY-MM-DD) or a date and time' });

function instant(text: string | undefined, timeZone: string) {
  if (!text) return undefined;
  const [date, time = '00:00'] = text.split('T');
  const [year, month, day] = (date ?? '').split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  return instantOfLocalTime({ year, month, day, hour, minute }, timeZone);
}

const filterInput = z.object({
  listIds: z.array(z.number().int().positive()).max(1000).default([]),
  excludeListIds: z.array(z.number().int().positive()).max(1000).default([]),
  clientTypes: z.array(z.number().int().min(0)).max(50).default([]),
  crmStateId: z.number().int().positive().optional(),
  blockId: z.number().int().positive().optional(),
  variable: z
    .object({
      name: z.string().max(200),
      op: z.enum(['equals', 'not_equals', 'contains', 'is_set', 'is_not_set']),
      value: z.string().max(1000).default(''),
    })
    .optional(),
  /** Days in the project's time zone. */
  firstContactAfter: localTime.optional(),
  firstContactBefore: localTime.optional(),
});

async function toFilter(
  db: Parameters<typeof recipientOptions>[0],
  projectId: number,
  f: z.infer<typeof filterInput>,
) {
  const p = await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { timeZone: true } });
  return {
    ...f,
    variable: f.variable?.name.trim() ? f.variable : undefined,
    firstContactAfter: instant(f.firstContactAfter, p.timeZone),
    firstContactBefore: instant(f.firstContactBefore, p.timeZone),
  };
}

/** What the compose form sends, to create a broadcast or to edit a draft. */
const composeInput = z.object({
  name: z.string().max(200).default(''),
  text: z.string().max(10_000).default(''),
  blockId: z.number().int().positive().optional(),
  attachment: attachmentSchema.optional(),
  buttons: incomingButtonsSchema.optional(),
  shiftSeconds: z
    .number({ error: 'shift: must be a number of seconds' })
    .min(0, { error: 'shift: must be 0 seconds or more' })
    .max(3600, { error: 'shift: must be at most 3600 seconds' })
    .default(DEFAULT_SHIFT_SECONDS),
  filter: filterInput,
  mode: z.enum(['now', 'schedule', 'draft']),
  /** `YYYY-MM-DDTHH:mm` in the project's time zone. */
  scheduledAt: localTime.optional(),
});

async function broadcastInputOf(
  db: Parameters<typeof recipientOptions>[0],
  projectId: number,
  input: z.infer<typeof composeInput>,
): Promise<BroadcastInput> {
  const p = await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { timeZone: true } });
  if (input.mode === 'schedule' && !input.scheduledAt?.includes('T'))
    throw new DomainError('invalid', 'scheduledAt: pick the date and the time to send at.', 'scheduledAt');
  return {
    source: 'app',
    name: input.name,
    text: input.text,
    blockId: input.blockId,
    attachments: input.attachment ? [input.attachment] : [],
    buttons: input.buttons ?? null,
    shiftSeconds: input.shiftSeconds,
    filter: await toFilter(db, projectId, input.filter),
    mode: input.mode,
    scheduledAt: instant(input.scheduledAt, p.timeZone),
  };
}

export const broadcastsRouter = createTRPCRouter({
  list: projectProcedure
    .input(z.object({ page: z.number().int().min(0).default(0) }))
    .query(async ({ ctx, input }) => ({
      ...(await listBroadcasts(ctx.db, ctx.projectId, input.page)),
      manager: canManageProject(ctx.member.role),
      canSend: await maySendBroadcasts(ctx.db, ctx.projectId, ctx.member.role),
    })),
  get: projectProcedure.input(broadcastInput).query(async ({ ctx, input }) => ({
    ...(await broadcastDetail(ctx.db, ctx.projectId, input.broadcastId)),
    canSend: await maySendBroadcasts(ctx.db, ctx.projectId, ctx.member.role),
  })),
  recipients: projectProcedure
    .input(
      broadcastInput.extend({
        page: z.number().int().min(0).default(0),
        status: z.enum(['pending', 'sent', 'failed', 'cancelled']).optional(),
      }),
    )
    .query(({ ctx, input }) => broadcastRecipients(ctx.db, ctx.projectId, input.broadcastId, input)),
  recipientOptions: projectProcedure.query(async ({ ctx }) => ({
    ...(await recipientOptions(ctx.db, ctx.projectId)),
    canSend: await maySendBroadcasts(ctx.db, ctx.projectId, ctx.member.role),
  })),
  /** The count shown before sending: the same filter the broadcast selects its recipients by. */
  count: projectProcedure
    .input(z.object({ filter: filterInput }))
    .query(async ({ ctx, input }) =>
      previewRecipients(ctx.db, ctx.projectId, await toFilter(ctx.db, ctx.projectId, input.filter)),
    ),
  create: senderProcedure.input(composeInput).mutation(async ({ ctx, input }) => {
    const b = await startBroadcast(
      ctx.db,
      ctx.projectId,
      await broadcastInputOf(ctx.db, ctx.projectId, input),
    );
    return { id: b.id, status: b.status, total: b.total };
  }),
  /** A draft, as the compose form edits it (its filter's days in the project's time zone). */
  draft: projectProcedure
    .input(broadcastInput)
    .query(({ ctx, input }) => broadcastDraft(ctx.db, ctx.projectId, input.broadcastId)),
  /** A draft edited: saved as a draft still, scheduled, or sent now (`mode`), as `create` checks it. */
  updateDraft: senderProcedure
    .input(composeInput.extend(broadcastInput.shape))
    .mutation(async ({ ctx, input }) => {
      const b = await editDraft(
        ctx.db,
        ctx.projectId,
        input.broadcastId,
        await broadcastInputOf(ctx.db, ctx.projectId, input),
      );
      return { id: b.id, status: b.status, total: b.total };
    }),
  sendDraft: senderProcedure.input(broadcastInput).mutation(async ({ ctx, input }) => {
    const b = await sendDraft(ctx.db, ctx.projectId, input.broadcastId);
    if (!b)
      throw new DomainError('not_found', `Broadcast ${input.broadcastId} does not exist in this project.`);
    return { id: b.id, status: b.status };
  }),
  control: senderProcedure
    .input(broadcastInput.extend({ action: z.enum(['pause', 'resume', 'cancel']) }))
    .mutation(async ({ ctx, input }) => {
      const b = await changeBroadcast(ctx.db, ctx.projectId, input.broadcastId, input.action);
      return { id: b.id, status: b.status };
    }),
  /** The project setting: may operators send broadcasts (owners and admins always may). */
  setOperatorsSend: projectManagerProcedure
    .input(z.object({ allowed: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.db.project.update({
        where: { id: ctx.projectId },
        data: { operatorsSendBroadcasts: input.allowed },
      });
      return { allowed: input.allowed };
    }),
});
