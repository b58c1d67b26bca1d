import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PrismaClient } from '@/server/db/client-type';
import type { ApiAction } from './action';
import { actions } from './actions';
import { MAX_FORM_FIELDS, MAX_INDEXED_ITEMS } from './request-params';
import { startApiProject } from './testing/api-project';
import { type RawReply, rawRequest, type startApiServer } from './testing/api-server';

// Issue 18 items 1 and 2: every body encoding real clients use reaches an action as the same
// input, and an empty value means "not given". The cases are generated from the action
// registry and the actions' documented examples, so a new action is covered as it is added.

type Params = Record<string, unknown>;

let env: Awaited<ReturnType<typeof startApiProject>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let db: PrismaClient;
let key: string;
let projectId: number;
/** Stand-ins for the ids the examples name: a client, a second one, a list, a CRM state. */
const ids = { client: 0, other: 0, list: 0, state: 0, phoneClient: 0 };

beforeAll(async () => {
  env = await startApiProject('Encodings');
  ({ db, server, projectId, key } = env);
  const client = (platformId: string, groupId = 'sim', clientType = 99) =>
    db.client.create({ data: { projectId, platformId, groupId, clientType } });
  ids.client = (await client('c1')).id;
  ids.other = (await client('c2')).id;
  ids.phoneClient = (await client('79005550101', '42', 6)).id;
  ids.list = (await db.clientList.create({ data: { projectId, name: 'Buyers' } })).id;
  const funnel = await db.crmFunnel.create({ data: { projectId, name: 'Sales' } });
  ids.state = (await db.crmState.create({ data: { projectId, funnelId: funnel.id, name: 'Paid' } })).id;
  await db.channel.create({ data: { projectId, kind: 'chatapp', clientType: 6, groupId: '42', status: 1 } });
  await db.projectMember.create({ data: { projectId, email: 'agent@example.com' } });
});
afterAll(async () => {
  await env?.close();
});

/** One HTTP request to the served API exactly as given (see rawRequest). */
const request = (pathAndQuery: string, options?: Parameters<typeof rawRequest>[2]) =>
  rawRequest(server.url, pathAndQuery, options);

type Field = [string, string];

/** PHP's http_build_query and Rails: `a[0][text]=x`, `a[b]=1`. */
const nestedFields = (params: Params): Field[] => [
  ...new URLSearchParams(qs.stringify(params, { arrayFormat: 'indices' })),
];
/** `a[]=1&a[]=2` for lists. */
const bracketFields = (params: Params): Field[] => [
  ...new URLSearchParams(qs.stringify(params, { arrayFormat: 'brackets' })),
];
/** Each structured value as JSON text in one field. */
const jsonTextFields = (params: Params): Field[] =>
  Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);

async function multipart(fields: Field[]) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, body };
}

const urlencoded = (fields: Field[]) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** Every way of sending the parameters that clients use, by name. */
const encodings: Record<
  string,
  (params: Params) => Promise<{ headers?: Record<string, string>; body?: string | Buffer; query?: string }>
> = {
  JSON: async (p) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(p) }),
  'JSON, no content type': async (p) => ({ body: JSON.stringify(p) }),
  'JSON, text/plain': async (p) => ({ headers: { 'content-type': 'text/plain' }, body: JSON.stringify(p) }),
  'urlencoded, nested fields': async (p) => urlencoded(nestedFields(p)),
  'urlencoded, a[] fields': async (p) => urlencoded(bracketFields(p)),
  'urlencoded, JSON in fields': async (p) => urlencoded(jsonTextFields(p)),
  'multipart, nested fields': (p) => multipart(nestedFields(p)),
  'multipart, a[] fields': (p) => multipart(bracketFields(p)),
  'multipart, JSON in fields': (p) => multipart(jsonTextFields(p)),
  'GET query, nested fields': async (p) => ({ query: qs.stringify(p, { arrayFormat: 'indices' }) }),
};

async function send(action: string, params: Params, encoding: keyof typeof encodings = 'JSON') {
  const { query, ...rest } = await encodings[encoding](params);
  const target = `/api/${key}/${action}${query ? `?${query}` : ''}`;
  return request(target, query === undefined ? { method: 'POST', ...rest } : {});
}

