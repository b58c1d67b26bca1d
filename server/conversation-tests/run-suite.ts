import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { SIMULATED_CLIENT_TYPE } from '@/lib/channels/descriptors';
import type { TestReport } from '@/lib/conversation-tests/results';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { BLOCK_KIND_RULES, type BotSchema } from '@/lib/schema';
import { TEST_RUN_GROUP } from '@/lib/simulator/editions';
import { Prisma } from '@/server/db/generated/client';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError } from '@/server/errors';
import { loadBotSchema } from '@/server/projects/bot-schema-store';
import { loadVersionSchema } from '@/server/versions/bot-versions';
import { channelViews } from './channel-views';
import { runConversationTest, type TestOutcome } from './run-test';

/**
 * A bot's conversation tests (the draft's, or a version's own) run as one `TestRun`: asked for
 * by the Tests panel and a publish, carried out by a worker's `tests.run` job (server/jobs/test-run-job.ts),
 * so runs never take a web process's time; the CLI carries its run out itself. The finished run
 * keeps its report for the panel (the latest per project and bot). Every process runs at most
 * `TEST_CONVERSATIONS` test conversations at once, whatever runs they belong to: test runs take
 * their turn beside clients' events instead of crowding them out.
 */
export const TEST_CONVERSATIONS = 4;
const limit = pLimit(TEST_CONVERSATIONS);

/** Which bot: the draft, or a published version's number. */
export type TestedBot = 'draft' | number;

export interface SuiteOptions {
  bot: TestedBot;
  /** Only these tests (the panel's "Run" of one test); all when absent. */
  testIds?: readonly number[];
  /** Queues the run for a worker (server/jobs/test-run-job.ts); absent: this process carries it out. */
  queue?: (runId: number) => Promise<void>;
}

/** A run's work, by the worker's job (or the CLI): the report, or why there is none, on its row. */
export async function carryOutTestRun(deps: EngineDeps, runId: number): Promise<void> {
  const run = await deps.db.testRun.findUnique({ where: { id: runId } });
  if (!run || run.finishedAt) return;
  const bot: TestedBot = run.version === 0 ? 'draft' : run.version;
  let report: TestReport | null = null;
  let error: string | null = null;
  try {
    report = await runTests(deps, run.projectId, bot, run.testIds.length ? run.testIds : undefined);
  } catch (e) {
    error = e instanceof DomainError ? e.message : `The tests could not be run: ${(e as Error).message}`;
  }
  await deps.db.$transaction([
    deps.db.testRun.update({
      where: { id: runId },
      data: {
        finishedAt: new Date(),
        error,
        ...(report && { report: report as unknown as Prisma.InputJsonObject }),
      },
    }),
    // The panel keeps the latest finished run of each bot; one an hour old and unfinished was
    // given up (its worker died, its retry too) and its caller stopped waiting long ago.
    deps.db.testRun.deleteMany({
      where: {
        projectId: run.projectId,
        version: run.version,
        id: { lt: runId },
        OR: [{ finishedAt: { not: null } }, { startedAt: { lt: new Date(Date.now() - 3_600_000) } }],
      },
    }),
  ]);
}

async function runTests(
  deps: EngineDeps,
  projectId: number,
  bot: TestedBot,
  testIds: readonly number[] | undefined,
): Promise<TestReport> {
  const startedAt = new Date();
  const started = performance.now();
  const project = await deps.db.project.findUnique({
    where: { id: projectId },
    select: { plan: true, timeZone: true },
  });
  if (!project) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
  await forgetCutOffRuns(deps, projectId);
  const schema = await testedSchema(deps, projectId, bot);
  const tests = (schema.tests ?? []).filter((t) => !testIds || testIds.includes(t.id));
  const target = {
    projectId,
    version: bot,
    plan: project.plan,
    timeZone: project.timeZone,
    runTag: `run-${randomUUID()}`,
    views: channelViews(),
  };
  const outcomes = await Promise.all(
    tests.map((test: ConversationTest) => limit(() => runConversationTest(deps, target, test))),
  );
  return reportOf(bot, schema, outcomes, startedAt, performance.now() - started);
}

export async function testedSchema(deps: EngineDeps, projectId: number, bot: TestedBot): Promise<BotSchema> {
  if (bot === 'draft') return (await loadBotSchema(deps.db, projectId, { withTests: true })).schema;
  const exists = await deps.db.botVersion.count({ where: { projectId, number: bot } });
  if (!exists) throw new DomainError('not_found', `Version ${bot} does not exist.`, 'version');
  return loadVersionSchema(deps.db, projectId, bot);
}

function reportOf(
  bot: TestedBot,
  schema: BotSchema,
  outcomes: readonly TestOutcome[],
  startedAt: Date,
  ms: number,
): TestReport {
  const blocks = new Set<number>();
  const arrows = new Set<number>();
  for (const outcome of outcomes) {
    for (const id of outcome.blocks) blocks.add(id);
    for (const id of outcome.arrows) arrows.add(id);
  }
  return {
    version: bot === 'draft' ? 0 : bot,
    startedAt: startedAt.toISOString(),
    ms: Math.round(ms),
    passed: outcomes.filter((o) => o.passed).length,
    failed: outcomes.filter((o) => !o.passed).length,
    results: outcomes.map(({ blocks: _b, arrows: _a, ...result }) => result),
    coverage: {
      blocks: [...blocks].sort((a, b) => a - b),
      arrows: [...arrows].sort((a, b) => a - b),
      blockTotal: schema.blocks.filter((b) => BLOCK_KIND_RULES[b.kind].runs).length,
      arrowTotal: schema.arrows.length,
    },
  };
}

/** A run never takes an hour: a test client older than that is a run's that was cut off (a restart). */
async function forgetCutOffRuns(deps: EngineDeps, projectId: number): Promise<void> {
  await deps.db.client.deleteMany({
    where: {
      projectId,
      clientType: SIMULATED_CLIENT_TYPE,
      groupId: { startsWith: TEST_RUN_GROUP },
      createdAt: { lt: new Date(Date.now() - 3_600_000) },
    },
  });
}

/** The latest run of a bot's tests, or null. */
export async function lastTestReport(
  db: EngineDeps['db'],
  projectId: number,
  bot: TestedBot,
): Promise<TestReport | null> {
  const row = await db.testRun.findFirst({
    where: { projectId, version: bot === 'draft' ? 0 : bot, report: { not: Prisma.DbNull } },
    orderBy: { id: 'desc' },
  });
  return (row?.report as TestReport | null | undefined) ?? null;
}
