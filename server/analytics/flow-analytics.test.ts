import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsQuerySchema } from '@/lib/analytics/query';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { handleEvent } from '@/server/engine/handle-event';
import { type BotDriver, EngineHarness } from '@/server/engine/testing/engine-harness';
import { saveBotSchema } from '@/server/projects/bot-schema-store';
import { flowAnalytics } from './flow-analytics';
import { rollUpFlowHits } from './roll-up';

/**
 * Per-block analytics (docs/analytics.md) from real conversations: website visitors talk to the
 * published bot through the engine, the roll-up counts what it queued, the read adds it up.
 */

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

const start = {
  id: 1,
  kind: 'start' as const,
  text: 'Welcome! Want a catalogue?',
  trigger: { alternatives: '' },
};
const ask = { id: 2, kind: 'state' as const, text: 'Your e-mail?' };
const done = { id: 3, kind: 'close_deal' as const, text: 'Sent!' };
const schema = {
  blocks: [start, ask, done],
  arrows: [
    { id: 11, from: 1, to: 2, kind: 'condition' as const, condition: { alternatives: 'yes' } },
    { id: 12, from: 2, to: 3, kind: 'unconditional' as const },
  ],
};

const today = () => new Date().toISOString().slice(0, 10);
const query = (over: Partial<Parameters<typeof flowAnalytics>[2]> = {}) => ({
  from: today(),
  to: today(),
  stoppedAfterMinutes: 60,
  ...over,
});

/** A website visitor of the bot's project: a client of a channel, so counted (the simulator's are not). */
const visitor = (bot: BotDriver, name: string) => ({
  say: (text: string) =>
    handleEvent(
      h.deps,
      bot.projectId,
      { ref: { clientType: CLIENT_TYPES.widget, groupId: 'site', platformId: `v-${name}`, name } },
      { type: 'message', text },
    ),
  row: () =>
    h.tdb.prisma.client.findFirstOrThrow({ where: { projectId: bot.projectId, platformId: `v-${name}` } }),
});

async function publishedBot() {
  const bot = await h.bot(schema);
  await bot.publish();
  return bot;
}

const blockOf = (a: Awaited<ReturnType<typeof flowAnalytics>>, id: number) =>
  a.blocks.find((b) => b.blockId === id);

