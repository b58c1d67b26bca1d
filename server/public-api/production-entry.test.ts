import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_API_ROUTES, publicApiCall } from './production-entry';

/**
 * Which requests `npm start` serves itself as public API calls (issue 52, item 20): every
 * `/api/{key}/{action}` whatever the key, so a malformed key is answered as a well-formed unknown
 * one is, headers included; never one of the app's own routes.
 */
describe('the public API fast path', () => {
  it('takes every key, malformed or percent-encoded, as a public API call', () => {
    expect(publicApiCall('/api/bb_abc/get_messages')).toEqual({ key: 'bb_abc', action: 'get_messages' });
    expect(publicApiCall('/api/not-a-key/get_messages?x=1')).toEqual({
      key: 'not-a-key',
      action: 'get_messages',
    });
    expect(publicApiCall('/api/bb_abc%20/message')).toEqual({ key: 'bb_abc ', action: 'message' });
    expect(publicApiCall('/api/%E0%A4%A/message')).toEqual({ key: '%E0%A4%A', action: 'message' });
    expect(publicApiCall('/api/x.y/message')).toEqual({ key: 'x.y', action: 'message' });
  });

  it('leaves the app’s own routes to Next.js', () => {
    for (const url of [
      '/api/auth/session',
      '/api/trpc/project_get',
      '/api/channels/tg/12',
      '/api/files/abc',
      '/api/projects/3/export',
      '/api/openapi.json',
      '/api/bb_abc/get_messages/',
    ])
      expect(publicApiCall(url), url).toBeNull();
  });

  it('knows every route of app/api (a new one is never taken for a key)', () => {
    const folders = fs
      .readdirSync(path.resolve(import.meta.dirname, '../../app/api'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('['))
      .map((e) => e.name);
    expect([...APP_API_ROUTES].sort()).toEqual(folders.sort());
  });
});
