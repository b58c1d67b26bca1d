import { createHash, randomBytes } from 'node:crypto';
import { parseBotSchema } from '@/lib/schema';
import { describeFieldErrors } from '@/lib/schema/parse';
import {
  ARCHIVE_VERSION,
  type ArchiveHeader,
  type ArchiveRecord,
  describeRecordError,
  endSchema,
  headerSchema,
  type RecordKind,
  recordSchemas,
} from '@/lib/transfer/archive-format';
import { remapBotIds } from '@/lib/transfer/remap-bot';
import { valueKey } from '@/server/contacts/variable-limits';
import type { PrismaClient } from '@/server/db/client-type';
import { Prisma } from '@/server/db/generated/client';
import { readMigrations } from '@/server/db/migration-files';
import { reserveIds, type SerialTable } from '@/server/db/transfer-sql';
import { storedFileUrl } from '@/server/files/stored-files';
import { replaceBotRows } from '@/server/projects/bot-schema-store';
import { newWebhookSecret } from '@/server/projects/project-service';
import { setSecret } from '@/server/secrets/secret-service';
import { readArchive } from './archive-file';
import { openArchiveKey, openFromArchive } from './archive-key';
import { TransferError } from './transfer-error';

/**
 * Reads an archive (lib/transfer/archive-format.ts) into a NEW project of this instance: every
 * row gets an id of this database's own and every reference is pointed at it. One transaction:
 * a damaged or refused archive leaves nothing behind. Records are checked as they are read and
 * written in batches, so the archive is never in memory whole.
 */

export interface ImportOptions {
  /** The archive's secrets key; required when the archive carries secrets. */
  secretsKey?: string;
  /** The new project's owner (its only member); none: a project without members, as `project create`. */
  owner?: { email: string; userId?: string; name?: string };
  /** The new project's name; the archive's by default. */
  name?: string;
  /** Return the archive's ids → the new ones too (`idMap`), for integrations that keep ids. */
  withIdMap?: boolean;
}

/** The archive's ids of what integrations refer to (`client_id`, `order_id`…) → the new project's. */
export type IdMap = Record<'client' | 'deal' | 'list' | 'state' | 'funnel', Record<number, number>>;

export interface ImportReport {
  projectId: number;
  name: string;
  source: ArchiveHeader['source'] & { exportedAt: Date };
  /** Rows made, by record kind, plus the draft's `blocks`, `arrows` and `tests`. */
  counts: Record<string, number>;
  /** What the archive had and this import did not make, and why. */
  skipped: { what: string; count: number; reason: string }[];
  /** What is never in an archive and what to do about it. */
  notes: string[];
  idMap?: IdMap;
}

const BATCH = 500;
const FILE_BATCH = 20;
/** A long history takes a while on a loaded machine; the whole import is one transaction. */
const IMPORT_TRANSACTION = { timeout: 60 * 60_000, maxWait: 30_000 };

const NOT_MOVED_NOTES = [
  'API keys are not moved: create new ones (blockbot key create --project <id>, or Settings, API).',
  'Members are not moved: the owner given is the only one; invite the team again.',
  'Broadcasts, pending timers and delayed messages, the engine log, webhook deliveries and test runs are not moved (the messages broadcasts sent are in the history).',
  "Analytics' raw events not yet counted are not moved; the daily counts are.",
];

export async function importProject(
  db: PrismaClient,
  file: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const lines = readArchive(file);
  try {
    const first = await lines.next();
    const header = readHeader(file, first.done ? undefined : first.value.value);
    const key = header.secrets ? openKey(header, options.secretsKey) : undefined;
    return await db.$transaction(async (tx) => {
      const run = new ImportRun(tx, file, header, key, options);
      for await (const { line, value } of lines) await run.take(line, value);
      return run.finish();
    }, IMPORT_TRANSACTION);
  } finally {
    await lines.return(undefined);
  }
}

function readHeader(file: string, value: unknown): ArchiveHeader {
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success)
    throw new TransferError(
      `${file} is not a Blockbot project archive (${describeRecordError(1, 'header', parsed.error)})`,
    );
  const header = parsed.data;
  if (header.version > ARCHIVE_VERSION)
    throw new TransferError(
      `${file} is an archive of format version ${header.version}, made by a newer Blockbot: upgrade this instance to import it`,
    );
  const migrations = readMigrations().map((m) => m.name);
  const last = migrations.at(-1) ?? '';
  if (!migrations.includes(header.source.migration) && header.source.migration > last)
    throw new TransferError(
      `${file} was made by a newer Blockbot (database ${header.source.migration}, this instance has ${last}): upgrade this instance to import it`,
    );
  return header;
}

