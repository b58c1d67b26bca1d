/**
 * `npm run bench -- crm-board`: the deals board's server side (server/crm/deal-board.ts) over
 * BENCH_DEALS open deals (default 10,000) in one stage of one funnel, each client with a name,
 * a last message time, a quarter assigned, and two deal variables shown on the cards. Prints
 * the median of a few runs of the board's first pages (every column's first page with its
 * count, as the board opens), one column's first and 20th page, a filtered column, and beside
 * them a baseline measured in the same run: the same 50 deal rows read by one plain query
 * with no joins, no variables and no count. PGlite by default, PostgreSQL with
 * TEST_DATABASE_URL. Then, in headless Chromium over the built app (`npm run build` first;
 * BENCH_CRM_BROWSER=0 leaves it out), the board beside the Clients tab over the same clients:
 * time to the first card, time to interactive (a card clicked, its panel shown) and the frames
 * of a column scrolled through its pages. Never fails on time.
 */
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { boardColumn } from '../server/crm/deal-board';
import type { PrismaClient } from '../server/db/client-type';
import { createTestDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';
import { startAppUnderTest } from './app-under-test';

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

/**
 * DEALS open deals in the first stage of the project's funnel, each client with a name, a last
 * message time, a quarter assigned to a member, and two deal variables shown on the cards.
 */
async function seedDeals(db: PrismaClient, projectId: number) {
  const member = await db.projectMember.create({
    data: { projectId, email: 'op@example.com', name: 'Op' },
  });
  const funnel = await db.crmFunnel.findFirstOrThrow({
    where: { projectId },
    include: { states: { orderBy: { position: 'asc' } } },
  });
  await db.crmFunnel.update({ where: { id: funnel.id }, data: { cardVariables: ['product', 'price'] } });
  const [stage] = funnel.states;
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
  return { member, funnel, stage };
}

export async function run() {
  const tdb = await createTestDatabase();
  try {
    const db = tdb.prisma;
    const projectId = (await createProject(db, { name: 'bench', plan: 'business' })).id;
    const seedStart = performance.now();
    const { member, funnel, stage } = await seedDeals(db, projectId);
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
  if (process.env.BENCH_CRM_BROWSER !== '0') await browserRun();
}

const PORT = Number(process.env.BENCH_CRM_PORT ?? 3450);
const BROWSER_RUNS = 3;

/** Milliseconds from opening `url` in a fresh page until `ready` is visible; the page stays open. */
async function timeToVisible(context: BrowserContext, url: string, ready: (page: Page) => Locator) {
  const page = await context.newPage();
  const start = performance.now();
  await page.goto(url);
  await ready(page).first().waitFor({ state: 'visible', timeout: 120_000 });
  return { page, start, ms: performance.now() - start };
}

/** Animation-frame intervals while the first column is scrolled 400 px a frame for `frames` frames. */
function scrollFrames(page: Page, frames: number) {
  return page.evaluate(async (count) => {
    const column = document.querySelector('section[aria-label^="Stage "] .overflow-y-auto');
    if (!column) throw new Error('no column to scroll');
    const deltas: number[] = [];
    let last = performance.now();
    for (let i = 0; i < count; i++) {
      column.scrollTop += 400;
      await new Promise(requestAnimationFrame);
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    return { deltas, scrolledTo: column.scrollTop };
  }, frames);
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * The board in headless Chromium over the built app (needs `npm run build`), beside the Clients
 * tab over the same clients as the baseline: time until the first card (row) shows, until a
 * click on a card opens its panel, and the frames while a column of 10,000 scrolls (its cards
 * are fetched page by page as it goes).
 */
async function browserRun() {
  const seedStart = performance.now();
  const app = await startAppUnderTest({
    port: PORT,
    viewport: { width: 1440, height: 900 },
    seed: (prisma, projectId) => seedDeals(prisma, projectId),
  });
  console.log(
    `\nin the browser (embedded database, ${DEALS} open deals; set up in ${((performance.now() - seedStart) / 1000).toFixed(1)} s)`,
  );
  try {
    const clients: number[] = [];
    const shown: number[] = [];
    const interactive: number[] = [];
    const frames: number[] = [];
    let scrolled = 0;
    for (let r = 0; r < BROWSER_RUNS; r++) {
      const baseline = await timeToVisible(app.context, `${app.projectUrl}/clients`, (page) =>
        page.getByRole('row').filter({ hasText: 'Client ' }),
      );
      clients.push(baseline.ms);
      await baseline.page.close();
      const board = await timeToVisible(app.context, `${app.projectUrl}/deals`, (page) =>
        page.locator('[data-deal-id]'),
      );
      shown.push(board.ms);
      await board.page.locator('[data-deal-id]').first().click();
      await board.page.getByRole('heading', { name: /^Deal #/ }).waitFor({ timeout: 120_000 });
      // Interactive: from opening the page until a click on the first card shown has opened its panel.
      interactive.push(performance.now() - board.start);
      const scroll = await scrollFrames(board.page, 240);
      frames.push(...scroll.deltas);
      scrolled = Math.max(scrolled, scroll.scrolledTo);
      await board.page.close();
    }
    const med = (values: number[]) => percentile(values, 0.5);
    const row = (label: string, ms: number, note = '') =>
      console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms${note ? `  ${note}` : ''}`);
    row('baseline: Clients tab, first row shown', med(clients));
    row(
      'board: first card shown',
      med(shown),
      `(×${(med(shown) / med(clients)).toFixed(2)} the Clients tab)`,
    );
    row("board: to interactive (a card's panel open)", med(interactive));
    row('board: column scrolled, frame p50', percentile(frames, 0.5));
    row(
      'board: column scrolled, frame p95',
      percentile(frames, 0.95),
      `(${Math.round(scrolled / 104)} cards passed)`,
    );
  } finally {
    await app.close();
  }
}
