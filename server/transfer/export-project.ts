import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveHeader,
  type RecordInput,
  type RecordKind,
} from '@/lib/transfer/archive-format';
import { SecretBoxError } from '@/server/config/secret-box';
import type { PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { readMigrations } from '@/server/db/migration-files';
import { notFound } from '@/server/errors';
import { loadBotSchema } from '@/server/projects/bot-schema-store';
import { loadSecrets } from '@/server/secrets/secret-service';
import { writeArchive } from './archive-file';
import { newArchiveKey, sealForArchive } from './archive-key';
import { TransferError } from './transfer-error';

/**
 * Writes one project to an archive (lib/transfer/archive-format.ts): its settings, draft and
 * versions, clients with their variables and history, lists, CRM, files, analytics counts, AI
 * settings and knowledge base. Read in one repeatable-read transaction, a consistent picture of
 * a project that keeps running; the big tables page by key. Not written: members, API keys,
 * what is queued or running (outbox, jobs, timers, broadcasts), logs and rate windows.
 */

export interface ExportOptions {
  /** Seal the project's secrets and webhook secret into the archive with this passphrase. */
  secretsKey?: string;
  mode: 'embedded' | 'server';
}

export interface ExportSummary {
  counts: Partial<Record<RecordKind, number>>;
  withSecrets: boolean;
}

const PAGE = 500;
/** Stored files are big: fewer of them at a time. */
const FILE_PAGE = 20;
/** Long enough for a project with a long history, on a loaded machine. */
const EXPORT_TRANSACTION = {
  timeout: 60 * 60_000,
  maxWait: 30_000,
  isolationLevel: 'RepeatableRead',
} as const;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** Rows of a table page by page, each page read after the last row of the one before. */
async function* paged<T>(read: (last: T | undefined) => Promise<T[]>, size = PAGE): AsyncGenerator<T> {
  let last: T | undefined;
  for (;;) {
    const rows = await read(last);
    yield* rows;
    if (rows.length < size) return;
    last = rows.at(-1);
  }
}

export async function exportProject(
  db: PrismaClient,
  projectId: number,
  file: string,
  options: ExportOptions,
): Promise<ExportSummary> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { name: true } });
  if (!project) throw notFound(`Project ${projectId} does not exist.`);
  const sealing = options.secretsKey !== undefined ? newArchiveKey(options.secretsKey) : undefined;
  const counts: Partial<Record<RecordKind, number>> = {};
  const header: ArchiveHeader = {
    t: 'header',
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: new Date(),
    source: {
      migration: readMigrations().at(-1)?.name ?? '',
      mode: options.mode,
      projectId,
      projectName: project.name,
    },
    ...(sealing ? { secrets: sealing.header } : {}),
  };
  await db.$transaction(async (tx) => {
    async function* records() {
      yield header;
      for await (const [t, r] of projectRecords(tx, projectId, sealing?.key)) {
        counts[t] = (counts[t] ?? 0) + 1;
        yield { t, r };
      }
      yield { t: 'end', counts };
    }
    await writeArchive(file, records());
  }, EXPORT_TRANSACTION);
  return { counts, withSecrets: Boolean(sealing) };
}

type Entry = { [K in RecordKind]: [K, RecordInput<K>] }[RecordKind];