describe('analytics of a published version', () => {
  it('counts entries, unique clients, arrows followed and submissions; the simulator is not counted', async () => {
    const bot = await publishedBot();
    const ann = visitor(bot, 'ann');
    const bob = visitor(bot, 'bob');
    await ann.say('hi');
    await ann.say('yes');
    await ann.say('ann@example.com');
    await bob.say('hi');
    await bob.say('no'); // no arrow matches: Bob stays in the start block
    await bob.say('hello');
    await bot.say('hi'); // the simulator runs the draft: not counted
    await bot.say('yes');

    const a = await flowAnalytics(h.tdb.prisma, bot.projectId, query());
    expect(a.version).toBe(1);
    expect(blockOf(a, 1)).toMatchObject({ entries: 2, clients: 2 });
    expect(blockOf(a, 2)).toMatchObject({ entries: 1, clients: 1 });
    expect(blockOf(a, 3)).toMatchObject({ entries: 1, clients: 1 });
    expect(a.arrows.sort((x, y) => x.arrowId - y.arrowId)).toEqual([
      { arrowId: 11, passes: 1 },
      { arrowId: 12, passes: 1 },
    ]);
    expect(a.submissions).toEqual([{ blockId: 3, entries: 1, clients: 1 }]);
    expect(a.behind).toBe(false);
    // Counted once: hits are deleted as they are counted.
    await rollUpFlowHits(h.tdb.prisma);
    expect(blockOf(await flowAnalytics(h.tdb.prisma, bot.projectId, query()), 1)).toMatchObject({
      entries: 2,
    });
  });

  it('keeps each version its own counts; an unpublished draft counts nothing of its own', async () => {
    const bot = await publishedBot();
    await visitor(bot, 'ann').say('hi');
    await saveBotSchema(h.tdb.prisma, bot.projectId, {
      format: BOT_SCHEMA_FORMAT,
      ...schema,
      blocks: [{ ...start, text: 'Hello again' }, ask, done],
    });
    await visitor(bot, 'bob').say('hi');
    expect(blockOf(await flowAnalytics(h.tdb.prisma, bot.projectId, query()), 1)).toMatchObject({
      entries: 2,
    });
    await bot.publish();
    await visitor(bot, 'cid').say('hi');
    expect(blockOf(await flowAnalytics(h.tdb.prisma, bot.projectId, query()), 1)).toMatchObject({
      entries: 1,
      clients: 1,
    });
    expect(blockOf(await flowAnalytics(h.tdb.prisma, bot.projectId, query({ version: 1 })), 1)).toMatchObject(
      {
        entries: 2,
      },
    );
  });

  it("counts test conversations apart, shown only when asked; a changed draft's are not counted", async () => {
    const bot = await publishedBot();
    await visitor(bot, 'ann').say('hi');
    // The simulator on the draft, which is version 1 (nothing changed since it was published).
    await bot.say('hi');
    await bot.say('yes');
    // The simulator's "Published" switch: a test conversation of version 1 too.
    const published = (text: string) =>
      handleEvent(
        h.deps,
        bot.projectId,
        { ref: simulatorClientRef('pub', 'Tester', 'published') },
        { type: 'message', text },
      );
    await published('hi');
    const clientsOnly = await flowAnalytics(h.tdb.prisma, bot.projectId, query());
    expect(clientsOnly.includeTests).toBe(false);
    expect(blockOf(clientsOnly, 1)).toMatchObject({ entries: 1, clients: 1 });
    expect(blockOf(clientsOnly, 2)).toBeUndefined();
    const withTests = await flowAnalytics(h.tdb.prisma, bot.projectId, query({ includeTests: true }));
    expect(withTests.includeTests).toBe(true);
    expect(blockOf(withTests, 1)).toMatchObject({ entries: 3, clients: 3 });
    expect(blockOf(withTests, 2)).toMatchObject({ entries: 1, clients: 1, stopped: 0 });
    expect(withTests.arrows).toEqual([{ arrowId: 11, passes: 1 }]);

    // Once the draft changes, its test conversations are no version's: not counted at all.
    await saveBotSchema(h.tdb.prisma, bot.projectId, {
      format: BOT_SCHEMA_FORMAT,
      ...schema,
      blocks: [{ ...start, text: 'Hello again' }, ask, done],
    });
    await bot.say('ann@example.com'); // the draft's conversation enters block 3: not counted
    await published('yes'); // the published version's goes on being counted
    const after = await flowAnalytics(h.tdb.prisma, bot.projectId, query({ includeTests: true }));
    expect(blockOf(after, 3)).toBeUndefined();
    expect(blockOf(after, 2)).toMatchObject({ entries: 2, clients: 2 });
  });

  it("gives each block its total over every version beside the version's own", async () => {
    const bot = await publishedBot();
    await visitor(bot, 'ann').say('hi');
    await saveBotSchema(h.tdb.prisma, bot.projectId, {
      format: BOT_SCHEMA_FORMAT,
      ...schema,
      blocks: [{ ...start, text: 'Hello again' }, ask, done],
    });
    await bot.publish();
    await visitor(bot, 'bob').say('hi');
    await visitor(bot, 'ann').say('yes');
    const v2 = await flowAnalytics(h.tdb.prisma, bot.projectId, query());
    expect(v2.version).toBe(2);
    expect(blockOf(v2, 1)).toMatchObject({ entries: 1, clients: 1, allVersions: { entries: 2, clients: 2 } });
    const v1 = await flowAnalytics(h.tdb.prisma, bot.projectId, query({ version: 1 }));
    expect(blockOf(v1, 1)).toMatchObject({ entries: 1, clients: 1, allVersions: { entries: 2, clients: 2 } });
    // A block this version's clients never entered still has its total of the others.
    expect(blockOf(v1, 2)).toMatchObject({ entries: 0, clients: 0, allVersions: { entries: 1, clients: 1 } });
  });

  it('counts a client as stopped in their last block once they left it alone longer than the chosen time', async () => {
    const bot = await publishedBot();
    const ann = visitor(bot, 'ann');
    const bob = visitor(bot, 'bob');
    await ann.say('hi');
    await ann.say('yes');
    await bob.say('hi');
    await bob.say('yes');
    // Ann's last block was entered two hours ago; Bob's just now. Two hours ago may be
    // yesterday (a run just after midnight UTC): the range starts on that day.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await h.tdb.prisma.client.update({
      where: { id: (await ann.row()).id },
      data: { lastBlockAt: twoHoursAgo },
    });
    const from = twoHoursAgo.toISOString().slice(0, 10);
    const a = await flowAnalytics(h.tdb.prisma, bot.projectId, query({ from }));
    expect(blockOf(a, 2)).toMatchObject({ entries: 2, stopped: 1 });
    expect(
      blockOf(await flowAnalytics(h.tdb.prisma, bot.projectId, query({ from, stoppedAfterMinutes: 180 })), 2),
    ).toMatchObject({ stopped: 0 });
  });

  it("counts by the project's own day, and a client of several days once over the range", async () => {
    const bot = await h.bot(schema, { timeZone: 'Asia/Vladivostok' }); // UTC+10
    await bot.publish();
    const ann = await visitor(bot, 'ann').say('hi');
    const bob = await visitor(bot, 'bob').say('hi');
    // Hits as the engine queues them, on two local days: 23:30 UTC on 1 May is 2 May there.
    await h.tdb.prisma.flowHit.createMany({
      data: [
        {
          projectId: bot.projectId,
          version: 1,
          clientId: ann.clientId,
          at: new Date('2026-05-01T13:00:00Z'),
          blocks: [1],
        },
        {
          projectId: bot.projectId,
          version: 1,
          clientId: ann.clientId,
          at: new Date('2026-05-01T23:30:00Z'),
          blocks: [1],
        },
        {
          projectId: bot.projectId,
          version: 1,
          clientId: bob.clientId,
          at: new Date('2026-05-01T23:40:00Z'),
          blocks: [1],
        },
      ],
    });
    const day = (d: string) => flowAnalytics(h.tdb.prisma, bot.projectId, query({ from: d, to: d }));
    expect(blockOf(await day('2026-05-01'), 1)).toMatchObject({ entries: 1, clients: 1 });
    expect(blockOf(await day('2026-05-02'), 1)).toMatchObject({ entries: 2, clients: 2 });
    const both = await flowAnalytics(
      h.tdb.prisma,
      bot.projectId,
      query({ from: '2026-05-01', to: '2026-05-02' }),
    );
    expect(blockOf(both, 1)).toMatchObject({ entries: 3, clients: 2 });
  });

  it("counts a deal's move into a CRM stage, by the stage, for the funnel's goal", async () => {
    const bot = await h.bot(schema);
    const funnel = await h.tdb.prisma.crmFunnel.create({ data: { projectId: bot.projectId, name: 'Sales' } });
    const won = await h.tdb.prisma.crmState.create({
      data: { projectId: bot.projectId, funnelId: funnel.id, name: 'Interested' },
    });
    await saveBotSchema(h.tdb.prisma, bot.projectId, {
      format: BOT_SCHEMA_FORMAT,
      ...schema,
      blocks: [start, { ...ask, actions: { crmStateId: won.id } }, done],
    });
    await bot.publish();
    for (const name of ['ann', 'bob']) {
      await visitor(bot, name).say('hi');
      await visitor(bot, name).say('yes');
    }
    await visitor(bot, 'cid').say('hi');
    const a = await flowAnalytics(h.tdb.prisma, bot.projectId, query());
    expect(a.stages).toEqual([{ stageId: won.id, entries: 2, clients: 2 }]);
    expect(blockOf(a, 1)).toMatchObject({ clients: 3 });
  });

  it('drops what was queued for a project deleted before the roll-up', async () => {
    const bot = await publishedBot();
    await visitor(bot, 'ann').say('hi');
    await h.tdb.prisma.project.delete({ where: { id: bot.projectId } });
    await rollUpFlowHits(h.tdb.prisma);
    expect(await h.tdb.prisma.flowHit.count({ where: { projectId: bot.projectId } })).toBe(0);
    expect(await h.tdb.prisma.flowCount.count({ where: { projectId: bot.projectId } })).toBe(0);
  });
});

