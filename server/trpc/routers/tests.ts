import { z } from 'zod';
import { recordSimulatorTest } from '@/server/conversation-tests/record-test';
import { lastTestReport } from '@/server/conversation-tests/run-suite';
import { runTestSuite } from '@/server/conversation-tests/test-runs';
import { getEngineDeps } from '@/server/engine/engine';
import { queueTestRun } from '@/server/jobs/test-run-job';
import { deleteTest, importTests, loadTests, saveTest } from '@/server/projects/bot-test-store';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

/** The draft (default) or a published version's number. */
const bot = z
  .union([
    z.literal('draft'),
    z.number().int('A version is a whole number.').positive('A version is 1 or more.'),
  ])
  .default('draft');
const testId = z.number().int().positive();

/**
 * Conversation tests (docs/conversation-tests.md): everyone sees and runs them (a run writes no
 * real client's rows); owners and admins change them, as they change the bot.
 */
export const testsRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => loadTests(ctx.db, ctx.projectId)),

  /** A new test (no id) or a changed one; the error names the field of a wrong one. */
  save: projectManagerProcedure
    .input(z.object({ test: z.unknown() }))
    .mutation(({ ctx, input }) => saveTest(ctx.db, ctx.projectId, input.test)),

  delete: projectManagerProcedure
    .input(z.object({ id: testId }))
    .mutation(({ ctx, input }) => deleteTest(ctx.db, ctx.projectId, input.id)),

  /** A schema file's tests, replacing the draft's (the builder's Import). */
  importTests: projectManagerProcedure
    .input(z.object({ tests: z.unknown() }))
    .mutation(async ({ ctx, input }) => ({ count: await importTests(ctx.db, ctx.projectId, input.tests) })),

  /** "Save as test": the member's simulator conversation with the draft, as a saved test. */
  record: projectManagerProcedure
    .input(
      z.object({
        name: z.string().trim().min(1, 'Name the test.').max(200, 'A name has at most 200 characters.'),
      }),
    )
    .mutation(async ({ ctx, input }) =>
      recordSimulatorTest(await getEngineDeps(), ctx.projectId, ctx.userId, input.name),
    ),

  run: projectProcedure
    .input(z.object({ version: bot, testIds: z.array(testId).max(500).optional() }))
    .mutation(async ({ ctx, input }) =>
      runTestSuite(await getEngineDeps(), ctx.projectId, {
        bot: input.version,
        testIds: input.testIds,
        queue: queueTestRun,
      }),
    ),

  lastRun: projectProcedure
    .input(z.object({ version: bot }))
    .query(({ ctx, input }) => lastTestReport(ctx.db, ctx.projectId, input.version)),
});