async function* projectRecords(
  tx: Prisma.TransactionClient,
  projectId: number,
  secretsKey: Buffer | undefined,
): AsyncGenerator<Entry> {
  const p = await tx.project.findUniqueOrThrow({ where: { id: projectId } });
  const secretNames = secretsKey
    ? []
    : (
        await tx.projectSecret.findMany({
          where: { projectId },
          select: { name: true },
          orderBy: { name: 'asc' },
        })
      ).map((s) => s.name);
  yield [
    'project',
    {
      name: p.name,
      plan: p.plan,
      timeZone: p.timeZone,
      webhookUrl: p.webhookUrl,
      ...(secretsKey ? { webhookSecret: sealForArchive(secretsKey, 'webhook-secret', p.webhookSecret) } : {}),
      secretsLeftOut: secretNames,
      webhookTestConversations: p.webhookTestConversations,
      operatorsSendBroadcasts: p.operatorsSendBroadcasts,
      apiAllowedOrigins: p.apiAllowedOrigins,
      publishedVersion: p.publishedVersion,
      draftIsPublished: p.publishedRevision !== null && p.publishedRevision === p.schemaRevision,
      botPauseMinutes: p.botPauseMinutes,
      aiDailyTokenLimit: p.aiDailyTokenLimit,
      nextBlockId: p.nextBlockId,
      nextArrowId: p.nextArrowId,
      createdAt: iso(p.createdAt),
    },
  ];
  for (const c of await tx.projectConstant.findMany({ where: { projectId }, orderBy: { name: 'asc' } }))
    yield ['constant', { name: c.name, value: c.value }];
  if (secretsKey)
    for (const [name, value] of await openedSecrets(tx, projectId))
      yield ['secret', { name, sealed: sealForArchive(secretsKey, `secret:${name}`, value) }];

  for (const f of await tx.crmFunnel.findMany({ where: { projectId }, orderBy: { id: 'asc' } }))
    yield ['funnel', { id: f.id, name: f.name, position: f.position, cardVariables: f.cardVariables }];
  for (const s of await tx.crmState.findMany({ where: { projectId }, orderBy: { id: 'asc' } }))
    yield [
      'state',
      { id: s.id, funnelId: s.funnelId, name: s.name, position: s.position, color: s.color, kind: s.kind },
    ];
  for (const l of await tx.clientList.findMany({ where: { projectId }, orderBy: { id: 'asc' } }))
    yield ['list', { id: l.id, name: l.name, createdAt: iso(l.createdAt) }];

  const { schema } = await loadBotSchema(tx, projectId, { withTests: true });
  yield ['draft', { schema: schema as unknown as RecordInput<'draft'>['schema'] }];
  for await (const v of paged(
    (last: { number: number } | undefined) =>
      tx.botVersion.findMany({
        where: { projectId, number: { gt: last?.number ?? 0 } },
        orderBy: { number: 'asc' },
        take: 50,
      }),
    50,
  ))
    yield [
      'version',
      {
        number: v.number,
        schema: v.schema as RecordInput<'version'>['schema'],
        blockCount: v.blockCount,
        arrowCount: v.arrowCount,
        answersCallbacks: v.answersCallbacks,
        restoredFrom: v.restoredFrom,
        note: v.note,
        publishedByName: v.publishedByName,
        publishedAt: iso(v.publishedAt),
        testsRun: v.testsRun,
        testsFailed: v.testsFailed,
      },
    ];

  for (const c of await tx.channel.findMany({ where: { projectId }, orderBy: { id: 'asc' } }))
    yield [
      'channel',
      {
        id: c.id,
        kind: c.kind,
        clientType: c.clientType,
        groupId: c.groupId,
        name: c.name,
        connected: Object.keys((c.credentials as object | null) ?? {}).length > 0,
        status: c.status,
        receiveMode: c.receiveMode,
        settings: c.settings as RecordInput<'channel'>['settings'],
        createdAt: iso(c.createdAt),
      },
    ];

  for await (const c of paged((last: { id: number } | undefined) =>
    tx.client.findMany({
      where: { projectId, id: { gt: last?.id ?? 0 } },
      orderBy: { id: 'asc' },
      take: PAGE,
    }),
  ))
    yield [
      'client',
      {
        id: c.id,
        platformId: c.platformId,
        groupId: c.groupId,
        clientType: c.clientType,
        name: c.name,
        tag: c.tag,
        avatar: c.avatar,
        currentBlockId: c.currentBlockId,
        lastBlockAt: isoOrNull(c.lastBlockAt),
        subscribed: c.subscribed,
        createdAt: iso(c.createdAt),
        updatedAt: iso(c.updatedAt),
        lastMessageAt: isoOrNull(c.lastMessageAt),
        customAnswer: c.customAnswer,
        botPausedAt: isoOrNull(c.botPausedAt),
        botPausedUntil: isoOrNull(c.botPausedUntil),
        waitingSince: isoOrNull(c.waitingSince),
      },
    ];
  for await (const v of paged((last: { clientId: number; name: string } | undefined) =>
    tx.clientVariable.findMany({
      where: { projectId, ...afterPair('clientId', last?.clientId, 'name', last?.name) },
      orderBy: [{ clientId: 'asc' }, { name: 'asc' }],
      take: PAGE,
    }),
  ))
    yield [
      'clientVariable',
      { clientId: v.clientId, name: v.name, value: v.value, updatedAt: iso(v.updatedAt) },
    ];
  for await (const s of paged((last: { clientId: number; key: string } | undefined) =>
    tx.clientChannelState.findMany({
      where: { client: { projectId }, ...afterPair('clientId', last?.clientId, 'key', last?.key) },
      orderBy: [{ clientId: 'asc' }, { key: 'asc' }],
      take: PAGE,
    }),
  ))
    yield ['channelState', { clientId: s.clientId, key: s.key, value: s.value, updatedAt: iso(s.updatedAt) }];
  for await (const w of paged((last: { id: number } | undefined) =>
    tx.widgetVisitor.findMany({
      where: { channel: { projectId }, id: { gt: last?.id ?? 0 } },
      orderBy: { id: 'asc' },
      take: PAGE,
    }),
  ))
    yield [
      'widgetVisitor',
      { channelId: w.channelId, clientId: w.clientId, tokenHash: w.tokenHash, createdAt: iso(w.createdAt) },
    ];

  for await (const d of paged((last: { id: number } | undefined) =>
    tx.deal.findMany({ where: { projectId, id: { gt: last?.id ?? 0 } }, orderBy: { id: 'asc' }, take: PAGE }),
  ))
    yield [
      'deal',
      {
        id: d.id,
        clientId: d.clientId,
        stateId: d.stateId,
        closedAt: isoOrNull(d.closedAt),
        createdAt: iso(d.createdAt),
        updatedAt: iso(d.updatedAt),
      },
    ];
  for await (const v of paged((last: { dealId: number; name: string } | undefined) =>
    tx.dealVariable.findMany({
      where: { projectId, ...afterPair('dealId', last?.dealId, 'name', last?.name) },
      orderBy: [{ dealId: 'asc' }, { name: 'asc' }],
      take: PAGE,
    }),
  ))
    yield ['dealVariable', { dealId: v.dealId, name: v.name, value: v.value, updatedAt: iso(v.updatedAt) }];
  for await (const m of paged((last: { listId: number; clientId: number } | undefined) =>
    tx.clientListMember.findMany({
      where: { projectId, ...afterPair('listId', last?.listId, 'clientId', last?.clientId) },
      orderBy: [{ listId: 'asc' }, { clientId: 'asc' }],
      take: PAGE,
    }),
  ))
    yield ['listMember', { listId: m.listId, clientId: m.clientId, addedAt: iso(m.addedAt) }];

  // Before the messages, whose attachments may show them.
  for await (const f of paged(
    (last: { id: string } | undefined) =>
      tx.storedFile.findMany({
        where: { projectId, ...(last ? { id: { gt: last.id } } : {}) },
        orderBy: { id: 'asc' },
        take: FILE_PAGE,
      }),
    FILE_PAGE,
  ))
    yield [
      'file',
      {
        id: f.id,
        clientId: f.clientId,
        name: f.name,
        mimeType: f.mimeType,
        sha256: f.sha256,
        bytes: base64(f.bytes),
        uploadKey: f.uploadKey,
        createdAt: iso(f.createdAt),
      },
    ];
  for await (const m of paged((last: { id: bigint } | undefined) =>
    tx.message.findMany({
      where: { projectId, id: { gt: last?.id ?? 0n } },
      orderBy: { id: 'asc' },
      take: PAGE,
    }),
  ))
    yield [
      'message',
      {
        id: m.id.toString(),
        clientId: m.clientId,
        direction: m.direction,
        text: m.text,
        attachments: m.attachments as RecordInput<'message'>['attachments'],
        buttons: m.buttons as RecordInput<'message'>['buttons'],
        blockId: m.blockId,
        messageFromOutside: m.messageFromOutside,
        delivered: m.delivered,
        error: m.error,
        status: m.status,
        externalId: m.externalId,
        createdAt: iso(m.createdAt),
      },
    ];
  for await (const s of paged((last: { id: number } | undefined) =>
    tx.submission.findMany({
      where: { projectId, id: { gt: last?.id ?? 0 } },
      orderBy: { id: 'asc' },
      take: PAGE,
    }),
  ))
    yield [
      'submission',
      {
        clientId: s.clientId,
        dealId: s.dealId,
        blockId: s.blockId,
        variables: s.variables as RecordInput<'submission'>['variables'],
        kept: s.kept,
        createdAt: iso(s.createdAt),
      },
    ];
  for (const c of await tx.flowCount.findMany({
    where: { projectId },
    orderBy: [{ version: 'asc' }, { day: 'asc' }, { kind: 'asc' }, { targetId: 'asc' }],
  }))
    yield [
      'flowCount',
      {
        version: c.version,
        day: iso(c.day),
        kind: c.kind as RecordInput<'flowCount'>['kind'],
        targetId: c.targetId,
        count: c.count,
        visitors: base64(c.visitors),
        test: c.test,
      },
    ];

  for (const a of await tx.aiProvider.findMany({
    where: { projectId },
    orderBy: { id: 'asc' },
    include: { modelParameters: { orderBy: { model: 'asc' } } },
  })) {
    yield [
      'aiProvider',
      {
        id: a.id,
        name: a.name,
        baseUrl: a.baseUrl,
        chatModel: a.chatModel,
        embeddingModel: a.embeddingModel,
        embeddingDimensions: a.embeddingDimensions,
        apiKeySecret: a.apiKeySecret,
        timeoutSeconds: a.timeoutSeconds,
        requestsPerMinute: a.requestsPerMinute,
        tokenParameter: a.tokenParameter,
        temperature: a.temperature,
        isDefault: a.isDefault,
        createdAt: iso(a.createdAt),
      },
    ];
    for (const m of a.modelParameters)
      yield [
        'aiModelParameters',
        {
          providerId: a.id,
          model: m.model,
          tokenParameter: m.tokenParameter,
          temperature: m.temperature,
          system: m.system,
          learnedAt: iso(m.learnedAt),
        },
      ];
  }
  for (const a of await tx.aiAssistant.findMany({ where: { projectId }, orderBy: { id: 'asc' } }))
    yield [
      'aiAssistant',
      { settings: a.settings as RecordInput<'aiAssistant'>['settings'], createdAt: iso(a.createdAt) },
    ];
  for (const d of await tx.knowledgeDocument.findMany({ where: { projectId }, orderBy: { id: 'asc' } }))
    yield [
      'knowledgeDocument',
      {
        id: d.id,
        title: d.title,
        sourceKind: d.sourceKind,
        sourceUrl: d.sourceUrl,
        status: d.status,
        error: d.error,
        chunkSize: d.chunkSize,
        byteSize: d.byteSize,
        createdAt: iso(d.createdAt),
      },
    ];
  for await (const c of paged((last: { id: number } | undefined) =>
    tx.knowledgeChunk.findMany({
      where: { projectId, id: { gt: last?.id ?? 0 } },
      orderBy: { id: 'asc' },
      take: PAGE,
      select: {
        id: true,
        documentId: true,
        position: true,
        headingPath: true,
        text: true,
        embedding: true,
        embeddingModel: true,
        dimensions: true,
      },
    }),
  ))
    yield [
      'knowledgeChunk',
      {
        documentId: c.documentId,
        position: c.position,
        headingPath: c.headingPath,
        text: c.text,
        embedding: c.embedding ? base64(c.embedding) : null,
        embeddingModel: c.embeddingModel,
        dimensions: c.dimensions,
      },
    ];
}

/** The project's secrets opened with this instance's key, or an error saying why they do not open. */
async function openedSecrets(tx: Prisma.TransactionClient, projectId: number) {
  try {
    return await loadSecrets(tx, projectId);
  } catch (error) {
    if (error instanceof SecretBoxError)
      throw new TransferError(`the project's secrets cannot be exported: ${error.message}`);
    throw error;
  }
}

/** Rows after (a, b) in the order of a then b: the next page of a table keyed by a pair. */
function afterPair<A extends string, B extends string, VA, VB>(
  a: A,
  va: VA | undefined,
  b: B,
  vb: VB | undefined,
) {
  if (va === undefined) return {};
  return { OR: [{ [a]: { gt: va } }, { [a]: va, [b]: { gt: vb } }] };
}
