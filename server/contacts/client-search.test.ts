import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFilterOptions } from '@/server/contacts/client-filter-options';
import { type ClientSearchInput, searchClients } from '@/server/contacts/client-search';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';

let tdb: TestDatabase;
let projectId: number;
let otherProjectId: number;
let memberId: number;
let listId: number;
let stateId: number;
const ids: Record<string, number> = {};

const project = async (name: string) =>
  (await tdb.prisma.project.create({ data: { name, webhookSecret: 'whsec_test' } })).id;

async function client(
  pid: number,
  name: string,
  data: { clientType?: number; tag?: string; lastMessageAt?: Date; createdAt?: Date; member?: boolean } = {},
  variables: Record<string, string> = {},
) {
  const c = await tdb.prisma.client.create({
    data: {
      projectId: pid,
      platformId: `pid-${name}`,
      clientType: data.clientType ?? 1,
      name,
      tag: data.tag ?? '',
      lastMessageAt: data.lastMessageAt,
      createdAt: data.createdAt,
      assignedMemberId: data.member ? memberId : null,
    },
  });
  await tdb.prisma.clientVariable.createMany({
    data: Object.entries(variables).map(([n, value]) => ({
      projectId: pid,
      clientId: c.id,
      name: n,
      value,
      valueKey: value.slice(0, 200),
    })),
  });
  return c.id;
}

const names = async (input: ClientSearchInput, pid = projectId) =>
  (await searchClients(tdb.prisma, pid, { sort: 'name', direction: 'asc', ...input })).clients.map(
    (c) => c.name,
  );

beforeAll(async () => {
  tdb = await createTestDatabase();
  projectId = await project('search');
  otherProjectId = await project('other');
  memberId = (
    await tdb.prisma.projectMember.create({ data: { projectId, email: 'op@example.com', name: 'Op' } })
  ).id;
  listId = (await tdb.prisma.clientList.create({ data: { projectId, name: 'vip' } })).id;
  const funnel = await tdb.prisma.crmFunnel.create({ data: { projectId, name: 'sales' } });
  stateId = (await tdb.prisma.crmState.create({ data: { projectId, funnelId: funnel.id, name: 'won' } })).id;

  ids.anna = await client(
    projectId,
    'anna',
    { tag: 'gold', lastMessageAt: new Date('2026-01-03') },
    { phone: '+1 555 0100', email: 'anna@mail.test', city: 'Paris' },
  );
  ids.boris = await client(projectId, 'boris', {
    clientType: 4,
    member: true,
    lastMessageAt: new Date('2026-01-05'),
  });
  ids.carla = await client(projectId, 'carla', {}, { email: 'carla@corp.test', note: '100% sure_x' });
  ids.dmitri = await client(
    projectId,
    "d'mitri 🚀",
    { lastMessageAt: new Date('2026-01-04') },
    { city: 'Berlin' },
  );
  ids.pct = await client(projectId, 'percent%name');
  ids.under = await client(projectId, 'under_score');
  await tdb.prisma.block.create({ data: { projectId, id: 7, kind: 'start', name: 'Welcome' } });
  await tdb.prisma.client.update({ where: { id: ids.anna }, data: { currentBlockId: 7 } });
  await tdb.prisma.clientListMember.create({ data: { projectId, listId, clientId: ids.carla } });
  await tdb.prisma.deal.create({ data: { projectId, clientId: ids.boris, stateId } });
  // A closed deal in the state does not count: the client has left it.
  await tdb.prisma.deal.create({ data: { projectId, clientId: ids.anna, stateId, closedAt: new Date() } });
  await client(otherProjectId, 'anna', { tag: 'gold' }, { phone: '+1 555 0100', city: 'Paris' });
});
afterAll(() => tdb?.close());

describe('searchClients finds clients by text', () => {
  it('by name, platform id, phone and e-mail, case-insensitively', async () => {
    expect(await names({ query: 'ANN' })).toEqual(['anna']);
    expect(await names({ query: 'pid-bor' })).toEqual(['boris']);
    expect(await names({ query: '555 01' })).toEqual(['anna']);
    expect(await names({ query: 'corp.test' })).toEqual(['carla']);
    expect(await names({ query: 'nobody' })).toEqual([]);
  });

  it("by a variable's name and value", async () => {
    expect(await names({ variableName: 'city', variableValue: 'par' })).toEqual(['anna']);
    expect(await names({ variableName: 'city' })).toEqual(['anna', "d'mitri 🚀"]);
    expect(await names({ variableValue: 'berlin' })).toEqual(["d'mitri 🚀"]);
    expect(await names({ variableName: 'note', variableValue: 'Paris' })).toEqual([]);
  });

  it('takes %, _, backslashes, quotes and emoji literally', async () => {
    expect(await names({ query: '%' })).toEqual(['percent%name']);
    expect(await names({ query: '_' })).toEqual(['under_score']);
    expect(await names({ query: '\\' })).toEqual([]);
    expect(await names({ variableValue: '100%' })).toEqual(['carla']);
    expect(await names({ variableValue: 'sure_x' })).toEqual(['carla']);
    expect(await names({ variableValue: 'sur_' })).toEqual([]);
    expect(await names({ variableValue: '100_' })).toEqual([]);
    expect(await names({ query: "d'm" })).toEqual(["d'mitri 🚀"]);
    expect(await names({ query: '🚀' })).toEqual(["d'mitri 🚀"]);
    expect(await names({ query: '"; DROP TABLE "Client"; --' })).toEqual([]);
  });

  it('refuses 10,000-character text, a page over 100 and a foreign cursor with clear errors', async () => {
    const long = 'x'.repeat(10_000);
    await expect(searchClients(tdb.prisma, projectId, { query: long })).rejects.toThrow(
      'query: The search text can be at most 200 characters.',
    );
    await expect(searchClients(tdb.prisma, projectId, { variableValue: long })).rejects.toThrow(
      'variableValue: The variable value can be at most 200 characters.',
    );
    await expect(searchClients(tdb.prisma, projectId, { limit: 101 })).rejects.toMatchObject({
      code: 'invalid',
    });
    await expect(searchClients(tdb.prisma, projectId, { cursor: 'not-a-cursor' })).rejects.toThrow(
      /out of date/,
    );
    const { nextCursor } = await searchClients(tdb.prisma, projectId, { sort: 'name', limit: 1 });
    await expect(
      searchClients(tdb.prisma, projectId, { sort: 'created', cursor: nextCursor ?? '' }),
    ).rejects.toThrow(/out of date/);
  });
});

