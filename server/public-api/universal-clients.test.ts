import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredParams } from '@/lib/api-params';
import type { PrismaClient } from '@/server/db/client-type';
import { actions } from './actions';
import { startApiProject } from './testing/api-project';
import { rawRequest } from './testing/api-server';

// Issue 29 item 16: in universal-webhook mode, value_phone, value_email, value_user_id and
// value_group_id locate the client of every client method (platform-interface, universal
// webhook mode, rules 2-3), not only of callback.

let env: Awaited<ReturnType<typeof startApiProject>>;
let db: PrismaClient;
let projectId: number;
/** Ann: a tg client whose profile holds her phone and e-mail; Ann's namesake in another bot. */
const ids = { ann: 0, annElsewhere: 0, bob: 0, bobToo: 0, state: 0 };

beforeAll(async () => {
  env = await startApiProject('Universal');
  ({ db, projectId } = env);
  const client = async (platformId: string, groupId: string, variables: Record<string, string> = {}) => {
    const { id } = await db.client.create({ data: { projectId, platformId, groupId, clientType: 1 } });
    for (const [name, value] of Object.entries(variables)) {
      await db.clientVariable.create({ data: { projectId, clientId: id, name, value, valueKey: value } });
    }
    return id;
  };
  ids.ann = await client('5550101', 'shop_bot', { phone: '+7 900 555-01-01', email: 'ann@example.com' });
  ids.annElsewhere = await client('5550101', 'other_bot');
  ids.bob = await client('5550202', 'shop_bot', { email: 'shared@example.com' });
  ids.bobToo = await client('5550303', 'other_bot', { email: 'shared@example.com' });
  ids.state = (await db.crmState.findFirstOrThrow({ where: { projectId } })).id;
  await db.projectMember.create({ data: { projectId, email: 'agent@example.com', role: 'operator' } });
});
afterAll(async () => {
  await env?.close();
});

type Params = Record<string, unknown>;

