import { z } from 'zod';
import { createApiKey, createApiKeyInput, listApiKeys, revokeApiKey } from '@/server/projects/api-keys';
import { createTRPCRouter, projectManagerProcedure } from '../init';

export const apiKeyRouter = createTRPCRouter({
  list: projectManagerProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.projectId)),
  create: projectManagerProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.db, ctx.projectId, { name: input.name, canDeleteClients: input.canDeleteClients }),
    ),
  revoke: projectManagerProcedure
    .input(z.object({ keyId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.projectId, input.keyId)),
});
