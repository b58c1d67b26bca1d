import { GET as FILE } from '@/app/api/files/[id]/[name]/route';
import { serveChannelRoutes } from '@/server/channels/testing/channel-routes';
import type { RouteServer } from '@/server/testing/route-server';

/**
 * The widget's routes (the channels' route family), and the stored files' its messages show,
 * over real HTTP (tests and the benchmark). The caller's X-Forwarded-For stands for the
 * proxy's, so tests can be several visitors' addresses.
 */
export function serveWidgetRoute(): Promise<RouteServer> {
  return serveChannelRoutes([
    { method: 'GET', pattern: /^\/api\/files\/(?<id>[^/]+)\/(?<name>[^/]+)$/, handler: FILE },
  ]);
}
