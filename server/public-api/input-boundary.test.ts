import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resetEnvCache } from '@/server/config/env';
import type { PrismaClient } from '@/server/db/client-type';
import { actions } from './actions';
import { startApiProject } from './testing/api-project';
import { type RawReply, rawRequest, type startApiServer } from './testing/api-server';

// The public API's input boundary under bad input (issue 12 items 11, 15-19). The per-field
// cases are generated from the action registry, so a new action is covered as it is added.

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

let env: Awaited<ReturnType<typeof startApiProject>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let db: PrismaClient;
let key: string;
let projectId: number;
let clientId: number;

beforeAll(async () => {
  env = await startApiProject('Input');
  ({ db, server, projectId, key } = env);
  clientId = (
    await db.client.create({ data: { projectId, platformId: 'c1', groupId: 'sim', clientType: 99 } })
  ).id;
});
afterAll(async () => {
  await env?.close();
});

/** One HTTP request to the served API exactly as given (see rawRequest). */
const request = (pathAndQuery: string, options?: Parameters<typeof rawRequest>[2]) =>
  rawRequest(server.url, pathAndQuery, options);

type Encoding = 'json' | 'form' | 'query';

/** Calls an action; `query` puts the parameters in the query string of a GET. */
function call(
  action: string,
  params: Record<string, unknown>,
  options: { as?: Encoding; query?: Record<string, unknown>; apiKey?: string } = {},
) {
  const as = options.as ?? 'json';
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const query = new URLSearchParams(
    Object.entries({ ...options.query, ...(as === 'query' ? params : {}) }).map(([k, v]) => [k, text(v)]),
  ).toString();
  const target = `/api/${options.apiKey ?? key}/${action}${query ? `?${query}` : ''}`;
  if (as === 'query') return request(target);
  const body =
    as === 'json'
      ? JSON.stringify(params)
      : new URLSearchParams(Object.entries(params).map(([k, v]) => [k, text(v)])).toString();
  const contentType = as === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  return request(target, { method: 'POST', headers: { 'content-type': contentType }, body });
}

/** Top-level parameters of an action (every branch of a union), with their input JSON schema. */
function parametersOf(action: (typeof actions)[number]): [string, JsonSchema][] {
  const schema = z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return (schema.anyOf ?? [schema]).flatMap((branch) => Object.entries(branch.properties ?? {}));
}

const acceptsText = (p: JsonSchema): boolean =>
  p.type === 'string' ||
  (Array.isArray(p.type) && p.type.includes('string')) ||
  (p.anyOf ?? []).some(acceptsText);

/** Every parameter that takes text (numbers too: a query string carries them as text): [action, parameter]. */
const textFields = actions.flatMap((action) =>
  parametersOf(action)
    .filter(([, schema]) => acceptsText(schema))
    .map(([name]) => [action.name, name] as const),
);

/** Every list parameter of every action. */
const listFields = actions.flatMap((action) =>
  parametersOf(action)
    .filter(([, schema]) => schema.type === 'array')
    .map(([name, schema]) => [action.name, name, schema.items ?? {}] as const),
);

/**
 * The action's documented example, aimed at this project's client. For a parameter of the other
 * branch of a union (load_clients: one client, or a list), the example's first listed item.
 */
function exampleOf(actionName: string, field?: string): Record<string, unknown> {
  const action = actions.find((a) => a.name === actionName)!;
  const nested = Object.values(action.example).find(
    (v): v is Record<string, unknown>[] => Array.isArray(v) && typeof v[0] === 'object',
  );
  const example: Record<string, unknown> =
    action.input instanceof z.ZodUnion && field && !(field in action.example) && nested
      ? { ...nested[0] }
      : { ...action.example };
  if ('client_id' in example) example.client_id = clientId;
  if (Array.isArray(example.clients) && typeof example.clients[0] === 'number') example.clients = [clientId];
  return example;
}

