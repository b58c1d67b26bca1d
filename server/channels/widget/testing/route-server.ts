import { GET, OPTIONS, POST } from '@/app/api/channels/widget/[channel]/[action]/route';
import { GET as FILE } from '@/app/api/files/[id]/[name]/route';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';

const pattern = /^\/api\/channels\/widget\/(?<channel>[^/]+)\/(?<action>[^/]+)$/;

/**
 * The widget's route, and the stored files' its messages show, over real HTTP (tests and the
 * benchmark). The caller's X-Forwarded-For stands for the proxy's, so tests can be several
 * visitors' addresses.
 */
export function serveWidgetRoute(): Promise<RouteServer> {
  return serveRoutes([
    { method: 'GET', pattern, handler: GET },
    { method: 'POST', pattern, handler: POST },
    { method: 'OPTIONS', pattern, handler: OPTIONS },
    { method: 'GET', pattern: /^\/api\/files\/(?<id>[^/]+)\/(?<name>[^/]+)$/, handler: FILE },
  ]);
}
