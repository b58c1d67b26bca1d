import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { saveBotSchema } from '@/server/projects/bot-schema-store';
import { type BotDriver, EngineHarness } from './testing/engine-harness';

/**
 * A bot changed under clients in the middle of a conversation (bot-semantics §9): a new version
 * published, or, as here for the simulator's clients, a new draft; both reach the engine the same
 * way, as a new compiled bot. Block and arrow ids are the same across versions.
 */

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

const start = { id: 1, kind: 'start' as const, text: 'Welcome', trigger: { alternatives: '' } };
const ask = { id: 2, kind: 'state' as const, text: 'Your size?' };
const thanks = { id: 3, kind: 'state' as const, text: 'Thanks' };

const change = (bot: BotDriver, schema: { blocks: object[]; arrows: object[] }) =>
  saveBotSchema(h.tdb.prisma, bot.projectId, { format: BOT_SCHEMA_FORMAT, ...schema });

it('a client in a block the new bot removed starts over at the entry block', async () => {
  const bot = await h.bot({
    blocks: [start, ask],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
  });
  expect(await bot.say('hi')).toEqual(['Welcome']);
  expect(await bot.say('shoes')).toEqual(['Your size?']);
  await change(bot, { blocks: [start], arrows: [] });
  expect(await bot.say('42')).toEqual(['Welcome']);
});

it('a client in a changed block follows the new arrows from it', async () => {
  const bot = await h.bot({
    blocks: [start, ask, thanks],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
  });
  await bot.say('hi');
  await bot.say('shoes');
  await change(bot, {
    blocks: [start, { ...ask, text: 'Your size, please?' }, thanks],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'unconditional' },
      { id: 2, from: 2, to: 3, kind: 'unconditional' },
    ],
  });
  expect(await bot.say('42')).toEqual(['Thanks']);
});

it('a pending timer whose arrow the new bot removed is cancelled, saying why', async () => {
  const bot = await h.bot({
    blocks: [start, ask],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 10, unit: 'minutes' } }],
  });
  await bot.say('hi');
  await change(bot, { blocks: [start, ask], arrows: [] });
  h.advance(10 * 60_000);
  await h.runDueJobs();
  expect((await bot.transcript()).at(-1)).toBe('< Welcome');
  expect(await bot.log('timer_cancelled')).toEqual([
    expect.objectContaining({ arrowId: 1, reason: 'the bot no longer has this arrow' }),
  ]);
});

it("a block's delayed send whose block the new bot removed is cancelled, saying why", async () => {
  const bot = await h.bot({
    blocks: [{ ...start, formula: "message(client_id, '', 2, 60)" }, ask],
    arrows: [],
  });
  await bot.say('hi');
  await change(bot, { blocks: [start], arrows: [] });
  h.advance(60_000);
  await h.runDueJobs();
  expect((await bot.transcript()).at(-1)).toBe('< Welcome');
  expect(await bot.log('scheduled_cancelled')).toEqual([
    expect.objectContaining({ blockId: 2, reason: 'the bot no longer has this block' }),
  ]);
});
