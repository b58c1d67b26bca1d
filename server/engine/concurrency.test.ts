import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineHarness } from './testing/engine-harness';

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

it('50 events for one client sent at once are processed one at a time, losing no update', async () => {
  const bot = await h.bot({
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: '#{count}',
        trigger: { alternatives: '' },
        formula: "count = int(if(count, count, 0)) + 1\nseen = concat(seen, question, ',')",
      },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  await bot.say('start');
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => bot.say(String(i))));
  const vars = (await bot.variables()).deal;
  expect(vars.count).toBe('51');
  // Every reply is a different count: no two events saw the same state.
  expect(new Set(results.map((r) => r[0])).size).toBe(50);
  // The order the events were applied in is the order their messages were stored in.
  const stored = (await bot.transcript()).filter((t) => t.startsWith('>')).map((t) => t.slice(2));
  expect(vars.seen).toBe(`${stored.join(',')},`);
  expect(stored.slice(1).sort((a, b) => Number(a) - Number(b))).toEqual(
    Array.from({ length: 50 }, (_, i) => String(i)),
  );
});
