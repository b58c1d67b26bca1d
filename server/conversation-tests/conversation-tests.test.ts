import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_DESCRIPTORS, type ChannelDescriptor, CONNECTABLE_KINDS } from '@/lib/channels/descriptors';
import type { ConversationTestInput } from '@/lib/conversation-tests/test-case';
import { BOT_SCHEMA_FORMAT, parseBotSchemaJson } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';
import { startWorkers } from '@/server/jobs/jobs';
import { jobDefinitions } from '@/server/jobs/registry';
import { signedInCaller } from '@/server/trpc/testing/signed-in';

/**
 * Conversation tests end to end through the UI's procedures (docs/conversation-tests.md): a
 * simulator conversation recorded and replayed, a change that breaks it found at its step, stubs
 * and the test's clock, the publish gate with its override, and tests carried by files and versions.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-conv-tests-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let api: FakeApi;
let owner: Awaited<ReturnType<typeof signedInCaller>>;

beforeAll(async () => {
  // The recorded conversation's request reaches the local fake API once, in the simulator.
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  api = await startFakeApi();
  owner = await signedInCaller(db, 'olga@example.com');
  // Runs are carried out by the worker's `tests.run` job, as in the app.
  await startWorkers(jobDefinitions);
});
afterAll(async () => {
  await api?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A pizza bot: a menu with two buttons, a request for the price, a reminder after 3 days. */
const shop = () => ({
  format: BOT_SCHEMA_FORMAT,
  blocks: [
    { id: 1, kind: 'start', text: 'Hi #{name}! What would you like?', trigger: { alternatives: '' } },
    {
      id: 2,
      kind: 'state',
      text: 'Pizza costs #{price}.',
      request: { type: 'GET', url: `${api.url}/json?item=pizza`, storedValues: 'data|items|0|price->price' },
    },
    { id: 3, kind: 'state', text: 'Sushi is sold out.' },
    { id: 4, kind: 'state', text: 'Still hungry, #{name}?' },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'Pizza' }, showAsButton: true },
    { id: 2, from: 1, to: 3, kind: 'condition', condition: { alternatives: 'Sushi' }, showAsButton: true },
    { id: 3, from: 2, to: 4, kind: 'timer', timer: { delay: 3, unit: 'days' } },
  ],
});

async function newProject(name: string, schema: object = shop()) {
  const project = await owner.project.create({ name, timeZone: 'UTC', withDemoBot: false });
  const { revision } = await owner.botSchema.get({ projectId: project.id });
  await owner.botSchema.save({ projectId: project.id, schema, expectedRevision: revision });
  return project.id;
}

async function editDraft(projectId: number, change: (schema: ReturnType<typeof shop>) => void) {
  const { schema, revision } = await owner.botSchema.get({ projectId });
  change(schema as unknown as ReturnType<typeof shop>);
  await owner.botSchema.save({ projectId, schema, expectedRevision: revision });
}