/** A GET with the parameters in the query, or a POST with a JSON body. */
function call(action: string, params: Params, as: 'query' | 'json' = 'json') {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, text(v)])).toString();
  if (as === 'query') return rawRequest(env.server.url, `/api/${env.key}/${action}?${query}`);
  return rawRequest(env.server.url, `/api/${env.key}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
}

/** Every client method (an action that takes client_id), with its documented example minus the client. */
const clientMethods = actions
  .filter((action) => declaredParams(action.input).includes('client_id'))
  .map((action) => {
    const { client_id: _, ...rest } = action.example;
    return [action.name, rest] as const;
  });

const locators: [string, Params][] = [
  ['value_phone', { value_phone: 'tel', tel: '+7 (900) 555-01-01' }],
  ['value_email', { value_email: 'mail', mail: 'ANN@example.com' }],
  [
    'value_user_id with value_group_id',
    { value_user_id: 'uid', uid: 5550101, value_group_id: 'bot', bot: 'shop_bot' },
  ],
];

describe('every client method locates its client by the universal identifiers', () => {
  it('covers the client methods', () => {
    expect(clientMethods.map(([name]) => name)).toEqual(
      expect.arrayContaining(['get_variables', 'save_variables', 'message', 'callback', 'get_history']),
    );
  });

  it.each(clientMethods)('%s', async (action, example) => {
    const params = { ...example, ...('state_id' in example ? { state_id: ids.state } : {}) };
    for (const [way, locator] of locators) {
      for (const as of ['query', 'json'] as const) {
        const result = await call(action, { ...params, ...locator }, as);
        const reached = result.status === 200 ? (result.body.client_id ?? ids.ann) : result.body.message;
        expect([way, as, result.status, reached]).toEqual([way, as, 200, ids.ann]);
      }
    }
  });

  it('get_variables answers with the located client’s variables; save_variables writes to that client', async () => {
    const read = await call('get_variables', { value_email: 'mail', mail: 'ann@example.com' }, 'query');
    expect(read.body.variables).toMatchObject({ 'client.phone': '+7 900 555-01-01' });
    const saved = await call('save_variables', {
      value_phone: 'tel',
      tel: '79005550101',
      variables: { 'client.city': 'Riga' },
    });
    expect(saved.status).toBe(200);
    const city = await db.clientVariable.findUnique({
      where: { clientId_name: { clientId: ids.ann, name: 'city' } },
    });
    expect(city?.value).toBe('Riga');
  });

  it('assign_to_user: value_email locates the client, e-mail still names the employee', async () => {
    const result = await call(
      'assign_to_user',
      { value_email: 'mail', mail: 'ann@example.com', 'e-mail': 'agent@example.com' },
      'query',
    );
    expect(result).toMatchObject({ status: 200, body: { email: 'agent@example.com' } });
    const ann = await db.client.findUniqueOrThrow({ where: { id: ids.ann } });
    expect(ann.assignedMemberId).not.toBeNull();
  });

  it('client_id, when given, wins over the identifiers', async () => {
    const result = await call('get_variables', {
      value_client_id: 'lead',
      lead: ids.bob,
      value_email: 'mail',
      mail: 'ann@example.com',
    });
    expect(result.body.variables).toEqual({ 'client.email': 'shared@example.com' });
  });
});

describe('an identifier that matches no client, or several', () => {
  it('none: 404 naming the parameter and the value', async () => {
    const result = await call('get_history', { value_email: 'mail', mail: 'nobody@example.com' }, 'query');
    expect(result).toMatchObject({ status: 404, body: { error: 'client_not_found' } });
    expect(result.body.message).toContain('the e-mail "nobody@example.com" (mail)');
    const inChannel = await call('get_history', {
      value_phone: 'tel',
      tel: '79005550101',
      value_group_id: 'bot',
      bot: 'other_bot',
    });
    expect(inChannel.status).toBe(404);
    expect(inChannel.body.message).toContain('in the channel "other_bot" (bot)');
  });

  it('several: 409 listing them, and value_group_id narrows to one channel', async () => {
    const shared = await call('get_variables', { value_email: 'mail', mail: 'shared@example.com' });
    expect(shared).toMatchObject({ status: 409, body: { error: 'ambiguous_client' } });
    expect(shared.body.message).toContain(`${ids.bob}, ${ids.bobToo}`);
    expect(shared.body.message).toContain('value_group_id');
    const sameUser = await call('get_variables', { value_user_id: 'uid', uid: '5550101' });
    expect(sameUser.status).toBe(409);
    expect(sameUser.body.message).toContain(`${ids.ann}, ${ids.annElsewhere}`);
    const narrowed = await call('get_variables', {
      value_email: 'mail',
      mail: 'shared@example.com',
      value_group_id: 'bot',
      bot: 'other_bot',
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.variables).toEqual({ 'client.email': 'shared@example.com' });
  });

  it('callback’s own client_email is located the same way', async () => {
    const shared = await call('callback', { client_email: 'shared@example.com', message: 'go' });
    expect([shared.status, shared.body.error]).toEqual([409, 'ambiguous_client']);
    const none = await call('callback', { client_phone: '+1 555 000', message: 'go' });
    expect(none.status).toBe(404);
    expect(none.body.message).toContain('(client_phone)');
  });

  it('identifiers of the wrong type, or a group_id alone, are 400s naming the parameter', async () => {
    const object = await call('get_variables', { value_email: 'mail', mail: { a: 1 } });
    expect(object).toMatchObject({
      status: 400,
      body: { message: 'mail: must be text (a string or a number), not an object.' },
    });
    const groupOnly = await call('get_variables', { value_group_id: 'bot', bot: 'shop_bot' });
    expect(groupOnly.status).toBe(400);
    expect(groupOnly.body.message).toContain('bot (the group_id) only narrows');
    const nothing = await call('get_variables', { value_email: 'mail', mail: '' });
    expect(nothing).toMatchObject({ status: 400, body: { message: 'client_id is required.' } });
  });
});
