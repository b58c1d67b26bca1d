import { serveChannelRoutes } from '@/server/channels/testing/channel-routes';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { startWorkers } from '@/server/jobs/jobs';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { startApiServer } from '@/server/public-api/testing/api-server';
import type { RouteServer } from '@/server/testing/route-server';
import type { TRPCContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';
import { channelSweepJob } from '../../inbound/pipeline';

/**
 * What the chat-app channel's end-to-end tests run against: a fresh database, the channels'
 * webhook route and the public API over real HTTP (the route's address is the app's base URL,
 * so connecting gives the messenger a reachable webhook), the inbound sweeper, and a project
 * on the business plan with its owner's web-app caller and an API key.
 */
export interface ChatappTestApp {
  db: PrismaClient;
  routes: RouteServer;
  owner: ReturnType<typeof createCaller>;
  projectId: number;
  apiKey: string;
  /** The public API's address. */
  apiUrl: string;
  callApi(
    action: string,
    params: Record<string, unknown>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function useChatappTestApp(dir: string, env: Record<string, string>): Promise<ChatappTestApp> {
  Object.assign(process.env, {
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
    BLOCKBOT_API_RATE_LIMIT: '100000',
    ...env,
  });
  const routes = await serveChannelRoutes();
  process.env.BLOCKBOT_BASE_URL = routes.url;
  const app = await useFreshAppDatabase(dir);
  const db = await getDb();
  const api = await startApiServer();
  await startWorkers([channelSweepJob] as never);
  const user = await db.user.create({
    data: { id: 'u-chatapp', email: 'chatapp@example.com', name: 'Owner' },
  });
  const owner = createCaller({
    db,
    session: { user, session: { id: 's-chatapp', userId: user.id } } as unknown as TRPCContext['session'],
  });
  const projectId = (
    await createProject(db, {
      name: 'chat-app',
      plan: 'business',
      owner: { email: user.email, userId: user.id },
    })
  ).id;
  const apiKey = (await createApiKey(db, projectId, { name: 'main' })).key;
  return {
    db,
    routes,
    owner,
    projectId,
    apiKey,
    apiUrl: api.url,
    async callApi(action, params) {
      const res = await fetch(`${api.url}/api/${apiKey}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async close() {
      await api.close();
      await app.dispose();
      routes.close();
    },
  };
}
