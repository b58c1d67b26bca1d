import { z } from 'zod';
import { createApiKey, createApiKeyInput, listApiKeys, revokeApiKey } from '@/server/api-keys/api-keys';
import { createTRPCRouter, projectProcedure } from '../init';

export const apiKeyRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.projectId)),
  create: projectProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.db, ctx.projectId, { name: input.name, canDeleteClients: input.canDeleteClients }),
    ),
  revoke: projectProcedure
    .input(z.object({ keyId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.projectId, input.keyId)),
});
