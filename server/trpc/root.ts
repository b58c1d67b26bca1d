import { createCallerFactory, createTRPCRouter } from './init';
import { aiRouter } from './routers/ai';
import { analyticsRouter } from './routers/analytics';
import { apiKeyRouter } from './routers/api-key';
import { botSchemaRouter } from './routers/bot-schema';
import { broadcastsRouter } from './routers/broadcasts';
import { channelsRouter } from './routers/channels';
import { clientsRouter } from './routers/clients';
import { crmRouter } from './routers/crm';
import { inboxRouter } from './routers/inbox';
import { instanceRouter } from './routers/instance';
import { knowledgeRouter } from './routers/knowledge';
import { listsRouter } from './routers/lists';
import { projectRouter } from './routers/project';
import { requestTestRouter } from './routers/request-test';
import { secretsRouter } from './routers/secrets';
import { simulatorRouter } from './routers/simulator';
import { submissionsRouter } from './routers/submissions';
import { teamRouter } from './routers/team';
import { testsRouter } from './routers/tests';
import { versionsRouter } from './routers/versions';
import { webhooksRouter } from './routers/webhooks';

export const appRouter = createTRPCRouter({
  project: projectRouter,
  apiKey: apiKeyRouter,
  botSchema: botSchemaRouter,
  simulator: simulatorRouter,
  requestTest: requestTestRouter,
  channels: channelsRouter,
  clients: clientsRouter,
  team: teamRouter,
  inbox: inboxRouter,
  webhooks: webhooksRouter,
  ai: aiRouter,
  secrets: secretsRouter,
  submissions: submissionsRouter,
  crm: crmRouter,
  lists: listsRouter,
  broadcasts: broadcastsRouter,
  tests: testsRouter,
  versions: versionsRouter,
  analytics: analyticsRouter,
  knowledge: knowledgeRouter,
  instance: instanceRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