describe('recording and replaying', () => {
  it('records a simulator conversation, passes on its bot, and fails at the right step once an arrow changes', async () => {
    const projectId = await newProject('Record');
    await owner.simulator.send({ projectId, text: 'hello' });
    await owner.simulator.send({ projectId, text: 'Pizza' });
    const { timers } = await owner.simulator.state({ projectId });
    await owner.simulator.fireNow({ projectId, scheduledSendId: timers[0].id });
    const requestsBefore = api.requests.length;

    const test = await owner.tests.record({ projectId, name: 'Pizza order' });
    expect(test.steps.map((s) => s.action)).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'button', text: 'Pizza' },
      { type: 'wait', seconds: 3 * 86_400 },
    ]);
    expect(test.steps[0].expect.messages).toEqual([
      {
        text: { match: 'exact', value: 'Hi olga! What would you like?' },
        buttons: ['Pizza', 'Sushi'],
        attachments: [],
      },
    ]);
    expect(test.steps[1].expect).toMatchObject({ block: 2, variables: [{ name: 'price', equals: '42' }] });
    expect(test.steps[2].expect.messages?.[0].text).toEqual({ match: 'exact', value: 'Still hungry, olga?' });
    expect(test.stubs.requests).toMatchObject([
      { url: `${api.url}/json?item=pizza`, status: 200, once: true },
    ]);

    const passing = await owner.tests.run({ projectId });
    expect(passing).toMatchObject({
      passed: 1,
      failed: 0,
      coverage: { blocks: [1, 2, 4], arrows: [1, 3], blockTotal: 4 },
    });
    // The replay and the run answered the request from the stub: the network was not asked again.
    expect(api.requests.length).toBe(requestsBefore);
    // A test's client is gone once it ran; the designer's simulator conversation stays.
    expect(await db.client.count({ where: { projectId } })).toBe(1);

    // The Pizza button now leads to the sushi block.
    await editDraft(projectId, (schema) => {
      schema.arrows[0].to = 3;
    });
    const failing = await owner.tests.run({ projectId });
    expect(failing.failed).toBe(1);
    expect(failing.results[0]).toMatchObject({
      passed: false,
      failedStep: 1,
      difference: {
        field: 'messages[0].text',
        expected: 'Pizza costs 42.',
        actual: 'Sushi is sold out.',
        blockId: 3,
      },
    });
    expect(await owner.tests.lastRun({ projectId })).toMatchObject({ failed: 1, version: 0 });
  });

  it('a press of a button the bot does not show fails the step', async () => {
    const projectId = await newProject('Buttons');
    await owner.tests.save({
      projectId,
      test: {
        name: 'Presses a missing button',
        steps: [{ action: { type: 'text', text: 'hi' } }, { action: { type: 'button', text: 'Salad' } }],
      },
    });
    const report = await owner.tests.run({ projectId });
    expect(report.results[0]).toMatchObject({
      failedStep: 1,
      difference: { field: 'button', expected: 'a button [Salad]', actual: '[Pizza] [Sushi]' },
    });
  });

  it('starts from any block with given variables; a block the bot no longer has fails its step', async () => {
    const projectId = await newProject('Mid-bot');
    await owner.tests.save({
      projectId,
      test: {
        name: 'From the reminder',
        clientName: 'Ben',
        variables: { 'client.email': 'ben@example.com', price: '7' },
        steps: [
          {
            action: { type: 'enter', blockId: 4 },
            expect: {
              messages: [{ text: { match: 'exact', value: 'Still hungry, Ben?' } }],
              block: 4,
              variables: [
                { name: 'client.email', equals: 'ben@example.com' },
                { name: 'price', formula: 'int(value) * 2 == 14 and len(client.email) > 3' },
              ],
            },
          },
          { action: { type: 'enter', blockId: 99 } },
        ],
      },
    });
    const report = await owner.tests.run({ projectId });
    expect(report.results[0]).toMatchObject({
      failedStep: 1,
      difference: {
        field: 'action',
        expected: 'enter block 99',
        actual: 'Block 99 does not exist in this bot.',
      },
    });
  });
});

