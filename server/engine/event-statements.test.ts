import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { handleEvent } from './handle-event';
import { EngineHarness } from './testing/engine-harness';

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

/** Statements `fn` sends to the database, counted at the driver (BEGIN and COMMIT count too). */
async function countStatements(fn: () => Promise<unknown>): Promise<number> {
  const spy = h.tdb.pglite
    ? // Every PGlite statement, in a transaction or not, runs through this one method.
      vi.spyOn(h.tdb.pglite as unknown as { _runExclusiveQuery(): Promise<unknown> }, '_runExclusiveQuery')
    : vi.spyOn(pg.Client.prototype, 'query');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const countingBot = {
  blocks: [
    {
      id: 1,
      kind: 'start' as const,
      text: 'Total #{total}',
      trigger: { alternatives: '' },
      formula: 'total = int(if(total, total, 0)) + len(question)',
    },
  ],
  arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' as const }],
};

it('a message of a known client takes two statements: claim and load, then store everything', async () => {
  const bot = await h.bot(countingBot);
  await bot.client('first').say('hello');
  // A new client (the bot compiled already): the claim finds no row; one statement creates it
  // held with its open deal and reads its state; the store.
  expect(await countStatements(() => bot.say('hello'))).toBe(3);
  let replies: string[] = [];
  expect(await countStatements(async () => (replies = await bot.say('again')))).toBe(2);
  expect(replies).toEqual(['Total 10']);
  expect(await bot.transcript()).toEqual(['> hello', '< Total 5', '> again', '< Total 10']);
  expect((await bot.clientRow()).currentBlockId).toBe(1);
});

it("a messenger that really sends adds its adapter's channel lookup and one statement recording the outcome", async () => {
  const bot = await h.bot(countingBot);
  await bot.publish();
  // No tg bot is connected in tests: the send fails, and the failure is recorded.
  const ref = { clientType: 1, groupId: 'shop_bot', platformId: '4242' };
  const send = (text: string) => handleEvent(h.deps, bot.projectId, { ref }, { type: 'message', text });
  await send('hello');
  let result: Awaited<ReturnType<typeof send>> | undefined;
  // The tg adapter reads the client's channel on the engine's handle (d0ee3d4), then the outcome is recorded.
  expect(await countStatements(async () => (result = await send('again')))).toBe(4);
  const stored = await h.tdb.prisma.message.findUniqueOrThrow({ where: { id: result!.messages[0].id } });
  expect(stored).toMatchObject({
    text: 'Total 10',
    delivered: false,
    error: expect.stringContaining('not connected'),
  });
});

it('stored messages reach the webhook through outbox rows only when the project has a webhook URL (the simulator’s only when it asks for test conversations)', async () => {
  const bot = await h.bot(countingBot);
  const queueWebhooks = vi.fn(async () => {});
  const deps = { ...h.deps, queueWebhooks };
  const ref = { clientType: 99, groupId: 'simulator', platformId: 'hooked' };
  await handleEvent(deps, bot.projectId, { ref }, { type: 'message', text: 'one' });
  expect(queueWebhooks).not.toHaveBeenCalled();
  // The simulator's messages are delivered as they are stored: no outbox row at all.
  expect(await h.tdb.prisma.outbox.count({ where: { projectId: bot.projectId } })).toBe(0);

  // A webhook, but test conversations not asked for (the default): the simulator's still go nowhere.
  await h.tdb.prisma.project.update({
    where: { id: bot.projectId },
    data: { webhookUrl: 'https://hooks.example.com/in' },
  });
  await handleEvent(deps, bot.projectId, { ref }, { type: 'message', text: 'one more' });
  expect(queueWebhooks).not.toHaveBeenCalled();
  expect(await h.tdb.prisma.outbox.count({ where: { projectId: bot.projectId } })).toBe(0);

  await h.tdb.prisma.project.update({
    where: { id: bot.projectId },
    data: { webhookTestConversations: true },
  });
  const result = await handleEvent(deps, bot.projectId, { ref }, { type: 'message', text: 'two' });
  const stored = await h.tdb.prisma.message.findMany({
    where: { clientId: result.clientId },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  const rows = await h.tdb.prisma.outbox.findMany({
    where: { projectId: bot.projectId },
    orderBy: { id: 'asc' },
  });
  // With their client: its deliveries keep the rows' order, whichever worker holds them.
  expect(rows.map((r) => [r.kind, r.messageId, r.state, r.clientId])).toEqual(
    stored.slice(4).map((m) => ['webhook', m.id, 'queued', result.clientId]),
  );
  expect(queueWebhooks).toHaveBeenCalledExactlyOnceWith(
    bot.projectId,
    rows.map((r) => ({ target: { messageId: r.messageId }, outboxId: r.id })),
  );
});
