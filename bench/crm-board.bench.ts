/**
 * `npm run bench -- crm-board`: the deals board's server side (server/crm/deal-board.ts) over
 * BENCH_DEALS open deals (default 10,000) in one stage of one funnel, each client with a name,
 * a last message time, a quarter assigned, and two deal variables shown on the cards. Prints
 * the median of a few runs of the board's first pages (every column's first page with its
 * count, as the board opens), one column's first and 20th page, a filtered column, and beside
 * them a baseline measured in the same run: the same 50 deal rows read by one plain query
 * with no joins, no variables and no count. PGlite by default, PostgreSQL with
 * TEST_DATABASE_URL. Never fails on time.
 */
import { boardColumn } from '../server/crm/deal-board';
import { createTestDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';

const DEALS = Number(process.env.BENCH_DEALS ?? 10_000);
const RUNS = 7;
const BATCH = 5_000;

async function median(fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[RUNS >> 1];
}

export async function run() {
  const tdb = await createTestDatabase();
  try {
    const db = tdb.prisma;
    const projectId = (await createProject(db, { name: 'bench', plan: 'business' })).id;
    const member = await db.projectMember.create({
      data: { projectId, email: 'op@example.com', name: 'Op' },
    });
    const funnel = await db.crmFunnel.findFirstOrThrow({
      where: { projectId },
      include: { states: { orderBy: { position: 'asc' } } },
    });
    await db.crmFunnel.update({ where: { id: funnel.id }, data: { cardVariables: ['product', 'price'] } });
    const [stage] = funnel.states;
    const seedStart = performance.now();
    for (let from = 0; from < DEALS; from += BATCH) {
      const n = Math.min(BATCH, DEALS - from);
      const clients = await db.client.createManyAndReturn({
        data: Array.from({ length: n }, (_, j) => ({
          projectId,
          platformId: String(20_000_000 + from + j),
          clientType: ((from + j) % 2) + 1,
          name: `Client ${from + j}`,
          lastMessageAt: new Date(Date.UTC(2026, 1, 1) + (from + j) * 1000),
          assignedMemberId: (from + j) % 4 ? null : member.id,
        })),
        select: { id: true },
      });
      const deals = await db.deal.createManyAndReturn({
        data: clients.map((c) => ({ projectId, clientId: c.id, stateId: stage.id })),
        select: { id: true },
      });
      await db.dealVariable.createMany({
        data: deals.flatMap((d, j) =>
          [
            ['product', ['Sofa', 'Chair', 'Table'][(from + j) % 3]],
            ['price', String(100 + ((from + j) % 900))],
          ].map(([name, value]) => ({ projectId, dealId: d.id, name, value, valueKey: value })),
        ),
      });
    }
    console.log(
      `seeded ${DEALS} open deals in one stage in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const row = (label: string, ms: number, note = '') =>
      console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms${note ? `  ${note}` : ''}`);
    const baseline = await median(() =>
      db.deal.findMany({
        where: { projectId, stateId: stage.id, closedAt: null },
        orderBy: { id: 'desc' },
        take: 50,
      }),
    );
    row('baseline: 50 deal rows, one plain query', baseline);
    const open = await median(() =>
      Promise.all(funnel.states.map((s) => boardColumn(db, projectId, { stateId: s.id }))),
    );
    row(`board opens: ${funnel.states.length} columns' first pages + counts`, open);
    row(
      'one column, first page (50 cards + count)',
      await median(() => boardColumn(db, projectId, { stateId: stage.id })),
    );
    let cursor: number | undefined;
    for (let p = 0; p < 19; p++)
      cursor = (await boardColumn(db, projectId, { stateId: stage.id, cursor })).nextCursor;
    row(
      'one column, page 20 (by cursor)',
      await median(() => boardColumn(db, projectId, { stateId: stage.id, cursor })),
    );
    row(
      'filtered: assignee + messenger',
      await median(() =>
        boardColumn(db, projectId, { stateId: stage.id, assigneeId: member.id, clientType: 1 }),
      ),
    );
    row(
      'filtered: text "Client 99"',
      await median(() => boardColumn(db, projectId, { stateId: stage.id, text: 'Client 99' })),
    );
    row(
      "table view: the funnel's first page",
      await median(() => boardColumn(db, projectId, { funnelId: funnel.id })),
    );
  } finally {
    await tdb.close();
  }
}