describe('stubs and the clock', () => {
  it('a request no stub answers fails the step, naming the request; a stub answers it and its delay moves the clock', async () => {
    const projectId = await newProject('Stubs');
    const test: ConversationTestInput = {
      id: 1,
      name: 'Price from a stub',
      steps: [
        { action: { type: 'text', text: 'hi' } },
        {
          action: { type: 'button', text: 'Pizza' },
          expect: { messages: [{ text: { match: 'exact', value: 'Pizza costs 9.' } }], block: 2 },
        },
      ],
    };
    await owner.tests.save({ projectId, test });
    const unanswered = await owner.tests.run({ projectId });
    expect(unanswered.results[0].difference).toMatchObject({
      field: 'request',
      actual: `GET ${api.url}/json?item=pizza`,
      blockId: 2,
    });
    expect(unanswered.results[0].difference?.message).toMatch(
      /^Block 2: No stub answers GET .*json\?item=pizza/,
    );

    await owner.tests.save({
      projectId,
      test: {
        ...test,
        stubs: {
          requests: [{ url: `${api.url}/json`, body: '{"data":{"items":[{"price":9}]}}', delayMs: 1500 }],
        },
      },
    });
    const answered = await owner.tests.run({ projectId });
    expect(answered.failed).toBe(0);
  });

  it('a 3-day wait fires the timer on the test clock, and a formula checks a variable', async () => {
    const projectId = await newProject('Clock', {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: 'Hello',
          trigger: { alternatives: '' },
          formula: 'started = current_date',
        },
        { id: 2, kind: 'state', text: 'Three days on: #{current_date}', formula: 'reminded = 1' },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 3, unit: 'days' } }],
    });
    await owner.tests.save({
      projectId,
      test: {
        name: 'Reminder',
        now: '2026-02-02T10:00:00Z',
        steps: [
          { action: { type: 'text', text: 'hi' }, expect: { block: 1 } },
          { action: { type: 'wait', seconds: 86_400 }, expect: { messages: [], block: 1 } },
          {
            action: { type: 'wait', seconds: 2 * 86_400 },
            expect: {
              messages: [{ text: { match: 'contains', value: '05.02.2026' } }],
              block: 2,
              variables: [{ name: 'reminded', formula: 'int(reminded) == 1' }],
            },
          },
        ],
      },
    });
    const report = await owner.tests.run({ projectId });
    expect(report.results[0].difference).toBeNull();
    expect(report.passed).toBe(1);
  });
});

describe('channels', () => {
  it('a test run as a channel sees its limits: too many buttons become numbered text there, buttons in the plain chat', async () => {
    // A kind that shows at most 10 buttons (the plain chat shows them all).
    const descriptors: readonly ChannelDescriptor[] = CHANNEL_DESCRIPTORS;
    const few = descriptors.find(
      (d) => CONNECTABLE_KINDS.includes(d.kind) && d.capabilities.maxButtons === 10,
    );
    expect(few).toBeDefined();
    const options = Array.from({ length: 12 }, (_, i) => ({ text: `Option ${i + 1}` }));
    const projectId = await newProject('Channels', {
      format: BOT_SCHEMA_FORMAT,
      blocks: [{ id: 1, kind: 'start', text: 'Choose', trigger: { alternatives: '' }, buttons: options }],
      arrows: [],
    });
    const step = (expect: object) => [{ action: { type: 'text', text: 'hi' }, expect }];
    await owner.tests.save({
      projectId,
      test: { name: 'Plain chat', steps: step({ messages: [{ buttons: options.map((o) => o.text) }] }) },
    });
    await owner.tests.save({
      projectId,
      test: {
        name: 'As the limited channel',
        channel: few?.kind,
        steps: step({ messages: [{ text: { match: 'contains', value: '12. Option 12' }, buttons: [] }] }),
      },
    });
    const report = await owner.tests.run({ projectId });
    expect(report.results.map((r) => [r.name, r.difference])).toEqual([
      ['Plain chat', null],
      ['As the limited channel', null],
    ]);
  });
});

