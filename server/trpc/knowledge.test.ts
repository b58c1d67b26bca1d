import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '@/lib/knowledge/limits';
import { type FakeOpenAi, startFakeOpenAi } from '@/server/ai/testing/fake-openai';
import { resetEnvCache } from '@/server/config/env';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { startWorkers } from '@/server/jobs/jobs';
import { knowledgeIndexGaveUpJob, knowledgeIndexJob } from '@/server/knowledge/index-job';
import { uploadedBytes } from '@/server/knowledge/knowledge-http';
import { setFakeProvider } from '@/server/knowledge/test-support';
import { waitFor } from '@/server/testing/wait-for';
import { signedInCaller } from './testing/signed-in';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-knowledge-router-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let fake: FakeOpenAi;
const allowed = process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  resetEnvCache();
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  fake = await startFakeOpenAi({ dimensions: 64 });
  // Indexing is a job: the real worker runs it (server/knowledge/index-job.ts).
  await startWorkers([knowledgeIndexJob, knowledgeIndexGaveUpJob]);
});
afterAll(async () => {
  await fake?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
  if (allowed === undefined) delete process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
  else process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = allowed;
});

async function setup(tag: string) {
  const owner = await signedInCaller(db, `owner-${tag}@example.com`);
  const project = await owner.project.create({ name: tag, timeZone: 'UTC', withDemoBot: false });
  const operator = await signedInCaller(db, `op-${tag}@example.com`);
  await db.projectMember.create({
    data: {
      projectId: project.id,
      userId: `u-op-${tag}@example.com`,
      email: `op-${tag}@example.com`,
      role: 'operator',
    },
  });
  const stranger = await signedInCaller(db, `x-${tag}@example.com`);
  return { owner, operator, stranger, projectId: project.id };
}

describe('knowledge router', () => {
  it('without the AI plan or a provider, says so clearly, before and when a document is added', async () => {
    const { owner, operator, projectId } = await setup('none');
    expect(await operator.knowledge.missing({ projectId })).toEqual({
      reason: expect.stringMatching(/^AI features need the AI plan; this project is on the \w+ plan .*\.$/),
      setting: 'plan',
    });
    await db.project.update({ where: { id: projectId }, data: { plan: 'ai' } });
    expect(await owner.knowledge.missing({ projectId })).toEqual({
      reason: expect.stringMatching(/^No AI provider is configured/),
      setting: 'provider',
    });
    await expect(
      owner.knowledge.addText({ projectId, title: 'A', kind: 'text', text: 'Hello' }),
    ).rejects.toThrow(/No AI provider is configured for this project/);
    await expect(owner.knowledge.testSearch({ projectId, query: 'hello' })).rejects.toThrow(/No AI provider/);
    expect(await owner.knowledge.documents({ projectId })).toEqual([]);
  });

  it('owners and admins write, members read and test, strangers see nothing', async () => {
    const { owner, operator, stranger, projectId } = await setup('roles');
    await setFakeProvider(db, projectId, fake);
    expect(await operator.knowledge.missing({ projectId })).toBeNull();
    const doc = await owner.knowledge.addText({
      projectId,
      title: 'Hours',
      kind: 'markdown',
      text: '# Hours\nWe open at nine.\n\n# Prices\nCoffee costs two euros.',
    });
    // Stored at once; the job embeds it and the list shows it ready.
    expect(doc).toMatchObject({ status: 'indexing', chunkCount: 2 });
    const isReady = async () =>
      (await owner.knowledge.documents({ projectId })).find((d) => d.id === doc.id)?.status === 'ready';
    await waitFor(isReady, 'the document to be indexed');

    expect((await operator.knowledge.documents({ projectId })).map((d) => d.title)).toEqual(['Hours']);
    const { chunks } = await operator.knowledge.chunks({ projectId, documentId: doc.id });
    expect(chunks.map((c) => c.headingPath)).toEqual([['Hours'], ['Prices']]);
    const [hit] = await operator.knowledge.testSearch({ projectId, query: 'How much is a coffee?' });
    expect(hit).toMatchObject({ chunkId: chunks[1].id, title: 'Hours', headingPath: ['Prices'] });

    await expect(
      operator.knowledge.editChunk({ projectId, chunkId: chunks[0].id, text: 'x' }),
    ).rejects.toThrow(/owner or an admin/);
    await expect(operator.knowledge.delete({ projectId, documentId: doc.id })).rejects.toThrow(
      /owner or an admin/,
    );
    await expect(stranger.knowledge.documents({ projectId })).rejects.toThrow(/not a member/);

    const edited = await owner.knowledge.editChunk({
      projectId,
      chunkId: chunks[0].id,
      text: 'We open at ten.',
    });
    expect(edited.status).toBe('ready');
    expect((await owner.knowledge.reindex({ projectId, documentId: doc.id })).status).toBe('indexing');
    await waitFor(isReady, 'the re-index');
    await expect(owner.knowledge.addUrl({ projectId, url: 'ftp://example.com/x' })).rejects.toThrow(
      /https:\/\//,
    );
    await expect(owner.knowledge.addText({ projectId, title: ' ', kind: 'text', text: 'x' })).rejects.toThrow(
      /title: Give the document a title/,
    );
    await owner.knowledge.delete({ projectId, documentId: doc.id });
    expect(await owner.knowledge.documents({ projectId })).toEqual([]);
  });
});

describe('the upload route body', () => {
  it('refuses a 200 MB upload by its declared length without reading it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const request = new Request('http://localhost/upload', {
      method: 'POST',
      body,
      headers: { 'content-length': String(200 * 1024 * 1024) },
      duplex: 'half',
    } as RequestInit);
    const refused = await uploadedBytes(request);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(413);
    expect(await (refused as Response).json()).toEqual({
      error: 'The file is larger than 20 MB, the most a knowledge base document may be; split it into parts.',
      field: 'file',
    });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading an undeclared body as soon as it passes the cap', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1024 * 1024;
        if (sent > 200 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const request = new Request('http://localhost/upload', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    const refused = await uploadedBytes(request);
    expect((refused as Response).status).toBe(413);
    expect(sent).toBeLessThan(MAX_DOCUMENT_BYTES + 4 * 1024 * 1024);
  });

  it('passes a body within the cap', async () => {
    const bytes = await uploadedBytes(
      new Request('http://localhost/upload', { method: 'POST', body: 'hello' }),
    );
    expect(new TextDecoder().decode(bytes as Uint8Array)).toBe('hello');
  });
});
