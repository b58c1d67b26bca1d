import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { type LiveEvent, subscribeLive } from '@/server/live/live-events';
import { createProject } from '@/server/projects/project-service';
import type { TRPCContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { moveDealToStage } from './move-deal';

/**
 * CRM funnels, stages and deal moves (docs/crm.md) through the real database, the engine and
 * the tRPC procedures: roles, won and lost, deleting a stage that holds deals, two operators
 * moving one deal at once, and the history entry, webhook and live event of every move.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-crm-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let deps: EngineDeps;
let admin: ReturnType<typeof createCaller>;
let operator: ReturnType<typeof createCaller>;
let operator2: ReturnType<typeof createCaller>;
let projectId: number;
/** What the engine handed to the webhook queue: one per message (and submission). */
const webhooks: unknown[] = [];

async function caller(id: string, role: 'owner' | 'admin' | 'operator', name: string) {
  const user = await db.user.create({ data: { id, email: `${id}@example.com`, name } });
  if (role !== 'owner')
    await db.projectMember.create({ data: { projectId, email: user.email, userId: id, name, role } });
  return createCaller({
    db,
    session: { user, session: { id: `s-${id}`, userId: id } } as unknown as TRPCContext['session'],
  });
}

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  deps = await getEngineDeps();
  deps.queueWebhooks = async (_projectId, deliveries) => {
    webhooks.push(...deliveries);
  };
  const owner = await db.user.create({ data: { id: 'u-own', email: 'own@example.com', name: 'Own' } });
  projectId = (
    await createProject(db, {
      name: 'crm',
      plan: 'business',
      owner: { email: owner.email, userId: owner.id },
    })
  ).id;
  await db.project.update({
    where: { id: projectId },
    data: { webhookUrl: 'http://127.0.0.1:9/hook', webhookTestConversations: true },
  });
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Hi', trigger: { alternatives: '' } }],
    arrows: [],
  });
  admin = await caller('u-adm', 'admin', 'Ada');
  operator = await caller('u-op1', 'operator', 'Olga');
  operator2 = await caller('u-op2', 'operator', 'Oscar');
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let clientCounter = 0;
/** A client who wrote once (so it has an open deal), in the given stage. */
async function dealIn(stateId: number | null) {
  const result = await handleEvent(
    deps,
    projectId,
    {
      ref: {
        clientType: 99,
        platformId: `user:crm-${++clientCounter}`,
        groupId: '',
        name: `C${clientCounter}`,
      },
    },
    { type: 'message', text: 'hello' },
  );
  const deal = await db.deal.findFirstOrThrow({ where: { clientId: result.clientId, closedAt: null } });
  if (stateId !== null) await db.deal.update({ where: { id: deal.id }, data: { stateId } });
  return { clientId: result.clientId, dealId: deal.id };
}

const funnels = () => admin.crm.funnels({ projectId });

