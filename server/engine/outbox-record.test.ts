import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { recordSends } from './store/outbox';

/**
 * Sends answered at once have their answers recorded in one statement (recordSends): each on its
 * own message and outbox row.
 */

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

it("records each send's answer on its own message and outbox row, those answered at once together", async () => {
  const { id: projectId } = await createProject(tdb.prisma, { name: 'record', plan: 'business' });
  const sends = [];
  for (const name of ['Ann', 'Bob', 'Cid']) {
    const client = await tdb.prisma.client.create({
      data: { projectId, platformId: name, clientType: 1, groupId: 'record_bot', name },
    });
    const message = await tdb.prisma.message.create({
      data: { projectId, clientId: client.id, direction: 'out', text: `to ${name}`, delivered: false },
    });
    const outbox = await tdb.prisma.outbox.create({
      data: { projectId, kind: 'send', clientId: client.id, messageId: message.id },
    });
    sends.push({ message, outbox });
  }
  // A send still to do: left as it is.
  await tdb.prisma.outbox.create({ data: { projectId, kind: 'send' } });

  const statements = vi.spyOn(recordSends.statement, 'values');
  await Promise.all([
    recordSends.run(tdb.prisma, {
      outboxId: String(sends[0].outbox.id),
      messageId: String(sends[0].message.id),
      delivered: true,
      error: null,
      externalId: '501',
    }),
    recordSends.run(tdb.prisma, {
      outboxId: String(sends[1].outbox.id),
      messageId: String(sends[1].message.id),
      delivered: false,
      error: 'Forbidden: bot was blocked by the user',
      externalId: null,
    }),
    recordSends.run(tdb.prisma, {
      outboxId: String(sends[2].outbox.id),
      messageId: String(sends[2].message.id),
      delivered: true,
      error: null,
      externalId: '503',
    }),
  ]);
  expect(statements).toHaveBeenCalledTimes(1);
  statements.mockRestore();

  const messages = await tdb.prisma.message.findMany({
    where: { id: { in: sends.map((s) => s.message.id) } },
    orderBy: { id: 'asc' },
    select: { text: true, delivered: true, error: true, status: true, externalId: true },
  });
  expect(messages).toEqual([
    { text: 'to Ann', delivered: true, error: null, status: 'sent', externalId: '501' },
    {
      text: 'to Bob',
      delivered: false,
      error: 'Forbidden: bot was blocked by the user',
      status: 'failed',
      externalId: null,
    },
    { text: 'to Cid', delivered: true, error: null, status: 'sent', externalId: '503' },
  ]);
  const rows = await tdb.prisma.outbox.findMany({
    where: { projectId },
    orderBy: { id: 'asc' },
    select: { state: true, error: true, doneAt: true },
  });
  expect(rows).toEqual([
    { state: 'done', error: null, doneAt: expect.any(Date) },
    { state: 'done', error: 'Forbidden: bot was blocked by the user', doneAt: expect.any(Date) },
    { state: 'done', error: null, doneAt: expect.any(Date) },
    { state: 'pending', error: null, doneAt: null },
  ]);
});