describe('bad questions', () => {
  it('refuses a range longer than a year, or one that ends before it starts, naming the field', () => {
    const tenYears = analyticsQuerySchema.safeParse({
      from: '2016-01-01',
      to: '2025-12-31',
      stoppedAfterMinutes: 60,
    });
    expect(tenYears.error?.issues).toEqual([
      expect.objectContaining({ path: ['to'], message: 'A range is at most 366 days: pick a shorter one.' }),
    ]);
    const backwards = analyticsQuerySchema.safeParse({
      from: '2026-02-01',
      to: '2026-01-01',
      stoppedAfterMinutes: 60,
    });
    expect(backwards.error?.issues[0]).toMatchObject({
      path: ['to'],
      message: 'The range ends before it starts.',
    });
    expect(
      analyticsQuerySchema.safeParse({ from: '2026-02-30', to: '2026-03-01', stoppedAfterMinutes: 60 })
        .success,
    ).toBe(false);
  });

  it('says when the bot has no published version, or not the one asked for', async () => {
    const bot = await h.bot(schema);
    await expect(flowAnalytics(h.tdb.prisma, bot.projectId, query())).rejects.toThrow(
      'The bot has no published version yet: publish it to see analytics.',
    );
    await bot.publish();
    await expect(flowAnalytics(h.tdb.prisma, bot.projectId, query({ version: 7 }))).rejects.toThrow(
      'The bot has no version 7.',
    );
  });
});
