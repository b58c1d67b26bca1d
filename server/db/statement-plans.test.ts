import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordSend } from '@/server/engine/store';
import { type PreparedStatement, preparedStatementName, sqlTransaction } from './raw-sql';
import { createTestDatabase, type TestDatabase } from './test-support';
import { insertHeld } from './tg-update-sql';

/**
 * PostgreSQL plans a kept statement for its first five runs on a connection, then keeps one
 * plan for every later run, unless the plans made for given values looked much cheaper: then it
 * plans again at every run. The statements each messenger update runs must not be of that kind
 * (planning insertHeld took more CPU than running it).
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

const RUNS = 12;

/** How one connection planned the statement over RUNS runs: anew each time (custom), or by the kept plan. */
async function plansOf(
  statement: PreparedStatement<unknown>,
  params: (run: number) => Record<string, unknown>,
) {
  return sqlTransaction(db.prisma, async (_tx, sql) => {
    for (let run = 0; run < RUNS; run++) await sql.run(statement, params(run));
    const [row] = await sql.query(
      'SELECT custom_plans::int AS custom, generic_plans::int AS kept FROM pg_prepared_statements WHERE name = $1',
      [preparedStatementName({ sql: statement.text })],
    );
    return row;
  });
}

it.runIf(process.env.TEST_DATABASE_URL)(
  "an update's statements are planned five times on a connection, then run on the plan kept",
  async () => {
    const stored = await plansOf(insertHeld, (run) => ({
      channelId: 1,
      updates: JSON.stringify([{ updateId: String(run), chat: '7', payload: { update_id: run } }]),
      token: 'token',
      acceptSeconds: 30,
      processSeconds: 60,
      touchSeconds: 5,
      secret: 'secret',
      groupId: 'plans_bot',
    }));
    const sent = await plansOf(recordSend, (run) => ({
      outboxId: String(run),
      messageId: String(run),
      delivered: true,
      error: null,
    }));
    for (const plans of [stored, sent]) expect(plans).toEqual({ custom: 5, kept: RUNS - 5 });
  },
);
