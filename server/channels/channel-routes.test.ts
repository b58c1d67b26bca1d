import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RouteServer } from '@/server/testing/route-server';
import { serveChannelRoutes } from './testing/channel-routes';

/** The one route family hands each request to its kind's module, or says what is not there. */

let server: RouteServer;
beforeAll(async () => {
  server = await serveChannelRoutes();
});
afterAll(() => server?.close());

const call = async (method: string, path: string) => {
  const response = await fetch(`${server.url}${path}`, { method });
  return { status: response.status, body: await response.json() };
};

it('answers 404 naming what is missing: a kind, a webhook, an endpoint', async () => {
  expect(await call('POST', '/api/channels/fax/1')).toEqual({
    status: 404,
    body: { error: 'no POST webhook for channels of kind fax' },
  });
  // The widget has endpoints below its key and no webhook; chat-app a webhook and no endpoints.
  expect(await call('POST', '/api/channels/widget/key')).toEqual({
    status: 404,
    body: { error: 'no POST webhook for channels of kind widget' },
  });
  expect(await call('GET', '/api/channels/chatapp/1/media/2')).toEqual({
    status: 404,
    body: { error: 'no GET endpoint /media/2 for channels of kind chatapp' },
  });
  expect(await call('OPTIONS', '/api/channels/tg/1')).toEqual({
    status: 404,
    body: { error: 'no OPTIONS webhook for channels of kind tg' },
  });
});

it("hands a kind's endpoints the segments below the channel", async () => {
  // tg files are /<kind>/<id>; anything else is not a file address.
  expect(await call('GET', '/api/channels/tg/1/file')).toEqual({
    status: 404,
    body: { error: 'A tg file address is /<kind>/<id>.' },
  });
});
