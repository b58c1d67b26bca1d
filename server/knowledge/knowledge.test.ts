import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '@/lib/knowledge/limits';
import type { PrismaClient } from '@/server/db/client-type';
import { pgvectorAvailable } from '@/server/db/knowledge-sql';
import { plainSql } from '@/server/db/raw-sql';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import {
  addDocument,
  addTextDocument,
  addUrlDocument,
  deleteDocument,
  documentChunks,
  editChunk,
  listDocuments,
  reindexDocument,
} from './documents';
import { parseDocument } from './parse-document';
import { searchKnowledge, searchWithEmbedder } from './search';
import { brokenEmbedder, hashedVector, hashingEmbedder, minimalPdf } from './test-support';

let tdb: TestDatabase;
let db: PrismaClient;
let server: http.Server;
let base: string;

const FAQ = `# Shop help

## Returns
You can return an item within 30 days of delivery. Keep the receipt and the original box.

## Shipping
Orders ship in two working days. Delivery abroad takes a week.

## Payment
We accept cards and bank transfers. Invoices are sent by e-mail.`;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.prisma;
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  server = http.createServer((req, res) => {
    if (req.url === '/page')
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<title>Opening hours</title><nav>Menu</nav><h1>Hours</h1><p>We open at nine on weekdays.</p>');
    if (req.url === '/doc.pdf')
      return res
        .writeHead(200, { 'content-type': 'application/pdf' })
        .end(minimalPdf(['Warranty lasts two years.']));
    if (req.url === '/image') return res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    if (req.url === '/huge') {
      // Streamed with no length: the cap must cut it while it arrives.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const block = 'x'.repeat(1024 * 1024);
      void (async () => {
        for (let sent = 0; sent < 40 && !res.destroyed; sent++)
          if (!res.write(block)) await once(res, 'drain').catch(() => {});
        res.end();
      })();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await tdb?.close();
});

let projects = 0;
const newProject = async () =>
  (await db.project.create({ data: { name: `kb ${++projects}`, webhookSecret: 'whsec_test' } })).id;

const ask = (projectId: number, question: string, limit = 3) =>
  searchKnowledge(db, projectId, question, hashedVector(question, 256), { limit });

describe('parsing each format', () => {
  it('reads a real PDF page by page', async () => {
    const parsed = await parseDocument('pdf', minimalPdf(['Refund policy', 'Returns within (30) days.']));
    expect(parsed.sections).toEqual([
      { headingPath: ['Page 1'], text: 'Refund policy\nReturns within (30) days.' },
    ]);
  });

  it('refuses a file that is not a PDF, and a broken one, clearly', async () => {
    await expect(parseDocument('pdf', new TextEncoder().encode('just text'))).rejects.toThrow(
      /not a PDF \(it does not start with "%PDF-"\)/,
    );
    await expect(parseDocument('pdf', new TextEncoder().encode('%PDF-1.4\ngarbage'))).rejects.toThrow(
      /The PDF could not be read/,
    );
  });

  it('reads text, Markdown and HTML bytes', async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect((await parseDocument('text', enc('Hello.'))).sections).toEqual([
      { headingPath: [], text: 'Hello.' },
    ]);
    expect((await parseDocument('markdown', enc('# T\nBody'))).sections).toEqual([
      { headingPath: ['T'], text: 'Body' },
    ]);
    expect(await parseDocument('html', enc('<title>X</title><h1>H</h1><p>P</p>'))).toEqual({
      title: 'X',
      sections: [{ headingPath: ['H'], text: 'P' }],
    });
  });
});

