import { z } from 'zod';
import { serializeBotSchema } from '@/lib/schema';
import { publishWithTests } from '@/server/conversation-tests/publish-gate';
import { getEngineDeps } from '@/server/engine/engine';
import { queueTestRun } from '@/server/jobs/test-run-job';
import {
  diffVersions,
  discardDraft,
  listVersions,
  loadVersionSchema,
  type Publisher,
  publishState,
  republishVersion,
} from '@/server/versions/bot-versions';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

const note = z.string().max(500, 'A note is at most 500 characters.').default('');
const versionNumber = z.number().int().positive();
/** A side of a comparison: a version, 0 (the empty bot before version 1), or the draft. */
const versionSide = z.union([
  z.literal('draft'),
  z.number().int('A version is a whole number.').min(0, 'A version is 0 or more.'),
]);

const publisherOf = (ctx: {
  userId: string;
  member: { name: string };
  session: { user: { name: string } };
}) => ({ userId: ctx.userId, name: ctx.member.name || ctx.session.user.name }) satisfies Publisher;

/** Draft and published versions (docs/versions.md): everyone sees them; owners and admins publish. */
export const versionsRouter = createTRPCRouter({
  state: projectProcedure.query(({ ctx }) => publishState(ctx.db, ctx.projectId)),

  list: projectProcedure.query(({ ctx }) => listVersions(ctx.db, ctx.projectId)),

  /**
   * Runs the draft's conversation tests first: when one fails nothing is published (`version`
   * null, the report in `tests`) unless `publishAnyway`, with a note saying why.
   */
  publish: projectManagerProcedure
    .input(
      z.object({
        note,
        expectedRevision: z.number().int().min(0),
        publishAnyway: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) =>
      publishWithTests(await getEngineDeps(), ctx.projectId, publisherOf(ctx), {
        note: input.note,
        expectedRevision: input.expectedRevision,
        publishAnyway: input.publishAnyway,
        queueTests: queueTestRun,
      }),
    ),

  rollback: projectManagerProcedure
    .input(z.object({ version: versionNumber, note }))
    .mutation(({ ctx, input }) =>
      republishVersion(ctx.db, ctx.projectId, input.version, publisherOf(ctx), input.note),
    ),

  discardDraft: projectManagerProcedure.mutation(({ ctx }) => discardDraft(ctx.db, ctx.projectId)),

  /** What changed between two versions, or a version and the draft; operators may look too. */
  diff: projectProcedure
    .input(z.object({ from: versionSide, to: versionSide }))
    .query(({ ctx, input }) => diffVersions(ctx.db, ctx.projectId, input.from, input.to)),

  export: projectProcedure.input(z.object({ version: versionNumber })).query(async ({ ctx, input }) => ({
    json: serializeBotSchema(await loadVersionSchema(ctx.db, ctx.projectId, input.version)),
  })),
});
