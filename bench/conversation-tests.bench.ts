/**
 * `npm run bench -- conversation-tests`: a bot's conversation tests (docs/conversation-tests.md)
 * on PostgreSQL (BENCH_DATABASE_URL, default the local server), or on the embedded database with
 * BENCH_EMBEDDED=1: BENCH_TESTS tests (default 200) of 15 steps each on a bot of 500 blocks.
 *
 * 1. The whole suite against the draft (goal: under 10 s on a 2-core machine), beside the
 *    baseline of the same run: the same conversations through the simulator's procedures (each
 *    message sent, then the panel's state read, as the builder does), one after another.
 * 2. Publishing with those tests (they run first) beside publishing the same draft with none
 *    (goal: the tests add under 15 s).
 *
 * Prints figures; never fails on time.
 */
import type { ConversationTest } from '../lib/conversation-tests/test-case';
import { BOT_SCHEMA_FORMAT, type BotSchema, type BotSchemaInput, botSchemaSchema } from '../lib/schema';
import {
  simulatorClientRef,
  simulatorSend,
  simulatorState,
} from '../server/channels/simulator/simulator-service';
import { resolveClient } from '../server/contacts/client-service';
import { saveClientVariables } from '../server/contacts/client-variables-service';
import { publishWithTests } from '../server/conversation-tests/publish-gate';
import { runTestSuite } from '../server/conversation-tests/test-runs';
import type { PrismaClient } from '../server/db/client-type';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, createTestDatabase, dropServerDatabase } from '../server/db/test-support';
import type { EngineDeps } from '../server/engine/engine-deps';
import { handleEvent } from '../server/engine/handle-event';
import { saveBotSchema } from '../server/projects/bot-schema-store';
import { createProject } from '../server/projects/project-service';
import { publishDraft } from '../server/versions/bot-versions';

const TESTS = Number(process.env.BENCH_TESTS ?? 200);
const STEPS = 15;
const BLOCKS = 500;
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const BY = { userId: null, name: 'bench' };

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * A start block, then a ring of states: each asks for "next" (a button) and counts the steps in
 * a variable (set to 0 before the first step).
 */
function ringBot(): BotSchema {
  const blocks: BotSchemaInput['blocks'] = [
    { id: 1, kind: 'start', text: 'Welcome, #{name}', trigger: { alternatives: '' } },
  ];
  const arrows: BotSchemaInput['arrows'] = [];
  for (let id = 2; id <= BLOCKS; id++) {
    blocks.push({
      id,
      kind: 'state',
      name: `Step ${id}`,
      position: { x: (id % 25) * 300, y: Math.floor(id / 25) * 200 },
      text: `Block ${id}: ${'#{steps}'} steps so far`,
      formula: 'steps = int(steps) + 1',
    });
  }
  let arrowId = 1;
  for (let id = 2; id <= BLOCKS; id++) {
    const to = id === BLOCKS ? 2 : id + 1;
    arrows.push({
      id: arrowId++,
      from: id,
      to,
      kind: 'condition',
      condition: { alternatives: 'next' },
      showAsButton: true,
    });
  }
  return botSchemaSchema.parse({ format: BOT_SCHEMA_FORMAT, blocks, arrows });
}