describe('indexing and retrieval', () => {
  it('ranks the chunk that answers the question first, with its heading path', async () => {
    const projectId = await newProject();
    const embedder = hashingEmbedder();
    const doc = await addTextDocument(
      db,
      projectId,
      { title: 'FAQ', kind: 'markdown', text: FAQ, chunkSize: 200 },
      embedder,
    );
    expect(doc).toMatchObject({
      status: 'ready',
      error: null,
      chunkCount: 3,
      sourceKind: 'markdown',
      chunkSize: 200,
    });
    await addTextDocument(
      db,
      projectId,
      { title: 'About', kind: 'text', text: 'We are a small shop in Lisbon selling ceramics since 1999.' },
      embedder,
    );

    const [top, ...rest] = await ask(projectId, 'How many days do I have to return an item?');
    expect(top).toMatchObject({ title: 'FAQ', headingPath: ['Shop help', 'Returns'], documentId: doc.id });
    expect(top.text).toContain('within 30 days');
    expect(top.score).toBeGreaterThan(rest[0]?.score ?? 0);
    expect((await ask(projectId, 'Which payment methods: cards?'))[0].headingPath).toEqual([
      'Shop help',
      'Payment',
    ]);
    expect((await ask(projectId, 'Do you sell ceramics in Lisbon?'))[0].title).toBe('About');
  });

  it('embeds in batches and records the model and dimension', async () => {
    const projectId = await newProject();
    const embedder = hashingEmbedder();
    const paragraph = (i: number) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(6)}`.trim();
    const text = Array.from({ length: 150 }, (_, i) => paragraph(i)).join('\n\n');
    const doc = await addTextDocument(
      db,
      projectId,
      { title: 'Long', kind: 'text', text, chunkSize: 200 },
      embedder,
    );
    expect(doc.chunkCount).toBe(150);
    expect(embedder.calls.map((c) => c.length)).toEqual([64, 64, 22]);
    const chunk = await db.knowledgeChunk.findFirstOrThrow({ where: { documentId: doc.id } });
    expect(chunk).toMatchObject({ embeddingModel: 'hash-bow-256', dimensions: 256 });
    expect(chunk.embedding?.byteLength).toBe(256 * 4);
  });

  it('an edited chunk is embedded again alone, and searched by its new text', async () => {
    const projectId = await newProject();
    const embedder = hashingEmbedder();
    const doc = await addTextDocument(
      db,
      projectId,
      { title: 'FAQ', kind: 'markdown', text: FAQ, chunkSize: 200 },
      embedder,
    );
    const { chunks } = await documentChunks(db, projectId, doc.id);
    const shipping = chunks.find((c) => c.headingPath.includes('Shipping'));
    if (!shipping) throw new Error('no shipping chunk');
    const before = await db.knowledgeChunk.findMany({
      where: { documentId: doc.id },
      orderBy: { id: 'asc' },
    });
    embedder.calls.length = 0;

    const after = await editChunk(
      db,
      projectId,
      shipping.id,
      'Parcels travel by zeppelin to Antarctica.',
      embedder,
    );
    expect(after.status).toBe('ready');
    expect(embedder.calls).toEqual([['Shop help › Shipping\n\nParcels travel by zeppelin to Antarctica.']]);
    const now = await db.knowledgeChunk.findMany({ where: { documentId: doc.id }, orderBy: { id: 'asc' } });
    for (const [i, c] of now.entries()) {
      if (c.id === shipping.id) expect(c.embedding).not.toEqual(before[i].embedding);
      else expect(c.embedding).toEqual(before[i].embedding);
    }
    const [top] = await ask(projectId, 'zeppelin Antarctica');
    expect(top).toMatchObject({ chunkId: shipping.id, text: 'Parcels travel by zeppelin to Antarctica.' });

    // Re-indexing with nothing stale embeds nothing; a full re-index embeds every chunk.
    embedder.calls.length = 0;
    await reindexDocument(db, projectId, doc.id, embedder);
    expect(embedder.calls).toEqual([]);
    await reindexDocument(db, projectId, doc.id, embedder, { full: true });
    expect(embedder.calls.flat()).toHaveLength(3);
  });

  it('a new embedding model re-embeds the chunks the old one embedded', async () => {
    const projectId = await newProject();
    const doc = await addTextDocument(
      db,
      projectId,
      { title: 'FAQ', kind: 'markdown', text: FAQ },
      hashingEmbedder(),
    );
    const other = hashingEmbedder(128);
    await reindexDocument(db, projectId, doc.id, other);
    expect(other.calls.flat()).toHaveLength(doc.chunkCount);
    const found = await searchKnowledge(db, projectId, 'return', hashedVector('return an item', 128));
    expect(found[0].headingPath).toEqual(['Shop help', 'Returns']);
  });

  it("never compares a model's question with another model's chunks of the same dimension", async () => {
    const projectId = await newProject();
    const one = hashingEmbedder(256, 'model-one');
    const two = hashingEmbedder(256, 'model-two');
    await addTextDocument(db, projectId, { title: 'One', kind: 'text', text: 'Alpha beta gamma.' }, one);
    const second = await addTextDocument(
      db,
      projectId,
      { title: 'Two', kind: 'text', text: 'Delta epsilon.' },
      two,
    );
    // No words to match: the vector side alone.
    const hits = await searchKnowledge(db, projectId, '', hashedVector('alpha beta gamma', 256), {
      limit: 10,
      model: 'model-two',
    });
    expect(hits.map((h) => h.documentId)).toEqual([second.id]);
    expect((await searchWithEmbedder(db, projectId, 'gamma?', one))[0].title).toBe('One');
  });

  it('vectors of the wrong dimension, or a failing embedder, fail that document clearly and lose nothing else', async () => {
    const projectId = await newProject();
    const good = await addTextDocument(
      db,
      projectId,
      { title: 'FAQ', kind: 'markdown', text: FAQ },
      hashingEmbedder(),
    );

    const wrong = await addTextDocument(
      db,
      projectId,
      { title: 'Bad', kind: 'text', text: 'Some other text.' },
      brokenEmbedder('wrong-dimensions'),
    );
    expect(wrong.status).toBe('failed');
    expect(wrong.error).toMatch(
      /^Indexing failed: the embedding model "hash-bow-256" returned a vector of 3 numbers where this project's knowledge base has 256/,
    );
    const down = await addTextDocument(
      db,
      projectId,
      { title: 'Down', kind: 'text', text: 'More text.' },
      brokenEmbedder('throws'),
    );
    expect(down).toMatchObject({
      status: 'failed',
      error: 'Indexing failed: the provider answered HTTP 503',
      chunkCount: 1,
    });

    expect((await listDocuments(db, projectId)).map((d) => [d.title, d.status])).toEqual([
      ['Down', 'failed'],
      ['Bad', 'failed'],
      ['FAQ', 'ready'],
    ]);
    const hits = await ask(projectId, 'return an item other text', 10);
    expect(new Set(hits.map((h) => h.documentId))).toEqual(new Set([good.id]));

    // Once the provider is back, a re-index makes it ready and searchable.
    const fixed = await reindexDocument(db, projectId, down.id, hashingEmbedder());
    expect(fixed).toMatchObject({ status: 'ready', error: null });
    expect((await ask(projectId, 'More text'))[0].documentId).toBe(down.id);
  });

  it('another project never sees the chunks', async () => {
    const mine = await newProject();
    const theirs = await newProject();
    const doc = await addTextDocument(
      db,
      theirs,
      { title: 'Secret', kind: 'text', text: 'The vault code is 4711.' },
      hashingEmbedder(),
    );
    await addTextDocument(
      db,
      mine,
      { title: 'Mine', kind: 'text', text: 'Nothing here about codes.' },
      hashingEmbedder(),
    );
    const hits = await ask(mine, 'vault code 4711', 10);
    expect(hits.every((h) => h.title === 'Mine')).toBe(true);
    await expect(documentChunks(db, mine, doc.id)).rejects.toThrow(/No document/);
    const chunk = await db.knowledgeChunk.findFirstOrThrow({ where: { documentId: doc.id } });
    await expect(editChunk(db, mine, chunk.id, 'mine now', hashingEmbedder())).rejects.toThrow(/No chunk/);
    await expect(deleteDocument(db, mine, doc.id)).rejects.toThrow(/No document/);
    expect((await ask(theirs, 'vault code'))[0].title).toBe('Secret');
  });

  it("another instance's change reaches this process's vector cache by the project's revision", async () => {
    const projectId = await newProject();
    const doc = await addTextDocument(
      db,
      projectId,
      { title: 'FAQ', kind: 'markdown', text: FAQ },
      hashingEmbedder(),
    );
    const vector = hashedVector('return an item within 30 days', 256);
    const vectorOnly = () => searchKnowledge(db, projectId, '', vector, { limit: 10 });
    expect(await vectorOnly()).toHaveLength(3);
    // Written as another instance would, without this process's knowledge: the cache is only
    // told by the revision.
    await db.knowledgeDocument.update({ where: { id: doc.id }, data: { status: 'failed' } });
    expect(await vectorOnly()).toHaveLength(3);
    await db.project.update({ where: { id: projectId }, data: { knowledgeRevision: { increment: 1 } } });
    expect(await vectorOnly()).toEqual([]);
  });

  it('a deleted document leaves the search at once', async () => {
    const projectId = await newProject();
    const doc = await addTextDocument(
      db,
      projectId,
      { title: 'FAQ', kind: 'markdown', text: FAQ },
      hashingEmbedder(),
    );
    expect(await ask(projectId, 'return an item')).not.toEqual([]);
    await deleteDocument(db, projectId, doc.id);
    expect(await ask(projectId, 'return an item')).toEqual([]);
    expect(await db.knowledgeChunk.count({ where: { documentId: doc.id } })).toBe(0);
  });

  it('adds PDFs and web pages; refuses what it cannot read before storing anything', async () => {
    const projectId = await newProject();
    const pdf = await addDocument(
      db,
      projectId,
      { title: 'Warranty', kind: 'pdf', bytes: minimalPdf(['Warranty lasts two years.']) },
      hashingEmbedder(),
    );
    expect(pdf).toMatchObject({ status: 'ready', sourceKind: 'pdf', chunkCount: 1 });
    await expect(
      addDocument(
        db,
        projectId,
        { title: 'Fake', kind: 'pdf', bytes: new TextEncoder().encode('hello') },
        hashingEmbedder(),
      ),
    ).rejects.toThrow(/not a PDF/);

    const page = await addUrlDocument(db, projectId, { url: `${base}/page` }, hashingEmbedder());
    expect(page).toMatchObject({
      title: 'Opening hours',
      sourceKind: 'url',
      sourceUrl: `${base}/page`,
      status: 'ready',
    });
    expect((await documentChunks(db, projectId, page.id)).chunks).toMatchObject([
      { headingPath: ['Hours'], text: 'We open at nine on weekdays.' },
    ]);
    const remotePdf = await addUrlDocument(
      db,
      projectId,
      { url: `${base}/doc.pdf`, title: 'Remote' },
      hashingEmbedder(),
    );
    expect(remotePdf).toMatchObject({ title: 'Remote', sourceKind: 'url', status: 'ready' });

    await expect(addUrlDocument(db, projectId, { url: `${base}/image` }, hashingEmbedder())).rejects.toThrow(
      /"image\/png"; only HTML, PDF, Markdown and plain text pages/,
    );
    await expect(
      addUrlDocument(db, projectId, { url: `${base}/missing` }, hashingEmbedder()),
    ).rejects.toThrow(/HTTP 404/);
    await expect(addUrlDocument(db, projectId, { url: `${base}/huge` }, hashingEmbedder())).rejects.toThrow(
      /larger than 20 MB/,
    );
    await expect(
      addTextDocument(db, projectId, { title: 'Empty', kind: 'text', text: ' \n ' }, hashingEmbedder()),
    ).rejects.toThrow(/no text to index/);
    expect(await db.knowledgeDocument.count({ where: { projectId } })).toBe(3);
  });

  it('refuses a document over the size cap, naming the cap', async () => {
    const projectId = await newProject();
    await expect(
      addDocument(
        db,
        projectId,
        { title: 'Big', kind: 'text', bytes: new Uint8Array(MAX_DOCUMENT_BYTES + 1) },
        hashingEmbedder(),
      ),
    ).rejects.toThrow(/at most 20 MB can be added/);
  });

  it('tells whether pgvector could be installed', async () => {
    const [row] = await plainSql(db).run(pgvectorAvailable, {});
    expect(typeof row.available).toBe('boolean');
  });
});
