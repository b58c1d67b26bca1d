import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '@/lib/formula';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';

let h: EngineHarness;
let api: FakeApi;
beforeAll(async () => {
  h = await EngineHarness.create();
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const start = (formula: string) => ({
  id: 1,
  kind: 'start' as const,
  text: '',
  formula,
  trigger: { alternatives: '' },
});

/** A value for each required parameter of the in-flow functions that have optional ones. */
const samples = (): Record<string, string> => ({
  client_id: 'other',
  text: "'hello'",
  platform_id: "'user:other'",
  phone: "'79001234567'",
  client_type: '99',
  url: `'${api.url}/json'`,
  callback_message: "'ping'",
  description: "'A bot'",
  commands: "[['start', 'Start over']]",
  user_name: "'someone'",
});

const withOptionals = catalogue.filter((e) => e.host && e.params.some((p) => !p.required));

describe('an empty optional argument of an in-flow function means "not given"', () => {
  it('covers every in-flow function with optional parameters', () => {
    expect(withOptionals.map((e) => e.name)).toEqual(expect.arrayContaining(['message', 'requests_get']));
  });

  it('each function called with empty texts in its optional parameters does what it does with None', async () => {
    const lines = withOptionals.flatMap((entry) => {
      const args = (optional: string) =>
        entry.params
          .map((p) => {
            if (!p.required) return optional;
            const sample = samples()[p.name];
            if (!sample) throw new Error(`add a sample value for ${entry.name}(${p.name})`);
            return sample;
          })
          .join(', ');
      return [
        `none_${entry.name} = ${entry.name}(${args('None')})`,
        `empty_${entry.name} = ${entry.name}(${args("''")})`,
      ];
    });
    const bot = await h.bot({ blocks: [start(lines.join('\n'))], arrows: [] });
    await bot.client('other').say('hi');
    const other = (await bot.client('other').clientRow()).id;
    await bot.event({ type: 'message', text: 'go', variables: { other: String(other) } });

    const vars = (await bot.variables()).deal;
    const outcomes = (prefix: string) =>
      Object.fromEntries(withOptionals.map((e) => [e.name, vars[`${prefix}_${e.name}`]]));
    expect(outcomes('empty')).toEqual(outcomes('none'));
    // Not all failing alike: message() and the requests worked.
    expect(vars.none_message).toBe('True');
    expect(JSON.parse(vars.none_requests_get)).toMatchObject({ status: 200 });
  });

  it("message(client_id, 'text', '', 25) schedules the text in 25 seconds", async () => {
    const bot = await h.bot({ blocks: [start("message(client_id, 'later', '', 25)")], arrows: [] });
    await bot.say('hi');
    expect(await bot.log('formula_error')).toEqual([]);
    const send = await bot.db.scheduledSend.findFirstOrThrow({ where: { projectId: bot.projectId } });
    expect(send).toMatchObject({ kind: 'delayed_message', payload: { text: 'later' } });
    expect(send.runAt.getTime() - h.now.getTime()).toBe(25_000);
  });
});