function openKey(header: ArchiveHeader, passphrase: string | undefined): Buffer {
  if (!passphrase)
    throw new TransferError(
      'this archive carries secrets: give the key it was exported with (--key, or BLOCKBOT_EXPORT_KEY)',
    );
  return openArchiveKey(header.secrets!, passphrase);
}

type Tx = Prisma.TransactionClient;

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
type Pending = { [K in RecordKind]: { kind: K; rows: { line: number; r: ArchiveRecord<K> }[] } }[RecordKind];

class ImportRun {
  private projectId = 0;
  private projectRecord?: ArchiveRecord<'project'>;
  private pending?: Pending;
  private ended = false;
  private readonly counts: Record<string, number> = {};
  private readonly skipped = new Map<string, { what: string; count: number; reason: string }>();
  private readonly ids = {
    funnel: new Map<number, number>(),
    state: new Map<number, number>(),
    list: new Map<number, number>(),
    channel: new Map<number, number>(),
    client: new Map<number, number>(),
    deal: new Map<number, number>(),
    aiProvider: new Map<number, number>(),
    knowledgeDocument: new Map<number, number>(),
  };
  /** The archive's stored files → this instance's, for the addresses in messages. */
  private readonly files = new Map<string, { id: string; name: string }>();
  private readonly read: Record<string, number> = {};

  constructor(
    private readonly tx: Tx,
    private readonly file: string,
    private readonly header: ArchiveHeader,
    private readonly key: Buffer | undefined,
    private readonly options: ImportOptions,
  ) {}

  private fail(line: number, message: string): never {
    throw new TransferError(`${this.file}: line ${line}: ${message}; nothing was imported`);
  }

  async take(line: number, value: unknown): Promise<void> {
    if (this.ended) this.fail(line, 'there is more after the end record');
    const t = (value as { t?: unknown } | null)?.t;
    if (t === 'end') {
      const end = endSchema.safeParse(value);
      if (!end.success) this.fail(line, describeRecordError(line, 'end', end.error));
      await this.flush();
      for (const [kind, n] of Object.entries(end.data.counts))
        if ((this.read[kind] ?? 0) !== n)
          this.fail(
            line,
            `the archive says it has ${n} ${kind} records, but ${this.read[kind] ?? 0} were read`,
          );
      this.ended = true;
      return;
    }
    if (typeof t !== 'string' || !(t in recordSchemas))
      this.fail(line, `unknown record kind ${JSON.stringify(t)} (an archive of a newer Blockbot?)`);
    const kind = t as RecordKind;
    const parsed = recordSchemas[kind].safeParse((value as { r?: unknown }).r);
    if (!parsed.success)
      throw new TransferError(
        `${this.file}: ${describeRecordError(line, kind, parsed.error)}; nothing was imported`,
      );
    this.read[kind] = (this.read[kind] ?? 0) + 1;
    if (kind !== 'project' && !this.read.project) this.fail(line, 'the project record must come first');
    if (this.pending && this.pending.kind !== kind) await this.flush();
    this.pending ??= { kind, rows: [] } as Pending;
    (this.pending.rows as { line: number; r: unknown }[]).push({ line, r: parsed.data });
    if (this.pending.rows.length >= (kind === 'file' ? FILE_BATCH : BATCH)) await this.flush();
  }

  private count(kind: string, n: number) {
    if (n) this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }

  private skip(what: string, reason: string, n = 1) {
    const key = `${what}\n${reason}`;
    const known = this.skipped.get(key);
    if (known) known.count += n;
    else this.skipped.set(key, { what, count: n, reason });
  }

  /** An id of the archive, as this import made it; one the archive never gave is an error. */
  private mapped(map: keyof ImportRun['ids'], id: number, line: number): number {
    const to = this.ids[map].get(id);
    if (to === undefined) this.fail(line, `${map} ${id} is not in the archive (before this record)`);
    return to;
  }

  /** New ids from the table's sequence, in the archive's order (history pages by id). */
  private async newIds(table: SerialTable, from: readonly number[], map?: keyof ImportRun['ids']) {
    const ids = (await reserveIds(this.tx, table, from.length)).map(Number);
    if (map) for (const [i, old] of from.entries()) this.ids[map].set(old, ids[i]);
    return ids;
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = undefined;
    if (!batch?.rows.length) return;
    // Each kind's rows, written; typed by the kind they were read as.
    const write = this.writers[batch.kind] as (rows: Pending['rows']) => Promise<void>;
    await write(batch.rows);
  }