/** The branches of an action's input (load_clients: one client, or a list) with their parameters. */
function branchesOf(action: ApiAction) {
  const input = action.input;
  const objects = (input instanceof z.ZodUnion ? input.options : [input]) as z.ZodObject[];
  return objects.map((shape, index) => ({
    index,
    params: Object.entries(shape.shape).map(([name, schema]) => ({
      name,
      optional: (schema as z.ZodType).safeParse(undefined).success,
    })),
    /** The documented example, or for a branch it does not fit, its first listed item. */
    example(): Params {
      const fits = Object.keys(action.example).every((k) => k in shape.shape);
      const nested = Object.values(action.example).find(
        (v): v is Params[] => Array.isArray(v) && typeof v[0] === 'object',
      );
      return aimed(fits || !nested ? action.example : nested[0]);
    },
  }));
}

/** An example aimed at this project's records, by parameter name. */
function aimed(example: Params): Params {
  const out: Params = { ...example };
  if ('client_id' in out) out.client_id = ids.client;
  if (Array.isArray(out.clients) && typeof out.clients[0] === 'number') out.clients = [ids.client, ids.other];
  for (const name of ['list', 'list_id'] as const) if (name in out) out[name] = ids.list;
  if ('state_id' in out) out.state_id = ids.state;
  return out;
}

/**
 * Records the input the action is handed (its parameters once parsed and validated): the server
 * runs in this process, so the registry's action objects are the ones it calls.
 */
function watchInputs(name: string) {
  const action = actions.find((a) => a.name === name) as ApiAction;
  const handle = action.handle;
  const seen: unknown[] = [];
  action.handle = (ctx, input) => {
    seen.push(input);
    return handle.call(action, ctx, input);
  };
  const restore = () => {
    action.handle = handle;
  };
  return { seen, restore };
}

/** Keys of the answer that change on every call (a new broadcast's id), seen by sending again. */
function comparable(reply: RawReply, again: RawReply): Pick<RawReply, 'status' | 'body'> {
  const body = Object.fromEntries(
    Object.entries(reply.body).filter(([k, v]) => JSON.stringify(v) === JSON.stringify(again.body[k])),
  );
  return { status: reply.status, body };
}

const PARAMETER_ERRORS = ['missing_parameter', 'invalid_parameter', 'too_many_items'];

const actionBranches = actions.flatMap((action) =>
  branchesOf(action as ApiAction).map((branch) => ({ action, branch })),
);

describe('every encoding reaches every action as the same input (item 2)', () => {
  it('covers every action of the registry', () => {
    expect(new Set(actionBranches.map((c) => c.action.name)).size).toBe(actions.length);
  });

  it.each(
    actionBranches.map(
      ({ action, branch }) => [`${action.name}#${branch.index}`, action.name, branch] as const,
    ),
  )('%s', async (_, action, branch) => {
    const example = branch.example();
    await send(action, example); // Once first: a second add_to_list adds nothing, as every later one.
    const inputs = watchInputs(action);
    try {
      const baseline = await send(action, example);
      // The example is understood (the answer may still be a business error, the same every time).
      expect(PARAMETER_ERRORS).not.toContain(baseline.body.error);
      expect(inputs.seen).toHaveLength(1);
      const answers: [string, RawReply, unknown[]][] = [];
      for (const encoding of Object.keys(encodings)) {
        inputs.seen.length = 0;
        answers.push([encoding, await send(action, example, encoding), [...inputs.seen]]);
      }
      const again = await send(action, example);
      for (const [encoding, reply, seen] of answers) {
        expect([encoding, comparable(reply, again), seen]).toEqual([
          encoding,
          comparable(baseline, again),
          [inputs.seen[0]],
        ]);
      }
    } finally {
      inputs.restore();
    }
  });
});

/** [action#branch, parameter, action, optional, the branch's example without the parameter] */
const parameterCases = actionBranches.flatMap(({ action, branch }) =>
  branch.params.map((param) => {
    const { [param.name]: _, ...without } = branch.example();
    return [`${action.name}#${branch.index}`, param.name, action.name, param.optional, without] as const;
  }),
);