describe('NUL bytes (item 11)', () => {
  it('registry covers the text fields', () => {
    expect(textFields.length).toBeGreaterThan(30);
  });

  it.each(textFields)('%s: a NUL byte in %s is a 400 naming the field', async (action, field) => {
    const result = await call(action, { ...exampleOf(action, field), [field]: 'a\u0000b' });
    expect([result.status, result.body.error]).toEqual([400, 'invalid_parameter']);
    expect(result.body.message).toContain(field);
    expect(result.body.message).toContain('NUL');
  });

  it.each([
    ['save_variables', { client_id: 0, variables: { note: 'a\u0000b' } }, 'variables.note'],
    ['save_variables', { client_id: 0, variables: { 'bad\u0000name': 'x' } }, 'variables'],
    ['callback', { client_id: 0, message: 'hi', extra: 'a\u0000b' }, 'extra'],
    ['message', { client_id: 0, buttons: [{ text: 'a\u0000b' }] }, 'buttons[0].text'],
    [
      'load_clients',
      { clients: [{ platform_id: 'p\u0000', group_id: 'sim', client_type: 99 }] },
      'clients[0].platform_id',
    ],
  ] as const)('%s: a NUL byte nested in the parameters is a 400 naming %s', async (action, params, field) => {
    const withClient = 'client_id' in params ? { ...params, client_id: clientId } : params;
    const result = await call(action, withClient);
    expect([result.status, result.body.error]).toEqual([400, 'invalid_parameter']);
    expect(result.body.message).toContain(field);
  });

  it('refuses a NUL byte that comes %-encoded in a query string or a form body', async () => {
    const query = await request(`/api/${key}/find_client_id_by_var?var=order&val=a%00b`);
    expect([query.status, query.body.message]).toEqual([400, expect.stringContaining('val')]);
    const form = await call(
      'save_variables',
      { client_id: clientId, variables: '{"a":"\\u0000"}' },
      { as: 'form' },
    );
    expect([form.status, form.body.message]).toEqual([400, expect.stringContaining('variables.a')]);
  });
});

describe('half an emoji (a lone surrogate)', () => {
  // JSON lets a client send "\ud83d"; jsonb refuses it, text stores U+FFFD: it is taken as U+FFFD.
  it("takes one in a broadcast's buttons and text, stored with U+FFFD in its place", async () => {
    const result = await call('broadcast', {
      clients: [clientId],
      message: 'sale \ud83d',
      buttons: [{ text: 'buy \udc00' }],
    });
    expect(result.status).toBe(200);
    const stored = await db.broadcast.findUniqueOrThrow({ where: { id: Number(result.body.broadcast_id) } });
    expect([stored.text, stored.buttons]).toEqual(['sale \ufffd', [{ type: 'reply', text: 'buy \ufffd' }]]);
  });
});

describe('wrong types (item 16)', () => {
  it.each(textFields)(
    '%s: an object or a list given for %s is a 400 naming the field',
    async (action, field) => {
      for (const wrong of [{ a: 1 }, ['x', 'y'], true]) {
        const result = await call(action, { ...exampleOf(action, field), [field]: wrong });
        expect([JSON.stringify(wrong), result.status, result.body.error]).toEqual([
          JSON.stringify(wrong),
          400,
          'invalid_parameter',
        ]);
        expect(result.body.message).toContain(`${field}:`);
        expect(result.body.message).not.toContain('[object Object]');
      }
    },
  );

  it.each(textFields)('%s: a number given for %s is taken as text', async (action, field) => {
    const result = await call(action, { ...exampleOf(action, field), [field]: 42 });
    expect(result.status).not.toBe(500);
    expect(result.body.message ?? '').not.toContain(`${field}: must be text`);
  });

  it('stores no "[object Object]": an object message is refused before anything is sent', async () => {
    const result = await call('message', { client_id: clientId, message: { text: 'hi' } });
    expect(result.status).toBe(400);
    expect(await db.message.count({ where: { clientId, text: '[object Object]' } })).toBe(0);
  });

  it('refuses lists, true/false and objects for numeric parameters too', async () => {
    for (const wrong of [[clientId], true, { id: clientId }]) {
      const result = await call('get_variables', { client_id: wrong });
      expect([JSON.stringify(wrong), result.status]).toEqual([JSON.stringify(wrong), 400]);
      expect(result.body.message).toContain('client_id');
    }
    expect((await call('get_variables', { client_id: String(clientId) })).status).toBe(200);
  });
});

