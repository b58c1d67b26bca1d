import { z } from 'zod';
import { secretInputSchema, secretNameSchema } from '@/lib/secrets/secret-input';
import { moveConstantToSecret } from '@/server/secrets/move-constant';
import { deleteSecret, listSecrets, setSecret } from '@/server/secrets/secret-service';
import { createTRPCRouter, projectManagerProcedure } from '../init';

const named = z.object({ name: secretNameSchema });

/** Settings, Secrets (docs/secrets.md): owners and admins; no procedure returns a value. */
export const secretsRouter = createTRPCRouter({
  list: projectManagerProcedure.query(({ ctx }) => listSecrets(ctx.db, ctx.projectId)),
  set: projectManagerProcedure.input(secretInputSchema).mutation(async ({ ctx, input }) => {
    await setSecret(ctx.db, ctx.projectId, input.name, input.value);
    return { name: input.name };
  }),
  delete: projectManagerProcedure
    .input(named)
    .mutation(({ ctx, input }) => deleteSecret(ctx.db, ctx.projectId, input.name)),
  moveConstant: projectManagerProcedure
    .input(named)
    .mutation(({ ctx, input }) => moveConstantToSecret(ctx.db, ctx.projectId, input.name)),
});
