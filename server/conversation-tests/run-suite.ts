import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { ClientView } from '@/lib/conversation-tests/client-view';
import type { TestReport } from '@/lib/conversation-tests/results';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { BLOCK_KIND_RULES, type BotSchema } from '@/lib/schema';
import type { Prisma } from '@/server/db/generated/client';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError } from '@/server/errors';
import { loadBotSchema } from '@/server/projects/bot-schema-store';
import { loadVersionSchema } from '@/server/versions/bot-versions';
import { runConversationTest, type TestOutcome } from './run-test';

/**
 * Runs a bot's conversation tests (the draft's, or a version's own) and keeps the report for the
 * Tests panel (`TestRun`, the latest per project and bot). Every process runs at most
 * `TEST_CONVERSATIONS` test conversations at once, whoever asked (the panel, a publish, the CLI):
 * test runs take their turn beside clients' events instead of crowding them out.
 */
export const TEST_CONVERSATIONS = 4;
const limit = pLimit(TEST_CONVERSATIONS);

/** Which bot: the draft, or a published version's number. */
export type TestedBot = 'draft' | number;

export interface SuiteOptions {
  bot: TestedBot;
  /** Only these tests (the panel's "Run" of one test); all when absent. */
  testIds?: readonly number[];
  /** How each channel kind's client sees a message (the channel modules' `clientView`). */
  views: ReadonlyMap<string, ClientView>;
}

export async function runTestSuite(
  deps: EngineDeps,
  projectId: number,
  options: SuiteOptions,
): Promise<TestReport> {
  const startedAt = new Date();
  const started = performance.now();
  const project = await deps.db.project.findUnique({
    where: { id: projectId },
    select: { plan: true, timeZone: true, publishedVersion: true },
  });
  if (!project) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
  const schema = await testedSchema(deps, projectId, options.bot);
  const tests = (schema.tests ?? []).filter((t) => !options.testIds || options.testIds.includes(t.id));
  const target = {
    projectId,
    version: options.bot,
    plan: project.plan,
    timeZone: project.timeZone,
    runTag: `run-${randomUUID()}`,
    views: options.views,
  };
  const outcomes = await Promise.all(
    tests.map((test: ConversationTest) => limit(() => runConversationTest(deps, target, test))),
  );
  const report = reportOf(options.bot, schema, outcomes, startedAt, performance.now() - started);
  await keepReport(deps, projectId, report);
  return report;
}

async function testedSchema(deps: EngineDeps, projectId: number, bot: TestedBot): Promise<BotSchema> {
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

/** Keeps the run as the latest of its bot; earlier ones of the same bot go. */
async function keepReport(deps: EngineDeps, projectId: number, report: TestReport): Promise<void> {
  await deps.db.$transaction([
    deps.db.testRun.deleteMany({ where: { projectId, version: report.version } }),
    deps.db.testRun.create({
      data: {
        projectId,
        version: report.version,
        startedAt: new Date(report.startedAt),
        finishedAt: new Date(),
        report: report as unknown as Prisma.InputJsonObject,
      },
    }),
  ]);
}

/** The latest run of a bot's tests, or null. */
export async function lastTestReport(
  db: EngineDeps['db'],
  projectId: number,
  bot: TestedBot,
): Promise<TestReport | null> {
  const row = await db.testRun.findFirst({
    where: { projectId, version: bot === 'draft' ? 0 : bot },
    orderBy: { id: 'desc' },
  });
  return (row?.report as TestReport | null | undefined) ?? null;
}
