import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignClient } from '@/server/contacts/assignment';
import { EngineHarness } from '@/server/engine/testing/engine-harness';

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(async () => {
  await h?.close();
});

const MEMBERS = 5;
const CALLS = 50;

/** A project whose start block assigns the client round-robin, with five active members and one inactive. */
async function projectWithTeam(name: string) {
  const bot = await h.bot({
    blocks: [
      { id: 1, kind: 'start', text: 'hi', formula: 'who = assign_to_user()', trigger: { alternatives: '' } },
    ],
    arrows: [],
  });
  const db = bot.db;
  await db.projectMember.createMany({
    data: [
      ...Array.from({ length: MEMBERS }, (_, i) => ({
        projectId: bot.projectId,
        email: `${name}${i}@example.com`,
      })),
      { projectId: bot.projectId, email: `${name}-away@example.com`, active: false },
    ],
  });
  return bot;
}

async function countsByMember(projectId: number) {
  const clients = await h.tdb.prisma.client.findMany({
    where: { projectId },
    include: { assignedMember: true },
  });
  const counts = new Map<string, number>();
  for (const c of clients) {
    const email = c.assignedMember?.email ?? 'nobody';
    counts.set(email, (counts.get(email) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort());
}

const evenly = (name: string) =>
  Object.fromEntries(Array.from({ length: MEMBERS }, (_, i) => [`${name}${i}@example.com`, CALLS / MEMBERS]));

describe('assign_to_user round-robin under concurrency', () => {
  it('50 concurrent in-flow assign_to_user() calls spread exactly evenly over the active members', async () => {
    const bot = await projectWithTeam('flow');
    await Promise.all(Array.from({ length: CALLS }, (_, i) => bot.client(`c${i}`).say('/start')));
    expect(await countsByMember(bot.projectId)).toEqual(evenly('flow'));
  });

  it("50 concurrent API assignments (the API's assign_to_user) spread exactly evenly too", async () => {
    const bot = await projectWithTeam('api');
    const clients = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        h.tdb.prisma.client.create({
          data: { projectId: bot.projectId, clientType: 1, platformId: `api-${i}` },
        }),
      ),
    );
    await Promise.all(clients.map((c) => assignClient(h.tdb.prisma, bot.projectId, c.id)));
    expect(await countsByMember(bot.projectId)).toEqual(evenly('api'));
  });

  it('by e-mail assigns that active member; an inactive or unknown one is refused with a clear message', async () => {
    const bot = await projectWithTeam('mail');
    const client = await h.tdb.prisma.client.create({
      data: { projectId: bot.projectId, clientType: 1, platformId: 'mail-1' },
    });
    expect(await assignClient(h.tdb.prisma, bot.projectId, client.id, ' MAIL3@example.com ')).toMatchObject({
      email: 'mail3@example.com',
    });
    await expect(
      assignClient(h.tdb.prisma, bot.projectId, client.id, 'mail-away@example.com'),
    ).rejects.toThrow('No active employee with the e-mail mail-away@example.com');
  });
});