describe('list sizes (item 15)', () => {
  it('broadcast with 100,000 client ids is a 400 naming clients and the cap, not a 500', async () => {
    const clients = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const result = await call('broadcast', { message: 'hi', clients });
    expect([result.status, result.body.error]).toEqual([400, 'too_many_items']);
    expect(result.body.message).toMatch(/clients.*10000.*100000/);
  });

  it('broadcast takes 10,000 client ids', async () => {
    const clients = [clientId, ...Array.from({ length: 9_999 }, (_, i) => 1_000_000 + i)];
    const result = await call('broadcast', { message: 'hi', clients });
    expect(result).toMatchObject({ status: 200, body: { recipients: 1 } });
  });

  it.each(listFields)('%s: %s far over its cap is a 400 naming the field', async (action, field, item) => {
    // As many items as a 1 MiB body holds.
    const items =
      item.type === 'object'
        ? Array.from({ length: 10_000 }, (_, i) => ({ platform_id: `p${i}`, client_type: 99 }))
        : Array.from({ length: 100_000 }, (_, i) => (item.type?.[0] === 'string' ? `p${i}` : i + 1));
    const result = await call(action, { ...exampleOf(action, field), [field]: items });
    expect([result.status, result.body.error]).toEqual([400, 'too_many_items']);
    expect(result.body.message).toContain(field);
  });
});

