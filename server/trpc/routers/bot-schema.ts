import { z } from 'zod';
import { type BotSchema, describeFieldErrors, parseBotSchemaJson, serializeBotSchema } from '@/lib/schema';
import { presenceInputSchema } from '@/lib/schema/draft-presence';
import { DomainError } from '@/server/errors';
import { loadBotSchema, saveBotSchema } from '@/server/projects/bot-schema-store';
import { applyDraftChanges, type DraftAuthor, revisionsAfter } from '@/server/projects/draft-changes-store';
import { announcePresence } from '@/server/projects/draft-presence';
import { botSchemaContentErrors, refuseBrokenContent } from '@/server/projects/validate-bot-schema';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

const importInput = z.object({ json: z.string().max(20_000_000) });

function checkedImport(json: string): BotSchema {
  const parsed = parseBotSchemaJson(json);
  const errors = parsed.ok ? botSchemaContentErrors(parsed.value) : parsed.errors;
  if (!parsed.ok || errors.length)
    throw new DomainError('invalid', `The file was not imported:\n${describeFieldErrors(errors)}`);
  return parsed.value;
}

/** The member making a change, as the other designers are told. */
const authorOf = (ctx: { userId: string; session: { user: { name: string } } }): DraftAuthor => ({
  id: ctx.userId,
  name: ctx.session.user.name,
});

/** Operators see the bot; changing it is for owners and admins. */
export const botSchemaRouter = createTRPCRouter({
  get: projectProcedure.query(({ ctx }) => loadBotSchema(ctx.db, ctx.projectId)),

  save: projectManagerProcedure
    .input(z.object({ schema: z.unknown(), expectedRevision: z.number().int().min(0) }))
    .mutation(({ ctx, input }) => {
      // The builder refuses broken formulas and fields; a caller that skips it is refused here.
      refuseBrokenContent(input.schema, 'The bot schema was not saved');
      // The canvas never carries the tests: they are saved apart (tests.save), and a copy it
      // still holds would undo the Tests panel's changes.
      const { tests: _tests, ...schema } = (input.schema ?? {}) as Record<string, unknown>;
      return saveBotSchema(ctx.db, ctx.projectId, schema, {
        expectedRevision: input.expectedRevision,
        author: authorOf(ctx),
      });
    }),

  /**
   * The builder's edits, per block and arrow and per field (docs/builder.md, "Working
   * together"), merged with what others changed since `baseRevision`, which comes back with them.
   */
  change: projectManagerProcedure
    .input(z.object({ changes: z.unknown(), baseRevision: z.number().int().min(0) }))
    .mutation(({ ctx, input }) => applyDraftChanges(ctx.db, ctx.projectId, input, authorOf(ctx))),

  /** Where this designer is on the bot, told to the other canvases (nothing is stored). */
  presence: projectManagerProcedure.input(presenceInputSchema).mutation(({ ctx, input }) => {
    announcePresence(
      ctx.projectId,
      { id: ctx.member.id, name: ctx.member.name || ctx.session.user.name },
      input,
    );
  }),

  /** What changed after `revision`: the revisions to apply, or null when it is too old (reload). */
  changesSince: projectProcedure
    .input(z.object({ revision: z.number().int().min(0) }))
    .query(async ({ ctx, input }) => {
      const { schemaRevision } = await ctx.db.project.findUniqueOrThrow({
        where: { id: ctx.projectId },
        select: { schemaRevision: true },
      });
      return {
        revision: schemaRevision,
        revisions: await revisionsAfter(ctx.db, ctx.projectId, input.revision, schemaRevision),
      };
    }),

  /** Import a schema file's text; errors name the field. */
  import: projectManagerProcedure
    .input(importInput)
    .mutation(({ ctx, input }) =>
      saveBotSchema(ctx.db, ctx.projectId, checkedImport(input.json), { author: authorOf(ctx) }),
    ),

  /**
   * Checks a schema file's text as `import` does, without saving: the builder then replaces the
   * bot with it or adds it beside, as an edit that Undo takes back.
   */
  checkImport: projectManagerProcedure
    .input(importInput)
    .mutation(({ input }) => ({ schema: checkedImport(input.json) })),

  export: projectProcedure.query(async ({ ctx }) => {
    const { schema } = await loadBotSchema(ctx.db, ctx.projectId, { withTests: true });
    return { json: serializeBotSchema(schema) };
  }),
});
