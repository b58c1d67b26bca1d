import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { saveBotSchema } from '@/server/projects/bot-schema-store';
import { simulatorReset, simulatorSend, simulatorState } from './simulator-service';

/**
 * The simulator talks to the draft, or to the published version clients get (docs/versions.md):
 * a conversation each, so switching keeps both.
 */

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

const bot = (text: string) => ({
  blocks: [{ id: 1, kind: 'start' as const, text, trigger: { alternatives: '' } }],
  arrows: [],
});
const designer = { id: 'designer-1', name: 'Ann' };

it('answers from the draft or from the published version, in two conversations', async () => {
  const driver = await h.bot(bot('Hello from version 1'));
  await driver.publish();
  await saveBotSchema(h.tdb.prisma, driver.projectId, {
    format: BOT_SCHEMA_FORMAT,
    ...bot('Hello from the draft'),
  });

  const say = async (edition: 'draft' | 'published') =>
    (await simulatorSend(h.deps, driver.projectId, designer, 'hi', edition)).messages.map((m) => m.text);
  expect(await say('draft')).toEqual(['Hello from the draft']);
  expect(await say('published')).toEqual(['Hello from version 1']);

  const transcript = async (edition: 'draft' | 'published') =>
    (await simulatorState(h.deps, driver.projectId, designer.id, edition)).transcript.map((m) => m.text);
  expect(await transcript('draft')).toEqual(['hi', 'Hello from the draft']);
  expect(await transcript('published')).toEqual(['hi', 'Hello from version 1']);

  // Resetting one leaves the other.
  await simulatorReset(h.deps, driver.projectId, designer.id, 'published');
  expect(await transcript('published')).toEqual([]);
  expect(await transcript('draft')).toEqual(['hi', 'Hello from the draft']);
});