describe('failed key lookups (item 17)', () => {
  const unknownKey = (i: number) => `bb_unknownGuess${i}`;
  const guess = (i: number, localAddress: string, headers: Record<string, string> = {}) =>
    request(`/api/${unknownKey(i)}/get_messages`, { localAddress, headers });

  it('throttles an address that keeps sending unknown keys (429, Retry-After), never a valid key', async () => {
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await guess(i, '127.0.0.2'));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    const throttled = answers[59];
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.body).toMatchObject({ status: 'error', error: 'rate_limited' });
    expect(throttled.body.message).toContain('API keys tab of your project');
    expect(throttled.headers['cache-control']).toBe('no-store');
    // The same address with a valid key is served; another address is not throttled.
    expect((await request(`/api/${key}/get_messages`, { localAddress: '127.0.0.2' })).status).toBe(200);
    expect((await guess(100, '127.0.0.3')).status).toBe(401);
    // Malformed keys (served by the route handler) count for the same address.
    expect((await request('/api/not-a-key/get_messages', { localAddress: '127.0.0.2' })).status).toBe(429);
    // X-Forwarded-For is not trusted by default: it does not get a throttled address out.
    expect((await guess(101, '127.0.0.2', { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
  });

  it('behind trusted proxies (BLOCKBOT_TRUSTED_PROXIES), the client is the address the proxy forwarded', async () => {
    process.env.BLOCKBOT_TRUSTED_PROXIES = '1';
    resetEnvCache();
    try {
      const statuses = [];
      for (let i = 0; i < 31; i++) {
        statuses.push((await guess(200 + i, '127.0.0.4', { 'x-forwarded-for': '198.51.100.1' })).status);
      }
      expect(statuses.at(-1)).toBe(429);
      // Another client behind the same proxy is not throttled; a forged entry further left changes nothing.
      expect((await guess(300, '127.0.0.4', { 'x-forwarded-for': '198.51.100.2' })).status).toBe(401);
      expect((await guess(301, '127.0.0.4', { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' })).status).toBe(
        429,
      );
    } finally {
      delete process.env.BLOCKBOT_TRUSTED_PROXIES;
      resetEnvCache();
    }
  });
});

describe('URLs that carry a key are never redirected (item 18)', () => {
  it.each([
    '/api/KEY/get_messages/',
    '/api//KEY/get_messages',
    '/api/KEY//get_messages',
    '//api/KEY/get_messages',
    '/api/KEY/get_messages//',
    '/api\\KEY\\get_messages',
    '/api/KEY/get_messages/?x=1',
  ])('%s is answered like the canonical path', async (shape) => {
    const result = await request(shape.replace('KEY', key));
    expect(result.status).toBe(200);
    expect(result.headers.location).toBeUndefined();
    expect(result.body.status).toBe('success');
    expect(result.headers['cache-control']).toBe('no-store');
    expect(result.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers an unknown key in such a URL with the JSON 401, and a malformed one without a redirect', async () => {
    for (const target of [
      '/api/bb_nope/get_messages/',
      '/api//bb_nope/get_messages',
      '/api/not-a-key/get_messages/',
    ]) {
      const result = await request(target);
      expect([target, result.status, result.headers.location]).toEqual([target, 401, undefined]);
      expect(result.headers['cache-control']).toBe('no-store');
    }
  });

  it('Next.js, configured as next.config.mjs says, routes the trailing-slash path to the route handler', async () => {
    const configFile = path.join(process.cwd(), 'next.config.mjs');
    const { default: exported } = (await import(configFile)) as {
      default: object | ((phase: string) => object | Promise<object>);
    };
    // Next.js calls a config function with its phase; the running server's is this one.
    const { PHASE_PRODUCTION_SERVER } = await import('next/constants');
    const nextConfig = typeof exported === 'function' ? await exported(PHASE_PRODUCTION_SERVER) : exported;
    const { defaultConfig } = await import('next/dist/server/config-shared');
    const { default: loadCustomRoutes } = await import('next/dist/lib/load-custom-routes');
    const { getPathMatch } = await import('next/dist/shared/lib/router/utils/path-match');
    const { getRouteRegex } = await import('next/dist/shared/lib/router/utils/route-regex');
    const redirectsOf = async (config: object) =>
      (await loadCustomRoutes({ ...defaultConfig, ...config } as never)).redirects;
    const target = `/api/${key}/get_messages/`;
    const redirecting = (redirects: { source: string }[]) =>
      redirects.filter((r) => getPathMatch(r.source)(target) !== false);
    // Next.js's own trailing-slash redirect matches the path, unless the config skips it.
    expect(redirecting(await redirectsOf({}))).not.toEqual([]);
    expect(redirecting(await redirectsOf(nextConfig))).toEqual([]);
    expect(getRouteRegex('/api/[apiKey]/[action]').re.test(target)).toBe(true);
  });
});

describe('universal-webhook mode: every alias, from the query or a JSON or form body (item 19)', () => {
  let phoneClient: number;
  let tgClient: number;
  beforeAll(async () => {
    phoneClient = (
      await db.client.create({ data: { projectId, platformId: '79005550101', groupId: '42', clientType: 6 } })
    ).id;
    await db.channel.create({
      data: { projectId, kind: 'chatapp', clientType: 6, groupId: '42', status: 1 },
    });
    await db.channel.create({ data: { projectId, kind: 'tg', clientType: 1, groupId: 'shop_bot' } });
    tgClient = (
      await db.client.create({
        data: { projectId, platformId: '5550101', groupId: 'shop_bot', clientType: 1 },
      })
    ).id;
    const saved = await call('save_variables', {
      client_id: phoneClient,
      variables: { 'client.email': 'lead@example.com' },
    });
    expect(saved.status).toBe(200);
  });

  /** [action, parameters with the aliased fields, the client the call must reach] */
  const cases: [string, Record<string, unknown>, () => number][] = [
    ['get_variables', { value_client_id: 'lead', lead: () => clientId }, () => clientId],
    [
      'save_variables',
      { value_client_id: 'lead', lead: () => clientId, variables: '{"u":"1"}' },
      () => clientId,
    ],
    ['get_history', { value_client_id: 'lead', lead: () => clientId }, () => clientId],
    ['message', { value_client_id: 'lead', lead: () => clientId, message: 'hi' }, () => clientId],
    ['callback', { value_client_id: 'lead', lead: () => clientId, message: 'go' }, () => clientId],
    ['callback', { value_phone: 'tel', tel: '+7 900 555-01-01', message: 'go' }, () => phoneClient],
    ['callback', { value_email: 'mail', mail: 'lead@example.com', message: 'go' }, () => phoneClient],
    ['chatapp_callback', { value_phone: 'tel', tel: '79005550101', bot_id: '42' }, () => phoneClient],
    [
      'chatapp_message',
      { value_phone: 'tel', tel: '79005550101', chatapp_bot_id: '42', message: 'hi' },
      () => phoneClient,
    ],
    ['find_client_id_by_phone', { value_phone: 'tel', tel: '79005550101' }, () => phoneClient],
    ['chatapp_client_id', { value_phone: 'tel', tel: '79005550101' }, () => phoneClient],
    ['find_client_id_by_email', { value_email: 'mail', mail: 'lead@example.com' }, () => phoneClient],
    [
      'tg_callback',
      { value_user_id: 'uid', uid: '5550101', value_group_id: 'bot', bot: 'shop_bot', message: 'go' },
      () => tgClient,
    ],
  ];

  it.each(cases)('%s %o', async (action, raw, expected) => {
    const params = Object.fromEntries(
      Object.entries(raw).map(([k, v]) => [k, typeof v === 'function' ? v() : v]),
    );
    const aliases = Object.fromEntries(Object.entries(params).filter(([k]) => k.startsWith('value_')));
    const rest = Object.fromEntries(Object.entries(params).filter(([k]) => !k.startsWith('value_')));
    const shapes: [string, () => Promise<RawReply>][] = [
      ['GET query', () => call(action, params, { as: 'query' })],
      ['JSON body', () => call(action, params, { as: 'json' })],
      ['form body', () => call(action, params, { as: 'form' })],
      ['aliases in the query, JSON body', () => call(action, rest, { as: 'json', query: aliases })],
      ['aliases in the query, form body', () => call(action, rest, { as: 'form', query: aliases })],
    ];
    for (const [shape, send] of shapes) {
      const result = await send();
      // Actions that answer with no client_id reached the client when they succeed.
      const reached = result.status === 200 ? (result.body.client_id ?? expected()) : result.body.message;
      expect([shape, result.status, reached]).toEqual([shape, 200, expected()]);
    }
  });
});

describe('every validation error names the field as the caller sent it and what it expects (issue 29 item 17)', () => {
  /** Zod's own wording, which names neither the field as sent nor what to send. */
  const zodDefault = /Invalid input|Invalid option|expected \w+, received|Too (big|small)/;

  it('load_clients: a number where a client object belongs names clients[0] and the expected object', async () => {
    const result = await call('load_clients', { clients: [79001234567] });
    expect([result.status, result.body.error]).toEqual([400, 'invalid_parameter']);
    expect(result.body.message).toContain('clients[0]: must be an object');
    expect(result.body.message).toContain('platform_id');
    expect(result.body.message).not.toMatch(zodDefault);
  });

  it('load_clients: a wrong type nested in a client names clients[0].platform_id', async () => {
    const result = await call('load_clients', { clients: [{ platform_id: { a: 1 }, client_type: 99 }] });
    expect(result.body.message).toContain('clients[0].platform_id: must be text');
  });

  it('load_clients: one client missing client_type is told that, not that clients is required', async () => {
    for (const as of ['json', 'query'] as const) {
      const result = await call('load_clients', { platform_id: 79001234567, group_id: '42' }, { as });
      expect([as, result.status, result.body.message]).toEqual([as, 400, 'client_type is required.']);
    }
  });

  it('load_clients: a client type no channel has, or a phone kind’s id without digits, is refused naming the row and field (issue 52, item 18)', async () => {
    for (const type of [-1, 0, 12, 16]) {
      const result = await call('load_clients', { clients: [{ platform_id: 'x1', client_type: type }] });
      expect([type, result.status, result.body.error]).toEqual([type, 400, 'invalid_parameter']);
      expect(result.body.message).toContain(`clients[0].client_type: must be the client type of a channel`);
      expect(result.body.message).toContain('6 chatapp');
    }
    for (const type of [6, 13]) {
      const result = await call('load_clients', {
        clients: [
          { platform_id: '+7 900 555-12-34', client_type: type, group_id: '42' },
          { platform_id: 'ann', client_type: type, group_id: '42' },
        ],
      });
      expect([type, result.status]).toEqual([type, 400]);
      expect(result.body.message).toContain(
        'clients[1].platform_id: must be a phone number (at least 5 digits)',
      );
    }
    const one = await call('load_clients', { platform_id: 'no digits', client_type: 13 });
    expect(one.body.message).toContain('platform_id: must be a phone number');
    // Nothing of a refused list is stored: the good row before the bad one made no client.
    const clients = await call('get_clients', {});
    expect(JSON.stringify(clients.body)).not.toContain('79005551234');
  });

  it('buttons: a wrong item names buttons[0] and what a button is', async () => {
    const item = await call('message', { client_id: clientId, buttons: [{ text: 5 }] });
    expect(item.body.message).toBe('buttons[0].text: must be text, not a number.');
    const notAList = await call('message', { client_id: clientId, buttons: 'Yes' });
    expect(notAList.body.message).toContain('buttons: must be a list of buttons');
  });

  it('buttons: callback_data over 64 bytes is refused, naming the button (the tg messenger would refuse the message)', async () => {
    for (const action of ['message', 'broadcast']) {
      const result = await call(action, {
        client_id: clientId,
        message: 'Discount?',
        buttons: [{ type: 'inline', text: 'Yes', callback_data: 'д'.repeat(41) }],
      });
      expect([action, result.status]).toEqual([action, 400]);
      expect(result.body.message).toMatch(/^buttons\[0\]\.callback_data: must be at most 64 bytes/);
    }
  });

  it.each(listFields)('%s: a wrong item in %s is named by its index', async (action, field, item) => {
    const wrong = item.type === 'object' ? 42 : { a: 1 };
    const good = item.type === 'object' ? { platform_id: 'p1', client_type: 99 } : clientId;
    const result = await call(action, { ...exampleOf(action, field), [field]: [good, wrong] });
    expect([result.status, result.body.error]).toEqual([400, 'invalid_parameter']);
    expect(result.body.message).toContain(`${field}[1]: must be`);
    expect(result.body.message).not.toMatch(zodDefault);
  });

  const topLevel = actions.flatMap((action) =>
    parametersOf(action).map(([name]) => [action.name, name] as const),
  );

  it.each(topLevel)('%s: a wrong value for %s says what %s takes', async (action, field) => {
    for (const wrong of [{ a: 1 }, [{ a: 1 }], true, -1.5]) {
      const result = await call(action, { ...exampleOf(action, field), [field]: wrong });
      expect(result.status).not.toBe(500);
      // Values of the right type that name nothing (-1.5 as a phone) fail later, or not at all.
      if (!['invalid_parameter', 'missing_parameter'].includes(result.body.error)) continue;
      expect(result.body.message).toMatch(new RegExp(`(^|; )${field.replace('-', '\\-')}(\\[|\\.|:| is)`));
      expect([field, result.body.message]).not.toEqual([field, expect.stringMatching(zodDefault)]);
    }
  });
});