/** Test n enters block 2 + (n × 7 mod 480) and says "next" 14 times, checking each answer. */
function ringTest(n: number): ConversationTest {
  const first = 2 + ((n * 7) % (BLOCKS - 20));
  const steps: ConversationTest['steps'] = [
    {
      action: { type: 'enter', blockId: first },
      expect: {
        messages: [{ text: { match: 'exact', value: `Block ${first}: 1 steps so far` }, buttons: ['next'] }],
        block: first,
        variables: [],
      },
    },
  ];
  for (let s = 1; s < STEPS; s++) {
    const block = first + s;
    steps.push({
      action: { type: 'button', text: 'next' },
      expect: {
        messages: [{ text: { match: 'exact', value: `Block ${block}: ${s + 1} steps so far` } }],
        block,
        variables: s === STEPS - 1 ? [{ name: 'steps', equals: String(STEPS) }] : [],
      },
    });
  }
  return {
    id: n,
    name: `Ring from block ${first}`,
    clientName: 'Bench',
    variables: { steps: '0' },
    stubs: { requests: [], ai: [], messenger: [] },
    steps,
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

export async function run(): Promise<void> {
  const embedded = process.env.BENCH_EMBEDDED === '1';
  const url = embedded ? null : await createServerDatabase(serverUrl);
  const test = embedded ? await createTestDatabase() : null;
  const database = url ? await openDatabase({ mode: 'server', url }) : null;
  const db: PrismaClient = (database?.prisma ?? test?.prisma) as PrismaClient;
  try {
    const deps: EngineDeps = {
      db,
      http: async () => {
        throw new Error('no requests in this bench');
      },
      scheduler: { schedule: async () => null, cancel: async () => {} },
      now: () => new Date(),
    };
    const project = await createProject(db, { name: 'tests bench', plan: 'business' });
    const tests = Array.from({ length: TESTS }, (_, i) => ringTest(i + 1));
    await saveBotSchema(db, project.id, { ...ringBot(), tests });
    console.log(
      `${embedded ? 'embedded database' : 'PostgreSQL'}: ${TESTS} tests of ${STEPS} steps on a bot of ${BLOCKS} blocks`,
    );
    // One test first, not counted (the bot compiled, JIT).
    await runTestSuite(deps, project.id, { bot: 'draft', testIds: [1] });

    const [simulatorMs] = await timed(async () => {
      for (const t of tests) {
        const user = { id: `bench-${t.id}`, name: 'Bench' };
        const client = await resolveClient(db, project.id, simulatorClientRef(user.id, user.name));
        await saveClientVariables(db, project.id, [client.id], t.variables);
        for (const step of t.steps) {
          const action = step.action;
          if (action.type === 'enter')
            // The API's message with message_id, to the simulator's client: the simulator has no button for it.
            await handleEvent(
              deps,
              project.id,
              { ref: simulatorClientRef(user.id, user.name) },
              { type: 'enter_block', blockId: action.blockId, messageFromOutside: 1 },
            );
          else if (action.type === 'button') await simulatorSend(deps, project.id, user, action.text);
          await simulatorState(deps, project.id, user.id);
        }
      }
    });
    const [suiteMs, report] = await timed(() => runTestSuite(deps, project.id, { bot: 'draft' }));
    console.log(
      `baseline: the same ${TESTS * STEPS} steps through the simulator's procedures   ${seconds(simulatorMs)}`,
    );
    const failure = report.results.find((r) => !r.passed);
    if (failure)
      console.log(`first failure: ${failure.name}, step ${failure.failedStep}:`, failure.difference);
    console.log(
      `the suite against the draft: ${report.passed} passed, ${report.failed} failed          ${seconds(suiteMs)}   (goal under 10 s)`,
    );

    const [plainMs] = await timed(async () => {
      await db.botTest.deleteMany({ where: { projectId: project.id } });
      await saveBotSchema(db, project.id, {
        ...ringBot(),
        blocks: ringBot().blocks.map((b, i) => (i === 0 ? { ...b, text: 'v1' } : b)),
      });
      await publishDraft(db, project.id, BY);
    });
    await saveBotSchema(db, project.id, { ...ringBot(), tests });
    const [gatedMs, gated] = await timed(() => publishWithTests(deps, project.id, BY));
    console.log(`baseline: saving and publishing the draft without tests    ${seconds(plainMs)}`);
    console.log(
      `publishing with ${gated.tests?.results.length ?? 0} tests (version ${gated.version?.number ?? 'none'})           ${seconds(gatedMs)}   (goal: tests add under 15 s)`,
    );
  } finally {
    await database?.close();
    await test?.close();
    if (url) await dropServerDatabase(serverUrl, url);
  }
}
