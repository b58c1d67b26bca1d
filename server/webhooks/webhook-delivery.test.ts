import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { getSafeHttpConfig, safeFetch } from '@/server/http';
import { createProject } from '@/server/projects/project-service';
import { startRecordingReceiver } from '@/server/testing/recording-receiver';
import { deliverWebhook } from './webhook-delivery';

let tdb: TestDatabase;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  receiver = await startRecordingReceiver();
});
afterAll(async () => {
  receiver?.close();
  await tdb?.close();
});

it('signs with the same timestamp it sends, even when the clock crosses a second in between', async () => {
  const db = tdb.prisma;
  const project = await createProject(db, { name: 'hooks', plan: 'business' });
  await db.project.update({ where: { id: project.id }, data: { webhookUrl: receiver.url } });
  const client = await db.client.create({
    data: { projectId: project.id, platformId: 'p1', clientType: 99 },
  });
  const message = await db.message.create({
    data: { projectId: project.id, clientId: client.id, direction: 'in', text: 'hello' },
  });
  // Each read of the clock is one millisecond later, starting 1 ms before a second boundary.
  let ms = Math.floor(Date.now() / 1000) * 1000 + 999;
  const clock = () => new Date(ms++);
  const config = { ...getSafeHttpConfig(), allowHosts: ['127.0.0.1'] };
  await deliverWebhook(
    db,
    (url, init) => safeFetch(url, init, config),
    project.id,
    { messageId: message.id },
    clock,
  );

  expect(receiver.received).toHaveLength(1);
  const [hook] = receiver.received;
  const verified = new Webhook(project.webhookSecret).verify(
    hook.body,
    hook.headers as Record<string, string>,
  );
  expect(verified).toMatchObject({ message: 'hello', project_id: project.id });
  expect(await db.webhookDelivery.findMany({ where: { projectId: project.id } })).toMatchObject([
    { status: 200, error: null },
  ]);
});
