import { z } from 'zod';
import { canManageProject } from '@/server/projects/membership';
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
import {
  createTRPCRouter,
  projectManagerProcedure,
  projectOwnerProcedure,
  projectProcedure,
  protectedProcedure,
} from '../init';

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
    const { webhookSecret, ...project } = await getProject(ctx.db, ctx.projectId);
    const role = ctx.member.role;
    // The signing secret lets its holder forge webhook deliveries: managers only.
    return { ...project, role, webhookSecret: canManageProject(role) ? webhookSecret : null };
  }),

  rename: projectManagerProcedure
    .input(z.object({ name: projectNameSchema }))
    .mutation(({ ctx, input }) => renameProject(ctx.db, ctx.projectId, input.name)),

  delete: projectOwnerProcedure.mutation(({ ctx }) => deleteProject(ctx.db, ctx.projectId)),

  updateSettings: projectManagerProcedure
    .input(projectSettingsInput)
    .mutation(({ ctx, input }) => updateProjectSettings(ctx.db, ctx.projectId, input)),

  rotateWebhookSecret: projectManagerProcedure.mutation(({ ctx }) =>
    rotateWebhookSecret(ctx.db, ctx.projectId),
  ),
});