  private readonly writers: {
    [K in RecordKind]: (rows: { line: number; r: ArchiveRecord<K> }[]) => Promise<void>;
  } = {
    project: async (rows) => {
      if (rows.length > 1 || this.projectRecord) this.fail(rows.at(-1)!.line, 'a second project record');
      const p = rows[0].r;
      this.projectRecord = p;
      const webhookSecret =
        p.webhookSecret && this.key
          ? openFromArchive(this.key, 'webhook-secret', p.webhookSecret)
          : newWebhookSecret();
      const project = await this.tx.project.create({
        data: {
          name: this.options.name ?? p.name,
          plan: p.plan,
          timeZone: p.timeZone,
          webhookUrl: p.webhookUrl,
          webhookSecret,
          webhookTestConversations: p.webhookTestConversations,
          operatorsSendBroadcasts: p.operatorsSendBroadcasts,
          apiAllowedOrigins: p.apiAllowedOrigins,
          publishedVersion: p.publishedVersion,
          botPauseMinutes: p.botPauseMinutes,
          aiDailyTokenLimit: p.aiDailyTokenLimit,
          nextBlockId: p.nextBlockId,
          nextArrowId: p.nextArrowId,
          createdAt: p.createdAt,
        },
      });
      this.projectId = project.id;
      if (p.webhookUrl && !p.webhookSecret)
        this.skip(
          'webhook signing secret',
          'not in the archive (exported without --with-secrets): a new one was made; give it to the webhook receiver',
        );
      if (p.secretsLeftOut.length)
        this.skip(
          `project secrets (${p.secretsLeftOut.join(', ')})`,
          'exported without --with-secrets: set them again in Settings, Secrets',
          p.secretsLeftOut.length,
        );
      const owner = this.options.owner;
      if (owner)
        await this.tx.projectMember.create({
          data: {
            projectId: project.id,
            userId: owner.userId,
            email: owner.email.toLowerCase(),
            name: owner.name ?? '',
            role: 'owner',
          },
        });
      this.count('project', 1);
    },
    constant: async (rows) => {
      await this.tx.projectConstant.createMany({
        data: rows.map(({ r }) => ({ projectId: this.projectId, name: r.name, value: r.value })),
      });
      this.count('constant', rows.length);
    },
    secret: async (rows) => {
      for (const { r } of rows) {
        const value = openFromArchive(this.key!, `secret:${r.name}`, r.sealed);
        await setSecret(this.tx, this.projectId, r.name, value);
      }
      this.count('secret', rows.length);
    },
    funnel: async (rows) => {
      const ids = await this.newIds(
        'CrmFunnel',
        rows.map(({ r }) => r.id),
        'funnel',
      );
      await this.tx.crmFunnel.createMany({
        data: rows.map(({ r }, i) => ({
          id: ids[i],
          projectId: this.projectId,
          name: r.name,
          position: r.position,
          cardVariables: r.cardVariables,
        })),
      });
      this.count('funnel', rows.length);
    },
    state: async (rows) => {
      const funnels = rows.map(({ r, line }) => this.mapped('funnel', r.funnelId, line));
      const ids = await this.newIds(
        'CrmState',
        rows.map(({ r }) => r.id),
        'state',
      );
      await this.tx.crmState.createMany({
        data: rows.map(({ r }, i) => ({
          id: ids[i],
          projectId: this.projectId,
          funnelId: funnels[i],
          name: r.name,
          position: r.position,
          color: r.color,
          kind: r.kind,
        })),
      });
      this.count('state', rows.length);
    },
    list: async (rows) => {
      const ids = await this.newIds(
        'ClientList',
        rows.map(({ r }) => r.id),
        'list',
      );
      await this.tx.clientList.createMany({
        data: rows.map(({ r }, i) => ({
          id: ids[i],
          projectId: this.projectId,
          name: r.name,
          createdAt: r.createdAt,
        })),
      });
      this.count('list', rows.length);
    },
    draft: async (rows) => {
      const { line, r } = rows.at(-1)!;
      const parsed = parseBotSchema(remapBotIds(r.schema, this.ids));
      if (!parsed.ok) this.fail(line, `the draft bot is invalid:\n${describeFieldErrors(parsed.errors)}`);
      await replaceBotRows(this.tx, this.projectId, parsed.value);
      const published = this.projectRecord!.draftIsPublished;
      await this.tx.project.update({
        where: { id: this.projectId },
        data: { schemaRevision: 1, publishedRevision: published ? 1 : null },
      });
      this.count('blocks', parsed.value.blocks.length);
      this.count('arrows', parsed.value.arrows.length);
      this.count('tests', parsed.value.tests?.length ?? 0);
    },
    version: async (rows) => {
      await this.tx.botVersion.createMany({
        data: rows.map(({ r }) => ({
          projectId: this.projectId,
          number: r.number,
          schema: remapBotIds(r.schema, this.ids) as Prisma.InputJsonObject,
          blockCount: r.blockCount,
          arrowCount: r.arrowCount,
          answersCallbacks: r.answersCallbacks,
          restoredFrom: r.restoredFrom,
          note: r.note,
          publishedByName: r.publishedByName,
          publishedAt: r.publishedAt,
          testsRun: r.testsRun,
          testsFailed: r.testsFailed,
        })),
      });
      this.count('version', rows.length);
    },
    channel: async (rows) => {
      const moving: typeof rows = [];
      for (const row of rows) {
        const c = row.r;
        const label = `${c.kind} channel${c.name ? ` "${c.name}"` : ''} (${c.groupId})`;
        if (c.connected) {
          this.skip(
            label,
            "its messenger's credentials are not moved: connect it again on the Channels tab; its clients and their history are kept and reached again once the same bot is connected",
          );
          continue;
        }
        const taken = await this.tx.channel.findFirst({
          where: { clientType: c.clientType, groupId: c.groupId },
          select: { id: true },
        });
        if (taken) {
          this.skip(label, 'a channel with its key is already on this instance (the project it came from?)');
          continue;
        }
        moving.push(row);
      }
      const ids = await this.newIds(
        'Channel',
        moving.map(({ r }) => r.id),
        'channel',
      );
      if (moving.length)
        await this.tx.channel.createMany({
          data: moving.map(({ r }, i) => ({
            id: ids[i],
            projectId: this.projectId,
            kind: r.kind as Prisma.ChannelCreateManyInput['kind'],
            clientType: r.clientType,
            groupId: r.groupId,
            name: r.name,
            status: r.status,
            receiveMode: r.receiveMode,
            settings: r.settings as Prisma.InputJsonValue,
            createdAt: r.createdAt,
          })),
        });
      this.count('channel', moving.length);
    },
    client: async (rows) => {
      const ids = await this.newIds(
        'Client',
        rows.map(({ r }) => r.id),
        'client',
      );
      await this.tx.client.createMany({
        data: rows.map(({ r }, i) => ({
          id: ids[i],
          projectId: this.projectId,
          platformId: r.platformId,
          groupId: r.groupId,
          clientType: r.clientType,
          name: r.name,
          tag: r.tag,
          avatar: r.avatar,
          currentBlockId: r.currentBlockId,
          lastBlockAt: r.lastBlockAt,
          subscribed: r.subscribed,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          lastMessageAt: r.lastMessageAt,
          customAnswer: r.customAnswer,
          botPausedAt: r.botPausedAt,
          botPausedUntil: r.botPausedUntil,
          waitingSince: r.waitingSince,
        })),
      });
      this.count('client', rows.length);
    },
    clientVariable: async (rows) => {
      await this.tx.clientVariable.createMany({
        data: rows.map(({ r, line }) => ({
          projectId: this.projectId,
          clientId: this.mapped('client', r.clientId, line),
          name: r.name,
          value: r.value,
          valueKey: valueKey(r.value),
          updatedAt: r.updatedAt,
        })),
      });
      this.count('clientVariable', rows.length);
    },
    channelState: async (rows) => {
      await this.tx.clientChannelState.createMany({
        data: rows.map(({ r, line }) => ({
          clientId: this.mapped('client', r.clientId, line),
          key: r.key,
          value: r.value,
          updatedAt: r.updatedAt,
        })),
      });
      this.count('channelState', rows.length);
    },
    widgetVisitor: async (rows) => {
      const moving = rows.filter(({ r }) => this.ids.channel.has(r.channelId));
      if (moving.length < rows.length)
        this.skip('widget visitors', 'their widget was not moved', rows.length - moving.length);
      const taken = new Set(
        (
          await this.tx.widgetVisitor.findMany({
            where: { tokenHash: { in: moving.map(({ r }) => r.tokenHash) } },
            select: { tokenHash: true },
          })
        ).map((v) => v.tokenHash),
      );
      const fresh = moving.filter(({ r }) => !taken.has(r.tokenHash));
      if (fresh.length < moving.length)
        this.skip(
          'widget visitors',
          'already on this instance (the project it came from?): they keep their dialog there',
          moving.length - fresh.length,
        );
      if (fresh.length)
        await this.tx.widgetVisitor.createMany({
          data: fresh.map(({ r, line }) => ({
            channelId: this.mapped('channel', r.channelId, line),
            clientId: this.mapped('client', r.clientId, line),
            tokenHash: r.tokenHash,
            createdAt: r.createdAt,
          })),
        });
      this.count('widgetVisitor', fresh.length);
    },
    deal: async (rows) => {
      const clients = rows.map(({ r, line }) => this.mapped('client', r.clientId, line));
      const states = rows.map(({ r, line }) =>
        r.stateId === null ? null : this.mapped('state', r.stateId, line),
      );
      const ids = await this.newIds(
        'Deal',
        rows.map(({ r }) => r.id),
        'deal',
      );
      await this.tx.deal.createMany({
        data: rows.map(({ r }, i) => ({
          id: ids[i],
          projectId: this.projectId,
          clientId: clients[i],
          stateId: states[i],
          closedAt: r.closedAt,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
        })),
      });
      this.count('deal', rows.length);
    },
    dealVariable: async (rows) => {
      await this.tx.dealVariable.createMany({
        data: rows.map(({ r, line }) => ({
          projectId: this.projectId,
          dealId: this.mapped('deal', r.dealId, line),
          name: r.name,
          value: r.value,
          valueKey: valueKey(r.value),
          updatedAt: r.updatedAt,
        })),
      });
      this.count('dealVariable', rows.length);
    },
    listMember: async (rows) => {
      await this.tx.clientListMember.createMany({
        data: rows.map(({ r, line }) => ({
          projectId: this.projectId,
          listId: this.mapped('list', r.listId, line),
          clientId: this.mapped('client', r.clientId, line),
          addedAt: r.addedAt,
        })),
      });
      this.count('listMember', rows.length);
    },
    file: async (rows) => {
      const data = rows.map(({ r, line }) => {
        const bytes = fromBase64(r.bytes);
        if (createHash('sha256').update(bytes).digest('hex') !== r.sha256)
          this.fail(line, `stored file "${r.name}" is damaged: its bytes do not match its SHA-256`);
        const id = randomBytes(16).toString('base64url');
        this.files.set(r.id, { id, name: r.name });
        return {
          id,
          projectId: this.projectId,
          clientId: this.mapped('client', r.clientId, line),
          name: r.name,
          mimeType: r.mimeType,
          size: bytes.byteLength,
          sha256: r.sha256,
          bytes,
          uploadKey: r.uploadKey,
          createdAt: r.createdAt,
        };
      });
      await this.tx.storedFile.createMany({ data });
      this.count('file', rows.length);
    },
    message: async (rows) => {
      const clients = rows.map(({ r, line }) => this.mapped('client', r.clientId, line));
      const ids = await reserveIds(this.tx, 'Message', rows.length);
      await this.tx.message.createMany({
        data: rows.map(({ r }, i) => ({
          id: ids[i],
          projectId: this.projectId,
          clientId: clients[i],
          direction: r.direction,
          text: r.text,
          attachments: this.fileAddresses(r.attachments) as Prisma.InputJsonValue,
          buttons: r.buttons === null ? Prisma.DbNull : (r.buttons as Prisma.InputJsonValue),
          blockId: r.blockId,
          messageFromOutside: r.messageFromOutside,
          delivered: r.delivered,
          error: r.error,
          status: r.status,
          externalId: r.externalId,
          createdAt: r.createdAt,
        })),
      });
      this.count('message', rows.length);
    },
    submission: async (rows) => {
      await this.tx.submission.createMany({
        data: rows.map(({ r, line }) => ({
          projectId: this.projectId,
          clientId: this.mapped('client', r.clientId, line),
          dealId: r.dealId === null ? null : this.mapped('deal', r.dealId, line),
          blockId: r.blockId,
          variables: r.variables as Prisma.InputJsonValue,
          kept: r.kept,
          createdAt: r.createdAt,
        })),
      });
      this.count('submission', rows.length);
    },
    flowCount: async (rows) => {
      // A stage's counts name it by id; those of a stage deleted since are left behind.
      const kept = rows.filter(({ r }) => r.kind !== 'stage' || this.ids.state.has(r.targetId));
      if (kept.length < rows.length)
        this.skip('analytics counts', 'of CRM stages deleted before the export', rows.length - kept.length);
      if (kept.length)
        await this.tx.flowCount.createMany({
          data: kept.map(({ r }) => ({
            projectId: this.projectId,
            version: r.version,
            day: r.day,
            kind: r.kind,
            targetId: r.kind === 'stage' ? this.ids.state.get(r.targetId)! : r.targetId,
            count: r.count,
            visitors: fromBase64(r.visitors),
            test: r.test,
          })),
        });
      this.count('flowCount', kept.length);
    },
    aiProvider: async (rows) => {
      const ids = await this.newIds(
        'AiProvider',
        rows.map(({ r }) => r.id),
        'aiProvider',
      );
      await this.tx.aiProvider.createMany({
        data: rows.map(({ r }, i) => {
          const { id: _, ...rest } = r;
          return { ...rest, id: ids[i], projectId: this.projectId };
        }),
      });
      if (!this.key && rows.some(({ r }) => r.apiKeySecret))
        this.skip(
          'AI provider API keys',
          'project secrets are not in the archive: set them again in Settings, Secrets',
          rows.filter(({ r }) => r.apiKeySecret).length,
        );
      this.count('aiProvider', rows.length);
    },
    aiModelParameters: async (rows) => {
      await this.tx.aiModelParameters.createMany({
        data: rows.map(({ r, line }) => ({
          ...r,
          providerId: this.mapped('aiProvider', r.providerId, line),
        })),
      });
      this.count('aiModelParameters', rows.length);
    },
    aiAssistant: async (rows) => {
      await this.tx.aiAssistant.createMany({
        data: rows.map(({ r }) => ({
          projectId: this.projectId,
          settings: r.settings as Prisma.InputJsonValue,
          createdAt: r.createdAt,
        })),
      });
      this.count('aiAssistant', rows.length);
    },
    knowledgeDocument: async (rows) => {
      const ids = await this.newIds(
        'KnowledgeDocument',
        rows.map(({ r }) => r.id),
        'knowledgeDocument',
      );
      await this.tx.knowledgeDocument.createMany({
        data: rows.map(({ r }, i) => {
          const { id: _, ...rest } = r;
          // Revision 1 with the project's: every process's vector cache loads it afresh.
          return { ...rest, id: ids[i], projectId: this.projectId, revision: 1 };
        }),
      });
      await this.tx.project.update({ where: { id: this.projectId }, data: { knowledgeRevision: 1 } });
      this.count('knowledgeDocument', rows.length);
    },
    knowledgeChunk: async (rows) => {
      await this.tx.knowledgeChunk.createMany({
        data: rows.map(({ r, line }) => ({
          ...r,
          embedding: r.embedding === null ? null : fromBase64(r.embedding),
          projectId: this.projectId,
          documentId: this.mapped('knowledgeDocument', r.documentId, line),
        })),
      });
      this.count('knowledgeChunk', rows.length);
    },
  };

