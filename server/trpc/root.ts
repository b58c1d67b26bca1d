import { createCallerFactory, createTRPCRouter } from './init';
import { apiKeyRouter } from './routers/api-key';
import { botSchemaRouter } from './routers/bot-schema';
import { projectRouter } from './routers/project';

export const appRouter = createTRPCRouter({
  project: projectRouter,
  apiKey: apiKeyRouter,
  botSchema: botSchemaRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
