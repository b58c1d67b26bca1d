import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError, z } from 'zod';
import { transformer } from '@/lib/trpc-transformer';
import { getSessionFromHeaders } from '@/server/auth/auth';
import { getDb } from '@/server/db';
import { DomainError, type DomainErrorCode } from '@/server/errors';
import { isInstanceAdmin } from '@/server/instance/admin';
import { canManageProject, requireMembership } from '@/server/projects/membership';

export async function createTRPCContext(opts: { headers: Headers }) {
  const [db, session] = await Promise.all([getDb(), getSessionFromHeaders(opts.headers)]);
  return { db, session };
}
export type TRPCContext = Awaited<ReturnType<typeof createTRPCContext>>;

const t = initTRPC.context<TRPCContext>().create({
  transformer,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        // Field-level messages for forms; never a stack trace.
        fieldErrors: cause instanceof ZodError ? z.flattenError(cause).fieldErrors : undefined,
        // Each message at its whole path (`windowTemplate.language`), for forms of nested inputs.
        issues:
          cause instanceof ZodError
            ? cause.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
            : undefined,
        // The field a domain error is about (a variable's name), for the form to point at.
        field: cause instanceof DomainError ? cause.field : undefined,
        stack: undefined,
      },
    };
  },
});

const trpcCodes: Record<DomainErrorCode, TRPCError['code']> = {
  invalid: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  conflict: 'CONFLICT',
  limit: 'BAD_REQUEST',
  plan: 'FORBIDDEN',
};

/** Domain errors become tRPC errors with the domain's message; anything else stays internal. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodes[cause.code], message: cause.message, cause });
  }
  if (!result.ok && result.error.cause instanceof ZodError) {
    const message = result.error.cause.issues
      .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
      .join('; ');
    throw new TRPCError({ code: 'BAD_REQUEST', message, cause: result.error.cause });
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(domainErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue.' });
  return next({ ctx: { ...ctx, session: ctx.session, userId: ctx.session.user.id } });
});

/** The instance page's procedures: the instance's admins only (docs/operations.md). */
export const instanceAdminProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  if (!(await isInstanceAdmin(ctx.db, ctx.userId)))
    throw new TRPCError({ code: 'FORBIDDEN', message: "Only the instance's admins can do this." });
  return next();
});

/** Procedures on one project: the caller must be an active member of it. */
export const projectProcedure = protectedProcedure
  .input(z.object({ projectId: z.number().int().positive() }))
  .use(async ({ ctx, input, next }) => {
    const member = await requireMembership(ctx.db, ctx.userId, input.projectId);
    return next({ ctx: { ...ctx, member, projectId: input.projectId } });
  });

/**
 * Procedures that manage a project (settings, webhook secret, API keys): owners and admins.
 * Operators answer chats; they must not read secrets or hand out API access.
 */
export const projectManagerProcedure = projectProcedure.use(({ ctx, next }) => {
  if (!canManageProject(ctx.member.role))
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: "Only the project's owner or an admin can do this; ask one of them.",
    });
  return next();
});

/** Deleting a project: its owner only. */
export const projectOwnerProcedure = projectProcedure.use(({ ctx, next }) => {
  if (ctx.member.role !== 'owner')
    throw new TRPCError({ code: 'FORBIDDEN', message: "Only the project's owner can delete it." });
  return next();
});
