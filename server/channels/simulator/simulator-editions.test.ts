import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { saveBotSchema } from '@/server/projects/bot-schema-store';
import {
  simulatorReset,
  simulatorSend,
  simulatorSetClient,
  simulatorState,
  type TestClient,
  testClientInput,
} from './simulator-service';

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

it("the test client's profile: its name and the client variables a bot reads, set before it writes", async () => {
  const driver = await h.bot({
    ...bot('Hi #{name} (#{client.phone}, #{client.email}, #{client.language})'),
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' as const }],
  });
  const ann = { id: 'designer-profile', name: 'Ann' };
  await simulatorSetClient(h.deps, driver.projectId, ann.id, {
    name: 'Bob Test',
    phone: '+49 (30) 1234-567',
    email: 'bob@example.com',
    language: 'de',
  });
  const said = await simulatorSend(h.deps, driver.projectId, ann, 'hi');
  expect(said.messages.map((m) => m.text)).toEqual(['Hi Bob Test (+49301234567, bob@example.com, de)']);
  expect((await simulatorState(h.deps, driver.projectId, ann.id)).clientName).toBe('Bob Test');

  // An emptied field clears its variable; the other edition's client is another one.
  await simulatorSetClient(h.deps, driver.projectId, ann.id, {
    name: 'Bob',
    phone: '',
    email: '',
    language: '',
  });
  expect((await simulatorSend(h.deps, driver.projectId, ann, 'hi')).messages.map((m) => m.text)).toEqual([
    'Hi Bob (, , )',
  ]);
  expect((await simulatorState(h.deps, driver.projectId, ann.id, 'published')).clientName).toBeNull();
});

it('refuses a test client profile that is not one, naming the field', () => {
  const refused = (profile: Partial<TestClient>) =>
    testClientInput.safeParse({ name: 'A', phone: '', email: '', language: '', ...profile }).error?.issues[0];
  expect(refused({ phone: '12' })).toMatchObject({
    path: ['phone'],
    message: expect.stringContaining('phone'),
  });
  expect(refused({ email: 'ann@' })).toMatchObject({ path: ['email'] });
  expect(refused({ language: 'english please' })).toMatchObject({ path: ['language'] });
  expect(refused({ phone: '+1 555 0100', email: 'a@b.co', language: 'pt-BR' })).toBeUndefined();
});
