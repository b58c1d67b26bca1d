import { type Route, type RouteServer, serveRoutes } from '@/server/testing/route-server';

/**
 * Every channel's route family (app/api/channels/[kind]/[channel]/[[...path]]) over real HTTP,
 * its params as Next.js gives them, and any `more` routes beside; imported once the caller's
 * environment is set.
 */
export async function serveChannelRoutes(more: readonly Route[] = []): Promise<RouteServer> {
  const route = await import('@/app/api/channels/[kind]/[channel]/[[...path]]/route');
  const pattern = /^\/api\/channels\/(?<kind>[^/]+)\/(?<channel>[^/]+)(?:\/(?<path>.+))?$/;
  return serveRoutes([
    ...(['GET', 'POST', 'OPTIONS'] as const).map((method) => ({
      method,
      pattern,
      handler: route[method],
      catchAll: 'path',
    })),
    ...more,
  ]);
}
