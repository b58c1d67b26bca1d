import { z } from 'zod';
import { SIGN_UP_MODES } from '@/lib/instance/sign-up';
import {
  isInstanceAdmin,
  listInstanceProjects,
  listInstanceUsers,
  setSignUpMode,
  setUserAdmin,
  setUserDisabled,
} from '@/server/instance/admin';
import { signUpPolicy } from '@/server/instance/settings';
import { createTRPCRouter, instanceAdminProcedure, protectedProcedure } from '../init';

const account = z.object({ userId: z.string().min(1).max(200) });

/** The instance page: its accounts and projects, and who may sign up. */
export const instanceRouter = createTRPCRouter({
  /** Whether the signed-in user may open the instance page (the header shows its link). */
  viewer: protectedProcedure.query(async ({ ctx }) => ({ admin: await isInstanceAdmin(ctx.db, ctx.userId) })),
  signUp: instanceAdminProcedure.query(({ ctx }) => signUpPolicy(ctx.db)),
  setSignUp: instanceAdminProcedure
    .input(z.object({ mode: z.enum(SIGN_UP_MODES) }))
    .mutation(({ ctx, input }) => setSignUpMode(ctx.db, input.mode)),
  users: instanceAdminProcedure
    .input(z.object({ cursor: z.string().min(1).max(200).optional() }))
    .query(({ ctx, input }) => listInstanceUsers(ctx.db, input.cursor)),
  projects: instanceAdminProcedure
    .input(z.object({ cursor: z.number().int().positive().optional() }))
    .query(({ ctx, input }) => listInstanceProjects(ctx.db, input.cursor)),
  setDisabled: instanceAdminProcedure
    .input(account.extend({ disabled: z.boolean() }))
    .mutation(({ ctx, input }) => setUserDisabled(ctx.db, ctx.userId, input.userId, input.disabled)),
  setAdmin: instanceAdminProcedure
    .input(account.extend({ admin: z.boolean() }))
    .mutation(({ ctx, input }) => setUserAdmin(ctx.db, ctx.userId, input.userId, input.admin)),
});
