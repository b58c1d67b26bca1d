import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '@/server/ai/testing/fake-openai';
import { resetEnvCache } from '@/server/config/env';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getBoss } from '@/server/jobs/boss';
import { enqueue, startWorkers } from '@/server/jobs/jobs';
import { createProject } from '@/server/projects/project-service';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { signUpForTest } from '@/server/testing/sign-up';
import { waitFor } from '@/server/testing/wait-for';
import { listDocuments, storeDocument, textDocument } from './documents';
import { projectEmbedder } from './embedder';
import {
  knowledgeIndexGaveUpJob,
  knowledgeIndexJob,
  queueDocument,
  queueReindex,
  resumeIndexing,
} from './index-job';
import { searchWithEmbedder } from './search';
import { setFakeProvider } from './test-support';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-knowledge-jobs-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeOpenAi;
let server: RouteServer | undefined;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  resetEnvCache();
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  fake = await startFakeOpenAi({ dimensions: 64 });
  await startWorkers([knowledgeIndexJob, knowledgeIndexGaveUpJob]);
});
afterAll(async () => {
  server?.close();
  await fake?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let projects = 0;
async function project() {
  const { id } = await db.project.create({ data: { name: `kb ${++projects}`, webhookSecret: 'whsec_test' } });
  await setFakeProvider(db, id, fake);
  return id;
}

const HOURS = '# Hours\nWe open at nine.\n\n# Prices\nCoffee costs two euros.';
const statusOf = async (projectId: number, documentId: number) =>
  (await listDocuments(db, projectId)).find((d) => d.id === documentId);

it('adding returns at once with the document indexing; the job embeds it and it is searched', async () => {
  const projectId = await project();
  // The provider holds the first request until the test has seen the document still indexing.
  fake.nextEmbeddings({ hang: true });
  const doc = await queueDocument(
    db,
    projectId,
    textDocument({ title: 'Hours', kind: 'markdown', text: HOURS }),
  );
  expect(doc).toMatchObject({ status: 'indexing', chunkCount: 2 });
  await waitFor(async () => fake.open() > 0, 'the job to ask the provider');
  expect((await statusOf(projectId, doc.id))?.status).toBe('indexing');

  // A worker whose claim is taken away (its heartbeat unseen: the process died) stops; the job is
  // retried and the retry finishes the document.
  const boss = await getBoss();
  const [job] = await boss.findJobs(knowledgeIndexJob.name, { data: { documentId: doc.id } });
  await boss.fail(knowledgeIndexJob.name, job.id, { message: 'taken away by the test' });
  const ready = await waitFor(
    async () => {
      const d = await statusOf(projectId, doc.id);
      return d?.status === 'ready' && d;
    },
    'the retried job to finish the document',
    30_000,
  );
  expect(ready).toMatchObject({ status: 'ready', error: null, chunkCount: 2 });
  const [retried] = await boss.findJobs(knowledgeIndexJob.name, { id: job.id });
  expect(retried.retryCount).toBeGreaterThan(0);
  const [hit] = await searchWithEmbedder(
    db,
    projectId,
    'How much is a coffee?',
    await projectEmbedder(db, projectId),
  );
  expect(hit).toMatchObject({ documentId: doc.id, headingPath: ['Prices'] });
});

it("the provider's error fails the document clearly, once, and Re-index queues it again", async () => {
  const projectId = await project();
  fake.nextEmbeddings({ status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' });
  const doc = await queueDocument(
    db,
    projectId,
    textDocument({ title: 'Hours', kind: 'text', text: 'We open at nine.' }),
  );
  const failed = await waitFor(async () => {
    const d = await statusOf(projectId, doc.id);
    return d?.status === 'failed' && d;
  }, 'the document to fail');
  expect(failed.error).toMatch(/^Indexing failed: .*API key/);

  const again = await queueReindex(db, projectId, doc.id);
  expect(again).toMatchObject({ status: 'indexing', error: null });
  await waitFor(async () => (await statusOf(projectId, doc.id))?.status === 'ready', 'the re-index');
});

it('a document deleted before its job runs is skipped', async () => {
  const projectId = await project();
  fake.nextEmbeddings({ hang: true });
  const first = await queueDocument(
    db,
    projectId,
    textDocument({ title: 'A', kind: 'text', text: 'Alpha.' }),
  );
  await waitFor(async () => fake.open() > 0, 'the job to ask the provider');
  // One document of a project at a time: the second waits behind the first.
  const second = await queueDocument(
    db,
    projectId,
    textDocument({ title: 'B', kind: 'text', text: 'Beta.' }),
  );
  await db.knowledgeDocument.delete({ where: { id: second.id } });
  const boss = await getBoss();
  const [job] = await boss.findJobs(knowledgeIndexJob.name, { data: { documentId: first.id } });
  await boss.fail(knowledgeIndexJob.name, job.id, { message: 'taken away by the test' });
  await waitFor(
    async () => (await statusOf(projectId, first.id))?.status === 'ready',
    'the first document',
    30_000,
  );
  const [skipped] = await boss.findJobs(knowledgeIndexJob.name, { data: { documentId: second.id } });
  await waitFor(
    async () => (await boss.findJobs(knowledgeIndexJob.name, { id: skipped.id }))[0]?.state === 'completed',
    "the deleted document's job to complete",
  );
});

it('the upload route answers at once with the document indexing; the job makes it ready', async () => {
  const { POST } = await import('@/app/api/projects/[projectId]/knowledge/upload/route');
  server = await serveRoutes([
    { method: 'POST', pattern: /^\/api\/projects\/(?<projectId>[^/]+)\/knowledge\/upload$/, handler: POST },
  ]);
  const owner = await signUpForTest(db, 'owner@example.com');
  const { id: projectId } = await createProject(db, {
    name: 'upload',
    timeZone: 'UTC',
    owner: { email: 'owner@example.com', userId: owner.userId },
  });
  await setFakeProvider(db, projectId, fake);
  const response = await fetch(`${server.url}/api/projects/${projectId}/knowledge/upload?name=hours.md`, {
    method: 'POST',
    headers: { cookie: owner.cookie, 'content-type': 'text/markdown' },
    body: HOURS,
  });
  expect(response.status).toBe(200);
  const doc = (await response.json()) as { id: number; status: string; chunkCount: number; title: string };
  expect(doc).toMatchObject({ status: 'indexing', chunkCount: 2, title: 'hours' });
  await waitFor(async () => (await statusOf(projectId, doc.id))?.status === 'ready', 'the uploaded document');
});

it('a job whose retries are spent fails its document through the dead letter queue, never leaving it indexing', async () => {
  const projectId = await project();
  // Stored as the upload stores it; its job's attempts all died (pg-boss then sends the data here).
  const doc = await storeDocument(
    db,
    projectId,
    textDocument({ title: 'Lost', kind: 'text', text: 'Gamma.' }),
  );
  await enqueue(knowledgeIndexGaveUpJob, { projectId, documentId: doc.id, full: false });
  const failed = await waitFor(async () => {
    const d = await statusOf(projectId, doc.id);
    return d?.status === 'failed' && d;
  }, 'the document to be failed');
  expect(failed.error).toMatch(/Indexing stopped after 4 attempts.*Re-index tries again/);
});

it("a worker's start queues the documents left indexing without a job, and only those", async () => {
  const projectId = await project();
  // Stored, and the process stopped before queueing its job.
  const orphan = await storeDocument(
    db,
    projectId,
    textDocument({ title: 'Orphan', kind: 'text', text: 'Delta.' }),
  );
  fake.nextEmbeddings({ hang: true });
  const queued = await queueDocument(
    db,
    projectId,
    textDocument({ title: 'Queued', kind: 'text', text: 'Epsilon.' }),
  );
  await waitFor(async () => fake.open() > 0, 'the queued document at the provider');
  expect(await resumeIndexing(db)).toBe(1);
  const boss = await getBoss();
  const [held] = await boss.findJobs(knowledgeIndexJob.name, { data: { documentId: queued.id } });
  await boss.fail(knowledgeIndexJob.name, held.id, { message: 'taken away by the test' });
  for (const doc of [orphan, queued])
    await waitFor(async () => (await statusOf(projectId, doc.id))?.status === 'ready', doc.title, 30_000);
  expect(await boss.findJobs(knowledgeIndexJob.name, { data: { documentId: queued.id } })).toHaveLength(1);
});
