import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorSend } from '@/server/channels/simulator/simulator-service';
import { VARIABLE_LIMITS } from '@/server/contacts/variable-limits';
import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { updateProjectSettings } from '@/server/projects/project-service';
import { startApiProject } from './testing/api-project';
import type { startApiServer } from './testing/api-server';

// Races show on PostgreSQL (TEST_DATABASE_URL), where requests run on several connections at
// once; PGlite's one connection runs them one after the other, so there these check the outcome.

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers
type JsonBody = Record<string, any>;

let env: Awaited<ReturnType<typeof startApiProject>>;
let server: Awaited<ReturnType<typeof startApiServer>>;
let db: PrismaClient;
let key: string;
let projectId: number;

beforeAll(async () => {
  env = await startApiProject('Races');
  ({ db, server, projectId, key } = env);
  // A first call warms the server up, so the calls of each test below do run at once.
  await newClient('warm-up');
});
afterAll(async () => {
  await env?.close();
});

async function call(action: string, params: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/${key}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return { status: response.status, body: (await response.json()) as JsonBody };
}

const times = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

async function newClient(platformId: string) {
  const { body } = await call('load_clients', { platform_id: platformId, group_id: 'sim', client_type: 99 });
  return body.clients[0].client_id as number;
}

/** Fills a client's profile or open deal up to `count` variables, as a setup step. */
async function fill(clientId: number, scope: 'client' | 'deal', count: number) {
  const names = Array.from({ length: count }, (_, i) => `pre${i}`);
  if (scope === 'client') {
    await db.clientVariable.createMany({
      data: names.map((name) => ({ projectId, clientId, name, value: '1', valueKey: '1' })),
    });
    return;
  }
  expect((await call('save_variables', { client_id: clientId, variables: { [names[0]]: '1' } })).status).toBe(
    200,
  );
  const deal = await db.deal.findFirstOrThrow({ where: { clientId, closedAt: null } });
  await db.dealVariable.createMany({
    data: names.slice(1).map((name) => ({ projectId, dealId: deal.id, name, value: '1', valueKey: '1' })),
  });
}

const countVariables = async (clientId: number, scope: 'client' | 'deal') =>
  scope === 'client'
    ? db.clientVariable.count({ where: { clientId } })
    : db.dealVariable.count({ where: { deal: { clientId } } });

