import { z } from 'zod';
import { assistantSettingsSchema } from '@/lib/ai/assistant';
import { aiLimitsSchema, providerSettingsSchema } from '@/lib/ai/provider-settings';
import {
  deleteAssistant,
  deleteProvider,
  listAssistants,
  listProviders,
  saveAssistant,
  saveProvider,
  setDailyTokenLimit,
} from '@/server/ai/ai-settings';
import { testProvider } from '@/server/ai/provider-test';
import { usageHistory } from '@/server/ai/usage';
import { createTRPCRouter, projectManagerProcedure } from '../init';

const id = z.object({ id: z.number().int().positive() });
const optionalId = z.object({ id: z.number().int().positive().nullable() });

/** Settings, AI (docs/ai.md): owners and admins, as the other settings. */
export const aiRouter = createTRPCRouter({
  settings: projectManagerProcedure.query(async ({ ctx }) => {
    const project = await ctx.db.project.findUniqueOrThrow({
      where: { id: ctx.projectId },
      select: { plan: true, aiDailyTokenLimit: true },
    });
    return {
      plan: project.plan,
      dailyTokenLimit: project.aiDailyTokenLimit,
      providers: await listProviders(ctx.db, ctx.projectId),
      assistants: await listAssistants(ctx.db, ctx.projectId),
      usage: await usageHistory(ctx.db, ctx.projectId, 14),
    };
  }),
  saveProvider: projectManagerProcedure
    .input(optionalId.extend({ settings: providerSettingsSchema }))
    .mutation(({ ctx, input }) => saveProvider(ctx.db, ctx.projectId, input.id, input.settings)),
  deleteProvider: projectManagerProcedure
    .input(id)
    .mutation(({ ctx, input }) => deleteProvider(ctx.db, ctx.projectId, input.id)),
  testProvider: projectManagerProcedure
    .input(id)
    .mutation(({ ctx, input }) => testProvider(ctx.db, ctx.projectId, input.id)),
  saveAssistant: projectManagerProcedure
    .input(optionalId.extend({ settings: assistantSettingsSchema }))
    .mutation(({ ctx, input }) => saveAssistant(ctx.db, ctx.projectId, input.id, input.settings)),
  deleteAssistant: projectManagerProcedure
    .input(id)
    .mutation(({ ctx, input }) => deleteAssistant(ctx.db, ctx.projectId, input.id)),
  setLimits: projectManagerProcedure
    .input(aiLimitsSchema)
    .mutation(({ ctx, input }) => setDailyTokenLimit(ctx.db, ctx.projectId, input.dailyTokenLimit)),
});
