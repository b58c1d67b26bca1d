/**
 * `npm run bench -- client-search`: the Clients tab's query (server/contacts/client-search.ts)
 * over BENCH_CLIENTS clients (default 100,000) of one project, each with a phone, an e-mail
 * and a `city` variable, a quarter assigned and a third without a message yet. PGlite by
 * default, PostgreSQL with TEST_DATABASE_URL. Prints the median of a few runs; never fails on time.
 */
import { type ClientSearchInput, searchClients } from '../server/contacts/client-search';
import { createTestDatabase } from '../server/db/test-support';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const RUNS = 5;
const BATCH = 5_000;

export async function run() {
  const tdb = await createTestDatabase();
  try {
    const db = tdb.prisma;
    const projectId = (await db.project.create({ data: { name: 'bench', webhookSecret: 'whsec_bench' } })).id;
    const member = await db.projectMember.create({ data: { projectId, email: 'op@example.com' } });
    const seedStart = performance.now();
    for (let from = 0; from < CLIENTS; from += BATCH) {
      const n = Math.min(BATCH, CLIENTS - from);
      const created = await db.client.createManyAndReturn({
        data: Array.from({ length: n }, (_, j) => {
          const i = from + j;
          return {
            projectId,
            platformId: String(10_000_000 + i),
            clientType: (i % 4) + 1,
            name: `Client ${i}`,
            createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
            lastMessageAt: i % 3 ? new Date(Date.UTC(2026, 1, 1) + ((i * 7919) % CLIENTS) * 1000) : null,
            assignedMemberId: i % 4 ? null : member.id,
          };
        }),
        select: { id: true, platformId: true },
      });
      await db.clientVariable.createMany({
        data: created.flatMap((c, j) =>
          [
            ['phone', `+1 555 ${String(from + j).padStart(7, '0')}`],
            ['email', `client${from + j}@mail.test`],
            ['city', ['Paris', 'Berlin', 'Rome', 'Oslo'][(from + j) % 4]],
          ].map(([name, value]) => ({ projectId, clientId: c.id, name, value, valueKey: value })),
        ),
      });
    }
    console.log(`seeded ${CLIENTS} clients in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const cases: [string, ClientSearchInput][] = [
      ['first page, newest first', {}],
      ['first page, last message', { sort: 'lastMessage' }],
      ['first page, by name', { sort: 'name', direction: 'asc' }],
      ['search by name', { query: 'Client 9876' }],
      ['search by phone', { query: '555 00123' }],
      ['search by variable', { variableName: 'city', variableValue: 'oslo' }],
      ['filter by member', { assignedMemberId: member.id }],
    ];
    for (const [label, input] of cases) {
      const times: number[] = [];
      let found = 0;
      for (let r = 0; r < RUNS; r++) {
        const t = performance.now();
        found = (await searchClients(db, projectId, { limit: 50, ...input })).clients.length;
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(`${label.padEnd(28)} ${times[RUNS >> 1].toFixed(1).padStart(8)} ms  (${found} rows)`);
    }
    // A page deep in the list costs the same as the first: the cursor seeks, nothing is skipped.
    let cursor: string | undefined;
    for (let p = 0; p < 20; p++)
      cursor = (await searchClients(db, projectId, { limit: 100, cursor })).nextCursor ?? undefined;
    const t = performance.now();
    await searchClients(db, projectId, { limit: 100, cursor });
    console.log(`${'page 21, newest first'.padEnd(28)} ${(performance.now() - t).toFixed(1).padStart(8)} ms`);
  } finally {
    await tdb.close();
  }
}