describe('first contacts of one new client at once resolve to one client', () => {
  it('tg_callback: 50 at once → all 200, one client, one open deal, whatever the case of the bot', async () => {
    await db.channel.create({ data: { projectId, kind: 'tg', clientType: 1, groupId: 'race_bot' } });
    const results = await times(50, (i) =>
      call('tg_callback', { user_id: 'tg-race', group_id: i % 2 ? 'Race_Bot' : 'race_bot', message: 'hi' }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const clients = await db.client.findMany({ where: { projectId, platformId: 'tg-race' } });
    expect(clients).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.client_id))).toEqual(new Set([clients[0].id]));
    expect(await db.deal.count({ where: { clientId: clients[0].id, closedAt: null } })).toBe(1);
  });

  it('chatapp_callback: 50 at once → all 200, one client', async () => {
    await db.channel.create({ data: { projectId, kind: 'chatapp', clientType: 6, groupId: '42' } });
    const results = await times(50, () =>
      call('chatapp_callback', { phone: '+7 900 555-00-11', bot_id: '42', message: 'signed_up' }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await db.client.count({ where: { projectId, platformId: '79005550011' } })).toBe(1);
  });

  it('load_clients: 50 at once, one by one and in lists → all 200, one client', async () => {
    const item = { platform_id: 'load-race', group_id: 'sim', client_type: 99 };
    const results = await times(50, (i) =>
      call('load_clients', i % 2 ? item : { clients: [item, { ...item, platform_id: 'load-race-2' }] }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const [client] = await db.client.findMany({ where: { projectId, platformId: 'load-race' } });
    expect(new Set(results.map((r) => r.body.clients[0].client_id))).toEqual(new Set([client.id]));
    expect(await db.client.count({ where: { projectId, platformId: { startsWith: 'load-race' } } })).toBe(2);
  });

  it("callback: 50 at once for a new client's first message → all 200, one open deal", async () => {
    const id = await newClient('callback-race');
    const results = await times(50, (i) => call('callback', { client_id: id, message: 'hi', n: i }));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await db.client.count({ where: { projectId, platformId: 'callback-race' } })).toBe(1);
    expect(await db.deal.count({ where: { clientId: id, closedAt: null } })).toBe(1);
  });

  it('save_variables: 20 at once for a client without a deal → all 200, one open deal', async () => {
    const id = await newClient('first-save-race');
    const results = await times(20, (i) =>
      call('save_variables', { client_id: id, variables: { [`v${i}`]: i } }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await db.deal.count({ where: { clientId: id, closedAt: null } })).toBe(1);
    expect(await countVariables(id, 'deal')).toBe(20);
  });

  it("the engine's own entry (a messenger's or the simulator's first messages): 50 at once → one client", async () => {
    const deps = await getEngineDeps();
    const user = { id: 'engine-race', name: 'Tester' };
    const results = await times(50, () => simulatorSend(deps, projectId, user, 'hi'));
    const clients = await db.client.findMany({ where: { projectId, platformId: 'user:engine-race' } });
    expect(clients).toHaveLength(1);
    expect(new Set(results.map((r) => r.clientId))).toEqual(new Set([clients[0].id]));
    expect(await db.deal.count({ where: { clientId: clients[0].id, closedAt: null } })).toBe(1);
  });

  it('set_order_state: 20 at once for a client without a deal → all 200, one open deal', async () => {
    const id = await newClient('state-race');
    const funnel = await db.crmFunnel.findFirstOrThrow({ where: { projectId }, include: { states: true } });
    const results = await times(20, () =>
      call('set_order_state', { client_id: id, state_id: funnel.states[0].id }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await db.deal.count({ where: { clientId: id, closedAt: null } })).toBe(1);
  });
});

describe(`the ${VARIABLE_LIMITS.perOwner}-variable limit holds under concurrent saves`, () => {
  it.each(['client', 'deal'] as const)(
    '%s variables: 10 saves of 5 new at once, 10 short → exactly the limit',
    async (scope) => {
      const id = await newClient(`limit-race-${scope}`);
      await fill(id, scope, VARIABLE_LIMITS.perOwner - 10);
      const prefix = scope === 'client' ? 'client.' : '';
      const results = await times(10, (i) =>
        call('save_variables', {
          client_id: id,
          variables: Object.fromEntries(Array.from({ length: 5 }, (_, j) => [`${prefix}new${i}_${j}`, 'x'])),
        }),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      for (const refused of results.filter((r) => r.status !== 200)) {
        expect(refused).toMatchObject({ status: 400, body: { status: 'error' } });
        expect(refused.body.message).toContain(`at most ${VARIABLE_LIMITS.perOwner} variables`);
      }
      expect(await countVariables(id, scope)).toBe(VARIABLE_LIMITS.perOwner);
    },
  );
});

describe('bulk save_variables is all or nothing', () => {
  it.each(['client', 'deal'] as const)(
    '%s variables: the second client over the limit → 400, the first unchanged',
    async (scope) => {
      const first = await newClient(`bulk-first-${scope}`);
      const full = await newClient(`bulk-full-${scope}`);
      await fill(full, scope, VARIABLE_LIMITS.perOwner);
      const before = await countVariables(first, scope);
      const prefix = scope === 'client' ? 'client.' : '';
      const result = await call('save_variables', {
        clients: [first, full],
        variables: { [`${prefix}campaign`]: 'spring' },
      });
      expect(result).toMatchObject({ status: 400, body: { status: 'error' } });
      expect(result.body.message).toContain(`at most ${VARIABLE_LIMITS.perOwner} variables`);
      expect(await countVariables(first, scope)).toBe(before);
      expect(await db.deal.count({ where: { clientId: first } })).toBe(0);
    },
  );
});

describe('project constants saved at once', () => {
  it('10 settings saves replacing the constants at once → each replaces the whole list, never a mix', async () => {
    const lists = Array.from({ length: 10 }, (_, i) =>
      Array.from({ length: 30 }, (_, j) => ({ name: `c${j + (i % 2) * 30}`, value: `${i}` })),
    );
    await times(10, (i) => updateProjectSettings(db, projectId, { constants: lists[i] }));
    const saved = await db.projectConstant.findMany({ where: { projectId }, orderBy: { name: 'asc' } });
    expect(saved).toHaveLength(30);
    expect(new Set(saved.map((c) => c.value)).size).toBe(1);
  });
});