/** An empty value, each way a client sends one. */
const emptySends: [string, (action: string, params: Params, name: string) => Promise<RawReply>][] = [
  ...(['', null, [], {}] as const).map(
    (empty) =>
      [
        `JSON ${JSON.stringify(empty)}`,
        (a: string, p: Params, n: string) => send(a, { ...p, [n]: empty }),
      ] as [string, (action: string, params: Params, name: string) => Promise<RawReply>],
  ),
  ['urlencoded ""', (a, p, n) => send(a, { ...p, [n]: '' }, 'urlencoded, nested fields')],
  ['multipart ""', (a, p, n) => send(a, { ...p, [n]: '' }, 'multipart, nested fields')],
  ['GET query ""', (a, p, n) => send(a, { ...p, [n]: '' }, 'GET query, nested fields')],
];

describe('an empty value means "not given" (item 1)', () => {
  const optional = parameterCases.filter((c) => c[3]);
  const required = parameterCases.filter((c) => !c[3]);

  it('covers the parameters of the registry', () => {
    expect(optional.length).toBeGreaterThan(30);
    expect(required.length).toBeGreaterThan(20);
  });

  it.each(optional)('%s: %s sent empty is answered as when absent', async (_, name, action, __, without) => {
    await send(action, without);
    const absent = await send(action, without);
    const answers: [string, RawReply][] = [];
    for (const [shape, sendEmpty] of emptySends)
      answers.push([shape, await sendEmpty(action, without, name)]);
    const again = await send(action, without);
    for (const [shape, reply] of answers) {
      expect([shape, comparable(reply, again)]).toEqual([shape, comparable(absent, again)]);
    }
  });

  it.each(required)('%s: %s sent empty is a 400 naming it', async (_, name, action, __, without) => {
    for (const [shape, sendEmpty] of emptySends) {
      const reply = await sendEmpty(action, without, name);
      expect([shape, reply.status, reply.body.error]).toEqual([shape, 400, 'missing_parameter']);
      expect(reply.body.message).toContain(`${name} is required, and was sent empty`);
    }
  });
});

describe("a published PHP client library's calls (issue 18), multipart with every parameter", () => {
  const php = async (action: string, fields: Field[]) =>
    request(`/api/${key}/${action}`, { method: 'POST', ...(await multipart(fields)) });

  it('message: message_id, attachment_type, attachment_url and buttons empty', async () => {
    const reply = await php('message', [
      ['client_id', String(ids.client)],
      ['message', 'Your order has shipped'],
      ['message_id', ''],
      ['attachment_type', ''],
      ['attachment_url', ''],
      ['buttons', ''],
    ]);
    expect(reply).toMatchObject({ status: 200, body: { status: 'success', client_id: ids.client, sent: 1 } });
    const sent = await db.message.findFirst({ where: { clientId: ids.client }, orderBy: { id: 'desc' } });
    expect(sent?.text).toBe('Your order has shipped');
  });

  it('callback by phone: client_id and client_email empty beside client_phone', async () => {
    const reply = await php('callback', [
      ['client_id', ''],
      ['client_email', ''],
      ['client_phone', '+7 900 555-01-01'],
      ['message', 'paid'],
    ]);
    expect(reply).toMatchObject({ status: 200, body: { client_id: ids.phoneClient } });
  });

  it('broadcast: clients[]=12, every other parameter empty', async () => {
    const reply = await php('broadcast', [
      ['message', 'We are open on Sunday!'],
      ['message_id', ''],
      ['list', ''],
      ['clients[]', String(ids.client)],
      ['clients[]', String(ids.other)],
      ['shift', ''],
      ['attachment_type', ''],
      ['attachment_url', ''],
      ['buttons', ''],
    ]);
    expect(reply).toMatchObject({ status: 200, body: { recipients: 2 } });
    const created = await db.broadcast.findFirst({ where: { projectId }, orderBy: { id: 'desc' } });
    expect(created?.shiftSeconds).toBeGreaterThan(0);
  });

  it('save_variables: variables[city]=Moscow, for one client and for clients[]', async () => {
    const one = await php('save_variables', [
      ['client_id', String(ids.client)],
      ['clients', ''],
      ['variables[city]', 'Moscow'],
      ['variables[client.name]', 'Ann'],
    ]);
    expect(one).toMatchObject({ status: 200, body: { status: 'success' } });
    const many = await php('save_variables', [
      ['client_id', ''],
      ['clients[]', String(ids.client)],
      ['clients[]', String(ids.other)],
      ['variables[city]', 'Kazan'],
    ]);
    expect(many).toMatchObject({ status: 200, body: { status: 'success' } });
    for (const id of [ids.client, ids.other]) {
      const read = await send('get_variables', { client_id: id }, 'GET query, nested fields');
      expect(read.body.variables.city).toBe('Kazan');
    }
    const read = await send('get_variables', { client_id: ids.client }, 'GET query, nested fields');
    expect(read.body.variables['client.name']).toBe('Ann');
  });
});