describe('funnels and stages', () => {
  it('a new project has one funnel whose last two stages are won and lost', async () => {
    const [sales] = await funnels();
    expect(sales.stages.map((s) => [s.name, s.kind])).toEqual([
      ['New', 'open'],
      ['In progress', 'open'],
      ['Won', 'won'],
      ['Lost', 'lost'],
    ]);
  });

  it('admins create, rename, colour and reorder; operators read but are refused changes', async () => {
    const funnel = await admin.crm.createFunnel({ projectId, name: '  Renewals ' });
    expect(funnel.name).toBe('Renewals');
    const stage = await admin.crm.createStage({
      projectId,
      funnelId: funnel.id,
      name: 'Call back',
      color: 'teal',
    });
    let view = (await operator.crm.funnels({ projectId })).find((f) => f.id === funnel.id);
    // Placed before won and lost.
    expect(view?.stages.map((s) => s.name)).toEqual(['New', 'In progress', 'Call back', 'Won', 'Lost']);
    await admin.crm.updateStage({ projectId, stateId: stage.id, name: 'Called', color: 'pink' });
    const ids = view?.stages.map((s) => s.id) ?? [];
    await admin.crm.reorderStages({
      projectId,
      funnelId: funnel.id,
      order: [ids[2], ids[0], ids[1], ids[3], ids[4]],
    });
    view = (await funnels()).find((f) => f.id === funnel.id);
    expect(view?.stages.map((s) => `${s.name}:${s.color}`)).toEqual([
      'Called:pink',
      'New:blue',
      'In progress:amber',
      'Won:green',
      'Lost:red',
    ]);
    const all = (await funnels()).map((f) => f.id);
    await admin.crm.reorderFunnels({ projectId, order: [...all].reverse() });
    expect((await funnels()).map((f) => f.id)).toEqual([...all].reverse());

    for (const call of [
      () => operator.crm.createFunnel({ projectId, name: 'X' }),
      () => operator.crm.updateStage({ projectId, stateId: stage.id, name: 'Y' }),
      () => operator.crm.deleteStage({ projectId, stateId: stage.id, moveToStateId: null }),
      () => operator.crm.reorderFunnels({ projectId, order: all }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses bad input naming the field, and saves nothing half-done', async () => {
    const [first] = await funnels();
    await expect(admin.crm.createStage({ projectId, funnelId: first.id, name: '  ' })).rejects.toThrow(
      /name: Type a name for the stage/,
    );
    await expect(
      admin.crm.createStage({ projectId, funnelId: first.id, name: 'Ok', color: 'plaid' }),
    ).rejects.toThrow(/color: Pick one of the colours/);
    await expect(
      admin.crm.reorderStages({ projectId, funnelId: first.id, order: [first.stages[0].id] }),
    ).rejects.toThrow(/changed meanwhile/);
    const won = first.stages.find((s) => s.kind === 'won');
    await expect(
      admin.crm.deleteStage({ projectId, stateId: won?.id ?? 0, moveToStateId: null }),
    ).rejects.toThrow(/won stage: every funnel keeps one/);
    await expect(admin.crm.updateStage({ projectId, stateId: 999999, name: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('deleting a stage that holds deals asks where they go, then moves them in one transaction', async () => {
    const funnel = await admin.crm.createFunnel({ projectId, name: 'Temp' });
    const doomed = await admin.crm.createStage({ projectId, funnelId: funnel.id, name: 'Doomed' });
    const view = (await funnels()).find((f) => f.id === funnel.id);
    const target = view?.stages.find((s) => s.name === 'New')?.id ?? 0;
    const won = view?.stages.find((s) => s.kind === 'won')?.id ?? 0;
    const a = await dealIn(doomed.id);
    const b = await dealIn(doomed.id);
    await expect(
      admin.crm.deleteStage({ projectId, stateId: doomed.id, moveToStateId: null }),
    ).rejects.toThrow(/holds 2 deals: choose the stage/);
    await expect(
      admin.crm.deleteStage({ projectId, stateId: doomed.id, moveToStateId: won }),
    ).rejects.toThrow(/open stage/);
    expect(await db.crmState.count({ where: { id: doomed.id } })).toBe(1);
    expect(await admin.crm.deleteStage({ projectId, stateId: doomed.id, moveToStateId: target })).toEqual({
      moved: 2,
    });
    const deals = await db.deal.findMany({ where: { id: { in: [a.dealId, b.dealId] } } });
    expect(deals.map((d) => d.stateId)).toEqual([target, target]);
    // A move into a stage deleted meanwhile is refused, not a server error.
    const gone = await admin.crm.createStage({ projectId, funnelId: funnel.id, name: 'Gone' });
    await admin.crm.deleteStage({ projectId, stateId: gone.id, moveToStateId: null });
    await expect(
      operator.crm.moveDeal({ projectId, dealId: a.dealId, stateId: gone.id, expectedStateId: target }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // A funnel with deals moves them to another funnel's open stage when it is deleted.
    const [sales] = await funnels();
    await admin.crm.deleteFunnel({ projectId, funnelId: funnel.id, moveToStateId: sales.stages[0].id });
    expect((await db.deal.findFirstOrThrow({ where: { id: a.dealId } })).stateId).toBe(sales.stages[0].id);
  });
});

describe('moving a deal', () => {
  it('the board and set_order_state record a CRM history entry, a webhook and a live event', async () => {
    const [sales] = (await funnels()).filter((f) => f.name === 'Sales');
    const [newStage, progress] = sales.stages;
    const { clientId, dealId } = await dealIn(newStage.id);
    const live: LiveEvent[] = [];
    const stop = subscribeLive({ projectId }, (e) => live.push(e));
    webhooks.length = 0;
    const moved = await operator.crm.moveDeal({
      projectId,
      dealId,
      stateId: progress.id,
      expectedStateId: newStage.id,
    });
    stop();
    expect(moved).toEqual({ dealId, stateId: progress.id, moved: true, closed: false });
    const entry = await db.message.findFirstOrThrow({
      where: { clientId },
      orderBy: { id: 'desc' },
      include: { senderMember: true },
    });
    expect(entry).toMatchObject({
      direction: 'in',
      messageFromOutside: MESSAGE_FROM.crm,
      text: `Deal #${dealId} moved to "In progress" from "New"`,
      senderMember: { name: 'Olga' },
    });
    expect(webhooks).toHaveLength(1);
    expect(live).toContainEqual({ kind: 'deal', projectId, clientId, dealId });

    // The API's set_order_state: the same operation, by client.
    webhooks.length = 0;
    const api = await moveDealToStage(deps, projectId, { clientId }, newStage.id);
    expect(api).toMatchObject({ dealId, stateId: newStage.id, moved: true });
    const last = await db.message.findFirstOrThrow({ where: { clientId }, orderBy: { id: 'desc' } });
    expect(last).toMatchObject({ messageFromOutside: 2, senderMemberId: null });
    expect(webhooks).toHaveLength(1);
    // Already there: nothing recorded.
    expect(await moveDealToStage(deps, projectId, { clientId }, newStage.id)).toMatchObject({ moved: false });
  });

  it('two operators dragging one deal at once: one wins, the other is told who moved it', async () => {
    const [sales] = (await funnels()).filter((f) => f.name === 'Sales');
    const [newStage, progress] = sales.stages;
    const lost = sales.stages.find((s) => s.kind === 'lost');
    const { dealId } = await dealIn(newStage.id);
    const results = await Promise.allSettled([
      operator.crm.moveDeal({ projectId, dealId, stateId: progress.id, expectedStateId: newStage.id }),
      operator2.crm.moveDeal({ projectId, dealId, stateId: lost?.id ?? 0, expectedStateId: newStage.id }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'CONFLICT' });
    expect(refused[0].message).toMatch(/^(Olga|Oscar) moved this deal to "(In progress|Lost)" meanwhile/);
  });

  it('a move from a stale board, after another operator closed the deal, names who closed it and where', async () => {
    const [sales] = (await funnels()).filter((f) => f.name === 'Sales');
    const lost = sales.stages.find((s) => s.kind === 'lost');
    const { dealId } = await dealIn(sales.stages[0].id);
    await operator2.crm.moveDeal({
      projectId,
      dealId,
      stateId: lost?.id ?? 0,
      expectedStateId: sales.stages[0].id,
    });
    await expect(
      operator.crm.moveDeal({
        projectId,
        dealId,
        stateId: sales.stages[1].id,
        expectedStateId: sales.stages[0].id,
      }),
    ).rejects.toThrow(/^Oscar moved this deal to "Lost" meanwhile: it is closed now/);
  });

  it("won and lost close the deal; the client's next event opens a new one; a closed deal no longer moves", async () => {
    const [sales] = (await funnels()).filter((f) => f.name === 'Sales');
    const won = sales.stages.find((s) => s.kind === 'won');
    const { clientId, dealId } = await dealIn(sales.stages[0].id);
    expect(
      await operator.crm.moveDeal({
        projectId,
        dealId,
        stateId: won?.id ?? 0,
        expectedStateId: sales.stages[0].id,
      }),
    ).toMatchObject({ closed: true });
    const closed = await db.deal.findFirstOrThrow({ where: { id: dealId } });
    expect(closed.closedAt).not.toBeNull();
    expect(closed.stateId).toBe(won?.id);
    const open = await db.deal.findMany({ where: { clientId, closedAt: null } });
    expect(open).toHaveLength(1);
    expect(open[0].stateId).toBeNull();
    await expect(
      operator.crm.moveDeal({ projectId, dealId, stateId: sales.stages[0].id, expectedStateId: won?.id }),
    ).rejects.toThrow(/is closed/);
    // A block's action into a lost stage closes the deal too (the engine's own move).
    const lost = sales.stages.find((s) => s.kind === 'lost');
    await saveAndPublish(db, projectId, {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'start', text: 'Hi', trigger: { alternatives: '' } },
        {
          id: 2,
          kind: 'start',
          text: 'Sorry',
          trigger: { alternatives: 'cancel' },
          actions: { crmStateId: lost?.id, addToLists: [], removeFromLists: [] },
        },
      ],
      arrows: [],
    });
    const before = open[0].id;
    await handleEvent(deps, projectId, { clientId }, { type: 'message', text: 'cancel' });
    expect((await db.deal.findFirstOrThrow({ where: { id: before } })).closedAt).not.toBeNull();
  });
});

describe('a deal made by hand', () => {
  it('puts the client’s open deal in an open stage through the one move, with its variables, and refuses a second', async () => {
    const [sales] = (await funnels()).filter((f) => f.name === 'Sales');
    const [newStage] = sales.stages;
    // A client the bot never talked to (imported): no deal at all yet.
    const client = await db.client.create({
      data: { projectId, clientType: 13, platformId: '14155552671', name: 'Ann Lee' },
    });
    const live: LiveEvent[] = [];
    const stop = subscribeLive({ projectId }, (e) => live.push(e));
    webhooks.length = 0;
    const made = await operator.crm.createDeal({
      projectId,
      clientId: client.id,
      stateId: newStage.id,
      variables: [
        { name: ' amount ', value: '1200' },
        { name: 'client.city', value: 'Oslo' },
      ],
    });
    stop();
    const deal = await db.deal.findUniqueOrThrow({
      where: { id: made.dealId },
      include: { variables: { select: { name: true, value: true } } },
    });
    expect(deal).toMatchObject({ clientId: client.id, stateId: newStage.id, closedAt: null });
    expect(deal.variables).toEqual([{ name: 'amount', value: '1200' }]);
    expect(await db.clientVariable.findFirst({ where: { clientId: client.id, name: 'city' } })).toMatchObject(
      {
        value: 'Oslo',
      },
    );
    // The move's record: a CRM history entry by the operator, its webhook, the boards' live event.
    expect(
      await db.message.findFirstOrThrow({ where: { clientId: client.id }, include: { senderMember: true } }),
    ).toMatchObject({
      messageFromOutside: MESSAGE_FROM.crm,
      text: `Deal #${made.dealId} moved to "New"`,
      senderMember: { name: 'Olga' },
    });
    expect(webhooks).toHaveLength(1);
    expect(live).toContainEqual({ kind: 'deal', projectId, clientId: client.id, dealId: made.dealId });
    const column = await operator.crm.column({ projectId, stateId: newStage.id, text: 'Ann Lee' });
    expect(column.cards.map((c) => c.dealId)).toEqual([made.dealId]);

    // One open deal per client: a second is refused, naming the first.
    await expect(
      operator2.crm.createDeal({ projectId, clientId: client.id, stateId: sales.stages[1].id }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `Ann Lee already has an open deal, #${made.dealId} in "New" (Sales): a client has one open deal at a time. Open it on the board, or move it to Won or Lost first.`,
    });
  });

  it('uses the open deal a client already has off the board; refuses won stages, bad variables and others’ clients, moving nothing', async () => {
    const [sales] = (await funnels()).filter((f) => f.name === 'Sales');
    const won = sales.stages.find((s) => s.kind === 'won');
    const { clientId, dealId } = await dealIn(null);
    await expect(
      operator.crm.createDeal({ projectId, clientId, stateId: won?.id ?? 0 }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('open stage') });
    await expect(
      operator.crm.createDeal({
        projectId,
        clientId,
        stateId: sales.stages[0].id,
        variables: [{ name: 'project.x', value: '1' }],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('project constant') });
    await expect(
      operator.crm.createDeal({ projectId, clientId: 999999, stateId: sales.stages[0].id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(operator.crm.createDeal({ projectId, clientId, stateId: 0 })).rejects.toThrow(
      /stateId: choose a stage/,
    );
    expect((await db.deal.findUniqueOrThrow({ where: { id: dealId } })).stateId).toBeNull();
    const made = await operator.crm.createDeal({ projectId, clientId, stateId: sales.stages[1].id });
    expect(made).toEqual({ dealId, stateId: sales.stages[1].id });
  });
});

describe('the funnel a board opens on', () => {
  it('is the one each member last viewed, kept on the server, forgotten when the funnel is deleted', async () => {
    const funnel = await admin.crm.createFunnel({ projectId, name: 'Partners' });
    expect(await operator.crm.boardFunnel({ projectId })).toEqual({ funnelId: null });
    await operator.crm.rememberBoardFunnel({ projectId, funnelId: funnel.id });
    expect(await operator.crm.boardFunnel({ projectId })).toEqual({ funnelId: funnel.id });
    // Each member their own.
    expect(await operator2.crm.boardFunnel({ projectId })).toEqual({ funnelId: null });
    await expect(operator.crm.rememberBoardFunnel({ projectId, funnelId: 999999 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const [first] = await funnels();
    await admin.crm.deleteFunnel({ projectId, funnelId: funnel.id, moveToStateId: first.stages[0].id });
    expect(await operator.crm.boardFunnel({ projectId })).toEqual({ funnelId: null });
  });
});