describe('searchClients filters', () => {
  it('by messenger, list, CRM state, tag and assigned member', async () => {
    expect(await names({ clientType: 4 })).toEqual(['boris']);
    expect(await names({ listId })).toEqual(['carla']);
    expect(await names({ crmStateId: stateId })).toEqual(['boris']);
    expect(await names({ tag: 'gold' })).toEqual(['anna']);
    expect(await names({ assignedMemberId: memberId })).toEqual(['boris']);
    expect(await names({ assignedMemberId: null })).not.toContain('boris');
    expect(await names({ tag: 'gold', query: 'boris' })).toEqual([]);
  });

  it("never shows another project's clients", async () => {
    expect(await names({ query: 'anna' }, otherProjectId)).toEqual(['anna']);
    const found = await searchClients(tdb.prisma, projectId, { query: 'anna' });
    expect(found.clients.map((c) => c.id)).toEqual([ids.anna]);
    expect(await names({ listId }, otherProjectId)).toEqual([]);
  });

  it('returns the row the table shows', async () => {
    const [anna] = (await searchClients(tdb.prisma, projectId, { query: 'anna' })).clients;
    expect(anna).toMatchObject({
      name: 'anna',
      platformId: 'pid-anna',
      phone: '+1 555 0100',
      email: 'anna@mail.test',
      tag: 'gold',
      assignedMember: null,
    });
    expect(anna).toMatchObject({ messenger: 'Telegram', currentBlockName: 'Welcome' });
    const [boris] = (await searchClients(tdb.prisma, projectId, { query: 'boris' })).clients;
    expect(boris.assignedMember).toMatchObject({ id: memberId, email: 'op@example.com' });
    expect(boris).toMatchObject({ currentBlockId: null, currentBlockName: null });
  });

  it('offers as filters only what the project has', async () => {
    expect(await clientFilterOptions(tdb.prisma, projectId)).toEqual({
      messengers: [
        { clientType: 1, label: 'Telegram' },
        { clientType: 4, label: 'Type 4' },
      ],
      tags: ['gold'],
      lists: [{ id: listId, name: 'vip' }],
      crmStates: [{ id: stateId, name: 'sales: won' }],
      members: [{ id: memberId, name: 'Op' }],
    });
    expect(await clientFilterOptions(tdb.prisma, otherProjectId)).toMatchObject({ lists: [], members: [] });
  });
});

describe('searchClients sorts and pages', () => {
  it('by name, by last message (clients without one last) and by creation', async () => {
    const all = ['anna', 'boris', 'carla', "d'mitri 🚀", 'percent%name', 'under_score'];
    expect(await names({})).toEqual(all);
    expect(await names({ direction: 'desc' })).toEqual([...all].reverse());
    const byLast = await names({ sort: 'lastMessage', direction: 'desc' });
    expect(byLast.slice(0, 3)).toEqual(['boris', "d'mitri 🚀", 'anna']);
    const byLastAsc = await names({ sort: 'lastMessage', direction: 'asc' });
    expect(byLastAsc.slice(0, 3)).toEqual(['anna', "d'mitri 🚀", 'boris']);
    const created = await searchClients(tdb.prisma, projectId, {});
    expect(created.clients.map((c) => c.id)).toEqual(Object.values(ids).sort((a, b) => b - a));
  });

  it('pages through every client once with the cursor, whatever the sort', async () => {
    const sameTime = new Date('2026-02-01');
    for (let i = 0; i < 23; i++)
      await client(projectId, `bulk${String(i).padStart(2, '0')}`, {
        createdAt: sameTime,
        lastMessageAt: i % 3 ? sameTime : undefined,
      });
    const total = await tdb.prisma.client.count({ where: { projectId } });
    for (const sort of ['created', 'lastMessage', 'name'] as const)
      for (const direction of ['asc', 'desc'] as const) {
        const seen: number[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await searchClients(tdb.prisma, projectId, { sort, direction, limit: 4, cursor });
          seen.push(...page.clients.map((c) => c.id));
          cursor = page.nextCursor ?? undefined;
          pages++;
        } while (cursor);
        expect(new Set(seen).size, `${sort} ${direction}`).toBe(seen.length);
        expect(seen.length, `${sort} ${direction}`).toBe(total);
        expect(pages).toBe(Math.ceil(total / 4));
      }
  });
});
