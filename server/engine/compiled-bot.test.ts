import { expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, type BotSchema, botSchemaSchema } from '@/lib/schema';
import { compileBot, getCompiledBot } from './compiled-bot';

const schema = (text: string) =>
  ({
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text, trigger: { alternatives: '' } }],
    arrows: [],
  }) as unknown as BotSchema;

it('events arriving while a revision compiles share one load; a new revision loads again', async () => {
  let loads = 0;
  const load = (text: string) => async () => {
    loads++;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return schema(text);
  };
  const bots = await Promise.all(
    Array.from({ length: 20 }, () => getCompiledBot(9001, 'published', 1, load('one'))),
  );
  expect(loads).toBe(1);
  expect(new Set(bots).size).toBe(1);
  expect(bots[0].entry?.text).toBe('one');

  const next = await getCompiledBot(9001, 'published', 2, load('two'));
  expect(loads).toBe(2);
  expect(next.entry?.text).toBe('two');
});

it("a project's draft and published bot are cached side by side", async () => {
  const published = await getCompiledBot(9003, 'published', 1, async () => schema('live'));
  const draft = await getCompiledBot(9003, 'draft', 7, async () => schema('edited'));
  expect((await getCompiledBot(9003, 'published', 1, async () => schema('reloaded'))).entry?.text).toBe(
    'live',
  );
  expect((await getCompiledBot(9003, 'draft', 7, async () => schema('reloaded'))).entry?.text).toBe('edited');
  expect([published.entry?.text, draft.entry?.text]).toEqual(['live', 'edited']);
});

it('when the shared load fails, each waiting event loads for itself and the failure is not cached', async () => {
  const failing = getCompiledBot(9002, 'published', 1, async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    throw new Error('transaction aborted');
  });
  const waiting = getCompiledBot(9002, 'published', 1, async () => schema('retried'));
  await expect(failing).rejects.toThrow('transaction aborted');
  expect((await waiting).entry?.text).toBe('retried');
  const later = await getCompiledBot(9002, 'published', 1, async () => schema('fresh'));
  expect(later.entry?.text).toBe('fresh');
});

it('adds a reply button for each condition arrow shown as a button, as the canvas draws them, and none for other arrows', () => {
  const bot = compileBot(
    botSchemaSchema.parse({
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'start', text: 'Hi' },
        { id: 2, kind: 'state', text: 'Two' },
      ],
      arrows: [
        {
          id: 1,
          from: 1,
          to: 2,
          kind: 'condition',
          condition: { alternatives: ' Sure ;yes' },
          showAsButton: true,
        },
        // Left over from an arrow that was a condition: the canvas shows no button for it.
        {
          id: 2,
          from: 1,
          to: 2,
          kind: 'unconditional',
          condition: { alternatives: 'Later' },
          showAsButton: true,
        },
      ],
    }),
    1,
  );
  expect(bot.arrowButtons.get(1)).toEqual([{ type: 'reply', text: 'Sure' }]);
});
