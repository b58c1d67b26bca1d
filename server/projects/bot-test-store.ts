import {
  type ConversationTest,
  conversationTestSchema,
  conversationTestsSchema,
  TEST_LIMITS,
} from '@/lib/conversation-tests/test-case';
import { describeFieldErrors, zodFieldErrors } from '@/lib/schema/parse';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { DomainError, invalid } from '@/server/errors';

/**
 * The draft's conversation tests (docs/conversation-tests.md): one `BotTest` row each, saved
 * apart from the bot's blocks (the Tests panel saves a test at once; the builder's autosave of
 * the canvas never carries them), replaced as a whole by a schema file with tests, a restored
 * version and a discarded draft. Every test is checked by the same zod schema as a file's.
 */

/** The draft's tests, by id. A row that no longer parses (written by a newer build) is left out. */
export async function loadTests(db: Db, projectId: number): Promise<ConversationTest[]> {
  const rows = await db.botTest.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
  return rows.flatMap((row) => {
    const parsed = conversationTestSchema.safeParse(row.test);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Replaces the draft's tests (inside the schema's own transaction). */
export async function replaceTests(
  tx: Prisma.TransactionClient,
  projectId: number,
  tests: readonly ConversationTest[],
): Promise<void> {
  await tx.botTest.deleteMany({ where: { projectId } });
  if (tests.length)
    await tx.botTest.createMany({
      data: tests.map((t) => ({ projectId, id: t.id, test: t as unknown as Prisma.InputJsonObject })),
    });
}

/** Checks a test as a file's is checked: the error names the field (`steps[2].action.text`). */
export function parseTest(input: unknown, what = 'The test was not saved'): ConversationTest {
  const parsed = conversationTestSchema.safeParse(input);
  if (!parsed.success) throw invalid(`${what}:\n${describeFieldErrors(zodFieldErrors(parsed.error))}`);
  return parsed.data;
}

/**
 * Saves one test: a new one (no id) gets the next free id. The whole set is checked (ids, the
 * count) before anything is written.
 */
export async function saveTest(
  db: PrismaClient,
  projectId: number,
  input: unknown,
): Promise<ConversationTest> {
  const raw = (input && typeof input === 'object' ? input : {}) as { id?: unknown };
  return db.$transaction(async (tx) => {
    const rows = await tx.botTest.findMany({ where: { projectId }, select: { id: true } });
    const id = typeof raw.id === 'number' ? raw.id : Math.max(0, ...rows.map((r) => r.id)) + 1;
    const test = parseTest({ ...raw, id });
    const exists = rows.some((r) => r.id === id);
    if (!exists && rows.length >= TEST_LIMITS.tests)
      throw invalid(`A bot has at most ${TEST_LIMITS.tests} tests; delete one first.`, 'tests');
    const json = test as unknown as Prisma.InputJsonObject;
    await tx.botTest.upsert({
      where: { projectId_id: { projectId, id } },
      create: { projectId, id, test: json },
      update: { test: json },
    });
    return test;
  });
}

export async function deleteTest(db: Db, projectId: number, id: number): Promise<void> {
  const { count } = await db.botTest.deleteMany({ where: { projectId, id } });
  if (!count) throw new DomainError('not_found', `Test ${id} does not exist (deleted meanwhile?).`);
}

/** Replaces the draft's tests with a file's (the builder's Import of a file that has tests). */
export async function importTests(db: PrismaClient, projectId: number, input: unknown): Promise<number> {
  const parsed = conversationTestsSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(`The tests were not imported:\n${describeFieldErrors(zodFieldErrors(parsed.error))}`);
  await db.$transaction((tx) => replaceTests(tx, projectId, parsed.data));
  return parsed.data.length;
}
