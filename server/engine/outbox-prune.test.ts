import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { OUTBOX_KEEP_DAYS, pruneOutbox } from './outbox';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

it('prunes done rows older than the days it keeps them, never a row still to carry out', async () => {
  const { id: projectId } = await createProject(tdb.prisma, { name: 'prune', plan: 'business' });
  const old = new Date(Date.now() - (OUTBOX_KEEP_DAYS + 1) * 86_400_000);
  const recent = new Date(Date.now() - (OUTBOX_KEEP_DAYS - 1) * 86_400_000);
  const rows = [
    { kind: 'send', state: 'done', doneAt: old, error: 'old, done' },
    { kind: 'webhook', state: 'pending', doneAt: null, error: 'old, still to do' },
    { kind: 'webhook', state: 'queued', doneAt: null, error: 'queued' },
    { kind: 'webhook', state: 'done', doneAt: old, error: 'old webhook, done' },
    { kind: 'send', state: 'done', doneAt: recent, error: 'recent, done' },
  ];
  for (const row of rows) await tdb.prisma.outbox.create({ data: { projectId, ...row, createdAt: old } });

  expect(await pruneOutbox(tdb.prisma)).toBe(2);
  const left = await tdb.prisma.outbox.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
  expect(left.map((r) => r.error)).toEqual(['old, still to do', 'queued', 'recent, done']);
  expect(await pruneOutbox(tdb.prisma)).toBe(0);
});
