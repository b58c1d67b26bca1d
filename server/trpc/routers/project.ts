import { z } from 'zod';
import {
  createProject,
  deleteProject,
  getProject,
  listProjectsForUser,
  projectNameSchema,
  projectSettingsInput,
  renameProject,
  rotateWebhookSecret,
  timeZoneSchema,
  updateProjectSettings,
} from '@/server/projects/project-service';
import { createTRPCRouter, projectProcedure, protectedProcedure } from '../init';

export const projectRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listProjectsForUser(ctx.db, ctx.userId)),

  create: protectedProcedure
    .input(
      z.object({
        name: projectNameSchema,
        timeZone: timeZoneSchema.default('UTC'),
        withDemoBot: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) =>
      createProject(ctx.db, {
        ...input,
        owner: { userId: ctx.userId, email: ctx.session.user.email, name: ctx.session.user.name },
      }),
    ),

  /** After sign-up: the user's first project, with the demo bot, in the browser's time zone. */
  ensureFirst: protectedProcedure
    .input(z.object({ timeZone: timeZoneSchema.default('UTC') }))
    .mutation(async ({ ctx, input }) => {
      const existing = await listProjectsForUser(ctx.db, ctx.userId);
      if (existing.length) return existing[0];
      return createProject(ctx.db, {
        name: 'My first bot',
        timeZone: input.timeZone,
        withDemoBot: true,
        owner: { userId: ctx.userId, email: ctx.session.user.email, name: ctx.session.user.name },
      });
    }),

  get: projectProcedure.query(async ({ ctx }) => {
    const project = await getProject(ctx.db, ctx.projectId);
    return { ...project, role: ctx.member.role };
  }),

  rename: projectProcedure
    .input(z.object({ name: projectNameSchema }))
    .mutation(({ ctx, input }) => renameProject(ctx.db, ctx.projectId, input.name)),

  delete: projectProcedure.mutation(({ ctx }) => deleteProject(ctx.db, ctx.projectId)),

  updateSettings: projectProcedure
    .input(projectSettingsInput)
    .mutation(({ ctx, input }) => updateProjectSettings(ctx.db, ctx.projectId, input)),

  rotateWebhookSecret: projectProcedure.mutation(({ ctx }) => rotateWebhookSecret(ctx.db, ctx.projectId)),
});
