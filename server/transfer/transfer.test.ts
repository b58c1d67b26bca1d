import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/config/env';
import { encryptSecret } from '@/server/config/secret-box';
import type { PrismaClient } from '@/server/db/client-type';
import { createEmbeddedTestDatabase, createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { fileAttachment, storeFile } from '@/server/files/stored-files';
import { loadBotSchema } from '@/server/projects/bot-schema-store';
import { createProject } from '@/server/projects/project-service';
import { listSecrets, loadSecrets, setSecret } from '@/server/secrets/secret-service';
import { loadVersionSchema, saveAndPublish } from '@/server/versions/bot-versions';
import { exportProject } from './export-project';
import { importProject } from './import-project';

/**
 * A rich project exported from an embedded (PGlite) database, imported into the other mode's
 * database (PostgreSQL with TEST_DATABASE_URL, another PGlite without), exported from there and
 * imported back: the same rows, the same history, new ids.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-transfer-'));
const KEY_A = 'aa'.repeat(32);
const KEY_B = 'bb'.repeat(32);
const PASSPHRASE = 'correct horse battery staple';
let source: TestDatabase;
let target: TestDatabase;
const savedKey = process.env.BLOCKBOT_ENCRYPTION_KEY;

/** Which instance's encryption key this process uses now (each database plays one instance). */
function instanceKey(key: string) {
  process.env.BLOCKBOT_ENCRYPTION_KEY = key;
  resetEnvCache();
}

beforeAll(async () => {
  [source, target] = await Promise.all([createEmbeddedTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
  if (savedKey === undefined) delete process.env.BLOCKBOT_ENCRYPTION_KEY;
  else process.env.BLOCKBOT_ENCRYPTION_KEY = savedKey;
  resetEnvCache();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const file = (name: string) => path.join(tmp, name);

const greets = (value: string) => ({
  id: 1,
  name: 'Greets',
  steps: [
    { action: { type: 'text', text: 'hi' }, expect: { messages: [{ text: { match: 'exact', value } }] } },
  ],
});

/** Builds the project on the source instance: everything an archive carries, and what it leaves out. */
async function richProject(db: PrismaClient) {
  instanceKey(KEY_A);
  const project = await createProject(db, {
    name: 'Shop',
    plan: 'business',
    owner: { email: 'ann@example.com' },
  });
  const projectId = project.id;
  await db.project.update({ where: { id: projectId }, data: { webhookUrl: 'https://crm.example/hook' } });
  await db.projectConstant.create({ data: { projectId, name: 'shop', value: 'Corner shop' } });
  await setSecret(db, projectId, 'CRM_TOKEN', 'tok-123');
  const list = await db.clientList.create({ data: { projectId, name: 'Newsletter' } });
  const won = await db.crmState.findFirstOrThrow({ where: { projectId, kind: 'won' } });
  const bot = (text: string) => ({
    format: 'blockbot/schema@1',
    blocks: [
      { id: 1, kind: 'start', text, trigger: { alternatives: '' } },
      { id: 2, kind: 'state', text: 'Menu', actions: { addToLists: [list.id], crmStateId: won.id } },
    ],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
    tests: [greets(text)],
  });
  await saveAndPublish(db, projectId, bot('Hello'), { userId: null, name: 'Ann' }, 'first');
  await saveAndPublish(db, projectId, bot('Hi there'), { userId: null, name: 'Ann' }, 'second');

  const tg = await db.channel.create({
    data: {
      projectId,
      kind: 'tg',
      clientType: 1,
      groupId: 'shop_bot',
      name: 'Shop bot',
      credentials: { token: encryptSecret('123:abc', `tg-channel:${projectId}:shop_bot`) },
    },
  });
  const widget = await db.channel.create({
    data: { projectId, kind: 'widget', clientType: 5, groupId: `w${projectId}key`, name: 'Site chat' },
  });
  const ann = await db.client.create({
    data: {
      projectId,
      platformId: '1001',
      groupId: tg.groupId,
      clientType: 1,
      name: 'Ann',
      currentBlockId: 2,
    },
  });
  const bob = await db.client.create({
    data: { projectId, platformId: 'v-1', groupId: widget.groupId, clientType: 5, name: 'Bob' },
  });
  await db.clientVariable.createMany({
    data: [
      { projectId, clientId: ann.id, name: 'city', value: 'Berlin', valueKey: 'Berlin' },
      { projectId, clientId: ann.id, name: 'size', value: 'M', valueKey: 'M' },
      { projectId, clientId: bob.id, name: 'city', value: 'Oslo', valueKey: 'Oslo' },
    ],
  });
  await db.clientChannelState.create({
    data: { clientId: ann.id, key: 'business_connection', value: 'bc-1' },
  });
  await db.widgetVisitor.create({
    data: { channelId: widget.id, clientId: bob.id, tokenHash: 'f'.repeat(64) },
  });
  const receipt = await storeFile(db, {
    projectId,
    clientId: ann.id,
    name: 'receipt.png',
    mimeType: 'image/png',
    bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]),
  });
  const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, s));
  const history = [
    { direction: 'in', text: 'hi', messageFromOutside: 0 },
    { direction: 'out', text: 'Hello', blockId: 1, status: 'delivered' },
    { direction: 'in', text: '', attachments: [fileAttachment(receipt)] },
    { direction: 'out', text: 'Menu', blockId: 2, buttons: [{ text: 'Prices' }], status: 'read' },
    { direction: 'out', text: 'An operator here', messageFromOutside: 2, status: 'sent' },
  ] as const;
  for (const [i, m] of history.entries())
    await db.message.create({ data: { projectId, clientId: ann.id, createdAt: at(i), ...m } });
  await db.message.create({
    data: { projectId, clientId: bob.id, direction: 'in', text: 'hello from the site' },
  });
  await db.clientListMember.create({ data: { projectId, listId: list.id, clientId: ann.id } });
  const deal = await db.deal.create({
    data: { projectId, clientId: ann.id, stateId: won.id, closedAt: at(9) },
  });
  await db.dealVariable.create({
    data: { projectId, dealId: deal.id, name: 'total', value: '42', valueKey: '42' },
  });
  await db.submission.create({
    data: { projectId, clientId: ann.id, dealId: deal.id, blockId: 2, variables: { total: '42' } },
  });
  await db.flowCount.createMany({
    data: [
      {
        projectId,
        version: 2,
        day: new Date('2026-12-01'),
        kind: 'stage',
        targetId: won.id,
        count: 1,
        visitors: new Uint8Array([1]),
      },
      {
        projectId,
        version: 2,
        day: new Date('2026-12-01'),
        kind: 'block',
        targetId: 2,
        count: 5,
        visitors: new Uint8Array([2]),
      },
    ],
  });
  await db.aiProvider.create({
    data: {
      projectId,
      name: 'OpenAI',
      baseUrl: 'https://api.example/v1',
      chatModel: 'gpt-x',
      apiKeySecret: 'CRM_TOKEN',
    },
  });
  await db.aiAssistant.create({ data: { projectId, settings: { provider: 'OpenAI', fallbackBlockId: 2 } } });
  const doc = await db.knowledgeDocument.create({
    data: {
      projectId,
      title: 'Opening hours',
      sourceKind: 'text',
      status: 'ready',
      chunkSize: 800,
      byteSize: 30,
    },
  });
  await db.knowledgeChunk.create({
    data: {
      projectId,
      documentId: doc.id,
      position: 0,
      headingPath: ['Hours'],
      text: 'Open 9 to 5 on weekdays',
    },
  });
  return { projectId, listId: list.id, wonId: won.id };
}

/** What a project holds, counted table by table (channels apart: connected ones stay behind). */
async function counts(db: PrismaClient, projectId: number) {
  const where = { projectId };
  return {
    constants: await db.projectConstant.count({ where }),
    funnels: await db.crmFunnel.count({ where }),
    states: await db.crmState.count({ where }),
    lists: await db.clientList.count({ where }),
    blocks: await db.block.count({ where }),
    arrows: await db.arrow.count({ where }),
    tests: await db.botTest.count({ where }),
    versions: await db.botVersion.count({ where }),
    clients: await db.client.count({ where }),
    clientVariables: await db.clientVariable.count({ where }),
    channelStates: await db.clientChannelState.count({ where: { client: where } }),
    deals: await db.deal.count({ where }),
    dealVariables: await db.dealVariable.count({ where }),
    listMembers: await db.clientListMember.count({ where }),
    files: await db.storedFile.count({ where }),
    messages: await db.message.count({ where }),
    submissions: await db.submission.count({ where }),
    flowCounts: await db.flowCount.count({ where }),
    aiProviders: await db.aiProvider.count({ where }),
    aiAssistants: await db.aiAssistant.count({ where }),
    knowledgeDocuments: await db.knowledgeDocument.count({ where }),
    knowledgeChunks: await db.knowledgeChunk.count({ where }),
  };
}

/** A client's whole history as it reads: order, sender, texts, buttons, times. */
async function history(db: PrismaClient, projectId: number, platformId: string) {
  const client = await db.client.findFirstOrThrow({ where: { projectId, platformId } });
  const messages = await db.message.findMany({ where: { clientId: client.id }, orderBy: { id: 'asc' } });
  return messages.map((m) => ({
    direction: m.direction,
    text: m.text,
    from: m.messageFromOutside,
    blockId: m.blockId,
    buttons: m.buttons,
    status: m.status,
    at: m.createdAt.toISOString(),
    attachments: (m.attachments as { type: string }[]).map((a) => a.type),
  }));
}

const projectTotal = (db: PrismaClient) => db.project.count();

describe('moving a project between instances', { timeout: 120_000 }, () => {
  let origin: Awaited<ReturnType<typeof richProject>>;
  let movedId: number;

  it('exports a project from PGlite and imports it into the other database: the same rows, new ids, and a report', async () => {
    origin = await richProject(source.prisma);
    const exported = await exportProject(source.prisma, origin.projectId, file('shop.gz'), {
      mode: 'embedded',
    });
    expect(exported).toMatchObject({
      withSecrets: false,
      counts: { client: 2, message: 6, version: 2, file: 1 },
    });

    instanceKey(KEY_B);
    // An existing project first, so the target's ids differ from the source's.
    await createProject(target.prisma, { name: 'Already here' });
    const report = await importProject(target.prisma, file('shop.gz'), {
      owner: { email: 'Ops@Example.com' },
      withIdMap: true,
    });
    movedId = report.projectId;
    expect(movedId).not.toBe(origin.projectId);
    expect(report.counts).toMatchObject({
      project: 1,
      blocks: 2,
      arrows: 1,
      tests: 1,
      version: 2,
      client: 2,
      clientVariable: 3,
      message: 6,
      list: 1,
      listMember: 1,
      funnel: 1,
      state: 4,
      deal: 1,
      dealVariable: 1,
      file: 1,
      channel: 1,
      widgetVisitor: 1,
      knowledgeChunk: 1,
    });
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          what: 'tg channel "Shop bot" (shop_bot)',
          reason: expect.stringContaining('connect it again'),
        }),
        expect.objectContaining({ what: 'project secrets (CRM_TOKEN)', count: 1 }),
        expect.objectContaining({ what: 'webhook signing secret' }),
        expect.objectContaining({ what: 'AI provider API keys' }),
      ]),
    );
    expect(report.notes.join('\n')).toContain('API keys are not moved');
    // Integrations that keep ids look the new ones up in the id map.
    const annBefore = await source.prisma.client.findFirstOrThrow({
      where: { projectId: origin.projectId, name: 'Ann' },
    });
    const annAfter = await target.prisma.client.findFirstOrThrow({
      where: { projectId: movedId, name: 'Ann' },
    });
    expect(report.idMap?.client[annBefore.id]).toBe(annAfter.id);
    expect(report.idMap?.list[origin.listId]).toBe(
      (await target.prisma.clientList.findFirstOrThrow({ where: { projectId: movedId } })).id,
    );

    const before = await counts(source.prisma, origin.projectId);
    expect(await counts(target.prisma, movedId)).toEqual(before);
    expect(await history(target.prisma, movedId, '1001')).toEqual(
      await history(source.prisma, origin.projectId, '1001'),
    );
    expect((await history(target.prisma, movedId, '1001')).map((m) => m.text)).toEqual([
      'hi',
      'Hello',
      '',
      'Menu',
      'An operator here',
    ]);

    const moved = await target.prisma.project.findUniqueOrThrow({ where: { id: movedId } });
    expect(moved).toMatchObject({
      name: 'Shop',
      plan: 'business',
      publishedVersion: 2,
      webhookUrl: 'https://crm.example/hook',
    });
    // The draft is the published bot, as it was; its block actions name the new list and stage.
    expect(moved.publishedRevision).toBe(moved.schemaRevision);
    const list = await target.prisma.clientList.findFirstOrThrow({ where: { projectId: movedId } });
    const won = await target.prisma.crmState.findFirstOrThrow({ where: { projectId: movedId, kind: 'won' } });
    const published = await loadVersionSchema(target.prisma, movedId, 2);
    expect(published.blocks[0].text).toBe('Hi there');
    expect(published.blocks[1].actions).toEqual({
      addToLists: [list.id],
      removeFromLists: [],
      crmStateId: won.id,
    });
    expect((await loadVersionSchema(target.prisma, movedId, 1)).blocks[0].text).toBe('Hello');
    expect((await loadBotSchema(target.prisma, movedId, { withTests: true })).schema.tests).toEqual([
      expect.objectContaining({ name: 'Greets' }),
    ]);
    const deal = await target.prisma.deal.findFirstOrThrow({
      where: { projectId: movedId },
      include: { client: true },
    });
    expect(deal).toMatchObject({ stateId: won.id, client: { name: 'Ann' } });
    expect(
      await target.prisma.flowCount.findFirstOrThrow({ where: { projectId: movedId, kind: 'stage' } }),
    ).toMatchObject({ targetId: won.id, count: 1 });

    // The file is this instance's own, and the message shows it at this instance's address.
    const stored = await target.prisma.storedFile.findFirstOrThrow({ where: { projectId: movedId } });
    expect(Buffer.from(stored.bytes)).toEqual(Buffer.from([137, 80, 78, 71, 1, 2, 3]));
    const withFile = await target.prisma.message.findFirstOrThrow({
      where: { projectId: movedId, text: '' },
    });
    expect(JSON.stringify(withFile.attachments)).toContain(`/api/files/${stored.id}/receipt.png?sig=`);

    // Secrets stay behind; members are only the owner given; the webhook secret is new.
    expect(await listSecrets(target.prisma, movedId)).toEqual([]);
    expect(await target.prisma.projectMember.findMany({ where: { projectId: movedId } })).toMatchObject([
      { email: 'ops@example.com', role: 'owner' },
    ]);
    const sourceProject = await source.prisma.project.findUniqueOrThrow({ where: { id: origin.projectId } });
    expect(moved.webhookSecret).not.toBe(sourceProject.webhookSecret);
    const channels = await target.prisma.channel.findMany({ where: { projectId: movedId } });
    expect(channels).toMatchObject([{ kind: 'widget', name: 'Site chat', credentials: {} }]);
  });

  it('exports it from there and imports it back into PGlite: the same again', async () => {
    await exportProject(target.prisma, movedId, file('back.gz'), { mode: target.mode });
    instanceKey(KEY_A);
    const report = await importProject(source.prisma, file('back.gz'), { name: 'Shop (back)' });
    expect(report.name).toBe('Shop (back)');
    // The widget is still on this instance under its key: the copy has none.
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          what: 'widget channel "Site chat" (w1key)',
          reason: expect.stringContaining('already'),
        }),
        expect.objectContaining({ what: 'widget visitors', reason: 'their widget was not moved' }),
      ]),
    );
    expect(await counts(source.prisma, report.projectId)).toEqual(
      await counts(source.prisma, origin.projectId),
    );
    expect(await history(source.prisma, report.projectId, '1001')).toEqual(
      await history(source.prisma, origin.projectId, '1001'),
    );
    expect((await loadVersionSchema(source.prisma, report.projectId, 2)).blocks[0].text).toBe('Hi there');
  });

  it('moves secrets only with the key: sealed in the archive, sealed again with the target instance key', async () => {
    instanceKey(KEY_A);
    const archive = file('secrets.gz');
    await exportProject(source.prisma, origin.projectId, archive, {
      mode: 'embedded',
      secretsKey: PASSPHRASE,
    });
    const text = zlib.gunzipSync(fs.readFileSync(archive)).toString('utf8');
    expect(text).not.toContain('tok-123');
    const sourceProject = await source.prisma.project.findUniqueOrThrow({ where: { id: origin.projectId } });
    expect(text).not.toContain(sourceProject.webhookSecret);

    instanceKey(KEY_B);
    const projects = await projectTotal(target.prisma);
    await expect(importProject(target.prisma, archive, {})).rejects.toThrow('this archive carries secrets');
    await expect(
      importProject(target.prisma, archive, { secretsKey: 'not the right passphrase' }),
    ).rejects.toThrow('the archive key is wrong');
    expect(await projectTotal(target.prisma)).toBe(projects);

    const report = await importProject(target.prisma, archive, { secretsKey: PASSPHRASE });
    expect(report.skipped.map((s) => s.what)).not.toContain('project secrets (CRM_TOKEN)');
    expect(await loadSecrets(target.prisma, report.projectId)).toEqual(new Map([['CRM_TOKEN', 'tok-123']]));
    const moved = await target.prisma.project.findUniqueOrThrow({ where: { id: report.projectId } });
    expect(moved.webhookSecret).toBe(sourceProject.webhookSecret);
    // Sealed with this instance's key, not the source's.
    instanceKey(KEY_A);
    await expect(loadSecrets(target.prisma, report.projectId)).rejects.toThrow('does not open with this key');
    // An instance that cannot open its own secrets (another key) says so, and writes no archive.
    instanceKey(KEY_B);
    const refused = file('refused.gz');
    await expect(
      exportProject(source.prisma, origin.projectId, refused, { mode: 'embedded', secretsKey: PASSPHRASE }),
    ).rejects.toThrow(
      "the project's secrets cannot be exported: the sealed secret does not open with this key",
    );
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('refused'))).toEqual([]);
  });

  it('refuses a broken archive with an error naming what is wrong, and imports nothing of it', async () => {
    const lines = zlib
      .gunzipSync(fs.readFileSync(file('shop.gz')))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    const write = (name: string, body: string | Buffer) => {
      fs.writeFileSync(file(name), typeof body === 'string' ? zlib.gzipSync(body) : body);
      return file(name);
    };
    const messageLine = lines.findIndex((l) => l.startsWith('{"t":"message"'));
    const badMessage = lines.map((l, i) =>
      i === messageLine ? l.replace('"direction":"in"', '"direction":"sideways"') : l,
    );
    const lostClient = lines.map((l, i) =>
      i === messageLine ? l.replace(/"clientId":\d+/, '"clientId":99999') : l,
    );
    const fileLine = lines.findIndex((l) => l.startsWith('{"t":"file"'));
    const badBytes = lines.map((l, i) =>
      i === fileLine ? l.replace(/"bytes":"[^"]+"/, '"bytes":"AAAA"') : l,
    );
    const projects = await projectTotal(target.prisma);
    const cases: [string, string][] = [
      [write('bad-bytes.gz', `${badBytes.join('\n')}\n`), 'stored file "receipt.png" is damaged'],
      [
        write('bad-record.gz', `${badMessage.join('\n')}\n`),
        `line ${messageLine + 1} (message): direction: `,
      ],
      [
        write('lost-client.gz', `${lostClient.join('\n')}\n`),
        `line ${messageLine + 1}: client 99999 is not in the archive`,
      ],
      [
        write('no-end.gz', `${lines.slice(0, -1).join('\n')}\n`),
        'was cut off: it has no end record; nothing was imported',
      ],
      [
        write('cut.gz', fs.readFileSync(file('shop.gz')).subarray(0, 400)),
        'is not a whole Blockbot project archive',
      ],
      [write('plain.gz', Buffer.from('{"t":"header"}\n')), 'is not a whole Blockbot project archive'],
      [
        write('not-ours.gz', '{"hello":"world"}\n'),
        'is not a Blockbot project archive (line 1 (header): t: ',
      ],
    ];
    for (const [archive, message] of cases) {
      await expect(importProject(target.prisma, archive, {}), archive).rejects.toThrow(message);
      expect(await projectTotal(target.prisma)).toBe(projects);
    }
    // Rows of a refused import are gone with it, not only its project row.
    expect(await target.prisma.client.count({ where: { name: 'Ann' } })).toBe(2);
  });

  it('refuses to export a project that does not exist, and writes no file then', async () => {
    await expect(
      exportProject(source.prisma, 999_999, file('none.gz'), { mode: 'embedded' }),
    ).rejects.toThrow('Project 999999 does not exist.');
    expect(fs.existsSync(file('none.gz'))).toBe(false);
  });
});
