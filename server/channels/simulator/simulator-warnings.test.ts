import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChannelAdapter, CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { registerChannel } from '@/server/channels/registry';
import { handleEvent } from '@/server/engine/handle-event';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';
import { simulatorState } from './simulator-service';

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

/** What a real messenger was asked to send. */
const sent: string[] = [];
const widget: ChannelAdapter = {
  clientType: CLIENT_TYPES.widget,
  async send(_client, message) {
    sent.push(message.text);
    return { delivered: true };
  },
  async call() {
    return null;
  },
};

it("shows why in the simulator's chat, where it happened; a real channel sends only the bot's messages", async () => {
  const bot = await h.bot({
    blocks: [
      {
        id: 1,
        kind: 'start',
        trigger: { alternatives: '' },
        text: 'Your order: #{order_number}.',
        formula: 'x = 1 / 0',
        request: { type: 'GET', url: `${api.url}/json`, storedValues: 'order|id->order_number' },
      },
      {
        id: 2,
        kind: 'state',
        text: 'Checked #{nobody}',
        request: { type: 'GET', url: `${api.url}/error` },
      },
    ],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 0, unit: 'seconds' } }],
  });
  await bot.say('hi');

  const state = await simulatorState(h.deps, bot.projectId, bot.platformId);
  expect(state.transcript.map((m) => [m.direction, m.text])).toEqual([
    ['in', 'hi'],
    ['warning', expect.stringMatching(/^Formula error in block #1, line 1, column \d+: .*division by zero/)],
    [
      'warning',
      `Stored values not saved from the reply of block #1's request (GET ${api.url}/json): Stored value order_number: 'order' not found: the reply has no key "order"`,
    ],
    ['warning', '#{order_number} is not set, so it was left empty.'],
    ['out', 'Your order: .'],
    ['warning', `The request failed with HTTP 500: block #2's request (GET ${api.url}/error).`],
    ['warning', '#{nobody} is not set, so it was left empty.'],
    ['out', 'Checked '],
  ]);
  expect(state.transcript.find((m) => m.direction === 'warning')).toMatchObject({
    fix: "The other lines ran; fix this one in the block's formula.",
  });

  // The same bot, published, talking to a widget client: the same log, but the client gets only
  // the bot's texts.
  await bot.publish();
  registerChannel(widget);
  const ref = { clientType: CLIENT_TYPES.widget, groupId: 'site', platformId: 'visitor', name: 'Visitor' };
  const result = await handleEvent(h.deps, bot.projectId, { ref }, { type: 'message', text: 'hi' });
  expect(sent).toEqual(['Your order: .', 'Checked ']);
  const stored = await h.deps.db.message.findMany({
    where: { clientId: result.clientId },
    orderBy: { id: 'asc' },
  });
  expect(stored.map((m) => [m.direction, m.text])).toEqual([
    ['in', 'hi'],
    ['out', 'Your order: .'],
    ['out', 'Checked '],
  ]);
  const kinds = await h.deps.db.engineLogEntry.findMany({ where: { clientId: result.clientId } });
  expect(kinds.map((e) => e.kind)).toEqual(expect.arrayContaining(['formula_error', 'unknown_variable']));
});
