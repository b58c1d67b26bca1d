import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendRoutesWithSlots } from '@/server/channels/tg/sql';
import { storeHeldAndClaim } from '@/server/engine/store/claim';
import { recordSends } from '@/server/engine/store/outbox';
import { createProject } from '@/server/projects/project-service';
import { insertHeld } from './channel-update-sql';
import { type PreparedStatement, prefixed, preparedStatementName, sqlTransaction } from './raw-sql';
import { createTestDatabase, type TestDatabase } from './test-support';

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
    const update = (run: number) => ({
      channelId: 1,
      kind: 'tg',
      updates: JSON.stringify([
        { externalId: String(run), updateId: String(run), chat: '7', payload: { update_id: run } },
      ]),
      token: 'token',
      acceptSeconds: 30,
      processSeconds: 60,
      touchSeconds: 5,
      secret: 'secret',
      groupId: 'plans_bot',
    });
    const stored = await plansOf(insertHeld, update);
    const storedAndClaimed = await plansOf(storeHeldAndClaim, (run) => ({
      ...update(run),
      ...prefixed('lease_', {
        token: 'lease',
        seconds: 120,
        projectId: 1,
        clientType: 1,
        groupId: 'plans_bot',
        platformId: String(run),
      }),
    }));
    const sent = await plansOf(recordSends.statement, (run) => ({
      rows: JSON.stringify([
        {
          outboxId: String(run),
          messageId: String(run),
          delivered: true,
          error: null,
          externalId: String(run),
        },
      ]),
    }));
    const routed = await plansOf(sendRoutesWithSlots, (run) => ({
      rows: JSON.stringify([
        {
          projectId: 1,
          clientType: 1,
          groupId: 'plans_bot',
          clientId: run,
          chat: String(run),
          botMs: 35,
          chatMs: 1000,
        },
      ]),
      stateKey: 'tg_business_connection_id',
    }));
    for (const plans of [stored, storedAndClaimed, sent, routed])
      expect(plans).toEqual({ custom: 5, kept: RUNS - 5 });
  },
);

interface PlanNode {
  'Relation Name'?: string;
  Alias?: string;
  'Rows Removed by Filter'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

it("storing an update reads none of its chat's processed updates, however long the chat", async () => {
  const project = await createProject(db.prisma, { name: 'long chat', plan: 'business' });
  const channel = await db.prisma.channel.create({
    data: { projectId: project.id, kind: 'tg', clientType: 1, groupId: 'long_chat_bot' },
  });
  // A chat with 2,000 updates, all processed. No ANALYZE: the plan is kept from a connection's
  // first runs, made on statistics of a smaller table (with them fresh, the planner may use the
  // processedAt index instead, and this shows nothing).
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "ChannelUpdate" ("channelId", "externalId", "updateId", chat, payload, "processedAt")
     SELECT $1, g::text, g, '7', '{}', now() FROM generate_series(1, 2000) g`,
    channel.id,
  );
  const params = {
    channelId: channel.id,
    kind: 'tg',
    updates: JSON.stringify([
      { externalId: '2001', updateId: '2001', chat: '7', payload: { update_id: 2001 } },
    ]),
    token: 'token',
    acceptSeconds: 30,
    processSeconds: 60,
    touchSeconds: 5,
    secret: null,
    groupId: 'long_chat_bot',
  };
  const [row] = await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${insertHeld.text}`,
    ...insertHeld.values(params),
  );
  const explained = Object.values(row)[0];
  const [{ Plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as {
    Plan: PlanNode;
  }[];
  // The look-up of the chat's earlier updates still to process (the update waits behind them).
  const earlier = nodesOf(Plan).filter((n) => n['Relation Name'] === 'ChannelUpdate' && n.Alias === 'e');
  expect(earlier).not.toHaveLength(0);
  for (const node of earlier) expect(node['Rows Removed by Filter'] ?? 0).toBe(0);
  // Stored, and taken for processing: no earlier update of the chat waits.
  expect(await db.prisma.channelUpdate.findFirstOrThrow({ where: { updateId: 2001 } })).toMatchObject({
    attempts: 1,
  });
});