  /**
   * A message's attachments with the addresses of stored files pointed at this instance's copy:
   * an address is signed by the instance that made it, so the source's would not open here.
   */
  private fileAddresses(attachments: unknown): unknown {
    if (!Array.isArray(attachments) || !this.files.size) return attachments;
    return attachments.map((a) => {
      const url = (a as { url?: unknown } | null)?.url;
      const id = typeof url === 'string' ? /\/api\/files\/([A-Za-z0-9_-]{22})\//.exec(url)?.[1] : undefined;
      const file = id ? this.files.get(id) : undefined;
      return file ? { ...(a as object), url: storedFileUrl(file) } : a;
    });
  }

  async finish(): Promise<ImportReport> {
    await this.flush();
    if (!this.ended)
      throw new TransferError(`${this.file} was cut off: it has no end record; nothing was imported`);
    if (!this.projectRecord)
      throw new TransferError(`${this.file} has no project record; nothing was imported`);
    return {
      projectId: this.projectId,
      name: this.options.name ?? this.projectRecord.name,
      source: { ...this.header.source, exportedAt: this.header.exportedAt },
      counts: this.counts,
      skipped: [...this.skipped.values()],
      notes: NOT_MOVED_NOTES,
      ...(this.options.withIdMap ? { idMap: this.idMap() } : {}),
    };
  }

  private idMap(): IdMap {
    const of = (map: Map<number, number>) => Object.fromEntries(map);
    const { client, deal, list, state, funnel } = this.ids;
    return { client: of(client), deal: of(deal), list: of(list), state: of(state), funnel: of(funnel) };
  }
}