describe('nested values keep their meaning', () => {
  it("save_variables: a variable sent as '' is saved as JSON's '' is, in every encoding", async () => {
    const stored = async () =>
      (await send('get_variables', { client_id: ids.client }, 'GET query, nested fields')).body.variables
        .note;
    await send('save_variables', { client_id: ids.client, variables: { note: 'x' } });
    await send('save_variables', { client_id: ids.client, variables: { note: '' } });
    const viaJson = await stored();
    for (const encoding of ['urlencoded, nested fields', 'multipart, nested fields'] as const) {
      await send('save_variables', { client_id: ids.client, variables: { note: 'x' } });
      const reply = await send(
        'save_variables',
        { client_id: ids.client, variables: { note: '' } },
        encoding,
      );
      expect([encoding, reply.status, await stored()]).toEqual([encoding, 200, viaJson]);
    }
  });

  it('__proto__ fields are dropped and constructor is plain data', async () => {
    const body = new URLSearchParams([
      ['client_id', String(ids.client)],
      ['__proto__[polluted]', '1'],
      ['variables[__proto__][polluted]', '1'],
      ['variables[constructor]', 'c'],
      ['variables[toString]', 't'],
    ]).toString();
    const reply = await request(`/api/${key}/save_variables`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(reply.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const read = await send('get_variables', { client_id: ids.client });
    expect(read.body.variables).toMatchObject({ constructor: 'c', toString: 't' });
    expect(read.body.variables.polluted).toBeUndefined();
  });
});

describe('form limits', () => {
  const form = (action: string, fields: Field[]) =>
    request(`/api/${key}/${action}`, { method: 'POST', ...urlencoded(fields) });

  it('broadcast takes 10,000 clients[] fields; 10,001 is a 400 naming clients and the cap', async () => {
    const fields = (n: number): Field[] => [
      ['message', 'hi'],
      ['clients[]', String(ids.client)],
      ...Array.from({ length: n - 1 }, (_, i): Field => ['clients[]', String(1_000_000 + i)]),
    ];
    expect(await form('broadcast', fields(10_000))).toMatchObject({ status: 200, body: { recipients: 1 } });
    const over = await form('broadcast', fields(10_001));
    expect([over.status, over.body.error]).toEqual([400, 'too_many_items']);
    expect(over.body.message).toMatch(/clients.*10000/);
  });

  it(`a list written with indices takes ${MAX_INDEXED_ITEMS} items; more is a 400 naming the parameter`, async () => {
    const indexed = (n: number): Field[] => [
      ['message', 'hi'],
      ...Array.from(
        { length: n },
        (_, i): Field => [`clients[${i}]`, String(i ? 1_000_000 + i : ids.client)],
      ),
    ];
    expect(await form('broadcast', indexed(MAX_INDEXED_ITEMS))).toMatchObject({ status: 200 });
    const over = await form('broadcast', indexed(MAX_INDEXED_ITEMS + 1));
    expect([over.status, over.body.error]).toEqual([400, 'too_many_items']);
    expect(over.body.message).toContain('clients[0]');
  });

  it(`more than ${MAX_FORM_FIELDS} distinct fields is a 400, answered quickly`, async () => {
    // The costliest shape for qs: many lists, each at the highest index allowed.
    const sparse = (n: number): Field[] =>
      Array.from({ length: n }, (_, i): Field => [`f${i}[${MAX_INDEXED_ITEMS - 1}]`, '']);
    const started = performance.now();
    const most = await form('get_messages', sparse(MAX_FORM_FIELDS));
    console.log(
      `${MAX_FORM_FIELDS} sparse indexed fields answered in ${Math.round(performance.now() - started)} ms`,
    );
    expect(most.status).toBe(200);
    const over = await form('get_messages', sparse(MAX_FORM_FIELDS + 1));
    expect([over.status, over.body.error]).toEqual([400, 'too_many_parameters']);
  });
});