describe('publishing', () => {
  it('failing tests stop a publish; an owner publishes anyway with a note the version keeps; operators cannot publish', async () => {
    const projectId = await newProject('Publish');
    await owner.tests.save({
      projectId,
      test: {
        name: 'Greets',
        steps: [
          {
            action: { type: 'text', text: 'hi' },
            expect: { messages: [{ text: { match: 'exact', value: 'Good day' } }] },
          },
        ],
      },
    });
    const { revision } = await owner.botSchema.get({ projectId });
    const refused = await owner.versions.publish({ projectId, note: '', expectedRevision: revision });
    expect(refused.version).toBeNull();
    expect(refused.tests).toMatchObject({ failed: 1, results: [{ name: 'Greets', failedStep: 0 }] });
    expect(await owner.versions.list({ projectId })).toEqual([]);

    await expect(
      owner.versions.publish({ projectId, note: ' ', expectedRevision: revision, publishAnyway: true }),
    ).rejects.toThrow(/say why in the note/);

    const operator = await signedInCaller(db, 'oleg@example.com');
    await db.projectMember.create({
      data: {
        projectId,
        userId: 'u-oleg@example.com',
        email: 'oleg@example.com',
        name: 'oleg',
        role: 'operator',
        active: true,
      },
    });
    await expect(
      operator.versions.publish({ projectId, note: 'mine', expectedRevision: revision, publishAnyway: true }),
    ).rejects.toThrow();

    const anyway = await owner.versions.publish({
      projectId,
      note: 'The greeting changes tomorrow',
      expectedRevision: revision,
      publishAnyway: true,
    });
    expect(anyway.version).toMatchObject({
      number: 1,
      note: 'The greeting changes tomorrow',
      testsRun: 1,
      testsFailed: 1,
    });
    expect((await owner.versions.list({ projectId }))[0]).toMatchObject({ testsRun: 1, testsFailed: 1 });
  });

  it('tests travel with the schema file, with each version, and come back with a rollback', async () => {
    const projectId = await newProject('Files');
    const greets = (value: string) => ({
      name: 'Greets',
      steps: [
        {
          action: { type: 'text', text: 'hi' },
          expect: { messages: [{ text: { match: 'contains', value } }] },
        },
      ],
    });
    const first = await owner.tests.save({ projectId, test: greets('What would you like') });
    const v1 = await owner.versions.publish({
      projectId,
      note: '',
      expectedRevision: (await owner.botSchema.get({ projectId })).revision,
    });
    expect(v1.version).toMatchObject({ number: 1, testsRun: 1, testsFailed: 0 });

    // The exported file carries the tests; a new project importing it has them.
    const exported = (await owner.botSchema.export({ projectId })).json;
    expect(JSON.parse(exported).tests).toHaveLength(1);
    const copy = (await owner.project.create({ name: 'Copy', timeZone: 'UTC', withDemoBot: false })).id;
    await owner.botSchema.import({ projectId: copy, json: exported });
    expect((await owner.tests.list({ projectId: copy })).map((t) => t.name)).toEqual(['Greets']);
    expect((await owner.tests.run({ projectId: copy })).passed).toBe(1);

    // Version 2 changes the greeting and its test.
    await editDraft(projectId, (schema) => {
      schema.blocks[0].text = 'Welcome back!';
    });
    await owner.tests.save({ projectId, test: { ...greets('Welcome back'), id: first.id } });
    await owner.versions.publish({
      projectId,
      note: '',
      expectedRevision: (await owner.botSchema.get({ projectId })).revision,
    });

    // Version 1 runs with its own test, and a rollback publishes it again with it.
    expect((await owner.tests.run({ projectId, version: 1 })).passed).toBe(1);
    const rolled = await owner.versions.rollback({ projectId, version: 1, note: '' });
    const restored = parseBotSchemaJson(
      (await owner.versions.export({ projectId, version: rolled.number })).json,
    );
    expect(restored.ok && restored.value.tests?.[0].steps[0].expect.messages?.[0].text).toEqual({
      match: 'contains',
      value: 'What would you like',
    });
    // The canvas's saves leave the tests as they are.
    await editDraft(projectId, (schema) => {
      (schema as { tests?: unknown }).tests = [];
    });
    expect(await owner.tests.list({ projectId })).toHaveLength(1);
  });

  it('a wrong test is refused, naming the field', async () => {
    const projectId = await newProject('Wrong');
    await expect(
      owner.tests.save({
        projectId,
        test: { name: 'Bad', steps: [{ action: { type: 'wait', seconds: 0 } }] },
      }),
    ).rejects.toThrow(/steps\[0\]\.action\.seconds: A wait is at least 1 second/);
    expect(await owner.tests.list({ projectId })).toEqual([]);
  });
});
